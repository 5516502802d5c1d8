/**
 * FC_MAX_RUNS (test/util/fast-check-seed.ts caps every property test at it; only mutation testing sets it). A test
 * that asserts how often its generator reached a case sizes the threshold with `propertyRuns`, so the assertion
 * holds under the cap and is unchanged without it.
 */

/** FC_MAX_RUNS as a positive integer, or undefined when unset. */
export function propertyRunCap(env: string | undefined = process.env.FC_MAX_RUNS): number | undefined {
  if (env === undefined || env === '') return undefined;
  const n = Number(env);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`FC_MAX_RUNS must be a positive integer, got '${env}'`);
  return n;
}

/** The runs a property test asking for `n` gets: `n`, or the cap when it is lower. */
export function propertyRuns(n: number, env: string | undefined = process.env.FC_MAX_RUNS): number {
  const cap = propertyRunCap(env);
  return cap === undefined ? n : Math.min(n, cap);
}
