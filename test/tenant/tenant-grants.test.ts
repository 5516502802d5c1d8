/**
 * Grants in the CDK style (issue 39 item 3): `grantOperatorAccess` and `grantSubscriptionManagement` return what they
 * made (aws-cdk `aws-iam/lib/grant.ts` `Grant`, cdk8s-plus `Role.bind` returning its RoleBinding), both are declared
 * on `IOperatorTenant`, and `allowInstaller` takes one props object.
 */
import { ApiObject, Testing } from 'cdk8s';
import { Group, User } from 'cdk8s-plus-28';
import { AccessLevel, IOperatorTenant, OlmGeneration, OlmNaming, ScopedOperatorTenant, TargetNamespaces } from '../../src';
import { appAndChart, validationErrors } from '../util/synth';

/** The L1 object of `o` as the manifest shows it (name, namespace, roleRef, subjects / rules). */
function manifest(o: ApiObject): any {
  const { metadata, roleRef, subjects, rules } = o.toJson();
  return { kind: o.kind, name: metadata.name, namespace: metadata.namespace, ...(roleRef ? { roleRef, subjects } : { rules }) };
}

describe('grantOperatorAccess returns the RoleBindings that list the subject', () => {
  test('GIVEN two target namespaces WHEN granted THEN one RoleBinding per namespace, the tenant\'s own objects, and no Role', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-apps'], 'the operator serves the apps namespace'),
    });
    // WHEN (through the interface other constructs hold)
    const held: IOperatorTenant = tenant;
    const grant = held.grantOperatorAccess(Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.ADMIN);
    // THEN
    expect(grant.roles).toEqual([]);
    expect(grant.roleBindings.map(manifest)).toEqual([
      {
        kind: 'RoleBinding',
        name: 'team-a-operator-admin',
        namespace: 'team-a',
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a', AccessLevel.ADMIN, OlmGeneration.V0_26_AND_LATER) },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' }],
      },
      {
        kind: 'RoleBinding',
        name: 'team-a-team-a-operator-admin',
        namespace: 'team-a-apps',
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a', AccessLevel.ADMIN, OlmGeneration.V0_26_AND_LATER) },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' }],
      },
    ]);
    // the very objects that are synthesized
    const synthesized = chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && c.kind === 'RoleBinding' && c.name.includes('operator-admin'));
    expect(grant.roleBindings).toEqual(synthesized);
    expect(grant.roleBindings.every((b, i) => b === synthesized[i])).toBe(true);
  });

  test('GIVEN a second subject of the same level THEN the same (shared) binding is returned, now listing both', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const first = tenant.grantOperatorAccess(Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.EDIT);
    // WHEN
    const second = tenant.grantOperatorAccess(User.fromName(chart, 'Alice', 'alice'), AccessLevel.EDIT);
    const view = tenant.grantOperatorAccess(User.fromName(chart, 'Bob', 'bob'), AccessLevel.VIEW);
    // THEN
    expect(second.roleBindings.length).toBe(1);
    expect(second.roleBindings[0]).toBe(first.roleBindings[0]);
    expect(manifest(second.roleBindings[0]).subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
    ]);
    expect(view.roleBindings.map((b) => [b.name, manifest(b).subjects])).toEqual([
      ['team-a-operator-view', [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }]],
    ]);
  });

  test('GIVEN AllNamespaces THEN the one binding in the tenant namespace is returned', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.allNamespaces('a cluster-wide operator') });
    const grant = tenant.grantOperatorAccess(Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.VIEW);
    expect(grant.roleBindings.map((b) => [b.name, b.metadata.namespace])).toEqual([['team-a-operator-view', 'team-a']]);
    expect(grant.roles).toEqual([]);
  });

  test('GIVEN a subject the tenant refuses THEN the grant is empty and the synth error names the argument', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const grant = tenant.grantOperatorAccess(undefined as any, AccessLevel.VIEW);
    expect(grant).toEqual({ roleBindings: [], roles: [] });
    expect(validationErrors(chart).some((e) => e.includes('grantOperatorAccess(subject)'))).toBe(true);
  });
});

describe('grantSubscriptionManagement returns its RoleBinding and the Role it binds', () => {
  test('GIVEN two subjects THEN both grants return the same Role and RoleBinding, the binding listing both', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const held: IOperatorTenant = tenant;
    // WHEN
    const first = held.grantSubscriptionManagement(Group.fromName(chart, 'Admins', 'team-a-admins'));
    const second = held.grantSubscriptionManagement(User.fromName(chart, 'Alice', 'alice'));
    // THEN
    expect(second.roleBindings).toEqual(first.roleBindings);
    expect(second.roles).toEqual(first.roles);
    expect(first.roles.map(manifest)).toEqual([{
      kind: 'Role',
      name: 'team-a-subscription-manager',
      namespace: 'team-a',
      rules: [
        { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
        { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      ],
    }]);
    expect(first.roleBindings.map(manifest)).toEqual([{
      kind: 'RoleBinding',
      name: 'team-a-subscription-manager',
      namespace: 'team-a',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'team-a-subscription-manager' },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
      ],
    }]);
    // the returned objects are the ones written
    const written = Testing.synth(chart).filter((o) => o.metadata.name === 'team-a-subscription-manager').map((o) => o.kind);
    expect(written).toEqual(['Role', 'RoleBinding']);
  });
});

describe('allowInstaller takes one props object', () => {
  test('GIVEN the props THEN the rule is added to the installer Role', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
    tenant.allowInstaller({ verbs: ['get'], apiGroup: '', resources: ['configmaps'], resourceNames: ['etcd-config'] });
    expect(tenant.installerRules).toEqual([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['etcd-config'], verbs: ['get'] }]);
    expect(validationErrors(chart)).toEqual([]);
  });

  test('GIVEN the positional form of earlier versions THEN one error says to pass the props object', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
    (tenant.allowInstaller as any)(['get'], '', ['configmaps']);
    expect(tenant.installerRules).toEqual([]);
    expect(validationErrors(chart)).toEqual([
      '[platform/T] allowInstaller(props)="[\\"get\\"]": allowInstaller(props) must be an AllowInstallerProps object, got a list: allowInstaller '
      + 'takes one props object, not the verbs, apiGroup, resources and resourceNames as separate arguments. Fix: pass one object: '
      + "allowInstaller({ verbs: ['get', 'create'], apiGroup: '', resources: ['configmaps'], resourceNames?: [...] }) (InvalidInputType)",
    ]);
  });

  test('GIVEN a misspelled prop THEN it is refused by name', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
    tenant.allowInstaller({ verbs: ['get'], apiGroup: '', resources: ['configmaps'], resourceName: ['x'] } as any);
    expect(tenant.installerRules).toEqual([]);
    expect(validationErrors(chart)).toEqual([
      '[platform/T] allowInstaller(props).resourceName="[\\"x\\"]": allowInstaller(props) has no prop "resourceName"; did you mean "resourceNames"? '
      + 'Fix: rename it to allowInstaller(props).resourceNames (UnknownProp)',
    ]);
  });
});
