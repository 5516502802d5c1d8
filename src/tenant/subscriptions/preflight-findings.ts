/**
 * The install preflight as diagnostics a person reads (internal, not re-exported): ONE finding per (Subscription,
 * problem), with the missing rules listed once each (across the installed bundle and every upgrade bundle), the
 * "needed for" steps de-duplicated and capped, and a fix that names the exact prop or method of the tenant.
 * The complete structured result stays available to tools as `ScopedOperatorTenant.preflight()`.
 */
import { InstallerRuleChecks, SensitiveGrant } from '../../audit/installer-rule-checks';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { PolicyChecks } from '../../core/policy-checks';
import { PreflightResult } from '../../preflight/install-preflight';
import { PreflightCode } from '../../preflight/preflight-code';
import { PolicyRule } from '../../rbac/policy-rule';

/** At most this many "needed for" steps are named in a finding; the rest is "and N more". */
export const MAX_STEPS_SHOWN = 3;

/** What the findings of one Subscription depend on. */
export interface SubscriptionPreflight {
  /** `metadata.name` of the Subscription. */
  readonly subscription: string;
  /** The preflight results: the installed bundle first, then the upgrade bundles, in order. */
  readonly results: PreflightResult[];
  /** The tenant namespace. */
  readonly namespace: string;
  /** The installer ServiceAccount. */
  readonly serviceAccount: string;
  /** Whether the tenant derives its installer rules from the bundles. */
  readonly deriveInstallerRules: boolean;
  /**
   * Report the missing rules as ONE `MissingInstallerPermission` finding, never `NeedsClusterScopedRules`: when the
   * tenant relaxes `NeedsClusterScopedRules` (`policyChecks`), derived rules outside the namespace are granted (see
   * `InstallerRbac.deriveFrom`), and rules still missing fail as what they are, because OLM would fail.
   * @default false - one `NeedsClusterScopedRules` finding lists them when some are outside the namespace
   */
  readonly separateMissingRules?: boolean;
  /**
   * The sensitive grants the tenant accepts by name (`acceptedSensitiveGrants`, `allowedSensitiveGrants`): the
   * NeedsClusterScopedRules fix names the others that the derived cluster-wide rules would hold, so that the synth
   * after the opt-in asks for nothing unannounced.
   * @default - none accepted
   */
  readonly acceptedSensitiveGrants?: SensitiveGrant[];
}

/**
 * The sensitive grants that `rules`, as the installer's cluster-scoped rules, would hold and `accepted` does not
 * accept (`InstallerRuleChecks.sensitiveGrantsHeld`, the registry the InstallerSensitiveGrant check uses).
 */
function grantsToAccept(rules: PolicyRule[], accepted: SensitiveGrant[]): SensitiveGrant[] {
  if (rules.length === 0) return [];
  return InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: true }).map((g) => g.grant).filter((g) => !accepted.includes(g));
}

/** The sentence of the NeedsClusterScopedRules fix that names the grants to accept next. */
function acceptNext(grants: SensitiveGrant[]): string {
  if (grants.length === 0) return '';
  return `; the derived cluster-wide rules then hold ${grants.length} sensitive grant(s) to accept by name, each with its reason: acceptedSensitiveGrants: [`
    + `${grants.map((g) => `{ grant: SensitiveGrant.${g}, reason: '...' }`).join(', ')}]`;
}

/** Blockers (errors, or warnings with `PreflightEnforcement.WARNING`) and warnings of one Subscription. */
export interface SubscriptionFindings {
  readonly blockers: DiagnosticDetails[];
  readonly warnings: DiagnosticDetails[];
}

/** The fix of a preflight problem in the tenant's words (the prop to change), by code. */
const TENANT_FIX: { [code: string]: string } = {
  [PreflightCode.UNSUPPORTED_OPERATOR_GROUP]: 'set targetNamespaces to what the CSV supports (TargetNamespaces.ownNamespace(), TargetNamespaces.namespaces([...], reason) '
    + 'or TargetNamespaces.allNamespaces(reason)), or choose another operator',
  [PreflightCode.CONVERSION_WEBHOOK_NOT_ALL_NAMESPACES]: 'set targetNamespaces: TargetNamespaces.allNamespaces(reason) if the CSV supports only AllNamespaces, '
    + 'or have a cluster admin install this operator',
};

/** `"<message>. Fix: <fix>."` -> [message, fix]; [message, undefined] without a fix. */
function splitFix(text: string): [string, string | undefined] {
  const i = text.lastIndexOf(' Fix: ');
  if (i < 0) return [text, undefined];
  return [text.slice(0, i), text.slice(i + ' Fix: '.length).replace(/\.$/, '')];
}

interface Group {
  readonly indices: number[];
  readonly messages: string[];
}

/** The findings of one Subscription (see the file comment). */
export function subscriptionFindings(s: SubscriptionPreflight): SubscriptionFindings {
  const field = (indices: number[]): string => {
    if (indices.length !== 1) return `subscriptions[${s.subscription}]`;
    return indices[0] === 0 ? `subscriptions[${s.subscription}].bundle` : `subscriptions[${s.subscription}].upgradeBundles[${indices[0] - 1}]`;
  };
  const value = (indices: number[]): string => indices.map((i) => s.results[i].bundleName).join(', ');
  const grouped = (pick: (r: PreflightResult) => Array<{ code: string; message: string }>): Map<string, Group> => {
    const out = new Map<string, Group>();
    s.results.forEach((r, i) => {
      for (const p of pick(r)) {
        const g = out.get(p.code) ?? { indices: [], messages: [] };
        if (!g.indices.includes(i)) g.indices.push(i);
        if (!g.messages.includes(p.message)) g.messages.push(p.message);
        out.set(p.code, g);
      }
    });
    return out;
  };
  const one = (code: string, g: Group): DiagnosticDetails => {
    // the preflight's messages end in "Fix: ..." for callers of InstallPreflight; here the fix names the tenant's prop
    const [message, fix] = splitFix(g.messages[0]);
    return {
      code,
      field: field(g.indices),
      value: value(g.indices),
      // versions usually fail the same way: the first message, and how many other versions say something else
      message: g.messages.length > 1 ? `${message} (and ${g.messages.length - 1} similar finding(s) for the other versions)` : message,
      ...(TENANT_FIX[code] ?? fix ? { fix: TENANT_FIX[code] ?? fix } : {}),
    };
  };

  // OLMT-016 is true of almost every bundle: one short line (the CRD names are in the preflight result and the CLI)
  const crdsLine = (g: Group): DiagnosticDetails => {
    const counts = g.messages.map((m) => /creates or updates (\d+) CRD\(s\)/.exec(m)?.[1]).filter((n): n is string => n !== undefined);
    const n = counts.length === 1 ? `${counts[0]} ` : '';
    return {
      code: PreflightCode.CRDS_CREATED_BY_OLM,
      field: field(g.indices),
      value: value(g.indices),
      message: `OLM creates its ${n}CRD(s) cluster-wide with its own client: one version for every tenant`,
      fix: PolicyChecks._fixOf(PreflightCode.CRDS_CREATED_BY_OLM)!, // how to acknowledge it (the policy table's)
    };
  };

  const blockers: DiagnosticDetails[] = [];
  const problems = grouped((r) => r.problems);
  for (const [code, g] of problems) {
    if (code !== PreflightCode.NEEDS_CLUSTER_SCOPED_RULES) blockers.push(one(code, g));
  }

  // every missing rule once, with the versions and steps that need it
  const missing = new Map<string, { namespace: string; rule: PolicyRule; steps: string[] }>();
  const missingIn: number[] = [];
  s.results.forEach((r, i) => {
    if (r.missing.length > 0) missingIn.push(i);
    for (const m of r.missing) {
      const entry = missing.get(m.formatted) ?? { namespace: m.namespace, rule: m.rule, steps: [] };
      for (const step of m.steps) if (!entry.steps.includes(step)) entry.steps.push(step);
      missing.set(m.formatted, entry);
    }
  });
  const needsCluster = problems.get(PreflightCode.NEEDS_CLUSTER_SCOPED_RULES);
  if (missing.size > 0 || needsCluster) {
    const indices = [...new Set([...missingIn, ...(needsCluster?.indices ?? [])])].sort((a, b) => a - b);
    const rules = [...missing.keys()];
    const outside = rules.filter((r) => missing.get(r)!.namespace !== s.namespace);
    const steps = [...new Set(rules.flatMap((r) => missing.get(r)!.steps))];
    const neededFor = steps.length === 0 ? ''
      : ` (needed for ${steps.slice(0, MAX_STEPS_SHOWN).join('; ')}${steps.length > MAX_STEPS_SHOWN ? `; and ${steps.length - MAX_STEPS_SHOWN} more step(s)` : ''})`;
    const who = `the installer ServiceAccount ${s.namespace}/${s.serviceAccount}`;
    const bundles = value(indices);
    if (needsCluster && s.separateMissingRules !== true) {
      const clusterRules = [...missing.entries()].filter(([, m]) => m.namespace === '').map(([, m]) => m.rule);
      blockers.push({
        code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
        field: field(indices),
        value: bundles,
        message: `OLM would fail to install ${bundles}: ${who} is confined to namespace ${s.namespace}, but OLM's scoped client needs `
          + `${outside.length} rule(s) outside it${rules.length > outside.length ? ` (and ${rules.length - outside.length} in it)` : ''}: ${rules.join('; ')}${neededFor}`,
        fix: (s.deriveInstallerRules
          ? 'set clusterScopedInstallerRulesReason to why this operator may have rules outside the namespace (they are then derived, and annotated with the reason)'
          : 'set deriveInstallerRules: true and clusterScopedInstallerRulesReason (why this operator may have rules outside the namespace) to derive exactly these rules')
          + acceptNext(grantsToAccept(clusterRules, s.acceptedSensitiveGrants ?? []))
          + (s.deriveInstallerRules
            ? '; or choose an operator without clusterPermissions, webhooks or API services'
            : '; or grant them with addInstallerRule and addClusterInstallerRule'),
      });
    }
    if (!needsCluster || s.separateMissingRules === true) {
      blockers.push({
        code: CODE.MissingInstallerPermission,
        field: field(indices),
        value: bundles,
        message: `OLM would fail to install ${bundles}: ${who} lacks ${rules.length} rule(s): ${rules.join('; ')}${neededFor}`,
        fix: s.deriveInstallerRules
          ? `grant them with ${outside.length > 0 ? 'addClusterInstallerRule (rules outside the namespace) and ' : ''}addInstallerRule`
          : `set deriveInstallerRules: true to derive exactly these rules from the bundle, or grant them with addInstallerRule${outside.length > 0 ? ' and addClusterInstallerRule' : ''}`,
      });
    }
  }

  const warnings = [...grouped((r) => r.warnings)].map(([code, g]) => (code === PreflightCode.CRDS_CREATED_BY_OLM ? crdsLine(g) : one(code, g)));
  return { blockers, warnings };
}
