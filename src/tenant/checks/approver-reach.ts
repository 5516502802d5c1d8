// Whether a tenant's identities can become its pinned InstallPlan approver (OLMT-042). Internal, not re-exported.
//
// The approver approves only InstallPlans made of pinned CSVs; an identity that can run as its ServiceAccount
// approves any. A pod (or a Deployment, Job, ... whose pods) created in a namespace may name any ServiceAccount of
// that namespace (`plugin/pkg/admission/serviceaccount`), so the question is the effective-power closure
// (`EffectivePower`: pods and workload controllers, `serviceaccounts/token`, token Secrets, `pods/exec`,
// impersonation) of every tenant identity over the objects OLM creates for the tenant and the App's objects there.
import { IConstruct } from 'constructs';
import { AuditedTenant } from '../../audit/audited-tenant';
import { EffectivePower, PowerObject, RbacSubject, SubjectKind, subjectLabel } from '../../audit/effective-power';
import { TenancyAudit } from '../../audit/tenancy-audit';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { SynthPass } from '../../core/synth-pass';
import { PinnedInstallPlanApprover } from '../subscriptions/pinned-install-plan-approver';

/** Kinds of the App read for the closure (what can grant or hold power); also read by the baseline's OLMT-043. */
export const POWER_KINDS: ReadonlySet<string> = new Set([
  'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ServiceAccount', 'Secret',
  'Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController',
]);

/**
 * The `TenantCanBecomeApprover` findings of `approver` for the tenants whose namespace is its approver namespace
 * (`tenants`: their facts): one per tenant identity that can become the approver's ServiceAccount, with the path.
 * Only called when a tenant lives there (the default platform namespace holds no tenant).
 */
export function approverReachFindings(approver: PinnedInstallPlanApprover, tenants: AuditedTenant[]): DiagnosticDetails[] {
  if (tenants.length === 0) return [];
  const ns = approver.approverNamespace;
  const target = subjectLabel({ kind: SubjectKind.SERVICE_ACCOUNT, name: approver.runName, namespace: ns });
  const objects: PowerObject[] = [...appObjects(approver, ns)];
  for (const t of tenants) objects.push(...TenancyAudit.objectsOf(t));
  const power = new EffectivePower(objects);
  const out: DiagnosticDetails[] = [];
  for (const t of tenants) {
    for (const s of tenantIdentities(t)) {
      const label = subjectLabel(s);
      const where = t.namespace === approver.namespace ? 'the tenant namespace' : `namespace '${ns}' of tenant ${t.name}`;
      const fix = `leave approverNamespace out (the approver then runs in the platform namespace '${PinnedInstallPlanApprover.DEFAULT_APPROVER_NAMESPACE}', where no tenant identity holds rights), or remove the right on the path`;
      if (label === target) {
        out.push({
          code: CODE.TenantCanBecomeApprover,
          field: 'addPinnedApprover(options).approverNamespace',
          value: ns,
          message: `${label} is the pinned approver's ServiceAccount itself (an operator's pods run as it), so it can approve any InstallPlan of namespace '${approver.namespace}', not only pinned CSVs`,
          fix,
        });
        continue;
      }
      const reached = power._of(s).identities.find((i) => i.identity === target);
      if (!reached) continue;
      out.push({
        code: CODE.TenantCanBecomeApprover,
        field: 'addPinnedApprover(options).approverNamespace',
        value: ns,
        message: `the pinned approver runs in ${where}, and ${label} can become its ServiceAccount, so it can approve any InstallPlan of namespace '${approver.namespace}', not only pinned CSVs; path: ${reached.path.join(' -> ')}`,
        fix,
      });
    }
  }
  return out;
}

/** The tenant's audited identities, each once: its installer, its operators' ServiceAccounts, its people. */
export function tenantIdentities(t: AuditedTenant): RbacSubject[] {
  const out: RbacSubject[] = [{ kind: SubjectKind.SERVICE_ACCOUNT, name: t.installerServiceAccountName, namespace: t.namespace }];
  for (const sa of TenancyAudit.operatorServiceAccounts(t.bundles ?? [])) {
    out.push({ kind: SubjectKind.SERVICE_ACCOUNT, name: sa, namespace: t.namespace });
  }
  out.push(...(t.people ?? []));
  const seen = new Set<string>();
  return out.filter((s) => {
    const label = subjectLabel(s);
    if (seen.has(label)) return false;
    seen.add(label);
    return true;
  });
}

/** The App's objects in namespace `ns` and its cluster-scoped RBAC (what grants rights in `ns`). */
export function* appObjects(scope: IConstruct, ns: string): Generator<PowerObject> {
  for (const c of SynthPass.apiObjects(scope.node.root)) {
    if (!POWER_KINDS.has(c.kind)) continue;
    const m = SynthPass.json(c);
    const objectNs = m?.metadata?.namespace ?? '';
    if (objectNs === ns || c.kind === 'ClusterRole' || c.kind === 'ClusterRoleBinding') yield { manifest: m, origin: 'App' };
  }
}
