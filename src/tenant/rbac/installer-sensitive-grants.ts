// The sensitive grants the installer holds because the tenant accepted them: the options of the sensitive-grant
// checks, the report rows (`ScopedOperatorTenant.sensitiveGrants`) and the annotation on the installer's roles.
import { Lazy } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CompactClusterRole } from './compact-cluster-role';
import { CompactRole } from './compact-role';
import { InstallerRuleCheckOptions, InstallerRuleChecks, SensitiveGrant } from '../../audit/installer-rule-checks';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { copyShallowArrays, seal } from '../../core/content-cache';
import { PassMemo } from '../../core/synth-pass';
import { PolicyRule, PolicyRules } from '../../rbac/policy-rule';
import { ScopedOperatorTenantProps, TenantSensitiveGrant } from '../scoped-operator-tenant-props';
import { SENSITIVE_GRANTS_ANNOTATION } from '../tenant-annotations';

/** What the sensitive grants need of their tenant, read when the checks run (the rules and bundles still grow). */
export interface InstallerSensitiveGrantsOptions {
  /** The tenant (its App's synthesis pass bounds the memos). */
  readonly scope: IConstruct;
  readonly namespace: string;
  readonly props: Pick<ScopedOperatorTenantProps, 'allowedSensitiveGrants' | 'acceptedSensitiveGrants'>;
  /** True when OLM puts the operator's RBAC beyond the tenant namespace (other targets, AllNamespaces). */
  operatorRbacBeyondNamespace(): boolean;
  /** The bundles given to the Subscriptions (installed and upgrade bundles). */
  bundles(): OperatorBundle[];
  /** The installer Role's rules as added. */
  installerRules(): PolicyRule[];
  /** The installer ClusterRole's rules as added, undefined without a ClusterRole. */
  clusterInstallerRules(): PolicyRule[] | undefined;
  /** True for a derived rule that binds named roles only (accepted by the derivation, never a sensitive grant). */
  isDerivedNamedBind(rule: PolicyRule): boolean;
}

/**
 * The rules a bundle's own Roles grant (CSV `permissions`, bundle Roles), once per bundle (bundles are immutable):
 * a sealed copy, shared read-only by every tenant, so the rule checks key it by id (see core/content-cache.ts).
 */
const BUNDLE_GRANTED_CACHE = new WeakMap<OperatorBundle, PolicyRule[]>();
function bundleGrantedRulesOf(b: OperatorBundle): PolicyRule[] {
  let rules = BUNDLE_GRANTED_CACHE.get(b);
  if (rules === undefined) {
    const out: PolicyRule[] = [];
    for (const p of b.permissions) out.push(...p.rules.map((r) => copyShallowArrays(r)));
    for (const o of b.objects) {
      if (o.kind !== 'Role' || !Array.isArray(o.raw?.rules)) continue;
      for (const r of o.raw.rules) {
        try {
          out.push(PolicyRules.fromJson(r));
        } catch {
          // an invalid rule grants nothing; the preflight reports the bundle
        }
      }
    }
    rules = seal(out);
    BUNDLE_GRANTED_CACHE.set(b, rules);
  }
  return rules;
}

/** Within one synthesis pass (read by the checks and the report): the checks' options and the grants held (namespaced, cluster). */
const CHECK_OPTIONS = [new PassMemo<InstallerRuleCheckOptions>(), new PassMemo<InstallerRuleCheckOptions>()];
const HELD = [new PassMemo<TenantSensitiveGrant[]>(), new PassMemo<TenantSensitiveGrant[]>()];

/** The accepted sensitive grants of one tenant's installer. */
export class InstallerSensitiveGrants {
  constructor(private readonly options: InstallerSensitiveGrantsOptions) {}

  /**
   * The sensitive grants the installer holds because they were accepted by name: the Role's first, then the
   * ClusterRole's, each in `SensitiveGrant` order.
   */
  public held(): TenantSensitiveGrant[] {
    return [...this.heldBy(false), ...this.heldBy(true)];
  }

  /**
   * Names, on the installer Role or ClusterRole, the sensitive grants it holds because they were accepted (by name,
   * or, on the Role, because the bundles' own Roles grant them). The value is computed when the role is rendered, from
   * its final rules and subscriptions; no grant, no annotation (cdk8s drops an undefined annotation and then an empty
   * map).
   */
  public annotate(role: CompactRole | CompactClusterRole, cluster: boolean): void {
    const text = Lazy.any({ produce: () => this.annotationText(cluster) });
    role.apiObject.metadata.addAnnotation(SENSITIVE_GRANTS_ANNOTATION, text as unknown as string);
  }

  /** The grants accepted by name: `allowedSensitiveGrants` and `acceptedSensitiveGrants` with a reason. */
  public allowedGrants(): SensitiveGrant[] {
    const { props } = this.options;
    const out = new Set(props.allowedSensitiveGrants ?? []);
    for (const a of props.acceptedSensitiveGrants ?? []) if (a.reason.trim() !== '') out.add(a.grant);
    return Object.values(SensitiveGrant).filter((g) => out.has(g));
  }

  /**
   * The installer Role's (or, `cluster`, ClusterRole's) rules the sensitive-grant checks read: all but the derived
   * named binds; undefined without a ClusterRole.
   */
  public checkedRules(cluster: boolean): PolicyRule[] | undefined {
    const all = cluster ? this.options.clusterInstallerRules() : this.options.installerRules();
    return all?.filter((r) => !this.options.isDerivedNamedBind(r));
  }

  /** Options of the sensitive-grant checks of the installer Role (or, `cluster`, ClusterRole). */
  public checkOptions(cluster: boolean): InstallerRuleCheckOptions {
    return cluster
      ? CHECK_OPTIONS[1].get(this.options.scope, this, () => ({ clusterScoped: true, allowedSensitiveGrants: this.allowedGrants(), field: 'clusterInstallerRules' }))
      : this.namespacedCheckOptions();
  }

  /** Options of the sensitive-grant checks of the namespaced installer Role. */
  private namespacedCheckOptions(): InstallerRuleCheckOptions {
    return CHECK_OPTIONS[0].get(this.options.scope, this, () => ({
      clusterScoped: false,
      allowedSensitiveGrants: this.allowedGrants(),
      field: 'installerRules',
      operatorRbacBeyondNamespace: this.options.operatorRbacBeyondNamespace(),
      bundleGrantedRules: this.bundleGrantedRules(),
    }));
  }

  private annotationText(cluster: boolean): string | undefined {
    const parts: string[] = [];
    if (!cluster) {
      const accepted = InstallerRuleChecks.bundleAcceptedGrants(this.options.installerRules(), {
        ...this.namespacedCheckOptions(),
        operatorRbacBeyondNamespace: true,
      });
      if (accepted.length > 0) {
        const bundles = this.options.bundles().map((b) => b.name);
        parts.push(`${accepted.map((a) => `${a.grant} (${a.what})`).join(', ')}: granted by the bundles' own Roles in namespace ${this.options.namespace} `
          + `(${[...new Set(bundles)].sort().join(', ')}); OLM's RBAC escalation check makes the installer hold them to create those Roles`);
      }
    }
    parts.push(...this.heldBy(cluster).map((g) => `${g.grant} (${g.what}): ${g.acceptance}`));
    return parts.length === 0 ? undefined : parts.join('; ');
  }

  /** The grants of `allowedSensitiveGrants`/`acceptedSensitiveGrants` the Role (or ClusterRole) holds, with why. */
  private heldBy(cluster: boolean): TenantSensitiveGrant[] {
    return HELD[cluster ? 1 : 0].get(this.options.scope, this, () => this.heldByNow(cluster));
  }

  private heldByNow(cluster: boolean): TenantSensitiveGrant[] {
    const rules = this.checkedRules(cluster);
    if (!rules) return [];
    const reasons = new Map<SensitiveGrant, string[]>();
    for (const a of this.options.props.acceptedSensitiveGrants ?? []) {
      if (a.reason.trim() !== '') reasons.set(a.grant, [...(reasons.get(a.grant) ?? []), a.reason]);
    }
    return InstallerRuleChecks.allowedGrantsHeld(rules, this.checkOptions(cluster)).map((g) => ({
      grant: g.grant,
      what: g.what,
      namespace: cluster ? '' : this.options.namespace,
      acceptance: reasons.has(g.grant) ? `accepted by acceptedSensitiveGrants: ${reasons.get(g.grant)!.join('; ')}` : 'accepted by allowedSensitiveGrants (no reason given)',
    }));
  }

  /** The rules the subscribed bundles' own Roles grant in the tenant namespace (CSV permissions and bundle Roles). */
  private bundleGrantedRules(): PolicyRule[] {
    // a loop, not flatMap (once per tenant and pass; V8's flatMap is many times slower)
    const out: PolicyRule[] = [];
    for (const b of this.options.bundles()) out.push(...bundleGrantedRulesOf(b));
    return out;
  }
}
