// Issue 28: what each sensitive grant probes, request by request. The registry in src/audit/installer-rule-checks.ts
// is module-level data; before this file only a full wildcard and a few rules reached it, so dropping any one probed
// request (impersonate on `uids`, `pods/attach`, a write verb on an admission kind...) passed every test. Each request
// below is written from the upstream mechanism that makes it dangerous, not copied from the registry; a rule that
// allows that request alone must be flagged as that grant, and the harmless neighbours must not be flagged at all.
import { InstallerRuleChecks, SensitiveGrant } from '../../src/audit/installer-rule-checks';
import { PolicyRule } from '../../src/rbac/policy-rule';

type Scope = 'cluster' | 'assume' | 'any';
interface Expected {
  readonly what: string;
  /** [verb, apiGroup, resource]: each one alone, in a rule of its own, holds the grant */
  readonly requests: Array<[string, string, string]>;
  /** where it is probed: see `probed()` */
  readonly scope: Scope;
}

const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const ADMISSION = 'admissionregistration.k8s.io';
const each = (verbs: string[], group: string, resources: string[]): Array<[string, string, string]> =>
  resources.flatMap((r) => verbs.map((v): [string, string, string] => [v, group, r]));

const EXPECTED: Record<SensitiveGrant, Expected> = {
  // k8s pkg/registry/rbac/escalation_check.go: EscalationAllowed asks for 'escalate' on the role's resource
  [SensitiveGrant.ESCALATE]: {
    what: "'escalate' on roles/clusterroles",
    requests: each(['escalate'], 'rbac.authorization.k8s.io', ['roles', 'clusterroles']),
    scope: 'any',
  },
  // escalation_check.go: BindingAuthorized asks for 'bind' on roles or clusterroles
  [SensitiveGrant.BIND]: {
    what: "'bind' on roles/clusterroles",
    requests: each(['bind'], 'rbac.authorization.k8s.io', ['roles', 'clusterroles']),
    scope: 'any',
  },
  // apiserver pkg/endpoints/filters/impersonation.go: users, groups and serviceaccounts in the core group,
  // uids and userextras/<key> in authentication.k8s.io
  [SensitiveGrant.IMPERSONATE]: {
    what: "'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras)",
    requests: [
      ...each(['impersonate'], '', ['users', 'groups', 'serviceaccounts']), ...each(['impersonate'], 'authentication.k8s.io', ['uids', 'userextras']),
      // constrained impersonation (KEP-5284): impersonation/mode.go checks impersonate:<mode> in authentication.k8s.io,
      // user-info on users, groups, uids and userextras, serviceaccount on serviceaccounts, the node modes on nodes
      ...each(['impersonate:user-info'], 'authentication.k8s.io', ['users', 'groups', 'uids', 'userextras']),
      ['impersonate:serviceaccount', 'authentication.k8s.io', 'serviceaccounts'],
      ...each(['impersonate:arbitrary-node', 'impersonate:associated-node'], 'authentication.k8s.io', ['nodes']),
    ],
    scope: 'any',
  },
  // the OperatorGroup names the ServiceAccount OLM installs with: any write changes who installs
  [SensitiveGrant.OPERATOR_GROUP_WRITES]: {
    what: 'writes to operators.coreos.com operatorgroups',
    requests: each(WRITES, 'operators.coreos.com', ['operatorgroups']),
    scope: 'any',
  },
  // TokenRequest: 'create' on serviceaccounts/token
  [SensitiveGrant.SERVICE_ACCOUNT_TOKENS]: {
    what: "'create' on serviceaccounts/token",
    requests: [['create', '', 'serviceaccounts/token']],
    scope: 'assume',
  },
  [SensitiveGrant.POD_CREATE]: {
    what: "'create' on pods",
    requests: [['create', '', 'pods']],
    scope: 'assume',
  },
  // exec, attach and portforward upgrade a GET (websockets) or a POST (SPDY, 'create') request
  [SensitiveGrant.POD_EXEC]: {
    what: "'create'/'get' on pods/exec, pods/attach or pods/portforward",
    requests: each(['create', 'get'], '', ['pods/exec', 'pods/attach', 'pods/portforward']),
    scope: 'assume',
  },
  // a list or watch returns the objects' data, not only their names; a patch (handlers/patch.go) and a delete or
  // deletecollection (handlers/delete.go) return the stored object(s), and dryRun=All makes them reads (issue 37)
  [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE]: {
    what: "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them)",
    requests: each(['get', 'list', 'watch', 'patch', 'delete', 'deletecollection'], '', ['secrets']),
    scope: 'cluster',
  },
  // the kubelet authorizes its API (exec, run) with the request's HTTP verb on nodes/proxy
  [SensitiveGrant.NODES_PROXY]: {
    what: 'nodes/proxy (the kubelet API)',
    requests: each(['get', 'create', 'update', 'patch', 'delete'], '', ['nodes/proxy']),
    scope: 'cluster',
  },
  [SensitiveGrant.ADMISSION_POLICY_WRITES]: {
    what: `writes to ${ADMISSION} validating/mutating admission policies and their bindings`,
    requests: each(WRITES, ADMISSION, ['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']),
    scope: 'cluster',
  },
  [SensitiveGrant.MUTATING_WEBHOOK_WRITES]: {
    what: `writes to ${ADMISSION} mutatingwebhookconfigurations`,
    requests: each(WRITES, ADMISSION, ['mutatingwebhookconfigurations']),
    scope: 'cluster',
  },
  [SensitiveGrant.VALIDATING_WEBHOOK_WRITES]: {
    what: `writes to ${ADMISSION} validatingwebhookconfigurations`,
    requests: each(WRITES, ADMISSION, ['validatingwebhookconfigurations']),
    scope: 'cluster',
  },
  [SensitiveGrant.OPERATOR_HUB_WRITES]: {
    what: 'writes to config.openshift.io operatorhubs',
    requests: each(WRITES, 'config.openshift.io', ['operatorhubs']),
    scope: 'cluster',
  },
  // a new CatalogSource, or an existing one (the curated catalog) pointed at another image or address: OLM resolves
  // Subscriptions against whatever the source serves (the library's own admission policies match CREATE and UPDATE)
  [SensitiveGrant.CATALOG_SOURCE_CREATE]: {
    what: "'create'/'update'/'patch' on operators.coreos.com catalogsources",
    requests: each(['create', 'update', 'patch'], 'operators.coreos.com', ['catalogsources']),
    scope: 'any',
  },
  // k8s pkg/registry/certificates/certificates/strategy.go: approval goes through the approval subresource
  [SensitiveGrant.CSR_APPROVAL]: {
    what: "'update'/'patch' on certificates.k8s.io certificatesigningrequests/approval",
    requests: each(['update', 'patch'], 'certificates.k8s.io', ['certificatesigningrequests/approval']),
    scope: 'cluster',
  },
  // checked below with non-resource rules
  [SensitiveGrant.NON_RESOURCE_WILDCARD]: { what: "every non-resource URL (nonResourceURLs '*')", requests: [], scope: 'cluster' },
  [SensitiveGrant.POD_EPHEMERAL_CONTAINERS]: {
    what: "'update'/'patch' on pods/ephemeralcontainers",
    requests: each(['update', 'patch'], '', ['pods/ephemeralcontainers']),
    scope: 'assume',
  },
  // a pod template that can be set or changed: jobs' templates are immutable after creation (k8s
  // pkg/apis/batch/validation ValidateJobSpecUpdate), cronjobs' are not
  [SensitiveGrant.WORKLOAD_WRITES]: {
    what: "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, "
      + 'cronjobs, replicationcontrollers; controllerrevisions, the statefulsets\' templates) in every namespace',
    requests: [
      ...each(['create', 'update', 'patch'], 'apps', ['deployments', 'replicasets', 'statefulsets', 'daemonsets']),
      ['create', 'batch', 'jobs'],
      ...each(['create', 'update', 'patch'], 'batch', ['cronjobs']),
      ...each(['create', 'update', 'patch'], '', ['replicationcontrollers']),
      // the StatefulSet controller builds the current revision's pods from its ControllerRevision's data
      // (statefulset/stateful_set_utils.go ApplyRevision)
      ...each(['update', 'patch'], 'apps', ['controllerrevisions']),
    ],
    scope: 'cluster',
  },
  [SensitiveGrant.SUBSCRIPTION_CREATE]: {
    what: "'create'/'update'/'patch' on operators.coreos.com subscriptions in every namespace",
    // and an update or patch of one (OLM installs another package for a global Subscription the same way)
    requests: each(['create', 'update', 'patch'], 'operators.coreos.com', ['subscriptions']),
    scope: 'cluster',
  },
  [SensitiveGrant.INSTALL_PLAN_APPROVAL]: {
    what: "'update'/'patch' on operators.coreos.com installplans in every namespace",
    requests: each(['update', 'patch'], 'operators.coreos.com', ['installplans']),
    scope: 'cluster',
  },
  [SensitiveGrant.PERSISTENT_VOLUME_CREATE]: {
    what: "'create' on persistentvolumes",
    requests: [['create', '', 'persistentvolumes']],
    scope: 'cluster',
  },
  // the namespace's labels select admission policies, webhooks and pod security levels; the status and finalize
  // subresources keep new metadata too (k8s pkg/registry/core/namespace/strategy.go)
  [SensitiveGrant.NAMESPACE_WRITES]: {
    what: "'update'/'patch' on namespaces",
    requests: each(['update', 'patch'], '', ['namespaces', 'namespaces/status', 'namespaces/finalize']),
    scope: 'any',
  },
  [SensitiveGrant.NETWORK_POLICY_WRITES]: {
    what: 'writes to networking.k8s.io networkpolicies in every namespace',
    requests: each(WRITES, 'networking.k8s.io', ['networkpolicies']),
    scope: 'cluster',
  },
  [SensitiveGrant.SERVICE_UPDATE]: {
    what: "'update'/'patch' on services in every namespace",
    // CVE-2020-8554 names both: spec.externalIPs, and a LoadBalancer's status.loadBalancer.ingress
    requests: each(['update', 'patch'], '', ['services', 'services/status']),
    scope: 'cluster',
  },
  [SensitiveGrant.CONFIGMAP_UPDATE]: {
    what: "'update'/'patch' on configmaps in every namespace",
    requests: each(['update', 'patch'], '', ['configmaps']),
    scope: 'cluster',
  },
  [SensitiveGrant.CLUSTER_OBJECT_SET_WRITES]: {
    what: "'create'/'update'/'patch' on olm.operatorframework.io clusterobjectsets (operator-controller applies their objects as cluster-admin)",
    requests: each(['create', 'update', 'patch'], 'olm.operatorframework.io', ['clusterobjectsets']),
    scope: 'cluster',
  },
  // k8s pkg/apis/core/validation ValidatePodUpdate: a running pod's container images may change (its ServiceAccount
  // may not); the kubelet restarts the container with the new image, which reads the pod's token
  [SensitiveGrant.POD_IMAGE_UPDATE]: {
    what: "'update'/'patch' on pods (a running container's image)",
    requests: each(['update', 'patch'], '', ['pods']),
    scope: 'assume',
  },
  // OLM pkg/controller/operators/olm/operator.go: olm-operator reapplies spec.install whenever the CSV changes, with
  // its own client (pkg/controller/install/deployment.go)
  [SensitiveGrant.CSV_WRITES]: {
    what: "'create'/'update'/'patch' on operators.coreos.com clusterserviceversions in every namespace (olm-operator runs their Deployments as any ServiceAccount)",
    requests: each(['create', 'update', 'patch'], 'operators.coreos.com', ['clusterserviceversions']),
    scope: 'cluster',
  },
  // catalog/operator.go ExecutePlan runs status.plan; the InstallPlan CRD serves a status subresource
  [SensitiveGrant.INSTALL_PLAN_STATUS_WRITES]: {
    what: "'update'/'patch' on operators.coreos.com installplans/status (catalog-operator executes status.plan as the OperatorGroup's ServiceAccount, or as cluster-admin)",
    requests: each(['update', 'patch'], 'operators.coreos.com', ['installplans/status']),
    scope: 'cluster',
  },
  // operator-controller installs a ClusterExtension's package from the ClusterCatalogs with cluster-admin
  [SensitiveGrant.OLM_V1_INSTALL_WRITES]: {
    what: "'create'/'update'/'patch' on olm.operatorframework.io clusterextensions or clustercatalogs (operator-controller installs any package as cluster-admin)",
    requests: each(['create', 'update', 'patch'], 'olm.operatorframework.io', ['clusterextensions', 'clustercatalogs']),
    scope: 'cluster',
  },
  // what every tenant shares: a ClusterRoleBinding or Namespace deleted; a ClusterRole emptied (its escalation check
  // covers only the new rules); a CRD deleted (every object of it) or its conversion webhook rewritten; an APIService
  [SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES]: {
    what: "'delete' on clusterrolebindings, clusterroles or namespaces, or 'update'/'patch'/'delete' on customresourcedefinitions or apiservices (what every tenant shares)",
    requests: [
      ...each(['delete', 'deletecollection'], 'rbac.authorization.k8s.io', ['clusterrolebindings']),
      ...each(['delete', 'deletecollection'], '', ['namespaces']),
      ...each(['delete', 'deletecollection'], 'rbac.authorization.k8s.io', ['clusterroles']),
      ...each(['update', 'patch', 'delete', 'deletecollection'], 'apiextensions.k8s.io', ['customresourcedefinitions']),
      ...each(['update', 'patch', 'delete', 'deletecollection'], 'apiregistration.k8s.io', ['apiservices']),
    ],
    scope: 'cluster',
  },
};

const rule = ([verb, group, resource]: [string, string, string]): PolicyRule => ({ apiGroups: [group], resources: [resource], verbs: [verb] });
const held = (rules: PolicyRule[], clusterScoped: boolean, operatorRbacBeyondNamespace?: boolean) =>
  InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped, operatorRbacBeyondNamespace });
const grants = Object.values(SensitiveGrant);
const resourceCases = grants.flatMap((grant) => EXPECTED[grant].requests.map((request): [SensitiveGrant, string, [string, string, string]] => [grant, request.join(' '), request]));

describe('every probed request alone holds its grant (cluster-scoped rules)', () => {
  test.each(resourceCases)('%s: %s', (grant, _name, request) => {
    expect(held([rule(request)], true)).toEqual([{ grant, what: EXPECTED[grant].what }]);
  });

  test('the table covers every grant', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...grants].sort());
  });
});

describe("where each grant is probed: 'any' in a namespaced Role too, 'assume' when OLM gives the namespace's ServiceAccounts more", () => {
  const namespaced = grants.filter((g) => EXPECTED[g].requests.length > 0);
  test.each(namespaced)('%s', (grant) => {
    const [first] = EXPECTED[grant].requests;
    const scope = EXPECTED[grant].scope;
    const found = { grant, what: EXPECTED[grant].what };
    expect(held([rule(first)], false)).toEqual(scope === 'any' ? [found] : []);
    expect(held([rule(first)], false, true)).toEqual(scope === 'cluster' ? [] : [found]);
    // errors: the same grant, reported and named (namespaced only where probed)
    const codes = (clusterScoped: boolean) => InstallerRuleChecks.errors([rule(first)], { clusterScoped }).map((d) => /SensitiveGrant\.(\w+)/.exec(d.message)?.[1]);
    expect(codes(true)).toEqual([grant]);
    expect(codes(false)).toEqual(scope === 'any' ? [grant] : []);
  });
});

describe('every non-resource URL: the wildcards that match any path', () => {
  const what = EXPECTED[SensitiveGrant.NON_RESOURCE_WILDCARD].what;
  // k8s rbac/v1 NonResourceURLMatches: '*' matches everything, a trailing '*' is a prefix: '/*' is every real path
  test.each(['get', 'post', 'put', 'patch', 'delete'])("'*' with only '%s'", (verb) => {
    expect(held([{ nonResourceUrls: ['*'], verbs: [verb] }], true)).toEqual([{ grant: SensitiveGrant.NON_RESOURCE_WILDCARD, what }]);
  });
  test("'/*' too", () => {
    expect(held([{ nonResourceUrls: ['/*'], verbs: ['get'] }], true)).toEqual([{ grant: SensitiveGrant.NON_RESOURCE_WILDCARD, what }]);
  });
  test('named paths are not every path', () => {
    expect(held([{ nonResourceUrls: ['/healthz', '/metrics', '/version', '/apis/*'], verbs: ['get', 'post'] }], true)).toEqual([]);
  });
  test('never in a namespaced Role (non-resource URLs are cluster-scoped)', () => {
    expect(held([{ nonResourceUrls: ['*'], verbs: ['get'] }], false, true)).toEqual([]);
  });
});

describe('the harmless neighbours of each grant hold nothing', () => {
  // [why, rule]: the same resource with a verb that gives no power, or a sibling resource
  test.each<[string, PolicyRule]>([
    ['reading roles', { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'], verbs: ['get', 'list', 'watch'] }],
    ['impersonate on a resource that is no identity', { apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['impersonate'] }],
    ['reading OperatorGroups, Subscriptions, InstallPlans, CatalogSources', { apiGroups: ['operators.coreos.com'], resources: ['operatorgroups', 'subscriptions', 'installplans', 'catalogsources'], verbs: ['get', 'list', 'watch'] }],
    ['deleting CatalogSources, Subscriptions, InstallPlans', { apiGroups: ['operators.coreos.com'], resources: ['catalogsources', 'subscriptions', 'installplans'], verbs: ['delete'] }],
    ['reading ServiceAccounts and their tokens subresource', { apiGroups: [''], resources: ['serviceaccounts', 'serviceaccounts/token'], verbs: ['get', 'list'] }],
    ['reading pods and their logs', { apiGroups: [''], resources: ['pods', 'pods/log', 'pods/status'], verbs: ['get', 'list', 'watch'] }],
    ['deleting pods', { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'deletecollection'] }],
    ['listing pods/exec', { apiGroups: [''], resources: ['pods/exec'], verbs: ['list', 'watch'] }],
    ['secrets in another group', { apiGroups: ['example.com'], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
    ['reading nodes and their status', { apiGroups: [''], resources: ['nodes', 'nodes/status'], verbs: ['get', 'list'] }],
    // the kubelet authorizes nodes/proxy with the verb of the HTTP method (GET get, POST create, PUT update, PATCH
    // patch, DELETE delete: pkg/kubelet/server/auth.go GetRequestAttributes): never list or watch
    ['listing and watching nodes/proxy (docs/escalation-paths.md)', { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['list', 'watch'] }],
    ['reading admission configuration', { apiGroups: [ADMISSION], resources: ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies'], verbs: ['get', 'list', 'watch'] }],
    ['reading OperatorHub', { apiGroups: ['config.openshift.io'], resources: ['operatorhubs'], verbs: ['get', 'list', 'watch'] }],
    ['creating and reading CSRs (no approval)', { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list'] }],
    ['reading pods/ephemeralcontainers', { apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['get'] }],
    ['updating jobs (their pod template is immutable)', { apiGroups: ['batch'], resources: ['jobs'], verbs: ['update', 'patch', 'delete'] }],
    ['scaling workloads', { apiGroups: ['apps'], resources: ['deployments/scale', 'statefulsets/scale', 'replicasets/scale'], verbs: ['update', 'patch'] }],
    ['reading persistentvolumes', { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'update'] }],
    ['creating and reading namespaces', { apiGroups: [''], resources: ['namespaces'], verbs: ['create', 'get', 'list'] }],
    ['creating services and configmaps (no change to another one)', { apiGroups: [''], resources: ['services', 'configmaps'], verbs: ['create', 'get', 'list'] }],
    ['reading clusterobjectsets', { apiGroups: ['olm.operatorframework.io'], resources: ['clusterobjectsets', 'clusterextensions'], verbs: ['get', 'list', 'watch'] }],
  ])('%s', (_why, r) => {
    expect(held([r], true)).toEqual([]);
  });
});
