import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../core/app-context';
import { admissionPolicyApiVersion } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';

/** Props of `ManagedObjectsAdmissionPolicy`. */
export interface ManagedObjectsAdmissionPolicyProps {
  /**
   * Name of the ValidatingAdmissionPolicy and its binding (cluster-scoped).
   * @default ManagedObjectsAdmissionPolicy.DEFAULT_NAME
   */
  readonly policyName?: string;
}

/** One resource the policy protects. */
export interface ProtectedResource {
  /** API group (`''` for the core group). */
  readonly apiGroup: string;
  /** Resource (plural). */
  readonly resource: string;
}

/**
 * In-cluster protection of the tenant baseline (`TenantBaseline` with `protectManagedObjects: true`): a
 * `ValidatingAdmissionPolicy` and its binding (`admissionregistration.k8s.io/v1`, Kubernetes 1.30+) that refuse
 * UPDATE (also patch) and DELETE (also each object of a deletecollection) of ResourceQuotas, LimitRanges and
 * NetworkPolicies labelled `app.kubernetes.io/managed-by: cdk8s-olm-tenancy` when the request comes from a
 * ServiceAccount of the object's own namespace: the tenant's installer, its operators, and every pod the tenant runs.
 * A deletecollection is admitted item by item as DELETE with the item as old object and no name
 * (`k8s.io/apiserver/pkg/registry/generic/registry/store.go` `DeleteCollection`, `pkg/registry/rest/delete.go`
 * `AdmissionToValidateObjectDeleteFunc`), so the message names `oldObject.metadata.name`.
 *
 * - The label is matched by `matchConstraints.objectSelector`, which the API server evaluates against the old and
 *   the new object and matches when either matches (`k8s.io/api/admissionregistration/v1` `MatchResources`), so
 *   removing the label is itself a refused UPDATE.
 * - ServiceAccount user names are `system:serviceaccount:<namespace>:<name>`
 *   (`k8s.io/apiserver/pkg/authentication/serviceaccount/util.go` `MakeUsername`).
 * - Everyone else passes: the GitOps tool, cluster admins, the quota controller (it writes `resourcequotas/status`,
 *   which the policy matches too: a tenant that resets the usage there lifts the quota until the next recalculation;
 *   the controller is no ServiceAccount of the namespace). People the tenant grants rights to are not covered: the
 *   baseline's `TenantCanRemoveBaseline` finding names them.
 *
 * Creating objects is not refused: NetworkPolicies are additive, so a tenant identity that may create them can still
 * allow ingress the baseline denies (the operators that manage their operands' NetworkPolicies need that right).
 *
 * One per App: `TenantBaseline` creates it in its chart when the App has none (`ManagedObjectsAdmissionPolicy.of`).
 */
export class ManagedObjectsAdmissionPolicy extends Construct {
  /** The default name of the policy and the binding. */
  public static readonly DEFAULT_NAME = 'cdk8s-olm-tenancy-managed-objects';
  /** The label that marks an object as managed by the library. */
  public static readonly MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
  /** Its value (`GitOpsLayout.MANAGED_BY`). */
  public static readonly MANAGED_BY = 'cdk8s-olm-tenancy';
  /** The resources the policy protects (the baseline's kinds). */
  public static readonly PROTECTED_RESOURCES: ProtectedResource[] = [
    { apiGroup: '', resource: 'limitranges' },
    { apiGroup: '', resource: 'resourcequotas' },
    { apiGroup: '', resource: 'resourcequotas/status' },
    { apiGroup: 'networking.k8s.io', resource: 'networkpolicies' },
  ];
  /** The CEL of the policy's validation: true (allowed) unless the requester is a ServiceAccount of the namespace. */
  public static readonly EXPRESSION = "!request.userInfo.username.startsWith('system:serviceaccount:' + request.namespace + ':')";

  /** The policy of `scope`'s App, if one was created. */
  public static of(scope: IConstruct): ManagedObjectsAdmissionPolicy | undefined {
    return AppContext.find(scope, POLICY);
  }

  /** Name of the policy and the binding. */
  public readonly policyName: string;

  public constructor(scope: Construct, id: string, props: ManagedObjectsAdmissionPolicyProps = {}) {
    super(scope, id);
    const input = new InputCheck();
    const raw = input.optionalObject('props', props ?? {}, 'pass { policyName? }') ?? {};
    this.policyName = input.optionalString('policyName', raw.policyName) ?? ManagedObjectsAdmissionPolicy.DEFAULT_NAME;
    if (AppContext.find(this, POLICY) === undefined) AppContext.of(this).set(POLICY, this);

    const byGroup = new Map<string, string[]>();
    for (const r of ManagedObjectsAdmissionPolicy.PROTECTED_RESOURCES) byGroup.set(r.apiGroup, [...(byGroup.get(r.apiGroup) ?? []), r.resource]);
    new ApiObject(this, 'Policy', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: this.policyName },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [...byGroup.entries()].map(([group, resources]) => ({
            apiGroups: [group], apiVersions: ['*'], operations: ['UPDATE', 'DELETE'], resources: [...resources].sort(),
          })),
          objectSelector: { matchLabels: { [ManagedObjectsAdmissionPolicy.MANAGED_BY_LABEL]: ManagedObjectsAdmissionPolicy.MANAGED_BY } },
        },
        validations: [{
          expression: ManagedObjectsAdmissionPolicy.EXPRESSION,
          messageExpression: "request.userInfo.username + ' may not ' + request.operation + ' ' + request.resource.resource + ' ' + request.namespace + '/' + oldObject.metadata.name"
            + " + ': the platform manages it (tenant baseline), not the tenant'",
          reason: 'Forbidden',
        }],
      },
    });
    new ApiObject(this, 'Binding', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: this.policyName },
      spec: { policyName: this.policyName, validationActions: ['Deny'] },
    });
    addErrorProducer(this, () => {
      const out: DiagnosticDetails[] = [...input.errors];
      const problem = KubernetesNames.problem(this.policyName, NameRule.DNS1123_SUBDOMAIN);
      if (problem) out.push({ code: CODE.InvalidName, field: 'policyName', value: this.policyName, message: `policy name ${problem}`, fix: 'use lower-case letters, digits, "-" and "."' });
      return out;
    });
  }
}

/** The App's first ManagedObjectsAdmissionPolicy (the one `ManagedObjectsAdmissionPolicy.of` returns). */
const POLICY = new AppSlot<ManagedObjectsAdmissionPolicy | undefined>('managedObjectsAdmissionPolicy', () => undefined);
