/**
 * An OLM operator bundle (registry+v1: a ClusterServiceVersion plus the other manifests) parsed into plain data.
 * Field meanings follow operator-framework/api `pkg/operators/v1alpha1/clusterserviceversion_types.go` and the
 * bundle format of operator-framework/operator-registry (`manifests/`, `metadata/annotations.yaml`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { InstallMode, InstallModes } from './install-modes';
import { decodeManifestFile, decodeManifestStream, decodeYamlDocuments, depthOf, escapeControl as esc, LOADER_LIMITS, oneLine, readAtMost, sizeProblem } from '../core/yaml-or-json';
import { FileBasedCatalog } from '../fbc/file-based-catalog';
import { parseLabelSelector } from '../rbac/label-selector';
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

/**
 * Which OLM reads a bundle directory: the two read different files and documents, so a bundle can hold objects one
 * of them applies and the other never sees.
 */
export enum BundleReader {
  /**
   * OLM v0 (operator-registry `pkg/registry` / `pkg/configmap` `loadBundle`, `decode.go`): every file directly under
   * `manifests/` except hidden ones and folders, decoded ONCE (the first document; the rest is ignored with a
   * warning); a file that does not decode to an object with a kind is skipped with a warning.
   */
  OLM_V0 = 'OLM_V0',
  /**
   * OLM v1 (operator-controller `internal/operator-controller/rukpak/bundle/source/source.go` `FromFS`): every file
   * of `manifests/`, hidden ones included (`fs.WalkDir`), every document of each (cli-runtime's resource builder:
   * `Stream` + `Flatten`), `List`s flattened into their items; a subdirectory of `manifests/`, a document that does
   * not decode to an object with a kind, or a missing `metadata/annotations.yaml` refuses the whole bundle.
   */
  OLM_V1 = 'OLM_V1',
}

/** Dependency property types operator-controller refuses (`resolve/validation.go` `NoDependencyValidation`). */
const OLM_V1_REFUSED_DEPENDENCIES = ['olm.package.required', 'olm.gvk.required', 'olm.constraint'];

/** How a bundle was loaded (kept to read it again with the other reader). */
interface BundleOrigin {
  readonly reader: BundleReader;
  /** The files of the bundle directory, for bundles read from one. */
  readonly snapshot?: DirectorySnapshot;
  /** Dependency property types from metadata/ or the catalog entry (before the CSV's required CRDs are added). */
  readonly dependencyTypes: string[];
}

/** One entry of manifests/: its text, or nothing for a folder, or the error reading it raised. */
interface ManifestEntry {
  readonly name: string;
  readonly file: string;
  readonly text?: string;
  readonly error?: unknown;
}

/**
 * The files of a bundle directory that either reader uses, read once (the OLM v1 reading of a bundle loaded by the
 * OLM v0 reader decodes them later, even when the directory is gone).
 */
interface DirectorySnapshot {
  readonly shown: string;
  readonly root: string;
  /** Every entry of manifests/, hidden ones included, in name order. */
  readonly entries: ManifestEntry[];
  readonly annotationsFile: string;
  /** The text of metadata/annotations.yaml (undefined when there is no such file). */
  readonly annotationsText?: string;
  readonly dependencyTypes: string[];
}

/** Parsed registry+v1 bundle. Build one with the static factories. */
export class OperatorBundle {
  /**
   * Loads a registry+v1 bundle directory the way OLM reads it (operator-registry `pkg/registry` `loadBundle` and
   * `pkg/configmap` `loadBundle`, which OLM's bundle unpacker uses): every file directly under `manifests/` except
   * hidden files and folders, whatever its extension, decoded once with apimachinery's YAML-or-JSON decoder, so
   * only the first document of a file counts. A file OLM cannot decode as an object with a `kind` is skipped (as
   * OLM skips it) with a `loadWarnings` entry; duplicate mapping keys are accepted (the last wins) with a warning.
   * Annotations come from `metadata/annotations.yaml`, else from the first file of `metadata/` that has bundle
   * annotations (`NewImageInput`). Plain YAML scalars resolve as go-yaml v2 resolves them (`yes` is true, `0755` is
   * octal; an unquoted `=` stays a string, as in the prometheus bundle).
   *
   *
   * With `reader: BundleReader.OLM_V1` the directory is read as operator-controller reads it instead (see
   * `BundleReader.OLM_V1`): every file (hidden ones too) and every document, `List`s flattened; what OLM v1 refuses
   * is an error with its words. The OLM v1 constructs read every bundle this way (`forOlmV1`), whichever reader
   * loaded it.
   *
   * @param reader which OLM's reading @default BundleReader.OLM_V0
   * @throws Error naming the path when the directory does not exist or has no `manifests/` folder, a file is over
   * a loader limit (size, YAML aliases, nesting depth, number of rules), or the bundle is invalid
   */
  public static fromDirectory(dir: string, reader?: BundleReader): OperatorBundle {
    try {
      if (reader !== undefined && reader !== null && !(Object.values(BundleReader) as unknown[]).includes(reader)) {
        throw new Error(`OperatorBundle.fromDirectory: 'reader' must be BundleReader.OLM_V0 or BundleReader.OLM_V1, got ${oneLine(reader)}`);
      }
      return reader === BundleReader.OLM_V1 ? OperatorBundle.readSnapshotOlmV1(snapshotOf(dir)) : OperatorBundle.readDirectory(dir);
    } catch (e) {
      throw fileSystemError(e, 'fromDirectory');
    }
  }

  /**
   * A bundle from a CSV as YAML text, with optional extra manifests (CRDs, Services, ...) as multi-document YAML
   * (every document counts here).
   */
  public static fromCsvYaml(csvYaml: string, extraManifestsYaml?: string): OperatorBundle {
    const warnings: string[] = [];
    const docs = parseYamlText(csvYaml, 'CSV YAML', warnings);
    if (extraManifestsYaml !== undefined && extraManifestsYaml !== null) {
      docs.push(...parseYamlText(extraManifestsYaml, 'extra manifests YAML', warnings));
    }
    return OperatorBundle.fromObjects(docs, {}, 'CSV YAML', warnings);
  }

  /**
   * A bundle from a CSV object (as parsed JSON/YAML), with optional extra objects.
   */
  public static fromCsvObject(csv: any, extraObjects?: any[]): OperatorBundle {
    if (extraObjects !== undefined && extraObjects !== null && !Array.isArray(extraObjects)) {
      throw new Error(`OperatorBundle.fromCsvObject: 'extraObjects' must be a list of manifest objects, got ${oneLine(extraObjects)}`);
    }
    const docs: SourcedObject[] = [{ obj: csv, source: 'CSV object' }];
    (extraObjects ?? []).forEach((o, i) => docs.push({ obj: o, source: `extra object [${i}]` }));
    for (const d of docs) {
      if (depthOf(d.obj) > LOADER_LIMITS.depth) {
        throw new Error(`OperatorBundle: ${d.source}: nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit), or a cycle`);
      }
    }
    return OperatorBundle.fromObjects(docs, {}, 'CSV object', []);
  }

  /**
   * A bundle from a file-based catalog `olm.bundle` entry that carries `olm.bundle.object` properties (base64 of
   * each manifest, as `opm render` writes them; JSON or YAML, as opm's `declcfg/load.go` `readBundleObjects`
   * accepts). An entry with only `olm.csv.metadata` has no install strategy (no permissions, no deployments): that
   * is an error saying where to get the full bundle.
   */
  public static fromCatalogBundle(entry: any): OperatorBundle {
    if (depthOf(entry) > LOADER_LIMITS.depth) {
      throw new Error(`OperatorBundle.fromCatalogBundle: the entry is nested deeper than ${LOADER_LIMITS.depth} levels (the loader's limit), or a cycle`);
    }
    return OperatorBundle.catalogBundle(entry);
  }

  /**
   * Reads a file-based catalog (YAML documents, or a JSON stream of objects, read like `FileBasedCatalog`) and
   * loads the `olm.bundle` entry named `bundleName` (see `fromCatalogBundle`).
   */
  public static fromCatalogFile(file: string, bundleName: string): OperatorBundle {
    const { catalog, shown } = readCatalog(file, 'fromCatalogFile');
    const bundles = catalog.ofSchema('olm.bundle').map((b) => b.content);
    const entry = bundles.find((e) => e.name === bundleName);
    if (entry === undefined) {
      const names = bundles.map((b) => esc(String(b.name))).sort();
      throw new Error(`OperatorBundle.fromCatalogFile: ${shown} has no olm.bundle named '${esc(String(bundleName))}'; it has: ${names.join(', ') || '(none)'}`);
    }
    return OperatorBundle.catalogBundle(entry, shown);
  }

  /**
   * Every bundle of `packageName` in a file-based catalog file (YAML documents or a JSON stream), sorted by name:
   * the allowed versions of a package, for `InstallPreflight.checkVersions` and `InstallerPermissions.leastPrivilege`
   * (or a tenant subscription's `upgradeBundles`). Each entry must carry `olm.bundle.object` properties.
   */
  public static fromCatalogPackage(file: string, packageName: string): OperatorBundle[] {
    const { catalog, shown } = readCatalog(file, 'fromCatalogPackage');
    const all = catalog.ofSchema('olm.bundle').map((b) => b.content);
    const bundles = all
      .filter((e) => e.package === packageName)
      .sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0));
    if (bundles.length === 0) {
      const packages = [...new Set(all.map((e) => esc(String(e.package))))].sort();
      throw new Error(`OperatorBundle.fromCatalogPackage: ${shown} has no olm.bundle of package '${esc(String(packageName))}'; it has bundles of: ${packages.join(', ') || '(none)'}`);
    }
    return bundles.map((entry) => OperatorBundle.catalogBundle(entry, shown));
  }

  /** `fromDirectory` without the file-system error translation. */
  private static readDirectory(dir: string): OperatorBundle {
    const snap = snapshotOf(dir);
    const warnings: string[] = [];
    const skipped: string[] = [];
    const docs: SourcedObject[] = [];
    // operator-registry loadBundle: every entry of manifests/ except folders and names starting with '.'.
    for (const entry of snap.entries.filter((e) => !e.name.startsWith('.'))) {
      if (entry.error !== undefined) throw entry.error;
      if (entry.text === undefined) continue;
      const where = esc(entry.file);
      const decoded = decodeManifestFile(entry.text);
      const doc = decoded.document;
      for (const w of doc?.warnings ?? []) warnings.push(`${where}:${w.line}: ${w.message}`);
      let skip: string | undefined;
      if (doc === undefined) {
        skip = 'the file is empty';
      } else if (doc.error !== undefined) {
        if (isLimitMessage(doc.error.message)) throw new Error(`OperatorBundle: ${where}:${doc.error.line}: ${doc.error.message}`);
        skip = `line ${doc.error.line}: ${doc.error.message}`;
      } else if (!isObject(doc.value)) {
        skip = `its first document is ${doc.value === null ? 'empty' : `not an object (${oneLine(doc.value, 40)})`}`;
      } else if (typeof doc.value.kind !== 'string' || doc.value.kind === '') {
        skip = "its first document has no 'kind'";
      }
      if (skip !== undefined) {
        // pkg/configmap loadBundle: "skipping due to decode error"; pkg/registry loadBundle: "could not decode file contents".
        warnings.push(`${where}: OLM skips this file, so it installs nothing from it: ${skip} (operator-registry decodes `
          + 'each manifest file once with apimachinery\'s YAML-or-JSON decoder and skips files that do not decode to an object with a kind)');
        skipped.push(`${where} (${skip})`);
        continue;
      }
      if (decoded.ignoredDocuments > 0) {
        warnings.push(`${where}: OLM reads only the first document of a manifest file; ${decoded.ignoredDocuments} more document(s) `
          + 'are ignored (operator-registry pkg/registry/decode.go: "found more than one document ..., using only the first one"). '
          + 'Fix: put each object in its own file.');
      }
      docs.push({ obj: doc!.value, source: where });
    }
    const annotations = readAnnotations(snap.root, dir, warnings);
    const origin = { reader: BundleReader.OLM_V0, snapshot: snap, dependencyTypes: snap.dependencyTypes };
    return OperatorBundle.fromObjects(docs, annotations, `bundle directory ${snap.shown}`, warnings, skipped, origin);
  }

  /**
   * A bundle directory as operator-controller reads it: `fsBundleSource.GetBundle`
   * (`internal/operator-controller/rukpak/bundle/source/source.go`), from the files read by `snapshotOf`.
   */
  private static readSnapshotOlmV1(snap: DirectorySnapshot): OperatorBundle {
    const refuse = (why: string) => new Error(`OperatorBundle: bundle directory ${snap.shown}: OLM v1 refuses the bundle (operator-controller `
      + `rukpak/bundle/source/source.go reads every file and document of manifests/): ${why}`);
    const warnings: string[] = [];
    // annotations: metadata/annotations.yaml and nothing else (fs.ReadFile, then yaml.Unmarshal: its first document)
    if (snap.annotationsText === undefined) throw refuse('open metadata/annotations.yaml: no such file or directory');
    const annotations = annotationsOf(snap.annotationsText, esc(snap.annotationsFile), warnings);
    const docs: SourcedObject[] = [];
    // fs.WalkDir: entries in lexical order, hidden ones included; a folder other than manifests/ ends the walk
    for (const entry of snap.entries) {
      const rel = `manifests/${entry.name}`;
      if (entry.error !== undefined) throw fileSystemError(entry.error, 'fromDirectory');
      if (entry.text === undefined) throw refuse(`subdirectories are not allowed within the "manifests" directory of the bundle image filesystem: found ${goQuote(rel)}`);
      docs.push(...olmV1Objects(entry.text, esc(entry.file), rel, warnings, refuse));
    }
    const origin = { reader: BundleReader.OLM_V1, snapshot: snap, dependencyTypes: snap.dependencyTypes };
    return OperatorBundle.fromObjects(docs, annotations, `bundle directory ${snap.shown}`, warnings, [], origin);
  }

  /** `fromCatalogBundle`, with the catalog file (when known) named in errors. */
  private static catalogBundle(entry: any, file?: string): OperatorBundle {
    if (!isObject(entry) || entry.schema !== 'olm.bundle') {
      throw new Error(`OperatorBundle.fromCatalogBundle: expected a file-based catalog entry with schema 'olm.bundle', got ${oneLine(entry)}`);
    }
    const name = typeof entry.name === 'string' ? esc(entry.name) : '<unnamed>';
    const where = `${file === undefined ? '' : `${file}: `}catalog bundle '${name}'`;
    const props = entry.properties === undefined || entry.properties === null ? [] : entry.properties;
    if (!Array.isArray(props)) throw new Error(`OperatorBundle: ${where}: field 'properties' must be a list, got ${oneLine(props)}`);
    const docs: SourcedObject[] = [];
    const warnings: string[] = [];
    let hasCsvMetadata = false;
    let packageName: string | undefined = typeof entry.package === 'string' ? entry.package : undefined;
    props.forEach((p: any, i: number) => {
      if (!isObject(p)) return;
      if (p.type === 'olm.csv.metadata') hasCsvMetadata = true;
      if (p.type === 'olm.package' && isObject(p.value) && typeof p.value.packageName === 'string') packageName = p.value.packageName;
      if (p.type !== 'olm.bundle.object') return;
      const field = `properties[${i}].value.data`;
      const data = isObject(p.value) ? p.value.data : undefined;
      if (typeof data !== 'string') {
        throw new Error(`OperatorBundle: ${where}: field '${field}' must be base64 text of a manifest, got ${oneLine(data)}`);
      }
      if (data.length * 3 / 4 > LOADER_LIMITS.manifestBytes) {
        throw new Error(`OperatorBundle: ${where}: field '${field}' holds over ${LOADER_LIMITS.manifestBytes} bytes, the limit for a bundle manifest`);
      }
      // opm declcfg/load.go readBundleObjects: yaml.ToJSON(data), so the manifest may be JSON or YAML.
      const decoded = decodeManifestFile(Buffer.from(data, 'base64').toString('utf8'));
      const doc = decoded.document;
      if (doc === undefined || doc.error !== undefined || !isObject(doc.value)) {
        const why = doc === undefined ? 'it is empty'
          : doc.error !== undefined ? doc.error.message
            : `it decodes to ${doc.value === null ? 'nothing' : oneLine(doc.value, 40)}`;
        throw new Error(`OperatorBundle: ${where}: field '${field}' is not base64 of a manifest (a JSON or YAML object): ${why}`);
      }
      for (const w of doc.warnings) warnings.push(`${where} ${field}: ${w.message}`);
      docs.push({ obj: doc.value, source: `${where} properties[${i}]` });
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
        + (typeof entry.image === 'string' ? ` (${esc(entry.image)}).` : '.'));
    }
    const annotations: Record<string, string> = {};
    if (packageName !== undefined) annotations[ANNOTATION_PACKAGE] = packageName;
    const dependencyTypes = props.filter((p: any) => isObject(p) && OLM_V1_REFUSED_DEPENDENCIES.includes(p.type)).map((p: any) => String(p.type));
    const origin = { reader: BundleReader.OLM_V0, dependencyTypes: [...new Set<string>(dependencyTypes)] };
    return OperatorBundle.fromObjects(docs, annotations, where, warnings, [], origin);
  }

  private static fromObjects(docs: SourcedObject[], annotations: Record<string, string>, where: string, warnings: string[],
    skipped: string[] = [], origin: BundleOrigin = { reader: BundleReader.OLM_V0, dependencyTypes: [] }): OperatorBundle {
    const csvs = docs.filter((d) => isObject(d.obj) && d.obj.kind === 'ClusterServiceVersion');
    if (csvs.length === 0) {
      const also = skipped.length === 0 ? '' : `; files OLM skips because they do not decode to an object with a kind: ${skipped.join('; ')}`;
      throw new Error(`OperatorBundle: ${where}: no ClusterServiceVersion found (no object with kind: ClusterServiceVersion); a bundle needs exactly one${also}`);
    }
    if (csvs.length > 1) {
      throw new Error(`OperatorBundle: ${where}: ${csvs.length} ClusterServiceVersions found (${csvs.map((c) => c.source).join(', ')}); a bundle has exactly one`);
    }
    const crds: BundleCrd[] = [];
    const objects: BundleObject[] = [];
    let objectRules = 0;
    docs.forEach((d) => {
      if (d === csvs[0]) return;
      const o = d.obj;
      if (!isObject(o)) throw new Error(`OperatorBundle: ${d.source}: a manifest must be an object with kind and apiVersion, got ${oneLine(o)}`);
      const kind = reqString(o.kind, d.source, 'kind');
      // apimachinery's unstructured decoder needs only a kind, and OLM creates the typed kinds (Service, Role, ...)
      // by kind alone (catalog operator.go ExecutePlan): a missing apiVersion is not a load error. The install
      // model reports what OLM does with it.
      const apiVersion = optString(o.apiVersion, `OperatorBundle: ${d.source}: field 'apiVersion'`) ?? '';
      const meta = isObject(o.metadata) ? o.metadata : {};
      const name = typeof meta.name === 'string' ? meta.name : typeof meta.generateName === 'string' ? meta.generateName : '';
      // A `kind: List` has no name; OLM refuses it anyway (UnsupportedResource), which the install model reports.
      if (name === '' && kind !== 'List') throw new Error(`OperatorBundle: ${d.source}: field 'metadata.name' is missing on the ${esc(kind)}`);
      if ((kind === 'Role' || kind === 'ClusterRole') && Array.isArray(o.rules)) objectRules += o.rules.length;
      checkRbacObject(o, kind, d.source);
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
    if (objectRules > LOADER_LIMITS.bundleRules) {
      throw new Error(`OperatorBundle: ${where}: its Roles and ClusterRoles hold ${objectRules} policy rules, over the limit of ${LOADER_LIMITS.bundleRules} rules per bundle`);
    }
    return new OperatorBundle(csvs[0].obj, csvs[0].source, annotations, crds, objects, warnings, objectRules, origin);
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
  /**
   * What loading accepted the way OLM does but deserves attention, one line each, naming the file (and line):
   * duplicate mapping keys (the last wins), manifest files OLM skips, documents after the first in a manifest file.
   * `InstallPreflight` reports them as warnings.
   */
  public readonly loadWarnings: string[];

  /**
   * The reader that read the bundle directory (`fromDirectory`); `BundleReader.OLM_V0` for bundles from a catalog
   * entry (opm reads them as OLM v0 does), from CSV text or from objects (every document and object given counts).
   */
  public readonly reader: BundleReader;
  /**
   * Dependency property types that a catalog entry of this bundle carries and operator-controller refuses
   * (`resolve/validation.go` `NoDependencyValidation`): `olm.constraint`, `olm.gvk.required`, `olm.package.required`,
   * and any other type of `metadata/dependencies.yaml`, in catalog order. For a bundle directory: its metadata
   * dependencies and the CSV's `required` CRDs (`olm.gvk.required`), converted and sorted as operator-registry's
   * `registry_to_model.go` does; for a catalog entry: its own properties. OLM v0 resolves them; OLM v1 refuses them.
   */
  public readonly dependencyTypes: string[];
  private readonly origin: BundleOrigin;
  private readonly annotations: Record<string, string>;
  private olmV1Reading?: OperatorBundle | Error;

  private constructor(csv: any, source: string, annotations: Record<string, string>, crds: BundleCrd[], objects: BundleObject[],
    loadWarnings: string[], objectRules: number, origin: BundleOrigin) {
    const at = (field: string) => `OperatorBundle: ${source}: field '${field}'`;
    this.loadWarnings = [...loadWarnings];
    this.origin = origin;
    this.reader = origin.reader;
    this.annotations = { ...annotations };
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
        throw new Error(`${at(`${f}.type`)}: unknown install mode '${esc(raw)}'; use one of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces`);
      }
      if (mo.supported !== undefined && typeof mo.supported !== 'boolean') {
        throw new Error(`${at(`${f}.supported`)}: must be true or false, got ${oneLine(mo.supported)}`);
      }
      return { type, supported: mo.supported === true };
    });

    if (spec.install === undefined || spec.install === null) {
      throw new Error(`${at('spec.install')}: missing install strategy; a CSV needs spec.install with strategy: deployment and spec.deployments`);
    }
    const install = optObject(spec.install, at('spec.install'));
    const strategy = install.strategy;
    if (strategy !== 'deployment') {
      throw new Error(`${at('spec.install.strategy')}: OLM only knows the 'deployment' install strategy, got ${oneLine(strategy)}`);
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
    // Count first: a CSV with millions of rules is refused before any work on them.
    const rulesIn = (p: any): number => (isObject(p) && Array.isArray(p.rules) ? p.rules.length : 0);
    const ruleCount = ['permissions', 'clusterPermissions']
      .map((f) => (Array.isArray(ispec[f]) ? ispec[f] : []).reduce((n: number, p: any) => n + rulesIn(p), 0))
      .reduce((a, b) => a + b, 0);
    if (ruleCount + objectRules > LOADER_LIMITS.bundleRules) {
      throw new Error(`OperatorBundle: ${source}: the bundle holds ${ruleCount + objectRules} policy rules (CSV permissions and clusterPermissions`
        + `${objectRules > 0 ? ', Roles and ClusterRoles' : ''}), over the limit of ${LOADER_LIMITS.bundleRules} rules per bundle`);
    }
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
        throw new Error(`${at(`${f}.type`)}: unknown webhook type '${esc(rawType)}'; use ValidatingAdmissionWebhook, MutatingAdmissionWebhook or ConversionWebhook`);
      }
      const tp = wo.targetPort;
      if (tp !== undefined && typeof tp !== 'number' && typeof tp !== 'string') {
        throw new Error(`${at(`${f}.targetPort`)}: must be a port number or name, got ${oneLine(tp)}`);
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
    const types = [...origin.dependencyTypes, ...(this.requiredCrds.length > 0 ? ['olm.gvk.required'] : [])];
    this.dependencyTypes = origin.snapshot !== undefined ? [...new Set(types)].sort() : [...new Set(types)];
  }

  /**
   * The bundle as OLM v1 reads it (`BundleReader.OLM_V1`): a bundle directory read again by operator-controller's
   * rules (every file, hidden ones too, every document, `List`s flattened), a bundle given as objects with its
   * `List`s flattened; this bundle when nothing differs. Read once, then remembered. Every OLM v1 construct and
   * `RegistryV1Render` use it.
   * @throws Error with operator-controller's reason when OLM v1 refuses the bundle (a subdirectory of manifests/,
   * a document without kind, no metadata/annotations.yaml)
   */
  public forOlmV1(): OperatorBundle {
    if (this.reader === BundleReader.OLM_V1) return this;
    if (this.olmV1Reading === undefined) {
      try {
        this.olmV1Reading = this.origin.snapshot !== undefined
          ? OperatorBundle.readSnapshotOlmV1(this.origin.snapshot) : this.flattenedForOlmV1();
      } catch (e) {
        this.olmV1Reading = e instanceof Error ? e : new Error(String(e));
      }
    }
    if (this.olmV1Reading instanceof Error) throw this.olmV1Reading;
    return this.olmV1Reading;
  }

  /** A bundle given as objects, its `List`s replaced by their items (cli-runtime's `FlattenListVisitor`). */
  private flattenedForOlmV1(): OperatorBundle {
    const isList = (o: any) => isObject(o) && Object.prototype.hasOwnProperty.call(o, 'items');
    if (!this.objects.some((o) => isList(o.raw))) return this;
    const refuse = (why: string) => new Error(`OperatorBundle: ${this.name}: OLM v1 refuses the bundle: ${why}`);
    const docs: SourcedObject[] = [{ obj: this.csv, source: this.name }, ...this.crds.map((c) => ({ obj: c.raw, source: c.name }))];
    for (const o of this.objects) {
      docs.push(...(isList(o.raw) ? flattenedList(o.raw, o.source, o.source, refuse) : [{ obj: o.raw, source: o.source }]));
    }
    return OperatorBundle.fromObjects(docs, this.annotations, this.name, this.loadWarnings, [], { ...this.origin, reader: BundleReader.OLM_V1 });
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

function optObject(v: any, at: string): Record<string, any> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new Error(`${at}: must be an object, got ${oneLine(v)}`);
  return v;
}

/**
 * The RBAC objects of a bundle (`rbac.authorization.k8s.io`) checked as the API server decodes and validates them (`k8s.io/api/rbac/v1` types,
 * `pkg/apis/rbac/validation`: rules are PolicyRule objects, `aggregationRule.clusterRoleSelectors` a list of label
 * selectors, `roleRef` an object with kind and name, subjects objects with kind and name), so that a hostile manifest
 * is a load error naming its file and field, like the CSV's rules, never a TypeError later (v0 install model, OLM v1
 * render, effective power).
 */
function checkRbacObject(o: any, kind: string, source: string): void {
  // only RBAC objects (or kinds without apiVersion, which OLM creates by kind): a custom resource of kind Role in
  // another group is the install model's (an InstallPlan step that fails, `InvalidBundleObject`)
  if (typeof o.apiVersion === 'string' && o.apiVersion !== '' && !o.apiVersion.startsWith('rbac.authorization.k8s.io/')) return;
  const at = (field: string) => `OperatorBundle: ${source}: field '${field}' of the ${esc(kind)}`;
  if (kind === 'Role' || kind === 'ClusterRole') {
    optList(o.rules, at('rules')).forEach((r, j) => {
      try {
        PolicyRules.fromJson(r);
      } catch (e) {
        throw new Error(`${at(`rules[${j}]`)}: ${(e as Error).message}`);
      }
    });
    if (kind === 'ClusterRole' && o.aggregationRule !== undefined && o.aggregationRule !== null) {
      const rule = optObject(o.aggregationRule, at('aggregationRule'));
      optList(rule.clusterRoleSelectors, at('aggregationRule.clusterRoleSelectors')).forEach((sel, j) => {
        const problems = parseLabelSelector(sel).problems;
        if (problems.length > 0) throw new Error(`${at(`aggregationRule.clusterRoleSelectors[${j}]`)}: ${problems.join('; ')}`);
      });
    }
    return;
  }
  if (kind !== 'RoleBinding' && kind !== 'ClusterRoleBinding') return;
  const ref = o.roleRef;
  if (!isObject(ref) || typeof ref.kind !== 'string' || typeof ref.name !== 'string') {
    throw new Error(`${at('roleRef')}: must be an object with string kind and name (the role it binds), got ${oneLine(ref)}`);
  }
  optList(o.subjects, at('subjects')).forEach((x, j) => {
    if (!isObject(x) || typeof x.kind !== 'string' || typeof x.name !== 'string') {
      throw new Error(`${at(`subjects[${j}]`)}: must be an object with string kind and name, got ${oneLine(x)}`);
    }
    if (x.namespace !== undefined && x.namespace !== null && typeof x.namespace !== 'string') {
      throw new Error(`${at(`subjects[${j}].namespace`)}: must be a string, got ${oneLine(x.namespace)}`);
    }
  });
}

function optList(v: any, at: string): any[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`${at}: must be a list, got ${oneLine(v)}`);
  return v;
}

function optString(v: any, at: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`${at}: must be a string, got ${oneLine(v)}`);
  return v;
}

function optStringList(v: any, at: string): string[] {
  const l = optList(v, at);
  if (l.some((x) => typeof x !== 'string')) throw new Error(`${at}: must be a list of strings, got ${oneLine(v)}`);
  return [...l];
}

function optPort(v: any, at: string): number {
  if (v === undefined || v === null || v === 0) return 443;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 65535) throw new Error(`${at}: must be a port number, got ${oneLine(v)}`);
  return v;
}

function reqString(v: any, source: string, field: string): string {
  if (typeof v !== 'string' || v === '') {
    throw new Error(`OperatorBundle: ${source}: field '${field}' is required and must be a non-empty string, got ${oneLine(v)}`);
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

/**
 * The annotations file as operator-registry `NewImageInput` finds it: `metadata/annotations.yaml`, else the first
 * file of `metadata/` (in name order) whose first document has bundle annotations.
 */
function findAnnotationsFile(root: string, metadataDir: string): { file: string; text: string } | undefined {
  if (!fs.existsSync(metadataDir) || !fs.statSync(metadataDir).isDirectory()) return undefined;
  insideBundle(root, metadataDir);
  const preferred = path.join(metadataDir, 'annotations.yaml');
  const preferredText = fs.existsSync(preferred) ? readBundleFile(root, preferred) : undefined;
  if (preferredText !== undefined) return { file: preferred, text: preferredText };
  for (const f of fs.readdirSync(metadataDir).filter((n) => !n.startsWith('.')).sort()) {
    const file = path.join(metadataDir, f);
    const text = readBundleFile(root, file);
    if (text === undefined) continue;
    const value = decodeManifestFile(text).document?.value;
    const a = isObject(value) ? value.annotations : undefined;
    if (isObject(a) && [ANNOTATION_PACKAGE, ANNOTATION_CHANNELS, ANNOTATION_DEFAULT_CHANNEL].some((k) => typeof a[k] === 'string' && a[k] !== '')) return { file, text };
  }
  return undefined;
}

/** The checks of a bundle directory before any file is read (both readers). */
function checkBundleDirectory(dir: string): { shown: string; manifestsDir: string } {
  const shown = esc(String(dir));
  if (typeof dir !== 'string' || dir === '') {
    throw new Error(`OperatorBundle.fromDirectory: the bundle directory must be a non-empty path, got ${oneLine(dir)}`);
  }
  if (!fs.existsSync(dir)) {
    throw new Error(`OperatorBundle.fromDirectory: '${shown}' does not exist${siblingBundles(dir)}; pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)`);
  }
  if (!fs.statSync(dir).isDirectory()) {
    throw new Error(`OperatorBundle.fromDirectory: '${shown}' is not a directory; pass the registry+v1 bundle directory (the folder holding manifests/ and metadata/)`);
  }
  const manifestsDir = path.join(dir, 'manifests');
  if (!fs.existsSync(manifestsDir) || !fs.statSync(manifestsDir).isDirectory()) {
    throw new Error(`OperatorBundle.fromDirectory: '${shown}' has no 'manifests/' folder; a registry+v1 bundle keeps the CSV and the other objects in '<bundle>/manifests/'`);
  }
  return { shown, manifestsDir };
}

/** Reads what both readers need of a bundle directory (see `DirectorySnapshot`). */
function snapshotOf(dir: string): DirectorySnapshot {
  const { shown, manifestsDir } = checkBundleDirectory(dir);
  const root = bundleRoot(dir);
  insideBundle(root, manifestsDir);
  const entries: ManifestEntry[] = fs.readdirSync(manifestsDir).sort().map((name) => {
    const file = path.join(manifestsDir, name);
    try {
      return { name, file, text: readBundleFile(root, file) };
    } catch (error) {
      // raised when a reader reads the entry (OLM v0 never reads hidden entries)
      return { name, file, error };
    }
  });
  const annotationsFile = path.join(dir, 'metadata', 'annotations.yaml');
  const annotationsText = fs.existsSync(annotationsFile) ? readBundleFile(root, annotationsFile) : undefined;
  return { shown, root, entries, annotationsFile, annotationsText, dependencyTypes: metadataDependencyTypes(root, path.join(dir, 'metadata')) };
}

/** The annotations of the file OLM v0 reads them from (see `findAnnotationsFile`); {} when there is none. */
function readAnnotations(root: string, dir: string, warnings: string[]): Record<string, string> {
  const annotationsFile = findAnnotationsFile(root, path.join(dir, 'metadata'));
  return annotationsFile === undefined ? {} : annotationsOf(annotationsFile.text, esc(annotationsFile.file), warnings);
}

/** The `annotations` map of an annotations file's first document. */
function annotationsOf(text: string, where: string, warnings: string[]): Record<string, string> {
  const doc = decodeManifestFile(text).document;
  if (doc?.error !== undefined) throw new Error(`OperatorBundle: ${where}:${doc.error.line}: ${doc.error.message}`);
  for (const w of doc?.warnings ?? []) warnings.push(`${where}:${w.line}: ${w.message}`);
  const first = doc?.value;
  const a = isObject(first) ? first.annotations : undefined;
  if (a !== undefined && a !== null && !isObject(a)) {
    throw new Error(`OperatorBundle: ${where}: field 'annotations' must be a map of strings, got ${oneLine(a)}`);
  }
  return stringMap(a ?? {});
}

/**
 * The catalog property types of the dependencies in `metadata/`, as operator-registry builds a catalog entry from a
 * bundle: `pkg/registry/parse.go` `addMetadata` takes the first file of metadata/ (name order) whose first document
 * has a non-empty `dependencies` list; `registry_to_model.go` turns `olm.gvk` into `olm.gvk.required`, `olm.package`
 * into `olm.package.required`, and keeps any other type (`olm.constraint`, `olm.label`) as it is; properties are
 * sorted by type. Unique, sorted.
 */
function metadataDependencyTypes(root: string, metadataDir: string): string[] {
  if (!fs.existsSync(metadataDir) || !fs.statSync(metadataDir).isDirectory()) return [];
  insideBundle(root, metadataDir);
  for (const f of fs.readdirSync(metadataDir).sort()) {
    const text = readBundleFile(root, path.join(metadataDir, f));
    if (text === undefined) continue;
    const value = decodeManifestFile(text).document?.value;
    const deps = isObject(value) && Array.isArray(value.dependencies) ? value.dependencies : [];
    if (deps.length === 0) continue;
    const types = deps.map((d: any) => (isObject(d) && typeof d.type === 'string' ? d.type : ''))
      .map((t: string) => (t === 'olm.gvk' ? 'olm.gvk.required' : t === 'olm.package' ? 'olm.package.required' : t))
      .filter((t: string) => t !== '');
    return [...new Set<string>(types)].sort();
  }
  return [];
}

/** Go's %q of a plain path. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/**
 * The objects of one manifest file as operator-controller reads it: cli-runtime
 * `resource.NewLocalBuilder().Unstructured().Flatten().Stream(file, path)` (`StreamVisitor`: every document of
 * apimachinery's YAML-or-JSON decoder, empty and `null` ones skipped; `FlattenListVisitor`: an object with `items`
 * is a list (apimachinery `unstructuredJSONScheme.decode`), replaced by its items, which take the list's kind without
 * `List` and its apiVersion when they have neither, and need both). Anything else refuses the bundle.
 */
function olmV1Objects(text: string, where: string, rel: string, warnings: string[], refuse: (why: string) => Error): SourcedObject[] {
  const out: SourcedObject[] = [];
  const prefix = `error parsing objects in ${goQuote(rel)}`;
  const docs = decodeManifestStream(text);
  docs.forEach((doc, i) => {
    for (const w of doc.warnings) warnings.push(`${where}:${w.line}: ${w.message}`);
    if (doc.error !== undefined) {
      if (isLimitMessage(doc.error.message)) throw new Error(`OperatorBundle: ${where}:${doc.error.line}: ${doc.error.message}`);
      throw refuse(`${prefix}: error parsing ${rel}: line ${doc.error.line}: ${doc.error.message}`);
    }
    const v = doc.value;
    if (v === null || v === undefined) return;
    const source = docs.length > 1 ? `${where} (document ${i + 1})` : where;
    if (!isObject(v)) throw refuse(`${prefix}: unable to decode ${goQuote(rel)}: document ${i + 1} (line ${doc.line}) is not an object: ${oneLine(v, 60)}`);
    if (!Object.prototype.hasOwnProperty.call(v, 'items')) {
      if (typeof v.kind !== 'string' || v.kind === '') {
        throw refuse(`${prefix}: unable to decode ${goQuote(rel)}: Object 'Kind' is missing in document ${i + 1} (line ${doc.line}): ${oneLine(v, 60)}`);
      }
      out.push({ obj: v, source });
      return;
    }
    if (typeof v.kind !== 'string' || v.kind === '') {
      throw refuse(`${prefix}: unable to decode ${goQuote(rel)}: Object 'Kind' is missing in document ${i + 1} (line ${doc.line}): ${oneLine(v, 60)}`);
    }
    out.push(...flattenedList(v, source, `document ${i + 1} (line ${doc.line})`, (why) => refuse(`${prefix}: ${why}`)));
  });
  return out;
}

/**
 * The items of a list object (one with `items`), as apimachinery's `decodeToList` and cli-runtime's
 * `FlattenListVisitor` give them: items without kind and apiVersion take the list's kind without `List` and its
 * apiVersion; each needs both (the unstructured object typer).
 */
function flattenedList(v: Record<string, any>, source: string, at: string, refuse: (why: string) => Error): SourcedObject[] {
  const items = v.items === null ? [] : v.items;
  if (!Array.isArray(items)) throw refuse(`unable to decode ${at}: field 'items' of the ${esc(v.kind)} must be a list, got ${oneLine(items, 40)}`);
  const itemKind = v.kind.endsWith('List') ? v.kind.slice(0, -'List'.length) : v.kind;
  return items.map((item: any, j: number) => {
    const where = `item ${j} of the ${esc(v.kind)} in ${at}`;
    if (!isObject(item)) throw refuse(`unable to decode ${where}: not an object: ${oneLine(item, 40)}`);
    if (Object.prototype.hasOwnProperty.call(item, 'items')) {
      throw refuse(`${where} is a list itself; lists inside lists are not read (put each object in the outer list)`);
    }
    const obj = (item.kind === undefined || item.kind === '') && (item.apiVersion === undefined || item.apiVersion === '')
      ? { ...item, kind: itemKind, apiVersion: v.apiVersion } : item;
    if (typeof obj.kind !== 'string' || obj.kind === '') throw refuse(`unable to get type info from ${where}: Object 'Kind' is missing`);
    if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') throw refuse(`unable to get type info from ${where}: Object 'apiVersion' is missing`);
    return { obj, source: `${source} (${esc(v.kind)} item ${j})` };
  });
}

/** The real path of a bundle directory: files of the bundle must resolve inside it. */
function bundleRoot(dir: string): string {
  return fs.realpathSync(dir);
}

/**
 * Refuses a path of the bundle (a file, or the manifests/ or metadata/ folder) that resolves outside the bundle
 * directory: a symlink to `~/.aws/credentials` or `/proc/self/environ` would otherwise be read (and its first
 * characters quoted in a warning). A bundle image cannot hold such links: its files are its own. The message
 * names the link, never the target or its content.
 */
function insideBundle(root: string, file: string): string {
  const real = fs.realpathSync(file);
  if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
    throw new Error(`OperatorBundle: ${esc(file)}: is a symbolic link that resolves outside the bundle directory '${esc(root)}'; `
      + 'the loader reads only files inside the bundle. Fix: copy the file into the bundle instead of linking it');
  }
  return real;
}

/**
 * The text of one file of the bundle (undefined for a folder, which operator-registry skips), read with a real
 * byte limit: only regular files inside the bundle directory (see `insideBundle`), opened without following
 * links, checked again on the open descriptor, and read up to `LOADER_LIMITS.manifestBytes` whatever `stat` says
 * (files of /proc report size 0 and never end). FIFOs, sockets and devices are refused, not opened (opening a
 * FIFO blocks).
 */
function readBundleFile(root: string, file: string): string | undefined {
  const stat = fs.statSync(file); // first: a broken link is an ENOENT naming the file
  const real = insideBundle(root, file);
  if (stat.isDirectory()) return undefined;
  const where = esc(file);
  const limit = LOADER_LIMITS.manifestBytes;
  if (!stat.isFile()) {
    throw new Error(`OperatorBundle: ${where}: is not a regular file (a FIFO, socket or device); a bundle holds only files. Fix: remove it from the bundle`);
  }
  if (stat.size > limit) {
    throw new Error(`OperatorBundle: ${where}: file is ${stat.size} bytes, over the limit of ${limit} bytes for a bundle manifest`);
  }
  // eslint-disable-next-line no-bitwise
  const fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) {
      throw new Error(`OperatorBundle: ${where}: changed while it was read; a bundle holds only regular files`);
    }
    const text = readAtMost(fd, limit);
    if (text === undefined) throw new Error(`OperatorBundle: ${where}: file holds more than ${limit} bytes, over the limit for a bundle manifest`);
    return text;
  } finally {
    fs.closeSync(fd);
  }
}

/** A Node file-system error (EACCES, ELOOP, a broken link...) as an Error naming the method and the path; others as they are. */
function fileSystemError(e: unknown, method: string): unknown {
  // duck-typed: errors of Node's fs are not instances of the caller's Error in every realm (jest, vm)
  const err = e as NodeJS.ErrnoException;
  if (err !== null && typeof err === 'object' && typeof err.code === 'string' && typeof err.syscall === 'string') {
    return new Error(`OperatorBundle.${method}: cannot read '${esc(String(err.path ?? ''))}': ${esc(err.message)}`);
  }
  return e;
}

/** A decoding error that is a loader limit: an error even where OLM would merely skip the file. */
function isLimitMessage(message: string): boolean {
  return /the loader's limit|alias bomb|over the limit/.test(message);
}

/** Every document of a YAML text given to `fromCsvYaml` (all documents count; empty ones are skipped). */
function parseYamlText(text: string, source: string, warnings: string[]): SourcedObject[] {
  if (typeof text !== 'string') throw new Error(`OperatorBundle: ${source}: must be YAML text, got ${oneLine(text)}`);
  const tooBig = sizeProblem(text, LOADER_LIMITS.manifestBytes);
  if (tooBig !== undefined) throw new Error(`OperatorBundle: ${source}: ${tooBig}`);
  const out: SourcedObject[] = [];
  const docs = decodeYamlDocuments(text);
  docs.forEach((doc, i) => {
    if (doc.error !== undefined) {
      throw new Error(`OperatorBundle: ${source}: broken YAML in document ${i + 1} (line ${doc.error.line}): ${doc.error.message}`);
    }
    for (const w of doc.warnings) warnings.push(`${source}:${w.line}: ${w.message}`);
    if (doc.value === null || doc.value === undefined) return;
    out.push({ obj: doc.value, source: docs.length > 1 ? `${source} (document ${i + 1})` : source });
  });
  return out;
}

/** Reads a catalog file for `fromCatalogFile` / `fromCatalogPackage` like `FileBasedCatalog.fromPath`; throws on load problems. */
function readCatalog(file: string, method: string): { catalog: FileBasedCatalog; shown: string } {
  try {
    return readCatalogUnchecked(file, method);
  } catch (e) {
    throw fileSystemError(e, method);
  }
}

/**
 * What exists next to a missing bundle directory: `; the bundles under 'bundles/etcd' are 0.9.2, 0.9.4` (the
 * folders with a manifests/ folder under the nearest parent that exists, at most 20; '' when there are none).
 */
function siblingBundles(dir: string): string {
  try {
    let parent = path.dirname(dir);
    while (!fs.existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
    if (!fs.existsSync(parent) || !fs.statSync(parent).isDirectory()) return '';
    const bundles = fs.readdirSync(parent, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && fs.existsSync(path.join(parent, e.name, 'manifests')))
      .map((e) => e.name)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const shownParent = esc(parent);
    if (bundles.length > 0) return `; the bundles under '${shownParent}' are ${esc(bundles.slice(0, 20).join(', '))}${bundles.length > 20 ? `, ... (${bundles.length} in all)` : ''}`;
    return '';
  } catch {
    return '';
  }
}

function readCatalogUnchecked(file: string, method: string): { catalog: FileBasedCatalog; shown: string } {
  if (typeof file !== 'string' || file === '') {
    throw new Error(`OperatorBundle.${method}: the catalog file must be a non-empty path, got ${oneLine(file)}`);
  }
  const shown = esc(file);
  if (!fs.existsSync(file)) throw new Error(`OperatorBundle.${method}: '${shown}' does not exist; pass a file-based catalog file (JSON or YAML)`);
  if (!fs.statSync(file).isFile()) {
    throw new Error(`OperatorBundle.${method}: '${shown}' is not a file; pass one file-based catalog file (for example <catalog>/<package>/catalog.json)`);
  }
  const catalog = FileBasedCatalog.fromPath(file);
  if (catalog.loadProblems.length > 0) {
    const list = catalog.loadProblems.map((p) => p.message);
    throw new Error(`OperatorBundle.${method}: cannot read ${shown}: ${list.slice(0, 5).join('; ')}${list.length > 5 ? `; and ${list.length - 5} more` : ''}`);
  }
  return { catalog, shown };
}
