import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { GlobalOperatorInstallProps, GlobalOperatorOptions } from './global-operator-install-props';
import { GlobalOperatorPermissionPreview } from './global-operator-permission-preview';
import { registerGlobalOperators } from '../audit/audit-fingerprint';
import { GlobalOperatorFacts } from '../audit/global-operator-drivers';
import { enableTenancyAudit, globalOperatorDiagnostics } from '../audit/tenancy-audit-validation';
import { clusterTargetsOf } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer } from '../core/diagnostics';
import { InputCheck, INPUT_CODES, prop } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';
import { l1Metadata } from '../core/l1-metadata';
import * as olm from '../imports/olm';
import { OlmGeneration } from '../olm/olm-naming';
import { PlatformOperatorGroup, platformOperatorGroups } from '../olm/platform-operator-groups';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { OperatorSubscription } from '../tenant/subscriptions/operator-subscription';
import { InstallPlanApproval } from '../tenant/subscriptions/operator-subscription-props';
import { REASON_ANNOTATION } from '../tenant/tenant-annotations';

/** One operator of a `GlobalOperatorInstall`. */
export interface GlobalOperator {
  /** Its Subscription. */
  readonly subscription: OperatorSubscription;
  /** What its ServiceAccounts get (unknown without a bundle). */
  readonly preview: GlobalOperatorPermissionPreview;
  /**
   * Why tenant identities may create objects of its APIs.
   * @default - not accepted
   */
  readonly tenantsMayDriveReason?: string;
}

/**
 * Operators the platform team installs itself, for all namespaces, as OLM's default global install does: a namespace
 * of their own, an AllNamespaces OperatorGroup without `spec.serviceAccountName` (OLM installs them with its own
 * cluster-admin client), one Subscription per `install`. The most powerful install of a platform, so it is made
 * visible: TENANCY.md lists these operators first with what their ServiceAccounts can do
 * (`GlobalOperatorPermissionPreview`), and the audit names every tenant identity that may create objects of their
 * APIs (`TenantCanDriveGlobalOperator`, OLMT-055: a synth error unless `tenantsMayDriveReason` accepts it).
 */
export class GlobalOperatorInstall extends Construct {
  /** The default install namespace. */
  public static readonly DEFAULT_NAMESPACE = 'platform-operators';

  /** The install namespace. */
  public readonly namespaceName: string;
  /** The OperatorGroup's name. */
  public readonly operatorGroupName: string;
  /** Why these operators run with OLM's own client (the OperatorGroup's reason annotation). */
  public readonly reason: string;
  /**
   * The Namespace (L1).
   * @default - none with `useExistingOperatorGroup` (the platform's namespace)
   */
  public readonly namespace?: k8s.KubeNamespace;
  /**
   * The AllNamespaces OperatorGroup (L1).
   * @default - none with `useExistingOperatorGroup` (the platform's group)
   */
  public readonly operatorGroup?: olm.OperatorGroup;
  /** Whether the operators are installed into the platform's own OperatorGroup (`useExistingOperatorGroup`). */
  public readonly usesExistingOperatorGroup: boolean;
  private readonly defaultApproval: InstallPlanApproval;
  private readonly olmGeneration?: OlmGeneration;
  private readonly installed: Array<{ subscription: OperatorSubscription; reason?: string; input: InputCheck }> = [];
  private readonly input = new InputCheck();
  private readonly existingGroupProblems: DiagnosticDetails[];

  constructor(scope: Construct, id: string, props: GlobalOperatorInstallProps) {
    super(scope, id);
    const check = this.input;
    const raw = check.requiredObject('props', props, 'GlobalOperatorInstallProps', "pass { reason: 'why the platform installs these operators for all namespaces' }");
    if (raw) check.knownProps(raw, 'GlobalOperatorInstallProps', 'GlobalOperatorInstall');
    const reason = check.requiredString('reason', prop(raw, 'reason'), 'say why these operators run for all namespaces with OLM\'s own client (who reviewed it, ticket)');
    if (reason !== undefined && reason.trim() === '') {
      check.add({ code: INPUT_CODES.value, field: 'reason', value: reason, message: 'reason is empty', fix: 'say why these operators run for all namespaces with OLM\'s own client (who reviewed it, ticket)' });
    }
    const namespaceName = check.name('namespaceName', check.optionalString('namespaceName', prop(raw, 'namespaceName')), NameRule.DNS1123_LABEL, 'Namespace')
      ?? GlobalOperatorInstall.DEFAULT_NAMESPACE;
    const useExisting = check.optionalBoolean('useExistingOperatorGroup', prop(raw, 'useExistingOperatorGroup')) === true;
    const existing = platformOperatorGroups(clusterTargetsOf(this)).filter((g) => g.namespace === namespaceName);
    const operatorGroupName = check.name('operatorGroupName', check.optionalString('operatorGroupName', prop(raw, 'operatorGroupName')), NameRule.DNS1123_SUBDOMAIN, 'OperatorGroup')
      ?? (useExisting ? existing[0]?.name : undefined) ?? namespaceName;
    const approval = prop(raw, 'installPlanApproval');
    if (approval !== undefined && !Object.values(InstallPlanApproval).includes(approval as InstallPlanApproval)) {
      check.add({ code: INPUT_CODES.value, field: 'installPlanApproval', value: String(approval), message: `installPlanApproval must be an InstallPlanApproval, got ${JSON.stringify(approval)}`, fix: 'use InstallPlanApproval.MANUAL or InstallPlanApproval.AUTOMATIC' });
    }
    const generation = prop(raw, 'olmGeneration');
    if (generation !== undefined && !Object.values(OlmGeneration).includes(generation as OlmGeneration)) {
      check.add({ code: INPUT_CODES.value, field: 'olmGeneration', value: String(generation), message: `olmGeneration must be an OlmGeneration, got ${JSON.stringify(generation)}`, fix: 'use an OlmGeneration value, or leave it out' });
    }
    this.namespaceName = namespaceName;
    this.operatorGroupName = operatorGroupName;
    this.usesExistingOperatorGroup = useExisting;
    this.reason = reason ?? '';
    this.defaultApproval = (approval as InstallPlanApproval | undefined) ?? InstallPlanApproval.MANUAL;
    this.olmGeneration = generation as OlmGeneration | undefined;

    if (!useExisting) {
      this.namespace = new k8s.KubeNamespace(this, 'Namespace', { metadata: l1Metadata({ name: namespaceName }) });
      this.operatorGroup = new olm.OperatorGroup(this, 'OperatorGroup', {
        metadata: l1Metadata({
          name: operatorGroupName, namespace: namespaceName, annotations: reason ? { [REASON_ANNOTATION]: reason } : undefined,
        }),
        // no targetNamespaces: AllNamespaces; no serviceAccountName: OLM installs with its own client
        spec: {},
      });
    }
    this.existingGroupProblems = existingGroupProblems(namespaceName, useExisting, existing);

    registerGlobalOperators(this, () => this.facts());
    enableTenancyAudit(this);
    addErrorProducer(this, () => [...this.problems(), ...globalOperatorDiagnostics(this).errors]);
    addWarningProducer(this, () => globalOperatorDiagnostics(this).warnings);
  }

  /**
   * Installs an operator for all namespaces: a Subscription in the install namespace (with every check of
   * `OperatorSubscription`). `installPlanApproval` defaults to the install's (Manual).
   */
  public install(options: GlobalOperatorOptions): OperatorSubscription {
    const input = new InputCheck(`install(${typeof prop(options, 'packageName') === 'string' ? prop(options, 'packageName') : '?'}).`);
    const reason = input.optionalString('tenantsMayDriveReason', prop(options, 'tenantsMayDriveReason'), { fix: 'say why tenants may drive this operator (who reviewed it, ticket)' });
    if (reason !== undefined && reason.trim() === '') {
      input.add({ code: INPUT_CODES.value, field: 'tenantsMayDriveReason', value: reason, message: 'tenantsMayDriveReason is empty', fix: 'say why tenants may drive this operator (who reviewed it, ticket), or leave it out' });
    }
    const { tenantsMayDriveReason: _reason, ...subscription } = (options ?? {}) as GlobalOperatorOptions;
    const packageName = typeof subscription.packageName === 'string' ? subscription.packageName : '';
    // a second install of a package gets its own construct id: the duplicate is reported as an error, not a throw
    const taken = this.installed.filter((i) => i.subscription.packageName === packageName).length;
    const sub = new OperatorSubscription(this, taken === 0 ? packageName || 'Subscription' : `${packageName}-${taken + 1}`, {
      ...subscription,
      installPlanApproval: subscription.installPlanApproval ?? this.defaultApproval,
      namespace: this.namespaceName,
    });
    this.installed.push({ subscription: sub, reason: reason !== undefined && reason.trim() !== '' ? reason : undefined, input });
    return sub;
  }

  /** The operators installed, in install order, with their permission previews. */
  public get operators(): GlobalOperator[] {
    return this.installed.map((i) => ({
      subscription: i.subscription,
      preview: GlobalOperatorPermissionPreview.of({
        namespace: this.namespaceName,
        operatorGroupName: this.operatorGroupName,
        bundle: i.subscription.bundles[0],
        olmGeneration: this.olmGeneration,
      }),
      ...(i.reason !== undefined ? { tenantsMayDriveReason: i.reason } : {}),
    }));
  }

  private facts(): GlobalOperatorFacts[] {
    return this.installed.map((i) => ({
      install: this.node.path,
      namespace: this.namespaceName,
      operatorGroupName: this.operatorGroupName,
      packageName: i.subscription.packageName,
      ...(i.subscription.bundles[0] ? { bundle: i.subscription.bundles[0] } : {}),
      ...(i.reason !== undefined ? { acceptedReason: i.reason } : {}),
      ...(this.olmGeneration !== undefined ? { olmGeneration: this.olmGeneration } : {}),
    }));
  }

  private problems(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.input.errors, ...this.installed.flatMap((i) => i.input.errors), ...this.existingGroupProblems];
    const ns = this.namespaceName;
    // the install namespace is nobody's tenant namespace nor target: a tenant's identities would share it with
    // operators that run with cluster-wide rights
    for (const t of this.node.root.node.findAll().filter((c): c is ScopedOperatorTenant => c instanceof ScopedOperatorTenant)) {
      if (t.namespaceName === ns || t.targetNamespaces.includes(ns)) {
        out.push({
          code: CODE.GlobalInstallInTenantNamespace,
          field: 'namespaceName',
          value: ns,
          message: `namespace ${ns} is ${t.namespaceName === ns ? 'the namespace' : 'a target namespace'} of tenant ${t.node.path}: its identities would share it with operators that run with cluster-wide rights`,
          fix: `give the global install a namespace of its own (namespaceName, default '${GlobalOperatorInstall.DEFAULT_NAMESPACE}')`,
        });
      }
    }
    // one Subscription per package: OLM fails the second CSV owning the same APIs in intersecting OperatorGroups
    // (InterOperatorGroupOwnerConflict, pkg/controller/operators/olm/operatorgroup.go); an AllNamespaces group
    // intersects every other group
    const seen = new Set<string>();
    for (const i of this.installed) {
      const pkg = i.subscription.packageName;
      if (pkg === '') continue;
      if (seen.has(pkg)) {
        out.push({
          code: CODE.DuplicateGlobalOperator,
          field: `install(${pkg})`,
          value: pkg,
          message: `package ${pkg} is installed twice in namespace ${ns}: OLM resolves one Subscription per package and fails the second CSV owning the same APIs (InterOperatorGroupOwnerConflict)`,
          fix: `remove the second install(${pkg})`,
        });
      }
      seen.add(pkg);
    }
    const mine = new Set(this.installed.map((i) => i.subscription));
    for (const other of this.node.root.node.findAll().filter((c): c is OperatorSubscription => c instanceof OperatorSubscription && !mine.has(c))) {
      if (!seen.has(other.packageName)) continue;
      out.push({
        code: CODE.DuplicateGlobalOperator,
        field: `install(${other.packageName})`,
        value: other.node.path,
        message: `package ${other.packageName} is installed for all namespaces here and subscribed again by ${other.node.path} (namespace ${other.namespace}): `
          + 'OLM fails the second CSV owning the same APIs in an OperatorGroup that intersects this AllNamespaces group (InterOperatorGroupOwnerConflict)',
        fix: 'remove one of the two; tenants use the global operator\'s APIs',
      });
    }
    return out;
  }
}

/**
 * A second OperatorGroup in a namespace where the platform's OLM keeps one stops every install there
 * (`TooManyOperatorGroups`); `useExistingOperatorGroup` installs into the platform's AllNamespaces group instead, and
 * needs one.
 */
function existingGroupProblems(namespace: string, useExisting: boolean, existing: PlatformOperatorGroup[]): DiagnosticDetails[] {
  const global = existing.find((g) => g.allNamespaces);
  if (!useExisting) {
    return existing.map((g) => ({
      code: CODE.NamespaceHasOperatorGroup,
      field: 'namespaceName',
      value: namespace,
      message: `${g.platform} already keeps the OperatorGroup '${g.name}' in namespace ${namespace} (${g.source}): a second one makes OLM refuse every `
        + 'install there (TooManyOperatorGroups), the ones already in the namespace included',
      fix: g.allNamespaces
        ? `install into the platform's group instead: useExistingOperatorGroup: true (the Subscriptions only), or give the install a namespace of its own (namespaceName, default '${GlobalOperatorInstall.DEFAULT_NAMESPACE}')`
        : `give the install a namespace of its own (namespaceName, default '${GlobalOperatorInstall.DEFAULT_NAMESPACE}'): '${g.name}' targets only ${namespace}, it is no global install`,
    }));
  }
  if (global) return [];
  return [{
    code: CODE.NoExistingOperatorGroup,
    field: 'useExistingOperatorGroup',
    value: namespace,
    message: existing.length > 0
      ? `the OperatorGroup '${existing[0].name}' the platform keeps in namespace ${namespace} targets only that namespace: operators installed there would not serve every namespace`
      : `the platform declared in TenancyAppProps.targets keeps no AllNamespaces OperatorGroup in namespace ${namespace}, so no OperatorGroup would select the Subscriptions and OLM would install nothing`,
    fix: 'use the platform\'s global namespace (openshift-operators on OpenShift, operators with upstream OLM; declare the platform in TenancyAppProps.targets), or drop useExistingOperatorGroup (the install then writes its own OperatorGroup)',
  }];
}
