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
   * Not a namespace where the platform's OLM already keeps an OperatorGroup (OpenShift's `openshift-operators` and
   * `openshift-operator-lifecycle-manager`, upstream OLM's `operators` and `olm`, per the platform `TenancyAppProps.targets`
   * declares): a second OperatorGroup there stops OLM installing anything in it (`TooManyOperatorGroups`). To install
   * into the platform's own global OperatorGroup instead, set `useExistingOperatorGroup`.
   * @default 'platform-operators'
   */
  readonly namespaceName?: string;
  /**
   * Install into the AllNamespaces OperatorGroup the platform's OLM already keeps in `namespaceName` (`global-operators`
   * in OpenShift's `openshift-operators` or upstream OLM's `operators`): no Namespace and no OperatorGroup are written,
   * only the Subscriptions. The namespace also holds the platform's other Subscriptions, so no curated-catalog
   * admission policy matches it.
   * @default false - the install writes its own Namespace and OperatorGroup
   */
  readonly useExistingOperatorGroup?: boolean;
  /**
   * `metadata.name` of the OperatorGroup.
   * @default - the namespace name; with `useExistingOperatorGroup`, the platform's group there (`global-operators`)
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
