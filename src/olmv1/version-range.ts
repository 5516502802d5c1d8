/**
 * The subset of ClusterExtension `spec.source.catalog.version` (Masterminds/semver/v3 constraints, as
 * operator-controller's `internal/operator-controller/catalogmetadata/filter` reads them) that a team may write
 * when its versions are restricted: one exact version, or one interval with a lower bound and an optional upper
 * bound, e.g. `1.2.3`, `>=1.2.0 <2.0.0`, `>1.2.0, <=1.4.0`. Only `X.Y.Z` versions without prerelease or build
 * parts, so the same grammar can be decided in CEL by the team's admission policy (OlmV1TeamGuardrails): an
 * interval is comparable with the team's allowed interval, a regex on the text is not.
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
/**
 * The grammar after removing spaces and commas (what the admission policy matches too). Spaces or a comma separate
 * the two comparators in Masterminds' syntax (`>=1.2.0 <2.0.0`, `>=1.2.0, <2.0.0`), both meaning AND.
 */
const NORMALIZED_RANGE_PATTERN = `^(${VERSION}|>=?${VERSION}(<=?${VERSION})?)$`;
const NORMALIZED = new RegExp(NORMALIZED_RANGE_PATTERN);

/** A version interval in the grammar above. */
export class OlmV1VersionRange {
  /** The grammar as an RE2/ECMAScript regex, on the normalized text (`normalize`). */
  public static readonly NORMALIZED_PATTERN: string = NORMALIZED_RANGE_PATTERN;

  /** The text with spaces and commas removed, as the admission policy sees it. */
  public static normalize(text: string): string {
    return text.replace(/[ ,]/g, '');
  }

  /** Why `text` is outside the grammar, or undefined. */
  public static problem(text: string): string | undefined {
    if (NORMALIZED.test(OlmV1VersionRange.normalize(text))) return undefined;
    return `'${text}' is not an exact version 'X.Y.Z' or an interval '>=X.Y.Z <A.B.C' (lower bound '>=' or '>', optional upper bound '<' or '<=', numbers without prerelease, each at most ${MAX_VERSION_PART})`;
  }

  /** Parses `text`. @throws Error when it is outside the grammar */
  public static parse(text: string): OlmV1VersionRange {
    const problem = OlmV1VersionRange.problem(text);
    if (problem) throw new Error(`OlmV1VersionRange: ${problem}`);
    const n = OlmV1VersionRange.normalize(text);
    if (!n.startsWith('>')) return new OlmV1VersionRange(text, { version: n, inclusive: true }, { version: n, inclusive: true });
    const [lowerText, upperText] = n.split('<');
    const lower = { version: lowerText.replace(/^>=?/, ''), inclusive: lowerText.startsWith('>=') };
    if (upperText === undefined) return new OlmV1VersionRange(text, lower, undefined);
    return new OlmV1VersionRange(text, lower, { version: upperText.replace(/^=/, ''), inclusive: upperText.startsWith('=') });
  }

  /** Compares two `X.Y.Z` versions numerically: negative, 0 or positive. */
  public static compare(a: string, b: string): number {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return 0;
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

  /** Whether `version` (`X.Y.Z`) is inside. */
  public contains(version: string): boolean {
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
