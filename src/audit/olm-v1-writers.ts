/**
 * Who may write the OLM v1 APIs that install with cluster-admin: every identity of a set of objects that may create,
 * update or patch (`*` included) `clusterextensions`, `clustercatalogs` or `clusterobjectsets`
 * (`olm.operatorframework.io`), through any binding, built-in or aggregated role, or identity it can become
 * (`EffectivePower`), and which of them no team guardrail (a ValidatingAdmissionPolicy matching request groups, or
 * the user names of the teams' GitOps identities) checks. operator-controller v1.11.0 installs every ClusterExtension as cluster-admin, so such a writer installs any
 * package of any ClusterCatalog with cluster-admin. Internal: not re-exported.
 */
import { EffectivePower, PowerObject, RbacSubject, SubjectKind, someNameAllows, subjectLabel } from './effective-power';
import { serviceAccountUser, withAuthenticatedGroup } from '../rbac/subject-matcher';

/** The resources of `olm.operatorframework.io` whose writers install with cluster-admin. */
export const OLM_V1_WRITE_RESOURCES = ['clusterextensions', 'clustercatalogs', 'clusterobjectsets'];
const VERBS = ['create', 'update', 'patch'];
const GROUP = 'olm.operatorframework.io';

/** One identity that writes OLM v1 APIs unchecked. */
export interface OlmV1UnfencedWriter {
  /** The identity whose requests write (a bound subject, or one it can become), e.g. `User alice`. */
  readonly identity: string;
  /** The bound subjects that reach it (itself, or those that can become it), sorted. */
  readonly via: string[];
  /** What it writes unchecked, e.g. `clusterextensions (create, patch, update)`. */
  readonly writes: string[];
  /** The path of the first grant found, from the subject to the role. */
  readonly path: string[];
}

/** The groups requests of the identity with this label certainly carry (what a group-matching policy sees). */
function groupsOf(label: string): string[] {
  const sa = /^ServiceAccount ([^/]*)\/(.*)$/.exec(label);
  if (sa) return serviceAccountUser(sa[1], sa[2]).groups;
  if (label.startsWith('User ')) return withAuthenticatedGroup({ name: label.slice('User '.length), groups: [] }).groups;
  if (label.startsWith('Group ')) return withAuthenticatedGroup({ groups: [label.slice('Group '.length)] }).groups;
  return []; // '*': any identity (impersonation of anyone)
}

/** The user name of the identity with this label (a ServiceAccount's or a User's), if it has one. */
function userNameOf(label: string): string | undefined {
  const sa = /^ServiceAccount ([^/]*)\/(.*)$/.exec(label);
  if (sa) return serviceAccountUser(sa[1], sa[2]).name;
  if (label.startsWith('User ')) return label.slice('User '.length);
  return undefined;
}

/** Every subject of every RoleBinding and ClusterRoleBinding of the objects, once, sorted by label. */
function boundSubjects(objects: PowerObject[]): RbacSubject[] {
  const out = new Map<string, RbacSubject>();
  for (const o of objects) {
    const m = o.manifest;
    if (!m || (m.kind !== 'RoleBinding' && m.kind !== 'ClusterRoleBinding') || !Array.isArray(m.subjects)) continue;
    for (const s of m.subjects) {
      if (!s || typeof s.name !== 'string') continue;
      let subject: RbacSubject | undefined;
      if (s.kind === 'Group') {subject = { kind: SubjectKind.GROUP, name: s.name };} else if (s.kind === 'User') {subject = { kind: SubjectKind.USER, name: s.name };} else if (s.kind === 'ServiceAccount') {
        const ns = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : m.kind === 'RoleBinding' ? m.metadata?.namespace : undefined;
        if (typeof ns === 'string' && ns !== '') subject = { kind: SubjectKind.SERVICE_ACCOUNT, name: s.name, namespace: ns };
      }
      if (subject) out.set(subjectLabel(subject), subject);
    }
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

/**
 * The writers of OLM v1 APIs that no guardrail checks: `guardedGroups` are the groups team guardrails match on
 * (they check `clusterextensions` only, so every writer of `clustercatalogs` and `clusterobjectsets` is unchecked).
 * Cluster-scoped resources: only cluster-wide grants (ClusterRoleBindings) count. Sorted by identity.
 */
export function olmV1UnfencedWriters(objects: PowerObject[], guardedGroups: string[], guardedUsernames: string[] = []): OlmV1UnfencedWriter[] {
  // a guarded writer installs only what its guardrail admits: operator-controller's cluster-admin is not its own
  const power = new EffectivePower(objects, { olmV1GuardedGroups: guardedGroups, olmV1GuardedUsernames: guardedUsernames });
  const guarded = new Set(guardedGroups);
  const guardedUsers = new Set(guardedUsernames);
  const found = new Map<string, { via: Set<string>; writes: Map<string, Set<string>>; path: string[] }>();
  for (const subject of boundSubjects(objects)) {
    const label = subjectLabel(subject);
    for (const grant of power._of(subject).grants) {
      // the cluster-admin operator-controller installs a written ClusterExtension or ClusterCatalog with is what this
      // check names, not more writes (a ClusterObjectSet's objects are the writer's choice: every write follows)
      if (grant.namespace !== '' || grant.deputy === 'olm-v1-installs') continue;
      const fencedForExtensions = groupsOf(grant.holder).some((g) => guarded.has(g)) || guardedUsers.has(userNameOf(grant.holder) ?? '');
      for (const resource of OLM_V1_WRITE_RESOURCES) {
        if (resource === 'clusterextensions' && fencedForExtensions) continue;
        for (const verb of VERBS) {
          if (!someNameAllows(grant.rules, { verb, apiGroup: GROUP, resource })) continue;
          let f = found.get(grant.holder);
          if (!f) found.set(grant.holder, f = { via: new Set(), writes: new Map(), path: grant.path });
          f.via.add(label);
          let verbs = f.writes.get(resource);
          if (!verbs) f.writes.set(resource, verbs = new Set());
          verbs.add(verb);
        }
      }
    }
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([identity, f]) => ({
    identity,
    via: [...f.via].sort(),
    writes: OLM_V1_WRITE_RESOURCES.filter((r) => f.writes.has(r)).map((r) => `${r} (${[...f.writes.get(r)!].sort().join(', ')})`),
    path: f.path,
  }));
}
