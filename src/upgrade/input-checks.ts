// Runtime checks of the upgrade folder's static-method arguments (see src/core/input-check.ts); internal, not re-exported.
// These methods run outside constructs: each throws one clear Error in the diagnostics format (throwIfInvalid)
// instead of a TypeError deep inside.
import { OperatorBundle } from '../bundle/operator-bundle';
import { checkRuleShape, InputCheck, INPUT_CODES, prop, throwIfInvalid } from '../core/input-check';
import { FileBasedCatalog } from '../fbc/file-based-catalog';

const BUNDLE_FIX = 'pass OperatorBundle objects, e.g. from OperatorBundle.fromDirectory(path) or OperatorBundle.fromCatalogPackage(file, package)';

function requiredBundle(check: InputCheck, field: string, value: unknown): OperatorBundle | undefined {
  if (value === undefined || value === null) {
    check.add({ code: INPUT_CODES.missing, field, message: `${field} is required but ${value === null ? 'null' : 'missing'}`, fix: BUNDLE_FIX });
    return undefined;
  }
  return check.optionalInstance(field, value, OperatorBundle, BUNDLE_FIX);
}

/** `UpgradeGraph.fromBundles(bundles, channel)`. */
export function checkFromBundles(bundles: unknown, channel: unknown): void {
  const check = new InputCheck();
  check.requiredArray('bundles', bundles, (v, f) => requiredBundle(check, f, v), 'pass the package versions as a list of OperatorBundle objects');
  check.optionalString('channel', channel, { fix: "name the channel, e.g. 'stable', or leave it out" });
  throwIfInvalid(check, 'UpgradeGraph.fromBundles');
}

/** `UpgradeGraph.fromCatalog(catalog, packageName, channel)` and `fromCatalogPackage(fileOrDirectory, ...)`. */
export function checkFromCatalog(method: 'fromCatalog' | 'fromCatalogPackage', source: unknown, packageName: unknown, channel: unknown): void {
  const check = new InputCheck();
  if (method === 'fromCatalog') {
    const fix = 'pass a FileBasedCatalog, e.g. FileBasedCatalog.fromPath(path)';
    if (source === undefined || source === null) check.add({ code: INPUT_CODES.missing, field: 'catalog', message: `catalog is required but ${source === null ? 'null' : 'missing'}`, fix });
    else check.optionalInstance('catalog', source, FileBasedCatalog, fix);
  } else {
    check.requiredString('fileOrDirectory', source, 'pass the path of a catalog file (JSON/YAML) or directory');
  }
  check.requiredString('packageName', packageName, "name the package, e.g. 'etcd'");
  check.optionalString('channel', channel, { fix: "name the channel, e.g. 'stable', or leave it out" });
  throwIfInvalid(check, `UpgradeGraph.${method}`);
}

/** `PermissionDiffs.between(from, to)`. */
export function checkBetween(from: unknown, to: unknown): void {
  const check = new InputCheck();
  requiredBundle(check, 'from', from);
  requiredBundle(check, 'to', to);
  throwIfInvalid(check, 'PermissionDiffs.between');
}

const DIFF_RULES = ['namespacedRulesAdded', 'namespacedRulesRemoved', 'clusterRulesAdded', 'clusterRulesRemoved'];
const DIFF_STRINGS = ['webhooksAdded', 'webhooksRemoved', 'apiServicesAdded', 'apiServicesRemoved', 'crdsAdded', 'crdsRemoved', 'installModesAdded', 'installModesDropped'];

/** A `PermissionDiff` (as `PermissionDiffs.between` returns it). */
function checkDiff(check: InputCheck, field: string, value: unknown): void {
  const d = check.requiredObject(field, value, 'a PermissionDiff', 'pass what PermissionDiffs.between(from, to) returns');
  if (!d) return;
  for (const key of DIFF_RULES) {
    check.requiredArray(`${field}.${key}`, prop(d, key), (v, f) => checkRuleShape(check, f, v), `pass ${key} as a list of PolicyRules`);
  }
  for (const key of DIFF_STRINGS) {
    check.requiredArray(`${field}.${key}`, prop(d, key), (v, f) => check.requiredString(f, v, `pass ${key} as a list of strings`), `pass ${key} as a list of strings`);
  }
  check.optionalBoolean(`${field}.unchanged`, prop(d, 'unchanged'));
}

/** `PermissionDiffs.format(diff, namespace)`. */
export function checkDiffFormat(diff: unknown, namespace: unknown): void {
  const check = new InputCheck();
  checkDiff(check, 'diff', diff);
  check.optionalString('namespace', namespace, { fix: 'name the namespace shown for namespaced rules, or leave it out' });
  throwIfInvalid(check, 'PermissionDiffs.format');
}

/** `UpgradeAnalysis.analyze(props)` (`graphClass`: `UpgradeGraph`, passed in so that this file need not import it). */
export function checkAnalyzeProps(props: unknown, graphClass: { prototype: object; name: string }): void {
  const check = new InputCheck();
  const o = check.requiredObject('props', props, 'an object', 'pass { graph, from, namespace, targetNamespaces, installerRules }');
  if (o) {
    check.knownProps(o, 'UpgradeAnalysisProps', 'UpgradeAnalysis.analyze');
    const p = (k: string) => prop(o, k);
    const graphFix = 'pass an UpgradeGraph, e.g. UpgradeGraph.fromBundles(bundles)';
    if (p('graph') === undefined || p('graph') === null) check.add({ code: INPUT_CODES.missing, field: 'graph', message: 'graph is required but missing', fix: graphFix });
    else check.optionalInstance('graph', p('graph'), graphClass, graphFix);
    check.requiredString('from', p('from'), "name the installed CSV, e.g. 'etcdoperator.v0.9.2'");
    check.optionalString('versionRange', p('versionRange'), { fix: "pass a node-semver range, e.g. '>=0.9.0 <1.0.0'" });
    check.requiredString('namespace', p('namespace'), "pass the OperatorGroup's namespace");
    check.requiredArray('targetNamespaces', p('targetNamespaces'), (v, f) => check.requiredString(f, v, 'pass namespace names'),
      'pass the target namespaces as a list ([] for AllNamespaces)');
    const rules = (field: string, value: unknown) => check.optionalArray(field, value, (v, f) => checkRuleShape(check, f, v), `pass ${field} as a list of PolicyRules`);
    if (p('installerRules') === undefined || p('installerRules') === null) {
      check.add({ code: INPUT_CODES.missing, field: 'installerRules', message: 'installerRules is required but missing', fix: "pass the installer's namespaced rules ([] for none)" });
    } else {
      rules('installerRules', p('installerRules'));
    }
    rules('clusterInstallerRules', p('clusterInstallerRules'));
    check.optionalArray('otherNamespaceRules', p('otherNamespaceRules'), (v, f) => {
      const n = check.requiredObject(f, v, 'an object', "pass { namespace: 'kube-system', rules: [...] }");
      if (n) {
        check.knownProps(n, 'NamespaceRules', f, `${f}.`);
        check.requiredString(`${f}.namespace`, prop(n, 'namespace'), 'name the namespace');
        rules(`${f}.rules`, prop(n, 'rules') ?? 0);
      }
      return n;
    });
  }
  throwIfInvalid(check, 'UpgradeAnalysis.analyze');
}

/** `UpgradeAnalysis.format(result, namespace)`: the result of `analyze` (its fields the method reads). */
export function checkAnalysisResult(result: unknown, namespace: unknown): void {
  const check = new InputCheck();
  const r = check.requiredObject('result', result, 'an UpgradeAnalysisResult', 'pass what UpgradeAnalysis.analyze(props) returns');
  if (r) {
    const fix = 'pass what UpgradeAnalysis.analyze(props) returns';
    for (const key of ['packageName', 'channel', 'from']) check.requiredString(`result.${key}`, prop(r, key), fix);
    check.optionalString('result.versionRange', prop(r, 'versionRange'), { fix });
    check.optionalBoolean('result.ok', prop(r, 'ok'));
    for (const key of ['graphProblems', 'missingBundles']) {
      check.requiredArray(`result.${key}`, prop(r, key), (v, f) => check.requiredString(f, v, fix, { singleLine: false }), fix);
    }
    check.requiredArray('result.edges', prop(r, 'edges'), (v, f) => {
      const e = check.requiredObject(f, v, 'an UpgradeEdgeReport', fix);
      if (!e) return undefined;
      const edge = check.requiredObject(`${f}.edge`, prop(e, 'edge'), 'an UpgradeEdge', fix);
      if (edge) {
        check.requiredString(`${f}.edge.from`, prop(edge, 'from'), fix);
        check.requiredString(`${f}.edge.to`, prop(edge, 'to'), fix);
        check.requiredArray(`${f}.edge.via`, prop(edge, 'via'), (x, g) => check.requiredString(g, x, fix), fix);
      }
      const preflight = check.optionalObject(`${f}.preflight`, prop(e, 'preflight'), fix);
      if (preflight) {
        check.optionalBoolean(`${f}.preflight.ok`, prop(preflight, 'ok'));
        check.requiredArray(`${f}.preflight.problems`, prop(preflight, 'problems'), (x, g) => {
          const pr = check.requiredObject(g, x, 'a preflight problem', fix);
          if (pr) check.requiredString(`${g}.message`, prop(pr, 'message'), fix, { singleLine: false });
          return pr;
        }, fix);
        check.requiredArray(`${f}.preflight.missing`, prop(preflight, 'missing'), (x, g) => {
          const m = check.requiredObject(g, x, 'a missing permission', fix);
          if (m) check.requiredString(`${g}.formatted`, prop(m, 'formatted'), fix, { singleLine: false });
          return m;
        }, fix);
      }
      if (prop(e, 'diff') !== undefined && prop(e, 'diff') !== null) checkDiff(check, `${f}.diff`, prop(e, 'diff'));
      return e;
    }, fix);
  }
  check.optionalString('namespace', namespace, { fix: 'name the namespace shown for namespaced rules, or leave it out' });
  throwIfInvalid(check, 'UpgradeAnalysis.format');
}

/** `PinnedApproval.decide(installPlan, pinnedCsvs)` / `decideAll(installPlans, pinnedCsvs)`. */
export function checkDecide(method: 'decide' | 'decideAll', installPlans: unknown, pinnedCsvs: unknown): void {
  const check = new InputCheck();
  if (method === 'decideAll') {
    // the InstallPlans are data from the API server: any element is answered (not approved), the list must be one
    check.requiredArray('installPlans', installPlans, (v) => v, 'pass the InstallPlans as a list (e.g. the items of an InstallPlanList)');
  }
  check.requiredArray('pinnedCsvs', pinnedCsvs, (v, f) => check.requiredString(f, v, "pass CSV names, e.g. ['etcdoperator.v0.9.4']"),
    "pass the pinned CSV names as a list, e.g. ['etcdoperator.v0.9.4'] ([] approves nothing)");
  throwIfInvalid(check, `PinnedApproval.${method}`);
}
