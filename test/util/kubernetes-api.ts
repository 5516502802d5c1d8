/**
 * The checked-in table of the built-in Kubernetes API (test/fixtures/kubernetes-api/, README.md there): every group,
 * version, resource and subresource a release serves with its scope and discovery verbs, the CRDs kept in crds/, and
 * the verbs the authorizer is asked about that discovery does not list. Test data for completeness checks: a new
 * release's table shows up as rows nobody has decided about, not as a silent gap.
 *
 * Both files are read once per jest module registry (about 40 kB of JSON).
 */
import * as fs from 'fs';
import * as path from 'path';

/** The release the checked-in table describes (test/fixtures/kubernetes-api/<release>.json). */
export const KUBERNETES_API_RELEASE = 'v1.36.3';

const DIR = path.join(__dirname, '..', 'fixtures', 'kubernetes-api');

/** One served (group, version, resource[, subresource]). */
export interface ApiRow {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural resource name. */
  readonly resource: string;
  /** Absent for the resource itself. */
  readonly subresource?: string;
  readonly namespaced: boolean;
  /** Kind of the resource (absent on subresource rows). */
  readonly kind?: string;
  /** The verbs discovery lists, sorted (authorization-only verbs are in {@link authorizationVerbs}). */
  readonly verbs: readonly string[];
  /**
   * `kubernetes:/api/v1` or `kubernetes:/apis` (upstream discovery), `correction` (a cited row the discovery
   * snapshot lacked, see the file's `corrections`), or the crds/ file the row was read from.
   */
  readonly source: string;
  /**
   * This version is the one a client picks for the resource: the first of the group's versions, in discovery's
   * preference order, that serves it. For a subresource, that of its resource.
   */
  readonly preferred: boolean;
}

/** A group with its versions, most preferred first (for CRD groups: all CRDs of the group merged, as discovery does). */
export interface ApiGroup {
  readonly group: string;
  readonly versions: readonly string[];
  readonly preferredVersion: string;
  readonly source: string;
}

/** A check the authorizer makes that discovery does not describe (test/fixtures/kubernetes-api/authorization-verbs.json). */
export interface AuthorizationVerbRow {
  readonly id: string;
  /** '*' when the check uses the attributes of whatever request is made. */
  readonly group: string;
  readonly resource: string;
  /** '' for none, '*' for any, `<extra key>` where the subresource is an extra's key. */
  readonly subresource: string;
  /** `<verb>` inside a verb stands for the verb of the request being made. */
  readonly verbs: readonly string[];
  /** What the authorized name is. */
  readonly name: string;
  readonly checkedWhen: string;
  /** `repo path (function)` of each place upstream that makes the check. */
  readonly upstream: readonly string[];
  /** Feature gate and its state in the release, when the check depends on one. */
  readonly gate?: string;
  /** Which copy the row was read from: a release tag, or the search tool's index (version not tied to the tag). */
  readonly pinned: string;
  /** False for a check that no longer exists in the release (kept because older clusters still have it). */
  readonly inRelease: boolean;
}

/** Provenance of the table, as the fixture records it. */
export interface ApiTableInfo {
  readonly release: string;
  readonly provenance: Record<string, unknown>;
  readonly corrections: ReadonlyArray<{ add: Record<string, unknown>; why: string; upstream: readonly string[] }>;
  readonly crdFolders: readonly string[];
}

interface Loaded {
  readonly info: ApiTableInfo;
  readonly groups: readonly ApiGroup[];
  readonly rows: readonly ApiRow[];
}

let loaded: Loaded | undefined;
let authz: readonly AuthorizationVerbRow[] | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const file = JSON.parse(fs.readFileSync(path.join(DIR, `${KUBERNETES_API_RELEASE}.json`), 'utf8'));
  const expected = ['group', 'version', 'resource', 'subresource', 'namespaced', 'kind', 'verbs', 'source'];
  if (JSON.stringify(file.columns) !== JSON.stringify(expected)) {
    throw new Error(`test/fixtures/kubernetes-api/${KUBERNETES_API_RELEASE}.json: columns ${JSON.stringify(file.columns)}, this loader reads ${JSON.stringify(expected)}; re-derive it with scripts/derive-kubernetes-api.ts`);
  }
  const groups: ApiGroup[] = (file.groups as Array<[string, string[], string]>).map(([group, versions, source]) => Object.freeze({
    group, versions: Object.freeze([...versions]), preferredVersion: versions[0], source,
  }));
  const raw = file.rows as Array<[string, string, string, string, boolean, string, string[], string]>;
  const servedIn = new Map<string, Set<string>>();
  for (const [group, version, resource, subresource] of raw) {
    if (subresource) continue;
    const key = `${group}/${resource}`;
    if (!servedIn.has(key)) servedIn.set(key, new Set());
    servedIn.get(key)!.add(version);
  }
  const versionsOf = new Map(groups.map((g) => [g.group, g.versions]));
  const preferredOf = (group: string, resource: string) => versionsOf.get(group)?.find((v) => servedIn.get(`${group}/${resource}`)?.has(v));
  const rows = raw.map(([group, version, resource, subresource, namespaced, kind, verbs, source]): ApiRow => Object.freeze({
    group,
    version,
    resource,
    ...(subresource ? { subresource } : {}),
    namespaced,
    ...(kind ? { kind } : {}),
    verbs: Object.freeze([...verbs]),
    source,
    preferred: preferredOf(group, resource) === version,
  }));
  const info: ApiTableInfo = { release: file.release, provenance: file.provenance, corrections: file.corrections, crdFolders: file.crdFolders };
  loaded = { info, groups: Object.freeze(groups), rows: Object.freeze(rows) };
  return loaded;
}

/** Every row of the table: built-in resources and subresources, then the CRDs of crds/ (frozen). */
export function builtinApi(): readonly ApiRow[] {
  return load().rows;
}

/** Every group with its versions in preference order. */
export function apiGroups(): readonly ApiGroup[] {
  return load().groups;
}

/** Release, provenance and corrections recorded in the table. */
export function apiTableInfo(): ApiTableInfo {
  return load().info;
}

/** Rows of one (group, resource), every version and subresource. */
export function apiRowsOf(group: string, resource: string): ApiRow[] {
  return builtinApi().filter((r) => r.group === group && r.resource === resource);
}

/** Checks the authorizer makes that discovery does not list, each with its upstream file and function. */
export function authorizationVerbs(): readonly AuthorizationVerbRow[] {
  if (authz) return authz;
  const file = JSON.parse(fs.readFileSync(path.join(DIR, 'authorization-verbs.json'), 'utf8'));
  if (file.release !== KUBERNETES_API_RELEASE) {
    throw new Error(`test/fixtures/kubernetes-api/authorization-verbs.json describes ${file.release}, the API table ${KUBERNETES_API_RELEASE}: review the rows for the new release`);
  }
  const freeze = (r: AuthorizationVerbRow) => Object.freeze({ ...r, verbs: Object.freeze([...r.verbs]), upstream: Object.freeze([...r.upstream]) });
  authz = Object.freeze((file.rows as AuthorizationVerbRow[]).map(freeze));
  return authz;
}
