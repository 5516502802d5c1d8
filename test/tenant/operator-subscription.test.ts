import { Testing } from 'cdk8s';
import { CatalogSourceReference, InstallPlanApproval, OperatorSubscription } from '../../src';

describe('OperatorSubscription', () => {
  test('GIVEN only package and catalog THEN name defaults to the package and approval to Automatic', () => {
    const chart = Testing.chart();
    const sub = new OperatorSubscription(chart, 'S', {
      namespace: 'team-a',
      packageName: 'cert-manager',
      catalog: CatalogSourceReference.fromName('community-operators', 'openshift-marketplace'),
    });
    expect(Testing.synth(chart)).toEqual([
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'cert-manager', namespace: 'team-a' },
        spec: { installPlanApproval: 'Automatic', name: 'cert-manager', source: 'community-operators', sourceNamespace: 'openshift-marketplace' },
      },
    ]);
    expect(sub.info).toEqual({
      name: 'cert-manager',
      namespace: 'team-a',
      packageName: 'cert-manager',
      channel: undefined,
      sourceName: 'community-operators',
      sourceNamespace: 'openshift-marketplace',
      installPlanApproval: InstallPlanApproval.AUTOMATIC,
      startingCsv: undefined,
      constructPath: 'test/S',
    });
  });

  test('GIVEN an empty startingCsv THEN an error names the field and the fix', () => {
    const chart = Testing.chart();
    const sub = new OperatorSubscription(chart, 'S', { namespace: 'ns', packageName: 'etcd', startingCsv: ' ', catalog: CatalogSourceReference.fromName('c', 'olm') });
    expect(sub.node.validate()).toEqual([
      "startingCsv=\" \": startingCsv is empty. Fix: name a CSV (e.g. 'etcdoperator.v0.9.4') or leave `startingCsv` out (EmptyStartingCsv)",
    ]);
  });
});
