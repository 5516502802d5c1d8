/**
 * Numbers from one place (issue 29): every timing in README.md and docs/*.md is one BENCHMARKS.md states (generated
 * by `npm run bench`), and the docs link to BENCHMARKS.md's sections rather than repeat them. A timing is a number
 * with a unit of time (`ms`, `s`, `seconds`, `minutes`, `µs`) or a ratio (`1.1x`). The few that are not
 * measurements (an upstream interval, a reading time, a memory ratio) are listed below with why.
 */
import * as fs from 'fs';
import * as path from 'path';
import { MICRO_TITLE } from '../bench/scale';

const ROOT = path.join(__dirname, '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const BENCHMARKS = fs.readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');

/** Numbers with a unit of time, and ratios (not `0x`, a hex prefix). */
const TIMING = /(?<![\w.-])(?:[~≈]\s?)?\d+(?:[.,]\d+)*(?:-\d+(?:[.,]\d+)*)?\s?(?:ms|s|seconds?|minutes?|µs|us)(?![\w])|(?<![\w.-])(?:\d+\.\d+|[1-9]\d*)(?:-\d+(?:\.\d+)?)?x(?![\w])/g;

/** Timings that are not measurements of this library, by page and text. */
const NOT_MEASURED: Array<[string, string, string]> = [
  ['README.md', '10 minutes', 'the walkthrough\'s reading time'],
  ['docs/catalog.md', '15 minutes', 'OLM\'s own poll interval after a failed registry poll (upstream behaviour)'],
  ['docs/scale.md', '4x', 'V8\'s old-generation sizing relative to the live heap (memory, not time)'],
];

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

describe('timings in the docs come from BENCHMARKS.md', () => {
  test.each(PAGES)('%s states no timing BENCHMARKS.md does not', (page) => {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    const found = [...text.matchAll(TIMING)].map((m) => m[0]);
    const stray = found.filter((t) => !BENCHMARKS.includes(t.replace(/^[~≈]\s?/, ''))
      && !NOT_MEASURED.some(([p, allowed]) => p === page && allowed === t));
    expect(stray).toEqual([]);
  });

  test('every link into BENCHMARKS.md names one of its sections', () => {
    const anchors = new Set([...BENCHMARKS.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1])));
    const links = PAGES.flatMap((page) => [...fs.readFileSync(path.join(ROOT, page), 'utf8').matchAll(/BENCHMARKS\.md#([\w-]+)/g)].map((m) => [page, m[1]]));
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter(([, a]) => !anchors.has(a))).toEqual([]);
  });

  test('BENCHMARKS.md has the RBAC and preflight micro-benchmarks, with tmpfs and disk said, as bench/scale.ts writes them', () => {
    const section = BENCHMARKS.split(`## ${MICRO_TITLE}\n`)[1]?.split('\n## ')[0];
    expect(section).toBeDefined();
    expect(section).toContain('tmpfs');
    expect(section).toContain('disk');
    const lines = section!.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.map((l) => l.replace(/: [\d.,]+ (ms|us)\b.*$/, '').replace(/: first .*$/, ''))).toEqual([
      '- rbac covers: 1,000 requested rules (34,001 atoms) vs 1,000 owner rules',
      '- rbac covers: 1,000 rules vs themselves',
      '- rbac covers: 1,000 named requests vs 1,000 single-name owner rules on one resource',
      '- rbac compact: 1,000 rules -> 96 rules',
      '- rbac allows: one request vs 1,000 rules',
      '- preflight: load jaeger 1.65.0 bundle directory (234 KB CSV + 7 files)',
      '- preflight: jaeger with the OKD default Role (all missing rules + problems)',
      '- preflight: jaeger leastPrivilege derivation',
      '- preflight: 500 tenants x 2 bundles (etcd, grafana-operator; derive + check each)',
    ]);
    // the whole-process tables on both storages
    expect(BENCHMARKS).toContain('## At scale, tmpfs');
    expect(BENCHMARKS).toContain('## At scale, on disk');
  });
});
