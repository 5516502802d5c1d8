import fc from 'fast-check';
import { PolicyRule, PolicyRules } from '../../src/rbac';

describe('PolicyRules.fromJson / toJson (rbac.authorization.k8s.io/v1 PolicyRule)', () => {
  test('reads Kubernetes JSON: nonResourceURLs becomes nonResourceUrls, unknown fields are ignored', () => {
    // GIVEN a rule as the API server serves it
    const json = { verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'], extra: true };
    // WHEN / THEN
    expect(PolicyRules.fromJson(json)).toEqual({ verbs: ['get'], nonResourceUrls: ['/healthz', '/metrics/*'] });
  });

  test('reads a resource rule with names; null lists count as absent, missing verbs as empty', () => {
    expect(PolicyRules.fromJson({ apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'], nonResourceURLs: null }))
      .toEqual({ apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'] });
    expect(PolicyRules.fromJson({ apiGroups: ['apps'], resources: ['deployments'] })).toEqual({ verbs: [], apiGroups: ['apps'], resources: ['deployments'] });
  });

  test('writes Kubernetes JSON with nonResourceURLs, keys sorted, empty resourceNames/nonResourceURLs omitted', () => {
    expect(JSON.stringify(PolicyRules.toJson({ verbs: ['get'], resources: ['pods'], apiGroups: [''], resourceNames: [], nonResourceUrls: [] })))
      .toBe('{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}');
    expect(JSON.stringify(PolicyRules.toJson({ verbs: ['get'], nonResourceUrls: ['/healthz'] })))
      .toBe('{"nonResourceURLs":["/healthz"],"verbs":["get"]}');
    expect(JSON.stringify(PolicyRules.toJson({ verbs: ['get'], resourceNames: ['tls'], resources: ['secrets'], apiGroups: [''] })))
      .toBe('{"apiGroups":[""],"resourceNames":["tls"],"resources":["secrets"],"verbs":["get"]}');
  });

  test('toJson copies the lists (mutating the output never changes the rule)', () => {
    const rule: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
    const json = PolicyRules.toJson(rule);
    json.verbs.push('delete');
    expect(rule.verbs).toEqual(['get']);
  });

  test.each([
    ['a string', 'get', 'PolicyRule must be an object, got "get"'],
    ['null', null, 'PolicyRule must be an object, got null'],
    ['a list', [], 'PolicyRule must be an object, got []'],
    ['verbs as a string', { verbs: 'get' }, 'PolicyRule field \'verbs\' must be a list of strings, got "get"'],
    ['a number in resources', { verbs: ['get'], resources: [1] }, "PolicyRule field 'resources' must be a list of strings, got [1]"],
  ])('fromJson rejects %s with a clear error', (_name, json, message) => {
    expect(() => PolicyRules.fromJson(json)).toThrow(message);
  });

  test('toJson rejects a rule without a verbs list with a clear error, not a TypeError', () => {
    expect(() => PolicyRules.toJson({ apiGroups: [''] } as any)).toThrow("PolicyRules.toJson: a rule must be an object with a 'verbs' list, got {\"apiGroups\":[\"\"]}");
    expect(() => PolicyRules.toJson(null as any)).toThrow("PolicyRules.toJson: a rule must be an object with a 'verbs' list, got null");
  });

  test('property: fromJson(toJson(rule)) gives the rule back (empty optional lists dropped)', () => {
    const list = fc.array(fc.constantFrom('', 'apps', 'pods', 'get', '*', '/healthz', 'a/b'), { maxLength: 3 });
    const ruleArb = fc.record({
      verbs: list,
      apiGroups: fc.option(list, { nil: undefined }),
      resources: fc.option(list, { nil: undefined }),
      resourceNames: fc.option(list, { nil: undefined }),
      nonResourceUrls: fc.option(list, { nil: undefined }),
    });
    fc.assert(fc.property(ruleArb, (rule) => {
      const expected: any = { verbs: rule.verbs };
      if (rule.apiGroups !== undefined) expected.apiGroups = rule.apiGroups;
      if (rule.resources !== undefined) expected.resources = rule.resources;
      if (rule.resourceNames !== undefined && rule.resourceNames.length > 0) expected.resourceNames = rule.resourceNames;
      if (rule.nonResourceUrls !== undefined && rule.nonResourceUrls.length > 0) expected.nonResourceUrls = rule.nonResourceUrls;
      expect(PolicyRules.fromJson(JSON.parse(JSON.stringify(PolicyRules.toJson(rule as PolicyRule))))).toStrictEqual(expected);
    }), { numRuns: 500 });
  });
});
