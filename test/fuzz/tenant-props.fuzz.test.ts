/**
 * The constructs from plain JavaScript (or Python, Java, Go through jsii): random values of random types for every
 * prop and method argument. Building never throws; synthesis either fails with cdk8s's validation error listing
 * readable one-line findings (never an InternalCheckFailed, a TypeError or a RangeError), or succeeds, and then
 * every object is valid against its schema (CRD openAPIV3Schema, core kinds, RBAC and admission rules).
 * fast-check with fixed seeds.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { expectNoCrash, expectReadable, garbage, goodOrGarbage, isCrash, nastyString, SEED } from './garbage';
import {
  AccessLevel, BlueprintOverride, CatalogSourceReference, CompactClusterRole, CompactRole, CuratedCatalog, CuratedCatalogAdmissionPolicy,
  InstallPlanApproval, OlmGeneration, OpenShiftOperatorHubPolicy, OperatorBundle, OperatorSubscription, PodSecurityLevel, PreflightEnforcement,
  RoleRefKind, ScopedOperatorTenant, SensitiveGrant, SubjectRoleBinding, TargetNamespaces, TenantBlueprint, UpgradeStrategy, UpstreamOlmCatalogPolicy,
} from '../../src';
import { SchemaValidator } from '../util/schema-validator';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const ETCD = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const PROMETHEUS = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));

/** A catalog: built inside the property (constructs need a scope). */
type CatalogChoice = { kind: 'reference'; name: unknown; namespace: unknown } | { kind: 'curated' } | { kind: 'garbage'; value: unknown } | { kind: 'none' };

/** The arbitraries, either with garbage mixed into every value (`valid` false) or with well-typed values only. */
function arbitraries(valid: boolean) {
  const mix = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<unknown> => (valid ? a : goodOrGarbage(a));
  const name = fc.constantFrom('team-a', 'team-b', 'etcd', 'prometheus', 'x1');
  const verbs = fc.subarray(['get', 'list', 'watch', 'create', 'update', '*', 'escalate', 'bind'], { minLength: 1 });
  const rule = fc.record(
    {
      verbs: mix(verbs),
      apiGroups: mix(fc.subarray(['', 'apps', 'operators.coreos.com', 'rbac.authorization.k8s.io', '*'])),
      resources: mix(fc.subarray(['pods', 'deployments', 'secrets', 'roles', 'customresourcedefinitions', '*'])),
      resourceNames: mix(fc.subarray(['a', 'b'])),
    },
    { requiredKeys: [] },
  );
  const rules = mix(fc.array(mix(rule), { maxLength: 3 }));
  const enumValue = (e: object) => mix(fc.constantFrom(...Object.values(e)));
  const stringMap = (keys: string[], values: fc.Arbitrary<unknown>) => mix(fc.dictionary(fc.constantFrom(...keys), mix(values), { maxKeys: 3 }));
  const targets = mix(fc.oneof(
    fc.constant(null).map(() => TargetNamespaces.ownNamespace()),
    fc.tuple(mix(fc.array(mix(name), { maxLength: 3 })), mix(fc.constantFrom('watch them', ''))).map(([n,
      r]) => TargetNamespaces.namespaces(n as any, r as any)),
    mix(fc.constantFrom('all of them', '')).map((r) => TargetNamespaces.allNamespaces(r as any)),
  ));

  const tenantProps = fc.record(
    {
      namespaceName: mix(name),
      createNamespace: mix(fc.boolean()),
      namespaceLabels: stringMap(['team', 'example.com/tier', 'bad key!'], fc.constantFrom('a', '', 'b-c')),
      namespaceAnnotations: stringMap(['note', 'example.com/why'], fc.string({ maxLength: 10 })),
      podSecurity: enumValue(PodSecurityLevel),
      operatorGroupName: mix(name),
      installerServiceAccountName: mix(name),
      installerRoleName: mix(name),
      installerRoleBindingName: mix(name),
      createTokenSecret: mix(fc.boolean()),
      tokenSecretName: mix(name),
      installerRules: rules,
      deriveInstallerRules: mix(fc.boolean()),
      clusterScopedInstallerRulesReason: mix(fc.constantFrom('webhooks need auth delegation', '')),
      clusterInstallerRules: rules,
      allowedSensitiveGrants: mix(fc.subarray(Object.values(SensitiveGrant))),
      targetNamespaces: targets,
      upgradeStrategy: enumValue(UpgradeStrategy),
      olmGeneration: enumValue(OlmGeneration),
      legacyPullSecretAccess: mix(fc.record({ catalogNamespace: mix(name), secretNames: mix(fc.array(mix(name), { maxLength: 2 })) },
        { requiredKeys: [] })),
    },
    { requiredKeys: [] },
  );

  const catalogChoice: fc.Arbitrary<CatalogChoice> = fc.oneof(
    fc.record({
      kind: fc.constant('reference' as const),
      name: mix(fc.constantFrom('community-operators', 'redhat-operators')),
      namespace: mix(fc.constantFrom('openshift-marketplace', 'olm')),
    }),
    fc.constant({ kind: 'curated' as const }),
    ...(valid ? [] : [garbage.map((value) => ({ kind: 'garbage' as const, value })), fc.constant({ kind: 'none' as const })]),
  );
  const subscriptionOptions = fc.record(
    {
      packageName: mix(fc.constantFrom('etcd', 'prometheus')),
      catalog: catalogChoice,
      channel: mix(fc.constantFrom('alpha', 'beta', 'singlenamespace-alpha')),
      name: mix(name),
      installPlanApproval: enumValue(InstallPlanApproval),
      startingCsv: mix(fc.constantFrom('etcdoperator.v0.9.4')),
      config: mix(fc.record({
        nodeSelector: stringMap(['role', 'kubernetes.io/os'], fc.constantFrom('infra', 'linux')),
        annotations: stringMap(['note'], fc.constantFrom('x')),
        env: mix(fc.constant([{ name: 'A', value: 'b' }])),
      }, { requiredKeys: [] })),
      bundle: mix(fc.constantFrom(ETCD, PROMETHEUS)),
      upgradeBundles: mix(fc.array(mix(fc.constantFrom(ETCD, PROMETHEUS)), { maxLength: 2 })),
      preflight: enumValue(PreflightEnforcement),
    },
    { requiredKeys: [] },
  );
  const subject = mix(fc.constantFrom(
    { toSubjectConfiguration: () => ({ kind: 'Group', name: 'team-a-admins', apiGroup: 'rbac.authorization.k8s.io' }) },
    { toSubjectConfiguration: () => ({ kind: 'User', name: 'alice' }) },
    { toSubjectConfiguration: () => ({ kind: 5 }) },
  ));
  const action = fc.oneof(
    fc.record({ m: fc.constant('subscribe' as const), options: mix(subscriptionOptions) }),
    fc.record({ m: fc.constant('addInstallerRule' as const), rule: mix(rule) }),
    fc.record({ m: fc.constant('addClusterInstallerRule' as const), rule: mix(rule) }),
    fc.record({
      m: fc.constant('allowInstaller' as const),
      props: mix(fc.record({
        verbs: mix(verbs), apiGroup: mix(fc.constantFrom('', 'apps')), resources: mix(fc.constant(['pods'])), resourceNames: mix(fc.constant(['x'])),
      }, { requiredKeys: ['verbs', 'apiGroup', 'resources'] })),
    }),
    fc.record({ m: fc.constant('grantOperatorAccess' as const), subject, level: enumValue(AccessLevel) }),
    fc.record({ m: fc.constant('grantSubscriptionManagement' as const), subject }),
    fc.record({
      m: fc.constant('removeOperator' as const),
      options: mix(fc.record({ packageName: mix(fc.constantFrom('etcd')), csvName: mix(fc.constantFrom('etcdoperator.v0.9.4')), bundle: mix(fc.constant(ETCD)) }, { requiredKeys: [] })),
    }),
  );
  return { name, verbs, rule, rules, enumValue, stringMap, targets, tenantProps, catalogChoice, subscriptionOptions, subject, action };
}

const { name, rule, rules, enumValue, stringMap, tenantProps, subscriptionOptions, subject, action, catalogChoice } = arbitraries(false);
const catalogChoiceFor = () => catalogChoice;
type Mix = <T>(a: fc.Arbitrary<T>) => fc.Arbitrary<unknown>;
/** The generators with only good values (no garbage), so that a test also reaches a synth that passes (issue 28). */
const clean = arbitraries(true);

/**
 * Both outcomes of the running test happen at least `min` times (a property over constructs is vacuous when they never
 * synthesize); asserted in one expect so that a failure prints the counts.
 */
function expectBothOutcomes(min: number): void {
  const c = countsOfThisTest();
  expect([c, c.failed >= min && c.synthesized >= min]).toEqual([c, true]);
}

/** Tenants that usually synthesize (the schema property needs many successful synths). */
const safeRule = fc.record({
  apiGroups: fc.subarray(['', 'apps'], { minLength: 1 }),
  resources: fc.subarray(['pods', 'configmaps', 'deployments'], { minLength: 1 }),
  verbs: fc.subarray(['get', 'list', 'watch'], { minLength: 1 }),
});
const validTenantProps = fc.record({
  namespaceName: fc.constantFrom('team-a', 'team-b'),
  namespaceLabels: fc.option(fc.dictionary(fc.constantFrom('team', 'example.com/tier'), fc.constantFrom('a', '', 'b-c.d_e'), { maxKeys: 2 }),
    { nil: undefined }),
  namespaceAnnotations: fc.option(fc.dictionary(fc.constantFrom('note', 'example.com/why'), fc.string({ maxLength: 20 }), { maxKeys: 2 }),
    { nil: undefined }),
  podSecurity: fc.option(fc.constantFrom(...Object.values(PodSecurityLevel)), { nil: undefined }),
  operatorGroupName: fc.option(fc.constantFrom('og', 'team-a.og'), { nil: undefined }),
  installerServiceAccountName: fc.option(fc.constantFrom('installer'), { nil: undefined }),
  installerRoleName: fc.option(fc.constantFrom('installer-role', 'Installer:Role'), { nil: undefined }),
  createTokenSecret: fc.option(fc.boolean(), { nil: undefined }),
  installerRules: fc.option(fc.array(safeRule, { maxLength: 2 }), { nil: undefined }),
  deriveInstallerRules: fc.constant(true),
  targetNamespaces: fc.option(fc.oneof(
    fc.constant(null).map(() => TargetNamespaces.ownNamespace()),
    fc.subarray(['team-a', 'team-b', 'apps'], { minLength: 1 }).map((n) => TargetNamespaces.namespaces(n, 'the operator watches the app namespaces')),
  ), { nil: undefined }),
  upgradeStrategy: fc.option(fc.constantFrom(...Object.values(UpgradeStrategy)), { nil: undefined }),
  olmGeneration: fc.option(fc.constantFrom(...Object.values(OlmGeneration)), { nil: undefined }),
}, { requiredKeys: ['namespaceName', 'deriveInstallerRules'] });
const validSubject = fc.constantFrom(
  { toSubjectConfiguration: () => ({ kind: 'Group', name: 'team-a-admins', apiGroup: 'rbac.authorization.k8s.io' }) },
  { toSubjectConfiguration: () => ({ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }) },
);
const validAction = fc.oneof(
  fc.record({
    m: fc.constant('subscribe' as const),
    options: fc.record({
      packageName: fc.constantFrom('etcd', 'prometheus'),
      catalog: fc.constantFrom<CatalogChoice>({ kind: 'curated' }, {
        kind: 'reference',
        name: 'community-operators',
        namespace: 'openshift-marketplace',
      }),
      channel: fc.option(fc.constantFrom('alpha', 'beta'), { nil: undefined }),
      installPlanApproval: fc.option(fc.constantFrom(...Object.values(InstallPlanApproval)), { nil: undefined }),
      withBundle: fc.boolean(),
      config: fc.option(fc.record({ nodeSelector: fc.constant({ 'kubernetes.io/os': 'linux' }), annotations: fc.constant({ note: 'x' }) }),
        { nil: undefined }),
    }, { requiredKeys: ['packageName', 'catalog', 'withBundle'] }).map(({ withBundle, ...o }) => ({
      ...o,
      ...(withBundle ? { bundle: o.packageName === 'etcd' ? ETCD : PROMETHEUS } : {}),
    })),
  }),
  fc.record({ m: fc.constant('addInstallerRule' as const), rule: safeRule }),
  fc.record({ m: fc.constant('grantOperatorAccess' as const), subject: validSubject, level: fc.constantFrom(...Object.values(AccessLevel)) }),
  fc.record({ m: fc.constant('grantSubscriptionManagement' as const), subject: validSubject }),
);

function catalogOf(chart: Chart, choice: unknown, i: number): unknown {
  const c = choice as CatalogChoice;
  switch (c?.kind) {
    case 'reference': return CatalogSourceReference.fromName(c.name as any, c.namespace as any);
    case 'curated': return new CuratedCatalog(chart, `Curated${i}`, {
      image: 'registry.example.com/curated:v1',
      packages: [{ name: 'etcd' },
        { name: 'prometheus' }],
    });
    case 'garbage': return c.value;
    default: return undefined;
  }
}

/**
 * Synthesizes `app`: a failure must be cdk8s's validation error with readable findings; a success must give
 * objects valid against their schemas. Returns the outcome for statistics.
 */
function checkSynth(app: App): 'failed' | 'synthesized' {
  let objects: any[];
  try {
    app.synthYaml();
    objects = app.charts.flatMap((c) => c.toJson());
  } catch (e) {
    if (isCrash(e)) throw new Error(`synth crashed: ${(e as Error)?.stack}`);
    const message = (e as Error).message;
    if (process.env.FUZZ_STATS) for (const m of message.matchAll(/\((\w+)\)$/gm)) codes.set(m[1], (codes.get(m[1]) ?? 0) + 1);
    if (!message.startsWith('Validation failed with the following errors:\n')) {
      throw new Error(`not a validation error (thrown instead of collected): ${message.slice(0, 500)}\n${(e as Error).stack?.slice(0, 1500)}`);
    }
    expectReadable(message);
    expect(message).not.toContain('(InternalCheckFailed)');
    return 'failed';
  }
  expect(SchemaValidator.shared().validateAll(objects)).toEqual([]);
  return 'synthesized';
}

const outcomes = { failed: 0, synthesized: 0 };
/** The outcomes of the running test (issue 28: counted per test, not over the whole file). */
const perTest = new Map<string, { failed: number; synthesized: number }>();
function record(outcome: 'failed' | 'synthesized'): void {
  outcomes[outcome]++;
  const test = expect.getState().currentTestName ?? '';
  const counts = perTest.get(test) ?? { failed: 0, synthesized: 0 };
  counts[outcome]++;
  perTest.set(test, counts);
}
/** The running test's outcome counts, asserted together so that a failure prints them. */
function countsOfThisTest(): { failed: number; synthesized: number } {
  return perTest.get(expect.getState().currentTestName ?? '') ?? { failed: 0, synthesized: 0 };
}
const codes = new Map<string, number>();

/** Builds a tenant from `props`, applies the method calls, and checks the synth (see `checkSynth`). */
function runTenant(props: unknown, actions: any[]): void {
  const app = new App({ outdir: 'unused' });
  const chart = new Chart(app, 'c');
  let tenant: ScopedOperatorTenant | undefined;
  expectNoCrash(() => {
    tenant = new ScopedOperatorTenant(chart, 'T', props as any);
  });
  if (!tenant) throw new Error('the constructor threw');
  const t = tenant;
  actions.forEach((a, i) => {
    if (a.m === 'subscribe') {
      const o: any = a.options;
      const options = o !== null && typeof o === 'object' && 'catalog' in o ? { ...o, catalog: catalogOf(chart, o.catalog, i) } : o;
      t.subscribe(options);
    } else if (a.m === 'addInstallerRule') {
      t.addInstallerRule(a.rule);
    } else if (a.m === 'addClusterInstallerRule') {
      t.addClusterInstallerRule(a.rule);
    } else if (a.m === 'allowInstaller') {
      t.allowInstaller(a.props as any);
    } else if (a.m === 'grantOperatorAccess') {
      t.grantOperatorAccess(a.subject, a.level);
    } else if (a.m === 'removeOperator') {
      t.removeOperator(a.options);
    } else {
      t.grantSubscriptionManagement(a.subject);
    }
  });
  record(checkSynth(app));
  // the read-only API answers too
  expectNoCrash(() => t.preflight());
  expectNoCrash(() => t.targetNamespaces);
  expectNoCrash(() => t.removedOperators);
  expectNoCrash(() => t.accessGrants);
}

describe('constructs from plain JavaScript (fast-check, fixed seeds)', () => {
  afterAll(() => {
    // both outcomes are exercised (the schema property is not vacuous)
    if (process.env.FUZZ_STATS) {
      console.log(JSON.stringify(outcomes), JSON.stringify([...perTest]), JSON.stringify([...codes].sort((a, b) => b[1] - a[1])));
    }
    expect(outcomes.failed).toBeGreaterThan(0);
    expect(outcomes.synthesized).toBeGreaterThan(0);
  });

  test('ScopedOperatorTenant: random props, then random method calls', () => {
    fc.assert(fc.property(fc.oneof(
      {
        arbitrary: fc.tuple(fc.oneof({ arbitrary: tenantProps, weight: 9 }, { arbitrary: garbage, weight: 1 }), fc.array(action, { maxLength: 4 })),
        weight: 9,
      },
      // without garbage: the checks after a clean input are reached too
      { arbitrary: fc.tuple(validTenantProps, fc.array(validAction, { maxLength: 2 })), weight: 1 },
    ), ([props, actions]) => runTenant(props, actions)),
    { seed: SEED + 10, numRuns: 1000 });
    expectBothOutcomes(10);
  });

  test('ScopedOperatorTenant with mostly valid values: every App that synthesizes is valid against the schemas', () => {
    fc.assert(fc.property(validTenantProps, fc.array(validAction, { maxLength: 4 }), runTenant), { seed: SEED + 15, numRuns: 600 });
    expectBothOutcomes(100);
  });

  test('OperatorSubscription made directly', () => {
    fc.assert(fc.property(fc.oneof(
      { arbitrary: subscriptionOptions.chain((o) => fc.record({ namespace: goodOrGarbage(name) }).map((n) => ({ ...o, ...n }))), weight: 4 },
      { arbitrary: garbage, weight: 4 },
      {
        arbitrary: clean.subscriptionOptions.chain((o) => fc.record({ namespace: clean.name }).map((n) => ({ ...o, ...n }))),
        weight: 2,
      },
    ), (props) => {
      const app = new App({ outdir: 'unused' });
      const chart = new Chart(app, 'c');
      const p: any = props;
      const options = p !== null && typeof p === 'object' && 'catalog' in p ? { ...p, catalog: catalogOf(chart, p.catalog, 0) } : p;
      expectNoCrash(() => new OperatorSubscription(chart, 'S', options));
      record(checkSynth(app));
    }), { seed: SEED + 11, numRuns: 600 });
    expectBothOutcomes(10);
  });

  test('CompactRole, CompactClusterRole and SubjectRoleBinding', () => {
    const args = (mix: Mix, a: ReturnType<typeof arbitraries>, kinds: fc.Arbitrary<string>) => {
      const roleProps = fc.record({
        name: mix(name),
        namespace: mix(name),
        rules: a.rules,
        labels: a.stringMap(['team', 'bad key!'],
          fc.constantFrom('a')),
      }, { requiredKeys: [] });
      const bindingProps = fc.record({
        name: mix(name),
        namespace: mix(name),
        roleName: mix(name),
        roleKind: a.enumValue(RoleRefKind),
        annotations: a.stringMap(['note'], fc.constantFrom('x')),
      }, { requiredKeys: [] });
      return fc.tuple(mix(roleProps), mix(roleProps), mix(bindingProps), mix(a.rule), a.subject, kinds);
    };
    fc.assert(fc.property(fc.oneof(
      {
        arbitrary: args(goodOrGarbage, { name, rule, rules, enumValue, stringMap, subject } as ReturnType<typeof arbitraries>, nastyString),
        weight: 3,
      },
      {
        arbitrary: fc.tuple(
          fc.record({ name, namespace: name, rules: fc.array(safeRule, { maxLength: 2 }), labels: fc.constant({ team: 'a' }) }, { requiredKeys: ['name', 'namespace'] }),
          fc.record({ name, rules: fc.array(safeRule, { maxLength: 2 }) }, { requiredKeys: ['name'] }),
          fc.record({ name, namespace: name, roleName: name, roleKind: fc.constantFrom(...Object.values(RoleRefKind)), annotations: fc.constant({ note: 'x' }) },
            { requiredKeys: ['name', 'namespace', 'roleName', 'roleKind'] }),
          safeRule, validSubject, fc.constantFrom('User', 'Group')),
        weight: 1,
      },
    ), ([rp, crp, bp, extra, s, kind]) => {
      const app = new App({ outdir: 'unused' });
      const chart = new Chart(app, 'c');
      expectNoCrash(() => new CompactRole(chart, 'R', rp as any).addRules(extra as any));
      expectNoCrash(() => new CompactClusterRole(chart, 'CR', crp as any).addRules(extra as any));
      expectNoCrash(() => {
        const b = new SubjectRoleBinding(chart, 'B', bp as any);
        b.addSubject(s as any);
        b.addSubjectConfiguration(kind, 'someone');
      });
      record(checkSynth(app));
    }), { seed: SEED + 12, numRuns: 600 });
    expectBothOutcomes(10);
  });

  test('CuratedCatalog, its serve methods, and the catalog policies', () => {
    const args = (mix: Mix) => {
      const pkg = mix(fc.record({
        name: mix(fc.constantFrom('etcd', 'prometheus', '')),
        channels: mix(fc.array(mix(fc.record({
          name: mix(fc.constantFrom('alpha', 'beta')),
          versionRange: mix(fc.constantFrom('>=1.0.0', 'nonsense')),
        }, { requiredKeys: [] })), { maxLength: 2 })),
        versionRange: mix(fc.constantFrom('>=0.9.0', '<<1')),
      }, { requiredKeys: [] }));
      const catalogProps = fc.record({
        packages: mix(fc.array(pkg, { maxLength: 3 })),
        catalogName: mix(fc.constantFrom('curated-operators', '1bad')),
        image: mix(fc.constantFrom('registry.example.com/curated:v1', 'a b', 'x\ny')),
        address: mix(fc.constantFrom('catalog.platform.svc:50051')),
        displayName: mix(fc.constantFrom('Curated')),
        publisher: mix(fc.constantFrom('Platform')),
        priority: mix(fc.integer({ min: -100, max: 100 })),
        registryPollInterval: mix(fc.constantFrom('30m', '1d', '0s')),
        secrets: mix(fc.array(mix(name), { maxLength: 2 })),
        grpcPodConfig: mix(fc.constant({ nodeSelector: { 'kubernetes.io/os': 'linux' } })),
      }, { requiredKeys: [] });
      const props = fc.oneof({ arbitrary: catalogProps, weight: 9 }, { arbitrary: garbage, weight: 1 });
      return fc.tuple(props, fc.array(mix(name), { maxLength: 3 }), pkg,
        mix(fc.record({
          policyName: mix(name),
          exemptUsernames: mix(fc.constant(['system:serviceaccount:olm:olm-operator-serviceaccount'])),
        }, { requiredKeys: [] })),
        mix(fc.record({
          keepEnabled: mix(fc.constant(['redhat-operators'])),
          disable: mix(fc.constant(['community-operators'])),
          disableAllDefaultSources: mix(fc.boolean()),
        },
        { requiredKeys: [] })),
        mix(fc.record({
          disabledSources: mix(fc.array(mix(fc.record({
            name: mix(name),
            namespace: mix(name),
          })), { maxLength: 2 })),
          denyRecreation: mix(fc.boolean()),
        }, { requiredKeys: [] })),
        fc.boolean(), fc.constant(true));
    };
    const cleanArgs = fc.tuple(
      fc.record({
        packages: fc.constant([{ name: 'etcd', channels: [{ name: 'alpha', versionRange: '>=0.9.0' }] }]),
        catalogName: fc.constant('curated-operators'),
        image: fc.constant('registry.example.com/curated:v1'),
        displayName: fc.constant('Curated'),
        priority: fc.integer({ min: -100, max: 100 }),
        registryPollInterval: fc.constantFrom('30m', '1h'),
      }, { requiredKeys: ['packages', 'catalogName', 'image'] }),
      fc.constant(['team-a'] as unknown[]), fc.constantFrom({ name: 'prometheus' }, { name: 'prometheus', versionRange: '>=0.50.0' }),
      fc.record({ policyName: name }, { requiredKeys: [] }), fc.constant({}), fc.constant({}), fc.boolean(), fc.constant(false));
    fc.assert(fc.property(fc.oneof({ arbitrary: args(goodOrGarbage), weight: 9 }, { arbitrary: cleanArgs, weight: 1 }),
      ([props, namespaces, extra, policyProps, hubProps, upstreamProps, openshift, withGarbage]) => {
        const app = new App({ outdir: 'unused' });
        const chart = new Chart(app, 'c');
        let catalog: CuratedCatalog | undefined;
        expectNoCrash(() => {
          catalog = new CuratedCatalog(chart, 'C', props as any);
        });
        for (const ns of namespaces) expectNoCrash(() => catalog!.serveNamespace(ns as any));
        // serve() takes a tenant: a namespace name there is garbage
        if (withGarbage) expectNoCrash(() => catalog!.serve(namespaces[0] as any));
        expectNoCrash(() => catalog!.allow(extra as any));
        const policy: any = policyProps !== null && typeof policyProps === 'object' ? { ...policyProps, catalog } : policyProps;
        expectNoCrash(() => new CuratedCatalogAdmissionPolicy(chart, 'P', policy));
        if (openshift) expectNoCrash(() => new OpenShiftOperatorHubPolicy(chart, 'Hub', hubProps as any));
        else expectNoCrash(() => new UpstreamOlmCatalogPolicy(chart, 'Upstream', upstreamProps as any));
        record(checkSynth(app));
      }), { seed: SEED + 13, numRuns: 800 });
    expectBothOutcomes(10);
  });

  test('TenantBlueprint (props and stamp options) and TenantBaseline', () => {
    const operator = goodOrGarbage(fc.record({
      packageName: goodOrGarbage(fc.constantFrom('etcd', 'prometheus')),
      channel: goodOrGarbage(fc.constantFrom('alpha', 'beta')),
      bundle: goodOrGarbage(fc.constantFrom(ETCD, PROMETHEUS)),
      installPlanApproval: enumValue(InstallPlanApproval),
    }, { requiredKeys: [] }));
    const blueprintProps = fc.record({
      name: goodOrGarbage(fc.constantFrom('standard', 'x y')),
      catalog: catalogChoiceFor(),
      operators: goodOrGarbage(fc.array(operator, { maxLength: 2 })),
      namespacePrefix: goodOrGarbage(fc.constantFrom('team-', 'Team_')),
      namespaceLabels: stringMap(['tier', 'bad key!'], fc.constantFrom('gold', '')),
      podSecurity: enumValue(PodSecurityLevel),
      deriveInstallerRules: goodOrGarbage(fc.boolean()),
      installPlanApproval: enumValue(InstallPlanApproval),
      grants: goodOrGarbage(fc.array(goodOrGarbage(fc.record({
        groupName: goodOrGarbage(fc.constantFrom('{team}-admins')), access: enumValue(AccessLevel), subscriptionManagement: goodOrGarbage(fc.boolean()),
      }, { requiredKeys: [] })), { maxLength: 2 })),
      baseline: goodOrGarbage(fc.record({
        quota: stringMap(['pods', 'requests.cpu'], fc.constantFrom('10', '500m', 'lots')),
        defaultRequests: goodOrGarbage(fc.record({ cpu: goodOrGarbage(fc.constant('100m')), memory: goodOrGarbage(fc.constant('128Mi')) }, { requiredKeys: [] })),
        networkPolicies: goodOrGarbage(fc.boolean()),
        olmNamespaces: goodOrGarbage(fc.constant(['olm'])),
      }, { requiredKeys: [] })),
      allowedOverrides: goodOrGarbage(fc.subarray(Object.values(BlueprintOverride))),
    }, { requiredKeys: [] });
    const stampOptions = goodOrGarbage(fc.record({
      namespaceName: goodOrGarbage(name),
      extraOperators: goodOrGarbage(fc.array(operator, { maxLength: 1 })),
      omitOperators: goodOrGarbage(fc.constant(['etcd'])),
      channels: stringMap(['etcd', 'prometheus'], fc.constantFrom('beta')),
      quota: stringMap(['pods'], fc.constantFrom('5')),
    }, { requiredKeys: [] }));
    // a clean arm (valid values only): a blueprint with garbage in any field never stamps a tenant that synthesizes
    const cleanBlueprint = fc.record({
      name: fc.constant('standard'),
      catalog: fc.constant<CatalogChoice>({ kind: 'curated' }),
      operators: fc.subarray([{ packageName: 'etcd', channel: 'alpha', bundle: ETCD }, { packageName: 'prometheus', channel: 'beta', bundle: PROMETHEUS }]),
      namespacePrefix: fc.constant('team-'),
      deriveInstallerRules: fc.constant(true),
      installPlanApproval: fc.constantFrom(...Object.values(InstallPlanApproval)),
      podSecurity: fc.constantFrom(...Object.values(PodSecurityLevel)),
    }, { requiredKeys: ['name', 'catalog', 'operators', 'deriveInstallerRules'] });
    fc.assert(fc.property(fc.oneof(
      { arbitrary: fc.tuple(goodOrGarbage(blueprintProps), goodOrGarbage(fc.constantFrom('payments', 'data')), stampOptions), weight: 9 },
      { arbitrary: fc.tuple(cleanBlueprint, fc.constantFrom('payments', 'data'), fc.constant(undefined)), weight: 1 },
    ), ([bp, team, options]) => {
      const app = new App({ outdir: 'unused' });
      const chart = new Chart(app, 'c');
      const b: any = bp;
      const props = b !== null && typeof b === 'object' && 'catalog' in b ? { ...b, catalog: catalogOf(chart, b.catalog, 0) } : b;
      expectNoCrash(() => new TenantBlueprint(props).stamp(chart, team as any, options as any));
      record(checkSynth(app));
    }), { seed: SEED + 16, numRuns: 500 });
    expectBothOutcomes(10);
  });

  test('CatalogSourceReference.fromName and TargetNamespaces with garbage never throw', () => {
    fc.assert(fc.property(garbage, garbage, (a, b) => {
      expectNoCrash(() => CatalogSourceReference.fromName(a as any, b as any).checkSubscription({
        subscriberNamespace: 'team-a',
        packageName: 'etcd',
      }));
      expectNoCrash(() => TargetNamespaces.namespaces(a as any, b as any).resolve('team-a'));
      expectNoCrash(() => TargetNamespaces.allNamespaces(a as any));
    }), { seed: SEED + 14, numRuns: 500 });
  });
});

describe('methods that run outside synth (fast-check, fixed seeds)', () => {
  test('CuratedCatalog.artifacts / writeArtifacts, UpstreamOlmCatalogPolicy.writeArtifacts and ScopedOperatorTenant.of with garbage throw clear errors', () => {
    const app = new App({ outdir: 'unused' });
    const chart = new Chart(app, 'c');
    const catalog = new CuratedCatalog(chart, 'C', { image: 'registry.example.com/curated:v1', packages: [{ name: 'etcd' }] });
    const policy = new UpstreamOlmCatalogPolicy(chart, 'U');
    fc.assert(fc.property(garbage, garbage, (a, b) => {
      expectNoCrash(() => catalog.artifacts(a as any));
      // a string directory would be written to: only garbage that is not a usable directory is passed here
      if (typeof a !== 'string' || a === '') {
        expectNoCrash(() => catalog.writeArtifacts(a as any, b as any));
        expectNoCrash(() => policy.writeArtifacts(a as any));
      }
      expectNoCrash(() => ScopedOperatorTenant.of(a as any));
    }), { seed: SEED + 17, numRuns: 300 });
  });
});
