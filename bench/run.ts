// `npm run bench`: every benchmark of the project, one report. Timings live here, never in tests.
import { benchPreflight } from './preflight';
import { benchRbac } from './rbac';
import { benchScale } from './scale';
import { benchSynth } from './synth';
import { writeGeneratedDocs } from '../scripts/generated-docs';

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
  ['Whole processes as users run them: the library (GitOps layout, a file per tenant) vs raw cdk8s in one chart, cold start, CLI (writes BENCHMARKS.md)', () => benchScale(undefined, micro)],
];

for (const [title, run] of sections) {
  console.log(`## ${title}`);
  for (const line of run()) console.log(`- ${line}`);
  console.log();
}

// the docs cite BENCHMARKS.md's goals and commit (README.md): regenerated from the file just written
const changed = writeGeneratedDocs();
console.log(changed.length > 0 ? `updated the texts generated from BENCHMARKS.md in ${changed.join(', ')}` : 'the generated docs are up to date');
