/**
 * Internal: cdk8s's YAML (`Yaml.stringify`: the `yaml` package, YAML 1.1 schema, `lineWidth: 0`, documents joined
 * by `---`), byte for byte, without building a `yaml` Document per manifest, except where Kubernetes would read it
 * otherwise.
 *
 * Why: writing the YAML was half of a large synth (5,000 tenants: ~3 s of ~6 s), most of it spent building and
 * walking `yaml`'s node tree for plain JSON whose layout is fixed. This writer lays out maps and sequences the way
 * `yaml` does in block style (`stringifyCollection`, `stringifyPair`: two-space indent, sequences indented under
 * their key, empty collections as `{}` / `[]`) and decides each scalar the way `yaml`'s `stringifyString` /
 * `plainString` does: a string is written plain when none of its rules quote it (indicator characters, `: `, ` #`,
 * control characters, and every YAML 1.1 tag that would read it as something else: `yes`, `on`, `1_000`, `2020-01-01`,
 * ...: the tags' own tests are used), and quotes the others as `yaml`'s `quotedString` does. Numbers are rendered by
 * `yaml` itself, once, and remembered.
 *
 * Faithful for Kubernetes' reader (sigs.k8s.io/yaml on go-yaml v2, YAML 1.1; go-yaml.ts): the strings `yaml` writes
 * so that go-yaml reads another value or refuses the file are the exceptions to byte identity (docs/scale.md):
 * plain scalars go-yaml resolves to non-strings (`0X1F`, `0o022`, `yEs`, `<<`, ...) are quoted, and characters
 * `yaml` leaves raw (DEL, C1, U+0085, U+2028, U+2029, BOM, U+FFFE, U+FFFF) are escaped in double quotes. Strings
 * with a lone surrogate cannot be written faithfully: `UnrepresentableYamlError`.
 *
 * Whatever this layout does not cover exactly falls back to `yaml` for the whole document (with the same exceptions,
 * `faithfulYaml`): multi-line strings (block scalars, whose text depends on the indentation), document markers, keys
 * over 1024 characters, `undefined`, objects that are not plain JSON, and the same object reached twice (`yaml`
 * writes anchors). `test/output/yaml-writer.test.ts` compares it with `Yaml.stringify` on every example and on generated
 * documents, and reads its output with kubectl.
 */
import { IConstruct } from 'constructs';
import { GoYaml } from './go-yaml';
import { AppContext, AppSlot } from '../core/app-context';
import { CACHING } from '../core/content-cache';
import { LONE_SURROGATE } from '../core/input-check';
import { cdk8sYamlModule } from '../core/yaml-module';

/** What cdk8s passes to `YAML.stringify` (cdk8s lib/yaml.js `Yaml.stringify`). */
const CDK8S_OPTIONS = { keepUndefined: true, lineWidth: 0, version: '1.1' as const };

/**
 * The `yaml` module cdk8s writes with: cdk8s bundles its own copy, whose tags and number rendering must decide
 * ours (this package's `yaml` dependency may be another version).
 */
const YAML = cdk8sYamlModule();

/** `yaml`'s tags of the YAML 1.1 schema that `plainString` tests a string against (`tag.default`, not `str`). */
const RESOLVING_TAGS: RegExp[] = (() => {
  const schema = new YAML.Document(null, CDK8S_OPTIONS).schema as any;
  const tags: any[] = [...(schema.tags ?? []), ...(schema.compat ?? [])];
  return tags.filter((t) => t.default && t.tag !== 'tag:yaml.org,2002:str' && t.test instanceof RegExp).map((t) => t.test as RegExp);
})();

/** `stringifyString`: control characters and unpaired surrogates force double quotes. */
const FORCES_DOUBLE_QUOTES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;
/** `plainString`: what cannot be written plain. */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** Breaks lines, or depends on the indentation (`containsDocumentMarker`): left to `yaml`. */
const CONTEXT_DEPENDENT = /[\n\r\u0085\u2028\u2029]|^(%|---|\.\.\.)/m;
/** `stringifyPair`: longer keys become explicit (`? key`). */
const MAX_IMPLICIT_KEY = 1024;

/** Thrown inside the writer when a document needs `yaml` itself. */
class NeedsYaml extends Error {}

/** Thrown inside the writer for a string no YAML reader of Kubernetes can read (a lone surrogate). */
class UnrepresentableString extends Error {
  constructor(public readonly value: string) {
    super('unrepresentable string');
  }
}

/** True when `yaml` writes `s` as it is (plain), as a map value, a sequence item or a map key. */
function isPlain(s: string): boolean {
  if (s.length === 0 || NOT_PLAIN.test(s) || FORCES_DOUBLE_QUOTES.test(s)) return false;
  for (const re of RESOLVING_TAGS) if (re.test(s)) return false;
  return true;
}

/**
 * A single-line string that cannot be plain, quoted as `yaml` does (`quotedString`, `doubleQuotedString`,
 * `singleQuotedString` with `singleQuote: null`, no folding at `lineWidth: 0`): single quotes when it holds `"` but
 * no `'`, else double quotes; control characters force double quotes (`stringifyString`). Double quotes are the JSON
 * string with `yaml`'s short forms of `\\u` escapes.
 */
function quoted(s: string): string {
  if (!FORCES_DOUBLE_QUOTES.test(s) && s.includes('"') && !s.includes("'")) return `'${s}'`;
  return GoYaml.doubleQuoted(s);
}

/** The YAML 1.1 merge key: `yaml`'s merge tag identifies the string itself and writes it plain (schema/yaml-1.1/merge.js). */
const MERGE_KEY = '<<';

/**
 * Characters `yaml` writes raw (JSON.stringify leaves them as they are) that go-yaml refuses or reads as line
 * breaks (see `RAW_UNSAFE` in go-yaml.ts); the C0 controls, which `yaml` escapes itself, are not among them.
 */
const NOT_ESCAPED_BY_YAML = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

/**
 * Where this writer departs from cdk8s's bytes (the exceptions documented in docs/scale.md): a string `yaml`
 * writes so that Kubernetes' reader (go-yaml v2, YAML 1.1) would read another value. Returns the faithful form,
 * or `undefined` when `yaml`'s own form is faithful.
 */
function faithfulForm(s: string, plain: boolean): string | undefined {
  if (NOT_ESCAPED_BY_YAML.test(s)) return GoYaml.doubleQuoted(s);
  if (plain && (s === MERGE_KEY || GoYaml.resolvesToNonString(s))) return quoted(s);
  return undefined;
}

/** `yaml`'s rendering of numbers (few distinct values: remembered, bounded). */
const NUMBERS_CACHE = new Map<number, string>();
const NUMBERS_CACHE_MAX = 10_000;

function renderedNumber(n: number): string {
  let r = NUMBERS_CACHE.get(n);
  if (r === undefined) {
    const out = YAML.stringify({ a: n }, CDK8S_OPTIONS);
    if (!out.startsWith('a: ') || !out.endsWith('\n') || out.indexOf('\n') !== out.length - 1) throw new NeedsYaml();
    r = out.slice('a: '.length, -1);
    if (NUMBERS_CACHE.size >= NUMBERS_CACHE_MAX) NUMBERS_CACHE.clear();
    NUMBERS_CACHE.set(n, r);
  }
  return r;
}

/**
 * The written forms of strings met before, as values and as keys: a form depends on the string alone, and a
 * synthesis writes the same few hundred strings (kinds, API groups, verbs, labels) for every tenant. Bounded: short
 * strings only, and the map is emptied when full (the strings of one tenant fill it slowly; the common ones come
 * back at once). A string that throws (needs `yaml`, unrepresentable) is never stored.
 */
class FormCache {
  private readonly forms = new Map<string, string>();
  constructor(private readonly form: (s: string) => string) {}
  public get(s: string): string {
    if (s.length > FORM_CACHE_MAX_LENGTH || !CACHING.enabled) return this.form(s);
    let r = this.forms.get(s);
    if (r === undefined) {
      r = this.form(s);
      if (this.forms.size >= FORM_CACHE_MAX_ENTRIES) this.forms.clear();
      this.forms.set(s, r);
    }
    return r;
  }
}
const FORM_CACHE_MAX_ENTRIES = 4096;
const FORM_CACHE_MAX_LENGTH = 256;

function stringValue(v: string): string {
  if (NOT_PRINTABLE_ASCII.test(v)) {
    if (LONE_SURROGATE.test(v)) throw new UnrepresentableString(v);
    if (NOT_ESCAPED_BY_YAML.test(v)) return GoYaml.doubleQuoted(v);
  }
  if (CONTEXT_DEPENDENT.test(v)) throw new NeedsYaml();
  if (!isPlain(v) && v !== MERGE_KEY) return quoted(v);
  return faithfulForm(v, true) ?? v;
}
const STRING_VALUES = new FormCache(stringValue);

function scalarValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return STRING_VALUES.get(v);
    case 'number':
      // -0 and 0 are one Map key but two renderings
      if (Object.is(v, -0)) throw new NeedsYaml();
      return renderedNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      throw new NeedsYaml();
  }
}

function key(k: string): string {
  return KEYS.get(k);
}

function keyForm(k: string): string {
  if (NOT_PRINTABLE_ASCII.test(k) && LONE_SURROGATE.test(k)) throw new UnrepresentableString(k);
  if (k.length > MAX_IMPLICIT_KEY || (CONTEXT_DEPENDENT.test(k) && !NOT_ESCAPED_BY_YAML.test(k))) throw new NeedsYaml();
  const plain = isPlain(k) || k === MERGE_KEY;
  const r = faithfulForm(k, plain) ?? (plain ? k : quoted(k));
  // `stringifyPair` measures the written key
  if (r.length > MAX_IMPLICIT_KEY) throw new NeedsYaml();
  return r;
}

const KEYS = new FormCache(keyForm);

const OBJECT_PROTO = Object.prototype;

/** Writes JSON documents as `yaml` does. One instance per document (it tracks the objects seen). */
class BlockWriter {
  /** The text, in pieces joined once at the end (fewer intermediate strings than `+=`). */
  private readonly out: string[] = [];
  private readonly seen = new Set<object>();

  public document(doc: unknown): string {
    if (!this.isMap(doc)) throw new NeedsYaml();
    if (Object.keys(doc).length === 0) return '{}\n';
    this.map(doc, '', '');
    return this.out.join('');
  }

  private isMap(v: unknown): v is Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const proto = Object.getPrototypeOf(v);
    return proto === OBJECT_PROTO || proto === null;
  }

  private visit(o: object): void {
    // `yaml` writes an object reached twice as an anchor and aliases
    if (this.seen.has(o)) throw new NeedsYaml();
    this.seen.add(o);
  }

  /** A non-empty map; its first line starts with `first`, the others with `indent`. */
  private map(m: Record<string, unknown>, indent: string, first: string): void {
    this.visit(m);
    let prefix = first;
    for (const k of Object.keys(m)) {
      this.out.push(prefix, key(k), ':');
      this.value(m[k], `${indent}  `);
      prefix = indent;
    }
  }

  /** A non-empty sequence; its first line starts with `first`, the others with `indent`. */
  private seq(s: unknown[], indent: string, first: string): void {
    this.visit(s);
    let prefix = first;
    const inner = `${indent}  `;
    for (const item of s) {
      this.out.push(prefix, '-');
      if (Array.isArray(item)) {
        if (item.length === 0) this.out.push(' []\n');
        else this.seq(item, inner, ' ');
      } else if (typeof item === 'object' && item !== null) {
        if (!this.isMap(item)) throw new NeedsYaml();
        if (Object.keys(item).length === 0) this.out.push(' {}\n');
        else this.map(item, inner, ' ');
      } else {
        this.out.push(' ', scalarValue(item), '\n');
      }
      prefix = indent;
    }
  }

  /** The value of a pair whose key is written; `inner` is the indentation of a block value. */
  private value(v: unknown, inner: string): void {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        this.out.push(' []\n');
      } else {
        this.out.push('\n');
        this.seq(v, inner, inner);
      }
    } else if (typeof v === 'object' && v !== null) {
      if (!this.isMap(v)) throw new NeedsYaml();
      if (Object.keys(v).length === 0) {
        this.out.push(' {}\n');
      } else {
        this.out.push('\n');
        this.map(v, inner, inner);
      }
    } else {
      this.out.push(' ', scalarValue(v), '\n');
    }
  }
}

/**
 * Whether cdk8s's own writer (`Yaml.stringify`) writes `s`, as a key or a value, so that Kubernetes' reader reads
 * another value or refuses the file: a lone surrogate, a character `yaml` leaves raw (DEL, C1, U+2028, U+2029,
 * BOM, U+FFFE, U+FFFF), or a YAML 1.1 scalar (`0X1F`, `yEs`, `<<`, ...) that `yaml` writes plain.
 */
export function cdk8sWritesUnfaithfully(s: string): boolean {
  // most strings are printable ASCII: no surrogate, no character yaml leaves raw
  if (NOT_PRINTABLE_ASCII.test(s) && (LONE_SURROGATE.test(s) || NOT_ESCAPED_BY_YAML.test(s))) return true;
  return s === MERGE_KEY || (GoYaml.resolvesToNonString(s) && isPlain(s));
}

// eslint-disable-next-line no-control-regex
const NOT_PRINTABLE_ASCII = /[^\u0000-\u007e]/;

/** The App's output goes through `YamlWriter` (`TenancyApp`): the library's constructs skip `cdk8sWritesUnfaithfully`. */
const FAITHFUL_WRITER = new AppSlot('faithfulWriter', () => ({ used: false }));

/** Declares that `app`'s output goes through `YamlWriter` (`TenancyApp`'s constructor). */
export function useFaithfulWriter(app: IConstruct): void {
  AppContext.of(app).get(FAITHFUL_WRITER).used = true;
}

/** Whether `scope`'s App writes its output through `YamlWriter` (`useFaithfulWriter`). */
export function writesFaithfully(scope: IConstruct): boolean {
  return AppContext.find(scope, FAITHFUL_WRITER)?.used === true;
}

/** A string of a document that no YAML reader of Kubernetes can read as written (see `YamlWriter.unrepresentable`). */
export interface UnrepresentableValue {
  /** Where it is in the document, e.g. `metadata.annotations["a"]` (`(key)` appended when it is a map key). */
  readonly field: string;
  /** The string. */
  readonly value: string;
}

/**
 * The error `YamlWriter` throws for a document holding a string that cannot be written faithfully: it names the
 * object, the field and the value (callers that know the construct add its path).
 */
export class UnrepresentableYamlError extends Error {
  constructor(public readonly documentIndex: number, public readonly manifest: unknown, public readonly found: UnrepresentableValue) {
    super(`${describeManifest(manifest)} ${found.field}=${JSON.stringify(found.value)}: ${UNREPRESENTABLE_MESSAGE}`);
    this.name = 'UnrepresentableYamlError';
  }
}

export const UNREPRESENTABLE_MESSAGE = 'holds a lone UTF-16 surrogate, which has no UTF-8 encoding: Kubernetes\' YAML reader (go-yaml v2) '
  + 'refuses the file, or the character is replaced, so the cluster would not read the value as written. Fix: remove the character or '
  + 'write the whole surrogate pair (e.g. from String.fromCodePoint)';

function describeManifest(m: any): string {
  const kind = typeof m?.kind === 'string' ? m.kind : 'object';
  const ns = typeof m?.metadata?.namespace === 'string' ? `${m.metadata.namespace}/` : '';
  const name = typeof m?.metadata?.name === 'string' ? m.metadata.name : '';
  return `${kind} ${ns}${name}`.trim();
}

/**
 * cdk8s's YAML of manifests, byte for byte, but for the strings Kubernetes' reader would read differently
 * (go-yaml v2, YAML 1.1: see go-yaml.ts), which are double-quoted with escapes; strings with a lone surrogate are
 * refused (`UnrepresentableYamlError`).
 */
export class YamlWriter {
  /** `Yaml.stringify(...docs)` of cdk8s, made faithful for Kubernetes' reader. */
  public static stringify(docs: unknown[]): string {
    return docs.map((d, i) => YamlWriter.documentAt(d, i)).join('---\n');
  }

  /** One document as cdk8s writes it (`undefined` is an empty document), made faithful. */
  public static document(doc: unknown): string {
    return YamlWriter.documentAt(doc, 0);
  }

  /** The first string of `doc` (values and keys, depth first) that no reader of Kubernetes can read as written. */
  public static unrepresentable(doc: unknown): UnrepresentableValue | undefined {
    return findUnrepresentable(doc, '', new Set());
  }

  /** The document written by this writer alone, or `undefined` when it needs `yaml` (see the file comment). */
  public static withoutYaml(doc: unknown): string | undefined {
    try {
      return new BlockWriter().document(doc);
    } catch (e) {
      if (e instanceof NeedsYaml) return undefined;
      if (e instanceof UnrepresentableString) throw unrepresentableError(doc, 0);
      throw e;
    }
  }

  private static documentAt(doc: unknown, index: number): string {
    if (doc === undefined) return '\n';
    try {
      return new BlockWriter().document(doc);
    } catch (e) {
      if (e instanceof NeedsYaml) return faithfulYaml(doc, index);
      if (e instanceof UnrepresentableString) throw unrepresentableError(doc, index);
      throw e;
    }
  }
}

function unrepresentableError(doc: unknown, index: number): UnrepresentableYamlError {
  const found = YamlWriter.unrepresentable(doc) ?? { field: '', value: '' };
  return new UnrepresentableYamlError(index, doc, found);
}

/** The path of key `k` of the map at `at`, as findings name a field: `a.b`, or `a["b/c"]` for other keys. */
export function fieldPath(at: string, k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? (at ? `${at}.${k}` : k) : `${at}[${JSON.stringify(k)}]`;
}

function findUnrepresentable(v: unknown, at: string, seen: Set<object>): UnrepresentableValue | undefined {
  if (typeof v === 'string') return LONE_SURROGATE.test(v) ? { field: at, value: v } : undefined;
  if (typeof v !== 'object' || v === null || seen.has(v)) return undefined;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = findUnrepresentable(v[i], `${at}[${i}]`, seen);
      if (found) return found;
    }
    return undefined;
  }
  for (const k of Object.keys(v)) {
    const field = fieldPath(at, k);
    if (LONE_SURROGATE.test(k)) return { field: `${field} (key)`, value: k };
    const found = findUnrepresentable((v as any)[k], field, seen);
    if (found) return found;
  }
  return undefined;
}

/**
 * `yaml`'s text of a document this writer does not lay out itself, made faithful: strings go-yaml would read
 * otherwise are given a quoted style before `yaml` writes them, and the characters `yaml` leaves raw inside double
 * quotes are escaped afterwards (every string holding one is double-quoted, so every raw occurrence in the text is
 * inside double quotes).
 */
const WITHOUT_MERGE_TAG = (tags: any[]) => tags.filter((t) => t.tag !== 'tag:yaml.org,2002:merge');

function faithfulYaml(doc: unknown, index: number): string {
  if (findUnrepresentable(doc, '', new Set()) !== undefined) throw unrepresentableError(doc, index);
  // without the merge tag, which identifies the string '<<' and writes it plain whatever its style
  const d = new YAML.Document(doc, { ...CDK8S_OPTIONS, merge: false, customTags: WITHOUT_MERGE_TAG });
  let escape = false;
  YAML.visit(d, {
    Scalar(_key, node) {
      const v = node.value;
      if (typeof v !== 'string') return;
      if (NOT_ESCAPED_BY_YAML.test(v)) {
        node.type = 'QUOTE_DOUBLE';
        escape = true;
      } else if (v === MERGE_KEY || (GoYaml.resolvesToNonString(v) && isPlain(v))) {
        node.type = v.includes('"') && !v.includes("'") && !v.includes('\n') ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
      }
    },
  });
  const text = d.toString(CDK8S_OPTIONS);
  return escape ? GoYaml.escapeRawUnsafe(text) : text;
}
