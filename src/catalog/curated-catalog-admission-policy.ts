import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { CuratedCatalog } from './curated-catalog';
import { celString, celStringList } from './private';
import { admissionPolicyApiVersion, clusterTargetsOf, isAdmissionPolicyApiVersion } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';
import { SynthPass } from '../core/synth-pass';
import { globalInstallPackages, platformOperatorGroups } from '../olm/platform-operator-groups';
import { SubscriptionConfigAllowance, SubscriptionConfigChecks, SubscriptionConfigOptIn } from '../olm/subscription-config-checks';

const VAP_KINDS = ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'];

/** The service account OLM's operators run as, per distribution, to let OLM's own writes through. */
export enum OlmServiceAccount {
  /** Upstream OLM (`deploy/upstream/quickstart/olm.yaml`): `olm-operator-serviceaccount` in namespace `olm`. */
  UPSTREAM = 'system:serviceaccount:olm:olm-operator-serviceaccount',
  /** OpenShift/OKD: `olm-operator-serviceaccount` in `openshift-operator-lifecycle-manager`. */
  OPENSHIFT = 'system:serviceaccount:openshift-operator-lifecycle-manager:olm-operator-serviceaccount',
}

/** Properties of a `CuratedCatalogAdmissionPolicy`. */
export interface CuratedCatalogAdmissionPolicyProps {
  /** The curated catalog to enforce in the namespaces it serves. */
  readonly catalog: CuratedCatalog;
  /**
   * Name of the ValidatingAdmissionPolicy and its binding (cluster-scoped).
   * @default '<catalogName>-curation'
   */
  readonly policyName?: string;
  /**
   * Usernames whose requests are not checked: OLM's own service account, which updates Subscriptions and
   * CatalogSources in tenant namespaces.
   * @default [OlmServiceAccount.UPSTREAM, OlmServiceAccount.OPENSHIFT]
   */
  readonly exemptUsernames?: string[];
  /**
   * Parts of Subscription `spec.config` that tenants may set although they choose where the operator runs or what
   * it mounts (see `SubscriptionConfigOptIn`).
   * @default - none: tolerations, nodeSelector, affinity and volume types outside the safe set are rejected
   */
  readonly allowedSubscriptionConfig?: SubscriptionConfigOptIn[];
  /**
   * Secrets that Subscription `spec.config` may hand to the operator's pods (secret volumes, projected secret
   * sources, `envFrom.secretRef`, `env.valueFrom.secretKeyRef`). The policy cannot see a Secret's type, so every
   * other Secret is refused, which keeps the installer's token Secret out of the operator's pods.
   * @default - none
   */
  readonly allowedSubscriptionConfigSecrets?: string[];
}

/**
 * In-cluster enforcement of a curated catalog: a `ValidatingAdmissionPolicy` and its binding
 * (`admissionregistration.k8s.io/v1`, Kubernetes 1.30+) that, in every namespace the catalog serves, reject
 *
 * - Subscriptions whose `spec.source`/`spec.sourceNamespace` is not the curated CatalogSource of that namespace,
 *   whose `spec.name` is not an allowed package, or whose `spec.channel` is not an allowed channel (a missing
 *   channel is only accepted for packages that allow every channel);
 * - CatalogSources that are not exactly the curated one (same name, `sourceType`, `image`/`address`, `secrets`),
 *   so nobody can add a catalog beside it or point it elsewhere;
 * - Subscriptions whose `spec.config` (which OLM applies to the operator's Deployments) uses volume types other
 *   than configMap, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret (hostPath, nfs,
 *   csi...), references a Secret not in `allowedSubscriptionConfigSecrets` (secret and projected volumes, `envFrom`,
 *   `env.valueFrom.secretKeyRef`), or sets tolerations, nodeSelector or affinity, each unless opted into with
 *   `allowedSubscriptionConfig`. The same rules run at synth time on `subscribe({ config })`
 *   (`SubscriptionConfigChecks`). `spec.config` has no securityContext; privileged pods are left to the
 *   Namespace's Pod Security level.
 *
 * What gets through, and why:
 * - requests from `exemptUsernames` (OLM's own service account);
 * - UPDATEs that leave `spec` unchanged (OLM and controllers write labels, annotations, finalizers; status
 *   writes go to the `/status` subresource, which the policy does not match at all);
 * - DELETEs (deleting the curated CatalogSource only hurts the tenant; a GitOps tool puts it back).
 *
 * Versions are not checked here: the curated catalog image only contains the allowed versions.
 */
export class CuratedCatalogAdmissionPolicy extends Construct {
  /** Name of the policy and the binding. */
  public readonly policyName: string;

  public constructor(scope: Construct, id: string, props: CuratedCatalogAdmissionPolicyProps) {
    super(scope, id);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = new InputCheck();
    const raw = input.optionalObject('props', props ?? 0, 'pass { catalog }') ?? {};
    input.knownProps(raw, 'CuratedCatalogAdmissionPolicyProps', 'CuratedCatalogAdmissionPolicy');
    const checkedCatalog = input.optionalInstance('catalog', raw.catalog, CuratedCatalog, 'pass the CuratedCatalog to enforce');
    if (raw.catalog === undefined || raw.catalog === null) {
      input.add({ code: CODE.MissingInput, field: 'catalog', message: 'catalog is required but missing', fix: 'pass the CuratedCatalog to enforce' });
    }
    if (!checkedCatalog) {
      // nothing to enforce: only the input errors are reported
      this.policyName = '';
      addErrorProducer(this, () => input.errors);
      return;
    }
    const catalog = checkedCatalog;
    this.policyName = input.optionalString('policyName', raw.policyName) ?? `${catalog.catalogName}-curation`;
    const exempt = input.optionalStringArray('exemptUsernames', raw.exemptUsernames) ?? [OlmServiceAccount.UPSTREAM, OlmServiceAccount.OPENSHIFT];
    const configAllowance: SubscriptionConfigAllowance = {
      allowed: input.optionalArray('allowedSubscriptionConfig', raw.allowedSubscriptionConfig,
        (v, f) => input.optionalEnum(f, v ?? '', SubscriptionConfigOptIn as any, 'SubscriptionConfigOptIn') as SubscriptionConfigOptIn | undefined),
      allowedSecretNames: input.optionalStringArray('allowedSubscriptionConfigSecrets', raw.allowedSubscriptionConfigSecrets),
    };

    new ApiObject(this, 'Policy', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: this.policyName },
      spec: Lazy.any({
        produce: () => renderPolicySpec(catalog, exempt, configAllowance, platformFacts(this)),
      }),
    });
    new ApiObject(this, 'Binding', {
      apiVersion: admissionPolicyApiVersion(this),
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: this.policyName },
      spec: {
        policyName: this.policyName,
        validationActions: ['Deny'],
      },
    });

    addErrorProducer(this, () => {
      const out: DiagnosticDetails[] = [...input.errors];
      const problem = KubernetesNames.problem(this.policyName, NameRule.DNS1123_SUBDOMAIN);
      if (problem) {
        out.push({ code: CODE.InvalidName, field: 'policyName', value: this.policyName, message: `policy name ${problem}`, fix: 'use lower-case letters, digits, "-" and "."' });
      }
      // Policies and bindings are cluster-scoped: a second one with this name would overwrite ours when applied.
      const all = this.node.root.node.findAll();
      const clashes = all
        .filter((x) => x instanceof ApiObject && isAdmissionPolicyApiVersion(x.apiVersion) && VAP_KINDS.includes(x.kind))
        .filter((x) => (x as ApiObject).metadata.name === this.policyName && !x.node.path.startsWith(`${this.node.path}/`))
        .map((x) => x.node.path)
        .sort();
      if (clashes.length > 0) {
        out.push({
          code: CODE.DuplicateAdmissionPolicy,
          field: 'policyName',
          value: this.policyName,
          message: `another ValidatingAdmissionPolicy or binding in the App has this cluster-wide name (${clashes.join(', ')})`,
          fix: 'give each policy its own policyName (catalogs with the same catalogName need one)',
        });
      }
      // Another curated catalog in a covered namespace: this policy would reject every Subscription to it.
      const covered = new Set(catalog.servedNamespaces);
      for (const other of all) {
        if (!(other instanceof CuratedCatalog) || other === catalog) continue;
        const shared = other.servedNamespaces.filter((n) => covered.has(n));
        if (shared.length > 0) {
          out.push({
            code: CODE.AdmissionPolicyOverlap,
            field: 'catalog',
            message: `curated catalog ${other.node.path} also serves ${shared.join(', ')}, and this policy would reject every Subscription to it there`,
            fix: 'serve each tenant namespace from one curated catalog when the admission policy is enabled (merge the lists)',
          });
        }
      }
      if (catalog.servedNamespaces.length === 0) {
        out.push({
          code: CODE.AdmissionPolicyMatchesNothing,
          message: `curated catalog ${catalog.node.path} serves no namespace, so the policy would match nothing`,
          fix: 'serve at least one tenant with the catalog',
        });
      }
      return out;
    });
  }
}

/** What the policy needs of the App and the platform beyond the catalog. */
interface PlatformFacts {
  /** Namespaces where the platform's OLM keeps an OperatorGroup of its own (never matched: its Subscriptions are there). */
  readonly platformNamespaces: string[];
  /** Packages installed for all namespaces -> their install namespaces. */
  readonly globalPackages: Map<string, string[]>;
}

/**
 * The platform's OperatorGroup namespaces (per the declared targets) and the packages the App installs for all
 * namespaces: the Subscriptions in a namespace whose OperatorGroup is AllNamespaces (a `GlobalOperatorInstall`, a tenant
 * with `TargetNamespaces.allNamespaces`, the platform's global group), read from the App's objects at synth.
 */
function platformFacts(scope: Construct): PlatformFacts {
  const groups = platformOperatorGroups(clusterTargetsOf(scope));
  const objects = SynthPass.apiObjects(scope.node.root)
    .filter((c) => c.kind === 'OperatorGroup' || c.kind === 'Subscription')
    .map((o) => ({ kind: o.kind, apiVersion: o.apiVersion, namespace: o.metadata.namespace, json: () => SynthPass.json(o) }));
  return {
    platformNamespaces: groups.map((g) => g.namespace),
    globalPackages: globalInstallPackages(objects, groups.filter((g) => g.allNamespaces).map((g) => g.namespace)),
  };
}

/** The policy `spec` for a catalog's current state (the CEL is generated from the curated list). */
function renderPolicySpec(catalog: CuratedCatalog, exempt: string[], config: SubscriptionConfigAllowance, facts: PlatformFacts): any {
  // the platform's own OperatorGroup namespaces hold its other Subscriptions: the curation never applies there
  const namespaces = catalog.servedNamespaces.filter((n) => !facts.platformNamespaces.includes(n));
  // only the curated packages: any other is refused by the package rule already
  const globalPackages = [...facts.globalPackages.entries()].filter(([p]) => catalog.packages.some((c) => c.name === p));
  const globalMap = `{${globalPackages.map(([p, ns]) => `${celString(p)}: ${celStringList(ns)}`).join(', ')}}`;
  const packages = [...catalog.packages].sort((a, b) => (a.name < b.name ? -1 : 1));
  // package -> allowed channels; an empty list means every channel.
  const packageMap = `{${packages.map((p) => `${celString(p.name)}: ${celStringList((p.channels ?? []).map((c) => c.name).sort())}`).join(', ')}}`;
  const sub = "request.kind.kind != 'Subscription'";
  const cs = "request.kind.kind != 'CatalogSource'";
  const opt = (field: string) => `(has(object.spec.${field}) ? object.spec.${field} : '')`;
  return {
    failurePolicy: 'Fail',
    matchConstraints: {
      resourceRules: [
        {
          apiGroups: ['operators.coreos.com'],
          apiVersions: ['*'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['subscriptions', 'catalogsources'],
        },
      ],
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: namespaces }],
      },
    },
    matchConditions: [
      { name: 'not-olm', expression: `!(request.userInfo.username in ${celStringList([...exempt].sort())})` },
      { name: 'spec-changed', expression: "request.operation != 'UPDATE' || object.spec != oldObject.spec" },
    ],
    variables: [
      { name: 'packages', expression: packageMap },
      ...(globalPackages.length > 0 ? [{ name: 'globalPackages', expression: globalMap }] : []),
    ],
    validations: [
      {
        expression: `${sub} || (object.spec.source == ${celString(catalog.catalogName)} && object.spec.sourceNamespace == object.metadata.namespace)`,
        messageExpression: `'Subscriptions in this namespace must use the curated CatalogSource ' + ${celString(catalog.catalogName)} + ' in namespace ' + object.metadata.namespace + ', not ' + object.spec.source + ' in ' + object.spec.sourceNamespace`,
        reason: 'Forbidden',
      },
      {
        expression: `${sub} || object.spec.name in variables.packages`,
        // the allowed list as a literal: CEL map iteration order is not defined, the message must be stable
        messageExpression: `'package ' + object.spec.name + ' is not in the curated catalog; allowed packages: ' + ${celString(packages.map((p) => p.name).join(', '))}`,
        reason: 'Forbidden',
      },
      // a package the platform installs for all namespaces: a second Subscription anywhere else installs a second copy,
      // and OLM fails the CSV that owns the same APIs in an intersecting OperatorGroup (InterOperatorGroupOwnerConflict)
      ...(globalPackages.length > 0 ? [{
        expression: `${sub} || !(object.spec.name in variables.globalPackages) || object.metadata.namespace in variables.globalPackages[object.spec.name]`,
        messageExpression: "'package ' + object.spec.name + ' is installed for all namespaces by the platform (namespace ' + variables.globalPackages[object.spec.name].join(', ') "
          + "+ '): a Subscription here would install a second copy; use the APIs of the installed one'",
        reason: 'Forbidden',
      }] : []),
      {
        expression: `${sub} || !(object.spec.name in variables.packages) || size(variables.packages[object.spec.name]) == 0 || (has(object.spec.channel) && object.spec.channel in variables.packages[object.spec.name])`,
        messageExpression: "'package ' + object.spec.name + ' must name one of its curated channels in spec.channel: ' + variables.packages[object.spec.name].join(', ')",
        reason: 'Forbidden',
      },
      {
        expression:
          `${cs} || (object.metadata.name == ${celString(catalog.catalogName)} && ${opt('sourceType')} == 'grpc'` +
          ` && ${opt('image')} == ${celString(catalog.image ?? '')} && ${opt('address')} == ${celString(catalog.address ?? '')}` +
          ` && (has(object.spec.secrets) ? object.spec.secrets : []) == ${celStringList(catalog.secrets)})`,
        message: `only the curated CatalogSource ${catalog.catalogName} (as the platform defines it) may exist in this namespace`,
        reason: 'Forbidden',
      },
      ...configValidations(sub, config),
    ],
  };
}

/**
 * The `spec.config` validations, the CEL form of `SubscriptionConfigChecks` (same lists). Written with `has()` on
 * each field, never macros over objects: the API server types `object` from the CRD's structural schema, where
 * `spec.config.volumes[*]` is an object type, not a map.
 */
function configValidations(notSubscription: string, allowance: SubscriptionConfigAllowance): any[] {
  const allowed = new Set(allowance.allowed ?? []);
  const secrets = celStringList([...(allowance.allowedSecretNames ?? [])].sort());
  const secretsText = (allowance.allowedSecretNames ?? []).length > 0 ? [...allowance.allowedSecretNames!].sort().join(', ') : 'none';
  const c = 'object.spec.config';
  const guard = (field: string) => `${notSubscription} || !has(${c}) || !has(${c}.${field})`;
  const otherTypes = allowed.has(SubscriptionConfigOptIn.OTHER_VOLUME_TYPES) ? [] : SubscriptionConfigChecks.OTHER_VOLUME_TYPES;
  const volumeOk = [
    ...otherTypes.map((t) => `!has(v.${t})`),
    `(!has(v.secret) || (has(v.secret.secretName) && v.secret.secretName in ${secrets}))`,
    `(!has(v.projected) || !has(v.projected.sources) || v.projected.sources.all(s, !has(s.secret) || (has(s.secret.name) && s.secret.name in ${secrets})))`,
  ].join(' && ');
  const out: any[] = [
    {
      expression: `${guard('volumes')} || ${c}.volumes.all(v, ${volumeOk})`,
      messageExpression:
        `'spec.config.volumes may only use ${otherTypes.length > 0 ? `${SubscriptionConfigChecks.SAFE_VOLUME_TYPES.join(', ')} volumes` : 'volumes'}` +
        ` and the Secrets ${secretsText}; rejected: ' + ${c}.volumes.filter(v, !(${volumeOk})).map(v, v.name).join(', ')`,
      reason: 'Forbidden',
    },
    {
      expression: `${guard('envFrom')} || ${c}.envFrom.all(e, !has(e.secretRef) || (has(e.secretRef.name) && e.secretRef.name in ${secrets}))`,
      message: `spec.config.envFrom may only reference the Secrets ${secretsText}`,
      reason: 'Forbidden',
    },
    {
      expression: `${guard('env')} || ${c}.env.all(e, !has(e.valueFrom) || !has(e.valueFrom.secretKeyRef) || (has(e.valueFrom.secretKeyRef.name) && e.valueFrom.secretKeyRef.name in ${secrets}))`,
      message: `spec.config.env may only reference the Secrets ${secretsText}`,
      reason: 'Forbidden',
    },
  ];
  if (!allowed.has(SubscriptionConfigOptIn.TOLERATIONS)) {
    out.push({ expression: `${guard('tolerations')} || size(${c}.tolerations) == 0`, message: 'spec.config.tolerations is not allowed in this namespace (the platform places operators)', reason: 'Forbidden' });
  }
  if (!allowed.has(SubscriptionConfigOptIn.NODE_SELECTOR)) {
    out.push({ expression: `${guard('nodeSelector')} || size(${c}.nodeSelector) == 0`, message: 'spec.config.nodeSelector is not allowed in this namespace (the platform places operators)', reason: 'Forbidden' });
  }
  if (!allowed.has(SubscriptionConfigOptIn.AFFINITY)) {
    out.push({ expression: `${notSubscription} || !has(${c}) || !has(${c}.affinity)`, message: 'spec.config.affinity is not allowed in this namespace (the platform places operators)', reason: 'Forbidden' });
  }
  return out;
}
