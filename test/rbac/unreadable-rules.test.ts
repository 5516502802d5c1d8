/**
 * The RBAC engine refuses input it cannot read (issue 29): every public entry point that takes rules is fed the
 * manifest spelling `nonResourceURLs` (Kubernetes JSON; the PolicyRule prop is `nonResourceUrls`) and a typo
 * (`resourcez`), and answers with an error naming the key and the prop meant, never with an answer for a rule read
 * without the key (`RbacRules.covers([], [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }])` used to be
 * `{ covered: true }`). A table entry per entry point; the last test finds the entry points in src/ and checks the
 * table has them all.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  CompactClusterRole, CompactRole, EffectivePower, InstallerRuleChecks, InstallPreflight, OperatorBundle, PolicyRule, PolicyRules, RbacRules,
  ScopedOperatorTenant, UpgradeAnalysis, UpgradeGraph,
} from '../../src';

const ETCD = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
const MANIFEST_SPELLING = { nonResourceURLs: ['/metrics'], verbs: ['get'] } as unknown as PolicyRule;
const TYPO = { apiGroups: [''], resourcez: ['pods'], verbs: ['get'] } as unknown as PolicyRule;
const GOOD: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };

/** What a call reports: its thrown message, or the synth errors of the chart it builds. */
function report(call: (rule: PolicyRule, chart: Chart) => unknown, rule: PolicyRule): string {
  const chart = new Chart(Testing.app(), 'platform');
  let result: unknown;
  try {
    result = call(rule, chart);
  } catch (e) {
    return (e as Error).message;
  }
  const errors = chart.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) return errors.join('\n');
  try {
    return `ANSWERED ${JSON.stringify(result)}`;
  } catch {
    return `ANSWERED ${String(result)}`; // a construct
  }
}

/** Every public entry point that takes rules, by `Owner.member` (a method, or a prop of a props struct). */
const ENTRY_POINTS: Record<string, (rule: PolicyRule, chart: Chart) => unknown> = {
  'RbacRules.covers(owner)': (rule) => RbacRules.covers([rule], [GOOD]),
  'RbacRules.covers(requested)': (rule) => RbacRules.covers([], [rule]),
  'RbacRules.allows': (rule) => RbacRules.allows([rule], { verb: 'get', nonResourcePath: '/metrics' }),
  'RbacRules.compact': (rule) => RbacRules.compact([rule]),
  'RbacRules.validate': (rule) => {
    const problems = RbacRules.validate(rule);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return problems;
  },
  'RbacRules.breakdown': (rule) => RbacRules.breakdown([rule]),
  'RbacRules.format': (rule) => RbacRules.format(rule, ''),
  'PolicyRules.toJson': (rule) => PolicyRules.toJson(rule),
  'EffectivePower.allows': (rule) => EffectivePower.allows([rule], { verb: 'get', nonResourcePath: '/metrics' }),
  'EffectivePower.isEverything': (rule) => EffectivePower.isEverything([rule]),
  'InstallerRuleChecks.errors': (rule) => InstallerRuleChecks.errors([rule], { clusterScoped: true }),
  'InstallerRuleChecks.warnings': (rule) => InstallerRuleChecks.warnings([rule], { clusterScoped: true }),
  'InstallerRuleChecks.bundleAcceptedGrants': (rule) => InstallerRuleChecks.bundleAcceptedGrants([rule], { clusterScoped: false }),
  'InstallerRuleChecks.allowedGrantsHeld': (rule) => InstallerRuleChecks.allowedGrantsHeld([rule], { clusterScoped: true }),
  'InstallerRuleChecks.sensitiveGrantsHeld': (rule) => InstallerRuleChecks.sensitiveGrantsHeld([rule], { clusterScoped: true }),
  'InstallerRuleCheckOptions.bundleGrantedRules': (rule) => InstallerRuleChecks.errors([GOOD], { clusterScoped: false, bundleGrantedRules: [rule] }),
  'ScopedOperatorTenantProps.installerRules': (rule, chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [rule] }),
  'ScopedOperatorTenantProps.clusterInstallerRules': (rule, chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', clusterInstallerRules: [rule] }),
  'ScopedOperatorTenant.addInstallerRule': (rule, chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' }).addInstallerRule(rule),
  'ScopedOperatorTenant.addClusterInstallerRule': (rule, chart) => new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' }).addClusterInstallerRule(rule),
  'CompactRoleProps.rules': (rule, chart) => new CompactRole(chart, 'R', { name: 'r', namespace: 'team-a', rules: [rule] }),
  'CompactRole.addRules': (rule, chart) => new CompactRole(chart, 'R', { name: 'r', namespace: 'team-a' }).addRules(rule),
  'CompactClusterRoleProps.rules': (rule, chart) => new CompactClusterRole(chart, 'R', { name: 'r', rules: [rule] }),
  'CompactClusterRole.addRules': (rule, chart) => new CompactClusterRole(chart, 'R', { name: 'r' }).addRules(rule),
  'InstallPreflightProps.installerRules': (rule) => InstallPreflight.check({ bundle: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [rule] }),
  'InstallPreflightProps.clusterInstallerRules': (rule) => InstallPreflight.check({ bundle: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], clusterInstallerRules: [rule] }),
  'InstallPreflightProps.otherNamespaceRules': (rule) => InstallPreflight.check({ bundle: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], otherNamespaceRules: [{ namespace: 'olm', rules: [rule] }] }),
  'VersionsPreflightProps.installerRules': (rule) => InstallPreflight.checkVersions({ bundles: [ETCD], namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [rule] }),
  'VersionsPreflightProps.clusterInstallerRules': (rule) => InstallPreflight.checkVersions({ bundles: [ETCD], namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], clusterInstallerRules: [rule] }),
  'VersionsPreflightProps.otherNamespaceRules': (rule) => InstallPreflight.checkVersions({ bundles: [ETCD], namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], otherNamespaceRules: [{ namespace: 'olm', rules: [rule] }] }),
  'UpgradeAnalysisProps.installerRules': (rule) => UpgradeAnalysis.analyze({ graph: UpgradeGraph.fromBundles([ETCD]), from: ETCD.name, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [rule] }),
  'UpgradeAnalysisProps.clusterInstallerRules': (rule) => UpgradeAnalysis.analyze({
    graph: UpgradeGraph.fromBundles([ETCD]), from: ETCD.name, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], clusterInstallerRules: [rule],
  }),
  'UpgradeAnalysisProps.otherNamespaceRules': (rule) => UpgradeAnalysis.analyze({
    graph: UpgradeGraph.fromBundles([ETCD]), from: ETCD.name, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], otherNamespaceRules: [{ namespace: 'olm', rules: [rule] }],
  }),
};

/**
 * Entry points that take a rule but are not in the table, and why. `isFullWildcard` is a predicate the checks call
 * on every rule they were given (already refused above when unreadable): a rule it cannot read is no wildcard.
 */
const NOT_IN_TABLE: Record<string, string> = {
  'InstallerRuleChecks.isFullWildcard': 'a predicate over rules the entry points above have checked; false for anything else',
};

describe('every public entry point that takes rules refuses a rule it cannot read', () => {
  test.each(Object.keys(ENTRY_POINTS))('%s: the manifest spelling nonResourceURLs is an error pointing to nonResourceUrls', (name) => {
    const text = report(ENTRY_POINTS[name], MANIFEST_SPELLING);
    expect(text).toContain('has "nonResourceURLs", the Kubernetes JSON spelling; a PolicyRule has no prop "nonResourceURLs"; did you mean "nonResourceUrls"?');
    expect(text).toContain('rename it to nonResourceUrls (or read the manifest\'s rule with PolicyRules.fromJson, which reads nonResourceURLs)');
    // RbacRules.validate returns its problems as text, without codes
    if (name !== 'RbacRules.validate') expect(text).toContain('(UnknownProp)');
    // never the misleading "must supply at least one api group" of a rule read without its URLs
    expect(text).not.toContain('api group');
  });

  test.each(Object.keys(ENTRY_POINTS))('%s: a typo is an error with the nearest prop', (name) => {
    const text = report(ENTRY_POINTS[name], TYPO);
    expect(text).toContain('has "resourcez", but a PolicyRule has no prop "resourcez"; did you mean "resources"?');
    expect(text).toContain('rename it to resources');
  });

  test.each(Object.keys(ENTRY_POINTS))('%s: the same rule spelled as the struct is read', (name) => {
    expect(report(ENTRY_POINTS[name], GOOD)).not.toContain('UnknownProp');
  });

  test('the issue 29 cases, exactly', () => {
    expect(() => RbacRules.covers([], [MANIFEST_SPELLING])).toThrow(
      'RbacRules.covers: requested[0]: rule.nonResourceURLs="[\\"/metrics\\"]": rule has "nonResourceURLs", the Kubernetes JSON spelling; a PolicyRule has no prop '
      + '"nonResourceURLs"; did you mean "nonResourceUrls"? Fix: rename it to nonResourceUrls (or read the manifest\'s rule with PolicyRules.fromJson, which reads '
      + 'nonResourceURLs) (UnknownProp)');
    // read with PolicyRules.fromJson, the manifest's rule is the URL rule it says
    expect(RbacRules.covers([], [PolicyRules.fromJson({ nonResourceURLs: ['/metrics'], verbs: ['get'] })])).toEqual({
      covered: false, missing: [{ nonResourceUrls: ['/metrics'], verbs: ['get'] }],
    });
    expect(report(ENTRY_POINTS['ScopedOperatorTenantProps.clusterInstallerRules'], MANIFEST_SPELLING)).toEqual(
      'clusterInstallerRules[0].nonResourceURLs="[\\"/metrics\\"]": clusterInstallerRules[0] has "nonResourceURLs", the Kubernetes JSON spelling; a PolicyRule has no '
      + 'prop "nonResourceURLs"; did you mean "nonResourceUrls"? Fix: rename it to nonResourceUrls (or read the manifest\'s rule with PolicyRules.fromJson, which reads '
      + 'nonResourceURLs) (UnknownProp)');
  });

  test('a rule of neither resources nor URLs: refused where an answer would be vacuous or the API server refuses it', () => {
    const empty = { verbs: ['get'] } as PolicyRule;
    // a requested rule of nothing used to be "covered" by any owner
    expect(() => RbacRules.covers([], [empty])).toThrow('RbacRules.covers: requested[0]: rule="{\\"verbs\\":[\\"get\\"]}": rule has neither resources nor nonResourceUrls');
    expect(report(ENTRY_POINTS['ScopedOperatorTenantProps.installerRules'], empty)).toEqual(
      'installerRules[0]="{\\"verbs\\":[\\"get\\"]}": installerRules[0] has neither resources nor nonResourceUrls: it names nothing (the API server refuses it, and '
      + 'no check can read what it was meant to grant). Fix: list the resources (with apiGroups), e.g. { apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }, '
      + 'or the URLs, e.g. { nonResourceUrls: ["/metrics"], verbs: ["get"] } (MissingInput)');
    // asked what it allows, or what it grants, a rule of nothing allows and grants nothing (a true answer)
    expect(RbacRules.allows([empty], { verb: 'get', resource: 'pods' })).toBe(false);
    expect(RbacRules.compact([empty])).toEqual([]);
    expect(RbacRules.covers([empty], [GOOD])).toEqual({ covered: false, missing: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
  });

  test('the table names every public method and props field of src/ that takes rules', () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'imports') walk(p);
          continue;
        }
        if (!e.name.endsWith('.ts')) continue;
        let owner: string | undefined;
        for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
          const decl = /^export (?:abstract )?(class|interface) (\w+)/.exec(line);
          if (decl) owner = decl[2];
          const method = /^ {2}public (?:static )?([a-zA-Z]\w*)\(([^)]*)\)/.exec(line);
          if (method && owner && method[2].includes('PolicyRule')) found.push(`${owner}.${method[1]}`);
          const field = /^ {2}readonly (\w+)\??: (?:PolicyRule\[\]|NamespaceRules\[\]|PolicyRule);/.exec(line);
          if (field && owner && /(Props|Options)$/.test(owner)) found.push(`${owner}.${field[1]}`);
        }
      }
    };
    walk(path.join(__dirname, '..', '..', 'src'));
    const internal = new Set(['InstallerRbac.addRule', 'InstallerRbac.addClusterRule', 'InstallerRbac.isDerivedNamedBind']); // not exported (src/tenant/rbac/installer-rbac.ts)
    const covered = new Set([...Object.keys(ENTRY_POINTS).map((k) => k.replace(/\(.*\)$/, '')), ...Object.keys(NOT_IN_TABLE)]);
    expect(found.filter((f) => !internal.has(f) && !covered.has(f))).toEqual([]);
    expect(found.length).toBeGreaterThan(30);
  });
});
