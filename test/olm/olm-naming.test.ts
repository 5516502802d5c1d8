import { AccessLevel, OlmGeneration, OlmNaming } from '../../src';

describe('OlmNaming.operatorGroupClusterRoleName (OLM pkg/controller/operators/olm/operatorgroup.go getClusterRoleName)', () => {
  test('matches the value observed on a real cluster for operators/global-operators admin', () => {
    expect(OlmNaming.operatorGroupClusterRoleName('operators', 'global-operators', AccessLevel.ADMIN)).toEqual(
      'olm.og.global-operators.admin-5UD4U2IfBGbw51Qy2Jaefk1uawvkj2OJILlc3w',
    );
  });

  test('legacy generation uses <operatorgroup>-<level>', () => {
    expect(OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a-og', AccessLevel.VIEW, OlmGeneration.LEGACY)).toEqual('team-a-og-view');
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
