import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { addErrorProducer } from '../../core/diagnostics';
import { InputCheck, isObject } from '../../core/input-check';
import { NameRule } from '../../core/kubernetes-names';
import { l1Metadata } from '../../core/l1-metadata';
import { PassMemo } from '../../core/synth-pass';
import { PolicyRule } from '../../rbac/policy-rule';
import { RbacRules } from '../../rbac/rbac-rules';
import { checkRules } from '../input-checks';
import { namesCheckedByParent, nonEmpty, toL1Rules } from '../private';


/** The compacted rules, once per synthesis pass (read by the preflight, the checks and the rendering). */
const SHARED_RULES = new PassMemo<PolicyRule[]>();
/** Props of `CompactRole`. */
export interface CompactRoleProps {
  /** `metadata.name` of the Role. */
  readonly name: string;
  /** `metadata.namespace` of the Role. */
  readonly namespace: string;
  /**
   * Initial rules; more can be added with `addRules`.
   * @default - none
   */
  readonly rules?: PolicyRule[];
  /**
   * Labels of the Role.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
}

/**
 * A namespaced Role whose rules are exact (`resourceNames`, any API group) and compact: equal rules are merged
 * (`RbacRules.compact`) and rendered lazily, so rules added after construction land in the manifest.
 * Unlike cdk8s-plus `Role`, which writes one rule per resource and cannot name custom resources.
 */
export class CompactRole extends Construct {
  /** The underlying L1 object (escape hatch). */
  public readonly apiObject: k8s.KubeRole;
  /** `metadata.name`. */
  public readonly name: string;
  /** `metadata.namespace`. */
  public readonly namespace: string;
  private readonly added: PolicyRule[] = [];
  /** Wrong-typed props and arguments (synth errors). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: CompactRoleProps) {
    super(scope, id);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = this.input;
    const raw: any = isObject(props) ? props : {};
    input.knownProps(raw, 'CompactRoleProps', 'CompactRole');
    const nameChecks = !namesCheckedByParent(this);
    let name = input.requiredString('name', raw.name, 'name the Role');
    let namespace = input.requiredString('namespace', raw.namespace, 'name the namespace of the Role');
    if (nameChecks) {
      name = input.name('name', name, NameRule.PATH_SEGMENT, 'Role');
      namespace = input.name('namespace', namespace, NameRule.DNS1123_LABEL, 'Namespace');
    }
    const checkedProps = { name: name ?? '', namespace: namespace ?? '', rules: checkRules(input, 'rules', raw.rules), labels: input.optionalStringMap('labels', raw.labels, 'labels') };
    addErrorProducer(this, () => this.input.errors);
    this.name = checkedProps.name;
    this.namespace = checkedProps.namespace;
    this.added.push(...(checkedProps.rules ?? []));
    this.apiObject = new k8s.KubeRole(this, 'Resource', {
      metadata: l1Metadata({ name: checkedProps.name, namespace: checkedProps.namespace, labels: nonEmpty(checkedProps.labels) }),
      rules: Lazy.any({ produce: () => toL1Rules(this._sharedRules) }),
    });
  }

  /** Adds rules. Equal rules are merged at synth time. */
  public addRules(...rules: PolicyRule[]): void {
    this.added.push(...(checkRules(this.input, 'addRules(rules)', rules) ?? []));
  }

  /** The rules as written to the manifest: compacted and sorted. */
  public get rules(): PolicyRule[] {
    return RbacRules.compact(this.added);
  }

  /**
   * `rules` for the library's own read-only use: a cached, frozen list shared by roles with the same rules.
   * @internal
   */
  public get _sharedRules(): PolicyRule[] {
    // read by the preflight, the checks and the rendering: compacted (or found by content) once per synthesis pass
    return SHARED_RULES.get(this, this, () => RbacRules._compactShared(this.added));
  }

  /** The rules exactly as added, before merging. */
  public get rawRules(): PolicyRule[] {
    return [...this.added];
  }
}
