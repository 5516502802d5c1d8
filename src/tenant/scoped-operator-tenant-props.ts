// The props and plain-data types of ScopedOperatorTenant, apart so that its parts and input checks share them without
// importing the construct.
import { DeriveScope } from './derive-scope';
import { TargetNamespaces } from './target-namespaces';
import { AcceptedReach } from '../audit/audited-tenant';
import { SensitiveGrant, SensitiveGrantAcceptance } from '../audit/installer-rule-checks';
import { OperatorBundle } from '../bundle/operator-bundle';
import { PolicySeverity } from '../core/policy-checks';
import { OlmGeneration } from '../olm/olm-naming';
import { BindRoleAcceptance } from '../preflight/installer-permissions';
import { PolicyRule } from '../rbac/policy-rule';

/** OperatorGroup `spec.upgradeStrategy`. */
export enum UpgradeStrategy {
  /** CSVs move to Replacing only from Succeeded: a failed install or upgrade blocks further upgrades. */
  DEFAULT = 'Default',
  /**
   * CSVs may also be replaced from Failed, and OLM generates new InstallPlans for failed ones. The CRD warns it
   * "is unsafe and may result in unexpected behavior or unrecoverable data loss".
   */
  TECH_PREVIEW_UNSAFE_FAIL_FORWARD = 'TechPreviewUnsafeFailForward',
}

/** Pod Security Admission level for the tenant namespace (`pod-security.kubernetes.io/enforce`). */
export enum PodSecurityLevel {
  /** No restrictions. */
  PRIVILEGED = 'privileged',
  /** Blocks known privilege escalations. */
  BASELINE = 'baseline',
  /** Current pod hardening best practices. */
  RESTRICTED = 'restricted',
}

/**
 * The pull-secret rules of the OKD docs, for OLM releases before 0.8.1 only.
 *
 * The docs add a cluster-wide `get secrets` ClusterRole and a namespaced `create/update/patch secrets` Role "if
 * any Operator specifies a pull secret", because old OLM copied a catalog's pull secrets from its own namespace
 * into the tenant namespace with the installer's client. Current OLM no longer generates that InstallPlan step:
 * `pkg/controller/registry/resolver/steps.go` turns every bundle Secret into the synthetic `BundleSecret` kind,
 * created in the tenant namespace, and nothing generates the `Secret` step whose handler (`EnsureSecret` in
 * `pkg/controller/operators/catalog/operator.go`) reads from the catalog operator's namespace. So the default is
 * off, and this option grants the docs' rules narrowed to what that step read: `get` on the named Secrets in the
 * global catalog namespace (a Role there, not a ClusterRole), plus the docs' namespaced secret writes.
 */
export interface LegacyPullSecretAccess {
  /**
   * The global catalog namespace, i.e. the catalog operator's `-namespace` flag (`openshift-marketplace` on
   * OpenShift, `olm` upstream), where the old step read the pull secrets.
   */
  readonly catalogNamespace: string;
  /** The pull secrets the installer may read there (Role `resourceNames`). */
  readonly secretNames: string[];
}

/** One grant of a tenant to a person, group or ServiceAccount (see `ScopedOperatorTenant.accessGrants`). */
export interface TenantAccessGrant {
  /** `User`, `Group` or `ServiceAccount`. */
  readonly subjectKind: string;
  /** The subject's name. */
  readonly subjectName: string;
  /** `operator-admin`, `operator-edit`, `operator-view` (grantOperatorAccess) or `subscription-management`. */
  readonly grant: string;
  /** Namespace of the RoleBinding. */
  readonly namespace: string;
}

/** A sensitive grant the installer holds because the tenant accepted it (see `ScopedOperatorTenant.sensitiveGrants`). */
export interface TenantSensitiveGrant {
  /** The grant. */
  readonly grant: SensitiveGrant;
  /** What it allows, e.g. `'create'/'update'/'patch' on operators.coreos.com subscriptions in every namespace`. */
  readonly what: string;
  /** Where the installer holds it: the tenant namespace, or `''` for the installer ClusterRole (cluster-wide). */
  readonly namespace: string;
  /** Why it is accepted, as written to the annotation `ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION`. */
  readonly acceptance: string;
}

/** An operator the tenant no longer subscribes to (see `ScopedOperatorTenant.removeOperator`). */
export interface RemovedOperatorOptions {
  /** The package that was subscribed. */
  readonly packageName: string;
  /** The CSV OLM installed last (what `oc get csv -n <namespace>` shows), e.g. `etcdoperator.v0.9.4`. */
  readonly csvName: string;
  /**
   * The installed bundle, to list its CRDs among what is left behind.
   * @default - the CRDs are not listed
   */
  readonly bundle?: OperatorBundle;
}

/**
 * What `ScopedOperatorTenant.allowInstaller` adds to the installer Role: `verbs` on `resources` of `apiGroup` in the
 * tenant namespace (a typed form of one `PolicyRule`).
 */
export interface AllowInstallerProps {
  /** The verbs, e.g. `['get', 'create', 'update', 'patch']`. */
  readonly verbs: string[];
  /** The API group, `''` for the core group. */
  readonly apiGroup: string;
  /** The resources, or `resource/subresource`, e.g. `['configmaps']`. */
  readonly resources: string[];
  /**
   * Restrict the rule to these object names.
   * @default - any name
   */
  readonly resourceNames?: string[];
}

/** Props of `ScopedOperatorTenant`. */
export interface ScopedOperatorTenantProps {
  /** The tenant namespace: where the OperatorGroup, installer ServiceAccount and Subscriptions live. */
  readonly namespaceName: string;
  /**
   * Create the Namespace object. False adopts an existing namespace (no Namespace in the output).
   * @default true
   */
  readonly createNamespace?: boolean;
  /**
   * Extra labels on the Namespace (only with `createNamespace`).
   * @default - none
   */
  readonly namespaceLabels?: { [key: string]: string };
  /**
   * Extra annotations on the Namespace (only with `createNamespace`).
   * @default - none
   */
  readonly namespaceAnnotations?: { [key: string]: string };
  /**
   * Pod Security Admission level enforced in the namespace (label `pod-security.kubernetes.io/enforce`). A label
   * with this key in `namespaceLabels` is kept when this prop is not set.
   * @default PodSecurityLevel.BASELINE - blocks known privilege escalations (hostPath, host namespaces,
   * privileged containers); `restricted` would reject the pods of many operators
   */
  readonly podSecurity?: PodSecurityLevel;
  /**
   * Pod Security Admission level that only warns the client (label `pod-security.kubernetes.io/warn`).
   * @default PodSecurityLevel.RESTRICTED (unless `namespaceLabels` sets the label)
   */
  readonly podSecurityWarn?: PodSecurityLevel;
  /**
   * Pod Security Admission level recorded in the audit log (label `pod-security.kubernetes.io/audit`).
   * @default PodSecurityLevel.RESTRICTED (unless `namespaceLabels` sets the label)
   */
  readonly podSecurityAudit?: PodSecurityLevel;
  /**
   * Name of the OperatorGroup.
   * @default - the namespace name (as in the OKD docs' `scoped` example)
   */
  readonly operatorGroupName?: string;
  /**
   * Name of the installer ServiceAccount named in the OperatorGroup's `spec.serviceAccountName`.
   * @default - the namespace name (as in the OKD docs)
   */
  readonly installerServiceAccountName?: string;
  /**
   * Name of the installer Role (and of its RoleBinding unless `installerRoleBindingName` is set).
   * @default - the installer ServiceAccount name
   */
  readonly installerRoleName?: string;
  /**
   * Name of the installer RoleBinding (the OKD docs' `scoped` example calls it `scoped-bindings`).
   * @default - the installer Role name
   */
  readonly installerRoleBindingName?: string;
  /**
   * Create a long-lived token Secret (`kubernetes.io/service-account-token`) for the installer ServiceAccount,
   * as the OKD procedure requires ("The secret must be a long-lived API token"). Since Kubernetes 1.24 no such
   * Secret is created automatically, and OLM's scoped client used to fail without it ("the service account does
   * not have any API secret", OLM issue #3376). OLM >= 0.29 requests a token with the TokenRequest API when the
   * Secret is missing (OLM PR #3377, `pkg/lib/scoped/token_retriever.go`; backported to OpenShift 4.16 as
   * openshift/operator-framework-olm#898), so it may be turned off there.
   * @default - true, unless the App's `TenancyAppProps.targets` declares OLM >= 0.29.0 or OpenShift >= 4.16
   * (docs/version-targets.md)
   */
  readonly createTokenSecret?: boolean;
  /**
   * Name of the token Secret.
   * @default - the installer ServiceAccount name (as in the OKD docs)
   */
  readonly tokenSecretName?: string;
  /**
   * The installer Role's rules, replacing the default. More can be added with `addInstallerRule`.
   * @default DefaultInstallerRules.okdScopedInstall() - the OKD docs' "fine-grained permissions"
   */
  readonly installerRules?: PolicyRule[];
  /**
   * Derive the installer's rules from the bundles of the tenant's Subscriptions (`subscribe({ bundle,
   * upgradeBundles })`) with `InstallerPermissions.leastPrivilege`: exactly what OLM needs to install and
   * upgrade them with the installer's ServiceAccount, instead of the OKD docs' default Role. Rules given in
   * `installerRules` or added later are kept on top. Never derives writes to CRDs or APIServices, nor
   * escalate/bind on roles or impersonate: operators that need them fail the preflight with the reason.
   * A Subscription without a bundle is then a synth error (nothing to derive from).
   * @default false
   */
  readonly deriveInstallerRules?: boolean;
  /**
   * With `deriveInstallerRules`: which versions the rules are derived from, the union of every upgrade the catalog
   * allows or only the pinned version. Written to the installer Role's annotation
   * `ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION`. With `PINNED_VERSION`, allowed upgrades that need more rules
   * fail the synth (`UpgradeWouldFail`, or a warning with `preflight: PreflightEnforcement.WARNING`).
   * @default DeriveScope.ALLOWED_UPGRADES
   */
  readonly deriveScope?: DeriveScope;
  /**
   * With `deriveInstallerRules`: also grant the derived rules that lie outside the tenant namespace (a
   * ClusterRole + ClusterRoleBinding, and Roles in other namespaces such as kube-system for webhook and API
   * service certificates). This is an opt-in with a reason, written to the annotation
   * `ScopedOperatorTenant.REASON_ANNOTATION` of each such object. Without it nothing outside the namespace is
   * derived, and operators that need it fail the preflight with `NeedsClusterScopedRules`; lowering that check
   * (`policyChecks: { 'OLMT-006': ... }`) derives them too, annotated with that reason, and reports them once at the
   * lowered severity.
   * @default - nothing outside the tenant namespace is derived (unless `policyChecks` lowers OLMT-006)
   */
  readonly clusterScopedInstallerRulesReason?: string;
  /**
   * Cluster-scoped installer rules (a ClusterRole and ClusterRoleBinding for the installer), e.g. for operators
   * with `clusterPermissions`. Nothing cluster-scoped is created without them. Rules that allow writing
   * CustomResourceDefinitions or APIServices are always a synth error.
   * @default - none
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Sensitive grants (`SensitiveGrant`: escalate, bind, impersonate, OperatorGroup writes, pod creation and exec,
   * ServiceAccount tokens, cluster-wide secret reads, webhook and admission policy writes, ...) accepted in the
   * installer rules.
   * @default - none: each is a synth error
   */
  readonly allowedSensitiveGrants?: SensitiveGrant[];
  /**
   * Sensitive grants accepted by name with a reason, as `allowedSensitiveGrants`; the reason is written to the
   * annotation `ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION` of the Role or ClusterRole that holds the grant, and
   * to the report. A blank reason accepts nothing (`EmptySensitiveGrantReason`).
   * @default - none
   */
  readonly acceptedSensitiveGrants?: SensitiveGrantAcceptance[];
  /**
   * With `deriveInstallerRules`: roles that the bundles bind but do not define (e.g. a ClusterRoleBinding to `view`)
   * whose `bind` may be derived, each with a reason written to the annotation
   * `ScopedOperatorTenant.BIND_ROLES_ANNOTATION`. Holding `bind` on a role lets the installer bind it to itself.
   * Without an entry such a binding is a `GrantsEscalationRights` preflight error. The two bootstrap roles of
   * cert resources (`system:auth-delegator`, `extension-apiserver-authentication-reader`) need no entry.
   * @default - none
   */
  readonly allowedBindRoles?: BindRoleAcceptance[];
  /**
   * Severity per policy check id (`PolicyChecks`, e.g. `{ 'OLMT-011': PolicySeverity.ERROR }`) for this tenant's
   * findings. Raising a check is always allowed; checks that cannot be relaxed (`PolicyCheck.relaxable`) refuse a
   * lower severity with a synth error, as do unknown ids.
   * @default - every check at its default severity
   */
  readonly policyChecks?: { [id: string]: PolicySeverity };
  /**
   * Opt-in, with a reason, to system namespaces (`SystemNamespaces.isSystemNamespace`: `default`, `kube-*`,
   * `openshift`, `openshift-*`, `olm`, `operators`) as OperatorGroup targets or as
   * `legacyPullSecretAccess.catalogNamespace`. Written to the annotation
   * `ScopedOperatorTenant.SYSTEM_NAMESPACES_REASON_ANNOTATION` of the OperatorGroup or pull-secret Role that uses
   * them. AllNamespaces has its own reason (`TargetNamespaces.allNamespaces(reason)`).
   * @default - system namespaces are a synth error
   */
  readonly systemNamespacesReason?: string;
  /**
   * The OperatorGroup's target namespaces. Other namespaces and AllNamespaces are an explicit opt-in with a
   * reason, written to the OperatorGroup annotation `ScopedOperatorTenant.TARGETS_REASON_ANNOTATION`: OLM, with
   * its own cluster-admin client, copies the operator's Roles into every target namespace, or lifts them to
   * ClusterRoles for AllNamespaces (`ensureRBACInTargetNamespace` in OLM `olm/operatorgroup.go`), so the operator
   * gets rights there that the installer never had. Targeting another tenant's namespace is a synth error.
   * @default TargetNamespaces.ownNamespace()
   */
  readonly targetNamespaces?: TargetNamespaces;
  /**
   * OperatorGroup `spec.upgradeStrategy`.
   * @default - not set (OLM uses Default)
   */
  readonly upgradeStrategy?: UpgradeStrategy;
  /**
   * Which OLM release line names the OperatorGroup ClusterRoles that `grantOperatorAccess` binds to.
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly olmGeneration?: OlmGeneration;
  /**
   * The OKD docs' pull-secret rules, for OLM < 0.8.1 only (see `LegacyPullSecretAccess`).
   * @default - none
   */
  readonly legacyPullSecretAccess?: LegacyPullSecretAccess;
  /**
   * Reaches of the tenant's identities outside its namespaces that the effective-power audit (`TenancyAudit`) may
   * report without failing the synth (they become warnings). Written as JSON to the OperatorGroup annotation
   * `TenancyAudit.ACCEPTED_REACH_ANNOTATION`, so the opt-in is visible in the output. Each needs a reason.
   * @default - none: every reach the audit finds is a synth error
   */
  readonly acceptedReach?: AcceptedReach[];
  /**
   * The tenant's own repository (self-service, docs/gitops.md "A tenant's own repository"): with a `TenancyApp` that
   * writes Flux or Argo CD objects, the layout adds a source for it that applies as the tenant's self-service
   * ServiceAccount, which may write only the tenant's Subscriptions and its operators' APIs in its namespace (never
   * RBAC, CatalogSources, OperatorGroups or another namespace).
   * @default - none: the tenant's objects come from the platform's repository only
   */
  readonly gitOpsSource?: TenantGitOpsSource;
}

/** A tenant's own repository, applied with the tenant's self-service identity. */
export interface TenantGitOpsSource {
  /** The repository's URL (a Flux `GitRepository`'s `spec.url`; an Argo CD Application's `repoURL`). */
  readonly url: string;
  /**
   * The path in the repository.
   * @default '.'
   */
  readonly path?: string;
  /**
   * The branch (Flux `spec.ref.branch`; Argo CD `targetRevision`).
   * @default 'main' (Flux), 'HEAD' (Argo CD)
   */
  readonly branch?: string;
  /**
   * A Secret in the tenant's namespace with the repository's credentials (Flux `spec.secretRef`; Argo CD reads
   * repository credentials from its own namespace).
   * @default - none
   */
  readonly secretName?: string;
}
