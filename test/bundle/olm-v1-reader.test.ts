/**
 * Issue 27 items 1, 2 and 7: the two bundle readers. OLM v0 (operator-registry `pkg/registry/decode.go`: "found more
 * than one document inside %s, using only the first one"; hidden files and folders skipped) and OLM v1
 * (operator-controller `internal/operator-controller/rukpak/bundle/source/source.go` `fsBundleSource.GetBundle`:
 * `fs.WalkDir` over manifests/, hidden files included, a subdirectory refused; cli-runtime
 * `resource.NewLocalBuilder().Unstructured().Flatten().Stream(...)`: every document, Lists flattened; a document
 * without kind refused). Dependencies (`metadata/dependencies.yaml`) become catalog properties (operator-registry
 * `registry_to_model.go`) that operator-controller refuses (`resolve/validation.go` `NoDependencyValidation`).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BundleReader, OperatorBundle } from '../../src/bundle';
import { CuratedClusterCatalog, OlmV1PermissionPreview, OlmV1Team, RegistryV1Render } from '../../src/olmv1';
import { appAndChart, validationErrors } from '../olmv1/helpers';

const TRIVY = path.join(__dirname, '..', 'fixtures', 'olm-v1-reader', 'trivy-shape');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olm-v1-reader-'));
  fs.cpSync(TRIVY, dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
};
const names = (b: OperatorBundle) => b.objects.map((o) => `${o.kind} ${o.name}`);
const previewOf = (b: OperatorBundle) => OlmV1PermissionPreview.of(RegistryV1Render.forExtension(b, { installNamespace: 'team-x' }));

const BIND_CLUSTER_ADMIN = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: trivy-operator-admin
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: ServiceAccount, name: trivy-operator, namespace: team-x}
`;
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trivy-config\ndata:\n  a: "1"\n';

function team(bundles: OperatorBundle[]) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-x', image: 'registry.example.com/catalogs/team-x:v1', team: 'team-x', pollIntervalMinutes: 30 });
  new OlmV1Team(chart, 'T', {
    team: 'team-x',
    groups: ['team-x-admins'],
    namespaces: ['team-x'],
    catalog,
    allowedPackages: [{ name: 'trivy-operator' }],
    extensions: [{ packageName: 'trivy-operator', namespace: 'team-x', bundles }],
  });
  return validationErrors(app).map((e) => e.replace(/^\[platform\/T\] /, ''));
}

describe('item 1: every document (the real case: community-trivy-operator 2.4.0 keeps two Services in one file)', () => {
  test('OLM v0 reads trivy-operator only (with a warning); OLM v1 reads and renders both Services', () => {
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(v0.reader).toBe(BundleReader.OLM_V0);
    expect(names(v0)).toEqual(['Service trivy-operator']);
    expect(v0.loadWarnings).toEqual([`${path.join(dir, 'manifests', 'services.yaml')}: OLM reads only the first document of a manifest file; 1 more document(s) `
      + 'are ignored (operator-registry pkg/registry/decode.go: "found more than one document ..., using only the first one"). Fix: put each object in its own file.']);
    const v1 = v0.forOlmV1();
    expect(v1.reader).toBe(BundleReader.OLM_V1);
    expect(names(v1)).toEqual(['Service trivy-operator', 'Service trivy-image-validator']);
    expect(v1.objects.map((o) => path.basename(o.source))).toEqual(['services.yaml (document 1)', 'services.yaml (document 2)']);
    expect(names(OperatorBundle.fromDirectory(dir, BundleReader.OLM_V1))).toEqual(names(v1));
    const rendered = RegistryV1Render.forExtension(v0, { installNamespace: 'team-x' }).objects.filter((o) => o.kind === 'Service');
    expect(rendered.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['team-x/trivy-operator', 'team-x/trivy-image-validator']);
  });

  test('a ConfigMap, then a ClusterRoleBinding to cluster-admin in one file: v0 never sees the binding, the v1 preview names it (OLMT-026)', () => {
    write('manifests/config.yaml', `${CONFIG_MAP}---\n${BIND_CLUSTER_ADMIN}`);
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(names(v0)).toEqual(['ConfigMap trivy-config', 'Service trivy-operator']);
    expect(previewOf(v0).findings.map((f) => `${f.code} ${f.subject}`)).toEqual(['TenantIdentityUnbounded ServiceAccount team-x/trivy-operator']);
    expect(team([v0])).toEqual([
      'extensions[team-x-trivy-operator].bundles[trivy-operator.v2.4.0]="ServiceAccount team-x/trivy-operator": ServiceAccount team-x/trivy-operator reaches * on every resource cluster-wide: '
      + 'operator-controller applies trivy-operator.v2.4.0 with cluster-admin when team team-x installs trivy-operator. '
      + 'Fix: pick another package or version (no acceptance lowers OLMT-026: TenancyAppProps.neverAcceptable lists it) (TenantIdentityUnbounded, OLMT-026)',
    ]);
  });

  test('Lists are flattened: items take the list kind without "List" and its apiVersion when they have neither', () => {
    write('manifests/list.yaml', `apiVersion: v1
kind: List
items:
- ${BIND_CLUSTER_ADMIN.split('\n').join('\n  ').trimEnd()}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: in-list}}
---
apiVersion: v1
kind: ServiceList
items:
- {metadata: {name: from-service-list}, spec: {ports: [{port: 80}]}}
`);
    const v1 = OperatorBundle.fromDirectory(dir, BundleReader.OLM_V1);
    expect(names(v1)).toEqual(['ClusterRoleBinding trivy-operator-admin', 'ConfigMap in-list', 'Service from-service-list', 'Service trivy-operator', 'Service trivy-image-validator']);
    expect(v1.objects[2].raw).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'from-service-list' }, spec: { ports: [{ port: 80 }] } });
    expect(previewOf(v1).findings.map((f) => f.code)).toEqual(['TenantIdentityUnbounded']);
    // OLM v0 keeps the List object itself (UnsupportedResource at install)
    expect(names(OperatorBundle.fromDirectory(dir))).toEqual(['List ', 'Service trivy-operator']);
  });

  test('a JSON stream: every value; empty and null documents are skipped', () => {
    write('manifests/stream.json', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j1"}}\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j2"}}\n');
    write('manifests/empties.yaml', '---\n---\nnull\n---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after-empties\n');
    expect(names(OperatorBundle.fromDirectory(dir, BundleReader.OLM_V1))).toEqual(['ConfigMap after-empties', 'Service trivy-operator', 'Service trivy-image-validator', 'ConfigMap j1', 'ConfigMap j2']);
  });

  test('a document without kind, or not an object, refuses the bundle in OLM v1 (v0 skips the file); the team names the refusal', () => {
    write('manifests/nokind.yaml', `${CONFIG_MAP}---\napiVersion: v1\nmetadata:\n  name: x\n`);
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(names(v0)).toEqual(['ConfigMap trivy-config', 'Service trivy-operator']);
    const why = `OperatorBundle: bundle directory ${dir}: OLM v1 refuses the bundle (operator-controller rukpak/bundle/source/source.go reads every file and document of manifests/): `
      + 'error parsing objects in "manifests/nokind.yaml": unable to decode "manifests/nokind.yaml": Object \'Kind\' is missing in document 2 (line 8): {"apiVersion":"v1","metadata":{"name":"x"}}';
    expect(() => v0.forOlmV1()).toThrow(why);
    expect(() => OperatorBundle.fromDirectory(dir, BundleReader.OLM_V1)).toThrow(why);
    expect(team([v0])).toEqual([`extensions[team-x-trivy-operator].bundles[trivy-operator.v2.4.0]="2.4.0": operator-controller would refuse trivy-operator.v2.4.0: ${why}. `
      + 'Fix: narrow the version range to bundles OLM v1 installs, or install the package with OLM v0 (OlmV1BundleRefused, OLMT-048)']);
    write('manifests/nokind.yaml', '- a\n- b\n');
    expect(() => OperatorBundle.fromDirectory(dir, BundleReader.OLM_V1)).toThrow('unable to decode "manifests/nokind.yaml": document 1 (line 1) is not an object: ["a","b"]');
  });

  test('the OLM v1 reading of a bundle loaded by OLM v0 is read from the files taken at load (the directory may be gone)', () => {
    const v0 = OperatorBundle.fromDirectory(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(names(v0.forOlmV1())).toEqual(['Service trivy-operator', 'Service trivy-image-validator']);
    expect(v0.forOlmV1()).toBe(v0.forOlmV1());
  });

  test('a bundle given as CSV text with a List: every document counts in both, the List is flattened for OLM v1', () => {
    const csv = fs.readFileSync(path.join(TRIVY, 'manifests', 'trivy-operator.clusterserviceversion.yaml'), 'utf8');
    const b = OperatorBundle.fromCsvYaml(csv, `${CONFIG_MAP}---\napiVersion: v1\nkind: List\nitems:\n- ${BIND_CLUSTER_ADMIN.split('\n').join('\n  ').trimEnd()}\n`);
    expect(names(b)).toEqual(['ConfigMap trivy-config', 'List ']);
    expect(names(b.forOlmV1())).toEqual(['ConfigMap trivy-config', 'ClusterRoleBinding trivy-operator-admin']);
    expect(b.forOlmV1().forOlmV1()).toBe(b.forOlmV1());
  });

  test('a bad reader value is a clear error', () => {
    expect(() => OperatorBundle.fromDirectory(dir, 'V2' as any)).toThrow("OperatorBundle.fromDirectory: 'reader' must be BundleReader.OLM_V0 or BundleReader.OLM_V1, got \"V2\"");
  });
});

describe('item 2: every file', () => {
  test('a hidden manifests/.rbac.yaml binding cluster-admin: applied by OLM v1 (previewed, OLMT-026), skipped by OLM v0', () => {
    write('manifests/.rbac.yaml', BIND_CLUSTER_ADMIN);
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(names(v0)).toEqual(['Service trivy-operator']);
    expect(names(v0.forOlmV1())).toEqual(['ClusterRoleBinding trivy-operator-admin', 'Service trivy-operator', 'Service trivy-image-validator']);
    expect(previewOf(v0).findings.map((f) => `${f.code} ${f.subject}`)).toEqual(['TenantIdentityUnbounded ServiceAccount team-x/trivy-operator']);
  });

  test('a subdirectory of manifests/: accepted by OLM v0 (skipped), refused by OLM v1 with its words', () => {
    write('manifests/extra/rbac.yaml', BIND_CLUSTER_ADMIN);
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(names(v0)).toEqual(['Service trivy-operator']);
    const why = 'subdirectories are not allowed within the "manifests" directory of the bundle image filesystem: found "manifests/extra"';
    expect(() => v0.forOlmV1()).toThrow(why);
    expect(RegistryV1Render.refusal(v0, { installNamespace: 'team-x' })).toContain(why);
    expect(team([v0])[0]).toContain(`operator-controller would refuse trivy-operator.v2.4.0: OperatorBundle: bundle directory ${dir}: OLM v1 refuses the bundle`);
  });

  test('no metadata/annotations.yaml: OLM v0 finds the annotations in another metadata file, OLM v1 refuses the bundle', () => {
    fs.renameSync(path.join(dir, 'metadata', 'annotations.yaml'), path.join(dir, 'metadata', 'other.yaml'));
    const v0 = OperatorBundle.fromDirectory(dir);
    expect(v0.packageName).toBe('trivy-operator');
    expect(() => v0.forOlmV1()).toThrow('OLM v1 refuses the bundle (operator-controller rukpak/bundle/source/source.go reads every file and document of manifests/): open metadata/annotations.yaml: no such file or directory');
  });
});

describe('item 7: dependencies (metadata/dependencies.yaml) are refused by OLM v1 with NoDependencyValidation\'s words', () => {
  const message = (type: string) => `bundle "trivy-operator.v2.4.0" has a dependency declared via property "${type}" which is currently not supported`;

  test.each([
    ['olm.package', 'olm.package.required', '{packageName: etcd, version: ">=0.9.0"}'],
    ['olm.gvk', 'olm.gvk.required', '{group: etcd.database.coreos.com, kind: EtcdCluster, version: v1beta2}'],
    ['olm.constraint', 'olm.constraint', '{failureMessage: needs etcd, cel: {rule: \'properties.exists(p, p.type == "olm.package")\'}}'],
  ])('dependency type %s becomes property %s: refused', (type, property, value) => {
    write('metadata/dependencies.yaml', `dependencies:\n- type: ${type}\n  value: ${value}\n`);
    const b = OperatorBundle.fromDirectory(dir);
    expect(b.dependencyTypes).toEqual([property]);
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toBe(message(property));
    expect(team([b])).toEqual([`extensions[team-x-trivy-operator].bundles[trivy-operator.v2.4.0]="2.4.0": operator-controller would refuse trivy-operator.v2.4.0: ${message(property)}. `
      + 'Fix: narrow the version range to bundles OLM v1 installs, or install the package with OLM v0 (OlmV1BundleRefused, OLMT-048)']);
  });

  test('several: the first in catalog order (properties sorted by type); olm.label alone is not refused', () => {
    write('metadata/dependencies.yaml', 'dependencies:\n- {type: olm.package, value: {packageName: etcd, version: ">=0.9.0"}}\n- {type: olm.constraint, value: {cel: {rule: "true"}}}\n- {type: olm.label, value: {label: x}}\n');
    const b = OperatorBundle.fromDirectory(dir);
    expect(b.dependencyTypes).toEqual(['olm.constraint', 'olm.label', 'olm.package.required']);
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toBe(message('olm.constraint'));
    write('metadata/dependencies.yaml', 'dependencies:\n- {type: olm.label, value: {label: x}}\n');
    expect(RegistryV1Render.refusal(OperatorBundle.fromDirectory(dir), { installNamespace: 'team-x' })).toBeUndefined();
  });

  test('the first metadata file with dependencies counts, whatever its name (operator-registry parse.go addMetadata)', () => {
    write('metadata/deps.yml', 'dependencies:\n- {type: olm.package, value: {packageName: etcd, version: ">=0.9.0"}}\n');
    expect(OperatorBundle.fromDirectory(dir).dependencyTypes).toEqual(['olm.package.required']);
  });

  // upstream internal/operator-controller/resolve/validation_test.go TestNoDependencyValidation, on a catalog entry
  test.each([
    ['package with no dependencies', [], undefined],
    ['package with olm.package.required property', ['olm.package.required'], 'olm.package.required'],
    ['package with olm.gvk.required property', ['olm.gvk.required'], 'olm.gvk.required'],
    ['package with olm.constraint property', ['olm.constraint'], 'olm.constraint'],
  ])('%s (upstream TestNoDependencyValidation)', (_name, types, refused) => {
    const csv = fs.readFileSync(path.join(TRIVY, 'manifests', 'trivy-operator.clusterserviceversion.yaml'));
    const entry = {
      schema: 'olm.bundle',
      name: 'fake-catalog/x/alpha/1.0.0',
      package: 'trivy-operator',
      image: 'quay.io/fake-catalog/x@sha256:3e281e587de3d03011440685fc4fb782672beab044c1ebadc42788ce05a21c35',
      properties: [
        { type: 'olm.package', value: { packageName: 'trivy-operator', version: '2.4.0' } },
        ...types.map((type) => ({ type, value: 'content-is-not-relevant' })),
        { type: 'olm.bundle.object', value: { data: csv.toString('base64') } },
      ],
    };
    const b = OperatorBundle.fromCatalogBundle(entry);
    expect(b.dependencyTypes).toEqual(types);
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toBe(refused === undefined ? undefined : message(refused));
  });

  test('OLM v0 still loads the bundle as before (it resolves dependencies)', () => {
    write('metadata/dependencies.yaml', 'dependencies:\n- {type: olm.package, value: {packageName: etcd, version: ">=0.9.0"}}\n');
    expect(names(OperatorBundle.fromDirectory(dir))).toEqual(['Service trivy-operator']);
  });
});
