/**
 * What an OLM v1 team's checks conclude about its props and each ClusterExtension it asks for, as plain functions of
 * plain data (no construct): `OlmV1Team` gathers the facts, asks these, and reports the findings as its errors and
 * warnings. Built like the tenant's `src/tenant/checks/tenant-findings.ts`. The checks that read the whole App (other
 * teams' name prefixes, objects owned twice, OLM v0 installs in a team namespace, unfenced writers) and the permission
 * preview stay in `olm-v1-team.ts`, where the App is.
 */
import { CLUSTER_EXTENSION_CHANNEL_RULES, CLUSTER_EXTENSION_MAX_CHANNELS, CLUSTER_EXTENSION_PACKAGE_NAME_RULES, CLUSTER_EXTENSION_VERSION_RULES, crdFailures } from './crd-rules';
import { MastermindsConstraints } from './masterminds-semver';
import { OlmV1AllowedPackage } from './olm-v1-team-guardrails-props';
import { OlmV1ExtensionOptions } from './olm-v1-team-props';
import { OlmV1VersionRange } from './olm-v1-version-range';
import { OlmV1CrdChannel, RegistryV1Render } from './registry-v1-render';
import {
  openshiftVersionOf, operatorControllerLacksConfig, operatorControllerRequiresServiceAccount, operatorControllerUsesServiceAccount, ResolvedTargets,
} from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';

/**
 * The fields of a `deploymentConfig`: operator-controller v1.11.0
 * `internal/operator-controller/rukpak/bundle/registryv1bundleconfig.json` (`additionalProperties: false`).
 */
const DEPLOYMENT_CONFIG_FIELDS = ['affinity', 'annotations', 'env', 'envFrom', 'nodeSelector', 'resources', 'tolerations', 'volumeMounts', 'volumes'];

/** Errors and warnings, each in the order they are found. */
export interface OlmV1TeamFindingList {
  readonly errors: DiagnosticDetails[];
  readonly warnings: DiagnosticDetails[];
}

/** The team's props as its own checks read them. */
export interface OlmV1TeamFacts {
  /** The team's name (it prefixes object names). */
  readonly team: string;
  /** Whether `groups` was given as a list (an empty list is then an error; a missing one is an input error already). */
  readonly groupsGiven: boolean;
  /** The team's groups. */
  readonly groups: string[];
  /** The team's namespaces, as given. */
  readonly namespaces: string[];
  /** The packages the team may install. */
  readonly allowedPackages: OlmV1AllowedPackage[];
  /** `operatorControllerVersion` of the props. */
  readonly operatorControllerVersion?: string;
  /** The operator-controller version `TenancyAppProps.targets` declares. */
  readonly declaredOperatorControllerVersion?: string;
  /** The CRD channel the team writes for (the props' or the default). */
  readonly crdChannel: OlmV1CrdChannel;
  readonly allowWatchNamespace?: boolean;
  readonly allowDeploymentConfig?: boolean;
}

/** One ClusterExtension the team asks for, with what the team resolved for it, as its request checks read it. */
export interface OlmV1ExtensionRequest {
  /** The team. */
  readonly team: string;
  /** The team's namespaces, sorted. */
  readonly namespaces: string[];
  /** Whether the team may set `deploymentConfig`. */
  readonly allowDeploymentConfig?: boolean;
  /** The extension's name (given, or `<team>-<package>`). */
  readonly name: string;
  /** Where its findings point: `extensions[<name>]`. */
  readonly field: string;
  readonly options: OlmV1ExtensionOptions;
  /** The team's allowance for the package, if any. */
  readonly allowed?: OlmV1AllowedPackage;
  /** The version asked for (the options', else the allowance's range). */
  readonly version?: string;
  /** The channels asked for (the options', else the allowance's). */
  readonly channels?: string[];
  /** Whether the team already has an extension of this name. */
  readonly duplicate: boolean;
  /** Whether the preview renders as operator-controller's main branch does. */
  readonly onMain: boolean;
}

/** The checks of an OLM v1 team and of the ClusterExtensions it asks for. */
export class OlmV1TeamFindings {
  /** The team's own props: its name, groups, namespaces, allowed ranges, operator-controller version and CRD channel. */
  public static ofTeam(t: OlmV1TeamFacts): OlmV1TeamFindingList {
    const errors: DiagnosticDetails[] = [];
    const warnings: DiagnosticDetails[] = [];
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(t.team) || t.team.length > 40) {
      errors.push({ code: CODE.InvalidName, field: 'team', value: t.team, message: `team '${t.team}' must be a lower-case RFC 1123 label of at most 40 characters (it prefixes object names)`, fix: 'use e.g. team-a' });
    }
    if (t.groups.length === 0 && t.groupsGiven) {
      errors.push({ code: CODE.MissingValue, field: 'groups', message: 'groups is empty: nobody would act for the team, and the admission policy would check nobody', fix: "name the team's group, e.g. ['team-a-admins']" });
    }
    for (const ns of t.namespaces) {
      const p = KubernetesNames.problem(ns, NameRule.DNS1123_LABEL);
      if (p) errors.push({ code: CODE.InvalidName, field: 'namespaces', value: ns, message: `Namespace name ${p}`, fix: 'use a lower-case RFC 1123 label' });
    }
    for (const p of t.allowedPackages) {
      if (p.versionRange !== undefined) {
        const problem = OlmV1VersionRange.problem(p.versionRange);
        if (problem) errors.push({ code: CODE.InvalidVersionRange, field: `allowedPackages[${p.name}].versionRange`, value: p.versionRange, message: problem, fix: "write e.g. '>=1.2.0 <2.0.0'" });
      }
    }
    const version = t.operatorControllerVersion;
    const versionProblem = version === undefined ? undefined : RegistryV1Render.versionProblem(version);
    if (versionProblem) {
      errors.push({ code: CODE.InvalidOperatorControllerVersion, field: 'operatorControllerVersion', value: t.operatorControllerVersion, message: versionProblem, fix: `use ${RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS.join(' or ')}` });
    }
    const declared = t.declaredOperatorControllerVersion;
    if (version === undefined && declared !== undefined && declared !== 'main' && !RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS.includes(`v${declared}`)) {
      warnings.push({
        code: CODE.RendererVersionNotModelled,
        field: 'operatorControllerVersion',
        value: declared,
        message: `TenancyAppProps.targets declares operator-controller ${declared}, whose renderer is not modelled: the preview renders as ${RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION} does`,
        fix: `check the preview against that release's renderer, or set operatorControllerVersion to one of ${RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS.join(', ')}`,
      });
    }
    if (t.crdChannel === OlmV1CrdChannel.STANDARD) {
      // the standard CRD has no spec.config: the API server prunes it, so a watch namespace there is silently lost
      if (t.allowWatchNamespace) {
        errors.push({
          code: CODE.SpecConfigNeedsExperimentalCrd,
          field: 'allowWatchNamespace',
          value: 'true',
          message: `team ${t.team} may write spec.config.inline.watchNamespace, but the standard ClusterExtension CRD has no spec.config: the API server prunes it and operator-controller installs the bundle for ALL namespaces, not the namespace the team asked for`,
          fix: "set crdChannel: OlmV1CrdChannel.EXPERIMENTAL if the cluster runs operator-controller's experimental CRDs, or drop allowWatchNamespace",
        });
      }
      if (t.allowDeploymentConfig) {
        errors.push({
          code: CODE.SpecConfigNeedsExperimentalCrd,
          field: 'allowDeploymentConfig',
          value: 'true',
          message: `team ${t.team} may write spec.config.inline.deploymentConfig, but the standard ClusterExtension CRD has no spec.config: the API server prunes it and operator-controller renders the Deployments without it`,
          fix: 'set crdChannel: OlmV1CrdChannel.EXPERIMENTAL (the DeploymentConfig gate ships with the experimental CRDs), or drop allowDeploymentConfig',
        });
      }
    }
    return { errors, warnings };
  }

  /**
   * One ClusterExtension's request against the team's allowances, as the team's admission policy and the
   * ClusterExtension CRD judge it (before anything is resolved or rendered): its name, namespace, package, version,
   * channels and deployment config.
   */
  public static ofRequest(r: OlmV1ExtensionRequest): DiagnosticDetails[] {
    const errors: DiagnosticDetails[] = [];
    const { name, field, options, allowed, version, channels } = r;
    const p = KubernetesNames.problem(name, NameRule.DNS1123_SUBDOMAIN);
    if (p) errors.push({ code: CODE.InvalidName, field: `${field}.name`, value: name, message: `ClusterExtension name ${p}`, fix: 'use a lower-case DNS-1123 subdomain' });
    if (!name.startsWith(`${r.team}-`)) {
      errors.push({ code: CODE.ExtensionNameOutsideTeam, field: `${field}.name`, value: name, message: `ClusterExtension '${name}' does not carry team ${r.team}'s prefix '${r.team}-': the admission policy would deny it (names are cluster-wide: another team could claim it)`, fix: `name it '${r.team}-<name>'` });
    }
    if (r.duplicate) errors.push({ code: CODE.DuplicateExtension, field, value: name, message: `two ClusterExtensions are named '${name}'`, fix: 'give one of them another name' });
    if (options.namespace !== undefined && !r.namespaces.includes(options.namespace)) {
      errors.push({
        code: CODE.ExtensionOutsideTeamNamespaces,
        field: `${field}.namespace`,
        value: options.namespace,
        message: `namespace '${options.namespace}' is not one of team ${r.team}'s namespaces (${r.namespaces.join(', ')}): the admission policy would deny it`
          + (r.onMain ? ", and operator-controller's main branch refuses a spec.namespace that does not exist (ValidateInstallNamespace)" : ''),
        fix: 'install into a team namespace, or add the namespace to namespaces',
      });
    }
    errors.push(...OlmV1TeamFindings.crdValues(field, options.packageName, version, channels));
    if (version !== undefined) {
      const refused = MastermindsConstraints.problem(version);
      if (refused !== undefined) {
        errors.push({ code: CODE.InvalidVersionConstraint, field: `${field}.version`, value: version, message: `operator-controller cannot resolve version '${version}': Masterminds/semver refuses it (${refused})`, fix: "write a Masterminds constraint, e.g. '>=1.2.0 <2.0.0'" });
      }
    }
    if (!allowed) {
      errors.push({ code: CODE.PackageNotAllowed, field: `${field}.packageName`, value: options.packageName, message: `package '${options.packageName}' is not in team ${r.team}'s allowedPackages: the admission policy would deny it`, fix: 'add it to allowedPackages, or pick an allowed package' });
    } else {
      if (allowed.versionRange !== undefined && OlmV1VersionRange.problem(allowed.versionRange) === undefined) {
        const problem = version === undefined ? 'no version (every version)' : OlmV1VersionRange.problem(version);
        if (problem) {
          errors.push({ code: CODE.VersionNotAllowed, field: `${field}.version`, value: version, message: `${problem}: the admission policy would deny it`, fix: `ask for a range inside '${allowed.versionRange}'` });
        } else if (!OlmV1VersionRange.parse(version!).isWithin(OlmV1VersionRange.parse(allowed.versionRange))) {
          errors.push({ code: CODE.VersionNotAllowed, field: `${field}.version`, value: version, message: `version range '${version}' is not inside the allowed range '${allowed.versionRange}' of package '${options.packageName}': the admission policy would deny it`, fix: `ask for a range inside '${allowed.versionRange}'` });
        }
      }
      if (allowed.channels !== undefined) {
        const bad = (channels ?? []).filter((c) => !allowed.channels!.includes(c));
        if (bad.length > 0 || (channels ?? []).length === 0) {
          errors.push({ code: CODE.ChannelNotAllowed, field: `${field}.channels`, value: (channels ?? []).join(','), message: `channels [${(channels ?? []).join(', ')}] of package '${options.packageName}' are not among the allowed channels [${allowed.channels.join(', ')}]: the admission policy would deny them`, fix: 'name allowed channels only' });
        }
      }
    }
    if (options.deploymentConfig !== undefined) {
      if (!r.allowDeploymentConfig) {
        errors.push({ code: CODE.DeploymentConfigNotAllowed, field: `${field}.deploymentConfig`, message: `team ${r.team} may not set spec.config.inline.deploymentConfig: the admission policy would deny it`, fix: 'set allowDeploymentConfig: true on the team (the cluster needs the DeploymentConfig feature gate), or drop deploymentConfig' });
      }
      const unknown = Object.keys(options.deploymentConfig).filter((k) => !DEPLOYMENT_CONFIG_FIELDS.includes(k)).sort();
      if (unknown.length > 0) {
        errors.push({ code: CODE.InvalidDeploymentConfig, field: `${field}.deploymentConfig`, value: unknown.join(','), message: `deploymentConfig has unknown field(s) ${unknown.join(', ')}: operator-controller refuses the configuration`, fix: `use only ${DEPLOYMENT_CONFIG_FIELDS.join(', ')}` });
      }
    }
    return errors;
  }

  /**
   * What the ClusterExtension CRD refuses in the fields the team writes (crd-rules.ts: its x-kubernetes-validations and
   * OpenAPI limits): packageName, each channel and their number, the version. The namespace is checked as a team
   * namespace (InvalidName, ExtensionOutsideTeamNamespaces).
   */
  public static crdValues(field: string, packageName: string, version: string | undefined, channels: string[] | undefined): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    const refuse = (at: string, crdPath: string, value: string, messages: string[], fix: string) => {
      if (messages.length > 0) out.push({ code: CODE.InvalidCrdValue, field: at, value, message: `the ClusterExtension CRD refuses ${crdPath} '${value}': ${messages.join('; ')}`, fix });
    };
    refuse(`${field}.packageName`, 'spec.source.catalog.packageName', packageName, crdFailures(CLUSTER_EXTENSION_PACKAGE_NAME_RULES, packageName),
      'use the package name as the catalog spells it (a lower-case DNS-1123 subdomain)');
    if (channels !== undefined && channels.length > CLUSTER_EXTENSION_MAX_CHANNELS) {
      out.push({ code: CODE.InvalidCrdValue, field: `${field}.channels`, value: String(channels.length), message: `the ClusterExtension CRD allows at most ${CLUSTER_EXTENSION_MAX_CHANNELS} channels (spec.source.catalog.channels maxItems), got ${channels.length}`, fix: 'name fewer channels' });
    }
    (channels ?? []).forEach((c, i) => refuse(`${field}.channels[${i}]`, `spec.source.catalog.channels[${i}]`, c, crdFailures(CLUSTER_EXTENSION_CHANNEL_RULES, c),
      'use the channel name as the catalog spells it (a lower-case DNS-1123 subdomain)'));
    if (version !== undefined) {
      refuse(`${field}.version`, 'spec.source.catalog.version', version, crdFailures(CLUSTER_EXTENSION_VERSION_RULES, version),
        "write a version expression the CRD accepts, at most 64 characters, e.g. '>=1.2.0 <2.0.0'");
    }
    return out;
  }

  /**
   * What the operator-controller `TenancyAppProps.targets` declares does with the extension: whether it installs as
   * `spec.serviceAccount` (ignored since v1.11.0, required before), and whether it serves `spec.config`.
   * `legacy` is the extension's installer ServiceAccount the library writes, if any.
   */
  public static ofTargets(field: string, options: OlmV1ExtensionOptions, legacy: string | undefined, targets: ResolvedTargets): OlmV1TeamFindingList {
    const errors: DiagnosticDetails[] = [];
    const warnings: DiagnosticDetails[] = [];
    if (legacy !== undefined && !operatorControllerUsesServiceAccount(targets)) {
      const which = targets.operatorControllerVersion !== undefined
        ? `operator-controller ${targets.operatorControllerVersion} (declared in TenancyAppProps.targets)`
        : `OpenShift ${openshiftVersionOf(targets)}'s operator-controller (declared in TenancyAppProps.targets)`;
      warnings.push({
        code: CODE.LegacyServiceAccountIgnored,
        field: `${field}.legacyServiceAccount`,
        value: legacy,
        message: `${which} ignores spec.serviceAccount (since v1.11.0) and installs as cluster-admin: the ClusterExtension is written without it`,
        fix: 'drop legacyServiceAccount (the permission preview and guardrails are the fence), or declare the operator-controller the cluster runs (<= 1.10)',
      });
    }
    // before v1.11.0 the standard CRD requires spec.serviceAccount: without it the API server refuses the ClusterExtension
    const requiredBy = operatorControllerRequiresServiceAccount(targets);
    if (requiredBy !== undefined && options.legacyServiceAccount === undefined) {
      errors.push({
        code: CODE.ServiceAccountRequired,
        field: `${field}.legacyServiceAccount`,
        message: `${requiredBy} requires ClusterExtension.spec.serviceAccount and installs as that ServiceAccount: without it the API server refuses the ClusterExtension`,
        fix: `set legacyServiceAccount: '${options.packageName}-installer' on the extension (the library writes that ServiceAccount with the least-privilege `
          + 'RBAC derived from the bundles and lets the guardrail admit only it), or declare the operator-controller the cluster runs',
      });
    }
    if (options.deploymentConfig !== undefined && operatorControllerLacksConfig(targets)) {
      warnings.push({
        code: CODE.ExtensionConfigNotServed,
        field: `${field}.deploymentConfig`,
        value: `operatorControllerVersion ${targets.operatorControllerVersion}`,
        message: `spec.config exists only in operator-controller's experimental CRD since v1.9.0; ${targets.operatorControllerVersion} (declared in TenancyAppProps.targets) refuses the ClusterExtension`,
        fix: 'upgrade operator-controller to >= 1.9.0 with the experimental CRD and declare it, or drop deploymentConfig',
      });
    }
    return { errors, warnings };
  }

  private constructor() {}
}
