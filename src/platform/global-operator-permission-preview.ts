/**
 * What the ServiceAccounts of an operator get when OLM (v0) installs it for all namespaces with its own client (an
 * AllNamespaces OperatorGroup without `spec.serviceAccountName`): the RBAC OLM generates from the CSV
 * (`OlmGeneratedRbac`: `permissions` lifted to ClusterRoles + ClusterRoleBindings by `ensureSingletonRBAC`,
 * `clusterPermissions` as ClusterRoles, serving-cert RBAC) and the bundle's own RBAC objects, run through the
 * effective-power model, and the sensitive grants each ServiceAccount reaches cluster-wide. Pure (no construct).
 * The same vocabulary as OLM v1's permission preview (`OlmV1PermissionPreview`): one list of sensitive grants
 * (`InstallerRuleChecks.sensitiveGrantsHeld`), the same "reaches * on every resource cluster-wide" for unbounded.
 */
import { AuditedTenant } from '../audit/audited-tenant';
import { EffectivePower, SubjectKind } from '../audit/effective-power';
import { SensitiveGrant } from '../audit/installer-rule-checks';
import { previewPowerFindings } from '../audit/preview-findings';
import { TenancyAudit } from '../audit/tenancy-audit';
import { describeReach, webhookReach } from '../audit/webhook-reach';
import { OperatorBundle, WebhookType } from '../bundle/operator-bundle';
import { OlmGeneration } from '../olm/olm-naming';
import { PolicyRule } from '../rbac/policy-rule';

/** Kinds of findings of the global-install preview (what a reviewer should see; the install itself is accepted by its reason). */
export enum GlobalOperatorPreviewFindingKind {
  /** A ServiceAccount reaches `*` on every resource cluster-wide (cluster-admin equivalent). */
  UNBOUNDED = 'Unbounded',
  /** A ServiceAccount reaches a sensitive grant cluster-wide (Secrets, workloads, escalate, bind, impersonate, webhooks...). */
  SENSITIVE_GRANT = 'SensitiveGrant',
  /** A ClusterRole of the bundle is labelled so that a shared aggregated role (view/edit/admin) takes its sensitive rules. */
  SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE = 'SensitiveRulesAggregateIntoSharedRole',
  /**
   * An admission webhook of the bundle sees or rewrites objects beyond the operator's own APIs and namespace: OLM
   * creates it for an AllNamespaces group without a namespaceSelector, so it sees every namespace (pods, workloads,
   * ServiceAccounts, Secrets, RBAC ...; `audit/webhook-reach.ts`, as OLMT-051 and OLMT-052 judge tenants' and OLM v1
   * bundles).
   */
  WEBHOOK_BEYOND_OWN_APIS = 'WebhookBeyondOwnApis',
  /** No bundle was given: what the operator's ServiceAccounts get is unknown (unbounded as far as the review knows). */
  UNKNOWN = 'Unknown',
}

/** One finding of the preview. */
export interface GlobalOperatorPreviewFinding {
  /** The kind. */
  readonly kind: GlobalOperatorPreviewFindingKind;
  /** The subject or object it is about, e.g. `ServiceAccount platform-operators/grafana-operator-controller-manager`. */
  readonly subject: string;
  /** What, in one line. */
  readonly what: string;
  /**
   * The sensitive grant (SENSITIVE_GRANT findings).
   * @default - none (other findings)
   */
  readonly grant?: SensitiveGrant;
}

/** What one ServiceAccount of the operator gets. */
export interface GlobalOperatorSubjectGrants {
  /** The subject, e.g. `ServiceAccount platform-operators/grafana-operator-controller-manager`. */
  readonly subject: string;
  /** Rules it reaches cluster-wide (all namespaces and cluster-scoped resources). */
  readonly clusterRules: PolicyRule[];
  /** Namespaces where it reaches namespaced rules only. */
  readonly namespaces: string[];
  /** True when it reaches everything. */
  readonly unbounded: boolean;
}

/** Input of `GlobalOperatorPermissionPreview.of`. */
export interface GlobalOperatorPreviewInput {
  /** The install namespace. */
  readonly namespace: string;
  /** The AllNamespaces OperatorGroup's name. */
  readonly operatorGroupName: string;
  /**
   * The bundle OLM installs.
   * @default - unknown: the preview says so
   */
  readonly bundle?: OperatorBundle;
  /**
   * The OLM release line (names of OLM's generated roles).
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly olmGeneration?: OlmGeneration;
}

/** The permission preview of one operator installed for all namespaces with OLM's own client. */
export class GlobalOperatorPermissionPreview {
  /** The preview of what OLM creates for `input.bundle` in an AllNamespaces OperatorGroup without a ServiceAccount. */
  public static of(input: GlobalOperatorPreviewInput): GlobalOperatorPermissionPreview {
    if (input === null || typeof input !== 'object' || typeof input.namespace !== 'string' || typeof input.operatorGroupName !== 'string') {
      throw new Error('GlobalOperatorPermissionPreview.of: pass { namespace, operatorGroupName, bundle? } with string namespace and operatorGroupName');
    }
    return new GlobalOperatorPermissionPreview(input);
  }

  /** The install namespace. */
  public readonly namespace: string;
  /** False without a bundle: nothing below is known, and `findings` holds one UNKNOWN finding. */
  public readonly known: boolean;
  /** Every ServiceAccount OLM creates or runs for the bundle, sorted. */
  public readonly subjects: GlobalOperatorSubjectGrants[];
  /** The findings, in subject order then probe order. */
  public readonly findings: GlobalOperatorPreviewFinding[];

  private constructor(input: GlobalOperatorPreviewInput) {
    this.namespace = input.namespace;
    const bundle = input.bundle;
    this.known = bundle !== undefined;
    if (!bundle) {
      this.subjects = [];
      this.findings = [{
        kind: GlobalOperatorPreviewFindingKind.UNKNOWN,
        subject: `namespace ${input.namespace}`,
        what: 'no bundle given: what the operator\'s ServiceAccounts get is unknown; OLM installs whatever the CSV asks for with its own cluster-admin client (unbounded)',
      }];
      return;
    }
    // what OLM creates for an AllNamespaces group, as the tenancy audit models it for a tenant (one model)
    const asTenant: AuditedTenant = {
      name: `global install ${input.namespace}`,
      namespace: input.namespace,
      targetNamespaces: [],
      operatorGroupName: input.operatorGroupName,
      installerServiceAccountName: '',
      olmGeneration: input.olmGeneration,
      bundles: [bundle],
    };
    const objects = TenancyAudit.objectsOf(asTenant);
    const power = new EffectivePower(objects);
    const findings: GlobalOperatorPreviewFinding[] = [];
    this.subjects = TenancyAudit.operatorServiceAccounts([bundle]).map((name) => {
      const p = power.of({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace: input.namespace });
      return {
        subject: p.subject,
        clusterRules: p.grants.filter((g) => g.namespace === '').flatMap((g) => g.rules),
        namespaces: [...new Set(p.grants.filter((g) => g.namespace !== '').map((g) => g.namespace))].sort(),
        unbounded: p.unbounded,
      };
    });
    // the v0 registry of sensitive grants and aggregation into shared roles, worded as OLM v1's preview
    const kinds = {
      unbounded: GlobalOperatorPreviewFindingKind.UNBOUNDED,
      sensitiveGrant: GlobalOperatorPreviewFindingKind.SENSITIVE_GRANT,
      aggregatesIntoSharedRole: GlobalOperatorPreviewFindingKind.SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE,
    };
    const bundleClusterRoles = objects.filter((x) => x.origin?.startsWith('bundle ') && x.manifest.kind === 'ClusterRole').map((x) => x.manifest);
    for (const { kind, ...f } of previewPowerFindings(this.subjects, bundleClusterRoles)) findings.push({ kind: kinds[kind], ...f });
    // webhooks: OLM v0 gives each the OperatorGroup's namespaceSelector (pkg/controller/install/webhook.go), none for
    // AllNamespaces, so a global install's webhooks see every namespace; only the install namespace is the operator's
    const ownGroups = [...bundle.crds.map((c) => c.group), ...bundle.ownedCrds.map((c) => c.name.slice(c.name.indexOf('.') + 1))];
    for (const w of bundle.webhookDefinitions) {
      if (w.type === WebhookType.CONVERSION) continue;
      const mutating = w.type === WebhookType.MUTATING;
      const reach = webhookReach(w, { mutating, ownGroups, ownNamespaces: [input.namespace], selectedNamespaces: undefined });
      if (reach.length === 0) continue;
      findings.push({
        kind: GlobalOperatorPreviewFindingKind.WEBHOOK_BEYOND_OWN_APIS,
        subject: `${mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration'} of ${bundle.name}`,
        what: `${mutating ? 'mutating' : 'validating'} webhook ${w.generateName} (no namespaceSelector: every namespace) ${describeReach(reach)}`,
      });
    }
    this.findings = findings;
  }
}
