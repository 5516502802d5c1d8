// Shared plumbing: name rules and synth-time diagnostics (errors and warnings).
export * from './names';
export { Diagnostics, Diagnostic, DiagnosticDetails, Severity } from './diagnostics';
export * from './policy-checks';
