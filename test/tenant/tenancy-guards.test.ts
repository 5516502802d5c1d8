// Issue 8, cases 3b and 5: the installer's identity, system namespaces, and the legacy pull-secret Role against
// other tenants. Each test failed before the guards (synth passed silently) and passes now.
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CatalogSourceReference, OperatorBundle, PodSecurityLevel, ScopedOperatorTenant, ScopedOperatorTenantProps, SubscriptionConfigOptIn, TargetNamespaces } from '../../src';
import { SystemNamespaces } from '../../src/tenant/system-namespaces';

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
      "[platform/T] installerServiceAccountName=\"default\": every pod in namespace 'team-a' that names no ServiceAccount runs as 'default', so it would hold the installer's rights. Fix: leave installerServiceAccountName unset (the namespace name) or use a name no pod runs as (InstallerServiceAccountIsDefault, OLMT-027)",
    ]);
  });

  test("GIVEN the operator's own ServiceAccount (etcd-operator) as installer THEN a synth error naming the operator", () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerServiceAccountName: 'etcd-operator', deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog: CATALOG, bundle: bundle('etcd', '0.9.4') });
    expect(errorsOf(app)).toEqual([
      "[platform/T] installerServiceAccountName=\"etcd-operator\": operator etcdoperator.v0.9.4 runs as ServiceAccount 'etcd-operator' in namespace 'team-a' (its CSV permissions or Deployments name it); OLM binds the operator's Roles to it and its pods would hold the installer's rights. Fix: give the installer a ServiceAccount that no operator uses (installerServiceAccountName), e.g. 'team-a-installer' (InstallerServiceAccountIsOperators, OLMT-028)",
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
      installerRules: [], // the default Role's pod writes are a sensitive grant beyond the own namespace (OLMT-003)
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'kube-system', 'openshift-operator-lifecycle-manager'], 'x'),
    });
    const fix = (ns: string) => `Fix: remove '${ns}' from targetNamespaces, or set systemNamespacesReason to say why the operator must act there (it is written to the OperatorGroup) (SystemNamespaceTarget, OLMT-029)`;
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
      installerRules: [], // the default Role's pod writes are a sensitive grant beyond the own namespace (OLMT-003)
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
      '[platform/T] systemNamespacesReason=" ": the reason for reaching into system namespaces is empty. Fix: say why the tenant needs these system namespaces (it is written to the objects) (EmptySystemNamespacesReason, OLMT-031)',
      '[platform/T] systemNamespacesReason=" ": systemNamespacesReason is set but no target namespace or pull-secret namespace is a system namespace, so it opts into nothing. Fix: drop systemNamespacesReason (SystemNamespacesReasonUnused)',
    ]);
  });

  test('GIVEN legacy pull secrets in openshift-marketplace without the opt-in THEN an error', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'openshift-marketplace', secretNames: ['pull'] } });
    expect(errorsOf(app)).toEqual([
      "[platform/T] legacyPullSecretAccess.catalogNamespace=\"openshift-marketplace\": 'openshift-marketplace' is a system namespace; the installer would read Secrets of a cluster component there. Fix: drop legacyPullSecretAccess (current OLM does not need it), or set systemNamespacesReason (it is written to the pull-secret Role) (SystemNamespacePullSecrets, OLMT-030)",
    ]);
  });

  test("GIVEN another tenant's namespace and its installer token as pull secrets THEN both are refused, whatever the opt-ins", () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'Victim', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'Attacker', {
      namespaceName: 'team-a',
      legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['team-b', 'pull'] },
    });
    // (the effective-power audit also reports what the pull-secret Role reaches: TenantIdentityReachesOtherNamespace)
    const errors = errorsOf(app);
    expect(errors.filter((e) => e.includes('(TenantIdentityReachesOtherNamespace, ')).length).toBeGreaterThan(0);
    expect(errors.filter((e) => !e.includes('(TenantIdentityReachesOtherNamespace, '))).toEqual([
      "[platform/Attacker] legacyPullSecretAccess.catalogNamespace=\"team-b\": namespace 'team-b' belongs to tenant platform/Victim; the installer would read Secrets there. Fix: name the global catalog namespace (the catalog operator's -namespace flag), never a tenant namespace (PullSecretNamespaceOfOtherTenant, OLMT-032)",
      "[platform/Attacker] legacyPullSecretAccess.secretNames=\"team-b\": Secret team-b/team-b is the installer token of tenant platform/Victim (ServiceAccount team-b/team-b); reading it is acting as that installer. Fix: remove 'team-b' from secretNames (PullSecretIsInstallerToken, OLMT-033)",
    ]);
  });

  test('GIVEN a custom token Secret name THEN that name is the one refused; names of other Secrets only give the namespace error', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'Victim', { namespaceName: 'team-b', tokenSecretName: 'installer-token' });
    new ScopedOperatorTenant(chart, 'Attacker', { namespaceName: 'team-a', legacyPullSecretAccess: { catalogNamespace: 'team-b', secretNames: ['team-b', 'installer-token'] } });
    expect(errorsOf(app).map((e) => e.replace(/^(\[[^\]]+\] [^:]+):.*\((\w+)(, OLMT-\d+)?\)$/, '$1 $2'))).toEqual([
      '[platform/Attacker] legacyPullSecretAccess.catalogNamespace="team-b" PullSecretNamespaceOfOtherTenant',
      '[platform/Attacker] legacyPullSecretAccess.secretNames="installer-token" PullSecretIsInstallerToken',
      '[platform/Attacker] identity="ServiceAccount team-a/team-a" TenantIdentityReachesOtherNamespace',
    ]);
  });

  test("GIVEN another tenant's namespace as target even with systemNamespacesReason THEN still refused (TargetsOtherTenant)", () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
    new ScopedOperatorTenant(chart, 'A', {
      namespaceName: 'team-a',
      installerRules: [], // the default Role's pod writes are a sensitive grant beyond the own namespace (OLMT-003)
      targetNamespaces: TargetNamespaces.namespaces(['team-a', 'team-b', 'kube-system'], 'x'),
      systemNamespacesReason: 'y',
    });
    expect(errorsOf(app).map((e) => e.replace(/^.*\((\w+)(, OLMT-\d+)?\)$/, '$1'))).toEqual(['TargetsOtherTenant']);
  });
});

describe('case 6b at synth: subscribe({ config }) is checked like the admission policy', () => {
  const SECRET_FIX = 'Fix: remove it, or add the Secret name to allowedConfigSecrets (subscribe) / allowedSubscriptionConfigSecrets (admission policy) (SubscriptionConfigSecret, OLMT-035)';
  const SECRET_WHY = "and it is not in allowedSecretNames (none); a Subscription writer could hand them any Secret of the namespace, such as the installer's token.";

  test("GIVEN hostPath /, the installer's token Secret as volume, projected, envFrom and env, and placement THEN one error each", () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    t.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: CATALOG,
      config: {
        volumes: [
          { name: 'host', hostPath: { path: '/' } },
          { name: 'tok', secret: { secretName: 'team-a' } },
          { name: 'p', projected: { sources: [{ configMap: { name: 'ca' } }, { secret: { name: 'team-a' } }] } },
          { name: 'ok', configMap: { name: 'ca' } },
        ],
        envFrom: [{ secretRef: { name: 'team-a' } }],
        env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'team-a', key: 'token' } } }, { name: 'LOG', value: 'debug' }],
        tolerations: [{ operator: 'Exists' }],
        nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
        affinity: { nodeAffinity: {} },
      },
    });
    const at = '[platform/T/Subscription-etcd]';
    expect(errorsOf(app)).toEqual([
      `${at} config.volumes[0].hostPath="host": volume type hostPath is outside the Pod Security restricted set (configMap, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret); a hostPath volume reads and writes the node. Fix: use a safe volume type, or opt in with SubscriptionConfigOptIn.OTHER_VOLUME_TYPES (SubscriptionConfigVolume, OLMT-034)`,
      `${at} config.volumes[1].secret.secretName="team-a": volume 'tok' hands Secret 'team-a' to the operator's pods, ${SECRET_WHY} ${SECRET_FIX}`,
      `${at} config.volumes[2].projected.sources[1].secret.name="team-a": projected volume 'p' hands Secret 'team-a' to the operator's pods, ${SECRET_WHY} ${SECRET_FIX}`,
      `${at} config.envFrom[0].secretRef.name="team-a": envFrom hands Secret 'team-a' to the operator's pods, ${SECRET_WHY} ${SECRET_FIX}`,
      `${at} config.env[0].valueFrom.secretKeyRef.name="team-a": env TOKEN hands Secret 'team-a' to the operator's pods, ${SECRET_WHY} ${SECRET_FIX}`,
      `${at} config.tolerations="[{\\"operator\\":\\"Exists\\"}]": tolerations let the operator's pods onto tainted nodes (control plane, infra, dedicated), which is the platform's choice, not the tenant's. Fix: remove it, or opt in with SubscriptionConfigOptIn.TOLERATIONS (SubscriptionConfigScheduling, OLMT-036)`,
      `${at} config.nodeSelector="{\\"node-role.kubernetes.io/control-plane\\":\\"\\"}": nodeSelector pins the operator's pods to chosen nodes, which is the platform's choice, not the tenant's. Fix: remove it, or opt in with SubscriptionConfigOptIn.NODE_SELECTOR (SubscriptionConfigScheduling, OLMT-036)`,
      `${at} config.affinity="{\\"nodeAffinity\\":{}}": affinity places the operator's pods next to, or away from, chosen nodes and pods, which is the platform's choice, not the tenant's. Fix: remove it, or opt in with SubscriptionConfigOptIn.AFFINITY (SubscriptionConfigScheduling, OLMT-036)`,
    ]);
  });

  test('GIVEN the opt-ins THEN the same config synthesizes, but a Secret not named is still refused', () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    t.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: CATALOG,
      config: {
        volumes: [{ name: 'host', hostPath: { path: '/var/log' } }, { name: 'tls', secret: { secretName: 'etcd-tls' } }],
        envFrom: [{ secretRef: { name: 'team-a' } }],
        tolerations: [{ operator: 'Exists' }],
        nodeSelector: { infra: '' },
        affinity: { nodeAffinity: {} },
      },
      allowedConfig: [
        SubscriptionConfigOptIn.OTHER_VOLUME_TYPES, SubscriptionConfigOptIn.TOLERATIONS,
        SubscriptionConfigOptIn.NODE_SELECTOR, SubscriptionConfigOptIn.AFFINITY,
      ],
      allowedConfigSecrets: ['etcd-tls'],
    });
    expect(errorsOf(app)).toEqual([
      "[platform/T/Subscription-etcd] config.envFrom[0].secretRef.name=\"team-a\": envFrom hands Secret 'team-a' to the operator's pods, and it is not in allowedSecretNames (etcd-tls); a Subscription writer could hand them any Secret of the namespace, such as the installer's token. Fix: remove it, or add the Secret name to allowedConfigSecrets (subscribe) / allowedSubscriptionConfigSecrets (admission policy) (SubscriptionConfigSecret, OLMT-035)",
    ]);
  });
});

describe('case 6a: created Namespaces get pod security by default', () => {
  const ns = (props: Partial<ScopedOperatorTenantProps>) => {
    const { chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', ...props });
    return Testing.synth(chart).find((o) => o.kind === 'Namespace');
  };

  test('GIVEN no pod-security props THEN enforce baseline, warn and audit restricted', () => {
    expect(ns({})).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team-a',
        labels: {
          'pod-security.kubernetes.io/audit': 'restricted',
          'pod-security.kubernetes.io/enforce': 'baseline',
          'pod-security.kubernetes.io/warn': 'restricted',
        },
      },
    });
  });

  test('GIVEN podSecurity, podSecurityWarn and podSecurityAudit THEN they replace the defaults', () => {
    const levels = {
      podSecurity: PodSecurityLevel.RESTRICTED, podSecurityWarn: PodSecurityLevel.BASELINE, podSecurityAudit: PodSecurityLevel.PRIVILEGED,
    };
    expect(ns(levels).metadata.labels).toEqual({
      'pod-security.kubernetes.io/audit': 'privileged',
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/warn': 'baseline',
    });
  });

  test('GIVEN the labels in namespaceLabels THEN they are kept (the props win over them)', () => {
    const labels = { 'pod-security.kubernetes.io/enforce': 'privileged', 'pod-security.kubernetes.io/warn': 'baseline' };
    expect(ns({ namespaceLabels: labels, podSecurityWarn: PodSecurityLevel.RESTRICTED }).metadata.labels).toEqual({
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
  });

  test('GIVEN podSecurityWarn/Audit on an adopted namespace THEN one error each (they would be dropped)', () => {
    const { app, chart } = newChart();
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a', createNamespace: false, podSecurityWarn: PodSecurityLevel.RESTRICTED, podSecurityAudit: PodSecurityLevel.BASELINE,
    });
    const err = (field: string, value: string) =>
      `[platform/T] ${field}="${value}": ${field} is set but createNamespace is false, so no Namespace object of this tenant carries it. Fix: set createNamespace: true, or set it on namespace 'team-a' where that namespace is managed (NamespaceMetadataOnAdoptedNamespace)`;
    expect(errorsOf(app)).toEqual([err('podSecurityWarn', 'restricted'), err('podSecurityAudit', 'baseline')]);
  });
});

describe('runtime input checks of the new props (JavaScript callers)', () => {
  test('wrong types are synth errors naming the field, not thrown', () => {
    const { app, chart } = newChart();
    const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', podSecurityWarn: 'loose', systemNamespacesReason: 42 } as any);
    t.subscribe({ packageName: 'etcd', catalog: CATALOG, allowedConfig: ['everything'], allowedConfigSecrets: 'team-a' } as any);
    const codes = errorsOf(app).map((e) => e.replace(/^(\[[^\]]+\] [^=:]+)[=:].*\((\w+)(, OLMT-\d+)?\)$/, '$1 $2'));
    expect(codes).toEqual([
      '[platform/T] podSecurityWarn InvalidEnumValue',
      '[platform/T] systemNamespacesReason InvalidInputType',
      '[platform/T/Subscription-etcd] allowedConfig[0] InvalidEnumValue',
      '[platform/T/Subscription-etcd] allowedConfigSecrets InvalidInputType',
    ]);
  });
});
