// Internal types of the GitOps layout written chart by chart (GitOpsLayout._emitGroups, TenancyApp): not re-exported
// from the package (jsii cannot export an Error subclass, and they are no API).

/**
 * What the layout needs of an object before its JSON: the parts of its identity and its owner. `TenancyApp` takes
 * them from the `ApiObject` and computes the JSON only when the object's folder is written, so that the JSON of
 * 40,000 objects is never alive at once (what sets peak memory at scale, docs/scale.md).
 */
export interface LayoutEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly tenant?: string;
  readonly tenantNamespaces?: string[];
  readonly dependsOn?: string[];
  /** Applied by the platform though it is a tenant's (`GitOpsObject.appliedByPlatform`): it goes to `cluster/`. */
  readonly platform?: boolean;
  /** The object (JSON), called once, when its folder is written. */
  readonly manifest: () => any;
}

/** `GitOpsLayout.identity` of an entry's object: `<apiVersion>/<kind>/<namespace>/<name>`. */
export function identityOf(o: { apiVersion: string; kind: string; namespace?: string; name?: string }): string {
  return `${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name ?? ''}`;
}

/**
 * Thrown by `GitOpsLayout._emitGroups` when an object's JSON does not have the identity its entry announced (an `addJsonPatch`
 * or a token changed it) or fails the input checks: the caller lays the objects out from their JSON instead.
 */
export class LayoutEntryMismatch extends Error {
  constructor(public readonly detail: string) {
    super(`GitOps layout entry differs from its object: ${detail}`);
    this.name = 'LayoutEntryMismatch';
  }
}

/** The objects of a layout, group by group (`GitOpsLayout._emitGroups`). */
export interface LayoutSource {
  /** How many groups. */
  readonly groups: number;
  /** The entries of group `g`, in synthesis order; called more than once per layout (may build them anew each time). */
  entries(g: number): LayoutEntry[];
}

