// @ts-check
/**
 * Mutation testing of the security core (issue 28): `npm run test:mutation` runs scripts/test-mutation.mjs, which runs
 * StrykerJS once per target below with STRYKER_TARGET set; `npm run test:mutation -- rbac-rules version-range` runs
 * some. Each target mutates its source file(s) and runs only the test files that exercise it (jest `testMatch`), with
 * per-test coverage so a mutant runs only the tests that reach it. Not part of `npm test`. docs/testing.md has the
 * scores and the mutants that survive as equivalent.
 */
import * as fs from 'fs';

/** Lines `from`..`to` (1-based, inclusive) of `file`: from the first line matching `start` to the first later line matching `end`. */
function lines(file, start, end) {
  const text = fs.readFileSync(file, 'utf8').split('\n');
  const from = text.findIndex((l) => start.test(l));
  const to = text.findIndex((l, i) => i > from && end.test(l));
  if (from < 0 || to < 0) throw new Error(`stryker.config.mjs: ${file}: no lines ${start} .. ${end}`);
  return `${file}:${from + 1}-${to + 1}`;
}

/**
 * `propertyRunCap`: FC_MAX_RUNS for the target's tests (test/util/fast-check-seed.ts). The RBAC engine's properties run
 * up to 3,000 times each (~16 s for the file), the effective-power model's ~20 s, and every covered mutant runs them
 * all; capped, a mutant costs a few seconds.
 * A cap can only let a mutant survive that the full runs kill: the score is a lower bound. Targets whose tests assert
 * generator outcome counts are capped only where the counts are sized with `propertyRuns` (test/util/property-runs.ts)
 * or ask for no more runs than the cap.
 * `staticMutants`: mutate module-level code too (each such mutant runs all the target's tests: no per-test coverage).
 * @type {Record<string, { mutate: () => string[]; tests: string[]; propertyRunCap?: number; staticMutants?: boolean }>}
 */
export const TARGETS = {
  'rbac-rules': { mutate: () => ['src/rbac/rbac-rules.ts'], tests: ['test/rbac/rbac-rules.test.ts'], propertyRunCap: 200 },
  'effective-power': {
    mutate: () => ['src/audit/effective-power.ts'],
    tests: [
      'test/audit/effective-power.test.ts', 'test/audit/effective-power-refusals.test.ts', 'test/audit/run-as-paths.test.ts',
      'test/audit/effective-power-model.test.ts', 'test/audit/effective-power-expand.test.ts',
    ],
    // its properties (150 to 2,000 runs) take ~20 s, most of a mutant's time
    propertyRunCap: 50,
  },
  'installer-rule-checks': {
    mutate: () => ['src/audit/installer-rule-checks.ts'],
    tests: ['test/audit/installer-rule-checks.test.ts', 'test/audit/sensitive-grant-probes.test.ts'],
  },
  // the registry of sensitive grants: module-level constants (what each grant probes), so static mutants that
  // `ignoreStatic` leaves out of the target above; each runs every test of the file (~2 s)
  'sensitive-grants': {
    mutate: () => [lines('src/audit/installer-rule-checks.ts', /^const WRITE_VERBS/, /^function probed\(/)],
    // sensitive-grant-probes: every probed request alone, each grant's scope, the harmless neighbours
    tests: ['test/audit/installer-rule-checks.test.ts', 'test/audit/sensitive-grant-probes.test.ts'],
    staticMutants: true,
  },
  'version-range': {
    mutate: () => ['src/olmv1/olm-v1-version-range.ts'],
    // the guardrail CEL tests (olm-v1-team) exercise it too, at ~40 s a mutant on a shared machine: run target guardrails
    tests: ['test/olmv1/olm-v1-version-range.test.ts'],
  },
  // the counted property asks for 120 runs: the cap leaves it whole and shortens the 400-run one (~7 s)
  // olm-v1-names: two teams whose name prefixes overlap (a and a-b), the policy's longer-prefix exclusion;
  // olm-v1-guardrails-mutants: the policy built inside each test (olm-v1-team's CEL tests share one built per describe
  // block, which per-test coverage never runs against a constructor mutant), ~8 s
  guardrails: {
    mutate: () => ['src/olmv1/olm-v1-team-guardrails.ts'],
    tests: ['test/olmv1/olm-v1-team.test.ts', 'test/olmv1/olm-v1-names.test.ts', 'test/olmv1/olm-v1-guardrails-mutants.test.ts'],
    propertyRunCap: 120,
  },
  'tenancy-audit': { mutate: () => ['src/audit/tenancy-audit.ts'], tests: ['test/audit/tenancy-audit-cases.test.ts', 'test/audit/tenancy-audit-mutants.test.ts'] },
  'yaml-writer': {
    mutate: () => ['src/output/yaml-writer.ts', 'src/output/go-yaml.ts'],
    // kubectl reads the writer's output in these tests too; yaml-faithful.test.ts (the same through the App and the
    // GitOps layout, ~15 s of kubectl and kustomize calls a mutant) is left out to fit a run into an hour
    // yaml-writer-mutants: the fast path's edges (which documents it answers), the fallback's quoting, the errors (~1 s);
    // go-yaml-mutants: go-yaml.ts's rules alone (the writer's tests cannot see most of them: `yaml` quotes those forms too)
    tests: ['test/output/yaml-writer.test.ts', 'test/output/yaml-writer-mutants.test.ts', 'test/output/go-yaml-mutants.test.ts'],
    propertyRunCap: 200,
  },
  'cli-exit': {
    mutate: () => [lines('src/cli/preflight-command.ts', /const failing = results/, /return \{ exitCode: failing/)],
    tests: ['test/cli/preflight-command.test.ts'],
  },
  'gitops-writer': {
    mutate: () => [lines('src/output/gitops-writer.ts', /^export function writeGitOps\(/, /^function tenantFolders\(/)],
    tests: ['test/app/gitops-app.test.ts', 'test/app/gitops-streaming.test.ts'],
  },
};

const name = process.env.STRYKER_TARGET ?? 'rbac-rules';
const target = TARGETS[name];
if (!target) throw new Error(`stryker.config.mjs: unknown STRYKER_TARGET '${name}' (one of ${Object.keys(TARGETS).join(', ')})`);
// the test runner processes inherit this process's environment
if (target.propertyRunCap !== undefined) process.env.FC_MAX_RUNS = String(target.propertyRunCap);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  plugins: ['@stryker-mutator/jest-runner'],
  mutate: target.mutate(),
  // per-test coverage: a mutant runs only the tests that reached its code in the dry run
  coverageAnalysis: 'perTest',
  jest: {
    projectType: 'custom',
    // only the target's tests (the rest of package.json's jest config, swc transform included, is kept)
    // (no workerIdleMemoryLimit, null: with it jest runs the tests in a child process, whose coverage Stryker never sees;
    // undefined would vanish when Stryker serializes its options)
    config: {
      testMatch: target.tests.map((t) => `<rootDir>/${t}`),
      setupFilesAfterEnv: ['<rootDir>/test/util/fast-check-seed.ts'],
      workerIdleMemoryLimit: null,
      reporters: ['default'],
    },
    enableFindRelatedTests: false,
  },
  // one test process per core of the 2-core machine; STRYKER_CONCURRENCY=1 on a machine that is busy with other work
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  // static mutants (module-level constants) would need every test per mutant: left out, counted as ignored, except in
  // targets that ask for them
  ignoreStatic: !target.staticMutants,
  timeoutMS: 60_000,
  timeoutFactor: 2,
  // swc only strips types: no type checker, and the sandbox needs only what the tests read
  checkers: [],
  ignorePatterns: ['/examples/out', '/.bench', '/test-reports', '/reports', '/coverage', '/lib', '/dist', '/consumer-example'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  thresholds: { high: 90, low: 85, break: null },
};
