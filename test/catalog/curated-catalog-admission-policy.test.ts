import { run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { Testing } from 'cdk8s';
import { appAndChart, FakeTenant, synthErrors } from './helpers';
import { CuratedCatalog, CuratedCatalogAdmissionPolicy, OlmServiceAccount } from '../../src/catalog';

/** JSON -> CEL input (objects become Maps, as the API server presents them to CEL). */
function toCel(v: any): any {
  if (Array.isArray(v)) return v.map(toCel);
  if (v && typeof v === 'object') return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return v;
}

function setup() {
  const { app, chart } = appAndChart();
  const catalog = new CuratedCatalog(chart, 'Curated', {
    image: 'reg/curated:v1',
    secrets: ['pull'],
    packages: [{ name: 'etcd', channels: [{ name: 'stable' }, { name: 'alpha' }] }, { name: 'cert-manager' }],
    tenants: [new FakeTenant(chart, 'A', 'team-a')],
  });
  const policy = new CuratedCatalogAdmissionPolicy(chart, 'Enforce', { catalog });
  catalog.serve(new FakeTenant(chart, 'B', 'team-b')); // served after the policy: rendered lazily
  const objs = Testing.synth(chart);
  return { app, policy, vap: objs.find((o) => o.kind === 'ValidatingAdmissionPolicy'), binding: objs.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding') };
}

/** Evaluates the policy as the API server does: match conditions, then variables, then each validation. */
function admit(spec: any, request: any, object: any, oldObject: any = null): { matched: boolean; denied: string[] } {
  const bindings = { request: toCel(request), object: toCel(object), oldObject: oldObject === null ? null : toCel(oldObject) };
  const opts = { funcs: strings };
  const matched = spec.matchConditions.every((c: any) => run(c.expression, bindings, opts) === true);
  if (!matched) return { matched, denied: [] };
  const variables = new Map<string, any>();
  for (const v of spec.variables) variables.set(v.name, run(v.expression, { ...bindings, variables }, opts));
  const denied: string[] = [];
  for (const val of spec.validations) {
    const ok = run(val.expression, { ...bindings, variables }, opts);
    if (ok !== true) denied.push(val.messageExpression ? String(run(val.messageExpression, { ...bindings, variables }, opts)) : val.message);
  }
  return { matched, denied };
}

const req = (kind: string, operation: string, username = 'alice') => ({ kind: { group: 'operators.coreos.com', version: 'v1alpha1', kind }, operation, userInfo: { username } });
const sub = (ns: string, spec: any) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 's', namespace: ns }, spec });
const cs = (ns: string, name: string, spec: any) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name, namespace: ns }, spec });
const CURATED_SPEC = { sourceType: 'grpc', image: 'reg/curated:v1', secrets: ['pull'], displayName: 'Curated Operators', grpcPodConfig: { securityContextConfig: 'restricted' } };

describe('CuratedCatalogAdmissionPolicy', () => {
  test('structure: matches Subscription/CatalogSource writes in the served namespaces, exempts OLM and spec-less updates', () => {
    const { vap, binding, app, policy } = setup();
    expect(policy.policyName).toEqual('curated-operators-curation');
    expect(binding).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'curated-operators-curation' },
      spec: { policyName: 'curated-operators-curation', validationActions: ['Deny'] },
    });
    expect(vap.apiVersion).toEqual('admissionregistration.k8s.io/v1');
    expect(vap.metadata).toEqual({ name: 'curated-operators-curation' });
    expect(vap.spec.failurePolicy).toEqual('Fail');
    expect(vap.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['subscriptions', 'catalogsources'] }],
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }] },
    });
    expect(vap.spec.matchConditions).toEqual([
      { name: 'not-olm', expression: `!(request.userInfo.username in ['${OlmServiceAccount.UPSTREAM}', '${OlmServiceAccount.OPENSHIFT}'])` },
      { name: 'spec-changed', expression: "request.operation != 'UPDATE' || object.spec != oldObject.spec" },
    ]);
    expect(vap.spec.variables).toEqual([{ name: 'packages', expression: "{'cert-manager': [], 'etcd': ['alpha', 'stable']}" }]);
    expect(vap.spec.validations.map((v: any) => v.reason)).toEqual(['Forbidden', 'Forbidden', 'Forbidden', 'Forbidden']);
    expect(synthErrors(app)).toEqual([]);
  });

  describe('evaluated with @bufbuild/cel', () => {
    const { vap } = setup();
    const spec = vap.spec;

    test.each([
      ['allowed package and channel', sub('team-a', { name: 'etcd', channel: 'stable', source: 'curated-operators', sourceNamespace: 'team-a' }), []],
      ['package that allows every channel, no channel', sub('team-b', { name: 'cert-manager', source: 'curated-operators', sourceNamespace: 'team-b' }), []],
      [
        'global catalog',
        sub('team-a', { name: 'etcd', channel: 'stable', source: 'community-operators', sourceNamespace: 'openshift-marketplace' }),
        ['Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not community-operators in openshift-marketplace'],
      ],
      [
        "another tenant's curated catalog",
        sub('team-a', { name: 'etcd', channel: 'stable', source: 'curated-operators', sourceNamespace: 'team-b' }),
        ['Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not curated-operators in team-b'],
      ],
      [
        'package outside the list',
        sub('team-a', { name: 'grafana-operator', channel: 'v5', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package grafana-operator is not in the curated catalog; allowed packages: cert-manager, etcd'],
      ],
      [
        'channel outside the list',
        sub('team-a', { name: 'etcd', channel: 'clusterwide-alpha', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package etcd must name one of its curated channels in spec.channel: alpha, stable'],
      ],
      [
        'no channel where channels are curated',
        sub('team-a', { name: 'etcd', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package etcd must name one of its curated channels in spec.channel: alpha, stable'],
      ],
    ])('Subscription CREATE: %s', (_name, object, denied) => {
      expect(admit(spec, req('Subscription', 'CREATE'), object)).toEqual({ matched: true, denied });
    });

    const CS_DENIED = ['only the curated CatalogSource curated-operators (as the platform defines it) may exist in this namespace'];
    test.each([
      ['the curated one (the GitOps tool applying it)', cs('team-a', 'curated-operators', CURATED_SPEC), []],
      ['another catalog', cs('team-a', 'my-catalog', { sourceType: 'grpc', image: 'quay.io/me/catalog:latest' }), CS_DENIED],
      ['the curated name pointing elsewhere', cs('team-a', 'curated-operators', { ...CURATED_SPEC, image: 'quay.io/me/catalog:latest' }), CS_DENIED],
      ['the curated name as an address', cs('team-a', 'curated-operators', { sourceType: 'grpc', address: 'evil:50051', secrets: ['pull'] }), CS_DENIED],
      ['a configmap catalog', cs('team-a', 'curated-operators', { sourceType: 'configmap', configMap: 'x', secrets: ['pull'] }), CS_DENIED],
    ])('CatalogSource CREATE: %s', (_name, object, denied) => {
      expect(admit(spec, req('CatalogSource', 'CREATE'), object)).toEqual({ matched: true, denied });
    });

    test("OLM's own updates pass: its service account is not checked", () => {
      const bad = sub('team-a', { name: 'grafana-operator', source: 'x', sourceNamespace: 'y' });
      expect(admit(spec, req('Subscription', 'UPDATE', OlmServiceAccount.UPSTREAM), bad, bad)).toEqual({ matched: false, denied: [] });
      expect(admit(spec, req('Subscription', 'UPDATE', OlmServiceAccount.OPENSHIFT), bad, bad)).toEqual({ matched: false, denied: [] });
    });

    test('CatalogSource updates: OLM and metadata-only writes pass, re-pointing the image is rejected', () => {
      const curated = cs('team-a', 'curated-operators', CURATED_SPEC);
      const labelled = { ...curated, metadata: { ...curated.metadata, labels: { 'olm.catalogSource': 'curated-operators' } } };
      expect(admit(spec, req('CatalogSource', 'UPDATE', OlmServiceAccount.OPENSHIFT), labelled, curated)).toEqual({ matched: false, denied: [] });
      expect(admit(spec, req('CatalogSource', 'UPDATE'), labelled, curated)).toEqual({ matched: false, denied: [] });
      const repointed = { ...curated, spec: { ...CURATED_SPEC, image: 'quay.io/me/catalog:latest' } };
      expect(admit(spec, req('CatalogSource', 'UPDATE'), repointed, curated)).toEqual({ matched: true, denied: CS_DENIED });
    });

    test('label/annotation-only updates pass for anyone (spec unchanged), spec changes are checked', () => {
      const old = sub('team-a', { name: 'grafana-operator', source: 'x', sourceNamespace: 'y' }); // predates the policy
      const relabelled = { ...old, metadata: { ...old.metadata, labels: { 'operators.coreos.com/grafana-operator.team-a': '' } } };
      expect(admit(spec, req('Subscription', 'UPDATE'), relabelled, old)).toEqual({ matched: false, denied: [] });
      const respec = { ...old, spec: { ...old.spec, channel: 'v5' } };
      expect(admit(spec, req('Subscription', 'UPDATE'), respec, old)).toEqual({
        matched: true,
        denied: [
          'Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not x in y',
          'package grafana-operator is not in the curated catalog; allowed packages: cert-manager, etcd',
        ],
      });
    });
  });

  test('a catalog that serves nothing is a synth error', () => {
    const { app, chart } = appAndChart();
    const catalog = new CuratedCatalog(chart, 'C', { image: 'i', packages: [{ name: 'x' }] });
    new CuratedCatalogAdmissionPolicy(chart, 'P', { catalog, policyName: 'Bad Name' });
    expect(synthErrors(app)).toEqual([
      expect.stringMatching(/^\[platform\/P\] policyName="Bad Name": .* \(InvalidName\)$/),
      '[platform/P] curated catalog platform/C serves no namespace, so the policy would match nothing. Fix: serve at least one tenant with the catalog (AdmissionPolicyMatchesNothing)',
    ]);
  });

  test('another curated catalog in a covered namespace is a synth error (its Subscriptions would be rejected)', () => {
    const { app, chart } = appAndChart();
    const t = new FakeTenant(chart, 'T', 'team-a');
    const one = new CuratedCatalog(chart, 'One', { image: 'i1', packages: [{ name: 'x' }], tenants: [t] });
    new CuratedCatalog(chart, 'Two', { image: 'i2', catalogName: 'two', packages: [{ name: 'y' }], tenants: [t] });
    new CuratedCatalogAdmissionPolicy(chart, 'P', { catalog: one });
    expect(synthErrors(app)).toEqual([
      '[platform/P] catalog: curated catalog platform/Two also serves team-a, and this policy would reject every Subscription to it there. Fix: serve each tenant namespace from one curated catalog when the admission policy is enabled (merge the lists) (AdmissionPolicyOverlap)',
    ]);
  });

  test('two policies with the same cluster-wide name are a synth error on each', () => {
    // GIVEN two catalogs that share a catalogName (fine: they serve different namespaces), each enforced
    const { app, chart } = appAndChart();
    const one = new CuratedCatalog(chart, 'One', { image: 'i1', packages: [{ name: 'x' }], tenants: [new FakeTenant(chart, 'A', 'team-a')] });
    const two = new CuratedCatalog(chart, 'Two', { image: 'i2', packages: [{ name: 'y' }], tenants: [new FakeTenant(chart, 'B', 'team-b')] });
    new CuratedCatalogAdmissionPolicy(chart, 'P1', { catalog: one });
    new CuratedCatalogAdmissionPolicy(chart, 'P2', { catalog: two });
    // THEN
    const fix = 'Fix: give each policy its own policyName (catalogs with the same catalogName need one) (DuplicateAdmissionPolicy)';
    expect(synthErrors(app)).toEqual([
      `[platform/P1] policyName="curated-operators-curation": another ValidatingAdmissionPolicy or binding in the App has this cluster-wide name (platform/P2/Binding, platform/P2/Policy). ${fix}`,
      `[platform/P2] policyName="curated-operators-curation": another ValidatingAdmissionPolicy or binding in the App has this cluster-wide name (platform/P1/Binding, platform/P1/Policy). ${fix}`,
    ]);
  });

  test('the allowed-package message is a literal (CEL map iteration order is not defined)', () => {
    const { vap } = setup();
    expect(vap.spec.validations[1].messageExpression).toEqual("'package ' + object.spec.name + ' is not in the curated catalog; allowed packages: ' + 'cert-manager, etcd'");
  });
});
