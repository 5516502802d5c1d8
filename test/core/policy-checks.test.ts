/**
 * The policy-check registry: stable unique ids, every registered code really produced (each driven by an example
 * App), the README table generated from the registry, and the per-tenant severity switch.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { Group, k8s, User } from 'cdk8s-plus-28';
import {
  AccessLevel, BoundRoleKind, CatalogSourceReference, CuratedCatalog, Diagnostics, GlobalOperatorInstall,
  olm, OpenShiftOperatorHubPolicy, OlmGeneration, OperatorBundle,
  PolicyChecks, PolicySeverity, PreflightEnforcement, ScopedOperatorTenant, SensitiveGrant, TargetNamespaces, TenantBaseline, UpgradeStrategy,
} from '../../src';
import { CuratedClusterCatalog, OlmV1ExtensionOptions, OlmV1Team } from '../../src/olmv1';
import { appAndChart } from '../util/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');
/** An OLM v1 team with one extension of `packageName` (any version, any channel). */
const olmV1Team = (chart: Chart, extension: OlmV1ExtensionOptions, versionRange?: string) => new OlmV1Team(chart, 'V1', {
  team: 'team-a',
  groups: ['team-a'],
  namespaces: ['team-a'],
  catalog: new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-a', image: 'registry.example.com/catalogs/team-a:v1', team: 'team-a' }),
  allowedPackages: [{ name: extension.packageName, versionRange }],
  extensions: [extension],
});

/** Every error and warning of the chart, formatted as app.synth() / Diagnostics.report print them. */
function findings(chart: Chart): string[] {
  return [
    ...chart.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`)),
    ...Diagnostics.warnings(chart).map((w) => `warning: ${Diagnostics.format(w)}`),
  ];
}

/** One App per registered code that produces it (the registry's example, as code). */
const DRIVERS: Record<string, (chart: Chart) => void> = {
  InstallerCanWriteCrds: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
  InstallerCanWriteApiServices: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', clusterInstallerRules: [{ apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], verbs: ['delete'] }],
  }),
  InstallerSensitiveGrant: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }] }),
  GrantsEscalationRights: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'r' })
    .subscribe({ packageName: 'binds-cluster-admin', catalog: CATALOG, bundle: OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'binds-cluster-admin', '0.1.0')) }),
  WritesCrdsOrApiServices: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.allNamespaces('global') })
    .subscribe({ packageName: 'cert-manager', catalog: CATALOG, bundle: bundle('cert-manager', '1.16.5') }),
  NeedsClusterScopedRules: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true })
    .subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') }),
  TargetsOtherTenant: (chart) => {
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b'], 'shared') });
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
  },
  OperatorGroupRoleNameCollision: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', operatorGroupName: 'cluster', olmGeneration: OlmGeneration.V0_15_TO_V0_25 }),
  EmptyTargetsReason: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], ' ') }),
  EmptyClusterScopedReason: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: '' }),
  WildcardInstallerRole: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
  OperatorRbacCopiedToTargetNamespaces: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.namespaces(['team-a-dev'], 'operands'),
  }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  OperatorRbacLiftedToCluster: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.allNamespaces('global') })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  AllNamespacesIncludesTenants: (chart) => {
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.allNamespaces('global') });
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
  },
  LegacyPullSecretAccess: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'olm', secretNames: ['pull'] } }),
  CrdsCreatedByOlm: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  RequiredApis: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true }).subscribe({
    packageName: 'needs-etcd',
    catalog: CATALOG,
    bundle: OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'needs-etcd.v1' },
      spec: {
        installModes: [{ type: 'OwnNamespace', supported: true }],
        customresourcedefinitions: { required: [{ name: 'etcdclusters.etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdCluster' }] },
        install: { strategy: 'deployment', spec: { deployments: [] } },
      },
    }),
  }),
  EmptyBindRoleReason: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', deriveInstallerRules: true, allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: '' }],
  }),
  SubscriptionOutsideCuratedCatalog: (chart) => {
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/c:1', packages: [{ name: 'etcd' }], tenants: [tenant] });
    new olm.Subscription(chart, 'AroundCuration', { metadata: { name: 'etcd', namespace: 'team-a' }, spec: { name: 'etcd', source: 'community-operators', sourceNamespace: 'openshift-marketplace' } });
  },
  CatalogRejectsSubscription: (chart) => {
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/c:1', packages: [{ name: 'etcd' }] });
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' }).subscribe({ packageName: 'redis', catalog });
  },
  DefaultSourcesEnabled: (chart) => new OpenShiftOperatorHubPolicy(chart, 'Hub', { disableAllDefaultSources: false }),
  UnsafeUpgradeStrategy: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', upgradeStrategy: UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD }),
  // the effective-power audit (test/audit has the exact findings and paths)
  IdentityCanAssumeInstaller: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', deriveInstallerRules: true, clusterInstallerRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  TenantIdentityReachesCluster: (chart) => {
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true })
      .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    new k8s.KubeServiceAccount(chart, 'Powerful', { metadata: { name: 'powerful', namespace: 'team-a' } });
    new k8s.KubeClusterRole(chart, 'NodeReader', { metadata: { name: 'node-reader' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] });
    new k8s.KubeClusterRoleBinding(chart, 'NodeReaderBinding', {
      metadata: { name: 'node-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'powerful', namespace: 'team-a' }],
    });
  },
  TenantIdentityReachesOtherNamespace: (chart) => {
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', deriveInstallerRules: true })
      .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b', legacyPullSecretAccess: { catalogNamespace: 'team-a', secretNames: ['team-a'] } });
  },
  TenantIdentityUnbounded: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a',
    clusterInstallerRules: [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create'] },
    ],
    allowedSensitiveGrants: [SensitiveGrant.BIND],
  }),
  InstallerServiceAccountIsDefault: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerServiceAccountName: 'default' }),
  InstallerServiceAccountIsOperators: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerServiceAccountName: 'etcd-operator', deriveInstallerRules: true })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  SystemNamespaceTarget: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system'], 'x'),
  }),
  SystemNamespacePullSecrets: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'olm', secretNames: ['pull'] } }),
  EmptySystemNamespacesReason: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system'], 'x'), systemNamespacesReason: ' ',
  }),
  PullSecretNamespaceOfOtherTenant: (chart) => {
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['pull'] } });
  },
  PullSecretIsInstallerToken: (chart) => {
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['team-b'] } });
  },
  SubscriptionConfigVolume: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, config: { volumes: [{ name: 'host', hostPath: { path: '/' } }] } }),
  SubscriptionConfigSecret: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, config: { envFrom: [{ secretRef: { name: 'team-a' } }] } }),
  SubscriptionConfigScheduling: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, config: { tolerations: [{ operator: 'Exists' }] } }),
  EmptySensitiveGrantReason: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', acceptedSensitiveGrants: [{ grant: SensitiveGrant.SUBSCRIPTION_CREATE, reason: '' }],
  }),
  DuplicateObject: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRoleName: 'team-a-subscription-manager' })
    .grantSubscriptionManagement(Group.fromName(chart, 'Ops', 'ops')),
  TenantCanBecomeApprover: (chart) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    t.addPinnedApprover({ approverNamespace: 'team-a' });
  },
  TenantCanRemoveBaseline: (chart) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new TenantBaseline(chart, 'B', { tenant: t });
    t.subscribe({ packageName: 'strimzi-kafka-operator', catalog: CATALOG, bundle: bundle('strimzi-kafka-operator', '1.2.0'), preflight: PreflightEnforcement.WARNING });
  },
  CrossTenantPeopleGrant: (chart) => {
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' }).grantOperatorAccess(User.fromName(chart, 'B', 'system:serviceaccount:team-b:team-b'), AccessLevel.ADMIN);
    new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b' });
  },
  UnfaithfulYamlOutput: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', namespaceAnnotations: { umask: '0o022' } }),
  UnrepresentableYamlValue: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', namespaceAnnotations: { note: 'a\ud800b' } }),
  SensitiveRulesAggregateIntoSharedRole: (chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' })
    .subscribe({ packageName: 'view-reads-secrets', catalog: CATALOG, bundle: OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'view-reads-secrets', '0.1.0')) }),
  OlmV1ExtensionSensitiveGrant: (chart) => olmV1Team(chart, { packageName: 'cert-manager', namespace: 'team-a', bundles: [bundle('cert-manager', '1.16.5')] }),
  OlmV1MutatingWebhookOnPods: (chart) => olmV1Team(chart, { packageName: 'opentelemetry-operator', namespace: 'team-a', bundles: [bundle('opentelemetry-operator', '0.158.0')] }),
  TenantCanSetExternalIps: (chart) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    new TenantBaseline(chart, 'B', { tenant: t });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
  },
  OlmV1WebhookBeyondOwnApis: (chart) => olmV1Team(chart, { packageName: 'jaeger', namespace: 'team-a', bundles: [bundle('jaeger', '1.65.0')] }),
  TenantWebhookBeyondNamespace: (chart) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'tracing', targetNamespaces: TargetNamespaces.allNamespaces('tracing for every team'),
  }).subscribe({ packageName: 'jaeger', catalog: CATALOG, bundle: bundle('jaeger', '1.65.0') }),
  OlmV1SubjectOutsideInstallNamespace: (chart) => olmV1Team(chart, {
    packageName: 'flux', namespace: 'team-a', bundles: [OperatorBundle.fromDirectory(path.join(FIXTURES, 'olm-v1-preview', 'grafana-operator-binds-cluster-admin'))],
  }),
  OlmV1UpgradeGrowsPermissions: (chart) => {
    const older = bundle('grafana-operator', '5.24.0');
    const csv = JSON.parse(JSON.stringify(older.csv));
    csv.spec.version = '5.25.0';
    csv.metadata.name = 'grafana-operator.v5.25.0';
    csv.spec.install.spec.clusterPermissions[0].rules.push({ apiGroups: [''], resources: ['nodes'], verbs: ['get'] });
    const newer = OperatorBundle.fromCatalogBundle({
      schema: 'olm.bundle',
      name: 'grafana-operator.v5.25.0',
      package: 'grafana-operator',
      image: 'x',
      properties: [{ type: 'olm.package', value: { packageName: 'grafana-operator', version: '5.25.0' } }, ...[csv, ...older.crds.map((c) => c.raw)]
        .map((o) => ({ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(o)).toString('base64') } }))],
    });
    olmV1Team(chart, { packageName: 'grafana-operator', namespace: 'team-a', bundles: [older, newer] }, '>=5.0.0 <6.0.0');
  },
  OlmV1BundleRefused: (chart) => olmV1Team(chart, { packageName: 'etcd', namespace: 'team-a', bundles: [bundle('etcd', '0.9.4')] }),
  OlmV1ExtensionNotPreviewed: (chart) => olmV1Team(chart, { packageName: 'prometheus', namespace: 'team-a' }),
  TenantCanDriveGlobalOperator: (chart) => {
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
    new GlobalOperatorInstall(chart, 'Global', { reason: 'platform operators (PLAT-1)' }).install({ packageName: 'grafana-operator', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') });
  },
  OlmV1UnfencedWriter: (chart) => {
    olmV1Team(chart, { packageName: 'prometheus', namespace: 'team-a' });
    new ApiObject(chart, 'AliceWritesExtensions', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'alice' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
  },
};

describe('PolicyChecks registry', () => {
  test('ids are unique, OLMT-NNN, numbered without gaps from OLMT-001; codes are unique', () => {
    const all = PolicyChecks.all();
    expect(all.map((c) => c.id)).toEqual(all.map((_, i) => `OLMT-${String(i + 1).padStart(3, '0')}`));
    expect(new Set(all.map((c) => c.code)).size).toEqual(all.length);
    for (const c of all) {
      expect(PolicyChecks.byId(c.id)).toEqual(c);
      expect(PolicyChecks.byCode(c.code)).toEqual(c);
      expect([c.summary, c.fix, c.example].every((s) => s.trim().length > 0 && !s.includes('\n'))).toBe(true);
    }
  });

  test('every registered code has a driver, and nothing else does', () => {
    expect(Object.keys(DRIVERS).sort()).toEqual(PolicyChecks.all().map((c) => c.code).sort());
  });

  test.each(PolicyChecks.all().map((c) => [c.id, c.code, c.severity] as const))('%s (%s) is produced by its example, with its id in the message, at its default severity %s', (id, code, severity) => {
    const { chart } = appAndChart();
    DRIVERS[code](chart);
    const mine = findings(chart).filter((f) => f.endsWith(`(${code}, ${id})`));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((f) => f.startsWith('warning: ') === (severity === PolicySeverity.WARNING))).toBe(true);
    if (severity === PolicySeverity.WARNING) {
      expect(Diagnostics.warnings(chart).filter((w) => w.code === code).map((w) => w.policyId)).toEqual(mine.map(() => id));
    }
  });

  test('the README table between <!-- policy-checks:start --> and <!-- policy-checks:end --> is PolicyChecks.markdownTable()', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const m = /<!-- policy-checks:start -->\n([\s\S]*?)\n<!-- policy-checks:end -->/.exec(readme);
    expect(m?.[1]).toEqual(PolicyChecks.markdownTable());
  });
});

describe('ScopedOperatorTenantProps.policyChecks', () => {
  const wildcard = { namespaceName: 'team-a', installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] };
  const errorsOf = (chart: Chart) => chart.node.findAll().flatMap((c) => c.node.validate());

  test('GIVEN a warning raised to ERROR THEN it fails the synth and is no longer a warning', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { ...wildcard, policyChecks: { 'OLMT-011': PolicySeverity.ERROR } });
    expect(errorsOf(chart).map((e) => e.slice(-33))).toEqual(['(WildcardInstallerRole, OLMT-011)']);
    expect(Diagnostics.warnings(chart)).toEqual([]);
  });

  test('GIVEN a warning turned OFF THEN it is gone', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { ...wildcard, policyChecks: { 'OLMT-011': PolicySeverity.OFF } });
    expect(errorsOf(chart)).toEqual([]);
    expect(Diagnostics.warnings(chart)).toEqual([]);
  });

  test('GIVEN a relaxable error lowered to WARNING THEN it warns instead', () => {
    const { chart } = appAndChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { 'OLMT-006': PolicySeverity.WARNING } });
    t.subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') });
    // lowering it lowers it (issue 29): the rules outside the namespace are derived (annotated with why), ONE
    // NeedsClusterScopedRules warning lists them, and no MissingInstallerPermission comes back for the same rules;
    // what the derived rules hold is checked as always (test/core/lowered-checks.test.ts accepts it and passes)
    const codes = [...new Set(errorsOf(chart).map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1]))];
    expect(codes).not.toContain('MissingInstallerPermission');
    expect(codes).not.toContain('NeedsClusterScopedRules');
    expect(Diagnostics.warnings(chart).map((w) => w.code).filter((c) => c === 'NeedsClusterScopedRules')).toEqual(['NeedsClusterScopedRules']);
  });

  test('GIVEN a check that cannot be relaxed lowered to OFF THEN the finding stays an error and the setting is an error too', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      clusterInstallerRules: [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }],
      policyChecks: { 'OLMT-003': PolicySeverity.OFF },
    });
    const check = PolicyChecks.byId('OLMT-003')!;
    expect(errorsOf(chart).map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1])).toEqual(['PolicyCheckNotRelaxable', 'InstallerSensitiveGrant']);
    expect(errorsOf(chart)[0]).toEqual(`policyChecks[OLMT-003]="OFF": OLMT-003 (InstallerSensitiveGrant) cannot be lowered below ERROR: ${check.summary}. Fix: ${check.fix} (PolicyCheckNotRelaxable)`);
  });

  test('GIVEN an unknown id THEN a synth error lists the known ids', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', policyChecks: { 'OLMT-999': PolicySeverity.OFF } });
    expect(errorsOf(chart)).toEqual([
      `policyChecks[OLMT-999]="OFF": 'OLMT-999' is not a policy check id. Fix: use one of ${PolicyChecks.all().map((c) => c.id).join(', ')} (UnknownPolicyCheck)`,
    ]);
  });

  test('GIVEN no policyChecks THEN findings of unregistered codes are untouched by apply', () => {
    const d = { code: 'SomethingElse', message: 'm' };
    expect(PolicyChecks.apply([d], [d], { 'OLMT-011': PolicySeverity.OFF })).toEqual({ errors: [d], warnings: [d] });
  });
});
