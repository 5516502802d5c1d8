/**
 * The front door (issue 39 item 6): CONTRIBUTING.md's commands are real (each `npm run X` a package.json script, each
 * `npx projen X` a projen task, each script it runs a file), its links and the repository paths it names exist, and
 * README.md links it and docs/architecture.md. Its code blocks, names and timings are checked with the other pages
 * (docs-blocks, docs-claims, docs-numbers).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const TEXT = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');

describe('CONTRIBUTING.md (issue 39)', () => {
  test('every `npm run` script and `npx projen` task it names exists', () => {
    const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
    const tasks = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks);
    const run = [...TEXT.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    const projen = [...TEXT.matchAll(/npx projen ([\w:-]+)/g)].map((m) => m[1]);
    expect(run.length).toBeGreaterThan(8);
    expect({ scripts: run.filter((s) => !scripts.includes(s)), tasks: projen.filter((t) => !tasks.includes(t)) }).toEqual({ scripts: [], tasks: [] });
  });

  test('every relative link and every repository path it names exists', () => {
    const links = [...TEXT.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    const paths = [...TEXT.matchAll(/(?<![\w/.-])((?:src|test|docs|scripts|crds|examples|bench)\/[\w./-]*[\w/])/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(3);
    expect(paths.length).toBeGreaterThan(20);
    // an output the build writes (examples/out/: `npm run synth:examples`) is not in a fresh clone: it counts when
    // .gitignore names it as generated, root-anchored
    const generated = fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n').filter((l) => /^\/[\w./-]+\/$/.test(l)).map((l) => l.slice(1));
    expect(generated).toContain('examples/out/');
    const missing = [...new Set([...links, ...paths])].filter((p) => !fs.existsSync(path.join(ROOT, p)) && !generated.some((g) => `${p}/`.startsWith(g)));
    expect(missing).toEqual([]);
  });

  test('README.md links CONTRIBUTING.md and docs/architecture.md', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(['](CONTRIBUTING.md)', '](docs/architecture.md)'].filter((link) => !readme.includes(link))).toEqual([]);
  });
});
