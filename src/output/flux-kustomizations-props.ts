// The input types of FluxKustomizations, apart so that its input checks need not import it.

/** Where Flux finds the GitOps layout and how its Kustomizations reconcile it. */
export interface FluxOptions {
  /** Path of the output directory in the source (`spec.path` base), e.g. `./dist`. */
  readonly path: string;
  /**
   * Kind of the Flux source holding the output.
   * @default 'GitRepository'
   */
  readonly sourceKind?: string;
  /**
   * Name of the Flux source holding the output.
   * @default 'flux-system'
   */
  readonly sourceName?: string;
  /**
   * Namespace of the Kustomizations (and of the source).
   * @default 'flux-system'
   */
  readonly namespace?: string;
  /**
   * Prefix of the Kustomizations' names: `<prefix>-cluster`, `<prefix>-tenant-<namespace>`.
   * @default 'tenancy'
   */
  readonly namePrefix?: string;
  /**
   * `spec.interval` of every Kustomization.
   * @default '10m'
   */
  readonly interval?: string;
  /**
   * Whether the layout has a `cluster/` folder: its Kustomization is written and every tenant's depends on it.
   * `TenancyApp` sets it from what it wrote.
   * @default true
   */
  readonly cluster?: boolean;
  /**
   * Whether the layout has an `after-install/cluster/` folder (objects that depend on an operator install, not in a
   * tenant namespace): its Kustomization depends on every other one. `TenancyApp` sets it from what it wrote.
   * @default false
   */
  readonly afterInstallCluster?: boolean;
  /**
   * `spec.timeout`: how long a Kustomization waits for its objects to be healthy (an operator install included).
   * @default '15m'
   */
  readonly timeout?: string;
  /**
   * URL of the repository that holds the output (`spec.url` of the source each tenant's Kustomization reads, in the
   * tenant's namespace: with Flux's `--no-cross-namespace-refs` a Kustomization reads only a source of its own
   * namespace). Setting it makes each tenant's folder apply as the tenant's ServiceAccount (`serviceAccountName`),
   * not as Flux's own identity; `TenancyApp` requires it unless `tenantIdentities` is false.
   * @default - no tenant identities: every folder is applied by the Kustomizations in `namespace`
   */
  readonly url?: string;
  /**
   * The branch of `url` (`spec.ref.branch` of a `GitRepository`; with `sourceKind: 'OCIRepository'`, `spec.ref.tag`).
   * @default 'main'
   */
  readonly branch?: string;
  /**
   * A Secret in each tenant namespace with the credentials for `url` (`spec.secretRef` of the tenant's source). The
   * library writes no credentials: create it there yourself (a sealed or external secret).
   * @default - none (a public repository)
   */
  readonly secretName?: string;
  /**
   * The ServiceAccount, in each tenant's namespace, as which Flux applies the tenant's folder (`spec.serviceAccountName`
   * of the tenant's Kustomization). It gets exactly the RBAC the folder needs (docs/gitops.md, "Who applies what").
   * @default 'tenancy-applier'
   */
  readonly serviceAccountName?: string;
  /**
   * The ServiceAccount, in `namespace`, as which the platform's Kustomizations (`cluster/`, and the tenants' Flux
   * objects) apply: with the controller's `--default-service-account`, a Kustomization without
   * `spec.serviceAccountName` would impersonate that default instead. The one identity that reaches beyond the tenants.
   * @default 'kustomize-controller'
   */
  readonly platformServiceAccountName?: string;
  /**
   * Apply each tenant's folder as the tenant's own ServiceAccount (needs `url`). `false` keeps every Kustomization in
   * `namespace`, applied by Flux's own identity (a warning says so).
   * @default true in `TenancyApp`; `FluxKustomizations.files` uses identities when `url` is set
   */
  readonly tenantIdentities?: boolean;
}

/** One tenant folder of the layout, for `FluxKustomizations.files`. */
export interface FluxTenantFolder {
  /** The tenant's namespace (its folder is `tenants/<namespace>/`). */
  readonly namespace: string;
  /**
   * ClusterServiceVersions the tenant's Kustomization waits for (pinned, Manual-approval subscriptions).
   * @default - none
   */
  readonly clusterServiceVersions?: string[];
  /**
   * Whether the tenant has an `after-install/tenants/<namespace>/` folder (objects that need its operators' CRDs):
   * it gets its own Kustomization, `<prefix>-tenant-<namespace>-after-install`, which depends on the tenant's.
   * @default false
   */
  readonly afterInstall?: boolean;
  /**
   * The tenant's own repository (self-service), applied as the tenant's self-service ServiceAccount.
   * @default - none
   */
  readonly selfService?: GitOpsSelfService;
}

/** A tenant's own repository and the identity that applies it (`TenantGitOpsSource` as the layout writes it). */
export interface GitOpsSelfService {
  /** Repository URL. */
  readonly url: string;
  /**
   * Path in the repository.
   * @default '.'
   */
  readonly path?: string;
  /**
   * Branch.
   * @default 'main'
   */
  readonly branch?: string;
  /**
   * Secret with the repository's credentials, in the tenant's namespace (Flux only).
   * @default - none
   */
  readonly secretName?: string;
  /** The ServiceAccount, in the tenant's namespace, that applies it. */
  readonly serviceAccountName: string;
}

