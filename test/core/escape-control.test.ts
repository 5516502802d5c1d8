import fc from 'fast-check';
import { escapeControl } from '../../src/core/yaml-or-json';

// Issue 15 item 4: loader and preflight messages quote file names and bundle values on one line (CLI `#` report lines,
// WARNINGS.txt); every character some reader takes as a line break, or that has no UTF-8 form, must be escaped.
describe('escapeControl (one-line messages)', () => {
  test.each([
    ['\n', '\\u000a'], ['\r', '\\u000d'], ['\t', '\\u0009'], ['\u007f', '\\u007f'], ['\u0085', '\\u0085'], ['\u009b', '\\u009b'],
    ['\u2028', '\\u2028'], ['\u2029', '\\u2029'], ['\ufeff', '\\ufeff'], ['\ufffe', '\\ufffe'], ['\uffff', '\\uffff'],
    ['\ud800', '\\ud800'], ['\udc00', '\\udc00'],
    // the test name shows the escape only: a raw U+FFFE or lone surrogate in a name makes the JUnit report invalid XML
  ].map(([raw, escaped]) => [escaped, raw]))('the character %s is written escaped', (escaped, raw) => {
    expect(escapeControl(`a${raw}b`)).toEqual(`a${escaped}b`);
  });

  test('printable text, non-ASCII letters and surrogate pairs stay as written', () => {
    expect(escapeControl('etcdoperator.v0.9.4 – Ünïcode 😀 é')).toEqual('etcdoperator.v0.9.4 – Ünïcode 😀 é');
  });

  test('property: the result holds no YAML 1.1 line break, no control character and no lone surrogate', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
      const out = escapeControl(s);
      expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }), { seed: 150, numRuns: 2000 });
  });
});
