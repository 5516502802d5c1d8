// Install preflight: what OLM would reject, found offline at synth time, and the least-privilege installer rules.
export * from './default-installer-rules';
export * from './install-preflight';
