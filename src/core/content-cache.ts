/**
 * Memoization by input content, for pure functions that thousands of tenants call with equal inputs (rule lists
 * derived from the same bundles). Internal to the library: not re-exported from the package root.
 */

/**
 * A key for plain data: its JSON (native, so cheap next to what it saves). JSON drops object fields whose value is
 * `undefined`: only use it for inputs whose functions treat such a field as absent (true of every rule function
 * here: `RbacRules` reads fields with `?? []` / `!== undefined`, and its messages print rules with JSON too).
 */
export function contentKey(value: unknown): string {
  return JSON.stringify(value);
}

/** Test switch: with `enabled: false` every cache here computes afresh (tests compare both ways). */
export const CACHING = { enabled: true };

/** A map that forgets everything when it is full (bounded memory, no bookkeeping on hits). */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  /** The cached value for `key`, computed (and stored) on a miss. A throwing `compute` stores nothing. */
  public get(key: string, compute: () => V): V {
    if (!CACHING.enabled) return compute();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}

/** A copy of a plain rule-like object whose array fields are copied too (same keys, same order). */
export function copyShallowArrays<T extends object>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o)) out[k] = Array.isArray(v) ? [...v] : v;
  return out;
}

/**
 * Whether `rules` is a list of plain objects (prototype `Object.prototype` or none) whose fields are all own,
 * enumerable, and `undefined` or lists of strings: then its JSON (`contentKey`) identifies it exactly for every rule
 * function. Anything else is computed uncached: its error messages may tell `null` from `undefined`, and a class
 * instance whose fields are getters on its prototype (or a non-enumerable field) has JSON `{}` whatever it grants.
 */
export function isPlainRuleList(rules: unknown): boolean {
  if (!Array.isArray(rules)) return false;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return false;
    if (PLAIN_RULES_CACHE.has(r)) continue;
    const proto = Object.getPrototypeOf(r);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const k of Object.getOwnPropertyNames(r)) {
      if (!Object.prototype.propertyIsEnumerable.call(r, k)) return false;
      const v = r[k];
      if (v === undefined) continue;
      if (!Array.isArray(v)) return false;
      for (const x of v) if (typeof x !== 'string') return false;
    }
    if (SEALED_ID_CACHE.has(r)) PLAIN_RULES_CACHE.add(r);
  }
  return true;
}

/** Whether `seal` froze `value` (deeply: it can never change). */
export function isSealed(value: object): boolean {
  return SEALED_ID_CACHE.has(value);
}

/** Ids of the objects `seal` froze (deeply, so they can never change): their key is the id, not their JSON. */
const SEALED_ID_CACHE = new WeakMap<object, number>();
/** Sealed objects already checked to be plain rules. */
const PLAIN_RULES_CACHE = new WeakSet<object>();
let nextSealedId = 0;

/**
 * Deep-freezes plain data and gives every object inside an id, so `rulesKey` names each of them in a few
 * characters. Returns `value`. For values the library caches and hands out read-only (shared templates).
 */
export function seal<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !SEALED_ID_CACHE.has(value)) {
    Object.freeze(value);
    for (const x of Object.values(value)) seal(x);
    SEALED_ID_CACHE.set(value, nextSealedId++);
  }
  return value;
}

/**
 * A key for a rule list that names it exactly (see `isPlainRuleList`): sealed rules by id (equal content under
 * another id only misses the cache), others by their JSON.
 */
export function rulesKey(rules: readonly object[]): string {
  // a sealed list never changes: its key is made once (shared lists are keyed by every tenant, several times)
  if (SEALED_ID_CACHE.has(rules)) {
    let key = SEALED_LIST_KEY_CACHE.get(rules);
    if (key === undefined) SEALED_LIST_KEY_CACHE.set(rules, key = rulesKeyOf(rules));
    return key;
  }
  return rulesKeyOf(rules);
}

/** The keys of sealed lists, made once each. */
const SEALED_LIST_KEY_CACHE = new WeakMap<readonly object[], string>();

function rulesKeyOf(rules: readonly object[]): string {
  // one string per rule and one join (a `+=` chain leaves a cons-string node per rule behind)
  const parts = new Array<string>(rules.length);
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    const id = SEALED_ID_CACHE.get(r);
    parts[i] = id !== undefined ? `#${id}` : JSON.stringify(r);
  }
  return parts.length === 0 ? '' : `${parts.join('\n')}\n`;
}
