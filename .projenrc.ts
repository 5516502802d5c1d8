import { cdk8s, DependencyType, javascript, JsonFile } from 'projen';
import { UpdateSnapshot } from 'projen/lib/javascript';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-olm-tenancy',
  description:
    'cdk8s constructs for safe, scoped OLM (Operator Lifecycle Manager v0) operator installs by tenants, ' +
    'with offline RBAC and install preflight checks at synth time.',
  author: 'cdk8s-olm-tenancy maintainers',
  authorAddress: 'maintainers@example.com',
  repositoryUrl: 'https://example.com/cdk8s-olm-tenancy.git',
  // Construct Hub lists jsii libraries whose keywords hold `cdk8s` (its cdk8s category); the rest helps its search and npm's.
  keywords: ['cdk8s', 'cdk8s-plus', 'kubernetes', 'k8s', 'olm', 'operator-lifecycle-manager', 'operator-controller', 'openshift', 'rbac', 'multi-tenancy', 'operators', 'gitops'],
  cdk8sVersion: '2.70.106',
  constructsVersion: '10.4.2',
  defaultReleaseBranch: 'main',
  github: false,
  // Release tasks without GitHub workflows (github: false): `npx projen release` bumps the version from the
  // conventional commits (commit-and-tag-version), writes dist/changelog.md and builds the packages; publishing is
  // `npx -p publib publib-npm` / `publib-pypi` on dist/ (README "Releasing").
  release: true,
  releaseToNpm: true,
  majorVersion: 0,
  jsiiVersion: '~6.0.0',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  minNodeVersion: '20.0.0',
  // `cdk8s-olm-tenancy preflight <bundle>`: the preflight and derived installer Role without a cdk8s app.
  bin: { 'cdk8s-olm-tenancy': 'bin/cdk8s-olm-tenancy' },
  // Python bindings (jsii). Only the code is generated here (see package:python-code below).
  publishToPypi: { distName: 'cdk8s-olm-tenancy', module: 'cdk8s_olm_tenancy' },

  // cdk8s-plus-28 is a peer: users hold its Namespace / ServiceAccount types and pass them to us.
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  // jsii libraries must bundle their runtime dependencies.
  deps: ['yaml@^2.6.0', 'semver@^7.6.3'],
  bundledDeps: ['yaml', 'semver'],
  devDeps: [
    '@types/node@^20',
    'fast-check@^4.3.0',
    '@types/semver@^7',
    'ajv@^8.17.1',
    'ajv-formats@^3.0.1',
    'kubernetes-models@4.5.1',
    '@bufbuild/cel@^0.6.1',
    // a second CEL engine that, as cel-go (Flux, Kubernetes), fails on a variable that is not bound (ESM only: the
    // tests run it in a child process, test/util/cel-go-like.ts)
    '@marcbachmann/cel-js@^8.0.0',
    'cdk8s-cli@^2.207.0',
    // jest transform: swc strips types per file (ts-jest in isolatedModules mode did the same, several times slower
    // on a cold cache). Types are checked by the test:types task instead.
    '@swc/core@^1.16.22',
    '@swc/jest@^0.2.39',
    // Mutation testing of the security core (npm run test:mutation; 9.x: 10.x needs Node 22).
    '@stryker-mutator/core@~9.6.1',
    '@stryker-mutator/jest-runner@~9.6.1',
    // CommonMark reader of the Markdown the library writes (TENANCY.md) and of the docs' code blocks.
    'commonmark@^0.31.2',
    '@types/commonmark@^0.27.10',
  ],

  // Separate .js.map files instead of source maps inlined in every .js: V8 keeps each module's whole source text in
  // the heap, so inline maps and sources doubled what loading the library costs (memory and time, issue 17).
  tsconfig: { compilerOptions: { inlineSourceMap: false, inlineSources: false, sourceMap: true } },

  jestOptions: {
    jestVersion: '^29',
    // Snapshots must be able to fail: new ones come from `npx projen test:update`.
    updateSnapshot: UpdateSnapshot.NEVER,
    // Coverage doubled the suite's time (v8 coverage converted per test file): `npm run test:coverage` has it.
    coverageText: false,
    jestConfig: {
      testPathIgnorePatterns: ['/node_modules/', '/test/fixtures/'],
      coveragePathIgnorePatterns: ['/node_modules/', '/src/imports/', '/test/fixtures/'],
      testTimeout: 120_000,
      collectCoverage: false,
      // jest's default is one worker fewer than the cores: one worker on a 2-core machine.
      maxWorkers: '100%',
      // A worker that grew past this is restarted between test files (keeps the peak under 2 GB on 2 workers).
      workerIdleMemoryLimit: '700MB',
      // Counts expect() calls per test so that CI can print the number of assertions beside the number of tests;
      // fixes fast-check's seed for the property tests that do not set one.
      setupFilesAfterEnv: ['<rootDir>/test/util/count-assertions.ts', '<rootDir>/test/util/fast-check-seed.ts'],
    },
  },
  eslintOptions: {
    // `npm test` must never rewrite tracked files (CI fails on a dirty tree): lint only, fix with `npx projen eslint:fix`.
    // `import/no-cycle` (the override below) is off in this run: test/core/import-cycles.test.ts, a superset (type-only
    // imports too, under a second), is the check in `npm test`, and the rule cost ~6 s of the run's ~37 (eslint TIMING);
    // editors still report it
    // `--cache` (by content, under node_modules/.cache): a file and config unchanged since the last run is not linted
    // again (~24 s of eslint on this machine, most of it for unchanged files); a cross-file result it could keep stale
    // (an import that no longer resolves) is test:types' error too
    commandOptions: { fix: false, extraArgs: ['--rule', 'import/no-cycle: off', '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/'] },
    dirs: ['src'],
    devdirs: ['test', 'examples', 'bench', 'scripts'],
    ignorePatterns: ['src/imports/', 'test/fixtures/', '*.js', '*.d.ts', 'node_modules/'],
  },
  // StrykerJS's sandboxes and reports (npm run test:mutation)
  gitignore: ['/out/', '/examples/out/', '/.bench/', '/.stryker-tmp/', '/reports/mutation/'],
  // the tarball holds what README.md ("Versioning and releases") says, no tooling: test/core/package-contents.test.ts
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/bench/', '/.bench/', '/scripts/', '/crds/', '/.ci/', '/consumer-example/', '/BENCHMARKS.md', '/CONTRIBUTING.md', '/stryker.config.mjs', '/reports/'] },
});

// jsii (@jsii/check-node, run by jsii and jsii-pacmak in compile/package tasks) prints a 12-line end-of-life banner
// on Node 20 (its support matrix: end-of-life 2026-04-30). Node 20 stays supported and tested here (README "Node
// versions"), so its users are not greeted by it; Node 22 and 24 print nothing anyway.
project.tasks.addEnvironment('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '20');

// No import circle in src/: value imports here, for editors (over the tests too it cost +14 s; `npm test`'s run turns
// it off, eslintOptions above), and test/core/import-cycles.test.ts counts `import type` as well.
project.eslint?.addOverride({ files: ['src/**/*.ts'], rules: { 'import/no-cycle': ['error'] } });


// TOOLCHAIN.md: eslint-import-resolver-typescript >= 3.8 pulls in unrs-resolver, whose lockfile entries
// break `npm ci` on this registry. Projen adds the dependency unpinned; pin it here.
project.deps.removeDependency('eslint-import-resolver-typescript');
project.deps.addDependency('eslint-import-resolver-typescript@~3.6.3', DependencyType.BUILD);

// swc instead of ts-jest (see devDeps above); same target and module system as tsconfig.json.
project.jest!.config.transform = {
  '^.+\\.[t]sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
// The tests are type-checked (swc and ts-jest's isolated modules only strip types).
// --incremental: the build info (under node_modules/.cache) lets tsc check again only what changed since the last run
// (~19 s of CPU cold, ~5 s warm on this machine); a fresh clone checks everything.
project.addTask('test:types', {
  description: 'Type-check the tests (and the sources they import)',
  exec: 'tsc --noEmit -p test/tsconfig.json --isolatedModules false --incremental --tsBuildInfoFile node_modules/.cache/olmt-test-types.tsbuildinfo',
});
// Assertion counts of the last run only (test/util/count-assertions.ts writes one file per test file).
project.testTask.prependExec('node -e "require(\'fs\').rmSync(\'test-reports/assertions\', { recursive: true, force: true })"');
project.testTask.prependSpawn(project.tasks.tryFind('test:types')!);
project.addTask('test:coverage', {
  description: 'The test suite with coverage (slower; not part of npm test)',
  exec: 'jest --passWithNoTests --ci --coverage',
});

// Mutation testing of the security core (issue 28; not part of npm test): StrykerJS per target of stryker.config.mjs,
// each with only the tests of its file. `npm run test:mutation -- rbac-rules` runs one target. docs/testing.md.
project.addTask('test:mutation', {
  description: 'Mutation testing of the security core with StrykerJS (slow; not part of npm test)',
  exec: 'node scripts/test-mutation.mjs',
  receiveArgs: true,
});

// ts-node and eslint config for the folders that are not the published library (eslint's project service
// uses the nearest tsconfig.json).
for (const dir of ['examples', 'bench', 'scripts']) {
  new JsonFile(project, `${dir}/tsconfig.json`, {
    obj: {
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '..', noUnusedLocals: false },
      include: ['**/*.ts'],
      exclude: ['node_modules', 'out'],
    },
  });
}

// Keep API.md to the root module: the generated L1 imports would make it megabytes long.
// API.md leads with the constructs a user starts from (scripts/api-md-start-here.js).
project.tasks.tryFind('docgen')?.reset('jsii-docgen -o API.md -s root');
project.tasks.tryFind('docgen')?.exec('node scripts/api-md-start-here.js');

// Regenerate the typed L1 classes from the CRD copies kept in crds/ (never from ../shared at runtime).
project.addTask('import:crds', {
  description: 'Regenerate src/imports from the CRD copies in crds/',
  exec: 'ts-node --project scripts/tsconfig.json scripts/import-crds.ts',
});

// The JSON conversions of the cdk8s-plus-28 L1 classes the library writes, without object spreads (after upgrading
// cdk8s-plus-28; test/core/l1-json.test.ts fails until then).
project.addTask('k8s-json', {
  description: 'Regenerate src/imports/k8s-json.ts from the installed cdk8s-plus-28',
  exec: 'ts-node --project scripts/tsconfig.json scripts/k8s-json.ts',
});

// The main job: synthesize the example platform into YAML.
project.addTask('synth:examples', {
  description: 'Synthesize the example platform in examples/ into examples/out/',
  exec: 'ts-node --project examples/tsconfig.json examples/main.ts',
});

project.addTask('eslint:fix', {
  description: 'eslint with --fix (the eslint task run by `npm test` only reports)',
  env: { ESLINT_USE_FLAT_CONFIG: 'false', NODE_NO_WARNINGS: '1' },
  exec: 'eslint --ext .ts,.tsx --fix --no-error-on-unmatched-pattern src test examples bench scripts projenrc .projenrc.ts',
});

// The docs' numbers and lists that come from other files (BENCHMARKS.md, the mutation baselines, the layer list):
// test/docs-numbers.test.ts fails when they differ, this rewrites them (npm run bench runs it too).
project.addTask('docs:generated', {
  description: 'Rewrite the generated texts of README.md and docs/ (scripts/generated-docs.ts)',
  exec: 'ts-node --project scripts/tsconfig.json scripts/generated-docs.ts',
});

project.addTask('bench', {
  description: 'Benchmarks (timings live here, never in tests); `npm run bench -- --ratio` for the 5,000-tenant ratio check alone',
  exec: 'ts-node --project bench/tsconfig.json bench/run.ts',
  receiveArgs: true,
});

// Every build proves the API is usable from another jsii language (code only: the full Python
// packaging pip-installs build tools from a registry this machine cannot reach).
const pacmakPython = project.addTask('package:python-code', {
  description: 'Generate the Python bindings (code only) with jsii-pacmak',
  exec: 'jsii-pacmak --target python --code-only --outdir dist',
});
project.tasks.tryFind('package-all')?.reset();
project.tasks.tryFind('package-all')?.spawn(project.tasks.tryFind('package:js')!);
project.tasks.tryFind('package-all')?.spawn(pacmakPython);
project.tasks.tryFind('package')?.reset();
project.tasks.tryFind('package')?.spawn(project.tasks.tryFind('package:js')!);
project.tasks.tryFind('package')?.spawn(pacmakPython);

project.synth();
