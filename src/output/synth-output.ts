/**
 * One synthesis written to its output directory as a whole, by one writer at a time:
 *
 * - the synth holds the directory's lock while it writes (`output-lock.ts`): a second synth into the same directory
 *   waits for it or is refused, never interleaves;
 * - with `staged` (the GitOps layout) every file goes to a staging folder of this synth's own
 *   (`.cdk8s-olm-tenancy-staging-<pid>-<random>`), which replaces the old entries only once it is complete
 *   (`swapEntries`); a failure at whatever step leaves the previous output whole;
 * - before the swap a journal (`.cdk8s-olm-tenancy-swap.json`) names the staging folder and the entries it holds, and
 *   it is removed once every entry is in place. A synth killed during the swap (a few renames) leaves it behind, and the
 *   next synth, holding the lock, completes that swap from the journal before anything else: the tree is then exactly
 *   the killed synth's, whole, and the new synth replaces it as usual. Leftovers of killed synths (staging and backup
 *   folders, temporary files) are removed under the lock.
 *
 * Without `staged` (cdk8s's layouts, whose files are not owned as a tree) each file is written through a temporary
 * file and a rename, under the same lock. Internal, not re-exported.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { acquireOutputLock, BREAK_FILE, HeldLock, LOCK_FILE, processGone } from './output-lock';
import { asOutputWriteError, isFileSystemError, lexists, OutputWriteError, OutputWriter, removeEntry, renameEntry, swapEntries } from './output-writer';

/** The prefix of a staging folder of a staged synth, inside the output directory (`-<pid>-<random>` follows). */
export const STAGING_PREFIX = '.cdk8s-olm-tenancy-staging';
/** The prefix of the folder the old entries go to while the new ones are renamed in place. */
export const PREVIOUS_PREFIX = '.cdk8s-olm-tenancy-previous';
/** The swap journal (see the module comment). */
export const SWAP_JOURNAL = '.cdk8s-olm-tenancy-swap.json';
/** The prefix of the writer's temporary files (`OutputWriter`). */
const TEMP_PREFIX = '.cdk8s-olm-tenancy-tmp-';

/** How `writeSynthOutput` replaces the old output. */
export interface SynthOutputOptions {
  /** Write to a staging folder and swap it in (the GitOps layout); else write in place, file by file. */
  readonly staged: boolean;
  /** With `staged`: the entries of the output directory a synth replaces. */
  readonly entries: readonly string[];
  /** With `staged`: the entries removed when the new output lacks them (the layout's own); the others are kept then. */
  readonly removable: readonly string[];
  /** How long to wait for another synth's lock (milliseconds; 0: refuse at once). */
  readonly lockWaitMilliseconds: number;
}

/** What the journal of a swap holds. */
interface SwapJournal {
  readonly staging: string;
  readonly backup: string;
  readonly entries: string[];
  readonly removable: string[];
  /** The entries the staging folder holds (the new output's). */
  readonly present: string[];
}

/**
 * Runs `write` with the writer of the new output and commits it, holding the output directory's lock: with `staged`,
 * `write` receives the writer of an empty staging folder of its own (and its path) and the folder is swapped in once
 * `write` returns; a failure (at whatever step) leaves the previous output whole and is reported in one line when it
 * is the file system's. Without `staged`, `write` writes into `outdir` directly and an error of the file system is
 * reported naming `outdir`. Returns what `write` returned.
 */
export function writeSynthOutput<T>(outdir: string, options: SynthOutputOptions, write: (out: OutputWriter, staging?: string) => T): T {
  try {
    fs.mkdirSync(outdir, { recursive: true });
  } catch (e) {
    throw asOutputWriteError(e, `the output directory ${outdir}`);
  }
  const lock = acquireOutputLock(outdir, { waitMilliseconds: options.lockWaitMilliseconds });
  try {
    recoverInterruptedSwap(outdir);
    removeLeftovers(outdir);
    return options.staged ? writeStaged(outdir, options, lock, write) : writeInPlace(outdir, write);
  } finally {
    lock.release();
  }
}

function writeInPlace<T>(outdir: string, write: (out: OutputWriter) => T): T {
  try {
    return write(new OutputWriter(outdir));
  } catch (e) {
    throw isFileSystemError(e) ? asOutputWriteError(e, outdir) : e;
  }
}

function writeStaged<T>(outdir: string, options: SynthOutputOptions, lock: HeldLock, write: (out: OutputWriter, staging?: string) => T): T {
  // private to this synth: a second writer (should the lock ever be removed by hand) never writes into it
  const id = `${process.pid}-${lock.holder.token.slice(0, 8)}-${crypto.randomBytes(4).toString('hex')}`;
  const stagingName = `${STAGING_PREFIX}-${id}`;
  const backupName = `${PREVIOUS_PREFIX}-${id}`;
  const staging = path.join(outdir, stagingName);
  const journal = path.join(outdir, SWAP_JOURNAL);
  let swapping = false;
  let journalWritten = false;
  try {
    // private to this synth and read by no one before the swap: its files are created in place (OutputWriterOptions)
    const result = write(new OutputWriter(staging, { staging: true }), staging);
    const entries = [...options.entries];
    const record: SwapJournal = {
      staging: stagingName,
      backup: backupName,
      entries,
      removable: [...options.removable],
      present: entries.filter((name) => lexists(path.join(staging, name))),
    };
    new OutputWriter(outdir).write(SWAP_JOURNAL, `${JSON.stringify(record)}\n`);
    journalWritten = true;
    swapping = true;
    swapEntries(outdir, staging, path.join(outdir, backupName), entries, new Set(options.removable), () => removeEntry(journal));
    return result;
  } catch (e) {
    // the swap put the old entries back (or never started): the journal goes first, so that no later synth completes a
    // swap whose staging folder is gone; when it cannot be removed, the staging folder stays for that synth to complete
    let journalGone = !journalWritten;
    if (journalWritten) {
      try {
        removeEntry(journal);
        journalGone = true;
      } catch {
        // kept: see above
      }
    }
    if (journalGone) {
      try {
        removeEntry(staging);
      } catch {
        // the first error is the one to report
      }
    }
    if (!isFileSystemError(e)) throw e;
    // a failed swap says itself whether the previous output is whole
    throw swapping ? e : asOutputWriteError(e, outdir, `; nothing in ${outdir} was changed`);
  }
}

/**
 * Completes the swap of a synth killed while swapping (its journal is still there): each entry the new output holds
 * and that is still in its staging folder replaces the entry in `outdir` (an old one, which had not been moved aside
 * yet); the layout's own entries the new output lacks are removed. The tree is then exactly the killed synth's.
 */
function recoverInterruptedSwap(outdir: string): void {
  const journalPath = path.join(outdir, SWAP_JOURNAL);
  let record: SwapJournal | undefined;
  try {
    record = JSON.parse(fs.readFileSync(journalPath, 'utf8'));
  } catch (e) {
    if ((e as any)?.code === 'ENOENT') return;
    if (!(e instanceof SyntaxError)) throw asOutputWriteError(e, journalPath);
  }
  if (!isJournal(record)) {
    // not a journal this library wrote whole (it is written to a temporary file and renamed): left alone
    throw new OutputWriteError(`cannot write ${outdir}: ${journalPath} is not a swap journal of cdk8s-olm-tenancy; nothing in ${outdir} was changed. `
      + 'Fix: remove that file, then synthesize again', 'EJOURNAL');
  }
  const staging = path.join(outdir, record.staging);
  const backup = path.join(outdir, record.backup);
  const present = new Set(record.present);
  const removable = new Set(record.removable);
  try {
    for (const name of record.entries) {
      const target = path.join(outdir, name);
      if (present.has(name)) {
        const staged = path.join(staging, name);
        if (!lexists(staged)) continue; // already in place
        if (lexists(target)) removeEntry(target);
        renameEntry(staged, target);
      } else if (removable.has(name) && lexists(target)) {
        removeEntry(target);
      }
    }
    removeEntry(journalPath);
  } catch (e) {
    throw asOutputWriteError(e, outdir, `; a synth was killed while it swapped its output in, and completing that swap failed (${journalPath} says how)`);
  }
  removeEntry(staging);
  removeEntry(backup);
}

function isJournal(o: any): o is SwapJournal {
  const names = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string' && plainName(x));
  return o !== null && typeof o === 'object' && typeof o.staging === 'string' && o.staging.startsWith(STAGING_PREFIX) && plainName(o.staging)
    && typeof o.backup === 'string' && o.backup.startsWith(PREVIOUS_PREFIX) && plainName(o.backup)
    && names(o.entries) && names(o.removable) && names(o.present);
}

/** A name of an entry directly in the output directory (never a path elsewhere). */
function plainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !name.includes('\0');
}

/**
 * Removes what killed synths left in `outdir` (under the lock, so nobody is writing them): staging and backup folders,
 * the writer's temporary files, and lock files of dead processes that were being made.
 */
function removeLeftovers(outdir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(outdir);
  } catch (e) {
    throw asOutputWriteError(e, outdir);
  }
  for (const name of names) {
    const own = new RegExp(`^${escape(LOCK_FILE)}(?:${escape(BREAK_FILE.slice(LOCK_FILE.length))})?\\.(\\d+)\\.[0-9a-f]+$`).exec(name);
    if (name.startsWith(STAGING_PREFIX) || name.startsWith(PREVIOUS_PREFIX) || name.startsWith(TEMP_PREFIX)
      || (own !== null && processGone(Number(own[1])))) {
      removeEntry(path.join(outdir, name));
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
