/**
 * Synthesis timings through the constructs (run by bench/run.ts). Timings live here, never in tests.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { time } from './preflight';
import { buildPlatform } from '../examples/platform';
import { CatalogSourceReference, OperatorBundle, ScopedOperatorTenant } from '../src';

const BUNDLES = path.join(__dirname, '..', 'test', 'fixtures', 'bundles');

/** Times the example platform and N tenants (one chart, two subscriptions with bundles each: preflight included). */
export function benchSynth(): string[] {
  const out: string[] = [];
  out.push(`synth: the example platform (6 charts, 5 tenants, preflight and catalog filtering): ${time(() => {
    const app = new App({ outdir: path.join(__dirname, '..', '.bench') });
    buildPlatform(app);
    app.synthYaml();
  }).toFixed(0)} ms`);

  const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
  const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const tenants of [100, 500]) {
    let objects = 0;
    const ms = time(() => {
      const app = new App({ outdir: path.join(__dirname, '..', '.bench') });
      const chart = new Chart(app, 'tenants');
      for (let i = 0; i < tenants; i++) {
        const t = new ScopedOperatorTenant(chart, `T${i}`, { namespaceName: `team-${i}`, deriveInstallerRules: true });
        t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
        t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
      }
      objects = chart.toJson().length;
    });
    out.push(`synth: ${tenants} tenants x 2 subscriptions with bundles (derived rules + preflight + cross-tenant checks, ${objects} objects, one chart): ${ms.toFixed(0)} ms`);
  }
  return out;
}

if (require.main === module) {
  for (const line of benchSynth()) console.log(line);
}
