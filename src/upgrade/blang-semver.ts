/**
 * Semantic versions and ranges exactly as OLM reads them: OLM parses bundle versions with `semver.Parse` and the
 * `olm.skipRange` annotation with `semver.ParseRange` of github.com/blang/semver/v4 (`range.go`, `semver.go`), used in
 * operator-lifecycle-manager `pkg/controller/registry/resolver/cache/predicates.go` (`SkipRangeIncludesPredicate`).
 *
 * That grammar is not node-semver's: no `~`, `^` or hyphen ranges; `!=` / `!` exist; `1.x` wildcards are expanded
 * textually; AND binds tighter than `||`; pre-release versions match like any other version (node-semver excludes
 * them unless the comparator names one). So it is implemented here, step by step as `ParseRange` does it
 * (`splitAndTrim`, `splitORParts`, `expandWildcardVersion`, `splitComparatorVersion`, `parseComparator`).
 */
import { Diagnostics } from '../core/diagnostics';
import { describeValue, InputCheck, throwIfInvalid } from '../core/input-check';

/** The text arguments of a method must be strings (JavaScript and jsii callers): one clear Error otherwise. */
function checkStrings(method: string, args: { [field: string]: unknown }): void {
  const check = new InputCheck();
  for (const [field, value] of Object.entries(args)) check.requiredString(field, value, `pass ${field} as a string`, { singleLine: false });
  throwIfInvalid(check, method);
}

/** Longest message of a parse error: blang's messages quote the input, which may be huge or hold newlines. */
const MAX_MESSAGE = 500;

function shownMessage(e: unknown): string {
  return Diagnostics.oneLine((e as Error)?.message ?? String(e), MAX_MESSAGE);
}

/** Runs `fn`; its parse error is rethrown with the message on one line and capped. */
function oneLineErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new Error(shownMessage(e));
  }
}

/** Why a text argument of a `problem` method is not a string (its answer then), or undefined. */
function notAString(field: string, value: unknown): string | undefined {
  return typeof value === 'string' ? undefined : `${field} must be a string, got ${describeValue(value)}`;
}

/** A parsed version (blang `Version`). */
interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: Array<string | number>;
}

type Comparator = (v: Version, ref: Version) => boolean;

/** A version range in blang/semver syntax, e.g. `>=0.9.0 <0.9.4` or `<1.2.0 || >=2.0.0 !2.1.0`. */
export class SemverRange {
  /**
   * Parses a range like blang/semver v4 `ParseRange`; throws an Error with blang's message when it cannot.
   */
  public static parse(range: string): SemverRange {
    checkStrings('SemverRange.parse', { range });
    return new SemverRange(range, oneLineErrors(() => parseRange(range)));
  }

  /** Why `range` is not a valid blang/semver range, or undefined when it is. */
  public static problem(range: string): string | undefined {
    const notString = notAString('range', range);
    if (notString !== undefined) return notString;
    try {
      parseRange(range);
      return undefined;
    } catch (e) {
      return shownMessage(e);
    }
  }

  /** The range as written. */
  public readonly text: string;
  private readonly alternatives: Array<Array<{ c: Comparator; v: Version }>>;

  private constructor(text: string, alternatives: Array<Array<{ c: Comparator; v: Version }>>) {
    this.text = text;
    this.alternatives = alternatives;
  }

  /** Whether `version` (parsed with blang `Parse`) is in the range; a version that does not parse is never in it. */
  public includes(version: string): boolean {
    const v = tryParse(version);
    if (v === undefined) return false;
    return this.alternatives.some((and) => and.every(({ c, v: ref }) => c(v, ref)));
  }
}

/** Versions as blang/semver v4 parses and orders them. */
export class BlangSemver {
  /** Whether blang `semver.Parse` accepts `version` (strict `MAJOR.MINOR.PATCH[-pre][+build]`, no `v` prefix). */
  public static isValid(version: string): boolean {
    return tryParse(version) !== undefined;
  }

  /**
   * Why blang `semver.Parse` rejects `version`, or undefined when it accepts it.
   */
  public static problem(version: string): string | undefined {
    const notString = notAString('version', version);
    if (notString !== undefined) return notString;
    try {
      parseVersion(version);
      return undefined;
    } catch (e) {
      return shownMessage(e);
    }
  }

  /**
   * The version blang `semver.ParseTolerant` reads, as strict text (`v1.2` -> `1.2.0`, `01.02.03` -> `1.2.3`), or
   * undefined when it rejects it. OLM reads bundle versions (`newOperatorFromBundle`, resolver
   * `source_registry.go`) and the installed CSV's `spec.version` this way: trims spaces and a `v` prefix, drops
   * leading zeros, fills a missing minor/patch with 0.
   */
  public static normalizeTolerant(version: string): string | undefined {
    if (typeof version !== 'string') return undefined;
    let s = version.trim();
    if (s.startsWith('v')) s = s.slice(1);
    const parts = splitN(s, '.', 3).map((p) => {
      if (p.length <= 1) return p;
      let q = p.replace(/^0+/, '');
      if (q.length === 0 || !/[0-9]/.test(q[0])) q = `0${q}`;
      return q;
    });
    if (parts.length < 3) {
      if (/[+-]/.test(parts[parts.length - 1])) return undefined;
      while (parts.length < 3) parts.push('0');
    }
    const out = parts.join('.');
    return tryParse(out) === undefined ? undefined : out;
  }

  /**
   * -1, 0 or 1 as blang `Version.Compare` (build metadata ignored, pre-releases before the release). Throws when
   * either version does not parse.
   */
  public static compare(a: string, b: string): number {
    checkStrings('BlangSemver.compare', { a, b });
    return oneLineErrors(() => compareVersions(parseVersion(a), parseVersion(b)));
  }

  private constructor() {}
}

/** Go `strings.SplitN(s, sep, n)`. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

function tryParse(s: string): Version | undefined {
  try {
    return parseVersion(s);
  } catch {
    return undefined;
  }
}

const NUMBERS = /^[0-9]+$/;
const ALPHANUM = /^[0-9A-Za-z-]+$/;

/** blang/semver v4 `Parse`. */
function parseVersion(s: string): Version {
  if (typeof s !== 'string' || s.length === 0) throw new Error('Version string empty');
  // strings.SplitN(s, ".", 3)
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  if (first < 0 || second < 0) throw new Error('No Major.Minor.Patch elements found');
  const parts = [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
  const num = (p: string, what: string): number => {
    if (!NUMBERS.test(p)) throw new Error(`Invalid character(s) found in ${what} number "${p}"`);
    if (p.length > 1 && p[0] === '0') throw new Error(`${what[0].toUpperCase()}${what.slice(1)} number must not contain leading zeroes "${p}"`);
    return Number(p);
  };
  const major = num(parts[0], 'major');
  const minor = num(parts[1], 'minor');
  let patchStr = parts[2];
  let rest = '';
  const idx = patchStr.search(/[+-]/);
  if (idx !== -1) {
    rest = patchStr.slice(idx);
    patchStr = patchStr.slice(0, idx);
  }
  const patch = num(patchStr, 'patch');
  const pre: Array<string | number> = [];
  let build = '';
  if (rest !== '') {
    const preIndex = rest.indexOf('-');
    const buildIndex = rest.indexOf('+');
    let preStr = '';
    if (preIndex !== -1 && (buildIndex === -1 || preIndex < buildIndex)) {
      preStr = buildIndex === -1 ? rest.slice(preIndex + 1) : rest.slice(preIndex + 1, buildIndex);
      for (const p of preStr.split('.')) {
        if (p === '') throw new Error('Prerelease is empty');
        if (NUMBERS.test(p)) {
          if (p.length > 1 && p[0] === '0') throw new Error(`Numeric PreRelease version must not contain leading zeroes "${p}"`);
          pre.push(Number(p));
        } else {
          if (!ALPHANUM.test(p)) throw new Error(`Invalid character(s) found in prerelease "${p}"`);
          pre.push(p);
        }
      }
    }
    if (buildIndex !== -1) {
      build = rest.slice(buildIndex + 1);
      for (const b of build.split('.')) {
        if (b === '') throw new Error('Build meta data is empty');
        if (!ALPHANUM.test(b)) throw new Error(`Invalid character(s) found in build meta data "${b}"`);
      }
    }
  }
  return { major, minor, patch, pre };
}

/** blang `Version.Compare`. */
function compareVersions(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) return a[k] > b[k] ? 1 : -1;
  }
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  let i = 0;
  for (; i < a.pre.length && i < b.pre.length; i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x > y ? 1 : -1;
    if (typeof x === 'number') return -1; // numeric identifiers have lower precedence
    if (typeof y === 'number') return 1;
    return x > y ? 1 : -1;
  }
  if (i === a.pre.length && i === b.pre.length) return 0;
  return i === a.pre.length ? -1 : 1;
}

/** blang `ParseRange`: OR of ANDs of comparator + version. */
function parseRange(s: string): Array<Array<{ c: Comparator; v: Version }>> {
  const parts = splitAndTrim(s);
  const orParts = splitOrParts(parts);
  const expanded = expandWildcardVersion(orParts);
  return expanded.map((and) => and.map((ap) => {
    const [opStr, vStr] = splitComparatorVersion(ap);
    const c = parseComparator(opStr);
    if (c === undefined) throw new Error(`Could not parse Range ${JSON.stringify(ap)}: Could not parse comparator ${JSON.stringify(opStr)} in ${JSON.stringify(opStr + vStr)}`);
    let v: Version;
    try {
      v = parseVersion(vStr);
    } catch (e) {
      throw new Error(`Could not parse Range ${JSON.stringify(ap)}: Could not parse version ${JSON.stringify(vStr)} in ${JSON.stringify(opStr + vStr)}: ${(e as Error).message}`);
    }
    return { c, v };
  }));
}

/** blang `splitAndTrim`: splits at spaces not following `>`, `<` or `=`, then removes the spaces inside tokens. */
function splitAndTrim(s: string): string[] {
  const result: string[] = [];
  let last = 0;
  let lastChar = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === ' ' && !['>', '<', '='].includes(lastChar)) {
      if (last < i - 1) result.push(s.slice(last, i));
      last = i + 1;
    } else if (s[i] !== ' ') {
      lastChar = s[i];
    }
  }
  if (last < s.length - 1) result.push(s.slice(last));
  return result.map((r) => r.split(' ').join(''));
}

function splitOrParts(parts: string[]): string[][] {
  const out: string[][] = [];
  let last = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] !== '||') continue;
    if (i === 0) throw new Error("First element in range is '||'");
    out.push(parts.slice(last, i));
    last = i + 1;
  }
  if (last === parts.length) throw new Error("Last element in range is '||'");
  out.push(parts.slice(last));
  return out;
}

/** blang `splitComparatorVersion`: the operator is everything before the first digit. */
function splitComparatorVersion(s: string): [string, string] {
  const i = s.search(/[0-9]/);
  if (i === -1) throw new Error(`Could not get version from string: ${JSON.stringify(s)}`);
  return [s.slice(0, i).trim(), s.slice(i)];
}

function parseComparator(op: string): Comparator | undefined {
  switch (op) {
    case '': case '=': case '==': return (v, r) => compareVersions(v, r) === 0;
    case '>': return (v, r) => compareVersions(v, r) === 1;
    case '>=': return (v, r) => compareVersions(v, r) >= 0;
    case '<': return (v, r) => compareVersions(v, r) === -1;
    case '<=': return (v, r) => compareVersions(v, r) <= 0;
    case '!': case '!=': return (v, r) => compareVersions(v, r) !== 0;
    default: return undefined;
  }
}

/** blang `expandWildcardVersion`: `1.2.x` / `1.x` become plain comparators (`>=1.2.0 <1.3.0`, ...). */
function expandWildcardVersion(parts: string[][]): string[][] {
  return parts.map((p) => {
    const out: string[] = [];
    for (let ap of p) {
      const [opStr, vStr] = splitComparatorVersion(ap);
      if (ap.includes('.x')) {
        const type = wildcardType(vStr);
        const flat = versionFromWildcard(vStr);
        let op = '';
        let increment = false;
        switch (opStr) {
          case '>': op = '>='; increment = true; break;
          case '>=': op = '>='; break;
          case '<': op = '<'; break;
          case '<=': op = '<'; increment = true; break;
          case '': case '=': case '==': out.push(`>=${flat}`); op = '<'; increment = true; break;
          case '!=': case '!': out.push(`<${flat}`); op = '>='; increment = true; break;
          default: break;
        }
        let version = flat;
        if (increment) version = type === 3 ? incrementPart(flat, 1) : type === 2 ? incrementPart(flat, 0) : '';
        ap = op + version;
      }
      out.push(ap);
    }
    return out;
  });
}

/** 1 = major (`x`), 2 = minor (`1.x`), 3 = patch (`1.2.x`), 0 = none. */
function wildcardType(v: string): number {
  const parts = v.split('.');
  return parts[parts.length - 1] === 'x' && parts.length <= 3 ? parts.length : 0;
}

function versionFromWildcard(v: string): string {
  let s = v.replace('.x.x', '.x');
  s = s.replace('.x', '.0');
  return s.split('.').length === 2 ? `${s}.0` : s;
}

function incrementPart(v: string, index: number): string {
  const parts = v.split('.');
  if (!/^[+-]?[0-9]+$/.test(parts[index] ?? '')) return '';
  parts[index] = String(Number(parts[index]) + 1);
  return parts.join('.');
}
