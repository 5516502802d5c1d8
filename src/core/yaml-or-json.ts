/**
 * Internal (not exported from the package): decoding of manifests and catalog files the way OLM and opm decode
 * them, with limits, for `OperatorBundle` and `FileBasedCatalog`.
 *
 * Upstream decoders this follows:
 * - k8s.io/apimachinery `pkg/util/yaml/decoder.go` `NewYAMLOrJSONDecoder`: a stream whose first non-space
 *   character is `{` is a JSON stream (Go `encoding/json`), anything else is YAML split into documents by
 *   `YAMLReader` at lines that are `---` (plus trailing spaces); empty chunks are skipped. Each YAML chunk is
 *   converted by sigs.k8s.io/yaml over go-yaml v2: duplicate mapping keys are accepted and the LAST one wins (Go's
 *   `encoding/json` does the same for JSON), `<<` merge keys are resolved in go-yaml v2's order (a merge
 *   overwrites the keys written before it: `resolveMergeKeysAsGoYamlV2`), a leading byte-order mark is dropped
 *   (go-yaml `yaml_parser_determine_encoding`); CRLF line ends are line ends.
 * - operator-registry `pkg/registry/decode.go` / `pkg/configmap/configmap.go` `DecodeUnstructured` and OLM
 *   `resolver/steps.go` `NewStepResourceFromBundle`: a bundle manifest file is decoded ONCE, so only its first
 *   document is an object of the bundle ("found more than one document inside %s, using only the first one").
 *
 * Nothing here throws for bad input: problems come back as values, with 1-based lines, on one line each.
 */
import * as fs from 'fs';
import type { Document, LineCounter, Tags } from 'yaml';
import { FastYaml, FastYamlSchema } from './fast-yaml';
import { goYamlNumber } from './go-yaml-numbers';
import { yamlModule } from './yaml-module';

/** `yaml`, loaded when first needed (a program that reads no YAML never loads it; see yaml-module.ts). */
function yamlLib(): typeof import('yaml') {
  return yamlModule();
}

/** Documented limits of the loaders (docs/preflight.md, docs/catalog.md). */
export const LOADER_LIMITS = {
  /**
   * Bytes of one bundle manifest file (or of a YAML text given to `OperatorBundle.fromCsvYaml`). etcd refuses
   * requests over 1.5 MiB (`--max-request-bytes`), so no real manifest comes near.
   */
  manifestBytes: 16 * 1024 * 1024,
  /** Bytes of one file-based catalog file (`opm render` output of the largest community packages is far smaller). */
  catalogFileBytes: 256 * 1024 * 1024,
  /** Alias expansions per YAML document (the yaml library's `maxAliasCount`): a YAML alias bomb stops here. */
  aliasCount: 1000,
  /**
   * Nesting depth of one value (objects and lists). Go's `encoding/json`, which OLM decodes every manifest with,
   * stops at 10000; this library stops much earlier, so that every later step (writing catalogs as JSON or YAML)
   * stays far within the JavaScript stack. Real manifests (CRD schemas included) stay under 100.
   */
  depth: 256,
  /** Policy rules of one bundle (CSV permissions and clusterPermissions, and Roles / ClusterRoles it ships). */
  bundleRules: 5000,
};

/** One problem, at a 1-based line of the decoded text. */
export interface DecodeFinding {
  readonly line: number;
  readonly message: string;
}

/** One decoded document: a value, or an error; plus warnings (duplicate keys). */
export interface DecodedDocument {
  /** 1-based line where the document's content starts. */
  readonly line: number;
  /** The value (undefined when `error` is set; null for an empty document). */
  readonly value?: unknown;
  /** Why the document could not be decoded. */
  readonly error?: DecodeFinding;
  /** Things OLM accepts but deserve a word (duplicate keys). */
  readonly warnings: DecodeFinding[];
}

/** A value shown on one line, shortened: raw newlines and other control characters escaped (JSON style). */
export function oneLine(v: unknown, max = 80): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    try {
      s = String(v);
    } catch {
      s = Object.prototype.toString.call(v);
    }
  }
  return clip(escapeControl(s), max);
}

/**
 * What a one-line message must not hold as is: C0 and C1 controls and DEL, every character a YAML 1.1 reader
 * (go-yaml v2 `is_break`: U+0085, U+2028, U+2029) or a terminal takes as a line break, BOM and the noncharacters
 * U+FFFE/U+FFFF, and lone surrogates (no UTF-8 form). A U+0085 in a quoted file name
 * would otherwise end a `#` comment line early.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text of an open file, read up to `limit` bytes whatever `stat` says (files of /proc report size 0, a FIFO
 * never ends); undefined when the file holds more than `limit` bytes.
 */
export function readAtMost(fd: number, limit: number): string | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, limit + 1 - total), null);
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
    if (total > limit) return undefined;
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Escapes raw newlines and other control characters (JSON style), so the text stays on one line. */
export function escapeControl(s: string): string {
  return s.replace(UNSAFE_IN_ONE_LINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Nesting depth of a JSON-like value, computed without recursion; stops counting past `limit`. */
export function depthOf(value: unknown, limit: number = LOADER_LIMITS.depth): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  return max;
}

/** Byte size of text, or a message when it is over `limit`. */
export function sizeProblem(text: string, limit: number): string | undefined {
  // Cheap first: UTF-8 takes at least one byte per UTF-16 unit and at most three.
  if (text.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? `file is ${bytes} bytes, over the limit of ${limit} bytes` : undefined;
}

const DEPTH_MESSAGE = `nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`;

/** Drops a leading byte-order mark, as go-yaml does. */
function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The scalar resolution of go-yaml v2 (`resolve.go`), which sigs.k8s.io/yaml uses: YAML 1.1 booleans (`yes`, `no`,
 * `on`, `off`, `y`, `n` in any of their cases) and nulls from the yaml library's YAML 1.1 schema; numbers exactly as
 * resolve.go reads them (`goYamlNumber`: Go's base prefixes, `0755` octal, `_` anywhere, the signed `0b` fallback),
 * in place of the schema's int and float tags, which differ; plain scalars are never sexagesimal numbers
 * (`190:20:30` stays a string). Timestamps stay strings here (go-yaml turns them into time values that
 * sigs.k8s.io/yaml writes back as RFC 3339 strings).
 */
function goYamlV2Tags(tags: Tags): Tags {
  const kept = tags.filter((t) => (typeof t === 'string'
    ? !['timestamp', 'intTime', 'floatTime', 'int', 'intBin', 'intOct', 'intHex', 'float', 'floatExp'].includes(t)
    : t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME'
      // numbers as go-yaml reads them (GO_YAML_NUMBER_TAGS); `.inf` / `.nan` stay `yaml`'s (floatNaN)
      && t.tag !== INT_TAG && !(t.tag === FLOAT_TAG && !(t.test?.test('.nan') ?? false))));
  return [...kept, ...GO_YAML_NUMBER_TAGS];
}

const INT_TAG = 'tag:yaml.org,2002:int';
const FLOAT_TAG = 'tag:yaml.org,2002:float';

/** A tag test that asks `goYamlNumber` (`yaml` and FastYaml call `tag.test.test(value)`). */
class GoYamlNumberTest extends RegExp {
  constructor(private readonly integer: boolean) {
    super('(?:)');
  }

  public test(value: string): boolean {
    const n = goYamlNumber(value);
    return n !== undefined && Number.isInteger(n) === this.integer;
  }
}

/**
 * go-yaml v2's ints and floats (`goYamlNumber`) as two `yaml` scalar tags, in place of the YAML 1.1 schema's. Which
 * of the two only decides the tag `yaml` records; the value is go-yaml's either way. (A float with an integral value,
 * `1.0` or `1e3`, is tagged int here: the JSON the API server sees is the same number.)
 */
const GO_YAML_NUMBER_TAGS = [true, false].map((integer) => ({
  identify: (v: unknown) => typeof v === 'number',
  default: true,
  tag: integer ? INT_TAG : FLOAT_TAG,
  test: new GoYamlNumberTest(integer),
  resolve: (value: string) => goYamlNumber(value),
}));

/**
 * Every YAML document of `text` (FBC YAML files, YAML given as text), with go-yaml v2's scalar resolution (see
 * `goYamlV2Tags`). Empty documents come back with the value null. Duplicate keys: the last wins, with a warning.
 * `<<` merge keys are resolved as go-yaml v2 resolves them (`resolveMergeKeysAsGoYamlV2`: a merge overwrites the
 * keys written before it).
 */
export function decodeYamlDocuments(text: string): DecodedDocument[] {
  // plain block YAML (bundle manifests, CRDs): the same values and warnings, several times faster (see FastYaml)
  fastSchema ??= FastYaml.schemaOf(goYamlV2Tags);
  const fast = FastYaml.read(stripBom(text), fastSchema, { ...YAML_OPTIONS });
  if (fast !== undefined) {
    const line = fast.line;
    const warnings = fast.duplicates.map((d) => ({ line: d.line, message: duplicateKeyMessage(d.key) }));
    if (depthOf(fast.value) > LOADER_LIMITS.depth) return [{ line, error: { line, message: DEPTH_MESSAGE }, warnings }];
    return [{ line, value: fast.value ?? null, warnings }];
  }
  return decodeYamlDocumentsWithYaml(text);
}

/** `decodeYamlDocuments` through `yaml` alone (the reference `FastYaml` is tested against). */
export function decodeYamlDocumentsWithYaml(text: string): DecodedDocument[] {
  const { LineCounter: Lines, parseAllDocuments } = yamlLib();
  const lineCounter = new Lines();
  let docs: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(stripBom(text), { ...YAML_OPTIONS, lineCounter });
    docs = Array.isArray(parsed) ? parsed : [parsed as any];
  } catch (e) {
    return [{ line: 1, error: { line: 1, message: yamlMessage(e) }, warnings: [] }];
  }
  return docs.map((doc) => yamlDocument(doc, lineCounter));
}

/** The options of `decodeYamlDocuments` (without its line counter). */
const YAML_OPTIONS = {
  version: '1.2' as const,
  schema: 'yaml-1.1',
  customTags: goYamlV2Tags,
  merge: true,
  uniqueKeys: false,
  prettyErrors: false,
};
let fastSchema: FastYamlSchema | undefined;

function duplicateKeyMessage(k: string): string {
  return `duplicate key ${oneLine(k)}: the last value wins, as in OLM and opm (sigs.k8s.io/yaml over go-yaml v2 and Go encoding/json accept duplicate keys)`;
}

function yamlMessage(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  const first = raw.split('\n')[0];
  if (/Maximum call stack/i.test(first) || e instanceof RangeError) return DEPTH_MESSAGE;
  if (/alias/i.test(first) && (e instanceof ReferenceError || /Excessive alias count/.test(first))) {
    return `YAML aliases expand to too much data (over ${LOADER_LIMITS.aliasCount} alias expansions: a YAML alias bomb?)`;
  }
  return `malformed YAML: ${clip(escapeControl(first), 200)}`;
}

function yamlDocument(doc: Document.Parsed, lineCounter: LineCounter): DecodedDocument {
  const start = (doc.contents as any)?.range?.[0] ?? doc.range?.[0] ?? 0;
  const line = lineCounter.linePos(start).line;
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    // The error's own line when it lies inside the document (an unclosed bracket is reported where the next
    // document starts: then the document's first line).
    const inside = Array.isArray(err.pos) && Array.isArray(doc.range) && err.pos[0] >= doc.range[0] && err.pos[0] < doc.range[2];
    const errLine = inside ? lineCounter.linePos(err.pos[0]).line : line;
    return { line, error: { line: errLine, message: yamlMessage(err) }, warnings: [] };
  }
  const warnings = duplicateKeys(doc, lineCounter);
  const mergeProblem = resolveMergeKeysAsGoYamlV2(doc);
  if (mergeProblem !== undefined) return { line, error: { line, message: mergeProblem }, warnings };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: LOADER_LIMITS.aliasCount });
  } catch (e) {
    return { line, error: { line, message: yamlMessage(e) }, warnings };
  }
  if (depthOf(value) > LOADER_LIMITS.depth) return { line, error: { line, message: DEPTH_MESSAGE }, warnings };
  return { line, value: value ?? null, warnings };
}

/** Pairs that merge keys of one document may copy (a merge-key bomb stops here, like an alias bomb). */
const MERGED_PAIRS_LIMIT = 100000;

/** A plain `<<` key (a quoted '<<' is an ordinary key, in go-yaml v2 as in `yaml`). */
function isMergeKeyNode(key: unknown): boolean {
  const { isScalar } = yamlLib();
  if (!isScalar(key) || (key.type !== undefined && key.type !== 'PLAIN')) return false;
  const v = key.value;
  return v === '<<' || (typeof v === 'symbol' && v.description === '<<');
}

/**
 * Rewrites every mapping of `doc` that has `<<` merge keys into the mapping go-yaml v2 decodes (`decode.go`
 * `d.mapping` / `d.merge`, what sigs.k8s.io/yaml, kubectl, OLM v0 and operator-controller read with): the pairs are
 * applied in order into one map, a merge at its place, so a merged key OVERWRITES an explicit key written before the
 * `<<` (and a later explicit key overwrites the merged one); a sequence of maps is merged from its last item to its
 * first (earlier maps win). `yaml` itself never lets a merge overwrite a key, which is YAML 1.1's text but not what
 * Kubernetes reads: `serviceAccountName: op` followed by `<<: {serviceAccountName: team-a}` is `team-a` for OLM.
 * Returns go-yaml's message when a merge value is not a map or a sequence of maps. Mutates the syntax tree only.
 */
function resolveMergeKeysAsGoYamlV2(doc: Document.Parsed): string | undefined {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  let copied = 0;
  const WANT_MAP = 'malformed YAML: map merge requires map or sequence of maps as the value (go-yaml v2, as OLM and kubectl read it)';
  const resolve = (n: unknown): unknown => (isAlias(n) ? n.resolve(doc) : n);
  // post-order: an anchored map is rewritten before any alias to it (anchors come first in the text)
  const visit = (node: unknown, seen: Set<unknown>): string | undefined => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return undefined;
    seen.add(node);
    if (isSeq(node)) {
      for (const item of node.items) {
        const p = isPair(item) ? visit(item.key, seen) ?? visit(item.value, seen) : visit(item, seen);
        if (p) return p;
      }
      return undefined;
    }
    if (!isMap(node)) return undefined;
    let hasMerge = false;
    for (const pair of node.items) {
      const p = visit(pair.key, seen) ?? visit(pair.value, seen);
      if (p) return p;
      if (isMergeKeyNode(pair.key)) hasMerge = true;
    }
    if (!hasMerge) return undefined;
    const out: any[] = [];
    for (const pair of node.items) {
      if (!isMergeKeyNode(pair.key)) {
        out.push(pair);
        continue;
      }
      const value = resolve(pair.value);
      // go-yaml v2 d.merge: a map, an alias to a map, or a sequence (not an alias to one) of maps and aliases to maps
      const sources = isMap(value) ? [value] : isSeq(value) && !isAlias(pair.value) ? [...value.items].reverse().map(resolve) : undefined;
      if (sources === undefined || sources.some((m) => !isMap(m))) return WANT_MAP;
      for (const m of sources as any[]) {
        copied += m.items.length;
        if (copied > MERGED_PAIRS_LIMIT) return `YAML merge keys copy too much data (over ${MERGED_PAIRS_LIMIT} merged pairs: a YAML merge bomb?)`;
        out.push(...m.items);
      }
    }
    // the last pair of each key wins, as in go-yaml's map: keep only it (the value is the same, the work is not)
    const lastOf = new Map<string, number>();
    const keyOf = (k: unknown) => (isScalar(k) && ['string', 'number', 'boolean'].includes(typeof k.value) ? `${typeof k.value}:${String(k.value)}` : undefined);
    out.forEach((pair, i) => {
      const k = keyOf(pair.key);
      if (k !== undefined) lastOf.set(k, i);
    });
    node.items = out.filter((pair, i) => {
      const k = keyOf(pair.key);
      return k === undefined || lastOf.get(k) === i;
    });
    return undefined;
  };
  return visit(doc.contents, new Set());
}

/** Duplicate scalar keys of every mapping of the document (iterative walk; aliases are not followed). */
function duplicateKeys(doc: Document.Parsed, lineCounter: LineCounter): DecodeFinding[] {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const out: DecodeFinding[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number' || typeof key.value === 'boolean')) {
          const k = String(key.value);
          if (k === '<<' && !key.type?.startsWith('QUOTE')) {
            // merge keys may repeat
          } else if (seen.has(k)) {
            const l = key.range ? lineCounter.linePos(key.range[0]).line : 0;
            out.push({ line: l, message: duplicateKeyMessage(k) });
          }
          seen.add(k);
        }
        if (!isAlias(pair.value)) stack.push(pair.value);
        if (!isScalar(key) && !isAlias(key)) stack.push(key);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) stack.push(item.key, item.value);
        else if (!isAlias(item)) stack.push(item);
      }
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** Result of scanning one JSON value: where it ends, its depth, and duplicate keys. */
interface JsonScan {
  /** Index after the value (text.length when unterminated). */
  readonly end: number;
  /** Line after the value. */
  readonly endLine: number;
  readonly depth: number;
  readonly duplicates: DecodeFinding[];
}

/**
 * Scans one JSON value starting at `start` (a non-space character) without recursion: its end, nesting depth and
 * duplicate object keys. Does not validate: `JSON.parse` does that on the slice.
 */
function scanJson(text: string, start: number, line: number): JsonScan {
  const n = text.length;
  let i = start;
  let depth = 0;
  let maxDepth = 0;
  const duplicates: DecodeFinding[] = [];
  // per open container: its keys (objects) and whether the next string is a key
  const frames: Array<{ keys?: Set<string>; expectKey: boolean }> = [];
  const isDelimiter = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',' || c === ']' || c === '}' || c === '{' || c === '[' || c === '"';
  for (; i < n; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === '"') {
      const from = i + 1;
      let escaped = false;
      let j = from;
      for (; j < n; j++) {
        const ch = text[j];
        if (ch === '\n') line++;
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') break;
      }
      const top = frames[frames.length - 1];
      if (top?.keys && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1));
        } catch {
          key = text.slice(from, j);
        }
        if (top.keys.has(key)) {
          duplicates.push({ line, message: `duplicate key ${oneLine(key)}: the last value wins, as in OLM and opm (Go encoding/json accepts duplicate keys)` });
        }
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
      if (depth === 0) return { end: Math.min(j + 1, n), endLine: line, depth: maxDepth, duplicates };
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      frames.push(c === '{' ? { keys: new Set(), expectKey: true } : { expectKey: false });
      continue;
    }
    if (c === '}' || c === ']') {
      depth--;
      frames.pop();
      if (depth <= 0) return { end: i + 1, endLine: line, depth: maxDepth, duplicates };
      continue;
    }
    if (c === ',') {
      const top = frames[frames.length - 1];
      if (top?.keys) top.expectKey = true;
      continue;
    }
    if (depth === 0) {
      // a top-level scalar: up to the next delimiter
      let j = i;
      while (j < n && !isDelimiter(text[j])) j++;
      return { end: Math.max(j, i + 1), endLine: line, depth: 0, duplicates };
    }
  }
  return { end: n, endLine: line, depth: maxDepth, duplicates };
}

/**
 * A stream of JSON values (FBC `.json` files, as `opm render` writes them): each value with its line. Stops at the
 * first malformed value (the rest of the stream cannot be trusted; Go's json.Decoder stops there too).
 */
export function decodeJsonValues(text: string, firstOnly = false): DecodedDocument[] {
  const out: DecodedDocument[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const startLine = line;
    const scan = scanJson(text, i, line);
    if (scan.depth > LOADER_LIMITS.depth) {
      out.push({ line: startLine, error: { line: startLine, message: DEPTH_MESSAGE }, warnings: [] });
      return out;
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, scan.end));
    } catch (e) {
      out.push({ line: startLine, error: { line: startLine, message: `malformed JSON: ${clip(escapeControl((e as Error).message), 200)}` }, warnings: [] });
      return out;
    }
    out.push({ line: startLine, value, warnings: scan.duplicates });
    if (firstOnly) return out;
    i = scan.end;
    line = scan.endLine;
  }
  return out;
}

/** What OLM reads from one bundle manifest file. */
export interface DecodedManifestFile {
  /** The first document, as OLM decodes it (undefined when the file holds no document). */
  readonly document?: DecodedDocument;
  /** Number of further documents that OLM ignores. */
  readonly ignoredDocuments: number;
}

/**
 * One bundle manifest file as OLM decodes it (`NewYAMLOrJSONDecoder`, one `Decode`): JSON when the first
 * non-space character is `{` (first value only), else the first `---`-separated chunk of YAML.
 */
export function decodeManifestFile(raw: string): DecodedManifestFile {
  const text = stripBom(raw);
  if (/^\s*\{/.test(text)) {
    const docs = decodeJsonValues(text, true);
    const rest = docs.length > 0 && docs[0].error === undefined ? text.slice(endOfFirstJson(text)) : '';
    return { document: docs[0], ignoredDocuments: /\S/.test(rest) ? 1 : 0 };
  }
  const chunks = yamlChunks(text);
  if (chunks.length === 0) return { ignoredDocuments: 0 };
  const first = chunks[0];
  if (first.error !== undefined) {
    return { document: { line: first.line, error: { line: first.line, message: `malformed YAML: ${first.error}` }, warnings: [] }, ignoredDocuments: 0 };
  }
  const docs = decodeYamlDocuments(first.text);
  const doc = docs[0] ?? { line: 1, value: null, warnings: [] };
  const shift = (x: DecodeFinding): DecodeFinding => ({ line: x.line + first.line - 1, message: x.message });
  return {
    document: {
      line: doc.line + first.line - 1,
      ...(doc.error ? { error: shift(doc.error) } : { value: doc.value }),
      warnings: doc.warnings.map(shift),
    },
    ignoredDocuments: chunks.length - 1 + Math.max(0, docs.length - 1),
  };
}

function endOfFirstJson(text: string): number {
  const i = text.search(/\S/);
  return scanJson(text, i, 1).end;
}

/**
 * apimachinery `YAMLReader.Read`: chunks separated by lines starting with `---` followed only by spaces or a
 * comment; any other text after `---` is an error ("invalid Yaml document separator"); empty chunks are skipped.
 */
function yamlChunks(text: string): Array<{ text: string; line: number; error?: string }> {
  const out: Array<{ text: string; line: number; error?: string }> = [];
  // bufio.Reader.ReadLine drops "\r\n" as well as "\n"
  const lines = text.split(/\r?\n/);
  let buf: string[] = [];
  let bufLine = 1;
  for (let idx = 0; idx < lines.length; idx++) {
    const l = lines[idx];
    if (l.startsWith('---')) {
      const rest = l.slice(3).trim();
      if (rest !== '' && !rest.startsWith('#')) {
        out.push({ text: buf.join('\n'), line: buf.length > 0 ? bufLine : idx + 1, error: `invalid YAML document separator at line ${idx + 1}: ${oneLine(l)}` });
        return out;
      }
      if (buf.length > 0) out.push({ text: buf.join('\n'), line: bufLine });
      buf = [];
      continue;
    }
    // the last element of split is '' when the text ends with a newline: not a line of its own
    if (idx === lines.length - 1 && l === '') break;
    if (buf.length === 0) bufLine = idx + 1;
    buf.push(l);
  }
  if (buf.length > 0) out.push({ text: buf.join('\n'), line: bufLine });
  return out;
}

/**
 * Every document of a manifest stream as kubectl reads `-f FILE` (apimachinery `NewYAMLOrJSONDecoder`, `Decode`
 * until EOF, as `kubectl apply` does through the resource builder): a JSON stream when the first non-space character
 * is `{`, else the `---`-separated chunks of `YAMLReader`, each decoded by sigs.k8s.io/yaml (go-yaml v2 scalars).
 * Empty chunks come back with the value null; a bad separator ends the stream with an error.
 */
export function decodeManifestStream(raw: string): DecodedDocument[] {
  const text = stripBom(raw);
  if (/^\s*\{/.test(text)) return decodeJsonValues(text);
  const out: DecodedDocument[] = [];
  for (const chunk of yamlChunks(text)) {
    if (chunk.error !== undefined) {
      out.push({ line: chunk.line, error: { line: chunk.line, message: `malformed YAML: ${chunk.error}` }, warnings: [] });
      break;
    }
    const shift = (x: DecodeFinding): DecodeFinding => ({ line: x.line + chunk.line - 1, message: x.message });
    for (const doc of decodeYamlDocuments(chunk.text)) {
      out.push({
        line: doc.line + chunk.line - 1,
        ...(doc.error ? { error: shift(doc.error) } : { value: doc.value }),
        warnings: doc.warnings.map(shift),
      });
    }
  }
  return out;
}
