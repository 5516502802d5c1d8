import fc from 'fast-check';
import { KubernetesValidation, TestNameRule, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES } from '../util/kubernetes-validation';

// Tables ported from kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube_test.go
// (TestIsLabelKey, TestIsLabelValue; commit 2e0908106e4420a601e50d6edfd41475de87a3e1).
describe('TestIsLabelKey (IsQualifiedName)', () => {
  const successCases = [
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    '1234',
    'simple/simple',
    'now-with-dashes/simple',
    'now-with-dashes/now-with-dashes',
    'now.with.dots/simple',
    'now-with.dashes-and.dots/simple',
    '1-num.2-num/3-num',
    '1234/5678',
    '1.2.3.4/5678',
    'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123',
    'requests.storage-foo',
    'a'.repeat(63),
    'a'.repeat(253) + '/' + 'b'.repeat(63),
  ];
  test.each(successCases)('successCases: %s', (key) => {
    expect(KubernetesValidation.qualifiedNameProblems(key)).toEqual([]);
  });

  const errorCases = [
    'nospecialchars%^=@',
    'cantendwithadash-',
    '-cantstartwithadash-',
    'only/one/slash',
    'Example.com/abc',
    'example_com/abc',
    'example.com/',
    '/simple',
    'a'.repeat(64),
    'a'.repeat(254) + '/abc',
  ];
  test.each(errorCases)('errorCases: %s', (key) => {
    expect(KubernetesValidation.qualifiedNameProblems(key).length).toBeGreaterThan(0);
  });

  test('messages name the failing part', () => {
    expect(KubernetesValidation.qualifiedNameProblems('example.com/')).toEqual([
      'name part must be non-empty',
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    ]);
    expect(KubernetesValidation.qualifiedNameProblems('/simple')).toEqual(['prefix part must be non-empty']);
    expect(KubernetesValidation.qualifiedNameProblems('a'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
  });
});

describe('TestIsLabelValue (IsValidLabelValue)', () => {
  const successCases = ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), ''];
  test.each(successCases)('successCases: "%s"', (value) => {
    expect(KubernetesValidation.labelValueProblems(value)).toEqual([]);
  });

  const errorCases = [
    'nospecialchars%^=@',
    'Tama-nui-te-rā.is.Māori.sun',
    '\\backslashes\\are\\bad',
    '-starts-with-dash',
    'ends-with-dash-',
    '.starts.with.dot',
    'ends.with.dot.',
    'a'.repeat(64),
  ];
  test.each(errorCases)('errorCases: %s', (value) => {
    expect(KubernetesValidation.labelValueProblems(value).length).toBeGreaterThan(0);
  });

  test('property: alphanumeric ends, [-_.A-Za-z0-9] inside and at most 63 bytes is valid', () => {
    const alnum = fc.constantFrom(...'abcXYZ019'.split(''));
    const inner = fc.constantFrom(...'aZ9-_.'.split(''));
    fc.assert(fc.property(alnum, fc.array(inner, { maxLength: 61 }), alnum, (first, middle, last) => {
      expect(KubernetesValidation.labelValueProblems(first + middle.join('') + last)).toEqual([]);
    }));
  });

  test('property: any character outside [-_.A-Za-z0-9] makes a value invalid', () => {
    const bad = fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !/^[-_.A-Za-z0-9]$/.test(c));
    fc.assert(fc.property(fc.string({ maxLength: 20 }), bad, fc.string({ maxLength: 20 }), (before, c, after) => {
      expect(KubernetesValidation.labelValueProblems(before + c + after).length).toBeGreaterThan(0);
    }));
  });
});

describe('names', () => {
  test.each([
    ['metrics', TestNameRule.DNS1035_LABEL, undefined],
    ['1-metrics', TestNameRule.DNS1035_LABEL, "must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (RFC 1035 label)"],
    ['m'.repeat(64), TestNameRule.DNS1035_LABEL, 'must be no more than 63 characters (has 64)'],
    ['', TestNameRule.DNS1035_LABEL, 'must not be empty'],
    ['1-metrics', TestNameRule.DNS1123_LABEL, undefined],
    ['a.b', TestNameRule.DNS1123_LABEL, "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)"],
    ['a.b', TestNameRule.DNS1123_SUBDOMAIN, undefined],
    ['system:openshift:a', TestNameRule.PATH_SEGMENT, undefined],
    ['..', TestNameRule.PATH_SEGMENT, "may not be '..'"],
  ])('%s under %s', (name, rule, expected) => {
    expect(KubernetesValidation.nameProblem(name, rule)).toEqual(expected);
  });
});

describe('annotation size (ValidateAnnotationsSize)', () => {
  test('counts keys and values in bytes', () => {
    expect(KubernetesValidation.annotationsSize({ 'a/b': 'ü', 'c': '' })).toEqual(3 + 2 + 1);
  });

  test('the limit is 256 KiB', () => {
    expect(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES).toEqual(262144);
  });
});
