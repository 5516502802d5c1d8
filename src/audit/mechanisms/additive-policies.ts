/**
 * Policy objects whose effect is a union: one more object of the kind, created beside the baseline's, adds to what is
 * allowed. Creating one undoes the baseline's restriction, and an admission policy that guards the baseline's own
 * objects (UPDATE and DELETE of them) does not see it. Each row: the kind, what it undoes, the upstream semantics.
 *
 * And the policy kinds whose effect is an intersection, where one more object only restricts (recorded with the
 * reason). Internal data, read by the baseline's findings (`blueprint/baseline-reach.ts`, OLMT-043) and
 * docs/escalation-paths.md.
 */

/** One kind. */
export interface AdditivePolicyKind {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  /** True when objects of the kind add up (a union of allows); false when they only restrict (recorded decisions). */
  readonly union: boolean;
  /** What one more object does. */
  readonly effect: string;
  /** Upstream semantics. */
  readonly upstream: string;
}

export const ADDITIVE_POLICY_KINDS: readonly AdditivePolicyKind[] = [
  {
    group: 'networking.k8s.io',
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    union: true,
    effect: 'the allowed traffic of a pod is the union of every policy that selects it: one policy allowing all ingress and egress undoes the default deny',
    upstream: 'kubernetes staging/src/k8s.io/api/networking/v1/types.go NetworkPolicySpec ("policies are additive"); kube-proxy-independent, enforced by the CNI',
  },
  {
    group: 'cilium.io',
    resource: 'ciliumnetworkpolicies',
    kind: 'CiliumNetworkPolicy',
    union: true,
    effect: 'Cilium merges its policies and Kubernetes NetworkPolicies selecting an endpoint: an allow rule adds to the baseline\'s (deny rules win, the baseline writes none)',
    upstream: 'cilium/cilium pkg/policy/repository.go (rules of every policy selecting an endpoint are combined)',
  },
  {
    group: 'crd.projectcalico.org',
    resource: 'networkpolicies',
    kind: 'NetworkPolicy (Calico)',
    union: true,
    effect: 'Calico orders policies by `order`; Kubernetes NetworkPolicies run at order 1000: an Allow rule with a lower order lets traffic through before the default deny',
    upstream: 'projectcalico/calico libcalico-go/lib/backend/k8s/conversion (NetworkPolicy as order 1000); felix policy ordering',
  },
  {
    group: '',
    resource: 'resourcequotas',
    kind: 'ResourceQuota',
    union: false,
    effect: 'every quota of the namespace must admit a request: one more only restricts (changing the baseline\'s own is OLMT-043)',
    upstream: 'kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go checkQuotas (all quotas)',
  },
  {
    group: '',
    resource: 'limitranges',
    kind: 'LimitRange',
    union: false,
    effect: 'every LimitRange\'s min and max are enforced: one more only restricts (its defaults fill unset values only)',
    upstream: 'kubernetes plugin/pkg/admission/limitranger/admission.go (each LimitRange validated in turn)',
  },
];
