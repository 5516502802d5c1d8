/**
 * The pure classes with garbage (JavaScript and jsii callers): every static method either answers or throws a plain
 * Error with a readable one-line message; never a TypeError/RangeError. Fixed seeds, fast-check.
 */
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { garbage, goodOrGarbage, mostlyGood, nastyString, OutcomeCounts, SEED } from './garbage';
import { AccessLevel, ArgoCdApplications, Diagnostics, EffectivePower, FluxKustomizations, GitOpsLayout, InstallerPermissions, InstallerRuleChecks, InstallModes, InstallPreflight, OlmGeneration, OlmHealthChecks, OlmNaming, OperatorBundle, OutputLayout, PermissionDiffs, PinnedApproval, PinnedInstallPlanApprover, PolicyRule, PolicyRules, RbacRules, ReachCode, SubjectKind, TenancyApp, TenancyAudit, TenantBaseline, UpgradeAnalysis, UpgradeGraph, SensitiveGrant } from '../../src';
import { BuiltinRoles } from '../../src/audit/builtin-roles';
import { GoDuration } from '../../src/core/go-duration';
import { KubernetesNames, NameRule } from '../../src/core/kubernetes-names';
import { CuratedList } from '../../src/fbc/curated-list';
import { TenancyReport } from '../../src/report/tenancy-report';
import { BlangSemver, SemverRange } from '../../src/upgrade/blang-semver';

const list = fc.array(fc.constantFrom('', '*', 'get', 'pods', 'apps', 'x/y', '*/scale', '/healthz', '/metrics/*', 'Get'), { maxLength: 3 });
const goodRule: fc.Arbitrary<PolicyRule> = fc.record(
  { verbs: list, apiGroups: list, resources: list, resourceNames: list, nonResourceUrls: list },
  { requiredKeys: ['verbs'] },
);
/** A rule whose fields may each be garbage. */
const shakyRule = fc.oneof(
  goodRule,
  fc.record({
    verbs: goodOrGarbage(list),
    apiGroups: goodOrGarbage(list),
    resources: goodOrGarbage(list),
    resourceNames: goodOrGarbage(list),
    nonResourceUrls: goodOrGarbage(list),
  }, { requiredKeys: [] }),
  garbage,
);
const rules = fc.oneof({ arbitrary: fc.array(shakyRule, { maxLength: 4 }), weight: 4 }, { arbitrary: garbage, weight: 1 });
const request = fc.oneof(
  // well-formed resource and non-resource requests (mixing the two kinds is refused), then shaky ones
  fc.record({
    verb: mostlyGood(fc.constantFrom('get', 'list', '*')),
    apiGroup: mostlyGood(fc.constantFrom('', 'apps')),
    resource: mostlyGood(fc.constantFrom('pods', 'pods/log')),
    name: mostlyGood(fc.constant('x')),
  }, { requiredKeys: ['verb'] }),
  fc.record({ verb: mostlyGood(fc.constantFrom('get', 'post')), nonResourcePath: mostlyGood(fc.constantFrom('/healthz', '/metrics/x')) }),
  fc.record({
    verb: goodOrGarbage(fc.constantFrom('get', 'list', '*')),
    apiGroup: goodOrGarbage(fc.constantFrom('', 'apps')),
    resource: goodOrGarbage(fc.constantFrom('pods', 'pods/log')),
    subresource: goodOrGarbage(fc.constant('scale')),
    name: goodOrGarbage(fc.constant('x')),
    nonResourcePath: goodOrGarbage(fc.constant('/healthz')),
  }, { requiredKeys: [] }),
  garbage,
);
const RUNS = 400;

describe('RbacRules with garbage input (fast-check, fixed seeds)', () => {
  test('format(rule, namespace)', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(shakyRule, goodOrGarbage(nastyString), (r, ns) => outcomes.run('RbacRules.format', () => RbacRules.format(r as any, ns as any))),
      { seed: SEED, numRuns: RUNS });
    expect(outcomes.unmet(10)).toEqual([]);
  });
  test('covers(owner, requested)', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(rules, rules, (a, b) => outcomes.run('RbacRules.covers', () => RbacRules.covers(a as any, b as any))), { seed: SEED + 1, numRuns: RUNS });
    expect(outcomes.unmet(10)).toEqual([]);
  });
  test('allows(rules, request)', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(rules, request, (a, r) => outcomes.run('RbacRules.allows', () => RbacRules.allows(a as any, r as any))), { seed: SEED + 2, numRuns: RUNS });
    expect(outcomes.unmet(10)).toEqual([]);
  });
  test('compact(rules) and breakdown(rules)', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(rules, (a) => {
      outcomes.run('RbacRules.compact', () => RbacRules.compact(a as any));
      outcomes.run('RbacRules.breakdown', () => RbacRules.breakdown(a as any));
    }), { seed: SEED + 3, numRuns: RUNS });
    expect(outcomes.unmet(10)).toEqual([]);
  });
  test('validate(rule, namespaced) answers with messages, never throws', () => {
    const count = { valid: 0, problems: 0 };
    fc.assert(fc.property(shakyRule, goodOrGarbage(fc.boolean()), (r, namespaced) => {
      const problems = RbacRules.validate(r as any, namespaced as any);
      expect(Array.isArray(problems) && problems.every((p) => typeof p === 'string')).toBe(true);
      count[problems.length === 0 ? 'valid' : 'problems']++;
    }), { seed: SEED + 4, numRuns: RUNS });
    expect(count).toEqual({ valid: count.valid, problems: count.problems });
    expect(Math.min(count.valid, count.problems)).toBeGreaterThanOrEqual(1);
  });
  test('PolicyRules.fromJson / toJson', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(shakyRule, (r) => {
      outcomes.run('PolicyRules.fromJson', () => PolicyRules.fromJson(r));
      outcomes.run('PolicyRules.toJson', () => PolicyRules.toJson(r as any));
    }), { seed: SEED + 5, numRuns: RUNS });
    expect(outcomes.unmet(10)).toEqual([]);
  });
});

describe('OlmNaming and InstallModes with garbage input (fast-check, fixed seeds)', () => {
  const level = goodOrGarbage(fc.constantFrom(...Object.values(AccessLevel)));
  const text = goodOrGarbage(fc.constantFrom('team-a', 'og', 'EtcdCluster', 'v1', ''));
  test('OlmNaming static methods', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(text, text, text, level, goodOrGarbage(fc.constantFrom(...Object.values(OlmGeneration))), (a, b, c, l, g) => {
      outcomes.run('OlmNaming.operatorGroupClusterRoleName', () => OlmNaming.operatorGroupClusterRoleName(a as any, b as any, l as any, g as any));
      outcomes.run('OlmNaming.providedApiHash', () => OlmNaming.providedApiHash(a as any, b as any, c as any));
      outcomes.run('OlmNaming.providedApiAggregationLabel', () => OlmNaming.providedApiAggregationLabel(a as any, b as any, c as any, l as any));
      outcomes.run('OlmNaming.base62FromHex', () => OlmNaming.base62FromHex(a as any));
    }), { seed: SEED + 6, numRuns: 300 });
    expect(outcomes.unmet(10)).toEqual([]);
  });
  test('InstallModes static methods', () => {
    const outcomes = new OutcomeCounts();
    const mode = goodOrGarbage(fc.record({ type: goodOrGarbage(fc.constantFrom('OwnNamespace', 'AllNamespaces')), supported: goodOrGarbage(fc.boolean()) }));
    const names = goodOrGarbage(fc.array(goodOrGarbage(fc.constantFrom('team-a', '', 'b')), { maxLength: 3 }));
    fc.assert(fc.property(goodOrGarbage(fc.array(mode, { maxLength: 3 })), text, names, (modes, ns, targets) => {
      outcomes.run('InstallModes.supports', () => InstallModes.supports(modes as any, ns as any, targets as any));
      outcomes.run('InstallModes.checkTargets', () => InstallModes.checkTargets(modes as any, ns as any, targets as any));
      outcomes.run('InstallModes.operatorGroupNamespaces', () => InstallModes.operatorGroupNamespaces(targets as any));
      outcomes.run('InstallModes.parseType', () => InstallModes.parseType(ns as any));
    }), { seed: SEED + 7, numRuns: 300 });
    // parseType answers undefined for what is no install mode type
    expect(outcomes.unmet(10, { 'InstallModes.parseType': 'answered' })).toEqual([]);
  });
});

describe('other pure entry points with garbage input (fast-check, fixed seeds)', () => {
  test('KubernetesNames, GoDuration, CuratedList, Diagnostics, InstallerRuleChecks answer or throw clear errors', () => {
    const outcomes = new OutcomeCounts();
    fc.assert(fc.property(garbage, goodOrGarbage(fc.constantFrom(...Object.values(NameRule))), rules, (v, rule, rs) => {
      outcomes.run('KubernetesNames.problem', () => KubernetesNames.problem(v as any, rule as any));
      outcomes.run('GoDuration.problem', () => GoDuration.problem(v as any));
      outcomes.run('GoDuration.toSeconds', () => GoDuration.toSeconds(v as any));
      outcomes.run('CuratedList.problems', () => CuratedList.problems(v as any));
      outcomes.run('CuratedList.problems #2', () => CuratedList.problems([v] as any));
      outcomes.run('Diagnostics.formatMessage', () => Diagnostics.formatMessage(v as any));
      outcomes.run('InstallerRuleChecks.errors', () => InstallerRuleChecks.errors(rs as any, { clusterScoped: false }));
      outcomes.run('InstallerRuleChecks.warnings', () => InstallerRuleChecks.warnings(rs as any, v as any));
      outcomes.run('InstallerRuleChecks.allowedGrantsHeld', () => InstallerRuleChecks.allowedGrantsHeld(rs as any, v as any));
      const everyGrant = { clusterScoped: true, allowedSensitiveGrants: Object.values(SensitiveGrant) };
      outcomes.run('InstallerRuleChecks.allowedGrantsHeld #2', () => InstallerRuleChecks.allowedGrantsHeld(rs as any, everyGrant));
    }), { seed: SEED + 8, numRuns: 400 });
    // the checks answer every input with a list of problems; formatMessage and toSeconds get nothing but garbage
    expect(outcomes.unmet(10, {
      'KubernetesNames.problem': 'answered',
      'GoDuration.problem': 'answered',
      'CuratedList.problems': 'answered',
      'CuratedList.problems #2': 'answered',
      'GoDuration.toSeconds': 'refused',
      'Diagnostics.formatMessage': 'refused',
    })).toEqual([]);
  });

  test('InstallPreflight.check / checkVersions / format and InstallerPermissions.leastPrivilege', () => {
    const outcomes = new OutcomeCounts();
    const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
    // mostly good fields (issue 28: with garbage as likely as a good value in each of 9 fields, no call ever answered)
    const goodRules = fc.array(goodRule, { maxLength: 3 });
    const props = fc.record({
      bundle: mostlyGood(fc.constant(bundle)),
      bundles: mostlyGood(fc.array(mostlyGood(fc.constant(bundle)), { minLength: 1, maxLength: 2 })),
      namespace: mostlyGood(fc.constantFrom('team-a', 'team-b')),
      targetNamespaces: mostlyGood(fc.array(mostlyGood(fc.constantFrom('team-a', 'b')), { maxLength: 2 })),
      installerRules: mostlyGood(goodRules),
      clusterInstallerRules: mostlyGood(goodRules),
      otherNamespaceRules: mostlyGood(fc.array(mostlyGood(fc.record({ namespace: mostlyGood(fc.constant('kube-system')), rules: mostlyGood(goodRules) })), { maxLength: 2 })),
      upgrade: mostlyGood(fc.boolean()),
      allowClusterScoped: mostlyGood(fc.boolean()),
    }, { requiredKeys: ['namespace', 'targetNamespaces', 'installerRules'] });
    // each call gets the props it knows (an unknown prop is refused: the union of all three would never answer)
    const pick = (p: unknown, keys: string[]) => typeof p === 'object' && p !== null && !Array.isArray(p)
      ? Object.fromEntries(Object.entries(p).filter(([k]) => keys.includes(k))) : p;
    const common = ['namespace', 'targetNamespaces'];
    const rulesProps = [...common, 'installerRules', 'clusterInstallerRules', 'otherNamespaceRules'];
    fc.assert(fc.property(mostlyGood(props), (p) => {
      outcomes.run('InstallPreflight.format', () => InstallPreflight.format(InstallPreflight.check(pick(p, [...rulesProps, 'bundle', 'upgrade']) as any)));
      outcomes.run('InstallPreflight.checkVersions', () => InstallPreflight.checkVersions(pick(p, [...rulesProps, 'bundles']) as any));
      outcomes.run('InstallerPermissions.leastPrivilege', () => InstallerPermissions.leastPrivilege(pick(p, [...common, 'bundles', 'allowClusterScoped']) as any));
      outcomes.run('InstallPreflight.format (not a result)', () => InstallPreflight.format(p as any));
    }), { seed: SEED + 9, numRuns: 300 });
    expect(outcomes.unmet(10, { 'InstallPreflight.format (not a result)': 'refused' })).toEqual([]);
  });
});

describe('the app, report, audit and upgrade entry points with garbage input (fast-check, fixed seeds)', () => {
  const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
  const text = goodOrGarbage(fc.constantFrom('team-a', 'v1', 'Namespace', 'operators.coreos.com/v1alpha1', 'stable', ''));
  const manifest = goodOrGarbage(fc.record({
    apiVersion: goodOrGarbage(fc.constantFrom('v1', 'operators.coreos.com/v1alpha1')),
    kind: goodOrGarbage(fc.constantFrom('Namespace', 'Subscription', 'Role')),
    metadata: goodOrGarbage(fc.record({ name: text, namespace: text }, { requiredKeys: [] })),
  }, { requiredKeys: [] }));
  const subject = goodOrGarbage(fc.record({
    kind: goodOrGarbage(fc.constantFrom(...Object.values(SubjectKind))), name: text, namespace: text,
  }, { requiredKeys: [] }));

  test('TenancyApp and PinnedInstallPlanApprover props: building never throws, synthYaml fails with the validation error or succeeds', () => {
    const outcomes = new OutcomeCounts();
    const props = fc.record({
      layout: mostlyGood(fc.constantFrom(...Object.values(OutputLayout))),
      syncWaves: mostlyGood(fc.boolean()),
      report: mostlyGood(fc.boolean()),
      quiet: mostlyGood(fc.constant(true)),
      outdir: mostlyGood(fc.constant('unused')),
      yamlOutputType: mostlyGood(fc.constantFrom(0, 1, 2, 3)),
      recordConstructMetadata: mostlyGood(fc.boolean()),
    }, { requiredKeys: ['outdir', 'quiet'] });
    const approverProps = mostlyGood(fc.record({
      namespace: mostlyGood(fc.constantFrom('team-a', 'Team A', '')),
      name: mostlyGood(fc.constantFrom('approver', 'a/b')),
      image: fc.oneof({ arbitrary: fc.constant('quay.io/openshift/origin-cli@sha256:' + 'a'.repeat(64)), weight: 4 }, { arbitrary: nastyString, weight: 1 }),
      schedule: mostlyGood(fc.constant('*/5 * * * *')),
      pinnedCsvs: mostlyGood(fc.array(mostlyGood(fc.constant('etcdoperator.v0.9.4')), { maxLength: 2 })),
    }, { requiredKeys: [] }));
    fc.assert(fc.property(mostlyGood(props), approverProps, mostlyGood(fc.constant('etcdoperator.v0.9.5')), (p, ap, csv) => {
      let app: TenancyApp | undefined;
      expect(() => {
        app = new TenancyApp(p as any);
        const chart = new Chart(app, 'c');
        new PinnedInstallPlanApprover(chart, 'A', ap as any).addPinnedCsv(csv as any);
      }).not.toThrow();
      outcomes.run('TenancyApp#synthYaml', () => app!.synthYaml());
    }), { seed: SEED + 20, numRuns: 200 });
    expect(outcomes.unmet(10)).toEqual([]);
  });

  test('GitOpsLayout and TenancyReport static methods', () => {
    const outcomes = new OutcomeCounts();
    const app = new TenancyApp({ outdir: 'unused', quiet: true });
    const objects = goodOrGarbage(fc.array(goodOrGarbage(fc.record({
      manifest,
      tenant: goodOrGarbage(fc.constantFrom('team-a', '../x', 'Team A')),
      dependsOn: goodOrGarbage(fc.array(text, { maxLength: 2 })),
    }, { requiredKeys: [] })), { maxLength: 3 }));
    const options = goodOrGarbage(fc.record({ syncWaves: goodOrGarbage(fc.boolean()), managedBy: text }, { requiredKeys: [] }));
    const reportOptions = goodOrGarbage(fc.record({
      title: goodOrGarbage(nastyString),
      objectCount: goodOrGarbage(fc.integer()),
      extraSections: goodOrGarbage(fc.array(goodOrGarbage(nastyString), { maxLength: 2 })),
    }, { requiredKeys: [] }));
    fc.assert(fc.property(text, text, manifest, objects, options, reportOptions, garbage, (a, k, m, os, o, ro, g) => {
      outcomes.run('GitOpsLayout.kindWave', () => GitOpsLayout.kindWave(a as any, k as any));
      outcomes.run('GitOpsLayout.identity', () => GitOpsLayout.identity(m));
      outcomes.run('GitOpsLayout.files', () => GitOpsLayout.files(os as any, o as any));
      outcomes.run('TenancyReport.markdown', () => TenancyReport.markdown(app, ro as any));
      outcomes.run('TenancyReport.facts', () => TenancyReport.facts(g as any));
      outcomes.run('TenancyReport.facts #2', () => TenancyReport.facts(app));
    }), { seed: SEED + 21, numRuns: 500 });
    expect(outcomes.unmet(10, { 'TenancyReport.facts': 'refused', 'TenancyReport.facts #2': 'answered' })).toEqual([]);
  });

  test('FluxKustomizations and OlmHealthChecks', () => {
    const outcomes = new OutcomeCounts();
    // each field mostly one of its good values, else another field's value ('10m' as a path) or garbage
    const word = goodOrGarbage(fc.constantFrom('./dist', 'team-a', '10m', '', '../x', 'Team A', '1h30m', 'GitRepository'));
    const field = (...good: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 8 }, { arbitrary: word, weight: 1 });
    const options = mostlyGood(fc.record({
      path: field('./dist', './clusters/prod'),
      sourceKind: field('GitRepository', 'OCIRepository', 'Bucket'),
      sourceName: field('platform', 'flux-system'),
      namespace: field('flux-system'),
      namePrefix: field('tenant-', 'olm'),
      interval: field('10m', '1h30m'),
      timeout: field('5m'),
      cluster: mostlyGood(fc.boolean()),
      afterInstallCluster: mostlyGood(fc.boolean()),
      // issue 42: tenant identities
      url: field('https://git.example.com/p.git'),
      branch: field('main', 'release/1'),
      serviceAccountName: field('tenancy-applier'),
      tenantIdentities: mostlyGood(fc.boolean()),
    }, { requiredKeys: ['path'] }));
    const selfService = mostlyGood(fc.record({ url: field('https://git.example.com/t.git'), path: field('./deploy'), serviceAccountName: field('self') }, { requiredKeys: ['url'] }));
    const tenants = mostlyGood(fc.array(mostlyGood(fc.record({
      namespace: field('team-a', 'team-b'),
      clusterServiceVersions: mostlyGood(fc.array(field('etcdoperator.v0.9.4'), { maxLength: 2 })),
      afterInstall: mostlyGood(fc.boolean()),
      selfService,
    }, { requiredKeys: ['namespace'] })), { maxLength: 3 }));
    const argoOptions = mostlyGood(fc.record({
      repoUrl: field('https://git.example.com/p.git'),
      path: field('dist', './dist'),
      namespace: field('argocd'),
      sourceRepos: mostlyGood(fc.array(field('https://git.example.com/p.git'), { maxLength: 2 })),
      afterInstallCluster: mostlyGood(fc.boolean()),
    }, { requiredKeys: ['repoUrl', 'path'] }));
    const argoTenants = mostlyGood(fc.array(mostlyGood(fc.record({
      namespace: field('team-a', 'team-b'),
      namespaces: mostlyGood(fc.array(field('team-a', 'team-a-dev'), { maxLength: 2 })),
      clusterKinds: mostlyGood(fc.array(mostlyGood(fc.record({ group: field('olm.operatorframework.io'), kind: field('ClusterExtension') })), { maxLength: 1 })),
      selfService,
    }, { requiredKeys: ['namespace'] })), { maxLength: 3 }));
    fc.assert(fc.property(options, tenants, garbage, argoOptions, argoTenants, (o, t, g, ao, at) => {
      outcomes.run('FluxKustomizations.files', () => FluxKustomizations.files(o as any, t as any));
      outcomes.run('OlmHealthChecks.argoCdConfigMapPatch', () => OlmHealthChecks.argoCdConfigMapPatch(g as any));
      outcomes.run('ArgoCdApplications.files', () => ArgoCdApplications.files(ao as any, at as any));
    }), { seed: SEED + 41, numRuns: 300 });
    expect(outcomes.unmet(10)).toEqual([]);
  });

  test('UpgradeGraph, PermissionDiffs, UpgradeAnalysis, PinnedApproval, SemverRange and BlangSemver', () => {
    const outcomes = new OutcomeCounts();
    const bundles = goodOrGarbage(fc.array(goodOrGarbage(fc.constant(bundle)), { maxLength: 2 }));
    const csvs = goodOrGarbage(fc.array(goodOrGarbage(fc.constantFrom('etcdoperator.v0.9.4', 'x')), { maxLength: 2 }));
    const plan = goodOrGarbage(fc.record({
      metadata: goodOrGarbage(fc.record({ name: text })),
      spec: goodOrGarbage(fc.record({ approval: goodOrGarbage(fc.constantFrom('Manual', 'Automatic')), clusterServiceVersionNames: csvs }, { requiredKeys: [] })),
    }, { requiredKeys: [] }));
    const graph = UpgradeGraph.fromBundles([bundle]);
    const analysisProps = goodOrGarbage(fc.record({
      graph: goodOrGarbage(fc.constant(graph)),
      from: mostlyGood(fc.constant(bundle.name)),
      versionRange: mostlyGood(fc.constantFrom('>=0.9.0', 'nonsense')),
      namespace: mostlyGood(fc.constantFrom('team-a', 'Team A')),
      targetNamespaces: mostlyGood(fc.array(mostlyGood(fc.constant('team-a')), { maxLength: 2 })),
      installerRules: mostlyGood(fc.array(goodRule, { maxLength: 3 })),
    }, { requiredKeys: ['graph', 'from', 'namespace', 'targetNamespaces', 'installerRules'] }));
    const diff = mostlyGood(fc.constant(PermissionDiffs.between(bundle, bundle)).chain((d) => fc.record({
      ...Object.fromEntries(Object.entries(d).map(([k, v]) => [k, mostlyGood(fc.constant(v))])),
    })));
    fc.assert(fc.property(bundles, text, text, analysisProps, diff, plan, csvs, garbage, (bs, ch, pkg, ap, d, p, c, g) => {
      outcomes.run('UpgradeGraph.fromBundles', () => UpgradeGraph.fromBundles(bs as any, ch as any));
      outcomes.run('UpgradeGraph.fromCatalog', () => UpgradeGraph.fromCatalog(g as any, pkg as any, ch as any));
      if (typeof g !== 'string') outcomes.run('UpgradeGraph.fromCatalogPackage', () => UpgradeGraph.fromCatalogPackage(g as any, pkg as any));
      outcomes.run('PermissionDiffs.between', () => PermissionDiffs.between(bs as any, g as any));
      outcomes.run('PermissionDiffs.format', () => PermissionDiffs.format(d as any, ch as any));
      outcomes.run('UpgradeAnalysis.format', () => UpgradeAnalysis.format(UpgradeAnalysis.analyze(ap as any), ch as any));
      outcomes.run('UpgradeAnalysis.format #2', () => UpgradeAnalysis.format(g as any));
      outcomes.run('PinnedApproval.decide', () => PinnedApproval.decide(p, c as any));
      outcomes.run('PinnedApproval.decideAll', () => PinnedApproval.decideAll([p, g], c as any));
      outcomes.run('PinnedInstallPlanApprover.sharedName', () => PinnedInstallPlanApprover.sharedName(ch as any, g as any));
      outcomes.run('TenantBaseline.webhookPolicies', () => TenantBaseline.webhookPolicies(bs as any));
      outcomes.run('TenantBaseline.webhookPolicies #2', () => TenantBaseline.webhookPolicies([g] as any));
      outcomes.run('SemverRange.parse', () => SemverRange.parse(g as any));
      outcomes.run('SemverRange.problem', () => SemverRange.problem(g as any));
      outcomes.run('BlangSemver.problem', () => BlangSemver.problem(g as any));
      outcomes.run('BlangSemver.isValid', () => BlangSemver.isValid(g as any));
      outcomes.run('BlangSemver.normalizeTolerant', () => BlangSemver.normalizeTolerant(g as any));
      outcomes.run('BlangSemver.compare', () => BlangSemver.compare(ch as any, g as any));
    }), { seed: SEED + 22, numRuns: 500 });
    // the checks answer every input; the calls given nothing but garbage refuse it
    expect(outcomes.unmet(10, {
      'SemverRange.problem': 'answered',
      'BlangSemver.problem': 'answered',
      'BlangSemver.isValid': 'answered',
      'BlangSemver.normalizeTolerant': 'answered',
      'UpgradeGraph.fromCatalog': 'refused',
      'UpgradeGraph.fromCatalogPackage': 'refused',
      'PermissionDiffs.between': 'refused',
      'UpgradeAnalysis.format #2': 'refused',
      'TenantBaseline.webhookPolicies #2': 'refused',
      'SemverRange.parse': 'refused',
      'BlangSemver.compare': 'refused',
    })).toEqual([]);
  });

  test('EffectivePower, TenancyAudit and BuiltinRoles', () => {
    const outcomes = new OutcomeCounts();
    const objects = goodOrGarbage(fc.array(goodOrGarbage(fc.record({ manifest, origin: text }, { requiredKeys: [] })), { maxLength: 3 }));
    const word = (...good: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 8 }, { arbitrary: text, weight: 1 });
    const tenant = mostlyGood(fc.record({
      name: word('team-a'),
      namespace: word('team-a'),
      targetNamespaces: mostlyGood(fc.array(word('team-a', 'team-b'), { maxLength: 2 })),
      operatorGroupName: word('og'),
      installerServiceAccountName: word('installer'),
      olmGeneration: mostlyGood(fc.constantFrom(...Object.values(OlmGeneration))),
      bundles: mostlyGood(fc.array(mostlyGood(fc.constant(bundle)), { maxLength: 1 })),
      people: mostlyGood(fc.array(subject, { maxLength: 2 })),
      acceptedReach: mostlyGood(fc.array(mostlyGood(fc.record({
        code: mostlyGood(fc.constantFrom(...Object.values(ReachCode))), subject: word('User:alice'), reason: goodOrGarbage(nastyString),
      })), { maxLength: 1 })),
    }, { requiredKeys: ['name', 'namespace', 'targetNamespaces', 'operatorGroupName', 'installerServiceAccountName'] }));
    const namespace = mostlyGood(fc.constantFrom('team-a', 'kube-system'));
    const role = fc.tuple(mostlyGood(fc.constantFrom('ClusterRole', 'Role')), mostlyGood(fc.constantFrom('admin', 'edit', 'view', 'system:aggregate-to-edit')));
    fc.assert(fc.property(objects, tenant, subject, rules, request, garbage, namespace, role, (os, t, s, rs, req, g, ns, [kind, name]) => {
      outcomes.run('new EffectivePower', () => {
        const power = new EffectivePower(os as any);
        outcomes.run('EffectivePower#of', () => power.of(s as any));
        outcomes.run('EffectivePower#rulesIn', () => power.rulesIn(s as any, ns as any));
      });
      outcomes.run('EffectivePower.label', () => EffectivePower.label(s as any));
      outcomes.run('EffectivePower.allows', () => EffectivePower.allows(rs as any, req as any));
      outcomes.run('EffectivePower.isEverything', () => EffectivePower.isEverything(rs as any));
      outcomes.run('TenancyAudit.report', () => TenancyAudit.report(TenancyAudit.audit({ objects: os, tenants: [t] } as any)));
      outcomes.run('TenancyAudit.objectsOf', () => TenancyAudit.objectsOf(t as any));
      outcomes.run('TenancyAudit.operatorServiceAccounts', () => TenancyAudit.operatorServiceAccounts(g as any));
      outcomes.run('TenancyAudit.ofConstruct', () => TenancyAudit.ofConstruct(g as any));
      outcomes.run('TenancyAudit.report #2', () => TenancyAudit.report(g as any));
      outcomes.run('BuiltinRoles.find #2', () => BuiltinRoles.find(kind as any, name as any, ns as any));
    }), { seed: SEED + 23, numRuns: 500 });
    expect(outcomes.unmet(10, { 'TenancyAudit.ofConstruct': 'refused', 'TenancyAudit.report #2': 'refused' })).toEqual([]);
  });
});
