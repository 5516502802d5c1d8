/**
 * The install preflight: every permission the OperatorGroup's ServiceAccount lacks to install a bundle, found
 * offline, all at once, in the style of OLM v1's preflight (`Namespace:"team-a" APIGroups:[apps] ...`).
 * What OLM does is modelled in `install-plan-model.ts` (with the upstream files it is read from).
 *
 * Where OLM's docs and code differ: the OKD/OpenShift docs say "The APIService and CustomResourceDefinition
 * resources are always created by OLM using the cluster-admin role". In the code (`ExecutePlan`), only CRDs
 * are: the install strategy runs with the scoped client and creates APIServices, webhook configurations, the
 * `system:auth-delegator` ClusterRoleBinding and a RoleBinding in kube-system, and updates CRDs for conversion
 * webhooks. So operators with webhooks or API services need cluster-scoped writes that a namespace-confined
 * installer does not have. This preflight follows the code.
 */
import { ExternalRoleBind, InstallModel, InstallPlanModel, Requirement } from './install-plan-model';
import { NamespaceTemplates } from './namespace-template';
import { InstallModeFailureReason, InstallModes } from '../bundle/install-modes';
import { OperatorBundle } from '../bundle/operator-bundle';
import { isPlainRuleList, rulesKey } from '../core/content-cache';
import { checkRuleShape, InputCheck, throwIfInvalid } from '../core/input';
import { escapeControl } from '../core/yaml-or-json';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

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
export interface PreflightProblem {
  /** Code. */
  readonly code: PreflightCode;
  /** What is wrong, and the fix. */
  readonly message: string;
}

/** A rule the installer lacks. */
export interface MissingRule {
  /** Namespace where it is needed; `""` means cluster-wide (a ClusterRole + ClusterRoleBinding). */
  readonly namespace: string;
  /** The rule (compacted). */
  readonly rule: PolicyRule;
  /** Formatted like OLM v1's preflight: `Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[create,get]`. */
  readonly formatted: string;
  /** The OLM steps that need it. */
  readonly steps: string[];
}

/** Input of `InstallPreflight.check`. */
export interface InstallPreflightProps {
  /** The bundle OLM would install. */
  readonly bundle: OperatorBundle;
  /** Namespace of the OperatorGroup, Subscription and operator. */
  readonly namespace: string;
  /** The OperatorGroup's target namespaces; an empty list means AllNamespaces. */
  readonly targetNamespaces: string[];
  /** Rules the installer ServiceAccount holds in `namespace`. */
  readonly installerRules: PolicyRule[];
  /**
   * Rules it holds cluster-wide (ClusterRoleBindings); they apply in every namespace too.
   * @default - none: a namespace-confined installer
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Rules it holds in other namespaces (e.g. kube-system).
   * @default - none
   */
  readonly otherNamespaceRules?: NamespaceRules[];
  /**
   * Also check OLM's update path (objects that already exist: get + patch / update), as for an upgrade to this
   * bundle or a re-install.
   * @default false
   */
  readonly upgrade?: boolean;
}

/** Result of `InstallPreflight.check`. */
export interface PreflightResult {
  /** The CSV checked. */
  readonly bundleName: string;
  /**
   * Its version.
   * @default - none
   */
  readonly version?: string;
  /** True when OLM would install it: install mode supported, no missing rules, no problems. */
  readonly ok: boolean;
  /** Whether the install modes allow the target namespaces. */
  readonly installModeSupported: boolean;
  /** Every missing rule, compacted per namespace (tenant namespace, other namespaces, then cluster). */
  readonly missing: MissingRule[];
  /** Other blockers. */
  readonly problems: PreflightProblem[];
  /** Things that pass but deserve attention. */
  readonly warnings: PreflightProblem[];
}

/** Input of `InstallPreflight.checkVersions`. */
export interface VersionsPreflightProps {
  /** The allowed versions of the package (e.g. from a catalog). */
  readonly bundles: OperatorBundle[];
  /** Namespace of the OperatorGroup. */
  readonly namespace: string;
  /** Target namespaces; empty = AllNamespaces. */
  readonly targetNamespaces: string[];
  /** Rules held in `namespace`. */
  readonly installerRules: PolicyRule[];
  /**
   * Cluster-wide rules.
   * @default - none
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Rules in other namespaces.
   * @default - none
   */
  readonly otherNamespaceRules?: NamespaceRules[];
}

/**
 * Offline install preflight: every permission the OperatorGroup's ServiceAccount lacks to install a bundle, and
 * every other blocker, all at once.
 *
 * Models OLM's code, not its docs. The OKD/OpenShift docs say "The APIService and CustomResourceDefinition
 * resources are always created by OLM using the cluster-admin role"; in the code (catalog operator `ExecutePlan`)
 * only CRDs are. The install strategy runs with the scoped client: it creates APIServices, webhook configurations,
 * the `system:auth-delegator` ClusterRoleBinding and a RoleBinding in kube-system, and updates CRDs for conversion
 * webhooks. So operators with webhooks or API services need cluster-scoped writes that a namespace-confined
 * installer does not have, and those whose own rules (or conversion webhooks, or APIServices) write CRDs or
 * APIServices cannot be installed through a scoped tenant at all (`WritesCrdsOrApiServices`).
 */
export class InstallPreflight {
  /** Checks one bundle: every missing rule and every other blocker at once. */
  public static check(props: InstallPreflightProps): PreflightResult {
    checkPreflightProps('InstallPreflight.check', props, 'bundle');
    return InstallPreflight.checkCached(props, false);
  }

  /**
   * `checkVersions` for the library's own read-only use: parts of the results that do not mention the namespace
   * are frozen objects shared by every caller with the same bundles, rules and install shape.
   * @internal
   */
  public static _checkVersionsShared(props: VersionsPreflightProps): PreflightResult[] {
    return props.bundles.map((bundle) => InstallPreflight.checkCached({
      bundle,
      namespace: props.namespace,
      targetNamespaces: props.targetNamespaces,
      installerRules: props.installerRules,
      clusterInstallerRules: props.clusterInstallerRules,
      otherNamespaceRules: props.otherNamespaceRules,
      upgrade: true,
    }, true));
  }

  /**
   * Checks every allowed version (fresh install and OLM's update path) and says which version needs what.
   * Results are in the order of `bundles`.
   */
  public static checkVersions(props: VersionsPreflightProps): PreflightResult[] {
    checkPreflightProps('InstallPreflight.checkVersions', props, 'bundles');
    return props.bundles.map((bundle) => InstallPreflight.check({
      bundle,
      namespace: props.namespace,
      targetNamespaces: props.targetNamespaces,
      installerRules: props.installerRules,
      clusterInstallerRules: props.clusterInstallerRules,
      otherNamespaceRules: props.otherNamespaceRules,
      upgrade: true,
    }));
  }

  /** The result as readable lines: problems, then missing rules, then warnings. */
  public static format(result: PreflightResult): string[] {
    const check = new InputCheck();
    const r = check.optionalObject('result', result ?? 0, 'pass a PreflightResult (from InstallPreflight.check)');
    if (r) {
      check.requiredString('result.bundleName', r.bundleName, 'pass a PreflightResult (from InstallPreflight.check)');
      for (const list of ['problems', 'missing', 'warnings']) check.optionalArray(`result.${list}`, r[list] ?? 0, (v, f) => check.optionalObject(f, v ?? 0, 'pass a PreflightResult'));
    }
    throwIfInvalid(check, 'InstallPreflight.format');
    const head = `${result.bundleName}${result.version ? ` (${result.version})` : ''}: ${result.ok ? 'installs' : 'would FAIL to install'}`;
    return [
      head,
      ...result.problems.map((p) => `  problem ${p.code}: ${p.message}`),
      ...(result.missing.length > 0 ? [`  missing ${result.missing.length} rule(s):`] : []),
      ...result.missing.map((m) => `    ${m.formatted}`),
      ...result.warnings.map((w) => `  warning ${w.code}: ${w.message}`),
    ];
  }

  private static checkCached(props: InstallPreflightProps, share: boolean): PreflightResult {
    // Thousands of tenants check the same bundle with equal rules: computed once per install shape, then
    // instantiated for each namespace (see namespace-template.ts).
    const { namespace } = props;
    const plain = isObject(props.bundle) && Array.isArray(props.targetNamespaces) && isPlainRuleList(props.installerRules)
      && isPlainRuleList(props.clusterInstallerRules ?? [])
      && (props.otherNamespaceRules ?? []).every((n) => isObject(n) && isPlainRuleList(n.rules));
    if (!plain) return checkUncached(props);
    const others = [...props.targetNamespaces, ...(props.otherNamespaceRules ?? []).map((n) => n.namespace)];
    const key = [
      'check', NamespaceTemplates.bundlesKey([props.bundle]), props.upgrade === true, NamespaceTemplates.shape(props.targetNamespaces, namespace),
      rulesKey(props.installerRules), rulesKey(props.clusterInstallerRules ?? []),
      (props.otherNamespaceRules ?? []).map((n) => [n.namespace, rulesKey(n.rules)]),
    ];
    return CHECKS.get(namespace, others, key, (ns, map) => checkUncached({
      ...props,
      namespace: ns,
      targetNamespaces: props.targetNamespaces.map(map),
      otherNamespaceRules: props.otherNamespaceRules?.map((n) => ({ namespace: map(n.namespace), rules: n.rules })),
    }), share);
  }

  private constructor() {}
}

/** Kind of a role that a bundle binds. */
export enum BoundRoleKind {
  /** A Role in the binding's namespace. */
  ROLE = 'Role',
  /** A ClusterRole. */
  CLUSTER_ROLE = 'ClusterRole',
}

/**
 * Explicit acceptance of `bind` on one role that a bundle binds but does not define (e.g. a ClusterRoleBinding
 * to `view`). Holding `bind` on it lets the installer bind that role to anyone, itself included: accept only
 * roles whose power you would give the installer.
 */
export interface BindRoleAcceptance {
  /** Kind of the bound role. */
  readonly roleKind: BoundRoleKind;
  /** Name of the bound role, e.g. `view`. */
  readonly roleName: string;
  /** Why the installer may bind it; written to the annotation `cdk8s-olm-tenancy.io/bind-roles`. */
  readonly reason: string;
}

/** A `bind` on a named role in the derived rules, with why it is there. */
export interface DerivedRoleBind {
  /** Namespace of the grant; `""` for the cluster-scoped rules. */
  readonly namespace: string;
  /** Kind of the bound role. */
  readonly roleKind: BoundRoleKind;
  /** Name of the bound role. */
  readonly roleName: string;
  /** True for the bootstrap roles OLM's cert resources bind (`system:auth-delegator`, `extension-apiserver-authentication-reader`). */
  readonly bootstrap: boolean;
  /** Why the installer holds it. */
  readonly reason: string;
}

/** Input of `InstallerPermissions.leastPrivilege`. */
export interface LeastPrivilegeProps {
  /** The bundles (allowed versions) to install or upgrade to. */
  readonly bundles: OperatorBundle[];
  /** Namespace of the OperatorGroup. */
  readonly namespace: string;
  /** Target namespaces; empty = AllNamespaces. */
  readonly targetNamespaces: string[];
  /**
   * Allow rules outside the namespace (cluster-wide, or in kube-system). When false they are left out and a
   * `NeedsClusterScopedRules` problem lists them.
   * @default false
   */
  readonly allowClusterScoped?: boolean;
  /**
   * Roles that the bundles bind but do not define, whose `bind` may be derived. Any other such binding is a
   * `GrantsEscalationRights` problem and nothing is derived for it.
   * @default - none (only the two bootstrap roles of cert resources are derived)
   */
  readonly allowedBindRoles?: BindRoleAcceptance[];
}

/** Derived installer permissions. */
export interface InstallerPermissionSet {
  /** Rules for a Role in the tenant namespace. */
  readonly namespacedRules: PolicyRule[];
  /** Rules for a ClusterRole bound cluster-wide (empty unless allowed). */
  readonly clusterRules: PolicyRule[];
  /** Rules for Roles in other namespaces (kube-system for cert resources; empty unless allowed). */
  readonly otherNamespaceRules: NamespaceRules[];
  /** Why some bundles still cannot be installed with these rules. */
  readonly problems: PreflightProblem[];
  /**
   * Every `bind` on a named role in the rules above (bootstrap roles of cert resources, and roles accepted in
   * `allowedBindRoles`), sorted by namespace, kind and name.
   */
  readonly boundRoles: DerivedRoleBind[];
}

/** Derives minimal installer permissions. */
export class InstallerPermissions {
  /**
   * The fewest rules that let OLM install each bundle and update to it (create and update paths), compacted.
   * Never includes writes to CRDs or APIServices (bundles that need them get a `WritesCrdsOrApiServices` problem), nor
   * `escalate`/`bind` on roles or `impersonate` (`GrantsEscalationRights`).
   * Binding the bootstrap roles of cert resources is derived as `bind` limited by `resourceNames`.
   */
  public static leastPrivilege(props: LeastPrivilegeProps): InstallerPermissionSet {
    checkPreflightProps('InstallerPermissions.leastPrivilege', props, 'bundles');
    return InstallerPermissions.derive(props, false);
  }

  /**
   * `leastPrivilege` for the library's own read-only use: rules (and other parts that do not mention the
   * namespace) are frozen objects shared by every caller with the same bundles and install shape.
   * @internal
   */
  public static _leastPrivilegeShared(props: LeastPrivilegeProps): InstallerPermissionSet {
    return InstallerPermissions.derive(props, true);
  }

  private static derive(props: LeastPrivilegeProps, share: boolean): InstallerPermissionSet {
    // Derived once per bundles and install shape, instantiated per namespace (see namespace-template.ts).
    const { namespace } = props;
    const accepted = props.allowedBindRoles ?? [];
    if (!Array.isArray(props.bundles) || !props.bundles.every(isObject) || !Array.isArray(props.targetNamespaces)
      || !Array.isArray(accepted) || !accepted.every((a) => isObject(a) && typeof a.roleName === 'string' && typeof a.reason === 'string')) {
      return leastPrivilegeUncached(props);
    }
    const key = [
      'derive', NamespaceTemplates.bundlesKey(props.bundles), NamespaceTemplates.shape(props.targetNamespaces, namespace), props.allowClusterScoped === true,
      accepted.map((a) => [a.roleKind, a.roleName, a.reason]),
    ];
    return DERIVED.get(namespace, props.targetNamespaces, key, (ns, map) => leastPrivilegeUncached({
      ...props,
      namespace: ns,
      targetNamespaces: props.targetNamespaces.map(map),
    }), share);
  }

  private constructor() {}
}

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', '*']);
const ESCALATION_VERBS: ReadonlySet<string> = new Set(['escalate', 'bind', 'impersonate', '*']);
const SENSITIVE_RESOURCES: ReadonlySet<string> = new Set(['customresourcedefinitions', 'apiservices', 'roles', 'clusterroles', 'users', 'groups', 'serviceaccounts', '*']);

/**
 * Why a scoped installer must never hold this atom: 'crd' (writes CRDs or APIServices, including through `*`),
 * 'escalation' (`escalate`/`bind` on any role, or `impersonate`, not limited by resourceNames: it would bypass the API server's escalation check and
 * so allow anything, CRD writes included), or undefined.
 */
function forbidden(atom: PolicyRule): 'crd' | 'escalation' | undefined {
  if (atom.nonResourceUrls !== undefined && atom.nonResourceUrls.length > 0) return undefined;
  const g = atom.apiGroups?.[0];
  const r = atom.resources?.[0];
  const v = atom.verbs[0];
  if (g === undefined || r === undefined) return undefined;
  const anyOf = (x: string, ...vals: string[]) => x === '*' || vals.includes(x);
  if (WRITE_VERBS.has(v) && ((anyOf(g, 'apiextensions.k8s.io') && anyOf(r, 'customresourcedefinitions'))
    || (anyOf(g, 'apiregistration.k8s.io') && anyOf(r, 'apiservices')))) return 'crd';
  // Limited by resourceNames (bind on one named role) is bounded: the least-privilege form, allowed.
  if (atom.resourceNames !== undefined && atom.resourceNames.length > 0) return undefined;
  if (anyOf(v, 'escalate', 'bind') && anyOf(g, 'rbac.authorization.k8s.io') && anyOf(r, 'roles', 'clusterroles')) return 'escalation';
  if (anyOf(v, 'impersonate') && anyOf(g, '', 'authentication.k8s.io') && anyOf(r, 'users', 'groups', 'serviceaccounts')) return 'escalation';
  return undefined;
}

/** Splits rules into atoms the installer may hold and atoms it must never hold (see `forbidden`). */
function splitWrites(rules: PolicyRule[]): [PolicyRule[], PolicyRule[]] {
  if (!rules.some((r) => (r.verbs ?? []).some((v) => WRITE_VERBS.has(v) || ESCALATION_VERBS.has(v))
    && (r.resources ?? []).some((x) => SENSITIVE_RESOURCES.has(x)))) {
    return [rules, []];
  }
  const ok: PolicyRule[] = [];
  const bad: PolicyRule[] = [];
  for (const atom of RbacRules.breakdown(rules)) (forbidden(atom) === undefined ? ok : bad).push(atom);
  return [ok, bad];
}

/** Forbidden write atoms per namespace, with the InstallPlan steps that need them. */
type WritesByNamespace = Map<string, { atoms: PolicyRule[]; steps: Set<string> }>;

/** Records a step's forbidden write atoms (none: nothing recorded). */
function addWrites(writes: WritesByNamespace, namespace: string, atoms: PolicyRule[], step: string): void {
  if (atoms.length === 0) return;
  const w = writes.get(namespace) ?? { atoms: [], steps: new Set<string>() };
  w.atoms.push(...atoms);
  w.steps.add(step);
  writes.set(namespace, w);
}

function writesProblem(bundle: OperatorBundle, writes: WritesByNamespace): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  for (const kind of ['crd', 'escalation'] as const) {
    const rules: string[] = [];
    const steps = new Set<string>();
    for (const [ns, w] of [...writes.entries()].sort()) {
      const atoms = w.atoms.filter((a) => forbidden(a) === kind);
      if (atoms.length === 0) continue;
      rules.push(...RbacRules.compact(atoms).map((r) => RbacRules.format(r, ns)));
      w.steps.forEach((s) => steps.add(s));
    }
    if (rules.length === 0) continue;
    const held = `${bundle.name} cannot be installed through a scoped tenant: installing it needs the installer to hold ${rules.join('; ')} `
      + `(${[...steps].sort().join('; ')}).`;
    out.push(kind === 'crd' ? {
      code: PreflightCode.WRITES_CRDS_OR_APISERVICES,
      message: `${held} A scoped installer must never write CRDs or APIServices (they are cluster-wide). `
        + 'Fix: have a cluster admin install this operator (e.g. in an admin-owned namespace).',
    } : {
      code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
      message: `${held} With escalate, bind or impersonate the installer could grant itself anything, so a scoped installer must `
        + 'never hold them. Fix: have a cluster admin install this operator.',
    });
  }
  return out;
}

/** Why the installer may hold `bind` on the two bootstrap roles (written to the objects that grant it). */
const BOOTSTRAP_REASON = 'bootstrap role bound by OLM\'s cert resources for webhooks and API services (install/certresources.go); '
  + 'its rules are fixed and small (system:auth-delegator: create tokenreviews and subjectaccessreviews; '
  + 'extension-apiserver-authentication-reader: read the configmap extension-apiserver-authentication in kube-system)';

function acceptedBind(accepted: BindRoleAcceptance[], bind: ExternalRoleBind): BindRoleAcceptance | undefined {
  return accepted.find((a) => a.roleKind === bind.roleKind && a.roleName === bind.roleName && a.reason.trim() !== '');
}

/**
 * A bundle binds roles it does not define. Holding `bind` on such a role is only needed when the installer does not
 * hold the role's rules (k8s `pkg/registry/rbac/escalation_check.go` BindingAuthorized, else `rbac/validation`
 * ConfirmNoEscalation), so every such `bind` is an escalation whose danger is the bound role's power.
 */
function externalBindProblem(bundle: OperatorBundle, namespace: string, refused: Array<{ bind: ExternalRoleBind; step: string }>): PreflightProblem {
  const roles = [...new Set(refused.map((r) => `${r.bind.roleKind} ${r.bind.roleName}${r.bind.namespace === '' ? ' (cluster-wide)' : ` (in ${r.bind.namespace})`}`))].sort();
  const steps = [...new Set(refused.map((r) => r.step))].sort();
  return {
    code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
    message: `${bundle.name} binds ${roles.join(', ')}, which no manifest of the bundle defines (${steps.join('; ')}): the installer could `
      + `only create these bindings with 'bind' on the role, and holding it lets the installer, whose token is in namespace ${namespace}, bind `
      + 'that role to itself: an escalation as large as the role. Not derived. Fix: have a cluster admin install this operator, or accept '
      + 'each role by name with a reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles).',
  };
}

/** A named `bind` in the operator's own rules (CSV permissions, bundle Roles) on a role no manifest of the bundle defines. */
interface AskedBind {
  /** The atom of the operator's rules that grants it (one verb, group, resource and name). */
  readonly atom: PolicyRule;
  /** The bound roles (a `*` resource names both kinds). */
  readonly binds: ExternalRoleBind[];
}

/**
 * The operator's own rules of `req` (the RBAC escalation check makes the installer hold them) that grant `bind` (or
 * `*`) on named roles no manifest of `bundle` defines. The installer must then hold the same bind where the rules
 * apply; cluster-wide, it can bind such a role (its rules unknown, e.g. `admin`) to itself in every namespace
 * (k8s `pkg/registry/rbac/escalation_check.go` BindingAuthorized), the same power as a manifest binding of it.
 * Unnamed binds are refused anyway (`forbidden`).
 */
function askedBinds(bundle: OperatorBundle, req: Requirement, atoms: PolicyRule[]): AskedBind[] {
  if (!req.escalation) return [];
  const defined = definedRoles(bundle);
  const out: AskedBind[] = [];
  for (const atom of atoms) {
    const v = atom.verbs[0];
    const g = atom.apiGroups?.[0];
    const r = atom.resources?.[0];
    const name = atom.resourceNames?.[0];
    if (name === undefined || (v !== 'bind' && v !== '*') || (g !== '*' && g !== 'rbac.authorization.k8s.io')) continue;
    const kinds = r === '*' ? [BoundRoleKind.CLUSTER_ROLE, BoundRoleKind.ROLE] : r === 'clusterroles' ? [BoundRoleKind.CLUSTER_ROLE] : r === 'roles' ? [BoundRoleKind.ROLE] : [];
    const binds = kinds.filter((k) => !defined.has(`${k}/${name}`)).map((roleKind) => ({ namespace: req.namespace, roleKind, roleName: name }));
    if (binds.length > 0) out.push({ atom, binds });
  }
  return out;
}

/** `Kind/name` of the Roles and ClusterRoles the bundle's manifests define, per bundle (bundles are immutable). */
const DEFINED_ROLES_CACHE = new WeakMap<OperatorBundle, Set<string>>();
function definedRoles(bundle: OperatorBundle): Set<string> {
  let set = DEFINED_ROLES_CACHE.get(bundle);
  if (set === undefined) {
    set = new Set(bundle.objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').map((o) => `${o.kind}/${o.name}`));
    DEFINED_ROLES_CACHE.set(bundle, set);
  }
  return set;
}

/** Whether any rule may grant a named bind (cheap test before breaking rules into atoms). */
function mayAskBind(rules: PolicyRule[]): boolean {
  return rules.some((r) => (r.resourceNames ?? []).length > 0 && (r.verbs ?? []).some((v) => v === 'bind' || v === '*'));
}

/**
 * The operator's own cluster-wide rules grant `bind` on roles outside the bundle: the installer would have to hold the
 * same bind cluster-wide (see `askedBinds`).
 */
function askedBindProblem(bundle: OperatorBundle, namespace: string, refused: Array<{ bind: ExternalRoleBind; step: string }>): PreflightProblem {
  const roles = [...new Set(refused.map((r) => `${r.bind.roleKind} ${r.bind.roleName}`))].sort();
  const steps = [...new Set(refused.map((r) => r.step))].sort();
  return {
    code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
    message: `${bundle.name}'s own cluster-wide rules grant 'bind' on ${roles.join(', ')}, which no manifest of the bundle defines (${steps.join('; ')}): `
      + 'OLM creates the operator\'s ClusterRole with the installer\'s client, so the installer would have to hold the same bind cluster-wide, '
      + `and with it the installer, whose token is in namespace ${namespace}, could bind these roles to itself or anyone in every namespace: `
      + 'an escalation as large as the roles. Not derived. Fix: have a cluster admin install this operator, or accept each role by name with a '
      + 'reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles).',
  };
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function modelProblems(bundle: OperatorBundle, model: InstallModel): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  for (const o of model.unsupported) {
    out.push({
      code: PreflightCode.UNSUPPORTED_RESOURCE,
      message: `${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}, ${o.apiVersion}) is a kind OLM does not install `
        + '(catalog operator supportedresources.go): the InstallPlan fails with StepStatusUnsupportedResource. Fix: remove it from the bundle.',
    });
  }
  for (const { object: o, reason } of model.invalidObjects) {
    out.push({
      code: PreflightCode.INVALID_BUNDLE_OBJECT,
      message: escapeControl(`${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}): ${reason}. Fix: correct or remove it in the bundle.`),
    });
  }
  for (const w of model.conversionNotSingleton) {
    out.push({
      code: PreflightCode.CONVERSION_WEBHOOK_NOT_ALL_NAMESPACES,
      message: `${bundle.name}: conversion webhook ${w}: OLM fails the install ("CSVs with conversion webhooks must support only AllNamespaces") `
        + `because the CSV supports ${supportedModes(bundle)}.`,
    });
  }
  for (const w of model.invalidWebhooks) {
    out.push({ code: PreflightCode.INVALID_WEBHOOK_DESCRIPTION, message: `${bundle.name}: webhook ${w} (OLM install.ValidWebhookRules).` });
  }
  return out;
}

function modelWarnings(bundle: OperatorBundle, namespace: string, targets: string[], model: InstallModel): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  for (const w of bundle.loadWarnings) out.push({ code: PreflightCode.BUNDLE_MANIFEST_WARNING, message: escapeControl(`${bundle.name}: ${w}`) });
  for (const o of model.createdAsCoreKind) {
    const core = CORE_API_VERSIONS[o.kind];
    out.push({
      code: PreflightCode.CREATED_AS_CORE_KIND,
      message: escapeControl(`${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}) has apiVersion ${o.apiVersion}, but OLM dispatches bundle `
        + `objects by kind alone (resolver/steps.go NewStepResourceFromObject, catalog operator.go ExecutePlan): it is created as a ${core} `
        + `${o.kind} in the operator's namespace${o.kind.startsWith('Cluster') ? ' (cluster-scoped)' : ''}, and fields a ${o.kind} does not have are dropped; `
        + 'the installer needs the verbs on that core kind. The bundle probably ships a sample custom resource by mistake. '
        + 'Fix: ask the operator\'s maintainers to remove it from manifests/ (samples belong in the CSV\'s alm-examples annotation).'),
    });
  }
  const nsRules = bundle.permissions.reduce((n, p) => n + p.rules.length, 0);
  if (targets.length === 0 && nsRules > 0) {
    out.push({
      code: PreflightCode.RBAC_LIFTED_TO_CLUSTER,
      message: `${bundle.name}: with AllNamespaces, OLM turns the ${nsRules} rule(s) of the CSV's permissions into ClusterRoles and `
        + 'ClusterRoleBindings (plus get/list/watch on namespaces) with its own client (olm operatorgroup.go ensureSingletonRBAC): '
        + 'the installer needs nothing for it, but the operator gains these rights in every namespace.',
    });
  }
  const others = [...new Set(targets)].filter((t) => t !== namespace).sort();
  if (targets.length > 0 && others.length > 0 && nsRules > 0) {
    out.push({
      code: PreflightCode.RBAC_COPIED_TO_TARGET_NAMESPACES,
      message: `${bundle.name}: OLM copies the Roles and RoleBindings of the CSV's permissions (${nsRules} rule(s)) into target `
        + `namespace(s) ${others.join(', ')} with its own client (olm operatorgroup.go ensureRBACInTargetNamespace): the installer `
        + 'needs nothing there, but the operator gains these rights in namespaces where the installer may have none.',
    });
  }
  if (bundle.crds.length > 0 || bundle.ownedCrds.length > 0) {
    const names = [...new Set([...bundle.crds.map((c) => c.name), ...bundle.ownedCrds.map((c) => c.name)])].sort();
    out.push({
      code: PreflightCode.CRDS_CREATED_BY_OLM,
      message: `${bundle.name}: OLM creates or updates ${names.length} CRD(s) with its own cluster-admin client, not the installer `
        + `(catalog operator ExecutePlan): ${names.join(', ')}. CRDs are cluster-wide: every tenant shares one version of them.`,
    });
  }
  if (bundle.requiredCrds.length > 0) {
    out.push({
      code: PreflightCode.REQUIRED_APIS,
      message: `${bundle.name} requires ${bundle.requiredCrds.map((c) => c.name).sort().join(', ')}: OLM resolves them by installing the `
        + 'providing bundles (and creating Subscriptions) with the same ServiceAccount; check those bundles too.',
    });
  }
  return out;
}

/** apiVersion of the core kinds OLM creates by kind alone (catalog operator.go ExecutePlan). */
const CORE_API_VERSIONS: Record<string, string> = {
  Secret: 'v1',
  Service: 'v1',
  ConfigMap: 'v1',
  ServiceAccount: 'v1',
  Role: 'rbac.authorization.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1',
  ClusterRole: 'rbac.authorization.k8s.io/v1',
  ClusterRoleBinding: 'rbac.authorization.k8s.io/v1',
};

/** A modelled install with its rules pre-split and pre-broken into atoms, cached per bundle (bundles are immutable). */
interface PreparedModel {
  readonly model: InstallModel;
  /** CRD/APIService writes and escalation rights, per namespace: refused, never reported as missing. */
  readonly writes: WritesByNamespace;
  /** Everything requested per namespace (allowed rules and alternatives), for one `covers` call each. */
  readonly requested: Map<string, PolicyRule[]>;
  /** Per requirement: its allowed atoms and its alternative's atoms, by atom key, de-duplicated, in breakdown order. */
  readonly atoms: Array<{
    allowedAtoms: Map<string, PolicyRule>;
    alternativeAtoms?: Map<string, PolicyRule>;
    /** Cluster-wide binds of outside roles the operator's own rules ask for (see `askedBinds`): refused unless held. */
    askedBinds: Array<{ key: string; atom: PolicyRule; binds: ExternalRoleBind[] }>;
  }>;
}

const PREPARED_CACHE = new WeakMap<OperatorBundle, Map<string, PreparedModel>>();

function prepare(bundle: OperatorBundle, namespace: string, upgrade: boolean): PreparedModel {
  let byKey = PREPARED_CACHE.get(bundle);
  if (byKey === undefined) PREPARED_CACHE.set(bundle, byKey = new Map());
  const cacheKey = `${upgrade}\u0000${namespace}`;
  const hit = byKey.get(cacheKey);
  if (hit !== undefined) return hit;
  // Bounded: a platform checks one bundle in many tenant namespaces; only repeated checks of one install need the cache.
  if (byKey.size >= 8) byKey.clear();
  const model = InstallPlanModel.build(bundle, namespace, upgrade);
  const writes: WritesByNamespace = new Map();
  const requested = new Map<string, PolicyRule[]>();
  const byAtom = (rules: PolicyRule[]) => new Map(RbacRules.breakdown(rules).map((a) => [atomKeyOf(a), a] as const));
  const atoms = model.requirements.map((req) => {
    let [allowedRules, writeAtoms] = splitWrites(req.rules);
    addWrites(writes, req.namespace, writeAtoms, req.step);
    // cluster-wide binds of outside roles asked by the operator's own rules: refused, never reported as missing
    let asked: AskedBind[] = [];
    if (req.namespace === '' && mayAskBind(allowedRules)) {
      const all = RbacRules.breakdown(allowedRules);
      asked = askedBinds(bundle, req, all);
      if (asked.length > 0) allowedRules = all.filter((a) => !asked.some((x) => x.atom === a));
    }
    const list = requested.get(req.namespace) ?? [];
    list.push(...allowedRules, ...(req.alternative ?? []), ...asked.map((a) => a.atom));
    requested.set(req.namespace, list);
    return {
      allowedAtoms: byAtom(allowedRules),
      alternativeAtoms: req.alternative === undefined ? undefined : byAtom(req.alternative),
      askedBinds: asked.map((a) => ({ key: atomKeyOf(a.atom), atom: a.atom, binds: a.binds })),
    };
  });
  const prepared: PreparedModel = { model, writes, requested, atoms };
  byKey.set(cacheKey, prepared);
  return prepared;
}

/** Key of an atom as `RbacRules.breakdown` / `covers().missing` write it (one value per field). */
function atomKeyOf(a: PolicyRule): string {
  const none = '\u0001';
  return [a.verbs[0], a.apiGroups?.[0] ?? none, a.resources?.[0] ?? none, a.resourceNames?.[0] ?? none, a.nonResourceUrls?.[0] ?? none].join('\u0000');
}

function effectiveRules(ns: PolicyRule[], cluster: PolicyRule[], others: NamespaceRules[], namespace: string): (n: string) => PolicyRule[] {
  const cache = new Map<string, PolicyRule[]>();
  return (n: string) => {
    let r = cache.get(n);
    if (r === undefined) {
      r = [...cluster];
      if (n === namespace) r.push(...ns);
      if (n !== '') for (const o of others) if (o.namespace === n) r.push(...o.rules);
      cache.set(n, r);
    }
    return r;
  };
}

function toMissing(atoms: Array<{ namespace: string; atom: PolicyRule; step: string }>, namespace: string): MissingRule[] {
  const byNs = new Map<string, Array<{ atom: PolicyRule; step: string }>>();
  for (const a of atoms) {
    const l = byNs.get(a.namespace) ?? [];
    l.push(a);
    byNs.set(a.namespace, l);
  }
  const order = [...byNs.keys()].sort((a, b) => rank(a, namespace) - rank(b, namespace) || a.localeCompare(b));
  const out: MissingRule[] = [];
  for (const ns of order) {
    const list = byNs.get(ns)!;
    const rules = RbacRules.compact(list.map((l) => l.atom));
    const steps = rules.map(() => new Set<string>());
    for (const l of list) {
      let i = rules.findIndex((r) => atomIn(l.atom, r));
      if (i < 0) i = rules.findIndex((r) => RbacRules.covers([r], [l.atom]).covered);
      if (i >= 0) steps[i].add(l.step);
    }
    rules.forEach((rule, i) => out.push({ namespace: ns, rule, formatted: RbacRules.format(rule, ns), steps: [...steps[i]].sort() }));
  }
  return out;
}

/** Whether an atom is literally one of the rule's atoms (cheap check before `covers`). */
function atomIn(atom: PolicyRule, rule: PolicyRule): boolean {
  const has = (list: string[] | undefined, v: string | undefined) => v === undefined || (list ?? []).includes(v);
  return has(rule.verbs, atom.verbs[0]) && has(rule.apiGroups, atom.apiGroups?.[0]) && has(rule.resources, atom.resources?.[0])
    && has(rule.nonResourceUrls, atom.nonResourceUrls?.[0])
    && (atom.resourceNames === undefined ? rule.resourceNames === undefined : has(rule.resourceNames, atom.resourceNames[0]));
}

function modeCode(reason: InstallModeFailureReason | undefined): PreflightCode {
  return reason === InstallModeFailureReason.INVALID_INSTALL_MODES ? PreflightCode.INVALID_INSTALL_MODES : PreflightCode.UNSUPPORTED_OPERATOR_GROUP;
}

function rank(ns: string, namespace: string): number {
  return ns === namespace ? 0 : ns === '' ? 2 : 1;
}

function describeTargets(targets: string[]): string {
  return targets.length === 0 ? 'all namespaces' : [...targets].sort().join(', ');
}

function supportedModes(bundle: OperatorBundle): string {
  const s = bundle.installModes.filter((m) => m.supported).map((m) => m.type);
  return s.length === 0 ? 'no install mode' : s.join(', ');
}

function dedupe(problems: PreflightProblem[]): PreflightProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.code}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function clean<T>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o as any)) if (v !== undefined) out[k] = v;
  return out;
}

/** `InstallPreflight.check`, uncached. */
function checkUncached(props: InstallPreflightProps): PreflightResult {
  const { bundle, namespace } = props;
  if (typeof namespace !== 'string' || namespace === '') {
    throw new Error(`InstallPreflight.check: 'namespace' must be the OperatorGroup's namespace, got ${JSON.stringify(namespace)}`);
  }
  const upgrade = props.upgrade === true;
  const prepared = prepare(bundle, namespace, upgrade);
  const model = prepared.model;
  const problems: PreflightProblem[] = [];
  const warnings: PreflightProblem[] = [];

  const mode = InstallModes.checkTargets(bundle.installModes, namespace, props.targetNamespaces);
  if (!mode.supported) {
    problems.push({
      code: modeCode(mode.reason),
      message: `${bundle.name}: ${mode.message} (OperatorGroup in ${namespace} targeting ${describeTargets(props.targetNamespaces)}; `
        + `the CSV supports ${supportedModes(bundle)}). Fix: change the OperatorGroup's target namespaces or choose another operator.`,
    });
  }
  problems.push(...modelProblems(bundle, model));

  const effective = effectiveRules(props.installerRules, props.clusterInstallerRules ?? [], props.otherNamespaceRules ?? [], namespace);
  const writes = prepared.writes;
  // One `covers` per namespace over everything requested there (it indexes the owner rules once), then each
  // requirement is answered from the set of uncovered atoms: the same result as one `covers` per requirement.
  const uncovered = new Map<string, Set<string>>();
  for (const [ns, rules] of prepared.requested) {
    uncovered.set(ns, new Set(RbacRules.covers(effective(ns), rules).missing.map(atomKeyOf)));
  }
  const missingOf = (ns: string, atoms: Map<string, PolicyRule>): PolicyRule[] => {
    const gaps = uncovered.get(ns)!;
    const out: PolicyRule[] = [];
    for (const [key, atom] of atoms) if (gaps.has(key)) out.push(atom);
    return out;
  };
  const missingAtoms: Array<{ namespace: string; atom: PolicyRule; step: string }> = [];
  const refusedBinds: Array<{ bind: ExternalRoleBind; step: string }> = [];
  const askedRefused: Array<{ bind: ExternalRoleBind; step: string }> = [];
  model.requirements.forEach((req, i) => {
    const { allowedAtoms, alternativeAtoms, askedBinds: asked } = prepared.atoms[i];
    const gaps = uncovered.get(req.namespace)!;
    if (asked.some((a) => gaps.has(a.key)) && !(alternativeAtoms !== undefined && missingOf(req.namespace, alternativeAtoms).length === 0)) {
      for (const a of asked.filter((x) => gaps.has(x.key))) for (const bind of a.binds) askedRefused.push({ bind, step: req.step });
    }
    if (missingOf(req.namespace, allowedAtoms).length === 0) return;
    if (alternativeAtoms !== undefined && missingOf(req.namespace, alternativeAtoms).length === 0) return;
    if (req.externalBind !== undefined) {
      // not a missing rule to grant: `bind` on a role outside the bundle is an escalation (see externalBindProblem)
      refusedBinds.push({ bind: req.externalBind, step: req.step });
      return;
    }
    const wanted = req.deriveAlternative && alternativeAtoms !== undefined ? alternativeAtoms : allowedAtoms;
    for (const atom of missingOf(req.namespace, wanted)) missingAtoms.push({ namespace: req.namespace, atom, step: req.step });
  });
  if (writes.size > 0) problems.push(...writesProblem(bundle, writes));
  if (refusedBinds.length > 0) problems.push(externalBindProblem(bundle, namespace, refusedBinds));
  if (askedRefused.length > 0) problems.push(askedBindProblem(bundle, namespace, askedRefused));

  const missing = toMissing(missingAtoms, namespace);
  const outside = missing.filter((m) => m.namespace !== namespace);
  const confined = (props.clusterInstallerRules ?? []).length === 0 && (props.otherNamespaceRules ?? []).every((n) => n.rules.length === 0);
  if (confined && outside.length > 0) {
    // the rules outside the namespace as the derivation the fix names grants them (one list, one count: the same as
    // leastPrivilege's NeedsClusterScopedRules), for the create and the update path
    const derived = InstallerPermissions._leastPrivilegeShared({
      bundles: [bundle], namespace, targetNamespaces: props.targetNamespaces, allowClusterScoped: true,
    });
    const derivedOutside = rulesOutsideNamespace(derived);
    const listed = derivedOutside.length > 0 ? derivedOutside : outside.map((m) => m.formatted);
    problems.push({
      code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
      message: `${bundle.name} cannot be installed by an installer confined to namespace ${namespace}: OLM's scoped client needs `
        + `${listed.length} rule(s) outside it to install and update it: ${listed.join('; ')}. Fix: grant them to the installer `
        + '(ClusterRole + ClusterRoleBinding, or a RoleBinding in that namespace), e.g. from InstallerPermissions.leastPrivilege '
        + 'with allowClusterScoped, or choose an operator without clusterPermissions, webhooks or API services.',
    });
  }
  warnings.push(...modelWarnings(bundle, namespace, props.targetNamespaces, model));

  return clean({
    bundleName: bundle.name,
    version: bundle.version,
    ok: mode.supported && missing.length === 0 && problems.length === 0,
    installModeSupported: mode.supported,
    missing,
    problems,
    warnings,
  });
}

/**
 * The derived rules outside the install namespace, formatted: other namespaces' (sorted), then cluster-wide. What
 * both `NeedsClusterScopedRules` messages (the preflight's and the derivation's) list and count: one list, so the two
 * messages can never give two counts of the rules outside the namespace for the same bundle.
 */
function rulesOutsideNamespace(set: { clusterRules: PolicyRule[]; otherNamespaceRules: NamespaceRules[] }): string[] {
  return [
    ...set.otherNamespaceRules.flatMap((n) => n.rules.map((r) => RbacRules.format(r, n.namespace))),
    ...set.clusterRules.map((r) => RbacRules.format(r, '')),
  ];
}

/** `rules` without the atoms `clusterRules` (cluster-wide, so in every namespace too) already cover, compacted. */
function notCoveredBy(clusterRules: PolicyRule[], rules: PolicyRule[]): PolicyRule[] {
  return clusterRules.length === 0 ? rules
    // one covers call over every atom (one index of the cluster rules), not one per atom: `missing` is the atoms
    // not covered, each once, and compact merges them as it would the filtered breakdown
    : RbacRules.compact(RbacRules.covers(clusterRules, RbacRules.breakdown(rules)).missing);
}

/** `InstallerPermissions.leastPrivilege`, uncached. */
function leastPrivilegeUncached(props: LeastPrivilegeProps): InstallerPermissionSet {
  const { namespace } = props;
  const perNamespace = new Map<string, PolicyRule[]>();
  const problems: PreflightProblem[] = [];
  const deferred: Requirement[] = [];
  const bound = new Map<string, DerivedRoleBind>();
  const addBound = (b: DerivedRoleBind) => {
    const key = `${b.namespace}\u0000${b.roleKind}\u0000${b.roleName}`;
    if (!bound.has(key)) bound.set(key, b);
  };
  for (const bundle of props.bundles) {
    const model = InstallPlanModel.build(bundle, namespace, true);
    const mode = InstallModes.checkTargets(bundle.installModes, namespace, props.targetNamespaces);
    if (!mode.supported) {
      problems.push({
        code: modeCode(mode.reason),
        message: `${bundle.name}: ${mode.message}; no permissions can fix this (the CSV supports ${supportedModes(bundle)}).`,
      });
    }
    problems.push(...modelProblems(bundle, model));
    const writes: WritesByNamespace = new Map();
    const refusedBinds: Array<{ bind: ExternalRoleBind; step: string }> = [];
    const askedRefused: Array<{ bind: ExternalRoleBind; step: string }> = [];
    for (const req of model.requirements) {
      if (req.externalBind !== undefined) {
        const accepted = acceptedBind(props.allowedBindRoles ?? [], req.externalBind);
        if (accepted === undefined) {
          refusedBinds.push({ bind: req.externalBind, step: req.step });
          continue;
        }
        addBound({
          namespace: req.namespace,
          roleKind: accepted.roleKind,
          roleName: accepted.roleName,
          bootstrap: false,
          reason: `accepted by allowedBindRoles: ${accepted.reason}`,
        });
      }
      if (req.deriveAlternative && req.alternative !== undefined) {
        deferred.push(req);
        continue;
      }
      let [allowed, writeAtoms] = splitWrites(req.rules);
      addWrites(writes, req.namespace, writeAtoms, req.step);
      if (mayAskBind(allowed)) {
        const all = RbacRules.breakdown(allowed);
        const asked = askedBinds(bundle, req, all);
        const dropped = new Set<PolicyRule>();
        for (const a of asked) {
          if (req.namespace !== '') {
            // confined to the tenant namespace: derived, and named (BIND_ROLES_ANNOTATION)
            for (const b of a.binds) {
              addBound({ ...b, roleKind: b.roleKind as BoundRoleKind, bootstrap: false, reason: `the operator's own rules grant bind on it in namespace ${req.namespace} (${req.step}); held in that namespace only` });
            }
            continue;
          }
          const accepted = a.binds.map((b) => acceptedBind(props.allowedBindRoles ?? [], b));
          if (accepted.every((x) => x !== undefined)) {
            for (const x of accepted) addBound({ namespace: '', roleKind: x!.roleKind, roleName: x!.roleName, bootstrap: false, reason: `accepted by allowedBindRoles: ${x!.reason}` });
            continue;
          }
          a.binds.forEach((b, j) => { if (accepted[j] === undefined) askedRefused.push({ bind: b, step: req.step }); });
          dropped.add(a.atom);
        }
        if (asked.length > 0) allowed = all.filter((x) => !dropped.has(x));
      }
      const list = perNamespace.get(req.namespace) ?? [];
      list.push(...allowed);
      perNamespace.set(req.namespace, list);
    }
    if (writes.size > 0) problems.push(...writesProblem(bundle, writes));
    if (refusedBinds.length > 0) problems.push(externalBindProblem(bundle, namespace, refusedBinds));
    if (askedRefused.length > 0) problems.push(askedBindProblem(bundle, namespace, askedRefused));
  }
  // `bind` on a named bootstrap role only when the rules derived anyway do not already cover that role's rules.
  for (const req of deferred) {
    const held = [...(perNamespace.get(req.namespace) ?? []), ...(req.namespace === '' ? [] : perNamespace.get('') ?? [])];
    if (RbacRules.covers(held, req.rules).covered) continue;
    const list = perNamespace.get(req.namespace) ?? [];
    list.push(...req.alternative!);
    perNamespace.set(req.namespace, list);
    for (const alt of req.alternative!) {
      for (const roleName of alt.resourceNames ?? []) {
        addBound({
          namespace: req.namespace,
          roleKind: (alt.resources ?? []).includes('clusterroles') ? BoundRoleKind.CLUSTER_ROLE : BoundRoleKind.ROLE,
          roleName,
          bootstrap: true,
          reason: BOOTSTRAP_REASON,
        });
      }
    }
  }
  const namespacedRules = RbacRules.compact(perNamespace.get(namespace) ?? []);
  let clusterRules = RbacRules.compact(perNamespace.get('') ?? []);
  let otherNamespaceRules: NamespaceRules[] = [...perNamespace.keys()]
    .filter((ns) => ns !== '' && ns !== namespace).sort()
    .map((ns) => ({ namespace: ns, rules: RbacRules.compact(perNamespace.get(ns)!) }))
    .filter((n) => n.rules.length > 0);
  if (props.allowClusterScoped !== true && (clusterRules.length > 0 || otherNamespaceRules.length > 0)) {
    // what allowClusterScoped would grant (other namespaces' rules the cluster rules cover left out, as below)
    const others = otherNamespaceRules.map((n) => ({ namespace: n.namespace, rules: notCoveredBy(clusterRules, n.rules) }))
      .filter((n) => n.rules.length > 0);
    const listed = rulesOutsideNamespace({ clusterRules, otherNamespaceRules: others });
    problems.push({
      code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
      message: `${props.bundles.map((b) => b.name).join(', ')}: installing needs ${listed.length} rule(s) outside namespace ${namespace}, `
        + `left out because allowClusterScoped is false: ${listed.join('; ')}. Fix: set allowClusterScoped (a cluster admin decision) `
        + 'or choose an operator without clusterPermissions, webhooks or API services.',
    });
    clusterRules = [];
    otherNamespaceRules = [];
  }
  const keptNamespaces = new Set([namespace, ...(clusterRules.length > 0 ? [''] : []), ...otherNamespaceRules.map((n) => n.namespace)]);
  const boundRoles = [...bound.values()]
    .filter((b) => keptNamespaces.has(b.namespace))
    .sort((a, b) => cmpStr(a.namespace, b.namespace) || cmpStr(a.roleKind, b.roleKind) || cmpStr(a.roleName, b.roleName));
  // Cluster-wide rules apply in every namespace too: drop namespaced atoms they already cover.
  const notCovered = (rules: PolicyRule[]) => notCoveredBy(clusterRules, rules);
  return {
    namespacedRules: notCovered(namespacedRules),
    clusterRules,
    otherNamespaceRules: otherNamespaceRules.map((n) => ({ namespace: n.namespace, rules: notCovered(n.rules) })).filter((n) => n.rules.length > 0),
    problems: dedupe(problems),
    boundRoles,
  };
}

function isObject(x: unknown): boolean {
  return typeof x === 'object' && x !== null;
}

const CHECKS = new NamespaceTemplates<PreflightResult>(256);
const DERIVED = new NamespaceTemplates<InstallerPermissionSet>(256);

/**
 * The props of the static entry points, checked at runtime (JavaScript and jsii callers): a clear Error in the
 * diagnostics format instead of a TypeError deep inside.
 */
function checkPreflightProps(method: string, props: unknown, bundles: 'bundle' | 'bundles'): void {
  const check = new InputCheck();
  const o = check.optionalObject('props', props ?? 0, 'pass the props object');
  if (o) {
    check.knownProps(o, method === 'InstallPreflight.check' ? 'InstallPreflightProps' : method === 'InstallPreflight.checkVersions' ? 'VersionsPreflightProps' : 'LeastPrivilegeProps', method);
    const bundleFix = 'pass an OperatorBundle, e.g. OperatorBundle.fromDirectory(path)';
    if (bundles === 'bundle') check.optionalInstance('bundle', o.bundle ?? 0, OperatorBundle, bundleFix);
    else check.optionalArray('bundles', o.bundles ?? 0, (v, f) => check.optionalInstance(f, v ?? 0, OperatorBundle, bundleFix));
    check.requiredString('namespace', o.namespace, "pass the OperatorGroup's namespace");
    check.optionalStringArray('targetNamespaces', o.targetNamespaces ?? 0, 'pass the target namespaces ([] for AllNamespaces)');
    const rules = (field: string, value: unknown) => check.optionalArray(field, value, (v, f) => checkRuleShape(check, f, v));
    if (method !== 'InstallerPermissions.leastPrivilege') rules('installerRules', o.installerRules ?? 0);
    rules('clusterInstallerRules', o.clusterInstallerRules);
    check.optionalArray('otherNamespaceRules', o.otherNamespaceRules, (v, f) => {
      const n = check.optionalObject(f, v ?? 0, "pass { namespace: 'kube-system', rules: [...] }");
      if (n) {
        check.knownProps(n, 'NamespaceRules', f, `${f}.`);
        check.requiredString(`${f}.namespace`, n.namespace, 'name the namespace');
        rules(`${f}.rules`, n.rules ?? 0);
      }
      return n;
    });
    check.optionalBoolean('upgrade', o.upgrade);
    check.optionalBoolean('allowClusterScoped', o.allowClusterScoped);
  }
  throwIfInvalid(check, method);
}
