/**
 * Where a whole process spends its time: a V8 CPU profile (`node --cpu-prof`) summarized for BENCHMARKS.md.
 * Run by bench/scale.ts on the headline case when a goal is not met (and always, for the record).
 */
import * as fs from 'fs';
import * as url from 'url';

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
  ['... ... the tenants\' findings (preflight, derived rules, sensitive grants: `TenantFindings`)', /^errors lib\/tenant\/checks\/tenant-findings\.js/],
  ['... ... the audit of the App (`TenancyAudit`)', /^ofConstruct lib\/audit\/tenancy-audit\.js/],
  ['... `ApiObject.toJson()` (cdk8s; the objects\' JSON)', /^toJson cdk8s\/lib\/api-object\.js/],
  ['... the GitOps layout, chart by chart (placing, ordering, labels; the objects\' JSON, YAML text and writing nest in it)', /^(_emitGroups|_emitFiles) lib\/(app|output)\/gitops-layout\.js/],
  ['... YAML text (`YamlWriter`)', /^document lib\/(app|output)\/yaml-writer\.js/],
  ['... writing files (`fs` calls: open, write, close, rename, lstat, mkdir)', /^(openSync|writeSync|closeSync|renameSync|lstatSync|mkdirSync|writeFileSync) node:fs/],
  ['... the warnings (`WarningGroups`: the producers, run with the validation, and the text)', /^(report|warningReports|add|reports) lib\/core\/diagnostics\.js/],
  ['garbage collection (V8, main thread)', /^\(garbage collector\)/],
];

/** `libDir`: the compiled library's folder (its files are named `lib/...`, whatever the folder is called). */
export function summarizeProfile(file: string, libDir?: string): string[] {
  const libUrl = libDir === undefined ? undefined : `${url.pathToFileURL(libDir).href}/`;
  const fileOf = (u: string) => (libUrl !== undefined && u.startsWith(libUrl) ? `lib/${u.slice(libUrl.length)}` : scriptFile(u));
  const p = JSON.parse(fs.readFileSync(file, 'utf-8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${fileOf(n.callFrame.url)}:${n.callFrame.lineNumber}`;
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
  const byFunction = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    const native = n.callFrame.functionName || 'native';
    const f = n.callFrame.url === '' ? (native.startsWith('(') ? native : `(${native})`) : fileOf(n.callFrame.url);
    bySelf.set(f, (bySelf.get(f) ?? 0) + t);
    const fn = n.callFrame.url === '' ? f : `${n.callFrame.functionName || '(anonymous)'} (${f}:${n.callFrame.lineNumber + 1})`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
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
    '',
    'Self time by function (top 15; `(open)`, `(rename)`, `(writeBuffer)`... are the file system calls):',
    '',
    '| function | self time | share |',
    '|---|---:|---:|',
    ...[...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([f, t]) => `| ${f.replace(/\|/g, '\\|')} | ${ms(t)} | ${pct(t)} |`),
  ];
}

/**
 * A script's file as the tables name it: a package's file from the package on (`cdk8s/lib/api-object.js`), the
 * compiled library's from its `lib/` folder on (`lib/output/yaml-writer.js`), Node's own as Node names it.
 */
function scriptFile(u: string): string {
  if (u.includes('/node_modules/')) return u.replace(/^.*\/node_modules\//, '');
  return u.replace(/^.*\/lib\//, 'lib/');
}
