// Operator bundles (registry+v1) parsed into plain data.
export * from './operator-bundle';
