// Test helpers for the catalog constructs.
import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { IOperatorTenant } from '../../src/catalog/operator-tenant';

/** A minimal IOperatorTenant (the real one, ScopedOperatorTenant, lives in src/tenant). */
export class FakeTenant extends Construct implements IOperatorTenant {
  public readonly operatorGroupName = 'tenant-operators';
  public readonly installerServiceAccountName = 'operator-installer';
  public readonly targetNamespaces: string[];
  public constructor(scope: Construct, id: string, public readonly namespaceName: string) {
    super(scope, id);
    this.targetNamespaces = [namespaceName];
  }
}

/** A fresh app and chart. */
export function appAndChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

/** Every validation error of the App (what app.synth() would throw), in tree order. */
export function synthErrors(app: App): string[] {
  return app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}
