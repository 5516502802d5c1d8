import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { InstallModeType } from '../../src/bundle/install-modes';
import { OperatorBundle, WebhookType } from '../../src/bundle/operator-bundle';
import { DEMO_CSV } from '../util/demo-csv';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const CATALOGS = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs');

/** The rows of test/fixtures/bundles/INDEX.md (computed upstream by another tool: an independent oracle). */
interface IndexRow {
  operator: string;
  version: string;
  csvName: string;
  modes: string[];
  permissions: number;
  clusterPermissions: number;
  ownedCrds: number;
  webhooks: number;
  deployments: number;
}
function readIndex(): IndexRow[] {
  const text = fs.readFileSync(path.join(BUNDLES, 'INDEX.md'), 'utf8');
  return text.split('\n').filter((l) => /^\| \d+ \|/.test(l)).map((l) => {
    const c = l.split('|').map((x) => x.trim());
    return {
      operator: c[2],
      version: c[3],
      csvName: c[4].replace(/`/g, ''),
      modes: c[6].split(',').map((m) => m.trim()),
      permissions: Number(c[7]),
      clusterPermissions: Number(c[8]),
      ownedCrds: Number(c[9]),
      webhooks: c[10] === 'no' ? 0 : Number(/\((\d+)/.exec(c[10])![1]),
      deployments: Number(c[12]),
    };
  });
}

describe('OperatorBundle.fromDirectory on the 12 shared bundles', () => {
  const rows = readIndex();
  test('INDEX.md lists 12 bundles', () => {
    expect(rows.map((r) => r.operator)).toEqual([
      'cert-manager', 'deployment-validation-operator', 'etcd', 'forklift-operator', 'grafana-operator', 'jaeger', 'keda',
      'opentelemetry-operator', 'percona-xtradb-cluster-operator', 'prometheus', 'rabbitmq-cluster-operator', 'strimzi-kafka-operator',
    ]);
  });
  test.each(readIndex())('$operator $version matches INDEX.md (install modes, permissions, CRDs, webhooks, deployments)', (row) => {
    // WHEN
    const b = OperatorBundle.fromDirectory(path.join(BUNDLES, row.operator, row.version));
    // THEN
    expect({
      name: b.name,
      version: b.version,
      modes: b.installModes.filter((m) => m.supported).map((m) => m.type),
      permissions: b.permissions.length,
      clusterPermissions: b.clusterPermissions.length,
      ownedCrds: b.ownedCrds.length,
      webhooks: b.webhookDefinitions.length,
      deployments: b.deployments.length,
    }).toEqual({
      name: row.csvName,
      version: row.version,
      modes: row.modes,
      permissions: row.permissions,
      clusterPermissions: row.clusterPermissions,
      ownedCrds: row.ownedCrds,
      webhooks: row.webhooks,
      deployments: row.deployments,
    });
  });
});

describe('OperatorBundle fields', () => {
  test('etcd 0.9.4: package, channels, install modes, permissions, deployment, owned CRDs, CRD objects (apiextensions v1, although INDEX.md says v1beta1)', () => {
    // WHEN
    const b = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
    // THEN
    expect(b.packageName).toEqual('etcd');
    expect(b.channels).toEqual(['singlenamespace-alpha']);
    expect(b.defaultChannel).toEqual('singlenamespace-alpha');
    expect(b.replaces).toEqual('etcdoperator.v0.9.2');
    expect(b.skips).toEqual([]);
    expect(b.skipRange).toBeUndefined();
    expect(b.installModes).toEqual([
      { type: InstallModeType.OWN_NAMESPACE, supported: true },
      { type: InstallModeType.SINGLE_NAMESPACE, supported: true },
      { type: InstallModeType.MULTI_NAMESPACE, supported: false },
      { type: InstallModeType.ALL_NAMESPACES, supported: false },
    ]);
    expect(b.permissions).toEqual([{
      serviceAccountName: 'etcd-operator',
      rules: [
        { apiGroups: ['etcd.database.coreos.com'], resources: ['etcdclusters', 'etcdbackups', 'etcdrestores'], verbs: ['*'] },
        { apiGroups: [''], resources: ['pods', 'services', 'endpoints', 'persistentvolumeclaims', 'events'], verbs: ['*'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      ],
    }]);
    expect(b.clusterPermissions).toEqual([]);
    expect(b.deployments.map((d) => [d.name, d.serviceAccountName])).toEqual([['etcd-operator', 'etcd-operator']]);
    expect(b.ownedCrds).toEqual([
      { name: 'etcdclusters.etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdCluster' },
      { name: 'etcdbackups.etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdBackup' },
      { name: 'etcdrestores.etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdRestore' },
    ]);
    expect(b.crds.map((c) => [c.name, c.apiVersion, c.kind, c.scope])).toEqual([
      ['etcdbackups.etcd.database.coreos.com', 'apiextensions.k8s.io/v1', 'EtcdBackup', 'Namespaced'],
      ['etcdclusters.etcd.database.coreos.com', 'apiextensions.k8s.io/v1', 'EtcdCluster', 'Namespaced'],
      ['etcdrestores.etcd.database.coreos.com', 'apiextensions.k8s.io/v1', 'EtcdRestore', 'Namespaced'],
    ]);
    expect(b.objects).toEqual([]);
    expect(b.ownedApiServices).toEqual([]);
  });

  test('opentelemetry-operator: the conversion webhook definition and the other bundle objects', () => {
    const b = OperatorBundle.fromDirectory(path.join(BUNDLES, 'opentelemetry-operator', '0.158.0'));
    expect(b.webhookDefinitions[0]).toEqual({
      type: WebhookType.CONVERSION,
      generateName: 'copentelemetrycollectors.kb.io',
      deploymentName: 'opentelemetry-operator-webhook',
      containerPort: 443,
      targetPort: '9443',
      webhookPath: '/convert',
      conversionCrds: ['opentelemetrycollectors.opentelemetry.io'],
      rules: [],
      admissionReviewVersions: ['v1alpha1', 'v1beta1'],
    });
    expect(b.webhookDefinitions.map((w) => w.type).filter((t) => t === WebhookType.VALIDATING).length).toEqual(8);
    expect(b.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      'Service/opentelemetry-operator-controller-manager-metrics-service',
      'ClusterRole/opentelemetry-operator-metrics-reader',
      'PrometheusRule/opentelemetry-operator-prometheus-rules',
      'Role/opentelemetry-operator-prometheus',
      'RoleBinding/opentelemetry-operator-prometheus',
      'Service/opentelemetry-operator-webhook-service',
      'PodDisruptionBudget/opentelemetry-operator-webhook',
    ]);
  });

  test('prometheus: YAML 1.2 keeps the unquoted enum value "=" as a string; the deployment SA is read as OLM reads it (deprecated serviceAccount alias ignored)', () => {
    const b = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
    const crd = b.crds.find((c) => c.name === 'alertmanagerconfigs.monitoring.coreos.com')!;
    expect(JSON.stringify(crd.raw)).toContain('"enum":["!=","=","=~","!~"]');
    expect(b.deployments.map((d) => [d.serviceAccountName, d.spec.template.spec.serviceAccount])).toEqual([['default', 'prometheus-operator']]);
  });
});


describe('OperatorBundle errors name the file and the field', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    fs.mkdirSync(path.join(dir, 'manifests'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('broken YAML: OLM skips the file (operator-registry pkg/configmap loadBundle), so the error names it and why', () => {
    const file = path.join(dir, 'manifests', 'csv.yaml');
    fs.writeFileSync(file, 'kind: [unclosed\n');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle: bundle directory ${dir}: no ClusterServiceVersion found (no object with kind: ClusterServiceVersion); a bundle needs `
      + `exactly one; files OLM skips because they do not decode to an object with a kind: ${file} (line 1: malformed YAML: Flow sequence `
      + 'in block collection must be sufficiently indented and end with a ])'));
  });
  test('no CSV', () => {
    fs.writeFileSync(path.join(dir, 'manifests', 'svc.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(`OperatorBundle: bundle directory ${dir}: no ClusterServiceVersion found (no object with kind: ClusterServiceVersion); a bundle needs exactly one`);
  });
  test('two CSVs', () => {
    fs.writeFileSync(path.join(dir, 'manifests', 'a.yaml'), DEMO_CSV);
    fs.writeFileSync(path.join(dir, 'manifests', 'b.yaml'), DEMO_CSV);
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(
      `OperatorBundle: bundle directory ${dir}: 2 ClusterServiceVersions found (${path.join(dir, 'manifests', 'a.yaml')}, ${path.join(dir, 'manifests', 'b.yaml')}); a bundle has exactly one`);
  });
  test('no manifests folder', () => {
    expect(() => OperatorBundle.fromDirectory(path.join(dir, 'manifests'))).toThrow(/has no 'manifests\/' folder/);
  });
  test('missing install strategy', () => {
    const text = DEMO_CSV.replace(/ {2}install:[\s\S]*$/, '');
    expect(() => OperatorBundle.fromCsvYaml(text)).toThrow("OperatorBundle: CSV YAML: field 'spec.install': missing install strategy; a CSV needs spec.install with strategy: deployment and spec.deployments");
  });
  test('missing install strategy, read from a bundle directory: the file and the field', () => {
    const file = path.join(dir, 'manifests', 'csv.yaml');
    fs.writeFileSync(file, DEMO_CSV.replace(/ {2}install:[\s\S]*$/, ''));
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle: ${file}: field 'spec.install': missing install strategy; a CSV needs spec.install with strategy: deployment and spec.deployments`));
  });
  test('unknown install mode type', () => {
    const text = DEMO_CSV.replace('type: OwnNamespace', 'type: ClusterWide');
    expect(() => OperatorBundle.fromCsvYaml(text)).toThrow("OperatorBundle: CSV YAML: field 'spec.installModes[0].type': unknown install mode 'ClusterWide'; use one of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces");
  });
  test('a rule that is not a list of strings', () => {
    const text = DEMO_CSV.replace('verbs: [get]', 'verbs: get');
    expect(() => OperatorBundle.fromCsvYaml(text)).toThrow(/field 'spec.install.spec.permissions\[0\].rules\[0\]': PolicyRule field 'verbs' must be a list of strings/);
  });
});

describe('OperatorBundle from CSV text, object and catalog', () => {
  test('fromCsvYaml with extra manifests', () => {
    const b = OperatorBundle.fromCsvYaml(DEMO_CSV, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n');
    expect(b.name).toEqual('demo.v1.0.0');
    expect(b.packageName).toBeUndefined();
    expect(b.objects.map((o) => [o.kind, o.name, o.source])).toEqual([
      ['ConfigMap', 'cfg', 'extra manifests YAML (document 1)'],
      ['Service', 'svc', 'extra manifests YAML (document 2)'],
    ]);
  });

  test('fromCatalogFile reads olm.bundle.object properties (odf-node-recovery-operator v1.1.0)', () => {
    const b = OperatorBundle.fromCatalogFile(path.join(CATALOGS, 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml'), 'odf-node-recovery-operator.v1.1.0');
    expect(b.name).toEqual('odf-node-recovery-operator.v1.1.0');
    expect(b.packageName).toEqual('odf-node-recovery-operator');
    expect(b.installModes.filter((m) => m.supported).map((m) => m.type)).toEqual([InstallModeType.ALL_NAMESPACES]);
    expect(b.crds.map((c) => c.name)).toEqual(['noderecoveries.odf.openshift.io']);
    expect(b.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      'ServiceMonitor/odf-node-recovery-operator-controller-manager-metrics-monitor',
      'ClusterRole/odf-node-recovery-operator-noderecovery-admin-role',
      'ClusterRole/odf-node-recovery-operator-noderecovery-editor-role',
      'ClusterRole/odf-node-recovery-operator-noderecovery-viewer-role',
      'Secret/odf-node-recovery-operator-metrics-reader',
      'Service/odf-node-recovery-operator-controller-manager-metrics-service',
    ]);
    expect([b.permissions.length, b.clusterPermissions.length]).toEqual([1, 2]);
  });

  test('an olm.csv.metadata-only entry is a clear error naming file, field, what is missing and where to get the full bundle (libredb-studio-operator)', () => {
    // GIVEN a real OpenShift 4.21 catalog entry, rendered with opm --migrate-level=bundle-object-to-csv-metadata
    const file = path.join(CATALOGS, 'v4.21', 'libredb-studio-operator', 'catalog.yaml');
    // WHEN / THEN
    expect(() => OperatorBundle.fromCatalogFile(file, 'libredb-studio-operator.v0.9.59')).toThrow(new Error(
      `OperatorBundle: ${file}: catalog bundle 'libredb-studio-operator.v0.9.59': field 'properties': cannot read the bundle: it has only an `
      + "'olm.csv.metadata' property, which carries no install strategy: no permissions, clusterPermissions or deployments. Get the full bundle "
      + "instead: 'opm render <bundle image>' without --migrate-level (it writes olm.bundle.object properties), or load the registry+v1 bundle "
      + "directory (manifests/ + metadata/) with OperatorBundle.fromDirectory. The bundle image is the entry's 'image' field "
      + '(quay.io/community-operator-pipeline-prod/libredb-studio-operator:0.9.59).'));
  });

  test('fromCatalogBundle: the same error without a file, and an entry without any manifest', () => {
    const entry = { schema: 'olm.bundle', name: 'x.v1', properties: [{ type: 'olm.package', value: { packageName: 'x', version: '1.0.0' } }] };
    expect(() => OperatorBundle.fromCatalogBundle(entry)).toThrow(new Error(
      "OperatorBundle: catalog bundle 'x.v1': field 'properties': cannot read the bundle: it has no 'olm.bundle.object' properties. Get the full "
      + "bundle instead: 'opm render <bundle image>' without --migrate-level (it writes olm.bundle.object properties), or load the registry+v1 "
      + "bundle directory (manifests/ + metadata/) with OperatorBundle.fromDirectory. The bundle image is the entry's 'image' field."));
  });

  test('a broken olm.bundle.object names the file, the bundle and the property', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-'));
    const file = path.join(dir, 'catalog.yaml');
    fs.writeFileSync(file, 'schema: olm.bundle\nname: y.v1\nproperties:\n- type: olm.bundle.object\n  value:\n    data: bm90IGpzb24=\n');
    // opm declcfg/load.go readBundleObjects converts the data with yaml.ToJSON: YAML is fine, a bare string is not a manifest.
    expect(() => OperatorBundle.fromCatalogFile(file, 'y.v1')).toThrow(new Error(
      `OperatorBundle: ${file}: catalog bundle 'y.v1': field 'properties[0].value.data' is not base64 of a manifest (a JSON or YAML object): it decodes to "not json"`));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an unknown bundle name lists the ones there are', () => {
    const file = path.join(CATALOGS, 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml');
    expect(() => OperatorBundle.fromCatalogFile(file, 'nope')).toThrow(
      `OperatorBundle.fromCatalogFile: ${file} has no olm.bundle named 'nope'; it has: odf-node-recovery-operator.v1.0.0, odf-node-recovery-operator.v1.1.0`);
  });
});

describe('OperatorBundle properties (fast-check)', () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
  const rule = fc.record({
    apiGroups: fc.array(fc.constantFrom('', 'apps', 'batch', 'example.com'), { minLength: 1, maxLength: 2 }),
    resources: fc.array(word, { minLength: 1, maxLength: 3 }),
    verbs: fc.array(fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', '*'), { minLength: 1, maxLength: 3 }),
  });
  const perm = fc.record({ serviceAccountName: word, rules: fc.array(rule, { maxLength: 3 }) });
  const modes = fc.subarray(Object.values(InstallModeType))
    .chain((types) => fc.tuple(...types.map((t) => fc.record({ type: fc.constant(t), supported: fc.boolean() }))));
  const csv = fc.record({ name: word, version: fc.constantFrom('0.1.0', '1.2.3'), modes, permissions: fc.array(perm, { maxLength: 3 }), clusterPermissions: fc.array(perm, { maxLength: 2 }), deployments: fc.uniqueArray(word, { maxLength: 3 }) });

  test('round trip: a generated CSV object reads back field for field', () => {
    fc.assert(fc.property(csv, (c) => {
      const obj = {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'ClusterServiceVersion',
        metadata: { name: c.name },
        spec: {
          version: c.version,
          installModes: c.modes,
          install: { strategy: 'deployment', spec: { permissions: c.permissions, clusterPermissions: c.clusterPermissions, deployments: c.deployments.map((d) => ({ name: d, spec: {} })) } },
        },
      };
      const b = OperatorBundle.fromCsvObject(obj);
      expect(b.name).toEqual(c.name);
      expect(b.version).toEqual(c.version);
      expect(b.installModes).toEqual(c.modes);
      expect(b.permissions).toEqual(c.permissions);
      expect(b.clusterPermissions).toEqual(c.clusterPermissions);
      expect(b.deployments).toEqual(c.deployments.map((d) => ({ name: d, serviceAccountName: 'default', spec: {} })));
    }));
  });

  test('random input objects give an OperatorBundle error, never a raw TypeError', () => {
    const mutated = fc.anything().map((junk) => junk);
    const csvish = fc.record({
      kind: fc.constant('ClusterServiceVersion'),
      metadata: fc.oneof(fc.anything(), fc.record({ name: fc.oneof(word, fc.anything()) })),
      spec: fc.oneof(fc.anything(), fc.record({
        install: fc.anything(), installModes: fc.anything(), webhookdefinitions: fc.anything(), customresourcedefinitions: fc.anything(),
      })),
    });
    fc.assert(fc.property(fc.oneof(mutated, csvish), fc.array(fc.anything(), { maxLength: 2 }), (obj, extra) => {
      try {
        OperatorBundle.fromCsvObject(obj, extra);
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        expect(e).not.toBeInstanceOf(TypeError);
        expect((e as Error).message).toMatch(/^(OperatorBundle|PolicyRule)/);
      }
    }), { numRuns: 500 });
  });
});

describe('OperatorBundle.fromCatalogBundle on random entries (fast-check)', () => {
  test('never a raw TypeError', () => {
    const prop = fc.oneof(fc.anything(), fc.record({
      type: fc.constantFrom('olm.bundle.object', 'olm.csv.metadata', 'olm.package', 'x'),
      value: fc.oneof(fc.anything(), fc.record({ data: fc.oneof(fc.base64String(), fc.anything()) }), fc.record({ packageName: fc.anything() })),
    }));
    const entry = fc.oneof(fc.anything(), fc.record({ schema: fc.constant('olm.bundle'), name: fc.anything(), properties: fc.oneof(fc.anything(), fc.array(prop)) }));
    fc.assert(fc.property(entry, (e) => {
      try {
        OperatorBundle.fromCatalogBundle(e);
      } catch (err) {
        expect(err).not.toBeInstanceOf(TypeError);
        expect((err as Error).message).toMatch(/^OperatorBundle/);
      }
    }), { numRuns: 500 });
  });
});

describe('OperatorBundle: JSON catalogs and API services', () => {
  test('fromCatalogFile reads a JSON stream catalog (opm render output)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbc-'));
    const csvObj = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', metadata: { name: 'demo.v1.0.0' }, spec: { install: { strategy: 'deployment', spec: { deployments: [] } } } };
    const data = Buffer.from(JSON.stringify(csvObj)).toString('base64');
    const entries = [
      { schema: 'olm.package', name: 'demo' },
      { schema: 'olm.bundle', name: 'demo.v1.0.0', package: 'demo', properties: [{ type: 'olm.bundle.object', value: { data } }] },
    ];
    const file = path.join(dir, 'catalog.json');
    fs.writeFileSync(file, entries.map((e) => JSON.stringify(e, null, 2)).join('\n'));
    const b = OperatorBundle.fromCatalogFile(file, 'demo.v1.0.0');
    expect([b.name, b.packageName, b.deployments]).toEqual(['demo.v1.0.0', 'demo', []]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('owned API services are read with OLM defaults (container port 443)', () => {
    const b = OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'api.v1' },
      spec: {
        apiservicedefinitions: { owned: [{ group: 'metrics.example.com', version: 'v1beta1', kind: 'Metric', name: 'metrics', deploymentName: 'api' }] },
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'api', spec: {} }] } },
      },
    });
    expect(b.ownedApiServices).toEqual([{ group: 'metrics.example.com', version: 'v1beta1', kind: 'Metric', name: 'metrics', deploymentName: 'api', containerPort: 443 }]);
  });
});
