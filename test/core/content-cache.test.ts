// The content caches' key test (src/core/content-cache.ts isPlainRuleList): a rule list is cached by its JSON only when
// that JSON says everything every rule function reads. Issue 28: a rule whose fields are prototype getters (a class
// instance) or non-enumerable has JSON `{}` whatever it grants, and was answered from another list's entry.
import { PolicyRule, RbacRules } from '../../src';
import { isPlainRuleList, seal } from '../../src/core/content-cache';

/** A rule whose fields are getters on its prototype, as a class instance has them. */
const getterRule = (resources: string[], verbs: string[]): PolicyRule => Object.create({
  get apiGroups() { return ['']; },
  get resources() { return resources; },
  get verbs() { return verbs; },
});

describe('isPlainRuleList', () => {
  test.each<[string, unknown, boolean]>([
    ['plain rules', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { nonResourceUrls: ['/x'], verbs: ['get'], resourceNames: undefined }], true],
    ['no rules', [], true],
    ['a rule without prototype', [Object.assign(Object.create(null), { verbs: ['get'] })], true],
    ['sealed (deep-frozen) rules', seal([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), true],
    ['not a list', { 0: { verbs: ['get'] } }, false],
    ['a rule that is a list', [['get']], false],
    ['a null field', [{ apiGroups: null, verbs: ['get'] }], false],
    ['a field of non-strings', [{ verbs: [1] }], false],
    ['fields as prototype getters', [getterRule(['pods'], ['get'])], false],
    ['a non-enumerable field', [Object.defineProperty({ apiGroups: [''], resources: ['pods'] }, 'verbs', { value: ['get'], enumerable: false })], false],
    ['a class instance with own fields', [new (class { public verbs = ['get']; })()], false],
  ])('%s: %s', (_name, rules, expected) => {
    expect(isPlainRuleList(rules)).toBe(expected);
  });
});

describe('the caches that key on it answer each getter rule list for itself', () => {
  test('RbacRules.compact', () => {
    expect(RbacRules.compact([getterRule(['pods'], ['get'])])).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    expect(RbacRules.compact([getterRule(['secrets'], ['list'])])).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]);
  });
});
