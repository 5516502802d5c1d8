// OLM's own behaviour, modelled from its source: generated names, install modes, generated RBAC.
export * from './olm-naming';
export * from './install-modes';
export * from './generated-rbac';
