// People's access to a tenant: the OperatorGroup ClusterRoles bound in the target namespaces (grantOperatorAccess)
// and the subscription managers (grantSubscriptionManagement), as objects, report rows and audit subjects.
import { Construct } from 'constructs';
import { CompactRole } from './compact-role';
import { RbacSubject, SubjectKind } from '../../audit/effective-power';
import { AccessLevel, OlmGeneration, OlmNaming } from '../../olm/olm-naming';
import { CheckedSubject } from '../input-checks';
import { LazyMap, LazySet } from '../lazy-collections';
import { orderAfter } from '../private';
import { TenantAccessGrant } from '../scoped-operator-tenant-props';
import { RoleRefKind, SubjectRoleBinding } from './subject-role-binding';

const SUBSCRIPTION_WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** What people's access needs of its tenant. */
export interface PeopleAccessOptions {
  readonly namespace: string;
  readonly operatorGroupName: string;
  readonly olmGeneration: OlmGeneration;
  readonly allNamespaces: boolean;
  /** The OperatorGroup's target namespaces (see `ScopedOperatorTenant.targetNamespaces`). */
  readonly targetNamespaces: string[];
  /** The OperatorGroup: every binding is applied after it. */
  readonly operatorGroup: Construct;
}

/** One subject a tenant grants access to (`grantOperatorAccess`, `grantSubscriptionManagement`), as bound. */
export interface PeopleGrantFacts {
  /** The method that granted it, e.g. `grantOperatorAccess(admin)`. */
  readonly field: string;
  /** The subject's kind as written (`User`, `Group`, `ServiceAccount`). */
  readonly kind: string;
  /** The subject's name. */
  readonly name: string;
  /** The subject's namespace (ServiceAccounts). */
  readonly namespace?: string;
  /** The RoleBinding's namespace (the default of a ServiceAccount subject without one). */
  readonly bindingNamespace: string;
}

/** The RoleBindings that give people access to one tenant, created in the tenant's scope on first use. */
export class PeopleAccess {
  private readonly accessBindings = new LazyMap<string, SubjectRoleBinding>();
  /** The subscription managers' Role and RoleBinding, made by the first `grantSubscriptionManagement`. */
  private subscriptionManagement?: { readonly role: CompactRole; readonly binding: SubjectRoleBinding };
  private readonly accessGrantsOnAllNamespaces = new LazySet<AccessLevel>();

  constructor(private readonly scope: Construct, private readonly options: PeopleAccessOptions) {}

  /**
   * Binds `subject` to the OperatorGroup's `level` ClusterRole in every target namespace (see `grantOperatorAccess`).
   * Returns the bindings that list it, in namespace order.
   */
  public grantOperatorAccess(subject: CheckedSubject, level: AccessLevel): SubjectRoleBinding[] {
    const { namespace, operatorGroupName, allNamespaces } = this.options;
    const clusterRoleName = OlmNaming.operatorGroupClusterRoleName(namespace, operatorGroupName, level, this.options.olmGeneration);
    if (allNamespaces) this.accessGrantsOnAllNamespaces.write().add(level);
    const namespaces = allNamespaces ? [namespace] : this.options.targetNamespaces;
    const out: SubjectRoleBinding[] = [];
    for (const ns of namespaces) {
      const key = `${ns}/${level}`;
      let binding = this.accessBindings.read.get(key);
      if (!binding) {
        binding = new SubjectRoleBinding(this.scope, `OperatorAccess-${level}-${ns}`, {
          // in a namespace shared with other OperatorGroups' targets, prefix the tenant namespace to stay unique
          name: ns === namespace ? `${operatorGroupName}-operator-${level}` : `${namespace}-${operatorGroupName}-operator-${level}`,
          namespace: ns,
          roleKind: RoleRefKind.CLUSTER_ROLE,
          roleName: clusterRoleName,
        });
        orderAfter(binding, this.options.operatorGroup);
        this.accessBindings.write().set(key, binding);
      }
      binding.addSubjectConfiguration(subject.kind, subject.name, subject.namespace, subject.apiGroup);
      out.push(binding);
    }
    return out;
  }

  /**
   * Lets `subject` manage Subscriptions and approve InstallPlans (see `grantSubscriptionManagement`). Returns the
   * subscription managers' Role and the binding that lists `subject`.
   */
  public grantSubscriptionManagement(subject: CheckedSubject): { role: CompactRole; binding: SubjectRoleBinding } {
    if (!this.subscriptionManagement) {
      const { namespace, operatorGroupName } = this.options;
      const name = `${operatorGroupName}-subscription-manager`;
      const role = new CompactRole(this.scope, 'SubscriptionManagerRole', {
        name,
        namespace,
        rules: [
          { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: [...SUBSCRIPTION_WRITE] },
          { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'list', 'watch', 'patch', 'update'] },
          { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'], verbs: ['get', 'list', 'watch'] },
        ],
      });
      orderAfter(role, this.options.operatorGroup);
      const binding = new SubjectRoleBinding(this.scope, 'SubscriptionManagerRoleBinding', {
        name,
        namespace,
        roleKind: RoleRefKind.ROLE,
        roleName: name,
      });
      orderAfter(binding, role);
      this.subscriptionManagement = { role, binding };
    }
    this.subscriptionManagement.binding.addSubjectConfiguration(subject.kind, subject.name, subject.namespace, subject.apiGroup);
    return this.subscriptionManagement;
  }

  /** The subscription managers' RoleBinding, once someone was granted subscription management. */
  private get subscriptionManagers(): SubjectRoleBinding | undefined {
    return this.subscriptionManagement?.binding;
  }

  /** True once someone may approve InstallPlans (`grantSubscriptionManagement`). */
  public get hasSubscriptionManagers(): boolean {
    return this.subscriptionManagers !== undefined;
  }

  /** The levels granted while the OperatorGroup targets all namespaces (bound in the tenant namespace only), sorted. */
  public get levelsOnAllNamespaces(): AccessLevel[] {
    return [...this.accessGrantsOnAllNamespaces.read].sort();
  }

  /** Who was granted what, sorted (for reports; see `ScopedOperatorTenant.accessGrants`). */
  public get grants(): TenantAccessGrant[] {
    const out: TenantAccessGrant[] = [];
    const push = (binding: SubjectRoleBinding, what: string) => {
      for (const s of binding.subjects) out.push({ subjectKind: s.kind, subjectName: s.name, grant: what, namespace: binding.namespace });
    };
    for (const [key, binding] of this.accessBindings.read) push(binding, `operator-${key.slice(key.lastIndexOf('/') + 1)}`);
    if (this.subscriptionManagers) push(this.subscriptionManagers, 'subscription-management');
    const k = (g: TenantAccessGrant) => `${g.namespace}\u0000${g.grant}\u0000${g.subjectKind}\u0000${g.subjectName}`;
    return out.sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
  }

  /** The subjects per binding, for the cross-tenant checks (`TenantConflicts`). */
  public get facts(): PeopleGrantFacts[] {
    const out: PeopleGrantFacts[] = [];
    const push = (binding: SubjectRoleBinding, field: string) => {
      for (const s of binding.subjects) out.push({ field, kind: s.kind, name: s.name, namespace: s.namespace, bindingNamespace: binding.namespace });
    };
    for (const [key, binding] of this.accessBindings.read) push(binding, `grantOperatorAccess(${key.slice(key.lastIndexOf('/') + 1)})`);
    if (this.subscriptionManagers) push(this.subscriptionManagers, 'grantSubscriptionManagement(subject)');
    return out;
  }

  /** Every subject of the bindings once, as the effective-power audit names them. */
  public get auditSubjects(): RbacSubject[] {
    const people = new Map<string, RbacSubject>();
    for (const b of [...this.accessBindings.read.values(), ...(this.subscriptionManagers ? [this.subscriptionManagers] : [])]) {
      for (const s of b.subjects) {
        // a ServiceAccount subject without namespace (or with "") is the binding's (rule.go appliesToUser)
        const subject: RbacSubject = s.kind === 'ServiceAccount'
          ? { kind: SubjectKind.SERVICE_ACCOUNT, name: s.name, namespace: s.namespace ? s.namespace : b.namespace }
          : { kind: s.kind === 'Group' ? SubjectKind.GROUP : SubjectKind.USER, name: s.name };
        people.set(JSON.stringify(subject), subject);
      }
    }
    return [...people.values()];
  }
}
