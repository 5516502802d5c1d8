import { ApiObject, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OperatorBundle } from '../bundle/operator-bundle';
import { addErrorProducer, DiagnosticDetails } from '../core/diagnostics';
import { InputCheck } from '../core/input';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';

/** Container resource defaults of the baseline's LimitRange. */
export interface ContainerResourceDefaults {
  /**
   * CPU, e.g. `100m`.
   * @default - none
   */
  readonly cpu?: string;
  /**
   * Memory, e.g. `128Mi`.
   * @default - none
   */
  readonly memory?: string;
}

/** Options of `TenantBaseline` (also the `baseline` of a `TenantBlueprint`). */
export interface TenantBaselineOptions {
  /**
   * ResourceQuota `spec.hard` of the tenant namespace. Operators' own pods count against it too.
   * @default TenantBaseline.DEFAULT_QUOTA
   */
  readonly quota?: { [resource: string]: string };
  /**
   * LimitRange default requests of every container that sets none.
   * @default { cpu: '100m', memory: '128Mi' }
   */
  readonly defaultRequests?: ContainerResourceDefaults;
  /**
   * LimitRange default limits of every container that sets none.
   * @default { cpu: '1', memory: '1Gi' }
   */
  readonly defaultLimits?: ContainerResourceDefaults;
  /**
   * Create the NetworkPolicies: deny all ingress and egress by default, then allow what OLM and operators need.
   * @default true
   */
  readonly networkPolicies?: boolean;
  /**
   * Namespaces of OLM's catalog operator and packageserver, which connect to catalog pods' gRPC port (50051).
   * @default ['openshift-operator-lifecycle-manager', 'olm'] - OpenShift and upstream OLM
   */
  readonly olmNamespaces?: string[];
  /**
   * Namespaces whose Prometheus may scrape the tenant's pods.
   * @default ['openshift-monitoring', 'openshift-user-workload-monitoring']
   */
  readonly monitoringNamespaces?: string[];
}

/** Props of `TenantBaseline`. */
export interface TenantBaselineProps extends TenantBaselineOptions {
  /** The tenant whose namespace gets the baseline (its bundles give the webhook ports). */
  readonly tenant: ScopedOperatorTenant;
}

/**
 * A Capsule-style baseline for one tenant namespace: a ResourceQuota, a LimitRange, and a default-deny
 * NetworkPolicy set that still lets OLM and the operators work:
 *
 * - `default-deny`: every pod, no ingress, no egress;
 * - `allow-same-namespace`: pods of the namespace talk to each other (operator to operand);
 * - `allow-dns`: egress to DNS (TCP/UDP 53, and 5353 for OpenShift's dns-default);
 * - `allow-api-server`: egress on 443/6443 (operators watch the API server; it is no pod, so no selector matches it);
 * - `allow-olm-catalog`: ingress to catalog pods (`olm.catalogSource` label, set by OLM on registry pods) on gRPC
 *   50051 from OLM's namespaces (the catalog operator resolves and the packageserver lists packages over it);
 * - `allow-monitoring`: ingress from the monitoring namespaces;
 * - `allow-operator-webhooks`: ingress to the ports the tenant's bundles serve admission/conversion webhooks and API
 *   services on (from the bundles' `webhookdefinitions` and `apiservicedefinitions`), from anywhere: the API server
 *   calls them from the host network, which no pod selector matches. Computed at synth time from the tenant's
 *   Subscriptions' bundles.
 *
 * Pod security labels are the tenant's (`ScopedOperatorTenantProps.podSecurity`).
 */
export class TenantBaseline extends Construct {
  /** The ResourceQuota used when `quota` is not given. */
  public static readonly DEFAULT_QUOTA: { [resource: string]: string } = {
    'count/deployments.apps': '50',
    'limits.cpu': '16',
    'limits.memory': '32Gi',
    'persistentvolumeclaims': '20',
    'pods': '100',
    'requests.cpu': '8',
    'requests.memory': '16Gi',
    'requests.storage': '500Gi',
    'services.loadbalancers': '0',
    'services.nodeports': '0',
  };

  /** The webhook and API service ports the baseline opens, from the tenant's bundles (sorted, unique). */
  public static webhookPorts(bundles: OperatorBundle[]): WebhookPort[] {
    const seen = new Map<string, WebhookPort>();
    for (const bundle of bundles) {
      for (const w of bundle.webhookDefinitions) {
        const port = w.targetPort !== undefined && w.targetPort !== '' ? w.targetPort : String(w.containerPort);
        const p: WebhookPort = { deploymentName: w.deploymentName, port };
        seen.set(`${w.deploymentName}/${port}`, p);
      }
      for (const a of bundle.ownedApiServices) {
        const p: WebhookPort = { deploymentName: a.deploymentName, port: String(a.containerPort) };
        seen.set(`${a.deploymentName}/${p.port}`, p);
      }
    }
    return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
  }

  /** The ResourceQuota. */
  public readonly resourceQuota: k8s.KubeResourceQuota;
  /** The LimitRange. */
  public readonly limitRange: k8s.KubeLimitRange;
  /** The NetworkPolicies, in order (empty with `networkPolicies: false`). */
  public readonly networkPolicies: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: TenantBaselineProps) {
    super(scope, id);
    // runtime input checks (JavaScript, jsii): problems are synth errors, the rest uses safe values
    const input = new InputCheck();
    const raw = input.optionalObject('props', props ?? 0, 'pass { tenant }') ?? {};
    input.knownProps(raw, 'TenantBaselineProps', 'TenantBaseline');
    const tenant = input.optionalInstance('tenant', raw.tenant ?? 0, ScopedOperatorTenant, 'pass the ScopedOperatorTenant the baseline is for');
    const resourceDefaults = (field: string): ContainerResourceDefaults | undefined => {
      const o = input.optionalObject(field, raw[field], "pass { cpu: '100m', memory: '128Mi' }");
      input.knownProps(o, 'ContainerResourceDefaults', field, `${field}.`);
      return o ? { cpu: input.optionalString(`${field}.cpu`, o.cpu), memory: input.optionalString(`${field}.memory`, o.memory) } : undefined;
    };
    const options: TenantBaselineOptions = {
      quota: input.optionalStringMap('quota', raw.quota),
      defaultRequests: resourceDefaults('defaultRequests'),
      defaultLimits: resourceDefaults('defaultLimits'),
      networkPolicies: input.optionalBoolean('networkPolicies', raw.networkPolicies),
      olmNamespaces: input.optionalStringArray('olmNamespaces', raw.olmNamespaces),
      monitoringNamespaces: input.optionalStringArray('monitoringNamespaces', raw.monitoringNamespaces),
    };
    const namespace = tenant?.namespaceName ?? '';
    const errors: DiagnosticDetails[] = [...input.errors];
    const quota = options.quota ?? TenantBaseline.DEFAULT_QUOTA;
    for (const [k, v] of Object.entries(quota)) {
      if (typeof v !== 'string' || !/^[+-]?[0-9.]+([eE][+-]?[0-9]+|[numkMGTPE]i?)?$/.test(v)) {
        errors.push({ code: 'InvalidQuantity', field: `quota.${k}`, value: String(v), message: 'not a Kubernetes quantity', fix: "write a quantity such as '10', '500m' or '16Gi'" });
      }
    }
    addErrorProducer(this, () => errors);

    this.resourceQuota = new k8s.KubeResourceQuota(this, 'ResourceQuota', {
      metadata: { name: 'tenant-baseline', namespace },
      spec: { hard: sortedQuantities(quota) },
    });
    const requests = options.defaultRequests ?? { cpu: '100m', memory: '128Mi' };
    const limits = options.defaultLimits ?? { cpu: '1', memory: '1Gi' };
    this.limitRange = new k8s.KubeLimitRange(this, 'LimitRange', {
      metadata: { name: 'tenant-baseline', namespace },
      spec: { limits: [{ type: 'Container', defaultRequest: resources(requests), default: resources(limits) }] },
    });

    if (options.networkPolicies ?? true) {
      const olmNamespaces = options.olmNamespaces ?? ['openshift-operator-lifecycle-manager', 'olm'];
      const monitoring = options.monitoringNamespaces ?? ['openshift-monitoring', 'openshift-user-workload-monitoring'];
      const fromNamespaces = (names: string[]) => names.map((n) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': n } } }));
      const policy = (name: string, spec: k8s.NetworkPolicySpec) => {
        this.networkPolicies.push(new k8s.KubeNetworkPolicy(this, `NetworkPolicy-${name}`, { metadata: { name, namespace }, spec }));
      };
      policy('default-deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
      policy('allow-same-namespace', {
        podSelector: {},
        policyTypes: ['Ingress', 'Egress'],
        ingress: [{ from: [{ podSelector: {} }] }],
        egress: [{ to: [{ podSelector: {} }] }],
      });
      policy('allow-dns', {
        podSelector: {},
        policyTypes: ['Egress'],
        egress: [{ ports: [53, 5353].flatMap((port) => ['UDP', 'TCP'].map((protocol) => ({ port: k8s.IntOrString.fromNumber(port), protocol }))) }],
      });
      policy('allow-api-server', {
        podSelector: {},
        policyTypes: ['Egress'],
        egress: [{ ports: [443, 6443].map((port) => ({ port: k8s.IntOrString.fromNumber(port), protocol: 'TCP' })) }],
      });
      policy('allow-olm-catalog', {
        podSelector: { matchExpressions: [{ key: 'olm.catalogSource', operator: 'Exists' }] },
        policyTypes: ['Ingress'],
        ingress: [{ from: fromNamespaces(olmNamespaces), ports: [{ port: k8s.IntOrString.fromNumber(50051), protocol: 'TCP' }] }],
      });
      policy('allow-monitoring', {
        podSelector: {},
        policyTypes: ['Ingress'],
        ingress: [{ from: fromNamespaces(monitoring) }],
      });
      // Lazy (a plain ApiObject: the L1 class cannot hold a lazy list): Subscriptions and their bundles may be added
      // to the tenant after the baseline. It selects every pod: the ports are the bundles' own webhook ports.
      this.networkPolicies.push(new ApiObject(this, 'NetworkPolicy-allow-operator-webhooks', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-operator-webhooks', namespace },
        spec: Lazy.any({
          produce: () => {
            const ports = TenantBaseline.webhookPorts(tenant?.installedBundles ?? [])
              .map((p) => ({ port: /^[0-9]+$/.test(p.port) ? Number(p.port) : p.port, protocol: 'TCP' }));
            return { podSelector: {}, policyTypes: ['Ingress'], ingress: ports.length > 0 ? [{ ports }] : [] };
          },
        }),
      }));
    }
    // Applied after the tenant's Namespace.
    const ns = tenant?.namespace;
    if (ns) {
      for (const c of this.node.findAll()) if (c instanceof ApiObject) c.node.addDependency(ns);
    }
  }
}

/** A port the baseline opens for the API server (webhooks, API services). */
export interface WebhookPort {
  /** The bundle Deployment that serves it. */
  readonly deploymentName: string;
  /** The pod port (number or name, as text): the webhook's `targetPort`, else its `containerPort`. */
  readonly port: string;
}

function sortedQuantities(map: { [key: string]: string }): { [key: string]: k8s.Quantity } {
  const out: { [key: string]: k8s.Quantity } = {};
  for (const k of Object.keys(map).sort()) out[k] = k8s.Quantity.fromString(String(map[k]));
  return out;
}

function resources(r: ContainerResourceDefaults): { [key: string]: k8s.Quantity } {
  const out: { [key: string]: k8s.Quantity } = {};
  if (r.cpu !== undefined) out.cpu = k8s.Quantity.fromString(r.cpu);
  if (r.memory !== undefined) out.memory = k8s.Quantity.fromString(r.memory);
  return out;
}
