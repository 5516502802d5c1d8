// Conflicts between tenants that OLM (or the cluster) only finds at install time. Internal: not re-exported.
import { OperatorBundle } from '../../bundle/operator-bundle';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { serviceAccountReach, SubjectMatcher } from '../../rbac/subject-matcher';
import { PeopleGrantFacts } from '../rbac/people-access';

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
  /** Its installer ServiceAccount (named in messages). */
  readonly installerServiceAccountName?: string;
  /** The subjects it grants access to. */
  readonly people?: PeopleGrantFacts[];
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

/** One bundle installed by one tenant, indexed by API or CRD (one object for all of the bundle's APIs). */
interface Owner {
  readonly tenant: TenantFacts;
  readonly csv: string;
  /** Position among all owners: within an API, rivals are listed in this order (the order they were indexed in). */
  readonly order: number;
}

/**
 * The owners of one API, indexed by what decides whether two OperatorGroups' target namespaces intersect:
 * AllNamespaces owners intersect everybody, the others only owners that share a target namespace. (A namespace
 * with one owner, the usual case, holds the owner itself rather than a list: the index lives through the pass.)
 */
class ApiOwners {
  public readonly owners: Owner[] = [];
  private readonly allNamespaces: Owner[] = [];
  private readonly byTarget = new Map<string, Owner | Owner[]>();

  public add(o: Owner): void {
    this.owners.push(o);
    const tenant = o.tenant;
    if (tenant.targetNamespaces.length === 0) {
      this.allNamespaces.push(o);
      return;
    }
    const targets = tenant.targetNamespaces.length === 1 ? tenant.targetNamespaces : new Set(tenant.targetNamespaces);
    for (const ns of targets) {
      const found = this.byTarget.get(ns);
      if (found === undefined) this.byTarget.set(ns, o);
      else if (Array.isArray(found)) found.push(o);
      else this.byTarget.set(ns, [found, o]);
    }
  }

  /**
   * The owners of other tenants in other namespaces whose targets intersect `a`'s (either is AllNamespaces, or
   * they share a target namespace), in index order, without scanning the owners that share no namespace.
   */
  public rivals(a: Owner): Owner[] {
    let candidates: Owner[];
    if (a.tenant.targetNamespaces.length === 0) {
      candidates = this.owners;
    } else if (this.allNamespaces.length === 0 && a.tenant.targetNamespaces.length === 1) {
      // the usual case (one target namespace, no AllNamespaces owner): that namespace's owners, already in order
      const found = this.byTarget.get(a.tenant.targetNamespaces[0]);
      if (found === undefined || !Array.isArray(found)) return [];
      candidates = found;
    } else {
      const found = new Set<Owner>(this.allNamespaces);
      for (const ns of a.tenant.targetNamespaces) {
        const here = this.byTarget.get(ns);
        if (here === undefined) continue;
        if (Array.isArray(here)) for (const o of here) found.add(o);
        else found.add(here);
      }
      candidates = [...found].sort((x, y) => x.order - y.order);
    }
    return candidates.filter((b) => b.tenant !== a.tenant && b.tenant.namespace !== a.tenant.namespace);
  }
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Finds, for every tenant, its conflicts with the others. Indexed by API and CRD, and within an API by target
 * namespace, so the cost grows with the number of tenants that actually share an API and a namespace, never with
 * the square of all tenants.
 *
 * - `InterOperatorGroupOwnerConflict`: two OperatorGroups whose target namespaces intersect provide the same API.
 *   OLM's `APIIntersectionReconciler` (`pkg/controller/registry/resolver/groups.go`) returns `APIConflict` and the
 *   CSV installed second fails with reason InterOperatorGroupOwnerConflict (`pkg/controller/operators/olm/operator.go`).
 *   Which one is second depends on timing, so both tenants get the error.
 * - `CrdVersionConflict`: tenants install different CSVs (versions) that own the same CRD. CRDs are cluster-wide:
 *   whichever installs last replaces the CRD for everyone, which can break the other tenant's operator.
 * - `CrossTenantPeopleGrant`: a people grant applies to another tenant's ServiceAccounts (its installer, its
 *   operators), as the RBAC authorizer matches subjects (`SubjectMatcher`): a ServiceAccount subject, a User named
 *   `system:serviceaccount:<ns>:<name>`, the group `system:serviceaccounts:<ns>`; or to every ServiceAccount of the
 *   cluster (`system:serviceaccounts`, `system:authenticated`), other tenants' included; or to every unauthenticated
 *   request (`system:unauthenticated`, `system:anonymous`), anyone who reaches the API server included.
 */
function tenantConflicts(tenants: TenantFacts[]): Map<TenantFacts, DiagnosticDetails[]> {
  const out = new Map<TenantFacts, DiagnosticDetails[]>();
  const add = (t: TenantFacts, d: DiagnosticDetails) => {
    const list = out.get(t);
    if (list) list.push(d);
    else out.set(t, [d]);
  };

  const byApi = new Map<string, ApiOwners>();
  const byCrd = new Map<string, Array<{ tenant: TenantFacts; csv: string }>>();
  const apisOf = new Map<OperatorBundle, string[]>();
  const crdsOf = new Map<OperatorBundle, Set<string>>();
  let order = 0;
  for (const tenant of tenants) {
    for (const bundle of tenant.bundles) {
      let apis = apisOf.get(bundle);
      if (!apis) apisOf.set(bundle, apis = providedApis(bundle));
      let crds = crdsOf.get(bundle);
      if (!crds) crdsOf.set(bundle, crds = new Set(bundle.ownedCrds.map((c) => c.name)));
      const owner: Owner = { tenant, csv: bundle.name, order: order++ };
      for (const api of apis) {
        let owners = byApi.get(api);
        if (!owners) byApi.set(api, owners = new ApiOwners());
        owners.add(owner);
      }
      for (const crd of crds) {
        const owners = byCrd.get(crd);
        if (owners) owners.push({ tenant, csv: bundle.name });
        else byCrd.set(crd, [{ tenant, csv: bundle.name }]);
      }
    }
  }

  for (const [api, index] of [...byApi].sort(byKey)) {
    for (const a of index.owners) {
      const rivals = index.rivals(a);
      if (rivals.length === 0) continue;
      add(a.tenant, {
        code: CODE.InterOperatorGroupOwnerConflict,
        field: 'subscriptions',
        value: api,
        message: `${a.csv} provides API ${api}, which ${rivals.map((r) => `${r.csv} (tenant ${r.tenant.path}, namespace ${r.tenant.namespace})`).join(', ')} also provides to intersecting target namespaces; OLM fails the CSV installed second with InterOperatorGroupOwnerConflict`,
        fix: 'install the operator once and let other tenants use it, or make the target namespaces disjoint',
      });
    }
  }

  peopleGrantConflicts(tenants, add);

  for (const [crd, owners] of [...byCrd].sort(byKey)) {
    const csvs = new Set(owners.map((o) => o.csv));
    if (csvs.size < 2) continue;
    // Per tenant, its CSVs in owner order; the others are the owners of other tenants with a CSV it does not own.
    const mineOf = new Map<TenantFacts, string[]>();
    for (const o of owners) {
      const list = mineOf.get(o.tenant);
      if (list) list.push(o.csv);
      else mineOf.set(o.tenant, [o.csv]);
    }
    if (mineOf.size < 2) continue;
    for (const [t, mine] of mineOf) {
      const others = owners.filter((o) => o.tenant !== t && !mine.includes(o.csv));
      if (others.length === 0) continue;
      add(t, {
        code: CODE.CrdVersionConflict,
        field: 'subscriptions',
        value: crd,
        message: `CRD ${crd} is owned by ${[...new Set(mine)].join(', ')} here and by ${[...new Set(others.map((o) => `${o.csv} (tenant ${o.tenant.path})`))].join(', ')}; CRDs are cluster-wide, so the last install replaces the CRD for every tenant`,
        fix: 'subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants',
      });
    }
  }
  return out;
}

/** A subject every unauthenticated request matches (exact names: Kubernetes compares them case-sensitively). */
function isAnonymous(p: { kind: string; name: string }): boolean {
  return (p.kind === 'Group' && p.name === SubjectMatcher.ALL_UNAUTHENTICATED_GROUP) || (p.kind === 'User' && p.name === SubjectMatcher.ANONYMOUS_USER);
}

/** `CrossTenantPeopleGrant` (see `tenantConflicts`), one finding per tenant, method and subject. */
function peopleGrantConflicts(tenants: TenantFacts[], add: (t: TenantFacts, d: DiagnosticDetails) => void): void {
  if (!tenants.some((t) => (t.people ?? []).length > 0)) return;
  const byNamespace = new Map<string, TenantFacts[]>();
  for (const t of tenants) byNamespace.set(t.namespace, [...(byNamespace.get(t.namespace) ?? []), t]);
  for (const t of tenants) {
    const seen = new Set<string>();
    for (const p of t.people ?? []) {
      let written: string;
      let message: string;
      if (isAnonymous(p)) {
        written = `${p.kind} ${p.name}`;
        message = `${written} applies to every unauthenticated request: the API server gives a request without credentials the user `
          + `${SubjectMatcher.ANONYMOUS_USER} and the group ${SubjectMatcher.ALL_UNAUTHENTICATED_GROUP}, and serves it unless started with --anonymous-auth=false `
          + '(k8s.io/apiserver/pkg/authentication/request/anonymous), so anyone who reaches the API server, other tenants\' pods included, would hold this tenant\'s access';
      } else {
        const reach = serviceAccountReach(p, p.bindingNamespace);
        if (reach === undefined) continue;
        written = `${p.kind} ${p.kind === 'ServiceAccount' ? `${p.namespace ? p.namespace : p.bindingNamespace}/` : ''}${p.name}`;
        let whose: string;
        if (reach.allNamespaces) {
          whose = `every ServiceAccount of the cluster, other tenants' installers and operators included${p.name === SubjectMatcher.ALL_AUTHENTICATED_GROUP ? ' (and every authenticated user)' : ''}`;
        } else {
          const owners = (byNamespace.get(reach.namespace!) ?? []).filter((o) => o !== t && o.namespace !== t.namespace);
          if (owners.length === 0) continue;
          const installer = owners.find((o) => o.installerServiceAccountName !== undefined && o.installerServiceAccountName === reach.name);
          const account = reach.name === undefined
            ? `every ServiceAccount of namespace '${reach.namespace}'`
            : `ServiceAccount ${reach.namespace}/${reach.name}${installer ? ' (its installer)' : ''}`;
          whose = `${account}, which belongs to tenant ${owners.map((o) => o.path).join(', ')}`;
        }
        message = `${written} applies to ${whose} (Kubernetes matches RBAC subjects by user name and group: rule.go appliesToUser), `
          + 'so another tenant\'s identities would hold this tenant\'s access';
      }
      const key = JSON.stringify([p.field, written]);
      if (seen.has(key)) continue;
      seen.add(key);
      add(t, {
        code: CODE.CrossTenantPeopleGrant,
        field: p.field,
        value: written,
        message,
        fix: 'grant access to people (Users and Groups that no ServiceAccount is in) only; give another tenant\'s operators access in their own tenant',
      });
    }
  }
}
