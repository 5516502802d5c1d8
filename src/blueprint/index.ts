// Organisational blueprints: a standard tenant captured once (TenantBlueprint) and a Capsule-style baseline
// (TenantBaseline: quota, limits, network policies that let OLM work).
export * from './tenant-baseline';
export * from './tenant-blueprint-props';
export * from './tenant-blueprint';
export * from './managed-objects-admission-policy';
export * from './service-external-ips-admission-policy';
