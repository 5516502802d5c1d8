/**
 * Day two on one tenant: prometheus pinned at 0.47.0 with Manual approval, the channel's upgrade graph from every
 * published version (test/fixtures/bundle-history), and the GitOps approver. With `deriveScope: PINNED_VERSION` the
 * synth fails because the allowed upgrade to 0.56.3 needs `prometheuses/status`, which the installer lacks; with
 * `ALLOWED_UPGRADES` the installer covers every allowed upgrade and the synth passes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import {
  CatalogSourceReference, DeriveScope, InstallPlanApproval, OperatorBundle, ScopedOperatorTenant, UpgradeGraph,
} from '../src';

const HISTORY = path.join(__dirname, '..', 'test', 'fixtures', 'bundle-history', 'prometheus');

/** Every published prometheus bundle, oldest first. */
export function prometheusHistory(): OperatorBundle[] {
  return fs.readdirSync(HISTORY).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, v)));
}

/** The monitoring tenant, pinned at prometheusoperator.0.47.0, upgrades checked within `>=0.47.0`. */
export function buildUpgradeTenant(app: App, deriveScope: DeriveScope): ScopedOperatorTenant {
  const chart = new Chart(app, 'tenant-monitoring-upgrades');
  const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-monitoring', deriveInstallerRules: true, deriveScope });
  tenant.subscribe({
    packageName: 'prometheus',
    channel: 'beta',
    catalog: CatalogSourceReference.fromName('curated-operators', 'team-monitoring'),
    installPlanApproval: InstallPlanApproval.MANUAL,
    startingCsv: 'prometheusoperator.0.47.0', // the pin: change it here to upgrade
    upgradeGraph: UpgradeGraph.fromBundles(prometheusHistory(), 'beta'),
    versionRange: '>=0.47.0',
  });
  tenant.grantSubscriptionManagement(Group.fromName(chart, 'Admins', 'team-monitoring-admins'));
  tenant.addPinnedApprover({ image: 'registry.access.redhat.com/ubi9/nodejs-24-minimal:1' });
  return tenant;
}
