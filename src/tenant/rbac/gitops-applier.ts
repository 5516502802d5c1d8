/**
 * A tenant's GitOps identities (docs/gitops.md, "Who applies what"): the ServiceAccount, in the tenant's home
 * namespace, as which Flux or Argo CD applies the tenant's folder, with exactly the RBAC that folder needs
 * (`ApplierRules`, derived at synth from the objects the folder holds), and, for a tenant with its own repository, a
 * second ServiceAccount that applies that repository with the tenant's self-service rights only. Created by the tenant
 * constructs when their App writes GitOps identities (`gitOpsIdentitiesOf`); the ServiceAccounts and their RBAC are
 * applied by the platform (`cluster/`), never by themselves.
 */
import { ApiObject, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../../core/app-context';
import { l1Metadata } from '../../core/l1-metadata';
import { SynthPass } from '../../core/synth-pass';
import { AppliedObjectFacts, ApplierRules } from '../../rbac/applier-rules';
import { PolicyRule, PolicyRules } from '../../rbac/policy-rule';
import { RbacRules } from '../../rbac/rbac-rules';
import { toL1Rules } from '../private';

/** Label on the GitOps identities' objects: which identity they make (`applier`, `self-service`). */
export const GITOPS_IDENTITY_LABEL = 'cdk8s-olm-tenancy.io/gitops-identity';

/** What a `GitOpsApplier` applies, and as whom. */
export interface GitOpsApplierOptions {
  /** The ServiceAccount's name (in `homeNamespace`). */
  readonly name: string;
  /** Where the ServiceAccount lives: the tenant's (first) namespace, its folder's name. */
  readonly homeNamespace: string;
  /** Every namespace of the tenant (the home namespace first): a Role and RoleBinding in each. */
  readonly namespaces: string[];
  /** `applier` (the tenant's folder) or `self-service` (the tenant's own repository). */
  readonly role: 'applier' | 'self-service';
  /**
   * The objects the identity applies, as the rules are derived from them (called at synth). For `self-service`,
   * the rules themselves instead (`selfServiceRules`).
   */
  readonly folderObjects?: () => AppliedObjectFacts[];
  /** For `self-service`: its rules in each namespace, and cluster-wide (called at synth). */
  readonly selfServiceRules?: () => { namespaced: PolicyRule[]; cluster: PolicyRule[] };
  /** For `self-service`: the URL of the repository it applies (for the report). */
  readonly sourceUrl?: string;
  /** Whether the identity gets a ClusterRole (cluster-scoped objects: an OLM v1 team's ClusterExtensions). */
  readonly clusterScoped?: boolean;
}

/** A ServiceAccount with a Role (and RoleBinding) per namespace, and optionally a ClusterRole, rules at synth. */
export class GitOpsApplier extends Construct {
  /** The ServiceAccount. */
  public readonly serviceAccount: k8s.KubeServiceAccount;
  /** `ServiceAccount <namespace>/<name>`, as the audit names identities. */
  public readonly subject: string;
  /** `applier` (the tenant's folder) or `self-service` (its own repository). */
  public readonly role: 'applier' | 'self-service';
  /** The namespace of the ServiceAccount. */
  public readonly homeNamespace: string;
  /** The namespaces it has a Role in. */
  public readonly namespaces: string[];
  /** The repository a self-service identity applies. */
  public readonly sourceUrl?: string;
  private readonly options: GitOpsApplierOptions;
  private cached?: { pass: object; grants: { namespaced: Array<{ namespace: string; rules: PolicyRule[] }>; cluster: PolicyRule[] } };

  constructor(scope: Construct, id: string, options: GitOpsApplierOptions) {
    super(scope, id);
    this.options = options;
    const { name, homeNamespace } = options;
    this.subject = `ServiceAccount ${homeNamespace}/${name}`;
    this.role = options.role;
    this.homeNamespace = homeNamespace;
    this.namespaces = [...options.namespaces];
    this.sourceUrl = options.sourceUrl;
    const labels = { [GITOPS_IDENTITY_LABEL]: options.role };
    this.serviceAccount = new k8s.KubeServiceAccount(this, 'ServiceAccount', {
      metadata: l1Metadata({ name, namespace: homeNamespace, labels }),
      // it applies manifests through the API; no pod needs its token
      automountServiceAccountToken: false,
    });
    const subjects = [{ kind: 'ServiceAccount', name, namespace: homeNamespace }];
    for (const ns of options.namespaces) {
      const role = new k8s.KubeRole(this, `Role-${ns}`, {
        metadata: l1Metadata({ name, namespace: ns, labels }),
        rules: Lazy.any({ produce: () => toL1Rules(this.namespacedRules(ns)) }),
      });
      new k8s.KubeRoleBinding(this, `RoleBinding-${ns}`, {
        metadata: l1Metadata({ name, namespace: ns, labels }),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects,
      }).node.addDependency(role, this.serviceAccount);
    }
    if (options.clusterScoped) {
      const clusterName = `${homeNamespace}-${name}`;
      const clusterRole = new k8s.KubeClusterRole(this, 'ClusterRole', {
        metadata: l1Metadata({ name: clusterName, labels }),
        rules: Lazy.any({ produce: () => toL1Rules(this.clusterRules()) }),
      });
      new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
        metadata: l1Metadata({ name: clusterName, labels }),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterName },
        subjects,
      }).node.addDependency(clusterRole, this.serviceAccount);
    }
  }

  /** The rules of the identity's Role in `namespace` (as synthesized). */
  public namespacedRules(namespace: string): PolicyRule[] {
    if (this.options.role === 'self-service') return RbacRules.compact(this.options.selfServiceRules?.().namespaced ?? []);
    return this.grants().namespaced.find((g) => g.namespace === namespace)?.rules ?? [];
  }

  /** The rules of the identity's ClusterRole (empty without one). */
  public clusterRules(): PolicyRule[] {
    if (!this.options.clusterScoped) return [];
    if (this.options.role === 'self-service') return RbacRules.compact(this.options.selfServiceRules?.().cluster ?? []);
    return this.grants().cluster;
  }

  private grants(): { namespaced: Array<{ namespace: string; rules: PolicyRule[] }>; cluster: PolicyRule[] } {
    const pass = SynthPass.current(this.node.root);
    if (pass !== undefined && this.cached?.pass === pass) return this.cached.grants;
    const grants = ApplierRules.derive(this.options.folderObjects?.() ?? [], this.options.namespaces);
    this.cached = pass === undefined ? undefined : { pass, grants };
    return grants;
  }

}

/** Constructs whose objects the platform applies (`markPlatformApplied`). */
const PLATFORM_APPLIED = new AppSlot('platformApplied', () => new Set<IConstruct>());

/**
 * Marks the objects of `constructs` (and below them) as applied by the platform: a tenant's installer identity (its
 * ServiceAccount, Role and RoleBinding), which OLM acts as. Had the tenant's applier to create the installer's Role,
 * it would have to hold every rule of it (RBAC's escalation check) and could become the installer (pods in the
 * namespace run as any of its ServiceAccounts).
 */
export function markPlatformApplied(...constructs: Array<IConstruct | undefined>): void {
  for (const c of constructs) if (c !== undefined) AppContext.of(c).get(PLATFORM_APPLIED).add(c);
}

/**
 * The kinds the platform applies although they are in a tenant's namespace: the tenant's boundaries, which an identity
 * of the tenant must not be able to change (a pod of the namespace may run as it, and so may the tenant's operators).
 * By `<group>/<kind>`, each with why.
 */
export const PLATFORM_KINDS: ReadonlyArray<{ readonly group: string; readonly kind: string; readonly why: string }> = [
  { group: '', kind: 'Namespace', why: 'an identity living in the namespace cannot create it, and must not relabel it (its Pod Security level, the labels NetworkPolicies select on)' },
  { group: '', kind: 'Secret', why: 'applying Secrets needs list, which reads every Secret of the namespace (the installer\'s token among them)' },
  // the baseline's ManagedObjectsAdmissionPolicy refuses updates of these by any ServiceAccount of the namespace: a
  // tenant identity could not apply them anyway
  { group: '', kind: 'ResourceQuota', why: 'the tenant\'s quota' },
  { group: '', kind: 'LimitRange', why: 'the tenant\'s limits' },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy', why: 'the tenant\'s isolation' },
  { group: 'operators.coreos.com', kind: 'OperatorGroup', why: 'which ServiceAccount OLM acts as, and where the operators reach (OLM deputizes for whoever writes it)' },
  { group: 'operators.coreos.com', kind: 'CatalogSource', why: 'what the tenant may install from (its registry pod runs any image it names)' },
];

/**
 * Whether the platform, not the tenant's identity, applies `o` though it is in a tenant namespace: the
 * `PLATFORM_KINDS`, the installer identity (`markPlatformApplied`) and the GitOps identities themselves (no identity
 * applies its own RBAC).
 */
export function isPlatformApplied(o: ApiObject): boolean {
  const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
  if (PLATFORM_KINDS.some((k) => k.group === group && k.kind === o.kind)) return true;
  const applied = AppContext.find(o, PLATFORM_APPLIED);
  if (applied?.has(o) === true) return true;
  return o.node.scopes.some((s) => s instanceof GitOpsApplier || applied?.has(s) === true);
}

/**
 * The objects of the App in `namespaces` that a tenant identity applies (not `isPlatformApplied`), plus `extra`
 * (cluster-scoped objects of the tenant's folder), as `ApplierRules` reads them. `pluralOf` gives a custom resource's
 * plural when a bundle's CRD says it. Objects are found through one index of the App's objects by namespace per synth
 * pass.
 */
export function folderObjectsOf(scope: IConstruct, namespaces: string[], extra: ApiObject[] = [],
  pluralOf: (group: string, kind: string) => string | undefined = () => undefined): AppliedObjectFacts[] {
  const index = namespaceIndex(scope);
  const out: AppliedObjectFacts[] = [];
  for (const o of [...namespaces.flatMap((ns) => index.get(ns) ?? []), ...extra]) {
    if (isPlatformApplied(o)) continue;
    const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
    const facts: { -readonly [K in keyof AppliedObjectFacts]: AppliedObjectFacts[K] } = {
      apiVersion: o.apiVersion, kind: o.kind, name: o.name, resource: pluralOf(group, o.kind),
    };
    if (o.metadata.namespace !== undefined) facts.namespace = o.metadata.namespace;
    if (group === 'rbac.authorization.k8s.io' && (o.kind === 'Role' || o.kind === 'RoleBinding')) {
      const json = SynthPass.json(o);
      if (o.kind === 'Role') facts.rules = (Array.isArray(json?.rules) ? json.rules : []).map((r: any) => PolicyRules.fromJson(r));
      if (o.kind === 'RoleBinding' && json?.roleRef) facts.roleRef = { kind: String(json.roleRef.kind), name: String(json.roleRef.name) };
    }
    out.push(facts);
  }
  return out;
}

/** The App's ApiObjects by `metadata.namespace`, once per synth pass (outside a pass: built afresh). */
function namespaceIndex(scope: IConstruct): Map<string, ApiObject[]> {
  const root = scope.node.root;
  const pass = SynthPass.current(root);
  const known = pass !== undefined ? NAMESPACE_INDEX_CACHE.get(pass) : undefined;
  if (known !== undefined) return known;
  const index = new Map<string, ApiObject[]>();
  for (const c of SynthPass.findAll(root)) {
    if (!(c instanceof ApiObject)) continue;
    const ns = c.metadata.namespace;
    if (ns === undefined) continue;
    const list = index.get(ns);
    if (list) list.push(c);
    else index.set(ns, [c]);
  }
  if (pass !== undefined) NAMESPACE_INDEX_CACHE.set(pass, index);
  return index;
}

/** `namespaceIndex` of each synth pass (nothing changes the constructs during a pass). */
const NAMESPACE_INDEX_CACHE = new WeakMap<object, Map<string, ApiObject[]>>();

/** The verbs of a self-service identity on what it may apply. */
const SELF_SERVICE_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * The plural of a custom resource kind from the bundles' CRDs (`<plural>.<group>` names), when one defines it.
 */
export function crdPluralOf(bundles: Array<{ crds: Array<{ name: string; group: string; kind: string }> }>):
(group: string, kind: string) => string | undefined {
  return (group, kind) => {
    for (const b of bundles) {
      for (const c of b.crds) {
        if (c.group === group && c.kind === kind && c.name.endsWith(`.${group}`)) return c.name.slice(0, c.name.length - group.length - 1);
      }
    }
    return undefined;
  };
}

/**
 * What a tenant's own repository may apply in the tenant's namespaces: Subscriptions (checked in the cluster by the
 * curated catalog's admission policy: the curated CatalogSource, allowed packages and channels) and the namespaced APIs
 * of the operators the tenant installs (the bundles' CRDs). Never RBAC, ServiceAccounts, CatalogSources,
 * OperatorGroups, Secrets or anything cluster-scoped.
 */
export function selfServiceRules(bundles: Array<{ crds: Array<{ name: string; group: string; scope: string }> }>,
  subscriptions: boolean = true): PolicyRule[] {
  const rules: PolicyRule[] = subscriptions ? [{ apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: SELF_SERVICE_VERBS }] : [];
  for (const b of bundles) {
    for (const c of b.crds) {
      if (c.scope !== 'Namespaced' || !c.name.endsWith(`.${c.group}`)) continue;
      rules.push({ apiGroups: [c.group], resources: [c.name.slice(0, c.name.length - c.group.length - 1)], verbs: SELF_SERVICE_VERBS });
    }
  }
  return RbacRules.compact(rules);
}
