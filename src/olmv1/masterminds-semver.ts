/**
 * A port of github.com/Masterminds/semver/v3 (`version.go`, `constraints.go`; v3.5.0 is what operator-controller
 * v1.11.0 requires, its matching code unchanged since v3.4.0): how operator-controller reads
 * `ClusterExtension.spec.source.catalog.version` (`internal/operator-controller/catalogmetadata/compare/compare.go`
 * `NewVersionRange`: `mmsemver.NewConstraint(versionRange)`, then `constraint.Check(version)` for each bundle).
 *
 * Kept faithful to the Go code, regexes included: Go's RE2 `\s` is ASCII `[\t\n\f\r ]` (JavaScript's `\s` also
 * matches Unicode spaces and `\v`), numbers are uint64 (bigint here). Not exported from the package: the library
 * uses it for its checks and preview; test/olmv1/masterminds-semver.test.ts runs upstream's test tables on it.
 */

const S = '[\\t\\n\\f\\r ]';
const UINT64_MAX = BigInt('18446744073709551615');

/** Go's `%q` for the strings these messages quote (ASCII text; other control characters as `\xNN`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

// ---- version.go ----

/** `looseSemVerRegex` (version.go): what NewVersion accepts while CoerceNewVersion is true (the default). */
const LOOSE_VERSION = new RegExp('^v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?'
  + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?'
  + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?$');
const NUM = /^[0-9]*$/;
const ALLOWED = /^[a-zA-Z0-9-]*$/;

function parseUint(s: string): bigint {
  const n = BigInt(s);
  if (n > UINT64_MAX) throw new Error(`error parsing version segment: strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function validatePrerelease(p: string): void {
  for (const part of p.split('.')) {
    if (part === '') throw new Error('invalid prerelease string');
    if (NUM.test(part)) {
      if (part.length > 1 && part[0] === '0') throw new Error('version segment starts with 0');
    } else if (!ALLOWED.test(part)) {
      throw new Error('invalid prerelease string');
    }
  }
}

function validateMetadata(m: string): void {
  for (const part of m.split('.')) {
    if (part === '' || !ALLOWED.test(part)) throw new Error('invalid metadata string');
  }
}

function compareSegment(v: bigint, o: bigint): number {
  return v < o ? -1 : v > o ? 1 : 0;
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return s !== '' ? 1 : -1;
  // strconv.ParseUint: digits only, within uint64
  const num = (x: string) => /^[0-9]+$/.test(x) && BigInt(x) <= UINT64_MAX;
  const on = num(o);
  const sn = num(s);
  if (!on && !sn) return s > o ? 1 : -1;
  if (!on) return -1;
  if (!sn) return 1;
  return BigInt(s) > BigInt(o) ? 1 : -1;
}

function comparePrerelease(v: string, o: string): number {
  const sparts = v.split('.');
  const oparts = o.split('.');
  const l = Math.max(sparts.length, oparts.length);
  for (let i = 0; i < l; i++) {
    const d = comparePrePart(sparts[i] ?? '', oparts[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

/** A version as Masterminds/semver v3 holds it (`Version`). */
export class MastermindsVersion {
  /**
   * `NewVersion` (with the default `CoerceNewVersion = true`): `v` prefix, missing minor/patch and leading zeros
   * allowed. @throws Error with upstream's message when invalid
   */
  public static parse(v: string): MastermindsVersion {
    const m = LOOSE_VERSION.exec(v);
    if (!m) throw new Error('invalid semantic version');
    const major = parseUint(m[1]);
    const minor = m[2] ? parseUint(m[2].slice(1)) : BigInt(0);
    const patch = m[3] ? parseUint(m[3].slice(1)) : BigInt(0);
    const pre = m[5] ?? '';
    const metadata = m[8] ?? '';
    if (pre !== '') validatePrerelease(pre);
    if (metadata !== '') validateMetadata(metadata);
    return new MastermindsVersion(major, minor, patch, pre, metadata);
  }

  /** `StrictNewVersion`: exactly `X.Y.Z[-pre][+build]`, no leading zeros. @throws Error when invalid */
  public static parseStrict(v: string): MastermindsVersion {
    if (v.length === 0) throw new Error('version string empty');
    const parts = v.split('.');
    if (parts.length < 3) throw new Error('invalid semantic version');
    const rest = parts.slice(2).join('.');
    let p2 = rest;
    let metadata = '';
    let pre = '';
    if (p2.includes('+')) {
      metadata = p2.slice(p2.indexOf('+') + 1);
      p2 = p2.slice(0, p2.indexOf('+'));
      validateMetadata(metadata);
    }
    if (p2.includes('-')) {
      pre = p2.slice(p2.indexOf('-') + 1);
      p2 = p2.slice(0, p2.indexOf('-'));
      validatePrerelease(pre);
    }
    const nums = [parts[0], parts[1], p2];
    for (const p of nums) {
      if (!NUM.test(p)) throw new Error('invalid characters in version');
      if (p.length > 1 && p[0] === '0') throw new Error('version segment starts with 0');
    }
    for (const p of nums) if (p === '') throw new Error('strconv.ParseUint: parsing "": invalid syntax');
    return new MastermindsVersion(parseUint(nums[0]), parseUint(nums[1]), parseUint(nums[2]), pre, metadata);
  }

  private constructor(
    public readonly major: bigint,
    public readonly minor: bigint,
    public readonly patch: bigint,
    public readonly prerelease: string,
    public readonly metadata: string,
  ) {}

  /** `String()`: `X.Y.Z[-pre][+metadata]`, without a `v`. */
  public toString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.prerelease ? `-${this.prerelease}` : ''}${this.metadata ? `+${this.metadata}` : ''}`;
  }

  /** `Compare`: -1, 0 or 1; build metadata ignored, a prerelease below its release. */
  public compare(o: MastermindsVersion): number {
    const d = compareSegment(this.major, o.major) || compareSegment(this.minor, o.minor) || compareSegment(this.patch, o.patch);
    if (d !== 0) return d;
    if (this.prerelease === '' && o.prerelease === '') return 0;
    if (this.prerelease === '') return 1;
    if (o.prerelease === '') return -1;
    return comparePrerelease(this.prerelease, o.prerelease);
  }

  /** `Equal` (metadata ignored). */
  public equals(o: MastermindsVersion): boolean {
    return this.compare(o) === 0;
  }
}

// ---- constraints.go ----

const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CV = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?'
  + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?'
  + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const CONSTRAINT_REGEX = new RegExp(`^${S}*(${OPS})${S}*(${CV})${S}*$`);
const CONSTRAINT_RANGE_SOURCE = `${S}*(${CV})${S}+-${S}+(${CV})${S}*`;
const FIND_CONSTRAINT_SOURCE = `(${OPS})${S}*(${CV})`;
/** `validConstraintRegex` as upstream writes it (RE2 runs it in linear time; a backtracking engine does not). */
export const VALID_CONSTRAINT_UPSTREAM_SOURCE = `^(${S}*(${OPS})${S}*(${CV})${S}*)((?:${S}+|,${S}*)(${OPS})${S}*(${CV})${S}*)*$`;

/**
 * The same language as `VALID_CONSTRAINT_UPSTREAM_SOURCE` without exponential backtracking in JavaScript (a 62-character
 * text of spaced numbers took minutes): every whitespace run is consumed whole (an atomic `(?=(\s*))\N`), an empty
 * operator is written as no operator, and the separator between two constraints is a run of whitespace or a comma
 * (checked with a look-behind: a constraint never ends in whitespace or a comma). The test compares both on
 * generated texts.
 */
function validConstraintSource(): string {
  let n = 0;
  const ws = () => `(?=(${S}*))\\${++n}`;
  const cv = CV.replace(/\((?!\?)/g, '(?:');
  const ops = '!=|>|<|>=|=>|<=|=<|~|~>|\\^|=';
  const item = () => `(?:(?:${ops})${ws()})?${cv}`;
  const first = `^${ws()}${item()}`;
  const sep = `${ws()}(?:,${ws()})?(?<=[\\t\\n\\f\\r ,])`;
  const rest = `(?:${sep}${item()})*`;
  return `${first}${rest}${ws()}$`;
}
export const VALID_CONSTRAINT_REGEX = new RegExp(validConstraintSource());

/** The Go function each operator maps to (`constraintOps`). */
const OP_FUNCS: { [op: string]: string } = {
  '': 'constraintTildeOrEqual',
  '=': 'constraintTildeOrEqual',
  '!=': 'constraintNotEqual',
  '>': 'constraintGreaterThan',
  '<': 'constraintLessThan',
  '>=': 'constraintGreaterThanEqual',
  '=>': 'constraintGreaterThanEqual',
  '<=': 'constraintLessThanEqual',
  '=<': 'constraintLessThanEqual',
  '~': 'constraintTilde',
  '~>': 'constraintTilde',
  '^': 'constraintCaret',
};

type Result = string | undefined; // undefined: matches; else why not

/** One constraint (`constraint`). */
export class MastermindsConstraint {
  /** `parseConstraint`. @throws Error with upstream's message */
  public static parse(c: string): MastermindsConstraint {
    if (c.length > 0) {
      const m = CONSTRAINT_REGEX.exec(c);
      if (!m) throw new Error(`improper constraint: ${goQuote(c)}`);
      const [orig, origfunc, major] = [m[2], m[1], m[3]];
      const minor = m[4] ?? '';
      const patch = m[5] ?? '';
      const pre = m[6] ?? '';
      let ver = orig;
      let minorDirty = false;
      let patchDirty = false;
      let dirty = false;
      if (isX(major) || major === '') {
        ver = `0.0.0${pre}`;
        dirty = true;
      } else if (isX(minor.replace(/^\./, '')) || minor === '') {
        minorDirty = true;
        dirty = true;
        ver = `${major}.0.0${pre}`;
      } else if (isX(patch.replace(/^\./, '')) || patch === '') {
        dirty = true;
        patchDirty = true;
        ver = `${major}${minor}.0${pre}`;
      }
      let con: MastermindsVersion;
      try {
        con = MastermindsVersion.parse(ver);
      } catch {
        throw new Error('constraint parser error');
      }
      return new MastermindsConstraint(con, orig, origfunc, minorDirty, dirty, patchDirty);
    }
    // the empty string: * or >=0.0.0
    return new MastermindsConstraint(MastermindsVersion.parseStrict('0.0.0'), c, '', false, true, false);
  }

  private constructor(
    /** The version compared with (`con`). */
    public readonly con: MastermindsVersion,
    /** The version as written (`orig`). */
    public readonly orig: string,
    /** The operator as written (`origfunc`). */
    public readonly origfunc: string,
    private readonly minorDirty: boolean,
    private readonly dirty: boolean,
    private readonly patchDirty: boolean,
  ) {}

  /** The upstream function the operator maps to, e.g. `constraintGreaterThanEqual`. */
  public get func(): string {
    return OP_FUNCS[this.origfunc];
  }

  /** `string()`. */
  public toString(): string {
    return this.origfunc + this.orig;
  }

  /** `check`: undefined when `v` matches, else upstream's reason. */
  public check(v: MastermindsVersion, includePre: boolean): Result {
    switch (this.func) {
      case 'constraintTildeOrEqual': return this.tildeOrEqual(v, includePre);
      case 'constraintNotEqual': return this.notEqual(v, includePre);
      case 'constraintGreaterThan': return this.greaterThan(v, includePre);
      case 'constraintLessThan': return this.lessThan(v, includePre);
      case 'constraintGreaterThanEqual': return this.greaterThanEqual(v, includePre);
      case 'constraintLessThanEqual': return this.lessThanEqual(v, includePre);
      case 'constraintTilde': return this.tilde(v, includePre);
      default: return this.caret(v, includePre);
    }
  }

  private preRefused(v: MastermindsVersion, includePre: boolean): Result {
    return v.prerelease !== '' && !includePre
      ? `${goQuote(v.toString())} is a prerelease version and the constraint is only looking for release versions` : undefined;
  }

  private why(v: MastermindsVersion, what: string): string {
    return `${goQuote(v.toString())} ${what} ${goQuote(this.orig)}`;
  }

  private notEqual(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    const c = this.con;
    if (this.dirty) {
      if (c.major !== v.major) return undefined;
      if (c.minor !== v.minor && !this.minorDirty) {return undefined;} else if (this.minorDirty) {return this.why(v, 'is equal to');} else if (c.patch !== v.patch && !this.patchDirty) {return undefined;} else if (this.patchDirty) {
        if (v.prerelease !== '' || c.prerelease !== '') {
          if (comparePrerelease(v.prerelease, c.prerelease) !== 0) return undefined;
          return this.why(v, 'is equal to');
        }
        return this.why(v, 'is equal to');
      }
    }
    return v.equals(c) ? this.why(v, 'is equal to') : undefined;
  }

  private greaterThan(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    const c = this.con;
    const no = this.why(v, 'is less than or equal to');
    if (!this.dirty) return v.compare(c) === 1 ? undefined : no;
    if (v.major > c.major) return undefined;
    else if (v.major < c.major) return no;
    else if (this.minorDirty) return no;
    else if (this.patchDirty) return v.minor > c.minor ? undefined : no;
    return v.compare(c) === 1 ? undefined : no;
  }

  private lessThan(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    return v.compare(this.con) < 0 ? undefined : this.why(v, 'is greater than or equal to');
  }

  private greaterThanEqual(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    return v.compare(this.con) >= 0 ? undefined : this.why(v, 'is less than');
  }

  private lessThanEqual(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    const c = this.con;
    const no = this.why(v, 'is greater than');
    if (!this.dirty) return v.compare(c) <= 0 ? undefined : no;
    if (v.major > c.major) return no;
    else if (v.major === c.major && v.minor > c.minor && !this.minorDirty) return no;
    return undefined;
  }

  private tilde(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    const c = this.con;
    if (v.compare(c) < 0) return this.why(v, 'is less than');
    const zero = BigInt(0);
    if (c.major === zero && c.minor === zero && c.patch === zero && !this.minorDirty && !this.patchDirty) return undefined;
    if (v.major !== c.major) return this.why(v, 'does not have same major version as');
    if (v.minor !== c.minor && !this.minorDirty) return this.why(v, 'does not have same major and minor version as');
    return undefined;
  }

  private tildeOrEqual(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    if (this.dirty) return this.tilde(v, includePre);
    return v.equals(this.con) ? undefined : this.why(v, 'is not equal to');
  }

  private caret(v: MastermindsVersion, includePre: boolean): Result {
    const pre = this.preRefused(v, includePre);
    if (pre) return pre;
    const c = this.con;
    const zero = BigInt(0);
    if (v.compare(c) < 0) return this.why(v, 'is less than');
    if (c.major > zero || this.minorDirty) {
      return v.major === c.major ? undefined : this.why(v, 'does not have same major version as');
    }
    if (c.major === zero && v.major > zero) return this.why(v, 'does not have same major version as');
    if (c.minor > zero || this.patchDirty) {
      return v.minor === c.minor ? undefined
        : `${this.why(v, 'does not have same minor version as')}. Expected minor versions to match when constraint major version is 0`;
    }
    if (c.minor === zero && v.minor > zero) return this.why(v, 'does not have same minor version as');
    return c.patch === v.patch ? undefined
      : `${this.why(v, 'does not equal')}. Expect version and constraint to equal when major and minor versions are 0`;
  }
}

/** `isX`. */
export function isX(x: string): boolean {
  return x === 'x' || x === '*' || x === 'X';
}

/** `rewriteRange`: `A - B` becomes `>= A, <= B `. */
export function rewriteRange(i: string): string {
  const matches = [...i.matchAll(new RegExp(CONSTRAINT_RANGE_SOURCE, 'g'))];
  let o = i;
  for (const v of matches) {
    const t = `>= ${v[1]}, <= ${v[11]} `;
    const at = o.indexOf(v[0]);
    if (at >= 0) o = o.slice(0, at) + t + o.slice(at + v[0].length); // strings.Replace(o, v[0], t, 1)
  }
  return o;
}

/** A constraint text as Masterminds/semver v3 reads it (`Constraints`): OR groups (`||`) of ANDed constraints. */
export class MastermindsConstraints {
  /** `NewConstraint`. @throws Error with upstream's message (`improper constraint: "..."`) */
  public static parse(text: string): MastermindsConstraints {
    const c = rewriteRange(text);
    const ors = c.split('||');
    const groups: MastermindsConstraint[][] = [];
    const containsPre: boolean[] = [];
    for (const v of ors) {
      if (!VALID_CONSTRAINT_REGEX.test(v)) throw new Error(`improper constraint: ${goQuote(v)}`);
      let cs = [...v.matchAll(new RegExp(FIND_CONSTRAINT_SOURCE, 'g'))].map((m) => m[0]);
      if (cs.length === 0) cs = [v];
      const group = cs.map((s) => MastermindsConstraint.parse(s));
      containsPre.push(group.some((pc) => pc.con.prerelease !== ''));
      groups.push(group);
    }
    return new MastermindsConstraints(groups, containsPre);
  }

  /** Upstream's error for `text`, or undefined when it parses. */
  public static problem(text: string): string | undefined {
    try {
      MastermindsConstraints.parse(text);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /**
   * `IncludePrerelease`: match prerelease versions in every group (operator-controller leaves it false).
   */
  public includePrerelease = false;

  private constructor(
    /** The OR groups, each a list of ANDed constraints. */
    public readonly groups: MastermindsConstraint[][],
    /** Per group: whether one of its constraints names a prerelease (then the group matches prereleases). */
    public readonly containsPre: boolean[],
  ) {}

  /** `Check`. */
  public check(v: MastermindsVersion): boolean {
    return this.groups.some((o, i) => o.every((c) => c.check(v, this.includePrerelease || this.containsPre[i]) === undefined));
  }

  /** `Validate`: whether `v` matches, and otherwise upstream's reasons. */
  public validate(v: MastermindsVersion): { ok: boolean; reasons: string[] } {
    const e: string[] = [];
    let prereleaseSaid = false;
    for (let i = 0; i < this.groups.length; i++) {
      let joy = true;
      for (const c of this.groups[i]) {
        if (!(this.includePrerelease || this.containsPre[i]) && v.prerelease !== '') {
          if (!prereleaseSaid) {
            e.push(`${goQuote(v.toString())} is a prerelease version and the constraint is only looking for release versions`);
            prereleaseSaid = true;
          }
          joy = false;
        } else {
          const r = c.check(v, this.includePrerelease || this.containsPre[i]);
          if (r !== undefined) {
            e.push(r);
            joy = false;
          }
        }
      }
      if (joy) return { ok: true, reasons: [] };
    }
    return { ok: false, reasons: e };
  }

  /** `String()`: groups joined by ` || `, constraints by a space. */
  public toString(): string {
    return this.groups.map((g) => g.map((c) => c.toString()).join(' ')).join(' || ');
  }
}
