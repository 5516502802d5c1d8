/**
 * File-based catalogs (FBC): the `olm.package`, `olm.channel`, `olm.bundle` and `olm.deprecations` blobs that
 * `opm` reads from JSON or YAML files (operator-registry `alpha/declcfg/load.go`). Loading never throws for bad
 * content: each malformed file or blob becomes an `FbcFinding` naming the file and line, so callers can report
 * every problem at once. Decoding follows opm's (apimachinery `NewYAMLOrJSONDecoder` over sigs.k8s.io/yaml and
 * Go `encoding/json`): duplicate mapping keys are accepted and the last one wins (a `loadWarnings` entry names the
 * file, line and key), `<<` merge keys are resolved, a byte-order mark and CRLF line ends are accepted. Limits:
 * file size, YAML alias expansions and nesting depth (see docs/catalog.md), each breach a load problem naming the
 * file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FbcBlob, FbcChannelEntry, FbcFinding, FbcSchema } from './fbc-types';
import { bundleVersionOf, channelEntriesOf, nonEmpty, str, uniqueSorted } from './internal';
import { decodeJsonValues, decodeYamlDocuments, DecodedDocument, escapeControl as oneLineText, LOADER_LIMITS, readAtMost, sizeProblem } from '../core/yaml-or-json';

/** An immutable file-based catalog: blobs in a stable order plus the problems found while loading them. */
export class FileBasedCatalog {
  /**
   * Parses one file's content. Content whose first non-space character is `{` is a stream of JSON objects (what
   * `opm render` writes); anything else is read as YAML documents, whatever the file name (opm's decoder sniffs the
   * content the same way). Malformed content becomes `loadProblems`, never an exception.
   *
   * @param content the file content
   * @param fileName the file name used in problem locations
   */
  public static fromString(content: string, fileName: string): FileBasedCatalog {
    const file = typeof fileName === 'string' ? oneLineText(fileName) : '<catalog>';
    if (typeof content !== 'string') {
      return new FileBasedCatalog([], [{ message: `${file}: catalog content must be text, got ${content === null ? 'null' : typeof content}`, location: { file, line: 1 } }]);
    }
    const tooBig = sizeProblem(content, LOADER_LIMITS.catalogFileBytes);
    if (tooBig !== undefined) return new FileBasedCatalog([], [{ message: `${file}: ${tooBig}`, location: { file, line: 1 } }]);
    const problems: FbcFinding[] = [];
    const warnings: FbcFinding[] = [];
    // apimachinery NewYAMLOrJSONDecoder (what opm's WalkMetasReader uses) picks the format from the content, not
    // the file name: a JSON stream when the first non-space character is '{', else YAML documents.
    const docs = /^\uFEFF?\s*\{/.test(content) ? decodeJsonValues(content) : decodeYamlDocuments(content);
    const blobs = toBlobs(docs, file, problems, warnings);
    return new FileBasedCatalog(blobs, problems, warnings);
  }

  /**
   * Loads a file or, recursively, every `.json`, `.yaml` and `.yml` file of a directory (sorted by path, as
   * `opm` walks it). A missing path is a load problem. `.indexignore` files are not interpreted.
   */
  public static fromPath(fileOrDirectory: string): FileBasedCatalog {
    if (typeof fileOrDirectory !== 'string' || fileOrDirectory === '') {
      return new FileBasedCatalog([], [{ message: `catalog path must be a non-empty path, got ${JSON.stringify(fileOrDirectory) ?? String(fileOrDirectory)}` }]);
    }
    if (!fs.existsSync(fileOrDirectory)) {
      return new FileBasedCatalog([], [{ message: `catalog path ${JSON.stringify(fileOrDirectory)} does not exist` }]);
    }
    if (!fs.statSync(fileOrDirectory).isDirectory()) {
      return FileBasedCatalog.readFile(fileOrDirectory, path.basename(fileOrDirectory));
    }
    const parts: FileBasedCatalog[] = [];
    const unreadable: FbcFinding[] = [];
    const rootReal = fs.realpathSync(fileOrDirectory);
    for (const rel of listCatalogFiles(fileOrDirectory, '', unreadable)) {
      parts.push(FileBasedCatalog.readFile(path.join(fileOrDirectory, rel), rel, rootReal));
    }
    parts.push(new FileBasedCatalog([], unreadable));
    return FileBasedCatalog.merge(parts);
  }

  /**
   * Builds a catalog from blobs. A blob without a `schema` or whose `content` is not an object (possible from plain
   * JavaScript) is left out and reported in `loadProblems`.
   */
  public static fromBlobs(blobs: FbcBlob[]): FileBasedCatalog {
    if (!Array.isArray(blobs)) {
      return new FileBasedCatalog([], [{ message: `FileBasedCatalog.fromBlobs: 'blobs' must be a list of blobs, got ${blobs === null ? 'null' : typeof blobs}` }]);
    }
    const ok: FbcBlob[] = [];
    const problems: FbcFinding[] = [];
    blobs.forEach((b, i) => {
      const content = b !== null && typeof b === 'object' ? (b as any).content : undefined;
      if (content === null || typeof content !== 'object' || Array.isArray(content) || typeof b.schema !== 'string' || b.schema === '') {
        problems.push({ message: `FileBasedCatalog.fromBlobs: blobs[${i}] must have a non-empty 'schema' and a 'content' object` });
        return;
      }
      ok.push(b);
    });
    return new FileBasedCatalog(ok, problems);
  }

  /** Concatenates catalogs (blobs and load problems, in order). */
  public static merge(catalogs: FileBasedCatalog[]): FileBasedCatalog {
    // from plain JavaScript anything can come in: only catalogs are merged
    const parts = Array.isArray(catalogs) ? catalogs.filter((c) => c instanceof FileBasedCatalog) : [];
    return new FileBasedCatalog(
      parts.flatMap((c) => c.blobs),
      parts.flatMap((c) => c.loadProblems),
      parts.flatMap((c) => c.loadWarnings),
    );
  }

  /**
   * Reads one catalog file, with the size limit checked before reading it. Inside a catalog folder (`root`, its real
   * path) a file that is a link resolving outside the folder is refused, not read (nothing of it is quoted), as the
   * bundle loader refuses links out of a bundle.
   */
  private static readFile(file: string, name: string, root?: string): FileBasedCatalog {
    const shown = oneLineText(name);
    let content: string;
    try {
      const real = fs.realpathSync(file);
      if (root !== undefined && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
        return new FileBasedCatalog([], [{
          message: `${shown}: is a symbolic link that resolves outside the catalog folder; the loader reads only files inside it. Fix: copy the file into the catalog`,
          location: { file: shown, line: 1 },
        }]);
      }
      const stat = fs.statSync(real);
      const limit = LOADER_LIMITS.catalogFileBytes;
      // a FIFO or device would block or never end: refused, not opened
      if (!stat.isFile()) {
        return new FileBasedCatalog([], [{ message: `${shown}: is not a regular file (a FIFO, socket or device); a catalog holds only files`, location: { file: shown, line: 1 } }]);
      }
      const tooBig = () => new FileBasedCatalog([], [{
        message: `${shown}: file is ${stat.size > limit ? stat.size : `more than ${limit}`} bytes, over the limit of ${limit} bytes for a catalog file`,
        location: { file: shown, line: 1 },
      }]);
      if (stat.size > limit) return tooBig();
      // read with a real byte limit: files of /proc report size 0
      // eslint-disable-next-line no-bitwise
      const fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
      let text: string | undefined;
      try {
        // the file checked above, not one swapped in since (a FIFO would block)
        const opened = fs.fstatSync(fd);
        if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) {
          return new FileBasedCatalog([], [{ message: `${shown}: changed while it was read; a catalog holds only regular files`, location: { file: shown, line: 1 } }]);
        }
        text = readAtMost(fd, limit);
      } finally {
        fs.closeSync(fd);
      }
      if (text === undefined) return tooBig();
      content = text;
    } catch (e) {
      // unreadable (permissions), a broken link, a link to a folder: a load problem, never an exception
      return new FileBasedCatalog([], [{ message: `${shown}: cannot read the file: ${oneLineText((e as Error).message ?? String(e))}`, location: { file: shown, line: 1 } }]);
    }
    return FileBasedCatalog.fromString(content, name);
  }

  /** The blobs, in load order. */
  public readonly blobs: FbcBlob[];
  /** Problems found while loading (malformed JSON/YAML, blobs without a schema, a loader limit exceeded). */
  public readonly loadProblems: FbcFinding[];
  /** What opm accepts but deserves attention (duplicate mapping keys: the last one wins), naming file and line. */
  public readonly loadWarnings: FbcFinding[];

  private constructor(blobs: FbcBlob[], loadProblems: FbcFinding[], loadWarnings: FbcFinding[] = []) {
    this.blobs = blobs.map((b) => ({ ...b }));
    this.loadProblems = [...loadProblems];
    this.loadWarnings = [...loadWarnings];
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

/** The catalog files below `root`, sorted by path; folders that cannot be listed become problems. Iterative. */
function listCatalogFiles(root: string, start: string, problems: FbcFinding[]): string[] {
  const out: string[] = [];
  const pending = [start];
  while (pending.length > 0) {
    const rel = pending.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch (e) {
      const shown = oneLineText(rel === '' ? '.' : rel);
      problems.push({ message: `${shown}: cannot list the folder: ${oneLineText((e as Error).message ?? String(e))}`, location: { file: shown, line: 1 } });
      continue;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) pending.push(child);
      else if (/\.(json|ya?ml)$/i.test(e.name)) out.push(child);
    }
  }
  // path order, as before: compare segment by segment, so a/b.json comes before a-b/c.json like a recursive walk
  return out.sort((a, b) => cmpPath(a.split('/'), b.split('/')));
}

function cmpPath(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      // in a recursive walk of sorted entries, siblings compare by name
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return a.length - b.length;
}

function toBlobs(docs: DecodedDocument[], file: string, problems: FbcFinding[], warnings: FbcFinding[]): FbcBlob[] {
  const blobs: FbcBlob[] = [];
  for (const doc of docs) {
    for (const w of doc.warnings) warnings.push({ message: `${file}:${w.line}: ${w.message}`, location: { file, line: w.line } });
    if (doc.error !== undefined) {
      problems.push({ message: `${file}:${doc.error.line}: ${doc.error.message}`, location: { file, line: doc.error.line } });
      continue;
    }
    const blob = toBlob(doc.value, file, doc.line, problems);
    if (blob) blobs.push(blob);
  }
  return blobs;
}

function toBlob(value: unknown, file: string, line: number, problems: FbcFinding[]): FbcBlob | undefined {
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
