/**
 * Writes a file-based catalog as the directory layout `opm` expects: one folder per package holding one
 * `catalog.json` or `catalog.yaml` (what `opm render`/`opm migrate` produce; `opm validate <dir>` and
 * `opm generate dockerfile <dir>` read any `.json`/`.yaml` files below `<dir>`, see operator-registry
 * `alpha/declcfg/load.go` and `alpha/action/generate_dockerfile.go`).
 */
import { FbcBlob, FbcFormat, FbcFinding, FbcSchema } from './fbc-types';
import { FileBasedCatalog } from './file-based-catalog';
import { blobId, str } from './internal';
import { depthOf, LOADER_LIMITS } from '../core/yaml-or-json';
import { YamlWriter } from '../output/yaml-writer';

const DEPTH_TEXT = `is nested deeper than ${LOADER_LIMITS.depth} levels (the loaders' limit)`;

const SCHEMA_ORDER: string[] = [FbcSchema.PACKAGE, FbcSchema.CHANNEL, FbcSchema.BUNDLE, FbcSchema.DEPRECATIONS];

/** Renders catalogs to files. */
export class FbcWriter {
  /**
   * File path (relative to the catalog directory) to content: `<package>/catalog.json` (or `.yaml`) per package,
   * and `catalog.json` at the top for blobs that belong to no package. Within a file: the `olm.package` blob,
   * channels, bundles (each sorted by name), deprecations, then other schemas. Deterministic.
   *
   * @param format JSON (default, like `opm render`) or YAML
   * @throws Error naming the blob when one is nested deeper than the loaders' depth limit (see `problems`)
   */
  public static toFiles(catalog: FileBasedCatalog, format: FbcFormat = FbcFormat.JSON): { [file: string]: string } {
    const byFile = new Map<string, FbcBlob[]>();
    const tooDeep = FbcWriter.problems(catalog).filter((p) => p.message.includes(DEPTH_TEXT));
    if (tooDeep.length > 0) throw new Error(`FbcWriter.toFiles: ${tooDeep[0].message}`);
    for (const b of catalog.blobs) {
      const pkg = b.schema === FbcSchema.PACKAGE ? str(b.content.name) : str(b.content.package);
      const file = pkg ? `${pkg}/catalog.${format}` : `catalog.${format}`;
      byFile.set(file, [...(byFile.get(file) ?? []), b]);
    }
    const out: { [file: string]: string } = {};
    for (const file of [...byFile.keys()].sort()) {
      const blobs = [...byFile.get(file)!].sort(compareBlobs);
      out[file] =
        format === FbcFormat.JSON
          ? blobs.map((b) => JSON.stringify(b.content, null, 4)).join('\n') + '\n'
          // YAML 1.1 quoting: opm reads YAML with go-yaml v2, which takes an unquoted `n`, `yes`, `on` or `0755`
          // for a boolean or an octal number; quoted, they stay the strings they are.
          // (YamlWriter: the same YAML 1.1 text, with every string go-yaml would read otherwise quoted or escaped)
          : blobs.map((b) => `---\n${YamlWriter.document(b.content)}`).join('');
    }
    return out;
  }

  /**
   * Why the files of `toFiles` would not load as the same catalog in another directory: a package name that is
   * not a single path segment (it names a folder), and `olm.bundle.object` properties that reference a file
   * (`value.ref`, resolved by opm relative to the file that held the blob; `opm render` writes `data` instead).
   * Empty when the catalog can be written.
   */
  public static problems(catalog: FileBasedCatalog): FbcFinding[] {
    const out: FbcFinding[] = [];
    const at = (b: FbcBlob, message: string): FbcFinding => ({
      message: b.location ? `${b.location.file}:${b.location.line}: ${message}` : message,
      ...(b.location ? { location: b.location } : {}),
      blob: blobId(b),
    });
    for (const b of catalog.blobs) {
      // Iterative check: writing (JSON.stringify, YAML) recurses, so a blob built in code with unbounded nesting
      // is refused here with its name instead of a RangeError.
      if (depthOf(b.content) > LOADER_LIMITS.depth) {
        out.push(at(b, `blob ${JSON.stringify(blobId(b))} ${DEPTH_TEXT}; it cannot be written`));
        continue;
      }
      const pkg = b.schema === FbcSchema.PACKAGE ? str(b.content.name) : str(b.content.package);
      if (pkg !== undefined && pkg !== '' && (pkg === '.' || pkg === '..' || /[\\/]/.test(pkg))) {
        out.push(at(b, `package name ${JSON.stringify(pkg)} cannot be used as a folder name`));
      }
      if (b.schema !== FbcSchema.BUNDLE || !Array.isArray(b.content.properties)) continue;
      for (const prop of b.content.properties) {
        if (prop?.type === 'olm.bundle.object' && typeof prop.value?.ref === 'string') {
          out.push(at(b, `bundle ${JSON.stringify(b.content.name)} references the file ${JSON.stringify(prop.value.ref)} (olm.bundle.object ref), which is not copied; render the catalog with opm render so objects are inline`));
        }
      }
    }
    return out;
  }

  private constructor() {}
}

function rank(schema: string): number {
  const i = SCHEMA_ORDER.indexOf(schema);
  return i === -1 ? SCHEMA_ORDER.length : i;
}

function compareBlobs(a: FbcBlob, b: FbcBlob): number {
  return rank(a.schema) - rank(b.schema) || cmp(a.schema, b.schema) || cmp(str(a.content.name) ?? '', str(b.content.name) ?? '');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
