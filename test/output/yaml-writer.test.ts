import { Testing, Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import { buildPlatform } from '../../examples/platform';
import { CACHING } from '../../src/core/content-cache';
import { GoYaml } from '../../src/output/go-yaml';
import { UnrepresentableYamlError, YamlWriter } from '../../src/output/yaml-writer';
import { describeWithKubectl, kubectlRead } from '../util/kubectl';
import { propertyRuns } from '../util/property-runs';
import { YAML11_CHARACTER_CASES, YAML11_FORMS } from '../util/yaml11';

/**
 * Whether cdk8s's writer (`yaml`) writes `s` so that Kubernetes' reader (go-yaml v2) reads something else: the
 * documented exceptions to byte identity (docs/scale.md). The oracle is `yaml` itself: a string it writes plain.
 */
function cdk8sUnfaithful(s: string): boolean {
  if (GoYaml.hasLoneSurrogate(s) || /[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/.test(s)) return true;
  return (s === '<<' || GoYaml.resolvesToNonString(s)) && Yaml.stringify({ a: s }) === `a: ${s}\n`;
}

/** Every string (keys included) of a JSON value. */
function stringsOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...stringsOf(x)]);
  return [];
}

const cdk8sFaithful = (doc: unknown) => !stringsOf(doc).some(cdk8sUnfaithful);

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
  test('GIVEN generated JSON documents whose strings cdk8s writes faithfully THEN the same text as cdk8s', () => {
    let compared = 0;
    fc.assert(fc.property(fc.array(document, { maxLength: 3 }), (docs) => {
      if (!docs.every(cdk8sFaithful)) return;
      compared++;
      expect(YamlWriter.stringify(docs)).toEqual(Yaml.stringify(...docs));
    }), { numRuns: 5000, seed: 20261123 });
    // 40 % of the runs (2,013 of 5,000; 80 of 200): fewer under mutation testing's cap (test/util/property-runs.ts)
    expect(compared).toBeGreaterThan(0.36 * propertyRuns(5000));
  });

  test('GIVEN each tricky string cdk8s writes faithfully, as a key, a value and a sequence item THEN the same text as cdk8s', () => {
    for (const s of TRICKY.filter((x) => !cdk8sUnfaithful(x))) {
      const doc = { [s]: s, list: [s, [s], { [s]: [s] }], nested: { deeper: { [s]: s } } };
      expect(YamlWriter.document(doc)).toEqual(Yaml.stringify(doc));
    }
  });

  test('GIVEN strings that need quotes THEN written without yaml, quoted exactly as yaml quotes them', () => {
    const strings = ['', 'yes', '1', 'a: b', 'a"b', "a'b", 'a"\'b', '"', '\x00', 'x\x07', '\x0b', '\x1b[0m', 'a\x08\x0cb', '\x7f', '\x9f',
      '\ud800', 'x\udc00y', 'a\\u0007', '\\', ' lead', 'trail ', '#x', 'x #y', '- x', '{"code":"x","reason":"y z"}'];
    for (const str of strings.filter((x) => !cdk8sUnfaithful(x))) {
      const doc = { [str]: str, list: [str] };
      expect([str, YamlWriter.withoutYaml(doc)]).toEqual([str, Yaml.stringify(doc)]);
    }
    // the strings cdk8s writes raw or plain where Kubernetes reads something else: escaped in double quotes
    expect(['\x7f', '\x9f'].map((x) => YamlWriter.withoutYaml({ [x]: x }))).toEqual(['"\\x7f": "\\x7f"\n', '"\\x9f": "\\x9f"\n']);
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
    // (documents with a lone surrogate are refused: UnrepresentableYamlError, tested below)
    const docs = fc.sample(document, { numRuns: 1000, seed: 7 }).filter((d) => !stringsOf(d).some((x) => GoYaml.hasLoneSurrogate(x)));
    const fast = docs.filter((d) => YamlWriter.withoutYaml(d) !== undefined).length;
    expect(fast).toBeGreaterThan(300);
  });
});

/** Strings that a YAML 1.1 reader (go-yaml v2) reads differently from `yaml`, in every form the writer knows. */
const YAML11 = [...YAML11_FORMS, ...YAML11_CHARACTER_CASES];

const ANY_UNIT = fc.oneof(
  fc.constantFrom('a', ' ', ':', '#', '-', '.', '_', '0', '1', 'x', 'X', 'o', 'O', 'b', 'e', 'y', 'n', '~', '<', '=', '+', '\n', '\t', '\r', '"', "'", '\\'),
  fc.constantFrom('\x00', '\x07', '\x1b', '\x7f', '\x80', '\x85', '\x9f', '\xa0', '\u2028', '\u2029', '\ufeff', '\ufffe', '\uffff', '\ud83d\ude00'),
  fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
);
const faithfulString = fc.oneof(fc.constantFrom(...YAML11), fc.string({ unit: ANY_UNIT, maxLength: 12 }));

/** A Kubernetes-shaped object holding `doc` (kubectl reads objects). */
const asObject = (doc: unknown, i: number) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: `t${i}` }, spec: doc });

describeWithKubectl('YamlWriter: kubectl (go-yaml v2, YAML 1.1) reads exactly what was written', () => {
  test('GIVEN every YAML 1.1 form and unsafe character as a key, a value and a sequence item THEN kubectl reads the same strings', () => {
    const docs = YAML11.map((s, i) => asObject({ [s]: s, list: [s, [s], { [s]: [s] }], long: `${s}${'x'.repeat(50)}\n${s}` }, i));
    expect(kubectlRead(YamlWriter.stringify(docs))).toEqual(docs);
  });

  test('GIVEN random strings (fixed seed) as keys and values THEN kubectl reads them exactly (one kubectl call)', () => {
    const docs = fc.sample(fc.dictionary(faithfulString, fc.oneof(faithfulString, fc.array(faithfulString, { maxLength: 3 })), { maxKeys: 4 }),
      { numRuns: 1500, seed: 20261126 }).map(asObject);
    expect(kubectlRead(YamlWriter.stringify(docs))).toEqual(docs);
  });

  test('GIVEN random number-, date- and bool-like strings (fixed seed) THEN kubectl reads every one as the string (resolve.go\'s forms are all quoted)', () => {
    const unit = fc.constantFrom('0', '1', '7', '8', '9', 'x', 'X', 'o', 'O', 'b', 'B', 'e', 'E', '.', '_', '+', '-', ':', 'a', 'f', 'F', 'i', 'n', 'N', 'T', 't', 'Z', ' ', 'y', 'Y', 's', 'l', 'u');
    const strings = fc.sample(fc.oneof(fc.string({ unit, maxLength: 8 }), fc.stringMatching(/^[-+]?0[xXoObB][0-9a-fA-F_]{1,5}$/), fc.stringMatching(/^[-+]?[0-9_]{1,6}([.:eE][-+]?[0-9_]{0,4})?$/),
      fc.stringMatching(/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9:.]{0,8}(Z|[-+][0-9:]{0,5})?)?$/)), { numRuns: 3000, seed: 1115 });
    const docs = [asObject({ values: strings, keys: Object.fromEntries(strings.map((x) => [x, x])) }, 0)];
    expect(kubectlRead(YamlWriter.stringify(docs))).toEqual(docs);
  });

  test('GIVEN cdk8s\'s own output for those strings THEN kubectl reads other values or refuses the file (why the writer departs from it)', () => {
    // as a value and as a key (a plain `<<` key is a merge: go-yaml v2 decode.go isMerge)
    const misread = (s: string) => {
      try {
        const [read] = kubectlRead(Yaml.stringify(asObject({ v: s, [s]: 'k' }, 0)));
        return read.spec.v !== s || read.spec[s] !== 'k';
      } catch {
        return true;
      }
    };
    const forms = ['0X1F', '0O17', '0B11', '0o022', '<<', 'a\u2028b', '\x7f', '\x85', '\ufffe', 'yEs'];
    expect(forms.map((s) => [s, misread(s)])).toEqual(forms.map((s) => [s, s !== 'yEs']));
  });
});

describe('YamlWriter: lone surrogates are refused', () => {
  test('GIVEN a lone surrogate in a value or a key THEN UnrepresentableYamlError names the object, the field and the value', () => {
    const value = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', annotations: { note: 'a\ud800b' } } };
    expect(() => YamlWriter.stringify([value])).toThrow(UnrepresentableYamlError);
    expect(() => YamlWriter.stringify([value])).toThrow('Namespace team-a metadata.annotations.note="a\\ud800b": holds a lone UTF-16 surrogate');
    const inKey = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x' }, data: { ['k\udc00']: 'v\nw' } };
    expect(YamlWriter.unrepresentable(inKey)).toEqual({ field: 'data["k\\udc00"] (key)', value: 'k\udc00' });
    expect(() => YamlWriter.document(inKey)).toThrow('ConfigMap x/c data["k\\udc00"] (key)="k\\udc00"');
    // a pair is fine
    expect(YamlWriter.unrepresentable({ a: '\ud83d\ude00' })).toBeUndefined();
  });
});

describe('the written forms of strings met before (issue 38)', () => {
  test('GIVEN more distinct strings than the form cache holds, as keys and values, among repeated ones THEN the text is the uncached text', () => {
    // 6,000 distinct strings empty the cache (4,096 forms) once; YAML 1.1 look-alikes and quoted forms come back after
    const tricky = ['yes', 'no', 'on', '0x1F', '1_000', '2020-01-01', '~', 'null', '<<', 'a: b', ' lead', '#x', "it's", 'say "hi"', '-', ''];
    const docs = Array.from({ length: 6000 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: tricky[i % tricky.length] || 'default' },
      data: { [`key-${i}`]: `value-${i}`, [tricky[(i + 3) % tricky.length]]: tricky[i % tricky.length], common: 'yes' },
    }));
    const cached = YamlWriter.stringify(docs);
    CACHING.enabled = false;
    let uncached: string;
    try {
      uncached = YamlWriter.stringify(docs);
    } finally {
      CACHING.enabled = true;
    }
    expect(cached).toEqual(uncached);
    // and the forms themselves: quoted where YAML 1.1 would read another value
    expect(YamlWriter.document(docs[0])).toEqual([
      'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: cm-0', '  namespace: "yes"', 'data:', '  key-0: value-0', '  "0x1F": "yes"', '  common: "yes"', '',
    ].join('\n'));
  });
});
