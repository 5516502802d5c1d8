import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { admit, appAndChart, validationErrors, validator } from './helpers';
import { OperatorBundle } from '../../src/bundle';
import { CuratedClusterCatalog, OlmV1InstallerRbac, OlmV1Team, RegistryV1Render } from '../../src/olmv1';
import { PolicyRules, RbacRules } from '../../src/rbac';
import { ARGOCD_BUNDLE as argocd, argocdTeam } from '../util/argocd-team';
import { acceptingEverything } from '../util/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

describe('OlmV1InstallerRbac: the installer ServiceAccount of operator-controller < v1.11.0', () => {
  test('against upstream\'s hand-derived sample for argocd-operator v0.6.0 (derive-service-account.md): only the documented differences', () => {
    const docs = parseAllDocuments(fs.readFileSync(path.join(FIXTURES, 'olm-v1-installer', 'olm_v1_clusterextension.yaml'), 'utf8')).map((d) => d.toJSON());
    const sampleCluster = docs.filter((d) => d.kind === 'ClusterRole').flatMap((d) => d.rules);
    const sampleRole = docs.filter((d) => d.kind === 'Role').flatMap((d) => d.rules);
    const derived = OlmV1InstallerRbac.derive('argocd', [RegistryV1Render.forExtension(argocd, { installNamespace: 'argocd' })]);
    // The CSV's namespaced permissions become a ClusterRole in AllNamespaces mode: creating it needs its rules
    // cluster-wide (the sample gets away with rbac '*' on '*', i.e. escalate). Likewise the bundle's
    // argocd-operator-metrics-reader ClusterRole grants get /metrics, which the sample does not hold either.
    expect(RbacRules.compact(RbacRules.covers(sampleCluster.map((r: any) => PolicyRules.fromJson(r)), derived.clusterRules).missing)).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      { nonResourceUrls: ['/metrics'], verbs: ['get'] },
    ]);
    // clusterobjectsets belong to the alpha BoxcutterRuntime, not rendered by the registry+v1 Helm applier.
    expect(RbacRules.compact(RbacRules.covers(derived.clusterRules, sampleCluster.map((r: any) => PolicyRules.fromJson(r))).missing)).toEqual([
      { apiGroups: ['olm.operatorframework.io'], resources: ['clusterobjectsets/finalizers'], verbs: ['update'] },
    ]);
    expect(RbacRules.covers(sampleRole.map((r: any) => PolicyRules.fromJson(r)), derived.namespacedRules.argocd).missing).toEqual([]);
    expect(Object.keys(derived.namespacedRules)).toEqual(['argocd']);
    // every rendered ClusterRole's rules are held (the API server's escalation check), without escalate or bind on '*'
    const render = RegistryV1Render.forExtension(argocd, { installNamespace: 'argocd' });
    for (const cr of render.objects.filter((o) => o.kind === 'ClusterRole')) {
      expect(RbacRules.covers(derived.clusterRules, (cr.rules ?? []).map((r: any) => PolicyRules.fromJson(r))).missing).toEqual([]);
    }
  });

  test('non-resource URL rules of rendered ClusterRoles survive the derivation (argocd-operator-metrics-reader: get /metrics)', () => {
    const derived = OlmV1InstallerRbac.derive('argocd', [RegistryV1Render.forExtension(argocd, { installNamespace: 'argocd' })]);
    expect(RbacRules.covers(derived.clusterRules, [PolicyRules.fromJson({ nonResourceURLs: ['/metrics'], verbs: ['get'] })]).missing).toEqual([]);
    expect(derived.clusterRules.filter((r) => r.nonResourceUrls !== undefined)).toEqual([{ nonResourceUrls: ['/metrics'], verbs: ['get'] }]);
  });

  test('a binding to a role the bundle does not define needs bind on exactly that role', () => {
    const flux = OperatorBundle.fromDirectory(path.join(FIXTURES, 'olm-v1-preview', 'grafana-operator-binds-cluster-admin'));
    const derived = OlmV1InstallerRbac.derive('flux', [RegistryV1Render.forExtension(flux, { installNamespace: 'team-x' })]);
    expect(RbacRules.covers(derived.clusterRules, [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }]).missing).toEqual([]);
    expect(RbacRules.covers(derived.clusterRules, [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['admin'] }]).missing.length).toEqual(1);
  });

  test('OlmV1Team.addExtension after construction: its legacy installer account is in the guardrail policy (written at synth)', () => {
    const { app, chart } = appAndChart();
    acceptingEverything(app); // the extension accepts OLMT-026 (Argo CD gets cluster-admin), not the point here
    const catalog = new CuratedClusterCatalog(chart, 'C', { catalogName: 'argocd', image: 'registry.example.com/catalogs/argocd:v1', team: 'gitops' });
    const team = new OlmV1Team(chart, 'T', { team: 'gitops', groups: ['gitops-admins'], namespaces: ['argocd'], catalog, allowedPackages: [{ name: 'argocd-operator' }] });
    const policyBefore = (team.guardrails.node.findChild('Policy') as ApiObject).toJson();
    team.addExtension({
      packageName: 'argocd-operator',
      name: 'gitops-argocd',
      namespace: 'argocd',
      bundles: [argocd],
      legacyServiceAccount: 'argocd-installer',
      acceptedRisks: [{ check: 'OLMT-026', reason: 'argo cd manages the cluster' }],
    });
    expect(validationErrors(app)).toEqual([]);
    const objs = Testing.synth(chart);
    const vap = objs.find((o) => o.kind === 'ValidatingAdmissionPolicy');
    const ext = objs.find((o) => o.kind === 'ClusterExtension');
    const request = { kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation: 'CREATE', userInfo: { username: 'bob', groups: ['gitops-admins'] } };
    // the team's own extension, as written, is admitted
    expect(admit(vap.spec, request, ext)).toEqual({ matched: true, denied: [] });
    const withSa = (name: string) => ({ ...ext, spec: { ...ext.spec, serviceAccount: { name } } });
    expect(admit(vap.spec, request, withSa('default')).denied).toEqual(['team gitops may only set spec.serviceAccount.name to argocd-installer']);
    // before the extension was added the same policy refused every account
    expect(admit(policyBefore.spec, request, withSa('argocd-installer')).denied).toEqual([
      'team gitops may not set spec.serviceAccount (ignored since operator-controller v1.11.0; older versions install as it)',
    ]);
  });

  test('OlmV1Team legacyServiceAccount: writes the ServiceAccount, its derived RBAC and spec.serviceAccount; all valid', () => {
    const { app, chart } = appAndChart();
    acceptingEverything(app); // the extension accepts OLMT-026 (Argo CD gets cluster-admin), not the point here
    argocdTeam(chart, { extension: { legacyServiceAccount: 'argocd-installer' } });
    expect(validationErrors(app)).toEqual([]);
    const objs = Testing.synth(chart);
    // the ServiceAccount as named; its roles and bindings named after the extension (`<extension>-installer`)
    expect(objs.filter((o) => ['argocd-installer', 'gitops-argocd-installer'].includes(o.metadata.name)).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/argocd/argocd-installer', 'ClusterRole//gitops-argocd-installer', 'ClusterRoleBinding//gitops-argocd-installer', 'Role/argocd/gitops-argocd-installer', 'RoleBinding/argocd/gitops-argocd-installer',
    ]);
    expect(objs.find((o) => o.kind === 'ClusterExtension').spec.serviceAccount).toEqual({ name: 'argocd-installer' });
    expect(validator.validateAll(objs)).toEqual([]);
  });

  test('legacyServiceAccount without installable bundles is an error', () => {
    const { app, chart } = appAndChart();
    const catalog = new CuratedClusterCatalog(chart, 'C', { catalogName: 'c', image: 'registry.example.com/c:v1', team: 'gitops' });
    new OlmV1Team(chart, 'T', {
      team: 'gitops',
      groups: ['g'],
      namespaces: ['argocd'],
      catalog,
      allowedPackages: [{ name: 'argocd-operator' }],
      extensions: [{ packageName: 'argocd-operator', namespace: 'argocd', legacyServiceAccount: 'installer' }],
    });
    expect(validationErrors(app)).toEqual([
      "[platform/T] extensions[gitops-argocd-operator].legacyServiceAccount=\"installer\": the installer ServiceAccount's rules are derived from the bundles, and no installable bundle was given. Fix: pass the bundles the version range resolves to (LegacyServiceAccountWithoutBundles)",
    ]);
  });
});
