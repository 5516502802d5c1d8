// The props of OlmV1TeamGuardrails in a file of their own (no import circle with input-checks.ts).

/** A package a team may install, and which versions and channels. */
export interface OlmV1AllowedPackage {
  /** Package name (`spec.source.catalog.packageName`). */
  readonly name: string;
  /**
   * The versions the team may ask for, in the `OlmV1VersionRange` grammar (`>=1.2.0 <2.0.0`, `1.4.2`, `>=1.0.0`).
   * A ClusterExtension's `version` must be an interval inside it (a missing version is every version, refused).
   * @default - any version, including none
   */
  readonly versionRange?: string;
  /**
   * The channels the team may name. A ClusterExtension must then name at least one, all of them in this list
   * (no channels means every channel's upgrade edges).
   * @default - any channels, including none
   */
  readonly channels?: string[];
}

/** Properties of an `OlmV1TeamGuardrails`. */
export interface OlmV1TeamGuardrailsProps {
  /** Team name: the value of the `OlmV1Labels.TEAM` label its ClusterExtensions carry. */
  readonly team: string;
  /** Groups whose members' requests the policy checks (the team's RBAC is bound to them). */
  readonly groups: string[];
  /** Namespaces the team's ClusterExtensions may install into (`spec.namespace`). */
  readonly namespaces: string[];
  /** The `OlmV1Labels.TEAM` value of the catalogs the team must select (`spec.source.catalog.selector.matchLabels`). */
  readonly catalogTeam: string;
  /** Packages the team may install. */
  readonly packages: OlmV1AllowedPackage[];
  /**
   * Whether the team may set `spec.config.inline.watchNamespace` (alpha gate `SingleOwnNamespaceInstallSupport`,
   * experimental CRDs) to one of its namespaces. Every other `spec.config` is refused.
   * @default false
   */
  readonly allowWatchNamespace?: boolean;
  /**
   * Whether the team may set `spec.config.inline.deploymentConfig` (experimental gate `DeploymentConfig`,
   * experimental CRDs): env, volumes, tolerations, resources, nodeSelector, affinity and annotations of the bundle's
   * Deployments, which run with the bundle's permissions.
   * @default false
   */
  readonly allowDeploymentConfig?: boolean;
  /**
   * ServiceAccount names the team may set as `spec.serviceAccount.name` (operator-controller before v1.11.0 installs
   * as that account; later versions ignore the field). Any other value is refused, so on older versions a team
   * cannot install as some powerful ServiceAccount of its namespace. More can be added with `allowServiceAccount`
   * until synth.
   * @default - none: spec.serviceAccount is refused
   */
  readonly serviceAccountNames?: string[];
  /**
   * Name of the ValidatingAdmissionPolicy and its binding.
   * @default 'olmv1-team-<team>'
   */
  readonly policyName?: string;
}
