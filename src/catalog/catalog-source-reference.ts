/**
 * How Subscriptions find their catalog: either a catalog construct of this library (a `CuratedCatalog`, which
 * also checks the subscription against its curated list) or a CatalogSource that exists outside the App.
 */
import { IConstruct } from 'constructs';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { InputCheck } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

/** Where a CatalogSource lives: the `spec.source` / `spec.sourceNamespace` pair of a Subscription. */
export interface CatalogSourceLocation {
  /** CatalogSource name (Subscription `spec.source`). */
  readonly name: string;
  /** CatalogSource namespace (Subscription `spec.sourceNamespace`). */
  readonly namespace: string;
}

/** What a Subscription asks a catalog for, so a curated catalog can check it. */
export interface CatalogSubscriptionRequest {
  /** Namespace of the subscribing tenant. */
  readonly subscriberNamespace: string;
  /** Package name (Subscription `spec.name`). */
  readonly packageName: string;
  /**
   * Channel (Subscription `spec.channel`).
   * @default - the package's default channel
   */
  readonly channel?: string;
  /**
   * The CSV to start from (Subscription `spec.startingCSV`).
   * @default - the channel head
   */
  readonly startingCsv?: string;
}

/** A catalog that Subscriptions can reference. */
export interface ICatalogSource {
  /**
   * Called once per Subscription that uses this catalog. Returns the CatalogSource the Subscription in
   * `subscriberNamespace` must reference. A curated catalog makes sure it serves that namespace.
   *
   * @param subscriber the construct that subscribes (for error messages)
   * @param subscriberNamespace the namespace of the Subscription
   */
  bindSubscriber(subscriber: IConstruct, subscriberNamespace: string): CatalogSourceLocation;

  /**
   * Why the catalog would not offer what the Subscription asks for (one message per problem, naming the
   * allowed choices); an empty list when it is fine or the catalog does not know its contents.
   */
  checkSubscription(request: CatalogSubscriptionRequest): string[];
}

/** A CatalogSource that already exists on the cluster (for example `redhat-operators` in `openshift-marketplace`). */
export class CatalogSourceReference implements ICatalogSource {
  /**
   * References an existing CatalogSource by name and namespace. Its contents are unknown, so
   * subscriptions against it are not checked. Invalid names (not strings, not Kubernetes names) are synth errors
   * of the Subscriptions that use the reference.
   */
  public static fromName(name: string, namespace: string): ICatalogSource {
    const input = new InputCheck();
    const n = input.name('name', input.requiredString('name', name, "name the CatalogSource, e.g. 'redhat-operators'"), NameRule.DNS1123_SUBDOMAIN, 'CatalogSource');
    const ns = input.name('namespace', input.requiredString('namespace', namespace, "name the CatalogSource's namespace, e.g. 'openshift-marketplace'"), NameRule.DNS1123_LABEL, 'CatalogSource namespace');
    return new CatalogSourceReference({ name: n ?? 'invalid-catalog-source', namespace: ns ?? 'invalid-namespace' }, input.errors);
  }

  /**
   * Problems with the names given to `fromName`, reported by the Subscriptions that use the reference.
   * @internal
   */
  public readonly _inputErrors: DiagnosticDetails[];

  private constructor(private readonly location: CatalogSourceLocation, inputErrors: DiagnosticDetails[]) {
    this._inputErrors = inputErrors;
  }

  public bindSubscriber(_subscriber: IConstruct, _subscriberNamespace: string): CatalogSourceLocation {
    return { ...this.location };
  }

  public checkSubscription(_request: CatalogSubscriptionRequest): string[] {
    return [];
  }
}
