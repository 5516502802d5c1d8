/**
 * Internal: how Kubernetes' YAML reader reads a scalar. kubectl, Argo CD and Flux decode manifests with
 * sigs.k8s.io/yaml, which parses with its fork of go-yaml v2 (YAML 1.1): sigs.k8s.io/yaml `goyaml.v2/resolve.go`
 * (`resolve`, `resolveMapList`, `parseTimestamp`), `goyaml.v2/readerc.go` (the characters a stream may hold) and
 * `goyaml.v2/scannerc.go` (`is_break`: `\r`, `\n`, U+0085, U+2028, U+2029 are line breaks, also inside quoted
 * scalars, where a raw break is folded into a space). The `yaml` package that cdk8s writes with reads YAML 1.2
 * and its 1.1 schema differs from go-yaml's: what it writes plain or raw, go-yaml may read as something else.
 *
 * The rules here may quote more than go-yaml needs (every casing of the YAML 1.1 booleans and null, sexagesimal
 * numbers, `=`), never less: a quoted string is a string for every reader.
 */
import { LONE_SURROGATE } from '../core/input-check';

/**
 * Characters that cannot stand raw in a scalar go-yaml reads as written: outside readerc.go's allowed set
 * (`#x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`: C0 controls, DEL,
 * C1 controls, U+FFFE, U+FFFF), the YAML 1.1 line breaks `\r`, U+0085, U+2028, U+2029 (scannerc.go `is_break`), and
 * the byte order mark U+FEFF (skipped by the scanner at the start of a line). They are written as escapes inside
 * double quotes. Tab and `\n` are left to the writer's own rules (`\n` makes block scalars, which go-yaml reads as
 * written).
 */
// eslint-disable-next-line no-control-regex
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const RAW_UNSAFE_GLOBAL = new RegExp(RAW_UNSAFE.source, 'g');

/** resolve.go `resolveMapList` (bool, null, .inf, .nan), compared in lower case: every casing is quoted. */
const RESOLVED_WORDS: ReadonlySet<string> = new Set([
  'y', 'yes', 'true', 'on', 'n', 'no', 'false', 'off', '~', 'null', '.nan', '.inf', '+.inf', '-.inf',
]);
/** The merge key (decode.go `isMerge`: a plain `<<` key merges a map) and YAML 1.1's value key. */
const SPECIAL: ReadonlySet<string> = new Set(['<<', '=']);
/** resolve.go `yamlStyleFloat`, tried after removing `_` (as `resolve` does). */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/**
 * Go's `strconv.ParseInt(s, 0, 64)` / `ParseUint` / `big.Int.SetString(s, 0)` syntax after removing `_`: decimal,
 * `0x`, `0o`, `0b` in either case, and a leading `0` (octal), with an optional sign.
 */
const GO_INTEGER = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)$/;
/**
 * resolve.go's fallback for a lower-case `0b` prefix when `ParseInt(plain, 0, 64)` fails: `strconv.ParseInt(plain[2:],
 * 2, 64)`, which takes a sign after the prefix (`0b-1` is the int -1, `0b+1` is 1; `yaml` writes them plain).
 */
const SIGN_AFTER_0B = /^0b[-+][01]+$/;
/** `strconv.ParseFloat` of a string starting with `.` (hint `.` in `resolve`; Go allows `_` between digits). */
const DOT_FLOAT = /^\.[0-9][0-9_]*([eE][-+]?[0-9][0-9_]*)?$/;
/** `parseTimestamp`: starts with four digits and `-`, then `time.Parse` layouts; anything date-like is quoted. */
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}($|[Tt ])/;
/** YAML 1.1 sexagesimal numbers (go-yaml reads them as strings; other YAML 1.1 readers as numbers). */
const SEXAGESIMAL = /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/;

export class GoYaml {
  /**
   * Whether go-yaml v2 reads the plain scalar `s` as something other than the string `s` (a bool, null, number,
   * timestamp or merge key), in any casing; also YAML 1.1 forms other 1.1 readers resolve.
   */
  public static resolvesToNonString(s: string): boolean {
    if (s === '') return true;
    if (SPECIAL.has(s)) return true;
    const c = s.charCodeAt(0);
    // resolve.go `resolveTable`: only these first characters can resolve to anything but a string
    const digitOrSign = (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d;
    if (!digitOrSign && c !== 0x2e && !/^[yYnNtTfFoO~]/.test(s)) return false;
    if (s.length <= 6 && RESOLVED_WORDS.has(s.toLowerCase())) return true;
    if (c === 0x2e) return DOT_FLOAT.test(s);
    if (!digitOrSign) return false;
    if (TIMESTAMP.test(s) || SEXAGESIMAL.test(s)) return true;
    const plain = s.includes('_') ? s.replace(/_/g, '') : s;
    return GO_INTEGER.test(plain) || SIGN_AFTER_0B.test(plain) || YAML_STYLE_FLOAT.test(plain);
  }

  /** Whether `s` holds a lone surrogate (no reader of Kubernetes can read it). */
  public static hasLoneSurrogate(s: string): boolean {
    return LONE_SURROGATE.test(s);
  }

  /**
   * `s` as one double-quoted line every YAML reader reads as `s`: JSON's escapes, `yaml`'s short forms of `\u00XX`
   * (`\0 \a \v \e \xXX`), and the characters JSON leaves raw escaped too (DEL and C1 as `\xXX`, `\N` for U+0085,
   * `\L` `\P` for U+2028/U+2029, `\uFEFF` `\uFFFE` `\uFFFF`). go-yaml's scannerc.go decodes every one of them.
   */
  public static doubleQuoted(s: string): string {
    const json = JSON.stringify(s);
    const short = json.includes('\\u') ? json.replace(JSON_ESCAPE, yamlEscape) : json;
    return short.replace(RAW_UNSAFE_GLOBAL, escapeRaw);
  }

  /** Escapes the raw unsafe characters of text that is already inside double quotes. */
  public static escapeRawUnsafe(text: string): string {
    return text.replace(RAW_UNSAFE_GLOBAL, escapeRaw);
  }

  private constructor() {}
}

/** A JSON escape: `\\uXXXX` (group 1: the code) or another escaped character. */
const JSON_ESCAPE = /\\(?:u([0-9a-f]{4})|.)/g;
/** `yaml`'s doubleQuotedString short forms (stringify/stringifyString.js). */
const SHORT_ESCAPES: { [code: string]: string } = {
  '0000': '\\0', '0007': '\\a', '000b': '\\v', '001b': '\\e', '0085': '\\N', '00a0': '\\_', '2028': '\\L', '2029': '\\P',
};

function yamlEscape(escape: string, code: string | undefined): string {
  if (code === undefined) return escape;
  return SHORT_ESCAPES[code] ?? (code.startsWith('00') ? `\\x${code.slice(2)}` : escape);
}

function escapeRaw(ch: string): string {
  const code = ch.charCodeAt(0).toString(16).padStart(4, '0');
  return SHORT_ESCAPES[code] ?? (code.startsWith('00') ? `\\x${code.slice(2)}` : `\\u${code.toUpperCase()}`);
}
