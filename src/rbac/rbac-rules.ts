/**
 * An RBAC engine that answers questions offline exactly as a Kubernetes API server would.
 *
 * Ported from (and tested against the tables of):
 * - `k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go` (`Covers`, `BreakdownRule`, `ruleCovers`):
 *   the privilege-escalation check run when a Role/ClusterRole (or a binding) is created.
 * - `plugin/pkg/auth/authorizer/rbac/rbac.go` (`RuleAllows`) and `pkg/apis/rbac/v1/evaluation_helpers.go`
 *   (`VerbMatches`, `APIGroupMatches`, `ResourceMatches`, `ResourceNameMatches`, `NonResourceURLMatches`):
 *   the authorizer deciding one request.
 * - `pkg/apis/rbac/validation/validation.go` (`ValidatePolicyRule`): what the API server rejects.
 *
 * Note the two are NOT the same relation: `covers` compares rules to rules (a `*` in the requested rule is a
 * literal that only a `*` in the owner covers), `allows` matches one concrete request.
 */
import { PolicyRule } from './policy-rule';
import { BoundedCache, copyShallowArrays, isPlainRuleList, isSealed, rulesKey, seal } from '../core/content-cache';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { Diagnostics } from '../core/diagnostics';
import { describeValue, INPUT_CODES, ruleReadProblems, shown, valueText } from '../core/input-check';

/** Result of `RbacRules.covers`. */
export interface CoverageResult {
  /** True when every requested atom is covered by a single owner rule. */
  readonly covered: boolean;
  /**
   * The uncovered atoms (one verb x one group x one resource x at most one name; or one URL x one verb), in the order
   * upstream's `BreakdownRule` produces them (requested rule, group, resource, verb, name), duplicates removed.
   */
  readonly missing: PolicyRule[];
}

/** One authorization request, like the API server's `authorizer.Attributes`. */
export interface ResourceRequest {
  /** The verb, e.g. `get`, `list`, `create`; case-sensitive (the API server uses lowercase). */
  readonly verb: string;
  /**
   * API group of the resource; `""` is the core group.
   * @default ""
   */
  readonly apiGroup?: string;
  /**
   * Resource (plural), e.g. `pods`. Required for a resource request. May also be `resource/subresource`
   * (split at the first `/`) when `subresource` is not given.
   * @default - none (a non-resource request)
   */
  readonly resource?: string;
  /**
   * Subresource, e.g. `status`, `scale`, `log`.
   * @default - none
   */
  readonly subresource?: string;
  /**
   * Object name; empty for list/watch/create of a collection.
   * @default ""
   */
  readonly name?: string;
  /**
   * The path of a non-resource request (e.g. `/healthz`). Set this OR `resource`, never both.
   * @default - none (a resource request)
   */
  readonly nonResourcePath?: string;
}

const ALL = '*';

/** Static helpers answering RBAC questions with Kubernetes' exact semantics. */
export class RbacRules {
  /**
   * Whether the owner rules cover every requested rule: Kubernetes' `Covers`
   * (`k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go`), the API server's escalation check.
   *
   * The requested rules are broken into atoms (`breakdown`), and each atom must be covered by ONE owner rule:
   * - verbs/groups: the owner has `*` or the exact value (a requested `*` is only covered by an owner `*`);
   * - resources: the owner has `*`, the exact value, or `*\/sub` for a requested `x/sub` (`pods/*` in the owner
   *   is a literal, not a wildcard);
   * - names: an owner without `resourceNames` covers any name; an owner with names covers only those names and
   *   never an unnamed atom;
   * - non-resource URLs: equal, or the owner ends in `*` and the requested URL starts with the owner minus the `*`s.
   * Everything is case-sensitive. Owner rules are indexed, so large rule sets are fast.
   *
   * Input it cannot read is refused (an Error), never answered: a key a PolicyRule does not have (a typo, or
   * `nonResourceURLs`, the Kubernetes JSON spelling: read manifests with `PolicyRules.fromJson`) in any rule, and a
   * requested rule with neither `resources` nor `nonResourceUrls` (every owner would "cover" it).
   */
  public static covers(owner: PolicyRule[], requested: PolicyRule[]): CoverageResult {
    checkList('covers', 'owner', owner);
    checkList('covers', 'requested', requested);
    // a requested rule that names nothing would be "covered" by any owner: refused, not answered
    requested.forEach((rule, i) => checkRuleShape(rule, 'RbacRules: a rule', `RbacRules.covers: requested[${i}]`));
    const index = new OwnerIndex(owner);
    const missing: PolicyRule[] = [];
    const seen = new Set<string>();
    for (const rule of requested) {
      RbacRules.forEachAtom(rule, (atom) => {
        if (index.coversAtom(atom)) return;
        const key = atomKey(atom);
        if (seen.has(key)) return;
        seen.add(key);
        missing.push(atomToRule(atom));
      }, true);
    }
    return { covered: missing.length === 0, missing };
  }

  /**
   * Whether any of the rules allows the request: the RBAC authorizer's `RuleAllows`
   * (`plugin/pkg/auth/authorizer/rbac/rbac.go`). A request is a non-resource request when `nonResourcePath` is set.
   * Unlike `covers`, a `*` in a rule matches any requested value, `*\/sub` matches any resource's `sub`,
   * and a request without a name matches a rule with `resourceNames` only if one of them is `""`.
   */
  public static allows(rules: PolicyRule[], request: ResourceRequest): boolean {
    if (request === null || typeof request !== 'object' || typeof request.verb !== 'string') {
      throw new Error(`RbacRules.allows: request must be an object with a string 'verb', got ${shown(request)}`);
    }
    for (const field of ['apiGroup', 'resource', 'subresource', 'name', 'nonResourcePath'] as const) {
      const v = (request as any)[field];
      if (v !== undefined && typeof v !== 'string') {
        throw new Error(`RbacRules.allows: request field '${field}' must be a string, got ${shown(v)} in ${shown(request)}`);
      }
    }
    if (!Array.isArray(rules)) throw new Error(`RbacRules.allows: rules must be a list of rules, got ${shown(rules)}`);
    for (const rule of rules) checkRuleShape(rule, 'RbacRules.allows: a rule');
    if (request.nonResourcePath !== undefined) {
      if (request.resource !== undefined || request.subresource !== undefined || request.apiGroup !== undefined || request.name !== undefined) {
        throw new Error(`RbacRules.allows: request ${shown(request)} sets both 'nonResourcePath' and resource fields; `
          + 'a request is either a resource request (apiGroup/resource/subresource/name) or a non-resource request (nonResourcePath)');
      }
      return rules.some((r) => verbMatches(r, request.verb) && nonResourceUrlMatches(r, request.nonResourcePath!));
    }
    if (request.resource === undefined) {
      throw new Error(`RbacRules.allows: request ${shown(request)} has neither 'resource' nor 'nonResourcePath'; set one of them`);
    }
    let resource = request.resource;
    let subresource = request.subresource ?? '';
    if (request.subresource === undefined && resource.includes('/')) {
      const i = resource.indexOf('/');
      subresource = resource.slice(i + 1);
      resource = resource.slice(0, i);
    }
    const combined = subresource.length > 0 ? `${resource}/${subresource}` : resource;
    const group = request.apiGroup ?? '';
    const name = request.name ?? '';
    return rules.some((r) => verbMatches(r, request.verb)
      && apiGroupMatches(r, group)
      && resourceMatches(r, combined, subresource)
      && resourceNameMatches(r, name));
  }

  /**
   * The same permissions in the fewest readable rules, in a stable sorted order. It never changes meaning, for
   * `allows` nor for `covers` in either direction:
   * 1. rules are broken into atoms; atoms covered by another atom are dropped (e.g. `get` next to `*`,
   *    a named atom next to the unnamed one, `pods/scale` next to `*\/scale`): no `*` is ever introduced;
   * 2. atoms are regrouped: names per group+resource+verb, then verbs per group+resource+names, then resources
   *    per group+verbs+names, then groups per resources+verbs+names. Every list is sorted;
   * 3. non-resource rules likewise (verbs per URL, then URLs per verb set), after the resource rules;
   * 4. rules that grant nothing (no verbs, no groups, no resources) are dropped; rules the API server would reject
   *    as mixing resources and non-resource URLs are kept unchanged (deduplicated), last (see `validate`).
   */
  public static compact(rules: PolicyRule[]): PolicyRule[] {
    checkList('compact', 'rules', rules);
    // Equal rule lists (many tenants deriving from the same bundles) are compacted once; callers get copies.
    return RbacRules._compactShared(rules).map((r) => copyShallowArrays(r));
  }

  /**
   * `compact` for the library's own read-only use: the result is a cached, frozen list shared by every caller with
   * the same rules.
   * @internal
   */
  public static _compactShared(rules: PolicyRule[]): PolicyRule[] {
    if (!isPlainRuleList(rules)) return RbacRules.compactUncached(rules);
    return COMPACTED.get(rulesKey(rules), () => seal(RbacRules.compactUncached(rules)));
  }

  /**
   * Problems the API server would reject (`ValidatePolicyRule` in `pkg/apis/rbac/validation/validation.go`), plus
   * rules that can never match a real request. Empty when the rule is fine. Each message names the field and the fix.
   *
   * @param rule the rule to check
   * @param namespaced whether the rule is in a (namespaced) Role, where non-resource URLs are rejected @default false
   */
  public static validate(rule: PolicyRule, namespaced: boolean = false): string[] {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return [`rule must be an object, got ${shown(rule)}`];
    const problems: string[] = [];
    for (const field of RULE_FIELDS) {
      const v = (rule as any)[field];
      if (v !== undefined && v !== null && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) {
        problems.push(`rule field '${field}' must be a list of strings, got ${shown(v)}`);
      }
    }
    if (problems.length > 0) return problems;
    // unknown keys; a rule of neither resources nor URLs gets the API server's own messages below
    const unreadable = ruleReadProblems('rule', rule).filter((d) => d.code === INPUT_CODES.unknownProp);
    if (unreadable.length > 0) return unreadable.map((d) => `${d.message}: ${d.fix}`);
    const desc = RbacRules.format(rule, '');
    if (len(rule.verbs) === 0) {
      problems.push(`rule ${desc}: 'verbs' is empty; list at least one verb (e.g. "get")`);
    }
    for (const verb of rule.verbs ?? []) {
      if (verb !== verb.toLowerCase()) {
        problems.push(`rule ${desc}: verb '${verb}' never matches (verbs are case-sensitive and the API server uses lowercase); use '${verb.toLowerCase()}'`);
      }
    }
    if (len(rule.nonResourceUrls) > 0) {
      if (namespaced) {
        problems.push(`rule ${desc}: namespaced rules cannot apply to non-resource URLs; move the non-resource URLs to a ClusterRole`);
      }
      if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
        problems.push(`rule ${desc}: rules cannot apply to both regular resources and non-resource URLs; split it into a resource rule and a non-resource rule`);
      }
      for (const url of rule.nonResourceUrls ?? []) {
        if (url !== ALL && !url.startsWith('/')) {
          problems.push(`rule ${desc}: non-resource URL '${url}' never matches (request paths start with '/'); use '/${url}'`);
        }
      }
      return problems;
    }
    if (len(rule.apiGroups) === 0) {
      problems.push(`rule ${desc}: resource rules must supply at least one api group in 'apiGroups' ("" is the core group)`);
    }
    if (len(rule.resources) === 0) {
      problems.push(`rule ${desc}: resource rules must supply at least one resource in 'resources' (e.g. "pods")`);
    }
    for (const resource of rule.resources ?? []) {
      if (resource === '') {
        problems.push(`rule ${desc}: resource '' never matches; remove it`);
      } else if (resource !== resource.toLowerCase()) {
        problems.push(`rule ${desc}: resource '${resource}' never matches (resources are case-sensitive lowercase plurals); use '${resource.toLowerCase()}'`);
      }
    }
    return problems;
  }

  /**
   * Breaks a rule into atoms exactly like upstream's `BreakdownRule`: one group x one resource x one verb x at most
   * one name, then one non-resource URL x one verb. A rule without groups, resources or verbs yields no atoms.
   */
  public static breakdown(rules: PolicyRule[]): PolicyRule[] {
    checkList('breakdown', 'rules', rules);
    const out: PolicyRule[] = [];
    for (const rule of rules) RbacRules.forEachAtom(rule, (a) => out.push(atomToRule(a)));
    return out;
  }

  /**
   * One rule as text exactly like OLM v1's preflight messages (`ruleDescription` in operator-framework/operator-controller
   * `internal/operator-controller/authorization/rbac.go`), e.g.
   * `Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[create,get]` (`Namespace:""` = cluster-wide):
   * fields in the order APIGroups, Resources, ResourceNames, Verbs, NonResourceURLs, each only when non-empty,
   * values sorted. The core group `""` prints as `APIGroups:[]`.
   */
  public static format(rule: PolicyRule, namespace: string): string {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
      throw argumentError('format', {
        code: rule === undefined || rule === null ? INPUT_CODES.missing : INPUT_CODES.type,
        field: 'rule',
        value: rule === undefined ? undefined : valueText(rule),
        message: `rule must be a PolicyRule object, got ${describeValue(rule)}`,
        fix: 'pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson)',
      });
    }
    checkRuleShape(rule, 'RbacRules.format: the rule');
    if (typeof namespace !== 'string') {
      throw argumentError('format', {
        // the same codes and value text as a wrong rule: a missing namespace is MissingInput, with no value
        code: namespace === undefined || namespace === null ? INPUT_CODES.missing : INPUT_CODES.type,
        field: 'namespace',
        value: namespace === undefined ? undefined : valueText(namespace),
        message: `namespace must be a string, got ${describeValue(namespace)}`,
        fix: "pass the namespace the rule applies in, or '' for cluster-wide",
      });
    }
    const parts = [`Namespace:${JSON.stringify(namespace)}`];
    const field = (label: string, values: string[] | undefined) => {
      if (len(values) > 0) parts.push(`${label}:[${[...values!].sort(compareStrings).join(',')}]`);
    };
    field('APIGroups', rule.apiGroups);
    field('Resources', rule.resources);
    field('ResourceNames', rule.resourceNames);
    field('Verbs', rule.verbs);
    field('NonResourceURLs', rule.nonResourceUrls);
    return parts.join(' ');
  }

  /** `checked`: the caller has checked the rule's shape already (the check is most of the cost on large lists). */
  private static forEachAtom(rule: PolicyRule, fn: (atom: Atom) => void, checked: boolean = false): void {
    if (!checked) checkRuleShape(rule, 'RbacRules: a rule');
    const verbs = rule.verbs ?? [];
    const names = rule.resourceNames ?? [];
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of verbs) {
          if (names.length > 0) {
            for (const name of names) fn({ group, resource, verb, name });
          } else {
            fn({ group, resource, verb });
          }
        }
      }
    }
    for (const url of rule.nonResourceUrls ?? []) {
      for (const verb of verbs) fn({ url, verb });
    }
  }

  /** The body of `compact`, uncached. */
  private static compactUncached(rules: PolicyRule[]): PolicyRule[] {
    const resourceAtoms = new Map<string, Atom>();
    const urlAtoms = new Map<string, Atom>();
    const passThrough = new Map<string, PolicyRule>();
    for (const rule of rules) {
      checkRuleShape(rule, 'RbacRules.compact: a rule');
      if (isMixed(rule)) {
        const copy = normalize(rule);
        passThrough.set(JSON.stringify(copy), copy);
        continue;
      }
      RbacRules.forEachAtom(rule, (atom) => {
        (atom.url === undefined ? resourceAtoms : urlAtoms).set(atomKey(atom), atom);
      }, true);
    }

    // 1. Drop atoms covered by a different atom (ruleCovers is transitive on atoms, so this keeps the meaning).
    const kept = (atoms: Map<string, Atom>): Atom[] => {
      const list = [...atoms.values()];
      // the atoms' rules are made here from checked rules: not checked again
      const index = new OwnerIndex(list.map(atomToRule), list.map(atomKey), true);
      return list.filter((a) => !index.coversAtom(a, true));
    };

    // 2. Regroup resource atoms.
    const out: PolicyRule[] = [];
    const byName = groupBy(kept(resourceAtoms), (a) => [a.group, a.resource, a.verb], (a) => a.name);
    // entries: group, resource, verb, names (undefined = any name)
    const step1 = [...byName.values()].map(({ head, values }) => ({
      group: head.group!,
      resource: head.resource!,
      verb: head.verb,
      names: values.includes(undefined) ? undefined : sortedUnique(values as string[]),
    }));
    const byVerbs = groupBy(step1, (e) => [e.group, e.resource, namesKey(e.names)], (e) => e.verb);
    const step2 = [...byVerbs.values()].map(({ head, values }) => ({
      group: head.group, resource: head.resource, names: head.names, verbs: sortedUnique(values),
    }));
    const byResources = groupBy(step2, (e) => [e.group, namesKey(e.names), e.verbs], (e) => e.resource);
    const step3 = [...byResources.values()].map(({ head, values }) => ({
      group: head.group, names: head.names, verbs: head.verbs, resources: sortedUnique(values),
    }));
    const byGroups = groupBy(step3, (e) => [e.resources, namesKey(e.names), e.verbs], (e) => e.group);
    for (const { head, values } of byGroups.values()) {
      out.push(clean({
        apiGroups: sortedUnique(values), resources: head.resources, resourceNames: head.names, verbs: head.verbs,
      }));
    }

    // 3. Non-resource rules.
    const urlVerbs = groupBy(kept(urlAtoms), (a) => [a.url!], (a) => a.verb);
    const urlStep = [...urlVerbs.values()].map(({ head, values }) => ({ url: head.url!, verbs: sortedUnique(values) }));
    const urlsByVerbs = groupBy(urlStep, (e) => [e.verbs], (e) => e.url);
    const urlRules: PolicyRule[] = [...urlsByVerbs.values()].map(({ head, values }) => ({
      nonResourceUrls: sortedUnique(values), verbs: head.verbs,
    }));

    return [
      ...sortRules(out),
      ...sortRules(urlRules),
      ...sortRules([...passThrough.values()]),
    ];
  }

  private constructor() {}
}

/** One atom: a resource atom (group, resource, verb, optional name) or a non-resource atom (url, verb). */
interface Atom {
  readonly verb: string;
  readonly group?: string;
  readonly resource?: string;
  readonly name?: string;
  readonly url?: string;
}

function atomKey(a: Atom): string {
  return JSON.stringify(a.url !== undefined ? ['u', a.url, a.verb] : ['r', a.group, a.resource, a.verb, a.name ?? null]);
}

function atomToRule(a: Atom): PolicyRule {
  if (a.url !== undefined) return { nonResourceUrls: [a.url], verbs: [a.verb] };
  return a.name !== undefined
    ? { apiGroups: [a.group!], resources: [a.resource!], verbs: [a.verb], resourceNames: [a.name] }
    : { apiGroups: [a.group!], resources: [a.resource!], verbs: [a.verb] };
}

/** A non-resource owner rule, pre-digested for `ruleCovers`. */
interface UrlRule {
  readonly verbs: Set<string>;
  readonly urls: string[];
  readonly key?: string; // atomKey when the rule is itself an atom (compact skips self-coverage)
}

/** What the owner rules grant for one group x resource key x verb: any name, and/or these names. */
interface Bucket {
  anyName: boolean;
  readonly names: Set<string>;
}

/**
 * Owner rules indexed by group, resource key (exact resource, `*`, or `*\/sub`) and verb (or `*`). Within one
 * bucket owner rules differ only in names, so an atom is answered with at most 12 map lookups, whatever the number
 * of owner rules. Semantics are exactly upstream's `ruleCovers`.
 */
class OwnerIndex {
  private readonly index = new Map<string, Map<string, Map<string, Bucket>>>();
  private readonly urlRules: UrlRule[] = [];

  /** @param keys optional atom key per owner rule, for `coversAtom(atom, true)` (compact: owner rules are atoms) */
  /** @param checked the owner rules are the engine's own atoms, made from checked rules (compact) */
  constructor(owner: PolicyRule[], keys?: string[], checked: boolean = false) {
    owner.forEach((rule, i) => {
      if (!checked) checkRuleShape(rule, 'RbacRules: an owner rule');
      const verbs = new Set(rule.verbs ?? []);
      if (verbs.size === 0) return; // covers nothing
      const names = len(rule.resourceNames) > 0 ? rule.resourceNames! : undefined;
      for (const group of new Set(rule.apiGroups ?? [])) {
        let byResource = this.index.get(group);
        if (!byResource) this.index.set(group, byResource = new Map());
        for (const resource of new Set(rule.resources ?? [])) {
          let byVerb = byResource.get(resource);
          if (!byVerb) byResource.set(resource, byVerb = new Map());
          for (const verb of verbs) {
            let bucket = byVerb.get(verb);
            if (!bucket) byVerb.set(verb, bucket = { anyName: false, names: new Set() });
            if (names === undefined) bucket.anyName = true;
            else for (const n of names) bucket.names.add(n);
          }
        }
      }
      // An owner with resourceNames can never cover a non-resource atom (upstream ruleCovers: an atom without
      // names needs an owner without names).
      if (len(rule.nonResourceUrls) > 0 && names === undefined) {
        this.urlRules.push({ verbs, urls: [...rule.nonResourceUrls!], key: keys?.[i] });
      }
    });
  }

  /**
   * Whether some owner rule covers the atom. With `excludeSelf` (compact, where the owner rules are the unique atoms
   * themselves, built with keys), the atom's own entry does not count.
   */
  public coversAtom(atom: Atom, excludeSelf: boolean = false): boolean {
    if (atom.url !== undefined) {
      const self = excludeSelf ? atomKey(atom) : undefined;
      return this.urlRules.some((r) => (self === undefined || r.key !== self)
        && (r.verbs.has(ALL) || r.verbs.has(atom.verb))
        && r.urls.some((u) => nonResourceUrlCovers(u, atom.url!))
        // Distinct URL atoms can cover each other (`/a*` and `/a**`, `*` and `**`): compact keeps the smallest key
        // of such a pair, otherwise it would drop both and lose the permission.
        && (self === undefined || !urlAtomCovers(atom, r) || r.key! < self));
    }
    const resource = atom.resource!;
    const slash = resource.indexOf('/');
    const resourceKeys = [resource];
    if (resource !== ALL) resourceKeys.push(ALL);
    if (slash >= 0) {
      const sub = `*/${resource.slice(slash + 1)}`;
      if (sub !== resource) resourceKeys.push(sub);
    }
    const groups = atom.group === ALL ? [ALL] : [atom.group!, ALL];
    const verbs = atom.verb === ALL ? [ALL] : [atom.verb, ALL];
    for (const group of groups) {
      const byResource = this.index.get(group);
      if (!byResource) continue;
      for (const resourceKey of resourceKeys) {
        const byVerb = byResource.get(resourceKey);
        if (!byVerb) continue;
        for (const verb of verbs) {
          const bucket = byVerb.get(verb);
          if (!bucket) continue;
          const isSelf = excludeSelf && group === atom.group && resourceKey === resource && verb === atom.verb;
          if (isSelf) {
            // Atoms are unique: in its own bucket, a named atom is covered only by an unnamed one, an unnamed
            // atom only by itself.
            if (atom.name !== undefined && bucket.anyName) return true;
            continue;
          }
          if (bucket.anyName || (atom.name !== undefined && bucket.names.has(atom.name))) return true;
        }
      }
    }
    return false;
  }
}

/** Whether the URL atom covers the owner rule, itself a URL atom (one URL, one verb), back (compact only). */
function urlAtomCovers(atom: Atom, rule: UrlRule): boolean {
  return (atom.verb === ALL || rule.verbs.has(atom.verb)) && nonResourceUrlCovers(atom.url!, rule.urls[0]);
}

// upstream nonResourceURLCovers: equal, or owner ends in `*` and the path starts with the owner minus trailing `*`s.
function nonResourceUrlCovers(ownerPath: string, subPath: string): boolean {
  if (ownerPath === subPath) return true;
  return ownerPath.endsWith('*') && subPath.startsWith(ownerPath.replace(/\*+$/, ''));
}

// evaluation_helpers.go
function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === ALL || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource.length === 0) continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  if (len(rule.resourceNames) === 0) return true;
  return rule.resourceNames!.includes(name);
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceUrls ?? []).some((u) => u === ALL || u === path
    || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceUrls'] as const;

/**
 * Rejects what is not a PolicyRule (e.g. JSON read without `PolicyRules.fromJson`) with a clear error instead of a
 * TypeError or, worse, a string iterated as its characters. Absent or null lists are fine (they mean empty).
 */
/** A wrong argument of a static method: a plain Error in the diagnostics format, `RbacRules.<method>: field=value: ... (Code)`. */
function argumentError(method: string, d: DiagnosticDetails): Error {
  return new Error(`RbacRules.${method}: ${Diagnostics.formatMessage(d)}`);
}

function checkList(method: string, field: string, value: unknown): void {
  if (Array.isArray(value)) return;
  throw argumentError(method, {
    code: value === undefined || value === null ? INPUT_CODES.missing : INPUT_CODES.type,
    field,
    value: value === undefined ? undefined : valueText(value),
    message: `${field} must be a list of PolicyRules, got ${describeValue(value)}`,
    fix: 'pass e.g. [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] (read Kubernetes JSON with PolicyRules.fromJson)',
  });
}

/**
 * @param named when set, also refuse a rule with neither resources nor non-resource URLs (where reading it as
 * "nothing" would give a wrong answer: a requested rule of nothing is "covered"), naming the rule so
 */
function checkRuleShape(rule: PolicyRule, who: string, named?: string): void {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
    throw new Error(`${who} must be an object with 'verbs', got ${shown(rule)}`);
  }
  // unknown keys (a typo, or the Kubernetes JSON spelling nonResourceURLs) would be read as absent: refused
  if (!KNOWN_KEYS_SEALED_RULES_CACHE.has(rule) || (named !== undefined && len(rule.resources) === 0 && len(rule.nonResourceUrls) === 0)) {
    const problems = ruleReadProblems('rule', rule).filter((d) => named !== undefined || d.code === INPUT_CODES.unknownProp);
    if (problems.length > 0) {
      throw new Error(`${named ?? who}: ${problems.map((d) => Diagnostics.formatMessage(d)).join('; ')}`);
    }
    if (isSealed(rule)) KNOWN_KEYS_SEALED_RULES_CACHE.add(rule);
  }
  for (const field of RULE_FIELDS) {
    const v = (rule as any)[field];
    if (v !== undefined && v !== null && (!Array.isArray(v) || v.some((x: unknown) => typeof x !== 'string'))) {
      throw new Error(`${who} ${shown(rule)} has '${field}' ${shown(v)}: it must be a list of strings, `
        + `e.g. "${field}": ["${field === 'nonResourceUrls' ? '/healthz' : field === 'verbs' ? 'get' : 'x'}"] (read Kubernetes JSON with PolicyRules.fromJson)`);
    }
  }
}

/** Sealed (deep-frozen) rules without unknown keys: the library's shared rules, checked once. */
const KNOWN_KEYS_SEALED_RULES_CACHE = new WeakSet<object>();

function len(list: string[] | undefined): number {
  return list === undefined || list === null ? 0 : list.length;
}

/** Rules the API server rejects for mixing resources and non-resource URLs (kept unchanged by compact). */
function isMixed(rule: PolicyRule): boolean {
  return len(rule.nonResourceUrls) > 0 && (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0);
}

function normalize(rule: PolicyRule): PolicyRule {
  return clean({
    apiGroups: rule.apiGroups ? [...rule.apiGroups] : undefined,
    resources: rule.resources ? [...rule.resources] : undefined,
    resourceNames: len(rule.resourceNames) > 0 ? [...rule.resourceNames!] : undefined,
    nonResourceUrls: len(rule.nonResourceUrls) > 0 ? [...rule.nonResourceUrls!] : undefined,
    verbs: [...(rule.verbs ?? [])],
  });
}

function clean(rule: PolicyRule): PolicyRule {
  const out: any = {};
  for (const [k, v] of Object.entries(rule)) if (v !== undefined) out[k] = v;
  return out;
}

function namesKey(names: string[] | undefined): string {
  return names === undefined ? '\u0000any' : JSON.stringify(names);
}

function sortedUnique<T extends string>(values: T[]): T[] {
  return [...new Set(values)].sort(compareStrings);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Items grouped by `key`, compared as JSON: lists stay lists (never joined into text, where `["get,list"]` and
 * `["get", "list"]` would be one key).
 */
function groupBy<E, V>(items: E[], key: (e: E) => (string | string[] | undefined)[], value: (e: E) => V): Map<string, { head: E; values: V[] }> {
  const out = new Map<string, { head: E; values: V[] }>();
  for (const item of items) {
    const k = JSON.stringify(key(item));
    const entry = out.get(k);
    if (entry) entry.values.push(value(item));
    else out.set(k, { head: item, values: [value(item)] });
  }
  return out;
}

function sortKey(r: PolicyRule): string {
  return JSON.stringify([r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceUrls ?? [], r.verbs]);
}

function sortRules(rules: PolicyRule[]): PolicyRule[] {
  return rules.map((r) => [sortKey(r), r] as const).sort((a, b) => compareStrings(a[0], b[0])).map(([, r]) => r);
}

/** `RbacRules.compact` results by input content. */
const COMPACTED = new BoundedCache<PolicyRule[]>(1024);
