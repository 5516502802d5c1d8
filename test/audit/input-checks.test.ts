/**
 * Issue 9 for the audit entry points: TenancyAudit, EffectivePower and BuiltinRoles throw one clear Error in the
 * diagnostics format (`Class.method: field=value: message. Fix: ... (Code)`) instead of a TypeError deep inside.
 * Plain JavaScript is simulated with `as any`.
 */
import { Chart, Testing } from 'cdk8s';
import { EffectivePower, SubjectKind, TenancyAudit } from '../../src';
import { BuiltinRoles } from '../../src/audit/builtin-roles';
import { OlmGeneratedRbac } from '../../src/olm/olm-generated-rbac';

describe('EffectivePower', () => {
  test('label with a kind outside SubjectKind', () => {
    expect(() => EffectivePower.label({ kind: 'Robot', name: 'r2' } as any)).toThrow(new Error(
      'EffectivePower.label: subject.kind="Robot": subject.kind must be one of "ServiceAccount", "User", "Group", got the string "Robot". '
      + 'Fix: use SubjectKind.SERVICE_ACCOUNT or SubjectKind.USER or SubjectKind.GROUP (InvalidEnumValue)',
    ));
  });

  test('allows with verbs as a string; isEverything(null)', () => {
    expect(() => EffectivePower.allows([{ verbs: 'get' } as any], { verb: 'get' })).toThrow(new Error(
      'EffectivePower.allows: rules[0].verbs="get": rules[0].verbs must be a list of strings, got the string "get". '
      + 'Fix: write e.g. verbs: ["get"] (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)',
    ));
    expect(() => EffectivePower.isEverything(null as any)).toThrow(new Error(
      'EffectivePower.isEverything: rules: rules is required but null. Fix: pass rules as a list of PolicyRule objects (MissingInput)',
    ));
  });

  test('the constructor with an object instead of a list; rulesIn with a number namespace; valid calls answer as before', () => {
    expect(() => new EffectivePower({} as any)).toThrow(new Error(
      'EffectivePower: objects="{}": objects must be a list, got an object ({}). Fix: pass the RBAC objects as a list of { manifest, origin? } ([] for none) (InvalidInputType)',
    ));
    const power = new EffectivePower([]);
    expect(() => power.rulesIn({ kind: SubjectKind.USER, name: 'a' }, 3 as any)).toThrow(new Error(
      'EffectivePower.rulesIn: namespace="3": namespace must be a string, got the number 3. Fix: name the namespace ("" for cluster-wide grants only) (InvalidInputType)',
    ));
    expect(power.rulesIn({ kind: SubjectKind.USER, name: 'a' }, 'team-a')).toEqual([]);
    expect(EffectivePower.label({ kind: SubjectKind.SERVICE_ACCOUNT, name: 'etcd', namespace: 'team-a' })).toEqual('ServiceAccount team-a/etcd');
  });
});

describe('TenancyAudit and BuiltinRoles', () => {
  test('audit with a tenant missing its required fields', () => {
    expect(() => TenancyAudit.audit({ objects: [], tenants: [{ name: 't', namespace: 'team-a' }] } as any)).toThrow(new Error(
      'TenancyAudit.audit: input.tenants[0].targetNamespaces: input.tenants[0].targetNamespaces is required but missing. '
      + 'Fix: pass the OperatorGroup target namespaces as a list ([] for AllNamespaces) (MissingInput); '
      + 'input.tenants[0].operatorGroupName: input.tenants[0].operatorGroupName is required but missing. Fix: name the OperatorGroup (MissingInput); '
      + "input.tenants[0].installerServiceAccountName: input.tenants[0].installerServiceAccountName is required but missing. Fix: name the installer's ServiceAccount (MissingInput)",
    ));
  });

  // (an empty installerServiceAccountName is allowed: the global installs' preview audits an OperatorGroup without one)
  test('audit with empty names: one clear error each (the static-methods fuzz found an empty namespace reaching OlmGeneratedRbac, which quoted a 100,000-character OperatorGroup)', () => {
    const huge = 'x'.repeat(100_000);
    const tenant = { name: 't', namespace: '', targetNamespaces: [huge, ''], operatorGroupName: '', installerServiceAccountName: '' };
    expect(() => TenancyAudit.audit({ objects: [], tenants: [tenant] } as any)).toThrow(new Error(
      "TenancyAudit.audit: input.tenants[0].namespace=\"\": input.tenants[0].namespace must not be empty. Fix: name the tenant namespace, e.g. 'team-a' (InvalidInputValue); "
      + "input.tenants[0].targetNamespaces[1]=\"\": input.tenants[0].targetNamespaces[1] must not be empty. Fix: pass namespace names ([] for AllNamespaces, never '') (InvalidInputValue); "
      + 'input.tenants[0].operatorGroupName="": input.tenants[0].operatorGroupName must not be empty. Fix: name the OperatorGroup (InvalidInputValue)',
    ));
  });

  test('OlmGeneratedRbac quotes at most 300 characters of a bad OperatorGroup', () => {
    const og = { name: 'og', namespace: '', targetNamespaces: ['x'.repeat(100_000)] };
    let message = '';
    try {
      new OlmGeneratedRbac({ operatorGroup: og, operators: [] });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.startsWith("OlmGeneratedRbac: operatorGroup must have a non-empty 'name' and 'namespace', got {\"name\":\"og\"")).toBe(true);
    expect(message.length).toBeLessThan(450);
  });

  test('an acceptedReach code outside ReachCode', () => {
    const tenant = {
      name: 't',
      namespace: 'team-a',
      targetNamespaces: ['team-a'],
      operatorGroupName: 'og',
      installerServiceAccountName: 'installer',
      acceptedReach: [{ code: 'Anything', reason: 'trust me' }],
    };
    expect(() => TenancyAudit.objectsOf(tenant as any))
      .toThrow(/^TenancyAudit\.objectsOf: tenant\.acceptedReach\[0\]\.code="Anything": tenant\.acceptedReach\[0\]\.code must be one of .* \(InvalidEnumValue\)$/);
  });

  test('objectsOf(null), operatorServiceAccounts([null]), ofConstruct of a string, report of a partial result', () => {
    expect(() => TenancyAudit.objectsOf(null as any)).toThrow(new Error(
      'TenancyAudit.objectsOf: tenant="null": tenant must be an AuditedTenant, got null. '
      + 'Fix: pass { name, namespace, targetNamespaces, operatorGroupName, installerServiceAccountName } (MissingInput)',
    ));
    expect(() => TenancyAudit.operatorServiceAccounts([null] as any)).toThrow(new Error(
      'TenancyAudit.operatorServiceAccounts: bundles[0]: bundles[0] is missing. Fix: pass OperatorBundle objects, e.g. from OperatorBundle.fromDirectory(path) (MissingInput)',
    ));
    expect(() => TenancyAudit.ofConstruct('app' as any)).toThrow(new Error(
      'TenancyAudit.ofConstruct: scope="app": scope must be a construct (an App, a Chart or a construct below them), got the string "app". '
      + 'Fix: pass the App, or the chart or construct whose tenants to read (InvalidReference)',
    ));
    expect(() => TenancyAudit.report({ tenants: [{ tenant: 't', namespace: 'team-a' }] } as any)).toThrow(new Error(
      'TenancyAudit.report: result.tenants[0].findings: result.tenants[0].findings is required but missing. Fix: pass what TenancyAudit.audit(input) returns (MissingInput)',
    ));
    const app = Testing.app();
    new Chart(app, 'c');
    expect(TenancyAudit.report(TenancyAudit.ofConstruct(app))).toEqual('\n');
  });

  test('BuiltinRoles.find without a name', () => {
    expect(() => BuiltinRoles.find('ClusterRole', undefined as any, '')).toThrow(new Error('BuiltinRoles.find: name: name is required but missing. Fix: name the role (MissingInput)'));
    expect(BuiltinRoles.find('ClusterRole', 'view', '')?.name).toEqual('view');
  });
});
