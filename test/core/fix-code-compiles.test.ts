/**
 * Issue 16 item 6: fixes that compile. Code in a fix text is written in backticks; every such snippet of the
 * policy registry and of the findings of the scenarios below is compiled with the TypeScript compiler against the
 * public API (src/index.ts), in memory, as one program. A snippet compiles as an expression, or as props of one of
 * the library's structs (TypeScript's excess-property check catches misspelled props); a single word must be a
 * prop name. `code: 'IdentityCanAssumeInstaller'` (a string where the enum ReachCode is expected) is TS2322 and fails.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as ts from 'typescript';
import { buildMistakes } from '../../examples/errors-demo';
import { buildFailingTenant } from '../../examples/preflight-demo';
import { CatalogSourceReference, OperatorBundle, PolicyChecks, ScopedOperatorTenant, UpgradeGraph } from '../../src';
import { PROP_NAMES } from '../../src/core/prop-names';
import { case1, case3 } from '../audit/leaky-cases';
import { diskMemo, JSON_CODEC, sourceKey } from '../util/disk-memo';
import { synthErrorLines } from '../util/synth';

const ROOT = path.join(__dirname, '..', '..');
const HISTORY = path.join(ROOT, 'test', 'fixtures', 'bundle-history');

/** Structs a props snippet may belong to. */
const STRUCTS = ['ScopedOperatorTenantProps', 'SubscriptionOptions', 'TenantBlueprintProps', 'BlueprintOperator', 'CuratedCatalogProps', 'TenancyAppProps', 'SubscriptionConfig'];

/** Placeholders fix texts use for the user's values. */
const PRELUDE = `import * as lib from './src';
declare const bundles: lib.OperatorBundle[];
declare const channel: string;
declare const file: string;
declare const packageName: string;
declare const reason: string;
declare const tenant: lib.ScopedOperatorTenant;
const { ReachCode, SensitiveGrant, SubscriptionConfigOptIn, UpgradeGraph, OperatorBundle, InstallPlanApproval, PolicySeverity, DeriveScope } = lib;
void [bundles, channel, file, packageName, reason, tenant, ReachCode, SensitiveGrant, SubscriptionConfigOptIn, UpgradeGraph, OperatorBundle, InstallPlanApproval, PolicySeverity, DeriveScope];
`;

/** The backticked snippets of a text. */
function snippets(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/**
 * Which snippets do not compile (with the compiler's first message), from one in-memory program; the program is
 * built once per content of src/ and snippets (test/util/disk-memo.ts).
 */
function uncompilable(codes: string[]): { snippet: string; error: string }[] {
  const key = sourceKey([fs.readFileSync(__filename, 'utf8'), JSON.stringify(PROP_NAMES), ...codes]);
  const { outside, failures } = diskMemo<ReturnType<typeof compileSnippets>>('fix-code-compiles', key, JSON_CODEC, () => compileSnippets(codes));
  expect(outside).toEqual([]);
  return failures;
}

/** `uncompilable`'s work: the failures, and the compiler's messages outside any snippet (the prelude's). */
function compileSnippets(codes: string[]): { outside: string[]; failures: { snippet: string; error: string }[] } {
  const words = codes.filter((c) => /^[A-Za-z_$][\w$]*$/.test(c));
  const allProps = new Set(Object.values(PROP_NAMES).flat());
  const out = words.filter((w) => !allProps.has(w)).map((w) => ({ snippet: w, error: 'not a prop name' }));
  const code = codes.filter((c) => !words.includes(c));
  const variants: { snippet: string; start: number; end: number }[] = [];
  let text = PRELUDE;
  code.forEach((snippet, i) => {
    const forms = [`const e${i} = (${snippet});\nvoid e${i};`, ...STRUCTS.map((s, j) => `const p${i}_${j}: Partial<lib.${s}> = { ${snippet} };\nvoid p${i}_${j};`)];
    for (const f of forms) {
      const body = `{\n${f}\n}\n`;
      variants.push({ snippet, start: text.length, end: text.length + body.length });
      text += body;
    }
  });
  const fileName = path.join(ROOT, '__fix_snippets__.ts');
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, skipLibCheck: true, types: [],
  };
  const host = ts.createCompilerHost(options);
  const original = host.getSourceFile;
  host.getSourceFile = (name, lang, ...rest) =>
    (path.resolve(name) === fileName ? ts.createSourceFile(name, text, lang) : original.call(host, name, lang, ...rest));
  const program = ts.createProgram([fileName], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(fileName));
  const failed = new Map<string, string>();
  const passed = new Set<string>();
  for (const v of variants) {
    const errors = diagnostics.filter((d) => d.start !== undefined && d.start >= v.start && d.start < v.end);
    if (errors.length === 0) passed.add(v.snippet);
    else if (!failed.has(v.snippet)) failed.set(v.snippet, ts.flattenDiagnosticMessageText(errors[0].messageText, ' '));
  }
  const outsideVariants = diagnostics.filter((d) => d.start === undefined || !variants.some((v) => d.start! >= v.start && d.start! < v.end));
  return {
    outside: outsideVariants.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    failures: [...out, ...code.filter((c) => !passed.has(c)).map((c) => ({ snippet: c, error: failed.get(c) ?? '' }))],
  };
}

/** The findings of scenarios that reach the code-bearing fixes. */
function scenarioTexts(): string[] {
  const texts: string[] = [];
  const catalog = CatalogSourceReference.fromName('curated', 'team-a');
  texts.push(...synthErrorLines(case1().app), ...synthErrorLines(case3().app), ...synthErrorLines(case3(false).app));
  const errorsApp = Testing.app();
  buildMistakes(errorsApp);
  texts.push(...synthErrorLines(errorsApp));
  const preflightApp = Testing.app();
  buildFailingTenant(preflightApp);
  texts.push(...synthErrorLines(preflightApp));
  const etcd = ['0.9.2', '0.9.4'].map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, 'etcd', v)));
  for (const [channel, pin, graphChannel] of [['singlenamespace-alpha', 'etcdoperator.v0.9.3', 'singlenamespace-alpha'], ['alpha', 'etcdoperator.v0.9.2', 'alpha'], ['alpha', 'etcdoperator.v0.9.2', 'singlenamespace-alpha']]) {
    const app = Testing.app();
    const t = new ScopedOperatorTenant(new Chart(app, 'c'), 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog, channel, startingCsv: pin, upgradeGraph: UpgradeGraph.fromBundles(etcd, graphChannel) });
    t.subscribe({ packageName: 'other', catalog });
    texts.push(...synthErrorLines(app));
  }
  return texts;
}

describe('code in fix texts compiles against the public API', () => {
  test('the compiler refuses what issue 16 found (the check is real)', () => {
    expect(uncompilable([
      "acceptedReach: [{ code: 'IdentityCanAssumeInstaller', subject: 'ServiceAccount team-a/etcd-operator', reason: '...' }]",
      'createTokenSecrets: false',
      'podSecurty',
      "acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-a/etcd-operator', reason: '...' }]",
    ]).map((u) => u.snippet)).toEqual([
      'podSecurty',
      "acceptedReach: [{ code: 'IdentityCanAssumeInstaller', subject: 'ServiceAccount team-a/etcd-operator', reason: '...' }]",
      'createTokenSecrets: false',
    ]);
  }, 120_000);

  test('every backticked snippet of the policy registry and of the scenarios compiles', () => {
    const texts = [...PolicyChecks.all().map((c) => c.fix), ...scenarioTexts()];
    const codes = [...new Set(texts.flatMap((t) => snippets(t)))].sort();
    expect(codes).toEqual(expect.arrayContaining([
      "acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-a/etcd-operator', reason: '...' }]",
      'createTokenSecret: false',
      'UpgradeGraph.fromBundles(bundles, channel)',
    ]));
    expect(uncompilable(codes)).toEqual([]);
  }, 120_000);

  test('the IdentityCanAssumeInstaller fix considers the props: no createTokenSecret advice when it is already false', () => {
    const withSecret = synthErrorLines(case3().app).filter((l) => l.includes('(IdentityCanAssumeInstaller'));
    const without = synthErrorLines(case3(false).app).filter((l) => l.includes('(IdentityCanAssumeInstaller'));
    expect(withSecret.some((l) => l.includes('set `createTokenSecret: false`'))).toBe(true);
    expect(without.length).toBeGreaterThan(0);
    expect(without.filter((l) => l.includes('createTokenSecret'))).toEqual([]);
  });
});
