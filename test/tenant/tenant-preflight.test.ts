import * as path from 'path';
import { ApiObject, Testing } from 'cdk8s';
import {
  AccessLevel, CatalogSourceReference, OlmNaming, Diagnostics, InstallerPermissions, InstallPreflight, OperatorBundle,
  PreflightEnforcement, ReachCode, ScopedOperatorTenant, SensitiveGrant, TargetNamespaces,
} from '../../src';
import { appAndChart, validationErrors } from '../util/synth';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(BUNDLES, name, version));
const ETCD = bundle('etcd', '0.9.4');
const PROMETHEUS = bundle('prometheus', '0.56.3');
const RABBITMQ = bundle('rabbitmq-cluster-operator', '2.22.3');
const CATALOG = CatalogSourceReference.fromName('community-operators', 'openshift-marketplace');
/**
 * What rabbitmq's derived cluster rules hold that is a sensitive grant: its clusterPermissions exec into pods and
 * read secrets in every namespace, and OLM creates its webhook configurations with the installer's client.
 */
const RABBITMQ_SENSITIVE = [
  SensitiveGrant.POD_EXEC, SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.MUTATING_WEBHOOK_WRITES, SensitiveGrant.VALIDATING_WEBHOOK_WRITES,
  // issue 15 item 8: its clusterPermissions also create StatefulSets and update Services and ConfigMaps in every namespace
  SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE,
  // and it updates pods everywhere (another image in a running pod)
  SensitiveGrant.POD_IMAGE_UPDATE,
];

describe('ScopedOperatorTenant install preflight (subscribe({ bundle }))', () => {
  test('GIVEN etcd with the OKD docs default Role WHEN synthesizing THEN every missing rule is reported at once', () => {
    // GIVEN
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: ETCD });

    // THEN: the etcd CSV's `permissions` must all be held by the installer (RBAC escalation check when OLM creates
    // the operator's Role with the installer's client); the docs' Role has none of these with verb `*`.
    // ONE error for the Subscription, listing each missing rule once
    const errors = validationErrors(chart).filter((e) => e.includes('(MissingInstallerPermission)'));
    expect(errors.length).toEqual(1);
    const missing = /lacks 4 rule\(s\): (Namespace:.*?) \(needed for/.exec(errors[0])![1].split('; ');
    expect(missing).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]',
      'Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[etcd.database.coreos.com] Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*]',
    ]);
    // every error names construct, field, value and fix
    expect(validationErrors(chart)[0]).toMatch(
      /^\[platform\/TeamA\] subscriptions\[etcd\]\.bundle="etcdoperator\.v0\.9\.4": OLM would fail to install etcdoperator\.v0\.9\.4: the installer ServiceAccount team-a\/team-a lacks 4 rule\(s\): .* Fix: set deriveInstallerRules: true to derive exactly these rules from the bundle, or grant them with addInstallerRule \(MissingInstallerPermission\)$/,
    );
    // and app.synth() throws with all of them
    expect(() => app.synth()).toThrow(/Validation failed[\s\S]*Verbs:\[\*\][\s\S]*Verbs:\[get\][\s\S]*deployments[\s\S]*etcdrestores/);
  });

  test('GIVEN the tenant errors THEN they are exactly the preflight result of the installer rules (nothing dropped)', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'prometheus', channel: 'beta', catalog: CATALOG, bundle: PROMETHEUS });
    const [result] = InstallPreflight.checkVersions({ bundles: [PROMETHEUS], namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: tenant.installerRules });
    expect(tenant.preflight()).toEqual([result]);
    // one finding per (Subscription, problem): here one MissingInstallerPermission naming every missing rule once
    const errors = validationErrors(chart);
    expect(result.problems).toEqual([]);
    expect(errors.length).toEqual(1);
    for (const m of result.missing) expect(errors[0].split(m.formatted).length).toEqual(2);
  });

  test('GIVEN the missing rules are granted THEN the synth passes', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: ETCD });
    for (const m of tenant.preflight()[0].missing) tenant.addInstallerRule(m.rule);
    expect(validationErrors(chart)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
    expect(tenant.preflight()[0].ok).toBe(true);
  });

  test('GIVEN PreflightEnforcement.WARNING THEN the findings are warnings and the synth passes', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, preflight: PreflightEnforcement.WARNING });
    expect(() => app.synth()).not.toThrow();
    expect(Diagnostics.warnings(chart).map((w) => w.code)).toEqual([
      'CrdsCreatedByOlm',
      'MissingInstallerPermission',
    ]);
  });

  test('GIVEN deriveInstallerRules THEN the Role holds exactly InstallerPermissions.leastPrivilege and the preflight passes', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    tenant.subscribe({ packageName: 'prometheus', catalog: CATALOG, bundle: PROMETHEUS });
    const expected = InstallerPermissions.leastPrivilege({ bundles: [ETCD, PROMETHEUS], namespace: 'team-b', targetNamespaces: ['team-b'] });
    expect(tenant.installerRules).toEqual(expected.namespacedRules);
    expect(tenant.clusterInstallerRules).toEqual([]);
    expect(tenant.preflight().map((r) => r.ok)).toEqual([true, true]);
    expect(() => app.synth()).not.toThrow();
    const role = Testing.synth(chart).find((o) => o.kind === 'Role' && o.metadata.name === 'team-b');
    expect(role.rules.some((r: any) => (r.resources ?? []).includes('customresourcedefinitions'))).toBe(false);
  });

  test('GIVEN deriveInstallerRules and a Subscription without bundle THEN DeriveWithoutBundle', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamB', { namespaceName: 'team-b', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG });
    expect(validationErrors(chart)).toEqual([
      '[platform/TeamB] subscriptions[etcd].bundle="etcd": deriveInstallerRules is on but this Subscription has no bundle, so nothing grants what OLM needs to install it. '
      + "Fix: set the Subscription's `bundle` to the version OLM installs (OperatorBundle.fromDirectory(...)), or add the rules with addInstallerRule (DeriveWithoutBundle)",
    ]);
  });

  test('GIVEN an operator with webhooks and no cluster opt-in THEN the preflight says it needs rules outside the namespace', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamC', { namespaceName: 'team-c', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    const codes = validationErrors(chart).map((e) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(e)![1]);
    expect(codes).toContain('NeedsClusterScopedRules');
    // nothing outside the namespace was granted
    expect(tenant.clusterInstallerRules).toEqual([]);
    expect(chart.node.findAll().filter((c) => c instanceof ApiObject && c.kind.startsWith('Cluster'))).toEqual([]);
  });

  test('GIVEN the cluster opt-in with a reason THEN derived rules outside the namespace are created, annotated, and the synth passes', () => {
    const { app, chart } = appAndChart();
    const reason = 'rabbitmq webhooks: serving certificates need auth delegation';
    const tenant = new ScopedOperatorTenant(chart, 'TeamC', {
      namespaceName: 'team-c',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: reason,
      allowedSensitiveGrants: RABBITMQ_SENSITIVE,
      // the operator can read the installer's token Secret and so reach its cluster rules (TenancyAudit): accepted visibly
      acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-c/rabbitmq-cluster-operator', reason: 'single-operator tenant, reviewed' }],
    });
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    const expected = InstallerPermissions.leastPrivilege({ bundles: [RABBITMQ], namespace: 'team-c', targetNamespaces: ['team-c'], allowClusterScoped: true });
    expect(tenant.clusterInstallerRules).toEqual(expected.clusterRules);
    expect(() => app.synth()).not.toThrow();
    const objects = Testing.synth(chart);
    const clusterRole = objects.find((o) => o.kind === 'ClusterRole');
    expect(clusterRole.metadata).toEqual({
      name: 'team-c-olm-installer',
      annotations: {
        [ScopedOperatorTenant.REASON_ANNOTATION]: reason,
        [ScopedOperatorTenant.BIND_ROLES_ANNOTATION]: "ClusterRole system:auth-delegator: bootstrap role bound by OLM's cert resources for webhooks and API services "
          + '(install/certresources.go); its rules are fixed and small (system:auth-delegator: create tokenreviews and subjectaccessreviews; '
          + 'extension-apiserver-authentication-reader: read the configmap extension-apiserver-authentication in kube-system)',
        // the accepted sensitive grants, visible (allowedSensitiveGrants carries no reason: acceptedSensitiveGrants does)
        [ScopedOperatorTenant.SENSITIVE_GRANTS_ANNOTATION]: tenant.sensitiveGrants.map((g) => `${g.grant} (${g.what}): accepted by allowedSensitiveGrants (no reason given)`).join('; '),
      },
    });
    expect(tenant.sensitiveGrants.map((g) => g.grant)).toEqual(RABBITMQ_SENSITIVE);
    const outside = objects.filter((o) => (o.kind === 'Role' || o.kind === 'RoleBinding') && o.metadata.namespace !== 'team-c');
    expect(outside.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual(
      expected.otherNamespaceRules.flatMap((n) => [`Role/${n.namespace}/team-c-olm-installer`, `RoleBinding/${n.namespace}/team-c-olm-installer`]),
    );
    expect(tenant.preflight()[0].ok).toBe(true);
  });

  test('GIVEN the cluster opt-in WHEN the derived named bind is also added by hand THEN the hand-added copy is still a sensitive-grant error', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamC', {
      namespaceName: 'team-c',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'rabbitmq webhooks',
      allowedSensitiveGrants: RABBITMQ_SENSITIVE,
      // the operator can read the installer's token Secret and so reach its cluster rules (TenancyAudit): accepted visibly
      acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, subject: 'ServiceAccount team-c/rabbitmq-cluster-operator', reason: 'single-operator tenant, reviewed' }],
    });
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    const derivedBind = tenant.clusterInstallerRules.find((r) => r.verbs.includes('bind'))!;
    expect(derivedBind).toEqual({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['system:auth-delegator'], verbs: ['bind'] });
    expect(validationErrors(chart)).toEqual([]);
    // WHEN
    tenant.addClusterInstallerRule({ ...derivedBind });
    // THEN
    expect(validationErrors(chart).map((e) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(e)![1])).toEqual(['InstallerSensitiveGrant']);
  });

  test('GIVEN a cluster rule with bind that was not derived THEN it is still a sensitive-grant error', () => {
    const { chart } = appAndChart();
    new ScopedOperatorTenant(chart, 'TeamC', {
      namespaceName: 'team-c',
      clusterInstallerRules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['system:auth-delegator'], verbs: ['bind'] }],
    });
    expect(validationErrors(chart).map((e) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(e)![1])).toEqual(['InstallerSensitiveGrant']);
    const ok = appAndChart();
    new ScopedOperatorTenant(ok.chart, 'TeamC', {
      namespaceName: 'team-c',
      allowedSensitiveGrants: [SensitiveGrant.BIND],
      clusterInstallerRules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['system:auth-delegator'], verbs: ['bind'] }],
    });
    expect(validationErrors(ok.chart)).toEqual([]);
  });

  test('GIVEN an upgrade bundle that needs more than the installed one THEN the error names upgradeBundles[i] and that version', () => {
    const { chart } = appAndChart();
    const perms = ETCD.csv.spec.install.spec.permissions;
    const etcdNext = OperatorBundle.fromCsvObject({
      ...ETCD.csv,
      metadata: { ...ETCD.csv.metadata, name: 'etcdoperator.v0.9.5' },
      spec: {
        ...ETCD.csv.spec,
        version: '0.9.5',
        install: {
          ...ETCD.csv.spec.install,
          spec: {
            ...ETCD.csv.spec.install.spec,
            permissions: [{ ...perms[0], rules: [...perms[0].rules, { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'create'] }] }],
          },
        },
      },
    });
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
    // the installer holds exactly what the installed version needs
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, upgradeBundles: [etcdNext] });
    for (const r of InstallerPermissions.leastPrivilege({ bundles: [ETCD], namespace: 'team-a', targetNamespaces: ['team-a'] }).namespacedRules) {
      tenant.addInstallerRule(r);
    }
    const errors = validationErrors(chart);
    expect(errors.map((e) => /^\[[^\]]+\] ([^=]+)="([^"]+)"/.exec(e)!.slice(1).join(' '))).toEqual([
      'subscriptions[etcd].upgradeBundles[0] etcdoperator.v0.9.5',
    ]);
    expect(errors[0]).toContain('lacks 1 rule(s): Namespace:"team-a" APIGroups:[policy] Resources:[poddisruptionbudgets] Verbs:[create,get]');
  });

  test('GIVEN a bundle of another package THEN BundlePackageMismatch', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
    tenant.subscribe({ packageName: 'prometheus', catalog: CATALOG, bundle: ETCD, preflight: PreflightEnforcement.WARNING });
    expect(validationErrors(chart)).toEqual([
      "[platform/T/Subscription-prometheus] bundle=\"etcdoperator.v0.9.4\": bundle 'etcdoperator.v0.9.4' belongs to package 'etcd', not 'prometheus'. Fix: give a bundle of package 'prometheus' (BundlePackageMismatch)",
    ]);
  });

  test('GIVEN a bundle THEN effectiveAccess predicts the APIs people bound to the group role can use', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    const view = tenant.effectiveAccess(AccessLevel.VIEW).filter((a) => !a.clusterScoped);
    expect(view.map((a) => `${a.apiGroup}/${a.resource}: ${a.verbs.join(',')} in ${a.namespaces.join(',')}`)).toEqual([
      'etcd.database.coreos.com/etcdbackups: get,list,watch in team-a',
      'etcd.database.coreos.com/etcdclusters: get,list,watch in team-a',
      'etcd.database.coreos.com/etcdrestores: get,list,watch in team-a',
    ]);
    expect(tenant.generatedRbac().operatorGroupClusterRoleName(AccessLevel.VIEW)).toEqual(OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a', AccessLevel.VIEW));
  });
});

describe('cross-tenant checks over the whole App', () => {
  test('GIVEN two tenants installing different versions of operators owning the same CRD THEN CrdVersionConflict on both', () => {
    const { chart } = appAndChart();
    const etcdV2 = OperatorBundle.fromCsvObject({ ...ETCD.csv, metadata: { ...ETCD.csv.metadata, name: 'etcdoperator.v0.9.5' }, spec: { ...ETCD.csv.spec, version: '0.9.5' } });
    const a = new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', deriveInstallerRules: true });
    a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    const b = new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b', deriveInstallerRules: true });
    b.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: etcdV2 });
    const errors = validationErrors(chart);
    expect(errors).toEqual([
      '[platform/A] subscriptions="etcdbackups.etcd.database.coreos.com": CRD etcdbackups.etcd.database.coreos.com is owned by etcdoperator.v0.9.4 here and by etcdoperator.v0.9.5 (tenant platform/B); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
      '[platform/A] subscriptions="etcdclusters.etcd.database.coreos.com": CRD etcdclusters.etcd.database.coreos.com is owned by etcdoperator.v0.9.4 here and by etcdoperator.v0.9.5 (tenant platform/B); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
      '[platform/A] subscriptions="etcdrestores.etcd.database.coreos.com": CRD etcdrestores.etcd.database.coreos.com is owned by etcdoperator.v0.9.4 here and by etcdoperator.v0.9.5 (tenant platform/B); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
      '[platform/B] subscriptions="etcdbackups.etcd.database.coreos.com": CRD etcdbackups.etcd.database.coreos.com is owned by etcdoperator.v0.9.5 here and by etcdoperator.v0.9.4 (tenant platform/A); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
      '[platform/B] subscriptions="etcdclusters.etcd.database.coreos.com": CRD etcdclusters.etcd.database.coreos.com is owned by etcdoperator.v0.9.5 here and by etcdoperator.v0.9.4 (tenant platform/A); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
      '[platform/B] subscriptions="etcdrestores.etcd.database.coreos.com": CRD etcdrestores.etcd.database.coreos.com is owned by etcdoperator.v0.9.5 here and by etcdoperator.v0.9.4 (tenant platform/A); CRDs are cluster-wide, so the last install replaces the CRD for every tenant. Fix: subscribe every tenant to the same version of the operator (pin with startingCsv and Manual approval), or install it once for all tenants (CrdVersionConflict)',
    ]);
  });

  test('GIVEN the same version in two OwnNamespace tenants THEN no conflict (disjoint targets, one CRD version)', () => {
    const { chart } = appAndChart();
    for (const ns of ['team-a', 'team-b']) {
      new ScopedOperatorTenant(chart, ns, { namespaceName: ns, deriveInstallerRules: true }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    }
    expect(validationErrors(chart)).toEqual([]);
  });

  test('GIVEN intersecting target namespaces providing the same API THEN InterOperatorGroupOwnerConflict (OLM APIIntersectionReconciler)', () => {
    const { chart } = appAndChart();
    const a = new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a', deriveInstallerRules: true });
    a.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    const b = new ScopedOperatorTenant(chart, 'B', {
      namespaceName: 'team-b',
      deriveInstallerRules: true,
      targetNamespaces: TargetNamespaces.namespaces(['shared-data'], 'etcd for the shared data namespace'),
    });
    b.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, preflight: PreflightEnforcement.WARNING });
    const c = new ScopedOperatorTenant(chart, 'C', {
      namespaceName: 'team-c',
      deriveInstallerRules: true,
      targetNamespaces: TargetNamespaces.namespaces(['shared-data'], 'etcd for the shared data namespace'),
    });
    c.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD, preflight: PreflightEnforcement.WARNING });
    const conflicts = validationErrors(chart).filter((e) => e.endsWith('(InterOperatorGroupOwnerConflict)'));
    expect(conflicts.map((e) => /^\[([^\]]+)\] subscriptions="([^"]+)"/.exec(e)!.slice(1).join(' '))).toEqual([
      'platform/B EtcdBackup.v1beta2.etcd.database.coreos.com',
      'platform/B EtcdCluster.v1beta2.etcd.database.coreos.com',
      'platform/B EtcdRestore.v1beta2.etcd.database.coreos.com',
      'platform/C EtcdBackup.v1beta2.etcd.database.coreos.com',
      'platform/C EtcdCluster.v1beta2.etcd.database.coreos.com',
      'platform/C EtcdRestore.v1beta2.etcd.database.coreos.com',
    ]);
    expect(conflicts[0]).toContain('etcdoperator.v0.9.4 (tenant platform/C, namespace team-c)');
  });
});
