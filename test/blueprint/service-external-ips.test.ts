/**
 * Issue 23 item 6: Service external IPs (CVE-2020-8554). Whoever may create or update a Service may set
 * `spec.externalIPs` unless the API server runs `DenyServiceExternalIPs` (k8s
 * `plugin/pkg/admission/network/denyserviceexternalips/admission.go`). The baseline's
 * `ServiceExternalIpsAdmissionPolicy` refuses them (evaluated here with the real CEL engine), and the baseline names
 * every tenant identity that can set them where nothing refuses them (OLMT-053).
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Group, k8s } from 'cdk8s-plus-28';
import {
  AccessLevel, CatalogSourceReference, Diagnostics, OperatorBundle, PolicySeverity, ScopedOperatorTenant, ServiceExternalIpsAdmissionPolicy,
  TenantBaseline, TenantBaselineOptions,
} from '../../src';
import { AdmissionPolicyValidation } from '../util/admission-validation';
import { admit } from '../util/cel-admission';
import { synthObjects } from '../util/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const ETCD = OperatorBundle.fromDirectory(path.join(FIXTURES, 'bundles', 'etcd', '0.9.4'));
const CATALOG = CatalogSourceReference.fromName('curated', 'team-a');

describe('ServiceExternalIpsAdmissionPolicy (evaluated with @bufbuild/cel)', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'p');
  for (const ns of ['team-b', 'team-a']) {
    new TenantBaseline(chart, `B-${ns}`, { tenant: new ScopedOperatorTenant(chart, `T-${ns}`, { namespaceName: ns }), refuseServiceExternalIps: true });
  }
  const objects = synthObjects(app);
  const vap = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy');
  const binding = objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding');

  test('one policy for the App: CREATE/UPDATE of services, bound to the baselines\' namespaces by kubernetes.io/metadata.name; valid as the API server checks it', () => {
    expect(objects.filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy')).length).toBe(2);
    expect(vap.spec.matchConstraints).toEqual({ resourceRules: [{ apiGroups: [''], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['services'] }] });
    expect(binding).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'cdk8s-olm-tenancy-service-external-ips' },
      spec: {
        policyName: 'cdk8s-olm-tenancy-service-external-ips',
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }] } },
      },
    });
    expect(AdmissionPolicyValidation.problems(vap)).toEqual([]);
    expect(AdmissionPolicyValidation.problems(binding)).toEqual([]);
    expect(ServiceExternalIpsAdmissionPolicy.of(chart)!.coveredNamespaces).toEqual(['team-a', 'team-b']);
  });

  const request = (operation: string, name = 'web') => ({ operation, namespace: 'team-a', name, resource: { group: '', version: 'v1', resource: 'services' }, userInfo: { username: 'system:serviceaccount:team-a:op' } });
  const service = (spec: any) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'team-a' }, spec: { ports: [{ port: 80 }], ...spec } });
  const refused = ['spec.externalIPs of Service team-a/web is refused: external IPs intercept the traffic of every pod of the cluster to those addresses (CVE-2020-8554)'];
  test.each<[string, string, any, any, string[]]>([
    ['CREATE with an external IP', 'CREATE', service({ externalIPs: ['8.8.8.8'] }), null, refused],
    ['CREATE of a LoadBalancer with external IPs', 'CREATE', service({ type: 'LoadBalancer', externalIPs: ['10.0.0.1', '10.0.0.2'] }), null, refused],
    ['CREATE without', 'CREATE', service({}), null, []],
    ['CREATE with an empty list', 'CREATE', service({ externalIPs: [] }), null, []],
    ['UPDATE (or patch) that adds one', 'UPDATE', service({ externalIPs: ['1.1.1.1'] }), service({}), refused],
    ['UPDATE of a Service without', 'UPDATE', service({ selector: { app: 'web' } }), service({}), []],
  ])('%s', (_, operation, object, oldObject, denied) => {
    expect(admit(vap.spec, request(operation), object, oldObject, { binding: binding.spec })).toEqual({ matched: true, denied });
  });

  // issue 41: the binding's namespaceSelector is applied as the API server applies it
  test('a namespace no baseline covers, and a DELETE, are not matched', () => {
    const elsewhere = { ...request('CREATE'), namespace: 'team-z' };
    expect(admit(vap.spec, elsewhere, service({ externalIPs: ['8.8.8.8'] }), null, { binding: binding.spec })).toEqual({ matched: false, denied: [] });
    expect(admit(vap.spec, request('DELETE'), null, service({ externalIPs: ['8.8.8.8'] }), { binding: binding.spec })).toEqual({ matched: false, denied: [] });
  });
});

const errorLines = (chart: Chart) => chart.node.findAll().flatMap((c) => c.node.validate());
/** The TenantCanSetExternalIps findings of `build`'s chart: errors and warnings, as `<subject> may <verb>`. */
function externalIpFindings(build: (chart: Chart) => void) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  build(chart);
  const short = (value: string | undefined, message: string) => `${value} ${/ may (\w+) Services/.exec(message)![1]}`;
  return {
    warnings: Diagnostics.warnings(chart).filter((d) => d.code === 'TenantCanSetExternalIps').map((d) => short(d.value, d.message)),
    errors: errorLines(chart).filter((e) => e.endsWith('(TenantCanSetExternalIps, OLMT-053)')).map((e) => { const m = /="([^"]*)": (.*)$/.exec(e)!; return short(m[1], m[2]); }),
  };
}
const tenantWith = (chart: Chart, baseline: TenantBaselineOptions = {}, policyChecks?: { [id: string]: PolicySeverity }) => {
  const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, policyChecks });
  new TenantBaseline(chart, 'B', { tenant: t, ...baseline });
  return t;
};

describe('TenantCanSetExternalIps (OLMT-053): tenant identities that may create or update Services where nothing refuses external IPs', () => {
  test('etcd 0.9.4 (CSV permissions create services): the operator and the installer that must hold it are named, as warnings', () => {
    expect(externalIpFindings((chart) => tenantWith(chart).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD }))).toEqual({
      warnings: ['ServiceAccount team-a/etcd-operator create', 'ServiceAccount team-a/team-a create'],
      errors: [],
    });
  });

  test('the full message names the path and the fix', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    tenantWith(chart).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    const w = Diagnostics.warnings(chart).find((d) => d.code === 'TenantCanSetExternalIps' && d.value === 'ServiceAccount team-a/etcd-operator')!;
    expect(w.message).toMatch(/^ServiceAccount team-a\/etcd-operator may create Services in namespace 'team-a' and so set spec.externalIPs: kube-proxy then sends the traffic of every pod of the cluster to those IPs to its endpoints \(CVE-2020-8554\); path: ServiceAccount team-a\/etcd-operator -> RoleBinding team-a\/etcdoperator.v0.9.4-etcd-operator-\w+ \(OLM CSV_PERMISSION of etcdoperator.v0.9.4\) -> Role team-a\/etcdoperator.v0.9.4-etcd-operator-\w+ \(OLM CSV_PERMISSION of etcdoperator.v0.9.4\)$/);
    expect(w.fix).toEqual('set refuseServiceExternalIps: true on the baseline (a ValidatingAdmissionPolicy refuses spec.externalIPs in the namespace), or serviceExternalIpsDeniedReason '
      + 'when the API server runs the DenyServiceExternalIPs admission plugin, or raise OLMT-053 to ERROR with policyChecks');
  });

  test('refused by the baseline\'s policy, or by the cluster (DenyServiceExternalIPs, with a reason): nothing named', () => {
    const subscribe = (t: ScopedOperatorTenant) => t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(externalIpFindings((chart) => subscribe(tenantWith(chart, { refuseServiceExternalIps: true })))).toEqual({ warnings: [], errors: [] });
    expect(externalIpFindings((chart) => subscribe(tenantWith(chart, { serviceExternalIpsDeniedReason: 'EKS enables DenyServiceExternalIPs' })))).toEqual({ warnings: [], errors: [] });
  });

  test('a blank reason counts for nothing: an error, and the finding stays', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'platform');
    tenantWith(chart, { serviceExternalIpsDeniedReason: ' ' }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    expect(errorLines(chart).map((e) => /\((\w+)(, OLMT-\d+)?\)$/.exec(e)![1])).toEqual(['EmptyServiceExternalIpsReason']);
    expect(Diagnostics.warnings(chart).filter((d) => d.code === 'TenantCanSetExternalIps').length).toBe(2);
  });

  test('raised to ERROR with policyChecks', () => {
    expect(externalIpFindings((chart) => tenantWith(chart, {}, { 'OLMT-053': PolicySeverity.ERROR }).subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD }))).toEqual({
      warnings: [],
      // in the order found (installer first); warnings come sorted
      errors: ['ServiceAccount team-a/team-a create', 'ServiceAccount team-a/etcd-operator create'],
    });
  });

  test.each<[string, any[], string[]]>([
    ['patch only', [{ apiGroups: [''], resources: ['services'], verbs: ['patch'] }], ['ServiceAccount team-a/team-a patch']],
    ['update of one named Service', [{ apiGroups: [''], resources: ['services'], resourceNames: ['web'], verbs: ['update'] }], ['ServiceAccount team-a/team-a update']],
    ['* verbs on * resources of the core group', [{ apiGroups: [''], resources: ['*'], verbs: ['*'] }], ['ServiceAccount team-a/team-a create']],
    ['* groups', [{ apiGroups: ['*'], resources: ['services'], verbs: ['create'] }], ['ServiceAccount team-a/team-a create']],
    ['the status subresource only (cannot change spec)', [{ apiGroups: [''], resources: ['services/status'], verbs: ['update', 'patch'] }], []],
    ['create with resourceNames (a create has no name)', [{ apiGroups: [''], resources: ['services'], resourceNames: ['web'], verbs: ['create'] }], []],
    ['read only', [{ apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch'] }], []],
  ])('the installer\'s Role: %s', (_, installerRules, expected) => {
    expect(externalIpFindings((chart) => new TenantBaseline(chart, 'B', { tenant: new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules }) })).warnings)
      .toEqual(expected);
  });

  const bound = (roleBindingNamespace: string) => (chart: Chart) => {
    new TenantBaseline(chart, 'B', { tenant: new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] }) });
    new k8s.KubeClusterRole(chart, 'R', { metadata: { name: 'services-writer' }, rules: [{ apiGroups: [''], resources: ['services'], verbs: ['update'] }] });
    new k8s.KubeRoleBinding(chart, 'RB', {
      metadata: { name: 'services-writer', namespace: roleBindingNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'services-writer' },
      subjects: [{ kind: 'ServiceAccount', name: 'team-a', namespace: 'team-a' }],
    });
  };
  test('a ClusterRole bound by a RoleBinding in the tenant namespace: named; bound in another namespace: not (the policy and the finding are per namespace)', () => {
    expect(externalIpFindings(bound('team-a')).warnings).toEqual(['ServiceAccount team-a/team-a update']);
    expect(externalIpFindings(bound('team-b')).warnings).toEqual([]);
  });

  test('people: a tenant group bound to the built-in edit role in the namespace (it creates Services) is named; the tenant\'s own edit access (operators\' APIs only) is not', () => {
    const people = (builtinEdit: boolean) => (chart: Chart) => {
      const t = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', installerRules: [] });
      new TenantBaseline(chart, 'B', { tenant: t });
      t.grantOperatorAccess(Group.fromName(chart, 'Devs', 'team-a-devs'), AccessLevel.EDIT);
      if (builtinEdit) {
        new k8s.KubeRoleBinding(chart, 'Edit', {
          metadata: { name: 'devs-edit', namespace: 'team-a' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'Group', name: 'team-a-devs' }],
        });
      }
    };
    expect(externalIpFindings(people(true)).warnings).toEqual(['Group team-a-devs create']);
    expect(externalIpFindings(people(false)).warnings).toEqual([]);
  });
});
