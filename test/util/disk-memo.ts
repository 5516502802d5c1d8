/**
 * A result the test helpers derive from committed inputs, computed once per input content and kept on disk for the
 * other test files (each jest test file starts with an empty module registry, so a module-level memo is recomputed in
 * every file that needs it). Used for the schema validator's closed shapes (a TypeScript program over
 * kubernetes-models' declarations) and its CRD index (the CRD copies under crds/ read with `yaml`).
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
