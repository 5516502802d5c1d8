import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { run } from '@bufbuild/cel';
import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { appAndChart, validationErrors } from './helpers';
import { UpstreamOlmCatalogPolicy } from '../../src/catalog';

// The default catalog as OLM ships it (test/fixtures/catalogs/operator-lifecycle-manager/.../0000_50_olm_17-upstream-operators.catalogsource.yaml)
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'catalogs', 'operator-lifecycle-manager/deploy/upstream/manifests/0.18.3/0000_50_olm_17-upstream-operators.catalogsource.yaml');

describe('UpstreamOlmCatalogPolicy', () => {
  test('by default it targets the CatalogSource OLM installs, and emits nothing into the chart', () => {
    const shipped = parseAllDocuments(fs.readFileSync(FIXTURE, 'utf-8')).map((d) => d.toJS()).find((d) => d && d.kind === 'CatalogSource');
    const { app, chart } = appAndChart();
    const policy = new UpstreamOlmCatalogPolicy(chart, 'Defaults');
    expect(policy.disabledSources).toEqual([{ name: shipped.metadata.name, namespace: shipped.metadata.namespace }]);
    expect(Testing.synth(chart)).toEqual([]);
    expect(validationErrors(app)).toEqual([]);
  });

  test('artifacts: a kustomize delete patch and kubectl commands', () => {
    const { chart } = appAndChart();
    const policy = new UpstreamOlmCatalogPolicy(chart, 'Defaults', { disabledSources: [{ name: 'z-cat', namespace: 'olm' }, { name: 'operatorhubio-catalog', namespace: 'olm' }] });
    const files = policy.artifacts();
    expect(Object.keys(files)).toEqual(['disable-default-catalogs.patch.yaml', 'disable-default-catalogs.sh']);
    expect(parseAllDocuments(files['disable-default-catalogs.patch.yaml']).map((d) => d.toJS())).toEqual([
      { $patch: 'delete', apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'operatorhubio-catalog', namespace: 'olm' } },
      { $patch: 'delete', apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'z-cat', namespace: 'olm' } },
    ]);
    expect(files['disable-default-catalogs.sh']).toEqual(
      [
        '#!/bin/sh',
        '# Removes the default global catalogs of upstream OLM (no OLM API can disable them).',
        'set -eu',
        'kubectl delete catalogsource.operators.coreos.com operatorhubio-catalog --namespace olm --ignore-not-found',
        'kubectl delete catalogsource.operators.coreos.com z-cat --namespace olm --ignore-not-found',
        '',
      ].join('\n'),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-'));
    expect(policy.writeArtifacts(dir).map((f) => path.basename(f))).toEqual(['disable-default-catalogs.patch.yaml', 'disable-default-catalogs.sh']);
    fs.rmSync(dir, { recursive: true });
  });

  test('denyRecreation: a ValidatingAdmissionPolicy that rejects the default catalog coming back', () => {
    const { chart } = appAndChart();
    new UpstreamOlmCatalogPolicy(chart, 'Defaults', { denyRecreation: true });
    const [vap, binding] = Testing.synth(chart);
    expect(binding).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'deny-default-catalog-sources' },
      spec: { policyName: 'deny-default-catalog-sources', validationActions: ['Deny'] },
    });
    expect(vap.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['catalogsources'] }],
    });
    const expr = vap.spec.validations[0].expression;
    const obj = (ns: string, name: string) => ({ object: new Map([['metadata', new Map([['namespace', ns], ['name', name]])]]) });
    expect(run(expr, obj('olm', 'operatorhubio-catalog'))).toBe(false);
    expect(run(expr, obj('team-a', 'operatorhubio-catalog'))).toBe(true);
    expect(run(expr, obj('olm', 'curated'))).toBe(true);
  });

  test('an empty list is an error', () => {
    const { app, chart } = appAndChart();
    new UpstreamOlmCatalogPolicy(chart, 'Defaults', { disabledSources: [] });
    expect(validationErrors(app)).toEqual(['[platform/Defaults] disabledSources: no CatalogSource to disable. Fix: omit disabledSources for the OLM default (DefaultCatalogPolicyEmpty)']);
  });

  test('names Kubernetes would reject are errors, and no script is written from them', () => {
    // GIVEN a name that would also inject a shell command into disable-default-catalogs.sh
    const { app, chart } = appAndChart();
    const policy = new UpstreamOlmCatalogPolicy(chart, 'Defaults', { disabledSources: [{ name: 'x; rm -rf /', namespace: 'OLM' }] });
    // THEN
    expect(validationErrors(app)).toEqual([
      expect.stringMatching(/^\[platform\/Defaults\] disabledSources\.name="x; rm -rf \/": CatalogSource name .*\. Fix: use the metadata\.name of the CatalogSource \(InvalidName\)$/),
      expect.stringMatching(/^\[platform\/Defaults\] disabledSources\.namespace="OLM": namespace .*\. Fix: use the metadata\.namespace of the CatalogSource \(InvalidName\)$/),
    ]);
    expect(() => policy.artifacts()).toThrow(/^platform\/Defaults: cannot write the artifacts: disabledSources\.name="x; rm -rf \/": /);
  });
});
