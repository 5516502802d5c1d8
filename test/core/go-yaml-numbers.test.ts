/**
 * Plain scalars read as numbers exactly as go-yaml v2 reads them (sigs.k8s.io/yaml `goyaml.v2/resolve.go`, what
 * kubectl, OLM v0 and operator-controller use): `goYamlNumber` and both of the library's readers
 * (`decodeYamlDocuments`, its `yaml`-only reference), against a table read off kubectl 1.32 and, where kubectl is
 * on PATH, against kubectl itself (the table in one call, generated scalars in another).
 */
import * as fc from 'fast-check';
import { goYamlNumber } from '../../src/core/go-yaml-numbers';
import { decodeYamlDocuments, decodeYamlDocumentsWithYaml } from '../../src/core/yaml-or-json';
import { GoYaml } from '../../src/output/go-yaml';
import { describeWithKubectl, kubectlRead } from '../util/kubectl';

/**
 * [scalar, what kubectl 1.32 reads]. resolve.go: a digit or sign first tries `strconv.ParseInt(plain, 0, 64)` with
 * every `_` removed (Go's base prefixes in either case, a leading `0` is octal), then ParseUint, then
 * `yamlStyleFloat`, then the `0b` fallback `ParseInt(plain[2:], 2, 64)`, which takes a sign; a `.` first is
 * `strconv.ParseFloat(in, 64)` with the underscores left in (one only between digits).
 */
const TABLE: Array<[string, string | number]> = [
  // the `yaml` package's YAML 1.1 schema reads these as strings; go-yaml as numbers
  ['0o17', 15], ['0O17', 15], ['0X1F', 31], ['0B11', 3], ['-0o17', -15], ['0o1_7', 15], ['0b-1', -1], ['0b+1', 1],
  ['-_1', -1], ['+_1', 1], ['1_0e1_0', 100000000000], ['0b_1', 1],
  // and these the other way round: `._5` and `.5_` are no Go float literals (an underscore between digits only)
  ['._5', '._5'], ['.5_', '.5_'], ['.5_0', 0.5],
  // where both agreed already
  ['0x1F', 31], ['0b11', 3], ['-0b11', -3], ['+0x1F', 31], ['0x_1F', 31], ['1__0', 10], ['0_7', 7], ['08', 8], ['0_8', 8],
  ['010', 8], ['0', 0], ['-0', 0], ['+0', 0], ['00', 0], ['007', 7], ['1_', 1], ['1_000', 1000], ['+1', 1],
  ['0x', '0x'], ['0o', '0o'], ['0b', '0b'], ['0o8', '0o8'], ['0x1G', '0x1G'], ['++1', '++1'], ['_1', '_1'],
  ['1e3', 1000], ['1E3', 1000], ['1.', 1], ['0.', 0], ['+.5', 0.5], ['-.5', -0.5], ['.5', 0.5], ['.5e3', 500], ['-.5e1', -5],
  ['1_0.5', 10.5], ['1.5e+3', 1500], ['1.5E-3', 0.0015], ['0e0', 0], ['1e', '1e'], ['1e+', '1e+'],
  // Go hex floats are not yamlStyleFloat; base 60 is gone from go-yaml v2; Go's Inf/NaN spellings are not YAML's
  ['0x1p-2', '0x1p-2'], ['0x1.8p1', '0x1.8p1'], ['1:20', '1:20'], ['190:20:30', '190:20:30'],
  ['Inf', 'Inf'], ['+Inf', '+Inf'], ['infinity', 'infinity'], ['NaN', 'NaN'],
  // int64, then uint64
  ['9223372036854775807', 9223372036854775807], ['-9223372036854775809', -9223372036854775809],
  ['18446744073709551615', 18446744073709551615], ['0xFFFFFFFFFFFFFFFF', 18446744073709551615],
  // beyond uint64: a decimal form is yamlStyleFloat's (a leading 0 read as decimal digits), a prefixed one go-yaml's
  // big.Int, which kubectl prints as the scalar's text
  ['99999999999999999999', 100000000000000000000], ['0777777777777777777777777', 7.777777777777778e+23],
  ['0x1FFFFFFFFFFFFFFFF', '0x1FFFFFFFFFFFFFFFF'], ['0x1_FFFF_FFFF_FFFF_FFFF', '0x1_FFFF_FFFF_FFFF_FFFF'],
  ['0o7777777777777777777777', '0o7777777777777777777777'],
  ['0b11111111111111111111111111111111111111111111111111111111111111111', '0b11111111111111111111111111111111111111111111111111111111111111111'],
  // out of float64's range: ParseFloat fails, so a string
  ['1e400', '1e400'], ['.5e400', '.5e400'],
];

/** Scalars that look like numbers, for the properties and the kubectl comparison. */
function numberLike(): fc.Arbitrary<string> {
  const atoms = ['0', '1', '7', '8', '9', '_', '-', '+', '.', 'e', 'E', 'x', 'X', 'o', 'O', 'b', 'B', 'f', 'F', '0x', '0o', '0b', '1_0'];
  // anything of the alphabet after a digit, a sign or a dot (the only starts go-yaml reads a number from) ...
  const anyForm = fc.tuple(fc.constantFrom('0', '1', '9', '-', '+', '.', '0b', '0x', '0o', '0B'), fc.array(fc.constantFrom(...atoms), { maxLength: 6 }))
    .map(([head, rest]) => head + rest.join(''));
  // ... and number-shaped ones: sign, base prefix, digits with underscores, fraction, exponent (each maybe slightly off)
  const digits = fc.array(fc.constantFrom('0', '1', '5', '7', '8', '9', 'a', 'F', '_'), { minLength: 1, maxLength: 5 }).map((d) => d.join(''));
  const numberShaped = fc.tuple(
    fc.constantFrom('', '', '-', '+', '-_'), fc.constantFrom('', '', '', '0x', '0X', '0o', '0O', '0b', '0B', '0', '0b-', '.'), digits,
    fc.constantFrom('', '', '.', '.5', '._5', '.5_'), fc.constantFrom('', '', 'e3', 'E-1', 'e+1_0', 'e'),
  ).map((parts) => parts.join(''));
  return fc.oneof(anyForm, numberShaped)
    // plain YAML scalars only: `-` or `- x` is a sequence, `---` / `...` mark documents
    .filter((s) => !/^[-+.]$/.test(s) && !/^-(\s|$)/.test(s) && !/^---/.test(s) && !/^\.\.\./.test(s));
}
const NUMBER_LIKE = numberLike();

/** A ConfigMap-shaped document whose `data` holds each scalar plain (kubectl reads objects). */
function documentOf(scalars: string[]): string {
  return ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: numbers', 'spec:', ...scalars.map((s, i) => `  k${i}: ${s}`), ''].join('\n');
}

/** What a reader gives for each scalar, in order. */
function readEach(decode: (text: string) => Array<{ value?: unknown }>, scalars: string[]): unknown[] {
  const spec = (decode(documentOf(scalars))[0].value as any).spec;
  return scalars.map((_, i) => spec[`k${i}`]);
}

describe('goYamlNumber: resolve.go\'s numbers', () => {
  test.each(TABLE)('%s reads as %p', (scalar, read) => {
    expect(goYamlNumber(scalar)).toEqual(typeof read === 'number' ? read : undefined);
  });

  test('never -0: Go ints have no sign bit, and the float -0.0 reaches API clients as the JSON 0 (kubectl prints 0)', () => {
    for (const s of ['-0', '-0.0', '-0e3', '-.0', '-0.', '-_0']) expect([s, Object.is(goYamlNumber(s), 0)]).toEqual([s, true]);
  });

  test('a signed literal beyond int64 is a string unless decimal (ParseUint takes no sign; big.Int only after its range error)', () => {
    expect(goYamlNumber('-0xFFFFFFFFFFFFFFFFF')).toBeUndefined();
    expect(goYamlNumber('+0o7777777777777777777777')).toBeUndefined();
    expect(goYamlNumber('-99999999999999999999')).toEqual(-99999999999999999999);
    expect(goYamlNumber('0b-1111111111111111111111111111111111111111111111111111111111111111')).toBeUndefined();
    expect(goYamlNumber('0b1111111111111111111111111111111111111111111111111111111111111111')).toEqual(18446744073709551615);
  });
});

describe('the writer quotes what the reader reads as a number', () => {
  test('every scalar of the table and every generated one that go-yaml reads as a number is quoted by YamlWriter\'s model (GoYaml.resolvesToNonString)', () => {
    let numbers = 0;
    for (const s of [...TABLE.map(([x]) => x), ...fc.sample(NUMBER_LIKE, 2000)]) {
      if (goYamlNumber(s) === undefined) continue;
      numbers++;
      expect([s, GoYaml.resolvesToNonString(s)]).toEqual([s, true]);
    }
    expect(numbers).toBeGreaterThan(200);
  });
});

describe('decodeYamlDocuments reads numbers as go-yaml v2 does', () => {
  const scalars = TABLE.map(([s]) => s);
  const expected = TABLE.map(([, read]) => read);

  test('the fast reader and the yaml reader give the table\'s values', () => {
    expect(readEach(decodeYamlDocuments, scalars)).toEqual(expected);
    expect(readEach(decodeYamlDocumentsWithYaml, scalars)).toEqual(expected);
  });

  test('as keys too (sigs.k8s.io/yaml writes a number key as its JSON text)', () => {
    const doc = decodeYamlDocuments('0o17: a\n0X1F: b\n._5: c\n')[0].value;
    expect(doc).toEqual({ '15': 'a', '31': 'b', '._5': 'c' });
  });
});

describeWithKubectl('kubectl reads each scalar as the library does', () => {
  test('the table, in one kubectl call', () => {
    const scalars = TABLE.map(([s]) => s);
    const spec = kubectlRead(documentOf(scalars))[0].spec;
    expect(scalars.map((_, i) => spec[`k${i}`])).toEqual(TABLE.map(([, read]) => read));
  });

  test('generated number-like scalars (fixed seed), in one kubectl call: both readers read what kubectl reads', () => {
    const scalars = [...new Set(fc.sample(NUMBER_LIKE, 600))];
    const spec = kubectlRead(documentOf(scalars))[0].spec;
    const kubectl = scalars.map((_, i) => spec[`k${i}`]);
    expect(readEach(decodeYamlDocuments, scalars)).toEqual(kubectl);
    expect(readEach(decodeYamlDocumentsWithYaml, scalars)).toEqual(kubectl);
    // the generator reaches both outcomes often: numbers, and number-like strings
    expect(kubectl.filter((v) => typeof v === 'number').length).toBeGreaterThan(60);
    expect(kubectl.filter((v) => typeof v === 'string').length).toBeGreaterThan(150);
  });
});
