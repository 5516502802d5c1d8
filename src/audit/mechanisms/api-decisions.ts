/**
 * Every (group, resource[/subresource], verb) of the built-in API and of the OLM CRDs is either a mechanism the model
 * follows (a row of `deputies.ts`, `verb-responses.ts`, `additive-policies.ts`, a sensitive grant of the registry, a
 * check of its own) or a recorded decision that it grants nothing beyond itself, with the reason. The completeness test
 * (test/audit/api-completeness.test.ts) runs every pair of the checked-in API table of the newest release through
 * `apiCoverage`: a pair nobody decided about fails it, so a new release shows up as rows to decide, not as a gap.
 *
 * Decisions are written per resource (never `*`), so a new resource or a new verb of a resource is undecided. Internal.
 */
import { ADDITIVE_POLICY_KINDS } from './additive-policies';
import { DEPUTIES, DeputyEffect } from './deputies';

/** A decision: these verbs on these resources grant nothing beyond the object itself. */
export interface ApiDecision {
  /** API group ('' for core). */
  readonly group: string;
  /** `resource` or `resource/subresource`, never a wildcard. */
  readonly resources: readonly string[];
  /** The verbs decided. */
  readonly verbs: readonly string[];
  /** Why they grant nothing beyond the object (availability, a read of what holds no credential, ...). */
  readonly reason: string;
}

const READ = ['get', 'list', 'watch'];
const GET = ['get'];
const STATUS = ['get', 'patch', 'update'];
const DELETE = ['delete', 'deletecollection'];
const CORE = '';
const OLM = 'operators.coreos.com';
const OLM_V1 = 'olm.operatorframework.io';

/** Reasons shared by several decisions. */
const WHY = {
  read: 'reads an object that holds no credential (configuration, specs, status: no token or key the model could use)',
  status: 'status written back by the controller or kubelet that owns the object; the spec and the owner decide what runs',
  delete: 'deletes: availability (what the object did stops), never an identity or a right; its response carries the object, which holds no credential',
  review: 'asks the API server a question (who a token is, whether a request would be allowed) and changes nothing',
  events: 'events are records: writing them misleads a reader, grants nothing',
  scale: 'replicas only: availability and quota, the template (and so the ServiceAccount) is not in the Scale object',
  traffic: 'steers traffic to endpoints in the namespace (as a Service the writer could create); not an identity',
  scheduling: 'placement and preemption of pods: availability, not an identity (a pod keeps its ServiceAccount)',
  storage: 'storage plumbing the cluster\'s drivers and provisioners act on within their own rights: availability and capacity',
  flow: 'API priority and fairness: may starve others\' requests (availability), grants nothing',
  lease: 'leader election and coordination: a controller may stop acting (availability)',
  device: 'dynamic resource allocation: which devices a pod gets; drivers act on their own claims with their node\'s identity',
};

/** The decisions, by group. */
export const API_DECISIONS: readonly ApiDecision[] = [
  // core
  { group: CORE, resources: ['bindings', 'pods/binding'], verbs: ['create'], reason: WHY.scheduling },
  { group: CORE, resources: ['componentstatuses'], verbs: ['get', 'list'], reason: WHY.read },
  {
    group: CORE,
    resources: ['configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates',
      'replicationcontrollers', 'resourcequotas', 'serviceaccounts', 'services'],
    verbs: READ,
    reason: WHY.read,
  },
  {
    group: CORE,
    resources: ['configmaps', 'endpoints', 'events', 'limitranges', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates',
      'replicationcontrollers', 'resourcequotas', 'serviceaccounts', 'services'],
    verbs: DELETE,
    reason: WHY.delete,
  },
  { group: CORE, resources: ['configmaps'], verbs: ['create'], reason: 'a new ConfigMap: configuration its readers choose to read; changing an existing one (kube-system\'s, a tenant\'s) is CONFIGMAP_UPDATE' },
  { group: CORE, resources: ['configmaps'], verbs: ['update', 'patch'], reason: 'in a namespace: that namespace\'s configuration (the tenant\'s own); cluster-wide it is CONFIGMAP_UPDATE' },
  { group: CORE, resources: ['endpoints'], verbs: ['create', 'update', 'patch'], reason: WHY.traffic },
  { group: CORE, resources: ['events'], verbs: ['create', 'update', 'patch'], reason: WHY.events },
  { group: CORE, resources: ['namespaces'], verbs: ['create'], reason: 'a new namespace holds nothing its creator is not bound to there; its labels are NAMESPACE_WRITES once it exists' },
  { group: CORE, resources: ['namespaces/status'], verbs: GET, reason: WHY.read },
  { group: CORE, resources: ['nodes'], verbs: ['create', 'update', 'patch'], reason: 'a Node object (labels, taints) steers scheduling and eviction: placement and availability; a kubelet registers its own node' },
  { group: CORE, resources: ['nodes/status', 'persistentvolumeclaims/status', 'persistentvolumes/status', 'pods/status', 'replicationcontrollers/status'], verbs: STATUS, reason: WHY.status },
  { group: CORE, resources: ['persistentvolumeclaims'], verbs: ['create', 'update', 'patch'], reason: 'claims storage in the namespace from a class the cluster offers: quota and capacity' },
  { group: CORE, resources: ['persistentvolumes'], verbs: ['update', 'patch'], reason: 'a volume\'s source (hostPath and the like) is immutable after creation (ValidatePersistentVolumeUpdate); creating one is PERSISTENT_VOLUME_CREATE' },
  { group: CORE, resources: ['pods/ephemeralcontainers', 'pods/resize'], verbs: GET, reason: WHY.read },
  { group: CORE, resources: ['pods/resize'], verbs: ['patch', 'update'], reason: 'a running pod\'s CPU and memory: quota and availability' },
  { group: CORE, resources: ['pods/eviction'], verbs: ['create'], reason: 'deletes a pod within its PodDisruptionBudget: availability' },
  { group: CORE, resources: ['pods/log'], verbs: GET, reason: 'the containers\' output; a credential a program prints there is the program\'s leak, not modelled' },
  {
    group: CORE,
    resources: ['pods/proxy', 'services/proxy'],
    verbs: ['create', 'delete', 'get', 'patch', 'update'],
    reason: 'HTTP to the ports the pod or Service serves, through the API server: what they serve to any client of the network, not their process',
  },
  { group: CORE, resources: ['podtemplates'], verbs: ['create', 'update', 'patch'], reason: 'no built-in controller runs a PodTemplate object: nothing starts pods from it' },
  { group: CORE, resources: ['replicationcontrollers/scale'], verbs: STATUS, reason: WHY.scale },
  { group: CORE, resources: ['secrets'], verbs: ['update'], reason: 'replaces the Secret\'s data with the writer\'s (its response is the writer\'s object, verb-responses.ts): its readers get another value, the writer reads nothing' },
  { group: CORE, resources: ['serviceaccounts'], verbs: ['create', 'update', 'patch'], reason: 'a ServiceAccount holds only what bindings give it; its secrets and imagePullSecrets lists grant its pods nothing the namespace\'s pods could not mount' },
  { group: CORE, resources: ['services'], verbs: ['create'], reason: 'a Service in the namespace; spec.externalIPs (CVE-2020-8554) is OLMT-053 and the baseline\'s admission policy, updates cluster-wide SERVICE_UPDATE' },
  { group: CORE, resources: ['services'], verbs: ['update', 'patch'], reason: 'in a namespace: its own Services (externalIPs: OLMT-053); cluster-wide it is SERVICE_UPDATE' },
  { group: CORE, resources: ['services/status'], verbs: ['get'], reason: WHY.read },
  { group: CORE, resources: ['services/status'], verbs: ['patch', 'update'], reason: 'in a namespace: its own LoadBalancers\' status; cluster-wide it is SERVICE_UPDATE (CVE-2020-8554)' },
  { group: CORE, resources: ['resourcequotas'], verbs: ['create'], reason: 'every quota of the namespace must admit a request: one more only restricts (additive-policies.ts)' },
  { group: CORE, resources: ['limitranges'], verbs: ['create'], reason: 'every LimitRange is enforced: one more only restricts (additive-policies.ts)' },
  { group: CORE, resources: ['resourcequotas/status'], verbs: GET, reason: WHY.read },
  // admissionregistration.k8s.io
  {
    group: 'admissionregistration.k8s.io',
    resources: ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings',
      'validatingwebhookconfigurations', 'validatingadmissionpolicies/status'],
    verbs: READ,
    reason: WHY.read,
  },
  { group: 'admissionregistration.k8s.io', resources: ['validatingadmissionpolicies/status'], verbs: ['patch', 'update'], reason: 'type-checking results the status controller writes; the policy\'s spec decides' },
  // apiextensions.k8s.io, apiregistration.k8s.io
  { group: 'apiextensions.k8s.io', resources: ['customresourcedefinitions', 'customresourcedefinitions/status'], verbs: READ, reason: WHY.read },
  { group: 'apiextensions.k8s.io', resources: ['customresourcedefinitions'], verbs: ['create'], reason: 'a new API, in which its creator holds nothing unless bound; an installer\'s is OLMT-001 (OLM creates CRDs itself)' },
  { group: 'apiextensions.k8s.io', resources: ['customresourcedefinitions/status'], verbs: ['patch', 'update'], reason: 'accepted names and conditions, which the apiextensions controllers recompute from the spec' },
  { group: 'apiregistration.k8s.io', resources: ['apiservices', 'apiservices/status'], verbs: READ, reason: WHY.read },
  { group: 'apiregistration.k8s.io', resources: ['apiservices'], verbs: ['create'], reason: 'a new API group version served by the writer\'s Service; an installer\'s is OLMT-002; rerouting an existing one is DESTRUCTIVE_CLUSTER_WRITES' },
  { group: 'apiregistration.k8s.io', resources: ['apiservices/status'], verbs: ['patch', 'update'], reason: 'the availability condition the aggregator\'s controller recomputes' },
  // apps
  { group: 'apps', resources: ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'], verbs: READ, reason: WHY.read },
  { group: 'apps', resources: ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'], verbs: DELETE, reason: WHY.delete },
  { group: 'apps', resources: ['controllerrevisions'], verbs: ['create'], reason: 'the StatefulSet and DaemonSet controllers read their revisions by the names they record: a new one is not applied' },
  { group: 'apps', resources: ['daemonsets/status', 'deployments/status', 'replicasets/status', 'statefulsets/status'], verbs: STATUS, reason: WHY.status },
  { group: 'apps', resources: ['deployments/scale', 'replicasets/scale', 'statefulsets/scale'], verbs: STATUS, reason: WHY.scale },
  // authentication.k8s.io, authorization.k8s.io
  { group: 'authentication.k8s.io', resources: ['selfsubjectreviews', 'tokenreviews'], verbs: ['create'], reason: WHY.review },
  { group: 'authorization.k8s.io', resources: ['localsubjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'subjectaccessreviews'], verbs: ['create'], reason: WHY.review },
  // autoscaling
  { group: 'autoscaling', resources: ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], verbs: READ, reason: WHY.read },
  { group: 'autoscaling', resources: ['horizontalpodautoscalers'], verbs: ['create', 'update', 'patch', 'delete', 'deletecollection'], reason: 'scales a workload through its scale subresource: replicas only (availability and quota)' },
  { group: 'autoscaling', resources: ['horizontalpodautoscalers/status'], verbs: ['patch', 'update'], reason: WHY.status },
  // batch
  { group: 'batch', resources: ['cronjobs', 'jobs'], verbs: READ, reason: WHY.read },
  { group: 'batch', resources: ['cronjobs', 'jobs'], verbs: DELETE, reason: WHY.delete },
  { group: 'batch', resources: ['jobs'], verbs: ['update', 'patch'], reason: 'a Job\'s pod template is immutable (ValidateJobSpecUpdate): parallelism and suspension only' },
  { group: 'batch', resources: ['cronjobs/status', 'jobs/status'], verbs: STATUS, reason: WHY.status },
  // certificates.k8s.io
  {
    group: 'certificates.k8s.io',
    resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status', 'clustertrustbundles', 'podcertificaterequests', 'podcertificaterequests/status'],
    verbs: READ,
    reason: 'requests and issued certificates are public; the private keys never reach the API',
  },
  { group: 'certificates.k8s.io', resources: ['certificatesigningrequests', 'clustertrustbundles', 'podcertificaterequests'], verbs: DELETE, reason: WHY.delete },
  { group: 'certificates.k8s.io', resources: ['certificatesigningrequests'], verbs: ['update', 'patch'], reason: 'the request is immutable once created; approval and the certificate are subresources' },
  { group: 'certificates.k8s.io', resources: ['certificatesigningrequests/status'], verbs: ['patch', 'update'], reason: 'writes the certificate: needs the signer\'s private key (and sign on signers), a signer controller\'s role' },
  {
    group: 'certificates.k8s.io',
    resources: ['clustertrustbundles'],
    verbs: ['create', 'update', 'patch'],
    reason: 'trust anchors pods mount by name; a bundle linked to a signer needs attest on it (clustertrustbundleattest admission): what its readers trust, not an identity',
  },
  {
    group: 'certificates.k8s.io',
    resources: ['podcertificaterequests'],
    verbs: ['create', 'update', 'patch'],
    reason: 'the kubelet requests a certificate for its own pod (node restriction: the pod, its node and ServiceAccount must match); the signer issues to that pod\'s identity',
  },
  { group: 'certificates.k8s.io', resources: ['podcertificaterequests/status'], verbs: ['patch', 'update'], reason: 'the signer writes the issued chain: needs its private key' },
  // coordination.k8s.io, discovery.k8s.io, events.k8s.io, flowcontrol, internal
  { group: 'coordination.k8s.io', resources: ['leasecandidates', 'leases'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: WHY.lease },
  { group: 'discovery.k8s.io', resources: ['endpointslices'], verbs: READ, reason: WHY.read },
  { group: 'discovery.k8s.io', resources: ['endpointslices'], verbs: ['create', 'update', 'patch', ...DELETE], reason: WHY.traffic },
  { group: 'events.k8s.io', resources: ['events'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: WHY.events },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    resources: ['flowschemas', 'prioritylevelconfigurations'],
    verbs: [...READ, 'create', 'update', 'patch', ...DELETE],
    reason: WHY.flow,
  },
  { group: 'flowcontrol.apiserver.k8s.io', resources: ['flowschemas/status', 'prioritylevelconfigurations/status'], verbs: STATUS, reason: WHY.status },
  { group: 'internal.apiserver.k8s.io', resources: ['storageversions'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: 'which storage version each API server writes: storage migration bookkeeping' },
  { group: 'internal.apiserver.k8s.io', resources: ['storageversions/status'], verbs: STATUS, reason: WHY.status },
  // networking.k8s.io
  { group: 'networking.k8s.io', resources: ['ingressclasses', 'ingresses', 'ipaddresses', 'networkpolicies', 'servicecidrs'], verbs: READ, reason: WHY.read },
  {
    group: 'networking.k8s.io',
    resources: ['ingressclasses', 'ingresses'],
    verbs: ['create', 'update', 'patch', ...DELETE],
    reason: 'routes external traffic to the namespace\'s Services; no built-in controller acts on it (a third-party ingress controller that runs writers\' snippets, CVE-2021-25742, is outside the built-in API)',
  },
  { group: 'networking.k8s.io', resources: ['ingresses/status', 'servicecidrs/status'], verbs: STATUS, reason: WHY.status },
  { group: 'networking.k8s.io', resources: ['ipaddresses', 'servicecidrs'], verbs: ['create', 'update', 'patch', ...DELETE], reason: 'Service IP allocation: availability of Services' },
  { group: 'networking.k8s.io', resources: ['networkpolicies'], verbs: ['update', 'patch', ...DELETE], reason: 'in a namespace: its own policies (the baseline\'s are OLMT-043); cluster-wide NETWORK_POLICY_WRITES' },
  // node.k8s.io, policy
  { group: 'node.k8s.io', resources: ['runtimeclasses'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: 'names a container runtime handler the nodes already have: placement and overhead' },
  { group: 'policy', resources: ['poddisruptionbudgets'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: 'eviction budgets: availability' },
  { group: 'policy', resources: ['poddisruptionbudgets/status'], verbs: STATUS, reason: WHY.status },
  // rbac.authorization.k8s.io
  { group: 'rbac.authorization.k8s.io', resources: ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'], verbs: READ, reason: 'roles and bindings are public within the model: reading them grants nothing' },
  { group: 'rbac.authorization.k8s.io', resources: ['rolebindings', 'roles'], verbs: DELETE, reason: 'removes access in one namespace: availability' },
  // resource.k8s.io
  {
    group: 'resource.k8s.io',
    resources: ['deviceclasses', 'devicetaintrules', 'resourceclaims', 'resourceclaimtemplates', 'resourcepoolstatusrequests', 'resourceslices'],
    verbs: [...READ, 'create', 'update', 'patch', ...DELETE],
    reason: WHY.device,
  },
  { group: 'resource.k8s.io', resources: ['devicetaintrules/status', 'resourceclaims/status', 'resourcepoolstatusrequests/status'], verbs: STATUS, reason: WHY.status },
  // scheduling.k8s.io
  { group: 'scheduling.k8s.io', resources: ['podgroups', 'priorityclasses', 'workloads'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: WHY.scheduling },
  { group: 'scheduling.k8s.io', resources: ['podgroups/status'], verbs: STATUS, reason: WHY.status },
  // storage.k8s.io, storagemigration.k8s.io
  {
    group: 'storage.k8s.io',
    resources: ['csidrivers', 'csinodes', 'csistoragecapacities', 'storageclasses', 'volumeattachments', 'volumeattributesclasses'],
    verbs: [...READ, 'create', 'update', 'patch', ...DELETE],
    reason: WHY.storage,
  },
  { group: 'storage.k8s.io', resources: ['volumeattachments/status'], verbs: STATUS, reason: WHY.status },
  { group: 'storagemigration.k8s.io', resources: ['storageversionmigrations'], verbs: [...READ, 'create', 'update', 'patch', ...DELETE], reason: 'rewrites objects with their own content in the current storage version' },
  { group: 'storagemigration.k8s.io', resources: ['storageversionmigrations/status'], verbs: STATUS, reason: WHY.status },
  // the CRDs of crds/: OpenShift, OLM v1, OLM v0
  { group: 'config.openshift.io', resources: ['operatorhubs', 'operatorhubs/status'], verbs: READ, reason: WHY.read },
  { group: 'config.openshift.io', resources: ['operatorhubs/status'], verbs: ['patch', 'update'], reason: WHY.status },
  { group: OLM_V1, resources: ['clustercatalogs', 'clustercatalogs/status', 'clusterextensions', 'clusterextensions/status'], verbs: READ, reason: WHY.read },
  { group: OLM_V1, resources: ['clustercatalogs', 'clusterextensions'], verbs: DELETE, reason: 'uninstalls a package, or removes a catalog: availability' },
  { group: OLM_V1, resources: ['clustercatalogs/status', 'clusterextensions/status'], verbs: ['patch', 'update'], reason: 'catalogd and operator-controller write their status back; what they install comes from the spec' },
  {
    group: OLM,
    resources: ['catalogsources', 'catalogsources/status', 'clusterserviceversions', 'clusterserviceversions/status', 'installplans', 'olmconfigs', 'olmconfigs/status',
      'operatorconditions', 'operatorconditions/status', 'operatorgroups', 'operatorgroups/status', 'operators', 'operators/status', 'subscriptions', 'subscriptions/status', 'installplans/status'],
    verbs: READ,
    reason: WHY.read,
  },
  { group: OLM, resources: ['catalogsources', 'clusterserviceversions', 'installplans', 'olmconfigs', 'operatorconditions', 'operators', 'subscriptions'], verbs: DELETE, reason: WHY.delete },
  { group: OLM, resources: ['catalogsources/status', 'clusterserviceversions/status', 'operatorconditions/status', 'operators/status', 'subscriptions/status', 'olmconfigs/status'], verbs: ['patch', 'update'], reason: WHY.status },
  { group: OLM, resources: ['operatorgroups/status'], verbs: ['patch', 'update'], reason: 'OLM recomputes status.namespaces from the OperatorGroup\'s spec on every sync' },
  { group: OLM, resources: ['installplans'], verbs: ['create'], reason: 'an InstallPlan\'s steps are its status, which a create does not set (status subresource): approval and the status are INSTALL_PLAN_APPROVAL and INSTALL_PLAN_STATUS_WRITES' },
  { group: OLM, resources: ['olmconfigs'], verbs: ['create', 'update', 'patch'], reason: 'OLM\'s own settings (copied CSVs, package server sync interval): visibility and load' },
  { group: OLM, resources: ['operatorconditions'], verbs: ['create', 'update', 'patch'], reason: 'conditions an operator reports (Upgradeable=False holds its upgrades): availability' },
  { group: OLM, resources: ['operators'], verbs: ['create', 'update', 'patch'], reason: 'a view OLM aggregates from the objects it labels: its spec is empty' },
  { group: OLM, resources: ['subscriptions'], verbs: ['update', 'patch'], reason: 'in a namespace: its own Subscriptions, the installer\'s scope (curated catalogs, admission policy); cluster-wide SUBSCRIPTION_CREATE' },
  { group: OLM, resources: ['subscriptions'], verbs: ['create'], reason: 'in a namespace: installs with its OperatorGroup\'s ServiceAccount (the installer); cluster-wide SUBSCRIPTION_CREATE (global groups install as cluster-admin)' },
];

/**
 * Authorization checks discovery does not list (test/fixtures/kubernetes-api/authorization-verbs.json), decided:
 * [group, resource, subresource, verb, reason].
 */
export const AUTHORIZATION_DECISIONS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ['certificates.k8s.io', 'signers', '', 'sign', 'signing needs the signer\'s private key: a signer controller\'s role'],
  ['certificates.k8s.io', 'signers', '', 'attest', 'publishes ClusterTrustBundles for the signer: what pods that mount them trust, not an identity'],
  ['certificates.k8s.io', 'certificatesigningrequests', 'selfnodeclient', 'create', 'the CSR approver renews the requester\'s own node certificate: it is that node already'],
  ...['stats', 'metrics', 'log', 'pods', 'healthz', 'configz'].flatMap((sub) => ['get', 'create', 'update', 'patch', 'delete'].map((verb): readonly [string, string, string, string, string] =>
    ['', 'nodes', sub, verb, 'the kubelet\'s read-only endpoints (statistics, metrics, the node\'s logs, its pod list, health, configuration); exec and run are nodes/proxy'])),
  ...['update', 'patch'].map((verb): readonly [string, string, string, string, string] => ['resource.k8s.io', 'resourceclaims', 'binding', verb, WHY.device]),
  ...['associated-node:update', 'associated-node:patch', 'arbitrary-node:update', 'arbitrary-node:patch'].map((verb): readonly [string, string, string, string, string] =>
    ['resource.k8s.io', 'resourceclaims', 'driver', verb, WHY.device]),
];

/** A sensitive grant's probed requests (`InstallerRuleChecks._probes()`). */
export interface ProbedGrant {
  readonly grant: string;
  readonly requests: ReadonlyArray<{ readonly verb: string; readonly apiGroup?: string; readonly resource?: string }>;
}

/** What covers a (group, resource[/subresource], verb): a mechanism id, a decision's reason, or undefined (undecided). */
export interface ApiCoverage {
  /** `deputy:<id>`, `grant:<SensitiveGrant>`, `additive:<kind>`, `model:<check>`, or `decision`. */
  readonly by: string;
  /** The reason of a decision, or what the mechanism is. */
  readonly why: string;
}

/**
 * The mechanism that covers the request (a deputy row with concrete resources, an additive policy kind, one of the
 * model's own checks), or `probes` (the sensitive grants' requests: `InstallerRuleChecks._probes()`, passed in so
 * this data file stays below the registry), or a decision. Rows with `*` resources (the reconciling operator: custom
 * resources) cover no built-in pair.
 */
export function apiCoverage(group: string, resource: string, verb: string, probes: ReadonlyArray<ProbedGrant>): ApiCoverage | undefined {
  for (const d of DEPUTIES) {
    if (d.effect === DeputyEffect.RECONCILING_OPERATOR || !d.verbs.includes(verb)) continue;
    for (const res of d.resources) {
      const dot = d.group === '*' ? res.indexOf('.') : -1;
      const [g, r] = d.group === '*' ? (dot < 0 ? ['', res] : [res.slice(dot + 1), res.slice(0, dot)]) : [d.group, res];
      // the impersonation row names users, groups and serviceaccounts in the core and authentication groups
      const groups = d.id === 'impersonation' ? ['', 'authentication.k8s.io'] : [g];
      if (groups.includes(group) && r === resource) return { by: `deputy:${d.id}`, why: d.effect };
    }
  }
  for (const p of probes) {
    if (p.requests.some((r) => r.verb === verb && (r.apiGroup ?? '') === group && r.resource === resource)) return { by: `grant:${p.grant}`, why: 'a sensitive grant' };
  }
  const additive = ADDITIVE_POLICY_KINDS.find((k) => k.union && k.group === group && k.resource === resource && verb === 'create');
  if (additive) return { by: `additive:${additive.kind}`, why: additive.effect };
  const own = MODEL_CHECKS.find(([g, r, verbs]) => g === group && r === resource && verbs.includes(verb));
  if (own) return { by: `model:${own[3]}`, why: own[4] };
  const decided = API_DECISIONS.find((d) => d.group === group && d.resources.includes(resource) && d.verbs.includes(verb));
  if (decided) return { by: 'decision', why: decided.reason };
  const [res, sub] = resource.includes('/') ? resource.split('/') : [resource, ''];
  const authz = AUTHORIZATION_DECISIONS.find(([g, r, s, v]) => g === group && r === res && s === sub && v === verb);
  if (authz) return { by: 'decision', why: authz[4] };
  return undefined;
}

/**
 * Checks of the model that are not sensitive grants nor deputy rows: [group, resource, verbs, check, what].
 * The baseline's own objects (OLMT-043), installers' CRD and APIService writes (OLMT-001/002), and the CSR
 * auto-approver's `nodeclient` (the effective-power model's certificates step).
 */
const MODEL_CHECKS: ReadonlyArray<readonly [string, string, readonly string[], string, string]> = [
  ['', 'resourcequotas', ['update', 'patch', 'delete', 'deletecollection'], 'OLMT-043', 'the baseline\'s quota (TenantCanRemoveBaseline)'],
  ['', 'resourcequotas/status', ['update', 'patch'], 'OLMT-043', 'the usage the quota counts (TenantCanRemoveBaseline)'],
  ['', 'limitranges', ['update', 'patch'], 'OLMT-043', 'the baseline\'s limits (TenantCanRemoveBaseline)'],
  ['networking.k8s.io', 'networkpolicies', ['create', 'update', 'patch', 'delete', 'deletecollection'], 'OLMT-043', 'the baseline\'s default deny (TenantCanRemoveBaseline)'],
  ['apiextensions.k8s.io', 'customresourcedefinitions', ['create'], 'OLMT-001', 'an installer writing CRDs (InstallerCanWriteCrds)'],
  ['apiregistration.k8s.io', 'apiservices', ['create'], 'OLMT-002', 'an installer writing APIServices (InstallerCanWriteApiServices)'],
  ['certificates.k8s.io', 'certificatesigningrequests/nodeclient', ['create'], 'EffectivePower', 'the CSR auto-approver signs a node client certificate (any node): every identity'],
  ['', 'pods/exec', ['create', 'get'], 'EffectivePower', 'exec into a pod (POD_EXEC)'],
];
