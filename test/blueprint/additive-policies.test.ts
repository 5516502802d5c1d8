/**
 * Issue 37, class 4: policy objects whose effect is a union (src/audit/mechanisms/additive-policies.ts). One more
 * NetworkPolicy (CiliumNetworkPolicy, Calico NetworkPolicy) beside the baseline's default deny undoes it, and
 * protectManagedObjects guards only UPDATE and DELETE of the baseline's own objects: the baseline names every tenant
 * identity that may create one (TenantCanRemoveBaseline, OLMT-043), protected or not. Kinds whose effect is an
 * intersection (ResourceQuota, LimitRange) only restrict: creating one is not named.
 */
import { Chart, Testing } from 'cdk8s';
import { ADDITIVE_POLICY_KINDS } from '../../src/audit/mechanisms/additive-policies';
import { TenantBaseline } from '../../src/blueprint';
import { ScopedOperatorTenant } from '../../src/tenant';

function findings(installerRules: any[], options: { protectManagedObjects?: boolean; cluster?: boolean } = {}): string[] {
  const app = Testing.app();
  const chart = new Chart(app, 'c');
  const tenant = new ScopedOperatorTenant(chart, 'T', {
    namespaceName: 'team-a',
    installerRules: options.cluster ? [] : installerRules,
    ...(options.cluster ? { clusterInstallerRules: installerRules } : {}),
  });
  new TenantBaseline(chart, 'Baseline', { tenant, protectManagedObjects: options.protectManagedObjects === true });
  return chart.node.findAll().flatMap((c) => c.node.validate()).filter((e) => e.includes('TenantCanRemoveBaseline'));
}

describe.each(ADDITIVE_POLICY_KINDS.map((k) => [k.kind, k] as const))('%s', (_kind, k) => {
  const create = { apiGroups: [k.group], resources: [k.resource], verbs: ['create'] };
  test.each([
    ['create', create],
    ['* verbs', { ...create, verbs: ['*'] }],
    ['* groups', { ...create, apiGroups: ['*'] }],
    ['* resources of the group', { ...create, resources: ['*'] }],
  ])('%s in the tenant namespace: named when the kind adds up, protected or not', (_why, rule) => {
    const named = (protectManagedObjects: boolean) => findings([rule], { protectManagedObjects }).some((f) => f.includes(`create ${k.resource}`) && f.includes('policies add up'));
    expect([named(false), named(true)]).toEqual([k.union, k.union]);
  });
  test('refused: by name (a create has no name), or reading', () => {
    expect(findings([{ ...create, resourceNames: ['allow-all'] }, { ...create, verbs: ['get', 'list', 'watch'] }]).some((f) => f.includes('policies add up'))).toBe(false);
  });
});

test('cluster-wide rules reach the tenant namespace too (NETWORK_POLICY_WRITES is also refused there: the baseline names it besides)', () => {
  const got = findings([{ apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['create'] }], { cluster: true });
  expect(got.some((f) => f.includes('create networkpolicies (policies add up'))).toBe(true);
});
