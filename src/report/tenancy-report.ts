/**
 * TENANCY.md: a Markdown report of an App's tenancy (renders on GitHub, Mermaid included), built from the same
 * constructs and the same checks as the synth, so every number in it is the synth's.
 */
import { IConstruct } from 'constructs';
import { subscriptionsAmong, tenantOfSubscription, tenantsAmong } from './counts';
import { TenancyAudit, TenancyAuditResult } from '../audit/tenancy-audit';
import { auditOfRunningPass } from '../audit/tenancy-audit-validation';
import { CuratedCatalog } from '../catalog/curated-catalog';
import { clusterTargetsOf, OLM_TOKEN_REQUEST_SINCE, olmRequestsTokens, openshiftVersionOf, OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR, ResolvedTargets } from '../core/cluster-targets';
import { AcceptedRisk, Diagnostic, Diagnostics } from '../core/diagnostics';
import { checkScope, describeValue, InputCheck, INPUT_CODES, prop, throwIfInvalid } from '../core/input-check';
import { markdownCode, markdownCodeCell, markdownFence, markdownText, mermaidLabel } from '../core/markdown';
import { PolicyChecks } from '../core/policy-checks';
import { GlobalOperatorInstall } from '../platform/global-operator-install';
import { InstallPreflight, PreflightResult } from '../preflight/install-preflight';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { SubscriptionInfo } from '../tenant/subscriptions/operator-subscription-props';
import { UpgradeAnalysis } from '../upgrade/upgrade-analysis';

/** Options of `TenancyReport.markdown`. */
export interface TenancyReportOptions {
  /**
   * Title of the report.
   * @default 'Tenancy report'
   */
  readonly title?: string;
  /**
   * How many objects the synth wrote (stated in the summary when given).
   * @default - not stated
   */
  readonly objectCount?: number;
  /**
   * Extra sections appended to the report, in order (Markdown, each starting with a `## ` heading): e.g. the
   * effective-power audit or the upgrade permission diffs.
   * @default - none
   */
  readonly extraSections?: string[];
}

/** The numbers a report states, for tools and tests. */
export interface TenancyReportFacts {
  /** Curated catalogs of the App plus external CatalogSources subscribed to. */
  readonly catalogs: number;
  /** Tenants. */
  readonly tenants: number;
  /**
   * Every `OperatorSubscription`: the tenants' and any other (an operator the platform installs itself); the count
   * of the synth summary line.
   */
  readonly subscriptions: number;
  /** Subscriptions with a bundle whose install preflight passes. */
  readonly preflightPassed: number;
  /** Subscriptions with a bundle whose install preflight fails. */
  readonly preflightFailed: number;
  /** Installer rules in tenant namespaces (after compaction), all tenants. */
  readonly namespacedInstallerRules: number;
  /** Cluster-scoped installer rules (after compaction), all tenants. */
  readonly clusterInstallerRules: number;
  /** Tenants whose installer holds cluster-scoped rules. */
  readonly tenantsWithClusterRules: number;
  /** Grants to people and groups. */
  readonly accessGrants: number;
  /** Operators off-boarded with `removeOperator`. */
  readonly removedOperators: number;
}

/** Builds TENANCY.md. */
export class TenancyReport {
  /** The numbers the report states for the tenants and catalogs under `scope`. */
  public static facts(scope: IConstruct): TenancyReportFacts {
    const check = new InputCheck();
    checkScope(check, 'scope', scope);
    throwIfInvalid(check, 'TenancyReport.facts');
    const tenants = tenantsOf(scope);
    const results = tenants.flatMap((t) => firstResults(t));
    return {
      catalogs: catalogsOf(scope, tenants).all.length,
      tenants: tenants.length,
      subscriptions: subscriptionsAmong(scope.node.findAll()).length,
      preflightPassed: results.filter((r) => r.ok).length,
      preflightFailed: results.filter((r) => !r.ok).length,
      namespacedInstallerRules: tenants.reduce((n, t) => n + t.installerRules.length, 0),
      clusterInstallerRules: tenants.reduce((n, t) => n + t.clusterInstallerRules.length, 0),
      tenantsWithClusterRules: tenants.filter((t) => t.clusterInstallerRules.length > 0).length,
      accessGrants: tenants.reduce((n, t) => n + t.accessGrants.length, 0),
      removedOperators: tenants.reduce((n, t) => n + t.removedOperators.length, 0),
    };
  }

  /** The report as Markdown. Deterministic: tenants in construct order, everything else sorted. */
  public static markdown(scope: IConstruct, options: TenancyReportOptions = {}): string {
    const check = new InputCheck();
    checkScope(check, 'scope', scope);
    options = checkReportOptions(check, options);
    throwIfInvalid(check, 'TenancyReport.markdown');
    const tenants = tenantsOf(scope);
    const f = TenancyReport.facts(scope);
    // in a TenancyApp synth the audit of the App was computed by this pass's validation: not audited twice
    const audit = (scope === scope.node.root ? auditOfRunningPass(scope) : undefined) ?? TenancyAudit.ofConstruct(scope);
    const out: string[] = [];
    out.push(`# ${text(options.title ?? 'Tenancy report')}`, '');
    out.push('Generated by cdk8s-olm-tenancy from the same synth as the manifests: do not edit.', '');
    out.push('| catalogs | tenants | subscriptions | preflight passed | preflight failed | installer rules (namespaced / cluster) | tenants with cluster rules | access grants | removed operators |' + (options.objectCount !== undefined ? ' objects |' : ''));
    out.push('|---|---|---|---|---|---|---|---|---|' + (options.objectCount !== undefined ? '---|' : ''));
    out.push(`| ${f.catalogs} | ${f.tenants} | ${f.subscriptions} | ${f.preflightPassed} | ${f.preflightFailed} | ${f.namespacedInstallerRules} / ${f.clusterInstallerRules} | ${f.tenantsWithClusterRules} | ${f.accessGrants} | ${f.removedOperators} |`
      + (options.objectCount !== undefined ? ` ${options.objectCount} |` : ''));
    out.push('');

    // the warnings first: they do not fail the synth, so this is where people see them
    out.push(...warningsSection(Diagnostics.warnings(scope)));
    // then the decisions taken by name, apart from what is still open
    out.push(...acceptedRisksSection(Diagnostics.acceptedRisks(scope)));

    // the most powerful installs of the platform, before the tenants
    const installs = scope.node.findAll().filter((c): c is GlobalOperatorInstall => c instanceof GlobalOperatorInstall);
    out.push(...globalInstallsSection(installs, audit));

    out.push('## Who installs what, and who may do what', '');
    out.push(...markdownFence('mermaid', mermaid(scope, tenants, installs, audit)), '');

    out.push('## Subscriptions', '');
    out.push('| tenant | package | channel | catalog | approval | pinned CSV | bundle | installs | checked on it | allowed upgrades | preflight |');
    out.push('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const t of tenants) {
      for (const s of t.subscriptions) {
        const results = t.subscriptionPreflight(s.name);
        const first = results[0];
        const upgrades = [
          ...results.slice(1).map((r) => `${r.bundleName}${r.ok ? '' : ' (FAILS)'}`),
          ...(s.allowedUpgrades ?? []),
        ];
        const verdict = first === undefined ? (s.bundleName !== undefined && s.checkedCsv === undefined ? 'not run: the bundle is not what OLM installs' : 'no bundle given')
          : first.ok ? 'passes' : `FAILS (${first.missing.length} missing, ${first.problems.length} problems)`;
        out.push(subscriptionRow(text(t.namespaceName), s, upgrades, verdict));
      }
    }
    // subscriptions of no tenant (an operator the platform installs itself): counted in the summary, so listed too
    for (const sub of subscriptionsAmong(scope.node.findAll())) {
      if (tenantOfSubscription(sub) !== undefined) continue;
      const s = sub.info;
      const global = sub.node.scopes.some((c) => c instanceof GlobalOperatorInstall);
      out.push(subscriptionRow(`${text(sub.namespace)} (no tenant)`, s, s.allowedUpgrades ?? [],
        global ? 'global install: OLM installs it with its own client (see above)' : 'not checked: no tenant installer'));
    }
    out.push('');

    out.push('## Installer permissions', '');
    for (const t of tenants) {
      out.push(`### ${text(t.namespaceName)} (ServiceAccount ${code(`${t.namespaceName}/${t.installerServiceAccountName}`)})`, '');
      out.push(...ruleList(`Role ${code(t.installerRoleName)} in ${code(t.namespaceName)}`, t.installerRules, t.namespaceName));
      if (t.tokenSecret === undefined && olmRequestsTokens(clusterTargetsOf(t))) out.push(...noTokenSecretNote(clusterTargetsOf(t)));
      if (t.clusterInstallerRules.length > 0) out.push(...ruleList('ClusterRole (cluster-wide)', t.clusterInstallerRules, ''));
      // the sensitive grants accepted by name (acceptedSensitiveGrants, allowedSensitiveGrants), with why
      const grants = t.sensitiveGrants;
      if (grants.length > 0) {
        out.push('Sensitive grants held because they were accepted by name:', '', '| held by | grant | what | accepted |', '|---|---|---|---|');
        for (const g of grants) {
          const where = g.namespace === '' ? 'ClusterRole (cluster-wide)' : `Role ${codeCell(t.installerRoleName)} in ${codeCell(t.namespaceName)}`;
          out.push(`| ${where} | ${text(g.grant)} | ${text(g.what)} | ${text(g.acceptance)} |`);
        }
        out.push('');
      }
    }

    out.push('## Preflight results', '');
    const all = tenants.flatMap((t) => t.preflight().map((r) => ({ t, r })));
    if (all.length === 0) out.push('No subscription was given a bundle.', '');
    for (const { t, r } of all) {
      out.push(`- **${text(t.namespaceName)}**: ${text(InstallPreflight.format(r)[0])}`);
      for (const m of r.missing) out.push(`  - missing ${code(m.formatted)}`);
      for (const p of r.problems) out.push(`  - ${text(`${p.code}: ${p.message}`)}`);
    }
    if (all.length > 0) out.push('');

    out.push('## Allowed upgrades and their permission diffs', '');
    const analyses = tenants.flatMap((t) => t.upgrades().map((a) => ({ t, a })));
    if (analyses.length === 0) {
      const withGraph = tenants.some((t) => t.subscriptions.some((s) => s.allowedUpgrades !== undefined));
      out.push(withGraph
        // the graph is there: nothing newer than the pins is allowed (yet)
        ? 'No upgrade is allowed beyond the pinned CSVs: the upgrade graphs have no newer CSV within the version ranges.'
        : 'No subscription has an upgrade graph (`subscribe({ upgradeGraph })`).', '');
    }
    for (const { t, a } of analyses) {
      out.push(`### ${text(`${t.namespaceName}: ${a.packageName}`)}`, '', ...markdownFence('text', UpgradeAnalysis.format(a, t.namespaceName)), '');
    }

    out.push('## Access', '');
    const grants = tenants.flatMap((t) => t.accessGrants.map((g) => ({ t, g })));
    if (grants.length === 0) {
      out.push('Nobody was granted access.', '');
    } else {
      out.push('| tenant | subject | grant | namespace |', '|---|---|---|---|');
      for (const { t, g } of grants) out.push(`| ${text(t.namespaceName)} | ${text(g.subjectKind)} ${codeCell(g.subjectName)} | ${text(g.grant)} | ${text(g.namespace)} |`);
      out.push('');
    }

    out.push('## Effective power (audit)', '');
    const findings = audit.tenants.flatMap((t) => t.findings);
    if (findings.length === 0) {
      out.push("No tenant identity reaches beyond its tenant's namespaces.", '');
    } else {
      out.push('| tenant | identity | reaches | status | path |', '|---|---|---|---|---|');
      for (const finding of findings) {
        const status = finding.accepted ? text(`accepted: ${finding.acceptedReason}`) : `**${text(finding.code)}** (fails the synth)`;
        const reaches = finding.namespace === '' ? 'cluster-wide' : text(`namespace ${finding.namespace}`);
        out.push(`| ${text(finding.tenant)} | ${text(finding.subject)} | ${reaches} | ${status} | ${text(finding.path.join(' -> '))} |`);
      }
      out.push('');
    }

    out.push('## Off-boarding: what OLM leaves behind', '');
    const removed = tenants.flatMap((t) => t.removedOperators.map((r) => ({ t, r })));
    if (removed.length === 0) out.push('No operator is being removed.', '');
    for (const { t, r } of removed) {
      out.push(`- **${text(t.namespaceName)}** / ${text(r.packageName)}: the Subscription is no longer synthesized (prune it). Then:`);
      out.push(`  - ${code(`kubectl delete clusterserviceversion ${r.csvName} -n ${t.namespaceName}`)} (OLM removes the operator's Deployment, ServiceAccounts and RBAC it owns through the CSV)`);
      out.push(`  - the InstallPlans of ${code(t.namespaceName)} whose \`spec.clusterServiceVersionNames\` list ${code(r.csvName)} (${code(`kubectl get installplans -n ${t.namespaceName}`)}): they are not deleted with the Subscription`);
      const crds = (r.bundle?.crds ?? []).map((c) => c.name).sort();
      const shared = new Set(tenants.filter((o) => o !== t).flatMap((o) => o.installedBundles.flatMap((b) => b.crds.map((c) => c.name))));
      for (const crd of crds) {
        out.push(shared.has(crd)
          ? `  - CRD ${code(crd)}: still used by another tenant's operator: keep it`
          : `  - CRD ${code(crd)}: delete its custom resources first, then the CRD, if nobody else uses it (cluster-wide)`);
      }
    }
    if (removed.length > 0) out.push('');

    for (const section of options.extraSections ?? []) out.push(section.trimEnd(), '');
    return `${out.join('\n').trimEnd()}\n`;
  }

  private constructor() {}
}

/** The options of `markdown`, checked (JavaScript and jsii callers). */
function checkReportOptions(check: InputCheck, raw: unknown): TenancyReportOptions {
  const o = check.optionalObject('options', raw, 'pass { title?, objectCount?, extraSections? }');
  if (!o) return {};
  check.knownProps(o, 'TenancyReportOptions', 'options', 'options.');
  const objectCount = check.optionalNumber('options.objectCount', prop(o, 'objectCount'));
  if (objectCount !== undefined && (!Number.isInteger(objectCount) || objectCount < 0)) {
    check.add({ code: INPUT_CODES.value, field: 'options.objectCount', value: String(objectCount), message: `options.objectCount must be a whole number of objects, got ${describeValue(objectCount)}`, fix: 'pass the number of objects written, or leave objectCount out' });
  }
  return {
    // the title is a Markdown heading: one line
    title: check.optionalString('options.title', prop(o, 'title'), { fix: "pass title as one line of text, e.g. 'Tenancy of cluster prod-1'" }),
    objectCount,
    extraSections: check.optionalArray('options.extraSections', prop(o, 'extraSections'),
      (v, f) => check.requiredString(f, v, 'pass each section as Markdown text starting with a `## ` heading', { singleLine: false }),
      'pass extraSections as a list of Markdown strings'),
  };
}

function tenantsOf(scope: IConstruct): ScopedOperatorTenant[] {
  return tenantsAmong(scope.node.findAll());
}

/** A catalog of the diagram and the counts: a `CuratedCatalog` of the App, or a CatalogSource it does not define. */
interface ReportCatalog {
  /** `curated:<construct path>` or `external:<namespace>/<name>`: unique, and sorted by. */
  readonly key: string;
  /** The node's label. */
  readonly label: string;
  /** What its node id reads as: the catalog's name, or the CatalogSource's namespace and name. */
  readonly idParts: string[];
}

/**
 * The catalogs of the App: its curated catalogs, and every other CatalogSource subscribed to, keyed by namespace and
 * name (a Subscription names its CatalogSource by both: `spec.source`, `spec.sourceNamespace`).
 */
class Catalogs {
  private readonly curated: CuratedCatalog[];
  private readonly byKey = new Map<string, ReportCatalog>();

  public constructor(scope: IConstruct, subscriptions: Array<{ sourceName: string; sourceNamespace: string }>) {
    this.curated = scope.node.findAll().filter((c): c is CuratedCatalog => c instanceof CuratedCatalog);
    for (const c of this.curated) {
      this.byKey.set(`curated:${c.node.path}`, { key: `curated:${c.node.path}`, label: `curated catalog ${c.catalogName}`, idParts: [c.catalogName] });
    }
    for (const s of subscriptions) this.of(s);
  }

  /** Every catalog, sorted by key. */
  public get all(): ReportCatalog[] {
    return [...this.byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The catalog a subscription resolves from: the curated catalog served under that name in that namespace, else the CatalogSource itself. */
  public of(s: { sourceName: string; sourceNamespace: string }): ReportCatalog {
    const curated = this.curated.find((c) => c.catalogName === s.sourceName && c.servedNamespaces.includes(s.sourceNamespace));
    if (curated !== undefined) return this.byKey.get(`curated:${curated.node.path}`)!;
    const key = `external:${s.sourceNamespace}/${s.sourceName}`;
    if (!this.byKey.has(key)) this.byKey.set(key, { key, label: `catalog ${s.sourceNamespace}/${s.sourceName}`, idParts: [s.sourceNamespace, s.sourceName] });
    return this.byKey.get(key)!;
  }
}

function catalogsOf(scope: IConstruct, tenants: ScopedOperatorTenant[]): Catalogs {
  return new Catalogs(scope, tenants.flatMap((t) => t.subscriptions));
}

/**
 * Mermaid node ids, one per key: the key with every character outside `[A-Za-z0-9_]` as `_`, and `_2`, `_3`, ... when
 * that id is taken by another key, so that two names that differ only in punctuation stay two nodes.
 */
class NodeIds {
  private readonly ids = new Map<string, string>();
  private readonly used = new Set<string>();

  /** The id of the node `prefix` + `parts` (its key), readable as those parts. */
  public of(prefix: string, ...parts: string[]): string {
    return this.forKey(JSON.stringify([prefix, ...parts]), prefix, parts);
  }

  /** The id of the node `key`, readable as `prefix` + `parts`. */
  public forKey(key: string, prefix: string, parts: string[]): string {
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const base = `${prefix}_${parts.map((p) => p.replace(/[^A-Za-z0-9_]/g, '_')).join('_')}`;
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
    this.ids.set(key, id);
    this.used.add(id);
    return id;
  }
}

/** The preflight result of each subscription's first bundle. */
function firstResults(t: ScopedOperatorTenant): PreflightResult[] {
  return t.subscriptions.flatMap((s) => t.subscriptionPreflight(s.name).slice(0, 1));
}

function mermaid(scope: IConstruct, tenants: ScopedOperatorTenant[], installs: GlobalOperatorInstall[], audit: TenancyAuditResult): string[] {
  const ids = new NodeIds();
  const catalogs = catalogsOf(scope, tenants);
  const lines = ['flowchart LR'];
  const catalogId = (c: ReportCatalog) => ids.forKey(c.key, 'cat', c.idParts);
  const declared = new Set<string>();
  for (const c of catalogs.all) {
    declared.add(c.key);
    lines.push(`  ${catalogId(c)}[("${mermaidLabel(c.label)}")]`);
  }
  const tenantId = (namespace: string) => ids.of('ns', namespace);
  for (const t of tenants) {
    const tid = tenantId(t.namespaceName);
    lines.push(`  ${tid}["tenant ${mermaidLabel(t.namespaceName)}${t.clusterInstallerRules.length > 0 ? ' (cluster rules)' : ''}"]`);
    for (const s of t.subscriptions) {
      const oid = ids.of('op', t.namespaceName, s.name);
      lines.push(`  ${catalogId(catalogs.of(s))} --> ${oid}["${mermaidLabel(`${s.packageName}${s.bundleName ? ` ${s.bundleName}` : ''}`)}"]`);
      lines.push(`  ${tid} --> ${oid}`);
    }
    const bySubject = new Map<string, string[]>();
    for (const g of t.accessGrants) {
      const key = `${g.subjectKind} ${g.subjectName}`;
      bySubject.set(key, [...(bySubject.get(key) ?? []), g.grant]);
    }
    for (const [subject, what] of [...bySubject.entries()].sort()) {
      lines.push(`  ${ids.of('sub', t.namespaceName, subject)}(["${mermaidLabel(subject)}"]) -- "${mermaidLabel([...new Set(what)].sort().join(', '))}" --> ${tid}`);
    }
  }
  // the operators the platform installs for all namespaces, with the tenants whose identities may drive them (OLMT-055)
  const tenantNamespace = new Map(tenants.map((t) => [t.node.path, t.namespaceName]));
  for (const install of installs) {
    const gid = ids.of('global', install.namespaceName);
    lines.push(`  ${gid}["global install ${mermaidLabel(install.namespaceName)} (all namespaces, OLM's own client)"]`);
    const results = (audit.globalOperators ?? []).filter((g) => g.install === install.node.path);
    for (const o of install.operators) {
      const s = o.subscription.info;
      const oid = ids.of('gop', install.namespaceName, s.name);
      const cat = catalogs.of(s);
      if (!declared.has(cat.key)) {
        declared.add(cat.key);
        lines.push(`  ${catalogId(cat)}[("${mermaidLabel(cat.label)}")]`);
      }
      lines.push(`  ${catalogId(cat)} --> ${oid}["${mermaidLabel(`${s.packageName}${s.bundleName ? ` ${s.bundleName}` : ''}`)}"]`);
      lines.push(`  ${gid} --> ${oid}`);
      const drivers = results.find((g) => g.packageName === s.packageName)?.drivers ?? [];
      for (const ns of [...new Set(drivers.map((d) => tenantNamespace.get(d.tenant)).filter((n): n is string => n !== undefined))].sort()) {
        const accepted = drivers.filter((d) => tenantNamespace.get(d.tenant) === ns).every((d) => d.accepted);
        lines.push(`  ${tenantId(ns)} -- "${accepted ? 'may drive it (accepted)' : 'may drive it (fails the synth)'}" --> ${oid}`);
      }
    }
  }
  return lines;
}

/**
 * `## Warnings`: the open warnings (accepted findings are under "Accepted risks"), one row per decision to take: the
 * findings of one check with the same why and fix share a row, their subjects listed (each `field = value` once, with
 * every construct reporting it). Nothing is cut: the why and the fix are the whole text.
 */
function warningsSection(all: Diagnostic[]): string[] {
  const out = ['## Warnings', ''];
  const warnings = all.filter((w) => w.acceptedBy === undefined);
  if (warnings.length === 0) return [...out, 'No warnings.', ''];
  out.push('They do not fail the synth; each names what to change (`policyChecks` can raise a policy check to an error). '
    + 'Findings of one check with the same fix share a row.', '');
  out.push('| policy | subject | why | fix |', '|---|---|---|---|');
  const rows = new Map<string, { policy: string; why: string; fix: string; subjects: Map<string, string[]> }>();
  for (const w of warnings) {
    // a registered policy check has a one-line why and a fix; other warnings their own message
    const policy = w.policyId !== undefined ? PolicyChecks.byId(w.policyId) : undefined;
    const why = policy?.summary ?? w.message;
    const fix = w.fix ?? policy?.fix ?? '-';
    const name = `${w.policyId !== undefined ? `${w.policyId} ` : ''}${w.code}`;
    const key = JSON.stringify([name, why, fix]);
    if (!rows.has(key)) rows.set(key, { policy: name, why, fix, subjects: new Map() });
    const subjects = rows.get(key)!.subjects;
    const where = `${w.field ? ` ${w.field}` : ''}${w.value !== undefined ? ` = ${w.value}` : ''}`;
    subjects.set(where, [...(subjects.get(where) ?? []), w.constructPath]);
  }
  for (const r of rows.values()) {
    const subject = [...r.subjects].map(([where, paths]) => `${[...new Set(paths)].join(', ')}${where}`).join('; ');
    out.push(`| ${text(r.policy)} | ${text(Diagnostics.oneLine(subject))} | ${text(Diagnostics.oneLine(r.why))} | ${text(Diagnostics.oneLine(r.fix))} |`);
  }
  return [...out, ''];
}

/** `## Accepted risks`: one row per decision taken by name (`Diagnostics.acceptedRisks`), with its prop and reason. */
function acceptedRisksSection(risks: AcceptedRisk[]): string[] {
  const out = ['## Accepted risks', ''];
  if (risks.length === 0) return [...out, 'No risk was accepted by name.', ''];
  out.push('Decisions taken by name, each with the prop that took it: a finding accepted, a sensitive grant held, a policy check lowered. '
    + 'They are not open warnings; review them as you would a grant.', '');
  out.push('| decided in | accepted by | what | reason |', '|---|---|---|---|');
  for (const r of risks) {
    const what = `${r.policyId !== undefined && !r.what.startsWith(r.policyId) ? `${r.policyId} ` : ''}${r.what}`;
    out.push(`| ${text(r.constructPath)} | ${codeCell(r.acceptedBy)} | ${text(Diagnostics.oneLine(what))} | ${r.reason === '' ? 'none given (the prop takes none)' : text(Diagnostics.oneLine(r.reason))} |`);
  }
  return [...out, ''];
}

/**
 * The operators the platform installs for all namespaces (`GlobalOperatorInstall`): namespace, reason, packages,
 * what each operator's ServiceAccounts can do (`GlobalOperatorPermissionPreview`) and which tenant identities may
 * drive them (the audit's OLMT-055). Empty when the App has none.
 */
function globalInstallsSection(installs: GlobalOperatorInstall[], audit: TenancyAuditResult): string[] {
  if (installs.length === 0) return [];
  const out: string[] = ['## Operators the platform installs for all namespaces', ''];
  out.push('OLM installs them with its own cluster-admin client (an AllNamespaces OperatorGroup without `spec.serviceAccountName`): '
    + 'the most powerful installs of the platform. Their operators act on their custom resources in every namespace.', '');
  for (const install of installs) {
    const results = (audit.globalOperators ?? []).filter((g) => g.install === install.node.path);
    out.push(`### ${text(`namespace ${install.namespaceName}`)} (OperatorGroup ${code(install.operatorGroupName)})`, '');
    out.push(`Reason: ${text(install.reason)}`, '');
    out.push('| package | channel | catalog | approval | bundle | tenant identities that may drive it |', '|---|---|---|---|---|---|');
    const operators = install.operators;
    for (const o of operators) {
      const s = o.subscription.info;
      const r = results.find((g) => g.packageName === s.packageName);
      const drivers = r === undefined ? '-' : !r.apisKnown ? 'unknown (no bundle)' : r.drivers.length === 0 ? 'none'
        : `${r.drivers.length}${o.tenantsMayDriveReason !== undefined ? ` (accepted: ${o.tenantsMayDriveReason})` : ' (fails the synth)'}`;
      out.push(`| ${text(s.packageName)} | ${text(s.channel ?? '(default)')} | ${text(`${s.sourceNamespace}/${s.sourceName}`)} | ${text(s.installPlanApproval)} | ${orDash(s.bundleName)} | ${text(drivers)} |`);
    }
    out.push('');
    for (const o of operators) {
      const s = o.subscription.info;
      out.push(`#### ${text(`${s.packageName}: what its ServiceAccounts can do`)}`, '');
      if (!o.preview.known) {
        for (const f of o.preview.findings) out.push(`- ${text(f.what)}`);
        out.push('');
      }
      for (const subject of o.preview.subjects) {
        const scopes = [subject.clusterRules.length > 0 ? 'cluster-wide' : '', ...subject.namespaces.map((n) => `namespace ${n}`)].filter((x) => x !== '');
        out.push(`- ${text(subject.subject)}: ${subject.unbounded ? 'everything (* on every resource cluster-wide)' : text(`${RbacRules.compact(subject.clusterRules).length} rule(s) ${scopes.join(', ') || 'nowhere'}`)}`);
        for (const f of o.preview.findings.filter((x) => x.subject === subject.subject)) out.push(`  - ${text(f.what)}`);
      }
      for (const f of o.preview.findings.filter((x) => !o.preview.subjects.some((sub) => sub.subject === x.subject) && o.preview.known)) out.push(`- ${text(f.what)}`);
      if (o.preview.known) out.push('');
      const r = results.find((g) => g.packageName === s.packageName);
      for (const d of r?.drivers ?? []) {
        const status = d.accepted ? text(`accepted: ${d.acceptedReason}`) : `**${text(d.code)}** (fails the synth)`;
        const where = d.namespaces.includes('') ? 'every namespace' : `namespace ${d.namespaces.join(', ')}`;
        out.push(`- driven by ${text(d.subject === '*' ? 'every tenant identity (unknown)' : `${d.subject} (tenant ${d.tenant}): ${d.apis.join(', ')} in ${where}`)}: ${status}`);
      }
      if ((r?.drivers ?? []).length > 0) out.push('');
    }
  }
  return out;
}

function ruleList(title: string, rules: PolicyRule[], namespace: string): string[] {
  if (rules.length === 0) return [`${title}: no rules.`, ''];
  return [`${title}: ${rules.length} rule(s)`, '', ...rules.map((r) => `- ${code(RbacRules.format(r, namespace))}`), ''];
}

// every value of the report is written as text or code that a CommonMark reader reads back as such (core/markdown)
const text = markdownText;
const code = markdownCode;
const codeCell = markdownCodeCell;

/**
 * A row of the Subscriptions table: with what OLM installs first (`installsCsv`: the startingCsv, or the channel head
 * the App knows) and whether the preflight and the derived rules were checked on that CSV (`checkedCsv`).
 */
function subscriptionRow(owner: string, s: SubscriptionInfo, upgrades: string[], verdict: string): string {
  const installs = s.installsCsv ?? 'the channel head (not known here)';
  const checked = s.checkedCsv === undefined
    ? (s.bundleName !== undefined && s.bundleName !== s.installsCsv ? `no: the bundle given is ${s.bundleName}` : 'no: no bundle given')
    : s.installsCsv === undefined ? `unverified: ${s.checkedCsv} is taken as the channel head`
      : s.checkedCsv === s.installsCsv ? 'yes' : `no: checked ${s.checkedCsv}`;
  return `| ${owner} | ${text(s.packageName)} | ${text(s.channel ?? '(default)')} | ${text(`${s.sourceNamespace}/${s.sourceName}`)} | ${text(s.installPlanApproval)} `
    + `| ${orDash(s.startingCsv)} | ${orDash(s.bundleName)} | ${text(installs)} | ${text(checked)} | ${orDash(upgrades.join(', '))} | ${verdict} |`;
}

/** A value as text, `-` when absent or empty. */
function orDash(v: string | undefined): string {
  return v === undefined || v === '' ? '-' : text(v);
}

/**
 * Why a tenant has no token Secret when the App's targets declare an OLM with the TokenRequest fallback
 * (operator-lifecycle-manager pkg/lib/scoped/token_retriever.go, PR #3377).
 */
function noTokenSecretNote(t: ResolvedTargets): string[] {
  // OpenShift named only when the declared OLM version alone would not request tokens
  const byOpenShift = t.openshiftMinor !== undefined && ((t.openshiftMajor ?? 4) > 4 || t.openshiftMinor >= OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR);
  const olm = byOpenShift && !olmRequestsTokens({ ...t, openshiftMinor: undefined })
    ? `OpenShift ${openshiftVersionOf(t)}'s OLM (TokenRequest fallback since 4.16, openshift/operator-framework-olm#898)`
    : `OLM ${t.olmVersion} (>= ${OLM_TOKEN_REQUEST_SINCE})`;
  return [
    `No token Secret: ${olm}, as declared in \`TenancyAppProps.targets\`, requests the installer's tokens with the TokenRequest API `
    + 'when the ServiceAccount has no token Secret (`pkg/lib/scoped/token_retriever.go`, OLM PR #3377), so a long-lived token '
    + 'Secret would be a credential nobody needs. The installer works the same; OLM gets short-lived tokens.',
    '',
  ];
}
