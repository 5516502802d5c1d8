/**
 * The per-App context (issue 39 item 1): one context per construct tree, the same from every construct of it, and
 * what one App registers never reaches another.
 */
import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { AccessLevel, ScopedOperatorTenant, TenancyApp } from '../../src';
import { AppContext, AppSlot } from '../../src/core/app-context';
import { clusterTargetsOf, DEFAULT_TARGETS } from '../../src/core/cluster-targets';
import { neverAcceptableOf } from '../../src/core/never-acceptable';
import { namesCheckedByParent } from '../../src/tenant/private';

const SEEN = new AppSlot('seen (test)', () => new Set<string>());

describe('AppContext', () => {
  test('GIVEN constructs of one tree THEN they share one context; another tree has its own', () => {
    const app = new App();
    const chart = new Chart(app, 'c');
    const leaf = new Construct(new Construct(chart, 'a'), 'b');
    expect(AppContext.of(leaf)).toBe(AppContext.of(app));
    expect(AppContext.of(chart)).toBe(AppContext.of(app));
    expect(AppContext.of(new App())).not.toBe(AppContext.of(app));
  });

  test('GIVEN a slot THEN find creates nothing, get creates its empty value once, set replaces it', () => {
    const app = new App();
    const chart = new Chart(app, 'c');
    expect(AppContext.find(chart, SEEN)).toBeUndefined();
    AppContext.of(chart).get(SEEN).add('x');
    expect(AppContext.find(app, SEEN)).toEqual(new Set(['x']));
    AppContext.of(app).set(SEEN, new Set(['y']));
    expect(AppContext.find(chart, SEEN)).toEqual(new Set(['y']));
    expect(AppContext.find(new App(), SEEN)).toBeUndefined();
  });

  test('GIVEN two TenancyApps THEN the targets and the never-acceptable list of one do not reach the other', () => {
    const one = new TenancyApp({ targets: { olmVersion: '0.30.0' }, neverAcceptable: ['OLMT-026', 'OLMT-003'] });
    const other = new TenancyApp();
    expect(clusterTargetsOf(new Chart(one, 'c')).olmVersion).toBe('0.30.0');
    expect(clusterTargetsOf(new Chart(other, 'c'))).toBe(DEFAULT_TARGETS);
    expect([...neverAcceptableOf(one)].sort()).toEqual(['OLMT-003', 'OLMT-026']);
    expect([...neverAcceptableOf(other)]).toEqual(['OLMT-026']);
  });

  test('GIVEN a tenant THEN only its own children have their names checked by it', () => {
    const app = new App();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a' });
    tenant.grantOperatorAccess({ toSubjectConfiguration: () => ({ kind: 'User', name: 'alice' }) } as any, AccessLevel.VIEW);
    const bindings = tenant.node.children.filter((c) => c.node.id.startsWith('OperatorAccess-'));
    expect(bindings.map((b) => namesCheckedByParent(b))).toEqual([true]);
    // a construct of the same App outside the tenant, and one of another App, are not
    expect(namesCheckedByParent(new Construct(chart, 'Other'))).toBe(false);
    expect(namesCheckedByParent(new Construct(new Chart(new App(), 'c'), 'X'))).toBe(false);
  });
});
