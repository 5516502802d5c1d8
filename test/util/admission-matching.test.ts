/**
 * The admission-policy matching the tests judge policies with (test/util/admission-matching.ts, used by
 * test/util/cel-admission.ts `admit`), checked against Kubernetes' own tables (issue 41): each `describe` is a test of
 * k8s.io/apiserver, its cases ported row by row with their names.
 */
import {
  AdmissionAttributes, EquivalentResources, GroupVersionKind, GroupVersionResource, isExemptAdmissionConfiguration, labelSelectorAsSelector,
  MatchResources, matches, NamedRule, operationMatches, groupMatches, resourceMatches, scopeMatches, versionMatches, withMatchResourcesDefaults,
} from './admission-matching';
import { admit } from './cel-admission';

const gvr = (group: string, version: string, resource: string): GroupVersionResource => ({ group, version, resource });
const gvk = (group: string, version: string, kind: string): GroupVersionKind => ({ group, version, kind });
const attrs = (kind: GroupVersionKind, namespace: string, name: string, resource: GroupVersionResource, subResource: string, operation: string,
  object: unknown = null, oldObject: unknown = null): AdmissionAttributes =>
  ({ kind, namespace, name, resource, subResource, operation, object, oldObject });
const ALL = { operations: ['*'], scope: '*' };

describe('policy/matching/matching_test.go TestMatcher', () => {
  // co-locate deployments in all API groups (the test's EquivalentResourceRegistryWithIdentity)
  const mapper = new EquivalentResources((_group, resource) => (resource === 'deployments' ? '/deployments' : ''))
    .register(gvr('extensions', 'v1beta1', 'deployments'), '', gvk('extensions', 'v1beta1', 'Deployment'))
    .register(gvr('apps', 'v1', 'deployments'), '', gvk('apps', 'v1', 'Deployment'))
    .register(gvr('apps', 'v1beta1', 'deployments'), '', gvk('apps', 'v1beta1', 'Deployment'))
    .register(gvr('apps', 'v1alpha1', 'deployments'), '', gvk('apps', 'v1alpha1', 'Deployment'))
    .register(gvr('extensions', 'v1beta1', 'deployments'), 'scale', gvk('extensions', 'v1beta1', 'Scale'))
    .register(gvr('apps', 'v1', 'deployments'), 'scale', gvk('autoscaling', 'v1', 'Scale'))
    .register(gvr('apps', 'v1beta1', 'deployments'), 'scale', gvk('apps', 'v1beta1', 'Scale'))
    .register(gvr('apps', 'v1alpha1', 'deployments'), 'scale', gvk('apps', 'v1alpha1', 'Scale'))
    // invalid kinds to trigger an error
    .register(gvr('example.com', 'v1', 'widgets'), '', gvk('', '', ''))
    .register(gvr('example.com', 'v2', 'widgets'), '', gvk('', '', ''));

  const rule = (apiGroups: string[], apiVersions: string[], resources: string[], extra: Partial<NamedRule> = {}): NamedRule =>
    ({ ...ALL, apiGroups, apiVersions, resources, ...extra });
  const selectors = { namespaceSelector: {}, objectSelector: {} };
  const deploymentCreate = attrs(gvk('apps', 'v1', 'Deployment'), 'ns', 'name', gvr('apps', 'v1', 'deployments'), '', 'CREATE');
  const scaleCreate = attrs(gvk('autoscaling', 'v1', 'Scale'), 'ns', 'name', gvr('apps', 'v1', 'deployments'), 'scale', 'CREATE');
  const scaleOfDeployment = attrs(gvk('autoscaling', 'v1', 'Scale'), 'ns', 'name', gvr('apps', 'v1', 'deployments'), '', 'CREATE');
  const extensionsScale = attrs(gvk('autoscaling', 'v1', 'Scale'), 'ns', 'name', gvr('extensions', 'v1beta1', 'deployments'), 'scale', 'CREATE');
  const extensionsDeployment = attrs(gvk('autoscaling', 'v1', 'Scale'), 'ns', 'name', gvr('extensions', 'v1beta1', 'deployments'), '', 'CREATE');
  const pod = { apiVersion: 'example.apiserver.k8s.io/v1', kind: 'Pod', metadata: {} };
  const podCreate = attrs(gvk('example.apiserver.k8s.io', 'v1', 'Pod'), 'ns', 'name', gvr('example.apiserver.k8s.io', 'v1', 'pods'), '', 'CREATE', pod);
  const badSelector = (key: string) => ({ matchExpressions: [{ key, operator: 'In', values: ['bad value'] }] });

  // [name, criteria, attributes, matches, resource (when not the request's own), kind, error]
  test.each<[string, MatchResources, AdmissionAttributes, boolean, GroupVersionResource?, GroupVersionKind?, string?]>([
    // (a nil objectSelector selects nothing: the API server stores `{}`, see withMatchResourcesDefaults)
    ['no rules (just write)', { namespaceSelector: {}, resourceRules: [] }, deploymentCreate, false],
    ['wildcard rule, match as requested', { ...selectors, resourceRules: [rule(['*'], ['*'], ['*'])] }, deploymentCreate, true, undefined, gvk('apps', 'v1', 'Deployment')],
    ['specific rules, prefer exact match', {
      ...selectors,
      resourceRules: [rule(['extensions'], ['v1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1'], ['deployments'])],
    }, deploymentCreate, true, undefined, gvk('apps', 'v1', 'Deployment')],
    ['specific rules, match miss', { ...selectors, resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])] },
      deploymentCreate, false],
    ['specific rules, exact match miss', {
      ...selectors, matchPolicy: 'Exact', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])],
    }, deploymentCreate, false],
    ['specific rules, equivalent match, prefer extensions', {
      ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])],
    }, deploymentCreate, true, gvr('extensions', 'v1beta1', 'deployments'), gvk('extensions', 'v1beta1', 'Deployment')],
    ['specific rules, equivalent match, prefer apps', {
      ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['apps'], ['v1beta1'], ['deployments']), rule(['extensions'], ['v1beta1'], ['deployments'])],
    }, deploymentCreate, true, gvr('apps', 'v1beta1', 'deployments'), gvk('apps', 'v1beta1', 'Deployment')],
    ['specific rules, subresource prefer exact match', {
      ...selectors,
      resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']), rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale']),
        rule(['apps'], ['v1'], ['deployments', 'deployments/scale'])],
    }, scaleCreate, true, undefined, gvk('autoscaling', 'v1', 'Scale')],
    ['specific rules, subresource match miss', {
      ...selectors, resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']), rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale'])],
    }, scaleCreate, false],
    ['specific rules, subresource exact match miss', {
      ...selectors,
      matchPolicy: 'Exact',
      resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']), rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale'])],
    }, scaleCreate, false],
    ['specific rules, subresource equivalent match, prefer extensions', {
      ...selectors,
      matchPolicy: 'Equivalent',
      resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']), rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale'])],
    }, scaleCreate, true, gvr('extensions', 'v1beta1', 'deployments'), gvk('extensions', 'v1beta1', 'Scale')],
    ['specific rules, subresource equivalent match, prefer apps', {
      ...selectors,
      matchPolicy: 'Equivalent',
      resourceRules: [rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale']), rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale'])],
    }, scaleCreate, true, gvr('apps', 'v1beta1', 'deployments'), gvk('apps', 'v1beta1', 'Scale')],
    ['specific rules, prefer exact match and name match', { ...selectors, resourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['name'] })] },
      scaleOfDeployment, true, undefined, gvk('autoscaling', 'v1', 'Scale')],
    ['specific rules, prefer exact match and name match miss', { ...selectors, resourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['wrong-name'] })] },
      scaleOfDeployment, false],
    ['specific rules, subresource equivalent match, prefer extensions and name match', {
      ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['apps'], ['v1'], ['deployments', 'deployments/scale'], { resourceNames: ['name'] })],
    }, extensionsScale, true, gvr('apps', 'v1', 'deployments'), gvk('autoscaling', 'v1', 'Scale')],
    ['specific rules, subresource equivalent match, prefer extensions and name match miss', {
      ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['apps'], ['v1'], ['deployments', 'deployments/scale'], { resourceNames: ['wrong-name'] })],
    }, extensionsScale, false],
    ['exclude resource match on miss', {
      ...selectors, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])],
    }, scaleOfDeployment, true, undefined, gvk('autoscaling', 'v1', 'Scale')],
    ['exclude resource miss on match', {
      ...selectors, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])],
    }, extensionsDeployment, false],
    ['exclude resource with name match', {
      ...selectors, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['name'] })],
    }, deploymentCreate, false],
    ['exclude resource with name miss', {
      ...selectors, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['other-name'] })],
    }, deploymentCreate, true, undefined, gvk('apps', 'v1', 'Deployment')],
    ['exclude equivalent resource match', {
      ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])],
    }, deploymentCreate, false],
    ['exclude equivalent resource with name miss', {
      ...selectors,
      matchPolicy: 'Equivalent',
      resourceRules: [rule(['*'], ['*'], ['*'])],
      excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'], { resourceNames: ['other-name'] })],
    }, deploymentCreate, true, undefined, gvk('apps', 'v1', 'Deployment')],
    ['treat empty ResourceRules as match', { ...selectors, excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])] }, scaleOfDeployment, true],
    ['treat non-empty ResourceRules as no match', { ...selectors, resourceRules: [{}] }, scaleOfDeployment, false],
    ['erroring namespace selector on otherwise non-matching rule doesn\'t error', {
      namespaceSelector: badSelector('key '), objectSelector: {}, resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['deployments'], operations: ['*'] }],
    }, podCreate, false],
    ['erroring namespace selector on otherwise matching rule errors', {
      namespaceSelector: badSelector('key'), objectSelector: {}, resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['pods'], operations: ['*'] }],
    }, podCreate, false, undefined, undefined, 'bad value'],
    ['erroring object selector on otherwise non-matching rule doesn\'t error', {
      namespaceSelector: {}, objectSelector: badSelector('key'), resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['deployments'], operations: ['*'] }],
    }, podCreate, false],
    ['erroring object selector on otherwise matching rule errors', {
      namespaceSelector: {}, objectSelector: badSelector('key'), resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['pods'], operations: ['*'] }],
    }, podCreate, false, undefined, undefined, 'bad value'],
  ])('%s', (...row) => {
    // (a rest parameter: a row shorter than the callback's parameters would get jest's `done` callback and never end)
    const [, criteria, a, expectMatches, expectResource, expectKind, expectError] = row;
    if (expectError !== undefined) {
      expect(() => matches(criteria, a, { equivalents: mapper })).toThrow(expectError);
      return;
    }
    const result = matches(criteria, a, { equivalents: mapper });
    expect(result.matches).toEqual(expectMatches);
    if (expectMatches) {
      // exact match by default: a test that expects an equivalent resource says so
      expect(result.resource).toEqual(expectResource ?? a.resource);
      if (expectKind) expect(result.kind).toEqual(expectKind);
    }
  });

  test('an equivalent resource without a kind is an error ("unable to convert")', () => {
    const widgets = new EquivalentResources()
      .register(gvr('example.com', 'v1', 'widgets'), '', gvk('', '', ''))
      .register(gvr('example.com', 'v2', 'widgets'), '', gvk('', '', ''));
    const a = attrs(gvk('example.com', 'v2', 'Widget'), 'ns', 'w', gvr('example.com', 'v2', 'widgets'), '', 'CREATE');
    expect(() => matches({ ...selectors, matchPolicy: 'Equivalent', resourceRules: [rule(['example.com'], ['v1'], ['widgets'])] }, a, { equivalents: widgets }))
      .toThrow('unable to convert to example.com/v1, Resource=widgets: unknown kind');
  });
});

describe('webhook/predicates/rules/rules_test.go', () => {
  const a = (group: string, version: string, resource: string, subresource: string, name: string, operation: string): AdmissionAttributes =>
    attrs(gvk(group, version, `k${resource}`), 'ns', name, gvr(group, version, resource), subresource, operation);
  const clusterScoped = (group: string, version: string, resource: string, subresource: string, name: string, operation: string):
  AdmissionAttributes =>
    attrs(gvk(group, version, `k${resource}`), '', name, gvr(group, version, resource), subresource, operation);
  type Table = { [name: string]: { rule: NamedRule; match: AdmissionAttributes[]; noMatch?: AdmissionAttributes[] } };
  const check = (table: Table, predicate: (r: NamedRule, x: AdmissionAttributes) => boolean) => {
    for (const [name, t] of Object.entries(table)) {
      expect([name, 'match', t.match.map((m) => predicate(t.rule, m))]).toEqual([name, 'match', t.match.map(() => true)]);
      expect([name, 'no match', (t.noMatch ?? []).map((m) => predicate(t.rule, m))]).toEqual([name, 'no match', (t.noMatch ?? []).map(() => false)]);
    }
  };

  test('TestGroup', () => check({
    wildcard: { rule: { apiGroups: ['*'] }, match: [a('g', 'v', 'r', '', 'name', 'CREATE')] },
    exact: {
      rule: { apiGroups: ['g1', 'g2'] },
      match: [a('g1', 'v', 'r', '', 'name', 'CREATE'), a('g2', 'v2', 'r3', '', 'name', 'CREATE')],
      noMatch: [a('g3', 'v', 'r', '', 'name', 'CREATE'), a('g4', 'v', 'r', '', 'name', 'CREATE')],
    },
  }, groupMatches));

  test('TestVersion', () => check({
    wildcard: { rule: { apiVersions: ['*'] }, match: [a('g', 'v', 'r', '', 'name', 'CREATE')] },
    exact: {
      rule: { apiVersions: ['v1', 'v2'] },
      match: [a('g1', 'v1', 'r', '', 'name', 'CREATE'), a('g2', 'v2', 'r', '', 'name', 'CREATE')],
      noMatch: [a('g1', 'v3', 'r', '', 'name', 'CREATE'), a('g2', 'v4', 'r', '', 'name', 'CREATE')],
    },
  }, versionMatches));

  test('TestOperation', () => {
    const op = (o: string) => a('g', 'v', 'r', '', 'name', o);
    check({
      wildcard: { rule: { operations: ['*'] }, match: [op('CREATE'), op('UPDATE'), op('DELETE'), op('CONNECT')] },
      create: { rule: { operations: ['CREATE'] }, match: [op('CREATE')], noMatch: [op('UPDATE'), op('DELETE'), op('CONNECT')] },
      update: { rule: { operations: ['UPDATE'] }, match: [op('UPDATE')], noMatch: [op('CREATE'), op('DELETE'), op('CONNECT')] },
      delete: { rule: { operations: ['DELETE'] }, match: [op('DELETE')], noMatch: [op('CREATE'), op('UPDATE'), op('CONNECT')] },
      connect: { rule: { operations: ['CONNECT'] }, match: [op('CONNECT')], noMatch: [op('CREATE'), op('UPDATE'), op('DELETE')] },
      multiple: { rule: { operations: ['UPDATE', 'DELETE'] }, match: [op('UPDATE'), op('DELETE')], noMatch: [op('CREATE'), op('CONNECT')] },
    }, operationMatches);
  });

  test('TestResource', () => check({
    'no subresources': {
      rule: { resources: ['*'] },
      match: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('2', 'v', 'r2', '', 'name', 'CREATE')],
      noMatch: [a('g', 'v', 'r', 'exec', 'name', 'CREATE'), a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
    },
    'r & subresources': {
      rule: { resources: ['r/*'] },
      match: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('g', 'v', 'r', 'exec', 'name', 'CREATE')],
      noMatch: [a('2', 'v', 'r2', '', 'name', 'CREATE'), a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
    },
    'r & subresources or r2': {
      rule: { resources: ['r/*', 'r2'] },
      match: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('g', 'v', 'r', 'exec', 'name', 'CREATE'), a('2', 'v', 'r2', '', 'name', 'CREATE')],
      noMatch: [a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
    },
    'proxy or exec': {
      rule: { resources: ['*/proxy', '*/exec'] },
      match: [a('g', 'v', 'r', 'exec', 'name', 'CREATE'), a('2', 'v', 'r2', 'proxy', 'name', 'CREATE'), a('2', 'v', 'r3', 'proxy', 'name', 'CREATE')],
      noMatch: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('2', 'v', 'r2', '', 'name', 'CREATE'), a('2', 'v', 'r4', 'scale', 'name', 'CREATE')],
    },
  }, resourceMatches));

  test('TestScope', () => {
    const ns = a;
    const cl = clusterScoped;
    check({
      'cluster scope': {
        rule: { resources: ['*'], scope: 'Cluster' },
        match: [cl('g', 'v', 'r', '', 'name', 'CREATE'), cl('g', 'v', 'r', 'exec', 'name', 'CREATE'), cl('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          cl('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'), ns('', 'v1', 'namespaces', '', 'ns', 'CREATE'), ns('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE')],
        noMatch: [ns('g', 'v', 'r', '', 'name', 'CREATE'), ns('g', 'v', 'r', 'exec', 'name', 'CREATE')],
      },
      'namespace scope': {
        rule: { resources: ['*'], scope: 'Namespaced' },
        match: [ns('g', 'v', 'r', '', 'name', 'CREATE'), ns('g', 'v', 'r', 'exec', 'name', 'CREATE')],
        noMatch: [cl('', 'v1', 'namespaces', '', 'ns', 'CREATE'), cl('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'), ns('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          ns('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'), cl('g', 'v', 'r', '', 'name', 'CREATE'), cl('g', 'v', 'r', 'exec', 'name', 'CREATE')],
      },
      'all scopes': {
        rule: { resources: ['*'], scope: '*' },
        match: [ns('g', 'v', 'r', '', 'name', 'CREATE'), ns('g', 'v', 'r', 'exec', 'name', 'CREATE'), cl('g', 'v', 'r', '', 'name', 'CREATE'),
          cl('g', 'v', 'r', 'exec', 'name', 'CREATE'), cl('', 'v1', 'namespaces', '', 'ns', 'CREATE'), cl('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
          ns('', 'v1', 'namespaces', '', 'ns', 'CREATE'), ns('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE')],
      },
    }, scopeMatches);
  });
});

describe('webhook/predicates/namespace/matcher_test.go', () => {
  const runlevel1 = { runlevel: '1' };
  const runlevel2 = { runlevel: '2' };
  const namespace2 = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '2', labels: runlevel2 } };
  // the namespace lister knows namespace 1 only
  const lister = (name: string) => (name === '1' ? runlevel1 : undefined);
  // GetNamespaceLabels, observed through a selector that holds for exactly the expected labels
  const labelsSeen = (a: AdmissionAttributes) => ['1', '2'].filter((level) =>
    matches({ namespaceSelector: { matchLabels: { runlevel: level } }, objectSelector: {} }, a, { namespaceLabels: lister }).matches);

  test.each<[string, AdmissionAttributes, string[]]>([
    ['request is for creating namespace, the labels should be from the object itself', attrs(gvk('', '', ''), '', '2', gvr('', '', 'namespaces'), '', 'CREATE', namespace2), ['2']],
    ['request is for updating namespace, the labels should be from the new object', attrs(gvk('', '', ''), '2', '2', gvr('', '', 'namespaces'), '', 'UPDATE', namespace2), ['2']],
    ['request is for deleting namespace, the labels should be from the cache', attrs(gvk('', '', ''), '1', '1', gvr('', '', 'namespaces'), '', 'DELETE', namespace2), ['1']],
    ['request is for namespace/finalizer', attrs(gvk('', '', ''), '1', 'mock-name', gvr('', '', 'namespaces'), 'finalizers', 'CREATE'), ['1']],
    ['request is for pod', attrs(gvk('', '', ''), '1', 'mock-name', gvr('', '', 'pods'), '', 'CREATE'), ['1']],
  ])('TestGetNamespaceLabels: %s', (_name, a, seen) => {
    expect(labelsSeen(a)).toEqual(seen);
  });

  test('TestNotExemptClusterScopedResource: cluster scoped resources (but not a namespace) are never exempted', () => {
    const node = attrs(gvk('', '', ''), '', 'mock-name', gvr('', 'v1', 'nodes'), '', 'CREATE');
    expect(matches({ namespaceSelector: { matchLabels: { never: 'matches' } }, objectSelector: {} }, node, {}).matches).toBe(true);
  });

  test('a namespace the cluster does not have (the lister and the API say not found): an error, not a decision', () => {
    const p = attrs(gvk('', 'v1', 'Pod'), 'gone', 'p', gvr('', 'v1', 'pods'), '', 'CREATE');
    expect(() => matches({ namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: {} }, p, { namespaceLabels: lister })).toThrow('namespaces "gone" not found');
  });
});

describe('webhook/predicates/object/matcher_test.go TestObjectSelector', () => {
  const nodeLevel1 = { kind: 'Node', metadata: { labels: { runlevel: '1' } } };
  const nodeLevel2 = { kind: 'Node', metadata: { labels: { runlevel: '2' } } };
  const runLevel1Excluder = { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['1'] }] };
  // a NodeProxyOptions: a runtime.Object without ObjectMeta
  const noObjectMeta = { kind: 'NodeProxyOptions', path: '/' };
  const at = (object: unknown, oldObject: unknown, operation: string) => attrs(gvk('', '', ''), '', 'name', gvr('', '', ''), '', operation, object, oldObject);
  test.each<[string, unknown, AdmissionAttributes, boolean]>([
    ['empty object selector matches everything', {}, at(null, null, 'CREATE'), true],
    ['matches new object', runLevel1Excluder, at(nodeLevel2, null, 'CREATE'), true],
    ['matches old object', runLevel1Excluder, at(null, nodeLevel2, 'DELETE'), true],
    ['does not match new object', runLevel1Excluder, at(nodeLevel1, null, 'CREATE'), false],
    ['does not match old object', runLevel1Excluder, at(null, nodeLevel1, 'CREATE'), false],
    ['does not match object that does not implement Object interface', runLevel1Excluder, at(noObjectMeta, null, 'CREATE'), false],
    ['empty selector matches everything, including object that does not implement Object interface', {}, at(noObjectMeta, null, 'CREATE'), true],
  ])('%s', (_name, objectSelector, a, expectCall) => {
    const criteria: MatchResources = { namespaceSelector: {}, objectSelector, resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }] };
    expect(matches(criteria, a).matches).toBe(expectCall);
  });
});

describe('LabelSelectorAsSelector (apimachinery meta/v1 helpers.go, labels.NewRequirement)', () => {
  test('nil selects nothing, {} everything', () => {
    expect([labelSelectorAsSelector(undefined).empty, labelSelectorAsSelector(undefined).matches({})]).toEqual([false, false]);
    expect([labelSelectorAsSelector(null).matches({ a: 'b' })]).toEqual([false]);
    expect([labelSelectorAsSelector({}).empty, labelSelectorAsSelector({}).matches({})]).toEqual([true, true]);
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).empty).toBe(true);
  });

  test.each<[string, unknown, string]>([
    ['a key with a space', { matchLabels: { 'key ': 'v' } }, 'key: Invalid value: "key "'],
    ['a key with two slashes', { matchExpressions: [{ key: 'a/b/c', operator: 'Exists' }] }, 'key: Invalid value: "a/b/c"'],
    ['an empty prefix', { matchExpressions: [{ key: '/b', operator: 'Exists' }] }, 'prefix part must be non-empty'],
    ['a value with a space', { matchLabels: { key: 'bad value' } }, 'Invalid value: "bad value"'],
    ['a value of 64 characters', { matchLabels: { key: 'v'.repeat(64) } }, 'must be no more than 63 characters'],
    ['In without values', { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }, "values set can't be empty"],
    ['Exists with values', { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['a'] }] }, 'values set must be empty'],
    ['an unknown operator', { matchExpressions: [{ key: 'k', operator: 'Equals', values: ['a'] }] }, '"Equals" is not a valid label selector operator'],
  ])('refused: %s', (_name, selector, message) => {
    expect(() => labelSelectorAsSelector(selector)).toThrow(message);
  });

  test('valid: a prefixed key, an empty value', () => {
    expect(labelSelectorAsSelector({ matchLabels: { 'example.com/k': '' } }).matches({ 'example.com/k': '' })).toBe(true);
  });
});

describe('what the API server stores (admissionregistration/v1 defaults.go) and the objects no policy applies to', () => {
  test('SetDefaults_MatchResources and SetDefaults_Rule', () => {
    expect(withMatchResourcesDefaults({ resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })).toEqual({
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    });
    // what is set stays
    expect(withMatchResourcesDefaults({ matchPolicy: 'Exact', objectSelector: { matchLabels: { a: 'b' } } }))
      .toEqual({ matchPolicy: 'Exact', namespaceSelector: {}, objectSelector: { matchLabels: { a: 'b' } } });
  });

  test('IsExemptAdmissionConfigurationResource: policies, bindings and webhook configurations', () => {
    const kinds = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
      'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'];
    for (const kind of kinds) expect([kind, isExemptAdmissionConfiguration(attrs(gvk('admissionregistration.k8s.io', 'v1', kind), '', 'x', gvr('admissionregistration.k8s.io', 'v1', 'x'), '', 'CREATE'))]).toEqual([kind, true]);
    expect(isExemptAdmissionConfiguration(attrs(gvk('admissionregistration.k8s.io', 'v1', 'Other'), '', 'x', gvr('admissionregistration.k8s.io', 'v1', 'others'), '', 'CREATE'))).toBe(false);
    expect(isExemptAdmissionConfiguration(attrs(gvk('example.com', 'v1', 'ValidatingAdmissionPolicy'), '', 'x', gvr('example.com', 'v1', 'x'), '', 'CREATE'))).toBe(false);
  });
});

describe('admit (test/util/cel-admission.ts): matchConstraints, the binding and matchConditions before the validations', () => {
  const policy = (extra: any = {}) => ({
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
    validations: [{ expression: "!has(object.data) || !('secret' in object.data)", message: 'no secret' }],
    ...extra,
  });
  const request = (operation: string, extra: any = {}) => ({ operation, namespace: 'team-a', name: 'c', resource: { group: '', version: 'v1', resource: 'configmaps' }, userInfo: { username: 'u' }, ...extra });
  const cm = (data: any, labels: any = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a', labels }, data });
  const bad = cm({ secret: 'x' });

  test('the operations, resources and subresources of the rules', () => {
    expect(admit(policy(), request('CREATE'), bad)).toEqual({ matched: true, denied: ['no secret'] });
    expect(admit(policy(), request('UPDATE'), bad, cm({}))).toEqual({ matched: true, denied: ['no secret'] });
    expect(admit(policy(), request('DELETE'), null, bad)).toEqual({ matched: false, denied: [] });
    expect(admit(policy(), request('CREATE', { resource: { group: '', version: 'v1', resource: 'secrets' } }), bad)).toEqual({ matched: false, denied: [] });
    expect(admit(policy(), request('UPDATE', { subResource: 'status' }), bad, cm({}))).toEqual({ matched: false, denied: [] });
  });

  test('the binding\'s matchResources narrow the match; namespaces have their kubernetes.io/metadata.name label unless told otherwise', () => {
    const binding = { matchResources: { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] } } };
    expect(admit(policy(), request('CREATE'), bad, null, { binding }).matched).toBe(true);
    expect(admit(policy(), request('CREATE', { namespace: 'team-b' }), bad, null, { binding }).matched).toBe(false);
    const byTier = { matchResources: { namespaceSelector: { matchLabels: { tier: 'tenant' } } } };
    expect(admit(policy(), request('CREATE'), bad, null, { binding: byTier }).matched).toBe(false);
    expect(admit(policy(), request('CREATE'), bad, null, { binding: byTier, namespaceLabels: { 'team-a': { tier: 'tenant' } } }).matched).toBe(true);
  });

  test('an object selector sees the new or the old object', () => {
    const p = policy({ matchConstraints: { ...policy().matchConstraints, objectSelector: { matchLabels: { managed: 'yes' } } } });
    expect(admit(p, request('CREATE'), bad).matched).toBe(false);
    expect(admit(p, request('CREATE'), cm({ secret: 'x' }, { managed: 'yes' })).matched).toBe(true);
    expect(admit(p, request('UPDATE'), bad, cm({}, { managed: 'yes' })).matched).toBe(true);
  });

  test('match conditions: any false means no match, even beside an error; an error with none false fails the test (the failure policy is no decision)', () => {
    const conditions = (...expressions: string[]) => policy({ matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })) });
    expect(admit(conditions('true', 'true'), request('CREATE'), bad)).toEqual({ matched: true, denied: ['no secret'] });
    expect(admit(conditions('object.missing.field == 1', 'false'), request('CREATE'), bad)).toEqual({ matched: false, denied: [] });
    expect(() => admit(conditions('object.missing.field == 1', 'true'), request('CREATE'), bad)).toThrow(/CEL evaluation error in "object.missing.field == 1"/);
    expect(() => admit(conditions("'not a bool'"), request('CREATE'), bad)).toThrow(/returned not a bool, not a bool/);
  });

  test('what it cannot decide throws: no resource in the request, no matchConstraints, a namespace selector on an unknown namespace\'s labels', () => {
    expect(() => admit(policy(), { operation: 'CREATE', userInfo: { username: 'u' } }, bad)).toThrow(/the request names no resource/);
    expect(() => admit({ ...policy(), matchConstraints: undefined }, request('CREATE'), bad)).toThrow(/no matchConstraints/);
  });

  test('the configuration of admission itself is exempt', () => {
    const everything = policy({ matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] }, validations: [{ expression: 'false', message: 'no' }] });
    const vap = {
      operation: 'DELETE',
      name: 'p',
      resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' },
      kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy' },
      userInfo: { username: 'u' },
    };
    expect(admit(everything, vap, null, { metadata: { name: 'p' } })).toEqual({ matched: false, denied: [] });
    expect(admit(everything, request('CREATE'), bad)).toEqual({ matched: true, denied: ['no'] });
  });
});
