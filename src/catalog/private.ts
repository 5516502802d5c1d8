// Internal helpers of the catalog constructs; not part of the public API.
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../core/app-context';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { InputCheck, throwIfInvalid } from '../core/input-check';

/** Constructs that own the platform's default-catalog policy (only one per App). */
const DEFAULT_CATALOG_OWNERS = new AppSlot('defaultCatalogOwners', () => new Set<IConstruct>());

export function registerDefaultCatalogOwner(c: IConstruct): void {
  AppContext.of(c).get(DEFAULT_CATALOG_OWNERS).add(c);
}

/** Paths of the other default-catalog policy owners in `c`'s App, sorted. */
function otherDefaultCatalogOwners(c: IConstruct): string[] {
  const defaultCatalogOwners = AppContext.of(c).get(DEFAULT_CATALOG_OWNERS);
  return c.node.root.node
    .findAll()
    .filter((x) => x !== c && defaultCatalogOwners.has(x))
    .map((x) => x.node.path)
    .sort();
}

/** Paths of `OperatorHub` objects in the App that no policy construct owns, sorted. */
function unownedOperatorHubs(c: IConstruct): string[] {
  const defaultCatalogOwners = AppContext.of(c).get(DEFAULT_CATALOG_OWNERS);
  return c.node.root.node
    .findAll()
    .filter((x) => x instanceof ApiObject && x.kind === 'OperatorHub' && x.apiVersion === 'config.openshift.io/v1')
    .filter((x) => !x.node.scopes.some((s) => defaultCatalogOwners.has(s)))
    .map((x) => x.node.path)
    .sort();
}

/**
 * The `DefaultCatalogPolicyConflict` error of a default-catalog policy construct, when another owner or an unowned
 * OperatorHub exists in the App; empty otherwise.
 * @param what text after "the default-catalog policy" (e.g. what the policy object is)
 */
export function defaultCatalogPolicyConflict(c: IConstruct, what: string, fix: string): DiagnosticDetails[] {
  const others = [...otherDefaultCatalogOwners(c), ...unownedOperatorHubs(c)];
  if (others.length === 0) return [];
  return [{
    code: CODE.DefaultCatalogPolicyConflict,
    message: `only one construct may own the default-catalog policy${what}; also defined by ${others.join(', ')}`,
    fix,
  }];
}

/**
 * Every CatalogSource ApiObject of `c`'s App, as `namespace/name` -> construct paths.
 * @param all the App's constructs, when the caller already walked the tree (validation runs once per chart)
 */
export function catalogSourcesByLocation(c: IConstruct, all: IConstruct[] = c.node.root.node.findAll()): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const x of all) {
    if (!(x instanceof ApiObject) || x.kind !== 'CatalogSource' || !x.apiVersion.startsWith('operators.coreos.com/')) continue;
    const key = `${x.metadata.namespace ?? ''}/${x.metadata.name ?? ''}`;
    out.set(key, [...(out.get(key) ?? []), x.node.path]);
  }
  return out;
}

/** A CEL string literal (single-quoted, escaped). */
export function celString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL list literal of strings. */
export function celStringList(xs: string[]): string {
  return `[${xs.map(celString).join(', ')}]`;
}

/** A directory argument: a non-empty string. */
export function checkDirectory(method: string, directory: unknown): void {
  const check = new InputCheck();
  const d = check.requiredString('directory', directory, 'pass the directory to write into, e.g. "out/catalogs"');
  if (d === '') check.add({ code: CODE.InvalidInputValue, field: 'directory', value: d, message: 'directory is empty', fix: 'pass the directory to write into, e.g. "out/catalogs"' });
  throwIfInvalid(check, method);
}
