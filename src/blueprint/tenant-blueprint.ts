import { Group } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkBlueprintProps, checkStampOptions } from './input-checks';
import { TenantBaseline, TenantBaselineOptions } from './tenant-baseline';
import { OperatorBundle } from '../bundle/operator-bundle';
import { ICatalogSource } from '../catalog/catalog-source';
import { addErrorProducer, DiagnosticDetails } from '../core/diagnostics';
import { describeValue, InputCheck, valueText } from '../core/input';
import { AccessLevel } from '../olm/olm-naming';
import { InstallPlanApproval } from '../tenant/operator-subscription-props';
import { PinnedApproverOptions } from '../tenant/pinned-install-plan-approver';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { PodSecurityLevel } from '../tenant/scoped-operator-tenant-props';
import { UpgradeGraph } from '../upgrade/upgrade-graph';

/** An operator every tenant stamped from a blueprint subscribes to. */
export interface BlueprintOperator {
  /** The package (Subscription `spec.name`). */
  readonly packageName: string;
  /**
   * The channel.
   * @default - the package's default channel
   */
  readonly channel?: string;
  /**
   * The bundle OLM installs (enables the preflight and derived installer rules).
   * @default - none
   */
  readonly bundle?: OperatorBundle;
  /**
   * Newer bundles the tenant may upgrade to (checked and derived too).
   * @default - none
   */
  readonly upgradeBundles?: OperatorBundle[];
  /**
   * The CSV to start from (a pin with Manual approval).
   * @default - the channel head
   */
  readonly startingCsv?: string;
  /**
   * Install plan approval.
   * @default - the blueprint's `installPlanApproval`
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * The channel's upgrade graph: every upgrade OLM would allow from the pinned CSV is checked (see
   * `SubscriptionOptions.upgradeGraph`).
   * @default - none
   */
  readonly upgradeGraph?: UpgradeGraph;
  /**
   * The versions allowed in the upgrade walk (see `SubscriptionOptions.versionRange`).
   * @default - every version of the graph
   */
  readonly versionRange?: string;
}

/** People a blueprint grants access in every stamped tenant; `{team}` in the group name is the team's name. */
export interface BlueprintGrant {
  /** Group name pattern, e.g. `{team}-admins`. */
  readonly groupName: string;
  /**
   * Access to the operators' APIs (the OperatorGroup's admin/edit/view ClusterRole).
   * @default - none
   */
  readonly access?: AccessLevel;
  /**
   * May manage Subscriptions and approve InstallPlans.
   * @default false
   */
  readonly subscriptionManagement?: boolean;
}

/** What a team may change when it stamps a blueprint (each is refused unless the blueprint allows it). */
export enum BlueprintOverride {
  /** Subscribe to operators beyond the blueprint's (they must still be offered by the blueprint's catalog). */
  EXTRA_OPERATORS = 'EXTRA_OPERATORS',
  /** Leave out some of the blueprint's operators. */
  OMIT_OPERATORS = 'OMIT_OPERATORS',
  /** Follow another channel of a blueprint operator. */
  CHANNELS = 'CHANNELS',
  /** Replace the baseline's ResourceQuota. */
  QUOTA = 'QUOTA',
}

/** Props of `TenantBlueprint`. */
export interface TenantBlueprintProps {
  /** The blueprint's name, written to every stamped Namespace as label `TenantBlueprint.LABEL`. */
  readonly name: string;
  /** The catalog every stamped tenant subscribes from (e.g. a `CuratedCatalog`, which then serves the tenant). */
  readonly catalog: ICatalogSource;
  /**
   * The operators every tenant gets.
   * @default - none
   */
  readonly operators?: BlueprintOperator[];
  /**
   * Namespace of a stamped tenant: `<namespacePrefix><team>`.
   * @default 'team-'
   */
  readonly namespacePrefix?: string;
  /**
   * Labels on every stamped Namespace.
   * @default - none
   */
  readonly namespaceLabels?: { [key: string]: string };
  /**
   * Pod Security Admission level of the stamped namespaces.
   * @default - the tenant's default
   */
  readonly podSecurity?: PodSecurityLevel;
  /**
   * Derive the installer rules from the operators' bundles (`ScopedOperatorTenantProps.deriveInstallerRules`).
   * @default true
   */
  readonly deriveInstallerRules?: boolean;
  /**
   * The opt-in for derived installer rules outside the namespace, with its reason
   * (`ScopedOperatorTenantProps.clusterScopedInstallerRulesReason`).
   * @default - none: operators needing cluster rules fail the preflight
   */
  readonly clusterScopedInstallerRulesReason?: string;
  /**
   * Install plan approval of the operators that do not say.
   * @default InstallPlanApproval.MANUAL - upgrades are reviewed
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * People's access in every stamped tenant.
   * @default - none
   */
  readonly grants?: BlueprintGrant[];
  /**
   * A `TenantBaseline` (quota, limits, network policies) in every stamped tenant.
   * @default - none
   */
  readonly baseline?: TenantBaselineOptions;
  /**
   * What teams may change when stamping.
   * @default - nothing
   */
  readonly allowedOverrides?: BlueprintOverride[];
  /**
   * Add the GitOps InstallPlan approver (`ScopedOperatorTenant.addPinnedApprover`) to every stamped tenant: it
   * approves only InstallPlans whose CSVs are all pinned (`startingCsv` of Manual operators).
   * @default - no approver
   */
  readonly pinnedApprover?: PinnedApproverOptions;
}

/** A team's changes to a blueprint, checked against `TenantBlueprintProps.allowedOverrides`. */
export interface BlueprintStampOptions {
  /**
   * Namespace of the tenant.
   * @default - `<namespacePrefix><team>`
   */
  readonly namespaceName?: string;
  /**
   * Extra operators (needs `BlueprintOverride.EXTRA_OPERATORS`).
   * @default - none
   */
  readonly extraOperators?: BlueprintOperator[];
  /**
   * Blueprint operators to leave out, by package (needs `BlueprintOverride.OMIT_OPERATORS`).
   * @default - none
   */
  readonly omitOperators?: string[];
  /**
   * Other channels of blueprint operators, by package (needs `BlueprintOverride.CHANNELS`).
   * @default - none
   */
  readonly channels?: { [packageName: string]: string };
  /**
   * The baseline's ResourceQuota `spec.hard` (needs `BlueprintOverride.QUOTA` and a blueprint baseline).
   * @default - the blueprint's
   */
  readonly quota?: { [resource: string]: string };
  /**
   * Extra Namespace labels (the blueprint's own labels win).
   * @default - none
   */
  readonly namespaceLabels?: { [key: string]: string };
}

/**
 * An organisation's standard tenant, captured once and stamped per team in one line:
 * `blueprint.stamp(chart, 'payments')` creates a `ScopedOperatorTenant` in `team-payments` with the blueprint's
 * catalog, operators, installer policy, people grants, namespace labels and baseline. A team's changes are
 * `BlueprintStampOptions`, each refused (a synth error naming it) unless the blueprint lists it in
 * `allowedOverrides`. A plain class (not a construct), so Python/Java/Go users hold one per organisation.
 */
export class TenantBlueprint {
  /** Namespace label naming the blueprint a tenant was stamped from. */
  public static readonly LABEL = 'cdk8s-olm-tenancy.io/blueprint';

  /** The blueprint's name. */
  public readonly name: string;
  private readonly props: TenantBlueprintProps;
  /** Wrong-typed props (JavaScript, jsii): reported as synth errors on every tenant stamped from the blueprint. */
  private readonly input = new InputCheck();

  constructor(props: TenantBlueprintProps) {
    const checkedProps = checkBlueprintProps(this.input, props);
    this.props = checkedProps;
    this.name = checkedProps.name;
  }

  /** The operators a team gets by default (package names, in order). */
  public get operatorPackages(): string[] {
    return (this.props.operators ?? []).map((o) => o.packageName);
  }

  /**
   * Creates the team's tenant under `scope` (construct id = `team`), with the blueprint's settings and the team's
   * allowed changes. Refused changes are synth errors on the tenant; the tenant is still built from the blueprint.
   */
  public stamp(scope: Construct, team: string, options: BlueprintStampOptions = {}): ScopedOperatorTenant {
    const p = this.props;
    const allowed = new Set(p.allowedOverrides ?? []);
    // runtime input checks (JavaScript, jsii): the blueprint's and the stamp's problems are the tenant's synth errors
    const stampInput = new InputCheck();
    // eslint-disable-next-line no-control-regex
    const teamOk = typeof team === 'string' && team.length <= 253 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029/]/.test(team);
    if (!teamOk) {
      stampInput.add({ code: 'InvalidInputType', field: 'team', value: valueText(team), message: `team must be a short string without '/' or control characters, got ${describeValue(team)}`, fix: "pass the team's name, e.g. 'payments'" });
    }
    team = teamOk ? team : 'invalid-team';
    options = checkStampOptions(stampInput, options);
    const errors: DiagnosticDetails[] = [...this.input.errors, ...stampInput.errors];
    const refuse = (override: BlueprintOverride, field: string, value: string) => errors.push({
      code: 'BlueprintOverrideNotAllowed',
      field,
      value,
      message: `blueprint '${this.name}' does not allow teams to change this (BlueprintOverride.${override} is not in its allowedOverrides)`,
      fix: `drop the override, or add BlueprintOverride.${override} to the blueprint's allowedOverrides`,
    });

    const labels: { [key: string]: string } = {
      ...(options.namespaceLabels ?? {}),
      ...(p.namespaceLabels ?? {}),
      [TenantBlueprint.LABEL]: this.name,
    };
    const tenant = new ScopedOperatorTenant(scope, team, {
      namespaceName: options.namespaceName ?? `${p.namespacePrefix ?? 'team-'}${team}`,
      namespaceLabels: labels,
      podSecurity: p.podSecurity,
      deriveInstallerRules: p.deriveInstallerRules ?? true,
      clusterScopedInstallerRulesReason: p.clusterScopedInstallerRulesReason,
    });
    addErrorProducer(tenant, () => errors);

    const known = new Set(this.operatorPackages);
    const omitted = new Set<string>();
    for (const pkg of options.omitOperators ?? []) {
      if (!allowed.has(BlueprintOverride.OMIT_OPERATORS)) {refuse(BlueprintOverride.OMIT_OPERATORS, 'omitOperators', pkg);} else if (!known.has(pkg)) {
        errors.push({
          code: 'BlueprintUnknownOperator',
          field: 'omitOperators',
          value: pkg,
          message: `blueprint '${this.name}' has no operator '${pkg}' to omit`,
          fix: `omit one of: ${[...known].join(', ') || '(none)'}`,
        });
      } else {omitted.add(pkg);}
    }
    for (const [pkg, channel] of Object.entries(options.channels ?? {})) {
      if (!allowed.has(BlueprintOverride.CHANNELS)) {refuse(BlueprintOverride.CHANNELS, `channels.${pkg}`, channel);} else if (!known.has(pkg)) {
        errors.push({
          code: 'BlueprintUnknownOperator',
          field: `channels.${pkg}`,
          value: channel,
          message: `blueprint '${this.name}' has no operator '${pkg}' whose channel could change`,
          fix: `name one of: ${[...known].join(', ') || '(none)'}, or add it with extraOperators`,
        });
      }
    }
    const channelOf = (o: BlueprintOperator) =>
      allowed.has(BlueprintOverride.CHANNELS) && options.channels?.[o.packageName] !== undefined ? options.channels[o.packageName] : o.channel;

    const operators: BlueprintOperator[] = (p.operators ?? [])
      .filter((o) => !omitted.has(o.packageName))
      .map((o) => ({ ...o, channel: channelOf(o) }));
    for (const extra of options.extraOperators ?? []) {
      if (!allowed.has(BlueprintOverride.EXTRA_OPERATORS)) refuse(BlueprintOverride.EXTRA_OPERATORS, 'extraOperators', extra.packageName);
      else operators.push(extra);
    }
    for (const o of operators) {
      tenant.subscribe({
        packageName: o.packageName,
        channel: o.channel,
        catalog: p.catalog,
        bundle: o.bundle,
        upgradeBundles: o.upgradeBundles,
        startingCsv: o.startingCsv,
        installPlanApproval: o.installPlanApproval ?? p.installPlanApproval ?? InstallPlanApproval.MANUAL,
        upgradeGraph: o.upgradeGraph,
        versionRange: o.versionRange,
      });
    }
    if (p.pinnedApprover !== undefined) tenant.addPinnedApprover(p.pinnedApprover);

    (p.grants ?? []).forEach((g, i) => {
      const group = Group.fromName(tenant, `BlueprintGroup${i}`, g.groupName.split('{team}').join(team));
      if (g.subscriptionManagement) tenant.grantSubscriptionManagement(group);
      if (g.access !== undefined) tenant.grantOperatorAccess(group, g.access);
    });

    if (options.quota !== undefined) {
      if (!allowed.has(BlueprintOverride.QUOTA)) {refuse(BlueprintOverride.QUOTA, 'quota', JSON.stringify(options.quota));} else if (p.baseline === undefined) {
        errors.push({ code: 'BlueprintHasNoBaseline', field: 'quota', value: JSON.stringify(options.quota), message: `blueprint '${this.name}' creates no baseline, so there is no quota to change`, fix: 'drop quota, or give the blueprint a baseline' });
      }
    }
    if (p.baseline !== undefined) {
      const quota = allowed.has(BlueprintOverride.QUOTA) && options.quota !== undefined ? options.quota : p.baseline.quota;
      new TenantBaseline(tenant, 'Baseline', { ...p.baseline, quota, tenant });
    }
    return tenant;
  }
}
