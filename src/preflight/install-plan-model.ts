/**
 * What OLM does with the OperatorGroup's ServiceAccount when it installs a bundle, as a list of permission
 * requirements. Internal: `InstallPreflight` checks them, `InstallerPermissions` derives rules from them.
 *
 * Modelled from operator-framework/operator-lifecycle-manager (master, 2025-2026):
 * - catalog operator `pkg/controller/operators/catalog/operator.go` `ExecutePlan`: every InstallPlan step runs
 *   through `step_ensurer.go` with a client attenuated to the OperatorGroup's ServiceAccount, EXCEPT CRDs: "CRDs
 *   should be installed via the default OLM (cluster-admin) client and not the scoped client" (the step builder).
 *   Steps come from `pkg/controller/registry/resolver/steps.go` (`NewStepResourceFromBundle`: the CSV, every bundle
 *   object, and `NewServiceAccountStepResources`) and `resolver/rbac.go` (`RBACForClusterServiceVersion`: per
 *   `permissions` entry a ServiceAccount + Role + RoleBinding, per `clusterPermissions` entry a ServiceAccount +
 *   ClusterRole + ClusterRoleBinding). There is no exception for the ServiceAccount `default`: it always exists,
 *   so its step goes create -> AlreadyExists -> get -> patch even on a fresh install (the step's ServiceAccount
 *   carries owner references and labels the existing one lacks, so `DeepDerivative` is false and it is patched).
 * - verbs of `step_ensurer.go`: CSV and Subscription are create-only; ServiceAccount, Service, ConfigMap, bundle
 *   Secret, Role, RoleBinding, ClusterRole, ClusterRoleBinding try create, then on AlreadyExists update through
 *   `pkg/lib/operatorclient` (`Update*` = get + strategic-merge patch; the ServiceAccount is read first); other
 *   supported kinds (`supportedresources.go`) try create, then get + update; unsupported kinds fail the plan
 *   (`StepStatusUnsupportedResource`). Nothing is deleted.
 * - olm operator `pkg/controller/operators/olm/operator.go` `parseStrategiesAndUpdateStatus`: the install strategy
 *   runs with a client attenuated to the same ServiceAccount: `pkg/api/wrappers/deployment_install_client.go`
 *   (`CreateOrUpdateDeployment` -> `pkg/lib/operatorclient/deployment.go` `CreateOrRollingUpdateDeployment`: get,
 *   then create, or `RollingUpdateDeployment` = get + strategic-merge patch), `pkg/controller/install/certresources.go` (per
 *   deployment with webhooks or API services: Service `<deployment>-service` applied server-side, Secret
 *   `<service>-cert`, Role + RoleBinding `<service>-cert` granting `get` on it, ClusterRoleBinding
 *   `<service>-system:auth-delegator` and RoleBinding `<service>-auth-reader` in kube-system, both applied
 *   server-side), `webhook.go` (list + create/update of webhook configurations; conversion webhooks get + update
 *   the CRDs) and `apiservice.go` (create, or get + patch, of the APIService).
 * - the API server's RBAC escalation check (`k8s.io/component-helpers/auth/rbac/validation`): creating a Role or
 *   binding needs the creator to hold every rule (or `escalate` / `bind` on that role); a ClusterRole with an
 *   aggregationRule needs `escalate` (`pkg/registry/rbac/clusterrole/policybased/storage.go`).
 * - server-side apply of an object that does not exist yet is authorized as `patch` AND `create` on the named
 *   object (`staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`, `withAuthorization`).
 */
import { BundleObject, OperatorBundle, WebhookType } from '../bundle/operator-bundle';
import { PolicyRule, PolicyRules } from '../rbac/policy-rule';

/** Internal: one thing the installer must be allowed, in one namespace ('' = cluster-wide). */
export interface Requirement {
  /** Namespace of the request; '' for cluster-scoped. */
  readonly namespace: string;
  /** Rules that satisfy it (and what we report as missing / derive). */
  readonly rules: PolicyRule[];
  /** Other rules that also satisfy it (`escalate` / `bind`), checked with `allows`-style coverage. */
  readonly alternative?: PolicyRule[];
  /** Derive the alternative instead of the rules (bind on a named bootstrap role is least privilege). */
  readonly deriveAlternative?: boolean;
  /** Human-readable reason: the OLM step. */
  readonly step: string;
  /** True when the rules are the operator's own rules to be granted (escalation check). */
  readonly escalation: boolean;
  /**
   * Set when the requirement is `bind` on a role the bundle does not define (its rules are unknown, so `bind` is
   * the only way through the API server's escalation check): refused unless accepted by name.
   */
  readonly externalBind?: ExternalRoleBind;
}

/** Internal: a bundle binding of a role that no manifest of the bundle defines. */
export interface ExternalRoleBind {
  /** Namespace of the binding ('' for a ClusterRoleBinding). */
  readonly namespace: string;
  /** `Role` or `ClusterRole`. */
  readonly roleKind: string;
  /** The role's name. */
  readonly roleName: string;
}

const RBAC = 'rbac.authorization.k8s.io';

/** Supported unstructured kinds (`supportedresources.go`) with their group, resource and scope. */
const SUPPORTED_KINDS: Record<string, { resource: string; namespaced: boolean }> = {
  PrometheusRule: { resource: 'prometheusrules', namespaced: true },
  ServiceMonitor: { resource: 'servicemonitors', namespaced: true },
  PodDisruptionBudget: { resource: 'poddisruptionbudgets', namespaced: true },
  PriorityClass: { resource: 'priorityclasses', namespaced: false },
  VerticalPodAutoscaler: { resource: 'verticalpodautoscalers', namespaced: true },
  ConsoleYAMLSample: { resource: 'consoleyamlsamples', namespaced: false },
  ConsoleQuickStart: { resource: 'consolequickstarts', namespaced: false },
  ConsoleCLIDownload: { resource: 'consoleclidownloads', namespaced: false },
  ConsoleLink: { resource: 'consolelinks', namespaced: false },
  ConsolePlugin: { resource: 'consoleplugins', namespaced: false },
  NetworkPolicy: { resource: 'networkpolicies', namespaced: true },
};

/** Typed kinds `ExecutePlan` handles itself (besides CSV, Subscription and CRDs). */
const TYPED_KINDS: Record<string, { group: string; resource: string; namespaced: boolean }> = {
  Secret: { group: '', resource: 'secrets', namespaced: true },
  ServiceAccount: { group: '', resource: 'serviceaccounts', namespaced: true },
  Service: { group: '', resource: 'services', namespaced: true },
  ConfigMap: { group: '', resource: 'configmaps', namespaced: true },
  Role: { group: RBAC, resource: 'roles', namespaced: true },
  RoleBinding: { group: RBAC, resource: 'rolebindings', namespaced: true },
  ClusterRole: { group: RBAC, resource: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { group: RBAC, resource: 'clusterrolebindings', namespaced: false },
};

/** Rules of the bootstrap roles the cert resources bind (Kubernetes `plugin/pkg/auth/authorizer/rbac/bootstrappolicy`). */
const AUTH_DELEGATOR_RULES: PolicyRule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];
const AUTH_READER_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: ['get', 'list', 'watch'] },
];

/**
 * The two bootstrap roles OLM's cert resources bind (`install/certresources.go`): the only roles outside a bundle
 * whose `bind` is derived, because their (small, fixed) rules are known. A bundle manifest binding them is treated
 * the same. Kind, name, rules and namespace (for the Role: only in kube-system, where the bootstrap Role lives).
 */
export const BOOTSTRAP_BIND_ROLES: ReadonlyArray<{ kind: string; name: string; namespace?: string; rules: PolicyRule[] }> = [
  { kind: 'ClusterRole', name: 'system:auth-delegator', rules: AUTH_DELEGATOR_RULES },
  { kind: 'Role', name: 'extension-apiserver-authentication-reader', namespace: 'kube-system', rules: AUTH_READER_RULES },
];

function bootstrapRules(ns: string, kind: string, name: string | undefined): PolicyRule[] | undefined {
  return BOOTSTRAP_BIND_ROLES.find((b) => b.kind === kind && b.name === name && (b.namespace === undefined || b.namespace === ns))?.rules;
}

/** Internal result of modelling one install. */
export interface InstallModel {
  readonly requirements: Requirement[];
  /** Bundle objects of kinds OLM does not install. */
  readonly unsupported: BundleObject[];
  /** Conversion webhooks on a CSV that is not AllNamespaces-only. */
  readonly conversionNotSingleton: string[];
  /** Webhook definitions whose rules OLM rejects (`ValidWebhookRules`). */
  readonly invalidWebhooks: string[];
  /**
   * Bundle objects whose kind is a core kind OLM handles itself (Secret, Service, Role, ...) but whose apiVersion is
   * another group: OLM dispatches by kind alone and creates the core kind (probably a sample CR shipped by mistake).
   */
  readonly createdAsCoreKind: BundleObject[];
  /** Bundle objects that make the InstallPlan fail, with why (rules that do not decode, no apiVersion). */
  readonly invalidObjects: Array<{ object: BundleObject; reason: string }>;
}

/** Internal (not exported from the package): the OLM install model. */
export class InstallPlanModel {
  /** Builds the requirements of installing (and, with `upgrade`, updating to) a bundle in `namespace`. */
  public static build(bundle: OperatorBundle, namespace: string, upgrade: boolean): InstallModel {
    return modelInstall(bundle, namespace, upgrade);
  }

  private constructor() {}
}

function modelInstall(bundle: OperatorBundle, namespace: string, upgrade: boolean): InstallModel {
  const reqs: Requirement[] = [];
  const unsupported: BundleObject[] = [];
  const conversionNotSingleton: string[] = [];
  const invalidWebhooks: string[] = [];
  const createdAsCoreKind: BundleObject[] = [];
  const invalidObjects: Array<{ object: BundleObject; reason: string }> = [];
  const csv = bundle.name;

  const verbs = (rule: Omit<PolicyRule, 'verbs'>, ns: string, fresh: string[], update: string[], step: string, name?: string) => {
    const all = upgrade ? [...new Set([...fresh, ...update])] : fresh;
    const unnamed = all.filter((v) => v === 'create' || name === undefined);
    const named = all.filter((v) => v !== 'create' && name !== undefined);
    const rules: PolicyRule[] = [];
    if (unnamed.length > 0) rules.push({ ...rule, verbs: unnamed });
    if (named.length > 0) rules.push({ ...rule, resourceNames: [name!], verbs: named });
    reqs.push({ namespace: ns, rules, step, escalation: false });
  };
  const typed = (kind: string, ns: string, name: string | undefined, step: string) => {
    const t = TYPED_KINDS[kind];
    verbs({ apiGroups: [t.group], resources: [t.resource] }, t.namespaced ? ns : '', ['create'], ['get', 'patch'], step, name);
  };
  const escalateRole = (ns: string, rules: PolicyRule[], step: string, roleName?: string) => {
    reqs.push({
      namespace: ns,
      rules,
      step,
      escalation: true,
      alternative: [{ apiGroups: [RBAC], resources: [ns === '' ? 'clusterroles' : 'roles'], verbs: ['escalate'], ...(roleName ? { resourceNames: [roleName] } : {}) }],
    });
  };
  const bindRole = (ns: string, roleKind: string, roleName: string | undefined, rules: PolicyRule[] | undefined, step: string,
    deriveBind = false) => {
    const bind: PolicyRule = { apiGroups: [RBAC], resources: [roleKind === 'ClusterRole' ? 'clusterroles' : 'roles'], verbs: ['bind'], ...(roleName ? { resourceNames: [roleName] } : {}) };
    if (rules === undefined) {
      // The referenced role is not in the bundle: its rules are unknown, only `bind` on it gets through the API
      // server's escalation check (k8s pkg/registry/rbac/escalation_check.go BindingAuthorized; otherwise
      // rbac/validation ConfirmNoEscalation needs the role's rules). Its danger is the bound role's power.
      reqs.push({ namespace: ns, rules: [bind], step, escalation: false, externalBind: { namespace: ns, roleKind, roleName: roleName ?? '' } });
    } else {
      reqs.push({ namespace: ns, rules, step, escalation: true, alternative: [bind], deriveAlternative: deriveBind });
    }
  };

  // InstallPlan step: the CSV (EnsureClusterServiceVersion: create only).
  verbs({ apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'] }, namespace, ['create'], [], `InstallPlan step ClusterServiceVersion ${csv}: create`);

  // InstallPlan steps: every bundle object (CRDs go through OLM's own client and need nothing here).
  const bundleRoles = new Map<string, PolicyRule[]>();
  // OLM dispatches bundle objects by kind alone: resolver/steps.go NewStepResourceFromObject turns every kind
  // Secret into a BundleSecret step, and catalog/operator.go ExecutePlan switches on step.Resource.Kind and
  // json.Unmarshals the manifest into the core type (corev1.Service, rbacv1.Role, ...), whatever its apiVersion.
  // A Role whose rules do not decode fails the step ("error parsing step manifest").
  const badRules = new Set<BundleObject>();
  for (const o of bundle.objects) {
    if (o.kind !== 'Role' && o.kind !== 'ClusterRole') continue;
    const rules = rulesOf(o);
    if (typeof rules === 'string') {
      invalidObjects.push({ object: o, reason: `its rules do not decode as RBAC rules (${rules}): OLM fails the InstallPlan step ("error parsing step manifest")` });
      badRules.add(o);
      continue;
    }
    bundleRoles.set(`${o.kind}/${o.name}`, rules);
  }
  for (const o of bundle.objects) {
    const step = `InstallPlan step ${o.kind} ${o.name} (${o.source})`;
    if (TYPED_KINDS[o.kind] !== undefined) {
      if (o.apiVersion !== '' && groupOf(o.apiVersion) !== TYPED_KINDS[o.kind].group) createdAsCoreKind.push(o);
      if (badRules.has(o)) continue;
      typed(o.kind, namespace, o.name, `${step}: create${upgrade ? ', or get + patch' : ''}`);
      const ns = TYPED_KINDS[o.kind].namespaced ? namespace : '';
      if (o.kind === 'Role' || o.kind === 'ClusterRole') {
        escalateRole(ns, bundleRoles.get(`${o.kind}/${o.name}`) ?? [], `${step}: RBAC escalation check, the installer must hold the rules it grants`, o.name);
        if (o.kind === 'ClusterRole' && o.raw?.aggregationRule) {
          reqs.push({
            namespace: '',
            step: `${step}: a ClusterRole with an aggregationRule needs escalate`,
            escalation: false,
            rules: [{ apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: [o.name], verbs: ['escalate'] }],
          });
        }
      }
      if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
        const ref = o.raw?.roleRef ?? {};
        const refKind = typeof ref.kind === 'string' ? ref.kind : 'Role';
        const refName = typeof ref.name === 'string' ? ref.name : undefined;
        const known = bundleRoles.get(`${refKind}/${refName}`);
        const bootstrap = known === undefined ? bootstrapRules(ns, refKind, refName) : undefined;
        bindRole(ns, refKind, refName, known ?? bootstrap, `${step}: binding ${refKind} ${refName} needs its rules or bind on it`, bootstrap !== undefined);
      }
      continue;
    }
    const sup = SUPPORTED_KINDS[o.kind];
    if (sup === undefined) {
      unsupported.push(o);
      continue;
    }
    if (o.apiVersion === '') {
      // ExecutePlan's default branch decodes it as unstructured and looks up the resource of its group/version
      // (apiresourceFromGVK), which fails for an empty one.
      invalidObjects.push({ object: o, reason: 'it has no apiVersion: OLM looks up the resource of its group/version (catalog operator apiresourceFromGVK) and the InstallPlan fails' });
      continue;
    }
    verbs({ apiGroups: [groupOf(o.apiVersion)], resources: [sup.resource] }, sup.namespaced ? namespace : '', ['create'], ['get', 'update'],
      `${step}: create${upgrade ? ', or get + update' : ''}${sup.namespaced ? '' : ' (cluster-scoped kind)'}`, o.name);
  }

  // InstallPlan steps from RBACForClusterServiceVersion.
  const serviceAccounts = new Set<string>();
  for (const p of [...bundle.permissions, ...bundle.clusterPermissions]) serviceAccounts.add(p.serviceAccountName);
  for (const sa of [...serviceAccounts].sort()) {
    if (sa === 'default') {
      // `default` always exists (the ServiceAccount controller creates it in every namespace): even a fresh install
      // takes EnsureServiceAccount's AlreadyExists path (get, then patch through operatorclient UpdateServiceAccount).
      verbs({ apiGroups: [''], resources: ['serviceaccounts'] }, namespace, ['create', 'get', 'patch'], [],
        'InstallPlan step ServiceAccount default: create -> AlreadyExists (it always exists), then get + patch', sa);
      continue;
    }
    typed('ServiceAccount', namespace, sa, `InstallPlan step ServiceAccount ${sa}: create${upgrade ? ', or get + patch' : ''}`);
  }
  bundle.permissions.forEach((p, i) => {
    const step = `InstallPlan steps Role + RoleBinding for permissions[${i}] (ServiceAccount ${p.serviceAccountName})`;
    // Generated names (`generateName` hashes), so the update path's get + patch cannot be limited by resourceNames.
    typed('Role', namespace, undefined, `${step}: create${upgrade ? ', or get + patch' : ''}`);
    typed('RoleBinding', namespace, undefined, `${step}: create${upgrade ? ', or get + patch' : ''}`);
    escalateRole(namespace, p.rules, `${step}: RBAC escalation check, the installer must hold the operator's rules`);
    bindRole(namespace, 'Role', undefined, p.rules, `${step}: RBAC escalation check on the binding`);
  });
  bundle.clusterPermissions.forEach((p, i) => {
    const step = `InstallPlan steps ClusterRole + ClusterRoleBinding for clusterPermissions[${i}] (ServiceAccount ${p.serviceAccountName})`;
    typed('ClusterRole', namespace, undefined, `${step}: create${upgrade ? ', or get + patch' : ''}`);
    typed('ClusterRoleBinding', namespace, undefined, `${step}: create${upgrade ? ', or get + patch' : ''}`);
    escalateRole('', p.rules, `${step}: RBAC escalation check, the installer must hold the operator's cluster rules`);
    bindRole('', 'ClusterRole', undefined, p.rules, `${step}: RBAC escalation check on the binding`);
  });

  // Install strategy (olm-operator, scoped client): deployments.
  for (const d of bundle.deployments) {
    // CreateOrRollingUpdateDeployment: get, then create; if it exists, RollingUpdateDeployment = get + patch.
    verbs({ apiGroups: ['apps'], resources: ['deployments'] }, namespace, ['get', 'create'], ['get', 'patch'],
      `install strategy: Deployment ${d.name}: get, then ${upgrade ? 'create, or get + patch' : 'create'}`, d.name);
  }

  // Cert resources for every deployment that serves webhooks or API services (certresources.go).
  const certDeployments = new Set<string>();
  for (const w of bundle.webhookDefinitions) if (w.deploymentName) certDeployments.add(w.deploymentName);
  for (const a of bundle.ownedApiServices) if (a.deploymentName) certDeployments.add(a.deploymentName);
  for (const dep of bundle.deployments.map((d) => d.name).filter((n) => certDeployments.has(n))) {
    const sa = bundle.deployments.find((d) => d.name === dep)!.serviceAccountName;
    const svc = `${dep}-service`;
    const secret = `${svc}-cert`;
    const step = `install strategy: cert resources of Deployment ${dep}`;
    reqs.push({
      namespace,
      step: `${step}: Service ${svc} applied server-side`,
      escalation: false,
      rules: [{ apiGroups: [''], resources: ['services'], resourceNames: [svc], verbs: ['create', 'patch'] }],
    });
    verbs({ apiGroups: [''], resources: ['secrets'] }, namespace, ['create'], ['get', 'patch'], `${step}: Secret ${secret}: create${upgrade ? ', or get + patch' : ''}`, secret);
    verbs({ apiGroups: [RBAC], resources: ['roles'] }, namespace, ['create'], ['get', 'patch'], `${step}: Role ${secret}: create${upgrade ? ', or get + patch' : ''}`, secret);
    verbs({ apiGroups: [RBAC], resources: ['rolebindings'] }, namespace, ['create'], ['get', 'patch'], `${step}: RoleBinding ${secret}: create${upgrade ? ', or get + patch' : ''}`, secret);
    const secretRule: PolicyRule[] = [{ apiGroups: [''], resources: ['secrets'], resourceNames: [secret], verbs: ['get'] }];
    escalateRole(namespace, secretRule, `${step}: Role ${secret}: RBAC escalation check`, secret);
    bindRole(namespace, 'Role', secret, secretRule, `${step}: RoleBinding ${secret}: RBAC escalation check`);
    const crb = `${svc}-system:auth-delegator`;
    reqs.push({
      namespace: '',
      step: `${step}: ClusterRoleBinding ${crb} (ServiceAccount ${sa}) applied server-side`,
      escalation: false,
      rules: [{ apiGroups: [RBAC], resources: ['clusterrolebindings'], resourceNames: [crb], verbs: ['create', 'patch'] }],
    });
    bindRole('', 'ClusterRole', 'system:auth-delegator', AUTH_DELEGATOR_RULES,
      `${step}: ClusterRoleBinding ${crb}: RBAC escalation check (hold system:auth-delegator's rules, or bind on it)`, true);
    const reader = `${svc}-auth-reader`;
    reqs.push({
      namespace: 'kube-system',
      step: `${step}: RoleBinding ${reader} in kube-system applied server-side`,
      escalation: false,
      rules: [{ apiGroups: [RBAC], resources: ['rolebindings'], resourceNames: [reader], verbs: ['create', 'patch'] }],
    });
    bindRole('kube-system', 'Role', 'extension-apiserver-authentication-reader', AUTH_READER_RULES,
      `${step}: RoleBinding ${reader}: RBAC escalation check (hold extension-apiserver-authentication-reader's rules, or bind on it)`, true);
  }

  // Webhook configurations and conversion webhooks (webhook.go).
  // isSingletonOperator: AllNamespaces supported and no other mode supported.
  const singleton = bundle.installModes.every((m) => (m.type === 'AllNamespaces' ? m.supported : !m.supported));
  // olm operator.go syncClusterServiceVersion: a repeated generateName fails the CSV (InvalidWebhookDescription).
  const generateNames = bundle.webhookDefinitions.map((w) => w.generateName);
  for (const dup of [...new Set(generateNames.filter((n, i) => generateNames.indexOf(n) !== i))].sort()) {
    invalidWebhooks.push(`${dup}: CSV contains repeated WebhookDescription name`);
  }
  for (const w of bundle.webhookDefinitions) {
    const bad = invalidWebhookRules(w.rules);
    if (bad !== undefined) invalidWebhooks.push(`${w.generateName}: ${bad}`);
    if (w.type === WebhookType.CONVERSION) {
      if (!singleton) {
        conversionNotSingleton.push(w.generateName);
        continue;
      }
      for (const crd of w.conversionCrds) {
        reqs.push({
          namespace: '',
          step: `install strategy: conversion webhook ${w.generateName}: get + update of CRD ${crd}`,
          escalation: false,
          rules: [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: [crd], verbs: ['get', 'update'] }],
        });
      }
      continue;
    }
    const resource = w.type === WebhookType.VALIDATING ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
    reqs.push({
      namespace: '',
      step: `install strategy: ${w.type} ${w.generateName}: list, then ${upgrade ? 'create or update' : 'create'}`,
      escalation: false,
      rules: [{ apiGroups: ['admissionregistration.k8s.io'], resources: [resource], verbs: upgrade ? ['list', 'create', 'update'] : ['list', 'create'] }],
    });
  }

  // APIServices (apiservice.go), plus the legacy-name lookups of deleteLegacyAPIServiceResources.
  for (const a of bundle.ownedApiServices) {
    const name = `${a.version}.${a.group}`;
    verbs({ apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'] }, '', ['create'], ['get', 'patch'],
      `install strategy: APIService ${name}: create${upgrade ? ', or get + patch' : ''}`, name);
    const legacy = name.replace(/\./g, '-');
    const step = `install strategy: APIService ${name}: lookup of legacy-named resources`;
    reqs.push({
      namespace,
      step,
      escalation: false,
      rules: [
        { apiGroups: [''], resources: ['services'], resourceNames: [legacy], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: [`${name}-cert`], verbs: ['get'] },
        { apiGroups: [RBAC], resources: ['roles', 'rolebindings'], resourceNames: [`${name}-cert`], verbs: ['get'] },
      ],
    });
    reqs.push({ namespace: '', step, escalation: false, rules: [{ apiGroups: [RBAC], resources: ['clusterrolebindings'], resourceNames: [`${name}-system:auth-delegator`], verbs: ['get'] }] });
    reqs.push({ namespace: 'kube-system', step, escalation: false, rules: [{ apiGroups: [RBAC], resources: ['rolebindings'], resourceNames: [`${name}-auth-reader`], verbs: ['get'] }] });
  }

  return { requirements: reqs, unsupported, conversionNotSingleton, invalidWebhooks, createdAsCoreKind, invalidObjects };
}

/** OLM `install.ValidWebhookRules`: why the rules are rejected, or undefined. */
function invalidWebhookRules(rules: any[]): string | undefined {
  for (const r of rules) {
    const groups: any[] = Array.isArray(r?.apiGroups) ? r.apiGroups : [];
    const resources: any[] = Array.isArray(r?.resources) ? r.resources : [];
    if (groups.includes('*')) return 'Webhook rules cannot include all groups';
    if (groups.includes('operators.coreos.com')) return 'Webhook rules cannot include the OLM group';
    if (groups.includes('admissionregistration.k8s.io')
      && (resources.includes('*') || resources.includes('MutatingWebhookConfiguration') || resources.includes('ValidatingWebhookConfiguration'))) {
      return 'Webhook rules cannot include MutatingWebhookConfiguration or ValidatingWebhookConfiguration resources';
    }
  }
  return undefined;
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The rules of a bundle Role / ClusterRole, or why they do not decode. */
function rulesOf(o: BundleObject): PolicyRule[] | string {
  const raw = o.raw?.rules;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) return "field 'rules' must be a list";
  const rules: PolicyRule[] = [];
  for (const [i, r] of (raw ?? []).entries()) {
    try {
      rules.push(PolicyRules.fromJson(r));
    } catch (e) {
      return `field 'rules[${i}]': ${(e as Error).message.split('\n')[0]}`;
    }
  }
  return rules;
}
