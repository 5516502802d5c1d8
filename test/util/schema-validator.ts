/**
 * Offline schema validation of synthesized Kubernetes objects, for tests: every object the library emits must be
 * something the API server accepts. See docs/schema-validation.md for what is checked against what.
 *
 * - OLM kinds (operators.coreos.com) and OpenShift's OperatorHub: the CRD's `openAPIV3Schema` for the served
 *   version, from the copies committed under crds/, compiled with ajv and closed like the API server's pruning plus
 *   strict field validation would (see {@link SchemaValidator.toAjvSchema}).
 * - Core kinds: kubernetes-models 4.5.1 validators (types, enums, required fields) plus closed shapes derived from
 *   its TypeScript declarations (unknown fields), see ./closed-shapes.ts; RBAC kinds and ValidatingAdmissionPolicy
 *   (and its binding) also get the API server's Go checks (./rbac-validation.ts, ./admission-validation.ts).
 * - All kinds: ObjectMeta as the API server checks it (name rule per kind, namespace scope, label and annotation
 *   syntax, annotation size), see ./kubernetes-validation.ts.
 * - Anything else: "no schema for <apiVersion>/<kind>", so nothing slips through unvalidated.
 *
 * Messages read `<Kind>/<namespace>/<name>: <field path> <problem>` (`<Kind>/<name>: ...` without a namespace).
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { MutatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration';
import { ValidatingAdmissionPolicy } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy';
import { ValidatingAdmissionPolicyBinding } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding';
import { ValidatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { LimitRange } from 'kubernetes-models/v1/LimitRange';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parseAllDocuments } from 'yaml';
import { AdmissionPolicyValidation } from './admission-validation';
import { ClosedShapes, Shape } from './closed-shapes';
import { diskMemo, memoKey, MemoCodec } from './disk-memo';
import { KubernetesValidation, TestNameRule, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES } from './kubernetes-validation';
import { RbacValidation } from './rbac-validation';

/** Repository root (this file is test/util/schema-validator.ts). */
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** CRD copies committed in the repository (never /work/shared at test time). Only files directly in these folders. */
const DEFAULT_CRD_DIRS = ['olm', 'openshift', 'olm-v1', 'argocd', 'flux'].map((dir) => path.join(REPO_ROOT, 'crds', dir));

type Json = Record<string, any>;
type ModelClass = new (data: any) => { validate(): void };
type PathSegment = string | number;

/** A core kind: how kubernetes-models validates it and which ObjectMeta rules the API server applies. */
interface CoreKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly model: ModelClass;
  /** kubernetes-models module, e.g. `v1/Namespace`. */
  readonly module: string;
  readonly namespaced: boolean;
  /** Name rule from kubernetes pkg/apis/<group>/validation (`ValidateXxxName`). */
  readonly nameRule: TestNameRule;
}

function core(apiVersion: string, kind: string, model: ModelClass, namespaced: boolean, nameRule: TestNameRule): CoreKind {
  return { apiVersion, kind, model, module: `${apiVersion}/${kind}`, namespaced, nameRule };
}

const S = TestNameRule.DNS1123_SUBDOMAIN;
const P = TestNameRule.PATH_SEGMENT;
/**
 * Core kinds this harness knows. Name rules: Namespace `ValidateNamespaceName` (DNS-1123 label), Service
 * `ValidateServiceName` (DNS-1035 label), RBAC kinds `ValidateRBACName` (path segment), everything else DNS-1123
 * subdomain (kubernetes/kubernetes pkg/apis/{core,rbac,apps,...}/validation/validation.go).
 */
const CORE_KINDS: CoreKind[] = [
  core('v1', 'Namespace', Namespace, false, TestNameRule.DNS1123_LABEL),
  core('v1', 'ServiceAccount', ServiceAccount, true, S),
  core('v1', 'Secret', Secret, true, S),
  core('v1', 'ConfigMap', ConfigMap, true, S),
  core('v1', 'Service', Service, true, TestNameRule.DNS1035_LABEL),
  core('v1', 'ResourceQuota', ResourceQuota, true, S),
  core('v1', 'LimitRange', LimitRange, true, S),
  core('apps/v1', 'Deployment', Deployment, true, S),
  core('rbac.authorization.k8s.io/v1', 'Role', Role, true, P),
  core('rbac.authorization.k8s.io/v1', 'RoleBinding', RoleBinding, true, P),
  core('rbac.authorization.k8s.io/v1', 'ClusterRole', ClusterRole, false, P),
  core('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', ClusterRoleBinding, false, P),
  core('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', ValidatingAdmissionPolicy, false, S),
  core('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', ValidatingAdmissionPolicyBinding, false, S),
  core('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', ValidatingWebhookConfiguration, false, S),
  core('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', MutatingWebhookConfiguration, false, S),
  core('networking.k8s.io/v1', 'NetworkPolicy', NetworkPolicy, true, S),
  core('policy/v1', 'PodDisruptionBudget', PodDisruptionBudget, true, S),
  core('apiextensions.k8s.io/v1', 'CustomResourceDefinition', CustomResourceDefinition, false, S),
];

/**
 * ObjectMeta fields and types (k8s.io/apimachinery/pkg/apis/meta/v1 types.go). Closed: an unknown metadata field is
 * an error. Timestamps may be null (kubectl writes `creationTimestamp: null`).
 */
const OBJECT_META_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    generateName: { type: 'string' },
    namespace: { type: 'string' },
    selfLink: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    generation: { type: 'integer' },
    creationTimestamp: { type: 'string', format: 'date-time', nullable: true },
    deletionTimestamp: { type: 'string', format: 'date-time', nullable: true },
    deletionGracePeriodSeconds: { type: 'integer' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['apiVersion', 'kind', 'name', 'uid'],
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          uid: { type: 'string' },
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
      },
    },
    managedFields: { type: 'array', items: { type: 'object' } },
  },
};

/** A CRD version this harness can validate against. */
interface CrdVersion {
  readonly kind: string;
  readonly namespaced: boolean;
  readonly served: boolean;
  readonly schema: Json;
}

/** Options of {@link SchemaValidator}. */
export interface SchemaValidatorOptions {
  /** Folders whose `*.yaml` files hold CustomResourceDefinitions. @default crds/olm, crds/openshift, crds/olm-v1, crds/argocd and crds/flux of this repo */
  readonly crdDirs?: string[];
}

/** Validates Kubernetes objects offline. Use {@link SchemaValidator.shared} so compiled schemas are reused. */
export class SchemaValidator {
  /** One instance per test process: the CSV schema (800 KB) and the core-kind shapes are built once. */
  public static shared(): SchemaValidator {
    if (!SchemaValidator.instance) SchemaValidator.instance = new SchemaValidator();
    return SchemaValidator.instance;
  }

  /**
   * The CRD schema as ajv should see it, mirroring what the API server enforces:
   * - objects are closed (`additionalProperties: false`) where the schema has `properties`, or is `type: object`
   *   with neither `properties` nor `additionalProperties`, unless `x-kubernetes-preserve-unknown-fields`: the API
   *   server prunes such fields, and kubectl's default strict field validation rejects them as unknown;
   * - `x-kubernetes-int-or-string` becomes `type: [integer, string]` (one clear error instead of anyOf noise);
   * - the root `metadata` is left open here and validated by the ObjectMeta rules instead;
   * - descriptions are dropped (less to compile).
   */
  public static toAjvSchema(schema: Json, isRoot = true): Json {
    const out: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'description') continue;
      out[key] = value;
    }
    if (out['x-kubernetes-int-or-string'] === true) {
      delete out.anyOf;
      delete out.type;
      out.type = ['integer', 'string'];
    }
    if (out.properties) {
      const props: Json = {};
      for (const [name, sub] of Object.entries(out.properties as Json)) {
        props[name] = isRoot && name === 'metadata' ? {} : SchemaValidator.toAjvSchema(sub, false);
      }
      out.properties = props;
    }
    if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) {
      out.items = SchemaValidator.toAjvSchema(out.items, false);
    }
    if (out.additionalProperties && typeof out.additionalProperties === 'object') {
      out.additionalProperties = SchemaValidator.toAjvSchema(out.additionalProperties, false);
    }
    for (const combinator of ['anyOf', 'allOf', 'oneOf']) {
      if (Array.isArray(out[combinator])) {
        out[combinator] = out[combinator].map((s: Json) => SchemaValidator.toAjvSchema(s, false));
      }
    }
    if (out.not) out.not = SchemaValidator.toAjvSchema(out.not, false);
    const isObject = out.properties !== undefined || out.type === 'object';
    if (isObject && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) {
      out.additionalProperties = false;
    }
    return out;
  }

  private static instance: SchemaValidator | undefined;

  private readonly crdDirs: string[];
  private readonly ajv: Ajv;
  private readonly metaValidator: ValidateFunction;
  private crdIndex: Map<string, Map<string, CrdVersion>> | undefined;
  private readonly crdValidators = new Map<string, { schema: Json; validate: ValidateFunction }>();
  private coreShapes: Map<string, Shape> | undefined;

  public constructor(options: SchemaValidatorOptions = {}) {
    this.crdDirs = options.crdDirs ?? DEFAULT_CRD_DIRS;
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false, allowUnionTypes: true });
    addFormats(this.ajv);
    // The API server does not range-check these OpenAPI formats on custom resources: accept any value.
    for (const format of ['int32', 'int64', 'float', 'double', 'int-or-string', 'quantity', 'password']) {
      this.ajv.addFormat(format, true);
    }
    this.ajv.addKeyword({
      keyword: 'x-kubernetes-list-type',
      type: 'array',
      schemaType: 'string',
      errors: true,
      validate: listTypeValidator,
    });
    this.metaValidator = this.ajv.compile(OBJECT_META_SCHEMA);
  }

  /** True when this harness has a schema for the apiVersion and kind. */
  public hasSchema(apiVersion: string, kind: string): boolean {
    return findCoreKind(apiVersion, kind) !== undefined || this.crdVersion(apiVersion, kind)?.served === true;
  }

  /** Whether objects of this kind live in a namespace; undefined when the harness has no schema for it. */
  public isNamespaced(apiVersion: string, kind: string): boolean | undefined {
    const coreKind = findCoreKind(apiVersion, kind);
    if (coreKind) return coreKind.namespaced;
    return this.crdVersion(apiVersion, kind)?.namespaced;
  }

  /** Every problem of every object, in input order. Empty when all objects are valid. */
  public validateAll(objects: readonly unknown[]): string[] {
    return objects.flatMap((o) => this.validate(o));
  }

  /** Every problem of one object, as `<Kind>/<namespace>/<name>: <field path> <problem>`. Empty when valid. */
  public validate(object: unknown): string[] {
    if (object === null || typeof object !== 'object' || Array.isArray(object)) {
      return [`(not an object): (root) must be a Kubernetes object (got ${describe(object)})`];
    }
    const obj = object as Json;
    const label = objectLabel(obj);
    const apiVersion = obj.apiVersion;
    const kind = obj.kind;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      return [`${label}: (root) must have string apiVersion and kind (got ${describe(apiVersion)} and ${describe(kind)})`];
    }
    const problems: string[] = [];
    const coreKind = findCoreKind(apiVersion, kind);
    if (coreKind) {
      problems.push(...this.validateMetadata(obj, coreKind.namespaced, coreKind.nameRule));
      problems.push(...this.validateCore(obj, coreKind));
    } else {
      const version = this.crdVersion(apiVersion, kind);
      if (!version) return [`${label}: no schema for ${apiVersion}/${kind}`];
      if (!version.served) return [`${label}: no schema for ${apiVersion}/${kind} (that version is not served)`];
      // Custom resources: ValidateObjectMetaAccessor(..., NameIsDNSSubdomain, ...) in
      // k8s.io/apiextensions-apiserver/pkg/registry/customresource/validator.go
      problems.push(...this.validateMetadata(obj, version.namespaced, TestNameRule.DNS1123_SUBDOMAIN));
      problems.push(...this.validateCustomResource(obj, apiVersion, version));
    }
    return [...new Set(problems)].map((p) => `${label}: ${p}`);
  }

  private validateMetadata(obj: Json, namespaced: boolean, nameRule: TestNameRule): string[] {
    const meta = obj.metadata;
    if (meta === undefined || meta === null) return ['metadata is required'];
    const problems: string[] = [];
    if (!this.metaValidator(meta)) {
      problems.push(...(this.metaValidator.errors ?? []).map((e) => formatAjvError(e, meta, ['metadata'])));
    }
    if (typeof meta !== 'object' || Array.isArray(meta)) return problems;
    const { name, namespace, labels, annotations, finalizers } = meta as Json;
    if (name === undefined || name === '') {
      problems.push('metadata.name is required');
    } else if (typeof name === 'string') {
      const p = KubernetesValidation.nameProblem(name, nameRule);
      if (p) problems.push(`metadata.name ${JSON.stringify(name)} is invalid: ${p}`);
    }
    if (namespaced) {
      if (namespace === undefined || namespace === '') {
        problems.push(`metadata.namespace is required: ${obj.kind} is namespaced and synthesized objects must say where they go`);
      } else if (typeof namespace === 'string') {
        const p = KubernetesValidation.nameProblem(namespace, TestNameRule.DNS1123_LABEL);
        if (p) problems.push(`metadata.namespace ${JSON.stringify(namespace)} is invalid: ${p}`);
      }
    } else if (namespace !== undefined && namespace !== '') {
      problems.push(`metadata.namespace is not allowed: ${obj.kind} is cluster-scoped`);
    }
    if (isPlainObject(labels)) {
      for (const [key, value] of Object.entries(labels)) {
        const at = formatPath(['metadata', 'labels', key]);
        for (const p of KubernetesValidation.qualifiedNameProblems(key)) problems.push(`${at} key is invalid: ${p}`);
        if (typeof value === 'string') {
          for (const p of KubernetesValidation.labelValueProblems(value)) {
            problems.push(`${at} value ${JSON.stringify(value)} is invalid: ${p}`);
          }
        }
      }
    }
    if (isPlainObject(annotations)) {
      for (const key of Object.keys(annotations)) {
        const at = formatPath(['metadata', 'annotations', key]);
        // objectmeta.go ValidateAnnotations: the key rule is QualifiedName, case-insensitively.
        for (const p of KubernetesValidation.qualifiedNameProblems(key.toLowerCase())) problems.push(`${at} key is invalid: ${p}`);
      }
      const size = KubernetesValidation.annotationsSize(annotations);
      if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
        problems.push(`metadata.annotations are too long: ${size} bytes, may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES}`);
      }
    }
    if (Array.isArray(finalizers)) {
      finalizers.forEach((f, i) => {
        if (typeof f !== 'string') return;
        for (const p of KubernetesValidation.qualifiedNameProblems(f)) {
          problems.push(`${formatPath(['metadata', 'finalizers', i])} ${JSON.stringify(f)} is invalid: ${p}`);
        }
      });
    }
    return problems;
  }

  private validateCore(obj: Json, coreKind: CoreKind): string[] {
    const body: Json = { ...obj };
    delete body.metadata; // validated by validateMetadata, with the API server's rules
    const problems: string[] = [];
    try {
      new coreKind.model(body).validate();
    } catch (e: any) {
      const errors: ErrorObject[] | undefined = e?.errors;
      if (!Array.isArray(errors)) throw e;
      problems.push(...errors.map((err) => formatAjvError(err, body, [])));
    }
    const shape = this.shapes().get(coreKind.module);
    if (!shape) throw new Error(`no shape for ${coreKind.module}`);
    for (const p of ClosedShapes.check(shape, body)) problems.push(`${formatPath(p.path)} is an unknown field`);
    // The API server's Go validation runs on decoded objects: only meaningful once the types are right.
    if (problems.length === 0) problems.push(...RbacValidation.problems(body), ...AdmissionPolicyValidation.problems(body));
    return problems;
  }

  private validateCustomResource(obj: Json, apiVersion: string, version: CrdVersion): string[] {
    const key = `${apiVersion}/${version.kind}`;
    let compiled = this.crdValidators.get(key);
    if (!compiled) {
      const schema = SchemaValidator.toAjvSchema(version.schema);
      compiled = { schema, validate: this.ajv.compile(schema) };
      this.crdValidators.set(key, compiled);
    }
    const normalized = normalize(compiled.schema, obj);
    if (compiled.validate(normalized)) return [];
    return (compiled.validate.errors ?? []).map((e) => formatAjvError(e, normalized, []));
  }

  private shapes(): Map<string, Shape> {
    if (!this.coreShapes) this.coreShapes = ClosedShapes.buildShared(CORE_KINDS.map((k) => k.module));
    return this.coreShapes;
  }

  private crdVersion(apiVersion: string, kind: string): CrdVersion | undefined {
    const slash = apiVersion.indexOf('/');
    if (slash < 0) return undefined; // CRDs always have a group
    const group = apiVersion.slice(0, slash);
    const version = apiVersion.slice(slash + 1);
    return this.crds().get(`${group}/${kind}`)?.get(version);
  }

  /**
   * Index of CRD versions by `<group>/<kind>`, read once from the CRD folders; stored on disk for the other test
   * files (test/util/disk-memo.ts), keyed by the files' names and contents, this file's source and package-lock.json.
   */
  private crds(): Map<string, Map<string, CrdVersion>> {
    if (this.crdIndex) return this.crdIndex;
    const files = this.crdDirs.flatMap((dir) => fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()
      .map((f) => path.join(dir, f)).filter((full) => fs.statSync(full).isFile()));
    const texts = files.map((full) => fs.readFileSync(full, 'utf8'));
    const key = memoKey([
      fs.readFileSync(__filename, 'utf8'),
      fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8'),
      ...files.flatMap((full, i) => [full, texts[i]]),
    ]);
    this.crdIndex = diskMemo('crd-index', key, CRD_INDEX_CODEC, () => readCrdIndex(texts));
    return this.crdIndex;
  }
}

/** The CRD index as JSON: the two levels of maps as entry lists. */
const CRD_INDEX_CODEC: MemoCodec<Map<string, Map<string, CrdVersion>>> = {
  toJson: (index) => [...index].map(([k, versions]) => [k, [...versions]]),
  fromJson: (json: Array<[string, Array<[string, CrdVersion]>]>) => new Map(json.map(([k, versions]) => [k, new Map(versions)])),
};

/** Index of CRD versions by `<group>/<kind>` from the texts of the CRD files (in folder and file-name order). */
function readCrdIndex(texts: string[]): Map<string, Map<string, CrdVersion>> {
  const index = new Map<string, Map<string, CrdVersion>>();
  for (const text of texts) {
    for (const doc of parseAllDocuments(text)) {
      const crd = doc.toJSON();
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      const versions = new Map<string, CrdVersion>();
      for (const v of crd.spec.versions ?? []) {
        versions.set(v.name, {
          kind: crd.spec.names.kind,
          namespaced: crd.spec.scope === 'Namespaced',
          served: v.served === true,
          schema: v.schema?.openAPIV3Schema ?? crd.spec.validation?.openAPIV3Schema ?? {},
        });
      }
      index.set(`${crd.spec.group}/${crd.spec.names.kind}`, versions);
    }
  }
  return index;
}

function findCoreKind(apiVersion: string, kind: string): CoreKind | undefined {
  return CORE_KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
}

/**
 * ajv keyword for `x-kubernetes-list-type`: `set` items must be unique, `map` items unique by
 * `x-kubernetes-list-map-keys` (the API server rejects duplicates with "Duplicate value").
 */
function listTypeValidator(listType: string, data: unknown[], parentSchema?: any): boolean {
  const self = listTypeValidator as unknown as { errors: Partial<ErrorObject>[] | null };
  self.errors = null;
  let keyOf: (item: unknown) => string;
  if (listType === 'set') {
    keyOf = (item) => JSON.stringify(item);
  } else if (listType === 'map') {
    const keys: string[] = parentSchema?.['x-kubernetes-list-map-keys'] ?? [];
    keyOf = (item) => JSON.stringify(keys.map((k) => (isPlainObject(item) ? item[k] : undefined)));
  } else {
    return true; // atomic
  }
  const seen = new Map<string, number>();
  const errors: Partial<ErrorObject>[] = [];
  data.forEach((item, i) => {
    const k = keyOf(item);
    const first = seen.get(k);
    if (first === undefined) {
      seen.set(k, i);
    } else {
      errors.push({
        keyword: 'x-kubernetes-list-type',
        params: { listType, first, duplicate: i },
        message: listType === 'set'
          ? `has duplicate items: [${first}] and [${i}] are equal (list type "set")`
          : `has duplicate items: [${first}] and [${i}] have the same ${JSON.stringify(parentSchema?.['x-kubernetes-list-map-keys'])} (list type "map")`,
      });
    }
  });
  if (errors.length === 0) return true;
  self.errors = errors;
  return false;
}

/**
 * `data` as the API server validates it (a copy; `data` is not changed):
 * 1. object fields whose value is null and whose schema is not `nullable: true` are pruned ("Defaulting and
 *    Nullable" in the Kubernetes CRD docs), so `resources: null` counts as absent;
 * 2. then schema `default`s are applied to missing fields, top-down (so a defaulted object gets its own defaults), as
 *    the apiextensions-apiserver does before validation. This matters: CSV `hostAliases[].ip` is required and
 *    defaulted to "".
 */
function normalize(schema: Json | undefined, data: unknown): unknown {
  if (!schema) return data;
  if (Array.isArray(data)) {
    const items = schema.items;
    return items && typeof items === 'object' ? data.map((d) => normalize(items, d)) : data;
  }
  if (!isPlainObject(data)) return data;
  const subSchema = (key: string): Json | undefined => schema.properties?.[key]
    ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  const out: Json = {};
  for (const [key, value] of Object.entries(data)) {
    const sub = subSchema(key);
    if (value === null && sub && sub.nullable !== true) continue;
    out[key] = value;
  }
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Json)) {
    if (out[key] === undefined && sub.default !== undefined) out[key] = JSON.parse(JSON.stringify(sub.default));
  }
  for (const [key, value] of Object.entries(out)) out[key] = normalize(subSchema(key), value);
  return out;
}

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `<Kind>/<namespace>/<name>`, or `<Kind>/<name>` when the object has no namespace. */
function objectLabel(obj: Json): string {
  const kind = typeof obj.kind === 'string' ? obj.kind : '(no kind)';
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' && meta.name !== '' ? meta.name : '(no name)';
  return typeof meta.namespace === 'string' && meta.namespace !== '' ? `${kind}/${meta.namespace}/${name}` : `${kind}/${name}`;
}

/** Type name as JSON sees it: null, array, integer, number, string, boolean, object, undefined. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  const text = json.length > 60 ? `${json.slice(0, 57)}...` : json;
  return isPlainObject(value) || Array.isArray(value) ? typeName(value) : text;
}

/** Kubernetes-style field path: `spec.config.env[0].name`, `metadata.labels[app.kubernetes.io/name]`. */
function formatPath(segments: PathSegment[]): string {
  if (segments.length === 0) return '(root)';
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${seg}]`;
  }
  return out;
}

/** Segments of a JSON pointer, numbers where the data at that point is an array. */
function resolvePointer(root: unknown, pointer: string): { segments: PathSegment[]; value: unknown } {
  const segments: PathSegment[] = [];
  let node: any = root;
  if (pointer) {
    for (const raw of pointer.slice(1).split('/')) {
      const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) {
        segments.push(Number(seg));
        node = node[Number(seg)];
      } else {
        segments.push(seg);
        node = node === null || node === undefined ? undefined : node[seg];
      }
    }
  }
  return { segments, value: node };
}

/** One ajv error as `<field path> <problem>`; `prefix` is prepended to the path (e.g. `metadata`). */
function formatAjvError(err: ErrorObject, root: unknown, prefix: PathSegment[]): string {
  const { segments, value } = resolvePointer(root, err.instancePath);
  const at = [...prefix, ...segments];
  const params = err.params as Record<string, any>;
  switch (err.keyword) {
    case 'required':
      return `${formatPath([...at, params.missingProperty])} is required`;
    case 'additionalProperties':
      return `${formatPath([...at, params.additionalProperty])} is an unknown field`;
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `${formatPath(at)} must be of type ${types.join(' or ')} (got ${typeName(value)})`;
    }
    case 'enum':
      return `${formatPath(at)} must be one of ${params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')} (got ${describe(value)})`;
    case 'const':
      return `${formatPath(at)} must be ${JSON.stringify(params.allowedValue)} (got ${describe(value)})`;
    case 'pattern':
      return `${formatPath(at)} must match the pattern ${JSON.stringify(params.pattern)} (got ${describe(value)})`;
    case 'format':
      return `${formatPath(at)} must be a valid ${params.format} (got ${describe(value)})`;
    case 'maxLength':
      return `${formatPath(at)} must be at most ${params.limit} characters (has ${String(value).length})`;
    case 'minLength':
      return `${formatPath(at)} must be at least ${params.limit} characters (has ${String(value).length})`;
    case 'maxItems':
      return `${formatPath(at)} must have at most ${params.limit} items`;
    case 'minItems':
      return `${formatPath(at)} must have at least ${params.limit} items`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${formatPath(at)} must be ${params.comparison} ${params.limit} (got ${describe(value)})`;
    default:
      return `${formatPath(at)} ${err.message ?? `fails ${err.keyword}`}`;
  }
}
