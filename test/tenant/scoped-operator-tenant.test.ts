import * as fs from 'fs';
import { ApiObject, App, Chart, Testing, Yaml } from 'cdk8s';
import { Group, User } from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import fc from 'fast-check';
import {
  AccessLevel,
  CatalogSourceReference,
  CuratedCatalog,
  Diagnostics,
  InstallPlanApproval,
  OlmGeneration,
  PodSecurityLevel,
  PolicyRule,
  ScopedOperatorTenant,
  ScopedOperatorTenantProps,
  SensitiveGrant,
  SubscriptionConfigOptIn,
  TargetNamespaces,
  UpgradeStrategy,
  olm,
} from '../../src';
import { SchemaValidator } from '../util/schema-validator';

const CATALOG = CatalogSourceReference.fromName('operatorhubio-catalog', 'olm');

/** The Namespace labels every created Namespace gets by default: enforce baseline, warn and audit restricted. */
const POD_SECURITY_DEFAULT = {
  'pod-security.kubernetes.io/audit': 'restricted',
  'pod-security.kubernetes.io/enforce': 'baseline',
  'pod-security.kubernetes.io/warn': 'restricted',
};

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
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: POD_SECURITY_DEFAULT } },
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

  // The `scoped` example of openshift-docs modules/olm-policy-scoping-operator-install.adoc ("Allowing non-cluster
  // administrators to install Operators"), transcribed object by object from two versions of the module:
  // - after openshift/openshift-docs#82232 (OCPBUGS-33927, Sept 2024: adds the long-lived token Secret step; the
  //   OKD/OCP 4.16+ text): Subscription `openshift-cert-manager-operator`, channel `stable-v1`; its placeholders
  //   <catalog_source_name>/<catalog_source_namespace> are filled with the docs' own examples, `redhat-operators`
  //   in `openshift-marketplace`.
  // - before it (OKD/OCP 4.2 to 4.15): no Secret, Subscription `etcd`, channel `singlenamespace-alpha`; its
  //   placeholders are filled with upstream OLM's `operatorhubio-catalog` in `olm` (the first version of the module,
  //   openshift/openshift-docs#16490, named `operatorhubio-catalog`).
  const scopedDocs = (opts: { secret: boolean; pkg: string; channel: string; source: string; sourceNamespace: string }) => [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scoped', labels: POD_SECURITY_DEFAULT } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'scoped', namespace: 'scoped' } },
    ...(opts.secret
      ? [{
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 'scoped', namespace: 'scoped', annotations: { 'kubernetes.io/service-account.name': 'scoped' } },
      }]
      : []),
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
      metadata: { name: opts.pkg, namespace: 'scoped' },
      spec: { channel: opts.channel, name: opts.pkg, source: opts.source, sourceNamespace: opts.sourceNamespace },
    },
  ];

  test.each([
    ['4.16+ (with the token Secret)', { secret: true, pkg: 'openshift-cert-manager-operator', channel: 'stable-v1', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' }],
    ['4.2 to 4.15 (no Secret, etcd)', { secret: false, pkg: 'etcd', channel: 'singlenamespace-alpha', source: 'operatorhubio-catalog', sourceNamespace: 'olm' }],
  ])("GIVEN the OKD docs' `scoped` example, %s WHEN synthesized THEN it is what the docs create, in the docs' order", (_version, opts) => {
    // GIVEN
    const { app, chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'Scoped', {
      namespaceName: 'scoped',
      createTokenSecret: opts.secret,
      installerRoleBindingName: 'scoped-bindings',
      installerRules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    });
    tenant.subscribe({ packageName: opts.pkg, channel: opts.channel, catalog: CatalogSourceReference.fromName(opts.source, opts.sourceNamespace) });
    // WHEN
    const out = Testing.synth(chart);

    // THEN the same kinds, names, rules, bindings and targets, with these deliberate differences and nothing else:
    // 1. the Subscription states installPlanApproval: Automatic (what OLM does when it is empty) explicitly;
    // 2. the docs' `*/*/*` Role is reported as a warning (WildcardInstallerRole), as the docs' own WARNING does;
    // 3. the Namespace carries the pod-security labels (enforce baseline, warn/audit restricted), the library's
    //    secure default (the docs' Namespace has none, so the cluster default applies there).
    const expected = scopedDocs(opts).map((o) => (o.kind === 'Subscription' ? { ...o, spec: { ...(o as any).spec, installPlanApproval: 'Automatic' } } : o));
    expect(out).toEqual(expected);
    expect(Diagnostics.warnings(app).map((d) => d.code)).toEqual(['WildcardInstallerRole']);
    expect(SchemaValidator.shared().validateAll(out)).toEqual([]);
  });

  test('GIVEN the token Secret THEN the OperatorGroup depends on it (OLM < 0.29 reads the token when it acts for the group)', () => {
    const { chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    expect(tenant.operatorGroup.node.dependencies).toContain(tenant.tokenSecret);
    expect(tenant.tokenSecret!.node.dependencies).toEqual([tenant.installerServiceAccount]);
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
        labels: { ...POD_SECURITY_DEFAULT, 'pod-security.kubernetes.io/enforce': 'restricted', 'team': 'a' },
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
      tenant.allowInstaller({ verbs: ['get', 'update'], apiGroup: '', resources: ['secrets'], resourceNames: ['etcd-tls'] });
      tenant.allowInstaller({ verbs: ['get', 'update'], apiGroup: '', resources: ['secrets'], resourceNames: ['etcd-tls'] });
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
        allowedSensitiveGrants: Object.values(SensitiveGrant),
      });
      const rule = 'clusterInstallerRules[0] {\\"apiGroups\\":[\\"*\\"],\\"resources\\":[\\"*\\"],\\"verbs\\":[\\"*\\"]}';
      expect(errorsOf(tenant)).toEqual([
        `[platform/T] clusterInstallerRules="${rule}": the cluster-scoped installer rules allow create/update/patch/delete/deletecollection on apiextensions.k8s.io customresourcedefinitions; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule's apiGroups/resources/verbs so that it does not match apiextensions.k8s.io customresourcedefinitions (InstallerCanWriteCrds, OLMT-001)`,
        `[platform/T] clusterInstallerRules="${rule}": the cluster-scoped installer rules allow create/update/patch/delete/deletecollection on apiregistration.k8s.io apiservices; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule's apiGroups/resources/verbs so that it does not match apiregistration.k8s.io apiservices (InstallerCanWriteApiServices, OLMT-002)`,
      ]);
    });

    test('GIVEN escalate in the namespaced Role THEN it is an error unless opted into', () => {
      const rules = [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate', 'create'] }];
      const { chart } = newChart();
      const denied = new ScopedOperatorTenant(chart, 'Denied', { namespaceName: 'team-a', installerRules: rules });
      const allowed = new ScopedOperatorTenant(chart, 'Allowed', { namespaceName: 'team-b', installerRules: rules, allowedSensitiveGrants: [SensitiveGrant.ESCALATE] });
      expect(errorsOf(denied)).toEqual([
        '[platform/Denied] installerRules="installerRules[0] {\\"apiGroups\\":[\\"rbac.authorization.k8s.io\\"],\\"resources\\":[\\"roles\\"],\\"verbs\\":[\\"escalate\\",\\"create\\"]}": the namespaced installer rules grant \'escalate\' on roles/clusterroles (SensitiveGrant.ESCALATE); an operator installed with them could gain rights nobody reviewed. Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.ESCALATE, reason }] (InstallerSensitiveGrant, OLMT-003)',
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
        systemNamespacesReason: 'OLM 0.8 copies catalog pull secrets with the installer',
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
      expect(out[4].metadata.annotations).toEqual({ 'cdk8s-olm-tenancy.io/system-namespaces-reason': 'OLM 0.8 copies catalog pull secrets with the installer' });
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
        allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE],
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
      const global = new ScopedOperatorTenant(chart, 'Global', { namespaceName: 'operators', targetNamespaces: TargetNamespaces.allNamespaces('cluster-wide cert-manager'), allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE] });
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
      const a = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b'], 'shared'), allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE] });
      expect(errorsOf(a)).toEqual([
        "[platform/TeamA] targetNamespaces=\"team-b\": namespace 'team-b' belongs to tenant platform/TeamB; OLM would copy this tenant's operator RBAC into it. Fix: remove 'team-b' from targetNamespaces, or install the operator in that tenant (TargetsOtherTenant, OLMT-007)",
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
        // placement is the platform's choice: an explicit opt-in (SubscriptionConfigChecks)
        allowedConfig: [SubscriptionConfigOptIn.NODE_SELECTOR, SubscriptionConfigOptIn.TOLERATIONS, SubscriptionConfigOptIn.AFFINITY],
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
          // OLM installs the catalog entry named by startingCsv (issue 40: the report says what is installed)
          installsCsv: 'etcdoperator.v0.9.2',
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
        "[platform/T/Subscription-prometheus] catalog=\"team-a/curated\": package 'prometheus' is not curated; allowed: etcd. Fix: subscribe to what the catalog offers, or add it to the catalog (CatalogRejectsSubscription, OLMT-021)",
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
        allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE],
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
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', olmGeneration: OlmGeneration.V0_15_TO_V0_25 });
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
        allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE],
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
      systemNamespacesReason: 'OLM 0.8 copies catalog pull secrets with the installer',
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], 'dev operands'),
      allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE],
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
      allowedConfig: [SubscriptionConfigOptIn.TOLERATIONS, SubscriptionConfigOptIn.NODE_SELECTOR],
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
  teamA.allowInstaller({ verbs: ['get', 'create', 'update', 'patch'], apiGroup: '', resources: ['configmaps'] });
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
    expect(errorsOf(tenant).map((e) => e.replace(/:.*\((\w+)(?:, OLMT-\d+)?\)$/, ' $1'))).toEqual(['[platform/T/Subscription-redis] catalog="team-a/curated-operators" CatalogRejectsSubscription']);
  });
});

describe('ScopedOperatorTenant: every other input problem is one error naming field, value and fix', () => {
  const label = "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
  test.each<[string, Partial<ScopedOperatorTenantProps>, (t: ScopedOperatorTenant, chart: Chart) => void, string[]]>([
    ['labels, annotations and podSecurity on an adopted namespace are dropped: one error each', {
      createNamespace: false,
      namespaceLabels: { team: 'a' },
      namespaceAnnotations: { owner: 'a' },
      podSecurity: PodSecurityLevel.RESTRICTED,
    }, () => {}, [
      "[platform/T] namespaceLabels=\"{\\\"team\\\":\\\"a\\\"}\": namespaceLabels is set but createNamespace is false, so no Namespace object of this tenant carries it. Fix: set createNamespace: true, or set it on namespace 'team-a' where that namespace is managed (NamespaceMetadataOnAdoptedNamespace)",
      "[platform/T] namespaceAnnotations=\"{\\\"owner\\\":\\\"a\\\"}\": namespaceAnnotations is set but createNamespace is false, so no Namespace object of this tenant carries it. Fix: set createNamespace: true, or set it on namespace 'team-a' where that namespace is managed (NamespaceMetadataOnAdoptedNamespace)",
      "[platform/T] podSecurity=\"restricted\": podSecurity is set but createNamespace is false, so no Namespace object of this tenant carries it. Fix: set createNamespace: true, or set it on namespace 'team-a' where that namespace is managed (NamespaceMetadataOnAdoptedNamespace)",
    ]],
    ['no target namespace', { targetNamespaces: TargetNamespaces.namespaces([], 'none') }, () => {}, [
      '[platform/T] targetNamespaces="[]": TargetNamespaces.namespaces() was given no namespace. Fix: list at least one namespace, or use TargetNamespaces.ownNamespace() (NoTargetNamespaces)',
    ]],
    ['blank reason for other targets', { targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-a-dev'], ' '), allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE] }, () => {}, [
      '[platform/T] targetNamespaces=" ": the reason for targeting other namespaces is empty. Fix: say why the operator needs these namespaces (it is written to the OperatorGroup annotation) (EmptyTargetsReason, OLMT-009)',
    ]],
    ['invalid target namespace name', { targetNamespaces: TargetNamespaces.namespaces(['team-a', 'Dev_NS'], 'dev'), allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE] }, () => {}, [
      `[platform/T] targetNamespaces="Dev_NS": target Namespace name ${label}. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)`,
    ]],
    ['invalid RoleBinding name', { installerRoleBindingName: 'a/b' }, () => {}, [
      "[platform/T] installerRoleBindingName=\"a/b\": RoleBinding name may not contain '/' or '%'. Fix: use a name without '/' or '%' (InvalidName)",
    ]],
    ['legacy pull secrets: bad catalog namespace and no secret names', { legacyPullSecretAccess: { catalogNamespace: 'OLM', secretNames: [] } }, () => {}, [
      `[platform/T] legacyPullSecretAccess.catalogNamespace="OLM": catalog Namespace name ${label}. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)`,
      '[platform/T] legacyPullSecretAccess.secretNames="[]": no pull secret names given. Fix: name the pull secrets, or drop legacyPullSecretAccess (NoLegacyPullSecrets)',
    ]],
    ['a cluster-scoped reason without deriveInstallerRules does nothing', { clusterScopedInstallerRulesReason: 'webhooks' }, () => {}, [
      '[platform/T] clusterScopedInstallerRulesReason="webhooks": a reason for derived installer rules outside the tenant namespace is given, but deriveInstallerRules is off, so nothing is derived. Fix: set deriveInstallerRules: true, or drop clusterScopedInstallerRulesReason and grant explicit rules with clusterInstallerRules (ClusterScopedReasonWithoutDerive)',
    ]],
    ['a blank cluster-scoped reason', { deriveInstallerRules: true, clusterScopedInstallerRulesReason: '' }, () => {}, [
      '[platform/T] clusterScopedInstallerRulesReason="": the reason for installer rules outside the tenant namespace is empty. Fix: say which operator needs them and why (it is written to the objects) (EmptyClusterScopedReason, OLMT-010)',
    ]],
    ['cluster-scoped resource wildcard in the apiextensions group', { clusterInstallerRules: [{ apiGroups: ['apiextensions.k8s.io'], resources: ['*'], verbs: ['create', 'get'] }] }, () => {}, [
      '[platform/T] clusterInstallerRules="clusterInstallerRules[0] {\\"apiGroups\\":[\\"apiextensions.k8s.io\\"],\\"resources\\":[\\"*\\"],\\"verbs\\":[\\"create\\",\\"get\\"]}": the cluster-scoped installer rules allow create on apiextensions.k8s.io customresourcedefinitions; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule\'s apiGroups/resources/verbs so that it does not match apiextensions.k8s.io customresourcedefinitions (InstallerCanWriteCrds, OLMT-001)',
    ]],
    ['a cluster rule added later with addClusterInstallerRule is checked too', {}, (t) => t.addClusterInstallerRule({ apiGroups: ['*'], resources: ['apiservices'], verbs: ['patch'] }), [
      '[platform/T] clusterInstallerRules="clusterInstallerRules[0] {\\"apiGroups\\":[\\"*\\"],\\"resources\\":[\\"apiservices\\"],\\"verbs\\":[\\"patch\\"]}": the cluster-scoped installer rules allow patch on apiregistration.k8s.io apiservices; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources"). Fix: narrow the rule\'s apiGroups/resources/verbs so that it does not match apiregistration.k8s.io apiservices (InstallerCanWriteApiServices, OLMT-002)',
    ]],
    ['impersonation added to the namespaced Role later', {}, (t) => t.allowInstaller({ verbs: ['impersonate'], apiGroup: '', resources: ['serviceaccounts'] }), [
      '[platform/T] installerRules="installerRules[5] {\\"apiGroups\\":[\\"\\"],\\"resources\\":[\\"serviceaccounts\\"],\\"verbs\\":[\\"impersonate\\"]}": the namespaced installer rules grant \'impersonate\' on users/groups/serviceaccounts/uids/userextras (or constrained \'impersonate:<mode>\' on users/groups/serviceaccounts/nodes/uids/userextras) (SensitiveGrant.IMPERSONATE); an operator installed with them could gain rights nobody reviewed. Fix: remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.IMPERSONATE, reason }] (InstallerSensitiveGrant, OLMT-003)',
    ]],
  ])('%s', (_name, props, act, expected) => {
    // GIVEN
    const { app, chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', ...props });
    // WHEN
    act(tenant, chart);
    // THEN
    expect(errorsOf(tenant)).toEqual(expected);
    expect(() => app.synth()).toThrow(expected.map((e) => `\n  ${e}`).join(''));
  });

  test('GIVEN AllNamespaces WHEN operator access is granted THEN it is bound in the tenant namespace only, with a warning', () => {
    const { app, chart } = newChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'operators', operatorGroupName: 'global-operators', targetNamespaces: TargetNamespaces.allNamespaces('cluster-wide'), allowedSensitiveGrants: [SensitiveGrant.POD_CREATE, SensitiveGrant.POD_IMAGE_UPDATE] });
    tenant.grantOperatorAccess(User.fromName(chart, 'bob', 'bob'), AccessLevel.ADMIN);
    const bindings = Testing.synth(chart).filter((o) => o.kind === 'RoleBinding' && o.roleRef.kind === 'ClusterRole');
    expect(bindings).toEqual([{
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'global-operators-operator-admin', namespace: 'operators' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'olm.og.global-operators.admin-5UD4U2IfBGbw51Qy2Jaefk1uawvkj2OJILlc3w' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    }]);
    expect(Diagnostics.report(app)).toEqual(
      "warning: [platform/T] grantOperatorAccess(admin)=\"operators\": the OperatorGroup targets all namespaces, but the admin access is bound in namespace 'operators' only. Fix: bind the OperatorGroup ClusterRole with a ClusterRoleBinding yourself if access in every namespace is meant (OperatorAccessOnlyInTenantNamespace)",
    );
  });
});

describe('ScopedOperatorTenant: dependency order with a catalog construct', () => {
  const curated = (scope: Chart) => new CuratedCatalog(scope, 'Curated', { image: 'registry.example.com/curated:v1', packages: [{ name: 'etcd' }] });

  test('GIVEN a curated catalog created before the tenant in the same chart THEN its CatalogSource follows the Namespace and precedes the Subscription', () => {
    const { chart } = newChart();
    const catalog = curated(chart);
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', createTokenSecret: false });
    tenant.subscribe({ packageName: 'etcd', catalog });
    // without the ordering the CatalogSource (created first) would precede its Namespace
    expect(Testing.synth(chart).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//team-a',
      'ServiceAccount/team-a/team-a',
      'Role/team-a/team-a',
      'RoleBinding/team-a/team-a',
      'OperatorGroup/team-a/team-a',
      'CatalogSource/team-a/curated-operators',
      'Subscription/team-a/etcd',
    ]);
  });

  test('GIVEN the catalog in its own chart, created first THEN the catalog chart is written after the tenant chart (its CatalogSource needs the Namespace)', () => {
    const app = Testing.app();
    const catalogs = new Chart(app, 'catalogs');
    const catalog = curated(catalogs);
    const tenant = new ScopedOperatorTenant(new Chart(app, 'tenant-a'), 'T', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog });
    app.synth();
    // cdk8s numbers the files in dependency order as soon as one chart depends on another
    expect(fs.readdirSync(app.outdir).sort()).toEqual(['0000-tenant-a.k8s.yaml', '0001-catalogs.k8s.yaml']);
  });
});

describe('ScopedOperatorTenant: deterministic output', () => {
  test('property: the order of addInstallerRule and grant calls does not change the YAML', () => {
    const rule = fc.record({
      apiGroups: fc.constantFrom<string[]>([''], ['apps'], ['batch']),
      resources: fc.subarray(['configmaps', 'secrets', 'deployments', 'jobs'], { minLength: 1 }),
      verbs: fc.subarray(['get', 'list', 'watch', 'create', 'update'], { minLength: 1 }),
    });
    const subject = fc.record({ kind: fc.constantFrom('User', 'Group'), name: fc.constantFrom('amy', 'bob', 'zed') });
    const op = fc.oneof(
      rule.map((r) => ({ rule: r as PolicyRule })),
      fc.record({ subject, level: fc.constantFrom(AccessLevel.ADMIN, AccessLevel.VIEW) }),
    );
    const synth = (ops: Array<{ rule?: PolicyRule; subject?: { kind: string; name: string }; level?: AccessLevel }>) => {
      const { chart } = newChart();
      const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
      // bindings are objects: create them in a fixed order so that only the order of rules and subjects varies
      for (const level of [AccessLevel.ADMIN, AccessLevel.VIEW]) tenant.grantOperatorAccess(Group.fromName(chart, `base-${level}`, 'base'), level);
      ops.forEach((o, i) => {
        if (o.rule) tenant.addInstallerRule(o.rule);
        else tenant.grantOperatorAccess(o.subject!.kind === 'User' ? User.fromName(chart, `s${i}`, o.subject!.name) : Group.fromName(chart, `s${i}`, o.subject!.name), o.level!);
      });
      return Yaml.stringify(...Testing.synth(chart));
    };
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 8 }).chain((ops) =>
          fc.tuple(fc.constant(ops), fc.shuffledSubarray(ops, { minLength: ops.length, maxLength: ops.length }))),
        ([ops, shuffled]) => {
          expect(synth(shuffled)).toEqual(synth(ops));
        },
      ),
      { numRuns: 60 },
    );
  });
});
