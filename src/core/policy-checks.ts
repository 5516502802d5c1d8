/**
 * The security-relevant checks of the library, each with a stable id (`OLMT-001`...), a default severity, a one-line
 * fix and an example. Every diagnostic whose code is registered here carries its id in its message
 * (`... (InstallerSensitiveGrant, OLMT-003)`), and a tenant may change the severity of the checks it owns with
 * `ScopedOperatorTenantProps.policyChecks` (never below the default for checks that cannot be relaxed).
 *
 * Ids are stable: a check that is removed keeps its id unused; new checks get the next free number.
 */
import { CODE } from './diagnostic-codes';
import { DiagnosticDetails } from './diagnostic-details';

/** Severity of a policy check, as a tenant sets it. */
export enum PolicySeverity {
  /** Synthesis fails. */
  ERROR = 'ERROR',
  /** Listed by `Diagnostics.warnings`; synthesis goes on. */
  WARNING = 'WARNING',
  /** Not reported. */
  OFF = 'OFF',
}

/** One registered check. */
export interface PolicyCheck {
  /** Stable id, e.g. `OLMT-003`. */
  readonly id: string;
  /** The diagnostic code it produces, e.g. `InstallerSensitiveGrant`. */
  readonly code: string;
  /** Severity unless a tenant changes it. */
  readonly severity: PolicySeverity;
  /** Whether a tenant may lower the severity (`policyChecks`); raising it is always allowed. */
  readonly relaxable: boolean;
  /** What it protects against, in one line. */
  readonly summary: string;
  /** The fix, in one line. */
  readonly fix: string;
  /** An input that triggers it. */
  readonly example: string;
}

/** Result of `PolicyChecks.apply`. */
export interface PolicyCheckedFindings {
  /** Findings that fail synthesis. */
  readonly errors: DiagnosticDetails[];
  /** Findings that only warn. */
  readonly warnings: DiagnosticDetails[];
}

const CHECKS: PolicyCheck[] = [
  {
    id: 'OLMT-001',
    code: CODE.InstallerCanWriteCrds,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'cluster-scoped installer rules write CustomResourceDefinitions (OLM creates them itself; CRDs are shared by every tenant)',
    fix: 'narrow the rule so that it does not match apiextensions.k8s.io customresourcedefinitions',
    example: "clusterInstallerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]",
  },
  {
    id: 'OLMT-002',
    code: CODE.InstallerCanWriteApiServices,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'cluster-scoped installer rules write APIServices (route a whole API group to any Service)',
    fix: 'narrow the rule so that it does not match apiregistration.k8s.io apiservices',
    example: "clusterInstallerRules: [{ apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], verbs: ['delete'] }]",
  },
  {
    id: 'OLMT-003',
    code: CODE.InstallerSensitiveGrant,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'installer rules hold a grant equivalent to escalation (escalate, bind, impersonate, OperatorGroup writes, pods create/exec, '
      + 'ServiceAccount tokens, cluster-wide secret reads, nodes/proxy, webhook and admission policy writes, OperatorHub writes, '
      + 'CatalogSource create, CSR approval, nonResourceURLs *, pods/ephemeralcontainers; cluster-wide: workload controllers create/update, '
      + 'Subscriptions create, InstallPlans approval, PersistentVolumes create, Namespace writes, NetworkPolicy writes, Services and '
      + 'ConfigMaps update, Secret reads by any verb that returns them, CSV writes, InstallPlan status writes, ClusterExtension and '
      + 'ClusterCatalog writes, deleting ClusterRoleBindings or Namespaces, writing ClusterRoles, CRDs or APIServices)',
    fix: 'remove the grant, or accept that one grant by name with acceptedSensitiveGrants: [{ grant: SensitiveGrant.X, reason }] (or allowedSensitiveGrants)',
    example: "clusterInstallerRules: [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }]",
  },
  {
    id: 'OLMT-004',
    code: CODE.GrantsEscalationRights,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "installing needs escalate/bind/impersonate: the operator's own rules grant them, the bundle binds a role it does not define (e.g. cluster-admin), "
      + 'or its clusterPermissions ask for bind on such a role (the installer must hold it cluster-wide)',
    fix: 'have a cluster admin install the operator, or accept a bound role by name with allowedBindRoles (with a reason)',
    example: 'subscribe({ bundle }) with a bundle that ships a ClusterRoleBinding to cluster-admin, deriveInstallerRules: true',
  },
  {
    id: 'OLMT-005',
    code: CODE.WritesCrdsOrApiServices,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "installing needs the installer to write CRDs or APIServices (the operator's own rules, conversion webhooks or owned APIServices)",
    fix: 'have a cluster admin install the operator (e.g. in an admin-owned namespace)',
    example: 'subscribe({ bundle: cert-manager 1.16.5 }) with deriveInstallerRules: true',
  },
  {
    id: 'OLMT-006',
    code: CODE.NeedsClusterScopedRules,
    severity: PolicySeverity.ERROR,
    relaxable: true,
    summary: 'the install needs installer rules outside the tenant namespace, which only an explicit opt-in grants',
    fix: 'set clusterScopedInstallerRulesReason (a cluster admin decision), or choose an operator without clusterPermissions, webhooks or API services',
    example: 'subscribe({ bundle: grafana-operator 5.24.0 }) with deriveInstallerRules: true and no clusterScopedInstallerRulesReason',
  },
  {
    id: 'OLMT-007',
    code: CODE.TargetsOtherTenant,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "the OperatorGroup targets another tenant's namespace: OLM would copy this tenant's operator RBAC into it",
    fix: 'remove the namespace from targetNamespaces, or install the operator in that tenant',
    example: "targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b'], 'shared') with a tenant for team-b",
  },
  {
    id: 'OLMT-008',
    code: CODE.OperatorGroupRoleNameCollision,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "old-generation OperatorGroup ClusterRole names ('<og>-<level>') equal a built-in role (cluster-admin, aggregate-olm-edit, ...)",
    fix: 'choose another operatorGroupName, or use OLM >= 0.26 naming',
    example: "operatorGroupName: 'cluster', olmGeneration: OlmGeneration.V0_15_TO_V0_25",
  },
  {
    id: 'OLMT-009',
    code: CODE.EmptyTargetsReason,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'targets beyond the tenant namespace without a reason (the reason is the visible opt-in on the OperatorGroup)',
    fix: 'say why the operator needs these namespaces',
    example: "targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], ' ')",
  },
  {
    id: 'OLMT-010',
    code: CODE.EmptyClusterScopedReason,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'derived installer rules outside the namespace without a reason (the reason is the visible opt-in on the objects)',
    fix: 'say which operator needs them and why',
    example: "deriveInstallerRules: true, clusterScopedInstallerRulesReason: ''",
  },
  {
    id: 'OLMT-011',
    code: CODE.WildcardInstallerRole,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: "the namespaced installer Role allows every verb on every resource (the OKD docs' demonstration Role)",
    fix: 'use DefaultInstallerRules.okdScopedInstall() or deriveInstallerRules',
    example: "installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]",
  },
  {
    id: 'OLMT-012',
    code: CODE.OperatorRbacCopiedToTargetNamespaces,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: "OLM copies the operator's Roles into the other target namespaces with its own client (rights the installer never had there)",
    fix: 'target only the tenant namespace unless the operator must act in the others',
    example: "targetNamespaces: TargetNamespaces.namespaces(['team-a-dev'], 'operands') with a bundle that has permissions",
  },
  {
    id: 'OLMT-013',
    code: CODE.OperatorRbacLiftedToCluster,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: "with AllNamespaces OLM turns the operator's namespaced rules into ClusterRoles with its own client",
    fix: 'target explicit namespaces unless the operator must serve every namespace',
    example: "targetNamespaces: TargetNamespaces.allNamespaces('global') with a bundle that has permissions",
  },
  {
    id: 'OLMT-014',
    code: CODE.AllNamespacesIncludesTenants,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: "an AllNamespaces OperatorGroup also reaches every other tenant's namespace",
    fix: 'target explicit namespaces unless the operator must serve every tenant',
    example: "targetNamespaces: TargetNamespaces.allNamespaces('global') with another tenant in the App",
  },
  {
    id: 'OLMT-015',
    code: CODE.LegacyPullSecretAccess,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: 'the installer may read pull secrets in the global catalog namespace (only OLM < 0.8.1 needed it)',
    fix: 'drop legacyPullSecretAccess on current OLM',
    example: "legacyPullSecretAccess: { catalogNamespace: 'olm', secretNames: ['pull'] }",
  },
  {
    id: 'OLMT-016',
    code: CODE.CrdsCreatedByOlm,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: 'the bundle ships CRDs, which OLM creates cluster-wide with its own client: one version shared by every tenant',
    fix: "coordinate CRD versions across tenants; acknowledge it with policyChecks: { 'OLMT-016': PolicySeverity.OFF }",
    example: 'subscribe({ bundle: etcd 0.9.4 })',
  },
  {
    id: 'OLMT-017',
    code: CODE.RequiredApis,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: 'the bundle requires APIs that OLM resolves by installing more bundles with the same installer',
    fix: 'check the providing bundles too (subscribe them with their bundle)',
    example: 'subscribe({ bundle }) with a CSV listing spec.customresourcedefinitions.required',
  },
  {
    id: 'OLMT-018',
    code: CODE.UnsafeUpgradeStrategy,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: 'TechPreviewUnsafeFailForward replaces failed CSVs ("may result in unexpected behavior or unrecoverable data loss")',
    fix: 'use UpgradeStrategy.DEFAULT',
    example: 'upgradeStrategy: UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD',
  },
  {
    id: 'OLMT-019',
    code: CODE.EmptyBindRoleReason,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'an allowedBindRoles entry without a reason (the reason is the visible opt-in on the Role that may bind it)',
    fix: 'say why the installer may bind that role, or drop the entry',
    example: "allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: '' }]",
  },
  {
    id: 'OLMT-020',
    code: CODE.SubscriptionOutsideCuratedCatalog,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a Subscription in a curated tenant namespace uses another CatalogSource (around the curation)',
    fix: 'subscribe through the curated catalog (add the package to its list if it should be allowed)',
    example: "olm.Subscription in team-a with spec.source 'community-operators', CuratedCatalog serving team-a",
  },
  {
    id: 'OLMT-021',
    code: CODE.CatalogRejectsSubscription,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a tenant subscribes to a package, channel or version the curated catalog does not offer',
    fix: 'subscribe to what the catalog offers, or add it to the catalog',
    example: "tenant.subscribe({ packageName: 'redis', catalog }) with 'redis' not in the curated packages",
  },
  {
    id: 'OLMT-022',
    code: CODE.DefaultSourcesEnabled,
    severity: PolicySeverity.WARNING,
    relaxable: false,
    summary: 'the OperatorHub policy disables no default source: tenants could subscribe to the global catalogs',
    fix: 'set disableAllDefaultSources or list sources in disable',
    example: 'new OpenShiftOperatorHubPolicy(chart, \'Hub\', { disableAllDefaultSources: false })',
  },
  // the effective-power audit (src/audit, docs/audit.md); the visible opt-in is acceptedReach, not a lower severity
  {
    id: 'OLMT-023',
    code: CODE.IdentityCanAssumeInstaller,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'an identity (operator ServiceAccount, person, another installer) can become an installer that holds rules outside its namespace: '
      + 'read its token Secret, create pods or tokens, exec, impersonate',
    fix: '`createTokenSecret: false` (OLM >= 0.29) when the path reads the token Secret, and split the operators into separate tenants, or `acceptedReach` with a reason',
    example: "clusterInstallerRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] and etcd 0.9.4 (reads the installer token Secret)",
  },
  {
    id: 'OLMT-024',
    code: CODE.TenantIdentityReachesCluster,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a tenant identity reaches cluster-wide rules through another identity, a bind or escalate, or a built-in role',
    fix: 'remove the step of the reported path the tenant does not need, or acceptedReach with a reason',
    example: 'etcd 0.9.4 (creates pods) in a namespace whose other ServiceAccount is bound to a ClusterRole',
  },
  {
    id: 'OLMT-025',
    code: CODE.TenantIdentityReachesOtherNamespace,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a tenant identity reaches rules in a namespace that is not the tenant's (e.g. another tenant's installer token)",
    fix: 'remove the step of the reported path the tenant does not need, or acceptedReach with a reason',
    example: "legacyPullSecretAccess: { catalogNamespace: 'team-a', secretNames: ['team-a'] } in tenant team-b",
  },
  {
    id: 'OLMT-026',
    code: CODE.TenantIdentityUnbounded,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a tenant identity reaches * on every resource cluster-wide (bind cluster-admin, a bundle ClusterRoleBinding to it, impersonating any user)',
    fix: 'remove the bind or binding; no acceptance lowers it while TenancyAppProps.neverAcceptable lists it (the default)',
    example: "clusterInstallerRules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] }, ...]",
  },
  {
    id: 'OLMT-027',
    code: CODE.InstallerServiceAccountIsDefault,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "the installer ServiceAccount is 'default': every pod of the namespace that names no ServiceAccount would hold the installer's rights",
    fix: 'leave installerServiceAccountName unset (the namespace name) or use a name no pod runs as',
    example: "installerServiceAccountName: 'default'",
  },
  {
    id: 'OLMT-028',
    code: CODE.InstallerServiceAccountIsOperators,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "the installer ServiceAccount is an operator's own (CSV permissions or Deployments): the operator's pods would hold the installer's rights",
    fix: 'give the installer a ServiceAccount that no operator uses',
    example: "installerServiceAccountName: 'etcd-operator' with subscribe({ bundle: etcd 0.9.4 })",
  },
  {
    id: 'OLMT-029',
    code: CODE.SystemNamespaceTarget,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "the OperatorGroup targets a system namespace (kube-*, openshift-*, default, olm, operators): OLM copies the operator's Roles there",
    fix: 'remove the namespace from targetNamespaces, or set systemNamespacesReason (written to the OperatorGroup)',
    example: "targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system'], 'x')",
  },
  {
    id: 'OLMT-030',
    code: CODE.SystemNamespacePullSecrets,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'the legacy pull-secret Role reads Secrets in a system namespace (the global catalog namespace)',
    fix: 'drop legacyPullSecretAccess on current OLM, or set systemNamespacesReason (written to the Role)',
    example: "legacyPullSecretAccess: { catalogNamespace: 'olm', secretNames: ['pull'] }",
  },
  {
    id: 'OLMT-031',
    code: CODE.EmptySystemNamespacesReason,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'systemNamespacesReason is blank (the reason is the visible opt-in on the objects)',
    fix: 'say why the tenant needs the system namespaces',
    example: "systemNamespacesReason: ' ' with a kube-system target",
  },
  {
    id: 'OLMT-032',
    code: CODE.PullSecretNamespaceOfOtherTenant,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "the legacy pull-secret Role reads Secrets in another tenant's namespace",
    fix: 'name the global catalog namespace, never a tenant namespace',
    example: "legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['pull'] } with a tenant for team-b",
  },
  {
    id: 'OLMT-033',
    code: CODE.PullSecretIsInstallerToken,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a legacy pull-secret name is another tenant's installer token Secret (reading it is acting as that installer)",
    fix: 'remove the name from secretNames',
    example: "legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['team-b'] } with a tenant for team-b",
  },
  {
    id: 'OLMT-034',
    code: CODE.SubscriptionConfigVolume,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "Subscription spec.config adds a volume type outside the safe set (hostPath, nfs, csi, ...) to the operator's pods",
    fix: 'use configMap, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected or secret volumes, or opt in with allowedConfig',
    example: "subscribe({ config: { volumes: [{ name: 'host', hostPath: { path: '/' } }] } })",
  },
  {
    id: 'OLMT-035',
    code: CODE.SubscriptionConfigSecret,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "Subscription spec.config hands a Secret not named in allowedConfigSecrets to the operator's pods (e.g. the installer token)",
    fix: 'remove the reference, or name the Secret in allowedConfigSecrets',
    example: "subscribe({ config: { envFrom: [{ secretRef: { name: 'team-a' } }] } })",
  },
  {
    id: 'OLMT-036',
    code: CODE.SubscriptionConfigScheduling,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'Subscription spec.config sets tolerations, nodeSelector or affinity (places the operator on chosen nodes)',
    fix: 'remove it, or opt in with allowedConfig: [SubscriptionConfigOptIn.X]',
    example: "subscribe({ config: { tolerations: [{ operator: 'Exists' }] } })",
  },
  {
    id: 'OLMT-037',
    code: CODE.DuplicateObject,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'two objects of the App have the same group, kind, namespace and name: whichever is applied last silently replaces the other',
    fix: 'rename one of them, or define the object once',
    example: "installerRoleName: 'team-a-subscription-manager' with grantSubscriptionManagement",
  },
  {
    id: 'OLMT-038',
    code: CODE.UnfaithfulYamlOutput,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "on a plain cdk8s App, a string cdk8s's writer would write so that kubectl, Argo CD and Flux (go-yaml v2, YAML 1.1) read another value or refuse the file (YAML 1.1 numbers and booleans, U+2028 line breaks, DEL, C1)",
    fix: 'synthesize with TenancyApp, whose writer quotes and escapes such strings, or change the value',
    example: "namespaceAnnotations: { umask: '0o022' } in a plain App",
  },
  {
    id: 'OLMT-039',
    code: CODE.UnrepresentableYamlValue,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a string holds a lone UTF-16 surrogate: it has no UTF-8 encoding, so no reader of Kubernetes reads it as written',
    fix: 'remove the character, or write the whole surrogate pair',
    example: "namespaceAnnotations: { note: 'a\\ud800b' }",
  },
  {
    id: 'OLMT-040',
    code: CODE.CrossTenantPeopleGrant,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a people grant applies to another tenant's ServiceAccounts as Kubernetes matches subjects (ServiceAccount, User system:serviceaccount:<ns>:<name>, "
      + 'Group system:serviceaccounts:<ns>), to every ServiceAccount (system:serviceaccounts, system:authenticated) '
      + 'or to every unauthenticated request (system:unauthenticated, system:anonymous)',
    fix: "grant access to people (Users and Groups no ServiceAccount is in) only; give another tenant's operators access in their own tenant",
    example: "grantOperatorAccess(User.fromName(chart, 'B', 'system:serviceaccount:team-b:team-b'), AccessLevel.ADMIN) on team-a with a tenant for team-b",
  },
  {
    id: 'OLMT-041',
    code: CODE.EmptySensitiveGrantReason,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'an acceptedSensitiveGrants entry without a reason (the reason is the visible opt-in on the Role or ClusterRole that holds the grant)',
    fix: 'say why the installer may hold the grant, or drop the entry',
    example: "acceptedSensitiveGrants: [{ grant: SensitiveGrant.SUBSCRIPTION_CREATE, reason: '' }]",
  },
  {
    id: 'OLMT-042',
    code: CODE.TenantCanBecomeApprover,
    severity: PolicySeverity.ERROR,
    relaxable: true,
    summary: "the pinned InstallPlan approver runs in a tenant's namespace where a tenant identity can become its ServiceAccount "
      + '(create pods or workloads, tokens, read its token, exec) and approve any InstallPlan, not only pinned CSVs',
    fix: "leave approverNamespace out: the approver runs in the platform namespace 'installplan-approvers'",
    example: "tenant.addPinnedApprover({ approverNamespace: 'team-a' }) with subscribe({ bundle: etcd 0.9.4 }) (creates pods)",
  },
  {
    id: 'OLMT-043',
    code: CODE.TenantCanRemoveBaseline,
    severity: PolicySeverity.ERROR,
    relaxable: true,
    summary: "a tenant identity (installer, operator, person) may delete or change the baseline's ResourceQuota (or reset the usage it counts, "
      + 'resourcequotas/status), LimitRange or NetworkPolicies (e.g. CSV permissions with delete on networkpolicies in the tenant namespace), '
      + 'or create a policy whose effect adds up (a NetworkPolicy allowing all traffic undoes the default deny; protectManagedObjects does not guard it)',
    fix: 'set protectManagedObjects: true on the baseline (an admission policy refuses it to the namespace\'s ServiceAccounts), or remove the grant',
    example: "new TenantBaseline(chart, 'B', { tenant }) with a bundle whose permissions hold networkpolicies delete",
  },
  {
    id: 'OLMT-044',
    code: CODE.OlmV1ExtensionSensitiveGrant,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'OLM v1 (cluster-admin) would give a ServiceAccount of a team\'s extension a sensitive grant cluster-wide (any SensitiveGrant of the v0 registry: Secrets, escalate, bind, impersonate, tokens, pods and workloads, webhooks...)',
    fix: "pick another package or version, or accept each grant by name: acceptedRisks: [{ check: 'OLMT-044', grant: SensitiveGrant.POD_CREATE, reason }] on the extension",
    example: "extensions: [{ packageName: 'cert-manager', namespace: 'team-a', bundles }]",
  },
  {
    id: 'OLMT-045',
    code: CODE.OlmV1MutatingWebhookOnPods,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a team's OLM v1 extension ships a mutating admission webhook on pods (it can rewrite every team's pods)",
    fix: "pick another package or version, or acceptedRisks: [{ check: 'OLMT-045', reason }] on the extension",
    example: "extensions: [{ packageName: 'opentelemetry-operator', namespace: 'team-a', bundles }]",
  },
  {
    id: 'OLMT-046',
    code: CODE.OlmV1SubjectOutsideInstallNamespace,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a binding shipped in a team's OLM v1 bundle grants a role to a ServiceAccount of another namespace, a User or a Group (OLM v1 keeps the bundle's subjects)",
    fix: "pick another package or version, or acceptedRisks: [{ check: 'OLMT-046', reason }] on the extension",
    example: 'a bundle ClusterRoleBinding of cluster-admin to flux-system/kustomize-controller',
  },
  {
    id: 'OLMT-047',
    code: CODE.OlmV1UpgradeGrowsPermissions,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "an upgrade inside a team's allowed OLM v1 version range grows what the extension gets (rules, webhooks, CRDs, findings)",
    fix: "narrow the version range, or acceptedRisks: [{ check: 'OLMT-047', reason }] on the extension",
    example: "versionRange: '>=1.0.0 <2.0.0' with a 1.1.0 bundle that adds cluster rules",
  },
  {
    id: 'OLMT-048',
    code: CODE.OlmV1BundleRefused,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'operator-controller would refuse the bundle (no AllNamespaces under the standard gates, dependencies, owned APIServices, renderer validation)',
    fix: 'pick a bundle OLM v1 installs, or install the package with OLM v0',
    example: "extensions: [{ packageName: 'etcd', namespace: 'team-a', bundles: [etcd 0.9.4] }]",
  },
  {
    id: 'OLMT-049',
    code: CODE.OlmV1ExtensionNotPreviewed,
    severity: PolicySeverity.WARNING,
    // an OlmV1Team has no policyChecks: nothing could lower it (the fix is to pass the bundles)
    relaxable: false,
    summary: 'a team ClusterExtension without bundles: nobody sees what operator-controller will install with cluster-admin',
    fix: 'pass the bundles the version range resolves to (OperatorBundle.fromCatalogPackage)',
    example: "extensions: [{ packageName: 'prometheus', namespace: 'team-a' }]",
  },
  {
    id: 'OLMT-050',
    code: CODE.SensitiveRulesAggregateIntoSharedRole,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'a bundle or App ClusterRole labelled rbac.authorization.k8s.io/aggregate-to-view/edit/admin (or an OperatorGroup\'s olm.opgroup.permissions/aggregate-to-* label) '
      + 'holds a sensitive grant the shared role lacks (Secrets, pods/exec, tokens, escalate...): the aggregation controller gives it to every holder of view/edit/admin in every namespace',
    fix: "drop the sensitive rules or the labels (App), pick another bundle or version, have a cluster admin install the operator, or (OLM v1) acceptedRisks: [{ check: 'OLMT-050', reason }] on the extension",
    example: 'a bundle ClusterRole labelled aggregate-to-view with get on secrets',
  },
  {
    id: 'OLMT-051',
    code: CODE.TenantWebhookBeyondNamespace,
    severity: PolicySeverity.ERROR,
    relaxable: true,
    summary: "a tenant's bundle ships an admission webhook that OLM creates beyond the tenant's namespaces (AllNamespaces, or cluster-scoped kinds) and that "
      + 'rewrites pods or pod templates (Deployments, DaemonSets, StatefulSets, ReplicaSets, Jobs, CronJobs), ServiceAccounts or Namespaces, or receives Secrets, '
      + "ConfigMaps or any object outside the bundle's own API groups",
    fix: 'target the tenant\'s own namespaces (OLM confines the webhook with the OperatorGroup\'s namespaceSelector), pick another operator, or lower OLMT-051 with policyChecks',
    example: "subscribe({ bundle: jaeger 1.65.0 }) with targetNamespaces: TargetNamespaces.allNamespaces('tracing for every team') (mutating webhook on deployments)",
  },
  {
    id: 'OLMT-052',
    code: CODE.OlmV1WebhookBeyondOwnApis,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: "a team's OLM v1 extension ships an admission webhook beyond the install namespace that rewrites pod templates, ServiceAccounts or Namespaces, "
      + "or receives Secrets, ConfigMaps or any object outside the bundle's own API groups (pods themselves are OLMT-045)",
    fix: "pick another package or version, or acceptedRisks: [{ check: 'OLMT-052', reason }] on the extension",
    example: "extensions: [{ packageName: 'jaeger', namespace: 'team-a', bundles }] (mutating webhook on deployments in every namespace)",
  },
  {
    id: 'OLMT-053',
    code: CODE.TenantCanSetExternalIps,
    severity: PolicySeverity.WARNING,
    relaxable: true,
    summary: 'a tenant identity (installer, operator, person) may create or update Services in the tenant namespace and so set spec.externalIPs, which intercept the traffic of every pod '
      + 'of the cluster to those addresses (CVE-2020-8554), where neither the baseline\'s ServiceExternalIpsAdmissionPolicy nor the DenyServiceExternalIPs admission plugin refuses them',
    fix: 'set refuseServiceExternalIps: true on the baseline, or serviceExternalIpsDeniedReason when the API server runs DenyServiceExternalIPs',
    example: "new TenantBaseline(chart, 'B', { tenant }) with a bundle whose permissions create services",
  },
  {
    id: 'OLMT-054',
    code: CODE.OlmV1UnfencedWriter,
    severity: PolicySeverity.ERROR,
    relaxable: false,
    summary: 'an identity no team guardrail checks may write ClusterExtensions, ClusterCatalogs or ClusterObjectSets: on OLM v1 it installs any package with cluster-admin',
    fix: "bind the grant to a team's group, remove it, or acceptedWriters: [{ identity, reason }] on an OlmV1Team",
    example: 'a ClusterRoleBinding giving User alice create on clusterextensions in an App with OLM v1 teams',
  },
  {
    id: 'OLMT-055',
    code: CODE.TenantCanDriveGlobalOperator,
    severity: PolicySeverity.ERROR,
    // a GlobalOperatorInstall has no policyChecks: it is accepted by reason per operator
    relaxable: false,
    summary: 'a tenant identity (installer, operator, person) may create objects of the APIs of an operator the platform installs for all namespaces with OLM\'s own client: '
      + 'the operator acts on them with its cluster-wide ServiceAccounts',
    fix: "remove the create (or *) on the operator's APIs from the identity, or install({ packageName, tenantsMayDriveReason }) on the GlobalOperatorInstall",
    example: "globalInstall.install({ packageName: 'grafana-operator', bundle }) and a tenant with installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]",
  },
];

const BY_CODE: ReadonlyMap<string, PolicyCheck> = new Map(CHECKS.map((c) => [c.code, c] as const));
const BY_ID: ReadonlyMap<string, PolicyCheck> = new Map(CHECKS.map((c) => [c.id, c] as const));
const RANK: Record<PolicySeverity, number> = { [PolicySeverity.OFF]: 0, [PolicySeverity.WARNING]: 1, [PolicySeverity.ERROR]: 2 };

/** The registry of security-relevant checks. */
export class PolicyChecks {
  /** Every registered check, in id order. */
  public static all(): PolicyCheck[] {
    return CHECKS.map((c) => ({ ...c }));
  }

  /**
   * The id of the check that produces diagnostic `code`, if registered: `byCode(code)?.id` without the copy `byCode`
   * makes (the library's own per-tenant lookups).
   * @internal
   */
  public static _idOf(code: string): string | undefined {
    return BY_CODE.get(code)?.id;
  }

  /**
   * The fix of the check that produces diagnostic `code`, if registered: `byCode(code)?.fix` without the copy.
   * @internal
   */
  public static _fixOf(code: string): string | undefined {
    return BY_CODE.get(code)?.fix;
  }

  /** The check that produces diagnostic `code`, if registered. */
  public static byCode(code: string): PolicyCheck | undefined {
    const c = BY_CODE.get(code);
    return c === undefined ? undefined : { ...c };
  }

  /** The check with `id`, if registered. */
  public static byId(id: string): PolicyCheck | undefined {
    const c = BY_ID.get(id);
    return c === undefined ? undefined : { ...c };
  }

  /**
   * Applies per-tenant severities to a construct's findings: a finding whose code is registered and whose id is in
   * `severities` moves to the errors, the warnings, or is dropped. Overrides that are invalid (unknown id, or a
   * relaxation of a check that cannot be relaxed) are ignored here and reported by `overrideProblems`.
   */
  public static apply(
    errors: DiagnosticDetails[],
    warnings: DiagnosticDetails[],
    severities?: { [id: string]: PolicySeverity },
  ): PolicyCheckedFindings {
    if (severities === undefined || Object.keys(severities).length === 0) return { errors, warnings };
    const outErrors: DiagnosticDetails[] = [];
    const outWarnings: DiagnosticDetails[] = [];
    const place = (d: DiagnosticDetails, current: PolicySeverity) => {
      const check = BY_CODE.get(d.code);
      const wanted = check === undefined ? undefined : severities[check.id];
      const valid = check !== undefined && wanted !== undefined && RANK[wanted] !== undefined
        && (check.relaxable || RANK[wanted] >= RANK[check.severity]);
      const severity = valid ? wanted! : current;
      if (severity === PolicySeverity.ERROR) outErrors.push(d);
      else if (severity === PolicySeverity.WARNING) outWarnings.push(d);
    };
    for (const d of errors) place(d, PolicySeverity.ERROR);
    for (const d of warnings) place(d, PolicySeverity.WARNING);
    return { errors: outErrors, warnings: outWarnings };
  }

  /** Problems of a `policyChecks` setting: unknown ids, unknown severities, relaxations of checks that cannot be relaxed. */
  public static overrideProblems(severities: { [id: string]: PolicySeverity }, field: string): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    for (const [id, severity] of Object.entries(severities).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const check = BY_ID.get(id);
      if (check === undefined) {
        out.push({ code: CODE.UnknownPolicyCheck, field: `${field}[${id}]`, value: String(severity), message: `'${id}' is not a policy check id`, fix: `use one of ${CHECKS.map((c) => c.id).join(', ')}` });
        continue;
      }
      if (RANK[severity] === undefined) {
        out.push({ code: CODE.UnknownPolicySeverity, field: `${field}[${id}]`, value: String(severity), message: `'${severity}' is not a PolicySeverity`, fix: 'use PolicySeverity.ERROR, WARNING or OFF' });
        continue;
      }
      if (!check.relaxable && RANK[severity] < RANK[check.severity]) {
        out.push({
          code: CODE.PolicyCheckNotRelaxable,
          field: `${field}[${id}]`,
          value: severity,
          message: `${id} (${check.code}) cannot be lowered below ${check.severity}: ${check.summary}`,
          fix: check.fix,
        });
      }
    }
    return out;
  }

  /** The registry as a Markdown table (the README's, between `<!-- policy-checks:start -->` and `<!-- policy-checks:end -->`). */
  public static markdownTable(): string {
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    return [
      '| id | code | default | can be lowered | what it guards | fix | example |',
      '|---|---|---|---|---|---|---|',
      ...CHECKS.map((c) => `| ${c.id} | \`${c.code}\` | ${c.severity} | ${c.relaxable ? 'yes' : 'no'} | ${cell(c.summary)} | ${cell(c.fix)} | \`${cell(c.example)}\` |`),
    ].join('\n');
  }

  private constructor() {}
}
