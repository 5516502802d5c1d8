// File-based catalogs (FBC): the schema types, loading, validation, filtering by a curated list, and writing.
export { CuratedChannel, CuratedPackage } from './curated-list';
export { FbcLocation, FbcFinding, FbcBlob, FbcChannelEntry, FbcFormat } from './fbc-types';
export * from './file-based-catalog';
export * from './fbc-validator';
export * from './fbc-filter';
export * from './fbc-writer';
