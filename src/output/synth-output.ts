/**
 * One synthesis written to its output directory as a whole: with `staged` (the GitOps layout) every file goes to a
 * staging folder that replaces the old entries only once it is complete (`swapEntries`); otherwise each file is written
 * through a temporary file and a rename (what cdk8s's layouts need: their files are not owned as a tree). Internal,
 * not re-exported.
 */
import * as path from 'path';
import { asOutputWriteError, isFileSystemError, OutputWriter, removeEntry, swapEntries } from './output-files';

/** The staging folder of a staged synth, inside the output directory. */
export const STAGING_FOLDER = '.cdk8s-olm-tenancy-staging';
/** Where the old entries go while the new ones are renamed in place (removed after; put back when a rename fails). */
export const PREVIOUS_FOLDER = '.cdk8s-olm-tenancy-previous';

/** How `writeSynthOutput` replaces the old output. */
export interface SynthOutputOptions {
  /** Write to a staging folder and swap it in (the GitOps layout); else write in place, file by file. */
  readonly staged: boolean;
  /** With `staged`: the entries of the output directory a synth replaces. */
  readonly entries: readonly string[];
  /** With `staged`: the entries removed when the new output lacks them (the layout's own); the others are kept then. */
  readonly removable: readonly string[];
}

/**
 * Runs `write` with the writer of the new output and commits it: with `staged`, `write` receives the writer of an empty
 * staging folder and the folder is swapped in once `write` returns; a failure (at whatever step) leaves the previous
 * output whole and is reported in one line when it is the file system's. Without `staged`, `write` writes into
 * `outdir` directly and an error of the file system is reported naming `outdir`. Returns what `write` returned.
 */
export function writeSynthOutput<T>(outdir: string, options: SynthOutputOptions, write: (out: OutputWriter, staging?: string) => T): T {
  if (!options.staged) {
    try {
      return write(new OutputWriter(outdir));
    } catch (e) {
      throw isFileSystemError(e) ? asOutputWriteError(e, outdir) : e;
    }
  }
  const staging = path.join(outdir, STAGING_FOLDER);
  let swapping = false;
  try {
    removeEntry(staging);
    const result = write(new OutputWriter(staging), staging);
    swapping = true;
    swapEntries(outdir, staging, path.join(outdir, PREVIOUS_FOLDER), [...options.entries], new Set(options.removable));
    return result;
  } catch (e) {
    try {
      removeEntry(staging);
    } catch {
      // the first error is the one to report
    }
    if (!isFileSystemError(e)) throw e;
    // a failed swap says itself whether the previous output is whole
    throw swapping ? e : asOutputWriteError(e, outdir, `; nothing in ${outdir} was changed`);
  }
}
