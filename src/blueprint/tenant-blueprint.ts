import { Group } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkBlueprintProps, checkStampOptions } from './input-checks';
import { TenantBaseline } from './tenant-baseline';
import { BlueprintOperator, BlueprintOverride, BlueprintStampOptions, TenantBlueprintProps } from './tenant-blueprint-props';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { describeValue, InputCheck, valueText } from '../core/input-check';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { InstallPlanApproval } from '../tenant/subscriptions/operator-subscription-props';

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
      stampInput.add({ code: CODE.InvalidInputType, field: 'team', value: valueText(team), message: `team must be a short string without '/' or control characters, got ${describeValue(team)}`, fix: "pass the team's name, e.g. 'payments'" });
    }
    team = teamOk ? team : 'invalid-team';
    options = checkStampOptions(stampInput, options);
    const errors: DiagnosticDetails[] = [...this.input.errors, ...stampInput.errors];
    const refuse = (override: BlueprintOverride, field: string, value: string) => errors.push({
      code: CODE.BlueprintOverrideNotAllowed,
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
          code: CODE.BlueprintUnknownOperator,
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
          code: CODE.BlueprintUnknownOperator,
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
        errors.push({ code: CODE.BlueprintHasNoBaseline, field: 'quota', value: JSON.stringify(options.quota), message: `blueprint '${this.name}' creates no baseline, so there is no quota to change`, fix: 'drop quota, or give the blueprint a baseline' });
      }
    }
    if (p.baseline !== undefined) {
      const quota = allowed.has(BlueprintOverride.QUOTA) && options.quota !== undefined ? options.quota : p.baseline.quota;
      new TenantBaseline(tenant, 'Baseline', { ...p.baseline, quota, tenant });
    }
    return tenant;
  }
}
