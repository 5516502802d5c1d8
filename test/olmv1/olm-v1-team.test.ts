import { ApiObject, Testing } from 'cdk8s';
import fc from 'fast-check';
import { admit, appAndChart, crdRuleFailures, validationErrors, validator } from './helpers';
import { CuratedClusterCatalog, OlmV1CrdChannel, OlmV1Team, OlmV1TeamGuardrails, OlmV1TeamProps, OlmV1VersionRange } from '../../src/olmv1';
import { AdmissionPolicyValidation } from '../util/admission-validation';

const IMAGE = 'registry.example.com/catalogs/monitoring@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

function setup(extra: Partial<OlmV1TeamProps> = {}) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'monitoring', image: IMAGE, team: 'monitoring' });
  const team = new OlmV1Team(chart, 'Team', {
    team: 'monitoring',
    groups: ['team-monitoring'],
    namespaces: ['monitoring', 'observability'],
    catalog,
    allowedPackages: [
      { name: 'prometheus', versionRange: '>=2.54.0 <2.55.0' },
      { name: 'alertmanager', versionRange: '>=0.27.0 <=0.27.9', channels: ['stable'] },
      { name: 'grafana-operator' },
    ],
    extensions: [{ packageName: 'prometheus', namespace: 'monitoring' }],
    ...extra,
  });
  return { app, chart, team };
}

function policyOf(chart: any) {
  return Testing.synth(chart).find((o) => o.kind === 'ValidatingAdmissionPolicy');
}

const CE = (name: string, spec: any, team: string | null = 'monitoring') => ({
  apiVersion: 'olm.operatorframework.io/v1',
  kind: 'ClusterExtension',
  metadata: { name, ...(team ? { labels: { 'olm-tenancy.io/team': team } } : {}) },
  spec,
});
const GOOD_SPEC = {
  namespace: 'monitoring',
  source: { sourceType: 'Catalog', catalog: { packageName: 'prometheus', version: '>=2.54.0 <2.54.9', selector: { matchLabels: { 'olm-tenancy.io/team': 'monitoring' } } } },
};
const defined = (o: any) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const spec = (catalog: any = {}, rest: any = {}) => ({ ...GOOD_SPEC, ...rest, source: { sourceType: 'Catalog', catalog: defined({ ...GOOD_SPEC.source.catalog, ...catalog }) } });
const req = (operation: string, groups = ['team-monitoring']) => ({
  kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation, userInfo: { username: 'alice', groups },
});

describe('OlmV1Team: objects', () => {
  test('namespaces, the ClusterExtension, RBAC and the policy; all valid against the schemas and CRD CEL rules', () => {
    const { app, chart } = setup();
    const objs = Testing.synth(chart);
    expect(objs.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ClusterCatalog/monitoring',
      'Namespace/observability',
      'ClusterRole/olmv1-team-monitoring-installer',
      'ClusterRoleBinding/olmv1-team-monitoring-installer',
      // cdk8s writes dependencies first: the extension depends on its Namespace and the guardrail
      'Namespace/monitoring',
      'ValidatingAdmissionPolicy/olmv1-team-monitoring',
      'ValidatingAdmissionPolicyBinding/olmv1-team-monitoring',
      'ClusterExtension/monitoring-prometheus',
    ]);
    const ext = objs.find((o) => o.kind === 'ClusterExtension');
    expect(ext).toEqual({
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'monitoring-prometheus', labels: { 'olm-tenancy.io/team': 'monitoring' } },
      spec: {
        namespace: 'monitoring',
        source: {
          sourceType: 'Catalog',
          catalog: { packageName: 'prometheus', version: '>=2.54.0 <2.55.0', selector: { matchLabels: { 'olm-tenancy.io/team': 'monitoring' } }, upgradeConstraintPolicy: 'CatalogProvided' },
        },
      },
    });
    expect(ext.spec.serviceAccount).toBeUndefined(); // ignored since operator-controller v1.11.0
    expect(objs.find((o) => o.kind === 'ClusterRole')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'olmv1-team-monitoring-installer', labels: { 'olm-tenancy.io/team': 'monitoring' } },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['create', 'update', 'patch', 'delete', 'get', 'list', 'watch'] },
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    expect(objs.find((o) => o.kind === 'ClusterRoleBinding').subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-monitoring' }]);
    expect(validator.validateAll(objs)).toEqual([]);
    expect(objs.filter((o) => o.apiVersion === 'olm.operatorframework.io/v1').flatMap(crdRuleFailures)).toEqual([]);
    expect(validationErrors(app)).toEqual([]);
    const vap = policyOf(chart);
    for (const e of [...vap.spec.variables, ...vap.spec.validations, ...vap.spec.matchConditions]) {
      expect(AdmissionPolicyValidation.celProblem(e.expression)).toBeUndefined();
    }
  });

  test('an allowed range outside the grammar is a named error; the policy then admits no version of that package', () => {
    const { app, chart } = setup({ allowedPackages: [{ name: 'prometheus', versionRange: '~2.54' }], extensions: [] });
    expect(validationErrors(app).map((e) => e.replace(/: .*\(/, ' ('))).toEqual(['[platform/Team] allowedPackages[prometheus].versionRange="~2.54" (InvalidVersionRange)']);
    const vap = (chart.node.findAll().find((c) => c.node.id === 'Policy') as ApiObject).toJson();
    expect(admit(vap.spec, req('CREATE'), CE('monitoring-a', GOOD_SPEC)).denied.length).toEqual(1);
  });

  test('synth refuses what the policy would deny: package, range, channels, namespace', () => {
    const { app } = setup({
      extensions: [
        { packageName: 'etcd', namespace: 'monitoring' },
        { packageName: 'prometheus', namespace: 'default', version: '>=2.54.0 <2.56.0' },
        { packageName: 'alertmanager', namespace: 'observability', channels: ['candidate'] },
        { packageName: 'prometheus', name: 'monitoring-prom-any', namespace: 'monitoring', version: '>=2.54.0' },
      ],
    });
    expect(validationErrors(app).map((e) => e.replace(/^\[platform\/Team\] /, ''))).toEqual([
      "extensions[monitoring-etcd].packageName=\"etcd\": package 'etcd' is not in team monitoring's allowedPackages: the admission policy would deny it. Fix: add it to allowedPackages, or pick an allowed package (PackageNotAllowed)",
      "extensions[monitoring-prometheus].namespace=\"default\": namespace 'default' is not one of team monitoring's namespaces (monitoring, observability): the admission policy would deny it. Fix: install into a team namespace, or add the namespace to namespaces (ExtensionOutsideTeamNamespaces)",
      "extensions[monitoring-prometheus].version=\">=2.54.0 <2.56.0\": version range '>=2.54.0 <2.56.0' is not inside the allowed range '>=2.54.0 <2.55.0' of package 'prometheus': the admission policy would deny it. Fix: ask for a range inside '>=2.54.0 <2.55.0' (VersionNotAllowed)",
      "extensions[monitoring-alertmanager].channels=\"candidate\": channels [candidate] of package 'alertmanager' are not among the allowed channels [stable]: the admission policy would deny them. Fix: name allowed channels only (ChannelNotAllowed)",
      "extensions[monitoring-prom-any].version=\">=2.54.0\": version range '>=2.54.0' is not inside the allowed range '>=2.54.0 <2.55.0' of package 'prometheus': the admission policy would deny it. Fix: ask for a range inside '>=2.54.0 <2.55.0' (VersionNotAllowed)",
    ]);
  });
});

describe('OlmV1Team: bad input from JavaScript', () => {
  test('wrong types are named errors with a fix, not TypeErrors', () => {
    const { app, chart } = appAndChart();
    new OlmV1Team(chart, 'Team', {
      team: 'x',
      groups: 'admins',
      namespaces: [1],
      catalog: {},
      allowedPackages: [{ versionRange: 3 }],
      extensions: [{ packageName: 'p' }, 'nope', { packageName: 'q', namespace: 'x', bundles: [{}], acceptedRisks: [{ reason: 'r' }] }],
    } as any);
    expect(validationErrors(app).map((e) => e.replace(/^\[platform\/Team\] /, '').replace(/: .*\(/, ' ('))).toEqual([
      'catalog="{}" (InvalidReference)',
      'groups="admins" (InvalidInputType)',
      'namespaces[0]="1" (InvalidInputType)',
      'allowedPackages[0].name (MissingInput)',
      'extensions[1]="nope" (InvalidInputType)',
      'extensions[2].bundles[0]="{}" (InvalidReference)',
      'extensions[2].acceptedRisks[0].check (MissingInput)',
      // issue 40: the namespace is optional (operator-controller main resolves it from the bundle); v1.11.0 needs it
      'extensions[x-p].packageName="p" (PackageNotAllowed)',
      'extensions[x-p].namespace (ExtensionNamespaceRequired)',
      'extensions[x-q].namespace="x" (ExtensionOutsideTeamNamespaces)',
      'extensions[x-q].packageName="q" (PackageNotAllowed)',
    ]);
  });
});

describe('OlmV1TeamGuardrails: bad input from JavaScript', () => {
  test('wrong types are named errors (the policy keeps safe defaults)', () => {
    const { app, chart } = appAndChart();
    new OlmV1TeamGuardrails(chart, 'G', { team: 'a', groups: ['g'], namespaces: 'a', catalogTeam: 'a', packages: [{ name: 1 }] } as any);
    expect(validationErrors(app).map((e) => e.replace(/: .*\(/, ' ('))).toEqual([
      '[platform/G] namespaces="a" (InvalidInputType)',
      '[platform/G] packages[0].name="1" (InvalidInputType)',
    ]);
  });
});

describe('OlmV1TeamGuardrails evaluated with @bufbuild/cel', () => {
  const { chart } = setup();
  const vap = policyOf(chart);
  const run = (op: string, obj: any, old: any = null, groups?: string[]) => admit(vap.spec, req(op, groups), obj, old);

  test('structure: CREATE/UPDATE/DELETE on clusterextensions by the team group, Fail, Deny binding', () => {
    expect(vap.spec.failurePolicy).toEqual('Fail');
    expect(vap.spec.matchConstraints).toEqual({ resourceRules: [{ apiGroups: ['olm.operatorframework.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['clusterextensions'] }] });
    expect(vap.spec.matchConditions).toEqual([{ name: 'team-member', expression: "has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in ['team-monitoring'])" }]);
    const binding = Testing.synth(chart).find((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
    expect(binding.spec).toEqual({ policyName: 'olmv1-team-monitoring', validationActions: ['Deny'] });
  });

  test('admits the team\'s own, well-formed ClusterExtension (create, update, delete)', () => {
    expect(run('CREATE', CE('monitoring-prom', GOOD_SPEC))).toEqual({ matched: true, denied: [] });
    expect(run('UPDATE', CE('monitoring-prom', spec({ version: '2.54.3' })), CE('monitoring-prom', GOOD_SPEC))).toEqual({ matched: true, denied: [] });
    expect(run('DELETE', null, CE('monitoring-prom', GOOD_SPEC))).toEqual({ matched: true, denied: [] });
  });

  test('does not match people outside the team groups', () => {
    expect(run('CREATE', CE('monitoring-x', spec({ packageName: 'etcd' }), null), null, ['system:authenticated'])).toEqual({ matched: false, denied: [] });
  });

  test('recipe: namespace allow-list', () => {
    expect(run('CREATE', CE('monitoring-prom', spec({}, { namespace: 'kube-system' }))).denied).toEqual(['spec.namespace must be one of monitoring, observability, got: kube-system']);
  });

  test('recipe: catalog selector on the team label (missing, other team, unset)', () => {
    const msg = 'spec.source.catalog.selector.matchLabels must include olm-tenancy.io/team=monitoring';
    expect(run('CREATE', CE('monitoring-a', spec({ selector: { matchLabels: { 'olm-tenancy.io/team': 'payments' } } }))).denied).toEqual([msg]);
    expect(run('CREATE', CE('monitoring-a', spec({ selector: undefined }))).denied).toEqual([msg]);
    expect(run('CREATE', CE('monitoring-a', spec({ selector: { matchExpressions: [{ key: 'olm-tenancy.io/team', operator: 'Exists' }] } }))).denied).toEqual([msg]);
  });

  test('recipe: package allow-list', () => {
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'etcd', version: undefined }))).denied).toEqual([
      "package etcd with version '<unset>' and channels [] is not allowed; allowed: alertmanager@>=0.27.0 <=0.27.9 (channels stable); grafana-operator; prometheus@>=2.54.0 <2.55.0",
    ]);
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'grafana-operator', version: undefined }))).denied).toEqual([]);
  });

  test('recipe: no SelfCertified upgrades, no crdUpgradeSafety None', () => {
    expect(run('CREATE', CE('monitoring-a', spec({ upgradeConstraintPolicy: 'SelfCertified' }))).denied).toEqual([
      'team monitoring may not set upgradeConstraintPolicy to SelfCertified (only cluster admins may bypass catalog-provided upgrade constraints)',
    ]);
    expect(run('CREATE', CE('monitoring-a', spec({ upgradeConstraintPolicy: 'CatalogProvided' }))).denied).toEqual([]);
    expect(run('CREATE', CE('monitoring-a', spec({}, { install: { preflight: { crdUpgradeSafety: { enforcement: 'None' } } } }))).denied).toEqual([
      'team monitoring may not disable CRD upgrade safety checks (spec.install.preflight.crdUpgradeSafety.enforcement: None)',
    ]);
    expect(run('CREATE', CE('monitoring-a', spec({}, { install: { preflight: { crdUpgradeSafety: { enforcement: 'Strict' } } } }))).denied).toEqual([]);
  });

  test('ownership: no create without the team label, no update or delete of another team\'s (or an unlabelled) extension', () => {
    expect(run('CREATE', CE('monitoring-a', GOOD_SPEC, 'payments')).denied).toEqual(['team monitoring must label its ClusterExtensions olm-tenancy.io/team=monitoring']);
    expect(run('CREATE', CE('monitoring-a', GOOD_SPEC, null)).denied).toEqual(['team monitoring must label its ClusterExtensions olm-tenancy.io/team=monitoring']);
    // taking over: relabelling another team's extension
    expect(run('UPDATE', CE('monitoring-db', GOOD_SPEC), CE('monitoring-db', GOOD_SPEC, 'payments')).denied).toEqual(['team monitoring may only update or delete ClusterExtensions labelled olm-tenancy.io/team=monitoring']);
    // deleting: object is null on DELETE, the policy reads oldObject
    expect(run('DELETE', null, CE('monitoring-db', GOOD_SPEC, 'payments')).denied).toEqual(['team monitoring may only update or delete ClusterExtensions labelled olm-tenancy.io/team=monitoring']);
    expect(run('DELETE', null, CE('monitoring-admin-owned', GOOD_SPEC, null)).denied).toEqual(['team monitoring may only update or delete ClusterExtensions labelled olm-tenancy.io/team=monitoring']);
    // giving away: dropping the label from its own extension
    expect(run('UPDATE', CE('monitoring-a', GOOD_SPEC, 'payments'), CE('monitoring-a', GOOD_SPEC)).denied).toEqual(['team monitoring must label its ClusterExtensions olm-tenancy.io/team=monitoring']);
  });

  test('ranges: intervals inside the allowed interval pass, anything reaching outside is denied (not a regex on text)', () => {
    const denied = (version: string | undefined, packageName = 'prometheus') => run('CREATE', CE('monitoring-a', spec({ version, packageName }))).denied.length > 0;
    // prometheus: >=2.54.0 <2.55.0
    for (const ok of ['2.54.0', '2.54.9', '>=2.54.0 <2.55.0', '>=2.54.0, <2.55.0', '>2.54.1 <=2.54.7', '>= 2.54.3 < 2.54.4']) expect([ok, denied(ok)]).toEqual([ok, false]);
    for (const bad of ['2.55.0', '2.53.9', '>=2.54.0', '>=2.53.0 <2.55.0', '>=2.54.0 <=2.55.0', '>=2.54.0 <2.56.0', '2.54.x', '~2.54.0', '^2.54.0', '2.54', '>=2.54.0 <2.55.0 || >=3.0.0', '>=2.54.0-rc.1 <2.55.0', '', undefined]) {
      expect([bad, denied(bad as string)]).toEqual([bad, true]);
    }
    // alertmanager: >=0.27.0 <=0.27.9 and channel stable
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'alertmanager', version: '0.27.9', channels: ['stable'] }))).denied).toEqual([]);
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'alertmanager', version: '>0.27.0 <=0.27.9', channels: ['stable'] }))).denied).toEqual([]);
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'alertmanager', version: '>=0.27.0 <0.28.0', channels: ['stable'] }))).denied.length).toEqual(1);
  });

  test('channels: all named channels allowed, and some named when the package restricts them', () => {
    const am = (channels: string[] | undefined) => run('CREATE', CE('monitoring-a', spec({ packageName: 'alertmanager', version: '0.27.1', channels }))).denied;
    expect(am(['stable'])).toEqual([]);
    expect(am(['stable', 'candidate'])).toEqual(["package alertmanager with version '0.27.1' and channels [stable, candidate] is not allowed; allowed: alertmanager@>=0.27.0 <=0.27.9 (channels stable); grafana-operator; prometheus@>=2.54.0 <2.55.0"]);
    expect(am(undefined).length).toEqual(1);
    // packages without a channel restriction take any channel
    expect(run('CREATE', CE('monitoring-a', spec({ packageName: 'grafana-operator', version: undefined, channels: ['v5'] }))).denied).toEqual([]);
  });

  test('issue 27 item 8: allowWatchNamespace with the standard CRD (the default) is an error: the API server would prune spec.config and install for all namespaces', () => {
    const { app } = setup({ allowWatchNamespace: true });
    expect(validationErrors(app)).toEqual([
      '[platform/Team] allowWatchNamespace="true": team monitoring may write spec.config.inline.watchNamespace, but the standard ClusterExtension CRD has no spec.config: '
      + 'the API server prunes it and operator-controller installs the bundle for ALL namespaces, not the namespace the team asked for. '
      + "Fix: set crdChannel: OlmV1CrdChannel.EXPERIMENTAL if the cluster runs operator-controller's experimental CRDs, or drop allowWatchNamespace (SpecConfigNeedsExperimentalCrd)",
    ]);
    const explicit = setup({ allowDeploymentConfig: true, crdChannel: OlmV1CrdChannel.STANDARD });
    expect(validationErrors(explicit.app).map((e) => e.replace(/:.*\(/, ': ... ('))).toEqual(['[platform/Team] allowDeploymentConfig="true": ... (SpecConfigNeedsExperimentalCrd)']);
    expect(validationErrors(setup({ allowWatchNamespace: true, crdChannel: OlmV1CrdChannel.EXPERIMENTAL }).app)).toEqual([]);
  });

  test('the operator-controller version is a validated input', () => {
    expect(validationErrors(setup({ operatorControllerVersion: 'main' }).app)).toEqual([]);
    expect(validationErrors(setup({ operatorControllerVersion: '1.11' }).app)).toEqual([
      '[platform/Team] operatorControllerVersion="1.11": operator-controller version "1.11" is not modelled; use one of v1.11.0, main. Fix: use v1.11.0 or main (InvalidOperatorControllerVersion)',
    ]);
  });

  test('spec.config: refused unless watchNamespace is allowed, and then only a team namespace', () => {
    const withConfig = (config: any) => CE('monitoring-a', spec({}, { config }));
    expect(run('CREATE', withConfig({ configType: 'Inline', inline: { watchNamespace: 'monitoring' } })).denied).toEqual(['team monitoring may not set spec.config']);
    const allowed = setup({ allowWatchNamespace: true, crdChannel: OlmV1CrdChannel.EXPERIMENTAL });
    const vap2 = policyOf(allowed.chart);
    const run2 = (config: any) => admit(vap2.spec, req('CREATE'), withConfig(config), null).denied;
    expect(run2({ configType: 'Inline', inline: { watchNamespace: 'observability' } })).toEqual([]);
    const msg = 'team monitoring may only set spec.config.inline.watchNamespace, to one of monitoring, observability';
    expect(run2({ configType: 'Inline', inline: { watchNamespace: 'kube-system' } })).toEqual([msg]);
    expect(run2({ configType: 'Inline', inline: { watchNamespace: 'monitoring', deploymentConfig: { env: [] } } })).toEqual([msg]);
  });

  test('spec.serviceAccount: refused (operator-controller < v1.11.0 would install as it), unless it is a legacy installer account of the team', () => {
    expect(run('CREATE', CE('monitoring-a', spec({}, { serviceAccount: { name: 'powerful' } }))).denied).toEqual([
      'team monitoring may not set spec.serviceAccount (ignored since operator-controller v1.11.0; older versions install as it)',
    ]);
    const legacy = setup({ extensions: [{ packageName: 'grafana-operator', namespace: 'monitoring', legacyServiceAccount: 'grafana-installer', bundles: [] }] });
    // no bundles: synth would fail (LegacyServiceAccountWithoutBundles); the policy object itself is complete
    const vap2 = (legacy.team.guardrails.node.findChild('Policy') as ApiObject).toJson();
    const run2 = (name: string) => admit(vap2.spec, req('CREATE'), CE('monitoring-a', spec({}, { serviceAccount: { name } })), null).denied;
    expect(run2('grafana-installer')).toEqual([]);
    expect(run2('powerful')).toEqual(['team monitoring may only set spec.serviceAccount.name to grafana-installer']);
  });

  test('an allowed range with an exclusive lower bound: >1.0.0 <=2.0.0 does not admit 1.0.0 (issue 28)', () => {
    const excl = setup({ allowedPackages: [{ name: 'etcd', versionRange: '>1.0.0 <=2.0.0' }], extensions: [] });
    const vapX = policyOf(excl.chart);
    const deniedX = (version: string) => admit(vapX.spec, req('CREATE'), CE('monitoring-a', spec({ packageName: 'etcd', version }))).denied;
    const msg = (version: string) => [`package etcd with version '${version}' and channels [] is not allowed; allowed: etcd@>1.0.0 <=2.0.0`];
    for (const bad of ['1.0.0', '>=1.0.0 <=2.0.0', '>=1.0.0 <1.5.0', '0.9.9', '2.0.1', '>1.0.0 <=2.0.1', '>1.0.0']) expect([bad, deniedX(bad)]).toEqual([bad, msg(bad)]);
    for (const ok of ['1.0.1', '2.0.0', '>1.0.0 <=2.0.0', '>1.0.0 <2.0.0', '> 1.0.0, <= 1.5.0', '>=1.0.1 <=2.0.0']) expect([ok, deniedX(ok)]).toEqual([ok, []]);
  });

  test('random allowed ranges (exclusive bounds too): the policy admits exactly what the synth check admits, and only subsets (property, counted outcomes)', () => {
    const part = fc.constantFrom(0, 2, 4);
    const ver = fc.tuple(part, part, part).map((t) => t.join('.'));
    const bounded = fc.tuple(fc.constantFrom('>=', '>'), ver, fc.constantFrom('<', '<='), ver)
      .filter(([, lo, , up]) => OlmV1VersionRange.compare(lo, up) < 0)
      .map(([op, lo, uop, up]) => `${op}${lo} ${uop}${up}`);
    const grid: string[] = [];
    for (let a = 0; a <= 5; a++) for (let b = 0; b <= 5; b++) for (let c = 0; c <= 5; c++) grid.push(`${a}.${b}.${c}`);
    const count = { admitted: 0, denied: 0, exclusiveLowerAtBound: 0 };
    // a third of the requests start at the allowed lower bound (the exclusive-bound case)
    const pair = bounded.chain((a) => {
      const lo = OlmV1VersionRange.parse(a).lower.version;
      // (an empty interval is refused outright, version-constraints.test.ts: only non-empty ones here)
      const atBound = fc.oneof(fc.constant(lo), fc.tuple(fc.constantFrom('>=', '>'), fc.constantFrom('<', '<='), ver)
        .filter(([, , up]) => OlmV1VersionRange.compare(lo, up) < 0).map(([op, uop, up]) => `${op}${lo} ${uop}${up}`));
      return fc.tuple(fc.constant(a), fc.oneof(ver, bounded, atBound));
    });
    fc.assert(fc.property(pair, ([allowedText, requested]) => {
      const policy = policyOf(setup({ allowedPackages: [{ name: 'etcd', versionRange: allowedText }], extensions: [] }).chart);
      const celOk = admit(policy.spec, req('CREATE'), CE('monitoring-a', spec({ packageName: 'etcd', version: requested }))).denied.length === 0;
      const allowed = OlmV1VersionRange.parse(allowedText);
      const r = OlmV1VersionRange.parse(requested);
      expect([allowedText, requested, celOk]).toEqual([allowedText, requested, r.isWithin(allowed)]);
      // never admits a version outside the allowed range
      if (celOk) expect(grid.filter((v) => r.contains(v) && !allowed.contains(v))).toEqual([]);
      if (!allowed.lower.inclusive && OlmV1VersionRange.compare(r.lower.version, allowed.lower.version) === 0) count.exclusiveLowerAtBound++;
      count[celOk ? 'admitted' : 'denied']++;
    }), { numRuns: 120 });
    expect(count.admitted).toBeGreaterThanOrEqual(10);
    expect(count.denied).toBeGreaterThanOrEqual(30);
    expect(count.exclusiveLowerAtBound).toBeGreaterThanOrEqual(5);
  });

  test('the synth check and the policy agree on every version text (property, fixed seed)', () => {
    const part = fc.integer({ min: 0, max: 3 }).map((n) => String(2 + (n === 3 ? 1 : 0))); // near the bounds
    const minor = fc.integer({ min: 53, max: 56 }).map(String);
    const patch = fc.integer({ min: 0, max: 9 }).map(String);
    const ver = fc.tuple(part, minor, patch).map((t) => t.join('.'));
    const text = fc.oneof(ver, fc.tuple(fc.constantFrom('>=', '>', '> =', '>= '), ver, fc.option(fc.tuple(fc.constantFrom(' <', ', <', ' <=', ' < '), ver), { nil: undefined }))
      .map(([op, lo, up]) => `${op}${lo}${up ? up[0] + up[1] : ''}`));
    const allowed = OlmV1VersionRange.parse('>=2.54.0 <2.55.0');
    fc.assert(fc.property(text, (t) => {
      const synthOk = OlmV1VersionRange.problem(t) === undefined && OlmV1VersionRange.parse(t).isWithin(allowed);
      const celOk = run('CREATE', CE('monitoring-a', spec({ version: t }))).denied.length === 0;
      return synthOk === celOk;
    }), { seed: 1919, numRuns: 400 });
  });
});
