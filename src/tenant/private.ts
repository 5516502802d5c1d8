// Rendering helpers shared by the tenant constructs; not part of the public API (not re-exported).
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../core/app-context';
import { seal } from '../core/content-cache';
import { KubernetesNames } from '../core/kubernetes-names';
import { PolicyRule } from '../rbac/policy-rule';

/** Converts rules to the cdk8s-plus L1 `PolicyRule` shape (its `toJson` renames `nonResourceUrLs`). */
export function toL1Rules(rules: PolicyRule[]): k8s.PolicyRule[] {
  // the shared (frozen) compacted lists of thousands of roles: converted once, the result frozen and shared too
  // (cdk8s resolves a Lazy's value into new objects, never into the value itself)
  if (!Object.isFrozen(rules)) return convertRules(rules);
  let l1 = L1_RULES_CACHE.get(rules);
  if (l1 === undefined) {
    l1 = seal(convertRules(rules));
    L1_RULES_CACHE.set(rules, l1);
  }
  return l1;
}

/** The L1 form of each frozen rule list (`toL1Rules`): frozen, the list never changes, nor does its L1 form. */
const L1_RULES_CACHE = new WeakMap<PolicyRule[], k8s.PolicyRule[]>();

function convertRules(rules: PolicyRule[]): k8s.PolicyRule[] {
  return rules.map((r) => {
    const out: { -readonly [K in keyof k8s.PolicyRule]: k8s.PolicyRule[K] } = { verbs: [...r.verbs] };
    if (r.apiGroups !== undefined) out.apiGroups = [...r.apiGroups];
    if (r.resources !== undefined) out.resources = [...r.resources];
    if (r.resourceNames !== undefined && r.resourceNames.length > 0) out.resourceNames = [...r.resourceNames];
    if (r.nonResourceUrls !== undefined && r.nonResourceUrls.length > 0) out.nonResourceUrLs = [...r.nonResourceUrls];
    return out;
  });
}

/** undefined for an empty or missing map, so the manifest has no empty `labels: {}`. */
export function nonEmpty(map: { [key: string]: string } | undefined): { [key: string]: string } | undefined {
  if (map === undefined || Object.keys(map).length === 0) return undefined;
  const out: { [key: string]: string } = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key];
  return out;
}

/**
 * Constructs that check the names they pass to their CompactRole / SubjectRoleBinding children (the tenant): the
 * children then check only types, so one bad name is one error.
 */
const NAME_CHECKING_PARENTS = new AppSlot('nameCheckingParents', () => new Set<IConstruct>());

/**
 * The namespace name each tenant checks itself (InvalidName): a construct the tenant creates in that namespace (the
 * pinned approver) does not report it again.
 */
const CHECKED_NAMESPACES = new AppSlot('checkedNamespaces', () => new Map<IConstruct, string>());

/** Declares that `parent` checks the names it gives its CompactRole / SubjectRoleBinding children itself. */
export function checksChildNames(parent: IConstruct): void {
  AppContext.of(parent).get(NAME_CHECKING_PARENTS).add(parent);
}

/** Declares that `parent` checks `namespace` itself (its constructs in that namespace do not report it again). */
export function checksNamespace(parent: IConstruct, namespace: string): void {
  AppContext.of(parent).get(CHECKED_NAMESPACES).set(parent, namespace);
}

/** True when `c`'s parent checks `namespace` itself and found it invalid (its one error stands for `c`'s). */
export function namespaceReportedByParent(c: IConstruct, namespace: string): boolean {
  const parent = c.node.scope;
  return parent !== undefined && AppContext.find(parent, CHECKED_NAMESPACES)?.get(parent) === namespace && !KubernetesNames.isDns1123Label(namespace);
}

/** True when `c`'s parent already checks the names it gives `c`. */
export function namesCheckedByParent(c: IConstruct): boolean {
  const parent = c.node.scope;
  return parent !== undefined && AppContext.find(parent, NAME_CHECKING_PARENTS)?.has(parent) === true;
}

/**
 * Orders `obj`'s API objects after `dep`'s in the output. cdk8s sorts a chart by API object dependencies; a
 * dependency between wrapper constructs alone does not order the objects inside them.
 */
export function orderAfter(obj: IConstruct, dep: IConstruct | undefined): void {
  if (!dep) return;
  const targets = apiObjectsOf(dep);
  for (const source of apiObjectsOf(obj)) {
    for (const target of targets) source.node.addDependency(target);
  }
}

/** The ApiObjects of a construct's subtree (the construct itself when it is a leaf ApiObject: no walk). */
function apiObjectsOf(c: IConstruct): ApiObject[] {
  if (c instanceof ApiObject && c.node.children.length === 0) return [c];
  return c.node.findAll().filter((x): x is ApiObject => x instanceof ApiObject);
}
