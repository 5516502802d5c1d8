// Child process of test/util/cel-go-like.ts: evaluates CEL expressions with @marcbachmann/cel-js (ESM only, so not
// loadable by jest's CommonJS modules). Reads [{ expr, vars }] as JSON on stdin, writes [{ value } | { error }].
// Integral numbers become BigInt: Go's unstructured JSON decoding gives int64 for them, as cel-go sees Kubernetes
// objects (Flux's StatusEvaluator, ValidatingAdmissionPolicy).
import { Environment } from '@marcbachmann/cel-js';

const ints = (v) => {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map(ints);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ints(x)]));
  return v;
};
const plain = (v) => (typeof v === 'bigint' ? Number(v) : v);

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  // Flux's runtime/cel expression.go: parse without declarations (every variable dynamic), homogeneous aggregate
  // literals, optional types
  const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: true, enableOptionalTypes: true });
  const out = JSON.parse(input).map(({ expr, vars }) => {
    try {
      return { value: plain(env.evaluate(expr, ints(vars))) };
    } catch (e) {
      return { error: String(e && e.message ? e.message : e).split('\n')[0] };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
