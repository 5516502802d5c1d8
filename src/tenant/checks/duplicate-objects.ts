// Duplicate object identities across an App: two objects with the same group, kind, namespace and name land in the
// manifests, and whichever is applied last silently replaces the other. Internal: not re-exported.
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from '../../core/app-context';
import { CODE } from '../../core/diagnostic-codes';
import { DiagnosticDetails } from '../../core/diagnostic-details';
import { Diagnostics } from '../../core/diagnostics';

/**
 * Cluster-scoped kinds (`<group>/<kind>`) whose identity has no namespace even when a Chart's `namespace` put one
 * into their metadata (the API server ignores it).
 */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  '/Namespace', '/Node', '/PersistentVolume',
  'rbac.authorization.k8s.io/ClusterRole', 'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition', 'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration', 'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'storage.k8s.io/StorageClass', 'storage.k8s.io/CSIDriver', 'scheduling.k8s.io/PriorityClass', 'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass', 'certificates.k8s.io/CertificateSigningRequest',
  'operators.coreos.com/Operator', 'operators.coreos.com/OLMConfig', 'config.openshift.io/OperatorHub',
  'security.openshift.io/SecurityContextConstraints',
]);

/**
 * Kinds whose name clashes another check reports already: ValidatingAdmissionPolicies and their bindings
 * (`DuplicateAdmissionPolicy` of `CuratedCatalogAdmissionPolicy`).
 */
const REPORTED_ELSEWHERE: ReadonlySet<string> = new Set(['admissionregistration.k8s.io/ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding']);

/** The path of the tenant that defines an object, if any. */
type OwnerOf = (o: ApiObject) => string | undefined;

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The object's identity on the cluster: API group (not version), kind, namespace (none when cluster-scoped), name. */
function identity(obj: ApiObject): { groupKind: string; namespace: string; name: string } {
  const groupKind = groupKindOf(obj.apiVersion, obj.kind);
  const namespace = CLUSTER_SCOPED.has(groupKind) ? '' : obj.metadata.namespace ?? '';
  return { groupKind, namespace, name: obj.metadata.name ?? '' };
}

/** `RoleBinding team-a/x` or `ClusterRole x` (with the group for kinds outside the core and RBAC groups). */
export function describeObject(obj: ApiObject): string {
  const { groupKind, namespace, name } = identity(obj);
  const group = groupOf(obj.apiVersion);
  const kind = group === '' || group === 'rbac.authorization.k8s.io' ? obj.kind : groupKind.replace(/^(.*)\/(.*)$/, '$2.$1');
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/**
 * Every ApiObject among `constructs` that shares its identity with another, mapped to the others (in tree order).
 * One pass over the constructs with a Map: linear in the size of the App. Reads only `apiVersion`, `kind`,
 * `metadata.name` and `metadata.namespace` (no `toJson`).
 */
export function findDuplicateObjects(constructs: IConstruct[]): Map<ApiObject, ApiObject[]> {
  // one key string per object and no list for the (usual) single object of an identity: the index lives through
  // the whole validation pass of an App with tens of thousands of objects
  const byIdentity = new Map<string, ApiObject | ApiObject[]>();
  let duplicated = false;
  for (const c of constructs) {
    if (!(c instanceof ApiObject)) continue;
    const groupKind = groupKindOf(c.apiVersion, c.kind);
    if (REPORTED_ELSEWHERE.has(groupKind)) continue;
    const namespace = CLUSTER_SCOPED.has(groupKind) ? '' : c.metadata.namespace ?? '';
    const key = `${groupKind}\u0000${namespace}\u0000${c.metadata.name ?? ''}`;
    const found = byIdentity.get(key);
    if (found === undefined) {
      byIdentity.set(key, c);
    } else {
      duplicated = true;
      if (Array.isArray(found)) found.push(c);
      else byIdentity.set(key, [found, c]);
    }
  }
  const out = new Map<ApiObject, ApiObject[]>();
  if (!duplicated) return out;
  for (const list of byIdentity.values()) {
    if (!Array.isArray(list)) continue;
    for (const obj of list) out.set(obj, list.filter((o) => o !== obj));
  }
  return out;
}

/** `<group>/<kind>`, one string per (apiVersion, kind) pair. */
const GROUP_KIND_CACHE = new Map<string, Map<string, string>>();
function groupKindOf(apiVersion: string, kind: string): string {
  let byKind = GROUP_KIND_CACHE.get(apiVersion);
  if (byKind === undefined) GROUP_KIND_CACHE.set(apiVersion, byKind = new Map());
  let groupKind = byKind.get(kind);
  if (groupKind === undefined) byKind.set(kind, groupKind = `${groupOf(apiVersion)}/${kind}`);
  return groupKind;
}

/**
 * The `DuplicateObject` error for `obj`.
 * @param ownerOf the tenant path of an object, if a tenant defines it
 * @param field where the object is, relative to the construct that reports it (none when it reports itself)
 */
export function duplicateObjectError(obj: ApiObject, others: ApiObject[], ownerOf: OwnerOf, field?: string): DiagnosticDetails {
  const who = (o: ApiObject) => {
    const owner = ownerOf(o);
    return `${o.node.path}${owner ? ` (tenant ${owner})` : ''}`;
  };
  return {
    code: CODE.DuplicateObject,
    field,
    value: describeObject(obj),
    message: `${describeObject(obj)} is also written by ${others.map(who).join(', ')}; both land in the manifests with the same group, kind, namespace and name, and whichever is applied last silently replaces the other`,
    fix: 'rename one of them (for tenants: namespaceName, operatorGroupName, installerRoleName, installerRoleBindingName, tokenSecretName), or define the object once',
  };
}

/** The objects outside tenants that report their duplicates themselves (`reportOnObject`). */
const REPORTING_DUPLICATES = new AppSlot('reportingDuplicates', () => new Set<ApiObject>());

/**
 * Makes `obj` report its duplicates itself (for objects no tenant defines). Called during a validation pass, before
 * cdk8s validates `obj` (the index is built by a validation on the root, which runs first); added once per object.
 * @param current the duplicates of the current pass
 */
export function reportOnObject(obj: ApiObject, current: () => Map<ApiObject, ApiObject[]> | undefined, ownerOf: OwnerOf): void {
  const reporting = AppContext.of(obj).get(REPORTING_DUPLICATES);
  if (reporting.has(obj)) return;
  reporting.add(obj);
  obj.node.addValidation({
    validate: () => {
      const others = current()?.get(obj);
      if (!others) return [];
      return [Diagnostics.formatMessage(duplicateObjectError(obj, others, ownerOf))];
    },
  });
}
