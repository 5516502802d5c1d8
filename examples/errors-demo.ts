/**
 * What a new user sees when the input is wrong: a tenant written as a JavaScript (or Python, Java, Go) caller could
 * write it, without compile-time types. Every mistake is a synth error naming the construct, the field, the value
 * (on one line), the fix and a code; `app.synth()` reports all of them together instead of crashing at the first.
 * The README's "Errors and warnings" block is this output (checked by test/readme-errors.test.ts).
 */
import { App, Chart } from 'cdk8s';
import { CatalogSourceReference, ScopedOperatorTenant } from '../src';

/** A tenant with five typical mistakes. */
export function buildMistakes(app: App): ScopedOperatorTenant {
  const chart = new Chart(app, 'platform');
  const catalog = CatalogSourceReference.fromName('community-operators', 'openshift-marketplace');
  // as plain JavaScript would pass them: a number as label value, a value outside the enum
  const props: any = { namespaceName: 'team-a', namespaceLabels: { 'cost-center': 4711 }, upgradeStrategy: 'Evil' };
  const tenant = new ScopedOperatorTenant(chart, 'T', props);
  tenant.subscribe({ packageName: 'etcd', channel: '', catalog });
  const options: any = { packageName: 'prometheus', channel: 'beta', installPlanApproval: 'Sometimes' }; // and no catalog
  tenant.subscribe(options);
  return tenant;
}

/** The message `app.synth()` fails with ('' when it synthesizes). */
export function synthFailure(app: App): string {
  try {
    app.synth();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
