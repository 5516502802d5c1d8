// Shared plumbing: synth-time diagnostics (errors and warnings), the policy registry, cluster version targets.
// Name rules, input checks and Go durations are internal (the constructs check their input themselves).
// Files are named after the class they hold; content-cache.ts is named after its job (memoization by content: the
// content keys and sealing it works with, BoundedCache the store).
export { Diagnostics, Diagnostic, Severity, AcceptedRisk } from './diagnostics';
export { DiagnosticDetails } from './diagnostic-details';
export * from './policy-checks';
export { ClusterTargets } from './cluster-targets';
