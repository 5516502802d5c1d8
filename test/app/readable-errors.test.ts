/**
 * Issue 16 item 5: error output people can read. Run as an app (`cdk8s synth` runs `ts-node main.ts`), a failed
 * TenancyApp prints each finding with a first line of at most 160 characters that keeps the field and its bad value
 * (issue 41: a cut at 160 characters dropped it), and the details indented and capped,
 * and exits 1 without a Node stack trace; programmatic callers (tests, tools, a main that catches) still get the
 * thrown error in the one-line form.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { buildFailingTenant } from '../../examples/preflight-demo';
import { Diagnostic, Diagnostics, Severity, SynthErrorFormat, TenancyApp } from '../../src';
import { MainResult, MainTranspiler, runTsMain } from '../util/run-main';

const ROOT = path.join(__dirname, '..', '..');
const HISTORY = path.join(ROOT, 'test', 'fixtures', 'bundle-history');

/**
 * Runs `main` (TypeScript) as a program, as `cdk8s synth` does: ts-node, not under jest (test/util/run-main.ts). The
 * exit-1 test uses TypeScript's transpiler as `cdk8s synth` does; the tests of what a catching main gets use swc.
 */
function runMain(dir: string, main: string, transpiler: MainTranspiler): MainResult {
  const file = path.join(dir, 'main.ts');
  fs.writeFileSync(file, main);
  return runTsMain(file, { cwd: ROOT, transpiler });
}

describe('readable errors', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-readable-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('Diagnostics.formatReadable: a first line of at most 160 characters with the field and value, details indented, wrapped and capped', () => {
    const long: Diagnostic = {
      severity: Severity.ERROR,
      code: 'InstallerSensitiveGrant',
      constructPath: 'platform/TeamA',
      field: 'clusterInstallerRules[0]',
      value: 'pods create',
      message: `installer rules hold a grant equivalent to escalation: ${'Namespace:"" APIGroups:[] Resources:[pods] Verbs:[create]; '.repeat(40)}`,
      fix: 'remove the grant, or accept that one grant by name with allowedSensitiveGrants: [SensitiveGrant.POD_CREATE]',
    };
    const lines = Diagnostics.formatReadable(long).split('\n');
    expect(lines[0]).toEqual(`[platform/TeamA] OLMT-003 InstallerSensitiveGrant: clusterInstallerRules[0]="pods create": installer rules hold a grant equivalent to escalation: ${'Namespace:"" APIGroups:[] Resources:[pods] Verbs:[create]; '.repeat(40)}`.slice(0, 157) + '...');
    expect(lines[0].length).toEqual(160);
    expect(lines.slice(1).every((l) => l.startsWith('    ') && l.length <= 4 + 116 + 40)).toBe(true);
    // the message: 12 lines at most, the last says how much is left out; then the fix
    const message = lines.slice(1, -1);
    expect(message.length).toEqual(12);
    expect(message[0]).toEqual('    installer rules hold a grant equivalent to escalation: Namespace:"" APIGroups:[] Resources:[pods] Verbs:[create];');
    expect(message[11]).toMatch(/\.\.\. \(\d+ more characters\)$/);
    expect(lines[lines.length - 1]).toEqual('    Fix: remove the grant, or accept that one grant by name with allowedSensitiveGrants: [SensitiveGrant.POD_CREATE]');
  });

  test('a short finding is one line (field and value included) plus its fix', () => {
    expect(Diagnostics.formatReadable({ severity: Severity.ERROR, code: 'EmptyChannel', constructPath: 'c/T/Subscription-etcd', field: 'channel', value: '', message: 'the channel is empty', fix: 'name a channel' }))
      .toEqual('[c/T/Subscription-etcd] EmptyChannel: channel="": the channel is empty\n    Fix: name a channel');
  });

  test('issue 41: the bad value stays on the first line, whatever the length of the message; a value beyond 100 characters is cut there and given in full below', () => {
    // the walkthrough with a team name that is no DNS label: the first line names the value (it was cut at 160 characters before it)
    const message = "Namespace name must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
    const first = Diagnostics.formatReadable({ severity: Severity.ERROR, code: 'InvalidName', constructPath: 'Bad_Team/Bad_Team', field: 'namespaceName', value: 'team-Bad_Team', message, fix: 'use a lower-case RFC 1123 label' }).split('\n');
    expect(first).toEqual([
      `[Bad_Team/Bad_Team] InvalidName: namespaceName="team-Bad_Team": ${message}`.slice(0, 157) + '...',
      "    Namespace name must consist of lower case alphanumeric characters or '-', and must start and end with an",
      '    alphanumeric character (RFC 1123 label)',
      '    Fix: use a lower-case RFC 1123 label',
    ]);
    expect(first[0]).toContain('namespaceName="team-Bad_Team": ');
    // a long path, code and value: the first line grows past 160 characters rather than drop the value, and keeps 40 of the message
    const value = 'x'.repeat(150);
    const long = Diagnostics.formatReadable({ severity: Severity.ERROR, code: 'InvalidName', constructPath: `${'p'.repeat(70)}/T`, field: 'namespaceName', value, message, fix: 'f' }).split('\n');
    const where = `namespaceName=${JSON.stringify(value)}`;
    const head = `[${'p'.repeat(70)}/T] InvalidName: ${where.slice(0, 97)}...: `;
    expect(long[0]).toEqual(`${head}${message.slice(0, 37)}...`);
    expect(long[0].length).toEqual(head.length + 40);
    expect(long.slice(1, 3)).toEqual([`    ${where.slice(0, 116)}`, `    ${where.slice(116)}`]);
  });

  test('programmatic callers and tests get the one-line cdk8s error (the README preflight example is such a line)', () => {
    const app = Testing.app();
    buildFailingTenant(app);
    expect(() => app.synthYaml()).toThrow(/^Validation failed with the following errors:\n {2}\[tenant-monitoring\/Tenant\] subscriptions\[prometheus\]\.bundle=/);
  });

  test('run as an app: the findings, readable, on stderr; exit 1; no stack trace; nothing after synth runs', () => {
    const r = runMain(tmp, [
      `import { synthPlatform } from ${JSON.stringify(path.join(ROOT, 'examples', 'walkthrough'))};`,
      `synthPlatform(${JSON.stringify(path.join(tmp, 'dist'))}, ${JSON.stringify(HISTORY)}, 'etcdoperator.v0.9.3');`,
      "console.log('after synth');",
      '',
    ].join('\n'), 'typescript');
    expect(r.status).toBe(1);
    expect(r.stdout).toEqual('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toEqual('Synthesis failed with 2 error(s); nothing was written:');
    const firsts = lines.filter((l) => l.startsWith('['));
    expect(firsts.map((l) => l.slice(0, l.indexOf(']') + 1))).toEqual(['[payments/payments/Subscription-etcd]', '[search/search/Subscription-etcd]']);
    expect(firsts.every((l) => l.length <= 160 && l.includes(' PinnedCsvNotInUpgradeGraph: '))).toBe(true);
    expect(r.stderr).toContain("    Fix: pin one of them, or add the bundle of 'etcdoperator.v0.9.3' to `UpgradeGraph.fromBundles(bundles, channel)`\n");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack frames
    expect(lines.every((l) => l.length <= 160)).toBe(true);
  }, 120_000);

  test('run as an app, a main that catches the failure still gets the error', () => {
    const r = runMain(tmp, [
      `import { synthPlatform } from ${JSON.stringify(path.join(ROOT, 'examples', 'walkthrough'))};`,
      'try {',
      `  synthPlatform(${JSON.stringify(path.join(tmp, 'dist2'))}, ${JSON.stringify(HISTORY)}, 'etcdoperator.v0.9.3');`,
      '} catch (e) {',
      "  console.log(`caught: ${(e as Error).message.split('\\n')[0]}`);",
      '}',
      '',
    ].join('\n'), 'swc');
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: 'caught: Synthesis failed with 2 error(s); nothing was written:\n' });
  }, 120_000);

  // issue 29 item 3: what a main that catches gets is said (README.md), and chosen with errorFormat; one program for
  // the four settings (a spawned ts-node is slow)
  test('a main that catches the failure: AUTO (the default) and READABLE give the readable form, ONE_LINE the one-line form', () => {
    const r = runMain(tmp, [
      `import { TenancyApp, SynthErrorFormat } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
      `import { buildFailingTenant } from ${JSON.stringify(path.join(ROOT, 'examples', 'preflight-demo'))};`,
      'for (const format of [undefined, SynthErrorFormat.AUTO, SynthErrorFormat.READABLE, SynthErrorFormat.ONE_LINE]) {',
      `  const app = new TenancyApp({ outdir: ${JSON.stringify(path.join(tmp, 'dist-formats'))}, quiet: true, errorFormat: format });`,
      '  buildFailingTenant(app);',
      '  try {',
      '    app.synth();',
      '  } catch (e) {',
      `    const text = (e as Error).message.split(${JSON.stringify(path.join(tmp, 'dist-formats'))}).join('<outdir>');`,
      "    console.log(`${format}: ${text.split('\\n').slice(0, 3).join(' | ').slice(0, 190)}`);",
      '  }',
      '}',
      '',
    ].join('\n'), 'swc');
    expect(r.status).toBe(0);
    // the failing tenant's finding is cut short in the readable form, so its first line says where the full text is
    // (issue 30 item 7: <outdir>/SYNTH-ERRORS.txt)
    const readable = ('Synthesis failed with 1 error(s); no manifest was written, and the full text of every error is in <outdir>/SYNTH-ERRORS.txt '
      + '(cut short below): |  | [tenant-monitoring/Tenant] MissingInstallerPermission: subscriptions[prometheus].bundle="prometheusoperator.0.56.3": OLM would fail').slice(0, 190);
    expect(r.stdout.split('\n')).toEqual([
      `undefined: ${readable}`,
      `AUTO: ${readable}`,
      `READABLE: ${readable}`,
      'ONE_LINE: Validation failed with the following errors: |   [tenant-monitoring/Tenant] subscriptions[prometheus].bundle="prometheusoperator.0.56.3": OLM would fail to install prometheusoperator.0.56.3: the installer ServiceAccount t'.slice(0, 'ONE_LINE: '.length + 190),
      '',
    ]);
  }, 180_000);

  test('errorFormat READABLE from a test or a tool (not run as an app): the readable form, thrown, no exit handler', () => {
    const app = new TenancyApp({ outdir: path.join(tmp, 'dist-tool'), quiet: true, errorFormat: SynthErrorFormat.READABLE });
    buildFailingTenant(app);
    const errorsFile = path.join(tmp, 'dist-tool', 'SYNTH-ERRORS.txt');
    expect(() => app.synth()).toThrow(`Synthesis failed with 1 error(s); no manifest was written, and the full text of every error is in ${errorsFile} (cut short below):\n\n[tenant-monitoring/Tenant] `);
    expect(process.listeners('uncaughtException').length).toEqual(LISTENERS);
  });

  test('errorFormat is checked like every prop', () => {
    const app = new TenancyApp({ outdir: path.join(tmp, 'dist-bad'), quiet: true, errorFormat: 'Pretty' as any });
    expect(() => app.synth()).toThrow('TenancyApp.errorFormat="Pretty": errorFormat must be one of "AUTO", "READABLE", "ONE_LINE", got the string "Pretty"');
  });
});
const LISTENERS = process.listeners('uncaughtException').length;
