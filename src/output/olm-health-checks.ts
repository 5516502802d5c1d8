/**
 * Health of the OLM kinds for GitOps tools: Argo CD health scripts (Lua) and Flux `healthCheckExprs` (CEL), so that a
 * sync goes green only when an operator is really installed (docs/gitops.md, "Health"). Argo CD ships a check for the
 * Subscription only and treats the other OLM kinds as Healthy once they exist; Flux ships none.
 */
import { OLM_HEALTH_LUA } from './olm-health-lua';
import { YamlWriter } from './yaml-writer';
import { InputCheck, prop, throwIfInvalid } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

/** The health check of one OLM kind, for Argo CD and for Flux. */
export interface OlmHealthCheck {
  /** API group (`operators.coreos.com` or `olm.operatorframework.io`). */
  readonly group: string;
  /** The API version the Flux expressions are declared for (Flux matches on group and kind). */
  readonly apiVersion: string;
  /** Kind. */
  readonly kind: string;
  /** The Argo CD health script (Lua 5.1): reads the global `obj`, returns `{ status, message }`. */
  readonly argoCdLua: string;
  /** Flux: CEL expression that is true when the object is healthy (`current`). */
  readonly fluxCurrent: string;
  /** Flux: CEL expression that is true when the object failed (`failed`). */
  readonly fluxFailed: string;
  /**
   * Flux: CEL expression that is true while the object's status describes an older generation (`inProgress`).
   * @default - none: Flux's own `status.observedGeneration` check applies
   */
  readonly fluxInProgress?: string;
}

/** Options of `OlmHealthChecks.argoCdConfigMapPatch`. */
export interface ArgoCdHealthPatchOptions {
  /**
   * Namespace of Argo CD's `argocd-cm` ConfigMap.
   * @default 'argocd'
   */
  readonly namespace?: string;
}

// CEL helpers. Flux parses (does not compile) the expressions with the object's top-level fields as variables
// (fluxcd/pkg runtime/cel expression.go): a missing `status` is an evaluation error, which Flux reports as Unknown
// while it keeps waiting; missing fields below it are guarded with has() (standard CEL, no optional syntax).
const conditions = (test: string) => `has(status.conditions) && status.conditions.exists(c, ${test})`;
const reasonIs = (reason: string) => `has(c.reason) && c.reason == '${reason}'`;
const stale = (types: string[]) =>
  conditions(`c.type in [${types.map((t) => `'${t}'`).join(', ')}] && has(c.observedGeneration) && has(metadata.generation) && c.observedGeneration < metadata.generation`);
const field = (path: string, value: string) => `has(status.${path}) && status.${path} == ${value}`;

/** Flux expressions per kind, each with the same verdict as the Argo CD script (tested on the same objects). */
const FLUX: Record<string, { current: string; failed: string; inProgress?: string }> = {
  Subscription: {
    failed: [
      conditions("c.type in ['ResolutionFailed', 'CatalogSourcesUnhealthy', 'InstallPlanFailed', 'BundleUnpackFailed'] && c.status == 'True'"),
      `(${conditions("c.type == 'InstallPlanMissing' && c.status == 'True'")}) && (!has(status.installedCSV) || status.installedCSV == '')`,
      field('state', "'UpgradeFailed'"),
    ].map((e) => `(${e})`).join(' || '),
    current: `has(status.installedCSV) && status.installedCSV != '' && ((${conditions(`c.type == 'InstallPlanPending' && c.status == 'True' && ${reasonIs('RequiresApproval')}`)}) || (`
      + `${field('state', "'AtLatestKnown'")} && (!has(status.currentCSV) || status.currentCSV == '' || status.currentCSV == status.installedCSV) && `
      + `!(${conditions("c.type in ['InstallPlanPending', 'BundleUnpacking'] && c.status == 'True'")})))`,
  },
  InstallPlan: {
    failed: field('phase', "'Failed'"),
    current: field('phase', "'Complete'"),
  },
  ClusterServiceVersion: {
    failed: field('phase', "'Failed'"),
    current: field('phase', "'Succeeded'"),
  },
  CatalogSource: {
    failed: '(has(status.reason) && status.reason != \'\') || (has(status.connectionState) && has(status.connectionState.lastObservedState) && status.connectionState.lastObservedState == \'SHUTDOWN\')',
    current: 'has(status.connectionState) && has(status.connectionState.lastObservedState) && status.connectionState.lastObservedState == \'READY\'',
  },
  OperatorGroup: {
    failed: conditions("c.type in ['MultipleOperatorGroup', 'OperatorGroupServiceAccount'] && c.status == 'True'"),
    current: "has(status.namespaces) && (!has(spec.serviceAccountName) || spec.serviceAccountName == '' || has(status.serviceAccountRef))",
  },
  ClusterExtension: {
    inProgress: stale(['Progressing', 'Installed']),
    failed: conditions("c.type == 'Progressing' && c.status == 'False'"),
    current: `(${conditions("c.type == 'Installed' && c.status == 'True'")}) && !(${conditions(`c.type == 'Progressing' && c.status == 'True' && !(${reasonIs('Succeeded')})`)})`,
  },
  ClusterCatalog: {
    inProgress: stale(['Progressing', 'Serving']),
    failed: `(${conditions("c.type == 'Progressing' && c.status == 'False'")}) && !(${conditions(`c.type == 'Serving' && c.status == 'False' && ${reasonIs('UserSpecifiedUnavailable')}`)})`,
    current: conditions(`c.type == 'Serving' && (c.status == 'True' || (c.status == 'False' && ${reasonIs('UserSpecifiedUnavailable')}))`),
  },
};

const API_VERSIONS: Record<string, string> = {
  OperatorGroup: 'operators.coreos.com/v1',
  ClusterExtension: 'olm.operatorframework.io/v1',
  ClusterCatalog: 'olm.operatorframework.io/v1',
};

/**
 * Health checks of the OLM kinds (Subscription, InstallPlan, ClusterServiceVersion, CatalogSource, OperatorGroup,
 * ClusterExtension, ClusterCatalog) for Argo CD and Flux, read from OLM's and operator-controller's source (cited in
 * each script). The GitOps layout writes them beside its output (`argocd/health-checks.yaml`, and the Flux
 * Kustomizations' `healthCheckExprs` with `TenancyAppProps.flux`).
 */
export class OlmHealthChecks {
  /** The `argocd-cm` key prefix of a health script (`resource.customizations.health.<group>_<kind>`). */
  public static readonly ARGOCD_KEY_PREFIX = 'resource.customizations.health.';

  /** Every check, in a fixed order (the v0 kinds, then OLM v1's). */
  public static all(): OlmHealthCheck[] {
    return OLM_HEALTH_LUA.map(({ group, kind, script }) => {
      const flux = FLUX[kind];
      return {
        group,
        apiVersion: API_VERSIONS[kind] ?? `${group}/v1alpha1`,
        kind,
        argoCdLua: script,
        fluxCurrent: flux.current,
        fluxFailed: flux.failed,
        ...(flux.inProgress ? { fluxInProgress: flux.inProgress } : {}),
      };
    });
  }

  /** The `argocd-cm` data keys and scripts: `resource.customizations.health.<group>_<kind>` -> Lua. */
  public static argoCdConfigMapData(): { [key: string]: string } {
    const data: { [key: string]: string } = {};
    for (const c of OlmHealthChecks.all()) data[`${OlmHealthChecks.ARGOCD_KEY_PREFIX}${c.group}_${c.kind}`] = c.argoCdLua;
    return data;
  }

  /**
   * `argocd/health-checks.yaml`: a patch of Argo CD's `argocd-cm` ConfigMap adding the health scripts, for the
   * kustomization that installs Argo CD (`patches: [{ path: health-checks.yaml }]`) or `kubectl patch --patch-file`.
   * It replaces Argo CD's built-in Subscription check (same key).
   */
  public static argoCdConfigMapPatch(options: ArgoCdHealthPatchOptions = {}): string {
    const check = new InputCheck();
    const o = check.optionalObject('options', options, "pass { namespace?: 'argocd' }") ?? {};
    check.knownProps(o, 'ArgoCdHealthPatchOptions', 'options', 'options.');
    const namespace = check.name('options.namespace', check.optionalString('options.namespace', prop(o, 'namespace'), {
      fix: "set namespace to Argo CD's namespace, e.g. 'argocd'",
    }), NameRule.DNS1123_LABEL, 'Namespace');
    throwIfInvalid(check, 'OlmHealthChecks.argoCdConfigMapPatch');
    const header = [
      '# Argo CD: health of the OLM kinds (cdk8s-olm-tenancy, docs/gitops.md "Health"). A strategic-merge patch of the',
      '# argocd-cm ConfigMap: add it to the kustomization that installs Argo CD (patches: [{path: health-checks.yaml}]).',
      '# Generated: do not edit.',
    ].join('\n');
    return `${header}\n${YamlWriter.document({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'argocd-cm',
        namespace: namespace ?? 'argocd',
        labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' },
      },
      data: OlmHealthChecks.argoCdConfigMapData(),
    })}`;
  }

  /** Flux `spec.healthCheckExprs` entries of a Kustomization (kustomize.toolkit.fluxcd.io/v1, Flux >= 2.5). */
  public static fluxHealthCheckExprs(): any[] {
    return OlmHealthChecks.all().map((c) => ({
      apiVersion: c.apiVersion,
      kind: c.kind,
      ...(c.fluxInProgress ? { inProgress: c.fluxInProgress } : {}),
      failed: c.fluxFailed,
      current: c.fluxCurrent,
    }));
  }
}
