// The plain types of file-based catalogs, shared by the loader, filter, validator, writer and their helpers.

/** The schemas of the FBC blobs this library understands (operator-registry `alpha/declcfg/declcfg.go`). */
export enum FbcSchema {
  /** `olm.package`: one per package, with its default channel. */
  PACKAGE = 'olm.package',
  /** `olm.channel`: a channel of a package and its upgrade-graph entries. */
  CHANNEL = 'olm.channel',
  /** `olm.bundle`: one version of a package, with its properties. */
  BUNDLE = 'olm.bundle',
  /** `olm.deprecations`: deprecation notices for a package, its channels or bundles. */
  DEPRECATIONS = 'olm.deprecations',
}

/** Where a blob was read. */
export interface FbcLocation {
  /** The file, relative to the loaded directory (or as given for a single file). */
  readonly file: string;
  /** 1-based line where the blob starts. */
  readonly line: number;
}

/** One problem found while loading, validating or filtering a catalog. */
export interface FbcFinding {
  /** What is wrong. */
  readonly message: string;
  /**
   * Where the offending blob was read.
   * @default - not tied to a single file (for example a missing package)
   */
  readonly location?: FbcLocation;
  /**
   * The offending blob, as `schema/package/name`.
   * @default - not tied to a single blob
   */
  readonly blob?: string;
}

/** One FBC blob: a JSON object with a `schema`. */
export interface FbcBlob {
  /** The blob's `schema` (see `FbcSchema`; other schemas are kept as they are). */
  readonly schema: string;
  /** The whole blob as read (JSON-compatible). */
  readonly content: any;
  /**
   * Where it was read.
   * @default - built in code
   */
  readonly location?: FbcLocation;
}

/** An entry of an `olm.channel` (operator-registry `declcfg.ChannelEntry`). */
export interface FbcChannelEntry {
  /** Bundle name. */
  readonly name: string;
  /**
   * The bundle this one replaces.
   * @default - none
   */
  readonly replaces?: string;
  /**
   * Bundles this one skips.
   * @default - none
   */
  readonly skips?: string[];
  /**
   * Semver range of versions this one replaces.
   * @default - none
   */
  readonly skipRange?: string;
}

/** How to write a catalog. */
export enum FbcFormat {
  /** `catalog.json`: a stream of indented JSON objects, as `opm render` writes. */
  JSON = 'json',
  /** `catalog.yaml`: YAML documents separated by `---`. */
  YAML = 'yaml',
}
