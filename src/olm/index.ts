// OLM's own behaviour, modelled from its source: generated names, generated RBAC, Subscription `spec.config` overrides.
export * from './olm-naming';
export * from './olm-generated-rbac';
export * from './subscription-config-checks';
