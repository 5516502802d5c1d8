// Which of a tenant's identities may remove or change its baseline (OLMT-048). Internal, not re-exported.
//
// The baseline lives in the tenant namespace, where the tenant's operators hold what their CSV permissions ask for
// and the installer holds what it grants them (the RBAC authorizer's escalation check: `ConfirmNoEscalation`). A
// `delete` on networkpolicies removes the default deny, an `update` on resourcequotas lifts the quota. The question
// is the effective-power closure (`EffectivePower`) of each tenant identity, over the objects OLM creates for the
// tenant and the tenant's own objects.
import { ApiObject } from 'cdk8s';
import type { TenantBaseline } from './tenant-baseline';
import { EffectivePower, PowerGrant, PowerObject, RbacSubject, SubjectKind, subjectLabel } from '../audit/effective-power';
import { TenancyAudit } from '../audit/tenancy-audit';
import { DiagnosticDetails } from '../core/diagnostics';
import type { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';

const KINDS = new Set([
  'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ServiceAccount', 'Secret',
  'Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController',
]);
/** The writes that remove or change an object (patch is its own verb; deletecollection takes no name). */
const VERBS = ['delete', 'deletecollection', 'patch', 'update'];

/** The `TenantCanRemoveBaseline` findings of a baseline: one per tenant identity that may change or delete its objects. */
export function baselineRemovalFindings(tenant: ScopedOperatorTenant, baseline: TenantBaseline): DiagnosticDetails[] {
  const facts = tenant.auditFacts();
  const ns = facts.namespace;
  const targets: Array<{ apiGroup: string; resource: string; names: string[] }> = [
    { apiGroup: '', resource: 'resourcequotas', names: [baseline.resourceQuota.name] },
    { apiGroup: '', resource: 'limitranges', names: [baseline.limitRange.name] },
    { apiGroup: 'networking.k8s.io', resource: 'networkpolicies', names: baseline.networkPolicies.map((p) => p.name) },
  ].filter((t) => t.names.length > 0);
  const objects: PowerObject[] = [...TenancyAudit.objectsOf(facts)];
  for (const c of tenant.node.findAll()) {
    if (c instanceof ApiObject && KINDS.has(c.kind)) objects.push({ manifest: c.toJson(), origin: 'App' });
  }
  const power = new EffectivePower(objects);
  const nsServiceAccount = `ServiceAccount ${ns}/`;
  // requests as a ServiceAccount of the namespace are refused in the cluster by the admission policy
  const usable = (g: PowerGrant) => (g.namespace === '' || g.namespace === ns) && !(baseline.protectsManagedObjects && g.holder.startsWith(nsServiceAccount));
  const subjects: RbacSubject[] = [
    { kind: SubjectKind.SERVICE_ACCOUNT, name: facts.installerServiceAccountName, namespace: ns },
    ...TenancyAudit.operatorServiceAccounts(facts.bundles ?? []).map((name) => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace: ns })),
    ...(facts.people ?? []),
  ];
  const out: DiagnosticDetails[] = [];
  const seen = new Set<string>();
  for (const s of subjects) {
    const label = subjectLabel(s);
    if (seen.has(label)) continue;
    seen.add(label);
    const grants = power._of(s).grants.filter(usable);
    const allowed: string[] = [];
    let path: string[] | undefined;
    for (const t of targets) {
      const verbs = VERBS.filter((verb) => {
        const names = verb === 'deletecollection' ? [''] : t.names;
        const allows = (x: PowerGrant) => names.some((name) => EffectivePower.allows(x.rules, {
          verb, apiGroup: t.apiGroup, resource: t.resource, name,
        }));
        const g = grants.find(allows);
        if (g && !path) path = g.path;
        return g !== undefined;
      });
      if (verbs.length > 0) allowed.push(`${verbs.join(', ')} ${t.resource}`);
    }
    if (allowed.length === 0) continue;
    out.push({
      code: 'TenantCanRemoveBaseline',
      field: 'tenant',
      value: label,
      message: `${label} may remove or change the baseline of namespace '${ns}' (${allowed.join('; ')}): its quota, limits or default-deny NetworkPolicies; path: ${path!.join(' -> ')}`,
      fix: baseline.protectsManagedObjects
        ? 'remove the grant (people are not covered by the admission policy), or lower OLMT-048 with policyChecks and a reason'
        : 'set protectManagedObjects: true on the baseline (an admission policy refuses these requests from the namespace\'s ServiceAccounts), or remove the grant, or lower OLMT-048 with policyChecks',
    });
  }
  return out;
}
