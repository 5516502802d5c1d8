/**
 * The least-privilege installer rules: the fewest rules that let OLM's scoped client install and update each
 * bundle (`InstallerPermissions.leastPrivilege`), with what must stay refused (see install-blockers.ts). What OLM
 * does is modelled in `install-plan-model.ts`.
 */
import {
  addWrites, askedBindProblem, askedBinds, checkPreflightProps, externalBindProblem, isObject, mayAskBind, modeCode,
  modelProblems, rulesOutsideNamespace, splitWrites, supportedModes, WritesByNamespace, writesProblem,
} from './install-blockers';
import { ExternalRoleBind, InstallPlanModel, Requirement } from './install-plan-model';
import { NamespaceTemplates } from './namespace-templates';
import { BoundRoleKind, NamespaceRules, PreflightCode, PreflightFinding } from './preflight-code';
import { InstallModes } from '../bundle/install-modes';
import { OperatorBundle } from '../bundle/operator-bundle';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

/**
 * Explicit acceptance of `bind` on one role that a bundle binds but does not define (e.g. a ClusterRoleBinding
 * to `view`). Holding `bind` on it lets the installer bind that role to anyone, itself included: accept only
 * roles whose power you would give the installer.
 */
export interface BindRoleAcceptance {
  /** Kind of the bound role. */
  readonly roleKind: BoundRoleKind;
  /** Name of the bound role, e.g. `view`. */
  readonly roleName: string;
  /** Why the installer may bind it; written to the annotation `cdk8s-olm-tenancy.io/bind-roles`. */
  readonly reason: string;
}

/** A `bind` on a named role in the derived rules, with why it is there. */
export interface DerivedRoleBind {
  /** Namespace of the grant; `""` for the cluster-scoped rules. */
  readonly namespace: string;
  /** Kind of the bound role. */
  readonly roleKind: BoundRoleKind;
  /** Name of the bound role. */
  readonly roleName: string;
  /** True for the bootstrap roles OLM's cert resources bind (`system:auth-delegator`, `extension-apiserver-authentication-reader`). */
  readonly bootstrap: boolean;
  /** Why the installer holds it. */
  readonly reason: string;
}

/** Input of `InstallerPermissions.leastPrivilege`. */
export interface LeastPrivilegeProps {
  /** The bundles (allowed versions) to install or upgrade to. */
  readonly bundles: OperatorBundle[];
  /** Namespace of the OperatorGroup. */
  readonly namespace: string;
  /** Target namespaces; empty = AllNamespaces. */
  readonly targetNamespaces: string[];
  /**
   * Allow rules outside the namespace (cluster-wide, or in kube-system). When false they are left out and a
   * `NeedsClusterScopedRules` problem lists them.
   * @default false
   */
  readonly allowClusterScoped?: boolean;
  /**
   * Roles that the bundles bind but do not define, whose `bind` may be derived. Any other such binding is a
   * `GrantsEscalationRights` problem and nothing is derived for it.
   * @default - none (only the two bootstrap roles of cert resources are derived)
   */
  readonly allowedBindRoles?: BindRoleAcceptance[];
}

/** Derived installer permissions. */
export interface InstallerPermissionSet {
  /** Rules for a Role in the tenant namespace. */
  readonly namespacedRules: PolicyRule[];
  /** Rules for a ClusterRole bound cluster-wide (empty unless allowed). */
  readonly clusterRules: PolicyRule[];
  /** Rules for Roles in other namespaces (kube-system for cert resources; empty unless allowed). */
  readonly otherNamespaceRules: NamespaceRules[];
  /** Why some bundles still cannot be installed with these rules. */
  readonly problems: PreflightFinding[];
  /**
   * Every `bind` on a named role in the rules above (bootstrap roles of cert resources, and roles accepted in
   * `allowedBindRoles`), sorted by namespace, kind and name.
   */
  readonly boundRoles: DerivedRoleBind[];
}

/** Derives minimal installer permissions. */
export class InstallerPermissions {
  /**
   * The fewest rules that let OLM install each bundle and update to it (create and update paths), compacted.
   * Never includes writes to CRDs or APIServices (bundles that need them get a `WritesCrdsOrApiServices` problem), nor
   * `escalate`/`bind` on roles or `impersonate` (`GrantsEscalationRights`).
   * Binding the bootstrap roles of cert resources is derived as `bind` limited by `resourceNames`.
   */
  public static leastPrivilege(props: LeastPrivilegeProps): InstallerPermissionSet {
    checkPreflightProps('InstallerPermissions.leastPrivilege', props, 'bundles');
    return InstallerPermissions.derive(props, false);
  }

  /**
   * `leastPrivilege` for the library's own read-only use: rules (and other parts that do not mention the
   * namespace) are frozen objects shared by every caller with the same bundles and install shape.
   * @internal
   */
  public static _leastPrivilegeShared(props: LeastPrivilegeProps): InstallerPermissionSet {
    return InstallerPermissions.derive(props, true);
  }

  private static derive(props: LeastPrivilegeProps, share: boolean): InstallerPermissionSet {
    // Derived once per bundles and install shape, instantiated per namespace (see namespace-templates.ts).
    const { namespace } = props;
    const accepted = props.allowedBindRoles ?? [];
    if (!Array.isArray(props.bundles) || !props.bundles.every(isObject) || !Array.isArray(props.targetNamespaces)
      || !Array.isArray(accepted) || !accepted.every((a) => isObject(a) && typeof a.roleName === 'string' && typeof a.reason === 'string')) {
      return leastPrivilegeUncached(props);
    }
    const key = [
      'derive', NamespaceTemplates.bundlesKey(props.bundles), NamespaceTemplates.shape(props.targetNamespaces, namespace), props.allowClusterScoped === true,
      accepted.map((a) => [a.roleKind, a.roleName, a.reason]),
    ];
    return DERIVED.get(namespace, props.targetNamespaces, key, (ns, map) => leastPrivilegeUncached({
      ...props,
      namespace: ns,
      targetNamespaces: props.targetNamespaces.map(map),
    }), share);
  }

  private constructor() {}
}

/** Why the installer may hold `bind` on the two bootstrap roles (written to the objects that grant it). */
const BOOTSTRAP_REASON = 'bootstrap role bound by OLM\'s cert resources for webhooks and API services (install/certresources.go); '
  + 'its rules are fixed and small (system:auth-delegator: create tokenreviews and subjectaccessreviews; '
  + 'extension-apiserver-authentication-reader: read the configmap extension-apiserver-authentication in kube-system)';

function acceptedBind(accepted: BindRoleAcceptance[], bind: ExternalRoleBind): BindRoleAcceptance | undefined {
  return accepted.find((a) => a.roleKind === bind.roleKind && a.roleName === bind.roleName && a.reason.trim() !== '');
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `rules` without the atoms `clusterRules` (cluster-wide, so in every namespace too) already cover, compacted. */
function notCoveredBy(clusterRules: PolicyRule[], rules: PolicyRule[]): PolicyRule[] {
  return clusterRules.length === 0 ? rules
    // one covers call over every atom (one index of the cluster rules), not one per atom: `missing` is the atoms
    // not covered, each once, and compact merges them as it would the filtered breakdown
    : RbacRules.compact(RbacRules.covers(clusterRules, RbacRules.breakdown(rules)).missing);
}

/** `InstallerPermissions.leastPrivilege`, uncached. */
function leastPrivilegeUncached(props: LeastPrivilegeProps): InstallerPermissionSet {
  const { namespace } = props;
  const perNamespace = new Map<string, PolicyRule[]>();
  const problems: PreflightFinding[] = [];
  const deferred: Requirement[] = [];
  const bound = new Map<string, DerivedRoleBind>();
  const addBound = (b: DerivedRoleBind) => {
    const key = `${b.namespace}\u0000${b.roleKind}\u0000${b.roleName}`;
    if (!bound.has(key)) bound.set(key, b);
  };
  for (const bundle of props.bundles) {
    const model = InstallPlanModel.build(bundle, namespace, true);
    const mode = InstallModes.checkTargets(bundle.installModes, namespace, props.targetNamespaces);
    if (!mode.supported) {
      problems.push({
        code: modeCode(mode.reason),
        message: `${bundle.name}: ${mode.message}; no permissions can fix this (the CSV supports ${supportedModes(bundle)}).`,
      });
    }
    problems.push(...modelProblems(bundle, model));
    const writes: WritesByNamespace = new Map();
    const refusedBinds: Array<{ bind: ExternalRoleBind; step: string }> = [];
    const askedRefused: Array<{ bind: ExternalRoleBind; step: string }> = [];
    for (const req of model.requirements) {
      if (req.externalBind !== undefined) {
        const accepted = acceptedBind(props.allowedBindRoles ?? [], req.externalBind);
        if (accepted === undefined) {
          refusedBinds.push({ bind: req.externalBind, step: req.step });
          continue;
        }
        addBound({
          namespace: req.namespace,
          roleKind: accepted.roleKind,
          roleName: accepted.roleName,
          bootstrap: false,
          reason: `accepted by allowedBindRoles: ${accepted.reason}`,
        });
      }
      if (req.deriveAlternative && req.alternative !== undefined) {
        deferred.push(req);
        continue;
      }
      let [allowed, writeAtoms] = splitWrites(req.rules);
      addWrites(writes, req.namespace, writeAtoms, req.step);
      if (mayAskBind(allowed)) {
        const all = RbacRules.breakdown(allowed);
        const asked = askedBinds(bundle, req, all);
        const dropped = new Set<PolicyRule>();
        for (const a of asked) {
          if (req.namespace !== '') {
            // confined to the tenant namespace: derived, and named (BIND_ROLES_ANNOTATION)
            for (const b of a.binds) {
              addBound({ ...b, roleKind: b.roleKind as BoundRoleKind, bootstrap: false, reason: `the operator's own rules grant bind on it in namespace ${req.namespace} (${req.step}); held in that namespace only` });
            }
            continue;
          }
          const accepted = a.binds.map((b) => acceptedBind(props.allowedBindRoles ?? [], b));
          if (accepted.every((x) => x !== undefined)) {
            for (const x of accepted) addBound({ namespace: '', roleKind: x!.roleKind, roleName: x!.roleName, bootstrap: false, reason: `accepted by allowedBindRoles: ${x!.reason}` });
            continue;
          }
          a.binds.forEach((b, j) => { if (accepted[j] === undefined) askedRefused.push({ bind: b, step: req.step }); });
          dropped.add(a.atom);
        }
        if (asked.length > 0) allowed = all.filter((x) => !dropped.has(x));
      }
      const list = perNamespace.get(req.namespace) ?? [];
      list.push(...allowed);
      perNamespace.set(req.namespace, list);
    }
    if (writes.size > 0) problems.push(...writesProblem(bundle, writes));
    if (refusedBinds.length > 0) problems.push(externalBindProblem(bundle, namespace, refusedBinds));
    if (askedRefused.length > 0) problems.push(askedBindProblem(bundle, namespace, askedRefused));
  }
  // `bind` on a named bootstrap role only when the rules derived anyway do not already cover that role's rules.
  for (const req of deferred) {
    const held = [...(perNamespace.get(req.namespace) ?? []), ...(req.namespace === '' ? [] : perNamespace.get('') ?? [])];
    if (RbacRules.covers(held, req.rules).covered) continue;
    const list = perNamespace.get(req.namespace) ?? [];
    list.push(...req.alternative!);
    perNamespace.set(req.namespace, list);
    for (const alt of req.alternative!) {
      for (const roleName of alt.resourceNames ?? []) {
        addBound({
          namespace: req.namespace,
          roleKind: (alt.resources ?? []).includes('clusterroles') ? BoundRoleKind.CLUSTER_ROLE : BoundRoleKind.ROLE,
          roleName,
          bootstrap: true,
          reason: BOOTSTRAP_REASON,
        });
      }
    }
  }
  const namespacedRules = RbacRules.compact(perNamespace.get(namespace) ?? []);
  let clusterRules = RbacRules.compact(perNamespace.get('') ?? []);
  let otherNamespaceRules: NamespaceRules[] = [...perNamespace.keys()]
    .filter((ns) => ns !== '' && ns !== namespace).sort()
    .map((ns) => ({ namespace: ns, rules: RbacRules.compact(perNamespace.get(ns)!) }))
    .filter((n) => n.rules.length > 0);
  if (props.allowClusterScoped !== true && (clusterRules.length > 0 || otherNamespaceRules.length > 0)) {
    // what allowClusterScoped would grant (other namespaces' rules the cluster rules cover left out, as below)
    const others = otherNamespaceRules.map((n) => ({ namespace: n.namespace, rules: notCoveredBy(clusterRules, n.rules) }))
      .filter((n) => n.rules.length > 0);
    const listed = rulesOutsideNamespace({ clusterRules, otherNamespaceRules: others });
    problems.push({
      code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
      message: `${props.bundles.map((b) => b.name).join(', ')}: installing needs ${listed.length} rule(s) outside namespace ${namespace}, `
        + `left out because allowClusterScoped is false: ${listed.join('; ')}. Fix: set allowClusterScoped (a cluster admin decision) `
        + 'or choose an operator without clusterPermissions, webhooks or API services.',
    });
    clusterRules = [];
    otherNamespaceRules = [];
  }
  const keptNamespaces = new Set([namespace, ...(clusterRules.length > 0 ? [''] : []), ...otherNamespaceRules.map((n) => n.namespace)]);
  const boundRoles = [...bound.values()]
    .filter((b) => keptNamespaces.has(b.namespace))
    .sort((a, b) => cmpStr(a.namespace, b.namespace) || cmpStr(a.roleKind, b.roleKind) || cmpStr(a.roleName, b.roleName));
  // Cluster-wide rules apply in every namespace too: drop namespaced atoms they already cover.
  const notCovered = (rules: PolicyRule[]) => notCoveredBy(clusterRules, rules);
  return {
    namespacedRules: notCovered(namespacedRules),
    clusterRules,
    otherNamespaceRules: otherNamespaceRules.map((n) => ({ namespace: n.namespace, rules: notCovered(n.rules) })).filter((n) => n.rules.length > 0),
    problems: dedupe(problems),
    boundRoles,
  };
}

function dedupe(problems: PreflightFinding[]): PreflightFinding[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.code}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const DERIVED = new NamespaceTemplates<InstallerPermissionSet>(256);
