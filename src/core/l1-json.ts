/**
 * Internal: an object's JSON, as its `toJson()` returns it, without the object spreads of cdk8s-plus-28's L1
 * classes. Their `toJson()` is `{ ...GVK, ...toJson_KubeXProps(super.toJson()) }`, and the conversion drops undefined
 * fields with `{ ...r, [key]: value }` per key: on Node 20 (V8 11.3) every such spread in optimized code makes a new
 * hidden class in V8's old generation, 0.2-1.1 KB per object, which no young-generation collection frees (what set the
 * peak memory of a synthesis at 5,000 tenants; docs/scale.md, Memory). src/imports/k8s-json.ts holds the same
 * conversions, copied from the installed cdk8s-plus-28 and rewritten without spreads (scripts/k8s-json.ts, which
 * checks that each class's `toJson()` has exactly that form); the library's own L1 classes (src/imports/olm.ts, ...)
 * are rewritten the same way when they are generated. Not re-exported from the package.
 */
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { sourceDigest } from './source-digest';
import { K8S_JSON_SOURCE_SHA256, K8S_JSON_SOURCES, K8S_L1_JSON } from '../imports/k8s-json';

/** What `L1Json.of` renders: anything with a `toJson()` (cdk8s `ApiObject`s, usually). */
interface Renderable {
  toJson(): any;
}

/** Per L1 class prototype: its own `toJson` (as loaded) and what that makes of `ApiObject`'s JSON. */
type Conversions = ReadonlyMap<object, { readonly toJson: Function; readonly convert: (resolved: any) => any }>;

/**
 * The conversions of src/imports/k8s-json.ts by class prototype, when `mod` (cdk8s-plus-28's `k8s`) holds the
 * source text they were copied from (`digest` of `sources`); else none, and every object keeps its `toJson()`.
 */
export function k8sConversions(mod: any, sources: readonly string[], digest: string): Conversions {
  if (sourceDigest(mod, sources) !== digest) return new Map();
  return new Map(K8S_L1_JSON.map(([cls, convert]) => [cls.prototype, { toJson: cls.prototype.toJson, convert }]));
}

/** The conversions for the installed cdk8s-plus-28 (a peer dependency: users may install another version). */
const CONVERSIONS: Conversions = k8sConversions(k8s, K8S_JSON_SOURCES, K8S_JSON_SOURCE_SHA256);

export class L1Json {
  /**
   * `o.toJson()`. For an object whose class is one of cdk8s-plus-28's L1 classes of src/imports/k8s-json.ts (not a
   * subclass, and with that class's own `toJson`; the installed cdk8s-plus-28 the one the conversions were copied
   * from), the same object made without a hidden class per object.
   */
  public static of(o: Renderable): any {
    const proto = Object.getPrototypeOf(o);
    const known = CONVERSIONS.get(proto);
    if (known === undefined || o.toJson !== known.toJson) return o.toJson();
    // `super.toJson()` of the L1 class: ApiObject's, as it is now
    return known.convert(ApiObject.prototype.toJson.call(o as ApiObject));
  }

  private constructor() {}
}
