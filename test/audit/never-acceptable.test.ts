/**
 * Issue 42: a platform-level list of policy ids that no acceptance lowers (`TenancyAppProps.neverAcceptable`,
 * default ['OLMT-026']: a tenant identity with cluster-admin's reach ends tenancy, docs/audit.md "Never acceptable").
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { case1, CATALOG, ETCD } from './leaky-cases';
import { Diagnostics, PolicySeverity, ReachCode, ScopedOperatorTenant, TenancyApp } from '../../src';
import { argocdTeam } from '../util/argocd-team';
import { synthErrorLines } from '../util/synth';

const tenancyApp = (neverAcceptable?: string[]) =>
  new TenancyApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'never-')), quiet: true, ...(neverAcceptable !== undefined ? { neverAcceptable } : {}) });
const codeOf = (line: string) => /\((\w+)(?:, OLMT-\d+)?\)$/.exec(line)![1];

describe('TenancyAppProps.neverAcceptable', () => {
  test('GIVEN the default THEN an acceptedReach of OLMT-026 (cluster-admin reach) fails the synth, naming the prop, the list and the fix', () => {
    const { app } = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason: 'lab cluster' }], tenancyApp());
    const errors = synthErrorLines(app);
    expect(errors.map(codeOf)).toEqual(['AcceptanceNotAllowed', 'AcceptanceNotAllowed']);
    expect(errors[0]).toEqual('[platform/TeamA] acceptedReach="OLMT-026": ServiceAccount team-a/team-a reaches cluster-wide (gets it indirectly): '
      + 'Namespace:"" APIGroups:[*] Resources:[*] Verbs:[*]; Namespace:"" Verbs:[*] NonResourceURLs:[*]; path: ServiceAccount team-a/team-a -> ClusterRoleBinding '
      + 'team-a-olm-installer (App) -> ClusterRole team-a-olm-installer (App) -> bind ClusterRole cluster-admin with create clusterrolebindings (ClusterRole '
      + 'team-a-olm-installer) cluster-wide -> ClusterRole cluster-admin (built-in, kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go); '
      + 'acceptedReach accepts it (reason: lab cluster), but '
      + 'TenancyAppProps.neverAcceptable lists OLMT-026 (TenantIdentityUnbounded): no acceptance lowers it. Fix: remove what gives the reach (a step of the path '
      + "above), or have the platform take 'OLMT-026' off TenancyAppProps.neverAcceptable (AcceptanceNotAllowed)");
    expect(Diagnostics.warnings(app).filter((w) => w.acceptedBy !== undefined)).toEqual([]);
  });

  test('GIVEN a plain cdk8s App THEN the same default holds', () => {
    const { app } = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason: 'lab cluster' }], new App());
    expect(synthErrorLines(app).map(codeOf)).toEqual(['AcceptanceNotAllowed', 'AcceptanceNotAllowed']);
  });

  test('GIVEN neverAcceptable: [] (the platform\'s visible decision) THEN the acceptance counts again: accepted findings, no error', () => {
    const { app } = case1([{ code: ReachCode.TENANT_IDENTITY_UNBOUNDED, reason: 'lab cluster' }], tenancyApp([]));
    expect(synthErrorLines(app)).toEqual([]);
    expect(Diagnostics.warnings(app).map((w) => [w.code, w.acceptedBy])).toEqual([
      [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'acceptedReach'], [ReachCode.TENANT_IDENTITY_UNBOUNDED, 'acceptedReach'],
    ]);
  });

  test('GIVEN a relaxable check on the list THEN lowering it with policyChecks is an error and the finding keeps its severity', () => {
    const app = tenancyApp(['OLMT-016']);
    const tenant = new ScopedOperatorTenant(new Chart(app, 'platform'), 'TeamA', {
      namespaceName: 'team-a', deriveInstallerRules: true, policyChecks: { 'OLMT-016': PolicySeverity.OFF },
    });
    tenant.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(synthErrorLines(app)).toEqual([
      '[platform/TeamA] policyChecks[OLMT-016]="OFF": policyChecks lowers OLMT-016 (CrdsCreatedByOlm) to OFF, but TenancyAppProps.neverAcceptable lists OLMT-016: no acceptance lowers it. '
      + "Fix: remove 'OLMT-016' from policyChecks, or have the platform take 'OLMT-016' off TenancyAppProps.neverAcceptable (AcceptanceNotAllowed)",
    ]);
    expect(Diagnostics.warnings(app).map((w) => w.code)).toContain('CrdsCreatedByOlm');
  });

  test('GIVEN an id that is not a policy check THEN a synth error naming it', () => {
    const app = tenancyApp(['OLMT-999', 'OLMT-026']);
    expect(synthErrorLines(app)).toEqual([
      "[TenancyApp] TenancyApp.neverAcceptable[0]=\"OLMT-999\": 'OLMT-999' is not a policy check id. Fix: use ids of PolicyChecks.all(), e.g. 'OLMT-026' (UnknownPolicyCheck)",
    ]);
  });

  test('GIVEN an OLM v1 team accepting OLMT-026 for its extension (Argo CD gets cluster-admin) THEN the default refuses it, each finding once, and nothing is accepted', () => {
    const build = (a: TenancyApp) => {
      argocdTeam(new Chart(a, 'platform'));
      return a;
    };
    const refused = build(tenancyApp());
    const errors = synthErrorLines(refused);
    expect(errors.map((e) => /="([^"]+)"/.exec(e)![1])).toEqual(['ServiceAccount argocd/argocd-operator-controller-manager']);
    expect(errors.map(codeOf)).toEqual(errors.map(() => 'AcceptanceNotAllowed'));
    for (const e of errors) expect(e).toMatch(/^\[platform\/T\] extensions\[gitops-argocd\]\.bundles\[argocd-operator\.v0\.6\.0\]="[^"]+": .*; extensions\[gitops-argocd\]\.acceptedRisks accepts it \(reason: argo cd manages the cluster\), but TenancyAppProps\.neverAcceptable lists OLMT-026 \(TenantIdentityUnbounded\): no acceptance lowers it\. Fix: pick another package or version, or have the platform take 'OLMT-026' off TenancyAppProps\.neverAcceptable \(AcceptanceNotAllowed\)$/);
    expect(Diagnostics.acceptedRisks(refused)).toEqual([]);
    // lifted by the platform: accepted, and a row of Accepted risks
    const lifted = build(tenancyApp([]));
    expect(synthErrorLines(lifted)).toEqual([]);
    expect(Diagnostics.acceptedRisks(lifted).map((r) => [r.constructPath, r.acceptedBy, r.policyId, r.reason])).toEqual([
      ['platform/T', 'extensions[gitops-argocd].acceptedRisks', 'OLMT-026', 'argo cd manages the cluster'],
    ]);
  });
});
