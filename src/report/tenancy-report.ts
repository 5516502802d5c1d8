/**
 * TENANCY.md: a Markdown report of an App's tenancy (renders on GitHub, Mermaid included), built from the same
 * constructs and the same checks as the synth, so every number in it is the synth's.
 */
import { IConstruct } from 'constructs';
import { subscriptionsAmong, tenantOfSubscription, tenantsAmong } from './counts';
import { TenancyAudit, TenancyAuditResult } from '../audit/tenancy-audit';
import { auditOfRunningPass } from '../audit/validation';
import { CuratedCatalog } from '../catalog/curated-catalog';
import { clusterTargetsOf, OLM_TOKEN_REQUEST_SINCE, olmRequestsTokens, openshiftVersionOf, OPENSHIFT_TOKEN_REQUEST_SINCE_MINOR, ResolvedTargets } from '../core/cluster-targets';
import { Diagnostics } from '../core/diagnostics';
import { checkScope, describeValue, InputCheck, INPUT_CODES, prop, throwIfInvalid } from '../core/input';
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
      catalogs: catalogNames(scope, tenants).length,
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
    out.push('## Warnings', '');
    const warnings = Diagnostics.warnings(scope);
    if (warnings.length === 0) {
      out.push('No warnings.', '');
    } else {
      out.push('They do not fail the synth; each names what to change (`policyChecks` can raise a policy check to an error).', '');
      out.push('| policy | subject | why | fix |', '|---|---|---|---|');
      for (const w of warnings) {
        // a registered policy check has a one-line why and a fix; other warnings their own message, cut
        const policy = w.policyId !== undefined ? PolicyChecks.byId(w.policyId) : undefined;
        const subject = `${w.constructPath}${w.field ? ` ${w.field}` : ''}${w.value !== undefined ? ` = ${w.value}` : ''}`;
        const why = policy?.summary ?? w.message;
        const fix = w.fix ?? policy?.fix ?? '-';
        out.push(`| ${text(`${w.policyId !== undefined ? `${w.policyId} ` : ''}${w.code}`)} | ${text(Diagnostics.oneLine(subject, 160))} | ${text(Diagnostics.oneLine(why, 200))} | ${text(Diagnostics.oneLine(fix, 300))} |`);
      }
      out.push('');
    }

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

function catalogNames(scope: IConstruct, tenants: ScopedOperatorTenant[]): string[] {
  const names = new Set<string>();
  for (const c of scope.node.findAll()) if (c instanceof CuratedCatalog) names.add(`curated:${c.catalogName}`);
  const curated = new Set([...names].map((n) => n.slice('curated:'.length)));
  for (const t of tenants) {
    for (const s of t.subscriptions) if (!curated.has(s.sourceName)) names.add(`external:${s.sourceNamespace}/${s.sourceName}`);
  }
  return [...names].sort();
}

/** The preflight result of each subscription's first bundle. */
function firstResults(t: ScopedOperatorTenant): PreflightResult[] {
  return t.subscriptions.flatMap((s) => t.subscriptionPreflight(s.name).slice(0, 1));
}

function mermaid(scope: IConstruct, tenants: ScopedOperatorTenant[], installs: GlobalOperatorInstall[], audit: TenancyAuditResult): string[] {
  const id = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');
  const lines = ['flowchart LR'];
  for (const c of catalogNames(scope, tenants)) {
    const [kind, name] = [c.slice(0, c.indexOf(':')), c.slice(c.indexOf(':') + 1)];
    lines.push(`  cat_${id(name)}[("${kind === 'curated' ? 'curated catalog' : 'catalog'} ${mermaidLabel(name)}")]`);
  }
  const curated = new Set(catalogNames(scope, tenants).filter((c) => c.startsWith('curated:')).map((c) => c.slice('curated:'.length)));
  for (const t of tenants) {
    const tid = `ns_${id(t.namespaceName)}`;
    lines.push(`  ${tid}["tenant ${mermaidLabel(t.namespaceName)}${t.clusterInstallerRules.length > 0 ? ' (cluster rules)' : ''}"]`);
    for (const s of t.subscriptions) {
      const oid = `op_${id(t.namespaceName)}_${id(s.name)}`;
      const cat = curated.has(s.sourceName) ? s.sourceName : `${s.sourceNamespace}/${s.sourceName}`;
      lines.push(`  cat_${id(cat)} --> ${oid}["${mermaidLabel(`${s.packageName}${s.bundleName ? ` ${s.bundleName}` : ''}`)}"]`);
      lines.push(`  ${tid} --> ${oid}`);
    }
    const bySubject = new Map<string, string[]>();
    for (const g of t.accessGrants) {
      const key = `${g.subjectKind} ${g.subjectName}`;
      bySubject.set(key, [...(bySubject.get(key) ?? []), g.grant]);
    }
    for (const [subject, what] of [...bySubject.entries()].sort()) {
      lines.push(`  sub_${id(t.namespaceName)}_${id(subject)}(["${mermaidLabel(subject)}"]) -- "${mermaidLabel([...new Set(what)].sort().join(', '))}" --> ${tid}`);
    }
  }
  // the operators the platform installs for all namespaces, with the tenants whose identities may drive them (OLMT-055)
  const declared = new Set(catalogNames(scope, tenants).map((c) => c.slice(c.indexOf(':') + 1)));
  const tenantNamespace = new Map(tenants.map((t) => [t.node.path, t.namespaceName]));
  for (const install of installs) {
    const gid = `global_${id(install.namespaceName)}`;
    lines.push(`  ${gid}["global install ${mermaidLabel(install.namespaceName)} (all namespaces, OLM's own client)"]`);
    const results = (audit.globalOperators ?? []).filter((g) => g.install === install.node.path);
    for (const o of install.operators) {
      const s = o.subscription.info;
      const oid = `gop_${id(install.namespaceName)}_${id(s.name)}`;
      const cat = curated.has(s.sourceName) ? s.sourceName : `${s.sourceNamespace}/${s.sourceName}`;
      if (!declared.has(cat)) {
        declared.add(cat);
        lines.push(`  cat_${id(cat)}[("catalog ${mermaidLabel(cat)}")]`);
      }
      lines.push(`  cat_${id(cat)} --> ${oid}["${mermaidLabel(`${s.packageName}${s.bundleName ? ` ${s.bundleName}` : ''}`)}"]`);
      lines.push(`  ${gid} --> ${oid}`);
      const drivers = results.find((g) => g.packageName === s.packageName)?.drivers ?? [];
      for (const ns of [...new Set(drivers.map((d) => tenantNamespace.get(d.tenant)).filter((n): n is string => n !== undefined))].sort()) {
        const accepted = drivers.filter((d) => tenantNamespace.get(d.tenant) === ns).every((d) => d.accepted);
        lines.push(`  ns_${id(ns)} -- "${accepted ? 'may drive it (accepted)' : 'may drive it (fails the synth)'}" --> ${oid}`);
      }
    }
  }
  return lines;
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
