// Helpers of the upgrade folder; not exported from the package.

/** A copy of `o` without its undefined fields (exact objects for jsii structs and `toEqual`). */
export function clean<T>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o as any)) if (v !== undefined) out[k] = v;
  return out;
}
