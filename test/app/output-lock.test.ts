/**
 * Issue 42, "One writer at a time, and a whole tree either way": synths into the same output directory, as real
 * processes (test/util/concurrent-synth-main.ts), wait for each other or are refused with a clear error; a synth killed
 * with SIGKILL (while staging, or in the middle of its swap) leaves the previous tree or is completed by the next one;
 * the committed tree is always exactly one whole synth. Small platforms (one to three tenants) keep it cheap: each
 * process costs about a second and a half of CPU (ts-node with swc).
 */
import { ChildProcess, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { CatalogSourceReference, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { _setOutputFsOps } from '../../src/output/output-writer';
import { fileTree } from '../util/files';
import { HAS_KUBECTL, kubectlKustomize } from '../util/kubectl';
import { beforeEachFileMade } from '../util/output-fs';
import { spawnTsMain } from '../util/run-main';

const MAIN = path.join(__dirname, '..', 'util', 'concurrent-synth-main.ts');
const ROOT = path.join(__dirname, '..', '..');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'output-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface ChildArgs {
  readonly outdir: string;
  readonly tenants: string[];
  readonly lockWait?: string;
  readonly hook?: string;
  readonly signals?: string;
}

/** The same App as the child's, synthesized here into a fresh folder: the tree a whole synth of `tenants` writes. */
function expectedTree(name: string, tenants: string[]): Record<string, string> {
  const outdir = path.join(root, 'expected', name);
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, report: true });
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const ns of tenants) {
    const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns, createTokenSecret: false });
    t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
  }
  app.synth();
  return fileTree(outdir);
}

/**
 * A synth in this process (as the child's, `outputLockWait` given), to its end: its error message, or '' when it
 * wrote. `failInStaging`: the first file opened in a staging folder fails with ENOSPC. In-process where no process of
 * its own is needed (the processes that hold, wait, die or race are children): each child costs a second or two of CPU.
 */
function synthHere(outdir: string, tenants: string[], options: { lockWait?: string; failInStaging?: boolean } = {}): string {
  const lockWait = options.lockWait ? { outputLockWait: options.lockWait } : {};
  const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, report: true, ...lockWait });
  const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
  for (const ns of tenants) new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns, createTokenSecret: false }).subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
  if (options.failInStaging) {
    // no file can be made in a staging folder: opened, or written in one call (OutputFsOps.writeTextFileSync)
    const full = (p: string) => {
      if (p.includes(`${path.sep}.cdk8s-olm-tenancy-staging-`)) throw Object.assign(new Error('ENOSPC: simulated, openSync'), { code: 'ENOSPC', syscall: 'open', errno: -28 });
    };
    _setOutputFsOps(beforeEachFileMade(full));
  }
  try {
    app.synth();
    return '';
  } catch (e) {
    return (e as Error).message;
  } finally {
    _setOutputFsOps(undefined);
  }
}

interface ChildEnd {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts a child synth; `done` resolves with its exit code (or the signal that killed it) and output. */
function start(args: ChildArgs): { child: ChildProcess; done: Promise<ChildEnd> } {
  const child = spawnTsMain(MAIN, [JSON.stringify(args)], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<ChildEnd>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Resolves once `file` exists (a child's signal); fails when `child` ends first. */
async function until(file: string, child: ChildProcess): Promise<void> {
  while (!fs.existsSync(file)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the child ended before ${path.basename(file)} (${child.exitCode ?? child.signalCode})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The library's own entries in `outdir` (lock, staging, backup, journal, temporary files). */
function leftovers(outdir: string): string[] {
  return fs.readdirSync(outdir).filter((n) => n.startsWith('.cdk8s-olm-tenancy-')).sort();
}

/** `fileTree` without the library's own entries: what Git would see with them ignored. */
function committedTree(outdir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fileTree(outdir)).filter(([k]) => !k.startsWith('.cdk8s-olm-tenancy-')));
}

function freshOutput(name: string, committed: string[]): string {
  const outdir = path.join(root, name);
  fs.rmSync(outdir, { recursive: true, force: true });
  expect(synthHere(outdir, committed)).toEqual('');
  return outdir;
}

describe('issue 42: one writer at a time, and a whole tree either way (real processes)', () => {
  test('GIVEN a synth holding the lock WHEN another runs with outputLockWait 0s THEN it is refused naming the holder, nothing changed; '
    + 'WHEN a third runs with the default wait THEN it waits and then writes: the tree is exactly the third synth\'s', async () => {
    const outdir = freshOutput('wait', ['team-a', 'team-b']);
    const before = fileTree(outdir);
    const signals = fs.mkdtempSync(path.join(root, 'signals-'));
    const holder = start({ outdir, tenants: ['team-a', 'team-c'], hook: 'pause-in-staging', signals });
    await until(path.join(signals, 'ready'), holder.child);

    // refused at once: the holder is named, nothing of the committed tree changed
    const refused = synthHere(outdir, ['team-d'], { lockWait: '0s' });
    expect(refused).toEqual(`cannot write ${outdir}: another synth is writing it: ${path.join(outdir, '.cdk8s-olm-tenancy-lock')} is held by process `
      + `${holder.child.pid} on ${os.hostname()} since ${JSON.parse(fs.readFileSync(path.join(outdir, '.cdk8s-olm-tenancy-lock'), 'utf8')).since}; `
      + `nothing in ${outdir} was changed. Fix: let that synth finish, then synthesize again (TenancyAppProps.outputLockWait waits for it); `
      + 'if no such process runs (another host, a reused pid), remove the lock file');
    expect(committedTree(outdir)).toEqual(before);

    // waits: it is blocked on the lock before the holder goes on
    const waiter = start({ outdir, tenants: ['team-e', 'team-f', 'team-g'], hook: 'announce-wait', signals });
    await until(path.join(signals, 'waiting'), waiter.child);
    fs.writeFileSync(path.join(signals, 'go'), '');
    const [first, second] = await Promise.all([holder.done, waiter.done]);
    expect([first.code, first.stdout, second.code, second.stdout]).toEqual([0, 'done 12\n', 0, 'done 18\n']);
    expect(fileTree(outdir)).toEqual(expectedTree('wait', ['team-e', 'team-f', 'team-g']));
    expect(leftovers(outdir)).toEqual([]);
  });

  test('GIVEN a synth killed (SIGKILL) while it writes its staging folder THEN the committed tree is the previous one, byte for byte; '
    + 'a re-run breaks the dead process\'s lock at once (0s), removes its leftovers and writes its whole tree', async () => {
    const outdir = freshOutput('kill-staging', ['team-a', 'team-b']);
    const before = fileTree(outdir);
    const killed = await start({ outdir, tenants: ['team-c'], hook: 'kill-in-staging' }).done;
    expect(killed.signal).toEqual('SIGKILL');
    expect(committedTree(outdir)).toEqual(before);
    // the dead process's lock and staging folder are still there
    expect(leftovers(outdir)).toEqual(expect.arrayContaining(['.cdk8s-olm-tenancy-lock', expect.stringMatching(/^\.cdk8s-olm-tenancy-staging-\d+-/)]));

    expect(synthHere(outdir, ['team-d'], { lockWait: '0s' })).toEqual('');
    expect(fileTree(outdir)).toEqual(expectedTree('kill-staging', ['team-d']));
    expect(leftovers(outdir)).toEqual([]);
  });

  test('GIVEN a synth killed (SIGKILL) in the middle of its swap (old entries moved aside, one new entry in place) THEN the next synth '
    + 'first completes that swap from its journal (the tree is exactly the killed synth\'s), then writes its own', async () => {
    const outdir = freshOutput('kill-swap', ['team-a', 'team-b']);
    const killed = await start({ outdir, tenants: ['team-c'], hook: 'kill-in-swap' }).done;
    expect(killed.signal).toEqual('SIGKILL');
    // half swapped: the journal says how to finish
    expect(fs.existsSync(path.join(outdir, 'tenants'))).toBe(false);
    expect(leftovers(outdir)).toEqual(expect.arrayContaining(['.cdk8s-olm-tenancy-lock', '.cdk8s-olm-tenancy-swap.json']));

    // a re-run that fails while staging (after the recovery) shows what the recovery left: the killed synth's whole tree
    expect(synthHere(outdir, ['team-d'], { failInStaging: true })).toMatch(/: ENOSPC \(no space left on the device\); nothing in .* was changed\. Fix: /);
    expect(fileTree(outdir)).toEqual(expectedTree('kill-swap-killed', ['team-c']));
    expect(leftovers(outdir)).toEqual([]);

    expect(synthHere(outdir, ['team-d'])).toEqual('');
    expect(fileTree(outdir)).toEqual(expectedTree('kill-swap', ['team-d']));
  });

  test('GIVEN two synths of different platforms started together THEN the tree is exactly one of them, whole (kubectl kustomize builds it), nothing left over', async () => {
    const outdir = freshOutput('race', ['team-a']);
    const platforms = [['team-b', 'team-c'], ['team-d']];
    const results = await Promise.all(platforms.map((tenants) => start({ outdir, tenants }).done));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([[0, ''], [0, '']]);
    const tree = fileTree(outdir);
    const candidates = platforms.map((tenants, i) => expectedTree(`race-${i}`, tenants));
    expect(candidates.filter((c) => JSON.stringify(c) === JSON.stringify(tree)).length).toEqual(1);
    expect(leftovers(outdir)).toEqual([]);
    if (HAS_KUBECTL) expect(kubectlKustomize(outdir).ok).toBe(true);
  });
});

describe('issue 42: the lock file (in-process)', () => {
  const lockOf = (outdir: string) => path.join(outdir, '.cdk8s-olm-tenancy-lock');

  test('GIVEN the lock of a process that no longer runs on this host THEN a synth with outputLockWait 0s breaks it and writes', () => {
    const outdir = freshOutput('stale', ['team-a']);
    // a pid that certainly ran and ended: a child that exited
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.writeFileSync(lockOf(outdir), JSON.stringify({ pid: Number(gone), hostname: os.hostname(), token: 'ab', since: 'then' }));
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, outputLockWait: '0s' });
    new ScopedOperatorTenant(new Chart(app, 'team-b'), 'Tenant', { namespaceName: 'team-b', createTokenSecret: false });
    app.synth();
    expect(Object.keys(fileTree(outdir)).filter((f) => f.startsWith('tenants/'))).toEqual(expect.arrayContaining(['tenants/team-b/namespace-team-b.yaml']));
    expect(leftovers(outdir)).toEqual([]);
  });

  test.each([
    ['another host (its processes cannot be checked)', { pid: 4242, hostname: 'build-agent-7', token: 'cd', since: '2026-01-01T00:00:00.000Z' },
      'process 4242 on build-agent-7 since 2026-01-01T00:00:00.000Z'],
    ['a file that is no lock of this library', 'not json', '(unknown: the file is not a lock of cdk8s-olm-tenancy)'],
  ])('GIVEN a lock held by %s THEN the synth is refused naming it and changes nothing', (_label, content, who) => {
    const outdir = freshOutput(`held-${_label.length}`, ['team-a']);
    const before = fileTree(outdir);
    fs.writeFileSync(lockOf(outdir), typeof content === 'string' ? content : JSON.stringify(content));
    const app = new TenancyApp({ outdir, layout: OutputLayout.GITOPS, quiet: true, outputLockWait: '0s' });
    new ScopedOperatorTenant(new Chart(app, 'team-b'), 'Tenant', { namespaceName: 'team-b', createTokenSecret: false });
    let error: any;
    try {
      app.synth();
    } catch (e) {
      error = e;
    }
    expect([error?.code, error?.message]).toEqual(['ELOCKED', `cannot write ${outdir}: another synth is writing it: ${lockOf(outdir)} is held by ${who}; `
      + `nothing in ${outdir} was changed. Fix: let that synth finish, then synthesize again (TenancyAppProps.outputLockWait waits for it); `
      + 'if no such process runs (another host, a reused pid), remove the lock file']);
    fs.rmSync(lockOf(outdir));
    expect(fileTree(outdir)).toEqual(before);
  });

  test.each([['-1s', 'it is negative'], ['soon', 'time: invalid duration "soon"']])('GIVEN outputLockWait %p THEN a synth error naming the field and the fix', (value, problem) => {
    const app = new TenancyApp({ outdir: path.join(root, 'bad-wait'), quiet: true, outputLockWait: value });
    expect(() => app.synth()).toThrow(`[TenancyApp] TenancyApp.outputLockWait=${JSON.stringify(value)}: outputLockWait must be a Go duration of at least 0s: ${problem}. `
      + "Fix: write it as e.g. '5m', '90s' or '0s' (refuse at once) (InvalidInputValue)");
  });
});
