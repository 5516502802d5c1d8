/**
 * How go-yaml v2 reads a plain scalar as a number: `resolve` in gopkg.in/yaml.v2 `resolve.go` (vendored by
 * sigs.k8s.io/yaml as `goyaml.v2/resolve.go`, what kubectl, OLM v0 and operator-controller read YAML with). The
 * `yaml` package's YAML 1.1 schema differs: it reads `0o17`, `0X1F`, `0B11`, `-0o17`, `0b-1`, `-_1` and `1_0e1_0` as
 * strings, and `._5` and `.5_` as numbers; go-yaml the other way round (checked with kubectl 1.32 in
 * test/core/go-yaml-numbers.test.ts). `decodeYamlDocuments` reads numbers with this instead of `yaml`'s int and float
 * tags. `.inf` / `.nan` and their spellings (resolveMap) stay `yaml`'s, which has the same list.
 *
 * The writer keeps its own rules (`GoYaml.resolvesToNonString`, src/output/go-yaml.ts): a superset that quotes a few
 * strings go-yaml would read back anyway (`1e999`, `.5_`), so it never writes a number-looking string plain; the test
 * file checks that it quotes every scalar this reads as a number.
 */

/** `strconv.ParseInt` / `ParseUint` with base 0 (Go's integer literals), after go-yaml removed every `_`. */
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
/** resolve.go `yamlStyleFloat`, tested on the scalar without `_`. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** resolve.go's fallback for a `0b` prefix: `strconv.ParseInt(plain[2:], 2, 64)`, which takes a sign. */
const SIGNED_AFTER_0B = /^0b([-+]?)([01]+)$/;
/**
 * `strconv.ParseFloat(in, 64)` of a scalar that starts with `.` (go-yaml's `.` hint; `_` not removed): Go's decimal
 * float syntax, where an underscore must sit between two digits (strconv `underscoreOK`).
 */
const DOT_FLOAT = /^\.[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?$/;

const INT64_MIN = -(BigInt(2) ** BigInt(63));
const INT64_MAX = BigInt(2) ** BigInt(63) - BigInt(1);
const UINT64_MAX = BigInt(2) ** BigInt(64) - BigInt(1);

/** Go's base-0 integer literal (sign, prefix, digits) as a BigInt. */
function goLiteral(sign: string, digits: string): bigint {
  const lower = digits.toLowerCase();
  // a leading 0 without a letter is octal in Go's base 0 (`010` is 8); `0` alone is 0
  const body = /^0[xbo]/.test(lower) ? lower : lower.length > 1 && lower[0] === '0' ? `0o${lower.slice(1)}` : lower;
  const n = BigInt(body);
  return sign === '-' ? -n : n;
}

/** The scalar's number as go-yaml v2 resolves it (an int or a float), or undefined when it is no number there. */
export function goYamlNumber(s: string): number | undefined {
  if (s.length === 0) return undefined;
  const first = s[0];
  if (first === '.') {
    if (!DOT_FLOAT.test(s)) return undefined;
    const f = Number(s.replace(/_/g, ''));
    // out of range (`.5e400`): ParseFloat fails, so a string
    return Number.isFinite(f) ? f : undefined;
  }
  // resolveTable: only a digit or a sign starts an int, a float or a timestamp (timestamps are not numbers)
  if (!(first === '-' || first === '+' || (first >= '0' && first <= '9'))) return undefined;
  const plain = s.replace(/_/g, '');
  const int = GO_INT.exec(plain);
  if (int) {
    const v = goLiteral(int[1], int[2]);
    // ParseInt within int64; else ParseUint (no sign) within uint64; beyond, a decimal form (a leading 0 too: `0777...`
    // read as decimal digits) is yamlStyleFloat's below, and the rest go-yaml makes a big.Int, which reaches API
    // clients as the scalar's own text (kubectl prints `0x1FFFFFFFFFFFFFFFF` as that string)
    if ((v >= INT64_MIN && v <= INT64_MAX) || (int[1] === '' && v <= UINT64_MAX)) return Number(v);
  }
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    // -0.0 is the float -0, but the JSON the API clients decode it through gives 0 (kubectl prints 0)
    if (Number.isFinite(f)) return f === 0 ? 0 : f;
  }
  const bin = SIGNED_AFTER_0B.exec(plain);
  if (bin) {
    const v = BigInt(`0b${bin[2]}`) * (bin[1] === '-' ? BigInt(-1) : BigInt(1));
    // ParseInt(..., 2, 64), then ParseUint(..., 2, 64) (no sign)
    if ((v >= INT64_MIN && v <= INT64_MAX) || (bin[1] === '' && v <= UINT64_MAX)) return Number(v);
  }
  return undefined;
}
