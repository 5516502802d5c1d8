/**
 * A faithful port of Go's `time.ParseDuration` (go/src/time/format.go), so an interval that OLM would reject at
 * run time is caught at synth time. OLM reads `spec.updateStrategy.registryPoll.interval` with Go
 * `time.ParseDuration`; when it does not parse, it polls every 15 minutes instead and only keeps the error in an
 * in-memory field (operator-framework/api `pkg/operators/v1alpha1/catalogsource_types.go`,
 * `UpdateStrategy.UnmarshalJSON`, `DefaultRegistryPollDuration`).
 */

const NANOSECOND = 1n;
const MICROSECOND = 1000n * NANOSECOND;
const MILLISECOND = 1000n * MICROSECOND;
const SECOND = 1000n * MILLISECOND;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;

// Go's unitMap: "µs" is U+00B5 (micro sign), "μs" is U+03BC (Greek mu).
const UNITS: Record<string, bigint> = {
  ns: NANOSECOND,
  us: MICROSECOND,
  µs: MICROSECOND,
  μs: MICROSECOND,
  ms: MILLISECOND,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};

const MAX_U = 2n ** 63n; // 1<<63 in Go's uint64 arithmetic

/** Parses and checks Go duration strings (`300ms`, `-1.5h`, `2h45m`). */
export class GoDuration {
  /**
   * Why Go's `time.ParseDuration` rejects `text`, in Go's own words (`time: invalid duration "1d"`), or
   * `undefined` when it parses.
   */
  public static problem(text: string): string | undefined {
    const r = GoDuration.parseInternal(text);
    return typeof r === 'string' ? r : undefined;
  }

  /**
   * The duration in nanoseconds, as a decimal string (Go's int64 does not fit a JavaScript number).
   * @throws Error with Go's message when `text` is not a Go duration
   */
  public static toNanoseconds(text: string): string {
    const r = GoDuration.parseInternal(text);
    if (typeof r === 'string') throw new Error(r);
    return r.toString();
  }

  /**
   * The duration in seconds (rounded to a JavaScript number).
   * @throws Error with Go's message when `text` is not a Go duration
   */
  public static toSeconds(text: string): number {
    return Number(BigInt(GoDuration.toNanoseconds(text))) / 1e9;
  }

  private static parseInternal(orig: string): bigint | string {
    if (typeof orig !== 'string') return `time: invalid duration: a string is needed, got ${orig === null ? 'null' : typeof orig}`;
    const invalid = `time: invalid duration ${quote(orig)}`;
    let s = orig;
    let d = 0n;
    let neg = false;
    if (s !== '') {
      const c = s[0];
      if (c === '-' || c === '+') {
        neg = c === '-';
        s = s.slice(1);
      }
    }
    // Special case: if all that is left is "0", this is zero.
    if (s === '0') return 0n;
    if (s === '') return invalid;
    while (s !== '') {
      let v = 0n;
      let f = 0n;
      let scale = 1;
      // The next character must be [0-9.]
      if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
      // Consume [0-9]*
      let pl = s.length;
      const li = leadingInt(s);
      if (li === undefined) return invalid;
      [v, s] = li;
      const pre = pl !== s.length;
      // Consume (\.[0-9]*)?
      let post = false;
      if (s !== '' && s[0] === '.') {
        s = s.slice(1);
        pl = s.length;
        [f, scale, s] = leadingFraction(s);
        post = pl !== s.length;
      }
      if (!pre && !post) return invalid; // no digits (e.g. ".s" or "-.s")
      // Consume unit.
      let i = 0;
      for (; i < s.length; i++) {
        const c = s[i];
        if (c === '.' || isDigit(c)) break;
      }
      if (i === 0) return `time: missing unit in duration ${quote(orig)}`;
      const u = s.slice(0, i);
      s = s.slice(i);
      const unit = Object.prototype.hasOwnProperty.call(UNITS, u) ? UNITS[u] : undefined;
      if (unit === undefined) return `time: unknown unit ${quote(u)} in duration ${quote(orig)}`;
      if (v > MAX_U / unit) return invalid; // overflow
      v *= unit;
      if (f > 0n) {
        // float64 is needed to be nanosecond accurate for fractions of hours (as in Go).
        v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
        if (v > MAX_U) return invalid;
      }
      d += v;
      if (d > MAX_U) return invalid;
    }
    if (neg) return -d;
    if (d > MAX_U - 1n) return invalid;
    return d;
  }

  private constructor() {}
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Go's leadingInt: consumes [0-9]*; undefined on overflow. */
function leadingInt(s: string): [bigint, string] | undefined {
  let x = 0n;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (!isDigit(c)) break;
    if (x > MAX_U / 10n) return undefined;
    x = x * 10n + BigInt(c.charCodeAt(0) - 48);
    if (x > MAX_U) return undefined;
  }
  return [x, s.slice(i)];
}

/** Go's leadingFraction: consumes [0-9]*, ignoring digits once the value would overflow. */
function leadingFraction(s: string): [bigint, number, string] {
  let x = 0n;
  let scale = 1;
  let overflow = false;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (!isDigit(c)) break;
    if (overflow) continue;
    if (x > (MAX_U - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(c.charCodeAt(0) - 48);
    if (y > MAX_U) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return [x, scale, s.slice(i)];
}

/**
 * Go's `quote` in format.go: double quotes, `"` and `\` escaped, and every UTF-8 byte of a non-ASCII or control
 * character written as `\xNN` (so `"µ"` reads `"\xc2\xb5"` in Go's message, and U+FFFD `"\xef\xbf\xbd"`).
 * JavaScript strings cannot hold Go's invalid UTF-8 bytes; a lone surrogate is encoded as U+FFFD.
 */
function quote(s: string): string {
  // Go's own quoting; a value longer than any duration is cut so the message stays readable
  const max = 300;
  const cut = s.length > max ? s.slice(0, max) : s;
  const suffix = s.length > max ? `... (${s.length - max} more characters)` : '';
  let out = '"';
  for (const ch of cut) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const byte of Buffer.from(ch, 'utf-8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"' + suffix;
}
