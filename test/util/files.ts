/** Files written by a synth, as tests compare them. */
import * as fs from 'fs';
import * as path from 'path';

/** Every file below `dir`, relative to it with `/` separators, sorted (the shape of a Git tree listing). */
export function filesBelow(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? filesBelow(path.join(dir, e.name), base)
    : [path.relative(base, path.join(dir, e.name)).split(path.sep).join('/')])).sort();
}
