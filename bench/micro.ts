// The in-process micro-benchmarks alone (RBAC engine, install preflight): prints them and replaces their section of
// BENCHMARKS.md (`npm run bench` writes the whole file, this section included). Timings live here, never in tests.
import * as fs from 'fs';
import * as path from 'path';
import { benchPreflight } from './preflight';
import { benchRbac } from './rbac';
import { MICRO_TITLE, microSection } from './scale';

const file = process.env.BENCH_REPORT ?? path.join(__dirname, '..', 'BENCHMARKS.md');
const lines = [...benchRbac(), ...benchPreflight()];
for (const line of lines) console.log(line);
const md = fs.readFileSync(file, 'utf8');
const section = microSection(lines).join('\n');
const start = md.indexOf(`## ${MICRO_TITLE}\n`);
const next = '## Cold start and short commands\n';
const updated = start >= 0
  ? md.slice(0, start) + section + md.slice(md.indexOf(next, start))
  : md.replace(next, `${section}${next}`);
fs.writeFileSync(file, updated);
