/**
 * Rewrites the JSON conversions of cdk8s-generated L1 classes so that they make no hidden class per object.
 *
 * `cdk8s import` (and cdk8s-plus-28's `k8s` module, made the same way) drops undefined fields with
 * `Object.entries(result).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {})` and adds the
 * group, version and kind with `{ ...X.GVK, ...props }`. On Node 20 (V8 11.3) an object spread in optimized code makes
 * a new hidden class (map and descriptor array, in V8's old generation) on every call: measured 0.2-1.1 KB of old
 * generation per object and `toJson()`, about 30 MB at 5,000 tenants, none of which a young-generation collection
 * frees (docs/scale.md, Memory). Node 22 shares the maps again. The rewrite keeps every result the same: the same
 * keys in the same order with the same values (`__proto__` as an own key, as a spread makes it; a value mapped to
 * `undefined` kept as a key, as the reduce keeps it), tested in test/core/l1-json.test.ts.
 *
 * Used by scripts/import-crds.ts (src/imports/olm.ts, olmv1.ts, openshift.ts) and scripts/k8s-json.ts
 * (src/imports/k8s-json.ts, the conversions of cdk8s-plus-28's L1 classes the library renders, `L1Json`).
 */

/** The helpers the rewritten code calls, inserted once per file (TypeScript). */
export const L1_JSON_HELPERS = `
// Rewritten by scripts/l1-json-rewrite.ts: object spreads made a hidden class per object on Node 20 (see there).
/** \`{ ...r, [k]: v }\` on \`r\` itself: an own data property, \`__proto__\` included. */
function l1SetOwn(r: any, k: string, v: any): void {
  if (k === '__proto__') Object.defineProperty(r, k, { value: v, enumerable: true, writable: true, configurable: true });
  else r[k] = v;
}
/** The defined entries of \`o\` (each mapped by \`f\`), in order, as a new object. */
function l1DefinedEntries(o: any, f?: (v: any) => any): any {
  const r: any = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== undefined) l1SetOwn(r, k, f === undefined ? v : f(v));
  }
  return r;
}
/** \`{ ...gvk, ...o }\` (own enumerable keys, symbols last, as a spread copies them). */
function l1WithGvk(gvk: any, o: any): any {
  const r: any = {};
  for (const k of Object.keys(gvk)) l1SetOwn(r, k, gvk[k]);
  if (o === undefined || o === null) return r;
  for (const k of Object.keys(o)) l1SetOwn(r, k, o[k]);
  for (const s of Object.getOwnPropertySymbols(o)) if (Object.prototype.propertyIsEnumerable.call(o, s)) r[s] = o[s];
  return r;
}
`;

/** `Object.entries(<source>).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: <expr> }), {})`. */
const DEFINED_ENTRIES = /Object\.entries\(([\w.]+)\)\.reduce\(\(r, i\) => \(i\[1\] === undefined\) \? r : \(\{ \.\.\.r, \[i\[0\]\]: (.*?) \}\), \{\}\)/g;
/** `{ ...X.GVK, ...<expr> }` over several lines (constructors, `manifest()`, `toJson()`). */
const WITH_GVK = /\{\s*\.\.\.([\w.]+)\.GVK,\s*\.\.\.([^,{}]+?),?\s*\}/g;

export interface L1JsonRewrite {
  /** The rewritten source. */
  readonly source: string;
  /** How many undefined-dropping reduces were rewritten. */
  readonly definedEntries: number;
  /** How many `{ ...X.GVK, ...props }` were rewritten. */
  readonly withGvk: number;
}

/**
 * The rewritten source of a generated TypeScript module: the reduces and GVK spreads replaced, the helpers inserted
 * after the imports. Throws when a reduce of another form is left (a new cdk8s version: extend the rewrite).
 * Idempotent: a rewritten source comes back unchanged.
 */
export function rewriteL1Json(source: string): L1JsonRewrite {
  let definedEntries = 0;
  let withGvk = 0;
  let out = source.replace(DEFINED_ENTRIES, (_m, from: string, expr: string) => {
    definedEntries++;
    if (expr === 'i[1]') return `l1DefinedEntries(${from})`;
    if (/\bi\[0\]|\br\b/.test(expr)) throw new Error(`l1-json-rewrite: a value expression that reads the key or the result: ${expr}`);
    return `l1DefinedEntries(${from}, (v) => ${expr.replace(/i\[1\]/g, 'v')})`;
  });
  out = out.replace(WITH_GVK, (_m, cls: string, expr: string) => {
    withGvk++;
    return `l1WithGvk(${cls}.GVK, ${expr.trim()})`;
  });
  const left = /\.\.\.r, \[i\[0\]\]|\.\.\.[\w.]+\.GVK/.exec(out);
  if (left) throw new Error(`l1-json-rewrite: a spread of another form is left: ${out.slice(left.index - 80, left.index + 80)}`);
  if ((definedEntries > 0 || withGvk > 0) && !out.includes('function l1SetOwn(')) {
    const lines = out.split('\n');
    let lastImport = -1;
    lines.forEach((l, i) => {
      if (/^import .* from '[^']+';$/.test(l)) lastImport = i;
    });
    lines.splice(lastImport + 1, 0, ...L1_JSON_HELPERS.split('\n'));
    out = lines.join('\n');
  }
  return { source: out, definedEntries, withGvk };
}
