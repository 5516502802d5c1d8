/**
 * Arbitraries for the fuzz suites: values a JavaScript or jsii caller could pass where the TypeScript types say
 * otherwise (missing, null, numbers, objects, lists, strings with newlines and control characters, huge strings),
 * mixed with well-formed values so the checks behind the first one are reached too.
 */
import * as fc from 'fast-check';

/** Fixed seeds: the suites are deterministic (a failure prints its counterexample and path). */
export const SEED = 20261123;

/** A string that breaks one-line output: newlines, tabs, other control characters, U+2028. */
export const nastyString = fc.oneof(
  fc.constantFrom('a\nb', 'Kube System', '\r\n', '\t', 'x\u0000y', 'x\u2028y', 'ünïcode', '-leading', 'UPPER', '', ' ', 'a/b', '..', '%'),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** A huge string (100,000 characters, some with a newline). */
export const hugeString = fc.constantFrom('x'.repeat(100_000), `${'y'.repeat(50_000)}\n${'z'.repeat(50_000)}`);

/** Any value of any type. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  nastyString,
  hugeString,
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
  fc.constant(() => 1),
  fc.anything({ maxDepth: 2, maxKeys: 3 }),
);

/** Either a good value or garbage (so that every later check is reached in some runs). */
export function goodOrGarbage<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: garbage, weight: 1 });
}

/** The JavaScript errors that mean a crash, not a clear message. */
export function isCrash(e: unknown): boolean {
  return !(e instanceof Error) || e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
}

/**
 * Runs `fn`; a thrown error must be a plain `Error` whose message is readable: no raw line breaks in one finding
 * (the header line of cdk8s's validation error aside) and bounded in size.
 */
export function expectNoCrash(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (isCrash(e)) throw new Error(`crashed with ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}\n${(e as Error)?.stack}`);
    expectReadable((e as Error).message);
  }
}

/** Each line at most ~8 KB, and no control characters but the line breaks between findings. */
export function expectReadable(message: string): void {
  for (const line of message.split('\n')) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(line)) throw new Error(`a control character in: ${JSON.stringify(line.slice(0, 300))}`);
    if (line.length > 8_000) throw new Error(`a line of ${line.length} characters: ${line.slice(0, 300)}...`);
  }
}
