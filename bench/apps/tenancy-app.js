// A user's app, as `cdk8s synth` runs it (`node app.js`): N tenants x 2 subscriptions with real bundles,
// `deriveInstallerRules`, `TenancyApp`, warnings printed as by default. Plain JavaScript against the compiled library.
// usage: node tenancy-app.js <compiled library dir> <bundles dir> <tenants> <gitops|file> <outdir>
// (run by bench/scale.ts; the last line on stdout is this process's own measurements, JSON)
'use strict';
const t0 = process.hrtime.bigint();
const path = require('path');
const [libDir, bundles, tenantsArg, layout, outdir] = process.argv.slice(2);
const cdk8s = require('cdk8s');
const lib = require(path.resolve(libDir));
const tLoad = process.hrtime.bigint();

const etcd = lib.OperatorBundle.fromDirectory(path.join(bundles, 'etcd', '0.9.4'));
const prometheus = lib.OperatorBundle.fromDirectory(path.join(bundles, 'prometheus', '0.56.3'));
const tRead = process.hrtime.bigint();
const catalog = lib.CatalogSourceReference.fromName('curated-operators', 'olm');
const app = new lib.TenancyApp({ outdir, layout: layout === 'gitops' ? lib.OutputLayout.GITOPS : lib.OutputLayout.FILE_PER_CHART });
const tenants = Number(tenantsArg);
for (let i = 0; i < tenants; i++) {
  const chart = new cdk8s.Chart(app, `tenant-${i}`);
  const t = new lib.ScopedOperatorTenant(chart, 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
  t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
  t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
}
const tBuild = process.hrtime.bigint();
app.synth();
const tSynth = process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stdout.write(`${JSON.stringify({
    loadMs: ms(t0, tLoad), readMs: ms(tLoad, tRead), buildMs: ms(tLoad, tBuild), synthMs: ms(tBuild, tSynth), objects: app.summary.objects,
    userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssMb: u.maxRSS / 1024,
  })}\n`);
});
