/**
 * Internal: "one synthesis pass of this App is running". `TenancyApp` validates and writes its App once per
 * `synth()`; nothing changes the constructs in between, so results computed during the pass (the audit of the App)
 * hold until it ends. Outside a pass (a plain cdk8s `App`, which validates once per Chart) callers must detect
 * changes themselves. Not re-exported from the package.
 */
import { IConstruct } from 'constructs';

const ACTIVE = new WeakMap<IConstruct, object>();

export class SynthPass {
  /** Runs `fn` as one pass over `root`'s App; nested calls join the running pass. */
  public static run<T>(root: IConstruct, fn: () => T): T {
    if (ACTIVE.has(root)) return fn();
    ACTIVE.set(root, {});
    try {
      return fn();
    } finally {
      ACTIVE.delete(root);
    }
  }

  /** A token of the running pass of `root`'s App (a new object per pass), if one is running. */
  public static current(root: IConstruct): object | undefined {
    return ACTIVE.get(root);
  }

  private constructor() {}
}
