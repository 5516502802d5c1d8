// Tenants: the ScopedOperatorTenant construct, its building blocks (compact Roles, Subscriptions) and what other constructs need of it.
export * from './operator-tenant';
export * from './target-namespaces';
export * from './system-namespaces';
export * from './installer-rule-checks';
export * from './compact-role';
export * from './compact-cluster-role';
export * from './subject-role-binding';
export * from './subscription-config-checks';
export * from './operator-subscription-props';
export * from './operator-subscription';
export * from './scoped-operator-tenant-props';
export * from './scoped-operator-tenant';
export * from './derive-scope';
export * from './pinned-install-plan-approver';
