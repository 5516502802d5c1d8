import { App } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { SchemaValidator } from '../util/schema-validator';
import { synthYaml } from '../util/synth';

/** A fresh App holding the whole example platform. */
function platform(): App {
  const app = new App({ outdir: 'examples/out' }); // never synthesized to disk here
  buildPlatform(app);
  return app;
}

function identity(o: any): string {
  return `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

describe('the example platform (examples/platform.ts)', () => {
  const app = platform();
  const charts = app.charts.map((chart) => ({ id: chart.node.path, objects: chart.toJson() }));

  test('has at least one chart, and every chart has objects', () => {
    expect(charts.length).toBeGreaterThan(0);
    expect(charts.filter((c) => c.objects.length === 0).map((c) => c.id)).toEqual([]);
  });

  test('every object of every chart validates against its real schema', () => {
    // WHEN
    const problems = charts.flatMap((c) => SchemaValidator.shared().validateAll(c.objects).map((p) => `${c.id}: ${p}`));

    // THEN
    expect(problems).toEqual([]);
  });

  test('no two objects have the same apiVersion, kind, namespace and name', () => {
    // GIVEN
    const seen = new Map<string, string>();
    const duplicates: string[] = [];

    // WHEN
    for (const c of charts) {
      for (const o of c.objects) {
        const key = identity(o);
        const first = seen.get(key);
        if (first) duplicates.push(`${key} in ${first} and ${c.id}`);
        else seen.set(key, c.id);
      }
    }

    // THEN
    expect(duplicates).toEqual([]);
  });

  test('two independent syntheses give byte-identical YAML', () => {
    // WHEN
    const first = synthYaml(platform());
    const second = synthYaml(platform());

    // THEN
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });
});
