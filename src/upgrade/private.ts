// Helpers of the upgrade folder; not exported from the package.

/** How an UpgradeGraph was made: error messages name the API the user called and the channels that exist. */
export interface GraphOrigin {
  /** e.g. `UpgradeGraph.fromBundles(bundles, channel)` */
  readonly api: string;
  /** The channels the source has (bundle channel annotations, or the catalog's channels of the package). */
  readonly channels: string[];
}

/** A copy of `o` without its undefined fields (exact objects for jsii structs and `toEqual`). */
export function clean<T>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o as any)) if (v !== undefined) out[k] = v;
  return out;
}
