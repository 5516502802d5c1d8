/**
 * Issue 30, item 12: examples/out/ holds gitops/, olm-v1/, catalog files and preflight-demo/ (with an empty failing/);
 * a README there says what each is and which folder a GitOps tool applies. examples/main.ts runs here into a
 * temporary folder (EXAMPLES_OUT), and every entry it writes must be in the README, and every README entry written.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OUT_ENTRIES, outReadme } from '../../examples/out-readme';
import { HAS_KUBECTL, kubectlKustomize } from '../util/kubectl';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const commonmark = require('commonmark');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-out-'));
const out = path.join(tmp, 'out');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

beforeAll(() => {
  const env = process.env.EXAMPLES_OUT;
  process.env.EXAMPLES_OUT = out;
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../../examples/main');
    });
  } finally {
    log.mockRestore();
    err.mockRestore();
    if (env === undefined) delete process.env.EXAMPLES_OUT;
    else process.env.EXAMPLES_OUT = env;
  }
}, 600_000);

describe('examples/out/README.md', () => {
  test('GIVEN npm run synth:examples THEN README.md is written, as outReadme() says', () => {
    expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toEqual(outReadme());
  });

  test('every entry main.ts writes is in the README, and every README entry is written', () => {
    const written = fs.readdirSync(out, { withFileTypes: true }).filter((e) => e.name !== 'README.md')
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    const topLevel = OUT_ENTRIES.map((e) => e.path).filter((p) => !p.slice(0, -1).includes('/')).sort();
    expect(written).toEqual(topLevel);
    for (const e of OUT_ENTRIES) expect({ path: e.path, exists: fs.existsSync(path.join(out, e.path)) }).toEqual({ path: e.path, exists: true });
    // preflight-demo/: what is inside, failing/ empty as the README says
    expect(fs.readdirSync(path.join(out, 'preflight-demo')).sort()).toEqual(['failing', 'failing-tenant-errors.txt', 'fixed']);
    expect(fs.readdirSync(path.join(out, 'preflight-demo', 'failing'))).toEqual([]);
    const demo = OUT_ENTRIES.find((e) => e.path === 'preflight-demo/')!.what;
    for (const part of ['`failing-tenant-errors.txt`', '`failing/`', '**empty**', '`fixed/`']) expect(demo).toContain(part);
  });

  test('it says which folders a GitOps tool applies: gitops/ and olm-v1/, each a tree kustomize builds; nothing else', () => {
    expect(OUT_ENTRIES.filter((e) => e.applied.startsWith('**yes**')).map((e) => e.path)).toEqual(['gitops/', 'olm-v1/']);
    const doc = new commonmark.Parser().parse(outReadme());
    const paragraphs: string[] = [];
    const walker = doc.walker();
    let ev;
    while ((ev = walker.next())) {
      if (!ev.entering || ev.node.type !== 'paragraph') continue;
      let text = '';
      const w = ev.node.walker();
      let e2;
      while ((e2 = w.next())) if (e2.entering && (e2.node.type === 'text' || e2.node.type === 'code')) text += e2.node.literal;
      paragraphs.push(text);
    }
    expect(paragraphs).toContain('Which folder to point a GitOps tool at: gitops/ (OLM v0, the main example) or olm-v1/ (OLM v1). Each is a complete '
      + 'tree whose root kustomization.yaml applies cluster/ before tenants/; nothing else here is applied to a cluster.');
    for (const dir of ['gitops', 'olm-v1']) {
      expect(fs.existsSync(path.join(out, dir, 'kustomization.yaml'))).toBe(true);
      if (HAS_KUBECTL) expect({ dir, ok: kubectlKustomize(path.join(out, dir)).ok }).toEqual({ dir, ok: true });
    }
  });
});
