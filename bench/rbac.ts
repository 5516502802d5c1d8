// Benchmark of the RBAC engine (issue 3): covers of 1,000 requested rules against 1,000 owner rules.
import { performance } from 'perf_hooks';
import { PolicyRule, RbacRules } from '../src';

/** mulberry32: a small seeded PRNG, so every run measures the same rules. */
/* eslint-disable no-bitwise */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/* eslint-enable no-bitwise */

const GROUPS = ['', 'apps', 'batch', 'networking.k8s.io', 'policy', 'autoscaling', 'example.com', 'etcd.database.coreos.com',
  'monitoring.coreos.com', 'cert-manager.io', 'kafka.strimzi.io', 'rbac.authorization.k8s.io'];
const RESOURCES = ['pods', 'pods/log', 'pods/exec', 'services', 'configmaps', 'secrets', 'deployments', 'deployments/scale',
  'statefulsets', 'jobs', 'cronjobs', 'ingresses', 'networkpolicies', 'widgets', 'widgets/status', 'etcdclusters',
  'prometheuses', 'certificates', 'kafkas', 'roles', 'rolebindings', 'events', 'endpoints', '*/scale', '*/status'];
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'bind', 'escalate'];
const NAMES = ['a', 'b', 'c', 'web', 'db', 'cache', 'tls', 'ca'];

function pick<T>(r: () => number, from: T[], min: number, max: number): T[] {
  const n = min + Math.floor(r() * (max - min + 1));
  const out = new Set<T>();
  while (out.size < Math.min(n, from.length)) out.add(from[Math.floor(r() * from.length)]);
  return [...out];
}

/** Adds `*` to a list with probability 1/50 (wildcards are rare in real rules). */
function maybeStar(r: () => number, list: string[]): string[] {
  return r() < 0.02 ? [...list, '*'] : list;
}

/** `count` rules with 1-3 groups, 1-5 resources, 1-8 verbs (rarely `*`); one in five with 1-3 resource names. */
function rules(seed: number, count: number): PolicyRule[] {
  const r = rng(seed);
  const out: PolicyRule[] = [];
  for (let i = 0; i < count; i++) {
    const rule: PolicyRule = {
      apiGroups: maybeStar(r, pick(r, GROUPS, 1, 3)),
      resources: maybeStar(r, pick(r, RESOURCES, 1, 5)),
      verbs: maybeStar(r, pick(r, VERBS, 1, 8)),
    };
    out.push(r() < 0.2 ? { ...rule, resourceNames: pick(r, NAMES, 1, 3) } : rule);
  }
  return out;
}

function time<T>(fn: () => T, runs: number): { ms: number; result: T } {
  fn(); // warm-up
  let result!: T;
  const start = performance.now();
  for (let i = 0; i < runs; i++) result = fn();
  return { ms: (performance.now() - start) / runs, result };
}

/** Runs the RBAC benchmark and returns report lines. */
export function benchRbac(): string[] {
  const owner = rules(1, 1000);
  const requested = rules(2, 1000);
  const atoms = RbacRules.breakdown(requested).length;
  const lines: string[] = [];
  const covers = time(() => RbacRules.covers(owner, requested), 5);
  lines.push(`rbac covers: 1,000 requested rules (${atoms.toLocaleString('en-US')} atoms) vs 1,000 owner rules: `
    + `${covers.ms.toFixed(1)} ms (covered=${covers.result.covered}, ${covers.result.missing.length.toLocaleString('en-US')} missing atoms)`);
  const self = time(() => RbacRules.covers(owner, owner), 5);
  lines.push(`rbac covers: 1,000 rules vs themselves: ${self.ms.toFixed(1)} ms (covered=${self.result.covered})`);
  // Adversarial for a naive scan: every owner rule on the same group/resource, each for one name.
  const named: PolicyRule[] = Array.from({ length: 1000 }, (_, i) => ({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'], resourceNames: [`s${i}`] }));
  const namedRequest: PolicyRule[] = Array.from({ length: 1000 }, (_, i) => ({ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s${i * 2}`] }));
  const adversarial = time(() => RbacRules.covers(named, namedRequest), 5);
  lines.push(`rbac covers: 1,000 named requests vs 1,000 single-name owner rules on one resource: ${adversarial.ms.toFixed(1)} ms `
    + `(${adversarial.result.missing.length} missing)`);
  const compact = time(() => RbacRules.compact(owner), 3);
  lines.push(`rbac compact: 1,000 rules -> ${compact.result.length.toLocaleString('en-US')} rules: ${compact.ms.toFixed(1)} ms`);
  const request = { verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web' };
  const allows = time(() => RbacRules.allows(owner, request), 1000);
  lines.push(`rbac allows: one request vs 1,000 rules: ${(allows.ms * 1000).toFixed(1)} us (allowed=${allows.result})`);
  return lines;
}

if (require.main === module) {
  for (const line of benchRbac()) console.log(line);
}
