import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { OlmV1Labels } from './curated-cluster-catalog';
import { checkGuardrailsProps } from './input-checks';
import { OlmV1TeamGuardrailsProps } from './olm-v1-team-guardrails-props';
import { OlmV1VersionRange } from './olm-v1-version-range';
import { celString, celStringList } from '../catalog/private';
import { admissionPolicyApiVersion } from '../core/cluster-targets';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';

const OPS_WRITE = "request.operation != 'DELETE'";
const CATALOG = 'object.spec.source.catalog';

/** `E` (a CEL string `X.Y.Z`) as one int: major * 10^12 + minor * 10^6 + patch (parts are at most 999999). */
function versionNumber(e: string): string {
  return `(int(${e}.split('.')[0]) * 1000000000000 + int(${e}.split('.')[1]) * 1000000 + int(${e}.split('.')[2]))`;
}

function numberOf(version: string): number {
  const [a, b, c] = version.split('.').map(Number);
  return a * 1e12 + b * 1e6 + c;
}

/**
 * A team's OLM v1 guardrail: one `ValidatingAdmissionPolicy` + binding (`admissionregistration.k8s.io/v1`) on
 * ClusterExtension CREATE, UPDATE and DELETE by the team's groups. It implements the five checks of upstream's
 * `docs/howto/how-to-protect-olmv1-api-access.md` (namespace allow-list, catalog selector label, package allow-list,
 * no `SelfCertified`, no `crdUpgradeSafety.enforcement: None`) and goes further:
 *
 * - ownership: the team creates and updates only ClusterExtensions labelled `OlmV1Labels.TEAM=<team>`, and updates
 *   or deletes only those that already carry it (DELETE is matched on `oldObject`, as `object` is null there); by name
 *   too: it creates, updates and deletes only ClusterExtensions named `<team>-...`, and none named with the prefix of
 *   a longer team of the App that extends its own (team `a` never `a-b-...`);
 * - versions: `spec.source.catalog.version` must be an exact version or one interval as written
 *   (`OlmV1VersionRange.PATTERN`: separators only between the two bounds, lower bound below the upper), compared
 *   with the package's allowed interval numerically: only constraints that Masterminds/semver reads as a subset of
 *   the allowed interval are admitted;
 * - channels: every named channel is allowed (and some channel is named when the package restricts channels);
 * - `spec.config`: refused, except an inline `watchNamespace` naming a team namespace and an inline
 *   `deploymentConfig`, each when allowed.
 */
export class OlmV1TeamGuardrails extends Construct {
  /** Name of the policy and of its binding. */
  public readonly policyName: string;
  /** The groups whose requests the policy checks, sorted. */
  public readonly groups: string[];
  private readonly teamName: string;
  private readonly serviceAccountNames = new Set<string>();
  private readonly namespaceNames = new Set<string>();
  private readonly userNames = new Set<string>();

  public constructor(scope: Construct, id: string, rawProps: OlmV1TeamGuardrailsProps) {
    super(scope, id);
    const check = new InputCheck();
    const props = checkGuardrailsProps(check, rawProps);
    addErrorProducer(this, () => check.errors);
    this.policyName = props.policyName ?? `olmv1-team-${props.team}`;
    this.groups = [...props.groups].sort();
    this.teamName = props.team;
    const team = props.team;
    const label = celString(OlmV1Labels.TEAM);
    const owned = (o: string) => `has(${o}.metadata.labels) && ${label} in ${o}.metadata.labels && ${o}.metadata.labels[${label}] == ${celString(team)}`;
    for (const n of props.serviceAccountNames ?? []) this.serviceAccountNames.add(n);
    const packages = [...props.packages].sort((a, b) => a.name.localeCompare(b.name));

    const variables = [
      { name: 'catalog', expression: `${OPS_WRITE} && has(object.spec.source.catalog)` },
      { name: 'packageName', expression: `variables.catalog ? ${CATALOG}.packageName : ''` },
      { name: 'channels', expression: `variables.catalog && has(${CATALOG}.channels) ? ${CATALOG}.channels : []` },
      { name: 'versionText', expression: `variables.catalog && has(${CATALOG}.version) ? ${CATALOG}.version : ''` },
      // OlmV1VersionRange's grammar on the text as written: X.Y.Z, or >[=]X.Y.Z optionally followed by a separator
      // (spaces, or a comma) and <[=]A.B.C; then the separators are dropped to read the bounds
      { name: 'versionOk', expression: `variables.versionText.matches(${celString(OlmV1VersionRange.PATTERN)})` },
      { name: 'version', expression: "variables.versionText.replace(' ', '').replace(',', '')" },
      { name: 'isInterval', expression: "variables.version.startsWith('>')" },
      { name: 'lowerVersion', expression: "!variables.versionOk ? '0.0.0' : variables.isInterval ? variables.version.split('<')[0].replace('>', '').replace('=', '') : variables.version" },
      { name: 'lowerInclusive', expression: "!variables.isInterval || variables.version.startsWith('>=')" },
      { name: 'hasUpper', expression: "variables.versionOk && (!variables.isInterval || variables.version.contains('<'))" },
      { name: 'upperVersion', expression: "!variables.hasUpper ? '0.0.0' : variables.isInterval ? variables.version.split('<')[1].replace('=', '') : variables.version" },
      { name: 'upperInclusive', expression: "!variables.isInterval || variables.version.contains('<=')" },
      { name: 'lower', expression: versionNumber('variables.lowerVersion') },
      { name: 'upper', expression: versionNumber('variables.upperVersion') },
      // lower <= upper: an interval that admits some version (OlmV1VersionRange.problem)
      { name: 'nonEmpty', expression: '!variables.hasUpper || variables.lower < variables.upper || (variables.lower == variables.upper && variables.lowerInclusive && variables.upperInclusive)' },
    ];

    const versionChecks = packages.filter((p) => p.versionRange !== undefined).map((p) => {
      // a range outside the grammar (reported by OlmV1Team) admits no version
      if (OlmV1VersionRange.problem(p.versionRange!) !== undefined) return `variables.packageName != ${celString(p.name)}`;
      const allowed = OlmV1VersionRange.parse(p.versionRange!);
      const lo = numberOf(allowed.lower.version);
      const lower = allowed.lower.inclusive
        ? `variables.lower >= ${lo}`
        : `(variables.lower > ${lo} || (variables.lower == ${lo} && !variables.lowerInclusive))`;
      let upper = '';
      if (allowed.upper) {
        const hi = numberOf(allowed.upper.version);
        upper = allowed.upper.inclusive
          ? ` && variables.hasUpper && variables.upper <= ${hi}`
          : ` && variables.hasUpper && (variables.upper < ${hi} || (variables.upper == ${hi} && !variables.upperInclusive))`;
      }
      return `(variables.packageName != ${celString(p.name)} || (variables.versionOk && variables.nonEmpty && ${lower}${upper}))`;
    });
    const channelChecks = packages.filter((p) => p.channels !== undefined).map((p) =>
      `(variables.packageName != ${celString(p.name)} || (size(variables.channels) > 0 && variables.channels.all(c, c in ${celStringList([...p.channels!].sort())})))`);
    const allowedText = packages.map((p) => `${p.name}${p.versionRange ? `@${p.versionRange}` : ''}${p.channels ? ` (channels ${[...p.channels].sort().join(', ')})` : ''}`).join('; ');
    for (const n of props.namespaces) this.namespaceNames.add(n);
    const inline = 'object.spec.config.inline';
    const configKeys = [...(props.allowWatchNamespace ? ['watchNamespace'] : []), ...(props.allowDeploymentConfig ? ['deploymentConfig'] : [])];
    // built at synth: namespaces added with allowNamespace (an install namespace resolved from a bundle) count
    const configOk = (namespaces: string[]) => configKeys.length === 0
      ? '!has(object.spec.config)'
      : props.allowWatchNamespace && !props.allowDeploymentConfig
        ? `!has(object.spec.config) || (has(object.spec.config.configType) && object.spec.config.configType == 'Inline' && has(${inline}) && ${inline}.all(k, k == 'watchNamespace') && ${inline}.watchNamespace in ${celStringList(namespaces)})`
        : `!has(object.spec.config) || (has(object.spec.config.configType) && object.spec.config.configType == 'Inline' && has(${inline}) && ${inline}.all(k, k in ${celStringList(configKeys)})${
          props.allowWatchNamespace ? ` && (!has(${inline}.watchNamespace) || ${inline}.watchNamespace in ${celStringList(namespaces)})` : ''})`;
    const configMessage = (namespaces: string[]) => configKeys.length === 0
      ? `team ${team} may not set spec.config`
      : [props.allowWatchNamespace ? `spec.config.inline.watchNamespace, to one of ${namespaces.join(', ')}` : undefined,
        props.allowDeploymentConfig ? 'spec.config.inline.deploymentConfig' : undefined]
        .filter((x) => x !== undefined).join(' and ').replace(/^/, `team ${team} may only set `);

    // built at synth: the ServiceAccount allow-list grows with allowServiceAccount (OlmV1Team.addExtension), and the
    // names of longer teams of the App whose prefix extends this team's (team `a` must not take team `a-b`'s `a-b-op`)
    const prefix = `${team}-`;
    const nameOk = () => {
      const longer = this._longerTeamPrefixes();
      const name = "(request.operation == 'DELETE' ? oldObject : object).metadata.name";
      return `${name}.startsWith(${celString(prefix)})${longer.map((p) => ` && !${name}.startsWith(${celString(p)})`).join('')}`;
    };
    const validations = () => {
      const namespaces = this.allowedNamespaces;
      return [
        {
          expression: nameOk(),
          messageExpression: `'team ${team} may only create, update or delete ClusterExtensions named ${prefix}<name>${
            this._longerTeamPrefixes().length > 0 ? ` (not ${this._longerTeamPrefixes().map((p) => `${p}<name>`).join(', ')}: names of other teams)` : ''}, got: ' + (request.operation == 'DELETE' ? oldObject : object).metadata.name`,
        },
        {
          expression: `request.operation == 'CREATE' || (${owned('oldObject')})`,
          message: `team ${team} may only update or delete ClusterExtensions labelled ${OlmV1Labels.TEAM}=${team}`,
        },
        {
          expression: `request.operation == 'DELETE' || (${owned('object')})`,
          message: `team ${team} must label its ClusterExtensions ${OlmV1Labels.TEAM}=${team}`,
        },
        {
          expression: `request.operation == 'DELETE' || object.spec.namespace in ${celStringList(namespaces)}`,
          messageExpression: `'spec.namespace must be one of ${namespaces.join(', ')}, got: ' + object.spec.namespace`,
        },
        {
          expression: `request.operation == 'DELETE' || (variables.catalog && has(${CATALOG}.selector) && has(${CATALOG}.selector.matchLabels) && ${label} in ${CATALOG}.selector.matchLabels && ${CATALOG}.selector.matchLabels[${label}] == ${celString(props.catalogTeam)})`,
          message: `spec.source.catalog.selector.matchLabels must include ${OlmV1Labels.TEAM}=${props.catalogTeam}`,
        },
        {
          expression: `request.operation == 'DELETE' || (variables.packageName in ${celStringList(packages.map((p) => p.name))}${[...versionChecks, ...channelChecks].map((c) => ` && ${c}`).join('')})`,
          messageExpression: `'package ' + variables.packageName + ' with version \\'' + (variables.catalog && has(${CATALOG}.version) ? ${CATALOG}.version : '<unset>') + '\\' and channels [' + variables.channels.join(', ') + '] is not allowed; allowed: ' + ${celString(allowedText)}`,
        },
        {
          expression: `request.operation == 'DELETE' || !variables.catalog || !has(${CATALOG}.upgradeConstraintPolicy) || ${CATALOG}.upgradeConstraintPolicy != 'SelfCertified'`,
          message: `team ${team} may not set upgradeConstraintPolicy to SelfCertified (only cluster admins may bypass catalog-provided upgrade constraints)`,
        },
        {
          expression: 'request.operation == \'DELETE\' || !has(object.spec.install) || !has(object.spec.install.preflight) || !has(object.spec.install.preflight.crdUpgradeSafety) || object.spec.install.preflight.crdUpgradeSafety.enforcement != \'None\'',
          message: `team ${team} may not disable CRD upgrade safety checks (spec.install.preflight.crdUpgradeSafety.enforcement: None)`,
        },
        {
          expression: `request.operation == 'DELETE' || !has(object.spec.serviceAccount) || object.spec.serviceAccount.name in ${celStringList(this.allowedServiceAccounts)}`,
          message: this.allowedServiceAccounts.length > 0
            ? `team ${team} may only set spec.serviceAccount.name to ${this.allowedServiceAccounts.join(', ')}`
            : `team ${team} may not set spec.serviceAccount (ignored since operator-controller v1.11.0; older versions install as it)`,
        },
        {
          expression: `request.operation == 'DELETE' || ${configOk(namespaces)}`,
          message: configMessage(namespaces),
        },
      ].map((v) => ({ ...v, reason: 'Forbidden' }));
    };

    const members = `has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in ${celStringList([...props.groups].sort())})`;
    new ApiObject(this, 'Policy', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: this.policyName },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: ['olm.operatorframework.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['clusterextensions'] }],
        },
        // the team's groups, and the team's GitOps identities by user name (a ServiceAccount's groups are every
        // ServiceAccount's: no group can name it alone)
        matchConditions: Lazy.any({
          produce: () => [{
            name: 'team-member',
            expression: this.usernames.length === 0 ? members
              : `(${members}) || request.userInfo.username in ${celStringList(this.usernames)}`,
          }],
        }),
        variables,
        validations: Lazy.any({ produce: validations }),
      },
    });
    new ApiObject(this, 'Binding', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: this.policyName },
      spec: { policyName: this.policyName, validationActions: ['Deny'] },
    });
  }

  /**
   * The name prefixes (`<other team>-`) of the App's other guardrails that start with this team's prefix, sorted:
   * the policy refuses them, so two teams never claim one name.
   */
  /** @internal */
  public _longerTeamPrefixes(): string[] {
    const mine = `${this.teamName}-`;
    return [...new Set(this.node.root.node.findAll()
      .filter((c): c is OlmV1TeamGuardrails => c instanceof OlmV1TeamGuardrails && c !== this)
      .map((g) => `${g.teamName}-`)
      .filter((p) => p !== mine && p.startsWith(mine)))].sort();
  }

  /** The namespaces the team's ClusterExtensions may install into (`spec.namespace`), sorted. */
  public get allowedNamespaces(): string[] {
    return [...this.namespaceNames].sort();
  }

  /**
   * Lets the team install into `namespace` too (the install namespace operator-controller's main branch resolves from a
   * bundle). The policy is written at synth, so names added after construction are in it.
   */
  public allowNamespace(namespace: string): void {
    this.namespaceNames.add(namespace);
  }

  /** The user names whose requests the policy checks besides the groups' (the team's GitOps identities), sorted. */
  public get usernames(): string[] {
    return [...this.userNames].sort();
  }

  /**
   * Checks the requests of `username` too (a ServiceAccount's `system:serviceaccount:<namespace>:<name>`: the team's
   * GitOps identities). The policy is written at synth.
   */
  public addUsername(username: string): void {
    this.userNames.add(username);
  }

  /** The ServiceAccount names the team may set as `spec.serviceAccount.name`, sorted. */
  public get allowedServiceAccounts(): string[] {
    return [...this.serviceAccountNames].sort();
  }

  /**
   * Lets the team set `spec.serviceAccount.name` to `name` (a legacy installer account, for operator-controller
   * before v1.11.0). The policy is written at synth, so names added after construction are in it.
   */
  public allowServiceAccount(name: string): void {
    this.serviceAccountNames.add(name);
  }
}
