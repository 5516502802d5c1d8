/**
 * The RBAC checks the API server runs after decoding (Go validation, not OpenAPI), ported from kubernetes/kubernetes
 * pkg/apis/rbac/validation/validation.go (commit 1dc8b4f20f8cd7581b3175390bcca93dbcd517e5): ValidatePolicyRule,
 * ValidateRoleBinding / ValidateClusterRoleBinding, ValidateRoleBindingSubject, and the aggregationRule check of
 * ValidateClusterRole. Defaults from pkg/apis/rbac/v1/defaults.go are applied first (an empty roleRef.apiGroup
 * becomes rbac.authorization.k8s.io, and so does the apiGroup of User and Group subjects).
 *
 * Each problem reads `<field path> <problem>`. Only run on objects whose types are already valid.
 */
import { KubernetesValidation, TestNameRule } from './kubernetes-validation';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

function count(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

function notSupported(at: string, value: unknown, supported: string[]): string {
  return `${at} must be one of ${supported.map((s) => JSON.stringify(s)).join(', ')} (got ${JSON.stringify(value ?? '')})`;
}

/** RBAC semantics of Role, ClusterRole, RoleBinding and ClusterRoleBinding. */
export class RbacValidation {
  /** Problems of one RBAC object (by `kind`); empty for other kinds. */
  public static problems(obj: any): string[] {
    switch (obj.kind) {
      case 'Role':
        return RbacValidation.rules(obj.rules, true);
      case 'ClusterRole':
        return [...RbacValidation.rules(obj.rules, false), ...RbacValidation.aggregationRule(obj.aggregationRule)];
      case 'RoleBinding':
        return RbacValidation.binding(obj, true);
      case 'ClusterRoleBinding':
        return RbacValidation.binding(obj, false);
      default:
        return [];
    }
  }

  /** ValidatePolicyRule for each rule. */
  private static rules(rules: any[] | undefined, namespaced: boolean): string[] {
    const out: string[] = [];
    (rules ?? []).forEach((rule, i) => {
      const at = `rules[${i}]`;
      if (count(rule.verbs) === 0) out.push(`${at}.verbs is required: verbs must contain at least one value`);
      if (count(rule.nonResourceURLs) > 0) {
        if (namespaced) out.push(`${at}.nonResourceURLs is invalid: namespaced rules cannot apply to non-resource URLs`);
        if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
          out.push(`${at}.nonResourceURLs is invalid: rules cannot apply to both regular resources and non-resource URLs`);
        }
        return;
      }
      if (count(rule.apiGroups) === 0) out.push(`${at}.apiGroups is required: resource rules must supply at least one api group`);
      if (count(rule.resources) === 0) out.push(`${at}.resources is required: resource rules must supply at least one resource`);
    });
    return out;
  }

  private static aggregationRule(rule: any): string[] {
    if (rule === undefined || rule === null) return [];
    return count(rule.clusterRoleSelectors) === 0
      ? ['aggregationRule.clusterRoleSelectors is required: at least one clusterRoleSelector required if aggregationRule is non-nil']
      : [];
  }

  /** ValidateRoleBinding / ValidateClusterRoleBinding, after SetDefaults_RoleBinding / SetDefaults_Subject. */
  private static binding(obj: any, namespaced: boolean): string[] {
    const out: string[] = [];
    const roleRef = obj.roleRef ?? {};
    const apiGroup = roleRef.apiGroup || RBAC_GROUP;
    if (apiGroup !== RBAC_GROUP) out.push(notSupported('roleRef.apiGroup', roleRef.apiGroup, [RBAC_GROUP]));
    const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
    if (!kinds.includes(roleRef.kind)) out.push(notSupported('roleRef.kind', roleRef.kind, kinds));
    if (!roleRef.name) {
      out.push('roleRef.name is required');
    } else {
      const p = KubernetesValidation.nameProblem(roleRef.name, TestNameRule.PATH_SEGMENT);
      if (p) out.push(`roleRef.name ${JSON.stringify(roleRef.name)} is invalid: ${p}`);
    }
    (obj.subjects ?? []).forEach((subject: any, i: number) => out.push(...RbacValidation.subject(subject, namespaced, `subjects[${i}]`)));
    return out;
  }

  /** ValidateRoleBindingSubject. */
  private static subject(subject: any, namespaced: boolean, at: string): string[] {
    const out: string[] = [];
    if (!subject.name) out.push(`${at}.name is required`);
    switch (subject.kind) {
      case 'ServiceAccount':
        if (subject.name) {
          // ValidateServiceAccountName = NameIsDNSSubdomain
          const p = KubernetesValidation.nameProblem(subject.name, TestNameRule.DNS1123_SUBDOMAIN);
          if (p) out.push(`${at}.name ${JSON.stringify(subject.name)} is invalid: ${p}`);
        }
        if (subject.apiGroup) out.push(notSupported(`${at}.apiGroup`, subject.apiGroup, ['']));
        if (!namespaced && !subject.namespace) out.push(`${at}.namespace is required`);
        break;
      case 'User':
      case 'Group':
        if ((subject.apiGroup || RBAC_GROUP) !== RBAC_GROUP) out.push(notSupported(`${at}.apiGroup`, subject.apiGroup, [RBAC_GROUP]));
        break;
      default:
        out.push(notSupported(`${at}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
    }
    return out;
  }

  private constructor() {}
}
