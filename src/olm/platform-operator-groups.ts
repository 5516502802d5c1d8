/**
 * The OperatorGroups OLM's own installation keeps, per platform, and what follows from them (internal, not
 * re-exported). OLM installs nothing in a namespace with two OperatorGroups (`TooManyOperatorGroups`,
 * operator-lifecycle-manager `pkg/controller/operators/olm/operator.go` `syncClusterServiceVersion`: "csv created in
 * namespace with multiple operatorgroups, can't pick one automatically"), so an App must never write a second one there.
 */
import { ResolvedTargets } from '../core/cluster-targets';

/** A platform whose OLM installation keeps OperatorGroups of its own. */
export enum OlmPlatform {
  /** OpenShift / OKD: OLM as the cluster's `operator-lifecycle-manager` capability. */
  OPENSHIFT = 'OpenShift',
  /** Upstream OLM installed from its release manifests (`install.sh`, `operator-sdk olm install`). */
  UPSTREAM = 'upstream OLM',
}

/** One OperatorGroup the platform's OLM installation creates. */
export interface PlatformOperatorGroup {
  readonly platform: OlmPlatform;
  readonly namespace: string;
  readonly name: string;
  /** True for an AllNamespaces group (no targetNamespaces, no selector): the platform's global install. */
  readonly allNamespaces: boolean;
  /** Where the platform creates it. */
  readonly source: string;
}

/** The table: one row per OperatorGroup, each with its source. */
export const PLATFORM_OPERATOR_GROUPS: readonly PlatformOperatorGroup[] = [
  {
    platform: OlmPlatform.OPENSHIFT,
    namespace: 'openshift-operators',
    name: 'global-operators',
    allNamespaces: true,
    source: 'openshift/operator-framework-olm manifests/0000_50_olm_13-operatorgroup-default.yaml',
  },
  {
    platform: OlmPlatform.OPENSHIFT,
    namespace: 'openshift-operator-lifecycle-manager',
    name: 'olm-operators',
    allNamespaces: false,
    source: 'openshift/operator-framework-olm manifests/0000_50_olm_13-operatorgroup-default.yaml',
  },
  {
    platform: OlmPlatform.UPSTREAM,
    namespace: 'operators',
    name: 'global-operators',
    allNamespaces: true,
    source: 'operator-lifecycle-manager deploy/upstream/quickstart/olm.yaml',
  },
  {
    platform: OlmPlatform.UPSTREAM,
    namespace: 'olm',
    name: 'olm-operators',
    allNamespaces: false,
    source: 'operator-lifecycle-manager deploy/upstream/quickstart/olm.yaml',
  },
];

/**
 * The platforms the App's targets declare: OpenShift with `openshiftVersion`, upstream OLM with `olmVersion` alone;
 * both when neither is declared (the App cannot tell, so the namespaces of either are kept free).
 */
export function declaredPlatforms(t: ResolvedTargets): OlmPlatform[] {
  if (t.openshiftMinor !== undefined) return [OlmPlatform.OPENSHIFT];
  if (t.declared.includes('olmVersion')) return [OlmPlatform.UPSTREAM];
  return [OlmPlatform.OPENSHIFT, OlmPlatform.UPSTREAM];
}

/** The OperatorGroups of the declared platforms. */
export function platformOperatorGroups(t: ResolvedTargets): PlatformOperatorGroup[] {
  const platforms = declaredPlatforms(t);
  return PLATFORM_OPERATOR_GROUPS.filter((g) => platforms.includes(g.platform));
}

/** An object of the App as the scan below reads it. */
export interface ScannedObject {
  readonly kind: string;
  readonly apiVersion: string;
  readonly namespace?: string;
  /** The object's JSON, read only for OperatorGroups and for Subscriptions in AllNamespaces namespaces. */
  json(): any;
}

/** Whether an OperatorGroup's JSON is AllNamespaces: no `targetNamespaces` (or an empty list) and no `selector`. */
export function isAllNamespacesOperatorGroup(json: any): boolean {
  const spec = json?.spec ?? {};
  const targets = spec.targetNamespaces;
  return (targets === undefined || (Array.isArray(targets) && targets.length === 0)) && spec.selector === undefined;
}

/**
 * The packages installed for all namespaces by the App: the Subscriptions (`spec.name`) in a namespace whose
 * OperatorGroup is AllNamespaces, the App's own (a `GlobalOperatorInstall`, a tenant with
 * `TargetNamespaces.allNamespaces`) or the platform's (`extraAllNamespaces`). OLM fails a second CSV that owns the same
 * APIs in an intersecting OperatorGroup (`InterOperatorGroupOwnerConflict`), and every group intersects an AllNamespaces
 * one. Package -> its install namespaces, sorted.
 */
export function globalInstallPackages(objects: readonly ScannedObject[], extraAllNamespaces: readonly string[] = []): Map<string, string[]> {
  const isOlm = (o: ScannedObject) => o.apiVersion.startsWith('operators.coreos.com/');
  const global = new Set(extraAllNamespaces);
  for (const o of objects) {
    if (isOlm(o) && o.kind === 'OperatorGroup' && o.namespace !== undefined && isAllNamespacesOperatorGroup(o.json())) global.add(o.namespace);
  }
  const out = new Map<string, Set<string>>();
  for (const o of objects) {
    if (!isOlm(o) || o.kind !== 'Subscription' || o.namespace === undefined || !global.has(o.namespace)) continue;
    const pkg = o.json()?.spec?.name;
    if (typeof pkg !== 'string' || pkg === '') continue;
    out.set(pkg, (out.get(pkg) ?? new Set()).add(o.namespace));
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, [...v].sort()]));
}
