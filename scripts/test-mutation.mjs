// `npm run test:mutation [-- target...]`: StrykerJS once per target of stryker.config.mjs (all by default, the
// security core's most important first), one after the other; reports in reports/mutation/<target>.{json,html}.
import { spawnSync } from 'child_process';
import { TARGETS } from '../stryker.config.mjs';

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(TARGETS);
let failed = 0;
for (const name of names) {
  if (!TARGETS[name]) throw new Error(`unknown target '${name}' (one of ${Object.keys(TARGETS).join(', ')})`);
  console.log(`\n=== mutation testing: ${name} ===`);
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { stdio: 'inherit', env: { ...process.env, STRYKER_TARGET: name } });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
