import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CompactRole } from './compact-role';
import { NAME_CHECKING_PARENTS, orderAfter } from './private';
import { RoleRefKind, SubjectRoleBinding } from './subject-role-binding';
import { addErrorProducer, DiagnosticDetails } from '../core/diagnostics';
import { InputCheck, prop, withUnknownProps } from '../core/input';
import { KubernetesNames, NameRule } from '../core/names';
import { PolicyRule } from '../rbac/policy-rule';
import { PinnedApproval } from '../upgrade/pinned-approval';

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
   * Name of the ServiceAccount, Role, RoleBinding, ConfigMap and CronJob.
   * @default 'installplan-approver'
   */
  readonly name?: string;
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
 * `installplan-approver` pattern), restricted to pinned CSVs: a ServiceAccount whose Role allows only
 * `get/list/watch/patch` on `installplans` in one namespace, and a CronJob whose script approves a Manual InstallPlan
 * only when every CSV in `spec.clusterServiceVersionNames` is pinned (`PinnedApproval.decide`). Changing the pin in
 * code is how a team upgrades: the pending InstallPlan of the newly pinned CSV is approved on the next run.
 */
export class PinnedInstallPlanApprover extends Construct {
  /** The default image: Red Hat UBI 9 minimal Node.js 20 (pin it by digest in production). */
  public static readonly DEFAULT_IMAGE = 'registry.access.redhat.com/ubi9/nodejs-20-minimal:latest';
  /** The Role's only rule. */
  public static readonly RULE: PolicyRule = { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'watch', 'patch'] };

  /** Name of every object. */
  public readonly name: string;
  /** The namespace. */
  public readonly namespace: string;
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
    if (this.input.errors.length > 0 && props.namespace === '') NAME_CHECKING_PARENTS.add(this);
    this.props = props;
    this.name = props.name ?? 'installplan-approver';
    this.namespace = props.namespace;
    for (const c of props.pinnedCsvs ?? []) this.pinned.add(c);
    const metadata = { name: this.name, namespace: this.namespace };

    this.serviceAccount = new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata });
    this.role = new CompactRole(this, 'Role', { name: this.name, namespace: this.namespace, rules: [PinnedInstallPlanApprover.RULE] });
    this.roleBinding = new SubjectRoleBinding(this, 'RoleBinding', { name: this.name, namespace: this.namespace, roleKind: RoleRefKind.ROLE, roleName: this.name });
    this.roleBinding.addSubjectConfiguration('ServiceAccount', this.name, this.namespace);
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
                serviceAccountName: this.name,
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
                volumes: [{ name: 'script', configMap: { name: this.name } }],
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
    if (nameProblem) out.push({ code: 'InvalidName', field: 'name', value: this.name, message: `approver name ${nameProblem}`, fix: 'use a lower-case RFC 1123 label (it names a CronJob too)' });
    if (this.props.image !== undefined && this.props.image.trim() === '') {
      out.push({ code: 'EmptyImage', field: 'image', value: this.props.image, message: 'the image is empty', fix: 'name an image with node on the PATH, or leave `image` out' });
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
  }, raw as object);
}
