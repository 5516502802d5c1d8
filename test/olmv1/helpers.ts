// Test helpers for the OLM v1 constructs: CRD schema + CEL rule validation, and admission-policy evaluation with
// the real CEL engine (@bufbuild/cel), as the API server runs them.
import * as fs from 'fs';
import * as path from 'path';
import { run } from '@bufbuild/cel';
import { parseAllDocuments } from 'yaml';
import { Admission, AdmitOptions, admit as admitPolicy, CEL_FUNCS, toCel } from '../util/cel-admission';
import { SchemaValidator } from '../util/schema-validator';

/** The CEL input conversion. */
export { toCel } from '../util/cel-admission';

/** ClusterExtensions (cluster-scoped) as the API server names them in a request. */
export const CLUSTER_EXTENSIONS = { group: 'olm.operatorframework.io', version: 'v1', resource: 'clusterextensions' };

/**
 * The strict admission evaluation (test/util/cel-admission.ts: matchConstraints, match conditions, expressions; an
 * error fails the test) of a request about a ClusterExtension: the request names the resource, no namespace and the
 * object's name, as the API server's requests do (a test's request may say otherwise).
 */
export function admit(spec: any, request: any, object: any, oldObject: any = null, options?: AdmitOptions): Admission {
  const name = (object ?? oldObject)?.metadata?.name ?? '';
  return admitPolicy(spec, { resource: CLUSTER_EXTENSIONS, namespace: '', name, ...request }, object, oldObject, options);
}

const ROOT = path.resolve(__dirname, '..', '..');

/** SchemaValidator over the v0 CRDs plus the OLM v1 CRDs of crds/olm-v1. */
export const validator = new SchemaValidator({
  crdDirs: [path.join(ROOT, 'crds', 'olm'), path.join(ROOT, 'crds', 'openshift'), path.join(ROOT, 'crds', 'olm-v1')],
});

/** One CEL rule evaluated as the API server does for a CRD (`self` bound to the value), with Kubernetes' functions. */
export function evalCelRule(rule: string, self: any): unknown {
  return run(rule, { self: toCel(self) }, { funcs: CEL_FUNCS });
}

/**
 * The CRD's x-kubernetes-validations rules that apply to `obj` (create: rules using oldSelf are transition rules,
 * skipped), each evaluated with `self` bound to its value. Returns the messages of failing rules; a rule that does not
 * evaluate to a bool throws. Not reproduced: the API server's defaulting before validation, rules under
 * `additionalProperties` and `messageExpression` (the OLM v1 CRDs of crds/olm-v1 have neither).
 */
export function crdRuleFailures(obj: any): string[] {
  const crd = crds().get(obj.kind);
  if (!crd) throw new Error(`no OLM v1 CRD for ${obj.kind}`);
  const out: string[] = [];
  const walk = (schema: any, value: any, at: string) => {
    if (value === undefined || schema === undefined) return;
    for (const rule of schema['x-kubernetes-validations'] ?? []) {
      if (/\boldSelf\b/.test(rule.rule)) continue;
      const result = run(rule.rule, { self: toCel(value) }, { funcs: CEL_FUNCS });
      // an evaluation error is the API server's error, not the rule's message: the test fails (issue 41)
      if (typeof result !== 'boolean') throw new Error(`${at}: the rule ${JSON.stringify(rule.rule)} does not evaluate to a bool: ${String((result as any)?.message ?? result)}`);
      if (!result) out.push(`${at}: ${rule.message}`);
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

/** The test App and its validation errors (one definition each, test/util/synth.ts). */
export { appAndChart, validationErrors } from '../util/synth';
