// The floor: raw cdk8s, the same 8 objects per tenant as the library's app (read from a template of one tenant,
// `team-0` renamed per tenant) as `ApiObject`s in ONE chart, `App.synth()` (one file, through cdk8s's `yaml`).
// usage: node raw-app.js <template.json> <tenants> <outdir>
'use strict';
const t0 = process.hrtime.bigint();
const fs = require('fs');
const [templateFile, tenantsArg, outdir] = process.argv.slice(2);
const cdk8s = require('cdk8s');
const tLoad = process.hrtime.bigint();

const template = fs.readFileSync(templateFile, 'utf-8');
const app = new cdk8s.App({ outdir });
const chart = new cdk8s.Chart(app, 'tenants');
const tenants = Number(tenantsArg);
let objects = 0;
for (let i = 0; i < tenants; i++) {
  JSON.parse(template.replace(/team-0/g, `team-${i}`)).forEach((doc, j) => {
    new cdk8s.ApiObject(chart, `t${i}-${j}`, doc);
    objects++;
  });
}
const tBuild = process.hrtime.bigint();
app.synth();
const tSynth = process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stdout.write(`${JSON.stringify({
    loadMs: ms(t0, tLoad), buildMs: ms(tLoad, tBuild), synthMs: ms(tBuild, tSynth), objects,
    userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssMb: u.maxRSS / 1024,
  })}\n`);
});
