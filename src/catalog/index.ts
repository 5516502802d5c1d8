// Catalogs: references to CatalogSources, curated catalogs, file-based catalog filtering, default-catalog policies.
export * from './catalog-source';
export * from './curated-list';
export * from './go-duration';
export * from './fbc/fbc-types';
export * from './fbc/file-based-catalog';
export * from './fbc/fbc-validator';
export * from './fbc/fbc-filter';
export * from './fbc/fbc-writer';
export * from './mirror-config';
export * from './curated-catalog';
export * from './curated-catalog-admission-policy';
export * from './openshift-operator-hub-policy';
export * from './upstream-olm-catalog-policy';
