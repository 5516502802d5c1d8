// The installer's RBAC: its Role and RoleBinding in the tenant namespace, the optional ClusterRole, Roles in other
// namespaces (legacy pull secrets, derived rules), and the least-privilege rules derived from the bundles.
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CompactClusterRole } from './compact-cluster-role';
import { CompactRole } from './compact-role';
import { RoleRefKind, SubjectRoleBinding } from './subject-role-binding';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { checkRuleShape, InputCheck } from '../../core/input-check';
import { DefaultInstallerRules } from '../../preflight/default-installer-rules';
import { DerivedRoleBind, InstallerPermissions } from '../../preflight/installer-permissions';
import { NamespaceRules, PreflightCode } from '../../preflight/preflight-code';
import { PolicyRule } from '../../rbac/policy-rule';
import { RbacRules } from '../../rbac/rbac-rules';
import { DeriveScope } from '../derive-scope';
import { LazyMap, LazySet } from '../lazy-collections';
import { orderAfter } from '../private';
import { LegacyPullSecretAccess, ScopedOperatorTenantProps } from '../scoped-operator-tenant-props';
import { SystemNamespaces } from '../system-namespaces';
import { BIND_ROLES_ANNOTATION, DERIVE_SCOPE_ANNOTATION, REASON_ANNOTATION, SYSTEM_NAMESPACES_REASON_ANNOTATION } from '../tenant-annotations';

const NEEDS_CLUSTER_SCOPED_RULES = PreflightCode.NEEDS_CLUSTER_SCOPED_RULES;
/** The reason annotation of roles derived outside the namespace because `policyChecks` lowers OLMT-006. */
export const LOWERED_CLUSTER_SCOPED_REASON = 'derived without clusterScopedInstallerRulesReason: policyChecks lowers OLMT-006 (NeedsClusterScopedRules)';

/** What the installer RBAC needs of its tenant. */
export interface InstallerRbacOptions {
  readonly namespace: string;
  readonly serviceAccountName: string;
  /** The installer ServiceAccount: every Role and binding is applied after it. */
  readonly serviceAccount: k8s.KubeServiceAccount;
  readonly roleName: string;
  readonly props: Pick<ScopedOperatorTenantProps, 'installerRoleBindingName' | 'installerRules' | 'deriveInstallerRules' | 'deriveScope'
  | 'clusterScopedInstallerRulesReason' | 'allowedBindRoles' | 'systemNamespacesReason'>;
  /** Where wrong-typed rules are collected (synth errors of the tenant). */
  readonly input: InputCheck;
  /**
   * Whether `policyChecks` lowers the check of `code` below ERROR for the tenant: a lowered `NeedsClusterScopedRules`
   * (OLMT-006) derives the rules outside the namespace without `clusterScopedInstallerRulesReason`.
   */
  readonly relaxes: (code: string) => boolean;
  /** Annotates the installer Role (`cluster` false) or ClusterRole with the sensitive grants it holds. */
  readonly annotateGrants: (role: CompactRole | CompactClusterRole, cluster: boolean) => void;
}

/**
 * What the derivation needs of a Subscription (an `OperatorSubscription`, in subscriptions/, a room above this one):
 * its name and the bundles it may install or upgrade to.
 */
export interface DerivingSubscription {
  /** The Subscription's name. */
  readonly name: string;
  /** The bundles of its allowed versions, newest first as given. */
  readonly bundles: OperatorBundle[];
  /** The bundles of its upgrade graph (derived for too unless the tenant pins the version). */
  readonly upgradeGraphBundles: OperatorBundle[];
}

/** The installer's Roles and bindings, created in the tenant's scope (construct ids and order as the tenant's own). */
export class InstallerRbac {
  /** The installer Role. */
  public readonly role: CompactRole;
  /** The installer RoleBinding. */
  public readonly roleBinding: SubjectRoleBinding;
  /** The OperatorGroup, once created: bindings made later are applied before it. */
  public operatorGroup?: Construct;
  private _clusterRole?: CompactClusterRole;
  private _clusterRoleBinding?: k8s.KubeClusterRoleBinding;
  private _legacyPullSecretBinding?: SubjectRoleBinding;
  /** Installer Roles outside the tenant namespace (legacy pull secrets, derived kube-system rules), by namespace. */
  private readonly outsideRoles = new LazyMap<string, CompactRole>();
  /**
   * Derived rules that `bind` named roles only (bootstrap roles of cert resources, roles in `allowedBindRoles`), by
   * identity: accepted (and named in `BIND_ROLES_ANNOTATION`); an equal rule added by hand is still checked.
   */
  private readonly derivedNamedBinds = new LazySet<PolicyRule>();
  /** Derived binds per namespace ('' = cluster), by `kind/name`, for `BIND_ROLES_ANNOTATION`. */
  private readonly boundRoles = new LazyMap<string, Map<string, DerivedRoleBind>>();
  /** Subscriptions whose rules outside the namespace were derived because OLMT-006 is lowered: bundles and rules. */
  private readonly lowered = new LazyMap<string, { bundles: string[]; rules: string[] }>();

  constructor(private readonly scope: Construct, private readonly options: InstallerRbacOptions) {
    const { namespace: ns, props } = options;
    this.role = new CompactRole(scope, 'InstallerRole', {
      name: options.roleName,
      namespace: ns,
      rules: props.installerRules ?? (props.deriveInstallerRules ? [] : DefaultInstallerRules.okdScopedInstall()),
    });
    options.annotateGrants(this.role, false);
    if (props.deriveInstallerRules) {
      const deriveScope = props.deriveScope ?? DeriveScope.ALLOWED_UPGRADES;
      this.role.apiObject.metadata.addAnnotation(DERIVE_SCOPE_ANNOTATION, deriveScope);
    }
    orderAfter(this.role, options.serviceAccount);
    this.roleBinding = new SubjectRoleBinding(scope, 'InstallerRoleBinding', {
      name: props.installerRoleBindingName ?? options.roleName,
      namespace: ns,
      roleKind: RoleRefKind.ROLE,
      roleName: options.roleName,
    });
    this.roleBinding.addSubjectConfiguration('ServiceAccount', options.serviceAccountName, ns);
    orderAfter(this.roleBinding, this.role);
  }

  /** The installer ClusterRole, once a cluster-scoped rule was added. */
  public get clusterRole(): CompactClusterRole | undefined {
    return this._clusterRole;
  }

  /** The installer ClusterRoleBinding, with the ClusterRole. */
  public get clusterRoleBinding(): k8s.KubeClusterRoleBinding | undefined {
    return this._clusterRoleBinding;
  }

  /** The binding of the legacy pull-secret Role, when `legacyPullSecretAccess` is set. */
  public get legacyPullSecretBinding(): SubjectRoleBinding | undefined {
    return this._legacyPullSecretBinding;
  }

  /** Adds a rule to the installer Role (`field` names the caller in input errors). */
  public addRule(field: string, rule: PolicyRule): void {
    const checked = checkRuleShape(this.options.input, field, rule);
    if (checked) this.role.addRules(checked);
  }

  /** Adds a cluster-scoped rule: the ClusterRole and ClusterRoleBinding (`<namespace>-olm-installer`) on first use. */
  public addClusterRule(field: string, rule: PolicyRule): void {
    const checked = checkRuleShape(this.options.input, field, rule) as PolicyRule | undefined;
    if (!checked) return;
    if (!this._clusterRole) {
      const name = `${this.options.namespace}-olm-installer`;
      this._clusterRole = new CompactClusterRole(this.scope, 'InstallerClusterRole', { name });
      this.options.annotateGrants(this._clusterRole, true);
      orderAfter(this._clusterRole, this.options.serviceAccount);
      this._clusterRoleBinding = new k8s.KubeClusterRoleBinding(this.scope, 'InstallerClusterRoleBinding', {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'ServiceAccount', name: this.options.serviceAccountName, namespace: this.options.namespace }],
      });
      orderAfter(this._clusterRoleBinding, this._clusterRole);
      // called from the tenant's constructor before the OperatorGroup exists: the constructor orders it then
      if (this.operatorGroup) orderAfter(this.operatorGroup, this._clusterRoleBinding);
    }
    this._clusterRole.addRules(checked);
  }

  /** The Role of the OKD docs' pull-secret rules in the catalog namespace, and their namespaced secret writes. */
  public addLegacyPullSecretAccess(legacy: LegacyPullSecretAccess): void {
    const { namespace, serviceAccountName } = this.options;
    const name = `${namespace}-legacy-pull-secrets`;
    const role = new CompactRole(this.scope, 'LegacyPullSecretRole', {
      name,
      namespace: legacy.catalogNamespace,
      rules: legacy.secretNames.length > 0 ? [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [...legacy.secretNames].sort() }] : [],
    });
    const reason = this.options.props.systemNamespacesReason;
    if (reason !== undefined && SystemNamespaces.isSystemNamespace(legacy.catalogNamespace)) {
      role.apiObject.metadata.addAnnotation(SYSTEM_NAMESPACES_REASON_ANNOTATION, reason);
    }
    orderAfter(role, this.options.serviceAccount);
    const binding = new SubjectRoleBinding(this.scope, 'LegacyPullSecretRoleBinding', {
      name,
      namespace: legacy.catalogNamespace,
      roleKind: RoleRefKind.ROLE,
      roleName: name,
    });
    binding.addSubjectConfiguration('ServiceAccount', serviceAccountName, namespace);
    orderAfter(binding, role);
    this._legacyPullSecretBinding = binding;
    this.outsideRoles.write().set(legacy.catalogNamespace, role);
    for (const rule of DefaultInstallerRules.okdPullSecretNamespaced()) this.addRule('addInstallerRule(rule)', rule);
  }

  /** Adds the least-privilege rules for `sub`'s bundles (see `deriveInstallerRules`). */
  public deriveFrom(sub: DerivingSubscription, targetNamespaces: string[]): void {
    const { props, namespace } = this.options;
    // a tenant that lowers OLMT-006 accepts the rules outside its namespace: they are derived (and reported as one
    // NeedsClusterScopedRules finding at the lowered severity, `loweredClusterScopedFindings`), not left missing
    const lowered = props.clusterScopedInstallerRulesReason === undefined && this.options.relaxes(NEEDS_CLUSTER_SCOPED_RULES);
    const reason = props.clusterScopedInstallerRulesReason ?? (lowered ? LOWERED_CLUSTER_SCOPED_REASON : undefined);
    const bundles = props.deriveScope === DeriveScope.PINNED_VERSION ? sub.bundles.slice(0, 1) : [...sub.bundles, ...sub.upgradeGraphBundles];
    // shared, read-only rule objects: thousands of tenants on the same bundles hold one copy (see namespace-templates.ts)
    const derived = InstallerPermissions._leastPrivilegeShared({
      bundles,
      namespace,
      targetNamespaces,
      allowClusterScoped: reason !== undefined,
      allowedBindRoles: props.allowedBindRoles,
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
    markBinds(namespace, derived.namespacedRules);
    this.role.addRules(...derived.namespacedRules);
    this.annotateBinds(this.role, namespace);
    if (reason === undefined) return;
    if (lowered) {
      const outside = [
        ...derived.clusterRules.map((r) => RbacRules.format(r, '')),
        ...derived.otherNamespaceRules.flatMap((o) => o.rules.map((r) => RbacRules.format(r, o.namespace))),
      ];
      if (outside.length > 0) this.lowered.write().set(sub.name, { bundles: bundles.map((b) => b.name), rules: outside });
    }
    markBinds('', derived.clusterRules);
    for (const rule of derived.clusterRules) this.addClusterRule('addClusterInstallerRule(rule)', rule);
    if (this._clusterRole && derived.clusterRules.length > 0) {
      this._clusterRole.apiObject.metadata.addAnnotation(REASON_ANNOTATION, reason);
      this.annotateBinds(this._clusterRole, '');
    }
    for (const other of derived.otherNamespaceRules) {
      if (other.rules.length === 0) continue;
      markBinds(other.namespace, other.rules);
      const role = this.outsideRole(other.namespace, reason);
      role.addRules(...other.rules);
      this.annotateBinds(role, other.namespace);
    }
  }

  /**
   * One `NeedsClusterScopedRules` finding per Subscription whose rules outside the namespace were derived only because
   * `policyChecks` lowers OLMT-006 (reported at the lowered severity by `PolicyChecks.apply`; OFF drops it).
   */
  public loweredClusterScopedFindings(): DiagnosticDetails[] {
    const who = `the installer ServiceAccount ${this.options.namespace}/${this.options.serviceAccountName}`;
    return [...this.lowered.read.entries()].map(([name, l]) => ({
      code: NEEDS_CLUSTER_SCOPED_RULES,
      field: `subscriptions[${name}]`,
      value: l.bundles.join(', '),
      message: `${who} holds ${l.rules.length} derived rule(s) outside namespace ${this.options.namespace}, granted without clusterScopedInstallerRulesReason `
        + `because policyChecks lowers OLMT-006: ${l.rules.join('; ')}`,
      fix: 'set clusterScopedInstallerRulesReason (a cluster admin decision, written to the roles), or choose an operator without clusterPermissions, webhooks or API services',
    }));
  }

  /** True for a derived rule that binds named roles only (accepted, and named in `BIND_ROLES_ANNOTATION`). */
  public isDerivedNamedBind(rule: PolicyRule): boolean {
    return this.derivedNamedBinds.read.has(rule);
  }

  /** Rules the installer holds outside its namespace, per namespace (`shared`: the sealed compacted rules). */
  public otherNamespaceRules(shared = false): NamespaceRules[] {
    return [...this.outsideRoles.read.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([namespace, role]) => ({ namespace, rules: shared ? role._sharedRules : role.rules }));
  }

  /** A key of every installer rule as added (the audit recomputes when it changes). */
  public rulesKey(): string {
    return JSON.stringify([
      this.role.rawRules, this._clusterRole?.rawRules, [...this.outsideRoles.read.values()].map((r) => r.rawRules),
    ]);
  }

  /** The installer's Role (and RoleBinding) in another namespace, created on first use. */
  private outsideRole(namespace: string, reason: string): CompactRole {
    let role = this.outsideRoles.read.get(namespace);
    if (role) return role;
    const name = `${this.options.namespace}-olm-installer`;
    role = new CompactRole(this.scope, `InstallerRole-${namespace}`, { name, namespace });
    role.apiObject.metadata.addAnnotation(REASON_ANNOTATION, reason);
    orderAfter(role, this.options.serviceAccount);
    const binding = new SubjectRoleBinding(this.scope, `InstallerRoleBinding-${namespace}`, { name, namespace, roleKind: RoleRefKind.ROLE, roleName: name });
    binding.addSubjectConfiguration('ServiceAccount', this.options.serviceAccountName, this.options.namespace);
    orderAfter(binding, role);
    orderAfter(this.operatorGroup!, binding);
    this.outsideRoles.write().set(namespace, role);
    return role;
  }

  /** Names the derived binds of `ns` ('' = cluster) on `role` (`BIND_ROLES_ANNOTATION`). */
  private annotateBinds(role: CompactRole | CompactClusterRole, ns: string): void {
    const binds = [...(this.boundRoles.read.get(ns)?.values() ?? [])].sort((a, b) => (`${a.roleKind}/${a.roleName}` < `${b.roleKind}/${b.roleName}` ? -1 : 1));
    if (binds.length === 0) return;
    role.apiObject.metadata.addAnnotation(BIND_ROLES_ANNOTATION,
      binds.map((b) => `${b.roleKind} ${b.roleName}: ${b.reason}`).join('; '));
  }
}
