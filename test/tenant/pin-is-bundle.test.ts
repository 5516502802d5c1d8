/**
 * Issue 40 item 1: what OLM installs is what was checked. OLM's resolver takes the catalog entry NAMED by startingCSV
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`: `cache.CSVNamePredicate(sub.Spec.StartingCSV)`,
 * `cache/predicates.go`: `o.Name == string(c)`), and without one the channel head. A bundle of another CSV would be
 * preflighted, derived and approved for a version OLM does not install: one error that names both, with the pin's version
 * against the curated range when the catalog's version of it is known (the bundle's `spec.version`, the upgrade graph's
 * entry, the sourceCatalog's `olm.package`), never read from the name.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  CatalogSourceReference, CuratedCatalog, Diagnostics, FileBasedCatalog, InstallPlanApproval, OperatorBundle, ScopedOperatorTenant,
  SubscriptionOptions, TenancyReport, UpgradeGraph,
} from '../../src';
import { DEMO_CSV } from '../util/demo-csv';
import { synthErrorLines } from '../util/synth';

const HISTORY = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const etcd = (v: string) => OperatorBundle.fromDirectory(path.join(HISTORY, 'etcd', v));
const CHANNEL = 'singlenamespace-alpha';

/** A tenant with derived rules subscribing to etcd from a curated catalog (range `range`), plus `extra`. */
function build(sub: Partial<SubscriptionOptions>, range?: string, approverPins?: string[]) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const catalog = new CuratedCatalog(chart, 'Curated', {
    catalogName: 'curated-operators',
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: CHANNEL }], ...(range !== undefined ? { versionRange: range } : {}) }],
  });
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
  const subscription = tenant.subscribe({ packageName: 'etcd', channel: CHANNEL, catalog, installPlanApproval: InstallPlanApproval.MANUAL, ...sub });
  if (approverPins) {
    const approver = tenant.addPinnedApprover({ image: 'registry.example.com/node@sha256:abc' });
    for (const pin of approverPins) approver.addPinnedCsv(pin);
  }
  return { app, tenant, subscription };
}

const errors = (sub: Partial<SubscriptionOptions>, range?: string, pins?: string[]) => synthErrorLines(build(sub, range, pins).app);

const AT = '[platform/TeamA/Subscription-etcd]';
const WHY = 'so the preflight, the derived installer rules and the pinned approval would describe a version OLM does not install';

describe('startingCsv names another CSV than the bundle given (PinnedCsvNotBundle)', () => {
  test("the issue's case: etcdoperator.v0.9.2 with the 0.9.4 bundle, curated '>=0.9.4', no graph: one error, the range not checkable for the pin", () => {
    expect(errors({ startingCsv: 'etcdoperator.v0.9.2', bundle: etcd('0.9.4') }, '>=0.9.4')).toEqual([
      `${AT} startingCsv="etcdoperator.v0.9.2": startingCsv 'etcdoperator.v0.9.2' is not the bundle given ('etcdoperator.v0.9.4', version 0.9.4): `
      + `OLM installs the catalog entry named 'etcdoperator.v0.9.2' (its resolver matches startingCSV by name, CSVNamePredicate), ${WHY}; the version of `
      + "'etcdoperator.v0.9.2' is not known here (no upgrade graph or sourceCatalog lists it, and OLM reads no version from a CSV name), so the curated range "
      + ">=0.9.4 is not checked for it. Fix: pass the bundle of 'etcdoperator.v0.9.2' as bundle (OperatorBundle.fromDirectory or OperatorBundle.fromCatalogPackage), "
      + 'or leave bundle out and pass upgradeGraph (UpgradeGraph.fromCatalogPackage(file, package, channel) or UpgradeGraph.fromBundles([...], channel)), from which '
      + "the library takes the bundle of 'etcdoperator.v0.9.2', or pin the bundle given: startingCsv: 'etcdoperator.v0.9.4' (PinnedCsvNotBundle)",
    ]);
  });

  test('the pin known from the upgrade graph and outside the curated range: the same one error says so, and how to pin within it', () => {
    const upgradeGraph = UpgradeGraph.fromBundles([etcd('0.9.2'), etcd('0.9.4')], CHANNEL);
    expect(errors({ startingCsv: 'etcdoperator.v0.9.2', bundle: etcd('0.9.4'), upgradeGraph }, '>=0.9.4')).toEqual([
      `${AT} startingCsv="etcdoperator.v0.9.2": startingCsv 'etcdoperator.v0.9.2' is not the bundle given ('etcdoperator.v0.9.4', version 0.9.4): `
      + `OLM installs the catalog entry named 'etcdoperator.v0.9.2' (its resolver matches startingCSV by name, CSVNamePredicate), ${WHY}; and 'etcdoperator.v0.9.2' `
      + "(version 0.9.2) is outside the version range >=0.9.4 of package 'etcd' in curated catalog 'curated-operators', so the Subscription would never resolve. "
      + "Fix: pin a version within the range >=0.9.4 together with its bundle (e.g. startingCsv: 'etcdoperator.v0.9.4' with the bundle given) (PinnedCsvNotBundle)",
    ]);
  });

  test('the graph has the pin\'s bundle: the fix says to leave bundle out; upgradeBundles holding it: to pass that one', () => {
    const upgradeGraph = UpgradeGraph.fromBundles([etcd('0.9.2'), etcd('0.9.4')], CHANNEL);
    expect(errors({ startingCsv: 'etcdoperator.v0.9.2', bundle: etcd('0.9.4'), upgradeGraph }).map((l) => l.slice(l.indexOf('Fix: ')))).toEqual([
      "Fix: leave bundle out: the upgrade graph has the bundle of 'etcdoperator.v0.9.2' and the library checks that one, or pin the bundle given: "
      + "startingCsv: 'etcdoperator.v0.9.4' (PinnedCsvNotBundle)",
    ]);
    expect(errors({ startingCsv: 'etcdoperator.v0.9.2', bundle: etcd('0.9.4'), upgradeBundles: [etcd('0.9.2')] }).map((l) => l.slice(l.indexOf('Fix: ')))).toEqual([
      "Fix: pass the bundle of 'etcdoperator.v0.9.2' (it is among upgradeBundles) as bundle, or pin the bundle given: startingCsv: 'etcdoperator.v0.9.4' (PinnedCsvNotBundle)",
    ]);
  });

  test('nothing is checked on the wrong bundle: no preflight, no derived rules of it, no upgrade walk; the report says what OLM installs', () => {
    const { app, tenant, subscription } = build({ startingCsv: 'etcdoperator.v0.9.2', bundle: etcd('0.9.4') });
    expect(subscription.bundles).toEqual([]);
    expect(tenant.preflight()).toEqual([]);
    expect(subscription.pinnedCsv).toEqual('etcdoperator.v0.9.2');
    expect(subscription.info).toMatchObject({ startingCsv: 'etcdoperator.v0.9.2', bundleName: 'etcdoperator.v0.9.4', installsCsv: 'etcdoperator.v0.9.2' });
    expect(subscription.info.checkedCsv).toBeUndefined();
    expect(synthErrorLines(app).map((l) => l.slice(l.lastIndexOf('(')))).toEqual(['(PinnedCsvNotBundle)']);
    // item 4: TENANCY.md's row says what OLM installs and that the checks did not run on it (it read "| passes |" before)
    expect(TenancyReport.markdown(app).split('\n').filter((l) => l.startsWith('| team-a | etcd |'))).toEqual([
      '| team-a | etcd | singlenamespace-alpha | team-a/curated-operators | Manual | etcdoperator.v0.9.2 | etcdoperator.v0.9.4 | etcdoperator.v0.9.2 '
      + '| no: the bundle given is etcdoperator.v0.9.4 | - | not run: the bundle is not what OLM installs |',
    ]);
  });

  test('the matching pin (the example platform\'s etcd) synthesizes, and the report knows the check ran on what OLM installs', () => {
    const { app, subscription } = build({ startingCsv: 'etcdoperator.v0.9.4', bundle: etcd('0.9.4') }, '>=0.9.4 <0.10.0');
    expect(synthErrorLines(app)).toEqual([]);
    expect(subscription.info).toMatchObject({ installsCsv: 'etcdoperator.v0.9.4', checkedCsv: 'etcdoperator.v0.9.4' });
  });
});

describe('no startingCsv: OLM installs the channel head (BundleNotChannelHead)', () => {
  test('the upgrade graph\'s head within the version range is another CSV than the bundle given', () => {
    const upgradeGraph = UpgradeGraph.fromBundles([etcd('0.9.2'), etcd('0.9.4')], CHANNEL);
    expect(errors({ bundle: etcd('0.9.2'), upgradeGraph })).toEqual([
      `${AT} bundle="etcdoperator.v0.9.2": no startingCsv is set, so OLM installs the head of channel '${CHANNEL}', 'etcdoperator.v0.9.4' (the upgrade graph's, `
      + `within the version ranges), not the bundle given ('etcdoperator.v0.9.2', version 0.9.2), ${WHY}. Fix: leave bundle out: the upgrade graph has the bundle of `
      + "'etcdoperator.v0.9.4' and the library checks that one, or pin the bundle given with startingCsv: 'etcdoperator.v0.9.2' (and installPlanApproval: "
      + 'InstallPlanApproval.MANUAL to stay on it) (BundleNotChannelHead)',
    ]);
    // within versionRange '<0.9.4' the head is 0.9.2: the bundle is what OLM installs
    expect(errors({ bundle: etcd('0.9.2'), upgradeGraph, versionRange: '<0.9.4' })).toEqual([]);
  });

  test("the curated catalog's sourceCatalog says the head (the filtered channel, what the catalog image serves)", () => {
    const A = 'apicurio-registry-3';
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Registries', {
      catalogName: 'curated-registries',
      image: 'registry.example.com/platform/curated-registries:v1',
      sourceCatalog: FileBasedCatalog.fromPath(path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.21', A)),
      packages: [{ name: A, channels: [{ name: '3.2.x' }], versionRange: '>=3.2.4', defaultChannel: '3.2.x' }],
    });
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    // a bundle of 3.2.4 (a CSV of that name): OLM installs the channel head 3.2.6
    const bundle = OperatorBundle.fromCsvYaml(DEMO_CSV.replace('name: demo.v1.0.0', `name: ${A}.v3.2.4`).replace('version: 1.0.0', 'version: 3.2.4'));
    const sub = tenant.subscribe({ packageName: A, channel: '3.2.x', catalog, bundle });
    expect(synthErrorLines(app)).toEqual([
      `[platform/TeamA/Subscription-${A}] bundle="${A}.v3.2.4": no startingCsv is set, so OLM installs the head of channel '3.2.x', '${A}.v3.2.6' (curated catalog `
      + `'curated-registries' built from its sourceCatalog), not the bundle given ('${A}.v3.2.4', version 3.2.4), ${WHY}. Fix: pass the bundle of '${A}.v3.2.6' as `
      + 'bundle (OperatorBundle.fromDirectory or OperatorBundle.fromCatalogPackage), or leave bundle out and pass upgradeGraph (UpgradeGraph.fromCatalogPackage(file, '
      + `package, channel) or UpgradeGraph.fromBundles([...], channel)), from which the library takes the bundle of '${A}.v3.2.6', or pin the bundle given with `
      + `startingCsv: '${A}.v3.2.4' (and installPlanApproval: InstallPlanApproval.MANUAL to stay on it) (BundleNotChannelHead)`,
    ]);
    expect(sub.info.installsCsv).toEqual(`${A}.v3.2.6`);
  });

  test('without a graph or sourceCatalog the head is not known here: the bundle is taken as the head, and the report says it is assumed', () => {
    const { app, subscription } = build({ bundle: etcd('0.9.4') });
    expect(synthErrorLines(app)).toEqual([]);
    expect(subscription.info.installsCsv).toBeUndefined();
    expect(subscription.info.checkedCsv).toEqual('etcdoperator.v0.9.4');
    expect(TenancyReport.markdown(app).split('\n').filter((l) => l.startsWith('| team-a | etcd |'))).toEqual([
      '| team-a | etcd | singlenamespace-alpha | team-a/curated-operators | Manual | - | etcdoperator.v0.9.4 | the channel head (not known here) '
      + '| unverified: etcdoperator.v0.9.4 is taken as the channel head | - | passes |',
    ]);
  });
});

describe('a pin whose version nobody here knows (PinnedVersionUnknown)', () => {
  test('startingCsv with a curated range and no bundle, graph or sourceCatalog: a warning, never a silent pass', () => {
    const { app } = build({ startingCsv: 'etcdoperator.v0.9.2' }, '>=0.9.4');
    expect(Diagnostics.warnings(app).filter((w) => w.code === 'PinnedVersionUnknown').map((w) => Diagnostics.format(w))).toEqual([
      "[platform/TeamA/Subscription-etcd] startingCsv=\"etcdoperator.v0.9.2\": the version of 'etcdoperator.v0.9.2' is not known here (no bundle, upgrade graph or "
      + "sourceCatalog lists it; OLM matches startingCSV by name and reads no version from it), so the curated range >=0.9.4 of package 'etcd' is not checked for it, "
      + "nor is its install. Fix: pass the bundle of 'etcdoperator.v0.9.2' (bundle), an upgrade graph that lists it (upgradeGraph), or the curated catalog's "
      + 'sourceCatalog (PinnedVersionUnknown)',
    ]);
    // without a curated range there is no range to check: no warning (the missing preflight is DeriveWithoutBundle's)
    expect(Diagnostics.warnings(build({ startingCsv: 'etcdoperator.v0.9.2' }).app).map((w) => w.code)).not.toContain('PinnedVersionUnknown');
  });
});

describe('the pinned approver approves only what was checked (PinnedApprovalNotChecked)', () => {
  test('a pin added to the approver that no Subscription pins and no check covered is an error naming what was checked', () => {
    expect(errors({ startingCsv: 'etcdoperator.v0.9.4', bundle: etcd('0.9.4') }, undefined, ['etcdoperator.v0.9.2'])).toEqual([
      "[platform/TeamA] addPinnedApprover(options).pinnedCsvs=\"etcdoperator.v0.9.2\": the pinned approver approves InstallPlans of 'etcdoperator.v0.9.2', but no "
      + 'Subscription of the tenant pins it and no check covered its bundle (checked: etcdoperator.v0.9.4): OLM would install it unchecked. Fix: pin the version '
      + "as a Subscription's startingCsv with its bundle, or give its bundle (upgradeBundles, or an upgradeGraph that allows it) so the upgrade is checked, or drop "
      + 'the pin (PinnedApprovalNotChecked)',
    ]);
  });

  test('a pin on an upgrade the graph allows (and checks) is fine', () => {
    const upgradeGraph = UpgradeGraph.fromBundles([etcd('0.9.2'), etcd('0.9.4')], CHANNEL);
    expect(errors({ startingCsv: 'etcdoperator.v0.9.2', upgradeGraph }, undefined, ['etcdoperator.v0.9.4'])).toEqual([]);
  });

  test('a Subscription of a catalog outside the App is checked the same way', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
    tenant.subscribe({
      packageName: 'etcd',
      channel: CHANNEL,
      catalog: CatalogSourceReference.fromName('operatorhubio-catalog', 'olm'),
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.2',
      bundle: etcd('0.9.4'),
    });
    expect(synthErrorLines(app).map((l) => l.slice(l.lastIndexOf('(')))).toEqual(['(PinnedCsvNotBundle)']);
  });
});
