/**
 * The OLM v1 team's findings as plain functions (issue 39 item 2: moved out of the OlmV1Team construct, built like the
 * tenant's findings): GIVEN plain facts, WHEN asked, THEN the exact findings, in order. The construct's own tests
 * (olm-v1-team.test.ts) check that it reports them.
 */
import { ResolvedTargets } from '../../src/core/cluster-targets';
import { OlmV1ExtensionRequest, OlmV1TeamFacts, OlmV1TeamFindings } from '../../src/olmv1/olm-v1-team-findings';
import { OlmV1CrdChannel } from '../../src/olmv1/registry-v1-render';

const TEAM: OlmV1TeamFacts = {
  team: 'team-a',
  groupsGiven: true,
  groups: ['team-a-admins'],
  namespaces: ['team-a'],
  allowedPackages: [{ name: 'etcd', versionRange: '>=0.9.0 <0.10.0', channels: ['stable'] }],
  crdChannel: OlmV1CrdChannel.STANDARD,
};

const REQUEST: OlmV1ExtensionRequest = {
  team: 'team-a',
  namespaces: ['team-a'],
  name: 'team-a-etcd',
  field: 'extensions[team-a-etcd]',
  options: { packageName: 'etcd', version: '>=0.9.2 <0.10.0', channels: ['stable'] },
  allowed: TEAM.allowedPackages[0],
  version: '>=0.9.2 <0.10.0',
  channels: ['stable'],
  duplicate: false,
  onMain: false,
};

const TARGETS: ResolvedTargets = { kubernetesMinor: 30, olmVersion: '0.28.0', declared: [] };

describe('OlmV1TeamFindings.ofTeam', () => {
  test('a valid team has no findings', () => {
    expect(OlmV1TeamFindings.ofTeam(TEAM)).toEqual({ errors: [], warnings: [] });
  });

  test('a bad name, an empty group list, a bad namespace and a bad allowed range: one error each, in that order', () => {
    const r = OlmV1TeamFindings.ofTeam({
      ...TEAM, team: 'Team_A', groups: [], namespaces: ['Team-A'], allowedPackages: [{ name: 'etcd', versionRange: 'not a range' }],
    });
    expect(r.errors.map((e) => [e.code, e.field, e.value])).toEqual([
      ['InvalidName', 'team', 'Team_A'],
      ['MissingValue', 'groups', undefined],
      ['InvalidName', 'namespaces', 'Team-A'],
      ['InvalidVersionRange', 'allowedPackages[etcd].versionRange', 'not a range'],
    ]);
    expect(r.errors[1]).toEqual({
      code: 'MissingValue',
      field: 'groups',
      message: 'groups is empty: nobody would act for the team, and the admission policy would check nobody',
      fix: "name the team's group, e.g. ['team-a-admins']",
    });
    expect(r.warnings).toEqual([]);
  });

  test('an empty group list that was not given as a list is left to the input checks', () => {
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, groups: [], groupsGiven: false }).errors).toEqual([]);
  });

  test('an operator-controller version the renderer does not model: an error when set on the team, a warning when only declared', () => {
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, operatorControllerVersion: 'v0.1.0' }).errors.map((e) => [e.code, e.value])).toEqual([
      ['InvalidOperatorControllerVersion', 'v0.1.0'],
    ]);
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, declaredOperatorControllerVersion: '1.99.0' })).toEqual({
      errors: [],
      warnings: [{
        code: 'RendererVersionNotModelled',
        field: 'operatorControllerVersion',
        value: '1.99.0',
        message: 'TenancyAppProps.targets declares operator-controller 1.99.0, whose renderer is not modelled: the preview renders as v1.11.0 does',
        fix: "check the preview against that release's renderer, or set operatorControllerVersion to one of v1.11.0, main",
      }],
    });
    // modelled, or the team's own version wins: no warning
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, declaredOperatorControllerVersion: '1.11.0' }).warnings).toEqual([]);
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, declaredOperatorControllerVersion: 'main' }).warnings).toEqual([]);
    expect(OlmV1TeamFindings.ofTeam({ ...TEAM, declaredOperatorControllerVersion: '1.99.0', operatorControllerVersion: 'v1.11.0' }).warnings).toEqual([]);
  });

  test('spec.config allowances need the experimental CRD: one error per allowance on the standard CRD, none on the experimental', () => {
    const standard = OlmV1TeamFindings.ofTeam({ ...TEAM, allowWatchNamespace: true, allowDeploymentConfig: true });
    expect(standard.errors.map((e) => [e.code, e.field])).toEqual([
      ['SpecConfigNeedsExperimentalCrd', 'allowWatchNamespace'],
      ['SpecConfigNeedsExperimentalCrd', 'allowDeploymentConfig'],
    ]);
    const experimental = { ...TEAM, crdChannel: OlmV1CrdChannel.EXPERIMENTAL, allowWatchNamespace: true, allowDeploymentConfig: true };
    expect(OlmV1TeamFindings.ofTeam(experimental).errors).toEqual([]);
  });
});

describe('OlmV1TeamFindings.ofRequest', () => {
  test('a request inside the team\'s allowances has no findings', () => {
    expect(OlmV1TeamFindings.ofRequest(REQUEST)).toEqual([]);
  });

  test('a name outside the team\'s prefix, a duplicate and a namespace of no team member: what the admission policy denies', () => {
    const r = OlmV1TeamFindings.ofRequest({
      ...REQUEST, name: 'etcd', field: 'extensions[etcd]', duplicate: true, options: { ...REQUEST.options, namespace: 'team-b' }, onMain: true,
    });
    expect(r.map((e) => [e.code, e.field, e.value])).toEqual([
      ['ExtensionNameOutsideTeam', 'extensions[etcd].name', 'etcd'],
      ['DuplicateExtension', 'extensions[etcd]', 'etcd'],
      ['ExtensionOutsideTeamNamespaces', 'extensions[etcd].namespace', 'team-b'],
    ]);
    expect(r[1]).toEqual({ code: 'DuplicateExtension', field: 'extensions[etcd]', value: 'etcd', message: "two ClusterExtensions are named 'etcd'", fix: 'give one of them another name' });
    expect(r[2].message).toEqual("namespace 'team-b' is not one of team team-a's namespaces (team-a): the admission policy would deny it, and operator-controller's main "
      + 'branch refuses a spec.namespace that does not exist (ValidateInstallNamespace)');
  });

  test('a package the team may not install', () => {
    expect(OlmV1TeamFindings.ofRequest({ ...REQUEST, options: { packageName: 'keda' }, allowed: undefined, version: undefined, channels: undefined })).toEqual([{
      code: 'PackageNotAllowed',
      field: 'extensions[team-a-etcd].packageName',
      value: 'keda',
      message: "package 'keda' is not in team team-a's allowedPackages: the admission policy would deny it",
      fix: 'add it to allowedPackages, or pick an allowed package',
    }]);
  });

  test('a version outside the allowed range, no version at all, and channels outside the allowed ones', () => {
    expect(OlmV1TeamFindings.ofRequest({ ...REQUEST, version: '>=0.9.0 <1.0.0' }).map((e) => [e.code, e.message])).toEqual([
      ['VersionNotAllowed', "version range '>=0.9.0 <1.0.0' is not inside the allowed range '>=0.9.0 <0.10.0' of package 'etcd': the admission policy would deny it"],
    ]);
    expect(OlmV1TeamFindings.ofRequest({ ...REQUEST, version: undefined }).map((e) => [e.code, e.message])).toEqual([
      ['VersionNotAllowed', 'no version (every version): the admission policy would deny it'],
    ]);
    expect(OlmV1TeamFindings.ofRequest({ ...REQUEST, channels: ['alpha', 'stable'] }).map((e) => [e.code, e.value])).toEqual([['ChannelNotAllowed', 'alpha,stable']]);
    expect(OlmV1TeamFindings.ofRequest({ ...REQUEST, channels: [] }).map((e) => [e.code, e.value])).toEqual([['ChannelNotAllowed', '']]);
  });

  test('a version Masterminds/semver refuses, and CRD values the ClusterExtension CRD refuses', () => {
    const r = OlmV1TeamFindings.ofRequest({ ...REQUEST, allowed: undefined, options: { packageName: 'Etcd' }, version: '>=1.0.0 <<2' });
    expect(r.map((e) => [e.code, e.field])).toEqual([
      ['InvalidCrdValue', 'extensions[team-a-etcd].packageName'],
      ['InvalidCrdValue', 'extensions[team-a-etcd].version'],
      ['InvalidVersionConstraint', 'extensions[team-a-etcd].version'],
      ['PackageNotAllowed', 'extensions[team-a-etcd].packageName'],
    ]);
  });

  test('deploymentConfig: refused unless the team allows it, and unknown fields refused as operator-controller does', () => {
    const r = OlmV1TeamFindings.ofRequest({ ...REQUEST, options: { ...REQUEST.options, deploymentConfig: { env: [], replicas: 2 } } });
    expect(r.map((e) => [e.code, e.value])).toEqual([['DeploymentConfigNotAllowed', undefined], ['InvalidDeploymentConfig', 'replicas']]);
    const allowed = { ...REQUEST, allowDeploymentConfig: true, options: { ...REQUEST.options, deploymentConfig: { env: [] } } };
    expect(OlmV1TeamFindings.ofRequest(allowed)).toEqual([]);
  });
});

describe('OlmV1TeamFindings.crdValues', () => {
  test('more channels than the CRD allows is one error; each bad channel its own', () => {
    const many = Array.from({ length: 257 }, (_, i) => `c${i}`);
    expect(OlmV1TeamFindings.crdValues('f', 'etcd', undefined, many).map((e) => [e.code, e.field, e.value]))
      .toEqual([['InvalidCrdValue', 'f.channels', '257']]);
    expect(OlmV1TeamFindings.crdValues('f', 'etcd', undefined, ['ok', 'Bad']).map((e) => e.field)).toEqual(['f.channels[1]']);
    expect(OlmV1TeamFindings.crdValues('f', 'etcd', '>=1.0.0', ['stable'])).toEqual([]);
  });
});

describe('OlmV1TeamFindings.ofTargets', () => {
  const legacy = 'etcd-installer';
  test('nothing declared: the legacy ServiceAccount is used, nothing reported', () => {
    expect(OlmV1TeamFindings.ofTargets('f', { packageName: 'etcd', legacyServiceAccount: legacy }, legacy, TARGETS)).toEqual({ errors: [], warnings: [] });
  });

  test('operator-controller 1.11.0 ignores spec.serviceAccount: a warning', () => {
    const r = OlmV1TeamFindings.ofTargets('f', { packageName: 'etcd', legacyServiceAccount: legacy }, legacy, { ...TARGETS, operatorControllerVersion: '1.11.0' });
    expect(r).toEqual({
      errors: [],
      warnings: [{
        code: 'LegacyServiceAccountIgnored',
        field: 'f.legacyServiceAccount',
        value: legacy,
        message: 'operator-controller 1.11.0 (declared in TenancyAppProps.targets) ignores spec.serviceAccount (since v1.11.0) and installs as cluster-admin: the '
          + 'ClusterExtension is written without it',
        fix: 'drop legacyServiceAccount (the permission preview and guardrails are the fence), or declare the operator-controller the cluster runs (<= 1.10)',
      }],
    });
  });

  test('operator-controller 1.8.0 requires spec.serviceAccount and has no spec.config: an error without one, a warning for deploymentConfig', () => {
    const r = OlmV1TeamFindings.ofTargets('f', { packageName: 'etcd', deploymentConfig: { env: [] } }, undefined, { ...TARGETS, operatorControllerVersion: '1.8.0' });
    expect(r.errors.map((e) => [e.code, e.field])).toEqual([['ServiceAccountRequired', 'f.legacyServiceAccount']]);
    expect(r.warnings.map((e) => [e.code, e.value])).toEqual([['ExtensionConfigNotServed', 'operatorControllerVersion 1.8.0']]);
  });
});
