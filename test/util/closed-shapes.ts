/**
 * Field lists ("shapes") of core Kubernetes kinds, derived from the TypeScript declarations that kubernetes-models
 * 4.5.1 ships (`I<Kind>` interfaces in `<group>/<version>/<Kind>.d.ts`).
 *
 * Why: kubernetes-models validates types, enums and required fields, but its generated validators accept unknown
 * fields, and the package ships no JSON schemas. The .d.ts files list every field of every type, so the TypeScript
 * compiler API turns them into closed shapes: an interface with properties and no index signature is closed (any
 * other field is unknown, as the API server's strict field validation reports it); `{ [key: string]: T }` is a map;
 * `Array<T>` has items; primitives, unions of primitives (IntOrString) and `any`/`object` are leaves.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as ts from 'typescript';
import { diskMemo, memoKey, MemoCodec } from './disk-memo';

/** The TypeScript compiler, loaded only when shapes are built (a 9 MB module; {@link ClosedShapes.buildShared}). */
function typescript(): typeof ts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('typescript');
}

/** What fields an object may have. Shapes can be cyclic (JSONSchemaProps): walk them alongside data only. */
export interface Shape {
  /** Known fields, when the type is an interface with properties. */
  properties?: Record<string, Shape>;
  /** `false`: closed (only `properties`); a shape: a map whose values have that shape; absent: open. */
  additionalProperties?: Shape | false;
  /** Shape of array items. */
  items?: Shape;
}

/** A problem found by {@link ClosedShapes.check}: the path segments of the unknown field. */
export interface ShapeProblem {
  readonly path: (string | number)[];
}

/** Builds shapes from kubernetes-models declarations, once per process, and checks data against them. */
export class ClosedShapes {
  /**
   * Shapes of the `I<Kind>` interfaces of the given kubernetes-models modules (e.g. `v1/Namespace`), keyed by
   * module. One TypeScript program is built for all of them (about 1 s).
   */
  public static build(modules: string[]): Map<string, Shape> {
    const files = modules.map((m) => require.resolve(`kubernetes-models/${m}`).replace(/\.js$/, '.d.ts'));
    const program = typescript().createProgram(files, {
      noEmit: true,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es5.d.ts'],
    });
    const checker = program.getTypeChecker();
    const cache = new Map<ts.Type, Shape>();
    const result = new Map<string, Shape>();
    modules.forEach((module, i) => {
      const sourceFile = program.getSourceFile(files[i]);
      if (!sourceFile) throw new Error(`kubernetes-models declarations not found: ${files[i]}`);
      const interfaceName = `I${path.basename(module)}`;
      let declaration: ts.InterfaceDeclaration | undefined;
      typescript().forEachChild(sourceFile, (node) => {
        if (typescript().isInterfaceDeclaration(node) && node.name.text === interfaceName) declaration = node;
      });
      if (!declaration) throw new Error(`interface ${interfaceName} not found in ${files[i]}`);
      result.set(module, ClosedShapes.shapeOf(checker, checker.getTypeAtLocation(declaration), cache));
    });
    return result;
  }

  /**
   * {@link ClosedShapes.build}, stored on disk for the other test files (test/util/disk-memo.ts): keyed by this
   * file's source, the modules and package-lock.json (the kubernetes-models and typescript versions).
   */
  public static buildShared(modules: string[]): Map<string, Shape> {
    const root = path.join(__dirname, '..', '..');
    const key = memoKey([
      fs.readFileSync(__filename, 'utf8'),
      fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'),
      ...modules,
    ]);
    return diskMemo('closed-shapes', key, SHAPES_CODEC, () => ClosedShapes.build(modules));
  }

  /** Paths of the fields in `data` that `shape` does not know, in document order. */
  public static check(shape: Shape, data: unknown, at: (string | number)[] = []): ShapeProblem[] {
    const problems: ShapeProblem[] = [];
    ClosedShapes.walk(shape, data, at, problems);
    return problems;
  }

  private static walk(shape: Shape, data: unknown, at: (string | number)[], out: ShapeProblem[]): void {
    if (Array.isArray(data)) {
      if (shape.items) data.forEach((item, i) => ClosedShapes.walk(shape.items!, item, [...at, i], out));
      return;
    }
    if (data === null || typeof data !== 'object') return;
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const known = shape.properties?.[key];
      if (known) {
        ClosedShapes.walk(known, value, [...at, key], out);
      } else if (shape.additionalProperties === false) {
        out.push({ path: [...at, key] });
      } else if (shape.additionalProperties) {
        ClosedShapes.walk(shape.additionalProperties, value, [...at, key], out);
      }
    }
  }

  private static shapeOf(checker: ts.TypeChecker, type: ts.Type, cache: Map<ts.Type, Shape>): Shape {
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !hasFlag(t, typescript().TypeFlags.Undefined) && !hasFlag(t, typescript().TypeFlags.Null));
      // A single non-null member (an optional field) is that member; a real union (IntOrString) is a leaf.
      return parts.length === 1 ? ClosedShapes.shapeOf(checker, parts[0], cache) : {};
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      return { items: ClosedShapes.shapeOf(checker, element, cache) };
    }
    if (!hasFlag(type, typescript().TypeFlags.Object)) return {}; // primitives, literals, any, unknown, `object`
    const cached = cache.get(type);
    if (cached) return cached;
    const shape: Shape = {};
    cache.set(type, shape); // before recursing: JSONSchemaProps refers to itself
    const index = checker.getIndexInfosOfType(type);
    const properties = checker.getPropertiesOfType(type);
    if (index.length > 0) {
      shape.additionalProperties = ClosedShapes.shapeOf(checker, index[0].type, cache);
    }
    if (properties.length > 0) {
      shape.properties = {};
      for (const p of properties) {
        shape.properties[p.name] = ClosedShapes.shapeOf(checker, checker.getTypeOfSymbol(p), cache);
      }
      if (index.length === 0) shape.additionalProperties = false;
    }
    return shape;
  }

  private constructor() {}
}

/** TypeScript type flags are a bit set. */
function hasFlag(type: ts.Type, flag: ts.TypeFlags): boolean {
  // eslint-disable-next-line no-bitwise
  return (type.flags & flag) !== 0;
}

/**
 * Shapes as JSON: shapes are shared and cyclic (JSONSchemaProps), so each distinct shape is one numbered node and
 * references are node numbers; reading rebuilds the same sharing and cycles.
 */
const SHAPES_CODEC: MemoCodec<Map<string, Shape>> = {
  toJson: (shapes) => {
    const ids = new Map<Shape, number>();
    const nodes: Array<{ p?: Record<string, number>; a?: number | false; i?: number }> = [];
    const idOf = (shape: Shape): number => {
      const known = ids.get(shape);
      if (known !== undefined) return known;
      const id = nodes.length;
      ids.set(shape, id);
      const node: { p?: Record<string, number>; a?: number | false; i?: number } = {};
      nodes.push(node);
      if (shape.properties) {
        node.p = {};
        for (const [name, s] of Object.entries(shape.properties)) node.p[name] = idOf(s);
      }
      if (shape.additionalProperties !== undefined) node.a = shape.additionalProperties === false ? false : idOf(shape.additionalProperties);
      if (shape.items) node.i = idOf(shape.items);
      return id;
    };
    const roots = [...shapes].map(([module, shape]) => [module, idOf(shape)]);
    return { nodes, roots };
  },
  fromJson: (json) => {
    const nodes: Array<{ p?: Record<string, number>; a?: number | false; i?: number }> = json.nodes;
    const shapes: Shape[] = nodes.map(() => ({}));
    nodes.forEach((node, id) => {
      const shape = shapes[id];
      // the key order ClosedShapes.shapeOf writes: a map's value shape, the properties, then `false` for closed
      if (typeof node.a === 'number') shape.additionalProperties = shapes[node.a];
      if (node.p !== undefined) {
        shape.properties = {};
        for (const [name, s] of Object.entries(node.p)) shape.properties[name] = shapes[s];
      }
      if (node.a === false) shape.additionalProperties = false;
      if (node.i !== undefined) shape.items = shapes[node.i];
    });
    return new Map((json.roots as Array<[string, number]>).map(([module, id]) => [module, shapes[id]]));
  },
};
