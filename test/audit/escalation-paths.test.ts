// Paths to power the effective-power model follows from Kubernetes' own code (issue 23): ClusterRole aggregation
// (pkg/controller/clusterroleaggregation) over the built-in roles' real labels (bootstrappolicy/policy.go), escalate
// on named roles (pkg/registry/rbac/escalation_check.go RoleEscalationAuthorized, clusterrole/policybased,
// rolebinding/policybased) and certificate signing requests (plugin/pkg/admission/certificates/approval,
// pkg/controller/certificates/signer). Each case with its variants: another verb, resourceNames, wildcards, a
// ClusterRole bound by a RoleBinding, a binding in another namespace; and the refusal when an ingredient is missing.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { CATALOG, ETCD } from './leaky-cases';
import { EffectivePower, InstallerRuleChecks, OperatorBundle, PolicyRule, PowerObject, RbacSubject, ReachCode, RoleOrigin, ScopedOperatorTenant, SensitiveGrant, SubjectKind, TenancyAudit } from '../../src';

const RBAC = 'rbac.authorization.k8s.io';
const CERTS = 'certificates.k8s.io';
const sa = (namespace: string, name: string): RbacSubject => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace });
const saSubject = (namespace: string, name: string) => ({ kind: 'ServiceAccount', name, namespace });
const clusterRole = (name: string, rules: any[], extra: { labels?: Record<string, string>; aggregationRule?: any } = {}): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}) }, rules, ...(extra.aggregationRule !== undefined ? { aggregationRule: extra.aggregationRule } : {}) },
});
const role = (namespace: string, name: string, rules: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules },
});
const crb = (name: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects },
});
const rb = (namespace: string, name: string, roleKind: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects },
});
const OP = sa('team-a', 'op');
const OP_SUBJECT = saSubject('team-a', 'op');
const EVERYTHING: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }];
const NS_EVERYTHING: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];

/** `op` bound cluster-wide to a ClusterRole `agg` with `aggregationRule` and no rules, plus `more`. */
function aggregated(aggregationRule: any, more: PowerObject[] = []): EffectivePower {
  return new EffectivePower([clusterRole('agg', [], { aggregationRule }), crb('agg', 'agg', [OP_SUBJECT]), ...more]);
}

describe('ClusterRole aggregation (pkg/controller/clusterroleaggregation, LabelSelectorAsSelector)', () => {
  test('the attack: aggregationRule { clusterRoleSelectors: [{}] } and no rules, bound to an operator: cluster-admin, named in the path', () => {
    const p = aggregated({ clusterRoleSelectors: [{}] });
    const power = p.of(OP);
    expect(power.unbounded).toBe(true);
    expect(power.grants[0].roleOrigin).toEqual(RoleOrigin.AGGREGATED);
    expect(power.grants[0].path).toEqual([
      'ServiceAccount team-a/op',
      'ClusterRoleBinding agg (the App)',
      'ClusterRole agg (the App; aggregationRule {} (every ClusterRole) aggregates admin (built-in), aggregate-olm-edit (built-in), aggregate-olm-view (built-in), '
        + 'cluster-admin (built-in), edit (built-in) and 5 more)',
    ]);
    expect(EffectivePower.isEverything(power.grants[0].rules)).toBe(true);
  });

  test.each([
    ['matchLabels kubernetes.io/bootstrapping: rbac-defaults (every bootstrap role carries it)', { matchLabels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }],
    ['matchExpressions Exists kubernetes.io/bootstrapping', { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'Exists' }] }],
    ['matchExpressions In', { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'In', values: ['x', 'rbac-defaults'] }] }],
    ['matchExpressions NotIn (an absent key or another value matches)', { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'NotIn', values: ['x'] }] }],
    ['matchExpressions DoesNotExist on a key nobody has', { matchExpressions: [{ key: 'example.com/nope', operator: 'DoesNotExist' }] }],
    ['matchLabels {} and matchExpressions [] (still empty: every ClusterRole)', { matchLabels: {}, matchExpressions: [] }],
  ])('%s: cluster-admin', (_name, selector) => {
    expect(aggregated({ clusterRoleSelectors: [selector] }).of(OP).unbounded).toBe(true);
  });

  test('selectors that match no bootstrap role: nothing (matchLabels elsewhere, DoesNotExist on the bootstrap label, NotIn rbac-defaults, invalid ones)', () => {
    for (const selector of [
      { matchLabels: { 'example.com/x': 'y' } },
      { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'DoesNotExist' }, { key: 'rbac.authorization.k8s.io/aggregate-to-admin', operator: 'DoesNotExist' }] },
      { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'NotIn', values: ['rbac-defaults'] }, { key: 'rbac.authorization.k8s.io/aggregate-to-edit', operator: 'DoesNotExist' }] },
      // the API server refuses these (ValidateLabelSelector); the controller aggregates nothing
      { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'In', values: [] }] },
      { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'Exists', values: ['rbac-defaults'] }] },
      { matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'Gt', values: ['1'] }] },
    ]) {
      const power = aggregated({ clusterRoleSelectors: [selector] }).of(OP);
      expect([JSON.stringify(selector), power.unbounded, power.grants.flatMap((g) => g.rules)]).toEqual([JSON.stringify(selector), false, []]);
    }
    expect(aggregated({ clusterRoleSelectors: 'x' }).of(OP).grants.flatMap((g) => g.rules)).toEqual([]);
  });

  test('aggregate-to-admin selects admin\'s members: admin\'s power (RBAC writes, secrets, exec) cluster-wide, not everything', () => {
    const power = aggregated({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] }).of(OP);
    const rules = power.grants[0].rules;
    expect(power.unbounded).toBe(false);
    expect(EffectivePower.allows(rules, { verb: 'get', resource: 'secrets' })).toBe(true);
    expect(EffectivePower.allows(rules, { verb: 'create', resource: 'pods', subresource: 'exec' })).toBe(true);
    expect(EffectivePower.allows(rules, { verb: 'create', apiGroup: RBAC, resource: 'rolebindings' })).toBe(true);
    expect(EffectivePower.allows(rules, { verb: 'update', apiGroup: 'operators.coreos.com', resource: 'installplans' })).toBe(true);
    expect(EffectivePower.allows(rules, { verb: 'create', apiGroup: RBAC, resource: 'clusterroles' })).toBe(false);
  });

  test('several selectors are ORed; a selector matching the role itself does not count it', () => {
    const widgets = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };
    const gadgets = { apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['get'] };
    const p = aggregated({ clusterRoleSelectors: [{ matchLabels: { a: '1' } }, { matchExpressions: [{ key: 'b', operator: 'In', values: ['2', '3'] }] }, { matchLabels: { none: 'x' } }] }, [
      clusterRole('w', [widgets], { labels: { a: '1' } }),
      clusterRole('g', [gadgets], { labels: { b: '3' } }),
      clusterRole('other', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], { labels: { a: '2', b: '4' } }),
    ]);
    expect(p.of(OP).grants.map((g) => g.rules)).toEqual([[gadgets, widgets]]);
  });

  test('transitively: a role selecting a role whose own selector is {} is cluster-admin too', () => {
    const p = aggregated({ clusterRoleSelectors: [{ matchLabels: { tier: 'inner' } }] }, [
      clusterRole('inner', [], { labels: { tier: 'inner' }, aggregationRule: { clusterRoleSelectors: [{}] } }),
    ]);
    expect(p.of(OP).unbounded).toBe(true);
  });

  test('a {}-aggregated ClusterRole bound by a RoleBinding in another namespace: everything in that namespace only', () => {
    const p = new EffectivePower([clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{}] } }), rb('team-b', 'agg', 'ClusterRole', 'agg', [OP_SUBJECT])]);
    const power = p.of(OP);
    expect(power.unbounded).toBe(false);
    expect(power.grants.map((g) => [g.namespace, g.roleOrigin, EffectivePower.isEverything([...g.rules, { nonResourceUrls: ['*'], verbs: ['*'] }])])).toEqual([
      ['team-b', RoleOrigin.AGGREGATED, true],
    ]);
  });

  test('the other direction: a ClusterRole labelled aggregate-to-view with secrets and pods/exec joins view, edit and admin of every holder', () => {
    const leaky = clusterRole('bundle-viewer', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
    ], { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } });
    const viewer = { kind: SubjectKind.GROUP, name: 'team-b-viewers' };
    for (const builtin of ['view', 'edit', 'admin']) {
      const p = new EffectivePower([leaky, rb('team-b', 'viewers', 'ClusterRole', builtin, [{ kind: 'Group', name: 'team-b-viewers' }])]);
      const rules = p.rulesIn(viewer, 'team-b');
      expect([builtin, EffectivePower.allows(rules, { verb: 'list', resource: 'secrets' }), EffectivePower.allows(rules, { verb: 'create', resource: 'pods/exec' })]).toEqual([builtin, true, true]);
    }
    // without the label: view reads no Secrets
    const plain = new EffectivePower([rb('team-b', 'viewers', 'ClusterRole', 'view', [{ kind: 'Group', name: 'team-b-viewers' }])]);
    expect(EffectivePower.allows(plain.rulesIn(viewer, 'team-b'), { verb: 'list', resource: 'secrets' })).toBe(false);
    // OLM's aggregate-olm-view is part of view on an OLM cluster
    expect(EffectivePower.allows(plain.rulesIn(viewer, 'team-b'), { verb: 'list', apiGroup: 'operators.coreos.com', resource: 'subscriptions' })).toBe(true);
  });
});

describe('escalate and bind on named roles (RoleEscalationAuthorized checks the object name)', () => {
  const own = (rules: any[]) => clusterRole('op', rules);
  const escalateOwn = (verbs: string[], extra: any = {}) => ({ apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['op'], verbs, ...extra });

  test.each([
    ['escalate + update', [escalateOwn(['escalate', 'update'])]],
    ['escalate + patch', [escalateOwn(['escalate', 'patch'])]],
    ['* verbs on the named role', [escalateOwn(['*'])]],
    ['escalate named, update on any ClusterRole', [escalateOwn(['escalate']), { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['update'] }]],
    ['wildcard resource in the RBAC group', [{ apiGroups: [RBAC], resources: ['*'], resourceNames: ['op'], verbs: ['escalate', 'update'] }]],
    ['wildcard group', [{ apiGroups: ['*'], resources: ['clusterroles'], resourceNames: ['op'], verbs: ['escalate', 'patch'] }]],
  ])('%s on its own ClusterRole, bound cluster-wide: rewrites it to * (unbounded)', (_name, rules) => {
    const power = new EffectivePower([own(rules), crb('op', 'op', [OP_SUBJECT])]).of(OP);
    expect(power.unbounded).toBe(true);
    const g = power.grants.find((x) => x.roleOrigin === RoleOrigin.ESCALATE)!;
    expect(g.path[3]).toMatch(/^escalate \+ (update|patch) ClusterRole op by name \(ClusterRole op\): rewrite its rules to \*$/);
    expect([g.namespace, g.roleName, g.rules, g.path.slice(4)]).toEqual(['', 'op (rewritten, escalate)', EVERYTHING, [
      'ClusterRoleBinding op (the App) binds it to ServiceAccount team-a/op', 'any rules cluster-wide (escalate)',
    ]]);
  });

  test('the refusals: no escalate, escalate on another name, update on another name, create only (create has no name), an aggregated role', () => {
    for (const rules of [
      [escalateOwn(['update', 'patch'])],
      [escalateOwn(['update']), { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['other'], verbs: ['escalate'] }],
      [escalateOwn(['escalate']), { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['other'], verbs: ['update'] }],
      [escalateOwn(['escalate', 'create'])],
    ]) {
      const power = new EffectivePower([own(rules), crb('op', 'op', [OP_SUBJECT])]).of(OP);
      expect([JSON.stringify(rules), power.unbounded, power.grants.length]).toEqual([JSON.stringify(rules), false, 1]);
    }
    // its role aggregates: changing an aggregationRule needs * on *.* (clusterrole/policybased/storage.go)
    const agg = new EffectivePower([
      clusterRole('op', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }),
      clusterRole('piece', [escalateOwn(['escalate', 'update'])], { labels: { x: 'y' } }),
      crb('op', 'op', [OP_SUBJECT]),
    ]).of(OP);
    expect(agg.unbounded).toBe(false);
  });

  test('its own ClusterRole bound by a RoleBinding in another namespace: everything there, not cluster-wide', () => {
    const power = new EffectivePower([own([escalateOwn(['escalate', 'update'])]), crb('op', 'op', [OP_SUBJECT]), rb('team-b', 'op-b', 'ClusterRole', 'op', [OP_SUBJECT])]).of(OP);
    expect(power.grants.filter((g) => g.roleOrigin === RoleOrigin.ESCALATE).map((g) => [g.namespace, g.rules])).toEqual([['', EVERYTHING], ['team-b', NS_EVERYTHING]]);
  });

  test('a Role: escalate + patch on roles named its own Role: everything in the namespace', () => {
    const power = new EffectivePower([
      role('team-a', 'op', [{ apiGroups: [RBAC], resources: ['roles'], resourceNames: ['op'], verbs: ['escalate', 'patch'] }]),
      rb('team-a', 'op', 'Role', 'op', [OP_SUBJECT]),
    ]).of(OP);
    expect(power.grants.map((g) => [g.namespace, g.roleName, g.rules])).toEqual([
      ['team-a', 'op', [{ apiGroups: [RBAC], resources: ['roles'], resourceNames: ['op'], verbs: ['escalate', 'patch'] }]],
      ['team-a', 'op (rewritten, escalate)', NS_EVERYTHING],
    ]);
  });

  test('bind by name + create bindings, on a role it may rewrite: everything in the binding\'s scope', () => {
    const power = new EffectivePower([
      own([{ apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['spare'], verbs: ['escalate', 'update', 'bind'] }, { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] }]),
      clusterRole('spare', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
      crb('op', 'op', [OP_SUBJECT]),
    ]).of(OP);
    expect(power.unbounded).toBe(true);
  });

  test('update or patch on a named binding with bind on its role: adds itself as a subject (rolebinding/policybased); without bind: nothing', () => {
    const secrets = { apiGroups: [''], resources: ['secrets'], verbs: ['get'] };
    const world = (rules: any[]) => new EffectivePower([
      role('team-b', 'op', rules), rb('team-b', 'op', 'Role', 'op', [OP_SUBJECT]),
      clusterRole('reader', [secrets]), rb('team-b', 'readers', 'ClusterRole', 'reader', [{ kind: 'Group', name: 'others' }]),
    ]).of(OP);
    for (const verb of ['update', 'patch', '*']) {
      const power = world([
        { apiGroups: [RBAC], resources: ['rolebindings'], resourceNames: ['readers'], verbs: [verb] },
        { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['reader'], verbs: ['bind'] },
      ]);
      expect(power.grants.map((g) => [g.namespace, g.roleName, g.rules])[1]).toEqual(['team-b', 'reader', [secrets]]);
    }
    expect(world([{ apiGroups: [RBAC], resources: ['rolebindings'], resourceNames: ['readers'], verbs: ['update'] }]).grants).toHaveLength(1);
    expect(world([{ apiGroups: [RBAC], resources: ['rolebindings'], resourceNames: ['other'], verbs: ['update'] }, { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] }]).grants).toHaveLength(1);
  });
});

describe('certificate signing requests: a client certificate for any user or group but system:masters', () => {
  const CREATE = { apiGroups: [CERTS], resources: ['certificatesigningrequests'], verbs: ['create'] };
  const APPROVAL = { apiGroups: [CERTS], resources: ['certificatesigningrequests/approval'], verbs: ['update'] };
  const SIGNER = { apiGroups: [CERTS], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client'], verbs: ['approve'] };
  const power = (rules: any[], binding: 'crb' | 'rb' = 'crb') => new EffectivePower([
    clusterRole('csr', rules), binding === 'crb' ? crb('csr', 'csr', [OP_SUBJECT]) : rb('team-a', 'csr', 'ClusterRole', 'csr', [OP_SUBJECT]),
  ]).of(OP);

  test('create + approval + approve on kubernetes.io/kube-apiserver-client: any identity, unbounded, with the path', () => {
    const p = power([CREATE, APPROVAL, SIGNER]);
    expect(p.unbounded).toBe(true);
    expect(p.identities[1]).toEqual({
      identity: '*',
      path: ['ServiceAccount team-a/op', 'ClusterRoleBinding csr (the App)', 'ClusterRole csr (the App)',
        'create certificatesigningrequests, update certificatesigningrequests/approval (ClusterRole csr), approve signers kubernetes.io/kube-apiserver-client '
        + '(ClusterRole csr): kube-controller-manager signs a client certificate for any user or group but system:masters', '*'],
    });
  });

  test('the kubelet client signer: a certificate for any node, to which the node authorizer hands the ServiceAccount tokens of its pods: unbounded', () => {
    // kube-controller-manager signs kubernetes.io/kube-apiserver-client-kubelet CSRs for system:node:<name> in
    // system:nodes (pkg/controller/certificates/signer); the node authorizer lets a node create tokens for the
    // ServiceAccounts of pods bound to it (plugin/pkg/auth/authorizer/node/node_authorizer.go authorizeCreateToken), and
    // the requester names any node: OLM's own operators, cluster-admin, run as pods on some node
    const p = power([CREATE, APPROVAL, { ...SIGNER, resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'] }]);
    expect(p.unbounded).toBe(true);
    expect(p.identities[1]).toEqual({
      identity: '*',
      path: ['ServiceAccount team-a/op', 'ClusterRoleBinding csr (the App)', 'ClusterRole csr (the App)',
        'create certificatesigningrequests, update certificatesigningrequests/approval (ClusterRole csr), approve signers kubernetes.io/kube-apiserver-client-kubelet '
        + '(ClusterRole csr): kube-controller-manager signs a client certificate for any node (system:node:<name>), and the node authorizer lets a node '
        + 'create tokens for the ServiceAccounts of the pods bound to it (OLM\'s cluster-admin operators among them)', '*'],
    });
  });

  test.each([
    ['patch on the approval', [CREATE, { ...APPROVAL, verbs: ['patch'] }, SIGNER]],
    ['the kubernetes.io/* signer wildcard', [CREATE, APPROVAL, { ...SIGNER, resourceNames: ['kubernetes.io/*'] }]],
    ['approve on every signer', [CREATE, APPROVAL, { ...SIGNER, resourceNames: undefined }]],
    ['* verbs on certificates.k8s.io *', [{ apiGroups: [CERTS], resources: ['*'], verbs: ['*'] }]],
    ['a named approval (the requester names its CSR)', [CREATE, { ...APPROVAL, resourceNames: ['mine'] }, SIGNER]],
    ['*/approval', [CREATE, { ...APPROVAL, resources: ['*/approval'] }, SIGNER]],
  ])('variant: %s', (_name, rules) => {
    expect(power(rules).unbounded).toBe(true);
  });

  test.each([
    ['no create', [APPROVAL, SIGNER]],
    ['create only by name (create requests have no name)', [{ ...CREATE, resourceNames: ['mine'] }, APPROVAL, SIGNER]],
    ['no approval', [CREATE, SIGNER]],
    ['approval on the status subresource instead', [CREATE, { ...APPROVAL, resources: ['certificatesigningrequests/status'] }, SIGNER]],
    ['no approve on the signer', [CREATE, APPROVAL]],
    ['another signer (kubelet-serving)', [CREATE, APPROVAL, { ...SIGNER, resourceNames: ['kubernetes.io/kubelet-serving'] }]],
    ['sign instead of approve', [CREATE, APPROVAL, { ...SIGNER, verbs: ['sign'] }]],
  ])('refused when an ingredient is missing: %s', (_name, rules) => {
    const p = power(rules);
    expect([p.unbounded, p.identities.map((i) => i.identity)]).toEqual([false, ['ServiceAccount team-a/op']]);
  });

  test('the ClusterRole bound by a RoleBinding: CSRs and signers are cluster-scoped, nothing', () => {
    expect(power([CREATE, APPROVAL, SIGNER], 'rb').unbounded).toBe(false);
  });
});

describe('the App audit (v0 tenant) sees an aggregated role as its real power', () => {
  function appWith(objects: any[]) {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    objects.forEach((o, i) => new ApiObject(chart, `O${i}`, o));
    return app;
  }
  const aggregatedRole = (aggregationRule: any) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'etcd-extras' }, aggregationRule, rules: [] });
  const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding') => ({
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name: 'etcd-extras', ...(kind === 'RoleBinding' ? { namespace: 'team-b' } : {}) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'etcd-extras' },
    subjects: [{ kind: 'ServiceAccount', name: 'etcd-operator', namespace: 'team-a' }],
  });

  test('an App ClusterRole aggregating {} bound to the tenant\'s operator: TenantIdentityUnbounded, naming the aggregation', () => {
    const findings = TenancyAudit.ofConstruct(appWith([aggregatedRole({ clusterRoleSelectors: [{}] }), binding('ClusterRoleBinding')])).tenants[0].findings;
    expect(findings.map((f) => [f.code, f.subject, f.namespace, f.path.slice(-1)[0]])).toEqual([[
      ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/etcd-operator', '',
      'ClusterRole etcd-extras (App; aggregationRule {} (every ClusterRole) aggregates admin (built-in), aggregate-olm-edit (built-in), aggregate-olm-view (built-in), '
        // 8 more built-in roles and the 12 provided-API ClusterRoles OLM makes for the etcd bundle's 3 CRDs (admin, edit,
        // view, crdview each): an aggregationRule selects them too, so they are counted since session 9 (tenancy-audit.ts
        // providedApisReachable)
        + 'cluster-admin (built-in), edit (built-in) and 20 more)',
    ]]);
    expect(findings[0].message).toContain('ServiceAccount team-a/etcd-operator reaches cluster-wide (is bound to the aggregated ClusterRole etcd-extras)');
  });

  test('variants: matchExpressions Exists on the bootstrap label; bound by a RoleBinding in another namespace (that namespace only)', () => {
    const exists = TenancyAudit.ofConstruct(appWith([
      aggregatedRole({ clusterRoleSelectors: [{ matchExpressions: [{ key: 'kubernetes.io/bootstrapping', operator: 'Exists' }] }] }), binding('ClusterRoleBinding'),
    ])).tenants[0].findings;
    expect(exists.map((f) => f.code)).toEqual([ReachCode.TENANT_IDENTITY_UNBOUNDED]);
    const other = TenancyAudit.ofConstruct(appWith([aggregatedRole({ clusterRoleSelectors: [{}] }), binding('RoleBinding')])).tenants[0].findings;
    expect(other.map((f) => [f.code, f.namespace, f.rules])).toEqual([[ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'team-b', NS_EVERYTHING]]);
  });

  test('an aggregated role that selects only the App\'s own narrow roles is a plain, visible grant, even cluster-wide: no finding', () => {
    const findings = TenancyAudit.ofConstruct(appWith([
      aggregatedRole({ clusterRoleSelectors: [{ matchLabels: { 'example.com/etcd-extras': 'true' } }] }),
      { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'etcd-cluster-reader', labels: { 'example.com/etcd-extras': 'true' } }, rules: [{ apiGroups: ['etcd.database.coreos.com'], resources: ['etcdclusters'], verbs: ['get'] }] },
      binding('ClusterRoleBinding'),
    ])).tenants[0].findings;
    expect(findings).toEqual([]);
  });
});

describe('v0: the CSR path is refused in the installer rules unless accepted by name, and named by the audit when accepted', () => {
  const CSR_RULES = [
    { apiGroups: [CERTS], resources: ['certificatesigningrequests'], verbs: ['create'] },
    { apiGroups: [CERTS], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
    { apiGroups: [CERTS], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client'], verbs: ['approve'] },
  ];
  function synth(accepted: boolean): string[] {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new ScopedOperatorTenant(chart, 'TeamA', {
      namespaceName: 'team-a',
      clusterInstallerRules: CSR_RULES,
      ...(accepted ? { acceptedSensitiveGrants: [{ grant: SensitiveGrant.CSR_APPROVAL, reason: 'test: the operator signs its own client certificates' }] } : {}),
    });
    try {
      app.synth();
      return [];
    } catch (e) {
      return (e as Error).message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.length > 0);
    }
  }

  test('not accepted: InstallerSensitiveGrant CSR_APPROVAL (OLMT-003)', () => {
    const errors = synth(false);
    expect(errors.filter((e) => e.includes('SensitiveGrant.CSR_APPROVAL'))).toHaveLength(1);
    expect(errors.filter((e) => e.includes('SensitiveGrant.CSR_APPROVAL'))[0]).toMatch(/\(InstallerSensitiveGrant, OLMT-003\)$/);
  });

  test('accepted by name with a reason: the audit names the installer as unbounded through the CSR path (OLMT-026)', () => {
    const errors = synth(true);
    expect(errors.map((e) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(e)![1])).toEqual([ReachCode.TENANT_IDENTITY_UNBOUNDED]);
    expect(errors[0]).toContain('approve signers kubernetes.io/kube-apiserver-client (ClusterRole team-a-olm-installer): kube-controller-manager signs a client certificate for any user or group but system:masters -> * -> ClusterRole cluster-admin (any identity can be cluster-admin)');
  });
});

/**
 * The rows of docs/escalation-paths.md (Kubernetes RBAC paths) as a matrix: each rule that becomes the ServiceAccount
 * `team-b/victim` (bound cluster-admin, with a token Secret and a Deployment), reached (a) through a ClusterRoleBinding,
 * (b) through an aggregated ClusterRole that selects the role holding the rule by label, (c) through a RoleBinding of
 * that ClusterRole in the victim's namespace, and never (d) through a RoleBinding in another namespace.
 */
describe('variants of every identity path: direct, through aggregation, a ClusterRole bound by a RoleBinding, another namespace', () => {
  const VICTIM = 'ServiceAccount team-b/victim';
  const world = (rules: any[], bind: 'crb' | 'aggregated' | 'rb-victim-ns' | 'rb-other-ns') => new EffectivePower([
    { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'victim', namespace: 'team-b' } } },
    { manifest: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'victim-token', namespace: 'team-b', annotations: { 'kubernetes.io/service-account.name': 'victim' } } } },
    { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'app', namespace: 'team-b' }, spec: { template: { spec: { serviceAccountName: 'victim' } } } } },
    { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other', namespace: 'team-c' } } },
    crb('victim', 'cluster-admin', [saSubject('team-b', 'victim')]),
    clusterRole('path', rules, bind === 'aggregated' ? { labels: { 'example.com/path': 'true' } } : {}),
    ...(bind === 'crb' ? [crb('path', 'path', [OP_SUBJECT])] : []),
    ...(bind === 'aggregated' ? [clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/path': 'true' } }] } }), crb('agg', 'agg', [OP_SUBJECT])] : []),
    ...(bind === 'rb-victim-ns' ? [rb('team-b', 'path', 'ClusterRole', 'path', [OP_SUBJECT])] : []),
    ...(bind === 'rb-other-ns' ? [rb('team-c', 'path', 'ClusterRole', 'path', [OP_SUBJECT])] : []),
  ]).of(OP);
  const reaches = (p: ReturnType<typeof world>) => p.identities.some((i) => i.identity === VICTIM) && p.unbounded;

  // [row, rule, namespaced: true when a RoleBinding in the victim's namespace reaches it too]
  const ROWS: Array<[string, any, boolean]> = [
    ['Secrets: get the token Secret by name', { apiGroups: [''], resources: ['secrets'], resourceNames: ['victim-token'], verbs: ['get'] }, true],
    ['Secrets: list', { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }, true],
    ['Secrets: watch', { apiGroups: [''], resources: ['secrets'], verbs: ['watch'] }, true],
    ['Secrets: * on the core group', { apiGroups: [''], resources: ['*'], verbs: ['*'] }, true],
    ['workloads: create pods', { apiGroups: [''], resources: ['pods'], verbs: ['create'] }, true],
    ['workloads: create deployments', { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }, true],
    ['workloads: create cronjobs', { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['create'] }, true],
    ['workloads: patch the Deployment that runs as it', { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['app'], verbs: ['patch'] }, true],
    ['workloads: * on apps *', { apiGroups: ['apps'], resources: ['*'], verbs: ['*'] }, true],
    ['exec into its pods (pods/exec create)', { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }, true],
    ['exec through */exec', { apiGroups: [''], resources: ['*/exec'], verbs: ['get'] }, true],
    ['ephemeral containers (patch)', { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }, true],
    ['another image in its pods (update pods)', { apiGroups: [''], resources: ['pods'], verbs: ['update'] }, true],
    ['another image in its pods (patch through * on the core group\'s pods)', { apiGroups: [''], resources: ['pods'], verbs: ['*'] }, true],
    ['token request by name', { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['victim'], verbs: ['create'] }, true],
    ['impersonate the ServiceAccount by name', { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['victim'], verbs: ['impersonate'] }, true],
    ['impersonate its user name', { apiGroups: [''], resources: ['users'], resourceNames: ['system:serviceaccount:team-b:victim'], verbs: ['impersonate'] }, false],
    ['impersonate any group', { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'] }, false],
    ['nodes/proxy get (kubelet exec)', { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }, false],
    ['nodes/proxy * (any verb)', { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['*'] }, false],
  ];

  test.each(ROWS)('%s', (_row, rule, namespaced) => {
    const crbPower = world([rule], 'crb');
    // impersonating any group is any identity: unbounded, without naming the victim
    const any = (p: ReturnType<typeof world>) => p.identities.some((i) => i.identity === '*');
    const got = (p: ReturnType<typeof world>) => reaches(p) || any(p);
    expect([got(crbPower), got(world([rule], 'aggregated')), got(world([rule], 'rb-victim-ns')), got(world([rule], 'rb-other-ns'))])
      .toEqual([true, true, namespaced, false]);
  });

  test('escalate and bind rows reach everything directly, through aggregation and, in the namespace, through a RoleBinding', () => {
    const bindAny = [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] }, { apiGroups: [RBAC], resources: ['clusterrolebindings', 'rolebindings'], verbs: ['create'] }];
    const escalate = [{ apiGroups: [RBAC], resources: ['clusterroles', 'roles'], verbs: ['escalate', 'create'] }];
    for (const rules of [bindAny, escalate]) {
      expect([world(rules, 'crb').unbounded, world(rules, 'aggregated').unbounded]).toEqual([true, true]);
      const inNs = world(rules, 'rb-other-ns');
      expect([inNs.unbounded, inNs.grants.some((g) => g.namespace === 'team-c' && EffectivePower.allows(g.rules, { verb: 'delete', apiGroup: 'apps', resource: 'deployments' }))]).toEqual([false, true]);
    }
  });
});

describe('persistent volumes: a sensitive grant of cluster-scoped rules, not an identity change', () => {
  const held = (rules: any[], clusterScoped: boolean) => InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped }).map((g) => g.grant)
    .filter((g) => g === SensitiveGrant.PERSISTENT_VOLUME_CREATE);
  test.each([
    ['create', { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['create'] }],
    ['* verbs', { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['*'] }],
    ['* resources of the core group', { apiGroups: [''], resources: ['*'], verbs: ['create'] }],
    ['* groups', { apiGroups: ['*'], resources: ['persistentvolumes'], verbs: ['create'] }],
  ])('%s: PERSISTENT_VOLUME_CREATE in cluster-scoped rules; not probed in a namespaced Role (the kind is cluster-scoped)', (_name, rule) => {
    expect([held([rule], true), held([rule], false)]).toEqual([[SensitiveGrant.PERSISTENT_VOLUME_CREATE], []]);
  });
  test('update or patch of an existing volume, or create by name (create has no name): not the grant', () => {
    expect(held([{ apiGroups: [''], resources: ['persistentvolumes'], verbs: ['update', 'patch'] }], true)).toEqual([]);
    expect(held([{ apiGroups: [''], resources: ['persistentvolumes'], resourceNames: ['pv'], verbs: ['create'] }], true)).toEqual([]);
  });
});

describe('v0: a bundle shipping a {}-aggregated ClusterRole bound to its operator', () => {
  test('refused twice: the derived installer needs escalate on it by name (OLMT-003) and the operator is unbounded (OLMT-026)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agg-bundle-'));
    let bundle: OperatorBundle;
    try {
      fs.cpSync(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'), dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'manifests', 'agg.yaml'), `apiVersion: ${RBAC}/v1\nkind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{}]}\n`);
      fs.writeFileSync(path.join(dir, 'manifests', 'agg-binding.yaml'), `apiVersion: ${RBAC}/v1\nkind: ClusterRoleBinding\nmetadata: {name: agg}\n`
        + `roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: agg}\nsubjects: [{kind: ServiceAccount, name: etcd-operator, namespace: team-a}]\n`);
      bundle = OperatorBundle.fromDirectory(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'test' })
      .subscribe({ packageName: 'etcd', catalog: CATALOG, bundle });
    let errors: string[] = [];
    try {
      app.synth();
    } catch (e) {
      errors = (e as Error).message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.length > 0);
    }
    expect(errors.map((e) => /\((\w+, OLMT-\d+)\)$/.exec(e)![1])).toEqual(['InstallerSensitiveGrant, OLMT-003', 'TenantIdentityUnbounded, OLMT-026']);
    expect(errors[0]).toContain('\\"resourceNames\\":[\\"agg\\"],\\"verbs\\":[\\"escalate\\",\\"get\\",\\"patch\\"]');
    expect(errors[1]).toContain('ServiceAccount team-a/etcd-operator reaches cluster-wide (is bound to the aggregated ClusterRole agg)');
  });
});

test('EffectivePower reads hostile RBAC objects (custom resources of kind Role, objects not checked by a loader) without a TypeError: what does not decode grants nothing', () => {
  const p = new EffectivePower([
    { manifest: { apiVersion: 'demo.example.com/v1', kind: 'Role', metadata: { name: 'r', namespace: 'team-a' }, rules: { replicas: 3 } } },
    { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'c' }, rules: [null, { verbs: 'get' }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], aggregationRule: { clusterRoleSelectors: 'x' } } },
    { manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'team-a' }, roleRef: 'x', subjects: [null, OP_SUBJECT] } },
    { manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'b2', namespace: 'team-a' }, roleRef: { kind: 'Role', name: { x: 1 } }, subjects: [OP_SUBJECT] } },
    crb('c', 'c', [OP_SUBJECT]),
  ]);
  const power = p.of(OP);
  expect(power.grants.filter((g) => g.namespace === '').map((g) => g.rules)).toEqual([[{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]]);
});
