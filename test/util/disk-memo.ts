/**
 * A result the test helpers derive from committed inputs, computed once per input content and kept on disk for the
 * other test files (each jest test file starts with an empty module registry, so a module-level memo is recomputed in
 * every file that needs it). Used for the schema validator's closed shapes (a TypeScript program over
 * kubernetes-models' declarations) and its CRD index (the CRD copies under crds/ read with `yaml`), and for what the
 * TypeScript checker derives from src/ (the prop names, the public API, the fix snippets that compile: `sourceKey`).
 *
 * The key is a SHA-256 of everything the result depends on (the inputs' contents and the source of the code that
 * derives it): a changed input is a new key, never a stale result. A result is written only when reading it back
 * gives a deep-equal value, so a hit is exactly what computing would give. Files live under
 * node_modules/.cache/olmt-test-memo/ (gitignored, like jest's own transform cache) and are written atomically
 * (two jest workers may compute the same key at once).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';

const CACHE_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'olmt-test-memo');

/** How a value is written to and read from JSON text. */
export interface MemoCodec<T> {
  readonly toJson: (value: T) => unknown;
  readonly fromJson: (json: any) => T;
}

/** SHA-256 over the given strings (length-prefixed, so different splits give different keys). */
export function memoKey(parts: readonly string[]): string {
  const hash = crypto.createHash('sha256');
  for (const p of parts) hash.update(`${Buffer.byteLength(p)}:`).update(p);
  return hash.digest('hex');
}

/** The value stored under `name` and `key`, else `compute()` (stored when it reads back deep-equal). */
export function diskMemo<T>(name: string, key: string, codec: MemoCodec<T>, compute: () => T): T {
  const file = path.join(CACHE_DIR, `${name}-${key}.json`);
  try {
    return codec.fromJson(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    // not stored yet (or unreadable): compute it
  }
  const value = compute();
  const text = JSON.stringify(codec.toJson(value));
  if (isDeepStrictEqual(codec.fromJson(JSON.parse(text)), value)) {
    try {
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, file);
    } catch {
      // a read-only node_modules: compute again next time
    }
  }
  return value;
}

/**
 * A key over what a TypeScript program of src/ depends on: every `.ts` file under src/ (path and content), the
 * versions of TypeScript and of the packages whose declarations src/ imports, and `extra` (the deriving code's own
 * source, its other inputs).
 */
export function sourceKey(extra: readonly string[]): string {
  const root = path.join(__dirname, '..', '..');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.push(p);
    }
  };
  walk(path.join(root, 'src'));
  const version = (pkg: string) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
    } catch {
      return 'absent';
    }
  };
  return memoKey([
    ...files.flatMap((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8')]),
    ...['typescript', 'cdk8s', 'constructs', 'cdk8s-plus-28', '@types/node', 'yaml', 'semver'].map((pkg) => `${pkg}@${version(pkg)}`),
    ...extra,
  ]);
}

/** A JSON value as itself. */
export const JSON_CODEC: MemoCodec<any> = { toJson: (v) => v, fromJson: (j) => j };

