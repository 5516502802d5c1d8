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
  AccessLevel, CompactRole, CuratedCatalog, CuratedCatalogAdmissionPolicy, FileBasedCatalog, GlobalOperatorInstall, InstallPlanApproval,
  OpenShiftDefaultSource, OpenShiftOperatorHubPolicy, OperatorBundle, PodSecurityLevel, RoleRefKind, ScopedOperatorTenant, SubjectRoleBinding,
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
      // the team's own repository (its EtcdClusters, more Subscriptions from the curated catalog): applied as the
      // team's self-service identity, which may write nothing else (docs/gitops.md "A tenant's own repository")
      gitOpsSource: { url: 'https://git.example.com/team-data/operators.git', path: 'deploy' },
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

  // Observability team: prometheus, namespace-confined derived rules. (grafana-operator needs cluster rules: the
  // platform installs it, below, not the team.)
  {
    const chart = tenantChart('observability');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: 'team-observability',
      podSecurity: PodSecurityLevel.RESTRICTED,
      deriveInstallerRules: true,
    });
    tenant.subscribe({ packageName: 'prometheus', channel: 'beta', catalog: curated, bundle: exampleBundle('prometheus', '0.56.3') });
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

  // Integration team: the schema registry from the second curated catalog; the docs' default installer Role (no
  // bundle given, so no preflight: the catalog carries only `olm.csv.metadata`, without permissions).
  {
    const chart = tenantChart('integration');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-integration' });
    tenant.subscribe({ packageName: 'apicurio-registry-3', channel: '3.2.x', catalog: registries, installPlanApproval: InstallPlanApproval.MANUAL });
    const integration = Group.fromName(chart, 'Integration', 'team-integration');
    tenant.grantSubscriptionManagement(integration);
    // The team runs its message broker with the platform's rabbitmq-cluster-operator (below): its people may manage
    // RabbitmqClusters in their namespace, so they drive an operator that runs with cluster-wide rights. The audit names
    // them (OLMT-055) and the platform's install of that operator accepts it by reason.
    new CompactRole(chart, 'RabbitmqUsers', {
      name: 'rabbitmq-users',
      namespace: 'team-integration',
      rules: [{ apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] }],
    });
    new SubjectRoleBinding(chart, 'RabbitmqUsersBinding', {
      name: 'rabbitmq-users', namespace: 'team-integration', roleKind: RoleRefKind.ROLE, roleName: 'rabbitmq-users',
    }).addSubject(integration);
    tenants.push(tenant);
  }

  // Teams stamped from organisational blueprints (examples/blueprints.ts).
  tenants.push(...buildBlueprintTeams(app, curated));

  // ---- operators the platform installs, not a tenant ------------------------------------------------------------
  // grafana-operator and rabbitmq-cluster-operator declare clusterPermissions that read Secrets and create workloads
  // in every namespace: installed by a tenant, their operators (and the installer that must hold the same rules)
  // could become every other tenant's installer, so no tenant may install them. The platform team installs them
  // itself, as OLM's default global install does (`openshift-operators`): a namespace of their own, an
  // AllNamespaces OperatorGroup without an installer ServiceAccount (OLM installs them with its own client), and
  // GlobalOperatorInstall makes that visible: TENANCY.md lists them first with what their ServiceAccounts can do, and
  // the audit names every tenant identity that may create their custom resources (OLMT-055: here team-integration's
  // people for RabbitmqClusters, accepted by reason; a team granted them later fails the synth until
  // install({ tenantsMayDriveReason }) accepts it).
  // The tenants stay isolated from each other (AUDIT.txt).
  {
    const chart = new Chart(app, 'platform-operators');
    const global = new GlobalOperatorInstall(chart, 'GlobalOperators', {
      namespaceName: 'platform-operators',
      reason: 'operators with cluster-wide permissions, installed by the platform team (PLAT-142, PLAT-151)',
    });
    global.install({
      packageName: 'grafana-operator',
      channel: 'v5',
      catalog: curated,
      installPlanApproval: InstallPlanApproval.MANUAL,
      bundle: exampleBundle('grafana-operator', '5.24.0'),
    });
    global.install({
      packageName: 'rabbitmq-cluster-operator',
      channel: 'stable',
      catalog: curated,
      installPlanApproval: InstallPlanApproval.MANUAL,
      bundle: exampleBundle('rabbitmq-cluster-operator', '2.22.3'),
      // the integration team's people create RabbitmqClusters (their namespace only); the operator makes the
      // StatefulSets and Secrets for them with its own rights
      tenantsMayDriveReason: 'team-integration runs its brokers as RabbitmqClusters (PLAT-151); reviewed with the team',
    });
  }

  for (const t of tenants) {
    if (t.subscriptions.some((s) => s.sourceName === curated.catalogName)) curated.serve(t);
  }
  return { catalogs: [curated, registries], tenants };
}
