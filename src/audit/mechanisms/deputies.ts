/**
 * Controllers that act for a writer: a write (or a request) is power when a controller, the kubelet or OLM turns it
 * into something the writer could not do directly. One row per mechanism: the (group, resource[/subresource]) and
 * verbs written, who acts, as whom, what the writer gets (`DeputyEffect`, a closed vocabulary the effective-power
 * model interprets), the sensitive grant that names it in cluster-scoped rules, and the upstream code.
 *
 * The effective-power model (`EffectivePower`) reads the rows of the effects it follows generically (`ANY_SERVICE_ACCOUNT`,
 * `TEMPLATE`, `CHILD_TEMPLATE`, `CLUSTER_ADMIN`, `OPERATOR_GROUP_IDENTITY`, `RECONCILING_OPERATOR`), so a new controller
 * of those kinds is a row and its test; the RBAC rows (bind, escalate, impersonate, tokens) document paths the model
 * follows with their own checks. Internal data, read by `EffectivePower`, the sensitive-grant registry's tests and
 * docs/escalation-paths.md.
 */

/** What the writer gets when the controller acts. */
export enum DeputyEffect {
  /** Pods that may name any ServiceAccount of the namespace (`plugin/pkg/admission/serviceaccount`), and mount any of its Secrets. */
  ANY_SERVICE_ACCOUNT = 'ANY_SERVICE_ACCOUNT',
  /** The pod template of an object the input runs: its controller reruns the pods as the template's new ServiceAccount. */
  TEMPLATE = 'TEMPLATE',
  /** The template of an object a controller made for one the input runs (generated names): the same. */
  CHILD_TEMPLATE = 'CHILD_TEMPLATE',
  /** A token Secret created for any ServiceAccount of the namespace, filled by the tokens controller, read back. */
  TOKEN_SECRET = 'TOKEN_SECRET',
  /** A token of a ServiceAccount, by name (TokenRequest). */
  TOKEN_REQUEST = 'TOKEN_REQUEST',
  /** The process of a running pod: its ServiceAccount's token and the Secrets it mounts. */
  POD_PROCESS = 'POD_PROCESS',
  /** The kubelet API: every pod of the node. */
  KUBELET_API = 'KUBELET_API',
  /** A client certificate for any user or group but system:masters, or for any node. */
  CLIENT_CERTIFICATE = 'CLIENT_CERTIFICATE',
  /** A controller that applies what was written with a cluster-admin client. */
  CLUSTER_ADMIN = 'CLUSTER_ADMIN',
  /** OLM executes the written steps with the namespace's OperatorGroup ServiceAccount (cluster-admin without one). */
  OPERATOR_GROUP_IDENTITY = 'OPERATOR_GROUP_IDENTITY',
  /** The operator that reconciles the custom resource acts on it with its own ServiceAccounts. */
  RECONCILING_OPERATOR = 'RECONCILING_OPERATOR',
  /** The API server's RBAC checks (bind, escalate) or impersonation: the model's own steps. */
  RBAC = 'RBAC',
}

/** Which object names a row's requests carry. */
export enum DeputyNames {
  /** A create request: no name (`resourceNames` never allow it). */
  CREATE = 'CREATE',
  /** Any name (generated names, or objects the writer chooses). */
  ANY = 'ANY',
  /** The name of an object of the input (the workload that runs, the CSV OLM installed). */
  OBJECT = 'OBJECT',
}

/** One mechanism. */
export interface DeputyRow {
  /** Stable id, used by tests and docs. */
  readonly id: string;
  /** API group written. */
  readonly group: string;
  /** Resources written, `resource` or `resource/subresource`, in the order the model tries them. */
  readonly resources: readonly string[];
  /** Verbs (each alone is enough), in the order the model tries them. */
  readonly verbs: readonly string[];
  /** Which names the requests carry. */
  readonly names: DeputyNames;
  /** Who acts. */
  readonly controller: string;
  /** As whom. */
  readonly actsAs: string;
  /** What the writer gets. */
  readonly effect: DeputyEffect;
  /** When it applies (besides the grant). */
  readonly condition: string;
  /** The sensitive grant (`SensitiveGrant` member name) that names it in cluster-scoped rules, if any. */
  readonly grant?: string;
  /** Upstream file and function. */
  readonly upstream: string;
}

const OLM = 'operator-framework/operator-lifecycle-manager';
const OC = 'operator-framework/operator-controller';
const CONTROLLERS = 'kubernetes pkg/controller';

/** Workloads whose pods their controller creates, in the order the model tries them: [group, resource]. */
export const WORKLOAD_RESOURCES: ReadonlyArray<readonly [string, string]> = [
  ['', 'replicationcontrollers'], ['apps', 'deployments'], ['apps', 'replicasets'], ['apps', 'statefulsets'], ['apps', 'daemonsets'],
  ['batch', 'jobs'], ['batch', 'cronjobs'],
];

/** Kinds whose pod template the model reads, with their resource. */
export const TEMPLATE_KINDS: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['ReplicationController', ['', 'replicationcontrollers']], ['Deployment', ['apps', 'deployments']], ['ReplicaSet', ['apps', 'replicasets']],
  ['StatefulSet', ['apps', 'statefulsets']], ['DaemonSet', ['apps', 'daemonsets']], ['CronJob', ['batch', 'cronjobs']],
]);

/**
 * Objects a controller makes for a workload (generated names), whose template it reads again: [parent kind, group,
 * resource]. The ReplicaSet controller creates pods from `rs.spec.template` (`replica_set.go` `manageReplicas`), also
 * under a Deployment; the StatefulSet controller builds the pods of the current revision from that ControllerRevision's
 * data (`stateful_set_utils.go` `ApplyRevision`, `stateful_set_control.go` `getStatefulSetRevisions`).
 */
export const CHILD_TEMPLATES: ReadonlyArray<readonly [string, string, string]> = [
  ['Deployment', 'apps', 'replicasets'],
  ['StatefulSet', 'apps', 'controllerrevisions'],
];

/** Namespaces that hold an AllNamespaces OperatorGroup without a ServiceAccount on every cluster of their kind. */
export const GLOBAL_OPERATOR_GROUP_NAMESPACES: ReadonlyArray<readonly [string, string]> = [
  ['operators', `${OLM} deploy/chart/templates/0000_50_olm_13-operatorgroup-default.yaml (global-operators)`],
  ['openshift-operators', 'openshift/operator-framework-olm (global-operators OperatorGroup of OpenShift)'],
];

/** The rows. */
export const DEPUTIES: readonly DeputyRow[] = [
  {
    id: 'pods',
    group: '',
    resources: ['pods'],
    verbs: ['create'],
    names: DeputyNames.CREATE,
    controller: 'the kubelet (after the scheduler binds the pod)',
    actsAs: 'the pod\'s ServiceAccount, any of the namespace; it fetches every Secret the pod references (volumes, projected volumes, env, envFrom, imagePullSecrets)',
    effect: DeputyEffect.ANY_SERVICE_ACCOUNT,
    condition: 'in the namespace',
    grant: 'POD_CREATE',
    upstream: 'kubernetes plugin/pkg/admission/serviceaccount (any ServiceAccount of the namespace); plugin/pkg/auth/authorizer/node/node_authorizer.go (the kubelet reads the Secrets its pods reference)',
  },
  {
    id: 'workload-create',
    group: '*',
    resources: WORKLOAD_RESOURCES.map(([g, r]) => (g ? `${r}.${g}` : r)),
    verbs: ['create'],
    names: DeputyNames.CREATE,
    controller: 'kube-controller-manager: the replication, deployment, replicaset, statefulset, daemon-set, job and cronjob controllers',
    actsAs: 'their own ServiceAccounts, creating pods from the template: any ServiceAccount of the namespace',
    effect: DeputyEffect.ANY_SERVICE_ACCOUNT,
    condition: 'in the namespace',
    grant: 'WORKLOAD_WRITES',
    upstream: `${CONTROLLERS}/{replication,deployment,replicaset,statefulset,daemon,job,cronjob} (each creates pods from spec.template)`,
  },
  {
    id: 'workload-template',
    group: '*',
    resources: [...TEMPLATE_KINDS.values()].map(([g, r]) => (g ? `${r}.${g}` : r)),
    verbs: ['update', 'patch'],
    names: DeputyNames.OBJECT,
    controller: 'kube-controller-manager: the workload controllers',
    actsAs: 'the template\'s ServiceAccount, which the writer sets',
    effect: DeputyEffect.TEMPLATE,
    condition: 'an object of the input runs there (not Jobs: their template is immutable; not Pods: their ServiceAccount is)',
    grant: 'WORKLOAD_WRITES',
    upstream: 'kubernetes pkg/apis/batch/validation ValidateJobSpecUpdate; pkg/apis/core/validation ValidatePodUpdate',
  },
  ...CHILD_TEMPLATES.map(([parent, group, resource]): DeputyRow => ({
    id: `child-${resource}`,
    group,
    resources: [resource],
    verbs: ['update', 'patch'],
    names: DeputyNames.ANY,
    controller: parent === 'Deployment' ? 'kube-controller-manager: the replicaset controller' : 'kube-controller-manager: the statefulset controller',
    actsAs: `the template's ServiceAccount, which the writer sets: the ${resource} of a ${parent} of the input (a generated name: any name)`,
    effect: DeputyEffect.CHILD_TEMPLATE,
    condition: `a ${parent} of the input runs there`,
    grant: 'WORKLOAD_WRITES',
    upstream: parent === 'Deployment'
      ? `${CONTROLLERS}/replicaset/replica_set.go manageReplicas (pods from rs.spec.template)`
      : `${CONTROLLERS}/statefulset/stateful_set_utils.go ApplyRevision, stateful_set_control.go getStatefulSetRevisions`,
  })),
  {
    id: 'token-secret',
    group: '',
    resources: ['secrets'],
    verbs: ['create'],
    names: DeputyNames.CREATE,
    controller: 'kube-controller-manager: the tokens controller',
    actsAs: 'a token of the ServiceAccount the Secret\'s annotation names, any of the namespace, written into the Secret',
    effect: DeputyEffect.TOKEN_SECRET,
    condition: 'the writer may also read a Secret of the name it chose (a verb whose response carries the object: get, list, watch, patch, delete)',
    grant: 'SECRETS_READ_CLUSTER_WIDE',
    upstream: `${CONTROLLERS}/serviceaccount/tokens_controller.go syncSecret`,
  },
  {
    id: 'bundle-token-secret',
    group: '',
    resources: ['secrets'],
    verbs: [],
    names: DeputyNames.OBJECT,
    controller: 'OLM creates a bundle\'s Secret manifests; the tokens controller fills one of type kubernetes.io/service-account-token',
    actsAs: 'a token of the ServiceAccount it names',
    effect: DeputyEffect.TOKEN_SECRET,
    condition: 'a bundle ships it (whoever reads it by a verb that returns it becomes that ServiceAccount)',
    upstream: `${OLM} pkg/controller/operators/catalog/step.go (bundle manifests created as InstallPlan steps); ${CONTROLLERS}/serviceaccount/tokens_controller.go`,
  },
  {
    id: 'token-request',
    group: '',
    resources: ['serviceaccounts/token'],
    verbs: ['create'],
    names: DeputyNames.OBJECT,
    controller: 'kube-apiserver (TokenRequest)',
    actsAs: 'the named ServiceAccount',
    effect: DeputyEffect.TOKEN_REQUEST,
    condition: 'in the namespace; by name',
    grant: 'SERVICE_ACCOUNT_TOKENS',
    upstream: 'kubernetes pkg/registry/core/serviceaccount/storage/token.go',
  },
  {
    id: 'pod-process',
    group: '',
    resources: ['pods/exec', 'pods/attach', 'pods/ephemeralcontainers', 'pods'],
    verbs: ['create', 'get', 'patch', 'update'],
    names: DeputyNames.OBJECT,
    controller: 'the kubelet (exec, attach; an ephemeral container; a new image for a running container)',
    actsAs: 'the running pod: its ServiceAccount\'s token and the Secrets it mounts',
    effect: DeputyEffect.POD_PROCESS,
    condition: 'exec and attach: create (or get, websockets before KEP-4006); ephemeral containers and pods: update or patch',
    grant: 'POD_EXEC',
    upstream: 'kubernetes pkg/registry/core/pod/rest/subresources.go ExecREST, AttachREST; pkg/registry/core/pod/storage/storage.go EphemeralContainersREST; pkg/apis/core/validation ValidatePodUpdate',
  },
  {
    id: 'kubelet-api',
    group: '',
    resources: ['nodes/proxy'],
    verbs: ['create', 'get'],
    names: DeputyNames.ANY,
    controller: 'the kubelet API (exec, attach, run in any pod of the node)',
    actsAs: 'every pod of the node',
    effect: DeputyEffect.KUBELET_API,
    condition: 'cluster-wide (nodes are cluster-scoped)',
    grant: 'NODES_PROXY',
    upstream: 'kubernetes pkg/kubelet/server/auth.go GetRequestAttributes',
  },
  {
    id: 'csr-signer',
    group: 'certificates.k8s.io',
    resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'signers'],
    verbs: ['create', 'update', 'patch', 'approve'],
    names: DeputyNames.ANY,
    controller: 'kube-controller-manager: the csrsigning controller',
    actsAs: 'the signer\'s CA: a client certificate for any user or group but system:masters (kube-apiserver-client), or any node (kube-apiserver-client-kubelet)',
    effect: DeputyEffect.CLIENT_CERTIFICATE,
    condition: 'create on certificatesigningrequests, update or patch on its approval, approve on the signer; cluster-wide',
    grant: 'CSR_APPROVAL',
    upstream: 'kubernetes plugin/pkg/admission/certificates/approval, plugin/pkg/admission/certificates/subjectrestriction, pkg/controller/certificates/signer',
  },
  {
    id: 'olm-csv',
    group: 'operators.coreos.com',
    resources: ['clusterserviceversions'],
    verbs: ['create', 'update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'OLM v0 olm-operator: it (re)applies the CSV\'s spec.install Deployments whenever the CSV changes',
    actsAs: 'its own client (cluster-admin): the Deployments\' pods run as any ServiceAccount of the namespace',
    effect: DeputyEffect.ANY_SERVICE_ACCOUNT,
    condition: 'an OperatorGroup selects the namespace (one of the input, or a global one)',
    grant: 'CSV_WRITES',
    upstream: `${OLM} pkg/controller/operators/olm/operator.go syncClusterServiceVersion, pkg/controller/install/deployment.go StrategyDeploymentInstaller.Install`,
  },
  {
    id: 'olm-installplan-steps',
    group: 'operators.coreos.com',
    resources: ['installplans/status'],
    verbs: ['update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'OLM v0 catalog-operator: it executes the steps of status.plan (the CRD has a status subresource)',
    actsAs: 'the namespace\'s OperatorGroup ServiceAccount (its own cluster-admin client when the group has none)',
    effect: DeputyEffect.OPERATOR_GROUP_IDENTITY,
    condition: 'an OperatorGroup in the namespace (of the input, or a global one)',
    grant: 'INSTALL_PLAN_STATUS_WRITES',
    upstream: `${OLM} pkg/controller/operators/catalog/operator.go syncInstallPlans, ExecutePlan; pkg/lib/scoped/querier.go`,
  },
  {
    id: 'olm-v1-object-sets',
    group: 'olm.operatorframework.io',
    resources: ['clusterobjectsets'],
    verbs: ['create', 'update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'operator-controller (BoxcutterRuntime): it applies every object of every ClusterObjectSet',
    actsAs: 'its own cluster-admin client',
    effect: DeputyEffect.CLUSTER_ADMIN,
    condition: 'cluster-wide (update and patch set phases while they are empty: any name, as the model cannot tell)',
    grant: 'CLUSTER_OBJECT_SET_WRITES',
    upstream: `${OC} internal/operator-controller/controllers/clusterobjectset_controller.go`,
  },
  {
    id: 'olm-v1-installs',
    group: 'olm.operatorframework.io',
    resources: ['clusterextensions', 'clustercatalogs'],
    verbs: ['create', 'update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'operator-controller: it installs the ClusterExtension\'s package from any ClusterCatalog (catalogd serves what a ClusterCatalog points at)',
    actsAs: 'its own cluster-admin client',
    effect: DeputyEffect.CLUSTER_ADMIN,
    condition: 'cluster-wide; a ClusterExtension writer whose groups a team guardrail checks installs only what the guardrail allows',
    grant: 'OLM_V1_INSTALL_WRITES',
    upstream: `${OC} internal/operator-controller/controllers/clusterextension_controller.go; helm/olmv1/templates/rbac/clusterrolebinding-operator-controller-manager-rolebinding.yml (cluster-admin)`,
  },
  {
    id: 'reconciling-operator',
    group: '*',
    resources: ['*'],
    verbs: ['create', 'update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'the operator that owns the CRD (its CSV\'s customresourcedefinitions.owned; OLM v1: the CRDs of the bundle)',
    actsAs: 'the operator\'s ServiceAccounts: what they may do, the operator may be asked to do',
    effect: DeputyEffect.RECONCILING_OPERATOR,
    condition: 'a namespace the operator watches (its OperatorGroup\'s targets, olm.targetNamespaces; every namespace for AllNamespaces)',
    upstream: `${OLM} pkg/controller/operators/olm/operatorgroup.go (olm.targetNamespaces annotation); the operator's own reconciler`,
  },
  {
    id: 'rbac-bind-escalate',
    group: 'rbac.authorization.k8s.io',
    resources: ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'],
    verbs: ['bind', 'escalate', 'create', 'update', 'patch'],
    names: DeputyNames.ANY,
    controller: 'kube-apiserver\'s RBAC storage (escalation checks)',
    actsAs: 'the writer, with the rules of the role it binds or writes',
    effect: DeputyEffect.RBAC,
    condition: 'see the RBAC rows (bind, escalate, escalate by name, binding update)',
    grant: 'BIND',
    upstream: 'kubernetes pkg/registry/rbac/escalation_check.go; pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go',
  },
  {
    id: 'impersonation',
    group: '*',
    resources: ['users', 'groups', 'serviceaccounts', 'uids', 'userextras', 'nodes'],
    verbs: ['impersonate', 'impersonate:user-info', 'impersonate:serviceaccount', 'impersonate:arbitrary-node', 'impersonate:associated-node'],
    names: DeputyNames.ANY,
    controller: 'kube-apiserver\'s impersonation filter (legacy, and constrained: impersonate:<mode> with impersonate-on:<mode>:<verb> on the request)',
    actsAs: 'the impersonated identity (constrained: only for the requests impersonate-on allows)',
    effect: DeputyEffect.RBAC,
    condition: 'legacy: core group; constrained: authentication.k8s.io; users, groups and nodes cluster-wide, serviceaccounts in their namespace',
    grant: 'IMPERSONATE',
    upstream: 'kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/mode.go allImpersonationModes, impersonationModeState.authorizeUsername, impersonateOnAttributes',
  },
];

/** The row of an id (the model's generic effects look their rows up once). */
export function deputy(id: string): DeputyRow {
  const row = DEPUTIES.find((d) => d.id === id);
  if (!row) throw new Error(`no deputy row ${id}`);
  return row;
}
