/**
 * Internal: the audit as a synth-time validation of each tenant. The audit of the whole App is computed once per
 * validation pass and each tenant reports its own findings: not accepted ones as errors, accepted ones as warnings.
 *
 * Every cdk8s validation pass validates the whole App pre-order, root first, so the root refreshes the result before
 * the tenants read it. In a `TenancyApp` synth or a `Diagnostics.warnings` call (a `SynthPass`) the audit runs once
 * for the pass; in other passes (a plain cdk8s App validates once per Chart) a fingerprint of what the audit depends
 * on, the audited objects' content included (`AuditFingerprint.of`), skips the audit when nothing changed since the
 * last pass.
 */
import { IConstruct } from 'constructs';
import { AuditFingerprint } from './audit-fingerprint';
import { TenancyAudit, TenancyAuditResult, TenantAuditResult } from './tenancy-audit';
import { AppContext, AppSlot } from '../core/app-context';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { acceptanceNotAllowed, fixWithoutAcceptance, neverAcceptableOf } from '../core/never-acceptable';
import { PolicyChecks } from '../core/policy-checks';
import { SynthPass } from '../core/synth-pass';

interface Cache {
  result?: TenancyAuditResult;
  /** The `SynthPass` `result` was computed in (then no fingerprint: nothing changes during a pass). */
  pass?: object;
  /** `result`'s tenants by name */
  byTenant?: Map<string, TenantAuditResult>;
  fingerprint?: string;
  /** The root's refreshing validation is registered (`enableTenancyAudit`). */
  refreshing?: boolean;
}

/** The App's last audit and whether its root refreshes it. */
const TENANCY_AUDIT = new AppSlot('tenancyAudit', (): Cache => ({}));

function refresh(root: IConstruct, cache: Cache): TenancyAuditResult {
  const pass = SynthPass.current(root);
  if (pass !== undefined) {
    // one TenancyApp pass: audited once, without the fingerprint (a walk over every tenant's facts)
    if (!cache.result || cache.pass !== pass) store(root, cache, undefined, pass);
    return cache.result!;
  }
  const fingerprint = AuditFingerprint.of(root);
  if (!cache.result || cache.pass !== undefined || cache.fingerprint !== fingerprint) store(root, cache, fingerprint, undefined);
  return cache.result!;
}

function store(root: IConstruct, cache: Cache, fingerprint: string | undefined, pass: object | undefined): void {
  cache.result = TenancyAudit.ofConstruct(root);
  cache.byTenant = new Map(cache.result.tenants.map((t) => [t.tenant, t]));
  cache.fingerprint = fingerprint;
  cache.pass = pass;
}

/** The audit of `root`'s App computed in the running `SynthPass`, if any (the report reuses it). */
export function auditOfRunningPass(root: IConstruct): TenancyAuditResult | undefined {
  const cache = AppContext.find(root, TENANCY_AUDIT);
  const pass = SynthPass.current(root);
  return pass !== undefined && cache?.pass === pass ? cache.result : undefined;
}

function cacheOf(root: IConstruct): Cache {
  return AppContext.of(root).get(TENANCY_AUDIT);
}

/**
 * Registers the refreshing validation of `construct`'s tree (call at construction). Only the root refreshes: every
 * cdk8s validation pass (`App.synth()`, `synthYaml()`, `Chart.toJson()` through `App._synthChart`, `TenancyApp`)
 * validates the whole App pre-order, root first. A refresher per Chart recomputed the fingerprint (a walk over every
 * tenant) once per Chart: quadratic with a Chart per tenant.
 */
export function enableTenancyAudit(construct: IConstruct): void {
  const root = construct.node.root;
  const cache = cacheOf(root);
  if (cache.refreshing === true) return;
  cache.refreshing = true;
  root.node.addValidation({
    validate: () => {
      refresh(root, cache);
      return [];
    },
  });
}

/** The audit diagnostics of the tenant `construct` (found by its construct path). */
export function tenancyAuditDiagnostics(construct: IConstruct): { errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] } {
  const root = construct.node.root;
  const cache = cacheOf(root);
  // in a cdk8s validation pass the root validation has refreshed it; in a SynthPass (TenancyApp, Diagnostics.warnings)
  // it is computed once for the pass; otherwise (a tenant validated alone) computed if never computed
  const pass = SynthPass.current(root);
  if (!cache.result || (pass !== undefined && cache.pass !== pass)) refresh(root, cache);
  const mine = cache.byTenant?.get(construct.node.path);
  const never = neverAcceptableOf(construct);
  const errors: DiagnosticDetails[] = [];
  const warnings: DiagnosticDetails[] = [];
  for (const f of mine?.findings ?? []) {
    const d = { code: f.code, field: 'identity', value: f.subject, message: f.message };
    const id = PolicyChecks.byCode(f.code)?.id;
    if (f.accepted && id !== undefined && never.has(id)) {
      // the platform lists the check as never acceptable: the acceptance counts for nothing
      errors.push(acceptanceNotAllowed({ prop: 'acceptedReach', id, finding: f.message, reason: f.acceptedReason, remove: 'remove what gives the reach (a step of the path above)' }));
    } else if (f.accepted) {
      // accepted: a decision with its reason, reported apart from the open warnings and with no fix
      warnings.push({ ...d, acceptedBy: 'acceptedReach', acceptedReason: f.acceptedReason ?? '' });
    } else {
      errors.push({ ...d, fix: fixWithoutAcceptance(f.fix, id, never) });
    }
  }
  return { errors, warnings };
}

/**
 * The OLMT-055 diagnostics of the global install `construct` (`GlobalOperatorInstall`, found by its construct path):
 * not accepted drivers as errors, accepted ones as warnings (with the reason).
 */
export function globalOperatorDiagnostics(construct: IConstruct): { errors: DiagnosticDetails[]; warnings: DiagnosticDetails[] } {
  const root = construct.node.root;
  const cache = cacheOf(root);
  // refreshed here too (a fingerprint check outside a SynthPass): a global install validated without its root (a
  // Chart's validation) must not read a result from before its last install(); there are few global installs
  refresh(root, cache);
  const never = neverAcceptableOf(construct);
  const errors: DiagnosticDetails[] = [];
  const warnings: DiagnosticDetails[] = [];
  for (const g of cache.result?.globalOperators ?? []) {
    if (g.install !== construct.node.path) continue;
    for (const d of g.drivers) {
      const details = { code: d.code, field: `install(${g.packageName})`, value: d.subject, message: d.message };
      const prop = `install({ packageName: '${g.packageName}', tenantsMayDriveReason })`;
      const id = PolicyChecks.byCode(d.code)?.id;
      if (d.accepted && id !== undefined && never.has(id)) {
        errors.push(acceptanceNotAllowed({
          prop,
          id,
          finding: d.message,
          reason: d.acceptedReason,
          field: `install(${g.packageName})`,
          value: d.subject,
          remove: `remove the create (or *) on the operator's APIs from ${d.subject}`,
        }));
      } else if (d.accepted) {
        warnings.push({ ...details, acceptedBy: prop, acceptedReason: d.acceptedReason ?? '' });
      } else {
        errors.push({ ...details, fix: fixWithoutAcceptance(d.fix, id, never) });
      }
    }
  }
  return { errors, warnings };
}
