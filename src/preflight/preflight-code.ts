/**
 * What the two preflight engines (`InstallPreflight` in install-preflight.ts, `InstallerPermissions` in
 * installer-permissions.ts) share: the codes they report (`PreflightCode`) with the problem that carries one, and
 * the small input types both take (rules per namespace, the kind of a bound role).
 */
import { PolicyRule } from '../rbac/policy-rule';

/** Rules held in one namespace. */
export interface NamespaceRules {
  /** The namespace. */
  readonly namespace: string;
  /** The rules (from RoleBindings in that namespace). */
  readonly rules: PolicyRule[];
}

/** Codes of preflight problems and warnings. */
export enum PreflightCode {
  /** OLM's `UnsupportedOperatorGroup`: the CSV's install modes do not allow the OperatorGroup's target namespaces. */
  UNSUPPORTED_OPERATOR_GROUP = 'UnsupportedOperatorGroup',
  /** OLM's `InvalidInstallModes`: the CSV lists an install mode twice. */
  INVALID_INSTALL_MODES = 'InvalidInstallModes',
  /** A bundle object of a kind OLM does not install (`StepStatusUnsupportedResource`): the InstallPlan fails. */
  UNSUPPORTED_RESOURCE = 'UnsupportedResource',
  /** The installer has no rules outside its namespace, but the install needs cluster-scoped (or kube-system) rules. */
  NEEDS_CLUSTER_SCOPED_RULES = 'NeedsClusterScopedRules',
  /**
   * Installing needs the installer to write CRDs or APIServices (the operator's own rules grant it, so the RBAC
   * escalation check requires the installer to hold it; or conversion webhooks / owned APIServices). A scoped
   * installer must never hold these: the operator cannot be installed through a scoped tenant.
   */
  WRITES_CRDS_OR_APISERVICES = 'WritesCrdsOrApiServices',
  /**
   * Installing needs the installer to hold `escalate`/`bind` on roles or `impersonate` (the operator's own rules
   * grant them): that would let the installer bypass the RBAC escalation check. Refused like CRD writes.
   */
  GRANTS_ESCALATION_RIGHTS = 'GrantsEscalationRights',
  /** OLM refuses conversion webhooks unless the CSV supports only AllNamespaces (`createOrUpdateConversionWebhook`). */
  CONVERSION_WEBHOOK_NOT_ALL_NAMESPACES = 'ConversionWebhookRequiresAllNamespaces',
  /** OLM's `InvalidWebhookDescription` (`install.ValidWebhookRules`). */
  INVALID_WEBHOOK_DESCRIPTION = 'InvalidWebhookDescription',
  /** Warning: OLM copies the operator's namespaced RBAC into other target namespaces with its own client. */
  RBAC_COPIED_TO_TARGET_NAMESPACES = 'OperatorRbacCopiedToTargetNamespaces',
  /** Warning: for AllNamespaces, OLM turns the operator's namespaced rules into ClusterRoles with its own client. */
  RBAC_LIFTED_TO_CLUSTER = 'OperatorRbacLiftedToCluster',
  /** Warning: CRDs are created by OLM's own client; they are cluster-wide and shared by every tenant. */
  CRDS_CREATED_BY_OLM = 'CrdsCreatedByOlm',
  /** Warning: required APIs are resolved by OLM, which may install more bundles with the same ServiceAccount. */
  REQUIRED_APIS = 'RequiredApis',
  /**
   * Warning: a bundle object of a core kind (Secret, Service, ConfigMap, ServiceAccount, Role, RoleBinding,
   * ClusterRole, ClusterRoleBinding) in another API group. OLM dispatches by kind alone and creates the core kind
   * (fields it does not know are dropped): the bundle probably ships a sample custom resource by mistake.
   */
  CREATED_AS_CORE_KIND = 'BundleObjectCreatedAsCoreKind',
  /** A bundle object OLM cannot create (rules that do not decode, no apiVersion for a non-core kind): the InstallPlan fails. */
  INVALID_BUNDLE_OBJECT = 'InvalidBundleObject',
  /**
   * Warning: something the bundle loader accepted the way OLM does (duplicate keys: the last wins; a manifest file
   * OLM skips; documents after the first in a manifest file), see `OperatorBundle.loadWarnings`.
   */
  BUNDLE_MANIFEST_WARNING = 'BundleManifestWarning',
}

/** A blocker or warning that is not a missing rule. */
export interface PreflightFinding {
  /** Code. */
  readonly code: PreflightCode;
  /** What is wrong, and the fix. */
  readonly message: string;
}

/** Kind of a role that a bundle binds. */
export enum BoundRoleKind {
  /** A Role in the binding's namespace. */
  ROLE = 'Role',
  /** A ClusterRole. */
  CLUSTER_ROLE = 'ClusterRole',
}
