/**
 * Writing one synthesis as the GitOps layout (`GitOpsLayout`) with the GitOps tools' files beside it (Argo CD's
 * ignore-differences and health checks, Flux Kustomizations), into a staging folder that `writeSynthOutput` swaps in.
 * `TenancyApp` hands over the charts' ApiObjects and what only the constructs know (who owns an object, which CSVs are
 * pinned); the rest is here, next to the layout it writes. Internal, not re-exported.
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ArgoCdApplications } from './argocd-applications';
import { ArgoCdClusterKind, ArgoCdOptions } from './argocd-applications-props';
import { ArgoCdOperatorPatch } from './argocd-operator-patch';
import type { ChartApiObjects } from './cdk8s-files';
import { FluxKustomizations } from './flux-kustomizations';
import { FluxOptions, GitOpsSelfService } from './flux-kustomizations-props';
import { GitOpsFile, GitOpsLayout } from './gitops-layout';
import { LayoutEntry, LayoutSource } from './gitops-layout-entries';
import { GitOpsObject } from './gitops-layout-props';
import { OlmHealthChecks } from './olm-health-checks';
import { OlmWrites } from './olm-writes';
import { isFileSystemError, OutputWriter, removeEntry } from './output-writer';
import { YamlWriter } from './yaml-writer';
import { L1Json } from '../core/l1-json';
import { SynthPass } from '../core/synth-pass';

/** Who owns an object, as the layout reads it (`GitOpsObject.tenant`, `tenantNamespaces`). */
export interface LayoutOwner {
  readonly tenant?: string;
  readonly tenantNamespaces?: string[];
  /** Applied by the platform although it is the tenant's (`GitOpsObject.appliedByPlatform`). */
  readonly platform?: boolean;
}

/** What the GitOps tools' objects need to know of a tenant folder besides its name. */
export interface TenantToolFacts {
  /** Every namespace of the folder, the home namespace first. */
  readonly namespaces: string[];
  /** The cluster-scoped kinds the folder holds (an OLM v1 team's ClusterExtensions). */
  readonly clusterKinds: ArgoCdClusterKind[];
  /** The tenant's own repository, if any. */
  readonly selfService?: GitOpsSelfService;
}

/** What the GitOps writer needs besides the objects. */
export interface GitOpsWriteOptions {
  /** Argo CD sync waves (`TenancyAppProps.syncWaves`). */
  readonly syncWaves: boolean;
  /** Write `argocd/health-checks.yaml`. */
  readonly argoCdHealthChecks: boolean;
  /** Write `flux/`. */
  readonly flux?: FluxOptions;
  /** Write `argocd/apps/` and `argocd/apps-config.yaml`. */
  readonly argoCd?: ArgoCdOptions;
  /** Per tenant folder (home namespace), what the tools' objects need (asked only with `flux` or `argoCd`). */
  readonly tenantTools?: () => Map<string, TenantToolFacts>;
  /** The owner of an object (the closest tenant construct above it). */
  readonly ownerOf: (apiObject: ApiObject) => LayoutOwner;
  /** Per tenant namespace, the ClusterServiceVersions its Manual subscriptions pin (asked only with `flux`). */
  readonly pinnedCsvs: () => Map<string, string[]>;
}

/** The layout's own entries in the output directory: replaced as a whole by every GitOps synth. */
export const GITOPS_ENTRIES: readonly string[] = ['kustomization.yaml', GitOpsLayout.CLUSTER_FOLDER, GitOpsLayout.TENANTS_FOLDER,
  GitOpsLayout.AFTER_INSTALL_FOLDER, 'argocd', FluxKustomizations.FOLDER];

/**
 * The GitOps layout of this pass's objects, written with `out` (a writer of the staging folder; the caller swaps it in
 * once TENANCY.md and WARNINGS.txt are there too); returns the number of objects and the writer of what was written.
 * The layout's own entries (`GITOPS_ENTRIES`) then replace the old ones as a whole, so a tenant removed from the App
 * disappears from the output instead of lingering for the GitOps tool to apply.
 */
export function writeGitOps(perChart: ChartApiObjects[], staging: string, options: GitOpsWriteOptions): { objects: number; out: OutputWriter } {
  // First from each ApiObject's identity, its JSON computed only when its folder is written (the JSON of every
  // object at once is what set the peak memory at 5,000 tenants, docs/scale.md). When an object's JSON says
  // otherwise (an `addJsonPatch` or a token changed its kind, name or namespace), or the layout fails, the staging
  // folder is made afresh from every object's JSON, which writes the same files or reports the error. An error of
  // the file system (a full disk, a name too long, no permission) is reported as is: written again, it would fail
  // again, and nothing outside the staging folder has been touched.
  try {
    const out = new OutputWriter(staging, { staging: true });
    return { objects: writeGitOpsStreaming(perChart, out, options), out };
  } catch (e) {
    removeEntry(staging);
    if (isFileSystemError(e)) throw e;
  }
  const out = new OutputWriter(staging, { staging: true });
  return { objects: writeGitOpsFromJson(perChart, out, options), out };
}

/**
 * The GitOps layout written with `out`, chart by chart, each object's JSON made when its folder is written.
 * The entries are made afresh each time the layout asks for a chart's (cheap: no JSON), so none is held for long.
 */
function writeGitOpsStreaming(perChart: ChartApiObjects[], out: OutputWriter, options: GitOpsWriteOptions): number {
  const source: LayoutSource = {
    groups: perChart.length,
    entries: (g) => layoutEntries(perChart[g].apiObjects, options.ownerOf),
  };
  const write = tenantFolders((f) => out.write(f.path, f.content));
  GitOpsLayout._emitGroups(source, { syncWaves: options.syncWaves }, write);
  for (const f of gitOpsToolFiles(write, options)) write(f);
  return perChart.reduce((n, c) => n + c.apiObjects.length, 0);
}

/** The GitOps layout made from every object's JSON at once, written with `out` (see `writeGitOps`). */
function writeGitOpsFromJson(perChart: ChartApiObjects[], out: OutputWriter, options: GitOpsWriteOptions): number {
  const written = new Map<IConstruct, { identity: string; chart: Chart }>();
  const manifests: Array<{ apiObject: ApiObject; chart: Chart; manifest: any }> = [];
  for (const { chart, apiObjects } of perChart) {
    for (const apiObject of apiObjects) {
      const manifest = L1Json.of(apiObject);
      written.set(apiObject, { identity: GitOpsLayout.identity(manifest), chart });
      manifests.push({ apiObject, chart, manifest });
    }
  }
  const input: GitOpsObject[] = manifests.map(({ apiObject, chart, manifest }) => {
    const dependsOn = dependenciesInChart(apiObject, chart, written);
    const owner = options.ownerOf(apiObject);
    return {
      manifest,
      tenant: owner.tenant,
      dependsOn,
      ...(owner.tenantNamespaces ? { tenantNamespaces: owner.tenantNamespaces } : {}),
      ...(owner.platform ? { appliedByPlatform: true } : {}),
    };
  });
  // a string YAML cannot hold: `files()` throws its error (found up front, before any file)
  if (manifests.some(({ manifest }) => YamlWriter.unrepresentable(manifest) !== undefined)) {
    GitOpsLayout.files(input, { syncWaves: options.syncWaves });
  }
  const write = tenantFolders((f) => out.write(f.path, f.content));
  GitOpsLayout._emitFiles(input, { syncWaves: options.syncWaves }, write);
  for (const f of gitOpsToolFiles(write, options)) write(f);
  return manifests.length;
}

/**
 * The GitOps tools' files beside the layout: `argocd/ignore-differences.yaml`, `argocd/health-checks.yaml` and
 * `argocd/argocd-operator-patch.yaml` (unless `argoCdHealthChecks: false`) and, with `flux`, the `flux/`
 * Kustomizations of the tenant folders written.
 */
function gitOpsToolFiles(written: LayoutFolders, options: GitOpsWriteOptions): GitOpsFile[] {
  const files = [{ path: 'argocd/ignore-differences.yaml', content: OlmWrites.argoCdSnippet() }];
  if (options.argoCdHealthChecks) {
    files.push({ path: 'argocd/health-checks.yaml', content: OlmHealthChecks.argoCdConfigMapPatch() });
    // the same checks, and the ignored differences, as fields of argocd-operator's (OpenShift GitOps') ArgoCD resource
    files.push({ path: 'argocd/argocd-operator-patch.yaml', content: ArgoCdOperatorPatch.yaml() });
  }
  const tools = options.flux || options.argoCd ? options.tenantTools?.() ?? new Map<string, TenantToolFacts>() : new Map<string, TenantToolFacts>();
  const afterInstall = new Set(written.afterInstallTenants);
  if (options.flux) {
    // Flux also waits for the ClusterServiceVersions pinned with Manual approval, by name (an Automatic subscription
    // moves on to newer CSVs, and the pinned one is then deleted): a tenant's in its folder, the others (a
    // GlobalOperatorInstall's) with cluster/
    const pinned = options.pinnedCsvs();
    const tenantNamespaces = new Set(written.tenants);
    const clusterOperators = written.cluster
      ? [...pinned].filter(([ns]) => !tenantNamespaces.has(ns)).flatMap(([namespace, names]) => names.map((name) => ({ namespace, name })))
      : [];
    const fluxOptions = { ...options.flux, cluster: written.cluster, afterInstallCluster: written.afterInstallCluster, clusterOperators };
    files.push(...FluxKustomizations.files(fluxOptions,
      written.tenants.map((namespace) => ({
        namespace,
        clusterServiceVersions: pinned.get(namespace),
        afterInstall: afterInstall.has(namespace),
        ...(tools.get(namespace)?.selfService ? { selfService: tools.get(namespace)!.selfService } : {}),
      }))));
  }
  if (options.argoCd) {
    files.push(...ArgoCdApplications.files({ ...options.argoCd, cluster: written.cluster, afterInstallCluster: written.afterInstallCluster },
      written.tenants.map((namespace) => {
        const facts = tools.get(namespace);
        return {
          namespace,
          namespaces: facts?.namespaces ?? [namespace],
          clusterKinds: facts?.clusterKinds ?? [],
          afterInstall: afterInstall.has(namespace),
          ...(facts?.selfService ? { selfService: facts.selfService } : {}),
        };
      })));
  }
  return files;
}

/**
 * A file writer that also records the layout's folders written: `cluster/` and `tenants/<namespace>/`, and the same
 * under `after-install/`.
 */
function tenantFolders(write: (f: GitOpsFile) => void): ((f: GitOpsFile) => void) & LayoutFolders {
  const tracked = Object.assign((f: GitOpsFile) => {
    // only a folder's kustomization says the folder was written (one file in nine: the others are not split)
    if (f.path === 'kustomization.yaml' || f.path.endsWith('/kustomization.yaml')) {
      const parts = f.path.split('/');
      const after = parts[0] === GitOpsLayout.AFTER_INSTALL_FOLDER;
      const rest = after ? parts.slice(1) : parts;
      if (rest.length === 3 && rest[0] === GitOpsLayout.TENANTS_FOLDER) (after ? tracked.afterInstallTenants : tracked.tenants).push(rest[1]);
      if (rest.length === 2 && rest[0] === GitOpsLayout.CLUSTER_FOLDER) {
        if (after) tracked.afterInstallCluster = true;
        else tracked.cluster = true;
      }
    }
    write(f);
  }, { tenants: [] as string[], cluster: false, afterInstallTenants: [] as string[], afterInstallCluster: false });
  return tracked;
}

interface LayoutFolders {
  tenants: string[];
  cluster: boolean;
  afterInstallTenants: string[];
  afterInstallCluster: boolean;
}

/** The layout's entries of one chart's objects: identity and owner from the constructs, the JSON made on demand. */
function layoutEntries(apiObjects: ApiObject[], ownerOf: (apiObject: ApiObject) => LayoutOwner): LayoutEntry[] {
  const identities = new Map<IConstruct, string>();
  for (const apiObject of apiObjects) {
    // `identityOf` of its parts
    identities.set(apiObject, `${apiObject.apiVersion}/${apiObject.kind}/${apiObject.metadata.namespace ?? ''}/${apiObject.name ?? ''}`);
  }
  const entries = new Array<LayoutEntry>(apiObjects.length);
  for (let i = 0; i < apiObjects.length; i++) entries[i] = new ApiObjectEntry(apiObjects[i], identities, ownerOf(apiObjects[i]));
  return entries;
}

/**
 * The layout entry of an ApiObject: identity and owner read from the constructs, its JSON made when its folder is
 * written. A class (one shape, the `manifest` method shared) rather than a literal with a closure per object: the
 * entries are made again for each step of the layout.
 */
class ApiObjectEntry implements LayoutEntry {
  public readonly apiVersion: string;
  public readonly kind: string;
  public readonly namespace?: string;
  public readonly name?: string;
  public readonly tenant?: string;
  public readonly tenantNamespaces?: string[];
  public readonly platform?: boolean;
  public readonly dependsOn: string[];
  private readonly apiObject: ApiObject;

  /** `identities`: the identities of the chart's objects (dependencies on other charts' objects are left out). */
  constructor(apiObject: ApiObject, identities: Map<IConstruct, string>, owner: LayoutOwner) {
    this.apiVersion = apiObject.apiVersion;
    this.kind = apiObject.kind;
    this.namespace = apiObject.metadata.namespace;
    this.name = apiObject.name;
    this.tenant = owner.tenant;
    this.tenantNamespaces = owner.tenantNamespaces;
    this.platform = owner.platform;
    this.dependsOn = dependenciesAmong(apiObject, identities);
    this.apiObject = apiObject;
  }

  public manifest(): any {
    return SynthPass.takeJson(this.apiObject);
  }
}

/** The identities of the objects `apiObject` depends on that `identities` has (its chart's), in dependency order. */
function dependenciesAmong(apiObject: ApiObject, identities: Map<IConstruct, string>): string[] {
  const dependsOn: string[] = [];
  for (const d of apiObject.node.dependencies) {
    const identity = identities.get(d);
    if (identity !== undefined) dependsOn.push(identity);
  }
  return dependsOn;
}

/**
 * Identities of the objects `apiObject` depends on, only inside its chart: `resolveDependencies` turns a cross-chart
 * dependency into "every object of chart A after every object of chart B", which says nothing about these two
 * objects (kind waves order e.g. a CuratedCatalog's CatalogSource after the tenant's Namespace).
 */
function dependenciesInChart(apiObject: ApiObject, chart: Chart, identities: Map<IConstruct, { identity: string; chart: Chart }>): string[] {
  const dependsOn: string[] = [];
  for (const d of apiObject.node.dependencies) {
    const target = identities.get(d);
    if (target !== undefined && target.chart === chart) dependsOn.push(target.identity);
  }
  return dependsOn;
}
