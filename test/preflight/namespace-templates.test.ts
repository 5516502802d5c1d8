/**
 * The caches behind thousands of tenants (derivation and preflight per bundle and install shape, instantiated per
 * namespace; compaction and installer-rule checks per rule list) must give exactly what the uncached code gives.
 * Each case runs both ways: `CACHING.enabled = false` computes afresh.
 */
import * as fs from 'fs';
import * as path from 'path';
import { InstallerRuleChecks, SensitiveGrant } from '../../src/audit/installer-rule-checks';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CACHING } from '../../src/core/content-cache';
import { DefaultInstallerRules } from '../../src/preflight/default-installer-rules';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { InstallerPermissions } from '../../src/preflight/installer-permissions';
import { PolicyRule } from '../../src/rbac/policy-rule';
import { RbacRules } from '../../src/rbac/rbac-rules';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const bundles: OperatorBundle[] = fs.readdirSync(BUNDLES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => fs.readdirSync(path.join(BUNDLES, d.name)).map((v) => OperatorBundle.fromDirectory(path.join(BUNDLES, d.name, v))));

/** Namespaces that sort before and after 'kube-system', equal the model's own namespaces, or look like a placeholder. */
const NAMESPACES = ['team-a', 'a', 'kube-public', 'kube-system', 'kube-systen', 'zeta', 'default', 'olm', 'z9-cdk8s-olm-tenancy-namespace-placeholder', 'a0'];

/** Runs `fn` uncached, then cached twice (cold and warm): all three must be equal, with the same JSON key order. */
function sameEitherWay<T>(fn: () => T): T {
  CACHING.enabled = false;
  let fresh: T;
  try {
    fresh = fn();
  } finally {
    CACHING.enabled = true;
  }
  const cold = fn();
  const warm = fn();
  expect(cold).toEqual(fresh);
  expect(warm).toEqual(fresh);
  expect(JSON.stringify(warm)).toEqual(JSON.stringify(fresh));
  return fresh;
}

test('the fixtures hold several bundles', () => {
  expect(bundles.length).toBeGreaterThanOrEqual(12);
});

describe('InstallerPermissions.leastPrivilege: cached per bundle and install shape, equal to uncached', () => {
  for (const ns of NAMESPACES) {
    test(`namespace ${ns}`, () => {
      for (const bundle of bundles) {
        for (const targets of [[ns], [], [ns, 'kube-system'], ['other', ns], ['zz-other']]) {
          for (const allowClusterScoped of [false, true]) {
            sameEitherWay(() => InstallerPermissions.leastPrivilege({
              bundles: [bundle], namespace: ns, targetNamespaces: targets, allowClusterScoped,
            }));
          }
        }
      }
    });
  }

  test('two bundles at once, and the same bundles in another namespace', () => {
    const two = [bundles[0], bundles[1]];
    const a = sameEitherWay(() => InstallerPermissions.leastPrivilege({ bundles: two, namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true }));
    const b = sameEitherWay(() => InstallerPermissions.leastPrivilege({ bundles: two, namespace: 'team-b', targetNamespaces: ['team-b'], allowClusterScoped: true }));
    expect(JSON.stringify(b)).toEqual(JSON.stringify(a).split('team-a').join('team-b'));
  });
});

describe('InstallPreflight.check: cached per bundle, rules and install shape, equal to uncached', () => {
  for (const ns of ['team-a', 'a', 'kube-system', 'zeta', 'default']) {
    test(`namespace ${ns}`, () => {
      for (const bundle of bundles) {
        const derived = InstallerPermissions.leastPrivilege({ bundles: [bundle], namespace: ns, targetNamespaces: [ns], allowClusterScoped: true });
        const ruleSets: Array<{
          installerRules: PolicyRule[];
          clusterInstallerRules?: PolicyRule[];
          otherNamespaceRules?: Array<{ namespace: string; rules: PolicyRule[] }>;
        }> = [
          { installerRules: DefaultInstallerRules.okdScopedInstall() },
          { installerRules: derived.namespacedRules },
          { installerRules: derived.namespacedRules, clusterInstallerRules: derived.clusterRules, otherNamespaceRules: derived.otherNamespaceRules },
          { installerRules: [], otherNamespaceRules: [{ namespace: 'aaa', rules: derived.namespacedRules }] },
        ];
        for (const rules of ruleSets) {
          for (const targets of [[ns], ['other', ns]]) {
            for (const upgrade of [targets.length === 1]) {
              sameEitherWay(() => InstallPreflight.check({ bundle, namespace: ns, targetNamespaces: targets, upgrade, ...rules }));
            }
          }
        }
      }
    });
  }

  test('a bad namespace is still reported', () => {
    expect(() => InstallPreflight.check({ bundle: bundles[0], namespace: '', targetNamespaces: [], installerRules: [] })).toThrow(
      'InstallPreflight.check: \'namespace\' must be the OperatorGroup\'s namespace, got ""',
    );
  });
});

describe('rule lists: compaction and installer-rule checks cached by content, equal to uncached', () => {
  const lists: PolicyRule[][] = [
    DefaultInstallerRules.okdScopedInstall(),
    [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind', 'escalate'], resourceNames: ['x'] }, { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }],
    [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['create'] }, { nonResourceUrls: ['/healthz'], verbs: ['get'] }],
    [{ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: undefined }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    ...bundles.map((b) => InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true }).clusterRules),
  ];
  test.each(lists.map((l, i) => [i, l] as const))('list %i', (_i, rules) => {
    sameEitherWay(() => RbacRules.compact(rules));
    for (const clusterScoped of [false, true]) {
      for (const allowedSensitiveGrants of [undefined, [SensitiveGrant.BIND]]) {
        sameEitherWay(() => InstallerRuleChecks.errors(rules, { clusterScoped, allowedSensitiveGrants, field: 'installerRules' }));
      }
    }
  });

  test('callers get copies: changing a result does not change the next one', () => {
    const rules = DefaultInstallerRules.okdScopedInstall();
    const first = RbacRules.compact(rules);
    first[0].verbs.push('mutated');
    expect(RbacRules.compact(rules)[0].verbs).not.toContain('mutated');
    const derived = InstallerPermissions.leastPrivilege({ bundles: [bundles[0]], namespace: 'team-a', targetNamespaces: ['team-a'] });
    derived.namespacedRules[0].verbs.push('mutated');
    expect(InstallerPermissions.leastPrivilege({ bundles: [bundles[0]], namespace: 'team-a', targetNamespaces: ['team-a'] }).namespacedRules[0].verbs).not.toContain('mutated');
  });

  test('lists that are not plain rules are computed uncached, with the same errors', () => {
    expect(() => RbacRules.compact([null as any])).toThrow('RbacRules.compact: a rule must be an object with \'verbs\', got null');
    // the exact errors, each call computing its own list (not a cached one: a caller may change it)
    const once = InstallerRuleChecks.errors([undefined as any], { clusterScoped: false });
    const again = InstallerRuleChecks.errors([undefined as any], { clusterScoped: false });
    const expected = [{ code: 'InvalidInstallerRule', field: 'installerRules[0]', message: 'rule must be an object, got undefined', fix: 'correct or remove the rule' }];
    expect(once).toEqual(expected);
    expect(again).toEqual(expected);
    expect(again).not.toBe(once);
    expect(InstallerRuleChecks.errors([null as any], { clusterScoped: false })[0].message).toEqual('rule must be an object, got null');
    expect(InstallerRuleChecks.errors([undefined as any], { clusterScoped: false })[0].message).toEqual('rule must be an object, got undefined');
  });
});
