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

/** Mostly a good value, sometimes garbage: for records of many fields, where `goodOrGarbage` on each field would
 * almost never give a record that gets past its first check. */
export function mostlyGood<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: garbage, weight: 1 });
}

/** The JavaScript errors that mean a crash, not a clear message. */
export function isCrash(e: unknown): boolean {
  return !(e instanceof Error) || e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
}

/** What a call did with its input: answered, or refused it with a readable error. */
export type Outcome = 'answered' | 'refused';

/**
 * Runs `fn`; a thrown error must be a plain `Error` whose message is readable: no raw line breaks in one finding
 * (the header line of cdk8s's validation error aside) and bounded in size.
 */
export function expectNoCrash(fn: () => unknown): Outcome {
  try {
    fn();
    return 'answered';
  } catch (e) {
    if (isCrash(e)) throw new Error(`crashed with ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}\n${(e as Error)?.stack}`);
    expectReadable((e as Error).message);
    return 'refused';
  }
}

/**
 * Per-call outcome counts of one fuzz test (issue 28: "no crash" alone passes a generator that never gets past the
 * first check, or never gets a call to answer). `run` is `expectNoCrash` with a tally under a label; `unmet` names
 * every label that did not answer at least `min` times and, unless it is listed as one that always answers, refuse
 * at least `min` times.
 */
export class OutcomeCounts {
  private readonly counts = new Map<string, Record<Outcome, number>>();

  /** (Returns nothing: a fast-check property that returns a value other than `true` or undefined fails.) */
  public run(label: string, fn: () => unknown): void {
    const outcome = expectNoCrash(fn);
    const count = this.counts.get(label) ?? { answered: 0, refused: 0 };
    count[outcome]++;
    this.counts.set(label, count);
  }

  /**
   * The labels below the minimum, with their counts: empty when every call reached both outcomes at least `min` times,
   * or, for a label in `only`, that one outcome at least `min` times and never the other (a check that answers every
   * input with a list of problems; a call given nothing but garbage).
   */
  public unmet(min: number, only: Record<string, Outcome> = {}): string[] {
    const unmet: string[] = [];
    for (const [label, c] of this.counts) {
      const one = only[label];
      const ok = one === undefined ? c.answered >= min && c.refused >= min : c[one] >= min && c[one === 'answered' ? 'refused' : 'answered'] === 0;
      if (!ok) unmet.push(`${label}: ${c.answered} answered, ${c.refused} refused`);
    }
    for (const label of Object.keys(only)) if (!this.counts.has(label)) unmet.push(`${label}: never called`);
    return unmet;
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
