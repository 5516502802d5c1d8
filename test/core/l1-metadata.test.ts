/**
 * Issue 17: the library's L1 objects get metadata with every key cdk8s's metadata rendering sets (empty annotations,
 * labels, finalizers and ownerReferences), so cdk8s renders them without new hidden classes on Node 20. The rendered
 * objects must be exactly those of the plain metadata.
 */
import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { l1Metadata } from '../../src/core/l1-metadata';
import { OperatorGroup, Subscription } from '../../src/imports/olm';

describe('l1Metadata', () => {
  test('GIVEN name and namespace only THEN every key cdk8s renders, empty', () => {
    expect(l1Metadata({ name: 'a', namespace: 'ns' })).toEqual({
      name: 'a', namespace: 'ns', labels: {}, annotations: {}, finalizers: [], ownerReferences: [],
    });
    expect(Object.keys(l1Metadata({}))).toEqual(['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences']);
    expect(l1Metadata({ name: 'a', labels: { x: 'y' }, annotations: { n: 'v' } })).toEqual({
      name: 'a', namespace: undefined, labels: { x: 'y' }, annotations: { n: 'v' }, finalizers: [], ownerReferences: [],
    });
  });

  const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
  const map = fc.option(fc.dictionary(word, word, { maxKeys: 3 }), { nil: undefined });
  const input = fc.record({ name: word, namespace: fc.option(word, { nil: undefined }), labels: map, annotations: map });
  const strip = (m: { name?: string; namespace?: string; labels?: any; annotations?: any }) => ({
    name: m.name,
    ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
    ...(m.labels !== undefined ? { labels: m.labels } : {}),
    ...(m.annotations !== undefined ? { annotations: m.annotations } : {}),
  });

  test('property (seed 19): cdk8s-plus L1 objects render the same JSON as with the plain metadata', () => {
    fc.assert(fc.property(input, fc.boolean(), (m, chartLabels) => {
      const app = Testing.app();
      const chart = new Chart(app, 'c', chartLabels ? { labels: { team: 'a' } } : {});
      const pairs = [
        [new k8s.KubeNamespace(chart, 'N1', { metadata: strip(m) }), new k8s.KubeNamespace(chart, 'N2', { metadata: l1Metadata(m) })],
        [new k8s.KubeServiceAccount(chart, 'S1', { metadata: strip(m) }), new k8s.KubeServiceAccount(chart, 'S2', { metadata: l1Metadata(m) })],
        [new k8s.KubeRole(chart, 'R1', { metadata: strip(m), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
          new k8s.KubeRole(chart, 'R2', { metadata: l1Metadata(m), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] })],
        [new OperatorGroup(chart, 'G1', { metadata: strip(m), spec: { targetNamespaces: ['x'] } }), new OperatorGroup(chart, 'G2', { metadata: l1Metadata(m), spec: { targetNamespaces: ['x'] } })],
        [new Subscription(chart, 'U1', { metadata: strip(m), spec: { name: 'p', source: 's', sourceNamespace: 'olm' } }),
          new Subscription(chart, 'U2', { metadata: l1Metadata(m), spec: { name: 'p', source: 's', sourceNamespace: 'olm' } })],
      ];
      for (const [plain, full] of pairs) {
        expect(JSON.stringify(full.toJson())).toEqual(JSON.stringify(plain.toJson()));
        // metadata added later renders the same way too
        plain.metadata.addAnnotation('later', 'x');
        full.metadata.addAnnotation('later', 'x');
        plain.metadata.addLabel('l', 'y');
        full.metadata.addLabel('l', 'y');
        expect(JSON.stringify(full.toJson())).toEqual(JSON.stringify(plain.toJson()));
      }
    }), { seed: 19, numRuns: 60 });
  });
});
