// The props of GlobalOperatorInstall, apart so that other code can read them without the construct.
import { OlmGeneration } from '../olm/olm-naming';
import { InstallPlanApproval, SubscriptionOptions } from '../tenant/subscriptions/operator-subscription-props';

/** Props of `GlobalOperatorInstall`. */
export interface GlobalOperatorInstallProps {
  /**
   * Why these operators run for all namespaces with OLM's own (cluster-admin) client rather than a tenant's installer
   * (who reviewed it, ticket). Rendered as the OperatorGroup's `cdk8s-olm-tenancy.io/reason` annotation and in
   * TENANCY.md. Must not be empty.
   */
  readonly reason: string;
  /**
   * The install namespace (created here, with the AllNamespaces OperatorGroup). Not a tenant namespace of the App.
   * Not `openshift-operators` on OpenShift: that namespace already has the `global-operators` OperatorGroup, and a
   * second OperatorGroup in a namespace stops OLM installing there (`TooManyOperatorGroups`).
   * @default 'platform-operators'
   */
  readonly namespaceName?: string;
  /**
   * `metadata.name` of the OperatorGroup.
   * @default - the namespace name
   */
  readonly operatorGroupName?: string;
  /**
   * `installPlanApproval` of `install` calls that set none. Manual by default: OLM installs and upgrades these
   * operators with its own cluster-admin client, so every InstallPlan (new RBAC included) waits for review.
   * @default InstallPlanApproval.MANUAL
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * The OLM release line on the cluster (names of the roles OLM generates, in the permission preview).
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly olmGeneration?: OlmGeneration;
}

/** What `GlobalOperatorInstall.install` needs to know: a Subscription's options, and who may drive the operator. */
export interface GlobalOperatorOptions extends SubscriptionOptions {
  /**
   * Why tenant identities may create objects of this operator's APIs (its owned CRDs), which the operator then acts
   * on with its cluster-wide ServiceAccounts (who reviewed it, ticket). Without it, every tenant identity that may
   * create one is a synth error (`TenantCanDriveGlobalOperator`, OLMT-055); with it, a warning listed in TENANCY.md
   * and the audit with this reason.
   * @default - not accepted
   */
  readonly tenantsMayDriveReason?: string;
}
