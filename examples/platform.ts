// PLACEHOLDER (written by the schema-validation helper so test/schema/examples.test.ts runs):
// the lead replaces this body with the real example platform. Keep the signature.
import { App, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';

/** Adds every example chart of the platform to `app`. */
export function buildPlatform(app: App): void {
  const chart = new Chart(app, 'platform');
  new k8s.KubeNamespace(chart, 'namespace', { metadata: { name: 'example-platform' } });
}
