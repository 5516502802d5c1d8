/**
 * The `cdk8s-olm-tenancy preflight` command: the install preflight and the least-privilege installer rules for one
 * bundle (or every version of a catalog package), without writing a cdk8s app. Not part of the jsii API: the
 * `bin/cdk8s-olm-tenancy` script calls `runCli`.
 */
import * as fs from 'fs';
import * as YAML from 'yaml';
import { OperatorBundle } from '../bundle/operator-bundle';
import { DefaultInstallerRules } from '../preflight/default-installer-rules';
import { InstallerPermissions, InstallPreflight, PreflightResult } from '../preflight/install-preflight';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';

/** What the command writes and returns; the bin script maps it to the process. */
export interface CliOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Exit codes: 0 OLM would install, 1 OLM would fail, 2 usage or input error. */
export const EXIT_OK = 0;
export const EXIT_WOULD_FAIL = 1;
export const EXIT_USAGE = 2;

export const USAGE = `Usage:
  cdk8s-olm-tenancy preflight <bundle-dir> --namespace <ns> [options]
  cdk8s-olm-tenancy preflight --catalog <fbc-file> --package <name> [--bundle <name>] --namespace <ns> [options]

Checks, offline, whether OLM can install the bundle (or every version of the catalog package: fresh install and
upgrade) with the installer ServiceAccount of a scoped OperatorGroup, prints every missing rule at once, then the
least-privilege installer Role(s) derived from the bundles, as YAML (the report is YAML comments, so the output can
be saved and applied).

Options:
  --namespace <ns>            the OperatorGroup's namespace (required)
  --targets <a,b,...>         target namespaces (default: the namespace itself)
  --all-namespaces            the OperatorGroup targets all namespaces
  --installer-rules <file>    YAML/JSON Role or ClusterRole (or a list of rules) the installer holds
                              (default: the OKD docs' fine-grained Role, DefaultInstallerRules.okdScopedInstall)
  --service-account <name>    installer ServiceAccount name (default: the namespace name, as in the OKD docs)
  --allow-cluster-scoped      also derive rules outside the namespace (ClusterRole, Roles in kube-system)
  -h, --help                  this text

Exit code: 0 when OLM would install every checked bundle, 1 when it would fail, 2 on bad usage or input.`;

interface Options {
  bundleDir?: string;
  catalog?: string;
  packageName?: string;
  bundleName?: string;
  namespace?: string;
  targets?: string[];
  allNamespaces: boolean;
  installerRulesFile?: string;
  serviceAccount?: string;
  allowClusterScoped: boolean;
}

class UsageError extends Error {}

/** Runs the CLI with `argv` (without `node` and the script), returning what to print and the exit code. */
export function runCli(argv: string[]): CliOutcome {
  try {
    if (argv.length === 0 || argv[0] === '-h' || argv[0] === '--help' || argv[0] === 'help') {
      return { exitCode: argv.length === 0 ? EXIT_USAGE : EXIT_OK, stdout: argv.length === 0 ? '' : `${USAGE}\n`, stderr: argv.length === 0 ? `${USAGE}\n` : '' };
    }
    if (argv[0] !== 'preflight') throw new UsageError(`unknown command '${argv[0]}'`);
    const options = parseOptions(argv.slice(1));
    if (options === 'help') return { exitCode: EXIT_OK, stdout: `${USAGE}\n`, stderr: '' };
    return preflight(options);
  } catch (e) {
    const message = (e as Error).message;
    const usage = e instanceof UsageError ? `\n\n${USAGE}` : '';
    return { exitCode: EXIT_USAGE, stdout: '', stderr: `cdk8s-olm-tenancy: ${oneLine(message)}${usage}\n` };
  }
}

function parseOptions(args: string[]): Options | 'help' {
  const o: Options = { allNamespaces: false, allowClusterScoped: false };
  const value = (i: number, flag: string): string => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    switch (a) {
      case '-h': case '--help': return 'help';
      case '--namespace': o.namespace = value(i, a); i++; break;
      case '--targets': o.targets = value(i, a).split(',').map((s) => s.trim()).filter((s) => s !== ''); i++; break;
      case '--all-namespaces': o.allNamespaces = true; break;
      case '--installer-rules': o.installerRulesFile = value(i, a); i++; break;
      case '--service-account': o.serviceAccount = value(i, a); i++; break;
      case '--allow-cluster-scoped': o.allowClusterScoped = true; break;
      case '--catalog': o.catalog = value(i, a); i++; break;
      case '--package': o.packageName = value(i, a); i++; break;
      case '--bundle': o.bundleName = value(i, a); i++; break;
      default:
        if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
        if (o.bundleDir !== undefined) throw new UsageError(`only one bundle directory may be given (got '${o.bundleDir}' and '${a}')`);
        o.bundleDir = a;
    }
  }
  if (o.namespace === undefined) throw new UsageError('--namespace is required');
  if (o.bundleDir === undefined && o.catalog === undefined) throw new UsageError('give a bundle directory, or --catalog with --package');
  if (o.bundleDir !== undefined && o.catalog !== undefined) throw new UsageError('give either a bundle directory or --catalog, not both');
  if (o.catalog !== undefined && o.packageName === undefined) throw new UsageError('--catalog needs --package');
  if (o.catalog === undefined && (o.packageName !== undefined || o.bundleName !== undefined)) throw new UsageError('--package and --bundle go with --catalog');
  if (o.allNamespaces && o.targets !== undefined) throw new UsageError('give either --targets or --all-namespaces');
  if (o.targets !== undefined && o.targets.length === 0) throw new UsageError('--targets needs at least one namespace');
  return o;
}

function loadBundles(o: Options): OperatorBundle[] {
  if (o.bundleDir !== undefined) {
    if (!fs.existsSync(o.bundleDir)) throw new Error(`bundle directory '${o.bundleDir}' does not exist`);
    return [OperatorBundle.fromDirectory(o.bundleDir)];
  }
  const file = o.catalog!;
  if (!fs.existsSync(file)) throw new Error(`catalog file '${file}' does not exist`);
  if (o.bundleName !== undefined) return [OperatorBundle.fromCatalogFile(file, o.bundleName)];
  return OperatorBundle.fromCatalogPackage(file, o.packageName!);
}

/**
 * Installer rules from a file: the rules of every Role/ClusterRole in it (other kinds, e.g. the bindings this command
 * prints, are skipped), or a plain list of rules.
 */
function loadRules(file: string): PolicyRule[] {
  if (!fs.existsSync(file)) throw new Error(`installer rules file '${file}' does not exist`);
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'));
  const rules: PolicyRule[] = [];
  let found = false;
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value) && (typeof value !== 'object' || !['Role', 'ClusterRole'].includes(value.kind))) continue;
    const list = Array.isArray(value) ? value : value.rules ?? [];
    if (!Array.isArray(list)) throw new Error(`${file}: the 'rules' of ${value.kind} '${value.metadata?.name}' must be a list`);
    list.forEach((r: unknown) => rules.push(PolicyRules.fromJson(r)));
    found = true;
  }
  if (!found) throw new Error(`${file}: expected Role or ClusterRole objects with 'rules', or a list of rules`);
  return rules;
}

function preflight(o: Options): CliOutcome {
  const namespace = o.namespace!;
  const targetNamespaces = o.allNamespaces ? [] : o.targets ?? [namespace];
  const bundles = loadBundles(o);
  const installerRules = o.installerRulesFile !== undefined ? loadRules(o.installerRulesFile) : DefaultInstallerRules.okdScopedInstall();
  const rulesSource = o.installerRulesFile ?? "the OKD docs' fine-grained Role";
  // A single bundle is a fresh install; a package's versions are checked as OLM's update path too.
  const results: PreflightResult[] = bundles.length === 1 && o.catalog === undefined
    ? [InstallPreflight.check({ bundle: bundles[0], namespace, targetNamespaces, installerRules })]
    : InstallPreflight.checkVersions({ bundles, namespace, targetNamespaces, installerRules });
  const derived = InstallerPermissions.leastPrivilege({ bundles, namespace, targetNamespaces, allowClusterScoped: o.allowClusterScoped });

  const lines: string[] = [];
  const targets = o.allNamespaces ? 'all namespaces' : targetNamespaces.join(', ');
  lines.push(`Preflight of ${bundles.length} bundle(s) in namespace ${namespace} (targets: ${targets}) with ${rulesSource}:`);
  for (const r of results) lines.push(...InstallPreflight.format(r));
  const failing = results.filter((r) => !r.ok).length;
  lines.push(failing === 0 ? 'Result: OLM would install every checked bundle.' : `Result: OLM would FAIL on ${failing} of ${results.length} bundle(s).`);
  lines.push('');
  lines.push(`Least-privilege installer rules derived from the bundle(s)${o.allowClusterScoped ? ' (rules outside the namespace allowed)' : ''}:`);
  for (const p of derived.problems) lines.push(`  still not installable: ${p.code}: ${p.message}`);

  const sa = o.serviceAccount ?? namespace;
  const docs: any[] = [];
  const subject = { kind: 'ServiceAccount', name: sa, namespace };
  const role = (kind: string, name: string, ns: string | undefined, rules: PolicyRule[]) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: ns === undefined ? { name } : { name, namespace: ns },
    rules: rules.map((r) => PolicyRules.toJson(r)),
  });
  const binding = (kind: string, roleKind: string, name: string, ns: string | undefined) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: ns === undefined ? { name } : { name, namespace: ns },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name },
    subjects: [subject],
  });
  docs.push(role('Role', sa, namespace, derived.namespacedRules), binding('RoleBinding', 'Role', sa, namespace));
  const outsideName = `${namespace}-olm-installer`;
  if (derived.clusterRules.length > 0) {
    docs.push(role('ClusterRole', outsideName, undefined, derived.clusterRules), binding('ClusterRoleBinding', 'ClusterRole', outsideName, undefined));
  }
  for (const other of derived.otherNamespaceRules) {
    if (other.rules.length === 0) continue;
    docs.push(role('Role', outsideName, other.namespace, other.rules), binding('RoleBinding', 'Role', outsideName, other.namespace));
  }
  const header = lines.map((l) => (l === '' ? '#' : `# ${oneLine(l)}`)).join('\n');
  const yaml = docs.map((d) => YAML.stringify(d, { lineWidth: 0 })).join('---\n');
  return { exitCode: failing === 0 ? EXIT_OK : EXIT_WOULD_FAIL, stdout: `${header}\n---\n${yaml}`, stderr: '' };
}

/** Messages may quote input: keep every line of the report one line. */
function oneLine(s: string): string {
  return s.replace(/\r?\n/g, '\\n');
}
