// The effective-power audit: what each identity of a tenant can really do (bindings, bind, escalate, identities it can become).
export { SubjectKind, RbacSubject, RoleOrigin, PowerObject, PowerGrant, ReachedIdentity, SubjectPower, EffectivePower, EffectivePowerOptions } from './effective-power';
export { ReachCode } from './reach-code';
export { AcceptedReach, AuditedTenant, TenancyAuditInput } from './audited-tenant';
export { ReachFinding, TenantAuditResult, TenancyAuditResult, TenancyAudit } from './tenancy-audit';
export * from './installer-rule-checks';
export { GlobalOperatorFacts, GlobalOperatorDriver, GlobalOperatorAuditResult } from './global-operator-drivers';
