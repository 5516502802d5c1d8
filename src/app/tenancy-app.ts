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
import { ApiObject, App, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { IConstruct, Node } from 'constructs';
import { checkTenancyAppProps, resolveClusterTargets } from './input-checks';
import { OutputLayout, SynthErrorFormat, TenancyAppProps } from './tenancy-app-props';
import { admissionPolicyProblems, ClusterTargets, ResolvedTargets, setClusterTargets } from '../core/cluster-targets';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer, constructPathOf, Diagnostic, Diagnostics, errorDetailsOf, Severity, WarningGroups } from '../core/diagnostics';
import { InputCheck } from '../core/input';
import { SynthPass } from '../core/synth-pass';
import { ClusterExtension } from '../imports/olmv1';
import { OlmV1Team } from '../olmv1/olm-v1-team';
import { FluxKustomizations } from '../output/flux-kustomizations';
import { FluxOptions } from '../output/flux-kustomizations-props';
import { GitOpsLayout } from '../output/gitops-layout';
import { LayoutEntry, LayoutSource } from '../output/gitops-layout-entries';
import { GitOpsObject } from '../output/gitops-layout-props';
import { OlmHealthChecks } from '../output/olm-health';
import { OlmWrites } from '../output/olm-writes';
import { asOutputWriteError, cappedName, isFileSystemError, OutputWriter, removeEntry, swapEntries } from '../output/output-files';
import { removeStaleErrors, synthFailureMessage } from '../output/synth-failure';
import { FAITHFUL_WRITER_APPS, UNREPRESENTABLE_MESSAGE, UnrepresentableYamlError, YamlWriter } from '../output/yaml-writer';
import { subscriptionsAmong, tenantsAmong } from '../report/counts';
import { TenancyReport } from '../report/tenancy-report';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
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
  /** The form of the error a failed synth throws. */
  public readonly errorFormat: SynthErrorFormat;
  /**
   * The versions declared in `targets` (docs/version-targets.md), as given (an empty object when none were).
   */
  public readonly targets: ClusterTargets;
  private lastSummary?: SynthSummary;

  constructor(props: TenancyAppProps = {}) {
    // runtime input checks (JavaScript and jsii callers): problems are synth errors, the App uses the valid props
    // (the App is the root: cdk8s shows its path as `[]`, so the fields name it)
    const input = new InputCheck('TenancyApp.');
    const checked = checkTenancyAppProps(input, props, OutputLayout as any);
    super(checked);
    FAITHFUL_WRITER_APPS.add(this);
    addErrorProducer(this, () => input.errors);
    this.layout = checked.layout ?? OutputLayout.FILE_PER_CHART;
    this.syncWaves = checked.syncWaves ?? false;
    this.quiet = checked.quiet ?? false;
    this.report = checked.report ?? false;
    this.argoCdHealthChecks = checked.argoCdHealthChecks ?? true;
    this.flux = checked.flux;
    this.errorFormat = checked.errorFormat ?? SynthErrorFormat.AUTO;
    const resolved = resolveClusterTargets(input, checked.targets);
    this.targets = { ...(checked.targets ?? {}) };
    setClusterTargets(this, resolved);
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
    // once it is whole (`swapEntries`); the other layouts write each file through a temporary file and a rename.
    const staging = path.join(this.outdir, GITOPS_STAGING);
    let objects = 0;
    let swapping = false;
    try {
      let out: OutputWriter;
      if (gitops) {
        removeEntry(staging);
        ({ objects, out } = this.writeGitOps(perChart, staging));
      } else {
        out = new OutputWriter(this.outdir);
        objects = this.writeLikeCdk8s(perChart, hasDependantCharts, out);
      }

      if ((this as any).recordConstructMetadata === true) {
        const resources: { [key: string]: any } = {};
        for (const { apiObjects } of perChart) {
          for (const o of apiObjects) resources[o.name] = { path: o.node.path };
        }
        out.write(CONSTRUCT_METADATA_FILE, JSON.stringify({ version: '1.0.0', resources }));
      }

      if (this.report) {
        const markdown = TenancyReport.markdown(this, { objectCount: objects, extraSections: olmV1Sections(this) });
        out.write(TenancyApp.REPORT_FILE, markdown);
      }
      if (gitops) {
        out.write(TenancyApp.WARNINGS_FILE, `${warnings?.full || 'no warnings'}\n`);
        swapping = true;
        swapEntries(this.outdir, staging, path.join(this.outdir, GITOPS_PREVIOUS),
          [...GITOPS_ENTRIES, TenancyApp.REPORT_FILE, TenancyApp.WARNINGS_FILE, CONSTRUCT_METADATA_FILE], new Set(GITOPS_ENTRIES));
      }
    } catch (e) {
      if (!gitops) throw isFileSystemError(e) ? asOutputWriteError(e, this.outdir) : e;
      try {
        removeEntry(staging);
      } catch {
        // the first error is the one to report
      }
      if (!isFileSystemError(e)) throw e;
      // a failed swap says itself whether the previous output is whole
      throw swapping ? e : asOutputWriteError(e, this.outdir, `; nothing in ${this.outdir} was changed`);
    }

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
      objects: chartToKube(chart, cache).map((o) => o.toJson()),
    }));
  }

  /**
   * The GitOps layout of this pass's objects, written to `staging` (the caller swaps it in once TENANCY.md and
   * WARNINGS.txt are there too); returns the number of objects and the writer of the staging folder. The layout's
   * own entries (`kustomization.yaml`, `cluster/`, `tenants/`, `after-install/`, `argocd/`, `flux/`) then replace the old ones as a whole, so a
   * tenant removed from the App disappears from the output instead of lingering for the GitOps tool to apply.
   */
  private writeGitOps(perChart: Array<{ chart: Chart; apiObjects: ApiObject[] }>, staging: string): { objects: number; out: OutputWriter } {
    // First from each ApiObject's identity, its JSON computed only when its folder is written (the JSON of every
    // object at once is what set the peak memory at 5,000 tenants, docs/scale.md). When an object's JSON says
    // otherwise (an `addJsonPatch` or a token changed its kind, name or namespace), or the layout fails, the staging
    // folder is made afresh from every object's JSON, which writes the same files or reports the error. An error of
    // the file system (a full disk, a name too long, no permission) is reported as is: written again, it would fail
    // again, and nothing outside the staging folder has been touched.
    try {
      const out = new OutputWriter(staging, { staging: true });
      return { objects: this.writeGitOpsStreaming(perChart, out), out };
    } catch (e) {
      removeEntry(staging);
      if (isFileSystemError(e)) throw e;
    }
    const out = new OutputWriter(staging, { staging: true });
    return { objects: this.writeGitOpsFromJson(perChart, out), out };
  }

  /**
   * The GitOps layout written with `out`, chart by chart, each object's JSON made when its folder is written.
   * The entries are made afresh each time the layout asks for a chart's (cheap: no JSON), so none is held for long.
   */
  private writeGitOpsStreaming(perChart: Array<{ chart: Chart; apiObjects: ApiObject[] }>, out: OutputWriter): number {
    const source: LayoutSource = {
      groups: perChart.length,
      entries: (g) => layoutEntries(perChart[g].apiObjects),
    };
    const write = tenantFolders((f) => out.write(f.path, f.content));
    GitOpsLayout._emitGroups(source, { syncWaves: this.syncWaves }, write);
    for (const f of this.gitOpsToolFiles(write)) write(f);
    return perChart.reduce((n, c) => n + c.apiObjects.length, 0);
  }

  /** The GitOps layout made from every object's JSON at once, written with `out` (see `writeGitOps`). */
  private writeGitOpsFromJson(perChart: Array<{ chart: Chart; apiObjects: ApiObject[] }>, out: OutputWriter): number {
    const written = new Map<IConstruct, { identity: string; chart: Chart }>();
    const manifests: Array<{ apiObject: ApiObject; chart: Chart; manifest: any }> = [];
    for (const { chart, apiObjects } of perChart) {
      for (const apiObject of apiObjects) {
        const manifest = apiObject.toJson();
        written.set(apiObject, { identity: GitOpsLayout.identity(manifest), chart });
        manifests.push({ apiObject, chart, manifest });
      }
    }
    const input: GitOpsObject[] = manifests.map(({ apiObject, chart, manifest }) => {
      const dependsOn = dependenciesInChart(apiObject, chart, written);
      const team = owningOlmV1Team(apiObject);
      return { manifest, tenant: owningTenant(apiObject), dependsOn, ...(team ? { tenantNamespaces: team.namespaces } : {}) };
    });
    // a string YAML cannot hold: `files()` throws its error (found up front, before any file)
    if (manifests.some(({ manifest }) => YamlWriter.unrepresentable(manifest) !== undefined)) {
      GitOpsLayout.files(input, { syncWaves: this.syncWaves });
    }
    const write = tenantFolders((f) => out.write(f.path, f.content));
    GitOpsLayout._emitFiles(input, { syncWaves: this.syncWaves }, write);
    for (const f of this.gitOpsToolFiles(write)) write(f);
    return manifests.length;
  }

  /**
   * The GitOps tools' files beside the layout: `argocd/ignore-differences.yaml`, `argocd/health-checks.yaml` (unless
   * `argoCdHealthChecks: false`) and, with `flux`, the `flux/` Kustomizations of the tenant folders written.
   */
  private gitOpsToolFiles(written: LayoutFolders): Array<{ path: string; content: string }> {
    const files = [{ path: 'argocd/ignore-differences.yaml', content: OlmWrites.argoCdSnippet() }];
    if (this.argoCdHealthChecks) files.push({ path: 'argocd/health-checks.yaml', content: OlmHealthChecks.argoCdConfigMapPatch() });
    if (this.flux) {
      // a tenant's Kustomization also waits for the ClusterServiceVersions it pins with Manual approval (an
      // Automatic subscription moves on to newer CSVs, and the pinned one is then deleted)
      const pinned = new Map<string, string[]>();
      for (const s of this.node.findAll()) {
        if (!(s instanceof OperatorSubscription) || s.installPlanApproval !== InstallPlanApproval.MANUAL || !s.pinnedCsv) continue;
        pinned.set(s.namespace, [...(pinned.get(s.namespace) ?? []), s.pinnedCsv]);
      }
      const afterInstall = new Set(written.afterInstallTenants);
      files.push(...FluxKustomizations.files({ ...this.flux, cluster: written.cluster, afterInstallCluster: written.afterInstallCluster },
        written.tenants.map((namespace) => ({
          namespace,
          clusterServiceVersions: pinned.get(namespace),
          afterInstall: afterInstall.has(namespace),
        }))));
    }
    return files;
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

  /** The files cdk8s `App.synth()` writes for `yamlOutputType`; returns the number of objects written. */
  private writeLikeCdk8s(perChart: Array<{ chart: Chart; apiObjects: ApiObject[] }>, hasDependantCharts: boolean, out: OutputWriter): number {
    const ext = this.outputFileExtension;
    let count = 0;
    // cdk8s's names; a name too long for a file system (cdk8s fails with ENAMETOOLONG) is cut with a hash suffix
    const fileNameOf = (o: any) => cappedName(`${o.kind}.${o.metadata.name}`.replace(/[^0-9a-zA-Z-_.]/g, ''), ext);
    const saveYaml = (rel: string, docs: unknown[]) => out.write(rel, YamlWriter.stringify(docs));
    const namer = chartNamer(hasDependantCharts);
    switch (this.yamlOutputType) {
      case YamlOutputType.FILE_PER_APP: {
        const all = perChart.flatMap(({ apiObjects }) => apiObjects.map((o) => SynthPass.takeJson(o)));
        count = all.length;
        if (perChart.length > 0) saveYaml(`app${ext}`, all);
        break;
      }
      case YamlOutputType.FILE_PER_CHART:
        for (const { chart, apiObjects } of perChart) {
          const docs = apiObjects.map((o) => SynthPass.takeJson(o));
          count += docs.length;
          saveYaml(namer(chart) + ext, docs);
        }
        break;
      case YamlOutputType.FILE_PER_RESOURCE:
        for (const { apiObjects } of perChart) {
          for (const doc of apiObjects.map((o) => SynthPass.takeJson(o))) {
            if (doc === undefined) continue;
            count++;
            saveYaml(fileNameOf(doc), [doc]);
          }
        }
        break;
      case YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE:
        for (const { chart, apiObjects } of perChart) {
          const dir = namer(chart);
          out.mkdir(dir);
          for (const o of apiObjects) {
            count++;
            // cdk8s names the file from the ApiObject (not its JSON) here
            saveYaml(`${dir}/${fileNameOf(o)}`, [SynthPass.takeJson(o)]);
          }
        }
        break;
      default:
        break;
    }
    return count;
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
    const text = Diagnostics.formatMessage({ code: 'UnrepresentableYamlValue', field: e.found.field, value: e.found.value, message, fix });
    throw new Error(`Validation failed with the following errors:\n  [${owner?.node.path ?? ''}] ${text}`);
  }
}

/** The OLM v1 section of TENANCY.md, when the App has OLM v1 teams. */
function olmV1Sections(app: IConstruct): string[] | undefined {
  const section = OlmV1Team.reportSection(app);
  return section === undefined ? undefined : [section];
}

/** The namespace of the closest `ScopedOperatorTenant` above a construct, if any. */
/** The layout's own entries in `outdir`: replaced as a whole by every GitOps synth. */
const GITOPS_ENTRIES = ['kustomization.yaml', GitOpsLayout.CLUSTER_FOLDER, GitOpsLayout.TENANTS_FOLDER, GitOpsLayout.AFTER_INSTALL_FOLDER, 'argocd',
  FluxKustomizations.FOLDER];

/**
 * A file writer that also records the layout's folders written: `cluster/` and `tenants/<namespace>/`, and the same
 * under `after-install/`.
 */
function tenantFolders(write: (f: { path: string; content: string }) => void): ((f: { path: string; content: string }) => void) & LayoutFolders {
  const tracked = Object.assign((f: { path: string; content: string }) => {
    const parts = f.path.split('/');
    const after = parts[0] === GitOpsLayout.AFTER_INSTALL_FOLDER;
    const rest = after ? parts.slice(1) : parts;
    if (rest[rest.length - 1] === 'kustomization.yaml') {
      if (rest.length === 3 && rest[0] === GitOpsLayout.TENANTS_FOLDER) (after ? tracked.afterInstallTenants : tracked.tenants).push(rest[1]);
      if (rest.length === 2 && rest[0] === GitOpsLayout.CLUSTER_FOLDER) {
        if (after) tracked.afterInstallCluster = true;
        else tracked.cluster = true;
      }
    }
    write(f);
  }, { tenants: [] as string[], cluster: false, afterInstallTenants: [] as string[], afterInstallCluster: false });
  return tracked;
}

interface LayoutFolders {
  tenants: string[];
  cluster: boolean;
  afterInstallTenants: string[];
  afterInstallCluster: boolean;
}

/** Characters of the output directory shown on stderr (the summary line stays one short line). */
const MAX_SHOWN_DIR = 300;

const GITOPS_STAGING = '.cdk8s-olm-tenancy-staging';
/** Where the old layout goes while the new one is renamed in place (removed after; put back when a rename fails). */
const GITOPS_PREVIOUS = '.cdk8s-olm-tenancy-previous';
/** cdk8s's construct metadata file (`recordConstructMetadata`). */
const CONSTRUCT_METADATA_FILE = 'construct-metadata.json';

/** The layout's entries of one chart's objects: identity and owner from the constructs, the JSON made on demand. */
function layoutEntries(apiObjects: ApiObject[]): LayoutEntry[] {
  const identities = new Map<IConstruct, string>();
  for (const apiObject of apiObjects) {
    // `identityOf` of its parts
    identities.set(apiObject, `${apiObject.apiVersion}/${apiObject.kind}/${apiObject.metadata.namespace ?? ''}/${apiObject.name ?? ''}`);
  }
  const entries = new Array<LayoutEntry>(apiObjects.length);
  for (let i = 0; i < apiObjects.length; i++) entries[i] = new ApiObjectEntry(apiObjects[i], identities);
  return entries;
}

/**
 * The layout entry of an ApiObject: identity and owner read from the constructs, its JSON made when its folder is
 * written. A class (one shape, the `manifest` method shared) rather than a literal with a closure per object: the
 * entries are made again for each step of the layout.
 */
class ApiObjectEntry implements LayoutEntry {
  public readonly apiVersion: string;
  public readonly kind: string;
  public readonly namespace?: string;
  public readonly name?: string;
  public readonly tenant?: string;
  public readonly tenantNamespaces?: string[];
  public readonly dependsOn: string[];
  private readonly apiObject: ApiObject;

  /** `identities`: the identities of the chart's objects (dependencies on other charts' objects are left out). */
  constructor(apiObject: ApiObject, identities: Map<IConstruct, string>) {
    const owner = closestOwner(apiObject);
    this.apiVersion = apiObject.apiVersion;
    this.kind = apiObject.kind;
    this.namespace = apiObject.metadata.namespace;
    this.name = apiObject.name;
    this.tenant = owner instanceof ScopedOperatorTenant ? owner.namespaceName : owner?.homeNamespace;
    this.tenantNamespaces = owner instanceof OlmV1Team ? owner.namespaces : undefined;
    this.dependsOn = dependenciesAmong(apiObject, identities);
    this.apiObject = apiObject;
  }

  public manifest(): any {
    return SynthPass.takeJson(this.apiObject);
  }
}

/** The identities of the objects `apiObject` depends on that `identities` has (its chart's), in dependency order. */
function dependenciesAmong(apiObject: ApiObject, identities: Map<IConstruct, string>): string[] {
  const dependsOn: string[] = [];
  for (const d of apiObject.node.dependencies) {
    const identity = identities.get(d);
    if (identity !== undefined) dependsOn.push(identity);
  }
  return dependsOn;
}

/**
 * Identities of the objects `apiObject` depends on, only inside its chart: `resolveDependencies` turns a cross-chart
 * dependency into "every object of chart A after every object of chart B", which says nothing about these two
 * objects (kind waves order e.g. a CuratedCatalog's CatalogSource after the tenant's Namespace).
 */
function dependenciesInChart(apiObject: ApiObject, chart: Chart, identities: Map<IConstruct, { identity: string; chart: Chart }>): string[] {
  const dependsOn: string[] = [];
  for (const d of apiObject.node.dependencies) {
    const target = identities.get(d);
    if (target !== undefined && target.chart === chart) dependsOn.push(target.identity);
  }
  return dependsOn;
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

/** cdk8s's chart file and folder names: `Names.toDnsLabel(chart)`, prefixed `0000-` when charts depend on each other. */
function chartNamer(indexed: boolean): (chart: Chart) => string {
  let index = 0;
  return (chart) => {
    const name = Names.toDnsLabel(chart);
    if (!indexed) return name;
    return `${(index++).toString().padStart(4, '0')}-${name}`;
  };
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
  return Diagnostics.formatReadable({ severity: Severity.ERROR, code: 'Validation', constructPath: constructPathOf(child), message: text });
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
      code: 'AdmissionPolicyBetaApi',
      field: 'targets.kubernetesVersion',
      value: `1.${t.kubernetesMinor}`,
      message: `the admission policies are written as admissionregistration.k8s.io/v1beta1, which Kubernetes 1.${t.kubernetesMinor} serves only with the beta API `
        + `and the ValidatingAdmissionPolicy feature gate turned on (both off by default before 1.30): ${policyPaths.join(', ')}`,
      fix: 'start the API server with --runtime-config=admissionregistration.k8s.io/v1beta1=true --feature-gates=ValidatingAdmissionPolicy=true, or upgrade to Kubernetes >= 1.30',
    });
  }
  return out;
}
