/**
 * 300 tenants, one chart each, two subscriptions with real bundles (etcd 0.9.4 + prometheus 0.56.3: derived
 * installer rules, preflight and cross-tenant checks on), written with the GitOps layout. Checks the layout, the
 * kustomization order, the sync waves, the labels and determinism. No timings here: `npm run bench` measures.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { parse } from 'yaml';
import {
  CuratedCatalog, GitOpsLayout, OlmWrites, OpenShiftOperatorHubPolicy, OperatorBundle, OutputLayout, ScopedOperatorTenant, TenancyApp,
} from '../../src';
import { SchemaValidator } from '../util/schema-validator';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const TENANTS = 300;
const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
const team = (i: number) => `team-${String(i).padStart(3, '0')}`;

/** Synthesizes the platform into `outdir` and returns every file (relative path -> content). */
function synthesize(outdir: string): Map<string, string> {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true });
  const platform = new Chart(app, 'platform');
  new OpenShiftOperatorHubPolicy(platform, 'DefaultCatalogs');
  const catalog = new CuratedCatalog(platform, 'Curated', {
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }, { name: 'prometheus', channels: [{ name: 'beta' }] }],
  });
  for (let i = 0; i < TENANTS; i++) {
    const chart = new Chart(app, `tenant-${team(i)}`);
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: team(i), deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog, bundle: etcd });
    tenant.subscribe({ packageName: 'prometheus', channel: 'beta', catalog, bundle: prometheus });
  }
  app.synth();
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(path.relative(outdir, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(outdir);
  return files;
}

describe(`${TENANTS} tenants x 2 subscriptions (etcd 0.9.4 + prometheus 0.56.3), one chart per tenant, GitOps layout`, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-scale-'));
  let first: Map<string, string>;
  beforeAll(() => {
    first = synthesize(path.join(root, 'a'));
  }, 600_000);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const resources = (file: string): string[] => parse(first.get(file)!).resources;

  test('the top kustomization applies cluster/ before tenants/, which lists every tenant folder in name order', () => {
    expect(resources('kustomization.yaml')).toEqual(['cluster', 'tenants']);
    expect(resources('tenants/kustomization.yaml')).toEqual(Array.from({ length: TENANTS }, (_, i) => team(i)));
    expect(resources('cluster/kustomization.yaml')).toEqual(['operatorhub-cluster.yaml']);
    expect(first.get('argocd/ignore-differences.yaml')).toEqual(OlmWrites.argoCdSnippet());
  });

  test('every tenant folder holds exactly its objects, the served CatalogSource included, in wave order', () => {
    const expected = [
      'namespace-TEAM.yaml',
      'serviceaccount-TEAM.yaml',
      'secret-TEAM.yaml',
      'role-TEAM.yaml',
      'rolebinding-TEAM.yaml',
      'operatorgroup-TEAM.yaml',
      // wave 1 as well; after the tenant's objects because the platform chart depends on the tenant charts (it
      // serves into their Namespaces), so cdk8s orders it after them
      'catalogsource-curated-operators.yaml',
      'subscription-etcd.yaml',
      'subscription-prometheus.yaml',
    ];
    const wrong: string[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const ns = team(i);
      const names = expected.map((n) => n.replace('TEAM', ns));
      if (JSON.stringify(resources(`tenants/${ns}/kustomization.yaml`)) !== JSON.stringify(names)) wrong.push(`${ns} kustomization: ${resources(`tenants/${ns}/kustomization.yaml`).join(' ')}`);
      const onDisk = [...first.keys()].filter((f) => f.startsWith(`tenants/${ns}/`) && !f.endsWith('/kustomization.yaml'))
        .map((f) => f.slice(`tenants/${ns}/`.length)).sort();
      if (JSON.stringify(onDisk) !== JSON.stringify([...names].sort())) wrong.push(`${ns} files`);
    }
    expect(wrong).toEqual([]);
    expect(first.size).toEqual(TENANTS * (expected.length + 1) + 2 /* cluster */ + 2 /* top, tenants */
      + 3 /* argocd: ignore-differences, health-checks, argocd-operator-patch */ + 1 /* WARNINGS.txt */);
  });

  test('sync waves: 0 before 1 (CatalogSource, OperatorGroup) before 2 (Subscriptions); labels on every object', () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const [file, content] of first) {
      if (file.endsWith('kustomization.yaml') || file.startsWith('argocd/') || file === TenancyApp.WARNINGS_FILE) continue;
      const o = parse(content);
      const wave = o.metadata.annotations?.[GitOpsLayout.SYNC_WAVE_ANNOTATION];
      const kindWave = `${o.kind}:${wave}`;
      const key = o.kind;
      if (seen.has(key) && seen.get(key) !== kindWave) problems.push(`${file}: ${kindWave} vs ${seen.get(key)}`);
      seen.set(key, kindWave);
      const tenant = file.startsWith('tenants/') ? file.split('/')[1] : undefined;
      const labels = o.metadata.labels ?? {};
      if (labels[GitOpsLayout.MANAGED_BY_LABEL] !== 'cdk8s-olm-tenancy') problems.push(`${file}: managed-by`);
      if (labels[GitOpsLayout.TENANT_LABEL] !== tenant) problems.push(`${file}: tenant label ${labels[GitOpsLayout.TENANT_LABEL]}`);
      if (tenant !== undefined && o.kind !== 'Namespace' && o.metadata.namespace !== tenant) problems.push(`${file}: namespace`);
    }
    expect(problems).toEqual([]);
    expect([...seen.values()].sort()).toEqual([
      'CatalogSource:1', 'Namespace:0', 'OperatorGroup:1', 'OperatorHub:0', 'Role:0', 'RoleBinding:0', 'Secret:0', 'ServiceAccount:0', 'Subscription:2',
    ]);
  });

  test('the objects of a tenant folder and of cluster/ validate against their real schemas (labels and waves included)', () => {
    const objects = [...first].filter(([f]) => (f.startsWith('cluster/') || f.startsWith(`tenants/${team(0)}/`)) && !f.endsWith('kustomization.yaml'))
      .map(([, c]) => parse(c));
    expect(objects.length).toEqual(10);
    expect(SchemaValidator.shared().validateAll(objects)).toEqual([]);
  });

  test('a second synthesis gives byte-identical files', () => {
    const second = synthesize(path.join(root, 'b'));
    expect([...second.keys()]).toEqual([...first.keys()]);
    const different = [...first].filter(([f, c]) => second.get(f) !== c).map(([f]) => f);
    expect(different).toEqual([]);
  }, 600_000);
});
