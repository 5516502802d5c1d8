/**
 * Internal (not exported from the package): a fast reader for the plain block YAML that bundle manifests are made
 * of (controller-gen CRDs, operator-sdk CSVs), giving exactly what `yaml`'s `parseAllDocuments` + `toJS` give for
 * one document with the options of `decodeYamlDocuments`, or `undefined` when the text uses anything else.
 *
 * Why: the prometheus 0.56.3 bundle is 1.6 MB of CRD YAML; `yaml` builds a full syntax tree for it (about 0.45 s of
 * a 0.7 s one-tenant synth, or of the CLI). This reader covers block mappings and sequences, plain scalars (also
 * over several lines), single-quoted scalars (also over several lines), double-quoted scalars without escapes,
 * literal block scalars (`|`, `|-`), `{}`, `[]` and comment lines. It gives up (the caller then runs `yaml`) on
 * tabs, control characters, document markers, anchors, aliases, tags, flow collections, folded scalars, merge
 * keys, keys that are not plain strings, indentation it does not expect, and anything `yaml` would call an error.
 * Scalars resolve through `yaml`'s own tags (the go-yaml v2 set of `decodeYamlDocuments`).
 * test/core/fast-yaml.test.ts compares the two on every fixture manifest and on generated documents.
 */
import type { Tags } from 'yaml';
import { yamlModule } from './yaml-module';

/** One document's value and its duplicate-key warnings (1-based lines). */
export interface FastYamlResult {
  /** 1-based line where the document's content starts. */
  readonly line: number;
  readonly value: unknown;
  readonly duplicates: Array<{ line: number; key: string }>;
}

/** The text uses something this reader leaves to `yaml`. */
class GiveUp extends Error {}
const GIVE_UP = new GiveUp();

// eslint-disable-next-line no-control-regex
const UNSUPPORTED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/;
/** Characters a plain scalar may not start with (YAML c-indicator), but `-` before a non-space (`-1`). */
const INDICATOR = /^[?:,[\]{}#&*!|>'"%@`]|^-(?:\s|$)/;
const PLAIN_KEY = /^(?![-?:,[\]{}#&*!|>'"%@`\s])[^:#]*[^:#\s]$/;

/** What `read` needs of `yaml`'s schema (opaque to callers). */
export interface FastYamlSchema {}
interface Schema extends FastYamlSchema {
  /** The tags a plain scalar is tested against, in the schema's order (`findScalarTagByTest`). */
  readonly tags: ScalarTag[];
  readonly isScalar: (x: unknown) => x is { value: unknown };
}

interface ScalarTag {
  readonly default?: boolean | string;
  readonly test?: RegExp;
  resolve(value: string, onError: (msg: string) => void, options: object): unknown;
}

export class FastYaml {
  /**
   * `text` (one document, no `---`) read like `parseAllDocuments(text, options)[0].toJS()` with `tags` being the
   * schema's tags (`new Document(null, options).schema.tags`), or undefined.
   */
  public static read(text: string, schema: FastYamlSchema, options: object): FastYamlResult | undefined {
    if (UNSUPPORTED_CHARS.test(text)) return undefined;
    try {
      return new Reader(text, schema as Schema, options).document();
    } catch (e) {
      // RangeError: nested too deep for this recursive reader; yaml reports the limit
      if (e === GIVE_UP || e instanceof RangeError) return undefined;
      throw e;
    }
  }

  /** The scalar tags of `decodeYamlDocuments`' schema, for `read`. */
  public static schemaOf(customTags: (tags: Tags) => Tags): FastYamlSchema {
    const { Document, isScalar } = yamlModule();
    const tags = new Document(null, { version: '1.2', schema: 'yaml-1.1', customTags, merge: true }).schema.tags as unknown as ScalarTag[];
    const schema: Schema = { tags: tags.filter((t) => t.default === true && t.test !== undefined), isScalar };
    return schema;
  }

  private constructor() {}
}

class Reader {
  private readonly lines: string[];
  /** Indentation of each line; -1 for a blank or comment-only line. */
  private readonly indents: number[];
  /** Where a line's content starts (a sequence item's content is read as a line of its own). */
  private readonly starts: number[];
  private i = 0;
  private readonly duplicates: Array<{ line: number; key: string }> = [];
  private readonly defaultTags: ScalarTag[];

  constructor(text: string, private readonly schema: Schema, private readonly options: object) {
    this.lines = text.split('\n');
    this.indents = this.lines.map((l) => {
      const n = l.length - l.trimStart().length;
      return n === l.length || l[n] === '#' ? -1 : n;
    });
    this.starts = [...this.indents];
    this.defaultTags = schema.tags;
    for (const l of this.lines) if (/^(---|\.\.\.|%)/.test(l)) throw GIVE_UP;
  }

  public document(): FastYamlResult {
    this.skipBlank();
    if (this.i >= this.lines.length) throw GIVE_UP; // an empty document: left to yaml
    const line = this.i + 1;
    const indent = this.starts[this.i];
    const l = this.content(this.i);
    if (!(l === '-' || l.startsWith('- ') || this.keyOf(l) !== undefined)) throw GIVE_UP; // a scalar document
    const value = this.block(indent);
    this.skipBlank();
    if (this.i < this.lines.length) throw GIVE_UP;
    return { line, value, duplicates: this.duplicates.sort((a, b) => a.line - b.line) };
  }

  private content(i: number): string {
    return this.lines[i].slice(this.starts[i]);
  }

  private skipBlank(): void {
    while (this.i < this.lines.length && this.starts[this.i] === -1) this.i++;
  }

  /** A mapping or a sequence whose first line (line i) is at `indent`. */
  private block(indent: number): unknown {
    const l = this.content(this.i);
    return l === '-' || l.startsWith('- ') ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length || this.starts[this.i] < indent) return out;
      if (this.starts[this.i] > indent) throw GIVE_UP;
      const l = this.content(this.i);
      if (l === '-') {
        this.i++;
        out.push(this.nestedBlock(indent, false));
        continue;
      }
      if (!l.startsWith('- ')) return out; // the end of a compact sequence (a mapping key at the same indentation)
      const rest = l.slice(2);
      const pad = rest.length - rest.trimStart().length;
      const item = rest.slice(pad).trimEnd();
      if (item === '' || item.startsWith('#')) throw GIVE_UP;
      if (item.startsWith('- ')) throw GIVE_UP;
      const col = this.starts[this.i] + 2 + pad;
      if (this.keyOf(item) !== undefined) {
        // `- key: value`: a mapping at the item's column
        this.starts[this.i] = col;
        out.push(this.mapping(col));
      } else {
        out.push(this.inlineValue(item, indent, this.starts[this.i] + 2 + pad));
      }
    }
  }

  /** The value on the lines after `key:` or `-`: a nested block, a compact sequence (mapping values only), or null. */
  private nestedBlock(parentIndent: number, compactSequence: boolean): unknown {
    this.skipBlank();
    if (this.i >= this.lines.length) return null;
    const ind = this.starts[this.i];
    const l = this.content(this.i);
    if (ind > parentIndent) {
      if (!(l === '-' || l.startsWith('- ') || this.keyOf(l) !== undefined)) throw GIVE_UP;
      return this.block(ind);
    }
    if (ind === parentIndent && compactSequence && (l === '-' || l.startsWith('- '))) return this.sequence(ind);
    return null;
  }

  /** `key` and the rest of the line after `key:`, for a line that is a mapping entry. */
  private keyOf(l: string): { key: string; rest: string } | undefined {
    let key: string;
    let after: number;
    if (l[0] === '\'' || l[0] === '"') {
      const q = l[0];
      let j = 1;
      let k = '';
      for (;;) {
        const e = l.indexOf(q, j);
        if (e < 0) return undefined;
        k += l.slice(j, e);
        if (q === '\'' && l[e + 1] === '\'') {
          k += '\'';
          j = e + 2;
          continue;
        }
        after = e + 1;
        break;
      }
      if (q === '"' && k.includes('\\')) throw GIVE_UP;
      key = k;
      if (l[after] !== ':') return undefined;
    } else {
      const m = l.indexOf(': ');
      const end = m >= 0 ? m : (l.endsWith(':') ? l.length - 1 : -1);
      if (end < 0) return undefined;
      key = l.slice(0, end);
      if (!PLAIN_KEY.test(key)) throw GIVE_UP;
      // keys that resolve to anything but a string (true, 1, null, ~, <<) are left to yaml
      if (key === '<<' || this.defaultTags.some((t) => t.test!.test(key))) throw GIVE_UP;
      after = end;
    }
    if (key === '__proto__') throw GIVE_UP;
    const rest = l.slice(after + 1);
    if (rest !== '' && rest[0] !== ' ') return undefined;
    return { key, rest: rest.trim() };
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length || this.starts[this.i] < indent) return out;
      if (this.starts[this.i] > indent) throw GIVE_UP;
      const l = this.content(this.i);
      if (l === '-' || l.startsWith('- ')) {
        // a compact sequence ends the mapping only when it belongs to an outer mapping: left to yaml
        throw GIVE_UP;
      }
      const entry = this.keyOf(l);
      if (entry === undefined) throw GIVE_UP;
      const keyLine = this.i + 1;
      if (seen.has(entry.key)) this.duplicates.push({ line: keyLine, key: entry.key });
      seen.add(entry.key);
      let value: unknown;
      if (entry.rest === '' || entry.rest.startsWith('#')) {
        this.i++;
        value = this.nestedBlock(indent, true);
      } else {
        const col = this.lines[this.i].length - entry.rest.length - (this.lines[this.i].length - this.lines[this.i].trimEnd().length);
        value = this.inlineValue(entry.rest, indent, col);
      }
      out[entry.key] = value;
    }
  }

  /**
   * A value that starts on line i (text `v`, trimmed) inside a block at `indent`; consumes its lines. `col` is where
   * `v` starts on the line.
   */
  private inlineValue(v: string, indent: number, col: number): unknown {
    if (v === '{}' || v === '[]') {
      this.i++;
      return v === '{}' ? {} : [];
    }
    if (v === '|' || v === '|-') return this.literal(indent, v === '|-');
    if (v[0] === '\'') return this.singleQuoted(indent, col);
    if (v[0] === '"') return this.doubleQuoted(indent, col);
    if (INDICATOR.test(v)) throw GIVE_UP;
    return this.plain(v, indent);
  }

  private restIsEmpty(rest: string): boolean {
    return rest.trim() === '' || /^\s+#/.test(rest);
  }

  /** A plain scalar, folded over the more-indented lines that follow (YAML 1.2 line folding). */
  private plain(first: string, indent: number): unknown {
    const check = (s: string) => {
      if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) throw GIVE_UP;
    };
    check(first);
    let value = first;
    this.i++;
    let j = this.i;
    let empty = 0;
    for (; j < this.lines.length; j++) {
      const raw = this.lines[j];
      const t = raw.trim();
      if (t === '') {
        empty++;
        continue;
      }
      const ind = raw.length - raw.trimStart().length;
      if (ind <= indent) break;
      // any character may start a continuation line but a comment's `#`; indicators that start a node: left to yaml
      if (/^(?:#|[-?:](?: |$))/.test(t)) throw GIVE_UP;
      check(t);
      value += empty === 0 ? ` ${t}` : '\n'.repeat(empty) + t;
      empty = 0;
      this.i = j + 1;
    }
    return this.resolvePlain(value);
  }

  private resolvePlain(value: string): unknown {
    for (const tag of this.defaultTags) {
      if (!tag.test!.test(value)) continue;
      let failed = false;
      const res: any = tag.resolve(value, () => {
        failed = true;
      }, this.options);
      if (failed) throw GIVE_UP;
      // a tag may return a Scalar node (null does): its value is what toJS gives
      const v = this.schema.isScalar(res) ? res.value : res;
      if (v !== null && typeof v === 'object') throw GIVE_UP;
      return v;
    }
    return value;
  }

  /** A single-quoted scalar starting at `col` of line i, possibly over several lines. */
  private singleQuoted(indent: number, col: number): string {
    const parts: string[] = [];
    let line = this.lines[this.i];
    let j = col + 1;
    let text = '';
    for (;;) {
      const e = line.indexOf('\'', j);
      if (e >= 0 && line[e + 1] === '\'') {
        text += line.slice(j, e + 1);
        j = e + 2;
        continue;
      }
      if (e >= 0) {
        text += line.slice(j, e);
        if (!this.restIsEmpty(line.slice(e + 1))) throw GIVE_UP;
        parts.push(parts.length === 0 ? text : text.trimStart());
        break;
      }
      text += line.slice(j);
      parts.push(parts.length === 0 ? text.trimEnd() : text.trim());
      text = '';
      this.i++;
      if (this.i >= this.lines.length) throw GIVE_UP;
      line = this.lines[this.i];
      const ind = line.length - line.trimStart().length;
      if (line.trim() !== '' && ind <= indent) throw GIVE_UP;
      j = 0;
    }
    this.i++;
    // folding: a line break between two lines is a space; n empty lines are n newlines
    let out = parts[0];
    let empty = 0;
    for (let k = 1; k < parts.length; k++) {
      const p = parts[k];
      if (p === '' && k < parts.length - 1) {
        empty++;
        continue;
      }
      out += empty === 0 ? ` ${p}` : '\n'.repeat(empty) + p;
      empty = 0;
    }
    if (parts.length > 1 && parts[parts.length - 1] === '' && empty > 0) throw GIVE_UP;
    return out;
  }

  /** A double-quoted scalar starting at `col` of line i, possibly over several lines, with YAML's escapes. */
  private doubleQuoted(indent: number, col: number): string {
    // the raw text of each line up to the closing quote (escapes still raw)
    const segments: string[] = [];
    let line = this.lines[this.i];
    let j = col + 1;
    for (;;) {
      let e = j;
      while (e < line.length && line[e] !== '"') e += line[e] === '\\' ? 2 : 1;
      if (e < line.length) {
        segments.push(line.slice(j, e));
        if (!this.restIsEmpty(line.slice(e + 1))) throw GIVE_UP;
        break;
      }
      segments.push(line.slice(j));
      this.i++;
      if (this.i >= this.lines.length) throw GIVE_UP;
      line = this.lines[this.i];
      const ind = line.length - line.trimStart().length;
      if (line.trim() !== '' && ind <= indent) throw GIVE_UP;
      j = 0;
    }
    this.i++;
    // folding as for single quotes, but a line ending in an odd number of backslashes is an escaped line break
    let out = '';
    let empty = 0;
    let joinNext = false;
    for (let k = 0; k < segments.length; k++) {
      let seg = segments[k];
      const last = k === segments.length - 1;
      if (k > 0) seg = seg.trimStart();
      if (!last) {
        const trimmed = seg.trimEnd();
        const slashes = trimmed.length - trimmed.replace(/\\+$/, '').length;
        if (slashes % 2 === 1 && trimmed.length === seg.length) {
          // escaped line break: no space, the next line's leading white space dropped
          if (k > 0 && seg === '' ) throw GIVE_UP;
          out += (k === 0 || joinNext ? '' : empty === 0 ? ' ' : '\n'.repeat(empty)) + decodeEscapes(seg.slice(0, -1));
          empty = 0;
          joinNext = true;
          continue;
        }
        if (slashes % 2 === 1) throw GIVE_UP; // escaped white space at a line end: left to yaml
        seg = trimmed;
      }
      if (k > 0 && !last && seg === '') {
        if (joinNext) throw GIVE_UP;
        empty++;
        continue;
      }
      if (k > 0 && last && seg === '' && empty > 0) throw GIVE_UP;
      out += (k === 0 || joinNext ? '' : empty === 0 ? ' ' : '\n'.repeat(empty)) + decodeEscapes(seg);
      empty = 0;
      joinNext = false;
    }
    return out;
  }

  /** A literal block scalar (`|` keeps one final newline, `|-` none). */
  private literal(indent: number, strip: boolean): string {
    this.i++;
    const start = this.i;
    if (start >= this.lines.length || this.lines[start].trim() === '') throw GIVE_UP;
    const contentIndent = this.lines[start].length - this.lines[start].trimStart().length;
    if (contentIndent <= indent) throw GIVE_UP;
    const body: string[] = [];
    let j = start;
    for (; j < this.lines.length; j++) {
      const raw = this.lines[j];
      if (raw === '') {
        body.push('');
        continue;
      }
      const ind = raw.length - raw.trimStart().length;
      if (raw.trim() === '') throw GIVE_UP; // whitespace-only lines: left to yaml
      if (ind < contentIndent) break;
      body.push(raw.slice(contentIndent));
    }
    if (j >= this.lines.length && !strip) throw GIVE_UP; // clip at the end of the text: left to yaml
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    // lines after the block that are blank belong to no one; the next content line must be outdented
    let consumed = start + body.length;
    while (consumed < j && this.lines[consumed] === '') consumed++;
    this.i = consumed;
    // the block's blank lines were counted into `body` only up to the last content line
    const text = body.join('\n');
    return strip ? text : `${text}\n`;
  }
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  'a': '\x07',
  'b': '\b',
  't': '\t',
  '\t': '\t',
  'n': '\n',
  'v': '\v',
  'f': '\f',
  'r': '\r',
  'e': '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  'N': '\u0085',
  '_': '\u00a0',
  'L': '\u2028',
  'P': '\u2029',
};

/** YAML double-quoted escapes (yaml `resolve-flow-scalar.js`); anything else: left to yaml. */
function decodeEscapes(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([^]?))/g, (_m, x, u, U, c) => {
    const hex = x ?? u ?? U;
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw GIVE_UP;
      return String.fromCodePoint(code);
    }
    const r = ESCAPES[c];
    if (r === undefined) throw GIVE_UP;
    return r;
  });
}
