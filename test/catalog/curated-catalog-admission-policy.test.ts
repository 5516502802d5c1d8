import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { appAndChart, FakeTenant, validationErrors } from './helpers';
import { CuratedCatalog, CuratedCatalogAdmissionPolicy, CuratedCatalogAdmissionPolicyProps } from '../../src/catalog';
import { OlmServiceAccount } from '../../src/catalog/curated-catalog-admission-policy';
import { SubscriptionConfigChecks, SubscriptionConfigOptIn } from '../../src/olm';
import { AdmissionPolicyValidation } from '../util/admission-validation';
import { admit as admitPolicy, AdmitOptions } from '../util/cel-admission';

function setup(policyProps: Partial<CuratedCatalogAdmissionPolicyProps> = {}) {
  const { app, chart } = appAndChart();
  const catalog = new CuratedCatalog(chart, 'Curated', {
    image: 'reg/curated:v1',
    secrets: ['pull'],
    packages: [{ name: 'etcd', channels: [{ name: 'stable' }, { name: 'alpha' }] }, { name: 'cert-manager' }],
    tenants: [new FakeTenant(chart, 'A', 'team-a')],
  });
  const policy = new CuratedCatalogAdmissionPolicy(chart, 'Enforce', { ...policyProps, catalog });
  catalog.serve(new FakeTenant(chart, 'B', 'team-b')); // served after the policy: rendered lazily
  const objs = Testing.synth(chart);
  return { app, policy, vap: objs.find((o) => o.kind === 'ValidatingAdmissionPolicy'), binding: objs.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding') };
}

const req = (kind: string, operation: string, username = 'alice') => ({
  kind: { group: 'operators.coreos.com', version: 'v1alpha1', kind },
  resource: { group: 'operators.coreos.com', version: 'v1alpha1', resource: `${kind.toLowerCase()}s` },
  operation,
  userInfo: { username },
});
/** `admit` with the request made in the object's namespace, for its name (as the API server's requests are). */
const admit = (spec: any, request: any, object: any, oldObject: any = null, options?: AdmitOptions) => {
  const meta = (object ?? oldObject).metadata;
  return admitPolicy(spec, { ...request, namespace: meta.namespace, name: meta.name }, object, oldObject, options);
};
const sub = (ns: string, spec: any) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 's', namespace: ns }, spec });
const cs = (ns: string, name: string, spec: any) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name, namespace: ns }, spec });
const CURATED_SPEC = { sourceType: 'grpc', image: 'reg/curated:v1', secrets: ['pull'], displayName: 'Curated Operators', grpcPodConfig: { securityContextConfig: 'restricted' } };

describe('CuratedCatalogAdmissionPolicy', () => {
  test('structure: matches Subscription/CatalogSource writes in the served namespaces, exempts OLM and spec-less updates', () => {
    const { vap, binding, app, policy } = setup();
    expect(policy.policyName).toEqual('curated-operators-curation');
    expect(binding).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'curated-operators-curation' },
      spec: { policyName: 'curated-operators-curation', validationActions: ['Deny'] },
    });
    expect(vap.apiVersion).toEqual('admissionregistration.k8s.io/v1');
    expect(vap.metadata).toEqual({ name: 'curated-operators-curation' });
    expect(vap.spec.failurePolicy).toEqual('Fail');
    expect(vap.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['subscriptions', 'catalogsources'] }],
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }] },
    });
    expect(vap.spec.matchConditions).toEqual([
      { name: 'not-olm', expression: `!(request.userInfo.username in ['${OlmServiceAccount.UPSTREAM}', '${OlmServiceAccount.OPENSHIFT}'])` },
      { name: 'spec-changed', expression: "request.operation != 'UPDATE' || object.spec != oldObject.spec" },
    ]);
    expect(vap.spec.variables).toEqual([{ name: 'packages', expression: "{'cert-manager': [], 'etcd': ['alpha', 'stable']}" }]);
    // source, package, channel, CatalogSource; then spec.config: volumes, envFrom, env, tolerations, nodeSelector, affinity
    expect(vap.spec.validations.map((v: any) => v.reason)).toEqual(Array(10).fill('Forbidden'));
    expect(validationErrors(app)).toEqual([]);
  });

  describe('evaluated with @bufbuild/cel', () => {
    const { vap } = setup();
    const spec = vap.spec;

    test.each([
      ['allowed package and channel', sub('team-a', { name: 'etcd', channel: 'stable', source: 'curated-operators', sourceNamespace: 'team-a' }), []],
      ['package that allows every channel, no channel', sub('team-b', { name: 'cert-manager', source: 'curated-operators', sourceNamespace: 'team-b' }), []],
      [
        'global catalog',
        sub('team-a', { name: 'etcd', channel: 'stable', source: 'community-operators', sourceNamespace: 'openshift-marketplace' }),
        ['Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not community-operators in openshift-marketplace'],
      ],
      [
        "another tenant's curated catalog",
        sub('team-a', { name: 'etcd', channel: 'stable', source: 'curated-operators', sourceNamespace: 'team-b' }),
        ['Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not curated-operators in team-b'],
      ],
      [
        'package outside the list',
        sub('team-a', { name: 'grafana-operator', channel: 'v5', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package grafana-operator is not in the curated catalog; allowed packages: cert-manager, etcd'],
      ],
      [
        'channel outside the list',
        sub('team-a', { name: 'etcd', channel: 'clusterwide-alpha', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package etcd must name one of its curated channels in spec.channel: alpha, stable'],
      ],
      [
        'no channel where channels are curated',
        sub('team-a', { name: 'etcd', source: 'curated-operators', sourceNamespace: 'team-a' }),
        ['package etcd must name one of its curated channels in spec.channel: alpha, stable'],
      ],
    ])('Subscription CREATE: %s', (_name, object, denied) => {
      expect(admit(spec, req('Subscription', 'CREATE'), object)).toEqual({ matched: true, denied });
    });

    const CS_DENIED = ['only the curated CatalogSource curated-operators (as the platform defines it) may exist in this namespace'];
    test.each([
      ['the curated one (the GitOps tool applying it)', cs('team-a', 'curated-operators', CURATED_SPEC), []],
      ['another catalog', cs('team-a', 'my-catalog', { sourceType: 'grpc', image: 'quay.io/me/catalog:latest' }), CS_DENIED],
      ['the curated name pointing elsewhere', cs('team-a', 'curated-operators', { ...CURATED_SPEC, image: 'quay.io/me/catalog:latest' }), CS_DENIED],
      ['the curated name as an address', cs('team-a', 'curated-operators', { sourceType: 'grpc', address: 'evil:50051', secrets: ['pull'] }), CS_DENIED],
      ['a configmap catalog', cs('team-a', 'curated-operators', { sourceType: 'configmap', configMap: 'x', secrets: ['pull'] }), CS_DENIED],
    ])('CatalogSource CREATE: %s', (_name, object, denied) => {
      expect(admit(spec, req('CatalogSource', 'CREATE'), object)).toEqual({ matched: true, denied });
    });

    test("OLM's own updates pass: its service account is not checked", () => {
      const bad = sub('team-a', { name: 'grafana-operator', source: 'x', sourceNamespace: 'y' });
      expect(admit(spec, req('Subscription', 'UPDATE', OlmServiceAccount.UPSTREAM), bad, bad)).toEqual({ matched: false, denied: [] });
      expect(admit(spec, req('Subscription', 'UPDATE', OlmServiceAccount.OPENSHIFT), bad, bad)).toEqual({ matched: false, denied: [] });
    });

    test('CatalogSource updates: OLM and metadata-only writes pass, re-pointing the image is rejected', () => {
      const curated = cs('team-a', 'curated-operators', CURATED_SPEC);
      const labelled = { ...curated, metadata: { ...curated.metadata, labels: { 'olm.catalogSource': 'curated-operators' } } };
      expect(admit(spec, req('CatalogSource', 'UPDATE', OlmServiceAccount.OPENSHIFT), labelled, curated)).toEqual({ matched: false, denied: [] });
      expect(admit(spec, req('CatalogSource', 'UPDATE'), labelled, curated)).toEqual({ matched: false, denied: [] });
      const repointed = { ...curated, spec: { ...CURATED_SPEC, image: 'quay.io/me/catalog:latest' } };
      expect(admit(spec, req('CatalogSource', 'UPDATE'), repointed, curated)).toEqual({ matched: true, denied: CS_DENIED });
    });

    test('label/annotation-only updates pass for anyone (spec unchanged), spec changes are checked', () => {
      const old = sub('team-a', { name: 'grafana-operator', source: 'x', sourceNamespace: 'y' }); // predates the policy
      const relabelled = { ...old, metadata: { ...old.metadata, labels: { 'operators.coreos.com/grafana-operator.team-a': '' } } };
      expect(admit(spec, req('Subscription', 'UPDATE'), relabelled, old)).toEqual({ matched: false, denied: [] });
      const respec = { ...old, spec: { ...old.spec, channel: 'v5' } };
      expect(admit(spec, req('Subscription', 'UPDATE'), respec, old)).toEqual({
        matched: true,
        denied: [
          'Subscriptions in this namespace must use the curated CatalogSource curated-operators in namespace team-a, not x in y',
          'package grafana-operator is not in the curated catalog; allowed packages: cert-manager, etcd',
        ],
      });
    });
  });

  test('a catalog that serves nothing is a synth error', () => {
    const { app, chart } = appAndChart();
    const catalog = new CuratedCatalog(chart, 'C', { image: 'i', packages: [{ name: 'x' }] });
    new CuratedCatalogAdmissionPolicy(chart, 'P', { catalog, policyName: 'Bad Name' });
    expect(validationErrors(app)).toEqual([
      expect.stringMatching(/^\[platform\/P\] policyName="Bad Name": .* \(InvalidName\)$/),
      '[platform/P] curated catalog platform/C serves no namespace, so the policy would match nothing. Fix: serve at least one tenant with the catalog (AdmissionPolicyMatchesNothing)',
    ]);
  });

  test('another curated catalog in a covered namespace is a synth error (its Subscriptions would be rejected)', () => {
    const { app, chart } = appAndChart();
    const t = new FakeTenant(chart, 'T', 'team-a');
    const one = new CuratedCatalog(chart, 'One', { image: 'i1', packages: [{ name: 'x' }], tenants: [t] });
    new CuratedCatalog(chart, 'Two', { image: 'i2', catalogName: 'two', packages: [{ name: 'y' }], tenants: [t] });
    new CuratedCatalogAdmissionPolicy(chart, 'P', { catalog: one });
    expect(validationErrors(app)).toEqual([
      '[platform/P] catalog: curated catalog platform/Two also serves team-a, and this policy would reject every Subscription to it there. Fix: serve each tenant namespace from one curated catalog when the admission policy is enabled (merge the lists) (AdmissionPolicyOverlap)',
    ]);
  });

  test('two policies with the same cluster-wide name are a synth error on each', () => {
    // GIVEN two catalogs that share a catalogName (fine: they serve different namespaces), each enforced
    const { app, chart } = appAndChart();
    const one = new CuratedCatalog(chart, 'One', { image: 'i1', packages: [{ name: 'x' }], tenants: [new FakeTenant(chart, 'A', 'team-a')] });
    const two = new CuratedCatalog(chart, 'Two', { image: 'i2', packages: [{ name: 'y' }], tenants: [new FakeTenant(chart, 'B', 'team-b')] });
    new CuratedCatalogAdmissionPolicy(chart, 'P1', { catalog: one });
    new CuratedCatalogAdmissionPolicy(chart, 'P2', { catalog: two });
    // THEN
    const fix = 'Fix: give each policy its own policyName (catalogs with the same catalogName need one) (DuplicateAdmissionPolicy)';
    expect(validationErrors(app)).toEqual([
      `[platform/P1] policyName="curated-operators-curation": another ValidatingAdmissionPolicy or binding in the App has this cluster-wide name (platform/P2/Binding, platform/P2/Policy). ${fix}`,
      `[platform/P2] policyName="curated-operators-curation": another ValidatingAdmissionPolicy or binding in the App has this cluster-wide name (platform/P1/Binding, platform/P1/Policy). ${fix}`,
    ]);
  });

  test('the allowed-package message is a literal (CEL map iteration order is not defined)', () => {
    const { vap } = setup();
    expect(vap.spec.validations[1].messageExpression).toEqual("'package ' + object.spec.name + ' is not in the curated catalog; allowed packages: ' + 'cert-manager, etcd'");
  });
});

// Issue 8, case 6b: a subscription manager could hand the operator's pods a hostPath, the installer's token Secret
// (secret volume, projected secret, envFrom, env secretKeyRef) or tolerations/nodeSelector/affinity for chosen
// nodes; OLM applies spec.config to the operator's Deployments. Before, all of these were admitted.
describe('CuratedCatalogAdmissionPolicy: Subscription spec.config (evaluated with @bufbuild/cel)', () => {
  const SPEC = { name: 'etcd', channel: 'stable', source: 'curated-operators', sourceNamespace: 'team-a' };
  const withConfig = (config: any) => sub('team-a', { ...SPEC, config });
  const VOLUMES = (rejected: string, secrets = 'none') =>
    `spec.config.volumes may only use configMap, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret volumes and the Secrets ${secrets}; rejected: ${rejected}`;
  const ENV_FROM = 'spec.config.envFrom may only reference the Secrets none';
  const ENV = 'spec.config.env may only reference the Secrets none';
  const TOLERATIONS = 'spec.config.tolerations is not allowed in this namespace (the platform places operators)';
  const NODE_SELECTOR = 'spec.config.nodeSelector is not allowed in this namespace (the platform places operators)';
  const AFFINITY = 'spec.config.affinity is not allowed in this namespace (the platform places operators)';
  const SAFE = {
    env: [{ name: 'LOG', value: 'debug' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    envFrom: [{ configMapRef: { name: 'settings' } }],
    resources: { limits: { memory: '256Mi' } },
    selector: { matchLabels: { app: 'etcd' } },
    annotations: { team: 'a' },
    volumes: [
      { name: 'cfg', configMap: { name: 'settings' } },
      { name: 'scratch', emptyDir: {} },
      { name: 'nosource' },
      { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'vault' } }, { configMap: { name: 'ca' } }] } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
    ],
    volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }],
  };
  const { vap } = setup();

  test.each([
    ['safe config (env values, configMaps, emptyDir, projected token, PVC, resources, selector, annotations)', SAFE, []],
    ['hostPath / ', { volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'host', hostPath: { path: '/' } }] }, [VOLUMES('host')]],
    ['nfs and csi volumes', { volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }, { name: 'c', csi: { driver: 'secrets-store.csi.k8s.io' } }] }, [VOLUMES('n, c')]],
    ["the installer's token Secret as a volume", { volumes: [{ name: 'tok', secret: { secretName: 'team-a' } }] }, [VOLUMES('tok')]],
    ['a projected Secret', { volumes: [{ name: 'p', projected: { sources: [{ configMap: { name: 'ca' } }, { secret: { name: 'team-a' } }] } }] }, [VOLUMES('p')]],
    ['envFrom a Secret', { envFrom: [{ configMapRef: { name: 'settings' } }, { secretRef: { name: 'team-a' } }] }, [ENV_FROM]],
    ['env from a Secret key', { env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'team-a', key: 'token' } } }] }, [ENV]],
    ['tolerations', { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] }, [TOLERATIONS]],
    ['nodeSelector', { nodeSelector: { 'node-role.kubernetes.io/control-plane': '' } }, [NODE_SELECTOR]],
    ['affinity', { affinity: { nodeAffinity: {} } }, [AFFINITY]],
    ['empty tolerations and nodeSelector', { tolerations: [], nodeSelector: {} }, []],
    [
      'everything at once',
      {
        volumes: [{ name: 'host', hostPath: { path: '/' } }],
        envFrom: [{ secretRef: { name: 'x' } }],
        env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }],
        tolerations: [{ operator: 'Exists' }],
        nodeSelector: { a: 'b' },
        affinity: {},
      },
      [VOLUMES('host'), ENV_FROM, ENV, TOLERATIONS, NODE_SELECTOR, AFFINITY],
    ],
  ])('Subscription CREATE with spec.config: %s', (_name, config, denied) => {
    expect(admit(vap.spec, req('Subscription', 'CREATE'), withConfig(config))).toEqual({ matched: true, denied });
    // the synth-time check agrees
    expect(SubscriptionConfigChecks.problems(config).length === 0).toBe((denied as string[]).length === 0);
  });

  test('opt-ins: allowed Secrets by name, other volume types and scheduling; other Secrets are still refused', () => {
    const { vap: opted } = setup({
      allowedSubscriptionConfig: [
        SubscriptionConfigOptIn.OTHER_VOLUME_TYPES, SubscriptionConfigOptIn.TOLERATIONS,
        SubscriptionConfigOptIn.NODE_SELECTOR, SubscriptionConfigOptIn.AFFINITY,
      ],
      allowedSubscriptionConfigSecrets: ['operator-tls', 'metrics-auth'],
    });
    expect(opted.spec.validations).toHaveLength(7);
    // every expression parses and the policy is a valid ValidatingAdmissionPolicy, with and without opt-ins
    expect(AdmissionPolicyValidation.problems(opted)).toEqual([]);
    expect(AdmissionPolicyValidation.problems(vap)).toEqual([]);
    const ok = {
      volumes: [{ name: 'tls', secret: { secretName: 'operator-tls' } }, { name: 'host', hostPath: { path: '/var/log' } }, { name: 'p', projected: { sources: [{ secret: { name: 'metrics-auth' } }] } }],
      envFrom: [{ secretRef: { name: 'metrics-auth' } }],
      env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'operator-tls', key: 'tls.key' } } }],
      tolerations: [{ key: 'infra', operator: 'Exists' }],
      nodeSelector: { role: 'infra' },
      affinity: { nodeAffinity: {} },
    };
    expect(admit(opted.spec, req('Subscription', 'CREATE'), withConfig(ok))).toEqual({ matched: true, denied: [] });
    const token = { volumes: [{ name: 'tok', secret: { secretName: 'team-a' } }], envFrom: [{ secretRef: { name: 'team-a' } }] };
    expect(admit(opted.spec, req('Subscription', 'CREATE'), withConfig(token))).toEqual({
      matched: true,
      denied: [
        'spec.config.volumes may only use volumes and the Secrets metrics-auth, operator-tls; rejected: tok',
        'spec.config.envFrom may only reference the Secrets metrics-auth, operator-tls',
      ],
    });
  });

  test('CatalogSources are not checked against spec.config rules', () => {
    expect(admit(vap.spec, req('CatalogSource', 'CREATE'), cs('team-a', 'curated-operators', CURATED_SPEC))).toEqual({ matched: true, denied: [] });
  });

  test('the volume types refused without opt-in are exactly the Subscription CRD volume sources minus the safe ones', () => {
    const crd = parseYaml(fs.readFileSync(path.join(__dirname, '..', '..', 'crds', 'olm', 'operators.coreos.com_subscriptions.yaml'), 'utf8'));
    const sources = Object.keys(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.config.properties.volumes.items.properties)
      .filter((k) => k !== 'name');
    expect([...SubscriptionConfigChecks.OTHER_VOLUME_TYPES, ...SubscriptionConfigChecks.SAFE_VOLUME_TYPES].sort()).toEqual(sources.sort());
  });

  test('property: the CEL and SubscriptionConfigChecks accept exactly the same configs, for every opt-in combination', () => {
    const volume = fc.constantFrom<any>(
      { name: 'a', configMap: { name: 'c' } }, { name: 'b', hostPath: { path: '/' } }, { name: 'c', secret: { secretName: 'team-a' } },
      { name: 'd', secret: { secretName: 'tls' } }, { name: 'e', projected: { sources: [{ secret: { name: 'tls' } }] } },
      { name: 'f', projected: { sources: [{ secret: { name: 'team-a' } }] } }, { name: 'g', csi: { driver: 'x' } }, { name: 'h' },
      { name: 'i', secret: {} },
    );
    const config = fc.record({
      volumes: fc.option(fc.array(volume, { maxLength: 3 }), { nil: undefined }),
      envFrom: fc.option(fc.array(fc.constantFrom<any>({ secretRef: { name: 'tls' } }, { secretRef: { name: 'team-a' } }, { configMapRef: { name: 'c' } }, { secretRef: {} }), { maxLength: 2 }), { nil: undefined }),
      env: fc.option(fc.array(fc.constantFrom<any>({ name: 'A', value: 'v' }, { name: 'B', valueFrom: { secretKeyRef: { name: 'team-a', key: 'k' } } }, { name: 'C', valueFrom: { secretKeyRef: { name: 'tls', key: 'k' } } }), { maxLength: 2 }), { nil: undefined }),
      tolerations: fc.option(fc.constantFrom<any>([], [{ operator: 'Exists' }]), { nil: undefined }),
      nodeSelector: fc.option(fc.constantFrom<any>({}, { a: 'b' }), { nil: undefined }),
      affinity: fc.option(fc.constant<any>({}), { nil: undefined }),
    }, { requiredKeys: [] });
    const allowances = [
      {},
      { allowedSecretNames: ['tls'] },
      { allowed: [SubscriptionConfigOptIn.OTHER_VOLUME_TYPES, SubscriptionConfigOptIn.TOLERATIONS], allowedSecretNames: ['tls'] },
      { allowed: [SubscriptionConfigOptIn.NODE_SELECTOR, SubscriptionConfigOptIn.AFFINITY] },
    ];
    const specs = allowances.map((a) => setup({
      allowedSubscriptionConfig: a.allowed,
      allowedSubscriptionConfigSecrets: a.allowedSecretNames,
    }).vap.spec);
    fc.assert(
      fc.property(config, fc.nat(allowances.length - 1), (cfg, i) => {
        const clean = JSON.parse(JSON.stringify(cfg));
        const celDenied = admit(specs[i], req('Subscription', 'CREATE'), withConfig(clean)).denied;
        const synth = SubscriptionConfigChecks.problems(clean, allowances[i]);
        return (celDenied.length === 0) === (synth.length === 0);
      }),
      { seed: 8, numRuns: 300 },
    );
  });
});
