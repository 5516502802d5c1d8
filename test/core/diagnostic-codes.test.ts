/**
 * One registry of codes (issue 39 item 2): every code raised in src/ is registered in src/core/diagnostic-codes.ts,
 * every entry is explained at its docs anchor, agrees with the policy registry, and is raised by some test.
 * Static reads of the sources and tests: no synth, well under a second.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ReachCode } from '../../src/audit/reach-code';
import { CODE, DiagnosticCodes } from '../../src/core/diagnostic-codes';
import { INPUT_CODES } from '../../src/core/input-check';
import { PolicyChecks } from '../../src/core/policy-checks';
import { OlmV1PreviewFindingCode } from '../../src/olmv1/olm-v1-permission-preview';
import { PreflightCode } from '../../src/preflight/preflight-code';
import { sourceFiles, SRC } from '../util/import-graph';

const ROOT = path.join(SRC, '..');
const REGISTRY = path.join(SRC, 'core', 'diagnostic-codes.ts');

/**
 * Codes written as string literals where a diagnostic's code is set or compared (`code: 'X'`, `.code === 'X'`):
 * every such site must name the code through `CODE` instead. Error codes of the file system (`ENOENT`...) are not
 * diagnostic codes.
 */
function literalCodes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue; // comments may quote a code
    // the expression after `code: ` (to the next comma or brace: a ternary names two codes), and `.code === 'X'`
    const exprs = [...line.matchAll(/\bcode: ([^,{}]*)/g), ...line.matchAll(/\.code [!=]== ('[^']*')/g)].map((m) => m[1]);
    for (const e of exprs) for (const m of e.matchAll(/'([A-Z][A-Za-z0-9]+)'/g)) if (!/^E[A-Z]+$/.test(m[1])) out.push(m[1]);
  }
  return out;
}

/** `CODE.X` references of a source text. */
function codeReferences(text: string): string[] {
  return [...text.matchAll(/\bCODE\.(\w+)/g)].map((m) => m[1]);
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

/**
 * The text of `page` that `anchor` names: a heading's section (to the next heading of its level or above; headings
 * inside code blocks do not count, a repeated heading's anchor gets GitHub's `-1`, `-2` suffix), or an `id` row.
 */
function section(page: string, anchor: string): string | undefined {
  const lines = page.split('\n');
  const headings: Array<{ line: number; level: number; anchor: string }> = [];
  const seen = new Map<string, number>();
  let fenced = false;
  lines.forEach((l, i) => {
    if (/^```/.test(l)) fenced = !fenced;
    const m = /^(#+) (.*)$/.exec(l);
    if (fenced || !m) return;
    const base = slug(m[2]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    headings.push({ line: i, level: m[1].length, anchor: n === 0 ? base : `${base}-${n}` });
  });
  const h = headings.find((x) => x.anchor === anchor);
  if (h !== undefined) {
    const next = headings.find((x) => x.line > h.line && x.level <= h.level);
    return lines.slice(h.line, next?.line).join('\n');
  }
  return lines.find((l) => l.includes(`id="${anchor}"`));
}

const sources = sourceFiles().filter((f) => f !== REGISTRY).map((f) => ({ file: path.relative(ROOT, f), text: fs.readFileSync(f, 'utf8') }));
const registered = new Set(DiagnosticCodes.all().map((e) => e.code));

describe('every code raised in src/ is registered', () => {
  test('no site writes a code as a string literal: each names it through CODE', () => {
    expect(sources.flatMap((s) => literalCodes(s.text).map((c) => `${s.file}: '${c}'`))).toEqual([]);
  });

  test('every CODE reference names a registered code', () => {
    const refs = sources.flatMap((s) => codeReferences(s.text).map((c) => ({ file: s.file, code: c })));
    expect(refs.length).toBeGreaterThan(150);
    expect(refs.filter((r) => !registered.has(r.code)).map((r) => `${r.file}: ${r.code}`)).toEqual([]);
  });

  test('the codes of the engines\' enums and of the input checks are registered', () => {
    const values = [
      ...Object.values(PreflightCode), ...Object.values(ReachCode), ...Object.values(OlmV1PreviewFindingCode), ...Object.values(INPUT_CODES),
    ];
    expect(values.filter((c) => !registered.has(c))).toEqual([]);
  });

  test('the policy registry and this one agree: id, summary and fix', () => {
    for (const check of PolicyChecks.all()) {
      const e = DiagnosticCodes.of(check.code);
      expect([check.id, e?.policyId, e?.summary, e?.fix]).toEqual([check.id, check.id, check.summary, check.fix]);
      expect(e?.severity).toEqual(check.severity === 'WARNING' ? 'warning' : 'error');
    }
    const policyCodes = new Set(PolicyChecks.all().map((c) => c.code));
    expect(DiagnosticCodes.all().filter((e) => e.policyId !== undefined && !policyCodes.has(e.code)).map((e) => e.code)).toEqual([]);
  });

  test('CODE names each code by itself; an unknown code has no entry', () => {
    expect(Object.entries(CODE).filter(([k, v]) => k !== v)).toEqual([]);
    expect(Object.keys(CODE).length).toEqual(registered.size);
    expect(DiagnosticCodes.of('NoSuchCode')).toBeUndefined();
    expect(DiagnosticCodes.of('toString')).toBeUndefined();
    expect(DiagnosticCodes.of('MissingInput')?.severity).toEqual('error');
  });

  test('the scan sees a literal code where a code is set or compared, and skips comments and file-system codes', () => {
    expect(literalCodes([
      "  out.push({ code: 'NewCheck', message: 'x' });",
      "  if (d.code !== 'OtherCheck') return;",
      "  code: cond ? 'ThirdCheck' : CODE.MissingInput,",
      "   * `code: 'InComment'` is quoted here",
      "  if (e.code === 'ENOENT') return;",
    ].join('\n'))).toEqual(['NewCheck', 'OtherCheck', 'ThirdCheck']);
  });
});

describe('every registered code is explained', () => {
  test('each entry has a severity, a summary, a fix and a docs anchor that exists and names the code', () => {
    const bad: string[] = [];
    for (const e of DiagnosticCodes.all()) {
      if (!['error', 'warning'].includes(e.severity) || e.summary.trim().length < 10 || e.fix.trim().length < 5) bad.push(`${e.code}: incomplete`);
      const [page, anchor] = e.docs.split('#');
      if (!/^docs\/[\w-]+\.md$/.test(page) || !fs.existsSync(path.join(ROOT, page)) || !anchor) {
        bad.push(`${e.code}: ${e.docs} is not a docs page with an anchor`);
        continue;
      }
      const text = section(fs.readFileSync(path.join(ROOT, page), 'utf8'), anchor);
      if (text === undefined) bad.push(`${e.code}: no anchor ${e.docs}`);
      else if (!text.includes(`\`${e.code}\``)) bad.push(`${e.code}: ${e.docs} does not name it`);
    }
    expect(bad).toEqual([]);
  });

  test('docs/diagnostic-codes.md has a row for every code', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'diagnostic-codes.md'), 'utf8');
    expect(DiagnosticCodes.all().filter((e) => section(page, e.code.toLowerCase()) === undefined).map((e) => e.code)).toEqual([]);
  });
});

/**
 * Codes no test names, each with why. A test names a code where it asserts it (`'X'`, `CODE.X`, an enum member of the
 * code): the list only shrinks.
 */
const UNTESTED: Record<string, string> = {
};

describe('every registered code is raised by a test', () => {
  const tests: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'fixtures') walk(full);
      else if (/\.test\.ts$/.test(e.name) && full !== __filename) tests.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'test'));
  const enumMembers: Record<string, string> = Object.fromEntries([
    ...Object.entries(PreflightCode).map(([k, v]) => [v, `PreflightCode.${k}`]),
    ...Object.entries(ReachCode).map(([k, v]) => [v, `ReachCode.${k}`]),
    ...Object.entries(OlmV1PreviewFindingCode).map(([k, v]) => [v, `OlmV1PreviewFindingCode.${k}`]),
    ...Object.entries(INPUT_CODES).map(([k, v]) => [v, `INPUT_CODES.${k}`]),
  ]);
  // a code of several words is named by any whole-word occurrence (`/UpgradeGraphProblem/`, `'X'`, `CODE.X`); a one-word
  // code (`Validation`) only quoted or as a message ends it (`(Validation)`)
  const named = (code: string) => tests.some((t) => (/[A-Z].*[A-Z]/.test(code) ? new RegExp(`\\b${code}\\b`).test(t)
    : t.includes(`'${code}'`) || t.includes(`(${code})`)) || (enumMembers[code] !== undefined && t.includes(enumMembers[code])));

  test('every entry is asserted by some test, or listed with the reason none can', () => {
    expect(DiagnosticCodes.all().map((e) => e.code).filter((c) => !named(c) && UNTESTED[c] === undefined)).toEqual([]);
  });

  test('every listed exception is still untested', () => {
    expect(Object.keys(UNTESTED).filter((c) => named(c) || !registered.has(c))).toEqual([]);
  });
});
