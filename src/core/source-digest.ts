// Internal: which code a module holds, by its functions' source text. Not re-exported from the package.
import * as crypto from 'crypto';

/**
 * The SHA-256 of the source text (`Function.prototype.toString`) of `names` in `mod`: a `toJson_*` name is the
 * function itself, any other name a class whose `toJson` method counts. Undefined when one is missing. `L1Json`
 * compares the installed cdk8s-plus-28 with the one src/imports/k8s-json.ts was copied from (scripts/k8s-json.ts
 * records the digest): a peer dependency range lets users install another version.
 */
export function sourceDigest(mod: any, names: readonly string[]): string | undefined {
  const hash = crypto.createHash('sha256');
  for (const name of names) {
    const f = name.startsWith('toJson_') ? mod?.[name] : mod?.[name]?.prototype?.toJson;
    if (typeof f !== 'function') return undefined;
    hash.update(Function.prototype.toString.call(f));
    hash.update('\n');
  }
  return hash.digest('hex');
}
