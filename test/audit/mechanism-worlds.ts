// Small worlds for the mechanism tables' tests (issue 37): Kubernetes objects as the effective-power model reads them,
// the variants every row is tried with, and small bundles for the OLM v1 preview. Plain data, no App synth.
import { EffectivePower, PowerObject, RbacSubject, SubjectKind } from '../../src/audit/effective-power';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { OlmV1PermissionPreview } from '../../src/olmv1/olm-v1-permission-preview';
import { RegistryV1Render } from '../../src/olmv1/registry-v1-render';

export const RBAC = 'rbac.authorization.k8s.io';
export const sa = (namespace: string, name: string): RbacSubject => ({ kind: SubjectKind.SERVICE_ACCOUNT, name, namespace });
const m = (manifest: any): PowerObject => ({ manifest });
export const serviceAccount = (ns: string, name: string) => m({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } });
export const tokenSecret = (ns: string, name: string, account: string) => m({
  apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name, namespace: ns, annotations: { 'kubernetes.io/service-account.name': account } },
});
export const deployment = (ns: string, name: string, podSpec: any) => m({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns }, spec: { template: { spec: podSpec } } });
export const statefulSet = (ns: string, name: string, account: string) => m({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: ns }, spec: { template: { spec: { serviceAccountName: account } } } });
export const clusterRole = (name: string, rules: any[], labels?: Record<string, string>) => m({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules });
export const role = (ns: string, name: string, rules: any[]) => m({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace: ns }, rules });
export const crb = (name: string, roleName: string, subjects: any[]) => m({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
export const rb = (ns: string, name: string, roleKind: string, roleName: string, subjects: any[]) => m({
  apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace: ns }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects,
});
export const operatorGroup = (ns: string, serviceAccountName?: string) => m({
  apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: ns, namespace: ns }, spec: serviceAccountName ? { serviceAccountName } : {},
});
export const csv = (ns: string, name: string, owned: string[], accounts: string[], targets: string[]) => m({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name, namespace: ns, annotations: { 'olm.targetNamespaces': targets.join(',') } },
  spec: {
    customresourcedefinitions: { owned: owned.map((n) => ({ name: n })) },
    install: { spec: { deployments: accounts.map((a) => ({ name: a, spec: { template: { spec: { serviceAccountName: a } } } })) } },
  },
});

/** The subject of every variant: ServiceAccount team-a/op. */
export const OP = sa('team-a', 'op');
const OP_SUBJECT = { kind: 'ServiceAccount', name: 'op', namespace: 'team-a' };

/** How `op` holds the rules of a variant. */
export type Holding = 'crb' | 'role' | 'rb-cluster-role' | 'aggregated' | 'rb-other-ns';

/**
 * `op` holding `rules`: cluster-wide (a ClusterRoleBinding), in `ns` (a Role and its RoleBinding; a ClusterRole bound
 * by a RoleBinding there), through an aggregated ClusterRole that selects the role holding them (cluster-wide), or in
 * the namespace `elsewhere` (a RoleBinding of the ClusterRole: the variant that must not reach `ns`).
 */
export function holding(rules: any[], how: Holding, ns = 'team-b'): PowerObject[] {
  switch (how) {
    case 'crb': return [clusterRole('path', rules), crb('path', 'path', [OP_SUBJECT])];
    case 'role': return [role(ns, 'path', rules), rb(ns, 'path', 'Role', 'path', [OP_SUBJECT])];
    case 'rb-cluster-role': return [clusterRole('path', rules), rb(ns, 'path', 'ClusterRole', 'path', [OP_SUBJECT])];
    case 'aggregated': return [
      clusterRole('path', rules, { 'example.com/path': 'true' }),
      { manifest: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/path': 'true' } }] }, rules: [] } },
      crb('agg', 'agg', [OP_SUBJECT]),
    ];
    case 'rb-other-ns': return [clusterRole('path', rules), rb('elsewhere', 'path', 'ClusterRole', 'path', [OP_SUBJECT])];
  }
}

/** The identities `op` reaches (itself left out). */
export function reached(objects: PowerObject[], options?: { olmV1GuardedGroups?: string[] }): string[] {
  return new EffectivePower(objects, options).of(OP).identities.map((i) => i.identity).filter((i) => i !== 'ServiceAccount team-a/op');
}

/** The variants of a rule that hold the same power: another verb of the same effect is the caller's; these are RBAC's. */
export function ruleVariants(rule: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }): Array<[string, any]> {
  const sub = rule.resources[0].includes('/') ? rule.resources[0].slice(rule.resources[0].indexOf('/')) : '';
  return [
    ['as written', rule],
    ['* verbs', { ...rule, verbs: ['*'] }],
    ['* groups', { ...rule, apiGroups: ['*'] }],
    [sub ? `*${sub}` : '* resources of the group', { ...rule, resources: [sub ? `*${sub}` : '*'] }],
  ];
}

/**
 * A one-operator bundle (AllNamespaces) of package `name` whose CSV's clusterPermissions hold `clusterRules`, owning the
 * CRDs named in `owned` (`<plural>.<group>`, shipped as CRD manifests), as a catalog's `olm.bundle` entry carries it.
 */
export function bundleWith(name: string, clusterRules: any[], options: { owned?: string[]; podSpec?: any; extra?: any[] } = {}): OperatorBundle {
  const owned = options.owned ?? [];
  const csvObject = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: `${name}.v1.0.0` },
    spec: {
      version: '1.0.0',
      installModes: [{ type: 'AllNamespaces', supported: true }],
      customresourcedefinitions: { owned: owned.map((n) => ({ name: n, version: 'v1', kind: kindOf(n) })) },
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [{ name, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { serviceAccountName: name, containers: [{ name, image: 'example.com/op:1' }], ...(options.podSpec ?? {}) } } } }],
          clusterPermissions: [{ serviceAccountName: name, rules: clusterRules }],
        },
      },
    },
  };
  const crds = owned.map((n) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: n },
    spec: {
      group: n.slice(n.indexOf('.') + 1),
      names: { plural: n.slice(0, n.indexOf('.')), singular: kindOf(n).toLowerCase(), kind: kindOf(n), listKind: `${kindOf(n)}List` },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  }));
  return OperatorBundle.fromCatalogBundle({
    schema: 'olm.bundle',
    name: `${name}.v1.0.0`,
    package: name,
    image: `example.com/${name}-bundle:v1.0.0`,
    properties: [
      { type: 'olm.package', value: { packageName: name, version: '1.0.0' } },
      ...[csvObject, ...crds, ...(options.extra ?? [])].map((o) => ({ type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(o)).toString('base64') } })),
    ],
  });
}

function kindOf(crd: string): string {
  const plural = crd.slice(0, crd.indexOf('.'));
  return plural.charAt(0).toUpperCase() + plural.slice(1).replace(/s$/, '');
}

/** The OLM v1 permission preview of a bundle installed in team-x. */
export function previewOf(bundle: OperatorBundle): OlmV1PermissionPreview {
  return OlmV1PermissionPreview.of(RegistryV1Render.forExtension(bundle, { installNamespace: 'team-x' }));
}
