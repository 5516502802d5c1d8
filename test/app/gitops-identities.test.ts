/**
 * Issue 42, "GitOps identities, generated and checked": each tenant folder applies as the tenant's own ServiceAccount
 * (Flux `spec.serviceAccountName`, Argo CD sync impersonation), whose RBAC is derived from the folder's objects and is
 * exactly what applying them needs; the platform applies `cluster/` (the one accepted exception) and every tenant
 * boundary (Namespace, Secrets, installer identity, OperatorGroup, CatalogSources, quota, NetworkPolicies); the
 * identities are audited with the tenants' other identities (AUDIT.txt, TENANCY.md). One small App (two OLM v0
 * tenants, one OLM v1 team, one own repository each of team-b and the v1 team), synthesized once.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import { parse, parseAllDocuments } from 'yaml';
import {
  AccessLevel, ArgoCdApplications, CatalogSourceReference, CuratedCatalog, CuratedCatalogAdmissionPolicy, CuratedClusterCatalog, EffectivePower,
  ManagedObjectsAdmissionPolicy, OlmHealthChecks, OlmV1Team, OperatorBundle, OutputLayout, PolicyRules, RbacRules, ScopedOperatorTenant, SubjectKind,
  TenancyApp, TenancyAudit,
} from '../../src';
import { olmV1UnfencedWriters } from '../../src/audit/olm-v1-writers';
import { ApplierRules } from '../../src/rbac/applier-rules';
import { PLATFORM_KINDS } from '../../src/tenant/rbac/gitops-applier';
import { admit as admitPolicy, evaluateBool, toCel } from '../util/cel-admission';
import { filesBelow } from '../util/files';
import { HAS_KUBECTL, kubectlKustomize } from '../util/kubectl';
import { LUA, runHealthScript } from '../util/lua';
import { SchemaValidator } from '../util/schema-validator';

/** The resources of the kinds these tests send, as the API server names them in a request. */
const RESOURCES: { [kind: string]: { group: string; version: string; resource: string; namespaced: boolean } } = {
  ClusterExtension: { group: 'olm.operatorframework.io', version: 'v1', resource: 'clusterextensions', namespaced: false },
  Subscription: { group: 'operators.coreos.com', version: 'v1alpha1', resource: 'subscriptions', namespaced: true },
  CatalogSource: { group: 'operators.coreos.com', version: 'v1alpha1', resource: 'catalogsources', namespaced: true },
};
/** `admit` with the request naming the object's resource, namespace and name, as the API server's requests do. */
function admit(spec: any, request: any, object: any, oldObject: any = null) {
  const { namespaced, ...resource } = RESOURCES[request.kind.kind];
  const meta = (object ?? oldObject).metadata;
  return admitPolicy(spec, { resource, namespace: namespaced ? meta.namespace : '', name: meta.name, ...request }, object, oldObject);
}

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const REPO = 'https://git.example.com/platform/tenancy.git';
const DIGEST = '@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-identities-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The App of this file: team-a (access grants, an EtcdCluster after the install, a NetworkPolicy), team-b (own repository), team obs (OLM v1). */
function build(outdir: string): TenancyApp {
  const app = new TenancyApp({
    outdir,
    layout: OutputLayout.GITOPS,
    syncWaves: true,
    report: true,
    quiet: true,
    flux: { path: './dist', url: REPO },
    argoCd: { repoUrl: REPO, path: 'dist' },
  });
  const platform = new Chart(app, 'platform');
  const curated = new CuratedCatalog(platform, 'Curated', { image: 'registry.example.com/curated:v1', packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }] });
  new CuratedCatalogAdmissionPolicy(platform, 'CuratedOnly', { catalog: curated });
  const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
  for (const ns of ['team-a', 'team-b']) {
    const chart = new Chart(app, ns);
    const t = new ScopedOperatorTenant(chart, 'Tenant', {
      namespaceName: ns,
      deriveInstallerRules: true,
      createTokenSecret: true,
      ...(ns === 'team-b' ? { gitOpsSource: { url: 'https://git.example.com/team-b/operators.git', path: 'deploy' } } : {}),
    });
    const sub = t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: curated, bundle: etcd });
    curated.serve(t);
    if (ns === 'team-a') {
      const admins = Group.fromName(chart, 'Admins', 'team-a-admins');
      t.grantSubscriptionManagement(admins);
      t.grantOperatorAccess(admins, AccessLevel.ADMIN);
      new ApiObject(chart, 'Isolation', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny-all', namespace: ns }, spec: { podSelector: {}, policyTypes: ['Ingress'] } });
      new ApiObject(chart, 'Cluster', { apiVersion: 'etcd.database.coreos.com/v1beta2', kind: 'EtcdCluster', metadata: { name: 'example', namespace: ns }, spec: { size: 3 } })
        .node.addDependency(sub);
    }
  }
  const catalog = new CuratedClusterCatalog(new Chart(app, 'v1-catalogs'), 'Obs', { catalogName: 'obs-curated', image: `registry.example.com/obs${DIGEST}`, team: 'obs' });
  new OlmV1Team(new Chart(app, 'v1-obs'), 'Team', {
    team: 'obs',
    groups: ['obs-admins'],
    namespaces: ['obs', 'obs-dev'],
    catalog,
    allowedPackages: [{ name: 'etcd', versionRange: '>=0.9.0 <0.10.0' }],
    extensions: [{ packageName: 'etcd', namespace: 'obs' }],
    gitOpsSource: { url: 'https://git.example.com/obs/operators.git' },
  });
  return app;
}

const outdir = path.join(root, 'out');
const app = build(outdir);
app.synth();
const files = filesBelow(outdir);
const read = (f: string) => fs.readFileSync(path.join(outdir, f), 'utf8');
const docs = (f: string): any[] => parseAllDocuments(read(f)).map((d) => d.toJS());
/** Every object of a layout folder (its kustomization's files), as written. */
const folder = (dir: string): any[] => (parse(read(`${dir}/kustomization.yaml`)).resources as string[]).flatMap((r) => docs(`${dir}/${r}`));
const objects = app.synthObjects().flatMap((c) => c.objects);
const clusterObjects = folder('cluster');
const roleOf = (ns: string, name: string) => clusterObjects.find((o) => o.kind === 'Role' && o.metadata.namespace === ns && o.metadata.name === name);
const rulesOf = (ns: string, name: string) => (roleOf(ns, name)?.rules ?? []).map((r: any) => PolicyRules.fromJson(r));
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

describe('issue 42: who applies what (the layout)', () => {
  test('GIVEN tenant identities THEN each tenant folder holds only what its applier applies; the platform kinds and the identities are in cluster/, with the tenant label', () => {
    expect(files.filter((f) => f.startsWith('tenants/team-a/') || f.startsWith('after-install/'))).toEqual([
      'after-install/kustomization.yaml',
      'after-install/tenants/kustomization.yaml',
      'after-install/tenants/team-a/etcdcluster-example.yaml',
      'after-install/tenants/team-a/kustomization.yaml',
      'tenants/team-a/kustomization.yaml',
      'tenants/team-a/role-team-a-subscription-manager.yaml',
      'tenants/team-a/rolebinding-team-a-operator-admin.yaml',
      'tenants/team-a/rolebinding-team-a-subscription-manager.yaml',
      'tenants/team-a/subscription-etcd.yaml',
    ]);
    expect(files.filter((f) => f.startsWith('tenants/obs/'))).toEqual(['tenants/obs/clusterextension-obs-etcd.yaml', 'tenants/obs/kustomization.yaml']);
    // the boundaries of team-a, applied by the platform
    const teamA = clusterObjects.filter((o) => o.metadata.labels?.['cdk8s-olm-tenancy.io/tenant'] === 'team-a').map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(teamA).toEqual([
      'CatalogSource/curated-operators', 'Namespace/team-a', 'NetworkPolicy/deny-all', 'OperatorGroup/team-a', 'Role/team-a', 'Role/tenancy-applier', 'RoleBinding/team-a', 'RoleBinding/tenancy-applier',
      'Secret/team-a', 'ServiceAccount/team-a', 'ServiceAccount/tenancy-applier',
    ]);
    // no tenant folder holds a platform kind
    const tenantKinds = files.filter((f) => f.startsWith('tenants/') && f.split('/').length === 3 && !f.endsWith('kustomization.yaml')).flatMap(docs)
      .map((o) => ({ group: groupOf(o.apiVersion), kind: o.kind }));
    expect(tenantKinds.filter((k) => PLATFORM_KINDS.some((p) => p.group === k.group && p.kind === k.kind))).toEqual([]);
  });

  test('the applier of a tenant folder may apply exactly its objects (create, patch by name, prune) and nothing the platform applies', () => {
    for (const [ns, dirs] of [['team-a', ['tenants/team-a', 'after-install/tenants/team-a']], ['team-b', ['tenants/team-b']]] as Array<[string, string[]]>) {
      const rules = rulesOf(ns, 'tenancy-applier');
      const applied = dirs.flatMap(folder);
      expect(applied.length).toBeGreaterThan(0);
      for (const o of applied) {
        const resource = o.kind === 'EtcdCluster' ? 'etcdclusters' : ApplierRules.resourceOf(o.kind);
        for (const verb of ['create', 'patch', 'update', 'get', 'delete']) {
          expect({ o: `${o.kind}/${o.metadata.name}`, verb, allowed: RbacRules.allows(rules, { verb, apiGroup: groupOf(o.apiVersion), resource, name: o.metadata.name }) })
            .toEqual({ o: `${o.kind}/${o.metadata.name}`, verb, allowed: true });
        }
      }
      // RBAC's escalation check: it holds every rule of the Roles it creates, and bind on the other roles its bindings name
      for (const role of applied.filter((o) => o.kind === 'Role')) {
        expect(RbacRules.covers(rules, role.rules.map((r: any) => PolicyRules.fromJson(r))).missing).toEqual([]);
      }
      for (const b of applied.filter((o) => o.kind === 'RoleBinding' && o.roleRef.kind === 'ClusterRole')) {
        expect(RbacRules.allows(rules, { verb: 'bind', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: b.roleRef.name })).toBe(true);
        expect(RbacRules.allows(rules, { verb: 'bind', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'cluster-admin' })).toBe(false);
      }
      // nothing of the platform's: never create, patch or escalate; no other object of a kind it applies is patched
      for (const [apiGroup, resource] of [['', 'namespaces'], ['', 'secrets'], ['', 'resourcequotas'], ['networking.k8s.io', 'networkpolicies'], ['operators.coreos.com', 'operatorgroups'],
        ['operators.coreos.com', 'catalogsources'], ['rbac.authorization.k8s.io', 'clusterrolebindings'], ['', 'pods'], ['apps', 'deployments']]) {
        for (const verb of ['create', 'patch', 'update']) expect({ resource, verb, allowed: RbacRules.allows(rules, { verb, apiGroup, resource, name: ns }) }).toEqual({ resource, verb, allowed: false });
      }
      expect(RbacRules.allows(rules, { verb: 'escalate', apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', name: 'x' })).toBe(false);
      // by name only: team-b's folder has no Role that grants more (team-a's subscription-manager Role grants every
      // Subscription, and the applier must hold what it grants)
      if (ns === 'team-b') expect(RbacRules.allows(rules, { verb: 'patch', apiGroup: 'operators.coreos.com', resource: 'subscriptions', name: 'not-in-the-folder' })).toBe(false);
      expect(RbacRules.allows(rules, { verb: 'list', apiGroup: '', resource: 'secrets' })).toBe(false);
    }
  });

  test('the baseline\'s ManagedObjectsAdmissionPolicy refuses a tenant applier\'s update of a NetworkPolicy (a ServiceAccount of the namespace): so the platform applies them', () => {
    const request = (username: string) => ({ request: toCel({ userInfo: { username }, namespace: 'team-a' }) });
    expect(evaluateBool(ManagedObjectsAdmissionPolicy.EXPRESSION, request('system:serviceaccount:team-a:tenancy-applier'))).toBe(false);
    expect(evaluateBool(ManagedObjectsAdmissionPolicy.EXPRESSION, request('system:serviceaccount:flux-system:kustomize-controller'))).toBe(true);
  });

  test('the applier of the OLM v1 team: a Role in each team namespace and a ClusterRole for its ClusterExtension only', () => {
    const clusterRole = clusterObjects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'obs-tenancy-applier');
    expect(clusterRole.rules).toEqual([
      { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], resourceNames: ['obs-etcd'], verbs: ['patch', 'update'] },
      { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['create', 'delete', 'get', 'list', 'watch'] },
    ]);
    expect(clusterObjects.find((o) => o.kind === 'ClusterRoleBinding' && o.metadata.name === 'obs-tenancy-applier').subjects)
      .toEqual([{ kind: 'ServiceAccount', name: 'tenancy-applier', namespace: 'obs' }]);
    expect(['obs', 'obs-dev'].map((ns) => roleOf(ns, 'tenancy-applier') !== undefined)).toEqual([true, true]);
  });
});

describe('issue 42: the identities are audited like every other identity', () => {
  const result = TenancyAudit.ofConstruct(app);

  test('AUDIT.txt lists each tenant\'s GitOps identities and names the platform applier as the one exception; no tenant reaches another', () => {
    expect(result.tenants.map((t) => [t.namespace, t.gitOpsIdentities, t.findings])).toEqual([
      ['team-a', ['ServiceAccount team-a/tenancy-applier'], []],
      ['team-b', ['ServiceAccount team-b/tenancy-applier', 'ServiceAccount team-b/tenancy-applier-self-service'], []],
    ]);
    expect(result.tenants[0].subjects).toContain('ServiceAccount team-a/tenancy-applier');
    const text = TenancyAudit.report(result);
    expect(text).toContain('  GitOps identities (audited with the others): ServiceAccount team-b/tenancy-applier, ServiceAccount team-b/tenancy-applier-self-service\n');
    expect(text).toContain('platform applier ServiceAccount flux-system/kustomize-controller (Flux), ServiceAccount argocd/argocd-application-controller (Argo CD): applies cluster/');
    expect(text).toContain('no tenant reaches another');
  });

  test('EffectivePower: every grant each identity can reach is in its own namespaces (the OLM v1 applier: ClusterExtensions, fenced below)', () => {
    // the OLM v1 team's guardrail checks its appliers' ClusterExtension writes (by user name), so operator-controller's
    // cluster-admin is not theirs (issue 37's deputy row counts an unguarded ClusterExtension writer as cluster-admin)
    const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'olmv1-team-obs');
    const guardedUsernames: string[] = policy.spec.matchConditions[0].expression.match(/system:serviceaccount:[^']+/g);
    expect(guardedUsernames).toEqual(['system:serviceaccount:obs:tenancy-applier', 'system:serviceaccount:obs:tenancy-applier-self-service']);
    const unguarded = new EffectivePower(objects.map((manifest) => ({ manifest })));
    expect(unguarded.of({ kind: SubjectKind.SERVICE_ACCOUNT, name: 'tenancy-applier', namespace: 'obs' }).unbounded).toBe(true);
    const power = new EffectivePower(objects.map((manifest) => ({ manifest })), { olmV1GuardedGroups: ['obs-admins'], olmV1GuardedUsernames: guardedUsernames });
    for (const [ns, names, home] of [['team-a', ['tenancy-applier'], ['team-a']], ['team-b', ['tenancy-applier', 'tenancy-applier-self-service'], ['team-b']],
      ['obs', ['tenancy-applier', 'tenancy-applier-self-service'], ['obs', 'obs-dev']]] as Array<[string, string[], string[]]>) {
      for (const name of names) {
        const grants = power.of({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace: ns }).grants;
        const outside = grants.filter((g) => g.namespace !== '' && !home.includes(g.namespace));
        expect({ name, ns, outside }).toEqual({ name, ns, outside: [] });
        const clusterWide = grants.filter((g) => g.namespace === '').flatMap((g) => g.rules).flatMap((r) => r.resources ?? []);
        expect(new Set(clusterWide)).toEqual(new Set(ns === 'obs' ? ['clusterextensions', ...(name.endsWith('self-service') ? ['clustercatalogs'] : [])] : []));
      }
    }
  });

  test('TENANCY.md says who applies each folder', () => {
    const md = read('TENANCY.md');
    expect(md).toContain('## Who applies what (GitOps identities)');
    expect(md).toContain('| `cluster/` | ServiceAccount flux-system/kustomize-controller (Flux), ServiceAccount argocd/argocd-application-controller (Argo CD) |');
    expect(md).toMatch(/\| `tenants\/team-a\/` \| `ServiceAccount team-a\/tenancy-applier` \| \d+ rule\(s\) in team-a \|/);
    expect(md).toMatch(/\| `own repository \(https:\/\/git\.example\.com\/team-b\/operators\.git\)` \| `ServiceAccount team-b\/tenancy-applier-self-service` \|/);
  });
});

describe('issue 42: Flux', () => {
  test('flux/: the platform\'s Kustomizations as the platform\'s ServiceAccount; per tenant, in its namespace, a source and Kustomizations as its own ServiceAccounts', () => {
    expect(files.filter((f) => f.startsWith('flux/'))).toEqual(['flux/cluster.yaml', 'flux/kustomization.yaml',
      'flux/tenants.yaml', 'flux/tenants/kustomization.yaml', 'flux/tenants/obs.yaml', 'flux/tenants/team-a.yaml', 'flux/tenants/team-b.yaml']);
    expect(parse(read('flux/kustomization.yaml')).resources).toEqual(['cluster.yaml', 'tenants.yaml']);
    const exprs = OlmHealthChecks.fluxHealthCheckExprs();
    const spec = (p: string, extra: object) => ({ interval: '10m', timeout: '15m', path: p, prune: true, wait: true, ...extra });
    expect(docs('flux/cluster.yaml')).toEqual([{
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'tenancy-cluster', namespace: 'flux-system' },
      spec: spec('./dist/cluster', { sourceRef: { kind: 'GitRepository', name: 'flux-system' }, serviceAccountName: 'kustomize-controller', healthCheckExprs: exprs }),
    }]);
    expect(docs('flux/tenants.yaml')).toEqual([{
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'tenancy-tenants', namespace: 'flux-system' },
      spec: spec('./dist/flux/tenants', { sourceRef: { kind: 'GitRepository', name: 'flux-system' }, serviceAccountName: 'kustomize-controller', dependsOn: [{ name: 'tenancy-cluster' }] }),
    }]);
    const source = (name: string, ns: string, url: string) => ({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name, namespace: ns },
      spec: { interval: '10m', url, ref: { branch: 'main' } },
    });
    const kustomization = (name: string, ns: string, s: object) => ({ apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name, namespace: ns }, spec: s });
    expect(docs('flux/tenants/team-a.yaml')).toEqual([
      source('tenancy', 'team-a', REPO),
      kustomization('tenancy', 'team-a', spec('./dist/tenants/team-a', { sourceRef: { kind: 'GitRepository', name: 'tenancy' }, serviceAccountName: 'tenancy-applier', healthCheckExprs: exprs })),
      kustomization('tenancy-after-install', 'team-a', spec('./dist/after-install/tenants/team-a', { sourceRef: { kind: 'GitRepository', name: 'tenancy' }, serviceAccountName: 'tenancy-applier', dependsOn: [{ name: 'tenancy' }], healthCheckExprs: exprs })),
    ]);
    expect(docs('flux/tenants/team-b.yaml').slice(2)).toEqual([
      source('tenancy-self-service', 'team-b', 'https://git.example.com/team-b/operators.git'),
      kustomization('tenancy-self-service', 'team-b', spec('deploy', { sourceRef: { kind: 'GitRepository', name: 'tenancy-self-service' }, serviceAccountName: 'tenancy-applier-self-service', dependsOn: [{ name: 'tenancy' }], healthCheckExprs: exprs })),
    ]);
  });
});

describe('issue 42: Argo CD', () => {
  const apps = folder('argocd/apps');
  const byName = (kind: string, name: string) => apps.find((o) => o.kind === kind && o.metadata.name === name);

  test('an app-of-apps in sync waves: projects (-1), cluster (0), tenants (1), their after-install folders and own repositories (2)', () => {
    expect(apps.map((o) => [o.kind, o.metadata.name, o.metadata.annotations['argocd.argoproj.io/sync-wave']])).toEqual([
      // file order (`-` sorts before `.`)
      ['Application', 'tenancy-cluster', '0'],
      ['Application', 'tenancy-tenant-obs-self-service', '2'],
      ['Application', 'tenancy-tenant-obs', '1'],
      ['Application', 'tenancy-tenant-team-a-after-install', '2'],
      ['Application', 'tenancy-tenant-team-a', '1'],
      ['Application', 'tenancy-tenant-team-b-self-service', '2'],
      ['Application', 'tenancy-tenant-team-b', '1'],
      ['AppProject', 'tenancy-platform', '-1'],
      ['AppProject', 'tenancy-tenant-obs-self-service', '-1'],
      ['AppProject', 'tenancy-tenant-obs', '-1'],
      ['AppProject', 'tenancy-tenant-team-a', '-1'],
      ['AppProject', 'tenancy-tenant-team-b-self-service', '-1'],
      ['AppProject', 'tenancy-tenant-team-b', '-1'],
    ]);
  });

  test('a tenant project: destinations its namespaces only, cluster-scoped kinds only what its folder holds, synced as its ServiceAccount', () => {
    const server = 'https://kubernetes.default.svc';
    expect(byName('AppProject', 'tenancy-tenant-team-a').spec).toEqual({
      description: 'cdk8s-olm-tenancy: the folders of tenant team-a, synced as ServiceAccount team-a/tenancy-applier',
      sourceRepos: [REPO],
      destinations: [{ server, namespace: 'team-a' }],
      destinationServiceAccounts: [{ server, namespace: 'team-a', defaultServiceAccount: 'team-a:tenancy-applier' }],
    });
    expect(byName('AppProject', 'tenancy-tenant-obs').spec).toEqual({
      description: 'cdk8s-olm-tenancy: the folders of tenant obs, synced as ServiceAccount obs/tenancy-applier',
      sourceRepos: [REPO],
      destinations: [{ server, namespace: 'obs' }, { server, namespace: 'obs-dev' }],
      clusterResourceWhitelist: [{ group: 'olm.operatorframework.io', kind: 'ClusterExtension' }],
      destinationServiceAccounts: ['obs', 'obs-dev'].map((namespace) => ({ server, namespace, defaultServiceAccount: 'obs:tenancy-applier' })),
    });
    expect(byName('AppProject', 'tenancy-tenant-team-b-self-service').spec.sourceRepos).toEqual(['https://git.example.com/team-b/operators.git']);
    expect(byName('AppProject', 'tenancy-tenant-team-b-self-service').spec.destinationServiceAccounts)
      .toEqual([{ server, namespace: 'team-b', defaultServiceAccount: 'team-b:tenancy-applier-self-service' }]);
    expect(byName('AppProject', 'tenancy-platform').spec.destinationServiceAccounts).toEqual([{ server, namespace: '*', defaultServiceAccount: 'argocd:argocd-application-controller' }]);
    expect(byName('Application', 'tenancy-tenant-team-a').spec).toEqual({
      project: 'tenancy-tenant-team-a',
      source: { repoURL: REPO, targetRevision: 'HEAD', path: 'dist/tenants/team-a' },
      destination: { server, namespace: 'team-a' },
      ignoreDifferences: expect.any(Array),
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['RespectIgnoreDifferences=true'] },
    });
  });

  test('argocd/apps-config.yaml: sync impersonation on, and the Application health check the app-of-apps waits with (run in Lua 5.1)', () => {
    const cm = parse(read('argocd/apps-config.yaml'));
    expect(cm.data['application.sync.impersonation.enabled']).toEqual('true');
    expect(cm.data['resource.customizations.health.argoproj.io_Application']).toEqual(ArgoCdApplications.APPLICATION_HEALTH_LUA);
    if (!LUA) return;
    expect(runHealthScript(ArgoCdApplications.APPLICATION_HEALTH_LUA, [
      {},
      { status: {} },
      { status: { health: { status: 'Healthy' } } },
      { status: { health: { status: 'Degraded', message: 'Subscription etcd: InstallPlanFailed' } } },
    ])).toEqual([
      { status: 'Progressing', message: '' },
      { status: 'Progressing', message: '' },
      { status: 'Healthy', message: '' },
      { status: 'Degraded', message: 'Subscription etcd: InstallPlanFailed' },
    ]);
  });
});

describe('issue 42: every new object validates against its real schema, and kubectl builds every folder', () => {
  test('the layout, flux/ and argocd/apps/ validate (Flux and Argo CD CRDs in crds/)', () => {
    const all = files.filter((f) => f.endsWith('.yaml') && !f.endsWith('kustomization.yaml') && !['argocd/health-checks.yaml', 'argocd/ignore-differences.yaml', 'argocd/apps-config.yaml'].includes(f))
      .flatMap(docs);
    expect(all.filter((o) => o.kind === 'Application' || o.kind === 'AppProject' || o.kind === 'GitRepository' || o.kind === 'Kustomization').length).toEqual(13 + 13); // Argo CD 6 projects + 7 Applications; Flux 2 platform Kustomizations + 11 objects in tenant namespaces
    // the operator's own custom resource (its CRD comes with the bundle) has no schema here
    expect(SchemaValidator.shared().validateAll(all.filter((o) => o.kind !== 'EtcdCluster'))).toEqual([]);
  });

  test('kubectl kustomize builds the root, every folder, flux/, flux/tenants/ and argocd/apps/', () => {
    if (!HAS_KUBECTL) return;
    const dirs = [...new Set(files.filter((f) => f.endsWith('kustomization.yaml')).map((f) => path.dirname(f)))];
    expect(dirs.length).toBeGreaterThan(10);
    for (const dir of dirs) expect({ dir, ok: kubectlKustomize(path.join(outdir, dir)).ok }).toEqual({ dir, ok: true });
  });
});

describe('issue 42 item 4: the OLM v1 team\'s ClusterExtension is applied by an identity its guardrail fences', () => {
  const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'olmv1-team-obs');
  const applier = { username: 'system:serviceaccount:obs:tenancy-applier', groups: ['system:serviceaccounts', 'system:serviceaccounts:obs', 'system:authenticated'] };
  const request = (operation: string, userInfo: object) => ({ operation, userInfo, kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' } });
  const folderExtension = docs('tenants/obs/clusterextension-obs-etcd.yaml')[0];

  test('GIVEN the real applier as the request user THEN the guardrail matches it: the folder\'s ClusterExtension is admitted, one outside the team\'s allowance denied', () => {
    expect(admit(policy.spec, request('CREATE', applier), folderExtension)).toEqual({ matched: true, denied: [] });
    const other = { ...folderExtension, spec: { ...folderExtension.spec, namespace: 'kube-system', source: { ...folderExtension.spec.source, catalog: { ...folderExtension.spec.source.catalog, packageName: 'cert-manager' } } } };
    expect(admit(policy.spec, request('CREATE', applier), other).denied).toEqual([
      'spec.namespace must be one of obs, obs-dev, got: kube-system',
      "package cert-manager with version '>=0.9.0 <0.10.0' and channels [] is not allowed; allowed: etcd@>=0.9.0 <0.10.0",
    ]);
    // another tenant's applier is not the team's: its policy does not apply (and that applier may not write ClusterExtensions at all)
    expect(admit(policy.spec, request('CREATE', { username: 'system:serviceaccount:team-a:tenancy-applier', groups: ['system:serviceaccounts'] }), folderExtension).matched).toBe(false);
  });

  test('OLMT-054 sees the fence: with the guardrail\'s user names the appliers are fenced; matched by groups alone they would be unfenced writers', () => {
    const power = objects.map((manifest) => ({ manifest }));
    expect(olmV1UnfencedWriters(power, ['obs-admins'], policy.spec.matchConditions[0].expression.match(/system:serviceaccount:[^']+/g))).toEqual([]);
    expect(olmV1UnfencedWriters(power, ['obs-admins']).map((w) => w.identity)).toEqual(['ServiceAccount obs/tenancy-applier', 'ServiceAccount obs/tenancy-applier-self-service']);
  });
});

describe('issue 42 item 5: a tenant\'s own repository applies with the tenant\'s self-service identity only', () => {
  const power = new EffectivePower(objects.map((manifest) => ({ manifest })));
  const selfService = { kind: SubjectKind.SERVICE_ACCOUNT, name: 'tenancy-applier-self-service', namespace: 'team-b' };
  const rulesIn = (ns: string) => power.rulesIn(selfService, ns);
  const curation = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'curated-operators-curation');
  const user = { username: 'system:serviceaccount:team-b:tenancy-applier-self-service', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-b', 'system:authenticated'] };
  const req = (kind: string) => ({ operation: 'CREATE', userInfo: user, kind: { group: 'operators.coreos.com', version: 'v1alpha1', kind } });
  const subscription = (ns: string, spec: object) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 'etcd-2', namespace: ns }, spec });
  const curatedSub = { name: 'etcd', channel: 'singlenamespace-alpha', source: 'curated-operators', sourceNamespace: 'team-b' };

  test('RBAC engine: its own Subscriptions and its operators\' APIs yes; another tenant\'s namespace, a ClusterRoleBinding, a CatalogSource, RBAC, an OperatorGroup no', () => {
    const may = (ns: string, apiGroup: string, resource: string, verb = 'create') => RbacRules.allows(rulesIn(ns), { verb, apiGroup, resource, name: 'x' });
    expect(may('team-b', 'operators.coreos.com', 'subscriptions')).toBe(true);
    expect(may('team-b', 'etcd.database.coreos.com', 'etcdclusters')).toBe(true);
    expect(may('team-a', 'operators.coreos.com', 'subscriptions')).toBe(false);
    expect(may('team-b', 'operators.coreos.com', 'catalogsources')).toBe(false);
    expect(may('team-b', 'operators.coreos.com', 'operatorgroups')).toBe(false);
    expect(may('team-b', 'rbac.authorization.k8s.io', 'rolebindings')).toBe(false);
    expect(may('team-b', '', 'secrets', 'get')).toBe(false);
    expect(may('team-b', '', 'pods')).toBe(false);
    expect(RbacRules.allows(power.rulesIn(selfService, ''), { verb: 'create', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', name: 'x' })).toBe(false);
    // and nothing it can become reaches further: every grant in team-b
    expect(power.of(selfService).grants.filter((g) => g.namespace !== 'team-b')).toEqual([]);
  });

  test('the curated catalog\'s admission policy (real CEL): a curated Subscription yes; another catalog, another package, a CatalogSource no', () => {
    expect(admit(curation.spec, req('Subscription'), subscription('team-b', curatedSub))).toEqual({ matched: true, denied: [] });
    expect(admit(curation.spec, req('Subscription'), subscription('team-b', { ...curatedSub, source: 'community-operators', sourceNamespace: 'openshift-marketplace' })).denied.length).toBeGreaterThan(0);
    expect(admit(curation.spec, req('Subscription'), subscription('team-b', { ...curatedSub, name: 'cert-manager' })).denied.length).toBeGreaterThan(0);
    const catalogSource = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'mine', namespace: 'team-b' }, spec: { sourceType: 'grpc', image: 'evil/catalog:1' } };
    expect(admit(curation.spec, req('CatalogSource'), catalogSource).denied.length).toBeGreaterThan(0);
  });

  test('the OLM v1 team\'s own repository: its guardrail admits an allowed ClusterExtension and denies an unfenced one (SelfCertified, another team\'s name)', () => {
    const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'olmv1-team-obs');
    const obsUser = { username: 'system:serviceaccount:obs:tenancy-applier-self-service', groups: ['system:serviceaccounts', 'system:serviceaccounts:obs', 'system:authenticated'] };
    const request = { operation: 'CREATE', userInfo: obsUser, kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' } };
    const extension = docs('tenants/obs/clusterextension-obs-etcd.yaml')[0];
    const mine = { ...extension, metadata: { ...extension.metadata, name: 'obs-etcd-dev' }, spec: { ...extension.spec, namespace: 'obs-dev' } };
    expect(admit(policy.spec, request, mine)).toEqual({ matched: true, denied: [] });
    const selfCertified = { ...mine, spec: { ...mine.spec, source: { ...mine.spec.source, catalog: { ...mine.spec.source.catalog, upgradeConstraintPolicy: 'SelfCertified' } } } };
    expect(admit(policy.spec, request, selfCertified).denied).toEqual(['team obs may not set upgradeConstraintPolicy to SelfCertified (only cluster admins may bypass catalog-provided upgrade constraints)']);
    expect(admit(policy.spec, request, { ...mine, metadata: { ...mine.metadata, name: 'team-a-etcd' } }).denied[0]).toMatch(/^team obs may only create, update or delete ClusterExtensions named obs-<name>/);
  });
});

describe('issue 42: input checks and the opt-out', () => {
  test('GIVEN flux without url THEN an error naming flux.url and the fix; GIVEN argoCd without repoUrl and path THEN errors for both', () => {
    const a = new TenancyApp({ outdir: path.join(root, 'no-url'), layout: OutputLayout.GITOPS, quiet: true, flux: { path: './dist' } });
    expect(() => a.synth()).toThrow(/\[TenancyApp\] TenancyApp\.flux\.url: flux\.url is required: each tenant's folder applies as the tenant's ServiceAccount[\s\S]*Fix: set flux\.url to the repository URL/);
    const b = new TenancyApp({ outdir: path.join(root, 'no-repo'), layout: OutputLayout.GITOPS, quiet: true, argoCd: {} as any });
    expect(() => b.synth()).toThrow(/argoCd\.repoUrl[\s\S]*argoCd\.path/);
  });

  test('GIVEN flux.tenantIdentities: false THEN no identity, every Kustomization in flux-system, and a warning that says who applies the tenant folders', () => {
    const outdir2 = path.join(root, 'opt-out');
    const a = new TenancyApp({ outdir: outdir2, layout: OutputLayout.GITOPS, quiet: true, flux: { path: './dist', tenantIdentities: false } });
    new ScopedOperatorTenant(new Chart(a, 'team-a'), 'Tenant', { namespaceName: 'team-a' }).subscribe({ packageName: 'etcd', channel: 'alpha', catalog: CatalogSourceReference.fromName('c', 'olm') });
    a.synth();
    expect(filesBelow(outdir2).filter((f) => f.includes('tenancy-applier'))).toEqual([]);
    expect(fs.readFileSync(path.join(outdir2, 'WARNINGS.txt'), 'utf8')).toMatch(/GitOpsPlatformAppliesTenants/);
  });
});
