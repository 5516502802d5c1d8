// A consumer's cdk8s app: the README quick start, against the installed package (not the repo's sources).
import { Chart } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import {
  AccessLevel, CuratedCatalog, InstallPlanApproval, OpenShiftOperatorHubPolicy, OperatorBundle, ScopedOperatorTenant, TenancyApp,
} from 'cdk8s-olm-tenancy';

const bundleDir = process.env.ETCD_BUNDLE_DIR;
if (!bundleDir) throw new Error('set ETCD_BUNDLE_DIR to an etcd 0.9.4 registry+v1 bundle directory');

const app = new TenancyApp({ outdir: 'dist' }); // prints the warnings and a one-line summary to stderr
const chart = new Chart(app, 'platform');
new OpenShiftOperatorHubPolicy(chart, 'DefaultCatalogs');
const catalog = new CuratedCatalog(chart, 'Curated', {
  image: 'registry.example.com/platform/curated-operators:v1',
  packages: [{ name: 'etcd', channels: [{ name: 'singlenamespace-alpha' }] }],
});
const team = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true });
team.subscribe({
  packageName: 'etcd',
  channel: 'singlenamespace-alpha',
  catalog,
  installPlanApproval: InstallPlanApproval.MANUAL,
  bundle: OperatorBundle.fromDirectory(bundleDir),
});
const admins = Group.fromName(chart, 'Admins', 'team-a-admins');
team.grantSubscriptionManagement(admins);
team.grantOperatorAccess(admins, AccessLevel.ADMIN);
app.synth();
console.log(`synthesized ${app.summary!.objects} objects of ${app.summary!.tenants} tenant(s) into dist/`);
