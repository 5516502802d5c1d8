/**
 * Flux Kustomizations for the GitOps layout (docs/gitops.md, "Flux"): one for `cluster/`, one per tenant folder that
 * depends on it, each waiting for the health of what it applies with the OLM health expressions
 * (`OlmHealthChecks.fluxHealthCheckExprs`). OLM marks a Subscription AtLatestKnown as soon as its ClusterServiceVersion
 * object exists, whatever the CSV's phase (operator-lifecycle-manager `pkg/controller/operators/catalog/operator.go`,
 * `ensureSubscriptionCSVState`), so where a CSV's name is fixed (a pinned, Manual-approval subscription) a second
 * Kustomization, `<name>-operators`, waits for the CSV itself: OLM creates it, not Flux, and kustomize-controller reads
 * `spec.healthChecks` only with `wait: false` ("When enabled, the HealthChecks are ignored": `api/v1/
 * kustomization_types.go`; `checkHealth` in `internal/controller/kustomization_controller.go`), so the wait on the CSVs
 * cannot share the folder's Kustomization, which waits for everything it applies (`wait: true`). It applies nothing
 * (`flux/empty/`).
 */
import { emptyFolderFile, FLUX_EMPTY_FOLDER, fluxFilesWithIdentities, uniqueRefs } from './flux-identities';
import { FluxClusterServiceVersionRef, FluxOptions, FluxTenantFolder } from './flux-kustomizations-props';
import type { GitOpsFile } from './gitops-layout';
import { checkFluxOptions, checkSelfService } from './input-checks';
import { OlmHealthChecks } from './olm-health-checks';
import { YamlWriter } from './yaml-writer';
import { InputCheck, prop, throwIfInvalid } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';

/** The `flux/` folder of the GitOps layout. */
export class FluxKustomizations {
  /** The folder the files go to. */
  public static readonly FOLDER = 'flux';
  /** The folder (inside `FOLDER`) that builds to no object: the path of the Kustomizations that only wait for CSVs. */
  public static readonly EMPTY_FOLDER = FLUX_EMPTY_FOLDER;

  /**
   * The files of `flux/`: `kustomization.yaml` (kustomize, listing the others: point a Flux Kustomization or
   * `kubectl apply -k` at it), `cluster.yaml`, and `tenant-<namespace>.yaml` per tenant folder, sorted.
   */
  public static files(options: FluxOptions, tenants: FluxTenantFolder[]): GitOpsFile[] {
    const check = new InputCheck();
    const checked = checkFluxOptions(check, 'options', options ?? undefined);
    if (options === undefined || options === null) check.requiredObject('options', options, 'FluxOptions', "pass { path: './dist' }");
    const folders = check.optionalArray('tenants', tenants, (v, f) => {
      const o = check.requiredObject(f, v, 'a FluxTenantFolder', 'pass { namespace, clusterServiceVersions? }');
      if (!o) return undefined;
      check.knownProps(o, 'FluxTenantFolder', f, `${f}.`);
      const namespace = check.name(`${f}.namespace`, check.requiredString(`${f}.namespace`, prop(o, 'namespace'), 'set namespace to the tenant namespace'), NameRule.DNS1123_LABEL, 'Namespace');
      const csvs = check.optionalStringArray(`${f}.clusterServiceVersions`, prop(o, 'clusterServiceVersions'), 'list ClusterServiceVersion names');
      for (const [i, n] of (csvs ?? []).entries()) check.name(`${f}.clusterServiceVersions[${i}]`, n, NameRule.DNS1123_SUBDOMAIN, 'ClusterServiceVersion');
      const afterInstall = check.optionalBoolean(`${f}.afterInstall`, prop(o, 'afterInstall'));
      const selfService = checkSelfService(check, `${f}.selfService`, prop(o, 'selfService'));
      const folder: FluxTenantFolder | undefined = namespace === undefined ? undefined
        : { namespace, clusterServiceVersions: csvs, afterInstall, selfService };
      return folder;
    }, 'pass a list of { namespace, clusterServiceVersions? }') ?? [];
    throwIfInvalid(check, 'FluxKustomizations.files');
    const folderList = folders.filter((t): t is FluxTenantFolder => t !== undefined);
    // tenant identities: each tenant's Kustomization in its namespace, as its ServiceAccount (flux-identities.ts)
    if (checked!.url !== undefined && checked!.tenantIdentities !== false) return fluxFilesWithIdentities(checked!, folderList);
    return FluxKustomizations.render(checked!, folderList);
  }

  private static render(options: FluxOptions, tenants: FluxTenantFolder[]): GitOpsFile[] {
    const prefix = options.namePrefix ?? 'tenancy';
    const base = options.path.replace(/\/+$/, '');
    const clusterName = `${prefix}-cluster`;
    const kustomization = (name: string, folder: string, extra: { [key: string]: any }) => ({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name, namespace: options.namespace ?? 'flux-system' },
      spec: {
        interval: options.interval ?? '10m',
        timeout: options.timeout ?? '15m',
        path: `${base}/${folder}`,
        prune: true,
        wait: true,
        sourceRef: { kind: options.sourceKind ?? 'GitRepository', name: options.sourceName ?? 'flux-system' },
        ...extra,
        healthCheckExprs: OlmHealthChecks.fluxHealthCheckExprs(),
      },
    });
    // waits for ClusterServiceVersions by name once `dependsOn` is ready; applies nothing (wait: false is what makes
    // kustomize-controller read healthChecks)
    const operatorsGate = (name: string, dependsOn: string, csvs: FluxClusterServiceVersionRef[]) => kustomization(name, `${FluxKustomizations.FOLDER}/${FluxKustomizations.EMPTY_FOLDER}`, {
      prune: false,
      wait: false,
      dependsOn: [{ name: dependsOn }],
      healthChecks: csvs.map((c) => ({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', name: c.name, namespace: c.namespace })),
    });
    const header = '# Flux: generated by cdk8s-olm-tenancy (docs/gitops.md "Flux"); do not edit.\n';
    const withCluster = options.cluster ?? true;
    const files: GitOpsFile[] = [];
    const ready: string[] = [];
    if (withCluster) {
      files.push({ path: 'cluster.yaml', content: header + YamlWriter.document(kustomization(clusterName, 'cluster', {})) });
      ready.push(clusterName);
      const csvs = uniqueRefs(options.clusterOperators ?? []);
      if (csvs.length > 0) {
        files.push({ path: 'cluster-operators.yaml', content: header + YamlWriter.document(operatorsGate(`${clusterName}-operators`, clusterName, csvs)) });
        ready.push(`${clusterName}-operators`);
      }
    }
    for (const t of [...tenants].sort((a, b) => compare(a.namespace, b.namespace))) {
      const csvs = uniqueRefs((t.clusterServiceVersions ?? []).map((name) => ({ namespace: t.namespace, name })));
      const name = `${prefix}-tenant-${t.namespace}`;
      ready.push(name);
      files.push({
        path: `tenant-${t.namespace}.yaml`,
        content: header + YamlWriter.document(kustomization(name, `tenants/${t.namespace}`, withCluster ? { dependsOn: [{ name: clusterName }] } : {})),
      });
      if (csvs.length > 0) {
        files.push({ path: `tenant-${t.namespace}-operators.yaml`, content: header + YamlWriter.document(operatorsGate(`${name}-operators`, name, csvs)) });
        ready.push(`${name}-operators`);
      }
      // objects that need the tenant's operators' CRDs: applied once the tenant's Kustomization is ready (its
      // Subscriptions healthy) and, where their names are known, its operators' CSVs have Succeeded
      if (t.afterInstall) {
        files.push({
          path: `tenant-${t.namespace}-after-install.yaml`,
          content: header + YamlWriter.document(kustomization(`${name}-after-install`, `after-install/tenants/${t.namespace}`, {
            dependsOn: [name, ...(csvs.length > 0 ? [`${name}-operators`] : [])].map((n) => ({ name: n })),
          })),
        });
      }
    }
    if (options.afterInstallCluster) {
      files.push({
        path: 'cluster-after-install.yaml',
        content: header + YamlWriter.document(kustomization(`${clusterName}-after-install`, 'after-install/cluster', {
          dependsOn: ready.map((n) => ({ name: n })),
        })),
      });
    }
    files.sort((a, b) => compare(a.path, b.path));
    const index = {
      path: 'kustomization.yaml',
      content: header + YamlWriter.document({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: files.map((f) => f.path) }),
    };
    const gates = files.some((f) => f.path.endsWith('-operators.yaml'));
    return [index, ...files, ...(gates ? [emptyFolderFile(header)] : [])].map((f) => ({ path: `${FluxKustomizations.FOLDER}/${f.path}`, content: f.content }));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
