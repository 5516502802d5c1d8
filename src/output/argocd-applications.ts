/**
 * Argo CD AppProjects and Applications for the GitOps layout (docs/gitops.md, "Argo CD: projects, Applications and
 * who applies what"): an app-of-apps in `argocd/apps/` (point one root Application at it) that syncs, in sync-wave
 * order and each wave only once the one before is healthy,
 *
 * - wave -1: the projects: `<prefix>-platform` (every destination, every cluster-scoped kind: the one accepted
 *   exception, synced as Argo CD's own controller) and per tenant `<prefix>-tenant-<namespace>` (destinations: the
 *   tenant's namespaces only; cluster-scoped kinds: only those its folder holds; `destinationServiceAccounts`: the
 *   tenant's applier, so that Argo CD's sync impersonation applies the folder as the tenant), and a project of its
 *   own for a tenant's repository (self-service) with its self-service ServiceAccount;
 * - wave 0: `<prefix>-cluster` (`cluster/`); wave 1: `<prefix>-tenant-<namespace>` (`tenants/<namespace>/`); wave 2:
 *   the tenants' after-install folders and own repositories; wave 3: `after-install/cluster/`.
 *
 * Argo CD assesses no Application's health since 1.8: the root Application waits for a wave's Applications only with
 * the health check of `argoproj.io/Application` in `argocd-cm` (argo-cd `docs/operator-manual/health.md`, "Argocd
 * App"), written with sync impersonation on (`application.sync.impersonation.enabled`,
 * `docs/operator-manual/app-sync-using-impersonation.md`) in `argocd/apps-config.yaml`.
 */
import { ArgoCdOptions, ArgoCdTenantFolder } from './argocd-applications-props';
import type { GitOpsFile } from './gitops-layout';
import { checkArgoCdOptions, checkArgoCdTenants } from './input-checks';
import { OlmWrites } from './olm-writes';
import { YamlWriter } from './yaml-writer';
import { InputCheck, throwIfInvalid } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

const ARGO = 'argoproj.io/v1alpha1';
const WAVE = 'argocd.argoproj.io/sync-wave';

/** The `argocd/apps/` folder of the GitOps layout, and the Argo CD settings it needs. */
export class ArgoCdApplications {
  /** The folder the AppProjects and Applications go to. */
  public static readonly FOLDER = 'argocd/apps';
  /** The `argocd-cm` patch with the settings the Applications assume. */
  public static readonly CONFIG_FILE = 'argocd/apps-config.yaml';

  /**
   * The health check of `argoproj.io/Application` that Argo CD removed in 1.8 (argo-cd
   * `docs/operator-manual/health.md`, "Argocd App", verbatim): an Application is as healthy as its
   * `status.health`, Progressing before it has one. An app-of-apps with sync waves needs it to wait for a wave.
   */
  public static readonly APPLICATION_HEALTH_LUA = [
    'hs = {}',
    'hs.status = "Progressing"',
    'hs.message = ""',
    'if obj.status ~= nil then',
    '  if obj.status.health ~= nil then',
    '    hs.status = obj.status.health.status',
    '    if obj.status.health.message ~= nil then',
    '      hs.message = obj.status.health.message',
    '    end',
    '  end',
    'end',
    'return hs',
    '',
  ].join('\n');

  /**
   * The files of `argocd/apps/`: `kustomization.yaml` (the root Application's path) and one file per AppProject and
   * Application, sorted; plus `argocd/apps-config.yaml` (the `argocd-cm` settings they assume).
   */
  public static files(options: ArgoCdOptions, tenants: ArgoCdTenantFolder[]): GitOpsFile[] {
    const check = new InputCheck();
    const checked = checkArgoCdOptions(check, 'options', options ?? undefined);
    if (options === undefined || options === null) check.requiredObject('options', options, 'ArgoCdOptions', "pass { repoUrl, path: 'dist' }");
    const folders = checkArgoCdTenants(check, 'tenants', tenants);
    throwIfInvalid(check, 'ArgoCdApplications.files');
    return render(checked!, folders);
  }

  /** `argocd/apps-config.yaml`: a strategic-merge patch of `argocd-cm` in `namespace`. */
  public static configMapPatch(namespace: string = 'argocd'): string {
    const check = new InputCheck();
    check.name('namespace', check.requiredString('namespace', namespace, "pass Argo CD's namespace, e.g. 'argocd'"), NameRule.DNS1123_LABEL, 'Namespace');
    throwIfInvalid(check, 'ArgoCdApplications.configMapPatch');
    const header = [
      '# Argo CD settings the Applications of argocd/apps/ assume (cdk8s-olm-tenancy, docs/gitops.md "Argo CD"): sync',
      '# impersonation (each tenant folder syncs as the tenant\'s ServiceAccount) and the Application health check',
      '# (the root Application waits for each sync wave). A strategic-merge patch of the argocd-cm ConfigMap; it turns',
      '# impersonation on for every Application of this Argo CD. Generated: do not edit.',
    ].join('\n');
    return `${header}\n${YamlWriter.document({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argocd-cm', namespace, labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } },
      data: {
        'application.sync.impersonation.enabled': 'true',
        'resource.customizations.health.argoproj.io_Application': ArgoCdApplications.APPLICATION_HEALTH_LUA,
      },
    })}`;
  }

  private constructor() {}
}

function render(options: ArgoCdOptions, tenants: ArgoCdTenantFolder[]): GitOpsFile[] {
  const prefix = options.namePrefix ?? 'tenancy';
  const base = options.path.replace(/\/+$/, '').replace(/^\.\//, '');
  const argoNamespace = options.namespace ?? 'argocd';
  const server = options.server ?? 'https://kubernetes.default.svc';
  const revision = options.targetRevision ?? 'HEAD';
  const applier = options.serviceAccountName ?? 'tenancy-applier';
  const platformAccount = `${argoNamespace}:${options.platformServiceAccountName ?? 'argocd-application-controller'}`;
  const withCluster = options.cluster ?? true;
  const join = (...parts: string[]) => parts.filter((p) => p !== '' && p !== '.').join('/') || '.';
  const metadata = (name: string, wave: number) => ({ name, namespace: argoNamespace, annotations: { [WAVE]: String(wave) } });
  const project = (name: string, wave: number, spec: { [key: string]: any }) => ({ apiVersion: ARGO, kind: 'AppProject', metadata: metadata(name, wave), spec });
  type Source = { repoURL: string; targetRevision: string; path: string };
  const application = (name: string, wave: number, projectName: string, source: Source, namespace?: string) => ({
    apiVersion: ARGO,
    kind: 'Application',
    metadata: metadata(name, wave),
    spec: {
      project: projectName,
      source,
      destination: { server, ...(namespace !== undefined ? { namespace } : {}) },
      // the fields OLM and the token controller write: never drift, never reverted (OlmWrites)
      ignoreDifferences: OlmWrites.argoCdIgnoreDifferences(),
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['RespectIgnoreDifferences=true'] },
    },
  });
  const files: Array<{ name: string; object: any }> = [];
  const add = (object: any) => files.push({ name: `${object.kind.toLowerCase()}-${object.metadata.name}.yaml`, object });

  const platformProject = `${prefix}-platform`;
  if (withCluster || options.afterInstallCluster) {
    add(project(platformProject, -1, {
      description: 'cdk8s-olm-tenancy: the platform folders (cluster/), synced as Argo CD\'s own controller: the one identity that reaches beyond the tenants',
      sourceRepos: [options.repoUrl],
      destinations: [{ server, namespace: '*' }],
      clusterResourceWhitelist: [{ group: '*', kind: '*' }],
      destinationServiceAccounts: [{ server, namespace: '*', defaultServiceAccount: platformAccount }],
    }));
  }
  if (withCluster) add(application(`${prefix}-cluster`, 0, platformProject, { repoURL: options.repoUrl, targetRevision: revision, path: join(base, 'cluster') }));
  const sorted = [...tenants].sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
  for (const t of sorted) {
    const ns = t.namespace;
    const namespaces = [...new Set([ns, ...(t.namespaces ?? [])])];
    const clusterKinds = [...(t.clusterKinds ?? [])].sort((a, b) => (`${a.group}/${a.kind}` < `${b.group}/${b.kind}` ? -1 : 1));
    const tenantProject = (name: string, description: string, repos: string[], account: string) => project(name, -1, {
      description,
      sourceRepos: repos,
      destinations: namespaces.map((n) => ({ server, namespace: n })),
      ...(clusterKinds.length > 0 ? { clusterResourceWhitelist: clusterKinds.map((k) => ({ group: k.group, kind: k.kind })) } : {}),
      destinationServiceAccounts: namespaces.map((n) => ({ server, namespace: n, defaultServiceAccount: `${ns}:${account}` })),
    });
    const name = `${prefix}-tenant-${ns}`;
    add(tenantProject(name, `cdk8s-olm-tenancy: the folders of tenant ${ns}, synced as ServiceAccount ${ns}/${applier}`,
      options.sourceRepos ?? [options.repoUrl], applier));
    add(application(name, 1, name, { repoURL: options.repoUrl, targetRevision: revision, path: join(base, 'tenants', ns) }, ns));
    if (t.afterInstall) {
      add(application(`${name}-after-install`, 2, name, { repoURL: options.repoUrl, targetRevision: revision, path: join(base, 'after-install', 'tenants', ns) }, ns));
    }
    const self = t.selfService;
    if (self) {
      const selfName = `${name}-self-service`;
      add(tenantProject(selfName, `cdk8s-olm-tenancy: the own repository of tenant ${ns}, synced as ServiceAccount ${ns}/${self.serviceAccountName}`,
        [self.url], self.serviceAccountName));
      add(application(selfName, 2, selfName, { repoURL: self.url, targetRevision: self.branch ?? 'HEAD', path: self.path ?? '.' }, ns));
    }
  }
  if (options.afterInstallCluster) {
    add(application(`${prefix}-cluster-after-install`, 3, platformProject, { repoURL: options.repoUrl, targetRevision: revision, path: join(base, 'after-install', 'cluster') }));
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header = '# Argo CD: generated by cdk8s-olm-tenancy (docs/gitops.md "Argo CD"); point one Application at this folder.\n';
  return [
    {
      path: `${ArgoCdApplications.FOLDER}/kustomization.yaml`,
      content: header + YamlWriter.document({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: files.map((f) => f.name) }),
    },
    ...files.map((f) => ({ path: `${ArgoCdApplications.FOLDER}/${f.name}`, content: YamlWriter.document(f.object) })),
    { path: ArgoCdApplications.CONFIG_FILE, content: ArgoCdApplications.configMapPatch(argoNamespace) },
  ];
}
