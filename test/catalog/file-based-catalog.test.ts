import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { FileBasedCatalog } from '../../src/fbc';
import { FbcSchema } from '../../src/fbc/fbc-types';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'catalogs');
const FOO = path.join(FIXTURES, 'operator-registry/alpha/action/testdata/list-index/foo/index.yaml');
const KUBEVIRT = path.join(FIXTURES, 'community-operators-prod/catalogs/v4.20/kubevirt-wol/catalog.yaml');

describe('FileBasedCatalog', () => {
  test('reads the operator-registry foo sample (YAML, --- separated)', () => {
    // WHEN
    const c = FileBasedCatalog.fromPath(FOO);
    // THEN: values as written in the fixture (lines: `grep -n '^schema' index.yaml`)
    expect(c.loadProblems).toEqual([]);
    expect(c.blobs.map((b) => b.schema)).toEqual([FbcSchema.PACKAGE, FbcSchema.CHANNEL, FbcSchema.CHANNEL, FbcSchema.BUNDLE, FbcSchema.BUNDLE]);
    expect(c.packageNames).toEqual(['foo']);
    expect(c.defaultChannel('foo')).toEqual('beta');
    expect(c.channelNames('foo')).toEqual(['beta', 'stable']);
    expect(c.channelEntries('foo', 'beta')).toEqual([
      { name: 'foo.v0.1.0', skipRange: '<0.1.0' },
      { name: 'foo.v0.2.0', replaces: 'foo.v0.1.0', skipRange: '<0.2.0', skips: ['foo.v0.1.1', 'foo.v0.1.2'] },
    ]);
    expect(c.bundleNames('foo')).toEqual(['foo.v0.1.0', 'foo.v0.2.0']);
    expect(c.bundleVersion('foo', 'foo.v0.2.0')).toEqual('0.2.0');
    expect(c.blobs.map((b) => b.location)).toEqual([
      { file: 'index.yaml', line: 2 },
      { file: 'index.yaml', line: 6 },
      { file: 'index.yaml', line: 19 },
      { file: 'index.yaml', line: 30 },
      { file: 'index.yaml', line: 64 },
    ]);
  });

  test('reads a directory recursively, files sorted by path, locations relative to it', () => {
    // WHEN
    const c = FileBasedCatalog.fromPath(path.join(FIXTURES, 'community-operators-prod'));
    // THEN
    expect(c.loadProblems).toEqual([]);
    expect(c.packageNames).toEqual(['apicurio-registry-3', 'kubevirt-wol', 'libredb-studio-operator', 'odf-node-recovery-operator']);
    expect([...new Set(c.blobs.map((b) => b.location!.file))]).toEqual([
      'catalogs/v4.12/odf-node-recovery-operator/catalog.yaml',
      'catalogs/v4.20/kubevirt-wol/catalog.yaml',
      'catalogs/v4.21/apicurio-registry-3/catalog.yaml',
      'catalogs/v4.21/libredb-studio-operator/catalog.yaml',
    ]);
    expect(c.channelNames('kubevirt-wol')).toEqual(['candidate-v0', 'fast-v0', 'stable-v0']);
    expect(c.defaultChannel('kubevirt-wol')).toEqual('stable-v0');
  });

  test('reads a JSON stream (opm render output) with the line of each blob', () => {
    // GIVEN
    const json = [
      '{"schema": "olm.package", "name": "a", "defaultChannel": "s"}',
      '{',
      '  "schema": "olm.channel", "package": "a", "name": "s",',
      '  "entries": [{"name": "a.v1.0.0", "skips": ["x}{\\""]}]',
      '}',
      '',
      '{"schema": "olm.bundle", "package": "a", "name": "a.v1.0.0", "image": "i",',
      ' "properties": [{"type": "olm.package", "value": {"packageName": "a", "version": "1.0.0"}}]}',
    ].join('\n');
    // WHEN
    const c = FileBasedCatalog.fromString(json, 'catalog.json');
    // THEN
    expect(c.loadProblems).toEqual([]);
    expect(c.blobs.map((b) => [b.schema, b.location])).toEqual([
      ['olm.package', { file: 'catalog.json', line: 1 }],
      ['olm.channel', { file: 'catalog.json', line: 2 }],
      ['olm.bundle', { file: 'catalog.json', line: 7 }],
    ]);
    expect(c.channelEntries('a', 's')).toEqual([{ name: 'a.v1.0.0', skips: ['x}{"'] }]);
  });

  test('malformed JSON is a load problem naming file and line; blobs before it are kept', () => {
    // WHEN
    const c = FileBasedCatalog.fromString('{"schema": "olm.package", "name": "a"}\n\n{"schema": "olm.channel",, }\n', 'bad.json');
    // THEN
    expect(c.blobs.map((b) => b.content.name)).toEqual(['a']);
    expect(c.loadProblems.length).toEqual(1);
    expect(c.loadProblems[0].location).toEqual({ file: 'bad.json', line: 3 });
    expect(c.loadProblems[0].message).toMatch(/^bad\.json:3: malformed JSON: /);
  });

  test('malformed YAML is a load problem naming file and the line of the broken document; other documents are kept', () => {
    // WHEN
    const c = FileBasedCatalog.fromString('schema: olm.package\nname: a\n---\nschema: olm.channel\nname: [unclosed\n---\nschema: olm.package\nname: b\n', 'bad.yaml');
    // THEN
    expect(c.packageNames).toEqual(['a', 'b']);
    expect(c.loadProblems.length).toEqual(1);
    expect(c.loadProblems[0].message).toMatch(/^bad\.yaml:[45]: malformed YAML: /);
  });

  test('a blob without schema, and a non-object document, are load problems', () => {
    // WHEN
    const c = FileBasedCatalog.fromString('name: a\n---\n- 1\n- 2\n---\nschema: olm.package\nname: b\n', 'x.yaml');
    // THEN
    expect(c.loadProblems.map((p) => p.message)).toEqual([
      'x.yaml:1: blob has no "schema" field',
      'x.yaml:3: a catalog blob must be an object, got a list',
    ]);
    expect(c.packageNames).toEqual(['b']);
  });

  test('a missing path is a load problem, not an exception', () => {
    expect(FileBasedCatalog.fromPath('/nonexistent/catalog').loadProblems).toEqual([{ message: 'catalog path "/nonexistent/catalog" does not exist' }]);
  });

  test('only .json/.yaml/.yml files of a directory are read', () => {
    // GIVEN
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-'));
    fs.mkdirSync(path.join(dir, 'p'));
    fs.copyFileSync(KUBEVIRT, path.join(dir, 'p', 'catalog.yml'));
    fs.writeFileSync(path.join(dir, 'p', 'README.md'), 'schema: nonsense');
    fs.writeFileSync(path.join(dir, 'Dockerfile'), 'FROM scratch');
    // WHEN
    const c = FileBasedCatalog.fromPath(dir);
    // THEN
    expect(c.loadProblems).toEqual([]);
    expect(c.packageNames).toEqual(['kubevirt-wol']);
    fs.rmSync(dir, { recursive: true });
  });

  test('merge concatenates blobs and problems in order', () => {
    const a = FileBasedCatalog.fromString('schema: olm.package\nname: a\n', 'a.yaml');
    const b = FileBasedCatalog.fromString('name: nope\n', 'b.yaml');
    const m = FileBasedCatalog.merge([a, b]);
    expect(m.packageNames).toEqual(['a']);
    expect(m.loadProblems.map((p) => p.message)).toEqual(['b.yaml:1: blob has no "schema" field']);
  });

  // Blobs with arbitrary JSON values, including strings with braces, quotes, backslashes and newlines.
  const arbBlob = fc.record({
    schema: fc.constantFrom('olm.package', 'olm.channel', 'olm.bundle', 'custom.x'),
    name: fc.string(),
    extra: fc.jsonValue(),
  });

  test('property: any stream of JSON blobs (any indentation) parses back to the same objects, one location per blob', () => {
    fc.assert(
      fc.property(fc.array(arbBlob, { maxLength: 6 }), fc.constantFrom(0, 2, 4), (blobs, indent) => {
        const text = blobs.map((b) => JSON.stringify(b, null, indent)).join('\n');
        const c = FileBasedCatalog.fromString(text, 'catalog.json');
        expect(c.loadProblems).toEqual([]);
        expect(c.blobs.map((b) => b.content)).toEqual(blobs.map((b) => JSON.parse(JSON.stringify(b))));
        // each blob starts on the line where its text starts
        let line = 1;
        const starts = blobs.map((b) => {
          const at = line;
          line += JSON.stringify(b, null, indent).split('\n').length;
          return at;
        });
        expect(c.blobs.map((b) => b.location!.line)).toEqual(starts);
      }),
    );
  });

  test('property: YAML documents parse back to the same objects', () => {
    fc.assert(
      fc.property(fc.array(arbBlob, { maxLength: 6 }), (blobs) => {
        // written for opm's decoder (go-yaml v2, YAML 1.1 scalars: an unquoted `n` key would be the boolean false),
        // as FbcWriter writes YAML
        const text = blobs.map((b) => `---\n${stringify(b, { version: '1.1' })}`).join('');
        const c = FileBasedCatalog.fromString(text, 'catalog.yaml');
        expect(c.loadProblems).toEqual([]);
        // compared as JSON: YAML keeps -0 where JSON has 0
        expect(JSON.stringify(c.blobs.map((b) => b.content))).toEqual(JSON.stringify(blobs));
      }),
    );
  });
});
