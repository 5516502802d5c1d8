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
import { identityOf, LayoutEntry, LayoutEntryMismatch, LayoutSource } from './gitops-layout-entries';
import { GitOpsLayoutOptions, GitOpsObject } from './gitops-layout-props';
import { checkGitOpsFilesArgs, checkKindWaveArgs, checkManifest } from './input-checks';
import { cappedName } from './output-writer';
import { YamlWriter } from './yaml-writer';
import { InputCheck, isCleanString, isObject, throwIfInvalid } from '../core/input-check';

/** One file of the layout. */
export interface GitOpsFile {
  /** Path relative to the output directory, `/`-separated. */
  readonly path: string;
  /** File content (YAML). */
  readonly content: string;
}

const SKIP_DRY_RUN = 'SkipDryRunOnMissingResource=true';
const AFTER_INSTALL_CLUSTER = 'after-install/cluster'; // AFTER_INSTALL_FOLDER/CLUSTER_FOLDER

/** Where one object goes, and how it is labelled. */
interface Placed {
  readonly index: number;
  readonly entry: LayoutEntry;
  readonly folder: string;
  readonly tenantLabel?: string;
  readonly wave: number;
  readonly deps: number[];
  /** It depends on an operator install (a Subscription or ClusterExtension): its kind may come with the operator. */
  readonly afterInstall: boolean;
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
 *   lower case, cut to 240 bytes with a hash suffix when longer (`<start>-<12 hex digits of SHA-256>.yaml`), without an order prefix: adding an object never renames the others, so Git diffs stay small. The
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
  /** Argo CD's sync-options annotation (`SkipDryRunOnMissingResource=true` on objects applied after an operator install). */
  public static readonly SYNC_OPTIONS_ANNOTATION = 'argocd.argoproj.io/sync-options';
  /** The folder of cluster-scoped and platform objects. */
  public static readonly CLUSTER_FOLDER = 'cluster';
  /** The folder holding one folder per tenant namespace. */
  public static readonly TENANTS_FOLDER = 'tenants';
  /**
   * The folder of objects that depend on an operator install (a Subscription or ClusterExtension, e.g. a custom
   * resource of the operator's CRD): `after-install/tenants/<tenant>/` and `after-install/cluster/`, applied last,
   * one Argo CD sync wave after the install, and by their own Flux Kustomization that depends on the tenant's.
   */
  public static readonly AFTER_INSTALL_FOLDER = 'after-install';

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
    return kindWaveOf(apiVersion, kind);
  }

  /** The identity of an object: `<apiVersion>/<kind>/<namespace>/<name>` (empty namespace when cluster-scoped). */
  public static identity(manifest: any): string {
    const check = new InputCheck();
    checkManifest(check, 'manifest', manifest);
    throwIfInvalid(check, 'GitOpsLayout.identity');
    const metadata = manifest.metadata;
    return identityOf({ apiVersion: manifest.apiVersion, kind: manifest.kind, namespace: metadata?.namespace, name: metadata?.name });
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
        platform: o.appliedByPlatform,
        manifest: () => m,
      };
    });
    emitPlaced(place(entries), options, emit);
  }

  /**
   * The files of `files()` for objects given by their identity and owner, group by group (a chart: objects depend
   * only on objects of their own group), each object's JSON computed when its folder is written: a folder that only
   * one group's objects go to (a tenant's, usually) is written with that group, so no list of every object is held;
   * folders several groups write to (`cluster/`, usually) are written last. The same files as `files()` of all
   * objects in group order (tested); when two objects share an identity or a dependency crosses groups, everything is
   * placed at once, as `files()` does. Throws `LayoutEntryMismatch` (before or after some files were emitted) when an
   * object's JSON has another identity than its entry or fails `files()`'s input checks, and whatever the YAML writer
   * throws: the caller writes to a staging folder and, on any error, lays out the JSON with `files()` (which reports
   * it as usual).
   * @internal
   */
  public static _emitGroups(source: LayoutSource, options: GitOpsLayoutOptions, emit: (file: GitOpsFile) => void): void {
    const check = new InputCheck();
    const checkedOptions = checkGitOpsFilesArgs(check, [], options).options;
    if (check.errors.length > 0) throw new LayoutEntryMismatch(check.errors[0].message);
    const verify = (entry: LayoutEntry, manifest: any) => verifyEntry(check, entry, manifest);

    // 1. the owners (tenants and their other namespaces), every identity once, the input checks; and what decides each
    // group's folders (a few distinct homes per group: step 2 need not make the entries again)
    const owners = new OwnerCollector();
    const identities = new Set<string>();
    let duplicated = false;
    const checkedOwners = new Set<string>();
    const homesOf: Array<Array<{ readonly probe: HomeProbe; readonly afterInstall: boolean }>> = [];
    for (let g = 0; g < source.groups; g++) {
      const entries = source.entries(g);
      const local = new Set<string>();
      const homes = new Map<string, { readonly probe: HomeProbe; readonly afterInstall: boolean }>();
      for (const e of entries) {
        checkEntry(check, e, checkedOwners);
        owners.add(e);
        const id = identityOf(e);
        local.add(id);
        if (identities.has(id)) duplicated = true;
        else identities.add(id);
        const afterInstall = dependsOnInstall(e);
        const home = homeKey(e, afterInstall);
        // what homeOf reads, and nothing else (held until the groups are written)
        if (!homes.has(home)) {
          const probe = { apiVersion: e.apiVersion, kind: e.kind, namespace: e.namespace, name: e.name, tenant: e.tenant, platform: e.platform };
          homes.set(home, { probe, afterInstall });
        }
      }
      homesOf.push([...homes.values()]);
      // a dependency on another group's object
      if (entries.some((e) => (e.dependsOn ?? []).some((d) => !local.has(d)))) duplicated = true;
    }
    identities.clear();
    if (check.errors.length > 0) throw new LayoutEntryMismatch(check.errors[0].message);
    const known = owners.result();
    if (duplicated || source.groups === 1) {
      // a dependency names an identity, which then may be another group's object (or two objects): place everything
      // at once, as files() does
      const all: LayoutEntry[] = [];
      for (let g = 0; g < source.groups; g++) all.push(...source.entries(g));
      emitPlaced(place(all, known), checkedOptions, emit, verify);
      return;
    }

    // 2. which folders more than one group writes to
    const groupOfFolder = new Map<string, number>();
    const shared = new Set<string>();
    for (let g = 0; g < source.groups; g++) {
      for (const { probe, afterInstall } of homesOf[g]) {
        const folder = homeOf(probe, known, afterInstall).folder;
        const first = groupOfFolder.get(folder);
        if (first === undefined) groupOfFolder.set(folder, g);
        else if (first !== g) shared.add(folder);
      }
    }

    // 3. each group's own folders now, the shared ones at the end
    const managedBy = checkedOptions.managedBy ?? GitOpsLayout.MANAGED_BY;
    const syncWaves = checkedOptions.syncWaves === true;
    const later = new Map<string, Placed[]>();
    let offset = 0;
    for (let g = 0; g < source.groups; g++) {
      const entries = source.entries(g);
      for (const [folder, members] of byFolder(place(entries, known, offset))) {
        if (shared.has(folder)) {
          const list = later.get(folder);
          if (list) list.push(...members);
          else later.set(folder, members);
        } else {
          emitFolder(folder, members, managedBy, syncWaves, emit, verify);
        }
      }
      offset += entries.length;
    }
    for (const [folder, members] of later) emitFolder(folder, members, managedBy, syncWaves, emit, verify);
    emitTops([...groupOfFolder.keys()], emit);
  }
}

/** `files()`'s input checks of an entry's identity and owner (each distinct owner once). */
function checkEntry(check: InputCheck, e: LayoutEntry, checkedOwners: Set<string>): void {
  if (typeof e.apiVersion !== 'string' || typeof e.kind !== 'string' || !optionalString(e.namespace) || !optionalString(e.name)) {
    throw new LayoutEntryMismatch(`${String(e.kind)} ${String(e.name)}: identity parts must be strings`);
  }
  // owners repeat for every object of a tenant: check each distinct one once
  const owner = `${e.tenant ?? ''}\n${(e.tenantNamespaces ?? []).join('\n')}\n${(e.dependsOn ?? []).every((d) => typeof d === 'string')}`;
  if (checkedOwners.has(owner)) return;
  checkedOwners.add(owner);
  checkGitOpsFilesArgs(check, [{ manifest: { apiVersion: 'v1', kind: 'Entry' }, tenant: e.tenant, tenantNamespaces: e.tenantNamespaces, dependsOn: e.dependsOn }], {});
}

/** An object's JSON must have the identity its entry announced and pass `files()`'s manifest checks. */
function verifyEntry(check: InputCheck, entry: LayoutEntry, manifest: any): void {
  // the usual case, without the checks' field names: the announced identity, every part a clean string
  if (isObject(manifest) && manifest.apiVersion === entry.apiVersion && manifest.kind === entry.kind
    && isCleanString(entry.apiVersion) && isCleanString(entry.kind)) {
    const metadata = manifest.metadata;
    if (metadata === undefined ? entry.name === undefined && entry.namespace === undefined
      : isObject(metadata) && metadata.name === entry.name && metadata.namespace === entry.namespace
        && (entry.name === undefined || isCleanString(entry.name)) && (entry.namespace === undefined || isCleanString(entry.namespace))) return;
  }
  const m = check.errors.length;
  checkManifest(check, 'manifest', manifest);
  if (check.errors.length > m) throw new LayoutEntryMismatch(check.errors[m].message);
  const metadata = manifest.metadata;
  if (manifest.apiVersion !== entry.apiVersion || manifest.kind !== entry.kind
    || metadata?.namespace !== entry.namespace || metadata?.name !== entry.name) {
    throw new LayoutEntryMismatch(`${GitOpsLayout.identity(manifest)} was announced as ${identityOf(entry)}`);
  }
}

function optionalString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

/** Emits each folder's files, then the kustomizations of `tenants/` and the root. */
function emitPlaced(placed: Placed[], options: GitOpsLayoutOptions, emit: (file: GitOpsFile) => void,
  verify?: (entry: LayoutEntry, manifest: any) => void): void {
  const managedBy = options.managedBy ?? GitOpsLayout.MANAGED_BY;
  const folders = byFolder(placed);
  for (const [folder, members] of folders) emitFolder(folder, members, managedBy, options.syncWaves === true, emit, verify);
  emitTops([...folders.keys()], emit);
}

/** The placed objects by folder, folders in order of their first object. */
function byFolder(placed: Placed[]): Map<string, Placed[]> {
  const folders = new Map<string, Placed[]>();
  for (const p of placed) {
    const list = folders.get(p.folder);
    if (list) list.push(p);
    else folders.set(p.folder, [p]);
  }
  return folders;
}

/** A folder's object files in apply order (each object's JSON made here), then its kustomization. */
function emitFolder(folder: string, members: Placed[], managedBy: string, syncWaves: boolean, emit: (file: GitOpsFile) => void,
  verify?: (entry: LayoutEntry, manifest: any) => void): void {
  const used = new Set<string>();
  const names: string[] = [];
  for (const p of applyOrder(members)) {
    const manifest = p.entry.manifest();
    verify?.(p.entry, manifest);
    const name = uniqueFileName(fileBase(manifest, folder === GitOpsLayout.CLUSTER_FOLDER || folder === AFTER_INSTALL_CLUSTER), used);
    names.push(name);
    emit({ path: `${folder}/${name}`, content: YamlWriter.document(decorate(manifest, p, managedBy, syncWaves)) });
  }
  emit({ path: `${folder}/kustomization.yaml`, content: kustomization(names) });
}

/**
 * `tenants/kustomization.yaml` (every tenant folder, sorted), the same under `after-install/`, and the root
 * `kustomization.yaml`.
 */
function emitTops(folders: string[], emit: (file: GitOpsFile) => void): void {
  const top = emitTopsUnder('', folders, emit);
  const after = `${GitOpsLayout.AFTER_INSTALL_FOLDER}/`;
  const afterTop = emitTopsUnder(after, folders.filter((f) => f.startsWith(after)).map((f) => f.slice(after.length)), emit);
  if (afterTop.length > 0) top.push(GitOpsLayout.AFTER_INSTALL_FOLDER);
  emit({ path: 'kustomization.yaml', content: kustomization(top) });
}

/** The `tenants/kustomization.yaml` of `prefix` (and `prefix`'s own kustomization when it is a subfolder); its entries. */
function emitTopsUnder(prefix: string, folders: string[], emit: (file: GitOpsFile) => void): string[] {
  const tenants = folders.filter((f) => f.startsWith(`${GitOpsLayout.TENANTS_FOLDER}/`))
    .map((f) => f.slice(GitOpsLayout.TENANTS_FOLDER.length + 1)).sort();
  if (tenants.length > 0) emit({ path: `${prefix}${GitOpsLayout.TENANTS_FOLDER}/kustomization.yaml`, content: kustomization(tenants) });
  const top: string[] = [];
  if (folders.includes(GitOpsLayout.CLUSTER_FOLDER)) top.push(GitOpsLayout.CLUSTER_FOLDER);
  if (tenants.length > 0) top.push(GitOpsLayout.TENANTS_FOLDER);
  if (prefix !== '' && top.length > 0) emit({ path: `${prefix}kustomization.yaml`, content: kustomization(top) });
  return top;
}

/** The tenant namespaces of a layout, and the tenants' other namespaces (an OLM v1 team's), first owner first. */
interface Owners {
  readonly tenants: Set<string>;
  readonly otherNamespaceOf: Map<string, string>;
}

class OwnerCollector {
  private readonly tenants = new Set<string>();
  private readonly candidates: Array<[string, string]> = [];
  private readonly seen = new Set<string>();

  public add(o: LayoutEntry): void {
    if (!o.tenant) return;
    this.tenants.add(o.tenant);
    for (const ns of o.tenantNamespaces ?? []) {
      // only the first owner of a namespace can win
      if (this.seen.has(ns)) continue;
      this.seen.add(ns);
      this.candidates.push([ns, o.tenant]);
    }
  }

  public result(): Owners {
    const otherNamespaceOf = new Map<string, string>();
    for (const [ns, tenant] of this.candidates) if (!this.tenants.has(ns)) otherNamespaceOf.set(ns, tenant);
    return { tenants: this.tenants, otherNamespaceOf };
  }
}

/** What `homeOf` reads of an entry. */
interface HomeProbe {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly tenant?: string;
  readonly platform?: boolean;
}

/** The folder of an object and the tenant it belongs to. */
function homeOf(o: HomeProbe, owners: Owners, afterInstall: boolean): { folder: string; home?: string } {
  const { tenants, otherNamespaceOf } = owners;
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
  // applied by the platform although it is a tenant's (GitOpsObject.appliedByPlatform): never in a tenant folder
  const folder = home === undefined || o.platform === true ? GitOpsLayout.CLUSTER_FOLDER : `${GitOpsLayout.TENANTS_FOLDER}/${home}`;
  return { folder: afterInstall ? `${GitOpsLayout.AFTER_INSTALL_FOLDER}/${folder}` : folder, home };
}

/**
 * What `homeOf` reads of an entry, as a string: entries with the same key get the same folder and home (whatever the
 * owners are) and depend on an install alike.
 */
function homeKey(o: LayoutEntry, dependsOnAnInstall: boolean): string {
  const afterInstall = dependsOnAnInstall ? 'a' : '';
  // applied by the platform: cluster/ whatever the rest says
  if (o.platform === true) return `${afterInstall}p`;
  if (o.namespace !== undefined) return `${afterInstall}n${o.namespace}`;
  if (o.apiVersion === 'v1' && o.kind === 'Namespace') return `${afterInstall}N${o.name === undefined ? '' : `:${o.name}`}`;
  if (o.tenant !== undefined && o.kind === 'ClusterExtension' && o.apiVersion.startsWith('olm.operatorframework.io/')) return `${afterInstall}e${o.tenant}`;
  return `${afterInstall}c`;
}

/** Whether an entry depends on an operator install (by identity: the install need not be in the layout). */
function dependsOnInstall(o: LayoutEntry): boolean {
  return (o.dependsOn ?? []).some((d) => installWave(d) !== undefined);
}

/**
 * The wave after an install named by an identity (`<apiVersion>/<kind>/<namespace>/<name>`: the apiVersion may hold
 * a `/`, the other parts never do), or undefined when it names no install.
 */
function installWave(identity: string): number | undefined {
  // `<apiVersion>/<kind>/<namespace>/<name>`: the last three slashes end the apiVersion and the kind
  const nameAt = identity.lastIndexOf('/');
  const namespaceAt = nameAt <= 0 ? -1 : identity.lastIndexOf('/', nameAt - 1);
  const kindAt = namespaceAt <= 0 ? -1 : identity.lastIndexOf('/', namespaceAt - 1);
  if (kindAt < 0) return undefined;
  const kind = identity.slice(kindAt + 1, namespaceAt);
  // only the install kinds are looked at further (no string made for the others' apiVersion)
  if (kind !== 'Subscription' && kind !== 'ClusterExtension') return undefined;
  const apiVersion = identity.slice(0, kindAt);
  return isInstall({ apiVersion, kind }) ? kindWaveOf(apiVersion, kind) + 1 : undefined;
}

/** `GitOpsLayout.kindWave` without its input checks (the layout's own calls, with checked strings). */
function kindWaveOf(apiVersion: string, kind: string): number {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  // OLM v1: a ClusterExtension after its Namespace and the team's admission policy (wave 0).
  if (group === 'olm.operatorframework.io' && kind === 'ClusterExtension') return 1;
  if (group !== 'operators.coreos.com') return 0;
  if (kind === 'Subscription') return 2;
  if (kind === 'CatalogSource' || kind === 'OperatorGroup') return 1;
  return 0;
}

/**
 * Folder, tenant label, wave and dependencies of every object (indexes from `offset`: the objects' place in the
 * whole layout, which orders each folder).
 */
function place(objects: LayoutEntry[], owners?: Owners, offset = 0): Placed[] {
  if (owners === undefined) {
    const collector = new OwnerCollector();
    for (const o of objects) collector.add(o);
    owners = collector.result();
  }
  const byIdentity = new Map<string, number>();
  objects.forEach((o, i) => {
    const id = identityOf(o);
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
    let wave = kindWaveOf(o.apiVersion, o.kind);
    // after an operator install: one wave later, so that Argo CD applies it once the install is healthy
    for (const d of deps[i]) wave = Math.max(wave, waveOf(d) + (isInstall(objects[d]) ? 1 : 0));
    for (const d of o.dependsOn ?? []) wave = Math.max(wave, installWave(d) ?? 0);
    visiting.delete(i);
    waves[i] = wave;
    return wave;
  };

  return objects.map((o, i) => {
    const afterInstall = dependsOnInstall(o);
    const { folder, home } = homeOf(o, owners!, afterInstall);
    return {
      index: offset + i,
      entry: o,
      folder,
      tenantLabel: o.tenant ?? home,
      wave: waveOf(i),
      deps: deps[i].map((d) => offset + d),
      afterInstall,
    };
  });
}

/** An operator install: OLM v0's Subscription or OLM v1's ClusterExtension. */
function isInstall(o: { apiVersion: string; kind: string }): boolean {
  return (o.kind === 'Subscription' && o.apiVersion.startsWith('operators.coreos.com/'))
    || (o.kind === 'ClusterExtension' && o.apiVersion.startsWith('olm.operatorframework.io/'));
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
    if (p.afterInstall) {
      // its CRD comes with the operator: Argo CD's dry run would fail before the install (argo-cd
      // docs/user-guide/sync-options.md, "Skip Dry Run for new custom resources types")
      const options = (annotations[GitOpsLayout.SYNC_OPTIONS_ANNOTATION] ?? '').split(',').map((x: string) => x.trim()).filter((x: string) => x !== '');
      if (!options.includes(SKIP_DRY_RUN)) options.push(SKIP_DRY_RUN);
      annotations[GitOpsLayout.SYNC_OPTIONS_ANNOTATION] = options.join(',');
    }
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
  const keys = Object.keys(o);
  // cdk8s's JSON has its keys sorted already: the sort (and its work array) only when one is out of place
  for (let i = 1; i < keys.length; i++) {
    if (compare(keys[i - 1], keys[i]) > 0) {
      keys.sort(compare);
      break;
    }
  }
  const out: { [key: string]: T } = {};
  for (const k of keys) setKey(out, k, o[k]);
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

/**
 * `<base>.yaml`, or `<base>-2.yaml`, `-3`, ... when taken (names that differ only in case or symbols). A base too long
 * for a file name (Kubernetes names have up to 253 characters, file systems allow 255 bytes) is cut with a hash of the
 * whole base (`cappedName`): deterministic, and unique as the suffixes keep it.
 */
function uniqueFileName(base: string, used: Set<string>): string {
  let name = cappedName(base, '.yaml');
  for (let n = 2; used.has(name) || name === 'kustomization.yaml'; n++) name = cappedName(base, `-${n}.yaml`);
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
