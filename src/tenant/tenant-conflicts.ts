// Conflicts between tenants that OLM (or the cluster) only finds at install time. Internal: not re-exported.
import { OperatorBundle } from '../bundle/operator-bundle';
import { DiagnosticDetails } from '../core/diagnostics';

/** What the cross-tenant checks need of one tenant. */
export interface TenantFacts {
  /** Construct path, for messages. */
  readonly path: string;
  /** The OperatorGroup namespace. */
  readonly namespace: string;
  /** Target namespaces, empty for AllNamespaces. */
  readonly targetNamespaces: string[];
  /** The bundles its Subscriptions install. */
  readonly bundles: OperatorBundle[];
}

/** Cross-tenant checks, as pure logic over plain tenant facts. */
export class TenantConflicts {
  /**
   * The APIs a bundle provides, keyed like OLM's `olm.providedAPIs` annotation: `<Kind>.<version>.<group>`
   * (`pkg/controller/registry/resolver/cache/api.go`, `APISet`).
   */
  public static providedApis(bundle: OperatorBundle): string[] {
    return providedApis(bundle);
  }

  /**
   * Finds, for every tenant, its conflicts with the others (see `tenantConflicts` below for what is checked).
   * Only the bundles installed first are compared: an `upgradeBundles` version that would later conflict is not
   * reported until it becomes the installed bundle.
   */
  public static find(tenants: TenantFacts[]): Map<TenantFacts, DiagnosticDetails[]> {
    return tenantConflicts(tenants);
  }

  private constructor() {}
}

function providedApis(bundle: OperatorBundle): string[] {
  const out = new Set<string>();
  for (const crd of bundle.ownedCrds) {
    const dot = crd.name.indexOf('.');
    out.add(`${crd.kind}.${crd.version}.${dot >= 0 ? crd.name.slice(dot + 1) : ''}`);
  }
  for (const api of bundle.ownedApiServices) out.add(`${api.kind}.${api.version}.${api.group}`);
  return [...out].sort();
}

function intersects(a: TenantFacts, b: TenantFacts): boolean {
  if (a.targetNamespaces.length === 0 || b.targetNamespaces.length === 0) return true;
  const set = new Set(a.targetNamespaces);
  return b.targetNamespaces.some((n) => set.has(n));
}

/**
 * Finds, for every tenant, its conflicts with the others. Indexed by API and CRD, so the cost grows with the
 * number of tenants that share an API, not with the square of all tenants.
 *
 * - `InterOperatorGroupOwnerConflict`: two OperatorGroups whose target namespaces intersect provide the same API.
 *   OLM's `APIIntersectionReconciler` (`pkg/controller/registry/resolver/groups.go`) returns `APIConflict` and the
 *   CSV installed second fails with reason InterOperatorGroupOwnerConflict (`pkg/controller/operators/olm/operator.go`).
 *   Which one is second depends on timing, so both tenants get the error.
 * - `CrdVersionConflict`: tenants install different CSVs (versions) that own the same CRD. CRDs are cluster-wide:
 *   whichever installs last replaces the CRD for everyone, which can break the other tenant's operator.
 */
function tenantConflicts(tenants: TenantFacts[]): Map<TenantFacts, DiagnosticDetails[]> {
  const out = new Map<TenantFacts, DiagnosticDetails[]>();
  const add = (t: TenantFacts, d: DiagnosticDetails) => out.set(t, [...(out.get(t) ?? []), d]);

  const byApi = new Map<string, Array<{ tenant: TenantFacts; csv: string }>>();
  const byCrd = new Map<string, Array<{ tenant: TenantFacts; csv: string }>>();
  for (const tenant of tenants) {
    for (const bundle of tenant.bundles) {
      for (const api of providedApis(bundle)) byApi.set(api, [...(byApi.get(api) ?? []), { tenant, csv: bundle.name }]);
      for (const crd of new Set(bundle.ownedCrds.map((c) => c.name))) byCrd.set(crd, [...(byCrd.get(crd) ?? []), { tenant, csv: bundle.name }]);
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
