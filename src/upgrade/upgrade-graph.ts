/**
 * The upgrade graph of one channel, walked exactly as OLM's resolver does it
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 *
 * - the channel's entries are ordered by `sortChannel`: the single replaces chain from the channel head (the entry
 *   nobody replaces or skips), with every entry that some entry `skips` left out. More than one chain, no head, or a
 *   cycle is an error, and OLM resolves nothing in that channel;
 * - the candidates to replace the installed CSV are the entries of that order that `replaces` it, list it in `skips`,
 *   or whose `olm.skipRange` includes its version (`cache.Or(SkipRangeIncludesPredicate(*current.Version),
 *   ReplacesPredicate(current.Name))`, `ReplacesPredicate` matching `replaces` and `skips`,
 *   `pkg/controller/registry/resolver/cache/predicates.go`). The solver prefers them in that order, so OLM takes the
 *   first: the one closest to the head.
 *
 * `opm validate` is stricter than the resolver (operator-registry `alpha/model/model.go` `Channel.Head` and
 * `validateReplacesChain`: no stranded entries); `FbcValidator` checks that, this class models what OLM resolves.
 *
 * `olm.skipRange` is a blang/semver range (`SemverRange`); the curated version range is node-semver, as
 * `CuratedPackage.versionRange`: entries outside it are removed first, as a curated catalog built by `FbcFilter`
 * does.
 */
import * as semver from 'semver';
import { BlangSemver, SemverRange } from './blang-semver';
import { checkFromBundles, checkFromCatalog } from './input-checks';
import { clean, GraphOrigin } from './private';
import { OperatorBundle } from '../bundle/operator-bundle';
import { InputCheck, throwIfInvalid } from '../core/input-check';
import { FbcSchema } from '../fbc/fbc-types';
import { FileBasedCatalog } from '../fbc/file-based-catalog';

/** How an upgrade edge is declared (several at once are possible). */
export enum UpgradeEdgeKind {
  /** The target's `replaces` names the source. */
  REPLACES = 'replaces',
  /** The target's `skips` lists the source. */
  SKIPS = 'skips',
  /** The target's `olm.skipRange` includes the source's version. */
  SKIP_RANGE = 'skipRange',
}

/** One entry of a channel: a bundle and how it declares what it upgrades from. */
export interface UpgradeGraphEntry {
  /** CSV name, e.g. `etcdoperator.v0.9.4`. */
  readonly name: string;
  /**
   * Bundle version (`spec.version` / the `olm.package` property).
   * @default - unknown: no skipRange can include it, and no version range allows it
   */
  readonly version?: string;
  /**
   * The CSV it replaces.
   * @default - none
   */
  readonly replaces?: string;
  /**
   * CSVs it skips.
   * @default - none
   */
  readonly skips?: string[];
  /**
   * `olm.skipRange` (blang/semver range).
   * @default - none
   */
  readonly skipRange?: string;
}

/** One upgrade OLM would allow. */
export interface UpgradeEdge {
  /** The installed CSV. */
  readonly from: string;
  /**
   * Its version.
   * @default - unknown
   */
  readonly fromVersion?: string;
  /** The CSV OLM may replace it with. */
  readonly to: string;
  /**
   * Its version.
   * @default - unknown
   */
  readonly toVersion?: string;
  /** How the edge is declared, sorted. */
  readonly via: UpgradeEdgeKind[];
  /**
   * True for the candidate OLM picks from `from` (the first in channel order); false for all when `from` itself comes
   * first (a pre-release inside its own skipRange: OLM stays).
   */
  readonly preferred: boolean;
}

/** Props of `UpgradeGraph`. */
export interface UpgradeGraphProps {
  /** The package. */
  readonly packageName: string;
  /** The channel. */
  readonly channel: string;
  /** The channel's entries. */
  readonly entries: UpgradeGraphEntry[];
  /**
   * The bundles of the entries (matched by CSV name), for preflights and permission diffs.
   * @default - none
   */
  readonly bundles?: OperatorBundle[];
}

/** The upgrade graph of one channel of a package. */
export class UpgradeGraph {
  /**
   * A graph from bundles (registry+v1 directories or catalog bundles): each CSV's `spec.replaces`, `spec.skips` and
   * `olm.skipRange`. With `channel`, bundles whose channel annotation lists other channels are left out (bundles
   * without the annotation, e.g. from a catalog, are kept).
   *
   * @param bundles every version of the package
   * @param channel the channel @default - the first bundle's default channel, else every bundle
   */
  public static fromBundles(bundles: OperatorBundle[], channel?: string): UpgradeGraph {
    checkFromBundles(bundles, channel);
    const ch = channel ?? bundles.find((b) => b.defaultChannel !== undefined)?.defaultChannel ?? '';
    const inChannel = bundles.filter((b) => ch === '' || b.channels.length === 0 || b.channels.includes(ch));
    return origin({ api: 'UpgradeGraph.fromBundles(bundles, channel)', channels: [...new Set(bundles.flatMap((b) => b.channels))].sort() }, new UpgradeGraph({
      packageName: bundles.find((b) => b.packageName !== undefined)?.packageName ?? '',
      channel: ch,
      entries: inChannel.map((b) => clean({
        name: b.name,
        version: b.version,
        replaces: b.replaces,
        skips: b.skips.length > 0 ? [...b.skips] : undefined,
        skipRange: b.skipRange,
      })),
      bundles: inChannel,
    }));
  }

  /**
   * A graph from a file-based catalog's `olm.channel` (the entries' `replaces`, `skips`, `skipRange`) and the
   * versions of its `olm.bundle`s. No bundles are attached (see `fromCatalogPackage`).
   *
   * @param channel the channel @default - the package's defaultChannel
   */
  public static fromCatalog(catalog: FileBasedCatalog, packageName: string, channel?: string): UpgradeGraph {
    checkFromCatalog('fromCatalog', catalog, packageName, channel);
    const ch = channel ?? catalog.defaultChannel(packageName) ?? '';
    return origin({ api: 'UpgradeGraph.fromCatalog(catalog, packageName, channel)', channels: catalog.channelNames(packageName) }, new UpgradeGraph({
      packageName,
      channel: ch,
      entries: catalog.channelEntries(packageName, ch).map((e) => clean({ ...e, version: catalog.bundleVersion(packageName, e.name) })),
    }));
  }

  /**
   * `fromCatalog` for a catalog file or directory (read once), with the bundles of the channel's entries attached
   * (`OperatorBundle.fromCatalogBundle`: the entries must carry `olm.bundle.object` properties). Throws when the
   * catalog cannot be read or a bundle has no manifests, saying where.
   *
   * @param channel the channel @default - the package's defaultChannel
   */
  public static fromCatalogPackage(fileOrDirectory: string, packageName: string, channel?: string): UpgradeGraph {
    checkFromCatalog('fromCatalogPackage', fileOrDirectory, packageName, channel);
    const catalog = FileBasedCatalog.fromPath(fileOrDirectory);
    if (catalog.loadProblems.length > 0) {
      throw new Error(`UpgradeGraph.fromCatalogPackage: cannot read ${fileOrDirectory}: ${catalog.loadProblems.map((p) => p.message).join('; ')}`);
    }
    const graph = UpgradeGraph.fromCatalog(catalog, packageName, channel);
    const names = new Set(graph.entries.map((e) => e.name));
    const bundles = catalog.ofSchema(FbcSchema.BUNDLE)
      .filter((b) => b.content.package === packageName && names.has(b.content.name))
      .map((b) => OperatorBundle.fromCatalogBundle(b.content));
    return origin({ api: 'UpgradeGraph.fromCatalogPackage(file, packageName, channel)', channels: catalog.channelNames(packageName) },
      new UpgradeGraph({ packageName, channel: graph.channel, entries: graph.entries, bundles }));
  }

  /** Why `versionRange` is not a node-semver range, or undefined. */
  public static versionRangeProblem(versionRange: string): string | undefined {
    return semver.validRange(versionRange) === null ? `versionRange ${JSON.stringify(versionRange)} is not a valid node-semver range` : undefined;
  }

  /** The package. */
  public readonly packageName: string;
  /** The channel. */
  public readonly channel: string;
  /** The entries, as given. */
  public readonly entries: UpgradeGraphEntry[];
  /**
   * How the graph was made, when a static factory made it (messages name that API and the channels that exist).
   * @internal
   */
  public _origin?: GraphOrigin;
  private readonly bundlesByName: Map<string, OperatorBundle>;
  private readonly skipRanges = new Map<string, SemverRange>();
  private readonly skipRangeProblems: string[] = [];
  /** `sortChannel` per version range (the graph is immutable). */
  private readonly orders = new Map<string, UpgradeGraphEntry[] | string>();

  constructor(props: UpgradeGraphProps) {
    const unknown = new InputCheck();
    unknown.knownProps(props, 'UpgradeGraphProps', 'UpgradeGraph');
    throwIfInvalid(unknown, 'UpgradeGraph');
    this.packageName = props.packageName;
    this.channel = props.channel;
    this.entries = props.entries.map((e) => ({ ...e }));
    this.bundlesByName = new Map((props.bundles ?? []).map((b) => [b.name, b]));
    for (const e of this.entries) {
      if (e.skipRange === undefined) continue;
      // OLM ignores a skipRange it cannot parse (the entry then has no SkipRange predicate)
      const problem = SemverRange.problem(e.skipRange);
      if (problem === undefined) this.skipRanges.set(e.name, SemverRange.parse(e.skipRange));
      else this.skipRangeProblems.push(`${e.name}: olm.skipRange ${JSON.stringify(e.skipRange)} is not a blang/semver range (${problem}); OLM ignores it`);
    }
  }

  /**
   * What OLM cannot resolve in this channel (`sortChannel` errors) and skipRanges it ignores.
   */
  public get problems(): string[] {
    const sorted = this.sorted(undefined);
    return [...(typeof sorted === 'string' ? [sorted] : []), ...this.skipRangeProblems];
  }

  /**
   * The channel in OLM's order (`sortChannel`): the replaces chain from the head, skipped entries left out. Empty
   * when OLM cannot order the channel (see `problems`).
   *
   * @param versionRange keep only entries whose version satisfies this node-semver range first @default - every entry
   */
  public channelOrder(versionRange?: string): string[] {
    const sorted = this.sorted(versionRange);
    return typeof sorted === 'string' ? [] : sorted.map((e) => e.name);
  }

  /**
   * The graph with only the entries whose version satisfies every one of `versionRanges` (node-semver), as a curated
   * catalog built by `FbcFilter` keeps them; bundles stay attached.
   */
  public restrict(versionRanges: string[]): UpgradeGraph {
    if (versionRanges.length === 0) return this;
    const keep = (e: UpgradeGraphEntry) => versionRanges.every((r) => this.inRange(r).includes(e));
    const bundles = [...this.bundlesByName.values()];
    return new UpgradeGraph({ packageName: this.packageName, channel: this.channel, entries: this.entries.filter(keep), bundles });
  }

  /** The channel head (first of `channelOrder`), if OLM can order the channel. */
  public get head(): string | undefined {
    return this.channelOrder()[0];
  }

  /** The bundle attached for `name`, if any. */
  public bundle(name: string): OperatorBundle | undefined {
    return this.bundlesByName.get(name);
  }

  /** The version of entry `name` (or of its attached bundle). */
  public versionOf(name: string): string | undefined {
    return this.entries.find((e) => e.name === name)?.version ?? this.bundlesByName.get(name)?.version;
  }

  /**
   * The candidates OLM considers to replace the installed CSV `from` (with version `fromVersion`), in OLM's
   * preference order; the first is `preferred`. Never `from` itself (no edge to itself, see the code).
   *
   * @param from the installed CSV
   * @param versionRange only entries whose version satisfies this node-semver range @default - every entry
   * @param fromVersion the installed version @default - the version of entry `from`
   */
  public successors(from: string, versionRange?: string, fromVersion?: string): UpgradeEdge[] {
    const sorted = this.sorted(versionRange);
    if (typeof sorted === 'string') return [];
    const version = fromVersion ?? this.versionOf(from);
    // OLM reads the installed CSV's version with semver.ParseTolerant (operator-framework/api OperatorVersion)
    const tolerant = version === undefined ? undefined : BlangSemver.normalizeTolerant(version);
    const out: UpgradeEdge[] = [];
    // The installed CSV itself can be a candidate: a pre-release inside its own skipRange (0.9.4-clusterwide is below
    // 0.9.4, so `<0.9.4` includes it). The resolver's filter keeps it (resolver.go getSubscriptionVariables), but it
    // is no upgrade: step_resolver.go ResolveSteps makes no step for an operator that every matching Subscription
    // already has as its current CSV ("all matching subscriptions are up to date"). So no edge to itself; and when
    // it comes first in channel order, the solver prefers it (candidates in order, then the installed one) and OLM
    // stays where it is: no other candidate is preferred.
    let selfFirst = false;
    for (const e of sorted) {
      const via: UpgradeEdgeKind[] = [];
      if (e.replaces === from) via.push(UpgradeEdgeKind.REPLACES);
      if ((e.skips ?? []).includes(from)) via.push(UpgradeEdgeKind.SKIPS);
      const range = this.skipRanges.get(e.name);
      if (range !== undefined && tolerant !== undefined && range.includes(tolerant)) via.push(UpgradeEdgeKind.SKIP_RANGE);
      if (via.length === 0) continue;
      if (e.name === from) {
        if (out.length === 0) selfFirst = true;
        continue;
      }
      const toVersion = e.version ?? this.bundlesByName.get(e.name)?.version;
      out.push(clean({ from, fromVersion: version, to: e.name, toVersion, via, preferred: out.length === 0 && !selfFirst }));
    }
    return out;
  }

  /**
   * Every upgrade OLM would allow starting from the installed CSV `from`, transitively: the edges from `from` and
   * from every CSV reachable from it, in breadth-first order (candidates in OLM's preference order).
   *
   * @param versionRange only entries whose version satisfies this node-semver range @default - every entry
   */
  public allowedUpgrades(from: string, versionRange?: string): UpgradeEdge[] {
    const out: UpgradeEdge[] = [];
    const seen = new Set<string>([from]);
    const queue = [from];
    while (queue.length > 0) {
      const cur = queue.shift()!;
      for (const edge of this.successors(cur, versionRange)) {
        out.push(edge);
        if (!seen.has(edge.to)) {
          seen.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    return out;
  }

  /** `from` and every CSV reachable from it (see `allowedUpgrades`), in breadth-first order. */
  public reachable(from: string, versionRange?: string): string[] {
    return [...new Set([from, ...this.allowedUpgrades(from, versionRange).map((e) => e.to)])];
  }

  private sorted(versionRange: string | undefined): UpgradeGraphEntry[] | string {
    const key = versionRange ?? '';
    let sorted = this.orders.get(key);
    if (sorted === undefined) {
      sorted = sortChannel(this.inRange(versionRange), this.channel, this.packageName);
      this.orders.set(key, sorted);
    }
    return sorted;
  }

  private inRange(versionRange: string | undefined): UpgradeGraphEntry[] {
    if (versionRange === undefined) return this.entries;
    return this.entries.filter((e) => {
      const v = e.version === undefined ? null : semver.valid(e.version);
      return v !== null && semver.validRange(versionRange) !== null && semver.satisfies(v, versionRange);
    });
  }
}

/**
 * OLM `sortChannel` (`pkg/controller/registry/resolver/resolver.go`): the replaces chain from the single head,
 * entries some entry skips left out; the error text of OLM when there is no head, a cycle or several chains.
 */
function sortChannel(bundles: UpgradeGraphEntry[], channelName: string, packageName: string): UpgradeGraphEntry[] | string {
  if (bundles.length < 1) return [];
  const lookup = new Map<string, UpgradeGraphEntry>();
  for (const b of bundles) lookup.set(b.name, b);
  const replacedBy = new Set<UpgradeGraphEntry>();
  const replaces = new Map<UpgradeGraphEntry, UpgradeGraphEntry>();
  const skipped = new Set<string>();
  for (const b of bundles) {
    if (b.replaces !== undefined && b.replaces !== '') {
      const r = lookup.get(b.replaces);
      if (r !== undefined) {
        replacedBy.add(r);
        replaces.set(b, r);
      }
    }
    for (const s of b.skips ?? []) {
      const r = lookup.get(s);
      if (r !== undefined) {
        replacedBy.add(r);
        skipped.add(s);
      }
    }
  }
  const heads = bundles.filter((b) => !replacedBy.has(b));
  if (heads.length === 0) {
    return `no channel heads (entries not replaced by another entry) found in channel ${JSON.stringify(channelName)} of package ${JSON.stringify(packageName)}`;
  }
  const chains: UpgradeGraphEntry[][] = [];
  for (const head of heads) {
    const chain: UpgradeGraphEntry[] = [];
    const visited = new Set<UpgradeGraphEntry>();
    let current = head;
    for (;;) {
      visited.add(current);
      if (!skipped.has(current.name)) chain.push(current);
      const next = replaces.get(current);
      if (next === undefined) break;
      if (visited.has(next)) {
        return `a cycle exists in the chain of replacement beginning with ${JSON.stringify(head.name)} in channel ${JSON.stringify(channelName)} of package ${JSON.stringify(packageName)}`;
      }
      current = next;
    }
    chains.push(chain);
  }
  if (chains.length > 1) {
    const described = chains.map((c) => (c.length === 0 ? '[]' : c.length === 1 ? c[0].name : `${c[0].name}...${c[c.length - 1].name}`));
    return `a unique replacement chain within a channel is required to determine the relative order between channel entries, but ${chains.length} replacement chains were found in channel ${JSON.stringify(channelName)} of package ${JSON.stringify(packageName)}: ${described.join(', ')}`;
  }
  return chains[0];
}

/** Records how `graph` was made (messages name that API). */
function origin(o: GraphOrigin, graph: UpgradeGraph): UpgradeGraph {
  graph._origin = o;
  return graph;
}
