/**
 * Issue 40 item 6: `targets.openshiftVersion` maps to the operator-controller its release ships, from OpenShift's own
 * documentation per release (docs/version-targets.md): 4.x documents `ClusterExtension.spec.serviceAccount` as required
 * (the behaviour before operator-controller v1.11.0: it installs as that ServiceAccount), 5.0 as optional, deprecated and
 * ignored (v1.11.0: cluster-admin). The OLM v1 output (spec.serviceAccount, the guardrail) follows it. And the error of
 * the App's own props names the App, never an empty path `[]`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { ClusterTargets, Diagnostics, OutputLayout, SynthErrorFormat, TenancyApp } from '../../src';
import { OPENSHIFT_OPERATOR_CONTROLLER } from '../../src/core/cluster-targets';
import { constructPathOf } from '../../src/core/diagnostics';
import { OlmV1ExtensionOptions } from '../../src/olmv1';
import { admit } from '../olmv1/helpers';
import { argocdTeam } from '../util/argocd-team';

const newApp = (targets: ClusterTargets, extra: object = {}) =>
  new TenancyApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'ocp-')), quiet: true, targets, ...extra });

/** A team with one argocd extension (legacyServiceAccount when given) under `targets`. */
function team(targets: ClusterTargets, extension: Partial<OlmV1ExtensionOptions> = {}) {
  // the extension accepts OLMT-026 (Argo CD gets cluster-admin): a platform that takes it off neverAcceptable (issue 42)
  const app = newApp(targets, { neverAcceptable: [] });
  argocdTeam(new Chart(app, 'platform'), { extension });
  return app;
}

const errorsOf = (app: TenancyApp) => app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${constructPathOf(c)}] ${e}`));

describe('the table: one row per documented behaviour, each with its OpenShift source', () => {
  test('4.x requires spec.serviceAccount; 5.0 ignores it', () => {
    expect(OPENSHIFT_OPERATOR_CONTROLLER.map((r) => [r.since, r.behaviour, r.serviceAccount])).toEqual([
      ['4.14', 'before v1.11.0', 'required'],
      ['5.0', 'v1.11.0', 'ignored'],
    ]);
    expect(OPENSHIFT_OPERATOR_CONTROLLER.every((r) => r.source.startsWith('OpenShift '))).toBe(true);
  });
});

describe('OpenShift 4.x: spec.serviceAccount is required (ServiceAccountRequired)', () => {
  test('an extension without legacyServiceAccount on OpenShift 4.21 is one error naming the release and what to set', () => {
    expect(errorsOf(team({ openshiftVersion: '4.21' }))).toEqual([
      "[platform/T] extensions[gitops-argocd].legacyServiceAccount: OpenShift 4.21's operator-controller (the behaviour before v1.11.0: "
      + `${OPENSHIFT_OPERATOR_CONTROLLER[0].source}) requires ClusterExtension.spec.serviceAccount and installs as that ServiceAccount: without it the API `
      + "server refuses the ClusterExtension. Fix: set legacyServiceAccount: 'argocd-operator-installer' on the extension (the library writes that "
      + 'ServiceAccount with the least-privilege RBAC derived from the bundles and lets the guardrail admit only it), or declare the operator-controller the '
      + 'cluster runs (ServiceAccountRequired)',
    ]);
    // a declared operator-controller before v1.11.0 requires it too; v1.11.0 and main do not
    expect(errorsOf(team({ operatorControllerVersion: '1.10.3' })).map((e) => /\((\w+)\)$/.exec(e)![1])).toEqual(['ServiceAccountRequired']);
    expect(errorsOf(team({ operatorControllerVersion: '1.11.0' }))).toEqual([]);
    expect(errorsOf(team({ openshiftVersion: '4.21', operatorControllerVersion: '1.11.0' }))).toEqual([]);
  });

  test('with legacyServiceAccount: spec.serviceAccount is written and the guardrail admits only that account (evaluated with @bufbuild/cel)', () => {
    const app = team({ openshiftVersion: '4.21' }, { legacyServiceAccount: 'argocd-installer' });
    expect(errorsOf(app)).toEqual([]);
    const objects = app.synthObjects().flatMap((c) => c.objects);
    const ext = objects.find((o) => o.kind === 'ClusterExtension');
    expect(ext.spec.serviceAccount).toEqual({ name: 'argocd-installer' });
    const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'olmv1-team-gitops').spec;
    const request = { operation: 'CREATE', userInfo: { username: 'alice', groups: ['gitops-admins'] } };
    expect(admit(policy, request, ext).denied).toEqual([]);
    const other = { ...ext, spec: { ...ext.spec, serviceAccount: { name: 'default' } } };
    expect(admit(policy, request, other).denied).toEqual(['team gitops may only set spec.serviceAccount.name to argocd-installer']);
  });
});

describe('OpenShift 5.0: spec.serviceAccount is ignored (v1.11.0), never written', () => {
  test('no spec.serviceAccount, and a legacy account is a warning naming OpenShift 5.0', () => {
    const app = team({ openshiftVersion: '5.0', kubernetesVersion: '1.36' }, { legacyServiceAccount: 'argocd-installer' });
    expect(errorsOf(app)).toEqual([]);
    expect(Object.keys(app.synthObjects().flatMap((c) => c.objects).find((o) => o.kind === 'ClusterExtension').spec).sort()).toEqual(['namespace', 'source']);
    expect(Diagnostics.warnings(app).filter((w) => w.code === 'LegacyServiceAccountIgnored').map((w) => w.message)).toEqual([
      "OpenShift 5.0's operator-controller (declared in TenancyAppProps.targets) ignores spec.serviceAccount (since v1.11.0) and installs as cluster-admin: "
      + 'the ClusterExtension is written without it',
    ]);
  });

  test("OpenShift 5.x's Kubernetes is not modelled: it must be declared", () => {
    expect(errorsOf(newApp({ openshiftVersion: '5.0' }))).toEqual([
      '[TenancyApp] TenancyApp.targets.openshiftVersion="5.0": the Kubernetes release OpenShift 5.0 runs is not modelled (4.x runs 1.(x+13)), so the '
      + "admission policies' API version cannot be chosen. Fix: declare it beside openshiftVersion: kubernetesVersion: '1.<minor>' (as 'oc version' prints it) "
      + '(InvalidInputValue)',
    ]);
  });
});

describe("docs/version-targets.md's first block with openshiftVersion '4.21' uncommented: the error names the App", () => {
  test('readable form: [TenancyApp], not []', () => {
    const app = newApp({ kubernetesVersion: '1.37', olmVersion: '0.46.0', operatorControllerVersion: '1.11.0', openshiftVersion: '4.21' },
      { layout: OutputLayout.GITOPS, report: true, errorFormat: SynthErrorFormat.READABLE });
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    // (the first line keeps the field and its bad value, issue 41)
    expect(message.split('\n').slice(2, 4)).toEqual([
      '[TenancyApp] InvalidInputValue: TenancyApp.targets.kubernetesVersion="1.37": OpenShift 4.21 runs Kubernetes 1.34, not 1.37',
      "    Fix: set kubernetesVersion to '1.34', or leave it out (it follows openshiftVersion)",
    ]);
  });
});
