/**
 * OLM install modes: which OperatorGroup target namespaces a CSV accepts. A port of `InstallModeSet.Supports`
 * (operator-framework/api `pkg/operators/v1alpha1/clusterserviceversion_types.go`) and of how the olm-operator
 * calls it (`pkg/controller/operators/olm/operator.go`, `syncClusterServiceVersion`: the CSV fails with reason
 * `UnsupportedOperatorGroup`, or `InvalidInstallModes` when the list has duplicates).
 */
import { InputCheck, throwIfInvalid } from '../core/input-check';

/** The four install modes of a CSV's `spec.installModes[].type`. */
export enum InstallModeType {
  /** The operator can watch its own namespace. */
  OWN_NAMESPACE = 'OwnNamespace',
  /** The operator can watch one namespace other than its own. */
  SINGLE_NAMESPACE = 'SingleNamespace',
  /** The operator can watch several namespaces. */
  MULTI_NAMESPACE = 'MultiNamespace',
  /** The operator can watch all namespaces. */
  ALL_NAMESPACES = 'AllNamespaces',
}

/** One entry of a CSV's `spec.installModes`. */
export interface InstallMode {
  /** The install mode. */
  readonly type: InstallModeType;
  /** Whether the CSV supports it. */
  readonly supported: boolean;
}

/** Why OLM refuses a CSV for an OperatorGroup (the CSV's `status.reason`). */
export enum InstallModeFailureReason {
  /** `CSVReasonUnsupportedOperatorGroup`: the install modes do not allow the OperatorGroup's namespaces. */
  UNSUPPORTED_OPERATOR_GROUP = 'UnsupportedOperatorGroup',
  /** `CSVReasonInvalidInstallModes`: `spec.installModes` lists a type twice (`NewInstallModeSet`). */
  INVALID_INSTALL_MODES = 'InvalidInstallModes',
}

/** Result of an install mode check. */
export interface InstallModeCheck {
  /** Whether OLM accepts the CSV for these namespaces. */
  readonly supported: boolean;
  /**
   * The CSV status reason OLM sets when it refuses.
   * @default - none (supported)
   */
  readonly reason?: InstallModeFailureReason;
  /**
   * OLM's exact error message.
   * @default - none (supported)
   */
  readonly message?: string;
}

/** OLM's install mode rules. */
export class InstallModes {
  /**
   * Exactly OLM's `InstallModeSet.Supports(operatorNamespace, namespaces)` after `NewInstallModeSet(modes)`.
   * `namespaces` is the OperatorGroup's `status.namespaces` as OLM passes it (the `olm.targetNamespaces` annotation
   * split at `,`): `[""]` means all namespaces. A type missing from `modes` counts as unsupported.
   */
  public static supports(modes: InstallMode[], operatorNamespace: string, namespaces: string[]): InstallModeCheck {
    const check = new InputCheck();
    check.optionalArray('modes', modes ?? 0, (m, f) => {
      const o = check.optionalObject(f, m ?? 0, "pass { type: 'OwnNamespace', supported: true }");
      if (o) check.requiredString(`${f}.type`, o.type, "use 'OwnNamespace', 'SingleNamespace', 'MultiNamespace' or 'AllNamespaces'");
      return o;
    }, 'pass the CSV\'s spec.installModes');
    check.requiredString('operatorNamespace', operatorNamespace, "pass the OperatorGroup's namespace");
    check.optionalStringArray('namespaces', namespaces ?? 0);
    throwIfInvalid(check, 'InstallModes.supports');
    const set = new Map<string, boolean>();
    for (const mode of modes) {
      if (set.has(mode.type)) {
        // NewInstallModeSet: "InstallMode list contains duplicates, cannot make set: %v"
        return {
          supported: false,
          reason: InstallModeFailureReason.INVALID_INSTALL_MODES,
          message: `InstallMode list contains duplicates, cannot make set: [${modes.map((m) => `{${m.type} ${m.supported}}`).join(' ')}]`,
        };
      }
      set.set(mode.type, mode.supported === true);
    }
    const has = (t: InstallModeType) => set.get(t) === true;
    const fail = (message: string): InstallModeCheck => ({
      supported: false, reason: InstallModeFailureReason.UNSUPPORTED_OPERATOR_GROUP, message,
    });
    const n = namespaces.length;
    if (n === 0) {
      return fail('operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces');
    }
    if (n === 1) {
      const ns = namespaces[0];
      if (ns === operatorNamespace) {
        if (!has(InstallModeType.OWN_NAMESPACE)) return fail('OwnNamespace InstallModeType not supported, cannot configure to watch own namespace');
      } else if (ns === '') {
        if (!has(InstallModeType.ALL_NAMESPACES)) return fail('AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces');
      } else if (!has(InstallModeType.SINGLE_NAMESPACE)) {
        return fail('SingleNamespace InstallModeType not supported, cannot configure to watch one namespace');
      }
      return { supported: true };
    }
    if (!has(InstallModeType.MULTI_NAMESPACE)) {
      return fail(`MultiNamespace InstallModeType not supported, cannot configure to watch ${n} namespaces`);
    }
    for (const ns of namespaces) {
      if (ns === operatorNamespace && !has(InstallModeType.OWN_NAMESPACE)) {
        return fail('OwnNamespace InstallModeType not supported, cannot configure to watch own namespace');
      }
      if (ns === '') {
        return fail('operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1');
      }
    }
    return { supported: true };
  }

  /**
   * The namespaces OLM passes to `Supports` for an OperatorGroup with these target namespaces, in this library's
   * convention (an empty list means AllNamespaces, as in `IOperatorTenant.targetNamespaces`): `[""]` for all
   * namespaces, otherwise the sorted, de-duplicated list.
   */
  public static operatorGroupNamespaces(targetNamespaces: string[]): string[] {
    const check = new InputCheck();
    check.optionalStringArray('targetNamespaces', targetNamespaces ?? 0);
    throwIfInvalid(check, 'InstallModes.operatorGroupNamespaces');
    if (targetNamespaces.length === 0) return [''];
    return [...new Set(targetNamespaces)].sort();
  }

  /**
   * `supports` for an OperatorGroup in `operatorNamespace` with `targetNamespaces` (empty = AllNamespaces).
   */
  public static checkTargets(modes: InstallMode[], operatorNamespace: string, targetNamespaces: string[]): InstallModeCheck {
    return InstallModes.supports(modes, operatorNamespace, InstallModes.operatorGroupNamespaces(targetNamespaces));
  }

  /** Parses an install mode type as written in a CSV; undefined when it is not one of the four. */
  public static parseType(value: string): InstallModeType | undefined {
    return (Object.values(InstallModeType) as string[]).includes(value) ? value as InstallModeType : undefined;
  }

  private constructor() {}
}
