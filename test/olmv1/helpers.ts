// Test helpers for the OLM v1 constructs: CRD schema + CEL rule validation, and admission-policy evaluation with
// the real CEL engine (@bufbuild/cel), as the API server runs them.
import * as fs from 'fs';
import * as path from 'path';
import { celMethod, CelScalar, run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { App, Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { SchemaValidator } from '../util/schema-validator';

const ROOT = path.resolve(__dirname, '..', '..');

/** SchemaValidator over the v0 CRDs plus the OLM v1 CRDs of crds/olm-v1. */
export const validator = new SchemaValidator({
  crdDirs: [path.join(ROOT, 'crds', 'olm'), path.join(ROOT, 'crds', 'openshift'), path.join(ROOT, 'crds', 'olm-v1')],
});

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
const FUNCS = [...strings, find];

/** One CEL rule evaluated as the API server does for a CRD (`self` bound to the value), with Kubernetes' functions. */
export function evalCelRule(rule: string, self: any): unknown {
  return run(rule, { self: toCel(self) }, { funcs: FUNCS });
}

/**
 * The CRD's x-kubernetes-validations rules that apply to `obj` (create: rules using oldSelf are transition rules,
 * skipped), each evaluated with `self` bound to its value. Returns the messages of failing rules.
 */
export function crdRuleFailures(obj: any): string[] {
  const crd = crds().get(obj.kind);
  if (!crd) throw new Error(`no OLM v1 CRD for ${obj.kind}`);
  const out: string[] = [];
  const walk = (schema: any, value: any, at: string) => {
    if (value === undefined || schema === undefined) return;
    for (const rule of schema['x-kubernetes-validations'] ?? []) {
      if (/\boldSelf\b/.test(rule.rule)) continue;
      if (run(rule.rule, { self: toCel(value) }, { funcs: FUNCS }) !== true) out.push(`${at}: ${rule.message}`);
    }
    if (schema.properties && value && typeof value === 'object') {
      for (const [k, sub] of Object.entries<any>(schema.properties)) walk(sub, value[k], `${at}.${k}`);
    }
    if (schema.items && Array.isArray(value)) value.forEach((v, i) => walk(schema.items, v, `${at}[${i}]`));
  };
  walk(crd, obj, '');
  return out;
}

let crdCache: Map<string, any> | undefined;
function crds(): Map<string, any> {
  if (crdCache) return crdCache;
  crdCache = new Map();
  const dir = path.join(ROOT, 'crds', 'olm-v1');
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))) {
      const crd = doc.toJSON();
      crdCache.set(crd.spec.names.kind, crd.spec.versions.find((v: any) => v.name === 'v1').schema.openAPIV3Schema);
    }
  }
  return crdCache;
}

/** Evaluates a ValidatingAdmissionPolicy spec as the API server does: match conditions, variables, validations. */
export function admit(spec: any, request: any, object: any, oldObject: any = null): { matched: boolean; denied: string[] } {
  const cel = (x: any) => (x === null ? null : toCel(x));
  const bindings = { request: toCel(request), object: cel(object), oldObject: cel(oldObject) };
  const opts = { funcs: FUNCS };
  const matched = (spec.matchConditions ?? []).every((c: any) => run(c.expression, bindings, opts) === true);
  if (!matched) return { matched, denied: [] };
  const variables = new Map<string, any>();
  for (const v of spec.variables ?? []) {
    const value = run(v.expression, { ...bindings, variables }, opts);
    const failed = value && typeof value === 'object' && 'message' in value && !(value instanceof Map) && !Array.isArray(value);
    if (value instanceof Error || failed) {
      throw new Error(`variable ${v.name} failed: ${String((value as any).message)}`);
    }
    variables.set(v.name, value);
  }
  const denied: string[] = [];
  for (const val of spec.validations) {
    const ok = run(val.expression, { ...bindings, variables }, opts);
    if (ok !== true) {
      if (ok !== false) throw new Error(`validation ${val.expression} did not return a bool: ${String((ok as any)?.message ?? ok)}`);
      denied.push(val.messageExpression ? String(run(val.messageExpression, { ...bindings, variables }, opts)) : val.message);
    }
  }
  return { matched, denied };
}

/** A fresh app and chart. */
export function appAndChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

/** Every validation error of the App, in tree order. */
export function synthErrors(app: App): string[] {
  return app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}
