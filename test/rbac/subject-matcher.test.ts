import fc from 'fast-check';
import { AuthenticatedUser, BindingSubject, SubjectMatcher, serviceAccountNamespaces } from '../../src/rbac/subject-matcher';
import { expectNoCrash, garbage, goodOrGarbage, SEED } from '../fuzz/garbage';

const user = (name: string | undefined, groups: string[] = []): AuthenticatedUser => (name === undefined ? { groups } : { name, groups });

/** kubernetes pkg/registry/rbac/validation/rule_test.go `TestAppliesTo`, every case ported. */
describe('SubjectMatcher.appliesTo: kubernetes rule_test.go TestAppliesTo', () => {
  interface Case { subjects: BindingSubject[]; user: AuthenticatedUser; namespace: string; appliesTo: boolean; index: number; testCase: string }
  const cases: Case[] = [
    { subjects: [{ kind: 'User', name: 'foobar' }], user: user('foobar'), namespace: '', appliesTo: true, index: 0, testCase: 'single subject that matches username' },
    { subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'User', name: 'foobar' }], user: user('foobar'), namespace: '', appliesTo: true, index: 1, testCase: 'multiple subjects, one that matches username' },
    { subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'User', name: 'foobar' }], user: user('zimzam'), namespace: '', appliesTo: false, index: -1, testCase: 'multiple subjects, none that match username' },
    { subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }], user: user('zimzam', ['foobar']), namespace: '', appliesTo: true, index: 1, testCase: 'multiple subjects, one that match group' },
    { subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }], user: user('zimzam', ['foobar']), namespace: 'namespace1', appliesTo: true, index: 1, testCase: 'multiple subjects, one that match group, should ignore namespace' },
    {
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }, { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' }],
      user: user('system:serviceaccount:kube-system:default'),
      namespace: 'default',
      appliesTo: true,
      index: 2,
      testCase: 'multiple subjects with a service account that matches',
    },
    { subjects: [{ kind: 'User', name: '*' }], user: user('foobar'), namespace: 'default', appliesTo: false, index: -1, testCase: "* user subject name doesn't match all users" },
    {
      subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }],
      user: user('foobar', ['system:authenticated']),
      namespace: 'default',
      appliesTo: true,
      index: 0,
      testCase: 'binding to all authenticated and unauthenticated subjects matches authenticated user',
    },
    {
      subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }],
      user: user('system:anonymous', ['system:unauthenticated']),
      namespace: 'default',
      appliesTo: true,
      index: 1,
      testCase: 'binding to all authenticated and unauthenticated subjects matches anonymous user',
    },
  ];
  // upstream asserts the index of the subject that applies too (and 0 when none does; appliesTo here returns -1)
  test.each(cases)('$testCase', (c) => {
    expect(SubjectMatcher.appliesTo(c.user, c.subjects, c.namespace) >= 0).toBe(c.appliesTo);
    expect(SubjectMatcher.appliesTo(c.user, c.subjects, c.namespace)).toBe(c.index);
  });

  test('the index of the first subject that applies', () => {
    expect(SubjectMatcher.appliesTo(user('a', ['g']), [{ kind: 'User', name: 'b' }, { kind: 'Group', name: 'g' }, { kind: 'User', name: 'a' }], '')).toBe(1);
    expect(SubjectMatcher.appliesTo(user('a'), [], 'ns')).toBe(-1);
  });
});

describe('SubjectMatcher.appliesToUser: the exact semantics of rule.go appliesToUser', () => {
  const saUser = SubjectMatcher.serviceAccountUser('team-a', 'team-a');

  test('a ServiceAccount token authenticates as system:serviceaccount:<ns>:<name> with its groups and system:authenticated', () => {
    expect(saUser).toEqual({ name: 'system:serviceaccount:team-a:team-a', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] });
  });

  test('a User subject named like the ServiceAccount applies to it (issue 15 item 6), exactly like the ServiceAccount subject', () => {
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'User', name: 'system:serviceaccount:team-a:team-a' }, '')).toBe(true);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }, '')).toBe(true);
    // and the groups every ServiceAccount of team-a (or of the cluster) is in
    for (const g of ['system:serviceaccounts:team-a', 'system:serviceaccounts', 'system:authenticated']) {
      expect(SubjectMatcher.appliesToUser(saUser, { kind: 'Group', name: g }, '')).toBe(true);
    }
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'Group', name: 'system:serviceaccounts:team-b' }, '')).toBe(false);
  });

  test('a ServiceAccount subject without namespace takes the binding\'s; in a ClusterRoleBinding ("") it never applies', () => {
    const sub: BindingSubject = { kind: 'ServiceAccount', name: 'team-a' };
    expect(SubjectMatcher.appliesToUser(saUser, sub, 'team-a')).toBe(true);
    expect(SubjectMatcher.appliesToUser(saUser, { ...sub, namespace: '' }, 'team-a')).toBe(true); // len(subject.Namespace) == 0
    expect(SubjectMatcher.appliesToUser(saUser, sub, 'team-b')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, sub, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { ...sub, namespace: '' }, '')).toBe(false);
    // the subject's own namespace wins over the binding's
    expect(SubjectMatcher.appliesToUser(saUser, { ...sub, namespace: 'team-a' }, 'team-b')).toBe(true);
  });

  test('case-sensitive kinds and names; unknown kinds never apply', () => {
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'serviceaccount', name: 'team-a', namespace: 'team-a' }, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'user', name: 'system:serviceaccount:team-a:team-a' }, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'User', name: 'System:ServiceAccount:team-a:team-a' }, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'ServiceAccount', name: 'Team-A', namespace: 'team-a' }, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'Group', name: 'System:Authenticated' }, '')).toBe(false);
    expect(SubjectMatcher.appliesToUser(saUser, { kind: 'Role', name: 'team-a' }, 'team-a')).toBe(false);
  });

  test('a member of a group whose name is not known: only Group subjects apply', () => {
    const member = user(undefined, ['devs']);
    expect(SubjectMatcher.appliesToUser(member, { kind: 'Group', name: 'devs' }, '')).toBe(true);
    expect(SubjectMatcher.appliesToUser(member, { kind: 'User', name: '' }, '')).toBe(false);
  });

  test('the AuthenticatedGroupAdder: system:authenticated for everyone but system:anonymous and users that have it or system:unauthenticated', () => {
    expect(SubjectMatcher.withAuthenticatedGroup(user('alice', ['devs']))).toEqual(user('alice', ['devs', 'system:authenticated']));
    expect(SubjectMatcher.withAuthenticatedGroup(user('system:anonymous', ['system:unauthenticated']))).toEqual(user('system:anonymous', ['system:unauthenticated']));
    expect(SubjectMatcher.withAuthenticatedGroup(user('system:anonymous'))).toEqual(user('system:anonymous'));
    expect(SubjectMatcher.withAuthenticatedGroup(user('x', ['system:unauthenticated']))).toEqual(user('x', ['system:unauthenticated']));
  });
});

describe('ServiceAccount user names (apiserver pkg/authentication/serviceaccount/util.go)', () => {
  test('MakeUsername, SplitUsername, MakeGroupNames', () => {
    expect(SubjectMatcher.serviceAccountUsername('team-b', 'installer')).toBe('system:serviceaccount:team-b:installer');
    expect(SubjectMatcher.splitUsername('system:serviceaccount:team-b:installer')).toEqual({ namespace: 'team-b', name: 'installer' });
    expect(SubjectMatcher.serviceAccountGroups('team-b')).toEqual(['system:serviceaccounts', 'system:serviceaccounts:team-b']);
  });

  test.each([
    'system:serviceaccount:team-b', 'system:serviceaccount:team-b:a:b', 'system:serviceaccount:Team-B:x', 'system:serviceaccount::x',
    'system:serviceaccount:team-b:', 'system:serviceaccount:team-b:X', 'system:serviceaccounts:team-b:x', 'alice',
  ])('SplitUsername refuses %s', (name) => {
    expect(SubjectMatcher.splitUsername(name)).toBeUndefined();
  });

  test('serviceAccountReach: which ServiceAccounts a subject applies to', () => {
    expect([
      SubjectMatcher.serviceAccountReach({ kind: 'ServiceAccount', name: 'x', namespace: 'team-b' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'ServiceAccount', name: 'x' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'ServiceAccount', name: 'x' }, ''),
      SubjectMatcher.serviceAccountReach({ kind: 'User', name: 'system:serviceaccount:team-b:x' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'User', name: 'alice' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'Group', name: 'system:serviceaccounts:team-b' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'Group', name: 'system:serviceaccounts' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'Group', name: 'system:authenticated' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'Group', name: 'system:unauthenticated' }, 'team-a'),
      SubjectMatcher.serviceAccountReach({ kind: 'Group', name: 'devs' }, 'team-a'),
    ]).toEqual([
      { allNamespaces: false, namespace: 'team-b', name: 'x' },
      { allNamespaces: false, namespace: 'team-a', name: 'x' },
      undefined,
      { allNamespaces: false, namespace: 'team-b', name: 'x' },
      undefined,
      { allNamespaces: false, namespace: 'team-b' },
      { allNamespaces: true },
      { allNamespaces: true },
      undefined,
      undefined,
    ]);
  });

  test('bad input: one-line errors naming the argument', () => {
    expect(() => SubjectMatcher.appliesToUser({ name: 'a' } as any, { kind: 'User', name: 'a' }, '')).toThrow(/SubjectMatcher.appliesToUser.*user.groups/);
    expect(() => SubjectMatcher.appliesTo({ groups: [] }, [{ kind: 'User' } as any], '')).toThrow(/subjects\[0\]\.name/);
    expect(() => SubjectMatcher.serviceAccountUsername(1 as any, 'x')).toThrow(/namespace must be a string/);
  });
});

describe('SubjectMatcher properties (fast-check, fixed seeds)', () => {
  const part = fc.constantFrom('team-a', 'team-b', 'a', 'a:b', '', 'x.y', 'Team-A', ':', 'team');
  const label = fc.constantFrom('team-a', 'team-b', 'a', 'b0', 'team');
  const account = fc.constantFrom('team-a', 'x', 'x.y', 'default', 'installer');

  test('MatchesUsername is equality with MakeUsername, for any strings (seed 21)', () => {
    fc.assert(fc.property(part, part, fc.oneof(fc.string(), part.chain((a) => part.map((b) => `system:serviceaccount:${a}:${b}`))), (ns, name, username) => {
      expect(SubjectMatcher.matchesUsername(ns, name, username)).toBe(username === SubjectMatcher.serviceAccountUsername(ns, name));
    }), { seed: 21, numRuns: 2000 });
  });

  test('SplitUsername inverts MakeUsername for valid names (seed 22)', () => {
    fc.assert(fc.property(label, account, (ns, name) => {
      expect(SubjectMatcher.splitUsername(SubjectMatcher.serviceAccountUsername(ns, name))).toEqual({ namespace: ns, name });
    }), { seed: 22, numRuns: 200 });
  });

  test('for a ServiceAccount identity, the ServiceAccount subject, the User subject of its user name and the reach agree (seed 23)', () => {
    const subjectArb: fc.Arbitrary<BindingSubject> = fc.oneof(
      fc.record({ kind: fc.constant('ServiceAccount'), name: account, namespace: fc.option(fc.oneof(label, fc.constant('')), { nil: undefined }) }),
      fc.record({ kind: fc.constant('User'), name: fc.tuple(label, account).map(([n, a]) => `system:serviceaccount:${n}:${a}`) }),
      fc.record({ kind: fc.constant('Group'), name: fc.oneof(label.map((n) => `system:serviceaccounts:${n}`), fc.constantFrom('system:serviceaccounts', 'system:authenticated', 'devs')) }),
      fc.record({ kind: fc.constantFrom('user', 'serviceaccount', 'Other'), name: account }),
    );
    fc.assert(fc.property(label, account, subjectArb, fc.oneof(label, fc.constant('')), (ns, name, subject, bindingNs) => {
      const applies = SubjectMatcher.appliesToUser(SubjectMatcher.serviceAccountUser(ns, name), subject, bindingNs);
      const reach = SubjectMatcher.serviceAccountReach(subject, bindingNs);
      const byReach = reach !== undefined && (reach.allNamespaces || (reach.namespace === ns && (reach.name === undefined || reach.name === name)));
      expect(applies).toBe(byReach);
      if (subject.kind === 'ServiceAccount') {
        // the same ServiceAccount written as a User subject applies to exactly the same identity
        const saNs = subject.namespace ? subject.namespace : bindingNs;
        if (saNs !== '') {
          const asUser = { kind: 'User', name: SubjectMatcher.serviceAccountUsername(saNs, subject.name) };
          expect(SubjectMatcher.appliesToUser(SubjectMatcher.serviceAccountUser(ns, name), asUser, bindingNs)).toBe(applies);
        }
      }
    }), { seed: 23, numRuns: 3000 });
  });
});

describe('SubjectMatcher.subjectProblem: kubernetes pkg/apis/rbac/validation ValidateRoleBindingSubject', () => {
  test.each([
    [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }, true, undefined],
    [{ kind: 'Group', name: 'system:serviceaccounts:team-b', apiGroup: 'rbac.authorization.k8s.io' }, false, undefined],
    [{ kind: 'ServiceAccount', name: 'ci' }, true, undefined],
    [{ kind: 'ServiceAccount', name: 'ci', namespace: 'team-a' }, false, undefined],
    [{ kind: 'ServiceAccount', name: 'ci' }, false, 'namespace is required for a ServiceAccount in a ClusterRoleBinding'],
    [{ kind: 'User', name: 'alice' }, true, "apiGroup '' is not supported for a User (only rbac.authorization.k8s.io)"],
    [{ kind: 'User', name: '', apiGroup: 'rbac.authorization.k8s.io' }, true, 'name is required'],
    [{ kind: 'Role', name: 'x' }, true, "kind 'Role' is not supported (only ServiceAccount, User, Group, exact case)"],
    [{ kind: 'ServiceAccount', name: 'a:b', apiGroup: 'x' }, true, "ServiceAccount name 'a:b' is not a DNS-1123 subdomain; apiGroup 'x' is not supported for a ServiceAccount (only \"\")"],
  ] as Array<[BindingSubject, boolean, string | undefined]>)('%j (namespaced %s): %s', (subject, namespaced, problem) => {
    expect(SubjectMatcher.subjectProblem(subject, namespaced)).toEqual(problem);
  });
});

test('garbage (JavaScript and jsii callers): every static method answers or throws a readable Error, never a TypeError (fast-check)', () => {
  const text = goodOrGarbage(fc.constantFrom('system:serviceaccount:a:b', 'team-a', '', 'system:serviceaccounts'));
  const subjectArb = goodOrGarbage(fc.record({ kind: goodOrGarbage(fc.constantFrom('User', 'Group', 'ServiceAccount')), name: text, namespace: text, apiGroup: text }, { requiredKeys: [] }));
  const userArb = goodOrGarbage(fc.record({ name: text, groups: goodOrGarbage(fc.array(text, { maxLength: 2 })) }, { requiredKeys: [] }));
  fc.assert(fc.property(userArb, subjectArb, text, text, garbage, (u, s, a, b, g) => {
    expectNoCrash(() => SubjectMatcher.appliesToUser(u as any, s as any, a as any));
    expectNoCrash(() => SubjectMatcher.appliesTo(u as any, [s, g] as any, a as any));
    expectNoCrash(() => SubjectMatcher.appliesTo(u as any, g as any, a as any));
    expectNoCrash(() => SubjectMatcher.serviceAccountReach(s as any, a as any));
    expectNoCrash(() => SubjectMatcher.subjectProblem(s as any, g as any));
    expectNoCrash(() => SubjectMatcher.withAuthenticatedGroup(u as any));
    expectNoCrash(() => SubjectMatcher.serviceAccountUser(a as any, b as any));
    expectNoCrash(() => SubjectMatcher.serviceAccountUsername(a as any, b as any));
    expectNoCrash(() => SubjectMatcher.serviceAccountGroups(g as any));
    expectNoCrash(() => SubjectMatcher.matchesUsername(a as any, b as any, g as any));
    expectNoCrash(() => SubjectMatcher.splitUsername(g as any));
  }), { seed: SEED + 40, numRuns: 500 });
});

test('serviceAccountNamespaces (the audit\'s confinement scan) covers every ServiceAccount identity appliesToUser matches, for any strings (seed 24)', () => {
  const part = fc.constantFrom('team-a', 'a:b', 'B', '', 'x', ':', 'a');
  const subjectArb: fc.Arbitrary<BindingSubject> = fc.oneof(
    fc.record({ kind: fc.constant('ServiceAccount'), name: part, namespace: fc.option(part, { nil: undefined }) }),
    fc.record({ kind: fc.constant('User'), name: fc.oneof(fc.tuple(part, part).map(([n, a]) => `system:serviceaccount:${n}:${a}`), part) }),
    fc.record({ kind: fc.constant('Group'), name: fc.oneof(part.map((n) => `system:serviceaccounts:${n}`), fc.constantFrom('system:serviceaccounts', 'system:authenticated')) }),
  );
  fc.assert(fc.property(part, part, subjectArb, part, (ns, name, subject, bindingNs) => {
    if (!SubjectMatcher.appliesToUser(SubjectMatcher.serviceAccountUser(ns, name), subject, bindingNs)) return;
    const found = serviceAccountNamespaces(subject, bindingNs);
    expect(found.all || found.namespaces.includes(ns)).toBe(true);
  }), { seed: 24, numRuns: 3000 });
});
