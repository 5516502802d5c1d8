/**
 * The least-privilege installer ServiceAccount rules for operator-controller before v1.11.0, which installed with
 * `ClusterExtension.spec.serviceAccount` (its preflight refused an account that could not create every object, and
 * the API server's RBAC escalation check requires the account to hold every rule it grants). Derived the way
 * upstream's removed `docs/howto/derive-service-account.md` told people to write it by hand: per kind of rendered
 * object `create`/`list`/`watch` (cannot be limited by name) and `get`/`update`/`patch`/`delete` on the rendered
 * names; `update` on the extension's `clusterextensions/finalizers` (OwnerReferencesPermissionEnforcement); plus the
 * rules of every rendered ClusterRole (cluster-wide) and Role (in its namespace). Pure.
 */
import { RegistryV1Render } from './registry-v1-render';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

/** The derived rules. */
export interface OlmV1InstallerRules {
  /** Rules for the installer's ClusterRole. */
  readonly clusterRules: PolicyRule[];
  /** Rules for a Role per namespace (the install namespace, and watched namespaces). */
  readonly namespacedRules: { [namespace: string]: PolicyRule[] };
}

/** API group and resource of the kinds the registry+v1 renderer writes. */
const RESOURCES: Record<string, [string, string]> = {
  'v1/ServiceAccount': ['', 'serviceaccounts'],
  'v1/Service': ['', 'services'],
  'v1/ConfigMap': ['', 'configmaps'],
  'v1/Secret': ['', 'secrets'],
  'apps/v1/Deployment': ['apps', 'deployments'],
  'rbac.authorization.k8s.io/v1/Role': ['rbac.authorization.k8s.io', 'roles'],
  'rbac.authorization.k8s.io/v1/RoleBinding': ['rbac.authorization.k8s.io', 'rolebindings'],
  'rbac.authorization.k8s.io/v1/ClusterRole': ['rbac.authorization.k8s.io', 'clusterroles'],
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ['rbac.authorization.k8s.io', 'clusterrolebindings'],
  'apiextensions.k8s.io/v1/CustomResourceDefinition': ['apiextensions.k8s.io', 'customresourcedefinitions'],
  'apiextensions.k8s.io/v1beta1/CustomResourceDefinition': ['apiextensions.k8s.io', 'customresourcedefinitions'],
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': ['admissionregistration.k8s.io', 'validatingwebhookconfigurations'],
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations'],
  'cert-manager.io/v1/Issuer': ['cert-manager.io', 'issuers'],
  'cert-manager.io/v1/Certificate': ['cert-manager.io', 'certificates'],
  'monitoring.coreos.com/v1/PrometheusRule': ['monitoring.coreos.com', 'prometheusrules'],
  'monitoring.coreos.com/v1/ServiceMonitor': ['monitoring.coreos.com', 'servicemonitors'],
  'policy/v1/PodDisruptionBudget': ['policy', 'poddisruptionbudgets'],
  'policy/v1beta1/PodDisruptionBudget': ['policy', 'poddisruptionbudgets'],
  'scheduling.k8s.io/v1/PriorityClass': ['scheduling.k8s.io', 'priorityclasses'],
  'autoscaling.k8s.io/v1/VerticalPodAutoscaler': ['autoscaling.k8s.io', 'verticalpodautoscalers'],
  'console.openshift.io/v1/ConsoleYAMLSample': ['console.openshift.io', 'consoleyamlsamples'],
};
const CLUSTER_KINDS: ReadonlySet<string> = new Set(['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration', 'PriorityClass', 'ConsoleYAMLSample']);

/** Derives installer rules from renders. */
export class OlmV1InstallerRbac {
  /**
   * The rules an installer ServiceAccount needs for every render in `renders` (e.g. every bundle the version range
   * resolves to, so upgrades work too) of the ClusterExtension `extensionName`.
   * @throws Error naming the object when a rendered kind is not known
   */
  public static derive(extensionName: string, renders: RegistryV1Render[]): OlmV1InstallerRules {
    const cluster: PolicyRule[] = [{ apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions/finalizers'], verbs: ['update'], resourceNames: [extensionName] }];
    const namespaced = new Map<string, PolicyRule[]>();
    const add = (ns: string | undefined, rules: PolicyRule[]) => {
      if (ns === undefined) cluster.push(...rules);
      else namespaced.set(ns, [...(namespaced.get(ns) ?? []), ...rules]);
    };
    for (const render of renders) {
      for (const o of render.objects) {
        const key = `${o.apiVersion}/${o.kind}`;
        const res = RESOURCES[key];
        if (!res) throw new Error(`OlmV1InstallerRbac.derive: rendered object ${o.kind} ${o.metadata?.name} (${o.apiVersion}) has no known resource; fix: report it`);
        // upstream sets metadata.namespace on webhook configurations too: cluster-scoped kinds are managed cluster-wide
        const ns = CLUSTER_KINDS.has(o.kind) ? undefined : (o.metadata?.namespace ?? render.installNamespace);
        const [group, resource] = res;
        add(ns, [
          { apiGroups: [group], resources: [resource], verbs: ['create', 'list', 'watch'] },
          { apiGroups: [group], resources: [resource], verbs: ['get', 'update', 'patch', 'delete'], resourceNames: [String(o.metadata.name)] },
        ]);
        // The API server's escalation check: to create a role (or bind it) the installer must hold its rules.
        if (o.kind === 'ClusterRole') add(undefined, (o.rules ?? []).map(toRule));
        if (o.kind === 'Role') add(o.metadata.namespace, (o.rules ?? []).map(toRule));
        // Binding a role the render does not define (e.g. cluster-admin): 'bind' on exactly that role.
        if ((o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding') && !definedRole(render, o)) {
          const roleResource = o.roleRef?.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
          const bindNs = o.kind === 'ClusterRoleBinding' ? undefined : o.metadata.namespace;
          add(bindNs, [{ apiGroups: ['rbac.authorization.k8s.io'], resources: [roleResource], verbs: ['bind'], resourceNames: [String(o.roleRef?.name)] }]);
        }
      }
    }
    const namespacedRules: { [namespace: string]: PolicyRule[] } = {};
    for (const ns of [...namespaced.keys()].sort()) namespacedRules[ns] = RbacRules.compact(namespaced.get(ns)!);
    return { clusterRules: RbacRules.compact(cluster), namespacedRules };
  }

  private constructor() {}
}

function definedRole(render: RegistryV1Render, binding: any): boolean {
  const kind = binding.roleRef?.kind;
  return render.objects.some((o) => o.kind === kind && o.metadata?.name === binding.roleRef?.name
    && (kind === 'ClusterRole' || o.metadata?.namespace === binding.metadata?.namespace));
}

// Kubernetes JSON (`nonResourceURLs`) to the engine's PolicyRule (`nonResourceUrls`): one reader, so URL rules are not lost.
function toRule(r: any): PolicyRule {
  return PolicyRules.fromJson(r);
}
