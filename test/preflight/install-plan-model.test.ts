import * as fs from 'fs';
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InstallPlanModel } from '../../src/preflight/install-plan-model';
import { PolicyRule } from '../../src/rbac/policy-rule';
import { RbacRules } from '../../src/rbac/rbac-rules';

// A small CSV with one webhook, read by hand against OLM's ExecutePlan / step_ensurer.go / certresources.go / webhook.go.
const bundle = OperatorBundle.fromCsvObject({
  kind: 'ClusterServiceVersion',
  metadata: { name: 'hook.v1.0.0' },
  spec: {
    installModes: [{ type: 'AllNamespaces', supported: true }],
    webhookdefinitions: [{ type: 'ValidatingAdmissionWebhook', generateName: 'vhook.example.com', deploymentName: 'hook', rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }] }],
    install: {
      strategy: 'deployment',
      spec: {
        deployments: [{ name: 'hook', spec: { template: { spec: { serviceAccountName: 'hook-sa' } } } }],
        permissions: [{ serviceAccountName: 'hook-sa', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }],
      },
    },
  },
}, [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook-metrics' } }]);

describe('InstallPlanModel.build (what OLM does with the scoped client)', () => {
  test('fresh install: every step, its namespace and the rules it needs', () => {
    const m = InstallPlanModel.build(bundle, 'ns', false);
    expect(m.requirements.map((r) => [r.namespace, r.step, r.rules, r.alternative ?? null])).toEqual([
      ['ns', 'InstallPlan step ClusterServiceVersion hook.v1.0.0: create', [{ apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['create'] }], null],
      ['ns', 'InstallPlan step Service hook-metrics (extra object [0]): create', [{ apiGroups: [''], resources: ['services'], verbs: ['create'] }], null],
      ['ns', 'InstallPlan step ServiceAccount hook-sa: create', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] }], null],
      ['ns', 'InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount hook-sa): create', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] }], null],
      ['ns', 'InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount hook-sa): create', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] }], null],
      ['ns', "InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount hook-sa): RBAC escalation check, the installer must hold the operator's rules",
        [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }]],
      ['ns', 'InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount hook-sa): RBAC escalation check on the binding',
        [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] }]],
      ['ns', 'install strategy: Deployment hook: get, then create', [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
        { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['hook'], verbs: ['get'] },
      ], null],
      ['ns', 'install strategy: cert resources of Deployment hook: Service hook-service applied server-side',
        [{ apiGroups: [''], resources: ['services'], resourceNames: ['hook-service'], verbs: ['create', 'patch'] }], null],
      ['ns', 'install strategy: cert resources of Deployment hook: Secret hook-service-cert: create', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }], null],
      ['ns', 'install strategy: cert resources of Deployment hook: Role hook-service-cert: create', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] }], null],
      ['ns', 'install strategy: cert resources of Deployment hook: RoleBinding hook-service-cert: create',
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] }], null],
      ['ns', 'install strategy: cert resources of Deployment hook: Role hook-service-cert: RBAC escalation check',
        [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['hook-service-cert'], verbs: ['get'] }],
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'], resourceNames: ['hook-service-cert'] }]],
      ['ns', 'install strategy: cert resources of Deployment hook: RoleBinding hook-service-cert: RBAC escalation check',
        [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['hook-service-cert'], verbs: ['get'] }],
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'], resourceNames: ['hook-service-cert'] }]],
      ['', 'install strategy: cert resources of Deployment hook: ClusterRoleBinding hook-service-system:auth-delegator (ServiceAccount hook-sa) applied server-side',
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], resourceNames: ['hook-service-system:auth-delegator'], verbs: ['create', 'patch'] }], null],
      ['', "install strategy: cert resources of Deployment hook: ClusterRoleBinding hook-service-system:auth-delegator: RBAC escalation check (hold system:auth-delegator's rules, or bind on it)",
        [
          { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
          { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
        ],
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['system:auth-delegator'] }]],
      ['kube-system', 'install strategy: cert resources of Deployment hook: RoleBinding hook-service-auth-reader in kube-system applied server-side',
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], resourceNames: ['hook-service-auth-reader'], verbs: ['create', 'patch'] }], null],
      ['kube-system', "install strategy: cert resources of Deployment hook: RoleBinding hook-service-auth-reader: RBAC escalation check (hold extension-apiserver-authentication-reader's rules, or bind on it)",
        [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: ['get', 'list', 'watch'] }],
        [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'], resourceNames: ['extension-apiserver-authentication-reader'] }]],
      ['', 'install strategy: ValidatingAdmissionWebhook vhook.example.com: list, then create',
        [{ apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['list', 'create'] }], null],
    ]);
    expect(m.unsupported).toEqual([]);
    expect(m.conversionNotSingleton).toEqual([]);
    expect(m.invalidWebhooks).toEqual([]);
  });

  test('update path: named get + patch for typed objects and the Deployment (operatorclient/deployment.go RollingUpdateDeployment), update for webhooks', () => {
    const m = InstallPlanModel.build(bundle, 'ns', true);
    const byStep = (prefix: string) => m.requirements.filter((r) => r.step.startsWith(prefix)).map((r) => r.rules);
    expect(byStep('InstallPlan step ServiceAccount hook-sa')).toEqual([[
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
      { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['hook-sa'], verbs: ['get', 'patch'] },
    ]]);
    expect(byStep('install strategy: Deployment hook')).toEqual([[
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['hook'], verbs: ['get', 'patch'] },
    ]]);
    expect(byStep('install strategy: ValidatingAdmissionWebhook')).toEqual([[
      { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['list', 'create', 'update'] },
    ]]);
  });

  test('OLM ValidWebhookRules and the conversion-webhook install mode rule', () => {
    const bad = OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'bad.v1' },
      spec: {
        installModes: [{ type: 'OwnNamespace', supported: true }, { type: 'AllNamespaces', supported: true }],
        webhookdefinitions: [
          { type: 'MutatingAdmissionWebhook', generateName: 'm.example.com', deploymentName: 'd', rules: [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'] }] },
          { type: 'ConversionWebhook', generateName: 'c.example.com', deploymentName: 'd', conversionCRDs: ['widgets.example.com'] },
        ],
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'd', spec: {} }] } },
      },
    });
    const m = InstallPlanModel.build(bad, 'ns', false);
    expect(m.invalidWebhooks).toEqual(['m.example.com: Webhook rules cannot include the OLM group']);
    expect(m.conversionNotSingleton).toEqual(['c.example.com']);
  });
});

describe('InstallPlanModel.build: details read from OLM source', () => {
  const csv = (spec: any) => OperatorBundle.fromCsvObject({
    kind: 'ClusterServiceVersion',
    metadata: { name: 'd.v1' },
    spec: { installModes: [{ type: 'AllNamespaces', supported: true }], ...spec },
  });

  test('resolver/rbac.go has no exception for ServiceAccount default: it always exists, so even a fresh install needs create, get and patch on it (step_ensurer.go EnsureServiceAccount)', () => {
    const b = csv({ install: { strategy: 'deployment', spec: { deployments: [], permissions: [{ serviceAccountName: 'default', rules: [] }] } } });
    for (const upgrade of [false, true]) {
      const m = InstallPlanModel.build(b, 'ns', upgrade);
      expect(m.requirements.filter((r) => r.step.startsWith('InstallPlan step ServiceAccount')).map((r) => [r.step, r.rules])).toEqual([[
        'InstallPlan step ServiceAccount default: create -> AlreadyExists (it always exists), then get + patch',
        [
          { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
          { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['default'], verbs: ['get', 'patch'] },
        ],
      ]]);
    }
  });

  test('olm/operator.go syncClusterServiceVersion: a repeated webhook generateName is InvalidWebhookDescription', () => {
    const hook = { type: 'ValidatingAdmissionWebhook', generateName: 'v.example.com', deploymentName: 'd', rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }] };
    const b = csv({ webhookdefinitions: [hook, { ...hook, type: 'MutatingAdmissionWebhook' }], install: { strategy: 'deployment', spec: { deployments: [{ name: 'd', spec: {} }] } } });
    expect(InstallPlanModel.build(b, 'ns', false).invalidWebhooks).toEqual(['v.example.com: CSV contains repeated WebhookDescription name']);
  });
});

/**
 * docs/preflight.md "Every step, as modelled": the model's own output for a probe bundle that has one of everything
 * (each typed and supported bundle kind, permissions and clusterPermissions, a webhook, a conversion webhook, an
 * APIService). The test fails when the docs drift; `PRINT_TABLE=1` prints it.
 */
export function stepTable(): string {
  const probe = OperatorBundle.fromCsvObject({
    kind: 'ClusterServiceVersion',
    metadata: { name: 'probe.v1' },
    spec: {
      installModes: [{ type: 'AllNamespaces', supported: true }],
      customresourcedefinitions: { owned: [{ name: 'widgets.probe.io', version: 'v1', kind: 'Widget' }] },
      apiservicedefinitions: { owned: [{ group: 'metrics.probe.io', version: 'v1', kind: 'Metric', name: 'metrics', deploymentName: 'op' }] },
      webhookdefinitions: [
        { type: 'ValidatingAdmissionWebhook', generateName: 'v.probe.io', deploymentName: 'op', rules: [{ apiGroups: ['probe.io'], resources: ['widgets'] }] },
        { type: 'ConversionWebhook', generateName: 'c.probe.io', deploymentName: 'op', conversionCRDs: ['widgets.probe.io'] },
      ],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [{ name: 'op', spec: { template: { spec: { serviceAccountName: 'op' } } } }],
          permissions: [{ serviceAccountName: 'op', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
          clusterPermissions: [{ serviceAccountName: 'op', rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] }],
        },
      },
    },
  }, [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb' }, roleRef: { kind: 'Role', name: 'r' } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'cr' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'crb' }, roleRef: { kind: 'ClusterRole', name: 'cr' } },
    { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'pr' } },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pc' } },
  ]);
  const fresh = InstallPlanModel.build(probe, 'ns', false).requirements;
  const upgrade = InstallPlanModel.build(probe, 'ns', true).requirements;
  const rules = (list: PolicyRule[] | undefined, ns: string) => (list ?? []).map((r) => RbacRules.format(r, ns).replace(/^Namespace:"[^"]*" /, '')).join('<br>') || '-';
  const lines = [
    '| # | OLM step (probe bundle `probe.v1` in namespace `ns`) | where | fresh install needs | upgrade needs | or instead (escalation check) |',
    '|---|---|---|---|---|---|',
  ];
  upgrade.forEach((u, i) => {
    const where = u.namespace === '' ? 'cluster' : u.namespace === 'ns' ? 'tenant' : u.namespace;
    lines.push(`| ${i + 1} | ${u.step} | ${where} | ${rules(fresh[i].rules, u.namespace)} | ${rules(u.rules, u.namespace)} | ${rules(u.alternative, u.namespace)} |`);
  });
  return lines.join('\n');
}

describe('docs/preflight.md step table', () => {
  test('is the model output for the probe bundle (fresh and upgrade requirements line up step by step)', () => {
    const table = stepTable();
    if (process.env.PRINT_TABLE) console.log(table); // eslint-disable-line no-console
    const docs = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'preflight.md'), 'utf8');
    expect(docs).toContain(table);
  });
});
