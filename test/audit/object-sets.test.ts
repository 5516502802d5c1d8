/**
 * Issue 23 item 7: OLM v1 ClusterObjectSets. With operator-controller's BoxcutterRuntime, its ClusterObjectSet
 * reconciler (operator-controller `internal/operator-controller/controllers/clusterobjectset_controller.go`) applies
 * every object of every `clusterobjectsets.olm.operatorframework.io` (cluster-scoped, CRD
 * `helm/olmv1/base/operator-controller/crd/experimental/olm.operatorframework.io_clusterobjectsets.yaml`) with its own
 * cluster-admin client: write on it is cluster-admin. The effective-power model (and so the App audit and the OLM v1
 * preview) treats it as cluster-admin; the v0 sensitive-grant registry refuses it unless accepted by name.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import {
  EffectivePower, InstallerRuleChecks, OperatorBundle, PolicyRule, PolicyRules, PowerObject, ReachCode, RoleOrigin, ScopedOperatorTenant,
  SensitiveGrant, SubjectKind, TenancyAudit,
} from '../../src';
import { CuratedClusterCatalog, OlmV1PermissionPreview, OlmV1PreviewFindingCode, OlmV1Team, RegistryV1Render } from '../../src/olmv1';

const RBAC = 'rbac.authorization.k8s.io';
const OLM_V1 = 'olm.operatorframework.io';
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const OP = { kind: SubjectKind.SERVICE_ACCOUNT, name: 'op', namespace: 'team-a' };
const toJson = (r: PolicyRule): any => ({
  ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
  ...(r.resources ? { resources: r.resources } : {}),
  ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
  verbs: r.verbs,
});
const clusterRole = (name: string, rules: PolicyRule[]): PowerObject => ({ manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules: rules.map(toJson) } });
const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', roleName: string): PowerObject => ({
  manifest: {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name: 'op', ...(kind === 'RoleBinding' ? { namespace: 'team-a' } : {}) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'team-a' }],
  },
});
const powerOf = (rules: PolicyRule[], kind: 'ClusterRoleBinding' | 'RoleBinding' = 'ClusterRoleBinding') =>
  new EffectivePower([clusterRole('object-sets', rules), binding(kind, 'object-sets')]).of(OP);

/** Upstream's example "installer" role (operator-controller docs/howto/how-to-protect-olmv1-api-access.md). */
const UPSTREAM_INSTALLER_ROLE: PolicyRule = { apiGroups: [OLM_V1], resources: ['clusterextensions', 'clusterobjectsets'], verbs: ['create', 'update', 'delete', 'get', 'list', 'watch'] };

describe('EffectivePower: write on clusterobjectsets is cluster-admin', () => {
  test('upstream\'s example installer role, bound cluster-wide: unbounded, with the path through operator-controller', () => {
    const p = powerOf([UPSTREAM_INSTALLER_ROLE]);
    expect(p.unbounded).toBe(true);
    expect(p.grants.filter((g) => g.roleName === 'cluster-admin')).toEqual([{
      namespace: '',
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }],
      roleKind: 'ClusterRole',
      roleName: 'cluster-admin',
      roleOrigin: RoleOrigin.BUILT_IN,
      holder: 'ServiceAccount team-a/op',
      path: [
        'ServiceAccount team-a/op', 'ClusterRoleBinding op (the App)', 'ClusterRole object-sets (the App)',
        'create clusterobjectsets.olm.operatorframework.io (operator-controller applies their objects as cluster-admin)', "ClusterRole cluster-admin (operator-controller's client)",
      ],
      direct: false,
      deputy: 'olm-v1-object-sets',
    }]);
  });

  test.each<[string, PolicyRule, boolean]>([
    ['create', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['create'] }, true],
    ['update (phases may be set while empty)', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['update'] }, true],
    ['patch', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['patch'] }, true],
    ['* verbs', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['*'] }, true],
    ['* groups', { apiGroups: ['*'], resources: ['clusterobjectsets'], verbs: ['create'] }, true],
    ['* resources of the group', { apiGroups: [OLM_V1], resources: ['*'], verbs: ['create'] }, true],
    ['patch of a named object set (the model cannot tell whether its phases are empty: unbounded)', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], resourceNames: ['x-1'], verbs: ['patch'] }, true],
    ['create with resourceNames (a create request has no name: RBAC never allows it)', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], resourceNames: ['x-1'], verbs: ['create'] }, false],
    ['the status subresource only', { apiGroups: [OLM_V1], resources: ['clusterobjectsets/status'], verbs: ['update', 'patch'] }, false],
    ['read and delete only', { apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['get', 'list', 'watch', 'delete'] }, false],
    ['another group', { apiGroups: ['operators.coreos.com'], resources: ['clusterobjectsets'], verbs: ['create'] }, false],
  ])('%s', (_, rule, unbounded) => {
    expect(powerOf([rule]).unbounded).toBe(unbounded);
  });

  test('a ClusterRole bound by a RoleBinding grants nothing on the cluster-scoped kind', () => {
    expect(powerOf([UPSTREAM_INSTALLER_ROLE], 'RoleBinding').unbounded).toBe(false);
  });

  test('reached through another identity: the token Secret of an object-set writer', () => {
    const p = new EffectivePower([
      clusterRole('object-sets', [UPSTREAM_INSTALLER_ROLE]),
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'writer' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'object-sets' }, subjects: [{ kind: 'ServiceAccount', name: 'writer', namespace: 'team-a' }] } },
      { manifest: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'writer-token', namespace: 'team-a', annotations: { 'kubernetes.io/service-account.name': 'writer' } } } },
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'read', namespace: 'team-a' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] } },
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'read', namespace: 'team-a' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'read' }, subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'team-a' }] } },
    ]).of(OP);
    expect(p.unbounded).toBe(true);
  });
});

describe('OLM v0: the sensitive-grant registry refuses it unless accepted by name', () => {
  test('cluster-scoped installer rules: SensitiveGrant.CLUSTER_OBJECT_SET_WRITES; the namespaced Role cannot reach the kind', () => {
    const errors = InstallerRuleChecks.errors([UPSTREAM_INSTALLER_ROLE], { clusterScoped: true, field: 'clusterInstallerRules' });
    expect(errors.map((e) => e.message)).toEqual([
      "the cluster-scoped installer rules grant 'create'/'update'/'patch' on olm.operatorframework.io clusterobjectsets (operator-controller applies their objects as cluster-admin) "
      + '(SensitiveGrant.CLUSTER_OBJECT_SET_WRITES); an operator installed with them could gain rights nobody reviewed',
      // upstream's example role also writes clusterextensions: operator-controller installs them as cluster-admin (issue 37)
      "the cluster-scoped installer rules grant 'create'/'update'/'patch' on olm.operatorframework.io clusterextensions or clustercatalogs (operator-controller installs "
      + 'any package as cluster-admin) (SensitiveGrant.OLM_V1_INSTALL_WRITES); an operator installed with them could gain rights nobody reviewed',
    ]);
    const accepted = {
      clusterScoped: true, allowedSensitiveGrants: [SensitiveGrant.CLUSTER_OBJECT_SET_WRITES, SensitiveGrant.OLM_V1_INSTALL_WRITES],
    };
    expect(InstallerRuleChecks.errors([UPSTREAM_INSTALLER_ROLE], accepted)).toEqual([]);
    expect(InstallerRuleChecks.errors([UPSTREAM_INSTALLER_ROLE], { clusterScoped: false })).toEqual([]);
    expect(InstallerRuleChecks.sensitiveGrantsHeld([{ apiGroups: ['*'], resources: ['*'], verbs: ['patch'] }], { clusterScoped: true }).map((g) => g.grant))
      .toContain(SensitiveGrant.CLUSTER_OBJECT_SET_WRITES);
  });

  test('a tenant\'s clusterInstallerRules with it fail the synth, accepted by name with a reason they pass', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [{ apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['patch'] }] });
    new ScopedOperatorTenant(chart, 'U', {
      namespaceName: 'team-b',
      clusterInstallerRules: [{ apiGroups: [OLM_V1], resources: ['clusterobjectsets'], verbs: ['patch'] }],
      acceptedSensitiveGrants: [{ grant: SensitiveGrant.CLUSTER_OBJECT_SET_WRITES, reason: 'platform team migrates object sets' }],
    });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
    expect(errors.filter((e) => e.includes('CLUSTER_OBJECT_SET_WRITES')).map((e) => e.slice(0, 16))).toEqual(['[platform/T] clu']);
  });
});

describe('the App audit and the OLM v1 preview name it as cluster-admin', () => {
  test('App audit: a tenant ServiceAccount bound to upstream\'s installer role is TenantIdentityUnbounded', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new k8s.KubeClusterRole(chart, 'R', { metadata: { name: 'object-sets' }, rules: [toJson(UPSTREAM_INSTALLER_ROLE)] });
    new k8s.KubeClusterRoleBinding(chart, 'B', {
      metadata: { name: 'team-a-object-sets' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'object-sets' }, subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
    });
    const findings = TenancyAudit.ofConstruct(app).tenants[0].findings.filter((f) => f.code === ReachCode.TENANT_IDENTITY_UNBOUNDED);
    expect(findings.map((f) => [f.subject, f.path.slice(-2)])).toEqual([[
      'ServiceAccount team-a/team-a',
      ['create clusterobjectsets.olm.operatorframework.io (operator-controller applies their objects as cluster-admin)', "ClusterRole cluster-admin (operator-controller's client)"],
    ]]);
  });

  test('OLM v1 preview: a bundle whose clusterPermissions write clusterobjectsets is unbounded (TenantIdentityUnbounded)', () => {
    const src = path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'object-sets-'));
    fs.cpSync(src, dir, { recursive: true });
    const csvFile = path.join(dir, 'manifests', 'grafana-operator.clusterserviceversion.yaml');
    const csv = fs.readFileSync(csvFile, 'utf8');
    expect(csv.includes('      clusterPermissions:\n        - rules:\n')).toBe(true);
    fs.writeFileSync(csvFile, csv.replace('      clusterPermissions:\n        - rules:\n', '      clusterPermissions:\n        - rules:\n            - { apiGroups: [olm.operatorframework.io], resources: [clusterobjectsets], verbs: [create] }\n'));
    let bundle: OperatorBundle;
    try {
      bundle = OperatorBundle.fromDirectory(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const preview = OlmV1PermissionPreview.of(RegistryV1Render.forExtension(bundle, { installNamespace: 'team-x' }));
    expect(preview.findings.filter((f) => f.code === OlmV1PreviewFindingCode.UNBOUNDED)).toEqual([{
      code: OlmV1PreviewFindingCode.UNBOUNDED,
      subject: 'ServiceAccount team-x/grafana-operator-controller-manager',
      what: 'ServiceAccount team-x/grafana-operator-controller-manager reaches * on every resource cluster-wide',
    }]);
  });

  test('no identity an OlmV1Team makes holds it (the team\'s ClusterRoles and the extension installers)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-a', image: 'registry.example.com/catalogs/team-a:v1', team: 'team-a' });
    new OlmV1Team(chart, 'V1', {
      team: 'team-a',
      groups: ['team-a'],
      namespaces: ['team-a'],
      catalog,
      allowedPackages: [{ name: 'grafana-operator' }],
      extensions: [{ packageName: 'grafana-operator', namespace: 'team-a', bundles: [OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0'))], acceptedRisks: [{ check: 'OLMT-044', reason: 'test' }] }],
    });
    const roles = chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && (c.kind === 'ClusterRole' || c.kind === 'Role')).map((o) => o.toJson());
    expect(roles.length).toBeGreaterThan(0);
    for (const r of roles) {
      const rules = (r.rules ?? []).map((x: any) => PolicyRules.fromJson(x));
      const held = InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: true }).map((g) => g.grant);
      expect([r.metadata.name, held.includes(SensitiveGrant.CLUSTER_OBJECT_SET_WRITES)]).toEqual([r.metadata.name, false]);
    }
  });
});
