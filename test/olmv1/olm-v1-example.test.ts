import { Testing } from 'cdk8s';
import { crdRuleFailures, validationErrors, validator } from './helpers';
import { buildOlmV1Platform } from '../../examples/olm-v1-platform';
import { Diagnostics } from '../../src/core';

describe('examples/olm-v1-platform.ts: two teams on OLM v1', () => {
  const app = Testing.app();
  buildOlmV1Platform(app);
  const objects = app.charts.flatMap((c) => c.toJson());

  test('synthesizes without errors or warnings; every object is valid (schemas, CRD CEL rules)', () => {
    expect(validationErrors(app)).toEqual([]);
    expect(app.charts.flatMap((c) => Diagnostics.warnings(c))).toEqual([]);
    expect(validator.validateAll(objects)).toEqual([]);
    expect(objects.filter((o) => o.apiVersion === 'olm.operatorframework.io/v1').flatMap(crdRuleFailures)).toEqual([]);
  });

  test('objects per chart', () => {
    expect(app.charts.map((c) => [c.node.id, c.toJson().map((o: any) => `${o.kind}/${o.metadata.name}`)])).toEqual([
      ['olmv1-catalogs', ['ClusterCatalog/observability-curated', 'ClusterCatalog/messaging-curated']],
      ['olmv1-team-observability', [
        'ClusterRole/olmv1-team-observability-installer', 'ClusterRoleBinding/olmv1-team-observability-installer', 'Namespace/observability',
        'ValidatingAdmissionPolicy/olmv1-team-observability', 'ValidatingAdmissionPolicyBinding/olmv1-team-observability', 'ClusterExtension/observability-grafana-operator',
      ]],
      ['olmv1-team-messaging', [
        'Namespace/messaging-dev', 'ClusterRole/olmv1-team-messaging-installer', 'ClusterRoleBinding/olmv1-team-messaging-installer', 'Namespace/messaging',
        'ValidatingAdmissionPolicy/olmv1-team-messaging', 'ValidatingAdmissionPolicyBinding/olmv1-team-messaging', 'ClusterExtension/messaging-rabbitmq-cluster-operator',
      ]],
    ]);
    const ext = objects.find((o) => o.metadata.name === 'observability-grafana-operator');
    expect(ext.metadata.annotations).toEqual({
      'olm-tenancy.io/accepted-risks': 'OLMT-044 SECRETS_READ_CLUSTER_WIDE: grafana-operator reads datasource credentials from Secrets in the namespaces it serves; '
      + 'OLMT-044 WORKLOAD_WRITES: grafana-operator manages the Grafana Deployments; OLMT-044 SERVICE_UPDATE: grafana-operator manages the Grafana Services; '
      + 'OLMT-044 CONFIGMAP_UPDATE: grafana-operator manages the Grafana ConfigMaps',
    });
    expect(ext.spec.source.catalog).toEqual({
      packageName: 'grafana-operator',
      version: '>=5.24.0 <6.0.0',
      channels: ['v5'],
      selector: { matchLabels: { 'olm-tenancy.io/team': 'observability' } },
      upgradeConstraintPolicy: 'CatalogProvided',
    });
  });

  test('deterministic: two synths give byte-identical YAML', () => {
    const yaml = () => {
      const a = Testing.app();
      buildOlmV1Platform(a);
      return a.synthYaml();
    };
    expect(yaml()).toEqual(yaml());
  });
});
