// Runtime checks of the output folder's static-method arguments and options (see src/core/input-check.ts); internal, not
// re-exported. JavaScript and jsii callers can pass anything: the static methods (GitOpsLayout, FluxKustomizations)
// throw one clear Error in the diagnostics format (throwIfInvalid); TenancyApp records them as synth errors.
import { ArgoCdOptions, ArgoCdTenantFolder } from './argocd-applications-props';
import { FluxClusterServiceVersionRef, FluxOptions, GitOpsSelfService } from './flux-kustomizations-props';
import { GitOpsLayoutOptions, GitOpsObject } from './gitops-layout-props';
import { GoDuration } from '../core/go-duration';
import { InputCheck, INPUT_CODES, prop } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

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
    check.optionalBoolean(`${f}.appliedByPlatform`, prop(o, 'appliedByPlatform'));
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
  const url = checkRepositoryUrl(check, `${field}.url`, p('url'));
  const branch = checkBranch(check, `${field}.branch`, p('branch'));
  const secretName = check.name(`${field}.secretName`, str('secretName', "set secretName to a Secret's name"), NameRule.DNS1123_SUBDOMAIN, 'Secret');
  const serviceAccountName = check.name(`${field}.serviceAccountName`, str('serviceAccountName', "set serviceAccountName to a ServiceAccount name, e.g. 'tenancy-applier'"),
    NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
  const platformServiceAccountName = check.name(`${field}.platformServiceAccountName`,
    str('platformServiceAccountName', "set platformServiceAccountName to the ServiceAccount of Flux's kustomize-controller, e.g. 'kustomize-controller'"),
    NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
  const tenantIdentities = check.optionalBoolean(`${field}.tenantIdentities`, p('tenantIdentities'));
  const clusterOperators = check.optionalArray(`${field}.clusterOperators`, p('clusterOperators'), (v, f) => {
    const ref = check.requiredObject(f, v, 'a FluxClusterServiceVersionRef', 'pass { namespace, name }');
    if (!ref) return undefined;
    check.knownProps(ref, 'FluxClusterServiceVersionRef', f, `${f}.`);
    const ns = check.name(`${f}.namespace`, check.requiredString(`${f}.namespace`, prop(ref, 'namespace'), 'set namespace to the Subscription\'s namespace'), NameRule.DNS1123_LABEL, 'Namespace');
    const name = check.name(`${f}.name`, check.requiredString(`${f}.name`, prop(ref, 'name'), "set name to the ClusterServiceVersion's name, e.g. 'etcdoperator.v0.9.4'"), NameRule.DNS1123_SUBDOMAIN, 'ClusterServiceVersion');
    return ns === undefined || name === undefined ? undefined : { namespace: ns, name };
  }, 'pass a list of { namespace, name }');
  if (sourceKind === 'Bucket' && url !== undefined && tenantIdentities !== false) {
    check.add({ code: INPUT_CODES.value, field: `${field}.sourceKind`, value: sourceKind, message: `${field}.sourceKind Bucket cannot be copied into the tenant namespaces (a bucket source has no url and ref)`, fix: "use 'GitRepository' or 'OCIRepository' with tenant identities, or set tenantIdentities: false" });
  }
  if (check.errors.length !== before) return undefined;
  const { interval, timeout } = durations;
  return clean({
    path: path!,
    sourceKind,
    sourceName,
    namespace,
    namePrefix,
    interval,
    timeout,
    cluster,
    afterInstallCluster,
    url,
    branch,
    secretName,
    serviceAccountName,
    platformServiceAccountName,
    tenantIdentities,
    clusterOperators: clusterOperators?.filter((r): r is FluxClusterServiceVersionRef => r !== undefined),
  });
}

/** A repository URL: a non-empty string without spaces (Flux and Argo CD check the rest when they fetch). */
export function checkRepositoryUrl(check: InputCheck, field: string, raw: unknown): string | undefined {
  const url = check.optionalString(field, raw, { fix: "set it to the repository's URL, e.g. 'https://git.example.com/platform/tenancy.git'" });
  if (url !== undefined && (url.trim() === '' || /\s/.test(url))) {
    check.add({ code: INPUT_CODES.value, field, value: url, message: `${field} must be a repository URL`, fix: "use e.g. 'https://git.example.com/platform/tenancy.git' or 'ssh://git@git.example.com/platform/tenancy.git'" });
    return undefined;
  }
  return url;
}

/** A branch or tag name as Git allows it (`git check-ref-format`: no spaces, `..`, `~^:?*[\`, leading `-`). */
export function checkBranch(check: InputCheck, field: string, raw: unknown): string | undefined {
  const branch = check.optionalString(field, raw, { fix: "set it to a branch name, e.g. 'main'" });
  if (branch !== undefined && (branch === '' || /[\s~^:?*[\\]|\.\.|^-|\/$|^\//.test(branch))) {
    check.add({ code: INPUT_CODES.value, field, value: branch, message: `${field} is not a valid branch name`, fix: "use a branch name, e.g. 'main' or 'release/1.2'" });
    return undefined;
  }
  return branch;
}

/** `o` without its undefined keys (the checked options carry only what was given). */
function clean<T extends object>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** A tenant's own repository as the layout writes it (`FluxTenantFolder.selfService`). */
export function checkSelfService(check: InputCheck, field: string, raw: unknown): GitOpsSelfService | undefined {
  const o = check.optionalObject(field, raw, 'pass { url, path?, branch?, secretName?, serviceAccountName }');
  if (!o) return undefined;
  check.knownProps(o, 'GitOpsSelfService', field, `${field}.`);
  const before = check.errors.length;
  const url = checkRepositoryUrl(check, `${field}.url`, prop(o, 'url'));
  if (prop(o, 'url') === undefined) check.requiredString(`${field}.url`, undefined, "set url to the tenant's repository URL");
  const path = checkSourcePath(check, `${field}.path`, prop(o, 'path'));
  const branch = checkBranch(check, `${field}.branch`, prop(o, 'branch'));
  const secretName = check.name(`${field}.secretName`, check.optionalString(`${field}.secretName`, prop(o, 'secretName'), { fix: "set secretName to a Secret's name" }),
    NameRule.DNS1123_SUBDOMAIN, 'Secret');
  const serviceAccountName = check.name(`${field}.serviceAccountName`, check.requiredString(`${field}.serviceAccountName`, prop(o, 'serviceAccountName'),
    'name the ServiceAccount that applies it'), NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
  if (check.errors.length !== before) return undefined;
  return clean({ url: url!, path, branch, secretName, serviceAccountName: serviceAccountName! });
}

/** A path inside a repository: relative, no `..`. */
export function checkSourcePath(check: InputCheck, field: string, raw: unknown): string | undefined {
  const path = check.optionalString(field, raw, { fix: "set it to a path in the repository, e.g. './deploy'" });
  if (path !== undefined && (path.trim() === '' || path.split('/').includes('..') || path.startsWith('/'))) {
    check.add({ code: INPUT_CODES.value, field, value: path, message: `${field} must be a relative path inside the repository`, fix: "use a path relative to the repository root without '..', e.g. './deploy'" });
    return undefined;
  }
  return path;
}

/** `TenancyAppProps.argoCd` / `ArgoCdApplications.files(options, ...)`. */
export function checkArgoCdOptions(check: InputCheck, field: string, raw: unknown): ArgoCdOptions | undefined {
  const o = check.optionalObject(field, raw, "pass { repoUrl: 'https://git.example.com/platform/tenancy.git', path: 'dist' }");
  if (!o) return undefined;
  check.knownProps(o, 'ArgoCdOptions', field, `${field}.`);
  const before = check.errors.length;
  const p = (k: string) => prop(o, k);
  const str = (k: string, fix: string) => check.optionalString(`${field}.${k}`, p(k), { fix });
  if (p('repoUrl') === undefined) check.requiredString(`${field}.repoUrl`, undefined, 'set repoUrl to the URL of the repository that holds the output');
  const repoUrl = checkRepositoryUrl(check, `${field}.repoUrl`, p('repoUrl'));
  if (p('path') === undefined) check.requiredString(`${field}.path`, undefined, "set path to where the output directory is in the repository, e.g. 'dist'");
  const path = p('path') === undefined ? undefined : checkSourcePath(check, `${field}.path`, p('path'));
  const targetRevision = str('targetRevision', "set targetRevision to a branch, tag or commit, e.g. 'HEAD'");
  const namespace = check.name(`${field}.namespace`, str('namespace', "set namespace to Argo CD's namespace, e.g. 'argocd'"), NameRule.DNS1123_LABEL, 'Namespace');
  const namePrefix = check.name(`${field}.namePrefix`, str('namePrefix', "set namePrefix to a short DNS label, e.g. 'tenancy'"), NameRule.DNS1123_LABEL, 'Application name prefix');
  const server = str('server', "set server to the API server URL as Argo CD names the cluster, e.g. 'https://kubernetes.default.svc'");
  const sourceRepos = check.optionalStringArray(`${field}.sourceRepos`, p('sourceRepos'), 'list repository URLs (or Argo CD globs)');
  const serviceAccountName = check.name(`${field}.serviceAccountName`, str('serviceAccountName', "set serviceAccountName to a ServiceAccount name, e.g. 'tenancy-applier'"),
    NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
  const platformServiceAccountName = check.name(`${field}.platformServiceAccountName`,
    str('platformServiceAccountName', "set platformServiceAccountName to Argo CD's application controller ServiceAccount, e.g. 'argocd-application-controller'"),
    NameRule.DNS1123_SUBDOMAIN, 'ServiceAccount');
  const cluster = check.optionalBoolean(`${field}.cluster`, p('cluster'));
  const afterInstallCluster = check.optionalBoolean(`${field}.afterInstallCluster`, p('afterInstallCluster'));
  if (check.errors.length !== before) return undefined;
  return clean({
    repoUrl: repoUrl!,
    path: path!,
    targetRevision,
    namespace,
    namePrefix,
    server,
    sourceRepos,
    serviceAccountName,
    platformServiceAccountName,
    cluster,
    afterInstallCluster,
  });
}

/** `ArgoCdApplications.files(..., tenants)`. */
export function checkArgoCdTenants(check: InputCheck, field: string, raw: unknown): ArgoCdTenantFolder[] {
  const list = check.optionalArray(field, raw, (v, f) => {
    const o = check.requiredObject(f, v, 'an ArgoCdTenantFolder', 'pass { namespace, namespaces?, clusterKinds?, afterInstall?, selfService? }');
    if (!o) return undefined;
    check.knownProps(o, 'ArgoCdTenantFolder', f, `${f}.`);
    const before = check.errors.length;
    const namespace = check.name(`${f}.namespace`, check.requiredString(`${f}.namespace`, prop(o, 'namespace'), 'set namespace to the tenant namespace'), NameRule.DNS1123_LABEL, 'Namespace');
    const namespaces = check.optionalStringArray(`${f}.namespaces`, prop(o, 'namespaces'), "list the tenant's namespaces");
    for (const [i, n] of (namespaces ?? []).entries()) check.name(`${f}.namespaces[${i}]`, n, NameRule.DNS1123_LABEL, 'Namespace');
    const clusterKinds = check.optionalArray(`${f}.clusterKinds`, prop(o, 'clusterKinds'), (k, kf) => {
      const ko = check.requiredObject(kf, k, 'an ArgoCdClusterKind', "pass { group: 'olm.operatorframework.io', kind: 'ClusterExtension' }");
      if (!ko) return undefined;
      check.knownProps(ko, 'ArgoCdClusterKind', kf, `${kf}.`);
      const group = check.optionalString(`${kf}.group`, prop(ko, 'group'), { fix: "set group, '' for the core group" }) ?? '';
      const kind = check.requiredString(`${kf}.kind`, prop(ko, 'kind'), "set kind, e.g. 'ClusterExtension'");
      return kind === undefined ? undefined : { group, kind };
    }, 'pass a list of { group, kind }');
    const afterInstall = check.optionalBoolean(`${f}.afterInstall`, prop(o, 'afterInstall'));
    const selfService = checkSelfService(check, `${f}.selfService`, prop(o, 'selfService'));
    if (check.errors.length !== before || namespace === undefined) return undefined;
    const folder: ArgoCdTenantFolder = clean({
      namespace,
      namespaces,
      clusterKinds: clusterKinds?.filter((k): k is { group: string; kind: string } => k !== undefined),
      afterInstall,
      selfService,
    });
    return folder;
  }, 'pass a list of { namespace, ... }') ?? [];
  return list.filter((t): t is ArgoCdTenantFolder => t !== undefined);
}
