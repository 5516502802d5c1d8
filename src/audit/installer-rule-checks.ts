/**
 * What an installer ServiceAccount must never be able to do, checked on plain rule lists (no constructs), so the
 * tenant construct, the preflight and tests all use the same answer.
 */
import { BoundedCache, contentKey, isPlainRuleList, rulesKey } from '../core/content-cache';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { checkRuleShape, InputCheck, isCheckedSealedRule, isObject, throwIfInvalid } from '../core/input-check';
import { deputy } from './mechanisms/deputies';
import { STORED_READ_VERBS } from './mechanisms/verb-responses';
import { CODE } from '../core/diagnostic-codes';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules, ResourceRequest } from '../rbac/rbac-rules';

/**
 * Grants that let the installer (and so every operator it installs) gain rights it was not given.
 * Each is a synth error unless listed in `ScopedOperatorTenantProps.allowedSensitiveGrants`.
 */
export enum SensitiveGrant {
  /** `escalate` on roles or clusterroles: create or update roles with rights the installer does not hold. */
  ESCALATE = 'ESCALATE',
  /** `bind` on roles or clusterroles: bind roles with rights the installer does not hold. */
  BIND = 'BIND',
  /** `impersonate` on users, groups, serviceaccounts, uids or userextras: act as someone else. */
  IMPERSONATE = 'IMPERSONATE',
  /**
   * Writes to `operatorgroups`: change the OperatorGroup's targets or ServiceAccount, i.e. its own scope.
   * The OKD docs: "RBAC does not exist on OperatorGroup objects; this absence is what prevents regular users
   * from installing Operators."
   */
  OPERATOR_GROUP_WRITES = 'OPERATOR_GROUP_WRITES',
  /**
   * `create` on `serviceaccounts/token` (TokenRequest): mint a token of any ServiceAccount in reach, i.e. act as it.
   * In the namespaced Role only checked when OLM gives the namespace's ServiceAccounts more than the installer
   * holds (see `InstallerRuleCheckOptions.operatorRbacBeyondNamespace`).
   */
  SERVICE_ACCOUNT_TOKENS = 'SERVICE_ACCOUNT_TOKENS',
  /**
   * `create` on `pods`: run a pod as any ServiceAccount of the namespace and use its token. OLM never needs it
   * (it creates Deployments); operators whose own Roles grant it make the installer hold it (RBAC escalation
   * check). Namespaced: checked as `SERVICE_ACCOUNT_TOKENS`.
   */
  POD_CREATE = 'POD_CREATE',
  /**
   * `create` or `get` on `pods/exec`, `pods/attach` or `pods/portforward` (websocket exec is authorized as `get` on
   * clusters before the `AuthorizePodWebsocketUpgradeCreatePermission` gate): run commands in, or reach the
   * loopback of, pods running as other ServiceAccounts. Namespaced: checked as `SERVICE_ACCOUNT_TOKENS`.
   */
  POD_EXEC = 'POD_EXEC',
  /** `get`, `list` or `watch` on `secrets` in cluster-scoped rules: every token Secret of the cluster. */
  SECRETS_READ_CLUSTER_WIDE = 'SECRETS_READ_CLUSTER_WIDE',
  /** Any verb on `nodes/proxy`: the kubelet API (exec in any pod of the node). Cluster-scoped rules only. */
  NODES_PROXY = 'NODES_PROXY',
  /**
   * Writes to `validatingadmissionpolicies`/`validatingadmissionpolicybindings` (and the mutating ones): remove or
   * loosen admission policies, including `CuratedCatalogAdmissionPolicy`. Cluster-scoped rules only.
   */
  ADMISSION_POLICY_WRITES = 'ADMISSION_POLICY_WRITES',
  /**
   * Writes to `mutatingwebhookconfigurations`: rewrite any object of the cluster on admission (a pod's
   * ServiceAccount, image, volumes). Operators with mutating webhooks need it: OLM creates their webhook
   * configurations with the installer's client. Cluster-scoped rules only.
   */
  MUTATING_WEBHOOK_WRITES = 'MUTATING_WEBHOOK_WRITES',
  /**
   * Writes to `validatingwebhookconfigurations`: receive every object of the selected kinds on admission (Secrets
   * included) and deny requests cluster-wide. Operators with validating webhooks need it (OLM creates their
   * webhook configurations with the installer's client). Cluster-scoped rules only.
   */
  VALIDATING_WEBHOOK_WRITES = 'VALIDATING_WEBHOOK_WRITES',
  /** Writes to `config.openshift.io` `operatorhubs`: re-enable the global catalogs. Cluster-scoped rules only. */
  OPERATOR_HUB_WRITES = 'OPERATOR_HUB_WRITES',
  /**
   * `create`, `update` or `patch` on `catalogsources`: a catalog beside the curated one, or the curated one pointed at
   * another image or address; either serves any package.
   */
  CATALOG_SOURCE_CREATE = 'CATALOG_SOURCE_CREATE',
  /** `update`/`patch` on `certificatesigningrequests/approval`: approve client certificates. Cluster-scoped rules only. */
  CSR_APPROVAL = 'CSR_APPROVAL',
  /** `nonResourceURLs: ['*']` (or `/*`): every non-resource endpoint of the API server. Cluster-scoped rules only. */
  NON_RESOURCE_WILDCARD = 'NON_RESOURCE_WILDCARD',
  /**
   * `update` or `patch` on `pods/ephemeralcontainers`: add a container to a running pod, which runs as the pod's
   * ServiceAccount (as `pods/exec`). Namespaced: checked as `SERVICE_ACCOUNT_TOKENS`.
   */
  POD_EPHEMERAL_CONTAINERS = 'POD_EPHEMERAL_CONTAINERS',
  /**
   * `create` on workload controllers (`deployments`, `replicasets`, `statefulsets`, `daemonsets`, `jobs`,
   * `cronjobs`, `replicationcontrollers`), or `update`/`patch` on those whose pod template can change (all but
   * `jobs`, whose template is immutable), in cluster-scoped rules: their pods run as any ServiceAccount of any
   * namespace (`kube-system` included), as with `POD_CREATE`. Cluster-scoped rules only: OLM itself creates and
   * patches the operator's Deployment with the installer's client in the tenant namespace.
   */
  WORKLOAD_WRITES = 'WORKLOAD_WRITES',
  /**
   * `create` (or `update`/`patch`: another package or source) on `operators.coreos.com` `subscriptions` in
   * cluster-scoped rules: a Subscription in a namespace with a global OperatorGroup (`operators`,
   * `openshift-operators`) is installed by OLM with its own cluster-admin client (OLM issue #3820). Cluster-scoped
   * rules only (the tenant's own Subscriptions are namespaced).
   */
  SUBSCRIPTION_CREATE = 'SUBSCRIPTION_CREATE',
  /**
   * `update` or `patch` on `operators.coreos.com` `installplans` in cluster-scoped rules: approve InstallPlans in
   * every namespace, those of global OperatorGroups included. Cluster-scoped rules only.
   */
  INSTALL_PLAN_APPROVAL = 'INSTALL_PLAN_APPROVAL',
  /**
   * `create` on `persistentvolumes`: a `hostPath` PersistentVolume that a claim in any namespace binds gives its
   * pods the node's filesystem. Cluster-scoped rules only (the kind is cluster-scoped).
   */
  PERSISTENT_VOLUME_CREATE = 'PERSISTENT_VOLUME_CREATE',
  /**
   * `update` or `patch` on `namespaces` (or `namespaces/status`, `namespaces/finalize`, whose updates keep new
   * labels): rewrite a Namespace's Pod Security labels (`privileged`) and run
   * privileged pods there. Also in the namespaced Role: a request for the Namespace object itself is authorized in
   * that namespace (k8s `apiserver/pkg/endpoints/request/requestinfo.go`), so a Role may patch its own Namespace.
   */
  NAMESPACE_WRITES = 'NAMESPACE_WRITES',
  /**
   * Writes to `networking.k8s.io` `networkpolicies` in cluster-scoped rules: delete or loosen any namespace's
   * isolation, or create an allow policy there (policies add up, so one allow-all opens the selected pods).
   * Cluster-scoped rules only.
   */
  NETWORK_POLICY_WRITES = 'NETWORK_POLICY_WRITES',
  /**
   * `update` or `patch` on `services` in cluster-scoped rules: redirect any namespace's Service (selector, ports)
   * or set `externalIPs` that intercept cluster traffic (CVE-2020-8554). Cluster-scoped rules only.
   */
  SERVICE_UPDATE = 'SERVICE_UPDATE',
  /**
   * `update` or `patch` on `configmaps` in cluster-scoped rules: the ConfigMaps of `kube-system` (CoreDNS, kube-proxy,
   * EKS `aws-auth`, which maps identities to `system:masters`) and of every tenant. Cluster-scoped rules only.
   */
  CONFIGMAP_UPDATE = 'CONFIGMAP_UPDATE',
  /**
   * `create`, `update` or `patch` on `olm.operatorframework.io` `clusterobjectsets`: with operator-controller's
   * `BoxcutterRuntime` its ClusterObjectSet reconciler applies every object of every ClusterObjectSet with its own
   * cluster-admin client, whoever wrote it (operator-controller `internal/operator-controller/controllers/
   * clusterobjectset_controller.go`; `phases` may still be set on an update while empty): cluster-admin-equivalent.
   * Upstream's example installer role (`docs/howto/how-to-protect-olmv1-api-access.md`) grants it. Cluster-scoped
   * rules only (the kind is cluster-scoped).
   */
  CLUSTER_OBJECT_SET_WRITES = 'CLUSTER_OBJECT_SET_WRITES',
  /**
   * `update` or `patch` on `pods`: a running pod's containers may get another image (k8s `pkg/apis/core/validation`
   * `ValidatePodUpdate` lets `spec.containers[*].image` and `spec.initContainers[*].image` change); the kubelet
   * restarts the container with it, as the pod's ServiceAccount. Namespaced: checked as `SERVICE_ACCOUNT_TOKENS`.
   */
  POD_IMAGE_UPDATE = 'POD_IMAGE_UPDATE',
  /**
   * `create`, `update` or `patch` on `operators.coreos.com` `clusterserviceversions` in cluster-scoped rules: olm-operator
   * (re)applies a CSV's `spec.install` Deployments with its own client whenever the CSV changes, so their pods run as any
   * ServiceAccount of any namespace an OperatorGroup selects. Cluster-scoped rules only: OLM creates the tenant's own
   * CSVs with the installer's client.
   */
  CSV_WRITES = 'CSV_WRITES',
  /**
   * `update` or `patch` on `operators.coreos.com` `installplans/status`: catalog-operator executes the steps of an
   * InstallPlan's `status.plan` with the namespace's OperatorGroup ServiceAccount, or with its own cluster-admin client
   * in a group without one (the global `operators` and `openshift-operators`). Cluster-scoped rules only.
   */
  INSTALL_PLAN_STATUS_WRITES = 'INSTALL_PLAN_STATUS_WRITES',
  /**
   * `create`, `update` or `patch` on `olm.operatorframework.io` `clusterextensions` or `clustercatalogs`:
   * operator-controller installs any package of any ClusterCatalog with its own cluster-admin client
   * (cluster-admin-equivalent). Cluster-scoped rules only (the kinds are cluster-scoped).
   */
  OLM_V1_INSTALL_WRITES = 'OLM_V1_INSTALL_WRITES',
  /**
   * Writes that break or take over what every tenant shares, in cluster-scoped rules: `delete`/`deletecollection` on
   * `clusterrolebindings`, `clusterroles` and `namespaces`; `update`/`patch`/`delete`/`deletecollection` on
   * `customresourcedefinitions` (a CRD's deletion deletes every tenant's objects of it; an update rewrites its
   * conversion webhook) and `apiservices` (which route whole API groups).
   */
  DESTRUCTIVE_CLUSTER_WRITES = 'DESTRUCTIVE_CLUSTER_WRITES',
}

/** Options of `InstallerRuleChecks.errors` and `InstallerRuleChecks.warnings`. */
export interface InstallerRuleCheckOptions {
  /** True for ClusterRole rules (cluster-wide grant), false for the tenant's namespaced Role. */
  readonly clusterScoped: boolean;
  /**
   * Sensitive grants the caller explicitly accepts.
   * @default - none
   */
  readonly allowedSensitiveGrants?: SensitiveGrant[];
  /**
   * Name of the prop or method holding the rules, used in messages (e.g. `installerRules`).
   * @default 'installerRules'
   */
  readonly field?: string;
  /**
   * Namespaced rules only: true when OLM gives the ServiceAccounts of the namespace rights the installer does not
   * hold, i.e. the OperatorGroup targets other namespaces or all namespaces (OLM copies the operator's Roles there,
   * or lifts them to ClusterRoles, with its own client). Then acting as another ServiceAccount of the namespace
   * (`POD_CREATE`, `POD_EXEC`, `SERVICE_ACCOUNT_TOKENS`) is an escalation; otherwise those ServiceAccounts hold
   * only rules the installer had to hold itself (RBAC escalation check) and the grants are not checked there.
   * @default false
   */
  readonly operatorRbacBeyondNamespace?: boolean;
  /**
   * Namespaced rules only: the rules the bundles' own Roles grant in the namespace (CSV `permissions`, bundle Roles).
   * `POD_CREATE`, `POD_EXEC` and `SERVICE_ACCOUNT_TOKENS` requests that these cover are accepted: OLM's RBAC
   * escalation check makes the installer hold them to create the operator's Role. Never applied to cluster-scoped
   * rules, nor to the other grants.
   * @default - none
   */
  readonly bundleGrantedRules?: PolicyRule[];
}

/** A sensitive grant accepted by name with a reason (`ScopedOperatorTenantProps.acceptedSensitiveGrants`). */
export interface SensitiveGrantAcceptance {
  /** The grant. */
  readonly grant: SensitiveGrant;
  /** Why the installer may hold it; written to the annotation `cdk8s-olm-tenancy.io/sensitive-grants` and the report. */
  readonly reason: string;
}

/** A sensitive grant accepted because the bundles' own namespaced Roles grant it (see `bundleGrantedRules`). */
export interface AcceptedSensitiveGrant {
  /** The grant. */
  readonly grant: SensitiveGrant;
  /** What it allows, e.g. `'create' on pods`. */
  readonly what: string;
}

/** The verbs that change objects. */
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];

interface Probe {
  readonly what: string;
  readonly requests: ResourceRequest[];
  /**
   * Where the grant is checked: 'cluster' (cluster-scoped rules only: the resource is cluster-scoped, or the grant
   * is only dangerous across namespaces), 'assume' (cluster-scoped rules, and namespaced ones when OLM gives the
   * namespace's ServiceAccounts more than the installer), 'any' (both).
   */
  readonly scope: 'cluster' | 'assume' | 'any';
}

const ADMISSION = 'admissionregistration.k8s.io';
/** Every request of a deputy row (`mechanisms/deputies.ts`): its verbs on its resources. */
const rowRequests = (id: string): ResourceRequest[] => {
  const row = deputy(id);
  return row.resources.flatMap((resource) => row.verbs.map((verb) => ({ verb, apiGroup: row.group, resource })));
};
/** Constrained impersonation's verbs (`impersonation/mode.go`): `impersonate:<mode>` on `authentication.k8s.io`. */
const CONSTRAINED_IMPERSONATION: ResourceRequest[] = [
  ...['users', 'groups', 'uids', 'userextras'].map((resource) => ({ verb: 'impersonate:user-info', apiGroup: 'authentication.k8s.io', resource })),
  { verb: 'impersonate:serviceaccount', apiGroup: 'authentication.k8s.io', resource: 'serviceaccounts' },
  ...['arbitrary-node', 'associated-node'].map((mode) => ({ verb: `impersonate:${mode}`, apiGroup: 'authentication.k8s.io', resource: 'nodes' })),
];
const writes = (apiGroup: string, resources: string[]): ResourceRequest[] =>
  resources.flatMap((resource) => WRITE_VERBS.map((verb) => ({ verb, apiGroup, resource })));

/**
 * Cluster-scoped writes that break or take over what every tenant shares (`DESTRUCTIVE_CLUSTER_WRITES`): deleting a
 * ClusterRoleBinding, a ClusterRole or a Namespace; deleting a CRD (every custom resource of it goes,
 * `apiextensions-apiserver` `crdFinalizer`) or rewriting it (its conversion webhook); rerouting or removing an APIService
 * (`kube-aggregator`). Not `update`/`patch` on ClusterRoles, although a patch may empty any role
 * (`pkg/registry/rbac/clusterrole/policybased/storage.go` checks only the new rules, and none are always covered): every
 * installer of an operator with `clusterPermissions` must patch the ClusterRoles OLM generates, whose names it cannot
 * know before the install (a hash, docs/rbac.md). Nor `update`/`patch` on ClusterRoleBindings: their storage checks
 * `bind` (or the role's rules) on every change of subjects.
 */
const DESTRUCTIVE_REQUESTS: ResourceRequest[] = [
  ...['delete', 'deletecollection'].map((verb) => ({ verb, apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' })),
  ...['delete', 'deletecollection'].map((verb) => ({ verb, apiGroup: '', resource: 'namespaces' })),
  ...['delete', 'deletecollection'].map((verb) => ({ verb, apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles' })),
  ...['update', 'patch', 'delete', 'deletecollection'].map((verb) => ({ verb, apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' })),
  ...['update', 'patch', 'delete', 'deletecollection'].map((verb) => ({ verb, apiGroup: 'apiregistration.k8s.io', resource: 'apiservices' })),
];

/** Cluster-scoped kinds that only OLM itself (as cluster-admin) creates: never the installer. */
const OLM_ONLY: { code: string; what: string; apiGroup: string; resource: string }[] = [
  { code: CODE.InstallerCanWriteCrds, what: 'customresourcedefinitions', apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
  { code: CODE.InstallerCanWriteApiServices, what: 'apiservices', apiGroup: 'apiregistration.k8s.io', resource: 'apiservices' },
];

const SENSITIVE: Record<SensitiveGrant, Probe> = {
  [SensitiveGrant.ESCALATE]: {
    what: "'escalate' on roles/clusterroles",
    requests: ['roles', 'clusterroles'].map((resource) => ({ verb: 'escalate', apiGroup: 'rbac.authorization.k8s.io', resource })),
    scope: 'any',
  },
  [SensitiveGrant.BIND]: {
    what: "'bind' on roles/clusterroles",
    requests: ['roles', 'clusterroles'].map((resource) => ({ verb: 'bind', apiGroup: 'rbac.authorization.k8s.io', resource })),
    scope: 'any',
  },
  [SensitiveGrant.IMPERSONATE]: {
    what: "'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras)",
    requests: [
      ...['users', 'groups', 'serviceaccounts'].map((resource) => ({ verb: 'impersonate', apiGroup: '', resource })),
      ...['uids', 'userextras'].map((resource) => ({ verb: 'impersonate', apiGroup: 'authentication.k8s.io', resource })),
      ...CONSTRAINED_IMPERSONATION,
    ],
    scope: 'any',
  },
  [SensitiveGrant.OPERATOR_GROUP_WRITES]: {
    what: 'writes to operators.coreos.com operatorgroups',
    requests: WRITE_VERBS.map((verb) => ({ verb, apiGroup: 'operators.coreos.com', resource: 'operatorgroups' })),
    scope: 'any',
  },
  [SensitiveGrant.SERVICE_ACCOUNT_TOKENS]: {
    what: "'create' on serviceaccounts/token",
    requests: [{ verb: 'create', apiGroup: '', resource: 'serviceaccounts/token' }],
    scope: 'assume',
  },
  [SensitiveGrant.POD_CREATE]: {
    what: "'create' on pods",
    requests: [{ verb: 'create', apiGroup: '', resource: 'pods' }],
    scope: 'assume',
  },
  [SensitiveGrant.POD_EXEC]: {
    what: "'create'/'get' on pods/exec, pods/attach or pods/portforward",
    requests: ['pods/exec', 'pods/attach', 'pods/portforward'].flatMap((resource) => ['create', 'get'].map((verb) => ({ verb, apiGroup: '', resource }))),
    scope: 'assume',
  },
  [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE]: {
    what: "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them)",
    // every verb whose response carries the stored object (mechanisms/verb-responses.ts; dryRun=All: no side effect)
    requests: STORED_READ_VERBS.map((verb) => ({ verb, apiGroup: '', resource: 'secrets' })),
    scope: 'cluster',
  },
  [SensitiveGrant.NODES_PROXY]: {
    what: 'nodes/proxy (the kubelet API)',
    requests: ['get', 'create', 'update', 'patch', 'delete'].map((verb) => ({ verb, apiGroup: '', resource: 'nodes/proxy' })),
    scope: 'cluster',
  },
  [SensitiveGrant.ADMISSION_POLICY_WRITES]: {
    what: `writes to ${ADMISSION} validating/mutating admission policies and their bindings`,
    requests: writes(ADMISSION, ['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']),
    scope: 'cluster',
  },
  [SensitiveGrant.MUTATING_WEBHOOK_WRITES]: {
    what: `writes to ${ADMISSION} mutatingwebhookconfigurations`,
    requests: writes(ADMISSION, ['mutatingwebhookconfigurations']),
    scope: 'cluster',
  },
  [SensitiveGrant.VALIDATING_WEBHOOK_WRITES]: {
    what: `writes to ${ADMISSION} validatingwebhookconfigurations`,
    requests: writes(ADMISSION, ['validatingwebhookconfigurations']),
    scope: 'cluster',
  },
  [SensitiveGrant.OPERATOR_HUB_WRITES]: {
    what: 'writes to config.openshift.io operatorhubs',
    requests: writes('config.openshift.io', ['operatorhubs']),
    scope: 'cluster',
  },
  [SensitiveGrant.CATALOG_SOURCE_CREATE]: {
    what: "'create'/'update'/'patch' on operators.coreos.com catalogsources",
    // update and patch too: `spec.image`/`spec.address` of an existing CatalogSource (the curated one) may change
    requests: ['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: 'operators.coreos.com', resource: 'catalogsources' })),
    scope: 'any',
  },
  [SensitiveGrant.CSR_APPROVAL]: {
    what: "'update'/'patch' on certificates.k8s.io certificatesigningrequests/approval",
    requests: ['update', 'patch'].map((verb) => ({ verb, apiGroup: 'certificates.k8s.io', resource: 'certificatesigningrequests/approval' })),
    scope: 'cluster',
  },
  [SensitiveGrant.NON_RESOURCE_WILDCARD]: {
    what: "every non-resource URL (nonResourceURLs '*')",
    requests: ['get', 'post', 'put', 'patch', 'delete'].map((verb) => ({ verb, nonResourcePath: '/olmt-probe/any/path' })),
    scope: 'cluster',
  },
  [SensitiveGrant.POD_EPHEMERAL_CONTAINERS]: {
    what: "'update'/'patch' on pods/ephemeralcontainers",
    requests: ['update', 'patch'].map((verb) => ({ verb, apiGroup: '', resource: 'pods/ephemeralcontainers' })),
    scope: 'assume',
  },
  [SensitiveGrant.WORKLOAD_WRITES]: {
    what: "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, "
      + 'cronjobs, replicationcontrollers; controllerrevisions, the statefulsets\' templates) in every namespace',
    requests: [
      ...['deployments', 'replicasets', 'statefulsets', 'daemonsets'].flatMap((resource) => ['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: 'apps', resource }))),
      { verb: 'create', apiGroup: 'batch', resource: 'jobs' },
      ...['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: 'batch', resource: 'cronjobs' })),
      ...['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: '', resource: 'replicationcontrollers' })),
      // the StatefulSet controller builds the current revision's pods from its ControllerRevision (deputy child-controllerrevisions)
      ...rowRequests('child-controllerrevisions'),
    ],
    scope: 'cluster',
  },
  [SensitiveGrant.SUBSCRIPTION_CREATE]: {
    what: "'create'/'update'/'patch' on operators.coreos.com subscriptions in every namespace",
    // an update or patch of a global Subscription's spec (another package or source) is installed the same way
    requests: ['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: 'operators.coreos.com', resource: 'subscriptions' })),
    scope: 'cluster',
  },
  [SensitiveGrant.INSTALL_PLAN_APPROVAL]: {
    what: "'update'/'patch' on operators.coreos.com installplans in every namespace",
    requests: ['update', 'patch'].map((verb) => ({ verb, apiGroup: 'operators.coreos.com', resource: 'installplans' })),
    scope: 'cluster',
  },
  [SensitiveGrant.PERSISTENT_VOLUME_CREATE]: {
    what: "'create' on persistentvolumes",
    requests: [{ verb: 'create', apiGroup: '', resource: 'persistentvolumes' }],
    scope: 'cluster',
  },
  [SensitiveGrant.NAMESPACE_WRITES]: {
    what: "'update'/'patch' on namespaces",
    // namespaces/status and namespaces/finalize too: their updates keep the new metadata (labels included;
    // k8s pkg/registry/core/namespace/strategy.go, ValidateNamespaceStatusUpdate checks only ObjectMeta rules)
    requests: ['update', 'patch'].flatMap((verb) => ['namespaces', 'namespaces/status', 'namespaces/finalize'].map((resource) => ({ verb, apiGroup: '', resource }))),
    scope: 'any',
  },
  [SensitiveGrant.NETWORK_POLICY_WRITES]: {
    what: 'writes to networking.k8s.io networkpolicies in every namespace',
    requests: writes('networking.k8s.io', ['networkpolicies']),
    scope: 'cluster',
  },
  [SensitiveGrant.SERVICE_UPDATE]: {
    what: "'update'/'patch' on services in every namespace",
    // services/status too: a LoadBalancer's status.loadBalancer.ingress IPs intercept traffic as externalIPs do (CVE-2020-8554)
    requests: ['update', 'patch'].flatMap((verb) => ['services', 'services/status'].map((resource) => ({ verb, apiGroup: '', resource }))),
    scope: 'cluster',
  },
  [SensitiveGrant.CLUSTER_OBJECT_SET_WRITES]: {
    what: "'create'/'update'/'patch' on olm.operatorframework.io clusterobjectsets (operator-controller applies their objects as cluster-admin)",
    requests: ['create', 'update', 'patch'].map((verb) => ({ verb, apiGroup: 'olm.operatorframework.io', resource: 'clusterobjectsets' })),
    scope: 'cluster',
  },
  [SensitiveGrant.CONFIGMAP_UPDATE]: {
    what: "'update'/'patch' on configmaps in every namespace",
    requests: ['update', 'patch'].map((verb) => ({ verb, apiGroup: '', resource: 'configmaps' })),
    scope: 'cluster',
  },
  [SensitiveGrant.POD_IMAGE_UPDATE]: {
    what: "'update'/'patch' on pods (a running container's image)",
    requests: ['update', 'patch'].map((verb) => ({ verb, apiGroup: '', resource: 'pods' })),
    scope: 'assume',
  },
  [SensitiveGrant.CSV_WRITES]: {
    what: "'create'/'update'/'patch' on operators.coreos.com clusterserviceversions in every namespace (olm-operator runs their Deployments as any ServiceAccount)",
    requests: rowRequests('olm-csv'),
    scope: 'cluster',
  },
  [SensitiveGrant.INSTALL_PLAN_STATUS_WRITES]: {
    what: "'update'/'patch' on operators.coreos.com installplans/status (catalog-operator executes status.plan as the OperatorGroup's ServiceAccount, or as cluster-admin)",
    requests: rowRequests('olm-installplan-steps'),
    scope: 'cluster',
  },
  [SensitiveGrant.OLM_V1_INSTALL_WRITES]: {
    what: "'create'/'update'/'patch' on olm.operatorframework.io clusterextensions or clustercatalogs (operator-controller installs any package as cluster-admin)",
    requests: rowRequests('olm-v1-installs'),
    scope: 'cluster',
  },
  [SensitiveGrant.DESTRUCTIVE_CLUSTER_WRITES]: {
    what: "'delete' on clusterrolebindings, clusterroles or namespaces, or 'update'/'patch'/'delete' on customresourcedefinitions or apiservices (what every tenant shares)",
    requests: DESTRUCTIVE_REQUESTS,
    scope: 'cluster',
  },
};

function probed(grant: SensitiveGrant, options: InstallerRuleCheckOptions): boolean {
  const scope = SENSITIVE[grant].scope;
  if (options.clusterScoped || scope === 'any') return true;
  return scope === 'assume' && options.operatorRbacBeyondNamespace === true;
}

/** Whether `checkArguments` would pass without looking at anything it has not passed before. */
function checkedBefore(rules: unknown, options: unknown): boolean {
  if (!allCheckedSealedRules(rules) || !isObject(options)) return false;
  const o = options as { field?: unknown; bundleGrantedRules?: unknown; allowedSensitiveGrants?: unknown };
  if (o.field !== undefined && !checkedField(o.field)) return false;
  if (o.bundleGrantedRules !== undefined && !allCheckedSealedRules(o.bundleGrantedRules)) return false;
  const grants = o.allowedSensitiveGrants;
  if (grants === undefined) return true;
  if (!Array.isArray(grants)) return false;
  for (const g of grants) if (!SENSITIVE_GRANT_VALUES.has(g)) return false;
  return true;
}

function allCheckedSealedRules(rules: unknown): boolean {
  if (!Array.isArray(rules)) return false;
  for (const r of rules) if (!isCheckedSealedRule(r, false)) return false;
  return true;
}

const SENSITIVE_GRANT_VALUES: ReadonlySet<unknown> = new Set<unknown>(Object.values(SensitiveGrant));

/** `options.field` values that passed the check (a few constant names). */
const CHECKED_FIELDS_CACHE = new Set<string>();
function checkedField(field: unknown): boolean {
  if (typeof field !== 'string') return false;
  if (CHECKED_FIELDS_CACHE.has(field)) return true;
  if (new InputCheck().optionalString('options.field', field) === undefined) return false;
  if (CHECKED_FIELDS_CACHE.size < 64) CHECKED_FIELDS_CACHE.add(field);
  return true;
}

/** Checks of installer rule lists. */
export class InstallerRuleChecks {
  /**
   * True for the docs' "do anything in the namespace" rule: `*` verbs on `*` resources in `*` groups, any name.
   */
  public static isFullWildcard(rule: PolicyRule): boolean {
    // The wildcard test first (it runs for every rule of every tenant; the full validation is the costly part): a
    // well-formed rule never makes it throw, so a throw means a malformed rule, which is no wildcard either.
    let wildcard: boolean;
    try {
      wildcard = (rule.verbs ?? []).includes('*') &&
        (rule.apiGroups ?? []).includes('*') &&
        (rule.resources ?? []).includes('*') &&
        (rule.resourceNames ?? []).length === 0;
    } catch {
      return false;
    }
    if (!wildcard) return false;
    // a malformed rule (JavaScript, jsii) is no wildcard; `errors` reports it as InvalidInstallerRule
    return !RbacRules.validate(rule).some((p) => p.startsWith('rule must be an object') || p.startsWith('rule field '));
  }

  /**
   * The problems that make `rules` unacceptable for an installer, one per problem:
   * invalid rules (`RbacRules.validate`), cluster-scoped writes to CRDs or APIServices (always), and sensitive
   * grants not in `allowedSensitiveGrants`. In a namespaced Role, full-wildcard rules are left to `warnings`
   * (a Role cannot reach cluster-scoped kinds; the OKD docs' example uses one).
   */
  public static errors(rules: PolicyRule[], options: InstallerRuleCheckOptions): DiagnosticDetails[] {
    checkArguments('InstallerRuleChecks.errors', rules, options);
    // Thousands of tenants usually hold equal rule lists (derived from the same bundles): check each list once.
    const bundleGranted = options.bundleGrantedRules ?? [];
    if (!isPlainRuleList(rules) || !isPlainRuleList(bundleGranted)) return computeErrors(rules, options);
    const key = `${rulesKey(rules)}\u0000${rulesKey(bundleGranted)}\u0000${contentKey([
      !!options.clusterScoped, options.allowedSensitiveGrants ?? [], options.field ?? 'installerRules', options.operatorRbacBeyondNamespace === true,
    ])}`;
    return ERRORS_CACHE.get(key, () => computeErrors(rules, options)).map((d) => ({ ...d }));
  }

  /**
   * The sensitive grants of namespaced `rules` accepted only because `bundleGrantedRules` grant them too (none for
   * cluster-scoped rules), in `SensitiveGrant` order; grants in `allowedSensitiveGrants` are not listed.
   */
  public static bundleAcceptedGrants(rules: PolicyRule[], options: InstallerRuleCheckOptions): AcceptedSensitiveGrant[] {
    checkArguments('InstallerRuleChecks.bundleAcceptedGrants', rules, options);
    // as `errors`: equal rule lists are checked once
    const bundleGranted = options.bundleGrantedRules ?? [];
    if (!isPlainRuleList(rules) || !isPlainRuleList(bundleGranted)) return computeBundleAcceptedGrants(rules, options);
    const key = `${rulesKey(rules)}\u0000${rulesKey(bundleGranted)}\u0000${contentKey([
      !!options.clusterScoped, options.allowedSensitiveGrants ?? [], options.operatorRbacBeyondNamespace === true,
    ])}`;
    return ACCEPTED_CACHE.get(key, () => computeBundleAcceptedGrants(rules, options)).map((a) => ({ ...a }));
  }

  /**
   * The sensitive grants of `allowedSensitiveGrants` that `rules` actually hold (where `errors` would report them
   * without the acceptance), in `SensitiveGrant` order: what the acceptance lets through, for annotations and reports.
   */
  public static allowedGrantsHeld(rules: PolicyRule[], options: InstallerRuleCheckOptions): AcceptedSensitiveGrant[] {
    checkArguments('InstallerRuleChecks.allowedGrantsHeld', rules, options);
    if ((options.allowedSensitiveGrants ?? []).length === 0) return []; // the common case, at every render of every tenant
    const valid = rules.map((rule, index) => ({ rule, index })).filter((v) => RbacRules.validate(v.rule, !options.clusterScoped).length === 0);
    return heldGrants(valid, options, options.allowedSensitiveGrants ?? []).map(({ grant }) => ({ grant, what: SENSITIVE[grant].what }));
  }

  /**
   * Every sensitive grant that `rules` hold, accepted or not, in `SensitiveGrant` order (matched as `errors` matches
   * them, but for an installer's CRD and APIService writes, which `errors` reports as their own errors and this counts as
   * `DESTRUCTIVE_CLUSTER_WRITES`). The single registry of sensitive grants: OLM v1's permission preview probes subjects'
   * cluster-wide rules with it (`clusterScoped: true`), so the v0 and v1 checks cannot drift apart.
   */
  public static sensitiveGrantsHeld(rules: PolicyRule[], options: InstallerRuleCheckOptions): AcceptedSensitiveGrant[] {
    checkArguments('InstallerRuleChecks.sensitiveGrantsHeld', rules, options);
    const valid = rules.map((rule, index) => ({ rule, index })).filter((v) => RbacRules.validate(v.rule, !options.clusterScoped).length === 0);
    return heldGrants(valid, options, Object.values(SensitiveGrant), false).map(({ grant }) => ({ grant, what: SENSITIVE[grant].what }));
  }

  /**
   * The requests each grant probes and where (the registry as data, for the completeness check of the API table).
   * @internal
   */
  public static _probes(): Array<{ grant: SensitiveGrant; scope: string; requests: ResourceRequest[] }> {
    return Object.values(SensitiveGrant).map((grant) => ({
      grant, scope: SENSITIVE[grant].scope, requests: SENSITIVE[grant].requests.map((r) => ({ ...r })),
    }));
  }

  /** Findings that do not stop synthesis: full-wildcard rules in the namespaced Role. */
  public static warnings(rules: PolicyRule[], options: InstallerRuleCheckOptions): DiagnosticDetails[] {
    checkArguments('InstallerRuleChecks.warnings', rules, options);
    if (options.clusterScoped) return [];
    const field = options.field ?? 'installerRules';
    const out: DiagnosticDetails[] = [];
    rules.forEach((rule, index) => {
      if (!InstallerRuleChecks.isFullWildcard(rule)) return;
      out.push({
        code: CODE.WildcardInstallerRole,
        field: `${field}[${index}]`,
        value: JSON.stringify(rulesJson(rule)),
        message:
          "the installer Role allows every verb on every resource in the namespace (the OKD docs' demonstration Role); operators installed with it can do anything there, including escalate, bind and OperatorGroup writes",
        fix: 'use the default fine-grained rules (DefaultInstallerRules.okdScopedInstall) plus what your operators need',
      });
    });
    return out;
  }

  private constructor() {}
}

/** `InstallerRuleChecks.errors` results by input content. */
const ERRORS_CACHE = new BoundedCache<DiagnosticDetails[]>(1024);

/** `InstallerRuleChecks.errors`, uncached. */
function computeErrors(rules: PolicyRule[], options: InstallerRuleCheckOptions): DiagnosticDetails[] {
  const field = options.field ?? 'installerRules';
  const out: DiagnosticDetails[] = [];
  const valid: { rule: PolicyRule; index: number }[] = [];
  rules.forEach((rule, index) => {
    const problems = RbacRules.validate(rule, !options.clusterScoped);
    for (const problem of problems) {
      out.push({
        code: CODE.InvalidInstallerRule,
        field: `${field}[${index}]`,
        message: problem,
        fix: 'correct or remove the rule',
      });
    }
    if (problems.length === 0) valid.push({ rule, index });
  });

  const withNames = namedProbes(valid);
  const grantingRules = (candidates: IndexedRule[], requests: ResourceRequest[]) => {
    const probes = withNames(requests);
    return candidates.filter((c) => probes.some((r) => RbacRules.allows([c.rule], r)));
  };
  const describe = (found: { rule: PolicyRule; index: number }[]) =>
    found.map((f) => `${field}[${f.index}] ${JSON.stringify(rulesJson(f.rule))}`).join(', ');

  if (options.clusterScoped) {
    for (const kind of OLM_ONLY) {
      const validRules = valid.map((v) => v.rule);
      const verbs = WRITE_VERBS.filter((verb) =>
        withNames([{ verb, apiGroup: kind.apiGroup, resource: kind.resource }]).some((r) => RbacRules.allows(validRules, r)),
      );
      if (verbs.length === 0) continue;
      const found = grantingRules(valid, verbs.map((verb) => ({ verb, apiGroup: kind.apiGroup, resource: kind.resource })));
      out.push({
        code: kind.code,
        field,
        value: describe(found),
        message: `the cluster-scoped installer rules allow ${verbs.join('/')} on ${kind.apiGroup} ${kind.what}; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources")`,
        fix: `narrow the rule's apiGroups/resources/verbs so that it does not match ${kind.apiGroup} ${kind.what}`,
      });
    }
  }

  const allowed = new Set(options.allowedSensitiveGrants ?? []);
  for (const { grant, found } of heldGrants(valid, options, [...Object.values(SensitiveGrant)].filter((g) => !allowed.has(g)))) {
    const probe = SENSITIVE[grant];
    out.push({
      code: CODE.InstallerSensitiveGrant,
      field,
      value: describe(found),
      message: `the ${options.clusterScoped ? 'cluster-scoped' : 'namespaced'} installer rules grant ${probe.what} (SensitiveGrant.${grant}); an operator installed with them could gain rights nobody reviewed`,
      fix: `remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.${grant}, reason }]`,
    });
  }
  return out;
}

interface IndexedRule {
  readonly rule: PolicyRule;
  readonly index: number;
}

/**
 * The probes of `requests` for `valid` rules: a rule with resourceNames grants only requests for those names, so
 * they are probed too. Upstream RBAC never matches create/deletecollection against resourceNames (the request has
 * no name), so those stay unnamed.
 */
function namedProbes(valid: IndexedRule[]): (requests: ResourceRequest[]) => ResourceRequest[] {
  const names = [...new Set(valid.flatMap((v) => v.rule.resourceNames ?? []))].sort();
  return (requests) => [
    ...requests,
    ...requests.filter((r) => r.verb !== 'create' && r.verb !== 'deletecollection' && r.nonResourcePath === undefined).flatMap((r) => names.map((name) => ({ ...r, name }))),
  ];
}

/**
 * Which of `grants` the `valid` rules hold (matched with the RBAC engine: wildcards, `*\/subresource` and
 * resourceNames as the authorizer matches them), in `SensitiveGrant` order, with the rules that grant each. In the
 * namespaced Role full-wildcard rules are left to `warnings`, and 'assume' requests the bundles' own Roles grant too
 * are not counted (the installer must hold them).
 */
function heldGrants(
  valid: IndexedRule[], options: InstallerRuleCheckOptions, grants: SensitiveGrant[], installer = true,
): Array<{ grant: SensitiveGrant; found: IndexedRule[] }> {
  const withNames = namedProbes(valid);
  const candidates = options.clusterScoped ? valid : valid.filter((v) => !InstallerRuleChecks.isFullWildcard(v.rule));
  const bundleGranted = options.clusterScoped ? [] : options.bundleGrantedRules ?? [];
  const out: Array<{ grant: SensitiveGrant; found: IndexedRule[] }> = [];
  for (const grant of Object.values(SensitiveGrant)) {
    if (!grants.includes(grant) || !probed(grant, options)) continue;
    const probe = SENSITIVE[grant];
    // an installer's writes of CRDs and APIServices are their own errors (OLMT-001, OLMT-002), never accepted
    const own = installer
      ? probe.requests.filter((r) => !OLM_ONLY.some((k) => k.apiGroup === r.apiGroup && k.resource === r.resource))
      : probe.requests;
    const requests = probe.scope === 'assume' ? own.filter((r) => !RbacRules.allows(bundleGranted, r)) : own;
    if (requests.length === 0) continue;
    const probes = withNames(requests);
    const found = candidates.filter((c) => probes.some((r) => RbacRules.allows([c.rule], r)));
    if (found.length > 0) out.push({ grant, found });
  }
  return out;
}

/** `InstallerRuleChecks.bundleAcceptedGrants` results by input content. */
const ACCEPTED_CACHE = new BoundedCache<AcceptedSensitiveGrant[]>(1024);

/** `InstallerRuleChecks.bundleAcceptedGrants`, uncached. */
function computeBundleAcceptedGrants(rules: PolicyRule[], options: InstallerRuleCheckOptions): AcceptedSensitiveGrant[] {
  if (options.clusterScoped) return [];
  const bundleGranted = options.bundleGrantedRules ?? [];
  if (bundleGranted.length === 0) return [];
  const allowed = new Set(options.allowedSensitiveGrants ?? []);
  const held = rules.filter((r) => RbacRules.validate(r, true).length === 0 && !InstallerRuleChecks.isFullWildcard(r));
  const out: AcceptedSensitiveGrant[] = [];
  for (const grant of Object.values(SensitiveGrant)) {
    if (allowed.has(grant) || !probed(grant, options) || SENSITIVE[grant].scope !== 'assume') continue;
    const probe = SENSITIVE[grant];
    if (probe.requests.some((r) => RbacRules.allows(held, r) && RbacRules.allows(bundleGranted, r))) out.push({ grant, what: probe.what });
  }
  return out;
}

/** The rule as Kubernetes JSON for messages; a field given as `null` (JavaScript: not given) is left out. */
function rulesJson(rule: PolicyRule): any {
  const out: any = {};
  if (rule.apiGroups !== undefined && rule.apiGroups !== null) out.apiGroups = rule.apiGroups;
  if (rule.resources !== undefined && rule.resources !== null) out.resources = rule.resources;
  if ((rule.resourceNames ?? []).length > 0) out.resourceNames = rule.resourceNames;
  if ((rule.nonResourceUrls ?? []).length > 0) out.nonResourceURLs = rule.nonResourceUrls;
  out.verbs = rule.verbs;
  return out;
}

/** The arguments of the static checks (JavaScript and jsii callers): a clear Error instead of a TypeError. */
function checkArguments(method: string, rules: unknown, options: unknown): void {
  // the library's own calls pass shared, deep-frozen rules checked before (thousands of tenants, several calls each)
  if (checkedBefore(rules, options)) return;
  const check = new InputCheck();
  // unknown keys (a typo, the Kubernetes JSON spelling nonResourceURLs) are refused: the checks would read the rule without them
  check.optionalArray('rules', rules ?? 0, (v, f) => (isObject(v) ? (checkRuleShape(check, f, v, false) ?? v) : v), 'pass a list of PolicyRules');
  const o = check.optionalObject('options', options ?? 0, 'pass { clusterScoped: false }');
  if (o) {
    check.optionalString('options.field', o.field);
    check.optionalArray('options.bundleGrantedRules', o.bundleGrantedRules, (v, f) => (isObject(v) ? (checkRuleShape(check, f, v, false) ?? v) : v), 'pass a list of PolicyRules');
    check.optionalArray('options.allowedSensitiveGrants', o.allowedSensitiveGrants, (v, f) => check.optionalEnum(f, v ?? '', SensitiveGrant as any, 'SensitiveGrant'));
  }
  throwIfInvalid(check, method);
}
