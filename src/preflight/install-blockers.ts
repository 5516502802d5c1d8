/**
 * What both preflight engines refuse and how they say it: rules a scoped installer must never hold (CRD and
 * APIService writes, escalation rights), binds of roles the bundle does not define, objects OLM cannot install, and
 * the runtime check of the engines' props. Private to src/preflight (not exported by its index.ts).
 */
import { ExternalRoleBind, InstallModel, Requirement } from './install-plan-model';
import { BoundRoleKind, NamespaceRules, PreflightCode, PreflightFinding } from './preflight-code';
import { InstallModeFailureReason } from '../bundle/install-modes';
import { OperatorBundle } from '../bundle/operator-bundle';
import { checkRuleShape, InputCheck, throwIfInvalid } from '../core/input-check';
import { escapeControl } from '../core/yaml-or-json';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', '*']);

const ESCALATION_VERBS: ReadonlySet<string> = new Set(['escalate', 'bind', 'impersonate', '*']);

const SENSITIVE_RESOURCES: ReadonlySet<string> = new Set(['customresourcedefinitions', 'apiservices', 'roles', 'clusterroles', 'users', 'groups', 'serviceaccounts', '*']);

/**
 * Why a scoped installer must never hold this atom: 'crd' (writes CRDs or APIServices, including through `*`),
 * 'escalation' (`escalate`/`bind` on any role, or `impersonate`, not limited by resourceNames: it would bypass the API server's escalation check and
 * so allow anything, CRD writes included), or undefined.
 */
function forbidden(atom: PolicyRule): 'crd' | 'escalation' | undefined {
  if (atom.nonResourceUrls !== undefined && atom.nonResourceUrls.length > 0) return undefined;
  const g = atom.apiGroups?.[0];
  const r = atom.resources?.[0];
  const v = atom.verbs[0];
  if (g === undefined || r === undefined) return undefined;
  const anyOf = (x: string, ...vals: string[]) => x === '*' || vals.includes(x);
  if (WRITE_VERBS.has(v) && ((anyOf(g, 'apiextensions.k8s.io') && anyOf(r, 'customresourcedefinitions'))
    || (anyOf(g, 'apiregistration.k8s.io') && anyOf(r, 'apiservices')))) return 'crd';
  // Limited by resourceNames (bind on one named role) is bounded: the least-privilege form, allowed.
  if (atom.resourceNames !== undefined && atom.resourceNames.length > 0) return undefined;
  if (anyOf(v, 'escalate', 'bind') && anyOf(g, 'rbac.authorization.k8s.io') && anyOf(r, 'roles', 'clusterroles')) return 'escalation';
  if (anyOf(v, 'impersonate') && anyOf(g, '', 'authentication.k8s.io') && anyOf(r, 'users', 'groups', 'serviceaccounts')) return 'escalation';
  return undefined;
}

/** Splits rules into atoms the installer may hold and atoms it must never hold (see `forbidden`). */
export function splitWrites(rules: PolicyRule[]): [PolicyRule[], PolicyRule[]] {
  if (!rules.some((r) => (r.verbs ?? []).some((v) => WRITE_VERBS.has(v) || ESCALATION_VERBS.has(v))
    && (r.resources ?? []).some((x) => SENSITIVE_RESOURCES.has(x)))) {
    return [rules, []];
  }
  const ok: PolicyRule[] = [];
  const bad: PolicyRule[] = [];
  for (const atom of RbacRules.breakdown(rules)) (forbidden(atom) === undefined ? ok : bad).push(atom);
  return [ok, bad];
}

/** Forbidden write atoms per namespace, with the InstallPlan steps that need them. */
export type WritesByNamespace = Map<string, { atoms: PolicyRule[]; steps: Set<string> }>;

/** Records a step's forbidden write atoms (none: nothing recorded). */
export function addWrites(writes: WritesByNamespace, namespace: string, atoms: PolicyRule[], step: string): void {
  if (atoms.length === 0) return;
  const w = writes.get(namespace) ?? { atoms: [], steps: new Set<string>() };
  w.atoms.push(...atoms);
  w.steps.add(step);
  writes.set(namespace, w);
}

export function writesProblem(bundle: OperatorBundle, writes: WritesByNamespace): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  for (const kind of ['crd', 'escalation'] as const) {
    const rules: string[] = [];
    const steps = new Set<string>();
    for (const [ns, w] of [...writes.entries()].sort()) {
      const atoms = w.atoms.filter((a) => forbidden(a) === kind);
      if (atoms.length === 0) continue;
      rules.push(...RbacRules.compact(atoms).map((r) => RbacRules.format(r, ns)));
      w.steps.forEach((s) => steps.add(s));
    }
    if (rules.length === 0) continue;
    const held = `${bundle.name} cannot be installed through a scoped tenant: installing it needs the installer to hold ${rules.join('; ')} `
      + `(${[...steps].sort().join('; ')}).`;
    out.push(kind === 'crd' ? {
      code: PreflightCode.WRITES_CRDS_OR_APISERVICES,
      message: `${held} A scoped installer must never write CRDs or APIServices (they are cluster-wide). `
        + 'Fix: have a cluster admin install this operator (e.g. in an admin-owned namespace).',
    } : {
      code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
      message: `${held} With escalate, bind or impersonate the installer could grant itself anything, so a scoped installer must `
        + 'never hold them. Fix: have a cluster admin install this operator.',
    });
  }
  return out;
}

/**
 * A bundle binds roles it does not define. Holding `bind` on such a role is only needed when the installer does not
 * hold the role's rules (k8s `pkg/registry/rbac/escalation_check.go` BindingAuthorized, else `rbac/validation`
 * ConfirmNoEscalation), so every such `bind` is an escalation whose danger is the bound role's power.
 */
export function externalBindProblem(
  bundle: OperatorBundle, namespace: string, refused: Array<{ bind: ExternalRoleBind; step: string }>,
): PreflightFinding {
  const roles = [...new Set(refused.map((r) => `${r.bind.roleKind} ${r.bind.roleName}${r.bind.namespace === '' ? ' (cluster-wide)' : ` (in ${r.bind.namespace})`}`))].sort();
  const steps = [...new Set(refused.map((r) => r.step))].sort();
  return {
    code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
    message: `${bundle.name} binds ${roles.join(', ')}, which no manifest of the bundle defines (${steps.join('; ')}): the installer could `
      + `only create these bindings with 'bind' on the role, and holding it lets the installer, whose token is in namespace ${namespace}, bind `
      + 'that role to itself: an escalation as large as the role. Not derived. Fix: have a cluster admin install this operator, or accept '
      + 'each role by name with a reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles).',
  };
}

/** A named `bind` in the operator's own rules (CSV permissions, bundle Roles) on a role no manifest of the bundle defines. */
export interface AskedBind {
  /** The atom of the operator's rules that grants it (one verb, group, resource and name). */
  readonly atom: PolicyRule;
  /** The bound roles (a `*` resource names both kinds). */
  readonly binds: ExternalRoleBind[];
}

/**
 * The operator's own rules of `req` (the RBAC escalation check makes the installer hold them) that grant `bind` (or
 * `*`) on named roles no manifest of `bundle` defines. The installer must then hold the same bind where the rules
 * apply; cluster-wide, it can bind such a role (its rules unknown, e.g. `admin`) to itself in every namespace
 * (k8s `pkg/registry/rbac/escalation_check.go` BindingAuthorized), the same power as a manifest binding of it.
 * Unnamed binds are refused anyway (`forbidden`).
 */
export function askedBinds(bundle: OperatorBundle, req: Requirement, atoms: PolicyRule[]): AskedBind[] {
  if (!req.escalation) return [];
  const defined = definedRoles(bundle);
  const out: AskedBind[] = [];
  for (const atom of atoms) {
    const v = atom.verbs[0];
    const g = atom.apiGroups?.[0];
    const r = atom.resources?.[0];
    const name = atom.resourceNames?.[0];
    if (name === undefined || (v !== 'bind' && v !== '*') || (g !== '*' && g !== 'rbac.authorization.k8s.io')) continue;
    const kinds = r === '*' ? [BoundRoleKind.CLUSTER_ROLE, BoundRoleKind.ROLE] : r === 'clusterroles' ? [BoundRoleKind.CLUSTER_ROLE] : r === 'roles' ? [BoundRoleKind.ROLE] : [];
    const binds = kinds.filter((k) => !defined.has(`${k}/${name}`)).map((roleKind) => ({ namespace: req.namespace, roleKind, roleName: name }));
    if (binds.length > 0) out.push({ atom, binds });
  }
  return out;
}

/** `Kind/name` of the Roles and ClusterRoles the bundle's manifests define, per bundle (bundles are immutable). */
const DEFINED_ROLES_CACHE = new WeakMap<OperatorBundle, Set<string>>();

function definedRoles(bundle: OperatorBundle): Set<string> {
  let set = DEFINED_ROLES_CACHE.get(bundle);
  if (set === undefined) {
    set = new Set(bundle.objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').map((o) => `${o.kind}/${o.name}`));
    DEFINED_ROLES_CACHE.set(bundle, set);
  }
  return set;
}

/** Whether any rule may grant a named bind (cheap test before breaking rules into atoms). */
export function mayAskBind(rules: PolicyRule[]): boolean {
  return rules.some((r) => (r.resourceNames ?? []).length > 0 && (r.verbs ?? []).some((v) => v === 'bind' || v === '*'));
}

/**
 * The operator's own cluster-wide rules grant `bind` on roles outside the bundle: the installer would have to hold the
 * same bind cluster-wide (see `askedBinds`).
 */
export function askedBindProblem(
  bundle: OperatorBundle, namespace: string, refused: Array<{ bind: ExternalRoleBind; step: string }>,
): PreflightFinding {
  const roles = [...new Set(refused.map((r) => `${r.bind.roleKind} ${r.bind.roleName}`))].sort();
  const steps = [...new Set(refused.map((r) => r.step))].sort();
  return {
    code: PreflightCode.GRANTS_ESCALATION_RIGHTS,
    message: `${bundle.name}'s own cluster-wide rules grant 'bind' on ${roles.join(', ')}, which no manifest of the bundle defines (${steps.join('; ')}): `
      + 'OLM creates the operator\'s ClusterRole with the installer\'s client, so the installer would have to hold the same bind cluster-wide, '
      + `and with it the installer, whose token is in namespace ${namespace}, could bind these roles to itself or anyone in every namespace: `
      + 'an escalation as large as the roles. Not derived. Fix: have a cluster admin install this operator, or accept each role by name with a '
      + 'reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles).',
  };
}

export function modelProblems(bundle: OperatorBundle, model: InstallModel): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  for (const o of model.unsupported) {
    out.push({
      code: PreflightCode.UNSUPPORTED_RESOURCE,
      message: `${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}, ${o.apiVersion}) is a kind OLM does not install `
        + '(catalog operator supportedresources.go): the InstallPlan fails with StepStatusUnsupportedResource. Fix: remove it from the bundle.',
    });
  }
  for (const { object: o, reason } of model.invalidObjects) {
    out.push({
      code: PreflightCode.INVALID_BUNDLE_OBJECT,
      message: escapeControl(`${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}): ${reason}. Fix: correct or remove it in the bundle.`),
    });
  }
  for (const w of model.conversionNotSingleton) {
    out.push({
      code: PreflightCode.CONVERSION_WEBHOOK_NOT_ALL_NAMESPACES,
      message: `${bundle.name}: conversion webhook ${w}: OLM fails the install ("CSVs with conversion webhooks must support only AllNamespaces") `
        + `because the CSV supports ${supportedModes(bundle)}.`,
    });
  }
  for (const w of model.invalidWebhooks) {
    out.push({ code: PreflightCode.INVALID_WEBHOOK_DESCRIPTION, message: `${bundle.name}: webhook ${w} (OLM install.ValidWebhookRules).` });
  }
  return out;
}

export function modeCode(reason: InstallModeFailureReason | undefined): PreflightCode {
  return reason === InstallModeFailureReason.INVALID_INSTALL_MODES ? PreflightCode.INVALID_INSTALL_MODES : PreflightCode.UNSUPPORTED_OPERATOR_GROUP;
}

export function supportedModes(bundle: OperatorBundle): string {
  const s = bundle.installModes.filter((m) => m.supported).map((m) => m.type);
  return s.length === 0 ? 'no install mode' : s.join(', ');
}

export function isObject(x: unknown): boolean {
  return typeof x === 'object' && x !== null;
}

/**
 * The props of the static entry points, checked at runtime (JavaScript and jsii callers): a clear Error in the
 * diagnostics format instead of a TypeError deep inside.
 */
export function checkPreflightProps(method: string, props: unknown, bundles: 'bundle' | 'bundles'): void {
  const check = new InputCheck();
  const o = check.optionalObject('props', props ?? 0, 'pass the props object');
  if (o) {
    check.knownProps(o, method === 'InstallPreflight.check' ? 'InstallPreflightProps' : method === 'InstallPreflight.checkVersions' ? 'VersionsPreflightProps' : 'LeastPrivilegeProps', method);
    const bundleFix = 'pass an OperatorBundle, e.g. OperatorBundle.fromDirectory(path)';
    if (bundles === 'bundle') check.optionalInstance('bundle', o.bundle ?? 0, OperatorBundle, bundleFix);
    else check.optionalArray('bundles', o.bundles ?? 0, (v, f) => check.optionalInstance(f, v ?? 0, OperatorBundle, bundleFix));
    check.requiredString('namespace', o.namespace, "pass the OperatorGroup's namespace");
    check.optionalStringArray('targetNamespaces', o.targetNamespaces ?? 0, 'pass the target namespaces ([] for AllNamespaces)');
    const rules = (field: string, value: unknown) => check.optionalArray(field, value, (v, f) => checkRuleShape(check, f, v));
    if (method !== 'InstallerPermissions.leastPrivilege') rules('installerRules', o.installerRules ?? 0);
    rules('clusterInstallerRules', o.clusterInstallerRules);
    check.optionalArray('otherNamespaceRules', o.otherNamespaceRules, (v, f) => {
      const n = check.optionalObject(f, v ?? 0, "pass { namespace: 'kube-system', rules: [...] }");
      if (n) {
        check.knownProps(n, 'NamespaceRules', f, `${f}.`);
        check.requiredString(`${f}.namespace`, n.namespace, 'name the namespace');
        rules(`${f}.rules`, n.rules ?? 0);
      }
      return n;
    });
    check.optionalBoolean('upgrade', o.upgrade);
    check.optionalBoolean('allowClusterScoped', o.allowClusterScoped);
  }
  throwIfInvalid(check, method);
}

/**
 * The derived rules outside the install namespace, formatted: other namespaces' (sorted), then cluster-wide. What
 * both `NeedsClusterScopedRules` messages (the preflight's and the derivation's) list and count: one list, so the two
 * messages can never give two counts of the rules outside the namespace for the same bundle.
 */
export function rulesOutsideNamespace(set: { clusterRules: PolicyRule[]; otherNamespaceRules: NamespaceRules[] }): string[] {
  return [
    ...set.otherNamespaceRules.flatMap((n) => n.rules.map((r) => RbacRules.format(r, n.namespace))),
    ...set.clusterRules.map((r) => RbacRules.format(r, '')),
  ];
}
