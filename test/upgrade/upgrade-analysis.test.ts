import * as path from 'path';
import { InstallerPermissions, OperatorBundle, PermissionDiff, PermissionDiffs, UpgradeAnalysis, UpgradeGraph } from '../../src';

const HISTORY = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const ETCD = ['0.9.0', '0.9.2', '0.9.4'].map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, 'etcd', v)));
const PROMETHEUS = ['0.14.0', '0.15.0', '0.22.2', '0.27.0', '0.32.0', '0.37.0', '0.47.0', '0.56.3']
  .map((v) => OperatorBundle.fromDirectory(path.join(HISTORY, 'prometheus', v)));

/** A PermissionDiff with every list empty unless given. */
function diff(from: string, to: string, changes: Partial<PermissionDiff>): PermissionDiff {
  const empty = {
    namespacedRulesAdded: [],
    namespacedRulesRemoved: [],
    clusterRulesAdded: [],
    clusterRulesRemoved: [],
    webhooksAdded: [],
    webhooksRemoved: [],
    apiServicesAdded: [],
    apiServicesRemoved: [],
    crdsAdded: [],
    crdsRemoved: [],
    installModesDropped: [],
    installModesAdded: [],
  };
  const d = { from, to, ...empty, ...changes };
  return { ...d, unchanged: Object.keys(changes).length === 0 };
}

const consecutive = (bundles: OperatorBundle[]) => bundles.slice(1).map((b, i) => PermissionDiffs.between(bundles[i], b));

describe('PermissionDiffs along the published upgrade paths (community-operators-prod bundle history)', () => {
  test('etcd singlenamespace-alpha: 0.9.0 -> 0.9.2 drops AllNamespaces; 0.9.2 -> 0.9.4 changes nothing', () => {
    expect(consecutive(ETCD)).toEqual([
      diff('etcdoperator.v0.9.0', 'etcdoperator.v0.9.2', { installModesDropped: ['AllNamespaces'] }),
      diff('etcdoperator.v0.9.2', 'etcdoperator.v0.9.4', {}),
    ]);
  });

  test('prometheus beta: every step from 0.14.0 to 0.56.3', () => {
    expect(consecutive(PROMETHEUS)).toEqual([
      diff('prometheusoperator.0.14.0', 'prometheusoperator.0.15.0', {}),
      diff('prometheusoperator.0.15.0', 'prometheusoperator.0.22.2', {
        namespacedRulesAdded: [
          { apiGroups: [''], resources: ['namespaces'], verbs: ['watch'] },
          // the operator's own Role asks for CRD writes: the installer would need them too (RBAC escalation check)
          { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['*'] },
          { apiGroups: ['monitoring.coreos.com'], resources: ['alertmanagers/finalizers', 'prometheuses/finalizers', 'prometheusrules'], verbs: ['*'] },
        ],
        crdsAdded: ['prometheusrules.monitoring.coreos.com'],
        installModesDropped: ['AllNamespaces'],
        installModesAdded: ['MultiNamespace'],
      }),
      diff('prometheusoperator.0.22.2', 'prometheusoperator.0.27.0', {
        namespacedRulesAdded: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }],
      }),
      diff('prometheusoperator.0.27.0', 'prometheusoperator.0.32.0', {
        namespacedRulesAdded: [
          { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['delete'] },
          { apiGroups: [''], resources: ['services/finalizers'], verbs: ['create', 'delete', 'get', 'update'] },
          { apiGroups: ['monitoring.coreos.com'], resources: ['podmonitors'], verbs: ['*'] },
        ],
        // nodes list/watch stay: prometheus-k8s still holds them (rules are compared across the CSV's ServiceAccounts)
        namespacedRulesRemoved: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list', 'watch'] }],
        crdsAdded: ['podmonitors.monitoring.coreos.com'],
        installModesDropped: ['MultiNamespace'],
      }),
      diff('prometheusoperator.0.32.0', 'prometheusoperator.0.37.0', { installModesAdded: ['AllNamespaces'] }),
      diff('prometheusoperator.0.37.0', 'prometheusoperator.0.47.0', {
        namespacedRulesAdded: [
          { apiGroups: [''], resources: ['namespaces'], verbs: ['list', 'watch'] },
          { apiGroups: ['extensions', 'networking.k8s.io'], resources: ['ingresses'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['monitoring.coreos.com'], resources: ['alertmanagerconfigs', 'probes', 'thanosrulers', 'thanosrulers/finalizers'], verbs: ['*'] },
        ],
        namespacedRulesRemoved: [
          { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
          { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['*'] },
        ],
        crdsAdded: ['alertmanagerconfigs.monitoring.coreos.com', 'probes.monitoring.coreos.com', 'thanosrulers.monitoring.coreos.com'],
        installModesDropped: ['AllNamespaces'],
      }),
      diff('prometheusoperator.0.47.0', 'prometheusoperator.0.56.3', {
        namespacedRulesAdded: [{ apiGroups: ['monitoring.coreos.com'], resources: ['prometheuses/status'], verbs: ['*'] }],
      }),
    ]);
  });

  test('GIVEN a rule only rewritten (split, reordered, merged) THEN the diff is empty: atoms are compared, not text', () => {
    const csv = (name: string, rules: any[]) => OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name },
      spec: { version: '1.0.0', install: { strategy: 'deployment', spec: { permissions: [{ serviceAccountName: 'op', rules }], deployments: [] } } },
    });
    const a = csv('a.v1', [{ apiGroups: [''], resources: ['pods', 'services'], verbs: ['get', 'list'] }]);
    const b = csv('a.v2', [{ apiGroups: [''], resources: ['services'], verbs: ['list', 'get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }]);
    expect(PermissionDiffs.between(a, b)).toEqual(diff('a.v1', 'a.v2', {}));
    // a wildcard in the old version covers the new verbs; a new wildcard is new power
    const c = csv('a.v3', [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }]);
    expect(PermissionDiffs.between(c, a).namespacedRulesAdded).toEqual([{ apiGroups: [''], resources: ['services'], verbs: ['get', 'list'] }]);
    expect(PermissionDiffs.between(a, c).namespacedRulesAdded).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }]);
  });
});

describe('UpgradeAnalysis', () => {
  test('GIVEN prometheus pinned at 0.47.0 and an installer derived for 0.47.0 only THEN the edge to 0.56.3 fails on prometheuses/status', () => {
    const graph = UpgradeGraph.fromBundles(PROMETHEUS);
    const pinned = InstallerPermissions.leastPrivilege({ bundles: [PROMETHEUS[6]], namespace: 'team-m', targetNamespaces: ['team-m'] });
    const result = UpgradeAnalysis.analyze({ graph, from: 'prometheusoperator.0.47.0', namespace: 'team-m', targetNamespaces: ['team-m'], installerRules: pinned.namespacedRules });
    expect(result.allowedVersions).toEqual(['prometheusoperator.0.56.3']);
    expect(result.edges.map((e) => ({ edge: e.edge, ok: e.preflight?.ok, missing: e.preflight?.missing.map((m) => m.formatted) }))).toEqual([{
      edge: { from: 'prometheusoperator.0.47.0', fromVersion: '0.47.0', to: 'prometheusoperator.0.56.3', toVersion: '0.56.3', via: ['replaces'], preferred: true },
      ok: false,
      missing: ['Namespace:"team-m" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*]'],
    }]);
    expect(result.ok).toBe(false);
    expect(UpgradeAnalysis.format(result, 'team-m')).toEqual([
      'prometheus (channel beta) from prometheusoperator.0.47.0: 1 allowed upgrade(s), NOT all pass the preflight',
      'prometheusoperator.0.47.0 -> prometheusoperator.0.56.3 (replaces, preferred by OLM): would FAIL',
      '  missing Namespace:"team-m" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*]',
      '  + Namespace:"team-m" APIGroups:[monitoring.coreos.com] Resources:[prometheuses/status] Verbs:[*]',
    ]);
  });

  test('GIVEN an installer derived for the whole allowed range THEN every edge passes', () => {
    const graph = UpgradeGraph.fromBundles(ETCD);
    const derived = InstallerPermissions.leastPrivilege({ bundles: ETCD, namespace: 'team-a', targetNamespaces: ['team-a'] });
    const result = UpgradeAnalysis.analyze({ graph, from: 'etcdoperator.v0.9.0', namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: derived.namespacedRules });
    expect(result.edges.map((e) => [`${e.edge.from} -> ${e.edge.to}`, e.preflight?.ok])).toEqual([
      ['etcdoperator.v0.9.0 -> etcdoperator.v0.9.2', true],
      ['etcdoperator.v0.9.2 -> etcdoperator.v0.9.4', true],
    ]);
    expect({ ok: result.ok, missingBundles: result.missingBundles, graphProblems: result.graphProblems })
      .toEqual({ ok: true, missingBundles: [], graphProblems: [] });
    expect(UpgradeAnalysis.format(result, 'team-a')).toEqual([
      'etcd (channel singlenamespace-alpha) from etcdoperator.v0.9.0: 2 allowed upgrade(s), all pass the preflight',
      'etcdoperator.v0.9.0 -> etcdoperator.v0.9.2 (replaces, preferred by OLM): upgrades',
      '  - install mode AllNamespaces (dropped)',
      'etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 (replaces, preferred by OLM): upgrades',
      '  no permission change',
    ]);
  });

  test('GIVEN a graph without bundles THEN the walked versions are listed as not checked', () => {
    const graph = new UpgradeGraph({ packageName: 'foo', channel: 'stable', entries: [{ name: 'foo.v1', version: '1.0.0' }, { name: 'foo.v2', version: '2.0.0', replaces: 'foo.v1' }] });
    const result = UpgradeAnalysis.analyze({ graph, from: 'foo.v1', versionRange: '>=1.0.0', namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] });
    expect(result).toEqual({
      packageName: 'foo',
      channel: 'stable',
      from: 'foo.v1',
      versionRange: '>=1.0.0',
      allowedVersions: ['foo.v2'],
      edges: [{ edge: { from: 'foo.v1', fromVersion: '1.0.0', to: 'foo.v2', toVersion: '2.0.0', via: ['replaces'], preferred: true } }],
      missingBundles: ['foo.v1', 'foo.v2'],
      graphProblems: [],
      ok: false,
    });
  });
});
