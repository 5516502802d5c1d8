/**
 * The policy checks no acceptance may lower, platform-wide (`TenancyAppProps.neverAcceptable`, docs/audit.md "Never
 * acceptable"): the App registers its list in its `AppContext`, as it does the cluster targets, and
 * each construct that accepts a finding by name (`acceptedReach`, `acceptedRisks`, `acceptedWriters`,
 * `tenantsMayDriveReason`, `acceptedSensitiveGrants`, `policyChecks`) reads it: an acceptance of a listed check counts
 * for nothing and is a synth error naming the prop. Internal: only the TenancyApp prop is public.
 */
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from './app-context';
import { CODE } from './diagnostic-codes';
import { DiagnosticDetails } from './diagnostic-details';
import { PolicyChecks } from './policy-checks';

/**
 * The default: cluster-admin-equivalent reach (OLMT-026, `TenantIdentityUnbounded`). A tenant identity that reaches
 * `*` on every resource cluster-wide is every other tenant and the platform: no review of one tenant can accept that
 * for all of them.
 */
export const DEFAULT_NEVER_ACCEPTABLE: readonly string[] = ['OLMT-026'];

/** The App's list (`TenancyAppProps.neverAcceptable`), when the App declared one. */
const NEVER_ACCEPTABLE = new AppSlot<ReadonlySet<string> | undefined>('neverAcceptable', () => undefined);

/** Registers the list of the construct tree whose root is `root` (TenancyApp's constructor). */
export function setNeverAcceptable(root: IConstruct, ids: readonly string[]): void {
  AppContext.of(root).set(NEVER_ACCEPTABLE, new Set(ids));
}

/** The policy ids no acceptance lowers in `scope`'s App (the default when the App declared none). */
export function neverAcceptableOf(scope: IConstruct): ReadonlySet<string> {
  return AppContext.find(scope, NEVER_ACCEPTABLE) ?? DEFAULT_SET;
}

const DEFAULT_SET: ReadonlySet<string> = new Set(DEFAULT_NEVER_ACCEPTABLE);

/** The error of an acceptance that a listed check makes void: what it accepted, by which prop, and the fix. */
export function acceptanceNotAllowed(o: {
  /** The prop that accepts, as the field of the error (e.g. `acceptedReach`). */
  readonly prop: string;
  /** The policy id it accepts. */
  readonly id: string;
  /** What is accepted (the finding's message), or undefined for a lowered check. */
  readonly finding?: string;
  /** The reason given. */
  readonly reason?: string;
  /** How to remove the cause (the first half of the fix). */
  readonly remove: string;
  /** The field, when it is not `prop`. */
  readonly field?: string;
  /** The value, when it is not the id. */
  readonly value?: string;
}): DiagnosticDetails {
  const check = PolicyChecks.byId(o.id);
  const accepts = o.finding !== undefined
    ? `${o.finding}; ${o.prop} accepts it${o.reason !== undefined ? ` (reason: ${o.reason})` : ''}`
    : `${o.prop} lowers ${o.id} (${check?.code ?? o.id}) to ${o.value ?? ''}`;
  return {
    code: CODE.AcceptanceNotAllowed,
    field: o.field ?? o.prop,
    value: o.value ?? o.id,
    message: `${accepts}, but TenancyAppProps.neverAcceptable lists ${o.id}${o.finding !== undefined && check ? ` (${check.code})` : ''}: no acceptance lowers it`,
    fix: `${o.remove}, or have the platform take '${o.id}' off TenancyAppProps.neverAcceptable`,
  };
}

/**
 * A finding's fix without its offer to accept it (`, or accept it with ...`, `; or accept it: ...`) when its check is
 * never acceptable: an acceptance would be refused, so the fix names the list instead.
 */
export function fixWithoutAcceptance(fix: string | undefined, id: string | undefined, never: ReadonlySet<string>): string | undefined {
  if (fix === undefined || id === undefined || !never.has(id)) return fix;
  const at = fix.search(/[,;] or accept it\b/);
  const kept = at < 0 ? fix : fix.slice(0, at);
  return `${kept} (no acceptance lowers ${id}: TenancyAppProps.neverAcceptable lists it)`;
}
