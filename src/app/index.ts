// The top of the library: TenancyApp, a drop-in for cdk8s App that synthesizes in one pass, reports the library's
// warnings and writes the report and the GitOps layout (the writing itself lives in src/output).
export * from './tenancy-app-props';
export * from './tenancy-app';
