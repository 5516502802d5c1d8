/**
 * The audit over the example platform (examples/platform.ts): grafana-operator's and rabbitmq-cluster-operator's
 * clusterPermissions read Secrets and create workloads in every namespace, so their operators and installers reach
 * other tenants' installer tokens. The example accepts these reaches visibly (`acceptedReach`, on the
 * OperatorGroups); the namespace-confined tenants have no finding at all.
 */
import { App, Testing } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { ReachCode, TenancyAudit } from '../../src';

const ASSUME = ReachCode.IDENTITY_CAN_ASSUME_INSTALLER;
const CLUSTER = ReachCode.TENANT_IDENTITY_REACHES_CLUSTER;
const OTHER = ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE;

function platform(): App {
  const app = Testing.app();
  buildPlatform(app);
  return app;
}

/** The reaches of an operator (or installer) that reads Secrets and creates workloads cluster-wide. */
function clusterWideReader(subject: string, otherNamespaces: string[], assumes: number): Array<[string, string, string, boolean]> {
  return [
    ...Array.from({ length: assumes }, () => [ASSUME, subject, '', true] as [string, string, string, boolean]),
    [CLUSTER, subject, '', true],
    ...otherNamespaces.map((n) => [OTHER, subject, n, true] as [string, string, string, boolean]),
  ];
}

test('the audit of the example platform: only the two cluster-rule tenants reach outside, and every reach is accepted', () => {
  const result = TenancyAudit.ofConstruct(platform());
  // both cluster-rule tenants read every Secret cluster-wide: they reach every other tenant's namespace (its installer token)
  const namespaces = result.tenants.map((t) => t.namespace);
  const others = (own: string) => namespaces.filter((n) => n !== own).sort();
  expect(namespaces).toEqual(['team-data', 'team-observability', 'team-databases', 'team-messaging', 'team-integration', 'data-analytics', 'data-warehouse', 'obs-payments', 'obs-search']);
  const expected: Record<string, Array<[string, string, string, boolean]>> = {
    'team-observability': [
      ...clusterWideReader('ServiceAccount team-observability/team-observability', others('team-observability'), 1),
      ...clusterWideReader('ServiceAccount team-observability/grafana-operator-controller-manager', others('team-observability'), 2),
      [ASSUME, 'ServiceAccount team-observability/prometheus-operator', '', true],
    ],
    'team-messaging': [
      ...clusterWideReader('ServiceAccount team-messaging/team-messaging', others('team-messaging'), 1),
      ...clusterWideReader('ServiceAccount team-messaging/rabbitmq-cluster-operator', others('team-messaging'), 2),
    ],
  };
  expect(result.tenants.map((t) => [t.namespace, t.findings.map((f) => [f.code, f.subject, f.namespace, f.accepted])]))
    .toEqual(namespaces.map((n) => [n, expected[n] ?? []]));
  expect(result.tenants[1].subjects).toEqual([
    'ServiceAccount team-observability/team-observability',
    'ServiceAccount team-observability/default', // prometheus 0.56.3 uses the deprecated `serviceAccount` alias, OLM reads `default`
    'ServiceAccount team-observability/grafana-operator-controller-manager',
    'ServiceAccount team-observability/prometheus-k8s',
    'ServiceAccount team-observability/prometheus-operator',
    'Group team-observability-sre',
  ]);
  const prometheus = result.tenants[1].findings[result.tenants[1].findings.length - 1];
  expect(prometheus.path.slice(3)).toEqual([
    'get secret team-observability/team-observability (token of ServiceAccount team-observability/team-observability)',
    'ServiceAccount team-observability/team-observability',
    'ClusterRole team-observability-olm-installer (cluster-wide)',
  ]);
  const grafanaToMessaging = result.tenants[1].findings.find((f) => f.code === ASSUME && f.subject.endsWith('grafana-operator-controller-manager'))!;
  expect(grafanaToMessaging.path.slice(3)).toEqual([
    'get secret team-messaging/team-messaging (token of ServiceAccount team-messaging/team-messaging)',
    'ServiceAccount team-messaging/team-messaging',
    'ClusterRole team-messaging-olm-installer, Role team-messaging-olm-installer (cluster-wide, namespace kube-system)',
  ]);
});

test('the example platform synthesizes (the accepted reaches are warnings) and the report says why each is accepted', () => {
  const app = platform();
  expect(() => app.synth()).not.toThrow();
  const report = TenancyAudit.report(TenancyAudit.ofConstruct(app));
  expect(report.split('\n').filter((l) => /^tenant /.test(l))).toEqual([
    'tenant tenant-data/Tenant (namespace team-data): no reach outside its namespaces',
    'tenant tenant-observability/Tenant (namespace team-observability): 22 finding(s), 0 not accepted',
    'tenant tenant-databases/Tenant (namespace team-databases): no reach outside its namespaces',
    'tenant tenant-messaging/Tenant (namespace team-messaging): 21 finding(s), 0 not accepted',
    'tenant tenant-integration/Tenant (namespace team-integration): no reach outside its namespaces',
    'tenant data-analytics/analytics (namespace data-analytics): no reach outside its namespaces',
    'tenant data-warehouse/warehouse (namespace data-warehouse): no reach outside its namespaces',
    'tenant observability-payments/payments (namespace obs-payments): no reach outside its namespaces',
    'tenant observability-search/search (namespace obs-search): no reach outside its namespaces',
  ]);
  expect(report).toContain('    accepted: grafana-operator cluster-wide Secret read and operators sharing the namespace with the installer (PLAT-142)\n');
});
