// Test helpers for the catalog constructs.
import { Construct } from 'constructs';
import { IOperatorTenant, TenantGrant } from '../../src/catalog/operator-tenant';

/** A minimal IOperatorTenant (the real one, ScopedOperatorTenant, lives in src/tenant). */
export class FakeTenant extends Construct implements IOperatorTenant {
  public readonly operatorGroupName = 'tenant-operators';
  public readonly installerServiceAccountName = 'operator-installer';
  public readonly targetNamespaces: string[];
  public constructor(scope: Construct, id: string, public readonly namespaceName: string) {
    super(scope, id);
    this.targetNamespaces = [namespaceName];
  }

  /** The catalogs never grant: nothing is bound. */
  public grantOperatorAccess(): TenantGrant {
    return { roleBindings: [], roles: [] };
  }

  /** The catalogs never grant: nothing is bound. */
  public grantSubscriptionManagement(): TenantGrant {
    return { roleBindings: [], roles: [] };
  }
}

/** The test App and its validation errors (one definition each, test/util/synth.ts). */
export { appAndChart, validationErrors } from '../util/synth';
