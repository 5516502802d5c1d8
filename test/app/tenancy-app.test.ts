import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, AppProps, Chart, YamlOutputType } from 'cdk8s';
import { Construct } from 'constructs';
import { buildOlmV1Platform } from '../../examples/olm-v1-platform';
import { buildPlatform } from '../../examples/platform';
import { buildFailingTenant } from '../../examples/preflight-demo';
import { CatalogSourceReference, Diagnostics, OperatorBundle, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { fileTree } from '../util/files';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tenancy-app-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let dirs = 0;
const tmp = () => path.join(tmpRoot, `${dirs++}`);

/** Every file below `dir` (relative path -> content), sorted by path. */
const tree = (dir: string): Array<[string, string]> => Object.entries(fileTree(dir));

/**
 * Many tenant charts, each tenant with two subscriptions carrying real bundles, plus what makes cdk8s order and
 * name things differently: a nested chart, a cross-chart dependency (indexed `0000-` file names), plain ApiObjects
 * with a construct-level dependency.
 */
function buildManyCharts(app: App, tenants: number): void {
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  const shared = new Chart(app, 'shared');
  const config = new ApiObject(shared, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'platform' } });
  for (let i = 0; i < tenants; i++) {
    const chart = new Chart(app, `tenant-${i}`);
    const t = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
    t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
    if (i % 5 === 0) chart.addDependency(shared);
  }
  const nested = new Chart(shared, 'nested');
  const wrapper = new Construct(nested, 'Wrapper');
  const a = new ApiObject(wrapper, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'platform' } });
  const b = new ApiObject(nested, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'platform' } });
  b.node.addDependency(wrapper);
  void a;
  void config;
}

/** Synthesizes the same constructs with cdk8s `App` and with `TenancyApp`; returns both output trees. */
function synthBoth(build: (app: App) => void, props: AppProps): { cdk8s: Array<[string, string]>; tenancy: Array<[string, string]> } {
  const cdk8sDir = tmp();
  const plain = new App({ ...props, outdir: cdk8sDir });
  build(plain);
  plain.synth();
  const tenancyDir = tmp();
  const app = new TenancyApp({ ...props, outdir: tenancyDir, quiet: true });
  build(app);
  app.synth();
  return { cdk8s: tree(cdk8sDir), tenancy: tree(tenancyDir) };
}

const OUTPUT_TYPES: Array<[string, YamlOutputType]> = [
  ['FILE_PER_CHART', YamlOutputType.FILE_PER_CHART],
  ['FILE_PER_APP', YamlOutputType.FILE_PER_APP],
  ['FILE_PER_RESOURCE', YamlOutputType.FILE_PER_RESOURCE],
  ['FOLDER_PER_CHART_FILE_PER_RESOURCE', YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE],
];

describe('TenancyApp writes exactly what cdk8s App writes', () => {
  test.each(OUTPUT_TYPES)('the example platform, %s', (_name, yamlOutputType) => {
    const { cdk8s, tenancy } = synthBoth((app) => buildPlatform(app), { yamlOutputType });
    expect(cdk8s.length).toBeGreaterThan(0);
    expect(tenancy).toEqual(cdk8s);
  });

  test.each(OUTPUT_TYPES)('30 tenant charts with a nested chart and cross-chart dependencies, %s', (_name, yamlOutputType) => {
    const { cdk8s, tenancy } = synthBoth((app) => buildManyCharts(app, 30), { yamlOutputType });
    expect(tenancy).toEqual(cdk8s);
  });

  test('the charts depend on each other, so file names carry cdk8s index prefixes', () => {
    const { tenancy } = synthBoth((app) => buildManyCharts(app, 3), {});
    expect(tenancy.map(([f]) => f)).toEqual([
      '0000-shared-nested-c8bce9af.k8s.yaml',
      '0001-shared.k8s.yaml',
      '0002-tenant-0.k8s.yaml',
      '0003-tenant-1.k8s.yaml',
      '0004-tenant-2.k8s.yaml',
    ]);
  });

  test.each(OUTPUT_TYPES)('charts with array-index ids (cdk8s orders those paths first), %s', (_name, yamlOutputType) => {
    const build = (app: App) => {
      const charts = ['b', '10', 'a', '2', '0'].map((id) => new Chart(app, id));
      charts.forEach((c, i) => new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }));
      charts[2].addDependency(charts[0]);
      const t = new ScopedOperatorTenant(charts[3], 'Tenant', { namespaceName: 'team-x' });
      t.node.addDependency(charts[4]);
    };
    const { cdk8s, tenancy } = synthBoth(build, { yamlOutputType });
    expect(tenancy).toEqual(cdk8s);
  });

  /** `run` on a cdk8s App and on a TenancyApp built alike: both fail with cdk8s's own cycle message. */
  const expectSameCycleError = (build: (app: App) => void, run: (app: App) => unknown) => {
    const plain = new App({ outdir: tmp() });
    build(plain);
    const app = new TenancyApp({ outdir: tmp(), quiet: true });
    build(app);
    let expected = '';
    try {
      run(plain);
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toMatch(/^Dependency cycle detected: /);
    expect(() => run(app)).toThrow(expected);
  };

  test('a dependency cycle between charts fails with cdk8s\'s message', () => {
    const build = (app: App) => {
      const a = new Chart(app, 'a');
      const b = new Chart(app, 'b');
      new ApiObject(a, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
      a.addDependency(b);
      b.addDependency(a);
    };
    expectSameCycleError(build, (app) => app.synth());
  });

  test('a dependency cycle inside a chart fails with cdk8s\'s message', () => {
    const build = (app: App) => {
      new Chart(app, 'first');
      const c = new Chart(app, 'second');
      const a = new ApiObject(c, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
      const b = new ApiObject(c, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
      a.addDependency(b);
      b.addDependency(a);
    };
    expectSameCycleError(build, (app) => app.synthYaml());
  });

  test('construct metadata (recordConstructMetadata) is the same', () => {
    const { cdk8s, tenancy } = synthBoth((app) => buildManyCharts(app, 4), { recordConstructMetadata: true });
    expect(tenancy.map(([f]) => f)).toContain('construct-metadata.json');
    expect(tenancy).toEqual(cdk8s);
  });

  test('custom file extension', () => {
    const { cdk8s, tenancy } = synthBoth((app) => buildManyCharts(app, 2), { outputFileExtension: '.yml' });
    expect(tenancy).toEqual(cdk8s);
  });

  test('synthYaml() is the same string', () => {
    const plain = new App({ outdir: tmp() });
    buildPlatform(plain);
    const app = new TenancyApp({ outdir: tmp(), quiet: true });
    buildPlatform(app);
    expect(app.synthYaml()).toEqual(plain.synthYaml());
  });

  test('the validation error is the same', () => {
    const plain = new App({ outdir: tmp() });
    buildFailingTenant(plain);
    const app = new TenancyApp({ outdir: tmp(), quiet: true });
    buildFailingTenant(app);
    let expected = '';
    try {
      plain.synth();
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toMatch(/^Validation failed with the following errors:\n {2}\[tenant-monitoring\/Tenant\] /);
    expect(() => app.synth()).toThrow(expected);
    expect(() => app.synthYaml()).toThrow(expected);
  });
});

describe('TenancyApp.synthObjects', () => {
  test('every chart, in app.charts order, with the objects chart.toJson() returns', () => {
    const plain = new App({ outdir: tmp() });
    buildManyCharts(plain, 6);
    const expected = plain.charts.map((c) => ({ path: c.node.path, objects: c.toJson() }));
    const app = new TenancyApp({ outdir: tmp(), quiet: true });
    buildManyCharts(app, 6);
    const got = app.synthObjects();
    expect(got.map((c) => ({ path: c.path, objects: c.objects }))).toEqual(expected);
    expect(got.map((c) => c.chart)).toEqual(app.charts);
    expect(got.map((c) => c.name).slice(0, 3)).toEqual(['shared-nested-c8bce9af', 'shared', 'tenant-0']);
  });

  test('validations run once per synth, not once per chart', () => {
    const app = new TenancyApp({ outdir: tmp(), quiet: true });
    const charts = [1, 2, 3, 4].map((i) => new Chart(app, `c${i}`));
    let runs = 0;
    for (const c of charts) {
      new ApiObject(c, 'O', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o' } });
    }
    app.node.addValidation({ validate: () => { runs++; return []; } });
    app.synthObjects();
    expect(runs).toEqual(1);
    app.synthYaml();
    expect(runs).toEqual(2);
    app.synth();
    expect(runs).toEqual(3);

    // cdk8s App validates once in synth() and once more per chart
    let plainRuns = 0;
    const plain = new App({ outdir: tmp() });
    for (const i of [1, 2, 3, 4]) new ApiObject(new Chart(plain, `c${i}`), 'O', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o' } });
    plain.node.addValidation({ validate: () => { plainRuns++; return []; } });
    plain.synth();
    expect(plainRuns).toEqual(5);
  });
});

describe('TenancyApp reports on synth', () => {
  test('prints the warnings and a summary line to stderr', () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s: any) => { written.push(String(s)); return true; });
    try {
      const outdir = tmp();
      const app = new TenancyApp({ outdir });
      const { tenants } = buildPlatform(app);
      app.synth();
      const warnings = Diagnostics.report(app);
      expect(warnings).not.toEqual('');
      expect(written).toHaveLength(2);
      expect(written[0]).toEqual(`${warnings}\n`);
      // recounted from the output: every Subscription written (the platform's own operators included), every object
      const docs = tree(outdir).flatMap(([, y]) => y.split(/^---$/m));
      expect(tenants.length).toEqual(8);
      expect(app.summary).toEqual({
        tenants: tenants.length,
        subscriptions: docs.filter((d) => /^kind: Subscription$/m.test(d)).length,
        objects: docs.length,
        milliseconds: app.summary!.milliseconds,
      });
      // outside the working directory: the absolute path
      expect(written[1]).toEqual(`${TenancyApp.formatSummary(app.summary!, outdir)}\n`);
    } finally {
      spy.mockRestore();
    }
  });

  test('quiet: prints nothing', () => {
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const app = new TenancyApp({ outdir: tmp(), quiet: true });
      buildPlatform(app);
      app.synth();
      expect(spy).not.toHaveBeenCalled();
      expect(app.layout).toEqual(OutputLayout.FILE_PER_CHART);
    } finally {
      spy.mockRestore();
    }
  });

  test('the summary line', () => {
    expect(TenancyApp.formatSummary({ tenants: 5000, subscriptions: 10000, objects: 40000, milliseconds: 7930 }, 'dist')).toEqual(
      '5,000 tenants, 10,000 subscriptions, 40,000 objects in 7.9 s -> dist/',
    );
    expect(TenancyApp.formatSummary({ tenants: 1, subscriptions: 1, objects: 1, milliseconds: 40 }, 'out/')).toEqual(
      '1 tenant, 1 subscription, 1 object in 0.0 s -> out/',
    );
    // OLM v1 teams and extensions are counted; without v0 tenants and subscriptions those are left out
    expect(TenancyApp.formatSummary({ tenants: 0, subscriptions: 0, olmV1Teams: 2, olmV1Extensions: 2, objects: 30, milliseconds: 400 }, 'dist')).toEqual(
      '2 OLM v1 teams, 2 extensions, 30 objects in 0.4 s -> dist/',
    );
    expect(TenancyApp.formatSummary({ tenants: 3, subscriptions: 0, olmV1Teams: 1, olmV1Extensions: 1, objects: 30, milliseconds: 400 }, 'dist')).toEqual(
      '3 tenants, 0 subscriptions, 1 OLM v1 team, 1 extension, 30 objects in 0.4 s -> dist/',
    );
    expect(TenancyApp.formatSummary({ tenants: 0, subscriptions: 0, olmV1Teams: 0, olmV1Extensions: 0, objects: 0, milliseconds: 0 }, 'dist')).toEqual(
      '0 tenants, 0 subscriptions, 0 objects in 0.0 s -> dist/',
    );
  });

  test('an OLM v1-only App: the summary counts its teams and ClusterExtensions', () => {
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const outdir = tmp();
      const app = new TenancyApp({ outdir });
      const platform = buildOlmV1Platform(app);
      app.synth();
      const docs = tree(outdir).flatMap(([, y]) => y.split(/^---$/m));
      const teams = platform.teams.length;
      expect(teams).toEqual(2);
      expect(app.summary).toEqual({
        tenants: 0,
        subscriptions: 0,
        olmV1Teams: teams,
        olmV1Extensions: docs.filter((d) => /^kind: ClusterExtension$/m.test(d)).length,
        objects: docs.length,
        milliseconds: app.summary!.milliseconds,
      });
      expect(app.summary!.olmV1Extensions).toEqual(2);
      const line = spy.mock.calls.map((c) => String(c[0])).find((l) => l.includes(' objects in '))!;
      expect(line.replace(/ in \d+\.\d s -> .*\n$/, '')).toEqual(`2 OLM v1 teams, 2 extensions, ${docs.length} objects`);
    } finally {
      spy.mockRestore();
    }
  });
});
