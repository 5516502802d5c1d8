/**
 * The parts ScopedOperatorTenant delegates to, each alone (no tenant): its identity, RBAC, accepted sensitive grants,
 * people's access, day-two state and the App-wide tree. The tenant's own tests cover them together.
 */
import { ApiObject, Testing } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { AuditedTenant } from '../../src/audit/audited-tenant';
import { SubjectKind } from '../../src/audit/effective-power';
import { SensitiveGrant } from '../../src/audit/installer-rule-checks';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InputCheck } from '../../src/core/input-check';
import { AccessLevel, OlmGeneration } from '../../src/olm/olm-naming';
import { TenantTree, TreeTenant } from '../../src/tenant/checks/tenant-tree';
import { CompactClusterRole } from '../../src/tenant/rbac/compact-cluster-role';
import { CompactRole } from '../../src/tenant/rbac/compact-role';
import { InstallerIdentity } from '../../src/tenant/rbac/installer-identity';
import { InstallerRbac } from '../../src/tenant/rbac/installer-rbac';
import { InstallerSensitiveGrants } from '../../src/tenant/rbac/installer-sensitive-grants';
import { PeopleGrantFacts, PeopleAccess } from '../../src/tenant/rbac/people-access';
import { PodSecurityLevel } from '../../src/tenant/scoped-operator-tenant-props';
import { OperatorSubscription } from '../../src/tenant/subscriptions/operator-subscription';
import { InstallPlanApproval } from '../../src/tenant/subscriptions/operator-subscription-props';
import { TenantDayTwo } from '../../src/tenant/subscriptions/tenant-day-two';
import { SENSITIVE_GRANTS_ANNOTATION } from '../../src/tenant/tenant-annotations';

const IMPERSONATE_WHAT = "'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras)";

function byKind(chart: Construct, kind: string): any[] {
  return Testing.synth(chart as any).filter((o) => o.kind === kind);
}

describe('InstallerIdentity', () => {
  test('GIVEN defaults THEN a Namespace with the pod-security defaults, the ServiceAccount and its token Secret', () => {
    const chart = Testing.chart();
    const identity = new InstallerIdentity(chart, 'team-a', 'installer', { podSecurity: PodSecurityLevel.RESTRICTED });
    expect(Testing.synth(chart)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'team-a',
          labels: {
            'pod-security.kubernetes.io/enforce': 'restricted',
            'pod-security.kubernetes.io/warn': 'restricted',
            'pod-security.kubernetes.io/audit': 'restricted',
          },
        },
      },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'team-a' } },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'installer', namespace: 'team-a', annotations: { 'kubernetes.io/service-account.name': 'installer' } },
        type: 'kubernetes.io/service-account-token',
      },
    ]);
    expect(identity.tokenSecret?.metadata.name).toEqual('installer');
  });

  test('GIVEN an adopted namespace and no token Secret THEN only the ServiceAccount', () => {
    const chart = Testing.chart();
    const identity = new InstallerIdentity(chart, 'team-a', 'installer', { createNamespace: false, createTokenSecret: false });
    expect(Testing.synth(chart)).toEqual([{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'team-a' } }]);
    expect([identity.namespace, identity.tokenSecret]).toEqual([undefined, undefined]);
  });
});

describe('InstallerRbac', () => {
  const RULE = { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] };

  function rbac(props: ConstructorParameters<typeof InstallerRbac>[1]['props'] = {}) {
    const chart = Testing.chart();
    const identity = new InstallerIdentity(chart, 'team-a', 'installer', { createNamespace: false, createTokenSecret: false });
    const annotated: string[] = [];
    const input = new InputCheck();
    const part = new InstallerRbac(chart, {
      namespace: 'team-a',
      serviceAccountName: 'installer',
      serviceAccount: identity.serviceAccount,
      roleName: 'installer',
      props,
      input,
      relaxes: () => false,
      annotateGrants: (role, cluster) => annotated.push(`${role.node.id} ${cluster}`),
    });
    return { chart, part, annotated, input };
  }

  test('GIVEN rules THEN the Role holds them, bound to the ServiceAccount, and the grants annotation is asked for once', () => {
    const { chart, part, annotated } = rbac({ installerRules: [RULE] });
    expect(part.role.rules).toEqual([RULE]);
    expect(byKind(chart, 'RoleBinding').map((b) => [b.metadata.name, b.roleRef.name, b.subjects])).toEqual([
      ['installer', 'installer', [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-a' }]],
    ]);
    expect(annotated).toEqual(['InstallerRole false']);
    expect(part.clusterRole).toBeUndefined();
  });

  test('WHEN a cluster rule is added THEN the ClusterRole and its binding are created once, and the rules key changes', () => {
    const { chart, part, annotated } = rbac({ installerRules: [] });
    const before = part.rulesKey();
    part.addClusterRule('addClusterInstallerRule(rule)', RULE);
    part.addClusterRule('addClusterInstallerRule(rule)', { ...RULE, verbs: ['list'] });
    expect(part.clusterRole?.rules).toEqual([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]);
    expect(byKind(chart, 'ClusterRoleBinding').map((b) => [b.metadata.name, b.roleRef.name])).toEqual([['team-a-olm-installer', 'team-a-olm-installer']]);
    expect(annotated).toEqual(['InstallerRole false', 'InstallerClusterRole true']);
    expect(part.rulesKey()).not.toEqual(before);
  });

  test('GIVEN legacy pull secrets THEN a Role in the catalog namespace reads only them, listed among the rules outside the namespace', () => {
    const { part } = rbac({ installerRules: [] });
    part.addLegacyPullSecretAccess({ catalogNamespace: 'openshift-marketplace', secretNames: ['b', 'a'] });
    expect(part.otherNamespaceRules()).toEqual([
      { namespace: 'openshift-marketplace', rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a', 'b'] }] },
    ]);
    expect(part.legacyPullSecretBinding?.namespace).toEqual('openshift-marketplace');
  });

  test('GIVEN a rule of the wrong shape THEN nothing is added and the input check names the method', () => {
    const { part, input } = rbac({ installerRules: [] });
    part.addRule('addInstallerRule(rule)', 'get pods' as any);
    expect(part.role.rules).toEqual([]);
    expect(input.errors.map((e) => e.field)).toEqual(['addInstallerRule(rule)']);
  });
});

describe('InstallerSensitiveGrants', () => {
  const IMPERSONATE_RULE = { apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'], verbs: ['impersonate'] };

  function grants(clusterRules: any[] | undefined, derived: any[] = []) {
    return new InstallerSensitiveGrants({
      scope: new Construct(Testing.app(), 'Tenant'),
      namespace: 'team-a',
      props: {
        allowedSensitiveGrants: [SensitiveGrant.ESCALATE],
        acceptedSensitiveGrants: [{ grant: SensitiveGrant.IMPERSONATE, reason: 'reviewed (PLAT-1)' }, { grant: SensitiveGrant.BIND, reason: ' ' }],
      },
      operatorRbacBeyondNamespace: () => false,
      bundles: () => [],
      installerRules: () => [],
      clusterInstallerRules: () => clusterRules,
      isDerivedNamedBind: (rule) => derived.includes(rule),
    });
  }

  test('the grants accepted by name are the allowed ones and those with a reason, in SensitiveGrant order', () => {
    expect(grants(undefined).allowedGrants()).toEqual([SensitiveGrant.ESCALATE, SensitiveGrant.IMPERSONATE]);
  });

  test('GIVEN a ClusterRole holding an accepted grant THEN it is held with the reason, and the annotation says so', () => {
    const part = grants([IMPERSONATE_RULE]);
    expect(part.held()).toEqual([{ grant: SensitiveGrant.IMPERSONATE, what: IMPERSONATE_WHAT, namespace: '', acceptance: 'accepted by acceptedSensitiveGrants: reviewed (PLAT-1)' }]);
    const chart = Testing.chart();
    part.annotate(new CompactClusterRole(chart, 'R', { name: 'r', rules: [IMPERSONATE_RULE] }), true);
    part.annotate(new CompactRole(chart, 'N', { name: 'n', namespace: 'team-a' }), false);
    expect(Testing.synth(chart).map((o) => o.metadata.annotations)).toEqual([
      { [SENSITIVE_GRANTS_ANNOTATION]: `IMPERSONATE (${IMPERSONATE_WHAT}): accepted by acceptedSensitiveGrants: reviewed (PLAT-1)` },
      undefined, // no grant, no annotation
    ]);
  });

  test('GIVEN no ClusterRole, or only a derived named bind THEN nothing is held', () => {
    expect(grants(undefined).held()).toEqual([]);
    expect(grants([IMPERSONATE_RULE], [IMPERSONATE_RULE]).held()).toEqual([]);
  });
});

describe('PeopleAccess', () => {
  function people(allNamespaces: boolean) {
    const chart = Testing.chart();
    const operatorGroup = new ApiObject(chart, 'OG', { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'og', namespace: 'team-a' } });
    const part = new PeopleAccess(chart, {
      namespace: 'team-a',
      operatorGroupName: 'og',
      olmGeneration: OlmGeneration.V0_15_TO_V0_25,
      allNamespaces,
      targetNamespaces: allNamespaces ? [] : ['team-a', 'team-b'],
      operatorGroup,
    });
    return { chart, part };
  }

  test('GIVEN two target namespaces THEN one binding per namespace, named uniquely, and the grants, facts and audit subjects say who', () => {
    const { chart, part } = people(false);
    part.grantOperatorAccess({ kind: 'Group', name: 'devs' }, AccessLevel.VIEW);
    part.grantOperatorAccess({ kind: 'ServiceAccount', name: 'ci' }, AccessLevel.VIEW);
    expect(byKind(chart, 'RoleBinding').map((b) => [b.metadata.namespace, b.metadata.name, b.roleRef.name])).toEqual([
      ['team-a', 'og-operator-view', 'og-view'],
      ['team-b', 'team-a-og-operator-view', 'og-view'],
    ]);
    expect(part.grants).toEqual([
      { subjectKind: 'Group', subjectName: 'devs', grant: 'operator-view', namespace: 'team-a' },
      { subjectKind: 'ServiceAccount', subjectName: 'ci', grant: 'operator-view', namespace: 'team-a' },
      { subjectKind: 'Group', subjectName: 'devs', grant: 'operator-view', namespace: 'team-b' },
      { subjectKind: 'ServiceAccount', subjectName: 'ci', grant: 'operator-view', namespace: 'team-b' },
    ]);
    expect(part.facts.map((f: PeopleGrantFacts) => `${f.field} ${f.kind}/${f.name} in ${f.bindingNamespace}`)).toEqual([
      'grantOperatorAccess(view) Group/devs in team-a',
      'grantOperatorAccess(view) ServiceAccount/ci in team-a',
      'grantOperatorAccess(view) Group/devs in team-b',
      'grantOperatorAccess(view) ServiceAccount/ci in team-b',
    ]);
    // a ServiceAccount subject without namespace is the binding's (rule.go appliesToUser)
    expect(part.auditSubjects).toEqual([
      { kind: SubjectKind.GROUP, name: 'devs' },
      { kind: SubjectKind.SERVICE_ACCOUNT, name: 'ci', namespace: 'team-a' },
      { kind: SubjectKind.SERVICE_ACCOUNT, name: 'ci', namespace: 'team-b' },
    ]);
    expect([part.hasSubscriptionManagers, part.levelsOnAllNamespaces]).toEqual([false, []]);
  });

  test('GIVEN AllNamespaces THEN the binding is in the tenant namespace only and the level is remembered for the warning', () => {
    const { chart, part } = people(true);
    part.grantOperatorAccess({ kind: 'User', name: 'alice' }, AccessLevel.ADMIN);
    part.grantSubscriptionManagement({ kind: 'User', name: 'bob' });
    expect(byKind(chart, 'RoleBinding').map((b) => `${b.metadata.namespace}/${b.metadata.name}`)).toEqual([
      'team-a/og-operator-admin', 'team-a/og-subscription-manager',
    ]);
    expect([part.hasSubscriptionManagers, part.levelsOnAllNamespaces]).toEqual([true, [AccessLevel.ADMIN]]);
  });
});

describe('TenantDayTwo', () => {
  const manual = (startingCsv: string | undefined) =>
    ({ info: { startingCsv }, installPlanApproval: InstallPlanApproval.MANUAL }) as unknown as OperatorSubscription;
  const automatic = { info: { startingCsv: 'auto.v1' }, installPlanApproval: InstallPlanApproval.AUTOMATIC } as unknown as OperatorSubscription;

  test('the approver is added once and pins the startingCsv of Manual Subscriptions only', () => {
    const chart = Testing.chart();
    const part = new TenantDayTwo('team-a', new InputCheck());
    part.pin(manual('before.v1')); // no approver yet: nothing to pin
    const approver = part.addPinnedApprover(chart, {}, undefined, [manual('a.v1'), automatic, manual(undefined)]);
    part.pin(manual('b.v2'));
    expect(part.addPinnedApprover(chart, {}, undefined, [])).toBe(approver);
    expect(approver.pinnedCsvs).toEqual(['a.v1', 'b.v2']);
  });

  test('wrong-typed approver options are input errors; removed operators are kept in call order', () => {
    const input = new InputCheck();
    const part = new TenantDayTwo('team-a', input);
    part.addPinnedApprover(Testing.chart(), { image: 42 } as any, undefined, []);
    expect(input.errors.map((e) => e.field)).toEqual(['addPinnedApprover(options).image']);
    part.remove({ packageName: 'etcd', csvName: 'etcdoperator.v0.9.4' });
    part.remove({ packageName: 'prometheus', csvName: 'prometheusoperator.0.56.3' });
    expect(part.removedOperators.map((r) => r.packageName)).toEqual(['etcd', 'prometheus']);
  });
});

describe('TenantTree', () => {
  class FakeTenant extends Construct implements TreeTenant {
    public readonly targetNamespaces: string[];
    public readonly installerServiceAccountName = 'installer';
    public readonly installedBundles: OperatorBundle[] = [];
    constructor(scope: Construct, id: string, public readonly namespaceName: string) {
      super(scope, id);
      this.targetNamespaces = [namespaceName];
      new ApiObject(this, 'OG', { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: id, namespace: namespaceName } });
      TenantTree.register(this);
    }
    public _peopleGrants(): PeopleGrantFacts[] {
      return [];
    }
    public auditFacts(): AuditedTenant {
      return {
        name: this.node.path,
        namespace: this.namespaceName,
        targetNamespaces: this.targetNamespaces,
        operatorGroupName: this.node.id,
        installerServiceAccountName: this.installerServiceAccountName,
      };
    }
  }

  test('tenants are found by namespace and by construct, and OperatorGroups by namespace', () => {
    const chart = Testing.chart();
    const a = new FakeTenant(chart, 'a', 'team-a');
    const b = new FakeTenant(chart, 'b', 'team-b');
    const a2 = new FakeTenant(chart, 'a2', 'team-a');
    const other: IConstruct = Testing.chart();
    expect(TenantTree.tenants(chart)).toEqual([a, b, a2]);
    expect(TenantTree.tenantsIn(chart, ['team-a', 'team-a'])).toEqual([a, a2]);
    expect(TenantTree.tenantOf(b.node.findChild('OG'))).toBe(b);
    expect(TenantTree.tenantOf(chart)).toBeUndefined();
    expect(TenantTree.operatorGroupsIn(chart, 'team-a').map((o) => o.node.path)).toEqual([a.node.path + '/OG', a2.node.path + '/OG']);
    expect(TenantTree.tenants(other)).toEqual([]);
  });

  test('an object of a tenant written again outside it is a duplicate of that tenant; no cross-tenant conflict here', () => {
    const chart = Testing.chart();
    const a = new FakeTenant(chart, 'a', 'team-a');
    const b = new FakeTenant(chart, 'b', 'team-b');
    const copy = new ApiObject(chart, 'Copy', { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'a', namespace: 'team-a' } });
    expect(TenantTree.duplicatesOf(a)).toEqual([[a.node.findChild('OG'), [copy]]]);
    expect(TenantTree.duplicatesOf(b)).toEqual([]);
    expect(TenantTree.tenantPathOf(copy)).toBeUndefined();
    expect(TenantTree.conflictsOf(a)).toEqual([]);
  });
});
