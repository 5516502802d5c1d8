import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { buildOlmV1Platform } from '../../examples/olm-v1-platform';
import { GitOpsLayout, OlmV1Team, OutputLayout, TenancyApp } from '../../src';
import { filesBelow } from '../util/files';

describe('GitOps layout of the OLM v1 example platform', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-gitops-'));
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  test('catalogs and policies in cluster/, each team\'s ClusterExtensions and namespace in its folder, after the Namespace and the policy', () => {
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, report: false });
    buildOlmV1Platform(app);
    app.synth();
    expect(filesBelow(outdir)).toEqual([
      TenancyApp.WARNINGS_FILE,
      'argocd/health-checks.yaml',
      'argocd/ignore-differences.yaml',
      'cluster/clustercatalog-messaging-curated.yaml',
      'cluster/clustercatalog-observability-curated.yaml',
      'cluster/clusterrole-olmv1-team-messaging-installer.yaml',
      'cluster/clusterrole-olmv1-team-observability-installer.yaml',
      'cluster/clusterrolebinding-olmv1-team-messaging-installer.yaml',
      'cluster/clusterrolebinding-olmv1-team-observability-installer.yaml',
      'cluster/kustomization.yaml',
      'cluster/validatingadmissionpolicy-olmv1-team-messaging.yaml',
      'cluster/validatingadmissionpolicy-olmv1-team-observability.yaml',
      'cluster/validatingadmissionpolicybinding-olmv1-team-messaging.yaml',
      'cluster/validatingadmissionpolicybinding-olmv1-team-observability.yaml',
      'kustomization.yaml',
      'tenants/kustomization.yaml',
      'tenants/messaging/clusterextension-messaging-rabbitmq-cluster-operator.yaml',
      'tenants/messaging/kustomization.yaml',
      'tenants/messaging/namespace-messaging-dev.yaml',
      'tenants/messaging/namespace-messaging.yaml',
      'tenants/observability/clusterextension-observability-grafana-operator.yaml',
      'tenants/observability/kustomization.yaml',
      'tenants/observability/namespace-observability.yaml',
    ]);
    const ext = parse(fs.readFileSync(path.join(outdir, 'tenants/messaging/clusterextension-messaging-rabbitmq-cluster-operator.yaml'), 'utf8'));
    expect(ext.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'messaging', 'olm-tenancy.io/team': 'messaging' });
    expect(ext.metadata.annotations['argocd.argoproj.io/sync-wave']).toEqual('1');
    expect(parse(fs.readFileSync(path.join(outdir, 'tenants/messaging/kustomization.yaml'), 'utf8')).resources).toEqual([
      'namespace-messaging-dev.yaml', 'namespace-messaging.yaml', 'clusterextension-messaging-rabbitmq-cluster-operator.yaml',
    ]);
  });

  test('TENANCY.md ends with the OLM v1 section: each team\'s guardrail and every previewed finding with its acceptance', () => {
    const dir = path.join(outdir, 'with-report');
    const app = new TenancyApp({ outdir: dir, layout: OutputLayout.GITOPS, quiet: true, report: true });
    buildOlmV1Platform(app);
    app.synth();
    const md = fs.readFileSync(path.join(dir, TenancyApp.REPORT_FILE), 'utf8');
    const section = OlmV1Team.reportSection(app)!;
    expect(md.endsWith(`${section}\n`)).toBe(true);
    expect(section.split('\n').filter((l) => l.includes('OLMT-') || l.startsWith('### '))).toEqual([
      '### observability',
      "    - OLMT-044 ServiceAccount observability/grafana-operator-controller-manager gets 'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SECRETS_READ_CLUSTER_WIDE) (accepted: grafana-operator reads datasource credentials from Secrets in the namespaces it serves)",
      "    - OLMT-044 ServiceAccount observability/grafana-operator-controller-manager gets 'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace (WORKLOAD_WRITES) (accepted: grafana-operator manages the Grafana Deployments)",
      "    - OLMT-044 ServiceAccount observability/grafana-operator-controller-manager gets 'update'/'patch' on services in every namespace (SERVICE_UPDATE) (accepted: grafana-operator manages the Grafana Services)",
      "    - OLMT-044 ServiceAccount observability/grafana-operator-controller-manager gets 'update'/'patch' on configmaps in every namespace (CONFIGMAP_UPDATE) (accepted: grafana-operator manages the Grafana ConfigMaps)",
      '### messaging',
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'create'/'get' on pods/exec, pods/attach or pods/portforward (POD_EXEC) (accepted: the RabbitMQ operator execs into its pods (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SECRETS_READ_CLUSTER_WIDE) (accepted: the RabbitMQ operator manages the cluster Secrets (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'create' (or 'update'/'patch' of the pod template) on workload controllers (deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, replicationcontrollers; controllerrevisions, the statefulsets' templates) in every namespace (WORKLOAD_WRITES) (accepted: the RabbitMQ operator manages the cluster StatefulSets (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'update'/'patch' on services in every namespace (SERVICE_UPDATE) (accepted: the RabbitMQ operator manages the cluster Services (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'update'/'patch' on configmaps in every namespace (CONFIGMAP_UPDATE) (accepted: the RabbitMQ operator manages the cluster ConfigMaps (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'update'/'patch' on pods (a running container's image) (POD_IMAGE_UPDATE) (accepted: the RabbitMQ operator updates its broker pods (reviewed by platform security))",
    ]);
  });
});

describe('GitOpsLayout.files: a tenant with several namespaces (tenantNamespaces)', () => {
  const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const sa = (name: string, namespace: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
  test('the Namespaces and the objects in them go to the tenant\'s folder, labelled with the tenant; another tenant\'s namespace stays its own', () => {
    const teamNamespaces = ['apps', 'apps-dev', 'shared'];
    const files = GitOpsLayout.files([
      { manifest: ns('apps'), tenant: 'apps', tenantNamespaces: teamNamespaces },
      { manifest: ns('apps-dev'), tenant: 'apps', tenantNamespaces: teamNamespaces },
      { manifest: sa('installer', 'apps-dev'), tenant: 'apps', tenantNamespaces: teamNamespaces },
      { manifest: ns('shared'), tenant: 'shared' },
      // a platform object in the team's second namespace
      { manifest: sa('platform-bot', 'apps-dev') },
      { manifest: sa('elsewhere', 'kube-system'), tenant: 'apps', tenantNamespaces: teamNamespaces },
    ]);
    expect(files.map((f) => f.path)).toEqual([
      'cluster/kustomization.yaml',
      'cluster/serviceaccount-kube-system-elsewhere.yaml',
      'kustomization.yaml',
      'tenants/apps/kustomization.yaml',
      'tenants/apps/namespace-apps-dev.yaml',
      'tenants/apps/namespace-apps.yaml',
      'tenants/apps/serviceaccount-installer.yaml',
      'tenants/apps/serviceaccount-platform-bot.yaml',
      'tenants/kustomization.yaml',
      'tenants/shared/kustomization.yaml',
      'tenants/shared/namespace-shared.yaml',
    ]);
    const labelsOf = (p: string) => parse(files.find((f) => f.path === p)!.content).metadata.labels['cdk8s-olm-tenancy.io/tenant'];
    expect(['tenants/apps/namespace-apps-dev.yaml', 'tenants/apps/serviceaccount-platform-bot.yaml', 'tenants/shared/namespace-shared.yaml'].map(labelsOf)).toEqual(['apps', 'apps', 'shared']);
  });
});

test('GitOpsLayout.files: tenantNamespaces must be namespace names (never paths)', () => {
  expect(() => GitOpsLayout.files([{ manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }, tenant: 'a', tenantNamespaces: ['a', '../x'] }]))
    .toThrow(/^GitOpsLayout\.files: objects\[0\]\.tenantNamespaces\[1\]="\.\.\/x": Tenant namespace /);
});
