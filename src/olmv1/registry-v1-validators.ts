/**
 * The bundle validators operator-controller v1.11.0's registry+v1 renderer runs before it renders anything:
 * `registryv1.BundleValidator` (`internal/operator-controller/rukpak/render/registryv1/registryv1.go`), each check
 * ported from `internal/operator-controller/rukpak/render/registryv1/validators/validator.go` with its messages and
 * error order. Pure: works on the decoded JSON of the bundle, as upstream's `bundle.RegistryV1`.
 */
import { OperatorBundle } from '../bundle/operator-bundle';

/** The parts of a registry+v1 bundle the validators read (upstream `bundle.RegistryV1`), as decoded JSON. */
export interface RegistryV1Contents {
  /** `PackageName` (from the bundle's annotations). */
  readonly packageName: string;
  /** The ClusterServiceVersion object. */
  readonly csv: any;
  /** The CustomResourceDefinition objects. */
  readonly crds: any[];
  /** Every other object of the bundle (`Others`). */
  readonly others: any[];
}

/**
 * operator-registry `pkg/lib/bundle/supported_resources.go`: kinds a bundle may ship, and whether they are
 * namespaced (as that table says: VerticalPodAutoscaler counts as cluster-scoped there).
 */
const SUPPORTED_KINDS: Record<string, boolean> = {
  ClusterServiceVersion: true,
  CustomResourceDefinition: false,
  ClusterRole: false,
  ClusterRoleBinding: false,
  Service: true,
  ServiceAccount: true,
  Role: true,
  RoleBinding: true,
  PrometheusRule: true,
  ServiceMonitor: true,
  Secret: true,
  ConfigMap: true,
  PodDisruptionBudget: true,
  PriorityClass: false,
  VerticalPodAutoscaler: false,
  ConsoleYAMLSample: false,
};

const FORBIDDEN_WEBHOOK_RULE_API_GROUPS: ReadonlySet<string> = new Set(['olm.operatorframework.io', '*']);
const FORBIDDEN_ADMISSION_RESOURCES: ReadonlySet<string> = new Set(['*', 'mutatingwebhookconfiguration', 'mutatingwebhookconfigurations', 'validatingwebhookconfiguration', 'validatingwebhookconfigurations']);

// k8s.io/apimachinery/pkg/util/validation/validation.go IsDNS1123Subdomain
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_ERROR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const list = (x: unknown): any[] => (Array.isArray(x) ? x : []);
/** Go's sort order on strings (bytes; UTF-16 code units agree for the ASCII names involved). */
const sorted = (xs: Iterable<string>): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
/** Go's %q for the names involved. */
const q = (s: string): string => JSON.stringify(s);

/** Refuses what is not an object (a one-line Error instead of a TypeError on the first field). */
function contents(rv1: unknown, method: string): void {
  if (typeof rv1 !== 'object' || rv1 === null || Array.isArray(rv1)) {
    throw new Error(`RegistryV1Validators.${method}: rv1 must be an object { packageName, csv, crds, others } (RegistryV1Validators.contentsOf(bundle)), got ${Array.isArray(rv1) ? 'a list' : rv1 === null ? 'null' : typeof rv1}`);
  }
}

function deployments(rv1: RegistryV1Contents): any[] {
  return list(rv1.csv?.spec?.install?.spec?.deployments);
}
function webhooks(rv1: RegistryV1Contents): any[] {
  return list(rv1.csv?.spec?.webhookdefinitions);
}
function duplicates(names: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) dup.add(n);
    seen.add(n);
  }
  return sorted(dup);
}

/** Each of operator-controller v1.11.0's registry+v1 bundle validators (`validators/validator.go`). */
export class RegistryV1Validators {
  /** The names of `registryv1.BundleValidator`'s checks, in the order it runs them. */
  public static readonly NAMES: string[] = [
    'CheckDeploymentSpecUniqueness',
    'CheckDeploymentNameIsDNS1123SubDomain',
    'CheckCRDResourceUniqueness',
    'CheckOwnedCRDExistence',
    'CheckPackageNameNotEmpty',
    'CheckConversionWebhookSupport',
    'CheckWebhookDeploymentReferentialIntegrity',
    'CheckWebhookNameUniqueness',
    'CheckWebhookNameIsDNS1123SubDomain',
    'CheckConversionWebhookCRDReferenceUniqueness',
    'CheckConversionWebhooksReferenceOwnedCRDs',
    'CheckWebhookRules',
    'CheckObjectSupport',
  ];

  /** The contents of a loaded bundle, as the validators see them. */
  public static contentsOf(bundle: OperatorBundle): RegistryV1Contents {
    if (!(bundle instanceof OperatorBundle)) throw new Error(`RegistryV1Validators.contentsOf: bundle must be an OperatorBundle (OperatorBundle.fromDirectory), got ${typeof bundle}`);
    return { packageName: bundle.packageName ?? '', csv: bundle.csv, crds: bundle.crds.map((c) => c.raw), others: bundle.objects.map((o) => o.raw) };
  }

  /** `render.BundleValidator.Validate`: every check's errors, in `NAMES` order (upstream joins them with newlines). */
  public static validate(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'validate');
    return RegistryV1Validators.NAMES.flatMap((n) => RegistryV1Validators.run(n, rv1));
  }

  /** Runs one check by its upstream name. @throws Error when `name` is not one of `NAMES` */
  public static run(name: string, rv1: RegistryV1Contents): string[] {
    const checks: Record<string, (r: RegistryV1Contents) => string[]> = {
      CheckDeploymentSpecUniqueness: RegistryV1Validators.checkDeploymentSpecUniqueness,
      CheckDeploymentNameIsDNS1123SubDomain: RegistryV1Validators.checkDeploymentNameIsDns1123SubDomain,
      CheckCRDResourceUniqueness: RegistryV1Validators.checkCrdResourceUniqueness,
      CheckOwnedCRDExistence: RegistryV1Validators.checkOwnedCrdExistence,
      CheckPackageNameNotEmpty: RegistryV1Validators.checkPackageNameNotEmpty,
      CheckConversionWebhookSupport: RegistryV1Validators.checkConversionWebhookSupport,
      CheckWebhookDeploymentReferentialIntegrity: RegistryV1Validators.checkWebhookDeploymentReferentialIntegrity,
      CheckWebhookNameUniqueness: RegistryV1Validators.checkWebhookNameUniqueness,
      CheckWebhookNameIsDNS1123SubDomain: RegistryV1Validators.checkWebhookNameIsDns1123SubDomain,
      CheckConversionWebhookCRDReferenceUniqueness: RegistryV1Validators.checkConversionWebhookCrdReferenceUniqueness,
      CheckConversionWebhooksReferenceOwnedCRDs: RegistryV1Validators.checkConversionWebhooksReferenceOwnedCrds,
      CheckWebhookRules: RegistryV1Validators.checkWebhookRules,
      CheckObjectSupport: RegistryV1Validators.checkObjectSupport,
    };
    const check = typeof name === 'string' && Object.prototype.hasOwnProperty.call(checks, name) ? checks[name] : undefined;
    contents(rv1, 'run');
    if (!check) throw new Error(`RegistryV1Validators.run: unknown validator ${typeof name === 'string' ? JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name) : `(a ${typeof name})`}; use one of ${RegistryV1Validators.NAMES.join(', ')}`);
    return check(rv1);
  }

  /** operator-registry `bundle.IsSupported`: whether a bundle may ship objects of `kind`. */
  public static isSupportedKind(kind: string): boolean {
    return Object.prototype.hasOwnProperty.call(SUPPORTED_KINDS, kind);
  }

  /** Whether operator-registry's table counts `kind` as namespaced (false for unsupported kinds). */
  public static isNamespacedKind(kind: string): boolean {
    return RegistryV1Validators.isSupportedKind(kind) && SUPPORTED_KINDS[kind];
  }

  /** apimachinery `validation.IsDNS1123Subdomain`: its error strings (empty when valid). */
  public static isDns1123Subdomain(value: string): string[] {
    if (typeof value !== 'string') throw new Error(`RegistryV1Validators.isDns1123Subdomain: value must be a string, got ${typeof value}`);
    const errs: string[] = [];
    if (Buffer.byteLength(value, 'utf8') > 253) errs.push('must be no more than 253 characters');
    if (!DNS1123_SUBDOMAIN.test(value)) errs.push(DNS1123_SUBDOMAIN_ERROR);
    return errs;
  }

  /** CheckDeploymentSpecUniqueness: strategy deployment names are unique; errors sorted by name. */
  public static checkDeploymentSpecUniqueness(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkDeploymentSpecUniqueness');
    return duplicates(deployments(rv1).map((d) => str(d?.name)))
      .map((d) => `cluster service version contains duplicate strategy deployment spec '${d}'`);
  }

  /** CheckDeploymentNameIsDNS1123SubDomain: strategy deployment names are DNS-1123 subdomains; sorted by name. */
  public static checkDeploymentNameIsDns1123SubDomain(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkDeploymentNameIsDns1123SubDomain');
    const bad = new Map<string, string[]>();
    for (const d of deployments(rv1)) {
      const errs = RegistryV1Validators.isDns1123Subdomain(str(d?.name));
      if (errs.length > 0) bad.set(str(d?.name), sorted(errs));
    }
    return sorted(bad.keys()).map((n) => `invalid cluster service version strategy deployment name '${n}': ${bad.get(n)!.join(', ')}`);
  }

  /** CheckCRDResourceUniqueness: CRD names are unique; sorted by name. */
  public static checkCrdResourceUniqueness(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkCrdResourceUniqueness');
    return duplicates(list(rv1.crds).map((c) => str(c?.metadata?.name)))
      .map((c) => `bundle contains duplicate custom resource definition '${c}'`);
  }

  /** CheckOwnedCRDExistence: every owned CRD of the CSV is in the bundle; sorted by name. */
  public static checkOwnedCrdExistence(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkOwnedCrdExistence');
    const names = new Set(list(rv1.crds).map((c) => str(c?.metadata?.name)));
    const missing = new Set(list(rv1.csv?.spec?.customresourcedefinitions?.owned).map((o) => str(o?.name)).filter((n) => !names.has(n)));
    return sorted(missing).map((n) => `cluster service definition references owned custom resource definition '${n}' not found in bundle`);
  }

  /** CheckPackageNameNotEmpty. */
  public static checkPackageNameNotEmpty(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkPackageNameNotEmpty');
    return typeof rv1.packageName === 'string' && rv1.packageName !== '' ? [] : ['package name is empty'];
  }

  /** CheckConversionWebhookSupport: conversion webhooks only when AllNamespaces is the only supported install mode. */
  public static checkConversionWebhookSupport(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkConversionWebhookSupport');
    const names = webhooks(rv1).filter((w) => w?.type === 'ConversionWebhook').map((w) => str(w?.generateName));
    if (names.length === 0) return [];
    const modes = new Set(list(rv1.csv?.spec?.installModes).filter((m) => m?.supported === true).map((m) => str(m?.type)));
    if (modes.size === 1 && modes.has('AllNamespaces')) return [];
    return names.map((n) => `bundle contains conversion webhook ${q(n)} and supports install modes [${sorted(modes).join(' ')}] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode`);
  }

  /** CheckWebhookDeploymentReferentialIntegrity: sorted by deployment name, webhook type and webhook name. */
  public static checkWebhookDeploymentReferentialIntegrity(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkWebhookDeploymentReferentialIntegrity');
    const byDeployment = new Map<string, any[]>();
    for (const w of webhooks(rv1)) byDeployment.set(str(w?.deploymentName), [...(byDeployment.get(str(w?.deploymentName)) ?? []), w]);
    for (const d of deployments(rv1)) byDeployment.delete(str(d?.name));
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return sorted(byDeployment.keys()).flatMap((dep) => byDeployment.get(dep)!
      .sort((a, b) => cmp(str(a?.type), str(b?.type)) || cmp(str(a?.generateName), str(b?.generateName)))
      .map((w) => `webhook of type '${str(w?.type)}' with name '${str(w?.generateName)}' references non-existent deployment '${dep}'`));
  }

  /** CheckWebhookNameUniqueness: names unique per webhook type; sorted by type and name. */
  public static checkWebhookNameUniqueness(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkWebhookNameUniqueness');
    const types = sorted(new Set(webhooks(rv1).map((w) => str(w?.type))));
    return types.flatMap((t) => duplicates(webhooks(rv1).filter((w) => str(w?.type) === t).map((w) => str(w?.generateName)))
      .map((n) => `duplicate webhook '${n}' of type '${t}'`));
  }

  /** CheckWebhookNameIsDNS1123SubDomain: webhook names are DNS-1123 subdomains; sorted by type and name. */
  public static checkWebhookNameIsDns1123SubDomain(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkWebhookNameIsDns1123SubDomain');
    const bad = new Map<string, Map<string, string[]>>();
    for (const w of webhooks(rv1)) {
      const errs = RegistryV1Validators.isDns1123Subdomain(str(w?.generateName));
      if (errs.length === 0) continue;
      const byName = bad.get(str(w?.type)) ?? new Map<string, string[]>();
      byName.set(str(w?.generateName), sorted(errs));
      bad.set(str(w?.type), byName);
    }
    return sorted(bad.keys()).flatMap((t) => sorted(bad.get(t)!.keys())
      .map((n) => `webhook of type '${t}' has invalid name '${n}': ${bad.get(t)!.get(n)!.join(',')}`));
  }

  /** CheckConversionWebhookCRDReferenceUniqueness: no CRD is converted by two conversion webhooks; sorted by CRD. */
  public static checkConversionWebhookCrdReferenceUniqueness(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkConversionWebhookCrdReferenceUniqueness');
    const byCrd = new Map<string, string[]>();
    for (const w of webhooks(rv1).filter((x) => x?.type === 'ConversionWebhook')) {
      for (const crd of list(w?.conversionCRDs).map(str)) byCrd.set(crd, [...(byCrd.get(crd) ?? []), str(w?.generateName)]);
    }
    return sorted([...byCrd.keys()].filter((c) => byCrd.get(c)!.length > 1))
      .map((c) => `conversion webhooks [${sorted(byCrd.get(c)!).join(',')}] reference same custom resource definition '${c}'`);
  }

  /** CheckConversionWebhooksReferenceOwnedCRDs: sorted by webhook name and CRD name. */
  public static checkConversionWebhooksReferenceOwnedCrds(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkConversionWebhooksReferenceOwnedCrds');
    const conversions = webhooks(rv1).filter((w) => w?.type === 'ConversionWebhook');
    if (conversions.length === 0) return [];
    const owned = new Set(list(rv1.csv?.spec?.customresourcedefinitions?.owned).map((o) => str(o?.name)));
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...conversions].sort((a, b) => cmp(str(a?.generateName), str(b?.generateName))).flatMap((w) =>
      sorted(list(w?.conversionCRDs).map(str)).filter((c) => !owned.has(c))
        .map((c) => `conversion webhook '${str(w?.generateName)}' references custom resource definition '${c}' not owned bundle`));
  }

  /** CheckWebhookRules: admission webhooks may not match OLM's API group, '*', or webhook configurations. */
  public static checkWebhookRules(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkWebhookRules');
    const errs: string[] = [];
    for (const w of webhooks(rv1)) {
      if (w?.type === 'ConversionWebhook') continue;
      const name = str(w?.generateName);
      for (const rule of list(w?.rules)) {
        for (const group of list(rule?.apiGroups).map(str)) {
          if (FORBIDDEN_WEBHOOK_RULE_API_GROUPS.has(group)) {
            errs.push(`webhook ${q(name)} contains forbidden rule: admission webhook rules cannot reference API group ${q(group)}`);
          }
          if (group === 'admissionregistration.k8s.io') {
            for (const resource of list(rule?.resources).map(str)) {
              if (FORBIDDEN_ADMISSION_RESOURCES.has(resource.toLowerCase())) {
                errs.push(`webhook ${q(name)} contains forbidden rule: admission webhook rules cannot reference resource ${q(resource)} for API group ${q(group)}`);
              }
            }
          }
        }
      }
    }
    return errs;
  }

  /** CheckObjectSupport: the other objects are of kinds registry+v1 supports. */
  public static checkObjectSupport(rv1: RegistryV1Contents): string[] {
    contents(rv1, 'checkObjectSupport');
    return list(rv1.others).filter((o) => !RegistryV1Validators.isSupportedKind(str(o?.kind)))
      .map((o) => `unsupported resource ${q(str(o?.metadata?.name))} with kind ${q(str(o?.kind))}`);
  }
}
