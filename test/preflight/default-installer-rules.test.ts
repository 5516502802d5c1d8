import { DefaultInstallerRules } from '../../src/preflight/default-installer-rules';

describe('DefaultInstallerRules', () => {
  test('okdScopedInstall is the Role of the OKD 4.17 docs "Fine-grained permissions", rule for rule', () => {
    // openshift/openshift-docs modules/olm-policy-fine-grained-permissions.adoc
    expect(DefaultInstallerRules.okdScopedInstall()).toEqual([
      { apiGroups: ['operators.coreos.com'], resources: ['subscriptions', 'clusterserviceversions'], verbs: ['get', 'create', 'update', 'patch'] },
      { apiGroups: [''], resources: ['services', 'serviceaccounts'], verbs: ['get', 'create', 'update', 'patch'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['get', 'create', 'update', 'patch'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list', 'watch', 'get', 'create', 'update', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'get', 'create', 'update', 'patch', 'delete'] },
    ]);
  });

  test('the pull-secret additions of the same page', () => {
    expect(DefaultInstallerRules.okdPullSecretNamespaced()).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update', 'patch'] }]);
    expect(DefaultInstallerRules.okdPullSecretCluster()).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
  });

  test('each call returns a fresh copy', () => {
    const a = DefaultInstallerRules.okdScopedInstall();
    (a[0].verbs as string[]).push('delete');
    expect(DefaultInstallerRules.okdScopedInstall()[0].verbs).toEqual(['get', 'create', 'update', 'patch']);
  });
});
