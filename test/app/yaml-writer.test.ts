import { Testing, Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import { buildPlatform } from '../../examples/platform';
import { YamlWriter } from '../../src/app/yaml-writer';

/** Strings that exercise every rule of `yaml`'s `plainString` / `stringifyString` and the YAML 1.1 tags. */
const TRICKY = [
  '', ' ', 'a', 'yes', 'No', 'ON', 'off', 'y', 'n', 'Y', '~', 'null', 'Null', 'NULL', 'true', 'False', '1', '-1', '+1', '1.5',
  '.5', '1e3', '1_000', '0x1F', '0o17', '017', '0b101', '.inf', '-.Inf', '.NaN', '190:20:30', '1:20', '2020-01-01',
  '2001-12-14t21:59:43.10-05:00', '<<', '=', '-', '?', '- a', '? a', 'a: b', 'a:b', 'a:', 'a #b', 'a#b', '#a', ' a', 'a ',
  '---', '--- a', '...', 'a\n---', '%a', '@a', '`a', '"a"', "'a'", '[a]', '{a}', 'a,b', '*a', '&a', '!a', '|', '>',
  'a\nb', 'a\n', '\na', 'a\n\nb', 'a \nb', '\t', 'a\tb', 'é', '日本', '\u2028', '\u0085', '\x01', '\x7f', '\ud800',
  'quay.io/coreos/etcd-operator@sha256:c0301e4686c3ed4206e370b42de5a3bd2229b9fb4906cf85f3f30650424abec2',
  'olm.operatorgroup.uid/abc', 'app.kubernetes.io/name', '{"code":"x","reason":"y z"}', 'x'.repeat(1100),
];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '#', '-', '?', '.', '\n', '"', "'", '\\', '\t', '%', '{', ',', '0', '1', 'é', '~', 'y') }),
  // quoting: yaml's escapes (\0 \a \v \e \x.. \_ \N), other control characters, lone surrogates, both quote kinds
  fc.string({ unit: fc.constantFrom('a', ' ', '"', "'", '\\', 'u', '\x00', '\x07', '\x08', '\x0b', '\x0c', '\x1b', '\x7f', '\x85', '\x9f', '\xa0', '\ud800', '\udc00', '\r', ':', '#') }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 8 }));
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(key, tie('json'), { maxKeys: 5 }),
  ),
}));
const document = fc.dictionary(key, json, { maxKeys: 6 });

describe('YamlWriter: byte for byte cdk8s Yaml.stringify', () => {
  test('GIVEN generated JSON documents THEN the same text as cdk8s', () => {
    fc.assert(fc.property(fc.array(document, { maxLength: 3 }), (docs) => {
      expect(YamlWriter.stringify(docs)).toEqual(Yaml.stringify(...docs));
    }), { numRuns: 3000, seed: 20261123 });
  });

  test('GIVEN each tricky string as a key, a value and a sequence item THEN the same text as cdk8s', () => {
    for (const s of TRICKY) {
      const doc = { [s]: s, list: [s, [s], { [s]: [s] }], nested: { deeper: { [s]: s } } };
      expect(YamlWriter.document(doc)).toEqual(Yaml.stringify(doc));
    }
  });

  test('GIVEN strings that need quotes THEN written without yaml, quoted exactly as yaml quotes them', () => {
    const strings = ['', 'yes', '1', 'a: b', 'a"b', "a'b", 'a"\'b', '"', '\x00', 'x\x07', '\x0b', '\x1b[0m', 'a\x08\x0cb', '\x7f', '\x9f',
      '\ud800', 'x\udc00y', 'a\\u0007', '\\', ' lead', 'trail ', '#x', 'x #y', '- x', '{"code":"x","reason":"y z"}'];
    for (const str of strings) {
      const doc = { [str]: str, list: [str] };
      expect([str, YamlWriter.withoutYaml(doc)]).toEqual([str, Yaml.stringify(doc)]);
    }
  });

  test('GIVEN layouts yaml treats specially (empty collections, nested sequences, empty and undefined documents) THEN the same text', () => {
    const docs: unknown[] = [
      {},
      { a: [] },
      { a: {} },
      { a: [[], {}, [[]], [{}], [[1, 2], { b: [3] }]] },
      { a: [{ b: { c: [{ d: 1, e: [] }] }, f: null }] },
      undefined,
      { a: undefined, b: 1 },
      { a: [undefined] },
      { a: new Date(0) },
      { a: 10n as unknown },
    ];
    for (const d of docs) expect(YamlWriter.document(d)).toEqual(Yaml.stringify(d));
    expect(YamlWriter.stringify(docs)).toEqual(Yaml.stringify(...docs));
  });

  test('GIVEN the same object twice in a document THEN anchors and aliases as yaml writes them', () => {
    const shared = { app: 'x' };
    const doc = { a: shared, b: shared, c: [shared] };
    expect(YamlWriter.document(doc)).toEqual(Yaml.stringify(doc));
    expect(YamlWriter.document(doc)).toContain('&a1');
  });

  test('GIVEN every manifest of the example platform THEN the same text as cdk8s', () => {
    const app = Testing.app();
    buildPlatform(app);
    const docs = app.charts.flatMap((c) => c.toJson());
    expect(docs.length).toBeGreaterThan(50);
    expect(YamlWriter.stringify(docs)).toEqual(Yaml.stringify(...docs));
    // and without `yaml`, but for the documents holding multi-line strings (block scalars)
    const needYaml = docs.filter((d) => YamlWriter.withoutYaml(d) === undefined);
    expect(needYaml.map((d) => JSON.stringify(d).includes('\\n'))).toEqual(needYaml.map(() => true));
    expect(needYaml.length).toBeLessThan(docs.length / 10);
  });

  test('GIVEN generated documents THEN most are written without yaml (the generator reaches the fast path)', () => {
    const docs = fc.sample(document, { numRuns: 1000, seed: 7 });
    const fast = docs.filter((d) => YamlWriter.withoutYaml(d) !== undefined).length;
    expect(fast).toBeGreaterThan(300);
  });
});
