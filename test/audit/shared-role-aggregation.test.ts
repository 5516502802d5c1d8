// Aggregation the other way (issue 23 item 2): a bundle ClusterRole labelled so that the built-in view/edit/admin
// (pkg/controller/clusterroleaggregation, bootstrappolicy/policy.go labels) or an OperatorGroup role takes its rules.
// Sensitive rules are named (v0 tenant error, OLM v1 preview finding); roles that read the bundle's own kinds, as
// real bundles ship them, stay quiet.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, OperatorBundle, ScopedOperatorTenant, SensitiveGrant } from '../../src';
import { sharedRoleAggregation } from '../../src/audit/shared-role-aggregation';
import { CuratedClusterCatalog, OlmV1PermissionPreview, OlmV1PreviewFindingCode, OlmV1Team, RegistryV1Render } from '../../src/olmv1';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'bundles');
const CERT_MANAGER = path.join(FIXTURES, 'cert-manager', '1.16.5');
const VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';
const EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const clusterRole = (labels: Record<string, string>, rules: any[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', labels }, rules });
const SECRETS = { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] };
const EXEC = { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] };

/** cert-manager 1.16.5 whose real `cert-manager-view` ClusterRole (labelled aggregate-to-view) also holds `extraRule` (YAML). */
function certManagerWith(extraRule: string): OperatorBundle {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-role-'));
  try {
    fs.cpSync(CERT_MANAGER, dir, { recursive: true });
    const file = path.join(dir, 'manifests', 'cert-manager-view_rbac.authorization.k8s.io_v1_clusterrole.yaml');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}${extraRule}`);
    return OperatorBundle.fromDirectory(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const LEAKY = "- apiGroups: ['']\n  resources: [secrets, pods/exec]\n  verbs: [get, list, create]\n";

describe('sharedRoleAggregation', () => {
  test('aggregate-to-view with Secrets and pods/exec: joins view, edit, admin; names what view lacks (edit already reads Secrets)', () => {
    expect(sharedRoleAggregation(clusterRole({ [VIEW]: 'true' }, [SECRETS, EXEC]))).toEqual({
      role: 'r',
      into: ['view'],
      labels: [`${VIEW}=true`],
      grants: [
        { grant: SensitiveGrant.POD_EXEC, what: "'create'/'get' on pods/exec, pods/attach or pods/portforward" },
        { grant: SensitiveGrant.SECRETS_READ_CLUSTER_WIDE, what: "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them)" },
      ],
    });
  });

  test('variants: aggregate-to-edit with escalate (edit lacks it) joins edit and admin; a wildcard rule; a resourceNames rule; a subresource', () => {
    const escalate = { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate'] };
    expect(sharedRoleAggregation(clusterRole({ [EDIT]: 'true' }, [escalate]))?.into).toEqual(['edit', 'admin']);
    expect(sharedRoleAggregation(clusterRole({ [ADMIN]: 'true' }, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]))?.into).toEqual(['admin']);
    expect(sharedRoleAggregation(clusterRole({ [VIEW]: 'true' }, [{ ...SECRETS, resourceNames: ['db-password'], verbs: ['get'] }]))?.grants.map((g) => g.grant))
      .toEqual([SensitiveGrant.SECRETS_READ_CLUSTER_WIDE]);
    expect(sharedRoleAggregation(clusterRole({ [VIEW]: 'true' }, [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }]))?.grants.map((g) => g.grant))
      .toEqual([SensitiveGrant.SERVICE_ACCOUNT_TOKENS]);
    // an OperatorGroup's aggregated role (OLM per-API label): every sensitive grant is new there
    expect(sharedRoleAggregation(clusterRole({ 'olm.opgroup.permissions/aggregate-to-8e9b0b1d3b0b1c2a-admin': 'true' }, [SECRETS]))?.into)
      .toEqual(['the OperatorGroup roles selecting olm.opgroup.permissions/aggregate-to-8e9b0b1d3b0b1c2a-admin']);
  });

  test('quiet: rules edit already holds under aggregate-to-edit, no aggregation label, a label value other than "true", reading own kinds', () => {
    expect(sharedRoleAggregation(clusterRole({ [EDIT]: 'true', [ADMIN]: 'true' }, [SECRETS, EXEC]))).toBeUndefined();
    expect(sharedRoleAggregation(clusterRole({ app: 'x' }, [SECRETS]))).toBeUndefined();
    expect(sharedRoleAggregation(clusterRole({ [VIEW]: 'false' }, [SECRETS]))).toBeUndefined();
    expect(sharedRoleAggregation(clusterRole({ [VIEW]: 'true' }, [{ apiGroups: ['cert-manager.io'], resources: ['certificates'], verbs: ['get', 'list', 'watch'] }]))).toBeUndefined();
  });

  test('the 12 real bundles of the fixtures: no ClusterRole adds a sensitive grant to a shared role (cert-manager ships three labelled ones)', () => {
    const labelled: string[] = [];
    const found: unknown[] = [];
    for (const name of fs.readdirSync(FIXTURES).filter((n) => fs.statSync(path.join(FIXTURES, n)).isDirectory())) {
      for (const version of fs.readdirSync(path.join(FIXTURES, name))) {
        for (const o of OperatorBundle.fromDirectory(path.join(FIXTURES, name, version)).objects.filter((x) => x.kind === 'ClusterRole')) {
          if (Object.keys(o.raw.metadata?.labels ?? {}).some((k) => k.includes('/aggregate-to-'))) labelled.push(o.name);
          const a = sharedRoleAggregation(o.raw);
          if (a) found.push(a);
        }
      }
    }
    expect([labelled.sort(), found]).toEqual([['cert-manager-cluster-view', 'cert-manager-edit', 'cert-manager-view'], []]);
  });
});

describe('the refusals', () => {
  test('OLM v1: the preview names the ClusterRole (OLMT-050); the real cert-manager has no such finding', () => {
    const finding = (b: OperatorBundle) => OlmV1PermissionPreview.of(RegistryV1Render.forExtension(b, { installNamespace: 'team-x' })).findings
      .filter((f) => f.code === OlmV1PreviewFindingCode.SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE);
    expect(finding(OperatorBundle.fromDirectory(CERT_MANAGER))).toEqual([]);
    expect(finding(certManagerWith(LEAKY))).toEqual([{
      code: OlmV1PreviewFindingCode.SENSITIVE_RULES_AGGREGATE_INTO_SHARED_ROLE,
      subject: 'ClusterRole cert-manager-view',
      what: `ClusterRole cert-manager-view is labelled ${ADMIN}=true, ${EDIT}=true, ${VIEW}=true: the clusterrole-aggregation controller adds its `
        + "'create'/'get' on pods/exec, pods/attach or pods/portforward (SensitiveGrant.POD_EXEC), "
        + "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SensitiveGrant.SECRETS_READ_CLUSTER_WIDE) to the built-in view, i.e. to every person and "
        + 'ServiceAccount bound to it in any namespace (shipped in the bundle)',
    }]);
  });

  test('OLM v0: a tenant subscribing the bundle fails with SensitiveRulesAggregateIntoSharedRole naming the bundle file', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const tenant = new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    tenant.subscribe({ packageName: 'cert-manager', catalog: CatalogSourceReference.fromName('curated', 'team-a'), bundle: certManagerWith(LEAKY) });
    const errors = (() => {
      try {
        app.synth();
        return [];
      } catch (e) {
        return (e as Error).message.split('\n').filter((l) => l.includes('SensitiveRulesAggregateIntoSharedRole'));
      }
    })();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/ClusterRole cert-manager-view is labelled .*; OLM creates it from bundle cert-manager\.v1\.16\.5 \(.*cert-manager-view_rbac\.authorization\.k8s\.io_v1_clusterrole\.yaml\)\. Fix: .* \(SensitiveRulesAggregateIntoSharedRole, OLMT-050\)$/);
  });
});

describe('an App ClusterRole (outside any tenant) labelled into view', () => {
  function synth(rules: any[]): string[] {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    new ScopedOperatorTenant(chart, 'TeamA', { namespaceName: 'team-a' });
    new ApiObject(chart, 'Viewer', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'platform-view', labels: { [VIEW]: 'true' } }, rules });
    try {
      app.synth();
      return [];
    } catch (e) {
      return (e as Error).message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.length > 0);
    }
  }
  test('with Secrets read: SensitiveRulesAggregateIntoSharedRole on the object (OLMT-050)', () => {
    expect(synth([SECRETS])).toEqual([
      `[platform/Viewer] metadata.labels="${VIEW}=true": ClusterRole platform-view is labelled ${VIEW}=true: the clusterrole-aggregation controller adds its `
      + "'get'/'list'/'watch' on secrets in every namespace (or 'patch'/'delete'/'deletecollection', whose responses carry them) (SensitiveGrant.SECRETS_READ_CLUSTER_WIDE) to the built-in view, i.e. to every person and ServiceAccount "
      + 'bound to it in any namespace (written by the App). Fix: drop the aggregation labels (bind the role to the people who need it), or remove the sensitive rules '
      + '(SensitiveRulesAggregateIntoSharedRole, OLMT-050)',
    ]);
  });
  test('reading its own kinds: quiet', () => {
    expect(synth([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }])).toEqual([]);
  });
});

describe('OLM v1 team: OLMT-050 fails the synth unless accepted by id with a reason', () => {
  function errorsOf(acceptedRisks?: Array<{ check: string; reason: string }>): string[] {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    const catalog = new CuratedClusterCatalog(chart, 'Catalog', { catalogName: 'team-x', image: 'registry.example.com/catalogs/team-x:v1', team: 'team-x' });
    new OlmV1Team(chart, 'T', {
      team: 'team-x',
      groups: ['team-x-admins'],
      namespaces: ['team-x'],
      catalog,
      allowedPackages: [{ name: 'cert-manager' }],
      extensions: [{ packageName: 'cert-manager', namespace: 'team-x', bundles: [certManagerWith(LEAKY)], acceptedRisks }],
    });
    try {
      app.synth();
      return [];
    } catch (e) {
      return (e as Error).message.split('\n').filter((l) => l.includes('OLMT-050'));
    }
  }
  test('refused, then accepted', () => {
    const refused = errorsOf();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/"ClusterRole cert-manager-view": ClusterRole cert-manager-view is labelled .* \(SensitiveRulesAggregateIntoSharedRole, OLMT-050\)$/);
    expect(errorsOf([{ check: 'OLMT-050', reason: 'reviewed: the view role is ours' }])).toEqual([]);
  });
});
