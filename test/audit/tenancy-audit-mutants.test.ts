/**
 * The tenancy audit on hand-built objects (no constructs): exact findings for each branch of `TenancyAudit.audit`
 * (what an identity reaches outside its tenant, through which path, whether an opt-in accepts it), `report`,
 * the OLM objects added per tenant, and the confinement scan that lets the audit skip the closure.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import { AuditedTenant, TenancyAuditInput } from '../../src/audit/audited-tenant';
import { PowerObject, SubjectKind } from '../../src/audit/effective-power';
import { ReachCode } from '../../src/audit/reach-code';
import { providedApisReachable, TenancyAudit, TenancyAuditResult, tenantLeaks } from '../../src/audit/tenancy-audit';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CatalogSourceReference } from '../../src/catalog/catalog-source-reference';
import { AccessLevel, OlmGeneration, OlmNaming } from '../../src/olm/olm-naming';
import { GlobalOperatorInstall } from '../../src/platform/global-operator-install';
import { ScopedOperatorTenant } from '../../src/tenant/scoped-operator-tenant';

const RBAC = 'rbac.authorization.k8s.io/v1';
const obj = (manifest: any): PowerObject => ({ manifest, origin: 'test' });
const clusterRole = (name: string, rules: any[], extra: any = {}) => obj({ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
const role = (ns: string, name: string, rules: any[]) => obj({ apiVersion: RBAC, kind: 'Role', metadata: { name, namespace: ns }, rules });
const crb = (name: string, roleName: string, subjects: any[]) => obj({
  apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects,
});
const rb = (ns: string, name: string, roleKind: string, roleName: string, subjects: any[]) => obj({
  apiVersion: RBAC, kind: 'RoleBinding', metadata: { name, namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName }, subjects,
});
const sa = (ns: string, name: string) => ({ kind: 'ServiceAccount', name, namespace: ns });
const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });

const tenant = (ns: string, extra: Partial<AuditedTenant> = {}): AuditedTenant => ({
  name: `platform/${ns}`, namespace: ns, targetNamespaces: [ns], operatorGroupName: ns, installerServiceAccountName: ns, ...extra,
});
/** Findings as [code, subject, namespace, path, accepted] per tenant. */
const brief = (r: TenancyAuditResult) => r.tenants.map((t) => [
  t.tenant, t.findings.map((f) => [f.code, f.subject, f.namespace, f.path, f.accepted]),
]);
const ALICE = { kind: SubjectKind.USER, name: 'alice' };
const UNKNOWN = (name: string) => `ClusterRole ${name} (defined nowhere in the App: counted as unbounded)`;
const ALL_RULES = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
const CLUSTER_ADMIN = 'ClusterRole cluster-admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)';

/** A small operator: CSV permissions for `op`, a Deployment running as `op-dep`, and the bundle's own `objects`. */
function bundle(objects: any[] = [], owned: any[] = [], apiServices: any[] = []): OperatorBundle {
  return OperatorBundle.fromCsvObject({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: 'small.v1.0.0' },
    spec: {
      version: '1.0.0',
      customresourcedefinitions: { owned },
      apiservicedefinitions: { owned: apiServices },
      installModes: [{ type: 'OwnNamespace', supported: true }, { type: 'SingleNamespace', supported: true }, { type: 'AllNamespaces', supported: true }],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [{ name: 'small', spec: { template: { spec: { serviceAccountName: 'op-dep' } } } }],
          permissions: [{ serviceAccountName: 'op', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }],
        },
      },
    },
  }, objects);
}


const OBJECTS = [
  clusterRole('inst', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
  crb('inst', 'inst', [sa('team-a', 'team-a')]),
  role('team-a', 'pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]),
  rb('team-a', 'pods', 'Role', 'pods', [user('alice')]),
  // a role defined in the App, aggregated: what it shows is what it grants (a plain grant, not a finding)
  clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'yes' } }] } }),
  clusterRole('agg-part', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], { metadata: { name: 'agg-part', labels: { agg: 'yes' } } }),
  crb('agg', 'agg', [user('alice')]),
  rb('team-b', 'unknown', 'ClusterRole', 'nope', [user('alice')]),
  // AllNamespaces: a namespace of no tenant is the tenant's
  rb('team-x', 'other', 'ClusterRole', 'nope', [user('alice')]),
  crb('admin', 'cluster-admin', [user('bob')]),
  rb('team-b', 'b', 'ClusterRole', 'view', [sa('team-b', 'team-b')]),
];

describe('TenancyAudit.audit: each finding exactly', () => {
  const input: TenancyAuditInput = {
    objects: OBJECTS,
    tenants: [
      tenant('team-a', {
        targetNamespaces: [],
        people: [ALICE, { kind: SubjectKind.USER, name: 'bob' }],
        acceptedReach: [{ code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, subject: 'User alice', reason: 'ok' }],
      }),
      tenant('team-b'),
    ],
  };

  test('a person who may create pods in the tenant namespace becomes the installer with its cluster rule; an unknown role in another tenant\'s namespace; cluster-admin', () => {
    const r = TenancyAudit.audit(input);
    expect(r.tenants.map((t) => [t.tenant, t.namespace, t.subjects])).toEqual([
      ['platform/team-a', 'team-a', ['ServiceAccount team-a/team-a', 'User alice', 'User bob']],
      ['platform/team-b', 'team-b', ['ServiceAccount team-b/team-b']],
    ]);
    expect(r.tenants[0].findings).toEqual([
      {
        code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
        tenant: 'platform/team-a',
        subject: 'User alice',
        namespace: '',
        rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
        path: ['User alice', 'RoleBinding team-a/pods (test)', 'Role team-a/pods (test)', 'create pods in team-a running as ServiceAccount team-a',
          'ServiceAccount team-a/team-a', 'ClusterRole inst (cluster-wide)'],
        accepted: false,
        message: 'User alice can become the installer ServiceAccount team-a/team-a of tenant platform/team-a, which holds rules in cluster-wide: '
          + 'Namespace:"" APIGroups:[] Resources:[nodes] Verbs:[list]; path: User alice -> RoleBinding team-a/pods (test) -> Role team-a/pods (test) '
          + '-> create pods in team-a running as ServiceAccount team-a -> ServiceAccount team-a/team-a -> ClusterRole inst (cluster-wide)',
        // no token Secret on the path: no createTokenSecret advice
        fix: 'split the operators so that no operator shares the namespace of an installer with rules outside it (a pod created there may run as the installer); '
          + "or accept it with `acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'User alice', reason: '...' }]`",
      },
      {
        code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
        tenant: 'platform/team-a',
        subject: 'User alice',
        namespace: 'team-b',
        rules: ALL_RULES,
        path: ['User alice', 'RoleBinding team-b/unknown (test)', UNKNOWN('nope')],
        accepted: true,
        acceptedReason: 'ok',
        message: 'User alice reaches namespace team-b (is bound to the unknown ClusterRole nope): Namespace:"team-b" APIGroups:[*] Resources:[*] Verbs:[*]; '
          + `path: User alice -> RoleBinding team-b/unknown (test) -> ${UNKNOWN('nope')}`,
        fix: 'remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role), '
          + "or accept it with `acceptedReach: [{ code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, subject: 'User alice', reason: '...' }]`",
      },
      {
        code: ReachCode.TENANT_IDENTITY_UNBOUNDED,
        tenant: 'platform/team-a',
        subject: 'User bob',
        namespace: '',
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }],
        path: ['User bob', 'ClusterRoleBinding admin (test)', CLUSTER_ADMIN],
        accepted: false,
        message: 'User bob reaches cluster-wide (is bound to the built-in ClusterRole cluster-admin): Namespace:"" APIGroups:[*] Resources:[*] Verbs:[*]; '
          + `Namespace:"" Verbs:[*] NonResourceURLs:[*]; path: User bob -> ClusterRoleBinding admin (test) -> ${CLUSTER_ADMIN}`,
        fix: 'remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role), '
          + "or accept it with `acceptedReach: [{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, subject: 'User bob', reason: '...' }]`",
      },
    ]);
    expect(r.tenants[1].findings).toEqual([]);
    // the reference without the confinement shortcut agrees
    expect(TenancyAudit._auditUnoptimized(input)).toEqual(r);
  });

  test('report: per tenant, each finding with its path, rules and opt-in; the conclusion line', () => {
    expect(TenancyAudit.report(TenancyAudit.audit(input))).toEqual([
      'tenant platform/team-a (namespace team-a): 3 finding(s), 2 not accepted',
      '  ERROR IdentityCanAssumeInstaller: User alice reaches cluster-wide',
      '    path: User alice -> RoleBinding team-a/pods (test) -> Role team-a/pods (test) -> create pods in team-a running as ServiceAccount team-a -> ServiceAccount team-a/team-a -> ClusterRole inst (cluster-wide)',
      '    Namespace:"" APIGroups:[] Resources:[nodes] Verbs:[list]',
      '  accepted TenantIdentityReachesOtherNamespace: User alice reaches namespace team-b',
      `    path: User alice -> RoleBinding team-b/unknown (test) -> ${UNKNOWN('nope')}`,
      '    Namespace:"team-b" APIGroups:[*] Resources:[*] Verbs:[*]',
      '    accepted: ok',
      '  ERROR TenantIdentityUnbounded: User bob reaches cluster-wide',
      `    path: User bob -> ClusterRoleBinding admin (test) -> ${CLUSTER_ADMIN}`,
      '    Namespace:"" APIGroups:[*] Resources:[*] Verbs:[*]',
      '    Namespace:"" Verbs:[*] NonResourceURLs:[*]',
      'tenant platform/team-b (namespace team-b): no reach outside its namespaces',
      '1 of 2 tenant(s) reach outside their namespaces (2 finding(s) not accepted)',
      '',
    ].join('\n'));
  });

  test('an opt-in accepts only its code, its subject (or every subject without one), and only with a reason', () => {
    const accepted = (acceptedReach: any[]) => TenancyAudit.audit({ ...input, tenants: [{ ...input.tenants[0], acceptedReach }, input.tenants[1]] })
      .tenants[0].findings.map((f) => [f.code, f.subject, f.accepted, f.acceptedReason]);
    expect(accepted([
      { code: ReachCode.TENANT_IDENTITY_UNBOUNDED, subject: 'User alice', reason: 'not bob' },
      { code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: ' ' },
      { code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, reason: 'any subject' },
    ])).toEqual([
      [ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, 'User alice', false, undefined],
      [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'User alice', true, 'any subject'],
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'User bob', false, undefined],
    ]);
    // a finding not accepted has no acceptedReason key at all
    expect(Object.keys(TenancyAudit.audit(input).tenants[0].findings[0])).not.toContain('acceptedReason');
  });

  test('explicit targets: a target namespace is inside, any other namespace (of no tenant) is outside', () => {
    const r = TenancyAudit.audit({
      objects: [rb('team-t', 't', 'ClusterRole', 'nope', [user('alice')]), rb('team-u', 'u', 'ClusterRole', 'nope', [user('alice')])],
      tenants: [tenant('team-a', { targetNamespaces: ['team-a', 'team-t'], people: [ALICE] })],
    });
    expect(brief(r)).toEqual([['platform/team-a', [
      [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'User alice', 'team-u', ['User alice', 'RoleBinding team-u/u (test)', UNKNOWN('nope')], false],
    ]]]);
  });
});

describe('TenancyAudit.audit: a tenant without people is confined unless a binding reaches its ServiceAccounts from outside', () => {
  // an unknown role bound in team-b: a finding of team-a's installer only when the binding names it
  const audit = (subjects: any[], kind = 'RoleBinding') => brief(TenancyAudit.audit({
    objects: [kind === 'RoleBinding' ? rb('team-b', 'leak', 'ClusterRole', 'nope', subjects) : crb('leak', 'nope', subjects)],
    tenants: [tenant('team-a'), tenant('team-b')],
  }))[0][1];
  const finding = (namespace: string, path1: string) => [[
    namespace === '' ? ReachCode.TENANT_IDENTITY_UNBOUNDED : ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
    'ServiceAccount team-a/team-a', namespace, ['ServiceAccount team-a/team-a', path1, UNKNOWN('nope')], false,
  ]];

  test.each([
    ['a ServiceAccount subject', sa('team-a', 'team-a')],
    ['its user name', user('system:serviceaccount:team-a:team-a')],
    ['the group of its namespace', { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts:team-a' }],
    ['the group of every ServiceAccount', { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts' }],
  ])('a RoleBinding in another tenant\'s namespace naming %s', (_, subject) => {
    expect(audit([subject])).toEqual(finding('team-b', 'RoleBinding team-b/leak (test)'));
  });

  test('a ClusterRoleBinding naming it: unbounded; subjects the authorizer skips are skipped', () => {
    expect(audit([null, { kind: 'ServiceAccount' }, { name: 'team-a' }, sa('team-a', 'team-a')], 'ClusterRoleBinding'))
      .toEqual(finding('', 'ClusterRoleBinding leak (test)'));
    expect(audit([null, { kind: 'ServiceAccount' }, { name: 'team-a', namespace: 'team-a' }])).toEqual([]);
  });

  test('a RoleBinding in its own namespace, or naming another namespace\'s ServiceAccount, keeps it confined', () => {
    expect(audit([sa('team-c', 'team-a')])).toEqual([]);
    const own = TenancyAudit.audit({ objects: [rb('team-a', 'own', 'ClusterRole', 'nope', [sa('team-a', 'team-a')])], tenants: [tenant('team-a')] });
    expect(own).toEqual({ tenants: [{ tenant: 'platform/team-a', namespace: 'team-a', subjects: ['ServiceAccount team-a/team-a'], findings: [] }] });
    expect(own).toEqual(TenancyAudit._auditUnoptimized({ objects: [rb('team-a', 'own', 'ClusterRole', 'nope', [sa('team-a', 'team-a')])], tenants: [tenant('team-a')] }));
  });

  test('a ClusterRoleBinding is cluster-wide even with a metadata.namespace (the authorizer ignores it)', () => {
    expect(audit([sa('team-a', 'team-a')], 'ClusterRoleBinding')).toEqual(finding('', 'ClusterRoleBinding leak (test)'));
    const r = TenancyAudit.audit({
      objects: [obj({ ...crb('leak', 'nope', [sa('team-a', 'team-a')]).manifest, metadata: { name: 'leak', namespace: 'team-a' } })],
      tenants: [tenant('team-a')],
    });
    expect(brief(r)[0][1]).toEqual(finding('', 'ClusterRoleBinding leak (test)'));
  });

  test('objects that are no bindings, and bindings without a subject list, are read as none', () => {
    const r = TenancyAudit.audit({
      objects: [obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-b' }, subjects: [sa('team-a', 'team-a')] }),
        obj({ ...rb('team-b', 'x', 'ClusterRole', 'nope', []).manifest, subjects: 'team-a' })],
      tenants: [tenant('team-a')],
    });
    expect(brief(r)).toEqual([['platform/team-a', []]]);
  });
});

describe('the objects OLM creates for a tenant from its bundles', () => {
  const b = bundle([
    { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'op-crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'op-cr' }, subjects: [{ kind: 'ServiceAccount', name: 'op' }, sa('other', 'x')] },
    { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'op-rb', namespace: 'elsewhere' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'op-r' }, subjects: [{ kind: 'Group', name: 'system:serviceaccounts:g' }] },
    { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'op-cr' }, rules: [] },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
    { apiVersion: RBAC, kind: 'Role', metadata: { name: 'op-r' }, rules: [] },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'extra' } },
  ]);

  test('objectsOf: the Deployment, the ServiceAccounts, the bundle\'s RBAC objects (namespaced ones and namespace-less ServiceAccount subjects in the tenant namespace)', () => {
    const objects = TenancyAudit.objectsOf(tenant('team-a', { bundles: [b] }));
    expect(objects.filter((o) => !o.origin!.startsWith('OLM ')).map((o) => JSON.parse(JSON.stringify(o)))).toEqual([
      { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'small', namespace: 'team-a' }, spec: { template: { spec: { serviceAccountName: 'op-dep' } } } }, origin: 'OLM, deployment of small.v1.0.0' },
      // issue 37: the CSV, whose operator reconciles its owned CRDs in the OperatorGroup's targets
      {
        manifest: {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'ClusterServiceVersion',
          metadata: { name: 'small.v1.0.0', namespace: 'team-a', annotations: { 'olm.targetNamespaces': 'team-a' } },
          spec: { customresourcedefinitions: { owned: [] }, install: { spec: { deployments: [{ name: 'small', spec: { template: { spec: { serviceAccountName: 'op-dep' } } } }] } } },
        },
        origin: 'OLM, CSV of small.v1.0.0',
      },
      { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'op', namespace: 'team-a' } }, origin: 'OLM, ServiceAccount of small.v1.0.0' },
      {
        manifest: { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'op-crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'op-cr' }, subjects: [sa('team-a', 'op'), sa('other', 'x')] },
        origin: 'bundle small.v1.0.0, extra object [0]',
      },
      {
        manifest: { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'op-rb', namespace: 'team-a' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'op-r' }, subjects: [{ kind: 'Group', name: 'system:serviceaccounts:g' }] },
        origin: 'bundle small.v1.0.0, extra object [1]',
      },
      { manifest: { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'op-cr' }, rules: [] }, origin: 'bundle small.v1.0.0, extra object [2]' },
      { manifest: { apiVersion: RBAC, kind: 'Role', metadata: { name: 'op-r', namespace: 'team-a' }, rules: [] }, origin: 'bundle small.v1.0.0, extra object [4]' },
      { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'extra', namespace: 'team-a' } }, origin: 'bundle small.v1.0.0, extra object [5]' },
    ]);
    expect(objects.filter((o) => o.origin!.startsWith('OLM ')).map((o) => [o.manifest.kind, o.origin])).toEqual([
      ['ClusterRole', 'OLM OPERATOR_GROUP_CLUSTER_ROLE'], ['ClusterRole', 'OLM OPERATOR_GROUP_CLUSTER_ROLE'], ['ClusterRole', 'OLM OPERATOR_GROUP_CLUSTER_ROLE'],
      ['Role', 'OLM CSV_PERMISSION of small.v1.0.0'], ['RoleBinding', 'OLM CSV_PERMISSION of small.v1.0.0'],
    ]);
  });

  test('operatorServiceAccounts: of permissions and deployments, once each, sorted; the audit\'s subjects follow it', () => {
    expect(TenancyAudit.operatorServiceAccounts([b, b])).toEqual(['op', 'op-dep']);
    expect(TenancyAudit.audit({ objects: [], tenants: [tenant('team-a', { installerServiceAccountName: 'op', bundles: [b], people: [ALICE, ALICE] })] }).tenants[0].subjects)
      .toEqual(['ServiceAccount team-a/op', 'ServiceAccount team-a/op-dep', 'User alice']);
  });

  test('the bundle\'s ClusterRoleBinding naming the operator\'s ServiceAccount without a namespace reaches it: a finding of the operator', () => {
    const bound = bundle([{ apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'op-crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nope' }, subjects: [{ kind: 'ServiceAccount', name: 'op' }] }]);
    expect(brief(TenancyAudit.audit({ objects: [], tenants: [tenant('team-a', { bundles: [bound] })] }))).toEqual([['platform/team-a', [
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/op', '', ['ServiceAccount team-a/op', 'ClusterRoleBinding op-crb (bundle small.v1.0.0, extra object [0])', UNKNOWN('nope')], false],
    ]]]);
  });

  test('tenantLeaks: the namespaces whose ServiceAccounts the bundle\'s bindings reach from outside them (the tenant namespace too when a binding elsewhere names it)', () => {
    expect(tenantLeaks(tenant('team-a', { bundles: [b] }))).toEqual({ all: false, namespaces: ['g', 'other', 'team-a'] });
    // the bundle names the tenant's own namespace: computed directly, not from the placeholder template
    const own = bundle([{ apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [sa('team-a', 'op')] }]);
    expect(tenantLeaks(tenant('team-a', { bundles: [own] }))).toEqual({ all: false, namespaces: [] });
    expect(tenantLeaks(tenant('team-z', { bundles: [own] }))).toEqual({ all: false, namespaces: ['team-a'] });
    const user1 = bundle([{ apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'rb', namespace: 'team-q' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [user('system:serviceaccount:team-q:x')] }]);
    expect(tenantLeaks(tenant('team-q', { bundles: [user1] }))).toEqual({ all: false, namespaces: [] });
    expect(tenantLeaks(tenant('team-a', { bundles: [user1] }))).toEqual({ all: false, namespaces: ['team-q'] });
    const all = bundle([{ apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }] }]);
    expect(tenantLeaks(tenant('team-a', { bundles: [all] }))).toEqual({ all: true, namespaces: [] });
  });
});

test('report: the global operators\' drivers, and an empty result', () => {
  const g = (drivers: any[], apisKnown = true) => ({ install: 'platform/G', namespace: 'operators', packageName: 'pkg', apis: apisKnown ? ['as.example.com', 'bs.example.com'] : [], apisKnown, drivers });
  const d = (subject: string, namespaces: string[], accepted: boolean, pathSteps: string[] = []) => ({
    code: 'GlobalOperatorDrivenByTenant',
    tenant: 'platform/team-a',
    subject,
    apis: ['as.example.com'],
    namespaces,
    path: pathSteps,
    accepted,
    ...(accepted ? { acceptedReason: 'reviewed' } : {}),
    message: 'm',
    fix: 'f',
  });
  expect(TenancyAudit.report({
    tenants: [],
    globalOperators: [
      g([], false),
      g([]),
      g([d('User alice', [''], false, ['User alice', 'ClusterRoleBinding x']), d('User bob', ['team-a', 'team-b'], true)]),
      g([d('*', [''], false)]),
    ] as any,
  })).toEqual([
    "global operator pkg (namespace operators, installed by the platform with OLM's own client): its APIs are unknown (no bundle)",
    "global operator pkg (namespace operators, installed by the platform with OLM's own client): no tenant identity may create its APIs (as.example.com, bs.example.com)",
    "global operator pkg (namespace operators, installed by the platform with OLM's own client): 2 identities of 1 tenant(s) may drive it, 1 not accepted",
    '  ERROR GlobalOperatorDrivenByTenant: User alice (tenant platform/team-a) may create as.example.com in every namespace',
    '    path: User alice -> ClusterRoleBinding x',
    '  accepted GlobalOperatorDrivenByTenant: User bob (tenant platform/team-a) may create as.example.com in namespace team-a, team-b',
    '    accepted: reviewed',
    "global operator pkg (namespace operators, installed by the platform with OLM's own client): 1 identity of 1 tenant(s) may drive it, 1 not accepted",
    '  ERROR GlobalOperatorDrivenByTenant: every tenant identity, unknown',
    '',
  ].join('\n'));
  expect(TenancyAudit.report({ tenants: [] })).toEqual('\n');
  expect(TenancyAudit.report({ tenants: [{ tenant: 't', namespace: 'n', subjects: [], findings: [] }] }))
    .toEqual('tenant t (namespace n): no reach outside its namespaces\nno tenant reaches another: the identities of all 1 tenant(s) stay in their tenants\' namespaces\n');
});

test('report: more than four rules are cut with a count', () => {
  const rules = ['a', 'b', 'c', 'd', 'e', 'f'].map((r) => ({ apiGroups: [''], resources: [r], verbs: ['get'] }));
  const f = { code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, tenant: 't', subject: 'User u', namespace: '', rules, path: ['User u'], accepted: false, message: 'm', fix: 'f' };
  expect(TenancyAudit.report({ tenants: [{ tenant: 't', namespace: 'n', subjects: ['User u'], findings: [f] }] }).split('\n').slice(1, 8)).toEqual([
    '  ERROR TenantIdentityReachesCluster: User u reaches cluster-wide',
    '    path: User u',
    '    Namespace:"" APIGroups:[] Resources:[a] Verbs:[get]',
    '    Namespace:"" APIGroups:[] Resources:[b] Verbs:[get]',
    '    Namespace:"" APIGroups:[] Resources:[c] Verbs:[get]',
    '    Namespace:"" APIGroups:[] Resources:[d] Verbs:[get]',
    '    ... 2 more rule(s)',
  ]);
});

describe('TenancyAudit.audit: installers of other tenants, identities reached through others, what is held already', () => {
  const CAN_RUN_PODS = role('team-a', 'pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]);
  const input: TenancyAuditInput = {
    objects: [
      // team-b's installer: a cluster rule (bound twice) and a Role in team-c, outside its explicit targets
      clusterRole('inst', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
      crb('inst', 'inst', [sa('team-b', 'team-b')]),
      crb('inst2', 'inst', [sa('team-b', 'team-b')]),
      role('team-c', 'r', [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }]),
      rb('team-c', 'r', 'Role', 'r', [sa('team-b', 'team-b')]),
      obj({ apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'team-b-token', namespace: 'team-b', annotations: { 'kubernetes.io/service-account.name': 'team-b' } } }),
      role('team-b', 'secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
      rb('team-b', 'carol', 'Role', 'secrets', [user('carol')]),
      // team-a's installer: a Role in team-a and a benign built-in role: nothing outside that counts
      role('team-a', 'local', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
      rb('team-a', 'local', 'Role', 'local', [sa('team-a', 'team-a')]),
      crb('delegator', 'system:auth-delegator', [sa('team-a', 'team-a')]),
      // alice creates pods in team-a: runs as the installer (nothing), as the audited helper (reported on helper), as runners
      CAN_RUN_PODS,
      rb('team-a', 'pods', 'Role', 'pods', [user('alice')]),
      crb('helper', 'nope', [sa('team-a', 'helper')]),
      clusterRole('nodes-get', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]),
      clusterRole('pv-get', [{ apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get'] }]),
      crb('runner', 'nodes-get', [sa('team-a', 'runner')]),
      crb('runner2', 'pv-get', [sa('team-a', 'runner2')]),
      rb('team-e', 'runner', 'ClusterRole', 'nope', [sa('team-a', 'runner2')]),
      rb('team-d', 'runner', 'ClusterRole', 'nope', [sa('team-a', 'runner')]),
      // bob holds everything directly: cluster-admin adds nothing; dave holds all of team-d: an unknown role there adds nothing
      clusterRole('all', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]),
      crb('bob-all', 'all', [user('bob')]),
      crb('bob-admin', 'cluster-admin', [user('bob')]),
      role('team-d', 'dall', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      rb('team-d', 'dave', 'Role', 'dall', [user('dave')]),
      rb('team-d', 'dave2', 'ClusterRole', 'nope', [user('dave')]),
      // a benign built-in grant is no finding; a built-in one that is not benign is
      crb('dave-delegator', 'system:auth-delegator', [user('dave')]),
      crb('dave-monitoring', 'cluster-monitoring-view', [user('dave')]),
    ],
    tenants: [
      tenant('team-a', { people: ['alice', 'bob', 'carol', 'dave'].map((name) => ({ kind: SubjectKind.USER, name })).concat([{ kind: SubjectKind.SERVICE_ACCOUNT, name: 'helper', namespace: 'team-a' } as any]) }),
      tenant('team-b', { targetNamespaces: ['team-b', 'team-x'] }),
    ],
  };
  const runAs = (sa1: string) => ['User alice', 'RoleBinding team-a/pods (test)', 'Role team-a/pods (test)', `create pods in team-a running as ServiceAccount ${sa1}`, `ServiceAccount team-a/${sa1}`];
  const remove = (code: string, subject: string) => 'remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role), '
    + `or accept it with \`acceptedReach: [{ code: ReachCode.${code}, subject: '${subject}', reason: '...' }]\``;

  test('each finding exactly', () => {
    const r = TenancyAudit.audit(input);
    expect(r.tenants[1].findings).toEqual([]);
    expect(r.tenants[0].findings.map(({ message, ...f }) => f)).toEqual([
      {
        // the cluster rules of both runners, one finding; the first path
        code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER,
        tenant: 'platform/team-a',
        subject: 'User alice',
        namespace: '',
        rules: [{ apiGroups: [''], resources: ['nodes', 'persistentvolumes'], verbs: ['get'] }],
        path: [...runAs('runner'), 'ClusterRoleBinding runner (test)', 'ClusterRole nodes-get (test)'],
        accepted: false,
        fix: remove('TENANT_IDENTITY_REACHES_CLUSTER', 'User alice'),
      },
      {
        code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
        tenant: 'platform/team-a',
        subject: 'User alice',
        namespace: 'team-d',
        rules: ALL_RULES,
        path: [...runAs('runner'), 'RoleBinding team-d/runner (test)', UNKNOWN('nope')],
        accepted: false,
        fix: remove('TENANT_IDENTITY_REACHES_OTHER_NAMESPACE', 'User alice'),
      },
      {
        code: ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE,
        tenant: 'platform/team-a',
        subject: 'User alice',
        namespace: 'team-e',
        rules: ALL_RULES,
        path: [...runAs('runner2'), 'RoleBinding team-e/runner (test)', UNKNOWN('nope')],
        accepted: false,
        fix: remove('TENANT_IDENTITY_REACHES_OTHER_NAMESPACE', 'User alice'),
      },
      {
        // another tenant's installer: every outside grant, each role once, the scopes sorted; no token advice for another tenant
        code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER,
        tenant: 'platform/team-a',
        subject: 'User carol',
        namespace: '',
        rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }, { apiGroups: [''], resources: ['services'], verbs: ['get'] }],
        path: ['User carol', 'RoleBinding team-b/carol (test)', 'Role team-b/secrets (test)', 'get secret team-b/team-b-token (token of ServiceAccount team-b/team-b)',
          'ServiceAccount team-b/team-b', 'ClusterRole inst, Role r (cluster-wide, namespace team-c)'],
        accepted: false,
        fix: 'remove what lets User carol read secrets, create pods or tokens, exec or impersonate in namespace team-b; '
          + "or accept it with `acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'User carol', reason: '...' }]`",
      },
      {
        code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER,
        tenant: 'platform/team-a',
        subject: 'User dave',
        namespace: '',
        rules: [{ apiGroups: ['monitoring.coreos.com'], resources: ['prometheuses/api'], resourceNames: ['k8s'], verbs: ['get'] }],
        path: ['User dave', 'ClusterRoleBinding dave-monitoring (test)',
          'ClusterRole cluster-monitoring-view (built-in, openshift/cluster-monitoring-operator assets/cluster-monitoring-operator/cluster-role-view.yaml)'],
        accepted: false,
        fix: remove('TENANT_IDENTITY_REACHES_CLUSTER', 'User dave'),
      },
      {
        code: ReachCode.TENANT_IDENTITY_UNBOUNDED,
        tenant: 'platform/team-a',
        subject: 'ServiceAccount team-a/helper',
        namespace: '',
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }],
        path: ['ServiceAccount team-a/helper', 'ClusterRoleBinding helper (test)', UNKNOWN('nope')],
        accepted: false,
        fix: remove('TENANT_IDENTITY_UNBOUNDED', 'ServiceAccount team-a/helper'),
      },
    ]);
    expect(r.tenants[0].findings.map((f) => f.message.split(': ')[0])).toEqual([
      'User alice reaches cluster-wide (gets it indirectly)',
      'User alice reaches namespace team-d (gets it indirectly)',
      'User alice reaches namespace team-e (gets it indirectly)',
      'User carol can become the installer ServiceAccount team-b/team-b of tenant platform/team-b, which holds rules in cluster-wide, namespace team-c',
      'User dave reaches cluster-wide (is bound to the built-in ClusterRole cluster-monitoring-view)',
      'ServiceAccount team-a/helper reaches cluster-wide (is bound to the unknown ClusterRole nope)',
    ]);
    expect(TenancyAudit._auditUnoptimized(input)).toEqual(r);
  });

  test('the token Secret advice only on a path through a token Secret of the tenant\'s own installer', () => {
    const r = TenancyAudit.audit({
      objects: [...input.objects, rb('team-b', 'pods', 'Role', 'secrets', [sa('team-b', 'op')])],
      tenants: [input.tenants[0], { ...input.tenants[1], people: [{ kind: SubjectKind.SERVICE_ACCOUNT, name: 'op', namespace: 'team-b' }] }],
    });
    expect(r.tenants[1].findings.map((f) => [f.code, f.subject, f.fix])).toEqual([[
      ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, 'ServiceAccount team-b/op',
      'on OLM >= 0.29 set `createTokenSecret: false` (no token Secret to read; OLM requests tokens, PR #3377), and split the operators so that no operator shares '
        + 'the namespace of an installer with rules outside it (a pod created there may run as the installer); '
        + "or accept it with `acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-b/op', reason: '...' }]`",
    ]]);
  });
});

test('the entry points name themselves in their input errors; an App without tenants or global operators audits to nothing', () => {
  expect(() => TenancyAudit.objectsOf(undefined as any)).toThrow(/^TenancyAudit\.objectsOf: tenant/);
  expect(() => TenancyAudit.operatorServiceAccounts('x' as any)).toThrow(/^TenancyAudit\.operatorServiceAccounts: bundles/);
  expect(() => TenancyAudit.ofConstruct(undefined as any)).toThrow(/^TenancyAudit\.ofConstruct: scope/);
  expect(() => TenancyAudit.globalOperators({ objects: [], tenants: [] }, 'x' as any))
    .toThrow(new Error('TenancyAudit.globalOperators: operators must be a list of GlobalOperatorFacts'));
  expect(TenancyAudit.globalOperators({ objects: [], tenants: [] }, [])).toEqual([]);
  // no globalOperators key at all without a global install
  expect(Object.keys(TenancyAudit.ofConstruct(Testing.app()))).toEqual(['tenants']);
  expect(TenancyAudit.ofConstruct(Testing.app())).toEqual({ tenants: [] });
});

test('ofConstruct adds the drivers of the App\'s global operators (unknown without a bundle: every tenant identity)', () => {
  const app = Testing.app();
  const g = new GlobalOperatorInstall(new Chart(app, 'platform'), 'Global', { reason: 'shared' });
  g.install({ packageName: 'pkg', channel: 'stable', catalog: CatalogSourceReference.fromName('curated', 'olm') });
  const r = TenancyAudit.ofConstruct(app);
  expect(r.tenants).toEqual([]);
  const drivers = r.globalOperators!.map((o) => ({
    ...o, drivers: o.drivers.map((d) => [d.code, d.tenant, d.subject, d.apis, d.namespaces, d.path, d.accepted]),
  }));
  expect(drivers).toEqual([{
    install: 'platform/Global',
    namespace: 'platform-operators',
    packageName: 'pkg',
    apis: [],
    apisKnown: false,
    drivers: [['TenantCanDriveGlobalOperator', '*', '*', [], [''], [], false]],
  }]);
});

test('ofConstruct: the provided-API ClusterRoles OLM makes for the global operator reach the tenant identity bound to the built-in admin', () => {
  // the same path as the next test, through the constructs: ofConstruct must model the global install's provided-API
  // ClusterRoles (aggregate-to-admin) as globalOperators does, whether or not any tenant has people
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
  new ApiObject(chart, 'Admin', {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name: 'admin', namespace: 'team-a' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
    subjects: [sa('team-a', 'team-a')],
  } as any);
  const widgets = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
  new GlobalOperatorInstall(chart, 'Global', { reason: 'shared' })
    .install({ packageName: 'small', channel: 'stable', catalog: CatalogSourceReference.fromName('curated', 'olm'), bundle: widgets });
  const r = TenancyAudit.ofConstruct(app);
  const drivers = r.globalOperators!.map((o) => [
    o.packageName, o.apis, o.drivers.map((d) => [d.tenant, d.subject, d.apis, d.namespaces, d.path.length]),
  ]);
  expect(drivers).toEqual([
    ['small', ['widgets.example.com'], [['platform/TeamA', 'ServiceAccount team-a/team-a', ['widgets.example.com'], ['team-a'], 3]]],
  ]);
});

test('globalOperators: OLM\'s provided-API ClusterRoles of the global operator aggregate into the built-in admin a tenant identity holds', () => {
  const widgets = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
  const r = TenancyAudit.globalOperators({ objects: [rb('team-a', 'admin', 'ClusterRole', 'admin', [sa('team-a', 'team-a')])], tenants: [tenant('team-a')] },
    [{ install: 'platform/Global', namespace: 'ops', operatorGroupName: 'ops', packageName: 'small', bundle: widgets }]);
  expect(r.map((o) => ({ ...o, drivers: o.drivers.map((d) => [d.tenant, d.subject, d.apis, d.namespaces, d.path, d.accepted]) }))).toEqual([{
    install: 'platform/Global',
    namespace: 'ops',
    packageName: 'small',
    apis: ['widgets.example.com'],
    apisKnown: true,
    drivers: [['platform/team-a', 'ServiceAccount team-a/team-a', ['widgets.example.com'], ['team-a'],
      ['ServiceAccount team-a/team-a', 'RoleBinding team-a/admin (test)', 'ClusterRole admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)'], false]],
  }]);
});

// Known bug (found in the mutant triage, not fixed yet): `run` adds OLM's provided-API ClusterRoles only for tenants
// with people, so when another identity is bound to the built-in admin outside its tenant, the APIs a tenant without
// people makes admin aggregate (AllNamespaces) are missing from the finding's rules (and a finding whose only missing
// rules are those APIs is not made at all). Remove `.failing` with the fix.
test('the rules of admin reached in another namespace include the APIs a tenant without people aggregates into it', () => {
  const widgets = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
  const f = TenancyAudit.audit({
    objects: [rb('team-x', 'x', 'ClusterRole', 'admin', [user('alice')])],
    tenants: [tenant('team-a', { targetNamespaces: [], bundles: [widgets] }), tenant('team-b', { people: [ALICE] })],
  }).tenants[1].findings[0];
  expect(f.rules.filter((r) => (r.apiGroups ?? []).includes('example.com'))).toEqual([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }]);
});

// Every provided-API ClusterRole OLM makes carries `rbac.authorization.k8s.io/aggregate-to-<level>` (olm-generated-rbac.ts),
// so the built-in admin/edit/view hold every tenant's APIs. The same, through the other ways to hold those roles.
describe('provided APIs of tenants without people, through the built-in aggregation', () => {
  const widgets = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
  const exampleRules = (objects: PowerObject[], b: OperatorBundle = widgets) => TenancyAudit.audit({
    objects, tenants: [tenant('team-a', { targetNamespaces: [], bundles: [b] }), tenant('team-b', { people: [ALICE] })],
  }).tenants[1].findings.map((f) => [f.namespace, f.rules.filter((r) => (r.apiGroups ?? []).includes('example.com'))]);

  test('view bound cluster-wide: the APIs with view verbs, cluster-wide', () => {
    expect(exampleRules([crb('x', 'view', [user('alice')])])).toEqual([['', [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }]]]);
  });

  // OLM's edit-level role (create, update, patch, delete) and the built-in view, which carries the aggregate-to-edit
  // label itself (Kubernetes bootstrap policy) and so brings OLM's view-level role (get, list, watch)
  const EDIT = [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }];

  test('a ClusterRole of the input aggregating the edit label, bound in another namespace', () => {
    const mine = clusterRole('mine', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] } });
    expect(exampleRules([mine, rb('team-x', 'x', 'ClusterRole', 'mine', [user('alice')])])).toEqual([['team-x', EDIT]]);
  });

  test("a bundle's own RoleBinding of edit counts too (the tenant's bundle, not the input)", () => {
    const withBinding = bundle([
      { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'alice-edit' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [user('alice')] },
    ], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
    // the cluster-wide finding; the bundle's binding also puts alice in team-a, the other tenant's namespace
    expect(exampleRules([], withBinding).find(([ns]) => ns === '')).toEqual(['', EDIT]);
  });
});

test('findings of one identity are sorted by code, then namespace, then path (two installers reached, the same code and scope)', () => {
  const pods = (ns: string) => [role(ns, 'pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]), rb(ns, 'pods', 'Role', 'pods', [user('alice')])];
  const r = TenancyAudit.audit({
    objects: [
      // two installers alice can become (pods in their namespaces, her own direct grants there: no finding), each with a cluster rule
      ...pods('team-c'), ...pods('team-b'),
      clusterRole('inst', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
      crb('inst-c', 'inst', [sa('team-c', 'team-c')]),
      crb('inst-b', 'inst', [sa('team-b', 'team-b')]),
      rb('team-d', 'alice', 'ClusterRole', 'nope', [user('alice')]),
    ],
    tenants: [tenant('team-a', { people: [ALICE] }), tenant('team-b'), tenant('team-c')],
  });
  expect(r.tenants[0].findings.map((f) => [f.code, f.namespace, f.path[1]])).toEqual([
    [ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, '', 'RoleBinding team-b/pods (test)'],
    [ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, '', 'RoleBinding team-c/pods (test)'],
    [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-d', 'RoleBinding team-d/alice (test)'],
  ]);
});

test('ofConstruct: a bundle binding every ServiceAccount in its namespace makes every other tenant unconfined (no shortcut), so their reach is found', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const everyone = bundle([
    { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }] },
  ]);
  new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', deriveInstallerRules: true })
    .subscribe({ packageName: 'small', catalog: CatalogSourceReference.fromName('curated', 'team-a'), bundle: everyone });
  new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b', deriveInstallerRules: true });
  expect(brief(TenancyAudit.ofConstruct(app))).toEqual([['platform/A', []], ['platform/B', [[
    ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'ServiceAccount team-b/team-b', 'team-a',
    ['ServiceAccount team-b/team-b', 'RoleBinding team-a/view (bundle small.v1.0.0, extra object [0])',
      'ClusterRole view (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)'], false,
  ]]]]);
});

// Bug found in the mutant triage of session 10: the provided-API ClusterRoles of a tenant without people were left out
// unless admin/edit/view were bound or a ClusterRole of the input aggregated, but OLM's OperatorGroup ClusterRoles
// (which aggregate them, `olm.og.<og>.<level>-<hash>`: OLM pkg/controller/operators/olm/operatorgroup.go
// ensureOpGroupClusterRole) and the provided-API ClusterRoles themselves (`<crd>-<version>-<level>`,
// ensureProvidedAPIClusterRole) can be bound by name too: the OperatorGroup role was empty (an escalation through it
// not found) and a provided-API role unknown (counted as unbounded). A direct binding of either is a plain grant of a
// role the App's OLM objects define (no finding, as any defined role); these go through a pod of team-b running as
// `runner`, which alice (a person of team-b) may create.
describe('provided APIs of tenants without people, through a binding of an OLM-made ClusterRole by name', () => {
  const widgets = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
  const input = (binding: PowerObject): TenancyAuditInput => ({
    objects: [role('team-b', 'pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]), rb('team-b', 'pods', 'Role', 'pods', [user('alice')]), binding],
    tenants: [tenant('team-a', { bundles: [widgets] }), tenant('team-b', { people: [ALICE] })],
  });
  const RUN_AS = ['User alice', 'RoleBinding team-b/pods (test)', 'Role team-b/pods (test)', 'create pods in team-b running as ServiceAccount runner', 'ServiceAccount team-b/runner'];
  const ADMIN_WIDGETS = [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }];

  test('the OperatorGroup\'s admin ClusterRole bound cluster-wide: the tenant\'s APIs in every namespace', () => {
    const ogAdmin = OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a', AccessLevel.ADMIN);
    const i = input(crb('runner', ogAdmin, [sa('team-b', 'runner')]));
    const r = TenancyAudit.audit(i);
    expect(r.tenants[1].findings.map(({ message, fix, ...f }) => f)).toEqual([{
      code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER,
      tenant: 'platform/team-b',
      subject: 'User alice',
      namespace: '',
      rules: ADMIN_WIDGETS,
      path: [...RUN_AS, 'ClusterRoleBinding runner (test)', `ClusterRole ${ogAdmin} (OLM OPERATOR_GROUP_CLUSTER_ROLE; aggregationRule `
        + '{olm.opgroup.permissions/aggregate-to-50cc6f60739af19b-admin=true} aggregates widgets.example.com-v1-admin)'],
      accepted: false,
    }]);
    expect(TenancyAudit._auditUnoptimized(i)).toEqual(r);
  });

  test('a provided-API ClusterRole bound by name in another namespace: its own rule there, not an unknown role', () => {
    expect(TenancyAudit.audit(input(rb('team-x', 'runner', 'ClusterRole', 'widgets.example.com-v1-admin', [sa('team-b', 'runner')])))
      .tenants[1].findings.map((f) => [f.code, f.namespace, f.rules, f.path])).toEqual([[
      ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-x', ADMIN_WIDGETS,
      [...RUN_AS, 'RoleBinding team-x/runner (test)', 'ClusterRole widgets.example.com-v1-admin (OLM PROVIDED_API_CLUSTER_ROLE of small.v1.0.0)'],
    ]]);
  });
});

describe('providedApisReachable: when OLM\'s provided-API ClusterRoles of every tenant are added (exactly the ways to hold them)', () => {
  const WIDGETS = { ownedCrds: [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }], ownedApiServices: [] };
  const reachable = (objects: any[], bundleObjects: any[] = [], extra: Partial<AuditedTenant> = {}) => providedApisReachable({
    objects: objects.map((manifest) => ({ manifest, origin: 'test' })),
    // what the predicate reads of a bundle (its owned APIs, each object's raw manifest): malformed objects a loaded bundle refuses too
    tenants: [tenant('team-a', { bundles: [{ ...WIDGETS, objects: bundleObjects.map((raw) => ({ raw })) } as any], ...extra })],
  });
  const binding = (kind: string, roleKind: string, name: any) => ({
    apiVersion: RBAC, kind, metadata: { name: 'x', namespace: 'team-x' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name }, subjects: [user('alice')],
  });

  test.each<[string, any]>([
    ['a RoleBinding of the ClusterRole admin', binding('RoleBinding', 'ClusterRole', 'admin')],
    ['a ClusterRoleBinding of edit', binding('ClusterRoleBinding', 'ClusterRole', 'edit')],
    ['a RoleBinding of view', binding('RoleBinding', 'ClusterRole', 'view')],
    ['a ClusterRole with an aggregationRule (even an empty one)', { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'a' }, aggregationRule: {} }],
    ['a binding of the tenant\'s OperatorGroup ClusterRole', binding('RoleBinding', 'ClusterRole', OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a', AccessLevel.VIEW))],
    ...['admin', 'edit', 'view', 'crdview'].map((x): [string, any] => [`a binding of the provided-API ClusterRole ...-${x}`, binding('RoleBinding', 'ClusterRole', `widgets.example.com-v1-${x}`)]),
  ])('yes: %s, in the input or a bundle', (_, m) => {
    expect([reachable([m]), reachable([], [m])]).toEqual([true, true]);
  });

  test.each([
    ['nothing', []],
    ['a Role named admin', [binding('RoleBinding', 'Role', 'admin')]],
    ['a ClusterRole named other', [binding('ClusterRoleBinding', 'ClusterRole', 'other')]],
    ['a ClusterRole with aggregationRule: null, or none', [{ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'a' }, aggregationRule: null }, { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'b' } }]],
    ['objects of other kinds naming admin', [{ kind: 'ConfigMap', roleRef: { kind: 'ClusterRole', name: 'admin' }, aggregationRule: {} }, { kind: 'Role', aggregationRule: {} }]],
    ['another namespace\'s OperatorGroup ClusterRole', [binding('RoleBinding', 'ClusterRole', OlmNaming.operatorGroupClusterRoleName('team-b', 'team-a', AccessLevel.ADMIN))]],
    ['malformed objects and bindings', [null, 'admin', 42, { kind: 'RoleBinding' }, { kind: 'RoleBinding', roleRef: null }, binding('RoleBinding', 'ClusterRole', ['admin'])]],
  ])('no: %s', (_, objects) => {
    expect([reachable(objects as any[]), reachable([], objects as any[])]).toEqual([false, false]);
  });

  test('no without a bundle object\'s raw manifest, and through an OLM v0.8-v0.14 OperatorGroup ClusterRole name (<og>-<level>)', () => {
    expect(providedApisReachable({ objects: [], tenants: [{ ...tenant('team-a'), bundles: [{ ...WIDGETS, objects: [{ kind: 'ClusterRole' }] }] as any }] })).toEqual(false);
    const old = { olmGeneration: OlmGeneration.V0_8_TO_V0_14 };
    expect([reachable([binding('RoleBinding', 'ClusterRole', 'team-a-edit')], [], old), reachable([binding('RoleBinding', 'ClusterRole', 'team-a-edit')])]).toEqual([true, false]);
    // an APIService's roles: <resource>-<version>-<level>, no crdview
    const api = bundle([], [], [{ group: 'ex.io', version: 'v2', kind: 'Gadget', name: 'gadgets', deploymentName: 'small' }]);
    const viaApi = (name: string) => providedApisReachable({ objects: [obj(binding('RoleBinding', 'ClusterRole', name))], tenants: [tenant('team-a', { bundles: [api] })] });
    expect(['gadgets-v2-admin', 'gadgets-v2-view', 'gadgets-v2-crdview'].map(viaApi)).toEqual([true, true, false]);
    // the roles of any of a tenant's bundles (one without APIs beside it)
    expect(providedApisReachable({ objects: [obj(binding('RoleBinding', 'ClusterRole', 'gadgets-v2-edit'))], tenants: [tenant('team-a', { bundles: [bundle(), api] })] })).toEqual(true);
  });
});

describe('TenancyAudit.audit: what is held already, the installer\'s scopes and roles, the code, the order, the message', () => {
  const PODS = [role('team-a', 'pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]), rb('team-a', 'pods', 'Role', 'pods', [user('alice')])];
  const RUN_AS = (name: string) => ['User alice', 'RoleBinding team-a/pods (test)', 'Role team-a/pods (test)', `create pods in team-a running as ServiceAccount ${name}`, `ServiceAccount team-a/${name}`];
  const findings = (objects: PowerObject[], tenants: AuditedTenant[] = [tenant('team-a', { people: [ALICE] })]) => {
    const r = TenancyAudit.audit({ objects, tenants });
    expect(TenancyAudit._auditUnoptimized({ objects, tenants })).toEqual(r);
    return r.tenants[0].findings;
  };

  test('a cluster-wide role held directly covers an unknown role bound in another namespace: no finding', () => {
    const all = clusterRole('all', ALL_RULES);
    expect(findings([all, crb('all', 'all', [user('alice')]), rb('team-x', 'x', 'ClusterRole', 'nope', [user('alice')])])).toEqual([]);
    // without the cluster-wide grant, the finding
    expect(findings([all, rb('team-x', 'x', 'ClusterRole', 'nope', [user('alice')])]).map((f) => [f.code, f.namespace])).toEqual([
      [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-x'],
    ]);
  });

  test('an installer\'s outside grants: the scopes sorted, each role once (a Role outside bound before the cluster rule, one ClusterRole in two scopes)', () => {
    const f = findings([
      ...PODS,
      role('team-c', 'r', [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }]),
      rb('team-c', 'r', 'Role', 'r', [sa('team-a', 'team-a')]),
      clusterRole('inst', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
      rb('team-d', 'inst', 'ClusterRole', 'inst', [sa('team-a', 'team-a')]),
      crb('inst', 'inst', [sa('team-a', 'team-a')]),
    ], [tenant('team-a', { people: [ALICE] })]);
    expect(f.map((x) => [x.code, x.namespace, x.rules, x.path.slice(-1)[0], x.message.split(': ')[0]])).toEqual([[
      ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, '',
      [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }, { apiGroups: [''], resources: ['services'], verbs: ['get'] }],
      'Role r, ClusterRole inst (cluster-wide, namespace team-c, namespace team-d)',
      'User alice can become the installer ServiceAccount team-a/team-a of tenant platform/team-a, which holds rules in cluster-wide, namespace team-c, namespace team-d',
    ]]);
  });

  test('an indirect cluster grant of every resource without the non-resource URLs is TenantIdentityUnbounded; one of less is TenantIdentityReachesCluster', () => {
    const f = (rules: any[]) => findings([...PODS, clusterRole('star', rules), crb('runner', 'star', [sa('team-a', 'runner')])])
      .map((x) => [x.code, x.namespace, x.rules, x.path]);
    expect(f(ALL_RULES)).toEqual([[ReachCode.TENANT_IDENTITY_UNBOUNDED, '', ALL_RULES, [...RUN_AS('runner'), 'ClusterRoleBinding runner (test)', 'ClusterRole star (test)']]]);
    const nodes = [{ apiGroups: ['*'], resources: ['nodes'], verbs: ['*'] }];
    expect(f(nodes)).toEqual([[ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, '', nodes, [...RUN_AS('runner'), 'ClusterRoleBinding runner (test)', 'ClusterRole star (test)']]]);
  });

  test('a direct binding of an input ClusterRole that aggregates the built-in edit: "the aggregated ClusterRole"', () => {
    const mine = clusterRole('mine', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] } });
    expect(findings([mine, rb('team-x', 'x', 'ClusterRole', 'mine', [user('alice')])]).map((x) => [x.code, x.namespace, x.message.split(': ')[0]])).toEqual([[
      ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-x', 'User alice reaches namespace team-x (is bound to the aggregated ClusterRole mine)',
    ]]);
  });

  test('findings sorted by subject order first (not by code), then code, then namespace (bound in the reverse order)', () => {
    const f = findings([
      rb('team-z', 'z', 'ClusterRole', 'nope', [user('alice')]),
      rb('team-c', 'c', 'ClusterRole', 'nope', [user('alice')]),
      crb('a', 'nope', [user('alice')]),
      rb('team-d', 'd', 'ClusterRole', 'nope', [user('bob')]),
      rb('team-b', 'b', 'ClusterRole', 'nope', [user('bob')]),
    ], [tenant('team-a', { people: [ALICE, { kind: SubjectKind.USER, name: 'bob' }] })]);
    expect(f.map((x) => [x.subject, x.code, x.namespace])).toEqual([
      ['User alice', ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-c'],
      ['User alice', ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-z'],
      ['User alice', ReachCode.TENANT_IDENTITY_UNBOUNDED, ''],
      ['User bob', ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-b'],
      ['User bob', ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-d'],
    ]);
  });

  test('the message shows four rules, then how many more (five rules), and all four without a count', () => {
    const rules = (n: number) => ['a', 'b', 'c', 'd', 'e'].slice(0, n).map((g) => ({ apiGroups: [`${g}.io`], resources: [g], verbs: ['get'] }));
    const f = findings([
      ...PODS,
      clusterRole('five', rules(5)), clusterRole('four', rules(4)),
      rb('team-x', 'five', 'ClusterRole', 'five', [sa('team-a', 'runner')]),
      rb('team-y', 'four', 'ClusterRole', 'four', [sa('team-a', 'runner')]),
    ]);
    const shown = (ns: string, n: number) => rules(n).map((r) => `Namespace:"${ns}" APIGroups:[${r.apiGroups[0]}] Resources:[${r.resources[0]}] Verbs:[get]`).join('; ');
    expect(f.map((x) => [x.namespace, x.rules.length, x.message])).toEqual([
      ['team-x', 5, `User alice reaches namespace team-x (gets it indirectly): ${shown('team-x', 4)} and 1 more rule(s); path: `
        + [...RUN_AS('runner'), 'RoleBinding team-x/five (test)', 'ClusterRole five (test)'].join(' -> ')],
      ['team-y', 4, `User alice reaches namespace team-y (gets it indirectly): ${shown('team-y', 4)}; path: `
        + [...RUN_AS('runner'), 'RoleBinding team-y/four (test)', 'ClusterRole four (test)'].join(' -> ')],
    ]);
  });

  test('the fix text quotes a subject with quotes as TypeScript code', () => {
    const f = findings([crb('a', 'nope', [user('o\'brien "x"')])], [tenant('team-a', { people: [{ kind: SubjectKind.USER, name: 'o\'brien "x"' }] })]);
    expect(f.map((x) => x.fix)).toEqual(['remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role), '
      + 'or accept it with `acceptedReach: [{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, subject: \'User o\\\'brien \\"x\\"\', reason: \'...\' }]`']);
  });
});

describe('report, objectsOf and tenantLeaks: the remaining branches', () => {
  test('report: exactly four rules with no count; the drivers of two tenants, two APIs each', () => {
    const rules = ['a', 'b', 'c', 'd'].map((r) => ({ apiGroups: [''], resources: [r], verbs: ['get'] }));
    const f = { code: ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, tenant: 't', subject: 'User u', namespace: '', rules, path: ['User u'], accepted: false, message: 'm', fix: 'f' };
    expect(TenancyAudit.report({ tenants: [{ tenant: 't', namespace: 'n', subjects: ['User u'], findings: [f] }] }).split('\n').slice(1, -2)).toEqual([
      '  ERROR TenantIdentityReachesCluster: User u reaches cluster-wide',
      '    path: User u',
      ...['a', 'b', 'c', 'd'].map((r) => `    Namespace:"" APIGroups:[] Resources:[${r}] Verbs:[get]`),
    ]);
    const d = (tenantName: string) => ({
      code: 'GlobalOperatorDrivenByTenant', tenant: tenantName, subject: 'User u', apis: ['as.example.com', 'bs.example.com'], namespaces: [''], path: [], accepted: false, message: 'm', fix: 'f',
    });
    expect(TenancyAudit.report({
      tenants: [],
      globalOperators: [{ install: 'platform/G', namespace: 'operators', packageName: 'pkg', apis: ['as.example.com', 'bs.example.com'], apisKnown: true, drivers: [d('a'), d('b'), d('a')] }] as any,
    })).toEqual([
      "global operator pkg (namespace operators, installed by the platform with OLM's own client): 3 identities of 2 tenant(s) may drive it, 3 not accepted",
      ...['a', 'b', 'a'].map((t) => `  ERROR GlobalOperatorDrivenByTenant: User u (tenant ${t}) may create as.example.com, bs.example.com in every namespace`),
      '',
    ].join('\n'));
  });

  test('objectsOf: OLM\'s provided-API ClusterRoles of a bundle that owns a CRD, with or without people', () => {
    const b = bundle([], [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }]);
    const provided = (t: AuditedTenant) => TenancyAudit.objectsOf(t).filter((o) => o.origin === 'OLM PROVIDED_API_CLUSTER_ROLE of small.v1.0.0').map((o) => o.manifest.metadata.name);
    const names = ['widgets.example.com-v1-admin', 'widgets.example.com-v1-crdview', 'widgets.example.com-v1-edit', 'widgets.example.com-v1-view'];
    expect([provided(tenant('team-a', { bundles: [b] })), provided(tenant('team-a', { bundles: [b], people: [ALICE] }))]).toEqual([names, names]);
  });

  test('tenantLeaks: a tenant without bundles; the direct computation sorted; a binding of OLM in a target naming the operator of the tenant namespace', () => {
    expect(tenantLeaks(tenant('team-a'))).toEqual({ all: false, namespaces: [] });
    // names the tenant namespace: computed directly, the namespaces sorted as the template's
    const direct = bundle([{ apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'c' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' }, subjects: [sa('zz', 'x'), sa('team-a', 'op'), sa('aa', 'y')] }]);
    expect(tenantLeaks(tenant('team-a', { bundles: [direct] }))).toEqual({ all: false, namespaces: ['aa', 'team-a', 'zz'] });
    // OLM copies the CSV's Role into each target namespace, bound to the operator's ServiceAccount of the tenant's namespace
    expect(tenantLeaks(tenant('team-a', { bundles: [bundle()], targetNamespaces: ['team-a', 'team-t'] }))).toEqual({ all: false, namespaces: ['team-a'] });
    expect(tenantLeaks(tenant('team-a', { bundles: [bundle()] }))).toEqual({ all: false, namespaces: [] });
  });

  test('tenantLeaks: a bundle naming the tenant namespace only by a ServiceAccount user name or its group', () => {
    // the RoleBinding has no namespace of its own: only the user name names team-q
    const byUser = bundle([{
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [user('system:serviceaccount:team-q:x')],
    }]);
    expect([tenantLeaks(tenant('team-q', { bundles: [byUser] })), tenantLeaks(tenant('team-a', { bundles: [byUser] }))]).toEqual([
      { all: false, namespaces: [] }, { all: false, namespaces: ['team-q'] },
    ]);
    const byGroup = bundle([{
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts:team-g' }],
    }]);
    expect([tenantLeaks(tenant('team-g', { bundles: [byGroup] })), tenantLeaks(tenant('team-a', { bundles: [byGroup] }))]).toEqual([
      { all: false, namespaces: [] }, { all: false, namespaces: ['team-g'] },
    ]);
  });
});
