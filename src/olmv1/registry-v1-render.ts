/**
 * What operator-controller v1.11.0 creates for a registry+v1 bundle, computed offline: a port of its renderer
 * (`internal/operator-controller/rukpak/render/registryv1`: `registryv1.go`, `generators/generators.go`,
 * `render.go`, `certproviders/certmanager.go`) and of the checks around it (`applier/provider.go`
 * `RegistryV1ManifestProvider.Get`, `resolve/validation.go` `NoDependencyValidation`). Since v1.11.0 everything it
 * renders is applied with operator-controller's own cluster-admin identity, so this is the permission preview.
 * Pure: no constructs.
 */
import * as crypto from 'crypto';
import { RegistryV1Validators } from './registry-v1-validators';
import { OperatorBundle } from '../bundle/operator-bundle';
import { oneLine } from '../core/yaml-or-json';

/** How operator-controller provisions webhook serving certificates (feature gates `WebhookProvider*`). */
export enum OlmV1CertificateProvider {
  /** `WebhookProviderCertManager` (GA, on by default): a self-signed cert-manager Issuer and Certificate. */
  CERT_MANAGER = 'CERT_MANAGER',
  /** `WebhookProviderOpenshiftServiceCA`: the OpenShift service CA injects the certificates. */
  OPENSHIFT_SERVICE_CA = 'OPENSHIFT_SERVICE_CA',
  /** None: bundles with webhooks are refused (and nothing is injected). */
  NONE = 'NONE',
}

/**
 * Which ClusterExtension CRD the cluster runs: operator-controller ships a standard and an experimental channel
 * (`helm/olmv1/base/operator-controller/crd/{standard,experimental}`). Only the experimental one has `spec.config`.
 */
export enum OlmV1CrdChannel {
  /**
   * The standard CRD (`crds/olm-v1`): no `spec.config`. The API server prunes the field, so a `watchNamespace` or a
   * `deploymentConfig` written on a ClusterExtension is silently dropped (the bundle installs for all namespaces).
   */
  STANDARD = 'STANDARD',
  /** The experimental CRD: `spec.config.inline` reaches operator-controller, which validates it against the bundle. */
  EXPERIMENTAL = 'EXPERIMENTAL',
}

/**
 * The metadata of a bundle's `operatorframework.io/suggested-namespace-template` (operator-controller main,
 * `render/namespace.go`): what seeds the namespace it resolves for the bundle.
 */
export interface OlmV1NamespaceTemplate {
  /**
   * `metadata.name`: the namespace's name (before the `suggested-namespace` annotation and `<package>-system`).
   * @default - none: the next rule names the namespace
   */
  readonly name?: string;
  /**
   * `metadata.labels` (e.g. `pod-security.kubernetes.io/enforce`).
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * `metadata.annotations`.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** Options of `RegistryV1Render.forExtension`. */
export interface RegistryV1RenderOptions {
  /**
   * The ClusterExtension's `spec.namespace`.
   * @default - required by operator-controller v1.11.0; with `operatorControllerVersion: 'main'` the renderer
   * resolves the namespace from the bundle (`RegistryV1Render.systemManagedNamespace`)
   */
  readonly installNamespace?: string;
  /**
   * The operator-controller version whose renderer is modelled: one of `RegistryV1Render.OPERATOR_CONTROLLER_VERSIONS`.
   * @default RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION ('v1.11.0')
   */
  readonly operatorControllerVersion?: string;
  /**
   * The ClusterExtension CRD channel the cluster runs (what happens to `spec.config`).
   * @default - OlmV1CrdChannel.EXPERIMENTAL when an experimental feature gate is declared
   * (`singleOwnNamespaceInstallSupport` or `deploymentConfigSupport`: they exist only in the experimental feature
   * set, which ships the experimental CRDs), else OlmV1CrdChannel.STANDARD
   */
  readonly crdChannel?: OlmV1CrdChannel;
  /**
   * `spec.config.inline.watchNamespace`.
   * @default - none: AllNamespaces
   */
  readonly watchNamespace?: string;
  /**
   * The alpha feature gate `SingleOwnNamespaceInstallSupport`.
   * @default false (standard feature set)
   */
  readonly singleOwnNamespaceInstallSupport?: boolean;
  /**
   * The certificate provider.
   * @default OlmV1CertificateProvider.CERT_MANAGER
   */
  readonly certificateProvider?: OlmV1CertificateProvider;
  /**
   * Property types of the bundle's catalog entry (`olm.package.required`, `olm.gvk.required`, `olm.constraint`
   * are refused by `NoDependencyValidation`). The CSV's `spec.customresourcedefinitions.required` always counts
   * as `olm.gvk.required` (opm writes one such property per required API).
   * @default - none beyond the CSV's required CRDs
   */
  readonly catalogPropertyTypes?: string[];
  /**
   * `spec.config.inline.deploymentConfig` (OLM v0's `SubscriptionConfig` shape), as JSON.
   * @default - none
   */
  readonly deploymentConfig?: any;
  /**
   * The experimental feature gate `DeploymentConfig`: without it a `deploymentConfig` is refused
   * (applier/provider.go removes it from the bundle's config schema, so it is an unknown field).
   * @default false (standard feature set)
   */
  readonly deploymentConfigSupport?: boolean;
}

const OPERATOR_CONTROLLER_VERSIONS = ['v1.11.0', 'main'];

/** The install modes a bundle supports, as a set of type names. */
function supportedModes(bundle: OperatorBundle): Set<string> {
  return new Set(bundle.installModes.filter((m) => m.supported).map((m) => m.type as string));
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_NAMESPACE_NAME_LENGTH = 63;

/** `hashutil.DeepHashObject` (internal/shared/util/hash): base36 of the SHA-224 of Go's JSON encoding plus newline. */
function deepHashOfJson(goJson: string): string {
  return BigInt(`0x${crypto.createHash('sha224').update(`${goJson}\n`).digest('hex')}`).toString(36);
}

/** render/namespace.go sanitizeDNS1123Label. */
function sanitizeDns1123Label(s: string): string {
  let out = '';
  let lastHyphen = false;
  for (const r of s.toLowerCase()) {
    if ((r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')) {
      out += r;
      lastHyphen = false;
    } else if (!lastHyphen) {
      out += '-';
      lastHyphen = true;
    }
  }
  return out.replace(/^-+|-+$/g, '');
}

/** Options of `RegistryV1Render.render` (upstream `render.Options`). */
export interface RegistryV1RendererOptions {
  /**
   * Target namespaces (`render.WithTargetNamespaces`); `['']` is AllNamespaces.
   * @default - `['']` when the bundle supports AllNamespaces, else none (an error)
   */
  readonly targetNamespaces?: string[];
  /**
   * The certificate provider.
   * @default OlmV1CertificateProvider.NONE (as `registryv1.Renderer.Render` without `WithCertificateProvider`)
   */
  readonly certificateProvider?: OlmV1CertificateProvider;
  /**
   * `render.WithDeploymentConfig`: the extension's `deploymentConfig` (experimental gate `DeploymentConfig`; the
   * shape of OLM v0's `SubscriptionConfig`: env, envFrom, volumes, volumeMounts, tolerations, resources,
   * nodeSelector, affinity, annotations), as JSON.
   * @default - none
   */
  readonly deploymentConfig?: any;
}

const MAX_NAME_LENGTH = 63;
const RBAC_GROUP = 'rbac.authorization.k8s.io';

const DEPENDENCY_PROPERTIES = ['olm.package.required', 'olm.gvk.required', 'olm.constraint'];

/**
 * The `clientConfig.service.port` operator-controller writes for a webhook definition: `&wh.ContainerPort`
 * (generators.go, conversion, validating and mutating alike), so 0 when the CSV sets none (only the Service port
 * defaults to 443: `getWebhookServicePort`).
 */
function webhookPort(wh: any): number {
  return typeof wh.containerPort === 'number' ? wh.containerPort : 0;
}

/** Go's encoding/json string escaping (HTML-safe: <, >, & and U+2028/2029 as \u escapes). */
function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function goStrings(xs: unknown): string {
  return `[${(xs as string[]).map((x) => goString(String(x))).join(',')}]`;
}

/** json.Marshal of rbacv1.PolicyRule: field order verbs, apiGroups, resources, resourceNames, nonResourceURLs; omitempty except verbs. */
function goPolicyRule(r: any): string {
  const parts = [`"verbs":${Array.isArray(r.verbs) ? goStrings(r.verbs) : 'null'}`];
  for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs']) {
    if (Array.isArray(r[k]) && r[k].length > 0) parts.push(`"${k}":${goStrings(r[k])}`);
  }
  return `{${parts.join(',')}}`;
}

/** A CSV permission (`StrategyDeploymentPermissions`) as Go encodes it: `{"serviceAccountName":...,"rules":[...]}`. */
function goPermission(serviceAccountName: string, rules: any[] | undefined): string {
  return `{"serviceAccountName":${goString(serviceAccountName)},"rules":${rules ? `[${rules.map(goPolicyRule).join(',')}]` : 'null'}}`;
}

/** The PolicyRule as it comes out of Go's decoder (unknown fields dropped, empty lists omitted except verbs). */
function cleanRule(r: any): any {
  const out: any = {};
  for (const k of ['apiGroups', 'nonResourceURLs', 'resourceNames', 'resources']) {
    if (Array.isArray(r[k]) && r[k].length > 0) out[k] = [...r[k]];
  }
  out.verbs = Array.isArray(r.verbs) ? [...r.verbs] : null;
  return out;
}

/** generators.go certVolumeConfigs: the webhook and APIService serving-certificate mounts OLM v0 used. */
const CERT_VOLUMES = [
  { name: 'webhook-cert', path: '/tmp/k8s-webhook-server/serving-certs', cert: 'tls.crt', key: 'tls.key' },
  { name: 'apiservice-cert', path: '/apiserver.local.config/certificates', cert: 'apiserver.crt', key: 'apiserver.key' },
];

/**
 * generators.go ensureCorrectDeploymentCertVolumes: drops the volumes named like the cert volumes or mounted at
 * their paths, then appends the cert volumes (from the provider's Secret, keys tls.crt/tls.key) and their mounts to
 * every container.
 */
function ensureCertVolumes(depSpec: any, secretName: string): void {
  const pod = depSpec.template.spec = depSpec.template.spec ?? {};
  const remove = new Set(CERT_VOLUMES.map((c) => c.name));
  const paths = new Set(CERT_VOLUMES.map((c) => c.path));
  for (const c of pod.containers ?? []) for (const m of c.volumeMounts ?? []) if (paths.has(m.mountPath)) remove.add(m.name);
  pod.volumes = [
    ...(pod.volumes ?? []).filter((v: any) => !remove.has(v.name)),
    ...CERT_VOLUMES.map((c) => ({
      name: c.name,
      secret: { secretName, items: [{ key: 'tls.crt', path: c.cert }, { key: 'tls.key', path: c.key }] },
    })),
  ];
  for (const c of pod.containers ?? []) {
    const kept = (c.volumeMounts ?? []).filter((m: any) => !remove.has(m.name));
    c.volumeMounts = [...kept, ...CERT_VOLUMES.map((v) => ({ name: v.name, mountPath: v.path }))];
  }
}

/** reflect.DeepEqual on decoded JSON. */
function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: any): any => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/** Replaces the entry named like each config entry, or appends it (applyEnvironmentConfig, applyVolumeConfig, ...). */
function mergeByName(existing: any[] | undefined, configured: any[]): any[] {
  const out = [...(existing ?? [])];
  for (const c of configured) {
    const i = out.findIndex((e) => e.name === c.name);
    if (i >= 0) out[i] = c;
    else out.push(c);
  }
  return out;
}

/** Appends the config entries not already present (DeepEqual): applyEnvironmentFromConfig, applyTolerationsConfig. */
function appendNew(existing: any[] | undefined, configured: any[]): any[] {
  const out = [...(existing ?? [])];
  for (const c of configured) if (!out.some((e) => sameJson(e, c))) out.push(c);
  return out;
}

/** generators.go applyCustomConfigToDeployment, in its order. */
function applyDeploymentConfig(deployment: any, config: any): void {
  const pod = deployment.spec.template.spec = deployment.spec.template.spec ?? {};
  const containers: any[] = pod.containers ?? [];
  const nonEmpty = (x: any) => Array.isArray(x) && x.length > 0;
  if (nonEmpty(config.env)) for (const c of containers) c.env = mergeByName(c.env, config.env);
  if (nonEmpty(config.envFrom)) for (const c of containers) c.envFrom = appendNew(c.envFrom, config.envFrom);
  if (nonEmpty(config.volumes)) pod.volumes = mergeByName(pod.volumes, config.volumes);
  if (nonEmpty(config.volumeMounts)) for (const c of containers) c.volumeMounts = mergeByName(c.volumeMounts, config.volumeMounts);
  if (nonEmpty(config.tolerations)) pod.tolerations = appendNew(pod.tolerations, config.tolerations);
  if (config.resources) for (const c of containers) c.resources = config.resources;
  if (config.nodeSelector) pod.nodeSelector = config.nodeSelector;
  if (config.affinity) applyAffinity(pod, config.affinity);
  if (config.annotations && Object.keys(config.annotations).length > 0) {
    for (const meta of [deployment.metadata, deployment.spec.template.metadata]) {
      meta.annotations = meta.annotations ?? {};
      for (const [k, v] of Object.entries(config.annotations)) if (!(k in meta.annotations)) meta.annotations[k] = v;
    }
  }
}

const emptyList = (x: any) => !Array.isArray(x) || x.length === 0;
const nodeAffinityEmpty = (na: any) => {
  if (!na) return true;
  const required = na.requiredDuringSchedulingIgnoredDuringExecution;
  return (!required || emptyList(required.nodeSelectorTerms)) && emptyList(na.preferredDuringSchedulingIgnoredDuringExecution);
};
const podAffinityEmpty = (pa: any) => !pa
  || (emptyList(pa.requiredDuringSchedulingIgnoredDuringExecution) && emptyList(pa.preferredDuringSchedulingIgnoredDuringExecution));

/** generators.go applyAffinityConfig: a config affinity without fields clears the pod's; empty parts clear that part. */
function applyAffinity(pod: any, affinity: any): void {
  const parts: Array<[string, (x: any) => boolean]> = [['nodeAffinity', nodeAffinityEmpty], ['podAffinity', podAffinityEmpty], ['podAntiAffinity', podAffinityEmpty]];
  if (parts.every(([k]) => affinity[k] === undefined || affinity[k] === null)) {
    delete pod.affinity;
    return;
  }
  pod.affinity = pod.affinity ?? {};
  for (const [k, empty] of parts) {
    if (affinity[k] === undefined || affinity[k] === null) continue;
    if (empty(affinity[k])) delete pod.affinity[k];
    else pod.affinity[k] = affinity[k];
  }
  if (parts.every(([k, empty]) => empty(pod.affinity[k]))) delete pod.affinity;
}

/**
 * operator-controller's registry+v1 renderer. `forExtension` is what a ClusterExtension gets (with the provider's
 * refusals); `render` is `registryv1.Renderer.Render` itself, as the upstream regression fixtures call it.
 */
export class RegistryV1Render {
  /**
   * The operator-controller versions whose renderer is modelled: `v1.11.0` (the release), and `main`, the renderer
   * at operator-controller's main branch after PR #2925 (merged 2026-09-16, unreleased): without a caller-given
   * install namespace it resolves one from the bundle (`systemManagedNamespace`).
   */
  public static readonly OPERATOR_CONTROLLER_VERSIONS: string[] = [...OPERATOR_CONTROLLER_VERSIONS];
  /** The version modelled when none is given. */
  public static readonly DEFAULT_OPERATOR_CONTROLLER_VERSION = 'v1.11.0';

  /** Why `version` is not a modelled operator-controller version, or undefined. */
  public static versionProblem(version: string): string | undefined {
    if (typeof version !== 'string') return `operator-controller version must be a string, got ${oneLine(version)}; use one of ${OPERATOR_CONTROLLER_VERSIONS.join(', ')}`;
    if (OPERATOR_CONTROLLER_VERSIONS.includes(version)) return undefined;
    return `operator-controller version ${JSON.stringify(version)} is not modelled; use one of ${OPERATOR_CONTROLLER_VERSIONS.join(', ')}`;
  }

  /**
   * The install namespace the renderer after PR #2925 resolves for a bundle when the caller gives none
   * (`internal/operator-controller/rukpak/render/namespace.go` `resolveSystemManagedNamespace`): the `metadata.name`
   * of the CSV annotation `operatorframework.io/suggested-namespace-template` (a JSON Namespace), else the annotation
   * `operatorframework.io/suggested-namespace`, else `defaultInstallNamespace(packageName)`; the result must be a
   * DNS-1123 label of at most 63 characters.
   * @throws Error with upstream's message (an unparsable template, an invalid name)
   */
  public static systemManagedNamespace(packageName: string, csvAnnotations: { [key: string]: string }): string {
    if (csvAnnotations !== undefined && csvAnnotations !== null && (typeof csvAnnotations !== 'object' || Array.isArray(csvAnnotations))) {
      throw new Error(`RegistryV1Render.systemManagedNamespace: csvAnnotations must be a map of strings, got ${oneLine(csvAnnotations)}`);
    }
    const annotations = csvAnnotations ?? {};
    const raw = annotations['operatorframework.io/suggested-namespace-template'];
    let templateName = '';
    if (typeof raw === 'string' && raw !== '') {
      const name = namespaceTemplateJson(raw).metadata?.name;
      if (name !== undefined && name !== null && typeof name !== 'string') throw new Error('failed to parse namespace template: metadata.name must be a string');
      templateName = name ?? '';
    }
    const suggested = annotations['operatorframework.io/suggested-namespace'];
    const name = templateName !== '' ? templateName
      : typeof suggested === 'string' && suggested !== '' ? suggested : RegistryV1Render.defaultInstallNamespace(packageName);
    if (name === '') throw new Error('resolved namespace name is empty');
    if (name.length > MAX_NAMESPACE_NAME_LENGTH) throw new Error(`resolved namespace name ${JSON.stringify(name)} exceeds ${MAX_NAMESPACE_NAME_LENGTH} characters`);
    if (!DNS1123_LABEL.test(name)) throw new Error(`resolved namespace name ${JSON.stringify(name)} is not a valid DNS1123 label`);
    return name;
  }

  /**
   * The CSV annotation `operatorframework.io/suggested-namespace-template` read as operator-controller's main branch
   * reads it (`render/namespace.go` `parseNamespaceTemplate`, after PR #2925): absent or empty is none; otherwise a JSON
   * Namespace whose `metadata` seeds the system-managed namespace (its labels, e.g. Pod Security, and annotations).
   * @returns undefined when the annotation is absent or empty
   * @throws Error `failed to parse namespace template: ...` (upstream's message) for JSON that is no Namespace
   */
  public static namespaceTemplate(csvAnnotations: { [key: string]: string }): OlmV1NamespaceTemplate | undefined {
    if (csvAnnotations !== undefined && csvAnnotations !== null && (typeof csvAnnotations !== 'object' || Array.isArray(csvAnnotations))) {
      throw new Error(`RegistryV1Render.namespaceTemplate: csvAnnotations must be a map of strings, got ${oneLine(csvAnnotations)}`);
    }
    const raw = (csvAnnotations ?? {})['operatorframework.io/suggested-namespace-template'];
    if (typeof raw !== 'string' || raw === '') return undefined;
    const meta = namespaceTemplateJson(raw).metadata ?? {};
    // encoding/json's words for a value of the wrong JSON type (Go: "json: cannot unmarshal <type> into Go struct field ...")
    const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);
    const stringMap = (v: unknown, what: string): { [key: string]: string } | undefined => {
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'object' || Array.isArray(v)) {
        throw new Error(`failed to parse namespace template: json: cannot unmarshal ${jsonType(v)} into Go struct field ObjectMeta.metadata.${what} of type map[string]string`);
      }
      const bad = Object.values(v as object).find((x) => typeof x !== 'string' && x !== null);
      if (bad !== undefined) {
        throw new Error(`failed to parse namespace template: json: cannot unmarshal ${jsonType(bad)} into Go struct field ObjectMeta.metadata.${what} of type string`);
      }
      const entries = Object.entries(v as object).map(([k, x]) => [k, x ?? ''] as [string, string]);
      return entries.length > 0 ? Object.fromEntries(entries) : undefined;
    };
    const labels = stringMap(meta.labels, 'labels');
    const annotations = stringMap(meta.annotations, 'annotations');
    if (meta.name !== undefined && meta.name !== null && typeof meta.name !== 'string') throw new Error('failed to parse namespace template: metadata.name must be a string');
    return {
      ...(typeof meta.name === 'string' && meta.name !== '' ? { name: meta.name } : {}),
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    };
  }

  /**
   * The Namespace object operator-controller's main branch adds to the rendered set for a system-managed namespace
   * (`render/namespace.go` `BuildNamespaceObject`): `namespaceName`, with the template's labels and annotations when it
   * has any (its name is overridden), no `spec` or `status`.
   */
  public static namespaceObject(namespaceName: string, template?: OlmV1NamespaceTemplate): any {
    return {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: namespaceName,
        ...(template?.labels && Object.keys(template.labels).length > 0 ? { labels: { ...template.labels } } : {}),
        ...(template?.annotations && Object.keys(template.annotations).length > 0 ? { annotations: { ...template.annotations } } : {}),
      },
    };
  }

  /**
   * render/namespace.go `defaultInstallNamespace` (after PR #2925): `<packageName>-system` when the package name is
   * already a short DNS-1123 label; otherwise the name normalised (lower case, each run of other characters one
   * `-`), cut to 47 characters, plus the first 8 characters of `hashutil.DeepHashObject(packageName)`:
   * `<base>-<hash>-system` (`<hash>-system` when nothing of the name is left).
   */
  public static defaultInstallNamespace(packageName: string): string {
    if (typeof packageName !== 'string') throw new Error(`RegistryV1Render.defaultInstallNamespace: packageName must be a string, got ${oneLine(packageName)}`);
    const suffix = 'system';
    const hashLength = 8;
    const maxBase = MAX_NAMESPACE_NAME_LENGTH - suffix.length - hashLength - 2;
    let base = sanitizeDns1123Label(packageName);
    if (base !== '' && base === packageName && base.length + 1 + suffix.length <= MAX_NAMESPACE_NAME_LENGTH) return `${base}-${suffix}`;
    const hash = deepHashOfJson(goString(packageName)).slice(0, hashLength);
    if (base.length > maxBase) base = base.slice(0, maxBase);
    base = base.replace(/^-+|-+$/g, '');
    return base === '' ? `${hash}-${suffix}` : `${base}-${hash}-${suffix}`;
  }

  /**
   * `util.ObjectNameForBaseAndSuffix`: `<base>-<suffix>`, the base cut so the name fits 63 characters.
   */
  public static objectNameForBaseAndSuffix(base: string, suffix: string): string {
    if (base.length + suffix.length > MAX_NAME_LENGTH) base = base.slice(0, MAX_NAME_LENGTH - suffix.length - 1);
    return `${base}-${suffix}`;
  }

  /**
   * `render.DefaultUniqueNameGenerator` for a CSV permission: `hash.DeepHashObject` (base36 of the SHA-224 of Go's
   * JSON encoding, with the encoder's trailing newline) of the permission, suffixed to `<csv>-<serviceAccount>`.
   */
  public static permissionName(csvName: string, serviceAccountName: string, rules: any[] | undefined): string {
    const digest = crypto.createHash('sha224').update(`${goPermission(serviceAccountName, rules)}\n`).digest('hex');
    return RegistryV1Render.objectNameForBaseAndSuffix(`${csvName}-${serviceAccountName || 'default'}`, BigInt(`0x${digest}`).toString(36));
  }

  /**
   * Why operator-controller would refuse to install `bundle` for a ClusterExtension with `options`, in its own
   * words, or undefined. Order as upstream: dependency properties (resolution), then `RegistryV1ManifestProvider.Get`,
   * then the renderer's validators and target namespaces.
   */
  public static refusal(bundle: OperatorBundle, options: RegistryV1RenderOptions): string | undefined {
    try {
      RegistryV1Render.forExtension(bundle, options);
      return undefined;
    } catch (e: any) {
      return String(e.message).replace(/^RegistryV1Render: bundle [^:]*: /, '');
    }
  }

  /** What operator-controller creates for a ClusterExtension. @throws Error with operator-controller's reason when it refuses the bundle */
  public static forExtension(given: OperatorBundle, options: RegistryV1RenderOptions): RegistryV1Render {
    const fail = (why: string) => new Error(`RegistryV1Render: bundle ${given.name}: ${why}`);
    const version = options.operatorControllerVersion ?? RegistryV1Render.DEFAULT_OPERATOR_CONTROLLER_VERSION;
    const versionProblem = RegistryV1Render.versionProblem(version);
    if (versionProblem) throw fail(`RegistryV1RenderOptions.operatorControllerVersion: ${versionProblem}`);
    // resolve/validation.go NoDependencyValidation (the catalog bundle's properties: metadata/dependencies.yaml and
    // the CSV's required CRDs, as operator-registry turns them into properties)
    const props = [...(options.catalogPropertyTypes ?? []), ...given.dependencyTypes, ...(given.requiredCrds.length > 0 ? ['olm.gvk.required'] : [])];
    const dep = props.find((p) => DEPENDENCY_PROPERTIES.includes(p));
    if (dep) throw fail(`bundle "${given.name}" has a dependency declared via property "${dep}" which is currently not supported`);
    // the bundle as operator-controller's bundle source reads it (every file, every document)
    const bundle = RegistryV1Render.olmV1Reading(given, fail);
    // applier/provider.go RegistryV1ManifestProvider.Get
    if (bundle.ownedApiServices.length > 0) throw fail('unsupported bundle: apiServiceDefintions are not supported');
    const provider = options.certificateProvider ?? OlmV1CertificateProvider.CERT_MANAGER;
    if (bundle.webhookDefinitions.length > 0 && provider === OlmV1CertificateProvider.NONE) {
      throw fail('unsupported bundle: webhookDefinitions are not supported');
    }
    const modes = new Set(bundle.installModes.filter((m) => m.supported).map((m) => m.type as string));
    const singleOwn = options.singleOwnNamespaceInstallSupport ?? false;
    if (!singleOwn && !modes.has('AllNamespaces')) throw fail('unsupported bundle: bundle does not support AllNamespaces install mode');
    if (!['AllNamespaces', 'SingleNamespace', 'OwnNamespace'].some((m) => modes.has(m))) {
      throw fail('unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes');
    }
    const installNamespace = RegistryV1Render.installNamespaceOf(given, bundle, options, version, fail);
    const watchNamespace = RegistryV1Render.configuredWatchNamespace(bundle, options, installNamespace, fail);
    const rendered = RegistryV1Render.render(bundle, installNamespace, {
      targetNamespaces: watchNamespace !== undefined ? [watchNamespace] : undefined,
      certificateProvider: provider,
      deploymentConfig: options.deploymentConfig ?? undefined,
    });
    // generators.go renders clientConfig.service.port from the definition's containerPort, 0 when unset: the API
    // server refuses 0 (apiserver admissionregistration validation: must be between 1 and 65535), so the install fails
    const portless = (bundle.csv?.spec?.webhookdefinitions ?? []).filter((w: any) => !(webhookPort(w) > 0));
    if (portless.length > 0) {
      const what = portless.map((w: any) => `${String(w.type)} ${JSON.stringify(String(w.generateName))}`).join(', ');
      throw fail(`the API server would refuse what operator-controller renders: webhook definition(s) ${what} have no containerPort, so the rendered `
        + 'clientConfig.service.port is 0 (generators.go: Port: &wh.ContainerPort; only the Service port defaults to 443) and the API server '
        + 'requires a port between 1 and 65535 (clientConfig.service.port: Invalid value: 0). Fix: the bundle must set containerPort in spec.webhookdefinitions');
    }
    return rendered;
  }

  /** `registryv1.Renderer.Render(bundle, installNamespace, opts...)`. @throws Error with the renderer's reason */
  public static render(given: OperatorBundle, installNamespace: string, options: RegistryV1RendererOptions = {}): RegistryV1Render {
    const fail = (why: string) => new Error(`RegistryV1Render: bundle ${given.name}: ${why}`);
    const bundle = RegistryV1Render.olmV1Reading(given, fail);
    const errors = RegistryV1Validators.validate(RegistryV1Validators.contentsOf(bundle));
    if (errors.length > 0) throw fail(errors.join('\n'));
    const modes = new Set(bundle.installModes.filter((m) => m.supported).map((m) => m.type as string));
    const targets = options.targetNamespaces ?? (modes.has('AllNamespaces') ? [''] : []);
    const targetError = RegistryV1Render.targetNamespacesProblem(modes, installNamespace, targets);
    if (targetError) throw fail(`invalid option(s): invalid target namespaces [${targets.join(' ')}]: ${targetError}`);
    const provider = options.certificateProvider ?? OlmV1CertificateProvider.NONE;
    return new RegistryV1Render(bundle, installNamespace, targets, provider, options.deploymentConfig);
  }

  /** The install namespace: the caller's, or (after PR #2925) the one the renderer resolves from the bundle. */
  private static installNamespaceOf(given: OperatorBundle, bundle: OperatorBundle, options: RegistryV1RenderOptions, version: string,
    fail: (why: string) => Error): string {
    if (options.installNamespace !== undefined && options.installNamespace !== null) return options.installNamespace;
    if (version === 'v1.11.0') throw fail('no install namespace: operator-controller v1.11.0 needs the ClusterExtension\'s spec.namespace (RegistryV1RenderOptions.installNamespace)');
    try {
      return RegistryV1Render.systemManagedNamespace(bundle.packageName ?? given.packageName ?? '', bundle.csv?.metadata?.annotations ?? {});
    } catch (e) {
      throw fail((e as Error).message);
    }
  }

  /**
   * The watched namespace operator-controller v1.11.0 renders for the options, or undefined (AllNamespaces): what
   * each CRD channel does with `spec.config` (applier/provider.go `RegistryV1ManifestProvider.Get` and
   * `extractBundleConfigOptions`, rukpak/bundle/registryv1.go `GetConfigSchema`, config/config.go). The standard
   * CRD has no `spec.config`: the API server prunes it and the bundle installs for all namespaces, more than was
   * asked, so that is an error here. The experimental CRD: the inline config is validated whenever present (with or
   * without the SingleOwnNamespaceInstallSupport gate) against the bundle's config schema: `watchNamespace` exists
   * when the bundle supports OwnNamespace or SingleNamespace (required without AllNamespaces; equal to the install
   * namespace for OwnNamespace only, different for SingleNamespace only); `deploymentConfig` only with its gate.
   */
  private static configuredWatchNamespace(bundle: OperatorBundle, options: RegistryV1RenderOptions, installNamespace: string,
    fail: (why: string) => Error): string | undefined {
    const singleOwn = options.singleOwnNamespaceInstallSupport ?? false;
    const deploymentConfigGate = options.deploymentConfigSupport ?? false;
    const channel = options.crdChannel ?? (singleOwn || deploymentConfigGate ? OlmV1CrdChannel.EXPERIMENTAL : OlmV1CrdChannel.STANDARD);
    const watch = options.watchNamespace;
    const hasDeploymentConfig = options.deploymentConfig !== undefined && options.deploymentConfig !== null;
    const hasConfig = watch !== undefined || hasDeploymentConfig;
    if (channel === OlmV1CrdChannel.STANDARD) {
      if (!hasConfig) return undefined;
      const what = watch !== undefined
        ? `watchNamespace ${JSON.stringify(watch)}: the API server prunes it and operator-controller installs the bundle for ALL namespaces (its permissions promoted to ClusterRoles), not for ${JSON.stringify(watch)}`
        : 'deploymentConfig: the API server prunes it and operator-controller renders the Deployments without it';
      throw fail(`the standard ClusterExtension CRD has no spec.config, so a ClusterExtension asking for ${what}. `
        + 'Fix: declare the experimental CRDs (crdChannel: OlmV1CrdChannel.EXPERIMENTAL) if the cluster runs them, or drop spec.config');
    }
    if (!singleOwn && !hasConfig) return undefined;
    const invalid = (why: string) => fail(`invalid ClusterExtension configuration: invalid configuration: ${why}`);
    const modes = supportedModes(bundle);
    const own = modes.has('OwnNamespace');
    const single = modes.has('SingleNamespace');
    const configurable = own || single;
    const problems: string[] = [];
    if (watch !== undefined && !configurable) problems.push('unknown field "watchNamespace"');
    if (hasDeploymentConfig && !deploymentConfigGate) problems.push('unknown field "deploymentConfig"');
    if (watch === undefined && configurable && !modes.has('AllNamespaces')) problems.push('required field "watchNamespace" is missing');
    if (watch !== undefined && configurable) {
      if (typeof watch !== 'string' || watch === '' || watch.length > 63 || !DNS1123_LABEL.test(watch)) {
        problems.push('invalid value for field "watchNamespace"');
      } else if (own && !single && watch !== installNamespace) {
        problems.push(`invalid format for field "watchNamespace": invalid value ${JSON.stringify(watch)}: must be ${JSON.stringify(installNamespace)} (the namespace where the operator is installed) because this operator only supports OwnNamespace install mode`);
      } else if (single && !own && watch === installNamespace) {
        problems.push(`invalid format for field "watchNamespace": invalid value ${JSON.stringify(watch)}: must be different from ${JSON.stringify(installNamespace)} (the install namespace) because this operator uses SingleNamespace install mode to watch a different namespace`);
      }
    }
    // config/config.go formatSchemaError: one error as is, several as a list
    if (problems.length === 1) throw invalid(problems[0]);
    if (problems.length > 1) throw invalid(`multiple errors found:\n  - ${problems.join('\n  - ')}`);
    return watch !== undefined && configurable ? watch : undefined;
  }

  /** `bundle.forOlmV1()`, its refusal as the renderer's error. */
  private static olmV1Reading(bundle: OperatorBundle, fail: (why: string) => Error): OperatorBundle {
    try {
      return bundle.forOlmV1();
    } catch (e) {
      throw fail((e as Error).message);
    }
  }

  /** render.go validateTargetNamespaces. */
  private static targetNamespacesProblem(modes: Set<string>, installNamespace: string, targets: string[]): string | undefined {
    const sorted = [...modes].sort().join(' ');
    const set = new Set(targets);
    if (set.size === 0) return modes.has('MultiNamespace') ? 'at least one target namespace must be specified' : 'exactly one target namespace must be specified';
    if (set.size === 1 && set.has('')) return modes.has('AllNamespaces') ? undefined : `supported install modes [${sorted}] do not support targeting all namespaces`;
    if (set.size === 1) {
      if (targets[0] === installNamespace) return modes.has('OwnNamespace') ? undefined : `supported install modes [${sorted}] do not support targeting own namespace`;
      if (modes.has('SingleNamespace')) return undefined;
    } else {
      if (!modes.has('OwnNamespace') && set.has(installNamespace)) return `supported install modes [${sorted}] do not support targeting own namespace`;
      if (modes.has('MultiNamespace') && !set.has('')) return undefined;
    }
    return `supported install modes [${sorted}] do not support target namespaces [${targets.join(' ')}]`;
  }

  /** The install namespace. */
  public readonly installNamespace: string;
  /** The target namespaces (`['']`: AllNamespaces). */
  public readonly targetNamespaces: string[];
  /** Every object, in the renderer's generator order. */
  public readonly objects: any[];

  private constructor(
    bundle: OperatorBundle, installNamespace: string, targets: string[], provider: OlmV1CertificateProvider, deploymentConfig?: any,
  ) {
    this.installNamespace = installNamespace;
    this.targetNamespaces = targets;
    const spec = bundle.csv?.spec?.install?.spec ?? {};
    const permissions: any[] = spec.permissions ?? [];
    const clusterPermissions: any[] = spec.clusterPermissions ?? [];
    const allNamespaces = targets.length === 1 && targets[0] === '';
    const sa = (p: any) => (p.serviceAccountName ? String(p.serviceAccountName) : 'default');
    const saSubject = (p: any) => ({ kind: 'ServiceAccount', name: sa(p), namespace: installNamespace });
    const objs: any[] = [];

    // BundleCSVServiceAccountGenerator (upstream iterates a Go set: order unspecified; sorted here)
    const saNames = [...new Set([...permissions, ...clusterPermissions].map(sa))].filter((n) => n !== 'default').sort();
    for (const name of saNames) objs.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: installNamespace } });

    // BundleCSVPermissionsGenerator
    if (!allNamespaces) {
      for (const ns of targets) {
        for (const p of permissions) {
          const name = RegistryV1Render.permissionName(bundle.name, sa(p), p.rules);
          objs.push({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: { name, namespace: ns }, rules: (p.rules ?? []).map(cleanRule) });
          objs.push({
            apiVersion: `${RBAC_GROUP}/v1`,
            kind: 'RoleBinding',
            metadata: { name, namespace: ns },
            roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name },
            subjects: [saSubject(p)],
          });
        }
      }
    }
    // BundleCSVClusterPermissionsGenerator: in AllNamespaces, permissions are promoted, plus namespaces get/list/watch
    const promoted = allNamespaces
      ? permissions.map((p) => ({ ...p, rules: [...(p.rules ?? []), { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] }] }))
      : [];
    for (const p of [...clusterPermissions, ...promoted]) {
      const name = RegistryV1Render.permissionName(bundle.name, sa(p), p.rules);
      objs.push({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name }, rules: (p.rules ?? []).map(cleanRule) });
      objs.push({
        apiVersion: `${RBAC_GROUP}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name },
        subjects: [saSubject(p)],
      });
    }

    const certFor = (deploymentName: string) => {
      const serviceName = RegistryV1Render.objectNameForBaseAndSuffix(deploymentName.replace(/\./g, '-'), 'service');
      return { serviceName, certName: RegistryV1Render.objectNameForBaseAndSuffix(serviceName, 'cert') };
    };
    // CertificateProvider.InjectCABundle: certmanager.go / openshift_serviceca.go
    const inject = (obj: any, deploymentName: string) => {
      const add = (a: Record<string, string>) => { obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), ...a }; };
      if (provider === OlmV1CertificateProvider.CERT_MANAGER && obj.kind !== 'Service') {
        add({ 'cert-manager.io/inject-ca-from': `${installNamespace}/${certFor(deploymentName).certName}` });
      } else if (provider === OlmV1CertificateProvider.OPENSHIFT_SERVICE_CA) {
        add(obj.kind === 'Service'
          ? { 'service.beta.openshift.io/serving-cert-secret-name': certFor(deploymentName).certName }
          : { 'service.beta.openshift.io/inject-cabundle': 'true' });
      }
      return obj;
    };
    const rawWebhooks: any[] = bundle.csv?.spec?.webhookdefinitions ?? [];

    // BundleCRDGenerator: conversion webhooks point the CRD at the install namespace's Service
    for (const crd of bundle.crds) {
      const copy = JSON.parse(JSON.stringify(crd.raw));
      const wh = rawWebhooks.find((w) => w.type === 'ConversionWebhook' && (w.conversionCRDs ?? []).includes(crd.name));
      if (wh) {
        copy.spec.conversion = {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { service: { namespace: installNamespace, name: certFor(wh.deploymentName).serviceName, path: wh.webhookPath ?? '/', port: webhookPort(wh) } },
            conversionReviewVersions: wh.admissionReviewVersions,
          },
        };
        inject(copy, wh.deploymentName);
      }
      objs.push(copy);
    }
    // BundleAdditionalResourcesGenerator: namespaced objects move to the install namespace; nothing else changes
    // (a RoleBinding's subjects and roleRef stay as the bundle wrote them)
    for (const o of bundle.objects) {
      const copy = JSON.parse(JSON.stringify(o.raw));
      if (RegistryV1Validators.isNamespacedKind(o.kind)) copy.metadata = { ...(copy.metadata ?? {}), namespace: installNamespace };
      objs.push(copy);
    }
    // BundleCSVDeploymentGenerator (without the certificate volumes and deploymentConfig details)
    const csvAnnotations = bundle.csv?.metadata?.annotations ?? {};
    for (const d of spec.deployments ?? []) {
      const depSpec = JSON.parse(JSON.stringify(d.spec ?? {}));
      depSpec.template = depSpec.template ?? {};
      depSpec.template.metadata = depSpec.template.metadata ?? {};
      depSpec.template.metadata.annotations = {
        ...csvAnnotations,
        ...(depSpec.template.metadata.annotations ?? {}),
        'olm.targetNamespaces': targets.join(','),
        'olm.operatorNamespace': installNamespace,
      };
      depSpec.revisionHistoryLimit = 1;
      if (provider !== OlmV1CertificateProvider.NONE && rawWebhooks.some((w) => w.deploymentName === d.name)) {
        ensureCertVolumes(depSpec, certFor(d.name).certName);
      }
      const deployment: any = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: d.name, namespace: installNamespace, ...(d.label ? { labels: d.label } : {}) }, spec: depSpec };
      if (deploymentConfig) applyDeploymentConfig(deployment, JSON.parse(JSON.stringify(deploymentConfig)));
      objs.push(deployment);
    }
    // BundleValidatingWebhookResourceGenerator, BundleMutatingWebhookResourceGenerator
    const namespaceSelector = targets.length > 0 && !targets.includes('')
      ? { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: targets }] } : undefined;
    for (const [type, kind] of [['ValidatingAdmissionWebhook', 'ValidatingWebhookConfiguration'], ['MutatingAdmissionWebhook', 'MutatingWebhookConfiguration']]) {
      for (const wh of rawWebhooks.filter((w) => w.type === type)) {
        const name = String(wh.generateName).replace(/-$/, '');
        const hook: any = { name, admissionReviewVersions: wh.admissionReviewVersions };
        for (const k of ['rules', 'failurePolicy', 'matchPolicy', 'objectSelector', 'sideEffects', 'timeoutSeconds', ...(kind.startsWith('Mutating') ? ['reinvocationPolicy'] : [])]) {
          if (wh[k] !== undefined && wh[k] !== null) hook[k] = wh[k];
        }
        const service = { namespace: installNamespace, name: certFor(wh.deploymentName).serviceName };
        hook.clientConfig = { service: { ...service, ...(wh.webhookPath ? { path: wh.webhookPath } : {}), port: webhookPort(wh) } };
        if (namespaceSelector) hook.namespaceSelector = namespaceSelector;
        // upstream sets metadata.namespace on these cluster-scoped objects too (the API server ignores it)
        objs.push(inject({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name, namespace: installNamespace }, webhooks: [hook] }, wh.deploymentName));
      }
    }
    // BundleDeploymentServiceResourceGenerator
    const webhookDeployments = new Set(rawWebhooks.map((w) => String(w.deploymentName)));
    for (const d of spec.deployments ?? []) {
      if (!webhookDeployments.has(d.name)) continue;
      const ports = new Map<string, any>();
      for (const wh of rawWebhooks.filter((w) => w.deploymentName === d.name)) {
        const port = wh.containerPort > 0 ? wh.containerPort : 443;
        const targetPort = wh.targetPort ?? port;
        ports.set(`${port}/${targetPort}`, { name: String(port), port, targetPort });
      }
      const sorted = [...ports.values()].sort((a, b) => a.port - b.port || (typeof a.targetPort === 'number' ? a.targetPort : 0) - (typeof b.targetPort === 'number' ? b.targetPort : 0));
      const selector = d.spec?.selector?.matchLabels;
      objs.push(inject({ apiVersion: 'v1', kind: 'Service', metadata: { name: certFor(d.name).serviceName, namespace: installNamespace }, spec: { ports: sorted, ...(selector ? { selector } : {}) } }, d.name));
    }
    // CertProviderResourceGenerator (cert-manager): a self-signed Issuer and a Certificate per webhook Deployment
    if (provider === OlmV1CertificateProvider.CERT_MANAGER) {
      for (const dep of [...webhookDeployments].sort()) {
        const { serviceName, certName } = certFor(dep);
        const issuer = RegistryV1Render.objectNameForBaseAndSuffix(certName, 'selfsigned-issuer');
        objs.push({ apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: issuer, namespace: installNamespace }, spec: { selfSigned: {} } });
        const host = `${serviceName}.${installNamespace}`;
        objs.push({
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: certName, namespace: installNamespace },
          spec: {
            secretName: certName,
            commonName: host,
            usages: ['server auth'],
            dnsNames: [host, `${host}.svc`, `${host}.svc.cluster.local`],
            issuerRef: { name: issuer },
            duration: '17520h0m0s',
            renewBefore: '24h0m0s',
          },
        });
      }
    }
    this.objects = objs;
  }

  /** The RBAC objects and ServiceAccounts it creates (bundle manifests included), in render order. */
  public rbacObjects(): any[] {
    return this.objects.filter((o) => ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind));
  }
}

/**
 * The suggested-namespace-template annotation's JSON as a Namespace object (`render/namespace.go`
 * `parseNamespaceTemplate`'s json.Unmarshal into a v1.Namespace).
 * @throws Error `failed to parse namespace template: ...` (upstream's message) for JSON that is no object
 */
function namespaceTemplateJson(raw: string): any {
  let template: any;
  try {
    template = JSON.parse(raw);
  } catch (e) {
    throw new Error(`failed to parse namespace template: ${(e as Error).message}`);
  }
  if (template === null || typeof template !== 'object' || Array.isArray(template)) {
    throw new Error(`failed to parse namespace template: json: cannot unmarshal ${Array.isArray(template) ? 'array' : typeof template} into Go value of type v1.Namespace`);
  }
  return template;
}
