/**
 * Issue 30 item 11: OLMT-016 CrdsCreatedByOlm is true of almost every bundle. It is one short line per bundle (every
 * tenant installing the bundle shares it in WARNINGS.txt), its fix says how to acknowledge it (policyChecks OFF), and
 * acknowledged it is gone. The preflight result (API, CLI) keeps naming the CRDs.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, Diagnostics, InstallPlanApproval, InstallPreflight, OperatorBundle, PolicySeverity, ScopedOperatorTenant, ScopedOperatorTenantProps, Severity } from '../../src';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const FIX = "coordinate CRD versions across tenants; acknowledge it with policyChecks: { 'OLMT-016': PolicySeverity.OFF }";

function platform(teams: string[], props: Partial<ScopedOperatorTenantProps> = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  for (const team of teams) {
    const tenant = new ScopedOperatorTenant(chart, team, { namespaceName: team, deriveInstallerRules: true, ...props });
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CatalogSourceReference.fromName('curated', 'olm'), installPlanApproval: InstallPlanApproval.AUTOMATIC, startingCsv: ETCD.name, bundle: ETCD });
  }
  return app;
}

describe('OLMT-016 CrdsCreatedByOlm: one short line per bundle, acknowledged with policyChecks', () => {
  test('the finding: the count, no CRD names, the way to acknowledge it', () => {
    const crds = Diagnostics.warnings(platform(['team-a'])).filter((d) => d.code === 'CrdsCreatedByOlm');
    expect(crds).toEqual([{
      severity: Severity.WARNING,
      constructPath: 'platform/team-a',
      policyId: 'OLMT-016',
      code: 'CrdsCreatedByOlm',
      field: 'subscriptions[etcd].bundle',
      value: 'etcdoperator.v0.9.4',
      message: 'OLM creates its 3 CRD(s) cluster-wide with its own client: one version for every tenant',
      fix: FIX,
    }]);
  });

  test('three tenants installing the bundle share one line of WARNINGS.txt, under 300 characters after the paths', () => {
    const lines = Diagnostics.report(platform(['team-a', 'team-b', 'team-c'])).split('\n').filter((l) => l.includes('CrdsCreatedByOlm'));
    expect(lines).toEqual([
      'warning: [platform/team-a, platform/team-b, platform/team-c] subscriptions[etcd].bundle="etcdoperator.v0.9.4": OLM creates its 3 CRD(s) cluster-wide with its own '
      + `client: one version for every tenant. Fix: ${FIX} (CrdsCreatedByOlm, OLMT-016)`,
    ]);
    expect(lines[0].replace(/^warning: \[[^\]]*\] /, '').length).toBeLessThan(300);
  });

  test("policyChecks: { 'OLMT-016': PolicySeverity.OFF } acknowledges it (the tenant's other warnings stay)", () => {
    const app = platform(['team-a'], { policyChecks: { 'OLMT-016': PolicySeverity.OFF } });
    expect(Diagnostics.warnings(app).map((d) => d.code)).toEqual(['StartingCsvWithAutomaticApproval']);
    expect(Diagnostics.warnings(platform(['team-a'])).map((d) => d.code)).toEqual(['CrdsCreatedByOlm', 'StartingCsvWithAutomaticApproval']);
  });

  test('the preflight result keeps the CRD names (InstallPreflight.check, the CLI)', () => {
    const r = InstallPreflight.check({ bundle: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] });
    expect(r.warnings.filter((w) => w.code === 'CrdsCreatedByOlm')).toEqual([{
      code: 'CrdsCreatedByOlm',
      message: 'etcdoperator.v0.9.4: OLM creates or updates 3 CRD(s) with its own cluster-admin client, not the installer (catalog operator ExecutePlan): '
        + 'etcdbackups.etcd.database.coreos.com, etcdclusters.etcd.database.coreos.com, etcdrestores.etcd.database.coreos.com. CRDs are cluster-wide: every tenant shares one version of them.',
    }]);
  });
});
