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
/** Props of `CompactClusterRole`. */
export interface CompactClusterRoleProps {
  /** `metadata.name` of the ClusterRole. */
  readonly name: string;
  /**
   * Initial rules; more can be added with `addRules`.
   * @default - none
   */
  readonly rules?: PolicyRule[];
  /**
   * Labels of the ClusterRole.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Annotations of the ClusterRole (e.g. why it exists).
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** A ClusterRole with exact, merged rules rendered lazily (see `CompactRole`). */
export class CompactClusterRole extends Construct {
  /** The underlying L1 object (escape hatch). */
  public readonly apiObject: k8s.KubeClusterRole;
  /** `metadata.name`. */
  public readonly name: string;
  private readonly added: PolicyRule[] = [];
  /** Wrong-typed props and arguments (synth errors). */
  private readonly input = new InputCheck();

  constructor(scope: Construct, id: string, props: CompactClusterRoleProps) {
    super(scope, id);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = this.input;
    const raw: any = isObject(props) ? props : {};
    input.knownProps(raw, 'CompactClusterRoleProps', 'CompactClusterRole');
    let name = input.requiredString('name', raw.name, 'name the ClusterRole');
    if (!namesCheckedByParent(this)) name = input.name('name', name, NameRule.PATH_SEGMENT, 'ClusterRole');
    const checkedProps = {
      name: name ?? '',
      rules: checkRules(input, 'rules', raw.rules),
      labels: input.optionalStringMap('labels', raw.labels, 'labels'),
      annotations: input.optionalStringMap('annotations', raw.annotations, 'annotations'),
    };
    addErrorProducer(this, () => this.input.errors);
    this.name = checkedProps.name;
    this.added.push(...(checkedProps.rules ?? []));
    this.apiObject = new k8s.KubeClusterRole(this, 'Resource', {
      metadata: l1Metadata({ name: checkedProps.name, labels: nonEmpty(checkedProps.labels), annotations: nonEmpty(checkedProps.annotations) }),
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
