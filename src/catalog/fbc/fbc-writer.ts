/**
 * Writes a file-based catalog as the directory layout `opm` expects: one folder per package holding one
 * `catalog.json` or `catalog.yaml` (what `opm render`/`opm migrate` produce; `opm validate <dir>` and
 * `opm generate dockerfile <dir>` read any `.json`/`.yaml` files below `<dir>`, see operator-registry
 * `alpha/declcfg/load.go` and `alpha/action/generate_dockerfile.go`).
 */
import { stringify } from 'yaml';
import { FbcBlob, FbcFormat, FbcSchema, FileBasedCatalog } from './file-based-catalog';
import { str } from './internal';

const SCHEMA_ORDER: string[] = [FbcSchema.PACKAGE, FbcSchema.CHANNEL, FbcSchema.BUNDLE, FbcSchema.DEPRECATIONS];

/** Renders catalogs to files. */
export class FbcWriter {
  /**
   * File path (relative to the catalog directory) to content: `<package>/catalog.json` (or `.yaml`) per package,
   * and `catalog.json` at the top for blobs that belong to no package. Within a file: the `olm.package` blob,
   * channels, bundles (each sorted by name), deprecations, then other schemas. Deterministic.
   *
   * @param format JSON (default, like `opm render`) or YAML
   */
  public static toFiles(catalog: FileBasedCatalog, format: FbcFormat = FbcFormat.JSON): { [file: string]: string } {
    const byFile = new Map<string, FbcBlob[]>();
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
          : blobs.map((b) => `---\n${stringify(b.content, { lineWidth: 0 })}`).join('');
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
