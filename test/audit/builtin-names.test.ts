/**
 * Issue 37, class 3: identities Kubernetes and OLM empower by name (src/audit/mechanisms/builtin-names.ts), and
 * impersonation aimed at them: legacy `impersonate` and constrained impersonation (KEP-5284; the verbs and how
 * `impersonate:<mode>` and `impersonate-on:<mode>:<verb>` combine as
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/mode.go does). Each name with its variants: by
 * name cluster-wide, a grant in the name's own namespace, a TokenRequest; and the refusals.
 */
import {
  clusterRole, crb, deployment, holding, OP, rb, reached, serviceAccount, tokenSecret,
} from './mechanism-worlds';
import { EffectivePower } from '../../src/audit/effective-power';
import { BUILTIN_NAMES } from '../../src/audit/mechanisms/builtin-names';

const power = (objects: any[]) => new EffectivePower(objects).of(OP);
const labelOf = (b: typeof BUILTIN_NAMES[number]) => (b.kind === 'ServiceAccount' ? `ServiceAccount ${b.namespace}/${b.name}` : `${b.kind} ${b.name}`);
/** The names whose power is everything: by their rules (the model computes it) or by the table's reason. */
const EVERYTHING = new Set([
  'Group system:masters', 'User system:kube-controller-manager',
  ...['clusterrole-aggregation-controller', 'cronjob-controller', 'daemon-set-controller', 'deployment-controller', 'generic-garbage-collector', 'job-controller',
    'persistent-volume-binder', 'replicaset-controller', 'replication-controller', 'statefulset-controller'].map((n) => `ServiceAccount kube-system/${n}`),
  'ServiceAccount olm/olm-operator-serviceaccount', 'ServiceAccount openshift-operator-lifecycle-manager/olm-operator-serviceaccount',
  'ServiceAccount olmv1-system/operator-controller-controller-manager', 'ServiceAccount olmv1-system/catalogd-controller-manager',
]);

describe.each(BUILTIN_NAMES.map((b) => [labelOf(b), b] as const))('%s', (label, b) => {
  /** The legacy impersonation rule aimed at the name. */
  const byName = b.kind === 'ServiceAccount'
    ? { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: [b.name], verbs: ['impersonate'] }
    : { apiGroups: [''], resources: [b.kind === 'User' ? 'users' : 'groups'], resourceNames: [b.name], verbs: ['impersonate'] };

  test('impersonated by name: that identity, with its role\'s rules; everything where upstream makes it so', () => {
    const p = power(holding([byName], 'crb'));
    expect(p.identities.map((i) => i.identity)).toContain(label);
    // (a ServiceAccount name impersonated cluster-wide is that name in every namespace: OLM's in olm and OpenShift's)
    const own = p.grants.find((g) => g.roleName === b.role && g.path.join(' ').includes(b.upstream.split(' ').slice(0, 2).join(' ')));
    expect([own?.roleName, own?.roleOrigin]).toEqual([b.role, 'BUILT_IN']);
    expect(p.unbounded).toBe(EVERYTHING.has(label));
  });

  test('not by any other name, nor through a RoleBinding for users and groups (cluster-scoped)', () => {
    expect(reached(holding([{ ...byName, resourceNames: ['someone-else'] }], 'crb'))).not.toContain(label);
    if (b.kind !== 'ServiceAccount') expect(reached(holding([byName], 'rb-cluster-role'))).not.toContain(label);
  });

  if (b.kind === 'ServiceAccount') {
    test('a ServiceAccount: a TokenRequest by name, or any name through a grant in its own namespace (a RoleBinding there)', () => {
      expect(reached(holding([{ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: [b.name], verbs: ['create'] }], 'crb'))).toContain(label);
      expect(reached(holding([{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }], 'rb-cluster-role', b.namespace))).toContain(label);
      expect(reached(holding([{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }], 'role', b.namespace))).toContain(label);
    });
    test('not by an any-name grant cluster-wide: that is the sensitive grant (POD_CREATE, SERVICE_ACCOUNT_TOKENS...) the registry names', () => {
      expect(reached(holding([{ apiGroups: [''], resources: ['serviceaccounts/token', 'pods'], verbs: ['create'] }], 'crb'))).not.toContain(label);
    });
  }
});

describe('node identities: system:node:<name> in system:nodes (the node authorizer)', () => {
  test('legacy: the user and the group by name: every identity; the user alone, nothing', () => {
    const user = { apiGroups: [''], resources: ['users'], resourceNames: ['system:node:n1'], verbs: ['impersonate'] };
    const group = { apiGroups: [''], resources: ['groups'], resourceNames: ['system:nodes'], verbs: ['impersonate'] };
    expect(power(holding([user, group], 'crb')).unbounded).toBe(true);
    expect(power(holding([user], 'crb')).unbounded).toBe(false);
    expect(power(holding([user, group], 'rb-cluster-role')).unbounded).toBe(false);
  });
  test.each([
    ['arbitrary-node by name', [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], resourceNames: ['n1'], verbs: ['impersonate:arbitrary-node'] }], true],
    ['arbitrary-node, any node', [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:arbitrary-node'] }], true],
    ['arbitrary-node through * verbs on authentication.k8s.io', [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['*'] }], true],
    ['arbitrary-node in the core group (not the verb\'s group)', [{ apiGroups: [''], resources: ['nodes'], verbs: ['impersonate:arbitrary-node'] }], false],
    ['associated-node (a pod of the subject names its node)', [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] }], true],
  ] as Array<[string, any[], boolean]>)('constrained %s with impersonate-on:<mode>:create on serviceaccounts/token: %s', (why, rules, unbounded) => {
    const mode = why.startsWith('associated') ? 'associated-node' : 'arbitrary-node';
    const on = { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: [`impersonate-on:${mode}:create`] };
    const pod = deployment('team-a', 'op', { serviceAccountName: 'op' });
    expect(power([pod, ...holding([...rules, on], 'crb')]).unbounded).toBe(unbounded);
  });
  test('constrained node modes without impersonate-on, or with it for harmless requests, or associated-node with no pod: nothing', () => {
    const primary = { apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:arbitrary-node', 'impersonate:associated-node'] };
    expect(power(holding([primary], 'crb')).unbounded).toBe(false);
    expect(power(holding([primary, { apiGroups: [''], resources: ['configmaps'], verbs: ['impersonate-on:arbitrary-node:get'] }], 'crb')).unbounded).toBe(false);
    // a literal `impersonate-on:arbitrary-node:*` matches no request verb (RBAC matches verbs exactly)
    expect(power(holding([primary, { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['impersonate-on:arbitrary-node:*'] }], 'crb')).unbounded).toBe(false);
    const associated = { apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] };
    expect(power(holding([associated, { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['impersonate-on:associated-node:create'] }], 'crb')).unbounded).toBe(false);
  });
});

describe('constrained impersonation of users and ServiceAccounts: only the requests impersonate-on allows, as the impersonated identity', () => {
  const VICTIM = 'ServiceAccount team-b/victim';
  const secrets = [serviceAccount('team-b', 'victim'), tokenSecret('team-b', 'victim-token', 'victim')];
  const kcm = { apiGroups: ['authentication.k8s.io'], resources: ['users'], resourceNames: ['system:kube-controller-manager'], verbs: ['impersonate:user-info'] };
  const getSecrets = { apiGroups: [''], resources: ['secrets'], verbs: ['impersonate-on:user-info:get'] };

  test('user-info: the kube-controller-manager user, for get on secrets: reads the token Secret (its rules allow get on secrets)', () => {
    expect(reached([...secrets, ...holding([kcm, getSecrets], 'crb')])).toEqual([VICTIM]);
    const g = power([...secrets, ...holding([kcm, getSecrets], 'crb')]).grants.find((x) => x.holder === 'User system:kube-controller-manager')!;
    expect([g.roleName, g.rules]).toEqual(['system:kube-controller-manager (as User system:kube-controller-manager, impersonate-on:user-info)', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]]);
  });
  test.each([
    ['no impersonate-on', [kcm]],
    ['impersonate-on for another mode', [kcm, { ...getSecrets, verbs: ['impersonate-on:serviceaccount:get'] }]],
    ['impersonate-on for configmaps only', [kcm, { ...getSecrets, resources: ['configmaps'] }]],
    ['another user (holds nothing)', [{ ...kcm, resourceNames: ['alice'] }, getSecrets]],
    ['the legacy verb on the authentication group\'s users', [{ ...kcm, verbs: ['impersonate'] }, getSecrets]],
    ['user-info on a ServiceAccount\'s user name (its own mode)', [{ ...kcm, resourceNames: ['system:serviceaccount:team-b:victim'] }, getSecrets]],
  ])('refused: %s', (_why, rules) => {
    expect(reached([...secrets, ...holding(rules, 'crb')])).toEqual([]);
  });
  test('user-info on any user: the impersonate-on requests themselves (some user may make them)', () => {
    const any = { apiGroups: ['authentication.k8s.io'], resources: ['users'], verbs: ['impersonate:user-info'] };
    expect(reached([...secrets, ...holding([any, getSecrets], 'crb')])).toEqual([VICTIM]);
  });
  test('serviceaccount mode: a ServiceAccount of a namespace the grant covers, restricted to impersonate-on; through a RoleBinding there too', () => {
    // the token Secret in team-c, where a RoleBinding's impersonate-on rules apply
    const inC = [serviceAccount('team-c', 'victim'), tokenSecret('team-c', 'victim-token', 'victim')];
    const VICTIM_C = 'ServiceAccount team-c/victim';
    const admin = [clusterRole('admin-ish', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), crb('admin-ish', 'admin-ish', [{ kind: 'ServiceAccount', name: 'boss', namespace: 'team-c' }])];
    const primary = { apiGroups: ['authentication.k8s.io'], resources: ['serviceaccounts'], resourceNames: ['boss'], verbs: ['impersonate:serviceaccount'] };
    const on = { apiGroups: [''], resources: ['secrets'], verbs: ['impersonate-on:serviceaccount:list'] };
    for (const how of ['crb', 'rb-cluster-role'] as const) {
      const p = power([...inC, serviceAccount('team-c', 'boss'), ...admin, ...holding([primary, on], how, 'team-c')]);
      expect([how, p.unbounded, p.identities.map((i) => i.identity)]).toEqual([how, false, ['ServiceAccount team-a/op', VICTIM_C]]);
    }
    // in another namespace than the ServiceAccount's: the grant does not cover it
    expect(reached([...inC, serviceAccount('team-c', 'boss'), ...admin, ...holding([primary, on], 'rb-other-ns')])).toEqual([]);
    // with `*` verbs on the requests: everything the ServiceAccount holds
    expect(power([serviceAccount('team-c', 'boss'), ...admin, ...holding([primary, { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], 'crb')]).unbounded).toBe(true);
  });
  test('legacy impersonation of the group system:masters by name: everything (legacy impersonation allows it; constrained refuses it)', () => {
    expect(power(holding([{ apiGroups: [''], resources: ['groups'], resourceNames: ['system:masters'], verbs: ['impersonate'] }], 'crb')).unbounded).toBe(true);
  });
  test('binding a name in the App: its role\'s well-known rules, not an unknown role', () => {
    const p = power([rb('kube-system', 'x', 'ClusterRole', 'system:controller:clusterrole-aggregation-controller', [{ kind: 'ServiceAccount', name: 'op', namespace: 'team-a' }])]);
    expect(p.grants[0].roleOrigin).toBe('BUILT_IN');
  });
});
