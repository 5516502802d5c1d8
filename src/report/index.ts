// Reports: TENANCY.md, a Markdown view of the App's tenancy built from the same synth as the manifests.
export * from './tenancy-report';
