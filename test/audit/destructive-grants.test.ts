/**
 * Issue 37, class 5: destructive cluster-wide rights (SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES): deleting
 * ClusterRoleBindings, ClusterRoles or Namespaces, writing CRDs or APIServices, cluster-wide, break or take over what
 * every tenant shares. Each request with its variants; refused in v0 installer rules unless accepted by name (strimzi
 * 1.2.0's derived installer deletes every ClusterRoleBinding), named by the OLM v1 preview (OLMT-044).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { bundleWith, previewOf } from './mechanism-worlds';
import { InstallerRuleChecks, SensitiveGrant } from '../../src/audit/installer-rule-checks';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CatalogSourceReference } from '../../src/catalog';
import { OlmV1PreviewFindingCode } from '../../src/olmv1/olm-v1-permission-preview';
import { GlobalOperatorPermissionPreview, GlobalOperatorPreviewFindingKind } from '../../src/platform/global-operator-permission-preview';
import { ScopedOperatorTenant } from '../../src/tenant';

const held = (rules: any[], clusterScoped = true) => InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped }).map((g) => g.grant)
  .filter((g) => g === SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES).length > 0;

describe.each([
  ['rbac.authorization.k8s.io', 'clusterrolebindings', ['delete', 'deletecollection']],
  ['rbac.authorization.k8s.io', 'clusterroles', ['delete', 'deletecollection']],
  ['', 'namespaces', ['delete', 'deletecollection']],
  ['apiextensions.k8s.io', 'customresourcedefinitions', ['update', 'patch', 'delete', 'deletecollection']],
  ['apiregistration.k8s.io', 'apiservices', ['update', 'patch', 'delete', 'deletecollection']],
])('%s %s', (group, resource, verbs) => {
  test.each(verbs)('%s, and its variants: * verbs, * groups, * resources of the group, a named object', (verb) => {
    const rule = { apiGroups: [group], resources: [resource], verbs: [verb] };
    expect([held([rule]), held([{ ...rule, verbs: ['*'] }]), held([{ ...rule, apiGroups: ['*'] }]), held([{ ...rule, resources: ['*'] }])]).toEqual([true, true, true, true]);
    // deletecollection carries no name; a named delete or patch still destroys that object
    expect(held([{ ...rule, resourceNames: ['x'] }])).toBe(verb !== 'deletecollection');
    // a namespaced Role reaches no cluster-scoped object (its own Namespace is NAMESPACE_WRITES)
    expect(held([rule], false)).toBe(false);
  });
});

test('the harmless neighbours: creating and reading these kinds, patching ClusterRoles (every clusterPermissions installer patches OLM\'s generated ones), updating bindings (bind is checked)', () => {
  expect(held([
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles', 'clusterrolebindings'], verbs: ['create', 'get', 'list', 'watch', 'patch', 'update'] },
    { apiGroups: [''], resources: ['namespaces'], verbs: ['create', 'get'] },
    { apiGroups: ['apiextensions.k8s.io', 'apiregistration.k8s.io'], resources: ['customresourcedefinitions', 'apiservices'], verbs: ['get', 'list', 'watch'] },
  ])).toBe(false);
});

test('an installer: its CRD and APIService writes stay OLMT-001/002 (one error each, not also the sensitive grant)', () => {
  const errors = InstallerRuleChecks.errors([{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['delete'] }], { clusterScoped: true });
  expect(errors.map((e) => e.code)).toEqual(['InstallerCanWriteCrds']);
});

describe('real bundles', () => {
  const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
  const STRIMZI = OperatorBundle.fromDirectory(path.join(BUNDLES, 'strimzi-kafka-operator', '1.2.0'));
  const synth = (accept: boolean) => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'strimzi manages its ClusterRoleBindings (PLAT-7)',
      ...(accept ? { acceptedSensitiveGrants: [{ grant: SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES, reason: 'strimzi deletes the ClusterRoleBindings of its Kafka clusters (PLAT-7)' }] } : {}),
    });
    tenant.subscribe({ packageName: 'strimzi-kafka-operator', catalog: CatalogSourceReference.fromName('curated', 'olm'), bundle: STRIMZI });
    return { chart, tenant };
  };

  test('strimzi 1.2.0: its derived installer deletes every ClusterRoleBinding: refused (OLMT-003); accepted by name, held and named on the ClusterRole', () => {
    const refused = synth(false).chart.node.findAll().flatMap((c) => c.node.validate()).filter((e) => e.includes('SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES'));
    expect(refused.map((e) => [e.includes('"resources\\":[\\"clusterrolebindings\\"]') || e.includes('clusterrolebindings'), e.endsWith('(InstallerSensitiveGrant, OLMT-003)')])).toEqual([[true, true]]);
    const { chart, tenant } = synth(true);
    expect(chart.node.findAll().flatMap((c) => c.node.validate()).filter((e) => e.includes('DESTRUCTIVE_CLUSTER_WRITES'))).toEqual([]);
    expect(tenant.sensitiveGrants.map((g) => [g.grant, g.namespace])).toEqual([[SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES, '']]);
  });

  test.each([
    // (the OLM v1 renderer takes AllNamespaces bundles only: forklift-operator and etcd are OwnNamespace)
    ['strimzi-kafka-operator', '1.2.0', true], ['keda', '2.7.1', true], ['jaeger', '1.65.0', true], ['cert-manager', '1.16.5', true],
    ['grafana-operator', '5.24.0', false], ['rabbitmq-cluster-operator', '2.22.3', false], ['opentelemetry-operator', '0.158.0', false],
  ])('%s %s in the OLM v1 preview: DESTRUCTIVE_CLUSTER_WRITES named (OLMT-044): %s', (name, version, named) => {
    const p = previewOf(OperatorBundle.fromDirectory(path.join(BUNDLES, name, version)));
    const grants = p.findings.filter((f) => f.code === OlmV1PreviewFindingCode.SENSITIVE_GRANT).map((f) => f.grant);
    const unbounded = p.findings.some((f) => f.code === OlmV1PreviewFindingCode.UNBOUNDED);
    // an unbounded subject is named as such, its grants not listed
    expect(grants.includes(SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES) || (named && unbounded)).toBe(named);
  });

  test('strimzi 1.2.0 installed by the platform for all namespaces: the global-install preview names it too', () => {
    const p = GlobalOperatorPermissionPreview.of({ namespace: 'platform-operators', operatorGroupName: 'global', bundle: STRIMZI });
    expect(p.findings.filter((f) => f.grant === SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES).map((f) => [f.kind, f.subject]))
      .toEqual([[GlobalOperatorPreviewFindingKind.SENSITIVE_GRANT, 'ServiceAccount platform-operators/strimzi-cluster-operator']]);
  });

  test('a small bundle with only delete on clusterrolebindings: that finding alone', () => {
    const p = previewOf(bundleWith('op', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['delete'] }]));
    expect(p.findings.map((f) => [f.code, f.grant])).toEqual([[OlmV1PreviewFindingCode.SENSITIVE_GRANT, SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES]]);
  });
});
