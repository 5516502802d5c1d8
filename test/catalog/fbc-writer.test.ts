import * as path from 'path';
import { FbcFormat, FbcValidator, FbcWriter, FileBasedCatalog } from '../../src/fbc';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'catalogs');

describe('FbcWriter', () => {
  test('one <package>/catalog.json per package (the layout opm render/migrate write), blobs ordered', () => {
    // GIVEN blobs in a scrambled order
    const c = FileBasedCatalog.fromString(
      [
        '{"schema":"olm.bundle","package":"b","name":"b.v1.0.0","image":"i","properties":[{"type":"olm.package","value":{"packageName":"b","version":"1.0.0"}}]}',
        '{"schema":"olm.channel","package":"b","name":"z","entries":[{"name":"b.v1.0.0"}]}',
        '{"schema":"olm.channel","package":"b","name":"a","entries":[{"name":"b.v1.0.0"}]}',
        '{"schema":"olm.package","name":"b","defaultChannel":"a"}',
        '{"schema":"custom.global","name":"x"}',
      ].join('\n'),
      'in.json',
    );
    // WHEN
    const files = FbcWriter.toFiles(c);
    // THEN
    expect(Object.keys(files)).toEqual(['b/catalog.json', 'catalog.json']);
    expect(files['b/catalog.json']).toEqual(
      [
        { schema: 'olm.package', name: 'b', defaultChannel: 'a' },
        { schema: 'olm.channel', package: 'b', name: 'a', entries: [{ name: 'b.v1.0.0' }] },
        { schema: 'olm.channel', package: 'b', name: 'z', entries: [{ name: 'b.v1.0.0' }] },
        { schema: 'olm.bundle', package: 'b', name: 'b.v1.0.0', image: 'i', properties: [{ type: 'olm.package', value: { packageName: 'b', version: '1.0.0' } }] },
      ]
        .map((o) => JSON.stringify(o, null, 4))
        .join('\n') + '\n',
    );
    expect(files['catalog.json']).toEqual(JSON.stringify({ schema: 'custom.global', name: 'x' }, null, 4) + '\n');
  });

  test.each([FbcFormat.JSON, FbcFormat.YAML])('the real samples round-trip through %s and still validate', (format) => {
    // GIVEN
    const c = FileBasedCatalog.fromPath(path.join(FIXTURES, 'community-operators-prod'));
    // WHEN
    const files = FbcWriter.toFiles(c, format);
    const back = FileBasedCatalog.merge(Object.keys(files).map((f) => FileBasedCatalog.fromString(files[f], f)));
    // THEN
    expect(Object.keys(files)).toEqual([
      `apicurio-registry-3/catalog.${format}`,
      `kubevirt-wol/catalog.${format}`,
      `libredb-studio-operator/catalog.${format}`,
      `odf-node-recovery-operator/catalog.${format}`,
    ]);
    expect(back.loadProblems).toEqual([]);
    expect(FbcValidator.validate(back)).toEqual([]);
    expect(back.blobs.length).toEqual(c.blobs.length);
    expect(new Set(back.blobs.map((b) => JSON.stringify(b.content)))).toEqual(new Set(c.blobs.map((b) => JSON.stringify(b.content))));
  });

  test('problems: file references and package names that would escape the catalog folder', () => {
    const c = FileBasedCatalog.fromString(
      [
        '{"schema":"olm.package","name":"../x","defaultChannel":"s"}',
        '{"schema":"olm.bundle","package":"b","name":"b.v1.0.0","image":"i","properties":[{"type":"olm.bundle.object","value":{"ref":"objects/csv.yaml"}},{"type":"olm.bundle.object","value":{"data":"e30="}}]}',
      ].join('\n'),
      'in.json',
    );
    expect(FbcWriter.problems(c)).toEqual([
      { message: 'in.json:1: package name "../x" cannot be used as a folder name', location: { file: 'in.json', line: 1 }, blob: 'olm.package/../x' },
      {
        message: 'in.json:2: bundle "b.v1.0.0" references the file "objects/csv.yaml" (olm.bundle.object ref), which is not copied; render the catalog with opm render so objects are inline',
        location: { file: 'in.json', line: 2 },
        blob: 'olm.bundle/b/b.v1.0.0',
      },
    ]);
    // the real samples (rendered catalogs) have none
    expect(FbcWriter.problems(FileBasedCatalog.fromPath(FIXTURES))).toEqual([]);
  });
});
