/**
 * ValidatingAdmissionPolicy evaluation with a real CEL engine (@bufbuild/cel), as the API server runs a policy:
 * match conditions, then variables in order, then each validation (k8s.io/apiserver/pkg/admission/plugin/policy/
 * validating). Strict: an expression that fails to evaluate (a missing field, a type error, a non-bool result) FAILS
 * the test with the expression and the error. A broken policy is never mistaken for a denial (the API server would
 * apply failurePolicy, not the validation's message) nor for a match that did not happen.
 */
import { celMethod, CelScalar, run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

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
  /** Whether every match condition held (false: the policy does not apply; denied is then empty). */
  readonly matched: boolean;
  /** The messages of the validations that returned false, in order. */
  readonly denied: string[];
}

/**
 * Evaluates a ValidatingAdmissionPolicy `spec` for `request` with `object` (null on DELETE) and `oldObject` (null on
 * CREATE). Every expression must evaluate: an error throws instead of counting as a denial or a non-match.
 */
export function admit(spec: any, request: any, object: any, oldObject: any = null): Admission {
  const cel = (x: any) => (x === null || x === undefined ? null : toCel(x));
  const bindings: Record<string, unknown> = { request: toCel(request), object: cel(object), oldObject: cel(oldObject) };
  const matched = (spec.matchConditions ?? []).every((c: any) => evaluateBool(c.expression, bindings));
  if (!matched) return { matched, denied: [] };
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
  return { matched, denied };
}
