/**
 * Issue 9 for the upgrade entry points: the static methods throw one clear Error in the diagnostics format
 * (`Class.method: field=value: message. Fix: ... (Code)`) instead of a TypeError deep inside; the
 * PinnedInstallPlanApprover construct collects its prop errors for synth. Plain JavaScript is simulated with `as any`.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { OperatorBundle, PermissionDiffs, PinnedApproval, PinnedInstallPlanApprover, UpgradeAnalysis, UpgradeGraph } from '../../src';
import { BlangSemver, SemverRange } from '../../src/upgrade/blang-semver';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const BUNDLE_FIX = 'Fix: pass OperatorBundle objects, e.g. from OperatorBundle.fromDirectory(path) or OperatorBundle.fromCatalogPackage(file, package)';

describe('UpgradeGraph factories', () => {
  test('fromBundles with a string in the list and a number channel', () => {
    expect(() => UpgradeGraph.fromBundles([ETCD, 'x' as any], 5 as any)).toThrow(new Error(
      `UpgradeGraph.fromBundles: bundles[1]="x": bundles[1] must be a OperatorBundle, got the string "x". ${BUNDLE_FIX} (InvalidReference); `
      + 'channel="5": channel must be a string, got the number 5. Fix: name the channel, e.g. \'stable\', or leave it out (InvalidInputType)',
    ));
  });

  test('fromCatalog with a plain object and a null packageName; fromCatalogPackage with a number path', () => {
    expect(() => UpgradeGraph.fromCatalog({} as any, null as any)).toThrow(new Error(
      'UpgradeGraph.fromCatalog: catalog="{}": catalog must be a FileBasedCatalog, got an object ({}). Fix: pass a FileBasedCatalog, e.g. FileBasedCatalog.fromPath(path) (InvalidReference); '
      + "packageName: packageName is required but null. Fix: name the package, e.g. 'etcd' (MissingInput)",
    ));
    expect(() => UpgradeGraph.fromCatalogPackage(3 as any, 'etcd')).toThrow(new Error(
      'UpgradeGraph.fromCatalogPackage: fileOrDirectory="3": fileOrDirectory must be a string, got the number 3. '
      + 'Fix: pass the path of a catalog file (JSON/YAML) or directory (InvalidInputType)',
    ));
  });
});

describe('PermissionDiffs and UpgradeAnalysis', () => {
  test('between without `to`', () => {
    expect(() => PermissionDiffs.between(ETCD, undefined as any)).toThrow(new Error(`PermissionDiffs.between: to: to is required but missing. ${BUNDLE_FIX} (MissingInput)`));
  });

  test('format with a diff whose rule list is not a list', () => {
    const diff = { ...PermissionDiffs.between(ETCD, ETCD), unchanged: false, clusterRulesAdded: 'all' as any };
    expect(() => PermissionDiffs.format(diff)).toThrow(new Error(
      'PermissionDiffs.format: diff.clusterRulesAdded="all": diff.clusterRulesAdded must be a list, got the string "all". Fix: pass clusterRulesAdded as a list of PolicyRules (InvalidInputType)',
    ));
  });

  test('analyze with a plain-object graph, a number `from` and a string targetNamespaces', () => {
    expect(() => UpgradeAnalysis.analyze({ graph: {} as any, from: 1 as any, namespace: 'team-a', targetNamespaces: 'team-a' as any, installerRules: [] })).toThrow(new Error(
      'UpgradeAnalysis.analyze: graph="{}": graph must be a UpgradeGraph, got an object ({}). Fix: pass an UpgradeGraph, e.g. UpgradeGraph.fromBundles(bundles) (InvalidReference); '
      + 'from="1": from must be a string, got the number 1. Fix: name the installed CSV, e.g. \'etcdoperator.v0.9.2\' (InvalidInputType); '
      + 'targetNamespaces="team-a": targetNamespaces must be a list, got the string "team-a". Fix: pass the target namespaces as a list ([] for AllNamespaces) (InvalidInputType)',
    ));
  });

  test('format(null); a valid result formats as before', () => {
    expect(() => UpgradeAnalysis.format(null as any)).toThrow(new Error(
      'UpgradeAnalysis.format: result="null": result must be an UpgradeAnalysisResult, got null. Fix: pass what UpgradeAnalysis.analyze(props) returns (MissingInput)',
    ));
    const result = UpgradeAnalysis.analyze({
      graph: UpgradeGraph.fromBundles([ETCD]), from: ETCD.name, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [],
    });
    expect(UpgradeAnalysis.format(result)).toEqual([`etcd (channel ${result.channel}) from ${ETCD.name}: 0 allowed upgrade(s)`]);
  });
});

describe('PinnedApproval, SemverRange and BlangSemver', () => {
  test('decide with a string instead of the list of pinned CSVs; decideAll without InstallPlans', () => {
    expect(() => PinnedApproval.decide({}, 'etcdoperator.v0.9.4' as any)).toThrow(new Error(
      'PinnedApproval.decide: pinnedCsvs="etcdoperator.v0.9.4": pinnedCsvs must be a list, got the string "etcdoperator.v0.9.4". '
      + "Fix: pass the pinned CSV names as a list, e.g. ['etcdoperator.v0.9.4'] ([] approves nothing) (InvalidInputType)",
    ));
    expect(() => PinnedApproval.decideAll(undefined as any, [])).toThrow(new Error(
      'PinnedApproval.decideAll: installPlans: installPlans is required but missing. Fix: pass the InstallPlans as a list (e.g. the items of an InstallPlanList) (MissingInput)',
    ));
    // garbage InstallPlans from the API are answered, not approved
    expect(PinnedApproval.decideAll([null, 5], ['a'])).toEqual([
      { name: '', approve: false, reason: 'approval is null, not Manual' },
      { name: '', approve: false, reason: 'approval is null, not Manual' },
    ]);
  });

  test('SemverRange.parse(undefined), problem(5), BlangSemver.problem(null) and compare with an object', () => {
    expect(() => SemverRange.parse(undefined as any)).toThrow(new Error('SemverRange.parse: range: range is required but missing. Fix: pass range as a string (MissingInput)'));
    expect(SemverRange.problem(5 as any)).toEqual('range must be a string, got the number 5');
    expect(BlangSemver.problem(null as any)).toEqual('version must be a string, got null');
    expect(() => BlangSemver.compare('1.0.0', {} as any)).toThrow(new Error(
      'BlangSemver.compare: b="{}": b must be a string, got an object ({}). Fix: pass b as a string (InvalidInputType)',
    ));
  });
});

describe('PinnedInstallPlanApprover props from plain JavaScript are synth errors', () => {
  test('a number namespace, a string pinnedCsvs, an image with a newline, addPinnedCsv(null)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const approver = new PinnedInstallPlanApprover(chart, 'A', { namespace: 7 as any, pinnedCsvs: 'x' as any, image: 'a\nb' });
    approver.addPinnedCsv(null as any);
    expect(approver.pinnedCsvs).toEqual([]);
    expect(() => app.synthYaml()).toThrow(new Error([
      'Validation failed with the following errors:',
      '  [c/A] namespace="7": namespace must be a string, got the number 7. Fix: set namespace to the tenant namespace, e.g. \'team-a\' (InvalidInputType)',
      '  [c/A] image="a\\nb": image contains a newline or another control character. Fix: name an image with node on the PATH, e.g. PinnedInstallPlanApprover.DEFAULT_IMAGE (InvalidInputValue)',
      '  [c/A] pinnedCsvs="x": pinnedCsvs must be a list, got the string "x". Fix: pass CSV names, e.g. [\'etcdoperator.v0.9.4\'] (InvalidInputType)',
      "  [c/A] addPinnedCsv(csvName): addPinnedCsv(csvName) is required but null. Fix: pass the CSV name, e.g. 'etcdoperator.v0.9.4' (MissingInput)",
    ].join('\n')));
  });
});
