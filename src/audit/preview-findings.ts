// What a permission preview says of the power its subjects reach cluster-wide and of the bundle's ClusterRoles that
// aggregate into shared roles: one wording for the OLM v1 preview and the global installs' preview (both install with
// a cluster-admin client). Internal, not re-exported.
import { InstallerRuleChecks, SensitiveGrant } from './installer-rule-checks';
import { sharedRoleAggregation, sharedRoleAggregationText } from './shared-role-aggregation';
import { PolicyRule } from '../rbac/policy-rule';

/** One finding of a preview, before the preview gives it its own kind. */
export interface PreviewPowerFinding {
  readonly kind: 'unbounded' | 'sensitiveGrant' | 'aggregatesIntoSharedRole';
  readonly subject: string;
  readonly what: string;
  readonly grant?: SensitiveGrant;
}

/**
 * Per subject (in order): everything, or each sensitive grant of the v0 registry it holds cluster-wide (as for a
 * cluster-scoped installer ClusterRole); then each bundle ClusterRole whose labels a shared aggregated role selects.
 */
export function previewPowerFindings(
  subjects: { readonly subject: string; readonly clusterRules: PolicyRule[]; readonly unbounded: boolean }[],
  bundleClusterRoles: any[],
): PreviewPowerFinding[] {
  const out: PreviewPowerFinding[] = [];
  for (const s of subjects) {
    if (s.unbounded) {
      out.push({ kind: 'unbounded', subject: s.subject, what: `${s.subject} reaches * on every resource cluster-wide` });
      continue;
    }
    for (const held of InstallerRuleChecks.sensitiveGrantsHeld(s.clusterRules, { clusterScoped: true })) {
      out.push({ kind: 'sensitiveGrant', subject: s.subject, what: `${s.subject} gets ${held.what} (${held.grant})`, grant: held.grant });
    }
  }
  for (const o of bundleClusterRoles) {
    const joined = sharedRoleAggregation(o);
    if (joined) out.push({ kind: 'aggregatesIntoSharedRole', subject: `ClusterRole ${joined.role}`, what: `${sharedRoleAggregationText(joined)} (shipped in the bundle)` });
  }
  return out;
}
