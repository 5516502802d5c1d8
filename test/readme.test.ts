/**
 * The README's claims, checked: the quick start runs as written, the bundle table is what the code computes, and the
 * two RBAC coverage examples are the engine's real output.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { ApiObject } from 'cdk8s';
import * as plus from 'cdk8s-plus-28';
import * as ts from 'typescript';
import * as lib from '../src';
import { RbacRules } from '../src';

const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

function section(start: string, end: string): string {
  const i = README.indexOf(start);
  const j = README.indexOf(end, i + start.length);
  if (i < 0 || j < 0) throw new Error(`README has no section between ${start} and ${end}`);
  return README.slice(i + start.length, j).trim();
}

describe('README.md', () => {
  test('the quick start runs as written and synthesizes the objects it describes', () => {
    const code = section('## Quick start\n\n<!-- docs-block: run context=none -->\n```ts', '```');
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
    const js = ts.transpileModule(
      code
        .replace('new TenancyApp()', `new TenancyApp({ outdir: ${JSON.stringify(outdir)}, quiet: true })`)
        .replace("'bundles/etcd/0.9.4'", JSON.stringify(path.join(__dirname, 'fixtures', 'bundles', 'etcd', '0.9.4')))
        + '\nexport { app };',
      { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } },
    ).outputText;
    const modules: Record<string, unknown> = { 'cdk8s': cdk8s, 'cdk8s-plus-28': plus, 'cdk8s-olm-tenancy': lib };
    const load = (name: string) => {
      if (!(name in modules)) throw new Error(`the README quick start imports ${name}, which this test does not provide`);
      return modules[name];
    };
    const exportsObject: any = {};
    new Function('require', 'exports', js)(load, exportsObject);
    const objects = exportsObject.app.node.findAll().filter((c: any) => c instanceof ApiObject).map((o: ApiObject) => o.toJson());
    // the objects the README lists under the quick start
    expect(objects.map((o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort()).toEqual([
      'CatalogSource/team-a/curated-operators',
      'Namespace//team-a',
      'OperatorGroup/team-a/team-a',
      'OperatorHub//cluster',
      'Role/team-a/team-a',
      'Role/team-a/team-a-subscription-manager',
      'RoleBinding/team-a/team-a',
      'RoleBinding/team-a/team-a-operator-admin',
      'RoleBinding/team-a/team-a-subscription-manager',
      'Secret/team-a/team-a',
      'ServiceAccount/team-a/team-a',
      'Subscription/team-a/etcd',
    ]);
    expect(fs.readdirSync(outdir)).toEqual(['platform.k8s.yaml']);
    const yaml = fs.readFileSync(path.join(outdir, 'platform.k8s.yaml'), 'utf8');
    expect(yaml).toContain('serviceAccountName: team-a');
    expect(yaml).toContain('disableAllDefaultSources: true');
  });

  test('the bundle table is the one in docs/preflight.md (which test/preflight/bundle-table.test.ts recomputes from the code)', () => {
    const docs = fs.readFileSync(path.join(__dirname, '..', 'docs', 'preflight.md'), 'utf8').split('\n');
    const table = docs.filter((l) => l.startsWith('| operator | version |') || (l.startsWith('|') && /^\| [a-z-]+ \| \d/.test(l)) || l === '|---|---|---|---|---|---|---|---|---|');
    expect(section('<!-- bundle-table:start -->', '<!-- bundle-table:end -->')).toEqual(table.join('\n'));
  });

  test('RBAC example 1: the missing atoms', () => {
    const result = RbacRules.covers(
      [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'] },
      ],
      [
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'update'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      ],
    );
    const printed = '{"covered":false,"missing":[\n  ' + result.missing.map((m) => JSON.stringify(m)).join(',\n  ') + ']}';
    // the block between <!-- rbac-example-1:start --> and <!-- rbac-example-1:end --> is exactly the engine's answer
    expect(section('<!-- rbac-example-1:start -->\n```', '```\n<!-- rbac-example-1:end -->')).toEqual(printed);
    expect(result.covered).toBe(false);
  });

  test('RBAC example 2: owner-side wildcards only', () => {
    const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
    const result = RbacRules.covers(
      [
        { apiGroups: ['*'], resources: ['*/scale'], verbs },
        { nonResourceUrls: ['/metrics/*'], verbs: ['get'] },
      ],
      [
        { apiGroups: ['apps'], resources: ['statefulsets/scale', 'pods/*'], verbs: ['*'] },
        { nonResourceUrls: ['/metrics', '/metrics/cadvisor'], verbs: ['get'] },
      ],
    );
    const printed = result.missing.map((m) => RbacRules.format(m, '')).join('\n');
    // the block between <!-- rbac-example-2:start --> and <!-- rbac-example-2:end --> is exactly the engine's answer
    expect(section('<!-- rbac-example-2:start -->\n```', '```\n<!-- rbac-example-2:end -->')).toEqual(printed);
    expect(printed.split('\n')).toHaveLength(3);
  });
});
