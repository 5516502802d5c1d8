// The codes of the audit's findings, apart so that the input checks can name them without importing the audit.

/** Stable codes of the audit's findings. */
export enum ReachCode {
  /** A tenant identity reaches cluster-scoped rights through another identity, a bind or escalate, or a built-in/unknown role. */
  TENANT_IDENTITY_REACHES_CLUSTER = 'TenantIdentityReachesCluster',
  /** A tenant identity reaches rights in a namespace that is not the tenant's (nor one of its targets) the same ways. */
  TENANT_IDENTITY_REACHES_OTHER_NAMESPACE = 'TenantIdentityReachesOtherNamespace',
  /** A tenant identity reaches everything (`*` on every resource cluster-wide, e.g. bind cluster-admin). */
  TENANT_IDENTITY_UNBOUNDED = 'TenantIdentityUnbounded',
  /** An identity can become an installer ServiceAccount that holds rules outside its tenant namespace. */
  IDENTITY_CAN_ASSUME_INSTALLER = 'IdentityCanAssumeInstaller',
}
