// Shared plumbing: synth-time diagnostics (errors and warnings), the policy registry, cluster version targets.
// Name rules, input checks and Go durations are internal (the constructs check their input themselves).
export { Diagnostics, Diagnostic, Severity, AcceptedRisk } from './diagnostics';
export { DiagnosticDetails } from './diagnostic-details';
export * from './policy-checks';
export { ClusterTargets } from './cluster-targets';
