/**
 * EffectivePower over generated worlds that reach the hard cases (issue 28: the old generator had only ClusterRoles
 * and 14 fixed rules, and never reached "unbounded" or a built-in role): Users, Groups and ServiceAccounts as subjects,
 * Roles and ClusterRoles bound by RoleBindings and ClusterRoleBindings, an aggregated ClusterRole, `resourceNames`,
 * built-in roles, impersonation and escalation. Each property counts its outcomes and asserts both happen and the
 * interesting branches are reached a minimum number of times (with any FC_SEED, test/util/fast-check-seed.ts).
 */
import fc from 'fast-check';
import { EffectivePower, PolicyRule, PowerObject, RbacRules, RbacSubject, RoleOrigin, SubjectKind } from '../../src';

const RBAC = 'rbac.authorization.k8s.io';
const NAMESPACES = ['a', 'b'];
const ACCOUNTS = ['x', 'y'];
const USERS = ['alice', 'bob'];
const GROUPS = ['devs', 'ops'];
const CUSTOM_CLUSTER_ROLES = ['c0', 'c1', 'c2'];
const BUILT_INS = ['cluster-admin', 'admin', 'edit', 'view', 'system:auth-delegator'];
/** ClusterRole `agg` has no rules of its own: it aggregates the custom ClusterRoles labelled `agg=true`. */
const AGGREGATED = 'agg';

const rule = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule =>
  ({ apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
const RULE_POOL: PolicyRule[] = [
  rule([''], ['configmaps'], ['get', 'list']),
  rule([''], ['secrets'], ['get'], ['tok-x']),
  rule([''], ['secrets'], ['get'], ['other']),
  rule([''], ['secrets'], ['list']),
  rule([''], ['pods'], ['create']),
  rule([''], ['pods/exec'], ['create']),
  rule(['apps'], ['deployments'], ['update'], ['d0']),
  rule([''], ['serviceaccounts/token'], ['create'], ['y']),
  rule([''], ['serviceaccounts'], ['impersonate'], ['x']),
  rule([''], ['users'], ['impersonate'], ['alice']),
  rule([''], ['groups'], ['impersonate']),
  rule([RBAC], ['rolebindings'], ['create']),
  rule([RBAC], ['clusterroles'], ['bind'], ['c1']),
  rule([RBAC], ['roles'], ['escalate', 'patch']),
  rule([RBAC], ['clusterroles'], ['escalate', 'create']),
  rule([''], ['nodes/proxy'], ['get']),
];

interface Binding {
  readonly cluster: boolean;
  readonly namespace: number;
  readonly roleKind: 'Role' | 'ClusterRole';
  readonly roleName: string;
  readonly subject: { kind: 'ServiceAccount' | 'User' | 'Group'; index: number; namespace: number };
}
interface World {
  readonly clusterRoleRules: PolicyRule[][];
  readonly aggregated: boolean[];
  readonly roleRules: PolicyRule[][]; // Role r0 in a, Role r0 in b
  readonly bindings: Binding[];
  readonly tokens: number[]; // token Secrets in a for ACCOUNTS[i]
  readonly deployment: { namespace: number; account: number } | null;
}

const rulesArb = fc.array(fc.constantFrom(...RULE_POOL), { maxLength: 3 });
const bindingArb: fc.Arbitrary<Binding> = fc.record({
  cluster: fc.boolean(),
  namespace: fc.nat(1),
  roleKind: fc.constantFrom<'Role' | 'ClusterRole'>('Role', 'ClusterRole', 'ClusterRole'),
  roleName: fc.constantFrom(...CUSTOM_CLUSTER_ROLES, AGGREGATED, ...BUILT_INS),
  subject: fc.record({ kind: fc.constantFrom<'ServiceAccount' | 'User' | 'Group'>('ServiceAccount', 'User', 'Group'), index: fc.nat(1), namespace: fc.nat(1) }),
}).map((b) => (b.roleKind === 'Role' ? { ...b, cluster: false, roleName: 'r0' } : b));
const worldArb: fc.Arbitrary<World> = fc.record({
  clusterRoleRules: fc.array(rulesArb, { minLength: 3, maxLength: 3 }),
  aggregated: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  roleRules: fc.array(rulesArb, { minLength: 2, maxLength: 2 }),
  bindings: fc.array(bindingArb, { minLength: 1, maxLength: 5 }),
  tokens: fc.uniqueArray(fc.nat(1), { maxLength: 2 }),
  deployment: fc.option(fc.record({ namespace: fc.nat(1), account: fc.nat(1) }), { nil: null }),
});

const json = (rules: PolicyRule[]) => rules.map((r) => ({ ...r }));
function objectsOf(w: World): PowerObject[] {
  const out: PowerObject[] = [];
  CUSTOM_CLUSTER_ROLES.forEach((name, i) => out.push({
    manifest: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name, ...(w.aggregated[i] ? { labels: { agg: 'true' } } : {}) },
      rules: json(w.clusterRoleRules[i]),
    },
  }));
  out.push({ manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: AGGREGATED }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] }, rules: [] } });
  NAMESPACES.forEach((ns, i) => out.push({ manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'r0', namespace: ns }, rules: json(w.roleRules[i]) } }));
  w.bindings.forEach((b, i) => {
    const s = b.subject;
    const subject = s.kind === 'ServiceAccount' ? { kind: s.kind, name: ACCOUNTS[s.index], namespace: NAMESPACES[s.namespace] }
      : { kind: s.kind, apiGroup: RBAC, name: (s.kind === 'User' ? USERS : GROUPS)[s.index] };
    const roleRef = { apiGroup: RBAC, kind: b.roleKind, name: b.roleName };
    out.push({
      manifest: b.cluster
        ? { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `b${i}` }, roleRef, subjects: [subject] }
        : { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: `b${i}`, namespace: NAMESPACES[b.namespace] }, roleRef, subjects: [subject] },
    });
  });
  for (const t of w.tokens) {
    out.push({
      manifest: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: `tok-${ACCOUNTS[t]}`, namespace: 'a', annotations: { 'kubernetes.io/service-account.name': ACCOUNTS[t] } },
      },
    });
  }
  if (w.deployment) {
    out.push({
      manifest: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd0', namespace: NAMESPACES[w.deployment.namespace] },
        spec: { template: { spec: { serviceAccountName: ACCOUNTS[w.deployment.account] } } },
      },
    });
  }
  return out;
}

const SUBJECTS: RbacSubject[] = [
  ...NAMESPACES.flatMap((namespace) => ACCOUNTS.map((name) => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace }))),
  ...USERS.map((name) => ({ kind: SubjectKind.USER, name })),
  ...GROUPS.map((name) => ({ kind: SubjectKind.GROUP, name })),
];
const SCOPES = ['', ...NAMESPACES];
const idsOf = (p: EffectivePower, s: RbacSubject) => p.of(s).identities.map((i) => i.identity);

describe('EffectivePower over worlds with Users, Groups, Roles, aggregation, resourceNames and built-in roles (counted outcomes)', () => {
  test('monotone: adding a rule to any role never removes an identity or a permission', () => {
    const count = { unbounded: 0, builtIn: 0, aggregation: 0, userOrGroupBecomesOther: 0, gained: 0, nothingGained: 0, escalate: 0 };
    fc.assert(fc.property(worldArb, fc.nat(4), fc.constantFrom(...RULE_POOL), (w, target, extra) => {
      const before = new EffectivePower(objectsOf(w));
      const grown: World = target < 3
        ? { ...w, clusterRoleRules: w.clusterRoleRules.map((r, i) => (i === target ? [...r, extra] : r)) }
        : { ...w, roleRules: w.roleRules.map((r, i) => (i === target - 3 ? [...r, extra] : r)) };
      const after = new EffectivePower(objectsOf(grown));
      let gainedHere = false;
      for (const s of SUBJECTS) {
        const ids = new Set(idsOf(after, s));
        for (const id of idsOf(before, s)) expect([s.name, id, ids.has(id)]).toEqual([s.name, id, true]);
        for (const scope of SCOPES) expect(RbacRules.covers(after.rulesIn(s, scope), before.rulesIn(s, scope)).missing).toEqual([]);
        const power = before.of(s);
        if (power.unbounded) count.unbounded++;
        if (power.grants.some((g) => g.roleOrigin === RoleOrigin.BUILT_IN)) count.builtIn++;
        if (power.grants.some((g) => g.roleOrigin === RoleOrigin.ESCALATE)) count.escalate++;
        if (power.grants.some((g) => g.roleName === AGGREGATED && g.rules.length > 0)) count.aggregation++;
        if (s.kind !== SubjectKind.SERVICE_ACCOUNT && power.identities.length > 1) count.userOrGroupBecomesOther++;
        if (power.identities.length > 1 || power.grants.some((g) => !g.direct)) gainedHere = true;
      }
      count[gainedHere ? 'gained' : 'nothingGained']++;
    }), { numRuns: 120 });
    // subject-level counts over 120 worlds x 8 subjects; world-level counts over 120 worlds
    expect(count.gained).toBeGreaterThanOrEqual(20);
    expect(count.nothingGained).toBeGreaterThanOrEqual(5);
    expect(count.unbounded).toBeGreaterThanOrEqual(10);
    expect(count.builtIn).toBeGreaterThanOrEqual(20);
    expect(count.escalate).toBeGreaterThanOrEqual(5);
    expect(count.aggregation).toBeGreaterThanOrEqual(5);
    expect(count.userOrGroupBecomesOther).toBeGreaterThanOrEqual(5);
  });

  test('a direct binding to cluster-admin, or impersonating any group cluster-wide, is unbounded; the closure never loses a direct grant', () => {
    const count = { unbounded: 0, bounded: 0 };
    fc.assert(fc.property(worldArb, (w) => {
      const power = new EffectivePower(objectsOf(w));
      for (const s of SUBJECTS) {
        const p = power.of(s);
        const clusterAdmin = w.bindings.some((b) => b.cluster && b.roleName === 'cluster-admin' && p.grants.some((g) => g.direct && g.roleName === 'cluster-admin'));
        if (clusterAdmin) expect(p.unbounded).toBe(true);
        const anyGroup = p.grants.some((g) => g.namespace === '' && EffectivePower.allows(g.rules, { verb: 'impersonate', resource: 'groups', name: 'someone' }));
        if (anyGroup) expect([s.name, p.unbounded]).toEqual([s.name, true]);
        count[p.unbounded ? 'unbounded' : 'bounded']++;
      }
    }), { numRuns: 120 });
    expect(count.unbounded).toBeGreaterThanOrEqual(10);
    expect(count.bounded).toBeGreaterThanOrEqual(100);
  });
});
