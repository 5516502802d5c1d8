/**
 * Issue 15 item 6: people grants of tenant A that apply to tenant B's ServiceAccounts, however the subject is
 * written (ServiceAccount, its user name, the group of B's ServiceAccounts, the groups of every ServiceAccount), are
 * named errors (CrossTenantPeopleGrant, OLMT-040). Subjects are matched as the RBAC authorizer does (SubjectMatcher).
 */
import { App, Chart, Testing } from 'cdk8s';
import { Group, ISubject, ServiceAccount, User } from 'cdk8s-plus-28';
import { AccessLevel, Diagnostics, ScopedOperatorTenant, TenancyAudit } from '../../src';
import { TenantConflicts, TenantFacts } from '../../src/tenant/checks/tenant-conflicts';

function platform(grant: (a: ScopedOperatorTenant, chart: Chart) => void): { app: App; a: ScopedOperatorTenant } {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
  new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b' });
  grant(a, chart);
  return { app, a };
}
const crossTenant = (a: ScopedOperatorTenant) => a.node.validate().filter((e) => e.includes('(CrossTenantPeopleGrant, OLMT-040)'));

describe('a people grant of tenant team-a naming tenant team-b\'s ServiceAccounts', () => {
  const cases: Array<[string, (chart: Chart) => ISubject, string, string]> = [
    ['a ServiceAccount subject', (chart) => ServiceAccount.fromServiceAccountName(chart, 'B', 'team-b', { namespaceName: 'team-b' }),
      'ServiceAccount team-b/team-b', 'ServiceAccount team-b/team-b (its installer), which belongs to tenant platform/TeamB'],
    ['its user name', (chart) => User.fromName(chart, 'B', 'system:serviceaccount:team-b:team-b'),
      'User system:serviceaccount:team-b:team-b', 'ServiceAccount team-b/team-b (its installer), which belongs to tenant platform/TeamB'],
    ['another ServiceAccount of team-b by user name', (chart) => User.fromName(chart, 'B', 'system:serviceaccount:team-b:etcd-operator'),
      'User system:serviceaccount:team-b:etcd-operator', 'ServiceAccount team-b/etcd-operator, which belongs to tenant platform/TeamB'],
    ['the group system:serviceaccounts:team-b', (chart) => Group.fromName(chart, 'B', 'system:serviceaccounts:team-b'),
      'Group system:serviceaccounts:team-b', "every ServiceAccount of namespace 'team-b', which belongs to tenant platform/TeamB"],
    ['the group system:serviceaccounts', (chart) => Group.fromName(chart, 'B', 'system:serviceaccounts'),
      'Group system:serviceaccounts', "every ServiceAccount of the cluster, other tenants' installers and operators included"],
    ['the group system:authenticated', (chart) => Group.fromName(chart, 'B', 'system:authenticated'),
      'Group system:authenticated', "every ServiceAccount of the cluster, other tenants' installers and operators included (and every authenticated user)"],
  ];

  test.each(cases)('as %s, through grantOperatorAccess: a named error', (_, subject, written, whose) => {
    const { a } = platform((t, chart) => t.grantOperatorAccess(subject(chart), AccessLevel.ADMIN));
    expect(crossTenant(a)).toEqual([
      `grantOperatorAccess(admin)=${JSON.stringify(written)}: ${written} applies to ${whose} (Kubernetes matches RBAC subjects by user name and group: rule.go appliesToUser), `
      + "so another tenant's identities would hold this tenant's access. Fix: grant access to people (Users and Groups that no ServiceAccount is in) only; "
      + "give another tenant's operators access in their own tenant (CrossTenantPeopleGrant, OLMT-040)",
    ]);
  });

  test.each(cases)('as %s, through grantSubscriptionManagement: a named error that fails the synth', (_, subject, written) => {
    const { app, a } = platform((t, chart) => t.grantSubscriptionManagement(subject(chart)));
    expect(crossTenant(a).map((e) => e.slice(0, e.indexOf('": ') + 1))).toEqual([`grantSubscriptionManagement(subject)=${JSON.stringify(written)}`]);
    expect(() => app.synth()).toThrow(/CrossTenantPeopleGrant, OLMT-040/);
  });

  test.each([
    ['the group system:unauthenticated', (chart: Chart) => Group.fromName(chart, 'Anon', 'system:unauthenticated'), 'Group system:unauthenticated'],
    ['the user system:anonymous', (chart: Chart) => User.fromName(chart, 'Anon', 'system:anonymous'), 'User system:anonymous'],
  ])('as %s (every unauthenticated request): a named error, with or without another tenant', (_, subject, written) => {
    const message = `grantOperatorAccess(view)=${JSON.stringify(written)}: ${written} applies to every unauthenticated request: the API server gives a request `
      + 'without credentials the user system:anonymous and the group system:unauthenticated, and serves it unless started with --anonymous-auth=false '
      + '(k8s.io/apiserver/pkg/authentication/request/anonymous), so anyone who reaches the API server, other tenants\' pods included, would hold this '
      + "tenant's access. Fix: grant access to people (Users and Groups that no ServiceAccount is in) only; give another tenant's operators access in their "
      + 'own tenant (CrossTenantPeopleGrant, OLMT-040)';
    const { app, a } = platform((t, chart) => t.grantOperatorAccess(subject(chart), AccessLevel.VIEW));
    expect(crossTenant(a)).toEqual([message]);
    expect(() => app.synth()).toThrow(/CrossTenantPeopleGrant, OLMT-040/);
    // a single tenant: the same error
    const alone = Testing.app();
    const chart = new Chart(alone, 'platform');
    const only = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    only.grantOperatorAccess(subject(chart), AccessLevel.VIEW);
    expect(crossTenant(only)).toEqual([message]);
    // other casings are other names (Kubernetes compares them exactly): people, no error
    const cased = Testing.app();
    const c2 = new Chart(cased, 'platform');
    const t2 = new ScopedOperatorTenant(c2, 'TeamA', { namespaceName: 'team-a' });
    t2.grantOperatorAccess(Group.fromName(c2, 'G', 'System:Unauthenticated'), AccessLevel.VIEW);
    t2.grantOperatorAccess(User.fromName(c2, 'U', 'system:Anonymous'), AccessLevel.VIEW);
    expect(crossTenant(t2)).toEqual([]);
  });

  test('not cross-tenant: people, the tenant\'s own ServiceAccounts, names no ServiceAccount has (other casing, three parts)', () => {
    const { a } = platform((t, chart) => {
      t.grantOperatorAccess(Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.ADMIN);
      t.grantOperatorAccess(User.fromName(chart, 'Alice', 'alice'), AccessLevel.VIEW);
      t.grantOperatorAccess(ServiceAccount.fromServiceAccountName(chart, 'Own', 'ci', { namespaceName: 'team-a' }), AccessLevel.EDIT);
      t.grantOperatorAccess(Group.fromName(chart, 'OwnGroup', 'system:serviceaccounts:team-a'), AccessLevel.VIEW);
      t.grantOperatorAccess(User.fromName(chart, 'Upper', 'system:serviceaccount:team-b:Team-B'), AccessLevel.VIEW);
      t.grantOperatorAccess(User.fromName(chart, 'Three', 'system:serviceaccount:team-b:x:y'), AccessLevel.VIEW);
      t.grantOperatorAccess(Group.fromName(chart, 'Cased', 'System:ServiceAccounts'), AccessLevel.VIEW);
    });
    expect(crossTenant(a)).toEqual([]);
  });

  test('one error per method and subject, however many target namespaces the grant binds in', () => {
    const facts = (path: string, namespace: string, people: TenantFacts['people'] = []): TenantFacts => ({ path, namespace, targetNamespaces: [namespace], bundles: [], people });
    const a = facts('A', 'team-a', [
      { field: 'grantOperatorAccess(view)', kind: 'ServiceAccount', name: 'x', bindingNamespace: 'team-a', namespace: 'team-b' },
      { field: 'grantOperatorAccess(view)', kind: 'ServiceAccount', name: 'x', bindingNamespace: 'team-a-dev', namespace: 'team-b' },
      // a ServiceAccount subject without namespace is the binding's: team-b's when bound there
      { field: 'grantOperatorAccess(edit)', kind: 'ServiceAccount', name: 'y', bindingNamespace: 'team-b' },
    ]);
    const found = TenantConflicts.find([a, facts('B', 'team-b')]).get(a)!;
    expect(found.map((d) => [d.code, d.field, d.value])).toEqual([
      ['CrossTenantPeopleGrant', 'grantOperatorAccess(view)', 'ServiceAccount team-b/x'],
      ['CrossTenantPeopleGrant', 'grantOperatorAccess(edit)', 'ServiceAccount team-b/y'],
    ]);
  });

  test('the audit sees the user-named ServiceAccount as that ServiceAccount (one subject, deduplicated with the installer)', () => {
    const { app, a } = platform((t, chart) => t.grantOperatorAccess(User.fromName(chart, 'Self', 'system:serviceaccount:team-a:team-a'), AccessLevel.VIEW));
    expect(a.auditFacts().people).toEqual([{ kind: 'User', name: 'system:serviceaccount:team-a:team-a' }]);
    expect(TenancyAudit.ofConstruct(app).tenants.map((t) => t.subjects)).toEqual([['ServiceAccount team-a/team-a'], ['ServiceAccount team-b/team-b']]);
    expect([crossTenant(a), Diagnostics.warnings(a)]).toEqual([[], []]);
  });
});
