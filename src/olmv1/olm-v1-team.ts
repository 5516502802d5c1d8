import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CuratedClusterCatalog, OlmV1Labels } from './curated-cluster-catalog';
import { OlmV1AllowedPackage, OlmV1TeamGuardrails } from './olm-v1-team-guardrails';
import { OlmV1VersionRange } from './version-range';
import { addErrorProducer, DiagnosticDetails } from '../core/diagnostics';
import { KubernetesNames, NameRule } from '../core/names';
import * as l1 from '../imports/olmv1';

/** One ClusterExtension of a team. */
export interface OlmV1ExtensionOptions {
  /** Package name (`spec.source.catalog.packageName`); must be one of the team's allowed packages. */
  readonly packageName: string;
  /** Namespace the extension installs into (`spec.namespace`); must be one of the team's namespaces. */
  readonly namespace: string;
  /**
   * ClusterExtension name (cluster-scoped).
   * @default '<team>-<packageName>'
   */
  readonly name?: string;
  /**
   * Version range (`spec.source.catalog.version`), inside the package's allowed range.
   * @default - the package's allowed range, or none when the package allows any version
   */
  readonly version?: string;
  /**
   * Channels (`spec.source.catalog.channels`), among the package's allowed channels.
   * @default - the package's allowed channels, or none
   */
  readonly channels?: string[];
}

/** Properties of an `OlmV1Team`. */
export interface OlmV1TeamProps {
  /** Team name (a label value and part of object names). */
  readonly team: string;
  /** Groups of the team's people: the RBAC on ClusterExtensions is bound to them and the policy checks them. */
  readonly groups: string[];
  /** Namespaces the team's extensions install into; the construct writes them. */
  readonly namespaces: string[];
  /** The curated catalog the team's extensions resolve from (selected by its `OlmV1Labels.TEAM` label). */
  readonly catalog: CuratedClusterCatalog;
  /** Packages the team may install, with version ranges and channels (enforced at synth and by the policy). */
  readonly allowedPackages: OlmV1AllowedPackage[];
  /**
   * The team's ClusterExtensions.
   * @default - none (the team writes its own, within the guardrails)
   */
  readonly extensions?: OlmV1ExtensionOptions[];
  /**
   * Let the team set `spec.config.inline.watchNamespace` to one of its namespaces (alpha feature gate
   * `SingleOwnNamespaceInstallSupport`).
   * @default false
   */
  readonly allowWatchNamespace?: boolean;
}

/**
 * A team on OLM v1: the Namespaces its extensions install into, its ClusterExtensions
 * (`olm.operatorframework.io/v1`, selecting the team's curated ClusterCatalog by label, `upgradeConstraintPolicy:
 * CatalogProvided`, no `serviceAccount`: ignored since operator-controller v1.11.0, which installs with
 * cluster-admin), the upstream `clusterextension-installer-role` shape of RBAC bound to the team's groups, and the
 * `OlmV1TeamGuardrails` admission policy that bounds what those groups can write.
 */
export class OlmV1Team extends Construct {
  /** Team name. */
  public readonly team: string;
  /** The guardrail policy. */
  public readonly guardrails: OlmV1TeamGuardrails;
  /** The ClusterExtensions, by name. */
  public readonly extensions: { [name: string]: l1.ClusterExtension } = {};
  private readonly props: OlmV1TeamProps;
  private readonly errors: DiagnosticDetails[] = [];

  public constructor(scope: Construct, id: string, props: OlmV1TeamProps) {
    super(scope, id);
    this.props = props;
    this.team = props.team;
    addErrorProducer(this, () => this.errors);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.team) || props.team.length > 40) {
      this.errors.push({ code: 'InvalidName', field: 'team', value: props.team, message: `team '${props.team}' must be a lower-case RFC 1123 label of at most 40 characters (it prefixes object names)`, fix: 'use e.g. team-a' });
    }
    if (props.groups.length === 0) {
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

    for (const ns of [...props.namespaces].sort()) {
      new ApiObject(this, `Namespace-${ns}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [OlmV1Labels.TEAM]: props.team } } });
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
      catalogTeam: props.catalog.team,
      packages: props.allowedPackages,
      allowWatchNamespace: props.allowWatchNamespace,
    });
    for (const e of props.extensions ?? []) this.addExtension(e);
  }

  /** Adds a ClusterExtension; its choices are checked at synth against the allowed packages (same rules as the policy). */
  public addExtension(options: OlmV1ExtensionOptions): l1.ClusterExtension {
    const name = options.name ?? `${this.team}-${options.packageName}`;
    const field = `extensions[${name}]`;
    const allowed = this.props.allowedPackages.find((p) => p.name === options.packageName);
    const version = options.version ?? allowed?.versionRange;
    const channels = options.channels ?? allowed?.channels;
    const p = KubernetesNames.problem(name, NameRule.DNS1123_SUBDOMAIN);
    if (p) this.errors.push({ code: 'InvalidName', field: `${field}.name`, value: name, message: `ClusterExtension name ${p}`, fix: 'use a lower-case DNS-1123 subdomain' });
    if (this.extensions[name]) this.errors.push({ code: 'DuplicateExtension', field, value: name, message: `two ClusterExtensions are named '${name}'`, fix: 'give one of them another name' });
    if (!this.props.namespaces.includes(options.namespace)) {
      this.errors.push({ code: 'ExtensionOutsideTeamNamespaces', field: `${field}.namespace`, value: options.namespace, message: `namespace '${options.namespace}' is not one of team ${this.team}'s namespaces (${[...this.props.namespaces].sort().join(', ')}): the admission policy would deny it`, fix: 'install into a team namespace, or add the namespace to namespaces' });
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
    const ext = new l1.ClusterExtension(this, `Extension-${name}`, {
      metadata: { name, labels: { [OlmV1Labels.TEAM]: this.team } },
      spec: {
        namespace: options.namespace,
        source: {
          sourceType: l1.ClusterExtensionSpecSourceSourceType.CATALOG,
          catalog: {
            packageName: options.packageName,
            ...(version !== undefined ? { version } : {}),
            ...(channels !== undefined && channels.length > 0 ? { channels: [...channels] } : {}),
            selector: { matchLabels: { [OlmV1Labels.TEAM]: this.props.catalog.team } },
            upgradeConstraintPolicy: l1.ClusterExtensionSpecSourceCatalogUpgradeConstraintPolicy.CATALOG_PROVIDED,
          },
        },
      },
    });
    this.extensions[name] = ext;
    return ext;
  }
}
