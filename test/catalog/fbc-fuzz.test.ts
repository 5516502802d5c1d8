/**
 * Fuzzing catalog loading (fast-check, fixed seeds): random YAML/JSON text, random bytes and mutated real catalogs
 * go through FileBasedCatalog.fromString, FbcValidator.validate, FbcFilter.filter and FbcWriter. Loading never
 * throws, every problem and warning stays on one line, and nothing later throws a JS error. About 1,500 cases.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { FbcFilter } from '../../src/fbc/fbc-filter';
import { FbcFormat, FbcFinding } from '../../src/fbc/fbc-types';
import { FbcValidator } from '../../src/fbc/fbc-validator';
import { FbcWriter } from '../../src/fbc/fbc-writer';
import { FileBasedCatalog } from '../../src/fbc/file-based-catalog';

const YAML_CATALOG = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.20', 'kubevirt-wol', 'catalog.yaml'), 'utf8');
const JSON_CATALOG = FbcWriter.toFiles(FileBasedCatalog.fromString(YAML_CATALOG, 'catalog.yaml'), FbcFormat.JSON)['kubevirt-wol/catalog.json'];

/** An alias bomb and deep nesting: the limits must turn them into clear problems. */
const BOMB = `a: &a ["x","x","x","x","x","x","x","x","x"]\n${['b', 'c', 'd', 'e', 'f'].map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcde'[i]}`).join(',')}]`).join('\n')}\n`;
const DEEP = `${'['.repeat(1200)}${']'.repeat(1200)}`;
const PIECES = [BOMB, DEEP, '\n', '  ', '\t', '\r\n', '---\n', '...\n', '- ', ': ', '{', '}', '[', ']', ',', '"', "'", '&a ', '*a', '|\n', '# c\n', '<<: ',
  'schema: olm.package\n', 'schema: olm.channel\n', 'schema: olm.bundle\n', 'name: x\n', 'package: x\n', 'entries: []\n', '{"schema":"olm.bundle"}',
  '"name":', '"properties":[', '\uFEFF', '\u0000', '\\', '1e400', 'null', '\\u0000'];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 60 }).map((p) => p.join(''));
const bytes = fc.uint8Array({ maxLength: 400 }).map((u) => Buffer.from(u).toString('utf8'));
const jsonStream = fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 4 }).map((vs) => vs.map((v) => JSON.stringify(v)).join('\n'));

const mutation = fc.tuple(fc.constantFrom('cut', 'insert', 'dupLine', 'dropLine', 'crlf', 'bom', 'truncate'), fc.nat(), fc.constantFrom(...PIECES));
function mutate(t0: string, ops: Array<[string, number, string]>): string {
  let t = t0;
  for (const [op, n, piece] of ops) {
    const i = t.length === 0 ? 0 : n % t.length;
    const lines = t.split('\n');
    const l = n % lines.length;
    if (op === 'cut') t = t.slice(0, i) + t.slice(i + 1 + (n % 5));
    else if (op === 'insert') t = t.slice(0, i) + piece + t.slice(i);
    else if (op === 'dupLine') t = [...lines.slice(0, l + 1), ...lines.slice(l)].join('\n');
    else if (op === 'dropLine') t = [...lines.slice(0, l), ...lines.slice(l + 1)].join('\n');
    else if (op === 'crlf') t = t.replace(/\n/g, '\r\n');
    else if (op === 'bom') t = `\uFEFF${t}`;
    else t = t.slice(0, i);
  }
  return t;
}

const oneLine = (ps: FbcFinding[]) => ps.filter((p) => p.message.includes('\n')).map((p) => p.message);

/** Loads, validates, filters and writes; any JS error fails the property. */
function exercise(content: string, file: string): void {
  const catalog = FileBasedCatalog.fromString(content, file);
  expect(oneLine(catalog.loadProblems)).toEqual([]);
  expect(oneLine(catalog.loadWarnings)).toEqual([]);
  expect(oneLine(FbcValidator.validate(catalog))).toEqual([]);
  const names = catalog.packageNames;
  const filtered = FbcFilter.filter(catalog, names.slice(0, 2).map((name) => ({ name })));
  expect([...oneLine(filtered.problems), ...filtered.notes.filter((n) => n.includes('\n'))]).toEqual([]);
  if (FbcWriter.problems(filtered.catalog).length === 0) {
    FbcWriter.toFiles(filtered.catalog, FbcFormat.JSON);
    FbcWriter.toFiles(filtered.catalog, FbcFormat.YAML);
  }
}

describe('catalog loading never lets a JS error escape (fast-check)', () => {
  test('random YAML-ish text, as .yaml and as .json (600 cases)', () => {
    fc.assert(fc.property(text, (t) => {
      exercise(t, 'catalog.yaml');
      exercise(t, 'catalog.json');
    }), { seed: 7001, numRuns: 600 });
  });

  test('random bytes and random JSON streams (400 cases)', () => {
    fc.assert(fc.property(bytes, jsonStream, (b, j) => {
      exercise(b, 'catalog.yaml');
      exercise(b, 'catalog.json');
      exercise(j, 'catalog.json');
    }), { seed: 7002, numRuns: 400 });
  });

  test('a real catalog, mutated, in YAML and JSON (500 cases)', () => {
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ops) => {
      exercise(mutate(YAML_CATALOG, ops), 'kubevirt-wol/catalog.yaml');
      exercise(mutate(JSON_CATALOG, ops), 'kubevirt-wol/catalog.json');
    }), { seed: 7003, numRuns: 500 });
  });
});
