/**
 * The PolicyRule struct (rbac.authorization.k8s.io/v1 `PolicyRule`) and its JSON form.
 * jsii structs cannot carry methods, so conversion lives in `PolicyRules`.
 */
import { Diagnostics } from '../core/diagnostics';
import { INPUT_CODES, ruleReadProblems, shown } from '../core/input-check';

/**
 * One RBAC rule, with Kubernetes' fields. Either resource fields (`apiGroups`, `resources`, optional
 * `resourceNames`) or `nonResourceUrls`, never both. Other keys are refused by every entry point that takes rules
 * (`nonResourceURLs` included: that is the Kubernetes JSON spelling, read by `PolicyRules.fromJson`).
 * @see https://kubernetes.io/docs/reference/kubernetes-api/authorization-resources/role-v1/#Role
 */
export interface PolicyRule {
  /** Verbs, e.g. `get`, `create`, or `*`. */
  readonly verbs: string[];
  /**
   * API groups; `""` is the core group, `*` any group.
   * @default - none (a non-resource rule)
   */
  readonly apiGroups?: string[];
  /**
   * Resources, `resource/subresource`, `*`, `*\/subresource` (any resource's subresource).
   * @default - none (a non-resource rule)
   */
  readonly resources?: string[];
  /**
   * Restricts the rule to these object names.
   * @default - any name
   */
  readonly resourceNames?: string[];
  /**
   * Non-resource URLs such as `/healthz`; a trailing `*` is a prefix match. Only in ClusterRoles.
   * Serialized as `nonResourceURLs`.
   * @default - none (a resource rule)
   */
  readonly nonResourceUrls?: string[];
}

/** Conversions between `PolicyRule` and Kubernetes JSON. */
export class PolicyRules {
  /**
   * Reads a rule from Kubernetes JSON (`nonResourceURLs`): the reader for pasted manifests. Unknown fields are ignored,
   * as Go's JSON decoder does when OLM reads a bundle; non-list fields throw. (The `PolicyRule` entry points refuse
   * unknown keys, `nonResourceURLs` among them, and point here.)
   */
  public static fromJson(json: any): PolicyRule {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new Error(`PolicyRule must be an object, got ${shown(json)}`);
    }
    const list = (field: string): string[] | undefined => {
      const v = json[field];
      if (v === undefined || v === null) return undefined;
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
        throw new Error(`PolicyRule field '${field}' must be a list of strings, got ${shown(v)}`);
      }
      return [...v];
    };
    return clean({
      verbs: list('verbs') ?? [],
      apiGroups: list('apiGroups'),
      resources: list('resources'),
      resourceNames: list('resourceNames'),
      nonResourceUrls: list('nonResourceURLs'),
    });
  }

  /**
   * Writes a rule as Kubernetes JSON (`nonResourceURLs`), omitting empty `resourceNames`/`nonResourceURLs`, with keys
   * in alphabetical order (as `kubectl get -o yaml` prints them), so that output is stable.
   */
  public static toJson(rule: PolicyRule): any {
    if (rule === null || typeof rule !== 'object' || !Array.isArray(rule.verbs)) {
      throw new Error(`PolicyRules.toJson: a rule must be an object with a 'verbs' list, got ${shown(rule)}`);
    }
    for (const field of ['apiGroups', 'resources', 'resourceNames', 'nonResourceUrls'] as const) {
      const v: unknown = rule[field];
      if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) {
        throw new Error(`PolicyRules.toJson: rule field '${field}' must be a list of strings, got ${shown(v)}`);
      }
    }
    // a key it does not know (a typo, or nonResourceURLs: this writes it from nonResourceUrls) would be dropped
    const unknown = ruleReadProblems('rule', rule).filter((d) => d.code === INPUT_CODES.unknownProp);
    if (unknown.length > 0) throw new Error(`PolicyRules.toJson: ${unknown.map((d) => Diagnostics.formatMessage(d)).join('; ')}`);
    const out: any = {};
    if (rule.apiGroups !== undefined) out.apiGroups = [...rule.apiGroups];
    if (rule.nonResourceUrls !== undefined && rule.nonResourceUrls.length > 0) out.nonResourceURLs = [...rule.nonResourceUrls];
    if (rule.resourceNames !== undefined && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
    if (rule.resources !== undefined) out.resources = [...rule.resources];
    out.verbs = [...rule.verbs];
    return out;
  }

  private constructor() {}
}

function clean(rule: PolicyRule): PolicyRule {
  const out: any = {};
  for (const [k, v] of Object.entries(rule)) if (v !== undefined) out[k] = v;
  return out;
}
