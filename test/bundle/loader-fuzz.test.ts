/**
 * Fuzzing the bundle loaders (fast-check, fixed seeds): random YAML/JSON text, random bytes, random objects and
 * mutated real fixtures. Whatever the input, loading either returns a bundle or throws a plain `Error` whose message
 * starts with `OperatorBundle` and stays on one line: never a TypeError, RangeError or ReferenceError. Each case is
 * bounded (inputs of a few KB), so no case can hang. About 2,000 cases.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InstallPreflight, PreflightResult } from '../../src/preflight/install-preflight';
import { PreflightCode } from '../../src/preflight/preflight-code';

const ETCD = path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4');
const CSV_FILE = 'etcdoperator.v0.9.4.clusterserviceversion.yaml';
const CSV_TEXT = fs.readFileSync(path.join(ETCD, 'manifests', CSV_FILE), 'utf8');
const CATALOG = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml');

/** Runs `f`; a thrown value must be a plain Error with a one-line message starting with `prefix`. */
function clean(f: () => unknown, prefix: RegExp): unknown {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof Error) || Object.getPrototypeOf(e) !== Error.prototype) {
      throw new Error(`escaped ${e instanceof Error ? e.constructor.name : typeof e}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!prefix.test(e.message)) throw new Error(`unexpected message: ${e.message}`);
    if (e.message.includes('\n')) throw new Error(`message on several lines: ${e.message}`);
    return undefined;
  }
}

/** The preflight findings about loading and kind dispatch that contain a raw newline (there must be none). */
function loaderFindingsOnSeveralLines(r: PreflightResult | undefined): string[] {
  const codes = [PreflightCode.BUNDLE_MANIFEST_WARNING, PreflightCode.CREATED_AS_CORE_KIND, PreflightCode.INVALID_BUNDLE_OBJECT];
  return [...(r?.warnings ?? []), ...(r?.problems ?? [])].filter((p) => codes.includes(p.code) && p.message.includes('\n')).map((p) => p.message);
}

/** Text pieces that matter to YAML and JSON parsers. */
/** An alias bomb and deep nesting: the limits must turn them into clear problems. */
const BOMB = `a: &a ["x","x","x","x","x","x","x","x","x"]\n${['b', 'c', 'd', 'e', 'f'].map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcde'[i]}`).join(',')}]`).join('\n')}\n`;
const DEEP = `${'['.repeat(1200)}${']'.repeat(1200)}`;
const YAML_PIECES = [BOMB, DEEP, '\n', '  ', '\t', '\r\n', '---\n', '--- x\n', '...\n', '- ', ': ', '{', '}', '[', ']', ',', '"', "'", '&a ', '*a', '!!str ',
  '|\n', '>-\n', '# c\n', '<<: ', 'kind: ', 'apiVersion: v1\n', 'metadata:\n  name: n\n', '\uFEFF', '\u0000', '%YAML 1.1\n', '? ', '@', '`',
  'kind: ClusterServiceVersion\n', 'spec:\n', 'install:\n', 'rules:\n', 'verbs: [get]\n', 'null', '~', '1e400', '0x1F', 'yes', '=', '\\'];
const yamlText = fc.array(fc.oneof(fc.constantFrom(...YAML_PIECES), fc.string({ maxLength: 6 })), { maxLength: 60 }).map((p) => p.join(''));
const jsonText = fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v));

/** Mutations of a real text: cut, insert, replace, duplicate or drop lines, CRLF, BOM, tabs, separators. */
const mutation = fc.tuple(
  fc.constantFrom('cut', 'insert', 'replace', 'dupLine', 'dropLine', 'crlf', 'bom', 'tabIndent', 'separator', 'truncate'),
  fc.nat(),
  fc.constantFrom(...YAML_PIECES),
);
function mutate(text: string, ops: Array<[string, number, string]>): string {
  let t = text;
  for (const [op, n, piece] of ops) {
    const i = t.length === 0 ? 0 : n % t.length;
    const lines = t.split('\n');
    const l = lines.length === 0 ? 0 : n % lines.length;
    switch (op) {
      case 'cut': t = t.slice(0, i) + t.slice(i + 1 + (n % 7)); break;
      case 'insert': t = t.slice(0, i) + piece + t.slice(i); break;
      case 'replace': t = t.slice(0, i) + piece + t.slice(i + piece.length); break;
      case 'dupLine': lines.splice(l, 0, lines[l]); t = lines.join('\n'); break;
      case 'dropLine': lines.splice(l, 1); t = lines.join('\n'); break;
      case 'crlf': t = t.replace(/\n/g, '\r\n'); break;
      case 'bom': t = `\uFEFF${t}`; break;
      case 'tabIndent': lines[l] = lines[l].replace(/^ {2}/, '\t'); t = lines.join('\n'); break;
      case 'separator': lines.splice(l, 0, '---'); t = lines.join('\n'); break;
      case 'truncate': t = t.slice(0, i); break;
    }
  }
  return t;
}

describe('OperatorBundle loaders never let a JS error escape (fast-check)', () => {
  test('fromCsvYaml: random YAML-ish text and JSON (600 cases)', () => {
    fc.assert(fc.property(fc.oneof(yamlText, jsonText), fc.option(yamlText, { nil: undefined }), (csv, extra) => {
      clean(() => OperatorBundle.fromCsvYaml(csv, extra), /^OperatorBundle/);
    }), { seed: 9001, numRuns: 600 });
  });

  test('fromCsvYaml: the real etcd CSV, mutated; a loaded bundle also goes through the preflight (400 cases)', () => {
    let loaded = 0;
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ops) => {
      const b = clean(() => OperatorBundle.fromCsvYaml(mutate(CSV_TEXT, ops)), /^OperatorBundle/) as OperatorBundle | undefined;
      if (b !== undefined) {
        loaded++;
        const r = clean(() => InstallPreflight.check({ bundle: b, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] }), /^(InstallPreflight|RbacRules)/);
        expect(loaderFindingsOnSeveralLines(r as PreflightResult | undefined)).toEqual([]);
      }
    }), { seed: 9002, numRuns: 400 });
    // both outcomes are exercised: some mutations still load, others are refused
    expect([loaded > 0, loaded < 400]).toEqual([true, true]);
  });

  test('fromCsvObject / fromCatalogBundle: random values (500 cases)', () => {
    fc.assert(fc.property(fc.anything({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }), (a, b) => {
      clean(() => OperatorBundle.fromCsvObject(a, Array.isArray(b) ? b : [b]), /^OperatorBundle/);
      clean(() => OperatorBundle.fromCatalogBundle(a), /^OperatorBundle/);
      clean(() => OperatorBundle.fromCatalogBundle({ schema: 'olm.bundle', name: 'x', properties: [{ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(a) ?? '').toString('base64') } }] }), /^OperatorBundle/);
    }), { seed: 9003, numRuns: 500 });
  });

  describe('fromDirectory over files on disk', () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-fuzz-'));
      fs.cpSync(ETCD, dir, { recursive: true });
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    test('mutated real CSV, random extra files and random bytes (400 cases)', () => {
      let loaded = 0;
      fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.oneof(yamlText, jsonText, fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u).toString('latin1'))), (ops, extra) => {
        fs.writeFileSync(path.join(dir, 'manifests', CSV_FILE), mutate(CSV_TEXT, ops));
        fs.writeFileSync(path.join(dir, 'manifests', 'extra.yaml'), extra);
        fs.writeFileSync(path.join(dir, 'metadata', 'annotations.yaml'), mutate('annotations:\n  operators.operatorframework.io.bundle.package.v1: etcd\n', ops));
        const b = clean(() => OperatorBundle.fromDirectory(dir), /^OperatorBundle/) as OperatorBundle | undefined;
        if (b !== undefined) {
          loaded++;
          expect(b.loadWarnings.filter((w) => w.includes('\n'))).toEqual([]);
          const r = clean(() => InstallPreflight.check({ bundle: b, namespace: 'team-a', targetNamespaces: [], installerRules: [] }), /^(InstallPreflight|RbacRules)/);
          expect(loaderFindingsOnSeveralLines(r as PreflightResult | undefined)).toEqual([]);
        }
      }), { seed: 9004, numRuns: 400 });
      expect([loaded > 0, loaded < 400]).toEqual([true, true]);
    });
  });

  test('fromCatalogFile: the real catalog, mutated (150 cases)', () => {
    const text = fs.readFileSync(CATALOG, 'utf8');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-fuzz-'));
    const file = path.join(dir, 'catalog.yaml');
    try {
      fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ops) => {
        fs.writeFileSync(file, mutate(text, ops));
        clean(() => OperatorBundle.fromCatalogFile(file, 'odf-node-recovery-operator.v1.1.0'), /^OperatorBundle/);
        clean(() => OperatorBundle.fromCatalogPackage(file, 'odf-node-recovery-operator'), /^OperatorBundle/);
      }), { seed: 9005, numRuns: 150 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
