import { Testing } from 'cdk8s';
import { Group, ServiceAccount, User } from 'cdk8s-plus-28';
import { RoleRefKind, SubjectRoleBinding } from '../../src';

describe('SubjectRoleBinding', () => {
  test('GIVEN subjects in any order, some twice THEN they are rendered sorted and once', () => {
    const chart = Testing.chart();
    const binding = new SubjectRoleBinding(chart, 'B', { name: 'b', namespace: 'ns', roleKind: RoleRefKind.CLUSTER_ROLE, roleName: 'view' });
    binding.addSubject(User.fromName(chart, 'zed', 'zed'));
    binding.addSubject(ServiceAccount.fromServiceAccountName(chart, 'sa', 'robot', { namespaceName: 'ci' }));
    binding.addSubject(Group.fromName(chart, 'devs', 'devs'));
    binding.addSubject(User.fromName(chart, 'zed2', 'zed'));
    expect(Testing.synth(chart)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'b', namespace: 'ns' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'robot', namespace: 'ci' },
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'zed' },
        ],
      },
    ]);
  });
});

describe('SubjectRoleBinding: subject kinds and apiGroups the API server refuses (ValidateRoleBindingSubject) are synth errors', () => {
  test.each([
    [['user', 'alice'], "kind 'user' is not supported (only ServiceAccount, User, Group, exact case)", 'user alice'],
    [['serviceaccount', 'ci', 'team-a'], "kind 'serviceaccount' is not supported (only ServiceAccount, User, Group, exact case)", 'serviceaccount team-a/ci'],
    [['ServiceAccount', 'ci', 'team-a', 'rbac.authorization.k8s.io'], 'apiGroup \'rbac.authorization.k8s.io\' is not supported for a ServiceAccount (only "")', 'ServiceAccount team-a/ci'],
    [['Group', 'devs', undefined, 'example.com'], "apiGroup 'example.com' is not supported for a Group (only rbac.authorization.k8s.io)", 'Group devs'],
  ] as Array<[[string, string, string?, string?], string, string]>)('addSubjectConfiguration(%j)', (args, problem, value) => {
    const chart = Testing.chart();
    const binding = new SubjectRoleBinding(chart, 'B', { name: 'b', namespace: 'ns', roleKind: RoleRefKind.CLUSTER_ROLE, roleName: 'view' });
    binding.addSubjectConfiguration(...args);
    expect(binding.node.validate()).toEqual([
      `addSubjectConfiguration=${JSON.stringify(value)}: the API server refuses this RoleBinding subject: ${problem}. `
      + 'Fix: use kind \'User\' or \'Group\' (apiGroup rbac.authorization.k8s.io) or \'ServiceAccount\' (apiGroup "", a valid name) (InvalidSubject)',
    ]);
    expect(binding.subjects).toEqual([]);
  });

  test('a ServiceAccount without namespace is the RoleBinding\'s: accepted (and matched in its namespace by the audit)', () => {
    const chart = Testing.chart();
    const binding = new SubjectRoleBinding(chart, 'B', { name: 'b', namespace: 'ns', roleKind: RoleRefKind.CLUSTER_ROLE, roleName: 'view' });
    binding.addSubjectConfiguration('ServiceAccount', 'ci');
    expect([binding.node.validate(), binding.subjects]).toEqual([[], [{ kind: 'ServiceAccount', name: 'ci' }]]);
  });
});
