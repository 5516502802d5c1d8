/**
 * Aggregation in the other direction (into the shared roles, not into a tenant's): a ClusterRole whose labels a shared aggregated role selects
 * gives its rules to every holder of that role. The clusterrole-aggregation controller
 * (`pkg/controller/clusterroleaggregation`) adds the rules of every ClusterRole labelled
 * `rbac.authorization.k8s.io/aggregate-to-view` to the built-in `view` (and, as `view` is labelled aggregate-to-edit
 * and `edit` aggregate-to-admin, to `edit` and `admin`: `bootstrappolicy/policy.go`), and OLM's OperatorGroup roles
 * aggregate `olm.opgroup.permissions/aggregate-to-*` labels. Many real bundles ship such roles to let people read
 * their own kinds (cert-manager's `cert-manager-view`): quiet. A sensitive grant of the v0 registry
 * (`SensitiveGrant`: Secrets, pods/exec, tokens, escalate...) that the shared role does not already hold is named.
 * Pure, internal.
 */
import { ApiObject } from 'cdk8s';
import { aggregationBuiltins, findBuiltin } from './builtin-roles';
import { AcceptedSensitiveGrant, InstallerRuleChecks } from './installer-rule-checks';
import { AppContext, AppSlot } from '../core/app-context';
import { CODE } from '../core/diagnostic-codes';
import { Diagnostics } from '../core/diagnostics';
import { SynthPass } from '../core/synth-pass';
import { parseLabelSelector, selectorMatches } from '../rbac/label-selector';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';

/** What one ClusterRole adds to shared aggregated roles. */
export interface SharedRoleAggregation {
  /** The ClusterRole's name. */
  readonly role: string;
  /** The shared roles it joins that lack some of its sensitive grants, e.g. `['view', 'edit']`. */
  readonly into: string[];
  /** The labels that make it join them, e.g. `['rbac.authorization.k8s.io/aggregate-to-view=true']`. */
  readonly labels: string[];
  /** The sensitive grants it adds there (in `SensitiveGrant` order). */
  readonly grants: AcceptedSensitiveGrant[];
}

const OPERATOR_GROUP_LABEL = 'olm.opgroup.permissions/aggregate-to-';

/** The built-in aggregating roles (admin/edit/view) with their parsed selectors, labels and well-known rules. */
const SHARED = aggregationBuiltins().filter((b) => b.selectors.length > 0).map((b) => ({
  name: b.name,
  labels: b.labels,
  selectors: b.selectors.map((s) => parseLabelSelector(s).requirements),
  rules: findBuiltin('ClusterRole', b.name, '')?.rules ?? [],
}));

/**
 * The shared aggregated roles a ClusterRole (Kubernetes JSON) joins and the sensitive grants it adds to them;
 * undefined when it joins none or adds nothing sensitive. Invalid rules are left to the loader (they grant nothing).
 */
export function sharedRoleAggregation(manifest: any): SharedRoleAggregation | undefined {
  if (manifest?.kind !== 'ClusterRole') return undefined;
  // bundles are immutable and shared by thousands of tenants: once per manifest object
  if (CACHE.has(manifest)) return CACHE.get(manifest) ?? undefined;
  const result = compute(manifest);
  CACHE.set(manifest, result ?? null);
  return result;
}

const CACHE = new WeakMap<object, SharedRoleAggregation | null>();

function compute(manifest: any): SharedRoleAggregation | undefined {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(manifest.metadata?.labels ?? {})) if (typeof v === 'string') labels[k] = v;
  // the built-in roles it joins, directly or through one that joins another (view -> edit -> admin)
  const joined = new Set<string>();
  const selectedBy = (l: Readonly<Record<string, string>>) =>
    SHARED.filter((s) => !joined.has(s.name) && s.selectors.some((sel) => selectorMatches(sel, l)));
  for (let next = selectedBy(labels); next.length > 0; next = next.flatMap((s) => selectedBy(s.labels))) {
    for (const s of next) joined.add(s.name);
  }
  const groupLabels = Object.keys(labels).filter((k) => k.startsWith(OPERATOR_GROUP_LABEL)).sort();
  if (joined.size === 0 && groupLabels.length === 0) return undefined;
  const rules: PolicyRule[] = [];
  for (const r of Array.isArray(manifest.rules) ? manifest.rules : []) {
    try {
      rules.push(PolicyRules.fromJson(r));
    } catch {
      // an invalid rule grants nothing; OperatorBundle refuses it at load time
    }
  }
  const held = InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: true });
  if (held.length === 0) return undefined;
  const into: string[] = [];
  const added = new Set<string>();
  for (const s of [...joined].map((n) => SHARED.find((x) => x.name === n)!)) {
    const already = new Set(InstallerRuleChecks.sensitiveGrantsHeld(s.rules, { clusterScoped: true }).map((g) => g.grant));
    const extra = held.filter((g) => !already.has(g.grant));
    if (extra.length === 0) continue;
    into.push(s.name);
    extra.forEach((g) => added.add(g.grant));
  }
  // an OperatorGroup's aggregated role holds only what its operators provide: every sensitive grant is new there
  if (groupLabels.length > 0) {
    into.push(`the OperatorGroup roles selecting ${groupLabels.join(', ')}`);
    held.forEach((g) => added.add(g.grant));
  }
  if (into.length === 0) return undefined;
  const shownLabels = [
    ...Object.keys(labels).filter((k) => SHARED.some((s) => s.selectors.some((sel) => sel.some((r) => r.key === k)))).sort(),
    ...groupLabels,
  ].map((k) => `${k}=${labels[k]}`);
  return { role: String(manifest.metadata?.name ?? ''), into, labels: shownLabels, grants: held.filter((g) => added.has(g.grant)) };
}

/** One line: what joins where, e.g. `ClusterRole x (labels ...) adds 'get'/'list'/'watch' on secrets ... to the built-in view, edit, admin`. */
export function sharedRoleAggregationText(a: SharedRoleAggregation): string {
  const builtins = a.into.filter((x) => !x.startsWith('the OperatorGroup'));
  const where = [
    ...(builtins.length > 0 ? [`the built-in ${builtins.join(', ')}`] : []),
    ...a.into.filter((x) => x.startsWith('the OperatorGroup')),
  ].join(' and ');
  return `ClusterRole ${a.role} is labelled ${a.labels.join(', ')}: the clusterrole-aggregation controller adds its `
    + `${a.grants.map((g) => `${g.what} (SensitiveGrant.${g.grant})`).join(', ')} to ${where}, i.e. to every person and ServiceAccount bound to `
    + `${a.into.length > 1 ? 'them' : 'it'} in any namespace`;
}

/** The App's ClusterRoles outside tenants that report `SensitiveRulesAggregateIntoSharedRole` themselves. */
const REPORTING_AGGREGATION = new AppSlot('reportingAggregation', () => new Set<ApiObject>());

/**
 * Makes a ClusterRole the App writes outside any tenant report `SensitiveRulesAggregateIntoSharedRole` itself (called
 * by the tenant tree's root validation, before cdk8s validates `obj`; added once per object).
 */
export function reportSharedRoleAggregation(obj: ApiObject): void {
  const reporting = AppContext.of(obj).get(REPORTING_AGGREGATION);
  if (reporting.has(obj)) return;
  reporting.add(obj);
  obj.node.addValidation({
    validate: () => {
      const joined = sharedRoleAggregation(SynthPass.json(obj));
      if (!joined) return [];
      return [Diagnostics.formatMessage({
        code: CODE.SensitiveRulesAggregateIntoSharedRole,
        field: 'metadata.labels',
        value: joined.labels.join(', '),
        message: `${sharedRoleAggregationText(joined)} (written by the App)`,
        fix: 'drop the aggregation labels (bind the role to the people who need it), or remove the sensitive rules',
      })];
    },
  });
}
