/**
 * What changes in power between two versions of an operator: the RBAC its CSV asks for (namespaced `permissions`
 * and cluster-wide `clusterPermissions`), compared as the API server compares rules (`RbacRules.covers`, atom by
 * atom: a rule that is only rewritten is not a change), plus webhooks, API services, CRDs and install modes.
 */
import { checkBetween, checkDiffFormat } from './input-checks';
import { OperatorBundle } from '../bundle/operator-bundle';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

/** The difference between two bundles of a package. */
export interface PermissionDiff {
  /** The older CSV. */
  readonly from: string;
  /** The newer CSV. */
  readonly to: string;
  /** `permissions` rules the new version asks for that the old one did not (compacted atoms). */
  readonly namespacedRulesAdded: PolicyRule[];
  /** `permissions` rules the old version had that the new one drops (compacted atoms). */
  readonly namespacedRulesRemoved: PolicyRule[];
  /** `clusterPermissions` rules added: new cluster-scoped power (compacted atoms). */
  readonly clusterRulesAdded: PolicyRule[];
  /** `clusterPermissions` rules removed (compacted atoms). */
  readonly clusterRulesRemoved: PolicyRule[];
  /** Webhooks added, as `<type>/<generateName>`, sorted. */
  readonly webhooksAdded: string[];
  /** Webhooks removed, sorted. */
  readonly webhooksRemoved: string[];
  /** Owned API services added, as `<version>.<group>`, sorted. */
  readonly apiServicesAdded: string[];
  /** Owned API services removed, sorted. */
  readonly apiServicesRemoved: string[];
  /** Owned CRDs added (`<plural>.<group>`), sorted. */
  readonly crdsAdded: string[];
  /** Owned CRDs removed, sorted. */
  readonly crdsRemoved: string[];
  /** Install modes the old version supported and the new one does not, sorted. */
  readonly installModesDropped: string[];
  /** Install modes the new version supports and the old one did not, sorted. */
  readonly installModesAdded: string[];
  /** True when nothing above changed. */
  readonly unchanged: boolean;
}

/** Permission diffs between operator versions. */
export class PermissionDiffs {
  /** What changes from `from` to `to`. */
  public static between(from: OperatorBundle, to: OperatorBundle): PermissionDiff {
    checkBetween(from, to);
    const ns = (b: OperatorBundle) => b.permissions.flatMap((p) => p.rules);
    const cl = (b: OperatorBundle) => b.clusterPermissions.flatMap((p) => p.rules);
    const webhooks = (b: OperatorBundle) => b.webhookDefinitions.map((w) => `${w.type}/${w.generateName}`);
    const apis = (b: OperatorBundle) => b.ownedApiServices.map((a) => `${a.version}.${a.group}`);
    const crds = (b: OperatorBundle) => b.ownedCrds.map((c) => c.name);
    const modes = (b: OperatorBundle) => b.installModes.filter((m) => m.supported).map((m) => m.type as string);
    const d = {
      from: from.name,
      to: to.name,
      namespacedRulesAdded: added(ns(from), ns(to)),
      namespacedRulesRemoved: added(ns(to), ns(from)),
      clusterRulesAdded: added(cl(from), cl(to)),
      clusterRulesRemoved: added(cl(to), cl(from)),
      webhooksAdded: minus(webhooks(to), webhooks(from)),
      webhooksRemoved: minus(webhooks(from), webhooks(to)),
      apiServicesAdded: minus(apis(to), apis(from)),
      apiServicesRemoved: minus(apis(from), apis(to)),
      crdsAdded: minus(crds(to), crds(from)),
      crdsRemoved: minus(crds(from), crds(to)),
      installModesDropped: minus(modes(from), modes(to)),
      installModesAdded: minus(modes(to), modes(from)),
    };
    const unchanged = Object.entries(d).every(([k, v]) => k === 'from' || k === 'to' || (v as unknown[]).length === 0);
    return { ...d, unchanged };
  }

  /**
   * The diff as readable lines: `+`/`-` per rule (formatted like OLM v1's preflight, namespaced rules in
   * `namespace`), then webhooks, API services, CRDs and install modes.
   *
   * @param namespace the namespace shown for namespaced rules @default "<operator namespace>"
   */
  public static format(diff: PermissionDiff, namespace?: string): string[] {
    checkDiffFormat(diff, namespace);
    const ns = namespace ?? '<operator namespace>';
    if (diff.unchanged) return ['  no permission change'];
    return [
      ...diff.namespacedRulesAdded.map((r) => `  + ${RbacRules.format(r, ns)}`),
      ...diff.namespacedRulesRemoved.map((r) => `  - ${RbacRules.format(r, ns)}`),
      ...diff.clusterRulesAdded.map((r) => `  + cluster-scoped ${RbacRules.format(r, '')}`),
      ...diff.clusterRulesRemoved.map((r) => `  - cluster-scoped ${RbacRules.format(r, '')}`),
      ...diff.webhooksAdded.map((w) => `  + webhook ${w}`),
      ...diff.webhooksRemoved.map((w) => `  - webhook ${w}`),
      ...diff.apiServicesAdded.map((a) => `  + API service ${a}`),
      ...diff.apiServicesRemoved.map((a) => `  - API service ${a}`),
      ...diff.crdsAdded.map((c) => `  + CRD ${c}`),
      ...diff.crdsRemoved.map((c) => `  - CRD ${c}`),
      ...diff.installModesAdded.map((m) => `  + install mode ${m}`),
      ...diff.installModesDropped.map((m) => `  - install mode ${m} (dropped)`),
    ];
  }

  private constructor() {}
}

/** Atoms of `next` that `prev` does not cover, compacted. */
function added(prev: PolicyRule[], next: PolicyRule[]): PolicyRule[] {
  return RbacRules.compact(RbacRules.covers(prev, next).missing);
}

function minus(a: string[], b: string[]): string[] {
  const bs = new Set(b);
  return [...new Set(a.filter((x) => !bs.has(x)))].sort();
}
