/**
 * Names OLM generates, so that we can bind to objects OLM creates before they exist.
 */
import { createHash } from 'crypto';

/** The access levels of OLM's OperatorGroup ClusterRoles. */
export enum AccessLevel {
  /** Full control of the group's provided APIs. */
  ADMIN = 'admin',
  /** Create, update, patch and delete. */
  EDIT = 'edit',
  /** Read only. */
  VIEW = 'view',
}

/** Which OLM release line generates the names (OLM changed the scheme over time). */
export enum OlmGeneration {
  /**
   * OLM >= v0.26: `olm.og.<operatorgroup>.<level>-<hash>`, hash = base62 of
   * sha224("<namespace>/<operatorgroup>/<level>"), truncated to 253 characters.
   */
  MODERN = 'MODERN',
  /** OLM < v0.26 (and the seed docs): `<operatorgroup>-<level>`. */
  LEGACY = 'LEGACY',
}

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Static helpers for names OLM generates. */
export class OlmNaming {
  /**
   * Name of the aggregating ClusterRole OLM creates for an OperatorGroup and access level.
   * Mirrors `getClusterRoleName` in OLM `pkg/controller/operators/olm/operatorgroup.go`.
   *
   * @param namespace the OperatorGroup's namespace
   * @param operatorGroup the OperatorGroup's name
   * @param level admin, edit or view
   * @param generation OLM release line @default OlmGeneration.MODERN
   */
  public static operatorGroupClusterRoleName(
    namespace: string,
    operatorGroup: string,
    level: AccessLevel,
    generation: OlmGeneration = OlmGeneration.MODERN,
  ): string {
    if (generation === OlmGeneration.LEGACY) {
      return `${operatorGroup}-${level}`;
    }
    const hash = OlmNaming.base62FromHex(createHash('sha224').update(`${namespace}/${operatorGroup}/${level}`).digest('hex'));
    const name = `olm.og.${operatorGroup}.${level}-${hash}`;
    return name.length > 253 ? name.slice(0, 253) : name;
  }

  /**
   * Go's `new(big.Int).SetBytes(b).Text(62)` for bytes given as hex: digits 0-9, a-z, A-Z; no padding;
   * "0" for zero.
   */
  public static base62FromHex(hex: string): string {
    if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`OlmNaming.base62FromHex: '${hex}' is not a hex byte string`);
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
