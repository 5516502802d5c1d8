import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { OlmV1Labels } from './curated-cluster-catalog';
import { checkExtension, checkTeamProps } from './input-checks';
import { OlmV1InstallerRbac } from './olm-v1-installer-rbac';
import { OlmV1PermissionPreview } from './olm-v1-permission-preview';
import { OlmV1TeamGuardrails } from './olm-v1-team-guardrails';
import { OlmV1AcceptedRisk, OlmV1ExtensionOptions, OlmV1TeamProps } from './olm-v1-team-props';
import { RegistryV1Render, RegistryV1RenderOptions } from './registry-v1-render';
import { OlmV1VersionRange } from './version-range';
import { OperatorBundle } from '../bundle/operator-bundle';
import { clusterTargetsOf, operatorControllerLacksConfig, operatorControllerUsesServiceAccount } from '../core/cluster-targets';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input';
import { KubernetesNames, NameRule } from '../core/names';
import { PolicyChecks } from '../core/policy-checks';
import * as l1 from '../imports/olmv1';
import { PolicyRules } from '../rbac/policy-rule';
import { PermissionDiffs } from '../upgrade/permission-diff';

/**
 * The fields of a `deploymentConfig`: operator-controller v1.11.0
 * `internal/operator-controller/rukpak/bundle/registryv1bundleconfig.json` (`additionalProperties: false`).
 */
const DEPLOYMENT_CONFIG_FIELDS = ['affinity', 'annotations', 'env', 'envFrom', 'nodeSelector', 'resources', 'tolerations', 'volumeMounts', 'volumes'];

/**
 * A ClusterExtension with `spec.config` (the experimental CRD's field): the L1 class is generated from the standard
 * CRD, whose `toJson` keeps only the fields it knows (a JSON patch would be dropped).
 */
class ClusterExtensionWithConfig extends l1.ClusterExtension {
  public constructor(scope: Construct, id: string, private readonly config: any, props: l1.ClusterExtensionProps) {
    super(scope, id, props);
  }

  public toJson(): any {
    const json = super.toJson();
    return this.config === undefined ? json : { ...json, spec: { ...json.spec, config: this.config } };
  }
}

/**
 * A team on OLM v1: the Namespaces its extensions install into, its ClusterExtensions
 * (`olm.operatorframework.io/v1`, selecting the team's curated ClusterCatalog by label, `upgradeConstraintPolicy:
 * CatalogProvided`, no `serviceAccount`: ignored since operator-controller v1.11.0, which installs with
 * cluster-admin), the upstream `clusterextension-installer-role` shape of RBAC bound to the team's groups, and the
 * `OlmV1TeamGuardrails` admission policy that bounds what those groups can write.
 */
export class OlmV1Team extends Construct {
  /** Annotation on a ClusterExtension listing the accepted preview findings and their reasons. */
  public static readonly ACCEPTED_RISKS_ANNOTATION = 'olm-tenancy.io/accepted-risks';

  /**
   * The TENANCY.md section of every OLM v1 team under `scope` (`## OLM v1 teams`), or undefined when there is none:
   * each team's guardrail, groups, namespaces, and per extension what operator-controller creates with cluster-admin
   * (the preview's subjects and findings, accepted or refused, and the upgrades that grow permissions).
   */
  public static reportSection(scope: IConstruct): string | undefined {
    const teams = scope.node.findAll().filter((c): c is OlmV1Team => c instanceof OlmV1Team);
    if (teams.length === 0) return undefined;
    const out = ['## OLM v1 teams', '',
      'operator-controller (>= v1.11.0) installs every bundle with cluster-admin: what each team may write is bounded by its '
      + 'admission policy, and what each bundle creates is previewed below.', ''];
    for (const t of teams) out.push(t.reportMarkdown(), '');
    return out.join('\n').trimEnd();
  }

  /** Team name. */
  public readonly team: string;
  /**
   * The namespace whose GitOps folder (`tenants/<namespace>/`) holds the team's ClusterExtensions and all its
   * Namespaces: the first in sort order.
   */
  public readonly homeNamespace: string;
  /** The team's namespaces, sorted. */
  public readonly namespaces: string[];
  /** The guardrail policy. */
  public readonly guardrails: OlmV1TeamGuardrails;
  /** The ClusterExtensions, by name. */
  public readonly extensions: { [name: string]: l1.ClusterExtension } = {};
  private readonly props: Omit<OlmV1TeamProps, 'catalog'>;
  private readonly catalogTeam: string;
  private readonly errors: DiagnosticDetails[] = [];
  private readonly warnings: DiagnosticDetails[] = [];
  private readonly namespaceObjects: { [namespace: string]: ApiObject } = {};
  private readonly reportLines: string[] = [];

  public constructor(scope: Construct, id: string, rawProps: OlmV1TeamProps) {
    super(scope, id);
    const check = new InputCheck();
    const props = checkTeamProps(check, rawProps);
    this.errors.push(...check.errors);
    this.props = props;
    this.catalogTeam = props.catalog?.team ?? 'invalid';
    this.team = props.team;
    this.namespaces = [...props.namespaces].sort();
    this.homeNamespace = this.namespaces[0] ?? props.team;
    addErrorProducer(this, () => this.errors);
    addWarningProducer(this, () => this.warnings);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.team) || props.team.length > 40) {
      this.errors.push({ code: 'InvalidName', field: 'team', value: props.team, message: `team '${props.team}' must be a lower-case RFC 1123 label of at most 40 characters (it prefixes object names)`, fix: 'use e.g. team-a' });
    }
    if (props.groups.length === 0 && Array.isArray((rawProps as any)?.groups)) {
      this.errors.push({ code: 'MissingValue', field: 'groups', message: 'groups is empty: nobody would act for the team, and the admission policy would check nobody', fix: "name the team's group, e.g. ['team-a-admins']" });
    }
    for (const ns of props.namespaces) {
      const p = KubernetesNames.problem(ns, NameRule.DNS1123_LABEL);
      if (p) this.errors.push({ code: 'InvalidName', field: 'namespaces', value: ns, message: `Namespace name ${p}`, fix: 'use a lower-case RFC 1123 label' });
    }
    for (const p of props.allowedPackages) {
      if (p.versionRange !== undefined) {
        const problem = OlmV1VersionRange.problem(p.versionRange);
        if (problem) this.errors.push({ code: 'InvalidVersionRange', field: `allowedPackages[${p.name}].versionRange`, value: p.versionRange, message: problem, fix: "write e.g. '>=1.2.0 <2.0.0'" });
      }
    }

    for (const ns of this.namespaces) {
      this.namespaceObjects[ns] = new ApiObject(this, `Namespace-${ns}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [OlmV1Labels.TEAM]: props.team } } });
    }
    const roleName = `olmv1-team-${props.team}-installer`;
    // Upstream's clusterextension-installer-role (how-to-protect-olmv1-api-access.md), plus patch (kubectl apply and
    // GitOps tools patch) and read access to the catalogs the team selects from.
    new ApiObject(this, 'InstallerRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: roleName, labels: { [OlmV1Labels.TEAM]: props.team } },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['create', 'update', 'patch', 'delete', 'get', 'list', 'watch'] },
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    new ApiObject(this, 'InstallerBinding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: roleName, labels: { [OlmV1Labels.TEAM]: props.team } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
      subjects: [...props.groups].sort().map((g) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g })),
    });
    this.guardrails = new OlmV1TeamGuardrails(this, 'Guardrails', {
      team: props.team,
      groups: props.groups,
      namespaces: props.namespaces,
      catalogTeam: this.catalogTeam,
      packages: props.allowedPackages,
      allowWatchNamespace: props.allowWatchNamespace,
      allowDeploymentConfig: props.allowDeploymentConfig,
      // the legacy installer accounts are added per extension (allowServiceAccount); the policy is written at synth
    });
    for (const e of props.extensions ?? []) this.addChecked(e);
  }

  /** Adds a ClusterExtension; its choices are checked at synth against the allowed packages (same rules as the policy). */
  public addExtension(rawOptions: OlmV1ExtensionOptions): l1.ClusterExtension | undefined {
    const check = new InputCheck();
    const options = checkExtension(check, rawOptions, 'addExtension(options)');
    this.errors.push(...check.errors);
    return options ? this.addChecked(options) : undefined;
  }

  private addChecked(options: OlmV1ExtensionOptions): l1.ClusterExtension {
    if (typeof options.legacyServiceAccount === 'string') this.guardrails.allowServiceAccount(options.legacyServiceAccount);
    const name = options.name ?? `${this.team}-${options.packageName}`;
    const field = `extensions[${name}]`;
    const allowed = this.props.allowedPackages.find((p) => p.name === options.packageName);
    const version = options.version ?? allowed?.versionRange;
    const channels = options.channels ?? allowed?.channels;
    const p = KubernetesNames.problem(name, NameRule.DNS1123_SUBDOMAIN);
    if (p) this.errors.push({ code: 'InvalidName', field: `${field}.name`, value: name, message: `ClusterExtension name ${p}`, fix: 'use a lower-case DNS-1123 subdomain' });
    if (this.extensions[name]) this.errors.push({ code: 'DuplicateExtension', field, value: name, message: `two ClusterExtensions are named '${name}'`, fix: 'give one of them another name' });
    if (!this.props.namespaces.includes(options.namespace)) {
      this.errors.push({ code: 'ExtensionOutsideTeamNamespaces', field: `${field}.namespace`, value: options.namespace, message: `namespace '${options.namespace}' is not one of team ${this.team}'s namespaces (${this.namespaces.join(', ')}): the admission policy would deny it`, fix: 'install into a team namespace, or add the namespace to namespaces' });
    }
    if (!allowed) {
      this.errors.push({ code: 'PackageNotAllowed', field: `${field}.packageName`, value: options.packageName, message: `package '${options.packageName}' is not in team ${this.team}'s allowedPackages: the admission policy would deny it`, fix: 'add it to allowedPackages, or pick an allowed package' });
    } else {
      if (allowed.versionRange !== undefined && OlmV1VersionRange.problem(allowed.versionRange) === undefined) {
        const problem = version === undefined ? 'no version (every version)' : OlmV1VersionRange.problem(version);
        if (problem) {
          this.errors.push({ code: 'VersionNotAllowed', field: `${field}.version`, value: version, message: `${problem}: the admission policy would deny it`, fix: `ask for a range inside '${allowed.versionRange}'` });
        } else if (!OlmV1VersionRange.parse(version!).isWithin(OlmV1VersionRange.parse(allowed.versionRange))) {
          this.errors.push({ code: 'VersionNotAllowed', field: `${field}.version`, value: version, message: `version range '${version}' is not inside the allowed range '${allowed.versionRange}' of package '${options.packageName}': the admission policy would deny it`, fix: `ask for a range inside '${allowed.versionRange}'` });
        }
      }
      if (allowed.channels !== undefined) {
        const bad = (channels ?? []).filter((c) => !allowed.channels!.includes(c));
        if (bad.length > 0 || (channels ?? []).length === 0) {
          this.errors.push({ code: 'ChannelNotAllowed', field: `${field}.channels`, value: (channels ?? []).join(','), message: `channels [${(channels ?? []).join(', ')}] of package '${options.packageName}' are not among the allowed channels [${allowed.channels.join(', ')}]: the admission policy would deny them`, fix: 'name allowed channels only' });
        }
      }
    }
    if (options.deploymentConfig !== undefined) {
      if (!this.props.allowDeploymentConfig) {
        this.errors.push({ code: 'DeploymentConfigNotAllowed', field: `${field}.deploymentConfig`, message: `team ${this.team} may not set spec.config.inline.deploymentConfig: the admission policy would deny it`, fix: 'set allowDeploymentConfig: true on the team (the cluster needs the DeploymentConfig feature gate), or drop deploymentConfig' });
      }
      const unknown = Object.keys(options.deploymentConfig).filter((k) => !DEPLOYMENT_CONFIG_FIELDS.includes(k)).sort();
      if (unknown.length > 0) {
        this.errors.push({ code: 'InvalidDeploymentConfig', field: `${field}.deploymentConfig`, value: unknown.join(','), message: `deploymentConfig has unknown field(s) ${unknown.join(', ')}: operator-controller refuses the configuration`, fix: `use only ${DEPLOYMENT_CONFIG_FIELDS.join(', ')}` });
      }
    }
    const renderOf = this.renderer(options);
    const accepted = this.previewExtension(field, options, version, channels, renderOf);
    const annotations = accepted.length > 0
      ? { [OlmV1Team.ACCEPTED_RISKS_ANNOTATION]: accepted.map((a) => `${a.check}: ${a.reason}`).join('; ') } : undefined;
    const legacy = options.legacyServiceAccount !== undefined ? this.legacyServiceAccount(name, field, options, renderOf) : undefined;
    // spec.serviceAccount only for an operator-controller that installs as it (TenancyAppProps.targets): v1.11.0
    // ignores it (deprecated; a Warn admission policy says so) and installs as cluster-admin; never `{}` (the CRD's
    // serviceAccount has MinProperties=1)
    const targets = clusterTargetsOf(this);
    const serviceAccount = legacy !== undefined && operatorControllerUsesServiceAccount(targets) ? legacy : undefined;
    if (legacy !== undefined && serviceAccount === undefined) {
      this.warnings.push({
        code: 'LegacyServiceAccountIgnored',
        field: `${field}.legacyServiceAccount`,
        value: legacy,
        message: `operator-controller ${targets.operatorControllerVersion} (declared in TenancyAppProps.targets) ignores spec.serviceAccount (since v1.11.0) and installs as cluster-admin: the ClusterExtension is written without it`,
        fix: 'drop legacyServiceAccount (the permission preview and guardrails are the fence), or declare the operator-controller the cluster runs (<= 1.10)',
      });
    }
    if (options.deploymentConfig !== undefined && operatorControllerLacksConfig(targets)) {
      this.warnings.push({
        code: 'ExtensionConfigNotServed',
        field: `${field}.deploymentConfig`,
        value: `operatorControllerVersion ${targets.operatorControllerVersion}`,
        message: `spec.config exists only in operator-controller's experimental CRD since v1.9.0; ${targets.operatorControllerVersion} (declared in TenancyAppProps.targets) refuses the ClusterExtension`,
        fix: 'upgrade operator-controller to >= 1.9.0 with the experimental CRD and declare it, or drop deploymentConfig',
      });
    }
    const config = options.deploymentConfig !== undefined
      ? { configType: 'Inline', inline: { deploymentConfig: JSON.parse(JSON.stringify(options.deploymentConfig)) } } : undefined;
    const ext = new ClusterExtensionWithConfig(this, `Extension-${name}`, config, {
      metadata: { name, labels: { [OlmV1Labels.TEAM]: this.team }, ...(annotations ? { annotations } : {}) },
      spec: {
        namespace: options.namespace,
        ...(serviceAccount ? { serviceAccount: { name: serviceAccount } } : {}),
        source: {
          sourceType: l1.ClusterExtensionSpecSourceSourceType.CATALOG,
          catalog: {
            packageName: options.packageName,
            ...(version !== undefined ? { version } : {}),
            ...(channels !== undefined && channels.length > 0 ? { channels: [...channels] } : {}),
            selector: { matchLabels: { [OlmV1Labels.TEAM]: this.catalogTeam } },
            upgradeConstraintPolicy: l1.ClusterExtensionSpecSourceCatalogUpgradeConstraintPolicy.CATALOG_PROVIDED,
          },
        },
      },
    });
    // operator-controller installs into an existing namespace; apply it (and the guardrail) first.
    const nsObject = this.namespaceObjects[options.namespace];
    if (nsObject) ext.node.addDependency(nsObject);
    ext.node.addDependency(this.guardrails);
    this.extensions[name] = ext;
    return ext;
  }

  /** This team's part of the report (a `### team` subsection). */
  public reportMarkdown(): string {
    return [
      `### ${this.team}`, '',
      `Groups ${[...this.props.groups].sort().map((g) => `\`${g}\``).join(', ')} write ClusterExtensions labelled \`${OlmV1Labels.TEAM}=${this.team}\` `
        + `into ${this.namespaces.map((n) => `\`${n}\``).join(', ')} from catalogs labelled \`${OlmV1Labels.TEAM}=${this.catalogTeam}\` `
        + `(ValidatingAdmissionPolicy \`${this.guardrails.policyName}\`).`, '',
      ...(this.reportLines.length > 0 ? this.reportLines : ['No ClusterExtensions.']),
    ].join('\n');
  }

  /**
   * Previews every bundle of the range (refusals, findings) and the upgrades between them; records the errors of
   * findings not accepted. Returns the accepted risks that matched something (written on the extension).
   */
  private previewExtension(
    field: string, options: OlmV1ExtensionOptions, version: string | undefined, channels: string[] | undefined,
    renderOf: (bundle: OperatorBundle) => RegistryV1Render | string,
  ): OlmV1AcceptedRisk[] {
    const acceptable = ['OLMT-026', 'OLMT-044', 'OLMT-045', 'OLMT-046', 'OLMT-047'];
    const accepted = options.acceptedRisks ?? [];
    for (const a of accepted) {
      if (!acceptable.includes(a.check)) {
        this.errors.push({ code: 'InvalidAcceptedRisk', field: `${field}.acceptedRisks`, value: a.check, message: `'${a.check}' is not a preview finding that can be accepted`, fix: `use one of ${acceptable.join(', ')}` });
      } else if (typeof a.reason !== 'string' || a.reason.trim() === '') {
        this.errors.push({ code: 'EmptyAcceptedRiskReason', field: `${field}.acceptedRisks[${a.check}].reason`, message: `accepting ${a.check} needs a reason (it is written on the ClusterExtension)`, fix: 'say why the risk is acceptable' });
      }
    }
    const isAccepted = (code: string) => {
      const id = PolicyChecks.byCode(code)?.id;
      return accepted.some((a) => a.check === id && typeof a.reason === 'string' && a.reason.trim() !== '');
    };
    const reasonOf = (code: string) => {
      const id = PolicyChecks.byCode(code)!.id;
      const a = accepted.find((x) => x.check === id && typeof x.reason === 'string' && x.reason.trim() !== '');
      return a ? `accepted: ${a.reason}` : 'REFUSED at synth';
    };
    const dc = options.deploymentConfig !== undefined ? `, deploymentConfig (${Object.keys(options.deploymentConfig).sort().join(', ')}) rendered into its Deployments` : '';
    this.reportLines.push(`- **${field.replace(/^extensions\[(.*)\]$/, '$1')}**: package \`${options.packageName}\`, version \`${version ?? '*'}\`, namespace \`${options.namespace}\`${dc}`);
    if (options.bundles === undefined) {
      this.reportLines.push('  - no bundles given: not previewed');
      this.warnings.push({
        code: 'OlmV1ExtensionNotPreviewed',
        field: `${field}.bundles`,
        message: `no bundles given: what operator-controller installs for package '${options.packageName}' with cluster-admin is not previewed`,
        fix: 'pass the bundles the version range resolves to (OperatorBundle.fromCatalogPackage)',
      });
      return [];
    }
    let range: OlmV1VersionRange | undefined;
    if (version !== undefined && OlmV1VersionRange.problem(version) === undefined) range = OlmV1VersionRange.parse(version);
    // Masterminds constraints without a prerelease do not match prerelease versions: only X.Y.Z bundles count.
    const inRange = options.bundles
      .filter((b) => b.version !== undefined && /^\d+\.\d+\.\d+$/.test(b.version) && (range === undefined || range.contains(b.version)))
      // with channels, only bundles in one of them can resolve (a bundle without channel annotations is kept)
      .filter((b) => channels === undefined || channels.length === 0 || b.channels.length === 0 || b.channels.some((c) => channels.includes(c)))
      .sort((a, b) => OlmV1VersionRange.compare(a.version!, b.version!));
    const used = new Set<string>();
    const report = (d: DiagnosticDetails) => {
      if (isAccepted(d.code)) used.add(PolicyChecks.byCode(d.code)!.id);
      else this.errors.push(d);
    };
    const findingsOf = new Map<string, Set<string>>();
    for (const bundle of inRange) {
      const at = `${field}.bundles[${bundle.name}]`;
      const render = renderOf(bundle);
      if (typeof render === 'string') {
        const refusal = render;
        this.reportLines.push(`  - ${bundle.name}: operator-controller refuses it: ${refusal}`);
        this.errors.push({ code: 'OlmV1BundleRefused', field: at, value: bundle.version, message: `operator-controller would refuse ${bundle.name}: ${refusal}`, fix: 'narrow the version range to bundles OLM v1 installs, or install the package with OLM v0' });
        continue;
      }
      const preview = OlmV1PermissionPreview.of(render);
      findingsOf.set(bundle.name, new Set(preview.findings.map((f) => `${f.code}: ${f.what}`)));
      this.reportLines.push(`  - ${bundle.name}: installed with cluster-admin; ${preview.subjects.length} subject(s) bound: ${preview.subjects.map((x) => `${x.subject}${x.unbounded ? ' (everything)' : ''}`).join(', ') || 'none'}`);
      for (const f of preview.findings) this.reportLines.push(`    - ${PolicyChecks.byCode(f.code)!.id} ${f.what} (${reasonOf(f.code)})`);
      for (const f of preview.findings) {
        report({
          code: f.code,
          field: at,
          value: f.subject,
          message: `${f.what}: operator-controller applies ${bundle.name} with cluster-admin when team ${this.team} installs ${options.packageName}`,
          fix: `pick another package or version, or accept it: acceptedRisks: [{ check: '${PolicyChecks.byCode(f.code)!.id}', reason }]`,
        });
      }
    }
    for (let i = 1; i < inRange.length; i++) {
      const [from, to] = [inRange[i - 1], inRange[i]];
      if (!findingsOf.has(from.name) || !findingsOf.has(to.name)) continue;
      const diff = PermissionDiffs.between(from, to);
      const newFindings = [...findingsOf.get(to.name)!].filter((f) => !findingsOf.get(from.name)!.has(f));
      const grows = diff.namespacedRulesAdded.length + diff.clusterRulesAdded.length + diff.webhooksAdded.length
        + diff.apiServicesAdded.length + diff.crdsAdded.length + newFindings.length > 0;
      if (!grows) continue;
      const lines = [
        ...PermissionDiffs.format({ ...diff, namespacedRulesRemoved: [], clusterRulesRemoved: [], webhooksRemoved: [], apiServicesRemoved: [], crdsRemoved: [], installModesDropped: [], installModesAdded: [] }, '<all namespaces>')
          .map((l) => l.trim()).filter((l) => l !== 'no permission change'),
        ...newFindings.map((f) => `+ ${f}`),
      ];
      this.reportLines.push(`  - upgrade ${from.name} -> ${to.name} grows what the extension gets (${reasonOf('OlmV1UpgradeGrowsPermissions')}):`);
      for (const l of lines) this.reportLines.push(`    - \`${l}\``);
      report({
        code: 'OlmV1UpgradeGrowsPermissions',
        field: `${field}.bundles[${to.name}]`,
        value: `${from.version} -> ${to.version}`,
        message: `the upgrade ${from.name} -> ${to.name} inside range '${version ?? '*'}' grows what the extension gets: ${lines.join('; ')}`,
        fix: "narrow the version range, or accept it: acceptedRisks: [{ check: 'OLMT-047', reason }]",
      });
    }
    return accepted.filter((a) => used.has(a.check));
  }

  /**
   * What operator-controller renders for a bundle of the extension (its namespace and `deploymentConfig`), or its
   * refusal: each bundle is rendered once, for the preview and the legacy installer's rules alike.
   */
  private renderer(options: OlmV1ExtensionOptions): (bundle: OperatorBundle) => RegistryV1Render | string {
    const renderOptions: RegistryV1RenderOptions = {
      installNamespace: options.namespace,
      ...(options.deploymentConfig !== undefined ? { deploymentConfig: options.deploymentConfig, deploymentConfigSupport: true } : {}),
    };
    const done = new Map<OperatorBundle, RegistryV1Render | string>();
    return (bundle) => {
      let render = done.get(bundle);
      if (render === undefined) {
        try {
          render = RegistryV1Render.forExtension(bundle, renderOptions);
        } catch {
          render = RegistryV1Render.refusal(bundle, renderOptions)!;
        }
        done.set(bundle, render);
      }
      return render;
    };
  }

  /** Writes the pre-v1.11 installer ServiceAccount and its derived RBAC; returns its name (undefined on error). */
  private legacyServiceAccount(
    name: string, field: string, options: OlmV1ExtensionOptions, renderOf: (bundle: OperatorBundle) => RegistryV1Render | string,
  ): string | undefined {
    const sa = options.legacyServiceAccount!;
    const p = KubernetesNames.problem(sa, NameRule.DNS1123_SUBDOMAIN);
    if (p) {
      this.errors.push({ code: 'InvalidName', field: `${field}.legacyServiceAccount`, value: sa, message: `ServiceAccount name ${p}`, fix: 'use a lower-case DNS-1123 subdomain' });
      return undefined;
    }
    const renders = (options.bundles ?? []).map(renderOf).filter((r): r is RegistryV1Render => typeof r !== 'string');
    if (renders.length === 0) {
      this.errors.push({ code: 'LegacyServiceAccountWithoutBundles', field: `${field}.legacyServiceAccount`, value: sa, message: 'the installer ServiceAccount\'s rules are derived from the bundles, and no installable bundle was given', fix: 'pass the bundles the version range resolves to' });
      return undefined;
    }
    const rules = OlmV1InstallerRbac.derive(name, renders);
    const roleName = `${name}-installer`;
    const labels = { [OlmV1Labels.TEAM]: this.team };
    const subject = { kind: 'ServiceAccount', name: sa, namespace: options.namespace };
    new ApiObject(this, `LegacySa-${name}`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: options.namespace, labels } });
    new ApiObject(this, `LegacyClusterRole-${name}`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: roleName, labels }, rules: rules.clusterRules.map((r) => PolicyRules.toJson(r)) });
    new ApiObject(this, `LegacyClusterRoleBinding-${name}`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: roleName, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
      subjects: [subject],
    });
    for (const [ns, nsRules] of Object.entries(rules.namespacedRules)) {
      new ApiObject(this, `LegacyRole-${name}-${ns}`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: roleName, namespace: ns, labels }, rules: nsRules.map((r) => PolicyRules.toJson(r)) });
      new ApiObject(this, `LegacyRoleBinding-${name}-${ns}`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: roleName, namespace: ns, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
        subjects: [subject],
      });
    }
    return sa;
  }
}
