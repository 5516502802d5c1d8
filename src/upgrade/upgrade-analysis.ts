/**
 * Every upgrade the catalog allows from the pinned version, checked before anyone approves it: the install
 * preflight of the target with the tenant's current installer rules (OLM's update path), and the permission diff.
 */
import { checkAnalysisResult, checkAnalyzeProps } from './input-checks';
import { PermissionDiff, PermissionDiffs } from './permission-diffs';
import { clean } from './private';
import { UpgradeEdge, UpgradeGraph } from './upgrade-graph';
import { InstallPreflight, PreflightResult } from '../preflight/install-preflight';
import { NamespaceRules } from '../preflight/preflight-code';
import { PolicyRule } from '../rbac/policy-rule';

/** Input of `UpgradeAnalysis.analyze`. */
export interface UpgradeAnalysisProps {
  /** The channel's upgrade graph, with bundles attached. */
  readonly graph: UpgradeGraph;
  /** The installed (pinned) CSV. */
  readonly from: string;
  /**
   * The curated version range (node-semver, as `CuratedPackage.versionRange`): entries outside it are not offered.
   * @default - every version of the channel
   */
  readonly versionRange?: string;
  /** Namespace of the OperatorGroup. */
  readonly namespace: string;
  /** Target namespaces; empty = AllNamespaces. */
  readonly targetNamespaces: string[];
  /** Rules the installer holds in `namespace`. */
  readonly installerRules: PolicyRule[];
  /**
   * Cluster-wide installer rules.
   * @default - none
   */
  readonly clusterInstallerRules?: PolicyRule[];
  /**
   * Installer rules in other namespaces.
   * @default - none
   */
  readonly otherNamespaceRules?: NamespaceRules[];
}

/** One allowed upgrade, checked. */
export interface UpgradeEdgeReport {
  /** The edge. */
  readonly edge: UpgradeEdge;
  /**
   * The preflight of the target on OLM's update path with the installer's current rules.
   * @default - no bundle attached for the target
   */
  readonly preflight?: PreflightResult;
  /**
   * What changes from the source to the target.
   * @default - a bundle is not attached
   */
  readonly diff?: PermissionDiff;
}

/** Result of `UpgradeAnalysis.analyze`. */
export interface UpgradeAnalysisResult {
  /** The package. */
  readonly packageName: string;
  /** The channel. */
  readonly channel: string;
  /** The installed (pinned) CSV. */
  readonly from: string;
  /**
   * The curated range.
   * @default - every version
   */
  readonly versionRange?: string;
  /** The CSVs reachable from `from`, breadth-first (without `from`). */
  readonly allowedVersions: string[];
  /** Every allowed edge, breadth-first. */
  readonly edges: UpgradeEdgeReport[];
  /** CSVs of the graph walk that have no bundle attached, sorted (not checked). */
  readonly missingBundles: string[];
  /** What OLM cannot resolve in the channel. */
  readonly graphProblems: string[];
  /** True when every edge's target installs with the current rules and nothing is missing. */
  readonly ok: boolean;
}

/** Walks and checks the allowed upgrades. */
export class UpgradeAnalysis {
  /** Every allowed edge from `from`, with the target's preflight and the permission diff. */
  public static analyze(props: UpgradeAnalysisProps): UpgradeAnalysisResult {
    checkAnalyzeProps(props, UpgradeGraph);
    const { graph } = props;
    const edges = graph.allowedUpgrades(props.from, props.versionRange);
    const preflights = new Map<string, PreflightResult>();
    const preflightOf = (name: string): PreflightResult | undefined => {
      const bundle = graph.bundle(name);
      if (bundle === undefined) return undefined;
      let r = preflights.get(name);
      if (r === undefined) {
        r = InstallPreflight.check({
          bundle,
          namespace: props.namespace,
          targetNamespaces: props.targetNamespaces,
          installerRules: props.installerRules,
          clusterInstallerRules: props.clusterInstallerRules,
          otherNamespaceRules: props.otherNamespaceRules,
          upgrade: true,
        });
        preflights.set(name, r);
      }
      return r;
    };
    const reports: UpgradeEdgeReport[] = edges.map((edge) => {
      const a = graph.bundle(edge.from);
      const b = graph.bundle(edge.to);
      return clean({
        edge,
        preflight: preflightOf(edge.to),
        diff: a !== undefined && b !== undefined ? PermissionDiffs.between(a, b) : undefined,
      });
    });
    const walked = [props.from, ...edges.map((e) => e.to)];
    const missingBundles = [...new Set(walked.filter((n) => graph.bundle(n) === undefined))].sort();
    const graphProblems = graph.problems;
    return clean({
      packageName: graph.packageName,
      channel: graph.channel,
      from: props.from,
      versionRange: props.versionRange,
      allowedVersions: [...new Set(edges.map((e) => e.to))],
      edges: reports,
      missingBundles,
      graphProblems,
      ok: missingBundles.length === 0 && graphProblems.length === 0 && reports.every((r) => r.preflight?.ok === true),
    });
  }

  /** The result as readable lines: one block per edge with its preflight verdict, missing rules and diff. */
  public static format(result: UpgradeAnalysisResult, namespace?: string): string[] {
    checkAnalysisResult(result, namespace);
    const lines = [
      `${result.packageName} (channel ${result.channel}) from ${result.from}${result.versionRange ? ` within ${result.versionRange}` : ''}: `
        + `${result.edges.length} allowed upgrade(s)${result.edges.length === 0 ? '' : `, ${result.ok ? 'all pass the preflight' : 'NOT all pass the preflight'}`}`,
      ...result.graphProblems.map((p) => `  graph problem: ${p}`),
      ...result.missingBundles.map((m) => `  no bundle for ${m}: not checked`),
    ];
    for (const r of result.edges) {
      const verdict = r.preflight === undefined ? 'not checked' : r.preflight.ok ? 'upgrades' : 'would FAIL';
      lines.push(`${r.edge.from} -> ${r.edge.to} (${r.edge.via.join(', ')}${r.edge.preferred ? ', preferred by OLM' : ''}): ${verdict}`);
      if (r.preflight !== undefined && !r.preflight.ok) {
        lines.push(...r.preflight.problems.map((p) => `  problem ${p.code}: ${p.message}`));
        lines.push(...r.preflight.missing.map((m) => `  missing ${m.formatted}`));
      }
      if (r.diff !== undefined) lines.push(...PermissionDiffs.format(r.diff, namespace));
    }
    return lines;
  }

  private constructor() {}
}
