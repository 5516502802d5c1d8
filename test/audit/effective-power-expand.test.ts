/**
 * Issue 28, mutation triage of `effective-power` (lines 583-end: `expand`, the paths from one identity to another, and
 * its helpers `ruleAllows`, `someNameAllows`, `parseSelectors`, `everything`, `subjectLabel`, `userOfLabel`). Every
 * path with its exact steps and the exact grant it adds, and its refusals: the same power through another verb, a
 * `resourceNames` list, a subresource, another API group, a binding in another namespace, a ClusterRole bound by a
 * RoleBinding. Upstream: `pkg/registry/rbac/escalation_check.go` (`EscalationAllowed`, `RoleEscalationAuthorized`,
 * `BindingAuthorized`), `pkg/registry/rbac/{role,clusterrole,rolebinding}/policybased/storage.go`,
 * `staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go`, `plugin/pkg/admission/certificates/approval`,
 * `pkg/controller/serviceaccount/tokens_controller.go`, `pkg/kubelet/server/auth.go`, operator-controller
 * `internal/operator-controller/controllers/clusterobjectset_controller.go`.
 */
// the modules themselves, not the package root: every mutant of the mutation-testing target loads this file again
import { CLUSTER_ADMIN_RULES, NAMESPACE_ADMIN_RULES } from '../../src/audit/builtin-roles';
import { EffectivePower, PowerGrant, PowerObject, RbacSubject, ReachedIdentity, RoleOrigin, SubjectKind } from '../../src/audit/effective-power';
import { PolicyRule } from '../../src/rbac/policy-rule';

const RBAC = 'rbac.authorization.k8s.io';
const OLM_V1 = 'olm.operatorframework.io';
const CERTS = 'certificates.k8s.io';
const OP = 'ServiceAccount a/op';
const op: RbacSubject = { kind: SubjectKind.SERVICE_ACCOUNT, name: 'op', namespace: 'a' };
const opSubject = { kind: 'ServiceAccount', name: 'op', namespace: 'a' };

const rule = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule =>
  ({ apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
const m = (manifest: any, origin?: string): PowerObject => ({ manifest, ...(origin ? { origin } : {}) });
const role = (namespace: string, name: string, rules: PolicyRule[]) => m({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules });
const clusterRole = (name: string, rules: PolicyRule[], extra: object = {}) => m({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
const roleBinding = (namespace: string, name: string, roleKind: string, roleName: string, subjects: any[] = [opSubject]) =>
  m({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects });
const clusterRoleBinding = (name: string, roleName: string, subjects: any[] = [opSubject]) =>
  m({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
const serviceAccount = (namespace: string, name: string) => m({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
const tokenSecret = (namespace: string, name: string, account: string) => m({
  apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name, namespace, annotations: { 'kubernetes.io/service-account.name': account } },
});
const deployment = (namespace: string, name: string, account: string) =>
  m({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace }, spec: { template: { spec: { serviceAccountName: account } } } });
const pod = (namespace: string | undefined, name: string, account: string) =>
  m({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...(namespace === undefined ? {} : { namespace }) }, spec: { serviceAccountName: account } });

/** `a/op` holds `rules` through Role a/op (or, `scope: ''`, ClusterRole op through a ClusterRoleBinding; `scope: 'b'`, Role b/op). */
const holds = (rules: PolicyRule[], scope = 'a'): PowerObject[] => (scope === ''
  ? [clusterRole('op', rules), clusterRoleBinding('op', 'op')]
  : [role(scope, 'op', rules), roleBinding(scope, 'op', 'Role', 'op')]);
const power = (objects: PowerObject[], subject: RbacSubject = op) => new EffectivePower(objects).of(subject);
/** The path of the direct grant of `holds(rules, scope)`. */
const direct = (scope = 'a') => (scope === ''
  ? [OP, 'ClusterRoleBinding op (the App)', 'ClusterRole op (the App)']
  : [OP, `RoleBinding ${scope}/op (the App)`, `Role ${scope}/op (the App)`]);
/** Identities besides the subject. */
const others = (objects: PowerObject[], subject: RbacSubject = op): ReachedIdentity[] => power(objects, subject).identities.slice(1);
const ids = (objects: PowerObject[], subject: RbacSubject = op): string[] => others(objects, subject).map((i) => i.identity);
/** Grants besides the direct ones. */
const gained = (objects: PowerObject[], subject: RbacSubject = op): PowerGrant[] => power(objects, subject).grants.filter((g) => !g.direct);
const brief = (objects: PowerObject[], subject: RbacSubject = op): string[] => gained(objects, subject).map((g) => `${g.namespace}|${g.roleOrigin}|${g.roleKind} ${g.roleName}|${g.holder}`);


describe('token Secrets: reading a kubernetes.io/service-account-token Secret is its ServiceAccount', () => {
  test('get by name, list and watch each read it; in namespace order, Secrets by name', () => {
    const objects = [
      ...holds([rule([''], ['secrets'], ['get'], ['t2', 't1'])], ''),
      tokenSecret('b', 't2', 'y'), tokenSecret('b', 't1', 'x'), tokenSecret('a', 't3', 'z'),
    ];
    // cluster-wide get on the named Secrets: t3 is not named
    expect(others(objects)).toEqual([
      { identity: 'ServiceAccount b/x', path: [...direct(''), 'get secret b/t1 (token of ServiceAccount b/x)', 'ServiceAccount b/x'] },
      { identity: 'ServiceAccount b/y', path: [...direct(''), 'get secret b/t2 (token of ServiceAccount b/y)', 'ServiceAccount b/y'] },
    ]);
    expect(others([...holds([rule([''], ['secrets'], ['list'])]), tokenSecret('a', 't', 'x')])).toEqual([
      { identity: 'ServiceAccount a/x', path: [...direct(), 'list secret a/t (token of ServiceAccount a/x)', 'ServiceAccount a/x'] },
    ]);
    expect(others([...holds([rule([''], ['secrets'], ['watch'])]), tokenSecret('a', 't', 'x')])).toEqual([
      { identity: 'ServiceAccount a/x', path: [...direct(), 'watch secret a/t (token of ServiceAccount a/x)', 'ServiceAccount a/x'] },
    ]);
  });

  test('list and watch limited to its name: a fieldSelector metadata.name=<name> request is authorized with that name', () => {
    // k8s staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go: a list or watch whose field selector
    // requires metadata.name gets requestInfo.Name (handlers/get.go ListResource: "propagated to requestInfo as the name")
    for (const verb of ['list', 'watch']) {
      expect(others([...holds([rule([''], ['secrets'], [verb], ['t'])]), tokenSecret('a', 't', 'x')])).toEqual([
        { identity: 'ServiceAccount a/x', path: [...direct(), `${verb} secret a/t (token of ServiceAccount a/x)`, 'ServiceAccount a/x'] },
      ]);
    }
  });

  test('refused: get, list or watch of another name, another namespace, secrets/status, another group', () => {
    const secret = tokenSecret('a', 't', 'x');
    expect(ids([...holds([rule([''], ['secrets'], ['get'], ['other'])]), secret])).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets'], ['list', 'watch'], ['other'])]), secret])).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets'], ['get', 'list'])], 'b'), secret])).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets/status'], ['get', 'list'])]), secret])).toEqual([]);
    expect(ids([...holds([rule(['apps'], ['secrets'], ['get', 'list'])]), secret])).toEqual([]);
  });
});

describe('ServiceAccounts of a namespace: TokenRequest, impersonation, a token Secret created and read', () => {
  test('create serviceaccounts/token and impersonate serviceaccounts, by name', () => {
    expect(others([...holds([rule([''], ['serviceaccounts/token'], ['create'], ['x'])]), serviceAccount('a', 'x'), serviceAccount('a', 'y')])).toEqual([
      { identity: 'ServiceAccount a/x', path: [...direct(), 'create serviceaccounts/token for a/x', 'ServiceAccount a/x'] },
    ]);
    expect(others([...holds([rule([''], ['serviceaccounts'], ['impersonate'], ['y'])]), serviceAccount('a', 'x'), serviceAccount('a', 'y')])).toEqual([
      { identity: 'ServiceAccount a/y', path: [...direct(), 'impersonate ServiceAccount a/y', 'ServiceAccount a/y'] },
    ]);
  });

  test('refused: get serviceaccounts/token, create serviceaccounts (no subresource), impersonate users, another namespace', () => {
    const sas = [serviceAccount('a', 'x')];
    expect(ids([...holds([rule([''], ['serviceaccounts/token'], ['get'])]), ...sas])).toEqual([]);
    expect(ids([...holds([rule([''], ['serviceaccounts'], ['create'])]), ...sas])).toEqual([]);
    // b has no ServiceAccount the input knows of
    expect(ids([...holds([rule([''], ['serviceaccounts'], ['impersonate'])], 'b'), ...sas])).toEqual([]);
  });

  test('create secrets with a read of secrets from any grant of the scope: every ServiceAccount of the namespace', () => {
    const step = (sa: string) => `create secret in a of type kubernetes.io/service-account-token for ServiceAccount ${sa}, then read it`;
    // create and the read in two Roles bound to the identity: one grant needs not hold both
    const objects = (read: PolicyRule) => [
      ...holds([rule([''], ['secrets'], ['create'])]),
      role('a', 'reader', [read]), roleBinding('a', 'reader', 'Role', 'reader'), serviceAccount('a', 'x'),
    ];
    const expected = [
      { identity: 'ServiceAccount a/default', path: [...direct(), step('default'), 'ServiceAccount a/default'] },
      { identity: 'ServiceAccount a/x', path: [...direct(), step('x'), 'ServiceAccount a/x'] },
    ];
    expect(others(objects(rule([''], ['secrets'], ['get'], ['mine'])))).toEqual(expected);
    expect(others(objects(rule([''], ['secrets'], ['list'])))).toEqual(expected);
    expect(others(objects(rule([''], ['secrets'], ['watch'])))).toEqual(expected);
    // a named list or watch (fieldSelector metadata.name) of the name it gives the new Secret
    expect(others(objects(rule([''], ['secrets'], ['list'], ['mine'])))).toEqual(expected);
    expect(others(objects(rule([''], ['secrets'], ['watch'], ['mine'])))).toEqual(expected);
    // refused: no read, a read in another namespace, create limited to names (a create request has no name)
    expect(ids(objects(rule([''], ['configmaps'], ['get', 'list', 'watch'])))).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets'], ['create'])]), ...holds([rule([''], ['secrets'], ['get'])], 'b'), serviceAccount('a', 'x')])).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets'], ['create', 'get'], ['x-token'])]), serviceAccount('a', 'x')])).toEqual([]);
  });
});

describe('workloads: creating one, or changing the pod template of one that exists', () => {
  test('update of the second workload by name (the first is not allowed)', () => {
    const objects = [
      ...holds([rule(['apps'], ['deployments'], ['update'], ['second'])]),
      deployment('a', 'first', 'x'), deployment('a', 'second', 'y'),
    ];
    // every ServiceAccount of the namespace: the template may name any
    expect(others(objects)).toEqual(['default', 'x', 'y'].map((sa) => ({
      identity: `ServiceAccount a/${sa}`,
      path: [...direct(), `update deployments.apps Deployment a/second to run as ServiceAccount ${sa}`, `ServiceAccount a/${sa}`],
    })));
  });

  test('create pods: every ServiceAccount of the namespace; not in another namespace, not pods/status', () => {
    const objects = [...holds([rule([''], ['pods'], ['create'])]), serviceAccount('a', 'x'), serviceAccount('b', 'y')];
    expect(others(objects)).toEqual(['default', 'x'].map((sa) => ({
      identity: `ServiceAccount a/${sa}`, path: [...direct(), `create pods in a running as ServiceAccount ${sa}`, `ServiceAccount a/${sa}`],
    })));
    expect(ids([...holds([rule([''], ['pods/status'], ['create'])]), serviceAccount('a', 'x')])).toEqual([]);
  });
});

describe('nodes/proxy: the kubelet exec into every pod of the input, namespaces in order', () => {
  test('pods of namespaces b then a: a first', () => {
    const objects = [...holds([rule([''], ['nodes/proxy'], ['get'])], ''), pod('b', 'p', 'y'), pod('a', 'q', 'x')];
    expect(others(objects)).toEqual([
      { identity: 'ServiceAccount a/x', path: [...direct(''), 'get nodes/proxy (kubelet exec into Pod a/q, runs as x)', 'ServiceAccount a/x'] },
      { identity: 'ServiceAccount b/y', path: [...direct(''), 'get nodes/proxy (kubelet exec into Pod b/p, runs as y)', 'ServiceAccount b/y'] },
    ]);
  });

  test('pods/exec cluster-wide: the pods of every namespace, in order', () => {
    const objects = [...holds([rule([''], ['pods/exec'], ['create'])], ''), pod('b', 'p', 'y'), pod('a', 'q', 'x')];
    expect(ids(objects)).toEqual(['ServiceAccount a/x', 'ServiceAccount b/y']);
  });
});

describe('ClusterObjectSets: operator-controller applies their objects as cluster-admin', () => {
  const objectSetGrant = (verb: string): PowerGrant => ({
    namespace: '',
    rules: CLUSTER_ADMIN_RULES,
    roleKind: 'ClusterRole',
    roleName: 'cluster-admin',
    roleOrigin: RoleOrigin.BUILT_IN,
    holder: OP,
    path: [...direct(''), `${verb} clusterobjectsets.${OLM_V1} (operator-controller applies their objects as cluster-admin)`, 'ClusterRole cluster-admin (operator-controller\'s client)'],
    direct: false,
    // the deputy row of mechanisms/deputies.ts whose client holds the rules (issue 37)
    deputy: 'olm-v1-object-sets',
  });

  test('create; update or patch of a named one (its phases may still be empty)', () => {
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['create'])], ''))).toEqual([objectSetGrant('create')]);
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['update'], ['s'])], ''))).toEqual([objectSetGrant('update')]);
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['patch'], ['s'])], ''))).toEqual([objectSetGrant('patch')]);
    expect(power(holds([rule([OLM_V1], ['clusterobjectsets'], ['patch'])], '')).unbounded).toBe(true);
  });

  test('refused: create limited to names, get, another group, a status subresource, a namespaced grant', () => {
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['create'], ['s'])], ''))).toEqual([]);
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['get', 'list', 'watch', 'delete'])], ''))).toEqual([]);
    expect(gained(holds([rule(['olm.operatorframework.io.x'], ['clusterobjectsets'], ['create', 'update'])], ''))).toEqual([]);
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets/status'], ['create', 'update', 'patch'])], ''))).toEqual([]);
    expect(gained(holds([rule([OLM_V1], ['clusterobjectsets'], ['create', 'update', 'patch'])]))).toEqual([]);
    // through a RoleBinding to a ClusterRole: the rules hold in the namespace only
    expect(gained([clusterRole('cos', [rule([OLM_V1], ['clusterobjectsets'], ['create'])]), roleBinding('a', 'cos', 'ClusterRole', 'cos')])).toEqual([]);
  });
});

describe('impersonating users and groups', () => {
  test('any user, any group: any identity', () => {
    for (const [resource, kind] of [['users', 'User'], ['groups', 'Group']]) {
      const p = power(holds([rule([''], [resource], ['impersonate'])], ''));
      expect(p.identities.slice(1)).toEqual([{ identity: '*', path: [...direct(''), `impersonate any ${kind}`, '*'] }]);
      expect(p.unbounded).toBe(true);
    }
  });

  test('named ones: that user (a ServiceAccount\'s user name is the ServiceAccount), that group', () => {
    expect(others(holds([rule([''], ['users'], ['impersonate'], ['alice', 'system:serviceaccount:b:x'])], ''))).toEqual([
      { identity: 'User alice', path: [...direct(''), 'impersonate User alice', 'User alice'] },
      { identity: 'ServiceAccount b/x', path: [...direct(''), 'impersonate User system:serviceaccount:b:x', 'ServiceAccount b/x'] },
    ]);
    // a group named like a ServiceAccount's user name stays a group
    expect(others(holds([rule([''], ['groups'], ['impersonate'], ['admins', 'system:serviceaccount:b:x'])], ''))).toEqual([
      { identity: 'Group admins', path: [...direct(''), 'impersonate Group admins', 'Group admins'] },
      { identity: 'Group system:serviceaccount:b:x', path: [...direct(''), 'impersonate Group system:serviceaccount:b:x', 'Group system:serviceaccount:b:x'] },
    ]);
  });

  test('refused: a namespaced grant, another verb, userextras', () => {
    expect(ids(holds([rule([''], ['users', 'groups'], ['impersonate'])]))).toEqual([]);
    expect(ids(holds([rule([''], ['users', 'groups'], ['create', 'get', 'update'])], ''))).toEqual([]);
    expect(ids(holds([rule(['authentication.k8s.io'], ['userextras/scopes'], ['impersonate'])], ''))).toEqual([]);
  });
});

describe('certificate signing requests: a client certificate for any user', () => {
  const csrRules = (approvalVerb: string, signer: string) => [
    rule([CERTS], ['certificatesigningrequests'], ['create']),
    rule([CERTS], ['certificatesigningrequests/approval'], [approvalVerb], ['mine']),
    rule([CERTS], ['signers'], ['approve'], [signer]),
  ];
  const step = (verb: string, signer: string) => `create certificatesigningrequests, ${verb} certificatesigningrequests/approval (ClusterRole op), `
    + `approve signers ${signer} (ClusterRole op): kube-controller-manager signs a client certificate for any user or group but system:masters`;

  test('create, approval by update or patch (a named CSR: the requester names it), approve on the signer or kubernetes.io/*', () => {
    expect(others(holds(csrRules('update', 'kubernetes.io/kube-apiserver-client'), ''))).toEqual([
      { identity: '*', path: [...direct(''), step('update', 'kubernetes.io/kube-apiserver-client'), '*'] },
    ]);
    expect(others(holds(csrRules('patch', 'kubernetes.io/*'), ''))).toEqual([{ identity: '*', path: [...direct(''), step('patch', 'kubernetes.io/*'), '*'] }]);
  });

  test('the kubelet client signer: a certificate for any node, whose pods\' ServiceAccount tokens the node authorizer hands out (unbounded)', () => {
    const kubelet = 'kubernetes.io/kube-apiserver-client-kubelet';
    expect(others(holds(csrRules('patch', kubelet), ''))).toEqual([{
      identity: '*',
      path: [...direct(''), `create certificatesigningrequests, patch certificatesigningrequests/approval (ClusterRole op), approve signers ${kubelet} (ClusterRole op): `
        + 'kube-controller-manager signs a client certificate for any node (system:node:<name>), and the node authorizer lets a node create tokens for the '
        + 'ServiceAccounts of the pods bound to it (OLM\'s cluster-admin operators among them)', '*'],
    }]);
    // with both signers, the client signer's path (it names any user directly)
    expect(others(holds([...csrRules('update', kubelet), rule([CERTS], ['signers'], ['approve'], ['kubernetes.io/kube-apiserver-client'])], '')))
      .toEqual([{ identity: '*', path: [...direct(''), step('update', 'kubernetes.io/kube-apiserver-client'), '*'] }]);
  });

  test('refused: each ingredient missing or changed', () => {
    const [create, approval, signer] = csrRules('update', 'kubernetes.io/kube-apiserver-client');
    expect(ids(holds([approval, signer], ''))).toEqual([]);
    expect(ids(holds([rule([CERTS], ['certificatesigningrequests'], ['create'], ['mine']), approval, signer], ''))).toEqual([]);
    expect(ids(holds([create, signer], ''))).toEqual([]);
    expect(ids(holds([create, rule([CERTS], ['certificatesigningrequests/status'], ['update', 'patch']), signer], ''))).toEqual([]);
    expect(ids(holds([create, approval], ''))).toEqual([]);
    expect(ids(holds([create, approval, rule([CERTS], ['signers'], ['approve'], ['kubernetes.io/kubelet-serving'])], ''))).toEqual([]);
    // a near name of the kubelet client signer, and the kubelet signer namespaced
    expect(ids(holds([create, approval, rule([CERTS], ['signers'], ['approve'], ['kubernetes.io/kube-apiserver-client-kubelet-x'])], ''))).toEqual([]);
    expect(ids(holds(csrRules('update', 'kubernetes.io/kube-apiserver-client-kubelet')))).toEqual([]);
    expect(ids(holds([create, approval, rule([CERTS], ['signers'], ['sign'])], ''))).toEqual([]);
    expect(ids(holds([create, approval, rule([''], ['signers'], ['approve'])], ''))).toEqual([]);
    expect(ids(holds([rule([''], ['certificatesigningrequests'], ['create']), approval, signer], ''))).toEqual([]);
    // namespaced: CSRs and signers are cluster-scoped
    expect(ids(holds([create, approval, signer]))).toEqual([]);
  });
});


/** A grant the closure adds to a/op (not direct). */
const grant = (namespace: string, roleKind: string, roleName: string, roleOrigin: RoleOrigin, rules: PolicyRule[], path: string[]): PowerGrant =>
  ({ namespace, rules, roleKind, roleName, roleOrigin, holder: OP, path, direct: false });
const PODS_GET = [rule([''], ['pods'], ['get'])];
const podsGet = PODS_GET.map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources }));

describe('bind: create on the binding and bind on the role', () => {
  test('a named Role, a named ClusterRole through a RoleBinding, in the namespace', () => {
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['roles'], ['bind'], ['x'])]), role('a', 'x', PODS_GET)])).toEqual([
      grant('a', 'Role', 'x', RoleOrigin.DEFINED, podsGet, [...direct(), 'bind Role x with create rolebindings (Role op) in a', 'Role a/x (the App)']),
    ]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['clusterroles'], ['bind'], ['y'])]), clusterRole('y', PODS_GET)])).toEqual([
      grant('a', 'ClusterRole', 'y', RoleOrigin.DEFINED, podsGet, [...direct(), 'bind ClusterRole y with create rolebindings (Role op) in a', 'ClusterRole y (the App)']),
    ]);
  });

  test('cluster-wide: a named ClusterRole with create clusterrolebindings', () => {
    expect(gained([...holds([rule([RBAC], ['clusterrolebindings'], ['create']), rule([RBAC], ['clusterroles'], ['bind'], ['y'])], ''), clusterRole('y', PODS_GET)])).toEqual([
      grant('', 'ClusterRole', 'y', RoleOrigin.DEFINED, podsGet, [...direct(''), 'bind ClusterRole y with create clusterrolebindings (ClusterRole op) cluster-wide', 'ClusterRole y (the App)']),
    ]);
  });

  test('bind on any ClusterRole: cluster-admin in the namespace; a named one beside it, and cluster-admin named, keep their names', () => {
    const any = gained([...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['clusterroles'], ['bind']), rule([RBAC], ['clusterroles'], ['bind'], ['y'])]), clusterRole('y', PODS_GET)]);
    expect(any.map((g) => [g.namespace, g.roleKind, g.roleName, g.roleOrigin, g.path.slice(3)])).toEqual([
      ['a', 'ClusterRole', 'cluster-admin', RoleOrigin.BUILT_IN, ['bind any ClusterRole (e.g. cluster-admin) with create rolebindings (Role op) in a', expect.stringMatching(/^ClusterRole cluster-admin \(built-in, /)]],
      ['a', 'ClusterRole', 'y', RoleOrigin.DEFINED, ['bind ClusterRole y with create rolebindings (Role op) in a', 'ClusterRole y (the App)']],
    ]);
    const named = gained(holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['clusterroles'], ['bind'], ['cluster-admin'])]));
    expect(named.map((g) => [g.namespace, g.roleName, g.roleOrigin, g.path[3]])).toEqual([
      ['a', 'cluster-admin', RoleOrigin.BUILT_IN, 'bind ClusterRole cluster-admin with create rolebindings (Role op) in a'],
    ]);
  });

  test('a role it may also rewrite by name (escalate + update): everything in the scope', () => {
    expect(gained([
      ...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['roles'], ['bind', 'escalate', 'update'], ['x'])]), role('a', 'x', PODS_GET),
    ])).toEqual([
      grant('a', 'Role', 'x (rewritten, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(), 'bind Role x with create rolebindings (Role op) in a', 'Role a/x (the App)']),
    ]);
  });

  test('bind on any ClusterRole: cluster-admin as it is, even where it may rewrite cluster-admin', () => {
    const objects = [
      ...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['clusterroles'], ['bind'])]),
      clusterRole('rw', [rule([RBAC], ['clusterroles'], ['escalate', 'update'], ['cluster-admin'])]), clusterRoleBinding('rw', 'rw'),
    ];
    expect(brief(objects)).toEqual([`a|BUILT_IN|ClusterRole cluster-admin|${OP}`]);
  });

  test('refused: no create, create limited to names, bind on another name, in another namespace, Role bind cluster-wide, no gain', () => {
    const x = role('a', 'x', PODS_GET);
    expect(gained([...holds([rule([RBAC], ['roles'], ['bind'], ['x'])]), x])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['create'], ['mine']), rule([RBAC], ['roles'], ['bind'], ['x'])]), x])).toEqual([]);
    expect(brief([...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['roles'], ['bind'], ['other'])]), x, role('a', 'other', [rule([''], ['configmaps'], ['get'])])]))
      .toEqual([`a|DEFINED|Role other|${OP}`]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['create'])]), ...holds([rule([RBAC], ['roles'], ['bind'], ['x'])], 'b'), x])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['roles'], ['bind'], ['x']), ...PODS_GET]), x])).toEqual([]);
    // cluster-wide, create clusterrolebindings: a ClusterRoleBinding refers to ClusterRoles only
    expect(gained([...holds([rule([RBAC], ['clusterrolebindings'], ['create']), rule([RBAC], ['roles'], ['bind'], ['x'])], ''), x])).toEqual([]);
  });
});

describe('escalate: any rules in the scope', () => {
  test('in a namespace, through a Role or a ClusterRole bound by a RoleBinding', () => {
    const expected = [grant('a', 'Role', '(any rules, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(), 'escalate + write roles in a', 'any rules in a (escalate)'])];
    expect(gained(holds([rule([RBAC], ['roles'], ['escalate', 'create'])]))).toEqual(expected);
    const viaClusterRole = gained([clusterRole('esc', [rule([RBAC], ['roles'], ['escalate', 'create'])]), roleBinding('a', 'esc', 'ClusterRole', 'esc')]);
    expect(viaClusterRole).toEqual([{ ...expected[0], path: [OP, 'RoleBinding a/esc (the App)', 'ClusterRole esc (the App)', 'escalate + write roles in a', 'any rules in a (escalate)'] }]);
  });

  test('clusterroles in a namespace: also any rules there (a RoleBinding may refer to the new ClusterRole)', () => {
    expect(gained(holds([rule([RBAC], ['clusterroles'], ['escalate', 'create'])]))).toEqual([
      grant('a', 'Role', '(any rules, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(), 'escalate + write clusterroles in a', 'any rules in a (escalate)']),
    ]);
  });

  test('cluster-wide: cluster-admin\'s rules, unbounded', () => {
    const p = power(holds([rule([RBAC], ['clusterroles'], ['escalate', 'create'])], ''));
    expect(p.grants.filter((g) => !g.direct)).toEqual([
      grant('', 'ClusterRole', '(any rules, escalate)', RoleOrigin.ESCALATE, CLUSTER_ADMIN_RULES, [...direct(''), 'escalate + write clusterroles cluster-wide', 'any rules cluster-wide (escalate)']),
      // the cluster-wide rules hold in namespace a (the subject's) too, found in the same round
      grant('a', 'Role', '(any rules, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(''), 'escalate + write clusterroles in a', 'any rules in a (escalate)']),
    ]);
    expect(p.unbounded).toBe(true);
  });
});

describe('rewriting a role by name (escalate + update or patch on it): every binding of it to an identity reached', () => {
  test('a Role: everything in its namespace', () => {
    expect(gained([...holds([rule([RBAC], ['roles'], ['escalate', 'update'], ['x'])]), role('a', 'x', PODS_GET), roleBinding('a', 'x', 'Role', 'x')])).toEqual([
      grant('a', 'Role', 'x (rewritten, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(),
        'escalate + update Role a/x by name (Role op): rewrite its rules to *', 'RoleBinding a/x (the App) binds it to ServiceAccount a/op', 'any rules in a (escalate)']),
    ]);
  });

  test('escalate and patch from two roles; a Role named like a built-in aggregated ClusterRole', () => {
    const objects = [
      ...holds([rule([RBAC], ['roles'], ['escalate'], ['admin'])]),
      role('a', 'patcher', [rule([RBAC], ['roles'], ['patch'], ['admin'])]), roleBinding('a', 'patcher', 'Role', 'patcher'),
      role('a', 'admin', PODS_GET), roleBinding('a', 'admin', 'Role', 'admin'),
    ];
    expect(gained(objects)).toEqual([
      grant('a', 'Role', 'admin (rewritten, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(),
        'escalate + patch Role a/admin by name (Role patcher): rewrite its rules to *', 'RoleBinding a/admin (the App) binds it to ServiceAccount a/op', 'any rules in a (escalate)']),
    ]);
  });

  test('a ClusterRole (cluster-wide grants): everything in the namespace of a RoleBinding, everything of a ClusterRoleBinding', () => {
    const rw = [rule([RBAC], ['clusterroles'], ['escalate', 'update'], ['x'])];
    const step = 'escalate + update ClusterRole x by name (ClusterRole op): rewrite its rules to *';
    expect(gained([...holds(rw, ''), clusterRole('x', PODS_GET), roleBinding('b', 'x', 'ClusterRole', 'x')])).toEqual([
      grant('b', 'ClusterRole', 'x (rewritten, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(''), step, 'RoleBinding b/x (the App) binds it to ServiceAccount a/op', 'any rules in b (escalate)']),
    ]);
    const p = power([...holds(rw, ''), clusterRole('x', PODS_GET), clusterRoleBinding('x', 'x')]);
    expect(p.grants.filter((g) => !g.direct)).toEqual([
      grant('', 'ClusterRole', 'x (rewritten, escalate)', RoleOrigin.ESCALATE, CLUSTER_ADMIN_RULES, [...direct(''), step, 'ClusterRoleBinding x (the App) binds it to ServiceAccount a/op', 'any rules cluster-wide (escalate)']),
    ]);
    expect(p.unbounded).toBe(true);
  });

  test('refused: an aggregated ClusterRole (its aggregationRule needs * on *), escalate on another name, clusterroles from a namespaced grant, no write', () => {
    const agg = clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { k: 'v' } }] } });
    const rw = (name: string) => holds([rule([RBAC], ['clusterroles'], ['escalate', 'update'], [name])], '');
    expect(brief([...rw('agg'), agg, roleBinding('a', 'agg', 'ClusterRole', 'agg')])).toEqual([]);
    expect(brief([...rw('admin'), roleBinding('a', 'adm', 'ClusterRole', 'admin')])).toEqual([]);
    expect(brief([...holds([rule([RBAC], ['roles'], ['escalate'], ['y']), rule([RBAC], ['roles'], ['update'], ['x'])]), role('a', 'x', PODS_GET), roleBinding('a', 'x', 'Role', 'x')])).toEqual([]);
    // clusterroles are cluster-scoped: a Role's rules on them authorize nothing
    expect(brief([...holds([rule([RBAC], ['clusterroles'], ['escalate', 'update'], ['x'])]), clusterRole('x', PODS_GET), roleBinding('a', 'x', 'ClusterRole', 'x')])).toEqual([]);
    expect(brief([...holds([rule([RBAC], ['roles'], ['escalate', 'get', 'create'], ['x'])]), role('a', 'x', PODS_GET), roleBinding('a', 'x', 'Role', 'x')])).toEqual([]);
    // another namespace's Role of that name
    expect(brief([...holds([rule([RBAC], ['roles'], ['escalate', 'update'], ['x'])], 'b'), role('a', 'x', PODS_GET), roleBinding('a', 'x', 'Role', 'x')])).toEqual([]);
  });
});

describe('updating a named binding to add itself, with bind on its role', () => {
  const other = [{ kind: 'User', name: 'u' }];
  test('a RoleBinding (update or patch), a ClusterRoleBinding', () => {
    const objects = (verb: string) => [
      ...holds([rule([RBAC], ['rolebindings'], [verb], ['rb']), rule([RBAC], ['roles'], ['bind'], ['x'])]), role('a', 'x', PODS_GET), roleBinding('a', 'rb', 'Role', 'x', other),
    ];
    for (const verb of ['update', 'patch']) {
      expect(gained(objects(verb))).toEqual([
        grant('a', 'Role', 'x', RoleOrigin.DEFINED, podsGet, [...direct(),
          `${verb} RoleBinding a/rb by name (the App) to add itself as a subject, with bind Role x (Role op)`, 'Role a/x (the App)']),
      ]);
    }
    expect(gained([
      ...holds([rule([RBAC], ['clusterrolebindings'], ['update'], ['crb']), rule([RBAC], ['clusterroles'], ['bind'], ['y'])], ''), clusterRole('y', PODS_GET), clusterRoleBinding('crb', 'y', other),
    ])).toEqual([
      grant('', 'ClusterRole', 'y', RoleOrigin.DEFINED, podsGet, [...direct(''),
        'update ClusterRoleBinding crb by name (the App) to add itself as a subject, with bind ClusterRole y (ClusterRole op)', 'ClusterRole y (the App)']),
    ]);
  });

  test('a RoleBinding to a ClusterRole; one whose role it may also rewrite: everything in the namespace', () => {
    expect(gained([
      ...holds([rule([RBAC], ['rolebindings'], ['update'], ['rb']), rule([RBAC], ['clusterroles'], ['bind'], ['y'])]), clusterRole('y', PODS_GET), roleBinding('a', 'rb', 'ClusterRole', 'y', other),
    ])).toEqual([
      grant('a', 'ClusterRole', 'y', RoleOrigin.DEFINED, podsGet, [...direct(),
        'update RoleBinding a/rb by name (the App) to add itself as a subject, with bind ClusterRole y (Role op)', 'ClusterRole y (the App)']),
    ]);
    expect(gained([
      ...holds([rule([RBAC], ['rolebindings'], ['update'], ['rb']), rule([RBAC], ['roles'], ['bind', 'escalate', 'update'], ['x'])]), role('a', 'x', PODS_GET), roleBinding('a', 'rb', 'Role', 'x', other),
    ])).toEqual([
      grant('a', 'Role', 'x (rewritten, escalate)', RoleOrigin.ESCALATE, NAMESPACE_ADMIN_RULES, [...direct(),
        'update RoleBinding a/rb by name (the App) to add itself as a subject, with bind Role x (Role op)', 'Role a/x (the App)']),
    ]);
  });

  test('cluster-wide grants: the bindings of every namespace, in order', () => {
    const objects = [
      ...holds([rule([RBAC], ['rolebindings'], ['update']), rule([RBAC], ['roles'], ['bind'])], ''),
      role('c', 'x', PODS_GET), roleBinding('c', 'rb', 'Role', 'x', other), role('b', 'x', PODS_GET), roleBinding('b', 'rb', 'Role', 'x', other),
    ];
    expect(brief(objects)).toEqual([`b|DEFINED|Role x|${OP}`, `c|DEFINED|Role x|${OP}`]);
  });

  test('refused: no bind, bind on another role, another binding\'s name, another namespace, a role it holds, get, a roleRef of another kind', () => {
    const x = role('a', 'x', PODS_GET);
    const rb = roleBinding('a', 'rb', 'Role', 'x', other);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['update', 'patch'], ['rb'])]), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['update'], ['rb']), rule([RBAC], ['roles'], ['bind'], ['y']), rule([RBAC], ['clusterroles'], ['bind'])]), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['update'], ['other']), rule([RBAC], ['roles'], ['bind'])]), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['update']), rule([RBAC], ['roles'], ['bind'])], 'b'), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['update'], ['rb']), rule([RBAC], ['roles'], ['bind'], ['x']), ...PODS_GET]), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['rolebindings'], ['get', 'create'], ['rb']), rule([RBAC], ['roles'], ['bind'], ['x'])]), x, rb])).toEqual([]);
    expect(gained([...holds([rule([RBAC], ['clusterrolebindings'], ['update'], ['rb']), rule([RBAC], ['roles'], ['bind'], ['x'])], ''), x, rb])).toEqual([]);
    // the API server refuses a roleRef kind other than Role and ClusterRole: no such binding exists
    expect(gained([
      ...holds([rule([RBAC], ['rolebindings'], ['update']), rule([RBAC], ['roles', 'clusterroles'], ['bind'])]), x, roleBinding('a', 'rb', 'role', 'x', other),
    ])).toEqual([]);
  });
});

describe('namespaces in order', () => {
  test('identities and grants of namespaces c and b (bound in that order): b first', () => {
    const objects = [
      ...holds([rule([''], ['secrets'], ['list']), rule([RBAC], ['roles'], ['escalate', 'create'])], 'c'),
      ...holds([rule([''], ['secrets'], ['list']), rule([RBAC], ['roles'], ['escalate', 'create'])], 'b'),
      tokenSecret('c', 't', 'y'), tokenSecret('b', 't', 'x'),
    ];
    const p = power(objects);
    expect(p.identities.map((i) => i.identity).slice(0, 3)).toEqual([OP, 'ServiceAccount b/x', 'ServiceAccount c/y']);
    expect(p.grants.filter((g) => !g.direct).map((g) => `${g.namespace}|${g.roleName}`)).toEqual(['b|(any rules, escalate)', 'c|(any rules, escalate)']);
  });

  test('a namespace of more than one letter', () => {
    const objects = [role('team-a', 'x', PODS_GET), roleBinding('team-a', 'x', 'Role', 'x', [{ kind: 'ServiceAccount', name: 'op', namespace: 'team-a' }])];
    expect(power(objects, { kind: SubjectKind.SERVICE_ACCOUNT, name: 'op', namespace: 'team-a' }).grants.map((g) => g.path)).toEqual([
      ['ServiceAccount team-a/op', 'RoleBinding team-a/x (the App)', 'Role team-a/x (the App)'],
    ]);
  });
});

describe('bind beside bind on any role: a named role it may rewrite is still rewritten', () => {
  test('bind on any Role and on Role x, escalate + update on x', () => {
    const objects = [
      ...holds([rule([RBAC], ['rolebindings'], ['create']), rule([RBAC], ['roles'], ['bind']), rule([RBAC], ['roles'], ['bind', 'escalate', 'update'], ['x'])]),
      role('a', 'x', PODS_GET),
    ];
    expect(brief(objects)).toEqual([`a|UNKNOWN|Role cluster-admin|${OP}`, `a|ESCALATE|Role x (rewritten, escalate)|${OP}`]);
  });
});

describe('helpers: ruleAllows, isEverything, labels, the user of a label, aggregation selectors', () => {
  test('allows: verb *, and a resource with a slash beside a subresource given (not split)', () => {
    expect(EffectivePower.allows([rule([''], ['pods'], ['*'])], { verb: 'delete', resource: 'pods' })).toBe(true);
    expect(EffectivePower.allows([rule([''], ['pods/exec'], ['create'])], { verb: 'create', resource: 'pods/exec', subresource: 'log' })).toBe(false);
    expect(EffectivePower.allows([rule([''], ['pods/exec/log'], ['create'])], { verb: 'create', resource: 'pods/exec', subresource: 'log' })).toBe(true);
  });

  test('allows: a resource given as resource/subresource', () => {
    const allows = (rules: PolicyRule[], resource: string) => EffectivePower.allows(rules, { verb: 'create', resource });
    expect(allows([rule([''], ['pods/exec'], ['create'])], 'pods/exec')).toBe(true);
    expect(allows([rule([''], ['*/exec'], ['create'])], 'pods/exec')).toBe(true);
    expect(allows([rule([''], ['pods'], ['create'])], 'pods/exec')).toBe(false);
    expect(allows([rule([''], ['exec'], ['create'])], 'pods/exec')).toBe(false);
    expect(allows([rule([''], ['*/'], ['create'])], 'pods')).toBe(false);
    expect(allows([rule([''], ['*/'], ['create'])], 'pods/')).toBe(false);
    expect(allows([rule([''], [''], ['create'])], 'pods/exec')).toBe(false);
    expect(allows([rule([''], ['pods'], ['create'])], 'pods')).toBe(true);
    // a subresource given (even empty): the resource is not split
    expect(EffectivePower.allows([rule([''], ['pods'], ['create'])], { verb: 'create', resource: 'pods/exec', subresource: '' })).toBe(false);
    expect(EffectivePower.allows([rule([''], ['pods/exec'], ['create'])], { verb: 'create', resource: 'pods/exec', subresource: '' })).toBe(true);
  });

  test('isEverything: * on * of *, without names', () => {
    expect(EffectivePower.isEverything([rule(['*'], ['*'], ['*'])])).toBe(true);
    expect(EffectivePower.isEverything([rule(['*'], ['*'], ['get'])])).toBe(false);
    expect(EffectivePower.isEverything([rule([''], ['*'], ['*'])])).toBe(false);
    expect(EffectivePower.isEverything([rule(['*'], ['pods'], ['*'])])).toBe(false);
    expect(EffectivePower.isEverything([rule(['*'], ['*'], ['*'], ['x'])])).toBe(false);
  });

  test('a ServiceAccount subject without namespace: labelled with an empty one, matches no binding', () => {
    const subject: RbacSubject = { kind: SubjectKind.SERVICE_ACCOUNT, name: 'x' };
    expect(EffectivePower.label(subject)).toBe('ServiceAccount /x');
    expect(power([role('a', 'x', PODS_GET), roleBinding('a', 'x', 'Role', 'x', [{ kind: 'ServiceAccount', name: 'x', namespace: 'a' }])], subject))
      .toEqual({ subject: 'ServiceAccount /x', identities: [{ identity: 'ServiceAccount /x', path: ['ServiceAccount /x'] }], grants: [], unbounded: false });
  });

  test('label: a User named like a ServiceAccount is it, a Group is not', () => {
    expect(EffectivePower.label({ kind: SubjectKind.USER, name: 'system:serviceaccount:a:x' })).toBe('ServiceAccount a/x');
    expect(EffectivePower.label({ kind: SubjectKind.GROUP, name: 'system:serviceaccount:a:x' })).toBe('Group system:serviceaccount:a:x');
  });

  test('a User and a Group reach their own bindings (and system:authenticated\'s), nothing of a ServiceAccount named inside their names', () => {
    const objects = [
      // one role each: grants of one role in one scope count once
      ...['alice', 'admins', 'sa', 'all'].map((name) => role('a', name, PODS_GET)),
      roleBinding('a', 'alice', 'Role', 'alice', [{ kind: 'User', name: 'alice' }]),
      roleBinding('a', 'admins', 'Role', 'admins', [{ kind: 'Group', name: 'admins' }]),
      roleBinding('a', 'sa', 'Role', 'sa', [{ kind: 'ServiceAccount', name: 'x', namespace: 'a' }]),
      roleBinding('a', 'all', 'Role', 'all', [{ kind: 'Group', name: 'system:authenticated' }]),
    ];
    const bindings = (subject: RbacSubject) => power(objects, subject).grants.map((g) => g.path[1]);
    expect(bindings({ kind: SubjectKind.USER, name: 'alice' })).toEqual(['RoleBinding a/alice (the App)', 'RoleBinding a/all (the App)']);
    expect(bindings({ kind: SubjectKind.GROUP, name: 'admins' })).toEqual(['RoleBinding a/admins (the App)', 'RoleBinding a/all (the App)']);
    expect(bindings({ kind: SubjectKind.USER, name: 'evil ServiceAccount a/x' })).toEqual(['RoleBinding a/all (the App)']);
  });

  test('any identity reached while a role may be rewritten: the closure ends unbounded (the label `*` has no user)', () => {
    const p = power(holds([rule([''], ['users'], ['impersonate']), rule([RBAC], ['roles'], ['escalate', 'update'], ['x'])], ''));
    expect(p.identities.map((i) => i.identity)).toEqual([OP, '*']);
    expect(p.unbounded).toBe(true);
  });

  test('an invalid aggregation selector selects nothing (the API server refuses it)', () => {
    const objects = [
      clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { k: 'v' }, matchExpressions: [{ key: 'x', operator: 'Bogus' }] }] } }),
      m({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'member', labels: { k: 'v', x: 'y' } }, rules: PODS_GET }),
      roleBinding('a', 'agg', 'ClusterRole', 'agg'),
    ];
    expect(power(objects).grants.map((g) => [g.roleName, g.rules])).toEqual([['agg', []]]);
  });
});
