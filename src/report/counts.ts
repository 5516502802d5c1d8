/**
 * What the synth summary line (`TenancyApp.formatSummary`) and TENANCY.md (`TenancyReport.facts`) count, defined
 * once: both count with these, so the summary and the report can never give two counts of the same thing.
 */
import { IConstruct } from 'constructs';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { OperatorSubscription } from '../tenant/subscriptions/operator-subscription';

/** Every `OperatorSubscription` among `constructs`: a tenant's, and any other (e.g. an operator the platform installs). */
export function subscriptionsAmong(constructs: IConstruct[]): OperatorSubscription[] {
  return constructs.filter((c): c is OperatorSubscription => c instanceof OperatorSubscription);
}

/** Every `ScopedOperatorTenant` among `constructs`. */
export function tenantsAmong(constructs: IConstruct[]): ScopedOperatorTenant[] {
  return constructs.filter((c): c is ScopedOperatorTenant => c instanceof ScopedOperatorTenant);
}

/** The tenant a subscription belongs to (its closest `ScopedOperatorTenant` scope), if any. */
export function tenantOfSubscription(s: OperatorSubscription): ScopedOperatorTenant | undefined {
  const scopes = s.node.scopes;
  for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i] instanceof ScopedOperatorTenant) return scopes[i] as ScopedOperatorTenant;
  return undefined;
}
