/**
 * OLM dispatches bundle objects by kind alone: operator-lifecycle-manager
 * pkg/controller/registry/resolver/steps.go `NewStepResourceFromObject` (every kind Secret becomes a BundleSecret
 * step) and pkg/controller/operators/catalog/operator.go `ExecutePlan` (switch on `step.Resource.Kind`, then
 * json.Unmarshal into the core type). A custom resource of kind Secret/Service/Role/... in another API group is
 * created as the core kind, not refused as UnsupportedResource.
 */
import { OperatorBundle } from '../../src/bundle/operator-bundle';
import { InstallPlanModel } from '../../src/preflight/install-plan-model';
import { InstallPreflight } from '../../src/preflight/install-preflight';
import { PreflightCode } from '../../src/preflight/preflight-code';
import { DEMO_CSV } from '../util/demo-csv';

const CSV = DEMO_CSV;

/** A sample CR of kind Secret and one of kind Role, both in the operator's own API group. */
const SAMPLES = `apiVersion: demo.example.com/v1
kind: Secret
metadata:
  name: sample-secret
spec:
  size: 3
---
apiVersion: demo.example.com/v1alpha1
kind: Role
metadata:
  name: sample-role
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get]
`;

describe('Kind-only dispatch (OLM resolver/steps.go NewStepResourceFromObject, catalog/operator.go ExecutePlan)', () => {
  const bundle = OperatorBundle.fromCsvYaml(CSV, SAMPLES);

  test('a CR of kind Secret or Role in another group is modelled as the core kind, not as UnsupportedResource', () => {
    const model = InstallPlanModel.build(bundle, 'team-a', false);
    expect(model.unsupported).toEqual([]);
    expect(model.createdAsCoreKind.map((o) => `${o.apiVersion} ${o.kind}/${o.name}`)).toEqual([
      'demo.example.com/v1 Secret/sample-secret',
      'demo.example.com/v1alpha1 Role/sample-role',
    ]);
    const steps = model.requirements.filter((r) => r.step.includes('sample-'));
    expect(steps.map((r) => ({ namespace: r.namespace, rules: r.rules, step: r.step }))).toEqual([
      {
        namespace: 'team-a',
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }],
        step: 'InstallPlan step Secret sample-secret (extra manifests YAML (document 1)): create',
      },
      {
        namespace: 'team-a',
        rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] }],
        step: 'InstallPlan step Role sample-role (extra manifests YAML (document 2)): create',
      },
      {
        namespace: 'team-a',
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
        step: 'InstallPlan step Role sample-role (extra manifests YAML (document 2)): RBAC escalation check, the installer must hold the rules it grants',
      },
    ]);
  });

  test('the preflight needs the core verbs and warns that the bundle probably ships a sample by mistake', () => {
    const result = InstallPreflight.check({ bundle, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] });
    expect(result.problems.map((p) => p.code)).toEqual([]);
    // compacted with the CSV's own needs (configmaps get, the ServiceAccount, its Role and RoleBinding)
    expect(result.missing.filter((m) => m.steps.some((s) => s.includes('sample-'))).map((m) => m.formatted)).toEqual([
      'Namespace:"team-a" APIGroups:[] Resources:[configmaps,pods] Verbs:[get]',
      'Namespace:"team-a" APIGroups:[] Resources:[secrets,serviceaccounts] Verbs:[create]',
      'Namespace:"team-a" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings,roles] Verbs:[create]',
    ]);
    expect(result.warnings.filter((w) => w.code === PreflightCode.CREATED_AS_CORE_KIND)).toEqual([
      {
        code: PreflightCode.CREATED_AS_CORE_KIND,
        message: 'demo.v1.0.0: bundle object Secret sample-secret (extra manifests YAML (document 1)) has apiVersion demo.example.com/v1, but OLM '
          + 'dispatches bundle objects by kind alone (resolver/steps.go NewStepResourceFromObject, catalog operator.go ExecutePlan): it is '
          + "created as a v1 Secret in the operator's namespace, and fields a Secret does not have are dropped; the installer needs the verbs "
          + 'on that core kind. The bundle probably ships a sample custom resource by mistake. Fix: ask the operator\'s maintainers to remove '
          + "it from manifests/ (samples belong in the CSV's alm-examples annotation).",
      },
      {
        code: PreflightCode.CREATED_AS_CORE_KIND,
        message: 'demo.v1.0.0: bundle object Role sample-role (extra manifests YAML (document 2)) has apiVersion demo.example.com/v1alpha1, but '
          + 'OLM dispatches bundle objects by kind alone (resolver/steps.go NewStepResourceFromObject, catalog operator.go ExecutePlan): it is '
          + "created as a rbac.authorization.k8s.io/v1 Role in the operator's namespace, and fields a Role does not have are dropped; the "
          + 'installer needs the verbs on that core kind. The bundle probably ships a sample custom resource by mistake. Fix: ask the '
          + "operator's maintainers to remove it from manifests/ (samples belong in the CSV's alm-examples annotation).",
      },
    ]);
  });

  test('a core kind in its own group is not warned about, and a kind OLM does not know stays UnsupportedResource', () => {
    const b = OperatorBundle.fromCsvYaml(CSV, 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\napiVersion: demo.example.com/v1\nkind: Widget\nmetadata:\n  name: w\n');
    const model = InstallPlanModel.build(b, 'team-a', false);
    expect(model.createdAsCoreKind).toEqual([]);
    expect(model.unsupported.map((o) => `${o.kind}/${o.name}`)).toEqual(['Widget/w']);
  });

  test('a Role-kind CR whose rules do not decode as RBAC rules fails the InstallPlan ("error parsing step manifest"): a problem, not a throw', () => {
    const b = OperatorBundle.fromCsvYaml(CSV, 'apiVersion: demo.example.com/v1\nkind: Role\nmetadata:\n  name: r\nrules: {replicas: 3}\n');
    const result = InstallPreflight.check({ bundle: b, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [] });
    expect(result.problems.filter((p) => p.code === PreflightCode.INVALID_BUNDLE_OBJECT)).toEqual([{
      code: PreflightCode.INVALID_BUNDLE_OBJECT,
      message: "demo.v1.0.0: bundle object Role r (extra manifests YAML): its rules do not decode as RBAC rules (field 'rules' must be a list): "
        + 'OLM fails the InstallPlan step ("error parsing step manifest"). Fix: correct or remove it in the bundle.',
    }]);
    expect(result.ok).toBe(false);
  });

  test('a supported non-core kind without apiVersion fails the InstallPlan (catalog operator apiresourceFromGVK); a core kind without one is created by kind', () => {
    const b = OperatorBundle.fromCsvYaml(CSV, 'kind: ServiceMonitor\nmetadata:\n  name: m\n---\nkind: ConfigMap\nmetadata:\n  name: c\n');
    const model = InstallPlanModel.build(b, 'team-a', false);
    expect(model.invalidObjects.map((x) => [x.object.kind, x.reason])).toEqual([[
      'ServiceMonitor',
      'it has no apiVersion: OLM looks up the resource of its group/version (catalog operator apiresourceFromGVK) and the InstallPlan fails',
    ]]);
    expect(model.createdAsCoreKind).toEqual([]);
    expect(model.requirements.filter((r) => r.step.includes('ConfigMap c')).map((r) => r.rules)).toEqual([
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    ]);
  });
});
