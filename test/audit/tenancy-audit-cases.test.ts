/**
 * The leaky cases of issue 8 that the effective-power audit must name, with their exact paths. Each passed synth
 * before the audit (checked here by running the same App with every other validation: only audit codes fail).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import { case1, case3, CATALOG, ETCD, GRAFANA, GRAFANA_ISSUE15_GRANTS } from './leaky-cases';
import {
  AccessLevel, Diagnostics, OlmGeneration, OperatorBundle, RbacRules, ReachCode, ScopedOperatorTenant, SensitiveGrant,
  TargetNamespaces, TenancyAudit,
} from '../../src';
import { acceptingEverything, synthErrorLines } from '../util/synth';

const AUDIT_CODES = new Set<string>(Object.values(ReachCode));
const BUILTIN_CLUSTER_ADMIN = 'ClusterRole cluster-admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)';
const CLUSTER_ADMIN_RULES = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }];

const codeOf = (line: string) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(line)![1];

describe('case 1: a bundle binding cluster-admin, an installer that may bind it', () => {
  test('the audit names both paths to cluster-admin: the installer through bind, the operator through the bundle binding', () => {
    const result = TenancyAudit.ofConstruct(case1().app);
    expect(result.tenants.map((t) => ({ tenant: t.tenant, subjects: t.subjects }))).toEqual([
      { tenant: 'platform/TeamA', subjects: ['ServiceAccount team-a/team-a', 'ServiceAccount team-a/binder'] },
    ]);
    const findings = result.tenants[0].findings;
    const shown = findings.map((f) => ({
      code: f.code, subject: f.subject, namespace: f.namespace, rules: f.rules, path: f.path, accepted: f.accepted,
    }));
    expect(shown).toEqual([
      {
        code: ReachCode.TENANT_IDENTITY_UNBOUNDED,
        subject: 'ServiceAccount team-a/team-a',
        namespace: '',
        rules: CLUSTER_ADMIN_RULES,
        path: [
          'ServiceAccount team-a/team-a',
          'ClusterRoleBinding team-a-olm-installer (App)',
          'ClusterRole team-a-olm-installer (App)',
          'bind ClusterRole cluster-admin with create clusterrolebindings (ClusterRole team-a-olm-installer) cluster-wide',
          BUILTIN_CLUSTER_ADMIN,
        ],
        accepted: false,
      },
      {
        code: ReachCode.TENANT_IDENTITY_UNBOUNDED,
        subject: 'ServiceAccount team-a/binder',
        namespace: '',
        rules: CLUSTER_ADMIN_RULES,
        path: [
          'ServiceAccount team-a/binder',
          'ClusterRoleBinding binder-cluster-admin (bundle cluster-admin-binder.v0.1.0, binder-cluster-admin_rbac.authorization.k8s.io_v1_clusterrolebinding.yaml)',
          BUILTIN_CLUSTER_ADMIN,
        ],
        accepted: false,
      },
    ]);
  });

  test('synth fails with exactly the two audit errors (every other check passes: it was silent before the audit)', () => {
    const errors = synthErrorLines(case1().app);
    expect(errors.map(codeOf)).toEqual([ReachCode.TENANT_IDENTITY_UNBOUNDED, ReachCode.TENANT_IDENTITY_UNBOUNDED]);
    expect(errors[0]).toEqual('[platform/TeamA] identity="ServiceAccount team-a/team-a": ServiceAccount team-a/team-a reaches cluster-wide (gets it indirectly): '
      + 'Namespace:"" APIGroups:[*] Resources:[*] Verbs:[*]; Namespace:"" Verbs:[*] NonResourceURLs:[*]; path: ServiceAccount team-a/team-a -> ClusterRoleBinding team-a-olm-installer (App) '
      + '-> ClusterRole team-a-olm-installer (App) -> bind ClusterRole cluster-admin with create clusterrolebindings (ClusterRole team-a-olm-installer) cluster-wide -> '
      + `${BUILTIN_CLUSTER_ADMIN}. Fix: remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role) `
      // issue 42: OLMT-026 is never acceptable by default, so the fix offers no acceptance
      + '(no acceptance lowers OLMT-026: TenancyAppProps.neverAcceptable lists it) (TenantIdentityUnbounded, OLMT-026)');
  });

  test('an explicit opt-in turns the findings into warnings and is written to the OperatorGroup', () => {
    const reason = 'lab cluster, reviewed in SEC-7';
    // OLMT-026 can be accepted only where the platform takes it off the never-acceptable list (issue 42,
    // test/audit/never-acceptable.test.ts: by default this acceptance fails the synth)
    const { app, chart } = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason }], acceptingEverything(Testing.app()));
    expect(synthErrorLines(app)).toEqual([]);
    const warnings = Diagnostics.warnings(app).filter((w) => AUDIT_CODES.has(w.code));
    // issue 42: accepted, with the prop and the reason, and no fix (nothing is left to do)
    expect(warnings.map((w) => [w.code, w.value, w.acceptedBy, w.acceptedReason, w.fix])).toEqual([
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/binder', 'acceptedReach', reason, undefined],
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/team-a', 'acceptedReach', reason, undefined],
    ]);
    const og = Testing.synth(chart).find((o) => o.kind === 'OperatorGroup');
    expect(og.metadata.annotations).toEqual({ [TenancyAudit.ACCEPTED_REACH_ANNOTATION]: JSON.stringify([{ code: 'TenantIdentityUnbounded', reason }]) });
  });

  test('an opt-in for one subject leaves the other an error; an empty reason accepts nothing and is an error itself', () => {
    const one = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, subject: 'ServiceAccount team-a/binder', reason: 'known' }], acceptingEverything(Testing.app()));
    expect(synthErrorLines(one.app).map((e) => [codeOf(e), /identity="([^"]*)"/.exec(e)![1]])).toEqual([
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/team-a'],
    ]);
    const empty = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason: ' ' }], acceptingEverything(Testing.app()));
    expect(synthErrorLines(empty.app).map(codeOf)).toEqual(['EmptyAcceptedReachReason', ReachCode.TENANT_IDENTITY_UNBOUNDED, ReachCode.TENANT_IDENTITY_UNBOUNDED]);
  });
});

describe('case 3: another identity can become an installer that holds cluster rules (secure default)', () => {
  const installerRules = (tenant: ScopedOperatorTenant) => tenant.clusterInstallerRules;

  test('etcd (get secrets) and grafana (cluster-wide secret read) can read the installer token: IdentityCanAssumeInstaller, with the path', () => {
    const { app, tenant } = case3();
    const result = TenancyAudit.ofConstruct(app);
    expect(result.tenants[0].subjects).toEqual([
      'ServiceAccount team-a/team-a', 'ServiceAccount team-a/etcd-operator', 'ServiceAccount team-a/grafana-operator-controller-manager',
    ]);
    const findings = result.tenants[0].findings;
    expect(findings.map((f) => ({ code: f.code, subject: f.subject, namespace: f.namespace, path: f.path }))).toEqual([
      {
        code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
        subject: 'ServiceAccount team-a/etcd-operator',
        namespace: '',
        path: [
          'ServiceAccount team-a/etcd-operator',
          `RoleBinding team-a/${etcdRoleName(tenant)} (OLM CSV_PERMISSION of etcdoperator.v0.9.4)`,
          `Role team-a/${etcdRoleName(tenant)} (OLM CSV_PERMISSION of etcdoperator.v0.9.4)`,
          'get secret team-a/team-a (token of ServiceAccount team-a/team-a)',
          'ServiceAccount team-a/team-a',
          'ClusterRole team-a-olm-installer (cluster-wide)',
        ],
      },
      {
        code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
        subject: 'ServiceAccount team-a/grafana-operator-controller-manager',
        namespace: '',
        path: [
          'ServiceAccount team-a/grafana-operator-controller-manager',
          `ClusterRoleBinding ${grafanaClusterRoleName(tenant)} (OLM CSV_CLUSTER_PERMISSION of grafana-operator.v5.24.0)`,
          `ClusterRole ${grafanaClusterRoleName(tenant)} (OLM CSV_CLUSTER_PERMISSION of grafana-operator.v5.24.0)`,
          'get secret team-a/team-a (token of ServiceAccount team-a/team-a)',
          'ServiceAccount team-a/team-a',
          'ClusterRole team-a-olm-installer (cluster-wide)',
        ],
      },
    ]);
    // what they reach is exactly the installer's cluster rules
    for (const f of findings) expect(f.rules).toEqual(installerRules(tenant));
    expect(synthErrorLines(app).map(codeOf)).toEqual([ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, ReachCode.IDENTITY_CAN_ASSUME_INSTALLER]);
    expect(synthErrorLines(case3().app)[0]).toContain('Fix: on OLM >= 0.29 set `createTokenSecret: false`');
  });

  test('without the token Secret (OLM >= 0.29) etcd still creates pods in the namespace running as the installer', () => {
    const { app } = case3(false);
    const etcd = TenancyAudit.ofConstruct(app).tenants[0].findings.find((f) => f.subject === 'ServiceAccount team-a/etcd-operator')!;
    expect(etcd.code).toEqual(ReachCode.IDENTITY_CAN_ASSUME_INSTALLER);
    expect(etcd.path.slice(3)).toEqual([
      'create pods in team-a running as ServiceAccount team-a',
      'ServiceAccount team-a/team-a',
      'ClusterRole team-a-olm-installer (cluster-wide)',
    ]);
  });

  test('split into two tenants (the fix): etcd no longer reaches an installer with cluster rules', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const grafana = new ScopedOperatorTenant(chart, 'Obs', {
      namespaceName: 'team-obs',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'grafana-operator declares clusterPermissions',
      allowedSensitiveGrants: [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, ...GRAFANA_ISSUE15_GRANTS],
      acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-obs/grafana-operator-controller-manager', reason: 'grafana reads secrets cluster-wide by design (PLAT-142)' }],
    });
    grafana.subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: GRAFANA });
    const data = new ScopedOperatorTenant(chart, 'Data', { namespaceName: 'team-a', deriveInstallerRules: true });
    data.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    const result = TenancyAudit.ofConstruct(app);
    expect(result.tenants.map((t) => [t.tenant, t.findings.map((f) => [f.code, f.subject, f.namespace, f.accepted])])).toEqual([
      ['platform/Obs', [
        [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'ServiceAccount team-obs/team-obs', 'team-a', false],
        [ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, 'ServiceAccount team-obs/grafana-operator-controller-manager', '', true],
        [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'ServiceAccount team-obs/grafana-operator-controller-manager', 'team-a', false],
      ]],
      ['platform/Data', []],
    ]);
    // grafana's cluster-wide secret read still reaches the other tenant's installer token: the audit says so
    const reach = result.tenants[0].findings[0];
    expect(reach.path.slice(3, 5)).toEqual(['get secret team-a/team-a (token of ServiceAccount team-a/team-a)', 'ServiceAccount team-a/team-a']);
  });
});

function etcdRoleName(tenant: ScopedOperatorTenant): string {
  return tenant.generatedRbac().objects().find((o) => o.manifest.kind === 'Role' && o.csvName === 'etcdoperator.v0.9.4')!.manifest.metadata.name;
}

function grafanaClusterRoleName(tenant: ScopedOperatorTenant): string {
  return tenant.generatedRbac().objects().find((o) => o.manifest.kind === 'ClusterRole' && o.csvName === 'grafana-operator.v5.24.0' && o.source === 'CSV_CLUSTER_PERMISSION')!.manifest.metadata.name;
}

describe('case 5: legacy pull-secret access pointed at another tenant\'s installer token', () => {
  test('the audit follows the Role in the other namespace to the token and names the path', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    new ScopedOperatorTenant(chart, 'TeamB', {
      namespaceName: 'team-b',
      legacyPullSecretAccess: { catalogNamespace: 'team-a', secretNames: ['team-a'] },
    });
    const b = TenancyAudit.ofConstruct(app).tenants[1];
    expect(b.findings.map((f) => [f.code, f.subject, f.namespace, f.path])).toEqual([[
      ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
      'ServiceAccount team-b/team-b',
      'team-a',
      [
        'ServiceAccount team-b/team-b',
        'RoleBinding team-a/team-b-legacy-pull-secrets (App)',
        'Role team-a/team-b-legacy-pull-secrets (App)',
        'get secret team-a/team-a (token of ServiceAccount team-a/team-a)',
        'ServiceAccount team-a/team-a',
        'RoleBinding team-a/team-a (App)',
        'Role team-a/team-a (App)',
      ],
    ]]);
    // what it gains there: the other installer's Role, less the Secret it could already read
    expect(b.findings[0].rules).toEqual(RbacRules.compact(RbacRules.covers(
      [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['team-a'], verbs: ['get'] }], a.installerRules).missing));
  });
});

test('a real bundle: keda 2.7.1\'s operator may bind any ClusterRole and create ClusterRoleBindings: unbounded, with the path', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const keda = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'keda', '2.7.1'));
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.allNamespaces('keda supports AllNamespaces only') });
  tenant.subscribe({ packageName: 'keda', catalog: CATALOG, bundle: keda });
  const role = tenant.generatedRbac().objects().find((o) => o.manifest.kind === 'ClusterRole' && o.source === 'CSV_CLUSTER_PERMISSION')!.manifest.metadata.name;
  expect(TenancyAudit.ofConstruct(app).tenants[0].findings.map((f) => [f.code, f.subject, f.path])).toEqual([[
    ReachCode.TENANT_IDENTITY_UNBOUNDED,
    'ServiceAccount team-a/keda-olm-operator',
    [
      'ServiceAccount team-a/keda-olm-operator',
      `ClusterRoleBinding ${role} (OLM CSV_CLUSTER_PERMISSION of keda.v2.7.1)`,
      `ClusterRole ${role} (OLM CSV_CLUSTER_PERMISSION of keda.v2.7.1)`,
      `bind any ClusterRole (e.g. cluster-admin) with create clusterrolebindings (ClusterRole ${role}) cluster-wide`,
      BUILTIN_CLUSTER_ADMIN,
    ],
  ]]);
});

test('the validation follows changes between passes, through App.synth and Chart.toJson alike', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterInstallerRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  });
  expect(synthErrorLines(app)).toEqual([]);
  // etcd may read the installer's token Secret, and the installer holds a cluster rule
  tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  expect(synthErrorLines(app).map(codeOf)).toEqual([ReachCode.IDENTITY_CAN_ASSUME_INSTALLER]);
  const chartOnly = Testing.app();
  const other = new ScopedOperatorTenant(new Chart(chartOnly, 'c'), 'TeamA', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterInstallerRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  });
  other.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  expect(() => chartOnly.charts[0].toJson()).toThrow(/\(IdentityCanAssumeInstaller, OLMT-023\)/);
});

test('case 2 as the audit sees it: OperatorGroup `cluster` on OLM 0.15-0.25 makes the ADMIN grant bind the built-in cluster-admin', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
    namespaceName: 'team-a',
    operatorGroupName: 'cluster',
    olmGeneration: OlmGeneration.V0_15_TO_V0_25,
    clusterInstallerRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  });
  tenant.grantOperatorAccess(Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.ADMIN);
  const findings = TenancyAudit.ofConstruct(app).tenants[0].findings;
  expect(findings.map((f) => [f.code, f.subject, f.path])).toEqual([[
    ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
    'Group team-a-admins',
    [
      'Group team-a-admins',
      'RoleBinding team-a/cluster-operator-admin (App)',
      BUILTIN_CLUSTER_ADMIN,
      'get secret team-a/team-a (token of ServiceAccount team-a/team-a)',
      'ServiceAccount team-a/team-a',
      'ClusterRole team-a-olm-installer (cluster-wide)',
    ],
  ]]);
});

test('AllNamespaces opts into every namespace, not into other tenants\' identities: the lifted Role reads another installer\'s token', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const percona = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'percona-xtradb-cluster-operator', '1.20.0'));
  const all = new ScopedOperatorTenant(chart, 'All', {
    namespaceName: 'team-all', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.allNamespaces('percona serves every namespace'),
  });
  all.subscribe({ packageName: 'percona-xtradb-cluster-operator', catalog: CATALOG, bundle: percona });
  new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b', deriveInstallerRules: true }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  const lifted = all.generatedRbac().objects().find((o) => o.source === 'LIFTED_TO_CLUSTER')!.manifest.metadata.name;
  const result = TenancyAudit.ofConstruct(app);
  expect(result.tenants.map((t) => [t.tenant, t.findings.map((f) => [f.code, f.subject, f.namespace, f.path])])).toEqual([
    ['platform/All', [[
      ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
      'ServiceAccount team-all/percona-xtradb-cluster-operator',
      'team-b',
      [
        'ServiceAccount team-all/percona-xtradb-cluster-operator',
        `ClusterRoleBinding ${lifted} (OLM LIFTED_TO_CLUSTER of percona-xtradb-cluster-operator.v1.20.0)`,
        `ClusterRole ${lifted} (OLM LIFTED_TO_CLUSTER of percona-xtradb-cluster-operator.v1.20.0)`,
        'get secret team-b/team-b (token of ServiceAccount team-b/team-b)',
        'ServiceAccount team-b/team-b',
        'RoleBinding team-b/team-b (App)',
        'Role team-b/team-b (App)',
      ],
    ]]],
    ['platform/B', []],
  ]);
});
