import { Construct, IConstruct } from 'constructs';
import { InstallPlanApproval, OperatorSubscriptionProps, PreflightEnforcement, SubscriptionConfig, SubscriptionInfo } from './operator-subscription-props';
import { checkSubscriptionProps } from './subscription-input-checks';
import { OperatorBundle } from '../../bundle/operator-bundle';
import { CatalogSourceLocation, ICatalogSource } from '../../catalog/catalog-source-reference';
import { CuratedCatalog } from '../../catalog/curated-catalog';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { addErrorProducer, addWarningProducer } from '../../core/diagnostics';
import { InputCheck, isObject, prop } from '../../core/input-check';
import { KubernetesNames, NameRule } from '../../core/kubernetes-names';
import { l1Metadata } from '../../core/l1-metadata';
import { CuratedList } from '../../fbc/curated-list';
import * as olm from '../../imports/olm';
import { SubscriptionConfigChecks } from '../../olm/subscription-config-checks';
import { UpgradeEdge, UpgradeGraph } from '../../upgrade/upgrade-graph';

/**
 * One OLM Subscription (`operators.coreos.com/v1alpha1`). Usually created by `ScopedOperatorTenant.subscribe`.
 * Checks its own input at synth time (name, empty package or channel, what the catalog says).
 */
export class OperatorSubscription extends Construct {
  /** The underlying L1 object (escape hatch). */
  public readonly apiObject: olm.Subscription;
  /** `metadata.name`. */
  public readonly name: string;
  /** `metadata.namespace`. */
  public readonly namespace: string;
  /** Package (`spec.name`). */
  public readonly packageName: string;
  /** Where the CatalogSource lives. */
  public readonly source: CatalogSourceLocation;
  /** `spec.installPlanApproval`. */
  public readonly installPlanApproval: InstallPlanApproval;
  /** The bundle to install and the upgrade bundles, for the preflight (empty when none were given). */
  public readonly bundles: OperatorBundle[];
  /** What a failing preflight does. */
  public readonly preflightEnforcement: PreflightEnforcement;
  /**
   * The channel's upgrade graph.
   * @default - none given
   */
  public readonly upgradeGraph?: UpgradeGraph;
  /**
   * The curated version range of the upgrade walk.
   * @default - every version of the graph
   */
  public readonly versionRange?: string;
  /** The catalog the Subscription uses (a placeholder when the `catalog` prop is missing or unusable: a synth error). */
  public readonly catalog: ICatalogSource;
  private readonly options: OperatorSubscriptionProps;
  /**
   * The bundle the checks run on as the install: `bundle` when it is the CSV OLM installs first (`installTarget`),
   * else the graph's bundle of that CSV; undefined when the bundle given is another CSV (`installMismatch`).
   */
  private readonly installed?: OperatorBundle;
  private restricted?: { key: string; graph: UpgradeGraph };
  private catalogHead?: { key: string; head?: { csv: string; channel: string } };
  /** Wrong-typed or unusable props (reported first at synth). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: OperatorSubscriptionProps) {
    super(scope, id);
    // Runtime input checks first (JavaScript and jsii callers): problems are synth errors, the rest uses safe values.
    const checkedProps = checkSubscriptionProps(this.input, props, true);
    const packageName = checkedProps.packageName ?? '';
    const namespace = checkedProps.namespace ?? '';
    this.options = { ...checkedProps, packageName, namespace };
    this.name = checkedProps.name ?? packageName;
    this.namespace = namespace;
    this.packageName = packageName;
    this.installPlanApproval = checkedProps.installPlanApproval ?? InstallPlanApproval.AUTOMATIC;
    this.upgradeGraph = checkedProps.upgradeGraph;
    this.versionRange = checkedProps.versionRange;
    this.catalog = checkedProps.catalog;
    // the bundle given is checked as the install only when it is the CSV OLM installs first (one error otherwise:
    // the preflight and the derived rules of another version would describe what OLM does not install)
    this.installed = checkedProps.bundle !== undefined
      ? (this.installMismatch() === undefined ? checkedProps.bundle : undefined)
      : this.graphBundle();
    this.bundles = this.installed || !checkedProps.bundle
      ? [...(this.installed ? [this.installed] : []), ...(checkedProps.upgradeBundles ?? [])] : [];
    this.preflightEnforcement = checkedProps.preflight ?? PreflightEnforcement.ERROR;
    this.source = this.bind(checkedProps.subscriber ?? this, namespace);

    this.apiObject = new olm.Subscription(this, 'Resource', {
      metadata: l1Metadata({ name: this.name, namespace }),
      spec: {
        name: packageName,
        channel: checkedProps.channel,
        source: this.source.name,
        sourceNamespace: this.source.namespace,
        installPlanApproval: this.installPlanApproval,
        startingCsv: checkedProps.startingCsv,
        config: checkedProps.config ? toL1Config(checkedProps.config) : undefined,
      },
    });

    addErrorProducer(this, () => this.problems());
    addWarningProducer(this, () => this.unknownPinVersion());
  }

  /** This Subscription as plain data. */
  public get info(): SubscriptionInfo {
    return {
      name: this.name,
      namespace: this.namespace,
      packageName: this.packageName,
      channel: this.options.channel,
      sourceName: this.source.name,
      sourceNamespace: this.source.namespace,
      installPlanApproval: this.installPlanApproval,
      startingCsv: this.options.startingCsv,
      constructPath: this.node.path,
      bundleName: (this.options.bundle ?? this.installed)?.name,
      installsCsv: this.installTarget().known ? this.installTarget().csv : undefined,
      checkedCsv: this.installed?.name,
      allowedUpgrades: this.upgradeGraph ? this.allowedUpgrades().map((e) => `${e.from} -> ${e.to}`) : undefined,
    };
  }

  /**
   * The CSV OLM installs first and the upgrade walk starts from: `startingCsv`, else the channel head of the upgrade
   * graph or of the curated catalog's `sourceCatalog` (within the version ranges), else the bundle's (assumed to be the
   * channel head of a catalog the App does not hold).
   */
  public get pinnedCsv(): string | undefined {
    return this.installTarget().csv;
  }

  /**
   * What OLM installs first, as far as the App knows it. OLM's resolver (operator-lifecycle-manager
   * `pkg/controller/registry/resolver/resolver.go` `getSubscriptionCandidates`) filters the catalog with
   * `cache.CSVNamePredicate(sub.Spec.StartingCSV)` when nothing is installed yet: the entry whose name (the CSV's
   * `metadata.name`, as opm writes the `olm.bundle`) equals `startingCSV`, whatever its version (the entry's
   * `olm.package` version, the CSV's `spec.version`); OLM never reads a version from the name. Without
   * `startingCSV` the candidates are the channel in `sortChannel` order, and the head wins.
   * `known` is false when only the bundle given says it (the channel head of a catalog the App does not hold).
   */
  private installTarget(): { csv?: string; known: boolean; from: 'startingCsv' | 'upgradeGraph' | 'catalog' | 'bundle' | 'none' } {
    const p = this.options;
    if (p.startingCsv !== undefined) return { csv: p.startingCsv, known: true, from: 'startingCsv' };
    const graph = this.effectiveUpgradeGraph;
    if (graph) {
      const head = this.versionRangeProblem() === undefined ? graph.channelOrder(this.versionRange)[0] : undefined;
      if (head !== undefined) return { csv: head, known: true, from: 'upgradeGraph' };
    }
    const catalogHead = this.curatedCatalogHead();
    if (catalogHead) return { csv: catalogHead.csv, known: true, from: 'catalog' };
    if (p.bundle) return { csv: p.bundle.name, known: false, from: 'bundle' };
    return { known: false, from: 'none' };
  }

  /**
   * The head of the Subscription's channel (else the package's default channel) in the curated catalog built from its
   * `sourceCatalog` (`CuratedCatalog.filtered()`, what the catalog image serves), in OLM's channel order.
   */
  private curatedCatalogHead(): { csv: string; channel: string } | undefined {
    const catalog = this.options.catalog;
    if (!(catalog instanceof CuratedCatalog) || catalog.sourceCatalog === undefined) return undefined;
    const key = JSON.stringify([catalog.packages.length, this.options.channel]);
    if (this.catalogHead?.key !== key) {
      const filtered = catalog.filtered()?.catalog;
      const channel = this.options.channel ?? filtered?.defaultChannel(this.packageName);
      const csv = filtered && channel !== undefined && filtered.packageNames.includes(this.packageName)
        ? UpgradeGraph.fromCatalog(filtered, this.packageName, channel).channelOrder()[0] : undefined;
      this.catalogHead = { key, head: csv !== undefined && channel !== undefined ? { csv, channel } : undefined };
    }
    return this.catalogHead.head;
  }

  /**
   * The version of `csv` as the catalog has it: the bundle's `spec.version` when the bundle given is `csv`, else the
   * upgrade graph's entry, else the curated catalog's `sourceCatalog` entry (its `olm.package` version). Undefined
   * when none of them lists it: OLM matches `startingCSV` by name and reads no version from it.
   */
  private versionOfCsv(csv: string): string | undefined {
    const given = this.options.bundle;
    if (given?.name === csv) return given.version;
    const fromGraph = this.upgradeGraph?.versionOf(csv);
    if (fromGraph !== undefined) return fromGraph;
    const catalog = this.options.catalog;
    if (catalog instanceof CuratedCatalog && catalog.sourceCatalog !== undefined) {
      return catalog.sourceCatalog.bundleVersion(this.packageName, csv);
    }
    return undefined;
  }

  /**
   * The bundle given is not the CSV OLM installs first: `startingCsv` names another CSV, or (no `startingCsv`) the
   * channel head of the upgrade graph or of the curated catalog is another CSV. Undefined when they agree, when no
   * bundle is given, or when the App cannot know the channel head.
   */
  private installMismatch(): { target: string; bundle: OperatorBundle; from: 'startingCsv' | 'upgradeGraph' | 'catalog' } | undefined {
    const bundle = this.options.bundle;
    if (!bundle) return undefined;
    const target = this.installTarget();
    if (target.csv === undefined || target.csv === bundle.name || (target.from !== 'startingCsv' && target.from !== 'upgradeGraph' && target.from !== 'catalog')) return undefined;
    // an empty startingCsv is its own error (EmptyStartingCsv)
    if (target.from === 'startingCsv' && target.csv.trim() === '') return undefined;
    return { target: target.csv, bundle, from: target.from };
  }

  /** Every upgrade OLM would allow from `pinnedCsv` within `versionRange` (empty without an upgrade graph). */
  public allowedUpgrades(): UpgradeEdge[] {
    const from = this.pinnedCsv;
    const graph = this.effectiveUpgradeGraph;
    if (!graph || from === undefined || this.versionRangeProblem() !== undefined) return [];
    return graph.allowedUpgrades(from, this.versionRange);
  }

  /**
   * The `versionRange`s of the package and of its channel in the curated list, when `catalog` is a `CuratedCatalog`
   * (read when asked, so packages allowed later count); invalid ranges are left out (the catalog reports them).
   */
  public get curatedVersionRanges(): string[] {
    const catalog = this.options.catalog;
    if (!(catalog instanceof CuratedCatalog)) return [];
    const pkg = catalog.packages.find((p) => p.name === this.packageName);
    if (!pkg) return [];
    const channel = this.options.channel ?? this.upgradeGraph?.channel;
    const ranges = [pkg.versionRange, pkg.channels?.find((c) => c.name === channel)?.versionRange];
    return ranges.filter((r): r is string => r !== undefined && UpgradeGraph.versionRangeProblem(r) === undefined);
  }

  /**
   * `upgradeGraph` restricted to the curated catalog's version ranges (`curatedVersionRanges`).
   * @default - no upgrade graph given
   */
  public get effectiveUpgradeGraph(): UpgradeGraph | undefined {
    const graph = this.upgradeGraph;
    if (!graph) return undefined;
    const ranges = this.curatedVersionRanges;
    const key = JSON.stringify(ranges);
    if (this.restricted?.key !== key) this.restricted = { key, graph: graph.restrict(ranges) };
    return this.restricted.graph;
  }

  /** The bundles of the versions `allowedUpgrades` reaches (graph bundles only; versions without one are left out). */
  public get upgradeGraphBundles(): OperatorBundle[] {
    const graph = this.upgradeGraph;
    if (!graph) return [];
    const names = [...new Set(this.allowedUpgrades().map((e) => e.to))];
    return names.map((n) => graph.bundle(n)).filter((b): b is OperatorBundle => b !== undefined);
  }

  /** The graph's bundle of `startingCsv`, else of the channel head within `versionRange`. */
  private graphBundle(): OperatorBundle | undefined {
    const graph = this.effectiveUpgradeGraph;
    if (!graph) return undefined;
    const name = this.options.startingCsv ?? (this.versionRangeProblem() === undefined ? graph.channelOrder(this.versionRange)[0] : undefined);
    return name === undefined ? undefined : graph.bundle(name);
  }

  private versionRangeProblem(): string | undefined {
    return this.versionRange === undefined ? undefined : UpgradeGraph.versionRangeProblem(this.versionRange);
  }

  /**
   * True when the pinned CSV is not an entry of the upgrade graph: that one error (PinnedCsvNotInUpgradeGraph)
   * stands for the upgrade and derivation errors that would follow from it, which are left out.
   * @internal
   */
  public get _pinOutsideGraph(): boolean {
    const graph = this.options.upgradeGraph;
    const pinned = this.pinnedCsv;
    return graph !== undefined && pinned !== undefined && !graph.entries.some((e) => e.name === pinned);
  }

  /**
   * True when the pinned CSV cannot be installed as given (not in the upgrade graph, or outside the curated
   * catalog's version range): its one error stands for the upgrade and derivation errors that would follow.
   * @internal
   */
  public get _pinReported(): boolean {
    return this._pinOutsideGraph || this.pinOutsideCuratedRange() !== undefined || this.installMismatch() !== undefined;
  }

  /**
   * The pinned CSV and its version when the version is known (from the bundle or the upgrade graph) and the curated
   * catalog's ranges of the package and channel (`CuratedList.allowsVersion`) exclude it. Checked with or without a
   * `sourceCatalog`: the catalog built from the curated list never contains such a version, so OLM cannot resolve it.
   */
  private pinOutsideCuratedRange(): { csv: string; version: string; ranges: string[] } | undefined {
    const catalog = this.options.catalog;
    const csv = this.pinnedCsv;
    if (!(catalog instanceof CuratedCatalog) || csv === undefined || this.curatedVersionRanges.length === 0) return undefined;
    const pkg = catalog.packages.find((p) => p.name === this.packageName);
    const channel = this.options.channel ?? this.upgradeGraph?.channel;
    const version = this.versionOfCsv(csv);
    if (!pkg || channel === undefined || version === undefined || CuratedList.allowsVersion(pkg, channel, version)) return undefined;
    return { csv, version, ranges: this.curatedVersionRanges };
  }

  /**
   * One error when the bundle given is not what OLM installs first (`installMismatch`): it names both, what OLM does
   * with `startingCsv`, the pin's version against the curated range when the catalog's version of it is known (and
   * says so when it is not), and how to give the right bundle.
   */
  private installMismatchProblems(): DiagnosticDetails[] {
    const m = this.installMismatch();
    if (!m) return [];
    const p = this.options;
    const version = this.versionOfCsv(m.target);
    const ranges = this.curatedVersionRanges;
    const catalog = p.catalog instanceof CuratedCatalog ? p.catalog : undefined;
    const pkg = catalog?.packages.find((x) => x.name === this.packageName);
    const channel = p.channel ?? this.upgradeGraph?.channel;
    const outside = version !== undefined && pkg !== undefined && channel !== undefined && ranges.length > 0
      && !CuratedList.allowsVersion(pkg, channel, version);
    const given = `the bundle given ('${m.bundle.name}'${m.bundle.version !== undefined ? `, version ${m.bundle.version}` : ''})`;
    const what = m.from === 'startingCsv'
      ? `startingCsv '${m.target}' is not ${given}: OLM installs the catalog entry named '${m.target}' (its resolver matches startingCSV by name, CSVNamePredicate)`
      : `no startingCsv is set, so OLM installs the head of channel '${channel ?? '(default)'}', '${m.target}'${m.from === 'upgradeGraph' ? ' (the upgrade graph\'s, within the version ranges)' : ` (curated catalog '${catalog?.catalogName}' built from its sourceCatalog)`}, not ${given}`;
    const rangeText = ranges.length === 0 ? ''
      : outside ? `; and '${m.target}' (version ${version}) is outside the version range ${ranges.join(' and ')} of package '${this.packageName}' in curated catalog '${catalog!.catalogName}', so the Subscription would never resolve`
        : version === undefined ? `; the version of '${m.target}' is not known here (no upgrade graph or sourceCatalog lists it, and OLM reads no version from a CSV name), so the curated range ${ranges.join(' and ')} is not checked for it`
          : '';
    const graphHas = this.upgradeGraph?.bundle(m.target) !== undefined;
    const inUpgrades = (p.upgradeBundles ?? []).some((b) => b.name === m.target);
    const fixes = outside
      ? [`pin a version within the range ${ranges.join(' and ')} together with its bundle (e.g. startingCsv: '${m.bundle.name}' with the bundle given${m.bundle.version !== undefined && pkg && channel !== undefined && CuratedList.allowsVersion(pkg, channel, m.bundle.version) ? '' : ', if it is within the range'})`]
      : [
        graphHas ? `leave bundle out: the upgrade graph has the bundle of '${m.target}' and the library checks that one`
          : inUpgrades ? `pass the bundle of '${m.target}' (it is among upgradeBundles) as bundle`
            : `pass the bundle of '${m.target}' as bundle (OperatorBundle.fromDirectory or OperatorBundle.fromCatalogPackage), or leave bundle out and pass upgradeGraph (UpgradeGraph.fromCatalogPackage(file, package, channel) or UpgradeGraph.fromBundles([...], channel)), from which the library takes the bundle of '${m.target}'`,
        m.from === 'startingCsv' ? `or pin the bundle given: startingCsv: '${m.bundle.name}'` : `or pin the bundle given with startingCsv: '${m.bundle.name}' (and installPlanApproval: InstallPlanApproval.MANUAL to stay on it)`,
      ];
    return [{
      code: m.from === 'startingCsv' ? CODE.PinnedCsvNotBundle : CODE.BundleNotChannelHead,
      field: m.from === 'startingCsv' ? 'startingCsv' : 'bundle',
      value: m.from === 'startingCsv' ? m.target : m.bundle.name,
      message: `${what}, so the preflight, the derived installer rules and the pinned approval would describe a version OLM does not install${rangeText}`,
      fix: fixes.join(', '),
    }];
  }

  /**
   * A pinned `startingCsv` whose version nobody here knows (no bundle of that CSV, no upgrade graph or sourceCatalog
   * listing it) while the curated catalog restricts versions: the range cannot be checked for it (a warning; OLM matches
   * startingCSV by name in the catalog, so the version is the catalog's, never read from the name).
   */
  private unknownPinVersion(): DiagnosticDetails[] {
    const p = this.options;
    const csv = p.startingCsv;
    if (csv === undefined || csv.trim() === '' || this.installMismatch() !== undefined || this._pinOutsideGraph) return [];
    const ranges = this.curatedVersionRanges;
    if (ranges.length === 0 || this.versionOfCsv(csv) !== undefined) return [];
    return [{
      code: CODE.PinnedVersionUnknown,
      field: 'startingCsv',
      value: csv,
      message: `the version of '${csv}' is not known here (no bundle, upgrade graph or sourceCatalog lists it; OLM matches startingCSV by name and reads no version from it), `
        + `so the curated range ${ranges.join(' and ')} of package '${this.packageName}' is not checked for it, nor is its install`,
      fix: `pass the bundle of '${csv}' (bundle), an upgrade graph that lists it (upgradeGraph), or the curated catalog's sourceCatalog`,
    }];
  }

  private pinRangeProblems(): DiagnosticDetails[] {
    const outside = this.pinOutsideCuratedRange();
    if (!outside) return [];
    const inRange = this.effectiveUpgradeGraph?.channelOrder(this.versionRangeProblem() === undefined ? this.versionRange : undefined) ?? [];
    const catalog = this.options.catalog as CuratedCatalog;
    return [{
      code: CODE.PinnedCsvOutsideCuratedRange,
      field: this.options.startingCsv !== undefined ? 'startingCsv' : 'bundle',
      value: outside.csv,
      message: `'${outside.csv}' (version ${outside.version}) is outside the version range ${outside.ranges.join(' and ')} of package '${this.packageName}' `
        + `in curated catalog '${catalog.catalogName}', so the catalog built from the curated list does not contain it and the Subscription would never resolve`,
      fix: `pin a version within the range${inRange.length > 0 ? ` (the upgrade graph has ${inRange.join(', ')})` : ''}, or widen the package's versionRange in the curated list`,
    }];
  }

  private upgradeGraphProblems(): DiagnosticDetails[] {
    return graphProblems(this, this.options);
  }

  /** The catalog's `bindSubscriber`, which may be implemented outside this library (jsii): its answer is checked. */
  private bind(subscriber: IConstruct, namespace: string): CatalogSourceLocation {
    const fix = 'bindSubscriber must return { name, namespace } of the CatalogSource';
    try {
      const location: unknown = this.catalog.bindSubscriber(subscriber, namespace);
      const name = prop(location, 'name');
      const ns = prop(location, 'namespace');
      if (isObject(location) && typeof name === 'string' && typeof ns === 'string') return { name, namespace: ns };
      this.input.add({ code: CODE.InvalidReference, field: 'catalog', message: 'the catalog\'s bindSubscriber did not return a CatalogSource name and namespace', fix });
    } catch (e) {
      this.input.add({ code: CODE.InvalidReference, field: 'catalog', message: `the catalog's bindSubscriber failed: ${String((e as Error)?.message ?? e)}`, fix });
    }
    return { name: 'missing-catalog', namespace };
  }

  /** The catalog's `checkSubscription`, guarded like `bind`. */
  private catalogMessages(packageName: string = this.options.packageName): string[] {
    const p = this.options;
    try {
      const messages: unknown = p.catalog.checkSubscription({
        subscriberNamespace: this.namespace,
        packageName,
        channel: p.channel,
        startingCsv: p.startingCsv,
      });
      if (Array.isArray(messages)) return messages.map((m) => String(m));
      return ['the catalog\'s checkSubscription did not return a list of messages'];
    } catch (e) {
      return [`the catalog's checkSubscription failed: ${String((e as Error)?.message ?? e)}`];
    }
  }

  /**
   * A wrong package name is one mistake: when the catalog rejects the package and the bundle and upgrade graph given
   * are all of one other package that the catalog offers (as asked: channel and pin), the catalog's error says to
   * subscribe to that package, and the package mismatches of the bundle and graph are left out.
   */
  private oneWrongPackageName(found: DiagnosticDetails[]): DiagnosticDetails[] {
    const rejected = found.filter((d) => d.code === CODE.CatalogRejectsSubscription);
    const mismatched = new Set([
      ...(found.some((d) => d.code === CODE.UpgradeGraphPackageMismatch) ? [this.upgradeGraph!.packageName] : []),
      ...this.bundles.map((b) => b.packageName).filter((n): n is string => n !== undefined && n !== this.packageName),
    ]);
    if (rejected.length === 0 || mismatched.size !== 1) return found;
    const [given] = mismatched;
    if (this.catalogMessages(given).length > 0) return found;
    const fix = `set packageName to '${given}' (the package of the ${this.options.bundle ? 'bundle' : 'upgrade graph'} given, which the catalog offers)`;
    return found.filter((d) => !PACKAGE_MISMATCHES.includes(d.code)).map((d) => (d.code === CODE.CatalogRejectsSubscription ? { ...d, fix } : d));
  }

  private problems(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.input.errors];
    const p = this.options;
    if (out.some((d) => d.field === 'packageName')) {
      // already reported as missing or wrong-typed
    } else if (p.packageName.trim() === '') {
      out.push({ code: CODE.EmptyPackageName, field: 'packageName', value: p.packageName, message: 'the package name is empty', fix: "name the OLM package, e.g. 'etcd'" });
    }
    if (p.channel !== undefined && p.channel.trim() === '') {
      out.push({
        code: CODE.EmptyChannel,
        field: 'channel',
        value: p.channel,
        message: 'the channel is empty',
        fix: "name a channel of the package (e.g. 'stable'), or leave `channel` out to follow the package's default channel",
      });
    }
    if (p.startingCsv !== undefined && p.startingCsv.trim() === '') {
      out.push({ code: CODE.EmptyStartingCsv, field: 'startingCsv', value: p.startingCsv, message: 'startingCsv is empty', fix: "name a CSV (e.g. 'etcdoperator.v0.9.4') or leave `startingCsv` out" });
    }
    if (p.packageName.trim() !== '' && !out.some((d) => d.field === 'name')) {
      const nameProblem = KubernetesNames.problem(this.name, NameRule.DNS1123_SUBDOMAIN);
      if (nameProblem) {
        out.push({
          code: CODE.InvalidName,
          field: p.name !== undefined ? 'name' : 'packageName',
          value: this.name,
          message: `Subscription name ${nameProblem}`,
          fix: p.name !== undefined ? 'use a lower-case RFC 1123 subdomain' : 'set `name` to a lower-case RFC 1123 subdomain (the package name is used by default)',
        });
      }
    }
    if (p.upgradeBundles && p.upgradeBundles.length > 0 && !p.bundle) {
      out.push({
        code: CODE.UpgradeBundlesWithoutBundle,
        field: 'upgradeBundles',
        value: p.upgradeBundles.map((b) => b.name).join(', '),
        message: 'upgrade bundles are given but not the bundle installed first',
        fix: 'set `bundle` to the version OLM installs first (the channel head or the startingCsv)',
      });
    }
    out.push(...this.upgradeGraphProblems());
    // the graph's own bundles are of the graph's package: one UpgradeGraphPackageMismatch says it for them
    const graphMismatch = out.some((d) => d.code === CODE.UpgradeGraphPackageMismatch);
    for (const b of this.bundles) {
      if (graphMismatch && b !== p.bundle && !(p.upgradeBundles ?? []).includes(b)) continue;
      if (b.packageName !== undefined && b.packageName !== p.packageName) {
        out.push({
          code: CODE.BundlePackageMismatch,
          field: b === p.bundle ? 'bundle' : 'upgradeBundles',
          value: b.name,
          message: `bundle '${b.name}' belongs to package '${b.packageName}', not '${p.packageName}'`,
          fix: `give a bundle of package '${p.packageName}'`,
        });
      }
    }
    if (p.subscriber === undefined && !out.some((d) => d.field === 'namespace')) {
      // a tenant checks the namespace name it passes; a Subscription made directly checks its own
      const namespaceCheck = new InputCheck();
      namespaceCheck.name('namespace', this.namespace, NameRule.DNS1123_LABEL, 'Namespace');
      out.push(...namespaceCheck.errors);
    }
    if (p.config) {
      const json = olm.toJson_SubscriptionSpecConfig(toL1Config(p.config));
      for (const d of SubscriptionConfigChecks.problems(json, { allowed: p.allowedConfig, allowedSecretNames: p.allowedConfigSecrets })) {
        out.push({ ...d, field: `config.${d.field}` });
      }
    }
    for (const message of out.some((d) => d.field?.startsWith('catalog') || d.field === 'packageName') ? [] : this.catalogMessages()) {
      out.push({
        code: CODE.CatalogRejectsSubscription,
        field: 'catalog',
        value: `${this.source.namespace}/${this.source.name}`,
        message,
        fix: 'subscribe to what the catalog offers, or add it to the catalog',
      });
    }
    out.splice(0, out.length, ...this.oneWrongPackageName(out));
    // the pin's version against the curated range, unless the catalog rejected the Subscription already (it checks
    // startingCsv itself when it has a sourceCatalog)
    // the bundle given against what OLM installs first: one error that names both (and the pin's range), standing for
    // the range error of the same pin
    const mismatch = out.some((d) => d.code === CODE.CatalogRejectsSubscription) ? [] : this.installMismatchProblems();
    out.push(...mismatch);
    if (!out.some((d) => d.code === CODE.CatalogRejectsSubscription) && mismatch.length === 0) out.push(...this.pinRangeProblems());
    // a channel the catalog does not offer is one mistake: the catalog's error names the allowed channels
    if (out.some((d) => d.code === CODE.CatalogRejectsSubscription && d.message.includes(`channel "${p.channel}"`))) {
      return out.filter((d) => d.code !== CODE.UpgradeGraphChannelEmpty);
    }
    return out;
  }
}

/** The codes that say the bundle or the upgrade graph is of another package than `packageName`. */
const PACKAGE_MISMATCHES = ['UpgradeGraphPackageMismatch', 'BundlePackageMismatch'];

/** Problems of `upgradeGraph` / `versionRange` (see `OperatorSubscription.problems`). */
function graphProblems(sub: OperatorSubscription, p: OperatorSubscriptionProps): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  const graph = p.upgradeGraph;
  if (p.versionRange !== undefined) {
    const problem = UpgradeGraph.versionRangeProblem(p.versionRange);
    if (problem !== undefined) {
      out.push({ code: CODE.InvalidVersionRange, field: 'versionRange', value: p.versionRange, message: problem, fix: "write a node-semver range, e.g. '>=0.9.2 <0.10.0'" });
    }
    if (!graph) {
      out.push({
        code: CODE.VersionRangeWithoutUpgradeGraph,
        field: 'versionRange',
        value: p.versionRange,
        message: 'a version range is given but no upgrade graph, so nothing is walked or checked within it',
        fix: 'pass upgradeGraph (UpgradeGraph.fromCatalogPackage(file, package, channel)), or drop versionRange',
      });
    }
  }
  if (!graph) return out;
  if (graph.packageName !== '' && graph.packageName !== p.packageName) {
    out.push({
      code: CODE.UpgradeGraphPackageMismatch,
      field: 'upgradeGraph',
      value: graph.packageName,
      message: `the upgrade graph is of package '${graph.packageName}', not '${p.packageName}'`,
      fix: `build the graph of package '${p.packageName}'`,
    });
  }
  if (p.channel !== undefined && p.channel.trim() !== '' && graph.channel !== '' && graph.channel !== p.channel) {
    const channels = graph._origin?.channels;
    const known = channels === undefined || channels.length === 0 || channels.includes(p.channel);
    out.push({
      code: CODE.UpgradeGraphChannelMismatch,
      field: 'upgradeGraph',
      value: graph.channel,
      message: `the upgrade graph is of channel '${graph.channel}', but the Subscription follows '${p.channel}'`
        + (known ? '' : `, which the graph's source does not have (its channels: ${channels!.map((c) => `'${c}'`).join(', ')})`),
      fix: known ? `build the graph of channel '${p.channel}' (\`${graphApi(graph, p.channel)}\`)` : `set the Subscription's channel to '${graph.channel}'`,
    });
  }
  for (const problem of graph.problems) {
    out.push({
      code: CODE.UpgradeGraphProblem,
      field: 'upgradeGraph',
      value: `${graph.packageName}/${graph.channel}`,
      message: problem,
      fix: 'fix the channel in the catalog (opm validate), or subscribe to another channel',
    });
  }
  const pinned = sub.pinnedCsv;
  if (pinned !== undefined && graph.entries.length === 0) {
    // a channel without entries: the channel is wrong, not the pin (one error, naming the channels that exist)
    const channels = graph._origin?.channels ?? [];
    out.push({
      code: CODE.UpgradeGraphChannelEmpty,
      field: 'channel',
      value: graph.channel,
      message: `the upgrade graph has no CSV in channel '${graph.channel}'${channels.length > 0 ? `; the channels are ${channels.map((c) => `'${c}'`).join(', ')}` : ''}`,
      fix: channels.length > 0
        ? `use one of them as the channel and in \`${graphApi(graph, channels[0])}\``
        : `build the graph of the Subscription's channel (${graphApi(graph, graph.channel)})`,
    });
  } else if (pinned !== undefined && !graph.entries.some((e) => e.name === pinned)) {
    const csvs = graph.channelOrder();
    const api = graph._origin?.api;
    out.push({
      code: CODE.PinnedCsvNotInUpgradeGraph,
      field: p.bundle ? 'bundle' : 'startingCsv',
      value: pinned,
      message: `'${pinned}' is not in channel '${graph.channel}' of the upgrade graph, whose CSVs are ${csvs.join(', ')}, so nothing can be installed or upgraded from it`,
      fix: `pin one of them${api?.startsWith('UpgradeGraph.fromBundles')
        ? `, or add the bundle of '${pinned}' to \`${api}\``
        : api !== undefined ? `, or use a catalog whose channel '${graph.channel}' has '${pinned}' (${api})` : ''}`,
    });
  } else if (pinned !== undefined && p.bundle === undefined && graph.bundle(pinned) === undefined) {
    out.push({
      code: CODE.PinnedBundleMissing,
      field: 'upgradeGraph',
      value: pinned,
      message: `the upgrade graph has no bundle for the pinned CSV '${pinned}', so its install cannot be checked`,
      fix: 'load the graph with its bundles (UpgradeGraph.fromCatalogPackage or UpgradeGraph.fromBundles), or pass `bundle`',
    });
  }
  return out;
}

/** The call that builds `graph` for `channel`, as the user built it (fromBundles, fromCatalogPackage, ...). */
function graphApi(graph: UpgradeGraph, channel: string): string {
  const api = graph._origin?.api ?? 'UpgradeGraph.fromCatalogPackage(file, package, channel)';
  return api.replace(/channel\)$/, `'${channel}')`);
}

function toL1Config(c: SubscriptionConfig): olm.SubscriptionSpecConfig {
  return {
    env: c.env,
    envFrom: c.envFrom,
    resources: c.resources,
    nodeSelector: c.nodeSelector,
    tolerations: c.tolerations,
    affinity: c.affinity,
    volumes: c.volumes,
    volumeMounts: c.volumeMounts,
    selector: c.selector,
    annotations: c.annotations,
  };
}
