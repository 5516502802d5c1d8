/**
 * Issue 42: `ApplierRules`, what a GitOps identity needs to apply a folder of objects, derived from the objects.
 */
import * as fc from 'fast-check';
import { PolicyRule, RbacRules } from '../../src';
import { AppliedObjectFacts, ApplierRules, PRUNABLE } from '../../src/rbac/applier-rules';
import { propertyRuns } from '../util/property-runs';

describe('ApplierRules.resourceOf: k8s.io/apimachinery UnsafeGuessKindToResource', () => {
  // the table of apimachinery pkg/api/meta/restmapper_test.go TestKindToResource (plural column), and the
  // `unpluralizedSuffixes` of restmapper.go
  test.each([
    ['Pod', 'pods'],
    ['ReplicationController', 'replicationcontrollers'],
    ['ImageRepository', 'imagerepositories'],
    ['miss', 'misses'],
    ['lowercase', 'lowercases'],
    ['Endpoints', 'endpoints'],
    // the kinds the library writes into tenant folders
    ['Subscription', 'subscriptions'],
    ['NetworkPolicy', 'networkpolicies'],
    ['Ingress', 'ingresses'],
    ['ClusterExtension', 'clusterextensions'],
  ])('%s -> %s', (kind, plural) => {
    expect(ApplierRules.resourceOf(kind)).toEqual(plural);
  });
});

describe('ApplierRules.derive', () => {
  const sub = (name: string, namespace = 'team-a'): AppliedObjectFacts => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', namespace, name });

  test('GIVEN a Subscription THEN create, patch/update/get by name, and prune (delete, get, list, watch) of the kinds the library writes', () => {
    expect(ApplierRules.derive([sub('etcd')], ['team-a'])).toEqual({
      namespaced: [{
        namespace: 'team-a',
        rules: RbacRules.compact([
          { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create'] },
          { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], resourceNames: ['etcd'], verbs: ['get', 'patch', 'update'] },
          ...PRUNABLE.map((p) => ({ apiGroups: [p.apiGroup], resources: [p.resource], verbs: ['delete', 'get', 'list', 'watch'] })),
        ]),
      }],
      cluster: [],
    });
  });

  test('GIVEN a Role and RoleBindings THEN the Role\'s rules are held (no escalate), and bind by name on every other role a binding names', () => {
    const rules: PolicyRule[] = [{ apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'patch'] }];
    const objects: AppliedObjectFacts[] = [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', namespace: 'team-a', name: 'approver', rules },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', namespace: 'team-a', name: 'approver', roleRef: { kind: 'Role', name: 'approver' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', namespace: 'team-a', name: 'admins', roleRef: { kind: 'ClusterRole', name: 'olm.og.team-a.admin-abc' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', namespace: 'team-a', name: 'other', roleRef: { kind: 'Role', name: 'not-here' } },
    ];
    const got = ApplierRules.derive(objects, [], false).namespaced[0].rules;
    expect(RbacRules.covers(got, rules).missing).toEqual([]);
    const bind = (resource: string, name: string) => RbacRules.allows(got, { verb: 'bind', apiGroup: 'rbac.authorization.k8s.io', resource, name });
    expect([bind('clusterroles', 'olm.og.team-a.admin-abc'), bind('roles', 'not-here'), bind('roles', 'approver'), bind('clusterroles', 'admin'), bind('clusterroles', 'cluster-admin')])
      .toEqual([true, true, false, false, false]);
    expect(RbacRules.allows(got, { verb: 'escalate', apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', name: 'x' })).toBe(false);
  });

  test('GIVEN a Secret THEN never list or watch (a list reads every Secret\'s data), get by name only; a cluster-scoped object gets a cluster rule', () => {
    const got = ApplierRules.derive([
      { apiVersion: 'v1', kind: 'Secret', namespace: 'team-a', name: 'pull' },
      { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', name: 'obs-etcd' },
    ], [], false);
    const ns = got.namespaced[0].rules;
    expect(['list', 'watch'].map((verb) => RbacRules.allows(ns, { verb, apiGroup: '', resource: 'secrets' }))).toEqual([false, false]);
    expect(RbacRules.allows(ns, { verb: 'get', apiGroup: '', resource: 'secrets', name: 'pull' })).toBe(true);
    expect(RbacRules.allows(ns, { verb: 'get', apiGroup: '', resource: 'secrets', name: 'token' })).toBe(false);
    expect(got.cluster).toEqual([
      // `get` by name is covered by the unnamed `get` (compacted)
      { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], resourceNames: ['obs-etcd'], verbs: ['patch', 'update'] },
      { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['create', 'delete', 'get', 'list', 'watch'] },
    ]);
  });

  test(`property (${propertyRuns(300)} runs): every object of the folder can be created, patched, read and deleted; nothing of another namespace; no patch of an unnamed object`, () => {
    const kinds = [['v1', 'ConfigMap'], ['operators.coreos.com/v1alpha1', 'Subscription'], ['apps/v1', 'Deployment'], ['example.com/v1', 'Widget']];
    const arb = fc.array(fc.record({ kind: fc.integer({ min: 0, max: kinds.length - 1 }), name: fc.constantFrom('a', 'b', 'c'), namespace: fc.constantFrom('team-a', 'team-b') }), { maxLength: 12 });
    fc.assert(fc.property(arb, (specs) => {
      const objects = specs.map((s) => ({ apiVersion: kinds[s.kind][0], kind: kinds[s.kind][1], namespace: s.namespace, name: s.name }));
      const grants = ApplierRules.derive(objects, ['team-a', 'team-b']);
      const rulesIn = (ns: string) => grants.namespaced.find((g) => g.namespace === ns)?.rules ?? [];
      for (const o of objects) {
        const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
        const resource = ApplierRules.resourceOf(o.kind);
        for (const verb of ['create', 'patch', 'update', 'get', 'delete']) {
          expect(RbacRules.allows(rulesIn(o.namespace), { verb, apiGroup: group, resource, name: o.name })).toBe(true);
        }
        const named = new Set<string>(objects.filter((x) => x.namespace === o.namespace && x.kind === o.kind).map((x) => x.name));
        expect(RbacRules.allows(rulesIn(o.namespace), { verb: 'patch', apiGroup: group, resource, name: 'zzz' })).toBe(named.has('zzz'));
        const other = o.namespace === 'team-a' ? 'team-b' : 'team-a';
        if (!objects.some((x) => x.namespace === other && x.kind === o.kind)) {
          expect(RbacRules.allows(rulesIn(other), { verb: 'create', apiGroup: group, resource })).toBe(false);
        }
      }
    }), { numRuns: propertyRuns(300) });
  });
});
