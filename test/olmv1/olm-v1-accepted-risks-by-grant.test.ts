/**
 * Issue 30 item 10: OLM v1 accepted risks per grant. A sensitive grant (OLMT-044) is accepted by name, each with its
 * reason (`{ check: 'OLMT-044', grant: SensitiveGrant.X, reason }`), as v0's acceptedSensitiveGrants; one entry without
 * a grant no longer accepts several different grants under one reason (AcceptedRiskNeedsGrant, one error naming them),
 * and still accepts an extension's one remaining grant.
 */
import * as path from 'path';
import { appAndChart, validationErrors } from './helpers';
import { SensitiveGrant } from '../../src/audit';
import { OperatorBundle } from '../../src/bundle';
import { CuratedClusterCatalog, OlmV1AcceptedRisk, OlmV1Team } from '../../src/olmv1';

const GRAFANA = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'grafana-operator', '5.24.0'));
const GRANTS = [
  SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE,
];
const SA = 'ServiceAccount team-x/grafana-operator-controller-manager';

function grafana(acceptedRisks: OlmV1AcceptedRisk[]) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-x', image: 'registry.example.com/catalogs/team-x:v1', team: 'team-x', pollIntervalMinutes: 30 });
  const t = new OlmV1Team(chart, 'T', {
    team: 'team-x',
    groups: ['team-x-admins'],
    namespaces: ['team-x'],
    catalog,
    allowedPackages: [{ name: 'grafana-operator' }],
    extensions: [{ packageName: 'grafana-operator', namespace: 'team-x', bundles: [GRAFANA], acceptedRisks }],
  });
  const errors = validationErrors(app).map((e) => e.replace(/^\[platform\/T\] /, ''));
  const ext = t.node.findAll().find((c: any) => c.kind === 'ClusterExtension') as any;
  return { errors, annotations: errors.length === 0 ? ext.toJson().metadata.annotations : undefined };
}
const byName = (grant: SensitiveGrant, reason = `reviewed ${grant}`): OlmV1AcceptedRisk => ({ check: 'OLMT-044', grant, reason });

describe('OLM v1 acceptedRisks: sensitive grants accepted by name', () => {
  test('one OLMT-044 entry for the four grants of grafana-operator 5.24.0: one error naming them and the entries to write', () => {
    expect(grafana([{ check: 'OLMT-044', reason: 'grafana manages its objects' }]).errors).toEqual([
      'extensions[team-x-grafana-operator].acceptedRisks[OLMT-044]="grafana manages its objects": one OLMT-044 entry would accept 4 different sensitive grants under one reason '
      + '(SECRETS_READ_CLUSTER_WIDE, WORKLOAD_WRITES, SERVICE_UPDATE, CONFIGMAP_UPDATE): each is accepted by name. Fix: accept each grant with its own reason: acceptedRisks: '
      + "[{ check: 'OLMT-044', grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: '...' }, { check: 'OLMT-044', grant: SensitiveGrant.WORKLOAD_WRITES, reason: '...' }, "
      + "{ check: 'OLMT-044', grant: SensitiveGrant.SERVICE_UPDATE, reason: '...' }, { check: 'OLMT-044', grant: SensitiveGrant.CONFIGMAP_UPDATE, reason: '...' }] (AcceptedRiskNeedsGrant)",
    ]);
  });

  test('each grant by name: accepted, every reason on the ClusterExtension; a grant left out is its own error naming it', () => {
    expect(grafana(GRANTS.map((g) => byName(g)))).toEqual({
      errors: [],
      annotations: {
        'olm-tenancy.io/accepted-risks': 'OLMT-044 SECRETS_READ_CLUSTER_WIDE: reviewed SECRETS_READ_CLUSTER_WIDE; OLMT-044 WORKLOAD_WRITES: reviewed WORKLOAD_WRITES; '
          + 'OLMT-044 SERVICE_UPDATE: reviewed SERVICE_UPDATE; OLMT-044 CONFIGMAP_UPDATE: reviewed CONFIGMAP_UPDATE',
      },
    });
    expect(grafana(GRANTS.slice(0, 3).map((g) => byName(g))).errors).toEqual([
      `extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="${SA}": ${SA} gets 'update'/'patch' on configmaps in every namespace (CONFIGMAP_UPDATE): `
      + 'operator-controller applies grafana-operator.v5.24.0 with cluster-admin when team team-x installs grafana-operator. Fix: pick another package or version, or accept it: '
      + "acceptedRisks: [{ check: 'OLMT-044', grant: SensitiveGrant.CONFIGMAP_UPDATE, reason }] (OlmV1ExtensionSensitiveGrant, OLMT-044)",
    ]);
  });

  test('the old form (no grant) still accepts the one grant the named entries leave', () => {
    const r = grafana([...GRANTS.slice(0, 3).map((g) => byName(g)), { check: 'OLMT-044', reason: 'grafana manages its ConfigMaps' }]);
    expect(r.errors).toEqual([]);
    expect(r.annotations['olm-tenancy.io/accepted-risks']).toEqual('OLMT-044 SECRETS_READ_CLUSTER_WIDE: reviewed SECRETS_READ_CLUSTER_WIDE; '
      + 'OLMT-044 WORKLOAD_WRITES: reviewed WORKLOAD_WRITES; OLMT-044 SERVICE_UPDATE: reviewed SERVICE_UPDATE; OLMT-044: grafana manages its ConfigMaps');
  });

  test('a grant under another check, an unknown grant and an empty reason are errors naming the entry', () => {
    expect(grafana([...GRANTS.map((g) => byName(g)), { check: 'OLMT-047', grant: SensitiveGrant.POD_EXEC, reason: 'r' }]).errors).toEqual([
      'extensions[team-x-grafana-operator].acceptedRisks[OLMT-047 POD_EXEC]="POD_EXEC": a grant is accepted by name under OLMT-044 (sensitive grants) only, not OLMT-047. '
      + "Fix: use check: 'OLMT-044' for SensitiveGrant.POD_EXEC, or drop grant (InvalidAcceptedRisk)",
    ]);
    const unknown = grafana([...GRANTS.map((g) => byName(g)), { check: 'OLMT-044', grant: 'SECRETS' as SensitiveGrant, reason: 'r' }]).errors;
    expect(unknown.map((e) => e.slice(e.lastIndexOf('(')))).toEqual(['(InvalidEnumValue)']);
    expect(unknown[0]).toMatch(/^extensions\[0\]\.acceptedRisks\[4\]\.grant="SECRETS": /);
    expect(grafana([...GRANTS.slice(1).map((g) => byName(g)), byName(GRANTS[0], ' ')]).errors.map((e) => e.split(':')[0])).toEqual([
      'extensions[team-x-grafana-operator].acceptedRisks[OLMT-044 SECRETS_READ_CLUSTER_WIDE].reason',
      `extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="${SA}"`,
    ]);
  });
});
