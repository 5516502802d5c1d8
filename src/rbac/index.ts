// RBAC: the PolicyRule struct and an engine that answers RBAC questions exactly as the API server would.
export * from './policy-rule';
export * from './rbac-rules';
// subject-matcher.ts (which subjects a binding names, ServiceAccount user names) is internal to the engines.
