/**
 * Issue 27, items 4 and 5: ClusterExtension versions as operator-controller reads them (Masterminds/semver v3
 * constraints, `internal/operator-controller/catalogmetadata/compare/compare.go`) in the synth check, the team's
 * admission policy (evaluated with @bufbuild/cel) and the preview's choice of bundles
 * (`internal/operator-controller/resolve/catalog.go`: every bundle the constraint and channels admit).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import fc from 'fast-check';
import { admit, appAndChart, validationErrors } from './helpers';
import { OperatorBundle } from '../../src/bundle';
import { CuratedClusterCatalog, OlmV1Team, OlmV1TeamProps, OlmV1VersionRange } from '../../src/olmv1';
import { MastermindsConstraints, MastermindsVersion } from '../../src/olmv1/masterminds-semver';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const CLEAN = path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0');
/** grafana-operator 5.24.0 plus a ClusterRoleBinding of flux-system ServiceAccounts to cluster-admin. */
const CLUSTER_ADMIN = path.join(FIXTURES, 'olm-v1-preview', 'grafana-operator-binds-cluster-admin');

/** The bundle of `dir` as version `version` (CSV name `grafana-operator.v<version>`), read from a temp copy. */
function asVersion(dir: string, version: string): OperatorBundle {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-version-'));
  fs.cpSync(dir, tmp, { recursive: true });
  const csvFile = path.join(tmp, 'manifests', 'grafana-operator.clusterserviceversion.yaml');
  const csv = fs.readFileSync(csvFile, 'utf8')
    .replace('  name: grafana-operator.v5.24.0', `  name: grafana-operator.v${version}`)
    .replace('\n  version: 5.24.0\n', `\n  version: ${version}\n`);
  fs.writeFileSync(csvFile, csv);
  try {
    return OperatorBundle.fromDirectory(tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function team(extensions: OlmV1TeamProps['extensions'], allowedPackages: OlmV1TeamProps['allowedPackages']) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-a', image: 'registry.example.com/catalogs/team-a:v1', team: 'team-a', pollIntervalMinutes: 30 });
  const t = new OlmV1Team(chart, 'T', { team: 'team-a', groups: ['team-a-admins'], namespaces: ['team-a'], catalog, allowedPackages, extensions });
  const policy = (t.guardrails.node.findChild('Policy') as ApiObject).toJson();
  return { app, chart, t, policy };
}
const strip = (errors: string[]) => errors.map((e) => e.replace(/^\[platform\/T\] /, ''));
const codes = (errors: string[]) => strip(errors).map((e) => e.replace(/^([^=:]*)[=:].*\((\w+)(, OLMT-\d+)?\)$/, '$1 $2'));
/** The bundles whose preview found the cluster-admin binding (TenantIdentityUnbounded), sorted. */
const unboundedIn = (errors: string[]) => [...new Set(strip(errors).filter((e) => e.includes('(TenantIdentityUnbounded'))
  .map((e) => /bundles\[([^\]]+)\]/.exec(e)![1]))].sort();

const CE = (version: string | undefined, packageName = 'grafana-operator') => ({
  apiVersion: 'olm.operatorframework.io/v1',
  kind: 'ClusterExtension',
  metadata: { name: `team-a-${packageName}`, labels: { 'olm-tenancy.io/team': 'team-a' } },
  spec: {
    namespace: 'team-a',
    source: { sourceType: 'Catalog', catalog: { packageName, ...(version !== undefined ? { version } : {}), selector: { matchLabels: { 'olm-tenancy.io/team': 'team-a' } } } },
  },
});
const req = { kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation: 'CREATE', userInfo: { username: 'alice', groups: ['team-a-admins'] } };

describe('issue 27 item 5: version constraints as Masterminds reads them', () => {
  const allowed = [{ name: 'grafana-operator', versionRange: '>=1.2.0 <2.0.0' }];

  test('the attack `>=1,1.0.0 <2.0.0` for a team allowed `>=1.2.0 <2.0.0` is refused at synth and by the policy (it installs 1.0.0)', () => {
    expect(MastermindsConstraints.parse('>=1,1.0.0 <2.0.0').check(MastermindsVersion.parse('1.0.0'))).toBe(true);
    const { app, policy } = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>=1,1.0.0 <2.0.0' }], allowed);
    expect(codes(validationErrors(app))).toEqual(['extensions[team-a-grafana-operator].version VersionNotAllowed']);
    expect(strip(validationErrors(app))[0]).toContain("'>=1,1.0.0 <2.0.0' is not an exact version 'X.Y.Z' or an interval");
    expect(admit(policy.spec, req, CE('>=1,1.0.0 <2.0.0'), null).denied).toEqual([
      "package grafana-operator with version '>=1,1.0.0 <2.0.0' and channels [] is not allowed; allowed: grafana-operator@>=1.2.0 <2.0.0",
    ]);
    // its well-formed neighbours pass both
    for (const ok of ['>=1.2.0 <2.0.0', '>=1.2.0, <2.0.0', '>= 1.2.0 , < 2.0.0', '1.5.0', '>1.2.0 <=1.9.9']) {
      expect([ok, admit(policy.spec, req, CE(ok), null).denied]).toEqual([ok, []]);
      expect([ok, validationErrors(team([{ packageName: 'grafana-operator', namespace: 'team-a', version: ok }], allowed).app)]).toEqual([ok, []]);
    }
  });

  test('separator abuse, empty intervals and wildcards are refused by the policy (separators only between bounds, lower <= upper)', () => {
    const { policy } = team([], allowed);
    const denied = (v: string) => admit(policy.spec, req, CE(v), null).denied.length > 0;
    for (const bad of ['>=1.2.0,1.0.0', '>=1.2.0 1.0.0', '1.0.0 <2.0.0', '1.5.0, 1.0.0', '>=1.2.0 <2.0.0,', ' >=1.2.0 <2.0.0', '>=1.2.0 <2.0.0 <3.0.0', '>=1.2.0 <2.0.0 || 1.0.0',
      '>=1.2.0 - 1.9.0', '>=1.5.0 <1.3.0', '>1.5.0 <=1.5.0', '>=1.5.0 <1.5.0', '1.x', '>=1.2.0 !=1.5.0', '=1.5.0', '>=1.2.0\t<2.0.0']) {
      expect([bad, denied(bad)]).toEqual([bad, true]);
    }
    expect(denied('>=1.5.0 <=1.5.0')).toBe(false);
  });

  test('an exclusive lower bound: allowed `>1.0.0 <=2.0.0` does not admit 1.0.0 (synth and policy)', () => {
    const excl = [{ name: 'grafana-operator', versionRange: '>1.0.0 <=2.0.0' }];
    const { policy } = team([], excl);
    for (const [v, ok] of [['1.0.0', false], ['>=1.0.0 <=2.0.0', false], ['>1.0.0 <=2.0.0', true], ['1.0.1', true], ['2.0.0', true], ['>1.0.0 <2.0.1', false]] as const) {
      expect([v, admit(policy.spec, req, CE(v), null).denied.length === 0]).toEqual([v, ok]);
      expect([v, validationErrors(team([{ packageName: 'grafana-operator', namespace: 'team-a', version: v }], excl).app).length === 0]).toEqual([v, ok]);
    }
  });

  test('a version operator-controller cannot parse is a named error at synth (InvalidVersionConstraint), with upstream\'s message', () => {
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>= bar' }], [{ name: 'grafana-operator' }]);
    expect(strip(validationErrors(app))).toEqual([
      'extensions[team-a-grafana-operator].version=">= bar": the ClusterExtension CRD refuses spec.source.catalog.version \'>= bar\': invalid version expression. Fix: write a version expression the CRD accepts, at most 64 characters, e.g. \'>=1.2.0 <2.0.0\' (InvalidCrdValue)',
      'extensions[team-a-grafana-operator].version=">= bar": operator-controller cannot resolve version \'>= bar\': Masterminds/semver refuses it (improper constraint: ">= bar"). Fix: write a Masterminds constraint, e.g. \'>=1.2.0 <2.0.0\' (InvalidVersionConstraint)',
    ]);
  });

  test('policy = synth check, and both admit only what Masterminds reads inside the allowed range (property with Masterminds tokens, fixed seed)', () => {
    const { policy } = team([], allowed);
    const token = fc.constantFrom('1', '1.2', '1.0.0', '1.2.0', '1.5.0', '2.0.0', '1.9.9', 'x', '-rc.1', '+b', '>=', '>', '<', '<=', '=', '~', '^', '!=', ' ', ',', ', ', '||', ' - ');
    const release = fc.tuple(fc.constantFrom(0, 1, 1, 1, 2), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 })).map((t) => t.join('.')); // mostly near the allowed range
    const shaped = fc.tuple(fc.constantFrom('>=', '>', '', '>= '), release, fc.option(fc.tuple(fc.constantFrom(' ', ',', ', ', ' , ', ',1.0.0 ', ' 1.0.0 '), fc.constantFrom('<', '<=', '< '), release), { nil: undefined }))
      .map(([op, lo, up]) => `${op}${lo}${up ? up.join('') : ''}`);
    const text = fc.oneof(shaped, fc.array(token, { minLength: 1, maxLength: 7 }).map((a) => a.join('')));
    const versions: MastermindsVersion[] = [];
    for (let a = 0; a <= 2; a++) for (let b = 0; b <= 9; b++) for (const x of ['', '-rc.1', '+build.1']) versions.push(MastermindsVersion.parse(`${a}.${b}.0${x}`), MastermindsVersion.parse(`${a}.${b}.1${x}`));
    const allowedMm = MastermindsConstraints.parse('>=1.2.0 <2.0.0');
    let admitted = 0;
    fc.assert(fc.property(text, (t) => {
      const celOk = admit(policy.spec, req, CE(t), null).denied.length === 0;
      const synthOk = OlmV1VersionRange.problem(t) === undefined && OlmV1VersionRange.parse(t).isWithin(OlmV1VersionRange.parse('>=1.2.0 <2.0.0'));
      if (celOk !== synthOk) return false;
      if (!celOk) return true;
      admitted++;
      const mm = MastermindsConstraints.parse(t);
      return versions.every((v) => !mm.check(v) || allowedMm.check(v));
    }), { seed: 2727, numRuns: 300 });
    expect(admitted).toBeGreaterThan(10);
  });
});

describe('issue 27 item 4: the preview covers every version that can resolve', () => {
  const clean = asVersion(CLEAN, '1.0.0');

  test('no version: operator-controller may take a prerelease (the highest wins): a cluster-admin binding in 1.1.0-rc.1 is found', () => {
    const rc = asVersion(CLUSTER_ADMIN, '1.1.0-rc.1');
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-a', bundles: [clean, rc] }], [{ name: 'grafana-operator' }]);
    expect(unboundedIn(validationErrors(app))).toEqual(['grafana-operator.v1.1.0-rc.1']);
  });

  test('build metadata is ignored: `>=1.0.0 <2.0.0` admits 1.1.0+build.1, and its cluster-admin binding is found', () => {
    const build = asVersion(CLUSTER_ADMIN, '1.1.0+build.1');
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>=1.0.0 <2.0.0', bundles: [clean, build] }], [{ name: 'grafana-operator' }]);
    expect(unboundedIn(validationErrors(app))).toEqual(['grafana-operator.v1.1.0+build.1']);
  });

  test('a constraint without a prerelease cannot resolve 1.1.0-rc.1 (not previewed); one naming a prerelease can', () => {
    const rc = asVersion(CLUSTER_ADMIN, '1.1.0-rc.1');
    const without = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>=1.0.0 <2.0.0', bundles: [clean, rc] }], [{ name: 'grafana-operator' }]);
    expect(unboundedIn(validationErrors(without.app))).toEqual([]);
    const withPre = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>=1.1.0-rc.0 <2.0.0', bundles: [clean, rc] }], [{ name: 'grafana-operator' }]);
    expect(unboundedIn(validationErrors(withPre.app))).toEqual(['grafana-operator.v1.1.0-rc.1']);
  });

  test('the constraint is read as Masterminds does: `>=1,1.0.0 <2.0.0` resolves 1.0.0 (the old reader saw >=11.0.0 and previewed nothing)', () => {
    const bad100 = asVersion(CLUSTER_ADMIN, '1.0.0');
    const ok150 = asVersion(CLEAN, '1.5.0');
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-a', version: '>=1,1.0.0 <2.0.0', bundles: [bad100, ok150] }], [{ name: 'grafana-operator' }]);
    expect(unboundedIn(validationErrors(app))).toEqual(['grafana-operator.v1.0.0']);
    expect(strip(validationErrors(app)).some((e) => e.includes('bundles[grafana-operator.v1.5.0]'))).toBe(false);
  });

  test('wildcards, tilde and OR: the bundles Masterminds matches are previewed', () => {
    const bundles = [asVersion(CLUSTER_ADMIN, '1.2.5'), asVersion(CLUSTER_ADMIN, '1.3.0'), asVersion(CLUSTER_ADMIN, '3.0.0')];
    const previewed = (version: string) => unboundedIn(validationErrors(team([{ packageName: 'grafana-operator', namespace: 'team-a', version, bundles }], [{ name: 'grafana-operator' }]).app));
    expect(previewed('1.2.x')).toEqual(['grafana-operator.v1.2.5']);
    expect(previewed('~1.2')).toEqual(['grafana-operator.v1.2.5']);
    expect(previewed('^1.2')).toEqual(['grafana-operator.v1.2.5', 'grafana-operator.v1.3.0']);
    expect(previewed('1.2.5 || >=3')).toEqual(['grafana-operator.v1.2.5', 'grafana-operator.v3.0.0']);
    expect(previewed('1.2')).toEqual(['grafana-operator.v1.2.5']);
  });
});
