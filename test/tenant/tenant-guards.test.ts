/**
 * Issue 8: derived rules that never escalate (bind on roles outside the bundle), every grant equivalent to escalation
 * as a sensitive grant, and old-generation OperatorGroup ClusterRole names that collide with built-in roles.
 */
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import {
  AccessLevel, BoundRoleKind, CatalogSourceReference, OlmGeneration, OlmNaming, OperatorBundle, PolicyRule, ScopedOperatorTenant, SensitiveGrant,
  ReachCode, TargetNamespaces,
} from '../../src';
import { appAndChart, validationErrors } from '../util/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const LEAKY = OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'binds-cluster-admin', '0.1.0'));
const ETCD = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'etcd', '0.9.4'));
const PROMETHEUS = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'prometheus', '0.56.3'));
const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');

function codesOf(errors: string[]): string[] {
  return errors.map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1]);
}

function rulesOf(chart: Chart, kind: string): PolicyRule[] {
  return chart.node.findAll()
    .filter((c): c is ApiObject => c instanceof ApiObject && c.kind === kind)
    .flatMap((o) => o.toJson().rules ?? []);
}

describe('issue 8 case 1: derived bind on roles outside the bundle', () => {
  test('GIVEN a bundle with a ClusterRoleBinding to cluster-admin, deriveInstallerRules and clusterScopedInstallerRulesReason THEN no installer Role or ClusterRole binds anything and the synth fails with GrantsEscalationRights', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed by the platform team',
    });
    tenant.subscribe({ packageName: 'binds-cluster-admin', catalog: CATALOG, bundle: LEAKY });
    // THEN: no bind (nor escalate, nor a verb wildcard) anywhere in the installer's roles
    const all = [...rulesOf(chart, 'ClusterRole'), ...rulesOf(chart, 'Role')];
    expect(all.filter((r: any) => r.verbs.some((v: string) => v === 'bind' || v === 'escalate' || v === '*'))).toEqual([]);
    expect(tenant.clusterInstallerRules).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], resourceNames: ['leaky-operator-cluster-admin'], verbs: ['get', 'patch'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create'] },
    ]);
    // and the synth says why
    const errors = validationErrors(chart);
    expect(codesOf(errors)).toEqual(['GrantsEscalationRights']);
    expect(errors[0]).toContain('[platform/TeamA] subscriptions[binds-cluster-admin].bundle="binds-cluster-admin.v0.1.0": binds-cluster-admin.v0.1.0 binds ClusterRole cluster-admin (cluster-wide), ClusterRole leaky-metrics-reader (in team-a), which no manifest of the bundle defines');
    expect(tenant.preflight()[0].missing).toEqual([]);
  });

  test('GIVEN allowedBindRoles for the undefined role only THEN bind on it is derived, named in the annotation, and cluster-admin is still refused', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed',
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'leaky-metrics-reader', reason: 'metrics reader created by the platform (PLAT-7)' }],
    });
    tenant.subscribe({ packageName: 'binds-cluster-admin', catalog: CATALOG, bundle: LEAKY });
    expect(tenant.installerRules.filter((r) => r.verbs.includes('bind'))).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['leaky-metrics-reader'], verbs: ['bind'] },
    ]);
    expect(tenant.installerRole.apiObject.toJson().metadata.annotations).toEqual({
      [ScopedOperatorTenant.BIND_ROLES_ANNOTATION]: 'ClusterRole leaky-metrics-reader: accepted by allowedBindRoles: metrics reader created by the platform (PLAT-7)',
      [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'AllowedUpgrades',
    });
    const errors = validationErrors(chart);
    expect(codesOf(errors)).toEqual(['GrantsEscalationRights']);
    expect(errors[0]).toContain('binds ClusterRole cluster-admin (cluster-wide), which no manifest');
    expect(errors[0]).not.toContain('leaky-metrics-reader');
  });

  test('GIVEN a bundle whose cert resources need bind on both bootstrap roles (cert-manager) THEN each is named on the Role or ClusterRole that holds it', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'cert-manager webhooks',
      targetNamespaces: TargetNamespaces.allNamespaces('cert-manager serves every namespace'),
    });
    tenant.subscribe({ packageName: 'cert-manager', catalog: CATALOG, bundle: OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'cert-manager', '1.16.5')) });
    // (Testing.synth would run the validations, which fail for cert-manager's CRD writes: read the objects directly)
    const objects = chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());
    const annotation = (kind: string, ns?: string) =>
      objects.find((o) => o.kind === kind && o.metadata.namespace === ns && o.metadata.name === 'team-a-olm-installer').metadata.annotations[ScopedOperatorTenant.BIND_ROLES_ANNOTATION];
    expect(annotation('ClusterRole')).toMatch(/^ClusterRole system:auth-delegator: bootstrap role bound by OLM's cert resources/);
    expect(annotation('Role', 'kube-system')).toMatch(/^Role extension-apiserver-authentication-reader: bootstrap role bound by OLM's cert resources/);
    // the derived binds are accepted: cert-manager fails for its CRD writes, not for them
    expect(validationErrors(chart).filter((e) => e.includes('SensitiveGrant.BIND'))).toEqual([]);
  });

  test('GIVEN a hand-written bind on the accepted role THEN it is still a sensitive-grant error (only the derived copy is accepted)', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: 'x' }],
    });
    tenant.addInstallerRule({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] });
    expect(codesOf(validationErrors(chart))).toEqual(['InstallerSensitiveGrant']);
  });

  test('GIVEN allowedBindRoles with a blank reason, or without deriveInstallerRules THEN each is an error', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a',
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: ' ' }],
    });
    expect(validationErrors(chart)).toEqual([
      '[platform/TeamA] allowedBindRoles[0].reason=" ": the reason for letting the installer bind ClusterRole \'view\' is empty, so the acceptance does not count. '
      + 'Fix: say why the installer may bind this role (it is written to the annotation cdk8s-olm-tenancy.io/bind-roles), or drop the entry (EmptyBindRoleReason, OLMT-019)',
      '[platform/TeamA] allowedBindRoles="ClusterRole view": roles are accepted for derived binds, but deriveInstallerRules is off, so nothing is derived. '
      + 'Fix: set deriveInstallerRules: true, or drop allowedBindRoles (BindRolesWithoutDerive)',
    ]);
  });
});

describe('issue 8 case 4: grants equivalent to escalation are sensitive grants', () => {
  const cluster: Array<[SensitiveGrant, PolicyRule]> = [
    [SensitiveGrant.SERVICE_ACCOUNT_TOKENS, { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }],
    [SensitiveGrant.POD_CREATE, { apiGroups: [''], resources: ['pods'], verbs: ['create'] }],
    [SensitiveGrant.POD_EXEC, { apiGroups: [''], resources: ['pods/exec'], verbs: ['get'] }],
    [SensitiveGrant.POD_EXEC, { apiGroups: [''], resources: ['pods/portforward'], verbs: ['create'] }],
    [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
    [SensitiveGrant.NODES_PROXY, { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }],
    [SensitiveGrant.ADMISSION_POLICY_WRITES, { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicybindings'], verbs: ['delete'] }],
    [SensitiveGrant.MUTATING_WEBHOOK_WRITES, { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations'], verbs: ['create'] }],
    [SensitiveGrant.VALIDATING_WEBHOOK_WRITES, { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['patch'] }],
    [SensitiveGrant.OPERATOR_HUB_WRITES, { apiGroups: ['config.openshift.io'], resources: ['operatorhubs'], verbs: ['update'] }],
    [SensitiveGrant.CATALOG_SOURCE_CREATE, { apiGroups: ['operators.coreos.com'], resources: ['catalogsources'], verbs: ['create'] }],
    [SensitiveGrant.CSR_APPROVAL, { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] }],
    [SensitiveGrant.NON_RESOURCE_WILDCARD, { nonResourceUrls: ['*'], verbs: ['get'] }],
    [SensitiveGrant.NON_RESOURCE_WILDCARD, { nonResourceUrls: ['/*'], verbs: ['post'] }],
  ];

  test.each(cluster)('GIVEN a cluster installer rule granting %s THEN it is an error unless allowed by name', (grant, rule) => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [rule] });
    const errors = validationErrors(chart);
    expect(codesOf(errors)).toEqual(['InstallerSensitiveGrant']);
    expect(errors[0]).toContain(`(SensitiveGrant.${grant})`);
    expect(errors[0]).toContain(`Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.${grant}, reason }]`);
    const ok = appAndChart();
    new ScopedOperatorTenant(ok.chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [rule], allowedSensitiveGrants: [grant] });
    expect(validationErrors(ok.chart)).toEqual([]);
  });

  test('GIVEN harmless neighbours (secrets in the namespace, pods read, webhook reads, nonResourceURLs /metrics) THEN no error', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      installerRules: [
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create'] },
        { apiGroups: ['operators.coreos.com'], resources: ['catalogsources'], verbs: ['get', 'list', 'watch'] },
      ],
      clusterInstallerRules: [
        { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
        { nonResourceUrls: ['/metrics', '/healthz/*'], verbs: ['get'] },
      ],
    });
    expect(validationErrors(chart)).toEqual([]);
  });

  test('GIVEN the OKD docs default Role (pods create) in an own-namespace tenant THEN no error: the namespace\'s ServiceAccounts hold nothing the installer does not', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    expect(validationErrors(chart)).toEqual([]);
  });

  test('GIVEN the OKD docs default Role and targets beyond the namespace THEN its pods create and update are POD_CREATE and POD_IMAGE_UPDATE errors (OLM copies operator Roles to the targets)', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], 'dev operands') });
    expect(validationErrors(chart)).toEqual([
      '[platform/T] installerRules="installerRules[4] {\\"apiGroups\\":[\\"\\"],\\"resources\\":[\\"pods\\"],\\"verbs\\":[\\"list\\",\\"watch\\",\\"get\\",\\"create\\",\\"update\\",\\"patch\\",\\"delete\\"]}": '
      + "the namespaced installer rules grant 'create' on pods (SensitiveGrant.POD_CREATE); an operator installed with them could gain rights nobody reviewed. "
      + 'Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_CREATE, reason }] (InstallerSensitiveGrant, OLMT-003)',
      // update/patch of the same rule: another image in a running pod of the namespace
      '[platform/T] installerRules="installerRules[4] {\\"apiGroups\\":[\\"\\"],\\"resources\\":[\\"pods\\"],\\"verbs\\":[\\"list\\",\\"watch\\",\\"get\\",\\"create\\",\\"update\\",\\"patch\\",\\"delete\\"]}": '
      + "the namespaced installer rules grant 'update'/'patch' on pods (a running container's image) (SensitiveGrant.POD_IMAGE_UPDATE); an operator installed with them could gain rights nobody reviewed. "
      + 'Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_IMAGE_UPDATE, reason }] (InstallerSensitiveGrant, OLMT-003)',
    ]);
    const all = appAndChart();
    new ScopedOperatorTenant(all.chart, 'T', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.allNamespaces('global') });
    expect(codesOf(validationErrors(all.chart))).toEqual(['InstallerSensitiveGrant', 'InstallerSensitiveGrant']);
  });

  test('GIVEN derived rules whose pods create comes from the bundle\'s own Role (etcd) and targets beyond the namespace THEN it is accepted and named in an annotation', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      targetNamespaces: TargetNamespaces.namespaces(['team-a-dev'], 'etcd clusters live in the dev namespace'),
    });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(validationErrors(chart)).toEqual([]);
    expect(tenant.installerRole.apiObject.toJson().metadata.annotations).toEqual({
      [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'AllowedUpgrades',
      [ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION]: "POD_CREATE ('create' on pods), POD_IMAGE_UPDATE ('update'/'patch' on pods (a running container's image)): "
        + "granted by the bundles' own Roles in namespace team-a (etcdoperator.v0.9.4); "
        + "OLM's RBAC escalation check makes the installer hold them to create those Roles",
    });
    // the same grant by hand, beyond what the bundle grants (pods/exec), is still an error
    tenant.allowInstaller({ verbs: ['create'], apiGroup: '', resources: ['pods/exec'] });
    expect(codesOf(validationErrors(chart))).toEqual(['InstallerSensitiveGrant']);
  });

  test('GIVEN the annotation of bundle-accepted grants THEN it is computed from the final Role: absent while nothing is accepted, then naming every bundle', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'prometheus', catalog: CATALOG, bundle: PROMETHEUS });
    // prometheus's own Roles grant nothing sensitive: no annotation (and no empty annotation)
    expect(tenant.installerRole.apiObject.toJson().metadata.annotations).toEqual({ [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'AllowedUpgrades' });
    // etcd's do (pods create): the annotation appears and names both subscriptions' bundles
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(tenant.installerRole.apiObject.toJson().metadata.annotations).toEqual({
      [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'AllowedUpgrades',
      [ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION]: "POD_CREATE ('create' on pods), POD_IMAGE_UPDATE ('update'/'patch' on pods (a running container's image)): "
        + "granted by the bundles' own Roles in namespace team-a "
        + "(etcdoperator.v0.9.4, prometheusoperator.0.56.3); OLM's RBAC escalation check makes the installer hold them to create those Roles",
    });
  });

  test('GIVEN derived cluster rules holding sensitive grants (rabbitmq: exec, cluster-wide secrets, webhooks) THEN each is an error until allowed by name', () => {
    const rabbit = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'rabbitmq-cluster-operator', '2.22.3'));
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'webhooks',
      // the operator can also become the installer (TenancyAudit, OLMT-023): accepted here, the sensitive grants are the point
      acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: 'single-operator tenant' }],
    });
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: rabbit });
    expect(validationErrors(chart).map((e) => /SensitiveGrant\.(\w+)\)/.exec(e)![1])).toEqual([
      'POD_EXEC', 'SECRETS_READ_CLUSTER_WIDE', 'MUTATING_WEBHOOK_WRITES', 'VALIDATING_WEBHOOK_WRITES',
      // issue 15 item 8: its clusterPermissions also create StatefulSets and update Services and ConfigMaps everywhere
      'WORKLOAD_WRITES', 'SERVICE_UPDATE', 'CONFIGMAP_UPDATE',
      // it updates pods everywhere: another image in any running pod
      'POD_IMAGE_UPDATE',
    ]);
  });
});

describe('issue 8 case 2: old-generation OperatorGroup ClusterRole names equal to built-in roles', () => {
  const collision = (og: string, generation: OlmGeneration, detail: string) =>
    `[platform/T] operatorGroupName="${og}": with olmGeneration ${generation} OLM names the OperatorGroup's ClusterRoles '<operatorgroup>-<level>' `
    + `(operatorgroup.go ensureOpGroupClusterRoles) and ${detail}: OLM would aggregate into that role, and grantOperatorAccess would bind the built-in role `
    + "instead of the operators' APIs. Fix: choose another operatorGroupName (e.g. the namespace name), or use OLM >= 0.26 (olm.og.<name>.<level>-<hash> names) "
    + '(OperatorGroupRoleNameCollision, OLMT-008)';

  test('GIVEN V0_15_TO_V0_25 and an OperatorGroup named cluster THEN grantOperatorAccess(ADMIN) would bind cluster-admin: an error', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', operatorGroupName: 'cluster', olmGeneration: OlmGeneration.V0_15_TO_V0_25 });
    tenant.grantOperatorAccess(Group.fromName(chart, 'G', 'g'), AccessLevel.ADMIN);
    expect(OlmNaming.operatorGroupClusterRoleName('team-a', 'cluster', AccessLevel.ADMIN, OlmGeneration.V0_15_TO_V0_25)).toEqual('cluster-admin');
    expect(validationErrors(chart)).toEqual([collision('cluster', OlmGeneration.V0_15_TO_V0_25,
      "'cluster-admin' is a built-in ClusterRole (Kubernetes, OLM or OpenShift); 'cluster-edit' starts with 'cluster-', a prefix reserved for built-in ClusterRoles; "
      + "'cluster-view' starts with 'cluster-', a prefix reserved for built-in ClusterRoles")]);
  });

  test('GIVEN V0_8_TO_V0_14 and an OperatorGroup named aggregate-olm THEN EDIT would bind aggregate-olm-edit: an error even without grants', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', operatorGroupName: 'aggregate-olm', olmGeneration: OlmGeneration.V0_8_TO_V0_14 });
    expect(validationErrors(chart)).toEqual([collision('aggregate-olm', OlmGeneration.V0_8_TO_V0_14,
      "'aggregate-olm-admin' starts with 'aggregate-olm-', a prefix reserved for built-in ClusterRoles; 'aggregate-olm-edit' is a built-in ClusterRole (Kubernetes, OLM or OpenShift); "
      + "'aggregate-olm-view' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)")]);
  });

  test('GIVEN an OperatorGroup named registry THEN the OpenShift roles it hits are named', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', operatorGroupName: 'registry', olmGeneration: OlmGeneration.V0_15_TO_V0_25 });
    expect(validationErrors(chart)).toEqual([collision('registry', OlmGeneration.V0_15_TO_V0_25, "'registry-admin' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)")]);
  });

  test('GIVEN the same names on OLM >= 0.26 (hashed names), or a harmless old-generation name THEN no error', () => {
    for (const [og, generation] of [['cluster', OlmGeneration.V0_26_AND_LATER], ['aggregate-olm', OlmGeneration.V0_26_AND_LATER], ['team-a', OlmGeneration.V0_15_TO_V0_25], ['team-a', OlmGeneration.V0_8_TO_V0_14]] as const) {
      const { chart } = appAndChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', operatorGroupName: og, olmGeneration: generation });
      tenant.grantOperatorAccess(Group.fromName(chart, 'G', 'g'), AccessLevel.EDIT);
      expect(validationErrors(chart)).toEqual([]);
    }
  });

  test('OlmNaming.builtInClusterRoleReason', () => {
    expect(['view', 'edit', 'admin', 'cluster-reader', 'system:auth-delegator', 'openshift-x', 'olm.og.a.admin-1', 'team-a-admin'].map((n) => OlmNaming.builtInClusterRoleReason(n))).toEqual([
      "'view' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)",
      "'edit' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)",
      "'admin' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)",
      "'cluster-reader' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)",
      "'system:auth-delegator' starts with 'system:', a prefix reserved for built-in ClusterRoles",
      "'openshift-x' starts with 'openshift-', a prefix reserved for built-in ClusterRoles",
      undefined,
      undefined,
    ]);
  });
});
