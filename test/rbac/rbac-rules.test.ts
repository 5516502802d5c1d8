import fc from 'fast-check';
import { seal } from '../../src/core/content-cache';
import { PolicyRule, RbacRules, ResourceRequest } from '../../src/rbac';

// Builders mirroring the Go tests' struct literals.
const r = (apiGroups: string[], verbs: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  (resourceNames === undefined ? { apiGroups, verbs, resources } : { apiGroups, verbs, resources, resourceNames });
const u = (nonResourceUrls: string[], verbs: string[]): PolicyRule => ({ nonResourceUrls, verbs });

/**
 * Port of k8s.io/component-helpers/auth/rbac/validation/policy_comparator_test.go (case names kept).
 * Upstream compares the uncovered rules ignoring order; we also pin our (breakdown) order.
 */
describe('RbacRules.covers: upstream policy_comparator_test.go', () => {
  const cases: [string, PolicyRule[], PolicyRule[], boolean, PolicyRule[]][] = [
    ['TestCoversExactMatch',
      [r(['v1'], ['get'], ['builds'])],
      [r(['v1'], ['get'], ['builds'])], true, []],
    ['TestCoversSubresourceWildcard',
      [r(['v1'], ['get'], ['*/scale'])],
      [r(['v1'], ['get'], ['foo/scale'])], true, []],
    ['TestCoversMultipleRulesCoveringSingleRule',
      [r(['v1'], ['delete'], ['deployments']), r(['v1'], ['delete'], ['builds']), r(['v1'], ['update'], ['builds', 'deployments'])],
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])], true, []],
    ['TestCoversMultipleAPIGroupsCoveringSingleRule',
      [
        r(['group1'], ['delete'], ['deployments']), r(['group1'], ['delete'], ['builds']), r(['group1'], ['update'], ['builds', 'deployments']),
        r(['group2'], ['delete'], ['deployments']), r(['group2'], ['delete'], ['builds']), r(['group2'], ['update'], ['builds', 'deployments']),
      ],
      [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])], true, []],
    ['TestCoversSingleAPIGroupsCoveringMultiple',
      [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
      [
        r(['group1'], ['delete'], ['deployments']), r(['group1'], ['delete'], ['builds']), r(['group1'], ['update'], ['builds', 'deployments']),
        r(['group2'], ['delete'], ['deployments']), r(['group2'], ['delete'], ['builds']), r(['group2'], ['update'], ['builds', 'deployments']),
      ], true, []],
    ['TestCoversMultipleRulesMissingSingleVerbResourceCombination',
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])], false,
      [r(['v1'], ['update'], ['pods'])]],
    ['TestCoversAPIGroupStarCoveringMultiple',
      [r(['*'], ['get'], ['roles'])],
      [r(['group1', 'group2'], ['get'], ['roles'])], true, []],
    ['TestCoversEnumerationNotCoveringAPIGroupStar',
      [r(['dummy-group'], ['get'], ['roles'])],
      [r(['*'], ['get'], ['roles'])], false,
      [r(['*'], ['get'], ['roles'])]],
    ['TestCoversAPIGroupStarCoveringStar',
      [r(['*'], ['get'], ['roles'])],
      [r(['*'], ['get'], ['roles'])], true, []],
    ['TestCoversVerbStarCoveringMultiple',
      [r(['v1'], ['*'], ['roles'])],
      [r(['v1'], ['watch', 'list'], ['roles'])], true, []],
    ['TestCoversEnumerationNotCoveringVerbStar',
      [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
      [r(['v1'], ['*'], ['roles'])], false,
      [r(['v1'], ['*'], ['roles'])]],
    ['TestCoversVerbStarCoveringStar',
      [r(['v1'], ['*'], ['roles'])],
      [r(['v1'], ['*'], ['roles'])], true, []],
    ['TestCoversResourceStarCoveringMultiple',
      [r(['v1'], ['get'], ['*'])],
      [r(['v1'], ['get'], ['resourcegroup:deployments'])], true, []],
    ['TestCoversEnumerationNotCoveringResourceStar',
      [r(['v1'], ['get'], ['roles', 'resourcegroup:deployments'])],
      [r(['v1'], ['get'], ['*'])], false,
      [r(['v1'], ['get'], ['*'])]],
    ['TestCoversResourceStarCoveringStar',
      [r(['v1'], ['get'], ['*'])],
      [r(['v1'], ['get'], ['*'])], true, []],
    ['TestCoversResourceNameEmptyCoveringMultiple',
      [r(['v1'], ['get'], ['pods'], [])],
      [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])], true, []],
    ['TestCoversEnumerationNotCoveringResourceNameEmpty',
      [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])],
      [r(['v1'], ['get'], ['pods'], [])], false,
      [r(['v1'], ['get'], ['pods'])]],
    ['TestCoversNonResourceURLs',
      [u(['/apis'], ['*'])],
      [u(['/apis'], ['*'])], true, []],
    ['TestCoversNonResourceURLsStar',
      [u(['*'], ['*'])],
      [u(['/apis', '/apis/v1', '/'], ['*'])], true, []],
    ['TestCoversNonResourceURLsStarAfterPrefixDoesntCover',
      [u(['/apis/*'], ['*'])],
      [u(['/apis', '/apis/v1'], ['get'])], false,
      [u(['/apis'], ['get'])]],
    ['TestCoversNonResourceURLsStarAfterPrefix',
      [u(['/apis/*'], ['*'])],
      [u(['/apis/v1/foo', '/apis/v1'], ['get'])], true, []],
    ['TestCoversNonResourceURLsWithOtherFields',
      [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceUrls: ['/apis'] }],
      [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceUrls: ['/apis'] }], true, []],
    ['TestCoversNonResourceURLsWithOtherFieldsFailure',
      [r(['v1'], ['get'], ['builds'])],
      [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceUrls: ['/apis'] }], false,
      [u(['/apis'], ['get'])]],
  ];
  test.each(cases)('%s', (_name, owner, requested, covered, missing) => {
    // WHEN
    const result = RbacRules.covers(owner, requested);
    // THEN
    expect(result).toEqual({ covered, missing });
  });

  // TestNonResourceURLCovers: nonResourceURLCovers(owner, requested), through covers() on single URLs.
  const urlCases: [string, string, boolean][] = [
    ['*', '', true],
    ['*', '/', true],
    ['*', '/api', true],
    ['/*', '', false],
    ['/*', '/', true],
    ['/*', '/foo', true],
    ['/api', '/api', true],
    ['/apis', '/api', false],
    ['/api/v1', '/api', false],
    ['/api/v1', '/api/v1', true],
    ['/api/*', '/api/v1', true],
    ['/api/*', '/api', false],
    ['/api/*/*', '/api/v1', false],
    ['/*/v1/*', '/api/v1', false],
  ];
  test.each(urlCases)('TestNonResourceURLCovers(%j, %j) = %s', (owner, requested, want) => {
    expect(RbacRules.covers([u([owner], ['get'])], [u([requested], ['get'])]).covered).toBe(want);
  });
});

describe('RbacRules.covers: edge cases the issue calls out', () => {
  test.each([
    ['owner */scale does not cover a requested */status', [r(['apps'], ['get'], ['*/scale'])], [r(['apps'], ['get'], ['deployments/status'])], false],
    ['owner pods/* is a literal, not a wildcard', [r([''], ['get'], ['pods/*'])], [r([''], ['get'], ['pods/log'])], false],
    ['owner pods/* covers the literal pods/*', [r([''], ['get'], ['pods/*'])], [r([''], ['get'], ['pods/*'])], true],
    ['owner */* covers requested pods/*', [r([''], ['get'], ['*/*'])], [r([''], ['get'], ['pods/*'])], true],
    ['owner pods does not cover pods/log', [r([''], ['get'], ['pods'])], [r([''], ['get'], ['pods/log'])], false],
    ['owner */scale covers a requested */scale', [r(['apps'], ['get'], ['*/scale'])], [r(['apps'], ['get'], ['*/scale'])], true],
    ['resources are case-sensitive', [r([''], ['get'], ['pods'])], [r([''], ['get'], ['Pods'])], false],
    ['verbs are case-sensitive', [r([''], ['get'], ['pods'])], [r([''], ['GET'], ['pods'])], false],
    ['owner resourceNames restrict: unnamed request not covered', [r([''], ['get'], ['secrets'], ['a'])], [r([''], ['get'], ['secrets'])], false],
    ['owner resourceNames restrict: other name not covered', [r([''], ['get'], ['secrets'], ['a'])], [r([''], ['get'], ['secrets'], ['b'])], false],
    ['owner resourceNames cover the same name', [r([''], ['get'], ['secrets'], ['a', 'b'])], [r([''], ['get'], ['secrets'], ['b'])], true],
    ['empty requested list is covered by nothing', [], [], true],
    ['requested rule without groups has no atoms', [], [{ resources: ['pods'], verbs: ['get'] }], true],
    ['owner rule without verbs covers nothing', [r([''], [], ['pods'])], [r([''], ['get'], ['pods'])], false],
    ['core group "" is not group "v1"', [r([''], ['get'], ['pods'])], [r(['v1'], ['get'], ['pods'])], false],
    ['owner with resourceNames never covers a URL', [{ nonResourceUrls: ['/healthz'], resourceNames: ['x'], verbs: ['get'] }], [u(['/healthz'], ['get'])], false],
    ['URL prefix with several trailing stars', [u(['/api**'], ['get'])], [u(['/apis'], ['get'])], true],
  ])('%s', (_name, owner, requested, covered) => {
    expect(RbacRules.covers(owner as PolicyRule[], requested as PolicyRule[]).covered).toBe(covered);
  });

  test('missing atoms are deduplicated, in breakdown order', () => {
    // GIVEN two requested rules overlapping on one atom
    const requested = [r(['apps'], ['get', 'list'], ['deployments', 'replicasets']), r(['apps'], ['get'], ['deployments'], ['web'])];
    // WHEN
    const result = RbacRules.covers([r(['apps'], ['list'], ['deployments'])], [...requested, requested[0]]);
    // THEN
    expect(result).toEqual({
      covered: false,
      missing: [
        r(['apps'], ['get'], ['deployments']),
        r(['apps'], ['get'], ['replicasets']),
        r(['apps'], ['list'], ['replicasets']),
        r(['apps'], ['get'], ['deployments'], ['web']),
      ],
    });
  });
});

/** Port of plugin/pkg/auth/authorizer/rbac/rbac_test.go TestRuleMatches (case names kept). */
describe('RbacRules.allows: upstream rbac_test.go TestRuleMatches', () => {
  const res = (verb: string, apiGroup: string, resource: string, subresource?: string): ResourceRequest =>
    (subresource === undefined ? { verb, apiGroup, resource } : { verb, apiGroup, resource, subresource });
  const url = (verb: string, nonResourcePath: string): ResourceRequest => ({ verb, nonResourcePath });
  const cases: [string, PolicyRule, [ResourceRequest, boolean][]][] = [
    ['star verb, exact match other', r(['group1'], ['*'], ['resource1']), [
      [res('verb1', 'group1', 'resource1'), true], [res('verb1', 'group2', 'resource1'), false],
      [res('verb1', 'group1', 'resource2'), false], [res('verb1', 'group2', 'resource2'), false],
      [res('verb2', 'group1', 'resource1'), true], [res('verb2', 'group2', 'resource1'), false],
      [res('verb2', 'group1', 'resource2'), false], [res('verb2', 'group2', 'resource2'), false],
    ]],
    ['star group, exact match other', r(['*'], ['verb1'], ['resource1']), [
      [res('verb1', 'group1', 'resource1'), true], [res('verb1', 'group2', 'resource1'), true],
      [res('verb1', 'group1', 'resource2'), false], [res('verb1', 'group2', 'resource2'), false],
      [res('verb2', 'group1', 'resource1'), false], [res('verb2', 'group2', 'resource1'), false],
      [res('verb2', 'group1', 'resource2'), false], [res('verb2', 'group2', 'resource2'), false],
    ]],
    ['star resource, exact match other', r(['group1'], ['verb1'], ['*']), [
      [res('verb1', 'group1', 'resource1'), true], [res('verb1', 'group2', 'resource1'), false],
      [res('verb1', 'group1', 'resource2'), true], [res('verb1', 'group2', 'resource2'), false],
      [res('verb2', 'group1', 'resource1'), false], [res('verb2', 'group2', 'resource1'), false],
      [res('verb2', 'group1', 'resource2'), false], [res('verb2', 'group2', 'resource2'), false],
    ]],
    ['tuple expansion', r(['group1', 'group2'], ['verb1', 'verb2'], ['resource1', 'resource2']), [
      [res('verb1', 'group1', 'resource1'), true], [res('verb1', 'group2', 'resource1'), true],
      [res('verb1', 'group1', 'resource2'), true], [res('verb1', 'group2', 'resource2'), true],
      [res('verb2', 'group1', 'resource1'), true], [res('verb2', 'group2', 'resource1'), true],
      [res('verb2', 'group1', 'resource2'), true], [res('verb2', 'group2', 'resource2'), true],
    ]],
    ['subresource expansion', r(['*'], ['*'], ['resource1/subresource1']), [
      [res('verb1', 'group1', 'resource1', 'subresource1'), true], [res('verb1', 'group2', 'resource1', 'subresource2'), false],
      [res('verb1', 'group1', 'resource2', 'subresource1'), false], [res('verb1', 'group2', 'resource2', 'subresource1'), false],
      [res('verb2', 'group1', 'resource1', 'subresource1'), true], [res('verb2', 'group2', 'resource1', 'subresource2'), false],
      [res('verb2', 'group1', 'resource2', 'subresource1'), false], [res('verb2', 'group2', 'resource2', 'subresource1'), false],
    ]],
    ['star nonresource, exact match other', u(['*'], ['verb1']), [
      [url('verb1', '/foo'), true], [url('verb1', '/foo/bar'), true], [url('verb1', '/foo/baz'), true],
      [url('verb1', '/foo/bar/one'), true], [url('verb1', '/foo/baz/one'), true],
      [url('verb2', '/foo'), false], [url('verb2', '/foo/bar'), false], [url('verb2', '/foo/baz'), false],
      [url('verb2', '/foo/bar/one'), false], [url('verb2', '/foo/baz/one'), false],
    ]],
    ['star nonresource subpath', u(['/foo/*'], ['verb1']), [
      [url('verb1', '/foo'), false], [url('verb1', '/foo/bar'), true], [url('verb1', '/foo/baz'), true],
      [url('verb1', '/foo/bar/one'), true], [url('verb1', '/foo/baz/one'), true],
      [url('verb1', '/notfoo'), false], [url('verb1', '/notfoo/bar'), false], [url('verb1', '/notfoo/baz'), false],
      [url('verb1', '/notfoo/bar/one'), false], [url('verb1', '/notfoo/baz/one'), false],
    ]],
    ['star verb, exact nonresource', u(['/foo', '/foo/bar/one'], ['*']), [
      [url('verb1', '/foo'), true], [url('verb1', '/foo/bar'), false], [url('verb1', '/foo/baz'), false],
      [url('verb1', '/foo/bar/one'), true], [url('verb1', '/foo/baz/one'), false],
      [url('verb2', '/foo'), true], [url('verb2', '/foo/bar'), false], [url('verb2', '/foo/baz'), false],
      [url('verb2', '/foo/bar/one'), true], [url('verb2', '/foo/baz/one'), false],
    ]],
  ];
  for (const [name, rule, requests] of cases) {
    test.each(requests)(`${name}: %j => %s`, (request, expected) => {
      expect(RbacRules.allows([rule], request)).toBe(expected);
    });
  }
});

/**
 * Every rule-level request of rbac_test.go TestAuthorizer (its shouldFail cases of the first table fail on the namespace
 * binding, not on the rule, so bindings and namespaces are not the engine's concern).
 */
describe('RbacRules.allows: upstream rbac_test.go TestAuthorizer rule cases', () => {
  const admin: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceUrls: ['*'] };
  test.each([
    ['admin may get Pods', [admin], { verb: 'get', resource: 'Pods' }, true],
    ['admin may watch Pods', [admin], { verb: 'watch', resource: 'Pods' }, true],
    ['admin may watch Foobar', [admin], { verb: 'watch', resource: 'Foobar' }, true],
    ['non-resource-url-getter may get /apis', [u(['/apis'], ['get'])], { verb: 'get', nonResourcePath: '/apis' }, true],
    ['non-resource-url may get /apis', [u(['/apis'], ['*'])], { verb: 'get', nonResourcePath: '/apis' }, true],
    ['non-resource-url may not get /api/v1 (wrong path)', [u(['/apis'], ['*'])], { verb: 'get', nonResourcePath: '/api/v1' }, false],
    ['non-resource-url-prefix may get /apis/v1', [u(['/apis/*'], ['get'])], { verb: 'get', nonResourcePath: '/apis/v1' }, true],
    ['non-resource-url-getter may not watch /apis (wrong verb)', [u(['/apis'], ['get'])], { verb: 'watch', nonResourcePath: '/apis' }, false],
    ['non-resource-url-getter may not get /api/v1 (wrong path)', [u(['/apis'], ['get'])], { verb: 'get', nonResourcePath: '/api/v1' }, false],
    ['non-resource-url may watch /apis', [u(['/apis'], ['*'])], { verb: 'watch', nonResourcePath: '/apis' }, true],
    ['non-resource-url-prefix may get /apis/v1/foobar', [u(['/apis/*'], ['get'])], { verb: 'get', nonResourcePath: '/apis/v1/foobar' }, true],
    ['non-resource-url-prefix may not get /api/v1 (not covered by prefix)', [u(['/apis/*'], ['get'])], { verb: 'get', nonResourcePath: '/api/v1' }, false],
    ['subresource resolution: pods rule allows pods', [{ ...admin, resources: ['pods'] }], { verb: 'get', resource: 'pods' }, true],
    ['subresource resolution: pods rule does not allow pods/status', [{ ...admin, resources: ['pods'] }], { verb: 'get', resource: 'pods', subresource: 'status' }, false],
    ['subresource resolution: pods/status rule allows pods/status', [{ ...admin, resources: ['pods/status'] }], { verb: 'get', resource: 'pods', subresource: 'status' }, true],
    ['subresource resolution: pods/status rule does not allow pods', [{ ...admin, resources: ['pods/status'] }], { verb: 'get', resource: 'pods' }, false],
  ] as [string, PolicyRule[], ResourceRequest, boolean][])('%s', (_name, rules, request, expected) => {
    expect(RbacRules.allows(rules, request)).toBe(expected);
  });
});

describe('RbacRules.allows: request matching details', () => {
  test.each([
    ['*/scale matches any resource\'s scale', [r(['apps'], ['get'], ['*/scale'])], { verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }, true],
    ['*/scale does not match the resource itself', [r(['apps'], ['get'], ['*/scale'])], { verb: 'get', apiGroup: 'apps', resource: 'deployments' }, false],
    ['resource/subresource form is split at the first /', [r(['apps'], ['get'], ['deployments/scale'])], { verb: 'get', apiGroup: 'apps', resource: 'deployments/scale' }, true],
    ['resourceNames restrict to the name', [r([''], ['get'], ['secrets'], ['a'])], { verb: 'get', resource: 'secrets', name: 'a' }, true],
    ['resourceNames reject other names', [r([''], ['get'], ['secrets'], ['a'])], { verb: 'get', resource: 'secrets', name: 'b' }, false],
    ['resourceNames reject unnamed (list) requests', [r([''], ['list'], ['secrets'], ['a'])], { verb: 'list', resource: 'secrets' }, false],
    ['an unnamed request matches resourceNames [""] (ResourceNameMatches compares the empty name)', [r([''], ['list'], ['secrets'], [''])], { verb: 'list', resource: 'secrets' }, true],
    ['*/* is no "any subresource": it matches only the literal subresource "*" (ResourceMatches compares lengths)', [r([''], ['get'], ['*/*'])], { verb: 'get', resource: 'pods', subresource: 'log' }, false],
    ['*/* matches the literal subresource "*"', [r([''], ['get'], ['*/*'])], { verb: 'get', resource: 'pods', subresource: '*' }, true],
    ['pods/* in a rule is a literal: it does not match pods/log', [r([''], ['get'], ['pods/*'])], { verb: 'get', resource: 'pods', subresource: 'log' }, false],
    ['apiGroup defaults to the core group', [r([''], ['get'], ['pods'])], { verb: 'get', resource: 'pods' }, true],
    ['verbs are case-sensitive', [r([''], ['get'], ['pods'])], { verb: 'GET', resource: 'pods' }, false],
    ['a resource rule never allows a URL', [r(['*'], ['*'], ['*'])], { verb: 'get', nonResourcePath: '/healthz' }, false],
    ['no rules, no access', [], { verb: 'get', resource: 'pods' }, false],
  ] as [string, PolicyRule[], ResourceRequest, boolean][])('%s', (_name, rules, request, expected) => {
    expect(RbacRules.allows(rules, request)).toBe(expected);
  });

  test('a request mixing resource fields and a path is rejected with a clear error', () => {
    expect(() => RbacRules.allows([], { verb: 'get', resource: 'pods', nonResourcePath: '/x' }))
      .toThrow("RbacRules.allows: request {\"verb\":\"get\",\"resource\":\"pods\",\"nonResourcePath\":\"/x\"} sets both 'nonResourcePath' and resource fields; a request is either a resource request (apiGroup/resource/subresource/name) or a non-resource request (nonResourcePath)");
  });
  test('a request with neither resource nor path is rejected', () => {
    expect(() => RbacRules.allows([], { verb: 'get' })).toThrow("has neither 'resource' nor 'nonResourcePath'; set one of them");
  });
});

describe('RbacRules: malformed input fails with a clear error, never a TypeError', () => {
  test('covers with a null owner rule', () => {
    expect(() => RbacRules.covers([null as any], [])).toThrow("RbacRules: an owner rule must be an object with 'verbs', got null");
  });
  test('covers with a string requested rule', () => {
    expect(() => RbacRules.covers([], ['get' as any])).toThrow('RbacRules: a rule must be an object with \'verbs\', got "get"');
  });
  test('compact with an undefined rule', () => {
    expect(() => RbacRules.compact([undefined as any])).toThrow("RbacRules.compact: a rule must be an object with 'verbs', got undefined");
  });
  test('allows with no verb', () => {
    expect(() => RbacRules.allows([], {} as any)).toThrow("RbacRules.allows: request must be an object with a string 'verb', got {}");
  });
  test('a rule with a string where a list belongs (JSON read without fromJson) is rejected, never read as characters', () => {
    const bad = { apiGroups: [''], resources: ['pods'], verbs: 'get' } as any;
    const message = 'has \'verbs\' "get": it must be a list of strings, e.g. "verbs": ["get"] (read Kubernetes JSON with PolicyRules.fromJson)';
    expect(() => RbacRules.covers([bad], [])).toThrow(`RbacRules: an owner rule ${JSON.stringify(bad)} ${message}`);
    expect(() => RbacRules.covers([], [bad])).toThrow(`RbacRules: a rule ${JSON.stringify(bad)} ${message}`);
    expect(() => RbacRules.compact([bad])).toThrow(`RbacRules.compact: a rule ${JSON.stringify(bad)} ${message}`);
    expect(() => RbacRules.allows([bad], { verb: 'get', resource: 'pods' })).toThrow(`RbacRules.allows: a rule ${JSON.stringify(bad)} ${message}`);
    expect(() => RbacRules.breakdown([{ verbs: ['get'], nonResourceUrls: [1] } as any]))
      .toThrow('RbacRules: a rule {"verbs":["get"],"nonResourceUrls":[1]} has \'nonResourceUrls\' [1]: it must be a list of strings, e.g. "nonResourceUrls": ["/healthz"]');
  });
  test('null lists mean empty, as in Kubernetes JSON', () => {
    expect(RbacRules.covers([{ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: null } as any], [r([''], ['get'], ['pods'])]))
      .toEqual({ covered: true, missing: [] });
  });
  test('allows with a non-string request field', () => {
    expect(() => RbacRules.allows([], { verb: 'get', resource: 5 } as any))
      .toThrow('RbacRules.allows: request field \'resource\' must be a string, got 5 in {"verb":"get","resource":5}');
  });
  test('a rule without verbs (e.g. from JSON) covers nothing and is reported by validate', () => {
    expect(RbacRules.covers([{ apiGroups: [''], resources: ['pods'] } as any], [r([''], ['get'], ['pods'])]).covered).toBe(false);
    expect(RbacRules.validate({ apiGroups: [''], resources: ['pods'] } as any)).toEqual([
      "rule Namespace:\"\" APIGroups:[] Resources:[pods]: 'verbs' is empty; list at least one verb (e.g. \"get\")",
    ]);
  });
});

describe('RbacRules.compact', () => {
  test('unions verbs per group+resource, then merges resources with identical verbs', () => {
    // GIVEN
    const rules = [
      r(['apps'], ['get'], ['deployments']),
      r(['apps'], ['list', 'watch'], ['deployments']),
      r(['apps'], ['watch', 'get', 'list'], ['statefulsets']),
      r([''], ['get'], ['configmaps']),
    ];
    // WHEN
    const compacted = RbacRules.compact(rules);
    // THEN
    expect(compacted).toEqual([
      r([''], ['get'], ['configmaps']),
      r(['apps'], ['get', 'list', 'watch'], ['deployments', 'statefulsets']),
    ]);
  });

  test('merges groups with identical resources and verbs; keeps names apart from unnamed', () => {
    expect(RbacRules.compact([
      r(['a.example.com'], ['get'], ['widgets']),
      r(['b.example.com'], ['get'], ['widgets']),
      r([''], ['get', 'update'], ['secrets'], ['tls']),
      r([''], ['get'], ['secrets'], ['ca']),
    ])).toEqual([
      r([''], ['get'], ['secrets'], ['ca', 'tls']),
      r([''], ['update'], ['secrets'], ['tls']),
      r(['a.example.com', 'b.example.com'], ['get'], ['widgets']),
    ]);
  });

  test('drops what a wildcard already grants but never introduces a wildcard', () => {
    expect(RbacRules.compact([
      r(['apps'], ['get', '*'], ['deployments']),
      r(['apps'], ['get'], ['deployments/scale', 'statefulsets/scale']),
      r(['apps'], ['get'], ['*/scale']),
      r([''], ['get'], ['secrets'], ['a']),
      r([''], ['get'], ['secrets']),
    ])).toEqual([
      r([''], ['get'], ['secrets']),
      r(['apps'], ['get'], ['*/scale']),
      r(['apps'], ['*'], ['deployments']),
    ]);
  });

  test('URLs that cover each other although they differ (* and **, /a* and /a**) keep one of them, never none', () => {
    // upstream nonResourceURLCovers trims every trailing '*', so each of these pairs covers the other
    expect(RbacRules.compact([u(['*', '**'], ['get'])])).toEqual([u(['*'], ['get'])]);
    expect(RbacRules.compact([u(['/a**', '/a*', '/ab'], ['get']), u(['/a*'], ['list'])])).toEqual([u(['/a*'], ['get', 'list'])]);
    expect(RbacRules.compact([u(['/a**'], ['*']), u(['/a*'], ['get'])])).toEqual([u(['/a**'], ['*'])]);
  });

  test('non-resource rules after resource rules; rules granting nothing dropped; mixed rules kept last', () => {
    const mixed: PolicyRule = { apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/x'], verbs: ['get'] };
    expect(RbacRules.compact([
      mixed,
      u(['/healthz'], ['get']),
      u(['/readyz'], ['get']),
      u(['/metrics/*'], ['get']),
      u(['/metrics/cadvisor'], ['get']),
      { verbs: [], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], resources: ['pods'] },
      r([''], ['get'], ['pods']),
      mixed,
    ])).toEqual([
      r([''], ['get'], ['pods']),
      u(['/healthz', '/metrics/*', '/readyz'], ['get']),
      mixed,
    ]);
  });
});

describe('RbacRules.validate', () => {
  test.each([
    ['a fine resource rule', r(['apps'], ['get'], ['deployments']), false, []],
    ['a fine URL rule', u(['/healthz'], ['get']), false, []],
    ['empty verbs', r(['apps'], [], ['deployments']), false,
      ["rule Namespace:\"\" APIGroups:[apps] Resources:[deployments]: 'verbs' is empty; list at least one verb (e.g. \"get\")"]],
    ['mixing resources and URLs', { apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/healthz'], verbs: ['get'] }, false,
      ['rule Namespace:"" APIGroups:[] Resources:[pods] Verbs:[get] NonResourceURLs:[/healthz]: rules cannot apply to both regular resources and non-resource URLs; split it into a resource rule and a non-resource rule']],
    ['URLs in a namespaced Role', u(['/healthz'], ['get']), true,
      ['rule Namespace:"" Verbs:[get] NonResourceURLs:[/healthz]: namespaced rules cannot apply to non-resource URLs; move the non-resource URLs to a ClusterRole']],
    ['a resource rule without groups or resources', { verbs: ['get'] }, false, [
      'rule Namespace:"" Verbs:[get]: resource rules must supply at least one api group in \'apiGroups\' ("" is the core group)',
      'rule Namespace:"" Verbs:[get]: resource rules must supply at least one resource in \'resources\' (e.g. "pods")',
    ]],
    ['uppercase verb and resource', r([''], ['GET'], ['Pods']), false, [
      "rule Namespace:\"\" APIGroups:[] Resources:[Pods] Verbs:[GET]: verb 'GET' never matches (verbs are case-sensitive and the API server uses lowercase); use 'get'",
      "rule Namespace:\"\" APIGroups:[] Resources:[Pods] Verbs:[GET]: resource 'Pods' never matches (resources are case-sensitive lowercase plurals); use 'pods'",
    ]],
    ['URL without a leading slash', u(['healthz'], ['get']), false,
      ["rule Namespace:\"\" Verbs:[get] NonResourceURLs:[healthz]: non-resource URL 'healthz' never matches (request paths start with '/'); use '/healthz'"]],
    ['non-list field', { verbs: 'get' } as any, false, ['rule field \'verbs\' must be a list of strings, got "get"']],
    ['null lists are absent lists (Kubernetes JSON)', { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: null } as any, false, []],
  ] as [string, PolicyRule, boolean, string[]][])('%s', (_name, rule, namespaced, problems) => {
    expect(RbacRules.validate(rule, namespaced)).toEqual(problems);
  });
});

describe('RbacRules.breakdown and format (format = operator-controller authorization/rbac.go ruleDescription)', () => {
  test('breakdown follows upstream BreakdownRule order (group, resource, verb, name, then URLs)', () => {
    expect(RbacRules.breakdown([
      { apiGroups: ['a', 'b'], resources: ['x'], verbs: ['get', 'list'], resourceNames: ['n'] },
      u(['/h', '/r'], ['get']),
    ])).toEqual([
      r(['a'], ['get'], ['x'], ['n']), r(['a'], ['list'], ['x'], ['n']),
      r(['b'], ['get'], ['x'], ['n']), r(['b'], ['list'], ['x'], ['n']),
      u(['/h'], ['get']), u(['/r'], ['get']),
    ]);
  });

  test.each([
    [r(['apps'], ['get', 'create'], ['deployments']), 'team-a', 'Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[create,get]'],
    [r(['b', 'a'], ['*'], ['y', 'x'], ['n2', 'n1']), 'ns', 'Namespace:"ns" APIGroups:[a,b] Resources:[x,y] ResourceNames:[n1,n2] Verbs:[*]'],
    [r([''], ['get'], ['secrets'], ['tls']), '', 'Namespace:"" APIGroups:[] Resources:[secrets] ResourceNames:[tls] Verbs:[get]'],
    [u(['/healthz'], ['get']), '', 'Namespace:"" Verbs:[get] NonResourceURLs:[/healthz]'],
  ])('format(%j, %j)', (rule, ns, text) => {
    expect(RbacRules.format(rule, ns)).toBe(text);
  });
});

// ---- property-based tests -------------------------------------------------------------------------------------

const verbArb = fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', '*');
const groupArb = fc.constantFrom('', 'apps', 'batch', 'example.com', '*');
const resourceArb = fc.constantFrom('pods', 'pods/log', 'pods/*', 'deployments', 'deployments/scale', '*/scale', '*/*', 'secrets', '*', 'widgets/status', '*/status');
const nameArb = fc.constantFrom('a', 'b', 'c');
// '*' and '**', '/api/*' and '/api/**' cover each other although they differ (upstream nonResourceURLCovers trims all '*').
const urlArb = fc.constantFrom('/healthz', '/api', '/api/v1', '/api/*', '/api/**', '/apis/*', '*', '**', '/metrics', '/');
const uniq = <T>(a: fc.Arbitrary<T>, max: number) => fc.uniqueArray(a, { minLength: 1, maxLength: max });

const resourceRuleArb: fc.Arbitrary<PolicyRule> = fc.record({
  apiGroups: uniq(groupArb, 3),
  resources: uniq(resourceArb, 4),
  verbs: uniq(verbArb, 4),
  resourceNames: fc.option(uniq(nameArb, 2), { nil: undefined }),
}).map((x) => (x.resourceNames === undefined ? { apiGroups: x.apiGroups, resources: x.resources, verbs: x.verbs } : x));
const urlRuleArb: fc.Arbitrary<PolicyRule> = fc.record({ nonResourceUrls: uniq(urlArb, 3), verbs: uniq(verbArb, 3) });
const ruleArb = fc.oneof({ weight: 4, arbitrary: resourceRuleArb }, { weight: 1, arbitrary: urlRuleArb });
const rulesArb = fc.array(ruleArb, { maxLength: 6 });

/** Every request a single atom stands for, as the authorizer would see it (for allows vs covers). */
function atomRequest(atom: PolicyRule): ResourceRequest {
  if (atom.nonResourceUrls) return { verb: atom.verbs[0], nonResourcePath: atom.nonResourceUrls[0] };
  const [resource, ...sub] = atom.resources![0].split('/');
  return {
    verb: atom.verbs[0],
    apiGroup: atom.apiGroups![0],
    resource,
    ...(sub.length > 0 ? { subresource: sub.join('/') } : {}),
    ...(atom.resourceNames ? { name: atom.resourceNames[0] } : {}),
  };
}

/** A line-by-line port of upstream Covers/ruleCovers (policy_comparator.go), without any index: the oracle. */
function upstreamCovers(owner: PolicyRule[], servant: PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const has = (set: string[] | undefined, e: string) => (set ?? []).includes(e);
  const hasAll = (set: string[] | undefined, c: string[] | undefined) => (c ?? []).every((e) => has(set, e));
  const resourceCoversAll = (set: string[] | undefined, covers: string[] | undefined) => {
    if (has(set, '*') || hasAll(set, covers)) return true;
    for (const p of covers ?? []) {
      if (has(set, p)) continue;
      if (!p.includes('/')) return false;
      if (!has(set, '*/' + p.slice(p.indexOf('/') + 1))) return false;
    }
    return true;
  };
  const urlCovers = (o: string, p: string) => o === p || (o.endsWith('*') && p.startsWith(o.replace(/\*+$/, '')));
  const urlsCoverAll = (set: string[] | undefined, covers: string[] | undefined) =>
    (covers ?? []).every((p) => (set ?? []).some((o) => urlCovers(o, p)));
  const ruleCovers = (o: PolicyRule, s: PolicyRule) => {
    const verb = has(o.verbs, '*') || hasAll(o.verbs, s.verbs);
    const group = has(o.apiGroups, '*') || hasAll(o.apiGroups, s.apiGroups);
    const names = (s.resourceNames ?? []).length === 0 ? (o.resourceNames ?? []).length === 0
      : (o.resourceNames ?? []).length === 0 || hasAll(o.resourceNames, s.resourceNames);
    return verb && group && resourceCoversAll(o.resources, s.resources) && names && urlsCoverAll(o.nonResourceUrls, s.nonResourceUrls);
  };
  // BreakdownRule (policy_comparator.go), ported too: the oracle never calls the library it checks
  const breakdownRule = (rule: PolicyRule): PolicyRule[] => {
    const out: PolicyRule[] = [];
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs ?? []) {
          if ((rule.resourceNames ?? []).length > 0) {
            for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
          } else {
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
          }
        }
      }
    }
    for (const url of rule.nonResourceUrls ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceUrls: [url], verbs: [verb] });
    return out;
  };
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) {
    if (!owner.some((o) => ruleCovers(o, sub)) && !missing.some((m) => JSON.stringify(m) === JSON.stringify(sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

describe('RbacRules.covers equals a direct port of upstream ruleCovers (differential)', () => {
  // Odd rules on purpose: mixed resource+URL rules, names on URL rules, empty lists, literal wildcards.
  const oddRuleArb: fc.Arbitrary<PolicyRule> = fc.record({
    verbs: fc.uniqueArray(fc.constantFrom('get', 'list', '*', 'GET', ''), { maxLength: 3 }),
    apiGroups: fc.option(fc.uniqueArray(fc.constantFrom('', 'apps', '*'), { maxLength: 2 }), { nil: undefined }),
    resources: fc.option(fc.uniqueArray(fc.constantFrom('pods', 'pods/log', 'pods/*', '*/log', '*/*', '*', 'a/b/c', '*/b/c'), { maxLength: 3 }), { nil: undefined }),
    resourceNames: fc.option(fc.uniqueArray(fc.constantFrom('a', 'b', ''), { maxLength: 2 }), { nil: undefined }),
    nonResourceUrls: fc.option(fc.uniqueArray(fc.constantFrom('/api', '/api/*', '*', '**', '/', '/api*', '/api**', ''), { maxLength: 2 }), { nil: undefined }),
  }).map((x) => {
    const out: any = {};
    for (const [k, v] of Object.entries(x)) if (v !== undefined) out[k] = v;
    return out as PolicyRule;
  });
  test('same covered flag and same missing atoms, in the same order', () => {
    fc.assert(fc.property(fc.array(oddRuleArb, { maxLength: 6 }), fc.array(oddRuleArb, { maxLength: 4 }), (owner, requested) => {
      // the one deliberate difference: a requested rule naming no resource and no URL (upstream: vacuously covered)
      // is refused (issue 29: an engine that answers for input it could not read)
      const i = requested.findIndex((x) => (x.resources ?? []).length === 0 && (x.nonResourceUrls ?? []).length === 0);
      if (i >= 0) {
        expect(() => RbacRules.covers(owner, requested)).toThrow(`RbacRules.covers: requested[${i}]: rule=`);
        expect(() => RbacRules.covers(owner, requested)).toThrow('has neither resources nor nonResourceUrls');
        return;
      }
      expect(RbacRules.covers(owner, requested)).toEqual(upstreamCovers(owner, requested));
    }), { numRuns: 3000 });
  });
  test('compact never changes the meaning of odd rules either', () => {
    fc.assert(fc.property(fc.array(oddRuleArb, { maxLength: 6 }), fc.array(oddRuleArb, { maxLength: 4 }), (rules, probes) => {
      const compacted = RbacRules.compact(rules);
      expect(upstreamCovers(compacted, probes).missing).toEqual(upstreamCovers(rules, probes).missing);
    }), { numRuns: 2000 });
  });
});

describe('RbacRules properties', () => {
  test('a rule set covers itself and any subset', () => {
    fc.assert(fc.property(rulesArb, fc.func(fc.boolean()), (rules, keep) => {
      expect(RbacRules.covers(rules, rules)).toEqual({ covered: true, missing: [] });
      const subset = rules.filter((_x, i) => keep(i));
      expect(RbacRules.covers(rules, subset).covered).toBe(true);
    }), { numRuns: 1000 });
  });

  test('adding owner rules never un-covers (missing only shrinks)', () => {
    fc.assert(fc.property(rulesArb, rulesArb, rulesArb, (owner, extra, requested) => {
      const before = RbacRules.covers(owner, requested);
      const after = RbacRules.covers([...owner, ...extra], requested);
      if (before.covered) expect(after.covered).toBe(true);
      const beforeKeys = new Set(before.missing.map((m) => JSON.stringify(m)));
      for (const m of after.missing) expect(beforeKeys.has(JSON.stringify(m))).toBe(true);
    }), { numRuns: 1000 });
  });

  test('granting the missing atoms makes covers true', () => {
    fc.assert(fc.property(rulesArb, rulesArb, (owner, requested) => {
      const { missing } = RbacRules.covers(owner, requested);
      expect(RbacRules.covers([...owner, ...missing], requested)).toEqual({ covered: true, missing: [] });
    }), { numRuns: 1000 });
  });

  test('missing atoms are exactly the atoms not covered on their own', () => {
    fc.assert(fc.property(rulesArb, rulesArb, (owner, requested) => {
      const { missing } = RbacRules.covers(owner, requested);
      const keys = new Set(missing.map((m) => JSON.stringify(m)));
      for (const atom of RbacRules.breakdown(requested)) {
        expect(RbacRules.covers(owner, [atom]).covered).toBe(!keys.has(JSON.stringify(atom)));
      }
    }), { numRuns: 500 });
  });

  test('compact keeps the meaning: covers(compact(r), r) and covers(r, compact(r))', () => {
    fc.assert(fc.property(rulesArb, (rules) => {
      const compacted = RbacRules.compact(rules);
      expect(RbacRules.covers(compacted, rules)).toEqual({ covered: true, missing: [] });
      expect(RbacRules.covers(rules, compacted)).toEqual({ covered: true, missing: [] });
    }), { numRuns: 1000 });
  });

  test('compact keeps the meaning for allows on every atom of either side', () => {
    fc.assert(fc.property(rulesArb, rulesArb, (rules, probes) => {
      const compacted = RbacRules.compact(rules);
      for (const atom of RbacRules.breakdown([...rules, ...probes])) {
        const request = atomRequest(atom);
        expect(RbacRules.allows(compacted, request)).toBe(RbacRules.allows(rules, request));
      }
    }), { numRuns: 500 });
  });

  test('compact never introduces a value (no new wildcard): each output value is in the same field of some input rule', () => {
    fc.assert(fc.property(rulesArb, (rules) => {
      for (const field of ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceUrls'] as const) {
        const input = new Set(rules.flatMap((x) => x[field] ?? []));
        for (const value of RbacRules.compact(rules).flatMap((x) => x[field] ?? [])) expect(input.has(value)).toBe(true);
      }
    }), { numRuns: 1000 });
  });

  test('compact is idempotent, deterministic and independent of input order', () => {
    fc.assert(fc.property(rulesArb, (rules) => {
      const once = RbacRules.compact(rules);
      expect(RbacRules.compact(once)).toEqual(once);
      expect(RbacRules.compact([...rules].reverse())).toEqual(once);
      expect(once.length).toBeLessThanOrEqual(Math.max(rules.length, RbacRules.breakdown(rules).length));
    }), { numRuns: 1000 });
  });

  test('allows agrees with covers on single atoms without wildcards in the request', () => {
    const concreteAtom = fc.oneof(
      fc.record({
        apiGroups: fc.constantFrom('', 'apps', 'example.com').map((g) => [g]),
        resources: fc.constantFrom('pods', 'pods/log', 'deployments/scale', 'secrets', 'widgets/status').map((x) => [x]),
        verbs: fc.constantFrom('get', 'list', 'delete').map((v) => [v]),
        resourceNames: fc.option(nameArb.map((n) => [n]), { nil: undefined }),
      }).map((x) => (x.resourceNames === undefined ? { apiGroups: x.apiGroups, resources: x.resources, verbs: x.verbs } : x) as PolicyRule),
      fc.record({
        nonResourceUrls: fc.constantFrom('/healthz', '/api', '/api/v1', '/metrics', '/').map((x) => [x]),
        verbs: fc.constantFrom('get', 'post').map((v) => [v]),
      }),
    );
    fc.assert(fc.property(rulesArb, concreteAtom, (owner, atom) => {
      // An unnamed atom stands for a collection request (no name): owner names must then not match it.
      expect(RbacRules.allows(owner, atomRequest(atom))).toBe(RbacRules.covers(owner, [atom]).covered);
    }), { numRuns: 2000 });
  });
});

describe('RbacRules.compact: a comma inside a verb, resource or URL is part of the value (issue 28, mutation testing)', () => {
  // ValidatePolicyRule (pkg/apis/rbac/validation/validation.go) does not look inside verbs or resources: `"get,list"` is
  // one verb that no request ever has. compact grouped rules by `verbs.join(',')` / `resources.join(',')`, so
  // ["get","list"] and ["get,list"] were one group and the second rule was given the first one's verbs.
  test('a rule with the single verb "get,list" is never merged with a rule of the verbs get and list', () => {
    const rules = [r(['g'], ['get', 'list'], ['x']), r(['g'], ['get,list'], ['y'])];
    expect(RbacRules.compact(rules)).toEqual([r(['g'], ['get', 'list'], ['x']), r(['g'], ['get,list'], ['y'])]);
    expect(RbacRules.allows(RbacRules.compact(rules), { verb: 'get', apiGroup: 'g', resource: 'y' })).toBe(false);
  });
  test('a group granted the single resource "a,b" never gains the resources a and b of another group', () => {
    const rules = [r(['g1'], ['get'], ['a', 'b']), r(['g2'], ['get'], ['a,b'])];
    expect(RbacRules.compact(rules)).toEqual([r(['g1'], ['get'], ['a', 'b']), r(['g2'], ['get'], ['a,b'])]);
    expect(RbacRules.allows(RbacRules.compact(rules), { verb: 'get', apiGroup: 'g2', resource: 'a' })).toBe(false);
  });
  test('groups whose resources join to the same text stay apart (verbs equal)', () => {
    const rules = [r(['g1'], ['get'], ['a,b']), r(['g2'], ['get'], ['a', 'b'])];
    expect(RbacRules.compact(rules)).toEqual([r(['g1'], ['get'], ['a,b']), r(['g2'], ['get'], ['a', 'b'])]);
  });
  test('a URL rule with the single verb "get,list" is never merged with one of the verbs get and list', () => {
    const rules = [u(['/a'], ['get', 'list']), u(['/b'], ['get,list'])];
    expect(RbacRules.compact(rules)).toEqual([u(['/a'], ['get', 'list']), u(['/b'], ['get,list'])]);
    expect(RbacRules.allows(RbacRules.compact(rules), { verb: 'get', nonResourcePath: '/b' })).toBe(false);
  });
});

/** The message `call` throws (the test fails when it throws nothing). */
function thrown(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error, got an answer');
}

const LIST_FIX = 'Fix: pass e.g. [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] (read Kubernetes JSON with PolicyRules.fromJson)';
const TYPO_RULE = { apiGroups: [''], resourcez: ['pods'], verbs: ['get'] } as unknown as PolicyRule;
const TYPO_MESSAGE = 'rule.resourcez="[\\"pods\\"]": rule has "resourcez", but a PolicyRule has no prop "resourcez"; did you mean "resources"? Fix: rename it to resources (UnknownProp)';
const NAMES_NOTHING = 'rule="{\\"verbs\\":[\\"get\\"]}": rule has neither resources nor nonResourceUrls: it names nothing (the API server refuses it, '
  + 'and no check can read what it was meant to grant). Fix: list the resources (with apiGroups), e.g. { apiGroups: [""], resources: ["configmaps"], '
  + 'verbs: ["get"] }, or the URLs, e.g. { nonResourceUrls: ["/metrics"], verbs: ["get"] } (MissingInput)';

/** Exact errors for every wrong argument of the static methods (mutation testing, issue 28: each message is pinned). */
describe('RbacRules: wrong arguments are refused with exact messages', () => {
  test.each([
    ['covers: owner undefined', () => RbacRules.covers(undefined as any, []),
      `RbacRules.covers: owner: owner must be a list of PolicyRules, got undefined. ${LIST_FIX} (MissingInput)`],
    ['covers: requested null', () => RbacRules.covers([], null as any),
      `RbacRules.covers: requested="null": requested must be a list of PolicyRules, got null. ${LIST_FIX} (MissingInput)`],
    ['covers: owner an object', () => RbacRules.covers({} as any, []),
      `RbacRules.covers: owner="{}": owner must be a list of PolicyRules, got an object ({}). ${LIST_FIX} (InvalidInputType)`],
    ['covers: requested a string', () => RbacRules.covers([], 'x' as any),
      `RbacRules.covers: requested="x": requested must be a list of PolicyRules, got the string "x". ${LIST_FIX} (InvalidInputType)`],
    ['compact: a string', () => RbacRules.compact('x' as any),
      `RbacRules.compact: rules="x": rules must be a list of PolicyRules, got the string "x". ${LIST_FIX} (InvalidInputType)`],
    ['breakdown: a number', () => RbacRules.breakdown(5 as any),
      `RbacRules.breakdown: rules="5": rules must be a list of PolicyRules, got the number 5. ${LIST_FIX} (InvalidInputType)`],
    ['allows: request null', () => RbacRules.allows([], null as any), "RbacRules.allows: request must be an object with a string 'verb', got null"],
    ['allows: request a string', () => RbacRules.allows([], 'get' as any), 'RbacRules.allows: request must be an object with a string \'verb\', got "get"'],
    ['allows: request a function with a verb (not an object)', () => RbacRules.allows([], Object.assign(() => true, { verb: 'get', resource: 'pods' }) as any),
      'RbacRules.allows: request must be an object with a string \'verb\', got "[function]"'],
    ['allows: rules a string', () => RbacRules.allows('x' as any, { verb: 'get', resource: 'pods' }), 'RbacRules.allows: rules must be a list of rules, got "x"'],
    ['format: rule null', () => RbacRules.format(null as any, ''),
      'RbacRules.format: rule="null": rule must be a PolicyRule object, got null. Fix: pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson) (MissingInput)'],
    ['format: rule undefined', () => RbacRules.format(undefined as any, ''),
      'RbacRules.format: rule: rule must be a PolicyRule object, got undefined. Fix: pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson) (MissingInput)'],
    ['format: rule a list', () => RbacRules.format([] as any, ''),
      'RbacRules.format: rule="[]": rule must be a PolicyRule object, got a list ([]). Fix: pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)'],
    ['format: rule a string', () => RbacRules.format('pods' as any, ''),
      'RbacRules.format: rule="pods": rule must be a PolicyRule object, got the string "pods". Fix: pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)'],
    ['format: a string where a list belongs', () => RbacRules.format({ apiGroups: [''], resources: 'pods', verbs: ['get'] } as any, ''),
      'RbacRules.format: the rule {"apiGroups":[""],"resources":"pods","verbs":["get"]} has \'resources\' "pods": it must be a list of strings, e.g. "resources": ["x"] (read Kubernetes JSON with PolicyRules.fromJson)'],
    ['format: an unknown key', () => RbacRules.format(TYPO_RULE, ''), `RbacRules.format: the rule: ${TYPO_MESSAGE}`],
    ['format: namespace a number', () => RbacRules.format(r([''], ['get'], ['pods']), 5 as any),
      "RbacRules.format: namespace=\"5\": namespace must be a string, got the number 5. Fix: pass the namespace the rule applies in, or '' for cluster-wide (InvalidInputType)"],
    ['format: namespace undefined', () => RbacRules.format(r([''], ['get'], ['pods']), undefined as any),
      "RbacRules.format: namespace: namespace must be a string, got undefined. Fix: pass the namespace the rule applies in, or '' for cluster-wide (MissingInput)"],
    ['format: namespace null', () => RbacRules.format(r([''], ['get'], ['pods']), null as any),
      "RbacRules.format: namespace=\"null\": namespace must be a string, got null. Fix: pass the namespace the rule applies in, or '' for cluster-wide (MissingInput)"],
  ] as [string, () => unknown, string][])('%s', (_name, call, message) => {
    expect(thrown(call)).toEqual(message);
  });

  test.each([
    ['subresource', { verb: 'get', subresource: 'log', nonResourcePath: '/x' }],
    ['apiGroup', { verb: 'get', apiGroup: 'apps', nonResourcePath: '/x' }],
    ['name', { verb: 'get', name: 'a', nonResourcePath: '/x' }],
  ] as [string, ResourceRequest][])('allows: a path request that also sets %s is refused', (_field, request) => {
    expect(thrown(() => RbacRules.allows([u(['*'], ['*'])], request))).toEqual(`RbacRules.allows: request ${JSON.stringify(request)} sets both 'nonResourcePath' `
      + 'and resource fields; a request is either a resource request (apiGroup/resource/subresource/name) or a non-resource request (nonResourcePath)');
  });
});

/** Rules the engine cannot read are refused by every entry point (issue 29), exactly; sealed (shared) rules too. */
describe('RbacRules: unreadable rules are refused with exact messages', () => {
  test('an unknown key in an owner rule, a requested rule, a rule to allow, compact or break down', () => {
    expect(thrown(() => RbacRules.covers([TYPO_RULE], []))).toEqual(`RbacRules: an owner rule: ${TYPO_MESSAGE}`);
    expect(thrown(() => RbacRules.covers([], [TYPO_RULE]))).toEqual(`RbacRules.covers: requested[0]: ${TYPO_MESSAGE}`);
    expect(thrown(() => RbacRules.allows([TYPO_RULE], { verb: 'get', resource: 'pods' }))).toEqual(`RbacRules.allows: a rule: ${TYPO_MESSAGE}`);
    expect(thrown(() => RbacRules.compact([TYPO_RULE]))).toEqual(`RbacRules.compact: a rule: ${TYPO_MESSAGE}`);
    expect(thrown(() => RbacRules.breakdown([TYPO_RULE]))).toEqual(`RbacRules: a rule: ${TYPO_MESSAGE}`);
  });
  test('every unknown key of a rule is named, separated by "; "', () => {
    expect(thrown(() => RbacRules.covers([{ apiGroups: [''], resourcez: ['pods'], verbz: ['get'] } as any], []))).toEqual('RbacRules: an owner rule: '
      + 'rule.resourcez="[\\"pods\\"]": rule has "resourcez", but a PolicyRule has no prop "resourcez"; did you mean "resources"? Fix: rename it to resources (UnknownProp); '
      + 'rule.verbz="[\\"get\\"]": rule has "verbz", but a PolicyRule has no prop "verbz"; did you mean "verbs"? Fix: rename it to verbs (UnknownProp)');
  });
  test('a requested rule naming nothing is refused, sealed (shared, checked once) or not; as an owner rule it only covers nothing', () => {
    expect(thrown(() => RbacRules.covers([], [{ verbs: ['get'] }]))).toEqual(`RbacRules.covers: requested[0]: ${NAMES_NOTHING}`);
    const sealed = seal({ verbs: ['get'] });
    expect(RbacRules.covers([sealed], [r([''], ['get'], ['pods'])])).toEqual({ covered: false, missing: [r([''], ['get'], ['pods'])] });
    expect(thrown(() => RbacRules.covers([], [sealed]))).toEqual(`RbacRules.covers: requested[0]: ${NAMES_NOTHING}`);
    expect(thrown(() => RbacRules.covers([], [sealed]))).toEqual(`RbacRules.covers: requested[0]: ${NAMES_NOTHING}`);
  });
  test('a sealed rule checked once stays accepted; an unsealed rule is checked on every call (it may have changed)', () => {
    const sealed = seal(r([''], ['get'], ['pods']));
    expect(RbacRules.covers([sealed], [sealed])).toEqual({ covered: true, missing: [] });
    expect(RbacRules.covers([sealed], [sealed])).toEqual({ covered: true, missing: [] });
    const rule: any = r([''], ['get'], ['pods']);
    expect(RbacRules.covers([rule], [])).toEqual({ covered: true, missing: [] });
    rule.resourcez = ['secrets'];
    expect(thrown(() => RbacRules.covers([rule], []))).toEqual('RbacRules: an owner rule: rule.resourcez="[\\"secrets\\"]": rule has "resourcez", '
      + 'but a PolicyRule has no prop "resourcez"; did you mean "resources"? Fix: rename it to resources (UnknownProp)');
  });
});

/** Refusals as carefully as grants: each case is a mutant that matched too much or too little (issue 28). */
describe('RbacRules.allows: upstream evaluation_helpers.go ResourceMatches / NonResourceURLMatches, edge cases', () => {
  test.each([
    // "if there isn't a subresource, then continue": a rule `*/` never matches a request without a subresource
    ['*/ does not match a request without a subresource', [r([''], ['get'], ['*/'])], { verb: 'get', resource: 'pods' }, false],
    // len(ruleResource) == len(requestedSubresource)+2 && HasPrefix "*/" && HasSuffix subresource: all three
    ['x/log (not */) does not match pods/log, although its length is that of */log', [r([''], ['get'], ['x/log'])], { verb: 'get', resource: 'pods', subresource: 'log' }, false],
    ['*/xstatus does not match the subresource status (lengths differ)', [r([''], ['get'], ['*/xstatus'])], { verb: 'get', resource: 'pods', subresource: 'status' }, false],
    ['*/scale matches the resource/subresource form of a scale request', [r(['apps'], ['get'], ['*/scale'])], { verb: 'get', apiGroup: 'apps', resource: 'deployments/scale' }, true],
    // the split is ours (authorizer.Attributes has Resource and Subresource): with a subresource given, resource is taken as is
    ['with subresource "" given, resource "pods/log" is the literal resource: */log does not match', [r([''], ['get'], ['*/log'])], { verb: 'get', resource: 'pods/log', subresource: '' }, false],
    ['with subresource "" given, resource "pods/log" matches the literal rule pods/log', [r([''], ['get'], ['pods/log'])], { verb: 'get', resource: 'pods/log', subresource: '' }, true],
    // TrimRight(ownerPath, "*"): only the trailing stars; a star inside the path is a literal
    ['/a*b* allows /a*bc (inner * is literal, trailing * a prefix)', [u(['/a*b*'], ['get'])], { verb: 'get', nonResourcePath: '/a*bc' }, true],
    ['/a*b* does not allow /abc', [u(['/a*b*'], ['get'])], { verb: 'get', nonResourcePath: '/abc' }, false],
    ['* allows any path', [u(['*'], ['get'])], { verb: 'get', nonResourcePath: '/healthz' }, true],
  ] as [string, PolicyRule[], ResourceRequest, boolean][])('%s', (_name, rules, request, expected) => {
    expect(RbacRules.allows(rules, request)).toBe(expected);
  });
});

describe('RbacRules.covers: upstream policy_comparator.go edge cases', () => {
  test('resourceCoversAll: a requested resource "/x" contains "/", so the owner */x covers it (SplitN gives "", "x")', () => {
    expect(RbacRules.covers([r(['g'], ['get'], ['*/x'])], [r(['g'], ['get'], ['/x'])])).toEqual({ covered: true, missing: [] });
  });
  test('nonResourceURLCovers: only trailing stars are trimmed; /a*b* covers /a*bc, not /abc', () => {
    expect(RbacRules.covers([u(['/a*b*'], ['get'])], [u(['/a*bc', '/abc'], ['get'])])).toEqual({ covered: false, missing: [u(['/abc'], ['get'])] });
  });
});

describe('RbacRules.validate: upstream ValidatePolicyRule, each condition on its own', () => {
  test.each([
    ['a URL rule in a ClusterRole (namespaced defaults to false)', u(['/healthz'], ['get']), []],
    ['URLs with only apiGroups', { apiGroups: [''], nonResourceUrls: ['/x'], verbs: ['get'] }, 'APIGroups:[] Verbs:[get] NonResourceURLs:[/x]'],
    ['URLs with only resources', { resources: ['pods'], nonResourceUrls: ['/x'], verbs: ['get'] }, 'Resources:[pods] Verbs:[get] NonResourceURLs:[/x]'],
    ['URLs with only resourceNames', { resourceNames: ['a'], nonResourceUrls: ['/x'], verbs: ['get'] }, 'ResourceNames:[a] Verbs:[get] NonResourceURLs:[/x]'],
    ['the URL * (no leading slash needed)', u(['*'], ['get']), []],
    ['the resource ""', r([''], ['get'], ['']), ['rule Namespace:"" APIGroups:[] Resources:[] Verbs:[get]: resource \'\' never matches; remove it']],
    ['not an object: null', null, ['rule must be an object, got null']],
    ['not an object: a string', 'x', ['rule must be an object, got "x"']],
    ['not an object: a list', [], ['rule must be an object, got []']],
    ['a list with a number', { verbs: ['get', 1] }, ['rule field \'verbs\' must be a list of strings, got ["get",1]']],
    ['an unknown key', TYPO_RULE, ['rule has "resourcez", but a PolicyRule has no prop "resourcez"; did you mean "resources"?: rename it to resources']],
  ] as [string, unknown, string[] | string][])('%s', (_name, rule, expected) => {
    const problems = typeof expected === 'string'
      ? [`rule Namespace:"" ${expected}: rules cannot apply to both regular resources and non-resource URLs; split it into a resource rule and a non-resource rule`]
      : expected;
    expect(RbacRules.validate(rule as PolicyRule)).toEqual(problems);
  });
});

describe('RbacRules.breakdown: a rule without verbs yields no atoms (upstream BreakdownRule loops over Verbs)', () => {
  test('resource and URL rules without verbs', () => {
    expect(RbacRules.breakdown([{ apiGroups: [''], resources: ['pods'] } as PolicyRule, { nonResourceUrls: ['/x'] } as PolicyRule])).toEqual([]);
  });
});

describe('RbacRules.compact: exact output for rules that mutation testing found unpinned (issue 28)', () => {
  test('a rule mixing resources and URLs is kept unchanged whichever of apiGroups, resources, resourceNames it has', () => {
    const mixed: PolicyRule[] = [
      { apiGroups: ['g'], nonResourceUrls: ['/x'], verbs: ['get'] },
      { resources: ['pods'], nonResourceUrls: ['/x'], verbs: ['get'] },
      { resourceNames: ['a'], nonResourceUrls: ['/x'], verbs: ['get'] },
    ];
    // sorted by the JSON of [apiGroups, resources, resourceNames, URLs, verbs], absent lists as []: '["' sorts before '[]'
    expect(RbacRules.compact(mixed)).toEqual([mixed[0], mixed[1], mixed[2]]);
    expect(RbacRules.compact([mixed[2], mixed[1], mixed[0]])).toEqual([mixed[0], mixed[1], mixed[2]]);
  });
  test('a mixed rule without verbs is kept with verbs []', () => {
    expect(RbacRules.compact([{ apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/x'] } as PolicyRule]))
      .toEqual([{ apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/x'], verbs: [] }]);
  });
  test('named rules sort before the unnamed rule of the same resource, by their names', () => {
    expect(RbacRules.compact([r([''], ['list'], ['secrets']), r([''], ['get'], ['secrets'], ['tls']), r([''], ['update'], ['secrets'], ['ca'])])).toEqual([
      r([''], ['update'], ['secrets'], ['ca']),
      r([''], ['get'], ['secrets'], ['tls']),
      r([''], ['list'], ['secrets']),
    ]);
  });
  test('URL rules sort by their URLs, then verbs', () => {
    expect(RbacRules.compact([u(['/b'], ['get']), u(['/a'], ['list'])])).toEqual([u(['/a'], ['list']), u(['/b'], ['get'])]);
  });
  test('an atom granted again for every group (*) is dropped: the * rule grants it', () => {
    expect(RbacRules.compact([r(['g', '*'], ['get'], ['pods'])])).toEqual([r(['*'], ['get'], ['pods'])]);
  });
  test('no key of a compacted rule is present-but-undefined (the output is written as YAML)', () => {
    expect(RbacRules.compact([r([''], ['get'], ['pods']), { apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/x'], verbs: ['get'] }]))
      .toStrictEqual([r([''], ['get'], ['pods']), { apiGroups: [''], resources: ['pods'], nonResourceUrls: ['/x'], verbs: ['get'] }]);
  });
  test('rules whose fields are getters on a prototype (JSON "{}") are compacted for what they are, never from the cache of another list', () => {
    const ruleOf = (resource: string): PolicyRule => Object.create({
      get apiGroups() { return ['']; },
      get resources() { return [resource]; },
      get verbs() { return ['get']; },
    });
    expect(RbacRules.compact([ruleOf('pods')])).toEqual([r([''], ['get'], ['pods'])]);
    expect(RbacRules.compact([ruleOf('secrets')])).toEqual([r([''], ['get'], ['secrets'])]);
  });
});
