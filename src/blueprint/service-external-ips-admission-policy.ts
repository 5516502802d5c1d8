import { ApiObject, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../core/app-context';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';

/** Props of `ServiceExternalIpsAdmissionPolicy`. */
export interface ServiceExternalIpsAdmissionPolicyProps {
  /**
   * Name of the ValidatingAdmissionPolicy and its binding (cluster-scoped).
   * @default ServiceExternalIpsAdmissionPolicy.DEFAULT_NAME
   */
  readonly policyName?: string;
}

/**
 * CVE-2020-8554: whoever may create or update a Service may set `spec.externalIPs`, and kube-proxy then sends the
 * traffic of every pod of the cluster to those IPs to that Service's endpoints (a man in the middle for any address),
 * unless the API server runs the `DenyServiceExternalIPs` admission plugin (k8s
 * `plugin/pkg/admission/network/denyserviceexternalips/admission.go`: refuses a CREATE with `externalIPs` and an
 * UPDATE that adds one). This `ValidatingAdmissionPolicy` and its binding (`admissionregistration.k8s.io/v1`,
 * Kubernetes 1.30+) do the same in the tenant namespaces of the baselines that ask for it
 * (`TenantBaselineOptions.refuseServiceExternalIps`): CREATE and UPDATE (patch included) of a Service with a
 * non-empty `spec.externalIPs` are refused, whoever asks. The binding selects the namespaces by
 * `kubernetes.io/metadata.name`, the label the API server sets on every Namespace.
 *
 * One per App: `TenantBaseline` creates it in its chart when the App has none (`ServiceExternalIpsAdmissionPolicy.of`).
 */
export class ServiceExternalIpsAdmissionPolicy extends Construct {
  /** The default name of the policy and the binding. */
  public static readonly DEFAULT_NAME = 'cdk8s-olm-tenancy-service-external-ips';
  /** The CEL of the policy's validation: true (allowed) when the Service sets no external IP. */
  public static readonly EXPRESSION = '!has(object.spec.externalIPs) || size(object.spec.externalIPs) == 0';

  /** The policy of `scope`'s App, if one was created. */
  public static of(scope: IConstruct): ServiceExternalIpsAdmissionPolicy | undefined {
    return AppContext.find(scope, POLICY);
  }

  /** Name of the policy and the binding. */
  public readonly policyName: string;
  private readonly namespaces = new Set<string>();

  public constructor(scope: Construct, id: string, props: ServiceExternalIpsAdmissionPolicyProps = {}) {
    super(scope, id);
    const input = new InputCheck();
    const raw = input.optionalObject('props', props ?? {}, 'pass { policyName? }') ?? {};
    this.policyName = input.optionalString('policyName', raw.policyName) ?? ServiceExternalIpsAdmissionPolicy.DEFAULT_NAME;
    if (AppContext.find(this, POLICY) === undefined) AppContext.of(this).set(POLICY, this);
    new ApiObject(this, 'Policy', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: this.policyName },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['services'] }],
        },
        validations: [{
          expression: ServiceExternalIpsAdmissionPolicy.EXPRESSION,
          messageExpression: "'spec.externalIPs of Service ' + request.namespace + '/' + request.name"
            + " + ' is refused: external IPs intercept the traffic of every pod of the cluster to those addresses (CVE-2020-8554)'",
          reason: 'Forbidden',
        }],
      },
    });
    new ApiObject(this, 'Binding', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: this.policyName },
      spec: {
        policyName: this.policyName,
        validationActions: ['Deny'],
        matchResources: Lazy.any({
          produce: () => ({
            namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [...this.namespaces].sort() }] },
          }),
        }),
      },
    });
    addErrorProducer(this, () => {
      const out: DiagnosticDetails[] = [...input.errors];
      const problem = KubernetesNames.problem(this.policyName, NameRule.DNS1123_SUBDOMAIN);
      if (problem) out.push({ code: CODE.InvalidName, field: 'policyName', value: this.policyName, message: `policy name ${problem}`, fix: 'use lower-case letters, digits, "-" and "."' });
      if (this.namespaces.size === 0) {
        out.push({
          code: CODE.ServiceExternalIpsPolicyWithoutNamespaces,
          field: 'namespaces',
          value: '[]',
          message: 'the policy covers no namespace (its binding would select none: an In requirement needs values)',
          fix: "set refuseServiceExternalIps: true on a TenantBaseline, or call addNamespace('team-a')",
        });
      }
      return out;
    });
  }

  /** Refuses external IPs in `namespace` too. */
  public addNamespace(namespace: string): void {
    if (typeof namespace === 'string' && namespace !== '') this.namespaces.add(namespace);
  }

  /** The namespaces covered, sorted. */
  public get coveredNamespaces(): string[] {
    return [...this.namespaces].sort();
  }
}

/** The App's first ServiceExternalIpsAdmissionPolicy (the one `ServiceExternalIpsAdmissionPolicy.of` returns). */
const POLICY = new AppSlot<ServiceExternalIpsAdmissionPolicy | undefined>('serviceExternalIpsAdmissionPolicy', () => undefined);
