import fc from 'fast-check';
import { InstallerRuleCheckOptions, InstallerRuleChecks, PolicyRule, SensitiveGrant } from '../../src';
import { CACHING } from '../../src/core/content-cache';
import { RbacRules } from '../../src/rbac/rbac-rules';

const codes = (rules: PolicyRule[], clusterScoped: boolean, allowed: SensitiveGrant[] = []) =>
  InstallerRuleChecks.errors(rules, { clusterScoped, allowedSensitiveGrants: allowed }).map((d) => d.code + (d.message.includes('SensitiveGrant.') ? `:${/SensitiveGrant\.(\w+)/.exec(d.message)![1]}` : ''));

describe('InstallerRuleChecks.errors', () => {
  // [case name, rules, clusterScoped, expected codes]
  test.each<[string, PolicyRule[], boolean, string[]]>([
    ['OKD fine-grained defaults are fine', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }], false, []],
    ['cluster wildcard writes CRDs and APIServices', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], true, [
      'InstallerCanWriteCrds',
      'InstallerCanWriteApiServices',
      'InstallerSensitiveGrant:ESCALATE',
      'InstallerSensitiveGrant:BIND',
      'InstallerSensitiveGrant:IMPERSONATE',
      'InstallerSensitiveGrant:OPERATOR_GROUP_WRITES',
      'InstallerSensitiveGrant:SERVICE_ACCOUNT_TOKENS',
      'InstallerSensitiveGrant:POD_CREATE',
      'InstallerSensitiveGrant:POD_EXEC',
      'InstallerSensitiveGrant:SECRETS_READ_CLUSTER_WIDE',
      'InstallerSensitiveGrant:NODES_PROXY',
      'InstallerSensitiveGrant:ADMISSION_POLICY_WRITES',
      'InstallerSensitiveGrant:MUTATING_WEBHOOK_WRITES',
      'InstallerSensitiveGrant:VALIDATING_WEBHOOK_WRITES',
      'InstallerSensitiveGrant:OPERATOR_HUB_WRITES',
      'InstallerSensitiveGrant:CATALOG_SOURCE_CREATE',
      'InstallerSensitiveGrant:CSR_APPROVAL',
      // issue 15 item 8: cluster-wide grants that passed silently
      'InstallerSensitiveGrant:POD_EPHEMERAL_CONTAINERS',
      'InstallerSensitiveGrant:WORKLOAD_WRITES',
      'InstallerSensitiveGrant:SUBSCRIPTION_CREATE',
      'InstallerSensitiveGrant:INSTALL_PLAN_APPROVAL',
      'InstallerSensitiveGrant:PERSISTENT_VOLUME_CREATE',
      'InstallerSensitiveGrant:NAMESPACE_WRITES',
      'InstallerSensitiveGrant:NETWORK_POLICY_WRITES',
      'InstallerSensitiveGrant:SERVICE_UPDATE',
      'InstallerSensitiveGrant:CONFIGMAP_UPDATE',
      'InstallerSensitiveGrant:CLUSTER_OBJECT_SET_WRITES',
      'InstallerSensitiveGrant:POD_IMAGE_UPDATE',
      // issue 37: OLM's CSV and InstallPlan deputies, operator-controller's installs, destructive shared writes
      'InstallerSensitiveGrant:CSV_WRITES',
      'InstallerSensitiveGrant:INSTALL_PLAN_STATUS_WRITES',
      'InstallerSensitiveGrant:OLM_V1_INSTALL_WRITES',
      'InstallerSensitiveGrant:DESTRUCTIVE_CLUSTER_WRITES',
    ]],
    ['cluster group wildcard on customresourcedefinitions', [{ apiGroups: ['*'], resources: ['customresourcedefinitions'], verbs: ['patch'] }], true, ['InstallerCanWriteCrds']],
    ['cluster read of CRDs is fine', [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'watch'] }], true, []],
    ['cluster apiservices delete', [{ apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], verbs: ['delete'] }], true, ['InstallerCanWriteApiServices']],
    ['CRD write named by resourceNames is still a write', [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: ['etcdclusters.etcd.database.coreos.com'], verbs: ['update'] }], true, ['InstallerCanWriteCrds']],
    ['namespaced Role cannot reach CRDs', [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['create'] }], false, []],
    ['namespaced full wildcard is left to warnings', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], false, []],
    ['namespaced verb wildcard on roles escalates and binds', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['*'] }], false, ['InstallerSensitiveGrant:ESCALATE', 'InstallerSensitiveGrant:BIND']],
    ['bind on clusterroles', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'] }], false, ['InstallerSensitiveGrant:BIND']],
    ['impersonate serviceaccounts', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }], false, ['InstallerSensitiveGrant:IMPERSONATE']],
    // update on catalogsources too: the curated CatalogSource pointed at another image
    ['operatorgroups via group resource wildcard', [{ apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['update'] }], false, ['InstallerSensitiveGrant:OPERATOR_GROUP_WRITES', 'InstallerSensitiveGrant:CATALOG_SOURCE_CREATE']],
    ['operatorgroups read is fine', [{ apiGroups: ['operators.coreos.com'], resources: ['operatorgroups'], verbs: ['get', 'list', 'watch'] }], false, []],
    ['non-resource URL in a Role is invalid', [{ nonResourceUrls: ['/healthz'], verbs: ['get'] }], false, ['InvalidInstallerRule']],
    ['empty verbs is invalid', [{ apiGroups: [''], resources: ['pods'], verbs: [] }], false, ['InvalidInstallerRule']],
  ])('%s', (_name, rules, clusterScoped, expected) => {
    expect(codes(rules, clusterScoped)).toEqual(expected);
  });

  test('allowedSensitiveGrants removes exactly the accepted grants, never the CRD/APIService errors', () => {
    const wildcard = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
    expect(codes(wildcard, true, Object.values(SensitiveGrant))).toEqual(['InstallerCanWriteCrds', 'InstallerCanWriteApiServices']);
    expect(codes(wildcard, true, [SensitiveGrant.BIND, SensitiveGrant.IMPERSONATE])).toEqual([
      'InstallerCanWriteCrds',
      'InstallerCanWriteApiServices',
      'InstallerSensitiveGrant:ESCALATE',
      'InstallerSensitiveGrant:OPERATOR_GROUP_WRITES',
      'InstallerSensitiveGrant:SERVICE_ACCOUNT_TOKENS',
      'InstallerSensitiveGrant:POD_CREATE',
      'InstallerSensitiveGrant:POD_EXEC',
      'InstallerSensitiveGrant:SECRETS_READ_CLUSTER_WIDE',
      'InstallerSensitiveGrant:NODES_PROXY',
      'InstallerSensitiveGrant:ADMISSION_POLICY_WRITES',
      'InstallerSensitiveGrant:MUTATING_WEBHOOK_WRITES',
      'InstallerSensitiveGrant:VALIDATING_WEBHOOK_WRITES',
      'InstallerSensitiveGrant:OPERATOR_HUB_WRITES',
      'InstallerSensitiveGrant:CATALOG_SOURCE_CREATE',
      'InstallerSensitiveGrant:CSR_APPROVAL',
      // issue 15 item 8: cluster-wide grants that passed silently
      'InstallerSensitiveGrant:POD_EPHEMERAL_CONTAINERS',
      'InstallerSensitiveGrant:WORKLOAD_WRITES',
      'InstallerSensitiveGrant:SUBSCRIPTION_CREATE',
      'InstallerSensitiveGrant:INSTALL_PLAN_APPROVAL',
      'InstallerSensitiveGrant:PERSISTENT_VOLUME_CREATE',
      'InstallerSensitiveGrant:NAMESPACE_WRITES',
      'InstallerSensitiveGrant:NETWORK_POLICY_WRITES',
      'InstallerSensitiveGrant:SERVICE_UPDATE',
      'InstallerSensitiveGrant:CONFIGMAP_UPDATE',
      'InstallerSensitiveGrant:CLUSTER_OBJECT_SET_WRITES',
      'InstallerSensitiveGrant:POD_IMAGE_UPDATE',
      // issue 37: OLM's CSV and InstallPlan deputies, operator-controller's installs, destructive shared writes
      'InstallerSensitiveGrant:CSV_WRITES',
      'InstallerSensitiveGrant:INSTALL_PLAN_STATUS_WRITES',
      'InstallerSensitiveGrant:OLM_V1_INSTALL_WRITES',
      'InstallerSensitiveGrant:DESTRUCTIVE_CLUSTER_WRITES',
    ]);
  });

  test('the error names the field, the granting rule and the fix', () => {
    expect(InstallerRuleChecks.errors([{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }], { clusterScoped: true, field: 'clusterInstallerRules' })).toEqual([
      {
        code: 'InstallerSensitiveGrant',
        field: 'clusterInstallerRules',
        value: 'clusterInstallerRules[0] {"apiGroups":[""],"resources":["users"],"verbs":["impersonate"]}',
        message:
          "the cluster-scoped installer rules grant 'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras) (SensitiveGrant.IMPERSONATE); an operator installed with them could gain rights nobody reviewed",
        fix: 'remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.IMPERSONATE, reason }]',
      },
    ]);
  });

  test('property: adding rules never removes an error (grants only grow)', () => {
    const word = fc.constantFrom('*', '', 'apps', 'rbac.authorization.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'operators.coreos.com');
    const resource = fc.constantFrom('*', 'pods', 'roles', 'clusterroles', 'customresourcedefinitions', 'apiservices', 'operatorgroups', 'users');
    const verb = fc.constantFrom('*', 'get', 'create', 'patch', 'escalate', 'bind', 'impersonate', 'delete');
    const rule = fc.record({
      apiGroups: fc.uniqueArray(word, { minLength: 1, maxLength: 2 }),
      resources: fc.uniqueArray(resource, { minLength: 1, maxLength: 2 }),
      verbs: fc.uniqueArray(verb, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 3 }), fc.array(rule, { maxLength: 3 }), fc.boolean(), (a, b, clusterScoped) => {
        const before = new Set(codes(a, clusterScoped));
        const after = new Set(codes([...a, ...b], clusterScoped));
        for (const c of before) expect(after.has(c)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('InstallerRuleChecks.warnings', () => {
  test("the docs' */*/* Role is a warning in a namespaced Role only", () => {
    const rules = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
    expect(InstallerRuleChecks.warnings(rules, { clusterScoped: false }).map((d) => [d.code, d.field, d.value])).toEqual([
      ['WildcardInstallerRole', 'installerRules[0]', '{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}'],
    ]);
    expect(InstallerRuleChecks.warnings(rules, { clusterScoped: true })).toEqual([]);
  });

  test('a malformed wildcard is no wildcard; a wildcard with another problem (a verb in capitals) still is', () => {
    expect(InstallerRuleChecks.isFullWildcard(Object.assign([], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }) as any)).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: '*', apiGroups: ['*'], resources: ['*'] } as any)).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: { length: 0 } } as any)).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: ['*', 'Get'], apiGroups: ['*'], resources: ['*'] })).toBe(true);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: ['*'], apiGroups: ['apps'], resources: ['*'] })).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: ['get'], apiGroups: ['*'], resources: ['*'] })).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ verbs: ['*'], apiGroups: ['*'], resources: ['pods'] })).toBe(false);
  });

  test('a wildcard limited by resourceNames is not the full wildcard', () => {
    expect(InstallerRuleChecks.isFullWildcard({ apiGroups: ['*'], resources: ['*'], verbs: ['*'], resourceNames: ['x'] })).toBe(false);
    expect(InstallerRuleChecks.isFullWildcard({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] })).toBe(true);
  });

  test('isFullWildcard (wildcard test first, validation only for wildcards) answers as validating first does, for malformed rules too (fast-check, fixed seed)', () => {
    const validateFirst = (rule: any): boolean => {
      if (RbacRules.validate(rule).some((p: string) => p.startsWith('rule must be an object') || p.startsWith('rule field '))) return false;
      return (rule.verbs ?? []).includes('*') && (rule.apiGroups ?? []).includes('*') && (rule.resources ?? []).includes('*') && (rule.resourceNames ?? []).length === 0;
    };
    const field = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant('*'), fc.integer(), fc.constant({ length: 0 }),
      fc.array(fc.constantFrom('*', 'get', '', 'pods', 'apps', 3 as any, null as any), { maxLength: 3 }));
    const rule = fc.oneof(fc.constant(null), fc.constant('*'), fc.record({ verbs: field, apiGroups: field, resources: field, resourceNames: field, nonResourceURLs: field }, { requiredKeys: [] }));
    fc.assert(fc.property(rule, (r) => {
      expect(InstallerRuleChecks.isFullWildcard(r as any)).toBe(validateFirst(r));
    }), { seed: 17, numRuns: 3000 });
  });
});

describe('InstallerRuleChecks resourceNames', () => {
  test('bind narrowed to named roles is still reported (and can be accepted)', () => {
    const rules = [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] }];
    expect(codes(rules, false)).toEqual(['InstallerSensitiveGrant:BIND']);
    expect(codes(rules, false, [SensitiveGrant.BIND])).toEqual([]);
  });

  test('create limited by resourceNames never matches upstream, so it is not a CRD write', () => {
    const rules = [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: ['x'], verbs: ['create'] }];
    expect(codes(rules, true)).toEqual([]);
  });
});

describe('InstallerRuleChecks: CRD/APIService writes against an independent oracle', () => {
  // Oracle: upstream RBAC matching (k8s.io/component-helpers/auth/rbac/validation ruleCovers / VerbMatches,
  // APIGroupMatches, ResourceMatches, ResourceNameMatches) written out for one group/resource: a rule grants a
  // write if it matches a write verb, the group and the resource; with resourceNames only named requests match,
  // and create/deletecollection requests never carry a name.
  const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];
  const oracle = (rules: PolicyRule[], group: string, resource: string) =>
    rules.some((r) => {
      const named = (r.resourceNames ?? []).length > 0;
      const verbs = r.verbs.includes('*') ? WRITES : r.verbs.filter((v) => WRITES.includes(v));
      const usable = named ? verbs.filter((v) => v !== 'create' && v !== 'deletecollection') : verbs;
      return usable.length > 0
        && (r.apiGroups ?? []).some((g) => g === '*' || g === group)
        && (r.resources ?? []).some((x) => x === '*' || x === resource);
    });

  test('property: a cluster-scoped rule set is refused exactly when it can write CRDs or APIServices; a namespaced Role never is', () => {
    const rule = fc.record({
      apiGroups: fc.uniqueArray(fc.constantFrom('*', '', 'apps', 'apiextensions.k8s.io', 'apiregistration.k8s.io'), { minLength: 1, maxLength: 2 }),
      resources: fc.uniqueArray(fc.constantFrom('*', 'customresourcedefinitions', 'apiservices', 'pods', 'customresourcedefinitions/status'), { minLength: 1, maxLength: 2 }),
      verbs: fc.uniqueArray(fc.constantFrom('*', 'get', 'list', 'create', 'update', 'patch', 'delete', 'deletecollection'), { minLength: 1, maxLength: 3 }),
      resourceNames: fc.constantFrom<string[]>([], ['etcdclusters.etcd.database.coreos.com']),
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), (rules) => {
        const all = Object.values(SensitiveGrant);
        const cluster = codes(rules, true, all);
        expect(cluster.includes('InstallerCanWriteCrds')).toBe(oracle(rules, 'apiextensions.k8s.io', 'customresourcedefinitions'));
        expect(cluster.includes('InstallerCanWriteApiServices')).toBe(oracle(rules, 'apiregistration.k8s.io', 'apiservices'));
        expect(codes(rules, false, all).filter((c) => c.startsWith('InstallerCanWrite'))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('InstallerRuleChecks: the escalation-equivalent grants against an independent oracle', () => {
  // Oracle: upstream RBAC matching (k8s.io/component-helpers/auth/rbac/validation: VerbMatches, APIGroupMatches,
  // ResourceMatches with `*` and `*/sub`, ResourceNameMatches) written out for fixed requests; named rules match only
  // requests that carry a name (never create).
  const matches = (r: PolicyRule, verb: string, group: string, resource: string) => {
    const named = (r.resourceNames ?? []).length > 0;
    const sub = resource.includes('/') ? resource.slice(resource.indexOf('/')) : undefined;
    return (r.verbs.includes('*') || r.verbs.includes(verb))
      && !(named && verb === 'create')
      && (r.apiGroups ?? []).some((g) => g === '*' || g === group)
      && (r.resources ?? []).some((x) => x === '*' || x === resource || (sub !== undefined && x === `*${sub}`));
  };
  const PROBES: Array<[SensitiveGrant, string[], string, string[], boolean]> = [
    // grant, verbs, group, resources, checked in a namespaced Role whose OperatorGroup targets beyond the namespace
    // every verb whose response carries the Secrets (handlers get.go, watch.go, patch.go, delete.go)
    [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, ['get', 'list', 'watch', 'patch', 'delete', 'deletecollection'], '', ['secrets'], false],
    [SensitiveGrant.POD_CREATE, ['create'], '', ['pods'], true],
    [SensitiveGrant.POD_EXEC, ['create', 'get'], '', ['pods/exec', 'pods/attach', 'pods/portforward'], true],
    [SensitiveGrant.NODES_PROXY, ['get', 'create', 'update', 'patch', 'delete'], '', ['nodes/proxy'], false],
    [SensitiveGrant.SERVICE_ACCOUNT_TOKENS, ['create'], '', ['serviceaccounts/token'], true],
    [SensitiveGrant.CATALOG_SOURCE_CREATE, ['create', 'update', 'patch'], 'operators.coreos.com', ['catalogsources'], true],
    [SensitiveGrant.POD_IMAGE_UPDATE, ['update', 'patch'], '', ['pods'], true],
  ];
  const grantsOf = (rules: PolicyRule[], options: InstallerRuleCheckOptions) =>
    InstallerRuleChecks.errors(rules, options).map((e) => /SensitiveGrant\.(\w+)\)/.exec(e.message)?.[1]).filter((g) => g !== undefined);

  test('property: each grant is reported exactly when some rule matches one of its requests (cluster; namespaced beyond the namespace)', () => {
    const rule = fc.record({
      apiGroups: fc.uniqueArray(fc.constantFrom('*', '', 'apps', 'operators.coreos.com'), { minLength: 1, maxLength: 2 }),
      resources: fc.uniqueArray(fc.constantFrom('*', 'secrets', 'pods', 'pods/exec', 'pods/log', '*/proxy', 'nodes/proxy', 'serviceaccounts/token', '*/token', 'catalogsources', 'configmaps'),
        { minLength: 1, maxLength: 3 }),
      verbs: fc.uniqueArray(fc.constantFrom('*', 'get', 'list', 'watch', 'create', 'update', 'delete'), { minLength: 1, maxLength: 3 }),
      resourceNames: fc.constantFrom<string[]>([], ['x']),
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), (rules) => {
        const cluster = grantsOf(rules, { clusterScoped: true });
        const beyond = grantsOf(rules, { clusterScoped: false, operatorRbacBeyondNamespace: true });
        const own = grantsOf(rules, { clusterScoped: false });
        for (const [grant, verbs, group, resources, namespaced] of PROBES) {
          const expected = rules.some((r) => verbs.some((v) => resources.some((res) => matches(r, v, group, res))));
          expect(cluster.includes(grant)).toBe(expected);
          // the namespaced full wildcard is left to the WildcardInstallerRole warning
          const nsExpected = namespaced
            && rules.some((r) => !InstallerRuleChecks.isFullWildcard(r) && verbs.some((v) => resources.some((res) => matches(r, v, group, res))));
          expect(beyond.includes(grant)).toBe(nsExpected);
          expect(own.includes(grant)).toBe(nsExpected && grant === SensitiveGrant.CATALOG_SOURCE_CREATE);
        }
      }),
      { numRuns: 400, seed: 8 },
    );
  });

  test('bundleGrantedRules accepts the namespaced "assume" grants the bundle grants, never cluster-scoped ones nor other grants', () => {
    const rules = [
      { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
      { apiGroups: ['operators.coreos.com'], resources: ['catalogsources'], verbs: ['create'] },
    ];
    const bundleGrantedRules = [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }, { apiGroups: ['operators.coreos.com'], resources: ['catalogsources'], verbs: ['*'] }];
    expect(grantsOf(rules, { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules })).toEqual(['CATALOG_SOURCE_CREATE']);
    expect(grantsOf(rules, { clusterScoped: true, bundleGrantedRules })).toEqual(['POD_CREATE', 'CATALOG_SOURCE_CREATE']);
    expect(InstallerRuleChecks.bundleAcceptedGrants(rules, { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules })).toEqual([
      { grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" },
    ]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(rules, { clusterScoped: true, bundleGrantedRules })).toEqual([]);
  });
});

describe('InstallerRuleChecks.sensitiveGrantsHeld (the registry OLM v1\'s permission preview probes)', () => {
  test('every grant held, accepted or not, in SensitiveGrant order', () => {
    const rules: PolicyRule[] = [
      { apiGroups: [''], resources: ['pods/attach'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
      { nonResourceUrls: ['*'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ];
    const expected = [
      { grant: SensitiveGrant.POD_EXEC, what: "'create'/'get' on pods/exec, pods/attach or pods/portforward" },
      { grant: SensitiveGrant.NON_RESOURCE_WILDCARD, what: "every non-resource URL (nonResourceURLs '*')" },
      { grant: SensitiveGrant.WORKLOAD_WRITES, what: "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace" },
    ];
    expect(InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: true })).toEqual(expected);
    const accepted = { clusterScoped: true, allowedSensitiveGrants: [SensitiveGrant.POD_EXEC] };
    expect(InstallerRuleChecks.sensitiveGrantsHeld(rules, accepted)).toEqual(expected);
    // namespaced: only the 'any' grants, and the 'assume' ones when OLM gives the namespace's ServiceAccounts more
    expect(InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: false })).toEqual([]);
  });

  test('the same grants `errors` reports when none is accepted (cluster-scoped)', () => {
    const lists: PolicyRule[][] = [
      [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      [
        { apiGroups: ['authentication.k8s.io'], resources: ['uids'], verbs: ['impersonate'] },
        { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['create'] },
      ],
      [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['patch'] }, { apiGroups: ['batch'], resources: ['jobs'], verbs: ['update'] }],
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['db'] }],
    ];
    for (const rules of lists) {
      expect(InstallerRuleChecks.sensitiveGrantsHeld(rules, { clusterScoped: true }).map((g) => `InstallerSensitiveGrant:${g.grant}`))
        .toEqual(codes(rules, true).filter((c) => c.startsWith('InstallerSensitiveGrant:')));
    }
  });

  test('bad arguments: one-line diagnostic', () => {
    expect(() => InstallerRuleChecks.sensitiveGrantsHeld('x' as any, { clusterScoped: true })).toThrow(/^InstallerRuleChecks\.sensitiveGrantsHeld: /);
  });
});

// Issue 28: the mutants StrykerJS left alive (`npm run test:mutation -- installer-rule-checks`), killed by exact
// assertions on what callers read: every field of every finding, the acceptance lists, the caches' keys.
describe('InstallerRuleChecks: every field of every finding', () => {
  test('invalid rules: one finding per problem, at the rule\'s index under the given field; valid rules are still checked', () => {
    const rules: PolicyRule[] = [
      { apiGroups: [''], resources: ['pods'], verbs: [] },
      { nonResourceUrls: ['/x'], verbs: ['get'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] },
      // invalid (an upper-case resource): reported as such, and its escalate is not counted
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'Roles'], verbs: ['escalate'] },
    ];
    expect(InstallerRuleChecks.errors(rules, { clusterScoped: false, field: 'f' })).toEqual([
      {
        code: 'InvalidInstallerRule',
        field: 'f[0]',
        message: 'rule Namespace:"" APIGroups:[] Resources:[pods]: \'verbs\' is empty; list at least one verb (e.g. "get")',
        fix: 'correct or remove the rule',
      },
      {
        code: 'InvalidInstallerRule',
        field: 'f[1]',
        message: 'rule Namespace:"" Verbs:[get] NonResourceURLs:[/x]: namespaced rules cannot apply to non-resource URLs; move the non-resource URLs to a ClusterRole',
        fix: 'correct or remove the rule',
      },
      {
        code: 'InvalidInstallerRule',
        field: 'f[3]',
        message: "rule Namespace:\"\" APIGroups:[rbac.authorization.k8s.io] Resources:[Roles,roles] Verbs:[escalate]: resource 'Roles' never matches (resources are case-sensitive lowercase plurals); use 'roles'",
        fix: 'correct or remove the rule',
      },
      {
        code: 'InstallerSensitiveGrant',
        field: 'f',
        value: 'f[2] {"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"],"verbs":["bind"]}',
        message: "the namespaced installer rules grant 'bind' on roles/clusterroles (SensitiveGrant.BIND); an operator installed with them could gain rights nobody reviewed",
        fix: 'remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.BIND, reason }]',
      },
    ]);
    // the same non-resource rule is valid in cluster-scoped rules (and holds no sensitive grant)
    expect(InstallerRuleChecks.errors([rules[1]], { clusterScoped: true })).toEqual([]);
  });

  test('a rule of neither resources nor URLs is an invalid rule, not a bad argument (rules and bundleGrantedRules)', () => {
    const fix = 'correct or remove the rule';
    expect(InstallerRuleChecks.errors([{ verbs: ['get'] }], { clusterScoped: false })).toEqual([
      { code: 'InvalidInstallerRule', field: 'installerRules[0]', message: 'rule Namespace:"" Verbs:[get]: resource rules must supply at least one api group in \'apiGroups\' ("" is the core group)', fix },
      { code: 'InvalidInstallerRule', field: 'installerRules[0]', message: 'rule Namespace:"" Verbs:[get]: resource rules must supply at least one resource in \'resources\' (e.g. "pods")', fix },
    ]);
    expect(InstallerRuleChecks.errors([], { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules: [{ verbs: ['get'] }] })).toEqual([]);
  });

  test('the rule in a message is Kubernetes JSON as written: empty resourceNames/nonResourceURLs and null fields left out', () => {
    const values = (rules: PolicyRule[], clusterScoped: boolean) => InstallerRuleChecks.errors(rules, { clusterScoped }).map((e) => e.value);
    expect(values([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'], nonResourceUrls: [], resourceNames: [] }], true))
      .toEqual(['installerRules[0] {"apiGroups":[""],"resources":["secrets"],"verbs":["list"]}']);
    // JavaScript's null for "not given" (was a TypeError reading null.length)
    expect(values([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'], resourceNames: null, nonResourceUrls: null } as any], false))
      .toEqual(['installerRules[0] {"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"],"verbs":["bind"]}']);
    expect(values([{ nonResourceUrls: ['*'], verbs: ['get'], apiGroups: null, resources: null } as any], true)).toEqual(['installerRules[0] {"nonResourceURLs":["*"],"verbs":["get"]}']);
    expect(InstallerRuleChecks.warnings([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'], resourceNames: null } as any], { clusterScoped: false }).map((w) => w.value))
      .toEqual(['{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}']);
  });

  test('CRD writes: the verbs the rules allow (a named rule never allows create), only the granting rules in the value', () => {
    const rules: PolicyRule[] = [
      { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list'] },
      { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: ['x.example.com'], verbs: ['update', 'delete', 'create'] },
      { apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], verbs: ['deletecollection'] },
    ];
    expect(InstallerRuleChecks.errors(rules, { clusterScoped: true, field: 'clusterInstallerRules' })).toEqual([
      {
        code: 'InstallerCanWriteCrds',
        field: 'clusterInstallerRules',
        value: 'clusterInstallerRules[1] {"apiGroups":["apiextensions.k8s.io"],"resources":["customresourcedefinitions"],"resourceNames":["x.example.com"],"verbs":["update","delete","create"]}',
        message: 'the cluster-scoped installer rules allow update/delete on apiextensions.k8s.io customresourcedefinitions; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources")',
        fix: "narrow the rule's apiGroups/resources/verbs so that it does not match apiextensions.k8s.io customresourcedefinitions",
      },
      {
        code: 'InstallerCanWriteApiServices',
        field: 'clusterInstallerRules',
        value: 'clusterInstallerRules[2] {"apiGroups":["apiregistration.k8s.io"],"resources":["apiservices"],"verbs":["deletecollection"]}',
        message: 'the cluster-scoped installer rules allow deletecollection on apiregistration.k8s.io apiservices; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources")',
        fix: "narrow the rule's apiGroups/resources/verbs so that it does not match apiregistration.k8s.io apiservices",
      },
    ]);
  });

  test('a sensitive grant names every granting rule, in order, with resourceNames and non-resource URLs as written', () => {
    const rules: PolicyRule[] = [
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['db'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['watch'] },
      { nonResourceUrls: ['/*'], verbs: ['get'] },
    ];
    expect(InstallerRuleChecks.errors(rules, { clusterScoped: true })).toEqual([
      {
        code: 'InstallerSensitiveGrant',
        field: 'installerRules',
        value: 'installerRules[0] {"apiGroups":[""],"resources":["secrets"],"resourceNames":["db"],"verbs":["get"]}, installerRules[2] {"apiGroups":[""],"resources":["secrets"],"verbs":["watch"]}',
        message: "the cluster-scoped installer rules grant 'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SensitiveGrant.SECRETS_READ_CLUSTER_WIDE); an operator installed with them could gain rights nobody reviewed",
        fix: 'remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, reason }]',
      },
      {
        code: 'InstallerSensitiveGrant',
        field: 'installerRules',
        value: 'installerRules[3] {"nonResourceURLs":["/*"],"verbs":["get"]}',
        message: "the cluster-scoped installer rules grant every non-resource URL (nonResourceURLs '*') (SensitiveGrant.NON_RESOURCE_WILDCARD); an operator installed with them could gain rights nobody reviewed",
        fix: 'remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.NON_RESOURCE_WILDCARD, reason }]',
      },
    ]);
  });

  test('resourceNames of one rule are probed against the others: a named read of pods/exec is POD_EXEC, a named create is not', () => {
    const beyond = { clusterScoped: false, operatorRbacBeyondNamespace: true };
    expect(codes([{ apiGroups: [''], resources: ['pods/exec'], resourceNames: ['web-0'], verbs: ['get'] }], true)).toEqual(['InstallerSensitiveGrant:POD_EXEC']);
    expect(InstallerRuleChecks.sensitiveGrantsHeld([{ apiGroups: [''], resources: ['pods/exec'], resourceNames: ['web-0'], verbs: ['get'] }], beyond).map((g) => g.grant))
      .toEqual([SensitiveGrant.POD_EXEC]);
    expect(InstallerRuleChecks.sensitiveGrantsHeld([{ apiGroups: [''], resources: ['pods'], resourceNames: ['web-0'], verbs: ['create'] }], beyond)).toEqual([]);
    expect(InstallerRuleChecks.sensitiveGrantsHeld([{ apiGroups: [''], resources: ['namespaces'], resourceNames: ['team-a'], verbs: ['patch'] }], { clusterScoped: false }))
      .toEqual([{ grant: SensitiveGrant.NAMESPACE_WRITES, what: "'update'/'patch' on namespaces" }]);
  });

  test('warnings: the whole finding, at the wildcard rule\'s index under the given field; other rules and invalid ones give none', () => {
    const rules: PolicyRule[] = [
      { apiGroups: ['apps'], resources: ['*'], verbs: ['*'] },
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    ];
    expect(InstallerRuleChecks.warnings(rules, { clusterScoped: false, field: 'rules' })).toEqual([
      {
        code: 'WildcardInstallerRole',
        field: 'rules[1]',
        value: '{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}',
        message: "the installer Role allows every verb on every resource in the namespace (the OKD docs' demonstration Role); operators installed with it can do anything there, including escalate, bind and OperatorGroup writes",
        fix: 'use the default fine-grained rules (DefaultInstallerRules.okdScopedInstall) plus what your operators need',
      },
    ]);
    expect(InstallerRuleChecks.warnings([rules[0]], { clusterScoped: false })).toEqual([]);
    expect(InstallerRuleChecks.warnings([rules[1]], { clusterScoped: false }).map((w) => w.field)).toEqual(['installerRules[0]']);
  });
});

describe('InstallerRuleChecks.allowedGrantsHeld (what an acceptance lets through)', () => {
  const rules: PolicyRule[] = [
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind', 'escalate'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
  ];
  const ESCALATE = { grant: SensitiveGrant.ESCALATE, what: "'escalate' on roles/clusterroles" };
  const BIND = { grant: SensitiveGrant.BIND, what: "'bind' on roles/clusterroles" };
  const POD_CREATE = { grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" };
  const SECRETS = { grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, what: "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them)" };

  test('nothing accepted: nothing listed, whatever the rules hold', () => {
    expect(InstallerRuleChecks.allowedGrantsHeld(rules, { clusterScoped: true })).toEqual([]);
    expect(InstallerRuleChecks.allowedGrantsHeld(rules, { clusterScoped: true, allowedSensitiveGrants: [] })).toEqual([]);
  });

  test('the accepted grants the rules hold, in SensitiveGrant order; accepted grants not held are not listed', () => {
    const allowedSensitiveGrants = [
      SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.NODES_PROXY, SensitiveGrant.POD_CREATE, SensitiveGrant.BIND, SensitiveGrant.ESCALATE,
    ];
    expect(InstallerRuleChecks.allowedGrantsHeld(rules, { clusterScoped: true, allowedSensitiveGrants }))
      .toEqual([ESCALATE, BIND, POD_CREATE, SECRETS]);
    // namespaced: the 'cluster' grants are not checked, the 'assume' ones only when OLM gives the namespace's ServiceAccounts more
    expect(InstallerRuleChecks.allowedGrantsHeld(rules, { clusterScoped: false, allowedSensitiveGrants })).toEqual([ESCALATE, BIND]);
    expect(InstallerRuleChecks.allowedGrantsHeld(rules, { clusterScoped: false, operatorRbacBeyondNamespace: true, allowedSensitiveGrants }))
      .toEqual([ESCALATE, BIND, POD_CREATE]);
  });

  test('invalid rules hold nothing (as `errors` reads them): a non-resource rule in a Role, a rule without verbs', () => {
    const invalid: PolicyRule[] = [
      { nonResourceUrls: ['*'], verbs: ['get'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: [] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'Roles'], verbs: ['bind'] },
    ];
    const all = Object.values(SensitiveGrant);
    expect(InstallerRuleChecks.allowedGrantsHeld(invalid, { clusterScoped: false, allowedSensitiveGrants: all })).toEqual([]);
    expect(InstallerRuleChecks.sensitiveGrantsHeld(invalid, { clusterScoped: false })).toEqual([]);
    // the non-resource rule is valid cluster-wide
    expect(InstallerRuleChecks.allowedGrantsHeld(invalid, { clusterScoped: true, allowedSensitiveGrants: all }))
      .toEqual([{ grant: SensitiveGrant.NON_RESOURCE_WILDCARD, what: "every non-resource URL (nonResourceURLs '*')" }]);
    expect(InstallerRuleChecks.sensitiveGrantsHeld(invalid, { clusterScoped: true }))
      .toEqual([{ grant: SensitiveGrant.NON_RESOURCE_WILDCARD, what: "every non-resource URL (nonResourceURLs '*')" }]);
  });

  test('bad arguments: one-line diagnostic', () => {
    expect(() => InstallerRuleChecks.allowedGrantsHeld([], 'x' as any)).toThrow(
      'InstallerRuleChecks.allowedGrantsHeld: options="x": options must be an object, got the string "x". Fix: pass { clusterScoped: false } (InvalidInputType)',
    );
  });
});

describe('InstallerRuleChecks.bundleAcceptedGrants (namespaced "assume" grants the bundles\' Roles grant too)', () => {
  const beyond = (bundleGrantedRules: PolicyRule[], extra: Partial<InstallerRuleCheckOptions> = {}): InstallerRuleCheckOptions =>
    ({ clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules, ...extra });
  const installer: PolicyRule[] = [
    { apiGroups: [''], resources: ['pods', 'pods/exec'], verbs: ['create'] },
    { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] },
  ];
  const bundle: PolicyRule[] = [
    { apiGroups: [''], resources: ['pods/exec', 'serviceaccounts/token', 'pods'], verbs: ['create'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] },
  ];

  test('every "assume" grant both hold, in SensitiveGrant order; never an "any" grant (bind) even when the bundle grants it', () => {
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, beyond(bundle))).toEqual([
      { grant: SensitiveGrant.SERVICE_ACCOUNT_TOKENS, what: "'create' on serviceaccounts/token" },
      { grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" },
      { grant: SensitiveGrant.POD_EXEC, what: "'create'/'get' on pods/exec, pods/attach or pods/portforward" },
    ]);
    // and `errors` reports exactly the rest
    expect(InstallerRuleChecks.errors(installer, beyond(bundle)).map((e) => /SensitiveGrant\.(\w+)\)/.exec(e.message)![1])).toEqual(['BIND']);
  });

  test('none without bundle rules, cluster-scoped, or when the namespace\'s ServiceAccounts get nothing more; accepted grants are not listed', () => {
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, beyond([]))).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, { clusterScoped: false, operatorRbacBeyondNamespace: true })).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, beyond(bundle, { clusterScoped: true }))).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, beyond(bundle, { operatorRbacBeyondNamespace: false }))).toEqual([]);
    const accepted = [SensitiveGrant.POD_CREATE, SensitiveGrant.SERVICE_ACCOUNT_TOKENS];
    expect(InstallerRuleChecks.bundleAcceptedGrants(installer, beyond(bundle, { allowedSensitiveGrants: accepted })))
      .toEqual([{ grant: SensitiveGrant.POD_EXEC, what: "'create'/'get' on pods/exec, pods/attach or pods/portforward" }]);
  });

  test('only requests the installer holds count: bundle-only grants, the namespaced full wildcard and invalid rules are not listed', () => {
    expect(InstallerRuleChecks.bundleAcceptedGrants([{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }], beyond(bundle)))
      .toEqual([{ grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" }]);
    expect(InstallerRuleChecks.bundleAcceptedGrants([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], beyond(bundle))).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants([{ apiGroups: [''], resources: ['pods', 'Pods'], verbs: ['create'] }], beyond(bundle))).toEqual([]);
    // a request the bundle grants on another resource than the installer's is not one both hold
    expect(InstallerRuleChecks.bundleAcceptedGrants([{ apiGroups: [''], resources: ['pods/attach'], verbs: ['get'] }], beyond(bundle))).toEqual([]);
  });

  test('an "assume" grant the bundle covers only in part is still an error for the uncovered requests', () => {
    const exec: PolicyRule[] = [{ apiGroups: [''], resources: ['pods/exec', 'pods/attach'], verbs: ['create'] }];
    const onlyExec: PolicyRule[] = [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }];
    expect(InstallerRuleChecks.errors(exec, beyond(onlyExec))).toEqual([
      {
        code: 'InstallerSensitiveGrant',
        field: 'installerRules',
        value: 'installerRules[0] {"apiGroups":[""],"resources":["pods/exec","pods/attach"],"verbs":["create"]}',
        message: "the namespaced installer rules grant 'create'/'get' on pods/exec, pods/attach or pods/portforward (SensitiveGrant.POD_EXEC); an operator installed with them could gain rights nobody reviewed",
        fix: 'remove the grant, or accept it by name with a reason: acceptedSensitiveGrants: [{ grant: SensitiveGrant.POD_EXEC, reason }]',
      },
    ]);
    expect(InstallerRuleChecks.errors(onlyExec, beyond(onlyExec))).toEqual([]);
  });
});

describe('InstallerRuleChecks caches: equal inputs share an answer, any differing option gets its own', () => {
  afterEach(() => {
    CACHING.enabled = true;
  });
  const rules: PolicyRule[] = [
    { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] },
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  ];
  const bundleGrantedRules: PolicyRule[] = [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }];
  const OPTIONS: InstallerRuleCheckOptions[] = [
    /* 0 */ { clusterScoped: false },
    /* 1 */ { clusterScoped: true },
    /* 2 */ { clusterScoped: false, field: 'rules' },
    /* 3 */ { clusterScoped: false, operatorRbacBeyondNamespace: true },
    /* 4 */ { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules },
    /* 5 */ { clusterScoped: false, operatorRbacBeyondNamespace: true, allowedSensitiveGrants: [SensitiveGrant.BIND] },
    /* 6 */ { clusterScoped: false, allowedSensitiveGrants: [SensitiveGrant.BIND] },
    /* 7 */ { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules, allowedSensitiveGrants: [SensitiveGrant.POD_CREATE] },
    /* 8 */ { clusterScoped: false, bundleGrantedRules },
    /* 9 */ { clusterScoped: true, operatorRbacBeyondNamespace: true, bundleGrantedRules },
    /* 10 */ { clusterScoped: false, field: 'clusterRules' },
    /* 11 */ {
      clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules, allowedSensitiveGrants: [SensitiveGrant.SERVICE_ACCOUNT_TOKENS],
    },
    /* 12 */ { clusterScoped: false, operatorRbacBeyondNamespace: true, allowedSensitiveGrants: [SensitiveGrant.POD_CREATE] },
    /* 13 */ { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
    /* 14 */ { clusterScoped: false, field: '' },
  ];

  test('each option set, asked in turn and again, answers as computed afresh (errors, bundleAcceptedGrants)', () => {
    CACHING.enabled = false;
    const fresh = OPTIONS.map((o) => [InstallerRuleChecks.errors(rules, o), InstallerRuleChecks.bundleAcceptedGrants(rules, o)]);
    // option sets that differ in one key part answer differently (else this test would prove nothing about the keys):
    // clusterScoped, field, operatorRbacBeyondNamespace, bundleGrantedRules, allowedSensitiveGrants
    for (const [a, b] of [[0, 1], [0, 2], [2, 10], [0, 14], [0, 3], [3, 4], [4, 13], [3, 5], [5, 12], [0, 6]]) {
      expect([a, b, fresh[a][0]]).not.toEqual([a, b, fresh[b][0]]);
    }
    for (const [a, b] of [[3, 4], [4, 13], [4, 7], [7, 11], [8, 4], [9, 4]]) expect([a, b, fresh[a][1]]).not.toEqual([a, b, fresh[b][1]]);
    CACHING.enabled = true;
    for (let round = 0; round < 2; round++) {
      expect(OPTIONS.map((o) => [InstallerRuleChecks.errors(rules, o), InstallerRuleChecks.bundleAcceptedGrants(rules, o)])).toEqual(fresh);
    }
    // another bundle rule list is another key
    expect(InstallerRuleChecks.bundleAcceptedGrants(rules, { clusterScoped: false, operatorRbacBeyondNamespace: true, bundleGrantedRules: [] }))
      .toEqual([]);
  });

  test('rules whose fields are getters (a class instance: JSON {} whatever it grants) are never answered from another list\'s entry', () => {
    const getterRule = (resource: string, verbs: string[]): PolicyRule => Object.create({
      get apiGroups() { return ['rbac.authorization.k8s.io']; },
      get resources() { return [resource]; },
      get verbs() { return verbs; },
    });
    const beyond = { clusterScoped: false, operatorRbacBeyondNamespace: true };
    expect(InstallerRuleChecks.errors([getterRule('roles', ['get'])], beyond)).toEqual([]);
    expect(InstallerRuleChecks.errors([getterRule('roles', ['bind'])], beyond).map((e) => e.value))
      .toEqual(['installerRules[0] {"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"],"verbs":["bind"]}']);
    // a non-enumerable field is no plain field either
    const hidden = Object.defineProperty({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }, 'verbs', { value: ['escalate'], enumerable: false }) as PolicyRule;
    expect(InstallerRuleChecks.errors([hidden], beyond).map((e) => /SensitiveGrant\.(\w+)\)/.exec(e.message)![1])).toEqual(['ESCALATE']);
    // bundleAcceptedGrants: getter rules as the installer's and as the bundle's
    const pods = (verbs: string[]): PolicyRule => Object.create({ get apiGroups() { return ['']; }, get resources() { return ['pods']; }, get verbs() { return verbs; } });
    const plainPods: PolicyRule[] = [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }];
    expect(InstallerRuleChecks.bundleAcceptedGrants([pods(['get'])], { ...beyond, bundleGrantedRules: plainPods })).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants([pods(['create'])], { ...beyond, bundleGrantedRules: plainPods })).toEqual([{ grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" }]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(plainPods, { ...beyond, bundleGrantedRules: [pods(['get'])] })).toEqual([]);
    expect(InstallerRuleChecks.bundleAcceptedGrants(plainPods, { ...beyond, bundleGrantedRules: [pods(['create'])] })).toEqual([{ grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" }]);
    // errors: getter rules as the bundle's
    expect(InstallerRuleChecks.errors(plainPods, { ...beyond, bundleGrantedRules: [pods(['get'])] }).map((e) => e.code)).toEqual(['InstallerSensitiveGrant']);
    expect(InstallerRuleChecks.errors(plainPods, { ...beyond, bundleGrantedRules: [pods(['create'])] })).toEqual([]);
  });

  test('a caller changing an answer does not change the next answer', () => {
    const first = InstallerRuleChecks.errors(rules, { clusterScoped: true });
    const firstAccepted = InstallerRuleChecks.bundleAcceptedGrants(rules, OPTIONS[4]);
    (first[0] as any).message = 'changed';
    (firstAccepted[0] as any).what = 'changed';
    expect(InstallerRuleChecks.errors(rules, { clusterScoped: true })[0].message).not.toEqual('changed');
    expect(InstallerRuleChecks.bundleAcceptedGrants(rules, OPTIONS[4])).toEqual([{ grant: SensitiveGrant.POD_CREATE, what: "'create' on pods" }]);
  });
});

describe('InstallerRuleChecks: bad arguments from JavaScript are one Error naming the method, field and fix', () => {
  test.each<[string, () => unknown, string]>([
    ['errors without rules and options', () => InstallerRuleChecks.errors(undefined as any, undefined as any),
      'InstallerRuleChecks.errors: rules="0": rules must be a list, got the number 0. Fix: pass a list of PolicyRules (InvalidInputType); '
      + 'options="0": options must be an object, got the number 0. Fix: pass { clusterScoped: false } (InvalidInputType)'],
    ['a rule with the Kubernetes JSON spelling', () => InstallerRuleChecks.errors([{ apiGroups: [''], resources: ['pods'], verbs: ['get'], nonResourceURLs: ['/x'] } as any], { clusterScoped: true }),
      'InstallerRuleChecks.errors: rules[0].nonResourceURLs="[\\"/x\\"]": rules[0] has "nonResourceURLs", the Kubernetes JSON spelling; a PolicyRule has no prop "nonResourceURLs"; '
      + 'did you mean "nonResourceUrls"? Fix: rename it to nonResourceUrls (or read the manifest\'s rule with PolicyRules.fromJson, which reads nonResourceURLs) (UnknownProp)'],
    ['wrong option types', () => InstallerRuleChecks.errors([], { clusterScoped: true, field: 3, bundleGrantedRules: 'x' } as any),
      'InstallerRuleChecks.errors: options.field="3": options.field must be a string, got the number 3. Fix: pass options.field as a string (InvalidInputType); '
      + 'options.bundleGrantedRules="x": options.bundleGrantedRules must be a list, got the string "x". Fix: pass a list of PolicyRules (InvalidInputType)'],
    ['a bundle rule of the wrong shape', () => InstallerRuleChecks.bundleAcceptedGrants([], { clusterScoped: false, bundleGrantedRules: [{ verbs: [1] }] } as any),
      'InstallerRuleChecks.bundleAcceptedGrants: options.bundleGrantedRules[0].verbs="[1]": options.bundleGrantedRules[0].verbs must be a list of strings, got a list ([1]). '
      + 'Fix: write e.g. verbs: ["get"] (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)'],
    ['a rule of the wrong shape', () => InstallerRuleChecks.warnings([{ apiGroups: [''], resources: ['pods'], verbs: [1] } as any], { clusterScoped: false }),
      'InstallerRuleChecks.warnings: rules[0].verbs="[1]": rules[0].verbs must be a list of strings, got a list ([1]). Fix: write e.g. verbs: ["get"] (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)'],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(new Error(message));
  });

  test('a null among the accepted grants is refused (named, InvalidEnumValue)', () => {
    expect(() => InstallerRuleChecks.errors([], { clusterScoped: true, allowedSensitiveGrants: [null] } as any))
      .toThrow(/^InstallerRuleChecks\.errors: options\.allowedSensitiveGrants\[0\]="": .* got the string ""\. Fix: use SensitiveGrant\.ESCALATE or .* \(InvalidEnumValue\)$/);
  });

  test('an unknown SensitiveGrant names the enum values', () => {
    expect(() => InstallerRuleChecks.errors([], { clusterScoped: true, allowedSensitiveGrants: ['NOPE'] } as any))
      .toThrow(/^InstallerRuleChecks\.errors: options\.allowedSensitiveGrants\[0\]="NOPE": options\.allowedSensitiveGrants\[0\] must be one of "ESCALATE", "BIND", .* got the string "NOPE"\. Fix: use SensitiveGrant\.ESCALATE or .* \(InvalidEnumValue\)$/);
  });
});
