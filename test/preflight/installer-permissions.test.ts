// InstallerPermissions.leastPrivilege (src/preflight/installer-permissions.ts) on every shared bundle: the derived rules
// pass the install preflight, fresh and upgrade, and none of them is unneeded. Moved from install-preflight.test.ts
// with the engine's own file (issue 39 item 5).
import fc from 'fast-check';
import { codes, load, targetsFor, VERSIONS } from './shared-bundles';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { InstallerPermissions } from '../../src/preflight/installer-permissions';
import { PreflightCode } from '../../src/preflight/preflight-code';
import { PolicyRule } from '../../src/rbac/policy-rule';
import { RbacRules } from '../../src/rbac/rbac-rules';

describe('InstallerPermissions.leastPrivilege on every shared bundle', () => {
  const writers = ['cert-manager', 'keda', 'opentelemetry-operator'];
  const refused = (op: string) => op === 'keda' ? [PreflightCode.WRITES_CRDS_OR_APISERVICES, PreflightCode.GRANTS_ESCALATION_RIGHTS]
    : writers.includes(op) ? [PreflightCode.WRITES_CRDS_OR_APISERVICES] : [];
  test.each(Object.keys(VERSIONS))('%s: derived rules pass the preflight (fresh and upgrade); only CRD/APIService writers keep a problem', (op) => {
    const bundle = load(op);
    const targets = targetsFor(bundle);
    const d = InstallerPermissions.leastPrivilege({ bundles: [bundle], namespace: 'team-a', targetNamespaces: targets, allowClusterScoped: true });
    for (const upgrade of [false, true]) {
      const r = InstallPreflight.check({
        bundle,
        namespace: 'team-a',
        targetNamespaces: targets,
        upgrade,
        installerRules: d.namespacedRules,
        clusterInstallerRules: d.clusterRules,
        otherNamespaceRules: d.otherNamespaceRules,
      });
      expect(r.missing).toEqual([]);
      expect(codes(r)).toEqual(refused(op));
      expect(r.ok).toBe(!writers.includes(op));
    }
    expect(codes(d)).toEqual(refused(op));
  });

  test.each(Object.keys(VERSIONS))('%s: without allowClusterScoped only namespaced rules are derived', (op) => {
    const bundle = load(op);
    const d = InstallerPermissions.leastPrivilege({ bundles: [bundle], namespace: 'team-a', targetNamespaces: targetsFor(bundle) });
    expect(d.clusterRules).toEqual([]);
    expect(d.otherNamespaceRules).toEqual([]);
    const needsOutside = bundle.clusterPermissions.length > 0 || bundle.webhookDefinitions.length > 0;
    expect(codes(d).includes(PreflightCode.NEEDS_CLUSTER_SCOPED_RULES)).toBe(needsOutside);
  });

  test('etcd: the derived Role, read by hand from the CSV and OLM steps', () => {
    const d = InstallerPermissions.leastPrivilege({ bundles: [load('etcd')], namespace: 'team-a', targetNamespaces: ['team-a'] });
    expect(d.namespacedRules.map((r) => RbacRules.format(r, 'team-a'))).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[endpoints,events,persistentvolumeclaims,pods,services] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[] Resources:[secrets] Verbs:[get]',
      'Namespace:"team-a" APIGroups:[] Resources:[serviceaccounts] ResourceNames:[etcd-operator] Verbs:[get,patch]',
      'Namespace:"team-a" APIGroups:[] Resources:[serviceaccounts] Verbs:[create]',
      'Namespace:"team-a" APIGroups:[apps] Resources:[deployments] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[etcd.database.coreos.com] Resources:[etcdbackups,etcdclusters,etcdrestores] Verbs:[*]',
      'Namespace:"team-a" APIGroups:[operators.coreos.com] Resources:[clusterserviceversions] Verbs:[create]',
      'Namespace:"team-a" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings,roles] Verbs:[create,get,patch]',
    ]);
    expect(d.problems).toEqual([]);
  });

  test('property: derived rules never allow escalate, bind or impersonate', () => {
    for (const op of Object.keys(VERSIONS)) {
      const b = load(op);
      const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: targetsFor(b), allowClusterScoped: true });
      const all = [...d.namespacedRules, ...d.clusterRules, ...d.otherNamespaceRules.flatMap((n) => n.rules)];
      for (const [verb, apiGroup, resource] of [['escalate', 'rbac.authorization.k8s.io', 'clusterroles'], ['escalate', 'rbac.authorization.k8s.io', 'roles'],
        ['bind', 'rbac.authorization.k8s.io', 'roles'], ['impersonate', '', 'serviceaccounts'], ['impersonate', '', 'users']]) {
        expect({ op, verb, resource, allowed: RbacRules.allows(all, { verb, apiGroup, resource, name: 'anything' }) }).toEqual({ op, verb, resource, allowed: false });
      }
    }
  });

  test('property: derived rules never allow writing CRDs or APIServices', () => {
    const writes = ['create', 'update', 'patch', 'delete', 'deletecollection'];
    for (const op of Object.keys(VERSIONS)) {
      const b = load(op);
      const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: targetsFor(b), allowClusterScoped: true });
      const all = [...d.namespacedRules, ...d.clusterRules, ...d.otherNamespaceRules.flatMap((n) => n.rules)];
      for (const verb of writes) {
        for (const [apiGroup, resource] of [['apiextensions.k8s.io', 'customresourcedefinitions'], ['apiregistration.k8s.io', 'apiservices']]) {
          for (const name of ['', 'opentelemetrycollectors.opentelemetry.io', 'v1beta1.external.metrics.k8s.io']) {
            const allowed = RbacRules.allows(all, { verb, apiGroup, resource, name });
            expect({ op, verb, resource, name, allowed }).toEqual({ op, verb, resource, name, allowed: false });
          }
        }
      }
    }
  });

  // Exhaustive, not sampled: every atom of every derived rule set of the 12 bundles (about 1,700 atoms).
  // "Fails" = at least one missing rule (writers keep their WritesCrdsOrApiServices problem either way). Only the
  // upgrade path is checked: its requirements include the fresh install's, so a fresh failure is an upgrade failure.
  test.each(Object.keys(VERSIONS))('property: %s: removing any single derived atom (namespaced, cluster, other namespaces) leaves a missing rule', (op) => {
    const b = load(op);
    const targetNamespaces = targetsFor(b);
    const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces, allowClusterScoped: true });
    const ns = RbacRules.breakdown(d.namespacedRules);
    const cluster = RbacRules.breakdown(d.clusterRules);
    const other = d.otherNamespaceRules.map((n) => ({ namespace: n.namespace, rules: RbacRules.breakdown(n.rules) }));
    const missingWithout = (where: string, i: number) => InstallPreflight.check({
      bundle: b,
      namespace: 'team-a',
      targetNamespaces,
      upgrade: true,
      installerRules: where === 'ns' ? ns.filter((_, j) => j !== i) : ns,
      clusterInstallerRules: where === 'cluster' ? cluster.filter((_, j) => j !== i) : cluster,
      otherNamespaceRules: other.map((n) => (where === n.namespace ? { namespace: n.namespace, rules: n.rules.filter((_, j) => j !== i) } : n)),
    }).missing.length;
    const unneeded: string[] = [];
    ns.forEach((a, i) => { if (missingWithout('ns', i) === 0) unneeded.push(RbacRules.format(a, 'team-a')); });
    cluster.forEach((a, i) => { if (missingWithout('cluster', i) === 0) unneeded.push(RbacRules.format(a, '')); });
    for (const n of other) n.rules.forEach((a, i) => { if (missingWithout(n.namespace, i) === 0) unneeded.push(RbacRules.format(a, n.namespace)); });
    expect(ns.length + cluster.length).toBeGreaterThan(0);
    expect(unneeded).toEqual([]);
  });

  test('property: generated CSVs: derived rules pass, contain no CRD/APIService writes, and every atom is needed', () => {
    const rule = fc.record({
      apiGroups: fc.array(fc.constantFrom('', 'apps', 'batch', 'apiextensions.k8s.io', 'apiregistration.k8s.io'), { minLength: 1, maxLength: 2 }),
      resources: fc.array(fc.constantFrom('pods', 'jobs', 'deployments', 'customresourcedefinitions', 'apiservices', 'configmaps'), { minLength: 1, maxLength: 2 }),
      verbs: fc.array(fc.constantFrom('get', 'list', 'create', 'update', 'delete', '*'), { minLength: 1, maxLength: 3 }),
    });
    const gen = fc.record({ ns: fc.array(rule, { maxLength: 3 }), cluster: fc.array(rule, { maxLength: 2 }), webhook: fc.boolean() });
    const bundleArb = gen.map((g) => OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'gen.v1.0.0' },
      spec: {
        installModes: [{ type: 'OwnNamespace', supported: true }],
        webhookdefinitions: g.webhook ? [{ type: 'ValidatingAdmissionWebhook', generateName: 'v.gen.io', deploymentName: 'gen', rules: [{ apiGroups: ['apps'], resources: ['deployments'] }] }] : [],
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'gen', spec: { template: { spec: { serviceAccountName: 'gen' } } } }], permissions: [{ serviceAccountName: 'gen', rules: g.ns }], clusterPermissions: g.cluster.length > 0 ? [{ serviceAccountName: 'gen', rules: g.cluster }] : [] } },
      },
    }));
    fc.assert(fc.property(bundleArb, fc.nat(), (b, k) => {
      const d = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: 'team-a', targetNamespaces: ['team-a'], allowClusterScoped: true });
      const all = [...d.namespacedRules, ...d.clusterRules, ...d.otherNamespaceRules.flatMap((n) => n.rules)];
      expect(RbacRules.breakdown(all).some((a) => ['apiextensions.k8s.io', '*'].includes(a.apiGroups![0]) && ['customresourcedefinitions', '*'].includes(a.resources![0])
        && ['create', 'update', 'delete', '*'].includes(a.verbs[0]))).toBe(false);
      const run = (ns: PolicyRule[], upgrade: boolean) => InstallPreflight.check({
        bundle: b,
        namespace: 'team-a',
        targetNamespaces: ['team-a'],
        upgrade,
        installerRules: ns,
        clusterInstallerRules: d.clusterRules,
        otherNamespaceRules: d.otherNamespaceRules,
      });
      const r = run(d.namespacedRules, true);
      expect(r.missing).toEqual([]);
      expect(r.ok).toBe(d.problems.length === 0);
      const atoms = RbacRules.breakdown(d.namespacedRules);
      const without = atoms.filter((_, i) => i !== k % atoms.length);
      expect(run(without, false).missing.length + run(without, true).missing.length).toBeGreaterThan(0);
    }), { numRuns: 60 });
  });
});
