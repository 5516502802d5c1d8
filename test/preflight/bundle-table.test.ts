/**
 * The table of docs/preflight.md, computed from the preflight's output over the 12 shared bundles. The test fails
 * when the docs drift from the code; `PRINT_TABLE=1 npx jest test/preflight/bundle-table.test.ts` prints it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { InstallerRuleChecks } from '../../src/audit/installer-rule-checks';
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { DefaultInstallerRules } from '../../src/preflight/default-installer-rules';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { InstallerPermissions } from '../../src/preflight/installer-permissions';
import { PreflightCode } from '../../src/preflight/preflight-code';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const NS = 'team-a';

export function bundleTable(): string {
  const ops = fs.readdirSync(BUNDLES).filter((f) => !f.endsWith('.md')).sort();
  const lines = [
    '| operator | version | install modes | OperatorGroup | docs\' default Role | derived, namespace only | derived, cluster-scoped allowed | sensitive grants to accept (derived cluster rules) | why not |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const op of ops) {
    const version = fs.readdirSync(path.join(BUNDLES, op))[0];
    const b = OperatorBundle.fromDirectory(path.join(BUNDLES, op, version));
    const own = b.installModes.some((m) => m.supported && m.type === 'OwnNamespace');
    const targets = own ? [NS] : [];
    const installerRules = DefaultInstallerRules.okdScopedInstall();
    const okd = InstallPreflight.check({ bundle: b, namespace: NS, targetNamespaces: targets, installerRules });
    const count = (ns: (n: string) => boolean) => okd.missing.filter((m) => ns(m.namespace)).length;
    const okdCell = okd.ok ? 'yes' : `no: ${okd.missing.length} missing (${count((n) => n === NS)} in ${NS}, ${count((n) => n !== NS && n !== '')} in kube-system, `
      + `${count((n) => n === '')} cluster-wide)`;
    const nsOnly = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: NS, targetNamespaces: targets });
    const withCluster = InstallerPermissions.leastPrivilege({ bundles: [b], namespace: NS, targetNamespaces: targets, allowClusterScoped: true });
    const verdict = (d: typeof nsOnly) => {
      const r = InstallPreflight.check({
        bundle: b,
        namespace: NS,
        targetNamespaces: targets,
        upgrade: true,
        installerRules: d.namespacedRules,
        clusterInstallerRules: d.clusterRules,
        otherNamespaceRules: d.otherNamespaceRules,
      });
      const rules = `${d.namespacedRules.length} + ${d.clusterRules.length + d.otherNamespaceRules.reduce((n, x) => n + x.rules.length, 0)} rules`;
      return r.ok ? `yes (${rules})` : `no (${[...new Set(r.problems.map((p) => p.code))].join(', ')})`;
    };
    // what a tenant must list in allowedSensitiveGrants for the derived cluster-scoped rules (InstallerSensitiveGrant)
    // (the derived binds of bootstrap roles are accepted by the tenant and named in an annotation: left out)
    const bound = new Set(withCluster.boundRoles.filter((r) => r.namespace === '').map((r) => r.roleName));
    const namedBind = (r: { verbs: string[]; resourceNames?: string[] }) =>
      r.verbs.length === 1 && r.verbs[0] === 'bind' && (r.resourceNames ?? []).length > 0 && r.resourceNames!.every((n) => bound.has(n));
    const sensitive = [...new Set(InstallerRuleChecks.errors(withCluster.clusterRules.filter((r) => !namedBind(r)), { clusterScoped: true })
      .map((e) => /SensitiveGrant\.(\w+)\)/.exec(e.message)?.[1]).filter((g): g is string => g !== undefined))];
    const why = new Set<string>();
    const allCodes = new Set([...okd.problems, ...nsOnly.problems, ...withCluster.problems].map((p) => p.code));
    if (allCodes.has(PreflightCode.UNSUPPORTED_OPERATOR_GROUP)) why.add('install mode');
    if (allCodes.has(PreflightCode.NEEDS_CLUSTER_SCOPED_RULES)) {
      if (b.clusterPermissions.length > 0) why.add('cluster permissions');
      if (b.webhookDefinitions.length > 0 || b.ownedApiServices.length > 0) why.add('webhooks (cert resources, webhook configurations)');
    }
    if (allCodes.has(PreflightCode.WRITES_CRDS_OR_APISERVICES)) why.add('CRD/APIService writes');
    if (allCodes.has(PreflightCode.GRANTS_ESCALATION_RIGHTS)) why.add('escalate/bind/impersonate');
    if (!okd.ok && okd.problems.length === 0) why.add("operator rules beyond the docs' Role (RBAC escalation)");
    lines.push(`| ${op} | ${version} | ${b.installModes.filter((m) => m.supported).map((m) => m.type).join(', ')} | ${own ? 'OwnNamespace' : 'AllNamespaces'} | `
      + `${okdCell} | ${verdict(nsOnly)} | ${verdict(withCluster)} | ${sensitive.join(', ') || '-'} | ${[...why].join('; ') || '-'} |`);
  }
  return lines.join('\n');
}

describe('docs/preflight.md bundle table', () => {
  let table: string;
  beforeAll(() => {
    table = bundleTable();
  });

  test('is the preflight output over the 12 shared bundles', () => {
    if (process.env.PRINT_TABLE) console.log(table); // eslint-disable-line no-console
    const docs = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'preflight.md'), 'utf8');
    expect(docs).toContain(table);
  });

  test('the README copy between <!-- bundle-table:start --> and <!-- bundle-table:end --> is the same table', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const m = /<!-- bundle-table:start -->\n([\s\S]*?)\n<!-- bundle-table:end -->/.exec(readme);
    expect(m?.[1]).toEqual(table);
  });
});
