import fc from 'fast-check';
import { GoDuration } from '../../src/core/go-duration';

// Ported from Go's src/time/time_test.go (parseDurationTests, parseDurationErrorTests), keeping the inputs and order.
// Go's cases with invalid UTF-8 bytes ("\x85\x85", "\xffff") cannot be written as JavaScript strings and are left out.
const ns = 1n;
const us = 1000n * ns;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;

const parseDurationTests: Array<[string, bigint]> = [
  // simple
  ['0', 0n],
  ['5s', 5n * s],
  ['30s', 30n * s],
  ['1478s', 1478n * s],
  // sign
  ['-5s', -5n * s],
  ['+5s', 5n * s],
  ['-0', 0n],
  ['+0', 0n],
  // decimal
  ['5.0s', 5n * s],
  ['5.6s', 5n * s + 600n * ms],
  ['5.s', 5n * s],
  ['.5s', 500n * ms],
  ['1.0s', 1n * s],
  ['1.00s', 1n * s],
  ['1.004s', 1n * s + 4n * ms],
  ['1.0040s', 1n * s + 4n * ms],
  ['100.00100s', 100n * s + 1n * ms],
  // different units
  ['10ns', 10n * ns],
  ['11us', 11n * us],
  ['12\u00b5s', 12n * us], // U+00B5
  ['12\u03bcs', 12n * us], // U+03BC
  ['13ms', 13n * ms],
  ['14s', 14n * s],
  ['15m', 15n * m],
  ['16h', 16n * h],
  // composite durations
  ['3h30m', 3n * h + 30n * m],
  ['10.5s4m', 4n * m + 10n * s + 500n * ms],
  ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)],
  ['1h2m3s4ms5us6ns', 1n * h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n * ns],
  ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
  // large value
  ['52763797000ns', 52763797000n * ns],
  // more than 9 digits after decimal point, see https://golang.org/issue/6617
  ['0.3333333333333333333h', 20n * m],
  // 9007199254740993 = 1<<53+1 cannot be stored precisely in a float64
  ['9007199254740993ns', 2n ** 53n + 1n],
  // largest duration that can be represented by int64 in nanoseconds
  ['9223372036854775807ns', 2n ** 63n - 1n],
  ['9223372036854775.807us', 2n ** 63n - 1n],
  ['9223372036s854ms775us807ns', 2n ** 63n - 1n],
  ['-9223372036854775808ns', -(2n ** 63n)],
  ['-9223372036854775.808us', -(2n ** 63n)],
  ['-9223372036s854ms775us808ns', -(2n ** 63n)],
  // largest negative value
  ['-9223372036854775808ns', -(2n ** 63n)],
  // largest negative round trip value, see https://golang.org/issue/48629
  ['-2562047h47m16.854775808s', -(2n ** 63n)],
  // huge string; issue 15011.
  ['0.100000000000000000000h', 6n * m],
  // This value tests the first overflow check in leadingFraction.
  ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n * ns],
];

const parseDurationErrorTests: Array<[string, string]> = [
  // invalid
  ['', '""'],
  ['3', '"3"'],
  ['-', '"-"'],
  ['s', '"s"'],
  ['.', '"."'],
  ['-.', '"-."'],
  ['.s', '".s"'],
  ['+.s', '"+.s"'],
  ['1d', '"1d"'],
  ['\uFFFD', '"\\xef\\xbf\\xbd"'], // utf8.RuneError
  ['\uFFFD hello \uFFFD world', '"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'], // utf8.RuneError
  // overflow
  ['9223372036854775810ns', '"9223372036854775810ns"'],
  ['9223372036854775808ns', '"9223372036854775808ns"'],
  ['-9223372036854775809ns', '"-9223372036854775809ns"'],
  ['9223372036854776us', '"9223372036854776us"'],
  ['3000000h', '"3000000h"'],
  ['9223372036854775.808us', '"9223372036854775.808us"'],
  ['9223372036854ms775us808ns', '"9223372036854ms775us808ns"'],
];

describe('GoDuration (port of Go time.ParseDuration)', () => {
  test.each(parseDurationTests)('parseDurationTests %s', (input, want) => {
    // WHEN
    const got = BigInt(GoDuration.toNanoseconds(input));
    // THEN
    expect(got).toEqual(want);
    expect(GoDuration.problem(input)).toBeUndefined();
  });

  test.each(parseDurationErrorTests)('parseDurationErrorTests %s', (input, quoted) => {
    // WHEN
    const problem = GoDuration.problem(input);
    // THEN: Go's error text contains the quoted input
    expect(problem).toContain(quoted);
    expect(() => GoDuration.toNanoseconds(input)).toThrow(problem!);
  });

  test('error messages say what is wrong, in Go words', () => {
    expect(GoDuration.problem('1d')).toEqual('time: unknown unit "d" in duration "1d"');
    expect(GoDuration.problem('3')).toEqual('time: missing unit in duration "3"');
    expect(GoDuration.problem('abc')).toEqual('time: invalid duration "abc"');
    expect(GoDuration.problem('15 m')).toEqual('time: unknown unit " m" in duration "15 m"');
  });

  test('non-ASCII and control characters are quoted byte by byte, as Go\'s format.go quote does', () => {
    expect(GoDuration.problem('1\u00b5')).toEqual('time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"');
    // the unit runs to the next digit or ".", so the tab belongs to it
    expect(GoDuration.problem('1m\t')).toEqual('time: unknown unit "m\\x09" in duration "1m\\x09"');
    expect(GoDuration.problem('"1x\\')).toEqual('time: invalid duration "\\"1x\\\\"');
  });

  test('toSeconds', () => {
    expect(GoDuration.toSeconds('1h30m')).toEqual(5400);
    expect(GoDuration.toSeconds('250ms')).toEqual(0.25);
  });

  // operator-framework/api pkg/operators/v1alpha1/catalogsource_types_test.go (UpdateStrategy.UnmarshalJSON): the
  // Go error that OLM puts after "Using the default value of 15m0s instead. Error: "
  test.each([
    ['valid', '45m', undefined],
    ['invalid', '19mError Code', 'time: unknown unit "mError Code" in duration "19mError Code"'],
    ['empty', '', 'time: invalid duration ""'],
  ])('catalogsource_types_test %s', (_name, input, want) => {
    expect(GoDuration.problem(input)).toEqual(want);
  });

  describe('properties (fast-check)', () => {
    const UNITS: Array<[string, bigint]> = [['ns', ns], ['us', us], ['\u00b5s', us], ['\u03bcs', us], ['ms', ms], ['s', s], ['m', m], ['h', h]];

    test('any string: problem() never throws, and toNanoseconds() throws exactly that problem', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.stringMatching(/^[-+]?[0-9.]{0,6}[a-zµμ]{0,3}([0-9.]{0,4}[a-z]{0,2})?$/)), (text) => {
          const problem = GoDuration.problem(text);
          if (problem === undefined) {
            expect(typeof GoDuration.toNanoseconds(text)).toBe('string');
          } else {
            expect(problem).toMatch(/^time: (invalid duration|missing unit in duration|unknown unit .* in duration) "/);
            expect(() => GoDuration.toNanoseconds(text)).toThrow(problem);
          }
        }),
      );
    });

    test('a sequence of integer components is the sum of value x unit, and a leading "-" negates it', () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 1000000n }), fc.constantFrom(...UNITS)), { minLength: 1, maxLength: 6 }),
          fc.constantFrom('', '+', '-'),
          (parts, sign) => {
            const text = sign + parts.map(([n, [u]]) => `${n}${u}`).join('');
            const sum = parts.reduce((acc, [n, [, unit]]) => acc + n * unit, 0n);
            expect(BigInt(GoDuration.toNanoseconds(text))).toEqual(sign === '-' ? -sum : sum);
          },
        ),
      );
    });

    test('fractional seconds with up to 9 digits are exact to the nanosecond', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.stringMatching(/^[0-9]{1,9}$/), (whole, frac) => {
          const want = whole * s + BigInt(frac) * 10n ** BigInt(9 - frac.length);
          expect(BigInt(GoDuration.toNanoseconds(`${whole}.${frac}s`))).toEqual(want);
        }),
      );
    });
  });
});
