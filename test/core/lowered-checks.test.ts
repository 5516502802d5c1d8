/**
 * Lowering a check lowers it (issue 29): for EVERY check the registry offers as lowerable (`relaxable`), a scenario
 * where that check is the only thing wrong; with `policyChecks` lowering it, the synth passes and the check's own
 * finding is the only warning (WARNING) or there is none (OFF). One root cause, one finding: lowering a check never
 * turns the same root cause into another error (OLMT-006 used to come back as MissingInstallerPermission).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  CatalogSourceReference, Diagnostics, InstallPlanApproval, OperatorBundle, PolicyChecks, PolicySeverity, ReachCode, ScopedOperatorTenant,
  SensitiveGrant, TargetNamespaces, TenantBaseline, UpgradeStrategy,
} from '../../src';
import { LOWERED_CLUSTER_SCOPED_REASON } from '../../src/tenant/rbac/installer-rbac';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');
type Checks = { [id: string]: PolicySeverity };
/** `CrdsCreatedByOlm` (OLMT-016) warns for every bundle that ships CRDs: off in the scenarios of the other checks. */
const QUIET_CRDS: Checks = { 'OLMT-016': PolicySeverity.OFF };

/** grafana-operator 5.24.0 derived without clusterScopedInstallerRulesReason: the grants its cluster rules hold accepted. */
const GRAFANA_ACCEPTED = {
  createTokenSecret: false,
  acceptedSensitiveGrants: [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE,
    SensitiveGrant.CONFIGMAP_UPDATE].map((grant) => ({ grant, reason: 'grafana-operator manages Grafana Deployments, Services and ConfigMaps and reads datasource Secrets' })),
  acceptedReach: [{
    code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
    subject: 'ServiceAccount team-a/grafana-operator-controller-manager',
    reason: 'the operator may create Secrets cluster-wide; reviewed by the platform team',
  }],
};

/** One scenario per lowerable code: that check is the only finding (besides none). `checks` is the tenant's policyChecks. */
const SCENARIOS: Record<string, (chart: Chart, checks: Checks) => void> = {
  // cluster-wide read of everything: the sensitive grants it holds are accepted by name
  NeedsClusterScopedRules: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    createTokenSecret: false, // its cluster-wide Secret read would otherwise read the installer's token (OLMT-023)
    acceptedSensitiveGrants: [SensitiveGrant.POD_EXEC, SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.NODES_PROXY]
      .map((grant) => ({ grant, reason: 'the validation operator reads every object of the cluster' })),
    policyChecks: checks,
  }).subscribe({ packageName: 'deployment-validation-operator', catalog: CATALOG, bundle: bundle('deployment-validation-operator', '0.7.12') }),
  WildcardInstallerRole: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], policyChecks: checks,
  }),
  OperatorRbacCopiedToTargetNamespaces: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.namespaces(['team-a-dev'], 'operands'), policyChecks: { ...QUIET_CRDS, ...checks },
  }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  OperatorRbacLiftedToCluster: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterScopedInstallerRulesReason: 'the database operator watches every namespace',
    targetNamespaces: TargetNamespaces.allNamespaces('global'),
    policyChecks: { ...QUIET_CRDS, ...checks },
  }).subscribe({ packageName: 'percona-xtradb-cluster-operator', catalog: CATALOG, bundle: bundle('percona-xtradb-cluster-operator', '1.20.0') }),
  AllNamespacesIncludesTenants: (chart, checks) => {
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', installerRules: [], targetNamespaces: TargetNamespaces.allNamespaces('global'), policyChecks: checks });
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
  },
  LegacyPullSecretAccess: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'catalogs', secretNames: ['pull'] }, policyChecks: checks,
  }),
  CrdsCreatedByOlm: (chart, checks) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: checks })
    .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') }),
  RequiredApis: (chart, checks) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: checks }).subscribe({
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
  UnsafeUpgradeStrategy: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a', upgradeStrategy: UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD, policyChecks: checks,
  }),
  // a validating webhook on ClusterRoles (cluster-scoped: no namespaceSelector confines it) in an OwnNamespace install;
  // the installer's cluster rules for the webhook configuration are opted in and accepted
  TenantWebhookBeyondNamespace: (chart, checks) => new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterScopedInstallerRulesReason: 'the operator validates ClusterRoles',
    acceptedSensitiveGrants: [{ grant: SensitiveGrant.VALIDATING_WEBHOOK_WRITES, reason: 'OLM creates the operator webhook configuration' }],
    policyChecks: { ...QUIET_CRDS, ...checks },
  }).subscribe({
    packageName: 'hook',
    catalog: CATALOG,
    bundle: OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'hook.v1' },
      spec: {
        installModes: [{ type: 'OwnNamespace', supported: true }],
        install: {
          strategy: 'deployment',
          spec: { deployments: [{ name: 'hook', spec: { selector: { matchLabels: { app: 'hook' } }, template: { metadata: { labels: { app: 'hook' } }, spec: { containers: [{ name: 'c', image: 'registry.example.com/hook:v1' }] } } } }] },
        },
        webhookdefinitions: [{
          type: 'ValidatingAdmissionWebhook',
          generateName: 'vclusterroles.example.com',
          deploymentName: 'hook',
          containerPort: 9443,
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          webhookPath: '/validate',
          rules: [{ apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['clusterroles'] }],
        }],
      },
    }),
  }),
  // the operator creates Services in its namespace (it may set spec.externalIPs); no baseline policy refuses them
  TenantCanSetExternalIps: (chart, checks) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { ...QUIET_CRDS, ...checks } });
    new TenantBaseline(chart, 'B', { tenant: t });
    t.subscribe({
      packageName: 'svc',
      catalog: CATALOG,
      bundle: OperatorBundle.fromCsvObject({
        kind: 'ClusterServiceVersion',
        metadata: { name: 'svc.v1' },
        spec: {
          installModes: [{ type: 'OwnNamespace', supported: true }],
          install: { strategy: 'deployment', spec: { deployments: [], permissions: [{ serviceAccountName: 'svc', rules: [{ apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'create'] }] }] } },
        },
      }),
    });
  },
  TenantCanBecomeApprover: (chart, checks) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { ...QUIET_CRDS, ...checks } });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: bundle('etcd', '0.9.4'), installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'etcdoperator.v0.9.4' });
    t.addPinnedApprover({ approverNamespace: 'team-a' });
  },
  TenantCanRemoveBaseline: (chart, checks) => {
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { ...QUIET_CRDS, ...checks } });
    new TenantBaseline(chart, 'B', { tenant: t });
    // an operator whose own Role deletes NetworkPolicies (so its installer holds that too)
    t.subscribe({
      packageName: 'np',
      catalog: CATALOG,
      bundle: OperatorBundle.fromCsvObject({
        kind: 'ClusterServiceVersion',
        metadata: { name: 'np.v1' },
        spec: {
          installModes: [{ type: 'OwnNamespace', supported: true }],
          install: { strategy: 'deployment', spec: { deployments: [], permissions: [{ serviceAccountName: 'np', rules: [{ apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['get', 'list', 'delete'] }] }] } },
        },
      }),
    });
  },
};

function synth(scenario: (chart: Chart, checks: Checks) => void, checks: Checks) {
  const chart = new Chart(Testing.app(), 'platform');
  scenario(chart, checks);
  return {
    errors: chart.node.findAll().flatMap((c) => c.node.validate()),
    warnings: Diagnostics.warnings(chart).map((w) => [w.code, w.policyId]),
  };
}

const LOWERABLE = PolicyChecks.all().filter((c) => c.relaxable);

describe('lowering a check lowers it: the synth passes with exactly that warning (or none)', () => {
  test('every check the registry offers as lowerable has a scenario here, and nothing else does', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(LOWERABLE.map((c) => c.code).sort());
  });

  test.each(LOWERABLE.map((c) => [c.id, c.code, c.severity] as const))('%s (%s): the scenario trips it at its default %s, and only it', (id, code, severity) => {
    const { errors, warnings } = synth(SCENARIOS[code], {});
    if (severity === PolicySeverity.ERROR) {
      expect(errors.map((e) => e.slice(e.lastIndexOf(' ('))).every((e) => e === ` (${code}, ${id})`)).toBe(true);
      expect(errors.length).toBeGreaterThan(0);
      expect(warnings).toEqual([]);
    } else {
      expect(errors).toEqual([]);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every(([c, i]) => c === code && i === id)).toBe(true);
    }
  });

  const lowered = LOWERABLE.flatMap((c) => (c.severity === PolicySeverity.ERROR ? [PolicySeverity.WARNING, PolicySeverity.OFF] : [PolicySeverity.OFF])
    .map((to) => [c.id, c.code, to] as const));
  test.each(lowered)('%s (%s) lowered to %s: the synth passes with exactly that warning (or none when OFF)', (id, code, to) => {
    const { errors, warnings } = synth(SCENARIOS[code], { [id]: to });
    expect(errors).toEqual([]);
    if (to === PolicySeverity.OFF) {
      expect(warnings).toEqual([]);
    } else {
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every(([c, i]) => c === code && i === id)).toBe(true);
    }
  });
});

describe('OLMT-006 lowered on grafana-operator 5.24.0 (the issue 29 case)', () => {
  test.each([PolicySeverity.WARNING, PolicySeverity.OFF])('lowered to %s: the rules outside the namespace are derived, ONE NeedsClusterScopedRules finding (none when OFF), no MissingInstallerPermission', (to) => {
    const chart = new Chart(Testing.app(), 'platform');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { ...QUIET_CRDS, 'OLMT-006': to }, ...GRAFANA_ACCEPTED })
      .subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([]);
    // the reach the tenant accepts by name is listed as accepted (a warning), as with clusterScopedInstallerRulesReason
    const warnings = Diagnostics.warnings(chart);
    expect(warnings.map((w) => w.code).sort()).toEqual(['IdentityCanAssumeInstaller', ...(to === PolicySeverity.WARNING ? ['NeedsClusterScopedRules'] : [])]);
    if (to === PolicySeverity.WARNING) {
      expect(warnings.find((w) => w.code === 'NeedsClusterScopedRules')!.message).toMatch(/^the installer ServiceAccount team-a\/team-a holds 9 derived rule\(s\) outside namespace team-a, granted without clusterScopedInstallerRulesReason because policyChecks lowers OLMT-006: Namespace:"" /);
    }
    const clusterRole = chart.node.findAll().map((c) => (c as any).toJson?.()).find((o) => o?.kind === 'ClusterRole' && o.metadata.name === 'team-a-olm-installer');
    expect(clusterRole.metadata.annotations['cdk8s-olm-tenancy.io/reason']).toEqual(LOWERED_CLUSTER_SCOPED_REASON);
    expect(clusterRole.rules).toHaveLength(9);
  });

  test('without deriveInstallerRules, lowering it leaves ONE finding for the missing rules: MissingInstallerPermission (OLM would fail)', () => {
    const chart = new Chart(Testing.app(), 'platform');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', policyChecks: { ...QUIET_CRDS, 'OLMT-006': PolicySeverity.WARNING } })
      .subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate());
    expect(errors.map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1])).toEqual(['MissingInstallerPermission']);
    expect(Diagnostics.warnings(chart)).toEqual([]);
  });
});
