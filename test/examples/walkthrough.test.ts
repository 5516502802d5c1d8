import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import * as walkthrough from '../../examples/walkthrough';
import { ETCD_PIN, synthPlatform } from '../../examples/walkthrough';
import { PinnedApproval, TenancyApp } from '../../src';
import { fileTree } from '../util/files';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundle-history');
const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

/** Every file under `dir`, relative, with its content. */
const tree = (dir: string): Map<string, string> => new Map(Object.entries(fileTree(dir)));

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-walkthrough-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('README walkthrough (examples/walkthrough.ts)', () => {
  test('the README shows examples/walkthrough.ts as a consumer writes it (package import)', () => {
    const code = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'walkthrough.ts'), 'utf8').replace("from '../src';", "from 'cdk8s-olm-tenancy';");
    const block = README.split('<!-- walkthrough:start -->\n```ts\n')[1]?.split('```\n<!-- walkthrough:end -->')[0];
    expect(block).toEqual(code);
  });

  // issue 41: the README's main.test.ts (the walkthrough-test block) claimed this file and was never run here
  test('the README\'s main.test.ts (<!-- walkthrough-test:start -->) passes against examples/walkthrough.ts, as jest runs it in the project', () => {
    const block = README.split('<!-- walkthrough-test:start -->\n```ts\n')[1]?.split('```\n<!-- walkthrough-test:end -->')[0];
    expect(block).toContain("import { synthPlatform } from './main';");
    const js = ts.transpileModule(block!, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const made: string[] = [];
    // its temporary output folder is removed afterwards
    const files = { ...fs, mkdtempSync: (prefix: string) => made[made.push(fs.mkdtempSync(prefix)) - 1] };
    const modules: { [name: string]: unknown } = { 'fs': files, 'os': os, 'path': path, './main': walkthrough };
    const tests: Array<[string, () => void]> = [];
    const bundles = process.env.BUNDLES;
    process.env.BUNDLES = BUNDLES;
    try {
      new Function('require', 'exports', 'test', 'expect', js)((name: string) => {
        if (!(name in modules)) throw new Error(`the README's main.test.ts imports ${name}, which this test does not provide`);
        return modules[name];
      }, {}, (name: string, fn: () => void) => tests.push([name, fn]), expect);
      expect(tests.map(([name]) => name)).toEqual(['the platform synthesizes']);
      for (const [, fn] of tests) fn();
      expect(made.length).toEqual(1);
    } finally {
      if (bundles === undefined) delete process.env.BUNDLES;
      else process.env.BUNDLES = bundles;
      for (const d of made) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  test('step 4: two teams as a GitOps tree with TENANCY.md; the approver pins the CSV', () => {
    const out = path.join(tmp, 'v1');
    const app = synthPlatform(out, BUNDLES);
    const files = tree(out);
    expect([...files.keys()].filter((f) => f.endsWith('kustomization.yaml'))).toEqual([
      // issue 42: the Argo CD projects and Applications (each team's folder synced as the team's ServiceAccount)
      'argocd/apps/kustomization.yaml',
      'cluster/kustomization.yaml', 'kustomization.yaml', 'tenants/kustomization.yaml',
      'tenants/team-payments/kustomization.yaml', 'tenants/team-search/kustomization.yaml',
    ]);
    expect(files.has(TenancyApp.REPORT_FILE)).toBe(true);
    expect(files.get(TenancyApp.REPORT_FILE)).toContain('| 1 | 2 | 2 | 2 | 0 |');
    const subscription = YAML.parse(files.get('tenants/team-payments/subscription-etcd.yaml')!);
    expect(subscription.spec.startingCSV).toBe(ETCD_PIN);
    expect(subscription.spec.installPlanApproval).toBe('Manual');
    // the approver (its CronJob's PINNED_CSVS, as synthesized) approves exactly the pinned CSV
    // (issue 15 item 10: the approver runs in the platform namespace installplan-approvers, so its CronJob is in cluster/;
    // its Role and RoleBinding stay in the tenant folder)
    expect([...files.keys()].filter((f) => f.includes('installplan-approver'))).toEqual([
      'cluster/configmap-installplan-approvers-installplan-approver-team-payments.yaml',
      'cluster/configmap-installplan-approvers-installplan-approver-team-search.yaml',
      'cluster/cronjob-installplan-approvers-installplan-approver-team-payments.yaml',
      'cluster/cronjob-installplan-approvers-installplan-approver-team-search.yaml',
      'cluster/namespace-installplan-approvers.yaml',
      'cluster/serviceaccount-installplan-approvers-installplan-approver-team-payments.yaml',
      'cluster/serviceaccount-installplan-approvers-installplan-approver-team-search.yaml',
      'tenants/team-payments/role-installplan-approver.yaml',
      'tenants/team-payments/rolebinding-installplan-approver.yaml',
      'tenants/team-search/role-installplan-approver.yaml',
      'tenants/team-search/rolebinding-installplan-approver.yaml',
    ]);
    const cronJob = YAML.parse(files.get('cluster/cronjob-installplan-approvers-installplan-approver-team-payments.yaml')!);
    const env = cronJob.spec.jobTemplate.spec.template.spec.containers[0].env;
    const pinned: string[] = JSON.parse(env.find((e: any) => e.name === 'PINNED_CSVS').value);
    expect(pinned).toEqual([ETCD_PIN]);
    expect(PinnedApproval.decide({ spec: { approval: 'Manual', clusterServiceVersionNames: [ETCD_PIN], approved: false } }, pinned).approve).toBe(true);
    expect(PinnedApproval.decide({ spec: { approval: 'Manual', clusterServiceVersionNames: ['etcdoperator.v0.9.4'], approved: false } }, pinned).approve).toBe(false);
    expect(app.summary!.tenants).toBe(2);
  });

  test('step 5: changing the pin changes exactly the files the README lists (git diff --stat)', () => {
    const before = tree(path.join(tmp, 'v1'));
    const out = path.join(tmp, 'v2');
    synthPlatform(out, BUNDLES, 'etcdoperator.v0.9.4');
    const after = tree(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f));
    expect([...changed].sort()).toEqual([
      TenancyApp.REPORT_FILE,
      TenancyApp.WARNINGS_FILE,
      // each tenant's approver CronJob runs in the platform namespace (under cluster/), where no tenant can become it
      'cluster/cronjob-installplan-approvers-installplan-approver-team-payments.yaml',
      'cluster/cronjob-installplan-approvers-installplan-approver-team-search.yaml',
      // issue 42: the installer Role is the platform's (a team's identity never holds the installer's rules)
      'cluster/role-team-payments-team-payments.yaml',
      'cluster/role-team-search-team-search.yaml',
      'tenants/team-payments/subscription-etcd.yaml',
      'tenants/team-search/subscription-etcd.yaml',
    ]);
    // the README's step 5 names the same files (the namespace written as <namespace>)
    const step5 = README.split('5. **Upgrade**')[1].split('\n\n')[0];
    const named = [...new Set([...step5.matchAll(/`([\w<>.-]+\.(?:yaml|md|txt))`/g)].map((m) => m[1]))].sort();
    const shown = [...new Set(changed.map((f) => path.basename(f).replace(/team-(payments|search)/g, '<namespace>')))].sort();
    expect(named).toEqual(shown);
    // the installer Role changes only in its sensitive-grants annotation, which names the bundle version
    const role = (t: Map<string, string>) => YAML.parse(t.get('cluster/role-team-payments-team-payments.yaml')!);
    expect({ ...role(after), metadata: { ...role(after).metadata, annotations: undefined } })
      .toEqual({ ...role(before), metadata: { ...role(before).metadata, annotations: undefined } });
    expect(role(after).metadata.annotations['cdk8s-olm-tenancy.io/sensitive-grants']).toContain('(etcdoperator.v0.9.4)');
    // TENANCY.md: no upgrade beyond the new pin (the graph is there), said as such
    expect(after.get(TenancyApp.REPORT_FILE)).toContain('No upgrade is allowed beyond the pinned CSVs');
    expect(after.get(TenancyApp.REPORT_FILE)).not.toContain('No subscription has an upgrade graph');
    for (const f of changed.filter((x) => x !== TenancyApp.REPORT_FILE && x !== TenancyApp.WARNINGS_FILE)) {
      expect(after.get(f)).toContain('etcdoperator.v0.9.4');
      expect(before.get(f)).toContain('etcdoperator.v0.9.2');
    }
    expect(changed.filter((f) => f.endsWith('/subscription-etcd.yaml')).length).toBe(2);
  });
});
