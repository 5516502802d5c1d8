/**
 * Docs checked by tests (issues 29 and 41): every fenced code block of README.md and docs/*.md, found with the
 * CommonMark parser (commonmark, as GitHub renders the docs), is classified by an HTML comment right before it,
 * `<!-- docs-block: KIND ... -->`, and checked accordingly:
 * - `run context=NAME [synth=pass|fail]`: TypeScript, transpiled and run in the context NAME (below: the
 *   variables the block uses without defining them, the files its paths name); then every App it runs in is
 *   synthesized unless the block synthesized it itself (the context's App, and each App the block makes): `pass` (the
 *   default) means no error, `fail` that the next block shows its errors. The library checks every prop at run time,
 *   so an unknown key or a bad value (`olmVersion: 'latest'`) fails the block;
 * - a `run` block's commented-out code lines (`// openshiftVersion: '4.21',`: a line that is code once uncommented)
 *   are options the reader may turn on: the block runs again with each uncommented, and must pass as well;
 * - `output of=previous`: the errors the previous `run ... synth=fail` block really produces; each line of the block
 *   is one error line, `...` standing for text left out;
 * - `output of=scenario:NAME [match=lines|wrapped]`: the real output of the code SCENARIOS[NAME] runs (the prose
 *   around the block describes its input): equal, or each line one real line in order, or one real line wrapped;
 * - `yaml`: parsed (it must be one YAML document);
 * - `shell`, `text`: not runnable (shell commands; a listing, a diagram, abbreviated output), named as such;
 * - `checked-by=FILE`: generated or checked by that test (or script), which must contain the block's text (every
 *   line but `...`), or read the block by its markers (`<!-- NAME:start -->` ... `<!-- NAME:end -->` around the
 *   block: FILE names `NAME`).
 * Blocks of one page run in order and share nothing but the files.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as plus from 'cdk8s-plus-28';
import { Parser } from 'commonmark';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import { case3 } from './audit/leaky-cases';
import * as schemaValidator from './util/schema-validator';
import * as synthUtil from './util/synth';
import { prometheusHistory } from '../examples/upgrade-demo';
import * as lib from '../src';

const ROOT = path.join(__dirname, '..');
const PAGES = ['README.md', 'CONTRIBUTING.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const KINDS = ['run', 'output', 'yaml', 'shell', 'text', 'checked-by'];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
  readonly kind: string;
  readonly args: { [key: string]: string };
  /** Names of the `<!-- NAME:start -->` markers right before the block (whose `NAME:end` follows it). */
  readonly markers: string[];
}

/** The fenced code blocks of a page, with the docs-block marker of the HTML block right before each. */
function blocks(page: string): Block[] {
  const tree = new Parser().parse(fs.readFileSync(path.join(ROOT, page), 'utf8'));
  const walker = tree.walker();
  const out: Block[] = [];
  let e;
  while ((e = walker.next())) {
    const n = e.node;
    if (!e.entering || n.type !== 'code_block') continue;
    // the marker is in the HTML blocks right before the code block (other markers, e.g. `<!-- walkthrough:start -->`, may follow it)
    let marker: RegExpExecArray | null = null;
    for (let prev = n.prev; prev?.type === 'html_block' && !marker; prev = prev.prev) {
      marker = /<!-- docs-block: (\S+)((?: [\w-]+=\S+)*) -->/.exec(prev.literal ?? '');
    }
    const args: { [key: string]: string } = {};
    let kind = marker?.[1] ?? '';
    if (kind.startsWith('checked-by=')) {
      args['checked-by'] = kind.slice('checked-by='.length);
      kind = 'checked-by';
    }
    for (const m of (marker?.[2] ?? '').matchAll(/ ([\w-]+)=(\S+)/g)) args[m[1]] = m[2];
    const markers: string[] = [];
    for (let prev = n.prev; prev?.type === 'html_block'; prev = prev.prev) {
      for (const m of (prev.literal ?? '').matchAll(/<!-- ([\w-]+):start -->/g)) {
        if (n.next?.type === 'html_block' && (n.next.literal ?? '').includes(`<!-- ${m[1]}:end -->`)) markers.push(m[1]);
      }
    }
    out.push({ page, line: n.sourcepos[0][0], info: n.info ?? '', code: n.literal ?? '', kind, args, markers });
  }
  return out;
}

const ALL = PAGES.flatMap(blocks);

/** A small file-based catalog (olm.package, olm.channel, olm.bundle) of fixture bundles; no variables. */
function writeCommunityIndex(dir: string): {} {
  const packages: Array<[string, string, string, string]> = [
    ['cert-manager', 'stable', 'cert-manager.v1.16.5', '1.16.5'],
    ['strimzi-kafka-operator', 'stable', 'strimzi-cluster-operator.v1.2.0', '1.2.0'],
    ['grafana-operator', 'v5', 'grafana-operator.v5.24.0', '5.24.0'],
  ];
  for (const [pkg, channel, bundle, version] of packages) {
    fs.mkdirSync(path.join(dir, pkg), { recursive: true });
    fs.writeFileSync(path.join(dir, pkg, 'catalog.json'), [
      { schema: 'olm.package', name: pkg, defaultChannel: channel },
      { schema: 'olm.channel', name: channel, package: pkg, entries: [{ name: bundle }] },
      { schema: 'olm.bundle', name: bundle, package: pkg, image: `quay.io/community-operator-pipeline-prod/${pkg}@sha256:${'0'.repeat(64)}`, properties: [{ type: 'olm.package', value: { packageName: pkg, version } }] },
    ].map((o) => JSON.stringify(o)).join('\n'));
  }
  return {};
}

/** A scratch directory with the files the docs' paths name: `bundles/` (test/fixtures/bundles). */
function sandbox(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-blocks-'));
  fs.symlinkSync(path.join(ROOT, 'test', 'fixtures', 'bundles'), path.join(dir, 'bundles'));
  return dir;
}

/** What a block's context defines: modules for its imports, and variables it uses without defining them. */
interface Context {
  readonly modules: { [name: string]: unknown };
  readonly globals: { [name: string]: unknown };
  /** The App of the context (its `chart`), then every App the block made, in order. */
  readonly apps: cdk8s.App[];
  /** The Apps the block synthesized itself (`app.synth()`, `synthYaml()`, `synthObjects()`). */
  readonly synthesized: Set<cdk8s.App>;
}

function makeContext(name: string, dir: string): Context {
  const apps: cdk8s.App[] = [];
  const synthesized = new Set<cdk8s.App>();
  // Apps write into the sandbox and report errors one per line (the form the output blocks show); each is recorded,
  // and so is its own synth
  class App extends cdk8s.App {
    constructor(props: cdk8s.AppProps = {}) {
      super({ outdir: path.join(dir, 'dist'), ...props });
      apps.push(this);
    }
    public synth(): void {
      synthesized.add(this);
      super.synth();
    }
    public synthYaml(): string {
      synthesized.add(this);
      return super.synthYaml();
    }
  }
  class TenancyApp extends lib.TenancyApp {
    constructor(props: lib.TenancyAppProps = {}) {
      super({ outdir: path.join(dir, 'dist'), quiet: true, errorFormat: lib.SynthErrorFormat.ONE_LINE, ...props });
      apps.push(this);
    }
    public synth(): void {
      synthesized.add(this);
      super.synth();
    }
    public synthYaml(): string {
      synthesized.add(this);
      return super.synthYaml();
    }
    public synthObjects(): lib.ChartObjects[] {
      synthesized.add(this);
      return super.synthObjects();
    }
  }
  // `catalog.json` of the docs' upgrade samples: prometheus' published bundles (test/fixtures/bundle-history)
  class UpgradeGraph extends lib.UpgradeGraph {
    public static fromCatalogPackage(file: string, packageName: string, channel?: string): lib.UpgradeGraph {
      if (packageName !== 'prometheus') throw new Error(`the docs context has no catalog ${file} for ${packageName}`);
      return lib.UpgradeGraph.fromBundles(prometheusHistory(), channel);
    }
  }
  const library = { ...lib, TenancyApp, UpgradeGraph };
  const app = new TenancyApp();
  const chart = new cdk8s.Chart(app, 'platform');
  const contexts: { [name: string]: () => { [name: string]: unknown } } = {
    // a file of its own: imports everything, defines everything
    'none': () => ({}),
    // `chart` of a TenancyApp; the library's exports in scope, as the docs' short samples assume
    'chart': () => ({ chart }),
    // plus `catalog`, the tenant's CatalogSource
    'chart+catalog': () => ({ chart, catalog: lib.CatalogSourceReference.fromName('curated-operators', 'team-m') }),
    // the tenants `teamA`, `teamB` a catalog serves, and `catalogs/community-operator-index`: a file-based catalog
    // of the bundles in test/fixtures/bundles the sample curates (cert-manager 1.16.5 and strimzi 1.2.0 on stable,
    // grafana-operator 5.24.0 on v5)
    'chart+tenants': () => ({
      ...writeCommunityIndex(path.join(dir, 'catalogs', 'community-operator-index')),
      chart,
      teamA: new lib.ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' }),
      teamB: new lib.ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b' }),
    }),
    // the team names of a scale sample
    'teams': () => ({ teams: ['a', 'b', 'c'] }),
    // the App a test synthesizes (test/util)
    'test-app': () => ({ app, chart, expect }),
  };
  const make = contexts[name];
  if (!make) throw new Error(`docs-block context ${name} is not defined in test/docs-blocks.test.ts (${Object.keys(contexts).join(', ')})`);
  const globals = { ...library, ...make() };
  // the context's own App is synthesized only when the block used it (a block of its own makes its own)
  if (name === 'none') apps.splice(apps.indexOf(app), 1);
  return {
    apps,
    synthesized,
    globals,
    modules: {
      'cdk8s': { ...cdk8s, App },
      'cdk8s-plus-28': plus,
      'cdk8s-olm-tenancy': library,
      '../util/schema-validator': schemaValidator,
      '../util/synth': synthUtil,
    },
  };
}

/** Transpiles and runs a block (or its `code`) in its context (cwd: the sandbox); the block's own declarations shadow the context's. */
function run(block: Block, context: Context, dir: string, code: string = block.code): void {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
    fileName: `${block.page}:${block.line}.ts`,
  });
  const syntax = (js.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (syntax.length > 0) throw new Error(`${block.page}:${block.line} does not compile: ${syntax.join('; ')}`);
  const load = (name: string) => {
    if (!(name in context.modules)) throw new Error(`${block.page}:${block.line} imports ${name}, which the docs context does not provide`);
    return context.modules[name];
  };
  const names = Object.keys(context.globals).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    // a block of its own ({ ... }) so that its declarations may shadow the context's names
    new Function('require', 'exports', ...names, `{\n${js.outputText}\n}`)(load, {}, ...names.map((n) => context.globals[n]));
  } finally {
    process.chdir(cwd);
  }
}

/**
 * Runs a `run` block (or a variant of its code) in a fresh context, then synthesizes every App it ran in that it did
 * not synthesize itself: the context's (when the block used one) and each App the block made. The errors, one a line.
 */
function runAndSynth(block: Block, dir: string, code: string = block.code): string[] {
  const context = makeContext(block.args.context ?? 'none', dir);
  run(block, context, dir, code);
  return context.apps.filter((a) => !context.synthesized.has(a)).flatMap((a) => synthUtil.synthErrorLines(a));
}

/**
 * The options a `run` block offers in comments: each line `// <code>` that parses as code once uncommented (e.g.
 * `// openshiftVersion: '4.21',      // on OpenShift: ...`), with the block's code where that line is uncommented.
 */
function commentedOptions(block: Block): Array<{ line: string; code: string }> {
  const lines = block.code.split('\n');
  const parses = (code: string) =>
    (ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS } }).diagnostics ?? []).length === 0;
  const out: Array<{ line: string; code: string }> = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)\/\/ ?(\S.*)$/.exec(line);
    if (!m) return;
    const code = [...lines.slice(0, i), `${m[1]}${m[2]}`, ...lines.slice(i + 1)].join('\n');
    // prose in a comment does not parse as code (`// the catalog ...`); an option does
    if (/^[A-Za-z_$][\w$.]*(\s*:\s*\S|\()/.test(m[2]) && parses(code)) out.push({ line: m[2].replace(/\s+\/\/.*$/, '').trim(), code });
  });
  return out;
}

/**
 * Options that do not work yet, by page and option: the test expects each to FAIL (so that it is removed from here
 * once it works) and names the issue that fixes it.
 */
const BROKEN_OPTIONS: Array<[string, string, string]> = [
  // (docs/version-targets.md's `// openshiftVersion: '4.21',` contradicted the block's Kubernetes 1.37 and failed here
  // until issue 40 rewrote the comment: OpenShift replaces the three targets, it is not one more)
];

/**
 * Whether the file a `checked-by=FILE` block names really checks it: the file contains every line of the block
 * (trimmed; `...` left out), or reads the block by the markers around it (it names `NAME` of `<!-- NAME:start -->`).
 * 'checked', or what is missing.
 */
function checkedBy(block: Block): string | string[] {
  const file = path.join(ROOT, block.args['checked-by']);
  if (!fs.existsSync(file)) return [`${block.args['checked-by']} does not exist`];
  const text = fs.readFileSync(file, 'utf8');
  // a test names the marker as `NAME:start` or as a string; a shell script as an argument (`block init-offline`)
  const names = (m: string) => text.includes(`${m}:start`) || text.includes(`'${m}'`) || text.includes(`"${m}"`)
    || (file.endsWith('.sh') && new RegExp(`(?<![\\w-])${m}(?![\\w-])`).test(text));
  if (block.markers.some(names)) return 'checked';
  const missing = block.code.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '...' && !text.includes(l));
  return missing.length === 0 ? 'checked' : [`${block.args['checked-by']} neither names the block's markers (${block.markers.join(', ') || 'none'}) nor contains:`, ...missing];
}

/** Output the docs show without the code that prints it (prose describes the input): the code, here. */
const SCENARIOS: { [name: string]: () => string } = {
  // docs/audit.md: grafana-operator 5.24.0 with its cluster rules opted in, plus etcd 0.9.4, in one tenant
  // (test/audit/leaky-cases.ts case3): the synth's errors, one a line
  'audit-grafana-etcd': () => {
    const { app } = case3();
    return synthUtil.synthErrorLines(app).join('\n');
  },
  // docs/upgrades.md: UpgradeAnalysis.format along the published prometheus history from 0.37.0, the installer
  // derived for 0.47.0
  'upgrade-format-prometheus': () => {
    const history = prometheusHistory();
    const installer = lib.InstallerPermissions.leastPrivilege({ bundles: history.filter((b) => b.name === 'prometheusoperator.0.47.0'), namespace: 'team-m', targetNamespaces: ['team-m'] });
    const result = lib.UpgradeAnalysis.analyze({
      graph: lib.UpgradeGraph.fromBundles(history), from: 'prometheusoperator.0.37.0', namespace: 'team-m', targetNamespaces: ['team-m'], installerRules: installer.namespacedRules,
    });
    return lib.UpgradeAnalysis.format(result, 'team-m').join('\n');
  },
  // docs/rbac.md example 1 (README.md's, checked by test/readme.test.ts, too)
  'rbac-example-1': () => coversText(rbacExample1()),
  'rbac-example-1-format': () => rbacExample1().missing.map((m) => lib.RbacRules.format(m, 'team-a')).join('\n'),
  'rbac-example-2': () => {
    const result = lib.RbacRules.covers(
      [{ apiGroups: ['*'], resources: ['*/scale'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] }, { nonResourceUrls: ['/metrics/*'], verbs: ['get'] }],
      [{ apiGroups: ['apps'], resources: ['statefulsets/scale', 'pods/*'], verbs: ['*'] }, { nonResourceUrls: ['/metrics', '/metrics/cadvisor'], verbs: ['get'] }],
    );
    return [coversText(result), ...result.missing.map((m) => lib.RbacRules.format(m, ''))].join('\n');
  },
};

function rbacExample1(): lib.CoverageResult {
  return lib.RbacRules.covers(
    [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create'] }, { apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'] }],
    [{ apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'update'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
  );
}

/** A CoverageResult as the docs print it: one missing atom a line. */
function coversText(result: lib.CoverageResult): string {
  return `{"covered":${result.covered},"missing":[\n  ${result.missing.map((m) => JSON.stringify(m)).join(',\n  ')}]}`;
}

/** An output line with `...` for text left out (and `<hash>` for a name's hash suffix), as a regular expression. */
function pattern(line: string): RegExp {
  const literal = (p: string) => p.split('<hash>').map((q) => q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[a-z0-9]+');
  return new RegExp(`^${line.trim().split('...').map(literal).join('.*')}$`);
}

describe('docs code blocks', () => {
  test('every fenced block of README.md and docs/*.md is classified by a docs-block marker', () => {
    const unclassified = ALL.filter((b) => !KINDS.includes(b.kind)).map((b) => `${b.page}:${b.line} [${b.info}] ${b.code.split('\n')[0]}`);
    expect(unclassified).toEqual([]);
    expect(ALL.length).toBeGreaterThan(30);
  });

  test('TypeScript blocks run; shell, YAML and output blocks are not classified as run', () => {
    for (const b of ALL) {
      if (b.info === 'ts') expect([b.page, b.line, ['run', 'checked-by'].includes(b.kind)]).toEqual([b.page, b.line, true]);
      if (b.kind === 'run') expect([b.page, b.line, b.info]).toEqual([b.page, b.line, 'ts']);
      if (b.info === 'sh') expect([b.page, b.line, b.kind]).toEqual([b.page, b.line, 'shell']);
      if (b.info === 'yaml') expect([b.page, b.line, b.kind]).toEqual([b.page, b.line, 'yaml']);
    }
  });

  test('checked-by: a file that neither contains a block\'s text nor names its markers does not check it', () => {
    const b = ALL.find((x) => x.kind === 'checked-by' && x.page === 'README.md' && x.markers.includes('walkthrough-test'))!;
    expect(b.args['checked-by']).toEqual('test/examples/walkthrough.test.ts');
    expect(checkedBy(b)).toEqual('checked');
    expect(checkedBy({ ...b, markers: [] })).toEqual([
      "test/examples/walkthrough.test.ts neither names the block's markers (none) nor contains:",
      '// main.test.ts: the platform of main.ts synthesizes (every check passes) with its report.',
      "test('the platform synthesizes', () => {",
      'const out = fs.mkdtempSync(path.join(os.tmpdir(), \'platform-\'));',
      'const app = synthPlatform(out, process.env.BUNDLES ?? \'bundles\');',
      'expect(app.summary?.tenants).toBe(2);',
      "expect(fs.readFileSync(path.join(out, 'TENANCY.md'), 'utf8')).toContain('## Warnings');",
    ]);
    expect(checkedBy({ ...b, args: { 'checked-by': 'test/nothing.test.ts' } })).toEqual(['test/nothing.test.ts does not exist']);
  });

  test('the options run blocks offer in comments are found (each BROKEN_OPTIONS entry among them)', () => {
    const options = ALL.filter((b) => b.kind === 'run').flatMap((b) => commentedOptions(b).map((o) => [b.page, o.line]));
    expect(options).toEqual(expect.arrayContaining(BROKEN_OPTIONS.map(([page, line]) => [page, line])));
    // prose in comments is not taken for an option
    expect(commentedOptions({ ...ALL[0], code: 'const a = {\n  // the catalog: every channel\n  // optional: the FBC\n  // stderr: every warning (report), then\n  // x: 1,     // an option\n};\n// f(a);\n' }).map((o) => o.line))
      .toEqual(['x: 1,', 'f(a);']);
  });

  test.each(PAGES)('%s: its runnable blocks run, and the output blocks are their real output', (page) => {
    const dir = sandbox();
    try {
      const mine = ALL.filter((b) => b.page === page);
      let lastErrors: string[] | undefined;
      for (const b of mine) {
        if (b.kind === 'run') {
          const errors = runAndSynth(b, dir);
          if ((b.args.synth ?? 'pass') === 'pass') {
            expect([`${page}:${b.line}`, errors]).toEqual([`${page}:${b.line}`, []]);
          } else {
            expect([`${page}:${b.line}`, errors.length > 0]).toEqual([`${page}:${b.line}`, true]);
          }
          lastErrors = errors;
          // each option the block offers in a comment works too (in a sandbox of its own)
          for (const option of commentedOptions(b)) {
            const broken = BROKEN_OPTIONS.find(([p, line]) => p === page && line === option.line);
            const optionDir = sandbox();
            try {
              let optionErrors: string[];
              try {
                optionErrors = runAndSynth(b, optionDir, option.code);
              } catch (e) {
                optionErrors = [String((e as Error).message)];
              }
              const expected = broken ? 'fails (remove it from BROKEN_OPTIONS)' : [];
              expect([`${page}:${b.line}`, option.line, broken ? (optionErrors.length > 0 ? expected : 'passes') : optionErrors])
                .toEqual([`${page}:${b.line}`, option.line, expected]);
            } finally {
              fs.rmSync(optionDir, { recursive: true, force: true });
            }
          }
        } else if (b.kind === 'output' && b.args.of?.startsWith('scenario:')) {
          const scenario = SCENARIOS[b.args.of.slice('scenario:'.length)];
          expect([`${page}:${b.line}`, b.args.of, scenario !== undefined]).toEqual([`${page}:${b.line}`, b.args.of, true]);
          const real = scenario();
          if (b.args.match === 'lines') {
            // each shown line is one real line, in order (`...`: text left out)
            const lines = real.split('\n');
            let i = 0;
            for (const line of b.code.trimEnd().split('\n')) {
              while (i < lines.length && !pattern(line).test(lines[i].trim())) i++;
              expect([`${page}:${b.line}`, line, i < lines.length || real]).toEqual([`${page}:${b.line}`, line, true]);
              i++;
            }
          } else if (b.args.match === 'wrapped') {
            // ONE real line, wrapped for reading (`...`: text left out)
            const shown = pattern(b.code.trim().split('\n').join(' '));
            expect([`${page}:${b.line}`, real.split('\n').some((l) => shown.test(l)) || real]).toEqual([`${page}:${b.line}`, true]);
          } else {
            expect([`${page}:${b.line}`, b.code.trimEnd()]).toEqual([`${page}:${b.line}`, real]);
          }
        } else if (b.kind === 'output') {
          expect([`${page}:${b.line}`, b.args.of]).toEqual([`${page}:${b.line}`, 'previous']);
          if (lastErrors === undefined) throw new Error(`${page}:${b.line}: an output block without a run block with synth=fail before it`);
          const shown = b.code.trimEnd().split('\n');
          // each shown line is one real error line, in order
          let i = 0;
          for (const line of shown) {
            while (i < lastErrors.length && !pattern(line).test(lastErrors[i])) i++;
            // (on a mismatch the real errors are shown)
            expect([`${page}:${b.line}`, line, i < lastErrors.length || lastErrors]).toEqual([`${page}:${b.line}`, line, true]);
            i++;
          }
        } else if (b.kind === 'yaml') {
          const docs = YAML.parseAllDocuments(b.code) as YAML.Document[];
          expect([`${page}:${b.line}`, docs.length, docs.flatMap((d: any) => d.errors.map((x: any) => x.message))]).toEqual([`${page}:${b.line}`, 1, []]);
        } else if (b.kind === 'checked-by') {
          expect([`${page}:${b.line}`, checkedBy(b)]).toEqual([`${page}:${b.line}`, 'checked']);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
