// The props of TenancyApp, apart so that its input checks need not import the App.
import { AppProps } from 'cdk8s';
import { ClusterTargets } from '../core/cluster-targets';
import { ArgoCdOptions } from '../output/argocd-applications-props';
import { FluxOptions } from '../output/flux-kustomizations-props';

/** Where `TenancyApp.synth()` writes the objects. */
export enum OutputLayout {
  /**
   * What cdk8s writes: files per the App's `yamlOutputType` (by default one file per chart).
   */
  FILE_PER_CHART = 'FILE_PER_CHART',
  /**
   * The GitOps layout (docs/gitops.md): `cluster/` and `tenants/<namespace>/` folders with a
   * `kustomization.yaml` each, common labels, optional Argo CD sync waves (`syncWaves`), and
   * `argocd/ignore-differences.yaml` for the fields OLM writes (`OlmWrites`). See `GitOpsLayout`. The App's
   * `yamlOutputType` does not apply; re-synthesis replaces the layout's own entries in `outdir` and keeps the rest.
   */
  GITOPS = 'GITOPS',
}

/** The form of the error a failed `TenancyApp` synth throws. */
export enum SynthErrorFormat {
  /**
   * `READABLE` when the synth is called with the program's main module on the call stack (`cdk8s synth` and
   * `npx ts-node main.ts` run the app so, and so does a `main` that calls `app.synth()` and catches the error), and
   * not under jest; `ONE_LINE` otherwise (a test, a tool or library module calling the synth).
   */
  AUTO = 'AUTO',
  /**
   * `Synthesis failed with N error(s); nothing was written:` and each finding readable (`Diagnostics.formatReadable`).
   * Run as an app (see `AUTO`), an uncaught failure prints the message without a stack trace and exits 1.
   */
  READABLE = 'READABLE',
  /** cdk8s's form: `Validation failed with the following errors:` and one line per finding (the form tools parse). */
  ONE_LINE = 'ONE_LINE',
}

/** Props of `TenancyApp`: cdk8s `AppProps` plus the library's own. */
export interface TenancyAppProps extends AppProps {
  /**
   * How the output is laid out on disk.
   * @default OutputLayout.FILE_PER_CHART
   */
  readonly layout?: OutputLayout;
  /**
   * With `OutputLayout.GITOPS`: annotate every object with its Argo CD sync wave (`argocd.argoproj.io/sync-wave`:
   * 0 Namespace, ServiceAccount, token Secret, RBAC and cluster policies; 1 CatalogSource and OperatorGroup;
   * 2 Subscriptions; never below the wave of an object it depends on). Ignored by the other layouts.
   * @default false
   */
  readonly syncWaves?: boolean;
  /**
   * With `OutputLayout.GITOPS`: write `argocd/health-checks.yaml`, a patch of Argo CD's `argocd-cm` with health checks
   * for the OLM kinds (`OlmHealthChecks`: Subscription, InstallPlan, ClusterServiceVersion, CatalogSource,
   * OperatorGroup, ClusterExtension, ClusterCatalog), so that a sync is Healthy only once OLM has created the operator's
   * ClusterServiceVersion (the Subscription cannot say whether it runs: docs/gitops.md, "What green means in Argo CD").
   * Ignored by the other layouts.
   * @default true
   */
  readonly argoCdHealthChecks?: boolean;
  /**
   * With `OutputLayout.GITOPS`: write `flux/`, Flux Kustomizations for `cluster/` and each tenant folder (all wait for
   * health with the OLM health expressions; the tenants' after the cluster's; `<name>-operators` waits for a tenant's
   * pinned ClusterServiceVersions to succeed). Each tenant folder applies as the tenant's ServiceAccount (`flux.url`,
   * `flux.serviceAccountName`; docs/gitops.md "Who applies what") unless `flux.tenantIdentities` is false. Ignored by
   * the other layouts.
   * @default - no Flux Kustomizations
   */
  readonly flux?: FluxOptions;
  /**
   * With `OutputLayout.GITOPS`: write `argocd/apps/`, an app-of-apps of Argo CD AppProjects and Applications (the
   * platform's for `cluster/`, one project and Application per tenant folder, in sync waves, each tenant folder synced
   * as the tenant's ServiceAccount with Argo CD's sync impersonation), and `argocd/apps-config.yaml`, the `argocd-cm`
   * settings they assume (docs/gitops.md, "Argo CD"). Ignored by the other layouts.
   * @default - no Argo CD Applications
   */
  readonly argoCd?: ArgoCdOptions;
  /**
   * Write `TENANCY.md` beside the manifests on `synth()` (`TenancyReport.markdown`: Mermaid diagram,
   * subscriptions, installer permissions, upgrades, preflight, access, off-boarding), from the same pass.
   * @default false
   */
  readonly report?: boolean;
  /**
   * Print nothing on `synth()`. Otherwise `synth()` writes the library's warnings (`Diagnostics.report`, a
   * finding shared by many constructs naming three of them and counting the rest, no line longer than a screen:
   * every path is in WARNINGS.txt with `OutputLayout.GITOPS`) and a one-line summary to stderr.
   * @default false
   */
  readonly quiet?: boolean;
  /**
   * The form of the error a failed synth throws (see `SynthErrorFormat`).
   * @default SynthErrorFormat.AUTO
   */
  readonly errorFormat?: SynthErrorFormat;
  /**
   * How long `synth()` waits for another synth writing the same `outdir` (a Go duration, e.g. `'5m'`; `'0s'` refuses
   * at once). One synth at a time holds `outdir/.cdk8s-olm-tenancy-lock` while it writes; a lock left by a process
   * that no longer runs on this host is broken. When the wait ends, the synth fails with an error naming the holder
   * and changes nothing (docs/gitops.md, "One writer at a time").
   * @default '5m'
   */
  readonly outputLockWait?: string;
  // --- version targets: what the cluster runs (keep these props in one block, docs/version-targets.md) ---
  /**
   * What the cluster runs (docs/version-targets.md): Kubernetes, OLM v0, operator-controller and OpenShift
   * versions. The constructs created under this App shape their output by it: no installer token Secret where OLM
   * >= 0.29 is declared (OLM requests tokens with the TokenRequest API), admission policies in the API version the
   * Kubernetes serves, no `ClusterExtension.spec.serviceAccount` for operator-controller >= 1.11; a warning where
   * an output relies on something the declared version lacks. Wrong versions are synth errors.
   * @default - the output of the seeds' procedure: Kubernetes 1.30, OLM 0.28.0 (token Secrets), operator-controller
   * not declared
   */
  readonly targets?: ClusterTargets;
  // --- end of the version targets ---
  /**
   * Policy ids (`PolicyChecks`) that no acceptance lowers, platform-wide: an `acceptedReach`, an OLM v1 `acceptedRisks`
   * or `acceptedWriters` entry, a `tenantsMayDriveReason`, an `acceptedSensitiveGrants`/`allowedSensitiveGrants` entry
   * (OLMT-003) or a `policyChecks` lowering that would accept a finding of one of them is a synth error naming the
   * prop, and the finding stays what it was (docs/audit.md, "Never acceptable"). `[]` lets every acceptance count.
   * @default ['OLMT-026']: a tenant identity with cluster-admin's reach (TenantIdentityUnbounded)
   */
  readonly neverAcceptable?: string[];
}
