/**
 * Issue 30 item 6: one mistake, one error. A new user's platform from the README (Quick start, three tenants, etcd
 * pinned with an upgrade graph, a pinned approver, admins) with one of the five usual mistakes in team-a: each gives
 * exactly one error, the one that names the mistake and its fix; the follow-ons (upgrade checks of a namespace
 * nothing was derived for, the approver's objects in that namespace, the bundle and graph of the "wrong" package, the
 * upgrade that lacks the same rules as the install) are left out, as for a pin outside the graph
 * (test/tenant/one-error-per-mistake.test.ts).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import {
  AccessLevel, CuratedCatalog, CuratedCatalogAdmissionPolicy, InstallPlanApproval, OpenShiftOperatorHubPolicy, OperatorBundle, ScopedOperatorTenant,
  UpgradeGraph,
} from '../../src';
import { synthErrorLines } from '../util/synth';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const bundle = (v: string) => OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', v));

interface Mistake {
  readonly namespaceName?: string;
  readonly channel?: string | null;
  readonly packageName?: string;
  readonly deriveInstallerRules?: boolean;
}

/** The platform; team-a makes `mistake`, team-b and team-c are written right. */
function platformErrors(mistake: Mistake): string[] {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  new OpenShiftOperatorHubPolicy(chart, 'DefaultCatalogs');
  const catalog = new CuratedCatalog(chart, 'Curated', {
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.2 <0.10.0' }],
  });
  new CuratedCatalogAdmissionPolicy(chart, 'CuratedOnly', { catalog });
  const graph = UpgradeGraph.fromBundles([bundle('0.9.2'), bundle('0.9.4')], 'singlenamespace-alpha');
  for (const team of ['team-a', 'team-b', 'team-c']) {
    const m: Mistake = team === 'team-a' ? mistake : {};
    const tenant = new ScopedOperatorTenant(chart, team, {
      namespaceName: m.namespaceName ?? team,
      deriveInstallerRules: m.deriveInstallerRules ?? true,
    });
    tenant.subscribe({
      packageName: m.packageName ?? 'etcd',
      ...(m.channel === null ? {} : { channel: m.channel ?? 'singlenamespace-alpha' }),
      catalog,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.2',
      upgradeGraph: graph,
    });
    const admins = Group.fromName(chart, `Admins-${team}`, `${team}-admins`);
    tenant.grantSubscriptionManagement(admins);
    tenant.grantOperatorAccess(admins, AccessLevel.ADMIN);
    tenant.addPinnedApprover({ image: 'registry.access.redhat.com/ubi9/nodejs-24-minimal:1' });
  }
  return synthErrorLines(app);
}

describe('the five usual mistakes of a new user: one error each', () => {
  test('the platform without a mistake synthesizes', () => {
    expect(platformErrors({})).toEqual([]);
  });

  test("1. an invalid namespace name ('Team-A'): InvalidName only (no UpgradeWouldFail 'lacks 8 rule(s)', no approver Role/RoleBinding errors)", () => {
    expect(platformErrors({ namespaceName: 'Team-A' })).toEqual([
      '[platform/team-a] namespaceName="Team-A": Namespace name must consist of lower case alphanumeric characters or \'-\', and must start and end with an '
      + 'alphanumeric character (RFC 1123 label). Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)',
    ]);
  });

  test('2. a missing channel (the catalog allows only some): the catalog says which', () => {
    expect(platformErrors({ channel: null })).toEqual([
      '[platform/team-a/Subscription-etcd] catalog="team-a/curated-operators": tenant namespace "team-a": package "etcd" in curated catalog "curated-operators" only allows '
      + 'some channels, so the Subscription must name one; allowed channels: "singlenamespace-alpha". Fix: subscribe to what the catalog offers, or add it to the catalog '
      + '(CatalogRejectsSubscription, OLMT-021)',
    ]);
  });

  test("3. a wrong package name ('etcd-operator'): the catalog's error, whose fix names the package of the graph given (no UpgradeGraphPackageMismatch, BundlePackageMismatch)", () => {
    expect(platformErrors({ packageName: 'etcd-operator' })).toEqual([
      '[platform/team-a/Subscription-etcd-operator] catalog="team-a/curated-operators": tenant namespace "team-a": package "etcd-operator" is not in curated catalog '
      + '"curated-operators"; allowed packages: "etcd". Fix: set packageName to \'etcd\' (the package of the upgrade graph given, which the catalog offers) '
      + '(CatalogRejectsSubscription, OLMT-021)',
    ]);
  });

  test('4. a bundle path typo: one line naming the versions that exist', () => {
    const dir = path.join(BUNDLES, 'etcd', '0.9.3');
    expect(() => bundle('0.9.3')).toThrow(new Error(
      `OperatorBundle.fromDirectory: '${dir}' does not exist; the bundles under '${path.join(BUNDLES, 'etcd')}' are 0.6.1, 0.9.0, 0.9.2, 0.9.2-clusterwide, 0.9.4, `
      + '0.9.4-clusterwide; pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)'));
  });

  test('5. a forgotten deriveInstallerRules: the install error, which names the upgrade its fix covers too (no UpgradeWouldFail)', () => {
    expect(platformErrors({ deriveInstallerRules: false })).toEqual([
      '[platform/team-a] subscriptions[etcd].bundle="etcdoperator.v0.9.2": OLM would fail to install etcdoperator.v0.9.2: the installer ServiceAccount team-a/team-a lacks '
      + '4 rule(s): Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]; Namespace:"team-a" APIGroups:[] '
      + 'Resources:[secrets] Verbs:[get]; Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]; Namespace:"team-a" APIGroups:[etcd.database.coreos.com] '
      + 'Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*] (needed for InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): '
      + 'RBAC escalation check on the binding; InstallPlan steps Role + RoleBinding for permissions[0] (ServiceAccount etcd-operator): RBAC escalation check, the installer '
      + "must hold the operator's rules); the allowed upgrade(s) etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 lack only the same rule(s), so this fix covers them too. "
      + 'Fix: set deriveInstallerRules: true to derive exactly these rules from the bundle, or grant them with addInstallerRule (MissingInstallerPermission)',
    ]);
  });

  test("neighbours: an upgrade that lacks more than the install keeps its own UpgradeWouldFail; an invalid approver name is still the approver's error", () => {
    // prometheus 0.56.3 needs prometheuses/status, which 0.47.0 does not: without derived rules both fail, each its own way
    const prometheus = ['0.47.0', '0.56.3'].map((v) => OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', v)));
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedCatalog(chart, 'Curated', { image: 'reg/c:1', packages: [{ name: 'prometheus', channels: [{ name: 'beta' }] }] });
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({
      packageName: 'prometheus',
      channel: 'beta',
      catalog,
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'prometheusoperator.0.47.0',
      upgradeGraph: UpgradeGraph.fromBundles(prometheus, 'beta'),
    });
    tenant.addPinnedApprover({ name: 'Approver' });
    const errors = synthErrorLines(app);
    expect(errors.map((e) => e.slice(e.lastIndexOf('(')))).toEqual(['(MissingInstallerPermission)', '(UpgradeWouldFail)', '(InvalidName)']);
    expect(errors[0]).not.toContain('the allowed upgrade(s)');
    expect(errors[2]).toEqual('[platform/TeamA/PinnedApprover] name="Approver": approver name must consist of lower case alphanumeric characters or \'-\', and must start '
      + 'and end with an alphanumeric character (RFC 1123 label). Fix: use a lower-case RFC 1123 label (it names a CronJob too) (InvalidName)');
  });
});
