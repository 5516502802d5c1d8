import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { appAndChart, validationErrors, validator } from './helpers';
import { SensitiveGrant } from '../../src/audit';
import { OperatorBundle } from '../../src/bundle';
import { Diagnostics } from '../../src/core';
import { CuratedClusterCatalog, OlmV1PermissionPreview, OlmV1PreviewFindingCode, OlmV1Team, OlmV1TeamProps, RegistryV1Render } from '../../src/olmv1';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const shared = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', name, version));
const FLUX_LIKE = path.join(FIXTURES, 'olm-v1-preview', 'grafana-operator-binds-cluster-admin');

/** grafana-operator 5.24.0 as a new version 5.25.0 whose clusterPermissions add `rule` (written to a temp dir, not tracked). */
function grafanaNext(rule: string): OperatorBundle {
  const src = path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-grafana-'));
  fs.cpSync(src, dir, { recursive: true });
  const csvFile = path.join(dir, 'manifests', 'grafana-operator.clusterserviceversion.yaml');
  const csv = fs.readFileSync(csvFile, 'utf8')
    .replace('  name: grafana-operator.v5.24.0', '  name: grafana-operator.v5.25.0')
    .replace('  version: 5.24.0', '  version: 5.25.0')
    .replace('      clusterPermissions:\n        - rules:\n', `      clusterPermissions:\n        - rules:\n${rule}`);
  fs.writeFileSync(csvFile, csv);
  try {
    return OperatorBundle.fromDirectory(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * grafana-operator 5.24.0 renamed to ServiceAccount `op` whose clusterPermissions are exactly `rules` (a YAML flow
 * list): one rendered ClusterRole with those rules, bound by a ClusterRoleBinding to team-x/op.
 */
function opWithClusterRules(rules: string): RegistryV1Render {
  const src = path.join(FIXTURES, 'bundles', 'grafana-operator', '5.24.0');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-op-'));
  fs.cpSync(src, dir, { recursive: true });
  const csvFile = path.join(dir, 'manifests', 'grafana-operator.clusterserviceversion.yaml');
  const csv = fs.readFileSync(csvFile, 'utf8')
    .replace(/      clusterPermissions:\n[\s\S]*?\n      deployments:\n/, `      clusterPermissions:\n        - rules: ${rules}\n          serviceAccountName: op\n      deployments:\n`)
    .split('serviceAccountName: grafana-operator-controller-manager').join('serviceAccountName: op');
  fs.writeFileSync(csvFile, csv);
  try {
    return RegistryV1Render.forExtension(OperatorBundle.fromDirectory(dir), { installNamespace: 'team-x' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function team(extensions: OlmV1TeamProps['extensions'], allowedPackages: OlmV1TeamProps['allowedPackages']) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-x', image: 'registry.example.com/catalogs/team-x:v1', team: 'team-x', pollIntervalMinutes: 30 });
  const t = new OlmV1Team(chart, 'T', { team: 'team-x', groups: ['team-x-admins'], namespaces: ['team-x'], catalog, allowedPackages, extensions });
  return { app, chart, t };
}
const strip = (errors: string[]) => errors.map((e) => e.replace(/^\[platform\/T\] /, ''));

describe('OlmV1PermissionPreview', () => {
  test('a bundle binding cluster-admin to ServiceAccounts of flux-system (as flux and tf-controller ship): every path named', () => {
    const preview = OlmV1PermissionPreview.of(RegistryV1Render.forExtension(OperatorBundle.fromDirectory(FLUX_LIKE), { installNamespace: 'team-x' }));
    expect(preview.findings.map((f) => [f.code, f.subject])).toEqual([
      [OlmV1PreviewFindingCode.SUBJECT_OUTSIDE_INSTALL_NAMESPACE, 'ServiceAccount flux-system/kustomize-controller'],
      [OlmV1PreviewFindingCode.SUBJECT_OUTSIDE_INSTALL_NAMESPACE, 'ServiceAccount flux-system/helm-controller'],
      [OlmV1PreviewFindingCode.UNBOUNDED, 'ServiceAccount flux-system/helm-controller'],
      [OlmV1PreviewFindingCode.UNBOUNDED, 'ServiceAccount flux-system/kustomize-controller'],
      // grafana's operator creates Deployments in every namespace: one running as flux-system/kustomize-controller is cluster-admin
      [OlmV1PreviewFindingCode.UNBOUNDED, 'ServiceAccount team-x/grafana-operator-controller-manager'],
    ]);
    expect(preview.findings[0].what).toEqual('ClusterRoleBinding cluster-reconciler-flux-system (shipped in the bundle; OLM v1 does not rewrite subjects) grants ClusterRole cluster-admin to ServiceAccount flux-system/kustomize-controller, outside install namespace team-x');
  });

  test('permissions are promoted to cluster scope without watchNamespace: Secrets read, Deployment writes, Service and ConfigMap updates cluster-wide', () => {
    const preview = OlmV1PermissionPreview.of(RegistryV1Render.forExtension(shared('grafana-operator', '5.24.0'), { installNamespace: 'team-x' }));
    expect(preview.findings.map((f) => f.what)).toEqual([
      "ServiceAccount team-x/grafana-operator-controller-manager gets 'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SECRETS_READ_CLUSTER_WIDE)",
      // clusterPermissions: create/patch/update on apps deployments, on configmaps and services (all namespaces)
      "ServiceAccount team-x/grafana-operator-controller-manager gets 'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace (WORKLOAD_WRITES)",
      "ServiceAccount team-x/grafana-operator-controller-manager gets 'update'/'patch' on services in every namespace (SERVICE_UPDATE)",
      "ServiceAccount team-x/grafana-operator-controller-manager gets 'update'/'patch' on configmaps in every namespace (CONFIGMAP_UPDATE)",
    ]);
    expect(preview.subjects.map((s) => [s.subject, s.unbounded])).toEqual([['ServiceAccount team-x/grafana-operator-controller-manager', false]]);
  });

  test('a ClusterRole with create on apps deployments bound to team-x/op: the SA can run pods as any ServiceAccount (WORKLOAD_WRITES, the v0 registry)', () => {
    const preview = OlmV1PermissionPreview.of(opWithClusterRules('[{ apiGroups: [apps], resources: [deployments], verbs: [create] }]'));
    expect(preview.subjects.map((s) => s.subject)).toEqual(['ServiceAccount team-x/op']);
    expect(preview.findings).toEqual([{
      code: OlmV1PreviewFindingCode.SENSITIVE_GRANT,
      subject: 'ServiceAccount team-x/op',
      what: "ServiceAccount team-x/op gets 'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace (WORKLOAD_WRITES)",
      grant: SensitiveGrant.WORKLOAD_WRITES,
    }]);
  });

  test.each([
    ["{ apiGroups: [''], resources: [pods/attach], verbs: [create] }", "'create'/'get' on pods/exec, pods/attach or pods/portforward (POD_EXEC)"],
    ["{ apiGroups: [''], resources: [pods/portforward], verbs: [create] }", "'create'/'get' on pods/exec, pods/attach or pods/portforward (POD_EXEC)"],
    ["{ apiGroups: [''], resources: [pods/exec], verbs: [get] }", "'create'/'get' on pods/exec, pods/attach or pods/portforward (POD_EXEC)"],
    ["{ apiGroups: [''], resources: [pods/ephemeralcontainers], verbs: [patch] }", "'update'/'patch' on pods/ephemeralcontainers (POD_EPHEMERAL_CONTAINERS)"],
    ['{ apiGroups: [authentication.k8s.io], resources: [uids], verbs: [impersonate] }', "'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras) (IMPERSONATE)"],
    ['{ apiGroups: [authentication.k8s.io], resources: [userextras], verbs: [impersonate] }', "'impersonate' on users/groups/serviceaccounts/uids/userextras (or constrained 'impersonate:<mode>' on users/groups/serviceaccounts/nodes/uids/userextras) (IMPERSONATE)"],
    ["{ apiGroups: [''], resources: [nodes/proxy], verbs: [create] }", 'nodes/proxy (the kubelet API) (NODES_PROXY)'],
    ['{ apiGroups: [admissionregistration.k8s.io], resources: [mutatingadmissionpolicies], verbs: [update] }', 'writes to admissionregistration.k8s.io validating/mutating admission policies and their bindings (ADMISSION_POLICY_WRITES)'],
    ['{ apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests/approval], verbs: [patch] }', "'update'/'patch' on certificates.k8s.io certificatesigningrequests/approval (CSR_APPROVAL)"],
    ["{ nonResourceURLs: ['*'], verbs: [get] }", "every non-resource URL (nonResourceURLs '*') (NON_RESOURCE_WILDCARD)"],
    ['{ apiGroups: [batch], resources: [cronjobs], verbs: [patch] }', "'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace (WORKLOAD_WRITES)"],
  ])('cluster-wide %s is a sensitive grant of the v0 registry', (rule, what) => {
    expect(OlmV1PermissionPreview.of(opWithClusterRules(`[${rule}]`)).findings.map((f) => [f.code, f.what])).toEqual([
      [OlmV1PreviewFindingCode.SENSITIVE_GRANT, `ServiceAccount team-x/op gets ${what}`],
    ]);
  });

  test('not sensitive cluster-wide: update/patch of batch jobs (pod template immutable), reading pods, get /metrics', () => {
    expect(OlmV1PermissionPreview.of(opWithClusterRules(
      "[{ apiGroups: [batch], resources: [jobs], verbs: [update, patch] }, { apiGroups: [''], resources: [pods], verbs: [get, list, watch] }, { nonResourceURLs: [/metrics], verbs: [get] }]",
    )).findings).toEqual([]);
  });

  test('mutating webhooks on pods are named (opentelemetry-operator)', () => {
    const preview = OlmV1PermissionPreview.of(RegistryV1Render.forExtension(shared('opentelemetry-operator', '0.158.0'), { installNamespace: 'team-x' }));
    expect(preview.findings.filter((f) => f.code === OlmV1PreviewFindingCode.MUTATING_WEBHOOK_ON_PODS).map((f) => f.what)).toEqual([
      'mutating webhook mpod.kb.io rewrites pods in every namespace (served by Service team-x/opentelemetry-operator-webhook-service)',
    ]);
  });

  test('every shared bundle: OLM v1 installs it or refuses it with its reason; rendered RBAC is valid Kubernetes', () => {
    const root = path.join(FIXTURES, 'bundles');
    const outcome: string[] = [];
    for (const pkg of fs.readdirSync(root).filter((x) => !x.endsWith('.md')).sort()) {
      for (const v of fs.readdirSync(path.join(root, pkg)).sort()) {
        const b = shared(pkg, v);
        const why = RegistryV1Render.refusal(b, { installNamespace: 'team-x' });
        if (why) {
          outcome.push(`${b.name}: refused: ${why}`);
          continue;
        }
        const render = RegistryV1Render.forExtension(b, { installNamespace: 'team-x' });
        expect(validator.validateAll(render.rbacObjects())).toEqual([]);
        const codes = [...new Set(OlmV1PermissionPreview.of(render).findings.map((f) => f.code))].sort();
        outcome.push(`${b.name}: ${codes.join(', ')}`);
      }
    }
    expect(outcome).toEqual([
      'cert-manager.v1.16.5: OlmV1ExtensionSensitiveGrant',
      'deployment-validation-operator.v0.7.12: OlmV1ExtensionSensitiveGrant',
      'etcdoperator.v0.9.4: refused: unsupported bundle: bundle does not support AllNamespaces install mode',
      'forklift-operator.v2.6.3: refused: unsupported bundle: bundle does not support AllNamespaces install mode',
      'grafana-operator.v5.24.0: OlmV1ExtensionSensitiveGrant',
      // issue 23: jaeger's mutating webhook on deployments in every namespace (OLMT-052)
      'jaeger-operator.v1.65.0: OlmV1ExtensionSensitiveGrant, OlmV1SubjectOutsideInstallNamespace, OlmV1WebhookBeyondOwnApis',
      'keda.v2.7.1: TenantIdentityUnbounded',
      'opentelemetry-operator.v0.158.0: OlmV1ExtensionSensitiveGrant, OlmV1MutatingWebhookOnPods, OlmV1SubjectOutsideInstallNamespace',
      'percona-xtradb-cluster-operator.v1.20.0: OlmV1ExtensionSensitiveGrant',
      'prometheusoperator.0.56.3: refused: unsupported bundle: bundle does not support AllNamespaces install mode',
      'rabbitmq-cluster-operator.v2.22.3: OlmV1ExtensionSensitiveGrant',
      'strimzi-cluster-operator.v1.2.0: OlmV1ExtensionSensitiveGrant',
    ]);
  });
});

describe('OlmV1Team with bundles: refused unless accepted by name with a reason', () => {
  test('the cluster-admin binding bundle is refused for the team by default (OLMT-046, OLMT-026, OLMT-044 ids in the messages)', () => {
    const { app } = team([{ packageName: 'flux', namespace: 'team-x', bundles: [OperatorBundle.fromDirectory(FLUX_LIKE)] }], [{ name: 'flux' }]);
    const errors = strip(validationErrors(app));
    expect(errors.map((e) => e.match(/\((\w+), (OLMT-\d+)\)$/)!.slice(1).join(' '))).toEqual([
      'OlmV1SubjectOutsideInstallNamespace OLMT-046',
      'OlmV1SubjectOutsideInstallNamespace OLMT-046',
      'TenantIdentityUnbounded OLMT-026',
      'TenantIdentityUnbounded OLMT-026',
      'TenantIdentityUnbounded OLMT-026',
    ]);
    expect(errors[2]).toEqual('extensions[team-x-flux].bundles[grafana-operator.v5.24.0]="ServiceAccount flux-system/helm-controller": ServiceAccount flux-system/helm-controller reaches * on every resource cluster-wide: operator-controller applies grafana-operator.v5.24.0 with cluster-admin when team team-x installs flux. Fix: pick another package or version, or accept it: acceptedRisks: [{ check: \'OLMT-026\', reason }] (TenantIdentityUnbounded, OLMT-026)');
  });

  test('accepted by policy id with a reason: synth passes and the reasons are written on the ClusterExtension', () => {
    const { app, chart } = team([{
      packageName: 'flux',
      namespace: 'team-x',
      bundles: [OperatorBundle.fromDirectory(FLUX_LIKE)],
      acceptedRisks: [{ check: 'OLMT-046', reason: 'flux reconciles the cluster' }, { check: 'OLMT-026', reason: 'platform team owns flux-system' }],
    }], [{ name: 'flux' }]);
    expect(validationErrors(app)).toEqual([]);
    const ext = Testing.synth(chart).find((o) => o.kind === 'ClusterExtension');
    expect(ext.metadata.annotations).toEqual({ 'olm-tenancy.io/accepted-risks': 'OLMT-046: flux reconciles the cluster; OLMT-026: platform team owns flux-system' });
  });

  test('an empty reason accepts nothing', () => {
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-x', bundles: [shared('grafana-operator', '5.24.0')], acceptedRisks: [{ check: 'OLMT-044', reason: ' ' }] }], [{ name: 'grafana-operator' }]);
    expect(strip(validationErrors(app)).map((e) => e.replace(/:.*\(/, ' ('))).toEqual([
      'extensions[team-x-grafana-operator].acceptedRisks[OLMT-044].reason (EmptyAcceptedRiskReason)',
      // one per sensitive grant: SECRETS_READ_CLUSTER_WIDE, WORKLOAD_WRITES, SERVICE_UPDATE, CONFIGMAP_UPDATE
      'extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="ServiceAccount team-x/grafana-operator-controller-manager" (OlmV1ExtensionSensitiveGrant, OLMT-044)',
      'extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="ServiceAccount team-x/grafana-operator-controller-manager" (OlmV1ExtensionSensitiveGrant, OLMT-044)',
      'extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="ServiceAccount team-x/grafana-operator-controller-manager" (OlmV1ExtensionSensitiveGrant, OLMT-044)',
      'extensions[team-x-grafana-operator].bundles[grafana-operator.v5.24.0]="ServiceAccount team-x/grafana-operator-controller-manager" (OlmV1ExtensionSensitiveGrant, OLMT-044)',
    ]);
  });

  test('bundles OLM v1 refuses fail synth with its reason (OLMT-048); a bundle outside the range is not previewed, and is one error (issue 40)', () => {
    const { app } = team([{ packageName: 'etcd', namespace: 'team-x', bundles: [shared('etcd', '0.9.4')] }], [{ name: 'etcd', versionRange: '>=0.9.0 <1.0.0' }]);
    expect(strip(validationErrors(app))).toEqual([
      'extensions[team-x-etcd].bundles[etcdoperator.v0.9.4]="0.9.4": operator-controller would refuse etcdoperator.v0.9.4: unsupported bundle: bundle does not support AllNamespaces install mode. Fix: narrow the version range to bundles OLM v1 installs, or install the package with OLM v0 (OlmV1BundleRefused, OLMT-048)',
    ]);
    // the constraint admits none of the bundles given: the preview would be of a version operator-controller does not install
    const outside = team([{ packageName: 'etcd', namespace: 'team-x', bundles: [shared('etcd', '0.9.4')] }], [{ name: 'etcd', versionRange: '>=1.0.0 <2.0.0' }]);
    expect(strip(validationErrors(outside.app)).map((e) => e.slice(e.lastIndexOf('(')))).toEqual(['(VersionConstraintNotBundle)']);
  });

  test('upgrade escalation along the allowed range: the diff is named (OLMT-047) unless accepted', () => {
    const bundles = [grafanaNext('            - apiGroups:\n                - ""\n              resources:\n                - nodes\n              verbs:\n                - get\n'), shared('grafana-operator', '5.24.0')];
    // each of 5.24.0's sensitive grants accepted by name (issue 30 item 10)
    const accept53 = [
      SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE, SensitiveGrant.CONFIGMAP_UPDATE,
    ]
      .map((grant) => ({ check: 'OLMT-044', grant, reason: 'grafana reads its datasource Secrets and manages its Deployments, Services and ConfigMaps' }));
    const { app } = team([{ packageName: 'grafana-operator', namespace: 'team-x', bundles, acceptedRisks: accept53 }], [{ name: 'grafana-operator', versionRange: '>=5.0.0 <6.0.0' }]);
    expect(strip(validationErrors(app))).toEqual([
      'extensions[team-x-grafana-operator].bundles[grafana-operator.v5.25.0]="5.24.0 -> 5.25.0": the upgrade grafana-operator.v5.24.0 -> grafana-operator.v5.25.0 inside range \'>=5.0.0 <6.0.0\' grows what the extension gets: + cluster-scoped Namespace:"" APIGroups:[] Resources:[nodes] Verbs:[get]. Fix: narrow the version range, or accept it: acceptedRisks: [{ check: \'OLMT-047\', reason }] (OlmV1UpgradeGrowsPermissions, OLMT-047)',
    ]);
    const accepted = team([{ packageName: 'grafana-operator', namespace: 'team-x', bundles, acceptedRisks: [...accept53, { check: 'OLMT-047', reason: 'reviewed 5.25.0' }] }], [{ name: 'grafana-operator', versionRange: '>=5.0.0 <6.0.0' }]);
    expect(validationErrors(accepted.app)).toEqual([]);
  });

  test('with channels, only bundles in one of them are previewed (the others cannot resolve)', () => {
    const pkg = [{ name: 'grafana-operator', channels: ['v5', 'stable'] }];
    // a bundle of another channel only: it cannot resolve, and nothing that can is previewed (issue 40: one error, not a silent pass)
    expect(strip(validationErrors(team([{ packageName: 'grafana-operator', namespace: 'team-x', channels: ['stable'], bundles: [shared('grafana-operator', '5.24.0')] }], pkg).app))
      .map((e) => e.slice(e.lastIndexOf('(')))).toEqual(['(VersionConstraintNotBundle)']);
    expect(strip(validationErrors(team([{ packageName: 'grafana-operator', namespace: 'team-x', channels: ['v5'], bundles: [shared('grafana-operator', '5.24.0')] }], pkg).app))
      .map((e) => e.slice(-40))).toEqual(Array(4).fill('(OlmV1ExtensionSensitiveGrant, OLMT-044)'));
  });

  test('an extension without bundles warns that nothing was previewed (OLMT-049)', () => {
    const { chart } = team([{ packageName: 'grafana-operator', namespace: 'team-x' }], [{ name: 'grafana-operator' }]);
    expect(Diagnostics.warnings(chart).map((w) => Diagnostics.format(w))).toEqual([
      "[platform/T] extensions[team-x-grafana-operator].bundles: no bundles given: what operator-controller installs for package 'grafana-operator' with cluster-admin is not previewed. Fix: pass the bundles the version range resolves to (OperatorBundle.fromCatalogPackage) (OlmV1ExtensionNotPreviewed, OLMT-049)",
    ]);
  });
});
