/** Files written by a synth, as tests compare them. */
import * as fs from 'fs';
import * as path from 'path';

/** Every file below `dir`, relative to it with `/` separators, sorted (the shape of a Git tree listing). */
export function filesBelow(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? filesBelow(path.join(dir, e.name), base)
    : [path.relative(base, path.join(dir, e.name)).split(path.sep).join('/')])).sort();
}

/** Every file below `dir` with its text, keyed as `filesBelow` names them (keys sorted). */
export function fileTree(dir: string): Record<string, string> {
  return Object.fromEntries(filesBelow(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

/**
 * What a writer left below `dir`, links included: each file with its text, each folder as `path/` with '', each
 * symbolic link as `path` with `-> target` (never followed), keyed with `/` separators (keys sorted).
 */
export function diskTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p).split(path.sep).join('/');
      if (e.isSymbolicLink()) {
        out[rel] = `-> ${fs.readlinkSync(p)}`;
      } else if (e.isDirectory()) {
        out[`${rel}/`] = '';
        walk(p);
      } else {
        out[rel] = fs.readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `filesBelow(dir)`, each joined to `dir` (a path to open). */
export function pathsBelow(dir: string): string[] {
  return filesBelow(dir).map((f) => path.join(dir, f));
}
