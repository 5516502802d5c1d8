import { IConstruct } from 'constructs';

/**
 * What other constructs (catalogs, cross-tenant checks) need to know about a tenant.
 * Implemented by `ScopedOperatorTenant`.
 */
export interface IOperatorTenant extends IConstruct {
  /** The tenant namespace (where the OperatorGroup, installer ServiceAccount and Subscriptions live). */
  readonly namespaceName: string;
  /** Name of the tenant's OperatorGroup. */
  readonly operatorGroupName: string;
  /** Name of the installer ServiceAccount named in the OperatorGroup's `spec.serviceAccountName`. */
  readonly installerServiceAccountName: string;
  /**
   * The OperatorGroup's target namespaces, sorted. An empty list means AllNamespaces.
   */
  readonly targetNamespaces: string[];
}
