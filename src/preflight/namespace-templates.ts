/**
 * Results computed once per bundle and install shape, instantiated per tenant namespace. Internal: not re-exported.
 *
 * The install model (`InstallPlanModel.build`), the derivation and the preflight use the tenant namespace only as
 * a label: they compare it for equality with the other namespaces involved ('' = cluster, kube-system, target and
 * other-rule namespaces), sort it among them, and write it into messages. So a result computed for a placeholder
 * namespace P equals the result for namespace N with every P replaced by N, provided N and P compare alike to every
 * other namespace involved (same equalities, same sort order with `<` and `localeCompare`). When no placeholder
 * qualifies, callers compute directly.
 */
import { OperatorBundle } from '../bundle/operator-bundle';
import { BoundedCache, CACHING, contentKey, seal } from '../core/content-cache';

/** Two placeholders: one sorts before 'kube-system' (and most names), one after. Valid RFC 1123 labels. */
const PLACEHOLDERS = ['a0-cdk8s-olm-tenancy-namespace-placeholder', 'z9-cdk8s-olm-tenancy-namespace-placeholder'];

/** The namespace literals the install model itself uses besides the tenant namespace. */
const MODEL_NAMESPACES = ['', 'kube-system'];

const BUNDLE_ID_CACHE = new WeakMap<OperatorBundle, number>();
let nextBundleId = 0;

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A cache of namespace-independent results. */
export class NamespaceTemplates<T> {
  /** A key for a list of bundles by identity (bundles are immutable once loaded). */
  public static bundlesKey(bundles: OperatorBundle[]): string {
    return bundles.map((b) => {
      let id = BUNDLE_ID_CACHE.get(b);
      if (id === undefined) BUNDLE_ID_CACHE.set(b, id = nextBundleId++);
      return id;
    }).join(',');
  }

  /** `namespaces` with the tenant namespace replaced by a marker, for keys. */
  public static shape(namespaces: string[], namespace: string): Array<string | number> {
    return namespaces.map((ns) => (ns === namespace ? 0 : ns));
  }

  private readonly cache: BoundedCache<T>;

  constructor(maxEntries: number) {
    this.cache = new BoundedCache<T>(maxEntries);
  }

  /**
   * `compute(namespace, mapNamespace)` for `namespace`, from the cache when an equal shape was computed before.
   * `key` must describe every other input (use `NamespaceTemplates.bundlesKey` and `NamespaceTemplates.shape`);
   * `others` lists every other namespace the inputs mention. `compute` gets the namespace to use and a function
   * that maps the real namespace in other inputs (e.g. target namespaces) to it.
   *
   * With `share`, the parts of the result that do not mention the namespace are the cached (frozen) objects
   * themselves, shared by every caller: for the library's own read-only use (thousands of tenants hold the same
   * derived rules once, not once each). Otherwise the result is a fresh deep copy.
   */
  public get(
    namespace: string, others: string[], key: unknown, compute: (namespace: string, mapNamespace: (ns: string) => string) => T, share = false,
  ): T {
    const placeholder = CACHING.enabled ? placeholderFor(namespace, others) : undefined;
    if (placeholder === undefined) return compute(namespace, (ns) => ns);
    const template = this.cache.get(contentKey([placeholder, key]), () => seal(compute(placeholder, (ns) => (ns === namespace ? placeholder : ns))));
    return instantiate(template, placeholder, namespace, share);
  }
}

/**
 * A placeholder that compares to every namespace in `others` (other than `namespace` itself) and to the model's
 * own namespaces as `namespace` does; undefined when none does.
 */
function placeholderFor(namespace: string, others: string[]): string | undefined {
  if (typeof namespace !== 'string' || MODEL_NAMESPACES.includes(namespace)) return undefined;
  // the tenant namespace among the others (e.g. as its own target) is mapped to the placeholder by the caller
  const all = [...MODEL_NAMESPACES, ...others.filter((o) => o !== namespace)];
  return PLACEHOLDERS.find((p) => !all.includes(p) && !namespace.includes(p) && all.every((o) =>
    sign(cmp(p, o)) === sign(cmp(namespace, o)) && sign(p.localeCompare(o)) === sign(namespace.localeCompare(o))));
}

/**
 * Plain data with `placeholder` replaced by `namespace` in every string: a deep copy, or with `share` a copy of
 * only the objects that (somewhere inside) mention the placeholder, the others being `value`'s own (frozen) objects.
 */
function instantiate<T>(value: T, placeholder: string, namespace: string, share: boolean): T {
  const walk = (v: any): any => {
    if (typeof v === 'string') return v.includes(placeholder) ? v.split(placeholder).join(namespace) : v;
    if (share && !mentionsAPlaceholder(v)) return v;
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return share && out.every((x, i) => x === v[i]) ? v : out;
    }
    if (v !== null && typeof v === 'object') {
      const out: any = {};
      let same = true;
      for (const [k, x] of Object.entries(v)) {
        const k2 = walk(k);
        const x2 = walk(x);
        if (k2 !== k || x2 !== x) same = false;
        out[k2] = x2;
      }
      return share && same ? v : out;
    }
    return v;
  };
  return walk(value);
}

/**
 * Per sealed object (never changing): whether a string inside it may contain a placeholder (checked by the part
 * both placeholders share, so a `true` may be too cautious, never wrong: walking an object that does not mention
 * the placeholder returns it unchanged anyway).
 */
const MENTIONS_CACHE = new WeakMap<object, boolean>();
const PLACEHOLDER_PART = '-cdk8s-olm-tenancy-namespace-placeholder';

function mentionsAPlaceholder(v: unknown): boolean {
  if (typeof v === 'string') return v.includes(PLACEHOLDER_PART);
  if (v === null || typeof v !== 'object') return false;
  let m = MENTIONS_CACHE.get(v);
  if (m === undefined) {
    m = false;
    for (const [k, x] of Object.entries(v)) {
      if (k.includes(PLACEHOLDER_PART) || mentionsAPlaceholder(x)) {
        m = true;
        break;
      }
    }
    if (Object.isFrozen(v)) MENTIONS_CACHE.set(v, m);
  }
  return m;
}
