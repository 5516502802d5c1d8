// The library App: a drop-in for cdk8s App that synthesizes in one pass and reports the library's warnings.
export * from './tenancy-app';
