/**
 * The `cdk8s-olm-tenancy preflight` command: the install preflight and the least-privilege installer rules for one
 * bundle (or every version of a catalog package), without writing a cdk8s app. Not part of the jsii API: the
 * `bin/cdk8s-olm-tenancy` script calls `runCli`.
 *
 * What it reads, it reads as Kubernetes would: `--installer-rules` as `kubectl apply -f` decodes a file (YAML or JSON
 * stream, go-yaml v2 scalars), each Role and ClusterRole applied where its bindings apply it, for the installer
 * ServiceAccount as the RBAC authorizer matches subjects. What it writes, every Kubernetes reader reads as written:
 * the objects through `YamlWriter` (cdk8s's bytes, with the quoting of YAML 1.1), the report as `#` lines in which
 * every character a YAML 1.1 or 1.2 reader, or a terminal, could take as a line break or a control is escaped.
 */
import * as fs from 'fs';
import * as path from 'path';
import { OperatorBundle } from '../bundle/operator-bundle';
import { nearestName } from '../core/input-check';
import { KubernetesNames } from '../core/kubernetes-names';
import { decodeManifestStream, escapeControl, LOADER_LIMITS, readAtMost } from '../core/yaml-or-json';
import { YamlWriter } from '../output/yaml-writer';
import { DefaultInstallerRules } from '../preflight/default-installer-rules';
import { InstallPreflight, PreflightResult } from '../preflight/install-preflight';
import { BindRoleAcceptance, DerivedRoleBind, InstallerPermissions } from '../preflight/installer-permissions';
import { BoundRoleKind, NamespaceRules } from '../preflight/preflight-code';
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

/** Annotations the CLI writes on the objects it derives (the same keys `ScopedOperatorTenant` writes). */
export const REASON_ANNOTATION = 'cdk8s-olm-tenancy.io/reason';
export const BIND_ROLES_ANNOTATION = 'cdk8s-olm-tenancy.io/bind-roles';

/** Why the rules outside the namespace are there, written on each such object. */
const CLUSTER_SCOPED_REASON = 'allowed on the command line with --allow-cluster-scoped';

export const USAGE = `Usage:
  cdk8s-olm-tenancy preflight <bundle-dir> --namespace <ns> [options]
  cdk8s-olm-tenancy preflight --catalog <fbc-file> --package <name> [--bundle <name>] --namespace <ns> [options]
  cdk8s-olm-tenancy --version

Checks, offline, whether OLM can install the bundle (or every version of the catalog package: fresh install and
upgrade) with the installer ServiceAccount of a scoped OperatorGroup, prints every missing rule at once, then the
least-privilege installer Role(s) derived from the bundles, as YAML (the report is YAML comments, so the output can
be saved, applied, and passed back with --installer-rules).

Options, and the library prop each one sets (ScopedOperatorTenantProps, or the static API named):
  <bundle-dir>                a registry+v1 bundle directory (manifests/ + metadata/)
                                = OperatorBundle.fromDirectory(dir), given as subscribe({ bundle })
  --catalog <fbc-file>        a file-based catalog file; with --package <name>: every version of the package,
  --package <name>            with --bundle <name>: that bundle only
  --bundle <name>               = OperatorBundle.fromCatalogPackage(file, package) / fromCatalogFile(file, bundle)
  --namespace <ns>            the OperatorGroup's namespace, a DNS-1123 label (required)
                                = namespaceName
  --targets <a,b,...>         target namespaces (default: the namespace itself)
                                = targetNamespaces: TargetNamespaces.namespaces([...], reason)
  --all-namespaces            the OperatorGroup targets all namespaces
                                = targetNamespaces: TargetNamespaces.allNamespaces(reason)
  --service-account <name>    installer ServiceAccount name (default: the namespace name, as in the OKD docs)
                                = installerServiceAccountName
  --installer-rules <file>    what the installer holds: Roles, ClusterRoles and their RoleBindings and
                              ClusterRoleBindings (YAML or JSON, read as 'kubectl apply -f' reads it; an object
                              without namespace is in --namespace, as with 'kubectl apply -n'). A Role counts in its
                              namespace, a ClusterRole cluster-wide through a ClusterRoleBinding or in the
                              RoleBinding's namespace; only bindings whose subjects include the installer
                              ServiceAccount count (as a ServiceAccount, as the user system:serviceaccount:<ns>:<name>,
                              or as the groups system:serviceaccounts, system:serviceaccounts:<ns>,
                              system:authenticated); roles bound to nobody are named in a warning. A plain list of
                              rules is held in the namespace. (default: the OKD docs' fine-grained Role)
                                = installerRules, clusterInstallerRules (and InstallPreflightProps.otherNamespaceRules)
  --allow-cluster-scoped      also derive rules outside the namespace (a ClusterRole, Roles in kube-system)
                                = clusterScopedInstallerRulesReason (LeastPrivilegeProps.allowClusterScoped)
  --allow-bind-role <role>    accept 'bind' on a role the bundle binds but does not define: ClusterRole/<name>
                              (or just <name>) or Role/<name>; repeatable. The installer can then bind that role
                              to anyone, itself included: accept only roles whose power you would give it.
                                = allowedBindRoles: [{ roleKind, roleName, reason }]
  --version                   the version of cdk8s-olm-tenancy
  -h, --help                  this text
  (--flag=value is the same as --flag value)

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
  allowedBindRoles: BindRoleAcceptance[];
}

/** Bad command line: one line, the message and where the options are listed. */
class UsageError extends Error {}

/** What a usage error ends with. */
const HELP_HINT = "'cdk8s-olm-tenancy --help' lists the options";

/** Runs the CLI with `argv` (without `node` and the script), returning what to print and the exit code. */
export function runCli(argv: string[]): CliOutcome {
  try {
    if (argv.length === 0) return { exitCode: EXIT_USAGE, stdout: '', stderr: `${USAGE}\n` };
    if (argv[0] === '-h' || argv[0] === '--help' || argv[0] === 'help') return { exitCode: EXIT_OK, stdout: `${USAGE}\n`, stderr: '' };
    if (argv[0] === '--version' || argv[0] === 'version') return versionOutcome();
    if (argv[0] !== 'preflight') {
      const suggestion = argv[0].startsWith('-') ? undefined : nearestName(argv[0], ['preflight', 'version', 'help']);
      throw new UsageError(`unknown command '${argv[0]}'${suggestion !== undefined ? `; did you mean '${suggestion}'?` : ''}`);
    }
    const options = parseOptions(argv.slice(1));
    if (options === 'help') return { exitCode: EXIT_OK, stdout: `${USAGE}\n`, stderr: '' };
    if (options === 'version') return versionOutcome();
    return preflight(options);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // one line, as the library's prop errors: what is wrong, the nearest option, where the options are (not the help)
    const usage = e instanceof UsageError ? ` (${HELP_HINT})` : '';
    return { exitCode: EXIT_USAGE, stdout: '', stderr: `cdk8s-olm-tenancy: ${lineText(cliWording(message))}${usage}\n` };
  }
}

function versionOutcome(): CliOutcome {
  return { exitCode: EXIT_OK, stdout: `cdk8s-olm-tenancy ${packageVersion()}\n`, stderr: '' };
}

/**
 * The version in this package's package.json: the first package.json named `cdk8s-olm-tenancy` above this file
 * (src/cli under ts-node and jest, lib/cli when installed; both two levels down, but searched, not assumed).
 */
export function packageVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (pkg !== null && typeof pkg === 'object' && pkg.name === 'cdk8s-olm-tenancy' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no (readable) package.json here: look further up
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return 'unknown';
}

function namespaceProblem(flag: string, v: string): string | undefined {
  // namespace names: ValidateNamespaceName = IsDNS1123Label
  if (KubernetesNames.isDns1123Label(v)) return undefined;
  return `${flag} '${v}' is not a valid namespace name: Kubernetes namespace names are DNS-1123 labels (at most 63 `
    + "characters: lowercase letters, digits and '-', starting and ending with a letter or digit; apimachinery "
    + `IsDNS1123Label). Fix: e.g. ${flag} ${suggestName(v)}`;
}

function suggestName(v: string): string {
  const s = v.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return s === '' ? 'team-a' : s;
}

/** RBAC role names: pkg/apis/rbac/validation ValidateRBACName = path.IsValidPathSegmentName. */
function roleNameProblem(v: string): string | undefined {
  if (v === '') return 'the role name is empty';
  if (v === '.' || v === '..') return `'${v}' may not be a role name`;
  if (/[/%]/.test(v)) return `a role name may not contain '/' or '%' (got '${v}')`;
  return undefined;
}

/** Flags that take a value. */
const VALUE_FLAGS: ReadonlySet<string> = new Set(['--namespace', '--targets', '--installer-rules', '--service-account', '--catalog', '--package', '--bundle', '--allow-bind-role']);
/** Flags that take no value. */
const SWITCHES: ReadonlySet<string> = new Set(['-h', '--help', '--version', '--all-namespaces', '--allow-cluster-scoped']);

/** `unknown option '--namspace'; did you mean '--namespace'?` (the nearest option by edit distance, as for props). */
function unknownOption(a: string): string {
  const suggestion = nearestName(a, [...VALUE_FLAGS, ...SWITCHES].filter((f) => f.startsWith('--')));
  return `unknown option '${a}'${suggestion !== undefined ? `; did you mean '${suggestion}'?` : ''}`;
}

function parseOptions(args: string[]): Options | 'help' | 'version' {
  const o: Options = { allNamespaces: false, allowClusterScoped: false, allowedBindRoles: [] };
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    let a = args[i];
    let v: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      v = a.slice(eq + 1);
      a = a.slice(0, eq);
      if (!VALUE_FLAGS.has(a)) throw new UsageError(SWITCHES.has(a) ? `${a} takes no value` : unknownOption(a));
    } else if (VALUE_FLAGS.has(a)) {
      v = args[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
      i++;
    }
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--version') return 'version';
    if (VALUE_FLAGS.has(a) || SWITCHES.has(a)) {
      if (seen.has(a) && a !== '--allow-bind-role') throw new UsageError(`${a} is given twice`);
      seen.add(a);
    }
    switch (a) {
      case '--namespace': o.namespace = v; break;
      case '--targets': o.targets = v!.split(',').map((s) => s.trim()); break;
      case '--all-namespaces': o.allNamespaces = true; break;
      case '--installer-rules': o.installerRulesFile = v; break;
      case '--service-account': o.serviceAccount = v; break;
      case '--allow-cluster-scoped': o.allowClusterScoped = true; break;
      case '--allow-bind-role': o.allowedBindRoles.push(bindRole(v!)); break;
      case '--catalog': o.catalog = v; break;
      case '--package': o.packageName = v; break;
      case '--bundle': o.bundleName = v; break;
      default:
        if (a.startsWith('-')) throw new UsageError(unknownOption(a));
        if (o.bundleDir !== undefined) throw new UsageError(`only one bundle directory may be given (got '${o.bundleDir}' and '${a}')`);
        o.bundleDir = a;
    }
  }
  if (o.namespace === undefined) throw new UsageError('--namespace is required: the namespace of the OperatorGroup that installs the operator, e.g. --namespace team-a');
  if (o.bundleDir === undefined && o.catalog === undefined) throw new UsageError('give a bundle directory, or --catalog with --package');
  if (o.bundleDir !== undefined && o.catalog !== undefined) throw new UsageError('give either a bundle directory or --catalog, not both');
  if (o.catalog !== undefined && o.packageName === undefined) throw new UsageError('--catalog needs --package');
  if (o.catalog === undefined && (o.packageName !== undefined || o.bundleName !== undefined)) throw new UsageError('--package and --bundle go with --catalog');
  if (o.allNamespaces && o.targets !== undefined) throw new UsageError('give either --targets or --all-namespaces');
  // Values, checked as the API server would check them (exit 2, before any file is read).
  const ns = namespaceProblem('--namespace', o.namespace);
  if (ns !== undefined) throw new Error(ns);
  if (o.targets !== undefined) {
    if (o.targets.length === 1 && o.targets[0] === '') throw new Error('--targets needs at least one namespace (or use --all-namespaces)');
    const dup = o.targets.find((t, i) => o.targets!.indexOf(t) !== i);
    if (dup !== undefined) throw new Error(`--targets lists '${dup}' twice. Fix: list each target namespace once`);
    for (const t of o.targets) {
      const p = namespaceProblem('--targets', t);
      if (p !== undefined) throw new Error(p.replace(/Fix: e\.g\. --targets .*$/, 'Fix: give a comma-separated list of namespace names'));
    }
  }
  if (o.serviceAccount !== undefined && !KubernetesNames.isDns1123Subdomain(o.serviceAccount)) {
    throw new Error(`--service-account '${o.serviceAccount}' is not a valid ServiceAccount name: Kubernetes ServiceAccount names are `
      + "DNS-1123 subdomains (at most 253 characters: lowercase letters, digits, '-' and '.', starting and ending with a letter or "
      + `digit; apimachinery IsDNS1123Subdomain). Fix: e.g. --service-account ${suggestName(o.serviceAccount)}`);
  }
  for (const [flag, v] of [['--package', o.packageName], ['--bundle', o.bundleName], ['--catalog', o.catalog], ['--installer-rules', o.installerRulesFile]] as const) {
    if (v !== undefined && (v.trim() === '' || lineText(v) !== v)) {
      throw new Error(`${flag} '${v}' must be a non-empty name without control characters or line breaks`);
    }
  }
  return o;
}

/** `--allow-bind-role [ClusterRole/|Role/]<name>` as the library's acceptance, with the flag as its reason. */
function bindRole(v: string): BindRoleAcceptance {
  const slash = v.indexOf('/');
  const kindText = slash >= 0 ? v.slice(0, slash) : 'ClusterRole';
  const roleName = slash >= 0 ? v.slice(slash + 1) : v;
  const roleKind = kindText === 'ClusterRole' ? BoundRoleKind.CLUSTER_ROLE : kindText === 'Role' ? BoundRoleKind.ROLE : undefined;
  if (roleKind === undefined) {
    throw new Error(`--allow-bind-role '${v}': the kind must be ClusterRole or Role (got '${kindText}'). Fix: --allow-bind-role ClusterRole/<name> or Role/<name>`);
  }
  const p = roleNameProblem(roleName);
  if (p !== undefined) throw new Error(`--allow-bind-role '${v}': ${p} (RBAC names are path segments: ValidateRBACName). Fix: --allow-bind-role ClusterRole/<name>`);
  return { roleKind, roleName, reason: `accepted on the command line with --allow-bind-role ${roleKind}/${roleName}` };
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

/** What the installer holds, read from `--installer-rules` as Kubernetes applies it. */
export interface HeldRules {
  /** Rules in the tenant namespace. */
  readonly namespaced: PolicyRule[];
  /** Rules cluster-wide (ClusterRoles through ClusterRoleBindings). */
  readonly cluster: PolicyRule[];
  /** Rules in other namespaces. */
  readonly others: NamespaceRules[];
  /** Which role counts where, one line each. */
  readonly applied: string[];
  /** Roles and bindings that do not count for the installer, one line each (printed, not failing). */
  readonly warnings: string[];
}

const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';
const RBAC_KINDS: ReadonlySet<string> = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/**
 * Reads a file of Roles, ClusterRoles and bindings as `kubectl apply -n <namespace> -f <file>` would create them,
 * and returns the rules the installer ServiceAccount `<namespace>/<serviceAccount>` holds, per namespace, as the
 * RBAC authorizer grants them (k8s `pkg/registry/rbac/validation/rule.go` `VisitRulesFor`: ClusterRoleBindings,
 * then the RoleBindings of the namespace, each through its `roleRef`; `appliesToUser` for the subjects).
 * A plain list of rules is held in the namespace. Throws one-line Errors for input Kubernetes would refuse.
 */
export function readInstallerRules(file: string, namespace: string, serviceAccount: string): HeldRules {
  const shown = lineText(file);
  const docs = decodeManifestStream(readLimited(file, shown));
  const plain: PolicyRule[] = [];
  const roles = new Map<string, { kind: string; namespace?: string; name: string; rules: PolicyRule[]; where: string }>();
  const bindings: Array<{ kind: string; namespace?: string; name: string; roleKind: string; roleName: string; applies: boolean; where: string }> = [];
  const ignored: string[] = [];
  const objects: Array<{ value: any; where: string }> = [];
  const decodeWarnings: string[] = [];
  for (const doc of docs) {
    if (doc.error !== undefined) throw new Error(`${shown}:${doc.error.line}: ${doc.error.message}`);
    for (const w of doc.warnings) decodeWarnings.push(`${shown}:${w.line}: ${w.message}`);
    const value: any = doc.value;
    if (value === null || value === undefined) continue;
    const where = `${shown}:${doc.line}`;
    if (Array.isArray(value)) {
      value.forEach((r, i) => plain.push(ruleOf(r, `${where}: rule [${i}]`)));
      continue;
    }
    // the file may be anything the user pointed at (/proc/self/environ): say what it is, never quote it
    if (typeof value !== 'object') throw new Error(`${where}: expected an object (a Role, ClusterRole or binding) or a list of rules, got a ${typeof value}`);
    // a v1 List (`kubectl get -o yaml`): kubectl apply creates its items
    if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
      value.items.forEach((item: unknown, i: number) => objects.push({ value: item, where: `${where}: items[${i}]` }));
    } else {
      objects.push({ value, where });
    }
  }
  const subjectUser = `system:serviceaccount:${namespace}:${serviceAccount}`;
  for (const { value: o, where } of objects) {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new Error(`${where}: expected a Kubernetes object`);
    if (typeof o.kind !== 'string' || o.kind === '') throw new Error(`${where}: the object has no 'kind' (kubectl refuses it: "Object 'Kind' is missing")`);
    const name = o.metadata?.name;
    const id = `${o.kind} ${typeof name === 'string' ? lineText(name) : '<unnamed>'}`;
    if (!RBAC_KINDS.has(o.kind)) {
      ignored.push(id);
      continue;
    }
    if (o.apiVersion !== RBAC_API_VERSION) {
      throw new Error(`${where}: ${id} has apiVersion ${lineText(JSON.stringify(o.apiVersion) ?? 'undefined')}; Kubernetes serves ${o.kind} only as `
        + `${RBAC_API_VERSION}. Fix: set apiVersion: ${RBAC_API_VERSION}`);
    }
    if (typeof name !== 'string' || name === '') throw new Error(`${where}: ${o.kind} needs metadata.name`);
    const clusterScoped = o.kind.startsWith('Cluster');
    const metaNs = o.metadata?.namespace;
    if (metaNs !== undefined && metaNs !== null && metaNs !== '' && (typeof metaNs !== 'string' || namespaceProblem('metadata.namespace', metaNs) !== undefined)) {
      throw new Error(`${where}: ${id}: metadata.namespace ${lineText(JSON.stringify(metaNs))} is not a namespace name (a DNS-1123 label)`);
    }
    // a cluster-scoped object's namespace is ignored by the API server; a namespaced one without it lands in -n
    const ns = clusterScoped ? undefined : (typeof metaNs === 'string' && metaNs !== '' ? metaNs : namespace);
    const shownId = ns === undefined ? id : `${o.kind} ${lineText(ns)}/${lineText(name)}`;
    if (o.kind === 'Role' || o.kind === 'ClusterRole') {
      const list = o.rules ?? [];
      if (!Array.isArray(list)) throw new Error(`${where}: ${shownId}: 'rules' must be a list of policy rules`);
      const rules = list.map((r: unknown, i: number) => ruleOf(r, `${where}: ${shownId}: rules[${i}]`));
      if (o.kind === 'ClusterRole' && o.aggregationRule !== undefined && o.aggregationRule !== null) {
        // the clusterrole-aggregation controller overwrites its rules with those of the ClusterRoles it selects
        decodeWarnings.push(`${shownId} has an aggregationRule: in the cluster its rules are those of the ClusterRoles it selects; `
          + 'only the rules written in the file are counted');
      }
      roles.set(roleKey(o.kind, ns, name), { kind: o.kind, namespace: ns, name, rules, where: shownId });
      continue;
    }
    const ref = o.roleRef;
    if (ref === null || typeof ref !== 'object' || typeof ref.name !== 'string' || ref.name === '' || typeof ref.kind !== 'string') {
      throw new Error(`${where}: ${shownId}: roleRef must name a Role or ClusterRole ({ apiGroup: rbac.authorization.k8s.io, kind, name })`);
    }
    // pkg/apis/rbac/validation ValidateRoleBinding / ValidateClusterRoleBinding; an empty apiGroup is defaulted
    // (pkg/apis/rbac/v1/defaults.go SetDefaults_RoleBinding)
    const kinds = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
    if (!['rbac.authorization.k8s.io', '', undefined, null].includes(ref.apiGroup) || !kinds.includes(ref.kind)) {
      throw new Error(`${where}: ${shownId}: roleRef ${lineText(JSON.stringify(ref))} is refused by the API server: apiGroup must be `
        + `rbac.authorization.k8s.io and kind ${kinds.join(' or ')}`);
    }
    const subjects = o.subjects ?? [];
    if (!Array.isArray(subjects)) throw new Error(`${where}: ${shownId}: 'subjects' must be a list`);
    subjects.forEach((subject: unknown, i: number) => {
      const problem = subjectProblem(subject, clusterScoped);
      if (problem !== undefined) throw new Error(`${where}: ${shownId}: subjects[${i}]: ${problem} (the API server refuses it: rbac validation ValidateRoleBindingSubject)`);
    });
    const applies = subjects.some((s: any) => appliesToInstaller(s, ns ?? '', namespace, serviceAccount, subjectUser));
    bindings.push({ kind: o.kind, namespace: ns, name, roleKind: ref.kind, roleName: ref.name, applies, where: shownId });
  }

  const namespaced: PolicyRule[] = [...plain];
  const cluster: PolicyRule[] = [];
  const others = new Map<string, PolicyRule[]>();
  const applied: string[] = [];
  const warnings: string[] = [...decodeWarnings];
  const used = new Set<string>();
  if (plain.length > 0) applied.push(`a list of ${plain.length} rule(s): held in namespace ${namespace}`);
  for (const b of bindings) {
    const roleNs = b.roleKind === 'Role' ? b.namespace : undefined;
    const key = roleKey(b.roleKind, roleNs, b.roleName);
    const role = roles.get(key);
    const roleShown = roleNs === undefined ? `${b.roleKind} ${lineText(b.roleName)}` : `${b.roleKind} ${lineText(roleNs)}/${lineText(b.roleName)}`;
    if (!b.applies) continue;
    if (role === undefined) {
      warnings.push(`${b.where} binds ${roleShown}, which is not in ${shown}: its rules are not counted`);
      continue;
    }
    used.add(key);
    const scope = b.namespace === undefined ? '' : b.namespace;
    applied.push(`${roleShown} through ${b.where}: ${scope === '' ? 'cluster-wide' : `in namespace ${scope}`}`);
    if (scope === '') cluster.push(...role.rules);
    else if (scope === namespace) namespaced.push(...role.rules);
    else others.set(scope, [...(others.get(scope) ?? []), ...role.rules]);
  }
  for (const [key, role] of roles) {
    if (used.has(key)) continue;
    warnings.push(`${role.where} is not bound to the installer ServiceAccount ${namespace}/${serviceAccount} by any binding in ${shown}: `
      + 'its rules are not counted');
  }
  for (const b of bindings.filter((x) => !x.applies)) {
    warnings.push(`${b.where} does not name the installer ServiceAccount ${namespace}/${serviceAccount} among its subjects: not counted`);
  }
  if (plain.length === 0 && roles.size === 0 && bindings.length === 0) {
    throw new Error(`${shown}: expected Roles or ClusterRoles with their bindings, or a list of rules${ignored.length > 0 ? `; found only ${ignored.join(', ')}` : ''}`);
  }
  if (ignored.length > 0) warnings.push(`${shown}: objects that grant nothing are ignored: ${ignored.join(', ')}`);
  return {
    namespaced,
    cluster,
    others: [...others.keys()].sort().map((ns) => ({ namespace: ns, rules: others.get(ns)! })),
    applied,
    warnings,
  };
}

function roleKey(kind: string, ns: string | undefined, name: string): string {
  return `${kind}\u0000${ns ?? ''}\u0000${name}`;
}

function ruleOf(r: unknown, where: string): PolicyRule {
  try {
    return PolicyRules.fromJson(r);
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}`);
  }
}

/**
 * Why the API server refuses a binding subject (k8s `pkg/apis/rbac/validation/validation.go`
 * `ValidateRoleBindingSubject`, after `pkg/apis/rbac/v1/defaults.go` `SetDefaults_Subject` filled an empty apiGroup).
 */
function subjectProblem(s: any, clusterScoped: boolean): string | undefined {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'a subject must be an object { kind, name, ... }';
  if (typeof s.name !== 'string' || s.name === '') return 'name is required';
  const apiGroup = s.apiGroup === undefined || s.apiGroup === null || s.apiGroup === ''
    ? (s.kind === 'User' || s.kind === 'Group' ? 'rbac.authorization.k8s.io' : '') : s.apiGroup;
  switch (s.kind) {
    case 'ServiceAccount':
      if (!KubernetesNames.isDns1123Subdomain(s.name)) return `ServiceAccount name ${lineText(JSON.stringify(s.name))} is not a DNS-1123 subdomain`;
      if (apiGroup !== '') return `apiGroup ${lineText(JSON.stringify(apiGroup))} is not supported for a ServiceAccount (only "")`;
      if (clusterScoped && (typeof s.namespace !== 'string' || s.namespace === '')) return 'a ServiceAccount subject of a ClusterRoleBinding needs a namespace';
      return undefined;
    case 'User':
    case 'Group':
      return apiGroup === 'rbac.authorization.k8s.io' ? undefined : `apiGroup ${lineText(JSON.stringify(apiGroup))} is not supported for a ${s.kind} (only rbac.authorization.k8s.io)`;
    default:
      return `kind ${lineText(JSON.stringify(s.kind) ?? 'undefined')} is not supported (ServiceAccount, User or Group)`;
  }
}

/**
 * Whether a binding's subject applies to the installer ServiceAccount, as the RBAC authorizer decides:
 * k8s `pkg/registry/rbac/validation/rule.go` `appliesToUser` (a ServiceAccount subject without namespace is in the
 * binding's namespace; none for a ClusterRoleBinding), with the user name and groups a ServiceAccount token
 * authenticates as (`k8s.io/apiserver/pkg/authentication/serviceaccount/util.go` `MakeUsername`, `MakeGroupNames`,
 * plus `system:authenticated` from the authenticator).
 */
function appliesToInstaller(s: any, bindingNamespace: string, namespace: string, serviceAccount: string, user: string): boolean {
  if (s === null || typeof s !== 'object') return false;
  switch (s.kind) {
    case 'User': return s.name === user;
    case 'Group': return s.name === 'system:serviceaccounts' || s.name === `system:serviceaccounts:${namespace}` || s.name === 'system:authenticated';
    case 'ServiceAccount': {
      const saNs = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : bindingNamespace;
      return saNs !== '' && saNs === namespace && s.name === serviceAccount;
    }
    default: return false;
  }
}

/** Reads a file named on the command line with a real byte limit (a FIFO or /proc file may not end, nor report its size). */
function readLimited(file: string, shown: string): string {
  if (!fs.existsSync(file)) throw new Error(`installer rules file '${shown}' does not exist`);
  if (fs.statSync(file).isDirectory()) throw new Error(`installer rules file '${shown}' is a directory`);
  const limit = LOADER_LIMITS.manifestBytes;
  const fd = fs.openSync(file, 'r');
  try {
    const text = readAtMost(fd, limit);
    if (text === undefined) throw new Error(`installer rules file '${shown}' holds more than ${limit} bytes, the limit`);
    return text;
  } finally {
    fs.closeSync(fd);
  }
}

function preflight(o: Options): CliOutcome {
  const namespace = o.namespace!;
  const sa = o.serviceAccount ?? namespace;
  const targetNamespaces = o.allNamespaces ? [] : o.targets ?? [namespace];
  const held = o.installerRulesFile !== undefined ? readInstallerRules(o.installerRulesFile, namespace, sa) : undefined;
  const bundles = loadBundles(o);
  const rules = {
    installerRules: held?.namespaced ?? DefaultInstallerRules.okdScopedInstall(),
    clusterInstallerRules: held?.cluster ?? [],
    otherNamespaceRules: held?.others ?? [],
  };
  const rulesSource = o.installerRulesFile !== undefined ? lineText(o.installerRulesFile) : "the OKD docs' fine-grained Role";
  // A single bundle is a fresh install; a package's versions are checked as OLM's update path too.
  const results: PreflightResult[] = bundles.length === 1 && o.catalog === undefined
    ? [InstallPreflight.check({ bundle: bundles[0], namespace, targetNamespaces, ...rules })]
    : InstallPreflight.checkVersions({ bundles, namespace, targetNamespaces, ...rules });
  const derived = InstallerPermissions.leastPrivilege({
    bundles, namespace, targetNamespaces, allowClusterScoped: o.allowClusterScoped, allowedBindRoles: o.allowedBindRoles,
  });

  const lines: string[] = [];
  const targets = o.allNamespaces ? 'all namespaces' : targetNamespaces.join(', ');
  lines.push(`Preflight of ${bundles.length} bundle(s) in namespace ${namespace} (targets: ${targets}) with ${rulesSource}:`);
  if (held !== undefined) {
    for (const a of held.applied) lines.push(`  installer rules: ${a}`);
    for (const w of held.warnings) lines.push(`  warning: ${w}`);
  }
  for (const r of results) lines.push(...InstallPreflight.format(r));
  const failing = results.filter((r) => !r.ok).length;
  lines.push(failing === 0 ? 'Result: OLM would install every checked bundle.' : `Result: OLM would FAIL on ${failing} of ${results.length} bundle(s).`);
  lines.push('');
  lines.push(`Least-privilege installer rules derived from the bundle(s)${o.allowClusterScoped ? ' (rules outside the namespace allowed)' : ''}:`);
  for (const p of derived.problems) lines.push(`  still not installable: ${p.code}: ${p.message}`);
  for (const b of derived.boundRoles) lines.push(`  bind on ${bindText(b)}`);

  const subject = { kind: 'ServiceAccount', name: sa, namespace };
  const bindAnnotation = (ns: string) => {
    const binds = derived.boundRoles.filter((b) => b.namespace === ns);
    return binds.length === 0 ? undefined : binds.map((b) => `${b.roleKind} ${b.roleName}: ${cliWording(b.reason)}`).join('; ');
  };
  const metadata = (name: string, ns: string | undefined, annotations: Array<[string, string | undefined]>) => {
    const a: Record<string, string> = {};
    for (const [k, v] of annotations) if (v !== undefined) a[k] = v;
    return { ...(Object.keys(a).length > 0 ? { annotations: a } : {}), name, ...(ns === undefined ? {} : { namespace: ns }) };
  };
  const role = (kind: string, name: string, ns: string | undefined, ruleList: PolicyRule[], annotations: Array<[string, string | undefined]>) => ({
    apiVersion: RBAC_API_VERSION,
    kind,
    metadata: metadata(name, ns, annotations),
    rules: ruleList.map((r) => PolicyRules.toJson(r)),
  });
  const binding = (kind: string, roleKind: string, name: string, ns: string | undefined) => ({
    apiVersion: RBAC_API_VERSION,
    kind,
    metadata: metadata(name, ns, []),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name },
    subjects: [subject],
  });
  const docs: unknown[] = [];
  docs.push(role('Role', sa, namespace, derived.namespacedRules, [[BIND_ROLES_ANNOTATION, bindAnnotation(namespace)]]), binding('RoleBinding', 'Role', sa, namespace));
  const outsideName = `${namespace}-olm-installer`;
  if (derived.clusterRules.length > 0) {
    docs.push(
      role('ClusterRole', outsideName, undefined, derived.clusterRules, [[BIND_ROLES_ANNOTATION, bindAnnotation('')], [REASON_ANNOTATION, CLUSTER_SCOPED_REASON]]),
      binding('ClusterRoleBinding', 'ClusterRole', outsideName, undefined));
  }
  for (const other of derived.otherNamespaceRules) {
    if (other.rules.length === 0) continue;
    docs.push(
      role('Role', outsideName, other.namespace, other.rules, [[BIND_ROLES_ANNOTATION, bindAnnotation(other.namespace)], [REASON_ANNOTATION, CLUSTER_SCOPED_REASON]]),
      binding('RoleBinding', 'Role', outsideName, other.namespace));
  }
  const header = lines.map((l) => (l === '' ? '#' : `# ${lineText(cliWording(l))}`)).join('\n');
  return { exitCode: failing === 0 ? EXIT_OK : EXIT_WOULD_FAIL, stdout: `${header}\n---\n${YamlWriter.stringify(docs)}`, stderr: '' };
}

function bindText(b: DerivedRoleBind): string {
  return `${b.roleKind} ${b.roleName} (${b.namespace === '' ? 'cluster-wide' : `in ${b.namespace}`}): ${b.reason}`;
}

/**
 * The library's fix texts name its props (a cdk8s app's way to say it); the CLI user needs the flag. Specific
 * sentences first, then any remaining prop name (test/cli/preflight-command.test.ts checks that none is left on any
 * bundle of the fixtures).
 */
const CLI_WORDING: Array<[RegExp, string]> = [
  [/accepted by allowedBindRoles: /g, ''],
  [/load the registry\+v1 bundle directory \(manifests\/ \+ metadata\/\) with OperatorBundle\.fromDirectory/g,
    'pass the registry+v1 bundle directory (manifests/ + metadata/) instead of --catalog'],
  [/ \(ScopedOperatorTenant allowedBindRoles \/ LeastPrivilegeProps\.allowedBindRoles\)/g, ' (--allow-bind-role ClusterRole/<name> or Role/<name>)'],
  [/e\.g\. from InstallerPermissions\.leastPrivilege with allowClusterScoped/g, 'e.g. the rules this command prints with --allow-cluster-scoped, passed back with --installer-rules'],
  [/left out because allowClusterScoped is false/g, 'left out without --allow-cluster-scoped'],
  [/Fix: set allowClusterScoped \(a cluster admin decision\)/g, 'Fix: pass --allow-cluster-scoped (a cluster admin decision)'],
  [/Fix: change the OperatorGroup's target namespaces/g, "Fix: change the OperatorGroup's target namespaces (--targets, --all-namespaces)"],
  [/\b(?:LeastPrivilegeProps\.|ScopedOperatorTenantProps\.)?allowClusterScoped\b/g, '--allow-cluster-scoped'],
  [/\b(?:LeastPrivilegeProps\.|ScopedOperatorTenantProps\.)?clusterScopedInstallerRulesReason\b/g, '--allow-cluster-scoped'],
  [/\b(?:LeastPrivilegeProps\.|ScopedOperatorTenantProps\.)?allowedBindRoles\b/g, '--allow-bind-role'],
  [/\bclusterInstallerRules\b/g, '--installer-rules (a ClusterRole and ClusterRoleBinding)'],
  [/\binstallerRules\b/g, '--installer-rules'],
];

/** A library message in the CLI's words (see `CLI_WORDING`). */
export function cliWording(s: string): string {
  let out = s;
  for (const [re, to] of CLI_WORDING) out = out.replace(re, to);
  return out;
}

/**
 * Text for one report or error line: every character that a YAML 1.1 or 1.2 reader or a terminal could take as a
 * line break or a control, and every character go-yaml v2 refuses in a file, as a `\uXXXX` escape (`escapeControl`).
 */
export function lineText(s: string): string {
  return escapeControl(s);
}
