import { Lazy } from 'cdk8s';
import { k8s, ISubject } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CODE } from '../../core/diagnostic-codes';
import { addErrorProducer } from '../../core/diagnostics';
import { InputCheck, isObject } from '../../core/input-check';
import { NameRule } from '../../core/kubernetes-names';
import { l1Metadata } from '../../core/l1-metadata';
import { subjectProblem } from '../../rbac/subject-matcher';
import { checkSubject } from '../input-checks';
import { namesCheckedByParent, nonEmpty } from '../private';

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
  /** Wrong-typed props and arguments (synth errors). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: SubjectRoleBindingProps) {
    super(scope, id);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = this.input;
    const raw: any = isObject(props) ? props : {};
    input.knownProps(raw, 'SubjectRoleBindingProps', 'SubjectRoleBinding');
    let name = input.requiredString('name', raw.name, 'name the RoleBinding');
    let namespace = input.requiredString('namespace', raw.namespace, 'name the namespace of the RoleBinding');
    let roleName = input.requiredString('roleName', raw.roleName, 'name the bound Role or ClusterRole');
    if (!namesCheckedByParent(this)) {
      name = input.name('name', name, NameRule.PATH_SEGMENT, 'RoleBinding');
      namespace = input.name('namespace', namespace, NameRule.DNS1123_LABEL, 'Namespace');
      roleName = input.name('roleName', roleName, NameRule.PATH_SEGMENT, 'role');
    }
    if (raw.roleKind === undefined || raw.roleKind === null) {
      input.add({ code: CODE.MissingInput, field: 'roleKind', message: 'roleKind is required but missing', fix: 'use RoleRefKind.ROLE or RoleRefKind.CLUSTER_ROLE' });
    }
    const checkedProps = {
      name: name ?? '',
      namespace: namespace ?? '',
      roleName: roleName ?? '',
      roleKind: input.optionalEnum('roleKind', raw.roleKind, RoleRefKind as any, 'RoleRefKind') ?? RoleRefKind.ROLE,
      annotations: input.optionalStringMap('annotations', raw.annotations, 'annotations'),
    };
    addErrorProducer(this, () => this.input.errors);
    this.name = checkedProps.name;
    this.namespace = checkedProps.namespace;
    this.apiObject = new k8s.KubeRoleBinding(this, 'Resource', {
      metadata: l1Metadata({ name: checkedProps.name, namespace: checkedProps.namespace, annotations: nonEmpty(checkedProps.annotations) }),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: checkedProps.roleKind, name: checkedProps.roleName },
      subjects: Lazy.any({ produce: () => this.subjects }),
    });
  }

  /** Adds a subject (cdk8s-plus `User`, `Group`, `ServiceAccount`, ...). Adding the same subject twice is a no-op. */
  public addSubject(subject: ISubject): void {
    const c = checkSubject(this.input, 'addSubject(subject)', subject);
    if (c) this.addSubjectConfiguration(c.kind, c.name, c.namespace, c.apiGroup);
  }

  /**
   * Adds a subject given by kind and name.
   * @param kind `User`, `Group` or `ServiceAccount`
   * @param name the subject's name
   * @param namespace the ServiceAccount's namespace @default - none (User, Group)
   * @param apiGroup the subject's API group @default - `rbac.authorization.k8s.io` for User and Group, `""` for ServiceAccount
   */
  public addSubjectConfiguration(kind: string, name: string, namespace?: string, apiGroup?: string): void {
    const before = this.input.errors.length;
    this.input.requiredString('addSubjectConfiguration(kind)', kind, "use 'User', 'Group' or 'ServiceAccount'");
    this.input.requiredString('addSubjectConfiguration(name)', name, "name the subject, e.g. 'team-a-admins'");
    this.input.optionalString('addSubjectConfiguration(namespace)', namespace);
    this.input.optionalString('addSubjectConfiguration(apiGroup)', apiGroup);
    if (this.input.errors.length > before) return;
    const group = apiGroup ?? (kind === 'ServiceAccount' ? '' : 'rbac.authorization.k8s.io');
    // a kind or apiGroup the API server refuses (the whole RoleBinding fails to apply) is a synth error here (names
    // are checked where they come from: the tenant's and the approver's props)
    const problem = subjectProblem({ kind, name: 'x', namespace, apiGroup: group }, true);
    if (problem !== undefined) {
      this.input.add({
        code: CODE.InvalidSubject,
        field: 'addSubjectConfiguration',
        value: `${kind} ${namespace ? `${namespace}/` : ''}${name}`,
        message: `the API server refuses this RoleBinding subject: ${problem}`,
        fix: "use kind 'User' or 'Group' (apiGroup rbac.authorization.k8s.io) or 'ServiceAccount' (apiGroup \"\", a valid name)",
      });
      return;
    }
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
