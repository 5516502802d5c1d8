/**
 * Runtime checks of public input. TypeScript types vanish at runtime: JavaScript callers and the jsii languages
 * (Python, Java, Go, .NET) can pass anything, so every construct and public method checks what it receives here
 * first, records one `DiagnosticDetails` per problem (reported at synth by the construct's error producer) and
 * goes on with a safe value, so nothing downstream meets a wrong type. Internal: not re-exported from the package.
 */
import { isSealed } from './content-cache';
import { CODE } from './diagnostic-codes';
import { DiagnosticDetails } from './diagnostic-details';
import { Diagnostics } from './diagnostics';
import { KubernetesNames, NameRule } from './kubernetes-names';
import { PROP_NAMES } from './prop-names';

/** Codes of input errors. */
export const INPUT_CODES = {
  /** A required prop or argument is missing (undefined or null). */
  missing: CODE.MissingInput,
  /** A prop or argument has the wrong type (a number where a string is expected, ...). */
  type: CODE.InvalidInputType,
  /** An enum-typed value that is not one of the enum's values. */
  enumValue: CODE.InvalidEnumValue,
  /** A value of the right type that cannot be used (a newline in an image reference, ...). */
  value: CODE.InvalidInputValue,
  /** An object of the library (a TargetNamespaces, an OperatorBundle, a catalog, a subject) was expected. */
  reference: CODE.InvalidReference,
  /** A prop the struct does not have (a misspelling: TypeScript refuses it, JavaScript and jsii would ignore it). */
  unknownProp: CODE.UnknownProp,
} as const;

/** At most this many elements of a list (or entries of a map) are checked one by one; the rest is one error. */
const MAX_ERRORS_PER_LIST = 20;

/** How a value is named in messages: its type, and the value itself shown safely on one line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list (${show(safeJson(value))})`;
  switch (typeof value) {
    case 'string': return `the string ${show(JSON.stringify(value))}`;
    case 'number': case 'boolean': case 'bigint': return `the ${typeof value} ${String(value)}`;
    case 'function': return 'a function';
    case 'symbol': return 'a symbol';
    default: return `an object (${show(safeJson(value))})`;
  }
}

/** Longest value quoted inside a message. */
const MAX_SHOWN = 100;

function show(text: string): string {
  return Diagnostics.oneLine(text, MAX_SHOWN);
}

/** The value as text for `DiagnosticDetails.value` (never throws: cycles, BigInt and getters that throw are handled). */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return safeJson(value);
}

function safeJson(value: unknown): string {
  try {
    const seen = new WeakSet<object>();
    const text = JSON.stringify(value, (_k, v) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'function') return '[function]';
      if (typeof v === 'symbol') return String(v);
      if (v !== null && typeof v === 'object') {
        if (seen.has(v)) return '[cycle]';
        seen.add(v);
      }
      return v;
    });
    return text === undefined ? String(value) : text;
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '[unprintable]';
    }
  }
}

/** A value for an error message: JSON on one line, cut after 300 characters (never throws). */
export function shown(value: unknown): string {
  return Diagnostics.oneLine(value === undefined ? 'undefined' : safeJson(value), 300);
}

/** True for a plain object (not null, not an array). */
export function isObject(value: unknown): value is { [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `checked` plus the keys of `raw` it does not have: props a check does not know (added by other features) pass
 * through unchanged. Not `{ ...raw, known: ... }`: an object literal that spreads the caller's object and then adds
 * dozens of keys gets a hidden-class chain of its own on every call (measured: ~16 KB of garbage per tenant, and
 * kept maps), while `checked` here is a literal of one shared shape.
 */
export function withUnknownProps<T extends object>(checked: T, raw: object): T {
  let keys: string[];
  try {
    keys = Object.keys(raw);
  } catch {
    return checked; // a Proxy whose ownKeys throws: the known props were read one by one already
  }
  for (const k of keys) {
    if (Object.prototype.hasOwnProperty.call(checked, k)) continue;
    Object.defineProperty(checked, k, { value: prop(raw, k), enumerable: true, writable: true, configurable: true });
  }
  return checked;
}

/** Reads a property without letting a throwing getter or a Proxy escape. */
export function prop(obj: unknown, key: string): unknown {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) return undefined;
  try {
    return (obj as any)[key];
  } catch {
    return undefined;
  }
}

/** Options of a string check. */
export interface StringCheckOptions {
  /** How to fix a wrong value. */
  readonly fix?: string;
  /** Refuse newlines and other control characters (names, images, references). Default true. */
  readonly singleLine?: boolean;
}

/**
 * Collects the input errors of one construct or method call. Each check returns a value that is safe to use (of
 * the declared type) or `undefined`; the problems are in `errors`.
 */
export class InputCheck {
  public readonly errors: DiagnosticDetails[] = [];

  /** @param prefix prepended to every field name, e.g. `subscribe(etcd).` */
  constructor(private readonly prefix: string = '') {}

  /** Records an error. */
  public add(d: DiagnosticDetails): void {
    this.errors.push({ ...d, field: d.field !== undefined ? `${this.prefix}${d.field}` : this.prefix.replace(/\.$/, '') || undefined });
  }

  /**
   * Records one `UnknownProp` error per key of `raw` that the struct `struct` (an interface of src/, see
   * src/core/prop-names.ts) does not have, with the nearest prop name as the fix. TypeScript refuses such a key,
   * but JavaScript, YAML-driven callers and the jsii languages would silently ignore a misspelled prop (and get its
   * default). Keys whose value is `undefined` change nothing and are not reported. jsii bindings are unaffected:
   * the kernel copies a struct with its declared properties only (`SerializationClass.Struct` deserialize in
   * aws/jsii packages/@jsii/kernel/src/serialization.ts drops unknown keys), and Python's struct classes refuse
   * unknown keyword arguments themselves.
   * @param prefix prepended to the key in messages, e.g. `legacyPullSecretAccess.`
   * @param owner how the message names the owner, e.g. `ScopedOperatorTenant`
   * @param extra names accepted besides the struct's own
   */
  public knownProps(raw: unknown, struct: string, owner: string, prefix: string = '', extra: readonly string[] = []): void {
    if (!isObject(raw)) return;
    const known = PROP_NAMES[struct];
    if (known === undefined) throw new Error(`internal: no prop names for ${struct} (regenerate src/core/prop-names.ts)`);
    let keys: string[];
    try {
      keys = Object.keys(raw);
    } catch {
      return;
    }
    let errors = 0;
    for (const key of keys) {
      if (known.includes(key) || extra.includes(key) || prop(raw, key) === undefined) continue;
      if (++errors > MAX_ERRORS_PER_LIST) continue;
      const suggestion = nearestName(key, [...known, ...extra]);
      this.add({
        code: INPUT_CODES.unknownProp,
        field: `${prefix}${key}`,
        value: valueText(prop(raw, key)),
        message: `${owner} has no prop ${JSON.stringify(key)}${suggestion !== undefined ? `; did you mean ${JSON.stringify(suggestion)}?` : ''}`,
        fix: suggestion !== undefined
          ? `rename it to ${prefix}${suggestion}`
          : `remove it; the props are ${Diagnostics.oneLine([...known, ...extra].join(', '), 300)}`,
      });
    }
    if (errors > MAX_ERRORS_PER_LIST) {
      this.add({ code: INPUT_CODES.unknownProp, field: prefix.replace(/\.$/, '') || undefined, message: `${errors - MAX_ERRORS_PER_LIST} more unknown prop(s) of ${owner} are not listed`, fix: 'remove the props the struct does not have' });
    }
  }

  /** A required string; `undefined` (and an error) when missing or not a string. */
  public requiredString(field: string, value: unknown, fix: string, options: StringCheckOptions = {}): string | undefined {
    if (value === undefined || value === null) {
      this.add({ code: INPUT_CODES.missing, field, message: `${field} is required but ${value === null ? 'null' : 'missing'}`, fix });
      return undefined;
    }
    return this.optionalString(field, value, { ...options, fix });
  }

  /** An optional string (null counts as not given, as in jsii). */
  public optionalString(field: string, value: unknown, options: StringCheckOptions = {}): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be a string, got ${describeValue(value)}`, fix: options.fix ?? `pass ${field} as a string` });
      return undefined;
    }
    if (LONE_SURROGATE.test(value)) {
      this.add(unrepresentable(field, value));
      return undefined;
    }
    if ((options.singleLine ?? true) && CONTROL.test(value)) {
      this.add({
        code: INPUT_CODES.value,
        field,
        value,
        message: `${field} contains a newline or another control character`,
        fix: options.fix ?? `remove the control characters from ${field}`,
      });
      return undefined;
    }
    return value;
  }

  /** An optional boolean. */
  public optionalBoolean(field: string, value: unknown): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be true or false, got ${describeValue(value)}`, fix: `pass ${field} as a boolean` });
      return undefined;
    }
    return value;
  }

  /** An optional finite number. */
  public optionalNumber(field: string, value: unknown): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be a finite number, got ${describeValue(value)}`, fix: `pass ${field} as a number` });
      return undefined;
    }
    return value;
  }

  /**
   * An optional value of a string enum.
   * @param enumName the enum's name in messages, e.g. `UpgradeStrategy`
   */
  public optionalEnum<T extends string>(field: string, value: unknown, enumObject: { [key: string]: T }, enumName: string): T | undefined {
    if (value === undefined || value === null) return undefined;
    const values = Object.values(enumObject);
    if (typeof value === 'string' && (values as string[]).includes(value)) return value as T;
    this.add({
      code: INPUT_CODES.enumValue,
      field,
      value: valueText(value),
      message: `${field} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(value)}`,
      fix: `use ${Object.keys(enumObject).map((k) => `${enumName}.${k}`).join(' or ')}`,
    });
    return undefined;
  }

  /**
   * A required object argument: `undefined` and an error when missing or not an object.
   * @param subject how the message names the value @default field
   */
  public requiredObject(field: string, value: unknown, what: string, fix: string, subject: string = field): { [key: string]: unknown } | undefined {
    if (isObject(value)) return value;
    this.add({
      code: value === undefined || value === null ? INPUT_CODES.missing : INPUT_CODES.type,
      field,
      value: value === undefined ? undefined : valueText(value),
      message: `${subject} must be ${what}, got ${describeValue(value)}`,
      fix,
    });
    return undefined;
  }

  /** A required list (`[]` allowed); each element checked by `element` (see `optionalArray`). */
  public requiredArray<T>(field: string, value: unknown, element: (v: unknown, f: string) => T | undefined, fix: string): T[] | undefined {
    if (value === undefined || value === null) {
      this.add({ code: INPUT_CODES.missing, field, message: `${field} is required but ${value === null ? 'null' : 'missing'}`, fix });
      return undefined;
    }
    return this.optionalArray(field, value, element, fix);
  }

  /** An optional object (struct); `undefined` and an error when it is something else. */
  public optionalObject(field: string, value: unknown, fix: string): { [key: string]: unknown } | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be an object, got ${describeValue(value)}`, fix });
      return undefined;
    }
    return value;
  }

  /**
   * An optional list; each element goes through `element` (which returns undefined to drop it, after recording
   * its own error). At most `MAX_ERRORS_PER_LIST` element errors are recorded, then one summary error.
   */
  public optionalArray<T>(field: string, value: unknown, element: (v: unknown, field: string) => T | undefined, fix?: string): T[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be a list, got ${describeValue(value)}`, fix: fix ?? `pass ${field} as a list` });
      return undefined;
    }
    const out: T[] = [];
    const before = this.errors.length;
    let suppressed = 0;
    for (let i = 0; i < value.length; i++) {
      const mark = this.errors.length;
      const v = element(value[i], `${field}[${i}]`);
      if (this.errors.length - before > MAX_ERRORS_PER_LIST) {
        suppressed += this.errors.length - mark;
        this.errors.length = mark;
      }
      if (v !== undefined) out.push(v);
    }
    if (suppressed > 0) {
      this.add({ code: INPUT_CODES.value, field, message: `${suppressed} more problem(s) in ${field} are not listed`, fix: `fix the problems listed for ${field} first` });
    }
    return out;
  }

  /** An optional list of strings (wrong elements are dropped with an error). */
  public optionalStringArray(field: string, value: unknown, fix?: string): string[] | undefined {
    return this.optionalArray(field, value, (v, f) => this.requiredString(f, v, fix ?? `pass ${field} as a list of strings`), fix);
  }

  /**
   * An optional string map (labels, annotations, node selectors). With `labels`, keys and values follow
   * Kubernetes' label rules; with `annotations`, keys follow them (`ValidateLabels` / `ValidateAnnotations` in
   * k8s.io/apimachinery/pkg/api/validation/objectmeta.go).
   */
  public optionalStringMap(field: string, value: unknown, kind: 'labels' | 'annotations' | 'plain' = 'plain'): { [key: string]: string } | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value) || value instanceof Map) {
      this.add({ code: INPUT_CODES.type, field, value: valueText(value), message: `${field} must be an object of string keys and string values, got ${describeValue(value)}`, fix: `pass ${field} as e.g. { "team": "a" }` });
      return undefined;
    }
    const out: { [key: string]: string } = {};
    let errors = 0;
    for (const key of Object.keys(value)) {
      const v = prop(value, key);
      const where = `${field}[${JSON.stringify(key)}]`;
      const report = (d: DiagnosticDetails) => {
        errors++;
        if (errors <= MAX_ERRORS_PER_LIST) this.add(d);
      };
      if (typeof v !== 'string') {
        report({ code: INPUT_CODES.type, field: where, value: valueText(v), message: `the value of ${where} must be a string, got ${describeValue(v)}`, fix: `quote it: ${JSON.stringify(key)}: ${JSON.stringify(String(valueText(v)))}` });
        continue;
      }
      if (kind !== 'plain') {
        const keyProblem = qualifiedNameProblem(key);
        if (keyProblem) {
          report({ code: CODE.InvalidLabelOrAnnotation, field, value: key, message: `${kind === 'labels' ? 'label' : 'annotation'} key ${keyProblem}`, fix: "use an optional DNS subdomain prefix and '/' followed by a name of at most 63 alphanumerics, '-', '_' or '.', e.g. 'example.com/team'" });
          continue;
        }
      }
      const loneKey = LONE_SURROGATE.test(key);
      if (loneKey || LONE_SURROGATE.test(v)) {
        report(unrepresentable(loneKey ? `${where} (key)` : where, loneKey ? key : v));
        continue;
      }
      if (kind === 'labels') {
        const valueProblem = labelValueProblem(v);
        if (valueProblem) {
          report({ code: CODE.InvalidLabelOrAnnotation, field: where, value: v, message: `label value ${valueProblem}`, fix: "use at most 63 alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric (or an empty value); put free text in an annotation" });
          continue;
        }
      }
      out[key] = v;
    }
    if (errors > MAX_ERRORS_PER_LIST) {
      this.add({ code: INPUT_CODES.value, field, message: `${errors - MAX_ERRORS_PER_LIST} more problem(s) in ${field} are not listed`, fix: `fix the problems listed for ${field} first` });
    }
    return out;
  }

  /**
   * An object that must be an instance of a class of this library (checked with `instanceof`, which holds for
   * objects passed through jsii too: they are the library's own instances).
   */
  public optionalInstance<T>(field: string, value: unknown, cls: { prototype: T; name: string }, fix: string): T | undefined {
    if (value === undefined || value === null) return undefined;
    if (!(value instanceof (cls as any))) {
      this.add({ code: INPUT_CODES.reference, field, value: valueText(value), message: `${field} must be a ${cls.name}, got ${describeValue(value)}`, fix });
      return undefined;
    }
    return value as T;
  }

  /**
   * An object implementing an interface (a jsii interface may be implemented in another language): it must have
   * the named methods.
   */
  public optionalImplementation<T>(field: string, value: unknown, interfaceName: string, methods: string[], fix: string): T | undefined {
    if (value === undefined || value === null) return undefined;
    const lacking = methods.filter((m) => typeof prop(value, m) !== 'function');
    if (lacking.length > 0) {
      this.add({
        code: INPUT_CODES.reference,
        field,
        value: valueText(value),
        message: `${field} must implement ${interfaceName} (${methods.join(', ')}), got ${describeValue(value)}`,
        fix,
      });
      return undefined;
    }
    return value as T;
  }

  /** A Kubernetes name that is a string: its name-rule problem is recorded as `InvalidName`. */
  public name(field: string, value: string | undefined, rule: NameRule, kind: string): string | undefined {
    if (value === undefined) return undefined;
    const problem = KubernetesNames.problem(value, rule);
    if (!problem) return value;
    this.add({ code: CODE.InvalidName, field, value, message: `${kind} name ${problem}`, fix: `use ${NAME_SHAPE[rule]}` });
    return undefined;
  }
}

/**
 * Throws the errors of `check` as one plain Error in the diagnostics format, prefixed with the method
 * (`Class.method: field=value: message. Fix: ... (Code); ...`): for static methods, which run outside constructs.
 */
export function throwIfInvalid(check: InputCheck, method: string): void {
  if (check.errors.length === 0) return;
  throw new Error(`${method}: ${check.errors.map((d) => Diagnostics.formatMessage(d)).join('; ')}`);
}

/**
 * The candidate nearest to `word` by edit distance (Levenshtein, case-insensitive), when it is near enough to be a
 * misspelling: at most 2 edits, or a third of the word's length for long names; ties go to the first candidate.
 */
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance (insert, delete, substitute: 1 each). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** What a valid name looks like, per rule (for `fix` texts). */
export const NAME_SHAPE: Record<NameRule, string> = {
  [NameRule.DNS1123_LABEL]: 'a lower-case RFC 1123 label (at most 63 characters)',
  [NameRule.DNS1123_SUBDOMAIN]: 'a lower-case RFC 1123 subdomain (at most 253 characters)',
  [NameRule.PATH_SEGMENT]: "a name without '/' or '%'",
};

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether `optionalString` (single line) passes `value` as it is: a string without control characters or lone surrogates. */
export function isCleanString(value: unknown): value is string {
  return typeof value === 'string' && !CONTROL.test(value) && !LONE_SURROGATE.test(value);
}

/** A UTF-16 surrogate without its pair: no UTF-8 encoding exists, and go-yaml refuses `\uD800`-style escapes. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The error for a string no reader of Kubernetes reads as written (the writer refuses it too: src/output/yaml-writer.ts). */
function unrepresentable(field: string, value: string): DiagnosticDetails {
  return {
    code: CODE.UnrepresentableYamlValue,
    field,
    value,
    message: `${field} holds a lone UTF-16 surrogate, which has no UTF-8 encoding: Kubernetes' YAML reader (go-yaml v2) refuses the file (or the character is replaced), so the cluster would not read it as written`,
    fix: 'remove the character, or write the whole surrogate pair (e.g. from String.fromCodePoint)',
  };
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** `IsQualifiedName` (k8s.io/apimachinery/pkg/util/validation/validation.go). */
function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    if (prefix.length === 0) return 'has an empty prefix before \'/\'';
    const p = KubernetesNames.problem(prefix, NameRule.DNS1123_SUBDOMAIN);
    if (p) return `prefix ${p}`;
    name = rest;
  } else if (parts.length > 2) {
    return "may contain at most one '/'";
  }
  if (name.length === 0) return 'has an empty name part';
  if (name.length > 63) return `name part must be no more than 63 characters (has ${name.length})`;
  if (!QUALIFIED_NAME.test(name)) return "name part must consist of alphanumerics, '-', '_' or '.', and must start and end with an alphanumeric";
  return undefined;
}

/** `IsValidLabelValue`. */
function labelValueProblem(v: string): string | undefined {
  if (v.length > 63) return `must be no more than 63 characters (has ${v.length})`;
  if (v.length > 0 && !QUALIFIED_NAME.test(v)) return "must consist of alphanumerics, '-', '_' or '.', and must start and end with an alphanumeric";
  return undefined;
}

/** The shape of a PolicyRule (lists of strings): `undefined` and an error when it is not one. */
/** The fields of a PolicyRule (src/rbac/policy-rule.ts), without importing the rbac layer into core. */
export interface RuleShape {
  readonly verbs: string[];
  readonly apiGroups?: string[];
  readonly resources?: string[];
  readonly resourceNames?: string[];
  readonly nonResourceUrls?: string[];
}

/**
 * @param named whether a rule of neither resources nor non-resource URLs is an error (rules to grant or to ask for:
 * the API server refuses it); false for rules that are only asked what they allow (such a rule allows nothing)
 */
/**
 * Whether `value` is a deep-frozen rule that `checkRuleShape` (`named`: of a rule that is written) passed before: it
 * can never fail. Callers checking the same shared rules for every tenant skip the check (and its field names).
 */
export function isCheckedSealedRule(value: unknown, named: boolean = true): boolean {
  return value !== null && typeof value === 'object' && (named ? CLEAN_SEALED_RULES_CACHE : CLEAN_SEALED_QUERY_RULES_CACHE).has(value);
}

export function checkRuleShape(check: InputCheck, field: string, value: unknown, named: boolean = true): RuleShape | undefined {
  // a deep-frozen rule that passed once can never fail (the library's shared derived rules: thousands of tenants)
  const clean = named ? CLEAN_SEALED_RULES_CACHE : CLEAN_SEALED_QUERY_RULES_CACHE;
  if (value !== null && typeof value === 'object' && clean.has(value)) return value as RuleShape;
  const checked = checkRuleShapeOnce(check, field, value, named);
  if (checked === value && isSealed(value as object)) clean.add(value as object);
  return checked;
}

/** Sealed (`seal`) rules that passed `checkRuleShape` as they are (named, and not). */
const CLEAN_SEALED_RULES_CACHE = new WeakSet<object>();
const CLEAN_SEALED_QUERY_RULES_CACHE = new WeakSet<object>();

function checkRuleShapeOnce(check: InputCheck, field: string, value: unknown, named: boolean): RuleShape | undefined {
  if (value === undefined || value === null || !isObject(value)) {
    check.add({
      code: value === undefined || value === null ? INPUT_CODES.missing : INPUT_CODES.type,
      field,
      value: value === undefined ? undefined : valueText(value),
      message: `${field} must be a PolicyRule object, got ${describeValue(value)}`,
      fix: 'pass e.g. { apiGroups: [""], resources: ["configmaps"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson)',
    });
    return undefined;
  }
  let bad = false;
  let hasNull = false;
  for (const key of RULE_FIELDS) {
    const v = prop(value, key);
    if (v === undefined) continue;
    if (v === null) {
      hasNull = true;
      continue;
    }
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      bad = true;
      check.add({
        code: INPUT_CODES.type,
        field: `${field}.${key}`,
        value: valueText(v),
        message: `${field}.${key} must be a list of strings, got ${describeValue(v)}`,
        fix: `write e.g. ${key}: [${key === 'nonResourceUrls' ? '"/healthz"' : key === 'verbs' ? '"get"' : '"x"'}] (read Kubernetes JSON with PolicyRules.fromJson)`,
      });
    }
  }
  if (bad) return undefined;
  const unreadable = ruleReadProblems(field, value).filter((d) => named || d.code === INPUT_CODES.unknownProp);
  if (unreadable.length > 0) {
    for (const d of unreadable) check.add(d);
    return undefined;
  }
  if (prop(value, 'verbs') === undefined || prop(value, 'verbs') === null) {
    check.add({ code: INPUT_CODES.missing, field: `${field}.verbs`, message: `${field} has no verbs`, fix: 'list the verbs, e.g. verbs: ["get", "list"]' });
    return undefined;
  }
  // the rule itself when it is clean (its identity matters to callers that track particular rules, and thousands
  // of tenants pass the same shared rules: no copy), else a copy of the rule fields without the null ones
  if (!hasNull && !Object.keys(value).some((k) => prop(value, k) === null)) return value as any;
  const out: any = {};
  for (const key of RULE_FIELDS) {
    const v = prop(value, key);
    if (Array.isArray(v)) out[key] = [...v];
  }
  return out;
}

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceUrls'] as const;

/**
 * What makes a PolicyRule object unreadable for the RBAC engine (the fields' types are checked separately):
 * - a key the struct does not have (`resourcez`, or `nonResourceURLs`, the Kubernetes JSON spelling of
 *   `nonResourceUrls`): the engine would read the rule without it, e.g. as a rule of nothing that every owner
 *   "covers". One `UnknownProp` per key, with the nearest field name (keys whose value is `undefined` are ignored);
 * - a rule with neither `resources` nor `nonResourceUrls` (both absent or empty): it names nothing, grants nothing and
 *   is refused by the API server (`ValidatePolicyRule`, kubernetes pkg/apis/rbac/validation/validation.go), so
 *   whatever it was meant to say is lost. Reported only when no key is unknown (the unknown key is the cause).
 * Empty when the rule is readable. Field names in the results are prefixed with `field`.
 */
export function ruleReadProblems(field: string, value: object): DiagnosticDetails[] {
  // the engine's hot path (every rule of every RbacRules call): no key list is allocated for a clean rule
  let keys: string[] | undefined;
  try {
    for (const key in value) {
      if (key === 'verbs' || key === 'apiGroups' || key === 'resources' || key === 'resourceNames' || key === 'nonResourceUrls') continue;
      if (Object.prototype.hasOwnProperty.call(value, key)) (keys ??= []).push(key);
    }
  } catch {
    keys = undefined; // a Proxy whose ownKeys throws: its fields were read one by one already
  }
  const out: DiagnosticDetails[] = [];
  for (const key of keys ?? []) {
    if (prop(value, key) === undefined) continue;
    if (key === 'nonResourceURLs') {
      out.push({
        code: INPUT_CODES.unknownProp,
        field: `${field}.${key}`,
        value: valueText(prop(value, key)),
        message: `${field} has "nonResourceURLs", the Kubernetes JSON spelling; a PolicyRule has no prop "nonResourceURLs"; did you mean "nonResourceUrls"?`,
        fix: 'rename it to nonResourceUrls (or read the manifest\'s rule with PolicyRules.fromJson, which reads nonResourceURLs)',
      });
      continue;
    }
    const suggestion = nearestName(key, RULE_FIELDS);
    out.push({
      code: INPUT_CODES.unknownProp,
      field: `${field}.${key}`,
      value: valueText(prop(value, key)),
      message: `${field} has ${JSON.stringify(key)}, but a PolicyRule has no prop ${JSON.stringify(key)}${suggestion !== undefined ? `; did you mean ${JSON.stringify(suggestion)}?` : ''}`,
      fix: suggestion !== undefined ? `rename it to ${suggestion}` : `remove it; the props of a PolicyRule are ${RULE_FIELDS.join(', ')}`,
    });
  }
  if (out.length > 0) return out;
  const listLength = (key: string) => {
    const v = prop(value, key);
    return Array.isArray(v) ? v.length : 0;
  };
  if (listLength('resources') === 0 && listLength('nonResourceUrls') === 0) {
    out.push({
      code: INPUT_CODES.missing,
      field,
      value: valueText(value),
      message: `${field} has neither resources nor nonResourceUrls: it names nothing (the API server refuses it, and no check can read what it was meant to grant)`,
      fix: 'list the resources (with apiGroups), e.g. { apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }, or the URLs, e.g. { nonResourceUrls: ["/metrics"], verbs: ["get"] }',
    });
  }
  return out;
}

/** A required construct argument (`IConstruct`: an object with a `node` that can `findAll`); false and an error when not. */
export function checkScope(check: InputCheck, field: string, value: unknown): boolean {
  if (typeof prop(prop(value, 'node'), 'findAll') === 'function') return true;
  check.add({
    code: value === undefined || value === null ? INPUT_CODES.missing : INPUT_CODES.reference,
    field,
    value: value === undefined ? undefined : valueText(value),
    message: `${field} must be a construct (an App, a Chart or a construct below them), got ${describeValue(value)}`,
    fix: 'pass the App, or the chart or construct whose tenants to read',
  });
  return false;
}

/**
 * Kubernetes' checks of free-text keys and values the library writes into objects (src/output/yaml-writer.ts makes
 * every string faithful in the YAML; these are what the API server would refuse). Each returns why the value is
 * invalid, or `undefined`.
 */
export class KubernetesText {
  /**
   * A ResourceQuota `spec.hard` key: `validateResourceQuotaResourceName` (kubernetes pkg/apis/core/validation/
   * validation.go): a qualified name; without `/`, one of `standardQuotaResources` or a hugepages resource
   * (pkg/apis/core/helper/helpers.go `IsStandardQuotaResourceName`).
   */
  public static quotaResourceNameProblem(key: string): string | undefined {
    const q = qualifiedNameProblem(key);
    if (q) return q;
    if (!key.includes('/') && !STANDARD_QUOTA_RESOURCES.has(key) && !/^(requests\.)?hugepages-/.test(key)) {
      return `is not a standard quota resource (${[...STANDARD_QUOTA_RESOURCES].join(', ')}, hugepages-<size>) nor a qualified name with a '/' (e.g. count/deployments.apps)`;
    }
    return undefined;
  }

  /** A `resource.Quantity` (k8s.io/apimachinery/pkg/api/resource/quantity.go `ParseQuantity`, without its range limit). */
  public static quantityProblem(value: string): string | undefined {
    return QUANTITY.test(value) ? undefined : "is not a Kubernetes quantity (a number with an optional suffix: 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3', ...)";
  }

  /**
   * An environment variable name: `validation.IsEnvVarName` (k8s.io/apimachinery/pkg/util/validation/validation.go,
   * `envVarNameFmt = "[-._a-zA-Z][-._a-zA-Z0-9]*"`), as enforced by Kubernetes without the
   * RelaxedEnvironmentVariableValidation feature gate.
   */
  public static envVarNameProblem(name: string): string | undefined {
    if (name.length === 0) return 'must not be empty';
    return ENV_VAR_NAME.test(name) ? undefined : "must consist of alphabetic characters, digits, '_', '-' or '.', and must not start with a digit";
  }

  private constructor() {}
}

/** pkg/apis/core/helper/helpers.go `standardQuotaResources`. */
const STANDARD_QUOTA_RESOURCES: ReadonlySet<string> = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const QUANTITY = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
