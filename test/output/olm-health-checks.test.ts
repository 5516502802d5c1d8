// The OLM health checks (src/output/olm-health-checks.ts): every Argo CD script run in a real Lua 5.1 interpreter against status
// objects in Argo CD's own health_test.yaml format (test/fixtures/olm-health/<group>_<kind>/), and every Flux
// expression evaluated in two CEL engines against the same objects, as Flux's StatusEvaluator does: one with cel-go's
// semantics for an unbound variable (@marcbachmann/cel-js: the exact verdict, Unknown included) and @bufbuild/cel.
import * as fs from 'fs';
import * as path from 'path';
import { run } from '@bufbuild/cel';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { OlmHealthChecks } from '../../src/output/olm-health-checks';
import { toCel } from '../util/cel-admission';
import { CelResult, evaluateCelGoLike } from '../util/cel-go-like';
import { LUA, runHealthScript } from '../util/lua';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'olm-health');
const ARGO_STATUSES = ['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown'];

interface HealthCase { healthStatus: { status: string; message: string }; inputPath: string; fluxStatus: string }

function cases(folder: string, file = 'health_test.yaml'): Array<HealthCase & { input: any }> {
  const dir = path.join(FIXTURES, folder);
  const tests: HealthCase[] = parseYaml(fs.readFileSync(path.join(dir, file), 'utf8')).tests;
  return tests.map((t) => ({ ...t, input: parseYaml(fs.readFileSync(path.join(dir, t.inputPath), 'utf8')) }));
}

type FluxExprs = { inProgress?: string; failed?: string; current: string };

/**
 * Flux's verdict (fluxcd/pkg runtime/cel status_evaluator.go `Evaluate`): InProgress when status.observedGeneration
 * (an integer) differs from metadata.generation; then inProgress, failed, current in that order, the first that
 * holds wins and the first evaluation error is returned (kstatus reports it as Unknown: cli-utils
 * `polling/statusreaders/generic.go`); InProgress when none holds. `evaluate(expr)` gives each expression's result.
 */
function fluxVerdict(check: FluxExprs, obj: any, evaluate: (expr: string) => CelResult): string {
  const observed = obj.status?.observedGeneration;
  if (Number.isInteger(observed) && Number.isInteger(obj.metadata?.generation) && observed !== obj.metadata.generation) return 'InProgress';
  for (const [expr, status] of [[check.inProgress, 'InProgress'], [check.failed, 'Failed'], [check.current, 'Current']] as const) {
    if (expr === undefined) continue;
    const result = evaluate(expr);
    if ('error' in result) return 'Unknown';
    if (typeof result.value !== 'boolean') throw new Error(`${expr} gave ${String(result.value)}, not a boolean`);
    if (result.value) return status;
  }
  return 'InProgress';
}

/** Flux's verdicts with @bufbuild/cel. */
function fluxStatus(check: FluxExprs, obj: any): string {
  const vars: Record<string, any> = {};
  for (const [k, v] of Object.entries(obj)) vars[k] = toCel(v);
  return fluxVerdict(check, obj, (expr) => {
    try {
      return { value: run(expr, vars) };
    } catch (e) {
      return { error: String(e) };
    }
  });
}

/**
 * Flux's verdicts with cel-go's semantics, and every evaluation error met, for groups of objects each with its
 * expressions (one child process for all).
 */
function fluxStatusesCelGo(groups: Array<{ check: FluxExprs; objects: any[] }>): Array<Array<{ verdict: string; errors: string[] }>> {
  const exprsOf = (check: FluxExprs) => [check.inProgress, check.failed, check.current].filter((e): e is string => e !== undefined);
  const batch = groups.flatMap(({ check, objects }) => objects.flatMap((obj) => exprsOf(check).map((expr) => ({ expr, vars: obj }))));
  const results = evaluateCelGoLike(batch);
  let at = 0;
  return groups.map(({ check, objects }) => objects.map((obj) => {
    const byExpr = new Map(exprsOf(check).map((e) => [e, results[at++]]));
    const errors = [...byExpr.values()].filter((r): r is { error: string } => 'error' in r).map((r) => r.error);
    return { verdict: fluxVerdict(check, obj, (e) => byExpr.get(e)!), errors };
  }));
}

/**
 * Unknown (an evaluation error: cel-go reports a missing top-level `status` so) and InProgress are one verdict for a
 * Kustomization: not ready yet, keep waiting until the timeout (fluxcd/pkg ssa `WaitForSet` stops early only on
 * Failed). @bufbuild/cel returns false for `has()` on a missing variable where cel-go fails, so its verdicts are
 * compared modulo this.
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

const exprsOf = (c: (typeof checks)[number]): FluxExprs => ({ inProgress: c.fluxInProgress, failed: c.fluxFailed, current: c.fluxCurrent });

/** Each kind's fixture inputs plus one with `status: {}`, and their cel-go verdicts (computed once, for every kind). */
let celGoTablesMemo: Map<string, { inputs: any[]; got: Array<{ verdict: string; errors: string[] }> }> | undefined;
function celGoTable(check: (typeof checks)[number]) {
  if (celGoTablesMemo === undefined) {
    const groups = checks.map((c) => {
      const table = cases(`${c.group}_${c.kind}`).map((t) => t.input);
      return { kind: c.kind, check: exprsOf(c), objects: [...table, { ...table[0], status: {} }] };
    });
    const got = fluxStatusesCelGo(groups);
    celGoTablesMemo = new Map(groups.map((g, i) => [g.kind, { inputs: g.objects, got: got[i] }]));
  }
  return celGoTablesMemo.get(check.kind)!;
}

describeLua('issue 42: OLM marks the Subscription AtLatestKnown once the CSV exists, whatever its phase', () => {
  // operator-lifecycle-manager pkg/controller/operators/catalog/operator.go ensureSubscriptionCSVState: a successful
  // Get of status.currentCSV sets state AtLatestKnown and installedCSV; the CSV's phase is never read there
  test('with the statuses OLM writes for a CSV that failed after it was created: the Subscription reads healthy in both tools, the CSV\'s own check Degraded / Failed', () => {
    const subscription = parseYaml(fs.readFileSync(path.join(FIXTURES, 'operators.coreos.com_Subscription', 'testdata', 'ours_at_latest_csv_failed.yaml'), 'utf8'));
    const csv = parseYaml(fs.readFileSync(path.join(FIXTURES, 'operators.coreos.com_ClusterServiceVersion', 'testdata', 'failed_component.yaml'), 'utf8'));
    expect([subscription.status.installedCSV, csv.metadata.name, csv.status.phase]).toEqual(['etcdoperator.v0.9.4', 'etcdoperator.v0.9.4', 'Failed']);
    const sub = checks.find((c) => c.kind === 'Subscription')!;
    const csvCheck = checks.find((c) => c.kind === 'ClusterServiceVersion')!;
    // Argo CD: the Subscription's script sees only the Subscription, and says what it knows (the CSV exists)
    expect(runHealthScript(sub.argoCdLua, [subscription])).toEqual([{ status: 'Healthy', message: 'etcdoperator.v0.9.4 exists (AtLatestKnown); its phase is on the ClusterServiceVersion' }]);
    expect(runHealthScript(csvCheck.argoCdLua, [csv])).toEqual([{ status: 'Degraded', message: expect.stringMatching(/^Failed \(InstallComponentFailed\)/) }]);
    // Flux: the same for the Subscription; the CSV, which the operators Kustomization names, fails it
    const [[s], [c]] = fluxStatusesCelGo([{ check: exprsOf(sub), objects: [subscription] }, { check: exprsOf(csvCheck), objects: [csv] }]);
    expect([s.verdict, c.verdict]).toEqual(['Current', 'Failed']);
  });
});

describe('Flux healthCheckExprs in CEL (the same tables)', () => {
  test.each(checks.map((c) => [`${c.group}_${c.kind}`, c] as const))('%s: cel-go\'s verdicts exactly, @bufbuild/cel\'s modulo Unknown', (folder, check) => {
    const table = cases(folder);
    const expr = exprsOf(check);
    const celGo = celGoTable(check).got;
    expect(table.map((c, i) => ({ inputPath: c.inputPath, flux: celGo[i].verdict })))
      .toEqual(table.map((c) => ({ inputPath: c.inputPath, flux: c.fluxStatus })));
    expect(table.map((c) => ({ inputPath: c.inputPath, flux: waiting(fluxStatus(expr, c.input)) })))
      .toEqual(table.map((c) => ({ inputPath: c.inputPath, flux: waiting(c.fluxStatus) })));
  });

  test.each(checks.map((c) => [c.kind, c] as const))('%s: every expression evaluates without error on every object that has a status (status: {} too: InProgress); only a missing status fails (issue 42: has() cannot guard it)', (_kind, check) => {
    const { inputs, got } = celGoTable(check);
    expect(inputs.filter((o, i) => o.status !== undefined && got[i].errors.length > 0)).toEqual([]);
    expect(got[got.length - 1]).toEqual({ verdict: 'InProgress', errors: [] });
    // a missing status: cel-go fails on the unbound variable, has() included, so Flux reports Unknown and waits
    const missing = got.filter((_, i) => inputs[i].status === undefined);
    expect(missing.length).toBeGreaterThan(0);
    for (const m of missing) expect([m.verdict, m.errors.length > 0, m.errors.every((e) => /status/.test(e))]).toEqual(['Unknown', true, true]);
  });

  /**
   * The emulation of Flux's StatusEvaluator, checked on the rows of its own test table about missing fields
   * (fluxcd/pkg runtime/cel/status_evaluator_test.go, `TestStatusEvaluator_Evaluate`, errors there are Unknown here):
   * `has()` does not guard a top-level variable that is not there, in cel-go as in the engine used here.
   */
  test('fluxcd/pkg StatusEvaluator table rows on missing fields', () => {
    const ready = {
      failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
      current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
    };
    const withInProgress = { inProgress: 'has(status.observedGeneration) && metadata.generation != status.observedGeneration', ...ready };
    const rows: Array<[string, FluxExprs, object, string]> = [
      ['object without status with inProgress expression', withInProgress, {}, 'Unknown'],
      ['object without status without inProgress expression', ready, {}, 'Unknown'],
      ['object with status without status.conditions with inProgress expression', withInProgress, { status: {} }, 'Unknown'],
      ['object with status with empty status.conditions with inProgress expression', withInProgress, { status: { conditions: [] } }, 'Failed'],
      ['object with status.observedGeneration with inProgress expression', withInProgress, { metadata: { generation: 2 }, status: { observedGeneration: 1 } }, 'InProgress'],
    ];
    const exprsOfRow = (e: FluxExprs) => [e.inProgress, e.failed, e.current].filter((x): x is string => x !== undefined);
    const got = evaluateCelGoLike(rows.flatMap(([, e, obj]) => exprsOfRow(e).map((expr) => ({ expr, vars: obj as any }))));
    let at = 0;
    const verdicts = rows.map(([name, e, obj]) => {
      const results = new Map(exprsOfRow(e).map((x) => [x, got[at++]]));
      return [name, fluxVerdict(e, obj, (x) => results.get(x)!)];
    });
    expect(verdicts).toEqual(rows.map(([name, , , verdict]) => [name, verdict]));
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

/** 300 random objects of each kind with their cel-go verdicts (computed once, in one child process). */
let samplesMemo: Map<string, { objects: any[]; celGo: Array<{ verdict: string; errors: string[] }> }> | undefined;
function samples(check: (typeof checks)[number]) {
  if (samplesMemo === undefined) {
    const groups = checks.map((c) => ({
      kind: c.kind,
      check: exprsOf(c),
      objects: fc.sample(fc.record({
        generation: fc.integer({ min: 1, max: 3 }),
        status: fc.option(STATUS_ARBS[c.kind], { nil: undefined }),
        sa: fc.option(fc.constant('team-a'), { nil: undefined }),
      }), { numRuns: 300 }).map(({ generation, status, sa }) => ({
        apiVersion: c.apiVersion,
        kind: c.kind,
        metadata: { name: 'x', namespace: 'team-a', generation },
        spec: sa ? { serviceAccountName: sa } : {},
        ...(status === undefined ? {} : { status: uniqueConditions(status) }),
      })),
    }));
    const got = fluxStatusesCelGo(groups);
    samplesMemo = new Map(groups.map((g, i) => [g.kind, { objects: g.objects, celGo: got[i] }]));
  }
  return samplesMemo.get(check.kind)!;
}

describeLua('Argo CD and Flux agree on random status objects', () => {
  test.each(checks.map((c) => [c.kind, c] as const))('%s', (kind, check) => {
    const { objects, celGo } = samples(check);
    const lua = runHealthScript(check.argoCdLua, objects);
    const expr = exprsOf(check);
    const counts: Record<string, number> = {};
    objects.forEach((obj, i) => {
      const argo = lua[i].status;
      counts[argo] = (counts[argo] ?? 0) + 1;
      expect(ARGO_STATUSES).toContain(argo);
      const flux = fluxStatus(expr, obj);
      // cel-go: the same verdict, and an evaluation error only where the status is missing
      if (waiting(celGo[i].verdict) !== waiting(flux) || (celGo[i].errors.length > 0) !== (obj.status === undefined)) {
        throw new Error(`${kind}: cel-go ${celGo[i].verdict} (${celGo[i].errors.join('; ')}), @bufbuild/cel ${flux}, for ${JSON.stringify(obj.status)}`);
      }
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
