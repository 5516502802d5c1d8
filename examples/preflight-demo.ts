/**
 * The headline capability, shown on one tenant: with the OKD docs' default installer Role, synthesizing fails and
 * lists EVERY permission OLM would miss (on a cluster you would find them one per retry); with
 * `deriveInstallerRules` the same tenant synthesizes.
 */
import { App, Chart } from 'cdk8s';
import { CatalogSourceReference, ScopedOperatorTenant } from '../src';
import { exampleBundle } from './platform';

function buildMonitoringTenant(app: App, deriveInstallerRules: boolean): ScopedOperatorTenant {
  const chart = new Chart(app, 'tenant-monitoring');
  const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-monitoring', deriveInstallerRules });
  tenant.subscribe({
    packageName: 'prometheus',
    channel: 'beta',
    catalog: CatalogSourceReference.fromName('community-operators', 'openshift-marketplace'),
    bundle: exampleBundle('prometheus', '0.56.3'),
  });
  return tenant;
}

/** The tenant as written from the docs: the default installer Role, prometheus with its bundle. */
export function buildFailingTenant(app: App): ScopedOperatorTenant {
  return buildMonitoringTenant(app, false);
}

/** The same tenant, fixed: the installer rules are derived from the bundle (least privilege). */
export function buildFixedTenant(app: App): ScopedOperatorTenant {
  return buildMonitoringTenant(app, true);
}
