// Issue 8, case 7: two objects with the same group/kind/namespace/name in one App. Before the check both were
// written silently and whichever was applied last won.
import { ApiObject, Chart, Testing } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import fc from 'fast-check';
import { AccessLevel, ScopedOperatorTenant, TargetNamespaces } from '../../src';
import { findDuplicateObjects } from '../../src/tenant/checks/duplicate-objects';
import { appAndChart, synthErrorLines } from '../util/synth';

const FIX = 'Fix: rename one of them (for tenants: namespaceName, operatorGroupName, installerRoleName, installerRoleBindingName, tokenSecretName), or define the object once (DuplicateObject, OLMT-037)';
const SAME = 'both land in the manifests with the same group, kind, namespace and name, and whichever is applied last silently replaces the other.';

describe('case 7: duplicate object identities across the App', () => {
  test("GIVEN tenant 'a' with OperatorGroup 'b-c' and tenant 'a-b' with OperatorGroup 'c' granting access in a shared namespace THEN both report RoleBinding shared/a-b-c-operator-admin", () => {
    const { app, chart } = appAndChart();
    const admins = Group.fromName(chart, 'Admins', 'admins');
    const a = new ScopedOperatorTenant(chart, 'A', {
      namespaceName: 'a', operatorGroupName: 'b-c', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['a', 'shared'], 'operands in shared'),
    });
    const ab = new ScopedOperatorTenant(chart, 'AB', {
      namespaceName: 'a-b', operatorGroupName: 'c', installerRules: [], targetNamespaces: TargetNamespaces.namespaces(['a-b', 'shared'], 'operands in shared'),
    });
    a.grantOperatorAccess(admins, AccessLevel.ADMIN);
    ab.grantOperatorAccess(admins, AccessLevel.ADMIN);
    expect(synthErrorLines(app)).toEqual([
      `[platform/A] OperatorAccess-admin-shared/Resource="RoleBinding shared/a-b-c-operator-admin": RoleBinding shared/a-b-c-operator-admin is also written by platform/AB/OperatorAccess-admin-shared/Resource (tenant platform/AB); ${SAME} ${FIX}`,
      `[platform/AB] OperatorAccess-admin-shared/Resource="RoleBinding shared/a-b-c-operator-admin": RoleBinding shared/a-b-c-operator-admin is also written by platform/A/OperatorAccess-admin-shared/Resource (tenant platform/A); ${SAME} ${FIX}`,
    ]);
  });

  test("GIVEN installerRoleName '<og>-subscription-manager' and grantSubscriptionManagement THEN the Roles and RoleBindings collide", () => {
    const { app, chart } = appAndChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRoleName: 'team-a-subscription-manager' });
    t.grantSubscriptionManagement(Group.fromName(chart, 'Ops', 'ops'));
    const e = (kind: string, mine: string, theirs: string) =>
      `[platform/T] ${mine}="${kind} team-a/team-a-subscription-manager": ${kind} team-a/team-a-subscription-manager is also written by platform/T/${theirs} (tenant platform/T); ${SAME} ${FIX}`;
    expect(synthErrorLines(app)).toEqual([
      e('Role', 'InstallerRole/Resource', 'SubscriptionManagerRole/Resource'),
      e('Role', 'SubscriptionManagerRole/Resource', 'InstallerRole/Resource'),
      e('RoleBinding', 'InstallerRoleBinding/Resource', 'SubscriptionManagerRoleBinding/Resource'),
      e('RoleBinding', 'SubscriptionManagerRoleBinding/Resource', 'InstallerRoleBinding/Resource'),
    ]);
  });

  test("GIVEN a raw ApiObject outside any tenant with the tenant's ServiceAccount identity (other apiVersion, same group) THEN both constructs report it", () => {
    const { app, chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const other = new Chart(app, 'extras');
    new ApiObject(other, 'Sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'team-a', namespace: 'team-a' } });
    expect(synthErrorLines(app)).toEqual([
      `[platform/T] InstallerServiceAccount="ServiceAccount team-a/team-a": ServiceAccount team-a/team-a is also written by extras/Sa; ${SAME} ${FIX}`,
      `[extras/Sa] "ServiceAccount team-a/team-a": ServiceAccount team-a/team-a is also written by platform/T/InstallerServiceAccount (tenant platform/T); ${SAME} ${FIX}`,
    ]);
  });

  test('GIVEN cluster-scoped objects in charts with different namespaces THEN the namespace is ignored (ClusterRole identity)', () => {
    const app = Testing.app();
    const one = new Chart(app, 'one', { namespace: 'x' });
    const two = new Chart(app, 'two', { namespace: 'y' });
    new ScopedOperatorTenant(one, 'T', { namespaceName: 'team-a', clusterInstallerRules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }] });
    new ApiObject(two, 'Cr', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'team-a-olm-installer' } });
    new ApiObject(two, 'NotDup', { apiVersion: 'example.com/v1', kind: 'ServiceAccount', metadata: { name: 'team-a', namespace: 'team-a' } });
    expect(synthErrorLines(app)).toEqual([
      `[one/T] InstallerClusterRole/Resource="ClusterRole team-a-olm-installer": ClusterRole team-a-olm-installer is also written by two/Cr; ${SAME} ${FIX}`,
      `[two/Cr] "ClusterRole team-a-olm-installer": ClusterRole team-a-olm-installer is also written by one/T/InstallerClusterRole/Resource (tenant one/T); ${SAME} ${FIX}`,
    ]);
  });

  test('GIVEN the App synthesized twice THEN the errors are the same (one validation per object, index rebuilt per pass)', () => {
    const { app, chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new ApiObject(chart, 'Sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'team-a', namespace: 'team-a' } });
    const first = synthErrorLines(app);
    expect(first).toHaveLength(2);
    expect(synthErrorLines(app)).toEqual(first);
  });

  test('GIVEN more tenants THEN the App is still walked the same number of times per synth (one index per pass, not per tenant)', () => {
    const walks = (tenants: number) => {
      const { app, chart } = appAndChart();
      for (let i = 0; i < tenants; i++) new ScopedOperatorTenant(chart, `T${i}`, { namespaceName: `team-${i}` }).grantSubscriptionManagement(Group.fromName(chart, `G${i}`, 'ops'));
      const spy = jest.spyOn(app.node, 'findAll');
      app.synth();
      return spy.mock.calls.length;
    };
    const few = walks(2);
    expect(few).toBeGreaterThan(0);
    expect(walks(40)).toEqual(few);
  });

  test('GIVEN 300 distinct tenants THEN no DuplicateObject', () => {
    const { app, chart } = appAndChart();
    for (let i = 0; i < 300; i++) new ScopedOperatorTenant(chart, `T${i}`, { namespaceName: `team-${i}` });
    expect(synthErrorLines(app)).toEqual([]);
  });
});

describe('findDuplicateObjects', () => {
  test('property: the linear index reports exactly the pairs a pairwise comparison finds', () => {
    const CLUSTER = new Set(['rbac.authorization.k8s.io/ClusterRole', '/Namespace']);
    const obj = fc.record({
      apiVersion: fc.constantFrom('v1', 'rbac.authorization.k8s.io/v1', 'rbac.authorization.k8s.io/v1beta1', 'example.com/v1'),
      kind: fc.constantFrom('ServiceAccount', 'ClusterRole', 'Namespace', 'RoleBinding'),
      namespace: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
      name: fc.constantFrom('x', 'y'),
    });
    fc.assert(
      fc.property(fc.array(obj, { maxLength: 12 }), (specs) => {
        const app = Testing.app();
        const chart = new Chart(app, 'c');
        const objects = specs.map((o, i) => new ApiObject(chart, `o${i}`, {
          apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace },
        }));
        const id = (o: ApiObject) => {
          const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
          const ns = CLUSTER.has(`${group}/${o.kind}`) ? '' : o.metadata.namespace ?? '';
          return `${group}/${o.kind}/${ns}/${o.metadata.name}`;
        };
        const paths = (xs: ApiObject[]) => xs.map((x) => x.node.path);
        const expected = objects
          .map((o) => [o.node.path, paths(objects.filter((p) => p !== o && id(p) === id(o)))])
          .filter(([, others]) => others.length > 0);
        const actual = [...findDuplicateObjects(chart.node.findAll())].map(([o, others]) => [o.node.path, paths(others)]);
        expect(actual.sort()).toEqual(expected.sort());
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
