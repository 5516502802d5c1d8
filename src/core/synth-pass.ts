/**
 * Internal: "one synthesis pass of this App is running". `TenancyApp` validates and writes its App once per
 * `synth()`; nothing changes the constructs in between, so results computed during the pass (the audit of the App)
 * hold until it ends. Outside a pass (a plain cdk8s `App`, which validates once per Chart) callers must detect
 * changes themselves. Not re-exported from the package.
 */
import { IConstruct } from 'constructs';

interface Pass {
  /** `root.node.findAll()`, once per pass. */
  all?: IConstruct[];
  /** Objects' JSON read before the writing (the audit's bindings), until the writing takes it. */
  json?: Map<object, unknown>;
  /** Identifies the pass for `PassMemo` (a new object per pass; holds nothing). */
  readonly token: object;
}

/** What `SynthPass.json` renders: a cdk8s `ApiObject`. */
interface Renderable extends IConstruct {
  toJson(): any;
}

const ACTIVE = new WeakMap<IConstruct, Pass>();
/** Passes running now (most code runs outside any: `PassMemo` then skips the walk to the root). */
let running = 0;

export class SynthPass {
  /** Runs `fn` as one pass over `root`'s App; nested calls join the running pass. */
  public static run<T>(root: IConstruct, fn: () => T): T {
    if (ACTIVE.has(root)) return fn();
    ACTIVE.set(root, { token: {} });
    running++;
    try {
      return fn();
    } finally {
      running--;
      ACTIVE.delete(root);
    }
  }

  /**
   * The token of the running pass of `scope`'s App (its root found up the scopes), if one is running. Internal to
   * the library.
   */
  public static tokenOf(scope: IConstruct): object | undefined {
    if (running === 0) return undefined;
    let root = scope;
    for (let up = root.node.scope; up !== undefined; up = up.node.scope) root = up;
    return ACTIVE.get(root)?.token;
  }

  /** A token of the running pass of `root`'s App (a new object per pass), if one is running. */
  public static current(root: IConstruct): object | undefined {
    return ACTIVE.get(root);
  }

  /**
   * `scope.node.findAll()`; for the root of an App in a running pass, one list for the whole pass (the validations,
   * the audit, the warnings and the writing each walked 70,000 constructs at 5,000 tenants). Callers must not modify it.
   */
  public static findAll(scope: IConstruct): IConstruct[] {
    const pass = scope.node.scope === undefined ? ACTIVE.get(scope) : undefined;
    if (pass === undefined) return scope.node.findAll();
    return pass.all ??= scope.node.findAll();
  }

  /**
   * `o.toJson()`; in a running pass of its App, computed once for the pass and kept for `takeJson` (the audit reads
   * every binding's JSON while validating, the writing needs it again: rendering an object is what a synthesis
   * spends most on). Callers must not modify it.
   */
  public static json(o: Renderable): any {
    const pass = running === 0 ? undefined : ACTIVE.get(rootOf(o));
    if (pass === undefined) return o.toJson();
    const cache = pass.json ??= new Map();
    if (cache.has(o)) return cache.get(o);
    const json = o.toJson();
    cache.set(o, json);
    return json;
  }

  /** The JSON `json` kept for `o` in the running pass, forgotten (so it can be collected once written); else `o.toJson()`. */
  public static takeJson(o: Renderable): any {
    const cache = running === 0 ? undefined : ACTIVE.get(rootOf(o))?.json;
    if (cache === undefined || !cache.has(o)) return o.toJson();
    const json = cache.get(o);
    cache.delete(o);
    return json;
  }

  private constructor() {}
}

/** `c.node.root` without the array of every scope `node.root` builds. */
function rootOf(c: IConstruct): IConstruct {
  let root = c;
  for (let up = root.node.scope; up !== undefined; up = up.node.scope) root = up;
  return root;
}

/**
 * A value computed at most once per synthesis pass of a construct's App: while `TenancyApp` validates and writes,
 * nothing changes the constructs, so what a check computed from them holds until the pass ends (a tenant's
 * preflight, read by its errors, its warnings and its report). Outside a pass (a plain cdk8s App, a direct call)
 * it computes every time, as before. Holds one value (and the pass's token), never the App.
 */
export class PassMemo<T> {
  private token?: object;
  private value?: T;

  /** `compute()`, or its value from earlier in the running pass of `scope`'s App. */
  public get(scope: IConstruct, compute: () => T): T {
    const token = SynthPass.tokenOf(scope);
    if (token === undefined) return compute();
    if (this.token !== token) {
      this.value = compute();
      this.token = token;
    }
    return this.value as T;
  }
}
