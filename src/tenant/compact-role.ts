import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { nonEmpty, toL1Rules } from './private';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules } from '../rbac/rbac-rules';

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

  constructor(scope: Construct, id: string, props: CompactRoleProps) {
    super(scope, id);
    this.name = props.name;
    this.namespace = props.namespace;
    this.added.push(...(props.rules ?? []));
    this.apiObject = new k8s.KubeRole(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace, labels: nonEmpty(props.labels) },
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
