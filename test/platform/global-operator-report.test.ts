/**
 * TENANCY.md lists the operators the platform installs for all namespaces (GlobalOperatorInstall) first, before the
 * tenant sections: namespace, reason, packages, what each ServiceAccount can do, who may drive them; every value read
 * back as text by a CommonMark reader (commonmark.js).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { CatalogSourceReference, Diagnostics, GlobalOperatorInstall, OperatorBundle, ScopedOperatorTenant, TenancyReport } from '../../src';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const commonmark = require('commonmark');

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const RABBITMQ = OperatorBundle.fromDirectory(path.join(BUNDLES, 'rabbitmq-cluster-operator', '2.22.3'));
const CATALOG = CatalogSourceReference.fromName('curated', 'olm');

/** Level-2 and level-3 headings as CommonMark reads them. */
function headings(markdown: string): string[] {
  const doc = new commonmark.Parser().parse(markdown);
  const out: string[] = [];
  const walker = doc.walker();
  let event;
  while ((event = walker.next())) {
    const n = event.node;
    if (!event.entering || n.type !== 'heading' || n.level > 3) continue;
    let text = '';
    const inner = n.walker();
    let e;
    while ((e = inner.next())) if (e.entering && (e.node.type === 'text' || e.node.type === 'code')) text += e.node.literal;
    out.push(`${'#'.repeat(n.level)} ${text}`);
  }
  return out;
}

/** The paragraphs' and list items' text as CommonMark reads it. */
function paragraphs(markdown: string): string[] {
  const doc = new commonmark.Parser().parse(markdown);
  const out: string[] = [];
  const walker = doc.walker();
  let event;
  while ((event = walker.next())) {
    if (!event.entering || event.node.type !== 'paragraph') continue;
    let text = '';
    const inner = event.node.walker();
    let e;
    while ((e = inner.next())) if (e.entering && (e.node.type === 'text' || e.node.type === 'code')) text += e.node.literal;
    out.push(text);
  }
  return out;
}

function app(reason: string, tenantsMayDriveReason?: string): Chart {
  const chart = new Chart(Testing.app(), 'platform');
  new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' });
  // team-a's installer may create every kind in team-a: it drives the global operator
  new k8s.KubeRole(chart, 'Wild', { metadata: { name: 'wild', namespace: 'team-a' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['create'] }] });
  new k8s.KubeRoleBinding(chart, 'WildBinding', {
    metadata: { name: 'wild', namespace: 'team-a' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'wild' },
    subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
  });
  const g = new GlobalOperatorInstall(chart, 'Global', { reason });
  g.install({ packageName: 'rabbitmq-cluster-operator', channel: 'stable', catalog: CATALOG, bundle: RABBITMQ, tenantsMayDriveReason });
  g.install({ packageName: 'grafana-operator', channel: 'v5', catalog: CATALOG });
  return chart;
}

describe('TENANCY.md: global installs first', () => {
  test('the Mermaid diagram shows each global install, its operators with their catalog, and the tenants that may drive them', () => {
    const lines = (md: string) => md.split('```mermaid\n')[1].split('\n```')[0].split('\n').filter((l) => /global_|gop_|^  cat_olm_curated\[/.test(l));
    const expected = (edge: string) => [
      '  global_platform_operators["global install platform-operators (all namespaces, OLM\'s own client)"]',
      '  cat_olm_curated[("catalog olm/curated")]',
      '  cat_olm_curated --> gop_platform_operators_rabbitmq_cluster_operator["rabbitmq-cluster-operator rabbitmq-cluster-operator.v2.22.3"]',
      '  global_platform_operators --> gop_platform_operators_rabbitmq_cluster_operator',
      `  ns_team_a -- "${edge}" --> gop_platform_operators_rabbitmq_cluster_operator`,
      '  cat_olm_curated --> gop_platform_operators_grafana_operator["grafana-operator"]',
      '  global_platform_operators --> gop_platform_operators_grafana_operator',
    ];
    expect(lines(TenancyReport.markdown(app('platform operators (PLAT-142)', 'team-a runs RabbitMQ (PLAT-151)')))).toEqual(expected('may drive it (accepted)'));
    expect(lines(TenancyReport.markdown(app('platform operators (PLAT-142)')))).toEqual(expected('may drive it (fails the synth)'));
  });

  test('the section comes right after the warnings, before every tenant section', () => {
    const md = TenancyReport.markdown(app('platform operators (PLAT-142)', 'team-a runs RabbitMQ (PLAT-151)'));
    expect(headings(md).slice(0, 7)).toEqual([
      '# Tenancy report',
      '## Warnings',
      '## Accepted risks',
      '## Operators the platform installs for all namespaces',
      '### namespace platform-operators (OperatorGroup platform-operators)',
      '## Who installs what, and who may do what',
      '## Subscriptions',
    ]);
    const section = md.split('## Operators the platform installs for all namespaces\n')[1].split('\n## ')[0];
    expect(section.split('\n').filter((l) => l.startsWith('| ') || l.startsWith('- ') || l.startsWith('#### ') || l.startsWith('Reason'))).toEqual([
      'Reason: platform operators (PLAT-142)',
      '| package | channel | catalog | approval | bundle | tenant identities that may drive it |',
      '| rabbitmq-cluster-operator | stable | olm/curated | Manual | rabbitmq-cluster-operator.v2.22.3 | 1 (accepted: team-a runs RabbitMQ (PLAT-151)) |',
      '| grafana-operator | v5 | olm/curated | Manual | - | unknown (no bundle) |',
      '#### rabbitmq-cluster-operator: what its ServiceAccounts can do',
      '- ServiceAccount platform-operators/rabbitmq-cluster-operator: 14 rule(s) cluster-wide, namespace kube-system, namespace platform-operators',
      '- driven by ServiceAccount team-a/team-a (tenant platform/A): rabbitmqclusters.rabbitmq.com in namespace team-a: accepted: team-a runs RabbitMQ (PLAT-151)',
      '#### grafana-operator: what its ServiceAccounts can do',
      "- no bundle given: what the operator's ServiceAccounts get is unknown; OLM installs whatever the CSV asks for with its own cluster-admin client (unbounded)",
      '- driven by every tenant identity (unknown): **TenantCanDriveGlobalOperator** (fails the synth)',
    ]);
    // the sensitive grants of the preview, one per line under the ServiceAccount
    expect(section.split('\n').filter((l) => l.startsWith('  - ')).map((l) => /\((\w+)\)$/.exec(l)?.[1]))
      .toEqual(['POD_EXEC', 'SECRETS_READ_CLUSTER_WIDE', 'WORKLOAD_WRITES', 'SERVICE_UPDATE', 'CONFIGMAP_UPDATE', 'POD_IMAGE_UPDATE']);
    // the platform's Subscriptions are in the Subscriptions table too, pointing here
    expect(md.split('\n').filter((l) => l.startsWith('| platform-operators (no tenant)')).map((l) => l.split(' | ').pop())).toEqual([
      'global install: OLM installs it with its own client (see above) |', 'global install: OLM installs it with its own client (see above) |',
    ]);
  });

  test('issue 42: the accepted driver is a row of Accepted risks (the prop and the reason), not an open warning, and nothing says "accept it" for it', () => {
    const chart = app('platform operators (PLAT-142)', 'team-a runs RabbitMQ (PLAT-151)');
    const md = TenancyReport.markdown(chart);
    const section = (name: string) => md.split(`## ${name}\n`)[1].split('\n## ')[0];
    expect(section('Accepted risks').split('\n').filter((l) => l.startsWith('| '))).toEqual([
      '| decided in | accepted by | what | reason |',
      '| platform/Global | `install({ packageName: \'rabbitmq-cluster-operator\', tenantsMayDriveReason })` | OLMT-055 install(rabbitmq-cluster-operator)="ServiceAccount team-a/team-a": '
        + 'ServiceAccount team-a/team-a of tenant platform/A may create rabbitmqclusters.rabbitmq.com in namespace team-a: rabbitmq-cluster-operator, installed by the platform '
        + 'for all namespaces with OLM\'s own client, acts on them with its cluster-wide ServiceAccounts; path: ServiceAccount team-a/team-a -> RoleBinding team-a/wild (App) '
        + '-> Role team-a/wild (App) (TenantCanDriveGlobalOperator) | team-a runs RabbitMQ (PLAT-151) |',
    ]);
    expect(section('Warnings')).not.toContain('TenantCanDriveGlobalOperator');
    expect(section('Accepted risks')).not.toContain('accept it');
    // WARNINGS.txt and stderr: after the open warnings, with the prop and the reason instead of a fix
    const report = Diagnostics.report(chart).split('\n');
    expect(report.filter((l) => l.includes('TenantCanDriveGlobalOperator'))).toEqual([
      'accepted: [platform/Global] install(rabbitmq-cluster-operator)="ServiceAccount team-a/team-a": ServiceAccount team-a/team-a of tenant platform/A may create '
      + 'rabbitmqclusters.rabbitmq.com in namespace team-a: rabbitmq-cluster-operator, installed by the platform for all namespaces with OLM\'s own client, acts on them '
      + 'with its cluster-wide ServiceAccounts; path: ServiceAccount team-a/team-a -> RoleBinding team-a/wild (App) -> Role team-a/wild (App). '
      + "Accepted with install({ packageName: 'rabbitmq-cluster-operator', tenantsMayDriveReason }): team-a runs RabbitMQ (PLAT-151) (TenantCanDriveGlobalOperator, OLMT-055)",
    ]);
    expect(report[report.length - 1]).toMatch(/^accepted: /);
    expect(report.filter((l) => l.startsWith('accepted: ')).join('\n')).not.toContain('accept it');
  });

  test('a reason made of what breaks Markdown reads back as text, and the sections after it survive', () => {
    const reason = '<!-- | # *x* [a](b) ``` <div> &amp; -->';
    const md = TenancyReport.markdown(app(reason, `${reason} tenants`));
    expect(headings(md).filter((h) => h.startsWith('## '))).toEqual([
      '## Warnings', '## Accepted risks', '## Operators the platform installs for all namespaces', '## Who installs what, and who may do what', '## Subscriptions',
      '## Installer permissions', '## Preflight results', '## Allowed upgrades and their permission diffs', '## Access', '## Effective power (audit)',
      '## Off-boarding: what OLM leaves behind',
    ]);
    expect(paragraphs(md)).toContain(`Reason: ${reason}`);
  });

  test('an App without global installs has no such section', () => {
    const chart = new Chart(Testing.app(), 'platform');
    new ScopedOperatorTenant(chart, 'A', { namespaceName: 'team-a' });
    expect(TenancyReport.markdown(chart)).not.toContain('## Operators the platform installs');
  });
});
