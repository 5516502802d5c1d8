import { Testing } from 'cdk8s';
import { buildUpgradeTenant } from '../../examples/upgrade-demo';
import { DeriveScope, UpgradeAnalysis } from '../../src';

describe('examples/upgrade-demo.ts: the allowed upgrade 0.47.0 -> 0.56.3', () => {
  test('GIVEN deriveScope PINNED_VERSION THEN synth fails naming the edge and prometheuses/status', () => {
    const app = Testing.app();
    buildUpgradeTenant(app, DeriveScope.PINNED_VERSION);
    expect(() => app.synth()).toThrow(
      /subscriptions\[prometheus\]\.upgradeGraph="prometheusoperator\.0\.47\.0 -> prometheusoperator\.0\.56\.3".*Resources:\[prometheuses\/status\] Verbs:\[\*\].*\(UpgradeWouldFail\)/,
    );
  });

  test('GIVEN deriveScope ALLOWED_UPGRADES THEN it synthesizes, with the pinned approver and the upgrade report', () => {
    const app = Testing.app();
    const tenant = buildUpgradeTenant(app, DeriveScope.ALLOWED_UPGRADES);
    const objects = Testing.synth(tenant.node.scope as any);
    // (issue 15 item 10: the approver runs in the platform namespace; its Role and RoleBinding are in the tenant namespace)
    expect(objects.filter((o) => o.metadata.name.startsWith('installplan-approver')).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//installplan-approvers',
      'ServiceAccount/installplan-approvers/installplan-approver-team-monitoring',
      'Role/team-monitoring/installplan-approver',
      'RoleBinding/team-monitoring/installplan-approver',
      'ConfigMap/installplan-approvers/installplan-approver-team-monitoring',
      'CronJob/installplan-approvers/installplan-approver-team-monitoring',
    ]);
    expect(UpgradeAnalysis.format(tenant.upgrades()[0], 'team-monitoring')).toEqual([
      'prometheus (channel beta) from prometheusoperator.0.47.0 within >=0.47.0: 1 allowed upgrade(s), all pass the preflight',
      'prometheusoperator.0.47.0 -> prometheusoperator.0.56.3 (replaces, preferred by OLM): upgrades',
      '  + Namespace:"team-monitoring" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*]',
    ]);
    expect(() => app.synth()).not.toThrow();
  });
});
