/**
 * FastYaml (src/core/fast-yaml.ts) reads bundle manifests without `yaml`'s syntax tree: whenever it answers, the
 * answer must be exactly `yaml`'s (value, document line, duplicate-key warnings); otherwise it must give up.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import { stringify } from 'yaml';
import { FastYaml } from '../../src/core/fast-yaml';
import { decodeManifestFile, decodeYamlDocuments, decodeYamlDocumentsWithYaml } from '../../src/core/yaml-or-json';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

/** Both readers on one text: equal results; returns whether the fast reader answered. */
function same(text: string): void {
  expect(decodeYamlDocuments(text)).toEqual(decodeYamlDocumentsWithYaml(text));
}

/**
 * Both readers' results per distinct text, each reader run once per text: the fixtures hold the same text many
 * times (a CRD copied into several bundles and expected-output folders, a single-document file whose first chunk is
 * the whole file), and both readers are pure functions of the text, so a repeat would compute the same two values
 * again (`yaml`'s parser took ~60 % of this file's time on the repeats). Every file is still compared.
 */
const decodedByText = new Map<string, { fast: unknown; slow: unknown }>();
function sameOnce(text: string): void {
  let r = decodedByText.get(text);
  if (r === undefined) {
    r = { fast: decodeYamlDocuments(text), slow: decodeYamlDocumentsWithYaml(text) };
    decodedByText.set(text, r);
  }
  expect(r.fast).toEqual(r.slow);
}

describe('FastYaml gives yaml\'s answer', () => {
  const files = yamlFiles(FIXTURES);

  test('GIVEN every YAML file of the test fixtures (bundles, catalogs) THEN both readers decode each the same', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      // a bundle manifest file: its first chunk, as OperatorBundle reads it; and the whole text as given
      const chunk = text.split(/^---[ ]*$/m).find((c) => c.trim() !== '') ?? '';
      sameOnce(chunk);
      sameOnce(text);
    }
  });

  test('GIVEN the prometheus 0.56.3 and etcd 0.9.4 bundles THEN every manifest is read by the fast reader (the speed-up applies)', () => {
    const readFast = jest.spyOn(FastYaml, 'read');
    for (const b of ['prometheus/0.56.3', 'etcd/0.9.4']) {
      const dir = path.join(FIXTURES, 'bundles', b, 'manifests');
      for (const f of fs.readdirSync(dir)) {
        readFast.mockClear();
        const decoded = decodeManifestFile(fs.readFileSync(path.join(dir, f), 'utf8'));
        expect(decoded.document?.error).toBeUndefined();
        expect(readFast.mock.results.map((r) => r.value !== undefined)).toEqual([true]);
      }
    }
    readFast.mockRestore();
  });

  test.each([
    ['duplicate keys, the last wins, one warning per repeat', true, 'a: 1\nb: 2\na: 3\nc:\n  d: x\n  d: y\n'],
    ['multi-line plain and single-quoted scalars', true, "d: one\n  two\n\n  three\ns: 'it''s\n  folded\n\n\n  here'\n"],
    ['double-quoted scalars with escapes, folded and escaped line breaks', true, 'a: "x\\ny\\"z\\u00e9\\x41\\\\"\nb: "one\n  two\\\n    three\n\n  four"\n'],
    ['an unknown escape', false, 'c: "\\q"\n'],
    ['continuation lines starting with indicator characters', true, 'd: takes >= v0.22\n  >= 1 and {key,value} "In" *x &y !z\n'],
    ['a continuation line starting with "- "', false, 'e: x\n  - y\n'],
    ['literal blocks', true, 'a: |\n  line 1\n\n    indented\n  last\nb: |-\n  x\nc: 1\n'],
    ['compact sequences and mappings in sequences', true, 'k:\n- a: 1\n  b: []\n- x\nz: {}\n'],
    ['a nested compact sequence', false, 'k:\n- - nested\n'],
    ['YAML 1.1 scalars (go-yaml v2)', true, 'a: yes\nb: 0755\nc: 0x1F\nd: 1_000\ne: .inf\nf: ~\ng: 2001-12-14\nh: -1\ni: 1.0e3\nj: "yes"\n'],
    ['keys that are not strings', false, 'true: 1\n1: 2\nnull: 3\n'],
    ['merge keys, anchors, aliases', false, 'a: &x\n  b: 1\nc:\n  <<: *x\n'],
    ['a comment after a key', false, 'a: # c\n  b: 1\n# whole line\nc: x # trailing\n'],
    ['a tab, CR and other controls', false, 'a: "x\ty"\r\nb: 1\n'],
    ['bad indentation', false, 'a:\n  b: 1\n c: 2\n'],
    ['an unclosed quote', false, "a: 'x\nb: 1\n"],
    ['a scalar document', false, 'just text\n'],
    ['__proto__ as a key', false, '__proto__: 1\na: 2\n'],
  ] as Array<[string, boolean, string]>)('GIVEN %s THEN both readers agree (the fast reader answers: %s)', (_name, fast, text) => {
    const readFast = jest.spyOn(FastYaml, 'read');
    same(text);
    expect(readFast.mock.results[0].value !== undefined).toBe(fast);
    readFast.mockRestore();
  });

  test('GIVEN generated documents written by yaml in several styles THEN both readers agree (fast-check, fixed seed)', () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('a', ' ', '\\', '"', "'", '\n', '#', ':', '-', 'é', '\u0085', '>', '{'), maxLength: 30 }),
      fc.constantFrom('yes', 'No', '0755', '0x1f', '1_0', '.nan', '~', 'null', '-1', '1e3', '2001-12-14', 'a: b', 'a #b', "it's", '- x', '', ' x ', 'x\ny', 'x\n\ny\n'),
      fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null),
    );
    const key = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9.\-/]{0,12}$/), fc.string({ maxLength: 8 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('tree'), { maxLength: 4 }),
      map: fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
    }));
    const doc = fc.dictionary(key, tree, { minKeys: 1, maxKeys: 6 });
    const style = fc.record({
      lineWidth: fc.constantFrom(0, 20, 40, 80),
      minContentWidth: fc.constantFrom(0, 10),
      indentSeq: fc.boolean(),
      indent: fc.constantFrom(2, 4),
      singleQuote: fc.constantFrom(true, false, null),
      blockQuote: fc.constantFrom(true, 'literal', 'folded', false),
    });
    fc.assert(fc.property(doc, style, (d, opts) => {
      const text = stringify(d, { ...opts, version: '1.1' } as any);
      expect(decodeYamlDocuments(text)).toEqual(decodeYamlDocumentsWithYaml(text));
    }), { seed: 17, numRuns: 2000 });
  });
});
