import fc from 'fast-check';
import { KubernetesNames, NameRule } from '../../src/core/kubernetes-names';

// Cases from k8s.io/apimachinery/pkg/util/validation/validation_test.go (TestIsDNS1123Label, TestIsDNS1123Subdomain)
// and pkg/api/validation/path (ValidatePathSegmentName).
describe('KubernetesNames', () => {
  test.each(['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(63)])(
    'DNS-1123 label %s is valid', (name) => {
      expect(KubernetesNames.problem(name, NameRule.DNS1123_LABEL)).toBeUndefined();
      expect(KubernetesNames.isDns1123Label(name)).toBe(true);
    });

  test.each(['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', 'a'.repeat(64)])(
    'DNS-1123 label %j is invalid', (name) => {
      expect(KubernetesNames.isDns1123Label(name)).toBe(false);
    });

  test.each(['a', 'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a-1.b-2', 'a'.repeat(253)])(
    'DNS-1123 subdomain %s is valid', (name) => {
      expect(KubernetesNames.isDns1123Subdomain(name)).toBe(true);
    });

  test.each(['', 'A', 'a.B', 'a..b', '.a', 'a.', '-a', 'a-', 'a_b', 'a@b', 'a'.repeat(254)])(
    'DNS-1123 subdomain %j is invalid', (name) => {
      expect(KubernetesNames.isDns1123Subdomain(name)).toBe(false);
    });

  test('exact messages', () => {
    expect(KubernetesNames.problem('a'.repeat(64), NameRule.DNS1123_LABEL)).toEqual('must be no more than 63 characters (has 64)');
    expect(KubernetesNames.problem('', NameRule.DNS1123_SUBDOMAIN)).toEqual('must not be empty');
    expect(KubernetesNames.problem('..', NameRule.PATH_SEGMENT)).toEqual("may not be '..'");
    expect(KubernetesNames.problem('a/b', NameRule.PATH_SEGMENT)).toEqual("may not contain '/' or '%'");
    // OLM's generated ClusterRole names contain upper case and are valid RBAC names.
    expect(KubernetesNames.problem('olm.og.global-operators.admin-5UD4U2IfBGbw51Qy2Jaefk1uawvkj2OJILlc3w', NameRule.PATH_SEGMENT)).toBeUndefined();
  });
});

describe('KubernetesNames properties', () => {
  // Built from the grammar in k8s.io/apimachinery/pkg/util/validation (dns1123LabelFmt), not from our regexes.
  const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''));
  const inner = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split(''));
  const label = fc.tuple(alnum, fc.array(inner, { maxLength: 61 }), fc.option(alnum, { nil: undefined }))
    .map(([a, mid, z]) => (z === undefined ? a : a + mid.join('') + z));

  test('property: labels built from the grammar are valid labels and subdomains; joined by dots they are subdomains up to 253 characters', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 6 }), (labels) => {
        for (const l of labels) {
          expect(KubernetesNames.problem(l, NameRule.DNS1123_LABEL)).toBeUndefined();
          expect(KubernetesNames.isDns1123Subdomain(l)).toBe(true);
        }
        const joined = labels.join('.');
        expect(KubernetesNames.isDns1123Subdomain(joined)).toBe(joined.length <= 253);
      }),
    );
  });

  test('property: one upper-case letter, underscore or slash makes a label invalid and a path segment keeps only the slash', () => {
    fc.assert(
      fc.property(label, fc.nat(), fc.constantFrom('A', '_', '/'), (l, at, bad) => {
        const i = at % (l.length + 1);
        const name = l.slice(0, i) + bad + l.slice(i);
        expect(KubernetesNames.isDns1123Label(name)).toBe(false);
        expect(KubernetesNames.isDns1123Subdomain(name)).toBe(false);
        expect(KubernetesNames.problem(name, NameRule.PATH_SEGMENT) === undefined).toBe(bad !== '/');
      }),
    );
  });
});
