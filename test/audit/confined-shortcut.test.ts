/**
 * The audit skips the effective-power closure of tenants whose identities are confined to their namespace (every
 * binding naming a ServiceAccount of the namespace, or its group `system:serviceaccounts:<ns>`, is a RoleBinding in
 * that namespace; no binding names `system:serviceaccounts` or `system:authenticated`). Its results must equal the
 * full audit's exactly: the full audit (`TenancyAudit._auditUnoptimized`) is the oracle, on the example platform,
 * the leaky cases of tenancy-audit-cases.test.ts, and a fast-check mix of tenants and App objects (fixed seed).
 */
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { BINDER, case1, case3, CATALOG, ETCD, GRAFANA } from './leaky-cases';
import { buildPlatform } from '../../examples/platform';
import { AuditedTenant, OperatorBundle, PowerObject, ScopedOperatorTenant, SubjectKind, TenancyAudit, TenancyAuditInput } from '../../src';
import { auditInputOf, globalOperatorsOf } from '../../src/audit/audit-fingerprint';
import { tenantLeaks } from '../../src/audit/tenancy-audit';
import { CACHING } from '../../src/core/content-cache';

const PROMETHEUS = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'prometheus', '0.56.3'));
const KEDA = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'keda', '2.7.1'));

function expectSameAsOracle(app: App): void {
  const oracle = TenancyAudit._auditUnoptimized(auditInputOf(app));
  // an App with operators the platform installs for all namespaces (the example) also gets their drivers (OLMT-055)
  const globals = globalOperatorsOf(app);
  expect(TenancyAudit.ofConstruct(app)).toEqual(globals.length === 0 ? oracle
    : { ...oracle, globalOperators: TenancyAudit.globalOperators(auditInputOf(app), globals) });
}

test('the example platform: the audit equals the full audit', () => {
  const app = Testing.app();
  buildPlatform(app);
  expectSameAsOracle(app);
});

test('leaky case 1 (a bundle binding cluster-admin, an installer that may bind it) equals the full audit', () => {
  expectSameAsOracle(case1().app);
});

test('leaky case 3 (grafana cluster rules and etcd in one namespace, next to a confined tenant) equals the full audit', () => {
  const { app, chart } = case3();
  const b = new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', deriveInstallerRules: true });
  b.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  expectSameAsOracle(app);
  // team-b is confined but reached by team-a: its result comes from the shortcut, team-a's from the closure
  expect(TenancyAudit.ofConstruct(app).tenants.map((t) => [t.namespace, t.findings.length > 0])).toEqual([['team-a', true], ['team-b', false]]);
});

test('leaky case 5 (legacy pull-secret access to another tenant\'s installer token) equals the full audit', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
  a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', legacyPullSecretAccess: { catalogNamespace: 'team-a', secretNames: ['team-a'] } });
  expectSameAsOracle(app);
  expect(TenancyAudit.ofConstruct(app).tenants[1].findings.length).toEqual(1);
});

test('many confined tenants (the benchmark\'s shape): every result from the shortcut equals the full audit', () => {
  const app = Testing.app();
  for (let i = 0; i < 20; i++) {
    const t = new ScopedOperatorTenant(new Chart(app, `tenant-${i}`), 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    t.subscribe({ packageName: 'prometheus', catalog: CATALOG, bundle: PROMETHEUS });
  }
  expectSameAsOracle(app);
});

// ---- fast-check: plain audit input, tenants and App objects mixed -------------------------------------------------

const NAMESPACES = ['ns-a', 'ns-b', 'ns-c'];
const BUNDLES = [ETCD, GRAFANA, BINDER, KEDA, PROMETHEUS];
const RULES = [
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'clusterrolebindings'], verbs: ['create'] },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'clusterroles'], verbs: ['bind', 'escalate', 'create'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'], resourceNames: ['alice', 'team'] },
];

const namespace = fc.constantFrom(...NAMESPACES);
const subject = fc.oneof(
  fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constantFrom('default', 'etcd-operator', 'ns-a', 'ns-b', 'x'), namespace: fc.option(namespace, { nil: undefined }) }),
  fc.record({ kind: fc.constant('Group'), name: fc.constantFrom('system:serviceaccounts', 'system:authenticated', 'system:serviceaccounts:ns-a', 'system:serviceaccounts:ns-b', 'team') }),
  fc.record({ kind: fc.constant('User'), name: fc.constantFrom('alice', 'bob') }),
);
const roleRef = fc.oneof(
  fc.record({ kind: fc.constant('Role'), name: fc.constantFrom('r0', 'r1', 'missing') }),
  fc.record({ kind: fc.constant('ClusterRole'), name: fc.constantFrom('c0', 'c1', 'admin', 'view', 'cluster-admin', 'missing') }),
);
const rules = fc.subarray(RULES, { minLength: 1, maxLength: 3 });
const object: fc.Arbitrary<PowerObject> = fc.oneof(
  fc.record({ kind: fc.constantFrom('Role'), name: fc.constantFrom('r0', 'r1'), ns: namespace, rules }).map((o) => ({ manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: o.kind, metadata: { name: o.name, namespace: o.ns }, rules: o.rules } })),
  fc.record({ name: fc.constantFrom('c0', 'c1'), rules }).map((o) => ({ manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: o.name }, rules: o.rules } })),
  fc.record({ cluster: fc.boolean(), ns: namespace, ref: roleRef, subjects: fc.array(subject, { minLength: 1, maxLength: 2 }) }).map((o) => ({
    manifest: o.cluster
      ? { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...o.ref, kind: 'ClusterRole' }, subjects: o.subjects }
      : { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: o.ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...o.ref }, subjects: o.subjects },
  })),
  fc.record({ ns: namespace, sa: fc.constantFrom('ns-a', 'ns-b', 'default') }).map((o) => ({ manifest: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: `${o.sa}-token`, namespace: o.ns, annotations: { 'kubernetes.io/service-account.name': o.sa } } } })),
  fc.record({ ns: namespace, sa: fc.constantFrom('ns-a', 'ns-b', 'x') }).map((o) => ({ manifest: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: o.ns }, spec: { serviceAccountName: o.sa } } })),
);
const tenant: fc.Arbitrary<AuditedTenant> = fc.record({
  ns: namespace,
  targets: fc.constantFrom<'own' | 'all' | 'two'>('own', 'all', 'two'),
  bundles: fc.subarray(BUNDLES, { maxLength: 2 }),
  people: fc.subarray([{ kind: SubjectKind.GROUP, name: 'team' }, { kind: SubjectKind.USER, name: 'alice' }], { maxLength: 1 }),
}).map((t) => ({
  name: `tenant-${t.ns}`,
  namespace: t.ns,
  targetNamespaces: t.targets === 'own' ? [t.ns] : t.targets === 'all' ? [] : [t.ns, NAMESPACES.find((n) => n !== t.ns)!],
  operatorGroupName: t.ns,
  installerServiceAccountName: t.ns,
  bundles: t.bundles,
  people: t.people,
}));
/** Installer RBAC the tenants would have (a Role and RoleBinding in its namespace), as the App writes it. */
function installerObjects(t: AuditedTenant): PowerObject[] {
  return [
    { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: t.installerServiceAccountName, namespace: t.namespace } } },
    { manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'installer', namespace: t.namespace }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } },
    { manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'installer', namespace: t.namespace }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installer' }, subjects: [{ kind: 'ServiceAccount', name: t.installerServiceAccountName, namespace: t.namespace }] } },
  ];
}

test('fast-check: on any mix of tenants and App objects the audit equals the full audit (seed 10)', () => {
  const input = fc.record({
    tenants: fc.uniqueArray(tenant, { minLength: 1, maxLength: 3, selector: (t) => t.namespace }),
    objects: fc.array(object, { maxLength: 5 }),
  }).map((i): TenancyAuditInput => ({ tenants: i.tenants, objects: [...i.tenants.flatMap(installerObjects), ...i.objects] }));
  let confinedSeen = 0;
  fc.assert(fc.property(input, (i) => {
    const result = TenancyAudit.audit(i);
    expect(result).toEqual(TenancyAudit._auditUnoptimized(i));
    if (result.tenants.some((t) => t.findings.length === 0)) confinedSeen++;
  }), { seed: 10, numRuns: 150 });
  // the generator reaches both paths: tenants without findings (mostly confined) and tenants with findings
  expect(confinedSeen).toBeGreaterThan(0);
});

// ---- the per-shape templates of OLM's objects' leaks (what ofConstruct reads instead of generating every tenant's RBAC)

const BINDS_CLUSTER_ADMIN = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'leaky-bundles', 'binds-cluster-admin', '0.1.0'));

test('fast-check: a tenant\'s leaks from the namespace template equal the direct scan (seed 11)', () => {
  // namespaces the templates must not be fooled by: kube-system (OLM's auth-reader bindings), namespaces the bundles'
  // own bindings name (team-a for BINDER, placeholder for BINDS_CLUSTER_ADMIN) and the template's own placeholder
  const spaces = ['ns-b', 'team-a', 'kube-system', 'placeholder', 'a0-cdk8s-olm-tenancy-namespace-placeholder'];
  const shaped = fc.record({
    ns: fc.constantFrom(...spaces),
    other: fc.constantFrom(...spaces),
    targets: fc.constantFrom<'own' | 'all' | 'two' | 'other'>('own', 'all', 'two', 'other'),
    bundles: fc.subarray([ETCD, GRAFANA, BINDER, KEDA, BINDS_CLUSTER_ADMIN], { maxLength: 2 }),
    people: fc.boolean(),
    ogIsNamespace: fc.boolean(),
  }).map((t): AuditedTenant => ({
    name: 'tenant',
    namespace: t.ns,
    targetNamespaces: t.targets === 'own' ? [t.ns] : t.targets === 'all' ? [] : t.targets === 'two' ? [t.ns, t.other] : [t.other],
    operatorGroupName: t.ogIsNamespace ? t.ns : 'operators',
    installerServiceAccountName: 'installer',
    bundles: t.bundles,
    people: t.people ? [{ kind: SubjectKind.GROUP, name: 'team' }] : [],
  }));
  let leaky = 0;
  fc.assert(fc.property(shaped, (t) => {
    const templated = tenantLeaks(t);
    CACHING.enabled = false;
    try {
      expect(templated).toEqual(tenantLeaks(t));
    } finally {
      CACHING.enabled = true;
    }
    if (templated.all || templated.namespaces.length > 0) leaky++;
  }), { seed: 11, numRuns: 400 });
  expect(leaky).toBeGreaterThan(50);
});

test('a template computed for one namespace is instantiated for another: team-x gets team-x in its leaks', () => {
  const tenantIn = (ns: string): AuditedTenant => ({
    name: ns, namespace: ns, targetNamespaces: [], operatorGroupName: ns, installerServiceAccountName: 'installer', bundles: [ETCD],
  });
  // AllNamespaces: OLM lifts etcd's Role to a ClusterRole bound to team-x's ServiceAccount, so team-x leaks; and the
  // operator reconciles its CRDs in every namespace, so a writer anywhere may have it act (issue 37: all)
  expect([tenantLeaks(tenantIn('team-x')), tenantLeaks(tenantIn('team-y'))]).toEqual([
    { all: true, namespaces: ['team-x'] },
    { all: true, namespaces: ['team-y'] },
  ]);
});

test('fast-check: subjects written as Kubernetes matches them (User system:serviceaccount:<ns>:<name>, ServiceAccount without namespace) keep the audit equal to the full audit (seed 12)', () => {
  // issue 15 item 6: a User subject with a ServiceAccount's user name leaks that namespace like the ServiceAccount subject
  const matched = fc.oneof(
    fc.record({ kind: fc.constant('User'), name: fc.tuple(namespace, fc.constantFrom('default', 'etcd-operator', 'ns-a', 'ns-b')).map(([n, a]) => `system:serviceaccount:${n}:${a}`) }),
    fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constantFrom('ns-a', 'ns-b', 'etcd-operator'), namespace: fc.constant('') }),
    subject,
  );
  const bindingShape = fc.record({ cluster: fc.boolean(), ns: namespace, ref: roleRef, subjects: fc.array(matched, { minLength: 1, maxLength: 2 }) });
  const binding: fc.Arbitrary<PowerObject> = bindingShape.map((o) => ({
    manifest: o.cluster
      ? { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...o.ref, kind: 'ClusterRole' }, subjects: o.subjects }
      : { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: o.ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...o.ref }, subjects: o.subjects },
  }));
  const input = fc.record({
    tenants: fc.uniqueArray(tenant, { minLength: 1, maxLength: 3, selector: (t) => t.namespace }),
    objects: fc.array(fc.oneof(object, binding, binding), { maxLength: 5 }),
  }).map((i): TenancyAuditInput => ({ tenants: i.tenants, objects: [...i.tenants.flatMap(installerObjects), ...i.objects] }));
  let withFindings = 0;
  fc.assert(fc.property(input, (i) => {
    const result = TenancyAudit.audit(i);
    expect(result).toEqual(TenancyAudit._auditUnoptimized(i));
    if (result.tenants.some((t) => t.findings.length > 0)) withFindings++;
  }), { seed: 12, numRuns: 150 });
  expect(withFindings).toBeGreaterThan(0);
});
