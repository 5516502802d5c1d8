import { Chart, Testing } from 'cdk8s';
import { CuratedCatalog, ScopedOperatorTenant } from '../../src';

describe('CuratedCatalog.serve(tenant) ordering', () => {
  test('GIVEN the catalog is created before the tenant and serves it without a subscription THEN its CatalogSource follows the Namespace', () => {
    // GIVEN
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/curated:v1', packages: [{ name: 'etcd' }] });
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });

    // WHEN
    catalog.serve(tenant);

    // THEN
    const order = Testing.synth(chart).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(order.indexOf('Namespace/team-a')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('CatalogSource/curated-operators')).toBeGreaterThan(order.indexOf('Namespace/team-a'));
  });
});
