// Per construct tree: the tenants of an App and the indexes every tenant's App-wide checks share.
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { findDuplicateObjects, reportOnObject } from './duplicate-objects';
import { TenantConflicts, TenantFacts } from './tenant-conflicts';
import { AuditedTenant } from '../../audit/audited-tenant';
import { reportSharedRoleAggregation } from '../../audit/shared-role-aggregation';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { AppContext, AppSlot } from '../../core/app-context';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { SynthPass } from '../../core/synth-pass';
import { PeopleGrantFacts } from '../rbac/people-access';

/** What the App-wide checks need of a tenant (a `ScopedOperatorTenant`). */
export interface TreeTenant extends IConstruct {
  readonly namespaceName: string;
  readonly targetNamespaces: string[];
  readonly installerServiceAccountName: string;
  readonly installedBundles: OperatorBundle[];
  readonly tokenSecret?: k8s.KubeSecret;
  _peopleGrants(): PeopleGrantFacts[];
  auditFacts(): AuditedTenant;
}

/**
 * Per construct tree: its tenants (registered at construction) and an index of OperatorGroups by namespace.
 * Every tenant's checks need all OperatorGroups of the App; scanning the tree once per tenant made validation
 * quadratic (12 s for 1,000 tenants). The index is rebuilt by a validation on the root, which cdk8s runs first in
 * every validation pass (pre-order); outside a pass (a direct `node.validate()`) it is computed on the spot.
 */
interface TreeIndex {
  readonly tenants: TreeTenant[];
  /** `tenants`, for `tenantOf` (the tree module cannot see the tenant class). */
  readonly members: Set<IConstruct>;
  operatorGroups?: Map<string, ApiObject[]>;
  conflicts?: Map<TreeTenant, DiagnosticDetails[]>;
  /** Positions in `tenants` by tenant namespace (cross-tenant checks look tenants up here, never pairwise). */
  byNamespace?: Map<string, number[]>;
  /** ApiObjects of the App that share their identity with others (see `duplicate-objects.ts`). */
  duplicates?: Map<ApiObject, ApiObject[]>;
}
/** The App's tenants and their indexes (created, with the root validation that rebuilds them, by the first tenant). */
const TENANT_TREE = new AppSlot<TreeIndex | undefined>('tenantTree', () => undefined);

/** The App-wide view of the tenants of one construct tree. */
export class TenantTree {
  /** Registers a new tenant: the next validation pass rebuilds the indexes. */
  public static register(tenant: TreeTenant): void {
    const tree = treeOf(tenant.node.root);
    tree.tenants.push(tenant);
    tree.members.add(tenant);
    tree.operatorGroups = undefined; // a new OperatorGroup: the next pass rebuilds the index
    tree.byNamespace = undefined; // and the namespace index
    tree.duplicates = undefined;
  }

  /** The tenant that `construct` belongs to (itself or an ancestor), if any. */
  public static tenantOf(construct: IConstruct): TreeTenant | undefined {
    const members = AppContext.find(construct, TENANT_TREE)?.members;
    if (members === undefined) return undefined;
    for (let c: IConstruct | undefined = construct; c !== undefined; c = c.node.scope) {
      if (members.has(c)) return c as TreeTenant;
    }
    return undefined;
  }

  /** The tenant path of the tenant defining `obj` (for duplicate-object messages). */
  public static tenantPathOf(obj: ApiObject): string | undefined {
    return TenantTree.tenantOf(obj)?.node.path;
  }

  /** Every tenant of the tree of `scope`, in construction order. */
  public static tenants(scope: IConstruct): TreeTenant[] {
    return treeOf(scope.node.root).tenants;
  }

  /** The tenants whose namespace is one of `namespaces`, in construction order (through the tree's index). */
  public static tenantsIn(scope: IConstruct, namespaces: string[]): TreeTenant[] {
    const tree = treeOf(scope.node.root);
    const index = tree.byNamespace ?? indexTenantNamespaces(tree.tenants);
    const positions = [...new Set(namespaces)].flatMap((ns) => index.get(ns) ?? []).sort((a, b) => a - b);
    return positions.map((i) => tree.tenants[i]);
  }

  /** The OperatorGroups of the App in `namespace`. */
  public static operatorGroupsIn(scope: IConstruct, namespace: string): ApiObject[] {
    const tree = treeOf(scope.node.root);
    const index = tree.operatorGroups ?? indexOperatorGroups(scope.node.root);
    return index.get(namespace) ?? [];
  }

  /** The conflicts of `tenant` in the current validation pass (computed on the spot outside a pass). */
  public static conflictsOf(tenant: TreeTenant): DiagnosticDetails[] {
    const tree = treeOf(tenant.node.root);
    return (tree.conflicts ?? computeConflicts(tree.tenants)).get(tenant) ?? [];
  }

  /** The duplicate objects `tenant` defines, in this validation pass (computed on the spot outside a pass). */
  public static duplicatesOf(tenant: TreeTenant): Array<[ApiObject, ApiObject[]]> {
    const root = tenant.node.root;
    const duplicates = treeOf(root).duplicates ?? findDuplicateObjects(root.node.findAll());
    let byTenant = DUPLICATES_BY_TENANT_CACHE.get(duplicates);
    if (!byTenant) {
      byTenant = new Map();
      for (const obj of duplicates.keys()) {
        const owner = TenantTree.tenantOf(obj);
        if (owner) byTenant.set(owner, [...(byTenant.get(owner) ?? []), obj]);
      }
      DUPLICATES_BY_TENANT_CACHE.set(duplicates, byTenant);
    }
    return (byTenant.get(tenant) ?? []).map((obj) => [obj, duplicates.get(obj)!]);
  }
}

function treeOf(root: IConstruct): TreeIndex {
  let tree = AppContext.find(root, TENANT_TREE);
  if (!tree) {
    const created: TreeIndex = { tenants: [], members: new Set() };
    tree = created;
    AppContext.of(root).set(TENANT_TREE, created);
    root.node.addValidation({
      validate: () => {
        const all = SynthPass.findAll(root);
        created.operatorGroups = indexOperatorGroups(root, all);
        created.conflicts = computeConflicts(created.tenants);
        created.byNamespace = indexTenantNamespaces(created.tenants);
        created.duplicates = findDuplicateObjects(SynthPass.apiObjects(root));
        // objects outside tenants report their duplicates themselves (validated after the root in this pass)
        for (const obj of created.duplicates.keys()) {
          if (!TenantTree.tenantOf(obj)) reportOnObject(obj, () => created.duplicates, TenantTree.tenantPathOf);
        }
        // the App's own ClusterRoles that join view/edit/admin with sensitive rules (shared-role-aggregation.ts)
        for (const c of all) {
          if (c instanceof ApiObject && c.kind === 'ClusterRole' && !TenantTree.tenantOf(c)) reportSharedRoleAggregation(c);
        }
        return [];
      },
    });
  }
  return tree;
}

/** Cross-tenant conflicts (see `tenant-conflicts.ts`), per tenant. */
function computeConflicts(tenants: TreeTenant[]): Map<TreeTenant, DiagnosticDetails[]> {
  const facts = new Map<TenantFacts, TreeTenant>();
  for (const t of tenants) {
    facts.set({
      path: t.node.path,
      namespace: t.namespaceName,
      targetNamespaces: t.targetNamespaces,
      bundles: t.installedBundles,
      installerServiceAccountName: t.installerServiceAccountName,
      people: t._peopleGrants(),
    }, t);
  }
  const out = new Map<TreeTenant, DiagnosticDetails[]>();
  for (const [f, details] of TenantConflicts.find([...facts.keys()])) out.set(facts.get(f)!, details);
  return out;
}

function indexTenantNamespaces(tenants: TreeTenant[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  tenants.forEach((t, i) => {
    const list = index.get(t.namespaceName);
    if (list) list.push(i);
    else index.set(t.namespaceName, [i]);
  });
  return index;
}

/** Per duplicates index: its objects grouped by the tenant that defines them (computed once per index). */
const DUPLICATES_BY_TENANT_CACHE = new WeakMap<Map<ApiObject, ApiObject[]>, Map<TreeTenant, ApiObject[]>>();

function indexOperatorGroups(root: IConstruct, all: IConstruct[] = root.node.findAll()): Map<string, ApiObject[]> {
  const index = new Map<string, ApiObject[]>();
  for (const c of all) {
    if (!(c instanceof ApiObject) || c.kind !== 'OperatorGroup' || !c.apiVersion.startsWith('operators.coreos.com/')) continue;
    const ns = c.metadata.namespace ?? '';
    index.set(ns, [...(index.get(ns) ?? []), c]);
  }
  return index;
}
