/**
 * Issue 38: what a large synth shares between tenants never changes what it writes. The caches keyed by content (the
 * derivation, the preflight, the rule checks, the audit's templates), the written forms of YAML strings and the
 * per-pass memos (`PassMemo`: a tenant's preflight and findings, the sensitive-grant options, the compacted rules)
 * are all switched off by `CACHING.enabled = false`; the bench app (bench/apps/tenancy-app.js: tenants with the
 * etcd 0.9.4 and prometheus 0.56.3 bundles, `deriveInstallerRules`, GitOps layout, warnings printed) must write
 * the same bytes, and print the same warnings, either way: at 1 tenant, and at 100 where one tenant differs from the
 * rest (a namespace YAML 1.1 reads as a boolean, one subscription, a sensitive grant accepted by name, another
 * target namespace). 5,000 tenants are compared by hand and by `npm run bench` (docs/scale.md).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import {
  CatalogSourceReference, OperatorBundle, OutputLayout, ScopedOperatorTenant, SensitiveGrant, TargetNamespaces, TenancyApp,
} from '../../src';
import { CACHING } from '../../src/core/content-cache';
import { fileTree } from '../util/files';
import { stderrOf } from '../util/stderr';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');

/** The tenant that differs from the rest (at 100 tenants). */
const ODD = 37;

/** The bench app's tenants (one differing at `ODD` when `odd`), synthesized; the files and what went to stderr. */
function synthesize(outdir: string, tenants: number, odd: boolean): { files: Record<string, string>; stderr: string } {
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS });
  for (let i = 0; i < tenants; i++) {
    const chart = new Chart(app, `tenant-${i}`);
    if (odd && i === ODD) {
      const t = new ScopedOperatorTenant(chart, 'Tenant', {
        namespaceName: 'yes',
        deriveInstallerRules: true,
        targetNamespaces: TargetNamespaces.namespaces(['team-odd-workloads'], 'the operator serves the workloads namespace'),
        acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_CREATE, reason: 'the operator runs its own pods' }],
      });
      t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
      continue;
    }
    const t = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
    t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
  }
  const printed = stderrOf(() => app.synth());
  // the summary line says how long the synth took; the output directory differs
  const stderr = printed.split(outdir).join('<outdir>').replace(/ in \d+\.\d s -> /, ' in <seconds> s -> ');
  return { files: fileTree(outdir), stderr };
}

/** The same synth with every cache and memo off. */
function uncached<T>(run: () => T): T {
  CACHING.enabled = false;
  try {
    return run();
  } finally {
    CACHING.enabled = true;
  }
}

describe('caches and memos never change the output (issue 38)', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-caches-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('1 tenant: the same files and warnings with and without the caches', () => {
    const cached = synthesize(path.join(root, 'one-cached'), 1, false);
    const plain = uncached(() => synthesize(path.join(root, 'one-plain'), 1, false));
    // 9 files of the tenant, 6 of the platform (WARNINGS.txt, the two kustomization.yaml, argocd/'s three with the operator patch)
    expect(Object.keys(cached.files)).toHaveLength(9 + 6);
    expect(cached.files).toEqual(plain.files);
    expect(cached.stderr).toEqual(plain.stderr);
  });

  test('100 tenants, one of them different: the same files and warnings with and without the caches; the odd one is its own', () => {
    const cached = synthesize(path.join(root, 'many-cached'), 100, true);
    const plain = uncached(() => synthesize(path.join(root, 'many-plain'), 100, true));
    expect(Object.keys(cached.files)).toHaveLength(99 * 9 + 8 + 6);
    expect(cached.files).toEqual(plain.files);
    expect(cached.stderr).toEqual(plain.stderr);

    // the odd tenant got its own results, not the shared ones of the others: its namespace quoted ('yes' is a YAML
    // 1.1 boolean), its own target namespaces, one Subscription and the grants of its one bundle
    const odd = Object.fromEntries(Object.entries(cached.files).filter(([f]) => f.startsWith('tenants/yes/')));
    expect(Object.keys(odd).sort()).toEqual([
      'tenants/yes/kustomization.yaml', 'tenants/yes/namespace-yes.yaml', 'tenants/yes/operatorgroup-yes.yaml', 'tenants/yes/role-yes.yaml',
      'tenants/yes/rolebinding-yes.yaml', 'tenants/yes/secret-yes.yaml', 'tenants/yes/serviceaccount-yes.yaml', 'tenants/yes/subscription-etcd.yaml',
    ]);
    expect(odd['tenants/yes/namespace-yes.yaml']).toContain('\n  name: "yes"\n');
    expect(odd['tenants/yes/operatorgroup-yes.yaml']).toContain('  targetNamespaces:\n    - team-odd-workloads\n');
    expect(odd['tenants/yes/role-yes.yaml']).toContain('\n    cdk8s-olm-tenancy.io/sensitive-grants: "POD_IMAGE_UPDATE (\'update\'/\'patch\' on pods (a running '
      + 'container\'s image)): granted by the bundles\' own Roles in namespace yes (etcdoperator.v0.9.4); OLM\'s RBAC escalation check makes the '
      + 'installer hold them to create those Roles"\n');
    // ... and the others are the first tenant's, renamed
    const renamed = (i: number, f: string) => cached.files[f.replace(/team-0/g, `team-${i}`)];
    const first = Object.entries(cached.files).filter(([f]) => f.startsWith('tenants/team-0/'));
    expect(first).toHaveLength(9);
    const differing = [...Array(100).keys()].filter((i) => i !== ODD)
      .filter((i) => first.some(([f, content]) => renamed(i, f) !== content.replace(/team-0\b/g, `team-${i}`)));
    expect(differing).toEqual([]);
  });
});
