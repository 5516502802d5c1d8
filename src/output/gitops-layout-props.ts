// The input types of GitOpsLayout, apart so that its input checks need not import the layout.

/** One synthesized object and who owns it. */
export interface GitOpsObject {
  /** The object (JSON, as `ApiObject.toJson()` returns it). Not modified. */
  readonly manifest: any;
  /**
   * Namespace of the tenant (`ScopedOperatorTenant`) whose construct created the object.
   * @default - no owning tenant (platform objects, e.g. a CuratedCatalog's CatalogSources)
   */
  readonly tenant?: string;
  /**
   * Identities (`GitOpsLayout.identity`) of the objects this one must be applied after (its cdk8s dependencies).
   * The object's sync wave is at least theirs.
   * @default - none
   */
  readonly dependsOn?: string[];
  /**
   * Every namespace of the owning tenant, when it has more than `tenant` (an `OlmV1Team`'s namespaces): their
   * Namespace objects and the objects in them go to the tenant's folder `tenants/<tenant>/` too (unless one is
   * itself another tenant's namespace).
   * @default - the tenant has only `tenant`
   */
  readonly tenantNamespaces?: string[];
  /**
   * Applied by the platform's identity although it belongs to the tenant (with GitOps identities: the tenant's
   * Namespace, its Secrets, the ServiceAccounts and RBAC of its GitOps identities): it goes to `cluster/`, with the
   * tenant's label, never to the folder the tenant's identity applies.
   * @default false
   */
  readonly appliedByPlatform?: boolean;
}

/** Options of `GitOpsLayout.files`. */
export interface GitOpsLayoutOptions {
  /**
   * Add Argo CD `argocd.argoproj.io/sync-wave` annotations (see `GitOpsLayout.kindWave`).
   * @default false
   */
  readonly syncWaves?: boolean;
  /**
   * Value of the `app.kubernetes.io/managed-by` label added to every object (an existing value is kept).
   * @default GitOpsLayout.MANAGED_BY
   */
  readonly managedBy?: string;
}
