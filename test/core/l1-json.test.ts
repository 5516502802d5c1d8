import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import fc from 'fast-check';
import { k8sJsonModule, K8S_JSON_FILE, K8S_JSON_KINDS } from '../../scripts/k8s-json';
import { L1_JSON_HELPERS, L1_JSON_HELPERS_FILE, rewriteL1Json } from '../../scripts/l1-json-rewrite';
import { k8sConversions, L1Json } from '../../src/core/l1-json';
import { sourceDigest } from '../../src/core/source-digest';
import { K8S_JSON_SOURCE_SHA256, K8S_JSON_SOURCES, K8S_L1_JSON } from '../../src/imports/k8s-json';
import { l1DefinedEntries, l1WithGvk } from '../../src/imports/l1-json-helpers';
import { OperatorGroup, Subscription } from '../../src/imports/olm';
import { sourceFiles } from '../util/import-graph';

const ROOT = path.join(__dirname, '..', '..');

/** A value as its reader sees it: keys in order, own `__proto__` keys, `undefined` values and prototypes kept. */
function dump(v: unknown): unknown {
  if (v === undefined) return '<undefined>';
  if (Array.isArray(v)) return ['<array>', ...v.map(dump)];
  if (v === null || typeof v !== 'object') return v;
  const proto = Object.getPrototypeOf(v) === Object.prototype ? 'Object' : String(Object.getPrototypeOf(v)?.constructor?.name);
  return ['<object>', proto, ...Object.keys(v).map((k) => [k, dump((v as any)[k])])];
}

describe('rewriteL1Json (scripts/l1-json-rewrite.ts): generated conversions without an object spread per key', () => {
  const generated = [
    "import { ApiObject } from 'cdk8s';",
    'export function toJson_A(obj: A | undefined): Record<string, any> | undefined {',
    '  const result = {',
    "    'labels': ((obj.labels) === undefined) ? undefined : (Object.entries(obj.labels).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {})),",
    "    'limits': ((obj.limits) === undefined) ? undefined : (Object.entries(obj.limits).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1]?.value }), {})),",
    '  };',
    '  return Object.entries(result).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {});',
    '}',
    'export class A extends ApiObject {',
    '  public constructor(scope: Construct, id: string, props: AProps = {}) {',
    '    super(scope, id, {',
    '      ...A.GVK,',
    '      ...props,',
    '    });',
    '  }',
    '  public toJson(): any {',
    '    const resolved = super.toJson();',
    '    return {',
    '      ...A.GVK,',
    '      ...toJson_AProps(resolved),',
    '    };',
    '  }',
    '}',
  ].join('\n');

  test('each reduce and GVK spread is replaced, the helpers imported after the imports, and a second rewrite changes nothing', () => {
    const r = rewriteL1Json(generated);
    expect([r.definedEntries, r.withGvk]).toEqual([3, 2]);
    expect(r.source).toEqual([
      "import { ApiObject } from 'cdk8s';",
      "import { l1DefinedEntries, l1WithGvk } from './l1-json-helpers';",
      'export function toJson_A(obj: A | undefined): Record<string, any> | undefined {',
      '  const result = {',
      "    'labels': ((obj.labels) === undefined) ? undefined : (l1DefinedEntries(obj.labels)),",
      "    'limits': ((obj.limits) === undefined) ? undefined : (l1DefinedEntries(obj.limits, (v) => v?.value)),",
      '  };',
      '  return l1DefinedEntries(result);',
      '}',
      'export class A extends ApiObject {',
      '  public constructor(scope: Construct, id: string, props: AProps = {}) {',
      '    super(scope, id, l1WithGvk(A.GVK, props));',
      '  }',
      '  public toJson(): any {',
      '    const resolved = super.toJson();',
      '    return l1WithGvk(A.GVK, toJson_AProps(resolved));',
      '  }',
      '}',
    ].join('\n'));
    expect(rewriteL1Json(r.source)).toEqual({ source: r.source, definedEntries: 0, withGvk: 0 });
  });

  test('a spread of another form is refused (a new cdk8s version: extend the rewrite), not left in place', () => {
    expect(() => rewriteL1Json('const x = Object.entries(o).reduce((r, i) => ({ ...r, [i[0]]: i[1] }), {});'))
      .toThrow(/a spread of another form is left: .*\.\.\.r, \[i\[0\]\]/);
    expect(() => rewriteL1Json('const x = { ...A.GVK, ...props, extra: 1 };')).toThrow(/a spread of another form is left/);
    expect(() => rewriteL1Json('Object.entries(o).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[0] + i[1] }), {})'))
      .toThrow('l1-json-rewrite: a value expression that reads the key or the result: i[0] + i[1]');
  });

  // the helpers against the spreads they replace, on every kind of key (a spread makes `__proto__` an own key) and value
  const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'apiVersion', 'kind', 'metadata', '0', '10', '-1', ''), fc.string({ maxLength: 4 }));
  const quantityLike = fc.record({ value: fc.oneof(fc.integer(), fc.constant(undefined)) }, { noNullPrototype: true });
  const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 3 }), fc.integer(), quantityLike);
  const entries = fc.array(fc.tuple(key, value), { maxLength: 8 });
  const objectOf = (list: Array<[string, unknown]>): any => {
    const o: any = {};
    for (const [k, v] of list) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  };

  test('property: l1DefinedEntries(o, f) is Object.entries(o).reduce with `{ ...r, [i[0]]: f(i[1]) }`', () => {
    const seen = { protoKey: 0, mappedToUndefined: 0 };
    fc.assert(fc.property(entries, fc.boolean(), (list, mapped) => {
      const o = objectOf(list);
      const f = mapped ? (v: any) => v?.value : undefined;
      const spread = Object.entries(o).reduce((r: any, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: f ? f(i[1]) : i[1] }), {});
      const ours = l1DefinedEntries(o, f);
      if (Object.keys(ours).includes('__proto__')) seen.protoKey++;
      if (Object.values(ours).includes(undefined)) seen.mappedToUndefined++;
      expect(dump(ours)).toEqual(dump(spread));
    }), { numRuns: 1000 });
    expect(seen.protoKey).toBeGreaterThan(50);
    expect(seen.mappedToUndefined).toBeGreaterThan(50);
  });

  test('property: l1WithGvk(gvk, o) is `{ ...gvk, ...o }` (a key of o replaces the GVK value in its place; symbols copied)', () => {
    const gvk = { apiVersion: 'v1', kind: 'Role' };
    const sym = Symbol('s');
    fc.assert(fc.property(fc.oneof(entries.map(objectOf), fc.constant(undefined), fc.constant(null)), fc.boolean(), (o, withSymbol) => {
      if (withSymbol && o) o[sym] = 1;
      const ours = l1WithGvk(gvk, o);
      const spread = { ...gvk, ...o };
      expect(dump(ours)).toEqual(dump(spread));
      expect(Object.getOwnPropertySymbols(ours)).toEqual(Object.getOwnPropertySymbols(spread));
    }), { numRuns: 500 });
  });

  test(`${L1_JSON_HELPERS_FILE} is the rewrite's helpers module`, () => {
    expect(fs.readFileSync(path.join(ROOT, L1_JSON_HELPERS_FILE), 'utf8')).toEqual(L1_JSON_HELPERS);
  });

  test.each(['olm', 'olmv1', 'openshift'])('src/imports/%s.ts is rewritten (no spread per key or per object left; the helpers imported)', (name) => {
    const source = fs.readFileSync(path.join(ROOT, 'src', 'imports', `${name}.ts`), 'utf8');
    expect(source).toContain("import { l1DefinedEntries, l1WithGvk } from './l1-json-helpers';");
    expect(source).not.toMatch(/\.\.\.r, \[i\[0\]\]|\.\.\.\w+\.GVK/);
    expect(rewriteL1Json(source)).toEqual({ source, definedEntries: 0, withGvk: 0 });
  });
});

describe('src/imports/k8s-json.ts (scripts/k8s-json.ts)', () => {
  test('is what the script makes of the installed cdk8s-plus-28 (after an upgrade: npx projen k8s-json)', () => {
    expect(fs.readFileSync(path.join(ROOT, K8S_JSON_FILE), 'utf8')).toEqual(k8sJsonModule(ROOT));
  });

  test('is used only while the installed cdk8s-plus-28 holds the source text it was copied from (a peer dependency, ^)', () => {
    expect(sourceDigest(k8s, K8S_JSON_SOURCES)).toEqual(K8S_JSON_SOURCE_SHA256);
    expect([...k8sConversions(k8s, K8S_JSON_SOURCES, K8S_JSON_SOURCE_SHA256).keys()]).toEqual(K8S_L1_JSON.map(([cls]) => cls.prototype));
    // another version: one conversion of another text (a field added), or a class's toJson of another form
    const otherFunction = { ...k8s, toJson_PolicyRule: (obj: any) => ({ ...obj, added: true }) };
    class OtherRole extends k8s.KubeRole {
      public toJson(): any {
        return { other: true };
      }
    }
    const otherClass = { ...k8s, KubeRole: OtherRole };
    const missing = { ...k8s, toJson_ObjectMeta: undefined };
    for (const mod of [otherFunction, otherClass, missing]) expect(k8sConversions(mod, K8S_JSON_SOURCES, K8S_JSON_SOURCE_SHA256).size).toEqual(0);
    expect(sourceDigest(missing, K8S_JSON_SOURCES)).toBeUndefined();
    expect(K8S_JSON_SOURCES.slice(0, K8S_JSON_KINDS.length)).toEqual(K8S_JSON_KINDS);
    expect(K8S_JSON_SOURCES).toContain('toJson_PolicyRule');
  });

  test('covers every cdk8s-plus-28 L1 class the library creates (k8s.Kube* in src/)', () => {
    const used = new Set<string>();
    for (const file of sourceFiles()) for (const m of fs.readFileSync(file, 'utf8').matchAll(/new k8s\.(Kube\w+)\(/g)) used.add(m[1]);
    // CronJob (the catalog's pinned-install-plan approver, one per App at most) keeps cdk8s-plus-28's own toJson()
    expect([...used].filter((k) => !K8S_JSON_KINDS.includes(k)).sort()).toEqual(['KubeCronJob']);
    expect(K8S_L1_JSON.map(([cls]) => (cls as any).GVK.kind)).toEqual(K8S_JSON_KINDS.map((k) => k.replace(/^Kube/, '')));
  });
});

describe('L1Json.of: what toJson() returns', () => {
  const newChart = () => new Chart(new App(), 'c', { namespace: 'team-a', labels: { team: 'a' } });

  // values as users hand them to the L1 classes: plain JSON with odd keys, undefined and null anywhere
  const leaf = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(undefined), fc.constant(null));
  const oddKey = fc.oneof(fc.constantFrom('__proto__', 'name', 'namespace', 'value', 'a.b/c', '0'), fc.string({ maxLength: 3 }));
  const ownKeys = (l: Array<[string, unknown]>): any => {
    const o: any = {};
    for (const [k, v] of l) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  };
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('tree'), { maxLength: 3 }),
      fc.array(fc.tuple(oddKey, tie('tree')), { maxLength: 4 }).map((l) => ownKeys(l as Array<[string, unknown]>))),
  }));
  // (fc.dictionary makes objects without a prototype for some keys, which cdk8s refuses: "can't render")
  const stringMap = fc.array(fc.tuple(oddKey, fc.oneof(fc.string({ maxLength: 4 }), fc.constant(undefined))), { maxLength: 4 }).map(ownKeys);
  /** `fc.record` with ordinary objects (fast-check also makes objects without a prototype, which cdk8s refuses). */
  const rec = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys: Array<keyof T> = []) =>
    fc.record(model, { requiredKeys, noNullPrototype: true });
  const str = fc.string({ maxLength: 3 });
  const metadata = rec({ name: fc.constantFrom(undefined, 'x', 'team-a'), labels: stringMap, annotations: stringMap, finalizers: fc.array(str, { maxLength: 2 }) });
  const rule = rec({
    apiGroups: fc.array(fc.constantFrom('', 'apps', '*')),
    resources: fc.array(fc.constantFrom('pods', 'secrets', '*')),
    verbs: fc.array(fc.constantFrom('get', 'list', '*')),
    resourceNames: fc.array(str),
    nonResourceUrLs: fc.array(fc.constantFrom('/healthz', '*')),
    odd: tree,
  });
  const subject = rec({ kind: fc.constantFrom('ServiceAccount', 'User', 'Group'), name: str, namespace: fc.oneof(fc.constant(undefined), str), apiGroup: fc.constantFrom(undefined, 'rbac.authorization.k8s.io') }, ['kind', 'name']);
  const roleRef = (kinds: string[]) => rec({ apiGroup: fc.constant('rbac.authorization.k8s.io'), kind: fc.constantFrom(...kinds), name: str });
  const named = rec({ name: str });
  const quantity = fc.oneof(fc.integer(), str).map((v) => k8s.Quantity.fromString(String(v)));
  const quantities = fc.array(fc.tuple(oddKey, quantity), { maxLength: 3 }).map(ownKeys);
  const port = rec({ port: fc.integer({ min: 1, max: 9 }).map((n) => k8s.IntOrString.fromNumber(n)), protocol: fc.constant('TCP') });
  const propsOf: Record<string, fc.Arbitrary<any>> = {
    KubeNamespace: rec({ metadata, spec: rec({ finalizers: fc.array(str) }), odd: tree }),
    KubeServiceAccount: rec({ metadata, automountServiceAccountToken: fc.boolean(), secrets: fc.array(named), imagePullSecrets: fc.array(named) }),
    KubeSecret: rec({ metadata, type: fc.string({ maxLength: 5 }), data: stringMap, stringData: stringMap, immutable: fc.boolean() }),
    KubeRole: rec({ metadata, rules: fc.array(rule, { maxLength: 3 }) }),
    KubeRoleBinding: rec({ metadata, roleRef: roleRef(['Role', 'ClusterRole']), subjects: fc.array(subject, { maxLength: 2 }) }, ['roleRef']),
    KubeClusterRole: rec({
      metadata, rules: fc.array(rule, { maxLength: 3 }), aggregationRule: rec({ clusterRoleSelectors: fc.array(rec({ matchLabels: stringMap })) }),
    }),
    KubeClusterRoleBinding: rec({ metadata, roleRef: roleRef(['ClusterRole']), subjects: fc.array(subject, { maxLength: 2 }) }, ['roleRef']),
    KubeConfigMap: rec({ metadata, data: stringMap, binaryData: stringMap, immutable: fc.boolean() }),
    KubeResourceQuota: rec({ metadata, spec: rec({ hard: quantities, scopes: fc.array(str) }) }),
    KubeLimitRange: rec({ metadata, spec: rec({ limits: fc.array(rec({ type: fc.constantFrom('Container', 'Pod'), max: quantities }, ['type']), { maxLength: 2 }) }) }),
    KubeNetworkPolicy: rec({
      metadata,
      spec: rec({ podSelector: rec({ matchLabels: stringMap }), policyTypes: fc.array(fc.constantFrom('Ingress', 'Egress')), ingress: fc.array(rec({ ports: fc.array(port) }), { maxLength: 2 }) }, ['podSelector']),
    }),
  };
  const patch = fc.constantFrom(
    JsonPatch.add('/metadata/labels/added', 'yes'),
    JsonPatch.add('/metadata/annotations', { 'a/b': 'c' }),
    JsonPatch.add('/extra', { __proto__x: 1, nonResourceURLs: ['*'] }),
    JsonPatch.remove('/metadata/namespace'),
    JsonPatch.replace('/kind', 'Renamed'),
  );

  test.each(K8S_JSON_KINDS)('property: for k8s.%s, the same object (keys, order, values) or the same error as toJson()', (kind) => {
    const seen = { rendered: 0, failed: 0 };
    fc.assert(fc.property(propsOf[kind], fc.array(patch, { maxLength: 2 }), (props, patches) => {
      const chart = newChart();
      let o: any;
      try {
        o = new (k8s as any)[kind](chart, 'o', props);
      } catch {
        return; // the constructor refuses these props: nothing to render
      }
      o.addJsonPatch(...patches);
      let expected: unknown;
      try {
        expected = dump(o.toJson());
      } catch (e) {
        seen.failed++;
        expect(() => L1Json.of(o)).toThrow((e as Error).message);
        return;
      }
      seen.rendered++;
      expect(dump(L1Json.of(o))).toEqual(expected);
    }), { numRuns: 150 });
    expect(seen.rendered).toBeGreaterThan(75);
  });

  test('the objects the library writes come out as toJson() makes them (one tenant, every kind)', () => {
    const chart = newChart();
    const objects = [
      new k8s.KubeNamespace(chart, 'ns', { metadata: { name: 'team-a', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } }),
      new k8s.KubeRole(chart, 'role', { metadata: { name: 'installer' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['x'] }, { nonResourceUrLs: ['/healthz'], verbs: ['get'] }] }),
      new k8s.KubeRoleBinding(chart, 'rb', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installer' }, subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-a' }] }),
      new k8s.KubeSecret(chart, 'secret', { type: 'kubernetes.io/service-account-token', metadata: { annotations: { 'kubernetes.io/service-account.name': 'installer' } } }),
    ];
    expect(objects.map((o) => L1Json.of(o))).toEqual(objects.map((o) => o.toJson()));
    expect(L1Json.of(objects[1])).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { labels: { team: 'a' }, name: 'installer', namespace: 'team-a' },
      rules: [
        { apiGroups: [''], resourceNames: ['x'], resources: ['secrets'], verbs: ['get'] },
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ],
    });
  });

  test('a subclass, a toJson set on the object or on the class, and objects of other classes are rendered by their own toJson()', () => {
    const chart = newChart();
    class OwnRole extends k8s.KubeRole {
      public toJson(): any {
        return { own: true };
      }
    }
    class PlainSubclass extends k8s.KubeRole {}
    const subclass = new OwnRole(chart, 'a');
    const plainSubclass = new PlainSubclass(chart, 'b', { rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }] });
    const onObject = new k8s.KubeRole(chart, 'c');
    (onObject as any).toJson = () => ({ onObject: true });
    expect(L1Json.of(subclass)).toEqual({ own: true });
    expect(L1Json.of(plainSubclass)).toEqual(plainSubclass.toJson());
    expect(L1Json.of(onObject)).toEqual({ onObject: true });
    expect(L1Json.of({ toJson: () => ({ any: 1 }) })).toEqual({ any: 1 });

    const original = k8s.KubeRole.prototype.toJson;
    try {
      k8s.KubeRole.prototype.toJson = () => ({ patchedClass: true });
      expect(L1Json.of(new k8s.KubeRole(chart, 'd'))).toEqual({ patchedClass: true });
    } finally {
      k8s.KubeRole.prototype.toJson = original;
    }
  });

  test('the library\'s own L1 classes (rewritten) render as before: OperatorGroup and Subscription', () => {
    const chart = newChart();
    const og = new OperatorGroup(chart, 'og', { metadata: { name: 'og' }, spec: { serviceAccountName: 'installer', targetNamespaces: ['team-a'], upgradeStrategy: undefined } });
    const sub = new Subscription(chart, 'sub', { metadata: { name: 'etcd' }, spec: { name: 'etcd', source: 'curated', sourceNamespace: 'olm', channel: undefined, config: { nodeSelector: { disk: 'ssd' }, resources: { limits: { cpu: { value: '1' } as any } } } } });
    expect(dump(og.toJson())).toEqual(dump({
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { labels: { team: 'a' }, name: 'og', namespace: 'team-a' },
      spec: { serviceAccountName: 'installer', targetNamespaces: ['team-a'] },
    }));
    expect(sub.toJson()).toEqual({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { labels: { team: 'a' }, name: 'etcd', namespace: 'team-a' },
      spec: { config: { nodeSelector: { disk: 'ssd' }, resources: { limits: { cpu: '1' } } }, name: 'etcd', source: 'curated', sourceNamespace: 'olm' },
    });
  });
});
