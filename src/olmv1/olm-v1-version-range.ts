import { MastermindsVersion } from './masterminds-semver';

/**
 * The subset of ClusterExtension `spec.source.catalog.version` (Masterminds/semver/v3 constraints, as
 * operator-controller's `internal/operator-controller/catalogmetadata/compare/compare.go` reads them) that a team may
 * write when its versions are restricted: one exact version, or one interval with a lower bound and an optional upper
 * bound, e.g. `1.2.3`, `>=1.2.0 <2.0.0`, `>1.2.0, <=1.4.0`. Only `X.Y.Z` versions without prerelease or build
 * parts, so the same grammar can be decided in CEL by the team's admission policy (OlmV1TeamGuardrails): an
 * interval is comparable with the team's allowed interval, a regex on the text is not.
 *
 * The grammar is matched on the text as written: a separator (spaces, or a comma with optional spaces) only
 * between the two bounds, at most one space between an operator and its version, nothing before or after. Masterminds
 * reads a comma or a space as AND and a bare version as an exact match (`=`), so `>=1,1.0.0 <2.0.0` is
 * `>=1.0.0 AND =1.0.0 AND <2.0.0`: outside the grammar, refused (deleting the separators first would read it as
 * `>=11.0.0 <2.0.0`). Every text of the grammar means for Masterminds exactly the interval parsed here; a
 * constraint without a prerelease matches no prerelease version (upstream `constraints.go`), so neither does
 * `contains`. test/olmv1/olm-v1-version-range.test.ts checks both against the port (`masterminds-semver.ts`).
 */

/** One bound of a version interval. */
export interface OlmV1VersionBound {
  /** The version, `X.Y.Z`. */
  readonly version: string;
  /** Whether the version itself is inside (`>=`, `<=`, or an exact version). */
  readonly inclusive: boolean;
}

/** Largest number per version part: keeps `major * 10^12 + minor * 10^6 + patch` exact in CEL's int64. */
const MAX_VERSION_PART = 999999;
const PART = '(0|[1-9][0-9]{0,5})';
const VERSION = `${PART}\\.${PART}\\.${PART}`;
/** The grammar on the text as written (what the admission policy matches too). */
const RANGE_PATTERN = `^(${VERSION}|>=? ?${VERSION}(( +| *, *)<=? ?${VERSION})?)$`;
const RANGE = new RegExp(RANGE_PATTERN);

/** A version interval in the grammar above. */
export class OlmV1VersionRange {
  /** The grammar as an RE2/ECMAScript regex, on the text as written. */
  public static readonly PATTERN: string = RANGE_PATTERN;

  /**
   * The text with spaces and commas removed, as the admission policy reads the bounds once the text matched
   * `PATTERN` (where separators stand only between bounds, so nothing is joined).
   */
  public static normalize(text: string): string {
    return text.replace(/[ ,]/g, '');
  }

  /** Why `text` is outside the grammar or an empty interval, or undefined. */
  public static problem(text: string): string | undefined {
    if (!RANGE.test(text)) {
      return `'${text}' is not an exact version 'X.Y.Z' or an interval '>=X.Y.Z <A.B.C' (lower bound '>=' or '>', optional upper bound '<' or '<=' after a space or a comma, numbers without prerelease, each at most ${MAX_VERSION_PART}; Masterminds reads every other comma or space as one more constraint)`;
    }
    const r = OlmV1VersionRange.read(text);
    if (r.upper) {
      const c = OlmV1VersionRange.compare(r.lower.version, r.upper.version);
      if (c > 0 || (c === 0 && !(r.lower.inclusive && r.upper.inclusive))) {
        return `'${text}' admits no version: its lower bound is not below its upper bound`;
      }
    }
    return undefined;
  }

  /** Parses `text`. @throws Error when it is outside the grammar */
  public static parse(text: string): OlmV1VersionRange {
    const problem = OlmV1VersionRange.problem(text);
    if (problem) throw new Error(`OlmV1VersionRange: ${problem}`);
    return OlmV1VersionRange.read(text);
  }

  /** Compares two `X.Y.Z` versions numerically: negative, 0 or positive. */
  public static compare(a: string, b: string): number {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return 0;
  }

  /** The bounds of a text that matches the grammar. */
  private static read(text: string): OlmV1VersionRange {
    const n = OlmV1VersionRange.normalize(text);
    if (!n.startsWith('>')) return new OlmV1VersionRange(text, { version: n, inclusive: true }, { version: n, inclusive: true });
    const [lowerText, upperText] = n.split('<');
    const lower = { version: lowerText.replace(/^>=?/, ''), inclusive: lowerText.startsWith('>=') };
    if (upperText === undefined) return new OlmV1VersionRange(text, lower, undefined);
    return new OlmV1VersionRange(text, lower, { version: upperText.replace(/^=/, ''), inclusive: upperText.startsWith('=') });
  }

  /** The text as written. */
  public readonly text: string;
  /** Lower bound. */
  public readonly lower: OlmV1VersionBound;
  /**
   * Upper bound.
   * @default - none: every later version
   */
  public readonly upper?: OlmV1VersionBound;

  private constructor(text: string, lower: OlmV1VersionBound, upper: OlmV1VersionBound | undefined) {
    this.text = text;
    this.lower = lower;
    this.upper = upper;
  }

  /**
   * Whether Masterminds matches `version` (a bundle version, `X.Y.Z[-pre][+build]`): inside the bounds, not a
   * prerelease (the constraint names none), build metadata ignored. False for a text that is no version.
   */
  public contains(version: string): boolean {
    let v: MastermindsVersion;
    try {
      v = MastermindsVersion.parse(version);
    } catch {
      return false;
    }
    if (v.prerelease !== '') return false;
    version = `${v.major}.${v.minor}.${v.patch}`;
    const lo = OlmV1VersionRange.compare(version, this.lower.version);
    if (lo < 0 || (lo === 0 && !this.lower.inclusive)) return false;
    if (!this.upper) return true;
    const hi = OlmV1VersionRange.compare(version, this.upper.version);
    return hi < 0 || (hi === 0 && this.upper.inclusive);
  }

  /**
   * Whether every version of this interval is inside `allowed`, decided on the bounds (as the admission policy
   * does): the lower bound is not below allowed's, the upper bound not above (a missing upper bound is above any).
   */
  public isWithin(allowed: OlmV1VersionRange): boolean {
    const lo = OlmV1VersionRange.compare(this.lower.version, allowed.lower.version);
    const lowerOk = lo > 0 || (lo === 0 && (allowed.lower.inclusive || !this.lower.inclusive));
    if (!allowed.upper) return lowerOk;
    if (!this.upper) return false;
    const hi = OlmV1VersionRange.compare(this.upper.version, allowed.upper.version);
    return lowerOk && (hi < 0 || (hi === 0 && (allowed.upper.inclusive || !this.upper.inclusive)));
  }
}
