/**
 * Issue 15, "a real reader in the tests": kubectl (sigs.k8s.io/yaml on go-yaml v2, as Argo CD and Flux) reads every
 * example's output exactly as the library's in-memory objects, and `kubectl kustomize` builds every example GitOps
 * folder. The examples are synthesized into a temp dir (nothing tracked is written).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildPlatform } from '../../examples/platform';
import { buildFixedTenant } from '../../examples/preflight-demo';
import { buildUpgradeTenant } from '../../examples/upgrade-demo';
import { synthPlatform } from '../../examples/walkthrough';
import { DeriveScope, GitOpsLayout, OutputLayout, TenancyApp } from '../../src';
import { pathsBelow } from '../util/files';
import { describeWithKubectl, kubectlKustomize, kubectlRead, normalized } from '../util/kubectl';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kubectl-read-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));


/** Every manifest file below `dir` as one multi-document text (one kubectl call). */
function manifestsText(dir: string): string {
  return pathsBelow(dir).filter((f) => f.endsWith('.yaml') && path.basename(f) !== 'kustomization.yaml' && !f.includes(`${path.sep}argocd${path.sep}`))
    .map((f) => fs.readFileSync(f, 'utf8')).join('---\n');
}

const identity = (o: any) => `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}/${JSON.stringify(o)}`;
const sorted = (objects: any[]) => [...objects].sort((a, b) => (identity(a) < identity(b) ? -1 : 1));

/** An object without what the GitOps layout adds (common labels, sync wave), on both sides of a comparison. */
function undecorated(o: any): any {
  const copy = normalized(o);
  const m = copy.metadata ?? {};
  for (const [field, keys] of [['labels', [GitOpsLayout.MANAGED_BY_LABEL, GitOpsLayout.TENANT_LABEL]], ['annotations', [GitOpsLayout.SYNC_WAVE_ANNOTATION]]] as const) {
    if (m[field] === undefined) continue;
    for (const k of keys) delete m[field][k];
    if (Object.keys(m[field]).length === 0) delete m[field];
  }
  return copy;
}

describeWithKubectl('kubectl reads every example output exactly as the library\'s objects', () => {
  test('GIVEN the example platform, one file per chart THEN kubectl reads exactly the in-memory objects', () => {
    const outdir = path.join(tmpRoot, 'platform');
    const app = new TenancyApp({ outdir, quiet: true });
    buildPlatform(app);
    app.synth();
    const objects = app.synthObjects().flatMap((c) => c.objects);
    expect(objects.length).toBeGreaterThan(50);
    expect(sorted(kubectlRead(manifestsText(outdir)))).toEqual(sorted(objects.map(normalized)));
  });

  test('GIVEN the example platform and the walkthrough in the GitOps layout THEN kubectl reads every file as the objects and kustomize builds every folder', () => {
    const gitops = path.join(tmpRoot, 'gitops');
    const app = new TenancyApp({ outdir: gitops, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true });
    buildPlatform(app);
    app.synth();
    const walkthrough = synthPlatform(path.join(tmpRoot, 'walkthrough'), path.join(__dirname, '..', 'fixtures', 'bundle-history'));
    for (const [dir, tenancyApp] of [[gitops, app], [path.join(tmpRoot, 'walkthrough'), walkthrough]] as const) {
      const objects = sorted(tenancyApp.synthObjects().flatMap((c) => c.objects).map(undecorated));
      expect(sorted(kubectlRead(manifestsText(dir)).map(undecorated))).toEqual(objects);
      const folders = pathsBelow(dir).filter((f) => path.basename(f) === 'kustomization.yaml').map((f) => path.dirname(f));
      expect(folders.length).toBeGreaterThan(3);
      const failed = folders.map((f) => [path.relative(dir, f), kubectlKustomize(f)] as const).filter(([, r]) => !r.ok).map(([f, r]) => `${f}: ${r.output}`);
      expect(failed).toEqual([]);
      // the whole tree, built by kustomize, holds exactly the objects
      expect(sorted(kubectlRead(kubectlKustomize(dir).output).map(undecorated))).toEqual(objects);
    }
  });

  test('GIVEN the preflight demo\'s fixed tenant and the upgrade demo THEN kubectl reads exactly the in-memory objects', () => {
    for (const [name, build] of [['preflight', buildFixedTenant], ['upgrade', (a: any) => buildUpgradeTenant(a, DeriveScope.ALLOWED_UPGRADES)]] as const) {
      const outdir = path.join(tmpRoot, name);
      const app = new TenancyApp({ outdir, quiet: true });
      build(app);
      app.synth();
      expect(sorted(kubectlRead(manifestsText(outdir)))).toEqual(sorted(app.synthObjects().flatMap((c) => c.objects).map(normalized)));
    }
  });
});
