// The props and stamp options of TenantBlueprint, apart so that its input checks need not import the blueprint.
import { TenantBaselineOptions } from './tenant-baseline';
import { OperatorBundle } from '../bundle/operator-bundle';
import { ICatalogSource } from '../catalog/catalog-source-reference';
import { AccessLevel } from '../olm/olm-naming';
import { PodSecurityLevel } from '../tenant/scoped-operator-tenant-props';
import { InstallPlanApproval } from '../tenant/subscriptions/operator-subscription-props';
import { PinnedApproverOptions } from '../tenant/subscriptions/pinned-install-plan-approver';
import { UpgradeGraph } from '../upgrade/upgrade-graph';

/** An operator every tenant stamped from a blueprint subscribes to. */
export interface BlueprintOperator {
  /** The package (Subscription `spec.name`). */
  readonly packageName: string;
  /**
   * The channel.
   * @default - the package's default channel
   */
  readonly channel?: string;
  /**
   * The bundle OLM installs (enables the preflight and derived installer rules).
   * @default - none
   */
  readonly bundle?: OperatorBundle;
  /**
   * Newer bundles the tenant may upgrade to (checked and derived too).
   * @default - none
   */
  readonly upgradeBundles?: OperatorBundle[];
  /**
   * The CSV to start from (a pin with Manual approval).
   * @default - the channel head
   */
  readonly startingCsv?: string;
  /**
   * Install plan approval.
   * @default - the blueprint's `installPlanApproval`
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * The channel's upgrade graph: every upgrade OLM would allow from the pinned CSV is checked (see
   * `SubscriptionOptions.upgradeGraph`).
   * @default - none
   */
  readonly upgradeGraph?: UpgradeGraph;
  /**
   * The versions allowed in the upgrade walk (see `SubscriptionOptions.versionRange`).
   * @default - every version of the graph
   */
  readonly versionRange?: string;
}

/** People a blueprint grants access in every stamped tenant; `{team}` in the group name is the team's name. */
export interface BlueprintGrant {
  /** Group name pattern, e.g. `{team}-admins`. */
  readonly groupName: string;
  /**
   * Access to the operators' APIs (the OperatorGroup's admin/edit/view ClusterRole).
   * @default - none
   */
  readonly access?: AccessLevel;
  /**
   * May manage Subscriptions and approve InstallPlans.
   * @default false
   */
  readonly subscriptionManagement?: boolean;
}

/** What a team may change when it stamps a blueprint (each is refused unless the blueprint allows it). */
export enum BlueprintOverride {
  /** Subscribe to operators beyond the blueprint's (they must still be offered by the blueprint's catalog). */
  EXTRA_OPERATORS = 'EXTRA_OPERATORS',
  /** Leave out some of the blueprint's operators. */
  OMIT_OPERATORS = 'OMIT_OPERATORS',
  /** Follow another channel of a blueprint operator. */
  CHANNELS = 'CHANNELS',
  /** Replace the baseline's ResourceQuota. */
  QUOTA = 'QUOTA',
}

/** Props of `TenantBlueprint`. */
export interface TenantBlueprintProps {
  /** The blueprint's name, written to every stamped Namespace as label `TenantBlueprint.LABEL`. */
  readonly name: string;
  /** The catalog every stamped tenant subscribes from (e.g. a `CuratedCatalog`, which then serves the tenant). */
  readonly catalog: ICatalogSource;
  /**
   * The operators every tenant gets.
   * @default - none
   */
  readonly operators?: BlueprintOperator[];
  /**
   * Namespace of a stamped tenant: `<namespacePrefix><team>`.
   * @default 'team-'
   */
  readonly namespacePrefix?: string;
  /**
   * Labels on every stamped Namespace.
   * @default - none
   */
  readonly namespaceLabels?: { [key: string]: string };
  /**
   * Pod Security Admission level of the stamped namespaces.
   * @default - the tenant's default
   */
  readonly podSecurity?: PodSecurityLevel;
  /**
   * Derive the installer rules from the operators' bundles (`ScopedOperatorTenantProps.deriveInstallerRules`).
   * @default true
   */
  readonly deriveInstallerRules?: boolean;
  /**
   * The opt-in for derived installer rules outside the namespace, with its reason
   * (`ScopedOperatorTenantProps.clusterScopedInstallerRulesReason`).
   * @default - none: operators needing cluster rules fail the preflight
   */
  readonly clusterScopedInstallerRulesReason?: string;
  /**
   * Install plan approval of the operators that do not say.
   * @default InstallPlanApproval.MANUAL - upgrades are reviewed
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * People's access in every stamped tenant.
   * @default - none
   */
  readonly grants?: BlueprintGrant[];
  /**
   * A `TenantBaseline` (quota, limits, network policies) in every stamped tenant.
   * @default - none
   */
  readonly baseline?: TenantBaselineOptions;
  /**
   * What teams may change when stamping.
   * @default - nothing
   */
  readonly allowedOverrides?: BlueprintOverride[];
  /**
   * Add the GitOps InstallPlan approver (`ScopedOperatorTenant.addPinnedApprover`) to every stamped tenant: it
   * approves only InstallPlans whose CSVs are all pinned (`startingCsv` of Manual operators).
   * @default - no approver
   */
  readonly pinnedApprover?: PinnedApproverOptions;
}

/** A team's changes to a blueprint, checked against `TenantBlueprintProps.allowedOverrides`. */
export interface BlueprintStampOptions {
  /**
   * Namespace of the tenant.
   * @default - `<namespacePrefix><team>`
   */
  readonly namespaceName?: string;
  /**
   * Extra operators (needs `BlueprintOverride.EXTRA_OPERATORS`).
   * @default - none
   */
  readonly extraOperators?: BlueprintOperator[];
  /**
   * Blueprint operators to leave out, by package (needs `BlueprintOverride.OMIT_OPERATORS`).
   * @default - none
   */
  readonly omitOperators?: string[];
  /**
   * Other channels of blueprint operators, by package (needs `BlueprintOverride.CHANNELS`).
   * @default - none
   */
  readonly channels?: { [packageName: string]: string };
  /**
   * The baseline's ResourceQuota `spec.hard` (needs `BlueprintOverride.QUOTA` and a blueprint baseline).
   * @default - the blueprint's
   */
  readonly quota?: { [resource: string]: string };
  /**
   * Extra Namespace labels (the blueprint's own labels win).
   * @default - none
   */
  readonly namespaceLabels?: { [key: string]: string };
}
