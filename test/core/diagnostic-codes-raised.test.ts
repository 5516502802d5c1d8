/**
 * Codes no other test raised (test/core/diagnostic-codes.test.ts lists the ones still not raised): each raised here by
 * the smallest input that triggers it, with the exact finding.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { TenancyApp } from '../../src/app/tenancy-app';
import { SynthErrorFormat } from '../../src/app/tenancy-app-props';
import { ServiceExternalIpsAdmissionPolicy } from '../../src/blueprint/service-external-ips-admission-policy';
import { TenantBlueprint } from '../../src/blueprint/tenant-blueprint';
import { BlueprintOverride } from '../../src/blueprint/tenant-blueprint-props';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CatalogSourceReference } from '../../src/catalog/catalog-source-reference';
import { CuratedCatalog } from '../../src/catalog/curated-catalog';
import { CODE, DiagnosticCodes } from '../../src/core/diagnostic-codes';
import { Diagnostics, Severity } from '../../src/core/diagnostics';
import { InputCheck } from '../../src/core/input-check';
import { PolicyChecks, PolicySeverity } from '../../src/core/policy-checks';
import { FileBasedCatalog } from '../../src/fbc/file-based-catalog';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { PreflightCode } from '../../src/preflight/preflight-code';
import { ScopedOperatorTenant } from '../../src/tenant/scoped-operator-tenant';
import { OperatorSubscription } from '../../src/tenant/subscriptions/operator-subscription';
import { InstallPlanApproval } from '../../src/tenant/subscriptions/operator-subscription-props';
import { UpgradeGraph } from '../../src/upgrade/upgrade-graph';
import { appAndChart } from '../util/synth';

const ETCD = path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4');

describe('codes raised by the smallest input', () => {
  test('ConversionWebhookRequiresAllNamespaces: a CSV with a conversion webhook that supports OwnNamespace too (olm operator.go: "CSVs with conversion webhooks must support only AllNamespaces")', () => {
    const bundle = OperatorBundle.fromCsvObject({
      kind: 'ClusterServiceVersion',
      metadata: { name: 'conv.v1.0.0' },
      spec: {
        installModes: [{ type: 'OwnNamespace', supported: true }, { type: 'AllNamespaces', supported: true }],
        webhookdefinitions: [{ type: 'ConversionWebhook', generateName: 'c.example.com', deploymentName: 'd', conversionCRDs: ['widgets.example.com'] }],
        install: { strategy: 'deployment', spec: { deployments: [{ name: 'd', spec: {} }] } },
      },
    });
    const r = InstallPreflight.check({ bundle, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] });
    expect(r.problems.filter((p) => p.code === PreflightCode.CONVERSION_WEBHOOK_NOT_ALL_NAMESPACES)).toEqual([{
      code: CODE.ConversionWebhookRequiresAllNamespaces,
      message: 'conv.v1.0.0: conversion webhook c.example.com: OLM fails the install ("CSVs with conversion webhooks must support only AllNamespaces") because the CSV supports OwnNamespace, AllNamespaces.',
    }]);
  });

  test('MirrorConfigDiffers: a curated version range with a gap, which the oc-mirror range >=min <=max cannot express', () => {
    // a skip-style channel (2.0.0 skips every older bundle), so the range with a gap keeps one connected piece
    const source = FileBasedCatalog.fromString(
      [
        '{"schema":"olm.package","name":"p","defaultChannel":"s"}',
        '{"schema":"olm.channel","package":"p","name":"s","entries":[{"name":"p.v1.0.0"},{"name":"p.v1.1.0"},{"name":"p.v2.0.0","skips":["p.v1.0.0","p.v1.1.0"]}]}',
        ...['1.0.0', '1.1.0', '2.0.0'].map((v) => `{"schema":"olm.bundle","package":"p","name":"p.v${v}","image":"i:${v}","properties":[{"type":"olm.package","value":{"packageName":"p","version":"${v}"}}]}`),
      ].join('\n'),
      'c.json',
    );
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    new CuratedCatalog(chart, 'Curated', {
      image: 'reg/c:1', catalogName: 'curated', sourceCatalog: source, packages: [{ name: 'p', versionRange: '<1.1.0 || >=2.0.0' }], tenants: [tenant],
    });
    const found = Diagnostics.warnings(app).filter((d) => d.code === CODE.MirrorConfigDiffers);
    expect(found.map((d) => [d.constructPath, d.field, d.message, d.fix])).toEqual([[
      'platform/Curated', 'packages',
      'package "p" channel "s": the oc-mirror range ">=1.0.0 <=2.0.0" also selects p.v1.1.0; the filtered catalog (catalog/) is exact, build the image from it with opm',
      'use one contiguous version range per channel, or build the image from catalog/ with opm',
    ]]);
  });

  test('Validation: a construct of another library fails its own validation in a TenancyApp: its text, under the code Validation', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-validation-'));
    try {
      const app = new TenancyApp({ outdir, quiet: true, errorFormat: SynthErrorFormat.READABLE });
      const other = new Construct(new Chart(app, 'other'), 'Thing');
      other.node.addValidation({ validate: () => ['the thing is not configured'] });
      let message = '';
      try {
        app.synth();
      } catch (e) {
        message = String((e as Error).message);
      }
      // the readable form's first line: `[path] Code: message`
      expect(/^\[other\/Thing\] (\w+): the thing is not configured$/m.exec(message)?.[1]).toEqual('Validation');
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('UnknownPolicySeverity: a policyChecks value that is not a PolicySeverity', () => {
    expect(PolicyChecks.overrideProblems({ 'OLMT-006': 'LOUD' as PolicySeverity }, 'policyChecks').map((d) => [d.code, d.field, d.value]))
      .toEqual([[CODE.UnknownPolicySeverity, 'policyChecks[OLMT-006]', 'LOUD']]);
  });

  test('UpgradeBundlesWithoutBundle: upgrade bundles without the bundle installed first', () => {
    const chart = Testing.chart();
    const sub = new OperatorSubscription(chart, 'S', {
      namespace: 'team-a', packageName: 'etcd', catalog: CatalogSourceReference.fromName('c', 'olm'), upgradeBundles: [OperatorBundle.fromDirectory(ETCD)],
    });
    expect(sub.node.validate().filter((e) => e.endsWith(`(${CODE.UpgradeBundlesWithoutBundle})`)).length).toEqual(1);
  });

  test('ServiceExternalIpsPolicyWithoutNamespaces: the policy given no namespace', () => {
    const chart = Testing.chart();
    const policy = new ServiceExternalIpsAdmissionPolicy(chart, 'P');
    expect(policy.node.validate().map((e) => /\((\w+)\)$/.exec(e)?.[1])).toEqual([CODE.ServiceExternalIpsPolicyWithoutNamespaces]);
  });

  test('InvalidLabelOrAnnotation: a label key the API server refuses', () => {
    const check = new InputCheck();
    check.optionalStringMap('labels', { 'bad key!': 'x' }, 'labels');
    expect(check.errors.map((d) => [d.code, d.field, d.value])).toEqual([[CODE.InvalidLabelOrAnnotation, 'labels', 'bad key!']]);
  });

  test('UpgradeGraphProblem: an upgrade graph whose channel OLM reads with a problem (a skipRange blang/semver cannot parse)', () => {
    const chart = Testing.chart();
    const upgradeGraph = new UpgradeGraph({
      packageName: 'foo',
      channel: 'stable',
      entries: [{ name: 'foo.v1.0.0', version: '1.0.0' }, { name: 'foo.v1.1.0', version: '1.1.0', replaces: 'foo.v1.0.0', skipRange: '~1.0.0' }],
    });
    const sub = new OperatorSubscription(chart, 'S', {
      namespace: 'team-a', packageName: 'foo', channel: 'stable', catalog: CatalogSourceReference.fromName('c', 'olm'), upgradeGraph,
    });
    expect(sub.node.validate().filter((e) => e.endsWith(`(${CODE.UpgradeGraphProblem})`)).length).toEqual(1);
  });

  test('BlueprintHasNoBaseline: a team changes the quota of a blueprint that creates no baseline', () => {
    const chart = new Chart(Testing.app(), 'teams');
    const blueprint = new TenantBlueprint({
      name: 'data',
      catalog: CatalogSourceReference.fromName('curated-operators', 'olm'),
      operators: [{ packageName: 'etcd', channel: 'singlenamespace-alpha' }],
      allowedOverrides: [BlueprintOverride.QUOTA],
    });
    const tenant = blueprint.stamp(chart, 'payments', { quota: { pods: '10' } });
    expect(tenant.node.validate().filter((e) => e.endsWith(`(${CODE.BlueprintHasNoBaseline})`))).toEqual([
      "quota=\"{\\\"pods\\\":\\\"10\\\"}\": blueprint 'data' creates no baseline, so there is no quota to change. Fix: drop quota, or give the blueprint a baseline (BlueprintHasNoBaseline)",
    ]);
  });

  test('UpgradeNotChecked: the allowed upgrade target has no bundle in the graph, a warning as registered', () => {
    const e090 = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundle-history', 'etcd', '0.9.0'));
    const { app, chart } = appAndChart();
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-e', deriveInstallerRules: true });
    tenant.subscribe({
      packageName: 'etcd',
      channel: 'singlenamespace-alpha',
      catalog: CatalogSourceReference.fromName('c', 'olm'),
      installPlanApproval: InstallPlanApproval.MANUAL,
      startingCsv: 'etcdoperator.v0.9.0',
      bundle: e090,
      upgradeGraph: new UpgradeGraph({
        packageName: 'etcd',
        channel: 'singlenamespace-alpha',
        entries: [{ name: 'etcdoperator.v0.9.0', version: '0.9.0' }, { name: 'etcdoperator.v0.9.2', version: '0.9.2', replaces: 'etcdoperator.v0.9.0' }],
        bundles: [e090],
      }),
      versionRange: '>=0.9.0',
    });
    const found = Diagnostics.warnings(app).filter((d) => d.code === CODE.UpgradeNotChecked);
    expect(found.map((d) => [d.severity, d.field, d.value, d.message])).toEqual([[
      Severity.WARNING, 'subscriptions[etcd].upgradeGraph', 'etcdoperator.v0.9.2',
      'the upgrade graph has no bundle for etcdoperator.v0.9.2, so upgrades to them are not checked',
    ]]);
    expect(DiagnosticCodes.of(CODE.UpgradeNotChecked)?.severity).toEqual('warning');
  });
});
