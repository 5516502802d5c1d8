// The import graph of src/ (shared by the import-circle and layer tests): relative imports and re-exports of every
// file, `import type` included, read with `ts.preProcessFile` (no type checking, well under a second).
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export const SRC = path.join(__dirname, '..', '..', 'src');

/** Every .ts file of src/ except the generated L1 classes in src/imports. */
export function sourceFiles(dir: string = SRC): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(SRC, 'imports')) out.push(...sourceFiles(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out.sort();
}

/** The relative imports and re-exports of each file (`import type` included), resolved to files. */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
    const deps = info.importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => {
        const base = path.resolve(path.dirname(file), name);
        return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? `${base} (unresolved)`;
      });
    graph.set(file, [...new Set(deps)].sort());
  }
  return graph;
}
