/**
 * The installer rule sets published in the OpenShift/OKD docs, as plain data, so that a tenant's installer Role can
 * start from them and the preflight can say exactly what they lack for a given bundle.
 */
import { PolicyRule } from '../rbac/policy-rule';

/** Installer rule sets from the OKD/OpenShift documentation. */
export class DefaultInstallerRules {
  /**
   * The Role from the OKD 4.17 docs "Allowing non-cluster administrators to install Operators", section
   * "Fine-grained permissions" (openshift/openshift-docs `modules/olm-policy-fine-grained-permissions.adoc`,
   * https://docs.okd.io/4.17/operators/admin/olm-creating-policy.html), rule for rule, in the docs' order.
   * The docs call it "a generic example": the preflight tells what a given operator needs on top of it.
   */
  public static okdScopedInstall(): PolicyRule[] {
    const write = ['get', 'create', 'update', 'patch'];
    const all = ['list', 'watch', 'get', 'create', 'update', 'patch', 'delete'];
    return [
      { apiGroups: ['operators.coreos.com'], resources: ['subscriptions', 'clusterserviceversions'], verbs: [...write] },
      { apiGroups: [''], resources: ['services', 'serviceaccounts'], verbs: [...write] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: [...write] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: [...all] },
      { apiGroups: [''], resources: ['pods'], verbs: [...all] },
    ];
  }

  /**
   * The namespaced Role rule the same docs add "if any Operator specifies a pull secret"
   * (create, update, patch on secrets).
   */
  public static okdPullSecretNamespaced(): PolicyRule[] {
    return [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update', 'patch'] }];
  }

  /**
   * The ClusterRole rule the same docs add "if any Operator specifies a pull secret" ("required to get the secret
   * from the OLM namespace"): get on secrets.
   */
  public static okdPullSecretCluster(): PolicyRule[] {
    return [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
  }

  private constructor() {}
}
