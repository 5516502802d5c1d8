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
import { AppContext, AppSlot } from './app-context';
import { CODE } from './diagnostic-codes';
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
   * operator-controller (OLM v1) version, `'1.<minor>.<patch>'`, or `'main'` (its main branch after PRs #2925/#2926: the
   * install namespace resolved from the bundle). From v1.11.0 it ignores `ClusterExtension.spec.serviceAccount` and
   * installs as cluster-admin: the OLM v1 constructs then write no `spec.serviceAccount` (and warn where one was asked
   * for); before v1.11.0 the field is required. OLM v1 constructs read it where they can.
   * @default - the operator-controller of `openshiftVersion` when that is set (docs/version-targets.md); else not
   * declared: the OLM v1 constructs keep their own defaults (`spec.serviceAccount` only with `legacyServiceAccount`)
   */
  readonly operatorControllerVersion?: string;
  /**
   * OpenShift version, `'4.<minor>'` or `'5.<minor>'`, when the cluster is OpenShift. OpenShift 4.16 and later ship OLM
   * with the TokenRequest fallback (openshift/operator-framework-olm#898); the Kubernetes of 4.x is 1.(minor+13) (5.x:
   * declare `kubernetesVersion`); 4.x ships an operator-controller that requires `ClusterExtension.spec.serviceAccount`,
   * 5.0 one that ignores it (OpenShift's documentation per release, docs/version-targets.md).
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
  /** OpenShift major (4 for 4.16), when declared. */
  readonly openshiftMajor?: number;
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

/** The App's declared targets (`TenancyAppProps.clusterTargets`), when it declared any. */
const CLUSTER_TARGETS = new AppSlot<ResolvedTargets | undefined>('clusterTargets', () => undefined);

/** Registers the targets of the construct tree whose root is `root` (TenancyApp's constructor). */
export function setClusterTargets(root: IConstruct, targets: ResolvedTargets): void {
  AppContext.of(root).set(CLUSTER_TARGETS, targets);
}

/** The targets of `scope`'s App (the defaults when the App declared none). */
export function clusterTargetsOf(scope: IConstruct): ResolvedTargets {
  return AppContext.find(scope, CLUSTER_TARGETS) ?? DEFAULT_TARGETS;
}

/** `4.16` for the declared OpenShift, or undefined. */
export function openshiftVersionOf(t: ResolvedTargets): string | undefined {
  return t.openshiftMinor === undefined ? undefined : `${t.openshiftMajor ?? 4}.${t.openshiftMinor}`;
}

/** Whether OLM v0 gets installer tokens with the TokenRequest API when no token Secret exists. */
export function olmRequestsTokens(t: ResolvedTargets): boolean {
  if (t.openshiftMinor !== undefined && ((t.openshiftMajor ?? 4) > 4 || t.openshiftMinor >= OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR)) return true;
  // asked by every tenant of an App: the version compared once per version string
  let since = TOKEN_REQUEST_SINCE_CACHE.get(t.olmVersion);
  if (since === undefined) {
    since = semver.gte(t.olmVersion, OLM_TOKEN_REQUEST_SINCE);
    if (TOKEN_REQUEST_SINCE_CACHE.size >= 64) TOKEN_REQUEST_SINCE_CACHE.clear();
    TOKEN_REQUEST_SINCE_CACHE.set(t.olmVersion, since);
  }
  return since;
}

/** `olmRequestsTokens`'s comparison, by declared OLM version. */
const TOKEN_REQUEST_SINCE_CACHE = new Map<string, boolean>();

/**
 * What each OpenShift release's operator-controller does with `ClusterExtension.spec.serviceAccount`, from OpenShift's
 * own documentation per release (it names no upstream release number, so the row gives the upstream behaviour it
 * documents). One row per first release of a behaviour; a release takes the row of the last `since` at or before it.
 */
export const OPENSHIFT_OPERATOR_CONTROLLER: ReadonlyArray<{ readonly since: string; readonly behaviour: string; readonly serviceAccount: 'required' | 'ignored'; readonly source: string }> = [
  {
    since: '4.14',
    behaviour: 'before v1.11.0',
    serviceAccount: 'required',
    source: 'OpenShift 4.18 "Extensions" (OLM v1 GA; "Creating a service account to manage cluster extensions"); 4.21 and 4.22 "Operator Controller": '
      + 'the ClusterExtension example sets spec.serviceAccount.name (4.14-4.17: OLM v1 Technology Preview)',
  },
  {
    since: '5.0',
    behaviour: 'v1.11.0',
    serviceAccount: 'ignored',
    source: 'OpenShift 5.0 "Operator Controller": "The spec.serviceAccount field is optional, deprecated, and ignored. The Operator Controller uses its '
      + 'own service account with cluster-admin privileges"',
  },
];

/** The row of `OPENSHIFT_OPERATOR_CONTROLLER` for the declared OpenShift, or undefined. */
export function openshiftOperatorController(t: ResolvedTargets): (typeof OPENSHIFT_OPERATOR_CONTROLLER)[number] | undefined {
  if (t.openshiftMinor === undefined) return undefined;
  const key = (v: string) => v.split('.').map(Number);
  const [major, minor] = [t.openshiftMajor ?? 4, t.openshiftMinor];
  return [...OPENSHIFT_OPERATOR_CONTROLLER].reverse().find((r) => {
    const [a, b] = key(r.since);
    return major > a || (major === a && minor >= b);
  }) ?? OPENSHIFT_OPERATOR_CONTROLLER[0];
}

/** Whether a declared operator-controller version (`'1.10.3'`, `'main'`) is before `release`; `main` is after every release. */
function declaredBefore(version: string, release: string): boolean {
  return version !== 'main' && semver.lt(version, release);
}

/**
 * Whether operator-controller installs as `spec.serviceAccount`: declared < v1.11.0, the operator-controller of a
 * declared OpenShift that requires it, or nothing declared (the constructs' own defaults).
 */
export function operatorControllerUsesServiceAccount(t: ResolvedTargets): boolean {
  if (t.operatorControllerVersion !== undefined) return declaredBefore(t.operatorControllerVersion, OPERATOR_CONTROLLER_IGNORES_SERVICE_ACCOUNT);
  const openshift = openshiftOperatorController(t);
  return openshift === undefined || openshift.serviceAccount === 'required';
}

/**
 * Why the declared operator-controller requires `ClusterExtension.spec.serviceAccount` (its standard CRD: the field
 * is required before v1.11.0), or undefined when it does not or nothing is declared.
 */
export function operatorControllerRequiresServiceAccount(t: ResolvedTargets): string | undefined {
  if (t.operatorControllerVersion !== undefined) {
    return declaredBefore(t.operatorControllerVersion, OPERATOR_CONTROLLER_IGNORES_SERVICE_ACCOUNT)
      ? `operator-controller ${t.operatorControllerVersion} (declared in TenancyAppProps.targets)` : undefined;
  }
  const openshift = openshiftOperatorController(t);
  return openshift?.serviceAccount === 'required'
    ? `OpenShift ${openshiftVersionOf(t)}'s operator-controller (the behaviour ${openshift.behaviour}: ${openshift.source})` : undefined;
}

/** Whether the declared operator-controller predates `spec.config` (experimental CRD, v1.9.0). */
export function operatorControllerLacksConfig(t: ResolvedTargets): boolean {
  return t.operatorControllerVersion !== undefined && declaredBefore(t.operatorControllerVersion, OPERATOR_CONTROLLER_CONFIG_SINCE);
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
    code: CODE.AdmissionPolicyNotServed,
    field: 'targets.kubernetesVersion',
    value: `1.${t.kubernetesMinor}`,
    message: `Kubernetes 1.${t.kubernetesMinor} serves no ValidatingAdmissionPolicy (beta, admissionregistration.k8s.io/v1beta1, from 1.28; v1 from 1.30), `
      + `but the App writes ${policyPaths.length === 1 ? 'one' : policyPaths.length}: ${policyPaths.join(', ')}`,
    fix: 'upgrade the cluster to Kubernetes >= 1.30 (>= 1.28 with the v1beta1 API enabled) and declare it, or drop the admission policies',
  }];
}
