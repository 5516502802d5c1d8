/**
 * Whole-process benchmark (issue #17), run by bench/run.ts through `npm run bench`; writes BENCHMARKS.md.
 * Timings live here, never in tests.
 *
 * What users run: `node app.js` (as `cdk8s synth` does) on the COMPILED library, from process start to exit, with
 * no warm-up. bench/apps/tenancy-app.js builds N tenants x 2 subscriptions (etcd 0.9.4 and prometheus 0.56.3
 * bundles read from disk, `deriveInstallerRules`) in a `TenancyApp`, a chart per tenant, warnings printed as by
 * default; bench/apps/raw-app.js writes the same 8 objects per tenant as raw cdk8s `ApiObject`s in ONE chart.
 * Both in the same run, alternating, on a tmpfs (/dev/shm) and on disk.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { summarizeProfile } from './profile';

const ROOT = path.join(__dirname, '..');
const WORK = path.join(ROOT, '.bench'); // gitignored
/** BENCH_LIB: measure another compiled copy of the library (e.g. an earlier commit's, for before/after numbers). */
const LIB = process.env.BENCH_LIB ? path.resolve(process.env.BENCH_LIB) : path.join(WORK, 'lib');
const BUNDLES = path.join(ROOT, 'test', 'fixtures', 'bundles');
const APPS = path.join(__dirname, 'apps');
const SIZES = [100, 1000, 5000];
/** Runs per case, alternating with the other cases; the fastest counts, peak RSS is the largest. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** Issue #17's goals. */
/** Goals of issues #17 and #38 (the 5,000-tenant ratios: `RATIO_GOAL`). */
const GOAL = { loadS: 0.25, oneTenantS: 0.6, cliS: 0.6, flatness: 0.2 };

/** What a child app reports about itself (bench/apps/*.js, last line of stdout). */
interface AppReport {
  readonly loadMs: number;
  /** Reading the two bundle directories (library app only; included in buildMs). */
  readonly readMs?: number;
  readonly buildMs: number;
  readonly synthMs: number;
  readonly objects: number;
  readonly userMs: number;
  readonly systemMs: number;
  readonly maxRssMb: number;
}

interface Run extends AppReport {
  /** Wall clock of the whole process, spawn to exit, as the parent sees it. */
  readonly wallMs: number;
  readonly files: number;
  /** Of several runs: the smallest peak RSS (`maxRssMb` is the largest). */
  readonly minRssMb?: number;
  /** Of several runs: the median wall time and peak RSS (the ratio goals compare medians). */
  readonly medianWallMs?: number;
  readonly medianRssMb?: number;
}

/** Compiles the library to .bench/lib (`tsc -p tsconfig.json`, as the package build does), untracked. */
function buildLibrary(): void {
  if (!process.env.BENCH_LIB && (process.env.BENCH_NO_BUILD !== '1' || !fs.existsSync(LIB))) { // BENCH_NO_BUILD=1: iterating on the benchmark itself
    fs.rmSync(LIB, { recursive: true, force: true });
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.json'), '--outDir', LIB], { cwd: ROOT, stdio: 'inherit' });
  }
  // the CLI as installed: bin/ next to lib/
  fs.mkdirSync(path.join(WORK, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'bin', 'cdk8s-olm-tenancy'), path.join(WORK, 'bin', 'cdk8s-olm-tenancy'));
  if (LIB !== path.join(WORK, 'lib')) fs.writeFileSync(path.join(WORK, 'bin', 'cdk8s-olm-tenancy'), fs.readFileSync(path.join(ROOT, 'bin', 'cdk8s-olm-tenancy'), 'utf-8').replace('../lib/', `${LIB}/`));
}

/**
 * A compiled copy of the library at git revision `rev` (for paired before/after runs): its `src/` and `tsconfig.json`
 * extracted to .bench/base-<commit>/ and compiled there (node_modules resolved from the repository). Reused when present.
 */
export function compiledRevision(rev: string): string {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT, encoding: 'utf-8' }).trim();
  const dir = path.join(WORK, `base-${commit.slice(0, 12)}`);
  const lib = path.join(dir, 'lib');
  if (fs.existsSync(path.join(lib, 'index.js'))) return lib;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src', 'tsconfig.json'], { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json'), '--outDir', lib], { cwd: dir, stdio: 'inherit' });
  return lib;
}

/** The raw side's input: one tenant's objects as the library synthesizes them (team-0), untimed. */
function writeTemplate(file: string, lib: string = LIB): void {
  const script = `
    const cdk8s = require('cdk8s'); const lib = require(${JSON.stringify(lib)}); const path = require('path');
    const etcd = lib.OperatorBundle.fromDirectory(path.join(${JSON.stringify(BUNDLES)}, 'etcd', '0.9.4'));
    const prometheus = lib.OperatorBundle.fromDirectory(path.join(${JSON.stringify(BUNDLES)}, 'prometheus', '0.56.3'));
    const catalog = lib.CatalogSourceReference.fromName('curated-operators', 'olm');
    const app = new lib.TenancyApp({ outdir: ${JSON.stringify(path.dirname(file))}, quiet: true });
    const t = new lib.ScopedOperatorTenant(new cdk8s.Chart(app, 'tenant'), 'Tenant', { namespaceName: 'team-0', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
    t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
    require('fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify(app.synthObjects()[0].objects));`;
  execFileSync(process.execPath, ['-e', script], { cwd: WORK });
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1;
  return n;
}

/** One whole process; its output directory is removed afterwards. */
function runApp(args: string[], outdir: string): Run {
  fs.rmSync(outdir, { recursive: true, force: true });
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [...args, outdir], { cwd: WORK, encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const report: AppReport = JSON.parse(r.stdout.trim().split('\n').pop()!);
  const files = countFiles(outdir);
  fs.rmSync(outdir, { recursive: true, force: true });
  return { ...report, wallMs, files };
}

/** Tenants built and synthesized, untimed, before the measured ones in the warmed steady state. */
const WARM_UP = 2000;

/** bench/apps/steady-app.js for `tenants` after the warm-up: the measured build + synth time, ms. */
function runSteady(tenants: number, outdir: string): number {
  fs.rmSync(outdir, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [path.join(APPS, 'steady-app.js'), LIB, BUNDLES, `${WARM_UP}`, `${tenants}`, outdir], { cwd: WORK, encoding: 'utf-8' });
  fs.rmSync(outdir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`steady-app.js ${tenants} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!).ms;
}

/** A short command, timed from spawn to exit (cold start, CLI). */
function timeCommand(args: string[], expect?: RegExp): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: WORK, encoding: 'utf-8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if ((r.status !== 0 && r.status !== 1) || (expect && !expect.test(r.stdout))) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

type Mode = 'gitops' | 'file' | 'raw';
const MODES: Mode[] = ['raw', 'gitops', 'file'];
const MODE_NAME: Record<Mode, string> = {
  gitops: 'library, GitOps layout (`OutputLayout.GITOPS`)',
  file: 'library, a file per tenant (default layout)',
  raw: 'raw cdk8s, one chart',
};

function appArgs(mode: Mode, tenants: number, template: string, lib: string = LIB): string[] {
  return mode === 'raw'
    ? [path.join(APPS, 'raw-app.js'), template, `${tenants}`]
    : [path.join(APPS, 'tenancy-app.js'), lib, BUNDLES, `${tenants}`, mode];
}

const best = (runs: Run[]): Run => ({
  ...runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a)),
  maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
  minRssMb: Math.min(...runs.map((r) => r.maxRssMb)),
  medianWallMs: median(runs.map((r) => r.wallMs)),
  medianRssMb: median(runs.map((r) => r.maxRssMb)),
});
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The commit the run measures (HEAD of the repository) and whether the tree differs from it: BENCHMARKS.md records it
 * and README.md cites it (scripts/generated-docs.ts).
 */
export function measuredCommit(root: string = ROOT): { commit: string; dirty: boolean } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf-8' }).trim();
  return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') !== '' };
}

/** Runs every case, writes BENCHMARKS.md, returns the report lines. */
export function benchScale(sizes: number[] = SIZES, micro: string[] = []): string[] {
  // before anything is built: the commit whose code is measured
  const measured = measuredCommit();
  buildLibrary();
  const template = path.join(WORK, 'raw-template.json');
  writeTemplate(template);
  const tmpfs = (() => {
    try {
      fs.accessSync('/dev/shm', fs.constants.W_OK);
      return '/dev/shm';
    } catch {
      return undefined;
    }
  })();
  const disk = path.join(WORK, 'out'); // the repository's file system
  const places: Array<{ name: string; dir: string }> = [
    ...(tmpfs ? [{ name: 'tmpfs', dir: fs.mkdtempSync(path.join(tmpfs, 'bench-')) }] : []),
    { name: 'disk', dir: disk },
  ];
  fs.mkdirSync(disk, { recursive: true });

  // 1. cold start: process start to exit (min and median of 7, alternating)
  const loadCases: Array<[string, string]> = [
    ['`node -e ""`', ''],
    ['`require(\'cdk8s\')` + `require(\'cdk8s-plus-28\')`', 'require("cdk8s");require("cdk8s-plus-28")'],
    ['the same + `require(\'cdk8s-olm-tenancy\')`', `require("cdk8s");require("cdk8s-plus-28");require(${JSON.stringify(LIB)})`],
  ];
  const loadTimes = loadCases.map(() => [] as number[]);
  for (let i = 0; i < 7; i++) loadCases.forEach(([, code], j) => loadTimes[j].push(timeCommand(['-e', code])));
  const cli = (bundle: string) => [path.join(WORK, 'bin', 'cdk8s-olm-tenancy'), 'preflight', path.join(BUNDLES, bundle), '--namespace', 'team-a'];
  const cliCases = ['etcd/0.9.4', 'prometheus/0.56.3'];
  const cliTimes = cliCases.map(() => [] as number[]);
  const oneTenant: Run[] = [];
  for (let i = 0; i < 5; i++) {
    cliCases.forEach((b, j) => cliTimes[j].push(timeCommand(cli(b), /^# Preflight of 1 bundle/)));
    oneTenant.push(runApp(appArgs('gitops', 1, template), path.join(places[0].dir, 'one')));
  }
  const addedLoad = median(loadTimes[2]) - median(loadTimes[1]);

  // 2. scale: every size, every mode, on tmpfs and on disk, REPEATS times alternating
  const results = new Map<string, Run>();
  const key = (place: string, mode: Mode, n: number) => `${place}/${mode}/${n}`;
  for (const place of places) {
    for (const n of sizes) {
      const runs = new Map<Mode, Run[]>(MODES.map((m) => [m, []]));
      for (let i = 0; i < REPEATS; i++) {
        for (const m of MODES) runs.get(m)!.push(runApp(appArgs(m, n, template), path.join(place.dir, `${m}-${n}`)));
      }
      for (const m of MODES) results.set(key(place.name, m, n), best(runs.get(m)!));
      console.error(`bench: ${place.name} ${n} tenants done`);
    }
  }
  // 2b. the warmed steady state (labelled as such): per size, a process that first builds and synthesizes WARM_UP
  // tenants untimed, then times N tenants (bench/apps/steady-app.js, GitOps layout, first place); fastest of REPEATS
  const steady = new Map<number, number>();
  for (const n of sizes) {
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) times.push(runSteady(n, path.join(places[0].dir, `steady-${n}`)));
    steady.set(n, Math.min(...times));
  }
  console.error('bench: warmed steady state done');
  // 2c. linear to 20,000 tenants (BENCH_LINEAR_SIZES=none skips it, e.g. "1000,2000,4000" for a quick look)
  const linearSizes = process.env.BENCH_LINEAR_SIZES === 'none' ? [] : process.env.BENCH_LINEAR_SIZES?.split(',').map(Number) ?? LINEAR_SIZES;
  const linear = linearSizes.length > 0 ? benchLinear(linearSizes) : undefined;

  // 3. where the time and the memory go in the headline case (not timed runs: profiling slows a process down)
  const largestN = sizes[sizes.length - 1];
  const profDir = fs.mkdtempSync(path.join(WORK, 'profile-'));
  const profOut = path.join(places[0].dir, 'profiled');
  execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, ...appArgs('gitops', largestN, template), profOut], { cwd: WORK, stdio: 'ignore', maxBuffer: 64 * 1024 * 1024 });
  const profile = summarizeProfile(path.join(profDir, fs.readdirSync(profDir)[0]), LIB);
  fs.rmSync(profDir, { recursive: true, force: true });
  fs.rmSync(profOut, { recursive: true, force: true });
  const probe = JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(APPS, 'heap-probe.js'), LIB, BUNDLES, `${largestN}`, profOut], { cwd: WORK, encoding: 'utf-8' }).trim().split('\n').pop()!);
  fs.rmSync(profOut, { recursive: true, force: true });

  if (tmpfs) fs.rmSync(places[0].dir, { recursive: true, force: true });
  fs.rmSync(disk, { recursive: true, force: true });

  const fmt = (n: number) => n.toLocaleString('en-US');
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const met = (ok: boolean) => (ok ? 'met' : '**NOT met**');
  const head = places[0].name;
  const largest = sizes[sizes.length - 1];

  const scaleTable = (place: string): string[] => [
    '| tenants | layout | files | whole process (wall) | CPU user + system | ratio to raw (wall) | ratio to raw (CPU) | peak RSS | load / read bundles / build / synth | per tenant (build + synth) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...sizes.flatMap((n) => MODES.map((m) => {
      const r = results.get(key(place, m, n))!;
      const raw = results.get(key(place, 'raw', n))!;
      return `| ${fmt(n)} | ${MODE_NAME[m]} | ${fmt(r.files)} | ${s(r.wallMs)} | ${s(r.userMs)} + ${s(r.systemMs)} | `
        + `${(r.wallMs / raw.wallMs).toFixed(2)}x | ${((r.userMs + r.systemMs) / (raw.userMs + raw.systemMs)).toFixed(2)}x | ${r.maxRssMb.toFixed(0)} MB | `
        + `${s(r.loadMs)} / ${s(r.readMs ?? 0)} / ${s(r.buildMs - (r.readMs ?? 0))} / ${s(r.synthMs)} | ${tenantMs(r, n).toFixed(2)} ms |`;
    })),
  ];
  const diskTable = [
    '| tenants | layout | files | synth (writing included) | files written per second of synth | kernel (system) CPU, whole process |',
    '|---:|---|---:|---:|---:|---:|',
    ...sizes.flatMap((n) => MODES.map((m) => {
      const r = results.get(key('disk', m, n))!;
      return `| ${fmt(n)} | ${MODE_NAME[m]} | ${fmt(r.files)} | ${s(r.synthMs)} | ${fmt(Math.round(r.files / (r.synthMs / 1000)))} | ${s(r.systemMs)} |`;
    })),
  ];

  // per tenant: the process's own time for the tenants (building and synthesizing; not loading the modules and
  // reading the bundles, which are paid once), cold code included, divided by the number of tenants
  const one = best(oneTenant);
  const tenantMs = (r: Run, n: number) => (r.buildMs - (r.readMs ?? 0) + r.synthMs) / n;
  const perTenant = sizes.map((n) => tenantMs(results.get(key(head, 'gitops', n))!, n));
  // ... and the marginal time per tenant from one size to the next (what scaling up costs; the cold code's warm-up,
  // paid once per process, drops out)
  const tenantTotal = (n: number) => tenantMs(results.get(key(head, 'gitops', n))!, n) * n;
  const marginal = sizes.slice(1).map((n, k) => (tenantTotal(n) - tenantTotal(sizes[k])) / (n - sizes[k]));
  const flatness = Math.max(...marginal) / Math.min(...marginal) - 1;
  // the same in the warmed steady state, and raw cdk8s's cold per-tenant time (V8's warm-up is not the library's)
  const steadyMarginal = sizes.slice(1).map((n, k) => (steady.get(n)! - steady.get(sizes[k])!) / (n - sizes[k]));
  const steadyFlatness = Math.max(...steadyMarginal) / Math.min(...steadyMarginal) - 1;
  const rawPerTenant = sizes.map((n) => tenantMs(results.get(key(head, 'raw', n))!, n));
  const g = results.get(key(head, 'gitops', largest))!;
  const graw = results.get(key(head, 'raw', largest))!;
  const ratio = g.medianWallMs! / graw.medianWallMs!;
  const rssRatio = g.medianRssMb! / graw.medianRssMb!;
  const cliMedian = cliTimes.map(median);
  const goals = [
    `- ${fmt(largest)} tenants, GitOps layout, every check on, ${head}: whole process at most ${RATIO_GOAL.wall.toFixed(2)}x raw cdk8s one-chart time `
      + `(medians of ${REPEATS} alternating runs): ${ratio.toFixed(2)}x (${s(g.medianWallMs!)} vs ${s(graw.medianWallMs!)}), ${met(ratio <= RATIO_GOAL.wall)}`,
    `- ... and peak RSS at most ${RATIO_GOAL.rss.toFixed(2)}x raw cdk8s's (medians): ${rssRatio.toFixed(2)}x (${g.medianRssMb!.toFixed(0)} MB vs `
      + `${graw.medianRssMb!.toFixed(0)} MB; library ${g.minRssMb!.toFixed(0)}-${g.maxRssMb.toFixed(0)} MB, raw cdk8s ${graw.minRssMb!.toFixed(0)}-${graw.maxRssMb.toFixed(0)} MB), `
      + `${met(rssRatio <= RATIO_GOAL.rss)}`,
    `- loading the library adds at most ${GOAL.loadS} s over cdk8s + cdk8s-plus-28: ${s(addedLoad)} (medians), ${met(addedLoad <= GOAL.loadS * 1000)}`,
    `- one tenant end to end (GitOps layout, both bundles read) under ${GOAL.oneTenantS} s: ${s(one.wallMs)} (fastest of 5; median ${s(median(oneTenant.map((r) => r.wallMs)))}), ${met(one.wallMs <= GOAL.oneTenantS * 1000)}`,
    ...cliCases.map((b, j) => `- \`cdk8s-olm-tenancy preflight ${b}\` under ${GOAL.cliS} s: ${s(Math.min(...cliTimes[j]))} (fastest of 5; median ${s(cliMedian[j])}), ${met(Math.min(...cliTimes[j]) <= GOAL.cliS * 1000)}`),
    `- time per tenant flat from ${fmt(sizes[0])} to ${fmt(largest)} (within ${GOAL.flatness * 100} %), GitOps, ${head}, marginal time per tenant (build + synth, `
      + `from one size to the next: ${sizes.slice(1).map((n, k) => `${fmt(sizes[k])} -> ${fmt(n)}`).join(', ')}): **warmed steady state** (${fmt(WARM_UP)} tenants `
      + `built and synthesized first in the same process, labelled as such): ${steadyMarginal.map((x) => `${x.toFixed(2)} ms`).join(', ')}, max/min `
      + `${(steadyFlatness * 100).toFixed(0)} %, ${met(steadyFlatness <= GOAL.flatness)}; cold processes (no warm-up): ${marginal.map((x) => `${x.toFixed(2)} ms`).join(', ')}, `
      + `max/min ${(flatness * 100).toFixed(0)} %, ${met(flatness <= GOAL.flatness)} (build + synth time over N: `
      + `${perTenant.map((x, k) => `${x.toFixed(2)} ms at ${fmt(sizes[k])}`).join(', ')}; raw cdk8s, cold: ${rawPerTenant.map((x) => `${x.toFixed(2)} ms`).join(', ')})`,
    ...(linear ? [linear.goal] : []),
  ];

  const cpu = os.cpus();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, `
    + `${os.platform()} ${os.arch()}; load average (1 min) ${os.loadavg()[0].toFixed(1)} when the run ended (other work shares these cores)`;
  const loadTable = [
    '| process | median | fastest |',
    '|---|---:|---:|',
    ...loadCases.map(([name], j) => `| ${name} | ${s(median(loadTimes[j]))} | ${s(Math.min(...loadTimes[j]))} |`),
    ...cliCases.map((b, j) => `| \`cdk8s-olm-tenancy preflight ${b} --namespace team-a\` | ${s(cliMedian[j])} | ${s(Math.min(...cliTimes[j]))} |`),
    `| one tenant end to end (bench/apps/tenancy-app.js, GitOps, ${head}) | ${s(median(oneTenant.map((r) => r.wallMs)))} | ${s(one.wallMs)} |`,
  ];

  const md = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\` (bench/scale.ts) on commit \`${measured.commit}\`${measured.dirty ? ' with uncommitted changes' : ''}; do not edit by hand.`,
    '',
    '## Method: whole processes, as users run them (issue #17)',
    '',
    '- The library compiled by `tsc -p tsconfig.json` (to the untracked `.bench/lib`), run by plain `node`, as `cdk8s synth`',
    '  runs a compiled app. Each measurement is one whole process, timed from spawn to exit: loading the modules, reading',
    '  the bundle directories, building the constructs, validating and writing. No warm-up: every process starts cold.',
    '- The app (bench/apps/tenancy-app.js): N tenants, a chart each, each a `ScopedOperatorTenant` with',
    '  `deriveInstallerRules` and two Subscriptions carrying the etcd 0.9.4 and prometheus 0.56.3 bundles (test/fixtures,',
    '  read with `OperatorBundle.fromDirectory` in the process), in a `TenancyApp`, warnings and the summary printed to',
    '  stderr as by default (not `quiet`). Layouts: `OutputLayout.GITOPS` (the headline: a folder per tenant, 9 files',
    '  each, plus the kustomizations) and the default file per tenant.',
    '- The floor (bench/apps/raw-app.js): raw cdk8s `ApiObject`s with the same 8 objects per tenant (one tenant synthesized',
    '  by the library beforehand, renamed per tenant) in ONE chart, `App.synth()` to one file.',
    `- ${REPEATS} runs per case, alternating raw, GitOps and file per tenant in one sitting; in the tables the fastest run counts (load`,
    '  from other work only ever slows a run down) and peak RSS (`process.resourceUsage().maxRSS` at exit, the whole process)',
    '  is the largest of the runs; the 5,000-tenant ratio goals compare the medians of the runs (wall and peak RSS). Written to',
    '  a tmpfs (/dev/shm) and to the repository\'s disk (ext4 on the VM\'s block device).',
    '- `npm run bench -- --ratio` runs only the paired 5,000-tenant check (library vs raw cdk8s, alternating rounds,',
    '  medians and ratios; `--base <git revision>` adds an earlier library to the same rounds), quick enough for every change.',
    '- The columns "load / read bundles / build / synth" are the app\'s own clock: process start to after `require`,',
    '  reading the two bundle directories (library only), building the constructs, `app.synth()` (validation and writing).',
    '  CPU is user + system time of the whole process (V8\'s parallel GC threads included).',
    '- Warmed steady state (only for per-tenant flatness, labelled as such): bench/apps/steady-app.js builds and synthesizes',
    `  ${fmt(WARM_UP)} tenants untimed, then times N tenants (build + synth, GitOps layout) in the same process; fastest of ${REPEATS}.`,
    '',
    '## Goals',
    '',
    ...goals,
    '',
    `Peak RSS (${g.maxRssMb.toFixed(0)} MB, the largest of ${REPEATS} runs; raw cdk8s ${graw.maxRssMb.toFixed(0)} MB) is V8's heap sizing more than what is live: `
      + `the live heap is ${probe.built} MB once the ${fmt(largestN)} tenants are built and ${probe.writing} MB when the writing starts (after validation), and `
      + `the same process with forced full collections peaks at ${probe.maxRssMb} MB. V8 collects the old generation when it reaches a multiple of what was live at `
      + 'its last full collection (during the build here), so what a synthesis promotes or allocates there stays until exit; see "Where the memory goes" and '
      + 'docs/scale.md (Memory) for what was cut. Peak RSS moves by about 10 MB between runs of the same case, for both sides.',
    '',
    'Per-tenant flatness on cold processes: the first tenants run in V8\'s unoptimized tiers, so build + synth time over N falls as N grows, for raw cdk8s too '
      + `(library ${perTenant.map((x) => `${x.toFixed(2)} ms`).join(', ')}; raw ${rawPerTenant.map((x) => `${x.toFixed(2)} ms`).join(', ')} at `
      + `${sizes.map(fmt).join(', ')}); the marginal time between sizes moves with the load of the machine. The warmed steady state removes the warm-up: `
      + 'what adding tenants costs once the code is optimized. Nothing grows faster than linearly.',
    '',
    `## At scale, ${head}`,
    '',
    ...scaleTable(head),
    '',
    ...(places.length > 1 ? ['## At scale, on disk', '', ...scaleTable('disk'), '', 'Files written per second and kernel time on disk (every file is written once, by one',
      '`writeFileSync`, into a staging folder inside the output directory whose four top entries then replace the old layout by',
      'rename: no copies, no rewrites, and a failed synth leaves the previous layout whole; the GitOps layout writes 9 files per',
      'tenant where raw cdk8s writes one file in all, so its kernel time is per file, not per byte):', '', ...diskTable, ''] : []),
    ...(linear ? [`## Linear to ${fmt(linearSizes[linearSizes.length - 1])} tenants, ${head}`, '',
      `Whole processes of the GitOps app (every check on, warnings printed) at ${linearSizes.map(fmt).join(', ')} tenants, ${REPEATS} rounds alternating `
        + 'the sizes and raw cdk8s: the fastest run\'s build + synth time over N and the marginal time per tenant from the size before; peak RSS '
        + '(median of the runs) and its growth per tenant; the live heap once the tenants are built (bench/apps/heap-probe.js, forced full '
        + 'collections) and its growth per tenant. `npm run bench -- --linear` runs this section alone.', '',
      ...linear.table, '', ...linear.notes.flatMap((note) => [note, ''])] : []),
    `## Where the time goes: ${fmt(largestN)} tenants, GitOps layout (one \`node --cpu-prof\` run, ${head})`,
    '',
    ...profile,
    '',
    `## Where the memory goes: ${fmt(largestN)} tenants, GitOps layout`,
    '',
    'Live heap (`heapUsed` after a forced full collection, bench/apps/heap-probe.js) after loading the modules: '
      + `${probe.loaded} MB; after reading the bundles: ${probe.bundles} MB; after building ${fmt(largestN)} tenants: ${probe.built} MB; after \`synth()\`: `
      + `${probe.synthesized} MB; when the writing starts (validation done; the layout is written chart by chart, each object's JSON made when its `
      + `folder is written): ${probe.writing} MB. Peak RSS of that process: ${probe.maxRssMb} MB. Peak RSS adds V8's headroom over the live heap (new space, `
      + 'old-generation growth between full collections: cdk8s\'s `toJson()` alone leaves about 1 KB of hidden classes per object there on Node 20), code, '
      + 'and the modules\' source text.',
    '',
    ...microSection(micro),
    '## Cold start and short commands',
    '',
    '7 runs each (the CLI and one tenant: 5), alternating; whole process, spawn to exit.',
    '',
    ...loadTable,
    '',
    `Machine: ${machine}.`,
    '',
  ];
  fs.writeFileSync(process.env.BENCH_REPORT ?? path.join(ROOT, 'BENCHMARKS.md'), md.join('\n'));
  return [...goals, `machine: ${machine}`, 'written to BENCHMARKS.md'];
}


/** The place whole processes write to: a tmpfs when there is one (as the headline numbers), else the repository's disk. */
function scratchDir(): string {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return fs.mkdtempSync(path.join('/dev/shm', 'bench-'));
  } catch {
    fs.mkdirSync(WORK, { recursive: true });
    return fs.mkdtempSync(path.join(WORK, 'out-'));
  }
}

/** What `npm run bench -- --ratio` measures. */
export interface RatioOptions {
  /** Tenants per process (the headline: 5,000). */
  readonly tenants: number;
  /** Alternating rounds; medians count. */
  readonly rounds: number;
  /** A git revision or a compiled library folder to pair with the working tree's library (before/after). */
  readonly base?: string;
}

/** The headline goals of the ratio check: whole-process wall time and peak RSS of the library over raw cdk8s. */
export const RATIO_GOAL = { wall: 1.0, rss: 1.05 };

/**
 * The quick whole-process check a change is measured against (`npm run bench -- --ratio`): the library app (GitOps
 * layout, every check on, warnings printed) against raw cdk8s writing the same objects in one chart, at `tenants`,
 * alternating (the order reversed every other round), on a tmpfs; optionally a base library (an earlier revision) in
 * the same rounds. Prints each run, then medians (wall, CPU user + system, peak RSS) and the ratios of the medians.
 */
export function benchRatio(o: RatioOptions): { lines: string[]; wallRatio: number; rssRatio: number } {
  buildLibrary();
  const base = o.base === undefined ? undefined
    : fs.existsSync(path.join(o.base, 'index.js')) ? path.resolve(o.base) : compiledRevision(o.base);
  const template = path.join(WORK, 'raw-template.json');
  writeTemplate(template);
  const dir = scratchDir();
  const sides: Array<{ name: string; args: string[]; runs: Run[] }> = [
    { name: 'raw cdk8s, one chart', args: appArgs('raw', o.tenants, template), runs: [] },
    ...(base ? [{ name: `base library (${o.base})`, args: appArgs('gitops', o.tenants, template, base), runs: [] }] : []),
    { name: 'library, GitOps layout', args: appArgs('gitops', o.tenants, template), runs: [] },
  ];
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cpu = (r: Run) => r.userMs + r.systemMs;
  try {
    for (let round = 0; round < o.rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const r = runApp(side.args, path.join(dir, 'out'));
        side.runs.push(r);
        console.error(`round ${round + 1}/${o.rounds} ${side.name}: wall ${s(r.wallMs)}, CPU ${s(cpu(r))} (${s(r.userMs)} + ${s(r.systemMs)}), `
          + `peak RSS ${r.maxRssMb.toFixed(0)} MB, ${r.files.toLocaleString('en-US')} files`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = (side: typeof sides[number], f: (r: Run) => number) => median(side.runs.map(f));
  const raw = sides[0];
  const lib = sides[sides.length - 1];
  const ratioLine = (a: typeof sides[number], b: typeof sides[number]) => {
    const perRound = a.runs.map((r, i) => r.wallMs / b.runs[i].wallMs);
    return `${a.name} / ${b.name}: wall ${(med(a, (r) => r.wallMs) / med(b, (r) => r.wallMs)).toFixed(2)}x, `
      + `CPU ${(med(a, cpu) / med(b, cpu)).toFixed(2)}x, peak RSS ${(med(a, (r) => r.maxRssMb) / med(b, (r) => r.maxRssMb)).toFixed(2)}x `
      + `(ratios of the medians; wall per round: ${perRound.map((x) => `${x.toFixed(2)}x`).join(', ')})`;
  };
  const wallRatio = med(lib, (r) => r.wallMs) / med(raw, (r) => r.wallMs);
  const rssRatio = med(lib, (r) => r.maxRssMb) / med(raw, (r) => r.maxRssMb);
  const lines = [
    `${o.tenants.toLocaleString('en-US')} tenants, ${o.rounds} alternating rounds, ${dir.startsWith('/dev/shm') ? 'tmpfs' : 'disk'}; medians:`,
    ...sides.map((side) => `${side.name}: wall ${s(med(side, (r) => r.wallMs))}, CPU ${s(med(side, cpu))}, peak RSS ${med(side, (r) => r.maxRssMb).toFixed(0)} MB`),
    ratioLine(lib, raw),
    ...(base ? [ratioLine(sides[1], raw), ratioLine(lib, sides[1])] : []),
    `goal: wall at most ${RATIO_GOAL.wall.toFixed(2)}x raw cdk8s: ${wallRatio.toFixed(2)}x, ${wallRatio <= RATIO_GOAL.wall ? 'met' : 'NOT met'}; `
      + `peak RSS at most ${RATIO_GOAL.rss.toFixed(2)}x: ${rssRatio.toFixed(2)}x, ${rssRatio <= RATIO_GOAL.rss ? 'met' : 'NOT met'}`,
    `load average (1 min) ${os.loadavg()[0].toFixed(1)} when the rounds ended (other work shares these cores: compare ratios from the same sitting)`,
  ];
  return { lines, wallRatio, rssRatio };
}

/** Sizes of the linearity check (`--linear`, and the full benchmark's "Linear to 20,000 tenants" section). */
export const LINEAR_SIZES = [5000, 10000, 20000];

/**
 * Per-tenant time and memory at each size (GitOps layout, tmpfs, whole processes, `REPEATS` rounds alternating the
 * sizes and raw cdk8s; fastest wall counts, peak RSS the median): build + synth time over N and the marginal time per
 * tenant from one size to the next, peak RSS and its marginal growth per tenant, and the live heap once the tenants
 * are built (bench/apps/heap-probe.js, forced full collections) and its growth per tenant. Linear: the marginal
 * time and memory per tenant stay within `GOAL.flatness` of each other.
 */
export function benchLinear(sizes: number[] = LINEAR_SIZES): { lines: string[]; table: string[]; goal: string; notes: string[] } {
  const template = path.join(WORK, 'raw-template.json');
  writeTemplate(template);
  const dir = scratchDir();
  const lib = new Map<number, Run[]>(sizes.map((n) => [n, []]));
  const raw = new Map<number, Run[]>(sizes.map((n) => [n, []]));
  // sizes raw cdk8s cannot synthesize in one chart, with its error's first line (cdk8s's Yaml.save spreads every
  // document of a chart into one call: at 20,000 tenants, 160,000 documents overflow the stack)
  const rawFailed = new Map<number, string>();
  const heap = new Map<number, { built: number; maxRssMb: number }>();
  try {
    for (let i = 0; i < REPEATS; i++) {
      for (const n of sizes) {
        if (!rawFailed.has(n)) {
          try {
            raw.get(n)!.push(runApp(appArgs('raw', n, template), path.join(dir, 'raw')));
          } catch (e) {
            // the child's own error (a RangeError from cdk8s), not the line of ours that names the command
            const reason = /^(RangeError|TypeError): .*$/m.exec(String(e))?.[0];
            if (reason === undefined) throw e;
            rawFailed.set(n, reason);
          }
        }
        lib.get(n)!.push(runApp(appArgs('gitops', n, template), path.join(dir, 'lib')));
      }
      console.error(`bench: linear round ${i + 1}/${REPEATS} done`);
    }
    for (const n of sizes) {
      const out = path.join(dir, 'probe');
      heap.set(n, JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(APPS, 'heap-probe.js'), LIB, BUNDLES, `${n}`, out],
        { cwd: WORK, encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 }).trim().split('\n').pop()!));
      fs.rmSync(out, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const fmt = (n: number) => n.toLocaleString('en-US');
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const fastest = (runs: Run[]) => runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const work = (r: Run) => r.buildMs - (r.readMs ?? 0) + r.synthMs;
  const rss = (n: number) => median(lib.get(n)!.map((r) => r.maxRssMb));
  const marginal = (f: (n: number) => number) => sizes.slice(1).map((n, k) => (f(n) - f(sizes[k])) / (n - sizes[k]));
  const timeMarginal = marginal((n) => work(fastest(lib.get(n)!)));
  const rssMarginal = marginal(rss);
  const heapMarginal = marginal((n) => heap.get(n)!.built);
  const spread = (xs: number[]) => (xs.length < 2 ? 0 : Math.max(...xs) / Math.min(...xs) - 1);
  const table = [
    '| tenants | whole process (wall) | ratio to raw (wall) | build + synth per tenant | marginal per tenant | peak RSS (median) | ratio to raw (RSS) | peak RSS growth per tenant | live heap, tenants built | live heap growth per tenant |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...sizes.map((n, k) => {
      const r = fastest(lib.get(n)!);
      const rawRuns = raw.get(n)!;
      const noRaw = rawFailed.has(n) ? 'n/a: raw cdk8s fails' : undefined;
      const wallRatio = noRaw ?? `${(r.wallMs / fastest(rawRuns).wallMs).toFixed(2)}x`;
      const rssRatio = noRaw ?? `${(rss(n) / median(rawRuns.map((x) => x.maxRssMb))).toFixed(2)}x`;
      return `| ${fmt(n)} | ${s(r.wallMs)} | ${wallRatio} | ${(work(r) / n).toFixed(2)} ms | ${k === 0 ? '' : `${timeMarginal[k - 1].toFixed(2)} ms`} | `
        + `${rss(n).toFixed(0)} MB | ${rssRatio} | ${k === 0 ? '' : `${(rssMarginal[k - 1] * 1024).toFixed(1)} KB`} | `
        + `${heap.get(n)!.built} MB | ${k === 0 ? '' : `${(heapMarginal[k - 1] * 1024).toFixed(1)} KB`} |`;
    }),
  ];
  const ok = spread(timeMarginal) <= GOAL.flatness && spread(heapMarginal) <= GOAL.flatness;
  const goal = `- linear from ${fmt(sizes[0])} to ${fmt(sizes[sizes.length - 1])} tenants (GitOps, whole processes): marginal time per tenant `
    + `${timeMarginal.map((x) => `${x.toFixed(2)} ms`).join(', ')} (max/min ${(spread(timeMarginal) * 100).toFixed(0)} %), marginal live heap per tenant `
    + `${heapMarginal.map((x) => `${(x * 1024).toFixed(1)} KB`).join(', ')} (max/min ${(spread(heapMarginal) * 100).toFixed(0)} %), within ${GOAL.flatness * 100} %: ${ok ? 'met' : '**NOT met**'}`;
  const rawNotes = [...rawFailed].map(([n, reason]) => `raw cdk8s (one chart) fails at ${fmt(n)} tenants, so there is no floor to compare with there: ${reason} `
    + '(cdk8s Yaml.save spreads every document of a chart into one call); the library writes the same objects');
  return { lines: [...table, goal, ...rawNotes], table, goal, notes: rawNotes };
}

/** Command-line options of `npm run bench` (bench/run.ts) and bench/scale.ts. */
export interface BenchArgs {
  readonly ratio: boolean;
  readonly linear: boolean;
  readonly tenants: number;
  readonly rounds: number;
  readonly base?: string;
  readonly maxRatio?: number;
  readonly sizes?: number[];
}

/**
 * `--ratio [--tenants N] [--rounds R] [--base REV|DIR] [--max-ratio X]`: only the paired ratio check (exit 1 when
 * the wall ratio is above X); `--linear [sizes...]`: only the per-tenant time and memory at 5,000, 10,000 and 20,000
 * tenants (or the sizes given); plain numbers: the sizes of the full scale benchmark.
 */
export function parseBenchArgs(argv: string[]): BenchArgs {
  let ratio = false;
  let linear = false;
  let tenants = 5000;
  let rounds = 3;
  let base: string | undefined;
  let maxRatio: number | undefined;
  const sizes: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const count = (v: string) => {
      const n = Number(v.replace(/[,_]/g, ''));
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a}: not a positive whole number: ${v}`);
      return n;
    };
    if (a === '--ratio') ratio = true;
    else if (a === '--linear') linear = true;
    else if (a === '--tenants') tenants = count(value());
    else if (a === '--rounds') rounds = count(value());
    else if (a === '--base') base = value();
    else if (a === '--max-ratio') maxRatio = Number(value());
    else if (/^\d[\d,_]*$/.test(a)) sizes.push(count(a));
    else throw new Error(`unknown argument ${a} (--ratio, --tenants N, --rounds R, --base REV|DIR, --max-ratio X, --linear, sizes)`);
  }
  return { ratio, linear, tenants, rounds, base, maxRatio, sizes: sizes.length > 0 ? sizes : undefined };
}

/** Runs the modes that print without writing BENCHMARKS.md (`--ratio`, `--linear`); false when neither was asked. */
export function runQuickModes(args: BenchArgs): boolean {
  if (args.ratio) {
    const r = benchRatio({ tenants: args.tenants, rounds: args.rounds, base: args.base });
    for (const line of r.lines) console.log(line);
    if (args.maxRatio !== undefined && r.wallRatio > args.maxRatio) {
      console.log(`wall ratio ${r.wallRatio.toFixed(2)}x is above --max-ratio ${args.maxRatio}`);
      process.exitCode = 1;
    }
    return true;
  }
  if (args.linear) {
    buildLibrary();
    for (const line of benchLinear(args.sizes ?? LINEAR_SIZES).lines) console.log(line);
    return true;
  }
  return false;
}

/** The title of BENCHMARKS.md's section of in-process micro-benchmarks (the docs link to it by this title). */
export const MICRO_TITLE = 'RBAC engine and install preflight (in process)';

/**
 * BENCHMARKS.md's section of the in-process micro-benchmarks (bench/rbac.ts, bench/preflight.ts): one line each, as
 * `npm run bench` prints them. Nothing is written there but the bundles read from the repository's disk, so tmpfs
 * vs disk does not apply (said in the section).
 */
export function microSection(lines: string[]): string[] {
  if (lines.length === 0) return [];
  return [
    `## ${MICRO_TITLE}`,
    '',
    'One `node` process (ts-node on the sources), warm after the first call where a line says so; nothing is written, and the bundles are '
      + 'read from the repository\'s disk (ext4 on the VM\'s block device; the same on tmpfs but for the bundle load, whose time is mostly YAML '
      + 'parsing). On the shared machine the numbers vary with its load.',
    '',
    ...lines.map((l) => `- ${l}`),
    '',
  ];
}

// last: the constants above are defined by now
if (require.main === module) {
  const args = parseBenchArgs(process.argv.slice(2));
  if (!runQuickModes(args)) for (const line of benchScale(args.sizes)) console.log(line);
}
