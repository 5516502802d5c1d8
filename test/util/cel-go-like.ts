/**
 * A CEL engine with cel-go's semantics for unbound variables, for expressions that cel-go evaluates without
 * declarations (Flux's `healthCheckExprs`: fluxcd/pkg `runtime/cel/expression.go` parses, it does not compile).
 * @bufbuild/cel returns false for `has(x.f)` when `x` is not bound; cel-go fails with "no such attribute(s)"
 * (fluxcd/pkg `runtime/cel/status_evaluator_test.go`, "object without status with inProgress expression"), as does
 * @marcbachmann/cel-js, which runs here. It is ESM only, so it runs in one child process per batch.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';

/** The result of one expression: its value, or the evaluation error's first line. */
export type CelResult = { value: unknown } | { error: string };

/** Evaluates every `{ expr, vars }` in one child process, in order. */
export function evaluateCelGoLike(batch: Array<{ expr: string; vars: Record<string, unknown> }>): CelResult[] {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'cel-go-like-runner.mjs')], {
    input: JSON.stringify(batch),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`cel-go-like-runner failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
