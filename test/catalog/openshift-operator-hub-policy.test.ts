import { ApiObject, Testing } from 'cdk8s';
import { crdValidator } from './crd-schema';
import { appAndChart, validationErrors } from './helpers';
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
