// Input checks of the OLM v1 constructs (JavaScript and jsii callers): wrong types become named errors, never a
// TypeError; the constructs go on with safe defaults so every error is reported at once.
import { CuratedClusterCatalog } from './curated-cluster-catalog';
import type { OlmV1AllowedPackage, OlmV1TeamGuardrailsProps } from './olm-v1-team-guardrails-props';
import type { OlmV1AcceptedRisk, OlmV1AcceptedWriter, OlmV1ExtensionOptions, OlmV1TeamProps } from './olm-v1-team-props';
import { OlmV1CrdChannel } from './registry-v1-render';
import { SensitiveGrant } from '../audit/installer-rule-checks';
import { OperatorBundle } from '../bundle/operator-bundle';
import { INPUT_CODES, InputCheck } from '../core/input-check';
import { checkTenantGitOpsSource } from '../tenant/input-checks';

const str = (check: InputCheck) => (v: unknown, f: string) => check.requiredString(f, v, `pass ${f} as a string`);

/** `OlmV1TeamProps`, checked; `catalog` undefined when it is not a CuratedClusterCatalog. */
export function checkTeamProps(check: InputCheck, raw: unknown): Omit<OlmV1TeamProps, 'catalog'> & { catalog?: CuratedClusterCatalog } {
  const p = check.requiredObject('props', raw, 'an object (OlmV1TeamProps)', 'pass { team, groups, namespaces, catalog, allowedPackages }') ?? {};
  const catalog = p.catalog === undefined || p.catalog === null
    ? (check.add({ code: INPUT_CODES.missing, field: 'catalog', message: 'catalog is required but missing', fix: 'pass the team\'s CuratedClusterCatalog' }), undefined)
    : check.optionalInstance('catalog', p.catalog, CuratedClusterCatalog, 'pass a CuratedClusterCatalog construct');
  return {
    team: check.requiredString('team', p.team, 'name the team, e.g. team-a') ?? 'invalid',
    groups: check.requiredArray('groups', p.groups, str(check), "name the team's groups") ?? [],
    namespaces: check.requiredArray('namespaces', p.namespaces, str(check), "name the team's namespaces") ?? [],
    catalog,
    allowedPackages: check.requiredArray('allowedPackages', p.allowedPackages, (v, f) => checkAllowedPackage(check, v, f), 'list the packages the team may install') ?? [],
    extensions: check.optionalArray('extensions', p.extensions, (v, f) => checkExtension(check, v, f)),
    allowWatchNamespace: check.optionalBoolean('allowWatchNamespace', p.allowWatchNamespace),
    allowDeploymentConfig: check.optionalBoolean('allowDeploymentConfig', p.allowDeploymentConfig),
    crdChannel: check.optionalEnum('crdChannel', p.crdChannel, OlmV1CrdChannel, 'OlmV1CrdChannel'),
    operatorControllerVersion: check.optionalString('operatorControllerVersion', p.operatorControllerVersion),
    acceptedWriters: check.optionalArray('acceptedWriters', p.acceptedWriters, (v, f) => checkAcceptedWriter(check, v, f)),
    gitOpsSource: checkTenantGitOpsSource(check, 'gitOpsSource', p.gitOpsSource),
  };
}

function checkAcceptedWriter(check: InputCheck, raw: unknown, field: string): OlmV1AcceptedWriter | undefined {
  const w = check.requiredObject(field, raw, 'an object (OlmV1AcceptedWriter)', "pass { identity: 'User alice', reason: '...' }");
  if (!w) return undefined;
  const identity = check.requiredString(`${field}.identity`, w.identity, "name the identity as the finding does, e.g. 'Group platform-admins'");
  const reason = check.requiredString(`${field}.reason`, w.reason, 'say why it may write the OLM v1 APIs unchecked');
  return identity === undefined || reason === undefined ? undefined : { identity, reason };
}

function checkAllowedPackage(check: InputCheck, raw: unknown, field: string): OlmV1AllowedPackage | undefined {
  const p = check.requiredObject(field, raw, 'an object (OlmV1AllowedPackage)', "pass { name: 'etcd', versionRange?, channels? }");
  if (!p) return undefined;
  const name = check.requiredString(`${field}.name`, p.name, 'name the package');
  if (name === undefined) return undefined;
  return {
    name,
    versionRange: check.optionalString(`${field}.versionRange`, p.versionRange),
    channels: check.optionalArray(`${field}.channels`, p.channels, str(check)),
  };
}

/** `OlmV1ExtensionOptions`, checked; undefined when unusable (the error is recorded). */
export function checkExtension(check: InputCheck, raw: unknown, field: string): OlmV1ExtensionOptions | undefined {
  const e = check.requiredObject(field, raw, 'an object (OlmV1ExtensionOptions)', "pass { packageName: 'etcd', namespace: 'team-a' }");
  if (!e) return undefined;
  const packageName = check.requiredString(`${field}.packageName`, e.packageName, 'name the package');
  const namespace = check.optionalString(`${field}.namespace`, e.namespace);
  if (packageName === undefined) return undefined;
  const bundle = (v: unknown, f: string) => check.optionalInstance(f, v, OperatorBundle, 'pass OperatorBundle objects (OperatorBundle.fromDirectory, fromCatalogPackage)');
  const risk = (v: unknown, f: string): OlmV1AcceptedRisk | undefined => {
    const r = check.requiredObject(f, v, 'an object (OlmV1AcceptedRisk)', "pass { check: 'OLMT-044', reason: '...' }");
    if (!r) return undefined;
    const id = check.requiredString(`${f}.check`, r.check, 'name the policy id, e.g. OLMT-044');
    const grant = check.optionalEnum(`${f}.grant`, r.grant, SensitiveGrant as any, 'SensitiveGrant') as SensitiveGrant | undefined;
    return id === undefined ? undefined : { check: id, ...(grant !== undefined ? { grant } : {}), reason: check.optionalString(`${f}.reason`, r.reason) ?? '' };
  };
  return {
    packageName,
    namespace,
    name: check.optionalString(`${field}.name`, e.name),
    version: check.optionalString(`${field}.version`, e.version),
    channels: check.optionalArray(`${field}.channels`, e.channels, str(check)),
    bundles: check.optionalArray(`${field}.bundles`, e.bundles, bundle),
    acceptedRisks: check.optionalArray(`${field}.acceptedRisks`, e.acceptedRisks, risk),
    legacyServiceAccount: check.optionalString(`${field}.legacyServiceAccount`, e.legacyServiceAccount),
    deploymentConfig: check.optionalObject(`${field}.deploymentConfig`, e.deploymentConfig, 'pass an object, e.g. { nodeSelector: { ... } }'),
  };
}

/** `OlmV1TeamGuardrailsProps`, checked, with safe defaults (the policy then admits nothing of what was wrong). */
export function checkGuardrailsProps(check: InputCheck, raw: unknown): OlmV1TeamGuardrailsProps {
  const p = check.requiredObject('props', raw, 'an object (OlmV1TeamGuardrailsProps)', 'pass { team, groups, namespaces, catalogTeam, packages }') ?? {};
  return {
    team: check.requiredString('team', p.team, 'name the team') ?? 'invalid',
    groups: check.requiredArray('groups', p.groups, str(check), "name the team's groups") ?? [],
    namespaces: check.requiredArray('namespaces', p.namespaces, str(check), "name the team's namespaces") ?? [],
    catalogTeam: check.requiredString('catalogTeam', p.catalogTeam, "name the catalogs' team label value") ?? 'invalid',
    packages: check.requiredArray('packages', p.packages, (v, f) => checkAllowedPackage(check, v, f), 'list the allowed packages') ?? [],
    allowWatchNamespace: check.optionalBoolean('allowWatchNamespace', p.allowWatchNamespace),
    allowDeploymentConfig: check.optionalBoolean('allowDeploymentConfig', p.allowDeploymentConfig),
    serviceAccountNames: check.optionalArray('serviceAccountNames', p.serviceAccountNames, str(check)),
    policyName: check.optionalString('policyName', p.policyName),
  };
}
