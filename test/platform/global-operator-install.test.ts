/**
 * GlobalOperatorInstall: operators the platform installs itself for all namespaces (OLM's own client), their
 * permission preview, and the audit of the tenant identities that may drive them (OLMT-055).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Group, k8s } from 'cdk8s-plus-28';
import {
  AccessLevel, CatalogSourceReference, CuratedClusterCatalog, Diagnostics, GlobalOperatorInstall, GlobalOperatorPermissionPreview,
  GlobalOperatorPreviewFindingKind, InstallPlanApproval, OlmV1Team, OperatorBundle, PolicyChecks, ScopedOperatorTenant, SensitiveGrant, TenancyAudit,
} from '../../src';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
const GRAFANA = bundle('grafana-operator', '5.24.0');
const RABBITMQ = bundle('rabbitmq-cluster-operator', '2.22.3');
const CATALOG = CatalogSourceReference.fromName('curated', 'olm');
const REASON = 'cluster-wide operators, installed by the platform team (PLAT-142)';

// read off the CSVs' clusterPermissions (test/fixtures/bundles/*/manifests): grafana-operator get/list/watch secrets,
// create deployments, update services and configmaps; rabbitmq-cluster-operator also create pods/exec, create statefulsets,
// update pods
const GRAFANA_GRANTS: SensitiveGrant[] = [
  SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE,
];
const RABBITMQ_GRANTS: SensitiveGrant[] = [SensitiveGrant.POD_EXEC, ...GRAFANA_GRANTS, SensitiveGrant.POD_IMAGE_UPDATE];

function fixture() {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  return { app, chart };
}

/** Every validation error of the tree, as cdk8s prints them. */
function errors(chart: Chart): string[] {
  return chart.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

/** The codes of the errors and warnings of the tree. */
function codes(chart: Chart): { errors: string[]; warnings: string[] } {
  return {
    errors: errors(chart).map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)?.[1] ?? e),
    warnings: Diagnostics.warnings(chart).map((w) => w.code),
  };
}

describe('GlobalOperatorInstall objects', () => {
  test('a Namespace, an AllNamespaces OperatorGroup without serviceAccountName, one Manual Subscription per install', () => {
    const { chart } = fixture();
    const g = new GlobalOperatorInstall(chart, 'Global', { reason: REASON });
    const sub = g.install({ packageName: 'grafana-operator', channel: 'v5', catalog: CATALOG, bundle: GRAFANA });
    g.install({ packageName: 'rabbitmq-cluster-operator', channel: 'stable', catalog: CATALOG, bundle: RABBITMQ, installPlanApproval: InstallPlanApproval.AUTOMATIC });
    expect(sub.namespace).toEqual('platform-operators');
    expect(Testing.synth(chart)).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'platform-operators' } },
      {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: 'platform-operators', namespace: 'platform-operators', annotations: { 'cdk8s-olm-tenancy.io/reason': REASON } },
        spec: {},
      },
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'grafana-operator', namespace: 'platform-operators' },
        spec: { name: 'grafana-operator', channel: 'v5', source: 'curated', sourceNamespace: 'olm', installPlanApproval: 'Manual' },
      },
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'rabbitmq-cluster-operator', namespace: 'platform-operators' },
        spec: { name: 'rabbitmq-cluster-operator', channel: 'stable', source: 'curated', sourceNamespace: 'olm', installPlanApproval: 'Automatic' },
      },
    ]);
    expect(errors(chart)).toEqual([]);
  });

  test('namespace and OperatorGroup name are props', () => {
    const { chart } = fixture();
    new GlobalOperatorInstall(chart, 'Global', { reason: REASON, namespaceName: 'ops', operatorGroupName: 'global-operators' });
    expect(Testing.synth(chart).map((o) => [o.kind, o.metadata.namespace, o.metadata.name])).toEqual([['Namespace', undefined, 'ops'], ['OperatorGroup', 'ops', 'global-operators']]);
  });

  test('bad input: every error of the synth together, naming field, value and fix', () => {
    const { chart } = fixture();
    const g = new GlobalOperatorInstall(chart, 'Global', { reason: ' ', namespaceName: 'Team_A', unknownProp: 1 } as any);
    g.install({ packageName: 'grafana-operator', catalog: CATALOG, bundle: GRAFANA, tenantsMayDriveReason: '' });
    g.install({ packageName: 'grafana-operator', catalog: CATALOG, bundle: GRAFANA });
    const found = errors(chart);
    expect(found.map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)?.[1])).toEqual(['UnknownProp', 'InvalidInputValue', 'InvalidName', 'InvalidInputValue', 'DuplicateGlobalOperator']);
    expect(found[4]).toEqual('[platform/Global] install(grafana-operator)="grafana-operator": package grafana-operator is installed twice in namespace platform-operators: '
      + 'OLM resolves one Subscription per package and fails the second CSV owning the same APIs (InterOperatorGroupOwnerConflict). Fix: remove the second install(grafana-operator) (DuplicateGlobalOperator)');
    expect(found[3]).toContain('install(grafana-operator).tenantsMayDriveReason');
  });

  test('the install namespace must not be a tenant namespace or target', () => {
    const { chart } = fixture();
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'platform-operators' });
    new GlobalOperatorInstall(chart, 'Global', { reason: REASON });
    expect(errors(chart).filter((e) => e.includes('GlobalInstallInTenantNamespace'))).toEqual([
      "[platform/Global] namespaceName=\"platform-operators\": namespace platform-operators is the namespace of tenant platform/A: its identities would share it with operators that run with cluster-wide rights. Fix: give the global install a namespace of its own (namespaceName, default 'platform-operators') (GlobalInstallInTenantNamespace)",
    ]);
  });

  test('an OLM v1 team namespace must not be the install namespace: its extensions could run pods as the operators\' ServiceAccounts', () => {
    const { chart } = fixture();
    new GlobalOperatorInstall(chart, 'Global', { reason: REASON });
    const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'ops', team: 'ops', image: `registry.example.com/ops@sha256:${'a'.repeat(64)}` });
    const team = (namespaces: string[]) => new OlmV1Team(chart, `Team-${namespaces.join('-')}`, { team: `ops-${namespaces.length}`, groups: ['ops'], namespaces, catalog, allowedPackages: [{ name: 'x' }] });
    team(['ops', 'platform-operators']);
    team(['ops-a']);
    expect(errors(chart).filter((e) => e.includes('TeamNamespaceOfGlobalInstall'))).toEqual([
      "[platform/Team-ops-platform-operators] namespaces=\"platform-operators\": namespace 'platform-operators' of team ops-2 is where platform/Global installs operators for all namespaces with cluster-wide ServiceAccounts: an extension installed there could run a pod as one of them. Fix: give team ops-2 a namespace of its own, or install the global operators elsewhere (GlobalOperatorInstall namespaceName) (TeamNamespaceOfGlobalInstall)",
    ]);
  });

  test('a package installed globally and subscribed by a tenant too is an error (InterOperatorGroupOwnerConflict)', () => {
    const { chart } = fixture();
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' }).subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG });
    new GlobalOperatorInstall(chart, 'Global', { reason: REASON }).install({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    expect(errors(chart).filter((e) => e.includes('DuplicateGlobalOperator')).map((e) => e.split(': ')[0])).toEqual([
      '[platform/Global] install(rabbitmq-cluster-operator)="platform/A/Subscription-rabbitmq-cluster-operator"',
    ]);
  });
});

describe('GlobalOperatorPermissionPreview (the OLM v1 preview vocabulary)', () => {
  test('grafana-operator: its ServiceAccount gets cluster-wide rules with the sensitive grants named', () => {
    const p = GlobalOperatorPermissionPreview.of({ namespace: 'platform-operators', operatorGroupName: 'platform-operators', bundle: GRAFANA });
    expect(p.known).toBe(true);
    expect(p.subjects.map((s) => [s.subject, s.unbounded, s.namespaces])).toEqual([['ServiceAccount platform-operators/grafana-operator-controller-manager', false, ['platform-operators']]]);
    expect(p.findings.map((f) => [f.kind, f.grant])).toEqual(GRAFANA_GRANTS.map((g) => ['SensitiveGrant', g]));
    expect(p.findings[0].what).toEqual("ServiceAccount platform-operators/grafana-operator-controller-manager gets 'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SECRETS_READ_CLUSTER_WIDE)");
  });

  test('rabbitmq-cluster-operator', () => {
    const p = GlobalOperatorPermissionPreview.of({ namespace: 'ops', operatorGroupName: 'ops', bundle: RABBITMQ });
    expect(p.subjects.map((s) => s.subject)).toEqual(['ServiceAccount ops/rabbitmq-cluster-operator']);
    expect(p.findings.map((f) => f.grant)).toEqual(RABBITMQ_GRANTS);
  });

  test('webhooks: OLM gives a global install\'s webhooks no namespaceSelector, so one on pods or workloads sees every namespace (as OLMT-051 for tenants)', () => {
    const otel = GlobalOperatorPermissionPreview.of({ namespace: 'ops', operatorGroupName: 'ops', bundle: bundle('opentelemetry-operator', '0.158.0') });
    expect(otel.findings.filter((f) => f.kind === GlobalOperatorPreviewFindingKind.WEBHOOK_BEYOND_OWN_APIS)).toEqual([{
      kind: 'WebhookBeyondOwnApis',
      subject: 'MutatingWebhookConfiguration of opentelemetry-operator.v0.158.0',
      what: 'mutating webhook mpod.kb.io (no namespaceSelector: every namespace) rewrites core/pods (every pod: images, commands, volumes and its ServiceAccount, i.e. code in every pod) in every namespace',
    }]);
    const jaeger = GlobalOperatorPermissionPreview.of({ namespace: 'ops', operatorGroupName: 'ops', bundle: bundle('jaeger', '1.65.0') });
    expect(jaeger.findings.filter((f) => f.kind === GlobalOperatorPreviewFindingKind.WEBHOOK_BEYOND_OWN_APIS)).toEqual([{
      kind: 'WebhookBeyondOwnApis',
      subject: 'MutatingWebhookConfiguration of jaeger-operator.v1.65.0',
      what: 'mutating webhook deployment.sidecar-injector.jaegertracing.io (no namespaceSelector: every namespace) rewrites apps/deployments (the template of every pod it creates: images, commands, volumes and the ServiceAccount, i.e. code in its pods as any ServiceAccount of the namespace) in every namespace',
    }]);
    // webhooks on the operator's own APIs only (cert-manager's validate its own kinds), or none: no such finding
    for (const [name, version] of [['cert-manager', '1.16.5'], ['grafana-operator', '5.24.0'], ['rabbitmq-cluster-operator', '2.22.3']]) {
      const p = GlobalOperatorPermissionPreview.of({ namespace: 'ops', operatorGroupName: 'ops', bundle: bundle(name, version) });
      expect(p.findings.filter((f) => f.kind === GlobalOperatorPreviewFindingKind.WEBHOOK_BEYOND_OWN_APIS)).toEqual([]);
    }
  });

  test('without a bundle: unknown, never nothing', () => {
    const p = GlobalOperatorPermissionPreview.of({ namespace: 'ops', operatorGroupName: 'ops' });
    expect(p).toEqual({
      namespace: 'ops',
      known: false,
      subjects: [],
      findings: [{ kind: 'Unknown', subject: 'namespace ops', what: "no bundle given: what the operator's ServiceAccounts get is unknown; OLM installs whatever the CSV asks for with its own cluster-admin client (unbounded)" }],
    });
  });
});

describe('OLMT-055: tenant identities that may drive a global operator', () => {
  function app(grant: (chart: Chart, tenant: ScopedOperatorTenant) => void, tenantsMayDriveReason?: string, withBundle = true) {
    const { chart } = fixture();
    const tenant = new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' });
    grant(chart, tenant);
    new GlobalOperatorInstall(chart, 'Global', { reason: REASON })
      .install({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, ...(withBundle ? { bundle: RABBITMQ } : {}), tenantsMayDriveReason });
    return chart;
  }

  test('a tenant with no create on the APIs: no finding, and the audit says so', () => {
    const chart = app((c, t) => t.grantOperatorAccess(Group.fromName(c, 'G', 'team-a'), AccessLevel.ADMIN));
    expect(codes(chart)).toEqual({ errors: [], warnings: [] });
    const audit = TenancyAudit.ofConstruct(chart);
    expect(audit.globalOperators).toEqual([{
      install: 'platform/Global', namespace: 'platform-operators', packageName: 'rabbitmq-cluster-operator', apis: ['rabbitmqclusters.rabbitmq.com'], apisKnown: true, drivers: [],
    }]);
    expect(TenancyAudit.report(audit)).toContain('global operator rabbitmq-cluster-operator (namespace platform-operators, installed by the platform with OLM\'s own client): no tenant identity may create its APIs (rabbitmqclusters.rabbitmq.com)\n');
  });

  test('create via a wildcard Role bound to the installer: an error naming tenant, identity, API and namespace', () => {
    const chart = app((c) => {
      new k8s.KubeRole(c, 'Wild', { metadata: { name: 'wild', namespace: 'team-a' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['create'] }] });
      new k8s.KubeRoleBinding(c, 'WildBinding', {
        metadata: { name: 'wild', namespace: 'team-a' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'wild' },
        subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
      });
    });
    const found = errors(chart).filter((e) => e.includes('OLMT-055'));
    expect(found).toEqual([
      '[platform/Global] install(rabbitmq-cluster-operator)="ServiceAccount team-a/team-a": ServiceAccount team-a/team-a of tenant platform/A may create '
      + 'rabbitmqclusters.rabbitmq.com in namespace team-a: rabbitmq-cluster-operator, installed by the platform for all namespaces with OLM\'s own client, acts on them '
      + 'with its cluster-wide ServiceAccounts; path: ServiceAccount team-a/team-a -> RoleBinding team-a/wild (App) -> Role team-a/wild (App). '
      + "Fix: remove the create (or *) on these APIs from ServiceAccount team-a/team-a, or accept it with install({ packageName: 'rabbitmq-cluster-operator', "
      + "tenantsMayDriveReason: '<who reviewed it, why>' }) (TenantCanDriveGlobalOperator, OLMT-055)",
    ]);
  });

  test('a person granted built-in edit by a RoleBinding: OLM aggregates the provided-API roles into edit (a finding); accepted by reason: a warning', () => {
    const grant = (c: Chart, t: ScopedOperatorTenant) => {
      t.grantOperatorAccess(Group.fromName(c, 'G', 'team-a-devs'), AccessLevel.VIEW);
      new k8s.KubeRoleBinding(c, 'Edit', {
        metadata: { name: 'devs-edit', namespace: 'team-a' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'Group', name: 'team-a-devs', apiGroup: 'rbac.authorization.k8s.io' }],
      });
    };
    const open = app(grant);
    expect(codes(open).errors.filter((c) => c === 'TenantCanDriveGlobalOperator')).toEqual(['TenantCanDriveGlobalOperator']);
    const drivers = TenancyAudit.ofConstruct(open).globalOperators![0].drivers;
    expect(drivers.map((d) => [d.tenant, d.subject, d.apis, d.namespaces, d.accepted])).toEqual([
      ['platform/A', 'Group team-a-devs', ['rabbitmqclusters.rabbitmq.com'], ['team-a'], false],
    ]);
    expect(drivers[0].path).toEqual(['Group team-a-devs', 'RoleBinding team-a/devs-edit (App)',
      'ClusterRole edit (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)']);

    const accepted = app(grant, 'team-a runs its own RabbitMQ clusters (PLAT-151)');
    expect(codes(accepted)).toEqual({ errors: [], warnings: ['TenantCanDriveGlobalOperator'] });
    expect(Diagnostics.warnings(accepted)[0].message).toMatch(/ \(accepted: team-a runs its own RabbitMQ clusters \(PLAT-151\)\)$/);
  });

  test('a custom ClusterRole on the API group bound by a RoleBinding, and a cluster-wide binding: every namespace', () => {
    const chart = app((c) => {
      new k8s.KubeClusterRole(c, 'Rabbit', { metadata: { name: 'rabbit-all' }, rules: [{ apiGroups: ['rabbitmq.com'], resources: ['*'], verbs: ['*'] }] });
      new k8s.KubeClusterRoleBinding(c, 'RabbitBinding', {
        metadata: { name: 'rabbit-all' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rabbit-all' },
        subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
      });
    });
    const d = TenancyAudit.ofConstruct(chart).globalOperators![0].drivers;
    expect(d.map((x) => [x.subject, x.namespaces])).toEqual([['ServiceAccount team-a/team-a', ['']]]);
    expect(d[0].message).toContain('may create rabbitmqclusters.rabbitmq.com in every namespace');
  });

  test('without a bundle the drivers are unknown: an error unless accepted', () => {
    const chart = app(() => undefined, undefined, false);
    expect(codes(chart).errors).toEqual(['TenantCanDriveGlobalOperator']);
    expect(TenancyAudit.ofConstruct(chart).globalOperators![0]).toMatchObject({ apis: [], apisKnown: false, drivers: [{ tenant: '*', subject: '*', accepted: false }] });
    expect(codes(app(() => undefined, 'reviewed: PLAT-9', false))).toEqual({ errors: [], warnings: ['TenantCanDriveGlobalOperator'] });
  });

  test('OLMT-055 is registered, cannot be relaxed (accepted by reason per operator)', () => {
    expect(PolicyChecks.byId('OLMT-055')).toMatchObject({ code: 'TenantCanDriveGlobalOperator', severity: 'ERROR', relaxable: false });
  });
});

describe('OLMT-055 across validations of one App (the audit cache)', () => {
  test('an install added after a first validation is audited at the next one', () => {
    const { chart } = fixture();
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
    const g = new GlobalOperatorInstall(chart, 'Global', { reason: REASON });
    expect(codes(chart).errors.filter((c) => c === 'TenantCanDriveGlobalOperator')).toEqual([]);
    g.install({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    expect(codes(chart).errors.filter((c) => c === 'TenantCanDriveGlobalOperator')).toEqual(['TenantCanDriveGlobalOperator']);
  });
});
