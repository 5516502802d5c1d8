// RBAC: the PolicyRule struct and an engine that answers RBAC questions exactly as the API server would.
export * from './policy-rule';
export * from './rbac-rules';
export { SubjectMatcher, AuthenticatedUser, BindingSubject, ServiceAccountName, ServiceAccountReach } from './subject-matcher';
