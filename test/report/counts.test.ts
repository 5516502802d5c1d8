/**
 * Issue 30, item 8: the counts the synth line and TENANCY.md state have one definition (report/counts.ts). The example
 * platform's TENANCY.md said "8 subscriptions" where the synth line said "10": the platform's own installs
 * (grafana-operator, rabbitmq-cluster-operator in chart platform-operators) are subscriptions of no tenant.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { CatalogSourceReference, OperatorSubscription, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { TenancyReport } from '../../src/report/tenancy-report';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'report-counts-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The summary row of TENANCY.md as numbers by column. */
function summaryOf(markdown: string): Record<string, string> {
  const lines = markdown.split('\n');
  const i = lines.findIndex((l) => l.startsWith('| catalogs |'));
  const heads = lines[i].split('|').slice(1, -1).map((c) => c.trim());
  const values = lines[i + 2].split('|').slice(1, -1).map((c) => c.trim());
  return Object.fromEntries(heads.map((h, k) => [h, values[k]]));
}

/** The rows of the Subscriptions table. */
function subscriptionRows(markdown: string): string[] {
  const section = markdown.split('\n## Subscriptions\n')[1].split('\n## ')[0];
  return section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| tenant |'));
}

describe('issue 30 item 8: one definition of what is counted', () => {
  test('GIVEN tenants and a subscription of no tenant THEN the synth line, TenancyReport.facts, the summary row and the table say the same number', () => {
    const outdir = path.join(tmp, 'small');
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, report: true });
    const catalog = CatalogSourceReference.fromName('curated', 'olm');
    for (const ns of ['team-a', 'team-b']) {
      const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns, createTokenSecret: false });
      t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
    }
    new OperatorSubscription(new Chart(app, 'platform'), 'grafana', { namespace: 'platform-operators', packageName: 'grafana-operator', channel: 'v5', catalog });
    app.synth();
    const markdown = fs.readFileSync(path.join(outdir, 'TENANCY.md'), 'utf8');
    expect(app.summary!.subscriptions).toEqual(3);
    expect(TenancyReport.facts(app).subscriptions).toEqual(3);
    expect(summaryOf(markdown).subscriptions).toEqual('3');
    expect(subscriptionRows(markdown)).toEqual([
      '| team-a | etcd | alpha | olm/curated | Automatic | - | - | the channel head (not known here) | no: no bundle given | - | no bundle given |',
      '| team-b | etcd | alpha | olm/curated | Automatic | - | - | the channel head (not known here) | no: no bundle given | - | no bundle given |',
      '| platform-operators (no tenant) | grafana-operator | v5 | olm/curated | Automatic | - | - | the channel head (not known here) | no: no bundle given | - '
        + '| not checked: no tenant installer |',
    ]);
    expect(summaryOf(markdown).tenants).toEqual(String(app.summary!.tenants));
  });

  test('GIVEN the example platform THEN TENANCY.md counts the subscriptions the synth line counts (10: 8 tenants\' and the platform\'s 2)', () => {
    const outdir = path.join(tmp, 'platform');
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, report: true });
    buildPlatform(app);
    app.synth();
    const markdown = fs.readFileSync(path.join(outdir, 'TENANCY.md'), 'utf8');
    const facts = TenancyReport.facts(app);
    expect(summaryOf(markdown).subscriptions).toEqual(String(app.summary!.subscriptions));
    expect(facts.subscriptions).toEqual(app.summary!.subscriptions);
    expect(subscriptionRows(markdown).length).toEqual(app.summary!.subscriptions);
    expect(summaryOf(markdown).tenants).toEqual(String(app.summary!.tenants));
    expect(TenancyApp.formatSummary(app.summary!, 'dist').split(', ').slice(0, 2)).toEqual([`${facts.tenants} tenants`, `${facts.subscriptions} subscriptions`]);
  });
});
