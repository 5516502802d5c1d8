/**
 * An OLM operator bundle (registry+v1: a ClusterServiceVersion plus the other manifests) parsed into plain data.
 * Field meanings follow operator-framework/api `pkg/operators/v1alpha1/clusterserviceversion_types.go` and the
 * bundle format of operator-framework/operator-registry (`manifests/`, `metadata/annotations.yaml`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { InstallMode, InstallModes } from '../olm/install-modes';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';

/** One `permissions` / `clusterPermissions` entry of the CSV install strategy. */
export interface BundlePermission {
  /** The operator ServiceAccount the rules are granted to. */
  readonly serviceAccountName: string;
  /** The rules. */
  readonly rules: PolicyRule[];
}

/** One `spec.install.spec.deployments` entry. */
export interface BundleDeployment {
  /** Deployment name. */
  readonly name: string;
  /**
   * ServiceAccount of the pod template as OLM reads it: `spec.template.spec.serviceAccountName`, `default` when
   * unset (OLM `install/certresources.go` binds the cert resources to it). OLM ignores the deprecated alias
   * `spec.template.spec.serviceAccount` (the prometheus 0.56.3 bundle uses it), although the API server makes the
   * pod run as it.
   */
  readonly serviceAccountName: string;
  /** The raw Deployment spec. */
  readonly spec: any;
}

/** One `spec.customresourcedefinitions.owned` entry. */
export interface OwnedCrd {
  /** CRD name (`<plural>.<group>`). */
  readonly name: string;
  /** Served version. */
  readonly version: string;
  /** Kind. */
  readonly kind: string;
}

/** One `spec.apiservicedefinitions.owned` entry. */
export interface OwnedApiService {
  /** API group. */
  readonly group: string;
  /** API version. */
  readonly version: string;
  /** Kind. */
  readonly kind: string;
  /** Resource name (plural). */
  readonly name: string;
  /** Deployment that serves it. */
  readonly deploymentName: string;
  /** Container port (443 when unset, as OLM assumes). */
  readonly containerPort: number;
}

/** Webhook types of `spec.webhookdefinitions[].type`. */
export enum WebhookType {
  /** A ValidatingWebhookConfiguration. */
  VALIDATING = 'ValidatingAdmissionWebhook',
  /** A MutatingWebhookConfiguration. */
  MUTATING = 'MutatingAdmissionWebhook',
  /** A CRD conversion webhook. */
  CONVERSION = 'ConversionWebhook',
}

/** One `spec.webhookdefinitions` entry. */
export interface WebhookDefinition {
  /** Type. */
  readonly type: WebhookType;
  /** `generateName`. */
  readonly generateName: string;
  /** Deployment that serves it. */
  readonly deploymentName: string;
  /** Container port (443 when unset, as OLM assumes). */
  readonly containerPort: number;
  /**
   * Target port, as written (number or name), as a string.
   * @default - the container port
   */
  readonly targetPort?: string;
  /**
   * Webhook path.
   * @default - none
   */
  readonly webhookPath?: string;
  /** CRDs converted by a conversion webhook (empty for other types). */
  readonly conversionCrds: string[];
  /** Admission rules (raw `RuleWithOperations` objects). */
  readonly rules: any[];
  /** Admission review versions. */
  readonly admissionReviewVersions: string[];
}

/** A CustomResourceDefinition shipped in the bundle. */
export interface BundleCrd {
  /** Object name (`<plural>.<group>`). */
  readonly name: string;
  /** `apiextensions.k8s.io/v1` or `v1beta1`. */
  readonly apiVersion: string;
  /** `spec.group`. */
  readonly group: string;
  /** `spec.names.kind`. */
  readonly kind: string;
  /** `spec.scope`. */
  readonly scope: string;
  /** The raw object. */
  readonly raw: any;
}

/** Any other object of the bundle (Service, ConfigMap, ClusterRole, PrometheusRule, ...). */
export interface BundleObject {
  /** Kind. */
  readonly kind: string;
  /** apiVersion. */
  readonly apiVersion: string;
  /** `metadata.name` (or `generateName`). */
  readonly name: string;
  /** Where it came from (file name or catalog property). */
  readonly source: string;
  /** The raw object. */
  readonly raw: any;
}

/** Parsed registry+v1 bundle. Build one with the static factories. */
export class OperatorBundle {
  /**
   * Loads a registry+v1 bundle directory: every `.yaml`/`.yml`/`.json` file under `manifests/` (several documents
   * per file allowed) and `metadata/annotations.yaml` when present. YAML is read as YAML 1.2 (so an unquoted `=`
   * is a string, as in the prometheus bundle).
   */
  public static fromDirectory(dir: string): OperatorBundle {
    const manifestsDir = path.join(dir, 'manifests');
    if (!fs.existsSync(manifestsDir) || !fs.statSync(manifestsDir).isDirectory()) {
      throw new Error(`OperatorBundle.fromDirectory: '${dir}' has no 'manifests/' folder; a registry+v1 bundle keeps the CSV and the other objects in '<bundle>/manifests/'`);
    }
    const files = fs.readdirSync(manifestsDir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
    const docs: SourcedObject[] = [];
    for (const f of files) {
      const file = path.join(manifestsDir, f);
      docs.push(...parseYamlDocuments(fs.readFileSync(file, 'utf8'), file));
    }
    let annotations: Record<string, string> = {};
    const annotationsFile = path.join(dir, 'metadata', 'annotations.yaml');
    if (fs.existsSync(annotationsFile)) {
      const parsed = parseYamlDocuments(fs.readFileSync(annotationsFile, 'utf8'), annotationsFile);
      const first = parsed[0]?.obj;
      const a = isObject(first) ? first.annotations : undefined;
      if (a !== undefined && !isObject(a)) {
        throw new Error(`OperatorBundle: ${annotationsFile}: field 'annotations' must be a map of strings`);
      }
      annotations = stringMap(a ?? {});
    }
    return OperatorBundle.fromObjects(docs, annotations, `bundle directory ${dir}`);
  }

  /**
   * A bundle from a CSV as YAML text, with optional extra manifests (CRDs, Services, ...) as multi-document YAML.
   */
  public static fromCsvYaml(csvYaml: string, extraManifestsYaml?: string): OperatorBundle {
    const docs = parseYamlDocuments(csvYaml, 'CSV YAML');
    if (extraManifestsYaml !== undefined) docs.push(...parseYamlDocuments(extraManifestsYaml, 'extra manifests YAML'));
    return OperatorBundle.fromObjects(docs, {}, 'CSV YAML');
  }

  /**
   * A bundle from a CSV object (as parsed JSON/YAML), with optional extra objects.
   */
  public static fromCsvObject(csv: any, extraObjects?: any[]): OperatorBundle {
    const docs: SourcedObject[] = [{ obj: csv, source: 'CSV object' }];
    (extraObjects ?? []).forEach((o, i) => docs.push({ obj: o, source: `extra object [${i}]` }));
    return OperatorBundle.fromObjects(docs, {}, 'CSV object');
  }

  /**
   * A bundle from a file-based catalog `olm.bundle` entry that carries `olm.bundle.object` properties (base64 JSON
   * of each manifest, as `opm render` writes them). An entry with only `olm.csv.metadata` has no install strategy
   * (no permissions, no deployments): that is an error saying where to get the full bundle.
   */
  public static fromCatalogBundle(entry: any): OperatorBundle {
    return OperatorBundle.catalogBundle(entry);
  }

  /**
   * Reads a file-based catalog (YAML documents, or a JSON stream of objects) and loads the `olm.bundle` entry
   * named `bundleName` (see `fromCatalogBundle`).
   */
  public static fromCatalogFile(file: string, bundleName: string): OperatorBundle {
    const text = fs.readFileSync(file, 'utf8');
    const entries = file.endsWith('.json') ? parseJsonStream(text, file) : parseYamlDocuments(text, file).map((d) => d.obj);
    const bundles = entries.filter((e) => isObject(e) && e.schema === 'olm.bundle');
    const entry = bundles.find((e) => e.name === bundleName);
    if (entry === undefined) {
      const names = bundles.map((b) => String(b.name)).sort();
      throw new Error(`OperatorBundle.fromCatalogFile: ${file} has no olm.bundle named '${bundleName}'; it has: ${names.join(', ') || '(none)'}`);
    }
    return OperatorBundle.catalogBundle(entry, file);
  }

  /**
   * Every bundle of `packageName` in a file-based catalog file (YAML documents or a JSON stream), sorted by name:
   * the allowed versions of a package, for `InstallPreflight.checkVersions` and `InstallerPermissions.leastPrivilege`
   * (or a tenant subscription's `upgradeBundles`). Each entry must carry `olm.bundle.object` properties.
   */
  public static fromCatalogPackage(file: string, packageName: string): OperatorBundle[] {
    const text = fs.readFileSync(file, 'utf8');
    const entries = file.endsWith('.json') ? parseJsonStream(text, file) : parseYamlDocuments(text, file).map((d) => d.obj);
    const bundles = entries
      .filter((e) => isObject(e) && e.schema === 'olm.bundle' && e.package === packageName)
      .sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0));
    if (bundles.length === 0) {
      const packages = [...new Set(entries.filter((e) => isObject(e) && e.schema === 'olm.bundle').map((e) => String(e.package)))].sort();
      throw new Error(`OperatorBundle.fromCatalogPackage: ${file} has no olm.bundle of package '${packageName}'; it has bundles of: ${packages.join(', ') || '(none)'}`);
    }
    return bundles.map((entry) => OperatorBundle.catalogBundle(entry, file));
  }

  /** `fromCatalogBundle`, with the catalog file (when known) named in errors. */
  private static catalogBundle(entry: any, file?: string): OperatorBundle {
    if (!isObject(entry) || entry.schema !== 'olm.bundle') {
      throw new Error(`OperatorBundle.fromCatalogBundle: expected a file-based catalog entry with schema 'olm.bundle', got ${short(entry)}`);
    }
    const name = typeof entry.name === 'string' ? entry.name : '<unnamed>';
    const where = `${file === undefined ? '' : `${file}: `}catalog bundle '${name}'`;
    const props = entry.properties === undefined ? [] : entry.properties;
    if (!Array.isArray(props)) throw new Error(`OperatorBundle: ${where}: field 'properties' must be a list`);
    const docs: SourcedObject[] = [];
    let hasCsvMetadata = false;
    let packageName: string | undefined = typeof entry.package === 'string' ? entry.package : undefined;
    props.forEach((p: any, i: number) => {
      if (!isObject(p)) return;
      if (p.type === 'olm.csv.metadata') hasCsvMetadata = true;
      if (p.type === 'olm.package' && isObject(p.value) && typeof p.value.packageName === 'string') packageName = p.value.packageName;
      if (p.type !== 'olm.bundle.object') return;
      const data = isObject(p.value) ? p.value.data : undefined;
      if (typeof data !== 'string') {
        throw new Error(`OperatorBundle: ${where}: field 'properties[${i}].value.data' must be base64 text of a manifest`);
      }
      const text = Buffer.from(data, 'base64').toString('utf8');
      let obj: any;
      try {
        obj = JSON.parse(text);
      } catch (e) {
        throw new Error(`OperatorBundle: ${where}: field 'properties[${i}].value.data' is not base64 of a JSON manifest: ${(e as Error).message}`);
      }
      docs.push({ obj, source: `${where} properties[${i}]` });
    });
    if (docs.length === 0) {
      const why = hasCsvMetadata
        ? "it has only an 'olm.csv.metadata' property, which carries no install strategy: no permissions, clusterPermissions or deployments"
        : "it has no 'olm.bundle.object' properties";
      // `opm render <bundle image>` writes olm.bundle.object unless run with
      // `--migrate-level=bundle-object-to-csv-metadata` (what catalogs for OpenShift >= 4.17 are rendered with).
      throw new Error(`OperatorBundle: ${where}: field 'properties': cannot read the bundle: ${why}. Get the full bundle instead: `
        + '\'opm render <bundle image>\' without --migrate-level (it writes olm.bundle.object properties), or load the registry+v1 '
        + 'bundle directory (manifests/ + metadata/) with OperatorBundle.fromDirectory. The bundle image is the entry\'s \'image\' field'
        + (typeof entry.image === 'string' ? ` (${entry.image}).` : '.'));
    }
    const annotations: Record<string, string> = {};
    if (packageName !== undefined) annotations[ANNOTATION_PACKAGE] = packageName;
    return OperatorBundle.fromObjects(docs, annotations, where);
  }

  private static fromObjects(docs: SourcedObject[], annotations: Record<string, string>, where: string): OperatorBundle {
    const csvs = docs.filter((d) => isObject(d.obj) && d.obj.kind === 'ClusterServiceVersion');
    if (csvs.length === 0) {
      throw new Error(`OperatorBundle: ${where}: no ClusterServiceVersion found (no object with kind: ClusterServiceVersion); a bundle needs exactly one`);
    }
    if (csvs.length > 1) {
      throw new Error(`OperatorBundle: ${where}: ${csvs.length} ClusterServiceVersions found (${csvs.map((c) => c.source).join(', ')}); a bundle has exactly one`);
    }
    const crds: BundleCrd[] = [];
    const objects: BundleObject[] = [];
    docs.forEach((d) => {
      if (d === csvs[0]) return;
      const o = d.obj;
      if (!isObject(o)) throw new Error(`OperatorBundle: ${d.source}: a manifest must be an object with kind and apiVersion, got ${short(o)}`);
      const kind = reqString(o.kind, d.source, 'kind');
      const apiVersion = reqString(o.apiVersion, d.source, 'apiVersion');
      const meta = isObject(o.metadata) ? o.metadata : {};
      const name = typeof meta.name === 'string' ? meta.name : typeof meta.generateName === 'string' ? meta.generateName : '';
      if (name === '') throw new Error(`OperatorBundle: ${d.source}: field 'metadata.name' is missing on the ${kind}`);
      if (kind === 'CustomResourceDefinition') {
        const spec = isObject(o.spec) ? o.spec : {};
        crds.push({
          name,
          apiVersion,
          group: typeof spec.group === 'string' ? spec.group : '',
          kind: isObject(spec.names) && typeof spec.names.kind === 'string' ? spec.names.kind : '',
          scope: typeof spec.scope === 'string' ? spec.scope : '',
          raw: o,
        });
      } else {
        objects.push({ kind, apiVersion, name, source: d.source, raw: o });
      }
    });
    return new OperatorBundle(csvs[0].obj, csvs[0].source, annotations, crds, objects);
  }

  /** CSV `metadata.name`, e.g. `etcdoperator.v0.9.4`. */
  public readonly name: string;
  /**
   * Package name (annotation `operators.operatorframework.io.bundle.package.v1`, or the catalog's package).
   * @default - unknown (CSV given alone)
   */
  public readonly packageName?: string;
  /**
   * `spec.version`.
   * @default - none
   */
  public readonly version?: string;
  /**
   * `spec.replaces`.
   * @default - none
   */
  public readonly replaces?: string;
  /** `spec.skips`. */
  public readonly skips: string[];
  /**
   * The `olm.skipRange` annotation.
   * @default - none
   */
  public readonly skipRange?: string;
  /** Channels (annotation `operators.operatorframework.io.bundle.channels.v1`), sorted. */
  public readonly channels: string[];
  /**
   * Default channel (annotation `operators.operatorframework.io.bundle.channel.default.v1`).
   * @default - none
   */
  public readonly defaultChannel?: string;
  /** `spec.installModes`, as written. */
  public readonly installModes: InstallMode[];
  /** `spec.install.spec.permissions`. */
  public readonly permissions: BundlePermission[];
  /** `spec.install.spec.clusterPermissions`. */
  public readonly clusterPermissions: BundlePermission[];
  /** `spec.install.spec.deployments`. */
  public readonly deployments: BundleDeployment[];
  /** `spec.customresourcedefinitions.owned`. */
  public readonly ownedCrds: OwnedCrd[];
  /** `spec.customresourcedefinitions.required`. */
  public readonly requiredCrds: OwnedCrd[];
  /** `spec.apiservicedefinitions.owned`. */
  public readonly ownedApiServices: OwnedApiService[];
  /** `spec.webhookdefinitions`. */
  public readonly webhookDefinitions: WebhookDefinition[];
  /** CRD objects shipped in the bundle. */
  public readonly crds: BundleCrd[];
  /** The other objects of the bundle, in file order. */
  public readonly objects: BundleObject[];
  /** The raw CSV object. */
  public readonly csv: any;

  private constructor(csv: any, source: string, annotations: Record<string, string>, crds: BundleCrd[], objects: BundleObject[]) {
    const at = (field: string) => `OperatorBundle: ${source}: field '${field}'`;
    if (!isObject(csv)) throw new Error(`OperatorBundle: ${source}: the ClusterServiceVersion must be an object`);
    const meta = optObject(csv.metadata, at('metadata'));
    this.name = reqString(meta.name, source, 'metadata.name');
    const csvAnnotations = optObject(meta.annotations, at('metadata.annotations'));
    const spec = optObject(csv.spec, at('spec'));
    this.csv = csv;
    this.packageName = annotations[ANNOTATION_PACKAGE];
    this.version = optString(spec.version, at('spec.version'));
    this.replaces = optString(spec.replaces, at('spec.replaces'));
    this.skips = optStringList(spec.skips, at('spec.skips'));
    this.skipRange = optString(csvAnnotations['olm.skipRange'], at("metadata.annotations['olm.skipRange']"));
    this.channels = (annotations[ANNOTATION_CHANNELS] ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '').sort();
    this.defaultChannel = annotations[ANNOTATION_DEFAULT_CHANNEL];

    this.installModes = optList(spec.installModes, at('spec.installModes')).map((m, i) => {
      const f = `spec.installModes[${i}]`;
      const mo = optObject(m, at(f));
      const raw = reqString(mo.type, source, `${f}.type`);
      const type = InstallModes.parseType(raw);
      if (type === undefined) {
        throw new Error(`${at(`${f}.type`)}: unknown install mode '${raw}'; use one of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces`);
      }
      if (mo.supported !== undefined && typeof mo.supported !== 'boolean') {
        throw new Error(`${at(`${f}.supported`)}: must be true or false, got ${short(mo.supported)}`);
      }
      return { type, supported: mo.supported === true };
    });

    if (spec.install === undefined || spec.install === null) {
      throw new Error(`${at('spec.install')}: missing install strategy; a CSV needs spec.install with strategy: deployment and spec.deployments`);
    }
    const install = optObject(spec.install, at('spec.install'));
    const strategy = install.strategy;
    if (strategy !== 'deployment') {
      throw new Error(`${at('spec.install.strategy')}: OLM only knows the 'deployment' install strategy, got ${short(strategy)}`);
    }
    const ispec = optObject(install.spec, at('spec.install.spec'));
    const perms = (field: string) => optList(ispec[field], at(`spec.install.spec.${field}`)).map((p, i) => {
      const f = `spec.install.spec.${field}[${i}]`;
      const po = optObject(p, at(f));
      const serviceAccountName = reqString(po.serviceAccountName, source, `${f}.serviceAccountName`);
      const rules = optList(po.rules, at(`${f}.rules`)).map((r, j) => {
        try {
          return PolicyRules.fromJson(r);
        } catch (e) {
          throw new Error(`${at(`${f}.rules[${j}]`)}: ${(e as Error).message}`);
        }
      });
      return { serviceAccountName, rules };
    });
    this.permissions = perms('permissions');
    this.clusterPermissions = perms('clusterPermissions');
    this.deployments = optList(ispec.deployments, at('spec.install.spec.deployments')).map((d, i) => {
      const f = `spec.install.spec.deployments[${i}]`;
      const dobj = optObject(d, at(f));
      const dspec = optObject(dobj.spec, at(`${f}.spec`));
      const template = optObject(dspec.template, at(`${f}.spec.template`));
      const podSpec = optObject(template.spec, at(`${f}.spec.template.spec`));
      const sa = optString(podSpec.serviceAccountName, at(`${f}.spec.template.spec.serviceAccountName`));
      return { name: reqString(dobj.name, source, `${f}.name`), serviceAccountName: sa ?? 'default', spec: dobj.spec ?? {} };
    });

    const crdDescs = optObject(spec.customresourcedefinitions, at('spec.customresourcedefinitions'));
    const crdList = (field: string) => optList(crdDescs[field], at(`spec.customresourcedefinitions.${field}`)).map((c, i) => {
      const f = `spec.customresourcedefinitions.${field}[${i}]`;
      const co = optObject(c, at(f));
      return {
        name: reqString(co.name, source, `${f}.name`),
        version: optString(co.version, at(`${f}.version`)) ?? '',
        kind: optString(co.kind, at(`${f}.kind`)) ?? '',
      };
    });
    this.ownedCrds = crdList('owned');
    this.requiredCrds = crdList('required');

    const apiDescs = optObject(spec.apiservicedefinitions, at('spec.apiservicedefinitions'));
    this.ownedApiServices = optList(apiDescs.owned, at('spec.apiservicedefinitions.owned')).map((a, i) => {
      const f = `spec.apiservicedefinitions.owned[${i}]`;
      const ao = optObject(a, at(f));
      return {
        group: reqString(ao.group, source, `${f}.group`),
        version: reqString(ao.version, source, `${f}.version`),
        kind: optString(ao.kind, at(`${f}.kind`)) ?? '',
        name: optString(ao.name, at(`${f}.name`)) ?? '',
        deploymentName: optString(ao.deploymentName, at(`${f}.deploymentName`)) ?? '',
        containerPort: optPort(ao.containerPort, at(`${f}.containerPort`)),
      };
    });

    this.webhookDefinitions = optList(spec.webhookdefinitions, at('spec.webhookdefinitions')).map((w, i) => {
      const f = `spec.webhookdefinitions[${i}]`;
      const wo = optObject(w, at(f));
      const rawType = reqString(wo.type, source, `${f}.type`);
      const type = (Object.values(WebhookType) as string[]).includes(rawType) ? rawType as WebhookType : undefined;
      if (type === undefined) {
        throw new Error(`${at(`${f}.type`)}: unknown webhook type '${rawType}'; use ValidatingAdmissionWebhook, MutatingAdmissionWebhook or ConversionWebhook`);
      }
      const tp = wo.targetPort;
      if (tp !== undefined && typeof tp !== 'number' && typeof tp !== 'string') {
        throw new Error(`${at(`${f}.targetPort`)}: must be a port number or name, got ${short(tp)}`);
      }
      const out: WebhookDefinition = {
        type,
        generateName: reqString(wo.generateName, source, `${f}.generateName`),
        deploymentName: optString(wo.deploymentName, at(`${f}.deploymentName`)) ?? '',
        containerPort: optPort(wo.containerPort, at(`${f}.containerPort`)),
        targetPort: tp === undefined ? undefined : String(tp),
        webhookPath: optString(wo.webhookPath, at(`${f}.webhookPath`)),
        conversionCrds: optStringList(wo.conversionCRDs, at(`${f}.conversionCRDs`)),
        rules: optList(wo.rules, at(`${f}.rules`)),
        admissionReviewVersions: optStringList(wo.admissionReviewVersions, at(`${f}.admissionReviewVersions`)),
      };
      return clean(out);
    });
    this.crds = crds;
    this.objects = objects;
  }
}

const ANNOTATION_PACKAGE = 'operators.operatorframework.io.bundle.package.v1';
const ANNOTATION_CHANNELS = 'operators.operatorframework.io.bundle.channels.v1';
const ANNOTATION_DEFAULT_CHANNEL = 'operators.operatorframework.io.bundle.channel.default.v1';

interface SourcedObject {
  readonly obj: any;
  readonly source: string;
}

function isObject(v: any): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function short(v: any): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function optObject(v: any, at: string): Record<string, any> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new Error(`${at}: must be an object, got ${short(v)}`);
  return v;
}

function optList(v: any, at: string): any[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`${at}: must be a list, got ${short(v)}`);
  return v;
}

function optString(v: any, at: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`${at}: must be a string, got ${short(v)}`);
  return v;
}

function optStringList(v: any, at: string): string[] {
  const l = optList(v, at);
  if (l.some((x) => typeof x !== 'string')) throw new Error(`${at}: must be a list of strings, got ${short(v)}`);
  return [...l];
}

function optPort(v: any, at: string): number {
  if (v === undefined || v === null || v === 0) return 443;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 65535) throw new Error(`${at}: must be a port number, got ${short(v)}`);
  return v;
}

function reqString(v: any, source: string, field: string): string {
  if (typeof v !== 'string' || v === '') {
    throw new Error(`OperatorBundle: ${source}: field '${field}' is required and must be a non-empty string, got ${short(v)}`);
  }
  return v;
}

function stringMap(v: Record<string, any>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (val !== null && val !== undefined) out[k] = String(val);
  return out;
}

function clean<T>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o as any)) if (v !== undefined) out[k] = v;
  return out;
}

function parseYamlDocuments(text: string, source: string): SourcedObject[] {
  const out: SourcedObject[] = [];
  // YAML 1.2 core schema: `=` stays a string (PyYAML's YAML 1.1 rejects it in the prometheus bundle).
  const docs = parseAllDocuments(text, { version: '1.2' });
  const list = Array.isArray(docs) ? docs : [docs];
  list.forEach((doc: any, i: number) => {
    if (doc.errors && doc.errors.length > 0) {
      const e = doc.errors[0];
      throw new Error(`OperatorBundle: ${source}: broken YAML in document ${i + 1}: ${e.message.split('\n')[0]}`);
    }
    const obj = doc.toJS({ maxAliasCount: 1000 });
    if (obj === null || obj === undefined) return;
    out.push({ obj, source: list.length > 1 ? `${source} (document ${i + 1})` : source });
  });
  return out;
}

function parseJsonStream(text: string, source: string): any[] {
  const out: any[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {inString = true;} else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch (e) {
          throw new Error(`OperatorBundle: ${source}: broken JSON object at offset ${start}: ${(e as Error).message}`);
        }
      }
    }
  }
  return out;
}
