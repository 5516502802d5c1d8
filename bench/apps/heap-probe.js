// Where the memory of the library app goes: live heap (after a forced full GC) at each phase, and peak RSS.
// usage: node --expose-gc heap-probe.js <compiled library dir> <bundles dir> <tenants> <outdir>
'use strict';
const path = require('path');
const [libDir, bundles, tenantsArg, outdir] = process.argv.slice(2);
const live = () => {
  global.gc();
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20);
};
const out = {};
const cdk8s = require('cdk8s');
const lib = require(path.resolve(libDir));
out.loaded = live();
const etcd = lib.OperatorBundle.fromDirectory(path.join(bundles, 'etcd', '0.9.4'));
const prometheus = lib.OperatorBundle.fromDirectory(path.join(bundles, 'prometheus', '0.56.3'));
out.bundles = live();
// the live heap when the writing starts (validation done: GitOpsLayout._emitGroups writes the layout chart by chart)
const emitGroups = lib.GitOpsLayout._emitGroups;
lib.GitOpsLayout._emitGroups = function (...args) {
  out.writing = live();
  return emitGroups.apply(this, args);
};
const catalog = lib.CatalogSourceReference.fromName('curated-operators', 'olm');
const app = new lib.TenancyApp({ outdir, layout: lib.OutputLayout.GITOPS, quiet: true });
for (let i = 0; i < Number(tenantsArg); i++) {
  const t = new lib.ScopedOperatorTenant(new cdk8s.Chart(app, `tenant-${i}`), 'Tenant', { namespaceName: `team-${i}`, deriveInstallerRules: true });
  t.subscribe({ packageName: 'etcd', catalog, bundle: etcd });
  t.subscribe({ packageName: 'prometheus', catalog, bundle: prometheus });
}
out.built = live();
app.synth();
out.synthesized = live();
out.maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify(out)}\n`);
