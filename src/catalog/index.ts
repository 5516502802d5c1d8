// Catalogs: references to CatalogSources, curated catalogs, mirroring, default-catalog policies, and what a catalog
// needs of a tenant (IOperatorTenant).
export * from './operator-tenant';
export * from './catalog-source-reference';
export * from './mirror-config';
export * from './curated-catalog';
export { CuratedCatalogAdmissionPolicy, CuratedCatalogAdmissionPolicyProps } from './curated-catalog-admission-policy';
export * from './openshift-operator-hub-policy';
export * from './upstream-olm-catalog-policy';
