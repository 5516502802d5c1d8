/**
 * The well-known power of built-in ClusterRoles and Roles that an App may bind but never defines.
 *
 * Kubernetes: `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go` (`ClusterRoles()`: `cluster-admin`,
 * `admin`/`edit`/`view` aggregating `system:aggregate-to-admin|edit|view`, `system:auth-delegator`) and
 * `namespace_policy.go` (`extension-apiserver-authentication-reader` in kube-system). The `admin`/`edit`/`view`
 * rules below are the escalation-relevant subset of the aggregated roles (secrets, pods and their exec/attach,
 * workloads, service accounts, their tokens and impersonation, roles and bindings): enough for the audit, which
 * only needs what lets an identity become another one or bind more.
 *
 * OpenShift: `system:openshift:scc:<name>` (openshift/cluster-kube-apiserver-operator
 * `bindata/assets/kube-apiserver/...scc...`: `use` on the SecurityContextConstraints of that name) and
 * `cluster-monitoring-view` (openshift/cluster-monitoring-operator `assets/cluster-monitoring-operator/
 * cluster-role-view.yaml`: `get` on `monitoring.coreos.com` `prometheuses/api` named `k8s`, i.e. read every metric
 * of the cluster).
 */
import { checkFindArgs } from './input-checks';
import { PolicyRule } from '../rbac/policy-rule';

const CORE = '';
const RBAC = 'rbac.authorization.k8s.io';
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

/** Everything: `cluster-admin`'s rules (policy.go: `*` on `*.*` and on every non-resource URL). */
export const CLUSTER_ADMIN_RULES: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceUrls: ['*'], verbs: ['*'] },
];

/** Everything in one namespace (what an unknown Role, or `escalate` on roles, gives there). */
export const NAMESPACE_ADMIN_RULES: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];

const VIEW: PolicyRule[] = [
  { apiGroups: [CORE], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'pods', 'replicationcontrollers', 'serviceaccounts', 'services', 'events', 'namespaces'], verbs: READ },
  { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], verbs: READ },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: READ },
];
const EDIT: PolicyRule[] = [
  ...VIEW,
  { apiGroups: [CORE], resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], verbs: READ },
  { apiGroups: [CORE], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [CORE], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], verbs: WRITE },
  { apiGroups: [CORE], resources: ['configmaps', 'persistentvolumeclaims', 'replicationcontrollers', 'secrets', 'serviceaccounts', 'services'], verbs: WRITE },
  { apiGroups: [CORE], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], verbs: WRITE },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: WRITE },
];
const ADMIN: PolicyRule[] = [
  ...EDIT,
  { apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: [...READ, ...WRITE] },
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
];

/** One built-in role of the table. */
export interface BuiltinRole {
  /** `ClusterRole` or `Role` (namespaced roles carry their namespace). */
  readonly kind: string;
  /** The name. */
  readonly name: string;
  /** The namespace of a built-in Role; empty for ClusterRoles. */
  readonly namespace: string;
  /** Its rules (an escalation-relevant subset for admin/edit/view). */
  readonly rules: PolicyRule[];
  /** True for roles whose power cannot reach other identities or RBAC (bootstrap roles OLM binds for certificates). */
  readonly benign: boolean;
  /** Where the rules come from. */
  readonly source: string;
  /** The aggregation label whose ClusterRoles add to it (admin/edit/view); empty otherwise. */
  readonly aggregationLabel: string;
}

const K8S = 'kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go';

const TABLE: BuiltinRole[] = [
  { kind: 'ClusterRole', name: 'cluster-admin', namespace: '', rules: CLUSTER_ADMIN_RULES, benign: false, source: K8S, aggregationLabel: '' },
  { kind: 'ClusterRole', name: 'admin', namespace: '', rules: ADMIN, benign: false, source: K8S, aggregationLabel: 'rbac.authorization.k8s.io/aggregate-to-admin' },
  { kind: 'ClusterRole', name: 'edit', namespace: '', rules: EDIT, benign: false, source: K8S, aggregationLabel: 'rbac.authorization.k8s.io/aggregate-to-edit' },
  { kind: 'ClusterRole', name: 'view', namespace: '', rules: VIEW, benign: false, source: K8S, aggregationLabel: 'rbac.authorization.k8s.io/aggregate-to-view' },
  {
    kind: 'ClusterRole',
    name: 'system:auth-delegator',
    namespace: '',
    rules: [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ],
    benign: true,
    source: K8S,
    aggregationLabel: '',
  },
  {
    kind: 'Role',
    name: 'extension-apiserver-authentication-reader',
    namespace: 'kube-system',
    rules: [{ apiGroups: [CORE], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: READ }],
    benign: true,
    source: 'kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go',
    aggregationLabel: '',
  },
  {
    kind: 'ClusterRole',
    name: 'cluster-monitoring-view',
    namespace: '',
    rules: [{ apiGroups: ['monitoring.coreos.com'], resources: ['prometheuses/api'], resourceNames: ['k8s'], verbs: ['get'] }],
    benign: false,
    source: 'openshift/cluster-monitoring-operator assets/cluster-monitoring-operator/cluster-role-view.yaml',
    aggregationLabel: '',
  },
];

/** The label every bootstrap role carries (`bootstrappolicy` `addClusterRoleLabel`, `ClusterRoles()`). */
const BOOTSTRAPPING = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';
const OLM_AGGREGATED = 'operator-framework/operator-lifecycle-manager deploy/chart/templates/0000_50_olm_09-aggregated.clusterrole.yaml';
const OLM_KINDS = ['clusterserviceversions', 'catalogsources', 'installplans', 'subscriptions', 'packagemanifests'];

/** A built-in ClusterRole as the clusterrole-aggregation controller sees it: labels, selectors, own rules. */
export interface AggregationBuiltin {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** `aggregationRule.clusterRoleSelectors` as Kubernetes JSON; empty for roles without one. */
  readonly selectors: ReadonlyArray<Record<string, unknown>>;
  /** The role's own rules (an aggregated role's come from the roles it selects). */
  readonly rules: PolicyRule[];
  readonly benign: boolean;
  readonly source: string;
}

const select = (label: string) => [{ matchLabels: { [label]: 'true' } }];
const minus = (all: PolicyRule[], part: PolicyRule[]) => all.slice(part.length);

/**
 * The built-in ClusterRoles that take part in aggregation, with their real labels and selectors
 * (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`): `admin`, `edit` (labelled aggregate-to-admin) and
 * `view` (labelled aggregate-to-edit) aggregate `rbac.authorization.k8s.io/aggregate-to-admin|edit|view`, whose
 * rules come from `system:aggregate-to-admin|edit|view`; every bootstrap role carries
 * `kubernetes.io/bootstrapping: rbac-defaults`. OLM's `aggregate-olm-edit` (aggregate-to-admin, -edit) and
 * `aggregate-olm-view` (aggregate-to-admin, -edit, -view) add OLM's kinds. The other bootstrap ClusterRoles
 * (`system:node`, `system:controller:*`...) carry only the bootstrapping label, exactly as `cluster-admin` does: a
 * selector matches them only when it matches `cluster-admin`, so `cluster-admin` stands for them all.
 */
const AGGREGATION_BUILTINS: AggregationBuiltin[] = [
  { name: 'cluster-admin', labels: BOOTSTRAPPING, selectors: [], rules: CLUSTER_ADMIN_RULES, benign: false, source: K8S },
  { name: 'admin', labels: BOOTSTRAPPING, selectors: select(TO_ADMIN), rules: [], benign: false, source: K8S },
  { name: 'edit', labels: { ...BOOTSTRAPPING, [TO_ADMIN]: 'true' }, selectors: select(TO_EDIT), rules: [], benign: false, source: K8S },
  { name: 'view', labels: { ...BOOTSTRAPPING, [TO_EDIT]: 'true' }, selectors: select(TO_VIEW), rules: [], benign: false, source: K8S },
  { name: 'system:aggregate-to-admin', labels: { ...BOOTSTRAPPING, [TO_ADMIN]: 'true' }, selectors: [], rules: minus(ADMIN, EDIT), benign: false, source: K8S },
  { name: 'system:aggregate-to-edit', labels: { ...BOOTSTRAPPING, [TO_EDIT]: 'true' }, selectors: [], rules: minus(EDIT, VIEW), benign: false, source: K8S },
  { name: 'system:aggregate-to-view', labels: { ...BOOTSTRAPPING, [TO_VIEW]: 'true' }, selectors: [], rules: VIEW, benign: false, source: K8S },
  {
    name: 'system:auth-delegator',
    labels: BOOTSTRAPPING,
    selectors: [],
    rules: TABLE.find((r) => r.name === 'system:auth-delegator')!.rules,
    benign: true,
    source: K8S,
  },
  {
    name: 'aggregate-olm-edit',
    labels: { [TO_ADMIN]: 'true', [TO_EDIT]: 'true' },
    selectors: [],
    rules: [{ apiGroups: ['operators.coreos.com'], resources: OLM_KINDS, verbs: ['create', 'update', 'patch', 'delete'] }],
    benign: false,
    source: OLM_AGGREGATED,
  },
  {
    name: 'aggregate-olm-view',
    labels: { [TO_ADMIN]: 'true', [TO_EDIT]: 'true', [TO_VIEW]: 'true' },
    selectors: [],
    rules: [{ apiGroups: ['operators.coreos.com'], resources: OLM_KINDS, verbs: READ }],
    benign: false,
    source: OLM_AGGREGATED,
  },
];

/** The built-in ClusterRoles of the aggregation (see `AGGREGATION_BUILTINS`). */
export function aggregationBuiltins(): readonly AggregationBuiltin[] {
  return AGGREGATION_BUILTINS;
}

const SCC_PREFIX = 'system:openshift:scc:';

/** Looks up the built-in roles of the table. */
export class BuiltinRoles {
  /** Every entry of the table (SCC roles are matched by prefix, see `find`). */
  public static all(): BuiltinRole[] {
    return TABLE.map((r) => ({ ...r }));
  }

  /**
   * The built-in role `kind`/`name` (in `namespace` for a Role), if it is a well-known one. `system:openshift:scc:<x>`
   * is `use` on the SecurityContextConstraints `<x>`: running pods with its privileges (node access for
   * `privileged`, `hostaccess`, `hostmount-anyuid`...).
   */
  public static find(kind: string, name: string, namespace: string): BuiltinRole | undefined {
    checkFindArgs(kind, name, namespace);
    return findBuiltin(kind, name, namespace);
  }

  private constructor() {}
}

/** `BuiltinRoles.find` without the input checks (the audit's own calls pass strings). */
export function findBuiltin(kind: string, name: string, namespace: string): BuiltinRole | undefined {
  if (kind === 'ClusterRole' && name.startsWith(SCC_PREFIX) && name.length > SCC_PREFIX.length) {
    const scc = name.slice(SCC_PREFIX.length);
    return {
      kind,
      name,
      namespace: '',
      rules: [{ apiGroups: ['security.openshift.io'], resources: ['securitycontextconstraints'], resourceNames: [scc], verbs: ['use'] }],
      benign: false,
      source: 'openshift/cluster-kube-apiserver-operator (one ClusterRole per SecurityContextConstraints)',
      aggregationLabel: '',
    };
  }
  return TABLE.find((r) => r.kind === kind && r.name === name && (kind === 'ClusterRole' || r.namespace === namespace));
}
