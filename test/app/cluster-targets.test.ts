// TenancyAppProps.targets (docs/version-targets.md): one row of the table per test group, with the exact objects.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { Diagnostics, ManagedObjectsAdmissionPolicy, ScopedOperatorTenant, TenancyApp } from '../../src';
import { ClusterTargets } from '../../src/core/cluster-targets';
import { argocdTeam } from '../util/argocd-team';


function app(targets?: ClusterTargets, extra: object = {}): TenancyApp {
  return new TenancyApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'targets-')), quiet: true, ...extra, ...(targets ? { targets } : {}) });
}
const objectsOf = (a: TenancyApp) => a.synthObjects().flatMap((c) => c.objects);
const isTokenSecret = (o: any) => o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token';
/** The synth error messages of the App (cdk8s joins them into one Error). */
function synthError(a: TenancyApp): string {
  try {
    a.synthObjects();
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

function tenant(a: TenancyApp, props: object = {}): ScopedOperatorTenant {
  return new ScopedOperatorTenant(new Chart(a, 'tenant'), 'T', { namespaceName: 'team-a', ...props });
}

describe('defaults: the output of the seeds\' procedure, unchanged', () => {
  test('the example platform: no targets, an empty targets object and the explicit defaults give the same objects, with token Secrets', () => {
    const plain = app();
    buildPlatform(plain);
    const expected = objectsOf(plain);
    for (const targets of [{}, { kubernetesVersion: '1.30', olmVersion: '0.28.0' }, { kubernetesVersion: 'v1.30.4', olmVersion: 'v0.28.0' }]) {
      const a = app(targets);
      buildPlatform(a);
      expect(objectsOf(a)).toEqual(expected);
    }
    expect(expected.filter(isTokenSecret).length).toBeGreaterThan(0);
    expect(plain.targets).toEqual({});
  });
});

describe('OLM >= 0.29 (TokenRequest fallback, operator-lifecycle-manager pkg/lib/scoped/token_retriever.go, PR #3377)', () => {
  test('GIVEN the example platform with OLM 0.46.0 THEN its objects are the default ones without the token Secrets, and TENANCY.md says why', () => {
    const plain = app(undefined, { report: true });
    buildPlatform(plain);
    const current = app({ olmVersion: '0.46.0' }, { report: true });
    buildPlatform(current);
    const objects = objectsOf(current);
    expect(objects.filter(isTokenSecret)).toEqual([]);
    expect(objects).toEqual(objectsOf(plain).filter((o) => !isTokenSecret(o)));
    current.synth();
    const md = fs.readFileSync(path.join(current.outdir, TenancyApp.REPORT_FILE), 'utf8');
    const note = 'No token Secret: OLM 0.46.0 (>= 0.29.0), as declared in `TenancyAppProps.targets`, requests the installer\'s tokens with the TokenRequest API '
      + 'when the ServiceAccount has no token Secret (`pkg/lib/scoped/token_retriever.go`, OLM PR #3377), so a long-lived token '
      + 'Secret would be a credential nobody needs. The installer works the same; OLM gets short-lived tokens.';
    const tenants = current.node.findAll().filter((c) => c instanceof ScopedOperatorTenant).length;
    expect(md.split('\n').filter((l) => l === note).length).toEqual(tenants);
    // the default App's report has no such line
    plain.synth();
    expect(fs.readFileSync(path.join(plain.outdir, TenancyApp.REPORT_FILE), 'utf8').includes('No token Secret')).toEqual(false);
  });

  test('the boundary: 0.28.x writes the Secret, 0.29.0 does not; createTokenSecret: true keeps it; OpenShift 4.16 (openshift/operator-framework-olm#898) drops it, 4.15 keeps it', () => {
    const secrets = (targets: ClusterTargets, props: object = {}) => {
      const a = app(targets);
      tenant(a, props);
      return objectsOf(a).filter(isTokenSecret);
    };
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: { name: 'team-a', namespace: 'team-a', annotations: { 'kubernetes.io/service-account.name': 'team-a' } },
    };
    expect(secrets({ olmVersion: '0.28.9' })).toEqual([secret]);
    expect(secrets({ olmVersion: '0.29.0' })).toEqual([]);
    expect(secrets({ olmVersion: '0.46.0' }, { createTokenSecret: true })).toEqual([secret]);
    expect(secrets({ openshiftVersion: '4.16' })).toEqual([]);
    expect(secrets({ openshiftVersion: '4.15' })).toEqual([secret]);
  });

  test('GIVEN createTokenSecret: false and a declared OLM < 0.29 THEN a warning says every install fails; undeclared or >= 0.29: no warning', () => {
    const warningsOf = (targets: ClusterTargets | undefined) => {
      const a = app(targets);
      tenant(a, { createTokenSecret: false });
      a.synthObjects();
      return Diagnostics.warnings(a).filter((w) => w.code === 'InstallerTokenSecretNeeded').map((w) => [w.constructPath, w.field, w.value, w.message, w.fix]);
    };
    expect(warningsOf({ olmVersion: '0.28.0' })).toEqual([[
      'tenant/T', 'createTokenSecret', 'olmVersion 0.28.0',
      'OLM 0.28.0 (declared in TenancyAppProps.targets) reads the installer\'s token from a token Secret only (TokenRequest fallback since 0.29.0, OLM PR #3377): without one every install in \'team-a\' fails',
      'remove createTokenSecret: false, or declare the OLM the cluster runs (>= 0.29.0)',
    ]]);
    expect(warningsOf(undefined)).toEqual([]);
    expect(warningsOf({ olmVersion: '0.29.0' })).toEqual([]);
  });
});

describe('admission policies in the API version the declared Kubernetes serves', () => {
  const policyOf = (targets: ClusterTargets) => {
    const a = app(targets);
    new ManagedObjectsAdmissionPolicy(new Chart(a, 'platform'), 'Protect');
    return a;
  };
  const kinds = (a: TenancyApp) => objectsOf(a).map((o) => [o.apiVersion, o.kind, o.metadata.name]);

  test.each([
    ['1.37', 'admissionregistration.k8s.io/v1'],
    ['1.30', 'admissionregistration.k8s.io/v1'],
    ['1.29', 'admissionregistration.k8s.io/v1beta1'],
    ['1.28', 'admissionregistration.k8s.io/v1beta1'],
  ])('Kubernetes %s: %s', (kubernetesVersion, apiVersion) => {
    expect(kinds(policyOf({ kubernetesVersion }))).toEqual([
      [apiVersion, 'ValidatingAdmissionPolicy', ManagedObjectsAdmissionPolicy.DEFAULT_NAME],
      [apiVersion, 'ValidatingAdmissionPolicyBinding', ManagedObjectsAdmissionPolicy.DEFAULT_NAME],
    ]);
  });

  test('Kubernetes 1.28-1.29: a warning that the beta API and feature gate must be on; 1.30: none', () => {
    const warnings = (k: string) => {
      const a = policyOf({ kubernetesVersion: k });
      a.synthObjects();
      return Diagnostics.warnings(a).filter((w) => w.code === 'AdmissionPolicyBetaApi').map((w) => [w.field, w.value, w.fix]);
    };
    expect(warnings('1.29')).toEqual([['targets.kubernetesVersion', '1.29',
      'start the API server with --runtime-config=admissionregistration.k8s.io/v1beta1=true --feature-gates=ValidatingAdmissionPolicy=true, or upgrade to Kubernetes >= 1.30']]);
    expect(warnings('1.30')).toEqual([]);
  });

  test('Kubernetes 1.27 (OpenShift 4.14): none is served, a clear error naming the field, the value and the policy; without policies no error', () => {
    const expected = 'Kubernetes 1.27 serves no ValidatingAdmissionPolicy (beta, admissionregistration.k8s.io/v1beta1, from 1.28; v1 from 1.30), but the App writes one: platform/Protect/Policy';
    for (const targets of [{ kubernetesVersion: '1.27' }, { openshiftVersion: '4.14' }]) {
      const message = synthError(policyOf(targets));
      expect(message).toContain(expected);
      expect(message).toContain('targets.kubernetesVersion');
      expect(message).toContain('upgrade the cluster to Kubernetes >= 1.30');
      expect(message).toContain('(AdmissionPolicyNotServed)');
    }
    const a = app({ kubernetesVersion: '1.27' });
    tenant(a);
    expect(synthError(a)).toEqual('');
  });
});

describe('ClusterExtension spec.serviceAccount: only for operator-controller <= 1.10 (v1.11.0 ignores it; never {})', () => {
  function extension(targets: ClusterTargets | undefined) {
    // Argo CD's operator gets cluster-admin's reach (OLMT-026), which no acceptance lowers by default (issue 42,
    // test/audit/never-acceptable.test.ts): this platform takes it off the list to accept it
    const a = app(targets, { neverAcceptable: [] });
    argocdTeam(new Chart(a, 'platform'), { extension: { legacyServiceAccount: 'argocd-installer' } });
    const ext = objectsOf(a).find((o) => o.kind === 'ClusterExtension');
    return {
      spec: ext.spec,
      warnings: Diagnostics.warnings(a).filter((w) => w.code === 'LegacyServiceAccountIgnored').map((w) => [w.field, w.value, w.fix]),
      renderer: Diagnostics.warnings(a).filter((w) => w.code === 'RendererVersionNotModelled').map((w) => [w.field, w.value]),
    };
  }

  test('the preview renders as the declared operator-controller when it is modelled, and says so when it is not', () => {
    expect(extension({ operatorControllerVersion: '1.11.0' }).renderer).toEqual([]);
    expect(extension(undefined).renderer).toEqual([]);
    expect(extension({ operatorControllerVersion: '1.10.3' }).renderer).toEqual([['operatorControllerVersion', '1.10.3']]);
  });

  test('not declared and 1.10.0: spec.serviceAccount.name; 1.11.0: no serviceAccount key at all, and a warning', () => {
    expect(extension(undefined).spec.serviceAccount).toEqual({ name: 'argocd-installer' });
    expect(extension({ operatorControllerVersion: '1.10.3' })).toEqual({
      spec: expect.objectContaining({ serviceAccount: { name: 'argocd-installer' } }), warnings: [], renderer: [['operatorControllerVersion', '1.10.3']],
    });
    const current = extension({ operatorControllerVersion: '1.11.0' });
    expect(Object.keys(current.spec).sort()).toEqual(['namespace', 'source']);
    expect(current.warnings).toEqual([['extensions[gitops-argocd].legacyServiceAccount', 'argocd-installer',
      'drop legacyServiceAccount (the permission preview and guardrails are the fence), or declare the operator-controller the cluster runs (<= 1.10)']]);
  });
});

describe('validation: clear errors naming field, value and fix', () => {
  test.each([
    [{ kubernetesVersion: '1.x' }, "TenancyApp.targets.kubernetesVersion=\"1.x\": kubernetesVersion must be the Kubernetes minor version, got '1.x'", "write it as e.g. '1.30'"],
    [{ olmVersion: 'latest' }, "TenancyApp.targets.olmVersion=\"latest\": olmVersion must be the OLM v0 release (0.<minor>.<patch>), got 'latest'", "write it as e.g. '0.28.0'"],
    [{ operatorControllerVersion: '1.11' }, "operatorControllerVersion must be the operator-controller release (1.<minor>.<patch>) or 'main', got '1.11'", "write it as e.g. '1.10.0' (or 'main')"],
    [{ openshiftVersion: '4.16.3' }, "openshiftVersion must be the OpenShift minor version (4.<minor> or 5.<minor>), got '4.16.3'", "write it as e.g. '4.16'"],
    [{ openshiftVersion: '4.16', kubernetesVersion: '1.30' }, 'OpenShift 4.16 runs Kubernetes 1.29, not 1.30', "set kubernetesVersion to '1.29', or leave it out (it follows openshiftVersion)"],
    [{ olmVersion: 29 }, 'targets.olmVersion', "pass olmVersion as a string, e.g. '0.28.0'"],
    [{ kubeVersion: '1.30' }, 'kubeVersion', 'kubernetesVersion'],
  ])('%j', (targets, message, fix) => {
    const error = synthError(app(targets as any));
    expect(error).toContain(message);
    expect(error).toContain(fix);
  });
});
