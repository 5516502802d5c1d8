import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { OlmV1Labels } from './curated-cluster-catalog';
import { checkExtension, checkTeamProps } from './input-checks';
import { MastermindsConstraints, MastermindsVersion } from './masterminds-semver';
import { OlmV1InstallerRbac } from './olm-v1-installer-rbac';
import { OlmV1PermissionPreview, OlmV1PreviewFindingCode } from './olm-v1-permission-preview';
import { OlmV1TeamFindings } from './olm-v1-team-findings';
import { OlmV1TeamGuardrails } from './olm-v1-team-guardrails';
import { OlmV1AcceptedRisk, OlmV1ExtensionOptions, OlmV1TeamProps } from './olm-v1-team-props';
import { OlmV1CrdChannel, OlmV1NamespaceTemplate, RegistryV1Render, RegistryV1RenderOptions } from './registry-v1-render';
import { SensitiveGrant } from '../audit/installer-rule-checks';
import { olmV1UnfencedWriters } from '../audit/olm-v1-writers';
import { OperatorBundle } from '../bundle/operator-bundle';
import { clusterTargetsOf, operatorControllerUsesServiceAccount } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { AcceptedRiskDetails, addAcceptanceProducer, addErrorProducer, addWarningProducer } from '../core/diagnostics';
import { gitOpsIdentitiesOf, serviceAccountUserName } from '../core/gitops-identities';
import { InputCheck } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';
import { markdownCode, markdownText } from '../core/markdown';
import { acceptanceNotAllowed, fixWithoutAcceptance, neverAcceptableOf } from '../core/never-acceptable';
import { PolicyChecks } from '../core/policy-checks';
import { SynthPass } from '../core/synth-pass';
import * as l1 from '../imports/olmv1';
import { GlobalOperatorInstall } from '../platform/global-operator-install';
import { PolicyRules } from '../rbac/policy-rule';
import { crdPluralOf, folderObjectsOf, GitOpsApplier, selfServiceRules } from '../tenant/rbac/gitops-applier';
import { ScopedOperatorTenant } from '../tenant/scoped-operator-tenant';
import { TenantGitOpsSource } from '../tenant/scoped-operator-tenant-props';
import { PermissionDiffs } from '../upgrade/permission-diffs';

/**
 * A bundle's version as operator-controller reads it (`bundleutil.GetVersionAndRelease`: blang/semver `Parse`, strict
 * `X.Y.Z[-pre][+build]`; modelled with Masterminds' `StrictNewVersion`, which refuses the same texts), undefined when
 * it is none.
 */
function bundleVersion(b: OperatorBundle): MastermindsVersion | undefined {
  if (b.version === undefined) return undefined;
  try {
    return MastermindsVersion.parseStrict(b.version);
  } catch {
    return undefined;
  }
}

/** Ascending; a bundle without a semver version first (upstream's `compare.ByVersionAndRelease` sorts it lowest). */
function compareBundleVersions(a: MastermindsVersion | undefined, b: MastermindsVersion | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return a.compare(b);
}

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
  private readonly crdChannel: OlmV1CrdChannel;
  private readonly catalogTeam: string;
  private readonly errors: DiagnosticDetails[] = [];
  private readonly warnings: DiagnosticDetails[] = [];
  /** The accepted risks that matched a finding, with what each accepted (TENANCY.md "Accepted risks"). */
  private readonly acceptedDecisions: AcceptedRiskDetails[] = [];
  private readonly namespaceObjects: { [namespace: string]: ApiObject } = {};
  private readonly reportLines: string[] = [];
  /** The legacy installer ServiceAccounts written (`ServiceAccount <ns>/<name>`): operator-controller's, previewed per extension. */
  private readonly legacyInstallers = new Set<string>();
  /** Per extension, in order: what operator-controller installs for it (the resolved bundle's render), for the single-owner check. */
  private readonly installs: Array<{ name: string; bundle: OperatorBundle; render: RegistryV1Render }> = [];
  /** The bundles given with the extensions (their CRDs name the operators' APIs). */
  private readonly extensionBundles: OperatorBundle[] = [];
  private gitOps: GitOpsApplier[] = [];

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
    addAcceptanceProducer(this, () => [
      ...this.acceptedDecisions,
      ...(this.props.acceptedWriters ?? []).filter((a) => typeof a.reason === 'string' && a.reason.trim() !== '' && !neverAcceptableOf(this).has('OLMT-054')).map((a) => ({
        acceptedBy: 'acceptedWriters',
        what: `${a.identity} may write ClusterExtensions, ClusterCatalogs or ClusterObjectSets without a team guardrail checking it`,
        reason: a.reason,
        policyId: 'OLMT-054',
      })),
    ]);
    this.crdChannel = props.crdChannel ?? (props.allowDeploymentConfig ? OlmV1CrdChannel.EXPERIMENTAL : OlmV1CrdChannel.STANDARD);
    const teamFindings = OlmV1TeamFindings.ofTeam({
      team: props.team,
      groupsGiven: Array.isArray((rawProps as any)?.groups),
      groups: props.groups,
      namespaces: props.namespaces,
      allowedPackages: props.allowedPackages,
      operatorControllerVersion: props.operatorControllerVersion,
      declaredOperatorControllerVersion: clusterTargetsOf(this).operatorControllerVersion,
      crdChannel: this.crdChannel,
      allowWatchNamespace: props.allowWatchNamespace,
      allowDeploymentConfig: props.allowDeploymentConfig,
    });
    this.errors.push(...teamFindings.errors);
    this.warnings.push(...teamFindings.warnings);

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
    // the GitOps identities (TenancyApp with Flux or Argo CD): the team's guardrail checks them like the team's groups
    this.gitOps = this.createGitOpsIdentities();
    addErrorProducer(this, () => this.unfencedWriterErrors());
    addErrorProducer(this, () => this.nameClaimErrors());
    addErrorProducer(this, () => this.globalInstallNamespaceErrors());
    addErrorProducer(this, () => this.singleOwnerErrors());
  }

  /**
   * operator-controller lets one ClusterExtension own an object (upstream docs/concepts/single-owner-objects.md: "a
   * Kubernetes resource can only be owned by a single ClusterExtension at a time"; a second one fails with "... already
   * exists ... and cannot be managed by operator-controller"). So no object that this team's extensions install (the
   * rendered objects of the bundle each resolves to: CRDs, ClusterRoles, every same-named cluster-scoped object, and
   * namespaced objects of the same namespace) may also be installed by an earlier extension of the App, nor, for CRDs,
   * by OLM v0 for a tenant or a global install (OLM v0 creates and updates those CRDs with its own client). One error per
   * pair of owners, naming both and the objects; the earlier owner (OLM v0 first, then the App's order) keeps it.
   */
  private singleOwnerErrors(): DiagnosticDetails[] {
    const all = SynthPass.findAll(this.node.root);
    type Owner = { label: string; team?: OlmV1Team; extension?: string; v0: boolean; objects: Map<string, string> };
    const owners: Owner[] = [];
    const crdKey = (name: string) => `apiextensions.k8s.io/CustomResourceDefinition//${name}`;
    const v0 = (label: string, bundle: OperatorBundle | undefined) => {
      if (!bundle || bundle.crds.length === 0) return;
      owners.push({ label, v0: true, objects: new Map(bundle.crds.map((c) => [crdKey(c.name), `CustomResourceDefinition ${c.name}`])) });
    };
    for (const t of all.filter((c): c is ScopedOperatorTenant => c instanceof ScopedOperatorTenant)) {
      for (const b of t.installedBundles) v0(`OLM v0 for tenant ${t.node.path} (${b.name})`, b);
    }
    for (const g of all.filter((c): c is GlobalOperatorInstall => c instanceof GlobalOperatorInstall)) {
      for (const o of g.operators) v0(`OLM v0 for the global install ${g.node.path} (${o.subscription.bundles[0]?.name})`, o.subscription.bundles[0]);
    }
    for (const t of all.filter((c): c is OlmV1Team => c instanceof OlmV1Team)) {
      for (const i of t.installs) {
        const objects = new Map<string, string>();
        for (const o of i.render.objects) {
          const group = String(o.apiVersion ?? '').includes('/') ? String(o.apiVersion).split('/')[0] : '';
          const ns = o.metadata?.namespace ?? '';
          objects.set(`${group}/${o.kind}/${ns}/${o.metadata?.name}`, `${o.kind} ${ns !== '' ? `${ns}/` : ''}${o.metadata?.name}`);
        }
        owners.push({ label: `ClusterExtension ${i.name} (team ${t.team}, ${i.bundle.name})`, team: t, extension: i.name, v0: false, objects });
      }
    }
    const out: DiagnosticDetails[] = [];
    owners.forEach((owner, index) => {
      if (owner.team !== this) return;
      for (const earlier of owners.slice(0, index)) {
        const shared = [...owner.objects.keys()].filter((k) => earlier.objects.has(k)).sort().map((k) => owner.objects.get(k)!);
        if (shared.length === 0) continue;
        const shown = shared.length > 5 ? `${shared.slice(0, 5).join(', ')} and ${shared.length - 5} more` : shared.join(', ');
        out.push({
          code: CODE.OlmV1ObjectOwnedTwice,
          field: `extensions[${owner.extension}]`,
          value: earlier.label,
          message: `${owner.label} and ${earlier.label} both install ${shown}: operator-controller lets one ClusterExtension own an object `
            + '(docs/concepts/single-owner-objects.md), so '
            + (earlier.v0
              ? 'it refuses to manage a CRD OLM v0 created ("already exists ... and cannot be managed by operator-controller"), and OLM v0 replaces a CRD an extension installed: whichever comes second breaks'
              : 'the ClusterExtension applied second never installs ("already exists ... and cannot be managed by operator-controller")'),
          fix: earlier.v0
            ? 'install the operator once, with OLM v0 or with OLM v1, and let the others use its APIs'
            : 'install the operator once (one ClusterExtension) and let the other team use its APIs, or drop one of the extensions',
        });
      }
    });
    return out;
  }

  /**
   * No team namespace is the namespace of a `GlobalOperatorInstall`: the operators there run as ServiceAccounts with
   * cluster-wide rights, and an extension installed beside them (operator-controller creates its Deployments with the
   * rights the team's installer ServiceAccount holds in the namespace) could run a pod as any ServiceAccount of the
   * namespace and so hold those rights.
   */
  private globalInstallNamespaceErrors(): DiagnosticDetails[] {
    const installs = SynthPass.findAll(this.node.root).filter((c): c is GlobalOperatorInstall => c instanceof GlobalOperatorInstall);
    return installs.filter((g) => this.namespaces.includes(g.namespaceName)).map((g) => ({
      code: CODE.TeamNamespaceOfGlobalInstall,
      field: 'namespaces',
      value: g.namespaceName,
      message: `namespace '${g.namespaceName}' of team ${this.team} is where ${g.node.path} installs operators for all namespaces with cluster-wide ServiceAccounts: an extension installed there could run a pod as one of them`,
      fix: `give team ${this.team} a namespace of its own, or install the global operators elsewhere (GlobalOperatorInstall namespaceName)`,
    }));
  }

  /**
   * Two teams never claim one name: no other team of the App has this team's name, and none of this team's
   * ClusterExtensions is named with the prefix of a longer team that extends this team's (team `a`, `a-b-op`).
   */
  private nameClaimErrors(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    const teams = SynthPass.findAll(this.node.root).filter((c): c is OlmV1Team => c instanceof OlmV1Team && c !== this);
    if (teams.some((t) => t.team === this.team)) {
      out.push({ code: CODE.DuplicateTeam, field: 'team', value: this.team, message: `two OlmV1Teams are named '${this.team}': both would claim the ClusterExtensions named '${this.team}-...' and labelled with it`, fix: 'give each team its own name' });
    }
    const longer = this.guardrails._longerTeamPrefixes();
    for (const name of Object.keys(this.extensions).sort()) {
      const other = longer.find((p) => name.startsWith(p));
      if (other) {
        out.push({ code: CODE.ExtensionNameOfOtherTeam, field: `extensions[${name}].name`, value: name, message: `ClusterExtension '${name}' starts with team ${other.slice(0, -1)}'s prefix '${other}': the admission policy would deny it (team ${other.slice(0, -1)} may claim the name)`, fix: `name it '${this.team}-<name>' with <name> not starting with '${other.slice(this.team.length + 1)}'` });
      }
    }
    return out;
  }

  /**
   * OLMT-054, for the whole App and reported by its first OlmV1Team: every identity that may create, update or patch
   * ClusterExtensions, ClusterCatalogs or ClusterObjectSets and that no team guardrail checks (`olmV1UnfencedWriters`),
   * unless a team accepts it by name with a reason.
   */
  private unfencedWriterErrors(): DiagnosticDetails[] {
    const all = SynthPass.findAll(this.node.root);
    if (all.find((c) => c instanceof OlmV1Team) !== this) return [];
    const objects = all.filter((c): c is ApiObject => c instanceof ApiObject).map((o) => ({ manifest: SynthPass.json(o) }));
    const guardrails = all.filter((c): c is OlmV1TeamGuardrails => c instanceof OlmV1TeamGuardrails);
    const guarded = guardrails.flatMap((g) => g.groups);
    const guardedUsers = guardrails.flatMap((g) => g.usernames);
    const accepted = new Map<string, string>();
    const errors: DiagnosticDetails[] = [];
    for (const t of all.filter((c): c is OlmV1Team => c instanceof OlmV1Team)) {
      // operator-controller (< v1.11.0) installs as them; what they reach is the extension's preview (OLMT-026, ...)
      for (const sa of t.legacyInstallers) accepted.set(sa, 'legacy installer account, previewed with its extension');
      for (const a of t.props.acceptedWriters ?? []) {
        if (neverAcceptableOf(t).has('OLMT-054')) continue;
        if (a.reason.trim() === '') {
          errors.push({ code: CODE.EmptyAcceptedWriterReason, field: `acceptedWriters[${a.identity}].reason`, message: `accepting ${a.identity} (team ${t.team}) as an OLM v1 writer needs a reason`, fix: 'say why it may write the OLM v1 APIs unchecked' });
        } else {
          accepted.set(a.identity, a.reason);
        }
      }
    }
    // acceptedWriters listed while the platform lists OLMT-054 as never acceptable: each is an error of its own
    const refused = neverAcceptableOf(this).has('OLMT-054')
      ? all.filter((c): c is OlmV1Team => c instanceof OlmV1Team).flatMap((t) => (t.props.acceptedWriters ?? []).map((a) => acceptanceNotAllowed({
        prop: 'acceptedWriters',
        id: 'OLMT-054',
        field: `acceptedWriters[${a.identity}]`,
        value: a.identity,
        finding: `${a.identity} (team ${t.team}) may write the OLM v1 APIs unchecked`,
        reason: a.reason,
        remove: "bind the grant to a team's group (its guardrail then checks it), or remove it",
      })))
      : [];
    return [...errors, ...refused, ...olmV1UnfencedWriters(objects, guarded, guardedUsers).filter((w) => !accepted.has(w.identity)).map((w) => ({
      code: CODE.OlmV1UnfencedWriter,
      field: `writers[${w.identity}]`,
      value: w.identity,
      message: `${w.identity}${w.via.length === 1 && w.via[0] === w.identity ? '' : ` (reached from ${w.via.join(', ')})`} may write ${w.writes.join(', ')} `
        + `of olm.operatorframework.io and no team guardrail checks it (${w.path.join(' -> ')}): operator-controller installs what it writes with cluster-admin`,
      fix: fixWithoutAcceptance(`bind the grant to a team's group (its guardrail then checks it), remove it, or accept it: acceptedWriters: [{ identity: '${w.identity}', reason }] on an OlmV1Team`,
        'OLMT-054', neverAcceptableOf(this)),
    }))];
  }

  /** Adds a ClusterExtension; its choices are checked at synth against the allowed packages (same rules as the policy). */
  public addExtension(rawOptions: OlmV1ExtensionOptions): l1.ClusterExtension | undefined {
    const check = new InputCheck();
    const options = checkExtension(check, rawOptions, 'addExtension(options)');
    this.errors.push(...check.errors);
    return options ? this.addChecked(options) : undefined;
  }

  /** The team's own repository (`gitOpsSource`), if any. */
  public get gitOpsSource(): TenantGitOpsSource | undefined {
    return this.props.gitOpsSource;
  }

  /**
   * The team's GitOps identities, as the audit names them: the applier of its folder (its Namespaces are the
   * platform's) and, with `gitOpsSource`, the identity of its own repository; both checked by the team's guardrail.
   * Empty unless the App writes Flux or Argo CD objects with tenant identities.
   */
  public get gitOpsIdentities(): string[] {
    return this.gitOps.map((a) => a.subject);
  }

  /**
   * The team's GitOps identities.
   * @internal
   */
  public get _gitOpsAppliers(): GitOpsApplier[] {
    return [...this.gitOps];
  }

  private createGitOpsIdentities(): GitOpsApplier[] {
    const names = gitOpsIdentitiesOf(this);
    if (names === undefined || this.namespaces.length === 0 || this.namespaces.some((ns) => !KubernetesNames.isDns1123Label(ns))) return [];
    const home = this.homeNamespace;
    const appliers = [new GitOpsApplier(this, 'GitOpsApplier', {
      name: names.applier,
      homeNamespace: home,
      namespaces: this.namespaces,
      role: 'applier',
      clusterScoped: true,
      folderObjects: () => folderObjectsOf(this, this.namespaces, Object.values(this.extensions), crdPluralOf(this.extensionBundles)),
    })];
    if (this.props.gitOpsSource) {
      appliers.push(new GitOpsApplier(this, 'GitOpsSelfService', {
        name: names.selfService,
        homeNamespace: home,
        namespaces: this.namespaces,
        role: 'self-service',
        clusterScoped: true,
        sourceUrl: this.props.gitOpsSource.url,
        selfServiceRules: () => ({
          namespaced: selfServiceRules(this.extensionBundles, false),
          // ClusterExtensions: only what the team's guardrail admits (it matches this identity's user name)
          cluster: [{ apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
            { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] }],
        }),
      }));
    }
    for (const a of appliers) this.guardrails.addUsername(serviceAccountUserName(home, a.serviceAccount.name));
    return appliers;
  }

  private addChecked(options: OlmV1ExtensionOptions): l1.ClusterExtension {
    if (typeof options.legacyServiceAccount === 'string') this.guardrails.allowServiceAccount(options.legacyServiceAccount);
    this.extensionBundles.push(...(options.bundles ?? []));
    const name = options.name ?? `${this.team}-${options.packageName}`;
    const field = `extensions[${name}]`;
    const allowed = this.props.allowedPackages.find((p) => p.name === options.packageName);
    const version = options.version ?? allowed?.versionRange;
    const channels = options.channels ?? allowed?.channels;
    const onMain = this.rendererVersion() === 'main';
    this.errors.push(...OlmV1TeamFindings.ofRequest({
      team: this.team,
      namespaces: this.namespaces,
      allowDeploymentConfig: this.props.allowDeploymentConfig,
      name,
      field,
      options,
      allowed,
      version,
      channels,
      duplicate: this.extensions[name] !== undefined,
      onMain,
    }));
    // the bundles the version constraint and the channels admit, ascending: operator-controller installs the highest
    const candidates = this.candidates(field, options, version, channels);
    const namespace = this.installNamespace(field, options, candidates[candidates.length - 1], onMain);
    const renderOf = this.renderer(options, namespace);
    const accepted = this.previewExtension(field, options, version, candidates, namespace, renderOf);
    const resolved = candidates[candidates.length - 1];
    const resolvedRender = resolved ? renderOf(resolved) : undefined;
    if (resolved && resolvedRender !== undefined && typeof resolvedRender !== 'string') this.installs.push({ name, bundle: resolved, render: resolvedRender });
    const annotations = accepted.length > 0
      ? { [OlmV1Team.ACCEPTED_RISKS_ANNOTATION]: accepted.map((a) => `${a.check}${a.grant !== undefined ? ` ${a.grant}` : ''}: ${a.reason}`).join('; ') } : undefined;
    const legacy = options.legacyServiceAccount !== undefined ? this.legacyServiceAccount(name, field, options, namespace, renderOf) : undefined;
    // spec.serviceAccount only for an operator-controller that installs as it (TenancyAppProps.targets): v1.11.0
    // ignores it (deprecated; a Warn admission policy says so) and installs as cluster-admin; never `{}` (the CRD's
    // serviceAccount has MinProperties=1)
    const targets = clusterTargetsOf(this);
    const serviceAccount = legacy !== undefined && operatorControllerUsesServiceAccount(targets) ? legacy : undefined;
    const targetFindings = OlmV1TeamFindings.ofTargets(field, options, legacy, targets);
    this.warnings.push(...targetFindings.warnings);
    this.errors.push(...targetFindings.errors);
    const config = options.deploymentConfig !== undefined
      ? { configType: 'Inline', inline: { deploymentConfig: JSON.parse(JSON.stringify(options.deploymentConfig)) } } : undefined;
    const ext = new ClusterExtensionWithConfig(this, `Extension-${name}`, config, {
      metadata: { name, labels: { [OlmV1Labels.TEAM]: this.team }, ...(annotations ? { annotations } : {}) },
      spec: {
        namespace,
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
    const nsObject = this.namespaceObjects[namespace];
    if (nsObject) ext.node.addDependency(nsObject);
    ext.node.addDependency(this.guardrails);
    this.extensions[name] = ext;
    return ext;
  }

  /** This team's part of the report (a `### team` subsection). */
  public reportMarkdown(): string {
    return [
      `### ${markdownText(this.team)}`, '',
      `Groups ${[...this.props.groups].sort().map(markdownCode).join(', ')} write ClusterExtensions labelled ${markdownCode(`${OlmV1Labels.TEAM}=${this.team}`)} `
        + `into ${this.namespaces.map(markdownCode).join(', ')} from catalogs labelled ${markdownCode(`${OlmV1Labels.TEAM}=${this.catalogTeam}`)} `
        + `(ValidatingAdmissionPolicy ${markdownCode(this.guardrails.policyName)}).`, '',
      ...(this.reportLines.length > 0 ? this.reportLines : ['No ClusterExtensions.']),
    ].join('\n');
  }

  /**
   * Previews every bundle of the range (refusals, findings) and the upgrades between them; records the errors of
   * findings not accepted. Returns the accepted risks that matched something (written on the extension).
   */
  private previewExtension(
    field: string, options: OlmV1ExtensionOptions, version: string | undefined,
    inRange: OperatorBundle[], namespace: string, renderOf: (bundle: OperatorBundle) => RegistryV1Render | string,
  ): OlmV1AcceptedRisk[] {
    const acceptable = ['OLMT-026', 'OLMT-044', 'OLMT-045', 'OLMT-046', 'OLMT-047', 'OLMT-050', 'OLMT-052'];
    const accepted = options.acceptedRisks ?? [];
    const grantCheck = PolicyChecks.byCode(OlmV1PreviewFindingCode.SENSITIVE_GRANT)!.id;
    const riskField = (a: OlmV1AcceptedRisk) => `${field}.acceptedRisks[${a.check}${a.grant !== undefined ? ` ${a.grant}` : ''}]`;
    for (const a of accepted) {
      if (!acceptable.includes(a.check)) {
        this.errors.push({ code: CODE.InvalidAcceptedRisk, field: `${field}.acceptedRisks`, value: a.check, message: `'${a.check}' is not a preview finding that can be accepted`, fix: `use one of ${acceptable.join(', ')}` });
      } else if (a.grant !== undefined && a.check !== grantCheck) {
        this.errors.push({ code: CODE.InvalidAcceptedRisk, field: riskField(a), value: a.grant, message: `a grant is accepted by name under ${grantCheck} (sensitive grants) only, not ${a.check}`, fix: `use check: '${grantCheck}' for SensitiveGrant.${a.grant}, or drop grant` });
      } else if (typeof a.reason !== 'string' || a.reason.trim() === '') {
        this.errors.push({ code: CODE.EmptyAcceptedRiskReason, field: `${riskField(a)}.reason`, message: `accepting ${a.check}${a.grant !== undefined ? ` ${a.grant}` : ''} needs a reason (it is written on the ClusterExtension)`, fix: 'say why the risk is acceptable' });
      }
    }
    const valid = accepted.filter((a) => typeof a.reason === 'string' && a.reason.trim() !== '' && (a.grant === undefined || a.check === grantCheck));
    // every value as Markdown text or code (core/markdown): TENANCY.md holds this section
    const dc = options.deploymentConfig !== undefined ? `, deploymentConfig (${markdownText(Object.keys(options.deploymentConfig).sort().join(', '))}) rendered into its Deployments` : '';
    const resolvedNs = options.namespace === undefined && namespace !== '' ? ' (resolved from the bundle, as operator-controller main does)' : '';
    this.reportLines.push(`- **${markdownText(field.replace(/^extensions\[(.*)\]$/, '$1'))}**: package ${markdownCode(options.packageName)}, version ${markdownCode(version ?? '*')}, namespace ${markdownCode(namespace)}${resolvedNs}${dc}`);
    if (options.bundles === undefined) {
      this.reportLines.push('  - no bundles given: not previewed');
      this.warnings.push({
        code: CODE.OlmV1ExtensionNotPreviewed,
        field: `${field}.bundles`,
        message: `no bundles given: what operator-controller installs for package '${options.packageName}' with cluster-admin is not previewed`,
        fix: 'pass the bundles the version range resolves to (OperatorBundle.fromCatalogPackage)',
      });
      return [];
    }
    if (inRange.length > 0) {
      // operator-controller installs the highest version the constraint and channels admit (resolve/catalog.go)
      const installed = inRange[inRange.length - 1];
      this.reportLines.push(`  - ${markdownText(`resolves to ${installed.name}${installed.version !== undefined ? ` (${installed.version})` : ''}: operator-controller installs the highest bundle the version and channels admit`)}`);
    }
    // Sensitive grants are accepted by name. An OLMT-044 entry without a grant (the form before per-grant acceptance)
    // still accepts the extension's one sensitive grant; for several different grants it is one error naming them.
    const grantsOf = new Set<SensitiveGrant>();
    for (const bundle of inRange) {
      const render = renderOf(bundle);
      if (typeof render === 'string') continue;
      for (const f of OlmV1PermissionPreview.of(render).findings) if (f.grant !== undefined) grantsOf.add(f.grant);
    }
    const named = new Set(valid.filter((a) => a.check === grantCheck && a.grant !== undefined).map((a) => a.grant!));
    const unnamed = [...grantsOf].filter((g) => !named.has(g));
    const blanket = valid.find((a) => a.check === grantCheck && a.grant === undefined);
    if (blanket && unnamed.length > 1) {
      const order = Object.values(SensitiveGrant).filter((g) => unnamed.includes(g));
      this.errors.push({
        code: CODE.AcceptedRiskNeedsGrant,
        field: `${field}.acceptedRisks[${grantCheck}]`,
        value: blanket.reason,
        message: `one ${grantCheck} entry would accept ${order.length} different sensitive grants under one reason (${order.join(', ')}): each is accepted by name`,
        fix: `accept each grant with its own reason: acceptedRisks: [${order.map((g) => `{ check: '${grantCheck}', grant: SensitiveGrant.${g}, reason: '...' }`).join(', ')}]`,
      });
    }
    /** The entry that accepts `f`, if any. */
    const acceptance = (f: { code: string; grant?: SensitiveGrant }): OlmV1AcceptedRisk | undefined => {
      const id = PolicyChecks.byCode(f.code)?.id;
      if (id !== grantCheck || f.grant === undefined) return valid.find((a) => a.check === id && a.grant === undefined);
      return valid.find((a) => a.check === id && a.grant === f.grant) ?? (unnamed.length <= 1 ? blanket : undefined);
    };
    /** Covered by an OLMT-044 entry without a grant that AcceptedRiskNeedsGrant reports: that one error stands for it. */
    const reportedAsAmbiguous = (f: { grant?: SensitiveGrant }) =>
      blanket !== undefined && unnamed.length > 1 && f.grant !== undefined && unnamed.includes(f.grant);
    const reasonOf = (f: { code: string; grant?: SensitiveGrant }) => {
      const a = acceptance(f);
      return a ? `accepted: ${a.reason}` : 'REFUSED at synth';
    };
    const used = new Map<OlmV1AcceptedRisk, string[]>();
    const never = neverAcceptableOf(this);
    const report = (d: DiagnosticDetails, what: string, f: { code: string; grant?: SensitiveGrant } = d) => {
      const a = acceptance(f);
      if (a && never.has(a.check)) {
        // the platform lists the check as never acceptable: the entry counts for nothing
        this.errors.push(acceptanceNotAllowed({
          prop: `${field}.acceptedRisks`,
          id: a.check,
          finding: d.message,
          reason: a.reason,
          field: d.field,
          value: d.value,
          remove: 'pick another package or version',
        }));
      } else if (a) {
        used.set(a, [...(used.get(a) ?? []), what]);
      } else if (!reportedAsAmbiguous(f)) {
        this.errors.push({ ...d, fix: fixWithoutAcceptance(d.fix, PolicyChecks.byCode(d.code)?.id, never) });
      }
    };
    const findingsOf = new Map<string, Set<string>>();
    for (const bundle of inRange) {
      const at = `${field}.bundles[${bundle.name}]`;
      const render = renderOf(bundle);
      if (typeof render === 'string') {
        const refusal = render;
        this.reportLines.push(`  - ${markdownText(`${bundle.name}: operator-controller refuses it: ${refusal}`)}`);
        this.errors.push({ code: CODE.OlmV1BundleRefused, field: at, value: bundle.version, message: `operator-controller would refuse ${bundle.name}: ${refusal}`, fix: 'narrow the version range to bundles OLM v1 installs, or install the package with OLM v0' });
        continue;
      }
      const preview = OlmV1PermissionPreview.of(render);
      findingsOf.set(bundle.name, new Set(preview.findings.map((f) => `${f.code}: ${f.what}`)));
      this.reportLines.push(`  - ${markdownText(`${bundle.name}: installed with cluster-admin; ${preview.subjects.length} subject(s) bound: ${preview.subjects.map((x) => `${x.subject}${x.unbounded ? ' (everything)' : ''}`).join(', ') || 'none'}`)}`);
      for (const f of preview.findings) this.reportLines.push(`    - ${markdownText(`${PolicyChecks.byCode(f.code)!.id} ${f.what} (${reasonOf(f)})`)}`);
      for (const f of preview.findings) {
        report({
          code: f.code,
          field: at,
          value: f.subject,
          message: `${f.what}: operator-controller applies ${bundle.name} with cluster-admin when team ${this.team} installs ${options.packageName}`,
          fix: `pick another package or version, or accept it: acceptedRisks: [{ check: '${PolicyChecks.byCode(f.code)!.id}', `
            + `${f.grant !== undefined ? `grant: SensitiveGrant.${f.grant}, ` : ''}reason }]`,
        }, `${bundle.name}: ${f.what}`, f);
      }
    }
    for (let i = 1; i < inRange.length; i++) {
      const [from, to] = [inRange[i - 1], inRange[i]];
      if (!findingsOf.has(from.name) || !findingsOf.has(to.name)) continue;
      const diff = PermissionDiffs.between(from.forOlmV1(), to.forOlmV1());
      const newFindings = [...findingsOf.get(to.name)!].filter((f) => !findingsOf.get(from.name)!.has(f));
      const grows = diff.namespacedRulesAdded.length + diff.clusterRulesAdded.length + diff.webhooksAdded.length
        + diff.apiServicesAdded.length + diff.crdsAdded.length + newFindings.length > 0;
      if (!grows) continue;
      const lines = [
        ...PermissionDiffs.format({ ...diff, namespacedRulesRemoved: [], clusterRulesRemoved: [], webhooksRemoved: [], apiServicesRemoved: [], crdsRemoved: [], installModesDropped: [], installModesAdded: [] }, '<all namespaces>')
          .map((l) => l.trim()).filter((l) => l !== 'no permission change'),
        ...newFindings.map((f) => `+ ${f}`),
      ];
      this.reportLines.push(`  - ${markdownText(`upgrade ${from.name} -> ${to.name} grows what the extension gets (${reasonOf({ code: CODE.OlmV1UpgradeGrowsPermissions })}):`)}`);
      for (const l of lines) this.reportLines.push(`    - ${markdownCode(l)}`);
      report({
        code: CODE.OlmV1UpgradeGrowsPermissions,
        field: `${field}.bundles[${to.name}]`,
        value: `${from.version} -> ${to.version}`,
        message: `the upgrade ${from.name} -> ${to.name} inside range '${version ?? '*'}' grows what the extension gets: ${lines.join('; ')}`,
        fix: "narrow the version range, or accept it: acceptedRisks: [{ check: 'OLMT-047', reason }]",
      }, `the upgrade ${from.name} -> ${to.name} grows what the extension gets`);
    }
    for (const a of accepted.filter((x) => used.has(x))) {
      this.acceptedDecisions.push({
        acceptedBy: `${field}.acceptedRisks`,
        what: `${a.check}${a.grant !== undefined ? ` SensitiveGrant.${a.grant}` : ''}: ${used.get(a)!.join('; ')}`,
        reason: a.reason,
        policyId: a.check,
      });
    }
    return accepted.filter((a) => used.has(a));
  }

  /**
   * The bundles of the extension that can resolve, ascending by version (operator-controller
   * `internal/operator-controller/resolve/catalog.go`): without a version every bundle of the channels, prereleases
   * included (the highest wins); with one, those Masterminds' Check matches (compare.go NewVersionRange: prereleases only
   * when the constraint names one, build metadata ignored). A constraint operator-controller refuses is an error of its
   * own (InvalidVersionConstraint): every bundle is kept then. Bundles given that none of this admits describe versions
   * operator-controller does not install: one error names them and the constraint (never a silent, empty preview).
   */
  private candidates(field: string, options: OlmV1ExtensionOptions, version: string | undefined, channels: string[] | undefined): OperatorBundle[] {
    const own = options.bundles ?? [];
    const constraint = version !== undefined && MastermindsConstraints.problem(version) === undefined
      ? MastermindsConstraints.parse(version) : undefined;
    const versionOf = new Map(own.map((b) => [b, bundleVersion(b)]));
    const inRange = own
      .filter((b) => {
        const v = versionOf.get(b);
        // a version that is no semver: Check is never reached (bundleutil.GetVersionAndRelease fails), kept without a constraint
        return constraint === undefined || (v !== undefined && constraint.check(v));
      })
      // with channels, only bundles in one of them can resolve (a bundle without channel annotations is kept)
      .filter((b) => channels === undefined || channels.length === 0 || b.channels.length === 0 || b.channels.some((c) => channels.includes(c)))
      .sort((a, b) => compareBundleVersions(versionOf.get(a), versionOf.get(b)) || a.name.localeCompare(b.name));
    if (own.length > 0 && inRange.length === 0) {
      const given = own.map((b) => `${b.name}${b.version !== undefined ? ` (${b.version}${b.channels.length > 0 ? `, channels ${b.channels.join(', ')}` : ''})` : ''}`);
      this.errors.push({
        code: CODE.VersionConstraintNotBundle,
        field: `${field}.bundles`,
        value: own.map((b) => b.name).join(', '),
        message: `version '${version ?? '*'}'${channels !== undefined && channels.length > 0 ? ` in channels ${channels.join(', ')}` : ''} of package '${options.packageName}' `
          + `admits none of the bundles given (${given.join('; ')}): the preview would describe a version operator-controller does not install, and what it installs is not previewed`,
        fix: `pass the bundles the constraint resolves to (OperatorBundle.fromCatalogPackage(catalog, '${options.packageName}') gives every bundle of the catalog's package, and the team previews those the version and channels admit), or change version to admit the bundle given`,
      });
    }
    return inRange;
  }

  /**
   * The install namespace: the extension's `namespace`; without one, on operator-controller's main branch (after PRs
   * #2925/#2926), the namespace it resolves from the bundle it installs (`RegistryV1Render.systemManagedNamespace`:
   * the suggested-namespace template's name, the suggested-namespace annotation, `<package>-system`). The team then
   * writes that Namespace (with the template's labels and annotations, e.g. Pod Security) before the ClusterExtension,
   * sets it as `spec.namespace` (the standard CRD requires the field; main refuses one that does not exist) and lets its
   * guardrail admit it. '' when it cannot be known (an error says why).
   */
  private installNamespace(field: string, options: OlmV1ExtensionOptions, installed: OperatorBundle | undefined, onMain: boolean): string {
    if (options.namespace !== undefined) return options.namespace;
    if (!onMain) {
      this.errors.push({
        code: CODE.ExtensionNamespaceRequired,
        field: `${field}.namespace`,
        message: `operator-controller ${this.rendererVersion() ?? RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION} installs into the ClusterExtension's spec.namespace, which is required`,
        fix: "name one of the team's namespaces, or declare operator-controller's main branch (TenancyAppProps.targets.operatorControllerVersion: 'main'), which resolves the namespace from the bundle",
      });
      return '';
    }
    if (!installed) {
      this.errors.push({
        code: CODE.InstallNamespaceNotResolved,
        field: `${field}.namespace`,
        message: `operator-controller main resolves the install namespace from the bundle it installs, and no bundle of package '${options.packageName}' was given that the version and channels admit`,
        fix: 'pass the bundles (OperatorBundle.fromCatalogPackage), or name the namespace',
      });
      return '';
    }
    const annotations = installed.csv?.metadata?.annotations ?? {};
    let namespace: string;
    let template: OlmV1NamespaceTemplate | undefined;
    try {
      namespace = RegistryV1Render.systemManagedNamespace(installed.packageName ?? options.packageName, annotations);
      template = RegistryV1Render.namespaceTemplate(annotations);
    } catch (e) {
      this.errors.push({
        code: CODE.InstallNamespaceNotResolved,
        field: `${field}.namespace`,
        value: installed.name,
        message: `operator-controller main cannot resolve the install namespace of ${installed.name}: ${(e as Error).message}`,
        fix: 'name the namespace (namespace), or fix the bundle\'s suggested-namespace annotations',
      });
      return '';
    }
    const labels = { ...(template?.labels ?? {}), [OlmV1Labels.TEAM]: this.team };
    const existing = this.namespaceObjects[namespace];
    if (existing) {
      for (const [k, v] of Object.entries(template?.labels ?? {})) existing.metadata.addLabel(k, v);
      for (const [k, v] of Object.entries(template?.annotations ?? {})) existing.metadata.addAnnotation(k, v);
    } else {
      const object = RegistryV1Render.namespaceObject(namespace, template);
      this.namespaceObjects[namespace] = new ApiObject(this, `Namespace-${namespace}`, { ...object, metadata: { ...object.metadata, labels } });
      this.namespaces.push(namespace);
      this.namespaces.sort();
      this.guardrails.allowNamespace(namespace);
    }
    return namespace;
  }

  /**
   * The operator-controller version the preview renders with: the team's `operatorControllerVersion`, else the one
   * declared in `TenancyAppProps.targets` when the renderer models it (`v<version>`), else the default (v1.11.0).
   */
  private rendererVersion(): string | undefined {
    const own = this.props.operatorControllerVersion;
    if (own !== undefined) return RegistryV1Render.versionProblem(own) === undefined ? own : undefined;
    const declared = clusterTargetsOf(this).operatorControllerVersion;
    if (declared === undefined) return undefined;
    const tag = declared === 'main' ? 'main' : `v${declared}`;
    return RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS.includes(tag) ? tag : undefined;
  }

  /**
   * What operator-controller renders for a bundle of the extension (its namespace and `deploymentConfig`), or its
   * refusal: each bundle is rendered once, for the preview and the legacy installer's rules alike.
   */
  private renderer(options: OlmV1ExtensionOptions, installNamespace: string): (bundle: OperatorBundle) => RegistryV1Render | string {
    const renderOptions: RegistryV1RenderOptions = {
      installNamespace,
      ...(this.rendererVersion() !== undefined ? { operatorControllerVersion: this.rendererVersion() } : {}),
      ...(this.crdChannel === OlmV1CrdChannel.EXPERIMENTAL ? { crdChannel: this.crdChannel } : {}),
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
    name: string, field: string, options: OlmV1ExtensionOptions, namespace: string, renderOf: (bundle: OperatorBundle) => RegistryV1Render | string,
  ): string | undefined {
    const sa = options.legacyServiceAccount!;
    const p = KubernetesNames.problem(sa, NameRule.DNS1123_SUBDOMAIN);
    if (p) {
      this.errors.push({ code: CODE.InvalidName, field: `${field}.legacyServiceAccount`, value: sa, message: `ServiceAccount name ${p}`, fix: 'use a lower-case DNS-1123 subdomain' });
      return undefined;
    }
    const renders = (options.bundles ?? []).map(renderOf).filter((r): r is RegistryV1Render => typeof r !== 'string');
    if (renders.length === 0) {
      this.errors.push({ code: CODE.LegacyServiceAccountWithoutBundles, field: `${field}.legacyServiceAccount`, value: sa, message: 'the installer ServiceAccount\'s rules are derived from the bundles, and no installable bundle was given', fix: 'pass the bundles the version range resolves to' });
      return undefined;
    }
    const rules = OlmV1InstallerRbac.derive(name, renders);
    const roleName = `${name}-installer`;
    const labels = { [OlmV1Labels.TEAM]: this.team };
    const subject = { kind: 'ServiceAccount', name: sa, namespace };
    this.legacyInstallers.add(`ServiceAccount ${namespace}/${sa}`);
    new ApiObject(this, `LegacySa-${name}`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace, labels } });
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
