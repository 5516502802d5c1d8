/**
 * The audit over the example platform (examples/platform.ts). Issue 16 item 8: the example models isolation. No
 * tenant holds an accepted reach: grafana-operator's and rabbitmq-cluster-operator's clusterPermissions read Secrets
 * and create workloads in every namespace, so a tenant that installs them could become every other tenant's
 * installer; the platform installs them itself, in a namespace of its own (chart `platform-operators`), and AUDIT.txt
 * says that no tenant reaches another. (Before, the example accepted 21 and 22 reaches in two tenants: the unsafe
 * pattern a reader would copy. The accepted-reach mechanics are tested in tenancy-audit-cases.test.ts.)
 */
import { App, Testing } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { OperatorSubscription, ScopedOperatorTenant, TenancyAudit } from '../../src';

function platform(): App {
  const app = Testing.app();
  buildPlatform(app);
  return app;
}

test('the audit of the example platform: no tenant reaches outside its namespaces, none accepts a reach', () => {
  const app = platform();
  const result = TenancyAudit.ofConstruct(app);
  expect(result.tenants.map((t) => [t.namespace, t.findings.length])).toEqual([
    ['team-data', 0], ['team-observability', 0], ['team-databases', 0], ['team-integration', 0],
    ['data-analytics', 0], ['data-warehouse', 0], ['obs-payments', 0], ['obs-search', 0],
  ]);
  const tenants = app.node.findAll().filter((c): c is ScopedOperatorTenant => c instanceof ScopedOperatorTenant);
  // no acceptedReach anywhere: nothing written to an OperatorGroup's accepted-reach annotation
  const annotations = app.charts.flatMap((c) => c.toJson())
    .filter((o) => o.kind === 'OperatorGroup')
    .map((o) => o.metadata.annotations?.['cdk8s-olm-tenancy.io/accepted-reach']);
  expect(annotations.filter((a) => a !== undefined)).toEqual([]);
  // no tenant installer holds cluster-scoped rules
  expect(tenants.filter((t) => t.clusterInstallerRules.length > 0).map((t) => t.namespaceName)).toEqual([]);
});

test('the operators that need cluster rules are the platform\'s, in a namespace of its own, installed by OLM itself', () => {
  const app = platform();
  const chart = app.charts.find((c) => c.node.id === 'platform-operators')!;
  const objects = chart.toJson();
  expect(objects.map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
    'Namespace /platform-operators',
    'OperatorGroup platform-operators/platform-operators',
    'Subscription platform-operators/grafana-operator',
    'Subscription platform-operators/rabbitmq-cluster-operator',
  ]);
  const og = objects.find((o) => o.kind === 'OperatorGroup')!;
  expect(og.spec).toEqual({}); // AllNamespaces, no installer ServiceAccount: shown as the platform's own install
  expect(og.metadata.annotations['cdk8s-olm-tenancy.io/reason']).toContain('installed by the platform team');
  expect(chart.node.findAll().filter((c) => c instanceof ScopedOperatorTenant)).toEqual([]);
  expect(chart.node.findAll().filter((c) => c instanceof OperatorSubscription).map((s) => (s as OperatorSubscription).packageName))
    .toEqual(['grafana-operator', 'rabbitmq-cluster-operator']);
});

test('the example platform synthesizes and AUDIT.txt says that no tenant reaches another, and who may drive the global operators', () => {
  const app = platform();
  expect(() => app.synth()).not.toThrow();
  const report = TenancyAudit.report(TenancyAudit.ofConstruct(app));
  expect(report.split('\n').filter((l) => /^tenant /.test(l))).toEqual([
    'tenant tenant-data/Tenant (namespace team-data): no reach outside its namespaces',
    'tenant tenant-observability/Tenant (namespace team-observability): no reach outside its namespaces',
    'tenant tenant-databases/Tenant (namespace team-databases): no reach outside its namespaces',
    'tenant tenant-integration/Tenant (namespace team-integration): no reach outside its namespaces',
    'tenant data-analytics/analytics (namespace data-analytics): no reach outside its namespaces',
    'tenant data-warehouse/warehouse (namespace data-warehouse): no reach outside its namespaces',
    'tenant observability-payments/payments (namespace obs-payments): no reach outside its namespaces',
    'tenant observability-search/search (namespace obs-search): no reach outside its namespaces',
  ]);
  expect(report.endsWith("\nno tenant reaches another: the identities of all 8 tenant(s) stay in their tenants' namespaces\n")).toBe(true);
  // the global operators: nobody drives grafana-operator; the integration team's people drive rabbitmq-cluster-operator,
  // accepted (docs/audit.md shows these lines)
  const globals = report.split('\n').filter((l) => /^(global operator |  )/.test(l));
  expect(globals[0]).toMatch(/^global operator grafana-operator \(namespace platform-operators, installed by the platform with OLM's own client\): no tenant identity may create its APIs \(/);
  expect(globals.slice(1)).toEqual([
    "global operator rabbitmq-cluster-operator (namespace platform-operators, installed by the platform with OLM's own client): 1 identity of 1 tenant(s) may drive it, 0 not accepted",
    '  accepted TenantCanDriveGlobalOperator: Group team-integration (tenant tenant-integration/Tenant) may create rabbitmqclusters.rabbitmq.com in namespace team-integration',
    '    path: Group team-integration -> RoleBinding team-integration/rabbitmq-users (App) -> Role team-integration/rabbitmq-users (App)',
    '    accepted: team-integration runs its brokers as RabbitmqClusters (PLAT-151); reviewed with the team',
  ]);
});
