/**
 * Errors and warnings found at synth time.
 *
 * cdk8s only knows validation errors (`Node.addValidation`); `App.synth()` collects every construct's errors and
 * throws them together. Warnings have no home in cdk8s, so constructs register producers here and callers read
 * them, sorted, with `Diagnostics.warnings(scope)` (deterministic: the same App always gives the same list).
 * Setting the context key `Diagnostics.WARNINGS_AS_ERRORS_CONTEXT` to true turns every warning into a synth error.
 */
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from './app-context';
import { CODE } from './diagnostic-codes';
import { DiagnosticDetails } from './diagnostic-details';
import { PolicyChecks } from './policy-checks';
import { SynthPass } from './synth-pass';

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
  /**
   * The prop that accepted the finding by name with a reason (e.g. `acceptedReach`): a decision, not an open warning.
   * @default - not accepted: an open finding
   */
  readonly acceptedBy?: string;
  /**
   * The reason given with `acceptedBy`.
   * @default - not accepted
   */
  readonly acceptedReason?: string;
}

/**
 * A risk accepted explicitly: one decision, the prop that took it and its reason (TENANCY.md "Accepted risks"). Both
 * accepted findings (a warning with `acceptedBy`) and decisions that leave no warning (a sensitive grant held by
 * name, a policy check lowered, an OLM v1 risk accepted) are listed.
 */
export interface AcceptedRisk {
  /** Path of the construct that took the decision. */
  readonly constructPath: string;
  /** The prop that accepted it, e.g. `acceptedReach`, `acceptedSensitiveGrants`, `policyChecks['OLMT-016']`. */
  readonly acceptedBy: string;
  /** What was accepted. */
  readonly what: string;
  /** The reason given; empty when the prop takes none (`policyChecks`, `allowedSensitiveGrants`). */
  readonly reason: string;
  /**
   * The policy check whose finding it accepts or lowers.
   * @default - none
   */
  readonly policyId?: string;
}

/** An accepted risk without its construct path (what a construct's acceptance producer returns). Internal. */
export type AcceptedRiskDetails = Omit<AcceptedRisk, 'constructPath'>;

type Producer = () => DiagnosticDetails[];
/** Each construct's warning producers (`addWarningProducer`), in the order they were added. */
const WARNING_PRODUCERS = new AppSlot('warningProducers', () => new Map<IConstruct, Producer[]>());
/** Each construct's acceptance producers (`addAcceptanceProducer`), in the order they were added. */
const ACCEPTANCE_PRODUCERS = new AppSlot('acceptanceProducers', () => new Map<IConstruct, Array<() => AcceptedRiskDetails[]>>());

/** The warning producers `c` registered, if any. */
function warningProducersOf(c: IConstruct): Producer[] | undefined {
  return AppContext.find(c, WARNING_PRODUCERS)?.get(c);
}

/**
 * Registers a function that lists `scope`'s accepted decisions that produce no warning (a sensitive grant held by
 * name, a lowered policy check, ...), for `Diagnostics.acceptedRisks`. Internal to the library.
 */
export function addAcceptanceProducer(scope: IConstruct, producer: () => AcceptedRiskDetails[]): void {
  const producers = AppContext.of(scope).get(ACCEPTANCE_PRODUCERS);
  producers.set(scope, [...(producers.get(scope) ?? []), producer]);
}

/**
 * Registers a function that computes `scope`'s warnings at synth time (after all mutations).
 * Internal to the library: not re-exported from the package root.
 */
export function addWarningProducer(scope: IConstruct, producer: Producer): void {
  const producers = AppContext.of(scope).get(WARNING_PRODUCERS);
  const list = producers.get(scope);
  if (list) {
    list.push(producer);
    return;
  }
  producers.set(scope, [producer]);
  // Strict mode: the same warnings, reported as synth errors.
  scope.node.addValidation({
    validate: () => {
      if (scope.node.tryGetContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT) !== true) return [];
      // an accepted finding is a decision, not an open warning
      return (warningProducersOf(scope) ?? []).flatMap((p) => p().filter((d) => d.acceptedBy === undefined).map((d) => `warning: ${Diagnostics.formatMessage(d)}`));
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
    validate: () => {
      // A check that throws must not hide the other constructs' errors (cdk8s stops at the first exception).
      let found: DiagnosticDetails[];
      try {
        found = producer();
      } catch (e) {
        found = [{
          code: CODE.InternalCheckFailed,
          message: `checking this construct failed: ${describeError(e)}`,
          fix: 'report this as a bug of cdk8s-olm-tenancy, with the input that caused it',
        }];
      }
      return found.map((d) => {
        const text = Diagnostics.formatMessage(d);
        rememberError(scope, text, d);
        return text;
      });
    },
  });
}

/** The structured finding behind each validation message of each construct (TenancyApp prints them readably). */
const ERROR_DETAILS = new AppSlot('errorDetails', () => new Map<IConstruct, Map<string, DiagnosticDetails>>());

function rememberError(scope: IConstruct, text: string, d: DiagnosticDetails): void {
  const details = AppContext.of(scope).get(ERROR_DETAILS);
  let map = details.get(scope);
  if (!map) details.set(scope, map = new Map());
  map.set(text, d);
}

/**
 * The finding a validation message of `scope` was formatted from (`undefined` for messages of other libraries).
 * Internal to the library.
 */
export function errorDetailsOf(scope: IConstruct, text: string): DiagnosticDetails | undefined {
  return AppContext.find(scope, ERROR_DETAILS)?.get(scope)?.get(text);
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
    // one pass: nothing changes while the producers run, so results computed for the App (the audit) are computed
    // once for this call and never taken from an earlier call (the App may have changed since)
    return SynthPass.run(scope.node.root, () => collectWarnings(scope));
  }

  /**
   * Every risk accepted explicitly under `scope`, one per decision: the warnings with `acceptedBy`, then the decisions
   * that produce no warning, sorted by construct path, prop and what (deterministic).
   */
  public static acceptedRisks(scope: IConstruct): AcceptedRisk[] {
    return SynthPass.run(scope.node.root, () => {
      const out: AcceptedRisk[] = [];
      for (const w of collectWarnings(scope)) {
        if (w.acceptedBy === undefined) continue;
        const where = whereOf(w);
        out.push({
          constructPath: w.constructPath,
          acceptedBy: w.acceptedBy,
          what: `${where ? `${where}: ` : ''}${w.message} (${w.code})`,
          reason: w.acceptedReason ?? '',
          ...(w.policyId !== undefined ? { policyId: w.policyId } : {}),
        });
      }
      const acceptances = AppContext.find(scope, ACCEPTANCE_PRODUCERS) ?? new Map();
      for (const c of acceptances.size === 0 ? [] : SynthPass.findAll(scope)) {
        for (const producer of acceptances.get(c) ?? []) {
          for (const r of producer()) out.push({ constructPath: c.node.path, ...r });
        }
      }
      return out.sort((a, b) => cmp(a.constructPath, b.constructPath) || cmp(a.acceptedBy, b.acceptedBy) || cmp(a.what, b.what));
    });
  }

  /**
   * One line per finding: `[path] field=value: message. Fix: fix (Code)` (`[path]: message ...` without a field);
   * a registered policy check adds its id: `(Code, OLMT-003)`.
   */
  public static format(d: Diagnostic): string {
    checkFinding('Diagnostics.format', d);
    const where = whereOf(d);
    return `[${Diagnostics.oneLine(d.constructPath)}]${where ? ` ${where}` : ''}: ${bodyOf(d)}`;
  }

  /**
   * A finding without its construct path: `field=value: message. Fix: fix (Code)`. This is the form of the
   * validation messages, because cdk8s prefixes them with `[<construct path>] ` itself.
   */
  public static formatMessage(d: DiagnosticDetails): string {
    checkFinding('Diagnostics.formatMessage', d);
    const where = whereOf(d);
    return where ? `${where}: ${bodyOf(d)}` : bodyOf(d);
  }

  /**
   * `text` made safe for a one-line message: newlines, tabs and other control characters (and U+2028/U+2029)
   * are escaped (`\n`, `\u0000`), and with `maxLength` > 0 the text is cut after `maxLength` characters with
   * `... (N more characters)`.
   *
   * @param text the text to show
   * @param maxLength cut after this many characters; 0 keeps everything @default 0
   */
  public static oneLine(text: string, maxLength: number = 0): string {
    let t = String(text);
    let suffix = '';
    if (maxLength > 0 && t.length > maxLength) {
      let cut = maxLength;
      const code = t.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--; // keep surrogate pairs whole
      suffix = `... (${t.length - cut} more characters)`;
      t = t.slice(0, cut);
    }
    return t.replace(CONTROL_CHARS, escapeControl) + suffix;
  }

  /**
   * A finding for people: a first line with the construct path, the policy id, the code, the field with its bad value
   * and what is wrong (`[path] OLMT-NNN Code: field="value": what is wrong`), cut at 160 characters but never inside
   * the field and value (those are cut at 100 characters); then the details indented by four spaces, wrapped and
   * capped: the field and value when the first line cut them, the whole message when the first line cut it, and the
   * fix. `format` keeps the one-line form for tools and logs.
   */
  public static formatReadable(d: Diagnostic): string {
    checkFinding('Diagnostics.formatReadable', d);
    const policyId = d.policyId ?? PolicyChecks._idOf(d.code);
    const where = whereOf(d);
    const shownWhere = cutTo(where, FIRST_LINE_WHERE);
    const head = `[${Diagnostics.oneLine(d.constructPath, 80)}] ${policyId !== undefined ? `${policyId} ` : ''}${Diagnostics.oneLine(d.code, 60)}: `
      + (shownWhere ? `${shownWhere}: ` : '');
    const message = Diagnostics.oneLine(String(d.message));
    // the bad value stays on the first line: the message gets what is left of 160 characters, at least 40
    const first = cutTo(head + message, Math.max(FIRST_LINE, head.length + FIRST_LINE_MESSAGE));
    const details: string[] = [];
    if (shownWhere !== where) details.push(...wrap(where, 4));
    if (first.length < head.length + message.length) details.push(...wrap(message, MAX_DETAIL_LINES));
    if (d.acceptedBy !== undefined) details.push(...wrap(`Accepted with ${Diagnostics.oneLine(String(d.acceptedBy))}: ${Diagnostics.oneLine(String(d.acceptedReason ?? ''))}`, MAX_DETAIL_LINES));
    else if (d.fix) details.push(...wrap(`Fix: ${Diagnostics.oneLine(String(d.fix))}`, MAX_DETAIL_LINES));
    return [first, ...details.map((l) => `    ${l}`)].join('\n');
  }

  /**
   * `Diagnostics.warnings(scope)` as lines `warning: <Diagnostics.format>`, joined by newlines ('' when none), in the
   * same order; constructs that report the same finding (same code, field, value, message and fix) share its line,
   * their paths listed in order: `warning: [tenant-a/Tenant, tenant-b/Tenant] field="value": message. (Code)`.
   * 5,000 tenants installing the same bundle get one line for its warning, not 5,000. The findings of one registered
   * policy check with the same fix are one line too (one decision: `[a] field="x"; [b] field="y": <the check's
   * summary>. Fix: ...`), and accepted findings come last, as `accepted: ... Accepted with <prop>: <reason> (Code)`.
   */
  public static report(scope: IConstruct): string {
    return SynthPass.run(scope.node.root, () => groupedReport(scope));
  }

  private constructor() {}
}

/**
 * The path a finding names for construct `c`: its construct path, or for the root of the tree (whose path is empty:
 * `[]` named nothing) its class, e.g. `TenancyApp`. Internal.
 */
export function constructPathOf(c: IConstruct): string {
  return c.node.path !== '' ? c.node.path : c.constructor.name;
}

/** `Diagnostics.warnings` inside its pass. */
function collectWarnings(scope: IConstruct): Diagnostic[] {
  const out: Diagnostic[] = [];
  const producers = AppContext.find(scope, WARNING_PRODUCERS) ?? new Map<IConstruct, Producer[]>();
  for (const c of producers.size === 0 ? [] : SynthPass.findAll(scope)) {
    for (const producer of producers.get(c) ?? []) {
      for (const d of producer()) {
        const policyId = PolicyChecks._idOf(d.code);
        out.push({ ...d, severity: Severity.WARNING, constructPath: constructPathOf(c), ...(policyId !== undefined ? { policyId } : {}) });
      }
    }
  }
  return out.sort(
    (a, b) =>
      cmp(a.constructPath, b.constructPath) || cmp(a.code, b.code) || cmp(a.field ?? '', b.field ?? '') || cmp(a.message, b.message),
  );
}

/**
 * `Diagnostics.report`: the warnings grouped by finding while the producers run, so that only one copy of each
 * distinct finding is kept (not one per construct: 10,000 at 5,000 tenants). Then one line per decision to take:
 * the groups of a registered policy check with the same fix are one line (`boilerplateLine`: e.g. OLMT-016 once for
 * every bundle that ships CRDs). The open warnings come first (`warning:`), the accepted findings last
 * (`accepted:`, with the prop and the reason instead of a fix).
 */
function groupedReport(scope: IConstruct): string {
  return reportText(warningGroupsOf(scope).groups()).text;
}

/**
 * What makes two findings the same (code, field, value, message, fix, acceptance), as one string: each part
 * length-prefixed, an absent one as `-` (cheaper than the JSON of the parts, for the 10,000 findings of 5,000 tenants).
 */
function findingKey(d: DiagnosticDetails): string {
  const part = (s: string | undefined) => (s === undefined ? '-' : `${s.length}:${s}`);
  return `${part(d.code)}${part(d.field)}${part(d.value)}${part(d.message)}${part(d.fix)}${part(d.acceptedBy)}${part(d.acceptedReason)}`;
}

/** One distinct finding and the paths of the constructs reporting it, sorted. */
interface FindingGroup {
  readonly finding: DiagnosticDetails;
  readonly paths: string[];
}

/** The warnings of every construct under `scope`, grouped by finding (inside a `SynthPass`). */
function warningGroupsOf(scope: IConstruct): WarningGroups {
  const groups = new WarningGroups();
  for (const c of SynthPass.findAll(scope)) groups.add(c);
  return groups;
}

/**
 * The warnings of constructs visited one by one, grouped by finding as `Diagnostics.report` groups them (one copy of
 * each distinct finding, with the paths reporting it). `TenancyApp` visits each construct once per synthesis, for
 * its errors and its warnings together: what its checks computed for both is then let go at once (`PassMemo`).
 * Internal to the library.
 */
export class WarningGroups {
  private readonly byKey = new Map<string, { finding: DiagnosticDetails; paths: string[] }>();

  /** Runs `c`'s warning producers (visit constructs in tree order). */
  public add(c: IConstruct): void {
    const producers = warningProducersOf(c);
    if (producers === undefined) return;
    const path = constructPathOf(c);
    for (const producer of producers) {
      for (const d of producer()) {
        const key = findingKey(d);
        const group = this.byKey.get(key);
        if (group === undefined) this.byKey.set(key, { finding: d, paths: [path] });
        else if (group.paths[group.paths.length - 1] !== path) group.paths.push(path);
      }
    }
  }

  /** The groups, in the order of `Diagnostics.warnings` (each at its first path), paths sorted. */
  public groups(): FindingGroup[] {
    const sorted = [...this.byKey.values()].map(({ finding, paths }) => ({ finding, paths: [...new Set(paths)].sort(cmp) }));
    return sorted.sort((a, b) => cmp(a.paths[0], b.paths[0]) || cmp(a.finding.code, b.finding.code)
      || cmp(a.finding.field ?? '', b.finding.field ?? '') || cmp(a.finding.message, b.finding.message));
  }

  /**
   * The text as `Diagnostics.report` writes it (`full`: every path, for WARNINGS.txt) and as a terminal shows it
   * (`short`: a few paths of each finding and the count of the others, no line longer than a screen; `shortened`
   * when it differs from `full`).
   */
  public reports(): { full: string; short: string; shortened: boolean } {
    const groups = this.groups();
    const full = reportText(groups).text;
    const short = reportText(groups, TERMINAL);
    return { full, short: short.shortened ? short.text : full, shortened: short.shortened };
  }
}

/** How the warnings are shown on a terminal: a few paths of each finding, no line longer than a screen. */
interface ShortForm {
  /** Paths named per finding; the others are counted (`..., ... and 4,997 more`). */
  readonly maxPaths: number;
  /** Characters of a line (a longer one is cut, saying how much was left out). */
  readonly maxLineLength: number;
}

/** The terminal form: three paths per finding, lines of at most a screen (80 columns by 24 rows). */
const TERMINAL: ShortForm = { maxPaths: 3, maxLineLength: 80 * 24 };
/** Characters of one path among the few named in the terminal form. */
const MAX_SHOWN_PATH = 120;

/**
 * The lines of `groups` (`Diagnostics.report`'s form, or `form`'s), and whether `form` shortened any. One line per
 * decision to take: the groups of a registered policy check with the same fix are one line (`boilerplateLine`, e.g.
 * OLMT-016 once for every bundle that ships CRDs); open warnings first (`warning:`), accepted findings last
 * (`accepted:`, with the prop and the reason instead of a fix).
 */
function reportText(groups: FindingGroup[], form?: ShortForm): { text: string; shortened: boolean } {
  let shortened = false;
  const pathsOf = (paths: string[]): string => {
    if (form === undefined || paths.length <= form.maxPaths + 1) return paths.join(', ');
    shortened = true;
    return `${paths.slice(0, form.maxPaths).map((p) => Diagnostics.oneLine(p, MAX_SHOWN_PATH)).join(', ')}, ... and `
      + `${(paths.length - form.maxPaths).toLocaleString('en-US')} more`;
  };
  const fit = (line: string): string => {
    if (form === undefined || line.length <= form.maxLineLength) return line;
    shortened = true;
    return cutLine(line, form.maxLineLength);
  };
  const open: FindingGroup[] = [];
  const accepted: FindingGroup[] = [];
  for (const g of groups) (g.finding.acceptedBy === undefined ? open : accepted).push(g);
  // a registered check's groups with the same fix: one line, at its first group's place
  const byDecision = new Map<string, FindingGroup[]>();
  let alone = 0;
  for (const g of open) {
    const { code, fix } = g.finding;
    const key = PolicyChecks._idOf(code) !== undefined && fix !== undefined ? `${code.length}:${code}${fix}` : `-${alone++}`;
    const same = byDecision.get(key);
    if (same === undefined) byDecision.set(key, [g]);
    else same.push(g);
  }
  const line = (prefix: string, g: FindingGroup) =>
    `${prefix}: ${Diagnostics.format({ ...g.finding, severity: Severity.WARNING, constructPath: pathsOf(g.paths) })}`;
  const lines: string[] = [];
  for (const gs of byDecision.values()) lines.push(fit(gs.length === 1 ? line('warning', gs[0]) : boilerplateLine(gs, pathsOf)));
  for (const g of accepted) lines.push(fit(line('accepted', g)));
  return { text: lines.join('\n'), shortened };
}

/**
 * One line for the groups of one registered policy check with the same fix: each group's paths and value, then the
 * check's summary (the groups' messages differ only in what the values say), the fix and the code:
 * `warning: [a, b] field="x"; [c] field="y": <summary>. Fix: <fix> (Code, OLMT-016)`.
 */
function boilerplateLine(groups: FindingGroup[], pathsOf: (paths: string[]) => string): string {
  const subjects = groups.map((g) => {
    const where = whereOf(g.finding);
    return `[${Diagnostics.oneLine(pathsOf(g.paths))}]${where ? ` ${where}` : ''}`;
  });
  const first = groups[0].finding;
  return `warning: ${subjects.join('; ')}: ${bodyOf({ ...first, message: PolicyChecks.byCode(first.code)!.summary })}`;
}

/** `line` (one line, already escaped) cut to at most `max` characters, ending in `... (N more characters)`. */
function cutLine(line: string, max: number): string {
  // the suffix's length depends on the count it names: size it for the longest count
  let cut = max - `... (${line.length} more characters)`.length;
  const code = line.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // keep surrogate pairs whole
  return `${line.slice(0, cut)}... (${line.length - cut} more characters)`;
}

/**
 * The warnings of `scope` as `Diagnostics.report` writes them and as a terminal shows them (`WarningGroups.reports`),
 * from one run of the producers. Internal to the library.
 */
export function warningReports(scope: IConstruct): { full: string; short: string; shortened: boolean } {
  return SynthPass.run(scope.node.root, () => warningGroupsOf(scope).reports());
}

/** Longest value shown in a formatted finding (the structured `Diagnostic.value` keeps all of it). */
const MAX_VALUE_LENGTH = 300;
/** Longest field name, message and fix shown in a formatted finding: one finding stays below 8 KB. */
const MAX_FIELD_LENGTH = 200;
const MAX_MESSAGE_LENGTH = 6000;
const MAX_FIX_LENGTH = 1000;

/**
 * Readable findings: the first line, the field and value on it, the least of the message it shows, the width of a
 * detail line and the lines of one detail.
 */
const FIRST_LINE = 160;
const FIRST_LINE_WHERE = 100;
const FIRST_LINE_MESSAGE = 40;
const DETAIL_WIDTH = 116;
const MAX_DETAIL_LINES = 12;

/** `text` cut to `max` characters, ending in '...' when cut. */
function cutTo(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/** `text` wrapped at spaces to DETAIL_WIDTH columns, at most `maxLines` lines (the last says how much is left out). */
function wrap(text: string, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    if (lines.length === maxLines - 1 && rest.length > DETAIL_WIDTH) {
      const kept = rest.slice(0, DETAIL_WIDTH - 40);
      lines.push(`${kept}... (${rest.length - kept.length} more characters)`);
      break;
    }
    if (rest.length <= DETAIL_WIDTH) {
      lines.push(rest);
      break;
    }
    let at = rest.lastIndexOf(' ', DETAIL_WIDTH);
    if (at <= 0) at = DETAIL_WIDTH;
    lines.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^ +/, '');
  }
  return lines;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

function escapeControl(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A value as a quoted one-line string, cut after MAX_VALUE_LENGTH characters. */
function quoted(value: string): string {
  const text = String(value);
  if (text.length <= MAX_VALUE_LENGTH) return Diagnostics.oneLine(JSON.stringify(text));
  return `${Diagnostics.oneLine(JSON.stringify(text.slice(0, MAX_VALUE_LENGTH)))}... (${text.length - MAX_VALUE_LENGTH} more characters)`;
}

function whereOf(d: DiagnosticDetails): string {
  const field = d.field ? Diagnostics.oneLine(d.field, MAX_FIELD_LENGTH) : '';
  if (field) return `${field}${d.value !== undefined ? `=${quoted(d.value)}` : ''}`;
  return d.value !== undefined ? quoted(d.value) : '';
}

function bodyOf(d: DiagnosticDetails): string {
  const message = Diagnostics.oneLine(String(d.message), MAX_MESSAGE_LENGTH);
  // an accepted finding says who accepted it and why, and has no fix to offer
  const fix = d.acceptedBy !== undefined
    ? ` Accepted with ${Diagnostics.oneLine(String(d.acceptedBy), MAX_FIELD_LENGTH)}: ${Diagnostics.oneLine(String(d.acceptedReason ?? ''), MAX_FIX_LENGTH)}`
    : d.fix ? ` Fix: ${Diagnostics.oneLine(String(d.fix), MAX_FIX_LENGTH)}` : '';
  const policyId = PolicyChecks._idOf(d.code);
  const code = Diagnostics.oneLine(String(d.code), MAX_FIELD_LENGTH);
  return `${message}${/[.!?]$/.test(message) ? '' : '.'}${fix} (${code}${policyId !== undefined ? `, ${policyId}` : ''})`;
}

/** A finding must be an object with a message and a code (JavaScript and jsii callers can pass anything). */
function checkFinding(method: string, d: unknown): void {
  if (d === null || typeof d !== 'object' || typeof (d as any).message !== 'string' || typeof (d as any).code !== 'string') {
    throw new Error(`${method}: the finding must be an object with string 'code' and 'message', got ${d === null ? 'null' : typeof d}`);
  }
}

function describeError(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    return 'an unprintable error';
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
