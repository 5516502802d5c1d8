// The packed tarball (issue 25): `npm pack --dry-run --json` lists what npm would publish, read through .npmignore
// as npm reads it. It must hold the library (lib/), its CLI (bin/ and lib/cli/), the jsii assembly and the docs, and
// no tests, fixtures, sources or tooling. lib/ exists only after `npx projen compile`: without it the lib/ checks are
// skipped (with a message) and .ci/run runs this file again after the jsii build.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const LIB_BUILT = fs.existsSync(path.join(ROOT, 'lib', 'index.js'));

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out)[0].files as Array<{ path: string }>).map((f) => f.path).sort();
}

describe('npm pack --dry-run: what the published package holds', () => {
  const files = packedFiles();
  // the package's own files (bundled dependencies, yaml and semver, live under node_modules/)
  const own = files.filter((f) => !f.startsWith('node_modules/'));

  test('the CLI, the docs and the manifest', () => {
    expect(own).toEqual(expect.arrayContaining(['bin/cdk8s-olm-tenancy', 'API.md', 'README.md', 'LICENSE', 'package.json', 'CHANGELOG.md']));
  });

  // issue 41: the tarball held stryker.config.mjs, and README named less than it holds
  test('exactly what README.md says it holds, at the top level', () => {
    const top = [...new Set(own.map((f) => (f.includes('/') ? `${f.split('/')[0]}/` : f)))].sort();
    const expected = ['.jsii', 'API.md', 'CHANGELOG.md', 'LICENSE', 'README.md', 'bin/', 'docs/', 'lib/', 'package.json'];
    expect(top).toEqual(expected.filter((e) => LIB_BUILT || (e !== 'lib/' && e !== '.jsii')));
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('The packed tarball holds `lib/` (the library and the CLI\'s code), `bin/`, `.jsii`, `package.json`, README.md, '
      + 'API.md, CHANGELOG.md, LICENSE and `docs/` (the pages README.md links), and no tests, fixtures, sources or tooling '
      + '(`test/core/package-contents.test.ts`).');
  });

  test('no tests, fixtures, TypeScript sources, examples, benchmarks, scripts, CRD copies or CI files', () => {
    const forbidden = /^(test|src|examples|bench|scripts|crds|\.ci|\.projen|projenrc|coverage|test-reports|dist)\//;
    expect(own.filter((f) => forbidden.test(f) || f.includes('fixtures/') || /\.test\.(ts|js)$/.test(f) || f === '.projenrc.ts' || f === 'tsconfig.json')).toEqual([]);
    // bundled dependencies only (jsii bundles yaml and semver), never the dev tree
    const bundled = [...new Set(files.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/')[1]))].sort();
    expect(bundled.filter((d) => !['semver', 'yaml'].includes(d))).toEqual([]);
  });

  (LIB_BUILT ? test : test.skip)('the compiled library and the CLI code the bin script requires (needs `npx projen compile`)', () => {
    // the jsii assembly is written by the same compile
    expect(own).toEqual(expect.arrayContaining(['.jsii', 'lib/index.js', 'lib/index.d.ts', 'lib/cli/preflight-command.js']));
    const bin = fs.readFileSync(path.join(ROOT, 'bin', 'cdk8s-olm-tenancy'), 'utf8');
    const required = [...bin.matchAll(/require\('\.\.\/(lib\/[^']+)'\)/g)].map((m) => m[1]);
    expect(required).toEqual(['lib/cli/preflight-command.js']);
    expect(required.filter((r) => !own.includes(r))).toEqual([]);
    // no TypeScript sources beside the compiled files (declarations only)
    expect(own.filter((f) => f.startsWith('lib/') && f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  if (!LIB_BUILT) {
    test('lib/ is not built: the lib/ checks were skipped', () => {
      // eslint-disable-next-line no-console
      console.log('lib/ is not built: the packed-library checks are skipped; run `npx projen compile` (.ci/run runs this file after it)');
      expect(own.filter((f) => f.startsWith('lib/'))).toEqual([]);
    });
  }
});
