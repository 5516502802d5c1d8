// `npm run bench`: every benchmark of the project, one report. Timings live here, never in tests.
// `npm run bench -- --ratio`: only the paired 5,000-tenant ratio check, `-- --linear`: only the per-tenant time and
// memory at 5,000, 10,000 and 20,000 tenants (bench/scale.ts `parseBenchArgs` for the options). Both print and write
// nothing; they load neither the sources nor the micro-benchmarks.
import { benchScale, parseBenchArgs, runQuickModes } from './scale';

const args = parseBenchArgs(process.argv.slice(2));
if (!runQuickModes(args)) runAll();

function runAll(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { benchPreflight } = require('./preflight') as typeof import('./preflight');
  const { benchRbac } = require('./rbac') as typeof import('./rbac');
  const { benchSynth } = require('./synth') as typeof import('./synth');
  const { writeGeneratedDocs } = require('../scripts/generated-docs') as typeof import('../scripts/generated-docs');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // the micro-benchmarks' lines go to BENCHMARKS.md too (the docs quote their numbers from there, nowhere else)
  const micro: string[] = [];
  const kept = (run: () => string[]) => () => {
    const lines = run();
    micro.push(...lines);
    return lines;
  };
  const sections: Array<[string, () => string[]]> = [
    ['RBAC engine', kept(benchRbac)],
    ['Install preflight', kept(benchPreflight)],
    ['Synthesis', benchSynth],
    ['Whole processes as users run them: the library (GitOps layout, a file per tenant) vs raw cdk8s in one chart, cold start, CLI (writes BENCHMARKS.md)', () => benchScale(args.sizes, micro)],
  ];

  for (const [title, run] of sections) {
    console.log(`## ${title}`);
    for (const line of run()) console.log(`- ${line}`);
    console.log();
  }

  // the docs cite BENCHMARKS.md's goals and commit (README.md): regenerated from the file just written
  const changed = writeGeneratedDocs();
  console.log(changed.length > 0 ? `updated the texts generated from BENCHMARKS.md in ${changed.join(', ')}` : 'the generated docs are up to date');
}
