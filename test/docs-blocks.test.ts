/**
 * Docs checked by tests (issue 29): every fenced code block of README.md and docs/*.md, found with the CommonMark
 * parser (commonmark, as GitHub renders the docs), is classified by an HTML comment right before it,
 * `<!-- docs-block: KIND ... -->`, and checked accordingly:
 * - `run context=NAME [synth=pass|fail]`: TypeScript, transpiled and run in the context NAME (below: the
 *   variables the block uses without defining them, the files its paths name); then, unless the block synthesizes
 *   itself, its App is synthesized: `pass` (the default) means no error, `fail` that the next block shows its errors;
 * - `output of=previous`: the errors the previous `run ... synth=fail` block really produces; each line of the block
 *   is one error line, `...` standing for text left out;
 * - `output of=scenario:NAME [match=lines|wrapped]`: the real output of the code SCENARIOS[NAME] runs (the prose
 *   around the block describes its input): equal, or each line one real line in order, or one real line wrapped;
 * - `yaml`: parsed (it must be one YAML document);
 * - `shell`, `text`: not runnable (shell commands; a listing, a diagram, abbreviated output), named as such;
 * - `checked-by=FILE`: generated or checked by that test (which must name the block's marker or heading).
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
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const KINDS = ['run', 'output', 'yaml', 'shell', 'text', 'checked-by'];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
  readonly kind: string;
  readonly args: { [key: string]: string };
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
    out.push({ page, line: n.sourcepos[0][0], info: n.info ?? '', code: n.literal ?? '', kind, args });
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
  /** The App to synthesize after the block (unless the block defines its own). */
  readonly app: cdk8s.App;
}

function makeContext(name: string, dir: string): Context {
  // Apps write into the sandbox and report errors one per line (the form the output blocks show)
  class App extends cdk8s.App {
    constructor(props: cdk8s.AppProps = {}) {
      super({ outdir: path.join(dir, 'dist'), ...props });
    }
  }
  class TenancyApp extends lib.TenancyApp {
    constructor(props: lib.TenancyAppProps = {}) {
      super({ outdir: path.join(dir, 'dist'), quiet: true, errorFormat: lib.SynthErrorFormat.ONE_LINE, ...props });
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
  return {
    app,
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

/** Transpiles and runs a block in its context (cwd: the sandbox); the block's own declarations shadow the context's. */
function run(block: Block, context: Context, dir: string): void {
  const js = ts.transpileModule(block.code, {
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

  test.each(PAGES)('%s: its runnable blocks run, and the output blocks are their real output', (page) => {
    const dir = sandbox();
    try {
      const mine = ALL.filter((b) => b.page === page);
      let lastErrors: string[] | undefined;
      for (const b of mine) {
        if (b.kind === 'run') {
          const context = makeContext(b.args.context ?? 'none', dir);
          run(b, context, dir);
          const ownApp = /\bnew (Tenancy)?App\(/.test(b.code);
          if (ownApp) {
            lastErrors = undefined; // it synthesized (and passed) itself
            continue;
          }
          const errors = synthUtil.synthErrorLines(context.app);
          if ((b.args.synth ?? 'pass') === 'pass') {
            expect([`${page}:${b.line}`, errors]).toEqual([`${page}:${b.line}`, []]);
          } else {
            expect([`${page}:${b.line}`, errors.length > 0]).toEqual([`${page}:${b.line}`, true]);
          }
          lastErrors = errors;
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
          const file = path.join(ROOT, b.args['checked-by']);
          expect([`${page}:${b.line}`, fs.existsSync(file)]).toEqual([`${page}:${b.line}`, true]);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
