/**
 * Codes no other test raised (test/core/diagnostic-codes.test.ts lists the ones still not raised): each raised here by
 * the smallest input that triggers it, with the exact finding.
 */
import * as path from 'path';
import { Testing } from 'cdk8s';
import { ServiceExternalIpsAdmissionPolicy } from '../../src/blueprint/service-external-ips-admission-policy';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CatalogSourceReference } from '../../src/catalog/catalog-source-reference';
import { CODE } from '../../src/core/diagnostic-codes';
import { InputCheck } from '../../src/core/input-check';
import { PolicyChecks, PolicySeverity } from '../../src/core/policy-checks';
import { OperatorSubscription } from '../../src/tenant/subscriptions/operator-subscription';
import { UpgradeGraph } from '../../src/upgrade/upgrade-graph';

const ETCD = path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4');

describe('codes raised by the smallest input', () => {
  test('UnknownPolicySeverity: a policyChecks value that is not a PolicySeverity', () => {
    expect(PolicyChecks.overrideProblems({ 'OLMT-006': 'LOUD' as PolicySeverity }, 'policyChecks').map((d) => [d.code, d.field, d.value]))
      .toEqual([[CODE.UnknownPolicySeverity, 'policyChecks[OLMT-006]', 'LOUD']]);
  });

  test('UpgradeBundlesWithoutBundle: upgrade bundles without the bundle installed first', () => {
    const chart = Testing.chart();
    const sub = new OperatorSubscription(chart, 'S', {
      namespace: 'team-a', packageName: 'etcd', catalog: CatalogSourceReference.fromName('c', 'olm'), upgradeBundles: [OperatorBundle.fromDirectory(ETCD)],
    });
    expect(sub.node.validate().filter((e) => e.endsWith(`(${CODE.UpgradeBundlesWithoutBundle})`)).length).toEqual(1);
  });

  test('ServiceExternalIpsPolicyWithoutNamespaces: the policy given no namespace', () => {
    const chart = Testing.chart();
    const policy = new ServiceExternalIpsAdmissionPolicy(chart, 'P');
    expect(policy.node.validate().map((e) => /\((\w+)\)$/.exec(e)?.[1])).toEqual([CODE.ServiceExternalIpsPolicyWithoutNamespaces]);
  });

  test('InvalidLabelOrAnnotation: a label key the API server refuses', () => {
    const check = new InputCheck();
    check.optionalStringMap('labels', { 'bad key!': 'x' }, 'labels');
    expect(check.errors.map((d) => [d.code, d.field, d.value])).toEqual([[CODE.InvalidLabelOrAnnotation, 'labels', 'bad key!']]);
  });

  test('UpgradeGraphProblem: an upgrade graph whose channel OLM reads with a problem (a skipRange blang/semver cannot parse)', () => {
    const chart = Testing.chart();
    const upgradeGraph = new UpgradeGraph({
      packageName: 'foo',
      channel: 'stable',
      entries: [{ name: 'foo.v1.0.0', version: '1.0.0' }, { name: 'foo.v1.1.0', version: '1.1.0', replaces: 'foo.v1.0.0', skipRange: '~1.0.0' }],
    });
    const sub = new OperatorSubscription(chart, 'S', {
      namespace: 'team-a', packageName: 'foo', channel: 'stable', catalog: CatalogSourceReference.fromName('c', 'olm'), upgradeGraph,
    });
    expect(sub.node.validate().filter((e) => e.endsWith(`(${CODE.UpgradeGraphProblem})`)).length).toEqual(1);
  });
});
