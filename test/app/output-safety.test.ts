/**
 * Issue 30, items 1 and 2: every file the library writes goes through a temporary file and a rename, never through a
 * symbolic link; file names stay below the file systems' 255 bytes for every name Kubernetes allows; a GitOps synth
 * replaces the committed tree only once the new one is whole, the fallback writer included, and an error of the file
 * system (ENOSPC, ENAMETOOLONG, EACCES) is reported clearly, never by writing in place.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, YamlOutputType } from 'cdk8s';
import { CatalogSourceReference, OutputLayout, ScopedOperatorTenant, TenancyApp, UpstreamOlmCatalogPolicy } from '../../src';
import { GitOpsLayout } from '../../src/output/gitops-layout';
import { LayoutEntryMismatch } from '../../src/output/gitops-layout-entries';
import { _nodeOutputFsOps, _setOutputFsOps, cappedName, MAX_FILE_NAME_BYTES, OutputFsOps, OutputWriteError } from '../../src/output/output-writer';
import { diskTree } from '../util/files';
import { HAS_KUBECTL, kubectlKustomize } from '../util/kubectl';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'output-safety-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  _setOutputFsOps(undefined);
  jest.restoreAllMocks();
});

function build(outdir: string, namespaces: string[], extra: Partial<{ report: boolean; longName: string }> = {}): TenancyApp {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, report: extra.report ?? true });
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const ns of namespaces) {
    const chart = new Chart(app, ns);
    const t = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: ns, createTokenSecret: false });
    t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
    if (extra.longName !== undefined) {
      new ApiObject(chart, 'Long', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: extra.longName, namespace: ns } });
    }
  }
  return app;
}

describe('issue 30 item 1: no file is written through a symbolic link', () => {
  test('GIVEN a committed GitOps tree whose WARNINGS.txt and TENANCY.md are links (relative, absolute) THEN the links are replaced by the files and their targets are untouched', () => {
    const repo = path.join(root, 'links-repo');
    const outdir = path.join(repo, 'dist');
    build(outdir, ['team-a']).synth();
    fs.mkdirSync(path.join(repo, '.ci'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.ci', 'run'), '#!/bin/sh\necho ci\n');
    const absolute = path.join(root, 'outside-absolute.txt');
    fs.writeFileSync(absolute, 'outside\n');
    fs.rmSync(path.join(outdir, 'WARNINGS.txt'));
    fs.rmSync(path.join(outdir, 'TENANCY.md'));
    fs.symlinkSync('../.ci/run', path.join(outdir, 'WARNINGS.txt'));
    fs.symlinkSync(absolute, path.join(outdir, 'TENANCY.md'));

    build(outdir, ['team-a']).synth();

    expect(fs.readFileSync(path.join(repo, '.ci', 'run'), 'utf8')).toEqual('#!/bin/sh\necho ci\n');
    expect(fs.readFileSync(absolute, 'utf8')).toEqual('outside\n');
    expect(fs.lstatSync(path.join(outdir, 'WARNINGS.txt')).isSymbolicLink()).toBe(false);
    expect(fs.lstatSync(path.join(outdir, 'TENANCY.md')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(outdir, 'TENANCY.md'), 'utf8')).toMatch(/^# /);
  });

  test('GIVEN layout folders that are links (tenants/, a tenant folder) THEN the links are replaced and nothing is written through them', () => {
    const outdir = path.join(root, 'links-folders');
    const outside = path.join(root, 'links-folders-outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(outdir, { recursive: true });
    fs.symlinkSync(outside, path.join(outdir, 'tenants'));
    fs.symlinkSync(outside, path.join(outdir, 'argocd'));
    build(outdir, ['team-a']).synth();
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.lstatSync(path.join(outdir, 'tenants')).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(outdir, 'tenants', 'team-a', 'kustomization.yaml'))).toBe(true);
  });

  test.each([
    ['FILE_PER_CHART', YamlOutputType.FILE_PER_CHART, 'team-a.k8s.yaml'],
    ['FILE_PER_APP', YamlOutputType.FILE_PER_APP, 'app.k8s.yaml'],
    ['FILE_PER_RESOURCE', YamlOutputType.FILE_PER_RESOURCE, 'Namespace.team-a.k8s.yaml'],
  ])('GIVEN the cdk8s layout %s and a committed file that is a link THEN the link is replaced by the file', (_label, yamlOutputType, file) => {
    const outdir = path.join(root, `links-${yamlOutputType}`);
    const target = path.join(root, `links-${yamlOutputType}-target`);
    fs.writeFileSync(target, 'keep\n');
    fs.mkdirSync(outdir, { recursive: true });
    fs.symlinkSync(target, path.join(outdir, file));
    const app = new TenancyApp({ outdir, yamlOutputType, quiet: true, report: true });
    new ScopedOperatorTenant(new Chart(app, 'team-a'), 'Tenant', { namespaceName: 'team-a', createTokenSecret: false });
    fs.symlinkSync(target, path.join(outdir, 'TENANCY.md'));
    app.synth();
    expect(fs.readFileSync(target, 'utf8')).toEqual('keep\n');
    expect(fs.lstatSync(path.join(outdir, file)).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(outdir, file), 'utf8')).toContain('kind: Namespace');
    expect(fs.lstatSync(path.join(outdir, 'TENANCY.md')).isSymbolicLink()).toBe(false);
  });

  test('GIVEN FOLDER_PER_CHART_FILE_PER_RESOURCE and a chart folder that is a link THEN the synth refuses it by name, nothing written through it', () => {
    const outdir = path.join(root, 'links-folder-per-chart');
    const outside = path.join(root, 'links-folder-per-chart-outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(outdir, { recursive: true });
    fs.symlinkSync(outside, path.join(outdir, 'team-a'));
    const app = new TenancyApp({ outdir, yamlOutputType: YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE, quiet: true });
    new ScopedOperatorTenant(new Chart(app, 'team-a'), 'Tenant', { namespaceName: 'team-a', createTokenSecret: false });
    let error: unknown;
    try {
      app.synth();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputWriteError);
    expect((error as OutputWriteError).code).toEqual('ELINK');
    expect((error as Error).message).toEqual(`cannot write into team-a below ${outdir}: it is a symbolic link (to ${outside}), and the library writes `
      + 'only into real folders below the output directory, never through a link. Fix: remove the link (e.g. git rm team-a), then synthesize again');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  test('GIVEN catalog artifacts whose committed files are links THEN CuratedCatalog and UpstreamOlmCatalogPolicy replace the links, never write through them', () => {
    const dir = path.join(root, 'links-catalog');
    const target = path.join(root, 'links-catalog-target');
    fs.writeFileSync(target, 'keep\n');
    fs.mkdirSync(dir, { recursive: true });
    const app = new TenancyApp({ outdir: path.join(root, 'links-catalog-out'), quiet: true });
    const chart = new Chart(app, 'platform');
    const policy = new UpstreamOlmCatalogPolicy(chart, 'Policy', {});
    fs.symlinkSync(target, path.join(dir, 'disable-default-catalogs.sh'));
    const written = policy.writeArtifacts(dir);
    expect(written).toEqual([path.join(dir, 'disable-default-catalogs.patch.yaml'), path.join(dir, 'disable-default-catalogs.sh')]);
    expect(fs.readFileSync(target, 'utf8')).toEqual('keep\n');
    expect(fs.lstatSync(path.join(dir, 'disable-default-catalogs.sh')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'disable-default-catalogs.sh'), 'utf8')).toEqual(policy.artifacts()['disable-default-catalogs.sh']);
  });
});

describe('issue 30 item 2: names Kubernetes allows fit in a file name', () => {
  test('cappedName: short names unchanged; long ones cut to 240 bytes with a hash of the whole name, deterministic, distinct', () => {
    expect(cappedName('configmap-a', '.yaml')).toEqual('configmap-a.yaml');
    const a = `deployment-${'a'.repeat(253)}`;
    const b = `deployment-${'a'.repeat(252)}b`;
    const ca = cappedName(a, '.yaml');
    expect(ca).toEqual(`deployment-${'a'.repeat(240 - 5 - 13 - 11)}-${crypto.createHash('sha256').update(a).digest('hex').slice(0, 12)}.yaml`);
    expect(Buffer.byteLength(ca)).toEqual(MAX_FILE_NAME_BYTES);
    expect(cappedName(a, '.yaml')).toEqual(ca);
    expect(cappedName(b, '.yaml')).not.toEqual(ca);
    expect(cappedName(a, '-2.yaml')).not.toEqual(ca);
    // multi-byte characters are not split
    const ideographs = cappedName('名'.repeat(200), '.yaml');
    expect(Buffer.byteLength(ideographs)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(ideographs).toMatch(/^名+-[0-9a-f]{12}\.yaml$/);
  });

  test('GIVEN objects named with 253 characters, in a tenant folder and in cluster/ with their namespace THEN every file name is below 255 bytes, unique, and the kustomizations list them', () => {
    const long = `${'w'.repeat(240)}-webhook-1234`;
    expect(long.length).toEqual(253);
    const objects = [
      { manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }, tenant: 'team-a' },
      { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: long, namespace: 'team-a' } }, tenant: 'team-a' },
      { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `${long.slice(0, 252)}5`, namespace: 'team-a' } }, tenant: 'team-a' },
      { manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: long.toUpperCase().toLowerCase(), namespace: 'other' } } },
      { manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: long } } },
    ];
    const files = GitOpsLayout.files(objects);
    const names = files.map((f) => f.path.split('/').pop()!);
    for (const n of names) expect(Buffer.byteLength(n)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(new Set(files.map((f) => f.path)).size).toEqual(files.length);
    const tenantFiles = files.filter((f) => f.path.startsWith('tenants/team-a/') && f.path !== 'tenants/team-a/kustomization.yaml').map((f) => f.path.slice('tenants/team-a/'.length));
    expect(tenantFiles.length).toEqual(3);
    const kustomization = files.find((f) => f.path === 'tenants/team-a/kustomization.yaml')!.content;
    for (const n of tenantFiles) expect(kustomization).toContain(`  - ${n}\n`);
    // deterministic
    expect(GitOpsLayout.files(objects)).toEqual(files);
  });

  test('GIVEN a committed tree and a new synth with a 253-character name THEN it is written (no ENAMETOOLONG), and kubectl kustomize reads every file', () => {
    const outdir = path.join(root, 'long-names');
    build(outdir, ['team-a', 'team-b']).synth();
    const long = `${'x'.repeat(241)}-controller`;
    build(outdir, ['team-a', 'team-b'], { longName: long }).synth();
    const written = diskTree(outdir);
    const longFiles = Object.keys(written).filter((p) => p.includes('configmap-xxx'));
    expect(longFiles.length).toEqual(2);
    for (const p of longFiles) {
      expect(Buffer.byteLength(p.split('/').pop()!)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      expect(written[p]).toContain(`name: ${long}\n`);
    }
    if (HAS_KUBECTL) {
      const built = kubectlKustomize(outdir);
      expect(built.ok).toBe(true);
      expect(built.output.split(`name: ${long}\n`).length - 1).toEqual(2);
    }
  });

  test('GIVEN FILE_PER_RESOURCE and a 253-character name THEN the cdk8s file name is cut with a hash instead of ENAMETOOLONG', () => {
    const outdir = path.join(root, 'long-per-resource');
    const app = new TenancyApp({ outdir, yamlOutputType: YamlOutputType.FILE_PER_RESOURCE, quiet: true });
    const chart = new Chart(app, 'c');
    const long = 'y'.repeat(253);
    new ApiObject(chart, 'Long', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: long } });
    new ApiObject(chart, 'Short', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'short' } });
    app.synth();
    expect(fs.readdirSync(outdir).sort()).toEqual([cappedName(`ConfigMap.${long}`, '.k8s.yaml'), 'ConfigMap.short.k8s.yaml'].sort());
  });
});

describe('issue 30 item 2: the committed tree is replaced only once the new one is whole', () => {
  const NEW = ['team-a', 'team-c'];

  /** Node's calls, counted; the `failAt`-th call (0-based) fails with `code` (or every write from it on, `persistent`). */
  function injecting(failAt: number, code: string, persistent = false): { ops: OutputFsOps; calls: () => number } {
    let n = 0;
    const wrap = <K extends keyof OutputFsOps>(name: K, writes: boolean): OutputFsOps[K] => ((...args: any[]) => {
      const i = n++;
      if (i === failAt || (persistent && writes && i >= failAt)) {
        throw Object.assign(new Error(`${code}: simulated, ${name}`), { code, syscall: name, errno: -1 });
      }
      return (_nodeOutputFsOps[name] as any)(...args);
    }) as any;
    const ops: OutputFsOps = {
      lstatSync: wrap('lstatSync', false),
      mkdirSync: wrap('mkdirSync', true),
      openSync: wrap('openSync', true),
      writeSync: wrap('writeSync', true),
      closeSync: wrap('closeSync', false),
      renameSync: wrap('renameSync', false),
      unlinkSync: wrap('unlinkSync', false),
      rmSync: wrap('rmSync', false),
      readlinkSync: wrap('readlinkSync', false),
    };
    return { ops, calls: () => n };
  }

  /** The tree of a fresh synth of `NEW` over a committed one: what a successful synth leaves. */
  function expectedAfter(name: string): Record<string, string> {
    const outdir = path.join(root, name);
    build(outdir, ['team-a', 'team-b']).synth();
    build(outdir, NEW).synth();
    return diskTree(outdir);
  }

  function committed(name: string): { outdir: string; before: Record<string, string> } {
    const outdir = path.join(root, name);
    fs.rmSync(outdir, { recursive: true, force: true });
    build(outdir, ['team-a', 'team-b']).synth();
    return { outdir, before: diskTree(outdir) };
  }

  /** Fails each call of the synth once, in turn; the tree is the old one, byte for byte, or the new one. */
  function failEachStep(label: string, forceFallback: boolean): { failed: number; succeeded: number } {
    const after = expectedAfter(`${label}-after`);
    const { calls, ops } = injecting(-1, 'ENOSPC');
    const probe = committed(`${label}-probe`);
    _setOutputFsOps(ops);
    if (forceFallback) jest.spyOn(GitOpsLayout, '_emitGroups').mockImplementation(() => { throw new LayoutEntryMismatch('forced'); });
    build(probe.outdir, NEW).synth();
    _setOutputFsOps(undefined);
    expect(diskTree(probe.outdir)).toEqual(after);
    const total = calls();
    expect(total).toBeGreaterThan(30);
    const codes = ['ENOSPC', 'ENAMETOOLONG', 'EACCES', 'EIO'];
    let failed = 0;
    let succeeded = 0;
    for (let step = 0; step < total; step++) {
      const code = codes[step % codes.length];
      const { outdir, before } = committed(`${label}-step`);
      _setOutputFsOps(injecting(step, code).ops);
      let error: unknown;
      try {
        build(outdir, NEW).synth();
      } catch (e) {
        error = e;
      }
      _setOutputFsOps(undefined);
      if (error === undefined) {
        // the failure hit a clean-up after the swap: the new tree is whole (a leftover folder goes with the next synth)
        const now = diskTree(outdir);
        for (const k of Object.keys(now)) if (k.startsWith('.cdk8s-olm-tenancy-')) delete now[k];
        expect({ step, tree: now }).toEqual({ step, tree: after });
        succeeded++;
      } else {
        expect({ step, tree: diskTree(outdir) }).toEqual({ step, tree: before });
        expect(error).toBeInstanceOf(OutputWriteError);
        expect((error as OutputWriteError).code).toEqual(code);
        expect((error as Error).message).toMatch(new RegExp(`^cannot write .*: ${code} \\(.*\\)(; nothing in ${outdir} was changed|; the previous output is unchanged)\\. Fix: `));
        failed++;
      }
    }
    return { failed, succeeded };
  }

  test('GIVEN a failure at each step of the streamed writing and of the swap THEN the old tree is intact (every file byte-identical) or the new one whole', () => {
    const { failed, succeeded } = failEachStep('each-step', false);
    expect(failed).toBeGreaterThan(30);
    // the clean-ups after the swap: the swap journal (issue 42), the backup and the staging folder
    expect(succeeded).toBeLessThanOrEqual(3);
  });

  test('GIVEN the fallback writer (the layout of the JSON) and a failure at each step THEN the old tree is intact or the new one whole: the fallback never writes in place', () => {
    const { failed } = failEachStep('each-step-fallback', true);
    expect(failed).toBeGreaterThan(30);
  });

  test('GIVEN a full disk from some write on (ENOSPC persists, removing still works) THEN a clear error, the old tree intact, no staging left, no fallback', () => {
    const { outdir, before } = committed('enospc');
    const fromJson = jest.spyOn(GitOpsLayout, '_emitFiles');
    _setOutputFsOps(injecting(25, 'ENOSPC', true).ops);
    // issue 42: the staging folder is the synth's own, `.cdk8s-olm-tenancy-staging-<pid>-<token>-<random>`
    expect(() => build(outdir, NEW).synth()).toThrow(new RegExp(`^cannot write ${outdir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.cdk8s-olm-tenancy-staging-\\d+-[0-9a-f]{8}-[0-9a-f]{8}/.*: ENOSPC \\(no space left on the device\\); `
      + `nothing in ${outdir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was changed\\. Fix: free space on the file system of the output directory, then synthesize again$`));
    _setOutputFsOps(undefined);
    expect(fromJson).not.toHaveBeenCalled();
    expect(diskTree(outdir)).toEqual(before);
  });
});
