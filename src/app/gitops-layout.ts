/**
 * The GitOps layout: the synthesized objects as a folder tree a GitOps tool (Argo CD, Flux, `kubectl apply -k`)
 * applies as is.
 *
 * ```
 * kustomization.yaml                 cluster, then tenants
 * cluster/kustomization.yaml         OperatorHub policy, admission policies, opted-in ClusterRoles/Bindings, ...
 * cluster/<kind>-[<namespace>-]<name>.yaml
 * tenants/kustomization.yaml         every tenant folder, sorted by name
 * tenants/<namespace>/kustomization.yaml
 * tenants/<namespace>/<kind>-<name>.yaml    (also an OLM v1 team's ClusterExtensions, in its first namespace's folder)
 * argocd/ignore-differences.yaml     (see OlmWrites)
 * ```
 *
 * Pure: no construct dependency; `TenancyApp` feeds it the objects of one synthesis.
 */
import { GitOpsLayoutOptions, GitOpsObject } from './gitops-layout-props';
import { checkGitOpsFilesArgs, checkKindWaveArgs, checkManifest } from './input-checks';
import { YamlWriter } from './yaml-writer';
import { InputCheck, throwIfInvalid } from '../core/input';

/** One file of the layout. */
export interface GitOpsFile {
  /** Path relative to the output directory, `/`-separated. */
  readonly path: string;
  /** File content (YAML). */
  readonly content: string;
}

/** Where one object goes, and how it is labelled. */
interface Placed {
  readonly index: number;
  readonly manifest: any;
  readonly folder: string;
  readonly tenantLabel?: string;
  readonly wave: number;
  readonly deps: number[];
}

/**
 * Lays out synthesized objects as `cluster/` and `tenants/<namespace>/` folders with a `kustomization.yaml` each.
 *
 * - A tenant folder holds the tenant's Namespace and every object in the tenant's namespace, whoever created it
 *   (so the CatalogSource a `CuratedCatalog` serves there lands beside the tenant's Subscriptions). Tenant
 *   namespaces are the `tenant` values of the input.
 * - `cluster/` holds everything else: cluster-scoped objects (OperatorHub, admission policies, a tenant's opted-in
 *   ClusterRoles and ClusterRoleBindings) and objects in other namespaces (e.g. a tenant's Role in `kube-system`).
 *   A folder per scope lets the platform team review `cluster/` separately, and lets a tenant-scoped Argo CD
 *   AppProject or Flux service account apply `tenants/<namespace>/`.
 * - Every object gets `app.kubernetes.io/managed-by`; tenant objects (also a tenant's objects in `cluster/`) get
 *   `cdk8s-olm-tenancy.io/tenant: <namespace>`, so a tool can prune or select one tenant's objects.
 * - Files are named `<kind>-<name>.yaml` (`<kind>-<namespace>-<name>.yaml` for namespaced objects in `cluster/`),
 *   lower case, without an order prefix: adding an object never renames the others, so Git diffs stay small. The
 *   apply order is the order of `resources` in each `kustomization.yaml` (`sortOptions.order: fifo`, kustomize
 *   >= 5.0): by sync wave, then dependencies, then synthesis order.
 */
export class GitOpsLayout {
  /** The label every object gets: `app.kubernetes.io/managed-by`. */
  public static readonly MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
  /** Default value of the managed-by label. */
  public static readonly MANAGED_BY = 'cdk8s-olm-tenancy';
  /** The label naming the owning tenant's namespace. */
  public static readonly TENANT_LABEL = 'cdk8s-olm-tenancy.io/tenant';
  /** Argo CD's sync-wave annotation. */
  public static readonly SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';
  /** The folder of cluster-scoped and platform objects. */
  public static readonly CLUSTER_FOLDER = 'cluster';
  /** The folder holding one folder per tenant namespace. */
  public static readonly TENANTS_FOLDER = 'tenants';

  /**
   * The sync wave of a kind, before dependencies raise it:
   * 2 for `Subscription`; 1 for `CatalogSource`, `OperatorGroup` and OLM v1's `ClusterExtension`; 0 for everything else (Namespace,
   * ServiceAccount, token Secret, RBAC, cluster policies).
   *
   * OLM resolves a Subscription only in a namespace with exactly one synced OperatorGroup, and the OperatorGroup
   * syncs only once its ServiceAccount exists. Applied in one batch, the InstallPlan raced the OperatorGroup:
   * operator-lifecycle-manager PR #2077 made it fail for good ("invalid operator group"), PR #2215 turned that back
   * into retries, bounded by the work queue's retry limit. Waves make the order explicit.
   */
  public static kindWave(apiVersion: string, kind: string): number {
    const check = new InputCheck();
    checkKindWaveArgs(check, apiVersion, kind);
    throwIfInvalid(check, 'GitOpsLayout.kindWave');
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    // OLM v1: a ClusterExtension after its Namespace and the team's admission policy (wave 0).
    if (group === 'olm.operatorframework.io' && kind === 'ClusterExtension') return 1;
    if (group !== 'operators.coreos.com') return 0;
    if (kind === 'Subscription') return 2;
    if (kind === 'CatalogSource' || kind === 'OperatorGroup') return 1;
    return 0;
  }

  /** The identity of an object: `<apiVersion>/<kind>/<namespace>/<name>` (empty namespace when cluster-scoped). */
  public static identity(manifest: any): string {
    const check = new InputCheck();
    checkManifest(check, 'manifest', manifest);
    throwIfInvalid(check, 'GitOpsLayout.identity');
    return `${manifest.apiVersion}/${manifest.kind}/${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name ?? ''}`;
  }

  /**
   * The files of the layout, sorted by path. Deterministic: the same objects in the same order give the same
   * bytes. The input objects are not modified.
   */
  public static files(objects: GitOpsObject[], options: GitOpsLayoutOptions = {}): GitOpsFile[] {
    const files: GitOpsFile[] = [];
    GitOpsLayout._emitFiles(objects, options, (f) => files.push(f));
    return files.sort((a, b) => compare(a.path, b.path));
  }

  /**
   * The files of `files()`, handed to `emit` one at a time (folder by folder, unsorted) once the input is checked,
   * so that `TenancyApp` writes a large layout without holding every file's text in memory.
   * @internal
   */
  public static _emitFiles(objects: GitOpsObject[], options: GitOpsLayoutOptions, emit: (file: GitOpsFile) => void): void {
    const check = new InputCheck();
    ({ objects, options } = checkGitOpsFilesArgs(check, objects, options));
    throwIfInvalid(check, 'GitOpsLayout.files');
    const managedBy = options.managedBy ?? GitOpsLayout.MANAGED_BY;
    const placed = place(objects);

    const folders = new Map<string, Placed[]>();
    for (const p of placed) {
      const list = folders.get(p.folder);
      if (list) list.push(p);
      else folders.set(p.folder, [p]);
    }

    for (const [folder, members] of folders) {
      const used = new Set<string>();
      const names: string[] = [];
      for (const p of applyOrder(members)) {
        const name = uniqueFileName(fileBase(p.manifest, folder === GitOpsLayout.CLUSTER_FOLDER), used);
        names.push(name);
        const manifest = decorate(p, managedBy, options.syncWaves === true);
        emit({ path: `${folder}/${name}`, content: YamlWriter.document(manifest) });
      }
      emit({ path: `${folder}/kustomization.yaml`, content: kustomization(names) });
    }

    const tenants = [...folders.keys()].filter((f) => f.startsWith(`${GitOpsLayout.TENANTS_FOLDER}/`))
      .map((f) => f.slice(GitOpsLayout.TENANTS_FOLDER.length + 1)).sort();
    if (tenants.length > 0) emit({ path: `${GitOpsLayout.TENANTS_FOLDER}/kustomization.yaml`, content: kustomization(tenants) });
    const top: string[] = [];
    if (folders.has(GitOpsLayout.CLUSTER_FOLDER)) top.push(GitOpsLayout.CLUSTER_FOLDER);
    if (tenants.length > 0) top.push(GitOpsLayout.TENANTS_FOLDER);
    emit({ path: 'kustomization.yaml', content: kustomization(top) });
  }
}

/** Folder, tenant label, wave and dependencies of every object. */
function place(objects: GitOpsObject[]): Placed[] {
  const tenants = new Set<string>();
  for (const o of objects) if (o.tenant) tenants.add(o.tenant);
  // a tenant's other namespaces (an OLM v1 team's): their objects go to the tenant's folder
  const otherNamespaceOf = new Map<string, string>();
  for (const o of objects) {
    if (!o.tenant) continue;
    for (const ns of o.tenantNamespaces ?? []) if (!tenants.has(ns) && !otherNamespaceOf.has(ns)) otherNamespaceOf.set(ns, o.tenant);
  }

  const byIdentity = new Map<string, number>();
  objects.forEach((o, i) => {
    const id = GitOpsLayout.identity(o.manifest);
    if (!byIdentity.has(id)) byIdentity.set(id, i);
  });
  const deps = objects.map((o, i) => [...new Set((o.dependsOn ?? [])
    .map((d) => byIdentity.get(d))
    .filter((d): d is number => d !== undefined && d !== i))]);

  // wave = max(kind wave, waves of the dependencies); a dependency cycle (not produced by cdk8s) is cut.
  const waves = new Array<number | undefined>(objects.length);
  const visiting = new Set<number>();
  const waveOf = (i: number): number => {
    const known = waves[i];
    if (known !== undefined) return known;
    if (visiting.has(i)) return 0;
    visiting.add(i);
    const m = objects[i].manifest;
    let wave = GitOpsLayout.kindWave(String(m.apiVersion ?? ''), String(m.kind ?? ''));
    for (const d of deps[i]) wave = Math.max(wave, waveOf(d));
    visiting.delete(i);
    waves[i] = wave;
    return wave;
  };

  return objects.map((o, i) => {
    const m = o.manifest;
    const namespace: string | undefined = m.metadata?.namespace;
    // An OLM v1 team's ClusterExtensions (cluster-scoped) live in the team's folder: the team writes them.
    const teamExtension = o.tenant !== undefined && m.kind === 'ClusterExtension' && String(m.apiVersion).startsWith('olm.operatorframework.io/');
    const isNamespace = m.apiVersion === 'v1' && m.kind === 'Namespace';
    const home = namespace === undefined
      ? (isNamespace && tenants.has(m.metadata?.name) ? m.metadata.name
        : isNamespace && otherNamespaceOf.has(m.metadata?.name) ? otherNamespaceOf.get(m.metadata.name)
          : teamExtension ? o.tenant : undefined)
      : (tenants.has(namespace) ? namespace : otherNamespaceOf.get(namespace));
    return {
      index: i,
      manifest: m,
      folder: home === undefined ? GitOpsLayout.CLUSTER_FOLDER : `${GitOpsLayout.TENANTS_FOLDER}/${home}`,
      tenantLabel: o.tenant ?? home,
      wave: waveOf(i),
      deps: deps[i],
    };
  });
}

/**
 * A folder's objects in apply order: a topological order of the dependencies inside the folder that always takes
 * the lowest (wave, synthesis index) available next.
 */
function applyOrder(members: Placed[]): Placed[] {
  const inFolder = new Map<number, Placed>(members.map((p) => [p.index, p]));
  const waiting = new Map<number, number>();
  const dependents = new Map<number, number[]>();
  for (const p of members) {
    const local = p.deps.filter((d) => inFolder.has(d));
    waiting.set(p.index, local.length);
    for (const d of local) {
      const list = dependents.get(d);
      if (list) list.push(p.index);
      else dependents.set(d, [p.index]);
    }
  }
  const before = (a: Placed, b: Placed) => (a.wave - b.wave) || (a.index - b.index);
  const heap = new MinHeap<Placed>(before);
  for (const p of members) if (waiting.get(p.index) === 0) heap.push(p);
  const out: Placed[] = [];
  while (heap.size > 0) {
    const p = heap.pop();
    out.push(p);
    for (const d of dependents.get(p.index) ?? []) {
      const left = waiting.get(d)! - 1;
      waiting.set(d, left);
      if (left === 0) heap.push(inFolder.get(d)!);
    }
  }
  if (out.length < members.length) {
    // A dependency cycle: the rest in (wave, index) order.
    const done = new Set(out.map((p) => p.index));
    out.push(...members.filter((p) => !done.has(p.index)).sort(before));
  }
  return out;
}

/** A copy of the object with the common labels (and sync wave), metadata keys sorted like cdk8s's output. */
function decorate(p: Placed, managedBy: string, syncWaves: boolean): any {
  const metadata = { ...(p.manifest.metadata ?? {}) };
  const labels: { [key: string]: string } = { ...(metadata.labels ?? {}) };
  labels[GitOpsLayout.MANAGED_BY_LABEL] ??= managedBy;
  if (p.tenantLabel !== undefined) labels[GitOpsLayout.TENANT_LABEL] ??= p.tenantLabel;
  metadata.labels = sortKeys(labels);
  if (syncWaves) {
    metadata.annotations = sortKeys({ ...(metadata.annotations ?? {}), [GitOpsLayout.SYNC_WAVE_ANNOTATION]: String(p.wave) });
  }
  return { ...p.manifest, metadata: sortKeys(metadata) };
}

function sortKeys<T>(o: { [key: string]: T }): { [key: string]: T } {
  const out: { [key: string]: T } = {};
  for (const k of Object.keys(o).sort(compare)) out[k] = o[k];
  return out;
}

/** `<kind>-[<namespace>-]<name>`, lower case, characters outside `[a-z0-9.-]` as `-`. */
function fileBase(manifest: any, withNamespace: boolean): string {
  const parts = [String(manifest.kind ?? 'object')];
  if (withNamespace && manifest.metadata?.namespace !== undefined) parts.push(String(manifest.metadata.namespace));
  parts.push(String(manifest.metadata?.name ?? 'unnamed'));
  return parts.join('-').toLowerCase().replace(/[^a-z0-9.-]/g, '-');
}

/** `<base>.yaml`, or `<base>-2.yaml`, `-3`, ... when taken (names that differ only in case or symbols). */
function uniqueFileName(base: string, used: Set<string>): string {
  let name = `${base}.yaml`;
  for (let n = 2; used.has(name) || name === 'kustomization.yaml'; n++) name = `${base}-${n}.yaml`;
  used.add(name);
  return name;
}

function kustomization(resources: string[]): string {
  // through YamlWriter: a tenant folder named `no`, `0x1f` or `1e3` is a string for kustomize too
  return YamlWriter.document({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources,
  });
}

/** Code-unit order (locale-independent, deterministic). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A binary min-heap. */
class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}
  public get size(): number {
    return this.items.length;
  }
  public push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = Math.floor((i - 1) / 2);
      if (this.less(a[i], a[parent]) >= 0) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }
  public pop(): T {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m]) < 0) m = l;
        if (r < a.length && this.less(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
