// `npm run bench`: every benchmark of the project, one report. Timings live here, never in tests.
import { benchPreflight } from './preflight';
import { benchRbac } from './rbac';
import { benchSynth } from './synth';

const sections: Array<[string, () => string[]]> = [
  ['RBAC engine', benchRbac],
  ['Install preflight', benchPreflight],
  ['Synthesis', benchSynth],
];

for (const [title, run] of sections) {
  console.log(`## ${title}`);
  for (const line of run()) console.log(`- ${line}`);
  console.log();
}
