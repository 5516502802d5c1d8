import { App, Testing } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { buildFailingTenant, buildFixedTenant } from '../../examples/preflight-demo';
import { Diagnostics, GlobalOperatorInstall, TenancyAudit, TenancyReport } from '../../src';
import { admit } from '../util/cel-admission';
import { SchemaValidator } from '../util/schema-validator';

describe('examples/preflight-demo.ts: the docs\' default Role vs derived permissions', () => {
  test('GIVEN the docs\' default installer Role and prometheus 0.56.3 THEN synth fails listing every missing rule at once', () => {
    const app = Testing.app();
    buildFailingTenant(app);
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    // The prometheus CSV's `permissions` (two service accounts) minus what the docs' Role holds. OLM creates the
    // operator's Roles with the installer's client, so the API server's escalation check demands all of them.
    // ONE error for the Subscription (one per problem), each missing rule listed once
    expect(message.split('\n').filter((l) => l.endsWith('(MissingInstallerPermission)')).length).toEqual(1);
    expect(/lacks 9 rule\(s\): (Namespace:.*?) \(needed for/.exec(message)![1].split('; ')).toEqual([
      'Namespace:"team-monitoring" APIGroups:[] Resources:[configmaps,secrets] Verbs:[*]',
      'Namespace:"team-monitoring" APIGroups:[] Resources:[endpoints] Verbs:[create,delete,get,list,update,watch]',
      'Namespace:"team-monitoring" APIGroups:[] Resources:[namespaces] Verbs:[get,list,watch]',
      'Namespace:"team-monitoring" APIGroups:[] Resources:[nodes] Verbs:[list,watch]',
      'Namespace:"team-monitoring" APIGroups:[] Resources:[services] Verbs:[delete,list,watch]',
      'Namespace:"team-monitoring" APIGroups:[] Resources:[services/finalizers] Verbs:[create,delete,get,update]',
      'Namespace:"team-monitoring" APIGroups:[apps] Resources:[statefulsets] Verbs:[*]',
      'Namespace:"team-monitoring" APIGroups:[extensions,networking.k8s.io] Resources:[ingresses] Verbs:[get,list,watch]',
      'Namespace:"team-monitoring" APIGroups:[monitoring.coreos.com] Resources:[alertmanagerconfigs,alertmanagers,alertmanagers/finalizers,'
        + 'podmonitors,probes,prometheuses,prometheuses/finalizers,prometheuses/status,prometheusrules,servicemonitors,thanosrulers,'
        + 'thanosrulers/finalizers] Verbs:[*]',
    ]);
  });

  test('GIVEN the same tenant with deriveInstallerRules THEN it synthesizes and the preflight passes', () => {
    const app = Testing.app();
    const tenant = buildFixedTenant(app);
    expect(() => app.synth()).not.toThrow();
    expect(tenant.preflight().map((r) => [r.bundleName, r.ok])).toEqual([['prometheusoperator.0.56.3', true]]);
  });
});

describe('examples/platform.ts', () => {
  const app = new App({ outdir: 'examples/out/manifests' }); // not written to disk here
  const platform = buildPlatform(app);

  test('every tenant with a bundle passes the install preflight', () => {
    expect(platform.tenants.map((t) => [t.namespaceName, t.preflight().map((r) => `${r.bundleName}:${r.ok}`)])).toEqual([
      ['team-data', ['etcdoperator.v0.9.4:true']],
      // issue 16: grafana-operator and rabbitmq-cluster-operator need cluster rules: the platform installs them
      // (chart platform-operators), no tenant does
      ['team-observability', ['prometheusoperator.0.56.3:true']],
      ['team-databases', ['percona-xtradb-cluster-operator.v1.20.0:true']],
      ['team-integration', []],
      // stamped from the blueprints of examples/blueprints.ts
      ['data-analytics', ['etcdoperator.v0.9.4:true']],
      ['data-warehouse', ['etcdoperator.v0.9.4:true']],
      ['obs-payments', ['prometheusoperator.0.56.3:true']],
      ['obs-search', ['prometheusoperator.0.56.3:true']],
    ]);
  });

  test('nothing cluster-scoped is granted to a tenant installer (the operators that need it are the platform\'s)', () => {
    const clusterRoles = app.charts.flatMap((c) => c.toJson()).filter((o) => o.kind === 'ClusterRole');
    expect(clusterRoles).toEqual([]);
  });

  test('the curated catalog is served in every tenant namespace that uses it, and the defaults are disabled', () => {
    const objects = app.charts.flatMap((c) => c.toJson());
    expect(objects.filter((o) => o.kind === 'CatalogSource').map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      'data-analytics/curated-operators',
      'data-warehouse/curated-operators',
      'obs-payments/curated-operators',
      'obs-search/curated-operators',
      'platform-operators/curated-operators',
      'team-data/curated-operators',
      'team-databases/curated-operators',
      'team-integration/curated-registries',
      'team-observability/curated-operators',
    ]);
    expect(objects.find((o) => o.kind === 'OperatorHub').spec).toEqual({
      disableAllDefaultSources: true,
      sources: [{ name: 'redhat-operators', disabled: false }],
    });
  });

  test('issue 40 item 7: the curated-only policy refuses a tenant Subscription to a package the platform installs for all namespaces (evaluated with @bufbuild/cel)', () => {
    const spec = app.charts.flatMap((c) => c.toJson()).find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'curated-operators-curation').spec;
    const request = (namespace: string) => ({
      kind: { group: 'operators.coreos.com', version: 'v1alpha1', kind: 'Subscription' },
      resource: { group: 'operators.coreos.com', version: 'v1alpha1', resource: 'subscriptions' },
      namespace,
      name: 'grafana-operator',
      operation: 'CREATE',
      userInfo: { username: 'alice' },
    });
    const sub = (namespace: string) => ({ metadata: { name: 'grafana-operator', namespace }, spec: { name: 'grafana-operator', channel: 'v5', source: 'curated-operators', sourceNamespace: namespace } });
    expect(admit(spec, request('team-data'), sub('team-data')).denied).toEqual([
      'package grafana-operator is installed for all namespaces by the platform (namespace platform-operators): a Subscription here would install a second copy; use the APIs of the installed one',
    ]);
    expect(admit(spec, request('platform-operators'), sub('platform-operators')).denied).toEqual([]);
  });

  test('the only warnings are the CRDs OLM creates itself (cluster-wide, shared by tenants) and the accepted driver of a global operator: no accepted reach (TenancyAudit)', () => {
    const warnings = Diagnostics.warnings(app);
    expect([...new Set(warnings.map((w) => w.code))].sort()).toEqual(['CrdsCreatedByOlm', 'TenantCanDriveGlobalOperator']);
  });
});

describe('examples/platform.ts: the operators the platform installs itself (issue 30 item 4)', () => {
  const app = new App({ outdir: 'examples/out/manifests' }); // not written to disk here
  buildPlatform(app);

  test('a GlobalOperatorInstall: the same objects as the raw ones it replaced (Namespace, AllNamespaces OperatorGroup with the reason, Manual Subscriptions)', () => {
    const chart = app.charts.find((c) => c.node.id === 'platform-operators')!;
    expect(chart.node.findAll().filter((c) => c instanceof GlobalOperatorInstall).map((c) => c.node.path)).toEqual(['platform-operators/GlobalOperators']);
    expect(chart.toJson().map((o: any) => [o.kind, o.metadata.namespace, o.metadata.name, o.kind === 'Subscription' ? o.spec.installPlanApproval : o.spec])).toEqual([
      ['Namespace', undefined, 'platform-operators', undefined],
      ['OperatorGroup', 'platform-operators', 'platform-operators', {}],
      ['Subscription', 'platform-operators', 'grafana-operator', 'Manual'],
      ['Subscription', 'platform-operators', 'rabbitmq-cluster-operator', 'Manual'],
    ]);
  });

  test('TENANCY.md lists them first (after the warnings); the audit names the one tenant identity that may drive one, accepted by reason', () => {
    const md = TenancyReport.markdown(app);
    expect(md.split('\n').filter((l) => l.startsWith('## ')).slice(0, 3)).toEqual([
      '## Warnings', '## Operators the platform installs for all namespaces', '## Who installs what, and who may do what',
    ]);
    // the lines docs/platform-operators.md shows
    expect(md).toContain('## Operators the platform installs for all namespaces\n');
    expect(md).toContain('\n### namespace platform-operators (OperatorGroup `platform-operators`)\n');
    expect(md).toContain('\n| package | channel | catalog | approval | bundle | tenant identities that may drive it |\n');
    expect(md).toContain('\n| grafana-operator | v5 | platform-operators/curated-operators | Manual | grafana-operator.v5.24.0 | none |\n');
    expect(md).toContain('\n| rabbitmq-cluster-operator | stable | platform-operators/curated-operators | Manual | rabbitmq-cluster-operator.v2.22.3 | 1 (accepted: team-integration runs its brokers as RabbitmqClusters (PLAT-151); reviewed with the team) |\n');
    const globals = TenancyAudit.ofConstruct(app).globalOperators!;
    expect(globals.map((g) => [g.packageName, g.apis.length, g.drivers.length])).toEqual([
      ['grafana-operator', 13, 0], ['rabbitmq-cluster-operator', 1, 1],
    ]);
    // the integration team's people, through the Role the example gives them in their own namespace, and nobody else
    expect(globals[1].drivers.map((d: any) => [d.tenant, d.subject, d.apis, d.namespaces, d.accepted, d.acceptedReason])).toEqual([
      ['tenant-integration/Tenant', 'Group team-integration', ['rabbitmqclusters.rabbitmq.com'], ['team-integration'], true,
        'team-integration runs its brokers as RabbitmqClusters (PLAT-151); reviewed with the team'],
    ]);
  });
});

describe('examples/preflight-demo.ts objects', () => {
  test('the fixed tenant validates against the real schemas', () => {
    const app = Testing.app();
    buildFixedTenant(app);
    expect(SchemaValidator.shared().validateAll(app.charts.flatMap((c) => c.toJson()))).toEqual([]);
  });
});
