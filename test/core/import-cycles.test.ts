/**
 * No import circle in src/, type-only imports included: the check `npm test` runs (its eslint run turns
 * `import/no-cycle` off, .projenrc.ts). eslint's `import/no-cycle` (in .eslintrc.json) catches value imports while
 * editing; it skips `import type`, which has no runtime effect but still ties two files together both
 * ways (the usual case: a file's props type one way, its input checks the other). Such types live in their own file
 * (`*-props.ts`, `*-types.ts`). The import graph is read with `ts.preProcessFile` (imports and re-exports, no type
 * checking), so the test takes well under a second.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { importGraph, sourceFiles, SRC } from '../util/import-graph';

/** The strongly connected components with more than one file (Tarjan), i.e. the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(SRC, w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import circles in src/', () => {
  test('there are none (type-only imports count)', () => {
    const graph = importGraph(sourceFiles());
    expect([...graph.values()].flat().filter((f) => f.endsWith('(unresolved)'))).toEqual([]);
    expect(circles(graph)).toEqual([]);
  });

  test('the finder sees a circle, including one made of `import type` only', () => {
    const a = path.join(SRC, 'x', 'a.ts');
    const b = path.join(SRC, 'x', 'b.ts');
    const c = path.join(SRC, 'x', 'c.ts');
    expect(circles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([['x/a.ts', 'x/b.ts', 'x/c.ts']]);
    expect(circles(new Map([[a, [b]], [b, []]]))).toEqual([]);
    // `import type` is one of preProcessFile's imported files
    const info = ts.preProcessFile("import type { T } from './b';\nexport * from './c';\n", true, false);
    expect(info.importedFiles.map((f) => f.fileName)).toEqual(['./b', './c']);
  });
});
