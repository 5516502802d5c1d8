import { ISubject, k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { tenantAcceptedDecisions } from './checks/accepted-decisions';
import { TenantFindings } from './checks/tenant-findings';
import { TenantTree } from './checks/tenant-tree';
import { checkAllowInstaller, CheckedTenantProps, checkRemovedOperator, checkSubject, checkTenantProps } from './input-checks';
import { checksChildNames, checksNamespace, orderAfter } from './private';
import { CompactRole } from './rbac/compact-role';
import { crdPluralOf, folderObjectsOf, GitOpsApplier, markPlatformApplied, selfServiceRules } from './rbac/gitops-applier';
import { InstallerIdentity } from './rbac/installer-identity';
import { InstallerRbac } from './rbac/installer-rbac';
import { InstallerSensitiveGrants } from './rbac/installer-sensitive-grants';
import { SubjectRoleBinding } from './rbac/subject-role-binding';
import { AllowInstallerProps, RemovedOperatorOptions, ScopedOperatorTenantProps, TenantAccessGrant, TenantGitOpsSource, TenantSensitiveGrant } from './scoped-operator-tenant-props';
import { OperatorSubscription } from './subscriptions/operator-subscription';
import { SubscriptionInfo, SubscriptionOptions } from './subscriptions/operator-subscription-props';
import { IOperatorTenant, TenantGrant } from '../catalog/operator-tenant';
import { PeopleAccess, PeopleGrantFacts } from './rbac/people-access';
import { PinnedApproverOptions, PinnedInstallPlanApprover } from './subscriptions/pinned-install-plan-approver';
import { TenantDayTwo } from './subscriptions/tenant-day-two';
import { TenantSubscriptions, uniqueBundles } from './subscriptions/tenant-subscriptions';
import { SystemNamespaces } from './system-namespaces';
import { TargetNamespaces } from './target-namespaces';
import * as annotations from './tenant-annotations';
import { registerAuditedTenant } from '../audit/audit-fingerprint';
import { AuditedTenant } from '../audit/audited-tenant';
import { TenancyAudit } from '../audit/tenancy-audit';
import { enableTenancyAudit, tenancyAuditDiagnostics } from '../audit/tenancy-audit-validation';
import { OperatorBundle } from '../bundle/operator-bundle';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addAcceptanceProducer, addErrorProducer, addWarningProducer, Diagnostics } from '../core/diagnostics';
import { gitOpsIdentitiesOf } from '../core/gitops-identities';
import { InputCheck } from '../core/input-check';
import { KubernetesNames } from '../core/kubernetes-names';
import { l1Metadata } from '../core/l1-metadata';
import { acceptanceNotAllowed, neverAcceptableOf } from '../core/never-acceptable';
import { PolicyChecks, PolicySeverity } from '../core/policy-checks';
import { PassMemo } from '../core/synth-pass';
import * as olm from '../imports/olm';
import { OlmApiAccess, OlmGeneratedRbac } from '../olm/olm-generated-rbac';
import { AccessLevel, OlmGeneration } from '../olm/olm-naming';
import { refuseUnfaithfulOutputOnPlainApps } from '../output/faithful-output';
import { PreflightResult } from '../preflight/install-preflight';
import { PolicyRule } from '../rbac/policy-rule';
import { UpgradeAnalysisResult } from '../upgrade/upgrade-analysis';


/** A tenant's audit findings (with its policy checks), read by its errors and its warnings: once per synthesis pass. */
const AUDIT_FINDINGS = new PassMemo<{ errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] }>();
/**
 * One tenant namespace where a non-cluster-admin can install operators with OLM, following OLM's scoped operator
 * install (OLM `doc/design/scoped-operator-install.md`; OKD "Allowing non-cluster administrators to install
 * Operators"). Synthesizes, in dependency order: Namespace, installer ServiceAccount, its token Secret, the
 * installer Role and RoleBinding, the OperatorGroup naming the ServiceAccount, then the Subscriptions.
 *
 * The construct coordinates parts with one job each: the installer's identity (`installer-identity.ts`) and RBAC
 * (`installer-rbac.ts`, with the derived rules), its accepted sensitive grants (`installer-sensitive-grants.ts`), the
 * Subscriptions with their preflight and upgrade checks (`tenant-subscriptions.ts`), people's access
 * (`people-access.ts`), the approver and off-boarding (`tenant-day-two.ts`), the findings (`tenant-findings.ts`) and
 * the App-wide view of all tenants (`tenant-tree.ts`).
 */
export class ScopedOperatorTenant extends Construct implements IOperatorTenant {
  /** OperatorGroup annotation that carries the reason for targets other than the own namespace. */
  public static readonly TARGETS_REASON_ANNOTATION = annotations.TARGETS_REASON_ANNOTATION;
  /** Annotation that says why an installer grant outside the tenant namespace exists. */
  public static readonly REASON_ANNOTATION = annotations.REASON_ANNOTATION;
  /** Installer Role annotation that says which versions its derived rules cover (a `DeriveScope` value). */
  public static readonly DERIVE_SCOPE_ANNOTATION = annotations.DERIVE_SCOPE_ANNOTATION;
  /** Annotation on an installer Role or ClusterRole naming every role it may `bind` (derived), and why. */
  public static readonly BIND_ROLES_ANNOTATION = annotations.BIND_ROLES_ANNOTATION;
  /**
   * Annotation on the installer Role and ClusterRole naming the sensitive grants (`SensitiveGrant`) they hold because
   * they were accepted (`acceptedSensitiveGrants` with its reason, `allowedSensitiveGrants`), or, on the Role, because
   * the bundles' own Roles grant them in the namespace (OLM's RBAC escalation check makes the installer hold them).
   */
  public static readonly SENSITIVE_GRANTS_ANNOTATION = annotations.SENSITIVE_GRANTS_ANNOTATION;
  /** Annotation that says why the tenant reaches into system namespaces (see `systemNamespacesReason`). */
  public static readonly SYSTEM_NAMESPACES_REASON_ANNOTATION = annotations.SYSTEM_NAMESPACES_REASON_ANNOTATION;

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
  /** Wrong-typed or unusable props and method arguments (reported first at synth). */
  private readonly input = new InputCheck();
  private readonly rbac: InstallerRbac;
  private readonly grants: InstallerSensitiveGrants;
  private readonly subs: TenantSubscriptions;
  private readonly people: PeopleAccess;
  private readonly dayTwo: TenantDayTwo;
  private readonly gitOps: GitOpsApplier[];

  constructor(scope: Construct, id: string, props: ScopedOperatorTenantProps) {
    super(scope, id);
    checksChildNames(this); // its Roles and bindings get names checked here
    // Runtime input checks first (JavaScript and jsii callers have no compile-time types): each problem is a synth
    // error, and everything below works on values of the declared types.
    const p = checkTenantProps(this.input, props);
    this.props = p;
    const ns = p.namespaceName ?? '';
    this.namespaceName = ns;
    checksNamespace(this, ns); // an invalid name is this tenant's error (nameErrors), not its approver's too
    this.operatorGroupName = p.operatorGroupName ?? ns;
    this.installerServiceAccountName = p.installerServiceAccountName ?? ns;
    this.installerRoleName = p.installerRoleName ?? this.installerServiceAccountName;
    this.olmGeneration = p.olmGeneration ?? OlmGeneration.V0_26_AND_LATER;
    this.targets = p.targetNamespaces ?? TargetNamespaces.ownNamespace();
    this.allNamespaces = this.targets.isAllNamespaces;

    // 1.-3. Namespace, installer ServiceAccount, token Secret
    const identity = new InstallerIdentity(this, ns, this.installerServiceAccountName, p);
    this.namespace = identity.namespace;
    this.installerServiceAccount = identity.serviceAccount;
    this.tokenSecret = identity.tokenSecret;

    // 4. installer Role + RoleBinding, cluster-scoped rules, legacy pull secrets (the grants read the rules lazily)
    this.grants = new InstallerSensitiveGrants({
      scope: this,
      namespace: ns,
      props: p,
      operatorRbacBeyondNamespace: () => this.allNamespaces || this.targetNamespaces.some((t) => t !== ns),
      bundles: () => this.subs.bundles,
      installerRules: () => this.rbac.role.rawRules,
      clusterInstallerRules: () => this.rbac.clusterRole?.rawRules,
      isDerivedNamedBind: (rule) => this.rbac.isDerivedNamedBind(rule),
    });
    this.rbac = new InstallerRbac(this, {
      namespace: ns,
      serviceAccountName: this.installerServiceAccountName,
      serviceAccount: this.installerServiceAccount,
      roleName: this.installerRoleName,
      props: p,
      input: this.input,
      relaxes: (code) => this.relaxes(code),
      annotateGrants: (role, cluster) => this.grants.annotate(role, cluster),
    });
    this.installerRole = this.rbac.role;
    this.installerRoleBinding = this.rbac.roleBinding;
    for (const rule of p.clusterInstallerRules ?? []) this.addClusterInstallerRule(rule);
    if (p.legacyPullSecretAccess) this.rbac.addLegacyPullSecretAccess(p.legacyPullSecretAccess);

    // 5. OperatorGroup
    this.operatorGroup = this.createOperatorGroup();
    this.rbac.operatorGroup = this.operatorGroup;
    TenantTree.register(this);

    this.subs = new TenantSubscriptions({
      scope: this,
      namespace: ns,
      serviceAccountName: this.installerServiceAccountName,
      props: p,
      rbac: this.rbac,
      namespaceObject: this.namespace,
      targetNamespaces: () => this.targetNamespaces,
      namespaceIsValid: () => this.namespaceIsValid(),
      relaxes: (code) => this.relaxes(code),
      hasPinnedApprover: () => this.dayTwo.approver !== undefined,
      approverPins: () => this.dayTwo.approver?.pinnedCsvs ?? [],
      acceptedSensitiveGrants: () => this.grants.allowedGrants(),
    });
    this.people = new PeopleAccess(this, {
      namespace: ns,
      operatorGroupName: this.operatorGroupName,
      olmGeneration: this.olmGeneration,
      allNamespaces: this.allNamespaces,
      targetNamespaces: this.targetNamespaces,
      operatorGroup: this.operatorGroup,
    });
    this.dayTwo = new TenantDayTwo(ns, this.input);
    // 6. the GitOps identities, when the App writes Flux or Argo CD objects (docs/gitops.md "Who applies what")
    this.gitOps = this.createGitOpsIdentities();

    // plain cdk8s Apps: strings cdk8s's writer would write unfaithfully are refused (src/output/faithful-output.ts)
    refuseUnfaithfulOutputOnPlainApps(this);
    this.addValidations();
  }

  /** The tenant as the effective-power audit sees it (`TenancyAudit`). */
  public auditFacts(): AuditedTenant {
    return {
      name: this.node.path,
      namespace: this.namespaceName,
      targetNamespaces: this.targetNamespaces,
      operatorGroupName: this.operatorGroupName,
      installerServiceAccountName: this.installerServiceAccountName,
      olmGeneration: this.olmGeneration,
      bundles: uniqueBundles(this.installedBundles), // a package subscribed twice is an error of its own
      people: this.people.auditSubjects,
      acceptedReach: this.props.acceptedReach ?? [],
      ...(this.gitOps.length > 0 ? { gitOpsServiceAccounts: this.gitOps.map((a) => a.serviceAccount.name) } : {}),
    };
  }

  /** The tenant's own repository (`gitOpsSource`), if any. */
  public get gitOpsSource(): TenantGitOpsSource | undefined {
    return this.props.gitOpsSource;
  }

  /**
   * The GitOps identities of the tenant, as the audit names them (`ServiceAccount <namespace>/<name>`): the applier of
   * its folder, and with `gitOpsSource` the self-service identity of its own repository. Empty unless the App writes
   * Flux or Argo CD objects with tenant identities.
   */
  public get gitOpsIdentities(): string[] {
    return this.gitOps.map((a) => a.subject);
  }

  /**
   * The tenant's GitOps identities.
   * @internal
   */
  public get _gitOpsAppliers(): GitOpsApplier[] {
    return [...this.gitOps];
  }

  /** The applier of the tenant's folder and, with `gitOpsSource`, the identity of its own repository. */
  private createGitOpsIdentities(): GitOpsApplier[] {
    const names = gitOpsIdentitiesOf(this);
    if (names === undefined || !this.namespaceIsValid()) return [];
    // the installer identity (OLM acts as it) is the platform's: the applier never holds the installer's rules
    markPlatformApplied(this.installerServiceAccount, this.installerRole, this.installerRoleBinding, this.tokenSecret);
    const ns = this.namespaceName;
    const bundles = () => [...this.installedBundles, ...this.subs.all.flatMap((s) => s.bundles)];
    const appliers = [new GitOpsApplier(this, 'GitOpsApplier', {
      name: names.applier,
      homeNamespace: ns,
      namespaces: [ns],
      role: 'applier',
      folderObjects: () => folderObjectsOf(this, [ns], [], crdPluralOf(bundles())),
    })];
    if (this.props.gitOpsSource) {
      appliers.push(new GitOpsApplier(this, 'GitOpsSelfService', {
        name: names.selfService,
        homeNamespace: ns,
        namespaces: [ns],
        role: 'self-service',
        sourceUrl: this.props.gitOpsSource.url,
        selfServiceRules: () => ({ namespaced: selfServiceRules(bundles()), cluster: [] }),
      }));
    }
    return appliers;
  }

  /**
   * The subjects of `grantOperatorAccess` and `grantSubscriptionManagement`, per binding (the cross-tenant checks).
   * @internal
   */
  public _peopleGrants(): PeopleGrantFacts[] {
    return this.people.facts;
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
    return this.rbac.clusterRole?.rules ?? [];
  }

  /** The tenant's Subscriptions as plain data, in creation order. */
  public get subscriptions(): SubscriptionInfo[] {
    return this.subs.all.map((s) => s.info);
  }

  /**
   * Adds a rule to the installer Role. Equal rules are merged at synth time; forbidden grants are synth errors.
   */
  public addInstallerRule(rule: PolicyRule): void {
    this.rbac.addRule('addInstallerRule(rule)', rule);
  }

  /**
   * Lets the installer use `verbs` on `resources` of `apiGroup` in the tenant namespace (typed form of
   * `addInstallerRule`), e.g. `allowInstaller({ verbs: ['get', 'create'], apiGroup: '', resources: ['configmaps'] })`.
   */
  public allowInstaller(props: AllowInstallerProps): void {
    const checked = checkAllowInstaller(this.input, props);
    if (checked === undefined) return;
    const { verbs: v, apiGroup: g, resources: r, resourceNames: n } = checked;
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
    this.rbac.addClusterRule('addClusterInstallerRule(rule)', rule);
  }

  /**
   * Creates a Subscription in the tenant namespace. Its name defaults to the package name; subscribing to the
   * same package twice is a synth error.
   */
  public subscribe(options: SubscriptionOptions): OperatorSubscription {
    const sub = this.subs.create(this, this.operatorGroup, options);
    this.dayTwo.pin(sub);
    this.subs.announce(sub);
    // the derived rules (see `deriveInstallerRules`); a missing or invalid namespace is InvalidName / MissingInput
    if (this.props.deriveInstallerRules && sub.bundles.length > 0 && this.namespaceIsValid()) this.rbac.deriveFrom(sub, this.targetNamespaces);
    return sub;
  }

  /**
   * The install preflight of every Subscription that was given a bundle, in Subscription order (one result per
   * bundle): what OLM would do with the installer's current rules. Runs at synth time as a validation too.
   */
  public preflight(): PreflightResult[] {
    return this.subs.all.flatMap((s) => this.subs.preflightOf(s));
  }

  /**
   * The install preflight of the Subscription named `name` (one result per bundle: the installed one, then the
   * upgrade bundles); empty when it has no bundle or no such Subscription exists.
   */
  public subscriptionPreflight(name: string): PreflightResult[] {
    return this.subs.all.filter((s) => s.name === name).flatMap((s) => this.subs.preflightOf(s));
  }

  /**
   * Adds the GitOps InstallPlan approver (`PinnedInstallPlanApprover`) for the tenant namespace, once (it runs in
   * `approverNamespace`, by default the shared platform namespace): it approves an InstallPlan only when every CSV in
   * it is the `startingCsv` of one of the tenant's Manual Subscriptions. Pin a version in code
   * (`installPlanApproval: MANUAL`, `startingCsv`), and change the pin to upgrade.
   */
  public addPinnedApprover(options: PinnedApproverOptions = {}): PinnedInstallPlanApprover {
    return this.dayTwo.addPinnedApprover(this, options, this.namespace, this.subs.all);
  }

  /**
   * Calls `listener` with each bundle OLM installs first (`installedBundles`): now for the Subscriptions so far,
   * later for each new one (the baseline's webhook NetworkPolicies).
   * @internal
   */
  public _onInstalledBundle(listener: (bundle: OperatorBundle) => void): void {
    this.subs.onInstalledBundle(listener);
  }

  /**
   * The tenant's `policyChecks` (severities by policy id), for findings reported by constructs beside it.
   * @internal
   */
  public get _policyChecks(): { [id: string]: PolicySeverity } | undefined {
    return this.props.policyChecks;
  }

  /**
   * The upgrade analysis of every Subscription with an `upgradeGraph` that allows an upgrade, in Subscription order:
   * each allowed edge with the target's preflight (the installer's current rules) and the permission diff.
   */
  public upgrades(): UpgradeAnalysisResult[] {
    return this.subs.upgrades();
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
      operators: uniqueBundles(this.installedBundles).map((b) => OlmGeneratedRbac.memberOperator(b)),
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
  public grantOperatorAccess(subject: ISubject, level: AccessLevel): TenantGrant {
    const checkedSubject = checkSubject(this.input, 'grantOperatorAccess(subject)', subject);
    const checkedLevel = this.input.optionalEnum('grantOperatorAccess(level)', level ?? '', AccessLevel as any, 'AccessLevel');
    if (!checkedSubject || checkedLevel === undefined) return { roleBindings: [], roles: [] };
    const bindings = this.people.grantOperatorAccess(checkedSubject, level);
    return { roleBindings: bindings.map((b) => b.apiObject), roles: [] };
  }

  /**
   * Lets `subject` manage Subscriptions and approve InstallPlans (patch `spec.approved`) in the tenant namespace,
   * and read CSVs to follow the result. Never OperatorGroups or CatalogSources. (OLM's `aggregate-olm-edit`
   * already lets namespace admins/editors write Subscriptions; this makes the grant explicit for others.)
   */
  public grantSubscriptionManagement(subject: ISubject): TenantGrant {
    const checkedSubject = checkSubject(this.input, 'grantSubscriptionManagement(subject)', subject);
    if (!checkedSubject) return { roleBindings: [], roles: [] };
    const { role, binding } = this.people.grantSubscriptionManagement(checkedSubject);
    return { roleBindings: [binding.apiObject], roles: [role.apiObject] };
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
    if (checked) this.dayTwo.remove(checked);
  }

  /** The operators given to `removeOperator`, in call order. */
  public get removedOperators(): RemovedOperatorOptions[] {
    return this.dayTwo.removedOperators.map((r) => ({ ...r }));
  }

  /**
   * Who was granted what with `grantOperatorAccess` and `grantSubscriptionManagement`, sorted (for reports).
   */
  public get accessGrants(): TenantAccessGrant[] {
    return this.people.grants;
  }

  /**
   * The sensitive grants the installer holds because the tenant accepted them by name (`acceptedSensitiveGrants`,
   * `allowedSensitiveGrants`): the installer Role's first, then the ClusterRole's, each in `SensitiveGrant` order
   * (for reports; the same text is in the annotation `SENSITIVE_GRANTS_ANNOTATION`).
   */
  public get sensitiveGrants(): TenantSensitiveGrant[] {
    return this.grants.held();
  }

  /** The bundles given to `subscribe` as what OLM installs first, in Subscription order. */
  public get installedBundles(): OperatorBundle[] {
    return this.subs.installedBundles;
  }

  /** The OperatorGroup, with the reasons for its targets and the audit's opt-ins as annotations. */
  private createOperatorGroup(): olm.OperatorGroup {
    const p = this.props;
    const ns = this.namespaceName;
    const reason = this.targets.reason;
    const notes: { [key: string]: string } = reason !== undefined ? { [ScopedOperatorTenant.TARGETS_REASON_ANNOTATION]: reason } : {};
    if (p.systemNamespacesReason !== undefined && this.targetNamespaces.some((t) => t !== ns && SystemNamespaces.isSystemNamespace(t))) {
      notes[ScopedOperatorTenant.SYSTEM_NAMESPACES_REASON_ANNOTATION] = p.systemNamespacesReason;
    }
    // the audit's opt-ins, visible in the output (TenancyAudit)
    const accepted = (p.acceptedReach ?? []).map((a) => ({ code: a.code, subject: a.subject, reason: a.reason }));
    if (accepted.length > 0) notes[TenancyAudit.ACCEPTED_REACH_ANNOTATION] = JSON.stringify(accepted);
    const og = new olm.OperatorGroup(this, 'OperatorGroup', {
      metadata: l1Metadata({ name: this.operatorGroupName, namespace: ns, annotations: Object.keys(notes).length > 0 ? notes : undefined }),
      spec: {
        serviceAccountName: this.installerServiceAccountName,
        targetNamespaces: this.allNamespaces ? undefined : this.targetNamespaces,
        upgradeStrategy: p.upgradeStrategy as unknown as olm.OperatorGroupSpecUpgradeStrategy | undefined,
      },
    });
    // OLM < 0.29 reads the installer's token from this Secret when it acts for the OperatorGroup. (cdk8s emits a
    // node's dependencies depth-first in the order they were added: Secret first keeps the docs' order.)
    orderAfter(og, this.tokenSecret);
    orderAfter(og, this.installerRoleBinding);
    orderAfter(og, this.rbac.clusterRoleBinding);
    orderAfter(og, this.rbac.legacyPullSecretBinding);
    return og;
  }

  /** The findings as synth validations: the tenant's own (with its `policyChecks`) and the App's audit. */
  private addValidations(): void {
    const findings = new TenantFindings({
      tenant: this,
      props: this.props,
      input: this.input,
      targets: this.targets,
      allNamespaces: this.allNamespaces,
      operatorGroupName: this.operatorGroupName,
      olmGeneration: this.olmGeneration,
      operatorGroup: this.operatorGroup,
      rbac: this.rbac,
      grants: this.grants,
      subscriptions: this.subs,
      people: this.people,
      dayTwo: this.dayTwo,
    });
    // the decisions taken by name that leave no warning (TENANCY.md "Accepted risks")
    addAcceptanceProducer(this, () => tenantAcceptedDecisions({
      props: this.props,
      namespace: this.namespaceName,
      installerRoleName: this.installerRoleName,
      clusterInstallerRules: this.clusterInstallerRules.length,
      sensitiveGrants: this.sensitiveGrants,
      neverAcceptable: neverAcceptableOf(this),
    }));
    // policy checks: per-tenant severities (only computed both ways when the tenant changes some)
    const policyChecks = this.props.policyChecks;
    if (policyChecks === undefined || Object.keys(policyChecks).length === 0) {
      addErrorProducer(this, () => findings.errors());
      addWarningProducer(this, () => findings.warnings());
    } else {
      // a lowering of a check the platform lists as never acceptable counts for nothing (and is an error)
      const allowed = () => allowedSeverities(policyChecks, neverAcceptableOf(this));
      addErrorProducer(this, () => [
        ...PolicyChecks.overrideProblems(policyChecks, 'policyChecks'),
        ...allowed().refused,
        ...PolicyChecks.apply(findings.errors(), findings.warnings(), allowed().severities).errors,
      ]);
      addWarningProducer(this, () => PolicyChecks.apply(findings.errors(), findings.warnings(), allowed().severities).warnings);
    }
    // sensitive grants held by name (OLMT-003) when the platform lists OLMT-003 as never acceptable
    addErrorProducer(this, () => (neverAcceptableOf(this).has('OLMT-003') ? this.sensitiveGrants.map((g) => acceptanceNotAllowed({
      prop: (this.props.acceptedSensitiveGrants ?? []).some((a) => a.grant === g.grant) ? 'acceptedSensitiveGrants' : 'allowedSensitiveGrants',
      id: 'OLMT-003',
      finding: `the installer holds SensitiveGrant.${g.grant} (${g.what})`,
      value: g.grant,
      remove: 'remove the rule that holds the grant (or the operator that needs it)',
    })) : []));
    // the effective-power audit of the whole App (src/audit): reaches outside the tenant's namespaces fail the synth
    // (a tenant whose names are missing or invalid has synth errors already and is left out of the audit)
    if (this.namespaceIsValid() && KubernetesNames.isDns1123Subdomain(this.operatorGroupName)
      && this.targetNamespaces.every((t) => KubernetesNames.isDns1123Label(t))) {
      registerAuditedTenant(this, () => this.auditFacts(), () => this.rbac.rulesKey());
    }
    enableTenancyAudit(this);
    // read by the errors and the warnings: once per synthesis pass
    const audit = () => AUDIT_FINDINGS.get(this, this, () => {
      const found = tenancyAuditDiagnostics(this);
      return PolicyChecks.apply([...findings.acceptedReachErrors(), ...found.errors], found.warnings, policyChecks);
    });
    addErrorProducer(this, () => audit().errors);
    addWarningProducer(this, () => audit().warnings);
  }

  /** True when `policyChecks` lowers the check of `code` below ERROR for this tenant. */
  private relaxes(code: string): boolean {
    const id = PolicyChecks._idOf(code);
    const severity = id !== undefined ? this.props.policyChecks?.[id] : undefined;
    return severity !== undefined && severity !== PolicySeverity.ERROR;
  }

  /** False when the namespace name is missing or invalid (a synth error): nothing is derived or checked then. */
  private namespaceIsValid(): boolean {
    return this.props.namespaceName !== undefined && KubernetesNames.isDns1123Label(this.props.namespaceName);
  }
}

/**
 * The severities of `policyChecks` that count: a lowering of a check in `never` (TenancyAppProps.neverAcceptable)
 * is left out, and is an error naming the entry.
 */
function allowedSeverities(
  policyChecks: { [id: string]: PolicySeverity }, never: ReadonlySet<string>,
): { severities: { [id: string]: PolicySeverity }; refused: DiagnosticDetails[] } {
  const severities: { [id: string]: PolicySeverity } = {};
  const refused: DiagnosticDetails[] = [];
  const rank = (s: string) => [PolicySeverity.OFF, PolicySeverity.WARNING, PolicySeverity.ERROR].indexOf(s as PolicySeverity);
  for (const [id, severity] of Object.entries(policyChecks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const check = PolicyChecks.byId(id);
    if (check !== undefined && never.has(id) && rank(severity) >= 0 && rank(severity) < rank(check.severity)) {
      refused.push(acceptanceNotAllowed({ prop: 'policyChecks', field: `policyChecks[${id}]`, value: severity, id, remove: `remove '${id}' from policyChecks` }));
      continue;
    }
    severities[id] = severity;
  }
  return { severities, refused };
}
