import { AdmissionPolicyValidation } from '../util/admission-validation';

// Cases follow kubernetes/kubernetes pkg/apis/admissionregistration/validation/validation.go, one per check.
const rule = { apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['subscriptions'] };

function policy(spec: Record<string, unknown>): any {
  return {
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'olm-guard' },
    spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }], ...spec },
  };
}

function binding(spec: Record<string, unknown>): any {
  return { kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'olm-guard' }, spec: { policyName: 'olm-guard', validationActions: ['Deny'], ...spec } };
}

describe('validateValidatingAdmissionPolicySpec', () => {
  test('a minimal policy is valid (failurePolicy, matchPolicy and selectors defaulted)', () => {
    expect(AdmissionPolicyValidation.problems(policy({}))).toEqual([]);
  });

  test('failurePolicy must be Fail or Ignore', () => {
    expect(AdmissionPolicyValidation.problems(policy({ failurePolicy: 'Deny' }))).toEqual([
      'spec.failurePolicy must be one of "Fail", "Ignore" (got "Deny")',
    ]);
  });

  test('matchConstraints with at least one resourceRule is required', () => {
    expect(AdmissionPolicyValidation.problems(policy({ matchConstraints: undefined }))).toEqual(['spec.matchConstraints is required']);
    expect(AdmissionPolicyValidation.problems(policy({ matchConstraints: {} }))).toEqual(['spec.matchConstraints.resourceRules is required']);
  });

  test('validations or auditAnnotations must contain at least one item', () => {
    expect(AdmissionPolicyValidation.problems(policy({ validations: [] }))).toEqual([
      'spec.validations is required: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations is required: validations or auditAnnotations must contain at least one item',
    ]);
  });

  test('every CEL expression must parse', () => {
    expect(AdmissionPolicyValidation.problems(policy({
      validations: [{ expression: 'object.spec.sourceNamespace == ', messageExpression: "'bad: ' + object.spec.source" }],
      matchConditions: [{ name: 'not-olm', expression: 'request.namespace != "olm"' }],
      variables: [{ name: 'src', expression: 'object.spec.(source' }],
    }))).toEqual([
      expect.stringMatching(/^spec\.variables\[0\]\.expression "object\.spec\.\(source" does not parse as CEL: /),
      expect.stringMatching(/^spec\.validations\[0\]\.expression "object\.spec\.sourceNamespace == " does not parse as CEL: /),
    ]);
  });

  test('validation messages: no line breaks; reasons from the supported list', () => {
    expect(AdmissionPolicyValidation.problems(policy({ validations: [{ expression: 'true', message: 'first\nsecond', reason: 'Teapot' }] }))).toEqual([
      'spec.validations[0].message is invalid: message must not contain line breaks',
      'spec.validations[0].reason must be one of "Forbidden", "Invalid", "RequestEntityTooLarge" (got "Teapot")',
    ]);
  });

  test('variables need CEL identifiers as names', () => {
    expect(AdmissionPolicyValidation.problems(policy({ variables: [{ name: 'in', expression: '1' }, { name: 'my-var', expression: '1' }] }))).toEqual([
      'spec.variables[0].name "in" is invalid: name is not a valid CEL identifier',
      'spec.variables[1].name "my-var" is invalid: name is not a valid CEL identifier',
    ]);
  });

  test('matchConditions need unique qualified names', () => {
    expect(AdmissionPolicyValidation.problems(policy({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'true' }] }))).toEqual([
      'spec.matchConditions[1].name "a" is a duplicate',
    ]);
  });

  test('audit annotation keys are qualified with the policy name, unique, and need a valueExpression', () => {
    expect(AdmissionPolicyValidation.problems(policy({
      validations: [],
      auditAnnotations: [{ key: 'source', valueExpression: 'object.spec.source' }, { key: 'source', valueExpression: ' ' }],
    }))).toEqual([
      'spec.auditAnnotations[1].key "source" is a duplicate',
      'spec.auditAnnotations[1].valueExpression is required: valueExpression is not specified',
    ]);
  });

  test('resource rules: operations, groups, versions and resources (validateRuleWithOperations, validateResources)', () => {
    expect(AdmissionPolicyValidation.problems(policy({
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['*', 'apps'], apiVersions: [], operations: ['*', 'PATCH'], resources: ['*', 'subscriptions'], scope: 'Global' },
        ],
      },
    }))).toEqual([
      "spec.matchConstraints.resourceRules[0].operations is invalid: if '*' is present, must not specify other operations",
      'spec.matchConstraints.resourceRules[0].operations[1] must be one of "*", "CONNECT", "CREATE", "DELETE", "UPDATE" (got "PATCH")',
      "spec.matchConstraints.resourceRules[0].apiGroups is invalid: if '*' is present, must not specify other API groups",
      'spec.matchConstraints.resourceRules[0].apiVersions is required',
      "spec.matchConstraints.resourceRules[0].resources is invalid: if '*' is present, must not specify other resources without subresources",
      'spec.matchConstraints.resourceRules[0].scope must be one of "*", "Cluster", "Namespaced" (got "Global")',
    ]);
  });

  test('selectors follow ValidateLabelSelector', () => {
    expect(AdmissionPolicyValidation.problems(policy({
      matchConstraints: {
        resourceRules: [rule],
        namespaceSelector: { matchExpressions: [{ key: 'tenant', operator: 'In', values: [] }, { key: 'x', operator: 'Exists', values: ['y'] }] },
        objectSelector: { matchLabels: { tenant: 'a b' } },
      },
    }))).toEqual([
      "spec.matchConstraints.namespaceSelector.matchExpressions[0].values is required: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.matchConstraints.namespaceSelector.matchExpressions[1].values is forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.matchConstraints.objectSelector.matchLabels[tenant] "a b" is invalid: a valid label must be an empty string or must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });
});

describe('validateValidatingAdmissionPolicyBindingSpec', () => {
  test('a binding with a policy name and Deny is valid', () => {
    expect(AdmissionPolicyValidation.problems(binding({}))).toEqual([]);
  });

  test('policyName is required and a DNS-1123 subdomain', () => {
    expect(AdmissionPolicyValidation.problems(binding({ policyName: '' }))).toEqual(['spec.policyName is required']);
    expect(AdmissionPolicyValidation.problems(binding({ policyName: 'OLM' }))).toEqual([
      'spec.policyName "OLM" is invalid: must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (RFC 1123 subdomain)',
    ]);
  });

  test('validationActions: at least one, supported, unique, not both Deny and Warn', () => {
    expect(AdmissionPolicyValidation.problems(binding({ validationActions: [] }))).toEqual([
      'spec.validationActions is required: at least one validation action is required',
    ]);
    expect(AdmissionPolicyValidation.problems(binding({ validationActions: ['Deny', 'Warn', 'Warn', 'Block'] }))).toEqual([
      'spec.validationActions[2] "Warn" is a duplicate',
      'spec.validationActions[3] must be one of "Audit", "Deny", "Warn" (got "Block")',
      'spec.validationActions is invalid: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });
});
