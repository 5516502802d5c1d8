/**
 * Issue 40, OLM v1: what operator-controller installs is what was previewed.
 * - item 1: the version constraint (and channels) must admit a bundle given: the preview is of the bundle operator-controller
 *   resolves to (the highest admitted, `resolve/catalog.go`), never an empty preview of versions it does not install;
 * - item 2: one ClusterExtension owns an object (upstream docs/concepts/single-owner-objects.md): the same CRD or any
 *   same-named cluster-scoped object in two extensions of the App, or a CRD of an extension and of an OLM v0 tenant or
 *   global install, is one error naming both owners and the objects;
 * - item 3: on operator-controller's main branch (PRs #2925/#2926) an extension without a namespace installs into the
 *   namespace resolved from its bundle: the team writes that Namespace first, with the template's Pod Security labels,
 *   sets it as spec.namespace, previews in it, and its guardrail admits exactly that namespace.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { admit } from './helpers';
import {
  CatalogSourceReference, GlobalOperatorInstall, OlmV1AcceptedRisk, OlmV1ExtensionOptions, OperatorBundle, OutputLayout, SensitiveGrant, TenancyApp,
} from '../../src';
import { CuratedClusterCatalog, OlmV1Team, OlmV1TeamProps } from '../../src/olmv1';
import { validationErrors } from '../util/synth';

const RENDER = path.join(__dirname, '..', 'fixtures', 'olm-v1-render', 'bundles');
const ARGOCD_DIR = path.join(RENDER, 'argocd-operator.v0.6.0');
const argocd = OperatorBundle.fromDirectory(ARGOCD_DIR);
const grafana = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'grafana-operator', '5.24.0'));
const ARGO_RISKS: OlmV1AcceptedRisk[] = [{ check: 'OLMT-026', reason: 'argo cd manages the cluster' }];
const GRAFANA_RISKS: OlmV1AcceptedRisk[] = [
  SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE,
].map((grant) => ({ check: 'OLMT-044', grant, reason: 'grafana reads its datasources and manages its workloads' }));

/** argocd-operator 0.6.0 with a suggested-namespace template (a copy of the regression fixture, one annotation added). */
function argocdWithTemplate(): OperatorBundle {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'argocd-template-'));
  fs.cpSync(ARGOCD_DIR, dir, { recursive: true });
  const csv = path.join(dir, 'manifests', 'argocd-operator.v0.6.0.clusterserviceversion.yaml');
  const template = '{"metadata":{"name":"argocd-system","labels":{"pod-security.kubernetes.io/enforce":"baseline"},"annotations":{"openshift.io/description":"Argo CD"}}}';
  fs.writeFileSync(csv, fs.readFileSync(csv, 'utf8').replace('metadata:\n  annotations:\n', `metadata:\n  annotations:\n    operatorframework.io/suggested-namespace-template: '${template}'\n`));
  return OperatorBundle.fromDirectory(dir);
}

/** A team `name` with namespace `name` and the given extensions, in `chart`. */
function team(chart: Chart, name: string, extensions: OlmV1ExtensionOptions[], extra: Partial<OlmV1TeamProps> = {}): OlmV1Team {
  const catalog = new CuratedClusterCatalog(chart, `Catalog-${name}`, { catalogName: `${name}-curated`, image: 'registry.example.com/catalogs/c:v1', team: name });
  return new OlmV1Team(chart, `Team-${name}`, {
    team: name,
    groups: [`${name}-admins`],
    namespaces: [name],
    catalog,
    allowedPackages: [{ name: 'argocd-operator' }, { name: 'grafana-operator' }],
    extensions,
    ...extra,
  });
}

const codeOf = (e: string) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1];

describe('item 1: the version constraint against the bundles given (VersionConstraintNotBundle)', () => {
  test('a constraint that admits none of the bundles given is one error naming both', () => {
    const app = Testing.app();
    team(new Chart(app, 'platform'), 'gitops', [{ packageName: 'argocd-operator', namespace: 'gitops', version: '>=1.0.0', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    expect(validationErrors(app)).toEqual([
      '[platform/Team-gitops] extensions[gitops-argocd-operator].bundles="argocd-operator.v0.6.0": version \'>=1.0.0\' of package \'argocd-operator\' admits none '
      + 'of the bundles given (argocd-operator.v0.6.0 (0.6.0, channels alpha)): the preview would describe a version operator-controller does not install, and '
      + "what it installs is not previewed. Fix: pass the bundles the constraint resolves to (OperatorBundle.fromCatalogPackage(catalog, 'argocd-operator') gives "
      + "every bundle of the catalog's package, and the team previews those the version and channels admit), or change version to admit the bundle given "
      + '(VersionConstraintNotBundle)',
    ]);
  });

  test('an admitted bundle is previewed, and TENANCY.md says which one operator-controller resolves to', () => {
    const app = Testing.app();
    const t = team(new Chart(app, 'platform'), 'gitops', [{ packageName: 'argocd-operator', namespace: 'gitops', version: '0.6.0', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    expect(validationErrors(app)).toEqual([]);
    expect(t.reportMarkdown().split('\n').filter((l) => l.includes('resolves to'))).toEqual([
      '  - resolves to argocd-operator.v0.6.0 (0.6.0): operator-controller installs the highest bundle the version and channels admit',
    ]);
  });
});

describe('item 2: one owner per object (OlmV1ObjectOwnedTwice)', () => {
  test('two teams installing the same operator: one error, on the second, naming both extensions and the shared objects', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    team(chart, 'alpha', [{ packageName: 'argocd-operator', namespace: 'alpha', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    team(chart, 'beta', [{ packageName: 'argocd-operator', namespace: 'beta', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    const errors = validationErrors(app);
    expect(errors.map(codeOf)).toEqual(['OlmV1ObjectOwnedTwice']);
    expect(errors[0]).toEqual('[platform/Team-beta] extensions[beta-argocd-operator]="ClusterExtension alpha-argocd-operator (team alpha, argocd-operator.v0.6.0)": '
      + 'ClusterExtension beta-argocd-operator (team beta, argocd-operator.v0.6.0) and ClusterExtension alpha-argocd-operator (team alpha, argocd-operator.v0.6.0) both '
      + 'install CustomResourceDefinition applications.argoproj.io, CustomResourceDefinition applicationsets.argoproj.io, CustomResourceDefinition appprojects.argoproj.io, '
      + 'CustomResourceDefinition argocdexports.argoproj.io, CustomResourceDefinition argocds.argoproj.io and 5 more: operator-controller lets one ClusterExtension own '
      + 'an object (docs/concepts/single-owner-objects.md), so the ClusterExtension applied second never installs ("already exists ... and cannot be managed by '
      + 'operator-controller"). Fix: install the operator once (one ClusterExtension) and let the other team use its APIs, or drop one of the extensions (OlmV1ObjectOwnedTwice)');
  });

  test('two extensions of one team in two namespaces: the same cluster-scoped objects', () => {
    const app = Testing.app();
    team(new Chart(app, 'platform'), 'gitops', [
      { packageName: 'argocd-operator', namespace: 'gitops', bundles: [argocd], acceptedRisks: ARGO_RISKS },
      { packageName: 'argocd-operator', name: 'gitops-argocd-2', namespace: 'gitops-2', bundles: [argocd], acceptedRisks: ARGO_RISKS },
    ], { namespaces: ['gitops', 'gitops-2'] });
    expect(validationErrors(app).map((e) => e.slice(0, e.indexOf(':')))).toEqual(['[platform/Team-gitops] extensions[gitops-argocd-2]="ClusterExtension gitops-argocd-operator (team gitops, argocd-operator.v0.6.0)"']);
  });

  test("an extension next to OLM v0's global install of the same operator: the CRDs, named once", () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new GlobalOperatorInstall(chart, 'Global', { reason: 'platform operators (PLAT-1)' })
      .install({ packageName: 'grafana-operator', channel: 'v5', catalog: CatalogSourceReference.fromName('c', 'olm'), bundle: grafana });
    team(chart, 'obs', [{ packageName: 'grafana-operator', namespace: 'obs', bundles: [grafana], acceptedRisks: GRAFANA_RISKS }]);
    const owned = validationErrors(app).filter((e) => codeOf(e) === 'OlmV1ObjectOwnedTwice');
    const crds = grafana.crds.map((c) => `CustomResourceDefinition ${c.name}`).sort();
    expect(owned).toEqual([
      '[platform/Team-obs] extensions[obs-grafana-operator]="OLM v0 for the global install platform/Global (grafana-operator.v5.24.0)": ClusterExtension obs-grafana-operator '
      + `(team obs, grafana-operator.v5.24.0) and OLM v0 for the global install platform/Global (grafana-operator.v5.24.0) both install ${crds.slice(0, 5).join(', ')}`
      + `${crds.length > 5 ? ` and ${crds.length - 5} more` : ''}: operator-controller lets one ClusterExtension own an object (docs/concepts/single-owner-objects.md), `
      + 'so it refuses to manage a CRD OLM v0 created ("already exists ... and cannot be managed by operator-controller"), and OLM v0 replaces a CRD an extension '
      + 'installed: whichever comes second breaks. Fix: install the operator once, with OLM v0 or with OLM v1, and let the others use its APIs (OlmV1ObjectOwnedTwice)',
    ]);
  });

  test('different operators in different namespaces: no conflict', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    team(chart, 'alpha', [{ packageName: 'argocd-operator', namespace: 'alpha', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    team(chart, 'beta', [{ packageName: 'grafana-operator', namespace: 'beta', bundles: [grafana], acceptedRisks: GRAFANA_RISKS }]);
    expect(validationErrors(app)).toEqual([]);
  });
});

describe("item 3: operator-controller main's install namespace, behind the version", () => {
  test('v1.11.0 (the default) needs the namespace (ExtensionNamespaceRequired)', () => {
    const app = Testing.app();
    team(new Chart(app, 'platform'), 'gitops', [{ packageName: 'argocd-operator', bundles: [argocd], acceptedRisks: ARGO_RISKS }]);
    expect(validationErrors(app)).toEqual([
      '[platform/Team-gitops] extensions[gitops-argocd-operator].namespace: operator-controller v1.11.0 installs into the ClusterExtension\'s spec.namespace, '
      + "which is required. Fix: name one of the team's namespaces, or declare operator-controller's main branch (TenancyAppProps.targets.operatorControllerVersion: "
      + "'main'), which resolves the namespace from the bundle (ExtensionNamespaceRequired)",
    ]);
  });

  /** A team on main whose extension has no namespace, with the templated argocd bundle. */
  function onMain(app: App) {
    const chart = new Chart(app, 'platform');
    const t = team(chart, 'gitops', [{ packageName: 'argocd-operator', bundles: [argocdWithTemplate()], acceptedRisks: ARGO_RISKS }],
      app instanceof TenancyApp ? {} : { operatorControllerVersion: 'main' });
    return { chart, t };
  }

  test('the namespace from the template: written first with its Pod Security labels, spec.namespace, the preview in it, the guardrail admits it', () => {
    const app = Testing.app();
    const { chart, t } = onMain(app);
    expect(validationErrors(app)).toEqual([]);
    const objects = Testing.synth(chart);
    const kinds = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'argocd-system')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'argocd-system', labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'olm-tenancy.io/team': 'gitops' }, annotations: { 'openshift.io/description': 'Argo CD' } },
    });
    expect(kinds.indexOf('Namespace/argocd-system')).toBeLessThan(kinds.indexOf('ClusterExtension/gitops-argocd-operator'));
    const ext = objects.find((o) => o.kind === 'ClusterExtension');
    expect(ext.spec.namespace).toEqual('argocd-system');
    expect(t.namespaces).toEqual(['argocd-system', 'gitops']);
    expect(t.reportMarkdown()).toContain('namespace `argocd-system` (resolved from the bundle, as operator-controller main does)');
    expect(t.reportMarkdown()).toContain('argocd-operator.v0.6.0: installed with cluster-admin; 1 subject(s) bound: ServiceAccount argocd-system/argocd-operator-controller-manager');
    const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy').spec;
    const request = { operation: 'CREATE', userInfo: { username: 'alice', groups: ['gitops-admins'] } };
    expect(admit(policy, request, ext).denied).toEqual([]);
    expect(admit(policy, request, { ...ext, spec: { ...ext.spec, namespace: 'kube-system' } }).denied).toEqual(['spec.namespace must be one of argocd-system, gitops, got: kube-system']);
  });

  test('declared in TenancyAppProps.targets: the GitOps layout applies the Namespace before the ClusterExtension', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'main-ns-'));
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, targets: { operatorControllerVersion: 'main' } });
    onMain(app);
    app.synth();
    const folder = path.join(outdir, 'tenants', 'gitops');
    expect(parse(fs.readFileSync(path.join(folder, 'kustomization.yaml'), 'utf8')).resources).toEqual([
      'namespace-gitops.yaml', 'namespace-argocd-system.yaml', 'clusterextension-gitops-argocd-operator.yaml',
    ]);
    expect(parse(fs.readFileSync(path.join(folder, 'clusterextension-gitops-argocd-operator.yaml'), 'utf8')).metadata.annotations['argocd.argoproj.io/sync-wave']).toEqual('1');
    expect(parse(fs.readFileSync(path.join(folder, 'namespace-argocd-system.yaml'), 'utf8')).metadata.annotations['argocd.argoproj.io/sync-wave']).toEqual('0');
  });

  test('no template or annotation: <package>-system; no bundle: the namespace cannot be resolved (InstallNamespaceNotResolved)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    team(chart, 'gitops', [{ packageName: 'argocd-operator', bundles: [argocd], acceptedRisks: ARGO_RISKS }], { operatorControllerVersion: 'main' });
    expect(validationErrors(app)).toEqual([]);
    expect(Testing.synth(chart).find((o) => o.kind === 'ClusterExtension').spec.namespace).toEqual('argocd-operator-system');
    const none = Testing.app();
    team(new Chart(none, 'platform'), 'gitops', [{ packageName: 'argocd-operator' }], { operatorControllerVersion: 'main' });
    expect(validationErrors(none).map(codeOf)).toEqual(['InstallNamespaceNotResolved']);
  });
});
