/**
 * Issue 30 item 7: cut lists. A NeedsClusterScopedRules error's fix names every sensitive grant the derived
 * cluster-wide rules will then hold, so the synth after the opt-in asks for nothing unannounced; and when the printed
 * (readable) form of a failed synth cuts a finding short, the full text of every error is written to
 * `<outdir>/SYNTH-ERRORS.txt` and the first line says where (removed again by the next synth that passes).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Diagnostics, InstallPlanApproval, OperatorBundle, ScopedOperatorTenant, ScopedOperatorTenantProps, SensitiveGrant, Severity, TenancyApp } from '../../src';
import { ERRORS_FILE, removeStaleErrors, synthFailureMessage } from '../../src/output/synth-failure';
import { runTsMain } from '../util/run-main';
import { synthErrorLines } from '../util/synth';

const CLUSTERWIDE = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundle-history', 'etcd', '0.9.2-clusterwide'));
const GRAFANA_DIR = path.join(__dirname, '..', 'fixtures', 'bundles', 'grafana-operator', '5.24.0');
const GRAFANA = OperatorBundle.fromDirectory(GRAFANA_DIR);
const ANNOUNCED = [
  SensitiveGrant.POD_CREATE, SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE,
  SensitiveGrant.POD_IMAGE_UPDATE,
];

function tenantErrors(props: Partial<ScopedOperatorTenantProps>, bundle: OperatorBundle = CLUSTERWIDE): string[] {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true, ...props });
  tenant.subscribe({
    packageName: bundle.packageName!,
    catalog: { bindSubscriber: (_s: any, ns: string) => ({ name: 'c', namespace: ns }), checkSubscription: () => [] },
    installPlanApproval: InstallPlanApproval.MANUAL,
    bundle,
  });
  return synthErrorLines(app);
}

const codeOf = (line: string) => line.slice(line.lastIndexOf('(') + 1, line.length - 1).split(',')[0];

describe('a NeedsClusterScopedRules fix names what the opt-in will then ask for', () => {
  test('the fix names the 5 sensitive grants; after the opt-in exactly those 5 are InstallerSensitiveGrant errors; after accepting them none', () => {
    const before = tenantErrors({});
    expect(before.map(codeOf)).toEqual(['NeedsClusterScopedRules']);
    expect(before[0].slice(before[0].indexOf(' Fix: '))).toEqual(' Fix: set clusterScopedInstallerRulesReason to why this operator may have rules outside the namespace '
      + '(they are then derived, and annotated with the reason); the derived cluster-wide rules then hold 5 sensitive grant(s) to accept by name, each with its reason: '
      + "acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_CREATE, reason: '...' }, { grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: '...' }, "
      + "{ grant: SensitiveGrant.WORKLOAD_WRITES, reason: '...' }, { grant: SensitiveGrant.SERVICE_UPDATE, reason: '...' }, { grant: SensitiveGrant.POD_IMAGE_UPDATE, reason: '...' }]; or choose an operator without "
      + 'clusterPermissions, webhooks or API services (NeedsClusterScopedRules, OLMT-006)');

    const reason = 'etcd 0.9.2-clusterwide watches every namespace (reviewed by the platform team)';
    const after = tenantErrors({ clusterScopedInstallerRulesReason: reason }).filter((l) => codeOf(l) === 'InstallerSensitiveGrant');
    expect(after.map((l) => /SensitiveGrant\.([A-Z_]+)\)/.exec(l)![1]).sort()).toEqual([...ANNOUNCED].sort());

    const accepted = tenantErrors({ clusterScopedInstallerRulesReason: reason, acceptedSensitiveGrants: ANNOUNCED.map((grant) => ({ grant, reason: 'reviewed' })) });
    expect(accepted.filter((l) => ['InstallerSensitiveGrant', 'NeedsClusterScopedRules'].includes(codeOf(l)))).toEqual([]);
  });

  test('grants accepted already are not named again; without deriveInstallerRules the fix names the grants too', () => {
    const some = tenantErrors({ acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_CREATE, reason: 'reviewed' }, { grant: SensitiveGrant.SERVICE_UPDATE, reason: 'reviewed' }] });
    expect(some.map(codeOf)).toEqual(['NeedsClusterScopedRules']);
    expect(some[0]).toContain("then hold 3 sensitive grant(s) to accept by name, each with its reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason: '...' }, "
      + "{ grant: SensitiveGrant.WORKLOAD_WRITES, reason: '...' }, { grant: SensitiveGrant.POD_IMAGE_UPDATE, reason: '...' }]; or choose");
    const all = tenantErrors({ acceptedSensitiveGrants: ANNOUNCED.map((grant) => ({ grant, reason: 'reviewed' })) });
    expect(all[0]).toContain('(they are then derived, and annotated with the reason); or choose an operator');
    const noDerive = tenantErrors({ deriveInstallerRules: false });
    expect(noDerive.map(codeOf)).toEqual(['NeedsClusterScopedRules']);
    expect(noDerive[0]).toContain(' to derive exactly these rules; the derived cluster-wide rules then hold 5 sensitive grant(s) to accept by name');
    expect(noDerive[0]).toContain('; or grant them with addInstallerRule and addClusterInstallerRule (NeedsClusterScopedRules, OLMT-006)');
  });
});

describe('the full text of a cut finding is written, and the message says where', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-cut-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const long = tenantErrors({}, GRAFANA)[0]; // grafana-operator 5.24.0: its rules outside the namespace, 2,400 characters
  const readableOf = (line: string) => {
    const [, constructPath] = /^\[([^\]]+)\]/.exec(line)!;
    return Diagnostics.formatReadable({
      severity: Severity.ERROR,
      code: 'NeedsClusterScopedRules',
      constructPath,
      field: 'subscriptions[grafana-operator].bundle',
      value: GRAFANA.name,
      message: line.slice(line.indexOf(': ') + 2, line.indexOf(' Fix: ')),
      fix: line.slice(line.indexOf(' Fix: ') + 6),
    });
  };

  test('a finding the readable form cuts: every error in full in SYNTH-ERRORS.txt, the first line names it', () => {
    const readable = readableOf(long);
    expect(readable).toMatch(/\.\.\. \(\d+ more characters\)/); // the case of the issue: the rule list is cut
    const short = '[platform/TeamB] namespaceName="B": Namespace name must ... (InvalidName)';
    const message = synthFailureMessage(path.join(tmp, 'dist'), 'dist', [long, short], [readable, 'short']);
    expect(message.split('\n')[0]).toEqual('Synthesis failed with 2 error(s); no manifest was written, and the full text of every error is in dist/SYNTH-ERRORS.txt (cut short below):');
    expect(fs.readFileSync(path.join(tmp, 'dist', ERRORS_FILE), 'utf8')).toEqual(`${long}\n${short}\n`);
    expect(fs.readdirSync(path.join(tmp, 'dist'))).toEqual([ERRORS_FILE]);
  });

  test('nothing cut: nothing written, the first line as before', () => {
    const message = synthFailureMessage(path.join(tmp, 'dist'), 'dist', ['[a] x (Code)'], ['[a] Code: x']);
    expect(message).toEqual('Synthesis failed with 1 error(s); nothing was written:\n\n[a] Code: x\n');
    expect(fs.existsSync(path.join(tmp, 'dist'))).toBe(false);
  });

  test('a link named SYNTH-ERRORS.txt is replaced, never written through; removeStaleErrors removes the file (or a link), not its target', () => {
    const outside = path.join(tmp, 'ci.yml');
    fs.writeFileSync(outside, 'keep\n');
    fs.mkdirSync(path.join(tmp, 'dist'));
    fs.symlinkSync(outside, path.join(tmp, 'dist', ERRORS_FILE));
    synthFailureMessage(path.join(tmp, 'dist'), 'dist', [long], [readableOf(long)]);
    expect(fs.readFileSync(outside, 'utf8')).toEqual('keep\n');
    expect(fs.lstatSync(path.join(tmp, 'dist', ERRORS_FILE)).isSymbolicLink()).toBe(false);
    fs.rmSync(path.join(tmp, 'dist', ERRORS_FILE));
    fs.symlinkSync(outside, path.join(tmp, 'dist', ERRORS_FILE));
    removeStaleErrors(path.join(tmp, 'dist'));
    expect(fs.readdirSync(path.join(tmp, 'dist'))).toEqual([]);
    expect(fs.readFileSync(outside, 'utf8')).toEqual('keep\n');
  });

  test('a TenancyApp synth that passes removes the SYNTH-ERRORS.txt of an earlier failure', () => {
    const outdir = path.join(tmp, 'dist');
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, ERRORS_FILE), 'old\n');
    const app = new TenancyApp({ outdir, quiet: true });
    new ScopedOperatorTenant(new Chart(app, 'platform'), 'TeamA', { namespaceName: 'team-a' });
    app.synth();
    expect(fs.existsSync(path.join(outdir, ERRORS_FILE))).toBe(false);
  });
});

describe('run as an app (ts-node main.ts, as cdk8s synth runs it)', () => {
  test('the printed finding is cut; the first line names dist/SYNTH-ERRORS.txt, which holds it in full; no manifest is written', () => {
    const root = path.join(__dirname, '..', '..');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-cut-app-'));
    try {
      const main = path.join(tmp, 'main.ts');
      fs.writeFileSync(main, [
        `import { Chart } from ${JSON.stringify(path.dirname(require.resolve('cdk8s/package.json')))};`,
        `import { InstallPlanApproval, OperatorBundle, ScopedOperatorTenant, TenancyApp } from ${JSON.stringify(path.join(root, 'src'))};`,
        'const app = new TenancyApp({ outdir: \'dist\' });',
        'const tenant = new ScopedOperatorTenant(new Chart(app, \'platform\'), \'TeamA\', { namespaceName: \'team-a\', deriveInstallerRules: true });',
        'tenant.subscribe({ packageName: \'grafana-operator\', catalog: { bindSubscriber: (_s: any, ns: string) => ({ name: \'c\', namespace: ns }), checkSubscription: () => [] },',
        `  installPlanApproval: InstallPlanApproval.MANUAL, bundle: OperatorBundle.fromDirectory(${JSON.stringify(GRAFANA_DIR)}) });`,
        'app.synth();',
        '',
      ].join('\n'));
      // ts-node with swc (test/util/run-main.ts; test/app/readable-errors.test.ts runs an app with TypeScript's transpiler)
      const r = runTsMain(main, { cwd: tmp, transpiler: 'swc' });
      expect(r.status).toBe(1);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toEqual('Synthesis failed with 1 error(s); no manifest was written, and the full text of every error is in dist/SYNTH-ERRORS.txt (cut short below):');
      expect(r.stderr).toMatch(/\.\.\. \(\d+ more characters\)\n/);
      const full = fs.readFileSync(path.join(tmp, 'dist', ERRORS_FILE), 'utf8');
      expect(full).toEqual(`${tenantErrors({}, GRAFANA).join('\n')}\n`);
      expect(fs.readdirSync(path.join(tmp, 'dist'))).toEqual([ERRORS_FILE]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
