import { Lazy } from 'cdk8s';
import { k8s, ISubject } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { nonEmpty } from './private';

/** Kind of role a binding refers to. */
export enum RoleRefKind {
  /** A Role in the binding's namespace. */
  ROLE = 'Role',
  /** A ClusterRole (granted only in the binding's namespace). */
  CLUSTER_ROLE = 'ClusterRole',
}

/** Props of `SubjectRoleBinding`. */
export interface SubjectRoleBindingProps {
  /** `metadata.name` of the RoleBinding. */
  readonly name: string;
  /** `metadata.namespace` of the RoleBinding. */
  readonly namespace: string;
  /** Kind of the bound role. */
  readonly roleKind: RoleRefKind;
  /** Name of the bound role. */
  readonly roleName: string;
  /**
   * Annotations of the RoleBinding.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/**
 * A RoleBinding whose subjects can be added after construction; they are rendered lazily, sorted and without
 * duplicates, so the output does not depend on call order.
 */
export class SubjectRoleBinding extends Construct {
  /** The underlying L1 object (escape hatch). */
  public readonly apiObject: k8s.KubeRoleBinding;
  /** `metadata.name`. */
  public readonly name: string;
  /** `metadata.namespace`. */
  public readonly namespace: string;
  private readonly subjectsByKey = new Map<string, k8s.Subject>();

  constructor(scope: Construct, id: string, props: SubjectRoleBindingProps) {
    super(scope, id);
    this.name = props.name;
    this.namespace = props.namespace;
    this.apiObject = new k8s.KubeRoleBinding(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace, annotations: nonEmpty(props.annotations) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: props.roleKind, name: props.roleName },
      subjects: Lazy.any({ produce: () => this.subjects }),
    });
  }

  /** Adds a subject (cdk8s-plus `User`, `Group`, `ServiceAccount`, ...). Adding the same subject twice is a no-op. */
  public addSubject(subject: ISubject): void {
    const c = subject.toSubjectConfiguration();
    this.addSubjectConfiguration(c.kind, c.name, c.namespace, c.apiGroup);
  }

  /**
   * Adds a subject given by kind and name.
   * @param kind `User`, `Group` or `ServiceAccount`
   * @param name the subject's name
   * @param namespace the ServiceAccount's namespace @default - none (User, Group)
   * @param apiGroup the subject's API group @default - `rbac.authorization.k8s.io` for User and Group, `""` for ServiceAccount
   */
  public addSubjectConfiguration(kind: string, name: string, namespace?: string, apiGroup?: string): void {
    const group = apiGroup ?? (kind === 'ServiceAccount' ? '' : 'rbac.authorization.k8s.io');
    const subject: { -readonly [K in keyof k8s.Subject]: k8s.Subject[K] } = { kind, name };
    // The API server defaults ServiceAccount subjects to apiGroup "", which is what `kubectl get -o yaml` shows
    // only for User/Group: keep the manifest minimal and equal to what people write by hand.
    if (group !== '') subject.apiGroup = group;
    if (namespace !== undefined) subject.namespace = namespace;
    this.subjectsByKey.set(JSON.stringify([kind, namespace ?? '', name, group]), subject);
  }

  /** The subjects, sorted by kind, namespace and name. */
  public get subjects(): k8s.Subject[] {
    return [...this.subjectsByKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => ({ ...s }));
  }
}
