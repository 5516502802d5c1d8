// The decisions a tenant took by name that leave no warning, for TENANCY.md "Accepted risks"
// (`Diagnostics.acceptedRisks`): sensitive grants its installer holds because they were accepted, policy checks it
// lowered, and installer rules opted in outside its namespace. Accepted findings (acceptedReach) are warnings with
// `acceptedBy` and are listed from there.
import { AcceptedRiskDetails } from '../../core/diagnostics';
import { PolicyChecks, PolicySeverity } from '../../core/policy-checks';
import { CheckedTenantProps } from '../input-checks';
import { TenantSensitiveGrant } from '../scoped-operator-tenant-props';

/** What the decisions are read from: the tenant's props and what they resulted in. */
export interface TenantDecisionFacts {
  readonly props: CheckedTenantProps;
  readonly namespace: string;
  readonly installerRoleName: string;
  readonly clusterInstallerRules: number;
  readonly sensitiveGrants: TenantSensitiveGrant[];
  /** The policy ids no acceptance lowers (TenancyAppProps.neverAcceptable): their acceptances are errors, not rows. */
  readonly neverAcceptable: ReadonlySet<string>;
}

const RANK: Record<string, number> = { [PolicySeverity.OFF]: 0, [PolicySeverity.WARNING]: 1, [PolicySeverity.ERROR]: 2 };

/** The tenant's accepted decisions, in a fixed order (the caller sorts them with everyone else's). */
export function tenantAcceptedDecisions(t: TenantDecisionFacts): AcceptedRiskDetails[] {
  const out: AcceptedRiskDetails[] = [];
  const reasons = new Map<string, string[]>();
  for (const a of t.props.acceptedSensitiveGrants ?? []) {
    if (a.reason.trim() !== '') reasons.set(a.grant, [...(reasons.get(a.grant) ?? []), a.reason]);
  }
  for (const g of t.neverAcceptable.has('OLMT-003') ? [] : t.sensitiveGrants) {
    const where = g.namespace === '' ? `ClusterRole ${t.namespace}-olm-installer (cluster-wide)` : `Role ${t.installerRoleName} in ${g.namespace}`;
    const given = reasons.get(g.grant);
    out.push({
      acceptedBy: given !== undefined ? 'acceptedSensitiveGrants' : 'allowedSensitiveGrants',
      what: `SensitiveGrant.${g.grant} held by ${where}: ${g.what}`,
      reason: given !== undefined ? given.join('; ') : '',
      policyId: 'OLMT-003',
    });
  }
  if (t.clusterInstallerRules > 0 && t.props.clusterScopedInstallerRulesReason !== undefined) {
    out.push({
      acceptedBy: 'clusterScopedInstallerRulesReason',
      what: `${t.clusterInstallerRules} installer rule(s) cluster-wide, in the installer ClusterRole`,
      reason: t.props.clusterScopedInstallerRulesReason,
      policyId: 'OLMT-006',
    });
  }
  for (const [id, severity] of Object.entries(t.props.policyChecks ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const check = PolicyChecks.byId(id);
    // only a lowering that counts (a check that may be lowered; the others are errors of policyChecks itself)
    const lowers = check !== undefined && check.relaxable && RANK[severity] !== undefined && RANK[severity] < RANK[check.severity];
    if (!lowers || t.neverAcceptable.has(id)) continue;
    out.push({
      acceptedBy: `policyChecks['${id}']`,
      what: `${id} ${check!.code} lowered from ${check!.severity} to ${severity}: ${check!.summary}`,
      reason: '',
      policyId: id,
    });
  }
  return out;
}
