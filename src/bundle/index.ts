// Operator bundles (registry+v1) parsed into plain data, and the install modes their CSVs declare.
export * from './install-modes';
export * from './operator-bundle';
