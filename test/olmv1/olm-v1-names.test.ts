/**
 * Issue 27 item 6: ClusterExtension names carry the team's prefix, checked at synth and by the team's guardrail
 * (CREATE, UPDATE, DELETE; name as well as label), and two teams never claim one name (team `a` vs team `a-b`).
 */
import { ApiObject } from 'cdk8s';
import { admit, appAndChart, validationErrors } from './helpers';
import { CuratedClusterCatalog, OlmV1Team, OlmV1TeamProps } from '../../src/olmv1';

function teams(specs: Array<{ team: string; extensions?: OlmV1TeamProps['extensions'] }>) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'shared', image: 'registry.example.com/catalogs/shared:v1', team: 'shared', pollIntervalMinutes: 30 });
  const made = specs.map((s, i) => new OlmV1Team(chart, `T${i}`, {
    team: s.team, groups: [`${s.team}-admins`], namespaces: [s.team], catalog, allowedPackages: [{ name: 'op' }], extensions: s.extensions,
  }));
  const policy = (t: OlmV1Team) => (t.guardrails.node.findChild('Policy') as ApiObject).toJson();
  return { app, made, policy };
}
const CE = (name: string, team: string) => ({
  apiVersion: 'olm.operatorframework.io/v1',
  kind: 'ClusterExtension',
  metadata: { name, labels: { 'olm-tenancy.io/team': team } },
  spec: { namespace: team, source: { sourceType: 'Catalog', catalog: { packageName: 'op', selector: { matchLabels: { 'olm-tenancy.io/team': 'shared' } } } } },
});
const req = (operation: string, team: string) => ({ kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation, userInfo: { username: 'u', groups: [`${team}-admins`] } });
const codes = (errors: string[]) => errors.map((e) => e.replace(/^\[([^\]]*)\] ([^=:]*)[=:].*\((\w+)\)$/, '$1 $2 $3'));

describe('issue 27 item 6: ClusterExtension names', () => {
  test('team-a may not create team-b-op (the predictable name of team-b\'s extension), even labelled team-a; nor update or delete it', () => {
    const { policy, made } = teams([{ team: 'team-a' }, { team: 'team-b' }]);
    const a = policy(made[0]);
    const msg = 'team team-a may only create, update or delete ClusterExtensions named team-a-<name>, got: team-b-op';
    expect(admit(a.spec, req('CREATE', 'team-a'), CE('team-b-op', 'team-a'), null).denied).toEqual([msg]);
    expect(admit(a.spec, req('UPDATE', 'team-a'), CE('team-b-op', 'team-a'), CE('team-b-op', 'team-a')).denied).toEqual([msg]);
    expect(admit(a.spec, req('DELETE', 'team-a'), null, CE('team-b-op', 'team-a')).denied).toEqual([msg]);
    // its own names pass; team-b's policy admits team-b-op
    expect(admit(a.spec, req('CREATE', 'team-a'), CE('team-a-op', 'team-a'), null).denied).toEqual([]);
    expect(admit(a.spec, req('DELETE', 'team-a'), null, CE('team-a-op', 'team-a')).denied).toEqual([]);
    expect(admit(policy(made[1]).spec, req('CREATE', 'team-b'), CE('team-b-op', 'team-b'), null).denied).toEqual([]);
    // the bare team name is no extension of it (the prefix includes the dash)
    expect(admit(a.spec, req('CREATE', 'team-a'), CE('team-a', 'team-a'), null).denied).toEqual(['team team-a may only create, update or delete ClusterExtensions named team-a-<name>, got: team-a']);
  });

  test('synth: an extension name without the team prefix is an error (ExtensionNameOutsideTeam)', () => {
    const { app } = teams([{ team: 'team-a', extensions: [{ packageName: 'op', namespace: 'team-a', name: 'team-b-op' }, { packageName: 'op', namespace: 'team-a', name: 'team-a-op' }] }]);
    expect(validationErrors(app).filter((e) => !e.includes('OlmV1ExtensionNotPreviewed'))).toEqual([
      "[platform/T0] extensions[team-b-op].name=\"team-b-op\": ClusterExtension 'team-b-op' does not carry team team-a's prefix 'team-a-': the admission policy would deny it (names are cluster-wide: another team could claim it). Fix: name it 'team-a-<name>' (ExtensionNameOutsideTeam)",
    ]);
  });

  test('prefixes that are prefixes of each other: team `a` may not take `a-b-op` (team `a-b`\'s), at synth and in the policy', () => {
    const { app, made, policy } = teams([{ team: 'a', extensions: [{ packageName: 'op', namespace: 'a', name: 'a-b-op' }, { packageName: 'op', namespace: 'a', name: 'a-op' }] }, { team: 'a-b' }]);
    expect(codes(validationErrors(app).filter((e) => !e.includes('OlmV1ExtensionNotPreviewed')))).toEqual(['platform/T0 extensions[a-b-op].name ExtensionNameOfOtherTeam']);
    const pa = policy(made[0]);
    expect(admit(pa.spec, req('CREATE', 'a'), CE('a-b-op', 'a'), null).denied).toEqual([
      'team a may only create, update or delete ClusterExtensions named a-<name> (not a-b-<name>: names of other teams), got: a-b-op',
    ]);
    expect(admit(pa.spec, req('DELETE', 'a'), null, CE('a-b-op', 'a')).denied.length).toEqual(1);
    expect(admit(pa.spec, req('CREATE', 'a'), CE('a-op', 'a'), null).denied).toEqual([]);
    expect(admit(pa.spec, req('CREATE', 'a'), CE('a-bc-op', 'a'), null).denied).toEqual([]); // `a-bc-` is not `a-b-`
    expect(admit(policy(made[1]).spec, req('CREATE', 'a-b'), CE('a-b-op', 'a-b'), null).denied).toEqual([]);
  });

  test('two teams of one name would claim the same names: DuplicateTeam on each', () => {
    const { app } = teams([{ team: 'team-a' }, { team: 'team-a' }]);
    expect(codes(validationErrors(app).filter((e) => e.includes('DuplicateTeam')))).toEqual(['platform/T0 team DuplicateTeam', 'platform/T1 team DuplicateTeam']);
  });
});
