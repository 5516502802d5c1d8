/**
 * What an identity can really do, not only what it is bound to: the closure over RBAC bindings, roles it may bind,
 * `escalate`, and the identities it can become, iterated to a fixpoint. Pure: plain Kubernetes JSON in, no
 * constructs, no cluster.
 *
 * Semantics follow the API server:
 * - authorization: `RbacRules.allows` (`plugin/pkg/auth/authorizer/rbac/rbac.go`); a RoleBinding to a ClusterRole
 *   grants its rules in the binding's namespace only; ServiceAccounts are also members of the groups
 *   `system:serviceaccounts`, `system:serviceaccounts:<ns>` and `system:authenticated`
 *   (`k8s.io/apiserver/pkg/authentication/serviceaccount/util.go` `MakeGroupNames`);
 * - aggregated ClusterRoles get the rules of every other ClusterRole one of their selectors matches, to a fixpoint
 *   (`pkg/controller/clusterroleaggregation`), with label-selector semantics (`LabelSelectorAsSelector`: `{}`
 *   matches every ClusterRole, `matchLabels`, `matchExpressions` In/NotIn/Exists/DoesNotExist), over the input's
 *   ClusterRoles and the built-in ones with their real labels (`aggregationBuiltins`: `cluster-admin` and every
 *   bootstrap role carry `kubernetes.io/bootstrapping: rbac-defaults`; `admin`/`edit`/`view` and OLM's
 *   `aggregate-olm-*`), so a role labelled `aggregate-to-view` joins `view`, `edit` and `admin`;
 * - `escalate` is checked on the request's object name (`pkg/registry/rbac/escalation_check.go`
 *   `RoleEscalationAuthorized`): `escalate` and `update`/`patch` on a named role (not an aggregated one: its
 *   aggregationRule needs `*` on `*`, `clusterrole/policybased/storage.go`) rewrite it to anything, so every binding
 *   of it to an identity reached gives everything in that binding's scope; `update`/`patch` on a named binding with
 *   `bind` on its role adds a subject to it (`rolebinding/policybased/storage.go`);
 * - a client certificate for any user or group but `system:masters`: `create` on `certificatesigningrequests`,
 *   `update`/`patch` on `certificatesigningrequests/approval` and `approve` on `signers`
 *   `kubernetes.io/kube-apiserver-client` (or `kubernetes.io/*`; `plugin/pkg/admission/certificates/approval`,
 *   `IsAuthorizedForSignerName`): kube-controller-manager signs what is approved (`pkg/controller/certificates/signer`);
 *   with `kubernetes.io/kube-apiserver-client-kubelet` a certificate for any node, which the node authorizer lets
 *   create tokens for the ServiceAccounts of its pods (`node_authorizer.go`): unbounded too;
 * - binding a role needs `create` on the binding and `bind` on the role (or holding its rules: no gain then)
 *   (`k8s.io/component-helpers/auth/rbac/validation` `ConfirmNoEscalation`, `pkg/registry/rbac/escalation_check.go`
 *   `BindingAuthorized`); `escalate` on roles with `create`/`update`/`patch` on them allows any rule in that scope
 *   (`EscalationAllowed`);
 * - becoming another ServiceAccount: `impersonate` (`staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go`),
 *   reading its `kubernetes.io/service-account-token` Secret or creating one for it and reading it (the token
 *   controller fills it, `pkg/controller/serviceaccount/tokens_controller.go`), `create` on `serviceaccounts/token` (TokenRequest),
 *   creating pods or pod-creating workloads in its namespace (a pod may name any ServiceAccount of its namespace,
 *   `plugin/pkg/admission/serviceaccount`), updating or patching the pod template of a workload of the input
 *   (`TEMPLATE_WORKLOADS`), `create`/`get` on `pods/exec` or `pods/attach` (`get` opened them over websockets
 *   before KEP-4006), `update`/`patch` on `pods/ephemeralcontainers` or on the pod itself (a new container image,
 *   `ValidatePodUpdate`) of a pod running as it (`POD_ENTRIES`), or
 *   `create`/`get` on `nodes/proxy` (the kubelet's exec into any pod of the node, `pkg/kubelet/server/auth.go`);
 * - cluster-admin through operator-controller: `create` (or `update`/`patch`) on `olm.operatorframework.io`
 *   `clusterobjectsets`, whose objects its `BoxcutterRuntime` applies with its own cluster-admin client.
 *
 * Built-in roles the input does not define count with their well-known rules (`BuiltinRoles`); roles nobody defines
 * count as unbounded (everything in the binding's scope). What the input does not contain (RBAC granted outside the
 * App, ServiceAccounts and Secrets created on the cluster) is invisible.
 */
import { aggregationBuiltins, CLUSTER_ADMIN_RULES, findBuiltin, NAMESPACE_ADMIN_RULES } from './builtin-roles';
import { checkPowerObjects, checkRulesArgs, checkSubjectArgs } from './input-checks';
import { BUILTIN_NAMES, BuiltinName, NODE_AUTHORIZER, NODE_USER_PREFIX, NODES_GROUP } from './mechanisms/builtin-names';
import { CHILD_TEMPLATES, deputy, DEPUTIES, DeputyEffect, DeputyNames, DeputyRow, GLOBAL_OPERATOR_GROUP_NAMESPACES, TEMPLATE_KINDS } from './mechanisms/deputies';
import { NAMED_READ_VERBS, STORED_READ_VERBS } from './mechanisms/verb-responses';
import { InputCheck, throwIfInvalid } from '../core/input-check';
import { formatLabelSelector, LabelRequirement, parseLabelSelector, selectorMatches } from '../rbac/label-selector';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';
import { RbacRules, ResourceRequest } from '../rbac/rbac-rules';
import { AuthenticatedUser, serviceAccountUser, splitUsername, usernameOf, withAuthenticatedGroup } from '../rbac/subject-matcher';

/** Kinds of RBAC subjects. */
export enum SubjectKind {
  /** A ServiceAccount (has a namespace). */
  SERVICE_ACCOUNT = 'ServiceAccount',
  /** A user. */
  USER = 'User',
  /** A group. */
  GROUP = 'Group',
}

/** An RBAC subject. */
export interface RbacSubject {
  /** The kind. */
  readonly kind: SubjectKind;
  /** The name. */
  readonly name: string;
  /**
   * The namespace (ServiceAccounts only).
   * @default - none
   */
  readonly namespace?: string;
}

/** Where a role's rules come from. */
export enum RoleOrigin {
  /** Defined by an object of the input (the App, a bundle, OLM's generated RBAC). */
  DEFINED = 'DEFINED',
  /** A built-in role the input does not define, counted with its well-known rules (`BuiltinRoles`). */
  BUILT_IN = 'BUILT_IN',
  /** A built-in role that only reads its own bootstrap data (system:auth-delegator, extension-apiserver-authentication-reader). */
  BENIGN_BUILT_IN = 'BENIGN_BUILT_IN',
  /** A role nobody defines: counted as unbounded (everything in its scope). */
  UNKNOWN = 'UNKNOWN',
  /** Rules an identity may write into a role itself (`escalate`): everything in the scope. */
  ESCALATE = 'ESCALATE',
  /**
   * Defined by an object of the input with an `aggregationRule` that selects built-in ClusterRoles (directly or through
   * another aggregated role): its rules are theirs (the clusterrole-aggregation controller), not what the input shows.
   */
  AGGREGATED = 'AGGREGATED',
}

/** One object of the input, with a note on who creates it (shown in paths). */
export interface PowerObject {
  /** The object as Kubernetes JSON (Role, ClusterRole, RoleBinding, ClusterRoleBinding, Secret, ServiceAccount, Pod or a workload). */
  readonly manifest: any;
  /**
   * Who creates it, e.g. `OLM (CSV permissions of etcdoperator.v0.9.4)`.
   * @default - the App
   */
  readonly origin?: string;
}

/** One set of rules an identity reaches, and how. */
export interface PowerGrant {
  /** Where the rules apply: a namespace, or `""` for cluster-wide. */
  readonly namespace: string;
  /** The rules. */
  readonly rules: PolicyRule[];
  /** `Role` or `ClusterRole`. */
  readonly roleKind: string;
  /** The role's name. */
  readonly roleName: string;
  /** Where the role's rules come from. */
  readonly roleOrigin: RoleOrigin;
  /** The identity that holds the grant directly (the subject itself, or one it can become). */
  readonly holder: string;
  /** The steps from the subject to the rules, e.g. `["ServiceAccount team-a/etcd-operator", "get secret team-a/team-a (token of ServiceAccount team-a/team-a)", ...]`. */
  readonly path: string[];
  /** True when the subject itself is bound to the role (no identity change, no bind, no escalate). */
  readonly direct: boolean;
  /**
   * The deputy (a controller acting for the subject, a row id of the model's deputy table, e.g. `olm-v1-installs`)
   * whose client holds the rules; the subject's own requests do not.
   * @default - none: the holder's own rules
   */
  readonly deputy?: string;
}

/** One identity a subject can become. */
export interface ReachedIdentity {
  /** The identity, e.g. `ServiceAccount team-a/team-a`; `*` for any identity (impersonating any user or group). */
  readonly identity: string;
  /** The steps from the subject to it (the first is the subject). */
  readonly path: string[];
}

/** The closure of one subject. */
export interface SubjectPower {
  /** The subject, e.g. `ServiceAccount team-a/etcd-operator`. */
  readonly subject: string;
  /** Identities it can become (itself first), in the order found (shortest first). */
  readonly identities: ReachedIdentity[];
  /** Every grant it reaches, in the order found. */
  readonly grants: PowerGrant[];
  /** True when it reaches everything (`*` on every resource cluster-wide). */
  readonly unbounded: boolean;
}

const RBAC = 'rbac.authorization.k8s.io';
/** The identities of `BUILTIN_NAMES` that are every identity (`BuiltinName.everything`), by label. */
type EveryIdentity = { readonly what: string; readonly why: string };
const BUILTIN_EVERYTHING: ReadonlyMap<string, EveryIdentity> = new Map(BUILTIN_NAMES.filter((b) => b.everything !== undefined).map((b) => {
  const label = b.kind === 'ServiceAccount' ? `ServiceAccount ${b.namespace}/${b.name}` : `${b.kind} ${b.name}`;
  return [label, { what: label, why: b.everything! }] as const;
}));

/** The rows the closure follows generically, looked up once (`mechanisms/deputies.ts`). */
const ANY_SA_ROWS = DEPUTIES.filter((d) => d.effect === DeputyEffect.ANY_SERVICE_ACCOUNT);
const CLUSTER_ADMIN_ROWS = DEPUTIES.filter((d) => d.effect === DeputyEffect.CLUSTER_ADMIN);
const OPERATOR_GROUP_ROWS = DEPUTIES.filter((d) => d.effect === DeputyEffect.OPERATOR_GROUP_IDENTITY);
const RECONCILER_VERBS = deputy('reconciling-operator').verbs;
/**
 * Pod-creating writes, in the order the model tries them: `[group, resource, row]` (pods, then the workloads whose
 * controllers create pods from their template, then OLM's CSV Deployments).
 */
const POD_CREATING: Array<[string, string, DeputyRow]> = ANY_SA_ROWS.flatMap((row) => row.resources.map((res): [string, string, DeputyRow] => {
  const dot = res.indexOf('.');
  return row.group === '*' ? [dot < 0 ? '' : res.slice(dot + 1), dot < 0 ? res : res.slice(0, dot), row] : [row.group, res, row];
}));
/**
 * Workloads whose pod template an update or patch may change (its `serviceAccountName` included): the controller then
 * runs new pods as that ServiceAccount. Not Pods (`spec.serviceAccountName` is immutable, `ValidatePodUpdate` in
 * `pkg/apis/core/validation/validation.go`) nor Jobs (`spec.template` is immutable, `ValidateJobSpecUpdate` in
 * `pkg/apis/batch/validation/validation.go`); CronJobs' `jobTemplate` may change.
 */
const TEMPLATE_WORKLOADS = TEMPLATE_KINDS;
const TEMPLATE_VERBS = deputy('workload-template').verbs;
/**
 * Ways into a running pod's processes, which hold its ServiceAccount token: `pods/exec` and `pods/attach` (connect:
 * `create` for POST, `get` for the websocket GET before KEP-4006; `pkg/registry/core/pod/rest/subresources.go`
 * `ExecREST`, `AttachREST`), and `pods/ephemeralcontainers` (`update`, or `patch` as `kubectl debug` does;
 * `pkg/registry/core/pod/storage/storage.go` `EphemeralContainersREST`): an ephemeral container may mount the pod's
 * volumes, its projected ServiceAccount token included.
 */
const POD_ENTRIES: Array<[string, string]> = [
  ['exec', 'create'], ['exec', 'get'], ['attach', 'create'], ['attach', 'get'], ['ephemeralcontainers', 'patch'], ['ephemeralcontainers', 'update'],
  // the pod itself: `ValidatePodUpdate` (`pkg/apis/core/validation/validation.go`) lets a running pod's container
  // images change; the kubelet restarts the container with the new image, as the pod's ServiceAccount
  ['', 'update'], ['', 'patch'],
];
const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController']);
const PROBE_NAME = '\u0000any-name';
const ANY_IDENTITY = '*';
const AUTHN = 'authentication.k8s.io';
/** Constrained impersonation's modes (`impersonation/mode.go` `allImpersonationModes`), each checked as `impersonate:<mode>`. */
const CONSTRAINED_MODES = ['associated-node', 'arbitrary-node', 'serviceaccount', 'user-info'];
/**
 * Verbs the API server authorizes for the impersonated user inside the request (escalation checks, CSR approval), not
 * through the impersonation filter: an impersonated identity keeps them whatever `impersonate-on` allows.
 */
const INNER_VERBS: ReadonlySet<string> = new Set(['bind', 'escalate', 'approve', 'sign', 'attest', 'use']);

/** A role of the index. */
interface RoleEntry {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  rules: PolicyRule[];
  readonly labels: Record<string, string>;
  /** parsed `aggregationRule.clusterRoleSelectors` (invalid ones dropped: the API server refuses them) */
  readonly selectors: LabelRequirement[][];
  readonly origin: RoleOrigin;
  readonly note: string;
}

/** A binding of the index. */
interface BindingEntry {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string; // '' for ClusterRoleBinding
  readonly roleKind: string;
  readonly roleName: string;
  readonly note: string;
}

/** A pod the input runs (a Pod or a workload's template), reduced to its ServiceAccount. */
interface PodEntry {
  readonly what: string; // e.g. "Deployment team-a/etcd-operator"
  readonly kind: string;
  /** the object's name */
  readonly name: string;
  /** the Pod's name (a bare Pod: rules may name it), '' for a workload's pods (generated names) */
  readonly podName: string;
  readonly serviceAccount: string;
  /**
   * The Secrets the pod spec references, which the kubelet fetches for it (node authorizer): secret and projected
   * volumes, `env[].valueFrom.secretKeyRef`, `envFrom[].secretRef`, `imagePullSecrets`, of every container kind.
   */
  readonly secretRefs: readonly string[];
}

/** An operator that reconciles custom resources: a CSV of the input (OLM v0), or an OLM v1 bundle previewed as one. */
interface ReconcilerEntry {
  /** e.g. `ClusterServiceVersion team-a/etcdoperator.v0.9.4` */
  readonly what: string;
  readonly namespace: string;
  /** namespaces it watches; empty: every namespace */
  readonly watched: readonly string[];
  /** owned CRDs: [group, plural, `<plural>.<group>`] */
  readonly owned: ReadonlyArray<readonly [string, string, string]>;
  /** its Deployments' ServiceAccounts */
  readonly serviceAccounts: readonly string[];
}

/** Options of `EffectivePower`. */
export interface EffectivePowerOptions {
  /**
   * Groups whose ClusterExtension writes a team guardrail (an admission policy matching request groups) checks: such a
   * writer installs only what the guardrail admits, so operator-controller's cluster-admin does not count for its
   * ClusterExtension writes (ClusterCatalogs and ClusterObjectSets no guardrail checks).
   * @default - none
   */
  readonly olmV1GuardedGroups?: string[];
  /**
   * User names whose ClusterExtension writes a team guardrail checks (the team's GitOps identities, e.g.
   * `system:serviceaccount:<ns>:<name>`), counted as `olmV1GuardedGroups` are.
   * @default - none
   */
  readonly olmV1GuardedUsernames?: string[];
}

/**
 * The effective power of every subject of a set of Kubernetes objects. Build once (indexes), then ask `of(subject)`.
 */
export class EffectivePower {
  /**
   * The label of a subject as used in paths, e.g. `ServiceAccount team-a/etcd`, `Group team-a-admins`. A User named
   * `system:serviceaccount:<ns>:<name>` is labelled as that ServiceAccount: Kubernetes applies the bindings of either
   * to both (`SubjectMatcher`).
   */
  public static label(subject: RbacSubject): string {
    checkSubjectArgs('EffectivePower.label', subject, ENUMS);
    return subjectLabel(subject);
  }

  /**
   * Whether the rules allow a resource request: the RBAC authorizer's `RuleAllows` (`plugin/pkg/auth/authorizer/rbac/rbac.go`,
   * `pkg/apis/rbac/v1/evaluation_helpers.go`), as `RbacRules.allows` (tested equal) without its input checks, which the
   * closure cannot afford on every probe (rules here were read with `PolicyRules.fromJson`). `resource` may be
   * `resource/subresource` when `subresource` is not given.
   */
  public static allows(rules: PolicyRule[], request: ResourceRequest): boolean {
    checkRulesArgs('EffectivePower.allows', rules, { value: request });
    return ruleAllows(rules, request);
  }

  /** Whether the rules hold `*` on every resource of every group (cluster-admin's first rule). */
  public static isEverything(rules: PolicyRule[]): boolean {
    checkRulesArgs('EffectivePower.isEverything', rules);
    return everything(rules);
  }

  private readonly roles = new Map<string, RoleEntry>();
  /** bindings by the user name their User or ServiceAccount subjects match */
  private readonly bindingsByUsername = new Map<string, BindingEntry[]>();
  /** bindings by the group their Group subjects name */
  private readonly bindingsByGroup = new Map<string, BindingEntry[]>();
  /** namespace -> token Secrets (name -> ServiceAccount name) */
  private readonly tokenSecrets = new Map<string, Map<string, string>>();
  /** namespace -> ServiceAccount names known to exist */
  private readonly serviceAccounts = new Map<string, Set<string>>();
  /** namespace -> pods */
  private readonly pods = new Map<string, PodEntry[]>();
  private readonly cache = new Map<string, SubjectPower>();
  /** the built-in ClusterRoles of the aggregation (`aggregationBuiltins`), merged with input roles of the same name */
  private readonly builtinClusterRoles = new Map<string, RoleEntry>();
  /** every binding of the input by namespace (`''`: ClusterRoleBindings), for named bindings a subject may update */
  private readonly bindingsByNamespace = new Map<string, BindingEntry[]>();
  /** every namespace the input names (objects, bindings, subjects) */
  private readonly namespaces = new Set<string>();
  /** namespace -> CSV names of the input */
  private readonly csvs = new Map<string, Set<string>>();
  /** operators of the input that reconcile custom resources */
  private readonly reconcilers: ReconcilerEntry[] = [];
  /** namespace -> the ServiceAccount of its OperatorGroup ('' for none: OLM's own client) */
  private readonly operatorGroups = new Map<string, string>();
  /** the identities Kubernetes and OLM empower by name (`mechanisms/builtin-names.ts`), by namespace for ServiceAccounts */
  private readonly builtinServiceAccounts = new Map<string, BuiltinName[]>();
  /** the roles of those identities, by name */
  private readonly builtinNameRoles = new Map<string, BuiltinName>();
  private readonly guardedGroups: ReadonlySet<string>;
  private readonly guardedUsernames: ReadonlySet<string>;

  constructor(objects: PowerObject[], options: EffectivePowerOptions = {}) {
    const check = new InputCheck();
    checkPowerObjects(check, 'objects', objects);
    check.optionalArray('options.olmV1GuardedGroups', options?.olmV1GuardedGroups, (v, f) => check.optionalString(f, v), 'pass a list of group names');
    check.optionalArray('options.olmV1GuardedUsernames', options?.olmV1GuardedUsernames, (v, f) => check.optionalString(f, v), 'pass a list of user names');
    throwIfInvalid(check, 'EffectivePower');
    this.guardedGroups = new Set(options?.olmV1GuardedGroups ?? []);
    this.guardedUsernames = new Set(options?.olmV1GuardedUsernames ?? []);
    for (const o of objects) this.add(o);
    this.addBuiltinNames();
    this.aggregate();
  }

  /** Whether a team guardrail checks the ClusterExtension writes of this holder (by one of its groups or its user name). */
  private guardedFor(holder: string): boolean {
    if (this.guardedGroups.size === 0 && this.guardedUsernames.size === 0) return false;
    const user = userOfLabel(holder);
    return user.groups.some((x) => this.guardedGroups.has(x)) || (user.name !== undefined && this.guardedUsernames.has(user.name));
  }

  /** The closure of `subject`: identities it can become and every grant it reaches, with paths. Cached. */
  public of(subject: RbacSubject): SubjectPower {
    checkSubjectArgs('EffectivePower.of', subject, ENUMS);
    return this._of(subject);
  }

  /**
   * `of` without the input checks (the audit's own subjects).
   * @internal
   */
  public _of(subject: RbacSubject): SubjectPower {
    const label = subjectLabel(subject);
    const cached = this.cache.get(label);
    if (cached) return cached;
    const power = this.closure(label);
    this.cache.set(label, power);
    return power;
  }

  /** The rules `subject` reaches in `namespace` (cluster-wide grants included), compacted; `""` for cluster-wide only. */
  public rulesIn(subject: RbacSubject, namespace: string): PolicyRule[] {
    checkSubjectArgs('EffectivePower.rulesIn', subject, ENUMS, { value: namespace });
    const grants = this._of(subject).grants.filter((g) => g.namespace === '' || g.namespace === namespace);
    return RbacRules.compact(grants.flatMap((g) => g.rules));
  }

  // ---- indexing ----------------------------------------------------------------------------------------------

  private add(o: PowerObject): void {
    const m = o.manifest;
    if (m === null || typeof m !== 'object' || typeof m.kind !== 'string') return;
    const md = m.metadata ?? {};
    const name: string = md.name ?? '';
    const ns: string = md.namespace ?? '';
    const note = o.origin ?? 'the App';
    if (ns) this.namespaces.add(ns);
    switch (m.kind) {
      case 'Role':
      case 'ClusterRole': {
        const key = roleKey(m.kind, m.kind === 'Role' ? ns : '', name);
        const selectors = parseSelectors(m.kind === 'ClusterRole' ? m.aggregationRule : undefined);
        const existing = this.roles.get(key);
        // a rule that does not decode grants nothing (bundles are checked at load time; a custom resource of kind
        // Role in another group only fails its InstallPlan step)
        const rules: PolicyRule[] = [];
        for (const r of Array.isArray(m.rules) ? m.rules : []) {
          try {
            rules.push(PolicyRules.fromJson(r));
          } catch {
            // grants nothing
          }
        }
        if (existing) {
          // the same object written twice (two tenants' OLM roles for one CRD): one object on the cluster
          const seen = new Set(existing.rules.map((r) => JSON.stringify(r)));
          const extra = rules.filter((r: PolicyRule) => !seen.has(JSON.stringify(r)));
          if (extra.length > 0) existing.rules = [...existing.rules, ...extra];
          existing.selectors.push(...selectors);
          return;
        }
        this.roles.set(key, { kind: m.kind, name, namespace: m.kind === 'Role' ? ns : '', rules, labels: { ...(md.labels ?? {}) }, selectors, origin: RoleOrigin.DEFINED, note });
        return;
      }
      case 'RoleBinding':
      case 'ClusterRoleBinding': {
        const ref = m.roleRef ?? {};
        const str = (v: unknown) => (typeof v === 'string' ? v : '');
        const entry: BindingEntry = { kind: m.kind, name, namespace: m.kind === 'RoleBinding' ? ns : '', roleKind: str(ref.kind), roleName: str(ref.name), note };
        push(this.bindingsByNamespace, entry.namespace, entry);
        // indexed the way the authorizer matches subjects (SubjectMatcher, rule.go appliesToUser): by the user
        // name a User or ServiceAccount subject matches, and by group; a ServiceAccount subject without namespace
        // takes the RoleBinding's (none in a ClusterRoleBinding: it matches nobody)
        for (const s of Array.isArray(m.subjects) ? m.subjects : []) {
          if (!s || typeof s.kind !== 'string' || typeof s.name !== 'string') continue;
          const subject = { kind: s.kind, name: s.name, namespace: typeof s.namespace === 'string' ? s.namespace : undefined };
          if (subject.kind === 'Group') {
            push(this.bindingsByGroup, subject.name, entry);
            continue;
          }
          const username = usernameOf(subject, entry.namespace);
          if (username === undefined) continue;
          push(this.bindingsByUsername, username, entry);
          const sa = splitUsername(username);
          if (sa) this.addServiceAccount(sa.namespace, sa.name);
        }
        return;
      }
      case 'ServiceAccount':
        this.addServiceAccount(ns, name);
        return;
      case 'Secret': {
        const sa = md.annotations?.['kubernetes.io/service-account.name'];
        if (m.type === 'kubernetes.io/service-account-token' && typeof sa === 'string') {
          let secrets = this.tokenSecrets.get(ns);
          if (!secrets) this.tokenSecrets.set(ns, secrets = new Map());
          secrets.set(name, sa);
          this.addServiceAccount(ns, sa);
        }
        return;
      }
      case 'OperatorGroup': {
        if (!ns) return;
        const sa = m.spec?.serviceAccountName;
        // one OperatorGroup per namespace (OLM refuses a second); the first read wins
        if (!this.operatorGroups.has(ns)) this.operatorGroups.set(ns, typeof sa === 'string' ? sa : '');
        return;
      }
      case 'ClusterServiceVersion':
        this.addReconciler(m, ns, name, note);
        return;
      default:
        if (WORKLOAD_KINDS.has(m.kind)) {
          const podSpec = m.kind === 'Pod' ? m.spec : m.kind === 'CronJob' ? m.spec?.jobTemplate?.spec?.template?.spec : m.spec?.template?.spec;
          // the API server takes the deprecated alias `serviceAccount` when `serviceAccountName` is unset
          const sa: string = podSpec?.serviceAccountName || podSpec?.serviceAccount || 'default';
          push(this.pods, ns, { what: `${m.kind} ${ns}/${name}`, kind: m.kind, name, podName: m.kind === 'Pod' ? name : '', serviceAccount: sa, secretRefs: secretRefsOf(podSpec) });
          this.addServiceAccount(ns, sa);
        }
    }
  }

  /**
   * A ClusterServiceVersion: OLM named it (its name may be written by name), and its operator reconciles the CRDs it
   * owns in the namespaces of the annotation `olm.targetNamespaces` OLM sets on it (comma-separated; empty or absent:
   * every namespace), with the ServiceAccounts of its `spec.install` Deployments.
   */
  private addReconciler(m: any, ns: string, name: string, note: string): void {
    if (!ns) return;
    let names = this.csvs.get(ns);
    if (!names) this.csvs.set(ns, names = new Set());
    names.add(name);
    const owned: Array<readonly [string, string, string]> = [];
    for (const c of Array.isArray(m.spec?.customresourcedefinitions?.owned) ? m.spec.customresourcedefinitions.owned : []) {
      if (typeof c?.name !== 'string') continue;
      const dot = c.name.indexOf('.');
      if (dot > 0) owned.push([c.name.slice(dot + 1), c.name.slice(0, dot), c.name]);
    }
    const deployments = Array.isArray(m.spec?.install?.spec?.deployments) ? m.spec.install.spec.deployments : [];
    const serviceAccounts = [...new Set<string>(deployments.map((d: any) => d?.spec?.template?.spec?.serviceAccountName || 'default'))].sort();
    if (owned.length === 0 || serviceAccounts.length === 0) return;
    const targets = m.metadata?.annotations?.['olm.targetNamespaces'];
    const watched = typeof targets === 'string' ? targets.split(',').map((x) => x.trim()).filter((x) => x !== '') : [];
    this.reconcilers.push({ what: `ClusterServiceVersion ${ns}/${name} (${note})`, namespace: ns, watched, owned, serviceAccounts });
    for (const sa of serviceAccounts) this.addServiceAccount(ns, sa);
  }

  /**
   * The identities of `BUILTIN_NAMES`: each bound to its role as the cluster binds it. They are reached by name (a rule
   * whose `resourceNames` name them: impersonation, a TokenRequest) and through grants in their own namespace; not
   * through any-name grants cluster-wide, which are the sensitive grants (`POD_CREATE`, `WORKLOAD_WRITES`,
   * `SERVICE_ACCOUNT_TOKENS`, `IMPERSONATE`) the v0 rules refuse and the previews name.
   */
  private addBuiltinNames(): void {
    for (const b of BUILTIN_NAMES) {
      this.builtinNameRoles.set(b.role, b);
      const entry: BindingEntry = { kind: 'ClusterRoleBinding', name: b.role, namespace: '', roleKind: 'ClusterRole', roleName: b.role, note: `built-in, ${b.upstream}` };
      if (b.kind === 'Group') {
        push(this.bindingsByGroup, b.name, entry);
      } else if (b.kind === 'User') {
        push(this.bindingsByUsername, b.name, entry);
      } else {
        push(this.bindingsByUsername, `system:serviceaccount:${b.namespace}:${b.name}`, entry);
        push(this.builtinServiceAccounts, b.namespace!, b);
      }
    }
  }

  private addServiceAccount(ns: string, name: string): void {
    if (!ns || !name) return;
    this.namespaces.add(ns);
    let set = this.serviceAccounts.get(ns);
    if (!set) this.serviceAccounts.set(ns, set = new Set(['default']));
    set.add(name);
  }

  /**
   * The clusterrole-aggregation controller to a fixpoint: every ClusterRole with selectors (of the input or built in)
   * gets the rules of every other ClusterRole one of its selectors matches (several selectors are ORed). Labels never
   * change, so the members are found once; rules only grow, so the loop ends. The role's own rules are kept (the
   * controller replaces them, an over-approximation only until it runs).
   */
  private aggregate(): void {
    const universe: RoleEntry[] = [];
    for (const b of aggregationBuiltins()) {
      // the API server reconciles bootstrap roles: an input role of the same name adds rules, labels and selectors
      const defined = this.roles.get(roleKey('ClusterRole', '', b.name));
      const entry: RoleEntry = {
        kind: 'ClusterRole',
        name: b.name,
        namespace: '',
        rules: [...b.rules, ...(defined?.rules ?? [])],
        labels: { ...b.labels, ...(defined?.labels ?? {}) },
        selectors: [...b.selectors.map((x) => parseLabelSelector(x).requirements), ...(defined?.selectors ?? [])],
        origin: b.benign ? RoleOrigin.BENIGN_BUILT_IN : RoleOrigin.BUILT_IN,
        note: `built-in, ${b.source}`,
      };
      this.builtinClusterRoles.set(b.name, entry);
      universe.push(entry);
    }
    for (const r of this.roles.values()) if (r.kind === 'ClusterRole' && !this.builtinClusterRoles.has(r.name)) universe.push(r);
    const byLabel = new Map<string, RoleEntry[]>();
    for (const r of universe) for (const [k, v] of Object.entries(r.labels)) push(byLabel, `${k}=${v}`, r);
    // a selector with an In requirement only matches roles with one of its key=value labels: the index; others scan
    const candidatesOf = (sel: LabelRequirement[]) => {
      const first = sel.find((x) => x.operator === 'In');
      return first ? first.values.flatMap((v) => byLabel.get(`${first.key}=${v}`) ?? []) : universe;
    };
    const aggregated = universe.filter((r) => r.selectors.length > 0);
    const members = new Map<RoleEntry, RoleEntry[]>();
    for (const r of aggregated) {
      const found = new Set<RoleEntry>();
      for (const sel of r.selectors) {
        for (const c of candidatesOf(sel)) if (c.name !== r.name && selectorMatches(sel, c.labels)) found.add(c);
      }
      members.set(r, [...found].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
    }
    const keys = new Map<RoleEntry, Set<string>>();
    for (const r of aggregated) {
      r.rules = [...r.rules];
      keys.set(r, new Set(r.rules.map((x) => JSON.stringify(x))));
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const r of aggregated) {
        const seen = keys.get(r)!;
        for (const m of members.get(r)!) {
          for (const rule of m.rules) {
            const key = JSON.stringify(rule);
            if (seen.has(key)) continue;
            seen.add(key);
            r.rules.push(rule);
            changed = true;
          }
        }
      }
    }
    // input roles that aggregate others: named in paths; those that pull in built-in roles (directly or through
    // another aggregated role) hold rules no object of the input shows: RoleOrigin.AGGREGATED
    const pullsBuiltin = new Set<RoleEntry>();
    for (let grew = true; grew;) {
      grew = false;
      for (const r of aggregated) {
        if (pullsBuiltin.has(r)) continue;
        if (members.get(r)!.some((m) => this.builtinClusterRoles.has(m.name) || pullsBuiltin.has(m))) {
          pullsBuiltin.add(r);
          grew = true;
        }
      }
    }
    for (const r of aggregated) {
      const found = members.get(r)!;
      if (found.length === 0 || this.builtinClusterRoles.has(r.name)) continue;
      const names = found.map((m) => (this.builtinClusterRoles.has(m.name) ? `${m.name} (built-in)` : m.name));
      const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
      const aggregatedEntry: RoleEntry = {
        ...r,
        origin: pullsBuiltin.has(r) ? RoleOrigin.AGGREGATED : r.origin,
        note: `${r.note}; aggregationRule ${r.selectors.map((x) => formatLabelSelector(x)).join(' or ')} aggregates ${shown}`,
      };
      this.roles.set(roleKey('ClusterRole', '', r.name), aggregatedEntry);
    }
  }

  /** The role a binding refers to, with its rules: defined, built-in or unknown (unbounded in the scope). */
  private resolveRole(kind: string, name: string, bindingNamespace: string): RoleEntry {
    const ns = kind === 'Role' ? bindingNamespace : '';
    const builtin = findBuiltin(kind, name, ns);
    const defined = this.roles.get(roleKey(kind, ns, name));
    // a RoleBinding grants the role's rules in its namespace only: never non-resource URLs (RBAC authorizer)
    const scoped = (rules: PolicyRule[]) => (bindingNamespace === '' ? rules : rules.filter((r) => (r.nonResourceUrls ?? []).length === 0));
    const aggregating = kind === 'ClusterRole' ? this.builtinClusterRoles.get(name) : undefined;
    if (aggregating) return { ...aggregating, rules: scoped(aggregating.rules) };
    const named = kind === 'ClusterRole' && !builtin && !defined ? this.builtinNameRoles.get(name) : undefined;
    if (named) {
      return { kind, name, namespace: '', rules: scoped(named.rules), labels: {}, selectors: [], origin: RoleOrigin.BUILT_IN, note: `built-in, ${named.upstream}` };
    }
    if (builtin) {
      // the API server reconciles bootstrap roles: the well-known rules hold whatever the App writes under that name
      return {
        kind,
        name,
        namespace: ns,
        rules: scoped([...builtin.rules, ...(defined?.rules ?? [])]),
        labels: {},
        selectors: [],
        origin: builtin.benign ? RoleOrigin.BENIGN_BUILT_IN : RoleOrigin.BUILT_IN,
        note: `built-in, ${builtin.source}`,
      };
    }
    if (defined) return bindingNamespace === '' ? defined : { ...defined, rules: scoped(defined.rules) };
    return {
      kind,
      name,
      namespace: ns,
      rules: kind === 'Role' || bindingNamespace !== '' ? NAMESPACE_ADMIN_RULES : CLUSTER_ADMIN_RULES,
      labels: {},
      selectors: [],
      origin: RoleOrigin.UNKNOWN,
      note: 'defined nowhere in the App: counted as unbounded',
    };
  }

  // ---- closure -----------------------------------------------------------------------------------------------

  private closure(label: string): SubjectPower {
    const identities = new Map<string, string[]>([[label, [label]]]);
    const grants: PowerGrant[] = [];
    const grantKeys = new Set<string>();
    const queue: string[] = [label];
    let unbounded = false;
    const addGrant = (g: PowerGrant) => {
      const key = JSON.stringify([g.namespace, g.roleKind, g.roleName, g.roleOrigin]);
      if (grantKeys.has(key)) return false;
      grantKeys.add(key);
      grants.push(g);
      if (g.namespace === '' && everything(g.rules)) unbounded = true;
      return true;
    };
    const addIdentity = (id: string, path: string[]) => {
      if (identities.has(id)) return false;
      identities.set(id, path);
      queue.push(id);
      return true;
    };
    // pods whose process the subject runs in (an operator's own pods; those it execs into), with the path there
    const entered = new Map<PodEntry, string[]>();
    const own = /^ServiceAccount ([^/]*)\/(.*)$/.exec(label);
    for (const pod of own ? this.pods.get(own[1]) ?? [] : []) {
      if (pod.serviceAccount === own![2] && pod.secretRefs.length > 0) entered.set(pod, [label, `runs in ${pod.what}`]);
    }

    for (let round = 0; round < 1000; round++) {
      // 1. direct grants of every identity reached so far
      while (queue.length > 0) {
        const id = queue.shift()!;
        const path = identities.get(id)!;
        if (id === ANY_IDENTITY) {
          addGrant({ namespace: '', rules: CLUSTER_ADMIN_RULES, roleKind: 'ClusterRole', roleName: 'cluster-admin', roleOrigin: RoleOrigin.BUILT_IN, holder: ANY_IDENTITY, path: [...path, 'ClusterRole cluster-admin (any identity can be cluster-admin)'], direct: false });
          continue;
        }
        // an identity Kubernetes or OLM empowers by name, whose power its rules alone do not show the model
        const named = id !== label ? BUILTIN_EVERYTHING.get(id) : undefined;
        if (named) addIdentity(ANY_IDENTITY, [...path, `${named.what} (built-in): ${named.why}`, ANY_IDENTITY]);
        for (const b of this.bindingsOf(id)) {
          const role = this.resolveRole(b.roleKind, b.roleName, b.namespace);
          addGrant({
            namespace: b.namespace,
            rules: role.rules,
            roleKind: role.kind,
            roleName: role.name,
            roleOrigin: role.origin,
            holder: id,
            path: [...path, `${b.kind} ${b.namespace ? `${b.namespace}/` : ''}${b.name} (${b.note})`, `${role.kind} ${role.namespace ? `${role.namespace}/` : ''}${role.name} (${role.note})`],
            direct: id === label,
          });
        }
      }
      if (unbounded) break;
      // 2. what the grants so far allow: more identities, bindable roles, escalate
      const before = grants.length + identities.size;
      this.expand(label, identities, grants, addGrant, addIdentity, entered);
      if (grants.length + identities.size === before && queue.length === 0) break;
    }
    return {
      subject: label,
      identities: [...identities.entries()].map(([identity, path]) => ({ identity, path })),
      grants,
      unbounded,
    };
  }

  /**
   * Bindings of an identity: those with a subject that applies to the user it authenticates as (`userOfLabel`: a
   * ServiceAccount's user name and groups, `system:authenticated`), as `SubjectMatcher.appliesToUser` decides.
   */
  private bindingsOf(id: string): BindingEntry[] {
    const user = userOfLabel(id);
    const out = user.name === undefined ? [] : [...(this.bindingsByUsername.get(user.name) ?? [])];
    for (const g of user.groups) out.push(...(this.bindingsByGroup.get(g) ?? []));
    return out;
  }

  /**
   * The ways to become ServiceAccount `ns/sa` with the grants of `scope` (those of namespace `ns` and cluster-wide):
   * a TokenRequest, impersonation, a token Secret created for it and read back, a pod-creating write
   * (`mechanisms/deputies.ts` rows of effect ANY_SERVICE_ACCOUNT: pods, the workload controllers, OLM's CSV
   * Deployments), the template of a workload that runs there or of an object its controller made for one
   * (TEMPLATE, CHILD_TEMPLATE rows). The first found is the path.
   */
  private becomeServiceAccount(ns: string, sa: string, scope: PowerGrant[], addIdentity: (id: string, path: string[]) => boolean): void {
    const id = `ServiceAccount ${ns}/${sa}`;
    const grantFor = (req: ResourceRequest) => scope.find((g) => ruleAllows(g.rules, req));
    const via = (g: PowerGrant, step: string) => [...g.path, step, id];
    let g = grantFor({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: sa });
    if (g) {
      addIdentity(id, via(g, `create serviceaccounts/token for ${ns}/${sa}`));
      return;
    }
    g = grantFor({ verb: 'impersonate', resource: 'serviceaccounts', name: sa });
    if (g) {
      addIdentity(id, via(g, `impersonate ServiceAccount ${ns}/${sa}`));
      return;
    }
    // a Secret of type kubernetes.io/service-account-token annotated with the ServiceAccount's name gets its token
    // from the token controller (`pkg/controller/serviceaccount/tokens_controller.go`): create one under a name the
    // identity may read back (a verb whose response carries the Secret, of any name or one it lists)
    g = grantFor({ verb: 'create', resource: 'secrets' });
    if (g && scope.some((x) => STORED_READ_VERBS.some((verb) => (verb === 'deletecollection'
      ? ruleAllows(x.rules, { verb, resource: 'secrets', name: '' })
      : someNameAllows(x.rules, { verb, resource: 'secrets' }))))) {
      addIdentity(id, via(g, `create secret in ${ns} of type kubernetes.io/service-account-token for ServiceAccount ${sa}, then read it`));
      return;
    }
    for (const [group, resource, row] of POD_CREATING) {
      if (row.id === 'olm-csv' && !this.operatorGroupSelects(ns)) continue;
      const names = row.names === DeputyNames.CREATE ? [''] : [PROBE_NAME, ...(this.csvs.get(ns) ?? [])];
      for (const verb of row.verbs) {
        for (const name of verb === 'create' ? [''] : names) {
          g = grantFor({ verb, apiGroup: group, resource, name });
          if (!g) continue;
          const step = row.id === 'olm-csv'
            ? `${verb} clusterserviceversions.${group}${name && name !== PROBE_NAME ? ` ${ns}/${name}` : ''} in ${ns}: olm-operator runs its spec.install Deployments as ServiceAccount ${sa}`
            : `create ${resource}${group ? `.${group}` : ''} in ${ns} running as ServiceAccount ${sa}`;
          addIdentity(id, via(g, step));
          return;
        }
      }
    }
    // changing the pod template of a workload that exists: its controller reruns the pods as `sa`
    for (const pod of this.pods.get(ns) ?? []) {
      const workload = TEMPLATE_WORKLOADS.get(pod.kind);
      if (!workload) continue;
      const [group, resource] = workload;
      for (const verb of TEMPLATE_VERBS) {
        g = grantFor({ verb, apiGroup: group, resource, name: pod.name });
        if (g) {
          addIdentity(id, via(g, `${verb} ${resource}${group ? `.${group}` : ''} ${pod.what} to run as ServiceAccount ${sa}`));
          return;
        }
      }
    }
    // the same for an object the workload's controller made (a generated name: rules of any name)
    for (const [parent, group, resource] of CHILD_TEMPLATES) {
      const owner = (this.pods.get(ns) ?? []).find((p) => p.kind === parent);
      if (!owner) continue;
      for (const verb of TEMPLATE_VERBS) {
        g = grantFor({ verb, apiGroup: group, resource, name: PROBE_NAME });
        if (g) {
          addIdentity(id, via(g, `${verb} ${resource}.${group} of ${owner.what} (its controller makes pods from their template) to run as ServiceAccount ${sa}`));
          return;
        }
      }
    }
  }

  /** Whether one of the identities is bound to rules (not a benign built-in role) cluster-wide or outside namespace `ns`. */
  private holdsBeyond(ids: string[], ns: string): boolean {
    return ids.some((id) => this.bindingsOf(id).some((b) => (b.namespace === '' || b.namespace !== ns)
      && this.resolveRole(b.roleKind, b.roleName, b.namespace).origin !== RoleOrigin.BENIGN_BUILT_IN));
  }

  /** Whether an OperatorGroup selects namespace `ns` for OLM: one of the input there, or a global one of every cluster. */
  private operatorGroupSelects(ns: string): boolean {
    return this.operatorGroups.has(ns) || GLOBAL_OPERATOR_GROUP_NAMESPACES.some(([g]) => g === ns);
  }

  /**
   * The controllers that act for a writer with more than the writer holds (`mechanisms/deputies.ts`): cluster-admin
   * clients (operator-controller), OLM's InstallPlan steps, the operator that reconciles a custom resource.
   */
  private expandDeputies(
    subject: string,
    identities: Map<string, string[]>,
    byScope: Map<string, PowerGrant[]>,
    clusterGrants: PowerGrant[],
    namespaces: Set<string>,
    addGrant: (g: PowerGrant) => boolean,
    addIdentity: (id: string, path: string[]) => boolean,
  ): void {
    const clusterAdmin = (path: string[], step: string, who: string, row: DeputyRow) => addGrant({
      namespace: '',
      rules: CLUSTER_ADMIN_RULES,
      roleKind: 'ClusterRole',
      roleName: 'cluster-admin',
      roleOrigin: RoleOrigin.BUILT_IN,
      holder: subject,
      path: [...path, step, `ClusterRole cluster-admin (${who})`],
      direct: false,
      deputy: row.id,
    });
    // cluster-admin clients: what is written is applied as cluster-admin; the kinds are cluster-scoped, so only
    // cluster-wide grants count. A ClusterExtension writer whose groups a team guardrail checks installs only what it admits.
    for (const row of CLUSTER_ADMIN_ROWS) {
      let found: { g: PowerGrant; verb: string; resource: string } | undefined;
      for (const resource of row.resources) {
        for (const g of clusterGrants) {
          if (resource === 'clusterextensions' && this.guardedFor(g.holder)) continue;
          // a create request has no name: resourceNames never allow it (RBAC)
          const verb = row.verbs.find((v) => (v === 'create'
            ? ruleAllows(g.rules, { verb: v, apiGroup: row.group, resource, name: '' })
            : someNameAllows(g.rules, { verb: v, apiGroup: row.group, resource })));
          if (verb) {
            found = { g, verb, resource };
            break;
          }
        }
        if (found) break;
      }
      if (!found) continue;
      const step = row.id === 'olm-v1-object-sets'
        ? `${found.verb} clusterobjectsets.${row.group} (operator-controller applies their objects as cluster-admin)`
        : `${found.verb} ${found.resource}.${row.group} (operator-controller installs any package of any catalog as cluster-admin)`;
      clusterAdmin(found.g.path, step, 'operator-controller\'s client', row);
    }
    // OLM executes the steps of an InstallPlan's status.plan with the namespace's OperatorGroup ServiceAccount, or with
    // its own cluster-admin client in a group without one (the global groups of every cluster among them)
    for (const row of OPERATOR_GROUP_ROWS) {
      const candidates = [...new Set([...namespaces, ...(clusterGrants.length > 0 ? GLOBAL_OPERATOR_GROUP_NAMESPACES.map(([n]) => n) : [])])].sort();
      for (const ns of candidates) {
        if (!this.operatorGroupSelects(ns)) continue;
        const scope = [...(byScope.get(ns) ?? []), ...clusterGrants];
        let found: { g: PowerGrant; verb: string } | undefined;
        for (const resource of row.resources) {
          const [res, sub] = resource.split('/');
          for (const verb of row.verbs) {
            const g = scope.find((x) => someNameAllows(x.rules, { verb, apiGroup: row.group, resource: res, subresource: sub }));
            if (g) {
              found = { g, verb };
              break;
            }
          }
          if (found) break;
        }
        if (!found) continue;
        const sa = this.operatorGroups.get(ns) ?? '';
        const step = `${found.verb} installplans/status in ${ns}: catalog-operator executes the steps of status.plan as `;
        if (sa === '') {
          clusterAdmin(found.g.path, `${step}its own client (the OperatorGroup of ${ns} names no ServiceAccount)`, 'OLM\'s client', row);
        } else {
          const id = `ServiceAccount ${ns}/${sa}`;
          if (!identities.has(id)) addIdentity(id, [...found.g.path, `${step}the OperatorGroup's ServiceAccount ${sa}`, id]);
        }
      }
    }
    // the operator that reconciles a custom resource acts on it with its own ServiceAccounts: a writer of the resource
    // in a namespace the operator watches may have it act. Counted where the operator holds more than that namespace
    // (rules cluster-wide or in another namespace): within the namespace, what it does for a writer stays there.
    for (const op of this.reconcilers) {
      const ids = op.serviceAccounts.map((sa) => `ServiceAccount ${op.namespace}/${sa}`);
      if (ids.every((id) => identities.has(id))) continue;
      const scopes = op.watched.length === 0 ? ['', ...[...byScope.keys()].filter((n) => n !== '')] : op.watched;
      let found: { g: PowerGrant; verb: string; crd: string; ns: string } | undefined;
      for (const ns of scopes) {
        if (!this.holdsBeyond(ids, ns === '' ? op.namespace : ns)) continue;
        const scope = ns === '' ? clusterGrants : [...(byScope.get(ns) ?? []), ...clusterGrants];
        for (const [group, plural, crd] of op.owned) {
          for (const verb of RECONCILER_VERBS) {
            const g = scope.find((x) => (verb === 'create'
              ? ruleAllows(x.rules, { verb, apiGroup: group, resource: plural, name: '' })
              : someNameAllows(x.rules, { verb, apiGroup: group, resource: plural })));
            if (g) {
              found = { g, verb, crd, ns };
              break;
            }
          }
          if (found) break;
        }
        if (found) break;
      }
      if (!found) continue;
      for (const id of ids) {
        if (identities.has(id)) continue;
        addIdentity(id, [...found.g.path, `${found.verb} ${found.crd} ${found.ns ? `in ${found.ns}` : 'in every namespace'}: `
          + `its operator (${op.what}) acts on it as ${id}`, id]);
      }
    }
  }

  /**
   * Impersonation (`staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/mode.go`): legacy `impersonate` on
   * users and groups (core group), and constrained impersonation: `impersonate:<mode>` on `authentication.k8s.io`
   * users, groups, serviceaccounts or nodes, for the requests the verb `impersonate-on:<mode>:<verb>` allows on their
   * resource. A node identity (`system:node:<name>` in `system:nodes`) is every identity: the node authorizer hands
   * it the tokens of its pods' ServiceAccounts, and the model cannot tell which pods a node runs.
   */
  private expandImpersonation(
    identities: Map<string, string[]>,
    byScope: Map<string, PowerGrant[]>,
    clusterGrants: PowerGrant[],
    addGrant: (g: PowerGrant) => boolean,
    addIdentity: (id: string, path: string[]) => boolean,
  ): void {
    if (identities.has(ANY_IDENTITY)) return;
    const nodeStep = `${NODE_USER_PREFIX}<name> in ${NODES_GROUP}: the node authorizer hands it the tokens of the ServiceAccounts of its pods (${NODE_AUTHORIZER}), OLM's cluster-admin operators among them`;
    // legacy: named users and groups become identities, any name is any identity; a node user needs the nodes group too
    const legacyGroup = clusterGrants.find((g) => ruleAllows(g.rules, { verb: 'impersonate', resource: 'groups', name: NODES_GROUP }));
    for (const [resource, kind] of [['users', 'User'], ['groups', 'Group']]) {
      for (const g of clusterGrants) {
        if (ruleAllows(g.rules, { verb: 'impersonate', resource, name: PROBE_NAME })) {
          addIdentity(ANY_IDENTITY, [...g.path, `impersonate any ${kind}`, ANY_IDENTITY]);
          continue;
        }
        for (const r of g.rules) {
          for (const n of r.resourceNames ?? []) {
            if (!ruleAllows([r], { verb: 'impersonate', resource, name: n })) continue;
            if (kind === 'User' && n.startsWith(NODE_USER_PREFIX) && legacyGroup) {
              addIdentity(ANY_IDENTITY, [...g.path, `impersonate User ${n} with Group ${NODES_GROUP} (${legacyGroup.roleKind} ${legacyGroup.roleName}): ${nodeStep}`, ANY_IDENTITY]);
              continue;
            }
            // a user named system:serviceaccount:<ns>:<name> is that ServiceAccount (subjectLabel)
            const id = subjectLabel({ kind: kind === 'User' ? SubjectKind.USER : SubjectKind.GROUP, name: n });
            addIdentity(id, [...g.path, `impersonate ${kind} ${n}`, id]);
          }
        }
      }
    }
    // constrained: the requests each mode may make (impersonate-on:<mode>:<verb> rules, as rules of <verb>)
    const all = [...byScope.values()].flat();
    for (const mode of CONSTRAINED_MODES) {
      const on = impersonateOnGrants(all, mode);
      if (on.length === 0) continue;
      const verb = `impersonate:${mode}`;
      const onText = `impersonate-on:${mode}:<verb> (${on[0].grant.roleKind} ${on[0].grant.roleName})`;
      if (mode === 'associated-node' || mode === 'arbitrary-node') {
        // the node authorizer's power: tokens of its pods' ServiceAccounts, and the Secrets they mount
        const tokens = on.find((o) => ruleAllows(o.rules, { verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: PROBE_NAME })
          || ruleAllows(o.rules, { verb: 'get', resource: 'secrets', name: PROBE_NAME }));
        if (!tokens) continue;
        // associated-node: the requester is a ServiceAccount whose pod-bound token names its node (any node of the
        // cluster); arbitrary-node: a node by name or any
        const g = mode === 'associated-node'
          ? (this.hasPods(identities) ? clusterGrants.find((x) => ruleAllows(x.rules, { verb, apiGroup: AUTHN, resource: 'nodes', name: '*' })) : undefined)
          : clusterGrants.find((x) => someNameAllows(x.rules, { verb, apiGroup: AUTHN, resource: 'nodes' }));
        if (g) addIdentity(ANY_IDENTITY, [...g.path, `${verb} on nodes with ${onText}: ${nodeStep}`, ANY_IDENTITY]);
        continue;
      }
      const targets: Array<{ id: string; g: PowerGrant; what: string }> = [];
      if (mode === 'serviceaccount') {
        for (const ns of [...new Set([...this.serviceAccounts.keys(), ...this.builtinServiceAccounts.keys()])].sort()) {
          const scope = [...(byScope.get(ns) ?? []), ...clusterGrants];
          const names = [...(this.serviceAccounts.get(ns) ?? []), ...(this.builtinServiceAccounts.get(ns) ?? []).map((b) => b.name)];
          for (const sa of [...new Set(names)].sort()) {
            const g = scope.find((x) => ruleAllows(x.rules, { verb, apiGroup: AUTHN, resource: 'serviceaccounts', name: sa }));
            if (g) targets.push({ id: `ServiceAccount ${ns}/${sa}`, g, what: `ServiceAccount ${ns}/${sa}` });
          }
        }
      } else {
        for (const g of clusterGrants) {
          if (ruleAllows(g.rules, { verb, apiGroup: AUTHN, resource: 'users', name: PROBE_NAME })) {
            // any user (and so users bound to anything): the impersonate-on requests themselves
            for (const o of on) {
              addGrant({
                ...o.grant,
                rules: o.rules,
                roleName: `${o.grant.roleName} (impersonate-on:${mode}, as any user)`,
                roleOrigin: RoleOrigin.UNKNOWN,
                path: [...g.path, `${verb} on any user with impersonate-on:${mode}:<verb> (${o.grant.roleKind} ${o.grant.roleName}): those requests as a user who may make them`],
                direct: false,
              });
            }
            continue;
          }
          for (const r of g.rules) {
            for (const n of r.resourceNames ?? []) {
              // user-info impersonates neither nodes nor ServiceAccounts (their own modes), nor the group system:masters
              if (n.startsWith(NODE_USER_PREFIX) || splitUsername(n)) continue;
              if (ruleAllows([r], { verb, apiGroup: AUTHN, resource: 'users', name: n })) targets.push({ id: `User ${n}`, g, what: `User ${n}` });
            }
          }
        }
      }
      for (const t of targets) {
        if (identities.has(t.id)) continue;
        for (const b of this.bindingsOf(t.id)) {
          const role = this.resolveRole(b.roleKind, b.roleName, b.namespace);
          for (const o of on) {
            if (o.grant.namespace !== '' && b.namespace !== '' && o.grant.namespace !== b.namespace) continue;
            const namespace = b.namespace !== '' ? b.namespace : o.grant.namespace;
            const rules = intersectRules(role.rules, o.rules, namespace !== '');
            if (rules.length === 0) continue;
            addGrant({
              namespace,
              rules,
              roleKind: role.kind,
              roleName: `${role.name} (as ${t.what}, impersonate-on:${mode})`,
              roleOrigin: role.origin,
              holder: t.id,
              path: [...t.g.path, `${verb} ${t.what} with ${onText}`, `${b.kind} ${b.namespace ? `${b.namespace}/` : ''}${b.name} (${b.note})`,
                `${role.kind} ${role.namespace ? `${role.namespace}/` : ''}${role.name} (${role.note}), only the requests impersonate-on allows`],
              direct: false,
            });
          }
        }
      }
    }
  }

  /** Whether an identity reached is the ServiceAccount of a pod (a pod-bound token names the pod's node). */
  private hasPods(identities: Map<string, string[]>): boolean {
    for (const id of identities.keys()) {
      const sa = /^ServiceAccount ([^/]*)\/(.*)$/.exec(id);
      if (sa && (this.pods.get(sa[1]) ?? []).some((p) => p.serviceAccount === sa[2])) return true;
    }
    return false;
  }

  private expand(
    subject: string,
    identities: Map<string, string[]>,
    grants: PowerGrant[],
    addGrant: (g: PowerGrant) => boolean,
    addIdentity: (id: string, path: string[]) => boolean,
    entered: Map<PodEntry, string[]>,
  ): void {
    // rules per scope, with the grant that gives each rule (for paths)
    const byScope = new Map<string, PowerGrant[]>();
    for (const g of grants) push(byScope, g.namespace, g);
    const clusterGrants = byScope.get('') ?? [];
    const namespaces = new Set<string>([...byScope.keys()].filter((n) => n !== ''));
    if (clusterGrants.length > 0) for (const n of this.namespaces) namespaces.add(n);
    const grantFor = (scopeGrants: PowerGrant[], req: ResourceRequest): PowerGrant | undefined =>
      scopeGrants.find((g) => ruleAllows(g.rules, req));

    // identities; the namespaces of the identities empowered by name too, when a cluster-wide rule names one of them
    const identityNamespaces = new Set(namespaces);
    for (const [ns, names] of this.builtinServiceAccounts) {
      const named = (n: string) => names.some((b) => b.name === n);
      if (clusterGrants.some((g) => g.rules.some((r) => (r.resourceNames ?? []).some(named)))) identityNamespaces.add(ns);
    }
    for (const ns of [...identityNamespaces].sort()) {
      const scope = [...(byScope.get(ns) ?? []), ...clusterGrants];
      const via = (g: PowerGrant, step: string) => [...g.path, step];
      for (const [secret, sa] of [...(this.tokenSecrets.get(ns)?.entries() ?? [])].sort()) {
        const id = `ServiceAccount ${ns}/${sa}`;
        if (identities.has(id)) continue;
        // every verb whose response carries the stored Secret reads it (`mechanisms/verb-responses.ts`: get, a list or
        // watch with the field selector metadata.name=<secret>, a patch or a delete, dryRun=All making either harmless)
        for (const verb of NAMED_READ_VERBS) {
          const g = grantFor(scope, { verb, resource: 'secrets', name: secret });
          if (g) {
            addIdentity(id, via(g, `${verb} secret ${ns}/${secret} (token of ${id})`).concat(id));
            break;
          }
        }
        if (identities.has(id)) continue;
        // deletecollection carries no name, and returns every Secret it deletes
        const g = grantFor(scope, { verb: 'deletecollection', resource: 'secrets', name: '' });
        if (g) addIdentity(id, via(g, `deletecollection secrets in ${ns} (returns the token Secret ${secret} of ${id})`).concat(id));
      }
      const sas = [...(this.serviceAccounts.get(ns) ?? [])].sort();
      for (const sa of sas) {
        const id = `ServiceAccount ${ns}/${sa}`;
        if (identities.has(id)) continue;
        this.becomeServiceAccount(ns, sa, scope, addIdentity);
      }
      // the ServiceAccounts Kubernetes and OLM run in their own namespaces: through grants in that namespace, or by name
      for (const b of this.builtinServiceAccounts.get(ns) ?? []) {
        const id = `ServiceAccount ${ns}/${b.name}`;
        if (identities.has(id)) continue;
        const named = clusterGrants.map((g) => ({ ...g, rules: g.rules.filter((r) => (r.resourceNames ?? []).includes(b.name)) }))
          .filter((g) => g.rules.length > 0);
        this.becomeServiceAccount(ns, b.name, [...(byScope.get(ns) ?? []), ...named], addIdentity);
      }
      for (const pod of this.pods.get(ns) ?? []) {
        const id = `ServiceAccount ${ns}/${pod.serviceAccount}`;
        // a pod whose process holds tokens of other identities is entered even when its own identity is reached
        if (identities.has(id) && (pod.secretRefs.length === 0 || entered.has(pod))) continue;
        for (const [subresource, verb] of POD_ENTRIES) {
          const g = grantFor(scope, { verb, resource: 'pods', subresource, name: pod.podName });
          if (g) {
            const step = subresource ? `${verb} pods/${subresource} into ${pod.what}` : `${verb} the pods of ${pod.what} with another image`;
            const path = via(g, `${step} (runs as ${pod.serviceAccount})`);
            if (!entered.has(pod)) entered.set(pod, path);
            addIdentity(id, path.concat(id));
            break;
          }
        }
      }
    }
    // the kubelet API (exec, attach, run in any pod of the node) is authorized as nodes/proxy with the HTTP method's
    // verb (`pkg/kubelet/server/auth.go` GetRequestAttributes): every pod of the input runs on some node
    const nodeProxy = clusterGrants.flatMap((g) => ['create', 'get'].map((verb) => ({ g, verb })))
      .find(({ g, verb }) => someNameAllows(g.rules, { verb, resource: 'nodes', subresource: 'proxy' }));
    if (nodeProxy) {
      for (const ns of [...this.pods.keys()].sort()) {
        for (const pod of this.pods.get(ns)!) {
          const id = `ServiceAccount ${ns}/${pod.serviceAccount}`;
          if (identities.has(id) && (pod.secretRefs.length === 0 || entered.has(pod))) continue;
          const path = [...nodeProxy.g.path, `${nodeProxy.verb} nodes/proxy (kubelet exec into ${pod.what}, runs as ${pod.serviceAccount})`];
          if (!entered.has(pod)) entered.set(pod, path);
          addIdentity(id, path.concat(id));
        }
      }
    }
    // the kubelet fetches every Secret a pod references: its process holds the tokens of the token Secrets among them
    for (const [pod, path] of [...entered.entries()]) {
      const ns = pod.what.slice(pod.what.indexOf(' ') + 1, pod.what.indexOf('/'));
      for (const secret of pod.secretRefs) {
        const sa = this.tokenSecrets.get(ns)?.get(secret);
        if (sa === undefined) continue;
        const id = `ServiceAccount ${ns}/${sa}`;
        addIdentity(id, [...path, `${pod.what} mounts Secret ${ns}/${secret} (token of ${id}; the kubelet fetches it)`, id]);
      }
    }
    this.expandDeputies(subject, identities, byScope, clusterGrants, namespaces, addGrant, addIdentity);
    this.expandImpersonation(identities, byScope, clusterGrants, addGrant, addIdentity);

    // named RBAC objects: escalate is authorized on the request's object name (RoleEscalationAuthorized), so
    // escalate + update/patch on a role by name rewrites that role to anything; updating a named binding with bind
    // on its role adds a subject to it (BindingAuthorized on the binding's roleRef)
    const rbacWrites = (resource: string) => grants.some((g) => ['update', 'patch'].some((verb) => someNameAllows(g.rules, { verb, apiGroup: RBAC, resource })));
    const scopeOf = (ns: string) => (ns === '' ? clusterGrants : [...(byScope.get(ns) ?? []), ...clusterGrants]);
    const everythingIn = (ns: string) => (ns === '' ? CLUSTER_ADMIN_RULES : NAMESPACE_ADMIN_RULES);
    const mayEscalateNamed = grants.some((g) => ['roles', 'clusterroles'].some((resource) => someNameAllows(g.rules, { verb: 'escalate', apiGroup: RBAC, resource })))
      && (rbacWrites('roles') || rbacWrites('clusterroles'));
    /** The grants that let the subject rewrite role `kind`/`name` (of namespace `roleNs`), if any. */
    const rewrite = (kind: string, name: string, roleNs: string): { esc: PowerGrant; write: PowerGrant; verb: string } | undefined => {
      if (!mayEscalateNamed) return undefined;
      const role = kind === 'ClusterRole' ? this.roles.get(roleKey(kind, '', name)) ?? this.builtinClusterRoles.get(name) : undefined;
      // an aggregated role's rules are the controller's, and changing its aggregationRule needs * on *.*
      // (clusterrole/policybased/storage.go hasAggregationRule): no rewrite
      if (role && role.selectors.length > 0) return undefined;
      const scope = kind === 'ClusterRole' ? clusterGrants : scopeOf(roleNs);
      const resource = kind === 'ClusterRole' ? 'clusterroles' : 'roles';
      const esc = grantFor(scope, { verb: 'escalate', apiGroup: RBAC, resource, name });
      if (!esc) return undefined;
      for (const verb of ['update', 'patch']) {
        const write = grantFor(scope, { verb, apiGroup: RBAC, resource, name });
        if (write) return { esc, write, verb };
      }
      return undefined;
    };
    // bind and escalate, per scope
    for (const ns of ['', ...[...namespaces].sort()]) {
      const scope = ns === '' ? clusterGrants : [...(byScope.get(ns) ?? []), ...clusterGrants];
      if (scope.length === 0) continue;
      const bindingResource = ns === '' ? 'clusterrolebindings' : 'rolebindings';
      const createBinding = grantFor(scope, { verb: 'create', apiGroup: RBAC, resource: bindingResource, name: '' });
      const held = scope.flatMap((g) => g.rules);
      if (createBinding) {
        for (const roleResource of ns === '' ? ['clusterroles'] : ['roles', 'clusterroles']) {
          const roleKind = roleResource === 'roles' ? 'Role' : 'ClusterRole';
          const anyBind = grantFor(scope, { verb: 'bind', apiGroup: RBAC, resource: roleResource, name: PROBE_NAME });
          const candidates: Array<[string, PowerGrant]> = [];
          if (anyBind) candidates.push(['cluster-admin', anyBind]);
          for (const g of scope) {
            for (const r of g.rules) {
              for (const n of r.resourceNames ?? []) {
                if (ruleAllows([r], { verb: 'bind', apiGroup: RBAC, resource: roleResource, name: n })) candidates.push([n, g]);
              }
            }
          }
          for (const [roleName, g] of candidates) {
            if (roleKind === 'Role' && ns === '') continue;
            const role = this.resolveRole(roleKind, roleName, ns);
            // a role it may also rewrite by name gives everything in the binding's scope
            const rw = roleName !== 'cluster-admin' || !anyBind ? rewrite(roleKind, roleName, ns) : undefined;
            const roleRules = rw ? everythingIn(ns) : role.rules;
            if (RbacRules.covers(held, roleRules).covered) continue; // no gain
            const what = anyBind && g === anyBind && roleName === 'cluster-admin' ? `bind any ${roleKind} (e.g. cluster-admin)` : `bind ${roleKind} ${roleName}`;
            addGrant({
              namespace: ns,
              rules: roleRules,
              roleKind,
              roleName: rw ? `${roleName} (rewritten, escalate)` : roleName,
              roleOrigin: rw ? RoleOrigin.ESCALATE : role.origin,
              holder: subject,
              path: [...g.path, `${what} with create ${bindingResource} (${createBinding.roleKind} ${createBinding.roleName})${ns ? ` in ${ns}` : ' cluster-wide'}`,
                `${roleKind} ${role.namespace ? `${role.namespace}/` : ''}${roleName} (${role.note})`],
              direct: false,
            });
          }
        }
      }
      for (const roleResource of ns === '' ? ['clusterroles'] : ['roles', 'clusterroles']) {
        const esc = grantFor(scope, { verb: 'escalate', apiGroup: RBAC, resource: roleResource, name: PROBE_NAME });
        if (!esc) continue;
        // PATCH is authorized as `patch` and then runs the same storage Update, whose escalation check `escalate`
        // passes (`pkg/registry/rbac/role/policybased/storage.go`)
        const write = grantFor(scope, { verb: 'create', apiGroup: RBAC, resource: roleResource, name: '' })
          ?? grantFor(scope, { verb: 'update', apiGroup: RBAC, resource: roleResource, name: PROBE_NAME })
          ?? grantFor(scope, { verb: 'patch', apiGroup: RBAC, resource: roleResource, name: PROBE_NAME });
        if (!write) continue;
        const rules = ns === '' ? CLUSTER_ADMIN_RULES : NAMESPACE_ADMIN_RULES;
        if (RbacRules.covers(held, rules).covered) continue;
        addGrant({
          namespace: ns,
          rules,
          roleKind: ns === '' ? 'ClusterRole' : 'Role',
          roleName: '(any rules, escalate)',
          roleOrigin: RoleOrigin.ESCALATE,
          holder: subject,
          path: [...esc.path, `escalate + write ${roleResource}${ns ? ` in ${ns}` : ' cluster-wide'}`, `any rules ${ns ? `in ${ns}` : 'cluster-wide'} (escalate)`],
          direct: false,
        });
      }
    }
    if (mayEscalateNamed) {
      for (const id of [...identities.keys()]) {
        for (const b of this.bindingsOf(id)) {
          if (b.roleKind !== 'Role' && b.roleKind !== 'ClusterRole') continue;
          const rw = rewrite(b.roleKind, b.roleName, b.namespace);
          if (!rw) continue;
          const rules = everythingIn(b.namespace);
          if (RbacRules.covers(scopeOf(b.namespace).flatMap((g) => g.rules), rules).covered) continue;
          const roleNs = b.roleKind === 'Role' ? `${b.namespace}/` : '';
          addGrant({
            namespace: b.namespace,
            rules,
            roleKind: b.roleKind,
            roleName: `${b.roleName} (rewritten, escalate)`,
            roleOrigin: RoleOrigin.ESCALATE,
            holder: id,
            path: [...rw.esc.path, `escalate + ${rw.verb} ${b.roleKind} ${roleNs}${b.roleName} by name (${rw.write.roleKind} ${rw.write.roleName}): rewrite its rules to *`,
              `${b.kind} ${b.namespace ? `${b.namespace}/` : ''}${b.name} (${b.note}) binds it to ${id}`,
              `any rules ${b.namespace ? `in ${b.namespace}` : 'cluster-wide'} (escalate)`],
            direct: false,
          });
        }
      }
    }
    if (rbacWrites('rolebindings') || rbacWrites('clusterrolebindings')) {
      // only bindings in scopes the subject holds rules in (every scope with cluster-wide grants)
      const scopes = clusterGrants.length > 0 ? [...this.bindingsByNamespace.keys()] : [...byScope.keys()];
      for (const b of scopes.sort().flatMap((ns) => this.bindingsByNamespace.get(ns) ?? [])) {
        if (b.roleKind !== 'Role' && b.roleKind !== 'ClusterRole') continue;
        const scope = scopeOf(b.namespace);
        if (scope.length === 0) continue;
        const resource = b.namespace === '' ? 'clusterrolebindings' : 'rolebindings';
        let upd: { g: PowerGrant; verb: string } | undefined;
        for (const verb of ['update', 'patch']) {
          const g = grantFor(scope, { verb, apiGroup: RBAC, resource, name: b.name });
          if (g) {
            upd = { g, verb };
            break;
          }
        }
        if (!upd) continue;
        const bind = grantFor(scope, { verb: 'bind', apiGroup: RBAC, resource: b.roleKind === 'Role' ? 'roles' : 'clusterroles', name: b.roleName });
        if (!bind) continue; // without bind, only a role the subject already covers: no gain
        const rw = rewrite(b.roleKind, b.roleName, b.namespace);
        const role = this.resolveRole(b.roleKind, b.roleName, b.namespace);
        const rules = rw ? everythingIn(b.namespace) : role.rules;
        if (RbacRules.covers(scope.flatMap((g) => g.rules), rules).covered) continue;
        addGrant({
          namespace: b.namespace,
          rules,
          roleKind: b.roleKind,
          roleName: rw ? `${b.roleName} (rewritten, escalate)` : b.roleName,
          roleOrigin: rw ? RoleOrigin.ESCALATE : role.origin,
          holder: subject,
          path: [...upd.g.path, `${upd.verb} ${b.kind} ${b.namespace ? `${b.namespace}/` : ''}${b.name} by name (${b.note}) to add itself as a subject, `
            + `with bind ${b.roleKind} ${b.roleName} (${bind.roleKind} ${bind.roleName})`, `${role.kind} ${role.namespace ? `${role.namespace}/` : ''}${role.name} (${role.note})`],
          direct: false,
        });
      }
    }
    // a client certificate for any user or group (but system:masters): create a CSR for the
    // kubernetes.io/kube-apiserver-client signer, approve it (the approval subresource, and `approve` on the signer's
    // name or its `kubernetes.io/*` wildcard: plugin/pkg/admission/certificates/approval, IsAuthorizedForSignerName),
    // and kube-controller-manager signs it (pkg/controller/certificates/signer)
    if (!identities.has(ANY_IDENTITY)) {
      const CERTS = 'certificates.k8s.io';
      const create = grantFor(clusterGrants, { verb: 'create', apiGroup: CERTS, resource: 'certificatesigningrequests', name: '' });
      // the CSR's name is the requester's choice: a named approval rule works for that name
      const approval = create && clusterGrants.flatMap((g) => ['update', 'patch'].map((verb) => ({ g, verb })))
        .find(({ g, verb }) => someNameAllows(g.rules, { verb, apiGroup: CERTS, resource: 'certificatesigningrequests', subresource: 'approval' }));
      // the kubelet client signer signs system:node:<name> in system:nodes, for any node the requester names; the node
      // authorizer lets a node create tokens for the ServiceAccounts of the pods bound to it
      // (plugin/pkg/auth/authorizer/node/node_authorizer.go authorizeCreateToken), OLM's cluster-admin operators among them
      const signer = approval && ([KUBE_APISERVER_CLIENT, 'kubernetes.io/*', KUBELET_CLIENT].map((name) => ({
        name, g: grantFor(clusterGrants, { verb: 'approve', apiGroup: CERTS, resource: 'signers', name }),
      })).find((x) => x.g !== undefined));
      // no approval needed: kube-controller-manager's csrapproving controller approves a kubelet client CSR (any node's
      // name) whose requester may create certificatesigningrequests/nodeclient (pkg/controller/certificates/approver/
      // sarapprove.go recognizers: isNodeClientCert); selfnodeclient only renews the requester's own node identity
      const nodeClient = create && !(approval && signer) ? clusterGrants.find((g) => ruleAllows(g.rules, { verb: 'create', apiGroup: CERTS, resource: 'certificatesigningrequests', subresource: 'nodeclient', name: '' })) : undefined;
      if (create && nodeClient) {
        addIdentity(ANY_IDENTITY, [...create.path,
          `create certificatesigningrequests and create certificatesigningrequests/nodeclient (${nodeClient.roleKind} ${nodeClient.roleName}): kube-controller-manager's csrapproving controller approves `
          + 'and signs a client certificate for any node (system:node:<name>), and the node authorizer lets a node create tokens for the ServiceAccounts of the pods bound to it (OLM\'s cluster-admin operators among them)', ANY_IDENTITY]);
      }
      if (create && approval && signer) {
        const signs = signer.name === KUBELET_CLIENT
          ? 'a client certificate for any node (system:node:<name>), and the node authorizer lets a node create tokens for the '
            + 'ServiceAccounts of the pods bound to it (OLM\'s cluster-admin operators among them)'
          : 'a client certificate for any user or group but system:masters';
        addIdentity(ANY_IDENTITY, [...create.path,
          `create certificatesigningrequests, ${approval.verb} certificatesigningrequests/approval (${approval.g.roleKind} ${approval.g.roleName}), `
          + `approve signers ${signer.name} (${signer.g!.roleKind} ${signer.g!.roleName}): kube-controller-manager signs ${signs}`, ANY_IDENTITY]);
      }
    }
  }
}

const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';

function roleKey(kind: string, ns: string, name: string): string {
  return `${kind}/${ns}/${name}`;
}

/**
 * The rules each grant allows a request to impersonate with in constrained mode `mode` (`impersonate-on:<mode>:<verb>`,
 * `impersonation/mode.go` `impersonateOnAttributes`), as rules of `<verb>` (a `*` verb allows every request; RBAC
 * matches verbs exactly, so a literal `impersonate-on:<mode>:*` allows none). Non-resource rules are left out.
 */
function impersonateOnGrants(grants: PowerGrant[], mode: string): Array<{ grant: PowerGrant; rules: PolicyRule[] }> {
  const prefix = `impersonate-on:${mode}:`;
  const out: Array<{ grant: PowerGrant; rules: PolicyRule[] }> = [];
  for (const grant of grants) {
    const rules: PolicyRule[] = [];
    for (const r of grant.rules) {
      if ((r.nonResourceUrls ?? []).length > 0 || (r.resources ?? []).length === 0) continue;
      // a literal `*` after the prefix is no wildcard: no request verb is `*`
      const verbs = (r.verbs ?? []).includes('*') ? ['*'] : (r.verbs ?? []).filter((v) => v.startsWith(prefix)).map((v) => v.slice(prefix.length)).filter((v) => v !== '*');
      if (verbs.length > 0) rules.push({ ...r, verbs });
    }
    if (rules.length > 0) out.push({ grant, rules });
  }
  return out;
}

/**
 * The requests both rule lists allow (pairwise meets: verbs, groups, resources with `*` and `*\/<subresource>`, names),
 * plus the impersonated identity's own rules of the verbs the API server checks for it inside a request (`INNER_VERBS`:
 * bind, escalate, approve...) when any request is allowed. `namespaced`: no non-resource rule.
 */
function intersectRules(roleRules: PolicyRule[], onRules: PolicyRule[], namespaced: boolean): PolicyRule[] {
  const meet = (x: readonly string[], y: readonly string[]) => (x.includes('*') ? [...y] : y.includes('*') ? [...x] : x.filter((v) => y.includes(v)));
  const meetResource = (a: string, b: string): string | undefined => {
    if (a === b || b === '*') return a;
    if (a === '*') return b;
    if (a.startsWith('*/') && !b.startsWith('*/') && b.endsWith(a.slice(1))) return b;
    if (b.startsWith('*/') && !a.startsWith('*/') && a.endsWith(b.slice(1))) return a;
    return undefined;
  };
  const out: PolicyRule[] = [];
  for (const a of roleRules) {
    if ((a.nonResourceUrls ?? []).length > 0 || (a.resources ?? []).length === 0) continue;
    for (const b of onRules) {
      const verbs = meet(a.verbs ?? [], b.verbs ?? []);
      const apiGroups = meet(a.apiGroups ?? [], b.apiGroups ?? []);
      const resources = [...new Set((a.resources ?? []).flatMap((x) => (b.resources ?? []).map((y) => meetResource(x, y))
        .filter((z): z is string => z !== undefined)))];
      const an = a.resourceNames ?? [];
      const bn = b.resourceNames ?? [];
      const names = an.length === 0 ? bn : bn.length === 0 ? an : an.filter((n) => bn.includes(n));
      if (verbs.length === 0 || apiGroups.length === 0 || resources.length === 0 || (an.length > 0 && bn.length > 0 && names.length === 0)) continue;
      out.push({ apiGroups, resources, verbs, ...(names.length > 0 ? { resourceNames: [...names] } : {}) });
    }
  }
  if (out.length === 0) return out;
  for (const a of roleRules) {
    if ((a.nonResourceUrls ?? []).length > 0 && namespaced) continue;
    const verbs = (a.verbs ?? []).includes('*') ? [...INNER_VERBS] : (a.verbs ?? []).filter((v) => INNER_VERBS.has(v));
    if (verbs.length > 0 && (a.resources ?? []).length > 0) out.push({ ...a, verbs });
  }
  return out;
}

/**
 * The Secret names a pod spec references, which the kubelet fetches for the pod (the node authorizer allows exactly
 * these, `plugin/pkg/auth/authorizer/node/graph_populator.go`): secret and projected volumes, `secretKeyRef` and
 * `secretRef` of every container kind, `imagePullSecrets`. Sorted, unique.
 */
function secretRefsOf(podSpec: any): string[] {
  if (podSpec === null || typeof podSpec !== 'object') return [];
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && v !== '') out.add(v);
  };
  const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
  for (const v of list(podSpec.volumes)) {
    add(v?.secret?.secretName);
    for (const src of list(v?.projected?.sources)) add(src?.secret?.name);
  }
  for (const c of [...list(podSpec.containers), ...list(podSpec.initContainers), ...list(podSpec.ephemeralContainers)]) {
    for (const e of list(c?.env)) add(e?.valueFrom?.secretKeyRef?.name);
    for (const e of list(c?.envFrom)) add(e?.secretRef?.name);
  }
  for (const p of list(podSpec.imagePullSecrets)) add(p?.name);
  return [...out].sort();
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `EffectivePower.allows` without its input checks (the closure's probes: rules read with `PolicyRules.fromJson`). */
export function ruleAllows(rules: PolicyRule[], request: ResourceRequest): boolean {
  let resource = request.resource ?? '';
  let sub = request.subresource ?? '';
  if (request.subresource === undefined && resource.includes('/')) {
    sub = resource.slice(resource.indexOf('/') + 1);
    resource = resource.slice(0, resource.indexOf('/'));
  }
  const combined = sub ? `${resource}/${sub}` : resource;
  const group = request.apiGroup ?? '';
  const name = request.name ?? '';
  for (const r of rules) {
    const verbs = r.verbs ?? [];
    if (!verbs.includes('*') && !verbs.includes(request.verb)) continue;
    const groups = r.apiGroups ?? [];
    if (!groups.includes('*') && !groups.includes(group)) continue;
    const resources = r.resources ?? [];
    if (!resources.includes('*') && !resources.includes(combined) && !(sub !== '' && resources.includes(`*/${sub}`))) continue;
    const names = r.resourceNames ?? [];
    if (names.length > 0 && !names.includes(name)) continue;
    return true;
  }
  return false;
}

/** Whether the rules allow the request for some object name (any name, or one the rules list). */
export function someNameAllows(rules: PolicyRule[], request: ResourceRequest): boolean {
  if (ruleAllows(rules, { ...request, name: PROBE_NAME })) return true;
  return rules.some((r) => (r.resourceNames ?? []).some((n) => ruleAllows([r], { ...request, name: n })));
}

/**
 * The selectors of an `aggregationRule` (a ClusterRole's), parsed; an invalid selector (refused by the API server)
 * selects nothing. Not a list: none.
 */
function parseSelectors(aggregationRule: any): LabelRequirement[][] {
  const raw = aggregationRule?.clusterRoleSelectors;
  if (!Array.isArray(raw)) return [];
  return raw.map((x) => parseLabelSelector(x)).filter((x) => x.problems.length === 0).map((x) => x.requirements);
}

/** `EffectivePower.isEverything` without its input checks. */
function everything(rules: PolicyRule[]): boolean {
  return rules.some((r) => (r.verbs ?? []).includes('*') && (r.apiGroups ?? []).includes('*') && (r.resources ?? []).includes('*') && (r.resourceNames ?? []).length === 0);
}

/**
 * `EffectivePower.label` without its input checks (the audit's own subjects). A User whose name is a ServiceAccount's
 * user name (`system:serviceaccount:<ns>:<name>`) is that ServiceAccount: every binding of either applies to both
 * (`SubjectMatcher`), so they are one identity.
 */
export function subjectLabel(subject: RbacSubject): string {
  if (subject.kind === SubjectKind.SERVICE_ACCOUNT) return `ServiceAccount ${subject.namespace ?? ''}/${subject.name}`;
  const sa = subject.kind === SubjectKind.USER ? splitUsername(subject.name) : undefined;
  return sa ? `ServiceAccount ${sa.namespace}/${sa.name}` : `${subject.kind} ${subject.name}`;
}

/**
 * The user an identity label authenticates as: a ServiceAccount's user name and groups, a user's name, a group's
 * unnamed member; each with `system:authenticated` (`SubjectMatcher.serviceAccountUser`, `withAuthenticatedGroup`).
 */
function userOfLabel(label: string): AuthenticatedUser {
  const sa = /^ServiceAccount ([^/]*)\/(.*)$/.exec(label);
  if (sa) return serviceAccountUser(sa[1], sa[2]);
  if (label.startsWith('User ')) return withAuthenticatedGroup({ name: label.slice('User '.length), groups: [] });
  if (label.startsWith('Group ')) return withAuthenticatedGroup({ groups: [label.slice('Group '.length)] });
  return { groups: [] };
}

const ENUMS = { subjectKind: SubjectKind as unknown as { [key: string]: string } };
