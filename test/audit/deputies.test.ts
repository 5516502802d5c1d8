/**
 * Issue 37, class 2: controllers that act for a writer (src/audit/mechanisms/deputies.ts), one block per row, each
 * with its variants (another verb of the row, `*` verbs, a wildcard group or resource, a Role, a ClusterRole bound by
 * a RoleBinding in the namespace, aggregation, a binding in another namespace) and its refusals, on the pure model
 * (EffectivePower), the sensitive-grant registry, the App audit on plain data and the OLM v1 preview.
 */
import {
  bundleWith, crb, csv, deployment, Holding, holding, OP, operatorGroup, previewOf, rb, reached, role, ruleVariants, serviceAccount, statefulSet,
  tokenSecret,
  clusterRole,
} from './mechanism-worlds';
import { EffectivePower } from '../../src/audit/effective-power';
import { InstallerRuleChecks, SensitiveGrant } from '../../src/audit/installer-rule-checks';
import { CHILD_TEMPLATES, DEPUTIES, DeputyEffect, WORKLOAD_RESOURCES } from '../../src/audit/mechanisms/deputies';
import { ReachCode } from '../../src/audit/reach-code';
import { TenancyAudit } from '../../src/audit/tenancy-audit';
import { OlmV1PreviewFindingCode } from '../../src/olmv1/olm-v1-permission-preview';

const VICTIM = 'ServiceAccount team-b/victim';
const HOLDINGS: Array<[Holding, boolean]> = [['crb', true], ['role', true], ['rb-cluster-role', true], ['aggregated', true], ['rb-other-ns', false]];

describe('pods and the workload controllers (rows pods, workload-create): any ServiceAccount of the namespace', () => {
  const resources: Array<readonly [string, string]> = [['', 'pods'], ...WORKLOAD_RESOURCES];
  test.each(resources.flatMap(([g, r]) => HOLDINGS.map(([how, reaches]) => [`${r}${g ? `.${g}` : ''}`, how, reaches, g, r] as const)))('create %s, held %s: %s', (_n, how, reaches, g, r) => {
    expect(reached([serviceAccount('team-b', 'victim'), ...holding([{ apiGroups: [g], resources: [r], verbs: ['create'] }], how)]).includes(VICTIM)).toBe(reaches);
  });
  test.each(ruleVariants({ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['create'] }))('variant %s', (_why, rule) => {
    expect(reached([serviceAccount('team-b', 'victim'), ...holding([rule], 'role')])).toContain(VICTIM);
  });
  test('refused: create by name (a create has no name), get and list only', () => {
    for (const rule of [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'], resourceNames: ['x'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]) {
      expect(reached([serviceAccount('team-b', 'victim'), ...holding([rule], 'role')])).toEqual([]);
    }
  });
});

describe('templates of objects a controller made for the input (rows child-replicasets, child-controllerrevisions)', () => {
  test.each(CHILD_TEMPLATES.map(([parent, group, resource]) => [parent, group, resource] as const))('%s: update or patch its %s.%s (any name) runs pods as any ServiceAccount', (parent, group, resource) => {
    const parentObject = parent === 'Deployment' ? deployment('team-b', 'app', { serviceAccountName: 'app-sa' }) : statefulSet('team-b', 'app', 'app-sa');
    for (const verb of ['update', 'patch', '*']) {
      for (const how of ['role', 'rb-cluster-role', 'aggregated'] as Holding[]) {
        expect([verb, how, reached([serviceAccount('team-b', 'victim'), parentObject, ...holding([{ apiGroups: [group], resources: [resource], verbs: [verb] }], how)]).includes(VICTIM)])
          .toEqual([verb, how, true]);
      }
    }
    const refused = [
      ['no parent of that kind runs there', [serviceAccount('team-b', 'victim'), ...holding([{ apiGroups: [group], resources: [resource], verbs: ['patch'] }], 'role')]],
      ['by a name (the child\'s name is generated)', [serviceAccount('team-b', 'victim'), parentObject, ...holding([{ apiGroups: [group], resources: [resource], verbs: ['patch'], resourceNames: ['app'] }], 'role')]],
      ['create only (a new object is not the one the controller reads)', [serviceAccount('team-b', 'victim'), parentObject, ...holding([{ apiGroups: [group], resources: [resource], verbs: ['create'] }], 'role')]],
      ['another namespace', [serviceAccount('team-b', 'victim'), parentObject, ...holding([{ apiGroups: [group], resources: [resource], verbs: ['patch'] }], 'rb-other-ns')]],
    ] as const;
    for (const [why, objects] of refused) {
      // (create replicasets is a workload create: any ServiceAccount anyway)
      const expected = why.startsWith('create') && resource === 'replicasets';
      expect([why, reached([...objects]).includes(VICTIM)]).toEqual([why, expected]);
    }
  });
});

describe('the kubelet fetches the Secrets a pod references: who runs in the pod holds the tokens among them', () => {
  const refs: Array<[string, any]> = [
    ['a secret volume', { volumes: [{ name: 'v', secret: { secretName: 'victim-token' } }] }],
    ['a projected volume', { volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 'victim-token' } }] } }] }],
    ['env secretKeyRef', { containers: [{ name: 'c', env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'victim-token', key: 'token' } } }] }] }],
    ['envFrom secretRef (an init container)', { initContainers: [{ name: 'c', envFrom: [{ secretRef: { name: 'victim-token' } }] }] }],
    ['imagePullSecrets', { imagePullSecrets: [{ name: 'victim-token' }] }],
  ];
  const objects = (podSpec: any) => [serviceAccount('team-b', 'victim'), tokenSecret('team-b', 'victim-token', 'victim'), deployment('team-b', 'app', { serviceAccountName: 'app-sa', ...podSpec })];

  test.each(refs)('%s: the operator running in the pod becomes the token\'s ServiceAccount', (_why, podSpec) => {
    const p = new EffectivePower(objects(podSpec)).of({ kind: 'ServiceAccount' as any, name: 'app-sa', namespace: 'team-b' });
    expect(p.identities.map((i) => [i.identity, i.path.slice(1)])).toEqual([
      ['ServiceAccount team-b/app-sa', []],
      [VICTIM, ['runs in Deployment team-b/app', 'Deployment team-b/app mounts Secret team-b/victim-token (token of ServiceAccount team-b/victim; the kubelet fetches it)', VICTIM]],
    ]);
  });

  test.each(refs)('%s: an identity that execs into the pod too; one that only holds the pod\'s ServiceAccount token does not', (_why, podSpec) => {
    expect(reached([...objects(podSpec), ...holding([{ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }], 'role')])).toContain(VICTIM);
    expect(reached([...objects(podSpec), ...holding([{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }], 'crb')])).toContain(VICTIM);
    const tokenOnly = reached([...objects(podSpec), ...holding([{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'], resourceNames: ['app-sa'] }], 'role')]);
    expect(tokenOnly).toEqual(['ServiceAccount team-b/app-sa']);
  });

  test('the CSV Deployments OLM creates carry their pod spec, and a bundle\'s own token Secret (OLM creates it, the tokens controller fills it)', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'ci-token', annotations: { 'kubernetes.io/service-account.name': 'ci' } } };
    const bundle = bundleWith('op', [], { podSpec: { volumes: [{ name: 't', secret: { secretName: 'ci-token' } }] }, extra: [secret] });
    const tenant = { name: 'T', namespace: 'team-a', targetNamespaces: ['team-a'], operatorGroupName: 'team-a', installerServiceAccountName: 'installer', bundles: [bundle] };
    const olmObjects = TenancyAudit.objectsOf(tenant);
    expect(olmObjects.filter((o) => o.manifest.kind === 'Secret').map((o) => [o.manifest.metadata, o.origin!.startsWith('bundle op.v1.0.0, ')])).toEqual([
      [{ name: 'ci-token', namespace: 'team-a', annotations: { 'kubernetes.io/service-account.name': 'ci' } }, true],
    ]);
    const power = new EffectivePower(olmObjects);
    expect(power.of({ kind: 'ServiceAccount' as any, name: 'op', namespace: 'team-a' }).identities.map((i) => i.identity)).toEqual(['ServiceAccount team-a/op', 'ServiceAccount team-a/ci']);
    // whoever reads Secrets in team-a becomes ci through the bundle's Secret
    expect(reached([...olmObjects, ...holding([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], 'role', 'team-a')])).toContain('ServiceAccount team-a/ci');
  });
});

describe('OLM v0 olm-operator: writing a CSV runs its spec.install Deployments as any ServiceAccount of the namespace (row olm-csv)', () => {
  test.each(['create', 'update', 'patch'])('%s clusterserviceversions where an OperatorGroup selects the namespace', (verb) => {
    const rule = { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: [verb] };
    for (const [how, reaches] of HOLDINGS) {
      expect([verb, how, reached([serviceAccount('team-b', 'victim'), operatorGroup('team-b'), ...holding([rule], how)]).includes(VICTIM)]).toEqual([verb, how, reaches]);
    }
    for (const [why, variant] of ruleVariants(rule)) {
      expect([why, reached([serviceAccount('team-b', 'victim'), operatorGroup('team-b'), ...holding([variant], 'role')]).includes(VICTIM)]).toEqual([why, true]);
    }
  });
  test('by the name of the CSV OLM installed there; refused without an OperatorGroup, by another name, read only', () => {
    const named = { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['patch'], resourceNames: ['etcd.v1'] };
    const base = [serviceAccount('team-b', 'victim'), operatorGroup('team-b'), csv('team-b', 'etcd.v1', [], ['etcd'], ['team-b'])];
    expect(reached([...base, ...holding([named], 'role')])).toContain(VICTIM);
    expect(reached([...base, ...holding([{ ...named, resourceNames: ['other'] }], 'role')])).not.toContain(VICTIM);
    expect(reached([serviceAccount('team-b', 'victim'), ...holding([{ ...named, resourceNames: undefined }], 'role')])).toEqual([]);
    expect(reached([...base, ...holding([{ ...named, verbs: ['get', 'list', 'watch'] }], 'role')])).toEqual([]);
  });
  test('cluster-wide: the global OperatorGroups of every cluster (operators, openshift-operators) count', () => {
    const p = reached([serviceAccount('operators', 'victim'), ...holding([{ apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['create'] }], 'crb')]);
    expect(p).toContain('ServiceAccount operators/victim');
  });
});

describe('OLM v0 catalog-operator: the steps of an InstallPlan\'s status run as the OperatorGroup\'s ServiceAccount (row olm-installplan-steps)', () => {
  const status = (verbs: string[], resources = ['installplans/status']) => ({ apiGroups: ['operators.coreos.com'], resources, verbs });
  test.each(['update', 'patch', '*'])('%s installplans/status: the installer; without a ServiceAccount on the group, cluster-admin', (verb) => {
    for (const how of ['role', 'rb-cluster-role', 'aggregated'] as Holding[]) {
      expect([how, reached([operatorGroup('team-b', 'installer'), ...holding([status([verb])], how)])]).toEqual([how, ['ServiceAccount team-b/installer']]);
      expect([how, new EffectivePower([operatorGroup('team-b'), ...holding([status([verb])], how)]).of(OP).unbounded]).toEqual([how, true]);
    }
    expect(reached([operatorGroup('team-b', 'installer'), ...holding([status([verb])], 'rb-other-ns')])).toEqual([]);
  });
  test('variants: */status; a cluster-wide grant reaches the global groups (cluster-admin); refused: installplans without status, get on status, no OperatorGroup', () => {
    expect(reached([operatorGroup('team-b', 'installer'), ...holding([status(['patch'], ['*/status'])], 'role')])).toEqual(['ServiceAccount team-b/installer']);
    expect(new EffectivePower(holding([status(['patch'])], 'crb')).of(OP).unbounded).toBe(true);
    expect(reached([operatorGroup('team-b', 'installer'), ...holding([status(['patch'], ['installplans'])], 'role')])).toEqual([]);
    expect(reached([operatorGroup('team-b', 'installer'), ...holding([status(['get'])], 'role')])).toEqual([]);
    expect(reached(holding([status(['patch'])], 'role'))).toEqual([]);
  });
});

describe('operator-controller installs as cluster-admin (rows olm-v1-installs, olm-v1-object-sets)', () => {
  const OLM_V1 = 'olm.operatorframework.io';
  test.each(['clusterextensions', 'clustercatalogs', 'clusterobjectsets'].flatMap((r) => ['create', 'update', 'patch'].map((v) => [r, v] as const)))('%s %s cluster-wide: unbounded', (resource, verb) => {
    for (const [how, unbounded] of [['crb', true], ['aggregated', true], ['rb-cluster-role', false]] as Array<[Holding, boolean]>) {
      const p = new EffectivePower(holding([{ apiGroups: [OLM_V1], resources: [resource], verbs: [verb] }], how)).of(OP);
      expect([how, p.unbounded]).toEqual([how, unbounded]);
    }
  });
  test('variants and refusals: * verbs, * groups, * resources; update by name; create by name (no name) and get are nothing', () => {
    for (const [, rule] of ruleVariants({ apiGroups: [OLM_V1], resources: ['clusterextensions'], verbs: ['patch'] })) expect(new EffectivePower(holding([rule], 'crb')).of(OP).unbounded).toBe(true);
    expect(new EffectivePower(holding([{ apiGroups: [OLM_V1], resources: ['clusterextensions'], verbs: ['update'], resourceNames: ['x'] }], 'crb')).of(OP).unbounded).toBe(true);
    expect(new EffectivePower(holding([{ apiGroups: [OLM_V1], resources: ['clusterextensions'], verbs: ['create'], resourceNames: ['x'] }], 'crb')).of(OP).unbounded).toBe(false);
    expect(new EffectivePower(holding([{ apiGroups: [OLM_V1], resources: ['clusterextensions', 'clustercatalogs'], verbs: ['get', 'list', 'delete'] }], 'crb')).of(OP).unbounded).toBe(false);
  });
  test('a writer whose groups a team guardrail checks installs what it admits: ClusterExtensions not counted, ClusterCatalogs still', () => {
    const guarded = { olmV1GuardedGroups: ['system:serviceaccounts:team-a'] };
    const power = (resource: string) => new EffectivePower(holding([{ apiGroups: [OLM_V1], resources: [resource], verbs: ['create'] }], 'crb'), guarded).of(OP).unbounded;
    expect([power('clusterextensions'), power('clustercatalogs')]).toEqual([false, true]);
  });
  test('the sensitive grant and the OLM v1 preview name a bundle that writes ClusterExtensions (OLMT-026 for the operator)', () => {
    const rule = { apiGroups: [OLM_V1], resources: ['clusterextensions'], verbs: ['create'] };
    expect(InstallerRuleChecks.sensitiveGrantsHeld([rule], { clusterScoped: true }).map((g) => g.grant))
      .toEqual([SensitiveGrant.OLM_V1_INSTALL_WRITES]);
    const p = previewOf(bundleWith('op', [rule]));
    expect(p.findings.filter((f) => f.code === OlmV1PreviewFindingCode.UNBOUNDED).map((f) => f.subject)).toEqual(['ServiceAccount team-x/op']);
  });
});

describe('the operator that reconciles a custom resource acts for its writer (row reconciling-operator)', () => {
  const WIDGETS = 'widgets.example.com';
  const operatorIn = (targets: string[], clusterRules = true) => [
    csv('team-b', 'w.v1', [WIDGETS], ['wop'], targets),
    ...(clusterRules
      ? [clusterRole('wop', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]), crb('wop', 'wop', [{ kind: 'ServiceAccount', name: 'wop', namespace: 'team-b' }])]
      : [role('team-b', 'wop', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), rb('team-b', 'wop', 'Role', 'wop', [{ kind: 'ServiceAccount', name: 'wop', namespace: 'team-b' }])]),
  ];
  const WOP = 'ServiceAccount team-b/wop';
  const writes = (verbs: string[], extra: object = {}) => ({ apiGroups: ['example.com'], resources: ['widgets'], verbs, ...extra });

  test.each([['create'], ['update'], ['patch'], ['*']])('%s widgets in a namespace it watches: the operator (it holds rules beyond that namespace)', (verb) => {
    for (const [how, reaches] of HOLDINGS) expect([how, reached([...operatorIn(['team-b']), ...holding([writes([verb])], how)]).includes(WOP)]).toEqual([how, reaches]);
    for (const [why, rule] of ruleVariants(writes([verb]))) expect([why, reached([...operatorIn(['team-b']), ...holding([rule], 'role')]).includes(WOP)]).toEqual([why, true]);
  });
  test('AllNamespaces: a writer in any namespace; refusals: a namespace it does not watch, an operator that holds nothing beyond the namespace, create by name, reads', () => {
    expect(reached([...operatorIn([]), ...holding([writes(['create'])], 'rb-cluster-role', 'team-c')])).toContain(WOP);
    expect(reached([...operatorIn(['team-b']), ...holding([writes(['create'])], 'role', 'team-c')])).not.toContain(WOP);
    expect(reached([...operatorIn(['team-b'], false), ...holding([writes(['create'])], 'role')])).not.toContain(WOP);
    expect(reached([...operatorIn(['team-b']), ...holding([writes(['create'], { resourceNames: ['w'] })], 'role')])).not.toContain(WOP);
    expect(reached([...operatorIn(['team-b']), ...holding([writes(['get', 'list', 'watch', 'delete'])], 'role')])).not.toContain(WOP);
  });
  test('the App audit: another tenant\'s identity that may create an AllNamespaces operator\'s resources reaches what it holds (optimized = unoptimized)', () => {
    const bundle = bundleWith('wop', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], { owned: [WIDGETS] });
    const input = {
      objects: [role('team-c', 'widgets', [writes(['create'])]), rb('team-c', 'widgets', 'Role', 'widgets', [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team-c' }])],
      tenants: [
        { name: 'B', namespace: 'team-b', targetNamespaces: [], operatorGroupName: 'team-b', installerServiceAccountName: 'installer', bundles: [bundle] },
        { name: 'C', namespace: 'team-c', targetNamespaces: ['team-c'], operatorGroupName: 'team-c', installerServiceAccountName: 'installer' },
      ],
    };
    const result = TenancyAudit.audit(input);
    const c = result.tenants[1].findings.map((f) => [f.code, f.subject, f.namespace, f.path.find((s) => s.includes('its operator'))]);
    expect(c).toEqual([[ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, 'ServiceAccount team-c/installer', '',
      'create widgets.example.com in team-c: its operator (ClusterServiceVersion team-b/wop.v1.0.0 (OLM, CSV of wop.v1.0.0)) acts on it as ServiceAccount team-b/wop']]);
    expect(TenancyAudit._auditUnoptimized(input)).toEqual(result);
  });
  test('the App audit: the tenant\'s own people who write its operator\'s resources reach what it holds beyond the namespace (theirs, not the operator\'s finding)', () => {
    const cluster = bundleWith('wop', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], { owned: [WIDGETS] });
    const audit = (b: typeof cluster) => TenancyAudit.audit({
      objects: [role('team-b', 'widgets', [writes(['create'])]), rb('team-b', 'widgets', 'Role', 'widgets', [{ kind: 'Group', name: 'devs' }])],
      tenants: [{
        name: 'B',
        namespace: 'team-b',
        targetNamespaces: ['team-b'],
        operatorGroupName: 'team-b',
        installerServiceAccountName: 'installer',
        bundles: [b],
        people: [{ kind: 'Group' as any, name: 'devs' }],
      }],
    }).tenants[0].findings.map((f) => [f.code, f.subject, f.namespace]);
    expect(audit(cluster)).toEqual([[ReachCode.TENANT_IDENTITY_REACHES_CLUSTER, 'Group devs', '']]);
    // an operator whose rules stay in the namespace: nothing beyond it to drive
    const namespaced = bundleWith('wop', [], { owned: [WIDGETS] });
    expect(audit(namespaced)).toEqual([]);
  });

  test('the OLM v1 preview: a Group the bundle lets create its resources gets what the operator holds (OLMT-044)', () => {
    const extra = [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'widget-editor' }, rules: [writes(['create'])] },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'widget-editor' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'widget-editor' }, subjects: [{ kind: 'Group', name: 'devs' }] },
    ];
    const p = previewOf(bundleWith('wop', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], { owned: [WIDGETS], extra }));
    expect(p.findings.filter((f) => f.code === OlmV1PreviewFindingCode.SENSITIVE_GRANT).map((f) => [f.subject, f.grant])).toEqual([
      ['Group devs', SensitiveGrant.SECRETS_READ_CLUSTER_WIDE], ['ServiceAccount team-x/wop', SensitiveGrant.SECRETS_READ_CLUSTER_WIDE],
    ]);
  });
});

describe('the CSR auto-approver: create certificatesigningrequests/nodeclient gets a node certificate for any node (every identity)', () => {
  const CSR = { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create'] };
  test.each([
    ['nodeclient', [CSR, { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/nodeclient'], verbs: ['create'] }], true],
    ['*/nodeclient', [CSR, { apiGroups: ['certificates.k8s.io'], resources: ['*/nodeclient'], verbs: ['create'] }], true],
    ['selfnodeclient (renews the requester\'s own node identity)', [CSR, { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/selfnodeclient'], verbs: ['create'] }], false],
    ['nodeclient without create on the requests', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/nodeclient'], verbs: ['create'] }], false],
  ] as Array<[string, any[], boolean]>)('%s', (_why, rules, unbounded) => {
    expect([new EffectivePower(holding(rules, 'crb')).of(OP).unbounded, new EffectivePower(holding(rules, 'rb-cluster-role')).of(OP).unbounded]).toEqual([unbounded, false]);
  });
});

describe('the rows and the registry agree', () => {
  test('every row that names a sensitive grant: that grant probes its requests (cluster-scoped rules) for the effects the model follows generically', () => {
    const probes = InstallerRuleChecks._probes();
    const generic = [
      DeputyEffect.ANY_SERVICE_ACCOUNT, DeputyEffect.TEMPLATE, DeputyEffect.CHILD_TEMPLATE, DeputyEffect.CLUSTER_ADMIN,
      DeputyEffect.OPERATOR_GROUP_IDENTITY,
    ];
    const missing: string[] = [];
    for (const row of DEPUTIES.filter((d) => d.grant !== undefined)) {
      expect(Object.values(SensitiveGrant)).toContain(row.grant);
      const requests = probes.find((p) => p.grant === row.grant)!.requests;
      const rowRequests = row.resources.flatMap((res) => {
        const dot = row.group === '*' ? res.indexOf('.') : -1;
        const [g, r] = row.group === '*' ? (dot < 0 ? ['', res] : [res.slice(dot + 1), res.slice(0, dot)]) : [row.group, res];
        return row.verbs.map((v) => [g, r, v] as const);
      });
      const probed = rowRequests.filter(([g, r, v]) => requests.some((q) => q.verb === v && (q.apiGroup ?? '') === g && q.resource === r));
      // token-secret: its grant names the read that completes the create (verb-responses.ts), not the create
      if (row.id === 'token-secret') continue;
      if (probed.length === 0 || (generic.includes(row.effect) && probed.length !== rowRequests.length)) missing.push(row.id);
    }
    expect(missing).toEqual([]);
  });
});
