// main.ts of a fresh cdk8s project (README "Walkthrough"): two teams stamped from one blueprint, a GitOps tree in
// dist/ with TENANCY.md, etcd pinned with Manual approval and every allowed upgrade checked. To upgrade, change
// ETCD_PIN, synthesize again and commit: the pinned approver then approves exactly that InstallPlan.
import * as path from 'path';
import { Chart } from 'cdk8s';
import {
  AccessLevel, CuratedCatalog, CuratedCatalogAdmissionPolicy, OpenShiftOperatorHubPolicy, OperatorBundle, OutputLayout,
  TenancyApp, TenantBlueprint, UpgradeGraph,
} from '../src';

/** The etcd version the teams run: the pin is the upgrade lever. */
export const ETCD_PIN = 'etcdoperator.v0.9.2';

/** Synthesizes the platform into `outdir` from the bundle folders under `bundles` (`<package>/<version>/`). */
export function synthPlatform(outdir: string, bundles: string, etcdPin: string = ETCD_PIN): TenancyApp {
  // each team's folder is synced as the team's own ServiceAccount: argocd/apps/ (AppProjects, Applications)
  const app = new TenancyApp({
    outdir,
    layout: OutputLayout.GITOPS,
    syncWaves: true,
    report: true,
    argoCd: { repoUrl: 'https://git.example.com/platform/tenancy.git', path: 'dist' },
  });

  // Cluster policy: global catalogs off, one curated catalog, tenants may subscribe only from it.
  const platform = new Chart(app, 'platform');
  new OpenShiftOperatorHubPolicy(platform, 'DefaultCatalogs');
  const catalog = new CuratedCatalog(platform, 'Curated', {
    catalogName: 'curated-operators',
    image: 'registry.example.com/platform/curated-operators:v1',
    packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }], versionRange: '>=0.9.2 <0.10.0' }],
  });
  new CuratedCatalogAdmissionPolicy(platform, 'CuratedOnly', { catalog });

  // The organisation's standard tenant: etcd pinned, upgrades checked, admins approve, a baseline.
  const etcd = ['0.9.2', '0.9.4'].map((v) => OperatorBundle.fromDirectory(path.join(bundles, 'etcd', v)));
  const standard = new TenantBlueprint({
    name: 'standard',
    catalog,
    operators: [{
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      startingCsv: etcdPin,
      upgradeGraph: UpgradeGraph.fromBundles(etcd, 'singlenamespace-alpha'),
    }],
    grants: [{ groupName: '{team}-admins', access: AccessLevel.ADMIN, subscriptionManagement: true }],
    pinnedApprover: { image: 'registry.access.redhat.com/ubi9/nodejs-24-minimal:1' },
    baseline: {},
  });
  // each team's Subscription serves the curated catalog in its namespace (no serve() needed)
  for (const team of ['payments', 'search']) standard.stamp(new Chart(app, team), team);

  app.synth(); // fails, listing every problem of every tenant, before anything reaches the cluster
  return app;
}

if (require.main === module) synthPlatform('dist', process.env.BUNDLES ?? 'bundles');
