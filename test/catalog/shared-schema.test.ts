// Every object the catalog constructs synthesize, through the project's shared validator (test/util): CRD schemas,
// core kinds, ObjectMeta rules and the API server's ValidatingAdmissionPolicy checks.
import { Testing } from 'cdk8s';
import { appAndChart, FakeTenant } from './helpers';
import { CuratedCatalog, CuratedCatalogAdmissionPolicy, OpenShiftOperatorHubPolicy, UpstreamOlmCatalogPolicy } from '../../src/catalog';
import * as olm from '../../src/imports/olm';
import { SchemaValidator } from '../util/schema-validator';

describe('catalog objects pass the shared schema validator', () => {
  test('CuratedCatalog, its admission policy, and both default-catalog policies', () => {
    // GIVEN
    const { chart } = appAndChart();
    const tenants = ['team-a', 'team-b', 'team-c'].map((ns) => new FakeTenant(chart, ns, ns));
    const catalog = new CuratedCatalog(chart, 'Curated', {
      image: 'registry.example.com/curated/operators:v1',
      packages: [{ name: 'etcd', channels: [{ name: 'stable' }] }, { name: 'cert-manager' }],
      registryPollInterval: '1h30m',
      secrets: ['pull'],
      priority: -100,
      publisher: 'Platform',
      grpcPodConfig: {
        nodeSelector: { 'node-role.kubernetes.io/infra': '' },
        tolerations: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' }],
        memoryTarget: olm.CatalogSourceSpecGrpcPodConfigMemoryTarget.fromString('64Mi'),
      },
      tenants,
    });
    new CuratedCatalogAdmissionPolicy(chart, 'Enforce', { catalog });
    new OpenShiftOperatorHubPolicy(chart, 'Hub', { keepEnabled: ['redhat-operators'] });
    // a second App for the upstream policy (only one default-catalog owner per App)
    const { chart: upstream } = appAndChart();
    new UpstreamOlmCatalogPolicy(upstream, 'Defaults', { denyRecreation: true });
    // WHEN
    const objs = [...Testing.synth(chart), ...Testing.synth(upstream)];
    // THEN
    expect(objs.map((o) => o.kind)).toEqual([
      'CatalogSource',
      'CatalogSource',
      'CatalogSource',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
      'OperatorHub',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(SchemaValidator.shared().validateAll(objs)).toEqual([]);
  });
});
