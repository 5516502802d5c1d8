/* eslint-disable no-bitwise */ // ts.SymbolFlags is a bit set
/**
 * The public API users need (issue 26): every export of the package root is either named where users read
 * (README.md, docs/, examples/) or needed by the public signature of one that is (jsii requires a type a public member
 * uses to be exported). Anything else is the library's own plumbing: keep it out of the folder's index. The test walks
 * the public members of the root's exports with the TypeScript checker (`@internal` and `_` members skipped, as jsii
 * skips them).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { diskMemo, JSON_CODEC, sourceKey } from '../util/disk-memo';

const ROOT = path.join(__dirname, '..', '..');
const GENERATED_L1 = ['olm', 'olmv1', 'openshift'];

function exportsOfRoot() {
  const program = ts.createProgram([path.join(ROOT, 'src', 'index.ts')], {
    target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, experimentalDecorators: true, noResolve: false, skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const root = checker.getSymbolAtLocation(program.getSourceFile(path.join(ROOT, 'src', 'index.ts'))!)!;
  const symbols = new Map<string, ts.Symbol>();
  for (const e of checker.getExportsOfModule(root)) {
    if (GENERATED_L1.includes(e.name)) continue;
    symbols.set(e.name, (e.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(e) : e);
  }
  const byDeclaration = new Map([...symbols].map(([name, s]) => [s, name]));
  const internal = (m: ts.ClassElement | ts.TypeElement) => {
    const name = m.name?.getText() ?? '';
    return name.startsWith('_') || name.startsWith('#')
      || (ts.canHaveModifiers(m) && (ts.getModifiers(m) ?? []).some((x) => x.kind === ts.SyntaxKind.PrivateKeyword))
      || ts.getJSDocTags(m).some((t) => t.tagName.text === 'internal');
  };
  /** The root exports a public member of `symbol` names in its types. */
  const uses = (symbol: ts.Symbol): Set<string> => {
    const out = new Set<string>();
    const visit = (node: ts.Node) => {
      if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
        let s = checker.getSymbolAtLocation(ts.isTypeReferenceNode(node) ? node.typeName : node.expression);
        if (s && (s.flags & ts.SymbolFlags.Alias) !== 0) s = checker.getAliasedSymbol(s);
        const name = s && byDeclaration.get(s);
        if (name) out.add(name);
      }
      ts.forEachChild(node, visit);
    };
    for (const d of symbol.declarations ?? []) {
      if (!ts.isClassDeclaration(d) && !ts.isInterfaceDeclaration(d)) continue;
      for (const h of d.heritageClauses ?? []) visit(h);
      for (const m of d.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>) {
        if (internal(m)) continue;
        const typed = m as { type?: ts.TypeNode; parameters?: ts.NodeArray<ts.ParameterDeclaration> };
        if (typed.type) visit(typed.type);
        for (const p of typed.parameters ?? []) if (p.type) visit(p.type);
      }
    }
    return out;
  };
  const names = [...symbols.keys()].sort();
  return { names, uses: Object.fromEntries(names.map((n) => [n, [...uses(symbols.get(n)!)].sort()])) as { [name: string]: string[] } };
}

/** The text users read: README.md, docs/*.md (the architecture and testing pages describe internals too), examples/. */
function userText(): string {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && !['architecture.md', 'testing.md', 'scale.md'].includes(f));
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.ts'));
  return [
    fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
    ...docs.map((f) => fs.readFileSync(path.join(ROOT, 'docs', f), 'utf8')),
    ...examples.map((f) => fs.readFileSync(path.join(ROOT, 'examples', f), 'utf8')),
  ].join('\n');
}

describe('the public API users need', () => {
  test('every root export is named where users read, or used by the public signature of one that is', () => {
    // the TypeScript program over src/ is built once per content of src/ (test/util/disk-memo.ts)
    const { names, uses: usesOf } = diskMemo<ReturnType<typeof exportsOfRoot>>('public-api', sourceKey([fs.readFileSync(__filename, 'utf8')]), JSON_CODEC, exportsOfRoot);
    const uses = (n: string) => usesOf[n];
    const text = userText();
    const named = names.filter((n) => new RegExp(`\\b${n}\\b`).test(text));
    const needed = new Set<string>();
    const stack = [...named];
    while (stack.length) {
      const n = stack.pop()!;
      if (needed.has(n)) continue;
      needed.add(n);
      stack.push(...uses(n));
    }
    expect(names.filter((n) => !needed.has(n))).toEqual([]);
    // the review of issue 26 left 212 exports of 231 (19 internal ones removed, listed in the CHANGELOG); the
    // constructs are among them
    expect(names).toEqual(expect.arrayContaining(['TenancyApp', 'ScopedOperatorTenant', 'CuratedCatalog', 'GlobalOperatorInstall', 'OlmV1Team']));
  });
});
