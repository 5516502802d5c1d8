/**
 * The curated selection as mirroring configuration, so the curated catalog image can be built with the standard
 * tools:
 * - oc-mirror v2 `ImageSetConfiguration` (`mirror.openshift.io/v2alpha1`; openshift/oc-mirror
 *   `v2/internal/pkg/api/v2alpha1/type_config.go` and `type_config_include.go`): `mirror.operators[]` with
 *   `catalog`, `targetCatalog`, `targetTag` and `packages[]` `{name, defaultChannel, channels[] {name,
 *   minVersion, maxVersion}}`;
 * - the catalog filter's `FilterConfiguration` (`olm.operatorframework.io/filter/mirror/v1alpha1`, kind
 *   `FilterConfiguration`; sherine-k/catalog-filter `pkg/filter/mirror-config/v1alpha1/mirror-config.go`, which
 *   oc-mirror v2 builds from the ImageSetConfiguration): `packages[] {name, defaultChannel, versionRange,
 *   channels[] {name, versionRange}}`.
 *
 * Both are derived from the filtered catalog, not from the curated ranges: each remaining channel gets the lowest
 * and highest remaining bundle version as `minVersion`/`maxVersion` (oc-mirror turns them into
 * `>=min <=max`). oc-mirror would otherwise keep only channel heads.
 */
import * as semver from 'semver';
import { FbcSchema } from '../fbc/fbc-types';
import { FileBasedCatalog } from '../fbc/file-based-catalog';
import { channelEntriesOf, str } from '../fbc/internal';

const TARGET_CATALOG = /^([a-z0-9]+((?:[._]|__|[-]*)[a-z0-9]+)*)(\/([a-z0-9]+((?:[._]|__|[-]*)[a-z0-9]+)*))*$/;

/** Where the curated image comes from and goes to, for the `ImageSetConfiguration`. */
export interface ImageSetConfigurationOptions {
  /** The catalog image to mirror from, e.g. `registry.redhat.io/redhat/community-operator-index:v4.18`. */
  readonly sourceCatalogImage: string;
  /**
   * oc-mirror `targetCatalog`: path of the curated catalog in the mirror registry (no tag, no digest).
   * @default - oc-mirror keeps the source path
   */
  readonly targetCatalog?: string;
  /**
   * oc-mirror `targetTag`: tag of the curated catalog image.
   * @default - oc-mirror keeps the source tag
   */
  readonly targetTag?: string;
}

interface ChannelBounds {
  readonly name: string;
  readonly min?: string;
  readonly max?: string;
}

interface PackageSelection {
  readonly name: string;
  readonly defaultChannel?: string;
  readonly channels: ChannelBounds[];
}

/** Builds mirroring configuration documents from a filtered catalog. */
export class MirrorConfig {
  /** oc-mirror v2 API version of `ImageSetConfiguration`. */
  public static readonly IMAGE_SET_API_VERSION = 'mirror.openshift.io/v2alpha1';
  /** API version of the catalog filter configuration used by oc-mirror v2. */
  public static readonly FILTER_API_VERSION = 'olm.operatorframework.io/filter/mirror/v1alpha1';

  /**
   * An oc-mirror v2 `ImageSetConfiguration` mirroring exactly the packages and channels of `filtered`, each
   * channel bounded by its lowest and highest remaining version.
   */
  public static imageSetConfiguration(filtered: FileBasedCatalog, options: ImageSetConfigurationOptions): any {
    if (!options.sourceCatalogImage) throw new Error('ImageSetConfiguration: sourceCatalogImage must be set (the catalog image to mirror from)');
    // oc-mirror v2 type_config.go IsValidPathComponent: path components only, no tag or digest.
    if (options.targetCatalog !== undefined && !TARGET_CATALOG.test(options.targetCatalog)) {
      throw new Error(`ImageSetConfiguration: targetCatalog ${JSON.stringify(options.targetCatalog)} is not valid: use lower-case path components separated by "/" (e.g. "platform/curated-operators"), without a tag or digest (set targetTag for the tag)`);
    }
    // The tag grammar of distribution/reference.
    if (options.targetTag !== undefined && !/^[\w][\w.-]{0,127}$/.test(options.targetTag)) {
      throw new Error(`ImageSetConfiguration: targetTag ${JSON.stringify(options.targetTag)} is not a valid image tag (letters, digits, "_", "." and "-", at most 128, not starting with "." or "-")`);
    }
    return {
      kind: 'ImageSetConfiguration',
      apiVersion: MirrorConfig.IMAGE_SET_API_VERSION,
      mirror: {
        operators: [
          {
            catalog: options.sourceCatalogImage,
            ...(options.targetCatalog ? { targetCatalog: options.targetCatalog } : {}),
            ...(options.targetTag ? { targetTag: options.targetTag } : {}),
            packages: MirrorConfig.selection(filtered).map((p) => ({
              name: p.name,
              ...(p.defaultChannel ? { defaultChannel: p.defaultChannel } : {}),
              channels: p.channels.map((c) => ({
                name: c.name,
                ...(c.min ? { minVersion: c.min } : {}),
                ...(c.max ? { maxVersion: c.max } : {}),
              })),
            })),
          },
        ],
      },
    };
  }

  /**
   * The `FilterConfiguration` (`olm.operatorframework.io/filter/mirror/v1alpha1`) selecting the same content:
   * per channel `versionRange: ">=min <=max"`, written the way oc-mirror converts min/max versions.
   */
  public static filterConfiguration(filtered: FileBasedCatalog): any {
    return {
      apiVersion: MirrorConfig.FILTER_API_VERSION,
      kind: 'FilterConfiguration',
      packages: MirrorConfig.selection(filtered).map((p) => ({
        name: p.name,
        ...(p.defaultChannel ? { defaultChannel: p.defaultChannel } : {}),
        channels: p.channels.map((c) => {
          const range = [c.min ? `>=${c.min}` : '', c.max ? `<=${c.max}` : ''].filter((x) => x).join(' ');
          return { name: c.name, ...(range ? { versionRange: range } : {}) };
        }),
      })),
    };
  }

  /**
   * Where the mirroring files would select other bundles than the filtered catalog holds, one message per channel,
   * sorted. oc-mirror applies `>=min <=max` with Masterminds/semver: every bundle of the source channel in that
   * interval is selected, and a pre-release only when both bounds are pre-releases. So a curated range with a gap
   * inside a channel (or pre-releases) makes oc-mirror mirror more (or fewer) bundles than the filtered catalog.
   * Empty when both select the same bundles.
   */
  public static differences(source: FileBasedCatalog, filtered: FileBasedCatalog): string[] {
    const out: string[] = [];
    for (const p of MirrorConfig.selection(filtered)) {
      for (const c of p.channels) {
        if (!c.min || !c.max) continue;
        const min = c.min;
        const max = c.max;
        const bothPre = semver.prerelease(min) !== null && semver.prerelease(max) !== null;
        const kept = new Set(filtered.channelEntries(p.name, c.name).map((e) => e.name));
        const selected = new Set(
          source
            .channelEntries(p.name, c.name)
            .map((e) => e.name)
            .filter((n) => {
              const v = semver.valid(source.bundleVersion(p.name, n) ?? '');
              if (v === null) return false;
              if (semver.prerelease(v) !== null && !bothPre) return false;
              return semver.compare(v, min) >= 0 && semver.compare(v, max) <= 0;
            }),
        );
        const extra = [...selected].filter((n) => !kept.has(n)).sort();
        const missing = [...kept].filter((n) => !selected.has(n)).sort();
        if (extra.length === 0 && missing.length === 0) continue;
        const parts = [
          ...(extra.length > 0 ? [`also selects ${extra.join(', ')}`] : []),
          ...(missing.length > 0 ? [`does not select ${missing.join(', ')}`] : []),
        ];
        out.push(`package ${JSON.stringify(p.name)} channel ${JSON.stringify(c.name)}: the oc-mirror range ">=${min} <=${max}" ${parts.join(' and ')}; the filtered catalog (catalog/) is exact, build the image from it with opm`);
      }
    }
    return out.sort();
  }

  private static selection(filtered: FileBasedCatalog): PackageSelection[] {
    return filtered.packageNames.map((name) => ({
      name,
      defaultChannel: filtered.defaultChannel(name),
      channels: filtered
        .ofSchema(FbcSchema.CHANNEL)
        .filter((b) => b.content.package === name)
        .map((b) => {
          const versions = channelEntriesOf(b.content)
            .map((e) => filtered.bundleVersion(name, e.name))
            .map((v) => (v !== undefined ? semver.valid(v) : null))
            .filter((v): v is string => v !== null)
            .sort(semver.compare);
          return { name: str(b.content.name) ?? '', min: versions[0], max: versions[versions.length - 1] };
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }));
  }

  private constructor() {}
}
