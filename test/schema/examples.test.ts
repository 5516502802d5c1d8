import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { parse } from 'yaml';
import { buildPlatform } from '../../examples/platform';
import { GitOpsLayout, OutputLayout, TenancyApp } from '../../src';
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

describe('the example platform in the GitOps layout (what examples/main.ts writes)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-gitops-'));
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true });
  buildPlatform(app);
  app.synth();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.yaml') && e.name !== 'kustomization.yaml' && !p.includes(`${path.sep}argocd${path.sep}`)) files.push(p); // not WARNINGS.txt
    }
  };
  walk(outdir);
  const written = files.sort().map((f) => parse(fs.readFileSync(f, 'utf8')));

  test('every written object validates against its real schema (with the common labels and sync waves)', () => {
    expect(written.length).toBeGreaterThan(0);
    expect(SchemaValidator.shared().validateAll(written)).toEqual([]);
  });

  test('the layout writes exactly the objects of the charts, each once, changed only by the labels and the sync wave', () => {
    const strip = (o: any) => {
      const labels = { ...(o.metadata.labels ?? {}) };
      delete labels[GitOpsLayout.MANAGED_BY_LABEL];
      delete labels[GitOpsLayout.TENANT_LABEL];
      const annotations = { ...(o.metadata.annotations ?? {}) };
      delete annotations[GitOpsLayout.SYNC_WAVE_ANNOTATION];
      const metadata = { ...o.metadata, labels, annotations };
      if (Object.keys(labels).length === 0) delete metadata.labels;
      if (Object.keys(annotations).length === 0) delete metadata.annotations;
      return JSON.stringify({ ...o, metadata });
    };
    const charts = platform().charts.flatMap((c) => c.toJson()).map((o) => JSON.stringify(o)).sort();
    expect(written.map(strip).sort()).toEqual(charts);
  });
});
