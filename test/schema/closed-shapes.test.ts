import { ClosedShapes, Shape } from '../util/closed-shapes';

// Built once: one TypeScript program over the kubernetes-models 4.5.1 declarations.
const shapes = ClosedShapes.build([
  'rbac.authorization.k8s.io/v1/Role',
  'apps/v1/Deployment',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
]);

function shape(module: string): Shape {
  const s = shapes.get(module);
  if (!s) throw new Error(`no shape for ${module}`);
  return s;
}

describe('ClosedShapes.build', () => {
  test('an interface becomes a closed object listing its fields (IRole, IPolicyRule)', () => {
    // GIVEN
    const role = shape('rbac.authorization.k8s.io/v1/Role');

    // THEN
    expect(Object.keys(role.properties!).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'rules']);
    expect(role.additionalProperties).toEqual(false);
    expect(Object.keys(role.properties!.rules.items!.properties!).sort()).toEqual(['apiGroups', 'nonResourceURLs', 'resourceNames', 'resources', 'verbs']);
    expect(role.properties!.rules.items!.additionalProperties).toEqual(false);
  });

  test('a string map is open with leaf values (ObjectMeta labels)', () => {
    expect(shape('rbac.authorization.k8s.io/v1/Role').properties!.metadata.properties!.labels).toEqual({ additionalProperties: {} });
  });

  test('IntOrString (number | string) is a leaf', () => {
    const rollingUpdate = shape('apps/v1/Deployment').properties!.spec.properties!.strategy.properties!.rollingUpdate;
    expect(rollingUpdate.properties!.maxSurge).toEqual({});
  });

  test('recursive types stay recursive (JSONSchemaProps)', () => {
    // GIVEN
    const schema = shape('apiextensions.k8s.io/v1/CustomResourceDefinition')
      .properties!.spec.properties!.versions.items!.properties!.schema.properties!.openAPIV3Schema;

    // THEN
    expect(schema.properties!.properties.additionalProperties).toBe(schema);
    expect(schema.properties!.items).toEqual({});
  });
});

describe('ClosedShapes.check', () => {
  test('reports unknown fields with their path, not map keys or array items', () => {
    // GIVEN
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r', labels: { 'any/key': 'v' } },
      rules: [{ verbs: ['get'] }, { verbs: ['list'], nonResourceUrls: ['/x'] }],
      spec: {},
    };

    // WHEN
    const problems = ClosedShapes.check(shape('rbac.authorization.k8s.io/v1/Role'), role);

    // THEN
    expect(problems).toEqual([{ path: ['rules', 1, 'nonResourceUrls'] }, { path: ['spec'] }]);
  });

  test('ignores values of the wrong type (kubernetes-models reports those)', () => {
    expect(ClosedShapes.check(shape('rbac.authorization.k8s.io/v1/Role'), { rules: 'all' })).toEqual([]);
  });
});
