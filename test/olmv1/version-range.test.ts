import fc from 'fast-check';
import { OlmV1VersionRange } from '../../src/olmv1';

describe('OlmV1VersionRange', () => {
  test('parses exact versions and intervals (Masterminds separators: space or comma)', () => {
    const shape = (t: string) => { const r = OlmV1VersionRange.parse(t); return { lower: r.lower, upper: r.upper }; };
    expect(shape('1.2.3')).toEqual({ lower: { version: '1.2.3', inclusive: true }, upper: { version: '1.2.3', inclusive: true } });
    expect(shape('>=1.2.0, <2.0.0')).toEqual({ lower: { version: '1.2.0', inclusive: true }, upper: { version: '2.0.0', inclusive: false } });
    expect(shape('> 1.2.0 <= 1.4.0')).toEqual({ lower: { version: '1.2.0', inclusive: false }, upper: { version: '1.4.0', inclusive: true } });
    expect(shape('>=1.2.0')).toEqual({ lower: { version: '1.2.0', inclusive: true }, upper: undefined });
  });

  test('refuses what it cannot decide exactly (wildcards, tilde, caret, OR, prereleases, leading zeros, upper-only)', () => {
    for (const t of ['1.2.x', '~1.2.0', '^1.2.0', '1.2', '>=1.0.0 || >=2.0.0', '1.2.3-rc.1', '01.2.3', '<2.0.0', 'v1.2.3', '1000000.0.0', '']) {
      expect([t, OlmV1VersionRange.problem(t) !== undefined]).toEqual([t, true]);
    }
    expect(() => OlmV1VersionRange.parse('~1.2.0')).toThrow("OlmV1VersionRange: '~1.2.0' is not an exact version 'X.Y.Z' or an interval '>=X.Y.Z <A.B.C'");
  });

  test('isWithin agrees with contains on every version (property, fixed seed)', () => {
    const v = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })).map((t) => t.join('.'));
    const range = fc.oneof(v, fc.tuple(fc.constantFrom('>=', '>'), v, fc.option(fc.tuple(fc.constantFrom('<', '<='), v), { nil: undefined }))
      .map(([op, lo, up]) => `${op}${lo}${up ? ' ' + up.join('') : ''}`));
    const all: string[] = [];
    for (let a = 0; a <= 4; a++) for (let b = 0; b <= 4; b++) for (let c = 0; c <= 4; c++) all.push(`${a}.${b}.${c}`);
    fc.assert(fc.property(range, range, (x, y) => {
      const rx = OlmV1VersionRange.parse(x);
      const ry = OlmV1VersionRange.parse(y);
      const members = all.filter((s) => rx.contains(s));
      if (members.length === 0 || !rx.upper || !ry.upper) return true; // bounded, non-empty: the sets decide
      return rx.isWithin(ry) === members.every((s) => ry.contains(s));
    }), { seed: 19, numRuns: 2000 });
  });
});
