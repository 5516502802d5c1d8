import { ApiObject, App, Chart, Testing, Yaml } from 'cdk8s';
import { Group, User } from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import {
  AccessLevel,
  CatalogSourceReference,
  CuratedCatalog,
  Diagnostics,
  InstallPlanApproval,
  OlmGeneration,
  PodSecurityLevel,
  ScopedOperatorTenant,
  SensitiveGrant,
  TargetNamespaces,
  UpgradeStrategy,
  olm,
} from '../../src';
import { SchemaValidator } from '../util/schema-validator';

const CATALOG = CatalogSourceReference.fromName('operatorhubio-catalog', 'olm');

/** All validation messages of `scope` and below (what app.synth() would report). */
function errorsOf(scope: IConstruct): string[] {
  return scope.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

function newChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

/** The OKD docs' fine-grained Role rules, transcribed here from openshift-docs modules/olm-policy-fine-grained-permissions.adoc. */
const OKD_FINE_GRAINED_RULES_SORTED = [
  { apiGroups: [''], resources: ['pods'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
  { apiGroups: [''], resources: ['serviceaccounts', 'services'], verbs: ['create', 'get', 'patch', 'update'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
  { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions', 'subscriptions'], verbs: ['create', 'get', 'patch', 'update'] },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create', 'get', 'patch', 'update'] },
];

describe('ScopedOperatorTenant', () => {
  test('GIVEN only a namespace name WHEN synthesized THEN it emits the OKD procedure objects in dependency order', () => {
    // GIVEN
    const { chart } = newChart();
    // WHEN
    new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    // THEN
    expect(Testing.synth(chart)).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'team-a', namespace: 'team-a' } },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'team-a', namespace: 'team-a', annotations: { 'kubernetes.io/service-account.name': 'team-a' } },
        type: 'kubernetes.io/service-account-token',
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'team-a', namespace: 'team-a' },
        rules: OKD_FINE_GRAINED_RULES_SORTED,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'team-a', namespace: 'team-a' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'team-a' },
        subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
      },
      {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: 'team-a', namespace: 'team-a' },
        spec: { serviceAccountName: 'team-a', targetNamespaces: ['team-a'] },
      },
    ]);
  });

  test("GIVEN the OKD 4.17 docs' `scoped` example WHEN synthesized THEN it is semantically what the docs create", () => {
    // The docs ("Allowing non-cluster administrators to install Operators", openshift-docs
    // modules/olm-policy-scoping-operator-install.adoc) create, with `oc create -f -`:
    const docs = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scoped' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'scoped', namespace: 'scoped' } },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 'scoped', namespace: 'scoped', annotations: { 'kubernetes.io/service-account.name': 'scoped' } },
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'scoped', namespace: 'scoped' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'scoped-bindings', namespace: 'scoped' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'scoped' },
        subjects: [{ kind: 'ServiceAccount', name: 'scoped', namespace: 'scoped' }],
      },
      {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: 'scoped', namespace: 'scoped' },
        spec: { serviceAccountName: 'scoped', targetNamespaces: ['scoped'] },
      },
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'etcd', namespace: 'scoped' },
        spec: { channel: 'singlenamespace-alpha', name: 'etcd', source: 'operatorhubio-catalog', sourceNamespace: 'olm' },
      },
    ];
    // GIVEN
    const { app, chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'Scoped', {
      namespaceName: 'scoped',
      installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    });
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG });
    // WHEN
    const out = Testing.synth(chart);

    // THEN: deliberate differences, and nothing else:
    // 1. the RoleBinding is named like the Role ('scoped'), not 'scoped-bindings' (a binding's name has no meaning);
    // 2. the Subscription states installPlanApproval: Automatic, OLM's default, explicitly;
    // 3. the docs' `*/*/*` Role is reported as a warning (WildcardInstallerRole).
    const expected = docs.map((o) => {
      if (o.kind === 'RoleBinding') return { ...o, metadata: { ...o.metadata, name: 'scoped' } };
      if (o.kind === 'Subscription') return { ...o, spec: { ...(o as any).spec, installPlanApproval: 'Automatic' } };
      return o;
    });
    expect(out).toEqual(expected);
    expect(Diagnostics.warnings(app).map((d) => d.code)).toEqual(['WildcardInstallerRole']);
  });

  test('GIVEN an existing namespace WHEN createNamespace is false THEN no Namespace is emitted', () => {
    const { chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', createNamespace: false, createTokenSecret: false });
    expect(Testing.synth(chart).map((o) => o.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'OperatorGroup']);
  });

  test('GIVEN labels, annotations and pod security WHEN synthesized THEN they are on the Namespace', () => {
    const { chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      namespaceLabels: { team: 'a' },
      namespaceAnnotations: { owner: 'a@example.com' },
      podSecurity: PodSecurityLevel.RESTRICTED,
    });
    expect(Testing.synth(chart)[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team-a',
        labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'team': 'a' },
        annotations: { owner: 'a@example.com' },
      },
    });
  });

  test('GIVEN custom names and an upgrade strategy WHEN synthesized THEN the OperatorGroup names the ServiceAccount', () => {
    const { chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      operatorGroupName: 'team-a-og',
      installerServiceAccountName: 'olm-installer',
      installerRoleName: 'olm-installer-role',
      tokenSecretName: 'olm-installer-token',
      upgradeStrategy: UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD,
    });
    const out = Testing.synth(chart);
    expect(out.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Namespace/team-a',
      'ServiceAccount/olm-installer',
      'Secret/olm-installer-token',
      'Role/olm-installer-role',
      'RoleBinding/olm-installer-role',
      'OperatorGroup/team-a-og',
    ]);
    expect(out[2].metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'olm-installer' });
    expect(out[4].subjects).toEqual([{ kind: 'ServiceAccount', name: 'olm-installer', namespace: 'team-a' }]);
    expect(out[5].spec).toEqual({ serviceAccountName: 'olm-installer', targetNamespaces: ['team-a'], upgradeStrategy: 'TechPreviewUnsafeFailForward' });
    expect(Diagnostics.warnings(chart).map((d) => `${d.code} ${d.field}=${d.value}`)).toEqual(['UnsafeUpgradeStrategy upgradeStrategy=TechPreviewUnsafeFailForward']);
  });

  describe('installer rules', () => {
    test('GIVEN rules added after construction THEN they land in the Role, equal rules merged (lazy rendering)', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
      // WHEN
      tenant.addInstallerRule({ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] });
      tenant.addInstallerRule({ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] });
      tenant.allowInstaller(['get', 'update'], '', ['secrets'], ['etcd-tls']);
      tenant.allowInstaller(['get', 'update'], '', ['secrets'], ['etcd-tls']);
      // THEN
      const role = Testing.synth(chart).find((o) => o.kind === 'Role');
      expect(role.rules).toEqual([
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] },
        { apiGroups: [''], resourceNames: ['etcd-tls'], resources: ['secrets'], verbs: ['get', 'update'] },
      ]);
      expect(tenant.installerRules).toEqual([
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: ['etcd-tls'], verbs: ['get', 'update'] },
      ]);
    });

    test('GIVEN cluster installer rules THEN a ClusterRole and ClusterRoleBinding precede the OperatorGroup', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'team-a',
        createTokenSecret: false,
        clusterInstallerRules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles', 'clusterrolebindings'], verbs: ['get', 'create', 'update', 'patch'] }],
      });
      const out = Testing.synth(chart);
      expect(out.map((o) => o.kind)).toEqual(['Namespace', 'ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding', 'OperatorGroup']);
      expect(out[4]).toEqual({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'team-a-olm-installer' },
        rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings', 'clusterroles'], verbs: ['create', 'get', 'patch', 'update'] }],
      });
      expect(out[5]).toEqual({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'team-a-olm-installer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'team-a-olm-installer' },
        subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
      });
      expect(tenant.clusterInstallerRules).toEqual([
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings', 'clusterroles'], verbs: ['create', 'get', 'patch', 'update'] },
      ]);
    });

    test('GIVEN a cluster-scoped wildcard grant THEN CRD and APIService writes are errors even with every sensitive grant allowed', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'team-a',
        clusterInstallerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
        allowedSensitiveGrants: [SensitiveGrant.ESCALATE, SensitiveGrant.BIND, SensitiveGrant.IMPERSONATE, SensitiveGrant.OPERATOR_GROUP_WRITES],
      });
      const rule = 'clusterInstallerRules[0] {\\"apiGroups\\":[\\"*\\"],\\"resources\\":[\\"*\\"],\\"verbs\\":[\\"*\\"]}';
      expect(errorsOf(tenant)).toEqual([
        `[platform/T] clusterInstallerRules="${rule}": the cluster-scoped installer rules allow create/update/patch/delete/deletecollection on apiextensions.k8s.io customresourcedefinitions; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule's apiGroups/resources/verbs so that it does not match apiextensions.k8s.io customresourcedefinitions (InstallerCanWriteCrds)`,
        `[platform/T] clusterInstallerRules="${rule}": the cluster-scoped installer rules allow create/update/patch/delete/deletecollection on apiregistration.k8s.io apiservices; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule's apiGroups/resources/verbs so that it does not match apiregistration.k8s.io apiservices (InstallerCanWriteApiServices)`,
      ]);
    });

    test('GIVEN escalate in the namespaced Role THEN it is an error unless opted into', () => {
      const rules = [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate', 'create'] }];
      const { chart } = newChart();
      const denied = new ScopedOperatorTenant(chart, 'Denied', { namespaceName: 'team-a', installerRules: rules });
      const allowed = new ScopedOperatorTenant(chart, 'Allowed', { namespaceName: 'team-b', installerRules: rules, allowedSensitiveGrants: [SensitiveGrant.ESCALATE] });
      expect(errorsOf(denied)).toEqual([
        '[platform/Denied] installerRules="installerRules[0] {\\"apiGroups\\":[\\"rbac.authorization.k8s.io\\"],\\"resources\\":[\\"roles\\"],\\"verbs\\":[\\"escalate\\",\\"create\\"]}": the namespaced installer rules grant \'escalate\' on roles/clusterroles (SensitiveGrant.ESCALATE); an operator installed with them could gain rights nobody reviewed. Fix: remove the grant, or accept it explicitly with allowedSensitiveGrants: [SensitiveGrant.ESCALATE] (InstallerSensitiveGrant)',
      ]);
      expect(errorsOf(allowed)).toEqual([]);
    });

    test('GIVEN a legacy pull secret option THEN a Role in the catalog namespace reads only the named secrets', () => {
      const { app, chart } = newChart();
      new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'team-a',
        createTokenSecret: false,
        installerRules: [],
        legacyPullSecretAccess: { catalogNamespace: 'openshift-marketplace', secretNames: ['quay-pull', 'acme-pull'] },
      });
      const out = Testing.synth(chart);
      expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
        'Namespace//team-a',
        'ServiceAccount/team-a/team-a',
        'Role/team-a/team-a',
        'RoleBinding/team-a/team-a',
        'Role/openshift-marketplace/team-a-legacy-pull-secrets',
        'RoleBinding/openshift-marketplace/team-a-legacy-pull-secrets',
        'OperatorGroup/team-a/team-a',
      ]);
      expect(out[2].rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'patch', 'update'] }]);
      expect(out[4].rules).toEqual([{ apiGroups: [''], resourceNames: ['acme-pull', 'quay-pull'], resources: ['secrets'], verbs: ['get'] }]);
      expect(out[5].subjects).toEqual([{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }]);
      expect(Diagnostics.warnings(app).map((d) => d.code)).toEqual(['LegacyPullSecretAccess']);
    });
  });

  describe('target namespaces', () => {
    test('GIVEN explicit targets with a reason THEN they are sorted and the reason is annotated', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'team-a',
        targetNamespaces: TargetNamespaces.namespaces(['team-a-dev', 'team-a', 'team-a-dev'], 'the operator manages the dev namespace too'),
      });
      const og = Testing.synth(chart).find((o) => o.kind === 'OperatorGroup');
      expect(og).toEqual({
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: {
          name: 'team-a',
          namespace: 'team-a',
          annotations: { 'cdk8s-olm-tenancy.io/target-namespaces-reason': 'the operator manages the dev namespace too' },
        },
        spec: { serviceAccountName: 'team-a', targetNamespaces: ['team-a', 'team-a-dev'] },
      });
      expect(tenant.targetNamespaces).toEqual(['team-a', 'team-a-dev']);
    });

    test('GIVEN AllNamespaces THEN targetNamespaces is omitted and other tenants give a warning', () => {
      const { app, chart } = newChart();
      const global = new ScopedOperatorTenant(chart, 'Global', { namespaceName: 'operators', targetNamespaces: TargetNamespaces.allNamespaces('cluster-wide cert-manager') });
      new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
      const og = Testing.synth(chart).find((o) => o.kind === 'OperatorGroup' && o.metadata.namespace === 'operators');
      expect(og.spec).toEqual({ serviceAccountName: 'operators' });
      expect(og.metadata.annotations).toEqual({ 'cdk8s-olm-tenancy.io/target-namespaces-reason': 'cluster-wide cert-manager' });
      expect(global.targetNamespaces).toEqual([]);
      expect(global.allNamespaces).toEqual(true);
      expect(Diagnostics.warnings(app).map((d) => `${d.code} ${d.value}`)).toEqual(['AllNamespacesIncludesTenants team-a']);
    });

    test("GIVEN a target that is another tenant's namespace THEN it is an error", () => {
      const { chart } = newChart();
      new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b' });
      const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b'], 'shared') });
      expect(errorsOf(a)).toEqual([
        "[platform/TeamA] targetNamespaces=\"team-b\": namespace 'team-b' belongs to tenant platform/TeamB; OLM would copy this tenant's operator RBAC into it. Fix: remove 'team-b' from targetNamespaces, or install the operator in that tenant (TargetsOtherTenant)",
      ]);
    });
  });

  describe('one OperatorGroup per namespace', () => {
    test('GIVEN two tenants on one namespace THEN each reports TooManyOperatorGroups', () => {
      const { chart } = newChart();
      const a = new ScopedOperatorTenant(chart, 'A', { namespaceName: 'shared' });
      const b = new ScopedOperatorTenant(chart, 'B', { namespaceName: 'shared', operatorGroupName: 'other' });
      expect(errorsOf(a)).toEqual([
        "[platform/A] namespaceName=\"shared\": namespace 'shared' also has OperatorGroup 'other' from tenant platform/B; OLM refuses to install into a namespace with more than one OperatorGroup (TooManyOperatorGroups). Fix: give each tenant its own namespace, or subscribe through the existing tenant (TooManyOperatorGroups)",
      ]);
      expect(errorsOf(b)).toEqual([
        "[platform/B] namespaceName=\"shared\": namespace 'shared' also has OperatorGroup 'shared' from tenant platform/A; OLM refuses to install into a namespace with more than one OperatorGroup (TooManyOperatorGroups). Fix: give each tenant its own namespace, or subscribe through the existing tenant (TooManyOperatorGroups)",
      ]);
    });

    test('GIVEN a raw OperatorGroup in another chart THEN the tenant reports it', () => {
      const app = Testing.app();
      const other = new Chart(app, 'legacy');
      new olm.OperatorGroup(other, 'og', { metadata: { name: 'hand-made', namespace: 'team-a' } });
      const tenant = new ScopedOperatorTenant(new Chart(app, 'platform'), 'T', { namespaceName: 'team-a' });
      expect(errorsOf(tenant)).toEqual([
        "[platform/T] namespaceName=\"team-a\": namespace 'team-a' also has OperatorGroup 'hand-made' from legacy/og; OLM refuses to install into a namespace with more than one OperatorGroup (TooManyOperatorGroups). Fix: give each tenant its own namespace, or subscribe through the existing tenant (TooManyOperatorGroups)",
      ]);
    });
    test('GIVEN an OperatorGroup added after a first synth THEN the next synth reports it', () => {
      const { chart } = newChart();
      new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      expect(Testing.synth(chart)).toHaveLength(6);
      new olm.OperatorGroup(chart, 'late', { metadata: { name: 'late', namespace: 'team-a' } });
      expect(() => Testing.synth(chart)).toThrow("namespace 'team-a' also has OperatorGroup 'late' from platform/late");
    });
  });

  describe('subscriptions', () => {
    test('GIVEN a subscription with config THEN it maps to the Subscription spec', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      const sub = tenant.subscribe({
        packageName: 'etcd',
        channel: 'singlenamespace-alpha',
        catalog: CATALOG,
        installPlanApproval: InstallPlanApproval.MANUAL,
        startingCsv: 'etcdoperator.v0.9.2',
        config: {
          env: [{ name: 'LOG_LEVEL', value: 'debug' }],
          envFrom: [{ configMapRef: { name: 'proxy' } }],
          resources: { limits: { memory: olm.SubscriptionSpecConfigResourcesLimits.fromString('256Mi') } },
          nodeSelector: { 'node-role.kubernetes.io/infra': '' },
          tolerations: [{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
          volumes: [{ name: 'ca', configMap: { name: 'trusted-ca' } }],
          volumeMounts: [{ name: 'ca', mountPath: '/etc/pki/ca' }],
          selector: { matchLabels: { name: 'etcd-operator' } },
          annotations: { team: 'a' },
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
        },
      });
      tenant.grantSubscriptionManagement(User.fromName(chart, 'alice', 'alice'));
      const out = Testing.synth(chart).find((o) => o.kind === 'Subscription');
      expect(out).toEqual({
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'etcd', namespace: 'team-a' },
        spec: {
          name: 'etcd',
          channel: 'singlenamespace-alpha',
          source: 'operatorhubio-catalog',
          sourceNamespace: 'olm',
          installPlanApproval: 'Manual',
          startingCSV: 'etcdoperator.v0.9.2',
          config: {
            env: [{ name: 'LOG_LEVEL', value: 'debug' }],
            envFrom: [{ configMapRef: { name: 'proxy' } }],
            resources: { limits: { memory: '256Mi' } },
            nodeSelector: { 'node-role.kubernetes.io/infra': '' },
            tolerations: [{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
            volumes: [{ name: 'ca', configMap: { name: 'trusted-ca' } }],
            volumeMounts: [{ name: 'ca', mountPath: '/etc/pki/ca' }],
            selector: { matchLabels: { name: 'etcd-operator' } },
            annotations: { team: 'a' },
            affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
          },
        },
      });
      expect(tenant.subscriptions).toEqual([
        {
          name: 'etcd',
          namespace: 'team-a',
          packageName: 'etcd',
          channel: 'singlenamespace-alpha',
          sourceName: 'operatorhubio-catalog',
          sourceNamespace: 'olm',
          installPlanApproval: InstallPlanApproval.MANUAL,
          startingCsv: 'etcdoperator.v0.9.2',
          constructPath: 'platform/T/Subscription-etcd',
        },
      ]);
      expect(sub.info.constructPath).toEqual('platform/T/Subscription-etcd');
    });

    test('GIVEN the catalog construct WHEN subscribing THEN bindSubscriber is called with the tenant and its namespace and checkSubscription messages are errors', () => {
      const calls: string[] = [];
      const catalog = {
        bindSubscriber: (subscriber: IConstruct, ns: string) => {
          calls.push(`${subscriber.node.path} ${ns}`);
          return { name: 'curated', namespace: 'team-a' };
        },
        checkSubscription: (req: any) => (req.packageName === 'etcd' ? [] : [`package '${req.packageName}' is not curated; allowed: etcd`]),
      };
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      tenant.subscribe({ packageName: 'etcd', catalog });
      tenant.subscribe({ packageName: 'prometheus', catalog });
      expect(calls).toEqual(['platform/T team-a', 'platform/T team-a']);
      expect(errorsOf(tenant)).toEqual([
        "[platform/T/Subscription-prometheus] catalog=\"team-a/curated\": package 'prometheus' is not curated; allowed: etcd. Fix: subscribe to what the catalog offers, or add it to the catalog (CatalogRejectsSubscription)",
      ]);
    });

    test('GIVEN bad subscriptions THEN each problem is one error, reported together by app.synth()', () => {
      const { app, chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      tenant.subscribe({ packageName: 'etcd', channel: 'alpha', catalog: CATALOG });
      tenant.subscribe({ packageName: 'etcd', name: 'etcd-again', channel: '', catalog: CATALOG });
      tenant.subscribe({ packageName: '', catalog: CATALOG, name: 'nothing' });
      tenant.subscribe({ packageName: 'Prometheus', catalog: CATALOG });
      const expected = [
        "[platform/T] subscriptions[etcd]=\"etcd\": package 'etcd' is subscribed 2 times (platform/T/Subscription-etcd, platform/T/Subscription-etcd-again); OLM resolves a namespace as one unit and cannot install a package twice. Fix: keep one subscribe() call per package (DuplicateSubscription)",
        '[platform/T/Subscription-etcd-again] channel="": the channel is empty. Fix: name a channel of the package (e.g. \'stable\'), or leave `channel` out to follow the package\'s default channel (EmptyChannel)',
        "[platform/T/Subscription-nothing] packageName=\"\": the package name is empty. Fix: name the OLM package, e.g. 'etcd' (EmptyPackageName)",
        "[platform/T/Subscription-Prometheus] packageName=\"Prometheus\": Subscription name must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (RFC 1123 subdomain). Fix: set `name` to a lower-case RFC 1123 subdomain (the package name is used by default) (InvalidName)",
      ];
      expect(errorsOf(tenant)).toEqual(expected);
      expect(() => app.synth()).toThrow(expected.map((e) => `\n  ${e}`).join(''));
    });

    test('GIVEN two subscriptions with one name for different packages THEN DuplicateSubscriptionName', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      tenant.subscribe({ packageName: 'etcd', name: 'op', catalog: CATALOG });
      tenant.subscribe({ packageName: 'redis', name: 'op', catalog: CATALOG });
      expect(errorsOf(tenant)).toEqual([
        "[platform/T] subscriptions[op]=\"op\": 2 Subscriptions are named 'op' (platform/T/Subscription-op, platform/T/Subscription-op-2). Fix: give each subscription its own `name` (DuplicateSubscriptionName)",
      ]);
    });

    test('GIVEN startingCSV with Automatic, mixed approvals and no approver THEN three warnings', () => {
      const { app, chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
      tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, startingCsv: 'etcdoperator.v0.9.2' });
      tenant.subscribe({ packageName: 'redis', catalog: CATALOG, installPlanApproval: InstallPlanApproval.MANUAL });
      expect(Diagnostics.report(app)).toEqual(
        [
          'warning: [platform/T] subscriptions="redis": InstallPlans will wait for manual approval but the tenant grants nobody the right to approve them. Fix: call grantSubscriptionManagement(subject) for the team that approves upgrades (ManualApprovalWithoutApprover)',
          "warning: [platform/T] subscriptions=\"Manual: redis; Automatic: etcd\": OLM resolves namespace 'team-a' as one unit and one Manual Subscription makes every InstallPlan there Manual (OLM pkg/controller/operators/catalog/operator.go), so the Automatic Subscriptions will wait for approval too. Fix: use the same installPlanApproval for every Subscription of the tenant, or put them in separate tenants (MixedInstallPlanApproval)",
          'warning: [platform/T] subscriptions[etcd].startingCsv="etcdoperator.v0.9.2": with Automatic approval OLM installs the starting CSV and immediately upgrades past it, so it does not pin the version. Fix: use installPlanApproval: InstallPlanApproval.MANUAL to stay on the starting CSV, or drop startingCsv (StartingCsvWithAutomaticApproval)',
        ].join('\n'),
      );
      // WHEN someone may approve THEN that warning goes away
      tenant.grantSubscriptionManagement(Group.fromName(chart, 'ops', 'ops'));
      expect(Diagnostics.warnings(app).map((d) => d.code)).toEqual(['MixedInstallPlanApproval', 'StartingCsvWithAutomaticApproval']);
    });
  });

  describe('access for people', () => {
    test('GIVEN grantOperatorAccess THEN RoleBindings in every target namespace bind the exact OLM ClusterRole name', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'operators',
        operatorGroupName: 'global-operators',
        createTokenSecret: false,
        targetNamespaces: TargetNamespaces.namespaces(['operators', 'apps'], 'apps hosts the operands'),
      });
      tenant.grantOperatorAccess(User.fromName(chart, 'bob', 'bob'), AccessLevel.ADMIN);
      tenant.grantOperatorAccess(Group.fromName(chart, 'devs', 'devs'), AccessLevel.ADMIN);
      tenant.grantOperatorAccess(User.fromName(chart, 'bob2', 'bob'), AccessLevel.ADMIN);
      const bindings = Testing.synth(chart).filter((o) => o.kind === 'RoleBinding' && o.roleRef.kind === 'ClusterRole');
      // value observed on a real cluster (issue #2): operators / global-operators / admin
      const clusterRole = 'olm.og.global-operators.admin-5UD4U2IfBGbw51Qy2Jaefk1uawvkj2OJILlc3w';
      const subjects = [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' },
      ];
      expect(bindings).toEqual(
        ['apps', 'operators'].map((ns) => ({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: ns === 'operators' ? 'global-operators-operator-admin' : 'operators-global-operators-operator-admin', namespace: ns },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
          subjects,
        })),
      );
    });

    test('GIVEN the legacy OLM generation THEN the binding names <og>-<level>', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', olmGeneration: OlmGeneration.LEGACY });
      tenant.grantOperatorAccess(User.fromName(chart, 'bob', 'bob'), AccessLevel.VIEW);
      const binding = Testing.synth(chart).find((o) => o.kind === 'RoleBinding' && o.roleRef.kind === 'ClusterRole');
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'team-a-view' });
    });

    test('GIVEN grantSubscriptionManagement THEN a Role manages subscriptions and installplans, never operatorgroups or catalogsources', () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', createTokenSecret: false });
      tenant.grantSubscriptionManagement(Group.fromName(chart, 'team', 'team-a-admins'));
      const out = Testing.synth(chart);
      expect(out.slice(5)).toEqual([
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'team-a-subscription-manager', namespace: 'team-a' },
          rules: [
            { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['get', 'list', 'watch'] },
            { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
            { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
          ],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'team-a-subscription-manager', namespace: 'team-a' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'team-a-subscription-manager' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' }],
        },
      ]);
    });
  });

  test('GIVEN invalid names THEN one error per name, naming field, value and fix', () => {
    const { chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'Team_A',
      operatorGroupName: 'og/1',
      installerServiceAccountName: 'x'.repeat(254),
      installerRoleName: '..',
      tokenSecretName: '-token',
    });
    const label = "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
    const subdomain = "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (RFC 1123 subdomain)";
    expect(errorsOf(tenant)).toEqual([
      `[platform/T] namespaceName="Team_A": Namespace name ${label}. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)`,
      `[platform/T] operatorGroupName="og/1": OperatorGroup name ${subdomain}. Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)`,
      `[platform/T] installerServiceAccountName="${'x'.repeat(254)}": ServiceAccount name must be no more than 253 characters (has 254). Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)`,
      "[platform/T] installerRoleName=\"..\": Role name may not be '..'. Fix: use a name without '/' or '%' (InvalidName)",
      `[platform/T] tokenSecretName="-token": Secret name ${subdomain}. Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)`,
    ]);
  });

  test('GIVEN the same app built twice WHEN synthesized twice THEN the YAML is byte-identical', () => {
    const build = () => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', {
        namespaceName: 'team-a',
        clusterInstallerRules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }],
        targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], 'dev'),
      });
      tenant.subscribe({ packageName: 'redis', catalog: CATALOG });
      tenant.subscribe({ packageName: 'etcd', catalog: CATALOG });
      tenant.grantOperatorAccess(User.fromName(chart, 'u2', 'zed'), AccessLevel.EDIT);
      tenant.grantOperatorAccess(User.fromName(chart, 'u1', 'amy'), AccessLevel.EDIT);
      tenant.addInstallerRule({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
      return chart;
    };
    const first = build();
    const a = Yaml.stringify(...Testing.synth(first));
    const b = Yaml.stringify(...Testing.synth(first));
    const c = Yaml.stringify(...Testing.synth(build()));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // dependency order: every object after what it needs
    expect(Testing.synth(first).map((o) => o.kind)).toEqual([
      'Namespace',
      'ServiceAccount',
      'Secret',
      'Role',
      'RoleBinding',
      'ClusterRole',
      'ClusterRoleBinding',
      'OperatorGroup',
      'Subscription',
      'Subscription',
      'RoleBinding',
      'RoleBinding',
    ]);
  });

  test('ScopedOperatorTenant.of finds the tenant of a nested construct', () => {
    const { chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const sub = tenant.subscribe({ packageName: 'etcd', catalog: CATALOG });
    expect(ScopedOperatorTenant.of(sub)).toBe(tenant);
    expect(ScopedOperatorTenant.of(chart)).toBeUndefined();
    expect(sub.apiObject).toBeInstanceOf(ApiObject);
  });
});

describe('ScopedOperatorTenant output against the real schemas', () => {
  // test/util/schema-validator.ts: OLM CRD openAPIV3Schema via ajv (closed objects), core kinds via kubernetes-models
  test('GIVEN every feature of the tenant THEN every object validates', () => {
    const { chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      podSecurity: PodSecurityLevel.BASELINE,
      namespaceAnnotations: { owner: 'team-a' },
      upgradeStrategy: UpgradeStrategy.DEFAULT,
      clusterInstallerRules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] }],
      legacyPullSecretAccess: { catalogNamespace: 'olm', secretNames: ['pull'] },
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], 'dev operands'),
    });
    tenant.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: CATALOG,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.2',
      config: {
        env: [{ name: 'A', value: 'b' }],
        resources: { requests: { cpu: olm.SubscriptionSpecConfigResourcesRequests.fromString('100m') } },
        tolerations: [{ key: 'infra', operator: 'Exists' }],
        nodeSelector: { role: 'infra' },
      },
    });
    tenant.grantOperatorAccess(User.fromName(chart, 'bob', 'bob'), AccessLevel.EDIT);
    tenant.grantSubscriptionManagement(Group.fromName(chart, 'ops', 'ops'));
    const objects = Testing.synth(chart);
    expect(objects.map((o) => o.kind)).toEqual([
      'Namespace', 'ServiceAccount', 'Secret', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding',
      'OperatorGroup', 'Subscription', 'RoleBinding', 'RoleBinding', 'Role', 'RoleBinding',
    ]);
    expect(SchemaValidator.shared().validateAll(objects)).toEqual([]);
  });
});

test('docs/tenant.md quick start synthesizes what the doc says', () => {
  const { app, chart } = newChart();
  const teamA = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
  teamA.allowInstaller(['get', 'create', 'update', 'patch'], '', ['configmaps']);
  teamA.subscribe({
    packageName: 'etcd',
    channel: 'singlenamespace-alpha',
    catalog: CatalogSourceReference.fromName('operatorhubio-catalog', 'olm'),
    installPlanApproval: InstallPlanApproval.MANUAL,
  });
  const admins = Group.fromName(chart, 'TeamAAdmins', 'team-a-admins');
  teamA.grantSubscriptionManagement(admins);
  teamA.grantOperatorAccess(admins, AccessLevel.ADMIN);
  expect(Testing.synth(chart).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
    'Namespace/team-a',
    'ServiceAccount/team-a',
    'Secret/team-a',
    'Role/team-a',
    'RoleBinding/team-a',
    'OperatorGroup/team-a',
    'Subscription/etcd',
    'Role/team-a-subscription-manager',
    'RoleBinding/team-a-subscription-manager',
    'RoleBinding/team-a-operator-admin',
  ]);
  expect(Diagnostics.warnings(app)).toEqual([]);
});

describe('ScopedOperatorTenant with a CuratedCatalog', () => {
  test('GIVEN a curated catalog THEN the Subscription points at its CatalogSource in the tenant namespace and unlisted packages are errors', () => {
    const { chart } = newChart();
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/curated:v1', packages: [{ name: 'etcd' }] });
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog });
    tenant.subscribe({ packageName: 'redis', catalog });
    expect(tenant.subscriptions.map((s) => `${s.packageName} ${s.sourceNamespace}/${s.sourceName}`)).toEqual([
      'etcd team-a/curated-operators',
      'redis team-a/curated-operators',
    ]);
    expect(catalog.servedNamespaces).toEqual(['team-a']);
    expect(errorsOf(tenant).map((e) => e.replace(/:.*\((\w+)\)$/, ' $1'))).toEqual(['[platform/T/Subscription-redis] catalog="team-a/curated-operators" CatalogRejectsSubscription']);
  });
});
