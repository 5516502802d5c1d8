import fc from 'fast-check';
import { InstallerRuleCheckOptions, InstallerRuleChecks, PolicyRule, SensitiveGrant } from '../../src';
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
    ['operatorgroups via group resource wildcard', [{ apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['update'] }], false, ['InstallerSensitiveGrant:OPERATOR_GROUP_WRITES']],
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
    ]);
  });

  test('the error names the field, the granting rule and the fix', () => {
    expect(InstallerRuleChecks.errors([{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }], { clusterScoped: true, field: 'clusterInstallerRules' })).toEqual([
      {
        code: 'InstallerSensitiveGrant',
        field: 'clusterInstallerRules',
        value: 'clusterInstallerRules[0] {"apiGroups":[""],"resources":["users"],"verbs":["impersonate"]}',
        message:
          "the cluster-scoped installer rules grant 'impersonate' on users/groups/serviceaccounts/uids/userextras (SensitiveGrant.IMPERSONATE); an operator installed with them could gain rights nobody reviewed",
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
    [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, ['get', 'list', 'watch'], '', ['secrets'], false],
    [SensitiveGrant.POD_CREATE, ['create'], '', ['pods'], true],
    [SensitiveGrant.POD_EXEC, ['create', 'get'], '', ['pods/exec', 'pods/attach', 'pods/portforward'], true],
    [SensitiveGrant.NODES_PROXY, ['get', 'create', 'update', 'patch', 'delete'], '', ['nodes/proxy'], false],
    [SensitiveGrant.SERVICE_ACCOUNT_TOKENS, ['create'], '', ['serviceaccounts/token'], true],
    [SensitiveGrant.CATALOG_SOURCE_CREATE, ['create'], 'operators.coreos.com', ['catalogsources'], true],
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
      { grant: SensitiveGrant.WORKLOAD_WRITES, what: "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers) in every namespace" },
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
