import { App, Chart } from 'cdk8s';
import { CatalogSourceReference, ScopedOperatorTenant } from '../src';
const app = new App({ outdir: '/tmp/yk/p' });
for (let i = 0; i < 200; i++) {
  const c = new Chart(app, `c${i}`);
  const t = new ScopedOperatorTenant(c, 't', { namespaceName: `team-${i}` });
  t.subscribe({ packageName: 'etcd', channel: 'a', catalog: CatalogSourceReference.fromName('x', 'olm') });
}
let t0 = Date.now();
const objs = app.node.findAll().filter((x: any) => typeof x.toJson === 'function' && x.apiVersion);
for (let k = 0; k < 10; k++) for (const o of objs as any[]) o.toJson();
console.log('toJson x10', objs.length, Date.now() - t0);
t0 = Date.now();
for (let k = 0; k < 10; k++) app.node.findAll().forEach((c) => c.node.validate());
console.log('validate x10', Date.now() - t0);
