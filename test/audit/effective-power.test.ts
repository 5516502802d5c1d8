import fc from 'fast-check';
// the modules themselves, not the package root: every mutant of the mutation-testing target loads this file again
import { EffectivePower, PowerObject, RbacSubject, RoleOrigin, SubjectKind } from '../../src/audit/effective-power';
import { PolicyRule } from '../../src/rbac/policy-rule';
import { RbacRules } from '../../src/rbac/rbac-rules';

const RBAC = 'rbac.authorization.k8s.io';
const sa = (namespace: string, name: string): RbacSubject => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace });
const role = (namespace: string, name: string, rules: PolicyRule[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules: rules.map(toJson) },
});
const clusterRole = (name: string, rules: PolicyRule[], extra: any = {}): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}) }, rules: rules.map(toJson), ...(extra.aggregationRule ? { aggregationRule: extra.aggregationRule } : {}) },
});
const roleBinding = (namespace: string, name: string, roleKind: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects },
});
const clusterRoleBinding = (name: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects },
});
const saSubject = (namespace: string, name: string) => ({ kind: 'ServiceAccount', name, namespace });
const tokenSecret = (namespace: string, name: string, account: string): PowerObject => ({
  manifest: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name, namespace, annotations: { 'kubernetes.io/service-account.name': account } } },
});
const serviceAccount = (namespace: string, name: string): PowerObject => ({ manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } } });
const deployment = (namespace: string, name: string, account: string): PowerObject => ({
  manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace }, spec: { template: { spec: { serviceAccountName: account } } } },
});

function toJson(r: PolicyRule): any {
  const out: any = { verbs: r.verbs };
  if (r.apiGroups) out.apiGroups = r.apiGroups;
  if (r.resources) out.resources = r.resources;
  if (r.resourceNames) out.resourceNames = r.resourceNames;
  if (r.nonResourceUrls) out.nonResourceURLs = r.nonResourceUrls;
  return out;
}

/** A world: the installer `a/installer` holds cluster rules; `a/op` holds `rules` in namespace a. */
function world(rules: PolicyRule[], more: PowerObject[] = []): EffectivePower {
  return new EffectivePower([
    serviceAccount('a', 'installer'),
    tokenSecret('a', 'installer-token', 'installer'),
    clusterRole('installer-cluster', [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]),
    clusterRoleBinding('installer-cluster', 'installer-cluster', [saSubject('a', 'installer')]),
    role('a', 'op', rules),
    roleBinding('a', 'op', 'Role', 'op', [saSubject('a', 'op')]),
    ...more,
  ]);
}
const identities = (p: EffectivePower, s: RbacSubject) => p.of(s).identities.map((i) => i.identity);

describe('EffectivePower: identities a subject can become (fixpoint)', () => {
  test('get on the token Secret (by name), list or watch secrets: the Secret\'s ServiceAccount, with the path', () => {
    const p = world([{ apiGroups: [''], resources: ['secrets'], resourceNames: ['installer-token'], verbs: ['get'] }]);
    expect(p.of(sa('a', 'op')).identities).toEqual([
      { identity: 'ServiceAccount a/op', path: ['ServiceAccount a/op'] },
      {
        identity: 'ServiceAccount a/installer',
        path: ['ServiceAccount a/op', 'RoleBinding a/op (the App)', 'Role a/op (the App)', 'get secret a/installer-token (token of ServiceAccount a/installer)', 'ServiceAccount a/installer'],
      },
    ]);
    expect(identities(world([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]), sa('a', 'op'))).toEqual(['ServiceAccount a/op', 'ServiceAccount a/installer']);
    // get or list restricted to another Secret's name: nothing
    expect(identities(world([{ apiGroups: [''], resources: ['secrets'], resourceNames: ['other'], verbs: ['get', 'list'] }]), sa('a', 'op'))).toEqual(['ServiceAccount a/op']);
  });

  test('the installer\'s cluster grant is then reached, not direct', () => {
    const p = world([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
    const grants = p.of(sa('a', 'op')).grants.map((g) => [g.namespace, g.roleKind, g.roleName, g.holder, g.direct]);
    expect(grants).toEqual([
      ['a', 'Role', 'op', 'ServiceAccount a/op', true],
      ['', 'ClusterRole', 'installer-cluster', 'ServiceAccount a/installer', false],
    ]);
    expect(p.rulesIn(sa('a', 'op'), 'b')).toEqual([{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]);
  });

  test('serviceaccounts/token create (by name), impersonate serviceaccounts, creating pods or workloads: that ServiceAccount', () => {
    expect(identities(world([{ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['installer'], verbs: ['create'] }]), sa('a', 'op')))
      .toEqual(['ServiceAccount a/op', 'ServiceAccount a/installer']);
    expect(identities(world([{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]), sa('a', 'op')))
      .toEqual(['ServiceAccount a/op', 'ServiceAccount a/default', 'ServiceAccount a/installer']);
    const pods = world([{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['create'] }]);
    expect(pods.of(sa('a', 'op')).identities.map((i) => i.path.slice(-2))).toEqual([
      ['ServiceAccount a/op'],
      ['create jobs.batch in a running as ServiceAccount default', 'ServiceAccount a/default'],
      ['create jobs.batch in a running as ServiceAccount installer', 'ServiceAccount a/installer'],
    ]);
  });

  test('pods/exec (create, or get over websockets) into a pod running as another ServiceAccount', () => {
    const more = [deployment('a', 'runner', 'runner-sa')];
    for (const verb of ['create', 'get']) {
      const p = world([{ apiGroups: [''], resources: ['pods/exec'], verbs: [verb] }], more);
      expect(p.of(sa('a', 'op')).identities.map((i) => i.path.slice(-2))).toEqual([
        ['ServiceAccount a/op'],
        [`${verb} pods/exec into Deployment a/runner (runs as runner-sa)`, 'ServiceAccount a/runner-sa'],
      ]);
    }
  });

  test('chains to a fixpoint: op -> token of mid -> mid creates pods in b -> b/admin', () => {
    const p = new EffectivePower([
      tokenSecret('a', 'mid-token', 'mid'),
      role('a', 'op', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
      roleBinding('a', 'op', 'Role', 'op', [saSubject('a', 'op')]),
      role('b', 'mid', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]),
      roleBinding('b', 'mid', 'Role', 'mid', [saSubject('a', 'mid')]),
      serviceAccount('b', 'admin'),
      clusterRoleBinding('b-admin', 'cluster-admin', [saSubject('b', 'admin')]),
    ]);
    const power = p.of(sa('a', 'op'));
    expect(power.identities.map((i) => i.identity)).toEqual(['ServiceAccount a/op', 'ServiceAccount a/mid', 'ServiceAccount b/admin', 'ServiceAccount b/default']);
    expect(power.unbounded).toBe(true);
    expect(power.grants.find((g) => g.roleName === 'cluster-admin')!.path).toEqual([
      'ServiceAccount a/op', 'RoleBinding a/op (the App)', 'Role a/op (the App)', 'get secret a/mid-token (token of ServiceAccount a/mid)', 'ServiceAccount a/mid',
      'RoleBinding b/mid (the App)', 'Role b/mid (the App)', 'create pods in b running as ServiceAccount admin', 'ServiceAccount b/admin',
      'ClusterRoleBinding b-admin (the App)', 'ClusterRole cluster-admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)',
    ]);
  });

  test('impersonating any user or group is any identity: unbounded', () => {
    const p = new EffectivePower([
      clusterRole('imp', [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }]),
      clusterRoleBinding('imp', 'imp', [saSubject('a', 'op')]),
    ]);
    expect(p.of(sa('a', 'op')).unbounded).toBe(true);
    expect(identities(p, sa('a', 'op'))).toEqual(['ServiceAccount a/op', '*']);
  });

  test('ServiceAccounts hold the grants of system:serviceaccounts, system:serviceaccounts:<ns> and system:authenticated', () => {
    const p = new EffectivePower([
      clusterRole('r', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
      roleBinding('a', 'all-sa', 'ClusterRole', 'r', [{ kind: 'Group', name: 'system:serviceaccounts:a' }]),
      roleBinding('b', 'other-ns', 'ClusterRole', 'r', [{ kind: 'Group', name: 'system:serviceaccounts:b' }]),
    ]);
    expect(p.of(sa('a', 'op')).grants.map((g) => [g.namespace, g.roleName, g.direct])).toEqual([['a', 'r', true]]);
  });
});

describe('EffectivePower: roles a subject may bind, escalate, built-in and unknown roles', () => {
  test('bind on a named ClusterRole + create clusterrolebindings: its rules cluster-wide; without the create: nothing', () => {
    const bindRule = { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['secret-reader'], verbs: ['bind'] };
    const reader = clusterRole('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]);
    const withCreate = new EffectivePower([
      reader,
      clusterRole('binder', [bindRule, { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] }]),
      clusterRoleBinding('binder', 'binder', [saSubject('a', 'op')]),
    ]);
    const bound = withCreate.of(sa('a', 'op')).grants.find((g) => g.roleName === 'secret-reader')!;
    expect([bound.namespace, bound.roleOrigin, bound.direct, bound.path.slice(-2)]).toEqual(['', RoleOrigin.DEFINED, false, [
      'bind ClusterRole secret-reader with create clusterrolebindings (ClusterRole binder) cluster-wide', 'ClusterRole secret-reader (the App)',
    ]]);
    const without = new EffectivePower([reader, clusterRole('binder', [bindRule]), clusterRoleBinding('binder', 'binder', [saSubject('a', 'op')])]);
    expect(without.of(sa('a', 'op')).grants.map((g) => g.roleName)).toEqual(['binder']);
  });

  test('bind on any ClusterRole with create rolebindings in a namespace: everything in that namespace (cluster-admin bound there)', () => {
    const p = new EffectivePower([
      role('a', 'binder', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] }, { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['create'] }]),
      roleBinding('a', 'binder', 'Role', 'binder', [saSubject('a', 'op')]),
    ]);
    const g = p.of(sa('a', 'op')).grants.find((x) => x.roleName === 'cluster-admin')!;
    expect([g.namespace, g.roleOrigin, g.path.slice(-2)[0]]).toEqual(['a', RoleOrigin.BUILT_IN, 'bind any ClusterRole (e.g. cluster-admin) with create rolebindings (Role binder) in a']);
    expect(p.of(sa('a', 'op')).unbounded).toBe(false);
  });

  test('escalate + create on roles: any rules in the namespace; on clusterroles: unbounded', () => {
    const ns = new EffectivePower([
      role('a', 'esc', [{ apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate', 'create'] }]),
      roleBinding('a', 'esc', 'Role', 'esc', [saSubject('a', 'op')]),
    ]);
    expect(ns.of(sa('a', 'op')).grants.map((g) => [g.namespace, g.roleOrigin])).toEqual([['a', RoleOrigin.DEFINED], ['a', RoleOrigin.ESCALATE]]);
    const cluster = new EffectivePower([
      clusterRole('esc', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate', 'update'] }]),
      clusterRoleBinding('esc', 'esc', [saSubject('a', 'op')]),
    ]);
    expect(cluster.of(sa('a', 'op')).unbounded).toBe(true);
  });

  test('a binding to a role nobody defines is unbounded in its scope; built-in edit lets the subject read the token Secret', () => {
    const unknown = new EffectivePower([roleBinding('a', 'x', 'ClusterRole', 'made-up', [saSubject('a', 'op')])]);
    expect(unknown.of(sa('a', 'op')).grants.map((g) => [g.namespace, g.roleOrigin, g.rules])).toEqual([
      ['a', RoleOrigin.UNKNOWN, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]],
    ]);
    const edit = world([], [roleBinding('a', 'edit', 'ClusterRole', 'edit', [saSubject('a', 'op')])]);
    expect(identities(edit, sa('a', 'op'))).toContain('ServiceAccount a/installer');
    const benign = new EffectivePower([clusterRoleBinding('d', 'system:auth-delegator', [saSubject('a', 'op')])]);
    expect(benign.of(sa('a', 'op')).grants.map((g) => g.roleOrigin)).toEqual([RoleOrigin.BENIGN_BUILT_IN]);
  });

  test('aggregated ClusterRoles get the rules of the ClusterRoles their selectors match (OLM OperatorGroup roles)', () => {
    const p = new EffectivePower([
      clusterRole('og-admin', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'x/aggregate': 'true' } }] } }),
      clusterRole('api-admin', [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }], { labels: { 'x/aggregate': 'true' } }),
      clusterRole('unrelated', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], { labels: { 'x/aggregate': 'false' } }),
      roleBinding('a', 'og', 'ClusterRole', 'og-admin', [{ kind: 'Group', name: 'devs' }]),
    ]);
    expect(p.rulesIn({ kind: SubjectKind.GROUP, name: 'devs' }, 'a')).toEqual([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }]);
  });
});

// ---- properties --------------------------------------------------------------------------------------------------

const RULE_POOL: PolicyRule[] = [
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
  { apiGroups: [''], resources: ['secrets'], resourceNames: ['tok-x'], verbs: ['get'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
  { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
  { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['y'], verbs: ['create'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['create'] },
  { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
  { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['r1'], verbs: ['bind'] },
  { apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate', 'create'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['list'] },
];
const NAMESPACES = ['a', 'b'];
const ACCOUNTS = ['x', 'y', 'z'];
const ROLES = ['r0', 'r1', 'r2'];

interface World {
  readonly roleRules: PolicyRule[][]; // per role
  readonly bindings: Array<{ role: number; cluster: boolean; namespace: number; account: number; accountNamespace: number }>;
  readonly tokens: Array<{ namespace: number; account: number }>;
  readonly pods: Array<{ namespace: number; account: number }>;
}

const worldArb: fc.Arbitrary<World> = fc.record({
  roleRules: fc.array(fc.array(fc.constantFrom(...RULE_POOL), { maxLength: 4 }), { minLength: ROLES.length, maxLength: ROLES.length }),
  bindings: fc.array(fc.record({
    role: fc.nat(ROLES.length - 1), cluster: fc.boolean(), namespace: fc.nat(1), account: fc.nat(2), accountNamespace: fc.nat(1),
  }), { maxLength: 6 }),
  tokens: fc.array(fc.record({ namespace: fc.nat(1), account: fc.nat(2) }), { maxLength: 3 }),
  pods: fc.array(fc.record({ namespace: fc.nat(1), account: fc.nat(2) }), { maxLength: 2 }),
});

function objectsOf(w: World): PowerObject[] {
  const out: PowerObject[] = [];
  w.roleRules.forEach((rules, i) => out.push(clusterRole(ROLES[i], rules)));
  w.bindings.forEach((b, i) => {
    const subject = saSubject(NAMESPACES[b.accountNamespace], ACCOUNTS[b.account]);
    out.push(b.cluster ? clusterRoleBinding(`b${i}`, ROLES[b.role], [subject]) : roleBinding(NAMESPACES[b.namespace], `b${i}`, 'ClusterRole', ROLES[b.role], [subject]));
  });
  w.tokens.forEach((t) => out.push(tokenSecret(NAMESPACES[t.namespace], `tok-${ACCOUNTS[t.account]}`, ACCOUNTS[t.account])));
  w.pods.forEach((p, i) => out.push(deployment(NAMESPACES[p.namespace], `d${i}`, ACCOUNTS[p.account])));
  return out;
}

const SUBJECTS = NAMESPACES.flatMap((n) => ACCOUNTS.map((a) => sa(n, a)));
const SCOPES = ['', ...NAMESPACES];

describe('EffectivePower properties (fast-check, fixed seeds)', () => {
  test('monotone: adding a rule to a role never removes an identity or a permission', () => {
    fc.assert(fc.property(worldArb, fc.nat(ROLES.length - 1), fc.constantFrom(...RULE_POOL), (w, roleIndex, rule) => {
      const before = new EffectivePower(objectsOf(w));
      const grown: World = { ...w, roleRules: w.roleRules.map((rules, i) => (i === roleIndex ? [...rules, rule] : rules)) };
      const after = new EffectivePower(objectsOf(grown));
      for (const s of SUBJECTS) {
        const ids = new Set(identities(after, s));
        for (const id of identities(before, s)) expect(ids.has(id)).toBe(true);
        for (const scope of SCOPES) expect(RbacRules.covers(after.rulesIn(s, scope), before.rulesIn(s, scope)).missing).toEqual([]);
      }
    }), { seed: 8, numRuns: 150 });
  });

  test('idempotent: binding a subject directly to its closure changes nothing', () => {
    fc.assert(fc.property(worldArb, fc.nat(SUBJECTS.length - 1), (w, si) => {
      const s = SUBJECTS[si];
      const power = new EffectivePower(objectsOf(w));
      const closure = SCOPES.map((scope) => power.rulesIn(s, scope));
      const extra: PowerObject[] = [];
      SCOPES.forEach((scope, i) => {
        if (closure[i].length === 0) return;
        extra.push(clusterRole(`closure-${i}`, closure[i]));
        extra.push(scope === '' ? clusterRoleBinding(`closure-${i}`, `closure-${i}`, [saSubject(s.namespace!, s.name)])
          : roleBinding(scope, `closure-${i}`, 'ClusterRole', `closure-${i}`, [saSubject(s.namespace!, s.name)]));
      });
      const again = new EffectivePower([...objectsOf(w), ...extra]);
      SCOPES.forEach((scope, i) => {
        const rules = again.rulesIn(s, scope);
        expect(RbacRules.covers(rules, closure[i]).missing).toEqual([]);
        expect(RbacRules.covers(closure[i], rules).missing).toEqual([]);
      });
      expect(new Set(identities(again, s))).toEqual(new Set(identities(power, s)));
    }), { seed: 9, numRuns: 150 });
  });
});

test('EffectivePower.allows decides exactly like RbacRules.allows (fast-check)', () => {
  const pick = (values: string[]) => fc.array(fc.constantFrom(...values), { maxLength: 3 });
  const ruleArb = fc.record({
    verbs: pick(['get', 'create', '*', 'bind']),
    apiGroups: pick(['', 'apps', '*']),
    resources: pick(['pods', 'pods/exec', '*', '*/exec', 'secrets', 'serviceaccounts/token']),
    resourceNames: fc.option(pick(['a', '', 'b']), { nil: undefined }),
  });
  const requestArb = fc.record({
    verb: fc.constantFrom('get', 'create', 'bind', 'list'),
    apiGroup: fc.constantFrom('', 'apps'),
    resource: fc.constantFrom('pods', 'pods/exec', 'secrets', 'serviceaccounts/token', 'deployments'),
    name: fc.constantFrom('', 'a', 'b'),
  });
  fc.assert(fc.property(fc.array(ruleArb, { maxLength: 3 }), requestArb, (rules, request) => {
    expect(EffectivePower.allows(rules, request)).toBe(RbacRules.allows(rules, request));
  }), { seed: 10, numRuns: 2000 });
});
