// RBAC: the PolicyRule struct and an engine that answers RBAC questions exactly as the API server would.
// policy-rule.ts holds the PolicyRule struct and PolicyRules, its companion class (jsii structs cannot carry methods).
export * from './policy-rule';
export * from './rbac-rules';
// subject-matcher.ts (which subjects a binding names, ServiceAccount user names) is internal to the engines.
