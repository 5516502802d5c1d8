// Catalogs: references to CatalogSources, curated catalogs, file-based catalog filtering.
export * from './catalog-source';
