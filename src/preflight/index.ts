// Install preflight: what OLM would reject, found offline at synth time, and the least-privilege installer rules.
// Files are named after the class they hold; preflight-code.ts holds the codes and small types both engines share
// (`PreflightCode` with the problem shape, `NamespaceRules`, `BoundRoleKind`), install-blockers.ts the private
// refusals both engines report (not exported), install-plan-model.ts what OLM creates for a bundle (internal).
export * from './default-installer-rules';
export * from './preflight-code';
export * from './install-preflight';
export * from './installer-permissions';
