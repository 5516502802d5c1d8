/**
 * Issue 17: the GitOps layout is written from each object's identity, its JSON made only when its folder is written
 * (`GitOpsLayout._emitGroups`), to a staging folder that replaces the old layout once complete. Whatever it writes
 * must be exactly what the layout of every object's JSON (`GitOpsLayout.files`) writes; anything else (an object
 * whose JSON says another identity, an error) falls back to that layout.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import * as fc from 'fast-check';
import { CatalogSourceReference, GitOpsObject, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { GitOpsFile, GitOpsLayout } from '../../src/output/gitops-layout';
import { LayoutEntry, LayoutEntryMismatch } from '../../src/output/gitops-layout-entries';
import { YamlWriter } from '../../src/output/yaml-writer';
import { fileTree } from '../util/files';

const STAGING = '.cdk8s-olm-tenancy-staging';

function obj(apiVersion: string, kind: string, name: string, namespace?: string): any {
  return { apiVersion, kind, metadata: { name, ...(namespace !== undefined ? { namespace } : {}) } };
}

/** The entries `TenancyApp` would make for these objects, counting each manifest() call. */
function entriesOf(objects: GitOpsObject[], calls: number[]): LayoutEntry[] {
  return objects.map((o, i) => ({
    apiVersion: o.manifest.apiVersion,
    kind: o.manifest.kind,
    namespace: o.manifest.metadata?.namespace,
    name: o.manifest.metadata?.name,
    tenant: o.tenant,
    tenantNamespaces: o.tenantNamespaces,
    dependsOn: o.dependsOn,
    manifest: () => {
      calls[i] = (calls[i] ?? 0) + 1;
      return o.manifest;
    },
  }));
}

function emitted(entries: LayoutEntry[], syncWaves: boolean): GitOpsFile[] {
  const files: GitOpsFile[] = [];
  GitOpsLayout._emitGroups({ groups: 1, entries: () => entries }, { syncWaves }, (f) => files.push(f));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

describe('GitOpsLayout._emitGroups (the layout from identities, JSON made per folder)', () => {
  test('property (seed 17): the same files as files() of the JSON, each manifest() called exactly once', () => {
    const kinds = [['v1', 'Namespace'], ['v1', 'ServiceAccount'], ['operators.coreos.com/v1', 'OperatorGroup'],
      ['operators.coreos.com/v1alpha1', 'Subscription'], ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
      ['olm.operatorframework.io/v1', 'ClusterExtension']];
    const arb = fc.array(fc.record({
      kind: fc.integer({ min: 0, max: kinds.length - 1 }),
      name: fc.constantFrom('a', 'b', 't1', 't2', 'x1', 'B'),
      namespace: fc.constantFrom('t1', 't2', 'x1', 'other'),
      tenant: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }),
      extra: fc.boolean(),
      deps: fc.array(fc.nat(30), { maxLength: 3 }),
      labels: fc.option(fc.dictionary(fc.constantFrom('app', 'app.kubernetes.io/managed-by', 'z'), fc.constantFrom('v', 'w')), { nil: undefined }),
    }), { maxLength: 30 });
    fc.assert(fc.property(arb, fc.boolean(), (specs, syncWaves) => {
      const manifests = specs.map((s) => {
        const [v, k] = kinds[s.kind];
        const clusterScoped = k === 'ClusterRole' || k === 'Namespace' || k === 'ClusterExtension';
        const m = obj(v, k, s.name, clusterScoped ? undefined : s.namespace);
        if (s.labels) m.metadata.labels = s.labels;
        return m;
      });
      const identity = (m: any) => GitOpsLayout.identity(m);
      const objects: GitOpsObject[] = specs.map((s, i) => ({
        manifest: manifests[i],
        tenant: s.tenant,
        dependsOn: s.deps.filter((d) => d < i).map((d) => identity(manifests[d])),
        // an OLM v1 team's extra namespace
        ...(s.tenant !== undefined && s.extra ? { tenantNamespaces: [s.tenant, 'x1'] } : {}),
      }));
      const calls: number[] = [];
      expect(emitted(entriesOf(objects, calls), syncWaves)).toEqual(GitOpsLayout.files(objects, { syncWaves }));
      expect(calls).toEqual(objects.map(() => 1));
    }), { seed: 17, numRuns: 300 });
  });

  test('property (seed 18): in groups (charts), the same files as files() of all objects, each manifest() called once when written', () => {
    const kinds = [['v1', 'Namespace'], ['v1', 'ServiceAccount'], ['operators.coreos.com/v1', 'OperatorGroup'],
      ['operators.coreos.com/v1alpha1', 'Subscription'], ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
      ['olm.operatorframework.io/v1', 'ClusterExtension'], ['operators.coreos.com/v1alpha1', 'CatalogSource']];
    const object = fc.record({
      kind: fc.integer({ min: 0, max: kinds.length - 1 }),
      name: fc.constantFrom('a', 'b', 't1', 't2', 't3', 'x1'),
      namespace: fc.constantFrom('t1', 't2', 't3', 'x1', 'other'),
      extra: fc.boolean(),
      deps: fc.array(fc.nat(10), { maxLength: 3 }),
      crossDep: fc.option(fc.nat(30), { nil: undefined }),
    });
    // a group: a tenant chart (tenant t1..t3) or a platform chart (no tenant)
    const group = fc.record({ tenant: fc.option(fc.constantFrom('t1', 't2', 't3'), { nil: undefined }), objects: fc.array(object, { maxLength: 8 }) });
    fc.assert(fc.property(fc.array(group, { maxLength: 6 }), fc.boolean(), fc.boolean(), (groups, syncWaves, allowCross) => {
      const all: GitOpsObject[] = [];
      const grouped: GitOpsObject[][] = groups.map((g) => {
        const start = all.length;
        const made = g.objects.map((s, i) => {
          const [v, k] = kinds[s.kind];
          const clusterScoped = k === 'ClusterRole' || k === 'Namespace' || k === 'ClusterExtension';
          const m = obj(v, k, s.name, clusterScoped ? undefined : s.namespace);
          // dependencies on earlier objects of the group; with allowCross sometimes on any earlier object
          const deps = s.deps.filter((d) => d < i).map((d) => GitOpsLayout.identity(all[start + d].manifest));
          if (allowCross && s.crossDep !== undefined && s.crossDep < all.length) deps.push(GitOpsLayout.identity(all[s.crossDep].manifest));
          const o: GitOpsObject = {
            manifest: m,
            tenant: g.tenant,
            dependsOn: deps,
            ...(g.tenant !== undefined && s.extra ? { tenantNamespaces: [g.tenant, 'x1'] } : {}),
          };
          all.push(o);
          return o;
        });
        return made;
      });
      const calls = grouped.map(() => [] as number[]);
      const entries = grouped.map((objects, g) => entriesOf(objects, calls[g]));
      const files: GitOpsFile[] = [];
      GitOpsLayout._emitGroups({ groups: entries.length, entries: (g) => entries[g] }, { syncWaves }, (f) => files.push(f));
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      expect(files).toEqual(GitOpsLayout.files(all, { syncWaves }));
      expect(calls.flat().filter((c) => c !== undefined)).toEqual(all.map(() => 1));
    }), { seed: 18, numRuns: 400 });
  });

  test.each([
    ['apiVersion', (m: any) => ({ ...m, apiVersion: 'v2' })],
    ['kind', (m: any) => ({ ...m, kind: 'ConfigMap' })],
    ['metadata.name', (m: any) => ({ ...m, metadata: { ...m.metadata, name: 'other' } })],
    ['metadata.namespace', (m: any) => ({ ...m, metadata: { ...m.metadata, namespace: 't2' } })],
    ['metadata.namespace removed', (m: any) => ({ ...m, metadata: { name: m.metadata.name } })],
  ])('GIVEN an object whose JSON differs from its entry in %s THEN LayoutEntryMismatch', (_field, change) => {
    const m = obj('v1', 'ServiceAccount', 'sa', 't1');
    const [entry] = entriesOf([{ manifest: m, tenant: 't1' }], []);
    const changed: LayoutEntry = { ...entry, manifest: () => change(m) };
    expect(() => emitted([changed], false)).toThrow(LayoutEntryMismatch);
  });

  test('GIVEN an entry failing the input checks of files() (a tenant that is no namespace name) THEN LayoutEntryMismatch before any file', () => {
    const [entry] = entriesOf([{ manifest: obj('v1', 'ServiceAccount', 'sa', 't1'), tenant: '../etc' }], []);
    const files: GitOpsFile[] = [];
    expect(() => GitOpsLayout._emitGroups({ groups: 1, entries: () => [entry] }, {}, (f) => files.push(f))).toThrow(LayoutEntryMismatch);
    expect(files).toEqual([]);
  });
});

describe('TenancyApp GitOps synth: streamed through a staging folder, falling back to the layout of the JSON', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-streaming-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  function build(outdir: string, namespaces: string[]): TenancyApp {
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true });
    const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
    for (const ns of namespaces) {
      const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns });
      t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
    }
    return app;
  }

  /** The tree written from every object's JSON (the fallback, forced): the reference. */
  function referenceTree(namespaces: string[], name: string): Record<string, string> {
    const outdir = path.join(root, name);
    const spy = jest.spyOn(GitOpsLayout, '_emitGroups').mockImplementation(() => {
      throw new LayoutEntryMismatch('forced');
    });
    build(outdir, namespaces).synth();
    spy.mockRestore();
    return fileTree(outdir);
  }

  test('GIVEN tenants THEN the synth renders each object to JSON once (the audit\'s bindings reused), the files are those of the JSON layout, no staging folder is left', () => {
    const outdir = path.join(root, 'once');
    const app = build(outdir, ['team-a', 'team-b']);
    // the JSON layout (the fallback) is not used
    let referenceCalls = 0;
    const fromJson = GitOpsLayout._emitFiles;
    jest.spyOn(GitOpsLayout, '_emitFiles').mockImplementation((...args) => {
      referenceCalls++;
      fromJson(...args);
    });
    // the L1 classes call ApiObject's toJson once each through super.toJson()
    const rendered: string[] = [];
    const toJson = ApiObject.prototype.toJson;
    jest.spyOn(ApiObject.prototype, 'toJson').mockImplementation(function (this: ApiObject) {
      rendered.push(this.node.path);
      return toJson.call(this);
    });
    app.synth();
    jest.restoreAllMocks();
    expect(referenceCalls).toEqual(0);
    expect(rendered.length).toEqual(app.summary!.objects);
    expect(new Set(rendered).size).toEqual(rendered.length);
    expect(fs.existsSync(path.join(outdir, STAGING))).toBe(false);
    expect(fileTree(outdir)).toEqual(referenceTree(['team-a', 'team-b'], 'once-ref'));
  });

  test('GIVEN a stale staging folder (a killed synth) THEN the next synth removes it', () => {
    const outdir = path.join(root, 'stale');
    fs.mkdirSync(path.join(outdir, STAGING, 'tenants', 'old'), { recursive: true });
    fs.writeFileSync(path.join(outdir, STAGING, 'tenants', 'old', 'x.yaml'), 'x: 1\n');
    build(outdir, ['team-a']).synth();
    expect(fs.readdirSync(outdir).sort()).toEqual(['WARNINGS.txt', 'argocd', 'kustomization.yaml', 'tenants']);
  });

  test('GIVEN an addJsonPatch that moves an object to another tenant\'s namespace THEN the JSON decides its folder (fallback), as files() does', () => {
    const outdir = path.join(root, 'moved');
    const app = build(outdir, ['team-a', 'team-b']);
    const sa = app.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === 'ServiceAccount' && c.metadata.namespace === 'team-a')!;
    sa.addJsonPatch(JsonPatch.replace('/metadata/namespace', 'team-b'), JsonPatch.replace('/metadata/name', 'moved'));
    app.synth();
    const written = fileTree(outdir);
    expect(Object.keys(written).filter((p) => p.includes('serviceaccount')).sort()).toEqual([
      'tenants/team-b/serviceaccount-moved.yaml',
      'tenants/team-b/serviceaccount-team-b.yaml',
    ]);
    // the moved object keeps the label of the tenant that created it
    expect(written['tenants/team-b/serviceaccount-moved.yaml']).toContain('cdk8s-olm-tenancy.io/tenant: team-a');
    expect(fs.existsSync(path.join(outdir, STAGING))).toBe(false);
  });

  test('GIVEN the streamed writing fails once THEN the layout of the JSON is written instead, byte for byte the same', () => {
    const outdir = path.join(root, 'fails-once');
    const document = YamlWriter.document;
    let calls = 0;
    jest.spyOn(YamlWriter, 'document').mockImplementation((doc: unknown) => {
      if (++calls === 5) throw new Error('disk full (simulated)');
      return document(doc);
    });
    build(outdir, ['team-a', 'team-b']).synth();
    jest.restoreAllMocks();
    expect(calls).toBeGreaterThan(5);
    expect(fileTree(outdir)).toEqual(referenceTree(['team-a', 'team-b'], 'fails-once-ref'));
  });

  test('GIVEN writing fails for good THEN the synth throws, the previous layout is whole and no staging folder is left', () => {
    const outdir = path.join(root, 'fails');
    build(outdir, ['team-a', 'team-b']).synth();
    const before = fileTree(outdir);
    const document = YamlWriter.document;
    let calls = 0;
    jest.spyOn(YamlWriter, 'document').mockImplementation((doc: unknown) => {
      if (++calls >= 5) throw new Error('disk full (simulated)');
      return document(doc);
    });
    expect(() => build(outdir, ['team-a']).synth()).toThrow('disk full (simulated)');
    jest.restoreAllMocks();
    expect(fileTree(outdir)).toEqual(before);
    expect(fs.existsSync(path.join(outdir, STAGING))).toBe(false);
  });
});
