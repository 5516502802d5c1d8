import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, OperatorBundle, ScopedOperatorTenant, InstallerPermissions } from '../src';
const F = '/work/wt/grants/test/fixtures/leaky-bundles';
for (const n of ['binds-admin-edit-view', 'binds-outside-clusterrole']) {
  const b = OperatorBundle.fromDirectory(path.join(F, n, '0.9.4'));
  const app = Testing.app(); const chart = new Chart(app, 'p');
  const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'r' });
  t.subscribe({ packageName: n, catalog: CatalogSourceReference.fromName('c', 'team-a'), bundle: b });
  console.log(n, JSON.stringify(t.clusterInstallerRules, null, 0));
  for (const c of chart.node.findAll()) for (const e of c.node.validate()) console.log('  ERR', c.node.path, e.slice(0, 600));
  const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
  console.log(' problems', d.problems.map(p => p.code), d.boundRoles);
}
