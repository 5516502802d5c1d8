import { Testing } from 'cdk8s';
import { appAndChart, crdRuleFailures, validationErrors, validator } from './helpers';
import { CuratedClusterCatalog } from '../../src/olmv1';

const DIGEST = 'registry.example.com/catalogs/team-a@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

describe('CuratedClusterCatalog', () => {
  test('digest reference: the exact ClusterCatalog, valid against the v1.11.0 CRD schema and its CEL rules', () => {
    const { app, chart } = appAndChart();
    new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'team-a-curated', image: DIGEST, team: 'team-a', priority: 10 });
    const objs = Testing.synth(chart);
    expect(objs).toEqual([{
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: 'team-a-curated', labels: { 'olm-tenancy.io/team': 'team-a' } },
      spec: { source: { type: 'Image', image: { ref: DIGEST } }, priority: 10 },
    }]);
    expect(validator.validateAll(objs)).toEqual([]);
    expect(crdRuleFailures(objs[0])).toEqual([]);
    expect(validationErrors(app)).toEqual([]);
  });

  test('tag reference with pollIntervalMinutes is accepted by the CRD rules', () => {
    const { app, chart } = appAndChart();
    new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'shared', image: 'quay.io/org/catalog:v4.18', team: 'shared', pollIntervalMinutes: 10 });
    const objs = Testing.synth(chart);
    expect(objs[0].spec.source.image).toEqual({ ref: 'quay.io/org/catalog:v4.18', pollIntervalMinutes: 10 });
    expect(validator.validateAll(objs)).toEqual([]);
    expect(crdRuleFailures(objs[0])).toEqual([]);
    expect(validationErrors(app)).toEqual([]);
  });

  test('digest reference with pollIntervalMinutes: refused at synth, as the CRD CEL rule refuses it', () => {
    const { app, chart } = appAndChart();
    const cat = new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'team-a-curated', image: DIGEST, team: 'team-a', pollIntervalMinutes: 5 });
    // What the API server would say: the CRD's own rule, evaluated with the real CEL engine.
    expect(crdRuleFailures(cat.apiObject.toJson())).toEqual(['.spec.source.image: cannot specify pollIntervalMinutes while using digest-based image']);
    expect(validationErrors(app)).toEqual([
      `[platform/Cat] pollIntervalMinutes="5": image '${DIGEST}' is a digest reference, which never changes: the ClusterCatalog CRD refuses pollIntervalMinutes with it ("cannot specify pollIntervalMinutes while using digest-based image"). Fix: remove pollIntervalMinutes, or reference the image by tag to have it polled (CatalogPollsDigest)`,
    ]);
  });

  test('bad values are named with the field and a fix', () => {
    const { app, chart } = appAndChart();
    new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'Bad_Name', image: 'catalog', team: '-x', pollIntervalMinutes: 0, priority: 1.5 });
    expect(validationErrors(app).map((e) => e.replace(/: .*\(/, ' (').replace(/^\[platform\/Cat\] /, ''))).toEqual([
      'catalogName="Bad_Name" (InvalidName)',
      'pollIntervalMinutes="0" (InvalidValue)',
      'priority="1.5" (InvalidValue)',
      'image="catalog" (InvalidValue)',
      'team="-x" (InvalidValue)',
    ]);
  });
});
