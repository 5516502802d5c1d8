/**
 * Issue 40 items 5 and 7: OpenShift's own OLM. OLM installs nothing in a namespace with two OperatorGroups
 * (TooManyOperatorGroups), and the platform's OLM already keeps one in OpenShift's `openshift-operators`
 * (openshift/operator-framework-olm manifests/0000_50_olm_13-operatorgroup-default.yaml) and upstream OLM's `operators`
 * (deploy/upstream/quickstart/olm.yaml). A global install goes into that group (useExistingOperatorGroup) or a namespace
 * of its own; the curated-only admission policy never matches those namespaces (their Subscriptions are the platform's),
 * and refuses, in every other namespace it matches, a Subscription to a package the platform installs for all namespaces.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import {
  ClusterTargets, CuratedCatalog, CuratedCatalogAdmissionPolicy, GlobalOperatorInstall, OperatorBundle, ScopedOperatorTenant, TargetNamespaces,
  TenancyApp,
} from '../../src';
import { admit as admitPolicy } from '../util/cel-admission';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const GRAFANA = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0'));
const REASON = 'cluster-wide operators, installed by the platform team (PLAT-142)';

function tenancyApp(targets?: ClusterTargets): TenancyApp {
  return new TenancyApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'og-')), quiet: true, ...(targets ? { targets } : {}) });
}

/** The App's validation errors, `[path] message`. */
function errors(app: App): string[] {
  return app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

const onOpenShift: ClusterTargets = { openshiftVersion: '4.21' };
const upstream: ClusterTargets = { olmVersion: '0.46.0' };

describe('a GlobalOperatorInstall never writes a second OperatorGroup where the platform keeps one (NamespaceHasOperatorGroup)', () => {
  test("OpenShift's openshift-operators: one error naming the group, its source and the fix", () => {
    const app = tenancyApp(onOpenShift);
    new GlobalOperatorInstall(new Chart(app, 'platform'), 'Global', { reason: REASON, namespaceName: 'openshift-operators' });
    expect(errors(app)).toEqual([
      "[platform/Global] namespaceName=\"openshift-operators\": OpenShift already keeps the OperatorGroup 'global-operators' in namespace openshift-operators "
      + '(openshift/operator-framework-olm manifests/0000_50_olm_13-operatorgroup-default.yaml): a second one makes OLM refuse every install there '
      + "(TooManyOperatorGroups), the ones already in the namespace included. Fix: install into the platform's group instead: useExistingOperatorGroup: true "
      + "(the Subscriptions only), or give the install a namespace of its own (namespaceName, default 'platform-operators') (NamespaceHasOperatorGroup)",
    ]);
  });

  test("per declared platform: upstream OLM's operators and olm; with no platform declared, the namespaces of both are kept free", () => {
    const codes = (targets: ClusterTargets | undefined, namespaceName: string) => {
      const app = tenancyApp(targets);
      new GlobalOperatorInstall(new Chart(app, 'platform'), 'Global', { reason: REASON, namespaceName });
      return errors(app).map((e) => /\((\w+)\)$/.exec(e)![1]);
    };
    expect(codes(upstream, 'operators')).toEqual(['NamespaceHasOperatorGroup']);
    expect(codes(upstream, 'openshift-operators')).toEqual([]);
    expect(codes(onOpenShift, 'operators')).toEqual([]);
    expect(codes(undefined, 'operators')).toEqual(['NamespaceHasOperatorGroup']);
    expect(codes(undefined, 'openshift-operators')).toEqual(['NamespaceHasOperatorGroup']);
    expect(codes(undefined, 'platform-operators')).toEqual([]);
    // OLM's own namespace: its group targets only itself, it is no global install
    const app = tenancyApp(upstream);
    new GlobalOperatorInstall(new Chart(app, 'platform'), 'Global', { reason: REASON, namespaceName: 'olm' });
    expect(errors(app)[0]).toMatch(/Fix: give the install a namespace of its own \(namespaceName, default 'platform-operators'\): 'olm-operators' targets only olm, it is no global install \(NamespaceHasOperatorGroup\)$/);
  });

  test("useExistingOperatorGroup: only the Subscriptions, into OpenShift's global-operators group", () => {
    const app = tenancyApp(onOpenShift);
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/c:1', packages: [{ name: 'grafana-operator', channels: [{ name: 'v5' }] }] });
    const g = new GlobalOperatorInstall(chart, 'Global', { reason: REASON, namespaceName: 'openshift-operators', useExistingOperatorGroup: true });
    g.install({ packageName: 'grafana-operator', channel: 'v5', catalog, bundle: GRAFANA });
    expect(errors(app)).toEqual([]);
    expect(g.operatorGroup).toBeUndefined();
    expect(g.namespace).toBeUndefined();
    expect(g.operatorGroupName).toEqual('global-operators');
    expect(app.synthObjects().flatMap((c) => c.objects).map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'CatalogSource openshift-operators/curated-operators',
      'Subscription openshift-operators/grafana-operator',
    ]);
  });

  test('useExistingOperatorGroup where the platform keeps no AllNamespaces group is an error (NoExistingOperatorGroup)', () => {
    const app = tenancyApp(onOpenShift);
    new GlobalOperatorInstall(new Chart(app, 'platform'), 'Global', { reason: REASON, useExistingOperatorGroup: true });
    expect(errors(app)).toEqual([
      '[platform/Global] useExistingOperatorGroup="platform-operators": the platform declared in TenancyAppProps.targets keeps no AllNamespaces OperatorGroup '
      + 'in namespace platform-operators, so no OperatorGroup would select the Subscriptions and OLM would install nothing. Fix: use the platform\'s global '
      + 'namespace (openshift-operators on OpenShift, operators with upstream OLM; declare the platform in TenancyAppProps.targets), or drop '
      + 'useExistingOperatorGroup (the install then writes its own OperatorGroup) (NoExistingOperatorGroup)',
    ]);
  });
});

/** The example's shape: a curated catalog, the admission policy, a tenant, and grafana-operator installed for all namespaces. */
function platform(app: App, global: { namespaceName?: string; useExistingOperatorGroup?: boolean } = {}) {
  const chart = new Chart(app, 'platform');
  const catalog = new CuratedCatalog(chart, 'Curated', {
    catalogName: 'curated-operators',
    image: 'registry.example.com/c:1',
    packages: [{ name: 'grafana-operator', channels: [{ name: 'v5' }] }, { name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }],
  });
  new CuratedCatalogAdmissionPolicy(chart, 'CuratedOnly', { catalog });
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
  tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog });
  const g = new GlobalOperatorInstall(chart, 'Global', { reason: REASON, ...global });
  g.install({ packageName: 'grafana-operator', channel: 'v5', catalog, bundle: GRAFANA });
  return { chart, catalog };
}

const policySpec = (objects: any[]) => objects.find((o) => o.kind === 'ValidatingAdmissionPolicy').spec;
const request = (operation: string) => ({
  kind: { group: 'operators.coreos.com', version: 'v1alpha1', kind: 'Subscription' },
  resource: { group: 'operators.coreos.com', version: 'v1alpha1', resource: 'subscriptions' },
  operation,
  userInfo: { username: 'alice' },
});
/** `admit` with the request made in the object's namespace, for its name (as the API server's requests are). */
const admit = (spec: any, r: any, object: any, oldObject: any = null) =>
  admitPolicy(spec, { ...r, namespace: object.metadata.namespace, name: object.metadata.name }, object, oldObject);
const subscription = (namespace: string, name: string, channel: string) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name, namespace },
  spec: { name, channel, source: 'curated-operators', sourceNamespace: namespace },
});

describe('the curated-only admission policy and the packages the platform installs for all namespaces (item 7, evaluated with @bufbuild/cel)', () => {
  const app = Testing.app();
  platform(app);
  const spec = policySpec(Testing.synth(app.node.findChild('platform') as Chart));

  test('the policy knows the global packages and their install namespace', () => {
    expect(spec.variables).toEqual([
      { name: 'packages', expression: "{'etcd': ['singlenamespace-alpha'], 'grafana-operator': ['v5']}" },
      { name: 'globalPackages', expression: "{'grafana-operator': ['platform-operators']}" },
    ]);
  });

  test.each([
    ['a tenant Subscription to the globally installed package is refused', subscription('team-a', 'grafana-operator', 'v5'),
      ['package grafana-operator is installed for all namespaces by the platform (namespace platform-operators): a Subscription here would install a second copy; use the APIs of the installed one']],
    ['the install namespace keeps its own Subscription', subscription('platform-operators', 'grafana-operator', 'v5'), []],
    ['another curated package in the tenant namespace', subscription('team-a', 'etcd', 'singlenamespace-alpha'), []],
  ])('%s', (_name, object, denied) => {
    expect(admit(spec, request('CREATE'), object)).toEqual({ matched: true, denied });
    expect(admit(spec, request('UPDATE'), object, { ...object, spec: { ...object.spec, channel: 'old' } })).toEqual({ matched: true, denied });
  });

  test('a tenant installing for all namespaces is a global install too', () => {
    const a = Testing.app();
    const chart = new Chart(a, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/c:1', packages: [{ name: 'etcd' }, { name: 'grafana-operator' }] });
    new CuratedCatalogAdmissionPolicy(chart, 'CuratedOnly', { catalog });
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' }).subscribe({ packageName: 'etcd', catalog });
    new ScopedOperatorTenant(chart, 'G', { namespaceName: 'team-g', targetNamespaces: TargetNamespaces.allNamespaces('the Grafana team serves every team (PLAT-9)') })
      .subscribe({ packageName: 'grafana-operator', catalog });
    // (the policy's object alone: the AllNamespaces tenant has findings of its own that fail a synth)
    const policy = chart.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === 'ValidatingAdmissionPolicy')!;
    expect(policy.toJson().spec.variables[1]).toEqual({ name: 'globalPackages', expression: "{'grafana-operator': ['team-g']}" });
  });

  test("with the platform's own group (useExistingOperatorGroup) the policy never matches openshift-operators, and still refuses the package elsewhere", () => {
    const a = tenancyApp(onOpenShift);
    platform(a, { namespaceName: 'openshift-operators', useExistingOperatorGroup: true });
    const s = policySpec(a.synthObjects().flatMap((c) => c.objects));
    expect(s.matchConstraints.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] });
    expect(s.variables[1]).toEqual({ name: 'globalPackages', expression: "{'grafana-operator': ['openshift-operators']}" });
    expect(admit(s, request('CREATE'), subscription('team-a', 'grafana-operator', 'v5')).denied).toHaveLength(1);
  });
});
