// Tenants: the ScopedOperatorTenant construct and its parts. Read it as the construct's table of contents:
// - the construct (this folder): ScopedOperatorTenant, its props, the namespaces it targets, how it derives rules;
// - rbac/: the installer's identity and Roles, people's access, and the RBAC building blocks (compact Roles, bindings);
// - subscriptions/: OperatorSubscription, the tenant's Subscriptions with their preflight and upgrade checks, day two;
// - checks/: the tenant's findings and the guards against other tenants, system namespaces and duplicate objects.
// Files are named after the class they hold; lazy-collections.ts holds two lazily rendered collections (LazyMap,
// LazySet).
export * from './scoped-operator-tenant-props';
export * from './scoped-operator-tenant';
export * from './target-namespaces';
export * from './derive-scope';
export * from './rbac/compact-role';
export * from './rbac/compact-cluster-role';
export * from './rbac/subject-role-binding';
export * from './subscriptions/operator-subscription-props';
export * from './subscriptions/operator-subscription';
export * from './subscriptions/pinned-install-plan-approver';
