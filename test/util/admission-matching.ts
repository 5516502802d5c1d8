/**
 * Which requests a ValidatingAdmissionPolicy (and its binding) applies to, as the API server decides it, ported from
 * k8s.io/apiserver (the tests of test/util/admission-matching.test.ts port its own tables):
 * - `pkg/admission/plugin/policy/matching/matching.go` `Matcher.Matches` and `matchesResourceRules`: the namespace
 *   selector, the object selector, `excludeResourceRules`, `resourceRules` (with `resourceNames`), `matchPolicy`
 *   (`Equivalent`: a rule that names an equivalent resource, e.g. `deployments` of another group, matches too), and the
 *   order in which their errors count (a selector error only when the rules match);
 * - `pkg/admission/plugin/webhook/predicates/rules/rules.go` `Matcher.Matches`: scope, operations, groups, versions,
 *   resources and subresources (`*`, `r/*`, `*\/sub`);
 * - `pkg/admission/plugin/webhook/predicates/namespace/matcher.go` `MatchNamespaceSelector`, `GetNamespaceLabels`:
 *   cluster-scoped requests are never exempted, a Namespace's own create and update are judged by its new labels;
 * - `pkg/admission/plugin/webhook/predicates/object/matcher.go` `MatchObjectSelector`: the new or the old object;
 * - `k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go` `LabelSelectorAsSelector` and `labels.NewRequirement`: a nil
 *   selector selects nothing, `{}` everything, keys and values are validated (an invalid one is an error);
 * - `pkg/apis/admissionregistration/v1/defaults.go`: what the API server fills in when the object is stored
 *   (`matchPolicy: Equivalent`, both selectors `{}`, a rule's `scope: '*'`), applied by `withMatchResourcesDefaults`.
 *
 * Independent of src/ (the library writes policies; this judges them): the label selector is its own port too.
 */

/** A group, version and resource (`schema.GroupVersionResource`). */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** A group, version and kind (`schema.GroupVersionKind`). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** What a request is (`admission.Attributes`), as far as matching reads it. */
export interface AdmissionAttributes {
  readonly operation: string;
  readonly resource: GroupVersionResource;
  /** '' for the resource itself. */
  readonly subResource?: string;
  readonly kind?: GroupVersionKind;
  /** '' (or absent) for a cluster-scoped object; a Namespace's own requests name it. */
  readonly namespace?: string;
  readonly name?: string;
  /** The new object (null on DELETE and CONNECT). */
  readonly object?: unknown;
  /** The old object (null on CREATE). */
  readonly oldObject?: unknown;
}

/** A parsed label selector (`labels.Selector`). */
export interface LabelSelector {
  /** `labels.Everything()`: selects every object (`Empty()` true). */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>>): boolean;
}

const NOTHING: LabelSelector = { empty: false, matches: () => false };
const EVERYTHING: LabelSelector = { empty: true, matches: () => true };

const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `validation.IsQualifiedName` (a label key): problems, empty when valid. */
export function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  let name = key;
  const problems: string[] = [];
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    if (prefix.length === 0) problems.push('prefix part must be non-empty');
    else if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) problems.push('prefix part must be a lowercase RFC 1123 subdomain');
    name = rest;
  } else if (parts.length > 2) {
    return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'"];
  }
  if (name.length === 0) problems.push('name part must be non-empty');
  else if (name.length > 63) problems.push('name part must be no more than 63 characters');
  if (name.length > 0 && !QUALIFIED_NAME_PART.test(name)) {
    problems.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return problems;
}

/** `validation.IsValidLabelValue`: problems, empty when valid ('' is a valid value). */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (value.length > 0 && !QUALIFIED_NAME_PART.test(value)) {
    problems.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return problems;
}

/**
 * `metav1.LabelSelectorAsSelector`: undefined or null selects nothing, `{}` (no labels, no expressions) everything;
 * otherwise every requirement must hold. An invalid key, value, operator or value count throws, with Go's reason.
 */
export function labelSelectorAsSelector(selector: unknown): LabelSelector {
  if (selector === undefined || selector === null) return NOTHING;
  const s = selector as { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };
  const labels = Object.entries(s.matchLabels ?? {});
  const expressions = s.matchExpressions ?? [];
  if (labels.length + expressions.length === 0) return EVERYTHING;
  const requirements: Array<(l: Readonly<Record<string, string>>) => boolean> = [];
  const requirement = (key: string, operator: string, values: string[]): void => {
    const keyProblems = qualifiedNameProblems(key);
    if (keyProblems.length > 0) throw new Error(`key: Invalid value: ${JSON.stringify(key)}: ${keyProblems.join('; ')}`);
    const has = (l: Readonly<Record<string, string>>) => Object.prototype.hasOwnProperty.call(l, key);
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) throw new Error('values: Invalid value: []: for \'in\', \'notin\' operators, values set can\'t be empty');
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) throw new Error(`values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`);
        break;
      default:
        throw new Error(`${JSON.stringify(operator)} is not a valid label selector operator`);
    }
    values.forEach((v, i) => {
      const p = labelValueProblems(v);
      if (p.length > 0) throw new Error(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${p.join('; ')}`);
    });
    // labels.Requirement.Matches
    switch (operator) {
      case 'In': requirements.push((l) => has(l) && values.includes(l[key])); break;
      case 'NotIn': requirements.push((l) => !has(l) || !values.includes(l[key])); break;
      case 'Exists': requirements.push((l) => has(l)); break;
      default: requirements.push((l) => !has(l));
    }
  };
  for (const [key, value] of labels) requirement(key, 'In', [value]);
  for (const e of expressions) requirement(e.key, e.operator, [...(e.values ?? [])]);
  return { empty: false, matches: (l) => requirements.every((r) => r(l)) };
}

/** One rule of `resourceRules` / `excludeResourceRules` (`NamedRuleWithOperations`), as JSON. */
export interface NamedRule {
  readonly operations?: string[];
  readonly apiGroups?: string[];
  readonly apiVersions?: string[];
  readonly resources?: string[];
  readonly scope?: string;
  readonly resourceNames?: string[];
}

/** `matchConstraints` of a policy, `matchResources` of a binding (`MatchResources`), as JSON. */
export interface MatchResources {
  readonly namespaceSelector?: unknown;
  readonly objectSelector?: unknown;
  readonly resourceRules?: NamedRule[];
  readonly excludeResourceRules?: NamedRule[];
  readonly matchPolicy?: string;
}

/** `MatchResources` as the API server stores it (`SetDefaults_MatchResources`, `SetDefaults_Rule`). */
export function withMatchResourcesDefaults(m: MatchResources): MatchResources {
  const rule = (r: NamedRule): NamedRule => ({ ...r, scope: r.scope ?? '*' });
  return {
    ...m,
    matchPolicy: m.matchPolicy ?? 'Equivalent',
    namespaceSelector: m.namespaceSelector ?? {},
    objectSelector: m.objectSelector ?? {},
    ...(m.resourceRules ? { resourceRules: m.resourceRules.map(rule) } : {}),
    ...(m.excludeResourceRules ? { excludeResourceRules: m.excludeResourceRules.map(rule) } : {}),
  };
}

const NAMESPACES: GroupVersionResource = { group: '', version: 'v1', resource: 'namespaces' };
const sameResource = (a: GroupVersionResource, b: GroupVersionResource) =>
  a.group === b.group && a.version === b.version && a.resource === b.resource;
const exactOrWildcard = (items: readonly string[] | undefined, requested: string) => (items ?? []).some((i) => i === '*' || i === requested);

/** `rules.Matcher.scope`: `*` (or none) everything; `Namespaced` a request in a namespace, never a Namespace itself. */
export function scopeMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  if (rule.scope === undefined || rule.scope === '*') return true;
  const ns = a.namespace ?? '';
  if (rule.scope === 'Namespaced') return !sameResource(a.resource, NAMESPACES) && ns !== '';
  if (rule.scope === 'Cluster') return sameResource(a.resource, NAMESPACES) || ns === '';
  return false;
}

/** `rules.Matcher.operation`. */
export function operationMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  return (rule.operations ?? []).some((op) => op === '*' || op === a.operation);
}

/** `rules.Matcher.group`. */
export function groupMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  return exactOrWildcard(rule.apiGroups, a.resource.group);
}

/** `rules.Matcher.version`. */
export function versionMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  return exactOrWildcard(rule.apiVersions, a.resource.version);
}

/** `rules.Matcher.resource`: `r`, `r/sub`, `*` (no subresource), `r/*`, `*\/sub`, `*\/*`. */
export function resourceMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  const opSub = a.subResource ?? '';
  return (rule.resources ?? []).some((r) => {
    const slash = r.indexOf('/');
    const [res, sub] = slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
    return (res === '*' || res === a.resource.resource) && (sub === '*' || sub === opSub);
  });
}

/** `rules.Matcher.Matches`. */
export function ruleMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  return scopeMatches(rule, a) && operationMatches(rule, a) && groupMatches(rule, a) && versionMatches(rule, a) && resourceMatches(rule, a);
}

/**
 * The resources a request's resource is equivalent to, and their kinds (`runtime.EquivalentResourceRegistry`):
 * resources of one identity (by default their group and resource; `identity` may join groups) are equivalent.
 */
export class EquivalentResources {
  private readonly kinds = new Map<string, GroupVersionKind>();
  private readonly byIdentity = new Map<string, GroupVersionResource[]>();
  private readonly identities = new Map<string, string>();

  constructor(private readonly identity: (group: string, resource: string) => string = () => '') {}

  /** `RegisterKindFor`. */
  public register(resource: GroupVersionResource, subResource: string, kind: GroupVersionKind): this {
    this.kinds.set(JSON.stringify([resource.group, resource.version, resource.resource, subResource]), kind);
    const key = this.identity(resource.group, resource.resource) || `${resource.resource}.${resource.group}`;
    this.identities.set(JSON.stringify([resource.group, resource.resource]), key);
    const list = this.byIdentity.get(JSON.stringify([key, subResource])) ?? [];
    list.push(resource);
    this.byIdentity.set(JSON.stringify([key, subResource]), list);
    return this;
  }

  /** `EquivalentResourcesFor`, in registration order. */
  public equivalentResourcesFor(resource: GroupVersionResource, subResource: string): GroupVersionResource[] {
    const key = this.identities.get(JSON.stringify([resource.group, resource.resource]));
    return key === undefined ? [] : [...(this.byIdentity.get(JSON.stringify([key, subResource])) ?? [])];
  }

  /** `KindFor`: undefined when not registered (Go's empty kind). */
  public kindFor(resource: GroupVersionResource, subResource: string): GroupVersionKind | undefined {
    const kind = this.kinds.get(JSON.stringify([resource.group, resource.version, resource.resource, subResource]));
    return kind && kind.kind !== '' ? kind : undefined;
  }
}

/**
 * The equivalences of the API a supported cluster (Kubernetes >= 1.28) serves for the resources the library's
 * policies match: none across groups (the `extensions` copies of `deployments`, `networkpolicies`, `ingresses` are
 * gone since 1.16-1.22), and a rule with `apiVersions: ['*']` matches every version of its group anyway.
 */
export const CLUSTER_EQUIVALENTS = new EquivalentResources();

/** What `matches` found: the resource and kind the request is evaluated as (its own, or an equivalent's). */
export interface MatchResult {
  readonly matches: boolean;
  readonly resource?: GroupVersionResource;
  readonly kind?: GroupVersionKind;
}

/** How `matches` looks up what is not in the request. */
export interface MatchContext {
  readonly equivalents?: EquivalentResources;
  /** A namespace's labels; undefined when it does not exist (then a namespace selector that must read them is an error). */
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
}

function metadataLabels(obj: unknown): Readonly<Record<string, string>> | undefined {
  if (obj === null || typeof obj !== 'object' || !('metadata' in obj)) return undefined; // meta.Accessor fails: no ObjectMeta
  return ((obj as { metadata?: { labels?: Record<string, string> } }).metadata?.labels) ?? {};
}

/** `namespace.Matcher.MatchNamespaceSelector`: [matches, error]. */
function matchNamespaceSelector(m: MatchResources, a: AdmissionAttributes, ctx: MatchContext): [boolean, Error | undefined] {
  const ns = a.namespace ?? '';
  // a cluster-scoped request (but a Namespace's own) is never exempted
  if (ns === '' && a.resource.resource !== 'namespaces') return [true, undefined];
  let selector: LabelSelector;
  try {
    selector = labelSelectorAsSelector(m.namespaceSelector);
  } catch (e) {
    return [false, e as Error];
  }
  if (selector.empty) return [true, undefined];
  let labels: Readonly<Record<string, string>> | undefined;
  // a Namespace created or updated: its new labels (the lister has not got them yet)
  if (a.resource.resource === 'namespaces' && (a.subResource ?? '') === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    labels = metadataLabels(a.object);
    if (labels === undefined) return [false, new Error('the Namespace request has no object with metadata')];
  } else {
    labels = ctx.namespaceLabels?.(ns);
    if (labels === undefined) return [false, new Error(`namespaces "${ns}" not found`)];
  }
  return [selector.matches(labels), undefined];
}

/** `object.Matcher.MatchObjectSelector`: [matches, error]. */
function matchObjectSelector(m: MatchResources, a: AdmissionAttributes): [boolean, Error | undefined] {
  let selector: LabelSelector;
  try {
    selector = labelSelectorAsSelector(m.objectSelector);
  } catch (e) {
    return [false, e as Error];
  }
  if (selector.empty) return [true, undefined];
  const matchObject = (obj: unknown) => {
    const labels = metadataLabels(obj);
    return labels !== undefined && selector.matches(labels);
  };
  return [matchObject(a.object) || matchObject(a.oldObject), undefined];
}

/** `matchesResourceRules`: a rule (or, with `Equivalent`, an equivalent resource's) and its names. */
function matchesResourceRules(rules: readonly NamedRule[], matchPolicy: string | undefined, a: AdmissionAttributes, ctx: MatchContext): MatchResult {
  const named = (r: NamedRule) => (r.resourceNames ?? []).length === 0 || (r.resourceNames ?? []).includes(a.name ?? '');
  for (const rule of rules) {
    if (ruleMatches(rule, a) && named(rule)) return { matches: true, resource: a.resource, kind: a.kind };
  }
  // if match policy is undefined or exact, no fuzzy matching (the API's default, Equivalent, is set when it is stored)
  if (matchPolicy === undefined || matchPolicy === 'Exact') return { matches: false };
  const equivalents = (ctx.equivalents ?? CLUSTER_EQUIVALENTS).equivalentResourcesFor(a.resource, a.subResource ?? '');
  for (const rule of rules) {
    for (const equivalent of equivalents) {
      if (sameResource(equivalent, a.resource)) continue; // checked above
      if (!ruleMatches(rule, { ...a, resource: equivalent })) continue;
      const kind = (ctx.equivalents ?? CLUSTER_EQUIVALENTS).kindFor(equivalent, a.subResource ?? '');
      if (kind === undefined) throw new Error(`unable to convert to ${equivalent.group}/${equivalent.version}, Resource=${equivalent.resource}: unknown kind`);
      if (named(rule)) return { matches: true, resource: equivalent, kind };
    }
  }
  return { matches: false };
}

/**
 * `Matcher.Matches`: whether the request matches `criteria` (a policy's `matchConstraints` or a binding's
 * `matchResources`, as stored: see `withMatchResourcesDefaults`), and as which resource and kind. Throws what Go
 * returns as an error (an invalid selector, a namespace that does not exist, an equivalent without kind): the API
 * server then applies the failure policy, a test must not mistake it for a decision.
 */
export function matches(criteria: MatchResources, a: AdmissionAttributes, ctx: MatchContext = {}): MatchResult {
  const [nsMatches, nsError] = matchNamespaceSelector(criteria, a, ctx);
  // no error for a policy that does not apply to the request, even if the selector is broken
  if (!nsMatches && nsError === undefined) return { matches: false };
  const [objMatches, objError] = matchObjectSelector(criteria, a);
  if (!objMatches && objError === undefined) return { matches: false };
  const excluded = matchesResourceRules(criteria.excludeResourceRules ?? [], criteria.matchPolicy, a, ctx);
  if (excluded.matches) return { matches: false };
  const result = (criteria.resourceRules ?? []).length === 0
    ? { matches: true, resource: a.resource, kind: a.kind }
    : matchesResourceRules(criteria.resourceRules ?? [], criteria.matchPolicy, a, ctx);
  if (!result.matches) return { matches: false };
  // now that it applies, the selectors' errors count
  if (nsError !== undefined) throw nsError;
  if (objError !== undefined) throw objError;
  return result;
}

/**
 * `rules.IsExemptAdmissionConfigurationResource`: admission policies never apply to the objects that configure
 * admission (webhook configurations, policies and their bindings), so no policy can lock them.
 */
export function isExemptAdmissionConfiguration(a: AdmissionAttributes): boolean {
  const kind = a.kind?.kind;
  const group = a.kind?.group ?? a.resource.group;
  if (group !== 'admissionregistration.k8s.io') return false;
  if (kind !== undefined) {
    return ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
      'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'].includes(kind);
  }
  return ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings',
    'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'].includes(a.resource.resource);
}
