/**
 * Internal: the tenants of each construct tree, for the audit (each tenant registers a function giving its facts),
 * and the App's objects that can grant or hold power. Not re-exported from the package.
 */
import { createHash } from 'crypto';
import { IConstruct } from 'constructs';
import type { AuditedTenant, TenancyAuditInput } from './audited-tenant';
import type { PowerObject } from './effective-power';
import type { GlobalOperatorFacts } from './global-operator-drivers';
import { AppContext, AppSlot } from '../core/app-context';
import { SynthPass } from '../core/synth-pass';

interface Registered {
  readonly construct: IConstruct;
  readonly facts: () => AuditedTenant;
  /** What else changes the tenant's power without a new construct (e.g. its installer rules), as text. */
  readonly key: () => string;
}

/** The audited tenants of the App, in construction order. */
const AUDITED_TENANTS = new AppSlot('auditedTenants', (): Registered[] => []);
/** The global installs (`GlobalOperatorInstall`) of the App, each giving its operators' facts. */
const GLOBAL_OPERATORS = new AppSlot('globalOperators', (): Array<{ construct: IConstruct; facts: () => GlobalOperatorFacts[] }> => []);

/** Kinds the audit reads from the App. */
const AUDITED_KINDS: ReadonlySet<string> = new Set([
  'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ServiceAccount', 'Secret',
  'Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController',
]);

/** Registers a tenant of `construct`'s tree; `key` tells what changes its power besides its facts and new constructs. */
export function registerAuditedTenant(construct: IConstruct, facts: () => AuditedTenant, key: () => string): void {
  AppContext.of(construct).get(AUDITED_TENANTS).push({ construct, facts, key });
}

/** Registers a construct of `construct`'s tree that installs operators for all namespaces (`GlobalOperatorInstall`). */
export function registerGlobalOperators(construct: IConstruct, facts: () => GlobalOperatorFacts[]): void {
  AppContext.of(construct).get(GLOBAL_OPERATORS).push({ construct, facts });
}

/** The facts of the global operators registered under `scope` (all of its App's when `scope` is the root), in construct order. */
export function globalOperatorsOf(scope: IConstruct): GlobalOperatorFacts[] {
  const root = scope.node.root;
  const under = (c: IConstruct) => scope === root || c === scope || c.node.scopes.includes(scope);
  return (AppContext.find(root, GLOBAL_OPERATORS) ?? []).filter((r) => under(r.construct)).flatMap((r) => r.facts());
}

/**
 * A fingerprint of what the audit of `root` depends on: each tenant's facts (bundles by name) and key, and the
 * content of every audited object as the audit reads it (`toJson`: JSON patches, metadata and lazy values added
 * after an earlier validation included: a count of constructs would miss an `addJsonPatch` that adds a
 * ServiceAccount to a cluster-admin binding). Equal fingerprints: the last result still holds. Kept as a SHA-256.
 */
export class AuditFingerprint {
  // A static method rather than a module function so that tests can count the walks (jest.spyOn: a module's own
  // exports are read-only getters under the swc transform).
  public static of(root: IConstruct): string {
    return fingerprintOf(root);
  }
}

function fingerprintOf(root: IConstruct): string {
  const tenants = (AppContext.find(root, AUDITED_TENANTS) ?? []).map((r) => {
    const f = r.facts();
    return [{ ...f, bundles: (f.bundles ?? []).map((b) => b.name) }, r.key()];
  });
  const globals = globalOperatorsOf(root).map((g) => ({ ...g, bundle: g.bundle?.name }));
  const hash = createHash('sha256').update(JSON.stringify(globals.length > 0 ? [tenants, globals] : tenants));
  forEachAuditedManifest(root, AUDITED_KINDS, (m) => hash.update('\n').update(JSON.stringify(m)));
  return hash.digest('hex');
}

/**
 * The audit input of the tenants under `scope` and every object of its App (of `kinds` only, when given: the audit
 * first reads the bindings alone to find the confined tenants).
 */
export function auditInputOf(scope: IConstruct, kinds: ReadonlySet<string> = AUDITED_KINDS): TenancyAuditInput {
  const objects: PowerObject[] = [];
  forEachAuditedManifest(scope, kinds, (manifest) => objects.push({ manifest, origin: 'App' }));
  return { objects, tenants: auditedTenantsOf(scope) };
}

/** The manifest of every object of `scope`'s App of `kinds` (audited kinds only), one by one (none kept). */
export function forEachAuditedManifest(scope: IConstruct, kinds: ReadonlySet<string>, each: (manifest: any) => void): void {
  for (const c of SynthPass.apiObjects(scope.node.root)) {
    if (!AUDITED_KINDS.has(c.kind) || !kinds.has(c.kind)) continue;
    each(SynthPass.json(c));
  }
}

/** The facts of the tenants registered under `scope` (all of its App's when `scope` is the root). */
export function auditedTenantsOf(scope: IConstruct): AuditedTenant[] {
  const root = scope.node.root;
  const under = (c: IConstruct) => scope === root || c.node.scopes.includes(scope);
  return (AppContext.find(root, AUDITED_TENANTS) ?? []).filter((r) => under(r.construct)).map((r) => r.facts());
}
