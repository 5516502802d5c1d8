import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { InstallerPermissions, OperatorBundle, PolicyRules } from '../../src';
import { EXIT_OK, EXIT_USAGE, EXIT_WOULD_FAIL, runCli, USAGE } from '../../src/cli/preflight-command';

const ETCD = path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4');
const GRAFANA = path.join(__dirname, '..', 'fixtures', 'bundles', 'grafana-operator', '5.24.0');
const CATALOG = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml');

/** The YAML objects after the report (the report is YAML comments). */
function objects(stdout: string): any[] {
  return YAML.parseAllDocuments(stdout).map((d) => d.toJS()).filter((o) => o !== null);
}

function reportLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('#'));
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-cli-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('cdk8s-olm-tenancy preflight <bundle-dir>', () => {
  test("GIVEN etcd 0.9.4 and the OKD docs' default Role THEN exit 1 and every missing rule at once", () => {
    const out = runCli(['preflight', ETCD, '--namespace', 'team-a']);
    expect(out.exitCode).toBe(EXIT_WOULD_FAIL);
    expect(out.stderr).toBe('');
    expect(reportLines(out.stdout).slice(0, 7)).toEqual([
      "# Preflight of 1 bundle(s) in namespace team-a (targets: team-a) with the OKD docs' fine-grained Role:",
      '# etcdoperator.v0.9.4 (0.9.4): would FAIL to install',
      '#   missing 4 rule(s):',
      '#     Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]',
      '#     Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]',
      '#     Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]',
      '#     Namespace:"team-a" APIGroups:[etcd.database.coreos.com] Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*]',
    ]);
    expect(reportLines(out.stdout)).toContain('# Result: OLM would FAIL on 1 of 1 bundle(s).');
  });

  test('GIVEN the same bundle THEN the YAML is the derived Role and its RoleBinding for the installer ServiceAccount', () => {
    const out = runCli(['preflight', ETCD, '--namespace', 'team-a', '--service-account', 'installer']);
    const derived = InstallerPermissions.leastPrivilege({ bundles: [OperatorBundle.fromDirectory(ETCD)], namespace: 'team-a', targetNamespaces: ['team-a'] });
    expect(objects(out.stdout)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'installer', namespace: 'team-a' },
        rules: derived.namespacedRules.map((r) => PolicyRules.toJson(r)),
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'installer', namespace: 'team-a' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installer' },
        subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-a' }],
      },
    ]);
  });

  test('GIVEN the derived Role saved to a file and passed back as --installer-rules THEN exit 0', () => {
    const first = runCli(['preflight', ETCD, '--namespace', 'team-a']);
    const file = path.join(tmp, 'role.yaml');
    fs.writeFileSync(file, first.stdout);
    const second = runCli(['preflight', ETCD, '--namespace', 'team-a', '--installer-rules', file]);
    expect(second.exitCode).toBe(EXIT_OK);
    expect(reportLines(second.stdout).slice(0, 2)).toEqual([
      `# Preflight of 1 bundle(s) in namespace team-a (targets: team-a) with ${file}:`,
      '# etcdoperator.v0.9.4 (0.9.4): installs',
    ]);
    expect(reportLines(second.stdout)).toContain('# Result: OLM would install every checked bundle.');
  });

  test('GIVEN a plain list of rules as --installer-rules THEN it is read as the installer rules', () => {
    const file = path.join(tmp, 'rules.json');
    fs.writeFileSync(file, JSON.stringify([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]));
    const out = runCli(['preflight', ETCD, '--namespace', 'team-a', '--installer-rules', file]);
    expect(out.exitCode).toBe(EXIT_OK);
  });

  test('GIVEN an operator with cluster permissions THEN the cluster rules are derived only with --allow-cluster-scoped', () => {
    const confined = runCli(['preflight', GRAFANA, '--namespace', 'team-a']);
    expect(objects(confined.stdout).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Role/team-a', 'RoleBinding/team-a']);
    expect(reportLines(confined.stdout).some((l) => l.startsWith('#   still not installable: NeedsClusterScopedRules: '))).toBe(true);

    const open = runCli(['preflight', GRAFANA, '--namespace', 'team-a', '--allow-cluster-scoped']);
    expect(objects(open.stdout).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Role/team-a', 'RoleBinding/team-a', 'ClusterRole/team-a-olm-installer', 'ClusterRoleBinding/team-a-olm-installer',
    ]);
    const derived = InstallerPermissions.leastPrivilege({
      bundles: [OperatorBundle.fromDirectory(GRAFANA)], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true,
    });
    expect(objects(open.stdout)[2].rules).toEqual(derived.clusterRules.map((r) => PolicyRules.toJson(r)));
  });

  test('GIVEN --targets or --all-namespaces THEN the OperatorGroup shape is checked (etcd supports no AllNamespaces)', () => {
    const out = runCli(['preflight', ETCD, '--namespace', 'team-a', '--all-namespaces']);
    expect(out.exitCode).toBe(EXIT_WOULD_FAIL);
    expect(reportLines(out.stdout)[0]).toBe("# Preflight of 1 bundle(s) in namespace team-a (targets: all namespaces) with the OKD docs' fine-grained Role:");
    expect(reportLines(out.stdout).some((l) => l.startsWith('#   problem UnsupportedOperatorGroup: etcdoperator.v0.9.4: '))).toBe(true);
  });
});

describe('cdk8s-olm-tenancy preflight --catalog', () => {
  test('GIVEN a package of a file-based catalog THEN every version is checked as the update path', () => {
    const out = runCli(['preflight', '--catalog', CATALOG, '--package', 'odf-node-recovery-operator', '--namespace', 'team-a', '--all-namespaces', '--allow-cluster-scoped']);
    const lines = reportLines(out.stdout);
    expect(lines[0]).toBe("# Preflight of 2 bundle(s) in namespace team-a (targets: all namespaces) with the OKD docs' fine-grained Role:");
    expect(lines.filter((l) => /^# odf-node-recovery-operator\.v1\.[01]\.0 /.test(l))).toEqual([
      '# odf-node-recovery-operator.v1.0.0 (1.0.0): would FAIL to install',
      '# odf-node-recovery-operator.v1.1.0 (1.1.0): would FAIL to install',
    ]);
    expect(out.exitCode).toBe(EXIT_WOULD_FAIL);
  });

  test('GIVEN --bundle THEN only that bundle is checked', () => {
    const out = runCli(['preflight', '--catalog', CATALOG, '--package', 'odf-node-recovery-operator', '--bundle', 'odf-node-recovery-operator.v1.0.0', '--namespace', 'team-a', '--all-namespaces']);
    expect(reportLines(out.stdout)[0]).toBe("# Preflight of 1 bundle(s) in namespace team-a (targets: all namespaces) with the OKD docs' fine-grained Role:");
  });
});

describe('usage and input errors exit 2 with one clear line', () => {
  test.each([
    [[], undefined],
    [['deploy'], "cdk8s-olm-tenancy: unknown command 'deploy'"],
    [['preflight', ETCD], 'cdk8s-olm-tenancy: --namespace is required'],
    [['preflight', '--namespace', 'a'], 'cdk8s-olm-tenancy: give a bundle directory, or --catalog with --package'],
    [['preflight', ETCD, '--namespace'], 'cdk8s-olm-tenancy: --namespace needs a value'],
    [['preflight', ETCD, '--namespace', 'a', '--bogus'], "cdk8s-olm-tenancy: unknown option '--bogus'"],
    [['preflight', ETCD, '--namespace', 'a', '--targets', 'x', '--all-namespaces'], 'cdk8s-olm-tenancy: give either --targets or --all-namespaces'],
    [['preflight', '--catalog', CATALOG, '--namespace', 'a'], 'cdk8s-olm-tenancy: --catalog needs --package'],
  ])('argv case %#', (argv, first) => {
    const out = runCli(argv as string[]);
    expect(out.exitCode).toBe(EXIT_USAGE);
    expect(out.stdout).toBe('');
    if (first !== undefined) expect(out.stderr.split('\n')[0]).toBe(first);
    expect(out.stderr).toContain(USAGE);
  });

  test('GIVEN a bundle directory that does not exist THEN it says so (no usage text)', () => {
    const out = runCli(['preflight', path.join(tmp, 'nope'), '--namespace', 'a']);
    expect(out).toEqual({ exitCode: EXIT_USAGE, stdout: '', stderr: `cdk8s-olm-tenancy: bundle directory '${path.join(tmp, 'nope')}' does not exist\n` });
  });

  test('GIVEN --help THEN the usage on stdout and exit 0', () => {
    expect(runCli(['--help'])).toEqual({ exitCode: EXIT_OK, stdout: `${USAGE}\n`, stderr: '' });
    expect(runCli(['preflight', '--help'])).toEqual({ exitCode: EXIT_OK, stdout: `${USAGE}\n`, stderr: '' });
  });
});
