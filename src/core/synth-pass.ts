/**
 * Internal: "one synthesis pass of this App is running". `TenancyApp` validates and writes its App once per
 * `synth()`; nothing changes the constructs in between, so results computed during the pass (the audit of the App)
 * hold until it ends. Outside a pass (a plain cdk8s `App`, which validates once per Chart) callers must detect
 * changes themselves. Not re-exported from the package.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CACHING } from './content-cache';
import { L1Json } from './l1-json';

interface Pass {
  /** `root.node.findAll()`, once per pass. */
  all?: IConstruct[];
  /** The `ApiObject`s of `all`, in its order, once per pass. */
  apiObjects?: ApiObject[];
  /** Objects' JSON read before the writing (the audit's bindings), until the writing takes it. */
  json?: Map<object, unknown>;
  /**
   * `PassMemo` values by the construct they were computed for: a flat list of (memo, owner, value) per construct
   * (a few each). Dropped by `releaseMemosOf`, `releaseMemos` and at the end of the pass.
   */
  memos?: Map<IConstruct, unknown[]>;
  /** `releaseMemos` was called: memos compute without keeping anything for the rest of the pass. */
  memosReleased?: boolean;
}

/** What `SynthPass.json` renders: a cdk8s `ApiObject`. */
interface Renderable extends IConstruct {
  toJson(): any;
}

const PASS_CACHES = new WeakMap<IConstruct, Pass>();
/** Passes running now (most code runs outside any: `PassMemo` then skips the walk to the root). */
let running = 0;

export class SynthPass {
  /** Runs `fn` as one pass over `root`'s App; nested calls join the running pass. */
  public static run<T>(root: IConstruct, fn: () => T): T {
    if (PASS_CACHES.has(root)) return fn();
    PASS_CACHES.set(root, {});
    running++;
    try {
      return fn();
    } finally {
      running--;
      PASS_CACHES.delete(root);
    }
  }

  /** A token of the running pass of `root`'s App (a new object per pass), if one is running. */
  public static current(root: IConstruct): object | undefined {
    return PASS_CACHES.get(root);
  }

  /**
   * Ends the memos of the running pass of `root`'s App (`PassMemo`): their values are dropped, and for the rest of
   * the pass they compute without keeping anything. `TenancyApp` calls it once the checks and the warnings are
   * done, so that nothing they kept is alive while the files are written.
   */
  public static releaseMemos(root: IConstruct): void {
    const pass = PASS_CACHES.get(root);
    if (pass === undefined) return;
    pass.memos = undefined;
    pass.memosReleased = true;
  }

  /**
   * Drops the memos computed for `scope` in the running pass (they are computed again if asked for). `TenancyApp`
   * calls it once a construct's errors and warnings are done, so that what its checks shared lives no longer than
   * that: short-lived, it never reaches V8's old generation, which no full collection shrinks again before the
   * process ends (what sets peak memory at 5,000 tenants).
   */
  public static releaseMemosOf(scope: IConstruct): void {
    passOf(scope)?.memos?.delete(scope);
  }

  /**
   * `scope.node.findAll()`; for the root of an App in a running pass, one list for the whole pass (the validations,
   * the audit, the warnings and the writing each walked 70,000 constructs at 5,000 tenants). Callers must not modify it.
   */
  public static findAll(scope: IConstruct): IConstruct[] {
    const pass = scope.node.scope === undefined ? PASS_CACHES.get(scope) : undefined;
    if (pass === undefined) return scope.node.findAll();
    return pass.all ??= scope.node.findAll();
  }

  /**
   * The `ApiObject`s among `findAll(root)`, in its order: for the App's root in a running pass, one list for the whole
   * pass (the audit, the duplicate and admission-policy checks each looked at 70,000 constructs at 5,000 tenants to
   * find 40,000 objects, through cdk8s's `instanceof` test). Callers must not modify it.
   */
  public static apiObjects(root: IConstruct): ApiObject[] {
    const pass = root.node.scope === undefined ? PASS_CACHES.get(root) : undefined;
    if (pass !== undefined && pass.apiObjects !== undefined) return pass.apiObjects;
    const found: ApiObject[] = [];
    for (const c of SynthPass.findAll(root)) if (c instanceof ApiObject) found.push(c);
    if (pass !== undefined) pass.apiObjects = found;
    return found;
  }

  /**
   * `o.toJson()`; in a running pass of its App, computed once for the pass and kept for `takeJson` (the audit reads
   * every binding's JSON while validating, the writing needs it again: rendering an object is what a synthesis
   * spends most on). Callers must not modify it.
   */
  public static json(o: Renderable): any {
    const pass = running === 0 ? undefined : PASS_CACHES.get(rootOf(o));
    if (pass === undefined) return L1Json.of(o);
    const cache = pass.json ??= new Map();
    if (cache.has(o)) return cache.get(o);
    const json = L1Json.of(o);
    cache.set(o, json);
    return json;
  }

  /** The JSON `json` kept for `o` in the running pass, forgotten (so it can be collected once written); else `o.toJson()`. */
  public static takeJson(o: Renderable): any {
    const cache = running === 0 ? undefined : PASS_CACHES.get(rootOf(o))?.json;
    if (cache === undefined || !cache.has(o)) return L1Json.of(o);
    const json = cache.get(o);
    cache.delete(o);
    return json;
  }

  private constructor() {}
}

/** The running pass of `scope`'s App (its root found up the scopes), if any. */
function passOf(scope: IConstruct): Pass | undefined {
  return running === 0 ? undefined : PASS_CACHES.get(rootOf(scope));
}

/** `c.node.root` without the array of every scope `node.root` builds. */
function rootOf(c: IConstruct): IConstruct {
  let root = c;
  for (let up = root.node.scope; up !== undefined; up = up.node.scope) root = up;
  return root;
}

/**
 * A value computed at most once per synthesis pass for each owner and construct: while `TenancyApp` validates and
 * writes, nothing changes the constructs, so what a check computed from them holds until the pass ends (a tenant's
 * preflight, read by its errors, its warnings and its report). Outside a pass (a plain cdk8s App, a direct call)
 * it computes every time, as before. The values live in the pass, by the construct they were computed for, until
 * `SynthPass.releaseMemosOf(scope)` or `releaseMemos`: a memo (one per module, usually) holds nothing itself, and
 * owners get no field.
 */
export class PassMemo<T> {
  /** `compute()`, or its value for `owner` from earlier in the running pass of `scope`'s App. */
  public get(scope: IConstruct, owner: object, compute: () => T): T {
    const pass = passOf(scope);
    if (pass === undefined || pass.memosReleased === true || !CACHING.enabled) return compute();
    const memos = pass.memos ??= new Map();
    const found = memos.get(scope);
    if (found !== undefined) {
      for (let i = 0; i < found.length; i += 3) if (found[i] === this && found[i + 1] === owner) return found[i + 2] as T;
    }
    const value = compute();
    // released while computing: keep nothing
    if (pass.memos === memos) {
      const entries = memos.get(scope);
      if (entries === undefined) memos.set(scope, [this, owner, value]);
      else entries.push(this, owner, value);
    }
    return value;
  }
}
