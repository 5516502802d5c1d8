/**
 * Which tenants can drive the operators the platform installs itself for all namespaces (`GlobalOperatorInstall`):
 * an operator that OLM installs with its own cluster-admin client watches every namespace and acts on the custom
 * resources of its owned CRDs with its own (cluster-wide) ServiceAccounts, so every tenant identity that may create
 * one of those resources in some namespace can have the operator act for it (OLMT-055). Pure: plain data in
 * (the App's objects, the tenants' facts, the global operators' facts), findings out.
 */
import { AuditedTenant, TenancyAuditInput } from './audited-tenant';
import { EffectivePower, PowerObject, RbacSubject, ruleAllows, subjectLabel } from './effective-power';
import { OperatorBundle } from '../bundle/operator-bundle';
import { OlmGeneration } from '../olm/olm-naming';

/** The diagnostic code of a tenant identity that may create objects of a global operator's APIs (OLMT-055). */
export const TENANT_CAN_DRIVE_GLOBAL_OPERATOR = 'TenantCanDriveGlobalOperator';

/** One operator the platform installs for all namespaces, as plain data (the audit's view of it). */
export interface GlobalOperatorFacts {
  /** The construct path of the install (`GlobalOperatorInstall`). */
  readonly install: string;
  /** The install namespace (the OperatorGroup's and the Subscription's). */
  readonly namespace: string;
  /** The AllNamespaces OperatorGroup's name. */
  readonly operatorGroupName: string;
  /** The package (Subscription `spec.name`). */
  readonly packageName: string;
  /**
   * The bundle OLM installs (its owned CRDs are the APIs tenants may drive).
   * @default - unknown: every tenant is taken to drive it (a finding, unless accepted)
   */
  readonly bundle?: OperatorBundle;
  /**
   * Why tenants may drive the operator (then its findings are accepted, listed with the reason).
   * @default - not accepted: each finding fails the synth
   */
  readonly acceptedReason?: string;
  /**
   * The OLM release line (names of OLM's generated roles).
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly olmGeneration?: OlmGeneration;
}

/** One tenant identity that may create objects of a global operator's APIs. */
export interface GlobalOperatorDriver {
  /** `TenantCanDriveGlobalOperator` (OLMT-055). */
  readonly code: string;
  /** The tenant's name (construct path); `*` when the operator's APIs are unknown (no bundle). */
  readonly tenant: string;
  /** The identity, e.g. `Group team-a-admins`; `*` when the operator's APIs are unknown. */
  readonly subject: string;
  /** The APIs it may create, `<plural>.<group>`, sorted (empty when unknown). */
  readonly apis: string[];
  /** Where: namespaces, sorted; `""` for every namespace (a cluster-wide grant). */
  readonly namespaces: string[];
  /**
   * The APIs of `apis` whose objects are cluster-scoped (CRD `spec.scope: Cluster`): created cluster-wide, which only a
   * cluster-wide grant allows.
   * @default - none
   */
  readonly clusterScopedApis?: string[];
  /** The path of the first grant found, from the identity to the role. */
  readonly path: string[];
  /** True when the operator's `acceptedReason` covers it (a warning, not an error). */
  readonly accepted: boolean;
  /**
   * The reason it is accepted.
   * @default - not accepted
   */
  readonly acceptedReason?: string;
  /** One line: who, which APIs, where, and the path. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/** The audit of one global operator. */
export interface GlobalOperatorAuditResult {
  /** The construct path of the install. */
  readonly install: string;
  /** The install namespace. */
  readonly namespace: string;
  /** The package. */
  readonly packageName: string;
  /** Its owned CRDs as `<plural>.<group>`, sorted; empty when unknown (no bundle). */
  readonly apis: string[];
  /** False when no bundle was given: the APIs, and so the drivers, are unknown. */
  readonly apisKnown: boolean;
  /** The tenant identities that may create objects of its APIs, in tenant order then identity order. */
  readonly drivers: GlobalOperatorDriver[];
}

/**
 * The drivers of each global operator: every identity the tenancy audit audits for each tenant (installer, its
 * operators' ServiceAccounts, the people it grants access) through the effective-power model (bindings, aggregation
 * such as OLM's provided-API ClusterRoles labelled `aggregate-to-admin/edit`, bind/escalate, identities it can
 * become), asked "may it create `<plural>.<group>`" in any namespace (any verb `*`, wildcard group or resource).
 *
 * `subjectsOf` and `objectsOf` are the tenancy audit's (one list of identities, one model of what OLM creates).
 */
export function globalOperatorDrivers(
  input: TenancyAuditInput,
  operators: GlobalOperatorFacts[],
  subjectsOf: (t: AuditedTenant) => RbacSubject[],
  objectsOf: (t: AuditedTenant) => PowerObject[],
): GlobalOperatorAuditResult[] {
  if (operators.length === 0) return [];
  // what OLM creates for the global operators (AllNamespaces: provided-API ClusterRoles aggregated to the built-in
  // admin/edit/view, lifted roles) and for every tenant's bundles, as the tenancy audit models them
  // without the global operators' CSVs: having them act (the model's reconciling-operator step) is the very driving
  // this check names, not a way to more of their APIs
  const globalObjects = operators.flatMap((o) => objectsOf(asTenant(o))).filter((x) => x.manifest?.kind !== 'ClusterServiceVersion');
  const power = new EffectivePower([...input.objects, ...input.tenants.flatMap((t) => objectsOf(t)), ...globalObjects]);
  return operators.map((o) => {
    const apis = ownedApis(o.bundle);
    const known = o.bundle !== undefined;
    const drivers: GlobalOperatorDriver[] = [];
    if (!known) {
      drivers.push(driver(o, '*', '*', [], [''], [], [],
        `which tenant identities may create objects of ${o.packageName}'s APIs is unknown: no bundle was given, so its owned CRDs are unknown`,
        `pass the bundle to install() so that the audit can name the drivers, or ${acceptText(o)}`));
    }
    for (const t of known ? input.tenants : []) {
      for (const s of subjectsOf(t)) {
        const label = subjectLabel(s);
        const found = new Map<string, Set<string>>();
        let path: string[] | undefined;
        for (const g of power._of(s).grants) {
          for (const api of apis) {
            // a create request has no name: a rule with resourceNames never allows it (RBAC `ResourceNameMatches`)
            if (!ruleAllows(g.rules, { verb: 'create', apiGroup: api.group, resource: api.plural })) continue;
            // a request for a cluster-scoped object has no namespace, so only cluster-wide grants (ClusterRoleBindings)
            // apply to it (the RBAC authorizer's `appliesTo`: a RoleBinding's rules hold in its namespace only)
            if (api.clusterScoped && g.namespace !== '') continue;
            const where = found.get(api.name) ?? new Set<string>();
            where.add(g.namespace);
            found.set(api.name, where);
            path = path ?? g.path;
          }
        }
        if (found.size === 0) continue;
        const names = [...found.keys()].sort(cmp);
        const clusterScoped = new Set(apis.filter((a) => a.clusterScoped).map((a) => a.name));
        const namespacedNames = names.filter((n) => !clusterScoped.has(n));
        const clusterNames = names.filter((n) => clusterScoped.has(n));
        const all = [...found.values()].some((w) => w.has(''));
        const namespaces = all ? [''] : [...new Set([...found.values()].flatMap((w) => [...w]))].sort(cmp);
        const where = [
          ...(namespacedNames.length > 0 ? [`${namespacedNames.join(', ')} ${all ? 'in every namespace' : `in namespace ${namespaces.join(', ')}`}`] : []),
          ...(clusterNames.length > 0 ? [`${clusterNames.join(', ')} (cluster-scoped) cluster-wide`] : []),
        ].join(' and ');
        drivers.push(driver(o, t.name, label, names, namespaces, path ?? [], clusterNames,
          `${label} of tenant ${t.name} may create ${where}: ${o.packageName}, installed by the platform for all namespaces `
          + `with OLM's own client, acts on them with its cluster-wide ServiceAccounts; path: ${(path ?? []).join(' -> ')}`,
          `remove the create (or *) on these APIs from ${label}, or ${acceptText(o)}`));
      }
    }
    return { install: o.install, namespace: o.namespace, packageName: o.packageName, apis: apis.map((a) => a.name), apisKnown: known, drivers };
  });
}

/** The AuditedTenant view of a global install: what OLM creates for it, modelled as for a tenant. */
function asTenant(o: GlobalOperatorFacts): AuditedTenant {
  return {
    name: o.install,
    namespace: o.namespace,
    targetNamespaces: [],
    operatorGroupName: o.operatorGroupName,
    // no installer: OLM installs with its own client (a name no binding names)
    installerServiceAccountName: '',
    olmGeneration: o.olmGeneration,
    bundles: o.bundle ? [o.bundle] : [],
  };
}

/**
 * Owned CRDs of the bundle, `<plural>.<group>` split at the first dot as OLM does (`APIKeyToGVKHash`), with their
 * scope from the bundle's CRD manifest (`spec.scope: Cluster`; a CRD the bundle does not ship counts as namespaced,
 * which finds more drivers, never fewer).
 */
function ownedApis(bundle: OperatorBundle | undefined): Array<{ name: string; group: string; plural: string; clusterScoped: boolean }> {
  const scopes = new Map((bundle?.crds ?? []).map((c) => [c.name, c.scope]));
  const out = (bundle?.ownedCrds ?? []).map((c) => {
    const dot = c.name.indexOf('.');
    return { name: c.name, plural: dot < 0 ? c.name : c.name.slice(0, dot), group: dot < 0 ? '' : c.name.slice(dot + 1), clusterScoped: scopes.get(c.name) === 'Cluster' };
  });
  return out.filter((a, i) => out.findIndex((b) => b.name === a.name) === i).sort((a, b) => cmp(a.name, b.name));
}

function driver(
  o: GlobalOperatorFacts, tenant: string, subject: string, apis: string[], namespaces: string[], path: string[], clusterScopedApis: string[],
  what: string, fix: string,
): GlobalOperatorDriver {
  const accepted = typeof o.acceptedReason === 'string' && o.acceptedReason.trim() !== '';
  return {
    code: TENANT_CAN_DRIVE_GLOBAL_OPERATOR,
    tenant,
    subject,
    apis,
    namespaces,
    ...(clusterScopedApis.length > 0 ? { clusterScopedApis } : {}),
    path,
    accepted,
    ...(accepted ? { acceptedReason: o.acceptedReason } : {}),
    message: what,
    fix,
  };
}

function acceptText(o: GlobalOperatorFacts): string {
  return `accept it with install({ packageName: '${o.packageName}', tenantsMayDriveReason: '<who reviewed it, why>' })`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
