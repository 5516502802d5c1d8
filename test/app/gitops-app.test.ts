import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { parse } from 'yaml';
import { CatalogSourceReference, InstallPlanApproval, OutputLayout, ScopedOperatorTenant, SubscriptionOptions, TenancyApp, TenancyAppProps } from '../../src';
import { filesBelow } from '../util/files';

function build(outdir: string, namespaces: string[], syncWaves?: boolean,
  extra: { app?: Partial<TenancyAppProps>; subscription?: Partial<SubscriptionOptions> } = {}): TenancyApp {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves, quiet: true, ...extra.app });
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const ns of namespaces) {
    const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns, createTokenSecret: false });
    t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog, ...extra.subscription });
  }
  return app;
}

describe('TenancyApp with OutputLayout.GITOPS', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-app-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('GIVEN two tenants THEN the layout, argocd/ignore-differences.yaml, and no sync waves by default', () => {
    const outdir = path.join(root, 'default');
    const app = build(outdir, ['team-a', 'team-b']);
    app.synth();
    expect(filesBelow(outdir)).toEqual([
      'WARNINGS.txt', // issue 16: the warnings are committed with the tree
      'argocd/health-checks.yaml', // issue 24: the OLM health checks for Argo CD
      'argocd/ignore-differences.yaml',
      'kustomization.yaml',
      'tenants/kustomization.yaml',
      'tenants/team-a/kustomization.yaml',
      'tenants/team-a/namespace-team-a.yaml',
      'tenants/team-a/operatorgroup-team-a.yaml',
      'tenants/team-a/role-team-a.yaml',
      'tenants/team-a/rolebinding-team-a.yaml',
      'tenants/team-a/serviceaccount-team-a.yaml',
      'tenants/team-a/subscription-etcd.yaml',
      'tenants/team-b/kustomization.yaml',
      'tenants/team-b/namespace-team-b.yaml',
      'tenants/team-b/operatorgroup-team-b.yaml',
      'tenants/team-b/role-team-b.yaml',
      'tenants/team-b/rolebinding-team-b.yaml',
      'tenants/team-b/serviceaccount-team-b.yaml',
      'tenants/team-b/subscription-etcd.yaml',
    ]);
    expect(parse(fs.readFileSync(path.join(outdir, 'kustomization.yaml'), 'utf8')).resources).toEqual(['tenants']);
    expect(parse(fs.readFileSync(path.join(outdir, 'tenants/team-a/subscription-etcd.yaml'), 'utf8')).metadata).toEqual({
      labels: { 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'team-a' },
      name: 'etcd',
      namespace: 'team-a',
    });
    expect(app.summary?.objects).toEqual(12);
  });

  // issue 28: only a removed tenant folder was ever tested; a top-level entry the new layout lacks must go too
  test.each([
    ['streamed from each object\'s identity', false],
    ['from every object\'s JSON (an addJsonPatch renames an object: the fallback writer)', true],
  ])('GIVEN a re-synth without cluster-scoped objects THEN the old cluster/ folder and its ClusterRole are gone (%s)', (_how, patched) => {
    const outdir = path.join(root, patched ? 'stale-cluster-json' : 'stale-cluster');
    const withCluster = build(outdir, ['team-a']);
    const platform = new Chart(withCluster, 'platform');
    new ApiObject(platform, 'Reader', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] } as any);
    withCluster.synth();
    expect(filesBelow(outdir).filter((f) => f.startsWith('cluster/'))).toEqual(['cluster/clusterrole-reader.yaml', 'cluster/kustomization.yaml']);
    expect(parse(fs.readFileSync(path.join(outdir, 'kustomization.yaml'), 'utf8')).resources).toEqual(['cluster', 'tenants']);
    const without = build(outdir, ['team-a']);
    if (patched) {
      const sub = without.node.findAll().find((c) => c instanceof ApiObject && (c as ApiObject).kind === 'Subscription') as ApiObject;
      sub.addJsonPatch(JsonPatch.replace('/metadata/name', 'etcd-renamed'));
    }
    without.synth();
    expect(filesBelow(outdir).filter((f) => f.startsWith('tenants/team-a/subscription'))).toEqual([`tenants/team-a/subscription-${patched ? 'etcd-renamed' : 'etcd'}.yaml`]);
    expect(filesBelow(outdir).filter((f) => !f.startsWith('tenants/team-a/'))).toEqual([
      'WARNINGS.txt', 'argocd/health-checks.yaml', 'argocd/ignore-differences.yaml', 'kustomization.yaml', 'tenants/kustomization.yaml',
    ]);
    expect(parse(fs.readFileSync(path.join(outdir, 'kustomization.yaml'), 'utf8')).resources).toEqual(['tenants']);
  });

  test('GIVEN a tenant removed and a file of the user in outdir THEN a re-synth drops the tenant folder and keeps the file', () => {
    const outdir = path.join(root, 'rerun');
    build(outdir, ['team-a', 'team-b'], true).synth();
    fs.writeFileSync(path.join(outdir, 'README.md'), 'mine\n');
    build(outdir, ['team-a'], true).synth();
    expect(filesBelow(outdir).filter((f) => !f.startsWith('tenants/team-a/'))).toEqual([
      'README.md', 'WARNINGS.txt', 'argocd/health-checks.yaml', 'argocd/ignore-differences.yaml', 'kustomization.yaml', 'tenants/kustomization.yaml',
    ]);
    expect(parse(fs.readFileSync(path.join(outdir, 'tenants/team-a/subscription-etcd.yaml'), 'utf8')).metadata.annotations)
      .toEqual({ 'argocd.argoproj.io/sync-wave': '2' });
  });
});

describe('TenancyApp.writeGitOps: what it adds beside the layout (mutation testing, issue 28)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-writer-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('GIVEN argoCdHealthChecks: false and Flux, a tenant with a pinned Manual subscription THEN no Argo CD health checks, the Flux files, and the pinned CSV as the tenant Kustomization\'s health check', () => {
    const outdir = path.join(root, 'flux');
    const app = build(outdir, ['team-a'], undefined, {
      app: { argoCdHealthChecks: false, flux: { path: './dist', tenantIdentities: false } },
      subscription: { installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'etcdoperator.v0.9.4' },
    });
    app.synth();
    expect(filesBelow(outdir)).toEqual([
      'WARNINGS.txt',
      'argocd/ignore-differences.yaml',
      'flux/kustomization.yaml',
      'flux/tenant-team-a.yaml',
      'kustomization.yaml',
      'tenants/kustomization.yaml',
      'tenants/team-a/kustomization.yaml',
      'tenants/team-a/namespace-team-a.yaml',
      'tenants/team-a/operatorgroup-team-a.yaml',
      'tenants/team-a/role-team-a.yaml',
      'tenants/team-a/rolebinding-team-a.yaml',
      'tenants/team-a/serviceaccount-team-a.yaml',
      'tenants/team-a/subscription-etcd.yaml',
    ]);
    const kustomization = parse(fs.readFileSync(path.join(outdir, 'flux/tenant-team-a.yaml'), 'utf8'));
    expect([kustomization.metadata, kustomization.spec.path, kustomization.spec.healthChecks]).toEqual([
      { name: 'tenancy-tenant-team-a', namespace: 'flux-system' },
      './dist/tenants/team-a',
      // the Manual subscription's pinned CSV: Flux waits for it (Automatic subscriptions name none)
      [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'etcdoperator.v0.9.4', namespace: 'team-a' }],
    ]);
  });

  test('GIVEN an Automatic subscription with a startingCsv THEN Flux pins no CSV (only Manual approval keeps the CSV fixed)', () => {
    const outdir = path.join(root, 'automatic');
    const app = build(outdir, ['team-a'], undefined, { app: { flux: { path: './dist', tenantIdentities: false } }, subscription: { startingCsv: 'etcdoperator.v0.9.4' } });
    app.synth();
    expect(filesBelow(outdir)).toContain('argocd/health-checks.yaml');
    expect(parse(fs.readFileSync(path.join(outdir, 'flux/tenant-team-a.yaml'), 'utf8')).spec.healthChecks).toBeUndefined();
  });

  test('GIVEN a lone surrogate added behind the constructs\' back THEN synth refuses it and writes nothing', () => {
    const outdir = path.join(root, 'surrogate');
    const app = build(outdir, ['team-a']);
    const ns = app.node.findAll().find((c) => c instanceof ApiObject && c.kind === 'Namespace') as ApiObject;
    ns.addJsonPatch(JsonPatch.add('/metadata/annotations', { note: 'a\ud800b' }));
    expect(() => app.synth()).toThrow(/lone UTF-16 surrogate/);
    expect(fs.existsSync(outdir) ? filesBelow(outdir) : []).toEqual([]);
  });
});
