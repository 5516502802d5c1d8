/**
 * Issue 37 ("complete by construction"): the checked-in table of the built-in Kubernetes API
 * (test/fixtures/kubernetes-api/, derived by scripts/derive-kubernetes-api.ts) and its list of authorization-only
 * verbs. These tests pin facts of the release that the completeness checks rely on, so that an edit or a
 * re-derivation that loses them fails here rather than silently shrinking what the model must decide about.
 */
import * as path from 'path';
import {
  aggregatedRows, coreRows, crdFilesOf, crdHeader, crdRows, kubeAwareVersionOrder, DerivedRow,
} from '../../scripts/derive-kubernetes-api';
import {
  apiGroups, apiRowsOf, apiTableInfo, authorizationVerbs, builtinApi, KUBERNETES_API_RELEASE,
} from '../util/kubernetes-api';

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SRV = ['get', 'patch', 'update'];
const REPO = path.join(__dirname, '..', '..');

const row = (group: string, version: string, resource: string, subresource?: string) => builtinApi()
  .find((r) => r.group === group && r.version === version && r.resource === resource && r.subresource === subresource);

describe('kubernetes-api table: release and provenance', () => {
  test('names the release and the k8s.io/api tag commit it was checked against', () => {
    const info = apiTableInfo();
    expect(info.release).toBe('v1.36.3');
    expect(KUBERNETES_API_RELEASE).toBe('v1.36.3');
    expect((info.provenance as any).k8sIoApi).toEqual(expect.objectContaining({ repo: 'kubernetes/api', tag: 'v0.36.3', commit: '3fde3c43c3cf3447606b9c2ac2c6257095444387' }));
    expect(info.crdFolders).toEqual(['crds/olm', 'crds/olm-v1', 'crds/openshift']);
  });

  test('row counts by source (a re-derivation that adds or loses rows shows here)', () => {
    const count = (pred: (s: string) => boolean) => builtinApi().filter((r) => pred(r.source)).length;
    expect({
      core: count((s) => s === 'kubernetes:/api/v1'),
      apis: count((s) => s === 'kubernetes:/apis'),
      corrections: count((s) => s === 'correction'),
      crds: count((s) => s.startsWith('crds/')),
      total: builtinApi().length,
    }).toEqual({ core: 38, apis: 111, corrections: 1, crds: 26, total: 176 });
  });

  test('one row per (group, version, resource, subresource); verbs sorted and discovery verbs only', () => {
    const keys = builtinApi().map((r) => `${r.group}/${r.version}/${r.resource}/${r.subresource ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of builtinApi()) {
      expect(r.verbs).toEqual([...r.verbs].sort());
      expect(r.verbs.filter((v) => !ALL.includes(v))).toEqual([]);
    }
  });

  test('every subresource row has its resource row in the same version, with the same scope', () => {
    const problems = builtinApi().filter((r) => r.subresource).filter((r) => row(r.group, r.version, r.resource)?.namespaced !== r.namespaced)
      .map((r) => `${r.group}/${r.version} ${r.resource}/${r.subresource}`);
    expect(problems).toEqual([]);
  });

  test('groups list exactly the versions that have rows, and one version per resource is preferred', () => {
    for (const g of apiGroups()) {
      const versions = new Set(builtinApi().filter((r) => r.group === g.group).map((r) => r.version));
      expect([...g.versions].sort()).toEqual([...versions].sort());
      expect(g.preferredVersion).toBe(g.versions[0]);
    }
    const preferredPerResource = new Map<string, number>();
    for (const r of builtinApi().filter((x) => !x.subresource && x.preferred)) {
      const key = `${r.group}/${r.resource}`;
      preferredPerResource.set(key, (preferredPerResource.get(key) ?? 0) + 1);
    }
    const resources = new Set(builtinApi().map((r) => `${r.group}/${r.resource}`));
    expect([...resources].filter((k) => preferredPerResource.get(k) !== 1)).toEqual([]);
  });
});

describe('kubernetes-api table: pinned facts of v1.36.3', () => {
  test('pods/exec, attach and portforward: create and get (the websocket GET also checks create, see authorizationVerbs)', () => {
    expect(row('', 'v1', 'pods', 'exec')).toEqual({
      group: '', version: 'v1', resource: 'pods', subresource: 'exec', namespaced: true, verbs: ['create', 'get'], source: 'kubernetes:/api/v1', preferred: true,
    });
    expect(row('', 'v1', 'pods', 'attach')?.verbs).toEqual(['create', 'get']);
    expect(row('', 'v1', 'pods', 'portforward')?.verbs).toEqual(['create', 'get']);
  });

  test('every pod subresource of the release, resize from the cited correction', () => {
    expect(apiRowsOf('', 'pods').map((r) => [r.subresource ?? '', r.verbs.join(',')])).toEqual([
      ['', ALL.join(',')],
      ['attach', 'create,get'],
      ['binding', 'create'],
      ['ephemeralcontainers', SRV.join(',')],
      ['eviction', 'create'],
      ['exec', 'create,get'],
      ['log', 'get'],
      ['portforward', 'create,get'],
      ['proxy', 'create,delete,get,patch,update'],
      ['resize', SRV.join(',')],
      ['status', SRV.join(',')],
    ]);
    expect(row('', 'v1', 'pods', 'resize')?.source).toBe('correction');
    expect(apiTableInfo().corrections.map((c) => c.add)).toEqual([
      { group: '', version: 'v1', resource: 'pods', subresource: 'resize', namespaced: true, kind: '', verbs: SRV },
    ]);
  });

  test('nodes/proxy: cluster-scoped, create delete get patch update', () => {
    expect(row('', 'v1', 'nodes', 'proxy')).toEqual({
      group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', namespaced: false, verbs: ['create', 'delete', 'get', 'patch', 'update'], source: 'kubernetes:/api/v1', preferred: true,
    });
    expect(row('', 'v1', 'services', 'proxy')?.verbs).toEqual(['create', 'delete', 'get', 'patch', 'update']);
  });

  test('serviceaccounts/token: create only', () => {
    expect(row('', 'v1', 'serviceaccounts', 'token')?.verbs).toEqual(['create']);
    expect(apiRowsOf('', 'serviceaccounts').map((r) => r.subresource)).toEqual([undefined, 'token']);
  });

  test('namespaces are cluster-scoped and have no deletecollection; secrets are namespaced', () => {
    expect(row('', 'v1', 'namespaces')).toEqual({
      group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], source: 'kubernetes:/api/v1', preferred: true,
    });
    expect(row('', 'v1', 'namespaces', 'finalize')?.verbs).toEqual(['update']);
    expect(row('', 'v1', 'secrets')).toEqual({
      group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret', verbs: ALL, source: 'kubernetes:/api/v1', preferred: true,
    });
  });

  test('RBAC: four resources, discovery verbs only; bind and escalate come from the authorization list', () => {
    expect(builtinApi().filter((r) => r.group === 'rbac.authorization.k8s.io').map((r) => [r.version, r.resource, r.namespaced, r.verbs.join(',')])).toEqual([
      ['v1', 'clusterrolebindings', false, ALL.join(',')],
      ['v1', 'clusterroles', false, ALL.join(',')],
      ['v1', 'rolebindings', true, ALL.join(',')],
      ['v1', 'roles', true, ALL.join(',')],
    ]);
    const special = (resource: string) => authorizationVerbs().filter((a) => a.group === 'rbac.authorization.k8s.io' && a.resource === resource).flatMap((a) => a.verbs).sort();
    expect(special('roles')).toEqual(['bind', 'escalate']);
    expect(special('clusterroles')).toEqual(['bind', 'escalate']);
  });

  test('preferred versions: the first version of the group that serves the resource', () => {
    expect(builtinApi().filter((r) => r.group === 'autoscaling' && !r.subresource).map((r) => [r.version, r.preferred])).toEqual([['v1', false], ['v2', true]]);
    expect(builtinApi().filter((r) => r.group === 'resource.k8s.io' && r.resource === 'resourceclaims' && !r.subresource).map((r) => [r.version, r.preferred]))
      .toEqual([['v1', true], ['v1beta1', false], ['v1beta2', false]]);
    // devicetaintrules is not served in resource.k8s.io/v1 in this release: its preferred version is v1beta2
    expect(builtinApi().filter((r) => r.resource === 'devicetaintrules' && !r.subresource).map((r) => [r.version, r.preferred])).toEqual([['v1alpha3', false], ['v1beta2', true]]);
  });

  test('alpha and beta versions are listed (api/all=true): scheduling.k8s.io/v1alpha2 without 1.37 compositepodgroups', () => {
    expect(apiGroups().find((g) => g.group === 'scheduling.k8s.io')).toEqual({ group: 'scheduling.k8s.io', versions: ['v1', 'v1alpha2'], preferredVersion: 'v1', source: 'kubernetes:/apis' });
    expect(builtinApi().filter((r) => r.group === 'scheduling.k8s.io' && r.version === 'v1alpha2').map((r) => `${r.resource}${r.subresource ? '/' + r.subresource : ''}`))
      .toEqual(['podgroups', 'podgroups/status', 'workloads']);
  });

  test('certificates: CSR approval and status subresources; signers are not a served resource', () => {
    expect(apiRowsOf('certificates.k8s.io', 'certificatesigningrequests').map((r) => [r.version, r.subresource ?? '', r.namespaced])).toEqual([
      ['v1', '', false], ['v1', 'approval', false], ['v1', 'status', false],
    ]);
    expect(apiRowsOf('certificates.k8s.io', 'signers')).toEqual([]);
  });
});

describe('kubernetes-api table: OLM and other CRDs from crds/', () => {
  test('OLM v0, OLM v1 and OperatorHub CRDs, every served version with its status subresource', () => {
    const crdRowsNow = builtinApi().filter((r) => r.source.startsWith('crds/'));
    expect(crdRowsNow.filter((r) => !r.subresource).map((r) => `${r.group}/${r.version}/${r.resource} ${r.namespaced ? 'Namespaced' : 'Cluster'}`)).toEqual([
      'config.openshift.io/v1/operatorhubs Cluster',
      'olm.operatorframework.io/v1/clustercatalogs Cluster',
      'olm.operatorframework.io/v1/clusterextensions Cluster',
      'operators.coreos.com/v1alpha1/catalogsources Namespaced',
      'operators.coreos.com/v1alpha1/clusterserviceversions Namespaced',
      'operators.coreos.com/v1alpha1/installplans Namespaced',
      'operators.coreos.com/v1/olmconfigs Cluster',
      'operators.coreos.com/v1/operatorconditions Namespaced',
      'operators.coreos.com/v2/operatorconditions Namespaced',
      'operators.coreos.com/v1/operatorgroups Namespaced',
      'operators.coreos.com/v1alpha2/operatorgroups Namespaced',
      'operators.coreos.com/v1/operators Cluster',
      'operators.coreos.com/v1alpha1/subscriptions Namespaced',
    ]);
    for (const r of crdRowsNow.filter((x) => !x.subresource)) {
      expect([r.verbs, row(r.group, r.version, r.resource, 'status')?.verbs]).toEqual([ALL, SRV]);
    }
    expect(row('operators.coreos.com', 'v1alpha1', 'installplans', 'status')).toEqual({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      resource: 'installplans',
      subresource: 'status',
      namespaced: true,
      verbs: SRV,
      source: 'crds/olm/operators.coreos.com_installplans.yaml',
      preferred: true,
    });
    expect(crdRowsNow.filter((r) => r.subresource === 'scale')).toEqual([]);
  });

  test('operators.coreos.com prefers v2 as a group (OperatorCondition), while each resource keeps its own preferred version', () => {
    expect(apiGroups().find((g) => g.group === 'operators.coreos.com')?.versions).toEqual(['v2', 'v1', 'v1alpha2', 'v1alpha1']);
    expect(builtinApi().filter((r) => r.group === 'operators.coreos.com' && !r.subresource && r.preferred).map((r) => `${r.version}/${r.resource}`).sort()).toEqual([
      'v1/olmconfigs', 'v1/operatorgroups', 'v1/operators', 'v1alpha1/catalogsources', 'v1alpha1/clusterserviceversions',
      'v1alpha1/installplans', 'v1alpha1/subscriptions', 'v2/operatorconditions',
    ]);
  });

  test('the CRD rows are what the derive script reads from crds/ today (a CRD update without a re-derivation fails here)', () => {
    type Key = { group: string; version: string; resource: string; subresource?: string };
    const key = (r: Key) => `${r.group}/${r.resource}/${r.version}/${r.subresource ?? ''}`;
    const sorted = <T extends Key>(xs: T[]) => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const comparable = (r: Key & { namespaced: boolean; verbs: readonly string[]; source: string }) => ({
      group: r.group,
      version: r.version,
      resource: r.resource,
      subresource: r.subresource || undefined,
      namespaced: r.namespaced,
      verbs: r.verbs,
      source: r.source,
    });
    const fromCrds: DerivedRow[] = crdFilesOf(REPO, apiTableInfo().crdFolders).flatMap((f) => crdRows(f.text, f.source).rows);
    const inTable = builtinApi().filter((r) => r.source.startsWith('crds/'));
    expect(sorted(fromCrds.map(comparable))).toEqual(sorted(inTable.map(comparable)));
  });
});

describe('kubernetes-api table: authorization-only verbs', () => {
  test('ids are unique; every row cites upstream; the release matches the table', () => {
    const ids = authorizationVerbs().map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of authorizationVerbs()) {
      expect(a.upstream.length).toBeGreaterThan(0);
      for (const u of a.upstream) expect(u).toMatch(/^(kubernetes\/(kubernetes|apiserver@v0\.36\.3|api@v0\.36\.3) |k8s\.io\/api v0\.36\.3 )\S+\.go/);
    }
  });

  test('constrained impersonation (KEP-5284, beta and on in 1.36): the verbs of the release filter, exactly', () => {
    const verbs = authorizationVerbs().filter((a) => a.id.startsWith('constrained-')).flatMap((a) => a.verbs.map((v) => `${a.group}/${a.resource}${a.subresource ? '/' + a.subresource : ''} ${v}`));
    expect(verbs).toEqual([
      'authentication.k8s.io/users impersonate:user-info',
      'authentication.k8s.io/groups impersonate:user-info',
      'authentication.k8s.io/uids impersonate:user-info',
      'authentication.k8s.io/userextras/<extra key> impersonate:user-info',
      'authentication.k8s.io/serviceaccounts impersonate:serviceaccount',
      'authentication.k8s.io/nodes impersonate:arbitrary-node',
      'authentication.k8s.io/nodes impersonate:associated-node',
      '*/*/* impersonate-on:user-info:<verb>',
      '*/*/* impersonate-on:serviceaccount:<verb>',
      '*/*/* impersonate-on:arbitrary-node:<verb>',
      '*/*/* impersonate-on:associated-node:<verb>',
    ]);
  });

  test('legacy impersonation: users, groups and serviceaccounts in the core group; uids and userextras in authentication.k8s.io', () => {
    expect(authorizationVerbs().filter((a) => a.verbs.includes('impersonate')).map((a) => `${a.group}/${a.resource}`))
      .toEqual(['/users', '/groups', '/serviceaccounts', 'authentication.k8s.io/uids', 'authentication.k8s.io/userextras']);
  });

  test('signer verbs, kubelet subresources and other checks on names that discovery does not serve', () => {
    const served = new Set(builtinApi().map((r) => `${r.group}/${r.resource}/${r.subresource ?? ''}`));
    const virtual = authorizationVerbs().filter((a) => a.inRelease && a.group !== '*' && !served.has(`${a.group}/${a.resource}/${a.subresource}`))
      .map((a) => `${a.group}/${a.resource}${a.subresource ? '/' + a.subresource : ''} ${a.verbs.join(',')}`);
    expect(virtual).toEqual([
      '/users impersonate',
      '/groups impersonate',
      'authentication.k8s.io/uids impersonate',
      'authentication.k8s.io/userextras/<extra key> impersonate',
      'authentication.k8s.io/users impersonate:user-info',
      'authentication.k8s.io/groups impersonate:user-info',
      'authentication.k8s.io/uids impersonate:user-info',
      'authentication.k8s.io/userextras/<extra key> impersonate:user-info',
      'authentication.k8s.io/serviceaccounts impersonate:serviceaccount',
      'authentication.k8s.io/nodes impersonate:arbitrary-node',
      'authentication.k8s.io/nodes impersonate:associated-node',
      'certificates.k8s.io/signers approve',
      'certificates.k8s.io/signers sign',
      'certificates.k8s.io/signers attest',
      'certificates.k8s.io/certificatesigningrequests/nodeclient create',
      'certificates.k8s.io/certificatesigningrequests/selfnodeclient create',
      '/nodes/stats get,create,update,patch,delete',
      '/nodes/metrics get,create,update,patch,delete',
      '/nodes/log get,create,update,patch,delete',
      '/nodes/pods get,create,update,patch,delete',
      '/nodes/healthz get,create,update,patch,delete',
      '/nodes/configz get,create,update,patch,delete',
      'resource.k8s.io/resourceclaims/binding update,patch',
      'resource.k8s.io/resourceclaims/driver associated-node:update,associated-node:patch,arbitrary-node:update,arbitrary-node:patch',
    ]);
  });

  test('PodSecurityPolicy use is recorded as history, not as part of the release', () => {
    expect(authorizationVerbs().filter((a) => !a.inRelease).map((a) => [a.id, a.group, a.resource, a.verbs])).toEqual([['psp-use', 'policy', 'podsecuritypolicies', ['use']]]);
    expect(apiRowsOf('policy', 'podsecuritypolicies')).toEqual([]);
  });
});

describe('scripts/derive-kubernetes-api.ts', () => {
  test('reads /api/v1 and aggregated discovery in their upstream shapes', () => {
    expect(coreRows({
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list', 'get'] }, { name: 'pods/log', kind: 'Pod', namespaced: true, verbs: ['get'] }],
    })).toEqual([
      { group: '', version: 'v1', resource: 'pods', subresource: '', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], source: 'kubernetes:/api/v1' },
      { group: '', version: 'v1', resource: 'pods', subresource: 'log', namespaced: true, kind: '', verbs: ['get'], source: 'kubernetes:/api/v1' },
    ]);
    expect(aggregatedRows({
      kind: 'APIGroupDiscoveryList',
      items: [{
        metadata: { name: 'apps' },
        versions: [{ version: 'v1', resources: [{ resource: 'deployments', responseKind: { kind: 'Deployment' }, scope: 'Namespaced', verbs: ['get'], subresources: [{ subresource: 'scale', verbs: ['update', 'get'] }] }] }],
      }],
    })).toEqual({
      groups: [{ group: 'apps', versions: ['v1'], source: 'kubernetes:/apis' }],
      rows: [
        { group: 'apps', version: 'v1', resource: 'deployments', subresource: '', namespaced: true, kind: 'Deployment', verbs: ['get'], source: 'kubernetes:/apis' },
        { group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', namespaced: true, kind: '', verbs: ['get', 'update'], source: 'kubernetes:/apis' },
      ],
    });
    expect(() => coreRows({ kind: 'APIGroupDiscoveryList' })).toThrow('--core: expected the APIResourceList of /api/v1');
  });

  test('CRD versions in the order discovery gives them (apimachinery CompareKubeAwareVersionStrings)', () => {
    expect(kubeAwareVersionOrder(['v1alpha1', 'v1', 'foo', 'v2beta1', 'v1beta2', 'v2', 'v10alpha1', 'v1beta1'])).toEqual(['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v10alpha1', 'v1alpha1', 'foo']);
  });

  test('a CRD is read without its schemas; unserved versions are left out', () => {
    const text = [
      'apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'spec:', '  group: example.com',
      '  names:', '    kind: Widget', '    plural: widgets', '  scope: Namespaced', '  versions:',
      '  - name: v1', '    schema:', '      openAPIV3Schema:', '        type: object', '        x: [unbalanced', '    served: true',
      '    storage: true', '    subresources:', '      status: {}', '      scale:', '        specReplicasPath: .spec.replicas',
      '  - name: v0', '    schema:', '      openAPIV3Schema: {}', '    served: false', '    storage: false',
    ].join('\n');
    expect(crdHeader(text).spec.versions[0]).toEqual({ name: 'v1', schema: null, served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas' } } });
    expect(crdRows(text, 'crds/x.yaml')).toEqual({
      group: { group: 'example.com', versions: ['v1'], source: 'crds/x.yaml' },
      rows: [
        { group: 'example.com', version: 'v1', resource: 'widgets', subresource: '', namespaced: true, kind: 'Widget', verbs: ALL, source: 'crds/x.yaml' },
        { group: 'example.com', version: 'v1', resource: 'widgets', subresource: 'scale', namespaced: true, kind: '', verbs: SRV, source: 'crds/x.yaml' },
        { group: 'example.com', version: 'v1', resource: 'widgets', subresource: 'status', namespaced: true, kind: '', verbs: SRV, source: 'crds/x.yaml' },
      ],
    });
  });
});
