// Runtime checks of OperatorSubscription's props (and the tenant's subscribe options); internal, not re-exported.
// JavaScript and jsii callers get every bad field at once in the diagnostics format instead of a TypeError.
import { IConstruct } from 'constructs';
import { InstallPlanApproval, OperatorSubscriptionProps, PreflightEnforcement, SubscriptionConfig } from './operator-subscription-props';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { CatalogSourceLocation, CatalogSourceReference, CatalogSubscriptionRequest, ICatalogSource } from '../../catalog/catalog-source-reference';
import { INPUT_CODES, InputCheck, KubernetesText, prop, withUnknownProps } from '../../core/input-check';
import { SubscriptionConfigOptIn } from '../../olm/subscription-config-checks';
import { UpgradeGraph } from '../../upgrade/upgrade-graph';

/** Used when a Subscription has no usable catalog: the Subscription is written nowhere (the synth fails). */
class MissingCatalog implements ICatalogSource {
  public bindSubscriber(_subscriber: IConstruct, subscriberNamespace: string): CatalogSourceLocation {
    return { name: 'missing-catalog', namespace: subscriberNamespace };
  }
  public checkSubscription(_request: CatalogSubscriptionRequest): string[] {
    return [];
  }
}

/** Props of `OperatorSubscription` (and `subscribe` options), checked; `catalog` is always usable. */
export type CheckedSubscriptionProps = Omit<OperatorSubscriptionProps, 'packageName' | 'namespace'> & { readonly packageName?: string; readonly namespace?: string };

export function checkSubscriptionProps(input: InputCheck, raw: unknown, namespaceRequired: boolean): CheckedSubscriptionProps {
  if (input.requiredObject('options', raw, 'an object with packageName and catalog', "pass { packageName: 'etcd', catalog }", 'the subscription options') === undefined) return { packageName: undefined, namespace: undefined, catalog: new MissingCatalog() };
  input.knownProps(raw, 'OperatorSubscriptionProps', prop(raw, 'subscriber') !== undefined ? 'subscribe(options)' : 'OperatorSubscription');
  const p = (k: string) => prop(raw, k);
  const catalogFix = 'pass a catalog construct (e.g. a CuratedCatalog) or CatalogSourceReference.fromName(name, namespace)';
  let catalog = input.optionalImplementation<ICatalogSource>('catalog', p('catalog'), 'ICatalogSource', ['bindSubscriber', 'checkSubscription'], catalogFix);
  if (p('catalog') === undefined || p('catalog') === null) {
    input.add({ code: INPUT_CODES.missing, field: 'catalog', message: 'catalog is required but missing: a Subscription must name the CatalogSource that serves the package', fix: catalogFix });
  }
  if (catalog instanceof CatalogSourceReference) {
    for (const e of catalog._inputErrors) input.add({ ...e, field: `catalog${e.field ? `.${e.field}` : ''}` });
  }
  const bundle = input.optionalInstance('bundle', p('bundle'), OperatorBundle, 'pass an OperatorBundle, e.g. OperatorBundle.fromDirectory(path)');
  const upgradeBundles = input.optionalArray('upgradeBundles', p('upgradeBundles'),
    (v, f) => (v === undefined || v === null ? (input.add({ code: INPUT_CODES.missing, field: f, message: `${f} is missing`, fix: 'remove the empty entry' }), undefined)
      : input.optionalInstance(f, v, OperatorBundle, 'pass OperatorBundle objects, e.g. from OperatorBundle.fromCatalogPackage(file, package)')));
  const namespace = namespaceRequired
    ? input.requiredString('namespace', p('namespace'), "set namespace to the tenant namespace, e.g. 'team-a'")
    : input.optionalString('namespace', p('namespace'));
  const subscriber = p('subscriber');
  // props this check does not know (added by other features) pass through unchanged
  return withUnknownProps({
    packageName: input.requiredString('packageName', p('packageName'), "name the OLM package, e.g. 'etcd'"),
    catalog: catalog ?? new MissingCatalog(),
    channel: input.optionalString('channel', p('channel')),
    name: input.optionalString('name', p('name'), { fix: 'set name to a lower-case RFC 1123 subdomain' }),
    installPlanApproval: input.optionalEnum('installPlanApproval', p('installPlanApproval'), InstallPlanApproval as any, 'InstallPlanApproval') as InstallPlanApproval | undefined,
    startingCsv: input.optionalString('startingCsv', p('startingCsv')),
    config: checkConfig(input, p('config')),
    allowedConfig: input.optionalArray('allowedConfig', p('allowedConfig'),
      (v, f) => input.optionalEnum(f, v ?? '', SubscriptionConfigOptIn as any, 'SubscriptionConfigOptIn') as SubscriptionConfigOptIn | undefined),
    allowedConfigSecrets: input.optionalStringArray('allowedConfigSecrets', p('allowedConfigSecrets')),
    bundle,
    upgradeBundles,
    preflight: input.optionalEnum('preflight', p('preflight'), PreflightEnforcement as any, 'PreflightEnforcement') as PreflightEnforcement | undefined,
    upgradeGraph: input.optionalInstance('upgradeGraph', p('upgradeGraph'), UpgradeGraph, 'pass an UpgradeGraph of the package channel'),
    versionRange: input.optionalString('versionRange', p('versionRange')),
    namespace,
    subscriber: subscriber !== undefined && subscriber !== null && typeof prop(subscriber, 'node') === 'object' ? subscriber as IConstruct : undefined,
  }, raw as object);
}

/** `spec.config`: each field of the right shape (lists of objects, objects, string maps). */
function checkConfig(input: InputCheck, raw: unknown): SubscriptionConfig | undefined {
  const c = input.optionalObject('config', raw, 'pass a SubscriptionConfig object, e.g. { nodeSelector: { role: "infra" } }');
  if (!c) return undefined;
  input.knownProps(c, 'SubscriptionConfig', 'config', 'config.');
  const objects = (field: string): any[] | undefined => input.optionalArray(`config.${field}`, prop(c, field),
    (v, f) => input.optionalObject(f, v ?? 0, `pass config.${field} as a list of objects`));
  const object = (field: string): any => input.optionalObject(`config.${field}`, prop(c, field), `pass config.${field} as an object`);
  const env = objects('env');
  // names as the API server validates them (the Deployment OLM writes would be refused); values are free text
  env?.forEach((e, i) => {
    const name = input.requiredString(`config.env[${i}].name`, prop(e, 'name'), "set name to an environment variable name, e.g. 'LOG_LEVEL'");
    const problem = name !== undefined ? KubernetesText.envVarNameProblem(name) : undefined;
    if (problem) {
      input.add({ code: INPUT_CODES.value, field: `config.env[${i}].name`, value: name, message: `environment variable name ${problem} (validation.IsEnvVarName)`, fix: "use letters, digits, '_', '-' or '.', not starting with a digit, e.g. 'LOG_LEVEL'" });
    }
    input.optionalString(`config.env[${i}].value`, prop(e, 'value'), { singleLine: false, fix: 'set value to a string' });
  });
  return {
    env,
    envFrom: objects('envFrom'),
    resources: object('resources'),
    nodeSelector: input.optionalStringMap('config.nodeSelector', prop(c, 'nodeSelector'), 'labels'),
    tolerations: objects('tolerations'),
    affinity: object('affinity'),
    volumes: objects('volumes'),
    volumeMounts: objects('volumeMounts'),
    selector: object('selector'),
    annotations: input.optionalStringMap('config.annotations', prop(c, 'annotations'), 'annotations'),
  };
}
