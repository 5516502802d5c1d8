import type { CuratedClusterCatalog } from './curated-cluster-catalog';
import type { OlmV1AllowedPackage } from './olm-v1-team-guardrails-props';
import type { OlmV1CrdChannel } from './registry-v1-render';
import type { SensitiveGrant } from '../audit/installer-rule-checks';
import type { OperatorBundle } from '../bundle/operator-bundle';
import { TenantGitOpsSource } from '../tenant/scoped-operator-tenant-props';

// The props of OlmV1Team in a file of their own: input-checks.ts checks them and olm-v1-team.ts uses the checks
// (no import circle in src/, test/core/import-cycles.test.ts).

/**
 * A preview finding a team accepts for one extension, by policy id, with the reason (written on the ClusterExtension).
 * Sensitive grants (OLMT-044) are accepted one by one, by name: `{ check: 'OLMT-044', grant: SensitiveGrant.POD_CREATE,
 * reason }`, as OLM v0's `acceptedSensitiveGrants`.
 */
export interface OlmV1AcceptedRisk {
  /** The policy id: OLMT-026 (unbounded), OLMT-044, OLMT-045, OLMT-046, OLMT-047 or OLMT-052. */
  readonly check: string;
  /**
   * For OLMT-044 only: the sensitive grant accepted (each grant its own entry and reason).
   * @default - none: for OLMT-044 it accepts the extension's only sensitive grant, and is an error
   * (AcceptedRiskNeedsGrant) when the extension gets several
   */
  readonly grant?: SensitiveGrant;
  /** Why it is acceptable; shown in the annotation `OlmV1Team.ACCEPTED_RISKS_ANNOTATION`. */
  readonly reason: string;
}

/**
 * An identity outside every team guardrail that may write ClusterExtensions, ClusterCatalogs or ClusterObjectSets,
 * accepted by name with a reason (e.g. the platform's GitOps controller).
 */
export interface OlmV1AcceptedWriter {
  /** The identity as the finding names it: `User alice`, `Group platform-admins`, `ServiceAccount argocd/argocd-application-controller`. */
  readonly identity: string;
  /** Why it may write the OLM v1 APIs unchecked (it installs with cluster-admin). */
  readonly reason: string;
}

/** One ClusterExtension of a team. */
export interface OlmV1ExtensionOptions {
  /** Package name (`spec.source.catalog.packageName`); must be one of the team's allowed packages. */
  readonly packageName: string;
  /**
   * Namespace the extension installs into (`spec.namespace`); must be one of the team's namespaces.
   * @default - required by operator-controller v1.11.0; on its main branch (`TenancyAppProps.targets.operatorControllerVersion:
   * 'main'` or the team's `operatorControllerVersion: 'main'`) the namespace it resolves from the bundle it installs
   * (suggested-namespace template, suggested-namespace annotation, `<package>-system`), which the team then writes with
   * the template's labels and admits in its guardrail
   */
  readonly namespace?: string;
  /**
   * ClusterExtension name (cluster-scoped).
   * @default '<team>-<packageName>'
   */
  readonly name?: string;
  /**
   * Version range (`spec.source.catalog.version`), inside the package's allowed range.
   * @default - the package's allowed range, or none when the package allows any version
   */
  readonly version?: string;
  /**
   * Channels (`spec.source.catalog.channels`), among the package's allowed channels.
   * @default - the package's allowed channels, or none
   */
  readonly channels?: string[];
  /**
   * The package's bundles (e.g. `OperatorBundle.fromCatalogPackage`): each one whose version is inside the range
   * is previewed as operator-controller renders it (`RegistryV1Render`, the team's `operatorControllerVersion`, applied with cluster-admin), and the
   * upgrades between them are compared. Findings fail synth unless accepted in `acceptedRisks`.
   * @default - no preview (warning OlmV1ExtensionNotPreviewed)
   */
  readonly bundles?: OperatorBundle[];
  /**
   * Preview findings accepted for this extension, each with a reason.
   * @default - none
   */
  readonly acceptedRisks?: OlmV1AcceptedRisk[];
  /**
   * For operator-controller before v1.11.0 only (which installs as `spec.serviceAccount`): the name of an installer
   * ServiceAccount to write in `namespace`, with the least-privilege ClusterRole and Roles derived from `bundles`
   * (`OlmV1InstallerRbac`, upstream's former derive-service-account.md), and to set as `spec.serviceAccount.name`.
   * v1.11.0 and later ignore the field and install with cluster-admin.
   * @default - no serviceAccount
   */
  readonly legacyServiceAccount?: string;
  /**
   * `spec.config.inline.deploymentConfig` (experimental gate `DeploymentConfig` and the experimental CRDs; the
   * standard CRD has no `spec.config`): env, envFrom, volumes, volumeMounts, tolerations, resources, nodeSelector,
   * affinity and annotations for the bundle's Deployments, as OLM v0's `SubscriptionConfig`. Needs the team's
   * `allowDeploymentConfig`; the preview renders the Deployments with it.
   * @default - none
   */
  readonly deploymentConfig?: any;
}

/** Properties of an `OlmV1Team`. */
export interface OlmV1TeamProps {
  /** Team name (a label value and part of object names). */
  readonly team: string;
  /** Groups of the team's people: the RBAC on ClusterExtensions is bound to them and the policy checks them. */
  readonly groups: string[];
  /** Namespaces the team's extensions install into; the construct writes them. */
  readonly namespaces: string[];
  /** The curated catalog the team's extensions resolve from (selected by its `OlmV1Labels.TEAM` label). */
  readonly catalog: CuratedClusterCatalog;
  /** Packages the team may install, with version ranges and channels (enforced at synth and by the policy). */
  readonly allowedPackages: OlmV1AllowedPackage[];
  /**
   * The team's ClusterExtensions.
   * @default - none (the team writes its own, within the guardrails)
   */
  readonly extensions?: OlmV1ExtensionOptions[];
  /**
   * Identities of the App outside every team guardrail that may write ClusterExtensions, ClusterCatalogs or
   * ClusterObjectSets (`olm.operatorframework.io`), accepted by name with a reason. Every other such identity is an
   * error (OLMT-054): on OLM v1 it installs any package of any ClusterCatalog with cluster-admin. Acceptances of all
   * teams of the App count.
   * @default - none
   */
  readonly acceptedWriters?: OlmV1AcceptedWriter[];
  /**
   * Let the team set `spec.config.inline.watchNamespace` to one of its namespaces. Needs `crdChannel:
   * OlmV1CrdChannel.EXPERIMENTAL`: the standard CRD has no `spec.config`, so the API server would prune the field and
   * the bundle would install for all namespaces. operator-controller v1.11.0 keeps `watchNamespace` with the
   * `SingleOwnNamespaceInstallSupport` gate off (for bundles that support AllNamespaces and Own/SingleNamespace).
   * @default false
   */
  readonly allowWatchNamespace?: boolean;
  /**
   * The ClusterExtension CRD channel the cluster runs (what the API server does with `spec.config`).
   * @default - OlmV1CrdChannel.EXPERIMENTAL when `allowDeploymentConfig` is true (the DeploymentConfig gate exists
   * only in the experimental feature set, which ships the experimental CRDs), else OlmV1CrdChannel.STANDARD
   */
  readonly crdChannel?: OlmV1CrdChannel;
  /**
   * The operator-controller version the cluster runs: the preview renders every bundle with that version's
   * renderer. One of `RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS`.
   * @default RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION ('v1.11.0')
   */
  readonly operatorControllerVersion?: string;
  /**
   * Let the team set `spec.config.inline.deploymentConfig` (experimental gate `DeploymentConfig`): the admission
   * policy admits it and the preview renders with it.
   * @default false
   */
  readonly allowDeploymentConfig?: boolean;
  /**
   * The team's own repository (self-service, docs/gitops.md "A tenant's own repository"): with a `TenancyApp` that
   * writes Flux or Argo CD objects, applied as the team's self-service ServiceAccount, which the team's guardrail checks
   * like the team's groups: ClusterExtensions within the allowed packages and namespaces, and the installed operators'
   * namespaced APIs in the team's namespaces; nothing else.
   * @default - none
   */
  readonly gitOpsSource?: TenantGitOpsSource;
}
