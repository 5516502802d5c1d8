/**
 * No hidden state (issue 39 item 1): every module-level `Map`, `Set`, `WeakMap`, `WeakSet` and `let` of src/ (and
 * every static field holding one) is listed in docs/architecture.md, "State and caches", in the table of its kind:
 * - a per-App registration is an `AppSlot` of `AppContext` (src/core/app-context.ts), listed under "The per-App context";
 * - a cache (a collection whose name says cache, or an instance of a cache class) is listed under "Caches", with what
 *   keys it and why it cannot change the output;
 * - a `let` is listed under "Process state";
 * - a constant table is declared `ReadonlyMap` / `ReadonlySet` (the compiler then refuses a write) and needs no row.
 * Rows are read from the docs, so the docs and the code cannot drift: a row that names nothing fails too.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { sourceFiles, SRC } from '../util/import-graph';

const ROOT = path.join(SRC, '..');
const ARCHITECTURE = path.join(ROOT, 'docs', 'architecture.md');

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
/** The library's cache classes: an instance at module level is a cache (named by its class). */
const CACHE_CLASSES = new Set(['BoundedCache', 'FormCache', 'NamespaceTemplates', 'PassMemo']);

type Kind = 'context' | 'cache' | 'process' | 'constant' | 'unnamed-cache';

interface Declared {
  readonly file: string;
  readonly name: string;
  readonly kind: Kind;
}

/** The kind of a module-level (or static) declaration, if it is state at all. */
function kindOf(isLet: boolean, name: string, type: ts.TypeNode | undefined, init: ts.Expression | undefined, sf: ts.SourceFile): Kind | undefined {
  if (isLet) return 'process';
  if (init === undefined || !ts.isNewExpression(init)) return undefined;
  const cls = init.expression.getText(sf);
  if (cls === 'AppSlot') return 'context';
  if (CACHE_CLASSES.has(cls)) return 'cache';
  if (!COLLECTIONS.has(cls)) return undefined;
  const declared = type?.getText(sf) ?? '';
  if (/^Readonly(Map|Set)</.test(declared)) return 'constant';
  return /cache/i.test(name) ? 'cache' : 'unnamed-cache';
}

/** Every module-level and static collection, cache, slot and `let` of src/ (the generated src/imports aside). */
function declaredState(): Declared[] {
  const out: Declared[] = [];
  for (const file of sourceFiles()) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const st of sf.statements) {
      if (ts.isVariableStatement(st)) {
        const isLet = !st.declarationList.getText(sf).startsWith('const ');
        for (const d of st.declarationList.declarations) {
          const name = d.name.getText(sf);
          const kind = kindOf(isLet, name, d.type, d.initializer, sf);
          if (kind !== undefined) out.push({ file: rel, name, kind });
        }
      }
      if (ts.isClassDeclaration(st)) {
        for (const m of st.members) {
          if (!ts.isPropertyDeclaration(m) || !m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
          const name = `${st.name?.getText(sf) ?? '?'}.${m.name.getText(sf)}`;
          // a static field that is not readonly is process state; a readonly one holding a collection is read as a const
          const readonly = m.modifiers.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
          const kind = kindOf(!readonly, name, m.type, m.initializer, sf);
          if (kind !== undefined) out.push({ file: rel, name, kind });
        }
      }
    }
  }
  return out;
}

/** The rows (`name`, `file`) of each table of docs/architecture.md's "State and caches" section. */
function documented(): Record<'context' | 'cache' | 'process', Array<{ name: string; file: string }>> {
  const text = fs.readFileSync(ARCHITECTURE, 'utf8');
  const start = text.indexOf('\n## State and caches\n');
  if (start < 0) throw new Error('docs/architecture.md has no "## State and caches" section');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const tables: Record<string, 'context' | 'cache' | 'process'> = {
    '### The per-App context': 'context', '### Caches': 'cache', '### Process state': 'process',
  };
  const out: Record<'context' | 'cache' | 'process', Array<{ name: string; file: string }>> = { context: [], cache: [], process: [] };
  let current: 'context' | 'cache' | 'process' | undefined;
  for (const line of section.split('\n')) {
    if (line.startsWith('### ')) current = tables[line.trim()];
    const row = /^\| `([A-Za-z_][A-Za-z0-9_.]*)` \| `(src\/[^`]+\.ts)` \|/.exec(line);
    if (row && current !== undefined) out[current].push({ name: row[1], file: row[2] });
  }
  return out;
}

const key = (d: { name: string; file: string }) => `${d.file} ${d.name}`;

describe('module-level state of src/ (issue 39)', () => {
  const state = declaredState();
  const docs = documented();

  test('the scan finds the per-App context, the caches and the process state', () => {
    // the scanner itself works: it sees the one registry and a slot, a cache of each form, a let and a constant
    expect(state).toEqual(expect.arrayContaining([
      { file: 'src/core/app-context.ts', name: 'CONTEXTS', kind: 'unnamed-cache' },
      { file: 'src/tenant/private.ts', name: 'NAME_CHECKING_PARENTS', kind: 'context' },
      { file: 'src/tenant/private.ts', name: 'L1_RULES_CACHE', kind: 'cache' },
      { file: 'src/rbac/rbac-rules.ts', name: 'COMPACTED', kind: 'cache' },
      { file: 'src/core/synth-pass.ts', name: 'running', kind: 'process' },
      { file: 'src/core/policy-checks.ts', name: 'BY_ID', kind: 'constant' },
    ]));
  });

  test('every collection that is neither a slot, a constant table nor named as a cache is the one registry', () => {
    // AppContext's registry (root -> context) is the one such map: docs/architecture.md names it in the text
    expect(state.filter((d) => d.kind === 'unnamed-cache').map(key)).toEqual(['src/core/app-context.ts CONTEXTS']);
    expect(fs.readFileSync(ARCHITECTURE, 'utf8').replace(/\s+/g, ' ').includes('`CONTEXTS` in `src/core/app-context.ts`')).toBe(true);
  });

  test.each(['context', 'cache', 'process'] as const)('every %s declaration is documented, and every row names one', (kind) => {
    const found = state.filter((d) => d.kind === kind).map(key).sort();
    const rows = docs[kind].map(key).sort();
    expect({ undocumented: found.filter((k) => !rows.includes(k)), stale: rows.filter((k) => !found.includes(k)) })
      .toEqual({ undocumented: [], stale: [] });
  });

  test('no row is listed twice', () => {
    const all = [...docs.context, ...docs.cache, ...docs.process].map(key);
    expect(all.filter((k, i) => all.indexOf(k) !== i)).toEqual([]);
  });
});
