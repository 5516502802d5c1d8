// Warmed steady state (labelled as such in BENCHMARKS.md): the time per tenant once V8 has optimized the code. One
// process per size: an untimed warm-up App of W tenants (built and synthesized, GitOps layout), then a fresh App of N
// tenants, timed from building the first tenant to the end of synth(). Same app as tenancy-app.js otherwise.
// usage: node steady-app.js <compiled library dir> <bundles dir> <warm-up tenants> <tenants> <outdir>
// (run by bench/scale.ts; the last line on stdout is this process's own measurements, JSON)
'use strict';
const path = require('path');
const [libDir, bundles, warmArg, tenantsArg, outdir] = process.argv.slice(2);
const cdk8s = require('cdk8s');
const lib = require(path.resolve(libDir));

const etcd = lib.OperatorBundle.fromDirectory(path.join(bundles, 'etcd', '0.9.4'));
const prometheus = lib.OperatorBundle.fromDirectory(path.join(bundles, 'prometheus', '0.56.3'));
const catalog = lib.CatalogSourceReference.fromName('curated-operators', 'olm');
function run(n, dir) {
  const app = new lib.TenancyApp({ outdir: dir, layout: lib.OutputLayout.GITOPS, quiet: true });
  for (let i = 0; i < n; i++) {
    const chart = new cdk8s.Chart(app, `tenant-${i}`);
    const t = new lib.ScopedOperatorTenant(chart, 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
    t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
    t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
  }
  app.synth();
}
run(Number(warmArg), path.join(outdir, 'warm-up'));
const start = process.hrtime.bigint();
run(Number(tenantsArg), path.join(outdir, 'measured'));
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(`${JSON.stringify({ tenants: Number(tenantsArg), ms, perTenantMs: ms / Number(tenantsArg) })}\n`);
