/**
 * Issue 38: warnings that stay readable at scale. A finding shared by many constructs names a few of them on the
 * terminal and counts the rest (`tenant-0/Tenant, tenant-1/Tenant, tenant-10/Tenant, ... and 4,997 more`); WARNINGS.txt
 * and `Diagnostics.report` still list every path; no line printed is longer than a screen (80 x 24 characters), and
 * the summary stays one line.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { CatalogSourceReference, Diagnostics, OperatorBundle, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { addWarningProducer, warningReports } from '../../src/core/diagnostics';
import { stderrOf } from '../util/stderr';

const SCREEN = 80 * 24;
const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const CRDS_BY_OLM = 'subscriptions[etcd].bundle="etcdoperator.v0.9.4": OLM creates its 3 CRD(s) cluster-wide with its own client: one version for '
  + 'every tenant. Fix: coordinate CRD versions across tenants; acknowledge it with policyChecks: { \'OLMT-016\': PolicySeverity.OFF } (CrdsCreatedByOlm, OLMT-016)';

/** A TenancyApp whose constructs `team-<i>/Tenant` each report `finding` (no tenants: cheap at 5,000). */
function appWith(outdir: string, count: number, finding: { code: string; field?: string; value?: string; message: string; fix?: string },
  layout = OutputLayout.GITOPS): TenancyApp {
  const app = new TenancyApp({ outdir, layout });
  new ApiObject(new Chart(app, 'platform'), 'Marker', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'marker', namespace: 'platform' } });
  for (let i = 0; i < count; i++) addWarningProducer(new Construct(new Construct(app, `team-${i}`), 'Tenant'), () => [finding]);
  return app;
}

/** What `synth()` printed, line by line. */
function printed(app: TenancyApp): string[] {
  return stderrOf(() => app.synth()).split('\n');
}

describe('warnings at scale (issue 38)', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-warnings-scale-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('GIVEN 5,000 constructs reporting one finding THEN stderr names three and counts 4,997; WARNINGS.txt and Diagnostics.report list all 5,000', () => {
    const outdir = path.join(tmp, 'five-thousand');
    const app = appWith(outdir, 5000, { code: 'SharedBundle', field: 'subscriptions[etcd].bundle', value: 'etcdoperator.v0.9.4', message: 'shared by every tenant' });
    const lines = printed(app);
    expect(lines).toEqual([
      'warning: [team-0/Tenant, team-1/Tenant, team-10/Tenant, ... and 4,997 more] subscriptions[etcd].bundle="etcdoperator.v0.9.4": shared by every tenant. (SharedBundle)',
      `(warnings shortened above; every path and the whole text: ${outdir}/WARNINGS.txt)`,
      `0 tenants, 0 subscriptions, 1 object in ${lines[2].replace(/^.* in /, '').replace(/ s -> .*$/, '')} s -> ${outdir}/`,
      '',
    ]);
    const all = Array.from({ length: 5000 }, (_, i) => `team-${i}/Tenant`).sort();
    const full = `warning: [${all.join(', ')}] subscriptions[etcd].bundle="etcdoperator.v0.9.4": shared by every tenant. (SharedBundle)`;
    expect(fs.readFileSync(path.join(outdir, TenancyApp.WARNINGS_FILE), 'utf8')).toEqual(`${full}\n`);
    expect(Diagnostics.report(app)).toEqual(full);
  });

  test('GIVEN five tenants on one bundle THEN the printed OLMT-016 warning names three and counts two, exactly; the file lists all five', () => {
    const outdir = path.join(tmp, 'five-tenants');
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS });
    const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
    for (let i = 0; i < 5; i++) {
      new ScopedOperatorTenant(new Chart(app, `tenant-${i}`), 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true })
        .subscribe({ packageName: 'etcd', catalog, bundle: ETCD });
    }
    const lines = printed(app);
    expect(lines.slice(0, 2)).toEqual([
      `warning: [tenant-0/Tenant, tenant-1/Tenant, tenant-2/Tenant, ... and 2 more] ${CRDS_BY_OLM}`,
      `(warnings shortened above; every path and the whole text: ${outdir}/WARNINGS.txt)`,
    ]);
    expect(lines[2]).toMatch(new RegExp(`^5 tenants, 5 subscriptions, 35 objects in \\d+\\.\\d s -> ${outdir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$`));
    expect(lines.slice(3)).toEqual(['']);
    expect(fs.readFileSync(path.join(outdir, TenancyApp.WARNINGS_FILE), 'utf8')).toEqual(
      `warning: [tenant-0/Tenant, tenant-1/Tenant, tenant-2/Tenant, tenant-3/Tenant, tenant-4/Tenant] ${CRDS_BY_OLM}\n`);
  });

  test('GIVEN four constructs THEN all four are named (never "... and 1 more"), and stderr is the file', () => {
    const outdir = path.join(tmp, 'four');
    const app = appWith(outdir, 4, { code: 'Few', message: 'four of them' });
    const lines = printed(app);
    expect(lines[0]).toEqual('warning: [team-0/Tenant, team-1/Tenant, team-2/Tenant, team-3/Tenant]: four of them. (Few)');
    expect(lines[1]).toMatch(/^0 tenants, 0 subscriptions, 1 object in /);
    expect(fs.readFileSync(path.join(outdir, TenancyApp.WARNINGS_FILE), 'utf8')).toEqual(`${lines[0]}\n`);
    expect(warningReports(app)).toEqual({ full: lines[0], short: lines[0], shortened: false });
  });

  test('GIVEN a finding longer than a screen THEN the printed line is cut to a screen, saying how much is left out; the file keeps it whole', () => {
    const outdir = path.join(tmp, 'long');
    const message = `a long explanation ${'x'.repeat(5000)}`;
    const app = appWith(outdir, 1, { code: 'Long', field: 'f', value: 'v', message, fix: 'shorten it' });
    const whole = `warning: [team-0/Tenant] f="v": ${message}. Fix: shorten it (Long)`;
    const lines = printed(app);
    const left = whole.length - (SCREEN - `... (${whole.length} more characters)`.length);
    expect(lines[0]).toEqual(`${whole.slice(0, whole.length - left)}... (${left} more characters)`);
    expect(lines[0].length).toBeLessThanOrEqual(SCREEN);
    expect(lines[1]).toEqual(`(warnings shortened above; every path and the whole text: ${outdir}/WARNINGS.txt)`);
    expect(fs.readFileSync(path.join(outdir, TenancyApp.WARNINGS_FILE), 'utf8')).toEqual(`${whole}\n`);
  });

  test('GIVEN the default layout (no WARNINGS.txt) THEN the note says where every path is: Diagnostics.report(app)', () => {
    const outdir = path.join(tmp, 'file-per-chart');
    const app = appWith(outdir, 6, { code: 'Six', message: 'six of them' }, OutputLayout.FILE_PER_CHART);
    const lines = printed(app);
    expect(lines.slice(0, 2)).toEqual([
      'warning: [team-0/Tenant, team-1/Tenant, team-2/Tenant, ... and 3 more]: six of them. (Six)',
      '(warnings shortened above; every path and the whole text: Diagnostics.report(app))',
    ]);
    expect(fs.existsSync(path.join(outdir, TenancyApp.WARNINGS_FILE))).toBe(false);
  });

  test('GIVEN a warning producer that throws THEN synth() throws its error, unless a validation failed: then the validation error, as before', () => {
    const broken = (outdir: string) => {
      const app = new TenancyApp({ outdir, quiet: true, layout: OutputLayout.GITOPS });
      addWarningProducer(new Construct(app, 'Broken'), () => {
        throw new Error('producer failed');
      });
      return app;
    };
    expect(() => broken(path.join(tmp, 'broken')).synth()).toThrow('producer failed');
    const app = broken(path.join(tmp, 'broken-and-invalid'));
    new Construct(app, 'Invalid').node.addValidation({ validate: () => ['this is wrong'] });
    expect(() => app.synth()).toThrow('Validation failed with the following errors:\n  [Invalid] this is wrong');
  });

  test('the summary stays one line: control characters in the output directory are escaped, a very long one is cut', () => {
    const summary = { tenants: 1, subscriptions: 1, objects: 8, milliseconds: 1234 };
    expect(TenancyApp.formatSummary(summary, 'out\nput')).toEqual('1 tenant, 1 subscription, 8 objects in 1.2 s -> out\\nput/');
    const long = `/${'d'.repeat(400)}`;
    // the folder is shown with its trailing slash: 402 characters, 300 shown
    const line = TenancyApp.formatSummary(summary, long);
    expect(line).toEqual(`1 tenant, 1 subscription, 8 objects in 1.2 s -> ${long.slice(0, 300)}... (102 more characters)`);
  });
});
