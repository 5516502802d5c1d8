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
import { ArgoCdOperatorPatch, FluxKustomizations, GitOpsLayout, OlmHealthChecks, OlmWrites } from '../../src/output';
import { GlobalOperatorInstall } from '../../src/platform';
import { InstallPlanApproval, ScopedOperatorTenant } from '../../src/tenant';
import { describeWithKubectl, kubectlKustomize } from '../util/kubectl';
import { SchemaValidator } from '../util/schema-validator';

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
    expect(fs.readdirSync(path.join(out, 'argocd'))).toEqual(['argocd-operator-patch.yaml', 'health-checks.yaml', 'ignore-differences.yaml']);
  });

  test('argoCdHealthChecks: false leaves it out (and a re-synth removes the old one)', () => {
    const out = platform();
    expect(fs.existsSync(path.join(out, 'argocd/health-checks.yaml'))).toBe(true);
    const again = platform({ argoCdHealthChecks: false });
    expect(fs.readdirSync(path.join(again, 'argocd'))).toEqual(['ignore-differences.yaml']);
  });
});

/**
 * A validator for the ArgoCD kind: the operator's CRD (crds/argocd-operator/, unmodified) with the served v1beta1
 * schema cut to the `spec` fields the patch writes (spec stays closed, so any other field is refused): compiling the
 * whole 2 MB schema takes seconds.
 */
let argoCdValidator: SchemaValidator | undefined;
function argoCdSchemaValidator(): SchemaValidator {
  if (argoCdValidator) return argoCdValidator;
  const crd = parseYaml(fs.readFileSync(path.join(__dirname, '..', '..', 'crds', 'argocd-operator', 'argoproj.io_argocds.yaml'), 'utf8'));
  const v1beta1 = crd.spec.versions.find((v: any) => v.name === 'v1beta1');
  const root = v1beta1.schema.openAPIV3Schema;
  const spec = root.properties.spec;
  const { resourceHealthChecks, resourceIgnoreDifferences } = spec.properties;
  const cutSpec = { ...spec, properties: { resourceHealthChecks, resourceIgnoreDifferences } };
  // status left out: the patch has none
  const { status: _status, ...properties } = root.properties;
  const cutVersion = { ...v1beta1, schema: { openAPIV3Schema: { ...root, properties: { ...properties, spec: cutSpec } } } };
  const cut = { ...crd, spec: { ...crd.spec, versions: [cutVersion] } };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'argocd-crd-'));
  fs.writeFileSync(path.join(dir, 'argocds.yaml'), JSON.stringify(cut));
  return (argoCdValidator = new SchemaValidator({ crdDirs: [dir] }));
}

describe('argocd/argocd-operator-patch.yaml (argocd-operator, OpenShift GitOps)', () => {

  test('the ArgoCD resource with the same scripts in spec.resourceHealthChecks and the ignored differences in spec.resourceIgnoreDifferences, valid against the operator\'s CRD', () => {
    const out = platform();
    const patch = parseYaml(read(out, 'argocd/argocd-operator-patch.yaml'));
    expect(patch.metadata).toEqual({ name: 'openshift-gitops', namespace: 'openshift-gitops' });
    // argocd-operator controllers/argocd/configmap.go getResourceHealthChecks: key resource.customizations.health.<group>_<kind>
    const keys = Object.fromEntries(patch.spec.resourceHealthChecks.map((c: any) => [`${OlmHealthChecks.ARGOCD_KEY_PREFIX}${c.group === '' ? '' : `${c.group}_`}${c.kind}`, c.check]));
    expect(keys).toEqual(OlmHealthChecks.argoCdConfigMapData());
    // getResourceIgnoreDifferences: one key per group and kind, the customization as written in an Application
    expect(patch.spec.resourceIgnoreDifferences.resourceIdentifiers.map((r: any) => ({ group: r.group, kind: r.kind, ...r.customization })))
      .toEqual(OlmWrites.argoCdIgnoreDifferences());
    expect(patch.spec.resourceIgnoreDifferences.resourceIdentifiers.slice(0, 2)).toEqual([
      { group: 'operators.coreos.com', kind: 'OperatorGroup', customization: { jsonPointers: ['/metadata/annotations/olm.providedAPIs', '/status'] } },
      { group: '', kind: 'Namespace', customization: { jqPathExpressions: ['.metadata.labels | select(. != null) | .[keys[] | select(startswith("olm.operatorgroup.uid/"))]'] } },
    ]);
    expect(argoCdSchemaValidator().validate(patch)).toEqual([]);
    // the validator does see these fields: a wrong type and an unknown field are refused
    expect(argoCdSchemaValidator().validate({ ...patch, spec: { resourceHealthChecks: [{ group: 'g', kind: 'K', check: 1, script: 'x' }] } })).toEqual([
      'ArgoCD/openshift-gitops/openshift-gitops: spec.resourceHealthChecks[0].script is an unknown field',
      'ArgoCD/openshift-gitops/openshift-gitops: spec.resourceHealthChecks[0].check must be of type string (got integer)',
    ]);
  });

  test('ArgoCdOperatorPatch.yaml names another instance, and checks its options', () => {
    expect(parseYaml(ArgoCdOperatorPatch.yaml({ name: 'argocd', namespace: 'argocd' })).metadata).toEqual({ name: 'argocd', namespace: 'argocd' });
    expect(() => ArgoCdOperatorPatch.yaml({ namespace: 'Open Shift' })).toThrow(/ArgoCdOperatorPatch\.yaml: options\.namespace/);
    expect(() => ArgoCdOperatorPatch.yaml({ nmae: 'x' } as any)).toThrow(/did you mean "name"/);
  });
});

describe('flux/', () => {
  test('a Kustomization for cluster/ and one per tenant that depends on it, waiting for the OLM kinds; the pinned CSVs in a Kustomization of their own', () => {
    // the platform's identity applies every folder here (tenantIdentities: false); issue 42's identities: test/app/gitops-identities.test.ts
    const out = platform({ flux: { path: './clusters/prod', sourceName: 'platform', tenantIdentities: false } });
    expect(fs.readdirSync(path.join(out, 'flux'))).toEqual(['cluster.yaml', 'empty', 'kustomization.yaml', 'tenant-team-a-operators.yaml', 'tenant-team-a.yaml', 'tenant-team-b.yaml']);
    expect(parseYaml(read(out, 'flux/kustomization.yaml')).resources).toEqual(['cluster.yaml', 'tenant-team-a-operators.yaml', 'tenant-team-a.yaml', 'tenant-team-b.yaml']);
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
    // the folders' own Kustomizations wait for what they apply (wait: true), so they carry no healthChecks: Flux
    // would ignore them (kustomize-controller api/v1/kustomization_types.go, Wait: "When enabled, the HealthChecks are ignored")
    expect(parseYaml(read(out, 'flux/tenant-team-a.yaml')).spec).toEqual(spec('tenants/team-a', { dependsOn: [{ name: 'tenancy-cluster' }] }));
    expect(parseYaml(read(out, 'flux/tenant-team-b.yaml')).spec).toEqual(spec('tenants/team-b', { dependsOn: [{ name: 'tenancy-cluster' }] }));
    // team-a pins etcdoperator.v0.9.4 with Manual approval: a Kustomization that applies nothing waits for that CSV
    // (created by OLM, not by Flux) once team-a's is ready; team-b's subscription is Automatic: OLM moves on past the
    // starting CSV, so no CSV is named
    expect(parseYaml(read(out, 'flux/tenant-team-a-operators.yaml'))).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'tenancy-tenant-team-a-operators', namespace: 'flux-system' },
      spec: spec('flux/empty', {
        prune: false,
        wait: false,
        dependsOn: [{ name: 'tenancy-tenant-team-a' }],
        healthChecks: [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'etcdoperator.v0.9.4', namespace: 'team-a' }],
      }),
    });
    expect(parseYaml(read(out, 'flux/empty/kustomization.yaml'))).toEqual({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [] });
  });

  test('FluxKustomizations.files: no Kustomization both waits for what it applies and names healthChecks (Flux reads healthChecks only with wait: false); the cluster folder\'s operators get their own', () => {
    const files = FluxKustomizations.files({
      path: './d',
      afterInstallCluster: true,
      clusterOperators: [{ namespace: 'platform-operators', name: 'grafana-operator.v5.24.0' }, { namespace: 'platform-operators', name: 'grafana-operator.v5.24.0' }],
    }, [{ namespace: 'team-b' }, { namespace: 'team-a', clusterServiceVersions: ['b.v1', 'a.v1', 'a.v1'], afterInstall: true }]);
    const docs = files.filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml')).map((f) => parseYaml(f.content));
    for (const d of docs) expect(d.spec.wait === true && d.spec.healthChecks !== undefined).toBe(false);
    expect(docs.map((d) => [d.metadata.name, d.spec.path, d.spec.wait, (d.spec.dependsOn ?? []).map((x: any) => x.name), (d.spec.healthChecks ?? []).map((h: any) => `${h.namespace}/${h.name}`)])).toEqual([
      ['tenancy-cluster-after-install', './d/after-install/cluster', true,
        ['tenancy-cluster', 'tenancy-cluster-operators', 'tenancy-tenant-team-a', 'tenancy-tenant-team-a-operators', 'tenancy-tenant-team-b'], []],
      ['tenancy-cluster-operators', './d/flux/empty', false, ['tenancy-cluster'], ['platform-operators/grafana-operator.v5.24.0']],
      ['tenancy-cluster', './d/cluster', true, [], []],
      ['tenancy-tenant-team-a-after-install', './d/after-install/tenants/team-a', true, ['tenancy-tenant-team-a', 'tenancy-tenant-team-a-operators'], []],
      ['tenancy-tenant-team-a-operators', './d/flux/empty', false, ['tenancy-tenant-team-a'], ['team-a/a.v1', 'team-a/b.v1']],
      ['tenancy-tenant-team-a', './d/tenants/team-a', true, ['tenancy-cluster'], []],
      ['tenancy-tenant-team-b', './d/tenants/team-b', true, ['tenancy-cluster'], []],
    ]);
    expect(() => FluxKustomizations.files({ path: './d', clusterOperators: [{ namespace: 'platform-operators', name: 'Not A Name' }] }, []))
      .toThrow(/options\.clusterOperators\[0\]\.name/);
  });

  test('with tenant identities (url): the CSV wait is a platform Kustomization in Flux\'s namespace, after the tenant\'s in its namespace; no Kustomization both waits and names healthChecks', () => {
    const files = FluxKustomizations.files({
      path: './d',
      url: 'https://git.example.com/platform/tenancy.git',
      afterInstallCluster: true,
      clusterOperators: [{ namespace: 'platform-operators', name: 'grafana-operator.v5.24.0' }],
    }, [{ namespace: 'team-a', clusterServiceVersions: ['etcdoperator.v0.9.4'], afterInstall: true }, { namespace: 'team-b' }]);
    expect(files.map((f) => f.path)).toEqual([
      'flux/kustomization.yaml', 'flux/cluster-after-install.yaml', 'flux/cluster-operators.yaml', 'flux/cluster.yaml', 'flux/tenant-team-a-operators.yaml',
      'flux/tenants.yaml', 'flux/tenants/team-a.yaml', 'flux/tenants/team-b.yaml', 'flux/tenants/kustomization.yaml', 'flux/empty/kustomization.yaml',
    ]);
    const docs = files.filter((f) => !f.path.endsWith('kustomization.yaml')).flatMap((f) => parseAllDocuments(f.content).map((d) => d.toJS()))
      .filter((d) => d.kind === 'Kustomization');
    for (const d of docs) expect(d.spec.wait === true && d.spec.healthChecks !== undefined).toBe(false);
    const gate = parseYaml(files.find((f) => f.path === 'flux/tenant-team-a-operators.yaml')!.content);
    expect(gate).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'tenancy-tenant-team-a-operators', namespace: 'flux-system' },
      spec: {
        interval: '10m',
        timeout: '15m',
        path: './d/flux/empty',
        prune: false,
        wait: false,
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
        serviceAccountName: 'kustomize-controller',
        dependsOn: [{ name: 'tenancy', namespace: 'team-a' }],
        healthChecks: [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'etcdoperator.v0.9.4', namespace: 'team-a' }],
        healthCheckExprs: OlmHealthChecks.fluxHealthCheckExprs(),
      },
    });
    const byName = (name: string, namespace: string) => docs.find((d) => d.metadata.name === name && d.metadata.namespace === namespace);
    expect(byName('tenancy-after-install', 'team-a').spec.dependsOn).toEqual([{ name: 'tenancy' }, { name: 'tenancy-tenant-team-a-operators', namespace: 'flux-system' }]);
    expect(byName('tenancy-cluster-after-install', 'flux-system').spec.dependsOn).toEqual([
      { name: 'tenancy-cluster' }, { name: 'tenancy', namespace: 'team-a' }, { name: 'tenancy', namespace: 'team-b' },
      { name: 'tenancy-cluster-operators', namespace: 'flux-system' }, { name: 'tenancy-tenant-team-a-operators', namespace: 'flux-system' },
    ]);
    expect(byName('tenancy-cluster-operators', 'flux-system').spec.healthChecks).toEqual([
      { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'grafana-operator.v5.24.0', namespace: 'platform-operators' },
    ]);
  });

  test('a GlobalOperatorInstall\'s operator pinned with Manual approval: cluster-operators waits for its CSV once cluster/ is ready', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-global-'));
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, flux: { path: './dist', tenantIdentities: false } });
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', {
      image: 'registry.example.com/platform/curated-operators:v1',
      packages: [{ name: 'etcd', channels: [{ name: 'clusterwide-alpha' }] }],
    });
    new GlobalOperatorInstall(chart, 'Global', { namespaceName: 'platform-operators', reason: 'shared etcd (PLAT-1)' }).install({
      packageName: 'etcd',
      channel: 'clusterwide-alpha',
      catalog,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.4-clusterwide',
      tenantsMayDriveReason: 'no tenant in this App',
    });
    app.synth();
    expect(fs.readdirSync(path.join(outdir, 'flux'))).toEqual(['cluster-operators.yaml', 'cluster.yaml', 'empty', 'kustomization.yaml']);
    expect(parseYaml(read(outdir, 'flux/cluster-operators.yaml')).spec).toEqual({
      interval: '10m',
      timeout: '15m',
      path: './dist/flux/empty',
      prune: false,
      wait: false,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      dependsOn: [{ name: 'tenancy-cluster' }],
      healthChecks: [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: 'etcdoperator.v0.9.4-clusterwide', namespace: 'platform-operators' }],
      healthCheckExprs: OlmHealthChecks.fluxHealthCheckExprs(),
    });
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
    // Flux: its own Kustomization, applied once the tenant's (which waits for the Subscription) and the pinned CSV are ready
    expect(readObj('flux/kustomization.yaml').resources).toEqual(['tenant-team-a-after-install.yaml', 'tenant-team-a-operators.yaml', 'tenant-team-a.yaml']);
    expect(readObj('flux/tenant-team-a-after-install.yaml').spec).toEqual({
      interval: '10m',
      timeout: '15m',
      path: './dist/after-install/tenants/team-a',
      prune: true,
      wait: true,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      dependsOn: [{ name: 'tenancy-tenant-team-a' }, { name: 'tenancy-tenant-team-a-operators' }],
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
      'tenancy-cluster', 'tenancy-tenant-team-a', 'tenancy-tenant-team-a-after-install', 'tenancy-tenant-team-a-operators',
    ]);
    // the folder the CSV gates apply builds to no object
    const empty = kubectlKustomize(path.join(outdir, 'flux', 'empty'));
    expect([empty.ok, empty.output.trim()]).toEqual([true, '']);
    const root = kubectlKustomize(outdir);
    expect(root.ok).toBe(true);
    const kinds = parseAllDocuments(root.output).map((d) => d.toJS().kind);
    expect(kinds[kinds.length - 1]).toBe('EtcdCluster');
    expect(kinds.filter((k) => k === 'EtcdCluster')).toHaveLength(1);
  });
});
