/**
 * File-based catalogs (FBC): the `olm.package`, `olm.channel`, `olm.bundle` and `olm.deprecations` blobs that
 * `opm` reads from JSON or YAML files (operator-registry `alpha/declcfg/load.go`). Loading never throws for bad
 * content: each malformed file or blob becomes an `FbcProblem` naming the file and line, so callers can report
 * every problem at once.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { bundleVersionOf, channelEntriesOf, nonEmpty, str, uniqueSorted } from './internal';

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
export interface FbcProblem {
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

/** An immutable file-based catalog: blobs in a stable order plus the problems found while loading them. */
export class FileBasedCatalog {
  /**
   * Parses one file's content. `.json` content is a stream of JSON objects (what `opm render` writes); anything
   * else is read as YAML documents. Malformed content becomes `loadProblems`, never an exception.
   *
   * @param content the file content
   * @param fileName the file name used to pick the format and in problem locations
   */
  public static fromString(content: string, fileName: string): FileBasedCatalog {
    const problems: FbcProblem[] = [];
    const blobs = fileName.toLowerCase().endsWith('.json')
      ? parseJsonStream(content, fileName, problems)
      : parseYamlStream(content, fileName, problems);
    return new FileBasedCatalog(blobs, problems);
  }

  /**
   * Loads a file or, recursively, every `.json`, `.yaml` and `.yml` file of a directory (sorted by path, as
   * `opm` walks it). A missing path is a load problem. `.indexignore` files are not interpreted.
   */
  public static fromPath(fileOrDirectory: string): FileBasedCatalog {
    if (!fs.existsSync(fileOrDirectory)) {
      return new FileBasedCatalog([], [{ message: `catalog path ${JSON.stringify(fileOrDirectory)} does not exist` }]);
    }
    if (fs.statSync(fileOrDirectory).isFile()) {
      return FileBasedCatalog.fromString(fs.readFileSync(fileOrDirectory, 'utf-8'), path.basename(fileOrDirectory));
    }
    const parts: FileBasedCatalog[] = [];
    for (const rel of listCatalogFiles(fileOrDirectory, '')) {
      parts.push(FileBasedCatalog.fromString(fs.readFileSync(path.join(fileOrDirectory, rel), 'utf-8'), rel));
    }
    return FileBasedCatalog.merge(parts);
  }

  /** Builds a catalog from blobs (no load problems). */
  public static fromBlobs(blobs: FbcBlob[]): FileBasedCatalog {
    return new FileBasedCatalog(blobs, []);
  }

  /** Concatenates catalogs (blobs and load problems, in order). */
  public static merge(catalogs: FileBasedCatalog[]): FileBasedCatalog {
    return new FileBasedCatalog(
      catalogs.flatMap((c) => c.blobs),
      catalogs.flatMap((c) => c.loadProblems),
    );
  }

  /** The blobs, in load order. */
  public readonly blobs: FbcBlob[];
  /** Problems found while loading (malformed JSON/YAML, blobs without a schema). */
  public readonly loadProblems: FbcProblem[];

  private constructor(blobs: FbcBlob[], loadProblems: FbcProblem[]) {
    this.blobs = blobs.map((b) => ({ ...b }));
    this.loadProblems = [...loadProblems];
  }

  /** Names of the `olm.package` blobs, sorted. */
  public get packageNames(): string[] {
    return uniqueSorted(this.ofSchema(FbcSchema.PACKAGE).map((b) => str(b.content.name)).filter(nonEmpty));
  }

  /**
   * The package's `defaultChannel`.
   * @returns undefined when the package is unknown or has none
   */
  public defaultChannel(packageName: string): string | undefined {
    const pkg = this.ofSchema(FbcSchema.PACKAGE).find((b) => b.content.name === packageName);
    return pkg ? str(pkg.content.defaultChannel) : undefined;
  }

  /** Names of the package's channels, sorted. */
  public channelNames(packageName: string): string[] {
    return uniqueSorted(
      this.ofSchema(FbcSchema.CHANNEL)
        .filter((b) => b.content.package === packageName)
        .map((b) => str(b.content.name))
        .filter(nonEmpty),
    );
  }

  /** The entries of a channel, as read (empty when the channel is unknown). */
  public channelEntries(packageName: string, channelName: string): FbcChannelEntry[] {
    const ch = this.ofSchema(FbcSchema.CHANNEL).find((b) => b.content.package === packageName && b.content.name === channelName);
    return ch ? channelEntriesOf(ch.content) : [];
  }

  /** Names of the package's `olm.bundle` blobs, sorted. */
  public bundleNames(packageName: string): string[] {
    return uniqueSorted(
      this.ofSchema(FbcSchema.BUNDLE)
        .filter((b) => b.content.package === packageName)
        .map((b) => str(b.content.name))
        .filter(nonEmpty),
    );
  }

  /**
   * A bundle's version: the `version` of its `olm.package` property.
   * @returns undefined when the bundle or the property is missing
   */
  public bundleVersion(packageName: string, bundleName: string): string | undefined {
    const b = this.ofSchema(FbcSchema.BUNDLE).find((x) => x.content.package === packageName && x.content.name === bundleName);
    return b ? bundleVersionOf(b.content) : undefined;
  }

  /** The blobs with this schema, in load order. */
  public ofSchema(schema: string): FbcBlob[] {
    return this.blobs.filter((b) => b.schema === schema);
  }
}

function listCatalogFiles(root: string, rel: string): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listCatalogFiles(root, child));
    else if (/\.(json|ya?ml)$/i.test(e.name)) out.push(child);
  }
  return out;
}

function toBlob(value: unknown, file: string, line: number, problems: FbcProblem[]): FbcBlob | undefined {
  if (value === null || value === undefined) return undefined; // empty document
  const location = { file, line };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ message: `${file}:${line}: a catalog blob must be an object, got ${Array.isArray(value) ? 'a list' : typeof value}`, location });
    return undefined;
  }
  const schema = (value as any).schema;
  if (typeof schema !== 'string' || schema === '') {
    problems.push({ message: `${file}:${line}: blob has no "schema" field`, location });
    return undefined;
  }
  return { schema, content: value, location };
}

function parseYamlStream(content: string, file: string, problems: FbcProblem[]): FbcBlob[] {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(content, { lineCounter, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const blobs: FbcBlob[] = [];
  for (const doc of list) {
    const start = doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0;
    const line = lineCounter.linePos(start).line;
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      const errLine = err.linePos?.[0]?.line ?? line;
      problems.push({ message: `${file}:${errLine}: malformed YAML: ${err.message.split('\n')[0]}`, location: { file, line: errLine } });
      continue;
    }
    const blob = toBlob(doc.toJS(), file, line, problems);
    if (blob) blobs.push(blob);
  }
  return blobs;
}

function parseJsonStream(content: string, file: string, problems: FbcProblem[]): FbcBlob[] {
  const blobs: FbcBlob[] = [];
  let i = 0;
  let line = 1;
  const n = content.length;
  while (i < n) {
    const c = content[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    // One top-level value: scan to its end, honouring strings.
    const start = i;
    const startLine = line;
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (; i < n; i++) {
      const ch = content[i];
      if (ch === '\n') line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') {inString = true;} else if (ch === '{' || ch === '[') {depth++;} else if (ch === '}' || ch === ']') {
        depth--;
        if (depth <= 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /\s/.test(ch)) {break;}
    }
    const text = content.slice(start, i);
    try {
      const blob = toBlob(JSON.parse(text), file, startLine, problems);
      if (blob) blobs.push(blob);
    } catch (e) {
      problems.push({ message: `${file}:${startLine}: malformed JSON: ${(e as Error).message}`, location: { file, line: startLine } });
      return blobs; // the rest of the stream cannot be trusted
    }
  }
  return blobs;
}
