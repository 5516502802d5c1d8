/**
 * `npm run synth:examples`: synthesizes the example platform into examples/out/.
 *
 * - examples/out/gitops/: the GitOps layout (what Argo CD or Flux applies, docs/gitops.md): `cluster/` and
 *   `tenants/<namespace>/` with a kustomization.yaml each, sync waves, `argocd/ignore-differences.yaml`, and who applies
 *   each folder: `flux/` (Flux Kustomizations, each tenant's as the tenant's ServiceAccount) and `argocd/apps/` (Argo CD
 *   AppProjects and Applications, an app-of-apps with sync impersonation);
 * - examples/out/catalogs/<catalog>/: the filtered file-based catalog and oc-mirror files for each curated
 *   catalog (inputs to build the curated image; never applied to the cluster);
 * - examples/out/gitops/TENANCY.md: the tenancy report (Mermaid diagram, subscriptions, permissions, upgrades, access);
 * - examples/out/WARNINGS.txt: every synth warning, sorted;
 * - examples/out/AUDIT.txt: the effective-power audit of every tenant (docs/audit.md): no tenant reaches another;
 * - examples/out/preflight-demo/: the docs' default Role failing with the complete list, and the fixed tenant;
 * - examples/out/README.md: what each of these is, and which folder a GitOps tool applies (gitops/ or olm-v1/);
 * - examples/out/olm-v1/: the same kind of platform on OLM v1 (examples/olm-v1-platform.ts, docs/olm-v1.md): curated
 *   ClusterCatalogs, two teams' ClusterExtensions and their admission guardrails, in the GitOps layout with TENANCY.md.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { buildOlmV1Platform } from './olm-v1-platform';
import { outReadme } from './out-readme';
import { buildPlatform } from './platform';
import { buildFailingTenant, buildFixedTenant } from './preflight-demo';
import { Diagnostics, OutputLayout, TenancyApp, TenancyAudit } from '../src';

// EXAMPLES_OUT: another output folder (test/examples/out-readme.test.ts writes to a temporary one)
const out = process.env.EXAMPLES_OUT ?? path.join(__dirname, 'out');
fs.rmSync(out, { recursive: true, force: true });

/** Every file below `dir`, sorted. */
function filesBelow(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? filesBelow(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

// 1. The platform, in the GitOps layout.
const gitops = path.join(out, 'gitops');
// Who applies what (docs/gitops.md): each tenant folder as the tenant's own ServiceAccount, with Flux (flux/) and with
// Argo CD (argocd/apps/: AppProjects and Applications, sync impersonation); only cluster/ as the platform's identity.
const REPOSITORY = 'https://git.example.com/platform/tenancy.git';
const app = new TenancyApp({
  outdir: gitops,
  layout: OutputLayout.GITOPS,
  syncWaves: true,
  report: true,
  flux: { path: './examples/out/gitops', url: REPOSITORY },
  argoCd: { repoUrl: REPOSITORY, path: 'examples/out/gitops' },
});
const platform = buildPlatform(app);
app.synth();
// One line per GitOps folder (the files are listed in its kustomization.yaml), then the other files.
const written: string[] = [];
const folders = new Map<string, number>();
for (const f of filesBelow(gitops)) {
  if (path.basename(f) === 'kustomization.yaml' && path.dirname(f) !== gitops) continue;
  const dir = path.dirname(f);
  if (dir === gitops || dir.endsWith(`${path.sep}argocd`) || dir.endsWith(`${path.sep}flux`)) written.push(f);
  else folders.set(dir, (folders.get(dir) ?? 0) + 1);
}
for (const [dir, n] of folders) written.push(`${dir}${path.sep} (${n} objects)`);

for (const catalog of platform.catalogs) {
  if (!catalog.sourceCatalog) continue;
  const dir = path.join(out, 'catalogs', catalog.catalogName);
  written.push(...catalog.writeArtifacts(dir, {
    imageSet: { sourceCatalogImage: 'registry.redhat.io/redhat/community-operator-index:v4.21', targetCatalog: `platform/${catalog.catalogName}` },
  }));
}

const warnings = Diagnostics.report(app);
fs.writeFileSync(path.join(out, 'WARNINGS.txt'), warnings ? `${warnings}\n` : '');
written.push(path.join(out, 'WARNINGS.txt'));
fs.writeFileSync(path.join(out, 'AUDIT.txt'), TenancyAudit.report(TenancyAudit.ofConstruct(app)));
written.push(path.join(out, 'AUDIT.txt'));

// 2. The preflight demo: the failing tenant's complete list, then the fixed tenant.
const demo = path.join(out, 'preflight-demo');
fs.mkdirSync(demo, { recursive: true });
let failure = 'unexpected: the failing tenant synthesized\n';
const failing = new App({ outdir: path.join(demo, 'failing') });
const failingTenant = buildFailingTenant(failing);
try {
  failing.synth();
} catch (e) {
  failure = `${(e as Error).message}\n`;
}
// one error per Subscription and problem; the structured result has every missing rule
const missingRules = failingTenant.preflight().reduce((n, r) => n + r.missing.length, 0);
const errorLines = failure.split('\n').filter((l) => l.startsWith('  [')).length;
fs.writeFileSync(path.join(demo, 'failing-tenant-errors.txt'), failure);
const fixed = new App({ outdir: path.join(demo, 'fixed') });
buildFixedTenant(fixed);
fixed.synth();
written.push(path.join(demo, 'failing-tenant-errors.txt'), ...fs.readdirSync(path.join(demo, 'fixed')).sort().map((f) => path.join(demo, 'fixed', f)));

// 3. The OLM v1 platform (cluster-admin installs: admission guardrails and the permission preview), GitOps layout.
const v1 = path.join(out, 'olm-v1');
const v1App = new TenancyApp({
  outdir: v1,
  layout: OutputLayout.GITOPS,
  syncWaves: true,
  report: true,
  flux: { path: './examples/out/olm-v1', url: REPOSITORY },
  argoCd: { repoUrl: REPOSITORY, path: 'examples/out/olm-v1' },
});
const v1Platform = buildOlmV1Platform(v1App);
v1App.synth();
written.push(`${v1}${path.sep} (${v1Platform.teams.length} OLM v1 teams, ${filesBelow(v1).length} files)`);

// 4. What each entry is, and which folder a GitOps tool applies (examples/out-readme.ts).
fs.writeFileSync(path.join(out, 'README.md'), outReadme());
written.push(path.join(out, 'README.md'));

const rel = (f: string) => path.relative(process.cwd(), f);
console.log(`Synthesized the example platform (${app.charts.length} charts, ${platform.tenants.length} tenants) into ${rel(out)}/:`);
for (const f of written) console.log(`  ${rel(f)}`);
console.log(`Warnings: ${warnings ? warnings.split('\n').length : 0} distinct finding(s) (see ${rel(path.join(out, 'WARNINGS.txt'))}).`);
console.log(`Preflight demo: the docs' default Role lacks ${missingRules} rules, reported at once in ${errorLines} error(s) in ${rel(path.join(demo, 'failing-tenant-errors.txt'))}; the derived Role synthesizes.`);
