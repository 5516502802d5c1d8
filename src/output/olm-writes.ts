/**
 * Fields of the synthesized objects that OLM (and the Kubernetes token controller) write after they are applied,
 * so GitOps tools must not treat them as drift nor overwrite them. Read from the controllers' source; the table
 * in docs/gitops.md lists the same rows (a test compares them).
 */
import { YamlWriter } from './yaml-writer';

/** One field a controller writes on an object this library synthesizes. */
export interface ControllerWrittenField {
  /** API group of the object (`''` for the core group). */
  readonly group: string;
  /** Kind of the object. */
  readonly kind: string;
  /** The field, in words (e.g. `metadata.annotations[olm.providedAPIs]`). */
  readonly field: string;
  /**
   * An RFC 6901 JSON pointer to the field (Argo CD `jsonPointers`).
   * @default - the field has no fixed path: see `jqPathExpression`
   */
  readonly jsonPointer?: string;
  /**
   * A jq path expression for the field (Argo CD `jqPathExpressions`, evaluated as `del(<expression>)`).
   * @default - see `jsonPointer`
   */
  readonly jqPathExpression?: string;
  /** The controller that writes it. */
  readonly writer: string;
  /** Where in the upstream source it is written. */
  readonly source: string;
}

const OPERATORS = 'operators.coreos.com';

/**
 * The fields OLM and the token controller write on the objects of a scoped install, and the Argo CD settings
 * that keep a GitOps tool from fighting them.
 */
export class OlmWrites {
  /** Every written field, in the order of docs/gitops.md. */
  public static fields(): ControllerWrittenField[] {
    return [
      {
        group: OPERATORS,
        kind: 'OperatorGroup',
        field: 'metadata.annotations[olm.providedAPIs]',
        jsonPointer: '/metadata/annotations/olm.providedAPIs',
        writer: 'olm-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/olm/operatorgroup.go (key: operator-framework/api pkg/operators/v1/operatorgroup_types.go OperatorGroupProvidedAPIsAnnotationKey)',
      },
      {
        group: OPERATORS,
        kind: 'OperatorGroup',
        field: 'status',
        jsonPointer: '/status',
        writer: 'olm-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/olm/operatorgroup.go (status.namespaces, serviceAccountRef, conditions)',
      },
      {
        group: '',
        kind: 'Namespace',
        field: 'metadata.labels[olm.operatorgroup.uid/<uid>]',
        jqPathExpression: '.metadata.labels | select(. != null) | .[keys[] | select(startswith("olm.operatorgroup.uid/"))]',
        writer: 'olm-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/olm/operator.go syncNamespace (prefix: operator-framework/api pkg/operators/v1/operatorgroup_types.go OperatorGroupLabelPrefix)',
      },
      {
        group: '',
        kind: 'ServiceAccount',
        field: 'metadata.labels[olm.managed]',
        jsonPointer: '/metadata/labels/olm.managed',
        writer: 'catalog-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/catalog/operator.go (ServiceAccount labeller) with pkg/controller/operators/labeller/filters.go ServiceAccountFilter: every ServiceAccount an OperatorGroup names in spec.serviceAccountName',
      },
      {
        group: '',
        kind: 'Secret',
        field: 'data (token, ca.crt, namespace of the installer token Secret)',
        jqPathExpression: 'select(.type == "kubernetes.io/service-account-token") | .data',
        writer: 'kube-controller-manager (tokens controller)',
        source: 'kubernetes pkg/controller/serviceaccount/tokens_controller.go',
      },
      {
        group: OPERATORS,
        kind: 'CatalogSource',
        field: 'status',
        jsonPointer: '/status',
        writer: 'catalog-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/catalog/operator.go syncCatalogSources (catalogsource.UpdateStatus; spec is not written)',
      },
      {
        group: OPERATORS,
        kind: 'Subscription',
        field: 'metadata.labels[operators.coreos.com/<package>.<namespace>]',
        jqPathExpression: '.metadata.labels | select(. != null) | .[keys[] | select(startswith("operators.coreos.com/"))]',
        writer: 'olm-operator (operator adoption controller)',
        source: 'operator-lifecycle-manager pkg/controller/operators/adoption_controller.go ReconcileSubscription (prefix: pkg/controller/operators/decorators/operator.go ComponentLabelKeyPrefix)',
      },
      {
        group: OPERATORS,
        kind: 'Subscription',
        field: 'status',
        jsonPointer: '/status',
        writer: 'catalog-operator',
        source: 'operator-lifecycle-manager pkg/controller/operators/catalog/operator.go (updateSubscriptionStatuses)',
      },
    ];
  }

  /**
   * The Argo CD `spec.ignoreDifferences` entries for `fields()`: one per group and kind, in the order of
   * `fields()`, each with its `jsonPointers` and `jqPathExpressions`.
   */
  public static argoCdIgnoreDifferences(): any[] {
    const out: any[] = [];
    for (const f of OlmWrites.fields()) {
      let entry = out.find((e) => e.group === f.group && e.kind === f.kind);
      if (!entry) {
        entry = { group: f.group, kind: f.kind };
        out.push(entry);
      }
      if (f.jsonPointer !== undefined) (entry.jsonPointers ??= []).push(f.jsonPointer);
      if (f.jqPathExpression !== undefined) (entry.jqPathExpressions ??= []).push(f.jqPathExpression);
    }
    return out;
  }

  /**
   * The content of `argocd/ignore-differences.yaml`: the `ignoreDifferences` of an Argo CD Application (or
   * ApplicationSet template) for this output, with the `RespectIgnoreDifferences=true` sync option so that a sync
   * also leaves these fields as OLM wrote them.
   */
  public static argoCdSnippet(): string {
    const header = [
      '# Argo CD: merge into the spec of the Application (or ApplicationSet template) that syncs this folder.',
      '# Fields OLM and the token controller write after apply; see docs/gitops.md of cdk8s-olm-tenancy.',
      '# Generated: do not edit.',
    ].join('\n');
    return `${header}\n${YamlWriter.document({
      ignoreDifferences: OlmWrites.argoCdIgnoreDifferences(),
      syncPolicy: { syncOptions: ['RespectIgnoreDifferences=true'] },
    })}`;
  }
}
