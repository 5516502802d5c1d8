/**
 * Every file the library writes goes through here (`TenancyApp`'s manifests, the GitOps layout, TENANCY.md,
 * WARNINGS.txt, construct metadata, catalog artifacts):
 *
 * - written to a temporary file in its folder (`O_CREAT | O_EXCL | O_NOFOLLOW`), then renamed over the target: a
 *   reader never sees half a file, and a symbolic link at the target (a committed `WARNINGS.txt -> ../../.ci/run`)
 *   is replaced by the file, never written through (`rename(2)` replaces the link itself); in a staging folder that
 *   no one reads before it is swapped in whole (the GitOps layout's), each file is created in place with the same
 *   flags instead (nothing there to replace, nobody to see half of it: one `rename(2)` less per file);
 * - every folder between the output directory and the file must be a real folder: a symbolic link there is refused
 *   with an error naming it (the output directory itself is the caller's choice and may be a link);
 * - file names longer than a file system allows (255 bytes) never reach it: `OutputFiles.cappedName` shortens them
 *   with a hash suffix, deterministically;
 * - an error of the file system (ENOSPC, ENAMETOOLONG, EACCES, EROFS, ...) becomes an `OutputWriteError` naming the
 *   file, the reason and the fix, instead of a raw Node error.
 *
 * `OutputFiles.swap` replaces entries of a folder with those of a staging folder only once the staging folder is
 * whole, and puts the old entries back when a rename fails.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The file-system calls the writer makes (Node's `fs`; tests inject failures). */
export interface OutputFsOps {
  lstatSync(p: string): fs.Stats;
  mkdirSync(p: string): unknown;
  openSync(p: string, flags: number, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  /**
   * Creates a new file with text (UTF-8) in one call: open exclusively (`wx`: `O_CREAT | O_EXCL`, which also refuses a
   * link at the path), write it all, close (Node's `writeFileSync`: one call into Node per file). Without it, text is
   * written with `openSync`, `writeSync` and `closeSync`.
   */
  writeTextFileSync?(p: string, text: string, mode: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(p: string): void;
  rmSync(p: string, options: { recursive: boolean; force: boolean }): void;
  readlinkSync(p: string): string;
}

const nodeOps: OutputFsOps = {
  lstatSync: (p) => fs.lstatSync(p),
  mkdirSync: (p) => fs.mkdirSync(p),
  openSync: (p, flags, mode) => fs.openSync(p, flags, mode),
  writeSync: (fd, b, o, l) => fs.writeSync(fd, b, o, l),
  writeTextFileSync: (p, text, mode) => fs.writeFileSync(p, text, { flag: 'wx', mode }),
  closeSync: (fd) => fs.closeSync(fd),
  renameSync: (a, b) => fs.renameSync(a, b),
  unlinkSync: (p) => fs.unlinkSync(p),
  rmSync: (p, o) => fs.rmSync(p, o),
  readlinkSync: (p) => fs.readlinkSync(p),
};

let ops: OutputFsOps = nodeOps;

/** The longest file name (bytes) the writer makes: below the 255 bytes of ext4, XFS, btrfs, APFS, NTFS. */
export const MAX_FILE_NAME_BYTES = 240;

/** What the writer reports when the file system refuses a write. */
export class OutputWriteError extends Error {
  /** The Node error code (`ENOSPC`, `ENAMETOOLONG`, ...), or `ELINK` for a symbolic link refused. */
  public readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'OutputWriteError';
    this.code = code;
  }
}

const REASONS: { [code: string]: [string, string] } = {
  ENOSPC: ['no space left on the device', 'free space on the file system of the output directory, then synthesize again'],
  EDQUOT: ['the disk quota is exhausted', 'free space or raise the quota, then synthesize again'],
  ENAMETOOLONG: ['the file name or path is too long for the file system', 'use a shorter output directory path'],
  EACCES: ['permission denied', 'make the output directory writable by this user'],
  EPERM: ['operation not permitted', 'make the output directory writable by this user'],
  EROFS: ['the file system is read-only', 'write to a writable output directory'],
  EISDIR: ['a folder is in the way of the file', 'remove the folder, then synthesize again'],
  ENOTDIR: ['a file is in the way of a folder', 'remove the file, then synthesize again'],
  EEXIST: ['a file is in the way of a folder', 'remove the file, then synthesize again'],
  EMFILE: ['too many open files', 'raise the open-file limit (ulimit -n)'],
  EIO: ['an input/output error of the device', 'check the device of the output directory'],
};

/** Whether `e` is an error of the file system (a Node error with an `E...` code, or an `OutputWriteError`). */
export function isFileSystemError(e: unknown): boolean {
  if (e instanceof OutputWriteError) return true;
  const code = (e as any)?.code;
  return e instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof (e as any).syscall === 'string';
}

/** `e` as an `OutputWriteError` about `what` (a file or folder). */
export function asOutputWriteError(e: unknown, what: string, context = ''): OutputWriteError {
  if (e instanceof OutputWriteError) {
    if (context === '') return e;
    const at = e.message.lastIndexOf('. Fix: ');
    const message = at < 0 ? `${e.message}${context}` : `${e.message.slice(0, at)}${context}${e.message.slice(at)}`;
    return new OutputWriteError(message, e.code);
  }
  const code = String((e as any)?.code ?? 'EUNKNOWN');
  const [reason, fix] = REASONS[code] ?? [String((e as any)?.message ?? e), 'check the output directory, then synthesize again'];
  return new OutputWriteError(`cannot write ${what}: ${code} (${reason})${context}. Fix: ${fix}`, code);
}

/**
 * `name` when it fits in `MAX_FILE_NAME_BYTES` bytes, else its start (cut at a character boundary), `-` and the first
 * 12 hex digits of the SHA-256 of the whole name, then `suffix`: the same name always gives the same file name, and two
 * long names that share their start get different ones.
 */
export function cappedName(base: string, suffix: string): string {
  const whole = `${base}${suffix}`;
  if (Buffer.byteLength(whole, 'utf8') <= MAX_FILE_NAME_BYTES) return whole;
  const hash = crypto.createHash('sha256').update(base, 'utf8').digest('hex').slice(0, 12);
  const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(suffix, 'utf8') - hash.length - 1;
  let start = '';
  let bytes = 0;
  for (const ch of base) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > room) break;
    start += ch;
    bytes += n;
  }
  return `${start}-${hash}${suffix}`;
}

/** Whether `p` exists (a link counts, whatever it points to). */
export function lexists(p: string): boolean {
  try {
    ops.lstatSync(p);
    return true;
  } catch (e) {
    if ((e as any)?.code === 'ENOENT') return false;
    throw asOutputWriteError(e, p);
  }
}

/** Removes `p` (a folder with its content; a link itself, never what it points to); nothing when absent. */
export function removeEntry(p: string): void {
  try {
    ops.rmSync(p, { recursive: true, force: true });
  } catch (e) {
    throw asOutputWriteError(e, p);
  }
}

/** Renames `from` to `to` (a file, folder or link; the target replaced as `rename(2)` does). */
export function renameEntry(from: string, to: string): void {
  try {
    ops.renameSync(from, to);
  } catch (e) {
    throw asOutputWriteError(e, to);
  }
}

let tempCounter = 0;

/** Options of an `OutputWriter`. */
export interface OutputWriterOptions {
  /**
   * The root is a staging folder this synthesis made and no one reads before it is swapped in whole
   * (`swapEntries`): a half-written file there is never seen, so each file is created in place with
   * `O_CREAT | O_EXCL | O_NOFOLLOW` (never through a link; when anything is already there, through a temporary file
   * and a rename as elsewhere). One `open`, `write` and `close` per file, no `rename`.
   * @default false
   */
  readonly staging?: boolean;
}

/**
 * Writes files below one root folder (created when missing), each through a temporary file and a rename (in a
 * staging folder: created in place, see `OutputWriterOptions.staging`), never through a symbolic link (see the module
 * comment). Folders below the root are checked once each.
 */
export class OutputWriter {
  private readonly folders = new Set<string>();
  /** Folders already made or checked, by their `/`-separated path below the root ('' for the root). */
  private readonly byRel = new Map<string, string>();
  private readonly staging: boolean;

  /** `root`: the output directory (created; it may itself be a link the caller chose). */
  constructor(public readonly root: string, options: OutputWriterOptions = {}) {
    this.staging = options.staging === true;
  }

  /** Writes `content` to `rel` (`/`-separated, below the root); returns the file's path. */
  public write(rel: string, content: string | Uint8Array): string {
    const slash = rel.lastIndexOf('/');
    const relDir = slash < 0 ? '' : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    let dir = this.byRel.get(relDir);
    if (dir === undefined) {
      // normalized (as path.join makes it), so that a plain name is joined by a separator: path.join's result
      dir = relDir === '' ? path.join(this.folder([]), '.') : this.folder(relParts(relDir));
      this.byRel.set(relDir, dir);
    }
    relParts(name);
    const file = dir === '.' ? name : dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
    if (!this.staging || !writeNew(file, content)) writeThroughRename(dir, file, content);
    return file;
  }

  /** Creates the folder `rel` below the root (each level a real folder, no link); returns its path. */
  public mkdir(rel: string): string {
    return this.folder(rel === '' ? [] : relParts(rel));
  }

  private folder(parts: string[]): string {
    let dir = this.root;
    if (!this.folders.has(dir)) {
      try {
        fs.mkdirSync(dir, { recursive: true });
      } catch (e) {
        throw asOutputWriteError(e, `the output directory ${dir}`);
      }
      this.folders.add(dir);
    }
    for (const part of parts) {
      dir = path.join(dir, part);
      if (this.folders.has(dir)) continue;
      realFolder(this.root, dir);
      this.folders.add(dir);
    }
    return dir;
  }
}

/** `dir` is a real folder (created when missing); a link or file there is refused. */
function realFolder(root: string, dir: string): void {
  // made when missing: mkdir(2) never follows a link at `dir` (EEXIST), and only then is what is there looked at
  try {
    ops.mkdirSync(dir);
    return;
  } catch (e) {
    if ((e as any)?.code !== 'EEXIST') throw asOutputWriteError(e, `the folder ${dir}`);
  }
  let stat: fs.Stats;
  try {
    stat = ops.lstatSync(dir);
  } catch (e) {
    throw asOutputWriteError(e, dir);
  }
  if (stat.isSymbolicLink()) {
    let target = '';
    try {
      target = ` (to ${ops.readlinkSync(dir)})`;
    } catch {
      // the link's target only makes the message clearer
    }
    const rel = path.relative(root, dir);
    throw new OutputWriteError(`cannot write into ${rel} below ${root}: it is a symbolic link${target}, and the library writes only into `
      + `real folders below the output directory, never through a link. Fix: remove the link (e.g. git rm ${rel}), then synthesize again`, 'ELINK');
  }
  if (!stat.isDirectory()) {
    throw new OutputWriteError(`cannot write into ${path.relative(root, dir)} below ${root}: it is a file, not a folder. Fix: remove the file, then synthesize again`, 'ENOTDIR');
  }
}

/** The `/`-separated parts of a relative path; the writer's callers build these, so anything else is a bug. */
function relParts(rel: string): string[] {
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw new Error(`internal error: output path ${JSON.stringify(rel)} is not a relative path of plain names`);
  }
  return parts;
}

/**
 * Creates `file` with `data` (`O_CREAT | O_EXCL | O_NOFOLLOW`: never through a link, never over anything); false,
 * having written nothing, when something is already there.
 */
function writeNew(file: string, data: string | Uint8Array): boolean {
  try {
    return createFile(file, data);
  } catch (e) {
    throw asOutputWriteError(e, file);
  }
}

/**
 * Creates `file` with `data` (`NEW_FILE_FLAGS`); false when something is already there (nothing written). Any other
 * failure is thrown as the file system reported it, and what was made of the file is removed.
 */
function createFile(file: string, data: string | Uint8Array): boolean {
  if (typeof data === 'string' && ops.writeTextFileSync !== undefined) {
    try {
      ops.writeTextFileSync(file, data, 0o644);
      return true;
    } catch (e) {
      if ((e as any)?.code === 'EEXIST') return false;
      // the file was made when the open succeeded
      if ((e as any)?.syscall !== 'open') removeQuietly(file);
      throw e;
    }
  }
  let fd: number | undefined;
  try {
    fd = ops.openSync(file, NEW_FILE_FLAGS, 0o644);
  } catch (e) {
    if ((e as any)?.code === 'EEXIST') return false;
    throw e;
  }
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < bytes.length) offset += ops.writeSync(fd, bytes, offset, bytes.length - offset);
    const opened = fd;
    fd = undefined;
    ops.closeSync(opened);
  } catch (e) {
    if (fd !== undefined) {
      try {
        ops.closeSync(fd);
      } catch {
        // the write error is the one to report
      }
    }
    removeQuietly(file);
    throw e;
  }
  return true;
}

/** Removes `file` if it can (an error being reported already is the one that counts). */
function removeQuietly(file: string): void {
  try {
    ops.unlinkSync(file);
  } catch {
    // absent, or not removable: the first error is the one to report
  }
}

// eslint-disable-next-line no-bitwise
const NEW_FILE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** Writes `data` to a new temporary file in `dir`, then renames it to `file` (a link there is replaced). */
function writeThroughRename(dir: string, file: string, data: string | Uint8Array): void {
  let temp = '';
  try {
    for (;;) {
      temp = path.join(dir, `.cdk8s-olm-tenancy-tmp-${process.pid}-${tempCounter++}`);
      if (createFile(temp, data)) break;
    }
    ops.renameSync(temp, file);
    temp = '';
  } catch (e) {
    // made and not renamed (createFile removes what it made when it fails)
    if (temp !== '') removeQuietly(temp);
    throw asOutputWriteError(e, file);
  }
}

/**
 * Replaces the entries `names` of `dir` with those of `staging` (each a file or folder; an entry missing in `staging`
 * is removed from `dir` when `remove` has it, else left as it is). The old entries are first renamed into a backup
 * folder in `dir`, then the staged ones renamed in place; when a rename fails every entry moved so far is put back,
 * so `dir` holds either all old entries or all new ones. `swapped` runs once every new entry is in place (a failure
 * there is ignored: the new output is whole). The backup and staging folders are removed at the end (a failure to
 * remove them leaves the new entries in place; the next synth removes them).
 */
export function swapEntries(dir: string, staging: string, backup: string, names: string[], remove: Set<string>, swapped?: () => void): void {
  const moved: string[] = [];
  const placed: string[] = [];
  try {
    ops.rmSync(backup, { recursive: true, force: true });
    ops.mkdirSync(backup);
    for (const name of names) {
      const target = path.join(dir, name);
      if (!lexists(target)) continue;
      if (!remove.has(name) && !lexists(path.join(staging, name))) continue;
      ops.renameSync(target, path.join(backup, name));
      moved.push(name);
    }
    for (const name of names) {
      const staged = path.join(staging, name);
      if (!lexists(staged)) continue;
      ops.renameSync(staged, path.join(dir, name));
      placed.push(name);
    }
  } catch (e) {
    const lost: string[] = [];
    for (const name of placed.reverse()) {
      try {
        ops.renameSync(path.join(dir, name), path.join(staging, name));
      } catch {
        lost.push(name);
      }
    }
    for (const name of moved.reverse()) {
      try {
        ops.renameSync(path.join(backup, name), path.join(dir, name));
      } catch {
        lost.push(name);
      }
    }
    if (lost.length === 0) {
      try {
        ops.rmSync(backup, { recursive: true, force: true });
      } catch {
        // empty; the next synth removes it
      }
    }
    const context = lost.length === 0 ? '; the previous output is unchanged'
      : `; could not put back ${lost.join(', ')} (the previous ones are in ${backup})`;
    throw asOutputWriteError(e, `the new output into ${dir}`, context);
  }
  try {
    swapped?.();
  } catch {
    // the new output is whole; the next synth cleans up what is left
  }
  for (const leftover of [backup, staging]) {
    try {
      ops.rmSync(leftover, { recursive: true, force: true });
    } catch {
      // the new output is whole; the next synth removes what is left
    }
  }
}

/**
 * The file-system calls of the writer, replaced by a test to inject failures (`undefined`: Node's `fs`).
 * @internal
 */
export function _setOutputFsOps(replacement: OutputFsOps | undefined): void {
  ops = replacement ?? nodeOps;
}

/** Node's own calls, for tests that wrap them. @internal */
export const _nodeOutputFsOps: OutputFsOps = nodeOps;
