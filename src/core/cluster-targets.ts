/**
 * What the cluster runs (`TenancyAppProps.targets`, docs/version-targets.md): one place that the constructs read to
 * shape their output for the declared Kubernetes, OLM v0, operator-controller (OLM v1) and OpenShift versions.
 *
 * The App registers its targets here (keyed by the construct tree's root); constructs read them with
 * `clusterTargetsOf(scope)` while they are built, so a construct created under a `TenancyApp` follows the App's
 * targets, and one created under a plain cdk8s `App` gets the defaults (the output of the seeds' procedure).
 * Internal helpers; only the `ClusterTargets` struct is re-exported.
 */
import { IConstruct } from 'constructs';
import * as semver from 'semver';
import { DiagnosticDetails } from './diagnostic-details';

/** The versions the cluster runs. Every field is optional; the defaults give the output of the seeds' procedure. */
export interface ClusterTargets {
  /**
   * Kubernetes minor version of the cluster, `'1.<minor>'` (a patch, `'1.30.4'`, and a leading `v` are accepted).
   * Decides the API version of the admission policies the library writes (`admissionregistration.k8s.io/v1` from
   * 1.30, `v1beta1` on 1.28 and 1.29; none before 1.28: an error).
   * @default - '1.30', or the Kubernetes of `openshiftVersion` when that is set (OpenShift 4.x ships 1.(x+13))
   */
  readonly kubernetesVersion?: string;
  /**
   * OLM v0 version, `'0.<minor>.<patch>'` (a leading `v` is accepted). From 0.29.0 OLM requests the installer's
   * tokens with the TokenRequest API when no token Secret exists (`pkg/lib/scoped/token_retriever.go`, OLM PR
   * #3377), so tenants get no long-lived token Secret unless `createTokenSecret: true`.
   * @default - '0.28.0' (a token Secret per tenant, as the seeds' procedure writes)
   */
  readonly olmVersion?: string;
  /**
   * operator-controller (OLM v1) version, `'1.<minor>.<patch>'`. From v1.11.0 it ignores
   * `ClusterExtension.spec.serviceAccount` and installs as cluster-admin: the OLM v1 constructs then write no
   * `spec.serviceAccount` (and warn where one was asked for). OLM v1 constructs read it where they can.
   * @default - not declared: the OLM v1 constructs keep their own defaults (`spec.serviceAccount` only with
   * `legacyServiceAccount`)
   */
  readonly operatorControllerVersion?: string;
  /**
   * OpenShift minor version, `'4.<minor>'`, when the cluster is OpenShift. OpenShift 4.16 and later ship OLM with
   * the TokenRequest fallback (openshift/operator-framework-olm#898); its Kubernetes is 1.(minor+13).
   * @default - not OpenShift
   */
  readonly openshiftVersion?: string;
}

/** The targets with their defaults applied (internal). */
export interface ResolvedTargets {
  /** Kubernetes minor (30 for 1.30). */
  readonly kubernetesMinor: number;
  /** OLM v0 version (semver, no `v`). */
  readonly olmVersion: string;
  /** operator-controller version, when declared. */
  readonly operatorControllerVersion?: string;
  /** OpenShift minor (16 for 4.16), when declared. */
  readonly openshiftMinor?: number;
  /** The fields the user set (the others are defaults). */
  readonly declared: readonly string[];
}

/** Defaults: what the seeds' procedure produces (token Secret, v1 admission policies). */
export const DEFAULT_TARGETS: ResolvedTargets = { kubernetesMinor: 30, olmVersion: '0.28.0', declared: [] };

/** OLM requests tokens with the TokenRequest API when no token Secret exists (OLM PR #3377). */
export const OLM_TOKEN_REQUEST_SINCE = '0.29.0';
/** OpenShift's OLM has the TokenRequest fallback since 4.16 (openshift/operator-framework-olm#898). */
export const OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR = 16;
/** operator-controller ignores `spec.serviceAccount` from this version (v1.11.0). */
export const OPERATOR_CONTROLLER_IGNORES_SERVICE_ACCOUNT = '1.11.0';
/** operator-controller's experimental CRD has `spec.config` since v1.9.0. */
export const OPERATOR_CONTROLLER_CONFIG_SINCE = '1.9.0';

const ROOTS = new WeakMap<IConstruct, ResolvedTargets>();

/** Registers the targets of the construct tree whose root is `root` (TenancyApp's constructor). */
export function setClusterTargets(root: IConstruct, targets: ResolvedTargets): void {
  ROOTS.set(root, targets);
}

/** The targets of `scope`'s App (the defaults when the App declared none). */
export function clusterTargetsOf(scope: IConstruct): ResolvedTargets {
  return ROOTS.get(scope.node.root) ?? DEFAULT_TARGETS;
}

/** Whether OLM v0 gets installer tokens with the TokenRequest API when no token Secret exists. */
export function olmRequestsTokens(t: ResolvedTargets): boolean {
  if (t.openshiftMinor !== undefined && t.openshiftMinor >= OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR) return true;
  // asked by every tenant of an App: the version compared once per version string
  let since = TOKEN_REQUEST_SINCE.get(t.olmVersion);
  if (since === undefined) {
    since = semver.gte(t.olmVersion, OLM_TOKEN_REQUEST_SINCE);
    if (TOKEN_REQUEST_SINCE.size >= 64) TOKEN_REQUEST_SINCE.clear();
    TOKEN_REQUEST_SINCE.set(t.olmVersion, since);
  }
  return since;
}

/** `olmRequestsTokens`'s comparison, by declared OLM version. */
const TOKEN_REQUEST_SINCE = new Map<string, boolean>();

/** Whether operator-controller installs as `spec.serviceAccount` (declared <= v1.10, or not declared). */
export function operatorControllerUsesServiceAccount(t: ResolvedTargets): boolean {
  return t.operatorControllerVersion === undefined || semver.lt(t.operatorControllerVersion, OPERATOR_CONTROLLER_IGNORES_SERVICE_ACCOUNT);
}

/** Whether the declared operator-controller predates `spec.config` (experimental CRD, v1.9.0). */
export function operatorControllerLacksConfig(t: ResolvedTargets): boolean {
  return t.operatorControllerVersion !== undefined && semver.lt(t.operatorControllerVersion, OPERATOR_CONTROLLER_CONFIG_SINCE);
}

/**
 * The `apiVersion` of ValidatingAdmissionPolicy(Binding) the declared Kubernetes serves: `v1` from 1.30, `v1beta1`
 * on 1.28-1.29 (Kubernetes CHANGELOG-1.28/1.30: beta in 1.28, GA in 1.30). Before 1.28 none is served by default:
 * `v1` is returned and `admissionPolicyProblems` reports the error.
 */
export function admissionPolicyApiVersion(scope: IConstruct): string {
  const minor = clusterTargetsOf(scope).kubernetesMinor;
  return minor === 28 || minor === 29 ? 'admissionregistration.k8s.io/v1beta1' : 'admissionregistration.k8s.io/v1';
}

/** Whether `apiVersion` is one of the admission policy API versions the library writes. */
export function isAdmissionPolicyApiVersion(apiVersion: string): boolean {
  return apiVersion === 'admissionregistration.k8s.io/v1' || apiVersion === 'admissionregistration.k8s.io/v1beta1';
}

/** The error when the declared Kubernetes serves no ValidatingAdmissionPolicy and `policyPaths` would need one. */
export function admissionPolicyProblems(t: ResolvedTargets, policyPaths: readonly string[]): DiagnosticDetails[] {
  if (t.kubernetesMinor >= 28 || policyPaths.length === 0) return [];
  return [{
    code: 'AdmissionPolicyNotServed',
    field: 'targets.kubernetesVersion',
    value: `1.${t.kubernetesMinor}`,
    message: `Kubernetes 1.${t.kubernetesMinor} serves no ValidatingAdmissionPolicy (beta, admissionregistration.k8s.io/v1beta1, from 1.28; v1 from 1.30), `
      + `but the App writes ${policyPaths.length === 1 ? 'one' : policyPaths.length}: ${policyPaths.join(', ')}`,
    fix: 'upgrade the cluster to Kubernetes >= 1.30 (>= 1.28 with the v1beta1 API enabled) and declare it, or drop the admission policies',
  }];
}
