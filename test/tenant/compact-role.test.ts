import { Testing } from 'cdk8s';
import { CompactClusterRole, CompactRole } from '../../src';

describe('CompactRole', () => {
  test('GIVEN equal rules added after construction THEN one merged rule is rendered', () => {
    const chart = Testing.chart();
    const role = new CompactRole(chart, 'R', { name: 'r', namespace: 'ns', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    role.addRules({ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'], resourceNames: ['web'] });
    expect(Testing.synth(chart)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'r', namespace: 'ns' },
        rules: [
          { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
          { apiGroups: ['apps'], resourceNames: ['web'], resources: ['deployments'], verbs: ['get'] },
        ],
      },
    ]);
    expect(role.rawRules).toHaveLength(3);
  });
});

describe('CompactClusterRole', () => {
  test('GIVEN a non-resource rule THEN nonResourceURLs is written with the Kubernetes spelling', () => {
    const chart = Testing.chart();
    new CompactClusterRole(chart, 'R', { name: 'r', rules: [{ nonResourceUrls: ['/healthz'], verbs: ['get'] }], annotations: { why: 'probe' } });
    expect(Testing.synth(chart)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'r', annotations: { why: 'probe' } },
        rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      },
    ]);
  });
});
