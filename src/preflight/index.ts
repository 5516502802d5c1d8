// Install preflight: what OLM would reject, found offline at synth time.
export * from './default-installer-rules';
