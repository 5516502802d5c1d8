/**
 * Issue 9 for the app and report entry points: TenancyApp props are synth errors (the App is a construct: never
 * thrown from its constructor), GitOpsLayout and TenancyReport static methods throw one clear Error in the
 * diagnostics format (`Class.method: field=value: message. Fix: ... (Code)`), never a TypeError. Plain JavaScript is
 * simulated with `as any`: jsii languages behave the same.
 */
import { Chart } from 'cdk8s';
import { GitOpsLayout, OutputLayout, TenancyApp } from '../../src';
import { TenancyReport } from '../../src/report/tenancy-report';
import { synthErrorLines } from '../util/synth';

describe('TenancyApp props from plain JavaScript', () => {
  test('a layout outside OutputLayout and non-boolean syncWaves/report are synth errors; quiet: null means not given', () => {
    let app: TenancyApp | undefined;
    expect(() => {
      app = new TenancyApp({ outdir: 'unused', layout: 'Flat' as any, syncWaves: 'yes' as any, report: 1 as any, quiet: null as any });
    }).not.toThrow();
    new Chart(app!, 'c');
    expect(synthErrorLines(app!)).toEqual([
      '[TenancyApp] TenancyApp.layout="Flat": layout must be one of "FILE_PER_CHART", "GITOPS", got the string "Flat". Fix: use OutputLayout.FILE_PER_CHART or OutputLayout.GITOPS (InvalidEnumValue)',
      '[TenancyApp] TenancyApp.syncWaves="yes": syncWaves must be true or false, got the string "yes". Fix: pass syncWaves as a boolean (InvalidInputType)',
      '[TenancyApp] TenancyApp.report="1": report must be true or false, got the number 1. Fix: pass report as a boolean (InvalidInputType)',
    ]);
    // the App goes on with the defaults
    expect([app!.layout, app!.syncWaves, app!.report, app!.quiet]).toEqual([OutputLayout.FILE_PER_CHART, false, false, false]);
  });

  test("cdk8s AppProps too: a wrong yamlOutputType and an outdir that is not a string (instead of fs's TypeError)", () => {
    const app = new TenancyApp({ outdir: 5 as any, yamlOutputType: 7 as any, quiet: true });
    expect(app.outdir).toEqual(process.env.CDK8S_OUTDIR ?? 'dist');
    expect(synthErrorLines(app)).toEqual([
      '[TenancyApp] TenancyApp.outdir="5": outdir must be a string, got the number 5. Fix: pass outdir as a directory path, e.g. \'dist\' (InvalidInputType)',
      '[TenancyApp] TenancyApp.yamlOutputType="7": yamlOutputType must be one of 0, 1, 2, 3, got the number 7. '
        + 'Fix: use YamlOutputType.FILE_PER_APP or YamlOutputType.FILE_PER_CHART or YamlOutputType.FILE_PER_RESOURCE or YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE (InvalidEnumValue)',
    ]);
  });

  test('props that are not an object', () => {
    expect(synthErrorLines(new TenancyApp('dist' as any))).toEqual([
      '[TenancyApp] TenancyApp.props="dist": props must be an object, got the string "dist". Fix: pass { layout?, syncWaves?, report?, quiet?, outdir?, ... } (InvalidInputType)',
    ]);
  });

  test('valid props synthesize as before', () => {
    const app = new TenancyApp({ outdir: 'unused', layout: OutputLayout.GITOPS, syncWaves: true, report: false, quiet: true });
    new Chart(app, 'c');
    expect(synthErrorLines(app)).toEqual([]);
  });
});

describe('GitOpsLayout static methods throw clear errors', () => {
  test('kindWave without apiVersion and with a number kind', () => {
    expect(() => GitOpsLayout.kindWave(undefined as any, 5 as any)).toThrow(new Error(
      "GitOpsLayout.kindWave: apiVersion: apiVersion is required but missing. Fix: pass the object's apiVersion, e.g. 'operators.coreos.com/v1alpha1' (MissingInput); "
      + "kind=\"5\": kind must be a string, got the number 5. Fix: pass the object's kind, e.g. 'Subscription' (InvalidInputType)",
    ));
  });

  test('identity(null)', () => {
    expect(() => GitOpsLayout.identity(null)).toThrow(new Error(
      'GitOpsLayout.identity: manifest="null": manifest must be a Kubernetes object (JSON), got null. '
      + "Fix: pass the object as ApiObject.toJson() returns it, e.g. { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } (MissingInput)",
    ));
  });

  test('files: a tenant that is a path (it names a folder) and a non-boolean syncWaves option', () => {
    const objects = [{ manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }, tenant: '../etc' }];
    expect(() => GitOpsLayout.files(objects, { syncWaves: 'no' as any })).toThrow(new Error(
      "GitOpsLayout.files: objects[0].tenant=\"../etc\": Tenant namespace name must consist of lower case alphanumeric characters or '-', and must start and end with an "
      + 'alphanumeric character (RFC 1123 label). Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName); '
      + 'options.syncWaves="no": options.syncWaves must be true or false, got the string "no". Fix: pass options.syncWaves as a boolean (InvalidInputType)',
    ));
  });

  test('files(null) and a manifest without kind', () => {
    expect(() => GitOpsLayout.files(null as any)).toThrow(new Error(
      'GitOpsLayout.files: objects: objects is required but null. Fix: pass a list of { manifest, tenant?, dependsOn? } ([] for none) (MissingInput)',
    ));
    expect(() => GitOpsLayout.files([{ manifest: { apiVersion: 'v1', metadata: { name: 'x' } } }])).toThrow(new Error(
      "GitOpsLayout.files: objects[0].manifest.kind: objects[0].manifest.kind is required but missing. Fix: set kind, e.g. 'Namespace' (MissingInput)",
    ));
  });
});

describe('TenancyReport static methods throw clear errors', () => {
  test('markdown: a title with a newline (shown on one line), a string objectCount, a number section', () => {
    const app = new TenancyApp({ outdir: 'unused' });
    expect(() => TenancyReport.markdown(app, { title: 'a\nb', objectCount: '3' as any, extraSections: ['## x', 4 as any] })).toThrow(new Error(
      'TenancyReport.markdown: options.objectCount="3": options.objectCount must be a finite number, got the string "3". Fix: pass options.objectCount as a number (InvalidInputType); '
      + 'options.title="a\\nb": options.title contains a newline or another control character. Fix: pass title as one line of text, e.g. \'Tenancy of cluster prod-1\' (InvalidInputValue); '
      + 'options.extraSections[1]="4": options.extraSections[1] must be a string, got the number 4. Fix: pass each section as Markdown text starting with a `## ` heading (InvalidInputType)',
    ));
  });

  test('markdown: a negative objectCount; facts without a scope', () => {
    const app = new TenancyApp({ outdir: 'unused' });
    expect(() => TenancyReport.markdown(app, { objectCount: -1 })).toThrow(new Error(
      'TenancyReport.markdown: options.objectCount="-1": options.objectCount must be a whole number of objects, got the number -1. '
      + 'Fix: pass the number of objects written, or leave objectCount out (InvalidInputValue)',
    ));
    expect(() => TenancyReport.facts(undefined as any)).toThrow(new Error(
      'TenancyReport.facts: scope: scope must be a construct (an App, a Chart or a construct below them), got undefined. '
      + 'Fix: pass the App, or the chart or construct whose tenants to read (MissingInput)',
    ));
  });
});
