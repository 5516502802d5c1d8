/**
 * Issue 42: TENANCY.md "Accepted risks", one row per decision taken by name (`Diagnostics.acceptedRisks`): the prop
 * that took it and its reason, apart from the open warnings; accepted findings print no "accept it" anywhere.
 */
import { Chart, Testing } from 'cdk8s';
import { Diagnostics, PolicySeverity, ReachCode, ScopedOperatorTenant, SensitiveGrant } from '../../src';
import { TenancyReport } from '../../src/report/tenancy-report';
import { CATALOG, ETCD, GRAFANA, GRAFANA_ISSUE15_GRANTS } from '../audit/leaky-cases';

/** grafana-operator's cluster rules opted in, etcd beside it (leaky case 3), with every kind of tenant decision. */
function tenantWithDecisions() {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterScopedInstallerRulesReason: 'grafana-operator declares clusterPermissions (PLAT-142)',
    acceptedSensitiveGrants: [{ grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: 'grafana reads datasource credentials (SEC-3)' }],
    allowedSensitiveGrants: GRAFANA_ISSUE15_GRANTS,
    acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: 'one team, one trust boundary (SEC-4)' }],
    policyChecks: { 'OLMT-016': PolicySeverity.OFF, 'OLMT-014': PolicySeverity.ERROR },
  });
  tenant.subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: GRAFANA });
  tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  return { app, tenant };
}

describe('Diagnostics.acceptedRisks', () => {
  test('GIVEN a tenant that accepted a reach, sensitive grants by name and without a reason, cluster rules and a lowered check THEN one row per decision', () => {
    const { app, tenant } = tenantWithDecisions();
    const risks = Diagnostics.acceptedRisks(app);
    expect(risks.map((r) => [r.constructPath, r.acceptedBy, r.policyId, r.reason])).toEqual([
      ['platform/TeamA', 'acceptedReach', 'OLMT-023', 'one team, one trust boundary (SEC-4)'],
      ['platform/TeamA', 'acceptedReach', 'OLMT-023', 'one team, one trust boundary (SEC-4)'],
      ['platform/TeamA', 'acceptedSensitiveGrants', 'OLMT-003', 'grafana reads datasource credentials (SEC-3)'],
      ['platform/TeamA', 'allowedSensitiveGrants', 'OLMT-003', ''],
      ['platform/TeamA', 'allowedSensitiveGrants', 'OLMT-003', ''],
      ['platform/TeamA', 'allowedSensitiveGrants', 'OLMT-003', ''],
      ['platform/TeamA', 'clusterScopedInstallerRulesReason', 'OLMT-006', 'grafana-operator declares clusterPermissions (PLAT-142)'],
      // raising OLMT-014 to ERROR is no acceptance
      ['platform/TeamA', "policyChecks['OLMT-016']", 'OLMT-016', ''],
    ]);
    // where the grant is held, and what it allows in the words of the sensitive-grant registry (InstallerRuleChecks)
    const secrets = tenant.sensitiveGrants.find((g) => g.grant === SensitiveGrant.SECRETS_READ_CLUSTER_WIDE)!;
    expect(secrets.what).toMatch(/^'get'\/'list'\/'watch' on secrets in every namespace/);
    expect(risks.find((r) => r.acceptedBy === 'acceptedSensitiveGrants')!.what)
      .toBe(`SensitiveGrant.SECRETS_READ_CLUSTER_WIDE held by ClusterRole team-a-olm-installer (cluster-wide): ${secrets.what}`);
    expect(risks.find((r) => r.acceptedBy.startsWith('policyChecks'))!.what)
      .toBe('OLMT-016 CrdsCreatedByOlm lowered from WARNING to OFF: the bundle ships CRDs, which OLM creates cluster-wide with its own client: one version shared by every tenant');
    for (const r of risks) expect(r.what).not.toMatch(/accept it/);
  });

  test('GIVEN the same App THEN TENANCY.md lists them under Accepted risks, keeps them out of the Warnings, and WARNINGS.txt prints the accepted findings last, without a fix', () => {
    const { app } = tenantWithDecisions();
    const md = TenancyReport.markdown(app);
    const section = (name: string) => md.split(`\n## ${name}\n`)[1].split('\n## ')[0];
    const rows = section('Accepted risks').split('\n').filter((l) => l.startsWith('| platform/'));
    expect(rows.map((l) => l.split(' | ').slice(1, 2).concat(l.split(' | ').slice(-1)))).toEqual([
      ['`acceptedReach`', 'one team, one trust boundary (SEC-4) |'],
      ['`acceptedReach`', 'one team, one trust boundary (SEC-4) |'],
      ['`acceptedSensitiveGrants`', 'grafana reads datasource credentials (SEC-3) |'],
      ['`allowedSensitiveGrants`', 'none given (the prop takes none) |'],
      ['`allowedSensitiveGrants`', 'none given (the prop takes none) |'],
      ['`allowedSensitiveGrants`', 'none given (the prop takes none) |'],
      ['`clusterScopedInstallerRulesReason`', 'grafana-operator declares clusterPermissions (PLAT-142) |'],
      ["`policyChecks['OLMT-016']`", 'none given (the prop takes none) |'],
    ]);
    expect(section('Warnings')).not.toContain('IdentityCanAssumeInstaller');
    expect(md).not.toMatch(/accept it/);
    const report = Diagnostics.report(app).split('\n');
    const accepted = report.filter((l) => l.startsWith('accepted: '));
    expect(accepted.map((l) => / Accepted with (\w+): (.*) \((\w+), (OLMT-\d+)\)$/.exec(l)!.slice(1))).toEqual([
      ['acceptedReach', 'one team, one trust boundary (SEC-4)', 'IdentityCanAssumeInstaller', 'OLMT-023'],
      ['acceptedReach', 'one team, one trust boundary (SEC-4)', 'IdentityCanAssumeInstaller', 'OLMT-023'],
    ]);
    expect(report.slice(-accepted.length)).toEqual(accepted);
    expect(accepted.join('\n')).not.toMatch(/Fix:|accept it/);
  });

  test('GIVEN nothing accepted THEN the section says so', () => {
    const chart = new Chart(Testing.app(), 'c');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    expect(Diagnostics.acceptedRisks(chart)).toEqual([]);
    expect(TenancyReport.markdown(chart)).toContain('\n## Accepted risks\n\nNo risk was accepted by name.\n');
  });
});
