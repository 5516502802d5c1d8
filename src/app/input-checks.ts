// Runtime checks of the app folder's props and static-method arguments (see src/core/input.ts); internal, not
// re-exported. JavaScript and jsii callers can pass anything: the construct (TenancyApp) records synth errors, the
// static methods (GitOpsLayout) throw one clear Error in the diagnostics format (throwIfInvalid).
import { AppProps, YamlOutputType } from 'cdk8s';
import { FluxOptions } from './flux-kustomizations-props';
import { GitOpsLayoutOptions, GitOpsObject } from './gitops-layout-props';
import { OutputLayout, SynthErrorFormat, TenancyAppProps } from './tenancy-app-props';
import { GoDuration } from '../catalog/go-duration';
import { ClusterTargets, DEFAULT_TARGETS, ResolvedTargets } from '../core/cluster-targets';
import { describeValue, InputCheck, INPUT_CODES, prop, valueText } from '../core/input';
import { NameRule } from '../core/names';

/** The props of `TenancyApp` (cdk8s `AppProps` included), checked: wrong values are errors and left out. */
export function checkTenancyAppProps(check: InputCheck, raw: unknown, outputLayout: { [key: string]: OutputLayout }): TenancyAppProps {
  const o = check.optionalObject('props', raw, 'pass { layout?, syncWaves?, report?, quiet?, outdir?, ... }');
  if (!o) return {};
  check.knownProps(o, 'TenancyAppProps', 'TenancyApp');
  const p = (k: string) => prop(o, k);
  const resolvers = p('resolvers');
  const checkedResolvers = check.optionalArray('resolvers', resolvers, (v, f) => check.optionalImplementation(f, v ?? 0, 'IResolver', ['resolve'],
    'pass objects with a resolve(context) method (cdk8s IResolver)'));
  const app: AppProps = {
    outdir: check.optionalString('outdir', p('outdir'), { fix: "pass outdir as a directory path, e.g. 'dist'" }),
    outputFileExtension: check.optionalString('outputFileExtension', p('outputFileExtension'), { fix: "pass outputFileExtension as e.g. '.k8s.yaml'" }),
    yamlOutputType: checkYamlOutputType(check, p('yamlOutputType')),
    recordConstructMetadata: check.optionalBoolean('recordConstructMetadata', p('recordConstructMetadata')),
    resolvers: checkedResolvers as any,
  };
  return {
    // props this check does not know pass through unchanged
    ...(o as object),
    ...app,
    layout: check.optionalEnum('layout', p('layout'), outputLayout, 'OutputLayout'),
    syncWaves: check.optionalBoolean('syncWaves', p('syncWaves')),
    report: check.optionalBoolean('report', p('report')),
    quiet: check.optionalBoolean('quiet', p('quiet')),
    argoCdHealthChecks: check.optionalBoolean('argoCdHealthChecks', p('argoCdHealthChecks')),
    flux: checkFluxOptions(check, 'flux', p('flux')),
    errorFormat: check.optionalEnum('errorFormat', p('errorFormat'), SynthErrorFormat as any, 'SynthErrorFormat'),
    targets: p('targets') === undefined ? undefined : (check.optionalObject('targets', p('targets'), 'pass { kubernetesVersion?, olmVersion?, operatorControllerVersion?, openshiftVersion? }') as ClusterTargets | undefined),
  };
}

/** One field of `ClusterTargets`: its pattern (after an optional leading `v`), an example and the version it reads. */
const TARGET_FIELDS: Array<{ key: keyof ClusterTargets; pattern: RegExp; example: string; what: string }> = [
  { key: 'kubernetesVersion', pattern: /^1\.(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,3}))?$/, example: "'1.30'", what: 'the Kubernetes minor version' },
  { key: 'olmVersion', pattern: /^0\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/, example: "'0.28.0'", what: 'the OLM v0 release (0.<minor>.<patch>)' },
  { key: 'operatorControllerVersion', pattern: /^[1-9]\d{0,2}\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/, example: "'1.10.0'", what: 'the operator-controller release (1.<minor>.<patch>)' },
  { key: 'openshiftVersion', pattern: /^4\.(0|[1-9]\d{0,2})$/, example: "'4.16'", what: 'the OpenShift minor version (4.<minor>)' },
];

/**
 * `TenancyAppProps.targets`, checked and resolved: wrong values are errors (field, value, fix) and fall back to the
 * defaults; OpenShift 4.x implies Kubernetes 1.(x+13) when `kubernetesVersion` is not set, and a different one is
 * an error.
 */
export function resolveClusterTargets(check: InputCheck, raw: ClusterTargets | undefined): ResolvedTargets {
  if (raw === undefined) return DEFAULT_TARGETS;
  check.knownProps(raw, 'ClusterTargets', 'TenancyApp', 'targets.');
  const parsed: { [k: string]: string | undefined } = {};
  for (const f of TARGET_FIELDS) {
    const field = `targets.${f.key}`;
    const value = check.optionalString(field, prop(raw, f.key), { fix: `pass ${f.key} as a string, e.g. ${f.example}` });
    if (value === undefined) continue;
    const bare = value.startsWith('v') ? value.slice(1) : value;
    if (!f.pattern.test(bare)) {
      check.add({
        code: INPUT_CODES.value,
        field,
        value,
        message: `${f.key} must be ${f.what}, got '${value}'`,
        fix: `write it as e.g. ${f.example}`,
      });
      continue;
    }
    parsed[f.key] = bare;
  }
  const openshiftMinor = parsed.openshiftVersion !== undefined ? Number(parsed.openshiftVersion.split('.')[1]) : undefined;
  let kubernetesMinor = parsed.kubernetesVersion !== undefined ? Number(parsed.kubernetesVersion.split('.')[1]) : undefined;
  if (openshiftMinor !== undefined) {
    // OpenShift 4.x is built on Kubernetes 1.(x+13): 4.16 on 1.29, 4.17 on 1.30 (OpenShift release notes)
    const shipped = openshiftMinor + 13;
    if (kubernetesMinor !== undefined && kubernetesMinor !== shipped) {
      check.add({
        code: INPUT_CODES.value,
        field: 'targets.kubernetesVersion',
        value: parsed.kubernetesVersion,
        message: `OpenShift 4.${openshiftMinor} runs Kubernetes 1.${shipped}, not ${parsed.kubernetesVersion}`,
        fix: `set kubernetesVersion to '1.${shipped}', or leave it out (it follows openshiftVersion)`,
      });
    }
    kubernetesMinor = shipped;
  }
  const declared = TARGET_FIELDS.map((f) => f.key).filter((k) => parsed[k] !== undefined);
  return {
    kubernetesMinor: kubernetesMinor ?? DEFAULT_TARGETS.kubernetesMinor,
    olmVersion: parsed.olmVersion ?? DEFAULT_TARGETS.olmVersion,
    ...(parsed.operatorControllerVersion !== undefined ? { operatorControllerVersion: parsed.operatorControllerVersion } : {}),
    ...(openshiftMinor !== undefined ? { openshiftMinor } : {}),
    declared,
  };
}

/** cdk8s's `YamlOutputType` is a numeric enum (`optionalEnum` takes string enums). */
function checkYamlOutputType(check: InputCheck, value: unknown): YamlOutputType | undefined {
  if (value === undefined || value === null) return undefined;
  const entries = Object.entries(YamlOutputType).filter(([, v]) => typeof v === 'number') as Array<[string, number]>;
  if (typeof value === 'number' && entries.some(([, v]) => v === value)) return value as YamlOutputType;
  check.add({
    code: INPUT_CODES.enumValue,
    field: 'yamlOutputType',
    value: valueText(value),
    message: `yamlOutputType must be one of ${entries.map(([, v]) => v).join(', ')}, got ${describeValue(value)}`,
    fix: `use ${entries.map(([k]) => `YamlOutputType.${k}`).join(' or ')}`,
  });
  return undefined;
}

/** `GitOpsLayout.kindWave(apiVersion, kind)`. */
export function checkKindWaveArgs(check: InputCheck, apiVersion: unknown, kind: unknown): void {
  check.requiredString('apiVersion', apiVersion, "pass the object's apiVersion, e.g. 'operators.coreos.com/v1alpha1'");
  check.requiredString('kind', kind, "pass the object's kind, e.g. 'Subscription'");
}

/** A manifest: an object with string apiVersion and kind, and an optional metadata object of string name/namespace. */
export function checkManifest(check: InputCheck, field: string, value: unknown): boolean {
  const m = check.requiredObject(field, value, 'a Kubernetes object (JSON)', "pass the object as ApiObject.toJson() returns it, e.g. { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }");
  if (!m) return false;
  const before = check.errors.length;
  check.requiredString(`${field}.apiVersion`, prop(m, 'apiVersion'), "set apiVersion, e.g. 'v1'");
  check.requiredString(`${field}.kind`, prop(m, 'kind'), "set kind, e.g. 'Namespace'");
  const metadata = check.optionalObject(`${field}.metadata`, prop(m, 'metadata'), "pass metadata as an object, e.g. { name: 'team-a' }");
  if (metadata) {
    check.optionalString(`${field}.metadata.name`, prop(metadata, 'name'), { fix: 'set metadata.name to a Kubernetes name string' });
    check.optionalString(`${field}.metadata.namespace`, prop(metadata, 'namespace'), { fix: 'set metadata.namespace to a namespace name string' });
  }
  return check.errors.length === before;
}

/** `GitOpsLayout.files(objects, options)`. */
export function checkGitOpsFilesArgs(check: InputCheck, objects: unknown, options: unknown):
{ objects: GitOpsObject[]; options: GitOpsLayoutOptions } {
  if (objects === undefined || objects === null) {
    check.add({
      code: INPUT_CODES.missing,
      field: 'objects',
      message: `objects is required but ${objects === null ? 'null' : 'missing'}`,
      fix: 'pass a list of { manifest, tenant?, dependsOn? } ([] for none)',
    });
  }
  const checked = check.optionalArray('objects', objects, (v, f) => {
    const o = check.requiredObject(f, v, 'a GitOpsObject', 'pass { manifest, tenant?, dependsOn? }');
    if (!o) return undefined;
    const before = check.errors.length;
    check.knownProps(o, 'GitOpsObject', f, `${f}.`);
    checkManifest(check, `${f}.manifest`, prop(o, 'manifest'));
    // the tenant names a folder (tenants/<tenant>/): a namespace name, never a path
    check.name(`${f}.tenant`, check.optionalString(`${f}.tenant`, prop(o, 'tenant'), { fix: 'set tenant to the namespace of the owning tenant' }),
      NameRule.DNS1123_LABEL, 'Tenant namespace');
    check.optionalStringArray(`${f}.dependsOn`, prop(o, 'dependsOn'), 'list identities (GitOpsLayout.identity) of the objects it depends on');
    for (const [i, ns] of (check.optionalStringArray(`${f}.tenantNamespaces`, prop(o, 'tenantNamespaces'), 'list the namespaces of the owning tenant') ?? []).entries()) {
      check.name(`${f}.tenantNamespaces[${i}]`, ns, NameRule.DNS1123_LABEL, 'Tenant namespace');
    }
    return check.errors.length === before ? o as unknown as GitOpsObject : undefined;
  }, 'pass a list of { manifest, tenant?, dependsOn? }') ?? [];
  const opts = check.optionalObject('options', options, 'pass { syncWaves?, managedBy? }') ?? {};
  check.knownProps(opts, 'GitOpsLayoutOptions', 'options', 'options.');
  return {
    objects: checked,
    options: {
      syncWaves: check.optionalBoolean('options.syncWaves', prop(opts, 'syncWaves')),
      managedBy: check.optionalString('options.managedBy', prop(opts, 'managedBy'), { fix: "set managedBy to a label value, e.g. 'platform-team'" }),
    },
  };
}

/** `TenancyAppProps.flux` / `FluxKustomizations.files(options, ...)`: names as Kubernetes checks them, Go durations. */
export function checkFluxOptions(check: InputCheck, field: string, raw: unknown): FluxOptions | undefined {
  const o = check.optionalObject(field, raw, "pass { path: './dist', sourceName?, namespace?, ... }");
  if (!o) return undefined;
  check.knownProps(o, 'FluxOptions', field, `${field}.`);
  const before = check.errors.length;
  const p = (k: string) => prop(o, k);
  const str = (k: string, fix: string) => check.optionalString(`${field}.${k}`, p(k), { fix });
  const path = check.requiredString(`${field}.path`, p('path'), "set path to where the output directory is in the Flux source, e.g. './dist'");
  if (path !== undefined && (path.split('/').includes('..') || path.trim() === '')) {
    check.add({ code: INPUT_CODES.value, field: `${field}.path`, value: path, message: `${field}.path must be a path inside the Flux source`, fix: "use a path relative to the source root without '..', e.g. './dist'" });
  }
  const sourceName = check.name(`${field}.sourceName`, str('sourceName', "set sourceName to the Flux source's name"), NameRule.DNS1123_SUBDOMAIN, 'Flux source');
  const namespace = check.name(`${field}.namespace`, str('namespace', "set namespace to Flux's namespace, e.g. 'flux-system'"), NameRule.DNS1123_LABEL, 'Namespace');
  const namePrefix = check.name(`${field}.namePrefix`, str('namePrefix', "set namePrefix to a short DNS label, e.g. 'tenancy'"), NameRule.DNS1123_LABEL, 'Kustomization name prefix');
  const sourceKind = str('sourceKind', "set sourceKind to 'GitRepository', 'OCIRepository' or 'Bucket'");
  if (sourceKind !== undefined && !['GitRepository', 'OCIRepository', 'Bucket'].includes(sourceKind)) {
    check.add({ code: INPUT_CODES.value, field: `${field}.sourceKind`, value: sourceKind, message: `${field}.sourceKind must be a Flux source kind`, fix: "use 'GitRepository', 'OCIRepository' or 'Bucket'" });
  }
  const durations: { [key: string]: string | undefined } = {};
  for (const k of ['interval', 'timeout']) {
    const d = str(k, `set ${k} as a Go duration, e.g. '10m'`);
    const problem = d === undefined ? undefined : GoDuration.problem(d);
    if (problem !== undefined) check.add({ code: INPUT_CODES.value, field: `${field}.${k}`, value: d, message: `${field}.${k} is not a Go duration: ${problem}`, fix: `write ${k} as a Go duration, e.g. '10m' or '1h30m'` });
    durations[k] = d;
  }
  const cluster = check.optionalBoolean(`${field}.cluster`, p('cluster'));
  const afterInstallCluster = check.optionalBoolean(`${field}.afterInstallCluster`, p('afterInstallCluster'));
  if (check.errors.length !== before) return undefined;
  const { interval, timeout } = durations;
  return { path: path!, sourceKind, sourceName, namespace, namePrefix, interval, timeout, cluster, afterInstallCluster };
}
