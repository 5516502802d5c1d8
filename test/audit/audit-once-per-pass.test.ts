import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { CatalogSourceReference, Diagnostics, OperatorBundle, ReachCode, ScopedOperatorTenant, TenancyApp, TenancyAudit } from '../../src';
import * as registry from '../../src/audit/audit-fingerprint';
import { acceptingEverything } from '../util/synth';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const CATALOG = CatalogSourceReference.fromName('curated-operators', 'olm');

function addTenants(app: App, tenants: number): void {
  for (let i = 0; i < tenants; i++) {
    const t = new ScopedOperatorTenant(new Chart(app, `tenant-${i}`), 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  }
}

/** How many fingerprint walks (a walk over every tenant's facts) and audits one synth runs. */
function countsOf(synth: () => void): { fingerprints: number; audits: number } {
  const fingerprint = jest.spyOn(registry.AuditFingerprint, 'of');
  const audit = jest.spyOn(TenancyAudit, 'ofConstruct');
  try {
    synth();
    return { fingerprints: fingerprint.mock.calls.length, audits: audit.mock.calls.length };
  } finally {
    fingerprint.mockRestore();
    audit.mockRestore();
  }
}

describe('the audit runs once per validation pass, however many charts (no per-chart refresh)', () => {
  test('GIVEN 2 and 40 tenants with a Chart each in a TenancyApp THEN one audit per synth and no fingerprint walk (one pass)', () => {
    const counts = [2, 40].map((n) => {
      const app = new TenancyApp({ outdir: 'unused', quiet: true });
      addTenants(app, n);
      return countsOf(() => app.synthObjects());
    });
    expect(counts).toEqual([{ fingerprints: 0, audits: 1 }, { fingerprints: 0, audits: 1 }]);
  });

  test('GIVEN a TenancyApp synthesized twice with a tenant added in between THEN each synth audits again and sees the new tenant', () => {
    const app = new TenancyApp({ outdir: 'unused', quiet: true });
    addTenants(app, 2);
    expect(countsOf(() => app.synthObjects())).toEqual({ fingerprints: 0, audits: 1 });
    const late = new ScopedOperatorTenant(new Chart(app, 'late'), 'Tenant', { namespaceName: 'team-late', deriveInstallerRules: true });
    late.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(countsOf(() => app.synthObjects())).toEqual({ fingerprints: 0, audits: 1 });
    // outside a pass the result is checked against the fingerprint first: it holds the new tenant
    expect(TenancyAudit.ofConstruct(app).tenants.map((t) => t.namespace)).toEqual(['team-0', 'team-1', 'team-late']);
  });

  test('GIVEN report: true THEN the report reuses the pass\'s audit (one audit per synth)', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-once-'));
    try {
      const app = new TenancyApp({ outdir, quiet: true, report: true });
      addTenants(app, 3);
      expect(countsOf(() => app.synth())).toEqual({ fingerprints: 0, audits: 1 });
      expect(fs.readFileSync(path.join(outdir, TenancyApp.REPORT_FILE), 'utf-8')).toContain("No tenant identity reaches beyond its tenant's namespaces.");
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('GIVEN a plain cdk8s App with 2 and 40 tenants THEN one fingerprint walk per validation pass and one audit', () => {
    const counts = [2, 40].map((n) => {
      const app = new App({ outdir: 'unused' });
      addTenants(app, n);
      return countsOf(() => app.synthYaml());
    });
    // cdk8s synthYaml validates the App once, then once more per Chart (`Chart.toJson` -> `App._synthChart`): the
    // fingerprint is walked each time, the audit itself computed once (nothing changed)
    expect(counts).toEqual([{ fingerprints: 3, audits: 1 }, { fingerprints: 41, audits: 1 }]);
  });
});

describe('issue 15 item 12: the audit of a plain cdk8s App is recomputed whenever content can have changed', () => {
  /** A tenant and a ClusterRoleBinding of cluster-admin to a user: clean until a JSON patch adds the installer. */
  function app(): { app: App; chart: Chart; binding: k8s.KubeClusterRoleBinding } {
    const a = new App({ outdir: 'unused' });
    const chart = new Chart(a, 'platform');
    new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    const binding = new k8s.KubeClusterRoleBinding(chart, 'Admins', {
      metadata: { name: 'admins' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    return { app: a, chart, binding };
  }
  const patch = (binding: k8s.KubeClusterRoleBinding) => binding.addJsonPatch(JsonPatch.add('/subjects/-', { kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }));

  test.each([
    ['chart.toJson()', (x: { chart: Chart }) => x.chart.toJson()],
    ['an earlier synthYaml()', (x: { app: App }) => x.app.synthYaml()],
  ])('after %s, addJsonPatch adding the installer to a cluster-admin binding fails the next synth', (_, before) => {
    const x = app();
    before(x as any); // validated clean, the audit result cached
    patch(x.binding);
    expect(() => x.app.synthYaml()).toThrow(/ServiceAccount team-a\/team-a reaches cluster-wide .*ClusterRoleBinding admins \(App\).*\(TenantIdentityUnbounded, OLMT-026\)/);
  });

  test('the fingerprint covers object content: walked, and the audit recomputed, only when content changed', () => {
    const x = app();
    expect(countsOf(() => x.app.synthYaml())).toEqual({ fingerprints: 2, audits: 1 });
    expect(countsOf(() => x.app.synthYaml())).toEqual({ fingerprints: 2, audits: 0 }); // nothing changed
    patch(x.binding);
    expect(TenancyAudit.ofConstruct(x.app).tenants[0].findings.map((f) => f.code)).toEqual([ReachCode.TENANT_IDENTITY_UNBOUNDED]);
    const counts = countsOf(() => expect(() => x.app.synthYaml()).toThrow());
    expect(counts.audits).toEqual(1);
  });

  test('Diagnostics.warnings after a change reads a fresh audit (accepted findings of the patched binding)', () => {
    // accepting OLMT-026 needs a platform that takes it off the never-acceptable list (issue 42)
    const a = acceptingEverything(new App({ outdir: 'unused' }));
    const chart = new Chart(a, 'platform');
    new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a', deriveInstallerRules: true, acceptedReach: [{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason: 'lab, SEC-1' }],
    });
    const binding = new k8s.KubeClusterRoleBinding(chart, 'Admins', {
      metadata: { name: 'admins' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    const audited = () => Diagnostics.warnings(a).filter((d) => d.code === ReachCode.TENANT_IDENTITY_UNBOUNDED).map((d) => d.value);
    expect(audited()).toEqual([]);
    patch(binding);
    expect(audited()).toEqual(['ServiceAccount team-a/team-a']);
  });
});
