/**
 * The effective-power model's index (issue 28, mutation triage of `effective-power`, lines 1-582): how the objects are
 * read (Roles, ClusterRoles, bindings, ServiceAccounts, token Secrets, Pods and workloads), the clusterrole-aggregation
 * controller (`pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go`), how a binding's role is
 * resolved (defined, built-in, aggregated, unknown) and the closure's bookkeeping. Exact expectations on whole grants.
 */
// the modules themselves, not the package root: every mutant of the mutation-testing target loads this file again
import { BuiltinRoles, CLUSTER_ADMIN_RULES, NAMESPACE_ADMIN_RULES } from '../../src/audit/builtin-roles';
import { EffectivePower, PowerGrant, PowerObject, RbacSubject, RoleOrigin, SubjectKind } from '../../src/audit/effective-power';
import { PolicyRule } from '../../src/rbac/policy-rule';

const RBAC = 'rbac.authorization.k8s.io';
const TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';
const sa = (namespace: string, name: string): RbacSubject => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace });
const op = sa('a', 'op');
const opSubject = { kind: 'ServiceAccount', name: 'op', namespace: 'a' };
const rule = (verbs: string[], resources: string[], apiGroups = [''], resourceNames?: string[]): PolicyRule =>
  ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });
const json = (r: PolicyRule): any => ({
  verbs: r.verbs,
  ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
  ...(r.resources ? { resources: r.resources } : {}),
  ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
  ...(r.nonResourceUrls ? { nonResourceURLs: r.nonResourceUrls } : {}),
});
const role = (namespace: string, name: string, rules: PolicyRule[]): PowerObject =>
  ({ manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules: rules.map(json) } });
const clusterRole = (name: string, rules: PolicyRule[], labels?: Record<string, string>, selectors?: any[]): PowerObject => ({
  manifest: {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name, ...(labels ? { labels } : {}) },
    rules: rules.map(json),
    ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
  },
});
const roleBinding = (namespace: string, roleKind: string, roleName: string, name = `rb-${roleName}`): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects: [opSubject] },
});
const crb = (roleName: string, name = `crb-${roleName}`): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects: [opSubject] },
});
const ids = (p: EffectivePower, s: RbacSubject = op) => p.of(s).identities.map((i) => i.identity);
/** op holds `rules` cluster-wide through the ClusterRole `op-cluster`. */
const clusterWide = (rules: PolicyRule[]): PowerObject[] => [clusterRole('op-cluster', rules), crb('op-cluster')];
const grantOf = (p: EffectivePower, roleName: string, s: RbacSubject = op): PowerGrant | undefined =>
  p.of(s).grants.find((g) => g.roleName === roleName);
const opLabel = 'ServiceAccount a/op';

describe('EffectivePower static helpers and input checks', () => {
  test('isEverything: * on every resource of every group, not limited by resourceNames', () => {
    expect(EffectivePower.isEverything([rule(['*'], ['*'], ['*'])])).toBe(true);
    expect(EffectivePower.isEverything([rule(['*'], ['*'], ['*'], ['x'])])).toBe(false);
    expect(EffectivePower.isEverything([rule(['*'], ['pods'], ['*'])])).toBe(false);
  });

  test('every public method names itself in its input errors', () => {
    expect(() => EffectivePower.label({ kind: 'Robot', name: 'x' } as any)).toThrow(/EffectivePower\.label/);
    expect(() => EffectivePower.allows('x' as any, { verb: 'get', resource: 'pods' })).toThrow(/EffectivePower\.allows/);
    expect(() => EffectivePower.isEverything('x' as any)).toThrow(/EffectivePower\.isEverything/);
    const p = new EffectivePower([]);
    expect(() => p.of({ kind: 'Robot', name: 'x' } as any)).toThrow(/EffectivePower\.of/);
    expect(() => p.rulesIn({ kind: 'Robot', name: 'x' } as any, 'a')).toThrow(/EffectivePower\.rulesIn/);
    expect(() => new EffectivePower('x' as any)).toThrow(/EffectivePower[\s\S]*objects/);
  });

  test('the constructor names the field objects in its input error', () => {
    expect(() => new EffectivePower('x' as any)).toThrow(new Error('EffectivePower: objects="x": objects must be a list, got the string "x". '
      + 'Fix: pass the RBAC objects as a list of { manifest, origin? } ([] for none) (InvalidInputType)'));
  });

  test('of is cached: the same closure object for the same subject', () => {
    const p = new EffectivePower(clusterWide([rule(['get'], ['pods'])]));
    expect(p.of(op)).toBe(p.of(op));
  });
});

describe('reading the objects', () => {
  test('manifests that are not objects with a kind are skipped, without a TypeError', () => {
    const p = new EffectivePower([{ manifest: null }, { manifest: 'Role' }, { manifest: { metadata: { name: 'x', namespace: 'a' } } }, ...clusterWide([rule(['get'], ['pods'])])]);
    expect(p.of(op).grants.map((g) => g.roleName)).toEqual(['op-cluster']);
  });

  test('a ClusterRole is cluster-scoped: a metadata.namespace on it is ignored (the API server drops it)', () => {
    const cr = clusterRole('reader', [rule(['get'], ['pods'])]);
    cr.manifest.metadata.namespace = 'x';
    const p = new EffectivePower([cr, crb('reader')]);
    expect(grantOf(p, 'reader')).toEqual({
      namespace: '',
      rules: [rule(['get'], ['pods'])],
      roleKind: 'ClusterRole',
      roleName: 'reader',
      roleOrigin: RoleOrigin.DEFINED,
      holder: opLabel,
      path: [opLabel, 'ClusterRoleBinding crb-reader (the App)', 'ClusterRole reader (the App)'],
      direct: true,
    });
  });

  test('a ClusterRoleBinding is cluster-wide even with a metadata.namespace', () => {
    const b = crb('reader');
    b.manifest.metadata.namespace = 'x';
    const p = new EffectivePower([clusterRole('reader', [rule(['get'], ['pods'])]), b]);
    expect(grantOf(p, 'reader')!.namespace).toEqual('');
    expect(grantOf(p, 'reader')!.path[1]).toEqual('ClusterRoleBinding crb-reader (the App)');
  });

  test('rules that are not a list grant nothing; a rule that does not decode is dropped', () => {
    const bad = clusterRole('bad', []);
    bad.manifest.rules = { verbs: ['*'] };
    const half = clusterRole('half', [rule(['get'], ['pods'])]);
    half.manifest.rules.push('*');
    const p = new EffectivePower([bad, half, crb('bad'), crb('half')]);
    expect(grantOf(p, 'bad')!.rules).toEqual([]);
    expect(grantOf(p, 'half')!.rules).toEqual([rule(['get'], ['pods'])]);
  });

  test('the same ClusterRole written twice is one object: the union of its rules, each once, and of its selectors', () => {
    const p = new EffectivePower([
      clusterRole('shared', [rule(['get'], ['pods'])]),
      clusterRole('shared', [rule(['get'], ['pods']), rule(['list'], ['pods'])]),
      clusterRole('shared', [rule(['get'], ['pods'])], undefined, [{ matchLabels: { pick: 'me' } }]),
      clusterRole('picked', [rule(['get'], ['nodes'])], { pick: 'me' }),
      crb('shared'),
    ]);
    expect(grantOf(p, 'shared')!.rules).toEqual([rule(['get'], ['pods']), rule(['list'], ['pods']), rule(['get'], ['nodes'])]);
  });

  test('the same ClusterRole written twice with the same rules keeps each rule once', () => {
    const p = new EffectivePower([clusterRole('shared', [rule(['get'], ['pods'])]), clusterRole('shared', [rule(['get'], ['pods'])]), crb('shared')]);
    expect(grantOf(p, 'shared')!.rules).toEqual([rule(['get'], ['pods'])]);
  });

  test('a roleRef without string kind or name refers to no role: counted as unbounded, kind and name empty', () => {
    const b = crb('x');
    b.manifest.roleRef = { kind: 5, name: null };
    const p = new EffectivePower([b]);
    expect(p.of(op).grants[0]).toEqual({
      namespace: '',
      rules: CLUSTER_ADMIN_RULES,
      roleKind: '',
      roleName: '',
      roleOrigin: RoleOrigin.UNKNOWN,
      holder: opLabel,
      path: [opLabel, 'ClusterRoleBinding crb-x (the App)', '  (defined nowhere in the App: counted as unbounded)'],
      direct: true,
    });
  });

  test('subjects that are not a list, null, or without a string kind or name bind nobody', () => {
    const notList = crb('cluster-admin', 'a');
    notList.manifest.subjects = 'ServiceAccount a/op';
    const junk = crb('cluster-admin', 'b');
    junk.manifest.subjects = [null, { name: 'op', namespace: 'a' }, { kind: 'ServiceAccount', namespace: 'a' }, { kind: 'Group', name: 5 }];
    const p = new EffectivePower([notList, junk, ...clusterWide([rule(['create'], ['serviceaccounts/token'])])]);
    expect(p.of(op).grants.map((g) => g.roleName)).toEqual(['op-cluster']);
    // no ServiceAccount a/undefined was made up from the subject without a name
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount a/default']);
  });

  test("a subject's namespace that is not a string is read as absent: the RoleBinding's (the safe side; the API server refuses it)", () => {
    const b = roleBinding('a', 'ClusterRole', 'reader');
    b.manifest.subjects = [{ kind: 'ServiceAccount', name: 'op', namespace: 42 }];
    const p = new EffectivePower([clusterRole('reader', [rule(['get'], ['pods'])]), b]);
    expect(p.of(op).grants).toEqual([{
      namespace: 'a',
      rules: [rule(['get'], ['pods'])],
      roleKind: 'ClusterRole',
      roleName: 'reader',
      roleOrigin: RoleOrigin.DEFINED,
      holder: opLabel,
      path: [opLabel, 'RoleBinding a/rb-reader (the App)', 'ClusterRole reader (the App)'],
      direct: true,
    }]);
  });

  test('a ServiceAccount named by a binding subject exists for the closure (a TokenRequest for it is a way in)', () => {
    const p = new EffectivePower([
      { manifest: { kind: 'ClusterRoleBinding', metadata: { name: 'other' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'bound', namespace: 'b' }] } },
      ...clusterWide([rule(['create'], ['serviceaccounts/token'])]),
    ]);
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount a/default', 'ServiceAccount b/bound', 'ServiceAccount b/default']);
  });

  test('a ServiceAccount object exists for the closure; one without a name or a namespace is no ServiceAccount', () => {
    const p = new EffectivePower([
      { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'lone', namespace: 'c' } } },
      { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'd' } } },
      { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'nowhere' } } },
      ...clusterWide([rule(['create'], ['serviceaccounts/token'])]),
    ]);
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount a/default', 'ServiceAccount c/default', 'ServiceAccount c/lone']);
  });

  test('token Secrets: only of type service-account-token with the ServiceAccount annotation, every one of a namespace', () => {
    const secret = (name: string, type: string, annotations?: Record<string, string>): PowerObject =>
      ({ manifest: { apiVersion: 'v1', kind: 'Secret', type, metadata: { name, namespace: 'c', ...(annotations ? { annotations } : {}) } } });
    const TOKEN = 'kubernetes.io/service-account-token';
    const p = new EffectivePower([
      secret('plain', 'Opaque', { 'kubernetes.io/service-account.name': 'plain-sa' }),
      secret('bare', TOKEN),
      secret('first', TOKEN, { 'kubernetes.io/service-account.name': 'one' }),
      secret('second', TOKEN, { 'kubernetes.io/service-account.name': 'two' }),
      ...clusterWide([rule(['get'], ['secrets'], [''], ['first', 'second', 'plain', 'bare'])]),
    ]);
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount c/one', 'ServiceAccount c/two']);
  });

  test('workloads run as their pod template ServiceAccount (the deprecated alias serviceAccount, else default), other kinds run nothing', () => {
    const m = (kind: string, name: string, spec: any): PowerObject => ({ manifest: { kind, metadata: { name, namespace: 'c' }, ...(spec === undefined ? {} : { spec }) } });
    const p = new EffectivePower([
      m('Pod', 'bare-pod', undefined),
      m('Pod', 'old-pod', { serviceAccount: 'legacy' }),
      m('Deployment', 'no-template', {}),
      m('StatefulSet', 'no-spec', undefined),
      m('CronJob', 'cron-empty', {}),
      m('CronJob', 'cron-no-template', { jobTemplate: { spec: {} } }),
      m('CronJob', 'cron-no-spec', undefined),
      m('CronJob', 'cron-no-job-spec', { jobTemplate: {} }),
      m('CronJob', 'cron', { jobTemplate: { spec: { template: { spec: { serviceAccountName: 'cron-sa' } } } } }),
      m('ConfigMap', 'cm', { template: { spec: { serviceAccountName: 'not-a-pod' } } }),
      ...clusterWide([rule(['create'], ['pods/exec'])]),
    ]);
    expect(p.of(op).identities.map((i) => i.path[i.path.length - 2])).toEqual([
      undefined,
      'create pods/exec into Pod c/bare-pod (runs as default)',
      'create pods/exec into Pod c/old-pod (runs as legacy)',
      'create pods/exec into CronJob c/cron (runs as cron-sa)',
    ]);
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount c/default', 'ServiceAccount c/legacy', 'ServiceAccount c/cron-sa']);
  });

  test("pods/exec limited by resourceNames reaches a bare Pod of that name, never a workload's pods (generated names)", () => {
    const p = new EffectivePower([
      { manifest: { kind: 'Deployment', metadata: { name: 'runner', namespace: 'c' }, spec: { template: { spec: { serviceAccountName: 'runner-sa' } } } } },
      { manifest: { kind: 'Pod', metadata: { name: 'solo', namespace: 'c' }, spec: { serviceAccountName: 'solo-sa' } } },
      ...clusterWide([rule(['create'], ['pods/exec'], [''], ['runner', 'solo'])]),
    ]);
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount c/solo-sa']);
  });
});

describe('the namespaces the model knows: where cluster-wide grants reach', () => {
  // op may create RoleBindings anywhere and bind any Role: a namespace admin in every namespace the input names
  // (`expand` probes `bind` per namespace: a namespace the model does not know is no scope)
  const bindAnyRole = clusterWide([rule(['create'], ['rolebindings'], [RBAC]), rule(['bind'], ['roles'], [RBAC])]);
  const bindAnyRoleIn = (ns: string): PowerGrant => ({
    namespace: ns,
    rules: NAMESPACE_ADMIN_RULES,
    roleKind: 'Role',
    roleName: 'cluster-admin',
    roleOrigin: RoleOrigin.UNKNOWN,
    holder: opLabel,
    path: [opLabel, 'ClusterRoleBinding crb-op-cluster (the App)', 'ClusterRole op-cluster (the App)',
      `bind any Role (e.g. cluster-admin) with create rolebindings (ClusterRole op-cluster) in ${ns}`,
      `Role ${ns}/cluster-admin (defined nowhere in the App: counted as unbounded)`],
    direct: false,
  });

  test('a Role, or a RoleBinding of a User, names its namespace: bind reaches there (a missed namespace is a missed escalation)', () => {
    const userBinding: PowerObject = { manifest: { kind: 'RoleBinding', metadata: { name: 'bob', namespace: 'y' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'bob' }] } };
    const p = new EffectivePower([role('z', 'secrets', [rule(['get'], ['secrets'])]), userBinding, ...bindAnyRole]);
    expect(p.of(op).grants.slice(1)).toEqual([bindAnyRoleIn('a'), bindAnyRoleIn('y'), bindAnyRoleIn('z')]);
  });

  test('objects without a kind name no namespace; an object without a namespace runs in none (no ServiceAccount /default)', () => {
    const p = new EffectivePower([
      { manifest: { metadata: { name: 'x', namespace: 'k' } } },
      { manifest: { kind: 5, metadata: { name: 'x', namespace: 'n' } } },
      // the App writes every namespaced object with its namespace; the model makes up none for one without
      { manifest: { kind: 'Pod', metadata: { name: 'lost' }, spec: { serviceAccountName: 'runner' } } },
      ...clusterWide([rule(['create'], ['rolebindings'], [RBAC]), rule(['bind'], ['roles'], [RBAC]), rule(['create'], ['pods/exec'])]),
    ]);
    expect(p.of(op).grants.map((g) => g.namespace)).toEqual(['', 'a']);
    // a/default through the namespace admin of a (create pods); no ServiceAccount /runner
    expect(ids(p)).toEqual([opLabel, 'ServiceAccount a/default']);
  });
});

describe('clusterrole aggregation (pkg/controller/clusterroleaggregation)', () => {
  const own = rule(['get'], ['own']);
  test('a role labelled aggregate-to-view joins view, edit and admin; its rules reach a binding of admin', () => {
    const p = new EffectivePower([clusterRole('extra', [rule(['get'], ['widgets'], ['example.com'])], { [TO_VIEW]: 'true' }), roleBinding('a', 'ClusterRole', 'admin')]);
    const g = grantOf(p, 'admin')!;
    expect(g.rules).toContainEqual(rule(['get'], ['widgets'], ['example.com']));
    expect(g.roleOrigin).toEqual(RoleOrigin.BUILT_IN);
  });

  test('a Role labelled aggregate-to-view joins nothing (only ClusterRoles aggregate)', () => {
    const p = new EffectivePower([role('a', 'extra', [rule(['get'], ['widgets'], ['example.com'])]), roleBinding('a', 'ClusterRole', 'view')]);
    const labelled = role('a', 'extra', [rule(['get'], ['widgets'], ['example.com'])]);
    labelled.manifest.metadata.labels = { [TO_VIEW]: 'true' };
    const q = new EffectivePower([labelled, roleBinding('a', 'ClusterRole', 'view')]);
    expect(grantOf(q, 'view')!.rules).toEqual(grantOf(p, 'view')!.rules);
    expect(grantOf(q, 'view')!.rules).not.toContainEqual(rule(['get'], ['widgets'], ['example.com']));
  });

  test('an input ClusterRole named like a built-in one adds its rules and labels to it (bootstrap roles are reconciled)', () => {
    const p = new EffectivePower([
      clusterRole('view', [rule(['get'], ['extra'], ['example.com'])], { 'example.com/pick': 'true' }),
      clusterRole('picker', [], undefined, [{ matchLabels: { 'example.com/pick': 'true' } }]),
      crb('view'), crb('picker'),
    ]);
    expect(grantOf(p, 'view')!.rules).toContainEqual(rule(['get'], ['extra'], ['example.com']));
    expect(grantOf(p, 'picker')!.rules).toEqual(grantOf(p, 'view')!.rules);
    expect(grantOf(p, 'picker')!.path[2]).toEqual('ClusterRole picker (the App; aggregationRule {example.com/pick=true} aggregates view (built-in))');
  });

  test('a selector that matches only some candidates aggregates only those, never the role itself; Exists before In', () => {
    const p = new EffectivePower([
      clusterRole('agg', [own], { tier: 'x' }, [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }, { key: 'team', operator: 'In', values: ['a', 'nobody'] }] }]),
      clusterRole('yes', [rule(['get'], ['yes'])], { tier: 'x', team: 'a' }),
      clusterRole('no-tier', [rule(['get'], ['no-tier'])], { team: 'a' }),
      clusterRole('other-team', [rule(['get'], ['other-team'])], { tier: 'x', team: 'b' }),
      crb('agg'),
    ]);
    expect(grantOf(p, 'agg')).toEqual({
      namespace: '',
      rules: [own, rule(['get'], ['yes'])],
      roleKind: 'ClusterRole',
      roleName: 'agg',
      roleOrigin: RoleOrigin.DEFINED,
      holder: opLabel,
      path: [opLabel, 'ClusterRoleBinding crb-agg (the App)', 'ClusterRole agg (the App; aggregationRule {tier, team in (a,nobody)} aggregates yes)'],
      direct: true,
    });
  });

  test('a selector matching its own role lists the others only; a selector with no In requirement scans every ClusterRole', () => {
    const p = new EffectivePower([
      clusterRole('self', [own], { k: 'v' }, [{ matchExpressions: [{ key: 'k', operator: 'Exists' }] }]),
      clusterRole('mate', [rule(['get'], ['mate'])], { k: 'w' }),
      crb('self'),
    ]);
    expect(grantOf(p, 'self')!.rules).toEqual([own, rule(['get'], ['mate'])]);
    expect(grantOf(p, 'self')!.path[2]).toEqual('ClusterRole self (the App; aggregationRule {k} aggregates mate)');
  });

  test('members in name order (rules and note), own rules kept first, a rule it already holds not repeated', () => {
    const p = new EffectivePower([
      clusterRole('agg', [own], undefined, [{ matchLabels: { m: 'y' } }]),
      clusterRole('c', [rule(['get'], ['c']), own], { m: 'y' }),
      clusterRole('a', [rule(['get'], ['a'])], { m: 'y' }),
      clusterRole('b', [rule(['get'], ['b'])], { m: 'y' }),
      crb('agg'),
    ]);
    expect(grantOf(p, 'agg')!.rules).toEqual([own, rule(['get'], ['a']), rule(['get'], ['b']), rule(['get'], ['c'])]);
    expect(grantOf(p, 'agg')!.path[2]).toEqual('ClusterRole agg (the App; aggregationRule {m=y} aggregates a, b, c)');
  });

  test('more than five members: the first five named and the count of the others; exactly five: all named', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => clusterRole(`m${i}`, [rule(['get'], [`r${i}`])], { m: String(n) }));
    const p = new EffectivePower([
      clusterRole('seven', [], undefined, [{ matchLabels: { m: '7' } }]), ...members(7),
      clusterRole('five', [], undefined, [{ matchLabels: { m: '5' } }, { matchLabels: { none: 'x' } }]),
      ...Array.from({ length: 5 }, (_, i) => clusterRole(`f${i}`, [], { m: '5' })),
      crb('seven'), crb('five'),
    ]);
    expect(grantOf(p, 'seven')!.path[2]).toEqual('ClusterRole seven (the App; aggregationRule {m=7} aggregates m0, m1, m2, m3, m4 and 2 more)');
    expect(grantOf(p, 'five')!.path[2]).toEqual('ClusterRole five (the App; aggregationRule {m=5} or {none=x} aggregates f0, f1, f2, f3, f4)');
  });

  test('aggregation runs to a fixpoint: a chain declared top first still reaches the bottom rules', () => {
    const p = new EffectivePower([
      clusterRole('top', [], undefined, [{ matchLabels: { level: 'mid' } }]),
      clusterRole('mid', [rule(['get'], ['mid'])], { level: 'mid' }, [{ matchLabels: { level: 'bottom' } }]),
      clusterRole('bottom', [rule(['get'], ['bottom'])], { level: 'bottom' }),
      crb('top'),
    ]);
    expect(grantOf(p, 'top')!.rules).toEqual([rule(['get'], ['mid']), rule(['get'], ['bottom'])]);
    expect(grantOf(p, 'top')!.roleOrigin).toEqual(RoleOrigin.DEFINED);
  });

  test('a role that pulls in a built-in role, directly or through another input role, is AGGREGATED; one that pulls input roles only is DEFINED', () => {
    const p = new EffectivePower([
      clusterRole('outer', [], undefined, [{ matchLabels: { level: 'inner' } }]),
      clusterRole('inner', [], { level: 'inner' }, [{ matchLabels: { [TO_VIEW]: 'true' } }]),
      clusterRole('plain', [], undefined, [{ matchLabels: { level: 'leaf' } }]),
      clusterRole('leaf', [rule(['get'], ['leaf'])], { level: 'leaf' }),
      clusterRole('mixed', [], undefined, [{ matchLabels: { level: 'leaf' } }, { matchLabels: { [TO_VIEW]: 'true' } }]),
      crb('outer'), crb('inner'), crb('plain'), crb('mixed'),
    ]);
    expect(['outer', 'inner', 'plain', 'mixed'].map((n) => grantOf(p, n)!.roleOrigin))
      .toEqual([RoleOrigin.AGGREGATED, RoleOrigin.AGGREGATED, RoleOrigin.DEFINED, RoleOrigin.AGGREGATED]);
    expect(grantOf(p, 'inner')!.path[2]).toEqual(`ClusterRole inner (the App; aggregationRule {${TO_VIEW}=true} aggregates aggregate-olm-view (built-in), system:aggregate-to-view (built-in))`);
    expect(grantOf(p, 'mixed')!.path[2]).toEqual(`ClusterRole mixed (the App; aggregationRule {level=leaf} or {${TO_VIEW}=true} aggregates aggregate-olm-view (built-in), leaf, system:aggregate-to-view (built-in))`);
  });

  test('a selector that matches nothing adds no note; an In value no role carries is no candidate', () => {
    const p = new EffectivePower([
      clusterRole('lonely', [own], undefined, [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['nobody'] }] }]),
      crb('lonely'),
    ]);
    expect(grantOf(p, 'lonely')!.rules).toEqual([own]);
    expect(grantOf(p, 'lonely')!.path[2]).toEqual('ClusterRole lonely (the App)');
  });

  test('a built-in aggregated role defined by the input too is named once per member (the reconciled one)', () => {
    const p = new EffectivePower([
      clusterRole('view', [], { [`${RBAC}/aggregate-to-edit`]: 'true' }),
      clusterRole('editors', [], undefined, [{ matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' } }]),
      crb('editors'),
    ]);
    expect(grantOf(p, 'editors')!.path[2]).toEqual(`ClusterRole editors (the App; aggregationRule {${RBAC}/aggregate-to-edit=true} aggregates aggregate-olm-edit (built-in), aggregate-olm-view (built-in), system:aggregate-to-edit (built-in), view (built-in))`);
  });
});

describe('resolving the role of a binding', () => {
  const urls: PolicyRule = { verbs: ['get'], nonResourceUrls: ['/metrics'] };
  const pods = rule(['get'], ['pods']);

  test('a ClusterRoleBinding grants non-resource URLs; a RoleBinding of the same ClusterRole does not (RBAC authorizer)', () => {
    const p = new EffectivePower([clusterRole('mixed', [pods, urls]), crb('mixed'), roleBinding('a', 'ClusterRole', 'mixed')]);
    expect(p.of(op).grants.map((g) => [g.namespace, g.rules])).toEqual([['', [pods, urls]], ['a', [pods]]]);
  });

  test('a RoleBinding of a built-in aggregated ClusterRole drops the non-resource URLs an input role adds to it', () => {
    const p = new EffectivePower([clusterRole('view', [urls]), roleBinding('a', 'ClusterRole', 'view'), crb('view')]);
    const [inA, cluster] = [p.of(op).grants.find((g) => g.namespace === 'a')!, p.of(op).grants.find((g) => g.namespace === '')!];
    expect(cluster.rules).toContainEqual(urls);
    expect(inA.rules).toEqual(cluster.rules.filter((r) => r.nonResourceUrls === undefined));
  });

  test('a Role named like a built-in ClusterRole is that Role', () => {
    const p = new EffectivePower([role('a', 'view', [pods]), roleBinding('a', 'Role', 'view')]);
    expect(p.of(op).grants).toEqual([{
      namespace: 'a',
      rules: [pods],
      roleKind: 'Role',
      roleName: 'view',
      roleOrigin: RoleOrigin.DEFINED,
      holder: opLabel,
      path: [opLabel, 'RoleBinding a/rb-view (the App)', 'Role a/view (the App)'],
      direct: true,
    }]);
  });

  test('a built-in role outside the aggregation: its well-known rules plus what the input writes under its name', () => {
    const builtin = BuiltinRoles.find('ClusterRole', 'cluster-monitoring-view', '')!;
    const extra = rule(['get'], ['extra'], ['example.com']);
    const p = new EffectivePower([clusterRole('cluster-monitoring-view', [extra, urls]), crb('cluster-monitoring-view'), roleBinding('a', 'ClusterRole', 'cluster-monitoring-view')]);
    const step = `ClusterRole cluster-monitoring-view (built-in, ${builtin.source})`;
    expect(p.of(op).grants).toEqual([
      {
        namespace: '',
        rules: [...builtin.rules, extra, urls],
        roleKind: 'ClusterRole',
        roleName: 'cluster-monitoring-view',
        roleOrigin: RoleOrigin.BUILT_IN,
        holder: opLabel,
        path: [opLabel, 'ClusterRoleBinding crb-cluster-monitoring-view (the App)', step],
        direct: true,
      },
      {
        namespace: 'a',
        rules: [...builtin.rules, extra],
        roleKind: 'ClusterRole',
        roleName: 'cluster-monitoring-view',
        roleOrigin: RoleOrigin.BUILT_IN,
        holder: opLabel,
        path: [opLabel, 'RoleBinding a/rb-cluster-monitoring-view (the App)', step],
        direct: true,
      },
    ]);
  });

  test('a benign built-in role keeps its origin', () => {
    const p = new EffectivePower([crb('system:auth-delegator')]);
    expect(grantOf(p, 'system:auth-delegator')!.roleOrigin).toEqual(RoleOrigin.BENIGN_BUILT_IN);
    const q = new EffectivePower([roleBinding('kube-system', 'Role', 'extension-apiserver-authentication-reader')]);
    expect(grantOf(q, 'extension-apiserver-authentication-reader')!.rules).toEqual(BuiltinRoles.find('Role', 'extension-apiserver-authentication-reader', 'kube-system')!.rules);
    expect(grantOf(q, 'extension-apiserver-authentication-reader')!.roleOrigin).toEqual(BuiltinRoles.find('Role', 'extension-apiserver-authentication-reader', 'kube-system')!.benign ? RoleOrigin.BENIGN_BUILT_IN : RoleOrigin.BUILT_IN);
  });

  test('a role defined nowhere: everything cluster-wide through a ClusterRoleBinding, everything in the namespace through a RoleBinding', () => {
    const p = new EffectivePower([crb('ghost'), roleBinding('a', 'ClusterRole', 'ghost2'), roleBinding('a', 'Role', 'ghost3')]);
    const unknown = (namespace: string, kind: string, name: string, binding: string, rules: PolicyRule[]): PowerGrant => ({
      namespace,
      rules,
      roleKind: kind,
      roleName: name,
      roleOrigin: RoleOrigin.UNKNOWN,
      holder: opLabel,
      direct: true,
      path: [opLabel, binding, `${kind} ${kind === 'Role' ? 'a/' : ''}${name} (defined nowhere in the App: counted as unbounded)`],
    });
    expect(p.of(op).grants).toEqual([
      unknown('', 'ClusterRole', 'ghost', 'ClusterRoleBinding crb-ghost (the App)', CLUSTER_ADMIN_RULES),
      unknown('a', 'ClusterRole', 'ghost2', 'RoleBinding a/rb-ghost2 (the App)', NAMESPACE_ADMIN_RULES),
      unknown('a', 'Role', 'ghost3', 'RoleBinding a/rb-ghost3 (the App)', NAMESPACE_ADMIN_RULES),
    ]);
    expect(p.of(op).unbounded).toBe(true);
  });

  // the model reads a RoleBinding without metadata.namespace as binding in scope '' (cluster-wide: an over-approximation;
  // kubectl would create it in the context's namespace); its undefined Role is still a namespace's everything
  test('a RoleBinding without a namespace of an undefined Role: the rules of a namespace admin', () => {
    const b = roleBinding('a', 'Role', 'ghost');
    delete b.manifest.metadata.namespace;
    b.manifest.subjects = [{ kind: 'User', name: 'u' }];
    const p = new EffectivePower([b]);
    const u: RbacSubject = { kind: SubjectKind.USER, name: 'u' };
    expect(p.of(u).grants.map((g) => [g.namespace, g.rules])).toEqual([['', NAMESPACE_ADMIN_RULES]]);
  });
});

describe('the closure', () => {
  test('two bindings of one role in one scope are one grant (the first found)', () => {
    const p = new EffectivePower([clusterRole('reader', [rule(['get'], ['pods'])]), crb('reader', 'one'), crb('reader', 'two')]);
    expect(p.of(op).grants.map((g) => g.path[1])).toEqual(['ClusterRoleBinding one (the App)']);
  });

  test('impersonating any user is any identity: cluster-admin, with the path', () => {
    const p = new EffectivePower(clusterWide([rule(['impersonate'], ['users'])]));
    const power = p.of(op);
    expect(power.unbounded).toBe(true);
    expect(power.grants[1]).toEqual({
      namespace: '',
      rules: CLUSTER_ADMIN_RULES,
      roleKind: 'ClusterRole',
      roleName: 'cluster-admin',
      roleOrigin: RoleOrigin.BUILT_IN,
      holder: '*',
      path: [...power.identities[1].path, 'ClusterRole cluster-admin (any identity can be cluster-admin)'],
      direct: false,
    });
  });

  test('an identity reached again keeps its first path (impersonating itself by name changes nothing)', () => {
    const p = new EffectivePower(clusterWide([rule(['impersonate'], ['users'], [''], ['system:serviceaccount:a:op', 'u'])]));
    expect(p.of(op).identities).toEqual([
      { identity: opLabel, path: [opLabel] },
      { identity: 'User u', path: [opLabel, 'ClusterRoleBinding crb-op-cluster (the App)', 'ClusterRole op-cluster (the App)', 'impersonate User u', 'User u'] },
    ]);
  });

  test('a Group has exactly the bindings of its groups (no user name of its own)', () => {
    const p = new EffectivePower([
      clusterRole('reader', [rule(['get'], ['pods'])]),
      { manifest: { kind: 'ClusterRoleBinding', metadata: { name: 'g' }, roleRef: { kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'Group', name: 'team' }] } },
    ]);
    const team: RbacSubject = { kind: SubjectKind.GROUP, name: 'team' };
    expect(p.of(team).grants.map((g) => [g.namespace, g.roleName, g.holder])).toEqual([['', 'reader', 'Group team']]);
  });
});
