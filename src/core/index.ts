// Shared plumbing: name rules and synth-time diagnostics (errors and warnings).
export * from './names';
export { Diagnostics, Diagnostic, Severity } from './diagnostics';
export { DiagnosticDetails } from './diagnostic-details';
export * from './policy-checks';
export { ClusterTargets } from './cluster-targets';
export * from './go-duration';
