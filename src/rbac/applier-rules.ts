/**
 * What a GitOps identity needs to apply a folder of objects (Flux's kustomize-controller or Argo CD impersonating
 * it), derived from the objects, and nothing more. Pure: no construct dependency. Internal (not re-exported): the
 * constructs that make the identities (`GitOpsApplier`) and the tests use it.
 *
 * Per namespace (and cluster-wide for cluster-scoped objects), for each resource of the folder:
 *
 * - `create`: server-side apply of a new object is a `patch` that creates, which the API server authorizes as
 *   `create` too (k8s.io/apiserver `pkg/endpoints/handlers/patch.go`, `withAuthorization` on the create path); a new
 *   name cannot be known in advance, so `create` has no `resourceNames` (the API server never matches them on
 *   create);
 * - `patch`, `update` on the folder's names only: applying changes only the folder's objects, never another object of
 *   the same kind in the namespace (the operator's, OLM's);
 * - `get`, `list`, `watch`, `delete` without names: pruning deletes what left the folder (its name is no longer
 *   here), and Flux's health checks list each kind in its namespaces (its caching status reader); the same for the
 *   kinds the library writes into tenant folders (`PRUNABLE`: Subscriptions, access Roles and RoleBindings, ...), so
 *   that removing the last object of a kind can still be pruned. Secrets are never listed (a list returns their data): a folder applied by a tenant identity holds none
 *   (the layout gives them to the platform's folder), and a Secret here gets `get` by name only.
 *
 * Roles: creating a Role (or changing its rules) is allowed only to an identity that holds every rule it grants, or
 * has `escalate` (k8s `pkg/registry/rbac/role/policybased/storage.go`, `ConfirmNoEscalation`); so the identity holds
 * the union of the folder's Roles' rules in their namespace, and never `escalate`. RoleBindings: binding a role is
 * allowed to an identity that holds every rule of the role, or has `bind` on it (`BindingAuthorized`, checked in the
 * binding's namespace: `pkg/registry/rbac/rolebinding/policybased/storage.go`); a Role of the folder is held already,
 * every other role (a ClusterRole such as OLM's `olm.og.<group>.<level>-<hash>`, a Role not in the folder) gets `bind`
 * by name in that namespace, never on all roles.
 */
import { PolicyRule } from './policy-rule';
import { RbacRules } from './rbac-rules';

/** One object of a folder, as the derivation reads it. */
export interface AppliedObjectFacts {
  readonly apiVersion: string;
  readonly kind: string;
  /** Its namespace; undefined for a cluster-scoped object. */
  readonly namespace?: string;
  readonly name: string;
  /**
   * The resource (plural) of its kind, when known (a CRD's `spec.names.plural`).
   * @default - `ApplierRules.resourceOf(kind)`
   */
  readonly resource?: string;
  /** A Role's rules (what the identity must hold to create it). */
  readonly rules?: PolicyRule[];
  /** A RoleBinding's `roleRef`. */
  readonly roleRef?: { readonly kind: string; readonly name: string };
}

/** The rules an identity needs to apply a folder. */
export interface ApplierGrants {
  /** Per namespace (sorted), the rules of a Role in it. */
  readonly namespaced: Array<{ readonly namespace: string; readonly rules: PolicyRule[] }>;
  /** The rules of a ClusterRole (cluster-scoped objects of the folder); empty when there are none. */
  readonly cluster: PolicyRule[];
}

const RBAC = 'rbac.authorization.k8s.io';

/**
 * The resources the library writes into tenant folders: their `get`, `list`, `watch` and `delete` stay even when the
 * folder holds none of them any more, so that the GitOps tool can prune the last one.
 */
export const PRUNABLE: ReadonlyArray<{ readonly apiGroup: string; readonly resource: string }> = [
  { apiGroup: '', resource: 'configmaps' },
  { apiGroup: '', resource: 'serviceaccounts' },
  { apiGroup: 'operators.coreos.com', resource: 'subscriptions' },
  { apiGroup: RBAC, resource: 'rolebindings' },
  { apiGroup: RBAC, resource: 'roles' },
];

/** k8s.io/apimachinery `meta.unpluralizedSuffixes`. */
const UNPLURALIZED_SUFFIXES = ['endpoints'];

export class ApplierRules {
  /**
   * The resource of a kind as Kubernetes guesses it when no discovery says otherwise: k8s.io/apimachinery
   * `pkg/api/meta/restmapper.go` `UnsafeGuessKindToResource` (lower case; `endpoints` kept; `s` -> `ses`, `y` -> `ies`,
   * else `+s`). The built-in kinds the library writes all follow it; a CRD's own plural is better when known.
   */
  public static resourceOf(kind: string): string {
    const singular = kind.toLowerCase();
    if (singular === '') return singular;
    if (UNPLURALIZED_SUFFIXES.some((s) => singular.endsWith(s))) return singular;
    if (singular.endsWith('s')) return `${singular}es`;
    if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
    return `${singular}s`;
  }

  /**
   * The rules to apply `objects` (see the module comment). `prunable`: also `get`, `list`, `watch` and `delete` on
   * `PRUNABLE` in every namespace of `namespaces` (the folder's namespaces, even those without objects yet).
   */
  public static derive(objects: AppliedObjectFacts[], namespaces: string[] = [], prunable: boolean = true): ApplierGrants {
    type Resources = Map<string, { group: string; resource: string; names: Set<string> }>;
    type Scope = { resources: Resources; held: PolicyRule[]; bind: Map<string, Set<string>> };
    const byScope = new Map<string, Scope>();
    const scope = (ns: string) => {
      let s = byScope.get(ns);
      if (!s) byScope.set(ns, s = { resources: new Map(), held: [], bind: new Map() });
      return s;
    };
    for (const ns of namespaces) scope(ns);
    for (const o of objects) {
      const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
      const resource = o.resource ?? ApplierRules.resourceOf(o.kind);
      const s = scope(o.namespace ?? '');
      const key = `${group}/${resource}`;
      let r = s.resources.get(key);
      if (!r) s.resources.set(key, r = { group, resource, names: new Set() });
      r.names.add(o.name);
      if (o.namespace === undefined) continue;
      if (group === RBAC && o.kind === 'Role') s.held.push(...(o.rules ?? []));
      if (group === RBAC && o.kind === 'RoleBinding' && o.roleRef) {
        const roleResource = o.roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
        let names = s.bind.get(roleResource);
        if (!names) s.bind.set(roleResource, names = new Set());
        names.add(o.roleRef.name);
      }
    }
    const namespaced: Array<{ namespace: string; rules: PolicyRule[] }> = [];
    let cluster: PolicyRule[] = [];
    for (const [ns, s] of [...byScope].sort(([a], [b]) => compare(a, b))) {
      const rules: PolicyRule[] = [];
      const resources = [...s.resources.values()];
      const listed = new Map<string, Set<string>>();
      const addListed = (group: string, resource: string) => {
        let set = listed.get(group);
        if (!set) listed.set(group, set = new Set());
        set.add(resource);
      };
      for (const r of resources) {
        rules.push({ apiGroups: [r.group], resources: [r.resource], verbs: ['create'] });
        rules.push({ apiGroups: [r.group], resources: [r.resource], resourceNames: [...r.names].sort(compare), verbs: ['get', 'patch', 'update'] });
        if (r.group === '' && r.resource === 'secrets') continue; // never listed: see the module comment
        addListed(r.group, r.resource);
      }
      if (prunable && ns !== '') for (const p of PRUNABLE) addListed(p.apiGroup, p.resource);
      for (const [group, set] of [...listed].sort(([a], [b]) => compare(a, b))) {
        rules.push({ apiGroups: [group], resources: [...set].sort(compare), verbs: ['delete', 'get', 'list', 'watch'] });
      }
      // the Roles' rules, held so that the identity may create them (no escalate)
      rules.push(...s.held);
      // bind on the other roles its RoleBindings name, by name
      for (const [resource, names] of s.bind) {
        const own = resource === 'roles' ? new Set(resources.some((r) => r.group === RBAC && r.resource === 'roles') ? namesOf(objects, ns, 'Role') : []) : new Set<string>();
        const others = [...names].filter((n) => !own.has(n)).sort(compare);
        if (others.length > 0) rules.push({ apiGroups: [RBAC], resources: [resource], resourceNames: others, verbs: ['bind'] });
      }
      const compacted = RbacRules.compact(rules);
      if (ns === '') cluster = compacted;
      else namespaced.push({ namespace: ns, rules: compacted });
    }
    return { namespaced, cluster };
  }

  private constructor() {}
}

function namesOf(objects: AppliedObjectFacts[], namespace: string, kind: string): string[] {
  return objects.filter((o) => o.namespace === namespace && o.kind === kind && o.apiVersion.startsWith(`${RBAC}/`)).map((o) => o.name);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
