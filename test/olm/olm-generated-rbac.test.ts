import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { AccessLevel, OlmGeneratedRbac, OlmGeneration, OlmMemberOperator, OlmNaming, OlmRbacSource, OperatorBundle, PolicyRule } from '../../src';
import { KubernetesNames, NameRule } from '../../src/core/kubernetes-names';
import { SchemaValidator } from '../util/schema-validator';

// fnv64a("<Kind>.<version>.<group>") as Go %x, computed independently (Python) for these fixtures.
const WIDGET_HASH = '50cc6f60739af19b'; // Widget.v1.example.com
const GADGET_HASH = 'de6459529200cdcf'; // Gadget.v1alpha1.metrics.example.com

const widgets: OlmMemberOperator = {
  csvName: 'widgets.v1.0.0',
  ownedCrds: [{ name: 'widgets.example.com', version: 'v1', kind: 'Widget' }],
  ownedApiServices: [{ group: 'metrics.example.com', version: 'v1alpha1', kind: 'Gadget', name: 'gadgets' }],
  permissions: [{ serviceAccountName: 'widgets-operator', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] }],
};
const og = (targetNamespaces: string[]) => ({ name: 'team-a-og', namespace: 'team-a', targetNamespaces });
const owner = (apiVersion: string, kind: string, name: string) =>
  ({ apiVersion, kind, name, uid: `<uid of ${kind}/${name}>`, controller: false, blockOwnerDeletion: false });

describe('OlmGeneratedRbac: provided-API ClusterRoles (operatorgroup.go ensureClusterRolesForCSV / ensureProvidedAPIClusterRole)', () => {
  test('V0_26_AND_LATER: admin/edit/view + crdview per CRD, admin/edit/view per APIService, per-API hash labels, owned by the API', () => {
    // GIVEN
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets] });
    // WHEN
    const roles = rbac.objects().filter((o) => o.source === OlmRbacSource.PROVIDED_API_CLUSTER_ROLE).map((o) => o.manifest);
    // THEN
    const crdOwner = owner('apiextensions.k8s.io/v1', 'customresourcedefinition', 'widgets.example.com');
    const apiOwner = owner('apiregistration.k8s.io/v1', 'APIService', 'v1alpha1.metrics.example.com');
    const role = (name: string, level: string, hash: string, own: any, rule: any) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name,
        labels: { [`olm.opgroup.permissions/aggregate-to-${hash}-${level}`]: 'true', 'olm.managed': 'true', [`rbac.authorization.k8s.io/aggregate-to-${level}`]: 'true' },
        ownerReferences: [own],
      },
      rules: [rule],
    });
    expect(roles).toEqual([
      role('gadgets-v1alpha1-admin', 'admin', GADGET_HASH, apiOwner, { apiGroups: ['metrics.example.com'], resources: ['gadgets'], verbs: ['*'] }),
      role('gadgets-v1alpha1-edit', 'edit', GADGET_HASH, apiOwner, { apiGroups: ['metrics.example.com'], resources: ['gadgets'], verbs: ['create', 'update', 'patch', 'delete'] }),
      role('gadgets-v1alpha1-view', 'view', GADGET_HASH, apiOwner, { apiGroups: ['metrics.example.com'], resources: ['gadgets'], verbs: ['get', 'list', 'watch'] }),
      role('widgets.example.com-v1-admin', 'admin', WIDGET_HASH, crdOwner, { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }),
      role('widgets.example.com-v1-crdview', 'view', WIDGET_HASH, crdOwner,
        { apiGroups: ['apiextensions.k8s.io'], resourceNames: ['widgets.example.com'], resources: ['customresourcedefinitions'], verbs: ['get'] }),
      role('widgets.example.com-v1-edit', 'edit', WIDGET_HASH, crdOwner, { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'update', 'patch', 'delete'] }),
      role('widgets.example.com-v1-view', 'view', WIDGET_HASH, crdOwner, { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }),
    ]);
  });

  test('V0_15_TO_V0_25 (v0.15-v0.25): same roles; CRD owner kind as observed on clusters of that era', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets], generation: OlmGeneration.V0_15_TO_V0_25 });
    const crdRole = rbac.manifests().find((m) => m.metadata.name === 'widgets.example.com-v1-view');
    expect(crdRole.metadata.ownerReferences).toEqual([owner('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com')]);
  });

  test('V0_8_TO_V0_14 (v0.8-v0.14): the OperatorGroup name as label value, the CSV owner labels, no owner references', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets], generation: OlmGeneration.V0_8_TO_V0_14 });
    expect(rbac.manifests().find((m) => m.metadata.name === 'widgets.example.com-v1-edit')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'widgets.example.com-v1-edit',
        labels: {
          'olm.opgroup.permissions/aggregate-to-edit': 'team-a-og',
          'olm.owner': 'widgets.v1.0.0',
          'olm.owner.kind': 'ClusterServiceVersion',
          'olm.owner.namespace': 'team-a',
          'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
        },
      },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'update', 'patch', 'delete'] }],
    });
  });
});

describe('OlmGeneratedRbac: OperatorGroup ClusterRoles (ensureOpGroupClusterRole / getClusterRoleAggregationRule)', () => {
  test('V0_26_AND_LATER: olm.og.<og>.<level>-<hash>, owner labels, one sorted selector per provided API', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets] });
    const roles = rbac.objects().filter((o) => o.source === OlmRbacSource.OPERATOR_GROUP_CLUSTER_ROLE).map((o) => o.manifest);
    const labels = { 'olm.managed': 'true', 'olm.owner': 'team-a-og', 'olm.owner.kind': 'OperatorGroup', 'olm.owner.namespace': 'team-a' };
    const expected = (level: AccessLevel) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: OlmNaming.operatorGroupClusterRoleName('team-a', 'team-a-og', level), labels },
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { [`olm.opgroup.permissions/aggregate-to-${WIDGET_HASH}-${level}`]: 'true' } },
          { matchLabels: { [`olm.opgroup.permissions/aggregate-to-${GADGET_HASH}-${level}`]: 'true' } },
        ],
      },
    });
    expect(roles).toEqual([expected(AccessLevel.ADMIN), expected(AccessLevel.EDIT), expected(AccessLevel.VIEW)]);
    expect(roles.map((r) => r.metadata.name.replace(/-[0-9A-Za-z]+$/, ''))).toEqual(['olm.og.team-a-og.admin', 'olm.og.team-a-og.edit', 'olm.og.team-a-og.view']);
  });

  test('no provided APIs: no aggregationRule at all (OLM passes nil)', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [], generation: OlmGeneration.V0_15_TO_V0_25 });
    expect(rbac.manifests()).toEqual([AccessLevel.ADMIN, AccessLevel.EDIT, AccessLevel.VIEW].map((level) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `team-a-og-${level}`, labels: { 'olm.managed': 'true', 'olm.owner': 'team-a-og', 'olm.owner.kind': 'OperatorGroup', 'olm.owner.namespace': 'team-a' } },
    })));
  });

  test('long OperatorGroup names: V0_26_AND_LATER cuts the group name to fit 253 characters, V0_15_TO_V0_25 writes <og>-<level> uncut', () => {
    const long = 'a'.repeat(252);
    const names = (generation: OlmGeneration) => new OlmGeneratedRbac({ operatorGroup: { name: long, namespace: 'ns', targetNamespaces: [] }, operators: [], generation })
      .manifests().map((m) => m.metadata.name.length);
    expect(names(OlmGeneration.V0_26_AND_LATER)).toEqual([253, 253, 253]);
    expect(names(OlmGeneration.V0_15_TO_V0_25)).toEqual([258, 257, 257]);
  });

  test('V0_8_TO_V0_14: one selector on the OperatorGroup name (what the design docs describe)', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets], generation: OlmGeneration.V0_8_TO_V0_14 });
    expect(rbac.manifests().find((m) => m.metadata.name === 'team-a-og-view')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'team-a-og-view', labels: { 'olm.owner': 'team-a-og', 'olm.owner.kind': 'OperatorGroup', 'olm.owner.namespace': 'team-a' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'olm.opgroup.permissions/aggregate-to-view': 'team-a-og' } }] },
    });
  });
});

describe('OlmGeneratedRbac: a CSV\'s permissions (resolver/rbac.go, ensureSingletonRBAC, ensureTenantRBAC)', () => {
  const permissionObjects = (rbac: OlmGeneratedRbac) => rbac.objects()
    .filter((o) => o.source !== OlmRbacSource.PROVIDED_API_CLUSTER_ROLE && o.source !== OlmRbacSource.OPERATOR_GROUP_CLUSTER_ROLE);

  test('OwnNamespace: a Role and RoleBinding in the operator namespace only, owned by the CSV', () => {
    const objects = permissionObjects(new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [widgets] }));
    expect(objects.map((o) => [o.source, o.manifest.kind, o.manifest.metadata.namespace, o.nameIsExact])).toEqual([
      [OlmRbacSource.CSV_PERMISSION, 'Role', 'team-a', false],
      [OlmRbacSource.CSV_PERMISSION, 'RoleBinding', 'team-a', false],
    ]);
    const [role, binding] = objects.map((o) => o.manifest);
    expect(role.metadata.name).toMatch(/^widgets\.v1\.0\.0-widgets-operator-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(role).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {
        name: role.metadata.name,
        namespace: 'team-a',
        labels: { 'olm.owner': 'widgets.v1.0.0', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'team-a' },
        ownerReferences: [owner('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'widgets.v1.0.0')],
      },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'widgets-operator', namespace: 'team-a' }]);
  });

  test('MultiNamespace: copies into each other target namespace with olm.copiedFrom and the copied CSV as owner', () => {
    const objects = permissionObjects(new OlmGeneratedRbac({ operatorGroup: og(['team-a', 'team-b', 'team-c']), operators: [widgets] }));
    expect(objects.map((o) => [o.source, o.manifest.kind, o.manifest.metadata.namespace])).toEqual([
      [OlmRbacSource.CSV_PERMISSION, 'Role', 'team-a'],
      [OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, 'Role', 'team-b'],
      [OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, 'Role', 'team-c'],
      [OlmRbacSource.CSV_PERMISSION, 'RoleBinding', 'team-a'],
      [OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, 'RoleBinding', 'team-b'],
      [OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, 'RoleBinding', 'team-c'],
    ]);
    const copy = objects[1].manifest;
    expect(copy.metadata.labels).toEqual({
      'olm.copiedFrom': 'team-a', 'olm.managed': 'true', 'olm.owner': 'widgets.v1.0.0', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'team-b',
    });
    expect(copy.metadata.name).toBe(objects[0].manifest.metadata.name);
    expect(objects[4].manifest.subjects).toEqual([{ kind: 'ServiceAccount', name: 'widgets-operator', namespace: 'team-a' }]);
  });

  test('V0_8_TO_V0_14 copies carry the owner labels and olm.copiedFrom but no olm.managed (ensureTenantRBAC before v0.15)', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a', 'team-b']), operators: [widgets], generation: OlmGeneration.V0_8_TO_V0_14 });
    const objects = permissionObjects(rbac);
    const copies = objects.filter((o) => o.source === OlmRbacSource.COPIED_TO_TARGET_NAMESPACE)
      .map((o) => [o.manifest.kind, o.manifest.metadata.labels]);
    const labels = { 'olm.copiedFrom': 'team-a', 'olm.owner': 'widgets.v1.0.0', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'team-b' };
    expect(copies).toEqual([['Role', labels], ['RoleBinding', labels]]);
  });

  test('AllNamespaces: Roles lifted to ClusterRoles with read on namespaces added, no owner references', () => {
    const objects = permissionObjects(new OlmGeneratedRbac({ operatorGroup: og([]), operators: [widgets] }));
    const lifted = objects.filter((o) => o.source === OlmRbacSource.LIFTED_TO_CLUSTER).map((o) => o.manifest);
    expect(lifted.map((m) => m.kind)).toEqual(['ClusterRole', 'ClusterRoleBinding']);
    expect(lifted[0]).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: lifted[0].metadata.name, labels: { 'olm.owner': 'widgets.v1.0.0', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'team-a' } },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    expect(lifted[1].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: lifted[0].metadata.name });
  });

  test('permissionStatus: nothing is lifted or copied when clusterPermissions already cover the permissions', () => {
    const covered: OlmMemberOperator = {
      ...widgets,
      clusterPermissions: [{ serviceAccountName: 'widgets-operator', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }] }],
    };
    for (const targets of [[], ['team-a', 'team-b']]) {
      const sources = permissionObjects(new OlmGeneratedRbac({ operatorGroup: og(targets), operators: [covered] })).map((o) => o.source);
      expect(sources.sort()).toEqual([
        OlmRbacSource.CSV_CLUSTER_PERMISSION, OlmRbacSource.CSV_CLUSTER_PERMISSION, OlmRbacSource.CSV_PERMISSION, OlmRbacSource.CSV_PERMISSION,
      ]);
    }
  });
});

describe('OlmGeneratedRbac: which client creates what', () => {
  test('OLM\'s own client for provided-API, OperatorGroup, lifted and copied RBAC; the (scoped) install for the rest', () => {
    const operator: OlmMemberOperator = { ...widgets, certDeployments: [{ deploymentName: 'gadget-server' }] };
    const bySource = (targets: string[]) => {
      const out: Record<string, boolean[]> = {};
      for (const o of new OlmGeneratedRbac({ operatorGroup: og(targets), operators: [operator] }).objects()) {
        out[o.source] = [...new Set([...(out[o.source] ?? []), o.createdByOlmClient])];
      }
      return out;
    };
    expect({ ...bySource([]), ...bySource(['team-a', 'team-b']) }).toEqual({
      [OlmRbacSource.PROVIDED_API_CLUSTER_ROLE]: [true],
      [OlmRbacSource.OPERATOR_GROUP_CLUSTER_ROLE]: [true],
      [OlmRbacSource.LIFTED_TO_CLUSTER]: [true],
      [OlmRbacSource.COPIED_TO_TARGET_NAMESPACE]: [true],
      [OlmRbacSource.CSV_PERMISSION]: [false],
      [OlmRbacSource.SERVING_CERT]: [false],
    });
  });
});

describe('OlmGeneratedRbac: serving-cert RBAC for APIService/webhook deployments (install/certresources.go)', () => {
  test('Role+RoleBinding on the cert Secret, auth-delegator ClusterRoleBinding, auth-reader RoleBinding in kube-system', () => {
    // GIVEN a deployment serving the APIService, with no service account set (OLM defaults to "default")
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a']), operators: [{ ...widgets, permissions: [], certDeployments: [{ deploymentName: 'gadget-server' }] }] });
    // WHEN
    const objects = rbac.objects().filter((o) => o.source === OlmRbacSource.SERVING_CERT).map((o) => o.manifest);
    // THEN
    const subjects = [{ kind: 'ServiceAccount', name: 'default', namespace: 'team-a' }];
    const csvOwner = [owner('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'widgets.v1.0.0')];
    expect(objects).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: {
          name: 'gadget-server-service-system:auth-delegator',
          labels: { 'olm.managed': 'true', 'olm.owner': 'widgets.v1.0.0', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'team-a' },
        },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
        subjects,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'gadget-server-service-cert', namespace: 'team-a', labels: { 'olm.managed': 'true' }, ownerReferences: csvOwner },
        rules: [{ apiGroups: [''], resourceNames: ['gadget-server-service-cert'], resources: ['secrets'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'gadget-server-service-auth-reader', namespace: 'kube-system', labels: { 'olm.managed': 'true' } },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
        subjects,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'gadget-server-service-cert', namespace: 'team-a', labels: { 'olm.managed': 'true' }, ownerReferences: csvOwner },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'gadget-server-service-cert' },
        subjects,
      },
    ]);
  });
});

describe('OlmGeneratedRbac.effectiveAccess', () => {
  test('per level, through the simulated aggregation: edit cannot read, only view reads the CRD object', () => {
    const rbac = new OlmGeneratedRbac({ operatorGroup: og(['team-a', 'team-b']), operators: [widgets] });
    const common = { clusterScoped: false, namespaces: ['team-a', 'team-b'], allNamespaces: false, providedBy: ['widgets.v1.0.0'] };
    expect(rbac.effectiveAccess(AccessLevel.ADMIN)).toEqual([
      { apiGroup: 'example.com', resource: 'widgets', verbs: ['*'], ...common },
      { apiGroup: 'metrics.example.com', resource: 'gadgets', verbs: ['*'], ...common },
    ]);
    expect(rbac.effectiveAccess(AccessLevel.EDIT)).toEqual([
      { apiGroup: 'example.com', resource: 'widgets', verbs: ['create', 'delete', 'patch', 'update'], ...common },
      { apiGroup: 'metrics.example.com', resource: 'gadgets', verbs: ['create', 'delete', 'patch', 'update'], ...common },
    ]);
    expect(rbac.effectiveAccess(AccessLevel.VIEW)).toEqual([
      { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['get'], resourceNames: ['widgets.example.com'], ...common, clusterScoped: true },
      { apiGroup: 'example.com', resource: 'widgets', verbs: ['get', 'list', 'watch'], ...common },
      { apiGroup: 'metrics.example.com', resource: 'gadgets', verbs: ['get', 'list', 'watch'], ...common },
    ]);
  });

  test('the same access in every generation, AllNamespaces reported as such', () => {
    for (const generation of [OlmGeneration.V0_26_AND_LATER, OlmGeneration.V0_15_TO_V0_25, OlmGeneration.V0_8_TO_V0_14]) {
      const access = new OlmGeneratedRbac({ operatorGroup: og([]), operators: [widgets], generation }).effectiveAccess(AccessLevel.ADMIN);
      expect(access.map((a) => [a.apiGroup, a.resource, a.verbs, a.allNamespaces, a.namespaces])).toEqual([
        ['example.com', 'widgets', ['*'], true, []],
        ['metrics.example.com', 'gadgets', ['*'], true, []],
      ]);
    }
  });

  test('real bundle: etcd 0.9.4 (test/fixtures/bundles/etcd/0.9.4), OwnNamespace, view', () => {
    // GIVEN the CSV as shipped, reduced to the model's input
    const csv = YAML.parse(fs.readFileSync(path.join(__dirname, '../fixtures/bundles/etcd/0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml'), 'utf8'));
    const operator: OlmMemberOperator = {
      csvName: csv.metadata.name,
      ownedCrds: csv.spec.customresourcedefinitions.owned.map((c: any) => ({ name: c.name, version: c.version, kind: c.kind })),
      permissions: csv.spec.install.spec.permissions,
    };
    // WHEN
    const rbac = new OlmGeneratedRbac({ operatorGroup: { name: 'etcd', namespace: 'db', targetNamespaces: ['db'] }, operators: [operator] });
    // THEN
    const common = { clusterScoped: false, namespaces: ['db'], allNamespaces: false, providedBy: ['etcdoperator.v0.9.4'] };
    expect(rbac.effectiveAccess(AccessLevel.VIEW)).toEqual([
      {
        apiGroup: 'apiextensions.k8s.io',
        resource: 'customresourcedefinitions',
        verbs: ['get'],
        resourceNames: ['etcdbackups.etcd.database.coreos.com', 'etcdclusters.etcd.database.coreos.com', 'etcdrestores.etcd.database.coreos.com'],
        ...common,
        clusterScoped: true,
      },
      { apiGroup: 'etcd.database.coreos.com', resource: 'etcdbackups', verbs: ['get', 'list', 'watch'], ...common },
      { apiGroup: 'etcd.database.coreos.com', resource: 'etcdclusters', verbs: ['get', 'list', 'watch'], ...common },
      { apiGroup: 'etcd.database.coreos.com', resource: 'etcdrestores', verbs: ['get', 'list', 'watch'], ...common },
    ]);
    expect(rbac.manifests().filter((m) => m.kind === 'ClusterRole').map((m) => m.metadata.name).filter((n) => !n.startsWith('olm.og.'))).toEqual([
      'etcdbackups.etcd.database.coreos.com-v1beta2-admin', 'etcdbackups.etcd.database.coreos.com-v1beta2-crdview',
      'etcdbackups.etcd.database.coreos.com-v1beta2-edit', 'etcdbackups.etcd.database.coreos.com-v1beta2-view',
      'etcdclusters.etcd.database.coreos.com-v1beta2-admin', 'etcdclusters.etcd.database.coreos.com-v1beta2-crdview',
      'etcdclusters.etcd.database.coreos.com-v1beta2-edit', 'etcdclusters.etcd.database.coreos.com-v1beta2-view',
      'etcdrestores.etcd.database.coreos.com-v1beta2-admin', 'etcdrestores.etcd.database.coreos.com-v1beta2-crdview',
      'etcdrestores.etcd.database.coreos.com-v1beta2-edit', 'etcdrestores.etcd.database.coreos.com-v1beta2-view',
    ]);
    // c571d720f17289d3 = fnv64a("EtcdCluster.v1beta2.etcd.database.coreos.com"), computed independently
    expect(rbac.manifests().find((m) => m.metadata.name === 'etcdclusters.etcd.database.coreos.com-v1beta2-view').metadata.labels)
      .toEqual({ 'olm.managed': 'true', 'olm.opgroup.permissions/aggregate-to-c571d720f17289d3-view': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
  });
});

describe('OlmGeneratedRbac: manifests are valid Kubernetes objects (offline schema validator)', () => {
  test.each([OlmGeneration.V0_26_AND_LATER, OlmGeneration.V0_15_TO_V0_25, OlmGeneration.V0_8_TO_V0_14])('%s, every install mode', (generation) => {
    const operator: OlmMemberOperator = {
      ...widgets,
      clusterPermissions: [{ serviceAccountName: 'widgets-operator', rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] }],
      certDeployments: [{ deploymentName: 'gadget-server', serviceAccountName: 'widgets-operator' }],
    };
    for (const targets of [[], ['team-a'], ['team-b'], ['team-a', 'team-b']]) {
      const manifests = new OlmGeneratedRbac({ operatorGroup: og(targets), operators: [operator], generation }).manifests();
      expect(SchemaValidator.shared().validateAll(manifests)).toEqual([]);
    }
  });
});

describe('OlmGeneratedRbac: bad input is rejected clearly', () => {
  test.each([
    ['empty OperatorGroup name', { operatorGroup: { name: '', namespace: 'a', targetNamespaces: [] }, operators: [] },
      'OlmGeneratedRbac: operatorGroup must have a non-empty \'name\' and \'namespace\', got {"name":"","namespace":"a","targetNamespaces":[]}'],
    ['"" as a target namespace', { operatorGroup: { name: 'g', namespace: 'a', targetNamespaces: [''] }, operators: [] },
      'OlmGeneratedRbac: operatorGroup.targetNamespaces must be a list of namespace names ([] = AllNamespaces), got [""]; OLM rejects "" in targetNamespaces (use [] for AllNamespaces)'],
    ['CRD name without a group', { operatorGroup: og([]), operators: [{ csvName: 'x.v1', ownedCrds: [{ name: 'widgets', version: 'v1', kind: 'Widget' }] }] },
      "OlmGeneratedRbac: operator 'x.v1' owns CRD \"widgets\": the name must be '<plural>.<group>' (OLM splits it at the first dot, ensureClusterRolesForCSV fails otherwise)"],
    ['duplicate CSV', { operatorGroup: og([]), operators: [{ csvName: 'x.v1' }, { csvName: 'x.v1' }] },
      "OlmGeneratedRbac: operator 'x.v1' is listed twice; list each CSV once"],
    ['permission without service account', { operatorGroup: og([]), operators: [{ csvName: 'x.v1', permissions: [{ rules: [] }] }] },
      'OlmGeneratedRbac: operator \'x.v1\' has a permission without \'serviceAccountName\' or \'rules\': {"rules":[]}'],
  ])('%s', (_name, props, message) => {
    expect(() => new OlmGeneratedRbac(props as any)).toThrow(message);
  });
});

describe('OlmGeneratedRbac properties', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
  const operatorArb = fc.record({
    csvName: name.map((n) => `${n}.v1.0.0`),
    ownedCrds: fc.array(fc.record({ plural: name, group: name.map((g) => `${g}.example.com`), version: fc.constantFrom('v1', 'v1beta1', 'v2alpha1'), kind: fc.constantFrom('Widget', 'Gadget', 'Thing') })
      .map((c) => ({ name: `${c.plural}.${c.group}`, version: c.version, kind: c.kind })), { maxLength: 3 }),
    permissions: fc.array(fc.record({ serviceAccountName: name, rules: fc.constant<PolicyRule[]>([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]) }), { maxLength: 2 }),
  });
  const propsArb = fc.record({
    og: fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,250}[a-z0-9]$/), namespace: name, targetNamespaces: fc.uniqueArray(name, { maxLength: 3 }) }),
    operators: fc.uniqueArray(operatorArb, { maxLength: 3, selector: (o) => o.csvName }),
    generation: fc.constantFrom(OlmGeneration.V0_26_AND_LATER, OlmGeneration.V0_15_TO_V0_25, OlmGeneration.V0_8_TO_V0_14),
  });

  test('deterministic, independent of operator order, every name a valid RBAC name (path segment; <= 253 chars in V0_26_AND_LATER)', () => {
    fc.assert(fc.property(propsArb, ({ og: group, operators, generation }) => {
      const a = new OlmGeneratedRbac({ operatorGroup: group, operators, generation }).manifests();
      const b = new OlmGeneratedRbac({ operatorGroup: group, operators: [...operators].reverse(), generation }).manifests();
      expect(b).toEqual(a);
      // RBAC objects are validated as path segments (ValidateRBACName), so OLM's base62 hashes may hold uppercase.
      for (const m of a) {
        expect(KubernetesNames.problem(m.metadata.name, NameRule.PATH_SEGMENT)).toBeUndefined();
        // Only V0_26_AND_LATER cuts the OperatorGroup name (getClusterRoleName); older OLM writes `<og>-<level>` as is.
        if (generation === OlmGeneration.V0_26_AND_LATER) expect(m.metadata.name.length).toBeLessThanOrEqual(253);
      }
    }), { numRuns: 300 });
  });

  test('admin access covers edit and view access (admin is * on every provided API)', () => {
    fc.assert(fc.property(propsArb, ({ og: group, operators, generation }) => {
      const rbac = new OlmGeneratedRbac({ operatorGroup: group, operators, generation });
      const admin = rbac.effectiveAccess(AccessLevel.ADMIN).filter((x) => !x.clusterScoped);
      for (const level of [AccessLevel.EDIT, AccessLevel.VIEW]) {
        for (const x of rbac.effectiveAccess(level).filter((y) => !y.clusterScoped)) {
          expect(admin.some((y) => y.apiGroup === x.apiGroup && y.resource === x.resource && y.verbs.includes('*'))).toBe(true);
        }
      }
    }), { numRuns: 200 });
  });
});

describe('OlmGeneratedRbac.memberOperator', () => {
  test('real bundle: rabbitmq-cluster-operator 2.22.3 (test/fixtures/bundles), CRD, permissions and webhook deployment', () => {
    // GIVEN the bundle as shipped (one owned CRD, two webhooks served by the operator's only deployment)
    const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '../fixtures/bundles/rabbitmq-cluster-operator/2.22.3'));
    // WHEN
    const member = OlmGeneratedRbac.memberOperator(bundle);
    // THEN: values copied by hand from manifests/rabbitmq-cluster-operator.clusterserviceversion.yaml
    const sa = 'rabbitmq-cluster-operator';
    expect(member).toEqual({
      csvName: 'rabbitmq-cluster-operator.v2.22.3',
      ownedCrds: [{ name: 'rabbitmqclusters.rabbitmq.com', version: 'v1beta1', kind: 'RabbitmqCluster' }],
      ownedApiServices: [],
      permissions: [{
        serviceAccountName: sa,
        rules: [
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create'] },
        ],
      }],
      clusterPermissions: [{
        serviceAccountName: sa,
        rules: [
          { apiGroups: [''], resources: ['configmaps', 'persistentvolumeclaims', 'secrets', 'serviceaccounts', 'services'], verbs: ['create', 'get', 'list', 'update', 'watch'] },
          { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'get', 'patch'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'update', 'watch'] },
          { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
          { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters'], verbs: ['create', 'get', 'list', 'update', 'watch'] },
          { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters/finalizers'], verbs: ['update'] },
          { apiGroups: ['rabbitmq.com'], resources: ['rabbitmqclusters/status'], verbs: ['get', 'patch', 'update'] },
          { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'] },
        ],
      }],
      // both webhooks name the same deployment: one set of serving-cert RBAC
      certDeployments: [{ deploymentName: 'rabbitmq-cluster-operator', serviceAccountName: sa }],
    });
  });

  test('feeds the model: the serving-cert RBAC is bound to the deployment\'s service account', () => {
    const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '../fixtures/bundles/rabbitmq-cluster-operator/2.22.3'));
    const rbac = new OlmGeneratedRbac({ operatorGroup: { name: 'rmq', namespace: 'rmq', targetNamespaces: [] }, operators: [OlmGeneratedRbac.memberOperator(bundle)] });
    expect(rbac.manifests().filter((m) => m.kind === 'ClusterRoleBinding' && m.roleRef.name === 'system:auth-delegator')).toEqual([{
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: {
        name: 'rabbitmq-cluster-operator-service-system:auth-delegator',
        labels: { 'olm.managed': 'true', 'olm.owner': 'rabbitmq-cluster-operator.v2.22.3', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'rmq' },
      },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [{ kind: 'ServiceAccount', name: 'rabbitmq-cluster-operator', namespace: 'rmq' }],
    }]);
  });

  test('a serving deployment missing from the install strategy falls back to OLM\'s "default" service account', () => {
    // GIVEN a minimal CSV whose APIService names a deployment the strategy does not list
    const bundle = OperatorBundle.fromCsvObject({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'gadgets.v1.0.0' },
      spec: {
        installModes: [{ type: 'AllNamespaces', supported: true }],
        install: { strategy: 'deployment', spec: { deployments: [] } },
        apiservicedefinitions: { owned: [{ group: 'metrics.example.com', version: 'v1alpha1', kind: 'Gadget', name: 'gadgets', deploymentName: 'gadget-server', containerPort: 8443 }] },
      },
    });
    // WHEN
    const member = OlmGeneratedRbac.memberOperator(bundle);
    // THEN
    expect(member).toEqual({
      csvName: 'gadgets.v1.0.0',
      ownedCrds: [],
      ownedApiServices: [{ group: 'metrics.example.com', version: 'v1alpha1', kind: 'Gadget', name: 'gadgets' }],
      permissions: [],
      clusterPermissions: [],
      certDeployments: [{ deploymentName: 'gadget-server' }],
    });
  });
});
