/**
 * Issue 15, items 8 and 9: cluster-wide installer grants that a bundle's clusterPermissions ask for, which passed with
 * only the generic `clusterScopedInstallerRulesReason`; and a bundle's own `bind` on roles outside it, held
 * cluster-wide. Each case goes through a real ScopedOperatorTenant with a bundle: the refusal with its exact message,
 * then the opt-in by name with its visible record (annotation, report).
 */
import * as path from 'path';
import { Chart } from 'cdk8s';
import fc from 'fast-check';
import {
  BoundRoleKind, CatalogSourceReference, InstallerPermissions, InstallerRuleChecks, InstallPreflight, OperatorBundle, PolicyRule,
  ScopedOperatorTenant, SensitiveGrant, TenancyReport,
} from '../../src';
import { appAndChart, validationErrors } from '../util/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');
/** jhipster-online-operator 1.1.2's RBAC clusterPermissions on etcd 0.9.4 (test/fixtures/leaky-bundles/README.md). */
const JHIPSTER_SHAPE = OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'binds-admin-edit-view', '0.9.4'));
/** skupper-operator 1.9.6's RBAC clusterPermissions on etcd 0.9.4. */
const SKUPPER_SHAPE = OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'binds-outside-clusterrole', '0.9.4'));
/** The effective-power audit's codes (OLMT-023..026): another check, with its own tests (test/audit). */
const AUDIT_CODES = ['IdentityCanAssumeInstaller', 'TenantIdentityReachesCluster', 'TenantIdentityReachesOtherNamespace', 'TenantIdentityUnbounded'];

const codeOf = (e: string) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1];
/** The synth errors that are not the effective-power audit's. */
const nonAudit = (errors: string[]) => errors.filter((e) => !AUDIT_CODES.includes(codeOf(e)));

/** A small operator whose CSV clusterPermissions hold `rules` (OwnNamespace, one Deployment). */
function bundleAsking(name: string, rules: object[]): OperatorBundle {
  return OperatorBundle.fromCsvObject({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: `${name}.v1.0.0` },
    spec: {
      version: '1.0.0',
      installModes: [{ type: 'OwnNamespace', supported: true }],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [{ name, spec: { template: { spec: { serviceAccountName: name } } } }],
          clusterPermissions: [{ serviceAccountName: name, rules }],
        },
      },
    },
  });
}

function clusterRoleAnnotations(chart: Chart): { [key: string]: string } {
  const role = chart.node.findAll().find((c: any) => c.kind === 'ClusterRole' && c.metadata?.name === 'team-a-olm-installer') as any;
  return role.toJson().metadata.annotations;
}

describe('issue 15 item 8: cluster-wide grants asked by a bundle\'s clusterPermissions are sensitive grants', () => {
  // [grant, the rule of the CSV's clusterPermissions, what the message says it allows]
  const cases: Array<[SensitiveGrant, PolicyRule, string]> = [
    [SensitiveGrant.POD_EPHEMERAL_CONTAINERS, { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }, "'update'/'patch' on pods/ephemeralcontainers"],
    [SensitiveGrant.SUBSCRIPTION_CREATE, { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] },
      "'create'/'update'/'patch' on operators.coreos.com subscriptions in every namespace"],
    [SensitiveGrant.INSTALL_PLAN_APPROVAL, { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['patch'] },
      "'update'/'patch' on operators.coreos.com installplans in every namespace"],
    [SensitiveGrant.PERSISTENT_VOLUME_CREATE, { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['create'] }, "'create' on persistentvolumes"],
    [SensitiveGrant.NAMESPACE_WRITES, { apiGroups: [''], resources: ['namespaces'], verbs: ['patch'] }, "'update'/'patch' on namespaces"],
    [SensitiveGrant.NETWORK_POLICY_WRITES, { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['delete'] },
      'writes to networking.k8s.io networkpolicies in every namespace'],
    [SensitiveGrant.SERVICE_UPDATE, { apiGroups: [''], resources: ['services'], verbs: ['update'] }, "'update'/'patch' on services in every namespace"],
    [SensitiveGrant.CONFIGMAP_UPDATE, { apiGroups: [''], resources: ['configmaps'], verbs: ['update'] }, "'update'/'patch' on configmaps in every namespace"],
    [SensitiveGrant.WORKLOAD_WRITES, { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create'] },
      "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, "
      + "replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace"],
  ];

  test.each(cases)('GIVEN clusterPermissions asking for %s and clusterScopedInstallerRulesReason THEN the synth refuses it with the grant named', (grant, rule, what) => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'reviewed (PLAT-1)' });
    tenant.subscribe({ packageName: 'asker', catalog: CATALOG, bundle: bundleAsking('asker', [rule]) });
    // the derived ClusterRole holds the rule as asked (the RBAC escalation check makes the installer hold it)
    const index = tenant.clusterInstallerRules.findIndex((r) => JSON.stringify(r) === JSON.stringify(rule));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(nonAudit(validationErrors(chart))).toEqual([
      `[platform/T] clusterInstallerRules="clusterInstallerRules[${index}] ${JSON.stringify(JSON.stringify(rule)).slice(1, -1)}": `
      + `the cluster-scoped installer rules grant ${what} (SensitiveGrant.${grant}); an operator installed with them could gain rights nobody reviewed. `
      + `Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.${grant}, reason }] (InstallerSensitiveGrant, OLMT-003)`,
    ]);
  });

  test.each(cases)('GIVEN %s accepted by name with a reason THEN no sensitive-grant error, and the ClusterRole annotation and the report name it with the reason', (grant, rule, what) => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed (PLAT-1)',
      acceptedSensitiveGrants: [{ grant, reason: 'the operator needs it (PLAT-1)' }],
    });
    tenant.subscribe({ packageName: 'asker', catalog: CATALOG, bundle: bundleAsking('asker', [rule]) });
    expect(nonAudit(validationErrors(chart))).toEqual([]);
    expect(clusterRoleAnnotations(chart)).toEqual({
      [ScopedOperatorTenant.REASON_ANNOTATION]: 'reviewed (PLAT-1)',
      [ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION]: `${grant} (${what}): accepted by acceptedSensitiveGrants: the operator needs it (PLAT-1)`,
    });
    expect(tenant.sensitiveGrants).toEqual([{ grant, what, namespace: '', acceptance: 'accepted by acceptedSensitiveGrants: the operator needs it (PLAT-1)' }]);
    const report = TenancyReport.markdown(app);
    expect(report).toContain([
      'Sensitive grants held because they were accepted by name:',
      '',
      '| held by | grant | what | accepted |',
      '|---|---|---|---|',
      `| ClusterRole (cluster-wide) | ${grant} | ${what} | accepted by acceptedSensitiveGrants: the operator needs it (PLAT-1) |`,
    ].join('\n'));
  });

  test('GIVEN allowedSensitiveGrants (no reason) THEN the acceptance is still visible, saying that no reason was given', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed (PLAT-1)',
      allowedSensitiveGrants: [SensitiveGrant.SUBSCRIPTION_CREATE],
    });
    tenant.subscribe({ packageName: 'asker', catalog: CATALOG, bundle: bundleAsking('asker', [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] }]) });
    expect(nonAudit(validationErrors(chart))).toEqual([]);
    expect(clusterRoleAnnotations(chart)[ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION])
      .toEqual("SUBSCRIPTION_CREATE ('create'/'update'/'patch' on operators.coreos.com subscriptions in every namespace): accepted by allowedSensitiveGrants (no reason given)");
  });

  test('GIVEN an acceptance with a blank reason THEN it accepts nothing and is an error of its own', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed (PLAT-1)',
      acceptedSensitiveGrants: [{ grant: SensitiveGrant.SUBSCRIPTION_CREATE, reason: ' ' }],
    });
    tenant.subscribe({ packageName: 'asker', catalog: CATALOG, bundle: bundleAsking('asker', [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] }]) });
    expect(nonAudit(validationErrors(chart)).map(codeOf)).toEqual(['InstallerSensitiveGrant', 'EmptySensitiveGrantReason']);
    expect(nonAudit(validationErrors(chart))[1]).toEqual('[platform/T] acceptedSensitiveGrants[0].reason=" ": the reason for accepting SensitiveGrant.SUBSCRIPTION_CREATE is empty, '
      + 'so the acceptance does not count. Fix: say why the installer may hold it (it is written to the annotation cdk8s-olm-tenancy.io/sensitive-grants), '
      + 'or drop the entry (EmptySensitiveGrantReason, OLMT-041)');
  });

  test('GIVEN pods create cluster-wide THEN it is refused already (POD_CREATE), and workload controllers are refused the same way', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'r' });
    tenant.subscribe({
      packageName: 'asker',
      catalog: CATALOG,
      bundle: bundleAsking('asker', [
        { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
        { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'], verbs: ['create'] },
        { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['create'] },
        { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['create'] },
      ]),
    });
    expect(nonAudit(validationErrors(chart)).map((e) => /SensitiveGrant\.(\w+)\)/.exec(e)![1])).toEqual(['POD_CREATE', 'WORKLOAD_WRITES']);
  });

  test('GIVEN the default installer Role (deployments create in the namespace) and an own-namespace tenant THEN no WORKLOAD_WRITES: OLM itself creates the operator Deployment there', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    expect(validationErrors(chart)).toEqual([]);
  });

  test('GIVEN namespaces patch in the namespaced Role THEN NAMESPACE_WRITES: a Role may patch its own Namespace (requestinfo.go puts the Namespace object in its own namespace)', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['patch'] }] });
    expect(validationErrors(chart).map(codeOf)).toEqual(['InstallerSensitiveGrant']);
    expect(validationErrors(chart)[0]).toContain("the namespaced installer rules grant 'update'/'patch' on namespaces (SensitiveGrant.NAMESPACE_WRITES)");
  });
});

describe('NAMESPACE_WRITES through the namespace subresources (strategy.go: a status or finalize update keeps new labels)', () => {
  test.each([['namespaces/status', 'patch'], ['namespaces/status', 'update'], ['namespaces/finalize', 'update']])(
    'GIVEN %s %s in the namespaced Role THEN NAMESPACE_WRITES (it could set pod-security.kubernetes.io/enforce: privileged)', (resource, verb) => {
      const { chart } = appAndChart();
      new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [{ apiGroups: [''], resources: [resource], verbs: [verb] }] });
      expect(validationErrors(chart).map(codeOf)).toEqual(['InstallerSensitiveGrant']);
      expect(validationErrors(chart)[0]).toContain('(SensitiveGrant.NAMESPACE_WRITES)');
    });
});

describe('issue 15 item 8: the same grant written another way is still the grant (RBAC engine matching)', () => {
  const grantsOf = (rules: PolicyRule[], clusterScoped = true) => InstallerRuleChecks.errors(rules, { clusterScoped })
    .map((d) => /SensitiveGrant\.(\w+)\)/.exec(d.message)?.[1] ?? d.code);

  test.each<[string, PolicyRule, string[]]>([
    ['verb wildcard', { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['*'] }, ['POD_EPHEMERAL_CONTAINERS']],
    ['*/subresource', { apiGroups: [''], resources: ['*/ephemeralcontainers'], verbs: ['update'] }, ['POD_EPHEMERAL_CONTAINERS']],
    ['resource wildcard in the OLM group', { apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['create', 'patch'] },
      // and OLM's deputies (issue 37): CSVs (olm-operator's Deployments), installplans/status (catalog-operator's steps)
      ['OPERATOR_GROUP_WRITES', 'CATALOG_SOURCE_CREATE', 'SUBSCRIPTION_CREATE', 'INSTALL_PLAN_APPROVAL', 'CSV_WRITES', 'INSTALL_PLAN_STATUS_WRITES']],
    ['group wildcard', { apiGroups: ['*'], resources: ['networkpolicies'], verbs: ['deletecollection'] }, ['NETWORK_POLICY_WRITES']],
    ['networkpolicies create (policies add up: one allow-all opens the selected pods)', { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['create'] }, ['NETWORK_POLICY_WRITES']],
    ['resourceNames do not make it harmless (kube-system\'s coredns)', { apiGroups: [''], resources: ['configmaps'], resourceNames: ['coredns'], verbs: ['patch'] }, ['CONFIGMAP_UPDATE']],
    ['services update named', { apiGroups: [''], resources: ['services'], resourceNames: ['kube-dns'], verbs: ['update'] }, ['SERVICE_UPDATE']],
    ['every core resource', { apiGroups: [''], resources: ['*'], verbs: ['create', 'update'] },
      ['SERVICE_ACCOUNT_TOKENS', 'POD_CREATE', 'POD_EXEC', 'NODES_PROXY', 'POD_EPHEMERAL_CONTAINERS', 'WORKLOAD_WRITES', 'PERSISTENT_VOLUME_CREATE',
        'NAMESPACE_WRITES', 'SERVICE_UPDATE', 'CONFIGMAP_UPDATE', 'POD_IMAGE_UPDATE']],
    ['cronjobs', { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['create'] }, ['WORKLOAD_WRITES']],
    ['patching another namespace\'s Deployment template (serviceAccountName)', { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }, ['WORKLOAD_WRITES']],
  ])('%s', (_name, rule, expected) => {
    expect(grantsOf([rule])).toEqual(expected);
  });

  test.each<[string, PolicyRule]>([
    // upstream ResourceMatches (pkg/apis/rbac/v1/evaluation_helpers.go) knows `*` and `*/subresource`, never `resource/*`
    ['pods/* matches no subresource', { apiGroups: [''], resources: ['pods/*'], verbs: ['patch'] }],
    // API groups are case-sensitive: `Apps` is no group the API server serves
    ['a mixed-case group grants nothing', { apiGroups: ['Apps'], resources: ['deployments'], verbs: ['create'] }],
    ['reads are fine', { apiGroups: ['', 'networking.k8s.io', 'operators.coreos.com'], resources: ['configmaps', 'services', 'namespaces', 'networkpolicies', 'subscriptions', 'installplans'], verbs: ['get', 'list', 'watch'] }],
    ['persistentvolumes update is not create', { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['update', 'patch'] }],
    ['a Job\'s pod template is immutable: update is not a way to run as another ServiceAccount', { apiGroups: ['batch'], resources: ['jobs'], verbs: ['update', 'patch'] }],
  ])('%s: no sensitive grant', (_name, rule) => {
    expect(grantsOf([rule])).toEqual([]);
  });

  test('property: the grant written in any equivalent or wider form (extra verbs/resources, wildcards, split rules, any order) is still found', () => {
    const base: Array<[SensitiveGrant, PolicyRule]> = [
      [SensitiveGrant.POD_EPHEMERAL_CONTAINERS, { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }],
      [SensitiveGrant.WORKLOAD_WRITES, { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['create'] }],
      [SensitiveGrant.SUBSCRIPTION_CREATE, { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] }],
      [SensitiveGrant.INSTALL_PLAN_APPROVAL, { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['update'] }],
      [SensitiveGrant.PERSISTENT_VOLUME_CREATE, { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['create'] }],
      [SensitiveGrant.NAMESPACE_WRITES, { apiGroups: [''], resources: ['namespaces'], verbs: ['update'] }],
      [SensitiveGrant.NETWORK_POLICY_WRITES, { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['patch'] }],
      [SensitiveGrant.SERVICE_UPDATE, { apiGroups: [''], resources: ['services'], verbs: ['patch'] }],
      [SensitiveGrant.CONFIGMAP_UPDATE, { apiGroups: [''], resources: ['configmaps'], verbs: ['patch'] }],
    ];
    const variant = fc.record({
      which: fc.nat({ max: base.length - 1 }),
      extraVerbs: fc.subarray(['get', 'list', 'watch', 'delete', 'deletecollection', 'create', 'update', 'patch']),
      extraResources: fc.subarray(['pods', 'secrets', 'events', 'leases', 'endpoints']),
      extraGroups: fc.subarray(['', 'apps', 'batch', 'coordination.k8s.io']),
      wildVerbs: fc.boolean(),
      wildGroups: fc.boolean(),
      wildResources: fc.boolean(),
      split: fc.boolean(),
      noise: fc.array(fc.record({ apiGroups: fc.constant<string[]>(['example.com']), resources: fc.constant<string[]>(['widgets']), verbs: fc.constant<string[]>(['*']) }), { maxLength: 3 }),
      reverse: fc.boolean(),
    });
    fc.assert(fc.property(variant, (v) => {
      const [grant, rule] = base[v.which];
      const widened: PolicyRule = {
        apiGroups: v.wildGroups ? ['*'] : [...new Set([...rule.apiGroups!, ...v.extraGroups])],
        resources: v.wildResources ? ['*'] : [...new Set([...rule.resources!, ...v.extraResources])],
        verbs: v.wildVerbs ? ['*'] : [...new Set([...rule.verbs, ...v.extraVerbs])],
      };
      const parts = v.split ? widened.verbs.map((verb) => ({ ...widened, verbs: [verb] })) : [widened];
      const rules = [...v.noise, ...parts];
      if (v.reverse) rules.reverse();
      return grantsOf(rules).includes(grant);
    }), { numRuns: 300, seed: 15 });
  });

  test('mixed-case resources and verbs never match and are invalid rules, not silent grants', () => {
    expect(grantsOf([{ apiGroups: [''], resources: ['Pods/EphemeralContainers'], verbs: ['patch'] }])).toEqual(['InvalidInstallerRule']);
    expect(grantsOf([{ apiGroups: [''], resources: ['services'], verbs: ['UPDATE'] }])).toEqual(['InvalidInstallerRule']);
  });

  test('namespaced Role: the cluster-only grants are not checked there (subscriptions create, services and configmaps update are the installer\'s daily work)', () => {
    expect(grantsOf([
      { apiGroups: ['operators.coreos.com'], resources: ['subscriptions', 'installplans'], verbs: ['create', 'update', 'patch'] },
      { apiGroups: [''], resources: ['services', 'configmaps'], verbs: ['update', 'patch'] },
      { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['delete'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
    ], false)).toEqual([]);
  });
});

describe('issue 15 item 9: a bundle\'s own bind on roles outside it, held cluster-wide', () => {
  const ESCALATION_STEP = 'InstallPlan steps ClusterRole + ClusterRoleBinding for clusterPermissions[0] (ServiceAccount etcd-operator): RBAC escalation check';
  const refusal = (bundle: string, roles: string) => `[platform/T] subscriptions[${bundle.replace(/\.v0\.9\.4$/, '')}].bundle="${bundle}": `
    + `${bundle}'s own cluster-wide rules grant 'bind' on ${roles}, which no manifest of the bundle defines (${ESCALATION_STEP} on the binding; `
    + `${ESCALATION_STEP}, the installer must hold the operator's cluster rules): OLM creates the operator's ClusterRole with the installer's client, `
    + 'so the installer would have to hold the same bind cluster-wide, and with it the installer, whose token is in namespace team-a, could bind these '
    + 'roles to itself or anyone in every namespace: an escalation as large as the roles. Not derived. Fix: have a cluster admin install this operator, '
    + 'or accept each role by name with a reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles) (GrantsEscalationRights, OLMT-004)';
  /** The shape also deletes ClusterRoleBindings and ClusterRoles: DESTRUCTIVE_CLUSTER_WRITES (issue 37), refused too. */
  const destructive = (rule: string) => `[platform/T] clusterInstallerRules="clusterInstallerRules[0] ${rule}": the cluster-scoped installer rules grant `
    + "'delete' on clusterrolebindings, clusterroles or namespaces, or 'update'/'patch'/'delete' on customresourcedefinitions or apiservices (what every tenant shares) "
    + '(SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES); an operator installed with them could gain rights nobody reviewed. Fix: remove the grant, or accept it by name '
    + 'with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES, reason }] (InstallerSensitiveGrant, OLMT-003)';
  const RBAC_WRITES = JSON.stringify(JSON.stringify({
    apiGroups: ['rbac.authorization.k8s.io'],
    resources: ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  })).slice(1, -1);
  /** Rules that may bind: `bind`, or `*` verbs on roles/clusterroles. */
  const bindsIn = (rules: PolicyRule[]) => rules.filter((r) => r.verbs.includes('bind')
    || (r.verbs.includes('*') && (r.resources ?? []).some((x) => x === 'roles' || x === 'clusterroles' || x === '*')));

  test('GIVEN the jhipster-online-operator 1.1.2 shape (bind on admin, edit, view + clusterrolebindings writes) THEN the bind is not derived and the synth refuses it', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'reviewed (PLAT-9)' });
    tenant.subscribe({ packageName: 'binds-admin-edit-view', catalog: CATALOG, bundle: JHIPSTER_SHAPE });
    expect(bindsIn(tenant.clusterInstallerRules)).toEqual([]);
    expect(bindsIn(tenant.installerRules)).toEqual([]);
    expect(nonAudit(validationErrors(chart))).toEqual([destructive(RBAC_WRITES), refusal('binds-admin-edit-view.v0.9.4', 'ClusterRole admin, ClusterRole edit, ClusterRole view')]);
    // not a missing rule to grant: the preflight names the refusal only
    expect(tenant.preflight()[0].missing).toEqual([]);
  });

  test('GIVEN the skupper-operator 1.9.6 shape (bind on skupper-service-controller + clusterrolebindings create) THEN the same refusal', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'reviewed (PLAT-9)' });
    tenant.subscribe({ packageName: 'binds-outside-clusterrole', catalog: CATALOG, bundle: SKUPPER_SHAPE });
    expect(bindsIn(tenant.clusterInstallerRules)).toEqual([]);
    expect(nonAudit(validationErrors(chart))).toEqual([refusal('binds-outside-clusterrole.v0.9.4', 'ClusterRole skupper-service-controller')]);
  });

  test('GIVEN the role accepted by name (allowedBindRoles) THEN the bind is derived, named with the reason on the ClusterRole, and no sensitive-grant error', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed (PLAT-9)',
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'skupper-service-controller', reason: 'created by the platform with read-only rules (PLAT-9)' }],
    });
    tenant.subscribe({ packageName: 'binds-outside-clusterrole', catalog: CATALOG, bundle: SKUPPER_SHAPE });
    expect(bindsIn(tenant.clusterInstallerRules)).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['skupper-service-controller'], verbs: ['bind'] },
    ]);
    expect(clusterRoleAnnotations(chart)).toEqual({
      [ScopedOperatorTenant.REASON_ANNOTATION]: 'reviewed (PLAT-9)',
      [ScopedOperatorTenant.BIND_ROLES_ANNOTATION]: 'ClusterRole skupper-service-controller: accepted by allowedBindRoles: created by the platform with read-only rules (PLAT-9)',
    });
    expect(nonAudit(validationErrors(chart))).toEqual([]);
    // the effective-power audit still reports what the accepted bind reaches (skupper-service-controller is defined
    // nowhere in the App, so it counts as unbounded): accepting the bind is not accepting the reach
    expect(validationErrors(chart).map(codeOf)).toContain('TenantIdentityUnbounded');
    expect(tenant.preflight()[0].ok).toBe(true);
  });

  test('GIVEN only some of the roles accepted THEN only those are derived, and the refusal names the rest', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'reviewed (PLAT-9)',
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: 'read-only (PLAT-9)' }],
    });
    tenant.subscribe({ packageName: 'binds-admin-edit-view', catalog: CATALOG, bundle: JHIPSTER_SHAPE });
    expect(bindsIn(tenant.clusterInstallerRules)).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] },
    ]);
    expect(nonAudit(validationErrors(chart))).toEqual([destructive(RBAC_WRITES), refusal('binds-admin-edit-view.v0.9.4', 'ClusterRole admin, ClusterRole edit')]);
  });

  test('GIVEN the same bind asked in the namespaced permissions THEN it stays derived in the tenant Role and is named', () => {
    const bundle = OperatorBundle.fromCsvObject({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'binds-in-namespace.v1.0.0' },
      spec: {
        version: '1.0.0',
        installModes: [{ type: 'OwnNamespace', supported: true }],
        install: {
          strategy: 'deployment',
          spec: {
            deployments: [{ name: 'op', spec: { template: { spec: { serviceAccountName: 'op' } } } }],
            permissions: [{
              serviceAccountName: 'op',
              rules: [
                { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] },
                { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] },
              ],
            }],
          },
        },
      },
    });
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'binds-in-namespace', catalog: CATALOG, bundle });
    expect(bindsIn(tenant.installerRules)).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] },
    ]);
    expect(tenant.installerRole.apiObject.toJson().metadata.annotations[ScopedOperatorTenant.BIND_ROLES_ANNOTATION]).toEqual(
      "ClusterRole view: the operator's own rules grant bind on it in namespace team-a (InstallPlan steps Role + RoleBinding for permissions[0] "
      + "(ServiceAccount op): RBAC escalation check, the installer must hold the operator's rules); held in that namespace only");
    expect(nonAudit(validationErrors(chart))).toEqual([]);
  });

  test('GIVEN InstallPreflight.check directly THEN the missing bind is the refusal, not a missing rule; an installer that holds it passes', () => {
    const derived = InstallerPermissions.leastPrivilege({ bundles: [SKUPPER_SHAPE], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
    const props = { bundle: SKUPPER_SHAPE, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: derived.namespacedRules, otherNamespaceRules: derived.otherNamespaceRules };
    const refused = InstallPreflight.check({ ...props, clusterInstallerRules: derived.clusterRules });
    expect([refused.ok, refused.missing, refused.problems.map((p) => p.code)]).toEqual([false, [], ['GrantsEscalationRights']]);
    // a hand-written installer that holds the bind passes the preflight (the tenant then refuses it as SensitiveGrant.BIND)
    const bind: PolicyRule = { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['skupper-service-controller'], verbs: ['bind'] };
    expect(InstallPreflight.check({ ...props, clusterInstallerRules: [...derived.clusterRules, bind] }).ok).toBe(true);
    // `escalate` on clusterroles lets the installer create the operator's ClusterRole, not its ClusterRoleBinding (k8s
    // escalation_check.go BindingAuthorized needs `bind`, else the role's rules): still refused, for the binding step only
    const escalate: PolicyRule = { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate'] };
    const withEscalate = InstallPreflight.check({ ...props, clusterInstallerRules: [...derived.clusterRules, escalate] });
    expect(withEscalate.problems.map((p) => p.code)).toEqual(['GrantsEscalationRights']);
    expect(withEscalate.problems[0].message).toContain('(InstallPlan steps ClusterRole + ClusterRoleBinding for clusterPermissions[0] (ServiceAccount etcd-operator): '
      + 'RBAC escalation check on the binding):');
  });

  test('GIVEN InstallerPermissions.leastPrivilege directly THEN the same refusal and no bind in the rules', () => {
    const derived = InstallerPermissions.leastPrivilege({ bundles: [JHIPSTER_SHAPE], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
    expect(bindsIn(derived.clusterRules)).toEqual([]);
    expect(derived.boundRoles).toEqual([]);
    expect(derived.problems.map((p) => p.code)).toEqual(['GrantsEscalationRights']);
  });
});

describe('acceptedSensitiveGrants input (JavaScript and jsii callers)', () => {
  test('GIVEN a wrong-typed entry THEN a synth error names the field, the value and the fix, and nothing is accepted', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      clusterInstallerRules: [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] }],
      acceptedSensitiveGrants: [{ grant: 'SUBSCRIPTIONS' as any, reason: 'x' }, { grant: SensitiveGrant.SUBSCRIPTION_CREATE, reason: 42 as any }],
    });
    const errors = validationErrors(chart);
    expect(errors.map(codeOf)).toEqual(['InvalidEnumValue', 'InvalidInputType', 'InstallerSensitiveGrant']);
    expect(errors[0]).toContain('acceptedSensitiveGrants[0].grant="SUBSCRIPTIONS"');
    expect(errors[1]).toContain('acceptedSensitiveGrants[1].reason=');
  });
});
