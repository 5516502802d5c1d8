/**
 * Internal: cdk8s's YAML (`Yaml.stringify`: the `yaml` package, YAML 1.1 schema, `lineWidth: 0`, documents joined
 * by `---`), byte for byte, without building a `yaml` Document per manifest.
 *
 * Why: writing the YAML was half of a large synth (5,000 tenants: ~3 s of ~6 s), most of it spent building and
 * walking `yaml`'s node tree for plain JSON whose layout is fixed. This writer lays out maps and sequences the way
 * `yaml` does in block style (`stringifyCollection`, `stringifyPair`: two-space indent, sequences indented under
 * their key, empty collections as `{}` / `[]`) and decides each scalar the way `yaml`'s `stringifyString` /
 * `plainString` does: a string is written plain when none of its rules quote it (indicator characters, `: `, ` #`,
 * control characters, and every YAML 1.1 tag that would read it as something else: `yes`, `on`, `1_000`, `2020-01-01`,
 * ...: the tags' own tests are used). Every other scalar (quoted strings, numbers) is rendered by `yaml` itself,
 * once, and remembered.
 *
 * Whatever this layout does not cover exactly falls back to `yaml` for the whole document: multi-line strings (block
 * scalars, whose text depends on the indentation), document markers, keys over 1024 characters, `undefined`, objects
 * that are not plain JSON, and the same object reached twice (`yaml` writes anchors). `test/app/yaml-writer.test.ts`
 * compares it with `Yaml.stringify` on every example and on generated documents.
 */
import { Yaml } from 'cdk8s';
import * as YAML from 'yaml';

/** What cdk8s passes to `YAML.stringify` (cdk8s lib/yaml.js `Yaml.stringify`). */
const CDK8S_OPTIONS = { keepUndefined: true, lineWidth: 0, version: '1.1' as const };

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

/** The `yaml` rendering of quoted strings and numbers, as values and as keys (bounded: cleared when full). */
const RENDERED = new Map<string, string>();
const RENDERED_MAX = 100_000;

/** True when `yaml` writes `s` as it is (plain), as a map value, a sequence item or a map key. */
function isPlain(s: string): boolean {
  if (s.length === 0 || NOT_PLAIN.test(s) || FORCES_DOUBLE_QUOTES.test(s)) return false;
  for (const re of RESOLVING_TAGS) if (re.test(s)) return false;
  return true;
}

/** `yaml`'s rendering of one single-line scalar, as a value (`asKey` false) or a key. */
function rendered(value: string | number | boolean | null, asKey: boolean): string {
  const cacheKey = `${asKey ? 'k' : 'v'}${typeof value}:${String(value)}`;
  let r = RENDERED.get(cacheKey);
  if (r === undefined) {
    if (asKey) {
      const out = YAML.stringify({ [String(value)]: null }, CDK8S_OPTIONS);
      if (!out.endsWith(': null\n')) throw new NeedsYaml();
      r = out.slice(0, -': null\n'.length);
    } else {
      const out = YAML.stringify({ a: value }, CDK8S_OPTIONS);
      if (!out.startsWith('a: ') || !out.endsWith('\n')) throw new NeedsYaml();
      r = out.slice('a: '.length, -1);
    }
    if (r.includes('\n')) throw new NeedsYaml();
    if (RENDERED.size >= RENDERED_MAX) RENDERED.clear();
    RENDERED.set(cacheKey, r);
  }
  return r;
}

function scalarValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      if (CONTEXT_DEPENDENT.test(v)) throw new NeedsYaml();
      return isPlain(v) ? v : rendered(v, false);
    case 'number':
      return rendered(v, false);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      throw new NeedsYaml();
  }
}

function key(k: string): string {
  if (k.length > MAX_IMPLICIT_KEY || CONTEXT_DEPENDENT.test(k)) throw new NeedsYaml();
  return isPlain(k) ? k : rendered(k, true);
}

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

/** cdk8s's YAML of manifests, byte for byte. */
export class YamlWriter {
  /** Exactly `Yaml.stringify(...docs)` of cdk8s. */
  public static stringify(docs: unknown[]): string {
    return docs.map((d) => YamlWriter.document(d)).join('---\n');
  }

  /** One document as cdk8s writes it (`undefined` is an empty document). */
  public static document(doc: unknown): string {
    if (doc === undefined) return '\n';
    return YamlWriter.withoutYaml(doc) ?? Yaml.stringify(doc);
  }

  /** The document written by this writer alone, or `undefined` when it needs `yaml` (see the file comment). */
  public static withoutYaml(doc: unknown): string | undefined {
    try {
      return new BlockWriter().document(doc);
    } catch (e) {
      if (!(e instanceof NeedsYaml)) throw e;
      return undefined;
    }
  }
}
