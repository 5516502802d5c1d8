import * as path from 'path';
import fc from 'fast-check';
import { codes, load, OKD, scopes, targetsFor, VERSIONS } from './shared-bundles';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InstallPlanModel } from '../../src/preflight/install-plan-model';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { InstallerPermissions } from '../../src/preflight/installer-permissions';
import { BoundRoleKind, PreflightCode } from '../../src/preflight/preflight-code';
import { PolicyRule } from '../../src/rbac/policy-rule';
import { RbacRules } from '../../src/rbac/rbac-rules';


describe('InstallPreflight with the OKD docs default installer Role, on every shared bundle', () => {
  const C = PreflightCode;
  // Expected problems are read off each CSV: clusterPermissions / webhooks need rules outside team-a;
  // cert-manager (cainjector updates CRDs, apiservices), keda (apiservices '*') and opentelemetry (conversion
  // webhook updates a CRD) need CRD/APIService writes; keda's '*' on clusterroles and serviceaccounts also
  // includes escalate, bind and impersonate.
  const expected: Record<string, { codes: PreflightCode[]; targets: string }> = {
    'cert-manager': { codes: [C.WRITES_CRDS_OR_APISERVICES, C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'all' },
    'deployment-validation-operator': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'own' },
    'etcd': { codes: [], targets: 'own' },
    'forklift-operator': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'own' },
    'grafana-operator': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'own' },
    'jaeger': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'all' },
    'keda': { codes: [C.WRITES_CRDS_OR_APISERVICES, C.GRANTS_ESCALATION_RIGHTS, C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'all' },
    'opentelemetry-operator': { codes: [C.WRITES_CRDS_OR_APISERVICES, C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'all' },
    'percona-xtradb-cluster-operator': { codes: [], targets: 'own' },
    'prometheus': { codes: [], targets: 'own' },
    'rabbitmq-cluster-operator': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'own' },
    'strimzi-kafka-operator': { codes: [C.NEEDS_CLUSTER_SCOPED_RULES], targets: 'own' },
  };
  test.each(Object.keys(VERSIONS))('%s: fails, with exactly the expected problem codes', (op) => {
    // GIVEN
    const bundle = load(op);
    // WHEN
    const r = InstallPreflight.check({ bundle, namespace: 'team-a', targetNamespaces: targetsFor(bundle), installerRules: OKD });
    // THEN
    expect(targetsFor(bundle).length === 0 ? 'all' : 'own').toEqual(expected[op].targets);
    expect(r.ok).toBe(false);
    expect(r.installModeSupported).toBe(true);
    expect(codes(r)).toEqual(expected[op].codes);
    // every CSV with namespaced permissions needs more than the docs' Role inside the tenant namespace (keda has none)
    expect(scopes(r).tenant > 0).toBe(bundle.permissions.length > 0);
    // operators without clusterPermissions and webhooks need nothing outside the namespace
    const outside = bundle.clusterPermissions.length > 0 || bundle.webhookDefinitions.length > 0;
    expect(scopes(r).cluster > 0).toBe(outside);
  });

  test('etcd: the complete list (the CSV rules the Role must grant, which the installer must hold)', () => {
    const r = InstallPreflight.check({ bundle: load('etcd'), namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: OKD });
    expect(r.missing.map((m) => m.formatted)).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]',
      'Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[etcd.database.coreos.com] Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*]',
    ]);
    expect(r.missing[1]).toEqual({
      namespace: 'team-a',
      rule: { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      formatted: 'Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]',
      steps: [
        'InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): RBAC escalation check on the binding',
        "InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): RBAC escalation check, the installer must hold the operator's rules",
      ],
    });
    expect(r.warnings.map((w) => w.code)).toEqual([PreflightCode.CRDS_CREATED_BY_OLM]);
  });

  test("the docs' failure: an operator needing clusterroles at cluster scope, with the FULL list at once (deployment-validation-operator)", () => {
    // GIVEN the docs' namespaced Role only
    const r = InstallPreflight.check({ bundle: load('deployment-validation-operator'), namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: OKD });
    // THEN every missing rule, not just the first
    expect(r.missing.map((m) => m.formatted)).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[configmaps] Verbs:[create,delete,get,list,patch,update,watch]',
      'Namespace:"team-a" APIGroups:[] Resources:[services] Verbs:[delete,list,watch]',
      'Namespace:"team-a" APIGroups:[monitoring.coreos.com] Resources:[servicemonitors] Verbs:[*]',
      'Namespace:"" APIGroups:[*] Resources:[*] Verbs:[get,list,watch]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterrolebindings,clusterroles] Verbs:[create]',
    ]);
    // issue 30: the message lists and counts the rules outside the namespace as the derivation its fix names grants
    // them (create and update path: patch on the ClusterRole(Binding)s too), the same list as leastPrivilege's
    expect(r.problems).toEqual([{
      code: PreflightCode.NEEDS_CLUSTER_SCOPED_RULES,
      message: 'deployment-validation-operator.v0.7.12 cannot be installed by an installer confined to namespace team-a: OLM\'s scoped client needs 2 rule(s) '
        + 'outside it to install and update it: Namespace:"" APIGroups:[*] Resources:[*] Verbs:[get,list,watch]; Namespace:"" APIGroups:[rbac.authorization.k8s.io] '
        + 'Resources:[clusterrolebindings,clusterroles] Verbs:[create,patch]. Fix: grant them to the installer (ClusterRole + ClusterRoleBinding, or a '
        + 'RoleBinding in that namespace), e.g. from InstallerPermissions.leastPrivilege with allowClusterScoped, or choose an operator without '
        + 'clusterPermissions, webhooks or API services.',
    }]);
  });

  test('prometheus: two ServiceAccounts, both Roles checked', () => {
    const r = InstallPreflight.check({ bundle: load('prometheus'), namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: OKD });
    expect(r.missing.map((m) => m.formatted)).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[configmaps,secrets] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[] Resources:[endpoints] Verbs:[create,delete,get,list,update,watch]',
      'Namespace:"team-a" APIGroups:[] Resources:[namespaces] Verbs:[get,list,watch]',
      'Namespace:"team-a" APIGroups:[] Resources:[nodes] Verbs:[list,watch]',
      'Namespace:"team-a" APIGroups:[] Resources:[services] Verbs:[delete,list,watch]',
      'Namespace:"team-a" APIGroups:[] Resources:[services/finalizers] Verbs:[create,delete,get,update]',
      'Namespace:"team-a" APIGroups:[apps] Resources:[statefulsets] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[extensions,networking.k8s.io] Resources:[ingresses] Verbs:[get,list,watch]',
      'Namespace:"team-a" APIGroups:[monitoring.coreos.com] Resources:[alertmanagerconfigs,alertmanagers,alertmanagers/finalizers,podmonitors,probes,'
        + 'prometheuses,prometheuses/finalizers,prometheuses/status,prometheusrules,servicemonitors,thanosrulers,thanosrulers/finalizers] Verbs:[*]',
    ]);
  });

  test('rabbitmq (webhooks): cert resources need kube-system and cluster rules, bind limited by resourceNames', () => {
    const r = InstallPreflight.check({ bundle: load('rabbitmq-cluster-operator'), namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: OKD });
    const f = r.missing.map((m) => m.formatted);
    expect(f).toEqual(expect.arrayContaining([
      'Namespace:"team-a" APIGroups:[] Resources:[secrets] ResourceNames:[rabbitmq-cluster-operator-service-cert] Verbs:[get]',
      'Namespace:"kube-system" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings] ResourceNames:[rabbitmq-cluster-operator-service-auth-reader] Verbs:[create,patch]',
      'Namespace:"kube-system" APIGroups:[rbac.authorization.k8s.io] Resources:[roles] ResourceNames:[extension-apiserver-authentication-reader] Verbs:[bind]',
      'Namespace:"" APIGroups:[admissionregistration.k8s.io] Resources:[mutatingwebhookconfigurations,validatingwebhookconfigurations] Verbs:[create,list]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterroles] ResourceNames:[system:auth-delegator] Verbs:[bind]',
    ]));
    expect(scopes(r)).toEqual({ tenant: 3, kubeSystem: 2, cluster: 15 });
  });

  test('keda: the operator writes apiservices, so it cannot be installed through a scoped tenant', () => {
    const r = InstallPreflight.check({ bundle: load('keda'), namespace: 'team-a', targetNamespaces: [], installerRules: OKD });
    const p = r.problems.find((x) => x.code === PreflightCode.WRITES_CRDS_OR_APISERVICES)!;
    expect(p.message).toMatch(/^keda\.v2\.7\.1 cannot be installed through a scoped tenant: installing it needs the installer to hold Namespace:"" APIGroups:\[apiregistration\.k8s\.io\] Resources:\[apiservices\] Verbs:\[\*\]/);
    // and it is not offered as a missing rule to grant
    expect(r.missing.some((m) => RbacRules.allows([m.rule], { verb: 'update', apiGroup: 'apiregistration.k8s.io', resource: 'apiservices', name: 'x' }))).toBe(false);
  });

  test('opentelemetry: the conversion webhook updates a CRD with the scoped client', () => {
    const r = InstallPreflight.check({ bundle: load('opentelemetry-operator'), namespace: 'team-a', targetNamespaces: [], installerRules: OKD });
    const p = r.problems.find((x) => x.code === PreflightCode.WRITES_CRDS_OR_APISERVICES)!;
    expect(p.message).toContain('Namespace:"" APIGroups:[apiextensions.k8s.io] Resources:[customresourcedefinitions] ResourceNames:[opentelemetrycollectors.opentelemetry.io] Verbs:[update]');
    expect(p.message).toContain('install strategy: conversion webhook copentelemetrycollectors.kb.io: get + update of CRD opentelemetrycollectors.opentelemetry.io');
  });
});

describe('InstallPreflight OLM rules', () => {
  test('install mode: etcd (Own/Single only) in an AllNamespaces OperatorGroup is UnsupportedOperatorGroup', () => {
    const r = InstallPreflight.check({ bundle: load('etcd'), namespace: 'team-a', targetNamespaces: [], installerRules: OKD });
    expect(r.installModeSupported).toBe(false);
    expect(r.problems[0]).toEqual({
      code: PreflightCode.UNSUPPORTED_OPERATOR_GROUP,
      message: 'etcdoperator.v0.9.4: AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces (OperatorGroup in team-a '
        + 'targeting all namespaces; the CSV supports OwnNamespace, SingleNamespace). Fix: change the OperatorGroup\'s target namespaces or choose another operator.',
    });
  });

  test('other target namespaces and AllNamespaces are warnings, not missing rules', () => {
    const d = InstallerPermissions.leastPrivilege({ bundles: [load('grafana-operator')], namespace: 'team-a', targetNamespaces: ['team-a', 'team-b'], allowClusterScoped: true });
    const r = InstallPreflight.check({
      bundle: load('grafana-operator'),
      namespace: 'team-a',
      targetNamespaces: ['team-a', 'team-b'],
      installerRules: d.namespacedRules,
      clusterInstallerRules: d.clusterRules,
    });
    expect(r.ok).toBe(true);
    expect(r.missing).toEqual([]);
    expect(r.warnings.map((w) => w.code)).toEqual([PreflightCode.RBAC_COPIED_TO_TARGET_NAMESPACES, PreflightCode.CRDS_CREATED_BY_OLM]);
    const all = InstallPreflight.check({ bundle: load('grafana-operator'), namespace: 'team-a', targetNamespaces: [], installerRules: d.namespacedRules, clusterInstallerRules: d.clusterRules });
    expect(all.warnings.map((w) => w.code)).toEqual([PreflightCode.RBAC_LIFTED_TO_CLUSTER, PreflightCode.CRDS_CREATED_BY_OLM]);
  });

  const csv = (rules: PolicyRule[], extra: any[] = [], version = '1.0.0') => OperatorBundle.fromCsvObject({
    kind: 'ClusterServiceVersion',
    metadata: { name: `demo.v${version}` },
    spec: {
      version,
      installModes: [{ type: 'OwnNamespace', supported: true }],
      install: { strategy: 'deployment', spec: { deployments: [{ name: 'demo', spec: {} }], permissions: [{ serviceAccountName: 'demo', rules }] } },
    },
  }, extra);
  const base: PolicyRule[] = [
    { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['create'] },
    { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'create'] },
  ];

  test('escalate + bind replace holding the operator rules (Kubernetes escalation check)', () => {
    const b = csv([{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['*'] }]);
    const without = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: base });
    expect(without.missing.map((m) => m.formatted)).toEqual(['Namespace:"ns" APIGroups:[batch] Resources:[jobs] Verbs:[*]']);
    const withEscalate = InstallPreflight.check({
      bundle: b,
      namespace: 'ns',
      targetNamespaces: ['ns'],
      installerRules: [...base, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate', 'bind'] }],
    });
    expect(withEscalate.ok).toBe(true);
  });

  test('bundle objects: unsupported kinds fail; supported cluster-scoped kinds need cluster rules', () => {
    const b = csv([], [
      { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' } },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' } },
    ]);
    const r = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: base });
    expect(codes(r)).toEqual([PreflightCode.UNSUPPORTED_RESOURCE, PreflightCode.NEEDS_CLUSTER_SCOPED_RULES]);
    expect(r.problems[0].message).toContain('bundle object DaemonSet agent (extra object [0], apps/v1) is a kind OLM does not install');
    expect(r.missing.map((m) => m.formatted)).toEqual(['Namespace:"" APIGroups:[scheduling.k8s.io] Resources:[priorityclasses] Verbs:[create]']);
    const up = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: base, upgrade: true });
    expect(up.missing.filter((m) => m.namespace === '').map((m) => m.formatted)).toEqual([
      'Namespace:"" APIGroups:[scheduling.k8s.io] Resources:[priorityclasses] ResourceNames:[high] Verbs:[get,update]',
      'Namespace:"" APIGroups:[scheduling.k8s.io] Resources:[priorityclasses] Verbs:[create]',
    ]);
  });

  test('upgrade path: typed objects need get + patch, Deployments get + patch (operatorclient CreateOrRollingUpdateDeployment); CSV stays create-only', () => {
    const r = InstallPreflight.check({ bundle: csv([]), namespace: 'ns', targetNamespaces: ['ns'], installerRules: base, upgrade: true });
    expect(r.missing.map((m) => m.formatted)).toEqual([
      'Namespace:"ns" APIGroups:[] Resources:[serviceaccounts] ResourceNames:[demo] Verbs:[get,patch]',
      'Namespace:"ns" APIGroups:[apps] Resources:[deployments] ResourceNames:[demo] Verbs:[patch]',
      'Namespace:"ns" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings,roles] Verbs:[get,patch]',
    ]);
  });

  test('checkVersions says which version needs what', () => {
    const v1 = csv([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], [], '1.0.0');
    const v2 = csv([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }, { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create'] }], [], '2.0.0');
    const d = InstallerPermissions.leastPrivilege({ bundles: [v1], namespace: 'ns', targetNamespaces: ['ns'] });
    const results = InstallPreflight.checkVersions({ bundles: [v1, v2], namespace: 'ns', targetNamespaces: ['ns'], installerRules: d.namespacedRules });
    expect(results.map((x) => [x.bundleName, x.version, x.ok, x.missing.map((m) => m.formatted)])).toEqual([
      ['demo.v1.0.0', '1.0.0', true, []],
      ['demo.v2.0.0', '2.0.0', false, ['Namespace:"ns" APIGroups:[batch] Resources:[jobs] Verbs:[create]']],
    ]);
  });
});

describe('InstallPreflight.format', () => {
  test('problems, missing rules, warnings as lines', () => {
    const r = InstallPreflight.check({ bundle: load('etcd'), namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: OKD });
    expect(InstallPreflight.format(r).slice(0, 3)).toEqual([
      'etcdoperator.v0.9.4 (0.9.4): would FAIL to install',
      '  missing 4 rule(s):',
      '    Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]',
    ]);
  });
});

describe('bindings to roles outside the bundle', () => {
  const viewBinding = () => OperatorBundle.fromCsvObject({
    kind: 'ClusterServiceVersion',
    metadata: { name: 'rb.v1' },
    spec: { installModes: [{ type: 'OwnNamespace', supported: true }], install: { strategy: 'deployment', spec: { deployments: [] } } },
  }, [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'viewers' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [] }]);
  const baseRules = [
    'Namespace:"ns" APIGroups:[operators.coreos.com] Resources:[clusterserviceversions] Verbs:[create]',
    'Namespace:"ns" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings] ResourceNames:[viewers] Verbs:[get,patch]',
    'Namespace:"ns" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings] Verbs:[create]',
  ];
  const refusal = 'rb.v1 binds ClusterRole view (in ns), which no manifest of the bundle defines (InstallPlan step RoleBinding viewers (extra object [0]): '
    + "binding ClusterRole view needs its rules or bind on it): the installer could only create these bindings with 'bind' on the role, and holding it "
    + 'lets the installer, whose token is in namespace ns, bind that role to itself: an escalation as large as the role. Not derived. Fix: have a '
    + 'cluster admin install this operator, or accept each role by name with a reason (ScopedOperatorTenant allowedBindRoles / LeastPrivilegeProps.allowedBindRoles).';

  test('a bundle RoleBinding to a ClusterRole not in the bundle is a GrantsEscalationRights refusal: bind on it is not derived (k8s escalation_check.go BindingAuthorized)', () => {
    const b = viewBinding();
    const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'ns', targetNamespaces: ['ns'] });
    expect(d.problems).toEqual([{ code: PreflightCode.GRANTS_ESCALATION_RIGHTS, message: refusal }]);
    expect(d.namespacedRules.map((r) => RbacRules.format(r, 'ns'))).toEqual(baseRules);
    expect(d.boundRoles).toEqual([]);
    // the preflight of the derived rules says why (a refusal, not a missing rule to add)
    const r = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: d.namespacedRules, upgrade: true });
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual([]);
    expect(r.problems).toEqual([{ code: PreflightCode.GRANTS_ESCALATION_RIGHTS, message: refusal }]);
  });

  test('allowedBindRoles accepts bind on that one role by name, with the reason in boundRoles; the preflight then passes', () => {
    const b = viewBinding();
    const d = InstallerPermissions.leastPrivilege({
      bundles: [b],
      namespace: 'ns',
      targetNamespaces: ['ns'],
      allowedBindRoles: [{ roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: 'read-only dashboards' }],
    });
    expect(d.problems).toEqual([]);
    expect(d.namespacedRules.map((r) => RbacRules.format(r, 'ns'))).toEqual([
      baseRules[0],
      'Namespace:"ns" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterroles] ResourceNames:[view] Verbs:[bind]',
      ...baseRules.slice(1),
    ]);
    expect(d.boundRoles).toEqual([
      { namespace: 'ns', roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', bootstrap: false, reason: 'accepted by allowedBindRoles: read-only dashboards' },
    ]);
    const r = InstallPreflight.check({ bundle: b, namespace: 'ns', targetNamespaces: ['ns'], installerRules: d.namespacedRules, upgrade: true });
    expect(r.ok).toBe(true);
    // an acceptance of another role, another kind, or with a blank reason does not count
    for (const other of [
      { roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'edit', reason: 'x' },
      { roleKind: BoundRoleKind.ROLE, roleName: 'view', reason: 'x' },
      { roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'view', reason: ' ' },
    ]) {
      expect(InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'ns', targetNamespaces: ['ns'], allowedBindRoles: [other] }).problems)
        .toEqual([{ code: PreflightCode.GRANTS_ESCALATION_RIGHTS, message: refusal }]);
    }
  });

  test('GIVEN the hand-made leaky bundle (ClusterRoleBinding to cluster-admin, RoleBinding to an undefined ClusterRole) THEN no bind is derived, even with cluster-scoped rules allowed', () => {
    const dir = path.join(__dirname, '..', 'fixtures', 'leaky-bundles', 'binds-cluster-admin', '0.1.0');
    const b = OperatorBundle.fromDirectory(dir);
    const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
    const all = [...d.namespacedRules, ...d.clusterRules, ...d.otherNamespaceRules.flatMap((n) => n.rules)];
    expect(all.filter((r) => r.verbs.some((v) => v === 'bind' || v === 'escalate' || v === '*'))).toEqual([]);
    expect(d.clusterRules.map((r) => RbacRules.format(r, ''))).toEqual([
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterrolebindings] ResourceNames:[leaky-operator-cluster-admin] Verbs:[get,patch]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterrolebindings] Verbs:[create]',
    ]);
    expect(d.boundRoles).toEqual([]);
    expect(d.problems.map((p) => p.code)).toEqual([PreflightCode.GRANTS_ESCALATION_RIGHTS]);
    expect(d.problems[0].message).toContain('binds ClusterRole cluster-admin (cluster-wide), ClusterRole leaky-metrics-reader (in team-a), which no manifest of the bundle defines');
  });

  test('bootstrap roles stay derived as bind by name, only when their rules are not held anyway, and are named with the reason (rabbitmq cert resources)', () => {
    const b = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'rabbitmq-cluster-operator', '2.22.3'));
    const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
    expect(d.boundRoles.map((x) => ({ ...x, reason: x.reason.slice(0, 40) }))).toEqual([
      { namespace: '', roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'system:auth-delegator', bootstrap: true, reason: "bootstrap role bound by OLM's cert resou" },
    ]);
    // extension-apiserver-authentication-reader's one rule (get the configmap) is covered by rabbitmq's cluster-wide
    // configmap reads, so no bind on it is derived (bind is only needed when the installer lacks the role's rules)
    expect(d.problems).toEqual([]);
  });
});

describe('upgrades over a catalog: which version needs what', () => {
  test('odf-node-recovery-operator: rules derived for v1.0.0 do not cover v1.1.0 (new ServiceMonitor, Secret, ServiceAccount, ClusterRoles)', () => {
    // GIVEN both versions from the real FBC (olm.bundle.object style)
    const file = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml');
    const v100 = OperatorBundle.fromCatalogFile(file, 'odf-node-recovery-operator.v1.0.0');
    const v110 = OperatorBundle.fromCatalogFile(file, 'odf-node-recovery-operator.v1.1.0');
    const d = InstallerPermissions.leastPrivilege({ bundles: [v100], namespace: 'ops', targetNamespaces: [], allowClusterScoped: true });
    // WHEN
    const [r100, r110] = InstallPreflight.checkVersions({
      bundles: [v100, v110],
      namespace: 'ops',
      targetNamespaces: [],
      installerRules: d.namespacedRules,
      clusterInstallerRules: d.clusterRules,
      otherNamespaceRules: d.otherNamespaceRules,
    });
    // THEN
    expect([r100.ok, r100.missing]).toEqual([true, []]);
    expect(r110.ok).toBe(false);
    const f = r110.missing.map((m) => m.formatted);
    expect(f).toEqual(expect.arrayContaining([
      // the new Secret and ServiceAccount share a name, so their update-path rules compact into one
      'Namespace:"ops" APIGroups:[] Resources:[secrets,serviceaccounts] ResourceNames:[odf-node-recovery-operator-metrics-reader] Verbs:[get,patch]',
      'Namespace:"ops" APIGroups:[] Resources:[secrets] Verbs:[create]',
      'Namespace:"ops" APIGroups:[monitoring.coreos.com] Resources:[servicemonitors] Verbs:[create]',
      'Namespace:"ops" APIGroups:[monitoring.coreos.com] Resources:[servicemonitors] ResourceNames:[odf-node-recovery-operator-controller-manager-metrics-monitor] Verbs:[get,update]',
    ]));
    // every missing rule comes from a step that only v1.1.0 has
    const newInV110 = /ServiceMonitor|Secret odf-node-recovery-operator-metrics-reader|ServiceAccount odf-node-recovery-operator-metrics-reader|noderecovery-(admin|editor|viewer)-role|clusterPermissions\[1\]/;
    for (const m of r110.missing) {
      expect({ rule: m.formatted, fromNewStep: m.steps.every((s) => newInV110.test(s)) }).toEqual({ rule: m.formatted, fromNewStep: true });
    }
    // deriving over both versions covers the upgrade
    const both = InstallerPermissions.leastPrivilege({ bundles: [v100, v110], namespace: 'ops', targetNamespaces: [], allowClusterScoped: true });
    expect(InstallPreflight.checkVersions({
      bundles: [v100, v110],
      namespace: 'ops',
      targetNamespaces: [],
      installerRules: both.namespacedRules,
      clusterInstallerRules: both.clusterRules,
      otherNamespaceRules: both.otherNamespaceRules,
    }).map((x) => x.ok)).toEqual([true, true]);
  });
});

describe('API services', () => {
  test('an owned APIService is created with the scoped client: refused as an APIService write, cert resources needed', () => {
    const b = OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'api.v1' },
      spec: {
        installModes: [{ type: 'AllNamespaces', supported: true }],
        apiservicedefinitions: { owned: [{ group: 'metrics.example.com', version: 'v1beta1', kind: 'Metric', name: 'metrics', deploymentName: 'api' }] },
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'api', spec: {} }] } },
      },
    });
    const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'ops', targetNamespaces: [], allowClusterScoped: true });
    expect(codes(d)).toEqual([PreflightCode.WRITES_CRDS_OR_APISERVICES]);
    expect(d.problems[0].message).toContain('Namespace:"" APIGroups:[apiregistration.k8s.io] Resources:[apiservices] Verbs:[create]');
    expect(d.clusterRules.map((r) => RbacRules.format(r, ''))).toEqual([
      // update path get of the APIService (its patch is the refused write), and the lookup of the legacy-named binding
      'Namespace:"" APIGroups:[apiregistration.k8s.io] Resources:[apiservices] ResourceNames:[v1beta1.metrics.example.com] Verbs:[get]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterrolebindings] ResourceNames:[api-service-system:auth-delegator] Verbs:[create,patch]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterrolebindings] ResourceNames:[v1beta1.metrics.example.com-system:auth-delegator] Verbs:[get]',
      'Namespace:"" APIGroups:[rbac.authorization.k8s.io] Resources:[clusterroles] ResourceNames:[system:auth-delegator] Verbs:[bind]',
    ]);
  });
});

/** Independent statement of what a scoped installer never holds (docs/preflight.md): refused, not reported missing. */
function neverHeld(a: PolicyRule): boolean {
  if (a.nonResourceUrls !== undefined) return false;
  const [v, g, r] = [a.verbs[0], a.apiGroups![0], a.resources![0]];
  const is = (x: string, ...vals: string[]) => x === '*' || vals.includes(x);
  if (is(v, 'create', 'update', 'patch', 'delete', 'deletecollection')
    && ((is(g, 'apiextensions.k8s.io') && is(r, 'customresourcedefinitions')) || (is(g, 'apiregistration.k8s.io') && is(r, 'apiservices')))) return true;
  if (a.resourceNames !== undefined) return false;
  return (is(v, 'escalate', 'bind') && is(g, 'rbac.authorization.k8s.io') && is(r, 'roles', 'clusterroles'))
    || (is(v, 'impersonate') && is(g, '', 'authentication.k8s.io') && is(r, 'users', 'groups', 'serviceaccounts'));
}

describe('InstallPreflight.check equals the direct per-requirement computation (fast-check)', () => {
  // The reference: one RbacRules.covers per requirement, as the escalation check and the authorizer see each step.
  // InstallPreflight.check batches one covers call per namespace and caches the model per bundle.
  test('random installer rules drawn from the derived rules of four bundles', () => {
    const ops = ['etcd', 'rabbitmq-cluster-operator', 'cert-manager', 'grafana-operator'];
    const pools = new Map(ops.map((op) => {
      const b = load(op);
      const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: targetsFor(b), allowClusterScoped: true });
      const pool = { ns: RbacRules.breakdown(d.namespacedRules), cluster: RbacRules.breakdown(d.clusterRules), other: d.otherNamespaceRules };
      return [op, pool] as const;
    }));
    const escalate: PolicyRule = { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'clusterroles'], verbs: ['escalate', 'bind'] };
    fc.assert(fc.property(fc.constantFrom(...ops), fc.boolean(), fc.boolean(), fc.infiniteStream(fc.boolean()), (op, upgrade, withEscalate, keep) => {
      const b = load(op);
      const pool = pools.get(op)!;
      const it = keep[Symbol.iterator]();
      const pick = (rules: PolicyRule[]) => rules.filter(() => it.next().value);
      const installerRules = [...pick(pool.ns), ...(withEscalate ? [escalate] : [])];
      const clusterInstallerRules = pick(pool.cluster);
      const otherNamespaceRules = pool.other.map((n) => ({ namespace: n.namespace, rules: pick(RbacRules.breakdown(n.rules)) }));
      const r = InstallPreflight.check({ bundle: b, namespace: 'team-a', targetNamespaces: targetsFor(b), upgrade, installerRules, clusterInstallerRules, otherNamespaceRules });
      // reference
      const owner = (ns: string) => [
        ...clusterInstallerRules,
        ...(ns === 'team-a' ? installerRules : []),
        ...otherNamespaceRules.filter((n) => n.namespace === ns && ns !== '').flatMap((n) => n.rules),
      ];
      const refAtoms = new Map<string, PolicyRule[]>();
      for (const req of InstallPlanModel.build(b, 'team-a', upgrade).requirements) {
        const allowed = RbacRules.breakdown(req.rules).filter((a) => !neverHeld(a));
        const o = owner(req.namespace);
        if (RbacRules.covers(o, allowed).covered) continue;
        if (req.alternative !== undefined && RbacRules.covers(o, req.alternative).covered) continue;
        const wanted = req.deriveAlternative && req.alternative !== undefined ? req.alternative : allowed;
        refAtoms.set(req.namespace, [...(refAtoms.get(req.namespace) ?? []), ...RbacRules.covers(o, wanted).missing]);
      }
      const got = new Map<string, PolicyRule[]>();
      for (const m of r.missing) got.set(m.namespace, [...(got.get(m.namespace) ?? []), m.rule]);
      expect([...got.keys()].sort()).toEqual([...refAtoms.keys()].sort());
      for (const [ns, atoms] of refAtoms) {
        expect(RbacRules.covers(got.get(ns)!, atoms).covered).toBe(true);
        expect(RbacRules.covers(atoms, got.get(ns)!).covered).toBe(true);
      }
    }), { numRuns: 150 });
  });
});
