// The OLM health checks (src/output/olm-health.ts): every Argo CD script run in a real Lua 5.1 interpreter against status
// objects in Argo CD's own health_test.yaml format (test/fixtures/olm-health/<group>_<kind>/), and every Flux
// expression evaluated in a CEL engine against the same objects, as Flux's StatusEvaluator does.
import * as fs from 'fs';
import * as path from 'path';
import { run } from '@bufbuild/cel';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { OlmHealthChecks } from '../../src/output/olm-health';
import { toCel } from '../util/cel-admission';
import { LUA, runHealthScript } from '../util/lua';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'olm-health');
const ARGO_STATUSES = ['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown'];

interface HealthCase { healthStatus: { status: string; message: string }; inputPath: string; fluxStatus: string }

function cases(folder: string, file = 'health_test.yaml'): Array<HealthCase & { input: any }> {
  const dir = path.join(FIXTURES, folder);
  const tests: HealthCase[] = parseYaml(fs.readFileSync(path.join(dir, file), 'utf8')).tests;
  return tests.map((t) => ({ ...t, input: parseYaml(fs.readFileSync(path.join(dir, t.inputPath), 'utf8')) }));
}

/**
 * Flux's verdict (fluxcd/pkg runtime/cel status_evaluator.go `Evaluate`): InProgress when status.observedGeneration
 * (an integer) differs from metadata.generation; then inProgress, failed, current in that order; InProgress when none
 * holds. An evaluation error is what kstatus reports as Unknown (the Kustomization keeps waiting).
 */
function fluxStatus(check: { inProgress?: string; failed?: string; current: string }, obj: any): string {
  const observed = obj.status?.observedGeneration;
  if (Number.isInteger(observed) && Number.isInteger(obj.metadata?.generation) && observed !== obj.metadata.generation) return 'InProgress';
  const vars: Record<string, any> = {};
  for (const [k, v] of Object.entries(obj)) vars[k] = toCel(v);
  for (const [expr, status] of [[check.inProgress, 'InProgress'], [check.failed, 'Failed'], [check.current, 'Current']] as const) {
    if (expr === undefined) continue;
    let result: unknown;
    try {
      result = run(expr, vars);
    } catch {
      return 'Unknown';
    }
    if (typeof result !== 'boolean') throw new Error(`${expr} gave ${String(result)}, not a boolean`);
    if (result) return status;
  }
  return 'InProgress';
}

/**
 * Unknown (an evaluation error: cel-go reports a missing top-level `status` so) and InProgress are one verdict for a
 * Kustomization: not ready yet, keep waiting until the timeout. (@bufbuild/cel returns false for `has()` on a missing
 * variable where cel-go fails: both keep Flux waiting, so the tables compare the verdict.)
 */
const waiting = (s: string) => (s === 'Unknown' ? 'InProgress' : s);

const checks = OlmHealthChecks.all();
const describeLua = LUA ? describe : describe.skip;
if (!LUA) console.warn('lua5.1 not installed: the Argo CD health scripts are not run (CI installs it, .ci/run)');

test('one check per OLM kind, with its fixture folder', () => {
  expect(checks.map((c) => `${c.group}_${c.kind}`)).toEqual([
    'operators.coreos.com_Subscription', 'operators.coreos.com_InstallPlan', 'operators.coreos.com_ClusterServiceVersion',
    'operators.coreos.com_CatalogSource', 'operators.coreos.com_OperatorGroup',
    'olm.operatorframework.io_ClusterExtension', 'olm.operatorframework.io_ClusterCatalog',
  ]);
  expect(fs.readdirSync(FIXTURES).sort()).toEqual(checks.map((c) => `${c.group}_${c.kind}`).sort());
});

test('the test tables hold every status the issue names, a missing status and the approval waits', () => {
  const inputs = (folder: string) => cases(folder).map((c) => c.input);
  for (const c of checks) expect(inputs(`${c.group}_${c.kind}`).some((o) => o.status === undefined)).toBe(true);
  const phases = (folder: string) => new Set(inputs(folder).map((o) => o.status?.phase));
  expect([...phases('operators.coreos.com_InstallPlan')]).toEqual(expect.arrayContaining(['Planning', 'RequiresApproval', 'Installing', 'Complete', 'Failed']));
  expect([...phases('operators.coreos.com_ClusterServiceVersion')]).toEqual(expect.arrayContaining(
    ['Pending', 'InstallReady', 'Installing', 'Succeeded', 'Failed', 'Replacing', 'Deleting', 'Unknown']));
  const states = new Set(inputs('operators.coreos.com_CatalogSource').map((o) => o.status?.connectionState?.lastObservedState));
  expect([...states]).toEqual(expect.arrayContaining(['IDLE', 'CONNECTING', 'READY', 'TRANSIENT_FAILURE', 'SHUTDOWN']));
  const reasons = (folder: string, type: string) => new Set(inputs(folder).flatMap((o) => (o.status?.conditions ?? [])
    .filter((c: any) => c.type === type).map((c: any) => `${c.status}/${c.reason}`)));
  expect([...reasons('olm.operatorframework.io_ClusterExtension', 'Progressing')]).toEqual(expect.arrayContaining(
    ['True/Succeeded', 'True/Retrying', 'True/RollingOut', 'False/Blocked', 'False/InvalidConfiguration', 'False/ProgressDeadlineExceeded']));
  expect([...reasons('olm.operatorframework.io_ClusterExtension', 'BundleDeprecated')]).toContain('True/Deprecated');
  expect([...reasons('olm.operatorframework.io_ClusterCatalog', 'Serving')]).toEqual(expect.arrayContaining(
    ['True/Available', 'False/Unavailable', 'False/UserSpecifiedUnavailable']));
  expect([...reasons('operators.coreos.com_OperatorGroup', 'MultipleOperatorGroup')]).toContain('True/MultipleOperatorGroupsFound');
  expect([...reasons('operators.coreos.com_OperatorGroup', 'OperatorGroupServiceAccount')]).toContain('True/ServiceAccountNotFound');
  const sub = reasons('operators.coreos.com_Subscription', 'InstallPlanPending');
  expect([...sub]).toEqual(expect.arrayContaining(['True/RequiresApproval', 'True/Installing']));
  for (const t of ['ResolutionFailed', 'CatalogSourcesUnhealthy', 'InstallPlanFailed', 'BundleUnpackFailed', 'InstallPlanMissing', 'BundleUnpacking', 'ChannelDeprecated']) {
    expect(reasons('operators.coreos.com_Subscription', t).size).toBeGreaterThan(0);
  }
});

describeLua('Argo CD health scripts in Lua 5.1 (health_test.yaml)', () => {
  test('the harness reproduces argo-cd\'s own Subscription tests with argo-cd\'s own script', () => {
    const folder = 'operators.coreos.com_Subscription';
    const upstream = fs.readFileSync(path.join(FIXTURES, folder, 'upstream_health.lua'), 'utf8');
    const table = cases(folder, 'upstream_health_test.yaml');
    // a built-in script of Argo CD: run with the standard libraries, as Argo CD runs its own (util/lua/lua.go)
    expect(runHealthScript(upstream, table.map((c) => c.input), { openLibs: true })).toEqual(table.map((c) => c.healthStatus));
  });

  test.each(checks.map((c) => [`${c.group}_${c.kind}`, c] as const))('%s', (folder, check) => {
    const table = cases(folder);
    const got = runHealthScript(check.argoCdLua, table.map((c) => c.input));
    expect(got.map((g, i) => ({ inputPath: table[i].inputPath, ...g })))
      .toEqual(table.map((c) => ({ inputPath: c.inputPath, ...c.healthStatus })));
    for (const g of got) expect(ARGO_STATUSES).toContain(g.status);
  });
});

describe('Flux healthCheckExprs in CEL (the same tables)', () => {
  test.each(checks.map((c) => [`${c.group}_${c.kind}`, c] as const))('%s', (folder, check) => {
    const table = cases(folder);
    const expr = { inProgress: check.fluxInProgress, failed: check.fluxFailed, current: check.fluxCurrent };
    expect(table.map((c) => ({ inputPath: c.inputPath, flux: waiting(fluxStatus(expr, c.input)) })))
      .toEqual(table.map((c) => ({ inputPath: c.inputPath, flux: waiting(c.fluxStatus) })));
  });

  test('fluxHealthCheckExprs() is the Kustomization field: one entry per kind, apiVersion and kind as Flux matches them', () => {
    expect(OlmHealthChecks.fluxHealthCheckExprs().map((e) => [e.apiVersion, e.kind, Object.keys(e)])).toEqual([
      ['operators.coreos.com/v1alpha1', 'Subscription', ['apiVersion', 'kind', 'failed', 'current']],
      ['operators.coreos.com/v1alpha1', 'InstallPlan', ['apiVersion', 'kind', 'failed', 'current']],
      ['operators.coreos.com/v1alpha1', 'ClusterServiceVersion', ['apiVersion', 'kind', 'failed', 'current']],
      ['operators.coreos.com/v1alpha1', 'CatalogSource', ['apiVersion', 'kind', 'failed', 'current']],
      ['operators.coreos.com/v1', 'OperatorGroup', ['apiVersion', 'kind', 'failed', 'current']],
      ['olm.operatorframework.io/v1', 'ClusterExtension', ['apiVersion', 'kind', 'inProgress', 'failed', 'current']],
      ['olm.operatorframework.io/v1', 'ClusterCatalog', ['apiVersion', 'kind', 'inProgress', 'failed', 'current']],
    ]);
  });
});

// Random status objects of each kind, built from the statuses, reasons and fields OLM and operator-controller set:
// the Lua script never fails and returns an Argo CD status, and Flux's verdict is the script's (Healthy = Current,
// Degraded = Failed, the rest InProgress; a catalog made unavailable on purpose is Suspended for Argo CD and Current
// for Flux).
const cond = (types: string[], reasons: string[]) => fc.record({
  type: fc.constantFrom(...types),
  status: fc.constantFrom('True', 'False', 'Unknown'),
  reason: fc.option(fc.constantFrom(...reasons), { nil: undefined }),
  message: fc.option(fc.constantFrom('m', 'forbidden: cannot create "clusterroles"', ''), { nil: undefined }),
  observedGeneration: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
}, { requiredKeys: ['type', 'status'] });
const csvName = fc.option(fc.constantFrom('etcdoperator.v0.9.2', 'etcdoperator.v0.9.4', ''), { nil: undefined });
const STATUS_ARBS: Record<string, fc.Arbitrary<any>> = {
  Subscription: fc.record({
    state: fc.option(fc.constantFrom('', 'UpgradeAvailable', 'UpgradePending', 'UpgradeFailed', 'AtLatestKnown'), { nil: undefined }),
    installedCSV: csvName,
    currentCSV: csvName,
    installPlanRef: fc.option(fc.constant({ name: 'install-abcde' }), { nil: undefined }),
    conditions: fc.option(fc.array(cond(['CatalogSourcesUnhealthy', 'InstallPlanMissing', 'InstallPlanPending', 'InstallPlanFailed', 'ResolutionFailed',
      'BundleUnpacking', 'BundleUnpackFailed', 'Deprecated', 'PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated'],
    ['RequiresApproval', 'Installing', 'Planning', 'ReferencedInstallPlanNotFound', 'InstallComponentFailed', 'Deprecated']), { maxLength: 4 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  InstallPlan: fc.record({
    phase: fc.option(fc.constantFrom('', 'Planning', 'RequiresApproval', 'Installing', 'Complete', 'Failed'), { nil: undefined }),
    message: fc.option(fc.constantFrom('x', ''), { nil: undefined }),
    conditions: fc.option(fc.array(cond(['Resolved', 'Installed'], ['InstallComponentFailed', 'InstallCheckFailed', 'DependenciesConflict']), { maxLength: 2 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  ClusterServiceVersion: fc.record({
    phase: fc.option(fc.constantFrom('', 'Pending', 'InstallReady', 'Installing', 'Succeeded', 'Failed', 'Unknown', 'Replacing', 'Deleting'), { nil: undefined }),
    reason: fc.option(fc.constantFrom('RequirementsNotMet', 'InstallSucceeded', 'Copied', ''), { nil: undefined }),
    message: fc.option(fc.constantFrom('m', ''), { nil: undefined }),
    requirementStatus: fc.option(fc.array(fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constant('op'), status: fc.constantFrom('Present', 'NotPresent', 'PresentNotSatisfied'), message: fc.option(fc.constant('m'), { nil: undefined }) }, { requiredKeys: ['kind', 'name', 'status'] }), { maxLength: 2 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  CatalogSource: fc.record({
    reason: fc.option(fc.constantFrom('RegistryServerError', 'SpecInvalidError', ''), { nil: undefined }),
    message: fc.option(fc.constant('m'), { nil: undefined }),
    connectionState: fc.option(fc.record({ lastObservedState: fc.constantFrom('IDLE', 'CONNECTING', 'READY', 'TRANSIENT_FAILURE', 'SHUTDOWN'), address: fc.option(fc.constant('a:50051'), { nil: undefined }) }, { requiredKeys: [] }), { nil: undefined }),
  }, { requiredKeys: [] }),
  OperatorGroup: fc.record({
    namespaces: fc.option(fc.constantFrom([''], ['team-a'], ['team-a', 'team-b']), { nil: undefined }),
    serviceAccountRef: fc.option(fc.constant({ name: 'team-a' }), { nil: undefined }),
    conditions: fc.option(fc.array(cond(['MultipleOperatorGroup', 'OperatorGroupServiceAccount'], ['MultipleOperatorGroupsFound', 'ServiceAccountNotFound']), { maxLength: 2 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  ClusterExtension: fc.record({
    install: fc.option(fc.constant({ bundle: { name: 'op.v1.0.0', version: '1.0.0' } }), { nil: undefined }),
    conditions: fc.option(fc.array(cond(['Installed', 'Progressing', 'Deprecated', 'PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated'],
      ['Succeeded', 'Failed', 'Absent', 'Retrying', 'RollingOut', 'Blocked', 'InvalidConfiguration', 'ProgressDeadlineExceeded', 'Deprecated']), { maxLength: 4 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  ClusterCatalog: fc.record({
    conditions: fc.option(fc.array(cond(['Serving', 'Progressing'], ['Available', 'Unavailable', 'UserSpecifiedUnavailable', 'Succeeded', 'Retrying', 'Blocked']), { maxLength: 3 }), { nil: undefined }),
  }, { requiredKeys: [] }),
};

/** Conditions are a map by type in the API (meta.SetStatusCondition): keep the first of each type. */
function uniqueConditions(status: any): any {
  if (!status?.conditions) return status;
  const seen = new Set<string>();
  return { ...status, conditions: status.conditions.filter((c: any) => !seen.has(c.type) && seen.add(c.type)) };
}

describeLua('Argo CD and Flux agree on random status objects', () => {
  test.each(checks.map((c) => [c.kind, c] as const))('%s', (kind, check) => {
    const objects = fc.sample(fc.record({
      generation: fc.integer({ min: 1, max: 3 }),
      status: fc.option(STATUS_ARBS[kind], { nil: undefined }),
      sa: fc.option(fc.constant('team-a'), { nil: undefined }),
    }), { numRuns: 300 }).map(({ generation, status, sa }) => ({
      apiVersion: check.apiVersion,
      kind,
      metadata: { name: 'x', namespace: 'team-a', generation },
      spec: sa ? { serviceAccountName: sa } : {},
      ...(status === undefined ? {} : { status: uniqueConditions(status) }),
    }));
    const lua = runHealthScript(check.argoCdLua, objects);
    const expr = { inProgress: check.fluxInProgress, failed: check.fluxFailed, current: check.fluxCurrent };
    const counts: Record<string, number> = {};
    objects.forEach((obj, i) => {
      const argo = lua[i].status;
      counts[argo] = (counts[argo] ?? 0) + 1;
      expect(ARGO_STATUSES).toContain(argo);
      const flux = fluxStatus(expr, obj);
      const expected = obj.status === undefined ? 'InProgress'
        : argo === 'Healthy' ? 'Current'
          : argo === 'Degraded' ? 'Failed'
            : argo === 'Suspended' && kind === 'ClusterCatalog' ? 'Current' : 'InProgress';
      if (waiting(flux) !== expected) throw new Error(`${kind}: Argo CD ${argo} (${lua[i].message}), Flux ${flux}, for ${JSON.stringify(obj.status)}`);
    });
    // Each generator reaches a healthy, a failed and an in-progress verdict.
    expect(counts.Healthy).toBeGreaterThan(3);
    expect(counts.Degraded).toBeGreaterThan(3);
    expect(counts.Progressing).toBeGreaterThan(3);
  });
});
