// Tenants: the ScopedOperatorTenant construct and its parts. Read it as the construct's table of contents; its rooms,
// lowest first, import only their own room or a lower one (test/core/layers.test.ts):
// - the floor (the top-level files but the construct): its props, input checks, annotations, system namespaces, helpers;
// - rbac/: the installer's identity and Roles, people's access, and the RBAC building blocks (compact Roles, bindings);
// - subscriptions/: OperatorSubscription, the tenant's Subscriptions with their preflight and upgrade checks, day two;
// - checks/: the tenant's findings, the App-wide view of all tenants, the guards against other tenants and duplicate objects;
// - the roof: the construct (scoped-operator-tenant.ts), which assembles the rooms, and this index.
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
