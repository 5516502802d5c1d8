// The GitOps tools' files the layout writes beside the manifests: argocd/health-checks.yaml (the OLM health checks as
// an argocd-cm patch, built by kustomize as Argo CD's install kustomization would) and flux/ (Kustomizations with the
// health expressions, dependsOn and the pinned CSVs).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { OutputLayout, TenancyApp } from '../../src/app';
import { OperatorBundle } from '../../src/bundle';
import { CuratedCatalog, OpenShiftOperatorHubPolicy } from '../../src/catalog';
import { FluxKustomizations, GitOpsLayout, OlmHealthChecks } from '../../src/output';
import { InstallPlanApproval, ScopedOperatorTenant } from '../../src/tenant';
import { describeWithKubectl, kubectlKustomize } from '../util/kubectl';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');

function platform(props: object = {}) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-health-'));
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, ...props });
  const chart = new Chart(app, 'platform');
  new OpenShiftOperatorHubPolicy(chart, 'DefaultCatalogs'); // a cluster-scoped object: the layout has cluster/
  const catalog = new CuratedCatalog(chart, 'Curated', {
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }],
  });
  for (const ns of ['team-b', 'team-a']) {
    const t = new ScopedOperatorTenant(chart, ns, { namespaceName: ns, deriveInstallerRules: true });
    t.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog,
      installPlanApproval: ns === 'team-a' ? InstallPlanApproval.MANUAL : InstallPlanApproval.AUTOMATIC,
      startingCsv: 'etcdoperator.v0.9.4',
      bundle: OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4')),
    });
  }
  app.synth();
  return outdir;
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('argocd/health-checks.yaml', () => {
  test('the argocd-cm patch carries one script per OLM kind under Argo CD\'s key, outside the layout\'s own kustomization', () => {
    const out = platform();
    const patch = parseYaml(read(out, 'argocd/health-checks.yaml'));
    expect(patch.metadata).toEqual({ name: 'argocd-cm', namespace: 'argocd', labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } });
    expect(patch.data).toEqual(OlmHealthChecks.argoCdConfigMapData());
    expect(Object.keys(patch.data)).toEqual([
      'resource.customizations.health.operators.coreos.com_Subscription',
      'resource.customizations.health.operators.coreos.com_InstallPlan',
      'resource.customizations.health.operators.coreos.com_ClusterServiceVersion',
      'resource.customizations.health.operators.coreos.com_CatalogSource',
      'resource.customizations.health.operators.coreos.com_OperatorGroup',
      'resource.customizations.health.olm.operatorframework.io_ClusterExtension',
      'resource.customizations.health.olm.operatorframework.io_ClusterCatalog',
    ]);
    // The layout's own kustomization does not apply it (it configures Argo CD, not the cluster's tenants).
    expect(parseYaml(read(out, 'kustomization.yaml')).resources).toEqual(['cluster', 'tenants']);
    expect(fs.readdirSync(path.join(out, 'argocd'))).toEqual(['health-checks.yaml', 'ignore-differences.yaml']);
  });

  test('argoCdHealthChecks: false leaves it out (and a re-synth removes the old one)', () => {
    const out = platform();
    expect(fs.existsSync(path.join(out, 'argocd/health-checks.yaml'))).toBe(true);
    const again = platform({ argoCdHealthChecks: false });
    expect(fs.readdirSync(path.join(again, 'argocd'))).toEqual(['ignore-differences.yaml']);
  });
});

describe('flux/', () => {
  test('a Kustomization for cluster/ and one per tenant that depends on it, waiting for the OLM kinds and the pinned CSVs', () => {
    // the platform's identity applies every folder here (tenantIdentities: false); issue 42's identities: test/app/gitops-identities.test.ts
    const out = platform({ flux: { path: './clusters/prod', sourceName: 'platform', tenantIdentities: false } });
    expect(fs.readdirSync(path.join(out, 'flux'))).toEqual(['cluster.yaml', 'kustomization.yaml', 'tenant-team-a.yaml', 'tenant-team-b.yaml']);
    expect(parseYaml(read(out, 'flux/kustomization.yaml')).resources).toEqual(['cluster.yaml', 'tenant-team-a.yaml', 'tenant-team-b.yaml']);
    const spec = (name: string, extra: object) => ({
      interval: '10m',
      timeout: '15m',
      path: `./clusters/prod/${name}`,
      prune: true,
      wait: true,
      sourceRef: { kind: 'GitRepository', name: 'platform' },
      ...extra,
      healthCheckExprs: OlmHealthChecks.fluxHealthCheckExprs(),
    });
    expect(parseYaml(read(out, 'flux/cluster.yaml'))).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'tenancy-cluster', namespace: 'flux-system' },
      spec: spec('cluster', {}),
    });
    // team-a pins etcdoperator.v0.9.4 with Manual approval: Flux waits for that CSV (created by OLM, not by Flux)
    expect(parseYaml(read(out, 'flux/tenant-team-a.yaml')).spec).toEqual(spec('tenants/team-a', {
      dependsOn: [{ name: 'tenancy-cluster' }],
      healthChecks: [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'etcdoperator.v0.9.4', namespace: 'team-a' }],
    }));
    // team-b's subscription is Automatic: OLM moves on past the starting CSV, so no CSV is named
    expect(parseYaml(read(out, 'flux/tenant-team-b.yaml')).spec).toEqual(spec('tenants/team-b', { dependsOn: [{ name: 'tenancy-cluster' }] }));
  });

  test('bad Flux options are synth errors naming the field and the fix', () => {
    expect(() => platform({ flux: { path: '../x', interval: '10 minutes', sourceKind: 'HelmRepository', namspace: 'flux' } })).toThrow(
      /flux\.namspace[\s\S]*did you mean "namespace"[\s\S]*flux\.path must be a path inside the Flux source[\s\S]*flux\.sourceKind must be a Flux source kind[\s\S]*flux\.interval is not a Go duration/);
  });

  test('FluxKustomizations.files checks its input like the other statics', () => {
    expect(() => FluxKustomizations.files({ path: './d' }, [{ namespace: 'Team A' }])).toThrow(/FluxKustomizations\.files[\s\S]*tenants\[0\]\.namespace/);
    expect(() => FluxKustomizations.files(undefined as any, [])).toThrow(/options must be FluxOptions, got undefined/);
    expect(FluxKustomizations.files({ path: './d/' }, []).map((f) => f.path)).toEqual(['flux/kustomization.yaml', 'flux/cluster.yaml']);
    // without a cluster/ folder there is no Kustomization for it, and the tenants depend on nothing
    const files = FluxKustomizations.files({ path: './d', cluster: false }, [{ namespace: 'team-a' }]);
    expect(files.map((f) => f.path)).toEqual(['flux/kustomization.yaml', 'flux/tenant-team-a.yaml']);
    expect(parseYaml(files[1].content).spec.dependsOn).toBeUndefined();
    expect(parseYaml(files[1].content).spec.path).toBe('./d/tenants/team-a');
  });
});

/**
 * team-a subscribed to etcd 0.9.4 (pinned, Manual) and an EtcdCluster that depends on the Subscription, synthesized in
 * the GitOps layout with Flux Kustomizations; optionally with a cluster-scoped policy (so the layout has cluster/).
 */
function afterInstallPlatform(prefix: string, options: { clusterPolicy?: boolean; clusterAnnotations?: { [key: string]: string } } = {}): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, flux: { path: './dist', tenantIdentities: false } });
  const chart = new Chart(app, 'platform');
  if (options.clusterPolicy) new OpenShiftOperatorHubPolicy(chart, 'DefaultCatalogs');
  const catalog = new CuratedCatalog(chart, 'Curated', {
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }],
  });
  const team = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
  const etcd = team.subscribe({
    packageName: 'etcd',
    channel: 'singlenamespace-alpha',
    catalog,
    installPlanApproval: InstallPlanApproval.MANUAL,
    startingCsv: 'etcdoperator.v0.9.4',
    bundle: OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4')),
  });
  new ApiObject(chart, 'Cluster', {
    apiVersion: 'etcd.database.coreos.com/v1beta2',
    kind: 'EtcdCluster',
    metadata: { name: 'example', namespace: 'team-a', ...(options.clusterAnnotations ? { annotations: options.clusterAnnotations } : {}) },
    spec: { size: 3, version: '3.2.13' },
  }).node.addDependency(etcd);
  app.synth();
  return outdir;
}

describe('objects that need an operator\'s CRDs', () => {
  test('depending on the Subscription puts them in after-install/, one wave later, with SkipDryRunOnMissingResource, and Flux applies them after the tenant is healthy', () => {
    const outdir = afterInstallPlatform('after-install-', { clusterAnnotations: { 'argocd.argoproj.io/sync-options': 'Prune=false' } });
    const readObj = (f: string) => parseYaml(fs.readFileSync(path.join(outdir, f), 'utf8'));
    expect(readObj('tenants/team-a/subscription-etcd.yaml').metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '2' });
    expect(readObj('tenants/team-a/kustomization.yaml').resources).not.toContain('etcdcluster-example.yaml');
    expect(readObj('after-install/tenants/team-a/etcdcluster-example.yaml').metadata).toEqual({
      name: 'example',
      namespace: 'team-a',
      annotations: { 'argocd.argoproj.io/sync-options': 'Prune=false,SkipDryRunOnMissingResource=true', 'argocd.argoproj.io/sync-wave': '3' },
      labels: { 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'team-a' },
    });
    expect(readObj('kustomization.yaml').resources).toEqual(['tenants', 'after-install']);
    expect(readObj('after-install/kustomization.yaml').resources).toEqual(['tenants']);
    expect(readObj('after-install/tenants/kustomization.yaml').resources).toEqual(['team-a']);
    expect(readObj('after-install/tenants/team-a/kustomization.yaml').resources).toEqual(['etcdcluster-example.yaml']);
    // Flux: its own Kustomization, applied once the tenant's (which waits for the Subscription and the pinned CSV) is ready
    expect(readObj('flux/kustomization.yaml').resources).toEqual(['tenant-team-a-after-install.yaml', 'tenant-team-a.yaml']);
    expect(readObj('flux/tenant-team-a-after-install.yaml').spec).toEqual({
      interval: '10m',
      timeout: '15m',
      path: './dist/after-install/tenants/team-a',
      prune: true,
      wait: true,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      dependsOn: [{ name: 'tenancy-tenant-team-a' }],
      healthCheckExprs: OlmHealthChecks.fluxHealthCheckExprs(),
    });
    // an object that does not depend on the install keeps its folder, wave and options
    expect(readObj('tenants/team-a/operatorgroup-team-a.yaml').metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '1' });
  });

  test('GitOpsLayout.files: the same placement without an App; a dependency on a ClusterExtension counts too', () => {
    const ext = { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', metadata: { name: 'team-x-argocd' } };
    const cr = { apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'argocd', namespace: 'team-x' } };
    const crb = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'global' } };
    const files = GitOpsLayout.files([
      { manifest: ext, tenant: 'team-x' },
      { manifest: cr, tenant: 'team-x', dependsOn: [GitOpsLayout.identity(ext)] },
      { manifest: crb, dependsOn: [GitOpsLayout.identity(ext)] },
    ], { syncWaves: true });
    expect(files.map((f) => f.path)).toEqual([
      'after-install/cluster/kustomization.yaml', 'after-install/cluster/thing-global.yaml',
      'after-install/kustomization.yaml',
      'after-install/tenants/kustomization.yaml', 'after-install/tenants/team-x/argocd-argocd.yaml', 'after-install/tenants/team-x/kustomization.yaml',
      'kustomization.yaml', 'tenants/kustomization.yaml', 'tenants/team-x/clusterextension-team-x-argocd.yaml', 'tenants/team-x/kustomization.yaml',
    ]);
    const cr2 = parseYaml(files.find((f) => f.path.endsWith('argocd-argocd.yaml'))!.content);
    expect(cr2.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true', 'argocd.argoproj.io/sync-wave': '2' });
    expect(parseYaml(files.find((f) => f.path === 'after-install/kustomization.yaml')!.content).resources).toEqual(['cluster', 'tenants']);
  });
});

describeWithKubectl('kubectl builds what the GitOps tools build', () => {
  test('Argo CD\'s install kustomization with the patch merges the scripts into argocd-cm', () => {
    const out = platform();
    const install = fs.mkdtempSync(path.join(os.tmpdir(), 'argocd-install-'));
    fs.writeFileSync(path.join(install, 'argocd-cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\n  namespace: argocd\ndata:\n  timeout.reconciliation: 180s\n');
    fs.copyFileSync(path.join(out, 'argocd/health-checks.yaml'), path.join(install, 'health-checks.yaml'));
    fs.writeFileSync(path.join(install, 'kustomization.yaml'), 'resources: [argocd-cm.yaml]\npatches:\n- path: health-checks.yaml\n');
    const built = kubectlKustomize(install);
    expect(built.ok).toBe(true);
    expect(parseYaml(built.output).data).toEqual({ 'timeout.reconciliation': '180s', ...OlmHealthChecks.argoCdConfigMapData() });
  });

  test('flux/ builds into the Kustomizations; the root builds with after-install/ last', () => {
    const outdir = afterInstallPlatform('after-install-kubectl-', { clusterPolicy: true });
    const flux = kubectlKustomize(path.join(outdir, 'flux'));
    expect(flux.ok).toBe(true);
    expect(parseAllDocuments(flux.output).map((d) => d.toJS().metadata.name)).toEqual([
      'tenancy-cluster', 'tenancy-tenant-team-a', 'tenancy-tenant-team-a-after-install',
    ]);
    const root = kubectlKustomize(outdir);
    expect(root.ok).toBe(true);
    const kinds = parseAllDocuments(root.output).map((d) => d.toJS().kind);
    expect(kinds[kinds.length - 1]).toBe('EtcdCluster');
    expect(kinds.filter((k) => k === 'EtcdCluster')).toHaveLength(1);
  });
});
