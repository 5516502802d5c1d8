/**
 * File-based catalogs are decoded as opm decodes them (operator-registry alpha/declcfg/load.go `WalkMetasReader`:
 * apimachinery `NewYAMLOrJSONDecoder` over sigs.k8s.io/yaml / go-yaml v2 and Go encoding/json), within documented
 * limits; loading never throws (every problem names the file), and nothing later throws a RangeError.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appAndChart, FakeTenant } from './helpers';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CuratedCatalog } from '../../src/catalog/curated-catalog';
import { Diagnostics } from '../../src/core/diagnostics';
import { LOADER_LIMITS } from '../../src/core/yaml-or-json';
import { FbcBlob, FbcFormat } from '../../src/fbc/fbc-types';
import { FbcWriter } from '../../src/fbc/fbc-writer';
import { FileBasedCatalog } from '../../src/fbc/file-based-catalog';

const PKG = '{"schema":"olm.package","name":"a","defaultChannel":"s"}';
const CHANNEL = '{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1.0.0"}]}';
const bundleBlob = (extra: string) =>
  `{"schema":"olm.bundle","package":"a","name":"a.v1.0.0","image":"i","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}]${extra}}`;

describe('duplicate keys: the last one wins (as opm), with a warning naming file, line and key', () => {
  test('YAML catalog', () => {
    const c = FileBasedCatalog.fromString('schema: olm.package\nname: first\nname: a\ndefaultChannel: s\n', 'a/catalog.yaml');
    expect(c.loadProblems).toEqual([]);
    expect(c.packageNames).toEqual(['a']);
    expect(c.loadWarnings).toEqual([{
      message: 'a/catalog.yaml:3: duplicate key "name": the last value wins, as in OLM and opm (sigs.k8s.io/yaml over go-yaml v2 and Go encoding/json accept duplicate keys)',
      location: { file: 'a/catalog.yaml', line: 3 },
    }]);
  });

  test('JSON catalog: the line of the repeated key', () => {
    const c = FileBasedCatalog.fromString(`${PKG}\n{"schema":"olm.channel","package":"a",\n"name":"x","name":"s","entries":[]}\n`, 'catalog.json');
    expect(c.loadProblems).toEqual([]);
    expect(c.channelNames('a')).toEqual(['s']);
    expect(c.loadWarnings).toEqual([{
      message: 'catalog.json:3: duplicate key "name": the last value wins, as in OLM and opm (Go encoding/json accepts duplicate keys)',
      location: { file: 'catalog.json', line: 3 },
    }]);
  });

  test('a CuratedCatalog built from it reports the warning (code FbcLoadWarning) and the synth goes on', () => {
    const { app, chart } = appAndChart();
    const source = FileBasedCatalog.fromString(`${PKG}\n${CHANNEL.replace('"name":"s"', '"name":"s","name":"s"')}\n${bundleBlob('')}\n`, 'catalog.json');
    new CuratedCatalog(chart, 'C', { image: 'i', sourceCatalog: source, packages: [{ name: 'a' }], tenants: [new FakeTenant(chart, 'T', 'team-a')] });
    expect(Diagnostics.warnings(app).filter((w) => w.code === 'FbcLoadWarning').map((w) => ({ path: w.constructPath, field: w.field, message: w.message }))).toEqual([{
      path: 'platform/C',
      field: 'sourceCatalog',
      message: 'catalog.json:2: duplicate key "name": the last value wins, as in OLM and opm (Go encoding/json accepts duplicate keys)',
    }]);
  });

  test('merge() keeps the warnings of every part (and merges only catalogs, whatever plain JavaScript passes)', () => {
    const a = FileBasedCatalog.fromString('schema: olm.package\nname: a\nname: b\n', 'a.yaml');
    const b = FileBasedCatalog.fromString('schema: olm.package\nname: c\nname: d\n', 'b.yaml');
    const merged = FileBasedCatalog.merge([a, null as any, { blobs: 1 } as any, b]);
    expect(merged.loadWarnings.map((w) => w.location)).toEqual([{ file: 'a.yaml', line: 3 }, { file: 'b.yaml', line: 3 }]);
    expect(merged.packageNames).toEqual(['b', 'd']);
    expect(FileBasedCatalog.merge(undefined as any).blobs).toEqual([]);
  });
});

describe('scalars as go-yaml v2 resolves them (what opm reads YAML with)', () => {
  test('unquoted yes/no/on/off/y/n are booleans and 0755 is octal; FbcWriter quotes such strings so opm reads them back', () => {
    const c = FileBasedCatalog.fromString('schema: olm.package\nname: a\nx: {flag: yes, n: 1, mode: 0755, t: "on"}\n', 'catalog.yaml');
    expect(c.blobs[0].content.x).toEqual({ flag: true, false: 1, mode: 493, t: 'on' });
    const strings = FileBasedCatalog.fromBlobs([{ schema: 'olm.package', content: { schema: 'olm.package', name: 'a', x: { n: 'no', v: '0755', d: '2019-05-20' } } }]);
    const yaml = FbcWriter.toFiles(strings, FbcFormat.YAML)['a/catalog.yaml'];
    expect(yaml).toEqual('---\nschema: olm.package\nname: a\nx:\n  "n": "no"\n  v: "0755"\n  d: "2019-05-20"\n');
    expect(FileBasedCatalog.fromString(yaml, 'a/catalog.yaml').blobs[0].content).toEqual(strings.blobs[0].content);
  });
});

describe('BOM, CRLF, merge keys (go-yaml), empty documents', () => {
  test('the format comes from the content, as apimachinery NewYAMLOrJSONDecoder sniffs it: JSON in a .yaml file, YAML in a .json file', () => {
    const json = FileBasedCatalog.fromString(`${PKG}\n${CHANNEL}\n`, 'catalog.yaml');
    const yaml = FileBasedCatalog.fromString('schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: s\nentries: []\n', 'catalog.json');
    for (const c of [json, yaml]) {
      expect(c.loadProblems).toEqual([]);
      expect([c.packageNames, c.channelNames('a')]).toEqual([['a'], ['s']]);
    }
  });

  test('a YAML catalog with a byte-order mark, CRLF line ends, empty documents and a merge key', () => {
    const text = '\uFEFF---\r\n---\r\nschema: olm.package\r\nname: a\r\ndefaultChannel: s\r\n---\r\nschema: olm.channel\r\n<<: {package: a}\r\nname: s\r\nentries: []\r\n';
    const c = FileBasedCatalog.fromString(text, 'catalog.yaml');
    expect(c.loadProblems).toEqual([]);
    expect(c.blobs.map((b) => [b.schema, b.content.package ?? b.content.name, b.location])).toEqual([
      ['olm.package', 'a', { file: 'catalog.yaml', line: 3 }],
      ['olm.channel', 'a', { file: 'catalog.yaml', line: 7 }],
    ]);
  });

  test('tab indentation is not YAML (go-yaml refuses it too): a load problem at its line; other documents are kept', () => {
    const c = FileBasedCatalog.fromString('schema: olm.package\nname: a\n---\nschema: olm.channel\nentries:\n\t- name: x\n', 'tabs.yaml');
    expect(c.packageNames).toEqual(['a']);
    expect(c.loadProblems).toEqual([{ message: 'tabs.yaml:6: malformed YAML: Tabs are not allowed as indentation', location: { file: 'tabs.yaml', line: 6 } }]);
  });

  test('a JSON catalog with a byte-order mark and CRLF', () => {
    const c = FileBasedCatalog.fromString(`\uFEFF${PKG}\r\n${CHANNEL}\r\n`, 'catalog.json');
    expect(c.loadProblems).toEqual([]);
    expect(c.blobs.map((b) => b.location)).toEqual([{ file: 'catalog.json', line: 1 }, { file: 'catalog.json', line: 2 }]);
  });
});

describe('limits: each breach is a load problem naming the file, never an exception', () => {
  test('a file of a catalog folder that links outside the folder is refused and nothing of the target is quoted; links inside it are read', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-link-'));
    try {
      const dir = path.join(base, 'catalog');
      fs.mkdirSync(path.join(dir, 'pkg'), { recursive: true });
      fs.writeFileSync(path.join(base, 'creds'), '{"aws_secret_access_key": SECRET-VALUE-123');
      fs.writeFileSync(path.join(dir, 'pkg', 'real.json'), `${PKG}\n`);
      fs.symlinkSync(path.join('..', '..', 'creds'), path.join(dir, 'pkg', 'catalog.json'));
      fs.symlinkSync('real.json', path.join(dir, 'pkg', 'same.json'));
      const c = FileBasedCatalog.fromPath(dir);
      expect(c.loadProblems).toEqual([{
        message: 'pkg/catalog.json: is a symbolic link that resolves outside the catalog folder; the loader reads only files inside it. Fix: copy the file into the catalog',
        location: { file: 'pkg/catalog.json', line: 1 },
      }]);
      expect(JSON.stringify(c)).not.toContain('SECRET');
      expect(c.blobs.map((b) => b.schema)).toEqual(['olm.package', 'olm.package']);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  test('a FIFO named as a catalog file is refused without opening it (it would never end); /proc files are read with a byte limit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-fifo-'));
    try {
      const fifo = path.join(dir, 'catalog.json');
      execFileSync('mkfifo', [fifo]);
      const c = FileBasedCatalog.fromPath(fifo);
      expect(c.blobs).toEqual([]);
      expect(c.loadProblems).toEqual([{
        message: 'catalog.json: is not a regular file (a FIFO, socket or device); a catalog holds only files',
        location: { file: 'catalog.json', line: 1 },
      }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // stat reports size 0 for /proc files: the read itself is bounded (and a status file is no catalog)
    expect(fs.statSync('/proc/self/status').size).toEqual(0);
    expect(FileBasedCatalog.fromPath('/proc/self/status').blobs).toEqual([]);
  });

  test('a YAML alias bomb', () => {
    const lines = ['schema: olm.package', 'name: a', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [p, n] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g']]) lines.push(`${n}: &${n} [${Array(9).fill(`*${p}`).join(',')}]`);
    const c = FileBasedCatalog.fromString(lines.join('\n'), 'bomb/catalog.yaml');
    expect(c.blobs).toEqual([]);
    expect(c.loadProblems).toEqual([{
      message: `bomb/catalog.yaml:1: YAML aliases expand to too much data (over ${LOADER_LIMITS.aliasCount} alias expansions: a YAML alias bomb?)`,
      location: { file: 'bomb/catalog.yaml', line: 1 },
    }]);
  });

  test('a 200,000-deep JSON value', () => {
    const deep = '['.repeat(200000) + ']'.repeat(200000);
    const c = FileBasedCatalog.fromString(`${PKG}\n${bundleBlob(`,"x":${deep}`)}\n`, 'deep.json');
    expect(c.blobs.map((b) => b.schema)).toEqual(['olm.package']);
    expect(c.loadProblems).toEqual([{
      message: `deep.json:2: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`,
      location: { file: 'deep.json', line: 2 },
    }]);
  });

  test('a deep YAML value: past the YAML parser stack (3000) and just past the limit (limit + 1)', () => {
    for (const n of [3000, LOADER_LIMITS.depth]) {
      const c = FileBasedCatalog.fromString(`schema: olm.package\nname: a\nx: ${'['.repeat(n)}${']'.repeat(n)}\n`, 'deep.yaml');
      expect(c.blobs).toEqual([]);
      expect(c.loadProblems).toEqual([{
        message: n === 3000 ? `deep.yaml:3: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`
          : `deep.yaml:1: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit)`,
        location: { file: 'deep.yaml', line: n === 3000 ? 3 : 1 },
      }]);
    }
    // at the limit exactly (the blob itself is level 1): loads
    const ok = FileBasedCatalog.fromString(`schema: olm.package\nname: a\nx: ${'['.repeat(LOADER_LIMITS.depth - 1)}${']'.repeat(LOADER_LIMITS.depth - 1)}\n`, 'ok.yaml');
    expect([ok.loadProblems, ok.packageNames]).toEqual([[], ['a']]);
  });

  test('a file over the size limit, read from a path or given as text', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-size-'));
    const saved = LOADER_LIMITS.catalogFileBytes;
    try {
      fs.mkdirSync(path.join(dir, 'a'));
      fs.writeFileSync(path.join(dir, 'a', 'catalog.json'), `${PKG}\n${CHANNEL}\n`);
      LOADER_LIMITS.catalogFileBytes = 64;
      expect(FileBasedCatalog.fromPath(dir).loadProblems).toEqual([{
        message: 'a/catalog.json: file is 139 bytes, over the limit of 64 bytes for a catalog file',
        location: { file: 'a/catalog.json', line: 1 },
      }]);
      expect(FileBasedCatalog.fromString(`${PKG}\n${CHANNEL}\n`, 'x.json').loadProblems).toEqual([{
        message: 'x.json: file is 139 bytes, over the limit of 64 bytes',
        location: { file: 'x.json', line: 1 },
      }]);
    } finally {
      LOADER_LIMITS.catalogFileBytes = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file that cannot be read (a broken link) is a load problem naming it, never an exception', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-link-'));
    try {
      fs.mkdirSync(path.join(dir, 'a'));
      fs.writeFileSync(path.join(dir, 'a', 'catalog.json'), `${PKG}\n`);
      fs.symlinkSync(path.join(dir, 'missing.json'), path.join(dir, 'a', 'broken.json'));
      const c = FileBasedCatalog.fromPath(dir);
      expect(c.packageNames).toEqual(['a']);
      expect(c.loadProblems).toEqual([{
        message: `a/broken.json: cannot read the file: ENOENT: no such file or directory, stat '${path.join(dir, 'a', 'broken.json')}'`,
        location: { file: 'a/broken.json', line: 1 },
      }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('fromCatalogFile: a catalog with load problems is an Error naming the file and the problem', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-bad-'));
    const file = path.join(dir, 'catalog.json');
    fs.writeFileSync(file, `${PKG}\n{"schema": oops}\n`);
    try {
      expect(() => OperatorBundle.fromCatalogFile(file, 'a.v1.0.0')).toThrow(new Error(
        `OperatorBundle.fromCatalogFile: cannot read ${file}: catalog.json:2: malformed JSON: Unexpected token 'o', "{"schema": oops}" is not valid JSON`));
      expect(() => OperatorBundle.fromCatalogPackage(path.join(dir, 'nope.json'), 'a')).toThrow(new Error(
        `OperatorBundle.fromCatalogPackage: '${path.join(dir, 'nope.json')}' does not exist; pass a file-based catalog file (JSON or YAML)`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a deep blob built in code cannot make the writers throw RangeError', () => {
  let deep: any = {};
  for (let i = 0; i < 200000; i++) deep = { x: [deep] };
  const catalog = FileBasedCatalog.fromBlobs([
    ...FileBasedCatalog.fromString(`${PKG}\n${CHANNEL}\n`, 'c.json').blobs,
    { schema: 'olm.bundle', content: { ...JSON.parse(bundleBlob('')), deep } } as FbcBlob,
  ]);
  const message = `blob "olm.bundle/a/a.v1.0.0" is nested deeper than ${LOADER_LIMITS.depth} levels (the loaders' limit); it cannot be written`;

  test('FbcWriter.problems names the blob; FbcWriter.toFiles throws that as an Error', () => {
    expect(FbcWriter.problems(catalog)).toEqual([{ message, blob: 'olm.bundle/a/a.v1.0.0' }]);
    expect(() => FbcWriter.toFiles(catalog)).toThrow(new Error(`FbcWriter.toFiles: ${message}`));
  });

  test('CuratedCatalog.artifacts() and writeArtifacts() throw a clear Error, not a RangeError', () => {
    const { chart } = appAndChart();
    const c = new CuratedCatalog(chart, 'C', { image: 'i', sourceCatalog: catalog, packages: [{ name: 'a' }], tenants: [new FakeTenant(chart, 'T', 'team-a')] });
    expect(() => c.artifacts()).toThrow(new Error(`platform/C: cannot write the curated catalog:\n  ${message}`));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-art-'));
    try {
      expect(() => c.writeArtifacts(dir)).toThrow(new Error(`platform/C: cannot write the curated catalog:\n  ${message}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a blob exactly at the depth limit is written as JSON and YAML (the limit leaves the writers stack room)', () => {
    let v: any = 'leaf';
    for (let i = 0; i < LOADER_LIMITS.depth - 1; i++) v = i % 2 ? { x: v } : [v];
    const atLimit = FileBasedCatalog.fromBlobs([{ schema: 'olm.bundle', content: { schema: 'olm.bundle', package: 'a', name: 'a.v1', v } }]);
    expect(FbcWriter.problems(atLimit)).toEqual([]);
    const json = FbcWriter.toFiles(atLimit, FbcFormat.JSON)['a/catalog.json'];
    const yaml = FbcWriter.toFiles(atLimit, FbcFormat.YAML)['a/catalog.yaml'];
    expect([FileBasedCatalog.fromString(json, 'a.json').blobs[0].content, FileBasedCatalog.fromString(yaml, 'a.yaml').blobs[0].content])
      .toEqual([atLimit.blobs[0].content, atLimit.blobs[0].content]);
  });

  test('fromBlobs leaves out blobs without content (plain JavaScript) and says so', () => {
    const c = FileBasedCatalog.fromBlobs([{ schema: 'olm.package' } as any, null as any]);
    expect(c.blobs).toEqual([]);
    expect(c.loadProblems).toEqual([
      { message: "FileBasedCatalog.fromBlobs: blobs[0] must have a non-empty 'schema' and a 'content' object" },
      { message: "FileBasedCatalog.fromBlobs: blobs[1] must have a non-empty 'schema' and a 'content' object" },
    ]);
  });
});
