// Puts a "Start here" section at the top of the generated API.md (jsii-docgen lists constructs alphabetically):
// the constructs a platform team starts from, each linked to its entry. Run by the docgen task after jsii-docgen.
const fs = require('fs');
const path = require('path');

const START_HERE = [
  ['TenancyApp', 'the App: one synth pass, warnings, TENANCY.md and the GitOps layout'],
  ['ScopedOperatorTenant', 'one tenant namespace where a non-cluster-admin installs operators with OLM v0'],
  ['CuratedCatalog', 'the curated CatalogSource tenants subscribe from, global catalogs off'],
  ['GlobalOperatorInstall', 'operators the platform installs itself for all namespaces, shown first in TENANCY.md'],
  ['TenantBlueprint', "an organisation's standard tenant, stamped per team"],
  ['TenantBaseline', 'quota, limits and network policies that let OLM work'],
  ['OperatorSubscription', 'one Subscription (usually made by `ScopedOperatorTenant.subscribe`)'],
  ['PinnedInstallPlanApprover', 'GitOps approval of pinned InstallPlans'],
  ['OlmV1Team', 'OLM v1: a team\'s ClusterExtensions with installer RBAC and guardrails'],
  ['CuratedClusterCatalog', 'OLM v1: a curated ClusterCatalog'],
];
const MARK = '<!-- start-here -->';

const file = process.argv[2] ?? path.join(__dirname, '..', 'API.md');
let text = fs.readFileSync(file, 'utf8');
const present = START_HERE.filter(([name]) => text.includes(`id="cdk8s-olm-tenancy.${name}"`));
const section = [
  MARK,
  '## Start here',
  '',
  'The constructs a platform team starts from; everything below is listed alphabetically by kind.',
  '',
  ...present.map(([name, what]) => `- [\`${name}\`](#cdk8s-olm-tenancy.${name}): ${what}`),
  '',
  MARK,
].join('\n');
const old = text.indexOf(MARK);
if (old >= 0) {
  // run twice (docgen without a fresh API.md): replace the earlier section
  text = text.slice(0, old) + section + text.slice(text.indexOf(MARK, old + MARK.length) + MARK.length);
} else {
  const heading = text.indexOf('\n');
  text = `${text.slice(0, heading + 1)}\n${section}\n${text.slice(heading + 1)}`;
}
fs.writeFileSync(file, text);
console.log(`API.md: start here lists ${present.length} constructs`);
