/**
 * Errors and warnings found at synth time.
 *
 * cdk8s only knows validation errors (`Node.addValidation`); `App.synth()` collects every construct's errors and
 * throws them together. Warnings have no home in cdk8s, so constructs register producers here and callers read
 * them, sorted, with `Diagnostics.warnings(scope)` (deterministic: the same App always gives the same list).
 * Setting the context key `Diagnostics.WARNINGS_AS_ERRORS_CONTEXT` to true turns every warning into a synth error.
 */
import { IConstruct } from 'constructs';
import { PolicyChecks } from './policy-checks';

/** How serious a finding is. */
export enum Severity {
  /** Synthesis fails. */
  ERROR = 'error',
  /** Synthesis goes on; the finding is listed by `Diagnostics.warnings`. */
  WARNING = 'warning',
}

/** One finding about the input, with enough detail to fix it. */
export interface Diagnostic {
  /** Error or warning. */
  readonly severity: Severity;
  /** Stable machine-readable code, e.g. `ManualApprovalWithoutApprover`. */
  readonly code: string;
  /** Path of the construct the finding is about. */
  readonly constructPath: string;
  /**
   * The field (prop or option) that holds the problem, e.g. `subscriptions[etcd].channel`.
   * @default - the construct as a whole
   */
  readonly field?: string;
  /**
   * The offending value, rendered as text.
   * @default - no single value
   */
  readonly value?: string;
  /** What is wrong. */
  readonly message: string;
  /**
   * How to fix it.
   * @default - no suggestion
   */
  readonly fix?: string;
  /**
   * The stable id of the policy check (`PolicyChecks`) that produced it, e.g. `OLMT-003`.
   * @default - not a registered policy check
   */
  readonly policyId?: string;
}

/** Input to `Diagnostics.format`: a finding without its severity. */
export interface DiagnosticDetails {
  /** Stable machine-readable code. */
  readonly code: string;
  /**
   * The field (prop or option) that holds the problem.
   * @default - the construct as a whole
   */
  readonly field?: string;
  /**
   * The offending value.
   * @default - no single value
   */
  readonly value?: string;
  /** What is wrong. */
  readonly message: string;
  /**
   * How to fix it.
   * @default - no suggestion
   */
  readonly fix?: string;
}

type Producer = () => DiagnosticDetails[];
const warningProducers = new WeakMap<IConstruct, Producer[]>();

/**
 * Registers a function that computes `scope`'s warnings at synth time (after all mutations).
 * Internal to the library: not re-exported from the package root.
 */
export function addWarningProducer(scope: IConstruct, producer: Producer): void {
  const list = warningProducers.get(scope);
  if (list) {
    list.push(producer);
    return;
  }
  warningProducers.set(scope, [producer]);
  // Strict mode: the same warnings, reported as synth errors.
  scope.node.addValidation({
    validate: () => {
      if (scope.node.tryGetContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT) !== true) return [];
      return (warningProducers.get(scope) ?? []).flatMap((p) => p().map((d) => `warning: ${Diagnostics.formatMessage(d)}`));
    },
  });
}

/**
 * Registers a function that computes `scope`'s errors at synth time. Each error becomes one cdk8s validation
 * message, so `App.synth()` reports all of them together. Internal to the library.
 */
export function addErrorProducer(scope: IConstruct, producer: Producer): void {
  // cdk8s prefixes each validation message with `[<construct path>]` itself, so the message omits it.
  scope.node.addValidation({
    validate: () => producer().map((d) => Diagnostics.formatMessage(d)),
  });
}

/** Reads and formats the findings of a construct tree. */
export class Diagnostics {
  /**
   * Context key: when `true`, every warning is also reported as a synth error. Set it before adding
   * constructs: `app.node.setContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT, true)`.
   */
  public static readonly WARNINGS_AS_ERRORS_CONTEXT = 'cdk8s-olm-tenancy:warningsAsErrors';

  /**
   * Every warning of `scope` and the constructs below it, sorted by construct path, code and message.
   */
  public static warnings(scope: IConstruct): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const c of scope.node.findAll()) {
      for (const producer of warningProducers.get(c) ?? []) {
        for (const d of producer()) {
          const policyId = PolicyChecks.byCode(d.code)?.id;
          out.push({ ...d, severity: Severity.WARNING, constructPath: c.node.path, ...(policyId !== undefined ? { policyId } : {}) });
        }
      }
    }
    return out.sort(
      (a, b) =>
        cmp(a.constructPath, b.constructPath) || cmp(a.code, b.code) || cmp(a.field ?? '', b.field ?? '') || cmp(a.message, b.message),
    );
  }

  /**
   * One line per finding: `[path] field=value: message. Fix: fix (Code)` (`[path]: message ...` without a field);
   * a registered policy check adds its id: `(Code, OLMT-003)`.
   */
  public static format(d: Diagnostic): string {
    const where = whereOf(d);
    return `[${d.constructPath}]${where ? ` ${where}` : ''}: ${bodyOf(d)}`;
  }

  /**
   * A finding without its construct path: `field=value: message. Fix: fix (Code)`. This is the form of the
   * validation messages, because cdk8s prefixes them with `[<construct path>] ` itself.
   */
  public static formatMessage(d: DiagnosticDetails): string {
    const where = whereOf(d);
    return where ? `${where}: ${bodyOf(d)}` : bodyOf(d);
  }

  /** `Diagnostics.warnings(scope)`, one formatted line each, joined by newlines ('' when none). */
  public static report(scope: IConstruct): string {
    return Diagnostics.warnings(scope)
      .map((d) => `warning: ${Diagnostics.format(d)}`)
      .join('\n');
  }

  private constructor() {}
}

function whereOf(d: DiagnosticDetails): string {
  if (d.field) return `${d.field}${d.value !== undefined ? `=${JSON.stringify(d.value)}` : ''}`;
  return d.value !== undefined ? JSON.stringify(d.value) : '';
}

function bodyOf(d: DiagnosticDetails): string {
  const fix = d.fix ? ` Fix: ${d.fix}` : '';
  const policyId = PolicyChecks.byCode(d.code)?.id;
  return `${d.message}${/[.!?]$/.test(d.message) ? '' : '.'}${fix} (${d.code}${policyId !== undefined ? `, ${policyId}` : ''})`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
