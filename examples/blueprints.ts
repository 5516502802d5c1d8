/**
 * Organisational blueprints: two standard tenants captured once and stamped per team in one line each.
 *
 * - `data`: etcd from the curated catalog, upgrades approved by hand (pinned starting CSV), the team's admins may
 *   approve and administer the operator's APIs, developers may read them; a baseline (quota, limits, default-deny
 *   network policies that still let OLM work) with a team-sized quota allowed.
 * - `observability`: prometheus, restricted pod security, SREs edit; teams may add operators from the catalog.
 */
import { App, Chart } from 'cdk8s';
import { exampleBundle } from './platform';
import { AccessLevel, BlueprintOverride, ICatalogSource, PodSecurityLevel, ScopedOperatorTenant, TenantBlueprint } from '../src';

/** Stamps the example teams into `app` (one chart per team) and returns their tenants. */
export function buildBlueprintTeams(app: App, catalog: ICatalogSource): ScopedOperatorTenant[] {
  const data = new TenantBlueprint({
    name: 'data',
    catalog,
    namespacePrefix: 'data-',
    operators: [{ packageName: 'etcd', channel: 'singlenamespace-alpha', bundle: exampleBundle('etcd', '0.9.4'), startingCsv: 'etcdoperator.v0.9.4' }],
    namespaceLabels: { 'example.com/division': 'data' },
    grants: [
      { groupName: '{team}-admins', access: AccessLevel.ADMIN, subscriptionManagement: true },
      { groupName: '{team}-developers', access: AccessLevel.VIEW },
    ],
    // CVE-2020-8554: no Service of the tenant may set spec.externalIPs (one cluster-scoped policy for every baseline)
    baseline: { refuseServiceExternalIps: true },
    allowedOverrides: [BlueprintOverride.QUOTA],
  });
  const observability = new TenantBlueprint({
    name: 'observability',
    catalog,
    namespacePrefix: 'obs-',
    podSecurity: PodSecurityLevel.RESTRICTED,
    operators: [{ packageName: 'prometheus', channel: 'beta', bundle: exampleBundle('prometheus', '0.56.3') }],
    grants: [{ groupName: '{team}-sre', access: AccessLevel.EDIT, subscriptionManagement: true }],
    // CVE-2020-8554: no Service of the tenant may set spec.externalIPs (one cluster-scoped policy for every baseline)
    baseline: { refuseServiceExternalIps: true },
    allowedOverrides: [BlueprintOverride.EXTRA_OPERATORS],
  });

  const team = (blueprint: TenantBlueprint, name: string) => new Chart(app, `${blueprint.name}-${name}`);
  return [
    data.stamp(team(data, 'analytics'), 'analytics'),
    data.stamp(team(data, 'warehouse'), 'warehouse', { quota: { 'pods': '200', 'requests.cpu': '32', 'requests.memory': '64Gi', 'limits.cpu': '64', 'limits.memory': '128Gi' } }),
    observability.stamp(team(observability, 'payments'), 'payments'),
    observability.stamp(team(observability, 'search'), 'search'),
  ];
}
