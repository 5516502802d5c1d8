// Tenants: the ScopedOperatorTenant construct and what other constructs need of it.
export * from './operator-tenant';
