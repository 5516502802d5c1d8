/**
 * The tenant's upgrade checks: every upgrade the catalog allows (a Subscription's `upgradeGraph` within its
 * `versionRange`) must pass the install preflight with the installer's rules, or the synth says which edge fails and
 * what is missing. Internal to the tenant (not exported).
 */
import { DeriveScope } from '../derive-scope';
import { OperatorSubscription } from './operator-subscription';
import { InstallPlanApproval, PreflightEnforcement } from './operator-subscription-props';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { NamespaceRules } from '../../preflight/preflight-code';
import { PolicyRule } from '../../rbac/policy-rule';
import { UpgradeAnalysis, UpgradeAnalysisResult } from '../../upgrade/upgrade-analysis';

/** What the checks need of the tenant. */
export interface UpgradeCheckContext {
  readonly namespace: string;
  readonly installerServiceAccountName: string;
  readonly targetNamespaces: string[];
  readonly installerRules: PolicyRule[];
  readonly clusterInstallerRules: PolicyRule[];
  readonly otherNamespaceRules: NamespaceRules[];
  readonly deriveScope?: DeriveScope;
  readonly deriveInstallerRules: boolean;
  readonly hasPinnedApprover: boolean;
  /** The CSVs the pinned approver approves. */
  readonly approverPins: string[];
  /**
   * False when the tenant namespace is missing or invalid: that error (InvalidName / MissingInput) stands for the
   * upgrade checks, which are left out (nothing is derived for such a namespace, so every edge would "fail").
   */
  readonly namespaceIsValid: boolean;
}

/** Upgrade analyses of a tenant's Subscriptions, cached while the installer's rules stay the same. */
export class UpgradeChecks {
  private readonly cache = new Map<OperatorSubscription, { key: string; result: UpgradeAnalysisResult }>();

  /** The analysis of `sub`'s allowed upgrades, or undefined without an upgrade graph. */
  public analysis(sub: OperatorSubscription, ctx: UpgradeCheckContext): UpgradeAnalysisResult | undefined {
    const graph = sub.effectiveUpgradeGraph;
    const from = sub.pinnedCsv;
    // a pin outside the graph is one error (PinnedCsvNotInUpgradeGraph), not also the upgrades "from" it
    // and an invalid namespace is one error (InvalidName), not also every upgrade that nothing was derived for
    if (!graph || from === undefined || !ctx.namespaceIsValid || sub._pinReported || sub.allowedUpgrades().length === 0) return undefined;
    const key = JSON.stringify([ctx.installerRules, ctx.clusterInstallerRules, ctx.otherNamespaceRules, ctx.targetNamespaces]);
    const cached = this.cache.get(sub);
    if (cached && cached.key === key) return cached.result;
    const result = UpgradeAnalysis.analyze({
      graph,
      from,
      versionRange: sub.versionRange,
      namespace: ctx.namespace,
      targetNamespaces: ctx.targetNamespaces,
      installerRules: ctx.installerRules,
      clusterInstallerRules: ctx.clusterInstallerRules,
      otherNamespaceRules: ctx.otherNamespaceRules,
    });
    this.cache.set(sub, { key, result });
    return result;
  }

  /**
   * One finding per failing upgrade target (every edge into it fails the same way: OLM checks the target's
   * bundle): the edges, each missing rule once, the other blockers. Versions without a bundle are a warning.
   */
  public findings(subs: OperatorSubscription[], ctx: UpgradeCheckContext,
    reportedWithInstall: (sub: OperatorSubscription, edge: string) => boolean = () => false,
  ): { errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] } {
    const errors: DiagnosticDetails[] = [];
    const warnings: DiagnosticDetails[] = [];
    if (ctx.deriveScope !== undefined && !ctx.deriveInstallerRules) {
      errors.push({
        code: CODE.DeriveScopeWithoutDerive,
        field: 'deriveScope',
        value: ctx.deriveScope,
        message: 'a derive scope is given, but deriveInstallerRules is off, so nothing is derived',
        fix: 'set deriveInstallerRules: true, or drop deriveScope',
      });
    }
    warnings.push(...approvalWarnings(subs, ctx));
    errors.push(...uncheckedApprovals(subs, ctx));
    for (const sub of subs) {
      const result = this.analysis(sub, ctx);
      if (!result) continue;
      const field = `subscriptions[${sub.name}].upgradeGraph`;
      const ranges = [...sub.curatedVersionRanges, ...(sub.versionRange === undefined ? [] : [sub.versionRange])];
      const byTarget = new Map<string, string[]>();
      for (const r of result.edges) {
        // an edge that lacks only what the install lacks is named by the install's error
        if (r.preflight === undefined || r.preflight.ok || reportedWithInstall(sub, `${r.edge.from} -> ${r.edge.to}`)) continue;
        byTarget.set(r.edge.to, [...(byTarget.get(r.edge.to) ?? []), `${r.edge.from} -> ${r.edge.to}`]);
      }
      for (const [to, edges] of byTarget) {
        const preflight = result.edges.find((r) => r.edge.to === to)!.preflight!;
        const missing = [...new Set(preflight.missing.map((m) => m.formatted))];
        const parts = [
          ...(missing.length > 0 ? [`the installer ServiceAccount ${ctx.namespace}/${ctx.installerServiceAccountName} lacks ${missing.length} rule(s): ${missing.join('; ')}`] : []),
          ...preflight.problems.map((p) => `${p.code}: ${p.message}`),
        ];
        const finding: DiagnosticDetails = {
          code: CODE.UpgradeWouldFail,
          field,
          value: edges.join(', '),
          message: `the catalog allows upgrading ${edges.join(', ')}${ranges.length > 0 ? ` (within ${ranges.join(' and ')})` : ''}, but OLM would fail to install ${to}: ${parts.join('; ')}`,
          fix: ctx.deriveScope === DeriveScope.PINNED_VERSION
            ? `widen the installer in code before approving (deriveScope: DeriveScope.ALLOWED_UPGRADES, or addInstallerRule), or exclude ${to} with versionRange`
            : `grant the rules with addInstallerRule / addClusterInstallerRule (or deriveInstallerRules: true), or exclude ${to} with versionRange`,
        };
        (sub.preflightEnforcement === PreflightEnforcement.ERROR ? errors : warnings).push(finding);
      }
      if (result.missingBundles.length > 0) {
        warnings.push({
          code: CODE.UpgradeNotChecked,
          field,
          value: result.missingBundles.join(', '),
          message: `the upgrade graph has no bundle for ${result.missingBundles.join(', ')}, so upgrades to them are not checked`,
          fix: 'load the graph with its bundles (UpgradeGraph.fromCatalogPackage of a catalog rendered with olm.bundle.object, or UpgradeGraph.fromBundles)',
        });
      }
    }
    return { errors, warnings };
  }
}

/**
 * The pinned approver approves an InstallPlan whose CSVs are all pinned. A pin that no Subscription of the tenant
 * names as its `startingCsv` (whose bundle the Subscription checks itself, `PinnedCsvNotBundle`) and whose bundle no
 * check covered (a Subscription's bundle or upgrade bundle, a bundle of an allowed upgrade of its graph) approves a
 * version nobody checked: OLM would install it with the installer's rules as they are.
 */
function uncheckedApprovals(subs: OperatorSubscription[], ctx: UpgradeCheckContext): DiagnosticDetails[] {
  if (ctx.approverPins.length === 0) return [];
  const pinnedBySubscription = new Set(subs.map((s) => s.info.startingCsv).filter((c): c is string => c !== undefined));
  const checked = new Set(subs.flatMap((s) => [...s.bundles, ...s.upgradeGraphBundles].map((b) => b.name)));
  const unchecked = ctx.approverPins.filter((c) => !pinnedBySubscription.has(c) && !checked.has(c));
  if (unchecked.length === 0) return [];
  const known = [...checked].sort();
  return [{
    code: CODE.PinnedApprovalNotChecked,
    field: 'addPinnedApprover(options).pinnedCsvs',
    value: unchecked.join(', '),
    message: `the pinned approver approves InstallPlans of ${unchecked.map((c) => `'${c}'`).join(', ')}, but no Subscription of the tenant pins ${unchecked.length === 1 ? 'it' : 'them'} `
      + `and no check covered ${unchecked.length === 1 ? 'its bundle' : 'their bundles'} (checked: ${known.length > 0 ? known.join(', ') : 'none'}): OLM would install ${unchecked.length === 1 ? 'it' : 'them'} unchecked`,
    fix: 'pin the version as a Subscription\'s startingCsv with its bundle, or give its bundle (upgradeBundles, or an upgradeGraph that allows it) so the upgrade is checked, or drop the pin',
  }];
}

/** Manual approval in one namespace: OLM merges pending InstallPlans; the pinned approver needs a startingCsv. */
function approvalWarnings(subs: OperatorSubscription[], ctx: UpgradeCheckContext): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  const manual = subs.filter((s) => s.installPlanApproval === InstallPlanApproval.MANUAL);
  if (manual.length > 1) {
    out.push({
      code: CODE.SeveralManualSubscriptions,
      field: 'subscriptions',
      value: manual.map((s) => s.name).join(', '),
      message: `OLM resolves namespace '${ctx.namespace}' as one unit and merges its pending InstallPlans, so one InstallPlan may carry the `
        + 'upgrades of several Subscriptions: approving it approves all of them',
      fix: ctx.hasPinnedApprover
        ? 'pin every Subscription\'s version (the approver only approves an InstallPlan whose CSVs are all pinned), or put them in separate tenants'
        : 'review every CSV of an InstallPlan before approving it, use addPinnedApprover(), or put the Subscriptions in separate tenants',
    });
  }
  if (ctx.hasPinnedApprover) {
    for (const s of manual.filter((x) => x.info.startingCsv === undefined)) {
      out.push({
        code: CODE.ManualSubscriptionNotPinned,
        field: `subscriptions[${s.name}].startingCsv`,
        value: s.packageName,
        message: 'the pinned approver only approves pinned CSVs, and this Manual Subscription pins none, so its InstallPlans wait for a person',
        fix: "set startingCsv to the CSV to run (e.g. 'etcdoperator.v0.9.4')",
      });
    }
    if (manual.length === 0) {
      out.push({
        code: CODE.PinnedApproverWithoutManualSubscriptions,
        field: 'addPinnedApprover',
        value: ctx.namespace,
        message: 'the tenant has a pinned approver but no Manual Subscription, so it approves nothing (Automatic InstallPlans need no approval)',
        fix: 'use installPlanApproval: InstallPlanApproval.MANUAL with a startingCsv, or drop the approver',
      });
    }
  }
  return out;
}
