/**
 * `TenancyApp`: a cdk8s `App` whose synthesis costs one pass however many charts it has.
 *
 * cdk8s `App.synth()` (cdk8s 2.70 `lib/app.js`) validates and resolves dependencies once, then calls
 * `chart.toJson()` per chart, and `Chart.toJson()` -> `App._synthChart` resolves the dependencies and runs every
 * validation of the *whole* App again. With one chart per tenant every tenant's checks run once per chart: N^2.
 * `TenancyApp` runs the same steps once and renders each chart's objects the way `App._synthChart` does
 * (`chartToKube`: the chart's dependency topology, filtered to the ApiObjects whose closest chart it is), so the
 * files are byte-identical to cdk8s's for every `YamlOutputType`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, DependencyGraph, Names } from 'cdk8s';
import { IConstruct, Node } from 'constructs';
import { checkTenancyAppProps, gitOpsIdentityNames, resolveClusterTargets } from './input-checks';
import { OutputLayout, SynthErrorFormat, TenancyAppProps } from './tenancy-app-props';
import { admissionPolicyProblems, ClusterTargets, ResolvedTargets, setClusterTargets } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer, constructPathOf, Diagnostic, Diagnostics, errorDetailsOf, Severity, WarningGroups } from '../core/diagnostics';
import { GitOpsIdentityNames, setGitOpsIdentities } from '../core/gitops-identities';
import { GoDuration } from '../core/go-duration';
import { InputCheck } from '../core/input-check';
import { L1Json } from '../core/l1-json';
import { markdownCodeCell, markdownText } from '../core/markdown';
import { DEFAULT_NEVER_ACCEPTABLE, setNeverAcceptable } from '../core/never-acceptable';
import { SynthPass } from '../core/synth-pass';
import { ClusterExtension } from '../imports/olmv1';
import { OlmV1Team } from '../olmv1/olm-v1-team';
import { ArgoCdOptions } from '../output/argocd-applications-props';
import { writeLikeCdk8s } from '../output/cdk8s-files';
import { FluxOptions } from '../output/flux-kustomizations-props';
import { GITOPS_ENTRIES, LayoutOwner, TenantToolFacts, writeGitOps } from '../output/gitops-writer';
import { DEFAULT_LOCK_WAIT } from '../output/output-lock';
import { asOutputWriteError } from '../output/output-writer';
import { removeStaleErrors, synthFailureMessage } from '../output/synth-failure';
import { writeSynthOutput } from '../output/synth-output';
import { UNREPRESENTABLE_MESSAGE, UnrepresentableYamlError, useFaithfulWriter, YamlWriter } from '../output/yaml-writer';
import { subscriptionsAmong, tenantsAmong } from '../report/counts';
import { TenancyReport } from '../report/tenancy-report';
import { isPlatformApplied } from '../tenant/rbac/gitops-applier';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { TenantGitOpsSource } from '../tenant/scoped-operator-tenant-props';
import { OperatorSubscription } from '../tenant/subscriptions/operator-subscription';
import { InstallPlanApproval } from '../tenant/subscriptions/operator-subscription-props';

/** One chart's synthesized objects, as `chart.toJson()` would return them. */
export interface ChartObjects {
  /** The chart. */
  readonly chart: Chart;
  /** The chart's construct path (`chart.node.path`). */
  readonly path: string;
  /** The chart's name as cdk8s names its file or folder (`Names.toDnsLabel(chart)`, without any index prefix). */
  readonly name: string;
  /** The chart's objects (JSON), in the order cdk8s writes them. */
  readonly objects: any[];
}

/** What `synth()` printed in its summary line, for callers that print their own. */
export interface SynthSummary {
  /** Number of `ScopedOperatorTenant`s in the App. */
  readonly tenants: number;
  /** Number of `OperatorSubscription`s in the App. */
  readonly subscriptions: number;
  /** Number of objects written. */
  readonly objects: number;
  /** Wall-clock milliseconds of the synthesis. */
  readonly milliseconds: number;
  /**
   * Number of `OlmV1Team`s in the App.
   * @default 0
   */
  readonly olmV1Teams?: number;
  /**
   * Number of OLM v1 `ClusterExtension`s in the App.
   * @default 0
   */
  readonly olmV1Extensions?: number;
}

/**
 * A drop-in for cdk8s `App` that synthesizes in one pass: dependency resolution and every validation run once per
 * `synth()` / `synthYaml()` / `synthObjects()`, however many charts the App has. The output is byte-identical to
 * cdk8s `App`'s for the same constructs, except for strings Kubernetes' YAML 1.1 reader would read differently,
 * which are quoted or escaped (docs/scale.md); a string with a lone surrogate is refused.
 *
 * `synth()` also prints, to stderr, the library's warnings (a finding shared by many constructs names a few and
 * counts the rest; WARNINGS.txt lists every path) and a one-line summary (`quiet: true` silences both).
 * Note: calling `chart.toJson()` on one of its charts still takes cdk8s's own (whole-App) path.
 */
export class TenancyApp extends App {
  /** The report's file name in `outdir` (with `report: true`). */
  public static readonly REPORT_FILE = 'TENANCY.md';

  /**
   * The warnings file in `outdir` with `OutputLayout.GITOPS`: one line per finding with the paths of the constructs
   * reporting it (`Diagnostics.report`), or
   * `no warnings`, committed with the manifests so that reviewers see them.
   */
  public static readonly WARNINGS_FILE = 'WARNINGS.txt';

  /**
   * The summary line: `5,000 tenants, 10,000 subscriptions, 40,000 objects in 7.9 s -> dist/`. With OLM v1 teams
   * or extensions, they are counted too: `2 OLM v1 teams, 2 extensions, 30 objects in 0.4 s -> dist/` (the v0
   * counts are left out when both are 0).
   */
  public static formatSummary(summary: SynthSummary, outdir: string): string {
    const n = (x: number) => x.toLocaleString('en-US');
    const plural = (x: number, word: string) => `${n(x)} ${word}${x === 1 ? '' : 's'}`;
    // one line whatever the folder is called (control characters escaped, a long path cut)
    const dir = Diagnostics.oneLine(outdir.endsWith('/') ? outdir : `${outdir}/`, MAX_SHOWN_DIR);
    const v1 = (summary.olmV1Teams ?? 0) > 0 || (summary.olmV1Extensions ?? 0) > 0
      ? [plural(summary.olmV1Teams ?? 0, 'OLM v1 team'), plural(summary.olmV1Extensions ?? 0, 'extension')] : [];
    const v0 = v1.length === 0 || summary.tenants > 0 || summary.subscriptions > 0
      ? [plural(summary.tenants, 'tenant'), plural(summary.subscriptions, 'subscription')] : [];
    return `${[...v0, ...v1].join(', ')}, ${plural(summary.objects, 'object')} in ${(summary.milliseconds / 1000).toFixed(1)} s -> ${dir}`;
  }

  /** How `synth()` lays out the output. */
  public readonly layout: OutputLayout;
  /** Whether the GitOps layout writes Argo CD sync waves. */
  public readonly syncWaves: boolean;
  /** Whether `synth()` prints nothing. */
  public readonly quiet: boolean;
  /** Whether `synth()` writes TENANCY.md. */
  public readonly report: boolean;
  /** Whether the GitOps layout writes `argocd/health-checks.yaml`. */
  public readonly argoCdHealthChecks: boolean;
  /** The Flux Kustomizations the GitOps layout writes to `flux/`, if any. */
  public readonly flux?: FluxOptions;
  /** The Argo CD AppProjects and Applications the GitOps layout writes to `argocd/apps/`, if any. */
  public readonly argoCd?: ArgoCdOptions;
  /**
   * Who applies the layout's folders (docs/gitops.md, "Who applies what"): the tenants' GitOps identities (the
   * applier of each tenant's folder, the self-service identity of a tenant's own repository) and the platform's, or
   * undefined when the folders are applied without tenant identities (no `flux`/`argoCd`, `flux.tenantIdentities: false`).
   * @internal
   */
  public readonly _gitOpsIdentities?: GitOpsIdentityNames;
  /** The form of the error a failed synth throws. */
  public readonly errorFormat: SynthErrorFormat;
  /** How long `synth()` waits for another synth's lock on `outdir` (a Go duration). */
  public readonly outputLockWait: string;
  /**
   * The versions declared in `targets` (docs/version-targets.md), as given (an empty object when none were).
   */
  public readonly targets: ClusterTargets;
  /** The policy ids no acceptance lowers in this App (`TenancyAppProps.neverAcceptable`). */
  public readonly neverAcceptable: string[];
  private lastSummary?: SynthSummary;

  constructor(props: TenancyAppProps = {}) {
    // runtime input checks (JavaScript and jsii callers): problems are synth errors, the App uses the valid props
    // (the App is the root: cdk8s shows its path as `[]`, so the fields name it)
    const input = new InputCheck('TenancyApp.');
    const checked = checkTenancyAppProps(input, props, OutputLayout as any);
    super(checked);
    useFaithfulWriter(this);
    addErrorProducer(this, () => input.errors);
    this.layout = checked.layout ?? OutputLayout.FILE_PER_CHART;
    this.syncWaves = checked.syncWaves ?? false;
    this.quiet = checked.quiet ?? false;
    this.report = checked.report ?? false;
    this.argoCdHealthChecks = checked.argoCdHealthChecks ?? true;
    this.flux = checked.flux;
    this.argoCd = checked.argoCd;
    // registered before any tenant exists: the tenants create their GitOps identities from it
    this._gitOpsIdentities = gitOpsIdentityNames(input, checked);
    if (this._gitOpsIdentities) setGitOpsIdentities(this, this._gitOpsIdentities);
    addWarningProducer(this, () => gitOpsWarnings(checked));
    this.errorFormat = checked.errorFormat ?? SynthErrorFormat.AUTO;
    this.outputLockWait = checked.outputLockWait ?? DEFAULT_LOCK_WAIT;
    const resolved = resolveClusterTargets(input, checked.targets);
    this.targets = { ...(checked.targets ?? {}) };
    setClusterTargets(this, resolved);
    this.neverAcceptable = [...(checked.neverAcceptable ?? DEFAULT_NEVER_ACCEPTABLE)];
    setNeverAcceptable(this, this.neverAcceptable);
    addErrorProducer(this, () => admissionPolicyProblems(resolved, admissionPolicyPaths(this)));
    addWarningProducer(this, () => targetWarnings(resolved, admissionPolicyPaths(this)));
  }

  /** The summary of the last `synth()`, if any. */
  public get summary(): SynthSummary | undefined {
    return this.lastSummary;
  }

  /**
   * Synthesizes all manifests to the output directory, like cdk8s `App.synth()`, in one pass.
   */
  public synth(): void {
    // one pass: results computed while validating (the audit) hold until the files are written
    SynthPass.run(this, () => namingConstructs(this, () => this.synthPass()));
  }

  private synthPass(): void {
    const started = Date.now();
    try {
      fs.mkdirSync(this.outdir, { recursive: true });
    } catch (e) {
      throw asOutputWriteError(e, `the output directory ${this.outdir}`);
    }
    const cache = new FindAllCache();
    // Same order as cdk8s App.synth(): validate, then resolve the dependencies. The warnings are gathered as the
    // constructs are validated (printed and written at the end), then what the checks kept for this pass is let go:
    // none of it is alive while the files are written (the peak of a large synth).
    const gitops = this.layout === OutputLayout.GITOPS;
    const warningGroups = gitops || !this.quiet ? new WarningGroups() : undefined;
    validate(this, cache, warningGroups);
    const warnings = warningGroups?.reports();
    SynthPass.releaseMemos(this);
    removeStaleErrors(this.outdir);
    const hasDependantCharts = resolveDependencies(this, cache);
    const charts = this.chartsInOrder(cache);
    const perChart = charts.map((chart) => ({ chart, apiObjects: chartToKube(chart, cache) }));

    // The GitOps layout, TENANCY.md and WARNINGS.txt are written to a staging folder that replaces the old files only
    // once it is whole (src/output/synth-output.ts); the other layouts write each file through a temporary file and a
    // rename.
    const objects = writeSynthOutput(this.outdir, {
      staged: gitops,
      entries: [...GITOPS_ENTRIES, TenancyApp.REPORT_FILE, TenancyApp.WARNINGS_FILE, CONSTRUCT_METADATA_FILE],
      removable: GITOPS_ENTRIES,
      lockWaitMilliseconds: GoDuration.toSeconds(this.outputLockWait) * 1000,
    }, (staged, staging) => {
      let count = 0;
      let out = staged;
      if (gitops) {
        ({ objects: count, out } = writeGitOps(perChart, staging!, {
          syncWaves: this.syncWaves,
          argoCdHealthChecks: this.argoCdHealthChecks,
          flux: this.flux,
          argoCd: this.argoCd,
          ownerOf: this._gitOpsIdentities ? layoutOwnerWithIdentities : layoutOwner,
          tenantTools: () => tenantTools(this),
          pinnedCsvs: () => pinnedCsvs(this),
        }));
      } else {
        count = writeLikeCdk8s(perChart, hasDependantCharts, out,
          { outputFileExtension: this.outputFileExtension, yamlOutputType: this.yamlOutputType });
      }

      if ((this as any).recordConstructMetadata === true) {
        const resources: { [key: string]: any } = {};
        for (const { apiObjects } of perChart) {
          for (const o of apiObjects) resources[o.name] = { path: o.node.path };
        }
        out.write(CONSTRUCT_METADATA_FILE, JSON.stringify({ version: '1.0.0', resources }));
      }

      if (this.report) {
        const sections = [...(olmV1Sections(this) ?? []), ...gitOpsSections(this)];
        const markdown = TenancyReport.markdown(this, { objectCount: count, extraSections: sections.length > 0 ? sections : undefined });
        out.write(TenancyApp.REPORT_FILE, markdown);
      }
      if (gitops) out.write(TenancyApp.WARNINGS_FILE, `${warnings?.full || 'no warnings'}\n`);
      return count;
    });

    // the OLM v1 counts only when there are some (a v0-only App's summary is as before)
    const olmV1Teams = countOf(cache.findAll(this.node), OlmV1Team);
    // by kind: the generated L1 classes' instanceof accepts every ApiObject
    const olmV1Extensions = SynthPass.apiObjects(this)
      .filter((c) => c.kind === ClusterExtension.GVK.kind && c.apiVersion === ClusterExtension.GVK.apiVersion).length;
    // counted as TENANCY.md counts them (report/counts)
    const summary: SynthSummary = {
      tenants: tenantsAmong(cache.findAll(this.node)).length,
      subscriptions: subscriptionsAmong(cache.findAll(this.node)).length,
      ...(olmV1Teams > 0 || olmV1Extensions > 0 ? { olmV1Teams, olmV1Extensions } : {}),
      objects,
      milliseconds: Date.now() - started,
    };
    this.lastSummary = summary;
    if (!this.quiet) {
      // on a terminal: a few paths of each warning and the count of the others, no line longer than a screen;
      // every path in WARNINGS.txt (GitOps layout) and `Diagnostics.report(app)`
      if (warnings?.short) process.stderr.write(`${warnings.short}\n`);
      if (warnings?.shortened) {
        process.stderr.write(`(warnings shortened above; every path and the whole text: ${gitops
          ? Diagnostics.oneLine(path.join(shownPath(this.outdir), TenancyApp.WARNINGS_FILE), MAX_SHOWN_DIR) : 'Diagnostics.report(app)'})\n`);
      }
      process.stderr.write(`${TenancyApp.formatSummary(summary, shownPath(this.outdir))}\n`);
    }
  }

  /**
   * Synthesizes the App into one YAML string, like cdk8s `App.synthYaml()`, in one pass.
   */
  public synthYaml(): string {
    const objects = this.synthObjects().flatMap((c) => c.objects);
    return namingConstructs(this, () => YamlWriter.stringify(objects));
  }

  /**
   * Resolves dependencies and validates the App once, then returns every chart's objects (JSON), charts in
   * `app.charts` order and objects in the order cdk8s writes them. Throws cdk8s's validation error when a
   * construct is invalid.
   */
  public synthObjects(): ChartObjects[] {
    return SynthPass.run(this, () => this.synthObjectsPass());
  }

  private synthObjectsPass(): ChartObjects[] {
    const cache = new FindAllCache();
    // Same order as cdk8s App.synthYaml(): resolve the dependencies, then validate.
    resolveDependencies(this, cache);
    validate(this, cache);
    return this.chartsInOrder(cache).map((chart) => ({
      chart,
      path: chart.node.path,
      name: Names.toDnsLabel(chart),
      objects: chartToKube(chart, cache).map((o) => L1Json.of(o)),
    }));
  }

  /** `this.charts` (cdk8s: the App's dependency topology, filtered to charts), computed without its overhead. */
  private chartsInOrder(cache: FindAllCache): Chart[] {
    // Without any dependency from or to a chart, every chart is a root of the graph without outbound edges, so the
    // charts come in root order (see `topologyOf`); no need to walk the whole App.
    const all = cache.findAll(this.node);
    const charts = all.filter((c): c is Chart => c instanceof Chart);
    const touchesChart = all.some((c) => {
      const deps = c.node.dependencies;
      return deps.length > 0 && (c instanceof Chart || deps.some((d) => d instanceof Chart));
    });
    if (!touchesChart) return inRootOrder(charts, this);
    const topology = topologyOf(this, cache);
    // a dependency cycle: cdk8s's own graph reports it
    if (topology === undefined) return this.charts;
    return topology.filter((x): x is Chart => x instanceof Chart);
  }
}

/**
 * Runs `write`; a string the writer cannot write faithfully (`UnrepresentableYamlError`: a lone surrogate that no
 * construct's input check caught, e.g. from `addJsonPatch`) becomes a validation error naming the construct of the
 * object (found by its identity), the field and the value, in cdk8s's format.
 */
function namingConstructs<T>(app: App, write: () => T): T {
  try {
    return write();
  } catch (e) {
    if (!(e instanceof UnrepresentableYamlError)) throw e;
    const m: any = e.manifest;
    const owner = app.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.apiVersion === m?.apiVersion
      && c.kind === m?.kind && c.metadata.name === m?.metadata?.name && c.metadata.namespace === m?.metadata?.namespace);
    const [message, fix] = UNREPRESENTABLE_MESSAGE.split(' Fix: ');
    const text = Diagnostics.formatMessage({ code: CODE.UnrepresentableYamlValue, field: e.found.field, value: e.found.value, message, fix });
    throw new Error(`Validation failed with the following errors:\n  [${owner?.node.path ?? ''}] ${text}`);
  }
}

/** The OLM v1 section of TENANCY.md, when the App has OLM v1 teams. */
function olmV1Sections(app: IConstruct): string[] | undefined {
  const section = OlmV1Team.reportSection(app);
  return section === undefined ? undefined : [section];
}

/** cdk8s's construct metadata file (`recordConstructMetadata`). */
const CONSTRUCT_METADATA_FILE = 'construct-metadata.json';

/** Characters of the output directory shown on stderr (the summary line stays one short line). */
const MAX_SHOWN_DIR = 300;

/** Who owns an object in the GitOps layout: the closest tenant construct above it. */
function layoutOwner(apiObject: ApiObject): LayoutOwner {
  const team = owningOlmV1Team(apiObject);
  return { tenant: owningTenant(apiObject), tenantNamespaces: team?.namespaces };
}

/** `layoutOwner`, and whether the platform applies it (with GitOps identities: `isPlatformApplied`). */
function layoutOwnerWithIdentities(apiObject: ApiObject): LayoutOwner {
  const owner = layoutOwner(apiObject);
  return isPlatformApplied(apiObject) ? { ...owner, platform: true } : owner;
}

/** Per tenant folder (home namespace), what the GitOps tools' objects need: namespaces, cluster kinds, own repository. */
function tenantTools(app: TenancyApp): Map<string, TenantToolFacts> {
  const names = app._gitOpsIdentities;
  const selfService = (source: TenantGitOpsSource | undefined) => (source !== undefined && names !== undefined
    ? { selfService: { ...source, serviceAccountName: names.selfService } } : {});
  const out = new Map<string, TenantToolFacts>();
  for (const c of SynthPass.findAll(app)) {
    if (c instanceof ScopedOperatorTenant && !out.has(c.namespaceName)) {
      out.set(c.namespaceName, { namespaces: [c.namespaceName], clusterKinds: [], ...selfService(c.gitOpsSource) });
    } else if (c instanceof OlmV1Team && !out.has(c.homeNamespace)) {
      out.set(c.homeNamespace, {
        namespaces: c.namespaces,
        clusterKinds: Object.keys(c.extensions).length > 0 ? [{ group: ClusterExtension.GVK.apiVersion.split('/')[0], kind: ClusterExtension.GVK.kind }] : [],
        ...selfService(c.gitOpsSource),
      });
    }
  }
  return out;
}

/** Warnings of the GitOps options: folders applied without tenant identities. */
function gitOpsWarnings(props: TenancyAppProps): DiagnosticDetails[] {
  if (props.layout !== OutputLayout.GITOPS || props.flux?.tenantIdentities !== false) return [];
  return [{
    code: CODE.GitOpsPlatformAppliesTenants,
    field: 'flux.tenantIdentities',
    value: 'false',
    message: "every tenant folder is applied by Flux's own identity (usually cluster-admin): nothing but the folder's content bounds what a tenant folder "
      + 'applies, and no team guardrail sees those requests',
    fix: "set flux.url (and leave tenantIdentities unset) so that each tenant folder applies as the tenant's ServiceAccount (docs/gitops.md \"Who applies what\")",
  }];
}

/** The section of TENANCY.md that says who applies each folder (with GitOps identities). */
function gitOpsSections(app: TenancyApp): string[] {
  const names = app._gitOpsIdentities;
  if (names === undefined) return [];
  const cell = (t: string) => markdownCodeCell(t);
  const out = ['## Who applies what (GitOps identities)', '',
    'Each tenant folder is applied as the tenant\'s own ServiceAccount, whose Role holds exactly what the folder needs (derived from its objects, '
    + 'and audited with the tenant\'s other identities: "Effective power (audit)"). Only the platform\'s folder is applied as the platform\'s identity.', '',
    '| folder | applied by | rules |', '|---|---|---|',
    `| ${cell('cluster/')} | ${markdownText(names.platform)} | the platform's identity: the one accepted exception, cluster-wide |`];
  for (const c of SynthPass.findAll(app)) {
    const appliers = c instanceof ScopedOperatorTenant ? c._gitOpsAppliers : c instanceof OlmV1Team ? c._gitOpsAppliers : [];
    for (const a of appliers) {
      const folder = a.role === 'applier' ? `tenants/${a.homeNamespace}/` : `own repository (${a.sourceUrl ?? ''})`;
      const rules = a.namespaces.map((ns: string) => `${a.namespacedRules(ns).length} rule(s) in ${ns}`);
      const cluster = a.clusterRules().length;
      out.push(`| ${cell(folder)} | ${cell(a.subject)} | ${markdownText([...rules, ...(cluster > 0 ? [`${cluster} cluster-wide rule(s)`] : [])].join(', '))} |`);
    }
  }
  return [`${out.join('\n')}\n`];
}

/**
 * Per namespace, the ClusterServiceVersions its Manual subscriptions pin (Flux waits for them by name: a tenant's once
 * its folder is applied, a GlobalOperatorInstall's once cluster/ is; an Automatic subscription moves on to newer CSVs,
 * and the pinned one is then deleted).
 */
function pinnedCsvs(app: App): Map<string, string[]> {
  const pinned = new Map<string, string[]>();
  for (const s of app.node.findAll()) {
    if (!(s instanceof OperatorSubscription) || s.installPlanApproval !== InstallPlanApproval.MANUAL || !s.pinnedCsv) continue;
    pinned.set(s.namespace, [...(pinned.get(s.namespace) ?? []), s.pinnedCsv]);
  }
  return pinned;
}

function owningTenant(c: IConstruct): string | undefined {
  const owner = closestOwner(c);
  return owner instanceof ScopedOperatorTenant ? owner.namespaceName : owner?.homeNamespace;
}

/** The `OlmV1Team` a construct belongs to, when no `ScopedOperatorTenant` is closer. */
function owningOlmV1Team(c: IConstruct): OlmV1Team | undefined {
  const owner = closestOwner(c);
  return owner instanceof OlmV1Team ? owner : undefined;
}

/** The closest `ScopedOperatorTenant` or `OlmV1Team` at or above `c` (up the scopes, without `node.scopes`' array). */
function closestOwner(c: IConstruct): ScopedOperatorTenant | OlmV1Team | undefined {
  for (let s: IConstruct | undefined = c; s !== undefined; s = s.node.scope) {
    if (s instanceof ScopedOperatorTenant || s instanceof OlmV1Team) return s;
  }
  return undefined;
}

/**
 * `node.findAll()` of the App and of each Chart once per synth (cdk8s's `SynthRequestCache`). Nothing is cached per
 * construct: maps over every construct of a large App live through the whole pass (tens of MB at 5,000 tenants),
 * while the lists of a single construct are cheap to rebuild and die young.
 */
class FindAllCache {
  private readonly cache = new Map<Node, IConstruct[]>();
  public findAll(node: Node): IConstruct[] {
    // the App and its direct children (the charts, usually): read again and again; below them: built afresh
    if (node.scope !== undefined && node.scope.node.scope !== undefined) return node.findAll();
    let found = this.cache.get(node);
    if (!found) {
      // the App's list is the pass's (shared with the validations, the audit and the warnings)
      found = node.scope === undefined ? SynthPass.findAll(node.root) : node.findAll();
      this.cache.set(node, found);
    }
    return found;
  }
}

/** `Chart.of(c)` (the construct itself when it is a chart, else its closest chart scope); throws like it. */
function chartOf(c: IConstruct): Chart {
  let x = c;
  while (!(x instanceof Chart) && x.node.scope !== undefined) x = x.node.scope;
  return Chart.of(x);
}

function countOf(constructs: IConstruct[], type: abstract new (...args: any[]) => IConstruct): number {
  let n = 0;
  for (const c of constructs) if (c instanceof type) n++;
  return n;
}

/**
 * cdk8s `validate` (lib/app.js): every construct's validations, one error listing them all, one line each (the
 * form tools and tests read). Run as an app (`cdk8s synth`, `ts-node main.ts`: the main module on the call stack,
 * also when the main catches the error), the error is for people instead: each finding readable
 * (`Diagnostics.formatReadable`), printed without a stack trace when uncaught, exit code 1. `errorFormat` picks
 * the form explicitly (`SynthErrorFormat`).
 */
function validate(app: TenancyApp, cache: FindAllCache, warnings?: WarningGroups): void {
  const errors: string[] = [];
  const readable: string[] = [];
  // with `warnings`: each construct's warnings right after its errors, which share what their checks computed
  // (`PassMemo`), let go of once both are done; a failing warning producer counts only when nothing else failed
  let warningFailure: { error: unknown } | undefined;
  for (const child of cache.findAll(app.node)) {
    for (const error of child.node.validate()) {
      errors.push(`[${constructPathOf(child)}] ${error}`);
      readable.push(readableError(child, error));
    }
    if (warnings !== undefined && warningFailure === undefined) {
      try {
        warnings.add(child);
      } catch (e) {
        warningFailure = { error: e };
      }
    }
    SynthPass.releaseMemosOf(child);
  }
  if (errors.length === 0) {
    if (warningFailure !== undefined) throw warningFailure.error;
    return;
  }
  const format = app instanceof TenancyApp ? app.errorFormat : SynthErrorFormat.AUTO;
  const asApp = format !== SynthErrorFormat.ONE_LINE && runAsApp();
  if (format === SynthErrorFormat.ONE_LINE || (format === SynthErrorFormat.AUTO && !asApp)) {
    throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
  }
  if (asApp) exitOnSynthFailure();
  const error = new Error(synthFailureMessage(app.outdir, shownPath(app.outdir), errors, readable));
  (error as any)[SYNTH_FAILURE] = true;
  throw error;
}

function readableError(child: IConstruct, text: string): string {
  const details = errorDetailsOf(child, text);
  if (details) {
    const d: Diagnostic = { ...details, severity: Severity.ERROR, constructPath: constructPathOf(child) };
    return Diagnostics.formatReadable(d);
  }
  // a validation of another library: its text, cut the same way
  return Diagnostics.formatReadable({ severity: Severity.ERROR, code: CODE.Validation, constructPath: constructPathOf(child), message: text });
}

/** `dir` as printed: relative to the working directory when inside it (`.` for it), else as given. */
function shownPath(dir: string): string {
  const rel = path.relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel;
}

/** Marks the error `validate` throws when run as an app (the handler prints its message only). */
const SYNTH_FAILURE = Symbol.for('cdk8s-olm-tenancy.synthFailure');

/**
 * True when the synth was called from the program's main module (`ts-node main.ts`, which `cdk8s synth` runs),
 * i.e. the main file is on the call stack; never under jest (whose test file is `require.main`). Programmatic
 * callers (libraries, tests, tools importing the app) get the plain thrown error.
 */
function runAsApp(): boolean {
  if (process.env.JEST_WORKER_ID !== undefined) return false;
  const main = require.main?.filename;
  if (main === undefined) return false;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack.includes(main);
}

let handlerInstalled = false;

/**
 * Once per process, run as an app: an uncaught synth failure prints its findings and exits 1, without the stack
 * trace Node would print under them. A caller that catches the error still gets it; other errors print as Node
 * prints them (message and stack) and exit 1 as well.
 */
function exitOnSynthFailure(): void {
  if (handlerInstalled) return;
  handlerInstalled = true;
  process.on('uncaughtException', (e: unknown) => {
    const marked = e !== null && typeof e === 'object' && (e as any)[SYNTH_FAILURE] === true;
    process.stderr.write(`${marked ? (e as Error).message : (e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}

function buildDependencies(app: App, cache: FindAllCache): Array<{ source: IConstruct; target: IConstruct }> {
  const deps: Array<{ source: IConstruct; target: IConstruct }> = [];
  for (const child of cache.findAll(app.node)) {
    for (const dep of child.node.dependencies) deps.push({ source: child, target: dep });
  }
  return deps;
}

/**
 * cdk8s `resolveDependencies` (lib/app.js), step for step (the order of `addDependency` calls decides the output
 * order): nested charts and cross-chart construct dependencies become chart dependencies, and construct
 * dependencies become dependencies between the ApiObjects below them. Returns whether any chart depends on another.
 */
function resolveDependencies(app: App, cache: FindAllCache): boolean {
  let hasDependantCharts = false;
  for (const parentChart of cache.findAll(app.node).filter((x) => x instanceof Chart)) {
    for (const childChart of parentChart.node.children.filter((x) => x instanceof Chart)) {
      parentChart.node.addDependency(childChart);
      hasDependantCharts = true;
    }
  }
  const deps = buildDependencies(app, cache);
  for (const dep of deps) {
    const sourceChart = chartOf(dep.source);
    const targetChart = chartOf(dep.target);
    if (sourceChart !== targetChart) {
      sourceChart.node.addDependency(targetChart);
      hasDependantCharts = true;
    }
  }
  // cdk8s lists the dependencies again here; only the chart dependencies just added can have changed them
  for (const dep of hasDependantCharts ? buildDependencies(app, cache) : deps) {
    const sourceChart = chartOf(dep.source);
    const targetChart = chartOf(dep.target);
    const targets = cache.findAll(dep.target.node).filter((c) => c instanceof ApiObject && chartOf(c) === targetChart);
    const sources = cache.findAll(dep.source.node).filter((c) => c instanceof ApiObject && chartOf(c) === sourceChart);
    for (const target of targets) {
      for (const source of sources) {
        if (target !== source) source.node.addDependency(target);
      }
    }
  }
  return hasDependantCharts;
}

/** cdk8s `chartToKube` (lib/app.js): the chart's ApiObjects in dependency order, each only in its closest chart. */
function chartToKube(chart: Chart, cache: FindAllCache): ApiObject[] {
  // on a cycle, cdk8s's App-wide graph (`app.charts`, which cdk8s builds first) reports it
  const topology = topologyOf(chart, cache) ?? (App.of(chart).charts && new DependencyGraph(chart.node).topology());
  return topology.filter((x): x is ApiObject => x instanceof ApiObject && chartOf(x) === chart);
}

/**
 * `vertices` (in pre-order) in the order of cdk8s's path-keyed vertex object: array-index keys first (only paths
 * without '/', i.e. the graph's root itself or, below an App, its direct children), ascending; then the others in
 * insertion order.
 */
function inRootOrder<T extends IConstruct>(vertices: T[], root: IConstruct): T[] {
  const indexKey = (v: IConstruct): number | undefined => {
    if (v !== root && v.node.scope !== root) return undefined;
    const p = v.node.path;
    return /^(0|[1-9][0-9]*)$/.test(p) && Number(p) < 4294967295 ? Number(p) : undefined;
  };
  const indexed = vertices.map((v) => [v, indexKey(v)] as const).filter(([, k]) => k !== undefined).sort((a, b) => a[1]! - b[1]!).map(([v]) => v);
  return indexed.length === 0 ? vertices : [...indexed, ...vertices.filter((v) => indexKey(v) === undefined)];
}

/**
 * Exactly `new DependencyGraph(root.node).topology()` (cdk8s `lib/dependency.js`), without its per-construct path
 * strings and per-edge cycle searches, which dominate on large Apps. The graph holds every construct below `root`
 * (pre-order) and an edge for each dependency whose target is in it (cdk8s finds vertices by path, so a target from
 * another tree with the path of one here maps to that one); the roots are the vertices without dependants, in the
 * order of the object cdk8s keys by path (array-index paths first, ascending, then insertion order); the topology is
 * a depth-first post-order from them. Undefined when the graph has a cycle: cdk8s's own graph then reports it.
 */
function topologyOf(root: IConstruct, cache: FindAllCache): IConstruct[] | undefined {
  const all = cache.findAll(root.node);
  const members = new Set(all);
  let byPath: Map<string, IConstruct> | undefined;
  const vertexOf = (c: IConstruct): IConstruct | undefined => {
    if (members.has(c)) return c;
    byPath ??= new Map(all.map((x) => [x.node.path, x] as const));
    return byPath.get(c.node.path);
  };
  const outbound = new Map<IConstruct, IConstruct[]>();
  const dependedOn = new Set<IConstruct>();
  for (const source of all) {
    for (const dep of source.node.dependencies) {
      const target = vertexOf(dep);
      if (target === undefined) continue;
      let list = outbound.get(source);
      if (!list) outbound.set(source, list = []);
      if (!list.includes(target)) list.push(target);
      dependedOn.add(target);
    }
  }

  const ordered = inRootOrder(all.filter((v) => !dependedOn.has(v)), root);

  // the post-order from the roots, finding cycles on the way (white/grey/black): a vertex met again while its own
  // dependencies are being visited closes a cycle, and a vertex never reached from a root (every vertex of an acyclic
  // graph is) lies on or behind one
  const state = new Map<IConstruct, number>();
  const topology: IConstruct[] = [];
  let cyclic = false;
  const visit = (v: IConstruct) => {
    const s = state.get(v);
    if (s === DONE) return;
    if (s === VISITING) {
      cyclic = true;
      return;
    }
    state.set(v, VISITING);
    for (const c of outbound.get(v) ?? []) {
      visit(c);
      if (cyclic) return;
    }
    state.set(v, DONE);
    topology.push(v);
  };
  for (const v of ordered) {
    visit(v);
    if (cyclic) return undefined;
  }
  return topology.length === all.length ? topology : undefined;
}

/** `topologyOf`'s vertex states. */
const VISITING = 1;
const DONE = 2;

/** The paths of the App's ValidatingAdmissionPolicy objects, sorted. */
function admissionPolicyPaths(app: App): string[] {
  return SynthPass.apiObjects(app)
    .filter((c) => c.kind === 'ValidatingAdmissionPolicy' && c.apiVersion.startsWith('admissionregistration.k8s.io/'))
    .map((c) => c.node.path)
    .sort();
}

/** Warnings of the declared targets: outputs that rely on something the declared versions lack. */
function targetWarnings(t: ResolvedTargets, policyPaths: readonly string[]): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  if ((t.kubernetesMinor === 28 || t.kubernetesMinor === 29) && policyPaths.length > 0) {
    out.push({
      code: CODE.AdmissionPolicyBetaApi,
      field: 'targets.kubernetesVersion',
      value: `1.${t.kubernetesMinor}`,
      message: `the admission policies are written as admissionregistration.k8s.io/v1beta1, which Kubernetes 1.${t.kubernetesMinor} serves only with the beta API `
        + `and the ValidatingAdmissionPolicy feature gate turned on (both off by default before 1.30): ${policyPaths.join(', ')}`,
      fix: 'start the API server with --runtime-config=admissionregistration.k8s.io/v1beta1=true --feature-gates=ValidatingAdmissionPolicy=true, or upgrade to Kubernetes >= 1.30',
    });
  }
  return out;
}
