/**
 * Filters a file-based catalog down to a curated list, keeping the upgrade graph valid.
 *
 * Semantics follow oc-mirror's catalog filter (sherine-k/catalog-filter `pkg/filter/mirror-config/v1alpha1`,
 * used by openshift/oc-mirror v2) where it applies: only listed packages remain; `channels` selects channels;
 * a version range keeps the channel entries whose bundle version satisfies it; a channel emptied by a range is
 * dropped; a default channel that was filtered out must be replaced. Differences, on purpose:
 * - a package without channels or range keeps everything (oc-mirror keeps only the channel heads unless `full`);
 * - a default channel that was filtered out is fixed (the first remaining allowed channel) and reported as a
 *   note, instead of failing; an explicit `defaultChannel` that does not remain is a problem;
 * - when a range cuts a channel's graph into pieces, only the piece reachable from the highest remaining head
 *   is kept (the rest is reported), so the channel keeps exactly one head and no stranded bundle. No upgrade
 *   edge is invented: `replaces`/`skips` that point to removed bundles are kept, as OLM uses them to upgrade
 *   installed versions that are no longer in the catalog, and `opm validate` allows them.
 */
import * as semver from 'semver';
import { CuratedList, CuratedPackage } from './curated-list';
import { FbcBlob, FbcChannelEntry, FbcFinding, FbcSchema } from './fbc-types';
import { FbcValidator } from './fbc-validator';
import { FileBasedCatalog } from './file-based-catalog';
import { replacesChain, str } from './internal';

/** The result of filtering a catalog. */
export interface FbcFilterResult {
  /** The filtered catalog. */
  readonly catalog: FileBasedCatalog;
  /** Why the selection cannot be served (unknown package or channel, a range that empties a package...). */
  readonly problems: FbcFinding[];
  /** What the filter changed beyond the selection (default channel replaced, bundles cut from a graph), sorted. */
  readonly notes: string[];
}

/** What remains of one package after filtering. */
interface PackageSelection {
  readonly defaultChannel: string;
  readonly channels: Map<string, Set<string>>; // channel -> kept entry names
}

/** Filters file-based catalogs by a curated list. */
export class FbcFilter {
  /**
   * Keeps the packages, channels and versions of `packages` (see the file comment for the exact rules).
   * Deterministic: blobs keep their input order.
   */
  public static filter(catalog: FileBasedCatalog, packages: CuratedPackage[]): FbcFilterResult {
    const problems: FbcFinding[] = [];
    const notes: string[] = [];
    const selections = new Map<string, PackageSelection>();
    const known = catalog.packageNames;

    for (const p of packages) {
      if (!known.includes(p.name)) {
        problems.push({ message: `package ${q(p.name)} is not in the catalog; it has: ${list(known)}` });
        continue;
      }
      const sel = FbcFilter.selectPackage(catalog, p, problems, notes);
      if (sel) selections.set(p.name, sel);
    }

    const blobs: FbcBlob[] = [];
    for (const b of catalog.blobs) {
      const kept = FbcFilter.filterBlob(b, selections);
      if (kept) blobs.push(kept);
    }
    return { catalog: FileBasedCatalog.fromBlobs(blobs), problems, notes: notes.sort() };
  }

  private static selectPackage(catalog: FileBasedCatalog, p: CuratedPackage, problems: FbcFinding[], notes: string[]): PackageSelection | undefined {
    const available = catalog.channelNames(p.name);
    for (const c of p.channels ?? []) {
      if (!available.includes(c.name)) {
        problems.push({ message: `package ${q(p.name)} has no channel ${q(c.name)}; its channels: ${list(available)}` });
      }
    }
    const channels = new Map<string, Set<string>>();
    for (const ch of available) {
      if (!CuratedList.allowsChannel(p, ch)) continue;
      const all = catalog.channelEntries(p.name, ch);
      const inRange = all.filter((e) => {
        const v = catalog.bundleVersion(p.name, e.name);
        return v === undefined ? CuratedList.allowsVersion(p, ch, '') : CuratedList.allowsVersion(p, ch, v);
      });
      const kept = inRange.length === all.length
        ? new Set(all.map((e) => e.name))
        : FbcFilter.repairGraph(catalog, p.name, ch, inRange, problems, notes);
      const explicit = (p.channels ?? []).some((c) => c.name === ch);
      if (kept.size === 0) {
        if (explicit) {
          const range = [p.versionRange, p.channels?.find((c) => c.name === ch)?.versionRange].filter((r) => r !== undefined).join(' and ');
          problems.push({ message: `package ${q(p.name)} channel ${q(ch)}: version range ${range} leaves no bundle in the channel` });
        } else {
          notes.push(`package ${q(p.name)}: channel ${q(ch)} has no bundle in the allowed range and was removed`);
        }
        continue;
      }
      channels.set(ch, kept);
    }
    if (channels.size === 0) {
      problems.push({ message: `package ${q(p.name)}: nothing remains after filtering (check its channels and versionRange)` });
      return undefined;
    }
    const original = catalog.defaultChannel(p.name) ?? '';
    let defaultChannel = original;
    if (p.defaultChannel !== undefined) {
      if (!channels.has(p.defaultChannel)) {
        problems.push({ message: `package ${q(p.name)}: defaultChannel ${q(p.defaultChannel)} does not remain after filtering; remaining channels: ${list([...channels.keys()].sort())}` });
        return undefined;
      }
      defaultChannel = p.defaultChannel;
    } else if (!channels.has(original)) {
      // The oc-mirror bug this avoids: a filtered catalog whose defaultChannel points to a removed channel.
      const preferred = (p.channels ?? []).map((c) => c.name).find((c) => channels.has(c));
      defaultChannel = preferred ?? [...channels.keys()].sort()[0];
      notes.push(`package ${q(p.name)}: default channel ${q(original)} was filtered out; the filtered catalog uses ${q(defaultChannel)} (set defaultChannel to choose)`);
    }
    return { defaultChannel, channels };
  }

  /** Keeps the part of a range-cut channel that is reachable from its highest head (one head, nothing stranded). */
  private static repairGraph(
    catalog: FileBasedCatalog,
    pkg: string,
    ch: string,
    entries: FbcChannelEntry[],
    problems: FbcFinding[],
    notes: string[],
  ): Set<string> {
    if (entries.length === 0) return new Set();
    const heads = FbcValidator.channelHeads(entries);
    if (heads.length === 0) {
      problems.push({ message: `package ${q(pkg)} channel ${q(ch)}: no channel head remains after filtering (cycle in the upgrade graph)` });
      return new Set();
    }
    const head = [...heads].sort((a, b) => compareVersions(catalog.bundleVersion(pkg, b), catalog.bundleVersion(pkg, a)) || (a < b ? -1 : 1))[0];
    const byName = new Map(entries.map((e) => [e.name, e]));
    const chain = replacesChain(head, byName, new Set(entries.flatMap((e) => e.skips ?? [])));
    if (typeof chain === 'string') {
      problems.push({ message: `package ${q(pkg)} channel ${q(ch)}: ${chain}` });
      return new Set();
    }
    // Keep what the chain reaches plus, transitively, what kept entries skip.
    const keep = new Set([...chain].filter((n) => byName.has(n)));
    let grew = true;
    while (grew) {
      grew = false;
      for (const n of [...keep]) {
        for (const s of byName.get(n)?.skips ?? []) {
          if (byName.has(s) && !keep.has(s)) {
            keep.add(s);
            grew = true;
          }
        }
      }
    }
    const dropped = entries.map((e) => e.name).filter((n) => !keep.has(n)).sort();
    if (dropped.length > 0) {
      notes.push(`package ${q(pkg)} channel ${q(ch)}: ${dropped.join(', ')} removed: in range but not reachable from the channel head ${q(head)} once the range cut the upgrade graph`);
    }
    return keep;
  }

  private static filterBlob(b: FbcBlob, selections: Map<string, PackageSelection>): FbcBlob | undefined {
    const c = b.content;
    switch (b.schema) {
      case FbcSchema.PACKAGE: {
        const sel = selections.get(c.name);
        if (!sel) return undefined;
        return sel.defaultChannel === c.defaultChannel ? b : { ...b, content: { ...c, defaultChannel: sel.defaultChannel } };
      }
      case FbcSchema.CHANNEL: {
        const kept = selections.get(c.package)?.channels.get(c.name);
        if (!kept) return undefined;
        const original: any[] = Array.isArray(c.entries) ? c.entries : [];
        const entries = original.filter((e: any) => kept.has(str(e?.name) ?? ''));
        return entries.length === original.length ? b : { ...b, content: { ...c, entries } };
      }
      case FbcSchema.BUNDLE: {
        const sel = selections.get(c.package);
        if (!sel) return undefined;
        return [...sel.channels.values()].some((s) => s.has(c.name)) ? b : undefined;
      }
      case FbcSchema.DEPRECATIONS: {
        const sel = selections.get(c.package);
        if (!sel) return undefined;
        const original: any[] = Array.isArray(c.entries) ? c.entries : [];
        const entries = original.filter((e: any) => {
          const ref = e?.reference ?? {};
          if (ref.schema === FbcSchema.BUNDLE) return [...sel.channels.values()].some((s) => s.has(ref.name));
          if (ref.schema === FbcSchema.CHANNEL) return sel.channels.has(ref.name);
          return true;
        });
        if (entries.length === 0) return undefined;
        return entries.length === original.length ? b : { ...b, content: { ...c, entries } };
      }
      default: {
        const pkg = str(c.package);
        return pkg === undefined || pkg === '' || selections.has(pkg) ? b : undefined;
      }
    }
  }

  private constructor() {}
}

function compareVersions(a: string | undefined, b: string | undefined): number {
  const va = a !== undefined ? semver.valid(a) : null;
  const vb = b !== undefined ? semver.valid(b) : null;
  if (va && vb) return semver.compare(va, vb);
  if (va) return 1;
  if (vb) return -1;
  return 0;
}

function q(s: string): string {
  return JSON.stringify(s);
}

function list(xs: string[]): string {
  return xs.length === 0 ? '(none)' : xs.map((x) => q(x)).join(', ');
}
