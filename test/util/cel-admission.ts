/**
 * ValidatingAdmissionPolicy evaluation with a real CEL engine (@bufbuild/cel), as the API server runs a policy
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating and generic/policy_matcher.go): the policy's
 * `matchConstraints` and the binding's `matchResources` (test/util/admission-matching.ts: operations, resource rules
 * with names and scope, excluded rules, namespace and object selectors, match policy; the API's defaults applied),
 * then the match conditions (any false: no match; otherwise an error fails), then variables in order, then each
 * validation. Strict: an expression that fails to evaluate (a missing field, a type error, a non-bool result) FAILS the
 * test with the expression and the error, and so does a request the matching cannot decide (no resource, a namespace
 * whose labels are unknown, an object the API server would convert). A broken policy is never mistaken for a denial
 * (the API server would apply failurePolicy, not the validation's message) nor for a match that did not happen.
 */
import { celMethod, CelScalar, run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import {
  AdmissionAttributes, EquivalentResources, isExemptAdmissionConfiguration, MatchResources, matches, withMatchResourcesDefaults,
} from './admission-matching';

/** JSON -> CEL input (objects become Maps, integers BigInt), as the API server presents them to CEL. */
export function toCel(v: any): any {
  if (Array.isArray(v)) return v.map(toCel);
  if (v && typeof v === 'object') return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return v;
}

/** Kubernetes' CEL regex library `find` (k8s.io/apiserver/pkg/cel/library/regex.go): the first match, or ''. */
const find = celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (this: any, re: string) {
  const m = new RegExp(re).exec(this);
  return m ? m[0] : '';
});

/** The functions of Kubernetes' CEL environment the policies use: ext.Strings and the regex library's `find`. */
export const CEL_FUNCS = [...strings, find];

/** An evaluation error (@bufbuild/cel returns errors as values): an object with a message, not a CEL map or list. */
function isError(value: unknown): boolean {
  return value instanceof Error
    || (value !== null && typeof value === 'object' && 'message' in value && !(value instanceof Map) && !Array.isArray(value));
}

/** Evaluates `expression`; an evaluation error throws, naming the expression (the test fails). */
export function evaluate(expression: string, bindings: Record<string, unknown>): unknown {
  const value = run(expression, bindings as Record<string, any>, { funcs: CEL_FUNCS });
  if (isError(value)) throw new Error(`CEL evaluation error in ${JSON.stringify(expression)}: ${String((value as any).message)}`);
  return value;
}

/** Evaluates a boolean `expression`; anything but true or false throws. */
export function evaluateBool(expression: string, bindings: Record<string, unknown>): boolean {
  const value = evaluate(expression, bindings);
  if (typeof value !== 'boolean') throw new Error(`CEL expression ${JSON.stringify(expression)} returned ${String(value)}, not a bool`);
  return value;
}

/** What the policy decides for one request. */
export interface Admission {
  /** Whether the policy (and its binding) applies: its constraints matched and every match condition held. */
  readonly matched: boolean;
  /** The messages of the validations that returned false, in order (empty when not matched). */
  readonly denied: string[];
}

/** What the API server knows besides the request: the binding, the namespaces' labels, the API's equivalences. */
export interface AdmitOptions {
  /**
   * The binding's `spec`; its `matchResources` narrow the policy's match.
   * @default - a binding without matchResources
   */
  readonly binding?: { matchResources?: MatchResources };
  /**
   * Labels of the namespaces requests are made in.
   * @default - each namespace has the label the API server sets on every Namespace, `kubernetes.io/metadata.name`
   */
  readonly namespaceLabels?: { [namespace: string]: { [key: string]: string } };
  /** @default - CLUSTER_EQUIVALENTS (none across groups on a supported cluster) */
  readonly equivalents?: EquivalentResources;
}

/** The request's attributes for matching: it must name its resource (as the API server's requests always do). */
function attributesOf(request: any, object: any, oldObject: any): AdmissionAttributes {
  const r = request?.resource;
  if (!r || typeof r.group !== 'string' || typeof r.version !== 'string' || typeof r.resource !== 'string') {
    throw new Error(`admit: the request names no resource ({ group, version, resource }), so the policy's matchConstraints cannot be decided: ${JSON.stringify(request)}`);
  }
  if (typeof request.operation !== 'string') throw new Error(`admit: the request has no operation: ${JSON.stringify(request)}`);
  return {
    operation: request.operation,
    resource: r,
    subResource: request.subResource ?? '',
    ...(request.kind ? { kind: request.kind } : {}),
    namespace: request.namespace ?? '',
    name: request.name ?? '',
    object,
    oldObject,
  };
}

/**
 * Evaluates a ValidatingAdmissionPolicy `spec` for `request` (an AdmissionRequest as CEL sees it: `operation`,
 * `resource`, `kind`, `namespace`, `name`, `subResource`, `userInfo`) with `object` (null on DELETE) and `oldObject`
 * (null on CREATE). Every expression must evaluate, and the match must be decidable: an error throws instead of
 * counting as a denial or a non-match.
 */
export function admit(spec: any, request: any, object: any, oldObject: any = null, options: AdmitOptions = {}): Admission {
  const attributes = attributesOf(request, object, oldObject);
  if (isExemptAdmissionConfiguration(attributes)) return { matched: false, denied: [] };
  if (!spec.matchConstraints) throw new Error('admit: the policy has no matchConstraints, a required field (the API server refuses it)');
  const namespaceLabels = (ns: string) => options.namespaceLabels?.[ns] ?? { 'kubernetes.io/metadata.name': ns };
  const context = { namespaceLabels, equivalents: options.equivalents };
  const policyMatch = matches(withMatchResourcesDefaults(spec.matchConstraints), attributes, context);
  if (!policyMatch.matches) return { matched: false, denied: [] };
  const bindingResources = options.binding?.matchResources;
  if (bindingResources && !matches(withMatchResourcesDefaults(bindingResources), attributes, context).matches) return { matched: false, denied: [] };
  const r = policyMatch.resource!;
  if (r.group !== attributes.resource.group || r.version !== attributes.resource.version || r.resource !== attributes.resource.resource) {
    throw new Error(`admit: the policy matches the request as ${r.group}/${r.version} ${r.resource} (an equivalent resource): the API server would convert the objects, which this helper does not`);
  }
  const cel = (x: any) => (x === null || x === undefined ? null : toCel(x));
  const bindings: Record<string, unknown> = { request: toCel(request), object: cel(object), oldObject: cel(oldObject) };
  // match conditions: any false wins (the policy does not apply); otherwise an error is the failure policy's, which
  // a test must never take for a decision
  const conditions = (spec.matchConditions ?? []).map((c: any) => {
    try {
      return { value: evaluateBool(c.expression, bindings) };
    } catch (e) {
      return { error: e as Error };
    }
  });
  if (conditions.some((c: { value?: boolean }) => c.value === false)) return { matched: false, denied: [] };
  const failed = conditions.find((c: { error?: Error }) => c.error !== undefined);
  if (failed) throw failed.error;
  const variables = new Map<string, unknown>();
  for (const v of spec.variables ?? []) variables.set(v.name, evaluate(v.expression, { ...bindings, variables }));
  const denied: string[] = [];
  for (const val of spec.validations ?? []) {
    if (evaluateBool(val.expression, { ...bindings, variables })) continue;
    if (val.messageExpression) {
      const message = evaluate(val.messageExpression, { ...bindings, variables });
      if (typeof message !== 'string') throw new Error(`messageExpression ${JSON.stringify(val.messageExpression)} returned ${String(message)}, not a string`);
      denied.push(message);
    } else {
      denied.push(val.message);
    }
  }
  return { matched: true, denied };
}
