// API.md is generated (jsii-docgen, then scripts/api-md-start-here.js): it leads with the constructs a user starts
// from, each linked to its entry, and regenerating it leaves one such section (issue 26).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'api-md-start-here.js');

describe('API.md', () => {
  test('starts with "Start here": the user constructs, each link an entry of the file', () => {
    const text = fs.readFileSync(path.join(ROOT, 'API.md'), 'utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '# API Reference <a name="API Reference" id="api-reference"></a>',
      '',
      '<!-- start-here -->',
      '## Start here',
      '',
    ]);
    const links = [...text.slice(0, text.indexOf('## Constructs')).matchAll(/\]\(#(cdk8s-olm-tenancy\.\w+)\)/g)].map((m) => m[1]);
    expect(links.slice(0, 3)).toEqual(['cdk8s-olm-tenancy.TenancyApp', 'cdk8s-olm-tenancy.ScopedOperatorTenant', 'cdk8s-olm-tenancy.CuratedCatalog']);
    for (const id of links) expect(text).toContain(`id="${id}"`);
  });

  test('the script is idempotent and lists only constructs the file has', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-md-'));
    try {
      const file = path.join(dir, 'API.md');
      const generated = '# API Reference <a name="API Reference" id="api-reference"></a>\n\n## Constructs <a name="Constructs" id="Constructs"></a>\n\n'
        + '### TenancyApp <a name="TenancyApp" id="cdk8s-olm-tenancy.TenancyApp"></a>\n';
      fs.writeFileSync(file, generated);
      execFileSync(process.execPath, [SCRIPT, file]);
      const once = fs.readFileSync(file, 'utf8');
      execFileSync(process.execPath, [SCRIPT, file]);
      expect(fs.readFileSync(file, 'utf8')).toBe(once);
      expect(once).toBe([
        '# API Reference <a name="API Reference" id="api-reference"></a>',
        '',
        '<!-- start-here -->',
        '## Start here',
        '',
        'The constructs a platform team starts from; everything below is listed alphabetically by kind.',
        '',
        '- [`TenancyApp`](#cdk8s-olm-tenancy.TenancyApp): the App: one synth pass, warnings, TENANCY.md and the GitOps layout',
        '',
        '<!-- start-here -->',
        '',
        '## Constructs <a name="Constructs" id="Constructs"></a>',
        '',
        '### TenancyApp <a name="TenancyApp" id="cdk8s-olm-tenancy.TenancyApp"></a>',
        '',
      ].join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
