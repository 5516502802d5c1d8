import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, OperatorBundle, PreflightEnforcement, ScopedOperatorTenant, TenantBaseline } from '../../src';
import { synthObjects } from '../util/synth';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(BUNDLES, name, version));
const CATALOG = CatalogSourceReference.fromName('curated-operators', 'olm');

describe('TenantBaseline', () => {
  test('GIVEN defaults THEN the exact quota, limit range and default-deny policies that let OLM work', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new TenantBaseline(chart, 'Baseline', { tenant });
    const objects = synthObjects(app).filter((o) => ['ResourceQuota', 'LimitRange', 'NetworkPolicy'].includes(o.kind));
    const tcp = (port: number) => ({ port, protocol: 'TCP' });
    expect(objects).toEqual([
      { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'tenant-baseline', namespace: 'team-a' }, spec: { hard: TenantBaseline.DEFAULT_QUOTA } },
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'tenant-baseline', namespace: 'team-a' },
        spec: { limits: [{ type: 'Container', default: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] },
      },
      { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'default-deny', namespace: 'team-a' }, spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] } },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-same-namespace', namespace: 'team-a' },
        spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'], ingress: [{ from: [{ podSelector: {} }] }], egress: [{ to: [{ podSelector: {} }] }] },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-dns', namespace: 'team-a' },
        spec: {
          podSelector: {},
          policyTypes: ['Egress'],
          egress: [{ ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }, { port: 5353, protocol: 'UDP' }, { port: 5353, protocol: 'TCP' }] }],
        },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-api-server', namespace: 'team-a' },
        spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{ ports: [tcp(443), tcp(6443)] }] },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-olm-catalog', namespace: 'team-a' },
        spec: {
          podSelector: { matchExpressions: [{ key: 'olm.catalogSource', operator: 'Exists' }] },
          policyTypes: ['Ingress'],
          ingress: [{
            from: [
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-operator-lifecycle-manager' } } },
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'olm' } } },
            ],
            ports: [tcp(50051)],
          }],
        },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-monitoring', namespace: 'team-a' },
        spec: {
          podSelector: {},
          policyTypes: ['Ingress'],
          ingress: [{
            from: [
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-monitoring' } } },
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-user-workload-monitoring' } } },
            ],
          }],
        },
      },
      // (changed with issue 15 item 11: no webhook policy without a webhook; the former `allow-operator-webhooks`
      // selected every pod)
    ]);
  });

  test('GIVEN subscriptions with webhooks added after the baseline THEN their Deployment\'s pods (OLM Service selector) are opened on their ports (lazy)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const baseline = new TenantBaseline(chart, 'Baseline', { tenant, networkPolicies: true });
    const rabbit = bundle('rabbitmq-cluster-operator', '2.22.3');
    // (its cluster rules are not granted here: the preflight only warns)
    tenant.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: rabbit, preflight: PreflightEnforcement.WARNING });
    // the rabbitmq CSV's two webhooks are served by one deployment on one port
    const webhook = rabbit.webhookDefinitions[0];
    const deployment = rabbit.deployments.find((d) => d.name === webhook.deploymentName)!;
    const port = webhook.targetPort ?? String(webhook.containerPort);
    expect(TenantBaseline.webhookPolicies([rabbit])).toEqual([{
      deploymentName: webhook.deploymentName, policyName: `allow-webhooks-${webhook.deploymentName}`, podLabels: deployment.spec.selector.matchLabels, ports: [port],
    }]);
    expect(baseline.networkPolicies.map((p) => p.name).slice(-1)).toEqual([`allow-webhooks-${webhook.deploymentName}`]);
    const policy = synthObjects(app).find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === `allow-webhooks-${webhook.deploymentName}`);
    expect(policy).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: `allow-webhooks-${webhook.deploymentName}`, namespace: 'team-a' },
      spec: {
        podSelector: { matchLabels: deployment.spec.selector.matchLabels },
        policyTypes: ['Ingress'],
        ingress: [{ ports: [{ port: /^[0-9]+$/.test(port) ? Number(port) : port, protocol: 'TCP' }] }],
      },
    });
  });

  test('GIVEN webhook definitions with and without targetPort THEN the pod port is targetPort, else containerPort (OLM webhook Service)', () => {
    const csv = (webhookdefinitions: any[]) => OperatorBundle.fromCsvObject({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'w.v1.0.0' },
      spec: {
        version: '1.0.0',
        installModes: [{ type: 'OwnNamespace', supported: true }],
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'd', spec: { selector: { matchLabels: { app: 'd' } }, template: { spec: { containers: [] } } } }] } },
        webhookdefinitions,
      },
    });
    const b = csv([
      { type: 'ValidatingAdmissionWebhook', generateName: 'a.example.com', deploymentName: 'd', containerPort: 443, targetPort: 9443, sideEffects: 'None', admissionReviewVersions: ['v1'] },
      { type: 'MutatingAdmissionWebhook', generateName: 'b.example.com', deploymentName: 'd', containerPort: 8443, sideEffects: 'None', admissionReviewVersions: ['v1'] },
    ]);
    expect(TenantBaseline.webhookPorts([b])).toEqual([{ deploymentName: 'd', port: '8443' }, { deploymentName: 'd', port: '9443' }]);
  });

  test('GIVEN networkPolicies: false and a bad quantity THEN no policies, and the quantity is a synth error', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    const baseline = new TenantBaseline(chart, 'Baseline', { tenant, networkPolicies: false, quota: { pods: 'lots' } });
    expect(baseline.networkPolicies).toEqual([]);
    expect(baseline.node.validate()).toEqual([
      'quota.pods="lots": not a Kubernetes quantity. Fix: write a quantity such as \'10\', \'500m\' or \'16Gi\' (InvalidQuantity)',
    ]);
  });
});
