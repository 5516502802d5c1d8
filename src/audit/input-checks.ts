// Runtime checks of the audit's public static methods and plain-class constructor (see src/core/input-check.ts); internal,
// not re-exported. They run outside constructs: each throws one clear Error in the diagnostics format
// (throwIfInvalid) instead of a TypeError deep inside. The synth-time audit (tenancy-audit-validation.ts) reads the tenants'
// already checked props and skips these checks.
import type { ReachCode as ReachCodeType } from './reach-code';
import { OperatorBundle } from '../bundle/operator-bundle';
import { checkRuleShape, checkScope, InputCheck, INPUT_CODES, prop, throwIfInvalid } from '../core/input-check';
import { OlmGeneration } from '../olm/olm-naming';

/** The enums are passed in by the callers (no import cycle with the modules that define them). */
export interface AuditEnums {
  readonly subjectKind: { [key: string]: string };
  readonly reachCode?: { [key: string]: ReachCodeType };
}

const SUBJECT_FIX = "pass { kind: SubjectKind.SERVICE_ACCOUNT, name: 'etcd-operator', namespace: 'team-a' } (or SubjectKind.USER / GROUP without namespace)";

/** An `RbacSubject`. */
export function checkSubject(check: InputCheck, field: string, value: unknown, enums: AuditEnums): void {
  const s = check.requiredObject(field, value, 'an RbacSubject', SUBJECT_FIX);
  if (!s) return;
  if (prop(s, 'kind') === undefined || prop(s, 'kind') === null) check.add({ code: INPUT_CODES.missing, field: `${field}.kind`, message: `${field}.kind is required but missing`, fix: SUBJECT_FIX });
  else check.optionalEnum(`${field}.kind`, prop(s, 'kind'), enums.subjectKind, 'SubjectKind');
  check.requiredString(`${field}.name`, prop(s, 'name'), SUBJECT_FIX);
  check.optionalString(`${field}.namespace`, prop(s, 'namespace'), { fix: SUBJECT_FIX });
}

function checkRules(check: InputCheck, field: string, value: unknown): void {
  // rules asked what they allow: a rule of nothing allows nothing (unknown keys are still refused)
  check.requiredArray(field, value, (v, f) => checkRuleShape(check, f, v, false), `pass ${field} as a list of PolicyRule objects`);
}

/** `EffectivePower.label(subject)`, `of(subject)`, `rulesIn(subject, namespace)`. */
export function checkSubjectArgs(method: string, subject: unknown, enums: AuditEnums, namespace?: { value: unknown }): void {
  const check = new InputCheck();
  checkSubject(check, 'subject', subject, enums);
  if (namespace) check.requiredString('namespace', namespace.value, 'name the namespace ("" for cluster-wide grants only)');
  throwIfInvalid(check, method);
}

/** `EffectivePower.allows(rules, request)` and `isEverything(rules)`. */
export function checkRulesArgs(method: string, rules: unknown, request?: { value: unknown }): void {
  const check = new InputCheck();
  checkRules(check, 'rules', rules);
  if (request) {
    const r = check.requiredObject('request', request.value, 'a ResourceRequest', "pass { verb: 'get', apiGroup: '', resource: 'pods' }");
    if (r) {
      check.requiredString('request.verb', prop(r, 'verb'), "name the verb, e.g. 'get'");
      for (const key of ['apiGroup', 'resource', 'subresource', 'name', 'nonResourcePath']) check.optionalString(`request.${key}`, prop(r, key));
    }
  }
  throwIfInvalid(check, method);
}

/** `new EffectivePower(objects)` (a plain class: it throws). */
export function checkPowerObjects(check: InputCheck, field: string, objects: unknown): void {
  check.requiredArray(field, objects, (v, f) => {
    const o = check.requiredObject(f, v, 'a PowerObject', 'pass { manifest, origin? } (manifest: a Kubernetes object as JSON)');
    check.knownProps(o, 'PowerObject', f, `${f}.`);
    if (o) check.optionalString(`${f}.origin`, prop(o, 'origin'), { fix: 'describe where the object comes from, or leave origin out', singleLine: false });
    return o;
  }, 'pass the RBAC objects as a list of { manifest, origin? } ([] for none)');
}

function checkBundles(check: InputCheck, field: string, value: unknown, required: boolean): void {
  const fix = 'pass OperatorBundle objects, e.g. from OperatorBundle.fromDirectory(path)';
  const element = (v: unknown, f: string) => (v === undefined || v === null
    ? (check.add({ code: INPUT_CODES.missing, field: f, message: `${f} is missing`, fix }), undefined)
    : check.optionalInstance(f, v, OperatorBundle, fix));
  if (required) check.requiredArray(field, value, element, `pass ${field} as a list of OperatorBundle objects`);
  else check.optionalArray(field, value, element, `pass ${field} as a list of OperatorBundle objects`);
}

/** An `AuditedTenant`. */
export function checkAuditedTenant(check: InputCheck, field: string, value: unknown, enums: AuditEnums): void {
  const t = check.requiredObject(field, value, 'an AuditedTenant', 'pass { name, namespace, targetNamespaces, operatorGroupName, installerServiceAccountName }');
  if (!t) return;
  check.knownProps(t, 'AuditedTenant', field, `${field}.`);
  const p = (k: string) => prop(t, k);
  check.requiredString(`${field}.name`, p('name'), 'name the tenant');
  // OLM's model needs these names non-empty (an empty namespace used to reach OlmGeneratedRbac and fail there, quoting
  // the whole OperatorGroup). Only empty is refused: the constructs pass their own names here and report bad ones.
  const nonEmpty = (f: string, v: unknown, fix: string) => {
    if (check.requiredString(f, v, fix) === '') check.add({ code: INPUT_CODES.value, field: f, value: '', message: `${f} must not be empty`, fix });
  };
  nonEmpty(`${field}.namespace`, p('namespace'), "name the tenant namespace, e.g. 'team-a'");
  check.requiredArray(`${field}.targetNamespaces`, p('targetNamespaces'), (v, f) => nonEmpty(f, v, "pass namespace names ([] for AllNamespaces, never '')"),
    'pass the OperatorGroup target namespaces as a list ([] for AllNamespaces)');
  nonEmpty(`${field}.operatorGroupName`, p('operatorGroupName'), 'name the OperatorGroup');
  // '' is allowed here: the global installs' preview and drivers audit an OperatorGroup without an installer
  check.requiredString(`${field}.installerServiceAccountName`, p('installerServiceAccountName'), "name the installer's ServiceAccount");
  check.optionalEnum(`${field}.olmGeneration`, p('olmGeneration'), OlmGeneration as any, 'OlmGeneration');
  checkBundles(check, `${field}.bundles`, p('bundles'), false);
  check.optionalArray(`${field}.people`, p('people'), (v, f) => (checkSubject(check, f, v, enums), v), `pass ${field}.people as a list of RbacSubjects`);
  check.optionalStringArray(`${field}.gitOpsServiceAccounts`, p('gitOpsServiceAccounts'), 'list the names of the ServiceAccounts (in the tenant namespace) that apply its GitOps folders');
  check.optionalArray(`${field}.acceptedReach`, p('acceptedReach'), (v, f) => {
    const a = check.requiredObject(f, v, 'an AcceptedReach', "pass { code: ReachCode..., subject?: '...', reason: '...' }");
    if (!a) return undefined;
    check.knownProps(a, 'AcceptedReach', f, `${f}.`);
    if (prop(a, 'code') === undefined || prop(a, 'code') === null) check.add({ code: INPUT_CODES.missing, field: `${f}.code`, message: `${f}.code is required but missing`, fix: 'name the ReachCode it accepts' });
    else check.optionalEnum(`${f}.code`, prop(a, 'code'), enums.reachCode ?? {}, 'ReachCode');
    check.optionalString(`${f}.subject`, prop(a, 'subject'));
    check.requiredString(`${f}.reason`, prop(a, 'reason'), 'say why this reach is accepted', { singleLine: false });
    return a;
  }, `pass ${field}.acceptedReach as a list`);
}

/** `TenancyAudit.audit(input)`. */
export function checkAuditInput(input: unknown, enums: AuditEnums): void {
  const check = new InputCheck();
  const i = check.requiredObject('input', input, 'a TenancyAuditInput', 'pass { objects, tenants }');
  if (i) {
    check.knownProps(i, 'TenancyAuditInput', 'input', 'input.');
    checkPowerObjects(check, 'input.objects', prop(i, 'objects'));
    check.requiredArray('input.tenants', prop(i, 'tenants'), (v, f) => (checkAuditedTenant(check, f, v, enums), v), 'pass the tenants as a list of AuditedTenant');
  }
  throwIfInvalid(check, 'TenancyAudit.audit');
}

/** `TenancyAudit.objectsOf(tenant)`, `operatorServiceAccounts(bundles)`, `ofConstruct(scope)`. */
export function checkTenancyAuditArg(method: 'objectsOf' | 'operatorServiceAccounts' | 'ofConstruct', value: unknown, enums: AuditEnums): void {
  const check = new InputCheck();
  if (method === 'objectsOf') checkAuditedTenant(check, 'tenant', value, enums);
  else if (method === 'operatorServiceAccounts') checkBundles(check, 'bundles', value, true);
  else checkScope(check, 'scope', value);
  throwIfInvalid(check, `TenancyAudit.${method}`);
}

/** `TenancyAudit.report(result)`: the fields it reads. */
export function checkAuditResult(result: unknown): void {
  const check = new InputCheck();
  const fix = 'pass what TenancyAudit.audit(input) returns';
  const r = check.requiredObject('result', result, 'a TenancyAuditResult', fix);
  if (r) {
    check.requiredArray('result.tenants', prop(r, 'tenants'), (v, f) => {
      const t = check.requiredObject(f, v, 'a TenantAuditResult', fix);
      if (!t) return undefined;
      check.requiredString(`${f}.tenant`, prop(t, 'tenant'), fix);
      check.requiredString(`${f}.namespace`, prop(t, 'namespace'), fix);
      check.requiredArray(`${f}.findings`, prop(t, 'findings'), (x, g) => {
        const finding = check.requiredObject(g, x, 'a ReachFinding', fix);
        if (!finding) return undefined;
        for (const key of ['code', 'subject', 'namespace']) check.requiredString(`${g}.${key}`, prop(finding, key), fix);
        check.optionalBoolean(`${g}.accepted`, prop(finding, 'accepted'));
        check.optionalString(`${g}.acceptedReason`, prop(finding, 'acceptedReason'), { singleLine: false });
        check.requiredArray(`${g}.path`, prop(finding, 'path'), (y, h) => check.requiredString(h, y, fix), fix);
        checkRules(check, `${g}.rules`, prop(finding, 'rules'));
        return finding;
      }, fix);
      return t;
    }, fix);
  }
  throwIfInvalid(check, 'TenancyAudit.report');
}

/** `BuiltinRoles.find(kind, name, namespace)`. */
export function checkFindArgs(kind: unknown, name: unknown, namespace: unknown): void {
  const check = new InputCheck();
  check.requiredString('kind', kind, "pass 'Role' or 'ClusterRole'");
  check.requiredString('name', name, 'name the role');
  check.requiredString('namespace', namespace, 'name the namespace ("" for a ClusterRole)');
  throwIfInvalid(check, 'BuiltinRoles.find');
}
