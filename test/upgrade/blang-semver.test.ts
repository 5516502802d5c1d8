import * as fc from 'fast-check';
import { BlangSemver, SemverRange } from '../../src/upgrade/blang-semver';

// Ported from github.com/blang/semver v4 `range_test.go` (TestParseRange), the parser OLM uses for olm.skipRange.
const PARSE_RANGE: Array<[string, Array<[string, boolean]>]> = [
  // Simple expressions
  ['>1.2.3', [['1.2.2', false], ['1.2.3', false], ['1.2.4', true]]],
  ['>=1.2.3', [['1.2.3', true], ['1.2.4', true], ['1.2.2', false]]],
  ['<1.2.3', [['1.2.2', true], ['1.2.3', false], ['1.2.4', false]]],
  ['<=1.2.3', [['1.2.2', true], ['1.2.3', true], ['1.2.4', false]]],
  ['1.2.3', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false]]],
  ['=1.2.3', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false]]],
  ['==1.2.3', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false]]],
  ['!=1.2.3', [['1.2.2', true], ['1.2.3', false], ['1.2.4', true]]],
  ['!1.2.3', [['1.2.2', true], ['1.2.3', false], ['1.2.4', true]]],
  // AND expressions
  ['>1.2.2 <1.2.4', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false]]],
  ['<1.2.2 <1.2.4', [['1.2.1', true], ['1.2.2', false], ['1.2.3', false], ['1.2.4', false]]],
  ['>1.2.2 <1.2.5 !=1.2.4', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false], ['1.2.5', false]]],
  ['>1.2.2 <1.2.5 !1.2.4', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false], ['1.2.5', false]]],
  // OR expressions
  ['>1.2.2 || <1.2.4', [['1.2.2', true], ['1.2.3', true], ['1.2.4', true]]],
  ['<1.2.2 || >1.2.4', [['1.2.2', false], ['1.2.3', false], ['1.2.4', false]]],
  // Wildcard expressions
  ['>1.x', [['0.1.9', false], ['1.2.6', false], ['1.9.0', false], ['2.0.0', true]]],
  ['>1.2.x', [['1.1.9', false], ['1.2.6', false], ['1.3.0', true]]],
  // Combined expressions
  ['>1.2.2 <1.2.4 || >=2.0.0', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false], ['2.0.0', true], ['2.0.1', true]]],
  ['1.x || >=2.0.x <2.2.x', [['0.9.2', false], ['1.2.2', true], ['2.0.0', true], ['2.1.8', true], ['2.2.0', false]]],
  ['>1.2.2 <1.2.4 || >=2.0.0 <3.0.0', [['1.2.2', false], ['1.2.3', true], ['1.2.4', false], ['2.0.0', true], ['2.0.1', true], ['2.9.9', true], ['3.0.0', false]]],
];

describe('SemverRange (blang/semver v4 ParseRange, as OLM reads olm.skipRange)', () => {
  test.each(PARSE_RANGE)('range_test.go TestParseRange %s', (range, cases) => {
    const r = SemverRange.parse(range);
    expect(cases.map(([v]) => [v, r.includes(v)])).toEqual(cases);
  });

  // range_test.go "Simple Expression errors" (except `!1.2.3`, which that table lists by mistake: it parses)
  test.each(['>>1.2.3', '1.0', 'string', '', 'fo.ob.ar.x'])('range_test.go TestParseRange error %j', (range) => {
    expect(SemverRange.problem(range)).toEqual(expect.any(String));
    expect(() => SemverRange.parse(range)).toThrow();
  });

  test('GIVEN the exact error texts of ParseRange THEN they match blang', () => {
    expect([
      SemverRange.problem(''),
      SemverRange.problem('|| >1.0.0'),
      SemverRange.problem('>>1.2.3'),
      SemverRange.problem('1.0'),
      SemverRange.problem('string'),
      SemverRange.problem('>=0.9.0 <0.9.4'),
    ]).toEqual([
      "Last element in range is '||'",
      "First element in range is '||'",
      'Could not parse Range ">>1.2.3": Could not parse comparator ">>" in ">>1.2.3"',
      'Could not parse Range "1.0": Could not parse version "1.0" in "1.0": No Major.Minor.Patch elements found',
      'Could not get version from string: "string"',
      undefined,
    ]);
  });

  // range_test.go TestSplitAndTrim: spaces between operator and version are allowed
  test('GIVEN spaces between operator and version (TestSplitAndTrim) THEN they are ignored', () => {
    const r = SemverRange.parse('  >=   1.2.3   <=  1.2.5   ');
    expect(['1.2.2', '1.2.3', '1.2.5', '1.2.6'].map((v) => r.includes(v))).toEqual([false, true, true, false]);
  });

  // range_test.go TestExpandWildcardVersion, through their effect
  test.each([
    ['>=1.2.x', '1.2.0', true], ['>=1.2.x', '1.1.9', false],
    ['<=1.2.x', '1.2.99', true], ['<=1.2.x', '1.3.0', false],
    ['<1.2.x', '1.1.9', true], ['<1.2.x', '1.2.0', false],
    // blang expands `!=1.2.x` to `<1.2.0 >=1.3.0` in ONE AND group (TestExpandWildcardVersion), so it matches nothing
    ['!=1.2.x', '1.2.5', false], ['!=1.2.x', '1.3.0', false], ['!=1.2.x', '1.1.0', false],
    ['<=1.x', '1.99.0', true], ['<=1.x', '2.0.0', false],
    ['!=1.x', '1.5.0', false], ['!=1.x', '2.0.0', false], ['!=1.x', '0.9.0', false],
    ['1.2.x', '1.2.7', true], ['1.2.x', '1.3.0', false],
  ])('TestExpandWildcardVersion %s includes %s: %s', (range, version, expected) => {
    expect(SemverRange.parse(range).includes(version)).toBe(expected);
  });

  test('GIVEN pre-releases THEN they are ordinary versions (unlike node-semver) and ordered before the release', () => {
    const r = SemverRange.parse('>=0.9.0 <0.9.4');
    expect(['0.9.2-clusterwide', '0.9.4-rc.1', '0.9.4', '0.9.0-alpha'].map((v) => r.includes(v))).toEqual([true, true, false, false]);
  });

  test('GIVEN versions blang rejects THEN they are never in a range', () => {
    const r = SemverRange.parse('>=0.0.0');
    expect(['v1.0.0', '1.0', '01.0.0', '1.0.0-01', '1.0.0+', ''].map((v) => r.includes(v))).toEqual([false, false, false, false, false, false]);
  });
});

describe('BlangSemver', () => {
  test('semver.org precedence (blang semver_test.go compare cases)', () => {
    const ordered = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '2.0.0'];
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect([BlangSemver.compare(ordered[i], ordered[i + 1]), BlangSemver.compare(ordered[i + 1], ordered[i])]).toEqual([-1, 1]);
    }
    expect(BlangSemver.compare('1.0.0+build.1', '1.0.0+build.2')).toBe(0);
  });

  test('GIVEN invalid versions THEN problem says why', () => {
    expect(['1.0.0', 'v1.0.0', '1.0', '1.01.0', '1.0.0-'].map((v) => BlangSemver.problem(v))).toEqual([
      undefined,
      'Invalid character(s) found in major number "v1"',
      'No Major.Minor.Patch elements found',
      'Minor number must not contain leading zeroes "01"',
      'Prerelease is empty',
    ]);
  });

  // blang v4 semver.go ParseTolerant, as OLM reads bundle versions and the CSV's spec.version (OperatorVersion)
  test('normalizeTolerant: spaces, v prefix, leading zeros, short versions', () => {
    expect([' v1.2.3 ', 'v1.2', '1', '01.02.03', '1.2.03-rc.1', '1.0-rc', 'x.y.z', ''].map((v) => BlangSemver.normalizeTolerant(v))).toEqual([
      '1.2.3', '1.2.0', '1.0.0', '1.2.3', '1.2.3-rc.1', undefined, undefined, undefined,
    ]);
  });

  test('property: a single comparator range agrees with compare (fixed seed)', () => {
    const v = fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)).map(([a, b, c]) => `${a}.${b}.${c}`);
    fc.assert(fc.property(v, v, fc.constantFrom('<', '<=', '>', '>=', '=', '!='), (x, ref, op) => {
      const c = BlangSemver.compare(x, ref);
      const expected = { '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0, '=': c === 0, '!=': c !== 0 }[op];
      expect(SemverRange.parse(`${op}${ref}`).includes(x)).toBe(expected);
    }), { seed: 11, numRuns: 300 });
  });
});
