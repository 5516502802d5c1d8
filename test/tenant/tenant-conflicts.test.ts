import fc from 'fast-check';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { DiagnosticDetails } from '../../src/core/diagnostic-details';
import { TenantConflicts, TenantFacts } from '../../src/tenant/checks/tenant-conflicts';

/**
 * The pairwise definition the indexed `TenantConflicts.find` must reproduce exactly (the implementation before
 * the indexes; OLM `pkg/controller/registry/resolver/groups.go` APIIntersectionReconciler for the API rule).
 */
function pairwise(tenants: TenantFacts[]): Map<TenantFacts, DiagnosticDetails[]> {
  const intersects = (a: TenantFacts, b: TenantFacts) => {
    if (a.targetNamespaces.length === 0 || b.targetNamespaces.length === 0) return true;
    const set = new Set(a.targetNamespaces);
    return b.targetNamespaces.some((n) => set.has(n));
  };
  const out = new Map<TenantFacts, DiagnosticDetails[]>();
  const add = (t: TenantFacts, d: DiagnosticDetails) => out.set(t, [...(out.get(t) ?? []), d]);
  const byApi = new Map<string, Array<{ tenant: TenantFacts; csv: string }>>();
  const byCrd = new Map<string, Array<{ tenant: TenantFacts; csv: string }>>();
  for (const tenant of tenants) {
    for (const b of tenant.bundles) {
      for (const api of TenantConflicts.providedApis(b)) byApi.set(api, [...(byApi.get(api) ?? []), { tenant, csv: b.name }]);
      for (const crd of new Set(b.ownedCrds.map((c) => c.name))) byCrd.set(crd, [...(byCrd.get(crd) ?? []), { tenant, csv: b.name }]);
    }
  }
  for (const [api, owners] of [...byApi].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const a of owners) {
      const rivals = owners.filter((b) => b.tenant !== a.tenant && b.tenant.namespace !== a.tenant.namespace && intersects(a.tenant, b.tenant));
      if (rivals.length === 0) continue;
      add(a.tenant, {
        code: 'InterOperatorGroupOwnerConflict',
        field: 'subscriptions',
        value: api,
        message: `${a.csv} provides API ${api}, which ${rivals.map((r) => `${r.csv} (tenant ${r.tenant.path}, namespace ${r.tenant.namespace})`).join(', ')} also provides to intersecting target namespaces; OLM fails the CSV installed second with InterOperatorGroupOwnerConflict`,
        fix: 'install the operator once and let other tenants use it, or make the target namespaces disjoint',
      });
    }
  }
  for (const [crd, owners] of [...byCrd].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const csvs = [...new Set(owners.map((o) => o.csv))].sort();
    if (csvs.length < 2) continue;
    const tenantsOfCrd = [...new Set(owners.map((o) => o.tenant))];
    if (tenantsOfCrd.length < 2) continue;
    for (const t of tenantsOfCrd) {
      const mine = owners.filter((o) => o.tenant === t).map((o) => o.csv);
      const others = owners.filter((o) => o.tenant !== t && !mine.includes(o.csv));
      if (others.length === 0) continue;
      add(t, {
        code: 'CrdVersionConflict',
        field: 'subscriptions',
        value: crd,
        message: `CRD ${crd} is owned by ${[...new Set(mine)].join(', ')} here and by ${[...new Set(others.map((o) => `${o.csv} (tenant ${o.tenant.path})`))].join(', ')}; CRDs are cluster-wide, so the last install replaces the CRD for every tenant`,
        fix: 'subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants',
      });
    }
  }
  return out;
}

/** Small synthetic bundles: only what the conflict checks read (name, owned CRDs and API services). */
function bundle(name: string, crds: string[], apiServices: string[] = []): OperatorBundle {
  return {
    name,
    ownedCrds: crds.map((c) => ({ name: `${c.toLowerCase()}s.example.com`, kind: c, version: 'v1' })),
    ownedApiServices: apiServices.map((a) => ({ kind: a, version: 'v1', group: 'api.example.com' })),
  } as unknown as OperatorBundle;
}

const BUNDLES = [
  bundle('etcd.v1', ['EtcdCluster', 'EtcdBackup']),
  bundle('etcd.v2', ['EtcdCluster', 'EtcdRestore']),
  bundle('prom.v1', ['Prometheus', 'Alertmanager']),
  bundle('prom.v2', ['Prometheus']),
  bundle('metrics.v1', [], ['Metric']),
  bundle('both.v1', ['Prometheus'], ['Metric']),
];
const NAMESPACES = ['a', 'b', 'c', 'd', 'e'];

const tenantArb = fc.record({
  namespace: fc.constantFrom(...NAMESPACES),
  targets: fc.oneof(
    fc.constant<string[] | undefined>(undefined),
    fc.constant<string[] | undefined>([]),
    fc.uniqueArray(fc.constantFrom(...NAMESPACES), { maxLength: 3 }),
  ),
  bundles: fc.uniqueArray(fc.integer({ min: 0, max: BUNDLES.length - 1 }), { maxLength: 3 }),
});

function facts(specs: Array<{ namespace: string; targets: string[] | undefined; bundles: number[] }>): TenantFacts[] {
  return specs.map((s, i) => ({
    path: `T${i}`,
    namespace: s.namespace,
    // undefined: own namespace; []: AllNamespaces
    targetNamespaces: s.targets === undefined ? [s.namespace] : s.targets,
    bundles: s.bundles.map((b) => BUNDLES[b]),
  }));
}

describe('TenantConflicts.find (indexed) equals the pairwise definition', () => {
  test('random platforms (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(tenantArb, { maxLength: 12 }), (specs) => {
        const tenants = facts(specs);
        const got = TenantConflicts.find(tenants);
        const want = pairwise(tenants);
        expect([...got.entries()].map(([t, d]) => [t.path, d])).toEqual([...want.entries()].map(([t, d]) => [t.path, d]));
      }),
      { seed: 10, numRuns: 400 },
    );
  });

  test('intersecting targets and the same API: both get the API error; a third tenant elsewhere only the CRD version conflict', () => {
    const tenants = facts([
      { namespace: 'a', targets: ['a', 'c'], bundles: [2] },
      { namespace: 'b', targets: ['c'], bundles: [3] },
      { namespace: 'd', targets: undefined, bundles: [2] },
    ]);
    const got = TenantConflicts.find(tenants);
    expect([...got.keys()].map((t) => t.path)).toEqual(['T0', 'T1', 'T2']);
    expect(got.get(tenants[2])!.map((d) => `${d.code} ${d.value}`)).toEqual(['CrdVersionConflict prometheuss.example.com']);
    expect(got.get(tenants[1])!.map((d) => `${d.code} ${d.value}`)).toEqual([
      'InterOperatorGroupOwnerConflict Prometheus.v1.example.com',
      'CrdVersionConflict prometheuss.example.com',
    ]);
    expect(got.get(tenants[1])![0].message).toEqual(
      'prom.v2 provides API Prometheus.v1.example.com, which prom.v1 (tenant T0, namespace a) also provides to intersecting target namespaces; OLM fails the CSV installed second with InterOperatorGroupOwnerConflict',
    );
  });

  test('5,000 tenants on the same two bundles, each in its own namespace: no conflicts', () => {
    const tenants = Array.from({ length: 5000 }, (_, i) => ({ path: `T${i}`, namespace: `team-${i}`, targetNamespaces: [`team-${i}`], bundles: [BUNDLES[0], BUNDLES[2]] }));
    expect(TenantConflicts.find(tenants).size).toEqual(0);
  });
});
