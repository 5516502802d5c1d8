/**
 * src/output/go-yaml.ts alone (the `yaml-writer` mutation target, docs/testing.md): which plain scalars go-yaml v2
 * reads as something other than the string, and the escapes of the double-quoted form.
 *
 * The writer's own tests (yaml-writer.test.ts) mostly cannot see `GoYaml.resolvesToNonString`: the `yaml` package's
 * YAML 1.1 schema already quotes `yes`, `1_000` or `.5`, so a rule missing here changes the output only for the few
 * forms `yaml` writes plain (`0X1F`, `0o17`, `0b-1`). These tables pin the rule itself, from upstream:
 * sigs.k8s.io/yaml v1.4.0 `goyaml.v2/resolve.go` (`resolveTable`, `resolveMapList`, `resolve`, `parseTimestamp`),
 * `goyaml.v2/decode_test.go` (`unmarshalTests`), `goyaml.v2/encode.go` (`stringv`: go-yaml's own encoder quotes a
 * string when `resolve("", s)` is not `!!str` or `isBase60Float(s)`) and `goyaml.v2/encode_test.go`.
 */
import { GoYaml } from '../../src/output/go-yaml';
import { cdk8sWritesUnfaithfully, YamlWriter } from '../../src/output/yaml-writer';
import { describeWithKubectl, kubectlRead } from '../util/kubectl';

/**
 * Plain scalars go-yaml v2 resolves to a bool, an int, a float or null that JSON can hold (kubectl reads each as a
 * non-string: checked below in one call). decode_test.go `unmarshalTests` rows decoded into `interface{}`, then
 * resolve.go's own branches.
 */
const RESOLVED_IN_JSON: readonly string[] = [
  // decode_test.go unmarshalTests (`v: true` .. `english: null`)
  'true', '10', '0b10', '0xA', '0.1', '.1', '-10', '-.1', '6.8523e+5', '685.230_15e+03', '685_230.15', 'y', 'NO', 'True',
  'on', '685230', '+685_230', '02472256', '0x_0A_74_AE', '0b1010_0111_0100_1010_1110', '-0b101010',
  `-0b1${'0'.repeat(63)}`, '~', 'null', '123456e1', '123456E1', '4294967296',
  // resolveMapList: every spelling of the bools and null
  'Y', 'yes', 'Yes', 'YES', 'TRUE', 'On', 'ON', 'n', 'N', 'no', 'No', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', 'Null', 'NULL',
  // `resolve` hint '.': strconv.ParseFloat of the scalar as written (Go takes `_` between digits)
  '.5', '.5_5', '.5e3', '.5E-3', '.5e1_0',
  // hint 'D'/'S': `_` removed, then ParseInt(plain, 0, 64) (0x 0o 0b in either case, a leading 0: octal), ParseUint,
  // yamlStyleFloat (`08` is no octal but a float), and `0b`/`-0b` by hand
  '0X1F', '0o17', '0O17', '0B11', '+0x1F', '-0b11', '0777', '08', '1_000', '1__', '0x_1F', '-_1', '+1', '1e3', '1E+3', '1.',
  '+.5', '-1.5e-3', `0b${'1'.repeat(64)}`,
  // resolve.go's `0b` fallback: `strconv.ParseInt(plain[2:], 2, 64)` takes a sign after the prefix
  '0b-1', '0b+1', '0b-10', '0b-1_0', '0b_-1', '0b+11_1',
];

/**
 * Resolved by go-yaml but not to a JSON value, or quoted for YAML 1.1 readers other than go-yaml (the rules may quote
 * more than go-yaml needs, never less): .inf/.nan (resolveMapList; JSON cannot hold them, kubectl refuses the file),
 * timestamps (resolve returns `!!timestamp`; decode.go hands `interface{}` the text, but go-yaml's own encoder quotes
 * them), sexagesimal numbers (encode.go `isBase60Float`), the bools and null in every casing, the merge key `<<`
 * (decode.go `isMerge`) and YAML 1.1's value key `=`, the empty string (null).
 */
const QUOTED_FOR_YAML11: readonly string[] = [
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.iNf', '-.iNF',
  // decode_test.go's timestamp rows, encode_test.go `a: "2015-02-24T18:19:39Z"`, the allowedTimestampFormats
  '2015-01-01', '2015-02-24T18:19:39.12Z', '2015-2-3T3:4:5Z', '2015-02-24t18:19:39Z', '2015-02-24 18:19:39', '2015-02-24T18:19:39Z',
  '2001-12-14 21:59:43.10',
  // encode_test.go `a: "1:1"`; isBase60Float's regexp `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
  '1:1', '190:20:30', '190:20:30.15', '-1:20', '+1_0:5:59.', '1:0',
  'yEs', 'yES', 'nO', 'oN', 'oFF', 'tRUE', 'fALSE', 'nULL', 'nuLL',
  '<<', '=', '',
];

/**
 * Plain scalars go-yaml v2 reads as the string itself, which the writer leaves plain as cdk8s does (kubectl reads
 * each as the same string: checked below in one call). The neighbours of every rule: a first character outside
 * resolve.go's `resolveTable` (`_`, letters but `yYnNtTfFoO`), words one letter longer, hint '.' without digits,
 * a sign or a case ParseInt and the `0b` fallback refuse, dates without a day.
 */
const PLAIN_STRINGS: readonly string[] = [
  'hi', '<foo>', '你好', 'a1', '_1', '_0x1F', 'x1', 'yesx', 'Yess', 'yes!', 'nulls', 'falses', 'onion', 'o', 'O', 'T', 'F', 'tru',
  'nan', 'inf', '-.nan', '+.nan', '.', '..', '._5', '.e5', '.a', '.5x', 'Infinity', '==',
  '0B-1', '0b--1', '-0b-1', '+0b-1', '-0b+1', '0b-', '0b-2', '0b+', '10b-1', '0b-1x', '0x', '0x1G', '1a', '1e', '1.2.3.4',
  '2015-1', '123-45-6', '2015-01', '1-2-3', 'true1', '0o8', '1:60', '1:2:3a', '+',
];

describe('GoYaml.resolvesToNonString: go-yaml v2 resolve.go', () => {
  test('GIVEN the plain scalars go-yaml resolves to a bool, an int, a float or null (decode_test.go, resolve.go) THEN each is quoted', () => {
    expect(RESOLVED_IN_JSON.map((s) => [s, GoYaml.resolvesToNonString(s)])).toEqual(RESOLVED_IN_JSON.map((s) => [s, true]));
  });

  test('GIVEN .inf/.nan, timestamps, sexagesimal numbers, other casings, `<<`, `=` and the empty string THEN each is quoted', () => {
    expect(QUOTED_FOR_YAML11.map((s) => [s, GoYaml.resolvesToNonString(s)])).toEqual(QUOTED_FOR_YAML11.map((s) => [s, true]));
  });

  test('GIVEN the neighbours go-yaml reads as strings (first characters outside resolveTable, near-words, failed parses) THEN none is quoted', () => {
    expect(PLAIN_STRINGS.map((s) => [s, GoYaml.resolvesToNonString(s)])).toEqual(PLAIN_STRINGS.map((s) => [s, false]));
  });

  test('GIVEN resolve.go\'s `0b` fallback forms (a sign after the prefix) THEN cdk8s writes them plain and the writer quotes them', () => {
    const forms = ['0b-1', '0b+1', '0b-1_0', '0b_-1'];
    expect(forms.map((s) => [s, cdk8sWritesUnfaithfully(s), YamlWriter.document({ [s]: s })])).toEqual(
      forms.map((s) => [s, true, `"${s}": "${s}"\n`]));
    // the neighbours go-yaml reads as strings stay plain, byte for byte cdk8s
    expect(['0B-1', '-0b+1', '0b--1'].map((s) => YamlWriter.document({ v: s }))).toEqual(['v: 0B-1\n', 'v: -0b+1\n', 'v: 0b--1\n']);
  });
});

describeWithKubectl('GoYaml.resolvesToNonString: kubectl reads the tables as they say', () => {
  test('GIVEN the resolved and the plain tables written plain THEN kubectl reads a non-string for each resolved one and the string for each plain one (one call)', () => {
    const text = ['apiVersion: example.com/v1', 'kind: Thing', 'metadata:', '  name: t', 'spec:', '  resolved:',
      ...RESOLVED_IN_JSON.map((s) => `  - ${s}`), '  plain:', ...PLAIN_STRINGS.map((s) => `  - k: ${s}`), ''].join('\n');
    const [read] = kubectlRead(text);
    expect(read.spec.resolved.map((v: unknown, i: number) => [RESOLVED_IN_JSON[i], typeof v === 'string'])).toEqual(
      RESOLVED_IN_JSON.map((s) => [s, false]));
    expect(read.spec.plain).toEqual(PLAIN_STRINGS.map((s) => ({ k: s })));
  });

  test('GIVEN the writer\'s output for the `0b` fallback forms as keys and values THEN kubectl reads the strings (one call)', () => {
    const spec = Object.fromEntries(['0b-1', '0b+1', '0b-1_0', '0b_-1'].map((s) => [s, s]));
    const doc = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec };
    expect(kubectlRead(YamlWriter.stringify([doc]))).toEqual([doc]);
  });
});

describe('GoYaml.doubleQuoted and escapeRawUnsafe: the escapes', () => {
  test('GIVEN the characters JSON leaves raw above U+00FF (BOM, U+FFFE, U+FFFF) THEN `\\uXXXX` escapes in upper case, in both', () => {
    expect(GoYaml.doubleQuoted('a\ufeffb\ufffe\uffff')).toEqual('"a\\uFEFFb\\uFFFE\\uFFFF"');
    expect(GoYaml.escapeRawUnsafe('a\ufeffb\ufffe\uffff')).toEqual('a\\uFEFFb\\uFFFE\\uFFFF');
  });

  test('GIVEN a JSON `\\u` escape outside U+0000-U+00FF (a lone surrogate, which the writer refuses before) THEN kept as JSON writes it, never a `\\x` escape of another character', () => {
    expect([GoYaml.doubleQuoted('\ud800'), GoYaml.doubleQuoted('a\udc00\x07')]).toEqual(['"\\ud800"', '"a\\udc00\\a"']);
  });

  test('GIVEN JSON\'s other escapes and yaml\'s short forms together THEN each as yaml writes it', () => {
    expect(GoYaml.doubleQuoted('"\\\n\t\x00\x01\x1b\x7f\x85\u2028\u2029\u00e9')).toEqual('"\\"\\\\\\n\\t\\0\\x01\\e\\x7f\\N\\L\\P\u00e9"');
  });
});
