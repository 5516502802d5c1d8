/**
 * The curated list: which packages, channels and versions tenants may install from a curated catalog. Pure
 * logic, no constructs: the `CuratedCatalog` construct, the catalog filter and the admission policy all read it.
 */
import * as semver from 'semver';

/** One allowed channel of a package. */
export interface CuratedChannel {
  /** Channel name (`olm.channel` name, Subscription `spec.channel`). */
  readonly name: string;
  /**
   * Semver range of the bundle versions allowed in this channel (node-semver syntax, e.g. `>=3.2.0 <3.3.0`).
   * When both this and the package's `versionRange` are set, a version must satisfy both.
   * @default - the package's `versionRange`
   */
  readonly versionRange?: string;
}

/** One allowed package. */
export interface CuratedPackage {
  /** Package name (`olm.package` name, Subscription `spec.name`). */
  readonly name: string;
  /**
   * The allowed channels. Subscriptions to this package must then name one of them in `spec.channel`.
   * @default - every channel of the package; Subscriptions may leave `spec.channel` empty
   */
  readonly channels?: CuratedChannel[];
  /**
   * Semver range of the allowed bundle versions (node-semver syntax, e.g. `>=1.2.0 <2.0.0`).
   * @default - every version
   */
  readonly versionRange?: string;
  /**
   * The default channel of the filtered catalog. Needed when the catalog's default channel is filtered out and
   * more than one channel remains.
   * @default - the catalog's default channel if it remains, else the first remaining channel of `channels`
   */
  readonly defaultChannel?: string;
}

/** Checks and queries a curated list. */
export class CuratedList {
  /**
   * Problems with the list itself: empty list, unnamed or duplicate packages or channels, invalid semver ranges,
   * a `defaultChannel` outside `channels`. Empty when the list is fine.
   */
  public static problems(packages: CuratedPackage[]): string[] {
    if (!Array.isArray(packages)) return [`the curated list must be a list of packages, got ${packages === null ? 'null' : typeof packages}`];
    const bad = packages.findIndex((p) => p === null || typeof p !== 'object' || Array.isArray(p)
      || (p.name !== undefined && typeof p.name !== 'string') || (p.versionRange !== undefined && typeof p.versionRange !== 'string')
      || (p.channels !== undefined && (!Array.isArray(p.channels) || p.channels.some((c) => c === null || typeof c !== 'object' || typeof c.name !== 'string'))));
    if (bad >= 0) return [`packages[${bad}] must be an object { name: string, channels?: [{ name: string }], versionRange?: string }`];
    const out: string[] = [];
    if (packages.length === 0) out.push('the curated list is empty: no package could be installed from this catalog');
    const seen = new Set<string>();
    packages.forEach((p, i) => {
      const where = `packages[${i}]`;
      if (!p.name) out.push(`${where}: the package name is empty`);
      else if (seen.has(p.name)) out.push(`${where}: package ${JSON.stringify(p.name)} is listed twice; merge the entries`);
      seen.add(p.name);
      if (p.versionRange !== undefined && semver.validRange(p.versionRange) === null) {
        out.push(`${where} (${p.name}): versionRange ${JSON.stringify(p.versionRange)} is not a valid semver range`);
      }
      const channelNames = new Set<string>();
      (p.channels ?? []).forEach((c, j) => {
        if (!c.name) out.push(`${where}.channels[${j}] (${p.name}): the channel name is empty`);
        else if (channelNames.has(c.name)) out.push(`${where}.channels[${j}] (${p.name}): channel ${JSON.stringify(c.name)} is listed twice`);
        channelNames.add(c.name);
        if (c.versionRange !== undefined && semver.validRange(c.versionRange) === null) {
          out.push(`${where}.channels[${j}] (${p.name}/${c.name}): versionRange ${JSON.stringify(c.versionRange)} is not a valid semver range`);
        }
      });
      if (p.channels && p.channels.length === 0) {
        out.push(`${where} (${p.name}): channels is an empty list; omit it to allow every channel or name at least one`);
      }
      if (p.defaultChannel !== undefined && p.channels && p.channels.length > 0 && !channelNames.has(p.defaultChannel)) {
        out.push(`${where} (${p.name}): defaultChannel ${JSON.stringify(p.defaultChannel)} is not one of the allowed channels`);
      }
    });
    return out;
  }

  /**
   * Whether `version` is allowed for the package in `channel`: it must satisfy the package's and the channel's
   * `versionRange` (node-semver `satisfies`, pre-releases only when the range names one, as oc-mirror's
   * Masterminds/semver does). A version that is not semver is never allowed under a range.
   */
  public static allowsVersion(pkg: CuratedPackage, channel: string, version: string): boolean {
    const ranges = [pkg.versionRange, pkg.channels?.find((c) => c.name === channel)?.versionRange].filter((r): r is string => r !== undefined);
    if (ranges.length === 0) return true;
    const v = semver.valid(version);
    if (v === null) return false;
    return ranges.every((r) => semver.satisfies(v, r));
  }

  /** Whether the package allows `channel` (every channel when `channels` is not set). */
  public static allowsChannel(pkg: CuratedPackage, channel: string): boolean {
    return pkg.channels === undefined || pkg.channels.some((c) => c.name === channel);
  }

  private constructor() {}
}
