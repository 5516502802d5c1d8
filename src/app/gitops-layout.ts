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

/**
 * What the layout needs of an object before its JSON: the parts of its identity and its owner. `TenancyApp` takes
 * them from the `ApiObject` and computes the JSON only when the object's folder is written, so that the JSON of
 * 40,000 objects is never alive at once (what sets peak memory at scale, docs/scale.md).
 * @internal
 */
export interface LayoutEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly tenant?: string;
  readonly tenantNamespaces?: string[];
  readonly dependsOn?: string[];
  /** The object (JSON), called once, when its folder is written. */
  readonly manifest: () => any;
}

/**
 * Thrown by `_emitEntries` when an object's JSON does not have the identity its entry announced (an `addJsonPatch`
 * or a token changed it) or fails the input checks: the caller lays the objects out from their JSON instead.
 * @internal
 */
export class LayoutEntryMismatch extends Error {
  constructor(public readonly detail: string) {
    super(`GitOps layout entry differs from its object: ${detail}`);
    this.name = 'LayoutEntryMismatch';
  }
}

/** Where one object goes, and how it is labelled. */
interface Placed {
  readonly index: number;
  readonly entry: LayoutEntry;
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
    const entries = objects.map((o): LayoutEntry => {
      const m = o.manifest;
      return {
        apiVersion: m.apiVersion,
        kind: m.kind,
        namespace: m.metadata?.namespace,
        name: m.metadata?.name,
        tenant: o.tenant,
        tenantNamespaces: o.tenantNamespaces,
        dependsOn: o.dependsOn,
        manifest: () => m,
      };
    });
    emitPlaced(entries, options, emit);
  }

  /**
   * The files of `files()` for objects given by their identity and owner, each object's JSON computed when its folder
   * is written. Throws `LayoutEntryMismatch` (before or after some files were emitted) when an object's JSON has
   * another identity than its entry or fails `files()`'s input checks, and whatever the YAML writer throws: the
   * caller writes to a staging folder and, on any error, lays out the JSON with `files()` (which reports it as usual).
   * @internal
   */
  public static _emitEntries(entries: LayoutEntry[], options: GitOpsLayoutOptions, emit: (file: GitOpsFile) => void): void {
    const check = new InputCheck();
    const checkedOptions = checkGitOpsFilesArgs(check, [], options).options;
    const checkedOwners = new Set<string>();
    for (const e of entries) {
      if (typeof e.apiVersion !== 'string' || typeof e.kind !== 'string' || !optionalString(e.namespace) || !optionalString(e.name)) {
        throw new LayoutEntryMismatch(`${String(e.kind)} ${String(e.name)}: identity parts must be strings`);
      }
      // owners repeat for every object of a tenant: check each distinct one once
      const owner = `${e.tenant ?? ''}\n${(e.tenantNamespaces ?? []).join('\n')}\n${(e.dependsOn ?? []).every((d) => typeof d === 'string')}`;
      if (checkedOwners.has(owner)) continue;
      checkedOwners.add(owner);
      checkGitOpsFilesArgs(check, [{ manifest: { apiVersion: 'v1', kind: 'Entry' }, tenant: e.tenant, tenantNamespaces: e.tenantNamespaces, dependsOn: e.dependsOn }], {});
    }
    if (check.errors.length > 0) throw new LayoutEntryMismatch(check.errors[0].message);
    emitPlaced(entries, checkedOptions, emit, (entry, manifest) => {
      const m = check.errors.length;
      checkManifest(check, 'manifest', manifest);
      if (check.errors.length > m) throw new LayoutEntryMismatch(check.errors[m].message);
      const metadata = manifest.metadata;
      if (manifest.apiVersion !== entry.apiVersion || manifest.kind !== entry.kind
        || metadata?.namespace !== entry.namespace || metadata?.name !== entry.name) {
        throw new LayoutEntryMismatch(`${GitOpsLayout.identity(manifest)} was announced as ${entry.apiVersion}/${entry.kind}/${entry.namespace ?? ''}/${entry.name ?? ''}`);
      }
    });
  }
}

function optionalString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

/** Places the entries and emits each folder's files, then the kustomizations of `tenants/` and the root. */
function emitPlaced(entries: LayoutEntry[], options: GitOpsLayoutOptions, emit: (file: GitOpsFile) => void,
  verify?: (entry: LayoutEntry, manifest: any) => void): void {
  const managedBy = options.managedBy ?? GitOpsLayout.MANAGED_BY;
  const placed = place(entries);

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
      const manifest = p.entry.manifest();
      verify?.(p.entry, manifest);
      const name = uniqueFileName(fileBase(manifest, folder === GitOpsLayout.CLUSTER_FOLDER), used);
      names.push(name);
      emit({ path: `${folder}/${name}`, content: YamlWriter.document(decorate(manifest, p, managedBy, options.syncWaves === true)) });
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

/** Folder, tenant label, wave and dependencies of every object. */
function place(objects: LayoutEntry[]): Placed[] {
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
    // GitOpsLayout.identity of the object
    const id = `${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name ?? ''}`;
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
    const o = objects[i];
    let wave = GitOpsLayout.kindWave(o.apiVersion, o.kind);
    for (const d of deps[i]) wave = Math.max(wave, waveOf(d));
    visiting.delete(i);
    waves[i] = wave;
    return wave;
  };

  return objects.map((o, i) => {
    const namespace = o.namespace;
    // An OLM v1 team's ClusterExtensions (cluster-scoped) live in the team's folder: the team writes them.
    const teamExtension = o.tenant !== undefined && o.kind === 'ClusterExtension' && o.apiVersion.startsWith('olm.operatorframework.io/');
    const isNamespace = o.apiVersion === 'v1' && o.kind === 'Namespace';
    const name = o.name;
    const home = namespace === undefined
      ? (isNamespace && name !== undefined && tenants.has(name) ? name
        : isNamespace && name !== undefined && otherNamespaceOf.has(name) ? otherNamespaceOf.get(name)
          : teamExtension ? o.tenant : undefined)
      : (tenants.has(namespace) ? namespace : otherNamespaceOf.get(namespace));
    return {
      index: i,
      entry: o,
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

/**
 * A copy of the object with the common labels (and sync wave), metadata keys sorted like cdk8s's output.
 *
 * Copies are built key by key from `{}`, not by spreading: on Node 20's V8 an object spread followed by more keys
 * makes new hidden classes on every call, allocated in the old generation (what set the GitOps layout's peak memory
 * at 5,000 tenants, docs/scale.md).
 */
function decorate(manifest: any, p: Placed, managedBy: string, syncWaves: boolean): any {
  const metadata = copyOf(manifest.metadata ?? {});
  const labels: { [key: string]: string } = copyOf(metadata.labels ?? {});
  labels[GitOpsLayout.MANAGED_BY_LABEL] ??= managedBy;
  if (p.tenantLabel !== undefined) labels[GitOpsLayout.TENANT_LABEL] ??= p.tenantLabel;
  metadata.labels = sortKeys(labels);
  if (syncWaves) {
    const annotations = copyOf(metadata.annotations ?? {});
    annotations[GitOpsLayout.SYNC_WAVE_ANNOTATION] = String(p.wave);
    metadata.annotations = sortKeys(annotations);
  }
  const out = copyOf(manifest);
  out.metadata = sortKeys(metadata);
  return out;
}

/** `{ ...o }`: own enumerable string keys in order (`__proto__` as a plain key, as a spread copies it). */
function copyOf(o: { [key: string]: any }): { [key: string]: any } {
  const out: { [key: string]: any } = {};
  for (const k of Object.keys(o)) setKey(out, k, o[k]);
  return out;
}

function sortKeys<T>(o: { [key: string]: T }): { [key: string]: T } {
  const out: { [key: string]: T } = {};
  for (const k of Object.keys(o).sort(compare)) setKey(out, k, o[k]);
  return out;
}

/** `o[k] = v`, except that `__proto__` becomes an own key instead of replacing the prototype. */
function setKey(o: { [key: string]: any }, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
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
