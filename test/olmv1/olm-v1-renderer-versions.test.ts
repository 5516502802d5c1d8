/**
 * Issue 27 items 8 and 9 and the renderer versions:
 * - what each ClusterExtension CRD channel does with `spec.config` (operator-controller v1.11.0
 *   `internal/operator-controller/applier/provider.go` `RegistryV1ManifestProvider.Get` / `extractBundleConfigOptions`,
 *   `rukpak/bundle/registryv1.go` `GetConfigSchema`, `config/config.go`; the standard CRD of crds/olm-v1 has no
 *   spec.config);
 * - webhook ports (`rukpak/render/registryv1/generators/generators.go`: `Port: &wh.ContainerPort`, 0 when unset;
 *   only the Service port defaults to 443 in `getWebhookServicePort`);
 * - the operator-controller version as an input, with PR #2925's install-namespace resolution
 *   (`rukpak/render/namespace.go`) and its tests (`namespace_test.go`) ported.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle';
import { OlmV1CrdChannel, RegistryV1Render } from '../../src/olmv1';

const RENDER_BUNDLES = path.join(__dirname, '..', 'fixtures', 'olm-v1-render', 'bundles');

/** A minimal CSV with the given supported install modes. */
function bundleWithModes(modes: string[], annotations = ''): OperatorBundle {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-modes-'));
  try {
    fs.mkdirSync(path.join(dir, 'manifests'));
    fs.mkdirSync(path.join(dir, 'metadata'));
    fs.writeFileSync(path.join(dir, 'metadata', 'annotations.yaml'), 'annotations:\n  operators.operatorframework.io.bundle.package.v1: demo\n');
    fs.writeFileSync(path.join(dir, 'manifests', 'csv.yaml'), csvWithModes(modes, annotations));
    return OperatorBundle.fromDirectory(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function csvWithModes(modes: string[], annotations: string): string {
  return (`apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
${annotations}spec:
  version: 1.0.0
  installModes:
${['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'].map((m) => `  - {type: ${m}, supported: ${modes.includes(m)}}`).join('\n')}
  install:
    strategy: deployment
    spec:
      deployments:
      - name: demo
        spec:
          selector: {matchLabels: {app: demo}}
          template:
            metadata: {labels: {app: demo}}
            spec: {serviceAccountName: demo}
      permissions:
      - serviceAccountName: demo
        rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
`);
}
const EXP = OlmV1CrdChannel.EXPERIMENTAL;

describe('item 8: watchNamespace per CRD channel (never a silent all-namespaces install)', () => {
  const all = bundleWithModes(['AllNamespaces', 'OwnNamespace', 'SingleNamespace']);

  test('no config: AllNamespaces in both channels', () => {
    for (const crdChannel of [OlmV1CrdChannel.STANDARD, EXP]) {
      expect(RegistryV1Render.forExtension(all, { installNamespace: 'team-a', crdChannel }).targetNamespaces).toEqual(['']);
    }
  });

  test('standard CRD: the API server prunes spec.config, so a namespace-scoped request is an error naming what would happen', () => {
    expect(RegistryV1Render.refusal(all, { installNamespace: 'team-a', watchNamespace: 'team-a', crdChannel: OlmV1CrdChannel.STANDARD })).toContain(
      'operator-controller installs the bundle for ALL namespaces (its permissions promoted to ClusterRoles), not for "team-a"');
  });

  test('experimental CRD, gate off: watchNamespace kept (OwnNamespace and SingleNamespace installs), Roles in the watched namespace', () => {
    const own = RegistryV1Render.forExtension(all, { installNamespace: 'team-a', watchNamespace: 'team-a', crdChannel: EXP });
    expect(own.targetNamespaces).toEqual(['team-a']);
    expect(own.rbacObjects().filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').map((o) => `${o.kind} ${o.metadata.namespace ?? ''}`)).toEqual(['Role team-a']);
    expect(RegistryV1Render.forExtension(all, { installNamespace: 'team-a', watchNamespace: 'team-b', crdChannel: EXP }).targetNamespaces).toEqual(['team-b']);
  });

  test.each([
    // [modes, watchNamespace, gate, refusal]
    [['AllNamespaces'], 'team-a', false, 'invalid ClusterExtension configuration: invalid configuration: unknown field "watchNamespace"'],
    [['OwnNamespace'], undefined, true, 'invalid ClusterExtension configuration: invalid configuration: required field "watchNamespace" is missing'],
    [['OwnNamespace'], 'team-b', true, 'invalid ClusterExtension configuration: invalid configuration: invalid format for field "watchNamespace": invalid value "team-b": must be "team-a" (the namespace where the operator is installed) because this operator only supports OwnNamespace install mode'],
    [['SingleNamespace'], 'team-a', true, 'invalid ClusterExtension configuration: invalid configuration: invalid format for field "watchNamespace": invalid value "team-a": must be different from "team-a" (the install namespace) because this operator uses SingleNamespace install mode to watch a different namespace'],
    [['OwnNamespace'], 'team-a', false, 'unsupported bundle: bundle does not support AllNamespaces install mode'],
    [['AllNamespaces', 'OwnNamespace'], 'Team_A', false, 'invalid ClusterExtension configuration: invalid configuration: invalid value for field "watchNamespace"'],
  ])('experimental CRD, modes %j, watchNamespace %j, gate %j: %s', (modes, watch, gate, refusal) => {
    expect(RegistryV1Render.refusal(bundleWithModes(modes as string[]), { installNamespace: 'team-a', watchNamespace: watch as string | undefined, singleOwnNamespaceInstallSupport: gate as boolean, crdChannel: EXP }))
      .toEqual(refusal);
  });

  test('with the gate, an OwnNamespace-only bundle installs for its own namespace; several problems are listed together', () => {
    expect(RegistryV1Render.forExtension(bundleWithModes(['OwnNamespace']), { installNamespace: 'team-a', watchNamespace: 'team-a', singleOwnNamespaceInstallSupport: true }).targetNamespaces).toEqual(['team-a']);
    expect(RegistryV1Render.refusal(bundleWithModes(['AllNamespaces']), { installNamespace: 'team-a', watchNamespace: 'team-a', deploymentConfig: { env: [] }, crdChannel: EXP }))
      .toEqual('invalid ClusterExtension configuration: invalid configuration: multiple errors found:\n  - unknown field "watchNamespace"\n  - unknown field "deploymentConfig"');
  });
});

describe('item 9: a webhook definition without containerPort', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-port-'));
    fs.cpSync(path.join(RENDER_BUNDLES, 'webhook-operator.v0.0.5'), dir, { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('upstream renders clientConfig.service.port 0 (the Service keeps 443); the API server refuses it, so it is an error at synth', () => {
    const csvFile = path.join(dir, 'manifests', 'webhook-operator.clusterserviceversion.yaml');
    fs.writeFileSync(csvFile, fs.readFileSync(csvFile, 'utf8').split('\n').filter((l) => l.trim() !== 'containerPort: 443').join('\n'));
    const bundle = OperatorBundle.fromDirectory(dir);
    const rendered = RegistryV1Render.render(bundle, 'webhook-system');
    const ports = rendered.objects.flatMap((o) => (o.kind === 'CustomResourceDefinition' ? (o.spec.conversion ? [[o.kind, o.spec.conversion.webhook.clientConfig.service.port]] : [])
      : o.kind.endsWith('WebhookConfiguration') ? o.webhooks.map((w: any) => [o.kind, w.clientConfig.service.port])
        : o.kind === 'Service' ? o.spec.ports.map((p: any) => [o.kind, p.port]) : []));
    expect(ports).toEqual([['CustomResourceDefinition', 0], ['ValidatingWebhookConfiguration', 0], ['MutatingWebhookConfiguration', 0], ['Service', 443]]);
    expect(RegistryV1Render.refusal(bundle, { installNamespace: 'webhook-system' })).toEqual(
      'the API server would refuse what operator-controller renders: webhook definition(s) ConversionWebhook "cwebhooktests.kb.io", MutatingAdmissionWebhook '
      + '"mwebhooktest-v1.kb.io", ValidatingAdmissionWebhook "vwebhooktest-v1.kb.io" have no containerPort, so the rendered clientConfig.service.port is 0 '
      + '(generators.go: Port: &wh.ContainerPort; only the Service port defaults to 443) and the API server requires a port between 1 and 65535 '
      + '(clientConfig.service.port: Invalid value: 0). Fix: the bundle must set containerPort in spec.webhookdefinitions');
  });

  test('with the ports set (the fixture as shipped) nothing is refused', () => {
    expect(RegistryV1Render.refusal(OperatorBundle.fromDirectory(dir), { installNamespace: 'webhook-system' })).toBeUndefined();
  });
});

describe('the operator-controller version is an input', () => {
  const b = bundleWithModes(['AllNamespaces']);

  test('default v1.11.0; unknown versions are a clear error', () => {
    expect(RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION).toBe('v1.11.0');
    expect(RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS).toEqual(['v1.11.0', 'main']);
    expect(RegistryV1Render.refusal(b, { installNamespace: 'x', operatorControllerVersion: 'v1.12.0' }))
      .toEqual('RegistryV1RenderOptions.operatorControllerVersion: operator-controller version "v1.12.0" is not modelled; use one of v1.11.0, main');
  });

  test('bad input is a clear error, never a TypeError', () => {
    expect(RegistryV1Render.versionProblem(11 as any)).toBe('operator-controller version must be a string, got 11; use one of v1.11.0, main');
    expect(() => RegistryV1Render.defaultInstallNamespace(null as any)).toThrow('RegistryV1Render.defaultInstallNamespace: packageName must be a string, got null');
    expect(() => RegistryV1Render.systemManagedNamespace('p', ['x'] as any)).toThrow('RegistryV1Render.systemManagedNamespace: csvAnnotations must be a map of strings, got ["x"]');
    expect(() => RegistryV1Render.systemManagedNamespace(7 as any, {})).toThrow('RegistryV1Render.defaultInstallNamespace: packageName must be a string, got 7');
  });

  test('v1.11.0 needs the install namespace; main resolves it from the bundle (suggested-namespace, else <package>-system)', () => {
    expect(RegistryV1Render.refusal(b, {})).toEqual("no install namespace: operator-controller v1.11.0 needs the ClusterExtension's spec.namespace (RegistryV1RenderOptions.installNamespace)");
    expect(RegistryV1Render.forExtension(b, { operatorControllerVersion: 'main' }).installNamespace).toBe('demo-system');
    const suggested = bundleWithModes(['AllNamespaces'], '  annotations:\n    operatorframework.io/suggested-namespace: demo-operators\n');
    expect(RegistryV1Render.forExtension(suggested, { operatorControllerVersion: 'main' }).installNamespace).toBe('demo-operators');
    expect(RegistryV1Render.forExtension(suggested, { operatorControllerVersion: 'main', installNamespace: 'mine' }).installNamespace).toBe('mine');
  });
});

// rukpak/render/namespace_test.go (PR #2925), ported
describe('RegistryV1Render.systemManagedNamespace (upstream TestResolveSystemManagedNamespace)', () => {
  const T = 'operatorframework.io/suggested-namespace-template';
  const S = 'operatorframework.io/suggested-namespace';
  test.each<[string, Record<string, string> | undefined, string, string]>([
    ['suggested-namespace-template with name', { [T]: '{"metadata":{"name":"from-template","labels":{"pod-security.kubernetes.io/enforce":"privileged"}}}' }, 'my-operator', 'from-template'],
    ['suggested-namespace without template', { [S]: 'my-custom-ns' }, 'my-operator', 'my-custom-ns'],
    ['template takes priority over suggested-namespace', { [T]: '{"metadata":{"name":"from-template"}}', [S]: 'from-annotation' }, 'my-operator', 'from-template'],
    ['fallback to packageName-system', {}, 'my-operator', 'my-operator-system'],
    ['nil annotations fallback', undefined, 'my-operator', 'my-operator-system'],
    ['template without name falls back to suggested-namespace', { [T]: '{"metadata":{"labels":{"foo":"bar"}}}', [S]: 'from-annotation' }, 'my-operator', 'from-annotation'],
    ['template without name and no suggested-namespace falls back to convention', { [T]: '{"metadata":{"labels":{"foo":"bar"}}}' }, 'my-operator', 'my-operator-system'],
  ])('%s', (_name, annotations, packageName, want) => {
    expect(RegistryV1Render.systemManagedNamespace(packageName, annotations as any)).toBe(want);
  });

  test('an invalid template (TestResolveSystemManagedNamespace_InvalidTemplate)', () => {
    expect(() => RegistryV1Render.systemManagedNamespace('pkg', { [T]: '{invalid json' })).toThrow(/^failed to parse namespace template/);
  });

  test.each<[string, Record<string, string> | undefined, string, string | undefined]>([
    ['rejects uppercase characters in suggested-namespace', { [S]: 'Invalid-NS' }, 'pkg', 'not a valid DNS1123 label'],
    ['rejects name exceeding 63 characters', { [S]: 'a234567890123456789012345678901234567890123456789012345678901234' }, 'pkg', 'exceeds 63 characters'],
    ['rejects name with dots', { [S]: 'my.namespace' }, 'pkg', 'not a valid DNS1123 label'],
    ['accepts valid fallback name', undefined, 'my-package', undefined],
    ['accepts valid suggested-namespace', { [S]: 'valid-ns-123' }, 'pkg', undefined],
    ['rejects invalid name from template', { [T]: '{"metadata":{"name":"INVALID"}}' }, 'pkg', 'not a valid DNS1123 label'],
  ])('%s (TestResolveSystemManagedNamespace_Validation)', (_name, annotations, packageName, errContains) => {
    const run = () => RegistryV1Render.systemManagedNamespace(packageName, annotations as any);
    if (errContains === undefined) expect(run).not.toThrow();
    else expect(run).toThrow(errContains);
  });
});

describe('RegistryV1Render.defaultInstallNamespace (upstream TestDefaultInstallNamespace, merged version: altered names get a hash)', () => {
  const valid = (n: string) => n.length > 0 && n.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n);
  test.each<[string, string, RegExp]>([
    ['valid short name keeps <package>-system', 'argocd-operator', /^argocd-operator-system$/],
    ['dotted package name is normalized, with a hash of the original name', 'my.operator', /^my-operator-[0-9a-z]{8}-system$/],
    ['uppercase and underscores are normalized, with a hash', 'My_Operator', /^my-operator-[0-9a-z]{8}-system$/],
    ['overlong package name is truncated to a valid label', 'a'.repeat(80), /^a{47}-[0-9a-z]{8}-system$/],
    ['package name with no valid characters still yields a valid namespace', '...', /^[0-9a-z]{8}-system$/],
  ])('%s', (_name, packageName, want) => {
    const got = RegistryV1Render.defaultInstallNamespace(packageName);
    expect(valid(got)).toBe(true);
    expect(RegistryV1Render.defaultInstallNamespace(packageName)).toBe(got);
    expect(got).toMatch(want);
  });

  test('the hash is hashutil.DeepHashObject of the name (base36 SHA-224 of its JSON and a newline), its first 8 characters', () => {
    // the same digest as RegistryV1Render.permissionName's (checked against upstream's regression fixtures)
    const full = BigInt(`0x${crypto.createHash('sha224').update('"my.operator"\n').digest('hex')}`).toString(36);
    expect(RegistryV1Render.defaultInstallNamespace('my.operator')).toBe(`my-operator-${full.slice(0, 8)}-system`);
  });

  test('distinct names that normalize alike or share a long prefix do not collide', () => {
    const a = RegistryV1Render.defaultInstallNamespace(`${'a'.repeat(70)}-one`);
    const b = RegistryV1Render.defaultInstallNamespace(`${'a'.repeat(70)}-two`);
    expect([valid(a), valid(b), a !== b]).toEqual([true, true, true]);
    expect(RegistryV1Render.defaultInstallNamespace('foo.bar')).not.toBe(RegistryV1Render.defaultInstallNamespace('foo-bar'));
    expect(RegistryV1Render.defaultInstallNamespace('foo-bar')).toBe('foo-bar-system');
  });
});

// rukpak/render/namespace_test.go (PR #2925), ported: what seeds the namespace the team writes on main (issue 40 item 3)
describe('RegistryV1Render.namespaceTemplate (upstream TestParseNamespaceTemplate)', () => {
  const T = 'operatorframework.io/suggested-namespace-template';
  test.each<[string, Record<string, string> | undefined, object | undefined]>([
    ['nil annotations', undefined, undefined],
    ['empty map', {}, undefined],
    ['annotation absent', { 'some.other/annotation': 'value' }, undefined],
    ['empty string value', { [T]: '' }, undefined],
    ['valid template with PSA labels', { [T]: '{"metadata":{"labels":{"pod-security.kubernetes.io/enforce":"restricted"}}}' }, { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } }],
    ['valid template with annotations', { [T]: '{"metadata":{"annotations":{"openshift.io/description":"Operator namespace"}}}' }, { annotations: { 'openshift.io/description': 'Operator namespace' } }],
  ])('%s', (_name, annotations, expected) => {
    expect(RegistryV1Render.namespaceTemplate(annotations as any)).toEqual(expected);
  });

  test('invalid JSON', () => {
    expect(() => RegistryV1Render.namespaceTemplate({ [T]: '{"metadata": invalid json}' })).toThrow(/^failed to parse namespace template: /);
    // encoding/json's refusal of a value of another type
    expect(() => RegistryV1Render.namespaceTemplate({ [T]: '{"metadata":{"labels":{"a":1}}}' }))
      .toThrow('failed to parse namespace template: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  });
});

describe('RegistryV1Render.namespaceObject (upstream TestBuildNamespaceObject)', () => {
  test('with template labels', () => {
    expect(RegistryV1Render.namespaceObject('my-ns', { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } }))
      .toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'my-ns', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
  });
  test('nil template: no labels', () => {
    expect(RegistryV1Render.namespaceObject('my-ns')).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'my-ns' } });
  });
  test('template name is overridden', () => {
    expect(RegistryV1Render.namespaceObject('override', { name: 'template-name' }).metadata.name).toEqual('override');
  });
  test('strips empty spec and status', () => {
    expect(Object.keys(RegistryV1Render.namespaceObject('my-ns', {}))).toEqual(['apiVersion', 'kind', 'metadata']);
  });
});
