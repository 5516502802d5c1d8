// The library App: a drop-in for cdk8s App that synthesizes in one pass and reports the library's warnings;
// the GitOps layout it can write (GitOpsLayout) and the fields OLM writes back (OlmWrites).
export * from './tenancy-app-props';
export * from './tenancy-app';
export * from './gitops-layout-props';
export * from './gitops-layout';
export * from './olm-writes';
export * from './olm-health';
export * from './flux-kustomizations-props';
export * from './flux-kustomizations';
