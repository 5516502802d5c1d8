/**
 * The install preflight: every permission the OperatorGroup's ServiceAccount lacks to install a bundle, found
 * offline, all at once, in the style of OLM v1's preflight (`Namespace:"team-a" APIGroups:[apps] ...`).
 * What OLM does is modelled in `install-plan-model.ts` (with the upstream files it is read from).
 *
 * Where OLM's docs and code differ: the OKD/OpenShift docs say "The APIService and CustomResourceDefinition
 * resources are always created by OLM using the cluster-admin role". In the code (`ExecutePlan`), only CRDs
 * are: the install strategy runs with the scoped client and creates APIServices, webhook configurations, the
 * `system:auth-delegator` ClusterRoleBinding and a RoleBinding in kube-system, and updates CRDs for conversion
 * webhooks. So operators with webhooks or API services need cluster-scoped writes that a namespace-confined
 * installer does not have. This preflight follows the code.
 */
import {
  addWrites, AskedBind, askedBindProblem, askedBinds, checkPreflightProps, externalBindProblem, isObject, mayAskBind, modeCode,
  modelProblems, rulesOutsideNamespace, splitWrites, supportedModes, WritesByNamespace, writesProblem,
} from './install-blockers';
import { ExternalRoleBind, InstallModel, InstallPlanModel } from './install-plan-model';
import { InstallerPermissions } from './installer-permissions';
import { NamespaceTemplates } from './namespace-templates';
import { NamespaceRules, PreflightCode, PreflightFinding } from './preflight-code';
import { InstallModes } from '../bundle/install-modes';
import { OperatorBundle } from '../bundle/operator-bundle';
import { isPlainRuleList, rulesKey } from '../core/content-cache';
import { InputCheck, throwIfInvalid } from '../core/input-check';
import { escapeControl } from '../core/yaml-or-json';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

/** A rule the installer lacks. */
export interface MissingRule {
  /** Namespace where it is needed; `""` means cluster-wide (a ClusterRole + ClusterRoleBinding). */
  readonly namespace: string;
  /** The rule (compacted). */
  readonly rule: PolicyRule;
  /** Formatted like OLM v1's preflight: `Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[create,get]`. */
  readonly formatted: string;
  /** The OLM steps that need it. */
  readonly steps: string[];
}

/** Input of `InstallPreflight.check`. */
export interface InstallPreflightProps {
  /** The bundle OLM would install. */
  readonly bundle: OperatorBundle;
  /** Namespace of the OperatorGroup, Subscription and operator. */
  readonly namespace: string;
  /** The OperatorGroup's target namespaces; an empty list means AllNamespaces. */
  readonly targetNamespaces: string[];
  /** Rules the installer ServiceAccount holds in `namespace`. */
  readonly installerRules: PolicyRule[];
  /**
   * Rules it holds cluster-wide (ClusterRoleBindings); they apply in every namespace too.
   * @default - none: a namespace-confined installer
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Rules it holds in other namespaces (e.g. kube-system).
   * @default - none
   */
  readonly otherNamespaceRules?: NamespaceRules[];
  /**
   * Also check OLM's update path (objects that already exist: get + patch / update), as for an upgrade to this
   * bundle or a re-install.
   * @default false
   */
  readonly upgrade?: boolean;
}

/** Result of `InstallPreflight.check`. */
export interface PreflightResult {
  /** The CSV checked. */
  readonly bundleName: string;
  /**
   * Its version.
   * @default - none
   */
  readonly version?: string;
  /** True when OLM would install it: install mode supported, no missing rules, no problems. */
  readonly ok: boolean;
  /** Whether the install modes allow the target namespaces. */
  readonly installModeSupported: boolean;
  /** Every missing rule, compacted per namespace (tenant namespace, other namespaces, then cluster). */
  readonly missing: MissingRule[];
  /** Other blockers. */
  readonly problems: PreflightFinding[];
  /** Things that pass but deserve attention. */
  readonly warnings: PreflightFinding[];
}

/** Input of `InstallPreflight.checkVersions`. */
export interface VersionsPreflightProps {
  /** The allowed versions of the package (e.g. from a catalog). */
  readonly bundles: OperatorBundle[];
  /** Namespace of the OperatorGroup. */
  readonly namespace: string;
  /** Target namespaces; empty = AllNamespaces. */
  readonly targetNamespaces: string[];
  /** Rules held in `namespace`. */
  readonly installerRules: PolicyRule[];
  /**
   * Cluster-wide rules.
   * @default - none
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Rules in other namespaces.
   * @default - none
   */
  readonly otherNamespaceRules?: NamespaceRules[];
}

/**
 * Offline install preflight: every permission the OperatorGroup's ServiceAccount lacks to install a bundle, and
 * every other blocker, all at once.
 *
 * Models OLM's code, not its docs. The OKD/OpenShift docs say "The APIService and CustomResourceDefinition
 * resources are always created by OLM using the cluster-admin role"; in the code (catalog operator `ExecutePlan`)
 * only CRDs are. The install strategy runs with the scoped client: it creates APIServices, webhook configurations,
 * the `system:auth-delegator` ClusterRoleBinding and a RoleBinding in kube-system, and updates CRDs for conversion
 * webhooks. So operators with webhooks or API services need cluster-scoped writes that a namespace-confined
 * installer does not have, and those whose own rules (or conversion webhooks, or APIServices) write CRDs or
 * APIServices cannot be installed through a scoped tenant at all (`WritesCrdsOrApiServices`).
 */
export class InstallPreflight {
  /** Checks one bundle: every missing rule and every other blocker at once. */
  public static check(props: InstallPreflightProps): PreflightResult {
    checkPreflightProps('InstallPreflight.check', props, 'bundle');
    return InstallPreflight.checkCached(props, false);
  }

  /**
   * `checkVersions` for the library's own read-only use: parts of the results that do not mention the namespace
   * are frozen objects shared by every caller with the same bundles, rules and install shape.
   * @internal
   */
  public static _checkVersionsShared(props: VersionsPreflightProps): PreflightResult[] {
    return props.bundles.map((bundle) => InstallPreflight.checkCached({
      bundle,
      namespace: props.namespace,
      targetNamespaces: props.targetNamespaces,
      installerRules: props.installerRules,
      clusterInstallerRules: props.clusterInstallerRules,
      otherNamespaceRules: props.otherNamespaceRules,
      upgrade: true,
    }, true));
  }

  /**
   * Checks every allowed version (fresh install and OLM's update path) and says which version needs what.
   * Results are in the order of `bundles`.
   */
  public static checkVersions(props: VersionsPreflightProps): PreflightResult[] {
    checkPreflightProps('InstallPreflight.checkVersions', props, 'bundles');
    return props.bundles.map((bundle) => InstallPreflight.check({
      bundle,
      namespace: props.namespace,
      targetNamespaces: props.targetNamespaces,
      installerRules: props.installerRules,
      clusterInstallerRules: props.clusterInstallerRules,
      otherNamespaceRules: props.otherNamespaceRules,
      upgrade: true,
    }));
  }

  /** The result as readable lines: problems, then missing rules, then warnings. */
  public static format(result: PreflightResult): string[] {
    const check = new InputCheck();
    const r = check.optionalObject('result', result ?? 0, 'pass a PreflightResult (from InstallPreflight.check)');
    if (r) {
      check.requiredString('result.bundleName', r.bundleName, 'pass a PreflightResult (from InstallPreflight.check)');
      for (const list of ['problems', 'missing', 'warnings']) check.optionalArray(`result.${list}`, r[list] ?? 0, (v, f) => check.optionalObject(f, v ?? 0, 'pass a PreflightResult'));
    }
    throwIfInvalid(check, 'InstallPreflight.format');
    const head = `${result.bundleName}${result.version ? ` (${result.version})` : ''}: ${result.ok ? 'installs' : 'would FAIL to install'}`;
    return [
      head,
      ...result.problems.map((p) => `  problem ${p.code}: ${p.message}`),
      ...(result.missing.length > 0 ? [`  missing ${result.missing.length} rule(s):`] : []),
      ...result.missing.map((m) => `    ${m.formatted}`),
      ...result.warnings.map((w) => `  warning ${w.code}: ${w.message}`),
    ];
  }

  private static checkCached(props: InstallPreflightProps, share: boolean): PreflightResult {
    // Thousands of tenants check the same bundle with equal rules: computed once per install shape, then
    // instantiated for each namespace (see namespace-templates.ts).
    const { namespace } = props;
    const plain = isObject(props.bundle) && Array.isArray(props.targetNamespaces) && isPlainRuleList(props.installerRules)
      && isPlainRuleList(props.clusterInstallerRules ?? [])
      && (props.otherNamespaceRules ?? []).every((n) => isObject(n) && isPlainRuleList(n.rules));
    if (!plain) return checkUncached(props);
    const others = [...props.targetNamespaces, ...(props.otherNamespaceRules ?? []).map((n) => n.namespace)];
    const key = [
      'check', NamespaceTemplates.bundlesKey([props.bundle]), props.upgrade === true, NamespaceTemplates.shape(props.targetNamespaces, namespace),
      rulesKey(props.installerRules), rulesKey(props.clusterInstallerRules ?? []),
      (props.otherNamespaceRules ?? []).map((n) => [n.namespace, rulesKey(n.rules)]),
    ];
    return CHECKS.get(namespace, others, key, (ns, map) => checkUncached({
      ...props,
      namespace: ns,
      targetNamespaces: props.targetNamespaces.map(map),
      otherNamespaceRules: props.otherNamespaceRules?.map((n) => ({ namespace: map(n.namespace), rules: n.rules })),
    }), share);
  }

  private constructor() {}
}

function modelWarnings(bundle: OperatorBundle, namespace: string, targets: string[], model: InstallModel): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  for (const w of bundle.loadWarnings) out.push({ code: PreflightCode.BUNDLE_MANIFEST_WARNING, message: escapeControl(`${bundle.name}: ${w}`) });
  for (const o of model.createdAsCoreKind) {
    const core = CORE_API_VERSIONS[o.kind];
    out.push({
      code: PreflightCode.CREATED_AS_CORE_KIND,
      message: escapeControl(`${bundle.name}: bundle object ${o.kind} ${o.name} (${o.source}) has apiVersion ${o.apiVersion}, but OLM dispatches bundle `
        + `objects by kind alone (resolver/steps.go NewStepResourceFromObject, catalog operator.go ExecutePlan): it is created as a ${core} `
        + `${o.kind} in the operator's namespace${o.kind.startsWith('Cluster') ? ' (cluster-scoped)' : ''}, and fields a ${o.kind} does not have are dropped; `
        + 'the installer needs the verbs on that core kind. The bundle probably ships a sample custom resource by mistake. '
        + 'Fix: ask the operator\'s maintainers to remove it from manifests/ (samples belong in the CSV\'s alm-examples annotation).'),
    });
  }
  const nsRules = bundle.permissions.reduce((n, p) => n + p.rules.length, 0);
  if (targets.length === 0 && nsRules > 0) {
    out.push({
      code: PreflightCode.RBAC_LIFTED_TO_CLUSTER,
      message: `${bundle.name}: with AllNamespaces, OLM turns the ${nsRules} rule(s) of the CSV's permissions into ClusterRoles and `
        + 'ClusterRoleBindings (plus get/list/watch on namespaces) with its own client (olm operatorgroup.go ensureSingletonRBAC): '
        + 'the installer needs nothing for it, but the operator gains these rights in every namespace.',
    });
  }
  const others = [...new Set(targets)].filter((t) => t !== namespace).sort();
  if (targets.length > 0 && others.length > 0 && nsRules > 0) {
    out.push({
      code: PreflightCode.RBAC_COPIED_TO_TARGET_NAMESPACES,
      message: `${bundle.name}: OLM copies the Roles and RoleBindings of the CSV's permissions (${nsRules} rule(s)) into target `
        + `namespace(s) ${others.join(', ')} with its own client (olm operatorgroup.go ensureRBACInTargetNamespace): the installer `
        + 'needs nothing there, but the operator gains these rights in namespaces where the installer may have none.',
    });
  }
  if (bundle.crds.length > 0 || bundle.ownedCrds.length > 0) {
    const names = [...new Set([...bundle.crds.map((c) => c.name), ...bundle.ownedCrds.map((c) => c.name)])].sort();
    out.push({
      code: PreflightCode.CRDS_CREATED_BY_OLM,
      message: `${bundle.name}: OLM creates or updates ${names.length} CRD(s) with its own cluster-admin client, not the installer `
        + `(catalog operator ExecutePlan): ${names.join(', ')}. CRDs are cluster-wide: every tenant shares one version of them.`,
    });
  }
  if (bundle.requiredCrds.length > 0) {
    out.push({
      code: PreflightCode.REQUIRED_APIS,
      message: `${bundle.name} requires ${bundle.requiredCrds.map((c) => c.name).sort().join(', ')}: OLM resolves them by installing the `
        + 'providing bundles (and creating Subscriptions) with the same ServiceAccount; check those bundles too.',
    });
  }
  return out;
}

/** apiVersion of the core kinds OLM creates by kind alone (catalog operator.go ExecutePlan). */
const CORE_API_VERSIONS: Record<string, string> = {
  Secret: 'v1',
  Service: 'v1',
  ConfigMap: 'v1',
  ServiceAccount: 'v1',
  Role: 'rbac.authorization.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1',
  ClusterRole: 'rbac.authorization.k8s.io/v1',
  ClusterRoleBinding: 'rbac.authorization.k8s.io/v1',
};

/** A modelled install with its rules pre-split and pre-broken into atoms, cached per bundle (bundles are immutable). */
interface PreparedModel {
  readonly model: InstallModel;
  /** CRD/APIService writes and escalation rights, per namespace: refused, never reported as missing. */
  readonly writes: WritesByNamespace;
  /** Everything requested per namespace (allowed rules and alternatives), for one `covers` call each. */
  readonly requested: Map<string, PolicyRule[]>;
  /** Per requirement: its allowed atoms and its alternative's atoms, by atom key, de-duplicated, in breakdown order. */
  readonly atoms: Array<{
    allowedAtoms: Map<string, PolicyRule>;
    alternativeAtoms?: Map<string, PolicyRule>;
    /** Cluster-wide binds of outside roles the operator's own rules ask for (see `askedBinds`): refused unless held. */
    askedBinds: Array<{ key: string; atom: PolicyRule; binds: ExternalRoleBind[] }>;
  }>;
}

const PREPARED_CACHE = new WeakMap<OperatorBundle, Map<string, PreparedModel>>();

function prepare(bundle: OperatorBundle, namespace: string, upgrade: boolean): PreparedModel {
  let byKey = PREPARED_CACHE.get(bundle);
  if (byKey === undefined) PREPARED_CACHE.set(bundle, byKey = new Map());
  const cacheKey = `${upgrade}\u0000${namespace}`;
  const hit = byKey.get(cacheKey);
  if (hit !== undefined) return hit;
  // Bounded: a platform checks one bundle in many tenant namespaces; only repeated checks of one install need the cache.
  if (byKey.size >= 8) byKey.clear();
  const model = InstallPlanModel.build(bundle, namespace, upgrade);
  const writes: WritesByNamespace = new Map();
  const requested = new Map<string, PolicyRule[]>();
  const byAtom = (rules: PolicyRule[]) => new Map(RbacRules.breakdown(rules).map((a) => [atomKeyOf(a), a] as const));
  const atoms = model.requirements.map((req) => {
    let [allowedRules, writeAtoms] = splitWrites(req.rules);
    addWrites(writes, req.namespace, writeAtoms, req.step);
    // cluster-wide binds of outside roles asked by the operator's own rules: refused, never reported as missing
    let asked: AskedBind[] = [];
    if (req.namespace === '' && mayAskBind(allowedRules)) {
      const all = RbacRules.breakdown(allowedRules);
      asked = askedBinds(bundle, req, all);
      if (asked.length > 0) allowedRules = all.filter((a) => !asked.some((x) => x.atom === a));
    }
    const list = requested.get(req.namespace) ?? [];
    list.push(...allowedRules, ...(req.alternative ?? []), ...asked.map((a) => a.atom));
    requested.set(req.namespace, list);
    return {
      allowedAtoms: byAtom(allowedRules),
      alternativeAtoms: req.alternative === undefined ? undefined : byAtom(req.alternative),
      askedBinds: asked.map((a) => ({ key: atomKeyOf(a.atom), atom: a.atom, binds: a.binds })),
    };
  });
  const prepared: PreparedModel = { model, writes, requested, atoms };
  byKey.set(cacheKey, prepared);
  return prepared;
}

/** Key of an atom as `RbacRules.breakdown` / `covers().missing` write it (one value per field). */
function atomKeyOf(a: PolicyRule): string {
  const none = '\u0001';
  return [a.verbs[0], a.apiGroups?.[0] ?? none, a.resources?.[0] ?? none, a.resourceNames?.[0] ?? none, a.nonResourceUrls?.[0] ?? none].join('\u0000');
}

function effectiveRules(ns: PolicyRule[], cluster: PolicyRule[], others: NamespaceRules[], namespace: string): (n: string) => PolicyRule[] {
  const cache = new Map<string, PolicyRule[]>();
  return (n: string) => {
    let r = cache.get(n);
    if (r === undefined) {
      r = [...cluster];
      if (n === namespace) r.push(...ns);
      if (n !== '') for (const o of others) if (o.namespace === n) r.push(...o.rules);
      cache.set(n, r);
    }
    return r;
  };
}

function toMissing(atoms: Array<{ namespace: string; atom: PolicyRule; step: string }>, namespace: string): MissingRule[] {
  const byNs = new Map<string, Array<{ atom: PolicyRule; step: string }>>();
  for (const a of atoms) {
    const l = byNs.get(a.namespace) ?? [];
    l.push(a);
    byNs.set(a.namespace, l);
  }
  const order = [...byNs.keys()].sort((a, b) => rank(a, namespace) - rank(b, namespace) || a.localeCompare(b));
  const out: MissingRule[] = [];
  for (const ns of order) {
    const list = byNs.get(ns)!;
    const rules = RbacRules.compact(list.map((l) => l.atom));
    const steps = rules.map(() => new Set<string>());
    for (const l of list) {
      let i = rules.findIndex((r) => atomIn(l.atom, r));
      if (i < 0) i = rules.findIndex((r) => RbacRules.covers([r], [l.atom]).covered);
      if (i >= 0) steps[i].add(l.step);
    }
    rules.forEach((rule, i) => out.push({ namespace: ns, rule, formatted: RbacRules.format(rule, ns), steps: [...steps[i]].sort() }));
  }
  return out;
}

/** Whether an atom is literally one of the rule's atoms (cheap check before `covers`). */
function atomIn(atom: PolicyRule, rule: PolicyRule): boolean {
  const has = (list: string[] | undefined, v: string | undefined) => v === undefined || (list ?? []).includes(v);
  return has(rule.verbs, atom.verbs[0]) && has(rule.apiGroups, atom.apiGroups?.[0]) && has(rule.resources, atom.resources?.[0])
    && has(rule.nonResourceUrls, atom.nonResourceUrls?.[0])
    && (atom.resourceNames === undefined ? rule.resourceNames === undefined : has(rule.resourceNames, atom.resourceNames[0]));
}

function rank(ns: string, namespace: string): number {
  return ns === namespace ? 0 : ns === '' ? 2 : 1;
}

function describeTargets(targets: string[]): string {
  return targets.length === 0 ? 'all namespaces' : [...targets].sort().join(', ');
}

function clean<T>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o as any)) if (v !== undefined) out[k] = v;
  return out;
}

/** `InstallPreflight.check`, uncached. */
function checkUncached(props: InstallPreflightProps): PreflightResult {
  const { bundle, namespace } = props;
  if (typeof namespace !== 'string' || namespace === '') {
    throw new Error(`InstallPreflight.check: 'namespace' must be the OperatorGroup's namespace, got ${JSON.stringify(namespace)}`);
  }
  const upgrade = props.upgrade === true;
  const prepared = prepare(bundle, namespace, upgrade);
  const model = prepared.model;
  const problems: PreflightFinding[] = [];
  const warnings: PreflightFinding[] = [];

  const mode = InstallModes.checkTargets(bundle.installModes, namespace, props.targetNamespaces);
  if (!mode.supported) {
    problems.push({
      code: modeCode(mode.reason),
      message: `${bundle.name}: ${mode.message} (OperatorGroup in ${namespace} targeting ${describeTargets(props.targetNamespaces)}; `
        + `the CSV supports ${supportedModes(bundle)}). Fix: change the OperatorGroup's target namespaces or choose another operator.`,
    });
  }
  problems.push(...modelProblems(bundle, model));

  const effective = effectiveRules(props.installerRules, props.clusterInstallerRules ?? [], props.otherNamespaceRules ?? [], namespace);
  const writes = prepared.writes;
  // One `covers` per namespace over everything requested there (it indexes the owner rules once), then each
  // requirement is answered from the set of uncovered atoms: the same result as one `covers` per requirement.
  const uncovered = new Map<string, Set<string>>();
  for (const [ns, rules] of prepared.requested) {
    uncovered.set(ns, new Set(RbacRules.covers(effective(ns), rules).missing.map(atomKeyOf)));
  }
  const missingOf = (ns: string, atoms: Map<string, PolicyRule>): PolicyRule[] => {
    const gaps = uncovered.get(ns)!;
    const out: PolicyRule[] = [];
    for (const [key, atom] of atoms) if (gaps.has(key)) out.push(atom);
    return out;
  };
  const missingAtoms: Array<{ namespace: string; atom: PolicyRule; step: string }> = [];
  const refusedBinds: Array<{ bind: ExternalRoleBind; step: string }> = [];
  const askedRefused: Array<{ bind: ExternalRoleBind; step: string }> = [];
  model.requirements.forEach((req, i) => {
    const { allowedAtoms, alternativeAtoms, askedBinds: asked } = prepared.atoms[i];
    const gaps = uncovered.get(req.namespace)!;
    if (asked.some((a) => gaps.has(a.key)) && !(alternativeAtoms !== undefined && missingOf(req.namespace, alternativeAtoms).length === 0)) {
      for (const a of asked.filter((x) => gaps.has(x.key))) for (const bind of a.binds) askedRefused.push({ bind, step: req.step });
    }
    if (missingOf(req.namespace, allowedAtoms).length === 0) return;
    if (alternativeAtoms !== undefined && missingOf(req.namespace, alternativeAtoms).length === 0) return;
    if (req.externalBind !== undefined) {
      // not a missing rule to grant: `bind` on a role outside the bundle is an escalation (see externalBindProblem)
      refusedBinds.push({ bind: req.externalBind, step: req.step });
      return;
    }
    const wanted = req.deriveAlternative && alternativeAtoms !== undefined ? alternativeAtoms : allowedAtoms;
    for (const atom of missingOf(req.namespace, wanted)) missingAtoms.push({ namespace: req.namespace, atom, step: req.step });
  });
  if (writes.size > 0) problems.push(...writesProblem(bundle, writes));
  if (refusedBinds.length > 0) problems.push(externalBindProblem(bundle, namespace, refusedBinds));
  if (askedRefused.length > 0) problems.push(askedBindProblem(bundle, namespace, askedRefused));

  const missing = toMissing(missingAtoms, namespace);
  const outside = missing.filter((m) => m.namespace !== namespace);
  const confined = (props.clusterInstallerRules ?? []).length === 0 && (props.otherNamespaceRules ?? []).every((n) => n.rules.length === 0);
  if (confined && outside.length > 0) {
    // the rules outside the namespace as the derivation the fix names grants them (one list, one count: the same as
    // leastPrivilege's NeedsClusterScopedRules), for the create and the update path
    const derived = InstallerPermissions._leastPrivilegeShared({
      bundles: [bundle], namespace, targetNamespaces: props.targetNamespaces, allowClusterScoped: true,
    });
    const derivedOutside = rulesOutsideNamespace(derived);
    const listed = derivedOutside.length > 0 ? derivedOutside : outside.map((m) => m.formatted);
    problems.push({
      code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
      message: `${bundle.name} cannot be installed by an installer confined to namespace ${namespace}: OLM's scoped client needs `
        + `${listed.length} rule(s) outside it to install and update it: ${listed.join('; ')}. Fix: grant them to the installer `
        + '(ClusterRole + ClusterRoleBinding, or a RoleBinding in that namespace), e.g. from InstallerPermissions.leastPrivilege '
        + 'with allowClusterScoped, or choose an operator without clusterPermissions, webhooks or API services.',
    });
  }
  warnings.push(...modelWarnings(bundle, namespace, props.targetNamespaces, model));

  return clean({
    bundleName: bundle.name,
    version: bundle.version,
    ok: mode.supported && missing.length === 0 && problems.length === 0,
    installModeSupported: mode.supported,
    missing,
    problems,
    warnings,
  });
}

const CHECKS = new NamespaceTemplates<PreflightResult>(256);
