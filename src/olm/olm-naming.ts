/**
 * Names OLM generates, so that we can bind to objects OLM creates before they exist.
 */
import { createHash } from 'crypto';
import { Diagnostics } from '../core/diagnostics';
import { InputCheck, shown, throwIfInvalid } from '../core/input-check';

/** The access levels of OLM's OperatorGroup ClusterRoles. */
export enum AccessLevel {
  /** Full control of the group's provided APIs. */
  ADMIN = 'admin',
  /** Create, update, patch and delete. */
  EDIT = 'edit',
  /** Read only. */
  VIEW = 'view',
}

/**
 * Which OLM release line generates the RBAC (OLM changed the scheme twice; see docs/rbac.md).
 */
export enum OlmGeneration {
  /**
   * OLM >= v0.26 (PR operator-framework/operator-lifecycle-manager#3035, Sept 2023): OperatorGroup ClusterRoles are
   * `olm.og.<operatorgroup>.<level>-<hash>`, hash = base62 of sha224("<namespace>/<operatorgroup>/<level>"); a
   * too-long OperatorGroup name is cut so that the whole name is 253 characters (the hash is kept).
   */
  V0_26_AND_LATER = 'V0_26_AND_LATER',
  /**
   * OLM v0.15 to v0.25 (after PR #1348, March 2020): OperatorGroup ClusterRoles are `<operatorgroup>-<level>`;
   * provided-API ClusterRoles are labelled per API (`olm.opgroup.permissions/aggregate-to-<hash>-<level>`) and owned
   * by their CRD/APIService, as in V0_26_AND_LATER. Also OpenShift 4.14 kept these names for OperatorGroups whose old name is safe.
   */
  V0_15_TO_V0_25 = 'V0_15_TO_V0_25',
  /**
   * OLM v0.8 to v0.14 (what the OperatorGroup design docs describe): OperatorGroup ClusterRoles are
   * `<operatorgroup>-<level>` selecting `olm.opgroup.permissions/aggregate-to-<level>: <operatorgroup>`, and
   * provided-API ClusterRoles carry that label with the OperatorGroup's name and the CSV's owner labels.
   */
  V0_8_TO_V0_14 = 'V0_8_TO_V0_14',
}

/** `kubeResourceNameLimit` in OLM operatorgroup.go. */
const KUBE_RESOURCE_NAME_LIMIT = 253;
/** `operatorGroupClusterRoleNameFmt` = "olm.og.%s.%s-%s" without its three `%s`. */
const OG_CLUSTER_ROLE_NAME_FIXED_CHARS = 'olm.og..-'.length;

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * ClusterRoles that exist on Kubernetes, OLM or OpenShift clusters (bootstrap policy, OLM's aggregate roles, the
 * OpenShift default roles): an OperatorGroup ClusterRole of the old generations must never get one of these names.
 */
const BUILT_IN_CLUSTER_ROLES: ReadonlySet<string> = new Set([
  // Kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go
  'cluster-admin', 'admin', 'edit', 'view',
  // OLM deploy/chart/templates/0000_50_olm_09-aggregated.clusterrole.yaml
  'aggregate-olm-edit', 'aggregate-olm-view',
  // OpenShift default cluster roles
  'basic-user', 'cluster-reader', 'cluster-status', 'cluster-debugger', 'cluster-monitoring-view', 'monitoring-edit', 'monitoring-rules-edit',
  'monitoring-rules-view', 'registry-admin', 'registry-editor', 'registry-viewer', 'self-provisioner', 'storage-admin', 'sudoer',
]);
/** Prefixes of names reserved for built-in roles (Kubernetes `system:`, OLM `aggregate-olm-`, `cluster-*`, OpenShift `openshift-`). */
const BUILT_IN_PREFIXES = ['system:', 'cluster-', 'aggregate-olm-', 'openshift-'];

/** Static helpers for names OLM generates. */
export class OlmNaming {
  /**
   * Why `clusterRoleName` is (or may be) an existing built-in or OLM ClusterRole, or undefined when it is not one.
   * Old-generation OperatorGroup ClusterRoles are `<operatorgroup>-<level>`: an OperatorGroup named `cluster`
   * yields `cluster-admin`, one named `aggregate-olm` yields `aggregate-olm-edit`; OLM then aggregates into (or
   * fails on) that role, and a RoleBinding to it grants the built-in role, not the operators' APIs.
   */
  public static builtInClusterRoleReason(clusterRoleName: string): string | undefined {
    if (BUILT_IN_CLUSTER_ROLES.has(clusterRoleName)) return `'${clusterRoleName}' is a built-in ClusterRole (Kubernetes, OLM or OpenShift)`;
    const prefix = BUILT_IN_PREFIXES.find((p) => clusterRoleName.startsWith(p));
    if (prefix !== undefined) return `'${clusterRoleName}' starts with '${prefix}', a prefix reserved for built-in ClusterRoles`;
    return undefined;
  }

  /**
   * Name of the aggregating ClusterRole OLM creates for an OperatorGroup and access level.
   * Mirrors `getClusterRoleName` in OLM `pkg/controller/operators/olm/operatorgroup.go`.
   *
   * @param namespace the OperatorGroup's namespace
   * @param operatorGroup the OperatorGroup's name
   * @param level admin, edit or view
   * @param generation OLM release line @default OlmGeneration.V0_26_AND_LATER
   */
  public static operatorGroupClusterRoleName(
    namespace: string,
    operatorGroup: string,
    level: AccessLevel,
    generation: OlmGeneration = OlmGeneration.V0_26_AND_LATER,
  ): string {
    const check = new InputCheck();
    check.requiredString('namespace', namespace, "pass the OperatorGroup's namespace");
    check.requiredString('operatorGroup', operatorGroup, "pass the OperatorGroup's name");
    if (check.optionalEnum('level', level ?? '', AccessLevel as any, 'AccessLevel') === undefined) level = AccessLevel.VIEW;
    check.optionalEnum('generation', generation, OlmGeneration as any, 'OlmGeneration');
    throwIfInvalid(check, 'OlmNaming.operatorGroupClusterRoleName');
    if (generation !== OlmGeneration.V0_26_AND_LATER) {
      return `${operatorGroup}-${level}`;
    }
    const hash = OlmNaming.base62FromHex(createHash('sha224').update(`${namespace}/${operatorGroup}/${level}`).digest('hex'));
    // getClusterRoleName: only the OperatorGroup name is cut, never the level or the hash.
    const nameLimit = KUBE_RESOURCE_NAME_LIMIT - OG_CLUSTER_ROLE_NAME_FIXED_CHARS - level.length - hash.length;
    const og = operatorGroup.length < nameLimit ? operatorGroup : operatorGroup.slice(0, nameLimit);
    return `olm.og.${og}.${level}-${hash}`;
  }

  /**
   * The hash OLM puts in per-API aggregation labels: FNV-1a 64 of `"<Kind>.<version>.<group>"` printed as Go `%x`
   * (lowercase hex, no padding). Mirrors `APIKeyToGVKHash` in OLM `pkg/controller/registry/resolver/cache/api.go`.
   */
  public static providedApiHash(kind: string, version: string, group: string): string {
    const check = new InputCheck();
    check.requiredString('kind', kind, "pass the API's kind, e.g. 'EtcdCluster'", { singleLine: false });
    check.requiredString('version', version, "pass the API's version, e.g. 'v1beta2'", { singleLine: false });
    check.requiredString('group', group, "pass the API's group, e.g. 'etcd.database.coreos.com'", { singleLine: false });
    throwIfInvalid(check, 'OlmNaming.providedApiHash');
    let h = 0xcbf29ce484222325n;
    for (const byte of Buffer.from(`${kind}.${version}.${group}`, 'utf8')) {
      // FNV-1a is defined with xor and 64-bit wrap-around.
      // eslint-disable-next-line no-bitwise
      h ^= BigInt(byte);
      h = (h * 0x100000001b3n) % 0x10000000000000000n;
    }
    return h.toString(16);
  }

  /**
   * The per-API aggregation label key (OLM >= v0.15, `aggregationLabelFromAPIKey` in operatorgroup.go):
   * `olm.opgroup.permissions/aggregate-to-<hash>-<level>`, value `"true"`.
   */
  public static providedApiAggregationLabel(kind: string, version: string, group: string, level: AccessLevel): string {
    const check = new InputCheck();
    check.optionalEnum('level', level ?? '', AccessLevel as any, 'AccessLevel');
    throwIfInvalid(check, 'OlmNaming.providedApiAggregationLabel');
    return `olm.opgroup.permissions/aggregate-to-${OlmNaming.providedApiHash(kind, version, group)}-${level}`;
  }

  /**
   * Go's `new(big.Int).SetBytes(b).Text(62)` for bytes given as hex: digits 0-9, a-z, A-Z; no padding;
   * "0" for zero.
   */
  public static base62FromHex(hex: string): string {
    if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
      throw new Error(`OlmNaming.base62FromHex: ${typeof hex === 'string' ? `'${Diagnostics.oneLine(hex, 300)}'` : shown(hex)} is not a hex byte string`);
    }
    let n = hex.length === 0 ? 0n : BigInt('0x' + hex);
    if (n === 0n) return '0';
    let out = '';
    while (n > 0n) {
      out = BASE62[Number(n % 62n)] + out;
      n /= 62n;
    }
    return out;
  }

  private constructor() {}
}
