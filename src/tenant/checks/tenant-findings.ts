// The tenant's own findings, in the order they are reported: wrong input and names, targets, the guards (system
// namespaces, the installer's identity, OperatorGroups, sensitive installer rules), Subscriptions, the preflight and
// upgrade checks, and what the whole App shows (cross-tenant conflicts, the approver's reach, duplicate objects).
import { ApiObject } from 'cdk8s';
import { approverReachFindings } from './approver-reach';
import { duplicateObjectError } from './duplicate-objects';
import { installerServiceAccountProblems, pullSecretProblems, systemNamespaceProblems } from './tenancy-guards';
import { InstallerRuleChecks } from '../../audit/installer-rule-checks';
import { sharedRoleAggregation, sharedRoleAggregationText } from '../../audit/shared-role-aggregation';
import { describeReach, webhookReach } from '../../audit/webhook-reach';
import { WebhookType } from '../../bundle/operator-bundle';
import { clusterTargetsOf, olmRequestsTokens } from '../../core/cluster-targets';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { InputCheck } from '../../core/input-check';
import { KubernetesNames, NameRule } from '../../core/kubernetes-names';
import { AccessLevel, OlmGeneration, OlmNaming } from '../../olm/olm-naming';
import { CheckedTenantProps } from '../input-checks';
import { nonEmpty } from '../private';
import { InstallerRbac } from '../rbac/installer-rbac';
import { InstallerSensitiveGrants } from '../rbac/installer-sensitive-grants';
import { PeopleAccess } from '../rbac/people-access';
import { UpgradeStrategy } from '../scoped-operator-tenant-props';
import { OperatorSubscription } from '../subscriptions/operator-subscription';
import { InstallPlanApproval } from '../subscriptions/operator-subscription-props';
import { TenantDayTwo } from '../subscriptions/tenant-day-two';
import { TenantSubscriptions } from '../subscriptions/tenant-subscriptions';
import { TargetNamespaces } from '../target-namespaces';
import { SENSITIVE_GRANTS_ANNOTATION } from '../tenant-annotations';
import { TenantTree, TreeTenant } from './tenant-tree';
import { CODE } from '../../core/diagnostic-codes';

/** The tenant and its parts, as the findings read them. */
export interface TenantFindingsInput {
  readonly tenant: TreeTenant;
  readonly props: CheckedTenantProps;
  /** Wrong-typed or unusable props and method arguments (reported first). */
  readonly input: InputCheck;
  readonly targets: TargetNamespaces;
  readonly allNamespaces: boolean;
  readonly operatorGroupName: string;
  readonly olmGeneration: OlmGeneration;
  readonly operatorGroup: ApiObject;
  readonly rbac: InstallerRbac;
  readonly grants: InstallerSensitiveGrants;
  readonly subscriptions: TenantSubscriptions;
  readonly people: PeopleAccess;
  readonly dayTwo: TenantDayTwo;
}

/** The errors and warnings of one tenant (before its `policyChecks` severities apply). */
export class TenantFindings {
  constructor(private readonly t: TenantFindingsInput) {}

  /** `acceptedReach` entries without a reason (reported with the audit's findings). */
  public acceptedReachErrors(): DiagnosticDetails[] {
    return (this.t.props.acceptedReach ?? []).filter((a) => typeof a.reason !== 'string' || a.reason.trim() === '').map((a) => ({
      code: CODE.EmptyAcceptedReachReason,
      field: 'acceptedReach',
      value: `${a.code}${a.subject ? ` ${a.subject}` : ''}`,
      message: 'an accepted reach has no reason, so it accepts nothing',
      fix: 'say why the reach is acceptable and who reviewed it (it is written to the OperatorGroup annotation)',
    }));
  }

  /** What fails the synth (unless `policyChecks` relaxes it), in the order it is reported. */
  public errors(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.t.input.errors];
    this.nameErrors(out);
    this.targetErrors(out);
    this.guardErrors(out);
    this.installerRuleErrors(out);
    this.webhookErrors(out);
    this.subscriptionErrors(out);
    this.sharedRoleErrors(out);
    this.reasonErrors(out);
    out.push(...this.t.subscriptions.preflightFindings().errors);
    out.push(...this.t.rbac.loweredClusterScopedFindings());
    out.push(...this.t.subscriptions.upgradeFindings().errors);
    this.appErrors(out);
    this.subscriptionNameErrors(out);
    return out;
  }

  /** What only warns (unless `policyChecks` raises it). */
  public warnings(): DiagnosticDetails[] {
    const ctx = this.t;
    const tenant = ctx.tenant;
    const out: DiagnosticDetails[] = [];
    out.push(...InstallerRuleChecks.warnings(ctx.rbac.role.rawRules, { clusterScoped: false, field: 'installerRules' }));
    out.push(...ctx.subscriptions.preflightFindings().warnings);
    out.push(...ctx.subscriptions.upgradeFindings().warnings);

    for (const s of ctx.subscriptions.all) {
      const info = s.info;
      if (info.startingCsv !== undefined && info.installPlanApproval === InstallPlanApproval.AUTOMATIC) {
        out.push({
          code: CODE.StartingCsvWithAutomaticApproval,
          field: `subscriptions[${info.name}].startingCsv`,
          value: info.startingCsv,
          message: 'with Automatic approval OLM installs the starting CSV and immediately upgrades past it, so it does not pin the version',
          fix: 'use installPlanApproval: InstallPlanApproval.MANUAL to stay on the starting CSV, or drop startingCsv',
        });
      }
    }
    const manual = ctx.subscriptions.all.filter((s) => s.installPlanApproval === InstallPlanApproval.MANUAL).map((s) => s.name);
    const automatic = ctx.subscriptions.all.filter((s) => s.installPlanApproval === InstallPlanApproval.AUTOMATIC).map((s) => s.name);
    if (manual.length > 0 && automatic.length > 0) {
      out.push({
        code: CODE.MixedInstallPlanApproval,
        field: 'subscriptions',
        value: `Manual: ${manual.join(', ')}; Automatic: ${automatic.join(', ')}`,
        message: `OLM resolves namespace '${tenant.namespaceName}' as one unit and one Manual Subscription makes every InstallPlan there Manual (OLM pkg/controller/operators/catalog/operator.go), so the Automatic Subscriptions will wait for approval too`,
        fix: 'use the same installPlanApproval for every Subscription of the tenant, or put them in separate tenants',
      });
    }
    if (manual.length > 0 && !ctx.people.hasSubscriptionManagers && !ctx.dayTwo.approver) {
      out.push({
        code: CODE.ManualApprovalWithoutApprover,
        field: 'subscriptions',
        value: manual.join(', '),
        message: 'InstallPlans will wait for manual approval but the tenant grants nobody the right to approve them',
        fix: 'call grantSubscriptionManagement(subject) for the team that approves upgrades',
      });
    }
    const targets = clusterTargetsOf(tenant);
    if (tenant.tokenSecret === undefined && targets.declared.includes('olmVersion') && !olmRequestsTokens(targets)) {
      // OLM < 0.29 fails without the Secret ("the service account does not have any API secret", OLM issue #3376)
      out.push({
        code: CODE.InstallerTokenSecretNeeded,
        field: 'createTokenSecret',
        value: `olmVersion ${targets.olmVersion}`,
        message: `OLM ${targets.olmVersion} (declared in TenancyAppProps.targets) reads the installer's token from a token Secret only (TokenRequest fallback since 0.29.0, OLM PR #3377): without one every install in '${tenant.namespaceName}' fails`,
        fix: 'remove createTokenSecret: false, or declare the OLM the cluster runs (>= 0.29.0)',
      });
    }
    if (ctx.props.upgradeStrategy === UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD) {
      out.push({
        code: CODE.UnsafeUpgradeStrategy,
        field: 'upgradeStrategy',
        value: ctx.props.upgradeStrategy,
        message: 'the OperatorGroup CRD warns that TechPreviewUnsafeFailForward "is unsafe and may result in unexpected behavior or unrecoverable data loss"',
        fix: 'use UpgradeStrategy.DEFAULT unless you understand every operator in the namespace',
      });
    }
    if (ctx.props.legacyPullSecretAccess) {
      out.push({
        code: CODE.LegacyPullSecretAccess,
        field: 'legacyPullSecretAccess',
        value: ctx.props.legacyPullSecretAccess.catalogNamespace,
        message: 'the installer may read pull secrets in the global catalog namespace; only OLM releases before 0.8.1 copied pull secrets with the installer',
        fix: 'drop legacyPullSecretAccess on current OLM',
      });
    }
    if (ctx.allNamespaces) {
      const tenants = TenantTree.tenants(tenant).filter((x) => x !== tenant).map((t) => t.namespaceName).filter((n) => n !== tenant.namespaceName);
      if (tenants.length > 0) {
        out.push({
          code: CODE.AllNamespacesIncludesTenants,
          field: 'targetNamespaces',
          value: [...new Set(tenants)].sort().join(', '),
          message: "the OperatorGroup targets all namespaces, including other tenants' namespaces; OLM lifts the operator's Roles to ClusterRoles",
          fix: 'target explicit namespaces unless the operator must serve every tenant',
        });
      }
    }
    for (const level of ctx.people.levelsOnAllNamespaces) {
      out.push({
        code: CODE.OperatorAccessOnlyInTenantNamespace,
        field: `grantOperatorAccess(${level})`,
        value: tenant.namespaceName,
        message: `the OperatorGroup targets all namespaces, but the ${level} access is bound in namespace '${tenant.namespaceName}' only`,
        fix: 'bind the OperatorGroup ClusterRole with a ClusterRoleBinding yourself if access in every namespace is meant',
      });
    }
    return out;
  }

  /** Invalid names, and namespace metadata that an adopted namespace would drop. */
  private nameErrors(out: DiagnosticDetails[]): void {
    const p = this.t.props;
    this.invalidName(out, 'namespaceName', p.namespaceName, NameRule.DNS1123_LABEL, 'Namespace');
    this.invalidName(out, 'operatorGroupName', p.operatorGroupName, NameRule.DNS1123_SUBDOMAIN, 'OperatorGroup');
    this.invalidName(out, 'installerServiceAccountName', p.installerServiceAccountName, NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
    this.invalidName(out, 'installerRoleName', p.installerRoleName, NameRule.PATH_SEGMENT, 'Role');
    this.invalidName(out, 'installerRoleBindingName', p.installerRoleBindingName, NameRule.PATH_SEGMENT, 'RoleBinding');
    if (this.t.tenant.tokenSecret !== undefined) this.invalidName(out, 'tokenSecretName', p.tokenSecretName, NameRule.DNS1123_SUBDOMAIN, 'Secret');

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
          code: CODE.NamespaceMetadataOnAdoptedNamespace,
          field,
          value,
          message: `${field} is set but createNamespace is false, so no Namespace object of this tenant carries it`,
          fix: `set createNamespace: true, or set it on namespace '${p.namespaceName}' where that namespace is managed`,
        });
      }
    }
  }

  /** The OperatorGroup's targets, and old-generation ClusterRole names that collide with built-in roles. */
  private targetErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const tenant = ctx.tenant;
    if (ctx.targets.reason !== undefined && ctx.targets.reason.trim() === '') {
      out.push({
        code: CODE.EmptyTargetsReason,
        field: 'targetNamespaces',
        value: ctx.targets.reason,
        message: 'the reason for targeting other namespaces is empty',
        fix: 'say why the operator needs these namespaces (it is written to the OperatorGroup annotation)',
      });
    }
    if (!ctx.allNamespaces && tenant.targetNamespaces.length === 0) {
      out.push({ code: CODE.NoTargetNamespaces, field: 'targetNamespaces', value: '[]', message: 'TargetNamespaces.namespaces() was given no namespace', fix: 'list at least one namespace, or use TargetNamespaces.ownNamespace()' });
    }
    if (!ctx.targets.isOwnNamespace) {
      for (const t of tenant.targetNamespaces) this.invalidName(out, 'targetNamespaces', t, NameRule.DNS1123_LABEL, 'target Namespace');
    }
    const foreignTargets = tenant.targetNamespaces.filter((t) => t !== tenant.namespaceName);
    if (foreignTargets.length > 0) {
      for (const other of TenantTree.tenantsIn(tenant, foreignTargets)) {
        if (other === tenant || other.namespaceName === tenant.namespaceName) continue;
        out.push({
          code: CODE.TargetsOtherTenant,
          field: 'targetNamespaces',
          value: other.namespaceName,
          message: `namespace '${other.namespaceName}' belongs to tenant ${other.node.path}; OLM would copy this tenant's operator RBAC into it`,
          fix: `remove '${other.namespaceName}' from targetNamespaces, or install the operator in that tenant`,
        });
      }
    }

    // old-generation OperatorGroup ClusterRoles are `<og>-<level>`: never a built-in role's name
    if (ctx.olmGeneration !== OlmGeneration.V0_26_AND_LATER) {
      const collisions = [AccessLevel.ADMIN, AccessLevel.EDIT, AccessLevel.VIEW]
        .map((level) => OlmNaming.operatorGroupClusterRoleName(tenant.namespaceName, ctx.operatorGroupName, level, ctx.olmGeneration))
        .map((roleName) => OlmNaming.builtInClusterRoleReason(roleName))
        .filter((r): r is string => r !== undefined);
      if (collisions.length > 0) {
        out.push({
          code: CODE.OperatorGroupRoleNameCollision,
          field: 'operatorGroupName',
          value: ctx.operatorGroupName,
          message: `with olmGeneration ${ctx.olmGeneration} OLM names the OperatorGroup's ClusterRoles '<operatorgroup>-<level>' `
            + `(operatorgroup.go ensureOpGroupClusterRoles) and ${collisions.join('; ')}: OLM would aggregate into that role, and `
            + 'grantOperatorAccess would bind the built-in role instead of the operators\' APIs',
          fix: 'choose another operatorGroupName (e.g. the namespace name), or use OLM >= 0.26 (olm.og.<name>.<level>-<hash> names)',
        });
      }
    }
  }

  /** System namespaces, the installer's identity, the legacy pull-secret Role and one OperatorGroup per namespace. */
  private guardErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const tenant = ctx.tenant;
    const p = ctx.props;
    // system namespaces, the installer's identity and the legacy pull-secret Role (tenancy-guards.ts)
    out.push(...systemNamespaceProblems({
      namespace: tenant.namespaceName,
      targetNamespaces: tenant.targetNamespaces,
      pullSecretNamespace: p.legacyPullSecretAccess?.catalogNamespace,
      reason: p.systemNamespacesReason,
    }));
    out.push(...installerServiceAccountProblems(tenant.namespaceName, tenant.installerServiceAccountName, ctx.subscriptions.bundles));
    if (p.legacyPullSecretAccess) {
      const tenants = TenantTree.tenants(tenant).map((t) => ({
        path: t.node.path,
        namespace: t.namespaceName,
        installerServiceAccountName: t.installerServiceAccountName,
        tokenSecretName: t.tokenSecret?.metadata.name,
      }));
      out.push(...pullSecretProblems(p.legacyPullSecretAccess.catalogNamespace, p.legacyPullSecretAccess.secretNames, tenant.node.path, tenants));
    }

    // one OperatorGroup per namespace (OLM: TooManyOperatorGroups)
    for (const c of TenantTree.operatorGroupsIn(tenant, tenant.namespaceName)) {
      if (c === ctx.operatorGroup) continue;
      const owner = TenantTree.tenantOf(c);
      out.push({
        code: CODE.TooManyOperatorGroups,
        field: 'namespaceName',
        value: tenant.namespaceName,
        message: `namespace '${tenant.namespaceName}' also has OperatorGroup '${c.metadata.name}' from ${owner ? `tenant ${owner.node.path}` : c.node.path}; OLM refuses to install into a namespace with more than one OperatorGroup (TooManyOperatorGroups)`,
        fix: 'give each tenant its own namespace, or subscribe through the existing tenant',
      });
    }
  }

  /** Sensitive grants in the installer rules, and the legacy pull secrets' names. */
  private installerRuleErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const p = ctx.props;
    // installer rules: the Role's, then the ClusterRole's (when there is one)
    for (const cluster of [false, true]) {
      const rules = ctx.grants.checkedRules(cluster);
      if (rules) out.push(...InstallerRuleChecks.errors(rules, ctx.grants.checkOptions(cluster)));
    }

    // legacy pull secrets
    const legacy = p.legacyPullSecretAccess;
    if (legacy) {
      this.invalidName(out, 'legacyPullSecretAccess.catalogNamespace', legacy.catalogNamespace, NameRule.DNS1123_LABEL, 'catalog Namespace');
      if (legacy.secretNames.length === 0) {
        out.push({ code: CODE.NoLegacyPullSecrets, field: 'legacyPullSecretAccess.secretNames', value: '[]', message: 'no pull secret names given', fix: 'name the pull secrets, or drop legacyPullSecretAccess' });
      }
      for (const s of legacy.secretNames) this.invalidName(out, 'legacyPullSecretAccess.secretNames', s, NameRule.DNS1123_SUBDOMAIN, 'Secret');
    }
  }

  /**
   * Admission webhooks of the Subscriptions' bundles (installed and upgrade bundles) that reach beyond the tenant
   * (audit/webhook-reach.ts). OLM v0 sets each webhook's namespaceSelector to the OperatorGroup's
   * (`pkg/controller/install/webhook.go` createOrUpdateWebhook, operator-framework/api `OperatorGroup.NamespaceLabelSelector`:
   * the `olm.operatorgroup.uid/<uid>` label OLM puts on the target namespaces; none for AllNamespaces), and a CSV
   * cannot set its own (`WebhookDescription.GetMutatingWebhook`).
   */
  private webhookErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const tenant = ctx.tenant;
    const targets = ctx.allNamespaces ? undefined : [...new Set([...tenant.targetNamespaces])].sort();
    const ownNamespaces = [tenant.namespaceName, ...tenant.targetNamespaces];
    const seen = new Set<string>();
    for (const sub of ctx.subscriptions.all) {
      for (const bundle of sub.bundles) {
        const ownGroups = [...bundle.crds.map((c) => c.group), ...bundle.ownedCrds.map((c) => c.name.slice(c.name.indexOf('.') + 1))];
        for (const w of bundle.webhookDefinitions) {
          if (w.type === WebhookType.CONVERSION) continue;
          const mutating = w.type === WebhookType.MUTATING;
          const reach = webhookReach(w, { mutating, ownGroups, ownNamespaces, selectedNamespaces: targets });
          const key = `${sub.name}\u0000${w.generateName}\u0000${JSON.stringify(reach)}`;
          if (reach.length === 0 || seen.has(key)) continue;
          seen.add(key);
          out.push({
            code: CODE.TenantWebhookBeyondNamespace,
            field: `subscriptions[${sub.name}]`,
            value: `${bundle.name} ${w.generateName}`,
            message: `OLM creates the ${mutating ? 'mutating' : 'validating'} webhook ${w.generateName} of ${bundle.name}${ctx.allNamespaces ? ' for an AllNamespaces OperatorGroup (no namespaceSelector)' : ''}: it ${describeReach(reach)}`,
            fix: ctx.allNamespaces
              ? 'target the tenant\'s own namespaces if the operator supports it (OLM then confines the webhook to them), have a cluster admin install this operator, or lower OLMT-051 with policyChecks'
              : 'have a cluster admin install this operator, or lower OLMT-051 with policyChecks (cluster-scoped kinds are not confined by a namespaceSelector)',
          });
        }
      }
    }
  }

  /** One Subscription per package; removed operators not subscribed; a bundle for every derived Subscription. */
  private subscriptionErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const p = ctx.props;
    const byPackage = new Map<string, OperatorSubscription[]>();
    for (const s of ctx.subscriptions.all) byPackage.set(s.packageName, [...(byPackage.get(s.packageName) ?? []), s]);
    for (const [pkg, list] of byPackage) {
      if (list.length < 2) continue;
      out.push({
        code: CODE.DuplicateSubscription,
        field: `subscriptions[${pkg}]`,
        value: pkg,
        message: `package '${pkg}' is subscribed ${list.length} times (${list.map((s) => s.node.path).join(', ')}); OLM resolves a namespace as one unit and cannot install a package twice`,
        fix: 'keep one subscribe() call per package',
      });
    }
    for (const r of ctx.dayTwo.removedOperators) {
      if (!byPackage.has(r.packageName)) continue;
      out.push({
        code: CODE.RemovedOperatorStillSubscribed,
        field: `removeOperator(${r.packageName})`,
        value: r.csvName,
        message: `package '${r.packageName}' is removed and subscribed at the same time`,
        fix: 'drop the subscribe() call of the package, or the removeOperator() call',
      });
    }
    if (p.deriveInstallerRules) {
      // a pin outside the upgrade graph is reported once, by the Subscription (its bundle is missing because of it)
      for (const s of ctx.subscriptions.all.filter((x) => x.bundles.length === 0 && !x._pinReported)) {
        out.push({
          code: CODE.DeriveWithoutBundle,
          field: `subscriptions[${s.name}].bundle`,
          value: s.packageName,
          message: 'deriveInstallerRules is on but this Subscription has no bundle, so nothing grants what OLM needs to install it',
          fix: s.upgradeGraph
            ? 'load the upgrade graph with the pinned CSV\'s bundle (UpgradeGraph.fromBundles or fromCatalogPackage), or set `bundle`'
            : 'set the Subscription\'s `bundle` to the version OLM installs (OperatorBundle.fromDirectory(...)), or add the rules with addInstallerRule',
        });
      }
    }
  }

  /**
   * Bundle ClusterRoles whose labels a shared aggregated role (built-in view/edit/admin, an OperatorGroup's role)
   * selects and that hold sensitive grants it lacks: OLM creates them, and every holder of that role gets the grants
   * (shared-role-aggregation.ts).
   */
  private sharedRoleErrors(out: DiagnosticDetails[]): void {
    for (const s of this.t.subscriptions.all) {
      const seen = new Set<string>();
      for (const b of s.bundles) {
        for (const o of b.objects) {
          if (o.kind !== 'ClusterRole') continue;
          const joined = sharedRoleAggregation(o.raw);
          const key = joined && `${b.name}\u0000${o.source}`;
          if (!joined || seen.has(key!)) continue;
          seen.add(key!);
          out.push({
            code: CODE.SensitiveRulesAggregateIntoSharedRole,
            field: `subscriptions[${s.name}].bundle`,
            value: `${b.name} ${o.source}`,
            message: `${sharedRoleAggregationText(joined)}; OLM creates it from bundle ${b.name} (${o.source})`,
            fix: 'have a cluster admin review and install this operator, or choose a version whose aggregated roles read only its own kinds',
          });
        }
      }
    }
  }

  /** Opt-ins whose reason is empty or that have nothing to apply to. */
  private reasonErrors(out: DiagnosticDetails[]): void {
    const p = this.t.props;
    if (p.clusterScopedInstallerRulesReason !== undefined && !p.deriveInstallerRules) {
      out.push({
        code: CODE.ClusterScopedReasonWithoutDerive,
        field: 'clusterScopedInstallerRulesReason',
        value: p.clusterScopedInstallerRulesReason,
        message: 'a reason for derived installer rules outside the tenant namespace is given, but deriveInstallerRules is off, so nothing is derived',
        fix: 'set deriveInstallerRules: true, or drop clusterScopedInstallerRulesReason and grant explicit rules with clusterInstallerRules',
      });
    }
    (p.allowedBindRoles ?? []).forEach((a, i) => {
      if (a.reason.trim() !== '') return;
      out.push({
        code: CODE.EmptyBindRoleReason,
        field: `allowedBindRoles[${i}].reason`,
        value: a.reason,
        message: `the reason for letting the installer bind ${a.roleKind} '${a.roleName}' is empty, so the acceptance does not count`,
        fix: 'say why the installer may bind this role (it is written to the annotation cdk8s-olm-tenancy.io/bind-roles), or drop the entry',
      });
    });
    (p.acceptedSensitiveGrants ?? []).forEach((a, i) => {
      if (a.reason.trim() !== '') return;
      out.push({
        code: CODE.EmptySensitiveGrantReason,
        field: `acceptedSensitiveGrants[${i}].reason`,
        value: a.reason,
        message: `the reason for accepting SensitiveGrant.${a.grant} is empty, so the acceptance does not count`,
        fix: `say why the installer may hold it (it is written to the annotation ${SENSITIVE_GRANTS_ANNOTATION}), or drop the entry`,
      });
    });
    if ((p.allowedBindRoles ?? []).length > 0 && !p.deriveInstallerRules) {
      out.push({
        code: CODE.BindRolesWithoutDerive,
        field: 'allowedBindRoles',
        value: (p.allowedBindRoles ?? []).map((a) => `${a.roleKind} ${a.roleName}`).join(', '),
        message: 'roles are accepted for derived binds, but deriveInstallerRules is off, so nothing is derived',
        fix: 'set deriveInstallerRules: true, or drop allowedBindRoles',
      });
    }
    if (p.clusterScopedInstallerRulesReason !== undefined && p.clusterScopedInstallerRulesReason.trim() === '') {
      out.push({
        code: CODE.EmptyClusterScopedReason,
        field: 'clusterScopedInstallerRulesReason',
        value: p.clusterScopedInstallerRulesReason,
        message: 'the reason for installer rules outside the tenant namespace is empty',
        fix: 'say which operator needs them and why (it is written to the objects)',
      });
    }
  }

  /** What the whole App shows: cross-tenant conflicts, the approver's reach, objects written twice. */
  private appErrors(out: DiagnosticDetails[]): void {
    const ctx = this.t;
    const tenant = ctx.tenant;
    out.push(...TenantTree.conflictsOf(tenant));
    // the pinned approver where a tenant's identities can run as it (approver-reach.ts; none in the platform namespace)
    const approver = ctx.dayTwo.approver;
    if (approver && KubernetesNames.isDns1123Label(approver.approverNamespace)) {
      out.push(...approverReachFindings(approver, TenantTree.tenantsIn(tenant, [approver.approverNamespace]).map((t) => t.auditFacts())));
    }
    // the same group/kind/namespace/name written twice in the App (duplicate-objects.ts)
    // (not repeated where a more precise error says it: another tenant on this namespace is TooManyOperatorGroups,
    // two Subscriptions of this tenant with one name are DuplicateSubscription/DuplicateSubscriptionName)
    for (const [obj, all] of TenantTree.duplicatesOf(tenant)) {
      const others = all.filter((o) => {
        const owner = TenantTree.tenantOf(o);
        if (owner && owner !== tenant && owner.namespaceName === tenant.namespaceName) return false;
        return !(owner === tenant && o.kind === 'Subscription' && o.apiVersion.startsWith('operators.coreos.com/'));
      });
      if (others.length > 0) out.push(duplicateObjectError(obj, others, TenantTree.tenantPathOf, obj.node.path.slice(tenant.node.path.length + 1)));
    }
  }

  /** Subscriptions of different packages with one name. */
  private subscriptionNameErrors(out: DiagnosticDetails[]): void {
    const byName = new Map<string, OperatorSubscription[]>();
    for (const s of this.t.subscriptions.all) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    for (const [subName, list] of byName) {
      if (list.length < 2 || new Set(list.map((s) => s.packageName)).size < 2) continue;
      out.push({
        code: CODE.DuplicateSubscriptionName,
        field: `subscriptions[${subName}]`,
        value: subName,
        message: `${list.length} Subscriptions are named '${subName}' (${list.map((s) => s.node.path).join(', ')})`,
        fix: 'give each subscription its own `name`',
      });
    }
  }

  /** An `InvalidName` error when `value` breaks `rule`. */
  private invalidName(out: DiagnosticDetails[], field: string, value: string | undefined, rule: NameRule, kind: string): void {
    if (value === undefined) return;
    const problem = KubernetesNames.problem(value, rule);
    if (!problem) return;
    const shape = rule === NameRule.DNS1123_LABEL ? 'a lower-case RFC 1123 label (at most 63 characters)' : rule === NameRule.DNS1123_SUBDOMAIN ? 'a lower-case RFC 1123 subdomain (at most 253 characters)' : "a name without '/' or '%'";
    out.push({ code: CODE.InvalidName, field, value, message: `${kind} name ${problem}`, fix: `use ${shape}` });
  }
}
