/**
 * Where a whole process spends its time: a V8 CPU profile (`node --cpu-prof`) summarized for BENCHMARKS.md.
 * Run by bench/scale.ts on the headline case when a goal is not met (and always, for the record).
 */
import * as fs from 'fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: number[];
}

/** What the phases of a library app are called in the compiled library (inclusive time, may nest). */
const PHASES: Array<[string, RegExp]> = [
  ['loading modules (`require` of cdk8s, cdk8s-plus-28 and the library, from the app)', /^require node:internal\/modules\/helpers/],
  ['reading the bundles (`OperatorBundle.fromDirectory`)', /^fromDirectory lib\/bundle\/operator-bundle\.js/],
  ['building the constructs (`new ScopedOperatorTenant`, `subscribe`)', /^(ScopedOperatorTenant|subscribe) lib\/tenant\/scoped-operator-tenant\.js/],
  ['`TenancyApp.synth()`', /^synth lib\/app\/tenancy-app\.js/],
  ['... validation (every construct\'s checks, the audit)', /^validate lib\/app\/tenancy-app\.js/],
  ['... `ApiObject.toJson()`', /^toJson lib\/api-object\.js/],
  ['... the GitOps layout, chart by chart (placing, ordering, labels; the objects\' JSON, YAML text and writing nest in it)', /^(_emitGroups|_emitFiles) lib\/app\/gitops-layout\.js/],
  ['... YAML text (`YamlWriter`)', /^document lib\/app\/yaml-writer\.js/],
  ['... writing files (`fs.writeFileSync`, `mkdirSync`)', /^(writeFileSync|mkdirSync) node:fs/],
  ['... the warnings printed (`Diagnostics.report`)', /^report lib\/core\/diagnostics\.js/],
  ['garbage collection (V8, main thread)', /^\(garbage collector\)/],
];

export function summarizeProfile(file: string): string[] {
  const p = JSON.parse(fs.readFileSync(file, 'utf-8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(lib|node_modules)\//, '$1/').replace(/^node:/, 'node:')}:${n.callFrame.lineNumber}`;
  const total = new Map<number, number>();
  const totalOf = (id: number): number => {
    const known = total.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const t = (self.get(id) ?? 0) + (n.children ?? []).reduce((a, c) => a + totalOf(c), 0);
    total.set(id, t);
    return t;
  };
  const all = totalOf(p.nodes[0].id);
  // inclusive time of each phase: the outermost matching frames only (recursion counted once)
  const phase = PHASES.map(() => 0);
  const walk = (id: number, inside: boolean[]) => {
    const n = byId.get(id)!;
    const here = PHASES.map(([, re], k) => !inside[k] && re.test(name(n)));
    here.forEach((h, k) => {
      if (h) phase[k] += totalOf(id);
    });
    for (const c of n.children ?? []) walk(c, inside.map((v, k) => v || here[k]));
  };
  walk(p.nodes[0].id, PHASES.map(() => false));
  const bySelf = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    const f = n.callFrame.url === '' ? `(${n.callFrame.functionName || 'native'})` : n.callFrame.url.replace(/^.*\/(lib|node_modules)\//, '$1/');
    bySelf.set(f, (bySelf.get(f) ?? 0) + t);
  }
  const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
  const pct = (us: number) => `${((us / all) * 100).toFixed(0)} %`;
  return [
    '| phase (inclusive) | time | share |',
    '|---|---:|---:|',
    `| the whole profile (main thread) | ${ms(all)} | 100 % |`,
    ...PHASES.map(([label], k) => `| ${label} | ${ms(phase[k])} | ${pct(phase[k])} |`),
    '',
    'Self time by file (top 12):',
    '',
    '| file | self time | share |',
    '|---|---:|---:|',
    ...[...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([f, t]) => `| ${f.replace(/\|/g, '\\|')} | ${ms(t)} | ${pct(t)} |`),
  ];
}
