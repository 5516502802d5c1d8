// Which of a tenant's identities may remove or change its baseline (OLMT-043), or set a Service's external IPs
// (OLMT-053). Internal, not re-exported.
//
// The baseline lives in the tenant namespace, where the tenant's operators hold what their CSV permissions ask for
// and the installer holds what it grants them (the RBAC authorizer's escalation check: `ConfirmNoEscalation`). A
// `delete` on networkpolicies removes the default deny, an `update` on resourcequotas lifts the quota, and an `update`
// or `patch` of `resourcequotas/status` resets the usage the API server's quota admission reads (`status.used`), so
// the quota admits more until the quota controller recalculates it (its full resync: every 5 minutes by default,
// kube-controller-manager --resource-quota-sync-period; pkg/controller/resourcequota). The question
// is the effective-power closure (`EffectivePower`) of each tenant identity, over the objects OLM creates for the
// tenant and the tenant's own objects.
import { ApiObject } from 'cdk8s';
import { findBuiltin } from '../audit/builtin-roles';
import { EffectivePower, PowerGrant, PowerObject, ruleAllows, subjectLabel } from '../audit/effective-power';
import { checkRulesArgs } from '../audit/input-checks';
import { ADDITIVE_POLICY_KINDS } from '../audit/mechanisms/additive-policies';
import { TenancyAudit } from '../audit/tenancy-audit';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { SynthPass } from '../core/synth-pass';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';
import { appObjects, POWER_KINDS, tenantIdentities } from '../tenant/checks/approver-reach';
import type { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';

/** The writes that remove or change an object (patch is its own verb; deletecollection takes no name). */
const VERBS = ['delete', 'deletecollection', 'patch', 'update'];
/** The writes of a status subresource (the API serves no delete there). */
const STATUS_VERBS = ['patch', 'update'];

/** What the findings read of a `TenantBaseline` (an interface, so that this file need not import the baseline). */
export interface BaselineObjects {
  readonly resourceQuota: { readonly name: string };
  readonly limitRange: { readonly name: string };
  readonly networkPolicies: ReadonlyArray<{ readonly name: string }>;
  readonly protectsManagedObjects: boolean;
}

/** The `TenantCanRemoveBaseline` findings of a baseline: one per tenant identity that may change or delete its objects. */
export function baselineRemovalFindings(tenant: ScopedOperatorTenant, baseline: BaselineObjects): DiagnosticDetails[] {
  const facts = tenant.auditFacts();
  const ns = facts.namespace;
  const targets: Target[] = [
    { apiGroup: '', resource: 'resourcequotas', names: [baseline.resourceQuota.name], verbs: VERBS },
    { apiGroup: '', resource: 'resourcequotas/status', names: [baseline.resourceQuota.name], verbs: STATUS_VERBS },
    { apiGroup: '', resource: 'limitranges', names: [baseline.limitRange.name], verbs: VERBS },
    { apiGroup: 'networking.k8s.io', resource: 'networkpolicies', names: baseline.networkPolicies.map((p) => p.name), verbs: VERBS },
  ].filter((t) => t.names.length > 0);
  // policies whose effect is a union (audit/mechanisms/additive-policies.ts): creating one beside the default deny
  // undoes it, and protectManagedObjects guards only UPDATE and DELETE of the baseline's own objects
  if (baseline.networkPolicies.length > 0) {
    for (const k of ADDITIVE_POLICY_KINDS.filter((x) => x.union)) targets.push({ apiGroup: k.group, resource: k.resource, names: [''], verbs: ['create'], additive: true });
  }
  const objects = tenantPowerObjects(tenant);
  // most tenants: no role anywhere allows a target request or a way to more rules, so no closure is needed
  if (!anyRoleMayReach(objects, targets)) return [];
  const power = new EffectivePower(objects);
  const nsServiceAccount = `ServiceAccount ${ns}/`;
  // requests as a ServiceAccount of the namespace are refused in the cluster by the admission policy
  const usable = (g: PowerGrant) => (g.namespace === '' || g.namespace === ns) && !(baseline.protectsManagedObjects && g.holder.startsWith(nsServiceAccount));
  const inNamespace = (g: PowerGrant) => g.namespace === '' || g.namespace === ns;
  const out: DiagnosticDetails[] = [];
  for (const s of tenantIdentities(facts)) {
    const label = subjectLabel(s);
    const all = power._of(s).grants;
    const allowed: string[] = [];
    let path: string[] | undefined;
    let additive = false;
    for (const t of targets) {
      const grants = all.filter(t.additive ? inNamespace : usable);
      const verbs = t.verbs.filter((verb) => {
        const names = verb === 'deletecollection' || verb === 'create' ? [''] : t.names;
        const allows = (x: PowerGrant) => names.some((name) => EffectivePower.allows(x.rules, {
          verb, apiGroup: t.apiGroup, resource: t.resource, name,
        }));
        const g = grants.find(allows);
        if (g && !path) path = g.path;
        return g !== undefined;
      });
      if (verbs.length === 0) continue;
      allowed.push(`${verbs.join(', ')} ${t.resource}${t.additive ? `${t.apiGroup === 'networking.k8s.io' ? '' : `.${t.apiGroup}`} (policies add up: one more allowing all traffic undoes the default deny)` : ''}`);
      if (t.additive) additive = true;
    }
    if (allowed.length === 0) continue;
    out.push({
      code: CODE.TenantCanRemoveBaseline,
      field: 'tenant',
      value: label,
      message: `${label} may remove or change the baseline of namespace '${ns}' (${allowed.join('; ')}): its quota, limits or default-deny NetworkPolicies; path: ${path!.join(' -> ')}`,
      fix: additive
        ? 'remove the create grant (protectManagedObjects guards UPDATE and DELETE of the baseline\'s own objects, not a new policy beside them), or lower OLMT-043 with policyChecks and a reason'
        : baseline.protectsManagedObjects
          ? 'remove the grant (people are not covered by the admission policy), or lower OLMT-043 with policyChecks and a reason'
          : 'set protectManagedObjects: true on the baseline (an admission policy refuses these requests from the namespace\'s ServiceAccounts), or remove the grant, or lower OLMT-043 with policyChecks',
    });
  }
  return out;
}

/** What grants rights to a tenant's identities: the objects OLM creates for the tenant, and the tenant's own. */
function tenantPowerObjects(tenant: ScopedOperatorTenant): PowerObject[] {
  const objects: PowerObject[] = [...TenancyAudit.objectsOf(tenant.auditFacts())];
  for (const c of tenant.node.findAll()) {
    if (c instanceof ApiObject && POWER_KINDS.has(c.kind)) objects.push({ manifest: SynthPass.json(c), origin: 'App' });
  }
  return objects;
}

/** The Service writes that may set `spec.externalIPs` (create; update and patch of any Service). */
const SERVICE_WRITES = ['create', 'update', 'patch'];

/**
 * The `TenantCanSetExternalIps` findings (OLMT-053): one per tenant identity whose effective power allows creating,
 * updating or patching Services in the tenant namespace, where nothing refuses `spec.externalIPs` (CVE-2020-8554:
 * kube-proxy sends every pod's traffic to those IPs to the Service's endpoints). The caller skips it when the
 * baseline's `ServiceExternalIpsAdmissionPolicy` covers the namespace or the cluster runs `DenyServiceExternalIPs`.
 */
export function externalIpFindings(tenant: ScopedOperatorTenant): DiagnosticDetails[] {
  const facts = tenant.auditFacts();
  const ns = facts.namespace;
  // what OLM creates for the tenant, and the App's objects in the namespace and its cluster-wide RBAC
  const power = new EffectivePower([...TenancyAudit.objectsOf(facts), ...appObjects(tenant, ns)]);
  const out: DiagnosticDetails[] = [];
  for (const s of tenantIdentities(facts)) {
    const label = subjectLabel(s);
    const grants = power._of(s).grants.filter((g) => g.namespace === '' || g.namespace === ns);
    let found: { verb: string; grant: PowerGrant } | undefined;
    for (const verb of SERVICE_WRITES) {
      // create has no name; update and patch of any Service the rules name (or of any name)
      const names = verb === 'create' ? [''] : [PROBE, ...new Set(grants.flatMap((g) => g.rules.flatMap((r) => r.resourceNames ?? [])))];
      const grant = grants.find((g) => names.some((name) => EffectivePower.allows(g.rules, { verb, apiGroup: '', resource: 'services', name })));
      if (grant) {
        found = { verb, grant };
        break;
      }
    }
    if (!found) continue;
    out.push({
      code: CODE.TenantCanSetExternalIps,
      field: 'tenant',
      value: label,
      message: `${label} may ${found.verb} Services in namespace '${ns}' and so set spec.externalIPs: kube-proxy then sends the traffic of every pod of the cluster `
        + `to those IPs to its endpoints (CVE-2020-8554); path: ${found.grant.path.join(' -> ')}`,
      fix: 'set refuseServiceExternalIps: true on the baseline (a ValidatingAdmissionPolicy refuses spec.externalIPs in the namespace), or serviceExternalIpsDeniedReason '
        + 'when the API server runs the DenyServiceExternalIPs admission plugin, or raise OLMT-053 to ERROR with policyChecks',
    });
  }
  return out;
}

type Target = { apiGroup: string; resource: string; names: string[]; verbs: string[]; additive?: boolean };
const RBAC = 'rbac.authorization.k8s.io';
/** A name no rule lists: allowed only by rules without resourceNames. */
const PROBE = 'cdk8s-olm-tenancy-probe-any-name';

/**
 * False only when no identity can reach a target request: no role of `objects` (nor a built-in role a binding names)
 * allows one, none allows `escalate`, `bind` or `impersonate` (the ways to rules no role of the input holds), no
 * binding names a role nobody defines (counted as unbounded by `EffectivePower`) or an aggregated built-in role.
 */
function anyRoleMayReach(objects: PowerObject[], targets: Target[]): boolean {
  const mayReach = (rules: PolicyRule[]) => {
    // the rules are checked once (as `EffectivePower.allows` would at its first call), then asked ~40 requests
    checkRulesArgs('EffectivePower.allows', rules);
    const allows = (verb: string, apiGroup: string, resource: string, name: string) =>
      ruleAllows(rules, { verb, apiGroup, resource, name });
    if (['roles', 'clusterroles'].some((r) => allows('escalate', RBAC, r, PROBE) || allows('bind', RBAC, r, PROBE))) return true;
    if (rules.some((r) => (r.verbs.includes('bind') || r.verbs.includes('*')) && (r.resourceNames ?? []).length > 0)) return true;
    if (['users', 'groups', 'serviceaccounts'].some((r) => allows('impersonate', '', r, PROBE))) return true;
    return targets.some((t) => t.verbs.some((verb) => (verb === 'deletecollection' || verb === 'create' ? [''] : t.names).some((n) => allows(verb, t.apiGroup, t.resource, n))));
  };
  const defined = new Set<string>();
  for (const o of objects) {
    const m = o.manifest;
    if (m?.kind !== 'Role' && m?.kind !== 'ClusterRole') continue;
    defined.add(`${m.kind}/${m.kind === 'Role' ? m.metadata?.namespace ?? '' : ''}/${m.metadata?.name ?? ''}`);
    if (mayReach((m.rules ?? []).map((r: any) => PolicyRules.fromJson(r)))) return true;
  }
  for (const o of objects) {
    const m = o.manifest;
    if (m?.kind !== 'RoleBinding' && m?.kind !== 'ClusterRoleBinding') continue;
    const kind: string = m.roleRef?.kind ?? '';
    const name: string = m.roleRef?.name ?? '';
    const ns: string = kind === 'Role' ? m.metadata?.namespace ?? '' : '';
    const builtin = findBuiltin(kind, name, ns);
    if (builtin) {
      if (builtin.aggregationLabel || mayReach(builtin.rules)) return true;
    } else if (!defined.has(`${kind}/${ns}/${name}`)) {
      return true;
    }
  }
  return false;
}
