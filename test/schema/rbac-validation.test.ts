import { RbacValidation } from '../util/rbac-validation';

// Cases follow kubernetes/kubernetes pkg/apis/rbac/validation/validation.go (commit 1dc8b4f2): one per check.
describe('ValidatePolicyRule', () => {
  const role = (rules: any[], kind = 'Role') => ({ kind, rules });

  test('a resource rule with verbs, apiGroups and resources is valid', () => {
    expect(RbacValidation.problems(role([{ apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'], verbs: ['get'] }]))).toEqual([]);
  });

  test('verbs must contain at least one value', () => {
    expect(RbacValidation.problems(role([{ apiGroups: [''], resources: ['pods'], verbs: [] }]))).toEqual([
      'rules[0].verbs is required: verbs must contain at least one value',
    ]);
  });

  test('resource rules must supply at least one api group and one resource', () => {
    expect(RbacValidation.problems(role([{ verbs: ['get'] }]))).toEqual([
      'rules[0].apiGroups is required: resource rules must supply at least one api group',
      'rules[0].resources is required: resource rules must supply at least one resource',
    ]);
  });

  test('namespaced rules cannot apply to non-resource URLs', () => {
    expect(RbacValidation.problems(role([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]))).toEqual([
      'rules[0].nonResourceURLs is invalid: namespaced rules cannot apply to non-resource URLs',
    ]);
    expect(RbacValidation.problems(role([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }], 'ClusterRole'))).toEqual([]);
  });

  test('rules cannot apply to both regular resources and non-resource URLs', () => {
    expect(RbacValidation.problems(role([{ nonResourceURLs: ['/healthz'], resources: ['pods'], verbs: ['get'] }], 'ClusterRole'))).toEqual([
      'rules[0].nonResourceURLs is invalid: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  test('an aggregationRule needs at least one clusterRoleSelector', () => {
    expect(RbacValidation.problems({ kind: 'ClusterRole', aggregationRule: { clusterRoleSelectors: [] } })).toEqual([
      'aggregationRule.clusterRoleSelectors is required: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
  });
});

describe('ValidateRoleBinding / ValidateClusterRoleBinding', () => {
  const sa = { kind: 'ServiceAccount', name: 'installer', namespace: 'tenant-a' };

  test('an empty roleRef.apiGroup is defaulted (SetDefaults_RoleBinding), so it is valid', () => {
    expect(RbacValidation.problems({ kind: 'RoleBinding', roleRef: { apiGroup: '', kind: 'Role', name: 'r' }, subjects: [sa] })).toEqual([]);
  });

  test('roleRef apiGroup and kind are checked; a ClusterRoleBinding can only reference a ClusterRole', () => {
    expect(RbacValidation.problems({ kind: 'ClusterRoleBinding', roleRef: { apiGroup: 'rbac', kind: 'Role', name: 'r' }, subjects: [sa] })).toEqual([
      'roleRef.apiGroup must be one of "rbac.authorization.k8s.io" (got "rbac")',
      'roleRef.kind must be one of "ClusterRole" (got "Role")',
    ]);
  });

  test('roleRef.name is a path segment', () => {
    expect(RbacValidation.problems({ kind: 'RoleBinding', roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'a/b' } })).toEqual([
      'roleRef.name "a/b" is invalid: may not contain \'/\' or \'%\'',
    ]);
  });

  test('a ServiceAccount subject: DNS-1123 subdomain name, empty apiGroup, namespace required in a ClusterRoleBinding', () => {
    expect(RbacValidation.problems({
      kind: 'ClusterRoleBinding',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'Installer', apiGroup: 'rbac.authorization.k8s.io' }],
    })).toEqual([
      'subjects[0].name "Installer" is invalid: must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (RFC 1123 subdomain)',
      'subjects[0].apiGroup must be one of "" (got "rbac.authorization.k8s.io")',
      'subjects[0].namespace is required',
    ]);
  });

  test('User and Group subjects default their apiGroup (SetDefaults_Subject); other kinds are rejected', () => {
    expect(RbacValidation.problems({
      kind: 'RoleBinding',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'devs', apiGroup: 'x' }, { kind: 'Robot', name: 'r2' }],
    })).toEqual([
      'subjects[1].apiGroup must be one of "rbac.authorization.k8s.io" (got "x")',
      'subjects[2].kind must be one of "ServiceAccount", "User", "Group" (got "Robot")',
    ]);
  });
});
