/**
 * The YAML writer's edges, fast (no kubectl, no example platform): which documents its own layout answers
 * (`YamlWriter.withoutYaml`: the text, equal to cdk8s's `Yaml.stringify`) and which it leaves to `yaml` (`undefined`);
 * the quoting of the fallback through `yaml` (`faithfulYaml`); `cdk8sWritesUnfaithfully`; the exact errors for lone
 * surrogates and the field paths they name. Written for the surviving mutants of the `yaml-writer` target
 * (docs/testing.md); `yaml-writer.test.ts` holds the properties and the kubectl reads.
 */
import { Yaml } from 'cdk8s';
import { cdk8sWritesUnfaithfully, fieldPath, UNREPRESENTABLE_MESSAGE, UnrepresentableYamlError, YamlWriter } from '../../src/output/yaml-writer';

/** What `fn` throws (the test fails when it returns). */
function thrown(fn: () => unknown): any {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

/** The error's class name, `name`, `documentIndex`, `found` and message, for one `toEqual`. */
const errorFields = (e: any) => ({
  isUnrepresentable: e instanceof UnrepresentableYamlError,
  name: e.name,
  documentIndex: e.documentIndex,
  found: e.found,
  message: e.message,
});

describe('YamlWriter.withoutYaml: the documents its own layout answers (as cdk8s writes them) and the ones it leaves to yaml', () => {
  test('GIVEN documents that are no map (null, undefined, a string, a number, a boolean, a sequence, a Date, a class instance) THEN left to yaml, whose text document() returns', () => {
    class Thing {
      public readonly a = 1;
    }
    const docs: unknown[] = [null, undefined, 'x', 5, true, [1, 'a'], [], new Date(0), new Thing()];
    expect(docs.map((d) => YamlWriter.withoutYaml(d))).toEqual(docs.map(() => undefined));
    const written = [null, 'x', 5, true, [1, 'a'], [], new Date(0), new Thing()];
    expect(written.map((d) => YamlWriter.document(d))).toEqual(['null\n', 'x\n', '5\n', 'true\n', '- 1\n- a\n', '[]\n', '1970-01-01\n', 'a: 1\n']);
    expect(written.map((d) => YamlWriter.document(d))).toEqual(written.map((d) => Yaml.stringify(d)));
  });

  test('GIVEN a map without prototype (Object.create(null)) THEN written without yaml, as yaml writes a plain object', () => {
    const doc = Object.assign(Object.create(null), { a: 1, b: Object.assign(Object.create(null), { c: 'd' }) });
    expect(YamlWriter.withoutYaml(doc)).toEqual('a: 1\nb:\n  c: d\n');
    expect(YamlWriter.withoutYaml(doc)).toEqual(Yaml.stringify(doc));
  });

  test('GIVEN sequence items that are sequences, empty collections, null and maps THEN written without yaml, exactly as yaml lays them out', () => {
    const doc = { a: [[1, 2], [], [[]], null, {}, { b: 1 }, [{ c: [null] }]] };
    const text = 'a:\n  - - 1\n    - 2\n  - []\n  - - []\n  - null\n  - {}\n  - b: 1\n  - - c:\n        - null\n';
    expect(YamlWriter.withoutYaml(doc)).toEqual(text);
    expect(Yaml.stringify(doc)).toEqual(text);
  });

  test('GIVEN a sequence item that is an object but no plain map (a Date, a class instance) THEN left to yaml', () => {
    class Thing {
      public readonly a = 1;
    }
    const docs = [{ a: [new Date(0)] }, { a: [1, new Thing()] }];
    expect(docs.map((d) => YamlWriter.withoutYaml(d))).toEqual([undefined, undefined]);
    expect(docs.map((d) => YamlWriter.document(d))).toEqual(['a:\n  - 1970-01-01\n', 'a:\n  - 1\n  - a: 1\n']);
    expect(docs.map((d) => YamlWriter.document(d))).toEqual(docs.map((d) => Yaml.stringify(d)));
  });

  test('GIVEN -0 (one Map key with 0, but written -0) THEN left to yaml, and 0 and -0 keep their own text in either order', () => {
    expect([YamlWriter.withoutYaml({ a: 0 }), YamlWriter.withoutYaml({ a: -0 }), YamlWriter.withoutYaml({ a: [-0] })]).toEqual(['a: 0\n', undefined, undefined]);
    // the numbers' renderings are remembered across documents: 0 first, then -0, then 0 again
    const docs = [{ a: 0 }, { b: -0 }, { c: 0, d: -0 }, { e: -0, f: 0 }];
    expect(docs.map((d) => YamlWriter.document(d))).toEqual(['a: 0\n', 'b: -0\n', 'c: 0\nd: -0\n', 'e: -0\nf: 0\n']);
    expect(YamlWriter.document({ c: 0, d: -0, e: [-0, 0] })).toEqual(Yaml.stringify({ c: 0, d: -0, e: [-0, 0] }));
  });

  test('GIVEN keys of 1,024 characters as written (yaml stringifyPair: longer keys become explicit "? key") THEN implicit keys without yaml, longer ones left to yaml', () => {
    const plain1024 = 'k'.repeat(1024);
    // quoted keys are measured as written: `"#k...k"` is 1,024 characters with 1,022 inside the quotes
    const quoted1024 = `#${'k'.repeat(1021)}`;
    const quoted1025 = `#${'k'.repeat(1022)}`;
    expect(YamlWriter.withoutYaml({ [plain1024]: 1 })).toEqual(`${plain1024}: 1\n`);
    expect(YamlWriter.withoutYaml({ [quoted1024]: 1 })).toEqual(`"${quoted1024}": 1\n`);
    expect([YamlWriter.withoutYaml({ [`${plain1024}k`]: 1 }), YamlWriter.withoutYaml({ [quoted1025]: 1 })]).toEqual([undefined, undefined]);
    const docs = [{ [plain1024]: 1 }, { [quoted1024]: 1 }, { [`${plain1024}k`]: 1 }, { [quoted1025]: 1 }];
    expect(docs.map((d) => YamlWriter.document(d))).toEqual(docs.map((d) => Yaml.stringify(d)));
    expect(YamlWriter.document({ [quoted1025]: 1 })).toEqual(`? "${quoted1025}"\n: 1\n`);
  });

  test('GIVEN keys holding a line break (\\n, \\r, or a document marker) THEN left to yaml; U+2028 and U+0085 (escaped, so on one line) THEN written without yaml, escaped', () => {
    const leftToYaml = ['a\nb', 'a\rb', '---', '...', '%x'];
    expect(leftToYaml.map((k) => YamlWriter.withoutYaml({ [k]: 'v' }))).toEqual(leftToYaml.map(() => undefined));
    expect(leftToYaml.map((k) => YamlWriter.document({ [k]: 'v' }))).toEqual(leftToYaml.map((k) => Yaml.stringify({ [k]: 'v' })));
    expect([YamlWriter.withoutYaml({ 'a\u2028b': 'v' }), YamlWriter.withoutYaml({ '\u0085': 'v' })]).toEqual(['"a\\Lb": v\n', '"\\N": v\n']);
  });
});

describe('cdk8sWritesUnfaithfully: the strings cdk8s (yaml) writes so that Kubernetes (go-yaml v2) reads another value', () => {
  test('GIVEN lone surrogates, characters yaml leaves raw, YAML 1.1 forms yaml writes plain, and their harmless neighbours THEN exactly those', () => {
    const cases: Array<[string, boolean]> = [
      ['', false], ['a', false], ['é', false], ['日本', false], ['\ud83d\ude00', false], ['yes', false], ['1', false], ['0x1F', false],
      ['a\ud800', true], ['\udc00', true], ['\x7f', true], ['é\x85', true], ['\u2028', true], ['\ufeff', true],
      ['<<', true], ['=', true], ['0X1F', true], ['0o022', true], ['yEs', true], ['2020-01-01 "x"', true],
    ];
    expect(cases.map(([s]) => [s, cdk8sWritesUnfaithfully(s)])).toEqual(cases);
    // the oracle for the YAML 1.1 forms: yaml itself writes them plain (`yes` and `0x1F` it quotes, or resolves alike)
    expect(['<<', '=', '0X1F', '0o022', 'yEs'].map((s) => Yaml.stringify({ a: s }))).toEqual(['a: <<\n', 'a: =\n', 'a: 0X1F\n', 'a: 0o022\n', 'a: yEs\n']);
  });
});

describe('the fallback through yaml (faithfulYaml) quotes what go-yaml would read otherwise, as the writer\'s own layout does', () => {
  test('GIVEN YAML 1.1 forms in a document that needs yaml (a multi-line string) THEN double quotes, single quotes for a `"` without `\'`, the same lines as without yaml', () => {
    const strings = { 'a': '0X1F', 'b': '2020-01-01 "x"', 'c': '2020-01-01 "x\'', 'd': '<<', '<<': 'm', 'g': '0o7' };
    const viaYaml = YamlWriter.document({ ...strings, e: 'multi\nline', f: '2020-01-01 "x"\ny' });
    expect(viaYaml).toEqual('a: "0X1F"\nb: \'2020-01-01 "x"\'\nc: "2020-01-01 \\"x\'"\nd: "<<"\n"<<": m\ng: "0o7"\ne: |-\n  multi\n  line\nf: "2020-01-01 \\"x\\"\\ny"\n');
    expect(YamlWriter.withoutYaml(strings)).toEqual('a: "0X1F"\nb: \'2020-01-01 "x"\'\nc: "2020-01-01 \\"x\'"\nd: "<<"\n"<<": m\ng: "0o7"\n');
  });
});

describe('UnrepresentableYamlError: the object, the field and the value, on every path', () => {
  const message = (prefix: string) => `${prefix}: ${UNREPRESENTABLE_MESSAGE}`;

  test('GIVEN a lone surrogate in a value THEN withoutYaml throws the error too (it does not leave the document to yaml)', () => {
    const doc = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a' }, data: { a: 'x\ud800' } };
    expect(errorFields(thrown(() => YamlWriter.withoutYaml(doc)))).toEqual({
      isUnrepresentable: true,
      name: 'UnrepresentableYamlError',
      documentIndex: 0,
      found: { field: 'data.a', value: 'x\ud800' },
      message: message('ConfigMap team-a/c data.a="x\\ud800"'),
    });
  });

  test('GIVEN a lone surrogate in a key whose value is plain THEN refused (key and value)', () => {
    const doc = { kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'k\udc00': 'v' } };
    const expected = {
      isUnrepresentable: true,
      name: 'UnrepresentableYamlError',
      documentIndex: 0,
      found: { field: 'data["k\\udc00"] (key)', value: 'k\udc00' },
      message: message('ConfigMap c data["k\\udc00"] (key)="k\\udc00"'),
    };
    expect(errorFields(thrown(() => YamlWriter.withoutYaml(doc)))).toEqual(expected);
    expect(errorFields(thrown(() => YamlWriter.document(doc)))).toEqual(expected);
  });

  test('GIVEN the lone surrogate after a multi-line string (the document goes to yaml first) THEN the same error, with the document\'s index', () => {
    const doc = { kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, stringData: { script: 'line 1\nline 2', token: 'x\ud800' } };
    expect(errorFields(thrown(() => YamlWriter.stringify([{ a: 1 }, doc])))).toEqual({
      isUnrepresentable: true,
      name: 'UnrepresentableYamlError',
      documentIndex: 1,
      found: { field: 'stringData.token', value: 'x\ud800' },
      message: message('Secret ns/s stringData.token="x\\ud800"'),
    });
  });

  test('GIVEN objects without a kind, a metadata or a name (or with a kind that is no string) THEN named as far as they are', () => {
    const messages = [
      { a: 'x\ud800' },
      { kind: 5, metadata: { name: 'n' }, a: 'x\ud800' },
      { kind: 'Thing', metadata: { namespace: 'ns' }, a: 'x\ud800' },
      { kind: 'Thing', metadata: { namespace: 7, name: 8 }, a: 'x\ud800' },
      { metadata: { name: 'n', namespace: 'ns' }, a: 'x\ud800' },
      ['x\ud800'],
      'x\ud800',
    ].map((d) => thrown(() => YamlWriter.document(d)).message);
    expect(messages).toEqual([
      message('object a="x\\ud800"'),
      message('object n a="x\\ud800"'),
      message('Thing ns/ a="x\\ud800"'),
      message('Thing a="x\\ud800"'),
      message('object ns/n a="x\\ud800"'),
      message('object [0]="x\\ud800"'),
      message('object ="x\\ud800"'),
    ]);
  });
});

describe('YamlWriter.unrepresentable and fieldPath: the field named', () => {
  test('GIVEN a lone surrogate in a later sequence item, nested THEN its index (a[1], a[2].b[0])', () => {
    expect([
      YamlWriter.unrepresentable({ a: ['x', 'y\ud800'] }),
      YamlWriter.unrepresentable({ a: ['x', { b: 'ok' }, { b: ['z\udc00'] }] }),
      YamlWriter.unrepresentable(['ok', ['ok', 'w\ud800']]),
      YamlWriter.unrepresentable({ a: ['x', 'y'], b: 'ok' }),
    ]).toEqual([
      { field: 'a[1]', value: 'y\ud800' },
      { field: 'a[2].b[0]', value: 'z\udc00' },
      { field: '[1][1]', value: 'w\ud800' },
      undefined,
    ]);
  });

  test('GIVEN keys that are no identifier (a digit first, a dot, a slash, a space) THEN bracketed as JSON strings', () => {
    expect([fieldPath('', 'a'), fieldPath('a', 'b_1'), fieldPath('a', '1a'), fieldPath('a', 'a.b'), fieldPath('', 'app.kubernetes.io/name'), fieldPath('a', 'x y'), fieldPath('a', 'b-')])
      .toEqual(['a', 'a.b_1', 'a["1a"]', 'a["a.b"]', '["app.kubernetes.io/name"]', 'a["x y"]', 'a["b-"]']);
    expect(YamlWriter.unrepresentable({ metadata: { annotations: { '1a': 'x\ud800' } } })).toEqual({ field: 'metadata.annotations["1a"]', value: 'x\ud800' });
  });
});
