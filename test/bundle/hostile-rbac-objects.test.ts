// Hostile RBAC objects in a bundle's manifests (issue 23 item 8): refused when the bundle is read, naming the bundle's
// file and the field, as the CSV's own rules are, so neither the v0 install model nor the OLM v1 render (both read
// OperatorBundle) meets them. The API server decodes these fields into typed structs (k8s.io/api/rbac/v1) and
// validates the selectors (ValidateLabelSelector): such a manifest never becomes an object on a cluster.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle';

const ETCD = path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4');

/** etcd 0.9.4 with one more manifest `extra.yaml` (written to a temp dir). */
function withManifest(yaml: string): () => OperatorBundle {
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-rbac-'));
    try {
      fs.cpSync(ETCD, dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'manifests', 'extra.yaml'), yaml);
      return OperatorBundle.fromDirectory(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
const error = (load: () => unknown): string => {
  try {
    load();
  } catch (e) {
    expect((e as Error).constructor).toBe(Error);
    return (e as Error).message.replace(/^OperatorBundle: .*?\/manifests\/extra\.yaml: /, 'OperatorBundle: <dir>/manifests/extra.yaml: ');
  }
  throw new Error('expected a load error');
};

describe('bundle RBAC objects are checked when the bundle is read', () => {
  test.each([
    ['aggregationRule.clusterRoleSelectors: "x"', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: x}\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule.clusterRoleSelectors' of the ClusterRole: must be a list, got \"x\""],
    ['aggregationRule: 1', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: 1\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule' of the ClusterRole: must be an object, got 1"],
    ['a selector that is no object', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [x]}\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule.clusterRoleSelectors[0]' of the ClusterRole: must be a label selector object ({ matchLabels, matchExpressions }), got \"x\""],
    ['matchExpressions with an unknown operator', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{matchExpressions: [{key: a, operator: Gt, values: ["1"]}]}]}\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule.clusterRoleSelectors[0]' of the ClusterRole: matchExpressions[0].operator must be In, NotIn, Exists or DoesNotExist, got \"Gt\""],
    ['In without values', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{matchExpressions: [{key: a, operator: In}]}]}\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule.clusterRoleSelectors[0]' of the ClusterRole: matchExpressions[0].values must be non-empty for operator In"],
    ['matchLabels with a number', 'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{matchLabels: {a: 1}}]}\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'aggregationRule.clusterRoleSelectors[0]' of the ClusterRole: matchLabels.a must be a string, got 1"],
    ['rules: [null]', 'kind: ClusterRole\nmetadata: {name: r}\nrules: [null]\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'rules[0]' of the ClusterRole: PolicyRule must be an object, got null"],
    ['rules: x in a Role', 'kind: Role\nmetadata: {name: r}\nrules: x\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'rules' of the Role: must be a list, got \"x\""],
    ['a rule with verbs: get', 'kind: Role\nmetadata: {name: r}\nrules: [{verbs: get}]\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'rules[0]' of the Role: PolicyRule field 'verbs' must be a list of strings, got \"get\""],
    ['roleRef: x', 'kind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: x\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'roleRef' of the ClusterRoleBinding: must be an object with string kind and name (the role it binds), got \"x\""],
    ['subjects: [null]', 'kind: RoleBinding\nmetadata: {name: b}\nroleRef: {kind: Role, name: r}\nsubjects: [null]\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'subjects[0]' of the RoleBinding: must be an object with string kind and name, got null"],
    ['a subject namespace that is a list', 'kind: RoleBinding\nmetadata: {name: b}\nroleRef: {kind: Role, name: r}\nsubjects: [{kind: ServiceAccount, name: a, namespace: [x]}]\n',
      "OperatorBundle: <dir>/manifests/extra.yaml: field 'subjects[0].namespace' of the RoleBinding: must be a string, got [\"x\"]"],
  ])('%s: a load error naming the file and the field', (_name, yaml, message) => {
    expect(error(withManifest(yaml))).toEqual(message);
  });

  test('well-formed objects load: {} selectors, matchExpressions, empty rules, bindings without subjects', () => {
    const bundle = withManifest([
      'kind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{}, {matchExpressions: [{key: a, operator: Exists}]}]}\nrules: []\n',
    ].join(''))();
    expect(bundle.objects.filter((o) => o.kind === 'ClusterRole').map((o) => o.name)).toEqual(['agg']);
    expect(withManifest('kind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: agg}\n')().objects.map((o) => o.kind)).toContain('ClusterRoleBinding');
  });

  test('every real bundle of the fixtures still loads', () => {
    const root = path.join(__dirname, '..', 'fixtures', 'bundles');
    const loaded = fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory())
      .flatMap((n) => fs.readdirSync(path.join(root, n)).map((v) => OperatorBundle.fromDirectory(path.join(root, n, v)).name));
    expect(loaded).toHaveLength(12);
  });
});
