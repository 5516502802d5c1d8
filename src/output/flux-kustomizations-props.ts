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
   * ClusterServiceVersions of operators in the `cluster/` folder (a `GlobalOperatorInstall`'s, pinned with Manual
   * approval) that `<prefix>-cluster-operators` waits for. `TenancyApp` sets it from the App's subscriptions.
   * @default - none
   */
  readonly clusterOperators?: FluxClusterServiceVersionRef[];
}

/** A ClusterServiceVersion a Flux Kustomization waits for by name (OLM creates it, not Flux). */
export interface FluxClusterServiceVersionRef {
  /** Namespace of the ClusterServiceVersion (the Subscription's). */
  readonly namespace: string;
  /** Name of the ClusterServiceVersion, e.g. `etcdoperator.v0.9.4`. */
  readonly name: string;
}

/** One tenant folder of the layout, for `FluxKustomizations.files`. */
export interface FluxTenantFolder {
  /** The tenant's namespace (its folder is `tenants/<namespace>/`). */
  readonly namespace: string;
  /**
   * ClusterServiceVersions of the tenant's operators whose names stay fixed (pinned, Manual-approval subscriptions):
   * `<prefix>-tenant-<namespace>-operators` waits for each to reach phase Succeeded.
   * @default - none
   */
  readonly clusterServiceVersions?: string[];
  /**
   * Whether the tenant has an `after-install/tenants/<namespace>/` folder (objects that need its operators' CRDs):
   * it gets its own Kustomization, `<prefix>-tenant-<namespace>-after-install`, which depends on the tenant's.
   * @default false
   */
  readonly afterInstall?: boolean;
}

