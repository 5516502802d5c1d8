// Writing what the library synthesizes: the GitOps layout (GitOpsLayout), the fields OLM writes back (OlmWrites),
// the GitOps tools' health checks (OlmHealthChecks), Flux Kustomizations and Argo CD Applications. The YAML writer, the go-yaml rules and
// the safe file writing are internal (not re-exported).
// Files are named after the class they hold; gitops-layout-entries.ts holds the layout's entry types (its
// LayoutEntryMismatch is the error about one entry).
export * from './gitops-layout-props';
export * from './gitops-layout';
export * from './olm-writes';
export * from './olm-health-checks';
export * from './argocd-operator-patch';
export * from './flux-kustomizations-props';
export * from './flux-kustomizations';
export * from './argocd-applications-props';
export * from './argocd-applications';
