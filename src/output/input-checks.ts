// Runtime checks of the output folder's static-method arguments and options (see src/core/input.ts); internal, not
// re-exported. JavaScript and jsii callers can pass anything: the static methods (GitOpsLayout, FluxKustomizations)
// throw one clear Error in the diagnostics format (throwIfInvalid); TenancyApp records them as synth errors.
import { FluxClusterServiceVersionRef, FluxOptions } from './flux-kustomizations-props';
import { GitOpsLayoutOptions, GitOpsObject } from './gitops-layout-props';
import { GoDuration } from '../core/go-duration';
import { InputCheck, INPUT_CODES, prop } from '../core/input';
import { NameRule } from '../core/names';

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
  const clusterOperators = check.optionalArray(`${field}.clusterOperators`, p('clusterOperators'), (v, f) => {
    const ref = check.requiredObject(f, v, 'a FluxClusterServiceVersionRef', 'pass { namespace, name }');
    if (!ref) return undefined;
    check.knownProps(ref, 'FluxClusterServiceVersionRef', f, `${f}.`);
    const ns = check.name(`${f}.namespace`, check.requiredString(`${f}.namespace`, prop(ref, 'namespace'), 'set namespace to the Subscription\'s namespace'), NameRule.DNS1123_LABEL, 'Namespace');
    const name = check.name(`${f}.name`, check.requiredString(`${f}.name`, prop(ref, 'name'), "set name to the ClusterServiceVersion's name, e.g. 'etcdoperator.v0.9.4'"), NameRule.DNS1123_SUBDOMAIN, 'ClusterServiceVersion');
    return ns === undefined || name === undefined ? undefined : { namespace: ns, name };
  }, 'pass a list of { namespace, name }');
  if (check.errors.length !== before) return undefined;
  const { interval, timeout } = durations;
  const checked: FluxOptions = { path: path!, sourceKind, sourceName, namespace, namePrefix, interval, timeout, cluster, afterInstallCluster };
  return {
    ...checked,
    ...(clusterOperators ? { clusterOperators: clusterOperators.filter((r): r is FluxClusterServiceVersionRef => r !== undefined) } : {}),
  };
}
