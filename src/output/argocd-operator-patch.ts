/**
 * The OLM health checks and ignored differences in the form of the `ArgoCD` resource of argocd-operator (and of
 * OpenShift GitOps, which runs it): `spec.resourceHealthChecks` and `spec.resourceIgnoreDifferences`. That operator
 * owns `argocd-cm` and writes it from the resource (argoproj-labs/argocd-operator `controllers/argocd/configmap.go`:
 * `getResourceHealthChecks` makes the key `resource.customizations.health.<group>_<kind>`, `getResourceIgnoreDifferences`
 * `resource.customizations.ignoreDifferences.<group>_<kind>`, the group left out for the core group), so a patch of
 * `argocd-cm` itself (`argocd/health-checks.yaml`) is overwritten there.
 */
import { OlmHealthChecks } from './olm-health-checks';
import { OlmWrites } from './olm-writes';
import { YamlWriter } from './yaml-writer';
import { InputCheck, prop, throwIfInvalid } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

/** One entry of the `ArgoCD` resource's `spec.resourceHealthChecks`. */
export interface ArgoCdResourceHealthCheck {
  /** API group of the kind. */
  readonly group: string;
  /** Kind. */
  readonly kind: string;
  /** The health script (Lua). */
  readonly check: string;
}

/** Options of `ArgoCdOperatorPatch.yaml`. */
export interface ArgoCdOperatorPatchOptions {
  /**
   * Name of the `ArgoCD` resource.
   * @default 'openshift-gitops' (the instance OpenShift GitOps creates)
   */
  readonly name?: string;
  /**
   * Its namespace.
   * @default 'openshift-gitops'
   */
  readonly namespace?: string;
}

/** `argocd/argocd-operator-patch.yaml`: the checks and ignored differences as fields of the `ArgoCD` resource. */
export class ArgoCdOperatorPatch {
  /** `spec.resourceHealthChecks`: one entry per OLM kind, the same scripts as `OlmHealthChecks.argoCdConfigMapData()`. */
  public static resourceHealthChecks(): ArgoCdResourceHealthCheck[] {
    return OlmHealthChecks.all().map((c) => ({ group: c.group, kind: c.kind, check: c.argoCdLua }));
  }

  /**
   * `spec.resourceIgnoreDifferences`: `resourceIdentifiers`, one per group and kind of `OlmWrites.fields()` with its
   * `jsonPointers` and `jqPathExpressions` (Argo CD's system-wide form of an Application's `ignoreDifferences`).
   */
  public static resourceIgnoreDifferences(): any {
    return {
      resourceIdentifiers: OlmWrites.argoCdIgnoreDifferences().map(({ group, kind, ...customization }) => ({ group, kind, customization })),
    };
  }

  /**
   * The `ArgoCD` resource (`argoproj.io/v1beta1`) with only these two fields, for `oc patch argocd <name> -n <namespace>
   * --type merge --patch-file` or a kustomize patch. A merge patch replaces a list as a whole: when the resource
   * already has entries of its own in `resourceHealthChecks` or `resourceIgnoreDifferences.resourceIdentifiers`, add
   * these entries to them instead (docs/gitops.md, "OpenShift GitOps").
   */
  public static yaml(options: ArgoCdOperatorPatchOptions = {}): string {
    const check = new InputCheck();
    const o = check.optionalObject('options', options, "pass { name?: 'openshift-gitops', namespace?: 'openshift-gitops' }") ?? {};
    check.knownProps(o, 'ArgoCdOperatorPatchOptions', 'options', 'options.');
    const name = check.name('options.name', check.optionalString('options.name', prop(o, 'name'), {
      fix: "set name to the ArgoCD resource's name, e.g. 'openshift-gitops'",
    }), NameRule.DNS1123_SUBDOMAIN, 'ArgoCD');
    const namespace = check.name('options.namespace', check.optionalString('options.namespace', prop(o, 'namespace'), {
      fix: "set namespace to the ArgoCD resource's namespace, e.g. 'openshift-gitops'",
    }), NameRule.DNS1123_LABEL, 'Namespace');
    throwIfInvalid(check, 'ArgoCdOperatorPatch.yaml');
    const header = [
      '# Argo CD run by argocd-operator or OpenShift GitOps: the health of the OLM kinds and the fields OLM writes, as',
      '# fields of the ArgoCD resource, which the operator turns into argocd-cm (cdk8s-olm-tenancy, docs/gitops.md',
      '# "OpenShift GitOps"). A merge patch replaces these lists whole: if your ArgoCD resource has entries of its own',
      '# there, add these to them. Generated: do not edit.',
    ].join('\n');
    return `${header}\n${YamlWriter.document({
      apiVersion: 'argoproj.io/v1beta1',
      kind: 'ArgoCD',
      metadata: { name: name ?? 'openshift-gitops', namespace: namespace ?? 'openshift-gitops' },
      spec: {
        resourceHealthChecks: ArgoCdOperatorPatch.resourceHealthChecks(),
        resourceIgnoreDifferences: ArgoCdOperatorPatch.resourceIgnoreDifferences(),
      },
    })}`;
  }

  private constructor() {}
}
