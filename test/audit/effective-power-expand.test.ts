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
import { EffectivePower, PowerGrant, PowerObject, RbacSubject, ReachedIdentity, RoleOrigin, SubjectKind } from '../../src/audit/effective-power';
import { CLUSTER_ADMIN_RULES, NAMESPACE_ADMIN_RULES } from '../../src/audit/builtin-roles';
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

  test('refused: get of another name, list/watch limited to names (a list request has no name), another namespace, secrets/status', () => {
    const secret = tokenSecret('a', 't', 'x');
    expect(ids([...holds([rule([''], ['secrets'], ['get'], ['other'])]), secret])).toEqual([]);
    expect(ids([...holds([rule([''], ['secrets'], ['list', 'watch'], ['t'])]), secret])).toEqual([]);
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

  test('refused: each ingredient missing or changed', () => {
    const [create, approval, signer] = csrRules('update', 'kubernetes.io/kube-apiserver-client');
    expect(ids(holds([approval, signer], ''))).toEqual([]);
    expect(ids(holds([rule([CERTS], ['certificatesigningrequests'], ['create'], ['mine']), approval, signer], ''))).toEqual([]);
    expect(ids(holds([create, signer], ''))).toEqual([]);
    expect(ids(holds([create, rule([CERTS], ['certificatesigningrequests/status'], ['update', 'patch']), signer], ''))).toEqual([]);
    expect(ids(holds([create, approval], ''))).toEqual([]);
    expect(ids(holds([create, approval, rule([CERTS], ['signers'], ['approve'], ['kubernetes.io/kubelet-serving'])], ''))).toEqual([]);
    expect(ids(holds([create, approval, rule([CERTS], ['signers'], ['sign'])], ''))).toEqual([]);
    expect(ids(holds([create, approval, rule([''], ['signers'], ['approve'])], ''))).toEqual([]);
    expect(ids(holds([rule([''], ['certificatesigningrequests'], ['create']), approval, signer], ''))).toEqual([]);
    // namespaced: CSRs and signers are cluster-scoped
    expect(ids(holds([create, approval, signer]))).toEqual([]);
  });
});
