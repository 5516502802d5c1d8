/**
 * Internal: what the constructs of one App register for each other, in one place (docs/architecture.md, "State and
 * caches"). A construct that changes how another behaves (the tenant that checks its children's names, the App's
 * version targets, a construct's warning producers, the first admission policy of an App) does it through the
 * `AppContext` of its construct tree, obtained from any construct of the tree with `AppContext.of(scope)`: never
 * through a module-level map. Each kind of registration is an `AppSlot`, declared beside the code that reads it and
 * listed in docs/architecture.md (test/core/module-state.test.ts reads that list). Not re-exported.
 */
import { IConstruct } from 'constructs';

/**
 * One kind of per-App registration: its name (as docs/architecture.md lists it) and its empty value, created the
 * first time a construct of the App asks for it. Declare it once, as a module constant, beside the code that reads it.
 */
export class AppSlot<T> {
  /**
   * @param name the name docs/architecture.md lists it under
   * @param initial the slot's value in an App that registered nothing yet (a new, empty collection)
   */
  public constructor(public readonly name: string, private readonly initial: () => T) {}

  /** The slot's empty value for a new App. */
  public create(): T {
    return this.initial();
  }
}

/**
 * The per-App registrations of one construct tree (an App and every construct below it: a construct never changes
 * its tree, so the context of a construct never changes either).
 */
export class AppContext {
  /** The context of `scope`'s construct tree (created with the tree's first registration). */
  public static of(scope: IConstruct): AppContext {
    const root = rootOf(scope);
    let context = CONTEXTS.get(root);
    if (context === undefined) CONTEXTS.set(root, context = new AppContext());
    return context;
  }

  /** The value of `slot` in `scope`'s App, if a construct of that App registered it (nothing is created). */
  public static find<T>(scope: IConstruct, slot: AppSlot<T>): T | undefined {
    return CONTEXTS.get(rootOf(scope))?.values.get(slot) as T | undefined;
  }

  private readonly values = new Map<AppSlot<unknown>, unknown>();

  private constructor() {}

  /** The value of `slot` in this App (its empty value, kept, on the first call). */
  public get<T>(slot: AppSlot<T>): T {
    let value = this.values.get(slot) as T | undefined;
    if (value === undefined) this.values.set(slot, value = slot.create());
    return value;
  }

  /** Replaces the value of `slot` in this App (an App-wide setting, e.g. the App's version targets). */
  public set<T>(slot: AppSlot<T>, value: T): void {
    this.values.set(slot, value);
  }
}

/**
 * The one registry of per-App state: each construct tree's root -> its context. Weak, so an App that is no longer
 * referenced takes its registrations with it.
 */
const CONTEXTS = new WeakMap<IConstruct, AppContext>();

/** `c.node.root` without the array of every scope `node.root` builds (this runs for every construct). */
function rootOf(c: IConstruct): IConstruct {
  let root = c;
  for (let up = root.node.scope; up !== undefined; up = up.node.scope) root = up;
  return root;
}
