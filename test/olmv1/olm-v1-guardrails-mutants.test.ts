/**
 * OlmV1TeamGuardrails built inside each test (issue 28, mutation target `guardrails`): the policy's parts that the
 * tests of olm-v1-team.test.ts check on a policy built once per describe block (Stryker's per-test coverage then
 * never runs them against a mutant of the constructor): the object around the CEL, the exact messages of every
 * validation, each combination of the spec.config switches, packages without a range or with channels, an allowed
 * range without upper bound, the name prefixes of longer teams, and deterministic output for inputs in any order.
 * Every CEL expression is evaluated with @bufbuild/cel by the strict helper (an evaluation error fails the test).
 */
import { ApiObject } from 'cdk8s';
import { admit, appAndChart, validationErrors } from './helpers';
import { OlmV1TeamGuardrails } from '../../src/olmv1/olm-v1-team-guardrails';
import { OlmV1TeamGuardrailsProps } from '../../src/olmv1/olm-v1-team-guardrails-props';

const BASE: OlmV1TeamGuardrailsProps = {
  team: 't',
  groups: ['t-admins'],
  namespaces: ['observability', 'monitoring'],
  catalogTeam: 'shared',
  packages: [{ name: 'b-op', channels: ['stable', 'fast'] }, { name: 'a-op', versionRange: '>=1.0.0 <2.0.0' }, { name: 'c-op' }],
};
function guardrails(extra: Partial<OlmV1TeamGuardrailsProps> = {}) {
  const { app, chart } = appAndChart();
  const g = new OlmV1TeamGuardrails(chart, 'G', { ...BASE, ...extra });
  return { app, chart, g, policy: () => (g.node.findChild('Policy') as ApiObject).toJson() };
}
const policyOf = (g: OlmV1TeamGuardrails) => (g.node.findChild('Policy') as ApiObject).toJson();
const req = (operation: string, groups = ['t-admins']) => ({
  kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation, userInfo: { username: 'u', groups },
});
/** A ClusterExtension the BASE guardrails admit, with `spec` and `metadata` fields replaced. */
const CE = (spec: any = {}, metadata: any = {}) => ({
  apiVersion: 'olm.operatorframework.io/v1',
  kind: 'ClusterExtension',
  metadata: { name: 't-op', labels: { 'olm-tenancy.io/team': 't' }, ...metadata },
  spec: {
    namespace: 'monitoring',
    source: { sourceType: 'Catalog', catalog: { packageName: 'c-op', selector: { matchLabels: { 'olm-tenancy.io/team': 'shared' } } } },
    ...spec,
  },
});
const catalog = (fields: any) => ({ source: { sourceType: 'Catalog', catalog: { packageName: 'c-op', selector: { matchLabels: { 'olm-tenancy.io/team': 'shared' } }, ...fields } } });
const ALLOWED = 'a-op@>=1.0.0 <2.0.0; b-op (channels fast, stable); c-op';

describe('OlmV1TeamGuardrails: the policy object', () => {
  test('match constraints, the team-member condition on the sorted groups, Fail, the Deny binding; groups and policy name', () => {
    const { g, chart, policy } = guardrails({ groups: ['z-admins', 'a-admins'] });
    expect(g.groups).toEqual(['a-admins', 'z-admins']);
    expect(g.policyName).toEqual('olmv1-team-t');
    const p = policy();
    expect([p.apiVersion, p.kind, p.metadata]).toEqual(['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', { name: 'olmv1-team-t' }]);
    expect(p.spec.failurePolicy).toEqual('Fail');
    expect(p.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: ['olm.operatorframework.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['clusterextensions'] }],
    });
    expect(p.spec.matchConditions).toEqual([{ name: 'team-member', expression: "has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in ['a-admins', 'z-admins'])" }]);
    expect((chart.node.findAll().find((c) => c.node.id === 'Binding') as ApiObject).toJson()).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'olmv1-team-t' },
      spec: { policyName: 'olmv1-team-t', validationActions: ['Deny'] },
    });
    // a member of either group is checked (and refused here: no team label); anyone else is not matched at all
    const unlabelled = CE({}, { labels: {} });
    expect(admit(p.spec, req('CREATE', ['z-admins']), unlabelled)).toEqual({ matched: true, denied: ['team t must label its ClusterExtensions olm-tenancy.io/team=t'] });
    expect(admit(p.spec, req('CREATE', ['other', 'a-admins']), unlabelled).matched).toEqual(true);
    expect(admit(p.spec, req('CREATE', ['t-admins']), unlabelled)).toEqual({ matched: false, denied: [] });
    expect(admit(p.spec, { ...req('CREATE'), userInfo: { username: 'u' } }, unlabelled)).toEqual({ matched: false, denied: [] });
    expect(guardrails({ policyName: 'custom' }).g.policyName).toEqual('custom');
  });

  // issue 41: the requests the API server never sends to the policy, whatever its expressions say
  test('match constraints as the API server applies them: writes of ClusterExtensions only, not their status, not other kinds', () => {
    const p = guardrails().policy();
    const unlabelled = CE({}, { labels: {} });
    const refused = { matched: true, denied: ['team t must label its ClusterExtensions olm-tenancy.io/team=t'] };
    expect(admit(p.spec, req('CREATE'), unlabelled)).toEqual(refused);
    expect(admit(p.spec, req('UPDATE'), unlabelled, CE())).toEqual(refused);
    // operator-controller's status writes, a connect, another kind of the group, another group
    expect(admit(p.spec, { ...req('UPDATE'), subResource: 'status' }, unlabelled, CE()).matched).toBe(false);
    expect(admit(p.spec, req('CONNECT'), unlabelled).matched).toBe(false);
    expect(admit(p.spec, { ...req('CREATE'), resource: { group: 'olm.operatorframework.io', version: 'v1', resource: 'clustercatalogs' } }, unlabelled).matched).toBe(false);
    expect(admit(p.spec, { ...req('CREATE'), resource: { group: 'example.com', version: 'v1', resource: 'clusterextensions' } }, unlabelled).matched).toBe(false);
  });

  test('the same guardrails given in another order write the same policy (deterministic output)', () => {
    const one = guardrails({ groups: ['g2', 'g1'], serviceAccountNames: ['sa-2', 'sa-1'], allowWatchNamespace: true, allowDeploymentConfig: true });
    const two = guardrails({
      groups: ['g1', 'g2'],
      namespaces: ['monitoring', 'observability'],
      packages: [{ name: 'a-op', versionRange: '>=1.0.0 <2.0.0' }, { name: 'b-op', channels: ['fast', 'stable'] }, { name: 'c-op' }],
      serviceAccountNames: ['sa-1'],
      allowWatchNamespace: true,
      allowDeploymentConfig: true,
    });
    two.g.allowServiceAccount('sa-2');
    one.g.allowServiceAccount('sa-1'); // once: a name given twice is one name
    expect(one.g.allowedServiceAccounts).toEqual(['sa-1', 'sa-2']);
    expect(one.policy()).toEqual(two.policy());
    // and the inputs are not sorted in place
    expect(BASE.packages.map((p) => [p.name, p.channels])).toEqual([['b-op', ['stable', 'fast']], ['a-op', undefined], ['c-op', undefined]]);
    expect(BASE.namespaces).toEqual(['observability', 'monitoring']);
  });
});

describe('OlmV1TeamGuardrails: every validation refuses with its exact message', () => {
  test('a CREATE breaking every rule gets every message, in order', () => {
    const { policy, app } = guardrails();
    expect(validationErrors(app)).toEqual([]);
    const bad = CE({
      namespace: 'kube-system',
      ...catalog({ packageName: 'etcd', version: '3.5.0', channels: ['fast', 'beta'], selector: { matchLabels: { 'olm-tenancy.io/team': 'other' } }, upgradeConstraintPolicy: 'SelfCertified' }),
      install: { preflight: { crdUpgradeSafety: { enforcement: 'None' } } },
      serviceAccount: { name: 'powerful' },
      config: { configType: 'Inline', inline: { watchNamespace: 'monitoring' } },
    }, { name: 'u-op', labels: { 'olm-tenancy.io/team': 'u' } });
    expect(admit(policy().spec, req('CREATE'), bad)).toEqual({
      matched: true,
      denied: [
        'team t may only create, update or delete ClusterExtensions named t-<name>, got: u-op',
        'team t must label its ClusterExtensions olm-tenancy.io/team=t',
        'spec.namespace must be one of monitoring, observability, got: kube-system',
        'spec.source.catalog.selector.matchLabels must include olm-tenancy.io/team=shared',
        `package etcd with version '3.5.0' and channels [fast, beta] is not allowed; allowed: ${ALLOWED}`,
        'team t may not set upgradeConstraintPolicy to SelfCertified (only cluster admins may bypass catalog-provided upgrade constraints)',
        'team t may not disable CRD upgrade safety checks (spec.install.preflight.crdUpgradeSafety.enforcement: None)',
        'team t may not set spec.serviceAccount (ignored since operator-controller v1.11.0; older versions install as it)',
        'team t may not set spec.config',
      ],
    });
    // the well-formed one passes, on CREATE, UPDATE and DELETE
    expect(admit(policy().spec, req('CREATE'), CE())).toEqual({ matched: true, denied: [] });
    expect(admit(policy().spec, req('UPDATE'), CE(), CE())).toEqual({ matched: true, denied: [] });
    expect(admit(policy().spec, req('DELETE'), null, CE())).toEqual({ matched: true, denied: [] });
  });

  test('UPDATE and DELETE of an extension another team (or nobody) labelled: the ownership message', () => {
    const { policy } = guardrails();
    const msg = 'team t may only update or delete ClusterExtensions labelled olm-tenancy.io/team=t';
    expect(admit(policy().spec, req('UPDATE'), CE(), CE({}, { labels: { 'olm-tenancy.io/team': 'u' } })).denied).toEqual([msg]);
    expect(admit(policy().spec, req('DELETE'), null, CE({}, { labels: undefined })).denied).toEqual([msg]);
    expect(admit(policy().spec, req('DELETE'), null, CE({}, { labels: { other: 't' } })).denied).toEqual([msg]);
  });

  test('spec.serviceAccount: only the allowed names, listed sorted in the message (given and added later)', () => {
    const { g, policy } = guardrails({ serviceAccountNames: ['b-sa'] });
    g.allowServiceAccount('a-sa');
    expect(g.allowedServiceAccounts).toEqual(['a-sa', 'b-sa']);
    const sa = (name: string) => admit(policy().spec, req('CREATE'), CE({ serviceAccount: { name } })).denied;
    expect(sa('a-sa')).toEqual([]);
    expect(sa('b-sa')).toEqual([]);
    expect(sa('default')).toEqual(['team t may only set spec.serviceAccount.name to a-sa, b-sa']);
  });
});

describe('OlmV1TeamGuardrails: packages', () => {
  const pkg = (fields: any) => admit(guardrails().policy().spec, req('CREATE'), CE(catalog(fields))).denied;
  const refused = (version: string, channels: string) => [`package b-op with version '${version}' and channels [${channels}] is not allowed; allowed: ${ALLOWED}`];

  test('a package without versionRange takes any version, or none', () => {
    expect(pkg({ packageName: 'c-op' })).toEqual([]);
    expect(pkg({ packageName: 'c-op', version: '9.9.9' })).toEqual([]);
    expect(pkg({ packageName: 'c-op', version: '>=0.1.0' })).toEqual([]);
    expect(pkg({ packageName: 'c-op', channels: ['any'] })).toEqual([]);
  });

  test('a package with channels: at least one named, every one of them allowed', () => {
    expect(pkg({ packageName: 'b-op', channels: ['fast'] })).toEqual([]);
    expect(pkg({ packageName: 'b-op', channels: ['stable', 'fast'] })).toEqual([]);
    expect(pkg({ packageName: 'b-op', channels: ['beta'] })).toEqual(refused('<unset>', 'beta'));
    expect(pkg({ packageName: 'b-op', channels: ['fast', 'beta'] })).toEqual(refused('<unset>', 'fast, beta'));
    expect(pkg({ packageName: 'b-op', channels: [] })).toEqual(refused('<unset>', ''));
    expect(pkg({ packageName: 'b-op' })).toEqual(refused('<unset>', ''));
  });

  test('an allowed range without upper bound (>=1.2.0, >1.2.0) admits every version above its lower bound, and nothing below', () => {
    for (const [allowed, ok, bad] of [
      ['>=1.2.0', ['1.2.0', '99.0.0', '>=1.2.0', '>1.2.0', '>=1.5.0 <3.0.0', '>=1.2.0 <=1.2.0'], ['1.1.9', '>=1.1.0', '>1.1.9 <2.0.0', '~1.2.0']],
      ['>1.2.0', ['1.2.1', '>1.2.0', '>=1.2.1', '>1.2.0 <1.2.1'], ['1.2.0', '>=1.2.0', '>=1.2.0 <2.0.0']],
    ] as Array<[string, string[], string[]]>) {
      const { policy, app } = guardrails({ packages: [{ name: 'x-op', versionRange: allowed }] });
      expect(validationErrors(app)).toEqual([]);
      const denied = (version: string) => admit(policy().spec, req('CREATE'), CE(catalog({ packageName: 'x-op', version }))).denied;
      for (const v of ok) expect([allowed, v, denied(v)]).toEqual([allowed, v, []]);
      for (const v of bad) expect([allowed, v, denied(v)]).toEqual([allowed, v, [`package x-op with version '${v}' and channels [] is not allowed; allowed: x-op@${allowed}`]]);
    }
  });
});

describe('OlmV1TeamGuardrails: spec.config, each combination of allowWatchNamespace and allowDeploymentConfig', () => {
  const WATCH = 'team t may only set spec.config.inline.watchNamespace, to one of monitoring, observability';
  const DEPLOY = 'team t may only set spec.config.inline.deploymentConfig';
  const BOTH = `${WATCH} and spec.config.inline.deploymentConfig`;
  const NONE = 'team t may not set spec.config';
  const inlines: Record<string, any> = {
    watchOwn: { watchNamespace: 'observability' },
    watchOther: { watchNamespace: 'kube-system' },
    deploy: { deploymentConfig: { env: [{ name: 'A', value: 'b' }] } },
    both: { watchNamespace: 'monitoring', deploymentConfig: { env: [] } },
    bothOtherNamespace: { watchNamespace: 'kube-system', deploymentConfig: { env: [] } },
    unknownKey: { 'Stryker was here': 1 },
  };
  const table: Array<[string, Partial<OlmV1TeamGuardrailsProps>, Record<string, string[]>]> = [
    ['neither', {}, { watchOwn: [NONE], watchOther: [NONE], deploy: [NONE], both: [NONE], bothOtherNamespace: [NONE], unknownKey: [NONE] }],
    ['watchNamespace', { allowWatchNamespace: true }, { watchOwn: [], watchOther: [WATCH], deploy: [WATCH], both: [WATCH], bothOtherNamespace: [WATCH], unknownKey: [WATCH] }],
    ['deploymentConfig', { allowDeploymentConfig: true }, { watchOwn: [DEPLOY], watchOther: [DEPLOY], deploy: [], both: [DEPLOY], bothOtherNamespace: [DEPLOY], unknownKey: [DEPLOY] }],
    ['both', { allowWatchNamespace: true, allowDeploymentConfig: true }, { watchOwn: [], watchOther: [BOTH], deploy: [], both: [], bothOtherNamespace: [BOTH], unknownKey: [BOTH] }],
  ];
  test.each(table)('%s allowed', (_, flags, expected) => {
    const { policy } = guardrails(flags);
    const spec = policy().spec;
    // no spec.config: always admitted, and DELETE never reads it
    expect(admit(spec, req('CREATE'), CE()).denied).toEqual([]);
    expect(admit(spec, req('DELETE'), null, CE({ config: { configType: 'Inline', inline: inlines.bothOtherNamespace } })).denied).toEqual([]);
    const got = Object.fromEntries(Object.entries(inlines).map(([k, inline]) => [k, admit(spec, req('CREATE'), CE({ config: { configType: 'Inline', inline } })).denied]));
    expect(got).toEqual(expected);
  });
});

describe('OlmV1TeamGuardrails: names of longer teams', () => {
  /** Guardrails of `teams` in one App, in that order. */
  function app(teams: string[]) {
    const { chart } = appAndChart();
    return teams.map((team, i) => new OlmV1TeamGuardrails(chart, `G${i}`, { ...BASE, team, groups: [`${team}-admins`], catalogTeam: 'shared', packages: [{ name: 'c-op' }] }));
  }
  /** What `g` (team `team`) decides for a member's `op` on a ClusterExtension `name` labelled for the team. */
  const decide = (g: OlmV1TeamGuardrails, team: string, name: string, op = 'CREATE') => {
    const obj = CE({}, { name, labels: { 'olm-tenancy.io/team': team } });
    return admit(policyOf(g).spec, req(op, [`${team}-admins`]), op === 'DELETE' ? null : obj, op === 'CREATE' ? null : obj).denied;
  };

  test('team a, beside a-c and a-b (and b, ab): refuses a-b-* and a-c-*, both named sorted in the message; admits its other names', () => {
    const [a, ac, b, ab, abNoDash] = app(['a', 'a-c', 'b', 'a-b', 'ab']);
    expect(a._longerTeamPrefixes()).toEqual(['a-b-', 'a-c-']);
    const msg = (name: string) => [`team a may only create, update or delete ClusterExtensions named a-<name> (not a-b-<name>, a-c-<name>: names of other teams), got: ${name}`];
    for (const op of ['CREATE', 'UPDATE', 'DELETE']) {
      for (const name of ['a-b-op', 'a-c-op', 'a-b-c-op']) expect([op, name, decide(a, 'a', name, op)]).toEqual([op, name, msg(name)]);
      for (const name of ['a-op', 'a-bc-op', 'a-cb-op', 'a-ab-op']) expect([op, name, decide(a, 'a', name, op)]).toEqual([op, name, []]);
    }
    expect(decide(a, 'a', 'b-op')).toEqual(msg('b-op'));
    // the others have no longer team: their message names none
    for (const [g, team] of [[ac, 'a-c'], [b, 'b'], [ab, 'a-b'], [abNoDash, 'ab']] as Array<[OlmV1TeamGuardrails, string]>) {
      expect(g._longerTeamPrefixes()).toEqual([]);
      expect(decide(g, team, `${team}-op`)).toEqual([]);
      expect(decide(g, team, 'a-op')).toEqual([`team ${team} may only create, update or delete ClusterExtensions named ${team}-<name>, got: a-op`]);
    }
  });

  test('two guardrails of one team (two policies, say one more for CI) each admit the team\'s names: neither counts the other as a longer team', () => {
    const { app: both, chart } = appAndChart();
    const one = new OlmV1TeamGuardrails(chart, 'Admins', { ...BASE, team: 'a', groups: ['a-admins'], packages: [{ name: 'c-op' }] });
    const two = new OlmV1TeamGuardrails(chart, 'Ci', { ...BASE, team: 'a', groups: ['a-admins'], packages: [{ name: 'c-op' }], policyName: 'olmv1-team-a-ci' });
    expect(validationErrors(both)).toEqual([]);
    expect([one._longerTeamPrefixes(), two._longerTeamPrefixes()]).toEqual([[], []]);
    expect([decide(one, 'a', 'a-op'), decide(two, 'a', 'a-op')]).toEqual([[], []]);
  });
});
