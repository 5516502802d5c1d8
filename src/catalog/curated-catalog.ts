import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { CatalogSourceLocation, CatalogSubscriptionRequest, ICatalogSource } from './catalog-source-reference';
import { ImageSetConfigurationOptions, MirrorConfig } from './mirror-config';
import { IOperatorTenant } from './operator-tenant';
import { catalogSourcesByLocation, checkDirectory } from './private';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer, Diagnostics } from '../core/diagnostics';
import { GoDuration } from '../core/go-duration';
import { describeValue, INPUT_CODES, InputCheck, isObject, prop, throwIfInvalid, valueText, withUnknownProps } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';
import { l1Metadata } from '../core/l1-metadata';
import { CuratedList, CuratedPackage } from '../fbc/curated-list';
import { FbcFilter, FbcFilterResult } from '../fbc/fbc-filter';
import { FbcFormat, FbcFinding } from '../fbc/fbc-types';
import { FbcValidator } from '../fbc/fbc-validator';
import { FbcWriter } from '../fbc/fbc-writer';
import { FileBasedCatalog } from '../fbc/file-based-catalog';
import * as olm from '../imports/olm';
import { refuseUnfaithfulOutputOnPlainApps } from '../output/faithful-output';
import { OutputWriter, removeEntry } from '../output/output-writer';
import { YamlWriter } from '../output/yaml-writer';

/** Properties of a `CuratedCatalog`. */
export interface CuratedCatalogProps {
  /** The allowed packages: the single source of truth for what tenants may install from this catalog. */
  readonly packages: CuratedPackage[];
  /**
   * Name of the CatalogSource in each served namespace (Subscription `spec.source`).
   * @default 'curated-operators'
   */
  readonly catalogName?: string;
  /**
   * The curated catalog image (`spec.sourceType: grpc`, `spec.image`). OLM runs it as a registry pod in each
   * served namespace. Exactly one of `image` and `address` must be set.
   * @default - none
   */
  readonly image?: string;
  /**
   * Address (`host:port`) of a catalog gRPC server that runs elsewhere (`spec.sourceType: grpc`, `spec.address`).
   * @default - none
   */
  readonly address?: string;
  /**
   * The file-based catalog the curated image is built from. When set, the curated list is checked against it
   * (unknown packages and channels are synth errors), the filtered catalog is validated like `opm validate`, and
   * `artifacts()` can write the filtered catalog and mirroring configuration.
   * @default - the catalog's contents are unknown: only the list itself is checked
   */
  readonly sourceCatalog?: FileBasedCatalog;
  /**
   * Name shown in consoles (`spec.displayName`).
   * @default 'Curated Operators'
   */
  readonly displayName?: string;
  /**
   * Publisher shown in consoles (`spec.publisher`).
   * @default - none
   */
  readonly publisher?: string;
  /**
   * `spec.priority`: OLM prefers higher-priority catalogs when resolving dependencies.
   * @default - OLM's default (0)
   */
  readonly priority?: number;
  /**
   * How often OLM polls the image for a new catalog (`spec.updateStrategy.registryPoll.interval`), a Go duration
   * such as `30m` or `1h30m`. Checked at synth time with a port of Go's `time.ParseDuration`: OLM itself silently
   * polls every 15 minutes when the value does not parse. Only meaningful with `image`.
   * @default - no polling: the catalog pod is only replaced when the CatalogSource changes
   */
  readonly registryPollInterval?: string;
  /**
   * Names of pull secrets in each served namespace for the catalog image (`spec.secrets`). OLM uses them with its
   * own client; they must exist in each tenant namespace.
   * @default - none
   */
  readonly secrets?: string[];
  /**
   * Scheduling and security of the catalog pod (`spec.grpcPodConfig`). Only meaningful with `image`.
   *
   * `securityContextConfig` defaults to `restricted` here (our choice, secure by default). OLM itself leaves it
   * unset, which makes the pod follow the namespace's pod-security admission level.
   * @default - { securityContextConfig: restricted }
   */
  readonly grpcPodConfig?: olm.CatalogSourceSpecGrpcPodConfig;
  /**
   * Tenants to serve now (more with `serve`).
   * @default - none
   */
  readonly tenants?: IOperatorTenant[];
}

/** Files to write beside the manifests (never inside a chart). */
export interface CatalogArtifactsOptions {
  /**
   * Format of the filtered catalog files.
   * @default FbcFormat.JSON
   */
  readonly format?: FbcFormat;
  /**
   * Also write an oc-mirror v2 `ImageSetConfiguration` (`imageset-configuration.yaml`) with these images.
   * @default - no ImageSetConfiguration
   */
  readonly imageSet?: ImageSetConfigurationOptions;
}

/**
 * A curated catalog: one allow-list of operators, served as a CatalogSource in each tenant namespace, so the
 * tenant's OperatorGroup only sees curated content.
 *
 * It checks tenant Subscriptions against the list at synth time (`checkSubscription`), can produce the filtered
 * file-based catalog plus oc-mirror configuration to build the curated image (`artifacts`, `writeArtifacts`), and
 * can be enforced in the cluster with a `CuratedCatalogAdmissionPolicy`.
 */
export class CuratedCatalog extends Construct implements ICatalogSource {
  /** The CatalogSource name in every served namespace. */
  public readonly catalogName: string;
  /** The curated catalog image, when the catalog runs from an image. */
  public readonly image?: string;
  /** The catalog server address, when the catalog runs elsewhere. */
  public readonly address?: string;
  /** The source catalog, when given. */
  public readonly sourceCatalog?: FileBasedCatalog;
  /** The pull secrets named in each CatalogSource, sorted. */
  public readonly secrets: string[];

  private readonly props: CuratedCatalogProps;
  private readonly allowed: CuratedPackage[];
  private readonly served = new Map<string, olm.CatalogSource>();
  private readonly subscribers = new Map<string, string[]>();
  private filterCache?: { size: number; result: FbcFilterResult; checks?: { validation: FbcFinding[]; writing: FbcFinding[] } };
  /** Wrong-typed or unusable props and arguments (reported first at synth). */
  private readonly input = new InputCheck();

  public constructor(scope: Construct, id: string, props: CuratedCatalogProps) {
    super(scope, id);
    // Runtime input checks first (JavaScript and jsii callers): problems are synth errors, the rest uses safe values.
    const checkedProps = checkCatalogProps(this.input, props);
    this.props = checkedProps;
    this.catalogName = checkedProps.catalogName ?? 'curated-operators';
    this.image = checkedProps.image;
    this.address = checkedProps.address;
    this.sourceCatalog = checkedProps.sourceCatalog;
    this.secrets = [...(checkedProps.secrets ?? [])].sort();
    this.allowed = [...(checkedProps.packages ?? [])]; // a JavaScript caller may omit it: reported as an empty list
    addErrorProducer(this, () => this.errors());
    refuseUnfaithfulOutputOnPlainApps(this);
    addWarningProducer(this, () => this.warnings());
    for (const t of checkedProps.tenants ?? []) this.serve(t);
  }

  /** The allowed packages (a copy). */
  public get packages(): CuratedPackage[] {
    return [...this.allowed];
  }

  /** Namespaces that get this catalog's CatalogSource, sorted. */
  public get servedNamespaces(): string[] {
    return [...this.served.keys()].sort();
  }

  /** Adds a package to the curated list. */
  public allow(pkg: CuratedPackage): void {
    const checked = checkPackage(this.input, 'allow(pkg)', pkg);
    if (checked) this.allowed.push(checked);
  }

  /** Serves the catalog in the tenant's namespace (idempotent). */
  public serve(tenant: IOperatorTenant): CatalogSourceLocation {
    const namespaceName = prop(tenant, 'namespaceName');
    const node = prop(tenant, 'node');
    if (typeof namespaceName !== 'string' || node === null || typeof node !== 'object' || typeof prop(node, 'findAll') !== 'function') {
      this.input.add({
        code: INPUT_CODES.reference,
        field: 'serve(tenant)',
        value: valueText(tenant),
        message: `serve() needs a tenant construct (e.g. a ScopedOperatorTenant), got ${describeValue(tenant)}`,
        fix: 'pass the tenant construct, or call serveNamespace(namespace)',
      });
      return { name: this.catalogName, namespace: typeof namespaceName === 'string' ? namespaceName : '' };
    }
    const location = this.serveChecked(namespaceName, 'serve(tenant).namespaceName');
    // The CatalogSource can only be applied once the tenant's Namespace exists (when the tenant creates it).
    const catalogSource = this.served.get(namespaceName);
    if (!catalogSource) return location;
    for (const c of tenant.node.findAll()) {
      if (c instanceof ApiObject && c.kind === 'Namespace' && c.metadata.name === tenant.namespaceName) catalogSource.node.addDependency(c);
    }
    return location;
  }

  /** Serves the catalog in a namespace (idempotent): adds a CatalogSource there. */
  public serveNamespace(namespace: string): CatalogSourceLocation {
    return this.serveChecked(namespace, 'serveNamespace(namespace)');
  }

  /** `serveNamespace`, reporting a bad namespace under `field` (no CatalogSource is created for it). */
  private serveChecked(namespace: unknown, field: string | undefined): CatalogSourceLocation {
    const check = field !== undefined ? this.input : new InputCheck();
    const ns = check.name(field ?? 'namespace', check.requiredString(field ?? 'namespace', namespace, 'pass the namespace name, e.g. \'team-a\''), NameRule.DNS1123_LABEL, 'Namespace');
    if (ns === undefined) return { name: this.catalogName, namespace: typeof namespace === 'string' ? namespace : '' };
    if (!this.served.has(ns)) {
      this.served.set(ns, new olm.CatalogSource(this, `CatalogSource-${ns}`, {
        metadata: l1Metadata({ name: this.catalogName, namespace: ns }),
        spec: this.renderSpec(),
      }));
    }
    return { name: this.catalogName, namespace: ns };
  }

  /** `ICatalogSource`: serves the subscriber's namespace and returns the CatalogSource there. */
  public bindSubscriber(subscriber: IConstruct, subscriberNamespace: string): CatalogSourceLocation {
    const subscriberPath = prop(prop(subscriber, 'node'), 'path');
    this.subscribers.set(subscriberNamespace, [...(this.subscribers.get(subscriberNamespace) ?? []), typeof subscriberPath === 'string' ? subscriberPath : '']);
    // a bad namespace is the subscriber's own error (reported there), so it is not reported twice here
    return this.serveChecked(subscriberNamespace, undefined);
  }

  /**
   * `ICatalogSource`: why the curated list does not allow this Subscription (package, channel, starting CSV),
   * each message naming the tenant namespace and the allowed choices. Empty when allowed.
   */
  public checkSubscription(request: CatalogSubscriptionRequest): string[] {
    const input = new InputCheck('checkSubscription(request).');
    const r = input.optionalObject('request', request ?? 0, 'pass { subscriberNamespace, packageName, channel?, startingCsv? }');
    if (r) {
      input.requiredString('subscriberNamespace', r.subscriberNamespace, 'pass the namespace of the Subscription');
      input.requiredString('packageName', r.packageName, 'pass the package name');
      input.optionalString('channel', r.channel);
      input.optionalString('startingCsv', r.startingCsv);
    }
    if (input.errors.length > 0) throw new Error(`[${this.node.path}] ${input.errors.map((d) => Diagnostics.formatMessage(d)).join('; ')}`);
    const who = `tenant namespace ${q(request.subscriberNamespace)}`;
    const cat = `curated catalog ${q(this.catalogName)}`;
    const pkg = this.allowed.find((p) => p.name === request.packageName);
    if (!pkg) {
      return [`${who}: package ${q(request.packageName)} is not in ${cat}; allowed packages: ${list(this.allowed.map((p) => p.name).sort())}`];
    }
    const out: string[] = [];
    const filtered = this.filtered()?.catalog;
    const channels = filtered ? filtered.channelNames(pkg.name) : pkg.channels?.map((c) => c.name).sort();
    if (request.channel === undefined) {
      if (pkg.channels !== undefined) {
        out.push(`${who}: package ${q(pkg.name)} in ${cat} only allows some channels, so the Subscription must name one; allowed channels: ${list(channels ?? [])}`);
      }
    } else if (!CuratedList.allowsChannel(pkg, request.channel) || (channels !== undefined && !channels.includes(request.channel))) {
      out.push(`${who}: channel ${q(request.channel)} of package ${q(pkg.name)} is not in ${cat}; allowed channels: ${list(channels ?? [])}`);
    }
    if (request.startingCsv !== undefined && filtered) {
      const channel = request.channel ?? filtered.defaultChannel(pkg.name) ?? '';
      const bundles = filtered.channelEntries(pkg.name, channel).map((e) => e.name).sort();
      if (!bundles.includes(request.startingCsv) && out.length === 0) {
        out.push(`${who}: startingCSV ${q(request.startingCsv)} is not in channel ${q(channel)} of package ${q(pkg.name)} in ${cat}; allowed: ${list(bundles)}`);
      }
    }
    return out;
  }

  /**
   * The source catalog filtered by the curated list, with the problems and notes of filtering.
   * @returns undefined without `sourceCatalog`
   */
  public filtered(): FbcFilterResult | undefined {
    if (!this.sourceCatalog) return undefined;
    if (!this.filterCache || this.filterCache.size !== this.allowed.length) {
      this.filterCache = { size: this.allowed.length, result: FbcFilter.filter(this.sourceCatalog, this.allowed) };
    }
    return this.filterCache.result;
  }

  /** `opm validate` and writing problems of the filtered catalog, computed once per curated list (validation runs per chart). */
  private filteredChecks(): { validation: FbcFinding[]; writing: FbcFinding[] } {
    const result = this.filtered();
    if (!result || !this.filterCache) return { validation: [], writing: [] };
    this.filterCache.checks ??= { validation: FbcValidator.validate(result.catalog), writing: FbcWriter.problems(result.catalog) };
    return this.filterCache.checks;
  }

  /**
   * Files to build the curated catalog image with the standard tools, relative paths to content:
   * `catalog/<package>/catalog.json` (the filtered FBC: run `opm validate catalog` and
   * `opm generate dockerfile catalog`), `filter-configuration.yaml` and, with `imageSet`,
   * `imageset-configuration.yaml` for oc-mirror v2. Write them beside the manifests, never into a chart.
   *
   * @throws Error without `sourceCatalog`, or when the curated list or the filtered catalog has problems
   */
  public artifacts(options: CatalogArtifactsOptions = {}): { [file: string]: string } {
    checkArtifactsOptions(`[${this.node.path}] artifacts`, options);
    const result = this.filtered();
    if (!result) {
      throw new Error(`${this.node.path}: artifacts() needs the sourceCatalog prop (the file-based catalog to filter)`);
    }
    const problems = [
      ...CuratedList.problems(this.allowed),
      ...result.problems.map((p) => p.message),
      ...this.filteredChecks().validation.map((p) => p.message),
      ...this.filteredChecks().writing.map((p) => p.message),
    ];
    if (problems.length > 0) {
      throw new Error(`${this.node.path}: cannot write the curated catalog:\n  ${problems.join('\n  ')}`);
    }
    const out: { [file: string]: string } = {};
    const files = FbcWriter.toFiles(result.catalog, options.format ?? FbcFormat.JSON);
    for (const f of Object.keys(files)) out[`catalog/${f}`] = files[f];
    out['filter-configuration.yaml'] = YamlWriter.document(MirrorConfig.filterConfiguration(result.catalog));
    if (options.imageSet) {
      out['imageset-configuration.yaml'] = YamlWriter.document(MirrorConfig.imageSetConfiguration(result.catalog, options.imageSet));
    }
    return sortKeys(out);
  }

  /**
   * Writes `artifacts(options)` below `directory` (created if needed) and returns the written paths, sorted.
   * The `catalog/` folder is replaced, so packages removed from the list do not linger.
   */
  public writeArtifacts(directory: string, options: CatalogArtifactsOptions = {}): string[] {
    checkDirectory(`[${this.node.path}] writeArtifacts`, directory);
    const files = this.artifacts(options);
    // through a temporary file and a rename each, never through a link (`OutputWriter`)
    removeEntry(path.join(directory, 'catalog'));
    const out = new OutputWriter(directory);
    const written: string[] = [];
    for (const rel of Object.keys(files)) {
      out.write(rel, files[rel]);
      written.push(path.join(directory, rel));
    }
    return written.sort();
  }

  private renderSpec(): olm.CatalogSourceSpec {
    const p = this.props;
    const fromImage = p.image !== undefined;
    return {
      sourceType: 'grpc',
      ...(p.image !== undefined ? { image: p.image } : {}),
      ...(p.address !== undefined ? { address: p.address } : {}),
      displayName: p.displayName ?? 'Curated Operators',
      ...(p.publisher !== undefined ? { publisher: p.publisher } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
      ...(this.secrets.length > 0 ? { secrets: this.secrets } : {}),
      ...(p.registryPollInterval !== undefined ? { updateStrategy: { registryPoll: { interval: p.registryPollInterval } } } : {}),
      ...(fromImage
        ? {
          grpcPodConfig: {
            ...(p.grpcPodConfig ?? {}),
            securityContextConfig: p.grpcPodConfig?.securityContextConfig ?? olm.CatalogSourceSpecGrpcPodConfigSecurityContextConfig.RESTRICTED,
          },
        }
        : {}),
    };
  }

  private errors(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [...this.input.errors];
    const p = this.props;
    for (const m of CuratedList.problems(this.allowed)) {
      out.push({ code: CODE.CuratedListInvalid, field: 'packages', message: m, fix: 'list at least one package, each once, with valid semver ranges' });
    }
    const badSource = this.input.errors.some((d) => d.field === 'image' || d.field === 'address'); // reported above
    if (!badSource && (p.image === undefined) === (p.address === undefined)) {
      out.push({
        code: CODE.CatalogSourceTypeInvalid,
        field: 'image',
        message: p.image === undefined ? 'neither image nor address is set' : 'both image and address are set',
        fix: 'set exactly one: image (OLM runs the catalog pod) or address (a catalog server that runs elsewhere)',
      });
    }
    // OLM names the registry Service after the CatalogSource (operator-lifecycle-manager
    // pkg/controller/registry/reconciler/grpc.go, grpcCatalogSourceDecorator.Service), so it must be an RFC 1035 label.
    const nameProblem = KubernetesNames.problem(this.catalogName, NameRule.DNS1123_LABEL)
      ?? (/^[0-9]/.test(this.catalogName) ? 'must start with a letter (RFC 1035 label)' : undefined);
    if (nameProblem) {
      out.push({
        code: CODE.InvalidName,
        field: 'catalogName',
        value: this.catalogName,
        message: `CatalogSource name ${nameProblem}`,
        fix: 'OLM names a Service after the CatalogSource: use lower-case letters, digits and "-", starting with a letter',
      });
    }
    for (const secret of this.secrets) {
      const problem = KubernetesNames.problem(secret, NameRule.DNS1123_SUBDOMAIN);
      if (problem) out.push({ code: CODE.InvalidName, field: 'secrets', value: secret, message: `pull secret name ${problem}`, fix: 'name the Secret in lower-case letters, digits, "-" and "."' });
    }
    if (p.priority !== undefined && !Number.isInteger(p.priority)) {
      out.push({ code: CODE.InvalidPriority, field: 'priority', value: String(p.priority), message: 'priority must be an integer', fix: 'use e.g. 10 or -100' });
    }
    if (p.registryPollInterval !== undefined) {
      const problem = GoDuration.problem(p.registryPollInterval);
      if (problem) {
        out.push({
          code: CODE.RegistryPollIntervalInvalid,
          field: 'registryPollInterval',
          value: p.registryPollInterval,
          message: `${problem}; OLM would silently poll every 15m instead`,
          fix: 'use a Go duration with units ns, us, ms, s, m or h, e.g. "30m" or "1h30m" (no "d")',
        });
      } else if (BigInt(GoDuration.toNanoseconds(p.registryPollInterval)) <= 0n) {
        out.push({ code: CODE.RegistryPollIntervalInvalid, field: 'registryPollInterval', value: p.registryPollInterval, message: 'the poll interval must be positive', fix: 'use e.g. "30m"' });
      }
    }
    // One walk of the App for the App-wide checks: validation runs once per chart (cdk8s App._synthChart).
    const all = this.node.root.node.findAll();
    for (const [location, paths] of [...catalogSourcesByLocation(this, all).entries()].sort()) {
      const mine = paths.filter((x) => x.startsWith(`${this.node.path}/`));
      if (mine.length > 0 && paths.length > 1) {
        out.push({
          code: CODE.DuplicateCatalogSource,
          field: 'catalogName',
          value: this.catalogName,
          message: `namespace ${q(location.split('/')[0])} gets ${paths.length} CatalogSources named ${q(this.catalogName)} (${paths.join(', ')})`,
          fix: 'give each catalog that serves the same namespace its own catalogName',
        });
      }
    }
    out.push(...this.subscriptionsAroundCuration(all));
    const result = this.filtered();
    if (this.sourceCatalog && result) {
      for (const problem of this.sourceCatalog.loadProblems) {
        out.push({ code: CODE.FbcMalformed, field: 'sourceCatalog', message: problem.message, fix: 'fix the file-based catalog (opm validate <dir> reports the same)' });
      }
      for (const problem of result.problems) {
        out.push({ code: CODE.CuratedPackageNotInCatalog, field: 'packages', message: problem.message, fix: 'allow only packages, channels and versions that the source catalog has' });
      }
      if (result.problems.length === 0) {
        for (const problem of this.filteredChecks().writing) {
          out.push({ code: CODE.FbcInvalid, field: 'sourceCatalog', value: problem.blob, message: `the filtered catalog cannot be written: ${problem.message}`, fix: 'render the source catalog with opm render, with valid package names' });
        }
        for (const problem of this.filteredChecks().validation) {
          if (this.sourceCatalog.loadProblems.some((l) => l.message === problem.message)) continue;
          out.push({ code: CODE.FbcInvalid, field: 'sourceCatalog', value: problem.blob, message: `the filtered catalog would fail opm validate: ${problem.message}`, fix: 'fix the source catalog or change the curated ranges' });
        }
      }
    }
    return out;
  }

  /**
   * Subscriptions in a namespace this catalog serves that use a CatalogSource no curated catalog provides there
   * (e.g. a global catalog via `CatalogSourceReference`): they would go around the curation. Reported once per
   * namespace, by the first curated catalog (by path) that serves it.
   */
  private subscriptionsAroundCuration(all: IConstruct[]): DiagnosticDetails[] {
    // Linear in the App per call: validation runs once per chart.
    const out: DiagnosticDetails[] = [];
    const curated: CuratedCatalog[] = [];
    const subscriptionsByNamespace = new Map<string, ApiObject[]>();
    for (const x of all) {
      if (x instanceof CuratedCatalog) {
        curated.push(x);
      } else if (x instanceof ApiObject && x.kind === 'Subscription' && x.apiVersion.startsWith('operators.coreos.com/')) {
        const ns = x.metadata.namespace ?? '';
        if (this.served.has(ns)) {
          const inNamespace = subscriptionsByNamespace.get(ns) ?? [];
          inNamespace.push(x);
          subscriptionsByNamespace.set(ns, inNamespace);
        }
      }
    }
    curated.sort((a, b) => (a.node.path < b.node.path ? -1 : 1));
    for (const ns of [...subscriptionsByNamespace.keys()].sort()) {
      const servers = curated.filter((c) => c.served.has(ns));
      if (servers[0] !== this) continue;
      const allowed = servers.map((c) => c.catalogName).sort();
      for (const sub of subscriptionsByNamespace.get(ns)!.sort((a, b) => (a.node.path < b.node.path ? -1 : 1))) {
        const spec = subscriptionSpec(sub);
        if (spec.sourceNamespace === ns && allowed.includes(spec.source)) continue;
        out.push({
          code: CODE.SubscriptionOutsideCuratedCatalog,
          field: 'tenants',
          value: ns,
          message: `tenant namespace ${q(ns)}: Subscription ${sub.node.path} (package ${q(String(spec.name))}) uses CatalogSource ${q(String(spec.source))} in namespace ${q(String(spec.sourceNamespace))}, which goes around the curation; allowed: ${list(allowed)} in ${q(ns)}`,
          fix: 'subscribe through the curated catalog (add the package to its list if it should be allowed)',
        });
      }
    }
    return out;
  }

  private warnings(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    const p = this.props;
    if (p.address !== undefined && p.image === undefined) {
      if (p.grpcPodConfig) out.push({ code: CODE.IgnoredWithAddress, field: 'grpcPodConfig', message: 'OLM runs no catalog pod for an address-based CatalogSource, so grpcPodConfig has no effect' });
      if (p.registryPollInterval) out.push({ code: CODE.IgnoredWithAddress, field: 'registryPollInterval', message: 'OLM only polls image-based CatalogSources' });
    }
    // Accepted the way opm accepts it (duplicate keys: the last one wins), but worth fixing in the source catalog.
    for (const w of this.sourceCatalog?.loadWarnings ?? []) {
      out.push({ code: CODE.FbcLoadWarning, field: 'sourceCatalog', message: w.message, fix: 'remove the repeated key from the file-based catalog' });
    }
    const result = this.filtered();
    for (const note of result?.notes ?? []) {
      out.push({ code: CODE.CatalogFiltered, field: 'packages', message: note });
    }
    if (this.sourceCatalog && result && result.problems.length === 0) {
      for (const d of MirrorConfig.differences(this.sourceCatalog, result.catalog)) {
        out.push({ code: CODE.MirrorConfigDiffers, field: 'packages', message: d, fix: 'use one contiguous version range per channel, or build the image from catalog/ with opm' });
      }
    }
    if (this.served.size === 0) {
      out.push({ code: CODE.CatalogNotServed, message: 'the curated catalog serves no namespace', fix: 'call serve(tenant) or pass tenants' });
    }
    return out;
  }
}

/**
 * A Subscription's `spec`. Validation runs once per chart (cdk8s `App._synthChart`), so `toJson()` on every
 * Subscription in every pass would make synthesis quadratic in the number of tenant charts: read the props the
 * object was built from when they hold plain strings, and resolve with `toJson()` only otherwise.
 */
function subscriptionSpec(sub: ApiObject): any {
  const raw = (sub as any).props?.spec;
  if (raw && typeof raw.source === 'string' && typeof raw.sourceNamespace === 'string' && typeof raw.name === 'string') return raw;
  return sub.toJson()?.spec ?? {};
}

/** The props, checked: wrong-typed values are errors and left out; `packages` is always a list. */
function checkCatalogProps(input: InputCheck, raw: unknown): CuratedCatalogProps {
  if (input.requiredObject('props', raw, 'an object with packages and image (or address)', "pass { packages: [{ name: 'etcd' }], image: 'registry.example.com/curated:v1' }", 'the props') === undefined) return { packages: [] };
  input.knownProps(raw, 'CuratedCatalogProps', 'CuratedCatalog');
  const p = (k: string) => prop(raw, k);
  const reference = (field: string, example: string) => {
    const v = input.optionalString(field, p(field), { fix: `set ${field} to e.g. ${example}` });
    if (v !== undefined && (v.trim() === '' || /\s/.test(v))) {
      input.add({ code: INPUT_CODES.value, field, value: v, message: `${field} ${v.trim() === '' ? 'is empty' : 'contains whitespace'}`, fix: `set ${field} to e.g. ${example}` });
      return undefined;
    }
    return v;
  };
  const tenants = input.optionalArray('tenants', p('tenants'), (v, f) => input.optionalImplementation<IOperatorTenant>(f, v ?? 0, 'IOperatorTenant', [], 'pass tenant constructs (e.g. ScopedOperatorTenant)'));
  // props this check does not know (added by other features) pass through unchanged
  return withUnknownProps({
    packages: input.optionalArray('packages', p('packages'), (v, f) => checkPackage(input, f, v)) ?? [],
    catalogName: input.optionalString('catalogName', p('catalogName'), { fix: "set catalogName to e.g. 'curated-operators'" }),
    image: reference('image', "'registry.example.com/platform/curated-operators:v1'"),
    address: reference('address', "'catalog.platform.svc:50051'"),
    sourceCatalog: input.optionalInstance('sourceCatalog', p('sourceCatalog'), FileBasedCatalog, 'pass FileBasedCatalog.fromDirectory(path) (or another FileBasedCatalog factory)'),
    displayName: input.optionalString('displayName', p('displayName')),
    publisher: input.optionalString('publisher', p('publisher')),
    priority: input.optionalNumber('priority', p('priority')),
    registryPollInterval: input.optionalString('registryPollInterval', p('registryPollInterval')),
    secrets: input.optionalStringArray('secrets', p('secrets')),
    grpcPodConfig: input.optionalObject('grpcPodConfig', p('grpcPodConfig'), 'pass a CatalogSourceSpecGrpcPodConfig object, e.g. { nodeSelector: { ... } }') as olm.CatalogSourceSpecGrpcPodConfig | undefined,
    tenants: tenants?.filter((t) => typeof prop(t, 'namespaceName') === 'string' && isObject(prop(t, 'node'))
      || (input.add({ code: INPUT_CODES.reference, field: 'tenants', value: valueText(t), message: `tenants must be tenant constructs, got ${describeValue(t)}`, fix: 'pass tenant constructs (e.g. ScopedOperatorTenant)' }), false)),
  }, raw as object);
}

/** One curated package: wrong-typed fields are errors and the package is left out. */
function checkPackage(input: InputCheck, field: string, raw: unknown): CuratedPackage | undefined {
  const o = input.optionalObject(field, raw ?? 0, "pass { name: 'etcd', channels: [{ name: 'stable' }] }");
  if (!o) return undefined;
  const before = input.errors.length;
  input.knownProps(o, 'CuratedPackage', field, `${field}.`);
  const name = input.requiredString(`${field}.name`, prop(o, 'name'), "name the package, e.g. 'etcd'");
  const channels = input.optionalArray(`${field}.channels`, prop(o, 'channels'), (v, f) => {
    const c = input.optionalObject(f, v ?? 0, "pass { name: 'stable' }");
    if (!c) return undefined;
    input.knownProps(c, 'CuratedChannel', f, `${f}.`);
    const cname = input.requiredString(`${f}.name`, prop(c, 'name'), "name the channel, e.g. 'stable'");
    const versionRange = input.optionalString(`${f}.versionRange`, prop(c, 'versionRange'));
    return cname === undefined ? undefined : { ...(c as object), name: cname, ...(versionRange !== undefined ? { versionRange } : {}) };
  });
  const versionRange = input.optionalString(`${field}.versionRange`, prop(o, 'versionRange'));
  const defaultChannel = input.optionalString(`${field}.defaultChannel`, prop(o, 'defaultChannel'));
  if (input.errors.length > before || name === undefined) return undefined;
  return {
    ...(o as object), // fields this check does not know pass through
    name,
    ...(channels !== undefined ? { channels } : {}),
    ...(versionRange !== undefined ? { versionRange } : {}),
    ...(defaultChannel !== undefined ? { defaultChannel } : {}),
  };
}

/** The options of `artifacts` (a method outside synth: a clear Error in the diagnostics format). */
function checkArtifactsOptions(method: string, options: unknown): void {
  const check = new InputCheck();
  const o = check.optionalObject('options', options, 'pass { format?: FbcFormat.JSON, imageSet?: { sourceCatalogImage } }');
  if (o) {
    check.knownProps(o, 'CatalogArtifactsOptions', 'options', 'options.');
    check.optionalEnum('options.format', o.format, FbcFormat as any, 'FbcFormat');
    const imageSet = check.optionalObject('options.imageSet', o.imageSet, "pass { sourceCatalogImage: 'registry.example.com/index:v4.21' }");
    if (imageSet) {
      check.knownProps(imageSet, 'ImageSetConfigurationOptions', 'options.imageSet', 'options.imageSet.');
      check.requiredString('options.imageSet.sourceCatalogImage', imageSet.sourceCatalogImage, 'name the source catalog image');
      check.optionalString('options.imageSet.targetCatalog', imageSet.targetCatalog);
      check.optionalString('options.imageSet.targetTag', imageSet.targetTag);
    }
  }
  throwIfInvalid(check, method);
}

function q(s: string): string {
  return JSON.stringify(s);
}

function list(xs: string[]): string {
  return xs.length === 0 ? '(none)' : xs.map(q).join(', ');
}

function sortKeys(o: { [k: string]: string }): { [k: string]: string } {
  const out: { [k: string]: string } = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}
