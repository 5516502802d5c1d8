// The annotation keys the tenant writes, shared by its parts (public as the static members of ScopedOperatorTenant).

/** OperatorGroup annotation that carries the reason for targets other than the own namespace. */
export const TARGETS_REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/target-namespaces-reason';
/** Annotation that says why an installer grant outside the tenant namespace exists. */
export const REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/reason';
/** Installer Role annotation that says which versions its derived rules cover (a `DeriveScope` value). */
export const DERIVE_SCOPE_ANNOTATION = 'cdk8s-olm-tenancy.io/derive-scope';
/** Annotation on an installer Role or ClusterRole naming every role it may `bind` (derived), and why. */
export const BIND_ROLES_ANNOTATION = 'cdk8s-olm-tenancy.io/bind-roles';
/** Annotation on the installer Role and ClusterRole naming the sensitive grants they hold because they were accepted. */
export const SENSITIVE_GRANTS_ANNOTATION = 'cdk8s-olm-tenancy.io/sensitive-grants';
/** Annotation that says why the tenant reaches into system namespaces. */
export const SYSTEM_NAMESPACES_REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/system-namespaces-reason';
