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
