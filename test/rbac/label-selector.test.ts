/**
 * The label selectors of ClusterRole aggregation (src/rbac/label-selector.ts), alone (issue 41): a planted bug in
 * `NotIn` (a missing key no longer matching) escaped every aggregation test, because each fixture role carried the
 * key. Every operator is checked with the key absent, present with a listed value and present with another value,
 * then Kubernetes' own rows (k8s.io/apimachinery/pkg/labels/selector_test.go TestRequirementSelectorMatching,
 * TestSelectorMatches, TestEverything).
 */
import { formatLabelSelector, parseLabelSelector, selectorMatches } from '../../src/rbac/label-selector';

const matchesSelector = (selector: unknown, labels: Record<string, string>) => {
  const parsed = parseLabelSelector(selector);
  expect(parsed.problems).toEqual([]);
  return selectorMatches(parsed.requirements, labels);
};

describe('every operator: the key absent, present with a listed value, present with another value', () => {
  const ABSENT = { other: 'x' };
  const LISTED = { tier: 'a', other: 'x' };
  const ANOTHER = { tier: 'c', other: 'x' };
  // [selector, absent, listed, another]
  test.each<[string, unknown, boolean, boolean, boolean]>([
    ['In (a, b)', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, false, true, false],
    ['NotIn (a, b): a missing key matches', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a', 'b'] }] }, true, false, true],
    ['Exists', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, false, true, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, true, false, false],
    ['matchLabels tier=a', { matchLabels: { tier: 'a' } }, false, true, false],
    ['{} (every object)', {}, true, true, true],
  ])('%s', (_name, selector, absent, listed, another) => {
    expect([matchesSelector(selector, ABSENT), matchesSelector(selector, LISTED), matchesSelector(selector, ANOTHER)])
      .toEqual([absent, listed, another]);
  });

  test('the empty value is a value: NotIn ("") refuses tier="", In ("") matches it and nothing absent', () => {
    const notIn = { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: [''] }] };
    const inEmpty = { matchExpressions: [{ key: 'tier', operator: 'In', values: [''] }] };
    expect([matchesSelector(notIn, { tier: '' }), matchesSelector(notIn, {}), matchesSelector(inEmpty, { tier: '' }), matchesSelector(inEmpty, {})])
      .toEqual([false, true, true, false]);
  });

  test('requirements are ANDed, matchLabels and matchExpressions together', () => {
    const s = { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] };
    expect([matchesSelector(s, { app: 'x' }), matchesSelector(s, { app: 'x', tier: 'a' }), matchesSelector(s, { tier: 'b' })]).toEqual([true, false, false]);
  });

  test('a key that is only an inherited property of the labels object is absent (hasOwnProperty)', () => {
    expect(matchesSelector({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {})).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'toString', operator: 'NotIn', values: ['x'] }] }, {})).toBe(true);
  });
});

describe('selector_test.go', () => {
  const r = (key: string, operator: string, values?: string[]) => ({ key, operator, ...(values ? { values } : {}) });
  // TestRequirementSelectorMatching (the rows with the operators a LabelSelector has)
  test.each<[Record<string, string>, unknown[], boolean]>([
    [{ x: 'foo', y: 'baz' }, [r('x', 'In', ['foo']), r('y', 'NotIn', ['alpha'])], true],
    [{ x: 'foo', y: 'baz' }, [r('x', 'In', ['foo']), r('y', 'In', ['alpha'])], false],
    [{ y: '' }, [r('x', 'NotIn', ['']), r('y', 'Exists')], true],
    [{ y: '' }, [r('x', 'DoesNotExist'), r('y', 'Exists')], true],
    [{ y: '' }, [r('x', 'NotIn', ['']), r('y', 'DoesNotExist')], false],
    [{ y: 'baz' }, [r('x', 'In', [''])], false],
  ])('TestRequirementSelectorMatching: %j', (labels, matchExpressions, expected) => {
    expect(matchesSelector({ matchExpressions }, labels)).toBe(expected);
  });

  // TestSelectorMatches: x=y as matchLabels, x!=y as NotIn, x as Exists, !x as DoesNotExist
  test.each<[string, unknown, Record<string, string>, boolean]>([
    ['""', {}, { x: 'y' }, true],
    ['x=y', { matchLabels: { x: 'y' } }, { x: 'y' }, true],
    ['x=y,z=w', { matchLabels: { x: 'y', z: 'w' } }, { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { matchExpressions: [r('x', 'NotIn', ['y']), r('z', 'NotIn', ['w'])] }, { x: 'z', z: 'a' }, true],
    ['notin=in', { matchLabels: { notin: 'in' } }, { notin: 'in' }, true],
    ['x', { matchExpressions: [r('x', 'Exists')] }, { x: 'z' }, true],
    ['!x', { matchExpressions: [r('x', 'DoesNotExist')] }, { y: 'z' }, true],
    ['x=z', { matchLabels: { x: 'z' } }, {}, false],
    ['x=y', { matchLabels: { x: 'y' } }, { x: 'z' }, false],
    ['x=y,z=w', { matchLabels: { x: 'y', z: 'w' } }, { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { matchExpressions: [r('x', 'NotIn', ['y']), r('z', 'NotIn', ['w'])] }, { x: 'z', z: 'w' }, false],
    ['x', { matchExpressions: [r('x', 'Exists')] }, { y: 'z' }, false],
    ['!x', { matchExpressions: [r('x', 'DoesNotExist')] }, { x: 'z' }, false],
    ['foo=bar,foobar=bar,baz=blah', { matchLabels: { foo: 'bar', foobar: 'bar', baz: 'blah' } }, { foo: 'bar', baz: 'blah' }, false],
  ])('TestSelectorMatches: %s on %j', (_s, selector, labels, expected) => {
    expect(matchesSelector(selector, labels)).toBe(expected);
  });
});

describe('what the API server refuses (ValidateLabelSelector): problems, no requirements (the controller aggregates nothing)', () => {
  test.each<[string, unknown, string[]]>([
    ['In without values', { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }, ['matchExpressions[0].values must be non-empty for operator In']],
    ['NotIn without values', { matchExpressions: [{ key: 'k', operator: 'NotIn' }] }, ['matchExpressions[0].values must be non-empty for operator NotIn']],
    ['Exists with values', { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['a'] }] }, ['matchExpressions[0].values must be empty for operator Exists']],
    ['an unknown operator', { matchExpressions: [{ key: 'k', operator: 'Equals', values: ['a'] }] }, ['matchExpressions[0].operator must be In, NotIn, Exists or DoesNotExist, got "Equals"']],
    ['a value that is no string', { matchLabels: { k: 1 } }, ['matchLabels.k must be a string, got 1']],
    ['no object', 'tier=a', ['must be a label selector object ({ matchLabels, matchExpressions }), got "tier=a"']],
  ])('%s', (_name, selector, problems) => {
    expect(parseLabelSelector(selector)).toEqual({ requirements: [], problems });
  });

  test('formatLabelSelector: the labels.Selector String form', () => {
    expect(formatLabelSelector(parseLabelSelector({
      matchLabels: { a: 'b' },
      matchExpressions: [{ key: 'c', operator: 'In', values: ['x', 'y'] }, { key: 'd', operator: 'NotIn', values: ['z'] }, { key: 'e', operator: 'Exists' }, { key: 'f', operator: 'DoesNotExist' }],
    }).requirements)).toEqual('{a=b, c in (x,y), d notin (z), e, !f}');
    expect(formatLabelSelector([])).toEqual('{} (every ClusterRole)');
  });
});
