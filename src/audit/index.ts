// The effective-power audit: what each identity of a tenant can really do (bindings, bind, escalate, identities it can become).
export { SubjectKind, RbacSubject, RoleOrigin, PowerObject, PowerGrant, ReachedIdentity, SubjectPower, EffectivePower } from './effective-power';
export { BuiltinRole, BuiltinRoles } from './builtin-roles';
export { ReachCode, AcceptedReach, AuditedTenant, TenancyAuditInput, ReachFinding, TenantAuditResult, TenancyAuditResult, TenancyAudit } from './tenancy-audit';
