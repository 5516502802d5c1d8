/**
 * Port of operator-controller v1.11.0
 * internal/operator-controller/rukpak/render/registryv1/validators/validator_test.go (every table, same cases and
 * expected errors), plus the validator list of registryv1.go `BundleValidator` and the renderer refusing with them.
 */
import * as fc from 'fast-check';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { RegistryV1Render } from '../../src/olmv1';
import { RegistryV1Contents, RegistryV1Validators } from '../../src/olmv1/registry-v1-validators';
import { expectNoCrash, garbage, goodOrGarbage, SEED } from '../fuzz/garbage';

// apimachinery IsDNS1123Subdomain's messages as upstream's test spells them
const RE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const TOO_LONG = 'must be no more than 253 characters';
// the long names of upstream's tables
const A_LONG = `a-name-is-w${'a'.repeat(236)}y-too-long`;
const B_LONG = `b-name-is-w${'a'.repeat(236)}y-too-long`;
const A_LONG_BAD = `a-name-is-w${'a'.repeat(227)}y-too-long-and-bad-`;
const B_LONG_BAD = `b-name-is-w${'a'.repeat(227)}y-too-long-and-bad-`;

/** upstream internal/testing/bundle/csv Builder, as JSON. */
function csv(o: { deployments?: string[]; owned?: string[]; modes?: string[]; webhooks?: any[] } = {}): any {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: 'test.v1.0.0' },
    spec: {
      install: { strategy: 'deployment', spec: { deployments: (o.deployments ?? []).map((name) => ({ name, spec: {} })) } },
      customresourcedefinitions: { owned: (o.owned ?? []).map((name) => ({ name })) },
      installModes: (o.modes ?? []).map((type) => ({ type, supported: true })),
      webhookdefinitions: o.webhooks ?? [],
    },
  };
}
function rv1(o: Partial<RegistryV1Contents> = {}): RegistryV1Contents {
  return { packageName: o.packageName ?? '', csv: o.csv ?? csv(), crds: o.crds ?? [], others: o.others ?? [] };
}
const crd = (name: string) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name } });
const obj = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, metadata: { name } });
const wh = (type: string, generateName?: string, more: any = {}) => ({ type, ...(generateName !== undefined ? { generateName } : {}), ...more });
const V = 'ValidatingAdmissionWebhook';
const M = 'MutatingAdmissionWebhook';
const C = 'ConversionWebhook';

type Case = [string, RegistryV1Contents, string[]];
function table(check: string, cases: Case[]): void {
  describe(`validators.${check} (validator_test.go)`, () => {
    test.each(cases)('%s', (_name, bundle, expected) => {
      expect(RegistryV1Validators.run(check, bundle)).toEqual(expected);
    });
  });
}

table('CheckDeploymentSpecUniqueness', [
  ['accepts bundles with unique deployment strategy spec names', rv1({ csv: csv({ deployments: ['test-deployment-one', 'test-deployment-two'] }) }), []],
  ['rejects bundles with duplicate deployment strategy spec names', rv1({ csv: csv({ deployments: ['test-deployment-one', 'test-deployment-two', 'test-deployment-one'] }) }),
    ["cluster service version contains duplicate strategy deployment spec 'test-deployment-one'"]],
  ['errors are ordered by deployment strategy spec name', rv1({ csv: csv({ deployments: ['test-deployment-a', 'test-deployment-b', 'test-deployment-c', 'test-deployment-b', 'test-deployment-a'] }) }), [
    "cluster service version contains duplicate strategy deployment spec 'test-deployment-a'",
    "cluster service version contains duplicate strategy deployment spec 'test-deployment-b'",
  ]],
]);

table('CheckDeploymentNameIsDNS1123SubDomain', [
  ['accepts valid deployment strategy spec names', rv1({ csv: csv({ deployments: ['test-deployment-one', 'test-deployment-two'] }) }), []],
  ['rejects bundles with invalid deployment strategy spec names - errors are sorted by name', rv1({ csv: csv({ deployments: ['-bad-name', B_LONG, A_LONG_BAD] }) }), [
    `invalid cluster service version strategy deployment name '-bad-name': ${RE}`,
    `invalid cluster service version strategy deployment name '${A_LONG_BAD}': ${RE}, ${TOO_LONG}`,
    `invalid cluster service version strategy deployment name '${B_LONG}': ${TOO_LONG}`,
  ]],
]);

table('CheckCRDResourceUniqueness', [
  ['accepts bundles with unique custom resource definition resources', rv1({ crds: [crd('a.crd.something'), crd('b.crd.something')] }), []],
  ['rejects bundles with duplicate custom resource definition resources', rv1({ crds: [crd('a.crd.something'), crd('a.crd.something')] }),
    ["bundle contains duplicate custom resource definition 'a.crd.something'"]],
  ['errors are ordered by custom resource definition name', rv1({ crds: ['c', 'c', 'a', 'a'].map((x) => crd(`${x}.crd.something`)) }), [
    "bundle contains duplicate custom resource definition 'a.crd.something'",
    "bundle contains duplicate custom resource definition 'c.crd.something'",
  ]],
]);

table('CheckOwnedCRDExistence', [
  ['accepts bundles with existing owned custom resource definition resources',
    rv1({ crds: [crd('a.crd.something'), crd('b.crd.something')], csv: csv({ owned: ['a.crd.something', 'b.crd.something'] }) }), []],
  ['rejects bundles with missing owned custom resource definition resources', rv1({ csv: csv({ owned: ['a.crd.something'] }) }),
    ["cluster service definition references owned custom resource definition 'a.crd.something' not found in bundle"]],
  ['errors are ordered by owned custom resource definition name', rv1({ csv: csv({ owned: ['a.crd.something', 'c.crd.something', 'b.crd.something'] }) }), [
    "cluster service definition references owned custom resource definition 'a.crd.something' not found in bundle",
    "cluster service definition references owned custom resource definition 'b.crd.something' not found in bundle",
    "cluster service definition references owned custom resource definition 'c.crd.something' not found in bundle",
  ]],
]);

table('CheckPackageNameNotEmpty', [
  ['accepts bundles with non-empty package name', rv1({ packageName: 'not-empty' }), []],
  ['rejects bundles with empty package name', rv1(), ['package name is empty']],
]);

table('CheckConversionWebhookSupport', [
  ['accepts bundles with conversion webhook definitions when they only support AllNamespaces install mode',
    rv1({ csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(C)] }) }), []],
  ['accepts bundles with validating webhook definitions when they support more modes than AllNamespaces install mode',
    rv1({ csv: csv({ modes: ['AllNamespaces', 'SingleNamespace'], webhooks: [wh(V)] }) }), []],
  ['accepts bundles with mutating webhook definitions when they support more modes than AllNamespaces install mode',
    rv1({ csv: csv({ modes: ['AllNamespaces', 'SingleNamespace'], webhooks: [wh(M)] }) }), []],
  ['rejects bundles with conversion webhook definitions when they support more modes than AllNamespaces install mode',
    rv1({ csv: csv({ modes: ['SingleNamespace', 'AllNamespaces'], webhooks: [wh(C, 'webhook-b'), wh(C, 'webhook-a')] }) }), [
      'bundle contains conversion webhook "webhook-b" and supports install modes [AllNamespaces SingleNamespace] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode',
      'bundle contains conversion webhook "webhook-a" and supports install modes [AllNamespaces SingleNamespace] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode',
    ]],
]);

const rules = (apiGroups: string[], resources: string[] = []) => ({ rules: [{ operations: ['CREATE'], apiGroups, apiVersions: ['*'], resources }] });
const forbiddenResource = (resource: string): Case => [
  `reject bundles with webhook definitions with rules containing 'admissionregistration.k8s.io' api group and '${resource}' resource`,
  rv1({ csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(V, 'webhook-a', rules(['admissionregistration.k8s.io'], [resource]))] }) }),
  [`webhook "webhook-a" contains forbidden rule: admission webhook rules cannot reference resource "${resource}" for API group "admissionregistration.k8s.io"`],
];
table('CheckWebhookRules', [
  ['accepts bundles with webhook definitions without rules', rv1({ csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(V), wh(M)] }) }), []],
  ['accepts bundles with webhook definitions with supported rules', rv1({
    csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(V, undefined, rules(['appsv1'], ['deployments', 'replicasets', 'statefulsets'])), wh(M, undefined, rules([''], ['services']))] }),
  }), []],
  ["reject bundles with webhook definitions with rules containing '*' api group",
    rv1({ csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(V, 'webhook-z', rules(['*'])), wh(M, 'webhook-a', rules(['*']))] }) }), [
      'webhook "webhook-z" contains forbidden rule: admission webhook rules cannot reference API group "*"',
      'webhook "webhook-a" contains forbidden rule: admission webhook rules cannot reference API group "*"',
    ]],
  ["reject bundles with webhook definitions with rules containing 'olm.operatorframework.io' api group",
    rv1({ csv: csv({ modes: ['AllNamespaces'], webhooks: [wh(V, 'webhook-z', rules(['olm.operatorframework.io'])), wh(M, 'webhook-a', rules(['olm.operatorframework.io']))] }) }), [
      'webhook "webhook-z" contains forbidden rule: admission webhook rules cannot reference API group "olm.operatorframework.io"',
      'webhook "webhook-a" contains forbidden rule: admission webhook rules cannot reference API group "olm.operatorframework.io"',
    ]],
  forbiddenResource('*'),
  forbiddenResource('MutatingWebhookConfiguration'),
  forbiddenResource('mutatingwebhookconfiguration'),
  forbiddenResource('mutatingwebhookconfigurations'),
  forbiddenResource('ValidatingWebhookConfiguration'),
  forbiddenResource('validatingwebhookconfiguration'),
  forbiddenResource('validatingwebhookconfigurations'),
]);

table('CheckWebhookDeploymentReferentialIntegrity', [
  ['accepts bundles where webhook definitions reference existing strategy deployment specs', rv1({
    csv: csv({ deployments: ['test-deployment-one', 'test-deployment-two'], webhooks: [wh(M, 'test-webhook', { deploymentName: 'test-deployment-one' })] }),
  }), []],
  ['rejects bundles with webhook definitions that reference non-existing strategy deployment specs', rv1({
    csv: csv({ deployments: ['test-deployment-one'], webhooks: [wh(V, 'test-webhook', { deploymentName: 'test-deployment-two' })] }),
  }), ["webhook of type 'ValidatingAdmissionWebhook' with name 'test-webhook' references non-existent deployment 'test-deployment-two'"]],
  ['errors are ordered by deployment strategy spec name, webhook type, and webhook name', rv1({
    csv: csv({
      deployments: ['test-deployment-one'],
      webhooks: [
        wh(V, 'test-val-webhook-c', { deploymentName: 'test-deployment-c' }),
        wh(M, 'test-mute-webhook-a', { deploymentName: 'test-deployment-a' }),
        wh(C, 'test-conv-webhook-b', { deploymentName: 'test-deployment-b' }),
        wh(M, 'test-mute-webhook-c', { deploymentName: 'test-deployment-c' }),
        wh(C, 'test-conv-webhook-c-b', { deploymentName: 'test-deployment-c' }),
        wh(C, 'test-conv-webhook-c-a', { deploymentName: 'test-deployment-c' }),
      ],
    }),
  }), [
    "webhook of type 'MutatingAdmissionWebhook' with name 'test-mute-webhook-a' references non-existent deployment 'test-deployment-a'",
    "webhook of type 'ConversionWebhook' with name 'test-conv-webhook-b' references non-existent deployment 'test-deployment-b'",
    "webhook of type 'ConversionWebhook' with name 'test-conv-webhook-c-a' references non-existent deployment 'test-deployment-c'",
    "webhook of type 'ConversionWebhook' with name 'test-conv-webhook-c-b' references non-existent deployment 'test-deployment-c'",
    "webhook of type 'MutatingAdmissionWebhook' with name 'test-mute-webhook-c' references non-existent deployment 'test-deployment-c'",
    "webhook of type 'ValidatingAdmissionWebhook' with name 'test-val-webhook-c' references non-existent deployment 'test-deployment-c'",
  ]],
]);

const dupes = (type: string): Case => [`rejects bundles with duplicate ${type === V ? 'validating' : type === M ? 'mutating' : 'conversion'} webhook definitions`,
  rv1({ csv: csv({ webhooks: [wh(type, 'test-webhook'), wh(type, 'test-webhook')] }) }), [`duplicate webhook 'test-webhook' of type '${type}'`]];
table('CheckWebhookNameUniqueness', [
  ['accepts bundles without webhook definitions', rv1(), []],
  ['accepts bundles with unique webhook names', rv1({
    csv: csv({ webhooks: [wh(M, 'test-webhook-one'), wh(V, 'test-webhook-two'), wh(C, 'test-webhook-three'), wh(M, 'test-webhook-four'), wh(V, 'test-webhook-five'), wh(C, 'test-webhook-six')] }),
  }), []],
  ['accepts bundles with webhooks with the same name but different types', rv1({ csv: csv({ webhooks: [wh(M, 'test-webhook'), wh(V, 'test-webhook'), wh(C, 'test-webhook')] }) }), []],
  dupes(V),
  dupes(M),
  dupes(C),
  ['orders errors by webhook type and name', rv1({
    csv: csv({
      webhooks: [
        wh(V, 'test-val-webhook-b'), wh(V, 'test-val-webhook-a'), wh(V, 'test-val-webhook-a'), wh(V, 'test-val-webhook-b'),
        wh(C, 'test-conv-webhook-b'), wh(C, 'test-conv-webhook-a'), wh(C, 'test-conv-webhook-a'), wh(C, 'test-conv-webhook-b'),
        wh(M, 'test-mute-webhook-b'), wh(M, 'test-mute-webhook-a'), wh(M, 'test-mute-webhook-a'), wh(M, 'test-mute-webhook-b'),
      ],
    }),
  }), [
    "duplicate webhook 'test-conv-webhook-a' of type 'ConversionWebhook'",
    "duplicate webhook 'test-conv-webhook-b' of type 'ConversionWebhook'",
    "duplicate webhook 'test-mute-webhook-a' of type 'MutatingAdmissionWebhook'",
    "duplicate webhook 'test-mute-webhook-b' of type 'MutatingAdmissionWebhook'",
    "duplicate webhook 'test-val-webhook-a' of type 'ValidatingAdmissionWebhook'",
    "duplicate webhook 'test-val-webhook-b' of type 'ValidatingAdmissionWebhook'",
  ]],
]);

table('CheckConversionWebhooksReferenceOwnedCRDs', [
  ['accepts bundles without webhook definitions', rv1(), []],
  ['accepts bundles without conversion webhook definitions', rv1({ csv: csv({ webhooks: [wh(V, 'test-val-webhook'), wh(M, 'test-mute-webhook')] }) }), []],
  ['accepts bundles with conversion webhooks that reference owned CRDs', rv1({
    csv: csv({ owned: ['some.crd.something', 'another.crd.something'], webhooks: [wh(C, 'test-webhook', { conversionCRDs: ['some.crd.something', 'another.crd.something'] })] }),
  }), []],
  ['rejects bundles with conversion webhooks that reference existing CRDs that are not owned', rv1({
    csv: csv({ owned: ['some.crd.something'], webhooks: [wh(C, 'test-webhook', { conversionCRDs: ['some.crd.something', 'another.crd.something'] })] }),
  }), ["conversion webhook 'test-webhook' references custom resource definition 'another.crd.something' not owned bundle"]],
  ['errors are ordered by webhook name and CRD name', rv1({
    csv: csv({
      owned: ['b.crd.something'],
      webhooks: [
        wh(C, 'test-webhook-b', { conversionCRDs: ['b.crd.something'] }),
        wh(C, 'test-webhook-a', { conversionCRDs: ['c.crd.something', 'a.crd.something'] }),
        wh(C, 'test-webhook-c', { conversionCRDs: ['a.crd.something', 'd.crd.something'] }),
      ],
    }),
  }), [
    "conversion webhook 'test-webhook-a' references custom resource definition 'a.crd.something' not owned bundle",
    "conversion webhook 'test-webhook-a' references custom resource definition 'c.crd.something' not owned bundle",
    "conversion webhook 'test-webhook-c' references custom resource definition 'a.crd.something' not owned bundle",
    "conversion webhook 'test-webhook-c' references custom resource definition 'd.crd.something' not owned bundle",
  ]],
]);

table('CheckConversionWebhookCRDReferenceUniqueness', [
  ['accepts bundles without webhook definitions', rv1(), []],
  ['accepts bundles without conversion webhook definitions', rv1({ csv: csv({ webhooks: [wh(V, 'test-val-webhook'), wh(M, 'test-mute-webhook')] }) }), []],
  ['accepts bundles with conversion webhooks that reference different CRDs', rv1({
    csv: csv({
      owned: ['some.crd.something', 'another.crd.something'],
      webhooks: [wh(C, 'test-webhook', { conversionCRDs: ['some.crd.something'] }), wh(C, 'test-webhook-2', { conversionCRDs: ['another.crd.something'] })],
    }),
  }), []],
  ['rejects bundles with conversion webhooks that reference the same CRD', rv1({
    csv: csv({
      owned: ['some.crd.something'],
      webhooks: [wh(C, 'test-webhook', { conversionCRDs: ['some.crd.something'] }), wh(C, 'test-webhook-two', { conversionCRDs: ['some.crd.something'] })],
    }),
  }), ["conversion webhooks [test-webhook,test-webhook-two] reference same custom resource definition 'some.crd.something'"]],
  ['errors are ordered by CRD name and webhook names', rv1({
    csv: csv({
      owned: ['b.crd.something'],
      webhooks: [
        wh(C, 'test-webhook-b', { conversionCRDs: ['b.crd.something', 'a.crd.something'] }),
        wh(C, 'test-webhook-a', { conversionCRDs: ['d.crd.something', 'a.crd.something', 'b.crd.something'] }),
        wh(C, 'test-webhook-c', { conversionCRDs: ['b.crd.something', 'd.crd.something'] }),
      ],
    }),
  }), [
    "conversion webhooks [test-webhook-a,test-webhook-b] reference same custom resource definition 'a.crd.something'",
    "conversion webhooks [test-webhook-a,test-webhook-b,test-webhook-c] reference same custom resource definition 'b.crd.something'",
    "conversion webhooks [test-webhook-a,test-webhook-c] reference same custom resource definition 'd.crd.something'",
  ]],
]);

table('CheckWebhookNameIsDNS1123SubDomain', [
  ['accepts bundles without webhook definitions', rv1(), []],
  ['rejects bundles with invalid webhook definitions names and orders errors by webhook type and name', rv1({
    csv: csv({
      webhooks: [
        wh(V, B_LONG_BAD), wh(V, A_LONG), wh(V, '-bad-name'), wh(C, 'b-bad-name-'), wh(M, B_LONG_BAD), wh(M, 'a-bad-name-'), wh(C, 'a-bad-name-'),
      ],
    }),
  }), [
    `webhook of type 'ConversionWebhook' has invalid name 'a-bad-name-': ${RE}`,
    `webhook of type 'ConversionWebhook' has invalid name 'b-bad-name-': ${RE}`,
    `webhook of type 'MutatingAdmissionWebhook' has invalid name 'a-bad-name-': ${RE}`,
    `webhook of type 'MutatingAdmissionWebhook' has invalid name '${B_LONG_BAD}': ${RE},${TOO_LONG}`,
    `webhook of type 'ValidatingAdmissionWebhook' has invalid name '-bad-name': ${RE}`,
    `webhook of type 'ValidatingAdmissionWebhook' has invalid name '${A_LONG}': ${TOO_LONG}`,
    `webhook of type 'ValidatingAdmissionWebhook' has invalid name '${B_LONG_BAD}': ${RE},${TOO_LONG}`,
  ]],
]);

table('CheckObjectSupport', [
  ['accepts bundles with no other objects', rv1(), []],
  ['accepts bundles with supported object kinds', rv1({
    others: [
      obj('v1', 'Secret', 'my-secret'), obj('v1', 'ConfigMap', 'my-configmap'), obj('v1', 'ServiceAccount', 'my-sa'), obj('v1', 'Service', 'my-service'),
      obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'my-clusterrole'), obj('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'my-clusterrolebinding'),
      obj('rbac.authorization.k8s.io/v1', 'Role', 'my-role'), obj('rbac.authorization.k8s.io/v1', 'RoleBinding', 'my-rolebinding'),
    ],
  }), []],
  ['rejects bundles with unsupported object kinds', rv1({ others: [obj('apps/v1', 'Deployment', 'my-deployment')] }), ['unsupported resource "my-deployment" with kind "Deployment"']],
  ['reports errors for each unsupported object', rv1({ others: [obj('apps/v1', 'Deployment', 'my-deployment'), obj('apps/v1', 'StatefulSet', 'my-statefulset')] }), [
    'unsupported resource "my-deployment" with kind "Deployment"',
    'unsupported resource "my-statefulset" with kind "StatefulSet"',
  ]],
  ['accepts supported objects and rejects unsupported objects in the same bundle', rv1({
    others: [obj('v1', 'ConfigMap', 'my-configmap'), obj('batch/v1', 'Job', 'my-job'), obj('v1', 'Secret', 'my-secret')],
  }), ['unsupported resource "my-job" with kind "Job"']],
  // not upstream: Object.prototype names are not kinds
  ['rejects kinds named like Object.prototype members', rv1({ others: [obj('x/v1', 'constructor', 'c')] }), ['unsupported resource "c" with kind "constructor"']],
]);

describe('registryv1.BundleValidator (registryv1.go)', () => {
  test('runs every validator upstream lists, in its order (Test_BundleValidatorHasAllValidationFns)', () => {
    expect(RegistryV1Validators.NAMES).toEqual([
      'CheckDeploymentSpecUniqueness', 'CheckDeploymentNameIsDNS1123SubDomain', 'CheckCRDResourceUniqueness', 'CheckOwnedCRDExistence',
      'CheckPackageNameNotEmpty', 'CheckConversionWebhookSupport', 'CheckWebhookDeploymentReferentialIntegrity', 'CheckWebhookNameUniqueness',
      'CheckWebhookNameIsDNS1123SubDomain', 'CheckConversionWebhookCRDReferenceUniqueness', 'CheckConversionWebhooksReferenceOwnedCRDs',
      'CheckWebhookRules', 'CheckObjectSupport',
    ]);
  });

  test('an unknown validator name is a one-line error', () => {
    expect(() => RegistryV1Validators.run('CheckNothing', rv1())).toThrow(/^RegistryV1Validators.run: unknown validator "CheckNothing"; use one of CheckDeploymentSpecUniqueness, /);
  });

  test('Validate joins the errors of every validator, in list order', () => {
    const bundle = rv1({
      csv: csv({ deployments: ['Bad_Name'], modes: ['AllNamespaces'], owned: ['a.crd.something'], webhooks: [wh(C, 'conv-a', { deploymentName: 'Bad_Name', conversionCRDs: ['a.crd.something'] }), wh(C, 'conv-b', { deploymentName: 'Bad_Name', conversionCRDs: ['a.crd.something'] })] }),
      crds: [crd('a.crd.something')],
      packageName: 'p',
    });
    expect(RegistryV1Validators.validate(bundle)).toEqual([
      `invalid cluster service version strategy deployment name 'Bad_Name': ${RE}`,
      "conversion webhooks [conv-a,conv-b] reference same custom resource definition 'a.crd.something'",
    ]);
  });

  test('the renderer refuses a bundle whose deployment name is not a DNS-1123 subdomain, and one whose two conversion webhooks convert the same CRD', () => {
    const base = {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'demo.v1.0.0', annotations: {} },
      spec: {
        version: '1.0.0',
        installModes: [{ type: 'AllNamespaces', supported: true }],
        customresourcedefinitions: { owned: [{ name: 'widgets.example.com', kind: 'Widget', version: 'v1' }] },
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'Demo_Controller', spec: { selector: { matchLabels: { app: 'demo' } }, template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'example.com/demo@sha256:' + '0'.repeat(64) }] } } } }] } },
        webhookdefinitions: [
          { type: C, generateName: 'conv-a', deploymentName: 'Demo_Controller', conversionCRDs: ['widgets.example.com'], admissionReviewVersions: ['v1'], sideEffects: 'None', containerPort: 443 },
          { type: C, generateName: 'conv-b', deploymentName: 'Demo_Controller', conversionCRDs: ['widgets.example.com'], admissionReviewVersions: ['v1'], sideEffects: 'None', containerPort: 443 },
        ],
      },
    };
    const widgetCrd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    const bundle = OperatorBundle.fromCatalogBundle({
      schema: 'olm.bundle',
      name: 'demo.v1.0.0',
      package: 'demo',
      image: 'x',
      properties: [{ type: 'olm.package', value: { packageName: 'demo', version: '1.0.0' } },
        ...[base, widgetCrd].map((o) => ({ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(o)).toString('base64') } }))],
    });
    expect(RegistryV1Render.refusal(bundle, { installNamespace: 'team-x' })).toBe([
      `invalid cluster service version strategy deployment name 'Demo_Controller': ${RE}`,
      "conversion webhooks [conv-a,conv-b] reference same custom resource definition 'widgets.example.com'",
    ].join('\n'));
  });
});

describe('RegistryV1Validators with garbage (fast-check, fixed seed)', () => {
  test('every check answers with strings or throws a one-line Error, never a TypeError', () => {
    const shaky = fc.oneof(garbage, fc.record({
      packageName: goodOrGarbage(fc.constant('p')),
      csv: goodOrGarbage(fc.constant(csv({ deployments: ['a', 'a'], owned: ['x'], modes: ['AllNamespaces'], webhooks: [wh(C, 'w', { conversionCRDs: ['x'], deploymentName: 'a' })] }))),
      crds: goodOrGarbage(fc.array(goodOrGarbage(fc.constant(crd('x'))), { maxLength: 3 })),
      others: goodOrGarbage(fc.array(goodOrGarbage(fc.constant(obj('v1', 'Secret', 's'))), { maxLength: 3 })),
    }, { requiredKeys: [] }));
    fc.assert(fc.property(shaky, goodOrGarbage(fc.constantFrom(...RegistryV1Validators.NAMES)), (rv, name) => {
      expectNoCrash(() => RegistryV1Validators.validate(rv as any));
      expectNoCrash(() => RegistryV1Validators.run(name as any, rv as any));
      expectNoCrash(() => RegistryV1Validators.isDns1123Subdomain(name as any));
      expectNoCrash(() => RegistryV1Validators.contentsOf(rv as any));
    }), { seed: SEED, numRuns: 400 });
  });
});
