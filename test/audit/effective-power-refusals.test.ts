/**
 * Refusals tested as carefully as grants (issue 28): for every way the effective-power model lets an identity gain
 * power (escalate, bind, impersonate, token Secrets, TokenRequest, pod creation and workloads, pods/exec and attach,
 * ephemeral containers, a pod's image, nodes/proxy), the complete recipe grants it and each recipe with ONE ingredient missing or
 * changed (another verb, another resource, another name, another API group, the wrong scope) grants nothing.
 *
 * Kubernetes semantics: `pkg/registry/rbac/escalation_check.go` (`EscalationAllowed`, `RoleEscalationAuthorized`,
 * `BindingAuthorized`); `pkg/registry/rbac/role/policybased/storage.go` (create and update, PATCH reaching the same
 * Update); `staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go`; `pkg/kubelet/server/auth.go`.
 */
// the modules themselves, not the package root: every mutant of the mutation-testing target loads this file again
import { EffectivePower, PowerObject, RbacSubject, SubjectKind } from '../../src/audit/effective-power';
import { PolicyRule } from '../../src/rbac/policy-rule';

const RBAC = 'rbac.authorization.k8s.io';
const op: RbacSubject = { kind: SubjectKind.SERVICE_ACCOUNT, name: 'op', namespace: 'a' };
const opSubject = { kind: 'ServiceAccount', name: 'op', namespace: 'a' };

const rulesJson = (rules: PolicyRule[]) => rules.map((r) => ({
  verbs: r.verbs,
  ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
  ...(r.resources ? { resources: r.resources } : {}),
  ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
}));

/**
 * The world around `a/op`: ServiceAccount a/installer with its token Secret, a Deployment a/runner running as
 * a/runner-sa, a ClusterRole secret-reader; `op` holds `rules` through a Role in namespace a (scope 'a'), through
 * a ClusterRoleBinding (scope ''), or through a Role in namespace b (scope 'b').
 */
function world(rules: PolicyRule[], scope: '' | 'a' | 'b' = 'a'): EffectivePower {
  const objects: PowerObject[] = [
    { manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'a' } } },
    {
      manifest: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 'installer-token', namespace: 'a', annotations: { 'kubernetes.io/service-account.name': 'installer' } },
      },
    },
    { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'runner', namespace: 'a' }, spec: { template: { spec: { serviceAccountName: 'runner-sa' } } } } },
    { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'secret-reader' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }] } },
  ];
  if (scope === '') {
    objects.push(
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'op' }, rules: rulesJson(rules) } },
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'op' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'op' }, subjects: [opSubject] } },
    );
  } else {
    objects.push(
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'op', namespace: scope }, rules: rulesJson(rules) } },
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'op', namespace: scope }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'op' }, subjects: [opSubject] } },
    );
  }
  return new EffectivePower(objects);
}

interface Gain {
  /** Identities reached besides a/op itself. */
  readonly identities: string[];
  /** Grants reached besides the direct one, as `namespace|origin|role`. */
  readonly grants: string[];
  readonly unbounded: boolean;
}

function gain(rules: PolicyRule[], scope: '' | 'a' | 'b' = 'a'): Gain {
  const power = world(rules, scope).of(op);
  return {
    identities: power.identities.map((i) => i.identity).filter((i) => i !== 'ServiceAccount a/op'),
    grants: power.grants.filter((g) => !g.direct).map((g) => `${g.namespace}|${g.roleOrigin}|${g.roleName}`),
    unbounded: power.unbounded,
  };
}

const NOTHING: Gain = { identities: [], grants: [], unbounded: false };
const rule = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule =>
  ({ apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) });

interface Recipe {
  readonly name: string;
  readonly scope?: '' | 'a' | 'b';
  readonly rules: PolicyRule[];
  readonly grants: Gain;
  /** One ingredient missing or changed each: the power is not granted. */
  readonly refusals: Array<[string, PolicyRule[], ('' | 'a' | 'b')?]>;
}

/** Any rules in namespace a: every ServiceAccount of a follows (token Secrets, pods). */
const ESCALATE_NS: Gain = {
  identities: ['ServiceAccount a/installer', 'ServiceAccount a/default', 'ServiceAccount a/runner-sa'], grants: ['a|ESCALATE|(any rules, escalate)'], unbounded: false,
};

/**
 * ESCALATE_NS, and the identity's own Role `op` rewritten in place: an update or patch names the object, and the
 * escalation check is made against that name (k8s pkg/registry/rbac/role/policybased, issue 23 item 3).
 */
const ESCALATE_NS_OWN_ROLE: Gain = { ...ESCALATE_NS, grants: [...ESCALATE_NS.grants, 'a|ESCALATE|op (rewritten, escalate)'] };

const RECIPES: Recipe[] = [
  {
    name: 'escalate + create on roles (namespace a): any rules in a',
    rules: [rule([RBAC], ['roles'], ['escalate', 'create'])],
    grants: ESCALATE_NS,
    refusals: [
      ['escalate alone', [rule([RBAC], ['roles'], ['escalate'])]],
      ['escalate + get', [rule([RBAC], ['roles'], ['escalate', 'get'])]],
      ['escalate + list + watch', [rule([RBAC], ['roles'], ['escalate', 'list', 'watch'])]],
      ['escalate + delete', [rule([RBAC], ['roles'], ['escalate', 'delete'])]],
      ['create alone (the API server checks the new rules against the creator\'s)', [rule([RBAC], ['roles'], ['create'])]],
      ['escalate + create on rolebindings (another resource)', [rule([RBAC], ['roles'], ['escalate']), rule([RBAC], ['rolebindings'], ['create'])]],
      ['escalate + create in the core API group (not RBAC\'s)', [rule([''], ['roles'], ['escalate', 'create'])]],
      ['escalate on a named role only (create has no name)', [rule([RBAC], ['roles'], ['escalate'], ['x']), rule([RBAC], ['roles'], ['create'])]],
      ['escalate + create on roles/status (a subresource)', [rule([RBAC], ['roles/status'], ['escalate', 'create'])]],
    ],
  },
  {
    name: 'escalate + update on roles: any rules in a',
    rules: [rule([RBAC], ['roles'], ['escalate', 'update'])],
    grants: ESCALATE_NS_OWN_ROLE,
    refusals: [
      ['update alone', [rule([RBAC], ['roles'], ['update'])]],
      ['escalate + update on one named role (the escalate probe names another)', [rule([RBAC], ['roles'], ['escalate']), rule([RBAC], ['roles'], ['update'], ['x'])]],
    ],
  },
  {
    // PATCH is authorized as `patch`, then reaches the same storage Update whose escalation check `escalate` passes
    name: 'escalate + patch on roles: any rules in a (PATCH runs the same Update)',
    rules: [rule([RBAC], ['roles'], ['escalate', 'patch'])],
    grants: ESCALATE_NS_OWN_ROLE,
    refusals: [['patch alone', [rule([RBAC], ['roles'], ['patch'])]]],
  },
  {
    name: 'escalate + verb * on clusterroles, cluster-wide: unbounded',
    scope: '',
    rules: [rule([RBAC], ['clusterroles'], ['*'])],
    // cluster rules hold in namespace a too: the escalate there is found in the same round
    // and its own ClusterRole `op` rewritten by name (issue 23 item 3)
    grants: { identities: [], grants: ['|ESCALATE|(any rules, escalate)', 'a|ESCALATE|(any rules, escalate)', '|ESCALATE|op (rewritten, escalate)'], unbounded: true },
    refusals: [
      ['escalate + get on clusterroles', [rule([RBAC], ['clusterroles'], ['escalate', 'get'])], ''],
      ['escalate on clusterroles + create on roles (another resource)', [rule([RBAC], ['clusterroles'], ['escalate']), rule([RBAC], ['roles'], ['create'])], ''],
    ],
  },
  {
    name: 'bind on ClusterRole secret-reader + create rolebindings: its rules in a (then the installer token)',
    rules: [rule([RBAC], ['clusterroles'], ['bind'], ['secret-reader']), rule([RBAC], ['rolebindings'], ['create'])],
    grants: { identities: ['ServiceAccount a/installer'], grants: ['a|DEFINED|secret-reader'], unbounded: false },
    refusals: [
      ['bind alone', [rule([RBAC], ['clusterroles'], ['bind'], ['secret-reader'])]],
      ['create rolebindings alone', [rule([RBAC], ['rolebindings'], ['create'])]],
      // (bind on a role the App does not define counts as unbounded: the role may exist on the cluster)
      ['bind in the core API group (not RBAC\'s)', [rule([''], ['clusterroles'], ['bind'], ['secret-reader']), rule([RBAC], ['rolebindings'], ['create'])]],
      ['bind on clusterrolebindings (not the role)', [rule([RBAC], ['clusterrolebindings'], ['bind'], ['secret-reader']), rule([RBAC], ['rolebindings'], ['create'])]],
      ['bind + update rolebindings (not create)', [rule([RBAC], ['clusterroles'], ['bind'], ['secret-reader']), rule([RBAC], ['rolebindings'], ['update'])]],
      ['bind + create clusterrolebindings held in a namespace (cluster-scoped: a Role never grants it)', [rule([RBAC], ['clusterroles'], ['bind'], ['secret-reader']), rule([RBAC], ['clusterrolebindings'], ['create'])]],
      ['get instead of bind', [rule([RBAC], ['clusterroles'], ['get'], ['secret-reader']), rule([RBAC], ['rolebindings'], ['create'])]],
    ],
  },
  {
    name: 'bind on any ClusterRole + create clusterrolebindings, cluster-wide: unbounded (cluster-admin)',
    scope: '',
    rules: [rule([RBAC], ['clusterroles'], ['bind']), rule([RBAC], ['clusterrolebindings'], ['create'])],
    grants: { identities: [], grants: ['|BUILT_IN|cluster-admin'], unbounded: true },
    refusals: [
      ['bind + create rolebindings (namespaced bindings only): not unbounded', [rule([RBAC], ['clusterroles'], ['bind']), rule([RBAC], ['rolebindings'], ['create'])], 'b'],
      ['bind + create clusterrolebindings/status', [rule([RBAC], ['clusterroles'], ['bind']), rule([RBAC], ['clusterrolebindings/status'], ['create'])], ''],
    ],
  },
  {
    name: 'get on the token Secret by name: its ServiceAccount',
    rules: [rule([''], ['secrets'], ['get'], ['installer-token'])],
    grants: { identities: ['ServiceAccount a/installer'], grants: [], unbounded: false },
    refusals: [
      ['get on another Secret name', [rule([''], ['secrets'], ['get'], ['other'])]],
      // a list restricted to the Secret's own name reads it: fieldSelector metadata.name=installer-token is authorized
      // with that name (apiserver requestinfo.go); test/audit/effective-power-expand.test.ts
      ['list restricted to another Secret\'s name', [rule([''], ['secrets'], ['list'], ['other'])]],
      ['create secrets without any read', [rule([''], ['secrets'], ['create'])]],
      // an update returns the writer's Secret (secret/strategy.go PrepareForUpdate keeps only `type`); patch and delete
      // return the stored one and do read it (issue 37: test/audit/verb-responses.test.ts)
      ['update secrets (the response is the writer\'s object)', [rule([''], ['secrets'], ['update'])]],
      ['get configmaps (another resource)', [rule([''], ['configmaps'], ['get'])]],
      ['get secrets in apps (another API group)', [rule(['apps'], ['secrets'], ['get'])]],
      ['get secrets in namespace b (the Secret is in a)', [rule([''], ['secrets'], ['get'])], 'b'],
    ],
  },
  {
    name: 'create serviceaccounts/token by name: that ServiceAccount',
    rules: [rule([''], ['serviceaccounts/token'], ['create'], ['installer'])],
    grants: { identities: ['ServiceAccount a/installer'], grants: [], unbounded: false },
    refusals: [
      ['get serviceaccounts/token', [rule([''], ['serviceaccounts/token'], ['get'], ['installer'])]],
      ['create serviceaccounts (no subresource)', [rule([''], ['serviceaccounts'], ['create'])]],
      ['create serviceaccounts/token for a name no ServiceAccount has', [rule([''], ['serviceaccounts/token'], ['create'], ['nobody'])]],
      ['in namespace b', [rule([''], ['serviceaccounts/token'], ['create'])], 'b'],
    ],
  },
  {
    name: 'impersonate the installer ServiceAccount by name',
    rules: [rule([''], ['serviceaccounts'], ['impersonate'], ['installer'])],
    grants: { identities: ['ServiceAccount a/installer'], grants: [], unbounded: false },
    refusals: [
      ['get serviceaccounts', [rule([''], ['serviceaccounts'], ['get'])]],
      ['impersonate in another API group', [rule(['authentication.k8s.io'], ['serviceaccounts'], ['impersonate'])]],
      ['impersonate another name', [rule([''], ['serviceaccounts'], ['impersonate'], ['other'])]],
    ],
  },
  {
    name: 'impersonate any user, cluster-wide: unbounded',
    scope: '',
    rules: [rule([''], ['users'], ['impersonate'])],
    grants: { identities: ['*'], grants: ['|BUILT_IN|cluster-admin'], unbounded: true },
    refusals: [
      ['impersonate one named user: that user only', [rule([''], ['users'], ['impersonate'], ['bob'])], ''],
      ['impersonate users held through a Role (users are cluster-scoped)', [rule([''], ['users'], ['impersonate'])], 'a'],
      ['impersonate userextras only (no identity)', [rule(['authentication.k8s.io'], ['userextras/scopes'], ['impersonate'])], ''],
      ['get users', [rule([''], ['users'], ['get'])], ''],
    ],
  },
  {
    name: 'create jobs.batch in a: every ServiceAccount of a',
    rules: [rule(['batch'], ['jobs'], ['create'])],
    grants: { identities: ['ServiceAccount a/default', 'ServiceAccount a/installer', 'ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['create jobs in the core group (no such workload)', [rule([''], ['jobs'], ['create'])]],
      ['get, list, delete jobs', [rule(['batch'], ['jobs'], ['get', 'list', 'delete'])]],
      ['create pods/eviction (runs nothing)', [rule([''], ['pods/eviction'], ['create'])]],
      ['update jobs (the pod template of a Job is immutable)', [rule(['batch'], ['jobs'], ['update', 'patch'])]],
      ['delete pods (runs nothing)', [rule([''], ['pods'], ['delete', 'deletecollection'])]],
    ],
  },
  {
    // pkg/apis/core/validation ValidatePodUpdate: serviceAccountName is immutable, but the containers' images are not;
    // the kubelet restarts a container with its new image, which reads the pod's ServiceAccount token. (This refusal
    // used to sit under the jobs recipe as "update pods: serviceAccountName is immutable", which missed the images.)
    name: 'patch pods: the runner pod\'s containers get another image, run as runner-sa',
    rules: [rule([''], ['pods'], ['patch'])],
    grants: { identities: ['ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['patch pods/status (no image)', [rule([''], ['pods/status'], ['update', 'patch'])]],
      ['patch pods by a name (the Deployment\'s pods have generated names)', [rule([''], ['pods'], ['update', 'patch'], ['runner'])]],
      ['patch pods in namespace b (the pod is in a)', [rule([''], ['pods'], ['update', 'patch'])], 'b'],
      ['get, list, watch pods', [rule([''], ['pods'], ['get', 'list', 'watch'])]],
    ],
  },
  {
    name: 'update the Deployment runner by name: its template runs as another ServiceAccount',
    rules: [rule(['apps'], ['deployments'], ['update'], ['runner'])],
    grants: { identities: ['ServiceAccount a/default', 'ServiceAccount a/installer', 'ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['update another Deployment name', [rule(['apps'], ['deployments'], ['update'], ['other'])]],
      ['update deployments/scale (not the template)', [rule(['apps'], ['deployments/scale'], ['update', 'patch'])]],
      ['get the Deployment', [rule(['apps'], ['deployments'], ['get'], ['runner'])]],
    ],
  },
  {
    name: 'create pods/exec: into the runner pod',
    rules: [rule([''], ['pods/exec'], ['create'])],
    grants: { identities: ['ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['list pods/exec', [rule([''], ['pods/exec'], ['list'])]],
      ['get pods/log', [rule([''], ['pods/log'], ['get'])]],
      ['create pods/portforward (network only)', [rule([''], ['pods/portforward'], ['create'])]],
      ['pods/exec in namespace b (the pod is in a)', [rule([''], ['pods/exec'], ['create', 'get'])], 'b'],
    ],
  },
  {
    name: 'get pods/attach (websocket) into the runner pod',
    rules: [rule([''], ['pods/attach'], ['get'])],
    grants: { identities: ['ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [['delete pods/attach', [rule([''], ['pods/attach'], ['delete'])]]],
  },
  {
    name: 'patch pods/ephemeralcontainers of the runner pod',
    rules: [rule([''], ['pods/ephemeralcontainers'], ['patch'])],
    grants: { identities: ['ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['get pods/ephemeralcontainers', [rule([''], ['pods/ephemeralcontainers'], ['get'])]],
      ['patch pods/status', [rule([''], ['pods/status'], ['patch'])]],
    ],
  },
  {
    name: 'get nodes/proxy, cluster-wide: every pod\'s ServiceAccount (kubelet exec)',
    scope: '',
    rules: [rule([''], ['nodes/proxy'], ['get'])],
    grants: { identities: ['ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['nodes/proxy through a Role (nodes are cluster-scoped)', [rule([''], ['nodes/proxy'], ['get', 'create'])], 'a'],
      ['get nodes (no subresource)', [rule([''], ['nodes'], ['get'])], ''],
      ['list nodes/proxy (no kubelet request is a list)', [rule([''], ['nodes/proxy'], ['list'])], ''],
      ['get nodes/stats', [rule([''], ['nodes/stats'], ['get'])], ''],
    ],
  },
  {
    name: 'create secrets + get secrets: a token Secret for any ServiceAccount of a (the token controller fills it)',
    rules: [rule([''], ['secrets'], ['create']), rule([''], ['secrets'], ['get'], ['mine'])],
    grants: { identities: ['ServiceAccount a/default', 'ServiceAccount a/installer', 'ServiceAccount a/runner-sa'], grants: [], unbounded: false },
    refusals: [
      ['create secrets + get configmaps', [rule([''], ['secrets'], ['create']), rule([''], ['configmaps'], ['get'])]],
      ['update secrets + get a named secret', [rule([''], ['secrets'], ['update']), rule([''], ['secrets'], ['get'], ['mine'])]],
    ],
  },
];

describe('EffectivePower: each sensitive recipe grants, and each recipe missing one ingredient does not', () => {
  describe.each(RECIPES)('$name', (recipe) => {
    test('the complete recipe grants the power', () => {
      expect(gain(recipe.rules, recipe.scope ?? 'a')).toEqual(recipe.grants);
    });
    // rows of three (a callback taking more arguments than the row is given jest's `done`)
    test.each(recipe.refusals.map(([why, rules, scope]) => [why, rules, scope ?? recipe.scope ?? 'a'] as const))('refused: %s', (why, rules, scope) => {
      const got = gain(rules, scope);
      if (why.endsWith('that user only')) {
        expect(got).toEqual({ identities: ['User bob'], grants: [], unbounded: false });
      } else if (why.endsWith('not unbounded')) {
        expect(got).toEqual({ identities: [], grants: ['b|BUILT_IN|cluster-admin'], unbounded: false });
      } else {
        expect(got).toEqual(NOTHING);
      }
    });
  });
});
