// The tenant's Subscriptions and what is checked per Subscription: the install preflight against the installer's
// current rules (cached while they stay the same) and the upgrade checks.
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { SensitiveGrant } from '../../audit/installer-rule-checks';
import { LazyMap } from '../lazy-collections';
import { OperatorSubscription } from './operator-subscription';
import { PreflightEnforcement, SubscriptionOptions } from './operator-subscription-props';
import { subscriptionFindings } from './preflight-findings';
import { orderAfter } from '../private';
import { ScopedOperatorTenantProps } from '../scoped-operator-tenant-props';
import { UpgradeCheckContext, UpgradeChecks } from './upgrade-checks';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { ICatalogSource } from '../../catalog/catalog-source-reference';
import { rulesKey as ruleListKey } from '../../core/content-cache';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { isObject } from '../../core/input-check';
import { PassMemo } from '../../core/synth-pass';
import { InstallPreflight, PreflightResult } from '../../preflight/install-preflight';
import { PreflightCode } from '../../preflight/preflight-code';
import { UpgradeAnalysisResult } from '../../upgrade/upgrade-analysis';
import { InstallerRbac } from '../rbac/installer-rbac';

/** What the Subscriptions need of their tenant. */
export interface TenantSubscriptionsOptions {
  /** The tenant (its App's synthesis pass bounds the memos). */
  readonly scope: Construct;
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly props: Pick<ScopedOperatorTenantProps, 'deriveInstallerRules' | 'deriveScope'>;
  readonly rbac: InstallerRbac;
  /** The Namespace object, when the tenant creates it: CatalogSources in the namespace are applied after it. */
  readonly namespaceObject?: Construct;
  /** The OperatorGroup's target namespaces (see `ScopedOperatorTenant.targetNamespaces`). */
  targetNamespaces(): string[];
  /** False when the namespace name is missing or invalid: nothing is checked then. */
  namespaceIsValid(): boolean;
  /** True when the tenant's `policyChecks` lowers the check of `code` below ERROR. */
  relaxes(code: string): boolean;
  hasPinnedApprover(): boolean;
  /** The CSVs the tenant's pinned approver approves (empty without one). */
  approverPins(): string[];
  /** The sensitive grants the tenant accepts by name (see `SubscriptionPreflight.acceptedSensitiveGrants`). */
  acceptedSensitiveGrants(): SensitiveGrant[];
}

/** The preflight findings that list the installer's missing rules (an upgrade lacking only those is folded in). */
const FOLDED_CODES: string[] = [CODE.MissingInstallerPermission, PreflightCode.NEEDS_CLUSTER_SCOPED_RULES];

/** Findings split into what fails the synth and what only warns. */
export interface SplitFindings {
  readonly errors: DiagnosticDetails[];
  readonly warnings: DiagnosticDetails[];
}

/**
 * Within one synthesis pass (until the checks and warnings are done): each Subscription's preflight, and the
 * findings, read by the tenant's errors and its warnings.
 */
const PREFLIGHT = new PassMemo<PreflightResult[]>();
const PREFLIGHT_FINDINGS = new PassMemo<SplitFindings>();
const UPGRADE_FINDINGS = new PassMemo<SplitFindings>();

/** `bundles` without repeated CSV names (the first of each name), in order. */
export function uniqueBundles(bundles: OperatorBundle[]): OperatorBundle[] {
  const seen = new Set<string>();
  return bundles.filter((b) => !seen.has(b.name) && (seen.add(b.name), true));
}

/** The Subscriptions of one tenant, in creation order. */
export class TenantSubscriptions {
  /** Every Subscription, in creation order. */
  public readonly all: OperatorSubscription[] = [];
  private readonly preflightCache = new LazyMap<OperatorSubscription, { key: string; results: PreflightResult[] }>();
  private readonly upgradeChecks = new UpgradeChecks();
  /** Called with each bundle OLM installs first, as Subscriptions are added. */
  private bundleListeners?: Array<(bundle: OperatorBundle) => void>;

  constructor(private readonly options: TenantSubscriptionsOptions) {}

  /**
   * Creates a Subscription in `tenant` (the subscriber the catalog sees), applied after `operatorGroup` and after the
   * catalog's CatalogSource in the tenant namespace.
   */
  public create(tenant: Construct, operatorGroup: Construct, options: SubscriptionOptions): OperatorSubscription {
    // the options themselves are checked by OperatorSubscription (errors under the Subscription's path)
    const o: Partial<SubscriptionOptions> = isObject(options) ? options : {};
    const given = typeof o.name === 'string' ? o.name : typeof o.packageName === 'string' ? o.packageName : 'invalid';
    // the construct id shows in every message: no control characters, no huge ids (the name itself is an error then)
    // eslint-disable-next-line no-control-regex
    const name = given.length <= 253 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(given) ? given : 'invalid-name';
    let id = `Subscription-${name}`;
    for (let i = 2; tenant.node.tryFindChild(id); i++) id = `Subscription-${name}-${i}`;
    const sub = new OperatorSubscription(tenant, id, { ...options, namespace: this.options.namespace, subscriber: tenant });
    orderAfter(sub, operatorGroup);
    this.orderCatalogSources(tenant, sub.catalog, sub);
    this.all.push(sub);
    return sub;
  }

  /** Tells the bundle listeners about a new Subscription's installed bundle. */
  public announce(sub: OperatorSubscription): void {
    if (sub.bundles.length > 0) for (const listener of this.bundleListeners ?? []) listener(sub.bundles[0]);
  }

  /** Calls `listener` with each bundle OLM installs first: now for the Subscriptions so far, later for each new one. */
  public onInstalledBundle(listener: (bundle: OperatorBundle) => void): void {
    (this.bundleListeners ??= []).push(listener);
    for (const b of this.installedBundles) listener(b);
  }

  /** The bundles given to `subscribe` as what OLM installs first, in Subscription order. */
  public get installedBundles(): OperatorBundle[] {
    return this.all.filter((s) => s.bundles.length > 0).map((s) => s.bundles[0]);
  }

  /** Every bundle given to the Subscriptions (installed and upgrade bundles), in Subscription order. */
  public get bundles(): OperatorBundle[] {
    // a loop, not flatMap (read for every tenant several times per synth; V8's flatMap is many times slower)
    const out: OperatorBundle[] = [];
    for (const s of this.all) out.push(...s.bundles);
    return out;
  }

  /** The preflight of one Subscription, cached while the installer's rules stay the same. */
  public preflightOf(sub: OperatorSubscription): PreflightResult[] {
    return PREFLIGHT.get(this.options.scope, sub, () => this.preflightNow(sub));
  }

  private preflightNow(sub: OperatorSubscription): PreflightResult[] {
    if (sub.bundles.length === 0 || !this.options.namespaceIsValid()) return [];
    const { rbac, namespace } = this.options;
    const targetNamespaces = this.options.targetNamespaces();
    // shared, read-only compacted rules: sealed, so the key names them by id (see core/content-cache.ts)
    const installerRules = rbac.role._sharedRules;
    const clusterInstallerRules = rbac.clusterRole?._sharedRules ?? [];
    const otherNamespaceRules = rbac.otherNamespaceRules(true);
    const key = [
      ruleListKey(installerRules), ruleListKey(clusterInstallerRules), ...otherNamespaceRules.map((n) => `${n.namespace}:${ruleListKey(n.rules)}`),
      JSON.stringify(targetNamespaces),
    ].join('\u0000');
    const cached = this.preflightCache.read.get(sub);
    if (cached && cached.key === key) return cached.results;
    const results = InstallPreflight._checkVersionsShared({
      bundles: sub.bundles,
      namespace,
      targetNamespaces,
      installerRules,
      clusterInstallerRules,
      otherNamespaceRules,
    });
    this.preflightCache.write().set(sub, { key, results });
    return results;
  }

  /** The preflight findings of every Subscription, split into what fails the synth and what only warns. */
  public preflightFindings(): SplitFindings {
    return PREFLIGHT_FINDINGS.get(this.options.scope, this, () => this.preflightFindingsNow());
  }

  private preflightFindingsNow(): SplitFindings {
    const errors: DiagnosticDetails[] = [];
    const warnings: DiagnosticDetails[] = [];
    for (const sub of this.all) {
      // one finding per (Subscription, problem); the complete results are `preflight()`
      const found = subscriptionFindings({
        subscription: sub.name,
        results: this.preflightOf(sub),
        namespace: this.options.namespace,
        serviceAccount: this.options.serviceAccountName,
        deriveInstallerRules: this.options.props.deriveInstallerRules === true,
        separateMissingRules: this.options.relaxes('NeedsClusterScopedRules'),
        acceptedSensitiveGrants: this.options.acceptedSensitiveGrants(),
      });
      const covered = this.upgradesFailingLikeInstall(sub);
      const blockers = covered.length === 0 ? found.blockers : found.blockers.map((d) => (FOLDED_CODES.includes(d.code)
        ? { ...d, message: `${d.message}; the allowed upgrade(s) ${covered.join(', ')} lack only the same rule(s), so this fix covers them too` }
        : d));
      (sub.preflightEnforcement === PreflightEnforcement.ERROR ? errors : warnings).push(...blockers);
      warnings.push(...found.warnings);
    }
    return { errors, warnings };
  }

  /** The upgrade analysis of every Subscription with an upgrade graph that allows an upgrade, in Subscription order. */
  public upgrades(): UpgradeAnalysisResult[] {
    return this.all.map((s) => this.upgradeChecks.analysis(s, this.upgradeContext())).filter((r): r is UpgradeAnalysisResult => r !== undefined);
  }

  /** The upgrade checks of every Subscription with an upgrade graph (see `upgrade-checks.ts`). */
  public upgradeFindings(): SplitFindings {
    return UPGRADE_FINDINGS.get(this.options.scope, this, () => this.upgradeFindingsNow());
  }

  private upgradeFindingsNow(): SplitFindings {
    const ctx = this.upgradeContext();
    return this.upgradeChecks.findings(this.all, ctx, (sub, edge) => this.upgradesFailingLikeInstall(sub).includes(edge));
  }

  /**
   * The allowed upgrades of `sub` (`from -> to`) that fail only for rules the install of its bundles already lacks:
   * the install's error names them and its fix covers them, so they are no UpgradeWouldFail of their own (one
   * mistake, e.g. a forgotten deriveInstallerRules, one error).
   */
  private upgradesFailingLikeInstall(sub: OperatorSubscription): string[] {
    const results = this.preflightOf(sub);
    if (results.every((r) => r.missing.length === 0)) return [];
    const missing = new Set(results.flatMap((r) => r.missing.map((m) => m.formatted)));
    const analysis = this.upgradeChecks.analysis(sub, this.upgradeContext());
    return (analysis?.edges ?? [])
      .filter((r) => r.preflight !== undefined && !r.preflight.ok
        && r.preflight.problems.every((p) => p.code === PreflightCode.NEEDS_CLUSTER_SCOPED_RULES)
        && r.preflight.missing.every((m) => missing.has(m.formatted)))
      .map((r) => `${r.edge.from} -> ${r.edge.to}`);
  }

  private upgradeContext(): UpgradeCheckContext {
    const { rbac, props } = this.options;
    // the compacted rules only when an upgrade is analysed (most Subscriptions have no upgrade graph), once
    const once = <T>(f: () => T): (() => T) => {
      let value: { v: T } | undefined;
      return () => (value ??= { v: f() }).v;
    };
    const installerRules = once(() => rbac.role.rules);
    const clusterInstallerRules = once(() => rbac.clusterRole?.rules ?? []);
    const otherNamespaceRules = once(() => rbac.otherNamespaceRules());
    return {
      namespace: this.options.namespace,
      installerServiceAccountName: this.options.serviceAccountName,
      targetNamespaces: this.options.targetNamespaces(),
      get installerRules() { return installerRules(); },
      get clusterInstallerRules() { return clusterInstallerRules(); },
      get otherNamespaceRules() { return otherNamespaceRules(); },
      deriveScope: props.deriveScope,
      deriveInstallerRules: props.deriveInstallerRules === true,
      hasPinnedApprover: this.options.hasPinnedApprover(),
      approverPins: this.options.approverPins(),
      namespaceIsValid: this.options.namespaceIsValid(),
    };
  }

  /**
   * A catalog construct of the App (e.g. a `CuratedCatalog`) may put a CatalogSource into the tenant namespace: it
   * must be applied after the Namespace, and the Subscription after it. Across Charts cdk8s can only order whole
   * charts, so there only the hard requirement is kept (CatalogSource after Namespace: the catalog's chart then
   * follows the tenant's); a Subscription that precedes its CatalogSource is only retried by OLM.
   */
  private orderCatalogSources(tenant: Construct, catalog: ICatalogSource, sub: OperatorSubscription): void {
    if (!Construct.isConstruct(catalog)) return;
    const chart = Chart.of(tenant);
    for (const c of catalog.node.findAll()) {
      if (!(c instanceof ApiObject) || c.kind !== 'CatalogSource' || c.metadata.namespace !== this.options.namespace) continue;
      orderAfter(c, this.options.namespaceObject);
      if (Chart.of(c) === chart) orderAfter(sub, c);
    }
  }
}
