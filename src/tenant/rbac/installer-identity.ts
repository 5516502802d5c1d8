// The tenant namespace and the installer's identity: the Namespace, the installer ServiceAccount and its token Secret.
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { clusterTargetsOf, olmRequestsTokens } from '../../core/cluster-targets';
import { l1Metadata } from '../../core/l1-metadata';
import { nonEmpty, orderAfter } from '../private';
import { PodSecurityLevel, ScopedOperatorTenantProps } from '../scoped-operator-tenant-props';

/** The props the installer identity reads (the tenant's checked props). */
export type InstallerIdentityProps = Pick<ScopedOperatorTenantProps, 'createNamespace' | 'namespaceLabels' | 'namespaceAnnotations'
| 'podSecurity' | 'podSecurityWarn' | 'podSecurityAudit' | 'createTokenSecret' | 'tokenSecretName'>;

/**
 * The Namespace (when created), the installer ServiceAccount named in the OperatorGroup, and its long-lived token
 * Secret (when created), as children of the tenant, in this order.
 */
export class InstallerIdentity {
  /** The Namespace object, when created. */
  public readonly namespace?: k8s.KubeNamespace;
  /** The installer ServiceAccount. */
  public readonly serviceAccount: k8s.KubeServiceAccount;
  /** The token Secret, when created. */
  public readonly tokenSecret?: k8s.KubeSecret;

  constructor(scope: Construct, namespaceName: string, serviceAccountName: string, props: InstallerIdentityProps) {
    // 1. Namespace (L1: cdk8s-plus-28 Namespace adds `spec: {}`, which the docs' object does not have)
    if (props.createNamespace ?? true) {
      const labels = { ...(props.namespaceLabels ?? {}) };
      // Secure default: enforce baseline, warn and audit restricted (see docs/tenant.md for why not enforce restricted).
      const podSecurity: Array<[string, PodSecurityLevel | undefined, PodSecurityLevel]> = [
        ['enforce', props.podSecurity, PodSecurityLevel.BASELINE],
        ['warn', props.podSecurityWarn, PodSecurityLevel.RESTRICTED],
        ['audit', props.podSecurityAudit, PodSecurityLevel.RESTRICTED],
      ];
      for (const [mode, level, fallback] of podSecurity) {
        const key = `pod-security.kubernetes.io/${mode}`;
        if (level !== undefined || labels[key] === undefined) labels[key] = level ?? fallback;
      }
      this.namespace = new k8s.KubeNamespace(scope, 'Namespace', {
        metadata: l1Metadata({ name: namespaceName, labels: nonEmpty(labels), annotations: nonEmpty(props.namespaceAnnotations) }),
      });
    }

    // 2. installer ServiceAccount (L1: cdk8s-plus adds automountServiceAccountToken: false)
    this.serviceAccount = new k8s.KubeServiceAccount(scope, 'InstallerServiceAccount', {
      metadata: l1Metadata({ name: serviceAccountName, namespace: namespaceName }),
    });
    orderAfter(this.serviceAccount, this.namespace);

    // 3. long-lived token Secret (L1: cdk8s-plus-28 ServiceAccountTokenSecret adds `immutable: false` and `stringData: {}`).
    // By default only where the App's targets (TenancyAppProps.targets) declare an OLM that needs it: OLM >= 0.29
    // uses a token Secret of the ServiceAccount if one exists and otherwise requests a token with the TokenRequest
    // API (operator-lifecycle-manager pkg/lib/scoped/token_retriever.go, BearerTokenRetriever.Retrieve ->
    // requestSAToken; PR #3377), so there the Secret is a long-lived credential nobody needs.
    if (props.createTokenSecret ?? !olmRequestsTokens(clusterTargetsOf(scope))) {
      this.tokenSecret = new k8s.KubeSecret(scope, 'InstallerTokenSecret', {
        metadata: l1Metadata({
          name: props.tokenSecretName ?? serviceAccountName,
          namespace: namespaceName,
          annotations: { 'kubernetes.io/service-account.name': serviceAccountName },
        }),
        type: 'kubernetes.io/service-account-token',
      });
      orderAfter(this.tokenSecret, this.serviceAccount);
    }
  }
}
