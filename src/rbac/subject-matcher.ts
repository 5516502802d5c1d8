/**
 * Which RBAC binding subjects apply to which authenticated identity: Kubernetes' own rules, ported exactly.
 *
 * - `appliesToUser` / `appliesTo`: `pkg/registry/rbac/validation/rule.go` (the RBAC authorizer's subject match; the
 *   same code lives in `staging/src/k8s.io/component-helpers/auth/rbac/validation/rule.go`). A User subject matches
 *   the user name exactly, a Group subject one of the user's groups exactly, a ServiceAccount subject the user name
 *   `system:serviceaccount:<ns>:<name>` where `<ns>` is the subject's namespace or, when empty, the binding's
 *   namespace (a ClusterRoleBinding has none: such a subject never matches). Kinds and names are case-sensitive; any
 *   other kind never matches.
 * - ServiceAccount identities: `staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go`
 *   (`MakeUsername`, `MatchesUsername`, `SplitUsername`, `MakeGroupNames`: groups `system:serviceaccounts` and
 *   `system:serviceaccounts:<ns>`), plus `system:authenticated`, which every authenticated identity but
 *   `system:anonymous` gets (`staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go`).
 *
 * Pure: no constructs. Used by the effective-power audit, the tenants' people grants and the cross-tenant checks.
 */
import { InputCheck, prop, throwIfInvalid } from '../core/input-check';
import { KubernetesNames } from '../core/kubernetes-names';

/** An authenticated identity as the RBAC authorizer sees it (`k8s.io/apiserver/pkg/authentication/user.Info`). */
export interface AuthenticatedUser {
  /**
   * The user name, e.g. `system:serviceaccount:team-a:team-a`.
   * @default - not known (a member of `groups` whose name is not known: no User or ServiceAccount subject matches it)
   */
  readonly name?: string;
  /** The user's groups, e.g. `['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated']`. */
  readonly groups: string[];
}

/** A subject of a RoleBinding or ClusterRoleBinding, as written (`rbac.authorization.k8s.io/v1` `Subject`). */
export interface BindingSubject {
  /** `User`, `Group` or `ServiceAccount` (exact case; anything else matches nobody). */
  readonly kind: string;
  /** The name. */
  readonly name: string;
  /**
   * The ServiceAccount's namespace.
   * @default - the binding's namespace
   */
  readonly namespace?: string;
  /**
   * The API group (not read by the match).
   * @default - none
   */
  readonly apiGroup?: string;
}

/** A ServiceAccount by namespace and name. */
export interface ServiceAccountName {
  /** The namespace. */
  readonly namespace: string;
  /** The ServiceAccount's name. */
  readonly name: string;
}

/** Which ServiceAccounts a binding subject applies to. */
export interface ServiceAccountReach {
  /** True when it applies to every ServiceAccount of every namespace (`system:serviceaccounts`, `system:authenticated`). */
  readonly allNamespaces: boolean;
  /**
   * The one namespace whose ServiceAccounts it applies to (a ServiceAccount subject, a ServiceAccount user name,
   * the group `system:serviceaccounts:<ns>`).
   * @default - none (see `allNamespaces`)
   */
  readonly namespace?: string;
  /**
   * The one ServiceAccount of `namespace` it applies to.
   * @default - every ServiceAccount of `namespace`
   */
  readonly name?: string;
}

const SA_USER_PREFIX = 'system:serviceaccount:';
const SA_SEPARATOR = ':';
const SA_GROUP_PREFIX = 'system:serviceaccounts:';
const ALL_SA_GROUP = 'system:serviceaccounts';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Kubernetes' RBAC subject match and ServiceAccount user names and groups. */
export class SubjectMatcher {
  /** `serviceaccount.ServiceAccountUsernamePrefix`. */
  public static readonly SERVICE_ACCOUNT_USERNAME_PREFIX = SA_USER_PREFIX;
  /** `serviceaccount.ServiceAccountGroupPrefix` (followed by the namespace). */
  public static readonly SERVICE_ACCOUNT_GROUP_PREFIX = SA_GROUP_PREFIX;
  /** `serviceaccount.AllServiceAccountsGroup`: every ServiceAccount of the cluster. */
  public static readonly ALL_SERVICE_ACCOUNTS_GROUP = ALL_SA_GROUP;
  /** `user.AllAuthenticated`: every authenticated identity, ServiceAccounts included. */
  public static readonly ALL_AUTHENTICATED_GROUP = AUTHENTICATED;
  /** `user.AllUnauthenticated`: anonymous requests. */
  public static readonly ALL_UNAUTHENTICATED_GROUP = UNAUTHENTICATED;
  /** `user.Anonymous`: the user of anonymous requests (never given `system:authenticated`). */
  public static readonly ANONYMOUS_USER = ANONYMOUS;

  /** `serviceaccount.MakeUsername`: `system:serviceaccount:<namespace>:<name>`. */
  public static serviceAccountUsername(namespace: string, name: string): string {
    checkStrings('SubjectMatcher.serviceAccountUsername', { namespace, name });
    return makeUsername(namespace, name);
  }

  /** `serviceaccount.MatchesUsername`: whether `username` is the user name of ServiceAccount `namespace`/`name`. */
  public static matchesUsername(namespace: string, name: string, username: string): boolean {
    checkStrings('SubjectMatcher.matchesUsername', { namespace, name, username });
    return matchesUsername(namespace, name, username);
  }

  /**
   * `serviceaccount.SplitUsername`: the ServiceAccount whose user name `username` is, or `undefined` when it is not
   * one (wrong prefix, not exactly two `:`-separated parts, or an invalid namespace or ServiceAccount name).
   */
  public static splitUsername(username: string): ServiceAccountName | undefined {
    checkStrings('SubjectMatcher.splitUsername', { username });
    return splitUsername(username);
  }

  /** `serviceaccount.MakeGroupNames`: `system:serviceaccounts` and `system:serviceaccounts:<namespace>`. */
  public static serviceAccountGroups(namespace: string): string[] {
    checkStrings('SubjectMatcher.serviceAccountGroups', { namespace });
    return makeGroupNames(namespace);
  }

  /**
   * The identity a ServiceAccount's token authenticates as: its user name, its groups and `system:authenticated`
   * (`ServiceAccountInfo.UserInfo`, then the `AuthenticatedGroupAdder`).
   */
  public static serviceAccountUser(namespace: string, name: string): AuthenticatedUser {
    checkStrings('SubjectMatcher.serviceAccountUser', { namespace, name });
    return serviceAccountUser(namespace, name);
  }

  /**
   * `user` after the `AuthenticatedGroupAdder`: `system:authenticated` is added unless the user is
   * `system:anonymous` or already has `system:authenticated` or `system:unauthenticated`.
   */
  public static withAuthenticatedGroup(user: AuthenticatedUser): AuthenticatedUser {
    checkUser('SubjectMatcher.withAuthenticatedGroup', user);
    return withAuthenticatedGroup(user);
  }

  /**
   * `appliesToUser`: whether a binding subject applies to `user`. `namespace` is the binding's namespace (`""` for a
   * ClusterRoleBinding), the default of a ServiceAccount subject without one.
   */
  public static appliesToUser(user: AuthenticatedUser, subject: BindingSubject, namespace: string): boolean {
    const check = new InputCheck();
    userProblems(check, 'user', user);
    subjectProblems(check, 'subject', subject);
    check.requiredString('namespace', namespace, 'pass the binding\'s namespace ("" for a ClusterRoleBinding)', { singleLine: false });
    throwIfInvalid(check, 'SubjectMatcher.appliesToUser');
    return appliesToUser(user, subject, namespace);
  }

  /** `appliesTo`: the index of the first of `subjects` that applies to `user`, or -1 when none does. */
  public static appliesTo(user: AuthenticatedUser, subjects: BindingSubject[], namespace: string): number {
    const check = new InputCheck();
    userProblems(check, 'user', user);
    check.requiredArray('subjects', subjects, (v, f) => (subjectProblems(check, f, v), v), 'pass the binding\'s subjects as a list');
    check.requiredString('namespace', namespace, 'pass the binding\'s namespace ("" for a ClusterRoleBinding)', { singleLine: false });
    throwIfInvalid(check, 'SubjectMatcher.appliesTo');
    return subjects.findIndex((s) => appliesToUser(user, s, namespace));
  }

  /**
   * Which ServiceAccounts a binding subject applies to (in a binding of `namespace`, `""` for a
   * ClusterRoleBinding): every one (groups `system:serviceaccounts`, `system:authenticated`), those of one namespace
   * (group `system:serviceaccounts:<ns>`), or one (a ServiceAccount subject, or a User subject whose name is a
   * ServiceAccount's user name); `undefined` when it applies to none.
   */
  public static serviceAccountReach(subject: BindingSubject, namespace: string): ServiceAccountReach | undefined {
    const check = new InputCheck();
    subjectProblems(check, 'subject', subject);
    check.requiredString('namespace', namespace, 'pass the binding\'s namespace ("" for a ClusterRoleBinding)', { singleLine: false });
    throwIfInvalid(check, 'SubjectMatcher.serviceAccountReach');
    return serviceAccountReach(subject, namespace);
  }

  /**
   * Why the API server refuses a binding subject (`ValidateRoleBindingSubject`, `pkg/apis/rbac/validation/validation.go`),
   * or `undefined` when it accepts it: the kind must be `ServiceAccount`, `User` or `Group` (exact case), the name
   * not empty; a ServiceAccount's name a DNS-1123 subdomain, its apiGroup empty, and its namespace set in a
   * ClusterRoleBinding (`namespaced: false`); a User's or Group's apiGroup `rbac.authorization.k8s.io`.
   */
  public static subjectProblem(subject: BindingSubject, namespaced: boolean): string | undefined {
    const check = new InputCheck();
    subjectProblems(check, 'subject', subject);
    check.optionalBoolean('namespaced', namespaced ?? 0);
    throwIfInvalid(check, 'SubjectMatcher.subjectProblem');
    return subjectProblem(subject, namespaced);
  }

  private constructor() {}
}

// ---- the same without input checks (internal callers pass strings they read) ------------------------------------

/** `serviceaccount.MakeUsername`. */
function makeUsername(namespace: string, name: string): string {
  return SA_USER_PREFIX + namespace + SA_SEPARATOR + name;
}

/** `serviceaccount.MakeGroupNames`. */
function makeGroupNames(namespace: string): string[] {
  return [ALL_SA_GROUP, SA_GROUP_PREFIX + namespace];
}

/**
 * The namespace of a ServiceAccount subject: its own, else the binding's (RoleBindings may name ServiceAccounts of
 * their namespace unqualified; null, as jsii passes an unset optional, is unset too). `""` in a ClusterRoleBinding.
 */
function subjectNamespace(subject: BindingSubject, namespace: string): string {
  return subject.namespace ? subject.namespace : namespace;
}

/** `serviceaccount.MatchesUsername` (prefix, namespace, separator, then the name: no allocation upstream). */
export function matchesUsername(namespace: string, name: string, username: string): boolean {
  if (!username.startsWith(SA_USER_PREFIX)) return false;
  let rest = username.slice(SA_USER_PREFIX.length);
  if (!rest.startsWith(namespace)) return false;
  rest = rest.slice(namespace.length);
  if (!rest.startsWith(SA_SEPARATOR)) return false;
  return rest.slice(SA_SEPARATOR.length) === name;
}

/** `serviceaccount.SplitUsername` (namespace: `ValidateNamespaceName`, a DNS-1123 label; name: a DNS-1123 subdomain). */
export function splitUsername(username: string): ServiceAccountName | undefined {
  if (!username.startsWith(SA_USER_PREFIX)) return undefined;
  const parts = username.slice(SA_USER_PREFIX.length).split(SA_SEPARATOR);
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (!KubernetesNames.isDns1123Label(namespace) || !KubernetesNames.isDns1123Subdomain(name)) return undefined;
  return { namespace, name };
}

export function serviceAccountUser(namespace: string, name: string): AuthenticatedUser {
  return withAuthenticatedGroup({ name: makeUsername(namespace, name), groups: makeGroupNames(namespace) });
}

export function withAuthenticatedGroup(user: AuthenticatedUser): AuthenticatedUser {
  const groups = [...user.groups];
  if (user.name === ANONYMOUS || groups.includes(AUTHENTICATED) || groups.includes(UNAUTHENTICATED)) return { ...user, groups };
  return { ...user, groups: [...groups, AUTHENTICATED] };
}

/** `appliesToUser` of `pkg/registry/rbac/validation/rule.go`. */
export function appliesToUser(user: AuthenticatedUser, subject: BindingSubject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return typeof user.name === 'string' && user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const saNamespace = subjectNamespace(subject, namespace);
      if (saNamespace.length === 0) return false;
      return typeof user.name === 'string' && matchesUsername(saNamespace, subject.name, user.name);
    }
    default:
      return false;
  }
}

/** The user name a subject is matched by (User, ServiceAccount), or `undefined` (Group, unknown kind, no namespace). */
export function usernameOf(subject: BindingSubject, namespace: string): string | undefined {
  if (subject.kind === 'User') return subject.name;
  if (subject.kind !== 'ServiceAccount') return undefined;
  const saNamespace = subjectNamespace(subject, namespace);
  return saNamespace.length === 0 ? undefined : makeUsername(saNamespace, subject.name);
}

export function serviceAccountReach(subject: BindingSubject, namespace: string): ServiceAccountReach | undefined {
  if (subject.kind === 'Group') {
    if (subject.name === ALL_SA_GROUP || subject.name === AUTHENTICATED) return { allNamespaces: true };
    if (subject.name.startsWith(SA_GROUP_PREFIX)) {
      const ns = subject.name.slice(SA_GROUP_PREFIX.length);
      return KubernetesNames.isDns1123Label(ns) ? { allNamespaces: false, namespace: ns } : undefined;
    }
    return undefined;
  }
  const username = usernameOf(subject, namespace);
  const sa = username === undefined ? undefined : splitUsername(username);
  return sa === undefined ? undefined : { allNamespaces: false, namespace: sa.namespace, name: sa.name };
}

/**
 * Every namespace whose ServiceAccount identities a subject may apply to, by `appliesToUser` on the strings alone
 * (no name validation: an App may hold names the API server would refuse, and the audit must still agree with
 * itself): `all` for `system:serviceaccounts` and `system:authenticated`; for a User `system:serviceaccount:<rest>`,
 * every prefix of `<rest>` before a `:` (the user name of ServiceAccount `<ns>`/`<name>` is
 * `system:serviceaccount:<ns>:<name>`). A superset of `serviceAccountReach`'s namespace.
 */
export function serviceAccountNamespaces(subject: BindingSubject, namespace: string): { all: boolean; namespaces: string[] } {
  if (subject.kind === 'Group') {
    if (subject.name === ALL_SA_GROUP || subject.name === AUTHENTICATED) return { all: true, namespaces: [] };
    return { all: false, namespaces: subject.name.startsWith(SA_GROUP_PREFIX) ? [subject.name.slice(SA_GROUP_PREFIX.length)] : [] };
  }
  if (subject.kind === 'ServiceAccount') {
    const saNamespace = subjectNamespace(subject, namespace);
    return { all: false, namespaces: saNamespace.length === 0 ? [] : [saNamespace] };
  }
  if (subject.kind !== 'User' || !subject.name.startsWith(SA_USER_PREFIX)) return { all: false, namespaces: [] };
  const rest = subject.name.slice(SA_USER_PREFIX.length);
  const namespaces: string[] = [];
  for (let i = rest.indexOf(SA_SEPARATOR); i >= 0; i = rest.indexOf(SA_SEPARATOR, i + 1)) namespaces.push(rest.slice(0, i));
  return { all: false, namespaces };
}

/** `SubjectMatcher.subjectProblem` without input checks. */
export function subjectProblem(subject: BindingSubject, namespaced: boolean): string | undefined {
  const problems: string[] = [];
  if (subject.name.length === 0) problems.push('name is required');
  const apiGroup = subject.apiGroup ?? '';
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name.length > 0 && !KubernetesNames.isDns1123Subdomain(subject.name)) problems.push(`ServiceAccount name '${subject.name}' is not a DNS-1123 subdomain`);
      if (apiGroup.length > 0) problems.push(`apiGroup '${apiGroup}' is not supported for a ServiceAccount (only "")`);
      if (!namespaced && (subject.namespace ?? '').length === 0) problems.push('namespace is required for a ServiceAccount in a ClusterRoleBinding');
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) problems.push(`apiGroup '${apiGroup}' is not supported for a ${subject.kind} (only ${RBAC_GROUP})`);
      break;
    default:
      problems.push(`kind '${subject.kind}' is not supported (only ServiceAccount, User, Group, exact case)`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

// ---- input checks ---------------------------------------------------------------------------------------------

function checkStrings(method: string, values: { [key: string]: unknown }): void {
  const check = new InputCheck();
  for (const [field, value] of Object.entries(values)) check.requiredString(field, value, `pass ${field} as a string`, { singleLine: false });
  throwIfInvalid(check, method);
}

function userProblems(check: InputCheck, field: string, value: unknown): void {
  const fix = "pass { name: 'system:serviceaccount:team-a:team-a', groups: ['system:serviceaccounts', 'system:authenticated'] }";
  const u = check.requiredObject(field, value, 'an AuthenticatedUser', fix);
  if (!u) return;
  check.optionalString(`${field}.name`, prop(u, 'name'), { fix, singleLine: false });
  check.requiredArray(`${field}.groups`, prop(u, 'groups'), (v, f) => check.requiredString(f, v, fix, { singleLine: false }), fix);
}

function checkUser(method: string, user: unknown): void {
  const check = new InputCheck();
  userProblems(check, 'user', user);
  throwIfInvalid(check, method);
}

function subjectProblems(check: InputCheck, field: string, value: unknown): void {
  const fix = "pass { kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' } (or kind 'User' / 'Group')";
  const s = check.requiredObject(field, value, 'a BindingSubject', fix);
  if (!s) return;
  check.requiredString(`${field}.kind`, prop(s, 'kind'), fix, { singleLine: false });
  check.requiredString(`${field}.name`, prop(s, 'name'), fix, { singleLine: false });
  check.optionalString(`${field}.namespace`, prop(s, 'namespace'), { fix, singleLine: false });
  check.optionalString(`${field}.apiGroup`, prop(s, 'apiGroup'), { fix, singleLine: false });
}
