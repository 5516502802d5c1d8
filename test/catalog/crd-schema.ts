/**
 * Test helper: validates objects against a CRD's openAPIV3Schema with ajv, closing every object schema that has
 * `properties` and no `x-kubernetes-preserve-unknown-fields` (the API server prunes or, with strict field
 * validation, rejects unknown fields). Local to the catalog tests; a shared helper may replace it.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseAllDocuments } from 'yaml';

const REPO = path.join(__dirname, '..', '..');

function close(schema: any): any {
  if (Array.isArray(schema)) return schema.map(close);
  if (!schema || typeof schema !== 'object') return schema;
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as any).map(([pk, pv]) => [pk, close(pv)])) : close(v);
  }
  if (out.properties && !out['x-kubernetes-preserve-unknown-fields'] && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

/** A compiled validator for one CRD version; returns ajv's errors as `path message` lines (empty when valid). */
export function crdValidator(crdFile: string, version: string): (obj: any) => string[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(REPO, crdFile), 'utf-8')).map((d) => d.toJS());
  const crd = docs.find((d) => d && d.kind === 'CustomResourceDefinition');
  const v = crd.spec.versions.find((x: any) => x.name === version);
  const schema = close(v.schema.openAPIV3Schema);
  // metadata is `type: object` in CRDs; the API server validates it separately.
  schema.properties.metadata = { type: 'object' };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'int-or-string', 'duration']) ajv.addFormat(f, true);
  const validate = ajv.compile(schema);
  return (obj: any) => {
    if (validate(obj)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}${e.params && (e.params as any).additionalProperty ? ` (${(e.params as any).additionalProperty})` : ''}`);
  };
}
