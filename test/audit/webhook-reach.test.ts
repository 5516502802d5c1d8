/**
 * Issue 23 item 5: webhooks by the kinds they see and rewrite. The model (src/audit/webhook-reach.ts, matching as
 * k8s apiserver `admission/plugin/webhook/predicates/rules/rules.go` and `predicates/namespace/matcher.go`), the OLM v0
 * tenant's finding (OLMT-051; OLM `pkg/controller/install/webhook.go` sets the OperatorGroup's namespaceSelector) and
 * the OLM v1 preview's (OLMT-052), with the real bundles of test/fixtures/bundles and crafted variants.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import fc from 'fast-check';
import { CatalogSourceReference, OperatorBundle, PolicySeverity, ScopedOperatorTenant, TargetNamespaces } from '../../src';
import { selectedNamespaces, webhookReach, WebhookPlacement } from '../../src/audit/webhook-reach';
import { Diagnostics } from '../../src/core';
import { OlmV1PermissionPreview, OlmV1PreviewFindingCode, RegistryV1Render } from '../../src/olmv1';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const bundleDir = (name: string, version: string) => path.join(FIXTURES, 'bundles', name, version);
const shared = (name: string, version: string) => OperatorBundle.fromDirectory(bundleDir(name, version));
const JAEGER = shared('jaeger', '1.65.0');

const TEMPLATE = 'the template of every pod it creates: images, commands, volumes and the ServiceAccount, i.e. code in its pods as any ServiceAccount of the namespace';
const CLUSTER = 'the whole cluster: cluster-scoped, the namespaceSelector does not apply';
const EVERYWHERE: WebhookPlacement = { mutating: true, ownGroups: ['example.com'], ownNamespaces: ['team-a'], selectedNamespaces: null };
const rule = (apiGroups: string[], resources: string[], operations = ['CREATE', 'UPDATE'], extra: any = {}) => ({ apiGroups, apiVersions: ['*'], operations, resources, ...extra });
const reach = (rules: any[], placement: Partial<WebhookPlacement> = {}, hook: any = {}) =>
  webhookReach({ name: 'w.example.com', rules, ...hook }, { ...EVERYWHERE, ...placement });
const summary = (rules: any[], placement: Partial<WebhookPlacement> = {}, hook: any = {}) =>
  reach(rules, placement, hook).map((r) => `${r.rewrites ? 'rewrites' : 'receives'} ${r.resource} @ ${r.where}`);

describe('webhookReach: the kinds a webhook sees and rewrites (rules.go)', () => {
  test.each([
    ['apps', 'deployments'], ['apps', 'daemonsets'], ['apps', 'statefulsets'], ['apps', 'replicasets'], ['batch', 'jobs'], ['batch', 'cronjobs'],
    ['', 'replicationcontrollers'], ['extensions', 'deployments'],
  ])('a mutating webhook on %s/%s rewrites every pod template it creates, in every namespace', (group, resource) => {
    expect(reach([rule([group], [resource])])).toEqual([
      { resource: `${group || 'core'}/${resource}`, rewrites: true, why: TEMPLATE, where: 'every namespace' },
    ]);
  });

  test('ServiceAccounts and Namespaces rewritten; Secrets and ConfigMaps received by a validating webhook too', () => {
    expect(reach([rule([''], ['serviceaccounts', 'namespaces'])])).toEqual([
      { resource: 'core/serviceaccounts', rewrites: true, why: 'every ServiceAccount: image pull secrets, token mounting', where: 'every namespace' },
      { resource: 'core/namespaces', rewrites: true, why: "every Namespace: its Pod Security labels (privileged pods) and the team's labels", where: 'every namespace' },
    ]);
    expect(reach([rule([''], ['secrets', 'configmaps'])], { mutating: false })).toEqual([
      { resource: 'core/secrets', rewrites: false, why: "every Secret's data, ServiceAccount tokens included", where: 'every namespace' },
      { resource: 'core/configmaps', rewrites: false, why: "every ConfigMap's data", where: 'every namespace' },
    ]);
  });

  test('operations: DELETE still sends the old object (received, not rewritten); CONNECT alone sends no object; * is every operation', () => {
    expect(summary([rule(['apps'], ['deployments'], ['DELETE'])])).toEqual(['receives apps/deployments @ every namespace']);
    expect(summary([rule([''], ['secrets'], ['DELETE'])], { mutating: false })).toEqual(['receives core/secrets @ every namespace']);
    expect(summary([rule([''], ['pods/exec', 'pods'], ['CONNECT'])])).toEqual([]);
    expect(summary([rule(['apps'], ['deployments'], ['*'])])).toEqual(['rewrites apps/deployments @ every namespace']);
  });

  test('wildcards: `*` resources of the core group, `*/*`, `pods/*`, `*` groups; `*/scale` matches no main resource', () => {
    expect(summary([rule([''], ['*'])])).toEqual([
      'rewrites core/pods @ every namespace', 'rewrites core/replicationcontrollers @ every namespace', 'rewrites core/serviceaccounts @ every namespace',
      'rewrites core/namespaces @ every namespace', 'receives core/secrets @ every namespace', 'receives core/configmaps @ every namespace',
      `rewrites core/* @ ${CLUSTER}`,
    ]);
    // `*/*` matches subresources too: pods/ephemeralcontainers
    expect(summary([rule(['apps'], ['*/*'])])).toEqual([
      'rewrites apps/deployments @ every namespace', 'rewrites apps/daemonsets @ every namespace', 'rewrites apps/statefulsets @ every namespace',
      'rewrites apps/replicasets @ every namespace', `rewrites apps/*/* @ ${CLUSTER}`,
    ]);
    expect(summary([rule([''], ['pods/*'])])).toEqual(['rewrites core/pods @ every namespace', 'rewrites core/pods/ephemeralcontainers @ every namespace']);
    expect(summary([rule(['*'], ['deployments'])])).toEqual(['rewrites apps/deployments @ every namespace', 'rewrites extensions/deployments @ every namespace', `rewrites */deployments @ ${CLUSTER}`]);
    expect(summary([rule(['apps'], ['*/scale'])])).toEqual([`rewrites apps/*/scale @ ${CLUSTER}`]);
  });

  test('scope: Namespaced never matches Namespace objects and confines the rest to the namespaceSelector; Cluster matches Namespace objects only', () => {
    const confined = { hook: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } } } };
    expect(summary([rule([''], ['*'], ['CREATE'], { scope: 'Namespaced' })], {}, confined.hook)).toEqual([]);
    expect(summary([rule([''], ['*'], ['CREATE'], { scope: 'Cluster' })])).toEqual(['rewrites core/namespaces @ every namespace', `rewrites core/* @ ${CLUSTER}`]);
  });

  test('own API groups stay quiet (cert-manager: `*/*` of its own groups), whatever the namespaceSelector', () => {
    expect(reach([rule(['cert-manager.io', 'acme.cert-manager.io'], ['*/*'])], { ownGroups: ['acme.cert-manager.io', 'cert-manager.io'] })).toEqual([]);
    expect(reach([rule(['example.com'], ['widgets'], ['*'])], { mutating: false })).toEqual([]);
  });

  test('another operator\'s API (outside the bundle\'s own groups) is received, namespaced or not', () => {
    expect(reach([rule(['ray.io'], ['rayclusters'])], { mutating: false })).toEqual([{
      resource: 'ray.io/rayclusters', rewrites: false, why: "every rayclusters object outside the bundle's own APIs: receives its data, may deny it", where: CLUSTER,
    }]);
    // scoped to Namespaced: the namespaceSelector confines it
    expect(summary([rule(['ray.io'], ['rayclusters'], ['CREATE'], { scope: 'Namespaced' })], { selectedNamespaces: ['team-a'] })).toEqual([]);
    expect(summary([rule(['rbac.authorization.k8s.io'], ['clusterroles'])], { selectedNamespaces: ['team-a'] })).toEqual([`rewrites rbac.authorization.k8s.io/clusterroles @ ${CLUSTER}`]);
  });

  describe('namespaceSelector: only kubernetes.io/metadata.name confines (matcher.go; the API server sets that label)', () => {
    test.each<[string, any, string[] | undefined]>([
      ['none', undefined, undefined],
      ['{}', {}, undefined],
      ['matchLabels name', { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } }, ['team-a']],
      ['In', { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-b', 'team-a'] }] }, ['team-a', 'team-b']],
      ['In and matchLabels: the intersection', { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' }, matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }] }, ['team-a']],
      ['NotIn', { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] }, undefined],
      ['another label (anyone who labels a namespace opts it in)', { matchLabels: { 'olm.operatorgroup.uid/1234': '' } }, undefined],
      ['Exists', { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }] }, undefined],
    ])('%s', (_, selector, expected) => {
      expect(selectedNamespaces(selector)).toEqual(expected);
    });

    test('confined to the team\'s namespaces: nothing; to another namespace too: named with the namespaces', () => {
      const team = { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] } };
      const wider = { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }] } };
      const rules = [rule(['apps'], ['deployments']), rule([''], ['namespaces', 'secrets'])];
      expect(summary(rules, {}, team)).toEqual([]);
      expect(summary(rules, {}, wider)).toEqual([
        'rewrites apps/deployments @ namespaces team-a, team-b', 'rewrites core/namespaces @ namespaces team-a, team-b', 'receives core/secrets @ namespaces team-a, team-b',
      ]);
    });

    test('objectSelector never confines (jaeger 1.65.0: name NotIn [jaeger-operator])', () => {
      const hook = JAEGER.csv.spec.webhookdefinitions.find((w: any) => w.generateName === 'deployment.sidecar-injector.jaegertracing.io');
      expect(hook.objectSelector).toEqual({ matchExpressions: [{ key: 'name', operator: 'NotIn', values: ['jaeger-operator'] }] });
      expect(webhookReach(hook, { mutating: true, ownGroups: ['jaegertracing.io'], ownNamespaces: ['team-a'], selectedNamespaces: undefined }).map((r) => r.resource)).toEqual(['apps/deployments']);
    });
  });
});

/** rabbitmq-cluster-operator 2.22.3 (every install mode) whose mutating webhook has `rules` (a YAML flow list). */
function rabbitWithMutatingRules(rules: string): OperatorBundle {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-reach-'));
  fs.cpSync(bundleDir('rabbitmq-cluster-operator', '2.22.3'), dir, { recursive: true });
  const csvFile = path.join(dir, 'manifests', 'rabbitmq-cluster-operator.clusterserviceversion.yaml');
  const csv = fs.readFileSync(csvFile, 'utf8');
  const own = '    rules:\n    - apiGroups:\n      - rabbitmq.com\n      apiVersions:\n      - v1beta1\n      operations:\n      - CREATE\n      - UPDATE\n      resources:\n      - rabbitmqclusters\n    sideEffects: None\n    webhookPath: /mutate-';
  expect(csv.split(own).length).toBe(2);
  fs.writeFileSync(csvFile, csv.replace(own, `    rules: ${rules}\n    sideEffects: None\n    webhookPath: /mutate-`));
  try {
    return OperatorBundle.fromDirectory(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function tenantErrors(bundle: OperatorBundle, targets: TargetNamespaces, policyChecks?: { [id: string]: PolicySeverity }) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, clusterScopedInstallerRulesReason: 'webhooks', targetNamespaces: targets, policyChecks });
  t.subscribe({ packageName: bundle.packageName ?? 'x', catalog: CatalogSourceReference.fromName('curated', 'team-a'), bundle });
  const all = chart.node.findAll().flatMap((c) => c.node.validate());
  const warnings = Diagnostics.warnings(chart).filter((d) => d.code === 'TenantWebhookBeyondNamespace').map((d) => `${d.field}="${d.value}": ${d.message}`);
  return { errors: all.filter((e) => e.includes('TenantWebhookBeyondNamespace')), warnings };
}

describe('OLM v0 tenant: webhooks beyond the tenant are errors (OLMT-051)', () => {
  test('jaeger 1.65.0 (AllNamespaces only): its mutating webhook on deployments in every namespace is named; its own jaegers webhooks are not', () => {
    expect(tenantErrors(JAEGER, TargetNamespaces.allNamespaces('tracing for every team')).errors).toEqual([
      'subscriptions[jaeger]="jaeger-operator.v1.65.0 deployment.sidecar-injector.jaegertracing.io": OLM creates the mutating webhook '
      + 'deployment.sidecar-injector.jaegertracing.io of jaeger-operator.v1.65.0 for an AllNamespaces OperatorGroup (no namespaceSelector): it rewrites '
      + `apps/deployments (${TEMPLATE}) in every namespace. Fix: target the tenant's own namespaces if the operator supports it (OLM then confines the `
      + 'webhook to them), have a cluster admin install this operator, or lower OLMT-051 with policyChecks (TenantWebhookBeyondNamespace, OLMT-051)',
    ]);
  });

  test('lowered with policyChecks: a warning instead', () => {
    const r = tenantErrors(JAEGER, TargetNamespaces.allNamespaces('tracing'), { 'OLMT-051': PolicySeverity.WARNING });
    expect(r.errors).toEqual([]);
    expect(r.warnings.length).toBe(1);
    expect(r.warnings[0]).toMatch(/^subscriptions\[jaeger\]="jaeger-operator.v1.65.0 deployment.sidecar-injector.jaegertracing.io": OLM creates the mutating webhook/);
  });

  test.each([
    ['cert-manager', '1.16.5'], ['opentelemetry-operator', '0.158.0'], ['rabbitmq-cluster-operator', '2.22.3'],
  ])('%s %s: webhooks on its own APIs only stay quiet in AllNamespaces; pods are named', (name, version) => {
    const errors = tenantErrors(shared(name, version), TargetNamespaces.allNamespaces('every team')).errors;
    // opentelemetry-operator's mpod.kb.io rewrites every pod of the cluster: named in v0 too
    expect(errors.map((e) => e.replace(/^subscriptions\[[^\]]*\]="([^"]*)".*$/, '$1'))).toEqual(name === 'opentelemetry-operator' ? ['opentelemetry-operator.v0.158.0 mpod.kb.io'] : []);
  });

  test('the OperatorGroup confines a crafted deployments webhook to the tenant\'s own namespace: nothing named; cluster-scoped kinds stay named', () => {
    const deployments = rabbitWithMutatingRules('[{ apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }]');
    expect(tenantErrors(deployments, TargetNamespaces.ownNamespace()).errors).toEqual([]);
    expect(tenantErrors(deployments, TargetNamespaces.allNamespaces('every team')).errors.length).toBe(1);
    // a Namespace object matches the OperatorGroup's label selector on its own labels: confined too
    expect(tenantErrors(rabbitWithMutatingRules('[{ apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [namespaces] }]'), TargetNamespaces.ownNamespace()).errors).toEqual([]);
    const clusterRoles = rabbitWithMutatingRules('[{ apiGroups: [rbac.authorization.k8s.io], apiVersions: [v1], operations: ["*"], resources: [clusterroles] }]');
    expect(tenantErrors(clusterRoles, TargetNamespaces.ownNamespace()).errors).toEqual([
      'subscriptions[rabbitmq-cluster-operator]="rabbitmq-cluster-operator.v2.22.3 mrabbitmqcluster-v1beta1.kb.io": OLM creates the mutating webhook '
      + "mrabbitmqcluster-v1beta1.kb.io of rabbitmq-cluster-operator.v2.22.3: it rewrites rbac.authorization.k8s.io/clusterroles (every clusterroles object outside the bundle's own APIs: "
      + `may rewrite it, receives its data, may deny it) in ${CLUSTER}. Fix: have a cluster admin install this operator, or lower OLMT-051 with policyChecks `
      + '(cluster-scoped kinds are not confined by a namespaceSelector) (TenantWebhookBeyondNamespace, OLMT-051)',
    ]);
  });

  test.each([
    ['secrets (their data, whatever the webhook type)', '[{ apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [secrets] }]', 'receives core/secrets'],
    ['a subresource (pods/ephemeralcontainers)', '[{ apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [pods/ephemeralcontainers] }]', 'rewrites core/pods/ephemeralcontainers'],
    ['every resource of the apps group', '[{ apiGroups: [apps], apiVersions: [v1], operations: ["*"], resources: ["*"] }]', 'rewrites apps/deployments'],
    ['cronjobs', '[{ apiGroups: [batch], apiVersions: [v1], operations: [CREATE], resources: [cronjobs] }]', 'rewrites batch/cronjobs'],
  ])('AllNamespaces variants: %s', (_, rules, first) => {
    const errors = tenantErrors(rabbitWithMutatingRules(rules), TargetNamespaces.allNamespaces('every team')).errors;
    expect(errors.length).toBe(1);
    expect(errors[0]).toContain(`: it ${first} (`);
  });
});

describe('OLM v1 preview: webhooks beyond the bundle\'s own APIs (OLMT-052)', () => {
  const findings = (b: OperatorBundle, watchNamespace?: string) =>
    OlmV1PermissionPreview.of(RegistryV1Render.forExtension(b, { installNamespace: 'team-x', ...(watchNamespace ? { watchNamespace, singleOwnNamespaceInstallSupport: true } : {}) })).findings
      .filter((f) => f.code === OlmV1PreviewFindingCode.WEBHOOK_BEYOND_OWN_APIS || f.code === OlmV1PreviewFindingCode.MUTATING_WEBHOOK_ON_PODS);

  test('jaeger 1.65.0: the deployments webhook, in every namespace', () => {
    expect(findings(JAEGER)).toEqual([{
      code: OlmV1PreviewFindingCode.WEBHOOK_BEYOND_OWN_APIS,
      subject: 'MutatingWebhookConfiguration deployment.sidecar-injector.jaegertracing.io',
      what: `mutating webhook deployment.sidecar-injector.jaegertracing.io rewrites apps/deployments (${TEMPLATE}) in every namespace `
        + "(its objectSelector matches labels the objects' writers choose)",
    }]);
  });

  test('cert-manager, rabbitmq: own APIs only, nothing; opentelemetry-operator: pods stay OLMT-045 only', () => {
    expect(findings(shared('cert-manager', '1.16.5'))).toEqual([]);
    expect(findings(shared('rabbitmq-cluster-operator', '2.22.3'))).toEqual([]);
    expect(findings(shared('opentelemetry-operator', '0.158.0')).map((f) => f.code)).toEqual([OlmV1PreviewFindingCode.MUTATING_WEBHOOK_ON_PODS]);
  });

  test('a crafted deployments webhook: every namespace named; watching only the install namespace (rendered namespaceSelector) confines it, another namespace does not', () => {
    const b = rabbitWithMutatingRules('[{ apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }]');
    expect(findings(b).map((f) => f.what)).toEqual([`mutating webhook mrabbitmqcluster-v1beta1.kb.io rewrites apps/deployments (${TEMPLATE}) in every namespace`]);
    expect(findings(b, 'team-x')).toEqual([]);
    expect(findings(b, 'team-y').map((f) => f.what)).toEqual([`mutating webhook mrabbitmqcluster-v1beta1.kb.io rewrites apps/deployments (${TEMPLATE}) in namespaces team-y`]);
  });

  test('a crafted mutating webhook on pods and deployments: pods under OLMT-045, the rest under OLMT-052', () => {
    const b = rabbitWithMutatingRules('[{ apiGroups: ["", apps], apiVersions: [v1], operations: [CREATE], resources: [pods, deployments] }]');
    expect(findings(b).map((f) => [f.code, f.what])).toEqual([
      [OlmV1PreviewFindingCode.MUTATING_WEBHOOK_ON_PODS, 'mutating webhook mrabbitmqcluster-v1beta1.kb.io rewrites pods in every namespace (served by Service team-x/rabbitmq-cluster-operator-service)'],
      [OlmV1PreviewFindingCode.WEBHOOK_BEYOND_OWN_APIS, `mutating webhook mrabbitmqcluster-v1beta1.kb.io rewrites apps/deployments (${TEMPLATE}) in every namespace`],
    ]);
  });
});

describe('webhookReach properties (fast-check, fixed seed)', () => {
  const groups = fc.constantFrom('', 'apps', 'batch', 'extensions', 'example.com', 'ray.io', 'rbac.authorization.k8s.io', '*');
  const resources = fc.constantFrom('pods', 'pods/*', 'pods/ephemeralcontainers', 'deployments', 'jobs', 'secrets', 'configmaps', 'namespaces', 'serviceaccounts', 'widgets', '*', '*/*', '*/scale');
  const ops = fc.subarray(['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*'], { minLength: 1 });
  const ruleArb = fc.record({
    apiGroups: fc.uniqueArray(groups, { minLength: 1, maxLength: 3 }),
    apiVersions: fc.constant(['*']),
    operations: ops,
    resources: fc.uniqueArray(resources, { minLength: 1, maxLength: 3 }),
    scope: fc.constantFrom(undefined, 'Namespaced', 'Cluster', '*'),
  });
  const placementArb = fc.record({
    mutating: fc.boolean(),
    ownGroups: fc.subarray(['example.com', 'ray.io']),
    ownNamespaces: fc.constant<string[]>(['team-a']),
    selectedNamespaces: fc.constantFrom<string[] | undefined | null>(null, undefined, ['team-a'], ['team-a', 'team-b']),
  });

  test('monotone: another rule never removes a reach; a rule on the bundle\'s own groups adds none', () => {
    fc.assert(fc.property(fc.array(ruleArb, { maxLength: 3 }), ruleArb, placementArb, (rules, extra, placement) => {
      const before = webhookReach({ rules }, placement).map((r) => r.resource);
      const after = webhookReach({ rules: [...rules, extra] }, placement).map((r) => r.resource);
      expect(before.every((r) => after.includes(r))).toBe(true);
      const own = { ...extra, apiGroups: ['example.com'] };
      expect(webhookReach({ rules: [...rules, own] }, { ...placement, ownGroups: ['example.com'] }))
        .toEqual(webhookReach({ rules }, { ...placement, ownGroups: ['example.com'] }));
    }), { seed: 23, numRuns: 300 });
  });

  test('confined to the team\'s namespace: only cluster-scoped kinds (never Namespaces) are left', () => {
    fc.assert(fc.property(fc.array(ruleArb, { maxLength: 4 }), placementArb, (rules, placement) => {
      const found = webhookReach({ rules }, { ...placement, selectedNamespaces: ['team-a'] });
      expect(found.every((r) => r.where === CLUSTER && r.resource !== 'core/namespaces')).toBe(true);
    }), { seed: 23, numRuns: 300 });
  });
});
