/**
 * Kubernetes label selectors as the clusterrole-aggregation controller reads them
 * (`pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go`: each of
 * `aggregationRule.clusterRoleSelectors` through `metav1.LabelSelectorAsSelector`, then `Lister.List(selector)`).
 *
 * Ported from `k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go` `LabelSelectorAsSelector` and
 * `k8s.io/apimachinery/pkg/labels/selector.go` `Requirement.Matches`:
 * - a selector with neither `matchLabels` nor `matchExpressions` (`{}`) matches every object (`labels.Everything()`);
 * - `matchLabels` entries are `key In (value)`; every requirement must hold (AND);
 * - `In`: the key is present with one of the values; `NotIn`: the key is absent or its value is none of the values;
 *   `Exists`: the key is present; `DoesNotExist`: the key is absent;
 * - `In`/`NotIn` without values, `Exists`/`DoesNotExist` with values and any other operator are errors (the API
 *   server refuses the object, `ValidateLabelSelector`; the controller returns the error and aggregates nothing).
 *
 * Pure, internal (no construct, not exported from the package).
 */

/** One requirement of a parsed selector. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

/** A parsed selector: requirements (ANDed), or the problems that make the API server refuse it. */
export interface ParsedLabelSelector {
  readonly requirements: LabelRequirement[];
  /** Problems, each naming the field below the selector (e.g. `matchExpressions[0].values`); empty when valid. */
  readonly problems: string[];
}

const OPERATORS: ReadonlySet<string> = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Parses one `metav1.LabelSelector` given as Kubernetes JSON. */
export function parseLabelSelector(selector: unknown): ParsedLabelSelector {
  const problems: string[] = [];
  const requirements: LabelRequirement[] = [];
  if (selector === null || typeof selector !== 'object' || Array.isArray(selector)) {
    return { requirements, problems: [`must be a label selector object ({ matchLabels, matchExpressions }), got ${describe(selector)}`] };
  }
  const s = selector as { matchLabels?: unknown; matchExpressions?: unknown };
  if (s.matchLabels !== undefined && s.matchLabels !== null) {
    if (typeof s.matchLabels !== 'object' || Array.isArray(s.matchLabels)) {
      problems.push(`matchLabels must be a map of label keys to values, got ${describe(s.matchLabels)}`);
    } else {
      for (const [key, value] of Object.entries(s.matchLabels as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (typeof value !== 'string') problems.push(`matchLabels.${key} must be a string, got ${describe(value)}`);
        else requirements.push({ key, operator: 'In', values: [value] });
      }
    }
  }
  if (s.matchExpressions !== undefined && s.matchExpressions !== null) {
    if (!Array.isArray(s.matchExpressions)) {
      problems.push(`matchExpressions must be a list, got ${describe(s.matchExpressions)}`);
    } else {
      s.matchExpressions.forEach((e: any, i: number) => {
        const at = `matchExpressions[${i}]`;
        if (e === null || typeof e !== 'object' || Array.isArray(e)) {
          problems.push(`${at} must be an object { key, operator, values }, got ${describe(e)}`);
          return;
        }
        if (typeof e.key !== 'string' || e.key === '') {
          problems.push(`${at}.key must be a label key, got ${describe(e.key)}`);
          return;
        }
        if (typeof e.operator !== 'string' || !OPERATORS.has(e.operator)) {
          problems.push(`${at}.operator must be In, NotIn, Exists or DoesNotExist, got ${describe(e.operator)}`);
          return;
        }
        const values = e.values ?? [];
        if (!Array.isArray(values) || values.some((v: unknown) => typeof v !== 'string')) {
          problems.push(`${at}.values must be a list of strings, got ${describe(e.values)}`);
          return;
        }
        if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0) {
          problems.push(`${at}.values must be non-empty for operator ${e.operator}`);
          return;
        }
        if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0) {
          problems.push(`${at}.values must be empty for operator ${e.operator}`);
          return;
        }
        requirements.push({ key: e.key, operator: e.operator, values: [...values] });
      });
    }
  }
  return { requirements: problems.length > 0 ? [] : requirements, problems };
}

/** `labels.Requirement.Matches` for every requirement: true when all hold (an empty list matches everything). */
export function selectorMatches(requirements: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  for (const r of requirements) {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    switch (r.operator) {
      case 'In':
        if (!has || !r.values.includes(labels[r.key])) return false;
        break;
      case 'NotIn':
        if (has && r.values.includes(labels[r.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
    }
  }
  return true;
}

/** One line for a selector in paths, e.g. `{}` or `{a=b, c in (x,y), !d}` (the `labels.Selector.String` form). */
export function formatLabelSelector(requirements: readonly LabelRequirement[]): string {
  if (requirements.length === 0) return '{} (every ClusterRole)';
  return `{${requirements.map((r) => {
    switch (r.operator) {
      case 'In': return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`;
      case 'NotIn': return `${r.key} notin (${r.values.join(',')})`;
      case 'Exists': return r.key;
      default: return `!${r.key}`;
    }
  }).join(', ')}}`;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
