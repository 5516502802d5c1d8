import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { Diagnostics, Severity } from '../../src';
import { addErrorProducer, addWarningProducer } from '../../src/core/diagnostics';
import { appAndChart, validationErrors } from '../util/synth';

describe('Diagnostics', () => {
  test('GIVEN error producers on two constructs WHEN synthesizing THEN cdk8s reports every error together, each prefixed once with its path', () => {
    const { app, chart } = appAndChart();
    const a = new Construct(chart, 'A');
    const b = new Construct(chart, 'B');
    addErrorProducer(a, () => [
      { code: 'BadChannel', field: 'channel', value: '', message: 'the channel is empty', fix: "name a channel, e.g. 'stable'" },
    ]);
    addErrorProducer(b, () => [{ code: 'NoTargets', message: 'nothing to do.' }]);
    expect(() => app.synth()).toThrow(
      'Validation failed with the following errors:\n'
      + "  [platform/A] channel=\"\": the channel is empty. Fix: name a channel, e.g. 'stable' (BadChannel)\n"
      + '  [platform/B] nothing to do. (NoTargets)',
    );
  });

  test('GIVEN warning producers THEN warnings() lists them sorted by path, code, field and message', () => {
    const { chart } = appAndChart();
    const z = new Construct(chart, 'Z');
    const a = new Construct(chart, 'A');
    let late = false;
    addWarningProducer(z, () => [{ code: 'Second', message: 'z' }]);
    addWarningProducer(a, () => [{ code: 'B', message: 'b' }, { code: 'A', field: 'f', value: 'v', message: 'a' }]);
    addWarningProducer(a, () => (late ? [{ code: 'A', field: 'e', message: 'late' }] : []));
    late = true; // producers run at read time, after every mutation
    expect(Diagnostics.warnings(chart)).toEqual([
      { severity: Severity.WARNING, constructPath: 'platform/A', code: 'A', field: 'e', message: 'late' },
      { severity: Severity.WARNING, constructPath: 'platform/A', code: 'A', field: 'f', value: 'v', message: 'a' },
      { severity: Severity.WARNING, constructPath: 'platform/A', code: 'B', message: 'b' },
      { severity: Severity.WARNING, constructPath: 'platform/Z', code: 'Second', message: 'z' },
    ]);
    expect(Diagnostics.report(chart)).toEqual([
      'warning: [platform/A] e: late. (A)',
      'warning: [platform/A] f="v": a. (A)',
      'warning: [platform/A]: b. (B)',
      'warning: [platform/Z]: z. (Second)',
    ].join('\n'));
  });

  test('GIVEN constructs reporting the same finding THEN report() gives it one line listing their paths, in the order of warnings()', () => {
    const { chart } = appAndChart();
    const shared = { code: 'CrdsCreatedByOlm', field: 'bundle', value: 'etcd', message: 'OLM creates the CRDs', fix: 'accept it' };
    // created out of path order: the paths of a line are sorted like warnings()
    for (const id of ['tenant-10', 'tenant-2', 'tenant-1']) addWarningProducer(new Construct(chart, id), () => [shared]);
    addWarningProducer(new Construct(chart, 'tenant-3'), () => [{ ...shared, value: 'prometheus' }, { code: 'A', message: 'first by code' }]);
    // the same construct reporting it twice is listed once
    const twice = new Construct(chart, 'tenant-0');
    addWarningProducer(twice, () => [{ code: 'Z', message: 'z' }]);
    addWarningProducer(twice, () => [{ code: 'Z', message: 'z' }]);
    expect(Diagnostics.report(chart)).toEqual([
      'warning: [platform/tenant-0]: z. (Z)',
      // issue 42: one registered check with one fix is one decision, so one line: each group's paths and value, the check's summary
      'warning: [platform/tenant-1, platform/tenant-10, platform/tenant-2] bundle="etcd"; [platform/tenant-3] bundle="prometheus": the bundle ships CRDs, which OLM '
      + 'creates cluster-wide with its own client: one version shared by every tenant. Fix: accept it (CrdsCreatedByOlm, OLMT-016)',
      'warning: [platform/tenant-3]: first by code. (A)',
    ].join('\n'));
    // warnings() keeps one entry per construct and finding
    expect(Diagnostics.warnings(chart).map((d) => `${d.constructPath} ${d.code} ${d.value ?? ''}`)).toEqual([
      'platform/tenant-0 Z ', 'platform/tenant-0 Z ', 'platform/tenant-1 CrdsCreatedByOlm etcd', 'platform/tenant-10 CrdsCreatedByOlm etcd',
      'platform/tenant-2 CrdsCreatedByOlm etcd', 'platform/tenant-3 A ', 'platform/tenant-3 CrdsCreatedByOlm prometheus',
    ]);
  });

  test('property (seed 26): report() lists exactly the findings of warnings(), each line once, grouped by finding', () => {
    const findings = [{ code: 'A', message: 'a' }, { code: 'B', field: 'f', value: 'v', message: 'b' }, { code: 'B', field: 'f', value: 'w', message: 'b' }];
    fc.assert(fc.property(fc.array(fc.array(fc.nat(findings.length - 1), { maxLength: 3 }), { minLength: 1, maxLength: 8 }), (perConstruct) => {
      const { chart } = appAndChart();
      perConstruct.forEach((list, i) => addWarningProducer(new Construct(chart, `c${i}`), () => list.map((f) => findings[f])));
      const flat = Diagnostics.warnings(chart);
      // ungroup the report: every (path, finding) of warnings(), without repeats, in the same order
      const ungrouped = Diagnostics.report(chart).split('\n').filter((l) => l !== '').flatMap((line) => {
        const m = /^warning: \[([^\]]*)\](.*)$/.exec(line)!;
        return m[1].split(', ').map((p) => `warning: [${p}]${m[2]}`);
      });
      const expected = [...new Set(flat.map((d) => `warning: ${Diagnostics.format(d)}`))];
      expect([...ungrouped].sort()).toEqual([...expected].sort());
      expect(new Set(Diagnostics.report(chart).split('\n')).size).toEqual(Diagnostics.report(chart).split('\n').length);
    }), { seed: 26, numRuns: 200 });
  });

  test('issue 42: GIVEN findings of one registered check with different fixes THEN separate lines; an unregistered code is never merged', () => {
    const { chart } = appAndChart();
    addWarningProducer(new Construct(chart, 'a'), () => [{ code: 'CrdsCreatedByOlm', field: 'bundle', value: 'x', message: 'm1', fix: 'fix 1' }]);
    addWarningProducer(new Construct(chart, 'b'), () => [{ code: 'CrdsCreatedByOlm', field: 'bundle', value: 'y', message: 'm2', fix: 'fix 2' }]);
    addWarningProducer(new Construct(chart, 'c'), () => [{ code: 'Mine', field: 'f', value: '1', message: 'n', fix: 'same' }]);
    addWarningProducer(new Construct(chart, 'd'), () => [{ code: 'Mine', field: 'f', value: '2', message: 'n', fix: 'same' }]);
    expect(Diagnostics.report(chart).split('\n')).toEqual([
      'warning: [platform/a] bundle="x": m1. Fix: fix 1 (CrdsCreatedByOlm, OLMT-016)',
      'warning: [platform/b] bundle="y": m2. Fix: fix 2 (CrdsCreatedByOlm, OLMT-016)',
      'warning: [platform/c] f="1": n. Fix: same (Mine)',
      'warning: [platform/d] f="2": n. Fix: same (Mine)',
    ]);
  });

  test('issue 42: GIVEN an accepted finding THEN it is reported last as accepted, with the prop and the reason instead of a fix, and strict mode does not fail on it', () => {
    const { chart } = appAndChart();
    const accepted = { code: 'IdentityCanAssumeInstaller', field: 'identity', value: 'ServiceAccount a/b', message: 'b can become the installer', acceptedBy: 'acceptedReach', acceptedReason: 'one team (SEC-4)' };
    addWarningProducer(new Construct(chart, 'a'), () => [accepted]);
    addWarningProducer(new Construct(chart, 'z'), () => [{ code: 'Open', message: 'still open', fix: 'do it' }]);
    expect(Diagnostics.report(chart).split('\n')).toEqual([
      'warning: [platform/z]: still open. Fix: do it (Open)',
      'accepted: [platform/a] identity="ServiceAccount a/b": b can become the installer. Accepted with acceptedReach: one team (SEC-4) (IdentityCanAssumeInstaller, OLMT-023)',
    ]);
    expect(Diagnostics.formatReadable({ ...accepted, severity: Severity.WARNING, constructPath: 'platform/a' }).split('\n')).toEqual([
      '[platform/a] OLMT-023 IdentityCanAssumeInstaller: identity="ServiceAccount a/b": b can become the installer',
      '    Accepted with acceptedReach: one team (SEC-4)',
    ]);
    expect(Diagnostics.acceptedRisks(chart)).toEqual([{
      constructPath: 'platform/a',
      acceptedBy: 'acceptedReach',
      what: 'identity="ServiceAccount a/b": b can become the installer (IdentityCanAssumeInstaller)',
      reason: 'one team (SEC-4)',
      policyId: 'OLMT-023',
    }]);
    const strict = Testing.app();
    strict.node.setContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT, true);
    const strictChart = new Chart(strict, 'platform');
    addWarningProducer(new Construct(strictChart, 'a'), () => [accepted]);
    addWarningProducer(new Construct(strictChart, 'z'), () => [{ code: 'Open', message: 'still open', fix: 'do it' }]);
    expect(validationErrors(strict)).toEqual(['[platform/z] warning: still open. Fix: do it (Open)']);
  });

  test('GIVEN the warnings-as-errors context THEN warnings fail the synth', () => {
    const app = Testing.app();
    app.node.setContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT, true);
    const chart = new Chart(app, 'platform');
    const c = new Construct(chart, 'C');
    addWarningProducer(c, () => [{ code: 'Risky', message: 'risky', fix: 'do not' }]);
    expect(() => app.synth()).toThrow('  [platform/C] warning: risky. Fix: do not (Risky)');
  });

  test('GIVEN no context THEN warnings do not fail the synth', () => {
    const { app, chart } = appAndChart();
    addWarningProducer(new Construct(chart, 'C'), () => [{ code: 'Risky', message: 'risky' }]);
    expect(() => app.synth()).not.toThrow();
  });

  test('formatMessage leaves out the path; format adds it', () => {
    const d = { code: 'X', field: 'spec.a', value: 'b', message: 'is wrong!' };
    expect(Diagnostics.formatMessage(d)).toEqual('spec.a="b": is wrong! (X)');
    expect(Diagnostics.format({ ...d, severity: Severity.ERROR, constructPath: 'p/q' })).toEqual('[p/q] spec.a="b": is wrong! (X)');
    expect(Diagnostics.formatMessage({ code: 'Y', value: 'v', message: 'm' })).toEqual('"v": m. (Y)');
  });
});
