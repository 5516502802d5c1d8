import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Diagnostics, Severity } from '../../src';
import { addErrorProducer, addWarningProducer } from '../../src/core/diagnostics';

function fixture(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

describe('Diagnostics', () => {
  test('GIVEN error producers on two constructs WHEN synthesizing THEN cdk8s reports every error together, each prefixed once with its path', () => {
    const { app, chart } = fixture();
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
    const { chart } = fixture();
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

  test('GIVEN the warnings-as-errors context THEN warnings fail the synth', () => {
    const app = Testing.app();
    app.node.setContext(Diagnostics.WARNINGS_AS_ERRORS_CONTEXT, true);
    const chart = new Chart(app, 'platform');
    const c = new Construct(chart, 'C');
    addWarningProducer(c, () => [{ code: 'Risky', message: 'risky', fix: 'do not' }]);
    expect(() => app.synth()).toThrow('  [platform/C] warning: risky. Fix: do not (Risky)');
  });

  test('GIVEN no context THEN warnings do not fail the synth', () => {
    const { app, chart } = fixture();
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
