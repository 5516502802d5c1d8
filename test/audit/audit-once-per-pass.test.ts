import * as path from 'path';
import { Chart } from 'cdk8s';
import { CatalogSourceReference, OperatorBundle, ScopedOperatorTenant, TenancyApp } from '../../src';
import * as registry from '../../src/audit/registry';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const CATALOG = CatalogSourceReference.fromName('curated-operators', 'olm');

/** How many times one synth of `tenants` tenants (a Chart each) computes the audit's fingerprint (a walk over every tenant). */
function fingerprintsPerSynth(tenants: number): number {
  const app = new TenancyApp({ outdir: 'unused', quiet: true });
  for (let i = 0; i < tenants; i++) {
    const t = new ScopedOperatorTenant(new Chart(app, `tenant-${i}`), 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  }
  const spy = jest.spyOn(registry, 'auditFingerprint');
  try {
    app.synthObjects();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('the audit runs once per validation pass, however many charts (no per-chart refresh)', () => {
  test('GIVEN 2 and 40 tenants with a Chart each THEN one fingerprint walk per synth in both', () => {
    expect([fingerprintsPerSynth(2), fingerprintsPerSynth(40)]).toEqual([1, 1]);
  });
});
