/**
 * spec.config.inline.deploymentConfig (experimental gate DeploymentConfig): applier/provider.go
 * extractBundleConfigOptions passes it to the renderer (render.WithDeploymentConfig); the team's preview renders
 * with it, the guardrail admits it only when the team is allowed.
 */
import { ApiObject, Testing } from 'cdk8s';
import { admit, appAndChart, validationErrors, validator } from './helpers';
import { OlmV1CrdChannel, OlmV1TeamProps, RegistryV1Render } from '../../src/olmv1';
import { ARGOCD_BUNDLE as argocd, argocdTeam } from '../util/argocd-team';
import { acceptingEverything } from '../util/synth';

const CONFIG = { nodeSelector: { 'kubernetes.io/os': 'linux' }, env: [{ name: 'LOG_LEVEL', value: 'debug' }] };
const deploymentsOf = (r: RegistryV1Render) => r.objects.filter((o) => o.kind === 'Deployment');

function team(extra: Partial<OlmV1TeamProps> = {}, deploymentConfig: any = CONFIG) {
  const { app, chart } = appAndChart();
  acceptingEverything(app); // the extension accepts OLMT-026 (Argo CD gets cluster-admin), not the point here
  const t = argocdTeam(chart, { extension: { deploymentConfig }, team: extra });
  return { app, chart, team: t };
}

describe('RegistryV1Render.forExtension with a deploymentConfig', () => {
  test('renders the Deployments as registryv1.Renderer.Render with render.WithDeploymentConfig (checked against the regression fixtures)', () => {
    const got = RegistryV1Render.forExtension(argocd, { installNamespace: 'argocd', deploymentConfig: CONFIG, deploymentConfigSupport: true });
    expect(deploymentsOf(got)).toEqual(deploymentsOf(RegistryV1Render.render(argocd, 'argocd', { targetNamespaces: [''], certificateProvider: undefined, deploymentConfig: CONFIG })));
    const pod = deploymentsOf(got)[0].spec.template.spec;
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.containers.map((c: any) => c.env.find((e: any) => e.name === 'LOG_LEVEL'))).toEqual(pod.containers.map(() => ({ name: 'LOG_LEVEL', value: 'debug' })));
    // without a deploymentConfig the bundle's own pod spec
    expect(deploymentsOf(RegistryV1Render.forExtension(argocd, { installNamespace: 'argocd' }))[0].spec.template.spec.nodeSelector).toBeUndefined();
  });

  test('without the DeploymentConfig gate the configuration is refused (provider.go drops it from the config schema); the standard CRD prunes it', () => {
    expect(RegistryV1Render.refusal(argocd, { installNamespace: 'argocd', deploymentConfig: CONFIG, crdChannel: OlmV1CrdChannel.EXPERIMENTAL })).toEqual(
      'invalid ClusterExtension configuration: invalid configuration: unknown field "deploymentConfig"',
    );
    expect(RegistryV1Render.refusal(argocd, { installNamespace: 'argocd', deploymentConfig: CONFIG })).toEqual(
      'the standard ClusterExtension CRD has no spec.config, so a ClusterExtension asking for deploymentConfig: the API server prunes it and operator-controller '
      + 'renders the Deployments without it. Fix: declare the experimental CRDs (crdChannel: OlmV1CrdChannel.EXPERIMENTAL) if the cluster runs them, or drop spec.config',
    );
  });
});

describe('OlmV1Team: an extension with a deploymentConfig', () => {
  test('allowed: written as spec.config.inline.deploymentConfig, previewed with it, admitted by the team\'s policy', () => {
    const spy = jest.spyOn(RegistryV1Render, 'forExtension');
    try {
      const { app, chart, team: t } = team({ allowDeploymentConfig: true });
      expect(validationErrors(app)).toEqual([]);
      // every preview render of the extension's bundle carried the deploymentConfig
      const calls = spy.mock.calls.filter(([b]) => b === argocd);
      expect(calls.length).toBeGreaterThan(0);
      for (const [, options] of calls) expect(options).toEqual({ installNamespace: 'argocd', crdChannel: OlmV1CrdChannel.EXPERIMENTAL, deploymentConfig: CONFIG, deploymentConfigSupport: true });
      const objs = Testing.synth(chart);
      const ext = objs.find((o) => o.kind === 'ClusterExtension');
      expect(ext.spec.config).toEqual({ configType: 'Inline', inline: { deploymentConfig: CONFIG } });
      expect(t.reportMarkdown().split('\n').find((l) => l.startsWith('- **gitops-argocd**'))).toEqual(
        '- **gitops-argocd**: package `argocd-operator`, version `*`, namespace `argocd`, deploymentConfig (env, nodeSelector) rendered into its Deployments',
      );
      const vap = objs.find((o) => o.kind === 'ValidatingAdmissionPolicy');
      const request = { kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation: 'CREATE', userInfo: { username: 'bob', groups: ['gitops-admins'] } };
      expect(admit(vap.spec, request, ext)).toEqual({ matched: true, denied: [] });
      const withInline = (inline: any) => ({ ...ext, spec: { ...ext.spec, config: { configType: 'Inline', inline } } });
      expect(admit(vap.spec, request, withInline({ watchNamespace: 'argocd' })).denied).toEqual(['team gitops may only set spec.config.inline.deploymentConfig']);
      // spec.config is the experimental CRD's: the standard CRD (../shared/crds/olm-v1) has none, and everything else validates
      expect(validator.validateAll(objs)).toEqual(['ClusterExtension/gitops-argocd: spec.config is an unknown field']);
    } finally {
      spy.mockRestore();
    }
  });

  test('allowed with watchNamespace too: both keys admitted, watchNamespace only to a team namespace', () => {
    const { chart } = team({ allowDeploymentConfig: true, allowWatchNamespace: true, crdChannel: OlmV1CrdChannel.EXPERIMENTAL });
    const objs = Testing.synth(chart);
    const ext = objs.find((o) => o.kind === 'ClusterExtension');
    const vap = objs.find((o) => o.kind === 'ValidatingAdmissionPolicy');
    const request = { kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation: 'CREATE', userInfo: { username: 'bob', groups: ['gitops-admins'] } };
    const withInline = (inline: any) => ({ ...ext, spec: { ...ext.spec, config: { configType: 'Inline', inline } } });
    const msg = 'team gitops may only set spec.config.inline.watchNamespace, to one of argocd and spec.config.inline.deploymentConfig';
    expect(admit(vap.spec, request, withInline({ watchNamespace: 'argocd', deploymentConfig: CONFIG })).denied).toEqual([]);
    expect(admit(vap.spec, request, withInline({ deploymentConfig: CONFIG })).denied).toEqual([]);
    expect(admit(vap.spec, request, withInline({ watchNamespace: 'kube-system', deploymentConfig: CONFIG })).denied).toEqual([msg]);
    expect(admit(vap.spec, request, withInline({ deploymentConfig: CONFIG, other: 1 })).denied).toEqual([msg]);
  });

  test('not allowed: a synth error (the policy would deny it), and the policy denies it', () => {
    const { app, team: t } = team();
    expect(validationErrors(app)).toEqual([
      '[platform/T] extensions[gitops-argocd].deploymentConfig: team gitops may not set spec.config.inline.deploymentConfig: the admission policy would deny it. Fix: set allowDeploymentConfig: true on the team (the cluster needs the DeploymentConfig feature gate), or drop deploymentConfig (DeploymentConfigNotAllowed)',
    ]);
    const vap = (t.guardrails.node.findChild('Policy') as ApiObject).toJson();
    const ext = t.extensions['gitops-argocd'].toJson();
    const request = { kind: { group: 'olm.operatorframework.io', version: 'v1', kind: 'ClusterExtension' }, operation: 'CREATE', userInfo: { username: 'bob', groups: ['gitops-admins'] } };
    expect(admit(vap.spec, request, ext).denied).toEqual(['team gitops may not set spec.config']);
  });

  test('fields outside operator-controller\'s config schema are an error', () => {
    const { app } = team({ allowDeploymentConfig: true }, { nodeSelector: {}, serviceAccountName: 'cluster-admin-sa', hostNetwork: true });
    expect(validationErrors(app)).toEqual([
      '[platform/T] extensions[gitops-argocd].deploymentConfig="hostNetwork,serviceAccountName": deploymentConfig has unknown field(s) hostNetwork, serviceAccountName: operator-controller refuses the configuration. Fix: use only affinity, annotations, env, envFrom, nodeSelector, resources, tolerations, volumeMounts, volumes (InvalidDeploymentConfig)',
    ]);
  });
});
