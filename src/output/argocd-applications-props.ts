// The input types of ArgoCdApplications, apart so that its input checks need not import it.
import { GitOpsSelfService } from './flux-kustomizations-props';

/** Where Argo CD finds the GitOps layout, and how its Applications and AppProjects are written. */
export interface ArgoCdOptions {
  /** URL of the repository that holds the output (`spec.source.repoURL` of every Application). */
  readonly repoUrl: string;
  /** Path of the output directory in the repository, e.g. `dist` (the base of every Application's `spec.source.path`). */
  readonly path: string;
  /**
   * The revision the Applications follow (`spec.source.targetRevision`).
   * @default 'HEAD'
   */
  readonly targetRevision?: string;
  /**
   * Argo CD's namespace, where the Applications and AppProjects live (no apps-in-any-namespace needed).
   * @default 'argocd'
   */
  readonly namespace?: string;
  /**
   * Prefix of the names: `<prefix>-platform` and `<prefix>-tenant-<namespace>` (AppProjects), `<prefix>-cluster` and
   * `<prefix>-tenant-<namespace>` (Applications).
   * @default 'tenancy'
   */
  readonly namePrefix?: string;
  /**
   * The cluster's API server as Argo CD names it (`spec.destination.server`).
   * @default 'https://kubernetes.default.svc'
   */
  readonly server?: string;
  /**
   * The repositories tenant projects may read (`spec.sourceRepos` of each tenant's AppProject). A tenant's own
   * repository (self-service) gets a project of its own with only that repository.
   * @default - `[repoUrl]`
   */
  readonly sourceRepos?: string[];
  /**
   * The ServiceAccount, in each tenant's namespace, as which Argo CD syncs the tenant's folder (the tenant project's
   * `spec.destinationServiceAccounts`, Argo CD's sync impersonation).
   * @default 'tenancy-applier'
   */
  readonly serviceAccountName?: string;
  /**
   * The ServiceAccount, in `namespace`, as which the platform's Applications (`cluster/`) sync: the one identity that
   * reaches beyond the tenants.
   * @default 'argocd-application-controller'
   */
  readonly platformServiceAccountName?: string;
  /**
   * Whether the layout has a `cluster/` folder. `TenancyApp` sets it from what it wrote.
   * @default true
   */
  readonly cluster?: boolean;
  /**
   * Whether the layout has an `after-install/cluster/` folder. `TenancyApp` sets it from what it wrote.
   * @default false
   */
  readonly afterInstallCluster?: boolean;
}

/** A cluster-scoped kind (`clusterResourceWhitelist` entry of an AppProject). */
export interface ArgoCdClusterKind {
  /** API group (`''` for the core group). */
  readonly group: string;
  /** Kind. */
  readonly kind: string;
}

/** One tenant folder of the layout, for `ArgoCdApplications.files`. */
export interface ArgoCdTenantFolder {
  /** The tenant's (home) namespace: its folder is `tenants/<namespace>/`, its ServiceAccounts live here. */
  readonly namespace: string;
  /**
   * Every namespace the folder's objects go to (an OLM v1 team's), the home namespace included.
   * @default - `[namespace]`
   */
  readonly namespaces?: string[];
  /**
   * The cluster-scoped kinds the folder holds (an OLM v1 team's ClusterExtensions): its project allows these only.
   * @default - none
   */
  readonly clusterKinds?: ArgoCdClusterKind[];
  /**
   * Whether the tenant has an `after-install/tenants/<namespace>/` folder.
   * @default false
   */
  readonly afterInstall?: boolean;
  /**
   * The tenant's own repository: an Application in a project of its own, synced as the tenant's self-service
   * ServiceAccount.
   * @default - none
   */
  readonly selfService?: GitOpsSelfService;
}
