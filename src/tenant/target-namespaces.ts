import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { InputCheck } from '../core/input-check';

/**
 * Which namespaces a tenant's OperatorGroup targets. Anything but the tenant's own namespace needs a reason,
 * because OLM (with its own cluster-admin client) copies the operator's Roles into every target namespace, or
 * lifts them to ClusterRoles for AllNamespaces (`ensureRBACInTargetNamespace` in OLM
 * `pkg/controller/operators/olm/operatorgroup.go`): the operator then gets rights there that the installer
 * ServiceAccount never had.
 */
export class TargetNamespaces {
  /** OwnNamespace: the OperatorGroup targets only the tenant namespace (the default and the secure choice). */
  public static ownNamespace(): TargetNamespaces {
    return new TargetNamespaces([], false, undefined);
  }

  /**
   * Exactly these namespaces (SingleNamespace / MultiNamespace). Include the tenant namespace in `namespaces`
   * if the operator should watch it too. Targeting another tenant's namespace is a synth error; a system namespace
   * (`SystemNamespaces.isSystemNamespace`) also needs the tenant's `systemNamespacesReason`.
   *
   * @param namespaces the target namespaces
   * @param reason why the operator needs them; written to the OperatorGroup annotation
   * `ScopedOperatorTenant.TARGETS_REASON_ANNOTATION` so reviewers see it in the manifest
   */
  public static namespaces(namespaces: string[], reason: string): TargetNamespaces {
    // wrong types (JavaScript, jsii) are reported by the tenant that uses the targets, at synth
    const input = new InputCheck();
    const list = input.optionalStringArray('namespaces', namespaces, 'pass the target namespaces as a list of namespace names');
    if (namespaces === undefined || namespaces === null) {
      input.add({ code: CODE.MissingInput, field: 'namespaces', message: 'TargetNamespaces.namespaces() needs the list of target namespaces', fix: 'pass e.g. TargetNamespaces.namespaces([\'team-a\', \'team-a-apps\'], reason)' });
    }
    return new TargetNamespaces(list ?? [], false, checkReason(input, reason), input.errors);
  }

  /**
   * AllNamespaces (`spec.targetNamespaces` omitted, no selector): OLM turns the operator's namespaced
   * permissions into ClusterRoles and ClusterRoleBindings.
   *
   * @param reason why the operator must watch every namespace; written to the OperatorGroup annotation
   */
  public static allNamespaces(reason: string): TargetNamespaces {
    const input = new InputCheck();
    return new TargetNamespaces([], true, checkReason(input, reason), input.errors);
  }

  /** True for AllNamespaces. */
  public readonly isAllNamespaces: boolean;
  /**
   * Why the tenant opted into other targets.
   * @default - none (own namespace)
   */
  public readonly reason?: string;
  /**
   * Wrong-typed arguments of the factory methods, reported by the tenant that uses these targets.
   * @internal
   */
  public readonly _inputErrors: DiagnosticDetails[];
  private readonly explicit: string[];

  private constructor(explicit: string[], allNamespaces: boolean, reason: string | undefined, inputErrors: DiagnosticDetails[] = []) {
    this._inputErrors = inputErrors;
    this.explicit = explicit;
    this.isAllNamespaces = allNamespaces;
    this.reason = reason;
  }

  /** True when only the tenant namespace is targeted by default (no opt-in). */
  public get isOwnNamespace(): boolean {
    return !this.isAllNamespaces && this.reason === undefined;
  }

  /**
   * The target namespaces for a tenant in `ownNamespace`: sorted, without duplicates; empty for AllNamespaces.
   */
  public resolve(ownNamespace: string): string[] {
    if (this.isAllNamespaces) return [];
    if (this.isOwnNamespace) return [ownNamespace];
    return [...new Set(this.explicit)].sort();
  }
}

/** The reason argument: a string (an empty one is reported by the tenant as EmptyTargetsReason). */
function checkReason(input: InputCheck, reason: unknown): string {
  return input.requiredString('reason', reason, 'say why the operator needs these namespaces (it is written to the OperatorGroup annotation)', { singleLine: false }) ?? '';
}
