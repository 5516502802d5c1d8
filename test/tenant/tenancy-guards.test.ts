// Issue 8, cases 3b and 5: the installer's identity, system namespaces, and the legacy pull-secret Role against
// other tenants. Each test failed before the guards (synth passed silently) and passes now.
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CatalogSourceReference, OperatorBundle, ScopedOperatorTenant, SystemNamespaces, TargetNamespaces } from '../../src';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(BUNDLES, name, version));
const CATALOG = CatalogSourceReference.fromName('operatorhubio-catalog', 'olm');

/** All validation messages of the App (root first, as app.synth() runs them). */
function errorsOf(app: App): string[] {
  return [app as IConstruct, ...app.node.findAll().slice(1)].flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

function newChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

describe('SystemNamespaces', () => {
  test.each([
    ['default', true], ['kube-system', true], ['kube-public', true], ['kube-node-lease', true], ['kube-anything', true],
    ['olm', true], ['operators', true], ['openshift', true], ['openshift-marketplace', true], ['openshift-operator-lifecycle-manager', true],
    ['team-a', false], ['kube', false], ['openshiftx', false], ['olm-team', false], ['my-operators', false],
  ])('%s -> %s', (ns, expected) => {
    expect(SystemNamespaces.isSystemNamespace(ns)).toBe(expected);
  });
});

describe('case 3b: the installer ServiceAccount is nobody else', () => {
  test("GIVEN installerServiceAccountName 'default' THEN a synth error (every pod without a ServiceAccount runs as it)", () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerServiceAccountName: 'default' });
    expect(errorsOf(app)).toEqual([
      "[platform/T] installerServiceAccountName=\"default\": every pod in namespace 'team-a' that names no ServiceAccount runs as 'default', so it would hold the installer's rights. Fix: leave installerServiceAccountName unset (the namespace name) or use a name no pod runs as (InstallerServiceAccountIsDefault)",
    ]);
  });

  test("GIVEN the operator's own ServiceAccount (etcd-operator) as installer THEN a synth error naming the operator", () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerServiceAccountName: 'etcd-operator', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    expect(errorsOf(app)).toEqual([
      "[platform/T] installerServiceAccountName=\"etcd-operator\": operator etcdoperator.v0.9.4 runs as ServiceAccount 'etcd-operator' in namespace 'team-a' (its CSV permissions or Deployments name it); OLM binds the operator's Roles to it and its pods would hold the installer's rights. Fix: give the installer a ServiceAccount that no operator uses (installerServiceAccountName), e.g. 'team-a-installer' (InstallerServiceAccountIsOperators)",
    ]);
  });

  test('GIVEN a ServiceAccount of an upgrade bundle only THEN the error names that version', () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      installerServiceAccountName: 'grafana-operator-controller-manager',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'grafana-operator reads namespaces',
    });
    t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    t.subscribe({ packageName: 'grafana-operator', channel: 'v5', catalog: CATALOG, bundle: bundle('grafana-operator', '5.24.0') });
    expect(errorsOf(app).filter((e) => e.includes('InstallerServiceAccount'))).toEqual([
      expect.stringContaining('operator grafana-operator.v5.24.0 runs as ServiceAccount \'grafana-operator-controller-manager\''),
    ]);
  });

  test('GIVEN the default name (the namespace) THEN no error', () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    expect(errorsOf(app)).toEqual([]);
  });
});

describe('case 5: system namespaces and other tenants', () => {
  test('GIVEN kube-system and openshift-operator-lifecycle-manager as targets with only a targets reason THEN one error each', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system', 'openshift-operator-lifecycle-manager'], 'x'),
    });
    const fix = (ns: string) => `Fix: remove '${ns}' from targetNamespaces, or set systemNamespacesReason to say why the operator must act there (it is written to the OperatorGroup) (SystemNamespaceTarget)`;
    const msg = (ns: string) => `'${ns}' is a system namespace; OLM would copy the operator's Roles there with its own cluster-admin client, giving the operator the rights of those Roles over cluster components.`;
    expect(errorsOf(app)).toEqual([
      `[platform/T] targetNamespaces="kube-system": ${msg('kube-system')} ${fix('kube-system')}`,
      `[platform/T] targetNamespaces="openshift-operator-lifecycle-manager": ${msg('openshift-operator-lifecycle-manager')} ${fix('openshift-operator-lifecycle-manager')}`,
    ]);
  });

  test('GIVEN systemNamespacesReason THEN the targets are accepted and the reason is on the OperatorGroup', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system'], 'the operator watches kube-system events'),
      systemNamespacesReason: 'approved by the platform team, ticket 42',
    });
    expect(errorsOf(app)).toEqual([]);
    expect(Testing.synth(chart).find((o) => o.kind === 'OperatorGroup')!.metadata).toEqual({
      name: 'team-a',
      namespace: 'team-a',
      annotations: {
        'cdk8s-olm-tenancy.io/system-namespaces-reason': 'approved by the platform team, ticket 42',
        'cdk8s-olm-tenancy.io/target-namespaces-reason': 'the operator watches kube-system events',
      },
    });
  });

  test('GIVEN a tenant in a system namespace (OLM global operators) THEN its own namespace needs no opt-in', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'operators' });
    expect(errorsOf(app)).toEqual([]);
  });

  test('GIVEN systemNamespacesReason that opts into nothing, or is blank THEN errors', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', systemNamespacesReason: ' ' });
    expect(errorsOf(app)).toEqual([
      '[platform/T] systemNamespacesReason=" ": the reason for reaching into system namespaces is empty. Fix: say why the tenant needs these system namespaces (it is written to the objects) (EmptySystemNamespacesReason)',
      '[platform/T] systemNamespacesReason=" ": systemNamespacesReason is set but no target namespace or pull-secret namespace is a system namespace, so it opts into nothing. Fix: drop systemNamespacesReason (SystemNamespacesReasonUnused)',
    ]);
  });

  test('GIVEN legacy pull secrets in openshift-marketplace without the opt-in THEN an error', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'openshift-marketplace', secretNames: ['pull'] } });
    expect(errorsOf(app)).toEqual([
      "[platform/T] legacyPullSecretAccess.catalogNamespace=\"openshift-marketplace\": 'openshift-marketplace' is a system namespace; the installer would read Secrets of a cluster component there. Fix: drop legacyPullSecretAccess (current OLM does not need it), or set systemNamespacesReason (it is written to the pull-secret Role) (SystemNamespacePullSecrets)",
    ]);
  });

  test("GIVEN another tenant's namespace and its installer token as pull secrets THEN both are refused, whatever the opt-ins", () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'Victim', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'Attacker', {
      namespaceName: 'team-a',
      legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['team-b', 'pull'] },
    });
    expect(errorsOf(app)).toEqual([
      "[platform/Attacker] legacyPullSecretAccess.catalogNamespace=\"team-b\": namespace 'team-b' belongs to tenant platform/Victim; the installer would read Secrets there. Fix: name the global catalog namespace (the catalog operator's -namespace flag), never a tenant namespace (PullSecretNamespaceOfOtherTenant)",
      "[platform/Attacker] legacyPullSecretAccess.secretNames=\"team-b\": Secret team-b/team-b is the installer token of tenant platform/Victim (ServiceAccount team-b/team-b); reading it is acting as that installer. Fix: remove 'team-b' from secretNames (PullSecretIsInstallerToken)",
    ]);
  });

  test("GIVEN another tenant's namespace as target even with systemNamespacesReason THEN still refused (TargetsOtherTenant)", () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'A', {
      namespaceName: 'team-a',
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b', 'kube-system'], 'x'),
      systemNamespacesReason: 'y',
    });
    expect(errorsOf(app).map((e) => e.replace(/^.*\((\w+)\)$/, '$1'))).toEqual(['TargetsOtherTenant']);
  });
});
