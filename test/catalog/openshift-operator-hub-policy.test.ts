import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { crdValidator } from './crd-schema';
import { appAndChart, validationErrors } from './helpers';
import { TenancyApp } from '../../src/app';
import { OpenShiftDefaultSource, OpenShiftOperatorHubPolicy, UpstreamOlmCatalogPolicy } from '../../src/catalog';
import { Diagnostics } from '../../src/core/diagnostics';

const validateOperatorHub = crdValidator('crds/openshift/0000_03_marketplace_01_operatorhubs.crd.yaml', 'v1');

describe('OpenShiftOperatorHubPolicy', () => {
  test('default: disable all default sources', () => {
    const { app, chart } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart, 'Hub');
    const objs = Testing.synth(chart);
    expect(objs).toEqual([{ apiVersion: 'config.openshift.io/v1', kind: 'OperatorHub', metadata: { name: 'cluster' }, spec: { disableAllDefaultSources: true } }]);
    expect(validateOperatorHub(objs[0])).toEqual([]);
    expect(validationErrors(app)).toEqual([]);
  });

  test('disable all but keep the source the platform operators came from', () => {
    const { chart } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart, 'Hub', { keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS] });
    const objs = Testing.synth(chart);
    expect(objs[0].spec).toEqual({ disableAllDefaultSources: true, sources: [{ name: 'redhat-operators', disabled: false }] });
    expect(validateOperatorHub(objs[0])).toEqual([]);
  });

  test('selective policy: sources[] {name, disabled}, sorted', () => {
    const { app, chart } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart, 'Hub', {
      disableAllDefaultSources: false,
      disable: [OpenShiftDefaultSource.REDHAT_MARKETPLACE, OpenShiftDefaultSource.COMMUNITY_OPERATORS],
      keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS],
    });
    const objs = Testing.synth(chart);
    expect(objs[0].spec).toEqual({
      sources: [
        { name: 'community-operators', disabled: true },
        { name: 'redhat-marketplace', disabled: true },
        { name: 'redhat-operators', disabled: false },
      ],
    });
    expect(validateOperatorHub(objs[0])).toEqual([]);
    expect(Diagnostics.warnings(app)).toEqual([]);
  });

  test('the CRD check is meaningful', () => {
    expect(validateOperatorHub({ apiVersion: 'config.openshift.io/v1', kind: 'OperatorHub', metadata: {}, spec: { sources: [{ name: '', disabled: 'yes' }] } })).toEqual([
      '/spec/sources/0/disabled must be boolean',
      '/spec/sources/0/name must NOT have fewer than 1 characters',
    ]);
  });

  test('two owners of the default-catalog policy are a synth error on each', () => {
    const { app, chart } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart, 'Hub');
    new UpstreamOlmCatalogPolicy(chart, 'Upstream');
    new ApiObject(chart, 'Raw', { apiVersion: 'config.openshift.io/v1', kind: 'OperatorHub', metadata: { name: 'cluster' } });
    expect(validationErrors(app)).toEqual([
      '[platform/Hub] only one construct may own the default-catalog policy (the OperatorHub "cluster" singleton); also defined by platform/Upstream, platform/Raw. Fix: keep a single OpenShiftOperatorHubPolicy per App and express every exception in it (DefaultCatalogPolicyConflict)',
      '[platform/Upstream] only one construct may own the default-catalog policy; also defined by platform/Hub, platform/Raw. Fix: keep a single default-catalog policy per App (DefaultCatalogPolicyConflict)',
    ]);
  });

  test('contradictions are errors; unknown names and a policy that disables nothing are warnings', () => {
    const { app, chart } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart, 'Hub', { disableAllDefaultSources: false, keepEnabled: ['redhat-operators', 'my-catalog'], disable: ['redhat-operators'] });
    expect(validationErrors(app)).toEqual([
      '[platform/Hub] disable="redhat-operators": source "redhat-operators" is both kept enabled and disabled. Fix: remove it from one of keepEnabled and disable (DefaultSourceConflict)',
    ]);
    const { app: app2, chart: chart2 } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart2, 'Hub', { disableAllDefaultSources: false, keepEnabled: ['my-catalog'] });
    expect(Diagnostics.warnings(app2).map((w) => w.code)).toEqual(['DefaultSourcesEnabled', 'UnknownDefaultSource']);
    const { app: app3, chart: chart3 } = appAndChart();
    new OpenShiftOperatorHubPolicy(chart3, 'Hub', { disable: ['community-operators'] });
    expect(validationErrors(app3)).toEqual([
      '[platform/Hub] disable: disable lists sources although disableAllDefaultSources already disables all of them. Fix: remove disable, or set disableAllDefaultSources: false for a selective policy (DefaultSourceConflict)',
    ]);
  });
});

describe('issue 42: on OpenShift, the default sources the platform\'s own operators update from', () => {
  const onOpenShift = (targets: object = { openshiftVersion: '4.16' }) => {
    const app = new TenancyApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'hub-')), quiet: true, targets });
    return { app, chart: new Chart(app, 'platform') };
  };
  const warning = {
    severity: 'warning',
    code: 'PlatformOperatorSourceDisabled',
    constructPath: 'platform/Hub',
    field: 'keepEnabled',
    value: 'redhat-operators',
    message: "the policy turns off redhat-operators, which the platform's own operators update from on OpenShift 4.16 (OpenShift GitOps, "
      + 'which applies this output, OpenShift Logging, ...): they stop getting updates, cluster-wide',
    fix: 'keep it enabled: keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS] (tenants are still held to their curated catalogs by '
      + 'CuratedCatalogAdmissionPolicy); if those operators update from a mirror instead, say so with platformOperatorSources: []',
  };

  test('GIVEN openshiftVersion and every default source off THEN a warning names redhat-operators and the fix', () => {
    const { app, chart } = onOpenShift();
    new OpenShiftOperatorHubPolicy(chart, 'Hub');
    expect(Diagnostics.warnings(app)).toEqual([warning]);
  });

  test('GIVEN a selective policy that disables redhat-operators THEN the same warning', () => {
    const { app, chart } = onOpenShift();
    new OpenShiftOperatorHubPolicy(chart, 'Hub', { disableAllDefaultSources: false, disable: [OpenShiftDefaultSource.REDHAT_OPERATORS] });
    expect(Diagnostics.warnings(app)).toEqual([warning]);
  });

  test('GIVEN keepEnabled, a selective policy that keeps it, platformOperatorSources: [] or no openshiftVersion THEN no warning', () => {
    const kept = onOpenShift();
    new OpenShiftOperatorHubPolicy(kept.chart, 'Hub', { keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS] });
    const selective = onOpenShift();
    new OpenShiftOperatorHubPolicy(selective.chart, 'Hub', { disableAllDefaultSources: false, disable: [OpenShiftDefaultSource.COMMUNITY_OPERATORS] });
    const mirrored = onOpenShift();
    new OpenShiftOperatorHubPolicy(mirrored.chart, 'Hub', { platformOperatorSources: [] });
    const plain = onOpenShift({ kubernetesVersion: '1.30' });
    new OpenShiftOperatorHubPolicy(plain.chart, 'Hub');
    expect([kept, selective, mirrored, plain].map(({ app }) => Diagnostics.warnings(app))).toEqual([[], [], [], []]);
  });

  test('GIVEN platformOperatorSources naming another default source THEN the warning names each one turned off, sorted', () => {
    const { app, chart } = onOpenShift({ openshiftVersion: '4.18' });
    new OpenShiftOperatorHubPolicy(chart, 'Hub', {
      keepEnabled: [OpenShiftDefaultSource.REDHAT_OPERATORS],
      platformOperatorSources: [OpenShiftDefaultSource.REDHAT_OPERATORS, OpenShiftDefaultSource.CERTIFIED_OPERATORS],
    });
    expect(Diagnostics.warnings(app).map((w) => [w.code, w.value, w.fix])).toEqual([[
      'PlatformOperatorSourceDisabled', 'certified-operators',
      'keep it enabled: keepEnabled: [OpenShiftDefaultSource.CERTIFIED_OPERATORS] (tenants are still held to their curated catalogs by '
        + 'CuratedCatalogAdmissionPolicy); if those operators update from a mirror instead, say so with platformOperatorSources: []',
    ]]);
  });
});
