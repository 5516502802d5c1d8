// The shared bundles (test/fixtures/bundles) the preflight tests run on, loaded once per test file, and small helpers
// of the install preflight's and the installer permissions' tests.
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { DefaultInstallerRules } from '../../src/preflight/default-installer-rules';
import { PreflightResult } from '../../src/preflight/install-preflight';
import { PreflightCode } from '../../src/preflight/preflight-code';

export const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
export const VERSIONS: Record<string, string> = {
  'cert-manager': '1.16.5',
  'deployment-validation-operator': '0.7.12',
  'etcd': '0.9.4',
  'forklift-operator': '2.6.3',
  'grafana-operator': '5.24.0',
  'jaeger': '1.65.0',
  'keda': '2.7.1',
  'opentelemetry-operator': '0.158.0',
  'percona-xtradb-cluster-operator': '1.20.0',
  'prometheus': '0.56.3',
  'rabbitmq-cluster-operator': '2.22.3',
  'strimzi-kafka-operator': '1.2.0',
};
const cache = new Map<string, OperatorBundle>();
export function load(op: string): OperatorBundle {
  if (!cache.has(op)) cache.set(op, OperatorBundle.fromDirectory(path.join(BUNDLES, op, VERSIONS[op])));
  return cache.get(op)!;
}
/** Own namespace when the CSV supports OwnNamespace, else AllNamespaces (the only other choice of these bundles). */
export function targetsFor(b: OperatorBundle): string[] {
  return b.installModes.some((m) => m.supported && m.type === 'OwnNamespace') ? ['team-a'] : [];
}
export const OKD = DefaultInstallerRules.okdScopedInstall();
export const codes = (r: { problems: Array<{ code: PreflightCode }> }) => r.problems.map((p) => p.code);
export const scopes = (r: PreflightResult) => ({
  tenant: r.missing.filter((m) => m.namespace === 'team-a').length,
  kubeSystem: r.missing.filter((m) => m.namespace === 'kube-system').length,
  cluster: r.missing.filter((m) => m.namespace === '').length,
});
