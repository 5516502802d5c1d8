import * as path from 'path';
import { Chart } from 'cdk8s';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { CuratedClusterCatalog } from '../../src/olmv1/curated-cluster-catalog';
import { OlmV1Team } from '../../src/olmv1/olm-v1-team';
import { OlmV1ExtensionOptions, OlmV1TeamProps } from '../../src/olmv1/olm-v1-team-props';

/** The Argo CD operator's registry+v1 bundle (test/fixtures/olm-v1-render), which many OLM v1 tests install. */
export const ARGOCD_BUNDLE = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'olm-v1-render', 'bundles', 'argocd-operator.v0.6.0'));

/** What `argocdTeam` changes of its defaults. */
export interface ArgocdTeamOptions {
  /** Merged over the extension's options. */
  readonly extension?: Partial<OlmV1ExtensionOptions>;
  /** Merged over the team's props. */
  readonly team?: Partial<OlmV1TeamProps>;
}

/**
 * The OLM v1 team many tests start from: team `gitops` (group gitops-admins, namespace argocd) with its curated
 * cluster catalog `argocd` (construct `C`), installing argocd-operator as the ClusterExtension `gitops-argocd`
 * (construct `T`). The extension accepts OLMT-026 (Argo CD's operator gets cluster-admin's reach), which the App's
 * `neverAcceptable` refuses by default: a test takes it off the list, or expects the refusal.
 */
export function argocdTeam(chart: Chart, options: ArgocdTeamOptions = {}): OlmV1Team {
  const catalog = new CuratedClusterCatalog(chart, 'C', { catalogName: 'argocd', image: 'registry.example.com/catalogs/argocd:v1', team: 'gitops' });
  return new OlmV1Team(chart, 'T', {
    team: 'gitops',
    groups: ['gitops-admins'],
    namespaces: ['argocd'],
    catalog,
    allowedPackages: [{ name: 'argocd-operator' }],
    extensions: [{
      packageName: 'argocd-operator',
      name: 'gitops-argocd', // a team's ClusterExtensions carry its prefix
      namespace: 'argocd',
      bundles: [ARGOCD_BUNDLE],
      acceptedRisks: [{ check: 'OLMT-026', reason: 'argo cd manages the cluster' }],
      ...options.extension,
    }],
    ...options.team,
  });
}
