// OLM v1 (operator-controller): curated ClusterCatalogs, team ClusterExtensions, admission guardrails. The
// bundle validators operator-controller runs (registry-v1-validators.ts) run inside RegistryV1Render; internal.
// Files are named after the class they hold; masterminds-semver.ts is a port of Masterminds/semver (its Version,
// Constraint and Constraints).
export * from './olm-v1-version-range';
export { CuratedClusterCatalog, CuratedClusterCatalogProps } from './curated-cluster-catalog';
export * from './olm-v1-team-guardrails-props';
export * from './olm-v1-team-guardrails';
export * from './olm-v1-team-props';
export * from './olm-v1-team';
export * from './registry-v1-render';
export * from './olm-v1-permission-preview';
export * from './olm-v1-installer-rbac';
