import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { OperatorBundle } from '../../src/bundle';
import { OlmV1CertificateProvider, OlmV1CrdChannel, RegistryV1Render } from '../../src/olmv1';

// operator-controller v1.11.0 test/regression/convert: generate-manifests.go cases, expected output copied unmodified.
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'olm-v1-render');
/** generate-manifests.go's DeploymentConfig of the with-deploymentconfig-options case, as JSON. */
const ALL_OPTIONS = {
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [
    { key: 'some/key', operator: 'Equal', effect: 'NoSchedule' },
    { key: 'someother/key', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
  ],
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
  env: [{ name: 'CUSTOM_ENV_VAR', value: 'custom-value' }, { name: 'LOG_LEVEL', value: 'debug' }],
  envFrom: [{ prefix: 'test' }, { configMapRef: { name: 'configmapForTest' } }, { secretRef: { name: 'secretForTest' } }],
  volumes: [{ name: 'test-configmap-volume', configMap: { name: 'testVolumeConfigMap' } }, { name: 'test-emptydir-volume', emptyDir: {} }],
  volumeMounts: [{ name: 'test-configmap-volume', mountPath: '/test-volume-mount', readOnly: true }],
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{
          matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }],
          matchFields: [{ key: 'key', operator: 'In', values: ['val1', 'val2'] }],
        }],
      },
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'test-app' } }, topologyKey: 'topKey', namespaces: ['test', 'test2'] }],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'test-app-2' } }, topologyKey: 'topKey2' } }],
    },
  },
  annotations: { foo: 'bar', testkey: 'testval' },
};
const DEPLOYMENT_CONFIGS: Record<string, any> = {
  'with-deploymentconfig-options': ALL_OPTIONS,
  'with-empty-affinity': { affinity: {} },
  'with-empty-affinity-subtype': { affinity: { nodeAffinity: {} } },
};

const CASES: Array<[string, string, string, string | undefined]> = [
  ['argocd-operator.v0.6.0', 'all-namespaces', 'argocd-system', undefined],
  ['argocd-operator.v0.6.0', 'single-namespace', 'argocd-system', 'argocd-watch'],
  ['argocd-operator.v0.6.0', 'own-namespace', 'argocd-system', 'argocd-system'],
  ['argocd-operator.v0.6.0', 'with-deploymentconfig-options', 'argocd-system', undefined],
  ['argocd-operator.v0.6.0', 'with-empty-affinity', 'argocd-system', undefined],
  ['argocd-operator.v0.6.0', 'with-empty-affinity-subtype', 'argocd-system', undefined],
  ['webhook-operator.v0.0.5', 'all-webhook-types', 'webhook-system', undefined],
];
const loaded = new Map<string, OperatorBundle>();
function load(name: string): OperatorBundle {
  if (!loaded.has(name)) loaded.set(name, OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name)));
  return loaded.get(name)!;
}
const RBAC_KINDS = ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'];

/** generate-manifests.go orderByKindNamespaceName. */
function order(objs: any[]): any[] {
  const key = (o: any) => [o.kind, o.metadata.namespace ?? '', o.metadata.name];
  return [...objs].sort((a, b) => {
    const ka = key(a); const kb = key(b);
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

function expected(bundle: string, testCase: string): Array<{ file: string; obj: any }> {
  const dir = path.join(FIXTURES, 'expected-manifests', bundle, testCase);
  return fs.readdirSync(dir).sort().map((file) => ({ file, obj: parse(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}

/** Drops what Go's marshalling adds to an object of the bundle (creationTimestamp: null, empty status). */
function goClean(o: any): any {
  const c = JSON.parse(JSON.stringify(o));
  if (c.metadata && c.metadata.creationTimestamp === null) delete c.metadata.creationTimestamp;
  // typed Services and Deployments marshal their empty status
  if (c.kind === 'Service' && JSON.stringify(c.status) === '{"loadBalancer":{}}') delete c.status;
  if (c.kind === 'Deployment' && JSON.stringify(c.status) === '{}') delete c.status;
  return c;
}

describe('RegistryV1Render: operator-controller v1.11.0 regression fixtures (test/regression/convert/testdata)', () => {
  test.each(CASES)('%s %s: same objects in the same order, RBAC objects exactly', (bundleName, testCase, installNamespace, watch) => {
    const bundle = load(bundleName);
    const render = RegistryV1Render.render(bundle, installNamespace, { targetNamespaces: watch ? [watch] : undefined });
    const want = expected(bundleName, testCase);
    const got = order(render.objects);
    // file names: NN_<kind>_<name>.yaml in orderByKindNamespaceName order
    expect(got.map((o, i) => `${String(i).padStart(2, '0')}_${o.kind.toLowerCase()}_${o.metadata.name}.yaml`)).toEqual(want.map((w) => w.file));
    const gotRbac = got.filter((o) => RBAC_KINDS.includes(o.kind)).map(goClean);
    const wantRbac = want.map((w) => w.obj).filter((o) => RBAC_KINDS.includes(o.kind)).map(goClean);
    expect(gotRbac.length).toBeGreaterThan(0);
    expect(gotRbac).toEqual(wantRbac);
  });

  test.each(CASES)('%s %s: Services, ConfigMaps, CRDs and webhook configurations exactly', (bundleName, testCase, installNamespace, watch) => {
    const bundle = load(bundleName);
    const render = RegistryV1Render.render(bundle, installNamespace, { targetNamespaces: watch ? [watch] : undefined });
    const kinds = ['Service', 'ConfigMap', 'CustomResourceDefinition', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];
    const got = order(render.objects).filter((o) => kinds.includes(o.kind)).map(goClean);
    const want = expected(bundleName, testCase).map((w) => w.obj).filter((o) => kinds.includes(o.kind)).map(goClean);
    expect(got).toEqual(want);
  });

  test.each(CASES)('%s %s: Deployments exactly (deploymentConfig cases included)', (bundleName, testCase, installNamespace, watch) => {
    const render = RegistryV1Render.render(load(bundleName), installNamespace, {
      targetNamespaces: watch ? [watch] : undefined, deploymentConfig: DEPLOYMENT_CONFIGS[testCase],
    });
    const got = order(render.objects).filter((o) => o.kind === 'Deployment').map(goClean);
    const want = expected(bundleName, testCase).map((w) => w.obj).filter((o) => o.kind === 'Deployment').map(goClean);
    expect(got).toEqual(want);
  });

  test.each(CASES)('%s %s: every object exactly, in the fixture\'s order', (bundleName, testCase, installNamespace, watch) => {
    const render = RegistryV1Render.render(load(bundleName), installNamespace, {
      targetNamespaces: watch ? [watch] : undefined, deploymentConfig: DEPLOYMENT_CONFIGS[testCase],
    });
    expect(order(render.objects).map(goClean)).toEqual(expected(bundleName, testCase).map((w) => goClean(w.obj)));
  });

  test('permission names: <csv>-<sa> cut to fit 63 characters, plus the base36 SHA-224 of the Go-encoded permission', () => {
    expect(RegistryV1Render.permissionName('argocd-operator.v0.6.0', 'argocd-operator-controller-manager', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    ])).toEqual('argocd-operator.v0-2la0d6xdhxvzw38dj2olzvs8qpf7v7phi73tfd8qdcze');
    expect(RegistryV1Render.objectNameForBaseAndSuffix('a'.repeat(70), 'service')).toEqual(`${'a'.repeat(55)}-service`);
  });
});

describe('RegistryV1Render.forExtension: what OLM v1 refuses, in its words', () => {
  const argocd = () => load('argocd-operator.v0.6.0');
  const csvWith = (edit: (csv: any) => void, extra: any[] = []) => {
    const b = argocd();
    const csv = JSON.parse(JSON.stringify(b.csv));
    edit(csv);
    return OperatorBundle.fromCsvObject(csv, [...b.crds.map((c) => c.raw), ...extra]);
  };

  test('no AllNamespaces under the standard feature gates (provider.go)', () => {
    const b = csvWith((csv) => { csv.spec.installModes = csv.spec.installModes.map((m: any) => ({ ...m, supported: m.type !== 'AllNamespaces' })); });
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toEqual('unsupported bundle: bundle does not support AllNamespaces install mode');
  });

  test('owned APIServices (provider.go)', () => {
    const b = csvWith((csv) => { csv.spec.apiservicedefinitions = { owned: [{ group: 'metrics.example.com', version: 'v1', kind: 'M', name: 'ms', deploymentName: 'argocd-operator-controller-manager' }] }; });
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toEqual('unsupported bundle: apiServiceDefintions are not supported');
  });

  test('dependencies: required CRDs (olm.gvk.required) and catalog dependency properties (resolve/validation.go)', () => {
    const b = csvWith((csv) => { csv.spec.customresourcedefinitions.required = [{ name: 'certificates.cert-manager.io', version: 'v1', kind: 'Certificate' }]; });
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x' })).toEqual(`bundle "${b.name}" has a dependency declared via property "olm.gvk.required" which is currently not supported`);
    expect(RegistryV1Render.refusal(argocd(), { installNamespace: 'team-x', catalogPropertyTypes: ['olm.package', 'olm.package.required'] }))
      .toEqual('bundle "argocd-operator.v0.6.0" has a dependency declared via property "olm.package.required" which is currently not supported');
  });

  test('renderer validators (validators/validator.go): webhook rules on OLM\'s API group or on webhook configurations, duplicate deployments', () => {
    const webhook = load('webhook-operator.v0.0.5');
    const csv = JSON.parse(JSON.stringify(webhook.csv));
    const hook = csv.spec.webhookdefinitions.find((w: any) => w.type === 'ValidatingAdmissionWebhook');
    hook.rules = [{ apiGroups: ['olm.operatorframework.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['clusterextensions'] },
      { apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['ValidatingWebhookConfigurations'] }];
    csv.spec.install.spec.deployments.push(csv.spec.install.spec.deployments[0]);
    const edited = OperatorBundle.fromCatalogBundle({
      schema: 'olm.bundle',
      name: csv.metadata.name,
      package: 'webhook-operator',
      image: 'x',
      properties: [{ type: 'olm.package', value: { packageName: 'webhook-operator', version: '0.0.5' } },
        ...[csv, ...webhook.crds.map((c) => c.raw)].map((o) => ({ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(o)).toString('base64') } }))],
    });
    expect(RegistryV1Render.refusal(edited, { installNamespace: 'team-x' })!.split('\n')).toEqual([
      "cluster service version contains duplicate strategy deployment spec 'webhook-operator-controller-manager'",
      `webhook "${hook.generateName}" contains forbidden rule: admission webhook rules cannot reference API group "olm.operatorframework.io"`,
      `webhook "${hook.generateName}" contains forbidden rule: admission webhook rules cannot reference resource "ValidatingWebhookConfigurations" for API group "admissionregistration.k8s.io"`,
    ]);
  });

  test('webhooks need a certificate provider; with cert-manager the CA is injected and an Issuer + Certificate are added', () => {
    const b = load('webhook-operator.v0.0.5');
    expect(RegistryV1Render.refusal(b, { installNamespace: 'team-x', certificateProvider: OlmV1CertificateProvider.NONE })).toEqual('unsupported bundle: webhookDefinitions are not supported');
    const r = RegistryV1Render.forExtension(b, { installNamespace: 'team-x' });
    const mwc = r.objects.find((o) => o.kind === 'MutatingWebhookConfiguration');
    expect(mwc.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'team-x/webhook-operator-controller-manager-service-cert' });
    expect(r.objects.filter((o) => o.apiVersion === 'cert-manager.io/v1').map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      // ObjectNameForBaseAndSuffix cuts the base to fit 63 characters
      'Issuer/team-x/webhook-operator-controller-manager-service-c-selfsigned-issuer',
      'Certificate/team-x/webhook-operator-controller-manager-service-cert',
    ]);
  });

  test('webhook Deployments mount the provider\'s certificate Secret (ensureCorrectDeploymentCertVolumes)', () => {
    const r = RegistryV1Render.forExtension(load('webhook-operator.v0.0.5'), { installNamespace: 'team-x' });
    const pod = r.objects.find((o) => o.kind === 'Deployment').spec.template.spec;
    const secret = 'webhook-operator-controller-manager-service-cert';
    expect(pod.volumes.filter((v: any) => v.secret?.secretName === secret)).toEqual([
      { name: 'webhook-cert', secret: { secretName: secret, items: [{ key: 'tls.crt', path: 'tls.crt' }, { key: 'tls.key', path: 'tls.key' }] } },
      { name: 'apiservice-cert', secret: { secretName: secret, items: [{ key: 'tls.crt', path: 'apiserver.crt' }, { key: 'tls.key', path: 'apiserver.key' }] } },
    ]);
    for (const c of pod.containers) {
      expect(c.volumeMounts.slice(-2)).toEqual([
        { name: 'webhook-cert', mountPath: '/tmp/k8s-webhook-server/serving-certs' },
        { name: 'apiservice-cert', mountPath: '/apiserver.local.config/certificates' },
      ]);
    }
  });

  test('OpenShift service CA: inject-cabundle on webhooks and converted CRDs, serving-cert-secret-name on the Service, no extra objects', () => {
    const r = RegistryV1Render.forExtension(load('webhook-operator.v0.0.5'), { installNamespace: 'team-x', certificateProvider: OlmV1CertificateProvider.OPENSHIFT_SERVICE_CA });
    const annotated = r.objects.filter((o) => o.metadata.annotations && Object.keys(o.metadata.annotations).some((k) => k.startsWith('service.beta.openshift.io/')))
      .map((o) => `${o.kind} ${JSON.stringify(o.metadata.annotations)}`);
    expect(annotated).toEqual([
      // the CRD keeps the annotations the bundle ships (util.MergeMaps)
      'CustomResourceDefinition {"cert-manager.io/inject-ca-from":"webhook-operator-system/webhook-operator-serving-cert","controller-gen.kubebuilder.io/version":"v0.19.0","service.beta.openshift.io/inject-cabundle":"true"}',
      'ValidatingWebhookConfiguration {"service.beta.openshift.io/inject-cabundle":"true"}',
      'MutatingWebhookConfiguration {"service.beta.openshift.io/inject-cabundle":"true"}',
      'Service {"service.beta.openshift.io/serving-cert-secret-name":"webhook-operator-controller-manager-service-cert"}',
    ]);
    expect(r.objects.filter((o) => o.apiVersion === 'cert-manager.io/v1')).toEqual([]);
  });

  test('watchNamespace (issue 27 item 8): pruned by the standard CRD (an error: it would install for all namespaces); kept by the experimental CRD with or without the SingleOwnNamespaceInstallSupport gate', () => {
    expect(RegistryV1Render.refusal(argocd(), { installNamespace: 'team-x', watchNamespace: 'team-x' })).toEqual(
      'the standard ClusterExtension CRD has no spec.config, so a ClusterExtension asking for watchNamespace "team-x": the API server prunes it and operator-controller '
      + 'installs the bundle for ALL namespaces (its permissions promoted to ClusterRoles), not for "team-x". Fix: declare the experimental CRDs '
      + '(crdChannel: OlmV1CrdChannel.EXPERIMENTAL) if the cluster runs them, or drop spec.config');
    // upstream v1.11.0 applier/provider.go: the inline config is validated whenever present, watchNamespace kept with the gate off
    for (const gate of [false, true]) {
      const r = RegistryV1Render.forExtension(argocd(), { installNamespace: 'team-x', watchNamespace: 'team-x', singleOwnNamespaceInstallSupport: gate, crdChannel: OlmV1CrdChannel.EXPERIMENTAL });
      expect(r.targetNamespaces).toEqual(['team-x']);
      expect(r.rbacObjects().filter((o) => o.kind === 'Role').map((o) => o.metadata.namespace)).toEqual(['team-x']);
    }
  });
});
