/**
 * What the API server checks when a ValidatingAdmissionPolicy is created, short of full type checking: every CEL
 * expression (matchConditions, variables, validations, messageExpressions) parses; it only names the variables
 * the admission environment declares (object, oldObject, request, params, namespaceObject, authorizer, variables,
 * and comprehension variables); `variables.X` only names a variable declared earlier in the list; and it only calls
 * functions Kubernetes' CEL environment provides (k8s.io/apiserver/pkg/cel/environment/base.go: cel-go's standard
 * library, ext.Strings, library.Regex/Lists/URLs/Quantity/IP/CIDR/Format/Semver, ext.Sets).
 *
 * Not modelled: the API server's type checker (object/oldObject typed from the CRD schema, variables typed by their
 * expressions). @bufbuild/cel 0.6.1's checker does not support call expressions yet, so expressions are checked with
 * all variables as dyn: a field name typo is only caught by the admission tests that evaluate the policy.
 */
import * as path from 'path';
import { parse } from '@bufbuild/cel';
import { ApiObject } from 'cdk8s';
import { appAndChart } from './helpers';
import { OperatorBundle } from '../../src/bundle';
import { CuratedClusterCatalog, OlmV1Team } from '../../src/olmv1';

const DECLARED = new Set(['object', 'oldObject', 'request', 'params', 'namespaceObject', 'authorizer', 'variables']);
/** Operators and macro internals (cel-go common/operators) and the functions of Kubernetes' CEL environment. */
const K8S_FUNCTIONS = new Set([
  // operators
  '_&&_', '_||_', '_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_+_', '_-_', '_*_', '_/_', '_%_', '!_', '-_', '_?_:_', '_[_]', '@in', '@not_strictly_false',
  // cel-go standard library
  'size', 'contains', 'startsWith', 'endsWith', 'matches', 'int', 'uint', 'double', 'string', 'bytes', 'bool', 'dyn', 'type', 'duration', 'timestamp',
  'getFullYear', 'getMonth', 'getDayOfYear', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
  // ext.Strings (version 2)
  'charAt', 'indexOf', 'lastIndexOf', 'lowerAscii', 'upperAscii', 'replace', 'split', 'substring', 'trim', 'join', 'format', 'quote',
  // library.Regex, library.Lists
  'find', 'findAll', 'isSorted', 'sum', 'min', 'max',
  // library.URLs, library.Quantity, library.IP, library.CIDR, library.Semver, ext.Sets
  'url', 'isURL', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery',
  'quantity', 'isQuantity', 'sign', 'isInteger', 'asInteger', 'asApproximateFloat', 'add', 'sub', 'isLessThan', 'isGreaterThan', 'compareTo',
  'ip', 'isIP', 'cidr', 'isCIDR', 'semver', 'isSemver', 'sets.contains', 'sets.equivalent', 'sets.intersects',
]);

interface Use { readonly functions: Set<string>; readonly unknownIdents: Set<string>; readonly variables: Set<string> }

function uses(expression: string): Use {
  const out: Use = { functions: new Set(), unknownIdents: new Set(), variables: new Set() };
  const walk = (e: any, bound: Set<string>) => {
    if (!e) return;
    const { case: kind, value } = e.exprKind;
    if (kind === 'identExpr') {
      if (!DECLARED.has(value.name) && !bound.has(value.name)) out.unknownIdents.add(value.name);
    } else if (kind === 'selectExpr') {
      const op = value.operand;
      if (op?.exprKind.case === 'identExpr' && op.exprKind.value.name === 'variables' && !bound.has('variables')) out.variables.add(value.field);
      walk(op, bound);
    } else if (kind === 'callExpr') {
      out.functions.add(value.function);
      walk(value.target, bound);
      for (const a of value.args) walk(a, bound);
    } else if (kind === 'listExpr') {
      for (const x of value.elements) walk(x, bound);
    } else if (kind === 'structExpr') {
      for (const en of value.entries) { walk(en.keyKind?.value?.exprKind ? en.keyKind.value : undefined, bound); walk(en.value, bound); }
    } else if (kind === 'comprehensionExpr') {
      walk(value.iterRange, bound);
      walk(value.accuInit, bound);
      const inner = new Set([...bound, value.iterVar, value.accuVar, ...(value.iterVar2 ? [value.iterVar2] : [])]);
      walk(value.loopCondition, inner);
      walk(value.loopStep, inner);
      walk(value.result, new Set([...bound, value.accuVar]));
    }
  };
  walk((parse(expression) as any).expr, new Set());
  return out;
}

/** Every problem of a policy spec, as `<where>: <problem>`. */
function problems(spec: any): string[] {
  const out: string[] = [];
  const declaredSoFar: string[] = [];
  const checkOne = (where: string, expression: string) => {
    let u: Use;
    try {
      u = uses(expression);
    } catch (e: any) {
      out.push(`${where}: does not compile: ${e.message}`);
      return;
    }
    for (const f of u.functions) if (!K8S_FUNCTIONS.has(f)) out.push(`${where}: function ${f} is not in Kubernetes' CEL environment`);
    for (const i of u.unknownIdents) out.push(`${where}: undeclared identifier ${i}`);
    for (const v of u.variables) if (!declaredSoFar.includes(v)) out.push(`${where}: variables.${v} is not declared before it`);
  };
  for (const [i, c] of (spec.matchConditions ?? []).entries()) checkOne(`matchConditions[${i}]`, c.expression);
  for (const v of spec.variables ?? []) {
    checkOne(`variables.${v.name}`, v.expression);
    declaredSoFar.push(v.name);
  }
  for (const [i, v] of (spec.validations ?? []).entries()) {
    checkOne(`validations[${i}].expression`, v.expression);
    if (v.messageExpression) checkOne(`validations[${i}].messageExpression`, v.messageExpression);
  }
  return out;
}

function policies(): any[] {
  const argocd = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'olm-v1-render', 'bundles', 'argocd-operator.v0.6.0'));
  const { chart } = appAndChart();
  const catalog = new CuratedClusterCatalog(chart, 'C', { catalogName: 'c', image: 'registry.example.com/catalogs/c:v1', team: 'a' });
  const variants = [
    {},
    { allowWatchNamespace: true },
    { allowDeploymentConfig: true },
    { allowWatchNamespace: true, allowDeploymentConfig: true },
  ];
  return variants.map((v, i) => {
    const team = new OlmV1Team(chart, `T${i}`, {
      team: `a${i}`,
      groups: ['g'],
      namespaces: ['a', 'b'],
      catalog,
      allowedPackages: [
        { name: 'argocd-operator', versionRange: '>=0.6.0 <0.7.0', channels: ['alpha'] },
        { name: 'p2', versionRange: '1.2.3' },
        { name: 'p3', versionRange: '>1.0.0 <=2.0.0' },
        { name: 'p4', versionRange: 'not a range' },
        { name: 'p5' },
      ],
      ...v,
    });
    team.addExtension({ packageName: 'argocd-operator', namespace: 'a', channels: ['alpha'], bundles: [argocd], legacyServiceAccount: 'installer' });
    return (team.guardrails.node.findChild('Policy') as ApiObject).toJson();
  });
}

describe('OLM v1 guardrail CEL: what the API server checks when the policy is created', () => {
  const all = policies();

  test('every expression of every variant parses, names only declared variables, and calls only Kubernetes CEL functions', () => {
    expect(all.length).toEqual(4);
    for (const p of all) expect([p.metadata.name, problems(p.spec)]).toEqual([p.metadata.name, []]);
  });

  test('the functions the guardrails use (a new one must be checked against Kubernetes\' CEL environment)', () => {
    const used = new Set<string>();
    for (const p of all) {
      const entries = [...p.spec.matchConditions, ...p.spec.variables, ...p.spec.validations];
      for (const e of entries.flatMap((x: any) => [x.expression, x.messageExpression].filter(Boolean))) {
        for (const f of uses(e).functions) used.add(f);
      }
    }
    expect([...used].filter((f) => /^[a-z]/i.test(f)).sort()).toEqual(['contains', 'int', 'join', 'matches', 'replace', 'size', 'split', 'startsWith']);
  });

  test('the checker catches what the API server would refuse', () => {
    expect(problems({
      variables: [{ name: 'a', expression: 'variables.b' }, { name: 'b', expression: 'object.spec.name.toLowerCase()' }],
      validations: [{ expression: 'self.x == 1' }, { expression: 'object.a &&& true' }, { expression: 'true', messageExpression: 'variables.nope' }],
    })).toEqual([
      'variables.a: variables.b is not declared before it',
      "variables.b: function toLowerCase is not in Kubernetes' CEL environment",
      'validations[0].expression: undeclared identifier self',
      'validations[1].expression: does not compile: <input>:1:10: found & but expecting end of input',
      'validations[2].messageExpression: variables.nope is not declared before it',
    ]);
  });
});
