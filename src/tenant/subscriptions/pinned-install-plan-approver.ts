import { createHash } from 'crypto';
import { Chart, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../../core/app-context';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { addErrorProducer } from '../../core/diagnostics';
import { InputCheck, prop, throwIfInvalid, withUnknownProps } from '../../core/input-check';
import { KubernetesNames, NameRule } from '../../core/kubernetes-names';
import { PolicyRule } from '../../rbac/policy-rule';
import { PinnedApproval } from '../../upgrade/pinned-approval';
import { checksChildNames, namespaceReportedByParent, orderAfter } from '../private';
import { CompactRole } from '../rbac/compact-role';
import { RoleRefKind, SubjectRoleBinding } from '../rbac/subject-role-binding';

/** Options of `ScopedOperatorTenant.addPinnedApprover` (the tenant gives the namespace and the pinned CSVs). */
export interface PinnedApproverOptions {
  /**
   * Container image with Node.js (>= 16) on the PATH as `node`; nothing else is needed. Pin it by digest.
   * @default PinnedInstallPlanApprover.DEFAULT_IMAGE
   */
  readonly image?: string;
  /**
   * CronJob schedule.
   * @default '*\/5 * * * *'
   */
  readonly schedule?: string;
  /**
   * Name of the Role and RoleBinding in the tenant namespace; the ServiceAccount, ConfigMap and CronJob in the
   * approver namespace are named `<name>-<tenant namespace>` there (shortened with a hash beyond 52 characters, the
   * CronJob limit), or `name` when the approver runs in the tenant namespace.
   * @default 'installplan-approver'
   */
  readonly name?: string;
  /**
   * Namespace the approver runs in (its ServiceAccount, ConfigMap and CronJob). The default is one platform namespace
   * shared by every tenant's approver, created once per App (Pod Security `restricted`): no tenant identity holds
   * rights there, so no operator can run a pod as the approver and approve an unpinned InstallPlan. Setting it to
   * the tenant namespace brings that back wherever the tenant's identities may create pods, workloads or tokens
   * there: the tenant reports it as `TenantCanBecomeApprover` (OLMT-042).
   * @default PinnedInstallPlanApprover.DEFAULT_APPROVER_NAMESPACE
   */
  readonly approverNamespace?: string;
}

/** Props of `PinnedInstallPlanApprover`. */
export interface PinnedInstallPlanApproverProps extends PinnedApproverOptions {
  /** The namespace whose InstallPlans it approves (the tenant namespace). */
  readonly namespace: string;
  /**
   * The pinned CSVs (e.g. each Manual Subscription's `startingCsv`); more with `addPinnedCsv`.
   * @default - none yet
   */
  readonly pinnedCsvs?: string[];
}

/**
 * What GitOps needs to approve InstallPlans it cannot approve itself (redhat-cop gitops-catalog's
 * `installplan-approver` pattern), restricted to pinned CSVs: a ServiceAccount whose Role allows only `list` and
 * `patch` on `installplans` in the tenant namespace (the two requests its script sends), and a CronJob whose script
 * approves a Manual InstallPlan only when every CSV in `spec.clusterServiceVersionNames` is pinned
 * (`PinnedApproval.decide`). Changing the pin in code is how a team upgrades: the pending InstallPlan of the newly
 * pinned CSV is approved on the next run.
 *
 * The ServiceAccount, ConfigMap and CronJob live in a platform namespace shared by every tenant's approver
 * (`approverNamespace`), bound by a RoleBinding in the tenant namespace: whoever may create pods (or Deployments,
 * Jobs, ...) in a namespace can run them as any ServiceAccount there (`plugin/pkg/admission/serviceaccount`), and
 * most operators may. One shared namespace, not one per tenant: a ServiceAccount per tenant keeps each approver's
 * rights to its own tenant, and no tenant identity holds any right in the shared namespace, so a namespace per
 * tenant (5,000 more Namespaces for 5,000 tenants) would add no isolation.
 */
export class PinnedInstallPlanApprover extends Construct {
  /**
   * The default image: Red Hat UBI 9 minimal Node.js 24, an LTS release supported until April 2028 (its script needs
   * only `fs` and `https`: any maintained Node.js runs it). Pin it by digest in production.
   */
  public static readonly DEFAULT_IMAGE = 'registry.access.redhat.com/ubi9/nodejs-24-minimal:latest';
  /**
   * The Role's only rule: the script's two requests, `GET .../namespaces/<ns>/installplans` (verb `list`) and
   * `PATCH .../installplans/<name>` (verb `patch`); it never gets one plan nor watches.
   */
  public static readonly RULE: PolicyRule = { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['list', 'patch'] };
  /** The platform namespace the approvers run in unless `approverNamespace` is given. */
  public static readonly DEFAULT_APPROVER_NAMESPACE = 'installplan-approvers';

  /**
   * The name of a tenant's approver objects in a shared approver namespace: `<name>-<tenant namespace>`, or, beyond
   * 52 characters (the CronJob name limit), its first 43 characters and 8 hex digits of its SHA-256.
   */
  public static sharedName(name: string, tenantNamespace: string): string {
    const check = new InputCheck();
    check.requiredString('name', name, "pass the approver name, e.g. 'installplan-approver'");
    check.requiredString('tenantNamespace', tenantNamespace, "pass the tenant namespace, e.g. 'team-a'");
    throwIfInvalid(check, 'PinnedInstallPlanApprover.sharedName');
    const full = `${name}-${tenantNamespace}`;
    if (full.length <= CRONJOB_NAME_LIMIT) return full;
    const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
    return `${full.slice(0, CRONJOB_NAME_LIMIT - 9).replace(/-+$/, '')}-${hash}`;
  }

  /** Name of the Role and RoleBinding (tenant namespace). */
  public readonly name: string;
  /** Name of the ServiceAccount, ConfigMap and CronJob (approver namespace). */
  public readonly runName: string;
  /** The namespace whose InstallPlans it approves (the tenant namespace). */
  public readonly namespace: string;
  /** The namespace the approver runs in. */
  public readonly approverNamespace: string;
  /**
   * The approver namespace's Namespace object, when this approver created it (the first approver of the App that
   * runs there).
   */
  public readonly approverNamespaceObject?: k8s.KubeNamespace;
  /** The ServiceAccount. */
  public readonly serviceAccount: k8s.KubeServiceAccount;
  /** The Role (only `RULE`). */
  public readonly role: CompactRole;
  /** The RoleBinding. */
  public readonly roleBinding: SubjectRoleBinding;
  /** The ConfigMap with the script. */
  public readonly configMap: k8s.KubeConfigMap;
  /** The CronJob. */
  public readonly cronJob: k8s.KubeCronJob;
  private readonly pinned = new Set<string>();
  private readonly props: PinnedInstallPlanApproverProps;
  /** Wrong-typed props and arguments (synth errors). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: PinnedInstallPlanApproverProps) {
    super(scope, id);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors, the objects use safe values
    props = checkApproverProps(this.input, props);
    // no usable namespace: that one error, not also an empty-name error from every child
    // (an invalid tenant namespace is the tenant's one error: the Role and RoleBinding do not repeat it)
    if ((this.input.errors.length > 0 && props.namespace === '') || namespaceReportedByParent(this, props.namespace)) checksChildNames(this);
    this.props = props;
    this.name = props.name ?? 'installplan-approver';
    this.namespace = props.namespace;
    this.approverNamespace = props.approverNamespace ?? PinnedInstallPlanApprover.DEFAULT_APPROVER_NAMESPACE;
    const shared = this.approverNamespace !== this.namespace;
    this.runName = shared ? PinnedInstallPlanApprover.sharedName(this.name, this.namespace) : this.name;
    for (const c of props.pinnedCsvs ?? []) this.pinned.add(c);
    const metadata = { name: this.runName, namespace: this.approverNamespace };
    if (shared && this.input.errors.length === 0 && KubernetesNames.isDns1123Label(this.approverNamespace)) {
      this.approverNamespaceObject = approverNamespaceOf(this, this.approverNamespace);
    }

    this.serviceAccount = new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata });
    this.role = new CompactRole(this, 'Role', { name: this.name, namespace: this.namespace, rules: [PinnedInstallPlanApprover.RULE] });
    this.roleBinding = new SubjectRoleBinding(this, 'RoleBinding', { name: this.name, namespace: this.namespace, roleKind: RoleRefKind.ROLE, roleName: this.name });
    this.roleBinding.addSubjectConfiguration('ServiceAccount', this.runName, this.approverNamespace);
    this.configMap = new k8s.KubeConfigMap(this, 'Script', { metadata, data: { 'approve.js': PinnedApproval.script } });
    this.cronJob = new k8s.KubeCronJob(this, 'CronJob', {
      metadata,
      spec: {
        schedule: props.schedule ?? '*/5 * * * *',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        failedJobsHistoryLimit: 3,
        jobTemplate: {
          spec: {
            backoffLimit: 1,
            template: {
              spec: {
                serviceAccountName: this.runName,
                restartPolicy: 'Never',
                securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
                containers: [{
                  name: 'approver',
                  image: props.image ?? PinnedInstallPlanApprover.DEFAULT_IMAGE,
                  command: ['node', '/scripts/approve.js'],
                  env: [
                    { name: 'NAMESPACE', value: this.namespace },
                    { name: 'PINNED_CSVS', value: Lazy.any({ produce: () => JSON.stringify(this.pinnedCsvs) }) as unknown as string },
                  ],
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                  resources: {
                    requests: { cpu: k8s.Quantity.fromString('10m'), memory: k8s.Quantity.fromString('32Mi') },
                    limits: { memory: k8s.Quantity.fromString('128Mi') },
                  },
                  volumeMounts: [{ name: 'script', mountPath: '/scripts', readOnly: true }],
                }],
                volumes: [{ name: 'script', configMap: { name: this.runName } }],
              },
            },
          },
        },
      },
    });
    // order the API objects themselves (cdk8s sorts a chart by ApiObject dependencies, not wrapper constructs)
    orderAfter(this.role, this.serviceAccount);
    orderAfter(this.roleBinding, this.role);
    orderAfter(this.configMap, this.serviceAccount);
    orderAfter(this.cronJob, this.roleBinding);
    orderAfter(this.cronJob, this.configMap);
    // the shared Namespace orders this approver's objects when it is in the same chart (a dependency across charts
    // would make cdk8s number every chart file); otherwise it comes first by synthesis order
    const ns = sharedNamespaces(this).get(this.approverNamespace);
    if (ns && Chart.of(ns) === Chart.of(this)) {
      orderAfter(this.serviceAccount, ns);
      orderAfter(this.configMap, ns);
    }
    addErrorProducer(this, () => this.problems());
  }

  /** Pins a CSV: InstallPlans made only of pinned CSVs are approved. */
  public addPinnedCsv(csvName: string): void {
    const checked = this.input.requiredString('addPinnedCsv(csvName)', csvName, "pass the CSV name, e.g. 'etcdoperator.v0.9.4'");
    if (checked !== undefined) this.pinned.add(checked);
  }

  /** The pinned CSVs, sorted. */
  public get pinnedCsvs(): string[] {
    return [...this.pinned].sort();
  }

  private problems(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.input.errors];
    const nameProblem = KubernetesNames.problem(this.name, NameRule.DNS1123_LABEL);
    if (nameProblem) out.push({ code: CODE.InvalidName, field: 'name', value: this.name, message: `approver name ${nameProblem}`, fix: 'use a lower-case RFC 1123 label (it names a CronJob too)' });
    if (this.props.approverNamespace !== undefined) {
      const nsProblem = KubernetesNames.problem(this.approverNamespace, NameRule.DNS1123_LABEL);
      if (nsProblem) {
        out.push({ code: CODE.InvalidName, field: 'approverNamespace', value: this.approverNamespace, message: `approver Namespace name ${nsProblem}`, fix: `use a lower-case RFC 1123 label, or leave approverNamespace out ('${PinnedInstallPlanApprover.DEFAULT_APPROVER_NAMESPACE}')` });
      }
    }
    if (this.props.image !== undefined && this.props.image.trim() === '') {
      out.push({ code: CODE.EmptyImage, field: 'image', value: this.props.image, message: 'the image is empty', fix: 'name an image with node on the PATH, or leave `image` out' });
    }
    return out;
  }
}


/** The props, checked: wrong values are errors and replaced by safe ones (the namespace by '' when unusable). */
function checkApproverProps(input: InputCheck, raw: unknown): PinnedInstallPlanApproverProps {
  if (input.requiredObject('props', raw, 'an object with at least namespace', "pass { namespace: 'team-a' }", 'the props') === undefined) return { namespace: '' };
  input.knownProps(raw, 'PinnedInstallPlanApproverProps', 'PinnedInstallPlanApprover');
  const p = (k: string) => prop(raw, k);
  // a namespace string is name-checked by the Role and RoleBinding below (one error each, as before)
  const namespace = input.requiredString('namespace', p('namespace'), "set namespace to the tenant namespace, e.g. 'team-a'");
  // props this check does not know (added by other features) pass through unchanged
  return withUnknownProps({
    namespace: namespace ?? '',
    name: input.optionalString('name', p('name'), { fix: 'set name to a lower-case RFC 1123 label' }),
    image: input.optionalString('image', p('image'), { fix: 'name an image with node on the PATH, e.g. PinnedInstallPlanApprover.DEFAULT_IMAGE' }),
    schedule: input.optionalString('schedule', p('schedule'), { fix: "pass a CronJob schedule, e.g. '*/5 * * * *'" }),
    pinnedCsvs: input.optionalStringArray('pinnedCsvs', p('pinnedCsvs'), "pass CSV names, e.g. ['etcdoperator.v0.9.4']"),
    approverNamespace: input.optionalString('approverNamespace', p('approverNamespace'), { fix: `name a platform namespace, or leave it out ('${PinnedInstallPlanApprover.DEFAULT_APPROVER_NAMESPACE}')` }),
  }, raw as object);
}

/** The CronJob name limit (52: the controller appends an 11-character suffix to Job names). */
const CRONJOB_NAME_LIMIT = 52;

/** The approver namespaces created in each App, by name. */
const SHARED_NAMESPACES = new AppSlot('approverNamespaces', () => new Map<string, k8s.KubeNamespace>());

function sharedNamespaces(c: IConstruct): Map<string, k8s.KubeNamespace> {
  return AppContext.of(c).get(SHARED_NAMESPACES);
}

/**
 * The approver namespace's Namespace, created once per App in the chart of the first approver that runs there (a
 * child of the chart, not of a tenant: it belongs to no tenant). Pod Security `restricted`: the approver's pod is.
 * `undefined` when an earlier approver created it.
 */
function approverNamespaceOf(approver: PinnedInstallPlanApprover, name: string): k8s.KubeNamespace | undefined {
  const map = sharedNamespaces(approver);
  if (map.has(name)) return undefined;
  const chart = Chart.of(approver);
  const ns = new k8s.KubeNamespace(chart, `InstallPlanApproverNamespace-${name}`, {
    metadata: {
      name,
      labels: {
        'pod-security.kubernetes.io/audit': 'restricted',
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/warn': 'restricted',
      },
    },
  });
  map.set(name, ns);
  return ns;
}
