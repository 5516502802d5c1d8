import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import {
  CatalogSourceReference, CuratedCatalog, DeriveScope, Diagnostics, InstallerPermissions, InstallPlanApproval, OperatorBundle, PreflightEnforcement,
  RbacRules, ScopedOperatorTenant, UpgradeGraph,
} from '../../src';
import { appAndChart, validationErrors } from '../util/synth';

const HISTORY = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const history = (pkg: string, versions: string[]) => versions.map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, pkg, v)));
const ETCD = history('etcd', ['0.9.0', '0.9.2', '0.9.4']);
const PROMETHEUS = history('prometheus', ['0.14.0', '0.15.0', '0.22.2', '0.27.0', '0.32.0', '0.37.0', '0.47.0', '0.56.3']);
const CATALOG = CatalogSourceReference.fromName('curated', 'olm');


describe('ScopedOperatorTenant upgrades (subscribe({ upgradeGraph, versionRange }))', () => {
  const prometheusFrom047 = (tenant: ScopedOperatorTenant, preflight?: PreflightEnforcement) => tenant.subscribe({
    packageName: 'prometheus',
    channel: 'beta',
    catalog: CATALOG,
    installPlanApproval: InstallPlanApproval.MANUAL,
    startingCsv: 'prometheusoperator.0.47.0',
    upgradeGraph: UpgradeGraph.fromBundles(PROMETHEUS, 'beta'),
    versionRange: '>=0.47.0',
    preflight,
  });

  test('GIVEN deriveScope PINNED_VERSION THEN the allowed upgrade 0.47.0 -> 0.56.3 is a synth error naming the edge and the missing rule', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true, deriveScope: DeriveScope.PINNED_VERSION });
    const sub = prometheusFrom047(tenant);
    expect(sub.info.bundleName).toBe('prometheusoperator.0.47.0');
    expect(sub.info.allowedUpgrades).toEqual(['prometheusoperator.0.47.0 -> prometheusoperator.0.56.3']);
    expect(tenant.installerRules).toEqual(InstallerPermissions.leastPrivilege({ bundles: [PROMETHEUS[6]], namespace: 'team-m', targetNamespaces: ['team-m'] }).namespacedRules);
    expect(validationErrors(chart)).toEqual([
      '[platform/Mon] subscriptions[prometheus].upgradeGraph="prometheusoperator.0.47.0 -> prometheusoperator.0.56.3": the catalog allows upgrading '
      + 'prometheusoperator.0.47.0 -> prometheusoperator.0.56.3 (within >=0.47.0), but OLM would fail to install prometheusoperator.0.56.3: the installer '
      + 'ServiceAccount team-m/team-m lacks 1 rule(s): Namespace:"team-m" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*]. '
      + 'Fix: widen the installer in code before approving (deriveScope: DeriveScope.ALLOWED_UPGRADES, or addInstallerRule), or exclude '
      + 'prometheusoperator.0.56.3 with versionRange (UpgradeWouldFail)',
    ]);
    expect(() => app.synth()).toThrow(/UpgradeWouldFail/);
    expect(tenant.installerRole.apiObject.toJson().metadata).toEqual({
      name: 'team-m', namespace: 'team-m', annotations: { [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'PinnedVersion' },
    });
  });

  test('GIVEN deriveScope ALLOWED_UPGRADES (the default) THEN the Role is the union over the allowed range and every upgrade passes', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true });
    prometheusFrom047(tenant);
    expect(tenant.installerRules).toEqual(InstallerPermissions.leastPrivilege({ bundles: PROMETHEUS.slice(6), namespace: 'team-m', targetNamespaces: ['team-m'] }).namespacedRules);
    expect(validationErrors(chart)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
    const role = Testing.synth(chart).find((o) => o.kind === 'Role' && o.metadata.name === 'team-m');
    expect(role.metadata).toEqual({ name: 'team-m', namespace: 'team-m', annotations: { [ScopedOperatorTenant.DERIVE_SCOPE_ANNOTATION]: 'AllowedUpgrades' } });
    const upgrades = tenant.upgrades()
      .map((u) => ({ from: u.from, ok: u.ok, edges: u.edges.map((e) => [e.edge.to, e.preflight?.ok, e.diff?.namespacedRulesAdded]) }));
    expect(upgrades).toEqual([{
      from: 'prometheusoperator.0.47.0',
      ok: true,
      edges: [['prometheusoperator.0.56.3', true, [{ apiGroups: ['monitoring.coreos.com'], resources: ['prometheuses/status'], verbs: ['*'] }]]],
    }]);
  });

  test('GIVEN derive scope PINNED_VERSION vs ALLOWED_UPGRADES THEN the union adds exactly the rules of the upgrade', () => {
    const rules = (deriveScope: DeriveScope) => {
      const { chart } = appAndChart();
      const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true, deriveScope });
      prometheusFrom047(tenant);
      return tenant.installerRules;
    };
    const pinned = rules(DeriveScope.PINNED_VERSION);
    const union = rules(DeriveScope.ALLOWED_UPGRADES);
    expect(RbacRules.compact(RbacRules.covers(pinned, union).missing)).toEqual([
      { apiGroups: ['monitoring.coreos.com'], resources: ['prometheuses/status'], verbs: ['*'] },
    ]);
    expect(RbacRules.covers(union, pinned).covered).toBe(true);
  });

  test('GIVEN a CuratedCatalog whose range stops before 0.56.3 THEN that upgrade is not offered, so nothing fails', () => {
    const { app, chart } = appAndChart();
    const curated = new CuratedCatalog(chart, 'Curated', {
      image: 'registry.example.com/curated:v1',
      packages: [{ name: 'prometheus', channels: [{ name: 'beta', versionRange: '<0.56.0' }], versionRange: '>=0.47.0' }],
    });
    const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true, deriveScope: DeriveScope.PINNED_VERSION });
    const sub = tenant.subscribe({
      packageName: 'prometheus',
      channel: 'beta',
      catalog: curated,
      installPlanApproval: InstallPlanApproval.MANUAL,
      upgradeGraph: UpgradeGraph.fromBundles(PROMETHEUS, 'beta'),
    });
    expect(sub.curatedVersionRanges).toEqual(['>=0.47.0', '<0.56.0']);
    // the channel head within the curated range is what OLM installs first
    expect({ pinned: sub.pinnedCsv, bundle: sub.info.bundleName, upgrades: sub.info.allowedUpgrades }).toEqual({
      pinned: 'prometheusoperator.0.47.0', bundle: 'prometheusoperator.0.47.0', upgrades: [],
    });
    expect(tenant.upgrades()).toEqual([]);
    expect(validationErrors(chart)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });

  test('GIVEN upgradeBundles (no graph) THEN they keep working: derived with ALLOWED_UPGRADES, reported per version with PINNED_VERSION', () => {
    const build = (deriveScope: DeriveScope) => {
      const { chart } = appAndChart();
      const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true, deriveScope });
      tenant.subscribe({ packageName: 'prometheus', channel: 'beta', catalog: CATALOG, bundle: PROMETHEUS[6], upgradeBundles: [PROMETHEUS[7]] });
      return validationErrors(chart);
    };
    expect(build(DeriveScope.ALLOWED_UPGRADES)).toEqual([]);
    expect(build(DeriveScope.PINNED_VERSION).map((e) => e.replace(/: OLM would fail.* lacks (.*?) \(needed for.*\((\w+)\)$/, ' $1 ($2)'))).toEqual([
      '[platform/Mon] subscriptions[prometheus].upgradeBundles[0]="prometheusoperator.0.56.3" '
      + '1 rule(s): Namespace:"team-m" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*] (MissingInstallerPermission)',
    ]);
  });

  test('GIVEN preflight: WARNING THEN a failing upgrade is a warning and the synth goes on', () => {
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'Mon', { namespaceName: 'team-m', deriveInstallerRules: true, deriveScope: DeriveScope.PINNED_VERSION });
    prometheusFrom047(tenant, PreflightEnforcement.WARNING);
    tenant.grantSubscriptionManagement(Group.fromName(chart, 'Admins', 'team-m-admins'));
    expect(validationErrors(chart)).toEqual([]);
    expect(Diagnostics.warnings(app).filter((w) => w.code === 'UpgradeWouldFail').map((w) => w.value)).toEqual([
      'prometheusoperator.0.47.0 -> prometheusoperator.0.56.3',
    ]);
  });

  test('GIVEN etcd pinned at 0.9.2 and the OKD docs default Role THEN one error: the install\'s, naming etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 that lacks only the same rules (issue 30 item 6)', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: CATALOG,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.2',
      upgradeGraph: UpgradeGraph.fromBundles(ETCD, 'singlenamespace-alpha'),
    });
    // the upgrade lacks the 4 rules the install lacks: no UpgradeWouldFail of its own (its fix is the install's)
    expect(validationErrors(chart).filter((e) => e.endsWith('(UpgradeWouldFail)'))).toEqual([]);
    // the pinned version itself is checked by the install preflight as before
    // (one finding for the Subscription, listing the 4 missing rules once each, and the upgrade it covers)
    expect(validationErrors(chart)).toEqual([
      '[platform/TeamA] subscriptions[etcd].bundle="etcdoperator.v0.9.2": OLM would fail to install etcdoperator.v0.9.2: the installer ServiceAccount team-a/team-a lacks 4 rule(s): '
      + 'Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]; '
      + 'Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]; '
      + 'Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]; '
      + 'Namespace:"team-a" APIGroups:[etcd.database.coreos.com] Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*] '
      + '(needed for InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): RBAC escalation check on the binding; '
      + "InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): RBAC escalation check, the installer must hold the operator's rules); "
      + 'the allowed upgrade(s) etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 lack only the same rule(s), so this fix covers them too. '
      + 'Fix: set deriveInstallerRules: true to derive exactly these rules from the bundle, or grant them with addInstallerRule (MissingInstallerPermission)',
    ]);
  });

  test('GIVEN a file-based catalog package with a skipRange THEN the graph comes from its olm.channel and every allowed edge is derived', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrades-'));
    const file = path.join(dir, 'catalog.json');
    const obj = (o: any) => ({ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(o)).toString('base64') } });
    const blobs = [
      { schema: 'olm.package', name: 'etcd', defaultChannel: 'singlenamespace-alpha' },
      {
        schema: 'olm.channel',
        package: 'etcd',
        name: 'singlenamespace-alpha',
        entries: [
          { name: 'etcdoperator.v0.9.0' },
          { name: 'etcdoperator.v0.9.2', replaces: 'etcdoperator.v0.9.0' },
          { name: 'etcdoperator.v0.9.4', replaces: 'etcdoperator.v0.9.2', skipRange: '>=0.9.0 <0.9.4' },
        ],
      },
      ...ETCD.map((b) => ({
        schema: 'olm.bundle',
        package: 'etcd',
        name: b.name,
        image: `quay.io/example/etcd-bundle:v${b.version}`,
        properties: [{ type: 'olm.package', value: { packageName: 'etcd', version: b.version } }, obj(b.csv), ...b.crds.map((c) => obj(c.raw))],
      })),
    ];
    fs.writeFileSync(file, blobs.map((b) => JSON.stringify(b)).join('\n'));
    const graph = UpgradeGraph.fromCatalogPackage(file, 'etcd');
    fs.rmSync(dir, { recursive: true });

    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    const sub = tenant.subscribe({
      packageName: 'etcd', catalog: CATALOG, installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: 'etcdoperator.v0.9.0', upgradeGraph: graph,
    });
    expect(sub.info.allowedUpgrades).toEqual([
      'etcdoperator.v0.9.0 -> etcdoperator.v0.9.4', // the skipRange jump, preferred by OLM
      'etcdoperator.v0.9.0 -> etcdoperator.v0.9.2',
      'etcdoperator.v0.9.2 -> etcdoperator.v0.9.4',
    ]);
    expect(tenant.installerRules).toEqual(InstallerPermissions.leastPrivilege({ bundles: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'] }).namespacedRules);
    expect(validationErrors(chart)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });

  test('GIVEN bad upgrade input THEN each problem names field, value and fix', () => {
    const { chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveScope: DeriveScope.PINNED_VERSION });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, versionRange: '>=0.9.0' });
    tenant.subscribe({
      packageName: 'prometheus',
      channel: 'stable',
      catalog: CATALOG,
      startingCsv: 'prometheusoperator.0.99.0',
      upgradeGraph: UpgradeGraph.fromBundles(PROMETHEUS, 'beta'),
      versionRange: 'latest please',
    });
    expect(validationErrors(chart).filter((e) => !e.includes('(MissingInstallerPermission)'))).toEqual([
      '[platform/TeamA] deriveScope="PinnedVersion": a derive scope is given, but deriveInstallerRules is off, so nothing is derived. Fix: set deriveInstallerRules: true, or drop deriveScope (DeriveScopeWithoutDerive)',
      '[platform/TeamA/Subscription-etcd] versionRange=">=0.9.0": a version range is given but no upgrade graph, so nothing is walked or checked within it. '
      + 'Fix: pass upgradeGraph (UpgradeGraph.fromCatalogPackage(file, package, channel)), or drop versionRange (VersionRangeWithoutUpgradeGraph)',
      '[platform/TeamA/Subscription-prometheus] versionRange="latest please": versionRange "latest please" is not a valid node-semver range. '
      + "Fix: write a node-semver range, e.g. '>=0.9.2 <0.10.0' (InvalidVersionRange)",
      // issue 16: the graph came from fromBundles, so the fix never says fromCatalogPackage; 'stable' is no channel of the bundles
      "[platform/TeamA/Subscription-prometheus] upgradeGraph=\"beta\": the upgrade graph is of channel 'beta', but the Subscription follows 'stable', "
      + "which the graph's source does not have (its channels: 'beta'). Fix: set the Subscription's channel to 'beta' (UpgradeGraphChannelMismatch)",
      "[platform/TeamA/Subscription-prometheus] startingCsv=\"prometheusoperator.0.99.0\": 'prometheusoperator.0.99.0' is not in channel 'beta' of the upgrade graph, "
      + 'whose CSVs are prometheusoperator.0.56.3, prometheusoperator.0.47.0, prometheusoperator.0.37.0, prometheusoperator.0.32.0, prometheusoperator.0.27.0, '
      + 'prometheusoperator.0.22.2, prometheusoperator.0.15.0, prometheusoperator.0.14.0, so nothing can be installed or upgraded from it. '
      + "Fix: pin one of them, or add the bundle of 'prometheusoperator.0.99.0' to `UpgradeGraph.fromBundles(bundles, channel)` (PinnedCsvNotInUpgradeGraph)",
    ]);
  });
});
