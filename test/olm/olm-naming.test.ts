import { AccessLevel, OlmGeneration, OlmNaming } from '../../src';

describe('OlmNaming.operatorGroupClusterRoleName (OLM pkg/controller/operators/olm/operatorgroup.go getClusterRoleName)', () => {
  test('matches the value observed on a real cluster for operators/global-operators admin', () => {
    expect(OlmNaming.operatorGroupClusterRoleName('operators', 'global-operators', AccessLevel.ADMIN)).toEqual(
      'olm.og.global-operators.admin-5UD4U2IfBGbw51Qy2Jaefk1uawvkj2OJILlc3w',
    );
  });

  test('legacy generation uses <operatorgroup>-<level>', () => {
    expect(OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a-og', AccessLevel.VIEW, OlmGeneration.V0_15_TO_V0_25)).toEqual('team-a-og-view');
  });
});

describe('OlmNaming.base62FromHex (Go big.Int.Text(62))', () => {
  test.each([
    ['', '0'],
    ['00', '0'],
    ['3d', 'Z'],
    ['3e', '10'],
    ['0100', '48'],
  ])('%s -> %s', (hex, expected) => {
    expect(OlmNaming.base62FromHex(hex)).toEqual(expected);
  });

  test('rejects text that is not hex bytes', () => {
    expect(() => OlmNaming.base62FromHex('xyz')).toThrow("OlmNaming.base62FromHex: 'xyz' is not a hex byte string");
  });
});

describe('OlmNaming: getClusterRoleName truncation (kubeResourceNameLimit = 253)', () => {
  test('a long OperatorGroup name is cut, the level and the hash are kept, the whole name is 253 characters', () => {
    // GIVEN an OperatorGroup name of 253 characters (the longest valid name)
    const og = 'a'.repeat(253);
    const shortName = OlmNaming.operatorGroupClusterRoleName('ns', 'a', AccessLevel.ADMIN);
    const hash = shortName.slice(shortName.lastIndexOf('-') + 1);
    // WHEN
    const name = OlmNaming.operatorGroupClusterRoleName('ns', og, AccessLevel.ADMIN);
    // THEN the hash is computed from the full name, and only the group part is cut
    const fullHash = name.slice(name.lastIndexOf('-') + 1);
    expect(name.length).toBe(253);
    expect(name).toBe(`olm.og.${'a'.repeat(253 - 9 - 'admin'.length - fullHash.length)}.admin-${fullHash}`);
    expect(fullHash).not.toBe(hash);
  });

  test('a name that fits is not cut', () => {
    const name = OlmNaming.operatorGroupClusterRoleName('ns', 'b'.repeat(100), AccessLevel.VIEW);
    expect(name.startsWith(`olm.og.${'b'.repeat(100)}.view-`)).toBe(true);
  });

  test('V0_8_TO_V0_14 uses <operatorgroup>-<level> too', () => {
    expect(OlmNaming.operatorGroupClusterRoleName('ns', 'og', AccessLevel.EDIT, OlmGeneration.V0_8_TO_V0_14)).toBe('og-edit');
  });
});

describe('OlmNaming.providedApiHash (OLM cache.APIKeyToGVKHash: fnv64a of Kind.version.group as %x)', () => {
  // Expected values observed on a real OpenShift cluster (labels of OLM-generated ClusterRoles for the knative
  // operator's CRDs, in openshift/console test mocks): olm.opgroup.permissions/aggregate-to-4fa8c5d8e33af72a-edit.
  test.each([
    ['KnativeEventing', 'v1alpha1', 'operator.knative.dev', '4fa8c5d8e33af72a'],
    ['KnativeServing', 'v1alpha1', 'operator.knative.dev', 'fceaacb4e1c6ac8c'],
  ])('%s.%s.%s -> %s', (kind, version, group, hash) => {
    expect(OlmNaming.providedApiHash(kind, version, group)).toBe(hash);
    expect(OlmNaming.providedApiAggregationLabel(kind, version, group, AccessLevel.EDIT)).toBe(`olm.opgroup.permissions/aggregate-to-${hash}-edit`);
  });

  test('no zero padding (Go %x): a hash with a leading zero nibble has 15 digits', () => {
    // fnv64a("KnativeEventing.v1.operator.knative.dev") = 0x0d133997d1c4978b
    expect(OlmNaming.providedApiHash('KnativeEventing', 'v1', 'operator.knative.dev')).toBe('d133997d1c4978b');
  });
});
