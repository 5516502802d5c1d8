/**
 * Every property test runs with a fixed seed unless it sets its own: the same inputs on every run and machine, so a
 * failure reproduces and the assertion count CI prints is the same from run to run. (A property test that wants
 * other inputs sets `seed` in its own `fc.assert` parameters.)
 *
 * FC_SEED=<number> picks another seed for every property test that does not set its own, and FC_SEED=random a new one
 * per run (printed here, and by fast-check with the counterexample on failure): a scheduled run can explore new
 * inputs, a failure reproduces with the printed seed. The per-test outcome counters (both outcomes, the interesting
 * branch a minimum number of times) are asserted with any seed.
 *
 * FC_MAX_RUNS=<n> caps every property test at n runs. Only mutation testing sets it (stryker.config.mjs): a mutant runs
 * every test that reaches it, and the RBAC engine's properties (up to 3,000 runs each) would cost ~15 s a mutant. A cap
 * can only let a mutant survive that the full run kills, never the reverse: the scores are a lower bound.
 */
import type * as FastCheck from 'fast-check';
import { propertyRunCap } from './property-runs';

const DEFAULT_SEED = 20261126;

/** The seed the property tests use: FC_SEED (a number, or `random`), else the fixed default. */
export function propertySeed(env: string | undefined = process.env.FC_SEED): number {
  if (env === undefined || env === '') return DEFAULT_SEED;
  if (env === 'random') return Math.floor(Math.random() * 0x7fffffff);
  const n = Number(env);
  if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED must be an integer or 'random', got '${env}'`);
  return n;
}

const seed = propertySeed();
const runCap = propertyRunCap();
if (seed !== DEFAULT_SEED) {
  // eslint-disable-next-line no-console
  console.log(`fast-check seed ${seed} (FC_SEED=${process.env.FC_SEED})`);
}
// fast-check is configured when a test file first loads it, not here: most test files never load it, and loading it
// costs every test file CPU time. The factory gives the real module (jest.requireActual), configured once per file.
jest.mock('fast-check', () => {
  const fc: typeof FastCheck = jest.requireActual('fast-check');
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
  if (runCap === undefined) return fc;
  const globalRuns = fc.readConfigureGlobal().numRuns ?? 100;
  const capped = <T extends { numRuns?: number }>(params?: T): T =>
    ({ ...params, numRuns: Math.min(params?.numRuns ?? globalRuns, runCap) }) as T;
  return { ...fc, assert: ((p: any, params?: any) => fc.assert(p, capped(params))) as typeof fc.assert };
});
