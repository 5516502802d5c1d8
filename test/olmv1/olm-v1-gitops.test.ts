import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { buildOlmV1Platform } from '../../examples/olm-v1-platform';
import { OlmV1Team, OutputLayout, TenancyApp } from '../../src';

function filesBelow(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? filesBelow(path.join(dir, e.name), base)
    : [path.relative(base, path.join(dir, e.name)).split(path.sep).join('/')])).sort();
}

describe('GitOps layout of the OLM v1 example platform', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-gitops-'));
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  test('catalogs and policies in cluster/, each team\'s ClusterExtensions and namespace in its folder, after the Namespace and the policy', () => {
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, syncWaves: true, quiet: true, report: false });
    buildOlmV1Platform(app);
    app.synth();
    expect(filesBelow(outdir)).toEqual([
      TenancyApp.WARNINGS_FILE,
      'argocd/ignore-differences.yaml',
      'cluster/clustercatalog-messaging-curated.yaml',
      'cluster/clustercatalog-observability-curated.yaml',
      'cluster/clusterrole-olmv1-team-messaging-installer.yaml',
      'cluster/clusterrole-olmv1-team-observability-installer.yaml',
      'cluster/clusterrolebinding-olmv1-team-messaging-installer.yaml',
      'cluster/clusterrolebinding-olmv1-team-observability-installer.yaml',
      'cluster/kustomization.yaml',
      'cluster/namespace-messaging-dev.yaml',
      'cluster/validatingadmissionpolicy-olmv1-team-messaging.yaml',
      'cluster/validatingadmissionpolicy-olmv1-team-observability.yaml',
      'cluster/validatingadmissionpolicybinding-olmv1-team-messaging.yaml',
      'cluster/validatingadmissionpolicybinding-olmv1-team-observability.yaml',
      'kustomization.yaml',
      'tenants/kustomization.yaml',
      'tenants/messaging/clusterextension-messaging-rabbitmq-cluster-operator.yaml',
      'tenants/messaging/kustomization.yaml',
      'tenants/messaging/namespace-messaging.yaml',
      'tenants/observability/clusterextension-observability-grafana-operator.yaml',
      'tenants/observability/kustomization.yaml',
      'tenants/observability/namespace-observability.yaml',
    ]);
    const ext = parse(fs.readFileSync(path.join(outdir, 'tenants/messaging/clusterextension-messaging-rabbitmq-cluster-operator.yaml'), 'utf8'));
    expect(ext.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'cdk8s-olm-tenancy', 'cdk8s-olm-tenancy.io/tenant': 'messaging', 'olm-tenancy.io/team': 'messaging' });
    expect(ext.metadata.annotations['argocd.argoproj.io/sync-wave']).toEqual('1');
    expect(parse(fs.readFileSync(path.join(outdir, 'tenants/messaging/kustomization.yaml'), 'utf8')).resources).toEqual([
      'namespace-messaging.yaml', 'clusterextension-messaging-rabbitmq-cluster-operator.yaml',
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
      "    - OLMT-044 ServiceAccount observability/grafana-operator-controller-manager gets 'get'/'list'/'watch' on secrets in every namespace (SECRETS_READ_CLUSTER_WIDE) (accepted: grafana-operator reads datasource credentials from Secrets in the namespaces it serves)",
      '### messaging',
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'get'/'list'/'watch' on secrets in every namespace (SECRETS_READ_CLUSTER_WIDE) (accepted: the RabbitMQ operator manages cluster Secrets and execs into its pods (reviewed by platform security))",
      "    - OLMT-044 ServiceAccount messaging/rabbitmq-cluster-operator gets 'create' on pods/exec in every namespace (POD_EXEC) (accepted: the RabbitMQ operator manages cluster Secrets and execs into its pods (reviewed by platform security))",
    ]);
  });
});
