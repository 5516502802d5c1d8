import * as fc from 'fast-check';
import { parse } from 'yaml';
import { GitOpsFile, GitOpsLayout, GitOpsObject } from '../../src';

const ns = (name: string, labels?: any) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } });
const obj = (apiVersion: string, kind: string, name: string, namespace?: string) =>
  ({ apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } });
const id = (o: any) => GitOpsLayout.identity(o);

/** path -> parsed YAML (kustomizations as their resources list). */
function tree(files: GitOpsFile[]): { [path: string]: any } {
  const out: { [path: string]: any } = {};
  for (const f of files) {
    const doc = parse(f.content);
    out[f.path] = f.path.endsWith('kustomization.yaml') ? doc.resources : doc;
  }
  return out;
}

describe('GitOpsLayout', () => {
  // A tenant chart in cdk8s order, a platform chart serving a CatalogSource into the tenant namespace, and a
  // tenant's opted-in ClusterRole and Role in kube-system.
  const teamA = ns('team-a', { 'pod-security.kubernetes.io/enforce': 'restricted' });
  const sa = obj('v1', 'ServiceAccount', 'team-a', 'team-a');
  const role = obj('rbac.authorization.k8s.io/v1', 'Role', 'team-a', 'team-a');
  const clusterRole = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'team-a-olm-installer');
  const kubeSystemRole = obj('rbac.authorization.k8s.io/v1', 'Role', 'team-a-olm-installer', 'kube-system');
  const og = obj('operators.coreos.com/v1', 'OperatorGroup', 'team-a', 'team-a');
  const sub = obj('operators.coreos.com/v1alpha1', 'Subscription', 'etcd', 'team-a');
  const access = obj('rbac.authorization.k8s.io/v1', 'RoleBinding', 'team-a-operator-admin', 'team-a');
  const hub = obj('config.openshift.io/v1', 'OperatorHub', 'cluster');
  const catalog = obj('operators.coreos.com/v1alpha1', 'CatalogSource', 'curated-operators', 'team-a');
  const vap = obj('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'curated-operators-curation');
  const input: GitOpsObject[] = [
    { manifest: hub },
    { manifest: catalog, dependsOn: [id(teamA)] },
    { manifest: vap },
    { manifest: teamA, tenant: 'team-a' },
    { manifest: sa, tenant: 'team-a', dependsOn: [id(teamA)] },
    { manifest: role, tenant: 'team-a', dependsOn: [id(sa)] },
    { manifest: clusterRole, tenant: 'team-a', dependsOn: [id(sa)] },
    { manifest: kubeSystemRole, tenant: 'team-a', dependsOn: [id(sa)] },
    { manifest: og, tenant: 'team-a', dependsOn: [id(role), id(clusterRole)] },
    { manifest: sub, tenant: 'team-a', dependsOn: [id(og)] },
    { manifest: access, tenant: 'team-a', dependsOn: [id(og)] },
  ];

  test('GIVEN platform and tenant objects THEN cluster/ and tenants/<ns>/ hold them, each kustomization in apply order', () => {
    // WHEN
    const files = GitOpsLayout.files(input);

    // THEN
    expect(files.map((f) => f.path)).toEqual([
      'cluster/clusterrole-team-a-olm-installer.yaml',
      'cluster/kustomization.yaml',
      'cluster/operatorhub-cluster.yaml',
      'cluster/role-kube-system-team-a-olm-installer.yaml',
      'cluster/validatingadmissionpolicy-curated-operators-curation.yaml',
      'kustomization.yaml',
      'tenants/kustomization.yaml',
      'tenants/team-a/catalogsource-curated-operators.yaml',
      'tenants/team-a/kustomization.yaml',
      'tenants/team-a/namespace-team-a.yaml',
      'tenants/team-a/operatorgroup-team-a.yaml',
      'tenants/team-a/role-team-a.yaml',
      'tenants/team-a/rolebinding-team-a-operator-admin.yaml',
      'tenants/team-a/serviceaccount-team-a.yaml',
      'tenants/team-a/subscription-etcd.yaml',
    ]);
    const t = tree(files);
    expect(t['kustomization.yaml']).toEqual(['cluster', 'tenants']);
    expect(t['tenants/kustomization.yaml']).toEqual(['team-a']);
    expect(t['cluster/kustomization.yaml']).toEqual([
      'operatorhub-cluster.yaml',
      'validatingadmissionpolicy-curated-operators-curation.yaml',
      'clusterrole-team-a-olm-installer.yaml',
      'role-kube-system-team-a-olm-installer.yaml',
    ]);
    // wave 0 (Namespace, ServiceAccount, Role), wave 1 (CatalogSource, OperatorGroup, and the access binding that
    // depends on the OperatorGroup), wave 2 (Subscription); within a wave, synthesis order.
    expect(t['tenants/team-a/kustomization.yaml']).toEqual([
      'namespace-team-a.yaml',
      'serviceaccount-team-a.yaml',
      'role-team-a.yaml',
      'catalogsource-curated-operators.yaml',
      'operatorgroup-team-a.yaml',
      'rolebinding-team-a-operator-admin.yaml',
      'subscription-etcd.yaml',
    ]);
    expect(parse(files.find((f) => f.path === 'kustomization.yaml')!.content)).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      sortOptions: { order: 'fifo' },
      resources: ['cluster', 'tenants'],
    });
  });

  test('GIVEN the default options THEN every object gets managed-by, tenant objects the tenant label, and no sync waves', () => {
    const t = tree(GitOpsLayout.files(input));
    expect(t['tenants/team-a/namespace-team-a.yaml']).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        labels: {
          'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy',
          'cdk8s-olm-tenancy.io/tenant': 'team-a',
          'pod-security.kubernetes.io/enforce': 'restricted',
        },
        name: 'team-a',
      },
    });
    // A platform object served into the tenant namespace is labelled with that tenant.
    expect(t['tenants/team-a/catalogsource-curated-operators.yaml'].metadata).toEqual({
      labels: { 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'team-a' },
      name: 'curated-operators',
      namespace: 'team-a',
    });
    // A tenant's object in cluster/ keeps its tenant label; a platform object has none.
    expect(t['cluster/clusterrole-team-a-olm-installer.yaml'].metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'team-a',
    });
    expect(t['cluster/operatorhub-cluster.yaml'].metadata).toEqual({ labels: { 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy' }, name: 'cluster' });
  });

  test('GIVEN syncWaves THEN each object carries its wave: identity and RBAC 0, CatalogSource and OperatorGroup 1, Subscription 2', () => {
    const files = GitOpsLayout.files(input, { syncWaves: true });
    const waves = files.filter((f) => !f.path.endsWith('kustomization.yaml'))
      .map((f) => [f.path, parse(f.content).metadata.annotations['argocd.argoproj.io/sync-wave']]);
    expect(waves).toEqual([
      ['cluster/clusterrole-team-a-olm-installer.yaml', '0'],
      ['cluster/operatorhub-cluster.yaml', '0'],
      ['cluster/role-kube-system-team-a-olm-installer.yaml', '0'],
      ['cluster/validatingadmissionpolicy-curated-operators-curation.yaml', '0'],
      ['tenants/team-a/catalogsource-curated-operators.yaml', '1'],
      ['tenants/team-a/namespace-team-a.yaml', '0'],
      ['tenants/team-a/operatorgroup-team-a.yaml', '1'],
      ['tenants/team-a/role-team-a.yaml', '0'],
      ['tenants/team-a/rolebinding-team-a-operator-admin.yaml', '1'],
      ['tenants/team-a/serviceaccount-team-a.yaml', '0'],
      ['tenants/team-a/subscription-etcd.yaml', '2'],
    ]);
  });

  test('GIVEN an existing managed-by label THEN it is kept; the input objects are not modified', () => {
    const helm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'team-a', labels: { 'app.kubernetes.io/managed-by': 'Helm' } } };
    const before = JSON.stringify(helm);
    const t = tree(GitOpsLayout.files([{ manifest: ns('team-a'), tenant: 'team-a' }, { manifest: helm }], { syncWaves: true }));
    expect(t['tenants/team-a/configmap-x.yaml'].metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'Helm', 'cdk8s-olm-tenancy.io/tenant': 'team-a' });
    expect(JSON.stringify(helm)).toEqual(before);
  });

  test('GIVEN names that differ only in case or symbols THEN files get -2, -3 suffixes in synthesis order', () => {
    const files = GitOpsLayout.files([
      { manifest: obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'system:foo') },
      { manifest: obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'system-foo') },
      { manifest: obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'System:Foo') },
      { manifest: obj('v1', 'ConfigMap', 'kustomization', undefined) },
    ]);
    expect(tree(files)['cluster/kustomization.yaml']).toEqual([
      'clusterrole-system-foo.yaml', 'clusterrole-system-foo-2.yaml', 'clusterrole-system-foo-3.yaml', 'configmap-kustomization.yaml',
    ]);
  });

  test('GIVEN no tenants THEN only cluster/ and the top kustomization', () => {
    expect(GitOpsLayout.files([{ manifest: hub }]).map((f) => f.path)).toEqual([
      'cluster/kustomization.yaml', 'cluster/operatorhub-cluster.yaml', 'kustomization.yaml',
    ]);
  });

  test('kindWave: only OLM kinds are raised', () => {
    expect([
      ['operators.coreos.com/v1alpha1', 'Subscription'], ['operators.coreos.com/v1alpha1', 'CatalogSource'],
      ['operators.coreos.com/v1', 'OperatorGroup'], ['operators.coreos.com/v1alpha1', 'InstallPlan'],
      ['v1', 'Namespace'], ['example.com/v1', 'Subscription'],
    ].map(([v, k]) => GitOpsLayout.kindWave(v, k))).toEqual([2, 1, 1, 0, 0, 0]);
  });

  test('property (seed 10): every object is written once, every folder lists all its files, dependencies come first', () => {
    const kinds = [['v1', 'ServiceAccount'], ['operators.coreos.com/v1', 'OperatorGroup'], ['operators.coreos.com/v1alpha1', 'Subscription'],
      ['rbac.authorization.k8s.io/v1', 'ClusterRole'], ['operators.coreos.com/v1alpha1', 'CatalogSource']];
    const arb = fc.array(fc.record({
      kind: fc.integer({ min: 0, max: kinds.length - 1 }),
      name: fc.constantFrom('a', 'b', 'c', 'B'),
      namespace: fc.constantFrom('t1', 't2', 'other'),
      tenant: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }),
      deps: fc.array(fc.nat(30), { maxLength: 3 }),
    }), { maxLength: 30 });
    fc.assert(fc.property(arb, (specs) => {
      const manifests = specs.map((s) => {
        const [v, k] = kinds[s.kind];
        return obj(v, k, s.name, k === 'ClusterRole' ? undefined : s.namespace);
      });
      // dependencies only on earlier objects (cdk8s's order is a topological order)
      const objects: GitOpsObject[] = specs.map((s, i) => ({
        manifest: manifests[i], tenant: s.tenant, dependsOn: s.deps.filter((d) => d < i).map((d) => id(manifests[d])),
      }));
      const files = GitOpsLayout.files(objects, { syncWaves: true });
      const written = files.filter((f) => !f.path.endsWith('kustomization.yaml'));
      expect(written.length).toEqual(objects.length);
      const folders = new Map<string, string[]>();
      for (const f of written) {
        const dir = f.path.slice(0, f.path.lastIndexOf('/'));
        folders.set(dir, [...(folders.get(dir) ?? []), f.path.slice(dir.length + 1)]);
      }
      const t = tree(files);
      for (const [dir, names] of folders) {
        const listed: string[] = t[`${dir}/kustomization.yaml`];
        expect([...listed].sort()).toEqual([...names].sort());
        // waves never decrease along the apply order
        const waves = listed.map((n) => Number(t[`${dir}/${n}`].metadata.annotations['argocd.argoproj.io/sync-wave']));
        expect(waves).toEqual([...waves].sort((a, b) => a - b));
      }
      // every dependency in the same folder is listed before its dependent
      const position = new Map<string, string>();
      const counts = new Map<string, number>();
      for (const m of manifests) counts.set(id(m), (counts.get(id(m)) ?? 0) + 1);
      for (const [dir, names] of Object.entries(t).filter(([p]) => p.endsWith('/kustomization.yaml') && p.includes('/'))) {
        // the kustomizations that list folders, not files
        if (['tenants/kustomization.yaml', 'after-install/kustomization.yaml', 'after-install/tenants/kustomization.yaml'].includes(dir)) continue;
        const folder = dir.slice(0, -'/kustomization.yaml'.length);
        (names as string[]).forEach((n, i) => position.set(id(t[`${folder}/${n}`]), `${folder}:${String(i).padStart(3, '0')}`));
      }
      objects.forEach((o) => {
        for (const d of o.dependsOn ?? []) {
          if (counts.get(d) !== 1 || counts.get(id(o.manifest)) !== 1) continue;
          const [df, dp] = position.get(d)!.split(':');
          const [of, op] = position.get(id(o.manifest))!.split(':');
          if (df === of) expect(dp < op).toBe(true);
        }
      });
      // an object that depends on a Subscription is applied after the install: in after-install/, a later wave
      objects.forEach((o) => {
        const afterInstall = (o.dependsOn ?? []).some((d) => d.includes('/Subscription/'));
        const [folder] = position.get(id(o.manifest))?.split(':') ?? [];
        if (counts.get(id(o.manifest)) !== 1) return;
        expect(folder.startsWith('after-install/')).toBe(afterInstall);
        if (afterInstall) expect(Number(t[`${folder}/${t[`${folder}/kustomization.yaml`].find((n: string) => id(t[`${folder}/${n}`]) === id(o.manifest))}`].metadata.annotations['argocd.argoproj.io/sync-wave'])).toBeGreaterThanOrEqual(3);
      });
      // same input, same bytes
      expect(GitOpsLayout.files(objects, { syncWaves: true })).toEqual(files);
    }), { seed: 10, numRuns: 200 });
  });
});
