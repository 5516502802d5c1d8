// Guards of one tenant against the identities and namespaces of others: the installer is no ServiceAccount its pods
// or operators run as, a system namespace needs a stated reason, and the legacy pull-secret Role reaches no other
// tenant's namespace or installer token. Plain functions over plain facts. Internal: not re-exported.
import { OperatorBundle } from '../../bundle/operator-bundle';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { SystemNamespaces } from '../system-namespaces';

/** What the guards need to know of another tenant. */
export interface OtherTenantFacts {
  /** Construct path, for messages. */
  readonly path: string;
  /** Its namespace. */
  readonly namespace: string;
  /** Its installer ServiceAccount. */
  readonly installerServiceAccountName: string;
  /** Its installer token Secret, when created. */
  readonly tokenSecretName?: string;
}

/**
 * The installer ServiceAccount must be nobody else's identity.
 *
 * - `default`: every pod of the namespace that names no ServiceAccount runs as it (the API server's ServiceAccount
 *   admission plugin), including operator Deployments without `serviceAccountName` (OLM keeps the pod template's
 *   value), so they would all run with the installer's rights.
 * - an operator's ServiceAccount (CSV `permissions`/`clusterPermissions` `serviceAccountName`, or a Deployment's
 *   `spec.template.spec.serviceAccountName`): OLM's InstallPlan creates (or adopts) that ServiceAccount and binds
 *   the operator's Roles to it, and the operator's pods run as it, so the operator would hold the installer's
 *   rights (cluster-scoped ones included) and the installer the operator's.
 */
export function installerServiceAccountProblems(namespace: string, serviceAccount: string, bundles: OperatorBundle[]): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  const users = new Map<string, Set<string>>(); // ServiceAccount -> CSV names
  for (const b of bundles) {
    const accounts = [
      ...b.permissions.map((p) => p.serviceAccountName),
      ...b.clusterPermissions.map((p) => p.serviceAccountName),
      ...b.deployments.map((d) => d.serviceAccountName),
    ];
    for (const sa of accounts) users.set(sa, (users.get(sa) ?? new Set<string>()).add(b.name));
  }
  const operators = [...(users.get(serviceAccount) ?? [])].sort();
  if (serviceAccount === 'default') {
    out.push({
      code: CODE.InstallerServiceAccountIsDefault,
      field: 'installerServiceAccountName',
      value: serviceAccount,
      message: `every pod in namespace '${namespace}' that names no ServiceAccount runs as 'default'${operators.length > 0 ? ` (so do the operators ${operators.join(', ')})` : ''}, so it would hold the installer's rights`,
      fix: 'leave installerServiceAccountName unset (the namespace name) or use a name no pod runs as',
    });
    return out;
  }
  for (const csv of operators) {
    out.push({
      code: CODE.InstallerServiceAccountIsOperators,
      field: 'installerServiceAccountName',
      value: serviceAccount,
      message: `operator ${csv} runs as ServiceAccount '${serviceAccount}' in namespace '${namespace}' (its CSV permissions or Deployments name it); OLM binds the operator's Roles to it and its pods would hold the installer's rights`,
      fix: `give the installer a ServiceAccount that no operator uses (installerServiceAccountName), e.g. '${namespace}-installer'`,
    });
  }
  return out;
}

/** What `systemNamespaceProblems` checks. */
export interface SystemNamespaceFacts {
  /** The tenant namespace (not checked: the tenant lives there anyway). */
  readonly namespace: string;
  /** Target namespaces (empty for AllNamespaces). */
  readonly targetNamespaces: string[];
  /** `legacyPullSecretAccess.catalogNamespace`, if any. */
  readonly pullSecretNamespace?: string;
  /** `systemNamespacesReason`. */
  readonly reason?: string;
}

/** System namespaces as targets or pull-secret namespace need `systemNamespacesReason`; the reason must be used and non-empty. */
export function systemNamespaceProblems(facts: SystemNamespaceFacts): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  const systemTargets = facts.targetNamespaces.filter((t) => t !== facts.namespace && SystemNamespaces.isSystemNamespace(t));
  const systemPullSecrets = facts.pullSecretNamespace !== undefined && SystemNamespaces.isSystemNamespace(facts.pullSecretNamespace);
  if (facts.reason === undefined) {
    for (const t of systemTargets) {
      out.push({
        code: CODE.SystemNamespaceTarget,
        field: 'targetNamespaces',
        value: t,
        message: `'${t}' is a system namespace; OLM would copy the operator's Roles there with its own cluster-admin client, giving the operator the rights of those Roles over cluster components`,
        fix: `remove '${t}' from targetNamespaces, or set systemNamespacesReason to say why the operator must act there (it is written to the OperatorGroup)`,
      });
    }
    if (systemPullSecrets) {
      out.push({
        code: CODE.SystemNamespacePullSecrets,
        field: 'legacyPullSecretAccess.catalogNamespace',
        value: facts.pullSecretNamespace,
        message: `'${facts.pullSecretNamespace}' is a system namespace; the installer would read Secrets of a cluster component there`,
        fix: 'drop legacyPullSecretAccess (current OLM does not need it), or set systemNamespacesReason (it is written to the pull-secret Role)',
      });
    }
    return out;
  }
  if (facts.reason.trim() === '') {
    out.push({
      code: CODE.EmptySystemNamespacesReason,
      field: 'systemNamespacesReason',
      value: facts.reason,
      message: 'the reason for reaching into system namespaces is empty',
      fix: 'say why the tenant needs these system namespaces (it is written to the objects)',
    });
  }
  if (systemTargets.length === 0 && !systemPullSecrets) {
    out.push({
      code: CODE.SystemNamespacesReasonUnused,
      field: 'systemNamespacesReason',
      value: facts.reason,
      message: 'systemNamespacesReason is set but no target namespace or pull-secret namespace is a system namespace, so it opts into nothing',
      fix: 'drop systemNamespacesReason',
    });
  }
  return out;
}

/**
 * The legacy pull-secret Role must not reach into another tenant: its namespace may not be another tenant's, and
 * no secret name may be the installer token Secret of another tenant in that namespace (reading it is acting as
 * that tenant's installer). Both are reported: the second says what the first would have exposed.
 */
export function pullSecretProblems(
  catalogNamespace: string, secretNames: string[], selfPath: string, tenants: OtherTenantFacts[],
): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  const inNamespace = tenants.filter((t) => t.namespace === catalogNamespace);
  for (const t of inNamespace) {
    if (t.path === selfPath) continue;
    out.push({
      code: CODE.PullSecretNamespaceOfOtherTenant,
      field: 'legacyPullSecretAccess.catalogNamespace',
      value: catalogNamespace,
      message: `namespace '${catalogNamespace}' belongs to tenant ${t.path}; the installer would read Secrets there`,
      fix: "name the global catalog namespace (the catalog operator's -namespace flag), never a tenant namespace",
    });
  }
  for (const t of inNamespace) {
    // its own token: no other identity to reach (and the namespace is then its own, not a catalog namespace)
    if (t.path === selfPath || t.tokenSecretName === undefined || !secretNames.includes(t.tokenSecretName)) continue;
    out.push({
      code: CODE.PullSecretIsInstallerToken,
      field: 'legacyPullSecretAccess.secretNames',
      value: t.tokenSecretName,
      message: `Secret ${catalogNamespace}/${t.tokenSecretName} is the installer token of tenant ${t.path} (ServiceAccount ${t.namespace}/${t.installerServiceAccountName}); reading it is acting as that installer`,
      fix: `remove '${t.tokenSecretName}' from secretNames`,
    });
  }
  return out;
}
