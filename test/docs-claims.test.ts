/**
 * Claims of README.md that were only partly true (issue 29 item 5), checked against what the code does.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import {
  CatalogSourceReference, CuratedCatalog, CuratedCatalogAdmissionPolicy, GitOpsLayout, OpenShiftOperatorHubPolicy, OperatorBundle, OutputLayout,
  ScopedOperatorTenant, SensitiveGrant, TenancyApp,
} from '../src';

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const bundle = (name: string, version: string) => OperatorBundle.fromDirectory(path.join(ROOT, 'test', 'fixtures', 'bundles', name, version));

describe('README claims', () => {
  test('the tenant label: on every object of a tenant folder and the tenant-owned objects of cluster/, not on the shared ones', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-'));
    try {
      const app = new TenancyApp({ outdir, quiet: true, layout: OutputLayout.GITOPS });
      const chart = new Chart(app, 'platform');
      new OpenShiftOperatorHubPolicy(chart, 'Hub');
      const catalog = new CuratedCatalog(chart, 'Curated', { image: 'registry.example.com/c@sha256:' + '0'.repeat(64), packages: [{ name: 'etcd' }] });
      new CuratedCatalogAdmissionPolicy(chart, 'Enforce', { catalog });
      new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a', deriveInstallerRules: true })
        .subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog, bundle: bundle('etcd', '0.9.4') });
      app.synth();
      const objects: Array<{ file: string; o: any }> = [];
      const walk = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) {
            walk(p);
          } else if (e.name.endsWith('.yaml') && e.name !== 'kustomization.yaml' && !p.includes(`${path.sep}argocd${path.sep}`)) {
            objects.push({ file: path.relative(outdir, p), o: YAML.parse(fs.readFileSync(p, 'utf8')) });
          }
        }
      };
      walk(outdir);
      expect(objects.every(({ o }) => o.metadata.labels?.['app.kubernetes.io/managed-by'] === 'cdk8s-olm-tenancy')).toBe(true);
      expect(objects.filter(({ file }) => file.startsWith('tenants/')).every(({ o }) => o.metadata.labels?.[GitOpsLayout.TENANT_LABEL] === 'team-a')).toBe(true);
      const unlabelled = objects.filter(({ o }) => o.metadata.labels?.[GitOpsLayout.TENANT_LABEL] === undefined).map(({ file, o }) => `${file} ${o.kind}`).sort();
      expect(unlabelled).toEqual([
        'cluster/operatorhub-cluster.yaml OperatorHub',
        expect.stringMatching(/^cluster\/validatingadmissionpolicy-.* ValidatingAdmissionPolicy$/),
        expect.stringMatching(/^cluster\/validatingadmissionpolicybinding-.* ValidatingAdmissionPolicyBinding$/),
      ]);
      // so README says so (it said every object carried the tenant label)
      expect(README).toContain('every object of a tenant folder and every tenant-owned object in `cluster/` carries `cdk8s-olm-tenancy.io/tenant: <namespace>` '
        + '(shared objects such as the OperatorHub, the admission policies and an approver\'s Namespace do not)');
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('issue 41: strimzi 1.2.0 with the sensitive grants of the bundle table accepted still needs acceptedReach, with createTokenSecret: false too', () => {
    // the grants README's bundle table says a tenant must accept for strimzi's derived cluster rules
    const row = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').find((l) => l.startsWith('| strimzi-kafka-operator | 1.2.0 |'))!;
    const cell = row.split(' | ')[7];
    const grants = cell === '-' ? [] : cell.split(', ');
    const chart = new Chart(Testing.app(), 'platform');
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'r',
      createTokenSecret: false,
      acceptedSensitiveGrants: grants.map((g) => ({ grant: (SensitiveGrant as any)[g], reason: 'r' })),
    }).subscribe({ packageName: 'strimzi-kafka-operator', catalog: CatalogSourceReference.fromName('c', 'team-a'), bundle: bundle('strimzi-kafka-operator', '1.2.0') });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate());
    expect(errors.map((e) => /\((\w+), OLMT-\d+\)$/.exec(e)?.[1])).toEqual(['IdentityCanAssumeInstaller']);
    expect(errors[0]).toContain('ServiceAccount team-a/strimzi-cluster-operator can become the installer ServiceAccount team-a/team-a');
    expect(errors[0]).toContain('-> create secret in team-a of type kubernetes.io/service-account-token for ServiceAccount team-a, then read it -> ');
    expect(README).toContain('strimzi-kafka-operator 1.2.0 with its derived cluster-scoped rules and its one sensitive grant accepted: its operator may '
      + 'create a token Secret for the installer ServiceAccount and read it, so it can become the installer and its cluster-wide rules '
      + '(`IdentityCanAssumeInstaller`), even with `createTokenSecret: false`');
    expect(grants).toHaveLength(1);
  });

  test('createTokenSecret: false removes an IdentityCanAssumeInstaller path only when it reads the token Secret', () => {
    const chart = new Chart(Testing.app(), 'platform');
    new ScopedOperatorTenant(chart, 'T', {
      namespaceName: 'team-a',
      deriveInstallerRules: true,
      clusterScopedInstallerRulesReason: 'r',
      createTokenSecret: false,
      acceptedSensitiveGrants: [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, SensitiveGrant.WORKLOAD_WRITES, SensitiveGrant.SERVICE_UPDATE,
        SensitiveGrant.CONFIGMAP_UPDATE].map((grant) => ({ grant, reason: 'r' })),
    }).subscribe({ packageName: 'grafana-operator', catalog: CatalogSourceReference.fromName('c', 'team-a'), bundle: bundle('grafana-operator', '5.24.0') });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate());
    // grafana-operator creates Secrets cluster-wide: it mints a token of the installer, with or without the token Secret
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('-> create secret in team-a of type kubernetes.io/service-account-token for ServiceAccount team-a, then read it -> ');
    expect(errors[0]).toMatch(/\(IdentityCanAssumeInstaller, OLMT-023\)$/);
    expect(errors[0]).not.toContain('createTokenSecret');
    expect(README).toContain('when the path reads the installer\'s token Secret, set `createTokenSecret: false` on OLM >= 0.29');
  });
});

describe('names in the docs', () => {
  /** Upstream and template names the docs quote, which no file of this repository declares, with where they are from. */
  const UPSTREAM: { [name: string]: string } = {
    MyChart: 'the chart of cdk8s-cli\'s typescript-app template (main.ts)',
    NewSubscriptionStepResource: 'OLM pkg/controller/registry/resolver/steps.go',
    NewBundleSecretStep: 'OLM pkg/controller/registry/resolver/steps.go',
    RelaxedServiceNameValidation: 'a Kubernetes feature gate',
    DeriveServiceAccountToImpersonate: 'Argo CD, controller/sync.go: the destination ServiceAccount an Application syncs as',
  };

  // issue 41: docs/architecture.md named a class CatalogSourceRef that never existed (CatalogSourceReference)
  test('every capitalised name in backticks is one the sources, tests or examples use, or a listed upstream name', () => {
    const words = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'fixtures' && e.name !== 'imports') walk(p);
        } else if (e.name.endsWith('.ts') && p !== __filename) { // not this file: it lists the upstream names
          for (const w of fs.readFileSync(p, 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(w);
        }
      }
    };
    for (const dir of ['src', 'test', 'examples']) walk(path.join(ROOT, dir));
    const pages = ['README.md', 'CONTRIBUTING.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
    const unknown = pages.flatMap((page) => [...fs.readFileSync(path.join(ROOT, page), 'utf8').matchAll(/`([A-Z][A-Za-z0-9]+)(?:\.[A-Za-z_]\w*)*(?:\(\))?`/g)]
      .map((m) => m[1]).filter((name) => !words.has(name) && UPSTREAM[name] === undefined).map((name) => `${page}: ${name}`));
    expect([...new Set(unknown)]).toEqual([]);
    // the upstream list holds only names the docs use and the code does not
    const docs = pages.map((page) => fs.readFileSync(path.join(ROOT, page), 'utf8')).join('\n');
    expect(Object.keys(UPSTREAM).filter((name) => words.has(name) || !docs.includes(`\`${name}`))).toEqual([]);
  });
});

