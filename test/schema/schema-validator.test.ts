import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { SchemaValidator } from '../util/schema-validator';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const validator = SchemaValidator.shared();

function fixture(relative: string): any {
  return parse(fs.readFileSync(path.join(FIXTURES, relative), 'utf8'));
}

function subscription(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name: 'etcd', namespace: 'tenant-a', ...metadata },
    spec: { name: 'etcd', source: 'community-operators', sourceNamespace: 'olm', ...spec },
  };
}

function operatorGroup(spec: Record<string, unknown>, metadata: Record<string, unknown> = { namespace: 'tenant-a' }): any {
  return {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name: 'tenant-a', ...metadata },
    spec,
  };
}

function role(metadata: Record<string, unknown>, rules: unknown[] = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]): any {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata, rules };
}

/** Every YAML document of every file under `test/fixtures/bundles/<operator>/<version>/manifests/`. */
function bundleManifests(): Array<{ file: string; object: any }> {
  const root = path.join(FIXTURES, 'bundles');
  const out: Array<{ file: string; object: any }> = [];
  for (const operator of fs.readdirSync(root).sort()) {
    if (!fs.statSync(path.join(root, operator)).isDirectory()) continue;
    for (const version of fs.readdirSync(path.join(root, operator)).sort()) {
      const manifests = path.join(root, operator, version, 'manifests');
      if (!fs.existsSync(manifests)) continue;
      for (const file of fs.readdirSync(manifests).filter((f) => /\.ya?ml$/.test(f)).sort()) {
        for (const doc of parseAllDocuments(fs.readFileSync(path.join(manifests, file), 'utf8'))) {
          const object = doc.toJSON();
          if (object) out.push({ file: `${operator}/${version}/manifests/${file}`, object });
        }
      }
    }
  }
  return out;
}

/**
 * What the current CSV CRD says about an older CSV independently of the validator: `APIResourceReference` requires
 * `kind`, `name` and `version`, and old bundles list `resources` without `name`.
 */
function missingResourceNames(csv: any): string[] {
  const label = `ClusterServiceVersion/${csv.metadata.namespace}/${csv.metadata.name}`;
  const out: string[] = [];
  (csv.spec.customresourcedefinitions?.owned ?? []).forEach((crd: any, i: number) => {
    (crd.resources ?? []).forEach((r: any, j: number) => {
      if (r.name === undefined) out.push(`${label}: spec.customresourcedefinitions.owned[${i}].resources[${j}].name is required`);
    });
  });
  return out;
}

describe('known-good objects', () => {
  test('the upstream OLM CatalogSource (operator-lifecycle-manager deploy/upstream/manifests/0.18.3) validates', () => {
    // GIVEN
    const catalogSource = fixture('catalogs/operator-lifecycle-manager/deploy/upstream/manifests/0.18.3/0000_50_olm_17-upstream-operators.catalogsource.yaml');

    // WHEN
    const problems = validator.validate(catalogSource);

    // THEN
    expect(problems).toEqual([]);
  });

  test('the minimal OperatorHub of openshift/api config/v1/tests/operatorhubs.config.openshift.io validates', () => {
    // GIVEN the "Should be able to create a minimal OperatorHub" case; the test harness there supplies the name
    const suite = parse(fs.readFileSync(path.join(__dirname, '..', '..', 'crds', 'openshift', 'tests', 'operatorhubs.config.openshift.io', 'AAA_ungated.yaml'), 'utf8'));
    const testCase = suite.tests.onCreate.find((c: any) => c.name === 'Should be able to create a minimal OperatorHub');
    const operatorHub = { ...parse(testCase.initial), metadata: { name: 'cluster' } };

    // WHEN
    const problems = validator.validate(operatorHub);

    // THEN
    expect(problems).toEqual([]);
  });

  test('the etcd 0.9.4 CSV lacks resources[].name, which the current CSV CRD requires', () => {
    // GIVEN the CSV exactly as the bundle ships it
    const csv = fixture('bundles/etcd/0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml');

    // WHEN
    const problems = validator.validate(csv);

    // THEN
    expect(problems).toEqual([
      'ClusterServiceVersion/placeholder/etcdoperator.v0.9.4: spec.customresourcedefinitions.owned[0].resources[0].name is required',
      'ClusterServiceVersion/placeholder/etcdoperator.v0.9.4: spec.customresourcedefinitions.owned[0].resources[1].name is required',
    ]);
  });

  test('the etcd 0.9.4 CSV validates once resources[].name is "" as OLM\'s Go client writes it (no omitempty)', () => {
    // GIVEN
    const csv = fixture('bundles/etcd/0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml');
    for (const owned of csv.spec.customresourcedefinitions.owned) {
      for (const resource of owned.resources ?? []) resource.name = resource.name ?? '';
    }

    // WHEN
    const problems = validator.validate(csv);

    // THEN
    expect(problems).toEqual([]);
  });

  describe('every manifest of every bundle under test/fixtures/bundles (namespace "operators" added where OLM would set it)', () => {
    const findings: Record<string, (object: any) => string[]> = {
      // Real findings against the current CRDs; everything else must validate.
      'deployment-validation-operator/0.7.12/manifests/deploymentvalidationoperator.0.7.12.clusterserviceversion.yaml': () => [
        'ClusterServiceVersion/operators/deployment-validation-operator.v0.7.12: spec.skipRange is an unknown field',
      ],
      'etcd/0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml': missingResourceNames,
      'prometheus/0.56.3/manifests/prometheusoperator.0.56.3.clusterserviceversion.yaml': missingResourceNames,
      'rabbitmq-cluster-operator/2.22.3/manifests/rabbitmq-cluster-operator.clusterserviceversion.yaml': () => [
        // `resources: null` is pruned like the API server does for non-nullable fields: only the unknown field remains.
        'ClusterServiceVersion/placeholder/rabbitmq-cluster-operator.v2.22.3: spec.support is an unknown field',
      ],
      'strimzi-kafka-operator/1.2.0/manifests/strimzi-cluster-operator.v1.2.0.clusterserviceversion.yaml': () => [
        'ClusterServiceVersion/placeholder/strimzi-cluster-operator.v1.2.0: spec.MinKubeVersion is an unknown field',
      ],
      'opentelemetry-operator/0.158.0/manifests/opentelemetry-operator-prometheus-rules_monitoring.coreos.com_v1_prometheusrule.yaml': () => [
        'PrometheusRule/operators/opentelemetry-operator-prometheus-rules: no schema for monitoring.coreos.com/v1/PrometheusRule',
      ],
    };
    const manifests = bundleManifests();

    test('the fixture set is the 12 shared bundles', () => {
      expect(new Set(manifests.map((m) => m.file.split('/')[0])).size).toEqual(12);
    });

    test.each(manifests.map((m) => [m.file, m.object]))('%s', (file, object) => {
      // GIVEN
      if (validator.isNamespaced(object.apiVersion, object.kind) !== false && !object.metadata.namespace) {
        object.metadata.namespace = 'operators';
      }

      // WHEN
      const problems = validator.validate(object);

      // THEN
      expect(problems).toEqual(findings[file]?.(object) ?? []);
    });
  });
});

describe('OLM kinds against their CRD schemas', () => {
  test('an unknown spec field is reported', () => {
    expect(validator.validate(subscription({ chanel: 'stable' }))).toEqual([
      'Subscription/tenant-a/etcd: spec.chanel is an unknown field',
    ]);
  });

  test('a wrong type is reported', () => {
    expect(validator.validate(subscription({ source: 1 }))).toEqual([
      'Subscription/tenant-a/etcd: spec.source must be of type string (got integer)',
    ]);
  });

  test('a missing required field is reported', () => {
    // GIVEN
    const sub = subscription({});
    delete sub.spec.sourceNamespace;

    // THEN
    expect(validator.validate(sub)).toEqual(['Subscription/tenant-a/etcd: spec.sourceNamespace is required']);
  });

  test('a value outside an enum is reported (OperatorGroup v1 spec.upgradeStrategy)', () => {
    expect(validator.validate(operatorGroup({ upgradeStrategy: 'Sometimes' }))).toEqual([
      'OperatorGroup/tenant-a/tenant-a: spec.upgradeStrategy must be one of "Default", "TechPreviewUnsafeFailForward" (got "Sometimes")',
    ]);
  });

  test('a value outside an enum is reported (CatalogSource spec.grpcPodConfig.securityContextConfig)', () => {
    // GIVEN
    const catalogSource = fixture('catalogs/operator-lifecycle-manager/deploy/upstream/manifests/0.18.3/0000_50_olm_17-upstream-operators.catalogsource.yaml');
    catalogSource.spec.grpcPodConfig = { securityContextConfig: 'strict' };

    // THEN
    expect(validator.validate(catalogSource)).toEqual([
      'CatalogSource/olm/operatorhubio-catalog: spec.grpcPodConfig.securityContextConfig must be one of "legacy", "restricted" (got "strict")',
    ]);
  });

  test('Subscription spec.installPlanApproval is a free string in the CRD: "Sometimes" passes the schema (constructs must check it)', () => {
    expect(validator.validate(subscription({ installPlanApproval: 'Sometimes' }))).toEqual([]);
  });

  test('x-kubernetes-list-type: set rejects duplicates (OperatorGroup spec.targetNamespaces)', () => {
    expect(validator.validate(operatorGroup({ targetNamespaces: ['tenant-a', 'tenant-b', 'tenant-a'] }))).toEqual([
      'OperatorGroup/tenant-a/tenant-a: spec.targetNamespaces has duplicate items: [0] and [2] are equal (list type "set")',
    ]);
  });

  test('x-kubernetes-int-or-string accepts integers and strings, nothing else (Subscription spec.config.resources)', () => {
    expect(validator.validate(subscription({ config: { resources: { limits: { cpu: 1, memory: '128Mi' } } } }))).toEqual([]);
    expect(validator.validate(subscription({ config: { resources: { limits: { cpu: true } } } }))).toEqual([
      'Subscription/tenant-a/etcd: spec.config.resources.limits.cpu must be of type integer or string (got boolean)',
    ]);
  });

  test('schema defaults are applied before validation, like the API server (CSV hostAliases[].ip: required, default "")', () => {
    // GIVEN the etcd CSV (resources named) with a host alias that leaves out the required, defaulted ip
    const csv = fixture('bundles/etcd/0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml');
    for (const owned of csv.spec.customresourcedefinitions.owned) {
      for (const resource of owned.resources ?? []) resource.name = resource.name ?? '';
    }
    csv.spec.install.spec.deployments[0].spec.template.spec.hostAliases = [{ hostnames: ['etcd.local'] }];

    // THEN
    expect(validator.validate(csv)).toEqual([]);
  });

  test('a type: object schema without properties is closed (Operator v1 spec)', () => {
    expect(validator.validate({ apiVersion: 'operators.coreos.com/v1', kind: 'Operator', metadata: { name: 'etcd.tenant-a' }, spec: { foo: 1 } })).toEqual([
      'Operator/etcd.tenant-a: spec.foo is an unknown field',
    ]);
  });

  test('every served version has a schema; v1alpha2 OperatorGroup validates against its own (no upgradeStrategy)', () => {
    // GIVEN
    const og = { ...operatorGroup({ upgradeStrategy: 'Default' }), apiVersion: 'operators.coreos.com/v1alpha2' };

    // THEN
    expect(validator.validate(og)).toEqual(['OperatorGroup/tenant-a/tenant-a: spec.upgradeStrategy is an unknown field']);
  });

  test('the storage version OperatorCondition v2 and OLMConfig and OperatorHub have schemas', () => {
    expect([
      validator.hasSchema('operators.coreos.com/v2', 'OperatorCondition'),
      validator.hasSchema('operators.coreos.com/v1', 'OLMConfig'),
      validator.hasSchema('config.openshift.io/v1', 'OperatorHub'),
      validator.hasSchema('operators.coreos.com/v1alpha1', 'InstallPlan'),
      validator.hasSchema('operators.coreos.com/v1alpha1', 'ClusterServiceVersion'),
    ]).toEqual([true, true, true, true, true]);
  });

  test('OperatorHub is cluster-scoped: a namespace is reported', () => {
    expect(validator.validate({ apiVersion: 'config.openshift.io/v1', kind: 'OperatorHub', metadata: { name: 'cluster', namespace: 'openshift-marketplace' }, spec: { disableAllDefaultSources: true } })).toEqual([
      'OperatorHub/openshift-marketplace/cluster: metadata.namespace is not allowed: OperatorHub is cluster-scoped',
    ]);
  });

  test('OperatorHub spec.sources[].name maxLength is reported', () => {
    // GIVEN
    const longName = 'a'.repeat(254);

    // THEN
    expect(validator.validate({ apiVersion: 'config.openshift.io/v1', kind: 'OperatorHub', metadata: { name: 'cluster' }, spec: { sources: [{ name: longName, disabled: true }] } })).toEqual([
      'OperatorHub/cluster: spec.sources[0].name must be at most 253 characters (has 254)',
    ]);
  });
});

describe('ObjectMeta rules (k8s.io/apimachinery pkg/api/validation/objectmeta.go)', () => {
  test('custom resource names must be DNS-1123 subdomains (apiextensions-apiserver customresource/validator.go)', () => {
    expect(validator.validate(subscription({}, { name: 'Etcd_Operator' }))).toEqual([
      'Subscription/tenant-a/Etcd_Operator: metadata.name "Etcd_Operator" is invalid: must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (RFC 1123 subdomain)',
    ]);
  });

  test('a missing name is reported', () => {
    expect(validator.validate(subscription({}, { name: undefined }))).toEqual([
      'Subscription/tenant-a/(no name): metadata.name is required',
    ]);
  });

  test('Namespace names must be DNS-1123 labels', () => {
    expect(validator.validate({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant.a' } })).toEqual([
      'Namespace/tenant.a: metadata.name "tenant.a" is invalid: must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (RFC 1123 label)',
    ]);
  });

  test('Service names must be DNS-1035 labels (ValidateServiceName = NameIsDNS1035Label)', () => {
    expect(validator.validate({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1-metrics', namespace: 'tenant-a' }, spec: { ports: [{ port: 8080 }] } })).toEqual([
      'Service/tenant-a/1-metrics: metadata.name "1-metrics" is invalid: must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (RFC 1035 label)',
    ]);
  });

  test('RBAC names are path segments: upper case and colons pass, a slash does not (ValidateRBACName)', () => {
    expect(validator.validate(role({ name: 'OLM:Tenant-A', namespace: 'tenant-a' }))).toEqual([]);
    expect(validator.validate(role({ name: 'olm/tenant-a', namespace: 'tenant-a' }))).toEqual([
      'Role/tenant-a/olm/tenant-a: metadata.name "olm/tenant-a" is invalid: may not contain \'/\' or \'%\'',
    ]);
  });

  test('a namespace must be a DNS-1123 label', () => {
    expect(validator.validate(role({ name: 'r', namespace: 'Tenant_A' }))).toEqual([
      'Role/Tenant_A/r: metadata.namespace "Tenant_A" is invalid: must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (RFC 1123 label)',
    ]);
  });

  test('a namespaced kind without a namespace is reported (OLM and core kinds)', () => {
    expect(validator.validate(operatorGroup({}, {}))).toEqual([
      'OperatorGroup/tenant-a: metadata.namespace is required: OperatorGroup is namespaced and synthesized objects must say where they go',
    ]);
    expect(validator.validate(role({ name: 'r' }))).toEqual([
      'Role/r: metadata.namespace is required: Role is namespaced and synthesized objects must say where they go',
    ]);
  });

  test('a cluster-scoped kind with a namespace is reported', () => {
    expect(validator.validate({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'olm-view', namespace: 'tenant-a' }, rules: [] })).toEqual([
      'ClusterRole/tenant-a/olm-view: metadata.namespace is not allowed: ClusterRole is cluster-scoped',
    ]);
  });

  test('a bad label value is reported (IsValidLabelValue)', () => {
    expect(validator.validate(subscription({}, { labels: { 'app.kubernetes.io/part-of': 'tenant a' } }))).toEqual([
      'Subscription/tenant-a/etcd: metadata.labels[app.kubernetes.io/part-of] value "tenant a" is invalid: a valid label must be an empty string or must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });

  test('a label value over 63 bytes is reported', () => {
    // GIVEN
    const value = 'a'.repeat(64);

    // THEN
    expect(validator.validate(subscription({}, { labels: { tenant: value } }))).toEqual([
      `Subscription/tenant-a/etcd: metadata.labels.tenant value "${value}" is invalid: must be no more than 63 bytes`,
    ]);
  });

  test('a bad label key is reported (IsQualifiedName)', () => {
    expect(validator.validate(subscription({}, { labels: { 'Example.com/tenant': 'a' } }))).toEqual([
      'Subscription/tenant-a/etcd: metadata.labels[Example.com/tenant] key is invalid: prefix part must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (RFC 1123 subdomain)',
    ]);
  });

  test('annotation keys are qualified names compared in lower case; values are free text', () => {
    expect(validator.validate(subscription({}, { annotations: { 'Example.com/Reason': 'any text, even with spaces: fine' } }))).toEqual([]);
    expect(validator.validate(subscription({}, { annotations: { 'example.com/why?': 'x' } }))).toEqual([
      'Subscription/tenant-a/etcd: metadata.annotations[example.com/why?] key is invalid: name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });

  test('annotations over 256 KiB in total are reported (TotalAnnotationSizeLimitB)', () => {
    // GIVEN two annotations of 128 KiB values: 2 * (1 + 131072) bytes
    const big = 'x'.repeat(128 * 1024);

    // THEN
    expect(validator.validate(subscription({}, { annotations: { a: big, b: big } }))).toEqual([
      'Subscription/tenant-a/etcd: metadata.annotations are too long: 262146 bytes, may not be more than 262144',
    ]);
  });

  test('label values must be strings and metadata is closed', () => {
    expect(validator.validate(subscription({}, { labels: { tenant: 1 }, labelz: {} }))).toEqual([
      'Subscription/tenant-a/etcd: metadata.labelz is an unknown field',
      'Subscription/tenant-a/etcd: metadata.labels.tenant must be of type string (got integer)',
    ]);
  });
});

describe('core kinds (kubernetes-models 4.5.1 plus closed shapes)', () => {
  test('a valid Role, RoleBinding and Namespace pass', () => {
    expect(validator.validateAll([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant-a', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
      role({ name: 'installer', namespace: 'tenant-a' }),
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'installer', namespace: 'tenant-a' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installer' },
        subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'tenant-a' }],
      },
    ])).toEqual([]);
  });

  test('an unknown field kubernetes-models would accept is reported (PolicyRule nonResourceUrls vs nonResourceURLs)', () => {
    expect(validator.validate(role({ name: 'r', namespace: 'tenant-a' }, [{ verbs: ['get'], nonResourceUrls: ['/healthz'] }]))).toEqual([
      'Role/tenant-a/r: rules[0].nonResourceUrls is an unknown field',
    ]);
  });

  test('an unknown top-level field is reported', () => {
    expect(validator.validate({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant-a' }, rules: [] })).toEqual([
      'Namespace/tenant-a: rules is an unknown field',
    ]);
  });

  test('wrong types and missing required fields come from kubernetes-models', () => {
    expect(validator.validate({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'tenant-a' },
      subjects: [{ kind: 'ServiceAccount', name: 7 }],
    })).toEqual([
      'RoleBinding/tenant-a/b: roleRef is required',
      'RoleBinding/tenant-a/b: subjects[0].name must be of type string (got integer)',
    ]);
  });

  test('RBAC objects also get the API server\'s Go checks (pkg/apis/rbac/validation)', () => {
    expect(validator.validate(role({ name: 'r', namespace: 'tenant-a' }, [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: [] }]))).toEqual([
      'Role/tenant-a/r: rules[0].verbs is required: verbs must contain at least one value',
    ]);
  });

  test('ValidatingAdmissionPolicy and its binding (admissionregistration.k8s.io/v1) are validated and cluster-scoped', () => {
    // GIVEN
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'olm-tenant-guard' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE'], resources: ['subscriptions'] }] },
        validations: [{ expression: "object.spec.sourceNamespace == 'olm'", message: 'catalog not allowed' }],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'olm-tenant-guard', namespace: 'tenant-a' },
      spec: { policyName: 'olm-tenant-guard', validationActions: ['Deny'], matchResources: {} },
    };
    const typo = { ...policy, spec: { ...policy.spec, validations: [{ expresion: 'true' }] } };

    // THEN
    expect(validator.validateAll([policy, binding, typo])).toEqual([
      'ValidatingAdmissionPolicyBinding/tenant-a/olm-tenant-guard: metadata.namespace is not allowed: ValidatingAdmissionPolicyBinding is cluster-scoped',
      'ValidatingAdmissionPolicy/olm-tenant-guard: spec.validations[0].expression is required',
      'ValidatingAdmissionPolicy/olm-tenant-guard: spec.validations[0].expresion is an unknown field',
    ]);
  });

  test('a Deployment is validated deeply (container fields are closed)', () => {
    // GIVEN
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'op', namespace: 'tenant-a' },
      spec: {
        selector: { matchLabels: { app: 'op' } },
        template: {
          metadata: { labels: { app: 'op' } },
          spec: { containers: [{ name: 'op', image: 'quay.io/x/op:1', imagePullPolicyy: 'Always' }] },
        },
      },
    };

    // THEN
    expect(validator.validate(deployment)).toEqual([
      'Deployment/tenant-a/op: spec.template.spec.containers[0].imagePullPolicyy is an unknown field',
    ]);
  });
});

describe('anything else', () => {
  test('an unknown kind is an error, so nothing slips through unvalidated', () => {
    expect(validator.validate({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'm', namespace: 'tenant-a' } })).toEqual([
      'ServiceMonitor/tenant-a/m: no schema for monitoring.coreos.com/v1/ServiceMonitor',
    ]);
  });

  test('a known kind at an unknown version is an error', () => {
    expect(validator.validate({ ...subscription({}), apiVersion: 'operators.coreos.com/v1' })).toEqual([
      'Subscription/tenant-a/etcd: no schema for operators.coreos.com/v1/Subscription',
    ]);
    expect(validator.validate({ apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'Role', metadata: { name: 'r', namespace: 'tenant-a' } })).toEqual([
      'Role/tenant-a/r: no schema for rbac.authorization.k8s.io/v1beta1/Role',
    ]);
  });

  test('not an object, or no apiVersion/kind, is an error', () => {
    expect(validator.validateAll(['kind: Namespace', { metadata: { name: 'x' } }])).toEqual([
      '(not an object): (root) must be a Kubernetes object (got "kind: Namespace")',
      '(no kind)/x: (root) must have string apiVersion and kind (got nothing and nothing)',
    ]);
  });

  test('validateAll keeps input order', () => {
    expect(validator.validateAll([
      subscription({ chanel: 'a' }),
      subscription({}),
      operatorGroup({ upgradeStrategy: 'x' }),
    ])).toEqual([
      'Subscription/tenant-a/etcd: spec.chanel is an unknown field',
      'OperatorGroup/tenant-a/tenant-a: spec.upgradeStrategy must be one of "Default", "TechPreviewUnsafeFailForward" (got "x")',
    ]);
  });
});
