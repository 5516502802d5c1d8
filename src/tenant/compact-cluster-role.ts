import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { nonEmpty, toL1Rules } from './private';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

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

  constructor(scope: Construct, id: string, props: CompactClusterRoleProps) {
    super(scope, id);
    this.name = props.name;
    this.added.push(...(props.rules ?? []));
    this.apiObject = new k8s.KubeClusterRole(this, 'Resource', {
      metadata: { name: props.name, labels: nonEmpty(props.labels), annotations: nonEmpty(props.annotations) },
      rules: Lazy.any({ produce: () => toL1Rules(this._sharedRules) }),
    });
  }

  /** Adds rules. Equal rules are merged at synth time. */
  public addRules(...rules: PolicyRule[]): void {
    this.added.push(...rules);
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
    return RbacRules._compactShared(this.added);
  }

  /** The rules exactly as added, before merging. */
  public get rawRules(): PolicyRule[] {
    return [...this.added];
  }
}
