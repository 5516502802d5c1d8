/**
 * Issue 15 items 6 and 7: the effective-power model matches binding subjects as Kubernetes does (`SubjectMatcher`,
 * rule.go `appliesToUser`) and knows every way to run as a ServiceAccount: pods and workloads (create, and
 * update/patch of a workload's pod template), `pods/exec`, `pods/attach`, `pods/ephemeralcontainers`,
 * `serviceaccounts/token`, token Secrets (read, or created and read), impersonation and `nodes/proxy` (the kubelet's exec).
 */
import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import fc from 'fast-check';
import { CATALOG, ETCD } from './leaky-cases';
import { EffectivePower, PolicyRule, PowerObject, ReachCode, RbacSubject, ScopedOperatorTenant, SubjectKind, TenancyAudit } from '../../src';

const RBAC = 'rbac.authorization.k8s.io';
const sa = (namespace: string, name: string): RbacSubject => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace });
const role = (namespace: string, name: string, rules: PolicyRule[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules },
});
const clusterRole = (name: string, rules: PolicyRule[]): PowerObject => ({ manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules } });
const roleBinding = (namespace: string, name: string, roleKind: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects },
});
const clusterRoleBinding = (name: string, roleName: string, subjects: any[]): PowerObject => ({
  manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects },
});
const serviceAccount = (namespace: string, name: string): PowerObject => ({ manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } } });
function workload(kind: string, namespace: string, name: string, account: string): PowerObject {
  const podSpec = { serviceAccountName: account, containers: [{ name: 'c', image: 'x' }] };
  const apiVersion = { Pod: 'v1', ReplicationController: 'v1', Job: 'batch/v1', CronJob: 'batch/v1' }[kind] ?? 'apps/v1';
  const spec = kind === 'Pod' ? podSpec : kind === 'CronJob' ? { jobTemplate: { spec: { template: { spec: podSpec } } } } : { template: { spec: podSpec } };
  return { manifest: { apiVersion, kind, metadata: { name, namespace }, spec } };
}

/** `a/op` holds `rules` in namespace a; `a/admin` is cluster-admin; `a/runner` runs in `kind` `a/app` (if given). */
function world(rules: PolicyRule[], kind?: string): EffectivePower {
  return new EffectivePower([
    serviceAccount('a', 'admin'),
    clusterRoleBinding('admin', 'cluster-admin', [{ kind: 'ServiceAccount', name: 'admin', namespace: 'a' }]),
    role('a', 'op', rules),
    roleBinding('a', 'op', 'Role', 'op', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }]),
    ...(kind ? [workload(kind, 'a', 'app', 'runner')] : []),
  ]);
}
/** The identities `a/op` becomes, each with the step that makes it. */
const becomes = (p: EffectivePower) => p.of(sa('a', 'op')).identities.slice(1).map((i) => [i.identity, i.path[i.path.length - 2]]);

describe('item 7: every way to run code as a ServiceAccount', () => {
  test('pods/ephemeralcontainers patch or update into a running pod: its ServiceAccount (was missed; pods/exec was found)', () => {
    for (const verb of ['patch', 'update']) {
      expect(becomes(world([{ apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: [verb] }], 'Deployment'))).toEqual([
        ['ServiceAccount a/runner', `${verb} pods/ephemeralcontainers into Deployment a/app (runs as runner)`],
      ]);
    }
    // get only reads the pod's ephemeral containers
    expect(becomes(world([{ apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['get'] }], 'Deployment'))).toEqual([]);
  });

  test('create a token Secret for a ServiceAccount and read it back (the token controller fills it): that ServiceAccount', () => {
    const step = (account: string) => `create secret in a of type kubernetes.io/service-account-token for ServiceAccount ${account}, then read it`;
    for (const read of [{ verbs: ['get'] }, { verbs: ['get'], resourceNames: ['mine'] }, { verbs: ['list'] }]) {
      const p = world([{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }, { apiGroups: [''], resources: ['secrets'], ...read }]);
      expect(becomes(p)).toEqual([['ServiceAccount a/admin', step('admin')], ['ServiceAccount a/default', step('default')]]);
    }
    // create alone (no read back), or read alone without a token Secret to read: nothing
    expect(becomes(world([{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]))).toEqual([]);
    expect(becomes(world([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]))).toEqual([]);
  });

  test('pods/attach create (POST) or get (websocket GET) into a running pod: its ServiceAccount', () => {
    for (const verb of ['create', 'get']) {
      expect(becomes(world([{ apiGroups: [''], resources: ['pods/attach'], verbs: [verb] }], 'StatefulSet'))).toEqual([
        ['ServiceAccount a/runner', `${verb} pods/attach into StatefulSet a/app (runs as runner)`],
      ]);
    }
  });

  test('a bare Pod: exec restricted to its name reaches it; restricted to another name does not', () => {
    expect(becomes(world([{ apiGroups: [''], resources: ['pods/exec'], resourceNames: ['app'], verbs: ['create'] }], 'Pod'))).toEqual([
      ['ServiceAccount a/runner', 'create pods/exec into Pod a/app (runs as runner)'],
    ]);
    expect(becomes(world([{ apiGroups: [''], resources: ['pods/exec'], resourceNames: ['other'], verbs: ['create'] }], 'Pod'))).toEqual([]);
  });

  test.each([
    ['apps', 'deployments'], ['apps', 'replicasets'], ['apps', 'statefulsets'], ['apps', 'daemonsets'], ['batch', 'jobs'], ['batch', 'cronjobs'],
    ['', 'replicationcontrollers'], ['', 'pods'],
  ])('create %s/%s in a namespace: any ServiceAccount there (cluster-admin a/admin included)', (group, resource) => {
    const p = world([{ apiGroups: [group], resources: [resource], verbs: ['create'] }]);
    const what = `${resource}${group ? `.${group}` : ''}`;
    expect(becomes(p)).toEqual([
      ['ServiceAccount a/admin', `create ${what} in a running as ServiceAccount admin`],
      ['ServiceAccount a/default', `create ${what} in a running as ServiceAccount default`],
    ]);
    expect(p.of(sa('a', 'op')).unbounded).toBe(true);
  });

  test.each([
    ['Deployment', 'apps', 'deployments'], ['ReplicaSet', 'apps', 'replicasets'], ['StatefulSet', 'apps', 'statefulsets'],
    ['DaemonSet', 'apps', 'daemonsets'], ['CronJob', 'batch', 'cronjobs'], ['ReplicationController', '', 'replicationcontrollers'],
  ])('patch or update of an existing %s\'s pod template: any ServiceAccount of the namespace', (kind, group, resource) => {
    for (const verb of ['patch', 'update']) {
      const p = world([{ apiGroups: [group], resources: [resource], verbs: [verb] }], kind);
      const what = `${resource}${group ? `.${group}` : ''}`;
      expect(becomes(p)).toEqual([
        ['ServiceAccount a/admin', `${verb} ${what} ${kind} a/app to run as ServiceAccount admin`],
        ['ServiceAccount a/default', `${verb} ${what} ${kind} a/app to run as ServiceAccount default`],
        ['ServiceAccount a/runner', `${verb} ${what} ${kind} a/app to run as ServiceAccount runner`],
      ]);
    }
    // restricted to the name of another object: nothing to patch
    expect(becomes(world([{ apiGroups: [group], resources: [resource], resourceNames: ['other'], verbs: ['patch'] }], kind))).toEqual([]);
  });

  test('Jobs: update cannot change the template (immutable), so patch reaches nothing', () => {
    expect(becomes(world([{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['patch', 'update'] }], 'Job'))).toEqual([]);
  });

  // k8s pkg/apis/core/validation ValidatePodUpdate: a pod's serviceAccountName is immutable, but its containers' images
  // are not; the kubelet restarts the container with the new image, which reads the pod's token. So update/patch on
  // pods reaches the ServiceAccount the pods run as, and only that one (this test used to expect nothing).
  test('Pods: update or patch gives a running container another image: the ServiceAccount the pod runs as, only that one', () => {
    for (const verb of ['update', 'patch']) {
      expect(becomes(world([{ apiGroups: [''], resources: ['pods'], verbs: [verb] }], 'Pod'))).toEqual([
        ['ServiceAccount a/runner', `${verb} the pods of Pod a/app with another image (runs as runner)`],
      ]);
      // the pods of a workload too (generated names: a rule without names)
      expect(becomes(world([{ apiGroups: [''], resources: ['pods'], verbs: [verb] }], 'Job'))).toEqual([
        ['ServiceAccount a/runner', `${verb} the pods of Job a/app with another image (runs as runner)`],
      ]);
    }
    // a bare Pod by its name; another name, or pods/status, reach nothing
    expect(becomes(world([{ apiGroups: [''], resources: ['pods'], resourceNames: ['app'], verbs: ['patch'] }], 'Pod'))).toEqual([
      ['ServiceAccount a/runner', 'patch the pods of Pod a/app with another image (runs as runner)'],
    ]);
    expect(becomes(world([{ apiGroups: [''], resources: ['pods'], resourceNames: ['other'], verbs: ['patch'] }], 'Pod'))).toEqual([]);
    expect(becomes(world([{ apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] }], 'Pod'))).toEqual([]);
  });

  test('nodes/proxy create or get (kubelet exec) held cluster-wide: the ServiceAccount of every pod of the input, in any namespace', () => {
    for (const verb of ['create', 'get']) {
      const p = new EffectivePower([
        clusterRole('kubelet-proxy', [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: [verb] }]),
        clusterRoleBinding('proxy', 'kubelet-proxy', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }]),
        workload('Deployment', 'b', 'app', 'runner'),
        workload('DaemonSet', 'kube-system', 'agent', 'agent'),
      ]);
      expect(becomes(p)).toEqual([
        ['ServiceAccount b/runner', `${verb} nodes/proxy (kubelet exec into Deployment b/app, runs as runner)`],
        ['ServiceAccount kube-system/agent', `${verb} nodes/proxy (kubelet exec into DaemonSet kube-system/agent, runs as agent)`],
      ]);
    }
    // nodes/proxy restricted to one node's name still reaches the pods on that node (which the input does not tell)
    const named = new EffectivePower([
      clusterRole('kubelet-proxy', [{ apiGroups: [''], resources: ['nodes/proxy'], resourceNames: ['node-1'], verbs: ['get'] }]),
      clusterRoleBinding('proxy', 'kubelet-proxy', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }]),
      workload('Deployment', 'b', 'app', 'runner'),
    ]);
    expect(becomes(named)).toEqual([['ServiceAccount b/runner', 'get nodes/proxy (kubelet exec into Deployment b/app, runs as runner)']]);
    // nodes/stats, nodes/log: no exec
    const stats = new EffectivePower([
      clusterRole('kubelet-stats', [{ apiGroups: [''], resources: ['nodes/stats', 'nodes/log'], verbs: ['get', 'create'] }]),
      clusterRoleBinding('stats', 'kubelet-stats', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }]),
      workload('Deployment', 'b', 'app', 'runner'),
    ]);
    expect(becomes(stats)).toEqual([]);
  });
});

describe('item 6: binding subjects matched as the authorizer matches them', () => {
  const cases: Array<[string, any]> = [
    ['ServiceAccount subject', { kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
    ['User system:serviceaccount:team-a:team-a', { kind: 'User', apiGroup: RBAC, name: 'system:serviceaccount:team-a:team-a' }],
    ['Group system:serviceaccounts:team-a', { kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts:team-a' }],
    ['Group system:serviceaccounts', { kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts' }],
    ['Group system:authenticated', { kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' }],
  ];
  test.each(cases)('a ClusterRoleBinding of cluster-admin to %s makes ServiceAccount team-a/team-a unbounded', (_, subject) => {
    const p = new EffectivePower([clusterRoleBinding('x', 'cluster-admin', [subject])]);
    expect(p.of(sa('team-a', 'team-a')).unbounded).toBe(true);
  });

  test('not matched: other casing, another namespace, a ServiceAccount subject without namespace in a ClusterRoleBinding', () => {
    for (const subject of [
      { kind: 'User', name: 'system:serviceaccount:team-a:Team-A' },
      { kind: 'user', name: 'system:serviceaccount:team-a:team-a' },
      { kind: 'User', name: 'system:serviceaccount:team-b:team-a' },
      { kind: 'Group', name: 'system:serviceaccounts:team-b' },
      { kind: 'ServiceAccount', name: 'team-a' },
      { kind: 'ServiceAccount', name: 'team-a', namespace: '' },
    ]) {
      const p = new EffectivePower([clusterRoleBinding('x', 'cluster-admin', [subject])]);
      expect([subject, p.of(sa('team-a', 'team-a')).unbounded]).toEqual([subject, false]);
    }
  });

  test('a RoleBinding\'s ServiceAccount subject with namespace "" takes the binding\'s namespace (it was keyed "ServiceAccount /x" and missed)', () => {
    const p = new EffectivePower([roleBinding('team-a', 'x', 'ClusterRole', 'admin', [{ kind: 'ServiceAccount', name: 'op', namespace: '' }])]);
    expect(p.of(sa('team-a', 'op')).grants.map((g) => [g.namespace, g.roleName, g.direct])).toEqual([['team-a', 'admin', true]]);
  });

  test('the user system:serviceaccount:<ns>:<name> is the same identity as the ServiceAccount (one label, one closure)', () => {
    const p = new EffectivePower([clusterRoleBinding('x', 'view', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }])]);
    expect(EffectivePower.label({ kind: SubjectKind.USER, name: 'system:serviceaccount:a:op' })).toBe('ServiceAccount a/op');
    expect(p.of({ kind: SubjectKind.USER, name: 'system:serviceaccount:a:op' })).toEqual(p.of(sa('a', 'op')));
    // a user name that is no ServiceAccount's stays a user
    expect(EffectivePower.label({ kind: SubjectKind.USER, name: 'system:serviceaccount:a:op:x' })).toBe('User system:serviceaccount:a:op:x');
  });

  test('impersonating the user system:serviceaccount:a:admin is becoming ServiceAccount a/admin', () => {
    const p = new EffectivePower([
      clusterRole('imp', [{ apiGroups: [''], resources: ['users'], resourceNames: ['system:serviceaccount:a:admin'], verbs: ['impersonate'] }]),
      clusterRoleBinding('imp', 'imp', [{ kind: 'ServiceAccount', name: 'op', namespace: 'a' }]),
      clusterRoleBinding('admin', 'cluster-admin', [{ kind: 'ServiceAccount', name: 'admin', namespace: 'a' }]),
    ]);
    expect(becomes(p)).toEqual([['ServiceAccount a/admin', 'impersonate User system:serviceaccount:a:admin']]);
    expect(p.of(sa('a', 'op')).unbounded).toBe(true);
  });
});

describe('item 6 and 7 through real constructs: the audit names them', () => {
  function tenants(extra: (chart: Chart) => void) {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', deriveInstallerRules: true });
    extra(chart);
    return app;
  }
  const summary = (app: any) => TenancyAudit.ofConstruct(app).tenants
    .map((t) => t.findings.map((f) => [t.namespace, f.code, f.subject, f.namespace, f.path]));

  test('a ClusterRoleBinding of cluster-admin to User system:serviceaccount:team-a:team-a: the same finding as with the ServiceAccount subject', () => {
    const withSubject = (subject: any) => tenants((chart) => {
      new k8s.KubeClusterRoleBinding(chart, 'Sneaky', { metadata: { name: 'sneaky' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [subject] });
    });
    const asUser = summary(withSubject({ kind: 'User', apiGroup: RBAC, name: 'system:serviceaccount:team-a:team-a' }));
    const asServiceAccount = summary(withSubject({ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }));
    expect(asUser).toEqual(asServiceAccount);
    expect(asUser).toEqual([
      [
        ['team-a', ReachCode.TENANT_IDENTITY_UNBOUNDED, 'ServiceAccount team-a/team-a', '', [
          'ServiceAccount team-a/team-a', 'ClusterRoleBinding sneaky (App)',
          'ClusterRole cluster-admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)',
        ]],
        // etcd reads Secrets in team-a: the installer's token, now cluster-admin
        ['team-a', ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, 'ServiceAccount team-a/etcd-operator', '', [
          'ServiceAccount team-a/etcd-operator',
          'RoleBinding team-a/etcdoperator.v0.9.4-etcd-operator-65b4854f75 (OLM CSV_PERMISSION of etcdoperator.v0.9.4)',
          'Role team-a/etcdoperator.v0.9.4-etcd-operator-65b4854f75 (OLM CSV_PERMISSION of etcdoperator.v0.9.4)',
          'get secret team-a/team-a (token of ServiceAccount team-a/team-a)',
          'ServiceAccount team-a/team-a',
          'ClusterRole cluster-admin (cluster-wide)',
        ]],
      ],
      [],
    ]);
    // and the synth fails with it
    expect(() => withSubject({ kind: 'User', apiGroup: RBAC, name: 'system:serviceaccount:team-a:team-a' }).synth()).toThrow(/TenantIdentityUnbounded, OLMT-026/);
  });

  test.each([
    [{ apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }, 'patch pods/ephemeralcontainers into Deployment team-a/etcd-operator (runs as etcd-operator)', 'ServiceAccount team-a/etcd-operator'],
    [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }, 'patch deployments.apps Deployment team-a/etcd-operator to run as ServiceAccount etcd-operator', 'ServiceAccount team-a/etcd-operator'],
    [{ apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['create'] }, 'create cronjobs.batch in team-a running as ServiceAccount etcd-operator', 'ServiceAccount team-a/etcd-operator'],
  ])('tenant B\'s installer granted %j in team-a becomes team-a\'s ServiceAccounts: named', (rule, step, identity) => {
    const app = tenants((chart) => {
      new k8s.KubeRole(chart, 'Debug', { metadata: { name: 'debug', namespace: 'team-a' }, rules: [rule] });
      new k8s.KubeRoleBinding(chart, 'DebugBinding', {
        metadata: { name: 'debug', namespace: 'team-a' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'debug' },
        subjects: [{ kind: 'ServiceAccount', name: 'team-b', namespace: 'team-b' }],
      });
    });
    const b = TenancyAudit.ofConstruct(app).tenants[1];
    expect(b.findings.map((f) => [f.code, f.subject, f.namespace])).toEqual([
      [ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE, 'ServiceAccount team-b/team-b', 'team-a'],
    ]);
    expect(b.findings[0].path.slice(0, 5)).toEqual(['ServiceAccount team-b/team-b', 'RoleBinding team-a/debug (App)', 'Role team-a/debug (App)', step, identity]);
  });
});

describe('properties over the new paths and subject forms (fast-check, fixed seed)', () => {
  const POOL: PolicyRule[] = [
    { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] },
    { apiGroups: [''], resources: ['pods/attach'], verbs: ['get'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] },
    { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['patch'] },
    { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['create'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
    { apiGroups: [RBAC], resources: ['rolebindings', 'clusterrolebindings'], verbs: ['create'] },
    { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['r1'], verbs: ['bind'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  ];
  const NS = ['a', 'b'];
  const ACCOUNTS = ['x', 'y'];
  const subjectOf = (form: number, ns: string, account: string) => [
    { kind: 'ServiceAccount', name: account, namespace: ns },
    { kind: 'User', name: `system:serviceaccount:${ns}:${account}` },
    { kind: 'Group', name: `system:serviceaccounts:${ns}` },
  ][form];
  interface World {
    readonly roles: PolicyRule[][];
    readonly bindings: Array<{ role: number; cluster: boolean; ns: number; form: number; subjectNs: number; account: number }>;
    readonly pods: Array<{ kind: string; ns: number; account: number }>;
  }
  const worldArb: fc.Arbitrary<World> = fc.record({
    roles: fc.array(fc.array(fc.constantFrom(...POOL), { maxLength: 3 }), { minLength: 3, maxLength: 3 }),
    bindings: fc.array(fc.record({
      role: fc.nat(2), cluster: fc.boolean(), ns: fc.nat(1), form: fc.nat(2), subjectNs: fc.nat(1), account: fc.nat(1),
    }), { maxLength: 5 }),
    pods: fc.array(fc.record({ kind: fc.constantFrom('Pod', 'Deployment', 'CronJob', 'Job'), ns: fc.nat(1), account: fc.nat(1) }), { maxLength: 3 }),
  });
  const objectsOf = (w: World, roles = w.roles): PowerObject[] => [
    ...roles.map((rules, i) => clusterRole(`r${i}`, rules)),
    ...w.bindings.map((b, i) => {
      const subject = subjectOf(b.form, NS[b.subjectNs], ACCOUNTS[b.account]);
      return b.cluster ? clusterRoleBinding(`b${i}`, `r${b.role}`, [subject]) : roleBinding(NS[b.ns], `b${i}`, 'ClusterRole', `r${b.role}`, [subject]);
    }),
    ...w.pods.map((p, i) => workload(p.kind, NS[p.ns], `w${i}`, ACCOUNTS[p.account])),
  ];
  const SUBJECTS = NS.flatMap((n) => ACCOUNTS.map((a) => sa(n, a)));

  test('monotone: adding a rule never removes an identity (seed 31)', () => {
    fc.assert(fc.property(worldArb, fc.nat(2), fc.constantFrom(...POOL), (w, roleIndex, rule) => {
      const before = new EffectivePower(objectsOf(w));
      const after = new EffectivePower(objectsOf(w, w.roles.map((rules, i) => (i === roleIndex ? [...rules, rule] : rules))));
      for (const s of SUBJECTS) {
        const ids = new Set(after.of(s).identities.map((i) => i.identity));
        for (const i of before.of(s).identities) expect(ids.has(i.identity)).toBe(true);
      }
    }), { seed: 31, numRuns: 200 });
  });

  test('a User subject named system:serviceaccount:<ns>:<name> grants exactly what the ServiceAccount subject grants (seed 32)', () => {
    fc.assert(fc.property(worldArb, (w) => {
      const asServiceAccount = new EffectivePower(objectsOf({ ...w, bindings: w.bindings.map((b) => ({ ...b, form: b.form === 1 ? 0 : b.form })) }));
      const asUser = new EffectivePower(objectsOf({ ...w, bindings: w.bindings.map((b) => ({ ...b, form: b.form === 0 ? 1 : b.form })) }));
      for (const s of SUBJECTS) expect(asUser.of(s)).toEqual(asServiceAccount.of(s));
    }), { seed: 32, numRuns: 200 });
  });
});
