/**
 * Issue 27 item 11: in an App with OLM v1 teams, every identity that may write ClusterExtensions, ClusterCatalogs or
 * ClusterObjectSets and that no team guardrail checks is named (OLMT-054), unless accepted by name with a reason.
 */
import { ApiObject } from 'cdk8s';
import { appAndChart, validationErrors } from './helpers';
import { olmV1UnfencedWriters } from '../../src/audit/olm-v1-writers';
import { CuratedClusterCatalog, OlmV1Team, OlmV1TeamProps } from '../../src/olmv1';

const RBAC = 'rbac.authorization.k8s.io';
const role = (name: string, rules: any[], extra: any = {}) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...extra }, rules });
const crb = (name: string, roleName: string, subjects: any[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
const rb = (name: string, namespace: string, roleName: string, subjects: any[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
const OLM = 'olm.operatorframework.io';

function app(objects: any[], extra: Partial<OlmV1TeamProps> = {}) {
  const { app: a, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-a', image: 'registry.example.com/catalogs/team-a:v1', team: 'team-a', pollIntervalMinutes: 30 });
  new OlmV1Team(chart, 'T', { team: 'team-a', groups: ['team-a-admins'], namespaces: ['team-a'], catalog, allowedPackages: [{ name: 'etcd' }], ...extra });
  objects.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
  return a;
}
const findings = (a: any) => validationErrors(a).filter((e) => e.includes('OLMT-054') || e.includes('EmptyAcceptedWriterReason'))
  .map((e) => e.replace(/^\[platform\/T\] /, '').replace(/: .*\((\w+)(, OLMT-\d+)?\)$/, ' $1'));

describe('OLMT-054: writers of the OLM v1 APIs no team guardrail checks', () => {
  const writeCe = role('ce-writer', [{ apiGroups: [OLM], resources: ['clusterextensions'], verbs: ['create', 'update'] }]);

  test('the team alone: its own group is checked by its guardrail, nothing named', () => {
    expect(findings(app([]))).toEqual([]);
  });

  test('issue 27: a ClusterRoleBinding giving clusterextensions create/update to User alice, Group devs and a CI ServiceAccount is named, each', () => {
    const a = app([writeCe, crb('ce-writers', 'ce-writer', [
      { kind: 'User', apiGroup: RBAC, name: 'alice' }, { kind: 'Group', apiGroup: RBAC, name: 'devs' }, { kind: 'ServiceAccount', name: 'deployer', namespace: 'ci' },
      { kind: 'Group', apiGroup: RBAC, name: 'team-a-admins' },
    ])]);
    expect(findings(a)).toEqual([
      'writers[Group devs]="Group devs" OlmV1UnfencedWriter',
      'writers[ServiceAccount ci/deployer]="ServiceAccount ci/deployer" OlmV1UnfencedWriter',
      'writers[User alice]="User alice" OlmV1UnfencedWriter',
    ]);
    expect(validationErrors(a).find((e) => e.includes('User alice'))).toBe('[platform/T] writers[User alice]="User alice": User alice may write clusterextensions (create, update) of olm.operatorframework.io and no team guardrail checks it '
      + '(User alice -> ClusterRoleBinding ce-writers (the App) -> ClusterRole ce-writer (the App)): operator-controller installs what it writes with cluster-admin. '
      + "Fix: bind the grant to a team's group (its guardrail then checks it), remove it, or accept it: acceptedWriters: [{ identity: 'User alice', reason }] on an OlmV1Team (OlmV1UnfencedWriter, OLMT-054)");
  });

  test('clustercatalogs and clusterobjectsets: no guardrail checks them, so even a team group writing them is named', () => {
    const a = app([role('cat-writer', [{ apiGroups: [OLM], resources: ['clustercatalogs', 'clusterobjectsets'], verbs: ['patch'] }]),
      crb('cat', 'cat-writer', [{ kind: 'Group', apiGroup: RBAC, name: 'team-a-admins' }])]);
    expect(olmV1UnfencedWriters(objectsOf(a), ['team-a-admins']).map((w) => [w.identity, w.writes])).toEqual([
      // patch on clusterobjectsets is cluster-admin (operator-controller applies object sets as cluster-admin,
      // test/audit/object-sets.test.ts): the group can then create and update them too
      ['Group team-a-admins', ['clustercatalogs (create, patch, update)', 'clusterobjectsets (create, patch, update)']],
    ]);
    expect(findings(a)).toEqual(['writers[Group team-a-admins]="Group team-a-admins" OlmV1UnfencedWriter']);
  });

  test('neighbours: `*` verbs, a wildcard group or resource, resourceNames, built-in cluster-admin; not a RoleBinding (cluster-scoped), not get', () => {
    const cases: Array<[string, any[], string[]]> = [
      ['star verb', [role('r', [{ apiGroups: [OLM], resources: ['clusterextensions'], verbs: ['*'] }]), crb('b', 'r', [{ kind: 'User', name: 'u' }])], ['clusterextensions (create, patch, update)']],
      ['wildcard group', [role('r', [{ apiGroups: ['*'], resources: ['clustercatalogs'], verbs: ['update'] }]), crb('b', 'r', [{ kind: 'User', name: 'u' }])], ['clustercatalogs (update)']],
      ['wildcard resource', [role('r', [{ apiGroups: [OLM], resources: ['*'], verbs: ['patch'] }]), crb('b', 'r', [{ kind: 'User', name: 'u' }])],
        // `*` includes clusterobjectsets: patch on them is cluster-admin, so every write follows
        ['clusterextensions (create, patch, update)', 'clustercatalogs (create, patch, update)', 'clusterobjectsets (create, patch, update)']],
      ['resourceNames', [role('r', [{ apiGroups: [OLM], resources: ['clusterextensions'], resourceNames: ['team-b-etcd'], verbs: ['update'] }]), crb('b', 'r', [{ kind: 'User', name: 'u' }])], ['clusterextensions (update)']],
      ['built-in cluster-admin', [crb('b', 'cluster-admin', [{ kind: 'User', name: 'u' }])], ['clusterextensions (create, patch, update)', 'clustercatalogs (create, patch, update)', 'clusterobjectsets (create, patch, update)']],
      ['RoleBinding: a namespace grant does not write cluster-scoped objects', [writeCe, rb('b', 'team-a', 'ce-writer', [{ kind: 'User', name: 'u' }])], []],
      ['read only', [role('r', [{ apiGroups: [OLM], resources: ['clusterextensions'], verbs: ['get', 'list', 'watch', 'delete'] }]), crb('b', 'r', [{ kind: 'User', name: 'u' }])], []],
    ];
    for (const [what, objects, writes] of cases) {
      const found = olmV1UnfencedWriters(objects.map((manifest) => ({ manifest })), ['team-a-admins']);
      expect([what, found.flatMap((w) => w.writes)]).toEqual([what, writes]);
    }
  });

  // through aggregation: the effective-power model fills an aggregationRule's ClusterRole with the rules of every
  // ClusterRole its selectors match (pkg/controller/clusterroleaggregation)
  test('aggregation: a ClusterRole aggregating a part that writes clusterextensions', () => {
    const objects = [{ ...role('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'x/olm': 'true' } }] } },
      role('part', [{ apiGroups: [OLM], resources: ['clusterextensions'], verbs: ['create'] }], { labels: { 'x/olm': 'true' } }), crb('b', 'agg', [{ kind: 'User', name: 'u' }])];
    expect(olmV1UnfencedWriters(objects.map((manifest) => ({ manifest })), ['team-a-admins']).flatMap((w) => w.writes)).toEqual(['clusterextensions (create)']);
  });

  test('an identity reached by another: a Group that can impersonate a user writes through it', () => {
    const objects = [writeCe, crb('ce', 'ce-writer', [{ kind: 'User', name: 'bot' }]),
      role('imp', [{ apiGroups: [''], resources: ['users'], resourceNames: ['bot'], verbs: ['impersonate'] }]), crb('imp', 'imp', [{ kind: 'Group', name: 'team-a-admins' }])];
    const found = olmV1UnfencedWriters(objects.map((manifest) => ({ manifest })), ['team-a-admins']);
    expect(found.map((w) => [w.identity, w.via])).toEqual([['User bot', ['Group team-a-admins', 'User bot']]]);
  });

  test('a ServiceAccount is checked when a team guardrail matches its groups (system:serviceaccounts:<ns>)', () => {
    const objects = [writeCe, crb('ce', 'ce-writer', [{ kind: 'ServiceAccount', name: 'ci', namespace: 'team-a' }])];
    expect(olmV1UnfencedWriters(objects.map((manifest) => ({ manifest })), ['system:serviceaccounts:team-a'])).toEqual([]);
    expect(olmV1UnfencedWriters(objects.map((manifest) => ({ manifest })), ['team-a-admins']).map((w) => w.identity)).toEqual(['ServiceAccount team-a/ci']);
  });

  test('accepted by name with a reason: not named; an empty reason accepts nothing', () => {
    const objects = [writeCe, crb('ce', 'ce-writer', [{ kind: 'ServiceAccount', name: 'argocd-application-controller', namespace: 'argocd' }])];
    expect(findings(app(objects, { acceptedWriters: [{ identity: 'ServiceAccount argocd/argocd-application-controller', reason: 'the platform GitOps controller applies the reviewed repository' }] }))).toEqual([]);
    expect(findings(app(objects, { acceptedWriters: [{ identity: 'ServiceAccount argocd/argocd-application-controller', reason: ' ' }] }))).toEqual([
      'acceptedWriters[ServiceAccount argocd/argocd-application-controller].reason EmptyAcceptedWriterReason',
      'writers[ServiceAccount argocd/argocd-application-controller]="ServiceAccount argocd/argocd-application-controller" OlmV1UnfencedWriter',
    ]);
  });

  test('reported once per App, by its first OLM v1 team', () => {
    const { app: a, chart } = appAndChart();
    const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'c', image: 'registry.example.com/catalogs/c:v1', team: 'c', pollIntervalMinutes: 30 });
    for (const t of ['team-a', 'team-b']) new OlmV1Team(chart, t, { team: t, groups: [`${t}-admins`], namespaces: [t], catalog, allowedPackages: [{ name: 'etcd' }] });
    new ApiObject(chart, 'r', writeCe);
    new ApiObject(chart, 'b', crb('ce', 'ce-writer', [{ kind: 'User', name: 'alice' }]));
    expect(validationErrors(a).filter((e) => e.includes('OLMT-054')).map((e) => e.split(':')[0])).toEqual(['[platform/team-a] writers[User alice]="User alice"']);
  });
});

function objectsOf(a: any): Array<{ manifest: any }> {
  return a.node.findAll().filter((c: any) => c instanceof ApiObject).map((o: ApiObject) => ({ manifest: o.toJson() }));
}
