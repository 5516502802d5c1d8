/**
 * Issue 27 item 3: YAML merge keys as go-yaml v2 resolves them (`decode.go` `d.mapping` / `d.merge`), the decoder
 * under sigs.k8s.io/yaml that kubectl, OLM v0 (operator-registry) and operator-controller read manifests with: the
 * pairs of a mapping are applied in order, a `<<` merge at its place, so a merged key OVERWRITES an explicit key
 * written before it; a sequence of maps is merged last to first (earlier maps win). The `yaml` library alone keeps
 * the explicit key. Every expectation is compared with kubectl's own decoding (`kubectl label --local -f`).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { IConstruct } from 'constructs';
import * as fc from 'fast-check';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CatalogSourceReference } from '../../src/catalog/catalog-source-reference';
import { decodeManifestStream } from '../../src/core/yaml-or-json';
import { OlmV1PermissionPreview } from '../../src/olmv1/olm-v1-permission-preview';
import { RegistryV1Render } from '../../src/olmv1/registry-v1-render';
import { ScopedOperatorTenant } from '../../src/tenant/scoped-operator-tenant';
import { describeWithKubectl, kubectlError, kubectlRead, normalized } from '../util/kubectl';

/** What the library decodes from a stream (objects), normalized as the kubectl helper normalizes. */
function decoded(text: string): any[] {
  return decodeManifestStream(text).map((d) => {
    if (d.error) throw new Error(d.error.message);
    return normalized(d.value);
  });
}

const cm = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${data}`;

const CASES: Array<[string, string]> = [
  ['merge after an explicit key overwrites it', '  sa: op\n  <<: {sa: team-a, other: x}\n  k: v\n'],
  ['an explicit key after a merge overwrites the merged one', '  <<: {sa: team-a}\n  sa: op\n'],
  ['a sequence: earlier maps win, and they overwrite the explicit key before it', '  a: "0"\n  <<: [{a: "1", b: "1"}, {a: "2", c: "2"}]\n'],
  ['a sequence, then an explicit key', '  <<: [{a: "1", b: "1"}, {a: "2", c: "2"}]\n  c: "3"\n'],
  ['two merge keys: the later one wins', '  <<: {a: "1"}\n  <<: {a: "2"}\n'],
  ['a quoted "<<" is an ordinary key', '  "<<": q\n  a: "1"\n'],
  ['block style merge', '  a: "0"\n  <<:\n    a: "1"\n    b: "2"\n'],
];

/** What go-yaml v2 decodes for each case (checked against kubectl below). */
const EXPECTED: Array<Record<string, string>> = [
  { sa: 'team-a', other: 'x', k: 'v' },
  { sa: 'op' },
  { a: '1', b: '1', c: '2' },
  { a: '1', b: '1', c: '3' },
  { a: '2' },
  { '<<': 'q', 'a': '1' },
  { a: '1', b: '2' },
];

describe('merge keys decode as go-yaml v2 decodes them', () => {
  test.each(CASES.map(([name, data], i) => [name, data, EXPECTED[i]]))('%s', (_name, data, expected) => {
    // go-yaml v2's order, written out (kubectl agrees: see the next block)
    expect(decoded(cm('m', data))[0].data).toEqual(expected);
  });

  test('an alias to an anchored map with its own merge, then a merge of it overwriting an explicit key', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nx: &x {a: "1", <<: {a: "2"}}\ndata:\n  b: "0"\n  a: "9"\n  <<: *x\n  "<<": q\n';
    expect(decoded(text)[0].data).toEqual({ 'a': '2', 'b': '0', '<<': 'q' });
  });

  test('merge values that are not maps: go-yaml v2\'s error', () => {
    for (const v of ['1', '~', '[1]', '[{a: "1"}, x]']) {
      expect(decodeManifestStream(cm('e', `  <<: ${v}\n`)).map((d) => d.error?.message))
        .toEqual(['malformed YAML: map merge requires map or sequence of maps as the value (go-yaml v2, as OLM and kubectl read it)']);
    }
  });

  test('merges that copy more pairs than the limit stop with a clear error (a merge bomb), under it they decode', () => {
    const base = 'l0: &l0 {' + Array.from({ length: 1000 }, (_, i) => `k${i}: ${i}`).join(', ') + '}\n';
    const merge = (n: number) => `${base}l1:\n  <<: [${Array.from({ length: n }, () => '*l0').join(', ')}]\n`;
    expect(decodeManifestStream(merge(101)).map((d) => d.error?.message)).toEqual(['YAML merge keys copy too much data (over 100000 merged pairs: a YAML merge bomb?)']);
    expect(Object.keys((decodeManifestStream(merge(100))[0].value as any).l1)).toHaveLength(1000);
  });
});

describeWithKubectl('merge keys: the library and kubectl read the same objects', () => {
  test('every case of the table, and kubectl\'s error for a merge of a scalar', () => {
    const text = CASES.map(([, data], i) => cm(`case-${i}`, data)).join('---\n');
    expect(decoded(text)).toEqual(kubectlRead(text));
    expect(kubectlError(cm('e', '  <<: 1\n'))).toContain('map merge requires map or sequence of maps as the value');
    // an alias to a sequence of maps is not merged by go-yaml v2 (d.merge: an alias must name a map)
    const aliasToSeq = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\nx: &s [{a: "1"}]\ndata:\n  <<: *s\n';
    expect(kubectlError(aliasToSeq)).toContain('map merge requires map or sequence of maps as the value');
    expect(decodeManifestStream(aliasToSeq).map((d) => d.error?.message)).toEqual(['malformed YAML: map merge requires map or sequence of maps as the value (go-yaml v2, as OLM and kubectl read it)']);
    // a sequence of aliases to maps is
    const seqOfAliases = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\nx: &a {a: "1"}\ny: &b {a: "2", b: "2"}\ndata:\n  a: "0"\n  <<: [*a, *b]\n';
    expect(decoded(seqOfAliases)).toEqual(kubectlRead(seqOfAliases));
  });

  test('generated mappings with merge keys in any position (fast-check, one kubectl call)', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd');
    const val = fc.constantFrom('"1"', '"2"', '"3"', 'x', 'y');
    const flowMap = fc.dictionary(key, val, { minKeys: 1, maxKeys: 3 }).map((m) => `{${Object.entries(m).map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
    const entry = fc.oneof(
      fc.tuple(key, val).map(([k, v]) => `  ${k}: ${v}`),
      flowMap.map((m) => `  <<: ${m}`),
      fc.array(flowMap, { minLength: 1, maxLength: 3 }).map((ms) => `  <<: [${ms.join(', ')}]`),
    );
    const data = fc.array(entry, { minLength: 1, maxLength: 6 }).map((es) => `${es.join('\n')}\n`);
    const samples = fc.sample(data, { numRuns: 150, seed: 27 });
    const text = samples.map((d, i) => cm(`gen-${i}`, d)).join('---\n');
    expect(decoded(text)).toEqual(kubectlRead(text));
  });
});

describe('the attacks of the issue: a merge that overrides a field is read as OLM reads it', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'merge-keys-'));
    fs.mkdirSync(path.join(dir, 'manifests'));
    fs.mkdirSync(path.join(dir, 'metadata'));
    fs.writeFileSync(path.join(dir, 'metadata', 'annotations.yaml'), 'annotations:\n  operators.operatorframework.io.bundle.package.v1: demo\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const csv = (podSpec: string, clusterRules: string) => `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
spec:
  version: 1.0.0
  installModes:
  - type: OwnNamespace
    supported: true
  - type: AllNamespaces
    supported: true
  install:
    strategy: deployment
    spec:
      deployments:
      - name: demo
        spec:
          selector:
            matchLabels: {app: demo}
          template:
            metadata:
              labels: {app: demo}
            spec:
${podSpec}
      clusterPermissions:
      - serviceAccountName: demo
${clusterRules}
`;

  test('v0: serviceAccountName: op, then <<: {serviceAccountName: team-a}: the operator runs as the installer, OLMT-028 fires', () => {
    fs.writeFileSync(path.join(dir, 'manifests', 'csv.yaml'), csv(
      '              serviceAccountName: demo\n              <<: {serviceAccountName: team-a}',
      '        rules:\n        - {apiGroups: [""], resources: [configmaps], verbs: [get]}'));
    const bundle = OperatorBundle.fromDirectory(dir);
    expect(bundle.deployments.map((d) => d.serviceAccountName)).toEqual(['team-a']);
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'test' });
    t.subscribe({ packageName: 'demo', channel: 'stable', catalog: CatalogSourceReference.fromName('c', 'olm'), bundle });
    const errors = [app as IConstruct, ...app.node.findAll().slice(1)].flatMap((c) => c.node.validate());
    expect(errors.filter((e) => e.includes('OLMT-028'))).toHaveLength(1);
    expect(errors.find((e) => e.includes('OLMT-028'))).toContain("operator demo.v1.0.0 runs as ServiceAccount 'team-a' in namespace 'team-a'");
  });

  test('v1: rules: [configmaps get], then <<: {rules: [* on *]}: the preview sees * on * (OLMT-026), not the first rules', () => {
    fs.writeFileSync(path.join(dir, 'manifests', 'csv.yaml'), csv(
      '              serviceAccountName: demo',
      '        rules:\n        - {apiGroups: [""], resources: [configmaps], verbs: [get]}\n        <<: {rules: [{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}]}'));
    const bundle = OperatorBundle.fromDirectory(dir);
    expect(bundle.clusterPermissions.map((p) => p.rules.map((r) => [r.apiGroups, r.resources, r.verbs]))).toEqual([[[['*'], ['*'], ['*']]]]);
    const preview = OlmV1PermissionPreview.of(RegistryV1Render.forExtension(bundle, { installNamespace: 'team-a' }));
    expect(preview.findings.filter((f) => f.code === 'TenantIdentityUnbounded').map((f) => f.subject)).toEqual(['ServiceAccount team-a/demo']);
  });
});
