// Day two of a tenant: the GitOps InstallPlan approver that follows the pinned versions, and the operators
// off-boarded with removeOperator.
import { Construct } from 'constructs';
import { OperatorSubscription } from './operator-subscription';
import { InstallPlanApproval } from './operator-subscription-props';
import { PinnedApproverOptions, PinnedInstallPlanApprover } from './pinned-install-plan-approver';
import { InputCheck } from '../../core/input-check';
import { orderAfter } from '../private';
import { RemovedOperatorOptions } from '../scoped-operator-tenant-props';

/** The approver and the off-boarded operators of one tenant. */
export class TenantDayTwo {
  private _approver?: PinnedInstallPlanApprover;
  private readonly removed: RemovedOperatorOptions[] = [];

  /**
   * @param namespace the tenant namespace
   * @param input where wrong-typed options are collected (synth errors of the tenant)
   */
  constructor(private readonly namespace: string, private readonly input: InputCheck) {}

  /** The pinned approver, once added. */
  public get approver(): PinnedInstallPlanApprover | undefined {
    return this._approver;
  }

  /**
   * Adds the approver to `tenant` once (see `ScopedOperatorTenant.addPinnedApprover`), after `namespaceObject`,
   * pinning the startingCsv of each of `subscriptions`.
   */
  public addPinnedApprover(tenant: Construct, options: PinnedApproverOptions, namespaceObject: Construct | undefined,
    subscriptions: OperatorSubscription[]): PinnedInstallPlanApprover {
    if (!this._approver) {
      // wrong-typed options (JavaScript, jsii) are synth errors; the approver is built from the valid ones
      const o = this.input.optionalObject('addPinnedApprover(options)', options, 'pass { image?, schedule?, name?, pinnedCsvs? }') ?? {};
      this.input.knownProps(o, 'PinnedApproverOptions', 'addPinnedApprover(options)', 'addPinnedApprover(options).');
      const checked: PinnedApproverOptions = {
        ...o,
        image: this.input.optionalString('addPinnedApprover(options).image', o.image),
        schedule: this.input.optionalString('addPinnedApprover(options).schedule', o.schedule),
        name: this.input.optionalString('addPinnedApprover(options).name', o.name),
        approverNamespace: this.input.optionalString('addPinnedApprover(options).approverNamespace', o.approverNamespace),
      };
      this._approver = new PinnedInstallPlanApprover(tenant, 'PinnedApprover', { ...checked, namespace: this.namespace });
      orderAfter(this._approver, namespaceObject);
      for (const sub of subscriptions) this.pin(sub);
    }
    return this._approver;
  }

  /** A Manual Subscription's startingCsv is pinned for the approver. */
  public pin(sub: OperatorSubscription): void {
    const pinned = sub.info.startingCsv;
    if (this._approver && sub.installPlanApproval === InstallPlanApproval.MANUAL && pinned !== undefined && pinned.trim() !== '') this._approver.addPinnedCsv(pinned);
  }

  /** Records an off-boarded operator (already checked). */
  public remove(removed: RemovedOperatorOptions): void {
    this.removed.push(removed);
  }

  /** The off-boarded operators, in call order (the stored objects: copy before handing them out). */
  public get removedOperators(): readonly RemovedOperatorOptions[] {
    return this.removed;
  }
}
