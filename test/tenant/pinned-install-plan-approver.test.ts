import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import {
  CatalogSourceReference, Diagnostics, EffectivePower, InstallPlanApproval, OperatorBundle, PinnedApproval, PinnedInstallPlanApprover, PolicySeverity,
  RbacRules,
  ScopedOperatorTenant, SubjectKind, TenancyAudit,
} from '../../src';
import { appAndChart } from '../util/synth';

const CATALOG = CatalogSourceReference.fromName('curated', 'olm');

const plan = (name: string, csvs: string[], approval = 'Manual', approved = false) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'InstallPlan',
  metadata: { name, namespace: 'team-a' },
  spec: { approval, approved, clusterServiceVersionNames: csvs },
});

describe('PinnedInstallPlanApprover', () => {
  // (changed with issue 15 item 10: the approver runs in the platform namespace, and its Role lost get/watch)
  test('GIVEN an approver THEN it runs in the platform namespace, its Role in the tenant namespace allows exactly list/patch on installplans, and the only cluster-scoped object is that Namespace', () => {
    const { chart } = appAndChart();
    new PinnedInstallPlanApprover(chart, 'Approver', { namespace: 'team-a', pinnedCsvs: ['etcdoperator.v0.9.4'] });
    const objects = Testing.synth(chart);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'Namespace/undefined/installplan-approvers',
      'ServiceAccount/installplan-approvers/installplan-approver-team-a',
      'Role/team-a/installplan-approver',
      'RoleBinding/team-a/installplan-approver',
      'ConfigMap/installplan-approvers/installplan-approver-team-a',
      'CronJob/installplan-approvers/installplan-approver-team-a',
    ]);
    expect(objects[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'installplan-approvers',
        labels: { 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' },
      },
    });
    const role = objects.find((o) => o.kind === 'Role');
    expect(role.rules).toEqual([{ apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['list', 'patch'] }]);
    expect(objects.find((o) => o.kind === 'RoleBinding')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'installplan-approver', namespace: 'team-a' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installplan-approver' },
      subjects: [{ kind: 'ServiceAccount', name: 'installplan-approver-team-a', namespace: 'installplan-approvers' }],
    });
    // what the rules allow (the authorizer's RuleAllows): installplans only, never their status, never other kinds
    const rules = [PinnedInstallPlanApprover.RULE];
    const allows = (verb: string, resource: string, apiGroup = 'operators.coreos.com') => RbacRules.allows(rules, { verb, apiGroup, resource });
    expect([
      allows('patch', 'installplans'), allows('list', 'installplans'), allows('update', 'installplans'), allows('delete', 'installplans'),
      allows('patch', 'installplans/status'), allows('patch', 'subscriptions'), allows('get', 'clusterserviceversions'), allows('get', 'secrets', ''),
      allows('get', 'installplans'), allows('watch', 'installplans'),
    ]).toEqual([true, true, false, false, false, false, false, false, false, false]);
  });

  test('GIVEN an approver THEN the CronJob runs the script as a restricted pod with the pinned CSVs', () => {
    const { chart } = appAndChart();
    const approver = new PinnedInstallPlanApprover(chart, 'Approver', { namespace: 'team-a', image: 'registry.example.com/node@sha256:abc', schedule: '*/2 * * * *' });
    approver.addPinnedCsv('prometheusoperator.0.56.3');
    approver.addPinnedCsv('etcdoperator.v0.9.4');
    const objects = Testing.synth(chart);
    expect(objects.find((o) => o.kind === 'ConfigMap').data).toEqual({ 'approve.js': PinnedApproval.script });
    expect(objects.find((o) => o.kind === 'CronJob')).toEqual({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'installplan-approver-team-a', namespace: 'installplan-approvers' },
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
                serviceAccountName: 'installplan-approver-team-a',
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
                volumes: [{ name: 'script', configMap: { name: 'installplan-approver-team-a' } }],
              },
            },
          },
        },
      },
    });
  });

  test('GIVEN a bad name or an empty image THEN synth errors', () => {
    const { chart } = appAndChart();
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
    const { app, chart } = appAndChart();
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
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG });
    tenant.addPinnedApprover();
    expect(Diagnostics.warnings(app).map((w) => w.code)).toEqual(['PinnedApproverWithoutManualSubscriptions']);
  });
});

describe('issue 15 item 10: the approver runs where the tenant cannot become it', () => {
  const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
  const APPROVER = 'ServiceAccount installplan-approvers/installplan-approver-team-a';

  /** A tenant with etcd 0.9.4 (its CSV permissions: `*` on pods and deployments), pinned, and an approver. */
  function build(options: { approverNamespace?: string } = {}, policyChecks?: { [id: string]: PolicySeverity }) {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'etcdoperator.v0.9.4' });
    const approver = tenant.addPinnedApprover(options);
    return { app, chart, tenant, approver };
  }

  /** The closure of the etcd operator's ServiceAccount over what the App writes and what OLM creates for the tenant. */
  function operatorIdentities(chart: Chart, tenant: ScopedOperatorTenant): string[] {
    const objects = [...manifests(chart).map((manifest) => ({ manifest })), ...TenancyAudit.objectsOf(tenant.auditFacts())];
    const power = new EffectivePower(objects).of({ kind: SubjectKind.SERVICE_ACCOUNT, name: 'etcd-operator', namespace: 'team-a' });
    return power.identities.map((i) => i.identity);
  }

  const validate = (chart: Chart) => chart.node.findAll().flatMap((c) => c.node.validate());
  /** The chart's objects as written, without synth (whose validation fails on the finding). */
  const manifests = (chart: Chart) => chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());

  test('GIVEN the approver kept in the tenant namespace THEN the bypass is real: the operator may create pods there, runs one as the approver, and synth fails with TenantCanBecomeApprover and the path', () => {
    const { chart, tenant } = build({ approverNamespace: 'team-a' });
    // the attack, reproduced by the effective-power model: the etcd operator's `*` on pods lets it run a pod as the approver
    expect(operatorIdentities(chart, tenant)).toContain('ServiceAccount team-a/installplan-approver');
    const errors = validate(chart).filter((e) => e.includes('TenantCanBecomeApprover'));
    expect(errors).toEqual([
      // the installer too: its derived Role holds what it grants the operator (RBAC escalation prevention)
      expect.stringContaining('ServiceAccount team-a/team-a can become its ServiceAccount, so it can approve any InstallPlan of namespace \'team-a\', not only pinned CSVs; '
        + 'path: ServiceAccount team-a/team-a -> RoleBinding team-a/team-a (App) -> Role team-a/team-a (App) -> create pods in team-a running as ServiceAccount installplan-approver -> ServiceAccount team-a/installplan-approver.'),
      "addPinnedApprover(options).approverNamespace=\"team-a\": the pinned approver runs in the tenant namespace, and ServiceAccount team-a/etcd-operator can become its ServiceAccount, so it can approve any InstallPlan of namespace 'team-a', not only pinned CSVs; "
      + 'path: ServiceAccount team-a/etcd-operator -> RoleBinding team-a/etcdoperator.v0.9.4-etcd-operator-65b4854f75 (OLM CSV_PERMISSION of etcdoperator.v0.9.4) '
      + '-> Role team-a/etcdoperator.v0.9.4-etcd-operator-65b4854f75 (OLM CSV_PERMISSION of etcdoperator.v0.9.4) '
      + '-> create pods in team-a running as ServiceAccount installplan-approver -> ServiceAccount team-a/installplan-approver. '
      + "Fix: leave approverNamespace out (the approver then runs in the platform namespace 'installplan-approvers', where no tenant identity holds rights), or remove the right on the path (TenantCanBecomeApprover, OLMT-042)",
    ]);
  });

  test('GIVEN the default THEN the approver runs in the platform namespace: no tenant identity becomes it, no finding, and it still approves the tenant namespace', () => {
    const { chart, tenant, approver } = build();
    expect([approver.approverNamespace, approver.runName, approver.namespace]).toEqual(['installplan-approvers', 'installplan-approver-team-a', 'team-a']);
    expect(operatorIdentities(chart, tenant)).not.toContain(APPROVER);
    // the installer and the operator: neither reaches the approver; the approver holds exactly list/patch installplans in team-a
    const objects = [...Testing.synth(chart).map((manifest) => ({ manifest })), ...TenancyAudit.objectsOf(tenant.auditFacts())];
    const power = new EffectivePower(objects);
    expect(power.of({ kind: SubjectKind.SERVICE_ACCOUNT, name: 'team-a', namespace: 'team-a' }).identities.map((i) => i.identity)).not.toContain(APPROVER);
    expect(power.rulesIn({ kind: SubjectKind.SERVICE_ACCOUNT, name: 'installplan-approver-team-a', namespace: 'installplan-approvers' }, 'team-a'))
      .toEqual([{ apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['list', 'patch'] }]);
    expect(validate(chart).filter((e) => e.includes('TenantCanBecomeApprover'))).toEqual([]);
  });

  test('GIVEN the finding lowered by name (policyChecks OLMT-042: WARNING) THEN it is a warning, not an error', () => {
    const { app, chart } = build({ approverNamespace: 'team-a' }, { 'OLMT-042': PolicySeverity.WARNING });
    expect(validate(chart).filter((e) => e.includes('TenantCanBecomeApprover'))).toEqual([]);
    expect(Diagnostics.warnings(app).filter((w) => w.code === 'TenantCanBecomeApprover').length).toBe(2);
  });

  test('GIVEN the script THEN the Role grants exactly the verbs of the requests it sends (the authorizer\'s verb of each request)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approver-'));
    try {
      const script = path.join(dir, 'approve.js');
      fs.writeFileSync(script, PinnedApproval.script);
      const list = { kind: 'InstallPlanList', items: [plan('install-a', ['etcdoperator.v0.9.4']), plan('install-b', ['x.v1'])] };
      const out = execFileSync(process.execPath, [script, '--simulate'], {
        input: JSON.stringify(list), env: { NAMESPACE: 'team-a', PINNED_CSVS: '["etcdoperator.v0.9.4"]', PATH: process.env.PATH ?? '' }, encoding: 'utf8',
      });
      // k8s.io/apiserver/pkg/endpoints/request/requestinfo.go: GET on a collection is list (watch only with ?watch),
      // GET on a named object is get, PATCH is patch
      const verbOf = (c: { method: string; path: string }) => {
        const parts = c.path.split('?')[0].split('/');
        const named = parts[parts.length - 2] === 'installplans';
        if (c.method === 'GET') return c.path.includes('watch=') ? 'watch' : named ? 'get' : 'list';
        return c.method.toLowerCase();
      };
      const verbs = [...new Set(JSON.parse(out).calls.map(verbOf))].sort();
      expect(verbs).toEqual(['list', 'patch']);
      expect([...PinnedInstallPlanApprover.RULE.verbs].sort()).toEqual(verbs);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  test('GIVEN two tenants with approvers and a long namespace THEN one shared Namespace, one ServiceAccount each, names within the CronJob limit', () => {
    const { chart } = appAndChart();
    const long = `team-${'x'.repeat(58)}`;
    const a = new PinnedInstallPlanApprover(chart, 'A', { namespace: 'team-a' });
    const b = new PinnedInstallPlanApprover(chart, 'B', { namespace: long });
    expect(a.approverNamespaceObject).toBeInstanceOf(Object);
    expect(b.approverNamespaceObject).toBeUndefined();
    const objects = Testing.synth(chart);
    expect(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['installplan-approvers']);
    expect(b.runName).toBe(PinnedInstallPlanApprover.sharedName('installplan-approver', long));
    expect(b.runName.length).toBe(52);
    expect(b.runName).toMatch(/^installplan-approver-team-x+-[0-9a-f]{8}$/);
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['installplan-approver-team-a', b.runName]);
    expect(validate(chart)).toEqual([]);
  });

  test('GIVEN an invalid approverNamespace THEN a synth error naming it', () => {
    const { chart } = appAndChart();
    new PinnedInstallPlanApprover(chart, 'A', { namespace: 'team-a', approverNamespace: 'Approvers' });
    expect(validate(chart)).toEqual([
      expect.stringMatching(/^approverNamespace="Approvers": approver Namespace name .* Fix: use a lower-case RFC 1123 label, or leave approverNamespace out \('installplan-approvers'\) \(InvalidName\)$/),
    ]);
  });
});

describe('issue 15 item 10: an approver namespace that is another tenant\'s', () => {
  test('GIVEN tenant A\'s approver in tenant B\'s namespace THEN B\'s operator can become it: TenantCanBecomeApprover on A, naming B\'s identity', () => {
    const { chart } = appAndChart();
    const b = new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', deriveInstallerRules: true });
    b.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4')) });
    const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    a.addPinnedApprover({ approverNamespace: 'team-b' });
    const errors = a.node.validate().filter((e) => e.includes('TenantCanBecomeApprover'));
    expect(errors.map((e) => e.slice(0, e.indexOf('; path:')))).toEqual([
      "addPinnedApprover(options).approverNamespace=\"team-b\": the pinned approver runs in namespace 'team-b' of tenant platform/TeamB, and ServiceAccount team-b/team-b can become "
      + "its ServiceAccount, so it can approve any InstallPlan of namespace 'team-a', not only pinned CSVs",
      "addPinnedApprover(options).approverNamespace=\"team-b\": the pinned approver runs in namespace 'team-b' of tenant platform/TeamB, and ServiceAccount team-b/etcd-operator can become "
      + "its ServiceAccount, so it can approve any InstallPlan of namespace 'team-a', not only pinned CSVs",
    ]);
    expect(errors[1]).toContain('-> create pods in team-b running as ServiceAccount installplan-approver-team-a -> ServiceAccount team-b/installplan-approver-team-a.');
  });
});

test('PinnedInstallPlanApprover.sharedName: wrong-typed arguments are one-line errors naming the method', () => {
  expect(() => PinnedInstallPlanApprover.sharedName(7 as any, 'team-a')).toThrow(new Error(
    "PinnedInstallPlanApprover.sharedName: name=\"7\": name must be a string, got the number 7. Fix: pass the approver name, e.g. 'installplan-approver' (InvalidInputType)",
  ));
  expect(PinnedInstallPlanApprover.sharedName('installplan-approver', 'team-a')).toBe('installplan-approver-team-a');
});
