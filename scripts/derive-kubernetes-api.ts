/**
 * Derives test/fixtures/kubernetes-api/<release>.json: one row per (group, version, resource, subresource) that a
 * Kubernetes release serves, with its scope and the verbs discovery lists, plus the CRDs kept in crds/.
 *
 * Inputs (see test/fixtures/kubernetes-api/README.md for where to get them):
 * - `--core FILE`: kubernetes/kubernetes `api/discovery/api__v1.json` at the release tag (an `APIResourceList`);
 * - `--apis FILE`: kubernetes/kubernetes `api/discovery/aggregated_v2.json` at the release tag (an
 *   `APIGroupDiscoveryList`). `hack/update-openapi-spec.sh` writes both from a kube-apiserver started with
 *   `--runtime-config=api/all=true` and all alpha and beta feature gates on, so they list every version the release
 *   can serve, not only the ones on by default;
 * - `--k8s-api DIR` (optional): a checkout of k8s.io/api (github.com/kubernetes/api) at the release's tag
 *   (`v0.<minor>.<patch>`). Every (group, version, kind) of the discovery files must be registered there
 *   (`register.go`); rows whose kind is not are dropped and reported (a discovery snapshot taken a little after the
 *   release). Kinds registered there but neither served nor past their `APILifecycleRemoved` release, and
 *   `+genclient:method=...,subresource=X` subresources without a row, are reported for a person to look at;
 * - `--recipe FILE`: the checked-in test/fixtures/kubernetes-api/recipe-<release>.json: release, provenance, the
 *   CRD folders to add and any cited corrections (rows the discovery files lack).
 *
 * Run: `npx ts-node --project scripts/tsconfig.json scripts/derive-kubernetes-api.ts --recipe R --core F --apis F
 * [--k8s-api DIR] [--out FILE]` (default out: test/fixtures/kubernetes-api/<release>.json). It prints the report.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';

/** One served (group, version, resource[, subresource]) and the verbs discovery lists for it. */
export interface DerivedRow {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** '' for the resource itself. */
  readonly subresource: string;
  readonly namespaced: boolean;
  /** The response kind of the resource ('' for subresources, whose kinds are option or helper types). */
  readonly kind: string;
  /** Sorted. */
  readonly verbs: readonly string[];
  /** Where the row comes from: `kubernetes:/api/v1`, `kubernetes:/apis`, `correction` or a crds/ file. */
  readonly source: string;
}

/** A group's served versions, most preferred first (discovery lists them in that order). */
export interface DerivedGroup {
  readonly group: string;
  readonly versions: readonly string[];
  readonly source: string;
}

/** What the CRD API server serves for every custom resource version and for its status and scale subresources. */
export const CRD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const CRD_SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

export const CORE_SOURCE = 'kubernetes:/api/v1';
export const APIS_SOURCE = 'kubernetes:/apis';

const sorted = (verbs: readonly string[]) => [...verbs].sort();

/** Rows of the core group from an `APIResourceList` (`/api/v1`): names are `resource` or `resource/subresource`. */
export function coreRows(list: any): DerivedRow[] {
  if (list?.kind !== 'APIResourceList' || list.groupVersion !== 'v1') {
    throw new Error(`--core: expected the APIResourceList of /api/v1, got kind ${JSON.stringify(list?.kind)} groupVersion ${JSON.stringify(list?.groupVersion)}`);
  }
  return (list.resources as any[]).map((r) => {
    const [resource, subresource = ''] = String(r.name).split('/');
    return {
      group: '',
      version: 'v1',
      resource,
      subresource,
      namespaced: r.namespaced === true,
      kind: subresource ? '' : String(r.kind ?? ''),
      verbs: sorted(r.verbs ?? []),
      source: CORE_SOURCE,
    };
  });
}

/** Rows and groups from an aggregated discovery document (`APIGroupDiscoveryList`, apidiscovery.k8s.io/v2). */
export function aggregatedRows(doc: any): { rows: DerivedRow[]; groups: DerivedGroup[] } {
  if (doc?.kind !== 'APIGroupDiscoveryList') {
    throw new Error(`--apis: expected an APIGroupDiscoveryList, got kind ${JSON.stringify(doc?.kind)}`);
  }
  const rows: DerivedRow[] = [];
  const groups: DerivedGroup[] = [];
  for (const item of doc.items as any[]) {
    const group = String(item.metadata?.name ?? '');
    groups.push({ group, versions: (item.versions as any[]).map((v) => String(v.version)), source: APIS_SOURCE });
    for (const v of item.versions as any[]) {
      for (const r of v.resources as any[] ?? []) {
        const namespaced = r.scope === 'Namespaced';
        if (!namespaced && r.scope !== 'Cluster') throw new Error(`--apis: ${group}/${v.version} ${r.resource}: unknown scope ${JSON.stringify(r.scope)}`);
        rows.push({ group, version: String(v.version), resource: String(r.resource), subresource: '', namespaced, kind: String(r.responseKind?.kind ?? ''), verbs: sorted(r.verbs ?? []), source: APIS_SOURCE });
        for (const s of r.subresources as any[] ?? []) {
          rows.push({ group, version: String(v.version), resource: String(r.resource), subresource: String(s.subresource), namespaced, kind: '', verbs: sorted(s.verbs ?? []), source: APIS_SOURCE });
        }
      }
    }
  }
  return { rows, groups };
}

/**
 * The parts of a CustomResourceDefinition that say what it serves, without its schemas: every `schema:` block is cut
 * before parsing, so the 800 kB ClusterServiceVersion CRD reads in milliseconds.
 */
export function crdHeader(text: string): any {
  const kept: string[] = [];
  let skipDeeperThan = -1;
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (skipDeeperThan >= 0) {
      if (line.trim() === '' || indent > skipDeeperThan) continue;
      skipDeeperThan = -1;
    }
    if (/^\s*schema:\s*$/.test(line)) skipDeeperThan = indent;
    kept.push(line);
  }
  return YAML.parse(kept.join('\n'));
}

/** Rows and the group entry of one CRD file (served versions only; storage-first order is not discovery's). */
export function crdRows(text: string, source: string): { rows: DerivedRow[]; group: DerivedGroup } {
  const crd = crdHeader(text);
  if (crd?.kind !== 'CustomResourceDefinition') throw new Error(`${source}: not a CustomResourceDefinition`);
  const spec = crd.spec;
  const namespaced = spec.scope === 'Namespaced';
  if (!namespaced && spec.scope !== 'Cluster') throw new Error(`${source}: unknown scope ${JSON.stringify(spec.scope)}`);
  const rows: DerivedRow[] = [];
  const versions: string[] = [];
  for (const v of spec.versions as any[]) {
    if (v.served !== true) continue;
    versions.push(String(v.name));
    rows.push({ group: spec.group, version: String(v.name), resource: spec.names.plural, subresource: '', namespaced, kind: spec.names.kind, verbs: sorted(CRD_VERBS), source });
    for (const sub of ['scale', 'status']) {
      if (v.subresources?.[sub] !== undefined) {
        rows.push({ group: spec.group, version: String(v.name), resource: spec.names.plural, subresource: sub, namespaced, kind: '', verbs: sorted(CRD_SUBRESOURCE_VERBS), source });
      }
    }
  }
  return { rows, group: { group: spec.group, versions: kubeAwareVersionOrder(versions), source } };
}

/**
 * The order the API server gives a CRD's versions in discovery (apiextensions-apiserver `sortVersions`, after
 * apimachinery `version.CompareKubeAwareVersionStrings`): GA before beta before alpha, higher numbers first,
 * versions that do not look like Kubernetes versions last, by name.
 */
export function kubeAwareVersionOrder(versions: readonly string[]): string[] {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return { major: Number(m[1]), stage: m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, minor: Number(m[3] ?? 0) };
  };
  return [...versions].sort((a, b) => {
    const pa = parse(a);
    const pb = parse(b);
    if (pa && !pb) return -1;
    if (!pa && pb) return 1;
    if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
    if (pa.stage !== pb.stage) return pb.stage - pa.stage;
    if (pa.major !== pb.major) return pb.major - pa.major;
    return pb.minor - pa.minor;
  });
}

interface K8sApiFacts {
  /** `group/version` → kinds its register.go adds (lists left out). */
  readonly kinds: Map<string, Set<string>>;
  /** `group/version Kind` → the release its prerelease-lifecycle marks as removed (`major.minor`). */
  readonly removed: Map<string, string>;
  /** `+genclient:method=...,subresource=X` tags. */
  readonly genclientSubresources: Array<{ gv: string; kind: string; subresource: string }>;
}

/** What k8s.io/api at a tag registers, from each `<folder>/<version>/register.go` (`const GroupName = ...`). */
function registeredKinds(k8sApiDir: string): K8sApiFacts {
  const kinds = new Map<string, Set<string>>();
  const removed = new Map<string, string>();
  const genclientSubresources: Array<{ gv: string; kind: string; subresource: string }> = [];
  for (const folder of fs.readdirSync(k8sApiDir)) {
    const fdir = path.join(k8sApiDir, folder);
    if (!fs.statSync(fdir).isDirectory()) continue;
    for (const version of fs.readdirSync(fdir)) {
      const register = path.join(fdir, version, 'register.go');
      if (!/^v\d/.test(version) || !fs.existsSync(register)) continue;
      const text = fs.readFileSync(register, 'utf8');
      const groupName = /GroupName\s*=\s*"([^"]*)"/.exec(text)?.[1] ?? (folder === 'core' ? '' : undefined);
      if (groupName === undefined) continue;
      const gv = `${groupName}/${version}`;
      const addKnown = /addKnownTypes\(([\s\S]*?)\n\s*\)/.exec(text)?.[1] ?? '';
      const set = new Set([...addKnown.matchAll(/&([A-Z][A-Za-z0-9]*)\{\}/g)].map((m) => m[1]).filter((k) => !k.endsWith('List')));
      kinds.set(gv, set);
      const lifecycle = path.join(fdir, version, 'zz_generated.prerelease-lifecycle.go');
      if (fs.existsSync(lifecycle)) {
        for (const m of fs.readFileSync(lifecycle, 'utf8').matchAll(/func \(in \*([A-Za-z0-9]+)\) APILifecycleRemoved\(\) \(major, minor int\) \{\s*return (\d+), (\d+)/g)) {
          removed.set(`${gv} ${m[1]}`, `${m[2]}.${m[3]}`);
        }
      }
      const types = path.join(fdir, version, 'types.go');
      if (fs.existsSync(types)) {
        const lines = fs.readFileSync(types, 'utf8').split('\n');
        lines.forEach((line, i) => {
          const sub = /^\/\/ \+genclient:method=[^,]+,verb=[^,]+,subresource=([a-z]+)/.exec(line)?.[1];
          if (!sub) return;
          const typeLine = lines.slice(i).find((l) => /^type [A-Z]\w* struct/.test(l));
          const kind = typeLine ? /^type (\w+)/.exec(typeLine)![1] : '?';
          genclientSubresources.push({ gv, kind, subresource: sub });
        });
      }
    }
  }
  return { kinds, removed, genclientSubresources };
}

/** Checks discovery rows against k8s.io/api at the release tag; returns the rows to keep and what it found. */
export function checkAgainstK8sApi(rows: readonly DerivedRow[], k8sApiDir: string, release: string): { kept: DerivedRow[]; report: string[] } {
  const { kinds, removed, genclientSubresources } = registeredKinds(k8sApiDir);
  const report: string[] = [];
  const [major, minor] = release.replace(/^v/, '').split('.').map(Number);
  const kindOf = new Map<string, string>();
  for (const r of rows) if (!r.subresource) kindOf.set(`${r.group}/${r.version}/${r.resource}`, r.kind);
  const known = (r: DerivedRow) => {
    const set = kinds.get(`${r.group}/${r.version}`);
    if (set === undefined) return true; // a group k8s.io/api does not hold (apiextensions.k8s.io, apiregistration.k8s.io)
    return set.has(kindOf.get(`${r.group}/${r.version}/${r.resource}`) ?? '');
  };
  const kept = rows.filter((r) => {
    if (known(r)) return true;
    report.push(`dropped ${r.group}/${r.version} ${r.resource}${r.subresource ? '/' + r.subresource : ''}: kind ${kindOf.get(`${r.group}/${r.version}/${r.resource}`)} is not registered in k8s.io/api at the release tag`);
    return false;
  });
  const served = new Set(kept.filter((r) => !r.subresource).map((r) => `${r.group}/${r.version} ${r.kind}`));
  for (const [gv, set] of [...kinds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const kind of [...set].sort()) {
      if (served.has(`${gv} ${kind}`)) continue;
      const gone = removed.get(`${gv} ${kind}`);
      const [rmMajor, rmMinor] = (gone ?? '').split('.').map(Number);
      if (gone && (rmMajor < major || (rmMajor === major && rmMinor <= minor))) continue;
      report.push(`not served: ${gv} ${kind} is registered in k8s.io/api${gone ? ` (removal planned in ${gone})` : ''} but discovery has no resource for it (an option, review or list type, or not installed by kube-apiserver)`);
    }
  }
  const subs = new Set(kept.filter((r) => r.subresource).map((r) => `${r.group}/${r.version} ${kindOf.get(`${r.group}/${r.version}/${r.resource}`)} ${r.subresource}`));
  for (const g of genclientSubresources) {
    if (!served.has(`${g.gv} ${g.kind}`)) continue;
    if (!subs.has(`${g.gv} ${g.kind} ${g.subresource}`)) report.push(`missing subresource: k8s.io/api declares +genclient subresource=${g.subresource} on ${g.gv} ${g.kind}, discovery has no row for it`);
  }
  return { kept, report };
}

/** A row the discovery files lack, added by the recipe with its reason and upstream citation. */
export interface Correction {
  readonly add: Omit<DerivedRow, 'source' | 'verbs'> & { verbs: string[] };
  readonly why: string;
  readonly upstream: readonly string[];
}

const ROW_ORDER = (a: DerivedRow, b: DerivedRow) => {
  const ka = [a.source.startsWith('kubernetes') || a.source === 'correction' ? 0 : 1, a.group, a.resource, a.version, a.subresource];
  const kb = [b.source.startsWith('kubernetes') || b.source === 'correction' ? 0 : 1, b.group, b.resource, b.version, b.subresource];
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  }
  return 0;
};

/** The fixture's text: provenance and groups as indented JSON, one row per line (compact and diffable). */
export function formatTable(meta: Record<string, unknown>, groups: readonly DerivedGroup[], rows: readonly DerivedRow[]): string {
  const columns = ['group', 'version', 'resource', 'subresource', 'namespaced', 'kind', 'verbs', 'source'];
  const head = JSON.stringify({ ...meta, columns }, null, 2).replace(/\n}$/, '');
  const groupLines = [...groups].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0))
    .map((g) => `    ${JSON.stringify([g.group, g.versions, g.source])}`);
  const rowLines = [...rows].sort(ROW_ORDER).map((r) => `    ${JSON.stringify([r.group, r.version, r.resource, r.subresource, r.namespaced, r.kind, r.verbs, r.source])}`);
  return `${head},\n  "groups": [\n${groupLines.join(',\n')}\n  ],\n  "rows": [\n${rowLines.join(',\n')}\n  ]\n}\n`;
}

/** Everything but reading files: discovery rows, the k8s.io/api check, corrections, CRDs. */
export interface DeriveInput {
  readonly recipe: any;
  readonly core: any;
  readonly apis: any;
  readonly k8sApiDir?: string;
  readonly crdFiles: Array<{ source: string; text: string }>;
}

export function deriveTable(input: DeriveInput): { text: string; report: string[]; rows: DerivedRow[] } {
  const { recipe } = input;
  const core = coreRows(input.core);
  const apis = aggregatedRows(input.apis);
  let rows = [...core, ...apis.rows];
  const report: string[] = [];
  if (input.k8sApiDir) {
    const checked = checkAgainstK8sApi(rows, input.k8sApiDir, recipe.release);
    rows = checked.kept;
    report.push(...checked.report);
  }
  for (const c of (recipe.corrections ?? []) as Correction[]) {
    const key = `${c.add.group}/${c.add.version}/${c.add.resource}/${c.add.subresource}`;
    if (rows.some((r) => `${r.group}/${r.version}/${r.resource}/${r.subresource}` === key)) {
      throw new Error(`correction ${key}: discovery already has this row; remove the correction from the recipe`);
    }
    rows.push({ ...c.add, verbs: sorted(c.add.verbs), source: 'correction' });
    report.push(`added ${key} (${c.why})`);
  }
  const groups: DerivedGroup[] = [{ group: '', versions: ['v1'], source: CORE_SOURCE }, ...apis.groups.map((g) => ({
    ...g,
    versions: g.versions.filter((v) => rows.some((r) => r.group === g.group && r.version === v)),
  }))];
  // The API server merges the versions of every CRD of a group into one discovery group (in kube-aware order), so
  // operators.coreos.com prefers v2 (OperatorCondition's) although most of its kinds only exist in v1alpha1 or v1.
  const crdGroups = new Map<string, { versions: Set<string>; folders: Set<string> }>();
  for (const f of input.crdFiles) {
    const crd = crdRows(f.text, f.source);
    rows.push(...crd.rows);
    const g = crdGroups.get(crd.group.group) ?? { versions: new Set<string>(), folders: new Set<string>() };
    crd.group.versions.forEach((v) => g.versions.add(v));
    g.folders.add(path.posix.dirname(f.source));
    crdGroups.set(crd.group.group, g);
  }
  for (const [group, g] of crdGroups) {
    groups.push({ group, versions: kubeAwareVersionOrder([...g.versions]), source: [...g.folders].sort().join(',') });
  }
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.group}/${r.version}/${r.resource}/${r.subresource}`;
    if (seen.has(key)) throw new Error(`two rows for ${key}`);
    seen.add(key);
  }
  const meta = {
    release: recipe.release, about: recipe.about, provenance: recipe.provenance, corrections: recipe.corrections ?? [], crdFolders: recipe.crdFolders,
  };
  return { text: formatTable(meta, groups, rows), report, rows };
}

/** The CRD files of the recipe's folders, as `crds/...` paths relative to the repository root. */
export function crdFilesOf(repoRoot: string, folders: readonly string[]): Array<{ source: string; text: string }> {
  return folders.flatMap((folder) => fs.readdirSync(path.join(repoRoot, folder))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ source: `${folder}/${f}`, text: fs.readFileSync(path.join(repoRoot, folder, f), 'utf8') })));
}

function main(argv: string[]) {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const need = (name: string) => {
    const v = arg(name);
    if (!v) throw new Error(`missing --${name} (see the header of scripts/derive-kubernetes-api.ts)`);
    return v;
  };
  const repoRoot = path.join(__dirname, '..');
  const recipe = JSON.parse(fs.readFileSync(need('recipe'), 'utf8'));
  const out = arg('out') ?? path.join(repoRoot, 'test', 'fixtures', 'kubernetes-api', `${recipe.release}.json`);
  const result = deriveTable({
    recipe,
    core: JSON.parse(fs.readFileSync(need('core'), 'utf8')),
    apis: JSON.parse(fs.readFileSync(need('apis'), 'utf8')),
    k8sApiDir: arg('k8s-api'),
    crdFiles: crdFilesOf(repoRoot, recipe.crdFolders ?? []),
  });
  fs.writeFileSync(out, result.text);
  for (const line of result.report) console.log(line);
  console.log(`wrote ${path.relative(repoRoot, out)}: ${result.rows.length} rows`);
}

if (require.main === module) main(process.argv.slice(2));
