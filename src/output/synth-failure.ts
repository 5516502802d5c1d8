// What a failed synth run as an app prints, and the file that keeps the findings the readable form cuts short.
// Internal to the app layer (not re-exported).
import * as fs from 'fs';
import * as path from 'path';

/** The file in `outdir` with the full one-line text of every error of a failed synth, when the printed form cut some. */
export const ERRORS_FILE = 'SYNTH-ERRORS.txt';

/** A readable finding whose details were cut (`Diagnostics.formatReadable`: `... (N more characters)`). */
const CUT = /\.\.\. \(\d+ more characters\)/;

/**
 * The message of a failed synth run as an app: the readable findings. When one of them is cut short, the full
 * one-line text of every finding (the `[path] field=value: message. Fix: ... (Code)` lines programmatic callers get)
 * is written to `ERRORS_FILE` in `outdir` and the first line says where; the manifests are not touched. The file is
 * written to a temporary name and renamed over the old one (a link there is replaced, never followed).
 *
 * @param outdir the App's output folder
 * @param shownOutdir `outdir` as printed (relative to the working directory when inside it)
 * @param lines every error, one-line form
 * @param readable every error, readable form (same order)
 */
export function synthFailureMessage(outdir: string, shownOutdir: string, lines: string[], readable: string[]): string {
  const head = `Synthesis failed with ${lines.length} error(s)`;
  if (!readable.some((r) => CUT.test(r))) return `${head}; nothing was written:\n\n${readable.join('\n\n')}\n`;
  const file = path.join(outdir, ERRORS_FILE);
  writeReplacing(file, `${lines.join('\n')}\n`);
  const shown = path.join(shownOutdir, ERRORS_FILE);
  return `${head}; no manifest was written, and the full text of every error is in ${shown} (cut short below):\n\n${readable.join('\n\n')}\n`;
}

/** Removes a stale `ERRORS_FILE` from `outdir` after a synth that passed its validations (a link is removed, not followed). */
export function removeStaleErrors(outdir: string): void {
  fs.rmSync(path.join(outdir, ERRORS_FILE), { force: true });
}

/** Writes `content` to a new file beside `file` (exclusive create: no link followed) and renames it to `file`. */
function writeReplacing(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(tmp, content, { flag: 'wx' });
  fs.renameSync(tmp, file);
}
