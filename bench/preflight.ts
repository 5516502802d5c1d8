/**
 * Preflight timings (run by bench/run.ts through `npm run bench`). Timings live here, never in tests.
 */
import * as path from 'path';
import { OperatorBundle } from '../src/bundle/operator-bundle';
import { DefaultInstallerRules } from '../src/preflight/default-installer-rules';
import { InstallPreflight } from '../src/preflight/install-preflight';
import { InstallerPermissions } from '../src/preflight/installer-permissions';

const BUNDLES = path.join(__dirname, '..', 'test', 'fixtures', 'bundles');

/** Milliseconds one call of `fn` takes. */
export function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Times the preflight for the largest bundle (jaeger, 234 KB CSV) and for 500 tenants x 2 bundles. */
export function benchPreflight(): string[] {
  const out: string[] = [];
  let jaeger!: OperatorBundle;
  out.push(`preflight: load jaeger 1.65.0 bundle directory (234 KB CSV + 7 files): ${time(() => {
    jaeger = OperatorBundle.fromDirectory(path.join(BUNDLES, 'jaeger', '1.65.0'));
  }).toFixed(1)} ms`);
  const okd = DefaultInstallerRules.okdScopedInstall();
  const check = () => InstallPreflight.check({ bundle: jaeger, namespace: 'team-a', targetNamespaces: [], installerRules: okd, upgrade: true });
  const first = time(check);
  // Later checks of the same bundle and namespace reuse the modelled install (cached per bundle): median of 21.
  const runs = Array.from({ length: 21 }, () => time(check)).sort((a, b) => a - b);
  out.push(`preflight: jaeger with the OKD default Role (all missing rules + problems): first ${first.toFixed(1)} ms (models the install), `
    + `then median ${runs[10].toFixed(1)} ms per check (min ${runs[0].toFixed(1)} ms)`);
  out.push(`preflight: jaeger leastPrivilege derivation: ${time(() => {
    InstallerPermissions.leastPrivilege({ bundles: [jaeger], namespace: 'team-a', targetNamespaces: [], allowClusterScoped: true });
  }).toFixed(1)} ms`);

  const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
  const grafana = OperatorBundle.fromDirectory(path.join(BUNDLES, 'grafana-operator', '5.24.0'));
  const tenants = 500;
  let failing = 0;
  const ms = time(() => {
    for (let t = 0; t < tenants; t++) {
      const ns = `tenant-${t}`;
      const allowClusterScoped = t % 2 === 0;
      const d = InstallerPermissions.leastPrivilege({ bundles: [etcd, grafana], namespace: ns, targetNamespaces: [ns], allowClusterScoped });
      for (const bundle of [etcd, grafana]) {
        const r = InstallPreflight.check({
          bundle,
          namespace: ns,
          targetNamespaces: [ns],
          installerRules: d.namespacedRules,
          clusterInstallerRules: d.clusterRules,
          otherNamespaceRules: d.otherNamespaceRules,
        });
        if (!r.ok) failing++;
      }
    }
  });
  // Every tenant has its own namespace, so every tenant models each install afresh (no cache hits across tenants).
  out.push(`preflight: ${tenants} tenants x 2 bundles (etcd, grafana-operator; derive + check each): ${ms.toFixed(0)} ms total, `
    + `${(ms / (tenants * 2)).toFixed(2)} ms per tenant-bundle (${failing} checks fail: half the tenants are namespace-confined and grafana has clusterPermissions)`);
  return out;
}
