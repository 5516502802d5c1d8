/**
 * Issue 15, items 1-3: what the cluster reads is what was checked. Each attack goes through the real constructs;
 * TenancyApp's output is decoded by kubectl (sigs.k8s.io/yaml on go-yaml v2, as Argo CD and Flux) and compared with
 * the library's in-memory objects exactly; cdk8s's own writer is shown to be misread on the same objects, and plain
 * cdk8s Apps refuse them at synth.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, JsonPatch, Testing, Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import {
  BlueprintOverride, CatalogSourceReference, OperatorBundle, OutputLayout, ScopedOperatorTenant, TenancyApp, TenantBaseline, TenantBlueprint,
} from '../../src';
import { pathsBelow } from '../util/files';
import { describeWithKubectl, kubectlError, kubectlKustomize, kubectlRead, kubectlReadFiles, normalized } from '../util/kubectl';
import { synthErrorLines } from '../util/synth';
import { YAML11_FORMS } from '../util/yaml11';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
const CATALOG = CatalogSourceReference.fromName('curated-operators', 'olm');

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'yaml-faithful-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let dirs = 0;

const L = '\u2028';
/** A Namespace annotation that go-yaml reads, from cdk8s's plain scalar, as a ClusterRoleBinding of cluster-admin. */
const INJECTION = ['ok', 'apiVersion:', ' rbac.authorization.k8s.io/v1', 'kind:', ' ClusterRoleBinding', 'roleRef:', ' apiGroup:',
  '  rbac.authorization.k8s.io', ' kind:', '  ClusterRole', ' name:', '  cluster-admin', 'subjects:', '- kind:', '   Group', '  apiGroup:',
  '   rbac.authorization.k8s.io', '  name:', '   system:authenticated'].join(L);

/** Every file below `dir`, sorted. */

/** Synthesizes with TenancyApp into a temp dir; returns the App, its in-memory objects and the output dir. */
function synthTenancy(build: (chart: Chart) => void, layout: OutputLayout = OutputLayout.FILE_PER_CHART): { objects: any[]; outdir: string } {
  const outdir = path.join(tmpRoot, `${dirs++}`);
  const app = new TenancyApp({ outdir, layout, quiet: true });
  build(new Chart(app, 'tenants'));
  app.synth();
  return { objects: app.synthObjects().flatMap((c) => c.objects), outdir };
}

/** What kubectl reads from every manifest file below `dir` (the GitOps kustomizations and Argo CD snippet aside). */
function readManifests(dir: string): any[] {
  return kubectlReadFiles(pathsBelow(dir).filter((f) => f.endsWith('.yaml') && !f.endsWith('kustomization.yaml') && !f.includes(`${path.sep}argocd${path.sep}`)));
}

const tenantWithNamespaceMetadata = (annotations: { [k: string]: string }, labels: { [k: string]: string } = {}) => (chart: Chart) => {
  new ScopedOperatorTenant(chart, 'team-a', { namespaceName: 'team-a', namespaceAnnotations: annotations, namespaceLabels: labels });
};

describeWithKubectl('issue 15 item 1: YAML 1.1 line breaks', () => {
  test('GIVEN a Namespace annotation that injects a ClusterRoleBinding through U+2028 THEN kubectl reads TenancyApp\'s file as the Namespace, exactly', () => {
    const { objects, outdir } = synthTenancy(tenantWithNamespaceMetadata({ note: INJECTION }));
    const read = readManifests(outdir);
    expect(read).toEqual(objects.map(normalized));
    expect(read.find((o) => o.kind === 'Namespace').metadata.annotations.note).toEqual(INJECTION);
    expect(read.filter((o) => o.kind === 'ClusterRoleBinding')).toEqual([]);
    // the attack, on cdk8s's writer: the Namespace is read as a ClusterRoleBinding of cluster-admin to system:authenticated
    const ns = objects.find((o) => o.kind === 'Namespace');
    const [misread] = kubectlRead(Yaml.stringify(ns));
    expect([misread.apiVersion, misread.kind, misread.roleRef, misread.subjects[0].kind, misread.subjects[0].apiGroup]).toEqual([
      'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      'Group', 'rbac.authorization.k8s.io',
    ]);
  });

  test('GIVEN the same annotation in the GitOps layout THEN kubectl reads the tenant folder exactly and kustomize builds the layout', () => {
    const { objects, outdir } = synthTenancy(tenantWithNamespaceMetadata({ note: INJECTION }), OutputLayout.GITOPS);
    const folder = path.join(outdir, 'tenants', 'team-a');
    const read = kubectlReadFiles(pathsBelow(folder).filter((f) => !f.endsWith('kustomization.yaml')));
    expect(read.map((o) => o.kind).sort()).toEqual(objects.filter((o) => o.metadata.namespace === 'team-a' || o.kind === 'Namespace').map((o) => o.kind).sort());
    expect(read.find((o) => o.kind === 'Namespace').metadata.annotations.note).toEqual(INJECTION);
    const built = kubectlKustomize(outdir);
    expect(built.ok).toBe(true);
    expect(kubectlRead(built.output).find((o) => o.kind === 'Namespace').metadata.annotations.note).toEqual(INJECTION);
  });

  test('GIVEN tenant namespaces named like YAML 1.1 values (0o17, 0b11, no, 0x1f) THEN the GitOps kustomizations list them as strings and kustomize builds them', () => {
    const names = ['0o17', '0b11', 'no', '0x1f'];
    const build = (chart: Chart) => names.forEach((n) => new ScopedOperatorTenant(chart, n, { namespaceName: n }));
    const { objects, outdir } = synthTenancy(build, OutputLayout.GITOPS);
    expect(fs.readFileSync(path.join(outdir, 'tenants', 'kustomization.yaml'), 'utf8')).toContain('resources:\n  - "0b11"\n  - "0o17"\n  - "0x1f"\n  - "no"\n');
    // cdk8s's writer lists `0o17` plain: go-yaml reads the number 15
    const kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', metadata: { name: 'k' }, resources: ['0o17', '0b11'] };
    const asCdk8s = Yaml.stringify(kustomization);
    expect(asCdk8s).toContain('resources:\n  - 0o17\n  - "0b11"\n');
    expect(kubectlRead(asCdk8s)[0].resources).toEqual([15, '0b11']);
    const built = kubectlKustomize(outdir);
    expect(built.ok).toBe(true);
    expect(kubectlRead(built.output).filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name).sort())
      .toEqual(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name).sort());
  });

  test('GIVEN a quota override key that injects a Pod THEN the stamp is refused (quota keys follow validateResourceQuotaResourceName)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'teams');
    const blueprint = new TenantBlueprint({
      name: 'obs',
      catalog: CATALOG,
      operators: [{ packageName: 'prometheus', channel: 'beta', bundle: prometheus }],
      baseline: {},
      allowedOverrides: [BlueprintOverride.QUOTA],
    });
    const key = ['pods', 'kind:', ' Pod', 'metadata:', ' namespace:', '  kube-system'].join(L);
    blueprint.stamp(chart, 'metrics', { quota: { [key]: '1', 'count/deployments.apps': '5', 'gpus': '1', 'requests.cpu': '2x' } });
    const esc = 'pods\\u2028kind:\\u2028 Pod\\u2028metadata:\\u2028 namespace:\\u2028  kube-system';
    expect(synthErrorLines(app).filter((l) => /InvalidQuota|InvalidQuantity/.test(l))).toEqual([
      `[teams/metrics/Baseline] quota["${esc}"]="${esc}": quota key name part must consist of alphanumerics, '-', '_' or '.', and must start and end with an alphanumeric. Fix: use a quota resource name such as 'pods', 'requests.cpu', 'limits.memory' or 'count/deployments.apps' (InvalidQuotaResource)`,
      "[teams/metrics/Baseline] quota[\"gpus\"]=\"gpus\": quota key is not a standard quota resource (cpu, memory, ephemeral-storage, requests.cpu, requests.memory, requests.storage, requests.ephemeral-storage, limits.cpu, limits.memory, limits.ephemeral-storage, pods, resourcequotas, services, replicationcontrollers, secrets, persistentvolumeclaims, configmaps, services.nodeports, services.loadbalancers, hugepages-<size>) nor a qualified name with a '/' (e.g. count/deployments.apps). Fix: use a quota resource name such as 'pods', 'requests.cpu', 'limits.memory' or 'count/deployments.apps' (InvalidQuotaResource)",
      "[teams/metrics/Baseline] quota.requests.cpu=\"2x\": not a Kubernetes quantity. Fix: write a quantity such as '10', '500m' or '16Gi' (InvalidQuantity)",
    ]);
  });

  test('GIVEN a Subscription config.env value with U+2028 and `0o022` THEN kubectl reads the Subscription exactly; a bad env name is refused', () => {
    const env = [{ name: 'NOTE', value: `x${L}source:${L} evil-catalog` }, { name: 'UMASK', value: '0o022' }, { name: 'MODE', value: '0X1F' }];
    const { objects, outdir } = synthTenancy((chart) => {
      const t = new ScopedOperatorTenant(chart, 'team-a', { namespaceName: 'team-a' });
      t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, config: { env } });
    });
    const read = readManifests(outdir);
    expect(read).toEqual(objects.map(normalized));
    const sub = read.find((o) => o.kind === 'Subscription');
    expect([sub.spec.source, sub.spec.config.env]).toEqual(['curated-operators', env]);
    // cdk8s's writer: the Subscription is refused (the line breaks end the scalar), and without that value the env
    // values `0o022` and `0X1F` become the numbers 18 and 31
    const subscription = objects.find((o) => o.kind === 'Subscription');
    expect(kubectlError(Yaml.stringify(subscription))).toContain('mapping values are not allowed in this context');
    const numbers = { ...subscription, spec: { ...subscription.spec, config: { env: env.slice(1) } } };
    expect(kubectlRead(Yaml.stringify(numbers))[0].spec.config.env).toEqual([{ name: 'UMASK', value: 18 }, { name: 'MODE', value: 31 }]);

    const app = Testing.app();
    const t = new ScopedOperatorTenant(new Chart(app, 'c'), 'team-a', { namespaceName: 'team-a' });
    t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, config: { env: [{ name: '1X=y', value: 'v' }] } });
    expect(synthErrorLines(app).filter((l) => l.includes('config.env'))).toEqual([
      "[c/team-a/Subscription-etcd] config.env[0].name=\"1X=y\": environment variable name must consist of alphabetic characters, digits, '_', '-' or '.', and must not start with a digit (validation.IsEnvVarName). Fix: use letters, digits, '_', '-' or '.', not starting with a digit, e.g. 'LOG_LEVEL' (InvalidInputValue)",
    ]);
  });
});

describeWithKubectl('issue 15 item 2: YAML 1.1 numbers', () => {
  test('GIVEN labels and annotations 0X1F, 0O17, 0B11, 0o022, 1_000, yEs, <<, = THEN kubectl reads the Namespace exactly (cdk8s\'s file is refused)', () => {
    const values = ['0X1F', '0O17', '0B11', '0o022', '1_000', 'yEs', '08', '2020-1-2'];
    const labels = Object.fromEntries(values.map((v, i) => [`l${i}`, v]));
    const annotations = { ...Object.fromEntries(values.map((v, i) => [`a${i}`, v])), 'example.com/merge': '<<', 'example.com/eq': '=' };
    const { objects, outdir } = synthTenancy(tenantWithNamespaceMetadata(annotations, labels));
    const read = readManifests(outdir);
    expect(read).toEqual(objects.map(normalized));
    expect(read.find((o) => o.kind === 'Namespace').metadata.labels).toMatchObject(labels);
    expect(read.find((o) => o.kind === 'Namespace').metadata.annotations).toEqual(annotations);
    expect(kubectlError(Yaml.stringify(objects.find((o) => o.kind === 'Namespace')))).toContain('cannot unmarshal number');
  });
});

describeWithKubectl('issue 15 item 3: characters kubectl refuses, U+0085 inside quotes', () => {
  test('GIVEN annotations with DEL, C1, U+FFFE, U+FFFF, BOM and U+0085 inside a quoted scalar THEN kubectl reads them exactly', () => {
    const annotations = { del: 'a\x7fb', c1: '\x80\x9b', nonchar: '\ufffe\uffff', bom: '\ufeffx', nel: 'a: b\x85c', nelPlain: 'a\x85b' };
    const { objects, outdir } = synthTenancy(tenantWithNamespaceMetadata(annotations));
    const read = readManifests(outdir);
    expect(read).toEqual(objects.map(normalized));
    expect(read.find((o) => o.kind === 'Namespace').metadata.annotations).toEqual(annotations);
    // cdk8s's writer: the file is refused (other tenants' objects in it included), or U+0085 inside quotes becomes a space
    const ns = objects.find((o) => o.kind === 'Namespace');
    expect(kubectlError(Yaml.stringify(ns))).toContain('control characters are not allowed');
    const [folded] = kubectlRead(Yaml.stringify({ ...ns, metadata: { name: 'team-a', annotations: { nel: 'a: b\x85c' } } }));
    expect(folded.metadata.annotations.nel).toEqual('a: b c');
  });

  test('GIVEN a lone surrogate in an annotation THEN synth fails naming construct, field and value', () => {
    const app = new TenancyApp({ outdir: path.join(tmpRoot, `${dirs++}`), quiet: true });
    tenantWithNamespaceMetadata({ note: 'a\ud800b' })(new Chart(app, 'tenants'));
    expect(synthErrorLines(app)).toEqual([
      "[tenants/team-a] namespaceAnnotations[\"note\"]=\"a\\ud800b\": namespaceAnnotations[\"note\"] holds a lone UTF-16 surrogate, which has no UTF-8 encoding: Kubernetes' YAML reader (go-yaml v2) refuses the file (or the character is replaced), so the cluster would not read it as written. Fix: remove the character, or write the whole surrogate pair (e.g. from String.fromCodePoint) (UnrepresentableYamlValue, OLMT-039)",
    ]);
  });

  test('GIVEN a lone surrogate added behind the constructs\' back (addJsonPatch) THEN TenancyApp refuses to write it, naming the construct', () => {
    const app = new TenancyApp({ outdir: path.join(tmpRoot, `${dirs++}`), quiet: true });
    const t = new ScopedOperatorTenant(new Chart(app, 'tenants'), 'team-a', { namespaceName: 'team-a' });
    t.namespace!.addJsonPatch(JsonPatch.add('/metadata/annotations', { note: 'x\udc00' }));
    expect(() => app.synth()).toThrow('Validation failed with the following errors:\n  [tenants/team-a/Namespace] metadata.annotations.note="x\\udc00": holds a lone UTF-16 surrogate');
  });

  test('GIVEN the GitOps layout (written file by file) and a lone surrogate from addJsonPatch THEN synth refuses before touching the previous output', () => {
    const outdir = path.join(tmpRoot, `${dirs++}`);
    const build = (patch: boolean) => {
      const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true });
      const chart = new Chart(app, 'tenants');
      new ScopedOperatorTenant(chart, 'team-a', { namespaceName: 'team-a' });
      const b = new ScopedOperatorTenant(chart, 'team-b', { namespaceName: 'team-b' });
      if (patch) b.namespace!.addJsonPatch(JsonPatch.add('/metadata/annotations', { note: 'x\udc00' }));
      return app;
    };
    build(false).synth();
    const before = pathsBelow(outdir).map((f) => [f, fs.readFileSync(f, 'utf8')]);
    expect(() => build(true).synth()).toThrow('Validation failed with the following errors:\n  [tenants/team-b/Namespace] metadata.annotations.note="x\\udc00": holds a lone UTF-16 surrogate');
    expect(pathsBelow(outdir).map((f) => [f, fs.readFileSync(f, 'utf8')])).toEqual(before);
  });
});

describe('plain cdk8s App: cdk8s\'s writer cannot be changed, so the library\'s constructs refuse what it would write unfaithfully', () => {
  test('GIVEN a plain App with the attacks THEN synth fails naming the object, field and value, with a fix naming TenancyApp', () => {
    const app = new App({ outdir: path.join(tmpRoot, `${dirs++}`) });
    tenantWithNamespaceMetadata({ note: `ok${L}kind:${L} ClusterRoleBinding`, umask: '0o022' }, { mode: '0X1F' })(new Chart(app, 'tenants'));
    const lines = synthErrorLines(app).filter((l) => l.includes('UnfaithfulYamlOutput'));
    expect(lines.map((l) => l.replace(/: cdk8s's YAML writer.*Fix: /, ': ... Fix: '))).toEqual([
      '[tenants/team-a] Namespace team-a metadata.annotations.note="ok\\u2028kind:\\u2028 ClusterRoleBinding": ... Fix: synthesize with TenancyApp (a drop-in for App whose writer quotes and escapes such strings), or change the value (UnfaithfulYamlOutput, OLMT-038)',
      '[tenants/team-a] Namespace team-a metadata.annotations.umask="0o022": ... Fix: synthesize with TenancyApp (a drop-in for App whose writer quotes and escapes such strings), or change the value (UnfaithfulYamlOutput, OLMT-038)',
      '[tenants/team-a] Namespace team-a metadata.labels.mode="0X1F": ... Fix: synthesize with TenancyApp (a drop-in for App whose writer quotes and escapes such strings), or change the value (UnfaithfulYamlOutput, OLMT-038)',
    ]);
  });

  test('GIVEN a plain App that synthesizes, then a patch adding `0o022` THEN the next synth refuses it (checked once per synth call, never stale)', () => {
    const app = new App({ outdir: path.join(tmpRoot, `${dirs++}`) });
    const charts = [0, 1, 2].map((i) => new Chart(app, `c${i}`));
    const tenants = charts.map((c, i) => new ScopedOperatorTenant(c, 'team', { namespaceName: `team-${i}` }));
    expect(synthErrorLines(app)).toEqual([]);
    app.synth();
    tenants[2].namespace!.addJsonPatch(JsonPatch.add('/metadata/annotations', { umask: '0o022' }));
    expect(synthErrorLines(app).filter((l) => l.includes('UnfaithfulYamlOutput')).map((l) => l.replace(/: cdk8s's YAML writer.*\(/, ' ('))).toEqual([
      '[c2/team] Namespace team-2 metadata.annotations.umask="0o022" (UnfaithfulYamlOutput, OLMT-038)',
    ]);
    expect(() => app.synth()).toThrow('[c2/team] Namespace team-2 metadata.annotations.umask="0o022"');
  });

  test('GIVEN the same constructs in a TenancyApp THEN no such error (its writer is faithful)', () => {
    const app = new TenancyApp({ outdir: path.join(tmpRoot, `${dirs++}`), quiet: true });
    tenantWithNamespaceMetadata({ note: `ok${L}kind:${L} ClusterRoleBinding`, umask: '0o022' }, { mode: '0X1F' })(new Chart(app, 'tenants'));
    expect(synthErrorLines(app)).toEqual([]);
  });
});

/** Characters the writer must keep faithful (with test/util/yaml11.ts YAML11_FORMS, the seeds of the generated corpus). */
const CHARS = ['\x7f', '\x80', '\x85', '\x9f', '\u2028', '\u2029', '\ufeff', '\ufffe', '\uffff', '\x00', '\x1b', '\t', '\n', '\r', ': ', ' #', '"', "'", '\\', 'é', '😀'];
const text = fc.oneof(
  fc.constantFrom(...YAML11_FORMS),
  fc.string({ unit: fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom('a', 'x', '0', '1', '.', '-', '_', ' ', ':', 'k')), maxLength: 10 }),
  fc.tuple(fc.constantFrom(...YAML11_FORMS), fc.constantFrom(...CHARS)).map(([f, c]) => `${f}${c}`),
);
/** Label values: valid ones only (Kubernetes' label rules), YAML 1.1 forms among them. */
const labelValue = fc.oneof(
  fc.constantFrom(...YAML11_FORMS.filter((f) => /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(f) || f === '')),
  fc.stringMatching(/^[a-z0-9]([-a-z0-9_.]{0,8}[a-z0-9])?$/),
);
/** Annotation keys: qualified names, YAML 1.1 forms among them (`y`, `0x1F`, `1e3` are valid keys). */
const annotationKey = fc.oneof(
  fc.constantFrom('y', 'no', 'ON', '0x1F', '0O17', '1e3', '08', 'null', 'example.com/yes', 'example.com/0b11'),
  fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/),
);
const tenantSpec = fc.record({
  annotations: fc.dictionary(annotationKey, text, { maxKeys: 4 }),
  labels: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), labelValue, { maxKeys: 3 }),
  env: fc.array(text, { maxLength: 3 }),
});

describeWithKubectl('a generated corpus through the real constructs (fixed seed), read by kubectl', () => {
  test('GIVEN 60 tenants with generated annotations, labels and Subscription env values THEN kubectl reads exactly the in-memory objects (one call)', () => {
    const specs = fc.sample(tenantSpec, { numRuns: 60, seed: 15 });
    const { objects, outdir } = synthTenancy((chart) => specs.forEach((s, i) => {
      const t = new ScopedOperatorTenant(chart, `t${i}`, { namespaceName: `team-${i}`, namespaceAnnotations: s.annotations, namespaceLabels: s.labels });
      t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, config: { env: s.env.map((value, j) => ({ name: `E${j}`, value })) } });
    }));
    const read = kubectlRead(pathsBelow(outdir).filter((f) => f.endsWith('.yaml')).map((f) => fs.readFileSync(f, 'utf8')).join('---\n'));
    expect(read).toEqual(objects.map(normalized));
    // the corpus holds what cdk8s's writer gets wrong
    const strings = specs.flatMap((s) => [...Object.keys(s.annotations), ...Object.values(s.annotations), ...Object.values(s.labels), ...s.env]);
    expect(strings.filter((x) => /^(0X1F|0O17|0B11|0o022|y|<<)$|[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/.test(x)).length).toBeGreaterThan(20);
  });
});

describeWithKubectl('reasons that land in annotations, LimitRange defaults', () => {
  const pullSecretTenant = (reason: string) => (chart: Chart) => new ScopedOperatorTenant(chart, 'team-a', {
    namespaceName: 'team-a',
    createTokenSecret: false,
    installerRules: [],
    legacyPullSecretAccess: { catalogNamespace: 'openshift-marketplace', secretNames: ['quay-pull'] },
    systemNamespacesReason: reason,
  });

  test('GIVEN a reason that is a YAML 1.1 number (0O17) THEN kubectl reads the annotation exactly', () => {
    const { objects, outdir } = synthTenancy(pullSecretTenant('0O17'));
    const read = readManifests(outdir);
    expect(read).toEqual(objects.map(normalized));
    expect(read.flatMap((o) => Object.values(o.metadata.annotations ?? {})).filter((v) => v === '0O17').length).toBeGreaterThan(0);
  });

  test('GIVEN a reason with a lone surrogate THEN synth fails naming the field', () => {
    const app = Testing.app();
    pullSecretTenant('why\udbff')(new Chart(app, 'c'));
    expect(synthErrorLines(app).filter((l) => l.includes('UnrepresentableYamlValue'))).toEqual([
      "[c/team-a] systemNamespacesReason=\"why\\udbff\": systemNamespacesReason holds a lone UTF-16 surrogate, which has no UTF-8 encoding: Kubernetes' YAML reader (go-yaml v2) refuses the file (or the character is replaced), so the cluster would not read it as written. Fix: remove the character, or write the whole surrogate pair (e.g. from String.fromCodePoint) (UnrepresentableYamlValue, OLMT-039)",
    ]);
  });

  test('GIVEN LimitRange defaults that are not quantities THEN the baseline refuses them', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'team-a', { namespaceName: 'team-a' });
    new TenantBaseline(chart, 'Baseline', { tenant, defaultRequests: { cpu: '0x10', memory: '128Mi' }, defaultLimits: { cpu: '1', memory: '1 Gi' } });
    expect(synthErrorLines(app).filter((l) => l.includes('InvalidQuantity'))).toEqual([
      "[c/Baseline] defaultRequests.cpu=\"0x10\": not a Kubernetes quantity. Fix: write a quantity such as '100m', '1' or '128Mi' (InvalidQuantity)",
      "[c/Baseline] defaultLimits.memory=\"1 Gi\": not a Kubernetes quantity. Fix: write a quantity such as '100m', '1' or '128Mi' (InvalidQuantity)",
    ]);
  });
});
