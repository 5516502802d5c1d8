/**
 * The pure classes with garbage (JavaScript and jsii callers): every static method either answers or throws a plain
 * Error with a readable one-line message; never a TypeError/RangeError. Fixed seeds, fast-check.
 */
import * as path from 'path';
import * as fc from 'fast-check';
import { expectNoCrash, garbage, goodOrGarbage, nastyString, SEED } from './garbage';
import {
  AccessLevel, CuratedList, Diagnostics, GoDuration, InstallerPermissions, InstallerRuleChecks, InstallModes, InstallPreflight,
  KubernetesNames, NameRule, OlmGeneration, OlmNaming, OperatorBundle, PolicyRule, PolicyRules, RbacRules,
} from '../../src';

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
