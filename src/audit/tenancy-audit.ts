/**
 * The tenancy audit: for each tenant, what its identities (installer, operators as OLM creates them, the people the
 * tenant grants access) reach outside the tenant's namespaces and at cluster scope, with the path that grants it.
 * Pure: plain data in (Kubernetes JSON of the App, the tenants' facts and bundles), findings out. Runs at synth time
 * as a validation of every `ScopedOperatorTenant`, and over any construct tree with `TenancyAudit.ofConstruct`.
 */
import { IConstruct } from 'constructs';
import { auditedTenantsOf, auditInputOf, forEachAuditedManifest, globalOperatorsOf } from './audit-fingerprint';
import { AuditedTenant, TenancyAuditInput } from './audited-tenant';
import { CLUSTER_ADMIN_RULES } from './builtin-roles';
import { EffectivePower, PowerGrant, PowerObject, RbacSubject, RoleOrigin, SubjectKind, subjectLabel } from './effective-power';
import { GlobalOperatorAuditResult, GlobalOperatorDriver, globalOperatorDrivers, GlobalOperatorFacts } from './global-operator-drivers';
import { checkAuditInput, checkAuditResult, checkPowerObjects, checkTenancyAuditArg } from './input-checks';
import { ReachCode } from './reach-code';
import { OperatorBundle } from '../bundle/operator-bundle';
import { BoundedCache, CACHING, contentKey } from '../core/content-cache';
import { gitOpsIdentitiesOf } from '../core/gitops-identities';
import { InputCheck, throwIfInvalid } from '../core/input-check';
import { OlmGeneratedRbac } from '../olm/olm-generated-rbac';
import { AccessLevel, OlmNaming } from '../olm/olm-naming';
import { NamespaceTemplates } from '../preflight/namespace-templates';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';
import { serviceAccountNamespaces } from '../rbac/subject-matcher';

/** One finding. */
export interface ReachFinding {
  /** Stable code. */
  readonly code: ReachCode;
  /** The tenant's name. */
  readonly tenant: string;
  /** The subject, e.g. `ServiceAccount team-a/etcd-operator`. */
  readonly subject: string;
  /** Where the reached rules apply: a namespace, or `""` for cluster-wide. */
  readonly namespace: string;
  /** The reached rules the subject is not granted directly (compacted). */
  readonly rules: PolicyRule[];
  /** The path, from the subject to the rules. */
  readonly path: string[];
  /** True when an `AcceptedReach` covers it (then it is a warning, not an error). */
  readonly accepted: boolean;
  /**
   * The reason of the opt-in that covers it.
   * @default - not accepted
   */
  readonly acceptedReason?: string;
  /** One line: the subject, what it reaches and the path. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/** The audit of one tenant. */
export interface TenantAuditResult {
  /** The tenant's name. */
  readonly tenant: string;
  /** Its namespace. */
  readonly namespace: string;
  /** The identities audited (installer, operator ServiceAccounts, GitOps identities, people), in that order. */
  readonly subjects: string[];
  /**
   * The tenant's GitOps identities among `subjects` (the ServiceAccounts that apply its folder and own repository).
   * @default - none
   */
  readonly gitOpsIdentities?: string[];
  /** Findings, sorted by subject order, code, namespace. */
  readonly findings: ReachFinding[];
}

/** The audit of every tenant. */
export interface TenancyAuditResult {
  /** Per tenant, in input order. */
  readonly tenants: TenantAuditResult[];
  /**
   * Per operator the platform installs for all namespaces (`GlobalOperatorInstall`), in construct order: the tenant
   * identities that may create objects of its APIs (OLMT-055).
   * @default - none (no global install)
   */
  readonly globalOperators?: GlobalOperatorAuditResult[];
  /**
   * The identity that applies the platform's folder (`cluster/`) when the tenants' folders apply as their own GitOps
   * identities: the one identity beyond every tenant, named as the accepted exception (not audited: it is the
   * platform's).
   * @default - no GitOps identities
   */
  readonly platformApplier?: string;
}

const RULES_IN_MESSAGE = 4;

/** Runs the audit. */
export class TenancyAudit {
  /** OperatorGroup annotation listing the accepted reaches (JSON). */
  public static readonly ACCEPTED_REACH_ANNOTATION = 'cdk8s-olm-tenancy.io/accepted-reach';

  /**
   * The objects OLM creates for a tenant from its bundles: generated RBAC (`OlmGeneratedRbac`: CSV permissions,
   * copied and lifted roles, cert RBAC, OperatorGroup roles), the operator Deployments, and the bundle's own RBAC
   * objects and ServiceAccounts (namespaced ones in the tenant namespace; ServiceAccount subjects without a
   * namespace taken as the tenant's).
   */
  public static objectsOf(tenant: AuditedTenant): PowerObject[] {
    checkTenancyAuditArg('objectsOf', tenant, ENUMS);
    return objectsFor(tenant, true);
  }

  /** The ServiceAccounts OLM creates or runs for the bundles (permissions, clusterPermissions, deployments), sorted. */
  public static operatorServiceAccounts(bundles: OperatorBundle[]): string[] {
    checkTenancyAuditArg('operatorServiceAccounts', bundles, ENUMS);
    return serviceAccountsOf(bundles);
  }

  /** Audits the tenants against each other and the App's objects. */
  public static audit(input: TenancyAuditInput): TenancyAuditResult {
    checkAuditInput(input, ENUMS);
    return TenancyAudit.run(input);
  }

  /**
   * Which tenant identities may create objects of the APIs (owned CRDs) of operators the platform installs for all
   * namespaces with OLM's own client: the identities `audit` audits, through the same effective-power model, with
   * what OLM creates for the global operators (provided-API ClusterRoles aggregated to admin/edit/view) added.
   */
  public static globalOperators(input: TenancyAuditInput, operators: GlobalOperatorFacts[]): GlobalOperatorAuditResult[] {
    checkAuditInput(input, ENUMS);
    if (!Array.isArray(operators)) throw new Error('TenancyAudit.globalOperators: operators must be a list of GlobalOperatorFacts');
    return globalOperatorDrivers(input, operators, subjectsOf, (t) => objectsFor(t, true));
  }

  /**
   * The audit of the tenants registered under `scope`'s root (every `ScopedOperatorTenant`), over every object of the
   * App, and the drivers of the App's global operators (`GlobalOperatorInstall`) when it has any.
   */
  public static ofConstruct(scope: IConstruct): TenancyAuditResult {
    checkTenancyAuditArg('ofConstruct', scope, ENUMS);
    const tenantsResult = TenancyAudit.ofConstructTenants(scope);
    const platform = gitOpsIdentitiesOf(scope)?.platform;
    const withPlatform = platform !== undefined ? { ...tenantsResult, platformApplier: platform } : tenantsResult;
    const globals = globalOperatorsOf(scope);
    if (globals.length === 0) return withPlatform;
    return { ...withPlatform, globalOperators: globalOperatorDrivers(auditInputOf(scope), globals, subjectsOf, (t) => objectsFor(t, true)) };
  }

  /** The result as readable text: per tenant, its subjects and each finding with its path. */
  public static report(result: TenancyAuditResult): string {
    checkAuditResult(result);
    const lines: string[] = [];
    for (const t of result.tenants) {
      const errors = t.findings.filter((f) => !f.accepted).length;
      lines.push(`tenant ${t.tenant} (namespace ${t.namespace}): ${t.findings.length === 0 ? 'no reach outside its namespaces' : `${t.findings.length} finding(s), ${errors} not accepted`}`);
      if ((t.gitOpsIdentities ?? []).length > 0) lines.push(`  GitOps identities (audited with the others): ${t.gitOpsIdentities!.join(', ')}`);
      for (const f of t.findings) {
        lines.push(`  ${f.accepted ? 'accepted' : 'ERROR'} ${f.code}: ${f.subject} reaches ${scopeText(f.namespace)}`);
        lines.push(`    path: ${f.path.join(' -> ')}`);
        for (const r of f.rules.slice(0, RULES_IN_MESSAGE)) lines.push(`    ${RbacRules.format(r, f.namespace)}`);
        if (f.rules.length > RULES_IN_MESSAGE) lines.push(`    ... ${f.rules.length - RULES_IN_MESSAGE} more rule(s)`);
        if (f.accepted) lines.push(`    accepted: ${f.acceptedReason}`);
      }
    }
    for (const g of result.globalOperators ?? []) {
      const open = g.drivers.filter((d) => !d.accepted).length;
      const tenants = new Set(g.drivers.map((d) => d.tenant)).size;
      lines.push(`global operator ${g.packageName} (namespace ${g.namespace}, installed by the platform with OLM's own client): `
        + (!g.apisKnown ? 'its APIs are unknown (no bundle)' : g.drivers.length === 0 ? `no tenant identity may create its APIs (${g.apis.join(', ')})`
          : `${g.drivers.length} identit${g.drivers.length === 1 ? 'y' : 'ies'} of ${tenants} tenant(s) may drive it, ${open} not accepted`));
      for (const d of g.drivers) {
        lines.push(`  ${d.accepted ? 'accepted' : 'ERROR'} ${d.code}: ${d.subject === '*' ? 'every tenant identity, unknown' : `${d.subject} (tenant ${d.tenant}) may create ${driverWhere(d)}`}`);
        if (d.path.length > 0) lines.push(`    path: ${d.path.join(' -> ')}`);
        if (d.accepted) lines.push(`    accepted: ${d.acceptedReason}`);
      }
    }
    if (result.platformApplier !== undefined) {
      lines.push(`platform applier ${result.platformApplier}: applies cluster/ (and the GitOps tools' objects), cluster-wide: `
        + 'the one identity beyond the tenants, accepted as the platform\'s own (docs/gitops.md, "Who applies what")');
    }
    // the conclusion a reader looks for: does any tenant reach beyond its own namespaces?
    const reaching = result.tenants.filter((t) => t.findings.length > 0);
    if (result.tenants.length > 0) {
      const notAccepted = reaching.reduce((n, t) => n + t.findings.filter((f) => !f.accepted).length, 0);
      lines.push(reaching.length === 0
        ? `no tenant reaches another: the identities of all ${result.tenants.length} tenant(s) stay in their tenants' namespaces`
        : `${reaching.length} of ${result.tenants.length} tenant(s) reach outside their namespaces (${notAccepted} finding(s) not accepted)`);
    }
    return lines.join('\n') + '\n';
  }

  /**
   * `audit` without the input checks and without the isolation shortcut (see `run`): the reference the optimized
   * audit is tested equal to.
   * @internal
   */
  public static _auditUnoptimized(input: TenancyAuditInput): TenancyAuditResult {
    return TenancyAudit.run(input, false);
  }

  private static ofConstructTenants(scope: IConstruct): TenancyAuditResult {
    // confinement depends on the bindings only: when every tenant is confined, the other objects are not read
    // (scanned one by one: thousands of manifests are not held at once)
    const scan = new LeakScan();
    forEachAuditedManifest(scope, BINDING_KINDS, (m) => scan.add(m));
    const tenants = auditedTenantsOf(scope);
    for (const t of tenants) scan.addLeaks(tenantLeaks(t));
    if (tenants.every((t) => isConfinedTenant(t, scan.confined))) return { tenants: tenants.map(confinedResult) };
    return TenancyAudit.run(auditInputOf(scope));
  }

  /**
   * `audit` without the input checks: the synth-time audit reads the tenants' already checked props.
   *
   * With `optimized`, tenants whose identities cannot reach anything outside their namespace (`confinedNamespaces`)
   * get their result without the closure: every grant any identity `ServiceAccount <ns>/*` reaches is in `<ns>`, the
   * tenant's own namespace, so no grant is outside it (no finding of step 2) and the only installers such an identity
   * can become are installers of `<ns>`, whose direct grants are in `<ns>` too (no finding of step 1). The effective
   * power of the App is only built when some tenant is not confined.
   */
  private static run(input: TenancyAuditInput, optimized = true): TenancyAuditResult {
    // provided-API roles only for tenants that grant people access, or for every tenant when a role holding them is
    // bound, or they may be aggregated again, somewhere (see objectsFor)
    const everyTenantsApis = providedApisReachable(input);
    const objects = [...input.objects, ...input.tenants.flatMap((t) => objectsFor(t, everyTenantsApis || (t.people ?? []).length > 0))];
    const confined = optimized ? LeakScan.of(objects).confined : undefined;
    const isConfined = (t: AuditedTenant) => confined !== undefined && isConfinedTenant(t, confined);
    if (input.tenants.every(isConfined)) {
      // the same input check as EffectivePower's constructor (objects built here: always passes)
      const check = new InputCheck();
      checkPowerObjects(check, 'objects', objects);
      throwIfInvalid(check, 'EffectivePower');
      return { tenants: input.tenants.map(confinedResult) };
    }
    const power = new EffectivePower(objects);
    const tenantNamespaces = new Set(input.tenants.map((t) => t.namespace));
    const inside = (t: AuditedTenant, namespace: string) => isInside(t, namespace, tenantNamespaces);
    // installers holding rules outside their tenant's namespaces, by identity label
    const installers = new Map<string, { tenant: AuditedTenant; outside: PowerGrant[] }>();
    for (const t of input.tenants) {
      const subject: RbacSubject = { kind: SubjectKind.SERVICE_ACCOUNT, name: t.installerServiceAccountName, namespace: t.namespace };
      const outside = isConfined(t)
        ? []
        : power._of(subject).grants.filter((g) => g.direct && g.roleOrigin !== RoleOrigin.BENIGN_BUILT_IN && !inside(t, g.namespace));
      installers.set(subjectLabel(subject), { tenant: t, outside });
    }
    return {
      tenants: input.tenants.map((t) => (isConfined(t) ? confinedResult(t) : TenancyAudit.auditTenant(t, power, installers, inside))),
    };
  }

  private static auditTenant(
    t: AuditedTenant,
    power: EffectivePower,
    installers: Map<string, { tenant: AuditedTenant; outside: PowerGrant[] }>,
    inside: (t: AuditedTenant, namespace: string) => boolean,
  ): TenantAuditResult {
    const ns = t.namespace;
    const subjects = subjectsOf(t);

    const findings: ReachFinding[] = [];
    const labels = new Set(subjects.map((x) => subjectLabel(x)));
    for (const s of subjects) {
      const label = subjectLabel(s);
      // what goes through another audited identity of the tenant is reported once, on that identity
      // (not an operator the subject has act for it by writing its custom resources: the operator's own grants are no
      // finding of its own, so what its writers reach through it is theirs)
      const viaOther = (path: string[]) => path.slice(1, -1).some((step, i) => step !== label && labels.has(step) && !path[i].endsWith(`) acts on it as ${step}`));
      const p = power._of(s);
      const direct = p.grants.filter((g) => g.direct && g.roleOrigin === RoleOrigin.DEFINED);
      const heldIn = (scope: string) => direct.filter((g) => g.namespace === '' || g.namespace === scope).flatMap((g) => g.rules);
      // 1. identities that are installers with rules outside their namespaces
      const assumedInstallers = new Set<string>();
      for (const id of p.identities) {
        if (id.identity === label) continue;
        const inst = installers.get(id.identity);
        if (!inst || inst.outside.length === 0 || viaOther(id.path)) continue;
        assumedInstallers.add(id.identity);
        const rules = RbacRules.compact(inst.outside.flatMap((g) => g.rules));
        const scopes = [...new Set(inst.outside.map((g) => g.namespace))].sort(cmp);
        const where = scopes.map((x) => scopeText(x)).join(', ');
        findings.push(TenancyAudit.finding(t, ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, label, scopes[0], rules,
          [...id.path, `${inst.outside.map((g) => `${g.roleKind} ${g.roleName}`).filter(unique).join(', ')} (${where})`],
          `${label} can become the installer ${id.identity} of tenant ${inst.tenant.name}, which holds rules in ${where}`,
          inst.tenant === t
            // the token Secret advice only when the path reads one (with createTokenSecret: false there is none)
            ? `${id.path.some((step) => step.includes('(token of ServiceAccount')) ? 'on OLM >= 0.29 set `createTokenSecret: false` (no token Secret to read; OLM requests tokens, PR #3377), and ' : ''}`
              + `split the operators so that no operator shares the namespace of an installer with rules outside it (a pod created there may run as the installer); or accept it with ${acceptText(ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, label)}`
            : `remove what lets ${label} read secrets, create pods or tokens, exec or impersonate in namespace ${inst.tenant.namespace}; or accept it with ${acceptText(ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, label)}`));
      }
      // 2. grants outside the tenant's namespaces that are not plain, visible direct grants (an aggregated role's
      // rules are not what its object shows): one finding per code and namespace, with the first (shortest) path
      // found and every rule reached there
      const groups = new Map<string, { code: ReachCode; namespace: string; path: string[]; how: string; rules: PolicyRule[] }>();
      for (const g of p.grants) {
        if (g.roleOrigin === RoleOrigin.BENIGN_BUILT_IN || inside(t, g.namespace)) continue;
        if (g.direct && g.roleOrigin === RoleOrigin.DEFINED) continue;
        if (assumedInstallers.has(g.holder) || viaOther(g.path)) continue; // reported once, as IdentityCanAssumeInstaller or on that identity
        const missing = RbacRules.covers(heldIn(g.namespace), g.rules).missing;
        if (missing.length === 0) continue;
        const code = g.namespace === '' && RbacRules.covers(g.rules, CLUSTER_ADMIN_RULES.slice(0, 1)).covered
          ? ReachCode.TENANT_IDENTITY_UNBOUNDED
          : g.namespace === '' ? ReachCode.TENANT_IDENTITY_REACHES_CLUSTER : ReachCode.TENANT_IDENTITY_REACHES_OTHER_NAMESPACE;
        const key = JSON.stringify([code, g.namespace]);
        const group = groups.get(key);
        if (group) {
          group.rules.push(...missing);
          continue;
        }
        const kindOfRole = g.roleOrigin === RoleOrigin.UNKNOWN ? 'unknown' : g.roleOrigin === RoleOrigin.AGGREGATED ? 'aggregated' : 'built-in';
        const how = g.direct ? `is bound to the ${kindOfRole} ${g.roleKind} ${g.roleName}` : 'gets it indirectly';
        groups.set(key, { code, namespace: g.namespace, path: g.path, how, rules: [...missing] });
      }
      for (const g of groups.values()) {
        findings.push(TenancyAudit.finding(t, g.code, label, g.namespace, RbacRules.compact(g.rules), g.path,
          `${label} reaches ${scopeText(g.namespace)} (${g.how})`,
          `remove the step of the path that the tenant does not need (a bind, a secret or pod right, a binding to a built-in role), or accept it with ${acceptText(g.code, label)}`));
      }
    }
    const order = new Map(subjects.map((s, i) => [subjectLabel(s), i]));
    findings.sort((a, b) => order.get(a.subject)! - order.get(b.subject)! || cmp(a.code, b.code) || cmp(a.namespace, b.namespace) || cmp(a.path.join('\n'), b.path.join('\n')));
    return { tenant: t.name, namespace: ns, subjects: subjects.map((s) => subjectLabel(s)), ...gitOpsOf(t), findings };
  }

  private static finding(
    t: AuditedTenant, code: ReachCode, subject: string, namespace: string, rules: PolicyRule[], path: string[], what: string, fix: string,
  ): ReachFinding {
    const accept = (t.acceptedReach ?? []).find((a) => a.code === code && (a.subject === undefined || a.subject === subject)
      && typeof a.reason === 'string' && a.reason.trim() !== '');
    const shown = rules.slice(0, RULES_IN_MESSAGE).map((r) => RbacRules.format(r, namespace)).join('; ');
    const more = rules.length > RULES_IN_MESSAGE ? ` and ${rules.length - RULES_IN_MESSAGE} more rule(s)` : '';
    const message = `${what}: ${shown}${more}; path: ${path.join(' -> ')}`;
    return clean({
      code, tenant: t.name, subject, namespace, rules, path, accepted: accept !== undefined, acceptedReason: accept?.reason, message, fix,
    });
  }

  private constructor() {}
}

/**
 * Whether OLM's provided-API ClusterRoles of any tenant reach someone: a ClusterRole with an `aggregationRule` (in the
 * input or a bundle: it may select the same `rbac.authorization.k8s.io/aggregate-to-*` labels), or a binding (any
 * kind, any namespace, in the input or a bundle) of a ClusterRole that holds them: the built-in admin, edit or view
 * (their aggregation), a tenant's OperatorGroup ClusterRole (`olm.og.<og>.<level>-<hash>`, which aggregates them) or a
 * provided-API ClusterRole itself (`<crd>-<version>-<level>`), bound by name. Then every tenant's provided APIs count
 * in the rules of whoever holds those roles. Exported for its tests: where it is false, adding the roles would change no
 * finding (nobody holds them), only the cost of thousands of tenants, so only a direct test tells the two apart.
 */
export function providedApisReachable(input: TenancyAuditInput): boolean {
  const bound = new Set<string>();
  let aggregated = false;
  const read = (m: any) => {
    if (m === null || typeof m !== 'object') return;
    if (m.kind === 'ClusterRole' && m.aggregationRule !== undefined && m.aggregationRule !== null) aggregated = true;
    if ((m.kind === 'RoleBinding' || m.kind === 'ClusterRoleBinding') && m.roleRef?.kind === 'ClusterRole' && typeof m.roleRef.name === 'string') bound.add(m.roleRef.name);
  };
  for (const o of input.objects) read(o.manifest);
  for (const t of input.tenants) for (const b of t.bundles ?? []) for (const o of b.objects) read(o.raw);
  if (aggregated || [...BUILT_IN_AGGREGATING].some((r) => bound.has(r))) return true;
  if (bound.size === 0) return false;
  return input.tenants.some((t) => [AccessLevel.ADMIN, AccessLevel.EDIT, AccessLevel.VIEW]
    .some((level) => bound.has(OlmNaming.operatorGroupClusterRoleName(t.namespace, t.operatorGroupName, level, t.olmGeneration)))
    || (t.bundles ?? []).some((b) => OlmGeneratedRbac._providedApiClusterRoleNames(b).some((r) => bound.has(r))));
}

/** The built-in ClusterRoles that aggregate `rbac.authorization.k8s.io/aggregate-to-<name>` (Kubernetes bootstrap policy). */
const BUILT_IN_AGGREGATING: ReadonlySet<string> = new Set(['admin', 'edit', 'view']);

/**
 * `objectsOf`; without `providedApis`, OLM's per-API ClusterRoles are left out: they only grant the operators'
 * own APIs to people bound to the OperatorGroup roles or to the built-in admin/edit/view (every one of them is
 * labelled `rbac.authorization.k8s.io/aggregate-to-<level>`), never a way to another identity, and computing their
 * aggregation labels is most of the cost for thousands of tenants. `run` asks for them for the tenants with people,
 * and for every tenant when `providedApisReachable`.
 */
function objectsFor(tenant: AuditedTenant, providedApis: boolean): PowerObject[] {
  const bundles = tenant.bundles ?? [];
  const ns = tenant.namespace;
  const out: PowerObject[] = [];
  const rbac = new OlmGeneratedRbac({
    operatorGroup: { name: tenant.operatorGroupName, namespace: ns, targetNamespaces: tenant.targetNamespaces },
    operators: bundles.map((b) => OlmGeneratedRbac.memberOperator(b))
      .map((m) => (providedApis ? m : { ...m, ownedCrds: [], ownedApiServices: [] })),
    generation: tenant.olmGeneration,
  });
  for (const o of rbac.objects()) {
    out.push({ manifest: o.manifest, origin: `OLM ${o.source}${o.csvName ? ` of ${o.csvName}` : ''}` });
  }
  for (const b of bundles) {
    for (const d of b.deployments) {
      // the pod spec as OLM applies it: its ServiceAccount as OLM reads it, and the Secrets the kubelet fetches for it
      const podSpec = d.spec?.template?.spec;
      out.push({
        manifest: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: d.name, namespace: ns },
          spec: { template: { spec: podSpec !== null && typeof podSpec === 'object' ? { ...podSpec, serviceAccountName: d.serviceAccountName } : { serviceAccountName: d.serviceAccountName } } },
        },
        origin: `OLM, deployment of ${b.name}`,
      });
    }
    // the CSV OLM creates: its name may be written by name, and its operator reconciles its owned CRDs in the
    // OperatorGroup's targets (OLM's olm.targetNamespaces annotation, empty for AllNamespaces)
    out.push({ manifest: csvOf(b, ns, tenant.targetNamespaces), origin: `OLM, CSV of ${b.name}` });
    for (const p of [...b.permissions, ...b.clusterPermissions]) {
      out.push({ manifest: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: p.serviceAccountName, namespace: ns } }, origin: `OLM, ServiceAccount of ${b.name}` });
    }
    for (const o of b.objects) {
      // a bundle's token Secret: OLM creates it, the tokens controller fills it (mechanisms/deputies.ts bundle-token-secret)
      const tokenSecret = o.kind === 'Secret' && o.raw?.type === 'kubernetes.io/service-account-token';
      if (!tokenSecret && !['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ServiceAccount'].includes(o.kind)) continue;
      const raw = o.raw ?? {};
      const namespaced = o.kind !== 'ClusterRole' && o.kind !== 'ClusterRoleBinding';
      const manifest = {
        ...raw,
        metadata: { ...(raw.metadata ?? {}), ...(namespaced ? { namespace: ns } : {}) },
        subjects: Array.isArray(raw.subjects)
          ? raw.subjects.map((s: any) => (s && s.kind === 'ServiceAccount' && !s.namespace ? { ...s, namespace: ns } : s))
          : raw.subjects,
      };
      out.push({ manifest, origin: `bundle ${b.name}, ${o.source.slice(o.source.lastIndexOf('/') + 1)}` });
    }
  }
  return out;
}

/**
 * The CSV OLM creates for a bundle in namespace `ns`, reduced to what the effective-power model reads: its name, the
 * annotation `olm.targetNamespaces` (OLM `pkg/controller/operators/olm/operatorgroup.go`; empty for AllNamespaces), the
 * owned CRDs and the Deployments' ServiceAccounts. Once per bundle, namespace and targets.
 */
function csvOf(b: OperatorBundle, ns: string, targets: string[]): any {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: b.name, namespace: ns, annotations: { 'olm.targetNamespaces': targets.join(',') } },
    spec: {
      customresourcedefinitions: { owned: b.ownedCrds.map((c) => ({ name: c.name })) },
      install: {
        spec: {
          deployments: b.deployments.map((d) => ({ name: d.name, spec: { template: { spec: { serviceAccountName: d.serviceAccountName } } } })),
        },
      },
    },
  };
}

/**
 * Whether `namespace` is the tenant's: its own, a target, or (AllNamespaces) any namespace but another tenant's, which
 * OLM's lifted roles reach by the opt-in but whose identities (installer token, operators) are still another tenant's.
 */
function isInside(t: AuditedTenant, namespace: string, tenantNamespaces: Set<string>): boolean {
  if (namespace === '') return false;
  if (namespace === t.namespace || t.targetNamespaces.includes(namespace)) return true;
  return t.targetNamespaces.length === 0 && !tenantNamespaces.has(namespace);
}

function scopeText(namespace: string): string {
  return namespace === '' ? 'cluster-wide' : `namespace ${namespace}`;
}

function unique<T>(v: T, i: number, a: T[]): boolean {
  return a.indexOf(v) === i;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function clean<T extends object>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

const BINDING_KINDS: ReadonlySet<string> = new Set(['RoleBinding', 'ClusterRoleBinding']);

/** Whether a tenant is confined (see `TenancyAudit.run`): no people, and its namespace confined. */
function isConfinedTenant(t: AuditedTenant, confined: (namespace: string) => boolean): boolean {
  return (t.people ?? []).length === 0 && t.namespace !== '' && confined(t.namespace);
}

/** The result of a confined tenant: its subjects, no finding. */
function confinedResult(t: AuditedTenant): TenantAuditResult {
  return { tenant: t.name, namespace: t.namespace, subjects: subjectsOf(t).map((s) => subjectLabel(s)), ...gitOpsOf(t), findings: [] };
}

/** `gitOpsIdentities` of a tenant's result, when it has any (labels as the audit names subjects). */
function gitOpsOf(t: AuditedTenant): { gitOpsIdentities?: string[] } {
  const names = t.gitOpsServiceAccounts ?? [];
  if (names.length === 0) return {};
  return { gitOpsIdentities: names.map((n) => subjectLabel({ kind: SubjectKind.SERVICE_ACCOUNT, name: n, namespace: t.namespace })) };
}

/** The identities audited for a tenant: its installer, the operators' ServiceAccounts, its people; each once. */
export function subjectsOf(t: AuditedTenant): RbacSubject[] {
  const ns = t.namespace;
  const installer: RbacSubject = { kind: SubjectKind.SERVICE_ACCOUNT, name: t.installerServiceAccountName, namespace: ns };
  const subjects: RbacSubject[] = [installer];
  const seen = new Set([subjectLabel(installer)]);
  const addSubject = (s: RbacSubject) => {
    const label = subjectLabel(s);
    if (seen.has(label)) return;
    seen.add(label);
    subjects.push(s);
  };
  for (const sa of serviceAccountsOf(t.bundles ?? [])) {
    addSubject({ kind: SubjectKind.SERVICE_ACCOUNT, name: sa, namespace: ns });
  }
  for (const sa of t.gitOpsServiceAccounts ?? []) addSubject({ kind: SubjectKind.SERVICE_ACCOUNT, name: sa, namespace: ns });
  for (const p of t.people ?? []) addSubject(p);
  return subjects;
}

/**
 * Which namespaces are confined: every binding (RoleBinding or ClusterRoleBinding, read as `EffectivePower` indexes
 * them) that names one of the namespace's ServiceAccounts (as a ServiceAccount subject, or a User subject with its
 * user name `system:serviceaccount:<ns>:<name>`: `serviceAccountNamespaces`), or its group `system:serviceaccounts:<ns>`, is a
 * RoleBinding in that namespace, and no binding names the groups every ServiceAccount belongs to
 * (`system:serviceaccounts`, `system:authenticated`; `k8s.io/apiserver/pkg/authentication/serviceaccount/util.go`
 * `MakeGroupNames`). Then an identity `ServiceAccount <ns>/x` only holds grants in `<ns>`: bind and escalate add
 * grants in the scopes it holds rules in, new identities come from the namespaces it holds rules in (ServiceAccounts
 * of `<ns>` again), and users, groups or any identity only from cluster-wide grants.
 */
class LeakScan {
  public static of(objects: Iterable<PowerObject>): LeakScan {
    const scan = new LeakScan();
    for (const o of objects) scan.add(o.manifest);
    return scan;
  }

  /** Namespaces whose ServiceAccounts a binding reaches from outside them. */
  private readonly leaky = new Set<string>();
  /** A binding names every ServiceAccount: no namespace is confined. */
  private all = false;

  /** Whether `namespace` is confined by what was scanned. */
  public readonly confined = (namespace: string): boolean => !this.all && !this.leaky.has(namespace);

  public add(m: any): void {
    if (m !== null && typeof m === 'object' && m.kind === 'ClusterServiceVersion') {
      this.addReconciler(m);
      return;
    }
    if (m === null || typeof m !== 'object' || (m.kind !== 'RoleBinding' && m.kind !== 'ClusterRoleBinding')) return;
    const ns: string = (m.metadata ?? {}).namespace ?? '';
    const bindingNs = m.kind === 'RoleBinding' ? ns : '';
    for (const s of Array.isArray(m.subjects) ? m.subjects : []) {
      if (!s || typeof s.kind !== 'string' || typeof s.name !== 'string') continue;
      // the ServiceAccounts the subject applies to, as the authorizer matches it (a ServiceAccount subject, a User
      // named system:serviceaccount:<ns>:<name>, the groups of every or one namespace's ServiceAccounts)
      const reach = serviceAccountNamespaces({ kind: s.kind, name: s.name, namespace: typeof s.namespace === 'string' ? s.namespace : undefined }, bindingNs);
      if (reach.all) this.all = true;
      for (const saNs of reach.namespaces) if (saNs !== bindingNs || bindingNs === '') this.leaky.add(saNs);
    }
  }

  /**
   * An operator that reconciles its CRDs in other namespaces acts for the writers there (the effective-power model's
   * reconciling-operator step): those namespaces' identities may reach its ServiceAccounts; every namespace's for
   * AllNamespaces.
   */
  private addReconciler(m: any): void {
    const owned = m.spec?.customresourcedefinitions?.owned;
    if (!Array.isArray(owned) || owned.length === 0) return;
    const own: string = m.metadata?.namespace ?? '';
    const targets = m.metadata?.annotations?.['olm.targetNamespaces'];
    const watched = typeof targets === 'string' ? targets.split(',').map((x) => x.trim()).filter((x) => x !== '') : [];
    if (watched.length === 0) this.all = true;
    for (const ns of watched) if (ns !== own) this.leaky.add(ns);
  }

  public addLeaks(leaks: TenantLeaks): void {
    if (leaks.all) this.all = true;
    for (const ns of leaks.namespaces) this.leaky.add(ns);
  }

  public get leaks(): TenantLeaks {
    return { all: this.all, namespaces: [...this.leaky].sort(cmp) };
  }
}

/** What a set of objects makes leaky (see `LeakScan`). */
export interface TenantLeaks {
  readonly all: boolean;
  readonly namespaces: readonly string[];
}

/**
 * The leaks of the objects OLM creates for a tenant (`objectsFor`), computed once per bundle list and install shape
 * for a placeholder namespace and instantiated per tenant: the scan compares namespaces for equality only, so the
 * result for namespace N is the placeholder's with the placeholder replaced by N, as long as N and the placeholder
 * both differ from every other namespace involved (targets, kube-system of OLM's auth-reader bindings, namespaces
 * the bundles' own bindings name). Otherwise, computed directly. Names (of the OperatorGroup, of roles) are not read.
 */
export function tenantLeaks(t: AuditedTenant): TenantLeaks {
  const providedApis = (t.people ?? []).length > 0;
  const ns = t.namespace;
  const bundles = t.bundles ?? [];
  const others = [...GENERATED_RBAC_NAMESPACES, ...bundles.flatMap(namespacesNamedBy), ...t.targetNamespaces.filter((x) => x !== ns)];
  const direct = () => LeakScan.of(objectsFor(t, providedApis)).leaks;
  if (!CACHING.enabled || ns === '' || ns === LEAK_PLACEHOLDER || others.includes(ns) || others.includes(LEAK_PLACEHOLDER)) return direct();
  const toPlaceholder = (x: string) => (x === ns ? LEAK_PLACEHOLDER : x);
  const key = contentKey([NamespaceTemplates.bundlesKey(bundles), providedApis, t.olmGeneration ?? null, t.targetNamespaces.map(toPlaceholder)]);
  const template = TENANT_LEAKS.get(key, () => LeakScan.of(objectsFor({
    ...t, namespace: LEAK_PLACEHOLDER, operatorGroupName: toPlaceholder(t.operatorGroupName), targetNamespaces: t.targetNamespaces.map(toPlaceholder),
  }, providedApis)).leaks);
  return { all: template.all, namespaces: template.namespaces.map((x) => (x === LEAK_PLACEHOLDER ? ns : x)).sort(cmp) };
}

/** A valid namespace name that stands for the tenant's in `tenantLeaks`' templates. */
const LEAK_PLACEHOLDER = 'a0-cdk8s-olm-tenancy-namespace-placeholder';
/** Namespaces OLM's generated RBAC names besides the OperatorGroup's and its targets (`OlmGeneratedRbac.servingCertRbac`). */
const GENERATED_RBAC_NAMESPACES = ['kube-system'];
const TENANT_LEAKS = new BoundedCache<TenantLeaks>(1000);

/** Namespaces a bundle's own objects name (the bindings' subjects), once per bundle. */
const BUNDLE_NAMESPACES_CACHE = new WeakMap<OperatorBundle, string[]>();
function namespacesNamedBy(b: OperatorBundle): string[] {
  let out = BUNDLE_NAMESPACES_CACHE.get(b);
  if (out === undefined) {
    const found = new Set<string>();
    for (const o of b.objects) {
      const raw = o.raw ?? {};
      if (typeof raw.metadata?.namespace === 'string') found.add(raw.metadata.namespace);
      if (!Array.isArray(raw.subjects)) continue;
      for (const s of raw.subjects) {
        if (s && typeof s.namespace === 'string') found.add(s.namespace);
        // `system:serviceaccounts:<ns>` and `system:serviceaccount:<ns>:<name>` name a namespace too
        if (s && typeof s.name === 'string' && typeof s.kind === 'string') {
          for (const saNs of serviceAccountNamespaces({ kind: s.kind, name: s.name }, '').namespaces) found.add(saNs);
        }
      }
    }
    out = [...found];
    BUNDLE_NAMESPACES_CACHE.set(b, out);
  }
  return out;
}

/** `TenancyAudit.operatorServiceAccounts` without the input checks. */
function serviceAccountsOf(bundles: OperatorBundle[]): string[] {
  const names = new Set<string>();
  for (const b of bundles) {
    for (const p of [...b.permissions, ...b.clusterPermissions]) names.add(p.serviceAccountName);
    for (const d of b.deployments) names.add(d.serviceAccountName);
  }
  return [...names].sort(cmp);
}

const ENUMS = { subjectKind: SubjectKind as unknown as { [key: string]: string }, reachCode: ReachCode as unknown as { [key: string]: ReachCode } };

/**
 * The prop that accepts a reach, as code that compiles against the public API (the enum member, not its string
 * value: `code: 'IdentityCanAssumeInstaller'` is TS2322), in backticks like every code of a fix text.
 */
function acceptText(code: ReachCode, subject: string): string {
  const member = Object.keys(ReachCode).find((k) => (ReachCode as any)[k] === code) ?? code;
  return `\`acceptedReach: [{ code: ReachCode.${member}, subject: ${JSON.stringify(subject).replace(/'/g, "\\'").replace(/^"|"$/g, "'")}, reason: '...' }]\``;
}

/** What a driver of a global operator may create, and where: cluster-scoped kinds cluster-wide, the others in its namespaces. */
function driverWhere(d: GlobalOperatorDriver): string {
  const cluster = new Set(d.clusterScopedApis ?? []);
  const namespaced = d.apis.filter((a) => !cluster.has(a));
  return [
    ...(namespaced.length > 0 ? [`${namespaced.join(', ')} ${d.namespaces.includes('') ? 'in every namespace' : `in namespace ${d.namespaces.join(', ')}`}`] : []),
    ...(cluster.size > 0 ? [`${[...cluster].join(', ')} (cluster-scoped) cluster-wide`] : []),
  ].join(' and ');
}
