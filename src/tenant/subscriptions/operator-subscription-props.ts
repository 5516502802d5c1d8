// The props and plain-data types of OperatorSubscription, apart so that its input checks need not import the construct.
import { IConstruct } from 'constructs';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { ICatalogSource } from '../../catalog/catalog-source-reference';
import * as olm from '../../imports/olm';
import { SubscriptionConfigOptIn } from '../../olm/subscription-config-checks';
import { UpgradeGraph } from '../../upgrade/upgrade-graph';

/** Subscription `spec.installPlanApproval`. */
export enum InstallPlanApproval {
  /** OLM applies InstallPlans (installs and upgrades) without review. */
  AUTOMATIC = 'Automatic',
  /** Every InstallPlan waits until someone sets `spec.approved: true`. */
  MANUAL = 'Manual',
}

/** What a failing install preflight does to the synth. */
export enum PreflightEnforcement {
  /** Every missing permission and blocker is a synth error: `app.synth()` fails, listing them all. */
  ERROR = 'error',
  /** The same findings are reported as warnings (`Diagnostics.warnings`) and the synth goes on. */
  WARNING = 'warning',
}

/**
 * Subscription `spec.config`: how OLM changes the operator's Deployments. Field types are the generated
 * OLM L1 structs, so everything the CRD accepts can be expressed.
 * @see https://github.com/operator-framework/operator-lifecycle-manager/blob/master/doc/design/subscription-config.md
 */
export interface SubscriptionConfig {
  /**
   * Environment variables added to (or replacing those of) every container.
   * @default - none
   */
  readonly env?: olm.SubscriptionSpecConfigEnv[];
  /**
   * Sources of environment variables added to every container.
   * @default - none
   */
  readonly envFrom?: olm.SubscriptionSpecConfigEnvFrom[];
  /**
   * Resource requests and limits replacing those of every container.
   * @default - as in the bundle
   */
  readonly resources?: olm.SubscriptionSpecConfigResources;
  /**
   * Node selector replacing the pods' one.
   * @default - as in the bundle
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations added to the pods.
   * @default - none
   */
  readonly tolerations?: olm.SubscriptionSpecConfigTolerations[];
  /**
   * Affinity replacing the pods' one (nil sub-fields keep the bundle's).
   * @default - as in the bundle
   */
  readonly affinity?: olm.SubscriptionSpecConfigAffinity;
  /**
   * Volumes added to the pods.
   * @default - none
   */
  readonly volumes?: olm.SubscriptionSpecConfigVolumes[];
  /**
   * Volume mounts added to every container.
   * @default - none
   */
  readonly volumeMounts?: olm.SubscriptionSpecConfigVolumeMounts[];
  /**
   * Label selector of the pods to configure.
   * @default - all of the operator's pods
   */
  readonly selector?: olm.SubscriptionSpecConfigSelector;
  /**
   * Annotations added to the operator's Deployments, pods and APIServices.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** What `ScopedOperatorTenant.subscribe` needs to know. */
export interface SubscriptionOptions {
  /** The package to install (Subscription `spec.name`). */
  readonly packageName: string;
  /**
   * The catalog that serves the package: a catalog construct of this library (e.g. `CuratedCatalog`) or
   * `CatalogSourceReference.fromName(name, namespace)` for one that exists outside the App.
   */
  readonly catalog: ICatalogSource;
  /**
   * The channel to follow (Subscription `spec.channel`).
   * @default - the package's default channel
   */
  readonly channel?: string;
  /**
   * `metadata.name` of the Subscription.
   * @default - the package name
   */
  readonly name?: string;
  /**
   * Whether InstallPlans need approval. OLM resolves a namespace as one unit: one Manual Subscription makes the
   * namespace's InstallPlans Manual (OLM `pkg/controller/operators/catalog/operator.go`).
   * @default InstallPlanApproval.AUTOMATIC
   */
  readonly installPlanApproval?: InstallPlanApproval;
  /**
   * The CSV to install first (Subscription `spec.startingCSV`). With Automatic approval OLM upgrades past it at
   * once, so it is only a pin with Manual approval.
   * @default - the channel head
   */
  readonly startingCsv?: string;
  /**
   * Deployment overrides (Subscription `spec.config`).
   * @default - none
   */
  readonly config?: SubscriptionConfig;
  /**
   * Parts of `config` that are accepted although they let the Subscription choose where the operator runs or what
   * it mounts (see `SubscriptionConfigOptIn`).
   * @default - none: tolerations, nodeSelector, affinity and volume types outside the safe set are synth errors
   */
  readonly allowedConfig?: SubscriptionConfigOptIn[];
  /**
   * Secrets that `config` may hand to the operator's pods (secret volumes, projected secrets, `envFrom`,
   * `env.valueFrom.secretKeyRef`).
   * @default - none: every Secret reference in `config` is a synth error
   */
  readonly allowedConfigSecrets?: string[];
  /**
   * The bundle this Subscription installs (the channel head, or the `startingCsv`). When given, the install
   * preflight runs at synth time: every permission the installer ServiceAccount lacks for OLM to install it, and
   * every other blocker (install mode, cluster permissions, CRD writes), is reported at once.
   * @default - no preflight for this Subscription
   */
  readonly bundle?: OperatorBundle;
  /**
   * Other bundles the Subscription may upgrade to (the allowed versions of the package, e.g. from a curated
   * catalog). Each is checked on OLM's update path too, and reported per version.
   * @default - none
   */
  readonly upgradeBundles?: OperatorBundle[];
  /**
   * The channel's upgrade graph with the bundles attached (`UpgradeGraph.fromCatalogPackage(file, package,
   * channel)` or `UpgradeGraph.fromBundles(bundles, channel)`). `bundle` then defaults to the graph's bundle of
   * `startingCsv` (else of the channel head), and every upgrade OLM would allow from it within `versionRange`
   * (`replaces`, `skips`, `olm.skipRange`, walked as OLM's resolver does) is checked at synth time: an upgrade the
   * installer's rules would fail is a synth error (`UpgradeWouldFail`) naming the edge and the missing rules, and
   * `deriveInstallerRules` covers those versions unless the tenant's `deriveScope` is `PINNED_VERSION`.
   * @default - no upgrade graph: only `bundle` and `upgradeBundles` are checked
   */
  readonly upgradeGraph?: UpgradeGraph;
  /**
   * The versions the platform allows (node-semver range, as `CuratedPackage.versionRange`, e.g. `>=0.9.2 <0.10.0`):
   * graph entries outside it are removed before the walk, as a curated catalog built by `FbcFilter` does. Needs
   * `upgradeGraph`. When `catalog` is a `CuratedCatalog`, its package's and channel's `versionRange` apply too.
   * @default - every version of the graph's channel (within the curated catalog's ranges)
   */
  readonly versionRange?: string;
  /**
   * What a failing preflight does.
   * @default PreflightEnforcement.ERROR
   */
  readonly preflight?: PreflightEnforcement;
}

/** Props of `OperatorSubscription`. */
export interface OperatorSubscriptionProps extends SubscriptionOptions {
  /** Namespace of the Subscription (the tenant namespace). */
  readonly namespace: string;
  /**
   * The construct reported to the catalog as subscriber (`ICatalogSource.bindSubscriber`).
   * @default - this subscription
   */
  readonly subscriber?: IConstruct;
}

/** A Subscription as plain data, for cross-construct checks and reports. */
export interface SubscriptionInfo {
  /** `metadata.name`. */
  readonly name: string;
  /** `metadata.namespace`. */
  readonly namespace: string;
  /** Package (`spec.name`). */
  readonly packageName: string;
  /**
   * Channel (`spec.channel`).
   * @default - the package's default channel
   */
  readonly channel?: string;
  /** CatalogSource name (`spec.source`). */
  readonly sourceName: string;
  /** CatalogSource namespace (`spec.sourceNamespace`). */
  readonly sourceNamespace: string;
  /** `spec.installPlanApproval`. */
  readonly installPlanApproval: InstallPlanApproval;
  /**
   * `spec.startingCSV`.
   * @default - the channel head
   */
  readonly startingCsv?: string;
  /** Path of the construct that defines the Subscription. */
  readonly constructPath: string;
  /**
   * CSV name of the bundle given for the preflight (`bundle`, else the upgrade graph's bundle of the pinned CSV).
   * @default - no bundle given
   */
  readonly bundleName?: string;
  /**
   * The CSV OLM installs first, when the App knows it: `startingCsv` (OLM takes the catalog entry of that name), else
   * the channel head of the upgrade graph or of the curated catalog's `sourceCatalog`, within the version ranges.
   * @default - not known: the channel head of a catalog the App does not hold
   */
  readonly installsCsv?: string;
  /**
   * The CSV whose bundle the install preflight and the derived installer rules checked as the install: equal to
   * `installsCsv` when the checks were done on what OLM installs.
   * @default - no bundle was checked as the install (none given, or the bundle given is another CSV)
   */
  readonly checkedCsv?: string;
  /**
   * The upgrades OLM would allow from the pinned CSV within `versionRange`, as `from -> to`, breadth-first.
   * @default - no upgrade graph given
   */
  readonly allowedUpgrades?: string[];
}
