/**
 * Who gets what when operator-controller (as cluster-admin) applies a rendered registry+v1 bundle: every subject of
 * the rendered bindings, run through the effective-power model (`EffectivePower`: bindings, built-in roles such as
 * cluster-admin, bind/escalate, identities it can become), and the sensitive grants it reaches cluster-wide. Pure.
 */
import { RegistryV1Render } from './registry-v1-render';
import { EffectivePower, RbacSubject, SubjectKind } from '../audit/effective-power';
import { SensitiveGrant } from '../audit/installer-rule-checks';
import { previewPowerFindings } from '../audit/preview-findings';
import { describeReach, webhookReach } from '../audit/webhook-reach';
import { PolicyRule } from '../rbac/policy-rule';

/** Kinds of preview findings (their diagnostic codes). */
export enum OlmV1PreviewFindingCode {
  /** A subject reaches `*` on every resource cluster-wide (e.g. a bundle ClusterRoleBinding to cluster-admin): OLMT-028. */
  UNBOUNDED = 'TenantIdentityUnbounded',
  /** A subject reaches a sensitive grant cluster-wide (Secrets, escalate, bind, impersonate, tokens, pods, webhooks...): OLMT-044. */
  SENSITIVE_GRANT = 'OlmV1ExtensionSensitiveGrant',
  /** The bundle ships a mutating admission webhook on pods: OLMT-045. */
  MUTATING_WEBHOOK_ON_PODS = 'OlmV1MutatingWebhookOnPods',
  /** A binding of the bundle names a subject outside the install namespace (OLM v1 leaves subjects untouched): OLMT-046. */
  SUBJECT_OUTSIDE_INSTALL_NAMESPACE = 'OlmV1SubjectOutsideInstallNamespace',
  /**
   * The bundle ships an admission webhook that rewrites pod templates, ServiceAccounts or Namespaces, or receives
   * Secrets, ConfigMaps or any object outside the bundle's own API groups, beyond the install namespace: OLMT-052.
   */
  WEBHOOK_BEYOND_OWN_APIS = 'OlmV1WebhookBeyondOwnApis',
  /**
   * A ClusterRole of the bundle is labelled so that a shared aggregated role (built-in view/edit/admin, an
   * OperatorGroup's role) takes its sensitive rules: every holder of that role gets them: OLMT-050.
   */
  SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE = 'SensitiveRulesAggregateIntoSharedRole',
}

/** One finding of the preview. */
export interface OlmV1PreviewFinding {
  /** The diagnostic code. */
  readonly code: OlmV1PreviewFindingCode;
  /** The subject or object it is about, e.g. `ServiceAccount team-x/flux`. */
  readonly subject: string;
  /** What, in one line. */
  readonly what: string;
  /**
   * The sensitive grant (OLMT-044 findings).
   * @default - none (other findings)
   */
  readonly grant?: SensitiveGrant;
}

/** What one subject gets. */
export interface OlmV1SubjectGrants {
  /** The subject, e.g. `ServiceAccount team-x/argocd-operator-controller-manager`. */
  readonly subject: string;
  /** Rules it reaches cluster-wide (all namespaces and cluster-scoped resources). */
  readonly clusterRules: PolicyRule[];
  /** Namespaces where it reaches namespaced rules only. */
  readonly namespaces: string[];
  /** True when it reaches everything. */
  readonly unbounded: boolean;
}

function subjectOf(s: any, bindingNamespace: string): RbacSubject | undefined {
  if (s?.kind === 'ServiceAccount') return { kind: SubjectKind.SERVICE_ACCOUNT, name: String(s.name), namespace: String(s.namespace ?? bindingNamespace) };
  if (s?.kind === 'User') return { kind: SubjectKind.USER, name: String(s.name) };
  if (s?.kind === 'Group') return { kind: SubjectKind.GROUP, name: String(s.name) };
  return undefined;
}

/**
 * The extension's operator as the effective-power model reads reconcilers (a ClusterServiceVersion: OLM v1 creates
 * none, the model reads its shape): the rendered CRDs are its APIs, the rendered Deployments' ServiceAccounts act on
 * them, in the watched namespaces (`targetNamespaces`, `['']` for all). A writer of those APIs may have it act.
 */
function reconcilerOf(render: RegistryV1Render): Array<{ manifest: any; origin: string }> {
  const owned = render.objects.filter((o) => o.kind === 'CustomResourceDefinition' && typeof o.metadata?.name === 'string').map((o) => ({ name: o.metadata.name }));
  const deployments = render.objects.filter((o) => o.kind === 'Deployment')
    .map((o) => ({ spec: { template: { spec: { serviceAccountName: o.spec?.template?.spec?.serviceAccountName || 'default' } } } }));
  if (owned.length === 0 || deployments.length === 0) return [];
  return [{
    manifest: {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'the-extension', namespace: render.installNamespace, annotations: { 'olm.targetNamespaces': render.targetNamespaces.filter((t) => t !== '').join(',') } },
      spec: { customresourcedefinitions: { owned }, install: { spec: { deployments } } },
    },
    origin: 'the extension\'s operator (operator-controller applies its Deployments; modelled as a CSV)',
  }];
}

/** The permission preview of one rendered bundle. */
export class OlmV1PermissionPreview {
  /** The preview of what `render` creates. */
  public static of(render: RegistryV1Render): OlmV1PermissionPreview {
    return new OlmV1PermissionPreview(render);
  }

  /** The install namespace. */
  public readonly installNamespace: string;
  /** Every subject bound by the rendered objects, sorted. */
  public readonly subjects: OlmV1SubjectGrants[];
  /** The findings, in subject order then probe order. */
  public readonly findings: OlmV1PreviewFinding[];

  private constructor(render: RegistryV1Render) {
    this.installNamespace = render.installNamespace;
    const power = new EffectivePower([
      ...render.objects.map((manifest) => ({ manifest, origin: 'operator-controller (cluster-admin)' })),
      ...reconcilerOf(render),
    ]);
    const bindings = render.objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding');
    const byLabel = new Map<string, RbacSubject>();
    const findings: OlmV1PreviewFinding[] = [];
    for (const b of bindings) {
      for (const s of b.subjects ?? []) {
        const subject = subjectOf(s, b.metadata?.namespace ?? '');
        if (!subject) continue;
        const label = EffectivePower.label(subject);
        byLabel.set(label, subject);
        const outside = subject.kind !== SubjectKind.SERVICE_ACCOUNT || subject.namespace !== render.installNamespace;
        if (outside) {
          findings.push({
            code: OlmV1PreviewFindingCode.SUBJECT_OUTSIDE_INSTALL_NAMESPACE,
            subject: label,
            what: `${b.kind} ${b.metadata?.namespace ? `${b.metadata.namespace}/` : ''}${b.metadata?.name} (shipped in the bundle; OLM v1 does not rewrite subjects) grants ${b.roleRef?.kind} ${b.roleRef?.name} to ${label}, outside install namespace ${render.installNamespace}`,
          });
        }
      }
    }
    const labels = [...byLabel.keys()].sort();
    this.subjects = labels.map((label) => {
      const p = power.of(byLabel.get(label)!);
      const cluster = p.grants.filter((g) => g.namespace === '');
      return {
        subject: label,
        clusterRules: cluster.flatMap((g) => g.rules),
        namespaces: [...new Set(p.grants.filter((g) => g.namespace !== '').map((g) => g.namespace))].sort(),
        unbounded: p.unbounded,
      };
    });
    // the v0 registry of sensitive grants, and aggregation the other way (a bundle ClusterRole whose labels a shared
    // aggregated role selects): the wording the global installs' preview uses too
    const codes = {
      unbounded: OlmV1PreviewFindingCode.UNBOUNDED,
      sensitiveGrant: OlmV1PreviewFindingCode.SENSITIVE_GRANT,
      aggregatesIntoSharedRole: OlmV1PreviewFindingCode.SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE,
    };
    for (const { kind, ...f } of previewPowerFindings(this.subjects, render.objects.filter((x) => x.kind === 'ClusterRole'))) {
      findings.push({ code: codes[kind], ...f });
    }
    // webhooks by the kinds they see and rewrite (audit/webhook-reach.ts): the rendered namespaceSelector confines
    // them to the watched namespace unless the extension watches all namespaces; only the install namespace is its own
    const ownGroups = [...new Set(render.objects.filter((x) => x.kind === 'CustomResourceDefinition').map((x) => String(x.spec?.group ?? '')))].sort();
    const ownNamespaces = [render.installNamespace];
    for (const o of render.objects.filter((x) => x.kind === 'MutatingWebhookConfiguration' || x.kind === 'ValidatingWebhookConfiguration')) {
      const mutating = o.kind === 'MutatingWebhookConfiguration';
      for (const hook of o.webhooks ?? []) {
        const onPods = mutating && (hook.rules ?? []).some((r: any) => (r.apiGroups ?? []).some((g: string) => g === '' || g === '*')
          && (r.resources ?? []).some((x: string) => x === '*' || x === 'pods' || x === 'pods/*' || x === '*/*'));
        if (onPods) {
          findings.push({
            code: OlmV1PreviewFindingCode.MUTATING_WEBHOOK_ON_PODS,
            subject: `MutatingWebhookConfiguration ${o.metadata.name}`,
            what: `mutating webhook ${hook.name} rewrites pods${hook.namespaceSelector ? '' : ' in every namespace'} (served by Service ${hook.clientConfig?.service?.namespace}/${hook.clientConfig?.service?.name})`,
          });
        }
        // pods themselves are OLMT-045's
        const reach = webhookReach(hook, { mutating, ownGroups, ownNamespaces, selectedNamespaces: null })
          .filter((r) => !(onPods && r.resource === 'core/pods'));
        if (reach.length === 0) continue;
        findings.push({
          code: OlmV1PreviewFindingCode.WEBHOOK_BEYOND_OWN_APIS,
          subject: `${o.kind} ${o.metadata.name}`,
          what: `${mutating ? 'mutating' : 'validating'} webhook ${hook.name} ${describeReach(reach)}${hook.objectSelector ? ' (its objectSelector matches labels the objects\' writers choose)' : ''}`,
        });
      }
    }
    this.findings = findings;
  }
}
