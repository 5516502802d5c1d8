/**
 * Issue 16 item 4: one mistake, one error. A pin that is not in the upgrade graph used to add, per team,
 * DeriveWithoutBundle ("pass the bundle ... to subscribe()", to blueprint users who never call it) and, for a pin
 * that a graph CSV replaces, UpgradeWouldFail findings "from" it next to the error that says it is not in the
 * channel. Each case below is the README walkthrough's blueprint with the etcd bundles of test/fixtures.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { AccessLevel, CuratedCatalog, OperatorBundle, TenantBlueprint, UpgradeGraph } from '../../src';
import { synthErrorLines } from '../util/synth';

const HISTORY = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const etcd = (...versions: string[]) => versions.map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, 'etcd', v)));

/** The walkthrough's platform (two teams stamped from one blueprint), with the operator's channel, pin and graph. */
function platformErrors(o: { channel: string; pin: string; graph: UpgradeGraph; catalogChannels?: string[] }): string[] {
  const app = Testing.app();
  const platform = new Chart(app, 'platform');
  const catalog = new CuratedCatalog(platform, 'Curated', {
    catalogName: 'curated-operators',
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: (o.catalogChannels ?? ['singlenamespace-alpha']).map((name) => ({ name })), versionRange: '>=0.9.2 <0.10.0' }],
  });
  const standard = new TenantBlueprint({
    name: 'standard',
    catalog,
    operators: [{ packageName: 'etcd', channel: o.channel, startingCsv: o.pin, upgradeGraph: o.graph }],
    grants: [{ groupName: '{team}-admins', access: AccessLevel.ADMIN, subscriptionManagement: true }],
    pinnedApprover: { image: 'registry.access.redhat.com/ubi9/nodejs-24-minimal:1' },
    baseline: {},
  });
  for (const team of ['payments', 'search']) catalog.serve(standard.stamp(new Chart(app, team), team));
  return synthErrorLines(app);
}

const notInChannel = (team: string, pin: string) => `[${team}/${team}/Subscription-etcd] startingCsv="${pin}": '${pin}' is not in channel 'singlenamespace-alpha' of the upgrade graph, `
  + 'whose CSVs are etcdoperator.v0.9.4, etcdoperator.v0.9.2, so nothing can be installed or upgraded from it. '
  + `Fix: pin one of them, or add the bundle of '${pin}' to \`UpgradeGraph.fromBundles(bundles, channel)\` (PinnedCsvNotInUpgradeGraph)`;

describe('one root cause, one error', () => {
  test("a pin that no bundle has ('etcdoperator.v0.9.3'): one error per team, naming the channel's CSVs and fromBundles", () => {
    const graph = UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'singlenamespace-alpha');
    expect(platformErrors({ channel: 'singlenamespace-alpha', pin: 'etcdoperator.v0.9.3', graph })).toEqual([
      notInChannel('payments', 'etcdoperator.v0.9.3'),
      notInChannel('search', 'etcdoperator.v0.9.3'),
    ]);
  });

  test("a pin that a graph CSV replaces ('etcdoperator.v0.9.0'): no upgrade errors 'from' it, no DeriveWithoutBundle", () => {
    const graph = UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'singlenamespace-alpha');
    expect(graph.entries.find((e) => e.name === 'etcdoperator.v0.9.2')!.replaces).toEqual('etcdoperator.v0.9.0');
    expect(platformErrors({ channel: 'singlenamespace-alpha', pin: 'etcdoperator.v0.9.0', graph })).toEqual([
      notInChannel('payments', 'etcdoperator.v0.9.0'),
      notInChannel('search', 'etcdoperator.v0.9.0'),
    ]);
  });

  test("a channel the catalog does not offer ('alpha', graph of 'alpha'): the catalog's error only", () => {
    const graph = UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'alpha');
    expect(platformErrors({ channel: 'alpha', pin: 'etcdoperator.v0.9.2', graph })).toEqual(['payments', 'search'].map((team) =>
      `[${team}/${team}/Subscription-etcd] catalog="team-${team}/curated-operators": tenant namespace "team-${team}": channel "alpha" of package "etcd" is not in curated catalog `
      + '"curated-operators"; allowed channels: "singlenamespace-alpha". Fix: subscribe to what the catalog offers, or add it to the catalog (CatalogRejectsSubscription, OLMT-021)'));
  });

  test('a channel the catalog offers but no bundle has: the channels that exist, and the fromBundles call', () => {
    const graph = UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'alpha');
    expect(platformErrors({ channel: 'alpha', pin: 'etcdoperator.v0.9.2', graph, catalogChannels: ['alpha', 'singlenamespace-alpha'] })).toEqual(['payments', 'search'].map((team) =>
      `[${team}/${team}/Subscription-etcd] channel="alpha": the upgrade graph has no CSV in channel 'alpha'; the channels are 'singlenamespace-alpha'. `
      + "Fix: use one of them as the channel and in `UpgradeGraph.fromBundles(bundles, 'singlenamespace-alpha')` (UpgradeGraphChannelEmpty)"));
  });

  test("the Subscription's channel differs from the graph's: the suggestion names the API used (fromBundles), not fromCatalogPackage", () => {
    const graph = UpgradeGraph.fromBundles(etcd('0.9.2', '0.9.4'), 'singlenamespace-alpha');
    const errors = platformErrors({ channel: 'alpha', pin: 'etcdoperator.v0.9.2', graph, catalogChannels: ['alpha', 'singlenamespace-alpha'] });
    expect(errors).toEqual(['payments', 'search'].map((team) =>
      `[${team}/${team}/Subscription-etcd] upgradeGraph="singlenamespace-alpha": the upgrade graph is of channel 'singlenamespace-alpha', but the Subscription follows 'alpha', `
      + "which the graph's source does not have (its channels: 'singlenamespace-alpha'). Fix: set the Subscription's channel to 'singlenamespace-alpha' (UpgradeGraphChannelMismatch)"));
    expect(errors.join('\n')).not.toContain('fromCatalogPackage');
  });

  test('OperatorBundle.fromDirectory of a missing version names the versions that exist (one line)', () => {
    const dir = path.join(HISTORY, 'etcd', '0.9.3');
    expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
      `OperatorBundle.fromDirectory: '${dir}' does not exist; the bundles under '${path.join(HISTORY, 'etcd')}' are 0.6.1, 0.9.0, 0.9.2, 0.9.2-clusterwide, 0.9.4, 0.9.4-clusterwide; `
      + 'pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)'));
  });
});
