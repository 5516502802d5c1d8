/**
 * The pure classes with garbage (JavaScript and jsii callers): every static method either answers or throws a plain
 * Error with a readable one-line message; never a TypeError/RangeError. Fixed seeds, fast-check.
 */
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { expectNoCrash, garbage, goodOrGarbage, nastyString, SEED } from './garbage';
import { AccessLevel, Diagnostics, EffectivePower, FluxKustomizations, GitOpsLayout, InstallerPermissions, InstallerRuleChecks, InstallModes, InstallPreflight, OlmGeneration, OlmHealthChecks, OlmNaming, OperatorBundle, OutputLayout, PermissionDiffs, PinnedApproval, PinnedInstallPlanApprover, PolicyRule, PolicyRules, RbacRules, ReachCode, SubjectKind, TenancyApp, TenancyAudit, TenantBaseline, UpgradeAnalysis, UpgradeGraph, SensitiveGrant } from '../../src';
import { BuiltinRoles } from '../../src/audit/builtin-roles';
import { GoDuration } from '../../src/core/go-duration';
import { KubernetesNames, NameRule } from '../../src/core/names';
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
    fc.assert(fc.property(shakyRule, goodOrGarbage(nastyString), (r, ns) => expectNoCrash(() => RbacRules.format(r as any, ns as any))),
      { seed: SEED, numRuns: RUNS });
  });
  test('covers(owner, requested)', () => {
    fc.assert(fc.property(rules, rules, (a, b) => expectNoCrash(() => RbacRules.covers(a as any, b as any))), { seed: SEED + 1, numRuns: RUNS });
  });
  test('allows(rules, request)', () => {
    fc.assert(fc.property(rules, request, (a, r) => expectNoCrash(() => RbacRules.allows(a as any, r as any))), { seed: SEED + 2, numRuns: RUNS });
  });
  test('compact(rules) and breakdown(rules)', () => {
    fc.assert(fc.property(rules, (a) => {
      expectNoCrash(() => RbacRules.compact(a as any));
      expectNoCrash(() => RbacRules.breakdown(a as any));
    }), { seed: SEED + 3, numRuns: RUNS });
  });
  test('validate(rule, namespaced) answers with messages, never throws', () => {
    fc.assert(fc.property(shakyRule, goodOrGarbage(fc.boolean()), (r, namespaced) => {
      const problems = RbacRules.validate(r as any, namespaced as any);
      expect(Array.isArray(problems) && problems.every((p) => typeof p === 'string')).toBe(true);
    }), { seed: SEED + 4, numRuns: RUNS });
  });
  test('PolicyRules.fromJson / toJson', () => {
    fc.assert(fc.property(shakyRule, (r) => {
      expectNoCrash(() => PolicyRules.fromJson(r));
      expectNoCrash(() => PolicyRules.toJson(r as any));
    }), { seed: SEED + 5, numRuns: RUNS });
  });
});

describe('OlmNaming and InstallModes with garbage input (fast-check, fixed seeds)', () => {
  const level = goodOrGarbage(fc.constantFrom(...Object.values(AccessLevel)));
  const text = goodOrGarbage(fc.constantFrom('team-a', 'og', 'EtcdCluster', 'v1', ''));
  test('OlmNaming static methods', () => {
    fc.assert(fc.property(text, text, text, level, goodOrGarbage(fc.constantFrom(...Object.values(OlmGeneration))), (a, b, c, l, g) => {
      expectNoCrash(() => OlmNaming.operatorGroupClusterRoleName(a as any, b as any, l as any, g as any));
      expectNoCrash(() => OlmNaming.providedApiHash(a as any, b as any, c as any));
      expectNoCrash(() => OlmNaming.providedApiAggregationLabel(a as any, b as any, c as any, l as any));
      expectNoCrash(() => OlmNaming.base62FromHex(a as any));
    }), { seed: SEED + 6, numRuns: 300 });
  });
  test('InstallModes static methods', () => {
    const mode = goodOrGarbage(fc.record({ type: goodOrGarbage(fc.constantFrom('OwnNamespace', 'AllNamespaces')), supported: goodOrGarbage(fc.boolean()) }));
    const names = goodOrGarbage(fc.array(goodOrGarbage(fc.constantFrom('team-a', '', 'b')), { maxLength: 3 }));
    fc.assert(fc.property(goodOrGarbage(fc.array(mode, { maxLength: 3 })), text, names, (modes, ns, targets) => {
      expectNoCrash(() => InstallModes.supports(modes as any, ns as any, targets as any));
      expectNoCrash(() => InstallModes.checkTargets(modes as any, ns as any, targets as any));
      expectNoCrash(() => InstallModes.operatorGroupNamespaces(targets as any));
      expectNoCrash(() => InstallModes.parseType(ns as any));
    }), { seed: SEED + 7, numRuns: 300 });
  });
});

describe('other pure entry points with garbage input (fast-check, fixed seeds)', () => {
  test('KubernetesNames, GoDuration, CuratedList, Diagnostics, InstallerRuleChecks answer or throw clear errors', () => {
    fc.assert(fc.property(garbage, goodOrGarbage(fc.constantFrom(...Object.values(NameRule))), rules, (v, rule, rs) => {
      expectNoCrash(() => KubernetesNames.problem(v as any, rule as any));
      expectNoCrash(() => GoDuration.problem(v as any));
      expectNoCrash(() => GoDuration.toSeconds(v as any));
      expectNoCrash(() => CuratedList.problems(v as any));
      expectNoCrash(() => CuratedList.problems([v] as any));
      expectNoCrash(() => Diagnostics.formatMessage(v as any));
      expectNoCrash(() => InstallerRuleChecks.errors(rs as any, { clusterScoped: false }));
      expectNoCrash(() => InstallerRuleChecks.warnings(rs as any, v as any));
      expectNoCrash(() => InstallerRuleChecks.allowedGrantsHeld(rs as any, v as any));
      const everyGrant = { clusterScoped: true, allowedSensitiveGrants: Object.values(SensitiveGrant) };
      expectNoCrash(() => InstallerRuleChecks.allowedGrantsHeld(rs as any, everyGrant));
    }), { seed: SEED + 8, numRuns: 400 });
  });

  test('InstallPreflight.check / checkVersions / format and InstallerPermissions.leastPrivilege', () => {
    const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
    const props = fc.record({
      bundle: goodOrGarbage(fc.constant(bundle)),
      bundles: goodOrGarbage(fc.array(goodOrGarbage(fc.constant(bundle)), { maxLength: 2 })),
      namespace: goodOrGarbage(fc.constantFrom('team-a', '')),
      targetNamespaces: goodOrGarbage(fc.array(goodOrGarbage(fc.constantFrom('team-a', 'b')), { maxLength: 2 })),
      installerRules: rules,
      clusterInstallerRules: rules,
      otherNamespaceRules: goodOrGarbage(fc.array(goodOrGarbage(fc.record({ namespace: goodOrGarbage(fc.constant('kube-system')), rules })), { maxLength: 2 })),
      upgrade: goodOrGarbage(fc.boolean()),
      allowClusterScoped: goodOrGarbage(fc.boolean()),
    }, { requiredKeys: [] });
    fc.assert(fc.property(goodOrGarbage(props), (p) => {
      expectNoCrash(() => InstallPreflight.format(InstallPreflight.check(p as any)));
      expectNoCrash(() => InstallPreflight.checkVersions(p as any));
      expectNoCrash(() => InstallerPermissions.leastPrivilege(p as any));
      expectNoCrash(() => InstallPreflight.format(p as any));
    }), { seed: SEED + 9, numRuns: 300 });
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
    const props = fc.record({
      layout: goodOrGarbage(fc.constantFrom(...Object.values(OutputLayout))),
      syncWaves: goodOrGarbage(fc.boolean()),
      report: goodOrGarbage(fc.boolean()),
      quiet: goodOrGarbage(fc.constant(true)),
      outdir: goodOrGarbage(fc.constant('unused')),
      yamlOutputType: goodOrGarbage(fc.constantFrom(0, 1, 2, 3)),
      recordConstructMetadata: goodOrGarbage(fc.boolean()),
    }, { requiredKeys: [] });
    const approverProps = goodOrGarbage(fc.record({
      namespace: goodOrGarbage(fc.constantFrom('team-a', 'Team A', '')),
      name: goodOrGarbage(fc.constantFrom('approver', 'a/b')),
      image: goodOrGarbage(nastyString),
      schedule: goodOrGarbage(fc.constant('*/5 * * * *')),
      pinnedCsvs: goodOrGarbage(fc.array(goodOrGarbage(fc.constant('etcdoperator.v0.9.4')), { maxLength: 2 })),
    }, { requiredKeys: [] }));
    fc.assert(fc.property(goodOrGarbage(props), approverProps, garbage, (p, ap, csv) => {
      let app: TenancyApp | undefined;
      expect(() => {
        app = new TenancyApp(p as any);
        const chart = new Chart(app, 'c');
        new PinnedInstallPlanApprover(chart, 'A', ap as any).addPinnedCsv(csv as any);
      }).not.toThrow();
      expectNoCrash(() => app!.synthYaml());
    }), { seed: SEED + 20, numRuns: 200 });
  });

  test('GitOpsLayout and TenancyReport static methods', () => {
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
      expectNoCrash(() => GitOpsLayout.kindWave(a as any, k as any));
      expectNoCrash(() => GitOpsLayout.identity(m));
      expectNoCrash(() => GitOpsLayout.files(os as any, o as any));
      expectNoCrash(() => TenancyReport.markdown(app, ro as any));
      expectNoCrash(() => TenancyReport.facts(g as any));
    }), { seed: SEED + 21, numRuns: 500 });
  });

  test('FluxKustomizations and OlmHealthChecks', () => {
    const word = goodOrGarbage(fc.constantFrom('./dist', 'team-a', '10m', '', '../x', 'Team A', '1h30m', 'GitRepository'));
    const options = goodOrGarbage(fc.record({
      path: word,
      sourceKind: word,
      sourceName: word,
      namespace: word,
      namePrefix: word,
      interval: word,
      timeout: word,
      cluster: goodOrGarbage(fc.boolean()),
      afterInstallCluster: goodOrGarbage(fc.boolean()),
    }, { requiredKeys: [] }));
    const tenants = goodOrGarbage(fc.array(goodOrGarbage(fc.record({
      namespace: word, clusterServiceVersions: goodOrGarbage(fc.array(word, { maxLength: 2 })), afterInstall: goodOrGarbage(fc.boolean()),
    }, { requiredKeys: [] })), { maxLength: 3 }));
    fc.assert(fc.property(options, tenants, garbage, (o, t, g) => {
      expectNoCrash(() => FluxKustomizations.files(o as any, t as any));
      expectNoCrash(() => OlmHealthChecks.argoCdConfigMapPatch(g as any));
    }), { seed: SEED + 41, numRuns: 300 });
  });

  test('UpgradeGraph, PermissionDiffs, UpgradeAnalysis, PinnedApproval, SemverRange and BlangSemver', () => {
    const bundles = goodOrGarbage(fc.array(goodOrGarbage(fc.constant(bundle)), { maxLength: 2 }));
    const csvs = goodOrGarbage(fc.array(goodOrGarbage(fc.constantFrom('etcdoperator.v0.9.4', 'x')), { maxLength: 2 }));
    const plan = goodOrGarbage(fc.record({
      metadata: goodOrGarbage(fc.record({ name: text })),
      spec: goodOrGarbage(fc.record({ approval: goodOrGarbage(fc.constantFrom('Manual', 'Automatic')), clusterServiceVersionNames: csvs }, { requiredKeys: [] })),
    }, { requiredKeys: [] }));
    const graph = UpgradeGraph.fromBundles([bundle]);
    const analysisProps = goodOrGarbage(fc.record({
      graph: goodOrGarbage(fc.constant(graph)),
      from: goodOrGarbage(fc.constant(bundle.name)),
      versionRange: goodOrGarbage(fc.constantFrom('>=0.9.0', 'nonsense')),
      namespace: text,
      targetNamespaces: goodOrGarbage(fc.array(text, { maxLength: 2 })),
      installerRules: rules,
    }, { requiredKeys: [] }));
    const diff = goodOrGarbage(fc.constant(PermissionDiffs.between(bundle, bundle)).chain((d) => fc.record({
      ...Object.fromEntries(Object.entries(d).map(([k, v]) => [k, goodOrGarbage(fc.constant(v))])),
    }, { requiredKeys: [] })));
    fc.assert(fc.property(bundles, text, text, analysisProps, diff, plan, csvs, garbage, (bs, ch, pkg, ap, d, p, c, g) => {
      expectNoCrash(() => UpgradeGraph.fromBundles(bs as any, ch as any));
      expectNoCrash(() => UpgradeGraph.fromCatalog(g as any, pkg as any, ch as any));
      if (typeof g !== 'string') expectNoCrash(() => UpgradeGraph.fromCatalogPackage(g as any, pkg as any));
      expectNoCrash(() => PermissionDiffs.between(bs as any, g as any));
      expectNoCrash(() => PermissionDiffs.format(d as any, ch as any));
      expectNoCrash(() => UpgradeAnalysis.format(UpgradeAnalysis.analyze(ap as any), ch as any));
      expectNoCrash(() => UpgradeAnalysis.format(g as any));
      expectNoCrash(() => PinnedApproval.decide(p, c as any));
      expectNoCrash(() => PinnedApproval.decideAll([p, g], c as any));
      expectNoCrash(() => PinnedInstallPlanApprover.sharedName(ch as any, g as any));
      expectNoCrash(() => TenantBaseline.webhookPolicies(bs as any));
      expectNoCrash(() => TenantBaseline.webhookPolicies([g] as any));
      expectNoCrash(() => SemverRange.parse(g as any));
      expectNoCrash(() => SemverRange.problem(g as any));
      expectNoCrash(() => BlangSemver.problem(g as any));
      expectNoCrash(() => BlangSemver.isValid(g as any));
      expectNoCrash(() => BlangSemver.normalizeTolerant(g as any));
      expectNoCrash(() => BlangSemver.compare(ch as any, g as any));
    }), { seed: SEED + 22, numRuns: 500 });
  });

  test('EffectivePower, TenancyAudit and BuiltinRoles', () => {
    const objects = goodOrGarbage(fc.array(goodOrGarbage(fc.record({ manifest, origin: text }, { requiredKeys: [] })), { maxLength: 3 }));
    const tenant = goodOrGarbage(fc.record({
      name: text,
      namespace: text,
      targetNamespaces: goodOrGarbage(fc.array(text, { maxLength: 2 })),
      operatorGroupName: text,
      installerServiceAccountName: text,
      olmGeneration: goodOrGarbage(fc.constantFrom(...Object.values(OlmGeneration))),
      bundles: goodOrGarbage(fc.array(goodOrGarbage(fc.constant(bundle)), { maxLength: 1 })),
      people: goodOrGarbage(fc.array(subject, { maxLength: 2 })),
      acceptedReach: goodOrGarbage(fc.array(goodOrGarbage(fc.record({
        code: goodOrGarbage(fc.constantFrom(...Object.values(ReachCode))), subject: text, reason: goodOrGarbage(nastyString),
      }, { requiredKeys: [] })), { maxLength: 1 })),
    }, { requiredKeys: [] }));
    fc.assert(fc.property(objects, tenant, subject, rules, request, garbage, (os, t, s, rs, req, g) => {
      expectNoCrash(() => {
        const power = new EffectivePower(os as any);
        expectNoCrash(() => power.of(s as any));
        expectNoCrash(() => power.rulesIn(s as any, g as any));
      });
      expectNoCrash(() => EffectivePower.label(s as any));
      expectNoCrash(() => EffectivePower.allows(rs as any, req as any));
      expectNoCrash(() => EffectivePower.isEverything(rs as any));
      expectNoCrash(() => TenancyAudit.report(TenancyAudit.audit({ objects: os, tenants: [t] } as any)));
      expectNoCrash(() => TenancyAudit.objectsOf(t as any));
      expectNoCrash(() => TenancyAudit.operatorServiceAccounts(g as any));
      expectNoCrash(() => TenancyAudit.ofConstruct(g as any));
      expectNoCrash(() => TenancyAudit.report(g as any));
      expectNoCrash(() => BuiltinRoles.find(g as any, s as any, ''));
    }), { seed: SEED + 23, numRuns: 500 });
  });
});
