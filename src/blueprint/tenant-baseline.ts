import { createHash } from 'crypto';
import { ApiObject, Chart, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { baselineRemovalFindings, externalIpFindings } from './baseline-reach';
import { ManagedObjectsAdmissionPolicy } from './managed-objects-admission-policy';
import { ServiceExternalIpsAdmissionPolicy } from './service-external-ips-admission-policy';
import { OperatorBundle } from '../bundle/operator-bundle';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer } from '../core/diagnostics';
import { InputCheck, KubernetesText, throwIfInvalid } from '../core/input-check';
import { PolicyChecks, PolicySeverity } from '../core/policy-checks';
import { refuseUnfaithfulOutputOnPlainApps } from '../output/faithful-output';
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
  /**
   * Protect the baseline from the tenant: label its objects `app.kubernetes.io/managed-by: cdk8s-olm-tenancy` and
   * make sure the App has a `ManagedObjectsAdmissionPolicy` (created in this baseline's chart when it has none), a
   * ValidatingAdmissionPolicy (Kubernetes 1.30+) that refuses updates and deletes of them by the namespace's
   * ServiceAccounts (installer, operators, their pods). The `TenantCanRemoveBaseline` finding then only names
   * people. Off by default: it adds a cluster-scoped policy.
   * @default false
   */
  readonly protectManagedObjects?: boolean;
  /**
   * Refuse `spec.externalIPs` on Services in the tenant namespace (CVE-2020-8554: an external IP intercepts the traffic
   * of every pod of the cluster to that address): make sure the App has a `ServiceExternalIpsAdmissionPolicy`
   * (created in this baseline's chart when it has none; a cluster-scoped ValidatingAdmissionPolicy, Kubernetes 1.30+)
   * and add the namespace to it. Off by default: it adds a cluster-scoped policy. Without it (and without
   * `serviceExternalIpsDeniedReason`) every tenant identity that may create or update Services there is named
   * (`TenantCanSetExternalIps`, OLMT-053).
   * @default false
   */
  readonly refuseServiceExternalIps?: boolean;
  /**
   * The API server runs the `DenyServiceExternalIPs` admission plugin (it refuses new external IPs cluster-wide):
   * why you know it. The `TenantCanSetExternalIps` finding then goes away.
   * @default - none: the finding is reported unless `refuseServiceExternalIps` is set
   */
  readonly serviceExternalIpsDeniedReason?: string;
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
 * - `allow-webhooks-<deployment>`: one per bundle Deployment that serves admission/conversion webhooks or API
 *   services (the bundles' `webhookdefinitions` and `apiservicedefinitions`): ingress from anywhere (the API server
 *   calls them from the host network, which no pod selector matches), but only to that Deployment's pods, selected
 *   as OLM's webhook Service selects them (the Deployment's `spec.selector.matchLabels`: OLM
 *   `pkg/controller/install/certresources.go` `installCertRequirementsForDeployment`), and only on the ports that
 *   Service targets (each webhook's `targetPort`, else its `containerPort`; an API service's `containerPort`:
 *   `getServicePort`). Added as Subscriptions with bundles are added to the tenant.
 *
 * Pod security labels are the tenant's (`ScopedOperatorTenantProps.podSecurity`).
 *
 * The tenant's own identities may be allowed to remove the baseline: an operator whose CSV permissions hold
 * `delete` on `networkpolicies` or `update` on `resourcequotas` in its namespace gets them (and so does the installer,
 * which must hold what it grants). The baseline names each such identity (`TenantCanRemoveBaseline`, OLMT-043);
 * `protectManagedObjects` refuses those requests in the cluster.
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

  /**
   * The webhook NetworkPolicies of the bundles: per bundle Deployment that serves webhooks or API services, the pod
   * labels OLM's webhook Service selects (the Deployment's `spec.selector.matchLabels`) and the ports it targets,
   * sorted by Deployment name. A Deployment without `matchLabels` (or not in its CSV) gets none: OLM's Service
   * selects no pod then.
   */
  public static webhookPolicies(bundles: OperatorBundle[]): WebhookPolicy[] {
    const check = new InputCheck();
    const fix = 'pass OperatorBundle objects, e.g. [OperatorBundle.fromDirectory(dir)]';
    check.requiredArray('bundles', bundles, (v, f) => check.optionalInstance(f, v ?? 0, OperatorBundle, fix), fix);
    throwIfInvalid(check, 'TenantBaseline.webhookPolicies');
    const byDeployment = new Map<string, { labels: { [key: string]: string }; ports: Set<string> }>();
    for (const bundle of bundles) {
      for (const p of TenantBaseline.webhookPorts([bundle])) {
        let entry = byDeployment.get(p.deploymentName);
        if (!entry) {
          const labels = matchLabelsOf(bundle, p.deploymentName);
          if (labels === undefined) continue;
          byDeployment.set(p.deploymentName, entry = { labels, ports: new Set() });
        }
        entry.ports.add(p.port);
      }
    }
    return [...byDeployment.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([deploymentName, e]) => ({
      deploymentName,
      policyName: webhookPolicyName(deploymentName),
      podLabels: sortedMap(e.labels),
      ports: [...e.ports].sort(),
    }));
  }

  /** The ResourceQuota. */
  public readonly resourceQuota: k8s.KubeResourceQuota;
  /** The LimitRange. */
  public readonly limitRange: k8s.KubeLimitRange;
  /** The NetworkPolicies, in order (empty with `networkPolicies: false`); webhook policies are added with bundles. */
  public readonly networkPolicies: ApiObject[] = [];
  /** True when the baseline is protected by the App's `ManagedObjectsAdmissionPolicy` (`protectManagedObjects`). */
  public readonly protectsManagedObjects: boolean;
  /** True when the App's `ServiceExternalIpsAdmissionPolicy` refuses external IPs in the namespace (`refuseServiceExternalIps`). */
  public readonly refusesServiceExternalIps: boolean;

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
      protectManagedObjects: input.optionalBoolean('protectManagedObjects', raw.protectManagedObjects),
      refuseServiceExternalIps: input.optionalBoolean('refuseServiceExternalIps', raw.refuseServiceExternalIps),
      serviceExternalIpsDeniedReason: input.optionalString('serviceExternalIpsDeniedReason', raw.serviceExternalIpsDeniedReason),
    };
    this.protectsManagedObjects = options.protectManagedObjects === true;
    if (this.protectsManagedObjects && !ManagedObjectsAdmissionPolicy.of(this)) new ManagedObjectsAdmissionPolicy(Chart.of(this), 'ManagedObjectsAdmissionPolicy');
    const labels = this.protectsManagedObjects
      ? { [ManagedObjectsAdmissionPolicy.MANAGED_BY_LABEL]: ManagedObjectsAdmissionPolicy.MANAGED_BY }
      : undefined;
    const namespace = tenant?.namespaceName ?? '';
    const errors: DiagnosticDetails[] = [...input.errors];
    const quota = options.quota ?? TenantBaseline.DEFAULT_QUOTA;
    for (const [k, v] of Object.entries(quota)) {
      // the key lands in the ResourceQuota as written: the API server's rules (KubernetesText), nothing else
      const keyProblem = KubernetesText.quotaResourceNameProblem(k);
      if (keyProblem) {
        errors.push({ code: CODE.InvalidQuotaResource, field: `quota[${JSON.stringify(k)}]`, value: k, message: `quota key ${keyProblem}`, fix: "use a quota resource name such as 'pods', 'requests.cpu', 'limits.memory' or 'count/deployments.apps'" });
      } else if (typeof v !== 'string' || KubernetesText.quantityProblem(v) !== undefined) {
        errors.push({ code: CODE.InvalidQuantity, field: `quota.${k}`, value: String(v), message: 'not a Kubernetes quantity', fix: "write a quantity such as '10', '500m' or '16Gi'" });
      }
    }
    for (const field of ['defaultRequests', 'defaultLimits'] as const) {
      for (const [k, v] of Object.entries(options[field] ?? {})) {
        if (typeof v === 'string' && KubernetesText.quantityProblem(v) !== undefined) {
          errors.push({ code: CODE.InvalidQuantity, field: `${field}.${k}`, value: v, message: 'not a Kubernetes quantity', fix: "write a quantity such as '100m', '1' or '128Mi'" });
        }
      }
    }
    // derived grants that let the tenant's identities remove the baseline (baseline-reach.ts), at the tenant's severity
    // (computed only by the producer its severity makes it go to: an error unless the tenant lowers OLMT-043)
    const severity = () => (tenant?._policyChecks ?? {})[REMOVAL_CHECK_ID] ?? PolicySeverity.ERROR;
    const findings = (wanted: PolicySeverity) => {
      if (!tenant || tenant.namespaceName === '' || severity() !== wanted) return { errors: [], warnings: [] };
      return PolicyChecks.apply(baselineRemovalFindings(tenant, this), [], tenant._policyChecks);
    };
    if (options.serviceExternalIpsDeniedReason !== undefined && options.serviceExternalIpsDeniedReason.trim() === '') {
      errors.push({
        code: CODE.EmptyServiceExternalIpsReason,
        field: 'serviceExternalIpsDeniedReason',
        value: options.serviceExternalIpsDeniedReason,
        message: 'the reason for trusting the cluster\'s DenyServiceExternalIPs admission plugin is empty, so it does not count',
        fix: 'say how you know the API server runs it (e.g. the managed offering enables it), or set refuseServiceExternalIps: true',
      });
    }
    // the external IPs of Services (CVE-2020-8554): refused by the App's policy, by the cluster, or named (OLMT-053,
    // a warning unless the tenant raises it)
    this.refusesServiceExternalIps = options.refuseServiceExternalIps === true;
    if (this.refusesServiceExternalIps && namespace !== '') {
      (ServiceExternalIpsAdmissionPolicy.of(this) ?? new ServiceExternalIpsAdmissionPolicy(Chart.of(this), 'ServiceExternalIpsAdmissionPolicy')).addNamespace(namespace);
    }
    const externalIpsChecked = !this.refusesServiceExternalIps && (options.serviceExternalIpsDeniedReason ?? '').trim() === '';
    const externalIpSeverity = () => (tenant?._policyChecks ?? {})[EXTERNAL_IPS_CHECK_ID] ?? PolicySeverity.WARNING;
    const externalIps = (wanted: PolicySeverity) => {
      if (!externalIpsChecked || !tenant || tenant.namespaceName === '' || externalIpSeverity() !== wanted) return { errors: [], warnings: [] };
      return PolicyChecks.apply([], externalIpFindings(tenant), tenant._policyChecks);
    };
    addErrorProducer(this, () => [...errors, ...findings(PolicySeverity.ERROR).errors, ...externalIps(PolicySeverity.ERROR).errors]);
    addWarningProducer(this, () => [...findings(PolicySeverity.WARNING).warnings, ...externalIps(PolicySeverity.WARNING).warnings]);
    refuseUnfaithfulOutputOnPlainApps(this);

    this.resourceQuota = new k8s.KubeResourceQuota(this, 'ResourceQuota', {
      metadata: { name: 'tenant-baseline', namespace, labels },
      spec: { hard: sortedQuantities(quota) },
    });
    const requests = options.defaultRequests ?? { cpu: '100m', memory: '128Mi' };
    const limits = options.defaultLimits ?? { cpu: '1', memory: '1Gi' };
    this.limitRange = new k8s.KubeLimitRange(this, 'LimitRange', {
      metadata: { name: 'tenant-baseline', namespace, labels },
      spec: { limits: [{ type: 'Container', defaultRequest: resources(requests), default: resources(limits) }] },
    });

    if (options.networkPolicies ?? true) {
      const olmNamespaces = options.olmNamespaces ?? ['openshift-operator-lifecycle-manager', 'olm'];
      const monitoring = options.monitoringNamespaces ?? ['openshift-monitoring', 'openshift-user-workload-monitoring'];
      const fromNamespaces = (names: string[]) => names.map((n) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': n } } }));
      const policy = (name: string, spec: k8s.NetworkPolicySpec) => {
        this.networkPolicies.push(new k8s.KubeNetworkPolicy(this, `NetworkPolicy-${name}`, { metadata: { name, namespace, labels }, spec }));
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
      // one policy per webhook Deployment, created as the tenant's bundles arrive (Subscriptions may come after the
      // baseline); its ports grow lazily when a later bundle (another version) serves more on the same Deployment
      const webhookBundles: OperatorBundle[] = [];
      const created = new Set<string>();
      tenant?._onInstalledBundle((bundle) => {
        webhookBundles.push(bundle);
        for (const w of TenantBaseline.webhookPolicies([bundle])) {
          if (created.has(w.deploymentName)) continue;
          created.add(w.deploymentName);
          const current = () => TenantBaseline.webhookPolicies(webhookBundles).find((x) => x.deploymentName === w.deploymentName) ?? w;
          const obj = new ApiObject(this, `NetworkPolicy-webhooks-${w.deploymentName.replace(/\//g, '-')}`, {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'NetworkPolicy',
            metadata: { name: w.policyName, namespace, labels },
            spec: Lazy.any({
              produce: () => {
                const p = current();
                return {
                  podSelector: { matchLabels: p.podLabels },
                  policyTypes: ['Ingress'],
                  ingress: [{ ports: p.ports.map((port) => ({ port: /^[0-9]+$/.test(port) ? Number(port) : port, protocol: 'TCP' })) }],
                };
              },
            }),
          });
          if (tenant.namespace) obj.node.addDependency(tenant.namespace);
          this.networkPolicies.push(obj);
        }
      });
    }
    // Applied after the tenant's Namespace.
    const ns = tenant?.namespace;
    if (ns) {
      for (const c of this.node.findAll()) if (c instanceof ApiObject) c.node.addDependency(ns);
    }
  }
}

/** A NetworkPolicy the baseline writes for one webhook Deployment. */
export interface WebhookPolicy {
  /** The bundle Deployment that serves the webhooks or API services. */
  readonly deploymentName: string;
  /** The NetworkPolicy's name: `allow-webhooks-<deployment>` (shortened with a hash beyond 253 characters). */
  readonly policyName: string;
  /** The pod labels it selects: the Deployment's `spec.selector.matchLabels` (what OLM's webhook Service selects). */
  readonly podLabels: { [key: string]: string };
  /** The pod ports it opens (numbers or names, as text), sorted. */
  readonly ports: string[];
}

/** A port the baseline opens for the API server (webhooks, API services). */
export interface WebhookPort {
  /** The bundle Deployment that serves it. */
  readonly deploymentName: string;
  /** The pod port (number or name, as text): the webhook's `targetPort`, else its `containerPort`. */
  readonly port: string;
}

/** The policy id of `TenantCanRemoveBaseline` (from the registry: ids are renumbered there only). */
const REMOVAL_CHECK_ID = PolicyChecks.byCode('TenantCanRemoveBaseline')?.id ?? '';
/** The policy id of `TenantCanSetExternalIps`. */
const EXTERNAL_IPS_CHECK_ID = PolicyChecks.byCode('TenantCanSetExternalIps')?.id ?? '';

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

/** The Deployment's `spec.selector.matchLabels` in the bundle's CSV; undefined when absent or empty. */
function matchLabelsOf(bundle: OperatorBundle, deploymentName: string): { [key: string]: string } | undefined {
  const d = bundle.deployments.find((x) => x.name === deploymentName);
  const labels = d?.spec?.selector?.matchLabels;
  if (labels === null || typeof labels !== 'object' || Array.isArray(labels)) return undefined;
  const out: { [key: string]: string } = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

function sortedMap(map: { [key: string]: string }): { [key: string]: string } {
  const out: { [key: string]: string } = {};
  for (const k of Object.keys(map).sort()) out[k] = map[k];
  return out;
}

/** `allow-webhooks-<deployment>`, its first 244 characters and 8 hex digits of its SHA-256 beyond 253 (a subdomain). */
function webhookPolicyName(deploymentName: string): string {
  const full = `allow-webhooks-${deploymentName}`;
  if (full.length <= 253) return full;
  return `${full.slice(0, 244).replace(/[-.]+$/, '')}-${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
}
