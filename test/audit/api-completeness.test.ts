/**
 * Issue 37, complete by construction: every (group, resource[/subresource], verb) of the built-in API of the newest
 * Kubernetes release (test/fixtures/kubernetes-api, through test/util/kubernetes-api.ts) and of the OLM v0/v1 CRDs of
 * crds/, and every authorization check discovery does not list, is covered by a mechanism the model follows (a deputy
 * row, a sensitive grant, an additive policy kind, one of its own checks) or by a recorded decision, with its reason
 * (src/audit/mechanisms/api-decisions.ts). A new release's table shows up here as undecided pairs.
 */
import { InstallerRuleChecks } from '../../src/audit/installer-rule-checks';
import { API_DECISIONS, apiCoverage } from '../../src/audit/mechanisms/api-decisions';
import { DEPUTIES } from '../../src/audit/mechanisms/deputies';
import { authorizationVerbs, builtinApi, KUBERNETES_API_RELEASE } from '../util/kubernetes-api';

const PROBES = InstallerRuleChecks._probes();

/** Every pair of the table, once: `group resource[/sub] verb`. */
function pairs(): Array<[string, string, string]> {
  const out = new Map<string, [string, string, string]>();
  for (const row of builtinApi()) {
    const resource = row.subresource ? `${row.resource}/${row.subresource}` : row.resource;
    for (const verb of row.verbs) out.set(`${row.group} ${resource} ${verb}`, [row.group, resource, verb]);
  }
  for (const row of authorizationVerbs()) {
    if (!row.inRelease || row.resource === '*') continue;
    const resource = row.subresource && !row.subresource.startsWith('<') ? `${row.resource}/${row.subresource}` : row.resource;
    for (const verb of row.verbs) out.set(`${row.group} ${resource} ${verb}`, [row.group, resource, verb]);
  }
  return [...out.values()].sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1));
}

describe(`every pair of Kubernetes ${KUBERNETES_API_RELEASE} and the OLM CRDs has a mechanism or a decision`, () => {
  const all = pairs();

  test('no pair is undecided', () => {
    const undecided = all.filter(([g, r, v]) => apiCoverage(g, r, v, PROBES) === undefined).map((p) => p.join(' '));
    expect(undecided).toEqual([]);
  });

  test('not vacuous: the table has the pairs the mechanisms are about, covered by them', () => {
    const by = (g: string, r: string, v: string) => apiCoverage(g, r, v, PROBES)?.by;
    expect([
      by('', 'secrets', 'patch'), by('', 'secrets', 'deletecollection'), by('', 'secrets', 'update'), by('', 'pods', 'create'), by('apps', 'controllerrevisions', 'patch'),
      by('operators.coreos.com', 'clusterserviceversions', 'patch'), by('operators.coreos.com', 'installplans/status', 'update'), by('olm.operatorframework.io', 'clusterextensions', 'create'),
      by('rbac.authorization.k8s.io', 'clusterrolebindings', 'delete'), by('networking.k8s.io', 'networkpolicies', 'create'), by('authentication.k8s.io', 'serviceaccounts', 'impersonate:serviceaccount'),
      by('certificates.k8s.io', 'certificatesigningrequests/nodeclient', 'create'),
    ]).toEqual([
      'grant:SECRETS_READ_CLUSTER_WIDE', 'grant:SECRETS_READ_CLUSTER_WIDE', 'decision', 'deputy:pods', 'deputy:child-controllerrevisions',
      'deputy:olm-csv', 'deputy:olm-installplan-steps', 'deputy:olm-v1-installs',
      'grant:DESTRUCTIVE_CLUSTER_WRITES', 'grant:NETWORK_POLICY_WRITES', 'deputy:impersonation',
      'model:EffectivePower',
    ]);
    expect(all.length).toBeGreaterThan(800);
  });

  test('a pair of a resource nobody decided about fails (what a new release looks like)', () => {
    expect(apiCoverage('example.k8s.io', 'widgets', 'create', PROBES)).toBeUndefined();
    expect(apiCoverage('', 'pods', 'frobnicate', PROBES)).toBeUndefined();
  });

  test('constrained impersonation: the impersonate-on check of every mode is one the model reads', () => {
    const onRow = authorizationVerbs().find((r) => r.resource === '*' && r.verbs.some((v) => v.startsWith('impersonate-on:')))!;
    const modes = onRow.verbs.map((v) => /^impersonate-on:([^:]+):<verb>$/.exec(v)?.[1]).sort();
    const primary = DEPUTIES.find((d) => d.id === 'impersonation')!.verbs.filter((v) => v.startsWith('impersonate:')).map((v) => v.slice('impersonate:'.length)).sort();
    expect(modes).toEqual(primary);
  });

  test('every decision names resources of the table (no stale decision), never a wildcard, and gives a reason', () => {
    const known = new Set(all.map(([g, r]) => `${g} ${r}`));
    const stale = API_DECISIONS.flatMap((d) => d.resources.filter((r) => !known.has(`${d.group} ${r}`)).map((r) => `${d.group} ${r}`));
    expect(stale).toEqual([]);
    expect(API_DECISIONS.filter((d) => d.resources.some((r) => r.includes('*')) || d.reason.trim().length < 20)).toEqual([]);
  });
});
