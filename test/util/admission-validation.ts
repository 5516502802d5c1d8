/**
 * The checks the API server runs on ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding after decoding
 * (Go validation, not OpenAPI), ported from kubernetes/kubernetes pkg/apis/admissionregistration/validation/validation.go:
 * validateValidatingAdmissionPolicySpec, validateMatchResources, validateNamedRuleWithOperations /
 * validateRuleWithOperations / validateRule / validateResources, validateMatchConditions, validateVariable,
 * validateValidation, validateAuditAnnotation, validateValidatingAdmissionPolicyBindingSpec and
 * validateValidationActions; label selectors as in apimachinery pkg/apis/meta/v1/validation ValidateLabelSelector.
 *
 * The v1 defaults are applied first (pkg/apis/admissionregistration/v1/defaults.go): failurePolicy Fail, and in
 * matchResources matchPolicy Equivalent and empty namespace/object selectors.
 *
 * CEL: every expression must parse (@bufbuild/cel). The API server also type-checks it against the request
 * variables and estimates its cost; neither is reproduced here.
 */
import { parse } from '@bufbuild/cel';
import { KubernetesValidation, TestNameRule } from './kubernetes-validation';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES = 5 * 1024;
const MAX_MATCH_CONDITIONS = 64;
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function',
  'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

function notSupported(at: string, value: unknown, supported: string[]): string {
  return `${at} must be one of ${supported.map((s) => JSON.stringify(s)).join(', ')} (got ${JSON.stringify(value)})`;
}

function blank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

/** ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding semantics. */
export class AdmissionPolicyValidation {
  /** Problems of one object (by `kind`), each `<field path> <problem>`; empty for other kinds. */
  public static problems(obj: any): string[] {
    switch (obj.kind) {
      case 'ValidatingAdmissionPolicy':
        return AdmissionPolicyValidation.policySpec(obj.spec ?? {}, obj.metadata?.name);
      case 'ValidatingAdmissionPolicyBinding':
        return AdmissionPolicyValidation.bindingSpec(obj.spec ?? {});
      default:
        return [];
    }
  }

  /** Why `expression` does not parse as CEL, or undefined. */
  public static celProblem(expression: string): string | undefined {
    try {
      parse(expression);
      return undefined;
    } catch (e: any) {
      return String(e?.message ?? e);
    }
  }

  private static policySpec(spec: any, name: string | undefined): string[] {
    const out: string[] = [];
    const failurePolicy = spec.failurePolicy ?? 'Fail';
    if (!FAILURE_POLICIES.includes(failurePolicy)) out.push(notSupported('spec.failurePolicy', failurePolicy, FAILURE_POLICIES));
    if (spec.matchConstraints === undefined || spec.matchConstraints === null) {
      out.push('spec.matchConstraints is required');
    } else {
      out.push(...AdmissionPolicyValidation.matchResources(spec.matchConstraints, 'spec.matchConstraints'));
      if (list(spec.matchConstraints.resourceRules).length === 0) out.push('spec.matchConstraints.resourceRules is required');
    }
    out.push(...AdmissionPolicyValidation.matchConditions(list(spec.matchConditions), 'spec.matchConditions'));
    list(spec.variables).forEach((v, i) => {
      const at = `spec.variables[${i}]`;
      if (blank(v.name)) out.push(`${at}.name is required: name is not specified`);
      else if (!CEL_IDENTIFIER.test(v.name) || CEL_RESERVED.has(v.name)) out.push(`${at}.name ${JSON.stringify(v.name)} is invalid: name is not a valid CEL identifier`);
      if (blank(v.expression)) out.push(`${at}.expression is required: expression is not specified`);
      else out.push(...AdmissionPolicyValidation.cel(v.expression, `${at}.expression`));
    });
    const validations = list(spec.validations);
    const auditAnnotations = list(spec.auditAnnotations);
    if (validations.length === 0 && auditAnnotations.length === 0) {
      out.push('spec.validations is required: validations or auditAnnotations must contain at least one item');
      out.push('spec.auditAnnotations is required: validations or auditAnnotations must contain at least one item');
      return out;
    }
    validations.forEach((v, i) => out.push(...AdmissionPolicyValidation.validation(v, `spec.validations[${i}]`)));
    if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
      out.push(`spec.auditAnnotations is invalid: must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`);
    }
    const keys = new Set<string>();
    auditAnnotations.forEach((a, i) => {
      const at = `spec.auditAnnotations[${i}]`;
      if (name) {
        for (const p of KubernetesValidation.qualifiedNameProblems(`${name}/${a.key}`)) out.push(`${at}.key ${JSON.stringify(a.key)} is invalid: ${p}`);
      } else {
        out.push(`${at}.key is invalid: requires metadata.name be non-empty`);
      }
      if (keys.has(a.key)) out.push(`${at}.key ${JSON.stringify(a.key)} is a duplicate`);
      keys.add(a.key);
      if (blank(a.valueExpression)) {
        out.push(`${at}.valueExpression is required: valueExpression is not specified`);
      } else if (Buffer.byteLength(a.valueExpression.trim()) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES) {
        out.push(`${at}.valueExpression is invalid: must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES} bytes in length`);
      } else {
        out.push(...AdmissionPolicyValidation.cel(a.valueExpression, `${at}.valueExpression`));
      }
    });
    return out;
  }

  private static validation(v: any, at: string): string[] {
    const out: string[] = [];
    if (blank(v.expression)) out.push(`${at}.expression is required: expression is not specified`);
    else out.push(...AdmissionPolicyValidation.cel(v.expression, `${at}.expression`));
    if (typeof v.messageExpression === 'string' && v.messageExpression.length > 0) {
      if (blank(v.messageExpression)) out.push(`${at}.messageExpression is invalid: must be non-empty if specified`);
      else out.push(...AdmissionPolicyValidation.cel(v.messageExpression, `${at}.messageExpression`));
    }
    if (typeof v.message === 'string' && v.message.length > 0) {
      if (v.message.trim() === '') out.push(`${at}.message is invalid: message must be non-empty if specified`);
      else if (/[\n\r]/.test(v.message.trim())) out.push(`${at}.message is invalid: message must not contain line breaks`);
    }
    if (v.reason !== undefined && !REASONS.includes(v.reason)) out.push(notSupported(`${at}.reason`, v.reason, REASONS));
    return out;
  }

  private static bindingSpec(spec: any): string[] {
    const out: string[] = [];
    if (!spec.policyName) {
      out.push('spec.policyName is required');
    } else {
      const p = KubernetesValidation.nameProblem(spec.policyName, TestNameRule.DNS1123_SUBDOMAIN);
      if (p) out.push(`spec.policyName ${JSON.stringify(spec.policyName)} is invalid: ${p}`);
    }
    if (spec.matchResources !== undefined && spec.matchResources !== null) {
      out.push(...AdmissionPolicyValidation.matchResources(spec.matchResources, 'spec.matchResources'));
    }
    const actions = list(spec.validationActions);
    const seen = new Set<string>();
    actions.forEach((action, i) => {
      if (!VALIDATION_ACTIONS.includes(action)) out.push(notSupported(`spec.validationActions[${i}]`, action, VALIDATION_ACTIONS));
      if (seen.has(action)) out.push(`spec.validationActions[${i}] ${JSON.stringify(action)} is a duplicate`);
      seen.add(action);
    });
    if (seen.has('Deny') && seen.has('Warn')) {
      out.push('spec.validationActions is invalid: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)');
    }
    if (seen.size === 0) out.push('spec.validationActions is required: at least one validation action is required');
    return out;
  }

  private static matchResources(mr: any, at: string): string[] {
    const out: string[] = [];
    const matchPolicy = mr.matchPolicy ?? 'Equivalent';
    if (!MATCH_POLICIES.includes(matchPolicy)) out.push(notSupported(`${at}.matchPolicy`, matchPolicy, MATCH_POLICIES));
    out.push(...AdmissionPolicyValidation.labelSelector(mr.namespaceSelector ?? {}, `${at}.namespaceSelector`));
    out.push(...AdmissionPolicyValidation.labelSelector(mr.objectSelector ?? {}, `${at}.objectSelector`));
    list(mr.resourceRules).forEach((r, i) => out.push(...AdmissionPolicyValidation.namedRule(r, `${at}.resourceRules[${i}]`)));
    list(mr.excludeResourceRules).forEach((r, i) => out.push(...AdmissionPolicyValidation.namedRule(r, `${at}.excludeResourceRules[${i}]`)));
    return out;
  }

  /** validateNamedRuleWithOperations + validateRuleWithOperations + validateRule (subresources allowed). */
  private static namedRule(rule: any, at: string): string[] {
    const out: string[] = [];
    const names = new Set<string>();
    list(rule.resourceNames).forEach((n, i) => {
      const p = KubernetesValidation.nameProblem(n, TestNameRule.PATH_SEGMENT);
      if (p) out.push(`${at}.resourceNames[${i}] ${JSON.stringify(n)} is invalid: ${p}`);
      if (names.has(n)) out.push(`${at}.resourceNames[${i}] ${JSON.stringify(n)} is a duplicate`);
      names.add(n);
    });
    const operations = list(rule.operations);
    if (operations.length === 0) out.push(`${at}.operations is required`);
    if (operations.length > 1 && operations.includes('*')) out.push(`${at}.operations is invalid: if '*' is present, must not specify other operations`);
    operations.forEach((op, i) => {
      if (!OPERATIONS.includes(op)) out.push(notSupported(`${at}.operations[${i}]`, op, OPERATIONS));
    });
    const apiGroups = list(rule.apiGroups);
    if (apiGroups.length === 0) out.push(`${at}.apiGroups is required`);
    if (apiGroups.length > 1 && apiGroups.includes('*')) out.push(`${at}.apiGroups is invalid: if '*' is present, must not specify other API groups`);
    const apiVersions = list(rule.apiVersions);
    if (apiVersions.length === 0) out.push(`${at}.apiVersions is required`);
    if (apiVersions.length > 1 && apiVersions.includes('*')) out.push(`${at}.apiVersions is invalid: if '*' is present, must not specify other API versions`);
    apiVersions.forEach((v, i) => {
      if (v === '') out.push(`${at}.apiVersions[${i}] is required`);
    });
    out.push(...AdmissionPolicyValidation.resources(list(rule.resources), `${at}.resources`));
    if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) out.push(notSupported(`${at}.scope`, rule.scope, SCOPES));
    return out;
  }

  /** validateResources: wildcard and subresource combinations. */
  private static resources(resources: string[], at: string): string[] {
    const out: string[] = [];
    if (resources.length === 0) out.push(`${at} is required`);
    const withWildcardSub = new Set<string>();
    const subWithWildcardRes = new Set<string>();
    let doubleWildcard = false;
    let singleWildcard = false;
    let withoutSubresource = false;
    resources.forEach((resSub, i) => {
      if (resSub === '') {
        out.push(`${at}[${i}] is required`);
        return;
      }
      if (resSub === '*/*') doubleWildcard = true;
      if (resSub === '*') singleWildcard = true;
      const slash = resSub.indexOf('/');
      if (slash < 0) {
        withoutSubresource = resSub !== '*';
        return;
      }
      const res = resSub.slice(0, slash);
      const sub = resSub.slice(slash + 1);
      if (withWildcardSub.has(res)) out.push(`${at}[${i}] ${JSON.stringify(resSub)} is invalid: if '${res}/*' is present, must not specify ${resSub}`);
      if (subWithWildcardRes.has(sub)) out.push(`${at}[${i}] ${JSON.stringify(resSub)} is invalid: if '*/${sub}' is present, must not specify ${resSub}`);
      if (sub === '*') withWildcardSub.add(res);
      if (res === '*') subWithWildcardRes.add(sub);
    });
    if (resources.length > 1 && doubleWildcard) out.push(`${at} is invalid: if '*/*' is present, must not specify other resources`);
    if (singleWildcard && withoutSubresource) out.push(`${at} is invalid: if '*' is present, must not specify other resources without subresources`);
    return out;
  }

  private static matchConditions(conditions: any[], at: string): string[] {
    const out: string[] = [];
    if (conditions.length > MAX_MATCH_CONDITIONS) out.push(`${at} must have at most ${MAX_MATCH_CONDITIONS} items`);
    const names = new Set<string>();
    conditions.forEach((c, i) => {
      const here = `${at}[${i}]`;
      if (blank(c.expression)) out.push(`${here}.expression is required`);
      else out.push(...AdmissionPolicyValidation.cel(c.expression, `${here}.expression`));
      if (!c.name) {
        out.push(`${here}.name is required`);
      } else {
        for (const p of KubernetesValidation.qualifiedNameProblems(c.name)) out.push(`${here}.name ${JSON.stringify(c.name)} is invalid: ${p}`);
        if (names.has(c.name)) out.push(`${here}.name ${JSON.stringify(c.name)} is a duplicate`);
        names.add(c.name);
      }
    });
    return out;
  }

  /** ValidateLabelSelector (apimachinery pkg/apis/meta/v1/validation), strict label values. */
  private static labelSelector(selector: any, at: string): string[] {
    const out: string[] = [];
    list(selector.matchExpressions).forEach((e, i) => {
      const here = `${at}.matchExpressions[${i}]`;
      const values = list(e.values);
      switch (e.operator) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) out.push(`${here}.values is required: must be specified when \`operator\` is 'In' or 'NotIn'`);
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (values.length > 0) out.push(`${here}.values is forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`);
          break;
        default:
          out.push(`${here}.operator ${JSON.stringify(e.operator)} is invalid: not a valid selector operator`);
      }
      for (const p of KubernetesValidation.qualifiedNameProblems(String(e.key ?? ''))) out.push(`${here}.key ${JSON.stringify(e.key)} is invalid: ${p}`);
      values.forEach((v, j) => {
        for (const p of KubernetesValidation.labelValueProblems(String(v))) out.push(`${here}.values[${j}] ${JSON.stringify(v)} is invalid: ${p}`);
      });
    });
    for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
      for (const p of KubernetesValidation.qualifiedNameProblems(key)) out.push(`${at}.matchLabels key ${JSON.stringify(key)} is invalid: ${p}`);
      for (const p of KubernetesValidation.labelValueProblems(String(value))) out.push(`${at}.matchLabels[${key}] ${JSON.stringify(value)} is invalid: ${p}`);
    }
    return out;
  }

  private static cel(expression: string, at: string): string[] {
    const p = AdmissionPolicyValidation.celProblem(expression);
    return p ? [`${at} ${JSON.stringify(expression)} does not parse as CEL: ${p}`] : [];
  }

  private constructor() {}
}
