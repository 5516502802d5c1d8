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
import { CatalogSourceReference, CuratedClusterCatalog, GitOpsObject, OlmV1Team, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { GitOpsFile, GitOpsLayout } from '../../src/output/gitops-layout';
import { LayoutEntry, LayoutEntryMismatch } from '../../src/output/gitops-layout-entries';
import { _setOutputFsOps, OutputWriteError, OutputWriter } from '../../src/output/output-writer';
import { UNREPRESENTABLE_MESSAGE, YamlWriter } from '../../src/output/yaml-writer';
import { fileTree } from '../util/files';
import { beforeEachFileMade } from '../util/output-fs';

const STAGING = '.cdk8s-olm-tenancy-staging';
/** issue 42: each synth stages into a folder of its own, `<STAGING>-<pid>-<token>-<random>` */
const PRIVATE_STAGING = `${STAGING}-\\d+-[0-9a-f]{8}-[0-9a-f]{8}`;

/** The library's own entries left in `outdir` (staging, backup, lock, journal): none after a synth, whatever its outcome. */
function leftovers(outdir: string): string[] {
  return fs.readdirSync(outdir).filter((n) => n.startsWith('.cdk8s-olm-tenancy-'));
}

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

/** Tenants subscribed to etcd, one chart each, in the GitOps layout with sync waves. */
function build(outdir: string, namespaces: string[]): TenancyApp {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true });
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const ns of namespaces) {
    const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns });
    t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
  }
  return app;
}

describe('TenancyApp GitOps synth: streamed through a staging folder, falling back to the layout of the JSON', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-streaming-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());


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
    expect(leftovers(outdir)).toEqual([]);
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
    expect(leftovers(outdir)).toEqual([]);
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
    expect(leftovers(outdir)).toEqual([]);
  });
});

describe('TenancyApp GitOps synth: the fallback writer from every object\'s JSON (mutation testing, issue 28)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-fallback-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(() => {
    jest.restoreAllMocks();
    _setOutputFsOps(undefined);
  });

  /**
   * team-a (a ScopedOperatorTenant) with an EtcdCluster that depends on its Subscription (after-install/), and an
   * OLM v1 team `ops` whose second namespace `ops-extra` belongs in the team's folder; `rename` renames the
   * Subscription with an addJsonPatch, so its JSON says another identity than its construct: the fallback writes.
   */
  function platform(outdir: string, rename: boolean): TenancyApp {
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, argoCdHealthChecks: false });
    const chart = new Chart(app, 'team-a');
    const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-a', createTokenSecret: false });
    const sub = tenant.subscribe({ packageName: 'etcd', channel: 'alpha', catalog: CatalogSourceReference.fromName('curated-operators', 'olm') });
    new ApiObject(chart, 'Cluster', { apiVersion: 'etcd.database.coreos.com/v1beta2', kind: 'EtcdCluster', metadata: { name: 'example', namespace: 'team-a' } })
      .node.addDependency(sub);
    const v1 = new Chart(app, 'platform');
    const catalog = new CuratedClusterCatalog(v1, 'Catalog', { catalogName: 'argocd', image: 'registry.example.com/catalogs/argocd:v1', team: 'ops' });
    new OlmV1Team(v1, 'Ops', { team: 'ops', groups: ['ops-admins'], namespaces: ['ops', 'ops-extra'], catalog, allowedPackages: [{ name: 'argocd-operator' }] });
    if (rename) subscriptionOf(app).addJsonPatch(JsonPatch.replace('/metadata/name', 'etcd-renamed'));
    return app;
  }

  function subscriptionOf(app: TenancyApp, namespace = 'team-a'): ApiObject {
    return app.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === 'Subscription' && c.metadata.namespace === namespace)!;
  }

  test('GIVEN an object whose JSON names another identity, an object depending on a Subscription and an OLM v1 team\'s second namespace THEN the fallback writes the streamed tree (after-install/, the team\'s folder), laying the JSON out once', () => {
    const streamed = fileTree(((d) => (platform(d, false).synth(), d))(path.join(root, 'streamed')));
    const outdir = path.join(root, 'fallback');
    const emitFiles = jest.spyOn(GitOpsLayout, '_emitFiles');
    const files = jest.spyOn(GitOpsLayout, 'files');
    platform(outdir, true).synth();
    // the JSON is laid out once, file by file: files() would hold every file's text at once (docs/scale.md)
    expect([emitFiles.mock.calls.length, files.mock.calls.length]).toEqual([1, 0]);
    const { ['tenants/team-a/subscription-etcd.yaml']: subscription, ...unchanged } = streamed;
    expect(fileTree(outdir)).toEqual({
      ...unchanged,
      'tenants/team-a/kustomization.yaml': unchanged['tenants/team-a/kustomization.yaml'].replace('subscription-etcd.yaml', 'subscription-etcd-renamed.yaml'),
      'tenants/team-a/subscription-etcd-renamed.yaml': subscription.replace('name: etcd\n', 'name: etcd-renamed\n'),
    });
    // what the dependency and the team's namespaces decide, in the fallback's own tree
    const written = fileTree(outdir);
    expect(written['after-install/tenants/team-a/etcdcluster-example.yaml']).toEqual([
      'apiVersion: etcd.database.coreos.com/v1beta2',
      'kind: EtcdCluster',
      'metadata:',
      '  annotations:',
      '    argocd.argoproj.io/sync-options: SkipDryRunOnMissingResource=true',
      '    argocd.argoproj.io/sync-wave: "3"',
      '  labels:',
      '    app.kubernetes.io/managed-by: cdk8s-olm-tenancy',
      '    cdk8s-olm-tenancy.io/tenant: team-a',
      '  name: example',
      '  namespace: team-a',
      '',
    ].join('\n'));
    expect(written['tenants/ops/namespace-ops-extra.yaml']).toEqual([
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  annotations:',
      '    argocd.argoproj.io/sync-wave: "0"',
      '  labels:',
      '    app.kubernetes.io/managed-by: cdk8s-olm-tenancy',
      '    cdk8s-olm-tenancy.io/tenant: ops',
      '    olm-tenancy.io/team: ops',
      '  name: ops-extra',
      '',
    ].join('\n'));
    expect(Object.keys(written).filter((f) => f.startsWith('tenants/team-a/subscription') || f.includes('etcdcluster') || f.includes('ops-extra'))).toEqual([
      'after-install/tenants/team-a/etcdcluster-example.yaml', 'tenants/ops/namespace-ops-extra.yaml', 'tenants/team-a/subscription-etcd-renamed.yaml',
    ]);
  });

  test('GIVEN a string YAML cannot hold in the last tenant\'s Subscription THEN the exact error, the fallback refuses it before writing any file (each file written at most once), the previous tree is whole', () => {
    const outdir = path.join(root, 'unrepresentable');
    build(outdir, ['team-a', 'team-b']).synth();
    const before = fileTree(outdir);
    const app = build(outdir, ['team-a', 'team-b']);
    subscriptionOf(app, 'team-b').addJsonPatch(JsonPatch.add('/metadata/annotations', { note: 'a\ud800b' }));
    const writes: string[] = [];
    const write = OutputWriter.prototype.write;
    jest.spyOn(OutputWriter.prototype, 'write').mockImplementation(function (this: OutputWriter, rel: string, content: string | Uint8Array) {
      writes.push(rel);
      return write.call(this, rel, content);
    });
    expect(() => app.synth()).toThrow(new Error('Validation failed with the following errors:\n  [team-b/Tenant/Subscription-etcd/Resource] '
      + `metadata.annotations.note="a\\ud800b": ${UNREPRESENTABLE_MESSAGE} (UnrepresentableYamlValue, OLMT-039)`));
    // only the streamed writer's files (in the staging folder) before it met the Subscription: team-a's folder, then
    // team-b's in apply order; the fallback checks every manifest before its first file
    expect(writes).toEqual([
      'tenants/team-a/namespace-team-a.yaml',
      'tenants/team-a/serviceaccount-team-a.yaml',
      'tenants/team-a/secret-team-a.yaml',
      'tenants/team-a/role-team-a.yaml',
      'tenants/team-a/rolebinding-team-a.yaml',
      'tenants/team-a/operatorgroup-team-a.yaml',
      'tenants/team-a/subscription-etcd.yaml',
      'tenants/team-a/kustomization.yaml',
      'tenants/team-b/namespace-team-b.yaml',
      'tenants/team-b/serviceaccount-team-b.yaml',
      'tenants/team-b/secret-team-b.yaml',
      'tenants/team-b/role-team-b.yaml',
      'tenants/team-b/rolebinding-team-b.yaml',
      'tenants/team-b/operatorgroup-team-b.yaml',
    ]);
    expect(fileTree(outdir)).toEqual(before);
  });

  test('GIVEN the file system fails once (ENOSPC) while streaming THEN the synth reports it as is, without writing again from the JSON; the previous tree is whole', () => {
    const outdir = path.join(root, 'enospc');
    build(outdir, ['team-a', 'team-b']).synth();
    const before = fileTree(outdir);
    const app = build(outdir, ['team-a']);
    // the third file made (opened, or written in one call: OutputFsOps.writeTextFileSync) fails
    let opens = 0;
    const opening = () => {
      if (++opens === 3) throw Object.assign(new Error('ENOSPC: simulated, openSync'), { code: 'ENOSPC', syscall: 'open', errno: -28 });
    };
    _setOutputFsOps(beforeEachFileMade(opening));
    const emitFiles = jest.spyOn(GitOpsLayout, '_emitFiles');
    let error: any;
    try {
      app.synth();
    } catch (e) {
      error = e;
    }
    _setOutputFsOps(undefined);
    expect(error).toBeInstanceOf(OutputWriteError);
    expect(error.code).toEqual('ENOSPC');
    expect(error.message).toMatch(new RegExp(`^cannot write ${escapeRegExp(outdir)}/${PRIVATE_STAGING}/tenants/team-a/secret-team-a\\.yaml: ENOSPC `
      + `\\(no space left on the device\\); nothing in ${escapeRegExp(outdir)} was changed\\. Fix: free space on the file system of the output directory, then synthesize again$`));
    expect(opens).toEqual(3);
    expect(emitFiles).not.toHaveBeenCalled();
    expect(fileTree(outdir)).toEqual(before);
    expect(leftovers(outdir)).toEqual([]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
