// `npm run test:mutation [-- [--full] [--update-baseline] [target...]]`: StrykerJS once per target of
// stryker.config.mjs (all by default, the security core's most important first), one after the other; reports in
// reports/mutation/<target>.{json,html}, then one score line per target.
//
// Incremental by default: each target starts from its committed baseline, test/mutation-baseline/<target>.json.gz
// (Stryker's incremental file: every mutant's result and the tests that covered or killed it, gzipped). Stryker
// re-tests only the mutants whose code changed and those covered by changed tests, and reuses the other results, so a
// run from a fresh clone of an unchanged tree costs the targets' initial test runs, not hours of mutants. It cannot
// see changes in the modules a mutated file imports (Stryker's documented limit): `--full` re-tests every mutant
// (`--force`). `--update-baseline` writes the run's results back as the new baseline (commit it). A target without a
// baseline runs in full.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';

// the config sets FC_MAX_RUNS for the targets that cap property runs when it is loaded: loaded here for the target
// list, it must not hand the default target's cap to the other targets' runs (the child loads it again for its own)
const userRunCap = process.env.FC_MAX_RUNS;
const { TARGETS } = await import('../stryker.config.mjs');
if (userRunCap === undefined) delete process.env.FC_MAX_RUNS;
else process.env.FC_MAX_RUNS = userRunCap;

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
for (const f of flags) {
  if (f !== '--full' && f !== '--update-baseline') throw new Error(`unknown option '${f}' (--full, --update-baseline)`);
}
const positional = args.filter((a) => !a.startsWith('--'));
const names = positional.length > 0 ? positional : Object.keys(TARGETS);
for (const name of names) {
  if (!TARGETS[name]) throw new Error(`unknown target '${name}' (one of ${Object.keys(TARGETS).join(', ')})`);
}

const BASELINES = 'test/mutation-baseline';
const baselineOf = (name) => path.join(BASELINES, `${name}.json.gz`);
const incrementalOf = (name) => path.join('reports', 'mutation', `${name}.incremental.json`);

/** Score line of a Stryker JSON report: (killed + timed out) / (all but ignored, static-left-out, compile and runtime errors). */
function scoreLine(name, seconds, mode) {
  const file = path.join('reports', 'mutation', `${name}.json`);
  if (!fs.existsSync(file)) return `${name}: no report (${mode}, ${seconds} s)`;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const counts = {};
  for (const f of Object.values(report.files)) for (const m of f.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  const killed = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = killed + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  const score = valid === 0 ? 'n/a' : `${((100 * killed) / valid).toFixed(2)} %`;
  return `${name}: ${score} (${killed} killed or timed out, ${counts.Survived ?? 0} survived, ${counts.NoCoverage ?? 0} no coverage; ${mode}, ${seconds} s)`;
}

fs.mkdirSync(path.join('reports', 'mutation'), { recursive: true });
const lines = [];
let failed = 0;
for (const name of names) {
  const baseline = baselineOf(name);
  const incremental = incrementalOf(name);
  const fromBaseline = !flags.has('--full') && fs.existsSync(baseline);
  if (fromBaseline) fs.writeFileSync(incremental, zlib.gunzipSync(fs.readFileSync(baseline)));
  else fs.rmSync(incremental, { force: true });
  const mode = fromBaseline ? 'incremental from the baseline' : flags.has('--full') ? 'full (--full)' : 'full (no baseline)';
  console.log(`\n=== mutation testing: ${name}, ${mode} ===`);
  const start = Date.now();
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--incremental', '--incrementalFile', incremental, ...(flags.has('--full') ? ['--force'] : [])], {
    stdio: 'inherit',
    env: { ...process.env, STRYKER_TARGET: name },
  });
  const seconds = Math.round((Date.now() - start) / 1000);
  if (r.status !== 0) failed++;
  else if (flags.has('--update-baseline')) {
    fs.mkdirSync(BASELINES, { recursive: true });
    // the machine-specific fields vary between runs and clones: left out, so an unchanged result gives the same file
    const report = JSON.parse(fs.readFileSync(incremental, 'utf8'));
    delete report.projectRoot;
    delete report.config;
    fs.writeFileSync(baseline, zlib.gzipSync(`${JSON.stringify(report)}\n`, { level: 9 }));
    console.log(`baseline written: ${baseline}`);
  }
  lines.push(scoreLine(name, seconds, mode));
}
console.log('\n=== mutation scores ===');
for (const l of lines) console.log(l);
process.exit(failed === 0 ? 0 : 1);
