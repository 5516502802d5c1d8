// Runtime checks of the tenant constructs' props and arguments (see src/core/input-check.ts); internal, not re-exported.
import { DeriveScope } from './derive-scope';
import { AllowInstallerProps, LegacyPullSecretAccess, PodSecurityLevel, RemovedOperatorOptions, ScopedOperatorTenantProps, TenantGitOpsSource, UpgradeStrategy } from './scoped-operator-tenant-props';
import { TargetNamespaces } from './target-namespaces';
import { SensitiveGrant } from '../audit/installer-rule-checks';
import { ReachCode } from '../audit/reach-code';
import { OperatorBundle } from '../bundle/operator-bundle';
import { checkRuleShape, INPUT_CODES, InputCheck, prop, valueText, withUnknownProps } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';
import { PolicySeverity } from '../core/policy-checks';
import { OlmGeneration } from '../olm/olm-naming';
import { checkBranch, checkRepositoryUrl, checkSourcePath } from '../output/input-checks';
import { BoundRoleKind } from '../preflight/preflight-code';
import { PolicyRule } from '../rbac/policy-rule';

const NAME_FIX = (field: string) => `set ${field} to a Kubernetes name string`;

/** A list of PolicyRules: malformed rules are dropped, each with an error. */
export function checkRules(input: InputCheck, field: string, value: unknown): PolicyRule[] | undefined {
  return input.optionalArray(field, value, (v, f) => checkRuleShape(input, f, v) as PolicyRule | undefined, `pass ${field} as a list of PolicyRule objects`);
}

export type CheckedTenantProps = Omit<ScopedOperatorTenantProps, 'namespaceName'> & { readonly namespaceName?: string };

/** Every prop of `ScopedOperatorTenant`, checked; the result holds only values of the declared types. */
export function checkTenantProps(input: InputCheck, raw: unknown): CheckedTenantProps {
  if (input.requiredObject('props', raw, 'an object with at least namespaceName', "pass { namespaceName: 'team-a' }", 'the props') === undefined) return { namespaceName: undefined };
  input.knownProps(raw, 'ScopedOperatorTenantProps', 'ScopedOperatorTenant');
  const p = (k: string) => prop(raw, k);
  const legacy = input.optionalObject('legacyPullSecretAccess', p('legacyPullSecretAccess'), "pass { catalogNamespace: 'openshift-marketplace', secretNames: ['pull-secret'] }");
  let legacyChecked: LegacyPullSecretAccess | undefined;
  if (legacy) {
    input.knownProps(legacy, 'LegacyPullSecretAccess', 'legacyPullSecretAccess', 'legacyPullSecretAccess.');
    const catalogNamespace = input.requiredString('legacyPullSecretAccess.catalogNamespace', legacy.catalogNamespace, NAME_FIX('legacyPullSecretAccess.catalogNamespace'));
    const secretNames = input.optionalStringArray('legacyPullSecretAccess.secretNames', legacy.secretNames);
    if (legacy.secretNames === undefined || legacy.secretNames === null) {
      input.add({ code: INPUT_CODES.missing, field: 'legacyPullSecretAccess.secretNames', message: 'legacyPullSecretAccess.secretNames is required but missing', fix: 'name the pull secrets, or drop legacyPullSecretAccess' });
    }
    if (catalogNamespace !== undefined && secretNames !== undefined) legacyChecked = { catalogNamespace, secretNames };
  }
  const targets = p('targetNamespaces');
  const checkedTargets = input.optionalInstance('targetNamespaces', targets, TargetNamespaces,
    'use TargetNamespaces.ownNamespace(), TargetNamespaces.namespaces([...], reason) or TargetNamespaces.allNamespaces(reason)');
  if (checkedTargets) for (const e of checkedTargets._inputErrors) input.add({ ...e, field: `targetNamespaces${e.field ? `.${e.field}` : ''}` });
  // props this check does not know (added by other features) pass through unchanged
  return withUnknownProps({
    namespaceName: input.requiredString('namespaceName', p('namespaceName'), "set namespaceName to the tenant namespace, e.g. 'team-a'"),
    createNamespace: input.optionalBoolean('createNamespace', p('createNamespace')),
    namespaceLabels: input.optionalStringMap('namespaceLabels', p('namespaceLabels'), 'labels'),
    namespaceAnnotations: input.optionalStringMap('namespaceAnnotations', p('namespaceAnnotations'), 'annotations'),
    podSecurity: input.optionalEnum('podSecurity', p('podSecurity'), PodSecurityLevel as any, 'PodSecurityLevel') as PodSecurityLevel | undefined,
    podSecurityWarn: input.optionalEnum('podSecurityWarn', p('podSecurityWarn'), PodSecurityLevel as any, 'PodSecurityLevel') as PodSecurityLevel | undefined,
    podSecurityAudit: input.optionalEnum('podSecurityAudit', p('podSecurityAudit'), PodSecurityLevel as any, 'PodSecurityLevel') as PodSecurityLevel | undefined,
    systemNamespacesReason: input.optionalString('systemNamespacesReason', p('systemNamespacesReason'), { singleLine: false }),
    operatorGroupName: input.optionalString('operatorGroupName', p('operatorGroupName'), { fix: NAME_FIX('operatorGroupName') }),
    installerServiceAccountName: input.optionalString('installerServiceAccountName', p('installerServiceAccountName'), { fix: NAME_FIX('installerServiceAccountName') }),
    installerRoleName: input.optionalString('installerRoleName', p('installerRoleName'), { fix: NAME_FIX('installerRoleName') }),
    installerRoleBindingName: input.optionalString('installerRoleBindingName', p('installerRoleBindingName'), { fix: NAME_FIX('installerRoleBindingName') }),
    createTokenSecret: input.optionalBoolean('createTokenSecret', p('createTokenSecret')),
    tokenSecretName: input.optionalString('tokenSecretName', p('tokenSecretName'), { fix: NAME_FIX('tokenSecretName') }),
    installerRules: checkRules(input, 'installerRules', p('installerRules')),
    deriveInstallerRules: input.optionalBoolean('deriveInstallerRules', p('deriveInstallerRules')),
    clusterScopedInstallerRulesReason: input.optionalString('clusterScopedInstallerRulesReason', p('clusterScopedInstallerRulesReason'), { singleLine: false }),
    clusterInstallerRules: checkRules(input, 'clusterInstallerRules', p('clusterInstallerRules')),
    allowedSensitiveGrants: input.optionalArray('allowedSensitiveGrants', p('allowedSensitiveGrants'),
      (v, f) => input.optionalEnum(f, v ?? '', SensitiveGrant as any, 'SensitiveGrant') as SensitiveGrant | undefined),
    acceptedSensitiveGrants: input.optionalArray('acceptedSensitiveGrants', p('acceptedSensitiveGrants'), (v, f) => {
      const o = input.optionalObject(f, v ?? 0, "pass { grant: SensitiveGrant.SUBSCRIPTION_CREATE, reason: '...' }");
      if (!o) return undefined;
      const before = input.errors.length;
      const grant = input.optionalEnum(`${f}.grant`, prop(o, 'grant') ?? '', SensitiveGrant as any, 'SensitiveGrant') as SensitiveGrant | undefined;
      const reason = input.requiredString(`${f}.reason`, prop(o, 'reason'), 'say why the installer may hold the grant', { singleLine: false });
      if (input.errors.length > before || grant === undefined || reason === undefined) return undefined;
      return { ...o, grant, reason };
    }),
    targetNamespaces: checkedTargets,
    upgradeStrategy: input.optionalEnum('upgradeStrategy', p('upgradeStrategy'), UpgradeStrategy as any, 'UpgradeStrategy') as UpgradeStrategy | undefined,
    olmGeneration: input.optionalEnum('olmGeneration', p('olmGeneration'), OlmGeneration as any, 'OlmGeneration') as OlmGeneration | undefined,
    legacyPullSecretAccess: legacyChecked,
    deriveScope: input.optionalEnum('deriveScope', p('deriveScope'), DeriveScope as any, 'DeriveScope') as DeriveScope | undefined,
    allowedBindRoles: input.optionalArray('allowedBindRoles', p('allowedBindRoles'), (v, f) => {
      const o = input.optionalObject(f, v ?? 0, "pass { roleKind: BoundRoleKind.CLUSTER_ROLE, roleName: 'system:auth-delegator', reason: '...' }");
      if (!o) return undefined;
      const before = input.errors.length;
      input.knownProps(o, 'BindRoleAcceptance', f, `${f}.`);
      const roleKind = input.optionalEnum(`${f}.roleKind`, prop(o, 'roleKind') ?? '', BoundRoleKind as any, 'BoundRoleKind') as BoundRoleKind | undefined;
      const roleName = input.requiredString(`${f}.roleName`, prop(o, 'roleName'), 'name the bound role');
      const reason = input.requiredString(`${f}.reason`, prop(o, 'reason'), 'say why the operator may bind it', { singleLine: false });
      if (input.errors.length > before || roleKind === undefined || roleName === undefined || reason === undefined) return undefined;
      return { ...o, roleKind, roleName, reason };
    }),
    policyChecks: checkPolicySeverities(input, p('policyChecks')),
    acceptedReach: input.optionalArray('acceptedReach', p('acceptedReach'), (v, f) => {
      const o = input.optionalObject(f, v ?? 0, "pass { code: ReachCode..., subject?: '...', reason: '...' }");
      if (!o) return undefined;
      const before = input.errors.length;
      input.knownProps(o, 'AcceptedReach', f, `${f}.`);
      const code = input.optionalEnum(`${f}.code`, prop(o, 'code') ?? '', ReachCode as any, 'ReachCode') as ReachCode | undefined;
      const subject = input.optionalString(`${f}.subject`, prop(o, 'subject'));
      const reason = input.requiredString(`${f}.reason`, prop(o, 'reason'), 'say why this reach is accepted', { singleLine: false });
      if (input.errors.length > before || code === undefined || reason === undefined) return undefined;
      return { ...o, code, ...(subject !== undefined ? { subject } : {}), reason };
    }),
    gitOpsSource: checkTenantGitOpsSource(input, 'gitOpsSource', p('gitOpsSource')),
  }, raw as object);
}

/** A tenant's own repository (`ScopedOperatorTenantProps.gitOpsSource`, `OlmV1TeamProps.gitOpsSource`). */
export function checkTenantGitOpsSource(input: InputCheck, field: string, raw: unknown): TenantGitOpsSource | undefined {
  const o = input.optionalObject(field, raw, "pass { url: 'https://git.example.com/team-a/operators.git', path?, branch?, secretName? }");
  if (!o) return undefined;
  input.knownProps(o, 'TenantGitOpsSource', field, `${field}.`);
  const before = input.errors.length;
  if (prop(o, 'url') === undefined) input.requiredString(`${field}.url`, undefined, "set url to the tenant's repository URL");
  const url = checkRepositoryUrl(input, `${field}.url`, prop(o, 'url'));
  const path = checkSourcePath(input, `${field}.path`, prop(o, 'path'));
  const branch = checkBranch(input, `${field}.branch`, prop(o, 'branch'));
  const secretName = input.name(`${field}.secretName`, input.optionalString(`${field}.secretName`, prop(o, 'secretName'), { fix: "set secretName to a Secret's name" }),
    NameRule.DNS1123_SUBDOMAIN, 'Secret');
  if (input.errors.length > before || url === undefined) return undefined;
  return {
    url, ...(path !== undefined ? { path } : {}), ...(branch !== undefined ? { branch } : {}), ...(secretName !== undefined ? { secretName } : {}),
  };
}

/** `policyChecks`: a map of check id -> PolicySeverity (unknown ids are reported by PolicyChecks.overrideProblems). */
function checkPolicySeverities(input: InputCheck, raw: unknown): { [id: string]: PolicySeverity } | undefined {
  const map = input.optionalStringMap('policyChecks', raw);
  if (map === undefined) return undefined;
  const out: { [id: string]: PolicySeverity } = {};
  for (const [id, severity] of Object.entries(map)) {
    const checked = input.optionalEnum(`policyChecks[${JSON.stringify(id)}]`, severity, PolicySeverity as any, 'PolicySeverity') as PolicySeverity | undefined;
    if (checked !== undefined) out[id] = checked;
  }
  return out;
}

/** An `ISubject` (cdk8s-plus User, Group, ServiceAccount, ... or a jsii implementation). */
export interface CheckedSubject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

export function checkSubject(input: InputCheck, field: string, value: unknown): CheckedSubject | undefined {
  const fix = "pass a cdk8s-plus subject, e.g. Group.fromName(chart, 'Admins', 'team-a-admins')";
  if (value === undefined || value === null) {
    input.add({ code: INPUT_CODES.missing, field, message: `${field} is required but ${value === null ? 'null' : 'missing'}`, fix });
    return undefined;
  }
  const subject = input.optionalImplementation<{ toSubjectConfiguration(): unknown }>(field, value, 'ISubject', ['toSubjectConfiguration'], fix);
  if (!subject) return undefined;
  let config: unknown;
  try {
    config = subject.toSubjectConfiguration();
  } catch (e) {
    input.add({ code: INPUT_CODES.reference, field, message: `${field}.toSubjectConfiguration() failed: ${(e as Error)?.message ?? String(e)}`, fix });
    return undefined;
  }
  const kind = input.requiredString(`${field}.kind`, prop(config, 'kind'), fix);
  const name = input.requiredString(`${field}.name`, prop(config, 'name'), fix);
  const namespace = input.optionalString(`${field}.namespace`, prop(config, 'namespace'));
  const apiGroup = input.optionalString(`${field}.apiGroup`, prop(config, 'apiGroup'));
  if (kind === undefined || name === undefined) return undefined;
  return { kind, name, namespace, apiGroup };
}

/** The options of `removeOperator`: `undefined` (and errors) unless packageName and csvName are strings. */
/**
 * `allowInstaller(props)`'s props, checked; undefined after an error. The positional form of earlier versions
 * (`allowInstaller(verbs, apiGroup, resources, resourceNames?)`) is refused with the props form as the fix.
 */
export function checkAllowInstaller(input: InputCheck, raw: unknown): AllowInstallerProps | undefined {
  const field = 'allowInstaller(props)';
  const fix = "pass one object: allowInstaller({ verbs: ['get', 'create'], apiGroup: '', resources: ['configmaps'], resourceNames?: [...] })";
  if (Array.isArray(raw)) {
    input.add({
      code: INPUT_CODES.type,
      field,
      value: valueText(raw),
      message: `${field} must be an AllowInstallerProps object, got a list: allowInstaller takes one props object, not the verbs, apiGroup, resources and resourceNames as separate arguments`,
      fix,
    });
    return undefined;
  }
  const o = input.requiredObject(field, raw, 'an AllowInstallerProps object', fix);
  if (!o) return undefined;
  const before = input.errors.length;
  input.knownProps(o, 'AllowInstallerProps', field, `${field}.`);
  const verbs = input.optionalStringArray(`${field}.verbs`, prop(o, 'verbs') ?? 0);
  const apiGroup = input.requiredString(`${field}.apiGroup`, prop(o, 'apiGroup'), "pass the API group, '' for the core group");
  const resources = input.optionalStringArray(`${field}.resources`, prop(o, 'resources') ?? 0);
  const resourceNames = input.optionalStringArray(`${field}.resourceNames`, prop(o, 'resourceNames'));
  if (input.errors.length > before || !verbs || apiGroup === undefined || !resources) return undefined;
  return { verbs, apiGroup, resources, ...(resourceNames !== undefined ? { resourceNames } : {}) };
}

export function checkRemovedOperator(input: InputCheck, raw: unknown): RemovedOperatorOptions | undefined {
  const field = 'removeOperator(options)';
  const o = input.optionalObject(field, raw ?? 0, "pass { packageName: 'etcd', csvName: 'etcdoperator.v0.9.4' }");
  if (!o) return undefined;
  const before = input.errors.length;
  input.knownProps(o, 'RemovedOperatorOptions', field, `${field}.`);
  const packageName = input.requiredString(`${field}.packageName`, prop(o, 'packageName'), "name the package, e.g. 'etcd'");
  const csvName = input.requiredString(`${field}.csvName`, prop(o, 'csvName'), "name the installed CSV, e.g. 'etcdoperator.v0.9.4'");
  const bundle = input.optionalInstance(`${field}.bundle`, prop(o, 'bundle'), OperatorBundle, 'pass the installed OperatorBundle, or leave bundle out');
  if (input.errors.length > before || packageName === undefined || csvName === undefined) return undefined;
  return { packageName, csvName, ...(bundle ? { bundle } : {}) };
}
