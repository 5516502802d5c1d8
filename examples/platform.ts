/**
 * The example platform: a cluster-wide catalog policy and curated catalogs, and one chart per tenant team.
 *
 * - `platform-catalogs`: the OpenShift OperatorHub policy (default global catalogs off, `redhat-operators` kept for
 *   the platform's own operators), the curated catalog every tenant installs from, its admission policy, and a
 *   second curated catalog built from a real file-based catalog (filtered by channel and version).
 * - `tenant-<team>`: one ScopedOperatorTenant per team, subscribing to real operator bundles (copied from the
 *   community catalog into test/fixtures/bundles). Each subscription carries its bundle, so the install preflight
 *   proves at synth time that OLM can install it with the tenant's installer ServiceAccount.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import { buildBlueprintTeams } from './blueprints';
import {
  AccessLevel, CuratedCatalog, CuratedCatalogAdmissionPolicy, FileBasedCatalog, InstallPlanApproval,
  OpenShiftDefaultSource, OpenShiftOperatorHubPolicy, OperatorBundle, PodSecurityLevel, ReachCode, ScopedOperatorTenant, SensitiveGrant,
} from '../src';

const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');

/** A real registry+v1 bundle from the fixtures. */
export function exampleBundle(name: string, version: string): OperatorBundle {
  return OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
}

/** What `buildPlatform` created, for writing the catalog artifacts beside the manifests. */
export interface Platform {
  /** The curated catalogs (their filtered FBC and mirroring files are written by examples/main.ts). */
  readonly catalogs: CuratedCatalog[];
  /** The tenants. */
  readonly tenants: ScopedOperatorTenant[];
}

/** Adds every example chart of the platform to `app`. */
export function buildPlatform(app: App): Platform {
  // ---- cluster-wide catalog policy and the curated catalog ---------------------------------------------------
  const catalogs = new Chart(app, 'platform-catalogs');
  // Default sources off for tenants; redhat-operators stays on so platform operators installed from it keep updating.
  new OpenShiftOperatorHubPolicy(catalogs, 'DefaultCatalogs', { keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS] });

  const curated = new CuratedCatalog(catalogs, 'Curated', {
    catalogName: 'curated-operators',
    displayName: 'Curated Operators',
    publisher: 'Platform Team',
    image: 'registry.example.com/platform/curated-operators:v4.17-2026.11',
    registryPollInterval: '30m',
    packages: [
      { name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.4 <0.10.0' },
      { name: 'prometheus', channels: [{ name: 'beta' }] },
      { name: 'grafana-operator', channels: [{ name: 'v5' }], versionRange: '>=5.24.0 <6.0.0' },
      { name: 'percona-xtradb-cluster-operator', channels: [{ name: 'stable' }] },
      { name: 'rabbitmq-cluster-operator', channels: [{ name: 'stable' }] },
    ],
  });
  new CuratedCatalogAdmissionPolicy(catalogs, 'CuratedOnly', { catalog: curated });

  // A second catalog, built from a real file-based catalog: only the 3.2.x channel, 3.2.4 and later.
  const registries = new CuratedCatalog(catalogs, 'Registries', {
    catalogName: 'curated-registries',
    displayName: 'Curated Schema Registries',
    publisher: 'Platform Team',
    image: 'registry.example.com/platform/curated-registries:v1',
    registryPollInterval: '1h',
    sourceCatalog: FileBasedCatalog.fromPath(path.join(FIXTURES, 'catalogs', 'community-operators-prod', 'catalogs', 'v4.21', 'apicurio-registry-3')),
    packages: [{ name: 'apicurio-registry-3', channels: [{ name: '3.2.x' }], versionRange: '>=3.2.4', defaultChannel: '3.2.x' }],
  });
  new CuratedCatalogAdmissionPolicy(catalogs, 'RegistriesOnly', { catalog: registries });

  // ---- tenants ---------------------------------------------------------------------------------------------------
  const tenants: ScopedOperatorTenant[] = [];
  const tenantChart = (team: string) => new Chart(app, `tenant-${team}`);

  // Data team: etcd, installer rules derived from the bundle (namespace-confined), upgrades approved by hand.
  {
    const chart = tenantChart('data');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: 'team-data',
      podSecurity: PodSecurityLevel.RESTRICTED,
      deriveInstallerRules: true,
    });
    tenant.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: curated,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.4',
      bundle: exampleBundle('etcd', '0.9.4'),
    });
    const admins = Group.fromName(chart, 'Admins', 'team-data-admins');
    tenant.grantSubscriptionManagement(admins);
    tenant.grantOperatorAccess(admins, AccessLevel.ADMIN);
    tenant.grantOperatorAccess(Group.fromName(chart, 'Developers', 'team-data-developers'), AccessLevel.VIEW);
    tenants.push(tenant);
  }

  // Observability team: prometheus (namespaced) and grafana (needs cluster rules: explicit opt-in with a reason).
  {
    const chart = tenantChart('observability');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: 'team-observability',
      podSecurity: PodSecurityLevel.RESTRICTED,
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'grafana-operator 5.x declares clusterPermissions (reviewed by the platform team, ticket PLAT-142)',
      // grafana's clusterPermissions read secrets, create Deployments and update Services and ConfigMaps in every
      // namespace, so the installer must hold that too (RBAC escalation check): sensitive grants, accepted by name with
      // the reason, written to the installer ClusterRole's sensitive-grants annotation and the report.
      acceptedSensitiveGrants: [
        { grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: 'grafana-operator 5.x reads the Secrets of Grafana datasources in the namespaces it watches (PLAT-142)' },
        { grant: SensitiveGrant.WORKLOAD_WRITES, reason: 'grafana-operator 5.x deploys Grafana instances in the namespaces it watches (PLAT-142)' },
        { grant: SensitiveGrant.SERVICE_UPDATE, reason: 'grafana-operator 5.x manages the Services of its Grafana instances (PLAT-142)' },
        { grant: SensitiveGrant.CONFIGMAP_UPDATE, reason: 'grafana-operator 5.x manages dashboards and Grafana configuration ConfigMaps (PLAT-142)' },
      ],
      // The effective-power audit (TenancyAudit) finds that grafana-operator's clusterPermissions read Secrets and
      // create Deployments in every namespace, so the operator, and the installer that must hold the same rules,
      // can read other tenants' installer tokens; prometheus-operator may read the installer's token Secret here.
      // Visible opt-ins (written to the OperatorGroup annotation), not silence:
      acceptedReach: [
        { code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: 'grafana-operator cluster-wide Secret read and operators sharing the namespace with the installer (PLAT-142)' },
        { code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, reason: 'grafana-operator cluster-wide Secret read reaches other operators\' cluster rules (PLAT-142)' },
        { code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, reason: 'grafana-operator cluster-wide Secret read reaches other tenants\' installers (PLAT-142)' },
      ],
    });
    tenant.subscribe({ packageName: 'prometheus', channel: 'beta', catalog: curated, bundle: exampleBundle('prometheus', '0.56.3') });
    tenant.subscribe({ packageName: 'grafana-operator', channel: 'v5', catalog: curated, bundle: exampleBundle('grafana-operator', '5.24.0') });
    tenant.grantOperatorAccess(Group.fromName(chart, 'Sre', 'team-observability-sre'), AccessLevel.EDIT);
    tenant.grantOperatorAccess(Group.fromName(chart, 'SreView', 'team-observability-sre'), AccessLevel.VIEW);
    tenants.push(tenant);
  }

  // Databases team: percona xtradb, namespace-confined derived rules.
  {
    const chart = tenantChart('databases');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: 'team-databases',
      podSecurity: PodSecurityLevel.BASELINE,
      deriveInstallerRules: true,
    });
    tenant.subscribe({
      packageName: 'percona-xtradb-cluster-operator',
      channel: 'stable',
      catalog: curated,
      bundle: exampleBundle('percona-xtradb-cluster-operator', '1.20.0'),
    });
    tenant.grantOperatorAccess(Group.fromName(chart, 'Dba', 'team-databases-dba'), AccessLevel.ADMIN);
    tenants.push(tenant);
  }

  // Messaging team: rabbitmq has admission webhooks, so OLM's scoped client creates webhook configurations and
  // certificate RBAC (kube-system, system:auth-delegator): opt-in with a reason, granted with named binds only.
  {
    const chart = tenantChart('messaging');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: 'team-messaging',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'rabbitmq-cluster-operator admission webhooks and clusterPermissions (ticket PLAT-151)',
      // what the derived cluster rules hold that is a sensitive grant, accepted by name with the reason: rabbitmq's
      // clusterPermissions exec into pods, read secrets, create StatefulSets and update Services and ConfigMaps
      // everywhere; OLM creates its webhook configurations with the installer's client.
      acceptedSensitiveGrants: [
        { grant: SensitiveGrant.POD_EXEC, reason: 'rabbitmq-cluster-operator execs into RabbitmqCluster pods (rabbitmqctl) in the namespaces it watches (PLAT-151)' },
        { grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: 'rabbitmq-cluster-operator reads the credentials Secrets of its RabbitmqClusters (PLAT-151)' },
        { grant: SensitiveGrant.MUTATING_WEBHOOK_WRITES, reason: 'OLM creates the operator\'s mutating webhook configuration with the installer\'s client (PLAT-151)' },
        { grant: SensitiveGrant.VALIDATING_WEBHOOK_WRITES, reason: 'OLM creates the operator\'s validating webhook configuration with the installer\'s client (PLAT-151)' },
        { grant: SensitiveGrant.WORKLOAD_WRITES, reason: 'rabbitmq-cluster-operator creates the StatefulSets of RabbitmqClusters in the namespaces it watches (PLAT-151)' },
        { grant: SensitiveGrant.SERVICE_UPDATE, reason: 'rabbitmq-cluster-operator manages the Services of its RabbitmqClusters (PLAT-151)' },
        { grant: SensitiveGrant.CONFIGMAP_UPDATE, reason: 'rabbitmq-cluster-operator manages the configuration ConfigMaps of its RabbitmqClusters (PLAT-151)' },
      ],
      // rabbitmq-cluster-operator's clusterPermissions read Secrets and create StatefulSets everywhere (TenancyAudit).
      acceptedReach: [
        { code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: 'rabbitmq-cluster-operator cluster-wide Secret read (PLAT-151)' },
        { code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, reason: 'rabbitmq-cluster-operator cluster-wide Secret read reaches other operators\' cluster rules (PLAT-151)' },
        { code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, reason: 'rabbitmq-cluster-operator cluster-wide Secret read reaches other tenants\' installers (PLAT-151)' },
      ],
    });
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', channel: 'stable', catalog: curated, bundle: exampleBundle('rabbitmq-cluster-operator', '2.22.3') });
    tenant.grantOperatorAccess(Group.fromName(chart, 'Messaging', 'team-messaging'), AccessLevel.EDIT);
    tenants.push(tenant);
  }

  // Integration team: the schema registry from the second curated catalog; the docs' default installer Role (no
  // bundle given, so no preflight: the catalog carries only `olm.csv.metadata`, without permissions).
  {
    const chart = tenantChart('integration');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-integration' });
    tenant.subscribe({ packageName: 'apicurio-registry-3', channel: '3.2.x', catalog: registries, installPlanApproval: InstallPlanApproval.MANUAL });
    tenant.grantSubscriptionManagement(Group.fromName(chart, 'Integration', 'team-integration'));
    tenants.push(tenant);
  }

  // Teams stamped from organisational blueprints (examples/blueprints.ts).
  tenants.push(...buildBlueprintTeams(app, curated));

  for (const t of tenants) {
    if (t.subscriptions.some((s) => s.sourceName === curated.catalogName)) curated.serve(t);
  }
  return { catalogs: [curated, registries], tenants };
}
