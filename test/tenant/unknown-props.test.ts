/**
 * Issue 16 item 3: a misspelled prop is an error in every runtime. TypeScript refuses `podSecurty` at compile time;
 * JavaScript, YAML-driven callers and the jsii languages used to pass it silently (a token Secret was written and
 * the namespace enforced `baseline`). The call goes through an `any`-typed object, as plain JavaScript does.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  CatalogSourceReference, CompactRole, InstallPreflight, OperatorBundle, PodSecurityLevel, ReachCode, ScopedOperatorTenant, TenantBlueprint,
} from '../../src';
import { synthErrorLines } from '../util/synth';

describe('unknown props are errors, with the nearest prop name', () => {
  test("the JavaScript typo of issue 16: { createTokenSecrets: false, podSecurty: 'restricted' }", () => {
    const app = Testing.app();
    const js: any = { namespaceName: 'team-x', createTokenSecrets: false, podSecurty: 'restricted' };
    new ScopedOperatorTenant(new Chart(app, 'platform'), 'TeamX', js);
    expect(synthErrorLines(app)).toEqual([
      '[platform/TeamX] createTokenSecrets="false": ScopedOperatorTenant has no prop "createTokenSecrets"; did you mean "createTokenSecret"? Fix: rename it to createTokenSecret (UnknownProp)',
      '[platform/TeamX] podSecurty="restricted": ScopedOperatorTenant has no prop "podSecurty"; did you mean "podSecurity"? Fix: rename it to podSecurity (UnknownProp)',
    ]);
  });
});

describe('every props object is checked, in constructs and static methods', () => {
  const CATALOG = CatalogSourceReference.fromName('community-operators', 'openshift-marketplace');

  test('subscribe(options) and nested structs (config, acceptedReach) name the prop with its path', () => {
    const app = Testing.app();
    const js: any = new ScopedOperatorTenant(new Chart(app, 'platform'), 'TeamX', {
      namespaceName: 'team-x',
      acceptedReach: [{ code: ReachCode.IDENTITY_CAN_ASSUME_INSTALLER, reason: 'r', subjet: 'x' }],
    } as any);
    js.subscribe({ packageName: 'etcd', catalog: CATALOG, chanel: 'alpha', config: { nodeSelectr: { a: 'b' } } });
    expect(synthErrorLines(app)).toEqual([
      '[platform/TeamX] acceptedReach[0].subjet="x": acceptedReach[0] has no prop "subjet"; did you mean "subject"? Fix: rename it to acceptedReach[0].subject (UnknownProp)',
      '[platform/TeamX/Subscription-etcd] chanel="alpha": subscribe(options) has no prop "chanel"; did you mean "channel"? Fix: rename it to channel (UnknownProp)',
      '[platform/TeamX/Subscription-etcd] config.nodeSelectr="{\\"a\\":\\"b\\"}": config has no prop "nodeSelectr"; did you mean "nodeSelector"? Fix: rename it to config.nodeSelector (UnknownProp)',
    ]);
  });

  test('a prop with no near name lists the props', () => {
    const app = Testing.app();
    new CompactRole(new Chart(app, 'c'), 'R', { name: 'r', namespace: 'team-a', rules: [], colour: 'red' } as any);
    expect(synthErrorLines(app)).toEqual([
      '[c/R] colour="red": CompactRole has no prop "colour". Fix: remove it; the props are labels, name, namespace, rules (UnknownProp)',
    ]);
  });

  test('a blueprint typo is reported on the tenants it stamps', () => {
    const app = Testing.app();
    const blueprint = new TenantBlueprint({ name: 'standard', catalog: CATALOG, operators: [{ packageName: 'etcd', startingCSV: 'etcdoperator.v0.9.4' }] } as any);
    blueprint.stamp(new Chart(app, 'payments'), 'payments');
    expect(synthErrorLines(app).filter((l) => l.includes('UnknownProp'))).toEqual([
      expect.stringMatching(/^\[payments\/[^\]]+\] blueprint\.operators\[0\]\.startingCSV="etcdoperator\.v0\.9\.4": blueprint\.operators\[0\] has no prop "startingCSV"; did you mean "startingCsv"\? Fix: rename it to blueprint\.operators\[0\]\.startingCsv \(UnknownProp\)$/),
    ]);
  });

  test('static methods throw one line naming the method, the prop and the suggestion', () => {
    const bundle = OperatorBundle.fromDirectory(path.join(__dirname, '..', 'fixtures', 'bundles', 'etcd', '0.9.4'));
    expect(() => InstallPreflight.check({ bundle, namespace: 'team-a', targetNamespaces: ['team-a'], installerRules: [], upgrde: true } as any)).toThrow(new Error(
      'InstallPreflight.check: upgrde="true": InstallPreflight.check has no prop "upgrde"; did you mean "upgrade"? Fix: rename it to upgrade (UnknownProp)',
    ));
  });

  test('props with only the declared keys (what the jsii kernel passes) are unaffected', () => {
    const app = Testing.app();
    new ScopedOperatorTenant(new Chart(app, 'c'), 'T', { namespaceName: 'team-a', createTokenSecret: false, podSecurity: PodSecurityLevel.RESTRICTED, tokenSecretName: undefined });
    expect(synthErrorLines(app)).toEqual([]);
  });
});
