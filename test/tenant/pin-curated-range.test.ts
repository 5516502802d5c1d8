/**
 * Issue 30 item 5: a pin outside the curated catalog's version range is an error whenever its version is known (the
 * bundle's, or the upgrade graph's), not only when the catalog has a `sourceCatalog`. The catalog built from the
 * curated list (FbcFilter, oc-mirror's Masterminds/semver ranges) does not contain that version, so on a cluster the
 * Subscription never resolves. The error stands alone: no DeriveWithoutBundle or upgrade finding "from" the pin.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  AccessLevel, CuratedCatalog, CuratedPackage, FileBasedCatalog, InstallPlanApproval, OperatorBundle, ScopedOperatorTenant, TenantBlueprint,
  UpgradeGraph,
} from '../../src';
import { synthErrorLines } from '../util/synth';

const HISTORY = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const etcd = (...versions: string[]) => versions.map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, 'etcd', v)));
const COMMUNITY = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod');

/** The walkthrough's blueprint (derived installer rules, pinned approver) with the curated package `pkg`. */
function blueprintErrors(pkg: CuratedPackage, pin: string): string[] {
  const app = Testing.app();
  const platform = new Chart(app, 'platform');
  const catalog = new CuratedCatalog(platform, 'Curated', { catalogName: 'curated-operators', image: 'registry.example.com/platform/curated-operators:v1', packages: [pkg] });
  const standard = new TenantBlueprint({
    name: 'standard',
    catalog,
    operators: [{ packageName: 'etcd', channel: 'singlenamespace-alpha', startingCsv: pin, upgradeGraph: UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'singlenamespace-alpha') }],
    grants: [{ groupName: '{team}-admins', access: AccessLevel.ADMIN, subscriptionManagement: true }],
    pinnedApprover: { image: 'registry.access.redhat.com/ubi9/nodejs-24-minimal:1' },
    baseline: {},
  });
  for (const team of ['payments', 'search']) catalog.serve(standard.stamp(new Chart(app, team), team));
  return synthErrorLines(app);
}

const outside = (team: string, range: string, inRange: string) => `[${team}/${team}/Subscription-etcd] startingCsv="etcdoperator.v0.9.2": 'etcdoperator.v0.9.2' (version 0.9.2) `
  + `is outside the version range ${range} of package 'etcd' in curated catalog 'curated-operators', so the catalog built from the curated list does not contain it and `
  + `the Subscription would never resolve. Fix: pin a version within the range (the upgrade graph has ${inRange}), or widen the package's versionRange in the curated list (PinnedCsvOutsideCuratedRange)`;

describe('a pin outside the curated version range (no sourceCatalog)', () => {
  test("versionRange '>=0.9.4 <0.10.0', startingCsv 'etcdoperator.v0.9.2' known from the upgrade graph: one error per team", () => {
    expect(blueprintErrors({ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.4 <0.10.0' }, 'etcdoperator.v0.9.2')).toEqual([
      outside('payments', '>=0.9.4 <0.10.0', 'etcdoperator.v0.9.4'),
      outside('search', '>=0.9.4 <0.10.0', 'etcdoperator.v0.9.4'),
    ]);
  });

  test("the channel's range counts too (both ranges are named)", () => {
    expect(blueprintErrors({ name: 'etcd', channels: [{ name: 'singlenamespace-alpha', versionRange: '>0.9.2' }], versionRange: '<0.10.0' }, 'etcdoperator.v0.9.2')).toEqual([
      outside('payments', '<0.10.0 and >0.9.2', 'etcdoperator.v0.9.4'),
      outside('search', '<0.10.0 and >0.9.2', 'etcdoperator.v0.9.4'),
    ]);
  });

  test('a pin within the range synthesizes', () => {
    expect(blueprintErrors({ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.2 <0.10.0' }, 'etcdoperator.v0.9.2')).toEqual([]);
    expect(blueprintErrors({ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.4 <0.10.0' }, 'etcdoperator.v0.9.4')).toEqual([]);
  });

  function directErrors(o: { bundle?: OperatorBundle; startingCsv?: string; range: string }): string[] {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', {
      image: 'registry.example.com/platform/curated-operators:v1',
      packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: o.range }],
    });
    const team = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    team.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog, installPlanApproval: InstallPlanApproval.MANUAL, startingCsv: o.startingCsv, bundle: o.bundle });
    return synthErrorLines(app);
  }

  test('the version known from the bundle alone (no upgrade graph): startingCsv, or the bundle OLM would install', () => {
    expect(directErrors({ bundle: etcd('0.9.2')[0], startingCsv: 'etcdoperator.v0.9.2', range: '>=0.9.4' })).toEqual([
      "[platform/TeamA/Subscription-etcd] startingCsv=\"etcdoperator.v0.9.2\": 'etcdoperator.v0.9.2' (version 0.9.2) is outside the version range >=0.9.4 of package 'etcd' "
      + "in curated catalog 'curated-operators', so the catalog built from the curated list does not contain it and the Subscription would never resolve. "
      + "Fix: pin a version within the range, or widen the package's versionRange in the curated list (PinnedCsvOutsideCuratedRange)",
    ]);
    expect(directErrors({ bundle: etcd('0.9.2')[0], range: '>=0.9.4' })).toEqual([
      "[platform/TeamA/Subscription-etcd] bundle=\"etcdoperator.v0.9.2\": 'etcdoperator.v0.9.2' (version 0.9.2) is outside the version range >=0.9.4 of package 'etcd' "
      + "in curated catalog 'curated-operators', so the catalog built from the curated list does not contain it and the Subscription would never resolve. "
      + "Fix: pin a version within the range, or widen the package's versionRange in the curated list (PinnedCsvOutsideCuratedRange)",
    ]);
    // a pre-release is outside a range that names none (Masterminds/semver, as oc-mirror filters)
    expect(directErrors({ bundle: etcd('0.9.4-clusterwide')[0], range: '>=0.9.2 <0.10.0' }).filter((l) => l.endsWith('(PinnedCsvOutsideCuratedRange)'))).toEqual([
      "[platform/TeamA/Subscription-etcd] bundle=\"etcdoperator.v0.9.4-clusterwide\": 'etcdoperator.v0.9.4-clusterwide' (version 0.9.4-clusterwide) is outside the version range "
      + ">=0.9.2 <0.10.0 of package 'etcd' in curated catalog 'curated-operators', so the catalog built from the curated list does not contain it and the Subscription would "
      + "never resolve. Fix: pin a version within the range, or widen the package's versionRange in the curated list (PinnedCsvOutsideCuratedRange)",
    ]);
    expect(directErrors({ bundle: etcd('0.9.4')[0], range: '>=0.9.4' })).toEqual([]);
  });

  test('a version nobody knows (startingCsv without bundle or graph) is not guessed from the CSV name', () => {
    expect(directErrors({ startingCsv: 'etcdoperator.v0.9.2', range: '>=0.9.4' }).filter((l) => l.includes('PinnedCsvOutsideCuratedRange'))).toEqual([]);
  });

  test('with a sourceCatalog the catalog says it once (CatalogRejectsSubscription), not twice', () => {
    const A = 'apicurio-registry-3';
    const source = FileBasedCatalog.fromPath(COMMUNITY);
    const graph = UpgradeGraph.fromCatalog(source, A, '3.x'); // entries with versions, no bundles
    expect(graph.versionOf(`${A}.v3.2.5`)).toEqual('3.2.5');
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', {
      image: 'reg/c:1',
      catalogName: 'fbc',
      sourceCatalog: source,
      packages: [{ name: A, channels: [{ name: '3.x' }], versionRange: '>=3.3.0' }],
    });
    const team = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    team.subscribe({
      packageName: A,
      channel: '3.x',
      catalog,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: `${A}.v3.2.5`,
      upgradeGraph: graph,
    });
    // (the graph of catalog entries has no bundles: PinnedBundleMissing is a separate mistake, with its own fix)
    expect(synthErrorLines(app)).toEqual([
      `[platform/TeamA/Subscription-${A}] upgradeGraph="${A}.v3.2.5": the upgrade graph has no bundle for the pinned CSV '${A}.v3.2.5', so its install cannot be checked. `
      + 'Fix: load the graph with its bundles (UpgradeGraph.fromCatalogPackage or UpgradeGraph.fromBundles), or pass `bundle` (PinnedBundleMissing)',
      `[platform/TeamA/Subscription-${A}] catalog="team-a/fbc": tenant namespace "team-a": startingCSV "${A}.v3.2.5" is not in channel "3.x" of package "${A}" in curated catalog "fbc"; `
      + `allowed: "${A}.v3.3.0", "${A}.v3.3.1". Fix: subscribe to what the catalog offers, or add it to the catalog (CatalogRejectsSubscription, OLMT-021)`,
    ]);
  });
});
