/** The leaky cases of issue 8 as Apps, shared by the audit's case tests and its shortcut-vs-oracle test. */
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, OperatorBundle, ReachCode, ScopedOperatorTenant, SensitiveGrant } from '../../src';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
export const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');
export const BINDER = OperatorBundle.fromDirectory(path.join(FIXTURES, 'leaky-bundles', 'cluster-admin-binder', '0.1.0'));
export const GRAFANA = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0'));
export const ETCD = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'etcd', '0.9.4'));
/** The cluster-wide grants of issue 15 item 8 that grafana-operator 5.24.0's clusterPermissions also hold (Deployments create, Services and ConfigMaps update). */
export const GRAFANA_ISSUE15_GRANTS = [SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE];

/** Case 1: a bundle ClusterRoleBinding to cluster-admin, and an installer allowed to bind it. */
export function case1(acceptedReach?: { code: ReachCode; subject?: string; reason: string }[], app: App = Testing.app()) {
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    // what OLM needs to create the bundle's ClusterRoleBinding, granted by hand with the BIND opt-in
    clusterInstallerRules: [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], resourceNames: ['binder-cluster-admin'], verbs: ['get', 'patch'] },
    ],
    allowedSensitiveGrants: [SensitiveGrant.BIND],
    acceptedReach,
  });
  tenant.subscribe({ packageName: 'cluster-admin-binder', catalog: CATALOG, bundle: BINDER });
  return { app, chart, tenant };
}

/** Case 3: grafana-operator's cluster rules opted in, and etcd in the same namespace. */
export function case3(createTokenSecret: boolean = true) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  const tenant = new ScopedOperatorTenant(chart, 'TeamA', {
    namespaceName: 'team-a',
    deriveInstallerRules: true,
    clusterScopedInstallerRulesReason: 'grafana-operator declares clusterPermissions',
    // grafana's clusterPermissions read secrets everywhere, so the installer holds that too: opted in by name
    allowedSensitiveGrants: [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, ...GRAFANA_ISSUE15_GRANTS],
    createTokenSecret,
  });
  tenant.subscribe({ packageName: 'grafana-operator', catalog: CATALOG, bundle: GRAFANA });
  tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
  return { app, chart, tenant };
}
