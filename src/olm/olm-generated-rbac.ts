/**
 * A pure model of the RBAC that OLM (v0) generates for an OperatorGroup and its member operators.
 *
 * Modelled from OLM's code, not its docs (see docs/rbac.md for every difference):
 * - `pkg/controller/operators/olm/operatorgroup.go`: `ensureProvidedAPIClusterRole`, `ensureClusterRolesForCSV`,
 *   `ensureOpGroupClusterRole(s)`, `getClusterRoleName`, `getClusterRoleAggregationRule`,
 *   `ensureRBACInTargetNamespace` + `ensureSingletonRBAC` (AllNamespaces: Roles lifted to ClusterRoles),
 *   `ensureCSVsInNamespaces` + `ensureTenantRBAC` (other modes: Roles copied into each other target namespace);
 * - `pkg/controller/registry/resolver/rbac.go` `RBACForClusterServiceVersion` (the catalog operator's Roles and
 *   ClusterRoles for a CSV's `permissions`/`clusterPermissions`);
 * - `pkg/lib/ownerutil/util.go` (owner labels and non-blocking owner references);
 * - `pkg/controller/registry/resolver/cache/api.go` `APIKeyToGVKHash` (per-API aggregation label).
 */
import { AccessLevel, OlmGeneration, OlmNaming } from './olm-naming';
import { OperatorBundle } from '../bundle/operator-bundle';
import { InputCheck, shown, throwIfInvalid } from '../core/input-check';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

/** An OperatorGroup, as plain data. */
export interface OlmOperatorGroupSpec {
  /** The OperatorGroup's name. */
  readonly name: string;
  /** The OperatorGroup's (and its operators') namespace. */
  readonly namespace: string;
  /**
   * Target namespaces (`status.namespaces`); an empty list means AllNamespaces.
   */
  readonly targetNamespaces: string[];
}

/** A CRD a CSV owns (`spec.customresourcedefinitions.owned[]`). */
export interface OlmOwnedCrd {
  /** The CRD name, `<plural>.<group>` (OLM splits it at the first dot to get plural and group). */
  readonly name: string;
  /** The served version the CSV lists, e.g. `v1beta2`. */
  readonly version: string;
  /** The Kind, e.g. `EtcdCluster`. */
  readonly kind: string;
}

/** An APIService a CSV owns (`spec.apiservicedefinitions.owned[]`). */
export interface OlmOwnedApiService {
  /** API group, e.g. `packages.operators.coreos.com`. */
  readonly group: string;
  /** Version, e.g. `v1`. */
  readonly version: string;
  /** Kind, e.g. `PackageManifest`. */
  readonly kind: string;
  /** The resource (plural) name, e.g. `packagemanifests` (the CSV's `name` field). */
  readonly name: string;
}

/** One entry of a CSV's `permissions` or `clusterPermissions`. */
export interface OlmPermission {
  /** The service account the rules are bound to. */
  readonly serviceAccountName: string;
  /** The rules. */
  readonly rules: PolicyRule[];
}

/**
 * A deployment of the CSV that serves an owned APIService or a webhook: OLM issues it a serving certificate and
 * the RBAC to read it and to delegate authentication (`installCertRequirementsForDeployment` in
 * `pkg/controller/install/certresources.go`).
 */
export interface OlmCertDeployment {
  /** The deployment name (`deploymentName` of the APIService or webhook description). */
  readonly deploymentName: string;
  /**
   * The deployment's service account (`spec.template.spec.serviceAccountName`).
   * @default "default" (as OLM)
   */
  readonly serviceAccountName?: string;
}

/** A member operator (one CSV) of the OperatorGroup, reduced to what shapes OLM's RBAC. */
export interface OlmMemberOperator {
  /** The CSV name, e.g. `etcdoperator.v0.9.4`. */
  readonly csvName: string;
  /**
   * Owned CRDs.
   * @default - none
   */
  readonly ownedCrds?: OlmOwnedCrd[];
  /**
   * Owned APIServices.
   * @default - none
   */
  readonly ownedApiServices?: OlmOwnedApiService[];
  /**
   * Namespaced permissions (`spec.install.spec.permissions`).
   * @default - none
   */
  readonly permissions?: OlmPermission[];
  /**
   * Cluster permissions (`spec.install.spec.clusterPermissions`).
   * @default - none
   */
  readonly clusterPermissions?: OlmPermission[];
  /**
   * Deployments serving an owned APIService or a webhook.
   * @default - none
   */
  readonly certDeployments?: OlmCertDeployment[];
}

/** Input of `OlmGeneratedRbac`. */
export interface OlmGeneratedRbacProps {
  /** The OperatorGroup. */
  readonly operatorGroup: OlmOperatorGroupSpec;
  /** Its member operators (CSVs in the OperatorGroup's namespace). */
  readonly operators: OlmMemberOperator[];
  /**
   * The OLM release line on the cluster.
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly generation?: OlmGeneration;
}

/** Which OLM code path creates an object. */
export enum OlmRbacSource {
  /** `ensureProvidedAPIClusterRole` (olm-operator): admin/edit/view (and crdview) ClusterRoles per provided API. */
  PROVIDED_API_CLUSTER_ROLE = 'PROVIDED_API_CLUSTER_ROLE',
  /** `ensureOpGroupClusterRole` (olm-operator): the OperatorGroup's aggregating ClusterRoles. */
  OPERATOR_GROUP_CLUSTER_ROLE = 'OPERATOR_GROUP_CLUSTER_ROLE',
  /** `RBACForClusterServiceVersion` (catalog-operator, via the InstallPlan): the CSV's permissions. */
  CSV_PERMISSION = 'CSV_PERMISSION',
  /** `RBACForClusterServiceVersion` (catalog-operator, via the InstallPlan): the CSV's cluster permissions. */
  CSV_CLUSTER_PERMISSION = 'CSV_CLUSTER_PERMISSION',
  /** `ensureSingletonRBAC` (olm-operator): AllNamespaces groups lift the CSV's Roles to ClusterRoles. */
  LIFTED_TO_CLUSTER = 'LIFTED_TO_CLUSTER',
  /** `ensureTenantRBAC` (olm-operator): other groups copy the CSV's Roles into each other target namespace. */
  COPIED_TO_TARGET_NAMESPACE = 'COPIED_TO_TARGET_NAMESPACE',
  /**
   * `installCertRequirementsForDeployment` (olm-operator): for APIService/webhook deployments, read access to the
   * serving-cert Secret, `system:auth-delegator` (cluster-wide) and `extension-apiserver-authentication-reader`
   * (in kube-system).
   */
  SERVING_CERT = 'SERVING_CERT',
}

/** One object OLM will create. */
export interface OlmGeneratedObject {
  /** The code path that creates it. */
  readonly source: OlmRbacSource;
  /** The CSV it is generated for (empty for the OperatorGroup's own ClusterRoles). */
  readonly csvName: string;
  /**
   * True when OLM creates the object with its own (cluster-wide) client, whatever the OperatorGroup's service
   * account may do: provided-API and OperatorGroup ClusterRoles, lifted and copied RBAC. False for what the install
   * runs as the OperatorGroup's service account when it has one (scoped install): the InstallPlan's Roles and
   * ClusterRoles for the CSV's permissions, and the serving-cert RBAC.
   */
  readonly createdByOlmClient: boolean;
  /**
   * Whether `metadata.name` is exactly what OLM will use. False for the catalog operator's Role/ClusterRole names,
   * whose suffix OLM computes by hashing Go's in-memory representation of the permission (not reproducible
   * offline): the prefix and the length rules are OLM's, the suffix is ours.
   */
  readonly nameIsExact: boolean;
  /**
   * The object as Kubernetes JSON. `uid` fields in owner references are placeholders
   * (`<uid of Kind/name>`): the real UID is only known on the cluster.
   */
  readonly manifest: any;
}

/** What a person bound to an OperatorGroup ClusterRole can do with one API (`effectiveAccess`). */
export interface OlmApiAccess {
  /** API group. */
  readonly apiGroup: string;
  /** Resource (plural). */
  readonly resource: string;
  /** Verbs, sorted (`*` = all). */
  readonly verbs: string[];
  /**
   * Restricted to these object names (only the `crdview` rule on the CRD itself).
   * @default - any name
   */
  readonly resourceNames?: string[];
  /** Whether the resource is cluster-scoped (the CRD object itself): a RoleBinding does not grant it. */
  readonly clusterScoped: boolean;
  /** Namespaces where it applies when the role is bound in the group's target namespaces; empty with allNamespaces. */
  readonly namespaces: string[];
  /** True for AllNamespaces groups. */
  readonly allNamespaces: boolean;
  /** CSVs that provide the API, sorted. */
  readonly providedBy: string[];
}

const RBAC_API = 'rbac.authorization.k8s.io/v1';
const LEVELS = [AccessLevel.ADMIN, AccessLevel.EDIT, AccessLevel.VIEW];
/** `VerbsForSuffix` in operatorgroup.go. */
const VERBS: Record<AccessLevel, string[]> = {
  [AccessLevel.ADMIN]: ['*'],
  [AccessLevel.EDIT]: ['create', 'update', 'patch', 'delete'],
  [AccessLevel.VIEW]: ['get', 'list', 'watch'],
};
const OLM_MANAGED = { 'olm.managed': 'true' };
const KIND_ORDER = ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];

/** One provided API, with what OLM needs to build its roles. */
interface ProvidedApi {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly crdName?: string; // set for CRDs
  readonly csvName: string;
}

/**
 * Predicts the ClusterRoles, Roles and bindings OLM creates for an OperatorGroup and its member CSVs, and what a
 * person bound to the group's admin/edit/view ClusterRole can do. Pure: no construct, no cluster.
 *
 * Assumptions (see docs/rbac.md): every member CSV is installed (OLM creates provided-API roles while the CSV
 * installs); the only RBAC the operator's service accounts hold is what the CSVs declare (OLM skips copying or
 * lifting a Role when the service account already has the permission from elsewhere).
 *
 * Where OLM's documentation and code disagree, this follows the code:
 * - OperatorGroup ClusterRoles are `olm.og.<og>.<level>-<hash>` (dot before the level), not `<og>-<level>` nor
 *   `olm.og.<og>-<level>-<hash>`; a long group name is cut so that the whole name is 253 characters;
 * - since v0.15 they select one label per provided API, `olm.opgroup.permissions/aggregate-to-<fnv64a>-<level>: "true"`,
 *   not `olm.opgroup.permissions/aggregate-to-<level>: <og>` (that is V0_8_TO_V0_14), and have no aggregationRule
 *   when the group provides no API;
 * - provided-API roles are named after the CRD (`<plural>.<group>-<version>-<level>`), not `<kind>.<group>-...`;
 *   the CRD view role is `...-<version>-crdview`, not `...-view-crdview`; they are owned by the CRD/APIService
 *   (lower-case kind `customresourcedefinition` in the V0_26_AND_LATER code);
 * - OLM's `edit` level has no read verbs;
 * - lifted ClusterRoles (AllNamespaces) add read on namespaces; copies skip the operator's namespace and are
 *   labelled `olm.copiedFrom`; both are skipped when the cluster permissions already cover the namespaced ones.
 */
export class OlmGeneratedRbac {
  /**
   * The names of the ClusterRoles OLM makes for the APIs `bundle` owns (admin, edit, view, and crdview for a CRD),
   * whatever the OperatorGroup: OLM `pkg/controller/operators/olm/operatorgroup.go` `ensureProvidedAPIClusterRole`.
   * @internal
   */
  public static _providedApiClusterRoleNames(bundle: OperatorBundle): string[] {
    return [
      ...bundle.ownedCrds.flatMap((c) => [...LEVELS, 'crdview'].map((x) => `${providedApiRolePrefix({ crdName: c.name, plural: '', version: c.version })}${x}`)),
      ...bundle.ownedApiServices.flatMap((a) => LEVELS.map((x) => `${providedApiRolePrefix({ plural: a.name, version: a.version })}${x}`)),
    ];
  }

  /**
   * Reduces a parsed bundle to what shapes OLM's RBAC: owned CRDs and APIServices, permissions, and the
   * deployments that serve an owned APIService or a webhook (with their service accounts).
   */
  public static memberOperator(bundle: OperatorBundle): OlmMemberOperator {
    const servingDeployments = new Set<string>([
      ...bundle.ownedApiServices.map((a) => a.deploymentName),
      ...bundle.webhookDefinitions.map((w) => w.deploymentName),
    ]);
    const certDeployments = [...servingDeployments].sort().map((deploymentName) => {
      const deployment = bundle.deployments.find((d) => d.name === deploymentName);
      return deployment ? { deploymentName, serviceAccountName: deployment.serviceAccountName } : { deploymentName };
    });
    return {
      csvName: bundle.name,
      ownedCrds: bundle.ownedCrds.map((c) => ({ name: c.name, version: c.version, kind: c.kind })),
      ownedApiServices: bundle.ownedApiServices.map((a) => ({ group: a.group, version: a.version, kind: a.kind, name: a.name })),
      permissions: bundle.permissions.map((p) => ({ serviceAccountName: p.serviceAccountName, rules: p.rules })),
      clusterPermissions: bundle.clusterPermissions.map((p) => ({ serviceAccountName: p.serviceAccountName, rules: p.rules })),
      certDeployments,
    };
  }

  private readonly og: OlmOperatorGroupSpec;
  private readonly operators: OlmMemberOperator[];
  private readonly generation: OlmGeneration;

  constructor(props: OlmGeneratedRbacProps) {
    if (props === null || typeof props !== 'object') throw new Error('OlmGeneratedRbac: props must be an object with operatorGroup and operators');
    const unknown = new InputCheck();
    unknown.knownProps(props, 'OlmGeneratedRbacProps', 'OlmGeneratedRbac');
    unknown.knownProps(props.operatorGroup, 'OlmOperatorGroupSpec', 'operatorGroup', 'operatorGroup.');
    throwIfInvalid(unknown, 'OlmGeneratedRbac');
    const og = props.operatorGroup;
    if (!og || typeof og.name !== 'string' || og.name === '' || typeof og.namespace !== 'string' || og.namespace === '') {
      throw new Error(`OlmGeneratedRbac: operatorGroup must have a non-empty 'name' and 'namespace', got ${shown(og)}`);
    }
    if (!Array.isArray(og.targetNamespaces) || og.targetNamespaces.some((n) => typeof n !== 'string' || n === '')) {
      throw new Error(`OlmGeneratedRbac: operatorGroup.targetNamespaces must be a list of namespace names ([] = AllNamespaces), got ${shown(og.targetNamespaces)}; `
        + 'OLM rejects "" in targetNamespaces (use [] for AllNamespaces)');
    }
    if (!Array.isArray(props.operators)) throw new Error('OlmGeneratedRbac: operators must be a list (may be empty)');
    const seen = new Set<string>();
    for (const op of props.operators) {
      if (!op || typeof op.csvName !== 'string' || op.csvName === '') {
        throw new Error(`OlmGeneratedRbac: each operator needs a non-empty 'csvName', got ${shown(op)}`);
      }
      if (seen.has(op.csvName)) throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' is listed twice; list each CSV once`);
      seen.add(op.csvName);
      for (const crd of op.ownedCrds ?? []) {
        if (!crd || typeof crd.name !== 'string' || crd.name.indexOf('.') <= 0 || crd.name.endsWith('.')) {
          throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' owns CRD ${shown(crd?.name)}: the name must be '<plural>.<group>' `
            + '(OLM splits it at the first dot, ensureClusterRolesForCSV fails otherwise)');
        }
        if (!crd.version || !crd.kind) {
          throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' owns CRD '${crd.name}' without 'version' or 'kind'; both are required`);
        }
      }
      for (const api of op.ownedApiServices ?? []) {
        if (!api || !api.group || !api.version || !api.kind || !api.name) {
          throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' owns APIService ${shown(api)}: 'group', 'version', 'kind' and 'name' are required`);
        }
      }
      for (const d of op.certDeployments ?? []) {
        if (!d || typeof d.deploymentName !== 'string' || d.deploymentName === '') {
          throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' has a cert deployment without 'deploymentName': ${shown(d)}`);
        }
      }
      for (const p of [...(op.permissions ?? []), ...(op.clusterPermissions ?? [])]) {
        if (!p || typeof p.serviceAccountName !== 'string' || p.serviceAccountName === '' || !Array.isArray(p.rules)) {
          throw new Error(`OlmGeneratedRbac: operator '${op.csvName}' has a permission without 'serviceAccountName' or 'rules': ${shown(p)}`);
        }
      }
    }
    this.og = { name: og.name, namespace: og.namespace, targetNamespaces: [...new Set(og.targetNamespaces)].sort() };
    this.operators = [...props.operators].sort((a, b) => cmp(a.csvName, b.csvName));
    this.generation = props.generation ?? OlmGeneration.V0_26_AND_LATER;
  }

  /** Whether the group targets all namespaces. */
  public get allNamespaces(): boolean {
    return this.og.targetNamespaces.length === 0;
  }

  /**
   * Every object OLM creates, sorted by kind (ClusterRole, ClusterRoleBinding, Role, RoleBinding), namespace, name.
   */
  public objects(): OlmGeneratedObject[] {
    const out = new Map<string, OlmGeneratedObject>();
    const add = (o: OlmGeneratedObject) => {
      const m = o.manifest.metadata;
      // Two CSVs providing the same API write the same ClusterRole: one object on the cluster.
      const key = `${o.manifest.kind}/${m.namespace ?? ''}/${m.name}`;
      if (!out.has(key)) out.set(key, o);
    };
    for (const api of this.providedApis()) for (const o of this.providedApiClusterRoles(api)) add(o);
    for (const level of LEVELS) add(this.operatorGroupClusterRole(level));
    for (const op of this.operators) for (const o of this.operatorPermissions(op)) add(o);
    return [...out.values()].sort((a, b) => {
      const ka = KIND_ORDER.indexOf(a.manifest.kind) - KIND_ORDER.indexOf(b.manifest.kind);
      if (ka !== 0) return ka;
      return cmp(a.manifest.metadata.namespace ?? '', b.manifest.metadata.namespace ?? '') || cmp(a.manifest.metadata.name, b.manifest.metadata.name);
    });
  }

  /** Just the manifests of `objects()`, in the same order. */
  public manifests(): any[] {
    return this.objects().map((o) => o.manifest);
  }

  /** Name of the OperatorGroup's ClusterRole for a level (OLM's naming for this generation). */
  public operatorGroupClusterRoleName(level: AccessLevel): string {
    return OlmNaming.operatorGroupClusterRoleName(this.og.namespace, this.og.name, level, this.generation);
  }

  /**
   * What a person bound to the OperatorGroup's ClusterRole for `level` can do with the group's provided APIs, by
   * simulating the API server's ClusterRole aggregation over `objects()`. One entry per API group+resource(+names),
   * sorted. Note: OLM's `edit` level holds only create/update/patch/delete (no read), and only `view` includes the
   * `get` on the CRD object itself, which is cluster-scoped.
   */
  public effectiveAccess(level: AccessLevel): OlmApiAccess[] {
    const objects = this.objects();
    const ogRole = objects.find((o) => o.source === OlmRbacSource.OPERATOR_GROUP_CLUSTER_ROLE
      && o.manifest.metadata.name === this.operatorGroupClusterRoleName(level))!;
    const selectors: any[] = ogRole.manifest.aggregationRule?.clusterRoleSelectors ?? [];
    const rules: PolicyRule[] = [];
    for (const o of objects) {
      if (o.manifest.kind !== 'ClusterRole' || o.manifest.aggregationRule) continue;
      const labels = o.manifest.metadata.labels ?? {};
      const selected = selectors.some((s) => Object.entries(s.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v));
      if (selected) for (const r of o.manifest.rules ?? []) rules.push(PolicyRules.fromJson(r));
    }
    const providers = new Map<string, Set<string>>();
    for (const api of this.providedApis()) {
      const key = `${api.group}/${api.plural}`;
      if (!providers.has(key)) providers.set(key, new Set());
      providers.get(key)!.add(api.csvName);
      if (api.crdName) {
        const crdKey = `apiextensions.k8s.io/customresourcedefinitions/${api.crdName}`;
        if (!providers.has(crdKey)) providers.set(crdKey, new Set());
        providers.get(crdKey)!.add(api.csvName);
      }
    }
    const out: OlmApiAccess[] = [];
    for (const rule of RbacRules.compact(rules)) {
      for (const group of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          const crd = group === 'apiextensions.k8s.io' && resource === 'customresourcedefinitions';
          const names = rule.resourceNames;
          const providedBy = new Set<string>();
          if (crd) for (const n of names ?? []) for (const c of providers.get(`${group}/${resource}/${n}`) ?? []) providedBy.add(c);
          else for (const c of providers.get(`${group}/${resource}`) ?? []) providedBy.add(c);
          out.push(clean({
            apiGroup: group,
            resource,
            verbs: [...rule.verbs].sort(cmp),
            resourceNames: names ? [...names].sort(cmp) : undefined,
            clusterScoped: crd,
            namespaces: this.allNamespaces ? [] : [...this.og.targetNamespaces],
            allNamespaces: this.allNamespaces,
            providedBy: [...providedBy].sort(cmp),
          }) as OlmApiAccess);
        }
      }
    }
    const names = (a: OlmApiAccess) => JSON.stringify(a.resourceNames ?? []);
    return out.sort((a, b) => cmp(a.apiGroup, b.apiGroup) || cmp(a.resource, b.resource) || cmp(names(a), names(b)));
  }

  // ---- provided APIs -------------------------------------------------------------------------------------------

  private providedApis(): ProvidedApi[] {
    const out: ProvidedApi[] = [];
    for (const op of this.operators) {
      for (const crd of op.ownedCrds ?? []) {
        const dot = crd.name.indexOf('.');
        out.push({
          group: crd.name.slice(dot + 1),
          plural: crd.name.slice(0, dot),
          version: crd.version,
          kind: crd.kind,
          crdName: crd.name,
          csvName: op.csvName,
        });
      }
      for (const api of op.ownedApiServices ?? []) {
        out.push({ group: api.group, plural: api.name, version: api.version, kind: api.kind, csvName: op.csvName });
      }
    }
    return out;
  }

  /** ensureClusterRolesForCSV + ensureProvidedAPIClusterRole. */
  private providedApiClusterRoles(api: ProvidedApi): OlmGeneratedObject[] {
    const prefix = providedApiRolePrefix(api);
    const roles = LEVELS.map((level) => this.providedApiRole(api, `${prefix}${level}`, level, { verbs: VERBS[level], apiGroups: [api.group], resources: [api.plural] }));
    if (api.crdName) {
      // namePrefix+"crd" with suffix "view": "<crd>-<version>-crdview" (the docs say "-view-crdview").
      roles.push(this.providedApiRole(api, `${prefix}crdview`, AccessLevel.VIEW, {
        verbs: ['get'], apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: [api.crdName],
      }));
    }
    return roles;
  }

  private providedApiRole(api: ProvidedApi, name: string, level: AccessLevel, rule: PolicyRule): OlmGeneratedObject {
    const metadata: any = { name };
    if (this.generation === OlmGeneration.V0_8_TO_V0_14) {
      // v0.8-v0.14: the OperatorGroup's name as label value, and the CSV's owner labels (AddOwnerLabels(cr, csv)).
      metadata.labels = sortKeys({
        [`rbac.authorization.k8s.io/aggregate-to-${level}`]: 'true',
        [`olm.opgroup.permissions/aggregate-to-${level}`]: this.og.name,
        ...ownerLabels(api.csvName, this.og.namespace, 'ClusterServiceVersion'),
      });
    } else {
      metadata.labels = sortKeys({
        [`rbac.authorization.k8s.io/aggregate-to-${level}`]: 'true',
        [OlmNaming.providedApiAggregationLabel(api.kind, api.version, api.group, level)]: 'true',
        ...OLM_MANAGED,
      });
      metadata.ownerReferences = [api.crdName
        // OLM sets the CRD's kind to lowercase "customresourcedefinition" before NonBlockingOwner (>= v0.26 code);
        // clusters of the V0_15_TO_V0_25 era show "CustomResourceDefinition".
        ? nonBlockingOwner('apiextensions.k8s.io/v1', this.generation === OlmGeneration.V0_26_AND_LATER ? 'customresourcedefinition' : 'CustomResourceDefinition', api.crdName)
        : nonBlockingOwner('apiregistration.k8s.io/v1', 'APIService', `${api.version}.${api.group}`)];
    }
    return {
      source: OlmRbacSource.PROVIDED_API_CLUSTER_ROLE,
      csvName: api.csvName,
      createdByOlmClient: true,
      nameIsExact: true,
      manifest: { apiVersion: RBAC_API, kind: 'ClusterRole', metadata, rules: [PolicyRules.toJson(rule)] },
    };
  }

  /** ensureOpGroupClusterRole + getClusterRoleAggregationRule. */
  private operatorGroupClusterRole(level: AccessLevel): OlmGeneratedObject {
    let selectors: any[];
    if (this.generation === OlmGeneration.V0_8_TO_V0_14) {
      selectors = [{ matchLabels: { [`olm.opgroup.permissions/aggregate-to-${level}`]: this.og.name } }];
    } else {
      // One selector per provided API (Go map order on the cluster; sorted here). None: no aggregationRule.
      const keys = new Set(this.providedApis().map((a) => OlmNaming.providedApiAggregationLabel(a.kind, a.version, a.group, level)));
      selectors = [...keys].sort(cmp).map((k) => ({ matchLabels: { [k]: 'true' } }));
    }
    const labels = this.generation === OlmGeneration.V0_8_TO_V0_14
      ? ownerLabels(this.og.name, this.og.namespace, 'OperatorGroup')
      : { ...ownerLabels(this.og.name, this.og.namespace, 'OperatorGroup'), ...OLM_MANAGED };
    const manifest: any = {
      apiVersion: RBAC_API,
      kind: 'ClusterRole',
      metadata: { name: this.operatorGroupClusterRoleName(level), labels: sortKeys(labels) },
    };
    if (selectors.length > 0) manifest.aggregationRule = { clusterRoleSelectors: selectors };
    return { source: OlmRbacSource.OPERATOR_GROUP_CLUSTER_ROLE, csvName: '', createdByOlmClient: true, nameIsExact: true, manifest };
  }

  // ---- a CSV's own permissions ---------------------------------------------------------------------------------

  private operatorPermissions(op: OlmMemberOperator): OlmGeneratedObject[] {
    const ns = this.og.namespace;
    const out: OlmGeneratedObject[] = [];
    const csvLabels = ownerLabels(op.csvName, ns, 'ClusterServiceVersion');
    const roles: { name: string; rules: PolicyRule[]; sa: string }[] = [];
    for (const p of op.permissions ?? []) {
      const name = generateName(`${op.csvName}-${p.serviceAccountName}`, [op.csvName, p.serviceAccountName, p.rules]);
      roles.push({ name, rules: p.rules, sa: p.serviceAccountName });
      const meta = { name, namespace: ns, labels: sortKeys(csvLabels), ownerReferences: [nonBlockingOwner('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', op.csvName)] };
      out.push({ source: OlmRbacSource.CSV_PERMISSION, csvName: op.csvName, createdByOlmClient: false, nameIsExact: false, manifest: { apiVersion: RBAC_API, kind: 'Role', metadata: meta, rules: p.rules.map(PolicyRules.toJson) } });
      out.push({ source: OlmRbacSource.CSV_PERMISSION, csvName: op.csvName, createdByOlmClient: false, nameIsExact: false, manifest: roleBinding('RoleBinding', meta, 'Role', name, p.serviceAccountName, ns) });
    }
    for (const p of op.clusterPermissions ?? []) {
      const name = generateName(op.csvName, [op.csvName, ns, p.serviceAccountName, p.rules]);
      const meta = { name, labels: sortKeys(csvLabels) };
      out.push({ source: OlmRbacSource.CSV_CLUSTER_PERMISSION, csvName: op.csvName, createdByOlmClient: false, nameIsExact: false, manifest: { apiVersion: RBAC_API, kind: 'ClusterRole', metadata: meta, rules: p.rules.map(PolicyRules.toJson) } });
      out.push({ source: OlmRbacSource.CSV_CLUSTER_PERMISSION, csvName: op.csvName, createdByOlmClient: false, nameIsExact: false, manifest: roleBinding('ClusterRoleBinding', meta, 'ClusterRole', name, p.serviceAccountName, ns) });
    }
    out.push(...this.servingCertRbac(op));
    if (roles.length === 0 || this.permissionsMet(op)) return out;

    if (this.allNamespaces) {
      // ensureSingletonRBAC: same name, the Role's labels, its rules + read on namespaces; no owner references.
      for (const r of roles) {
        const meta = { name: r.name, labels: sortKeys(csvLabels) };
        const rules = [...r.rules, { verbs: VERBS[AccessLevel.VIEW], apiGroups: [''], resources: ['namespaces'] }];
        out.push({ source: OlmRbacSource.LIFTED_TO_CLUSTER, csvName: op.csvName, createdByOlmClient: true, nameIsExact: false, manifest: { apiVersion: RBAC_API, kind: 'ClusterRole', metadata: meta, rules: rules.map(PolicyRules.toJson) } });
        out.push({ source: OlmRbacSource.LIFTED_TO_CLUSTER, csvName: op.csvName, createdByOlmClient: true, nameIsExact: false, manifest: roleBinding('ClusterRoleBinding', meta, 'ClusterRole', r.name, r.sa, ns) });
      }
      return out;
    }
    // ensureTenantRBAC: into each target namespace but the operator's own; owned by the copied CSV there. The
    // pre-v0.15 code adds only the owner labels and olm.copiedFrom (no olm.managed).
    const managed = this.generation === OlmGeneration.V0_8_TO_V0_14 ? {} : OLM_MANAGED;
    for (const target of this.og.targetNamespaces) {
      if (target === ns) continue;
      const labels = sortKeys({ ...ownerLabels(op.csvName, target, 'ClusterServiceVersion'), 'olm.copiedFrom': ns, ...managed });
      for (const r of roles) {
        const meta = { name: r.name, namespace: target, labels, ownerReferences: [nonBlockingOwner('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', op.csvName)] };
        out.push({ source: OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, csvName: op.csvName, createdByOlmClient: true, nameIsExact: false, manifest: { apiVersion: RBAC_API, kind: 'Role', metadata: meta, rules: r.rules.map(PolicyRules.toJson) } });
        // The subject stays the service account in the operator's namespace.
        out.push({ source: OlmRbacSource.COPIED_TO_TARGET_NAMESPACE, csvName: op.csvName, createdByOlmClient: true, nameIsExact: false, manifest: roleBinding('RoleBinding', meta, 'Role', r.name, r.sa, ns) });
      }
    }
    return out;
  }

  /**
   * install/certresources.go: per deployment serving an APIService or webhook, service `<deployment>-service`,
   * Secret `<deployment>-service-cert`, a Role and RoleBinding of that name (`get` on the Secret), the
   * ClusterRoleBinding `<deployment>-service-system:auth-delegator` and, in kube-system, the RoleBinding
   * `<deployment>-service-auth-reader`.
   */
  private servingCertRbac(op: OlmMemberOperator): OlmGeneratedObject[] {
    const ns = this.og.namespace;
    const out: OlmGeneratedObject[] = [];
    const add = (manifest: any) => out.push({
      source: OlmRbacSource.SERVING_CERT, csvName: op.csvName, createdByOlmClient: false, nameIsExact: true, manifest,
    });
    const byName = new Map<string, string>();
    for (const d of op.certDeployments ?? []) byName.set(d.deploymentName, d.serviceAccountName || 'default');
    for (const [deployment, sa] of [...byName.entries()].sort((a, b) => cmp(a[0], b[0]))) {
      const service = `${deployment}-service`;
      const secret = `${service}-cert`;
      const csvOwner = [nonBlockingOwner('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', op.csvName)];
      const meta = { name: secret, namespace: ns, labels: { ...OLM_MANAGED }, ownerReferences: csvOwner };
      add({ apiVersion: RBAC_API, kind: 'Role', metadata: meta, rules: [PolicyRules.toJson({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: [secret] })] });
      add(roleBinding('RoleBinding', meta, 'Role', secret, sa, ns));
      add(roleBinding('ClusterRoleBinding', {
        name: `${service}-system:auth-delegator`,
        labels: sortKeys({ ...OLM_MANAGED, ...ownerLabels(op.csvName, ns, 'ClusterServiceVersion') }),
      }, 'ClusterRole', 'system:auth-delegator', sa, ns));
      add(roleBinding('RoleBinding', { name: `${service}-auth-reader`, namespace: 'kube-system', labels: { ...OLM_MANAGED } },
        'Role', 'extension-apiserver-authentication-reader', sa, ns));
    }
    return out;
  }

  /**
   * OLM's `permissionStatus`: a service account that already holds its namespaced permissions cluster-wide (through
   * the CSV's clusterPermissions) gets no lifted or copied Roles.
   */
  private permissionsMet(op: OlmMemberOperator): boolean {
    const clusterRules = new Map<string, PolicyRule[]>();
    for (const p of op.clusterPermissions ?? []) {
      clusterRules.set(p.serviceAccountName, [...(clusterRules.get(p.serviceAccountName) ?? []), ...p.rules]);
    }
    return (op.permissions ?? []).every((p) => RbacRules.covers(clusterRules.get(p.serviceAccountName) ?? [], p.rules).covered);
  }
}

/** CRDs: namePrefix = "<crd name>-<version>-"; APIServices: "<resource>-<version>-". */
function providedApiRolePrefix(api: { crdName?: string; plural: string; version: string }): string {
  return `${api.crdName ?? api.plural}-${api.version}-`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(o).sort(cmp)) out[k] = o[k];
  return out;
}

function clean<T extends object>(o: T): T {
  const out: any = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** ownerutil.OwnerLabel. */
function ownerLabels(name: string, namespace: string, kind: string): Record<string, string> {
  return { 'olm.owner': name, 'olm.owner.kind': kind, 'olm.owner.namespace': namespace };
}

/** ownerutil.NonBlockingOwner; the UID is a placeholder. */
function nonBlockingOwner(apiVersion: string, kind: string, name: string): any {
  return { apiVersion, kind, name, uid: `<uid of ${kind}/${name}>`, controller: false, blockOwnerDeletion: false };
}

function roleBinding(kind: string, metadata: any, roleKind: string, roleName: string, sa: string, saNamespace: string): any {
  return {
    apiVersion: RBAC_API,
    kind,
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: sa, namespace: saNamespace }],
  };
}

/**
 * resolver/rbac.go `generateName`: `<base>-<hash>`, base cut so the name fits 63 characters. OLM's hash is FNV-32a
 * over Go's `%#v`-like dump of the permission, which cannot be reproduced offline; ours is FNV-32a of the JSON,
 * encoded like OLM (`utilrand.SafeEncodeString` of the decimal value), so names have OLM's shape, not its value.
 */
function generateName(base: string, o: unknown): string {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(JSON.stringify(o), 'utf8')) {
    // eslint-disable-next-line no-bitwise
    h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  }
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
  const hash = [...String(h)].map((c) => alphanums[c.charCodeAt(0) % alphanums.length]).join('');
  const max = 63;
  const cut = base.length + hash.length > max ? base.slice(0, max - hash.length - 1) : base;
  return `${cut}-${hash}`;
}
