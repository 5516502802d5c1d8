import { ApiObject, Chart, Lazy } from 'cdk8s';
import { k8s, ISubject } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { approverReachFindings } from './approver-reach';
import { CompactClusterRole } from './compact-cluster-role';
import { CompactRole } from './compact-role';
import { DeriveScope } from './derive-scope';
import { duplicateObjectError, findDuplicateObjects, reportOnObject } from './duplicate-objects';
import { CheckedTenantProps, checkRemovedOperator, checkSubject, checkTenantProps } from './input-checks';
import { InstallerRuleChecks, SensitiveGrant, SensitiveGrantAcceptance } from './installer-rule-checks';
import { LazyMap, LazySet } from './lazy-collections';
import { InstallPlanApproval, OperatorSubscription, PreflightEnforcement, SubscriptionInfo, SubscriptionOptions } from './operator-subscription';
import { IOperatorTenant } from './operator-tenant';
import { PinnedApproverOptions, PinnedInstallPlanApprover } from './pinned-install-plan-approver';
import { subscriptionFindings } from './preflight-findings';
import { NAME_CHECKING_PARENTS, nonEmpty, orderAfter } from './private';
import { RoleRefKind, SubjectRoleBinding } from './subject-role-binding';
import { SystemNamespaces } from './system-namespaces';
import { TargetNamespaces } from './target-namespaces';
import { installerServiceAccountProblems, pullSecretProblems, systemNamespaceProblems } from './tenancy-guards';
import { PeopleGrantFacts, TenantConflicts, TenantFacts } from './tenant-conflicts';
import { UpgradeCheckContext, UpgradeChecks } from './upgrade-checks';
import { refuseUnfaithfulOutputOnPlainApps } from '../app/faithful-output';
import { RbacSubject, SubjectKind } from '../audit/effective-power';
import { registerAuditedTenant } from '../audit/registry';
import { AcceptedReach, AuditedTenant, TenancyAudit } from '../audit/tenancy-audit';
import { enableTenancyAudit, tenancyAuditDiagnostics } from '../audit/validation';
import { OperatorBundle } from '../bundle/operator-bundle';
import { ICatalogSource } from '../catalog/catalog-source';
import { copyShallowArrays, rulesKey as ruleListKey, seal } from '../core/content-cache';
import { addErrorProducer, addWarningProducer, DiagnosticDetails, Diagnostics } from '../core/diagnostics';
import { checkRuleShape, InputCheck, isObject } from '../core/input';
import { KubernetesNames, NameRule } from '../core/names';
import { PolicyChecks, PolicySeverity } from '../core/policy-checks';
import * as olm from '../imports/olm';
import { OlmApiAccess, OlmGeneratedRbac } from '../olm/generated-rbac';
import { AccessLevel, OlmGeneration, OlmNaming } from '../olm/olm-naming';
import { DefaultInstallerRules } from '../preflight/default-installer-rules';
import { BindRoleAcceptance, DerivedRoleBind, InstallerPermissions, InstallPreflight, NamespaceRules, PreflightResult } from '../preflight/install-preflight';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';
import { UpgradeAnalysisResult } from '../upgrade/upgrade-analysis';

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
  /** What it allows, e.g. `'create' on operators.coreos.com subscriptions in every namespace`. */
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
   * @default true
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
   * derived, and operators that need it fail the preflight with `NeedsClusterScopedRules`.
   * @default - nothing outside the tenant namespace is derived
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
}

const SUBSCRIPTION_WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/**
 * Per construct tree: its tenants (registered at construction) and an index of OperatorGroups by namespace.
 * Every tenant's checks need all OperatorGroups of the App; scanning the tree once per tenant made validation
 * quadratic (12 s for 1,000 tenants). The index is rebuilt by a validation on the root, which cdk8s runs first in
 * every validation pass (pre-order); outside a pass (a direct `node.validate()`) it is computed on the spot.
 */
interface TreeIndex {
  readonly tenants: ScopedOperatorTenant[];
  operatorGroups?: Map<string, ApiObject[]>;
  conflicts?: Map<ScopedOperatorTenant, DiagnosticDetails[]>;
  /** Positions in `tenants` by tenant namespace (cross-tenant checks look tenants up here, never pairwise). */
  byNamespace?: Map<string, number[]>;
  /** ApiObjects of the App that share their identity with others (see `duplicate-objects.ts`). */
  duplicates?: Map<ApiObject, ApiObject[]>;
}
const TREES = new WeakMap<IConstruct, TreeIndex>();

function treeOf(root: IConstruct): TreeIndex {
  let tree = TREES.get(root);
  if (!tree) {
    const created: TreeIndex = { tenants: [] };
    tree = created;
    TREES.set(root, created);
    root.node.addValidation({
      validate: () => {
        const all = root.node.findAll();
        created.operatorGroups = indexOperatorGroups(root, all);
        created.conflicts = computeConflicts(created.tenants);
        created.byNamespace = indexTenantNamespaces(created.tenants);
        created.duplicates = findDuplicateObjects(all);
        // objects outside tenants report their duplicates themselves (validated after the root in this pass)
        for (const obj of created.duplicates.keys()) {
          if (!ScopedOperatorTenant.of(obj)) reportOnObject(obj, () => created.duplicates, tenantPathOf);
        }
        return [];
      },
    });
  }
  return tree;
}

/**
 * The rules a bundle's own Roles grant (CSV `permissions`, bundle Roles), once per bundle (bundles are immutable):
 * a sealed copy, shared read-only by every tenant, so the rule checks key it by id (see core/content-cache.ts).
 */
const BUNDLE_GRANTED = new WeakMap<OperatorBundle, PolicyRule[]>();
function bundleGrantedRulesOf(b: OperatorBundle): PolicyRule[] {
  let rules = BUNDLE_GRANTED.get(b);
  if (rules === undefined) {
    const out: PolicyRule[] = [];
    for (const p of b.permissions) out.push(...p.rules.map((r) => copyShallowArrays(r)));
    for (const o of b.objects) {
      if (o.kind !== 'Role' || !Array.isArray(o.raw?.rules)) continue;
      for (const r of o.raw.rules) {
        try {
          out.push(PolicyRules.fromJson(r));
        } catch {
          // an invalid rule grants nothing; the preflight reports the bundle
        }
      }
    }
    rules = seal(out);
    BUNDLE_GRANTED.set(b, rules);
  }
  return rules;
}

/** Cross-tenant conflicts (see `tenant-conflicts.ts`), per tenant. */
function computeConflicts(tenants: ScopedOperatorTenant[]): Map<ScopedOperatorTenant, DiagnosticDetails[]> {
  const facts = new Map<TenantFacts, ScopedOperatorTenant>();
  for (const t of tenants) {
    facts.set({
      path: t.node.path,
      namespace: t.namespaceName,
      targetNamespaces: t.targetNamespaces,
      bundles: t.installedBundles,
      installerServiceAccountName: t.installerServiceAccountName,
      people: t._peopleGrants(),
    }, t);
  }
  const out = new Map<ScopedOperatorTenant, DiagnosticDetails[]>();
  for (const [f, details] of TenantConflicts.find([...facts.keys()])) out.set(facts.get(f)!, details);
  return out;
}

function indexTenantNamespaces(tenants: ScopedOperatorTenant[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  tenants.forEach((t, i) => {
    const list = index.get(t.namespaceName);
    if (list) list.push(i);
    else index.set(t.namespaceName, [i]);
  });
  return index;
}

/** The conflicts of the current validation pass (computed on the spot outside a pass). */
function treeConflicts(root: IConstruct): Map<ScopedOperatorTenant, DiagnosticDetails[]> {
  const tree = treeOf(root);
  return tree.conflicts ?? computeConflicts(tree.tenants);
}

/** Per duplicates index: its objects grouped by the tenant that defines them (computed once per index). */
const DUPLICATES_BY_TENANT = new WeakMap<Map<ApiObject, ApiObject[]>, Map<ScopedOperatorTenant, ApiObject[]>>();

/** The duplicate objects `tenant` defines, in this validation pass (computed on the spot outside a pass). */
function treeDuplicatesOf(tenant: ScopedOperatorTenant): Array<[ApiObject, ApiObject[]]> {
  const root = tenant.node.root;
  const duplicates = treeOf(root).duplicates ?? findDuplicateObjects(root.node.findAll());
  let byTenant = DUPLICATES_BY_TENANT.get(duplicates);
  if (!byTenant) {
    byTenant = new Map();
    for (const obj of duplicates.keys()) {
      const owner = ScopedOperatorTenant.of(obj);
      if (owner) byTenant.set(owner, [...(byTenant.get(owner) ?? []), obj]);
    }
    DUPLICATES_BY_TENANT.set(duplicates, byTenant);
  }
  return (byTenant.get(tenant) ?? []).map((obj) => [obj, duplicates.get(obj)!]);
}

function tenantPathOf(obj: ApiObject): string | undefined {
  return ScopedOperatorTenant.of(obj)?.node.path;
}

function indexOperatorGroups(root: IConstruct, all: IConstruct[] = root.node.findAll()): Map<string, ApiObject[]> {
  const index = new Map<string, ApiObject[]>();
  for (const c of all) {
    if (!(c instanceof ApiObject) || c.kind !== 'OperatorGroup' || !c.apiVersion.startsWith('operators.coreos.com/')) continue;
    const ns = c.metadata.namespace ?? '';
    index.set(ns, [...(index.get(ns) ?? []), c]);
  }
  return index;
}

/**
 * One tenant namespace where a non-cluster-admin can install operators with OLM, following OLM's scoped operator
 * install (OLM `doc/design/scoped-operator-install.md`; OKD "Allowing non-cluster administrators to install
 * Operators"). Synthesizes, in dependency order: Namespace, installer ServiceAccount, its token Secret, the
 * installer Role and RoleBinding, the OperatorGroup naming the ServiceAccount, then the Subscriptions.
 */
export class ScopedOperatorTenant extends Construct implements IOperatorTenant {
  /** OperatorGroup annotation that carries the reason for targets other than the own namespace. */
  public static readonly TARGETS_REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/target-namespaces-reason';
  /** Annotation that says why an installer grant outside the tenant namespace exists. */
  public static readonly REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/reason';
  /** Installer Role annotation that says which versions its derived rules cover (a `DeriveScope` value). */
  public static readonly DERIVE_SCOPE_ANNOTATION = 'cdk8s-olm-tenancy.io/derive-scope';
  /** Annotation on an installer Role or ClusterRole naming every role it may `bind` (derived), and why. */
  public static readonly BIND_ROLES_ANNOTATION = 'cdk8s-olm-tenancy.io/bind-roles';
  /**
   * Annotation on the installer Role and ClusterRole naming the sensitive grants (`SensitiveGrant`) they hold because
   * they were accepted (`acceptedSensitiveGrants` with its reason, `allowedSensitiveGrants`), or, on the Role, because
   * the bundles' own Roles grant them in the namespace (OLM's RBAC escalation check makes the installer hold them).
   */
  public static readonly SENSITIVE_GRANTS_ANNOTATION = 'cdk8s-olm-tenancy.io/sensitive-grants';
  /** Annotation that says why the tenant reaches into system namespaces (see `systemNamespacesReason`). */
  public static readonly SYSTEM_NAMESPACES_REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/system-namespaces-reason';

  /** Returns the tenant that `construct` belongs to (itself or an ancestor), if any. */
  public static of(construct: IConstruct): ScopedOperatorTenant | undefined {
    if (!Construct.isConstruct(construct)) return undefined; // JavaScript and jsii callers can pass anything
    for (const c of [...construct.node.scopes].reverse()) {
      if (c instanceof ScopedOperatorTenant) return c;
    }
    return undefined;
  }

  public readonly namespaceName: string;
  public readonly operatorGroupName: string;
  public readonly installerServiceAccountName: string;
  /** Name of the installer Role. */
  public readonly installerRoleName: string;
  /** Which OLM release line names the OperatorGroup ClusterRoles. */
  public readonly olmGeneration: OlmGeneration;
  /** True when the OperatorGroup targets all namespaces. */
  public readonly allNamespaces: boolean;
  /** The Namespace object, when created. */
  public readonly namespace?: k8s.KubeNamespace;
  /** The installer ServiceAccount. */
  public readonly installerServiceAccount: k8s.KubeServiceAccount;
  /** The token Secret, when created. */
  public readonly tokenSecret?: k8s.KubeSecret;
  /** The installer Role. */
  public readonly installerRole: CompactRole;
  /** The installer RoleBinding. */
  public readonly installerRoleBinding: SubjectRoleBinding;
  /** The OperatorGroup. */
  public readonly operatorGroup: olm.OperatorGroup;

  private readonly props: CheckedTenantProps;
  private readonly targets: TargetNamespaces;
  private readonly subs: OperatorSubscription[] = [];
  private clusterRole?: CompactClusterRole;
  private clusterRoleBinding?: k8s.KubeClusterRoleBinding;
  private legacyPullSecretBinding?: SubjectRoleBinding;
  private readonly accessBindings = new LazyMap<string, SubjectRoleBinding>();
  private readonly removed: RemovedOperatorOptions[] = [];
  private subscriptionManagers?: SubjectRoleBinding;
  private readonly accessGrantsOnAllNamespaces = new LazySet<AccessLevel>();
  /** Installer Roles outside the tenant namespace (legacy pull secrets, derived kube-system rules), by namespace. */
  private readonly outsideRoles = new LazyMap<string, CompactRole>();
  /**
   * Derived rules that `bind` named roles only (bootstrap roles of cert resources, roles in `allowedBindRoles`), by
   * identity: accepted (and named in `BIND_ROLES_ANNOTATION`); an equal rule added by hand is still checked.
   */
  private readonly derivedNamedBinds = new LazySet<PolicyRule>();
  /** Derived binds per namespace ('' = cluster), by `kind/name`, for `BIND_ROLES_ANNOTATION`. */
  private readonly boundRoles = new LazyMap<string, Map<string, DerivedRoleBind>>();
  private readonly preflightCache = new LazyMap<OperatorSubscription, { key: string; results: PreflightResult[] }>();
  private readonly upgradeChecks = new UpgradeChecks();
  private approver?: PinnedInstallPlanApprover;
  /** Called with each bundle OLM installs first, as Subscriptions are added (`_onInstalledBundle`). */
  private bundleListeners?: Array<(bundle: OperatorBundle) => void>;
  /** Wrong-typed or unusable props and method arguments (reported first at synth). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: ScopedOperatorTenantProps) {
    super(scope, id);
    NAME_CHECKING_PARENTS.add(this); // its Roles and bindings get names checked here
    // Runtime input checks first (JavaScript and jsii callers have no compile-time types): each problem is a synth
    // error, and everything below works on values of the declared types.
    const checkedProps = checkTenantProps(this.input, props);
    this.props = checkedProps;
    const ns = checkedProps.namespaceName ?? '';
    this.namespaceName = ns;
    this.operatorGroupName = checkedProps.operatorGroupName ?? ns;
    this.installerServiceAccountName = checkedProps.installerServiceAccountName ?? ns;
    this.installerRoleName = checkedProps.installerRoleName ?? this.installerServiceAccountName;
    this.olmGeneration = checkedProps.olmGeneration ?? OlmGeneration.V0_26_AND_LATER;
    this.targets = checkedProps.targetNamespaces ?? TargetNamespaces.ownNamespace();
    this.allNamespaces = this.targets.isAllNamespaces;

    // 1. Namespace (L1: cdk8s-plus-28 Namespace adds `spec: {}`, which the docs' object does not have)
    if (checkedProps.createNamespace ?? true) {
      const labels = { ...(checkedProps.namespaceLabels ?? {}) };
      // Secure default: enforce baseline, warn and audit restricted (see docs/tenant.md for why not enforce restricted).
      const podSecurity: Array<[string, PodSecurityLevel | undefined, PodSecurityLevel]> = [
        ['enforce', checkedProps.podSecurity, PodSecurityLevel.BASELINE],
        ['warn', checkedProps.podSecurityWarn, PodSecurityLevel.RESTRICTED],
        ['audit', checkedProps.podSecurityAudit, PodSecurityLevel.RESTRICTED],
      ];
      for (const [mode, level, fallback] of podSecurity) {
        const key = `pod-security.kubernetes.io/${mode}`;
        if (level !== undefined || labels[key] === undefined) labels[key] = level ?? fallback;
      }
      this.namespace = new k8s.KubeNamespace(this, 'Namespace', {
        metadata: { name: ns, labels: nonEmpty(labels), annotations: nonEmpty(checkedProps.namespaceAnnotations) },
      });
    }

    // 2. installer ServiceAccount (L1: cdk8s-plus adds automountServiceAccountToken: false)
    this.installerServiceAccount = new k8s.KubeServiceAccount(this, 'InstallerServiceAccount', {
      metadata: { name: this.installerServiceAccountName, namespace: ns },
    });
    orderAfter(this.installerServiceAccount, this.namespace);

    // 3. long-lived token Secret (L1: cdk8s-plus-28 ServiceAccountTokenSecret adds `immutable: false` and `stringData: {}`)
    if (checkedProps.createTokenSecret ?? true) {
      this.tokenSecret = new k8s.KubeSecret(this, 'InstallerTokenSecret', {
        metadata: {
          name: checkedProps.tokenSecretName ?? this.installerServiceAccountName,
          namespace: ns,
          annotations: { 'kubernetes.io/service-account.name': this.installerServiceAccountName },
        },
        type: 'kubernetes.io/service-account-token',
      });
      orderAfter(this.tokenSecret, this.installerServiceAccount);
    }

    // 4. installer Role + RoleBinding
    this.installerRole = new CompactRole(this, 'InstallerRole', {
      name: this.installerRoleName,
      namespace: ns,
      rules: checkedProps.installerRules ?? (checkedProps.deriveInstallerRules ? [] : DefaultInstallerRules.okdScopedInstall()),
    });
    this.annotateAcceptedGrants(this.installerRole, false);
    if (checkedProps.deriveInstallerRules) {
      const deriveScope = checkedProps.deriveScope ?? DeriveScope.ALLOWED_UPGRADES;
      this.installerRole.apiObject.metadata.addAnnotation(ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION, deriveScope);
    }
    orderAfter(this.installerRole, this.installerServiceAccount);
    this.installerRoleBinding = new SubjectRoleBinding(this, 'InstallerRoleBinding', {
      name: checkedProps.installerRoleBindingName ?? this.installerRoleName,
      namespace: ns,
      roleKind: RoleRefKind.ROLE,
      roleName: this.installerRoleName,
    });
    this.installerRoleBinding.addSubjectConfiguration('ServiceAccount', this.installerServiceAccountName, ns);
    orderAfter(this.installerRoleBinding, this.installerRole);

    for (const rule of checkedProps.clusterInstallerRules ?? []) this.addClusterInstallerRule(rule);
    if (checkedProps.legacyPullSecretAccess) this.addLegacyPullSecretAccess(checkedProps.legacyPullSecretAccess);

    // 5. OperatorGroup
    const reason = this.targets.reason;
    const annotations: { [key: string]: string } = reason !== undefined ? { [ScopedOperatorTenant.TARGETS_REASON_ANNOTATION]: reason } : {};
    if (checkedProps.systemNamespacesReason !== undefined && this.targetNamespaces.some((t) => t !== ns && SystemNamespaces.isSystemNamespace(t))) {
      annotations[ScopedOperatorTenant.SYSTEM_NAMESPACES_REASON_ANNOTATION] = checkedProps.systemNamespacesReason;
    }
    // the audit's opt-ins, visible in the output (TenancyAudit)
    const accepted = (checkedProps.acceptedReach ?? []).map((a) => ({ code: a.code, subject: a.subject, reason: a.reason }));
    if (accepted.length > 0) annotations[TenancyAudit.ACCEPTED_REACH_ANNOTATION] = JSON.stringify(accepted);
    this.operatorGroup = new olm.OperatorGroup(this, 'OperatorGroup', {
      metadata: { name: this.operatorGroupName, namespace: ns, annotations: Object.keys(annotations).length > 0 ? annotations : undefined },
      spec: {
        serviceAccountName: this.installerServiceAccountName,
        targetNamespaces: this.allNamespaces ? undefined : this.targetNamespaces,
        upgradeStrategy: checkedProps.upgradeStrategy as unknown as olm.OperatorGroupSpecUpgradeStrategy | undefined,
      },
    });
    // OLM < 0.29 reads the installer's token from this Secret when it acts for the OperatorGroup. (cdk8s emits a
    // node's dependencies depth-first in the order they were added: Secret first keeps the docs' order.)
    orderAfter(this.operatorGroup, this.tokenSecret);
    orderAfter(this.operatorGroup, this.installerRoleBinding);
    orderAfter(this.operatorGroup, this.clusterRoleBinding);
    orderAfter(this.operatorGroup, this.legacyPullSecretBinding);

    const tree = treeOf(this.node.root);
    tree.tenants.push(this);
    tree.operatorGroups = undefined; // a new OperatorGroup: the next pass rebuilds the index
    tree.byNamespace = undefined; // and the namespace index
    tree.duplicates = undefined;

    // plain cdk8s Apps: strings cdk8s's writer would write unfaithfully are refused (src/app/faithful-output.ts)
    refuseUnfaithfulOutputOnPlainApps(this);
    // policy checks: per-tenant severities (only computed both ways when the tenant changes some)
    const policyChecks = checkedProps.policyChecks;
    if (policyChecks === undefined || Object.keys(policyChecks).length === 0) {
      addErrorProducer(this, () => this.errors());
      addWarningProducer(this, () => this.warnings());
    } else {
      addErrorProducer(this, () => [
        ...PolicyChecks.overrideProblems(policyChecks, 'policyChecks'),
        ...PolicyChecks.apply(this.errors(), this.warnings(), policyChecks).errors,
      ]);
      addWarningProducer(this, () => PolicyChecks.apply(this.errors(), this.warnings(), policyChecks).warnings);
    }
    // the effective-power audit of the whole App (src/audit): reaches outside the tenant's namespaces fail the synth
    const rulesKey = () => JSON.stringify([
      this.installerRole.rawRules, this.clusterRole?.rawRules, [...this.outsideRoles.read.values()].map((r) => r.rawRules),
    ]);
    // (a tenant whose names are missing or invalid has synth errors already and is left out of the audit)
    if (this.namespaceIsValid() && KubernetesNames.isDns1123Subdomain(this.operatorGroupName)
      && this.targetNamespaces.every((t) => KubernetesNames.isDns1123Label(t))) {
      registerAuditedTenant(this, () => this.auditFacts(), rulesKey);
    }
    enableTenancyAudit(this);
    const audit = () => {
      const found = tenancyAuditDiagnostics(this);
      return PolicyChecks.apply([...this.acceptedReachErrors(), ...found.errors], found.warnings, policyChecks);
    };
    addErrorProducer(this, () => audit().errors);
    addWarningProducer(this, () => audit().warnings);
  }

  /** The tenant as the effective-power audit sees it (`TenancyAudit`). */
  public auditFacts(): AuditedTenant {
    const people = new Map<string, RbacSubject>();
    for (const b of [...this.accessBindings.read.values(), ...(this.subscriptionManagers ? [this.subscriptionManagers] : [])]) {
      for (const s of b.subjects) {
        // a ServiceAccount subject without namespace (or with "") is the binding's (rule.go appliesToUser)
        const subject: RbacSubject = s.kind === 'ServiceAccount'
          ? { kind: SubjectKind.SERVICE_ACCOUNT, name: s.name, namespace: s.namespace ? s.namespace : b.namespace }
          : { kind: s.kind === 'Group' ? SubjectKind.GROUP : SubjectKind.USER, name: s.name };
        people.set(JSON.stringify(subject), subject);
      }
    }
    return {
      name: this.node.path,
      namespace: this.namespaceName,
      targetNamespaces: this.targetNamespaces,
      operatorGroupName: this.operatorGroupName,
      installerServiceAccountName: this.installerServiceAccountName,
      olmGeneration: this.olmGeneration,
      bundles: uniqueBundles(this.installedBundles), // a package subscribed twice is an error of its own
      people: [...people.values()],
      acceptedReach: this.props.acceptedReach ?? [],
    };
  }

  /**
   * The subjects of `grantOperatorAccess` and `grantSubscriptionManagement`, per binding (the cross-tenant checks).
   * @internal
   */
  public _peopleGrants(): PeopleGrantFacts[] {
    const out: PeopleGrantFacts[] = [];
    const push = (binding: SubjectRoleBinding, field: string) => {
      for (const s of binding.subjects) out.push({ field, kind: s.kind, name: s.name, namespace: s.namespace, bindingNamespace: binding.namespace });
    };
    for (const [key, binding] of this.accessBindings.read) push(binding, `grantOperatorAccess(${key.slice(key.lastIndexOf('/') + 1)})`);
    if (this.subscriptionManagers) push(this.subscriptionManagers, 'grantSubscriptionManagement(subject)');
    return out;
  }

  private acceptedReachErrors(): DiagnosticDetails[] {
    return (this.props.acceptedReach ?? []).filter((a) => typeof a.reason !== 'string' || a.reason.trim() === '').map((a) => ({
      code: 'EmptyAcceptedReachReason',
      field: 'acceptedReach',
      value: `${a.code}${a.subject ? ` ${a.subject}` : ''}`,
      message: 'an accepted reach has no reason, so it accepts nothing',
      fix: 'say why the reach is acceptable and who reviewed it (it is written to the OperatorGroup annotation)',
    }));
  }

  /** The OperatorGroup's target namespaces, sorted; empty for AllNamespaces. */
  public get targetNamespaces(): string[] {
    return this.targets.resolve(this.namespaceName);
  }

  /** The installer Role's rules as synthesized (compacted: equal rules merged). */
  public get installerRules(): PolicyRule[] {
    return this.installerRole.rules;
  }

  /** The installer's cluster-scoped rules as synthesized (compacted); empty when there are none. */
  public get clusterInstallerRules(): PolicyRule[] {
    return this.clusterRole?.rules ?? [];
  }

  /** The tenant's Subscriptions as plain data, in creation order. */
  public get subscriptions(): SubscriptionInfo[] {
    return this.subs.map((s) => s.info);
  }

  /**
   * Adds a rule to the installer Role. Equal rules are merged at synth time; forbidden grants are synth errors.
   */
  public addInstallerRule(rule: PolicyRule): void {
    const checked = checkRuleShape(this.input, 'addInstallerRule(rule)', rule);
    if (checked) this.installerRole.addRules(checked);
  }

  /**
   * Lets the installer use `verbs` on `resources` of `apiGroup` in the tenant namespace (typed form of
   * `addInstallerRule`).
   *
   * @param verbs e.g. `['get', 'create', 'update', 'patch']`
   * @param apiGroup the API group, `''` for the core group
   * @param resources resources or `resource/subresource`
   * @param resourceNames restrict to these object names @default - any name
   */
  public allowInstaller(verbs: string[], apiGroup: string, resources: string[], resourceNames?: string[]): void {
    const before = this.input.errors.length;
    const v = this.input.optionalStringArray('allowInstaller(verbs)', verbs ?? 0);
    const g = this.input.requiredString('allowInstaller(apiGroup)', apiGroup, "pass the API group, '' for the core group");
    const r = this.input.optionalStringArray('allowInstaller(resources)', resources ?? 0);
    const n = this.input.optionalStringArray('allowInstaller(resourceNames)', resourceNames);
    if (this.input.errors.length > before || !v || g === undefined || !r) return;
    this.addInstallerRule({
      verbs: v,
      apiGroups: [g],
      resources: r,
      ...(n && n.length > 0 ? { resourceNames: n } : {}),
    });
  }

  /**
   * Adds a cluster-scoped installer rule: creates the installer ClusterRole and ClusterRoleBinding
   * (`<namespace>-olm-installer`) on first use. Writes to CRDs or APIServices are always a synth error.
   */
  public addClusterInstallerRule(rule: PolicyRule): void {
    const checked = checkRuleShape(this.input, 'addClusterInstallerRule(rule)', rule) as PolicyRule | undefined;
    if (!checked) return;
    if (!this.clusterRole) {
      const name = `${this.namespaceName}-olm-installer`;
      this.clusterRole = new CompactClusterRole(this, 'InstallerClusterRole', { name });
      this.annotateAcceptedGrants(this.clusterRole, true);
      orderAfter(this.clusterRole, this.installerServiceAccount);
      this.clusterRoleBinding = new k8s.KubeClusterRoleBinding(this, 'InstallerClusterRoleBinding', {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'ServiceAccount', name: this.installerServiceAccountName, namespace: this.namespaceName }],
      });
      orderAfter(this.clusterRoleBinding, this.clusterRole);
      // called from the constructor before the OperatorGroup exists: the constructor orders it then
      if (this.operatorGroup) orderAfter(this.operatorGroup, this.clusterRoleBinding);
    }
    this.clusterRole.addRules(checked);
  }

  /**
   * Creates a Subscription in the tenant namespace. Its name defaults to the package name; subscribing to the
   * same package twice is a synth error.
   */
  public subscribe(options: SubscriptionOptions): OperatorSubscription {
    // the options themselves are checked by OperatorSubscription (errors under the Subscription's path)
    const o: Partial<SubscriptionOptions> = isObject(options) ? options : {};
    const given = typeof o.name === 'string' ? o.name : typeof o.packageName === 'string' ? o.packageName : 'invalid';
    // the construct id shows in every message: no control characters, no huge ids (the name itself is an error then)
    // eslint-disable-next-line no-control-regex
    const name = given.length <= 253 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(given) ? given : 'invalid-name';
    let id = `Subscription-${name}`;
    for (let i = 2; this.node.tryFindChild(id); i++) id = `Subscription-${name}-${i}`;
    const sub = new OperatorSubscription(this, id, { ...options, namespace: this.namespaceName, subscriber: this });
    orderAfter(sub, this.operatorGroup);
    this.orderCatalogSources(sub.catalog, sub);
    this.subs.push(sub);
    this.pinForApprover(sub);
    if (sub.bundles.length > 0) for (const listener of this.bundleListeners ?? []) listener(sub.bundles[0]);
    if (this.props.deriveInstallerRules && sub.bundles.length > 0) this.deriveFrom(sub);
    return sub;
  }

  /**
   * The install preflight of every Subscription that was given a bundle, in Subscription order (one result per
   * bundle): what OLM would do with the installer's current rules. Runs at synth time as a validation too.
   */
  public preflight(): PreflightResult[] {
    return this.subs.flatMap((s) => this.preflightOf(s));
  }

  /**
   * The install preflight of the Subscription named `name` (one result per bundle: the installed one, then the
   * upgrade bundles); empty when it has no bundle or no such Subscription exists.
   */
  public subscriptionPreflight(name: string): PreflightResult[] {
    return this.subs.filter((s) => s.name === name).flatMap((s) => this.preflightOf(s));
  }

  /**
   * Adds the GitOps InstallPlan approver (`PinnedInstallPlanApprover`) to the tenant namespace, once: it approves an
   * InstallPlan only when every CSV in it is the `startingCsv` of one of the tenant's Manual Subscriptions. Pin a
   * version in code (`installPlanApproval: MANUAL`, `startingCsv`), and change the pin to upgrade.
   */
  public addPinnedApprover(options: PinnedApproverOptions = {}): PinnedInstallPlanApprover {
    if (!this.approver) {
      // wrong-typed options (JavaScript, jsii) are synth errors; the approver is built from the valid ones
      const o = this.input.optionalObject('addPinnedApprover(options)', options, 'pass { image?, schedule?, name?, pinnedCsvs? }') ?? {};
      this.input.knownProps(o, 'PinnedApproverOptions', 'addPinnedApprover(options)', 'addPinnedApprover(options).');
      const checked: PinnedApproverOptions = {
        ...o,
        image: this.input.optionalString('addPinnedApprover(options).image', o.image),
        schedule: this.input.optionalString('addPinnedApprover(options).schedule', o.schedule),
        name: this.input.optionalString('addPinnedApprover(options).name', o.name),
        approverNamespace: this.input.optionalString('addPinnedApprover(options).approverNamespace', o.approverNamespace),
      };
      this.approver = new PinnedInstallPlanApprover(this, 'PinnedApprover', { ...checked, namespace: this.namespaceName });
      orderAfter(this.approver, this.namespace);
      for (const sub of this.subs) this.pinForApprover(sub);
    }
    return this.approver;
  }

  /**
   * Calls `listener` with each bundle OLM installs first (`installedBundles`): now for the Subscriptions so far,
   * later for each new one (the baseline's webhook NetworkPolicies).
   * @internal
   */
  public _onInstalledBundle(listener: (bundle: OperatorBundle) => void): void {
    (this.bundleListeners ??= []).push(listener);
    for (const b of this.installedBundles) listener(b);
  }

  /**
   * The tenant's `policyChecks` (severities by policy id), for findings reported by constructs beside it.
   * @internal
   */
  public get _policyChecks(): { [id: string]: PolicySeverity } | undefined {
    return this.props.policyChecks;
  }

  /** A Manual Subscription's startingCsv is pinned for the approver. */
  private pinForApprover(sub: OperatorSubscription): void {
    const pinned = sub.info.startingCsv;
    if (this.approver && sub.installPlanApproval === InstallPlanApproval.MANUAL && pinned !== undefined && pinned.trim() !== '') this.approver.addPinnedCsv(pinned);
  }

  /**
   * The upgrade analysis of every Subscription with an `upgradeGraph` that allows an upgrade, in Subscription order:
   * each allowed edge with the target's preflight (the installer's current rules) and the permission diff.
   */
  public upgrades(): UpgradeAnalysisResult[] {
    return this.subs.map((s) => this.upgradeChecks.analysis(s, this.upgradeContext())).filter((r): r is UpgradeAnalysisResult => r !== undefined);
  }

  /**
   * What a person bound to the OperatorGroup's `level` ClusterRole (see `grantOperatorAccess`) can do with the
   * operators' APIs, and where, predicted from the bundles given to `subscribe` with OLM's generated RBAC
   * (`OlmGeneratedRbac`). Subscriptions without a bundle contribute nothing.
   */
  public effectiveAccess(level: AccessLevel): OlmApiAccess[] {
    const input = new InputCheck();
    if (input.optionalEnum('effectiveAccess(level)', level ?? '', AccessLevel as any, 'AccessLevel') === undefined) {
      throw new Error(`[${this.node.path}] ${Diagnostics.formatMessage(input.errors[0])}`);
    }
    return this.generatedRbac().effectiveAccess(level);
  }

  /** The RBAC OLM will generate for this tenant's OperatorGroup and the bundles given to `subscribe`. */
  public generatedRbac(): OlmGeneratedRbac {
    return new OlmGeneratedRbac({
      operatorGroup: { name: this.operatorGroupName, namespace: this.namespaceName, targetNamespaces: this.targetNamespaces },
      // a package subscribed twice is an error of its own (DuplicateSubscription); OLM's RBAC lists each CSV once
      operators: uniqueBundles(this.subs.filter((s) => s.bundles.length > 0).map((s) => s.bundles[0])).map((b) => OlmGeneratedRbac.memberOperator(b)),
      generation: this.olmGeneration,
    });
  }

  /**
   * Grants `subject` the OperatorGroup's `level` ClusterRole (which OLM generates and aggregates the operators'
   * provided APIs into) with a RoleBinding in every target namespace. The ClusterRole name follows
   * `OlmNaming.operatorGroupClusterRoleName` for the tenant's `olmGeneration`. The RoleBinding is named
   * `<og>-operator-<level>` in the tenant namespace and `<namespace>-<og>-operator-<level>` in other target
   * namespaces (which other OperatorGroups may target too). With AllNamespaces the binding is
   * made in the tenant namespace only (with a warning): bind cluster-wide yourself if you mean it.
   */
  public grantOperatorAccess(subject: ISubject, level: AccessLevel): void {
    const checkedSubject = checkSubject(this.input, 'grantOperatorAccess(subject)', subject);
    const checkedLevel = this.input.optionalEnum('grantOperatorAccess(level)', level ?? '', AccessLevel as any, 'AccessLevel');
    if (!checkedSubject || checkedLevel === undefined) return;
    const clusterRoleName = OlmNaming.operatorGroupClusterRoleName(this.namespaceName, this.operatorGroupName, level, this.olmGeneration);
    if (this.allNamespaces) this.accessGrantsOnAllNamespaces.write().add(level);
    const namespaces = this.allNamespaces ? [this.namespaceName] : this.targetNamespaces;
    for (const ns of namespaces) {
      const key = `${ns}/${level}`;
      let binding = this.accessBindings.read.get(key);
      if (!binding) {
        binding = new SubjectRoleBinding(this, `OperatorAccess-${level}-${ns}`, {
          // in a namespace shared with other OperatorGroups' targets, prefix the tenant namespace to stay unique
          name: ns === this.namespaceName ? `${this.operatorGroupName}-operator-${level}` : `${this.namespaceName}-${this.operatorGroupName}-operator-${level}`,
          namespace: ns,
          roleKind: RoleRefKind.CLUSTER_ROLE,
          roleName: clusterRoleName,
        });
        orderAfter(binding, this.operatorGroup);
        this.accessBindings.write().set(key, binding);
      }
      binding.addSubjectConfiguration(checkedSubject.kind, checkedSubject.name, checkedSubject.namespace, checkedSubject.apiGroup);
    }
  }

  /**
   * Lets `subject` manage Subscriptions and approve InstallPlans (patch `spec.approved`) in the tenant namespace,
   * and read CSVs to follow the result. Never OperatorGroups or CatalogSources. (OLM's `aggregate-olm-edit`
   * already lets namespace admins/editors write Subscriptions; this makes the grant explicit for others.)
   */
  public grantSubscriptionManagement(subject: ISubject): void {
    const checkedSubject = checkSubject(this.input, 'grantSubscriptionManagement(subject)', subject);
    if (!checkedSubject) return;
    if (!this.subscriptionManagers) {
      const name = `${this.operatorGroupName}-subscription-manager`;
      const role = new CompactRole(this, 'SubscriptionManagerRole', {
        name,
        namespace: this.namespaceName,
        rules: [
          { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: [...SUBSCRIPTION_WRITE] },
          { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'watch', 'patch', 'update'] },
          { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['get', 'list', 'watch'] },
        ],
      });
      orderAfter(role, this.operatorGroup);
      this.subscriptionManagers = new SubjectRoleBinding(this, 'SubscriptionManagerRoleBinding', {
        name,
        namespace: this.namespaceName,
        roleKind: RoleRefKind.ROLE,
        roleName: name,
      });
      orderAfter(this.subscriptionManagers, role);
    }
    this.subscriptionManagers.addSubjectConfiguration(checkedSubject.kind, checkedSubject.name, checkedSubject.namespace, checkedSubject.apiGroup);
  }

  /**
   * Off-boards an operator: nothing is synthesized for it (the Subscription disappears from the manifests, so a
   * GitOps tool prunes it), and it is recorded so reports list what OLM leaves behind when a Subscription is
   * deleted: the CSV (and with it the operator's Deployment, ServiceAccounts and RBAC, which OLM owns through it),
   * InstallPlans, and the CRDs with every custom resource (cluster-wide: delete them only when no other tenant uses
   * them). See docs/tenant.md "Off-boarding an operator".
   */
  public removeOperator(options: RemovedOperatorOptions): void {
    const checked = checkRemovedOperator(this.input, options);
    if (checked) this.removed.push(checked);
  }

  /** The operators given to `removeOperator`, in call order. */
  public get removedOperators(): RemovedOperatorOptions[] {
    return this.removed.map((r) => ({ ...r }));
  }

  /**
   * Who was granted what with `grantOperatorAccess` and `grantSubscriptionManagement`, sorted (for reports).
   */
  public get accessGrants(): TenantAccessGrant[] {
    const out: TenantAccessGrant[] = [];
    const push = (binding: SubjectRoleBinding, what: string) => {
      for (const s of binding.subjects) out.push({ subjectKind: s.kind, subjectName: s.name, grant: what, namespace: binding.namespace });
    };
    for (const [key, binding] of this.accessBindings.read) push(binding, `operator-${key.slice(key.lastIndexOf('/') + 1)}`);
    if (this.subscriptionManagers) push(this.subscriptionManagers, 'subscription-management');
    const k = (g: TenantAccessGrant) => `${g.namespace}\u0000${g.grant}\u0000${g.subjectKind}\u0000${g.subjectName}`;
    return out.sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
  }

  /**
   * The sensitive grants the installer holds because the tenant accepted them by name (`acceptedSensitiveGrants`,
   * `allowedSensitiveGrants`): the installer Role's first, then the ClusterRole's, each in `SensitiveGrant` order
   * (for reports; the same text is in the annotation `SENSITIVE_GRANTS_ANNOTATION`).
   */
  public get sensitiveGrants(): TenantSensitiveGrant[] {
    return [...this.sensitiveGrantsHeld(false), ...this.sensitiveGrantsHeld(true)];
  }

  /**
   * A catalog construct of the App (e.g. a `CuratedCatalog`) may put a CatalogSource into the tenant namespace: it
   * must be applied after the Namespace, and the Subscription after it. Across Charts cdk8s can only order whole
   * charts, so there only the hard requirement is kept (CatalogSource after Namespace: the catalog's chart then
   * follows the tenant's); a Subscription that precedes its CatalogSource is only retried by OLM.
   */
  private orderCatalogSources(catalog: ICatalogSource, sub: OperatorSubscription): void {
    if (!Construct.isConstruct(catalog)) return;
    const chart = Chart.of(this);
    for (const c of catalog.node.findAll()) {
      if (!(c instanceof ApiObject) || c.kind !== 'CatalogSource' || c.metadata.namespace !== this.namespaceName) continue;
      orderAfter(c, this.namespace);
      if (Chart.of(c) === chart) orderAfter(sub, c);
    }
  }

  /** Adds the least-privilege rules for `sub`'s bundles (see `deriveInstallerRules`). */
  private deriveFrom(sub: OperatorSubscription): void {
    if (!this.namespaceIsValid()) return; // reported as InvalidName / MissingInput
    const reason = this.props.clusterScopedInstallerRulesReason;
    const bundles = this.props.deriveScope === DeriveScope.PINNED_VERSION ? sub.bundles.slice(0, 1) : [...sub.bundles, ...sub.upgradeGraphBundles];
    // shared, read-only rule objects: thousands of tenants on the same bundles hold one copy (see namespace-template.ts)
    const derived = InstallerPermissions._leastPrivilegeShared({
      bundles,
      namespace: this.namespaceName,
      targetNamespaces: this.targetNamespaces,
      allowClusterScoped: reason !== undefined,
      allowedBindRoles: this.props.allowedBindRoles,
    });
    // `bind` limited by resourceNames to roles the derivation names in `boundRoles` (the bootstrap roles of cert
    // resources, roles accepted in allowedBindRoles) is the least-privilege form of what OLM needs: accepted, and
    // named in an annotation. Any other bind would be a sensitive-grant error (the derivation never produces one).
    const markBinds = (ns: string, rules: PolicyRule[]) => {
      const names = new Set(derived.boundRoles.filter((b) => b.namespace === ns).map((b) => b.roleName));
      for (const rule of rules) {
        const namedBind = rule.verbs.length === 1 && rule.verbs[0] === 'bind' && (rule.resourceNames ?? []).length > 0;
        if (namedBind && rule.resourceNames!.every((n) => names.has(n))) this.derivedNamedBinds.write().add(rule);
      }
      for (const b of derived.boundRoles.filter((x) => x.namespace === ns)) {
        const m = this.boundRoles.read.get(ns) ?? new Map<string, DerivedRoleBind>();
        m.set(`${b.roleKind}/${b.roleName}`, b);
        this.boundRoles.write().set(ns, m);
      }
    };
    markBinds(this.namespaceName, derived.namespacedRules);
    this.installerRole.addRules(...derived.namespacedRules);
    this.annotateBinds(this.installerRole, this.namespaceName);
    if (reason === undefined) return;
    markBinds('', derived.clusterRules);
    for (const rule of derived.clusterRules) this.addClusterInstallerRule(rule);
    if (this.clusterRole && derived.clusterRules.length > 0) {
      this.clusterRole.apiObject.metadata.addAnnotation(ScopedOperatorTenant.REASON_ANNOTATION, reason);
      this.annotateBinds(this.clusterRole, '');
    }
    for (const other of derived.otherNamespaceRules) {
      if (other.rules.length === 0) continue;
      markBinds(other.namespace, other.rules);
      const role = this.outsideRole(other.namespace, reason);
      role.addRules(...other.rules);
      this.annotateBinds(role, other.namespace);
    }
  }

  /** Names the derived binds of `ns` ('' = cluster) on `role` (`BIND_ROLES_ANNOTATION`). */
  private annotateBinds(role: CompactRole | CompactClusterRole, ns: string): void {
    const binds = [...(this.boundRoles.read.get(ns)?.values() ?? [])].sort((a, b) => (`${a.roleKind}/${a.roleName}` < `${b.roleKind}/${b.roleName}` ? -1 : 1));
    if (binds.length === 0) return;
    role.apiObject.metadata.addAnnotation(ScopedOperatorTenant.BIND_ROLES_ANNOTATION,
      binds.map((b) => `${b.roleKind} ${b.roleName}: ${b.reason}`).join('; '));
  }

  /**
   * Names, on the installer Role or ClusterRole, the sensitive grants it holds because they were accepted (by name,
   * or, on the Role, because the bundles' own Roles grant them). The value is computed when the role is rendered, from
   * its final rules and subscriptions; no grant, no annotation (cdk8s drops an undefined annotation and then an empty
   * map).
   */
  private annotateAcceptedGrants(role: CompactRole | CompactClusterRole, cluster: boolean): void {
    const text = Lazy.any({ produce: () => this.acceptedGrantsText(cluster) });
    role.apiObject.metadata.addAnnotation(ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION, text as unknown as string);
  }

  private acceptedGrantsText(cluster: boolean): string | undefined {
    const parts: string[] = [];
    if (!cluster) {
      const accepted = InstallerRuleChecks.bundleAcceptedGrants(this.installerRole.rawRules, {
        ...this.namespacedCheckOptions(),
        operatorRbacBeyondNamespace: true,
      });
      if (accepted.length > 0) {
        const bundles = this.subs.flatMap((s) => s.bundles.map((b) => b.name));
        parts.push(`${accepted.map((a) => `${a.grant} (${a.what})`).join(', ')}: granted by the bundles' own Roles in namespace ${this.namespaceName} `
          + `(${[...new Set(bundles)].sort().join(', ')}); OLM's RBAC escalation check makes the installer hold them to create those Roles`);
      }
    }
    parts.push(...this.sensitiveGrantsHeld(cluster).map((g) => `${g.grant} (${g.what}): ${g.acceptance}`));
    return parts.length === 0 ? undefined : parts.join('; ');
  }

  /** The grants of `allowedSensitiveGrants`/`acceptedSensitiveGrants` the Role (or ClusterRole) holds, with why. */
  private sensitiveGrantsHeld(cluster: boolean): TenantSensitiveGrant[] {
    if (cluster && !this.clusterRole) return [];
    const rules = (cluster ? this.clusterRole!.rawRules : this.installerRole.rawRules).filter((r) => !this.derivedNamedBinds.read.has(r));
    const options = cluster
      ? { clusterScoped: true, allowedSensitiveGrants: this.allowedGrants() }
      : { ...this.namespacedCheckOptions() };
    const reasons = new Map<SensitiveGrant, string[]>();
    for (const a of this.props.acceptedSensitiveGrants ?? []) {
      if (a.reason.trim() !== '') reasons.set(a.grant, [...(reasons.get(a.grant) ?? []), a.reason]);
    }
    return InstallerRuleChecks.allowedGrantsHeld(rules, options).map((g) => ({
      grant: g.grant,
      what: g.what,
      namespace: cluster ? '' : this.namespaceName,
      acceptance: reasons.has(g.grant) ? `accepted by acceptedSensitiveGrants: ${reasons.get(g.grant)!.join('; ')}` : 'accepted by allowedSensitiveGrants (no reason given)',
    }));
  }

  /** The grants accepted by name: `allowedSensitiveGrants` and `acceptedSensitiveGrants` with a reason. */
  private allowedGrants(): SensitiveGrant[] {
    const out = new Set(this.props.allowedSensitiveGrants ?? []);
    for (const a of this.props.acceptedSensitiveGrants ?? []) if (a.reason.trim() !== '') out.add(a.grant);
    return Object.values(SensitiveGrant).filter((g) => out.has(g));
  }

  /** Options of the sensitive-grant checks of the namespaced installer Role. */
  private namespacedCheckOptions() {
    return {
      clusterScoped: false,
      allowedSensitiveGrants: this.allowedGrants(),
      field: 'installerRules',
      operatorRbacBeyondNamespace: this.allNamespaces || this.targetNamespaces.some((t) => t !== this.namespaceName),
      bundleGrantedRules: this.bundleGrantedRules(),
    };
  }

  /** The rules the subscribed bundles' own Roles grant in the tenant namespace (CSV permissions and bundle Roles). */
  private bundleGrantedRules(): PolicyRule[] {
    return this.subs.flatMap((s) => s.bundles).flatMap((b) => bundleGrantedRulesOf(b));
  }

  /** The installer's Role (and RoleBinding) in another namespace, created on first use. */
  private outsideRole(namespace: string, reason: string): CompactRole {
    let role = this.outsideRoles.read.get(namespace);
    if (role) return role;
    const name = `${this.namespaceName}-olm-installer`;
    role = new CompactRole(this, `InstallerRole-${namespace}`, { name, namespace });
    role.apiObject.metadata.addAnnotation(ScopedOperatorTenant.REASON_ANNOTATION, reason);
    orderAfter(role, this.installerServiceAccount);
    const binding = new SubjectRoleBinding(this, `InstallerRoleBinding-${namespace}`, { name, namespace, roleKind: RoleRefKind.ROLE, roleName: name });
    binding.addSubjectConfiguration('ServiceAccount', this.installerServiceAccountName, this.namespaceName);
    orderAfter(binding, role);
    orderAfter(this.operatorGroup, binding);
    this.outsideRoles.write().set(namespace, role);
    return role;
  }

  /** Rules the installer holds outside its namespace, per namespace. */
  private otherNamespaceRules(shared = false): NamespaceRules[] {
    return [...this.outsideRoles.read.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([namespace, role]) => ({ namespace, rules: shared ? role._sharedRules : role.rules }));
  }

  /** The preflight of one Subscription, cached while the installer's rules stay the same. */
  private preflightOf(sub: OperatorSubscription): PreflightResult[] {
    if (sub.bundles.length === 0 || !this.namespaceIsValid()) return [];
    // shared, read-only compacted rules: sealed, so the key names them by id (see core/content-cache.ts)
    const installerRules = this.installerRole._sharedRules;
    const clusterInstallerRules = this.clusterRole?._sharedRules ?? [];
    const otherNamespaceRules = this.otherNamespaceRules(true);
    const key = [
      ruleListKey(installerRules), ruleListKey(clusterInstallerRules), ...otherNamespaceRules.map((n) => `${n.namespace}:${ruleListKey(n.rules)}`),
      JSON.stringify(this.targetNamespaces),
    ].join('\u0000');
    const cached = this.preflightCache.read.get(sub);
    if (cached && cached.key === key) return cached.results;
    const results = InstallPreflight._checkVersionsShared({
      bundles: sub.bundles,
      namespace: this.namespaceName,
      targetNamespaces: this.targetNamespaces,
      installerRules,
      clusterInstallerRules,
      otherNamespaceRules,
    });
    this.preflightCache.write().set(sub, { key, results });
    return results;
  }

  /** The preflight findings of every Subscription, split into what fails the synth and what only warns. */
  private preflightFindings(): { errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] } {
    const errors: DiagnosticDetails[] = [];
    const warnings: DiagnosticDetails[] = [];
    for (const sub of this.subs) {
      // one finding per (Subscription, problem); the complete results are `preflight()`
      const found = subscriptionFindings({
        subscription: sub.name,
        results: this.preflightOf(sub),
        namespace: this.namespaceName,
        serviceAccount: this.installerServiceAccountName,
        deriveInstallerRules: this.props.deriveInstallerRules === true,
        separateMissingRules: this.relaxes('NeedsClusterScopedRules'),
      });
      (sub.preflightEnforcement === PreflightEnforcement.ERROR ? errors : warnings).push(...found.blockers);
      warnings.push(...found.warnings);
    }
    return { errors, warnings };
  }

  /** The upgrade checks of every Subscription with an upgrade graph (see `upgrade-checks.ts`). */
  private upgradeFindings(): { errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] } {
    return this.upgradeChecks.findings(this.subs, this.upgradeContext());
  }

  private upgradeContext(): UpgradeCheckContext {
    // the compacted rules only when an upgrade is analysed (most Subscriptions have no upgrade graph), once
    const once = <T>(f: () => T): (() => T) => {
      let value: { v: T } | undefined;
      return () => (value ??= { v: f() }).v;
    };
    const installerRules = once(() => this.installerRules);
    const clusterInstallerRules = once(() => this.clusterInstallerRules);
    const otherNamespaceRules = once(() => this.otherNamespaceRules());
    return {
      namespace: this.namespaceName,
      installerServiceAccountName: this.installerServiceAccountName,
      targetNamespaces: this.targetNamespaces,
      get installerRules() { return installerRules(); },
      get clusterInstallerRules() { return clusterInstallerRules(); },
      get otherNamespaceRules() { return otherNamespaceRules(); },
      deriveScope: this.props.deriveScope,
      deriveInstallerRules: this.props.deriveInstallerRules === true,
      hasPinnedApprover: this.approver !== undefined,
    };
  }

  /** True when `policyChecks` lowers the check of `code` below ERROR for this tenant. */
  private relaxes(code: string): boolean {
    const id = PolicyChecks.byCode(code)?.id;
    const severity = id !== undefined ? this.props.policyChecks?.[id] : undefined;
    return severity !== undefined && severity !== PolicySeverity.ERROR;
  }

  /** False when the namespace name is missing or invalid (a synth error): nothing is derived or checked then. */
  private namespaceIsValid(): boolean {
    return this.props.namespaceName !== undefined && KubernetesNames.isDns1123Label(this.props.namespaceName);
  }

  private addLegacyPullSecretAccess(legacy: LegacyPullSecretAccess): void {
    const name = `${this.namespaceName}-legacy-pull-secrets`;
    const role = new CompactRole(this, 'LegacyPullSecretRole', {
      name,
      namespace: legacy.catalogNamespace,
      rules: legacy.secretNames.length > 0 ? [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [...legacy.secretNames].sort() }] : [],
    });
    const reason = this.props.systemNamespacesReason;
    if (reason !== undefined && SystemNamespaces.isSystemNamespace(legacy.catalogNamespace)) {
      role.apiObject.metadata.addAnnotation(ScopedOperatorTenant.SYSTEM_NAMESPACES_REASON_ANNOTATION, reason);
    }
    orderAfter(role, this.installerServiceAccount);
    const binding = new SubjectRoleBinding(this, 'LegacyPullSecretRoleBinding', {
      name,
      namespace: legacy.catalogNamespace,
      roleKind: RoleRefKind.ROLE,
      roleName: name,
    });
    binding.addSubjectConfiguration('ServiceAccount', this.installerServiceAccountName, this.namespaceName);
    orderAfter(binding, role);
    this.legacyPullSecretBinding = binding;
    this.outsideRoles.write().set(legacy.catalogNamespace, role);
    for (const rule of DefaultInstallerRules.okdPullSecretNamespaced()) this.addInstallerRule(rule);
  }

  /** The bundles given to `subscribe` as what OLM installs first, in Subscription order. */
  public get installedBundles(): OperatorBundle[] {
    return this.subs.filter((s) => s.bundles.length > 0).map((s) => s.bundles[0]);
  }

  /** The tenants whose namespace is one of `namespaces`, in construction order (through the tree's index). */
  private tenantsIn(namespaces: string[]): ScopedOperatorTenant[] {
    const tree = treeOf(this.node.root);
    const index = tree.byNamespace ?? indexTenantNamespaces(tree.tenants);
    const positions = [...new Set(namespaces)].flatMap((ns) => index.get(ns) ?? []).sort((a, b) => a - b);
    return positions.map((i) => tree.tenants[i]);
  }

  private otherTenants(): ScopedOperatorTenant[] {
    return treeOf(this.node.root).tenants.filter((t) => t !== this);
  }

  private operatorGroupsInNamespace(): ApiObject[] {
    const tree = treeOf(this.node.root);
    const index = tree.operatorGroups ?? indexOperatorGroups(this.node.root);
    return index.get(this.namespaceName) ?? [];
  }

  private errors(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.input.errors];
    const p = this.props;
    const name = (field: string, value: string | undefined, rule: NameRule, kind: string) => {
      if (value === undefined) return;
      const problem = KubernetesNames.problem(value, rule);
      if (!problem) return;
      const shape = rule === NameRule.DNS1123_LABEL ? 'a lower-case RFC 1123 label (at most 63 characters)' : rule === NameRule.DNS1123_SUBDOMAIN ? 'a lower-case RFC 1123 subdomain (at most 253 characters)' : "a name without '/' or '%'";
      out.push({ code: 'InvalidName', field, value, message: `${kind} name ${problem}`, fix: `use ${shape}` });
    };
    name('namespaceName', p.namespaceName, NameRule.DNS1123_LABEL, 'Namespace');
    name('operatorGroupName', p.operatorGroupName, NameRule.DNS1123_SUBDOMAIN, 'OperatorGroup');
    name('installerServiceAccountName', p.installerServiceAccountName, NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
    name('installerRoleName', p.installerRoleName, NameRule.PATH_SEGMENT, 'Role');
    name('installerRoleBindingName', p.installerRoleBindingName, NameRule.PATH_SEGMENT, 'RoleBinding');
    if (p.createTokenSecret ?? true) name('tokenSecretName', p.tokenSecretName, NameRule.DNS1123_SUBDOMAIN, 'Secret');

    if ((p.createNamespace ?? true) === false) {
      // one error per prop that would be silently dropped
      const dropped: Array<[string, string | undefined]> = [
        ['namespaceLabels', nonEmpty(p.namespaceLabels) && JSON.stringify(nonEmpty(p.namespaceLabels))],
        ['namespaceAnnotations', nonEmpty(p.namespaceAnnotations) && JSON.stringify(nonEmpty(p.namespaceAnnotations))],
        ['podSecurity', p.podSecurity],
        ['podSecurityWarn', p.podSecurityWarn],
        ['podSecurityAudit', p.podSecurityAudit],
      ];
      for (const [field, value] of dropped) {
        if (value === undefined) continue;
        out.push({
          code: 'NamespaceMetadataOnAdoptedNamespace',
          field,
          value,
          message: `${field} is set but createNamespace is false, so no Namespace object of this tenant carries it`,
          fix: `set createNamespace: true, or set it on namespace '${p.namespaceName}' where that namespace is managed`,
        });
      }
    }

    // targets
    if (this.targets.reason !== undefined && this.targets.reason.trim() === '') {
      out.push({
        code: 'EmptyTargetsReason',
        field: 'targetNamespaces',
        value: this.targets.reason,
        message: 'the reason for targeting other namespaces is empty',
        fix: 'say why the operator needs these namespaces (it is written to the OperatorGroup annotation)',
      });
    }
    if (!this.allNamespaces && this.targetNamespaces.length === 0) {
      out.push({ code: 'NoTargetNamespaces', field: 'targetNamespaces', value: '[]', message: 'TargetNamespaces.namespaces() was given no namespace', fix: 'list at least one namespace, or use TargetNamespaces.ownNamespace()' });
    }
    if (!this.targets.isOwnNamespace) {
      for (const t of this.targetNamespaces) name('targetNamespaces', t, NameRule.DNS1123_LABEL, 'target Namespace');
    }
    const foreignTargets = this.targetNamespaces.filter((t) => t !== this.namespaceName);
    if (foreignTargets.length > 0) {
      for (const other of this.tenantsIn(foreignTargets)) {
        if (other === this || other.namespaceName === this.namespaceName) continue;
        out.push({
          code: 'TargetsOtherTenant',
          field: 'targetNamespaces',
          value: other.namespaceName,
          message: `namespace '${other.namespaceName}' belongs to tenant ${other.node.path}; OLM would copy this tenant's operator RBAC into it`,
          fix: `remove '${other.namespaceName}' from targetNamespaces, or install the operator in that tenant`,
        });
      }
    }

    // old-generation OperatorGroup ClusterRoles are `<og>-<level>`: never a built-in role's name
    if (this.olmGeneration !== OlmGeneration.V0_26_AND_LATER) {
      const collisions = [AccessLevel.ADMIN, AccessLevel.EDIT, AccessLevel.VIEW]
        .map((level) => OlmNaming.operatorGroupClusterRoleName(this.namespaceName, this.operatorGroupName, level, this.olmGeneration))
        .map((roleName) => OlmNaming.builtInClusterRoleReason(roleName))
        .filter((r): r is string => r !== undefined);
      if (collisions.length > 0) {
        out.push({
          code: 'OperatorGroupRoleNameCollision',
          field: 'operatorGroupName',
          value: this.operatorGroupName,
          message: `with olmGeneration ${this.olmGeneration} OLM names the OperatorGroup's ClusterRoles '<operatorgroup>-<level>' `
            + `(operatorgroup.go ensureOpGroupClusterRoles) and ${collisions.join('; ')}: OLM would aggregate into that role, and `
            + 'grantOperatorAccess would bind the built-in role instead of the operators\' APIs',
          fix: 'choose another operatorGroupName (e.g. the namespace name), or use OLM >= 0.26 (olm.og.<name>.<level>-<hash> names)',
        });
      }
    }

    // system namespaces, the installer's identity and the legacy pull-secret Role (tenancy-guards.ts)
    out.push(...systemNamespaceProblems({
      namespace: this.namespaceName,
      targetNamespaces: this.targetNamespaces,
      pullSecretNamespace: p.legacyPullSecretAccess?.catalogNamespace,
      reason: p.systemNamespacesReason,
    }));
    out.push(...installerServiceAccountProblems(this.namespaceName, this.installerServiceAccountName, this.subs.flatMap((s) => s.bundles)));
    if (p.legacyPullSecretAccess) {
      const tenants = treeOf(this.node.root).tenants.map((t) => ({
        path: t.node.path,
        namespace: t.namespaceName,
        installerServiceAccountName: t.installerServiceAccountName,
        tokenSecretName: t.tokenSecret?.metadata.name,
      }));
      out.push(...pullSecretProblems(p.legacyPullSecretAccess.catalogNamespace, p.legacyPullSecretAccess.secretNames, this.node.path, tenants));
    }

    // one OperatorGroup per namespace (OLM: TooManyOperatorGroups)
    for (const c of this.operatorGroupsInNamespace()) {
      if (c === this.operatorGroup) continue;
      const owner = ScopedOperatorTenant.of(c);
      out.push({
        code: 'TooManyOperatorGroups',
        field: 'namespaceName',
        value: this.namespaceName,
        message: `namespace '${this.namespaceName}' also has OperatorGroup '${c.metadata.name}' from ${owner ? `tenant ${owner.node.path}` : c.node.path}; OLM refuses to install into a namespace with more than one OperatorGroup (TooManyOperatorGroups)`,
        fix: 'give each tenant its own namespace, or subscribe through the existing tenant',
      });
    }

    // installer rules
    out.push(
      ...InstallerRuleChecks.errors(this.installerRole.rawRules.filter((r) => !this.derivedNamedBinds.read.has(r)), this.namespacedCheckOptions()),
    );
    if (this.clusterRole) {
      out.push(
        ...InstallerRuleChecks.errors(this.clusterRole.rawRules.filter((r) => !this.derivedNamedBinds.read.has(r)), { clusterScoped: true, allowedSensitiveGrants: this.allowedGrants(), field: 'clusterInstallerRules' }),
      );
    }

    // legacy pull secrets
    const legacy = p.legacyPullSecretAccess;
    if (legacy) {
      name('legacyPullSecretAccess.catalogNamespace', legacy.catalogNamespace, NameRule.DNS1123_LABEL, 'catalog Namespace');
      if (legacy.secretNames.length === 0) {
        out.push({ code: 'NoLegacyPullSecrets', field: 'legacyPullSecretAccess.secretNames', value: '[]', message: 'no pull secret names given', fix: 'name the pull secrets, or drop legacyPullSecretAccess' });
      }
      for (const s of legacy.secretNames) name('legacyPullSecretAccess.secretNames', s, NameRule.DNS1123_SUBDOMAIN, 'Secret');
    }

    // subscriptions: one per package and per name
    const byPackage = new Map<string, OperatorSubscription[]>();
    const byName = new Map<string, OperatorSubscription[]>();
    for (const s of this.subs) {
      byPackage.set(s.packageName, [...(byPackage.get(s.packageName) ?? []), s]);
      byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    }
    for (const [pkg, list] of byPackage) {
      if (list.length < 2) continue;
      out.push({
        code: 'DuplicateSubscription',
        field: `subscriptions[${pkg}]`,
        value: pkg,
        message: `package '${pkg}' is subscribed ${list.length} times (${list.map((s) => s.node.path).join(', ')}); OLM resolves a namespace as one unit and cannot install a package twice`,
        fix: 'keep one subscribe() call per package',
      });
    }
    for (const r of this.removed) {
      if (!byPackage.has(r.packageName)) continue;
      out.push({
        code: 'RemovedOperatorStillSubscribed',
        field: `removeOperator(${r.packageName})`,
        value: r.csvName,
        message: `package '${r.packageName}' is removed and subscribed at the same time`,
        fix: 'drop the subscribe() call of the package, or the removeOperator() call',
      });
    }
    if (p.deriveInstallerRules) {
      // a pin outside the upgrade graph is reported once, by the Subscription (its bundle is missing because of it)
      for (const s of this.subs.filter((x) => x.bundles.length === 0 && !x._pinOutsideGraph)) {
        out.push({
          code: 'DeriveWithoutBundle',
          field: `subscriptions[${s.name}].bundle`,
          value: s.packageName,
          message: 'deriveInstallerRules is on but this Subscription has no bundle, so nothing grants what OLM needs to install it',
          fix: s.upgradeGraph
            ? 'load the upgrade graph with the pinned CSV\'s bundle (UpgradeGraph.fromBundles or fromCatalogPackage), or set `bundle`'
            : 'set the Subscription\'s `bundle` to the version OLM installs (OperatorBundle.fromDirectory(...)), or add the rules with addInstallerRule',
        });
      }
    }
    if (p.clusterScopedInstallerRulesReason !== undefined && !p.deriveInstallerRules) {
      out.push({
        code: 'ClusterScopedReasonWithoutDerive',
        field: 'clusterScopedInstallerRulesReason',
        value: p.clusterScopedInstallerRulesReason,
        message: 'a reason for derived installer rules outside the tenant namespace is given, but deriveInstallerRules is off, so nothing is derived',
        fix: 'set deriveInstallerRules: true, or drop clusterScopedInstallerRulesReason and grant explicit rules with clusterInstallerRules',
      });
    }
    (p.allowedBindRoles ?? []).forEach((a, i) => {
      if (a.reason.trim() !== '') return;
      out.push({
        code: 'EmptyBindRoleReason',
        field: `allowedBindRoles[${i}].reason`,
        value: a.reason,
        message: `the reason for letting the installer bind ${a.roleKind} '${a.roleName}' is empty, so the acceptance does not count`,
        fix: 'say why the installer may bind this role (it is written to the annotation cdk8s-olm-tenancy.io/bind-roles), or drop the entry',
      });
    });
    (p.acceptedSensitiveGrants ?? []).forEach((a, i) => {
      if (a.reason.trim() !== '') return;
      out.push({
        code: 'EmptySensitiveGrantReason',
        field: `acceptedSensitiveGrants[${i}].reason`,
        value: a.reason,
        message: `the reason for accepting SensitiveGrant.${a.grant} is empty, so the acceptance does not count`,
        fix: `say why the installer may hold it (it is written to the annotation ${ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION}), or drop the entry`,
      });
    });
    if ((p.allowedBindRoles ?? []).length > 0 && !p.deriveInstallerRules) {
      out.push({
        code: 'BindRolesWithoutDerive',
        field: 'allowedBindRoles',
        value: (p.allowedBindRoles ?? []).map((a) => `${a.roleKind} ${a.roleName}`).join(', '),
        message: 'roles are accepted for derived binds, but deriveInstallerRules is off, so nothing is derived',
        fix: 'set deriveInstallerRules: true, or drop allowedBindRoles',
      });
    }
    if (p.clusterScopedInstallerRulesReason !== undefined && p.clusterScopedInstallerRulesReason.trim() === '') {
      out.push({
        code: 'EmptyClusterScopedReason',
        field: 'clusterScopedInstallerRulesReason',
        value: p.clusterScopedInstallerRulesReason,
        message: 'the reason for installer rules outside the tenant namespace is empty',
        fix: 'say which operator needs them and why (it is written to the objects)',
      });
    }
    out.push(...this.preflightFindings().errors);
    out.push(...this.upgradeFindings().errors);
    out.push(...(treeConflicts(this.node.root).get(this) ?? []));
    // the pinned approver where a tenant's identities can run as it (approver-reach.ts; none in the platform namespace)
    if (this.approver && KubernetesNames.isDns1123Label(this.approver.approverNamespace)) {
      out.push(...approverReachFindings(this.approver, this.tenantsIn([this.approver.approverNamespace]).map((t) => t.auditFacts())));
    }
    // the same group/kind/namespace/name written twice in the App (duplicate-objects.ts)
    // (not repeated where a more precise error says it: another tenant on this namespace is TooManyOperatorGroups,
    // two Subscriptions of this tenant with one name are DuplicateSubscription/DuplicateSubscriptionName)
    for (const [obj, all] of treeDuplicatesOf(this)) {
      const others = all.filter((o) => {
        const owner = ScopedOperatorTenant.of(o);
        if (owner && owner !== this && owner.namespaceName === this.namespaceName) return false;
        return !(owner === this && o.kind === 'Subscription' && o.apiVersion.startsWith('operators.coreos.com/'));
      });
      if (others.length > 0) out.push(duplicateObjectError(obj, others, tenantPathOf, obj.node.path.slice(this.node.path.length + 1)));
    }
    for (const [subName, list] of byName) {
      if (list.length < 2 || new Set(list.map((s) => s.packageName)).size < 2) continue;
      out.push({
        code: 'DuplicateSubscriptionName',
        field: `subscriptions[${subName}]`,
        value: subName,
        message: `${list.length} Subscriptions are named '${subName}' (${list.map((s) => s.node.path).join(', ')})`,
        fix: 'give each subscription its own `name`',
      });
    }
    return out;
  }

  private warnings(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    out.push(...InstallerRuleChecks.warnings(this.installerRole.rawRules, { clusterScoped: false, field: 'installerRules' }));
    out.push(...this.preflightFindings().warnings);
    out.push(...this.upgradeFindings().warnings);

    for (const s of this.subs) {
      const info = s.info;
      if (info.startingCsv !== undefined && info.installPlanApproval === InstallPlanApproval.AUTOMATIC) {
        out.push({
          code: 'StartingCsvWithAutomaticApproval',
          field: `subscriptions[${info.name}].startingCsv`,
          value: info.startingCsv,
          message: 'with Automatic approval OLM installs the starting CSV and immediately upgrades past it, so it does not pin the version',
          fix: 'use installPlanApproval: InstallPlanApproval.MANUAL to stay on the starting CSV, or drop startingCsv',
        });
      }
    }
    const manual = this.subs.filter((s) => s.installPlanApproval === InstallPlanApproval.MANUAL).map((s) => s.name);
    const automatic = this.subs.filter((s) => s.installPlanApproval === InstallPlanApproval.AUTOMATIC).map((s) => s.name);
    if (manual.length > 0 && automatic.length > 0) {
      out.push({
        code: 'MixedInstallPlanApproval',
        field: 'subscriptions',
        value: `Manual: ${manual.join(', ')}; Automatic: ${automatic.join(', ')}`,
        message: `OLM resolves namespace '${this.namespaceName}' as one unit and one Manual Subscription makes every InstallPlan there Manual (OLM pkg/controller/operators/catalog/operator.go), so the Automatic Subscriptions will wait for approval too`,
        fix: 'use the same installPlanApproval for every Subscription of the tenant, or put them in separate tenants',
      });
    }
    if (manual.length > 0 && !this.subscriptionManagers && !this.approver) {
      out.push({
        code: 'ManualApprovalWithoutApprover',
        field: 'subscriptions',
        value: manual.join(', '),
        message: 'InstallPlans will wait for manual approval but the tenant grants nobody the right to approve them',
        fix: 'call grantSubscriptionManagement(subject) for the team that approves upgrades',
      });
    }
    if (this.props.upgradeStrategy === UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD) {
      out.push({
        code: 'UnsafeUpgradeStrategy',
        field: 'upgradeStrategy',
        value: this.props.upgradeStrategy,
        message: 'the OperatorGroup CRD warns that TechPreviewUnsafeFailForward "is unsafe and may result in unexpected behavior or unrecoverable data loss"',
        fix: 'use UpgradeStrategy.DEFAULT unless you understand every operator in the namespace',
      });
    }
    if (this.props.legacyPullSecretAccess) {
      out.push({
        code: 'LegacyPullSecretAccess',
        field: 'legacyPullSecretAccess',
        value: this.props.legacyPullSecretAccess.catalogNamespace,
        message: 'the installer may read pull secrets in the global catalog namespace; only OLM releases before 0.8.1 copied pull secrets with the installer',
        fix: 'drop legacyPullSecretAccess on current OLM',
      });
    }
    if (this.allNamespaces) {
      const tenants = this.otherTenants().map((t) => t.namespaceName).filter((n) => n !== this.namespaceName);
      if (tenants.length > 0) {
        out.push({
          code: 'AllNamespacesIncludesTenants',
          field: 'targetNamespaces',
          value: [...new Set(tenants)].sort().join(', '),
          message: "the OperatorGroup targets all namespaces, including other tenants' namespaces; OLM lifts the operator's Roles to ClusterRoles",
          fix: 'target explicit namespaces unless the operator must serve every tenant',
        });
      }
    }
    for (const level of [...this.accessGrantsOnAllNamespaces.read].sort()) {
      out.push({
        code: 'OperatorAccessOnlyInTenantNamespace',
        field: `grantOperatorAccess(${level})`,
        value: this.namespaceName,
        message: `the OperatorGroup targets all namespaces, but the ${level} access is bound in namespace '${this.namespaceName}' only`,
        fix: 'bind the OperatorGroup ClusterRole with a ClusterRoleBinding yourself if access in every namespace is meant',
      });
    }
    return out;
  }
}

/** `bundles` without repeated CSV names (the first of each name), in order. */
function uniqueBundles(bundles: OperatorBundle[]): OperatorBundle[] {
  const seen = new Set<string>();
  return bundles.filter((b) => !seen.has(b.name) && (seen.add(b.name), true));
}
