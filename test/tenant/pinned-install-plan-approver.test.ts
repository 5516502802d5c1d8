import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import {
  CatalogSourceReference, Diagnostics, InstallPlanApproval, PinnedApproval, PinnedInstallPlanApprover, RbacRules, ScopedOperatorTenant,
} from '../../src';

const CATALOG = CatalogSourceReference.fromName('curated', 'olm');

function fixture() {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

const plan = (name: string, csvs: string[], approval = 'Manual', approved = false) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'InstallPlan',
  metadata: { name, namespace: 'team-a' },
  spec: { approval, approved, clusterServiceVersionNames: csvs },
});

describe('PinnedInstallPlanApprover', () => {
  test('GIVEN an approver THEN its Role allows exactly get/list/watch/patch on installplans in its namespace, and nothing is cluster-scoped', () => {
    const { chart } = fixture();
    new PinnedInstallPlanApprover(chart, 'Approver', { namespace: 'team-a', pinnedCsvs: ['etcdoperator.v0.9.4'] });
    const objects = Testing.synth(chart);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/team-a/installplan-approver',
      'Role/team-a/installplan-approver',
      'RoleBinding/team-a/installplan-approver',
      'ConfigMap/team-a/installplan-approver',
      'CronJob/team-a/installplan-approver',
    ]);
    const role = objects.find((o) => o.kind === 'Role');
    expect(role.rules).toEqual([{ apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'patch', 'watch'] }]);
    expect(objects.find((o) => o.kind === 'RoleBinding')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'installplan-approver', namespace: 'team-a' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installplan-approver' },
      subjects: [{ kind: 'ServiceAccount', name: 'installplan-approver', namespace: 'team-a' }],
    });
    // what the rules allow (the authorizer's RuleAllows): installplans only, never their status, never other kinds
    const rules = [PinnedInstallPlanApprover.RULE];
    const allows = (verb: string, resource: string, apiGroup = 'operators.coreos.com') => RbacRules.allows(rules, { verb, apiGroup, resource });
    expect([
      allows('patch', 'installplans'), allows('list', 'installplans'), allows('update', 'installplans'), allows('delete', 'installplans'),
      allows('patch', 'installplans/status'), allows('patch', 'subscriptions'), allows('get', 'clusterserviceversions'), allows('get', 'secrets', ''),
    ]).toEqual([true, true, false, false, false, false, false, false]);
  });

  test('GIVEN an approver THEN the CronJob runs the script as a restricted pod with the pinned CSVs', () => {
    const { chart } = fixture();
    const approver = new PinnedInstallPlanApprover(chart, 'Approver', { namespace: 'team-a', image: 'registry.example.com/node@sha256:abc', schedule: '*/2 * * * *' });
    approver.addPinnedCsv('prometheusoperator.0.56.3');
    approver.addPinnedCsv('etcdoperator.v0.9.4');
    const objects = Testing.synth(chart);
    expect(objects.find((o) => o.kind === 'ConfigMap').data).toEqual({ 'approve.js': PinnedApproval.script });
    expect(objects.find((o) => o.kind === 'CronJob')).toEqual({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'installplan-approver', namespace: 'team-a' },
      spec: {
        schedule: '*/2 * * * *',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        failedJobsHistoryLimit: 3,
        jobTemplate: {
          spec: {
            backoffLimit: 1,
            template: {
              spec: {
                serviceAccountName: 'installplan-approver',
                restartPolicy: 'Never',
                securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
                containers: [{
                  name: 'approver',
                  image: 'registry.example.com/node@sha256:abc',
                  command: ['node', '/scripts/approve.js'],
                  env: [{ name: 'NAMESPACE', value: 'team-a' }, { name: 'PINNED_CSVS', value: '["etcdoperator.v0.9.4","prometheusoperator.0.56.3"]' }],
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                  resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
                  volumeMounts: [{ name: 'script', mountPath: '/scripts', readOnly: true }],
                }],
                volumes: [{ name: 'script', configMap: { name: 'installplan-approver' } }],
              },
            },
          },
        },
      },
    });
  });

  test('GIVEN a bad name or an empty image THEN synth errors', () => {
    const { chart } = fixture();
    new PinnedInstallPlanApprover(chart, 'Approver', { namespace: 'team-a', name: 'Approver_1', image: ' ' });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([
      expect.stringMatching(/^name="Approver_1": approver name .* \(InvalidName\)$/),
      'image=" ": the image is empty. Fix: name an image with node on the PATH, or leave `image` out (EmptyImage)',
    ]);
  });
});

describe('PinnedApproval.decide (the approval rule)', () => {
  const PINNED = ['etcdoperator.v0.9.4', 'prometheusoperator.0.56.3'];
  test.each([
    ['every CSV pinned', plan('install-a', ['etcdoperator.v0.9.4']), { name: 'install-a', approve: true, reason: 'every CSV is pinned: etcdoperator.v0.9.4' }],
    ['a merged plan, every CSV pinned', plan('install-b', ['etcdoperator.v0.9.4', 'prometheusoperator.0.56.3']),
      { name: 'install-b', approve: true, reason: 'every CSV is pinned: etcdoperator.v0.9.4, prometheusoperator.0.56.3' }],
    ['a merged plan with one unpinned CSV', plan('install-c', ['etcdoperator.v0.9.4', 'prometheusoperator.0.57.0']),
      { name: 'install-c', approve: false, reason: 'not pinned: prometheusoperator.0.57.0' }],
    ['an upgrade past the pin', plan('install-d', ['etcdoperator.v0.9.5']), { name: 'install-d', approve: false, reason: 'not pinned: etcdoperator.v0.9.5' }],
    ['already approved', plan('install-e', ['etcdoperator.v0.9.4'], 'Manual', true), { name: 'install-e', approve: false, reason: 'already approved' }],
    ['Automatic', plan('install-f', ['etcdoperator.v0.9.4'], 'Automatic'), { name: 'install-f', approve: false, reason: 'approval is "Automatic", not Manual' }],
    ['no CSVs', plan('install-g', []), { name: 'install-g', approve: false, reason: 'no clusterServiceVersionNames' }],
  ])('%s', (_name, p, expected) => {
    expect(PinnedApproval.decide(p, PINNED)).toEqual(expected);
  });

  test('GIVEN the generated script run with node THEN it decides exactly like PinnedApproval.decide (fixed-seed plans)', () => {
    const csv = fc.constantFrom('etcdoperator.v0.9.2', 'etcdoperator.v0.9.4', 'prometheusoperator.0.56.3', 'x.v1', '');
    const arbPlan = fc.record({
      metadata: fc.record({ name: fc.constantFrom('install-1', 'install-2', 'a') }),
      spec: fc.record({
        approval: fc.constantFrom('Manual', 'Automatic', undefined),
        approved: fc.constantFrom(true, false, undefined),
        clusterServiceVersionNames: fc.oneof(fc.array(csv, { maxLength: 3 }), fc.constant(undefined)),
      }, { requiredKeys: [] }),
    });
    const plans = fc.sample(arbPlan, { seed: 7, numRuns: 300 });
    const pinned = ['etcdoperator.v0.9.4', 'prometheusoperator.0.56.3'];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approver-'));
    try {
      const script = path.join(dir, 'approve.js');
      fs.writeFileSync(script, PinnedApproval.script);
      const out = execFileSync(process.execPath, [script, '--decide'], {
        input: JSON.stringify(plans), env: { PINNED_CSVS: JSON.stringify(pinned), PATH: process.env.PATH ?? '' }, encoding: 'utf8',
      });
      const expected = PinnedApproval.decideAll(plans, pinned);
      expect(JSON.parse(out)).toEqual(expected);
      // both outcomes occur in the sample
      expect(new Set(expected.map((d) => d.approve))).toEqual(new Set([true, false]));
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('the approver script against the API (simulated: the InstallPlanList on stdin, requests printed)', () => {
  test('GIVEN a pending pinned plan, a pending unpinned one and an approved one THEN it lists once and patches only the pinned one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approver-'));
    try {
      const script = path.join(dir, 'approve.js');
      fs.writeFileSync(script, PinnedApproval.script);
      const list = { kind: 'InstallPlanList', items: [plan('install-a', ['etcdoperator.v0.9.4']), plan('install-b', ['etcdoperator.v0.9.5']), plan('install-c', ['etcdoperator.v0.9.4'], 'Manual', true)] };
      const out = execFileSync(process.execPath, [script, '--simulate'], {
        input: JSON.stringify(list), env: { NAMESPACE: 'team-a', PINNED_CSVS: '["etcdoperator.v0.9.4"]', PATH: process.env.PATH ?? '' }, encoding: 'utf8',
      });
      expect(JSON.parse(out)).toEqual({
        calls: [
          { method: 'GET', path: '/apis/operators.coreos.com/v1alpha1/namespaces/team-a/installplans' },
          { method: 'PATCH', path: '/apis/operators.coreos.com/v1alpha1/namespaces/team-a/installplans/install-a', body: { spec: { approved: true } } },
        ],
        lines: [
          'approve team-a/install-a: every CSV is pinned: etcdoperator.v0.9.4',
          'skip team-a/install-b: not pinned: etcdoperator.v0.9.5',
          'skip team-a/install-c: already approved',
        ],
      });
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('ScopedOperatorTenant.addPinnedApprover', () => {
  test('GIVEN Manual Subscriptions with startingCsv THEN the approver pins exactly those, before or after addPinnedApprover', () => {
    const { app, chart } = fixture();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'etcdoperator.v0.9.2' });
    const approver = tenant.addPinnedApprover({ image: 'registry.example.com/node@sha256:abc' });
    expect(tenant.addPinnedApprover()).toBe(approver);
    tenant.subscribe({ packageName: 'prometheus', catalog: CATALOG, installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'prometheusoperator.0.56.3' });
    tenant.subscribe({ packageName: 'redis', catalog: CATALOG, installPlanApproval: InstallPlanApproval.MANUAL });
    expect(approver.pinnedCsvs).toEqual(['etcdoperator.v0.9.2', 'prometheusoperator.0.56.3']);
    expect(Diagnostics.warnings(app).filter((w) => ['SeveralManualSubscriptions', 'ManualSubscriptionNotPinned', 'ManualApprovalWithoutApprover'].includes(w.code))
      .map((w) => Diagnostics.format(w))).toEqual([
      '[platform/TeamA] subscriptions[redis].startingCsv="redis": the pinned approver only approves pinned CSVs, and this Manual Subscription pins none, '
      + 'so its InstallPlans wait for a person. Fix: set startingCsv to the CSV to run (e.g. \'etcdoperator.v0.9.4\') (ManualSubscriptionNotPinned)',
      '[platform/TeamA] subscriptions="etcd, prometheus, redis": OLM resolves namespace \'team-a\' as one unit and merges its pending InstallPlans, '
      + 'so one InstallPlan may carry the upgrades of several Subscriptions: approving it approves all of them. Fix: pin every Subscription\'s version '
      + '(the approver only approves an InstallPlan whose CSVs are all pinned), or put them in separate tenants (SeveralManualSubscriptions)',
    ]);
    const cron = Testing.synth(chart).find((o) => o.kind === 'CronJob');
    expect(cron.spec.jobTemplate.spec.template.spec.containers[0].env[1]).toEqual({ name: 'PINNED_CSVS', value: '["etcdoperator.v0.9.2","prometheusoperator.0.56.3"]' });
  });

  test('GIVEN an approver and only Automatic Subscriptions THEN a warning says it approves nothing', () => {
    const { app, chart } = fixture();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG });
    tenant.addPinnedApprover();
    expect(Diagnostics.warnings(app).map((w) => w.code)).toEqual(['PinnedApproverWithoutManualSubscriptions']);
  });
});
