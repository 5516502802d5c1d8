/**
 * Validation of a file-based catalog, ported from operator-registry `alpha/declcfg/declcfg_to_model.go`
 * (`ConvertToModel`) and `alpha/model/model.go` (`Package/Channel/Bundle.Validate`, `validateReplacesChain`),
 * which is what `opm validate` runs. Unlike opm, which stops at the first conversion error, every problem is
 * collected.
 */
import { FbcBlob, FbcChannelEntry, FbcFinding, FbcSchema } from './fbc-types';
import { FileBasedCatalog } from './file-based-catalog';
import { blobId, bundleVersionOf, channelEntriesOf, replacesChain, str } from './internal';

// blang/semver `Parse` (strict semver 2.0.0: no leading `v`, no missing parts).
const STRICT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Checks a file-based catalog the way `opm validate` does. */
export class FbcValidator {
  /**
   * Every problem of the catalog: its load problems, then the `opm validate` rules (package, channel, bundle and
   * upgrade-graph checks), each naming the file and line of the blob at fault. Empty when the catalog is valid.
   */
  public static validate(catalog: FileBasedCatalog): FbcFinding[] {
    const problems: FbcFinding[] = [...catalog.loadProblems];
    const add = (b: FbcBlob | undefined, message: string) =>
      problems.push({
        message: b?.location ? `${b.location.file}:${b.location.line}: ${message}` : message,
        ...(b?.location ? { location: b.location } : {}),
        ...(b ? { blob: blobId(b) } : {}),
      });

    // Packages (ConvertToModel; duplicate detection as in newer operator-registry releases).
    const packages = new Map<string, FbcBlob>();
    for (const p of catalog.ofSchema(FbcSchema.PACKAGE)) {
      const name = str(p.content.name) ?? '';
      if (name === '') {
        add(p, 'config contains package with no name');
        continue;
      }
      if (packages.has(name)) add(p, `duplicate package ${q(name)}`);
      else packages.set(name, p);
    }

    // Channels.
    const channels = new Map<string, Map<string, { blob: FbcBlob; entries: FbcChannelEntry[] }>>();
    const entryNames = new Map<string, Set<string>>(); // package -> entries not yet matched by a bundle
    for (const c of catalog.ofSchema(FbcSchema.CHANNEL)) {
      const pkg = str(c.content.package) ?? '';
      const name = str(c.content.name) ?? '';
      if (!packages.has(pkg)) {
        add(c, `unknown package ${q(pkg)} for channel ${q(name)}`);
        continue;
      }
      if (name === '') {
        add(c, `package ${q(pkg)} contains channel with no name`);
        continue;
      }
      if (!Array.isArray(c.content.entries)) {
        add(c, `package ${q(pkg)}, channel ${q(name)} has no entries list`);
      }
      const byName = channels.get(pkg) ?? new Map();
      channels.set(pkg, byName);
      if (byName.has(name)) {
        add(c, `package ${q(pkg)} has duplicate channel ${q(name)}`);
        continue;
      }
      const entries = channelEntriesOf(c.content);
      const seen = new Set<string>();
      for (const e of entries) {
        if (e.name === '') add(c, `invalid package ${q(pkg)}, channel ${q(name)}: entry with no name`);
        else if (seen.has(e.name)) add(c, `invalid package ${q(pkg)}, channel ${q(name)}: duplicate entry ${q(e.name)}`);
        seen.add(e.name);
        for (const [i, skip] of (e.skips ?? []).entries()) {
          if (skip === '') add(c, `invalid bundle ${q(e.name)}: skip[${i}] is empty`);
        }
      }
      byName.set(name, { blob: c, entries: entries.filter((e) => e.name !== '') });
      const names = entryNames.get(pkg) ?? new Set<string>();
      entries.forEach((e) => e.name && names.add(e.name));
      entryNames.set(pkg, names);
    }

    // Bundles.
    const bundleSeen = new Set<string>();
    const versions = new Map<string, Map<string, Set<string>>>(); // package -> version -> bundle names
    for (const b of catalog.ofSchema(FbcSchema.BUNDLE)) {
      const pkg = str(b.content.package) ?? '';
      const name = str(b.content.name) ?? '';
      if (pkg === '') {
        add(b, `package name must be set for bundle ${q(name)}`);
        continue;
      }
      if (!packages.has(pkg)) {
        add(b, `unknown package ${q(pkg)} for bundle ${q(name)}`);
        continue;
      }
      if (name === '') add(b, 'invalid bundle "": name must be set');
      const key = `${pkg}/${name}`;
      if (bundleSeen.has(key)) add(b, `package ${q(pkg)} has duplicate bundle ${q(name)}`);
      bundleSeen.add(key);
      const props = Array.isArray(b.content.properties) ? b.content.properties : [];
      const pkgProps = props.filter((p: any) => p && p.type === 'olm.package');
      if (pkgProps.length !== 1) {
        add(b, `package ${q(pkg)} bundle ${q(name)} must have exactly 1 "olm.package" property, found ${pkgProps.length}`);
      } else {
        const propPkg = str(pkgProps[0].value?.packageName) ?? '';
        if (propPkg !== pkg) add(b, `package ${q(pkg)} does not match "olm.package" property ${q(propPkg)}`);
        const version = bundleVersionOf(b.content) ?? '';
        if (!STRICT_SEMVER.test(version)) {
          add(b, `error parsing bundle version: bundle ${q(name)} has version ${q(version)}, which is not a semantic version`);
        } else {
          // validateUniqueBundleVersions: compare by normalized semver (build metadata is part of the string in opm).
          const byVersion = versions.get(pkg) ?? new Map<string, Set<string>>();
          versions.set(pkg, byVersion);
          const set = byVersion.get(version) ?? new Set<string>();
          set.add(name);
          byVersion.set(version, set);
        }
      }
      const hasObjects = props.some((p: any) => p && p.type === 'olm.bundle.object');
      if (!str(b.content.image) && !hasObjects) add(b, `invalid bundle ${q(name)}: bundle image must be set`);
      const inChannel = [...(channels.get(pkg)?.values() ?? [])].some((ch) => ch.entries.some((e) => e.name === name));
      if (!inChannel) add(b, `package ${q(pkg)}, bundle ${q(name)} not found in any channel entries`);
      entryNames.get(pkg)?.delete(name);
    }
    for (const [pkg, names] of [...entryNames.entries()].sort(byKey)) {
      if (names.size > 0) {
        add(packages.get(pkg), `no olm.bundle blobs found in package ${q(pkg)} for olm.channel entries [${[...names].sort().join(' ')}]`);
      }
    }

    // Model.Validate: packages, default channels, channel graphs, unique versions.
    for (const [pkg, pblob] of [...packages.entries()].sort(byKey)) {
      const chans = channels.get(pkg) ?? new Map();
      const def = str(pblob.content.defaultChannel) ?? '';
      if (def === '') {
        add(pblob, `invalid package ${q(pkg)}: default channel must be set`);
        if (chans.size === 0) add(pblob, `invalid package ${q(pkg)}: package must contain at least one channel`);
      } else if (!chans.has(def)) {
        // ConvertToModel adds an empty channel for a missing default channel, which then fails validation.
        add(pblob, `invalid package ${q(pkg)}: invalid channel ${q(def)}: channel must contain at least one bundle`);
      }
      for (const [chName, ch] of [...chans.entries()].sort(byKey)) {
        if (ch.entries.length === 0) {
          add(ch.blob, `invalid package ${q(pkg)}: invalid channel ${q(chName)}: channel must contain at least one bundle`);
          continue;
        }
        const graphProblem = FbcValidator.replacesChainProblem(ch.entries);
        if (graphProblem) add(ch.blob, `invalid package ${q(pkg)}: invalid channel ${q(chName)}: ${graphProblem}`);
      }
      const dups = [...(versions.get(pkg)?.entries() ?? [])].filter(([, names]) => names.size > 1).sort(byKey);
      if (dups.length > 0) {
        const list = dups.map(([v, names]) => `{${v}: [${[...names].sort().join(', ')}]}`).join(' ');
        add(pblob, `invalid package ${q(pkg)}: duplicate versions found in bundles: [${list}]`);
      }
    }

    // Deprecations (operator-registry `alpha/declcfg/declcfg_to_model.go`, ConvertToModel's deprecation loop, and
    // model.go `Deprecation.Validate`): known package, one blob per package, each entry a known bundle or channel of
    // that package or the package itself, no entry twice, a message on each.
    const deprecated = new Set<string>();
    for (const d of catalog.ofSchema(FbcSchema.DEPRECATIONS)) {
      const pkg = str(d.content.package) ?? '';
      if (!packages.has(pkg)) {
        add(d, `cannot apply deprecations to an unknown package ${q(pkg)}`);
        continue;
      }
      if (deprecated.has(pkg)) add(d, `expected a maximum of one deprecation per package: ${q(pkg)}`);
      deprecated.add(pkg);
      const references = new Set<string>();
      const entries: any[] = Array.isArray(d.content.entries) ? d.content.entries : [];
      entries.forEach((entry, j) => {
        const schema = str(entry?.reference?.schema) ?? '';
        const name = str(entry?.reference?.name) ?? '';
        if (schema === '') {
          add(d, `schema must be set for deprecation entry [${j}] for package ${q(pkg)}`);
          return;
        }
        const ref = JSON.stringify([schema, name]);
        if (references.has(ref)) add(d, `duplicate deprecation entry {schema: ${q(schema)}, name: ${q(name)}} for package ${q(pkg)}`);
        references.add(ref);
        if (schema === FbcSchema.BUNDLE) {
          if (!bundleSeen.has(`${pkg}/${name}`)) add(d, `cannot deprecate bundle ${q(name)} for package ${q(pkg)}: bundle not found`);
        } else if (schema === FbcSchema.CHANNEL) {
          if (!channels.get(pkg)?.has(name)) add(d, `cannot deprecate channel ${q(name)} for package ${q(pkg)}: channel not found`);
        } else if (schema === FbcSchema.PACKAGE) {
          if (name !== '') add(d, `package name must be empty for deprecated package ${q(pkg)} (specified ${q(name)})`);
        } else {
          add(d, `cannot deprecate object with schema ${q(schema)} referenced by entry ${j} for package ${q(pkg)}: object schema unknown`);
          return;
        }
        if (!str(entry?.message)) add(d, `invalid package ${q(pkg)}: invalid deprecation of ${schema} ${q(name)}: message must be set`);
      });
    }
    return problems;
  }

  /**
   * The heads of a channel: entries that no other entry replaces or skips (operator-registry `Channel.Head`).
   * Sorted by name.
   */
  public static channelHeads(entries: FbcChannelEntry[]): string[] {
    const incoming = new Set<string>();
    for (const e of entries) {
      if (e.replaces) incoming.add(e.replaces);
      (e.skips ?? []).forEach((s) => incoming.add(s));
    }
    return [...new Set(entries.map((e) => e.name).filter((n) => !incoming.has(n)))].sort();
  }

  /**
   * operator-registry `validateReplacesChain`: exactly one head, no cycle in the replaces chain, every entry either
   * on the chain from the head or skipped. Returns the problem, or undefined when the graph is fine.
   */
  public static replacesChainProblem(entries: FbcChannelEntry[]): string | undefined {
    const heads = FbcValidator.channelHeads(entries);
    if (heads.length === 0) return 'no channel head found in graph';
    if (heads.length > 1) return `multiple channel heads found in graph: ${heads.join(', ')}`;
    const byName = new Map(entries.map((e) => [e.name, e]));
    const skipped = new Set(entries.flatMap((e) => e.skips ?? []));
    const chain = replacesChain(heads[0], byName, skipped);
    if (typeof chain === 'string') return chain;
    const stranded = [...byName.keys()].filter((n) => !chain.has(n) && !skipped.has(n)).sort();
    if (stranded.length > 0) return `channel contains one or more stranded bundles: ${stranded.join(', ')}`;
    return undefined;
  }

  private constructor() {}
}

function q(s: string): string {
  return JSON.stringify(s);
}

function byKey<T>(a: [string, T], b: [string, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
