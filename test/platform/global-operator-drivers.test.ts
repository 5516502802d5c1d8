/**
 * OLMT-055 on the pure API (`TenancyAudit.globalOperators`): the neighbours of "may create an object of the global
 * operator's API" (another verb, `*`, resourceNames, a subresource, wildcard group/resource, a binding in another
 * namespace, aggregation into built-in admin) and a property test against `RbacRules.allows` (the RBAC authorizer's
 * `RuleAllows`, tested equal to Kubernetes').
 */
import * as path from 'path';
import * as fc from 'fast-check';
import { AuditedTenant, OperatorBundle, PolicyRule, RbacRules, TenancyAudit, TenancyAuditInput } from '../../src';
import { GlobalOperatorFacts } from '../../src/audit/global-operator-drivers';
import '../util/fast-check-seed';

const RABBITMQ = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'rabbitmq-cluster-operator', '2.22.3'));
const TENANT: AuditedTenant = { name: 'A', namespace: 'team-a', targetNamespaces: ['team-a'], operatorGroupName: 'team-a', installerServiceAccountName: 'installer' };
const OPERATOR: GlobalOperatorFacts = {
  install: 'platform/Global', namespace: 'platform-operators', operatorGroupName: 'platform-operators', packageName: 'rabbitmq-cluster-operator', bundle: RABBITMQ,
};
const RBAC = 'rbac.authorization.k8s.io';

/** The installer of team-a bound to `rules` by a Role (or ClusterRole) and a RoleBinding in `namespace`. */
function input(rules: PolicyRule[], options: { namespace?: string; clusterRole?: boolean } = {}): TenancyAuditInput {
  const namespace = options.namespace ?? 'team-a';
  const role = options.clusterRole
    ? { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'r' }, rules }
    : { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'r', namespace }, rules };
  const binding = {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'r', namespace },
    roleRef: { apiGroup: RBAC, kind: options.clusterRole ? 'ClusterRole' : 'Role', name: 'r' },
    subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-a' }],
  };
  return { objects: [{ manifest: role }, { manifest: binding }], tenants: [TENANT] };
}

function drivers(i: TenancyAuditInput): Array<[string, string[], string[]]> {
  return TenancyAudit.globalOperators(i, [OPERATOR])[0].drivers.map((d) => [d.subject, d.apis, d.namespaces]);
}

const DRIVES: Array<[string, string[], string[]]> = [['ServiceAccount team-a/installer', ['rabbitmqclusters.rabbitmq.com'], ['team-a']]];

describe('the neighbours of create', () => {
  test.each([
    ['create', { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['create'] }, DRIVES],
    ['* verbs', { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['*'] }, DRIVES],
    ['wildcard group', { apiGroups: ['*'], resources: ['rabbitmqclusters'], verbs: ['create'] }, DRIVES],
    ['wildcard resource', { apiGroups: ['rabbitmq.com'], resources: ['*'], verbs: ['create'] }, DRIVES],
    ['patch only (not a create)', { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['patch', 'update'] }, []],
    ['resourceNames (a create has no name)', { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['create'], resourceNames: ['mine'] }, []],
    ['a subresource only', { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters/status'], verbs: ['create'] }, []],
    ['another group', { apiGroups: ['apps'], resources: ['*'], verbs: ['*'] }, []],
  ] as Array<[string, PolicyRule, Array<[string, string[], string[]]>]>)('%s', (_name, rule, expected) => {
    expect(drivers(input([rule]))).toEqual(expected);
  });

  test('a ClusterRole bound by a RoleBinding in another namespace: that namespace', () => {
    expect(drivers(input([{ apiGroups: ['rabbitmq.com'], resources: ['*'], verbs: ['*'] }], { namespace: 'shared', clusterRole: true })))
      .toEqual([['ServiceAccount team-a/installer', ['rabbitmqclusters.rabbitmq.com'], ['shared']]]);
  });

  test('built-in admin bound by a RoleBinding: OLM\'s provided-API ClusterRoles aggregate into it', () => {
    const i: TenancyAuditInput = {
      objects: [{
        manifest: {
          apiVersion: `${RBAC}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'admin', namespace: 'team-a' },
          roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'admin' },
          subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-a' }],
        },
      }],
      tenants: [TENANT],
    };
    expect(drivers(i)).toEqual(DRIVES);
    // without the bundle the APIs (and so the provided-API roles admin aggregates) are unknown: said so, not nothing
    expect(TenancyAudit.globalOperators(i, [{ ...OPERATOR, bundle: undefined }])[0]).toMatchObject({ apisKnown: false, apis: [] });
  });

  test('no global operator: nothing', () => {
    expect(TenancyAudit.globalOperators(input([]), [])).toEqual([]);
  });
});

describe('issue 41: cluster-scoped kinds (cert-manager 1.16.5: ClusterIssuers) are created cluster-wide or not at all', () => {
  const CERT_MANAGER: GlobalOperatorFacts = {
    ...OPERATOR,
    packageName: 'cert-manager',
    bundle: OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'cert-manager', '1.16.5')),
  };
  const everything: PolicyRule = { apiGroups: ['cert-manager.io', 'acme.cert-manager.io'], resources: ['*'], verbs: ['create'] };
  const ofCertManager = (i: TenancyAuditInput) => TenancyAudit.globalOperators(i, [CERT_MANAGER])[0].drivers;

  test('a RoleBinding: the namespaced kinds in its namespace; never ClusterIssuers (a request for a cluster-scoped object has no namespace, so RoleBindings do not apply: RBAC `appliesTo`)', () => {
    const [d] = ofCertManager(input([everything]));
    expect([d.apis, d.namespaces]).toEqual([
      ['certificaterequests.cert-manager.io', 'certificates.cert-manager.io', 'challenges.acme.cert-manager.io', 'issuers.cert-manager.io', 'orders.acme.cert-manager.io'],
      ['team-a'],
    ]);
    expect(d.message).toMatch(/^ServiceAccount team-a\/installer of tenant A may create certificaterequests\.cert-manager\.io, .*, orders\.acme\.cert-manager\.io in namespace team-a: cert-manager, /);
    expect(d.message).not.toContain('clusterissuers');
  });

  test('a ClusterRoleBinding: ClusterIssuers too, said cluster-wide (not "in every namespace", not in a namespace)', () => {
    const i = input([everything], { clusterRole: true });
    const binding = i.objects[1].manifest as any;
    const clusterWide: TenancyAuditInput = {
      ...i,
      objects: [i.objects[0], { manifest: { ...binding, kind: 'ClusterRoleBinding', metadata: { name: 'r' } } }],
    };
    const [d] = ofCertManager(clusterWide);
    expect([d.apis, d.namespaces]).toEqual([
      ['certificaterequests.cert-manager.io', 'certificates.cert-manager.io', 'challenges.acme.cert-manager.io', 'clusterissuers.cert-manager.io', 'issuers.cert-manager.io', 'orders.acme.cert-manager.io'],
      [''],
    ]);
    expect(d.message).toContain('may create certificaterequests.cert-manager.io, certificates.cert-manager.io, challenges.acme.cert-manager.io, '
      + 'issuers.cert-manager.io, orders.acme.cert-manager.io in every namespace and clusterissuers.cert-manager.io (cluster-scoped) cluster-wide: cert-manager, ');
    expect(d.clusterScopedApis).toEqual(['clusterissuers.cert-manager.io']);
    // AUDIT.txt's line says the same
    const report = TenancyAudit.report({ tenants: [], globalOperators: TenancyAudit.globalOperators(clusterWide, [CERT_MANAGER]) } as any);
    expect(report).toContain('  ERROR TenantCanDriveGlobalOperator: ServiceAccount team-a/installer (tenant A) may create certificaterequests.cert-manager.io, '
      + 'certificates.cert-manager.io, challenges.acme.cert-manager.io, issuers.cert-manager.io, orders.acme.cert-manager.io in every namespace and '
      + 'clusterissuers.cert-manager.io (cluster-scoped) cluster-wide\n');
  });

  test('only ClusterIssuers, through a RoleBinding: no finding', () => {
    expect(ofCertManager(input([{ apiGroups: ['cert-manager.io'], resources: ['clusterissuers'], verbs: ['*'] }]))).toEqual([]);
  });
});

describe('property: a finding exactly when the rules allow create on the API (RbacRules.allows)', () => {
  const rule = fc.record({
    apiGroups: fc.subarray(['rabbitmq.com', '*', '', 'apps'], { minLength: 1 }),
    resources: fc.subarray(['rabbitmqclusters', '*', 'rabbitmqclusters/status', '*/status', 'deployments'], { minLength: 1 }),
    verbs: fc.subarray(['create', 'get', 'patch', '*', 'list'], { minLength: 1 }),
    resourceNames: fc.option(fc.constant(['mine']), { nil: undefined }),
  }).map((r) => (r.resourceNames === undefined ? { apiGroups: r.apiGroups, resources: r.resources, verbs: r.verbs } : r) as PolicyRule);

  test('over generated Roles bound to the installer', () => {
    fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 3 }), (rules) => {
      const allowed = RbacRules.allows(rules, { verb: 'create', apiGroup: 'rabbitmq.com', resource: 'rabbitmqclusters' });
      expect(drivers(input(rules))).toEqual(allowed ? DRIVES : []);
    }), { numRuns: 60 });
  });
});
