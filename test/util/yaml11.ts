/**
 * The YAML 1.1 hazards: strings that a YAML 1.1 reader (go-yaml v2, so kubectl and the API clients) reads as
 * something other than the string `yaml` (YAML 1.2) wrote, in every form the writer knows. The tests' own list
 * (one definition), independent of the writer's rules in src/output/go-yaml.ts, so a rule missing there fails a test.
 */

/**
 * Scalars a YAML 1.1 reader resolves to something other than the string when written plain: a bool, null, number,
 * timestamp, merge key or value key for go-yaml v2 (resolve.go), or, for a few, for other YAML 1.1 readers only (the
 * writer quotes those too): the other casings (`yEs`), sexagesimal numbers (`1:20`), `_1`, `1e999` (out of
 * float64's range) and the timestamps are strings for kubectl (test/core/go-yaml-numbers.test.ts has go-yaml's own
 * numbers, checked against kubectl).
 */
export const YAML11_FORMS: readonly string[] = [
  // booleans and null in every casing (resolve.go resolveMapList; other casings for other 1.1 readers)
  'y', 'Y', 'yes', 'Yes', 'YES', 'yEs', 'n', 'N', 'no', 'No', 'NO', 'nO', 'on', 'On', 'ON', 'oN', 'off', 'Off', 'OFF', 'oFf',
  'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'fAlse', '~', 'null', 'Null', 'NULL', 'nULL', '',
  // numbers: Go's strconv base 0 (0x 0o 0b in either case, leading 0), underscores, floats, sexagesimal, big integers
  '0X1F', '0x1f', '0O17', '0o17', '0o022', '0B11', '0b11', '-0b11', '+0x1F', '0777', '08', '1_000', '_1', '1__', '0x_1F',
  '.5', '.5_5', '-.5', '+1', '1e3', '1E+3', '1e999', '190:20:30', '1:20', '99999999999999999999', '0x1FFFFFFFFFFFFFFFF',
  // resolve.go's own `0b` parse (`strconv.ParseInt(plain[2:], 2, 64)`) takes a sign after the prefix: -1, 1
  '0b-1', '0b+1',
  '.inf', '.Inf', '.INF', '-.inf', '-.Inf', '+.inf', '.nan', '.NaN', '.NAN', '.iNf',
  // timestamps, merge key, value key
  '2020-01-01', '2020-1-2', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10', '<<', '=',
];

/** Strings with characters go-yaml refuses raw or reads as line breaks, also inside quotes. */
export const YAML11_CHARACTER_CASES: readonly string[] = [
  '\x7f', 'a\x7fb', '\x80', '\x85', 'a\x85b', 'ok\u2028kind: ClusterRoleBinding', '\u2029', '\ufeff', 'a\ufeffb', '\ufffe', '\uffff',
  'a\nb\u2028c', 'x\n'.repeat(25) + '\u0085', '\x01', '\x1b[0m', 'a\rb', '\t', 'é\u00a0日本', '😀',
];
