// Runtime checks of the blueprint props and stamp options (see src/core/input-check.ts); internal, not re-exported.
import { BlueprintOperator, BlueprintOverride, BlueprintStampOptions, TenantBlueprintProps } from './tenant-blueprint-props';
import { OperatorBundle } from '../bundle/operator-bundle';
import { InputCheck, prop, withUnknownProps } from '../core/input-check';
import { AccessLevel } from '../olm/olm-naming';
import { PodSecurityLevel } from '../tenant/scoped-operator-tenant-props';
import { InstallPlanApproval } from '../tenant/subscriptions/operator-subscription-props';

/** One operator of a blueprint (or of `extraOperators`): `undefined` (and errors) when it cannot be used. */
function checkOperator(input: InputCheck, field: string, raw: unknown): BlueprintOperator | undefined {
  const o = input.optionalObject(field, raw ?? 0, "pass { packageName: 'etcd', channel: 'stable' }");
  if (!o) return undefined;
  const before = input.errors.length;
  input.knownProps(o, 'BlueprintOperator', field, `${field}.`);
  const packageName = input.requiredString(`${field}.packageName`, prop(o, 'packageName'), "name the package, e.g. 'etcd'");
  const checked = {
    // fields this check does not know (added by other features) pass through; the tenant's subscribe checks them
    ...(o as object),
    packageName: packageName ?? '',
    channel: input.optionalString(`${field}.channel`, prop(o, 'channel')),
    bundle: input.optionalInstance(`${field}.bundle`, prop(o, 'bundle'), OperatorBundle, 'pass an OperatorBundle, e.g. OperatorBundle.fromDirectory(path)'),
    upgradeBundles: input.optionalArray(`${field}.upgradeBundles`, prop(o, 'upgradeBundles'),
      (v, f) => input.optionalInstance(f, v ?? 0, OperatorBundle, 'pass OperatorBundle objects')),
    startingCsv: input.optionalString(`${field}.startingCsv`, prop(o, 'startingCsv')),
    installPlanApproval: input.optionalEnum(`${field}.installPlanApproval`, prop(o, 'installPlanApproval'), InstallPlanApproval as any, 'InstallPlanApproval') as InstallPlanApproval | undefined,
  };
  return input.errors.length > before ? undefined : checked;
}

/** The blueprint props, checked: wrong-typed values are errors (reported on every stamped tenant) and left out. */
export function checkBlueprintProps(input: InputCheck, raw: unknown): TenantBlueprintProps {
  if (input.requiredObject('blueprint', raw, 'an object with name and catalog', "pass { name: 'standard', catalog }", 'the blueprint props') === undefined) return { name: 'invalid', catalog: undefined as any };
  input.knownProps(raw, 'TenantBlueprintProps', 'TenantBlueprint', 'blueprint.');
  const p = (k: string) => prop(raw, k);
  const f = (k: string) => `blueprint.${k}`;
  // props this check does not know (added by other features) pass through unchanged
  return withUnknownProps({
    name: input.requiredString(f('name'), p('name'), "name the blueprint, e.g. 'standard'") ?? 'invalid',
    // the catalog is checked by each Subscription (where a missing one is reported)
    catalog: p('catalog') as any,
    operators: input.optionalArray(f('operators'), p('operators'), (v, fld) => checkOperator(input, fld, v)),
    namespacePrefix: input.optionalString(f('namespacePrefix'), p('namespacePrefix')),
    namespaceLabels: input.optionalStringMap(f('namespaceLabels'), p('namespaceLabels'), 'labels'),
    podSecurity: input.optionalEnum(f('podSecurity'), p('podSecurity'), PodSecurityLevel as any, 'PodSecurityLevel') as PodSecurityLevel | undefined,
    deriveInstallerRules: input.optionalBoolean(f('deriveInstallerRules'), p('deriveInstallerRules')),
    clusterScopedInstallerRulesReason: input.optionalString(f('clusterScopedInstallerRulesReason'), p('clusterScopedInstallerRulesReason'), { singleLine: false }),
    installPlanApproval: input.optionalEnum(f('installPlanApproval'), p('installPlanApproval'), InstallPlanApproval as any, 'InstallPlanApproval') as InstallPlanApproval | undefined,
    grants: input.optionalArray(f('grants'), p('grants'), (v, fld) => {
      const g = input.optionalObject(fld, v ?? 0, "pass { groupName: '{team}-admins', access: AccessLevel.ADMIN }");
      if (!g) return undefined;
      input.knownProps(g, 'BlueprintGrant', fld, `${fld}.`);
      const groupName = input.requiredString(`${fld}.groupName`, prop(g, 'groupName'), "name the group, e.g. '{team}-admins'");
      const access = input.optionalEnum(`${fld}.access`, prop(g, 'access'), AccessLevel as any, 'AccessLevel') as AccessLevel | undefined;
      const subscriptionManagement = input.optionalBoolean(`${fld}.subscriptionManagement`, prop(g, 'subscriptionManagement'));
      return groupName === undefined ? undefined : { groupName, access, subscriptionManagement };
    }),
    baseline: input.optionalObject(f('baseline'), p('baseline'), 'pass TenantBaselineOptions, e.g. { quota: { pods: "50" } }') as any,
    allowedOverrides: input.optionalArray(f('allowedOverrides'), p('allowedOverrides'),
      (v, fld) => input.optionalEnum(fld, v ?? '', BlueprintOverride as any, 'BlueprintOverride') as BlueprintOverride | undefined),
  }, raw as object);
}

/** The options of `stamp`, checked. */
export function checkStampOptions(input: InputCheck, raw: unknown): BlueprintStampOptions {
  const o = input.optionalObject('options', raw, 'pass { namespaceName?, extraOperators?, omitOperators?, channels?, quota?, namespaceLabels? }');
  if (!o) return {};
  input.knownProps(o, 'BlueprintStampOptions', 'stamp(options)');
  return {
    ...(o as object),
    namespaceName: input.optionalString('namespaceName', prop(o, 'namespaceName')),
    extraOperators: input.optionalArray('extraOperators', prop(o, 'extraOperators'), (v, f) => checkOperator(input, f, v)),
    omitOperators: input.optionalStringArray('omitOperators', prop(o, 'omitOperators')),
    channels: input.optionalStringMap('channels', prop(o, 'channels')),
    quota: input.optionalStringMap('quota', prop(o, 'quota')),
    namespaceLabels: input.optionalStringMap('namespaceLabels', prop(o, 'namespaceLabels'), 'labels'),
  };
}
