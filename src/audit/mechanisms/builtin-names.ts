/**
 * Identities Kubernetes and OLM empower by name: users, groups and ServiceAccounts that exist on every cluster of their
 * kind and hold power no object of the App shows. `impersonate` (or a CSR, a token, a pod) aimed at one of these names
 * counts with that power: the effective-power model binds each name to its role as the cluster does.
 *
 * Rules are the roles' own (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy`: `policy.go` `ClusterRoles()` and
 * `ClusterRoleBindings()`, `controller_policy.go` `buildControllerRoles()`, `namespace_policy.go`), less the events
 * rule every controller holds (`eventsRule()`: create/update/patch on events, which grants nothing). OLM's, catalogd's
 * and operator-controller's ServiceAccounts from their install manifests. Internal data, read by `EffectivePower` and
 * docs/escalation-paths.md.
 */
import { PolicyRule } from '../../rbac/policy-rule';

/** One identity empowered by name. */
export interface BuiltinName {
  /** `User`, `Group` or `ServiceAccount`. */
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  /** The name. */
  readonly name: string;
  /** The ServiceAccount's namespace. */
  readonly namespace?: string;
  /** The ClusterRole bound to it (by a ClusterRoleBinding of the same source). */
  readonly role: string;
  /** The role's rules (see the file comment); `cluster-admin` for superusers. */
  readonly rules: PolicyRule[];
  /** Pods run as it (a Deployment of that namespace): exec, nodes/proxy and the node authorizer reach its token. */
  readonly pods?: string[];
  /**
   * Why it is every identity where its rules alone do not show it to the model: an any-name grant cluster-wide reaches
   * the ServiceAccounts of kube-system and of OLM's namespace on every cluster (the model counts such a grant with the
   * App's ServiceAccounts, so that a third party's is named by its sensitive grant), and OLM's own ServiceAccount is
   * cluster-admin.
   */
  readonly everything?: string;
  /** Upstream file (and function). */
  readonly upstream: string;
}

/** A binding of the bootstrap policy that grants nothing beyond reading public information: recorded, not modelled. */
export interface BenignBootstrapBinding {
  readonly subjects: string;
  readonly role: string;
  readonly reason: string;
  readonly upstream: string;
}

const CORE = '';
const APPS = 'apps';
const EXT = 'extensions';
const BATCH = 'batch';
const RBAC = 'rbac.authorization.k8s.io';
const CERTS = 'certificates.k8s.io';
const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  ({ apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
const EVERYTHING: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceUrls: ['*'], verbs: ['*'] }];

const POLICY = 'kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go';
const CONTROLLERS = 'kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go buildControllerRoles';
const NAMESPACED = 'kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go';

/** kube-controller-manager's controllers, each a ServiceAccount of kube-system bound to `system:controller:<name>`. */
const PODS_ANYWHERE = 'it creates pods (or the objects whose controllers create them) in every namespace: as any ServiceAccount, OLM\'s olm-operator-serviceaccount (cluster-admin) among them';
/** Controllers whose rules make them every identity on an OLM cluster (see `BuiltinName.everything`). */
const EVERY_IDENTITY: Record<string, string> = {
  'cronjob-controller': PODS_ANYWHERE,
  'daemon-set-controller': PODS_ANYWHERE,
  'deployment-controller': PODS_ANYWHERE,
  'job-controller': PODS_ANYWHERE,
  'persistent-volume-binder': PODS_ANYWHERE,
  'replicaset-controller': PODS_ANYWHERE,
  'replication-controller': PODS_ANYWHERE,
  'statefulset-controller': PODS_ANYWHERE,
  'generic-garbage-collector': 'it patches every object: OLM\'s own Deployments and pods (another image) run as cluster-admin',
};

const CONTROLLER_ROLES: Array<[string, PolicyRule[]]> = [
  ['attachdetach-controller', [r(['list', 'watch'], [CORE], ['persistentvolumes', 'persistentvolumeclaims', 'pods']), r(['get', 'list', 'watch'], [CORE], ['nodes']),
    r(['patch', 'update'], [CORE], ['nodes/status']), r(['get', 'create', 'delete', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments'])]],
  // full permissions on clusterroles, escalate included: it may write any rule into any ClusterRole
  ['clusterrole-aggregation-controller', [r(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC], ['clusterroles'])]],
  ['cronjob-controller', [r(['get', 'list', 'watch', 'update'], [BATCH], ['cronjobs']), r(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [BATCH], ['jobs']),
    r(['list', 'watch', 'delete'], [CORE], ['pods'])]],
  ['daemon-set-controller', [r(['get', 'list', 'watch'], [EXT, APPS], ['daemonsets']), r(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
    r(['create'], [CORE], ['pods/binding']), r(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [APPS], ['controllerrevisions'])]],
  ['deployment-controller', [r(['get', 'list', 'watch', 'update'], [EXT, APPS], ['deployments']),
    r(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [APPS, EXT], ['replicasets']), r(['get', 'list', 'watch', 'update'], [CORE], ['pods'])]],
  ['disruption-controller', [r(['get', 'list', 'watch'], [CORE], ['replicationcontrollers']), r(['update'], ['policy'], ['poddisruptionbudgets/status']),
    r(['patch', 'update'], [CORE], ['pods/status']), r(['get'], ['*'], ['*/scale'])]],
  ['endpoint-controller', [r(['get', 'list', 'watch'], [CORE], ['services', 'pods']), r(['get', 'list', 'watch', 'create', 'update', 'delete'], [CORE], ['endpoints'])]],
  ['endpointslice-controller', [r(['get', 'list', 'watch', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices'])]],
  ['endpointslicemirroring-controller', [r(['get', 'list', 'watch', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices'])]],
  ['expand-controller', [r(['get', 'list', 'watch', 'update', 'patch'], [CORE], ['persistentvolumes']), r(['update', 'patch'], [CORE], ['persistentvolumeclaims/status'])]],
  ['ephemeral-volume-controller', [r(['get', 'list', 'watch', 'create'], [CORE], ['persistentvolumeclaims'])]],
  // get, list, watch, patch, update and delete on every resource: patch reads every Secret, and patches any workload
  ['generic-garbage-collector', [r(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*'])]],
  ['horizontal-pod-autoscaler', [r(['get', 'update'], ['*'], ['*/scale']), r(['list', 'watch'], [CORE], ['pods'])]],
  ['job-controller', [r(['get', 'list', 'watch', 'update', 'patch'], [BATCH], ['jobs']), r(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods'])]],
  // get, list, watch, delete and deletecollection on every resource: every Secret
  ['namespace-controller', [r(['get', 'list', 'watch', 'delete'], [CORE], ['namespaces']), r(['update'], [CORE], ['namespaces/finalize', 'namespaces/status']),
    r(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*'])]],
  ['node-controller', [r(['get', 'list', 'watch', 'update', 'delete', 'patch'], [CORE], ['nodes']), r(['list', 'watch', 'get', 'delete'], [CORE], ['pods'])]],
  ['persistent-volume-binder', [r(['get', 'list', 'watch', 'update', 'create', 'delete'], [CORE], ['persistentvolumes']),
    r(['list', 'watch', 'get', 'create', 'delete'], [CORE], ['pods'])]],
  ['pod-garbage-collector', [r(['list', 'watch', 'delete'], [CORE], ['pods']), r(['patch'], [CORE], ['pods/status'])]],
  ['replicaset-controller', [r(['get', 'list', 'watch', 'update'], [APPS, EXT], ['replicasets']), r(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods'])]],
  ['replication-controller', [r(['get', 'list', 'watch', 'update'], [CORE], ['replicationcontrollers']), r(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods'])]],
  // list and watch on every resource: every Secret
  ['resourcequota-controller', [r(['list', 'watch'], ['*'], ['*']), r(['update'], [CORE], ['resourcequotas/status'])]],
  ['route-controller', [r(['list', 'watch'], [CORE], ['nodes']), r(['patch'], [CORE], ['nodes/status'])]],
  ['service-account-controller', [r(['create'], [CORE], ['serviceaccounts'])]],
  ['service-controller', [r(['get', 'list', 'watch'], [CORE], ['services']), r(['patch', 'update'], [CORE], ['services/status'])]],
  ['statefulset-controller', [r(['get', 'create', 'delete', 'update', 'patch'], [CORE], ['pods']),
    r(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [APPS], ['controllerrevisions']), r(['get', 'create', 'list', 'watch', 'update', 'delete'], [CORE], ['persistentvolumeclaims'])]],
  ['ttl-controller', [r(['update', 'patch', 'list', 'watch'], [CORE], ['nodes'])]],
  ['certificate-controller', [r(['get', 'list', 'watch', 'delete'], [CERTS], ['certificatesigningrequests']),
    r(['update'], [CERTS], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
    r(['approve'], [CERTS], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    r(['sign'], [CERTS], ['signers'], ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving'])]],
  ['pvc-protection-controller', [r(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims'])]],
  ['pv-protection-controller', [r(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumes'])]],
  ['ttl-after-finished-controller', [r(['get', 'list', 'watch', 'delete'], [BATCH], ['jobs'])]],
  // create and update on configmaps in every namespace (kube-root-ca.crt)
  ['root-ca-cert-publisher', [r(['create', 'update'], [CORE], ['configmaps'])]],
  ['validatingadmissionpolicy-status-controller', [r(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status'])]],
  // patch and delete on every Secret: both return it
  ['legacy-service-account-token-cleaner', [r(['patch', 'delete'], [CORE], ['secrets'])]],
];

/** Every identity of the table, in order: superusers, the control plane's users, the controllers, OLM v0, OLM v1. */
export const BUILTIN_NAMES: readonly BuiltinName[] = [
  // the group system:masters is a superuser in every API server (pkg/kubeapiserver/authorizer/config.go: the
  // privileged-group authorizer runs before RBAC) and is bound to cluster-admin
  { kind: 'Group', name: 'system:masters', role: 'cluster-admin', rules: EVERYTHING, upstream: `${POLICY} ClusterRoleBindings; kubernetes pkg/kubeapiserver/authorizer/config.go` },
  {
    kind: 'User',
    name: 'system:kube-controller-manager',
    role: 'system:kube-controller-manager',
    rules: [
      r(['create'], [CORE], ['secrets', 'serviceaccounts']), r(['delete'], [CORE], ['secrets']), r(['get'], [CORE], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      r(['update'], [CORE], ['secrets', 'serviceaccounts']),
      // every shared informer: list and watch on every resource
      r(['list', 'watch'], ['*'], ['*']),
      // a token for any ServiceAccount (--use-service-account-credentials)
      r(['create'], [CORE], ['serviceaccounts/token']),
    ],
    upstream: `${POLICY} ClusterRoles`,
    everything: 'it mints a token for any ServiceAccount: kube-system\'s clusterrole-aggregation-controller (escalate on every ClusterRole) and OLM\'s cluster-admin one among them',
  },
  {
    kind: 'User',
    name: 'system:kube-scheduler',
    role: 'system:kube-scheduler',
    rules: [r(['delete', 'get', 'list', 'watch'], [CORE], ['pods']), r(['create'], [CORE], ['pods/binding', 'bindings']), r(['patch', 'update'], [CORE], ['pods/status'])],
    upstream: `${POLICY} ClusterRoles`,
  },
  {
    kind: 'User',
    name: 'system:kube-proxy',
    role: 'system:node-proxier',
    rules: [r(['list', 'watch'], [CORE], ['services', 'endpoints', 'nodes']), r(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices'])],
    upstream: `${POLICY} ClusterRoles`,
  },
  { kind: 'ServiceAccount', namespace: 'kube-system', name: 'kube-dns', role: 'system:kube-dns', rules: [r(['list', 'watch'], [CORE], ['endpoints', 'services'])], upstream: `${POLICY} ClusterRoles` },
  ...CONTROLLER_ROLES.map(([name, rules]): BuiltinName => ({
    kind: 'ServiceAccount', namespace: 'kube-system', name, role: `system:controller:${name}`, rules, upstream: CONTROLLERS, ...(EVERY_IDENTITY[name] ? { everything: EVERY_IDENTITY[name] } : {}),
  })),
  {
    kind: 'ServiceAccount',
    namespace: 'kube-system',
    name: 'bootstrap-signer',
    role: 'system:controller:bootstrap-signer',
    rules: [r(['get', 'list', 'watch'], [CORE], ['secrets'])],
    upstream: `${NAMESPACED} (a Role in kube-system; counted cluster-wide here, an over-approximation)`,
  },
  {
    kind: 'ServiceAccount',
    namespace: 'kube-system',
    name: 'token-cleaner',
    role: 'system:controller:token-cleaner',
    rules: [r(['delete', 'get', 'list', 'watch'], [CORE], ['secrets'])],
    upstream: `${NAMESPACED} (a Role in kube-system; counted cluster-wide here, an over-approximation)`,
  },
  // OLM v0: olm-operator, catalog-operator and packageserver run as one ServiceAccount, bound to
  // system:controller:operator-lifecycle-manager (* on RBAC, CRDs, APIServices, webhooks, Deployments, Secrets...)
  ...['olm', 'openshift-operator-lifecycle-manager'].map((namespace): BuiltinName => ({
    kind: 'ServiceAccount',
    namespace,
    name: 'olm-operator-serviceaccount',
    role: 'system:controller:operator-lifecycle-manager',
    rules: [
      r(['*'], [CORE], ['namespaces', 'pods', 'services', 'pods/status', 'configmaps', 'secrets', 'serviceaccounts', 'events']),
      r(['*'], ['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']),
      r(['*'], ['apiextensions.k8s.io'], ['customresourcedefinitions']), r(['*'], ['apiregistration.k8s.io'], ['apiservices']),
      r(['*'], [APPS], ['deployments']), r(['*'], [BATCH], ['jobs']), r(['*'], ['operators.coreos.com'], ['*']),
      r(['*'], [RBAC], ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles']), r(['list'], ['*'], ['*']),
      { nonResourceUrls: ['*'], verbs: ['*'] },
    ],
    pods: ['olm-operator', 'catalog-operator'],
    upstream: 'operator-framework/operator-lifecycle-manager deploy/chart/templates/0000_50_olm_01-olm-operator.serviceaccount.yaml (OpenShift: the same in openshift-operator-lifecycle-manager)',
  })),
  // OLM v1: operator-controller is cluster-admin (with BoxcutterRuntime; before, operator-controller-manager-role),
  // catalogd writes ClusterCatalogs (whose content operator-controller installs as cluster-admin)
  {
    kind: 'ServiceAccount',
    namespace: 'olmv1-system',
    name: 'operator-controller-controller-manager',
    role: 'cluster-admin',
    rules: EVERYTHING,
    pods: ['operator-controller-controller-manager'],
    upstream: 'operator-framework/operator-controller helm/olmv1/templates/rbac/clusterrolebinding-operator-controller-manager-rolebinding.yml',
  },
  {
    kind: 'ServiceAccount',
    namespace: 'olmv1-system',
    name: 'catalogd-controller-manager',
    role: 'catalogd-manager-role',
    rules: [r(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['olm.operatorframework.io'], ['clustercatalogs']),
      r(['get', 'patch', 'update'], ['olm.operatorframework.io'], ['clustercatalogs/status'])],
    pods: ['catalogd-controller-manager'],
    upstream: 'operator-framework/operator-controller helm/olmv1/base/catalogd/rbac/standard/role.yaml, templates/rbac/clusterrolebinding-catalogd-manager-rolebinding.yml',
  },
];

/**
 * Node identities: the user `system:node:<name>` in the group `system:nodes`, authorized by the node authorizer
 * (`plugin/pkg/auth/authorizer/node/node_authorizer.go`): the Secrets, ConfigMaps and volumes of the pods bound to the
 * node, and tokens for their ServiceAccounts (`authorizeCreateToken`). The model cannot tell which pods a node runs,
 * OLM's cluster-admin operators among them: a node identity counts as every identity.
 */
export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
export const NODE_AUTHORIZER = 'kubernetes plugin/pkg/auth/authorizer/node/node_authorizer.go authorizeCreateToken, authorizeGet';

/** Bindings of the bootstrap policy the model does not follow, and why. */
export const BENIGN_BOOTSTRAP_BINDINGS: readonly BenignBootstrapBinding[] = [
  { subjects: 'Group system:authenticated', role: 'system:discovery, system:basic-user', reason: 'discovery documents and self subject reviews: public information', upstream: `${POLICY} ClusterRoleBindings` },
  { subjects: 'Group system:authenticated, system:unauthenticated', role: 'system:public-info-viewer', reason: '/healthz, /version and the like', upstream: `${POLICY} ClusterRoleBindings` },
  { subjects: 'Group system:serviceaccounts', role: 'system:service-account-issuer-discovery', reason: 'the OIDC discovery document and public keys', upstream: `${POLICY} ClusterRoleBindings` },
  { subjects: 'Group system:monitoring', role: 'system:monitoring', reason: 'the API server\'s /metrics and health endpoints', upstream: `${POLICY} ClusterRoleBindings` },
  { subjects: 'User system:kube-scheduler', role: 'system:volume-scheduler', reason: 'reads volumes and storage classes, writes PV annotations', upstream: `${POLICY} ClusterRoleBindings` },
  { subjects: '(none)', role: 'system:node', reason: 'bound to no subject since Kubernetes 1.8: nodes are authorized by the node authorizer (the node row)', upstream: `${POLICY} ClusterRoleBindings` },
];
