/**
 * The bundle loader reads manifests the way OLM does. Sources:
 * - operator-registry pkg/registry/imageinput.go + pkg/configmap/configmap.go `loadBundle`: every non-hidden file of
 *   manifests/, any extension, decoded once (`DecodeUnstructured`); files that do not decode are skipped;
 * - pkg/registry/decode.go: "found more than one document inside %s, using only the first one";
 * - k8s.io/apimachinery pkg/util/yaml/decoder.go `NewYAMLOrJSONDecoder` / `YAMLReader`: JSON when the first
 *   non-space character is `{`, else YAML split at `---` lines (a comment may follow, anything else is an error);
 * - sigs.k8s.io/yaml over go-yaml v2: duplicate keys accepted (last wins), `<<` merge keys, byte-order mark dropped.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { depthOf, LOADER_LIMITS } from '../../src/core/yaml-or-json';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { PreflightCode } from '../../src/preflight/preflight-code';
import { DEMO_CSV } from '../util/demo-csv';

const CSV = DEMO_CSV;

let dir: string;
let manifests: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olm-decoding-'));
  manifests = path.join(dir, 'manifests');
  fs.mkdirSync(manifests);
  fs.writeFileSync(path.join(manifests, 'csv.yaml'), CSV);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => fs.writeFileSync(path.join(manifests, name), text);
const objects = (b: OperatorBundle) =>
  b.objects.map((o) => ({ kind: o.kind, apiVersion: o.apiVersion, name: o.name, source: path.basename(o.source) }));

describe('duplicate mapping keys: accepted, the last one wins (sigs.k8s.io/yaml over go-yaml v2), with a warning naming file, line and key', () => {
  test('in a YAML manifest', () => {
    write('svc.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: first\n  name: second\nspec:\n  ports: []\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([{ kind: 'Service', apiVersion: 'v1', name: 'second', source: 'svc.yaml' }]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'svc.yaml')}:5: duplicate key "name": the last value wins, as in OLM and opm `
      + '(sigs.k8s.io/yaml over go-yaml v2 and Go encoding/json accept duplicate keys)']);
  });

  test('in a JSON manifest (Go encoding/json: the last one wins too)', () => {
    write('svc.json', '{"apiVersion": "v1", "kind": "Service",\n "metadata": {"name": "a", "name": "b"}}\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([{ kind: 'Service', apiVersion: 'v1', name: 'b', source: 'svc.json' }]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'svc.json')}:2: duplicate key "name": the last value wins, as in OLM and opm `
      + '(Go encoding/json accepts duplicate keys)']);
  });

  test('in the CSV given as text: loaded, and the preflight reports the warning', () => {
    const b = OperatorBundle.fromCsvYaml(CSV.replace('  name: demo.v1.0.0\n', '  name: old\n  name: demo.v1.0.0\n'));
    expect(b.name).toEqual('demo.v1.0.0');
    const result = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: [] });
    expect(result.warnings.filter((w) => w.code === PreflightCode.BUNDLE_MANIFEST_WARNING)).toEqual([{
      code: PreflightCode.BUNDLE_MANIFEST_WARNING,
      message: 'demo.v1.0.0: CSV YAML:5: duplicate key "name": the last value wins, as in OLM and opm (sigs.k8s.io/yaml over go-yaml v2 and Go encoding/json accept duplicate keys)',
    }]);
  });
});

describe('which files and documents OLM reads (operator-registry loadBundle, DecodeUnstructured)', () => {
  test('only the first document of a file: the rest is ignored, with a warning', () => {
    write('objs.yaml', '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: ignored\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([{ kind: 'ConfigMap', apiVersion: 'v1', name: 'first', source: 'objs.yaml' }]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'objs.yaml')}: OLM reads only the first document of a manifest file; 1 more `
      + 'document(s) are ignored (operator-registry pkg/registry/decode.go: "found more than one document ..., using only the first one"). '
      + 'Fix: put each object in its own file.']);
  });

  test('a first document with only a comment: OLM decodes nothing with a kind and skips the whole file', () => {
    write('cm.yaml', '# Copyright header\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lost\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'cm.yaml')}: OLM skips this file, so it installs nothing from it: its first `
      + "document is empty (operator-registry decodes each manifest file once with apimachinery's YAML-or-JSON decoder and skips files that "
      + 'do not decode to an object with a kind)']);
  });

  test('leading --- lines and empty documents before the first object are skipped (YAMLReader skips empty chunks)', () => {
    write('cm.yaml', '---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
    expect(objects(OperatorBundle.fromDirectory(dir))).toEqual([{ kind: 'ConfigMap', apiVersion: 'v1', name: 'c', source: 'cm.yaml' }]);
  });

  test('a separator followed by a comment is a separator; followed by text it is an error (apimachinery YAMLReader)', () => {
    write('a.yaml', '--- # first\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    write('b.yaml', '--- apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([{ kind: 'ConfigMap', apiVersion: 'v1', name: 'a', source: 'a.yaml' }]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'b.yaml')}: OLM skips this file, so it installs nothing from it: line 1: `
      + 'malformed YAML: invalid YAML document separator at line 1: "--- apiVersion: v1" (operator-registry decodes each manifest file once '
      + "with apimachinery's YAML-or-JSON decoder and skips files that do not decode to an object with a kind)"]);
  });

  test('every non-hidden file counts, whatever its extension; hidden files and folders are not read', () => {
    write('service', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: no-extension\n');
    write('.hidden.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: hidden\n');
    fs.mkdirSync(path.join(manifests, 'sub'));
    fs.writeFileSync(path.join(manifests, 'sub', 'x.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: nested\n');
    write('README.md', '# Notes\n\nSome text.\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([{ kind: 'Service', apiVersion: 'v1', name: 'no-extension', source: 'service' }]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 'README.md')}: OLM skips this file, so it installs nothing from it: its first `
      + 'document is not an object ("Some text.") (operator-registry decodes each manifest file once with apimachinery\'s YAML-or-JSON decoder '
      + 'and skips files that do not decode to an object with a kind)']);
  });

  test('JSON manifests, in a .json file or any other: the first JSON value (json.Decoder), BOM, CRLF and merge keys like go-yaml', () => {
    write('a.json', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json"}}\n');
    write('b.yaml', '  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json-in-yaml-file"}}');
    write('c.yaml', '\uFEFFapiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: bom-crlf\r\n');
    write('d.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  name: merged\ndata:\n  <<: {a: "1"}\n  b: "2"\n');
    write('e.yaml', 'apiVersion:\tv1\nkind: ConfigMap\nmetadata:\n  name: tab-after-colon\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'json', source: 'a.json' },
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'json-in-yaml-file', source: 'b.yaml' },
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'bom-crlf', source: 'c.yaml' },
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'merged', source: 'd.yaml' },
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'tab-after-colon', source: 'e.yaml' },
    ]);
    expect(b.objects[3].raw.data).toEqual({ a: '1', b: '2' });
    expect(b.loadWarnings).toEqual([]);
  });

  test('tab indentation is not YAML (go-yaml refuses it too): OLM skips the file', () => {
    write('t.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tabs\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([]);
    expect(b.loadWarnings).toEqual([`${path.join(manifests, 't.yaml')}: OLM skips this file, so it installs nothing from it: line 4: `
      + 'malformed YAML: Tabs are not allowed as indentation (operator-registry decodes each manifest file once with '
      + "apimachinery's YAML-or-JSON decoder and skips files that do not decode to an object with a kind)"]);
  });

  test('a manifest without apiVersion loads (the unstructured decoder needs only a kind); kind: List loads and is UnsupportedResource', () => {
    write('cm.yaml', 'kind: ConfigMap\nmetadata:\n  name: no-api-version\n');
    write('list.yaml', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: inner\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(objects(b)).toEqual([
      { kind: 'ConfigMap', apiVersion: '', name: 'no-api-version', source: 'cm.yaml' },
      { kind: 'List', apiVersion: 'v1', name: '', source: 'list.yaml' },
    ]);
    const result = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: [] });
    expect(result.problems.map((p) => p.code)).toEqual([PreflightCode.UNSUPPORTED_RESOURCE]);
  });
});

describe('catalog olm.bundle.object data (opm declcfg/load.go readBundleObjects: yaml.ToJSON)', () => {
  test('base64 of YAML is a manifest like base64 of JSON; duplicate keys warn with the property', () => {
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const entry = {
      schema: 'olm.bundle',
      name: 'demo.v1.0.0',
      package: 'demo',
      properties: [
        { type: 'olm.bundle.object', value: { data: b64(CSV) } },
        { type: 'olm.bundle.object', value: { data: b64('apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  name: svc\n') } },
      ],
    };
    const b = OperatorBundle.fromCatalogBundle(entry);
    expect([b.name, b.packageName, b.objects.map((o) => `${o.kind}/${o.name}`)]).toEqual(['demo.v1.0.0', 'demo', ['Service/svc']]);
    expect(b.loadWarnings).toEqual(["catalog bundle 'demo.v1.0.0' properties[1].value.data: duplicate key \"name\": the last value wins, as in OLM and opm "
      + '(sigs.k8s.io/yaml over go-yaml v2 and Go encoding/json accept duplicate keys)']);
  });
});

describe('metadata/ (operator-registry NewImageInput)', () => {
  test('annotations from metadata/annotations.yaml, else from the first metadata file that has bundle annotations', () => {
    fs.mkdirSync(path.join(dir, 'metadata'));
    fs.writeFileSync(path.join(dir, 'metadata', 'a-dependencies.yaml'), 'dependencies: []\n');
    fs.writeFileSync(path.join(dir, 'metadata', 'b-bundle.yaml'), 'annotations:\n  operators.operatorframework.io.bundle.package.v1: demo\n'
      + '  operators.operatorframework.io.bundle.channels.v1: stable,fast\n');
    expect([OperatorBundle.fromDirectory(dir).packageName, OperatorBundle.fromDirectory(dir).channels]).toEqual(['demo', ['fast', 'stable']]);
    fs.writeFileSync(path.join(dir, 'metadata', 'annotations.yaml'), 'annotations:\n  operators.operatorframework.io.bundle.package.v1: other\n');
    expect(OperatorBundle.fromDirectory(dir).packageName).toEqual('other');
  });
});

describe('real bundles', () => {
  test('the 12 fixture bundles load without warnings, nested far below the depth limit', () => {
    const root = path.join(__dirname, '..', 'fixtures', 'bundles');
    const dirs = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort()
      .flatMap((op) => fs.readdirSync(path.join(root, op)).map((v) => path.join(root, op, v)));
    const loaded = dirs.map((d) => OperatorBundle.fromDirectory(d));
    expect(loaded.map((b) => b.loadWarnings).filter((w) => w.length > 0)).toEqual([]);
    expect(loaded.length).toEqual(12);
    expect(Math.max(...loaded.flatMap((b) => [depthOf(b.csv), ...b.crds.map((c) => depthOf(c.raw))])) * 4).toBeLessThan(LOADER_LIMITS.depth);
  });
});

describe('paths and limits: clear errors naming the file', () => {
  test('a bundle path that does not exist says so', () => {
    const missing = path.join(dir, 'nope');
    expect(() => OperatorBundle.fromDirectory(missing)).toThrow(new Error(
      `OperatorBundle.fromDirectory: '${missing}' does not exist; pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)`));
    expect(() => OperatorBundle.fromDirectory(path.join(manifests, 'csv.yaml'))).toThrow(new Error(
      `OperatorBundle.fromDirectory: '${path.join(manifests, 'csv.yaml')}' is not a directory; pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)`));
  });

  test('a file that cannot be read (a broken link) is an Error naming it', () => {
    const link = path.join(manifests, 'broken.yaml');
    fs.symlinkSync(path.join(dir, 'missing.yaml'), link);
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle.fromDirectory: cannot read '${link}': ENOENT: no such file or directory, stat '${link}'`));
  });

  test('a YAML alias bomb is an error naming the file, not a ReferenceError', () => {
    const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: bomb', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [p, n] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g']]) lines.push(`${n}: &${n} [${Array(9).fill(`*${p}`).join(',')}]`);
    write('bomb.yaml', lines.join('\n') + '\n');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(`OperatorBundle: ${path.join(manifests, 'bomb.yaml')}:1: YAML aliases expand `
      + `to too much data (over ${LOADER_LIMITS.aliasCount} alias expansions: a YAML alias bomb?)`));
  });

  test('nesting deeper than the limit is an error naming the file (JSON 200,000 deep, YAML flow 2,000 deep)', () => {
    write('deep.json', '{"kind": "ConfigMap", "x": ' + '['.repeat(200000) + ']'.repeat(200000) + '}');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle: ${path.join(manifests, 'deep.json')}:1: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`));
    fs.rmSync(path.join(manifests, 'deep.json'));
    write('deep.yaml', 'kind: ConfigMap\nx: ' + '['.repeat(2000) + ']'.repeat(2000) + '\n');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle: ${path.join(manifests, 'deep.yaml')}:2: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`));
  });

  test('objects given in code: too deep or cyclic is an Error, not a RangeError', () => {
    const cyclic: any = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    cyclic.data = { self: cyclic };
    const csv = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', metadata: { name: 'x' }, spec: {} };
    expect(() => OperatorBundle.fromCsvObject(csv, [cyclic])).toThrow(new Error(
      `OperatorBundle: extra object [0]: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit), or a cycle`));
    const entry: any = { schema: 'olm.bundle', name: 'x', properties: [] };
    entry.properties.push(entry);
    expect(() => OperatorBundle.fromCatalogBundle(entry)).toThrow(new Error(
      `OperatorBundle.fromCatalogBundle: the entry is nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit), or a cycle`));
  });

  test('a file over the size limit is an error naming the file and the limit', () => {
    write('big.yaml', `kind: ConfigMap\ndata:\n  x: "${'a'.repeat(2048)}"\n`);
    const saved = LOADER_LIMITS.manifestBytes;
    LOADER_LIMITS.manifestBytes = 1024;
    try {
      expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
        `OperatorBundle: ${path.join(manifests, 'big.yaml')}: file is 2078 bytes, over the limit of 1024 bytes for a bundle manifest`));
    } finally {
      LOADER_LIMITS.manifestBytes = saved;
    }
  });

  test('a bundle with more policy rules than the limit is an error naming the CSV file', () => {
    const rule = '        - apiGroups: [""]\n          resources: [configmaps]\n          verbs: [get]\n';
    write('csv.yaml', CSV.replace(rule, rule.repeat(LOADER_LIMITS.bundleRules + 1)));
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(`OperatorBundle: ${path.join(manifests, 'csv.yaml')}: the bundle holds `
      + `${LOADER_LIMITS.bundleRules + 1} policy rules (CSV permissions and clusterPermissions), over the limit of ${LOADER_LIMITS.bundleRules} rules per bundle`));
  });

  test('values echoed in messages stay on one line', () => {
    const text = CSV.replace('type: OwnNamespace', 'type: "Own\\nNamespace"');
    expect(() => OperatorBundle.fromCsvYaml(text)).toThrow(new Error("OperatorBundle: CSV YAML: field 'spec.installModes[0].type': unknown install "
      + "mode 'Own\\u000aNamespace'; use one of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces"));
  });
});

describe('scalars resolve as go-yaml v2 resolves them (sigs.k8s.io/yaml, resolve.go)', () => {
  test('YAML 1.1 booleans and octal, no sexagesimal, timestamps and "=" stay strings', () => {
    write('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nx:\n  a: yes\n  b: Off\n  c: y\n  d: 0755\n  e: 190:20:30\n'
      + '  f: 2019-05-20\n  g: =\n  h: 0x1F\n  i: 1_000\n  j: "yes"\n  k: 0b101\n');
    expect(OperatorBundle.fromDirectory(dir).objects[0].raw.x).toEqual({
      a: true, b: false, c: true, d: 493, e: '190:20:30', f: '2019-05-20', g: '=', h: 31, i: 1000, j: 'yes', k: 5,
    });
  });

  test('a CSV that says supported: yes is read as OLM reads it (true), not refused', () => {
    const b = OperatorBundle.fromCsvYaml(CSV.replace('supported: true', 'supported: yes'));
    expect(b.installModes).toEqual([{ type: 'OwnNamespace', supported: true }]);
  });
});
