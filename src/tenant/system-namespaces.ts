/**
 * Namespaces that belong to the cluster, OLM or the distribution rather than to a tenant.
 *
 * - Kubernetes creates `default`, `kube-system`, `kube-public` and `kube-node-lease` itself
 *   (`pkg/controlplane/controller/systemnamespaces`: `metav1.NamespaceSystem`, `NamespacePublic`,
 *   `NamespaceNodeLease`, plus `NamespaceDefault`), and reserves the `kube-` prefix.
 * - Upstream OLM runs in `olm` and installs its global OperatorGroup in `operators`
 *   (`deploy/upstream/quickstart/olm.yaml`).
 * - OpenShift reserves `openshift` and every `openshift-*` and `kube-*` namespace: "Do not run workloads in or share
 *   access to default projects ... default, kube-public, kube-system, openshift, openshift-infra, openshift-node, and
 *   other system-created projects" (OpenShift docs, "Working with projects"); a project request for a name with
 *   these prefixes is refused. OLM itself lives in `openshift-operator-lifecycle-manager`, the global catalogs in
 *   `openshift-marketplace`, the global OperatorGroup in `openshift-operators`.
 *
 * An OperatorGroup that targets one of them makes OLM (with its own cluster-admin client) copy the operator's Roles
 * there (`ensureRBACInTargetNamespace`, OLM `pkg/controller/operators/olm/operatorgroup.go`), so the operator can
 * read the Secrets and create the pods of cluster components.
 */
export class SystemNamespaces {
  /** The exact names treated as system namespaces, sorted. */
  public static readonly NAMES: string[] = ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'olm', 'openshift', 'operators'];
  /** The name prefixes treated as system namespaces. */
  public static readonly PREFIXES: string[] = ['kube-', 'openshift-'];

  /** True when `namespace` is a system namespace (see the class documentation). */
  public static isSystemNamespace(namespace: string): boolean {
    return SystemNamespaces.NAMES.includes(namespace) || SystemNamespaces.PREFIXES.some((p) => namespace.startsWith(p));
  }

  private constructor() {}
}
