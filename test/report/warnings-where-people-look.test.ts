/**
 * Issue 16 item 2: warnings reach the people who follow the README. ManualApprovalWithoutApprover,
 * AllNamespacesIncludesTenants and CrdsCreatedByOlm are listed in TENANCY.md's Warnings section (policy id,
 * subject, one-line why, fix), written to WARNINGS.txt in the GitOps tree, and printed by `synth()` by default.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import {
  CatalogSourceReference, InstallPlanApproval, OperatorBundle, OutputLayout, ScopedOperatorTenant, TargetNamespaces, TenancyApp,
} from '../../src';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const CATALOG = CatalogSourceReference.fromName('community-operators', 'openshift-marketplace');

function platform(outdir: string, quiet?: boolean): TenancyApp {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, report: true, ...(quiet !== undefined ? { quiet } : {}) });
  const chart = new Chart(app, 'platform');
  const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
  a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, installPlanApproval: InstallPlanApproval.MANUAL });
  new ScopedOperatorTenant(chart, 'Global', { namespaceName: 'global', deriveInstallerRules: true, targetNamespaces: TargetNamespaces.allNamespaces('serves every namespace') });
  return app;
}

describe('warnings where people look', () => {
  let tmp: string;
  let stderr: jest.SpyInstance;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-warnings-'));
  });
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('TENANCY.md has a Warnings section first, WARNINGS.txt is in the GitOps tree, and synth() prints them', () => {
    const out = path.join(tmp, 'a');
    platform(out).synth();
    const md = fs.readFileSync(path.join(out, TenancyApp.REPORT_FILE), 'utf8');
    expect(md.split('\n').filter((l) => l.startsWith('## '))[0]).toEqual('## Warnings');
    const rows = md.split('## Warnings')[1].split('\n## ')[0].split('\n').filter((l) => /^\| (OLMT|[A-Z])/.test(l) && !l.startsWith('| policy'));
    const byCode = (code: string) => rows.filter((r) => r.includes(` ${code} |`) || r.startsWith(`| ${code} |`));
    expect(byCode('CrdsCreatedByOlm')).toEqual([
      '| OLMT-016 CrdsCreatedByOlm | platform/TeamA subscriptions[etcd].bundle = etcdoperator.v0.9.4 | the bundle ships CRDs, which OLM creates cluster-wide with its own '
      + 'client: one version shared by every tenant | coordinate CRD versions across tenants; acknowledge it with policyChecks: { \'OLMT-016\': PolicySeverity.OFF } |',
    ]);
    expect(byCode('AllNamespacesIncludesTenants')).toHaveLength(1);
    expect(byCode('AllNamespacesIncludesTenants')[0]).toMatch(/^\| OLMT-014 AllNamespacesIncludesTenants \| platform\/Global [^|]*\| an AllNamespaces OperatorGroup also reaches every other tenant's namespace \| [^|]+ \|$/);
    expect(byCode('ManualApprovalWithoutApprover')).toHaveLength(1);
    expect(byCode('ManualApprovalWithoutApprover')[0]).toMatch(/^\| ManualApprovalWithoutApprover \| platform\/TeamA [^|]+\| [^|]+ \| [^|]+ \|$/);

    const file = fs.readFileSync(path.join(out, TenancyApp.WARNINGS_FILE), 'utf8');
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    for (const code of ['CrdsCreatedByOlm', 'AllNamespacesIncludesTenants', 'ManualApprovalWithoutApprover']) {
      expect(file).toMatch(new RegExp(`^warning: \\[platform/[A-Za-z]+\\] .*\\(${code}(, OLMT-\\d+)?\\)$`, 'm'));
      expect(printed).toContain(`(${code}`);
    }
    expect(printed).toContain(file);
  });

  test('quiet: true (a test setting) prints nothing, but the tree still has WARNINGS.txt', () => {
    const out = path.join(tmp, 'b');
    platform(out, true).synth();
    expect(stderr).not.toHaveBeenCalled();
    expect(fs.readFileSync(path.join(out, TenancyApp.WARNINGS_FILE), 'utf8')).toContain('(CrdsCreatedByOlm, OLMT-016)');
  });

  test('the examples and the README never set quiet', () => {
    const root = path.join(__dirname, '..', '..');
    for (const f of [...fs.readdirSync(path.join(root, 'examples')).filter((x) => x.endsWith('.ts')).map((x) => path.join('examples', x)), 'README.md']) {
      expect({ f, quiet: /quiet:\s*true/.test(fs.readFileSync(path.join(root, f), 'utf8')) }).toEqual({ f, quiet: false });
    }
  });
});
