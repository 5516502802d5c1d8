/**
 * The example platform on OLM v1 (operator-controller v1.11.0): two teams, each with a curated ClusterCatalog
 * (selected by the team label), ClusterExtensions in their own namespaces, the installer RBAC bound to their group,
 * and the admission policy that bounds what the group can write. Each extension carries its bundles, so the
 * permission preview shows at synth time what operator-controller will create with cluster-admin, and what the
 * team accepted (with reasons, written on the ClusterExtension).
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { CuratedClusterCatalog, OlmV1Team, OperatorBundle, SensitiveGrant } from '../src';

const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
const DIGEST = '@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945';

/** What `buildOlmV1Platform` created. */
export interface OlmV1Platform {
  /** The teams. */
  readonly teams: OlmV1Team[];
}

/** Adds the OLM v1 example charts to `app`: `olmv1-catalogs`, `olmv1-team-observability`, `olmv1-team-messaging`. */
export function buildOlmV1Platform(app: App): OlmV1Platform {
  const catalogs = new Chart(app, 'olmv1-catalogs');
  // Digest references: immutable, never polled (the CRD refuses pollIntervalMinutes with them).
  const observabilityCatalog = new CuratedClusterCatalog(catalogs, 'Observability', {
    catalogName: 'observability-curated', image: `registry.example.com/catalogs/observability${DIGEST}`, team: 'observability', priority: 10,
  });
  // A tag, polled for new digests every 30 minutes.
  const messagingCatalog = new CuratedClusterCatalog(catalogs, 'Messaging', {
    catalogName: 'messaging-curated', image: 'registry.example.com/catalogs/messaging:v4.18', team: 'messaging', pollIntervalMinutes: 30,
  });

  const observability = new OlmV1Team(new Chart(app, 'olmv1-team-observability'), 'Team', {
    team: 'observability',
    groups: ['observability-admins'],
    namespaces: ['observability'],
    catalog: observabilityCatalog,
    allowedPackages: [{ name: 'grafana-operator', versionRange: '>=5.24.0 <6.0.0', channels: ['v5'] }],
    extensions: [{
      packageName: 'grafana-operator',
      namespace: 'observability',
      bundles: [bundle('grafana-operator', '5.24.0')],
      // each sensitive grant accepted by name, with its own reason (OLMT-044)
      acceptedRisks: [
        { check: 'OLMT-044', grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: 'grafana-operator reads datasource credentials from Secrets in the namespaces it serves' },
        { check: 'OLMT-044', grant: SensitiveGrant.WORKLOAD_WRITES, reason: 'grafana-operator manages the Grafana Deployments' },
        { check: 'OLMT-044', grant: SensitiveGrant.SERVICE_UPDATE, reason: 'grafana-operator manages the Grafana Services' },
        { check: 'OLMT-044', grant: SensitiveGrant.CONFIGMAP_UPDATE, reason: 'grafana-operator manages the Grafana ConfigMaps' },
      ],
    }],
  });
  const messaging = new OlmV1Team(new Chart(app, 'olmv1-team-messaging'), 'Team', {
    team: 'messaging',
    groups: ['messaging-admins'],
    namespaces: ['messaging', 'messaging-dev'],
    catalog: messagingCatalog,
    allowedPackages: [{ name: 'rabbitmq-cluster-operator', versionRange: '>=2.22.0 <2.23.0' }],
    extensions: [{
      packageName: 'rabbitmq-cluster-operator',
      namespace: 'messaging',
      bundles: [bundle('rabbitmq-cluster-operator', '2.22.3')],
      acceptedRisks: [
        { check: 'OLMT-044', grant: SensitiveGrant.POD_EXEC, reason: 'the RabbitMQ operator execs into its pods (reviewed by platform security)' },
        { check: 'OLMT-044', grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: 'the RabbitMQ operator manages the cluster Secrets (reviewed by platform security)' },
        { check: 'OLMT-044', grant: SensitiveGrant.WORKLOAD_WRITES, reason: 'the RabbitMQ operator manages the cluster StatefulSets (reviewed by platform security)' },
        { check: 'OLMT-044', grant: SensitiveGrant.SERVICE_UPDATE, reason: 'the RabbitMQ operator manages the cluster Services (reviewed by platform security)' },
        { check: 'OLMT-044', grant: SensitiveGrant.CONFIGMAP_UPDATE, reason: 'the RabbitMQ operator manages the cluster ConfigMaps (reviewed by platform security)' },
        { check: 'OLMT-044', grant: SensitiveGrant.POD_IMAGE_UPDATE, reason: 'the RabbitMQ operator updates its broker pods (reviewed by platform security)' },
      ],
    }],
  });
  return { teams: [observability, messaging] };
}

if (require.main === module) {
  const app = new App({ outdir: process.argv[2] ?? 'dist-olmv1' });
  buildOlmV1Platform(app);
  app.synth();
}
