import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { IConstruct } from 'constructs';
import {
  AccessLevel, BlueprintOverride, CatalogSourceReference, InstallPlanApproval, OperatorBundle, TenantBaseline, TenantBlueprint,
} from '../../src';
import { synthObjects } from '../util/synth';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));
const CATALOG = CatalogSourceReference.fromName('curated-operators', 'olm');

function errorsOf(scope: IConstruct): string[] {
  return scope.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

function newChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'teams') };
}

const dataBlueprint = (overrides: BlueprintOverride[] = []) => new TenantBlueprint({
  name: 'data',
  catalog: CATALOG,
  operators: [
    { packageName: 'etcd', channel: 'singlenamespace-alpha', bundle: etcd, startingCsv: 'etcdoperator.v0.9.4' },
    { packageName: 'prometheus', channel: 'beta', bundle: prometheus },
  ],
  namespaceLabels: { 'example.com/cost-center': 'data' },
  grants: [
    { groupName: '{team}-admins', access: AccessLevel.ADMIN, subscriptionManagement: true },
    { groupName: '{team}-developers', access: AccessLevel.VIEW },
  ],
  allowedOverrides: overrides,
});

describe('TenantBlueprint.stamp', () => {
  test('GIVEN a blueprint THEN one line per team gives each team the whole standard tenant', () => {
    const { app, chart } = newChart();
    const blueprint = dataBlueprint();
    const a = blueprint.stamp(chart, 'payments');
    const b = blueprint.stamp(chart, 'search');
    expect([a.namespaceName, b.namespaceName]).toEqual(['team-payments', 'team-search']);
    expect(a.subscriptions.map((s) => [s.packageName, s.channel, s.installPlanApproval, s.startingCsv])).toEqual([
      ['etcd', 'singlenamespace-alpha', InstallPlanApproval.MANUAL, 'etcdoperator.v0.9.4'],
      ['prometheus', 'beta', InstallPlanApproval.MANUAL, undefined],
    ]);
    expect(errorsOf(app)).toEqual([]);
    const objects = synthObjects(app);
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'team-payments');
    expect(ns.metadata.labels[TenantBlueprint.LABEL]).toBe('data');
    expect(ns.metadata.labels['example.com/cost-center']).toBe('data');
    const bindings = objects.filter((o) => o.kind === 'RoleBinding' && o.metadata.namespace === 'team-search')
      .map((o) => [o.metadata.name, o.roleRef.kind, o.subjects.map((s: any) => `${s.kind}:${s.name}`)]);
    expect(bindings).toEqual(expect.arrayContaining([
      ['team-search-subscription-manager', 'Role', ['Group:search-admins']],
      ['team-search-operator-admin', 'ClusterRole', ['Group:search-admins']],
      ['team-search-operator-view', 'ClusterRole', ['Group:search-developers']],
    ]));
    // derived installer rules by default: the preflight passes for both operators
    expect(a.preflight().map((r) => [r.bundleName, r.ok])).toEqual([['etcdoperator.v0.9.4', true], ['prometheusoperator.0.56.3', true]]);
  });

  test('GIVEN overrides the blueprint does not allow THEN each is a synth error naming the override, and the blueprint applies', () => {
    const { app, chart } = newChart();
    const t = dataBlueprint().stamp(chart, 'payments', {
      omitOperators: ['prometheus'],
      channels: { etcd: 'clusterwide-alpha' },
      extraOperators: [{ packageName: 'grafana-operator' }],
      quota: { pods: '10' },
    });
    expect(t.subscriptions.map((s) => [s.packageName, s.channel])).toEqual([['etcd', 'singlenamespace-alpha'], ['prometheus', 'beta']]);
    expect(errorsOf(app).filter((e) => e.includes('Blueprint'))).toEqual([
      "[teams/payments] omitOperators=\"prometheus\": blueprint 'data' does not allow teams to change this (BlueprintOverride.OMIT_OPERATORS is not in its allowedOverrides). Fix: drop the override, or add BlueprintOverride.OMIT_OPERATORS to the blueprint's allowedOverrides (BlueprintOverrideNotAllowed)",
      "[teams/payments] channels.etcd=\"clusterwide-alpha\": blueprint 'data' does not allow teams to change this (BlueprintOverride.CHANNELS is not in its allowedOverrides). Fix: drop the override, or add BlueprintOverride.CHANNELS to the blueprint's allowedOverrides (BlueprintOverrideNotAllowed)",
      "[teams/payments] extraOperators=\"grafana-operator\": blueprint 'data' does not allow teams to change this (BlueprintOverride.EXTRA_OPERATORS is not in its allowedOverrides). Fix: drop the override, or add BlueprintOverride.EXTRA_OPERATORS to the blueprint's allowedOverrides (BlueprintOverrideNotAllowed)",
      "[teams/payments] quota=\"{\\\"pods\\\":\\\"10\\\"}\": blueprint 'data' does not allow teams to change this (BlueprintOverride.QUOTA is not in its allowedOverrides). Fix: drop the override, or add BlueprintOverride.QUOTA to the blueprint's allowedOverrides (BlueprintOverrideNotAllowed)",
    ]);
  });

  test('GIVEN allowed overrides THEN they apply; omitting an operator the blueprint lacks is an error', () => {
    const { app, chart } = newChart();
    const t = dataBlueprint([BlueprintOverride.OMIT_OPERATORS, BlueprintOverride.CHANNELS]).stamp(chart, 'payments', {
      omitOperators: ['prometheus', 'kafka'],
      channels: { etcd: 'clusterwide-alpha' },
    });
    expect(t.subscriptions.map((s) => [s.packageName, s.channel])).toEqual([['etcd', 'clusterwide-alpha']]);
    expect(errorsOf(app).filter((e) => e.includes('Blueprint'))).toEqual([
      "[teams/payments] omitOperators=\"kafka\": blueprint 'data' has no operator 'kafka' to omit. Fix: omit one of: etcd, prometheus (BlueprintUnknownOperator)",
    ]);
  });

  test('GIVEN a team namespace label that collides with the blueprint\'s THEN the blueprint wins', () => {
    const { chart } = newChart();
    const t = dataBlueprint().stamp(chart, 'payments', { namespaceLabels: { 'example.com/cost-center': 'mine', 'team': 'payments' } });
    const labels = t.namespace!.toJson().metadata.labels;
    expect(labels['example.com/cost-center']).toBe('data');
    expect(labels.team).toBe('payments');
    expect(labels[TenantBlueprint.LABEL]).toBe('data');
  });
});

describe('TenantBaseline through a blueprint', () => {
  const withBaseline = (overrides: BlueprintOverride[] = []) => new TenantBlueprint({
    name: 'obs',
    catalog: CATALOG,
    operators: [{ packageName: 'prometheus', channel: 'beta', bundle: prometheus }],
    baseline: {},
    allowedOverrides: overrides,
  });

  test('GIVEN a baseline THEN quota, limits and the network policies are in the tenant namespace, after the Namespace', () => {
    const { app, chart } = newChart();
    withBaseline().stamp(chart, 'metrics');
    const objects = synthObjects(app);
    const kinds = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    const nsIndex = kinds.indexOf('Namespace//team-metrics');
    for (const name of ['ResourceQuota/team-metrics/tenant-baseline', 'LimitRange/team-metrics/tenant-baseline', 'NetworkPolicy/team-metrics/default-deny']) {
      expect(kinds.indexOf(name)).toBeGreaterThan(nsIndex);
    }
    expect(objects.find((o) => o.kind === 'ResourceQuota').spec.hard).toEqual(TenantBaseline.DEFAULT_QUOTA);
    expect(objects.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.name)).toEqual([
      // (issue 15 item 11: no webhook policy for a bundle without webhooks; `allow-operator-webhooks` selected every pod)
      'default-deny', 'allow-same-namespace', 'allow-dns', 'allow-api-server', 'allow-olm-catalog', 'allow-monitoring',
    ]);
  });

  test('GIVEN an allowed quota override THEN the team quota replaces the blueprint one', () => {
    const { app, chart } = newChart();
    withBaseline([BlueprintOverride.QUOTA]).stamp(chart, 'metrics', { quota: { 'pods': '10', 'requests.cpu': '2' } });
    expect(errorsOf(app)).toEqual([]);
    expect(synthObjects(app).find((o) => o.kind === 'ResourceQuota').spec.hard).toEqual({ 'pods': '10', 'requests.cpu': '2' });
  });
});
