/**
 * A synth as its own process, for test/app/output-lock.test.ts (issue 42: one writer at a time). Argument: JSON
 * `{ outdir, tenants, lockWait?, hook?, signals? }`. The hooks stop the synth at a chosen system call of the writer
 * (`_setOutputFsOps`), so that a test can hold it there, kill it, or make it fail, deterministically:
 *
 * - `pause-in-staging`: at the 3rd file opened (inside the staging folder, holding the lock), write `<signals>/ready`
 *   and wait until `<signals>/go` exists;
 * - `kill-in-staging`: SIGKILL itself at the 3rd file opened;
 * - `kill-in-swap`: SIGKILL itself at the 2nd rename of a staged entry into the output directory (the old entries
 *   are in the backup folder, one new entry is in place);
 * - `announce-wait`: write `<signals>/waiting` when it first waits for another synth's lock.
 *
 * Prints `done <objects>` on success; a failure prints its message to stderr and exits 1.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart } from 'cdk8s';
import { beforeEachFileMade } from './output-fs';
import { CatalogSourceReference, OutputLayout, ScopedOperatorTenant, TenancyApp } from '../../src';
import { _setLockWaitObserver } from '../../src/output/output-lock';
import { _nodeOutputFsOps, _setOutputFsOps } from '../../src/output/output-writer';

interface Args {
  readonly outdir: string;
  readonly tenants: string[];
  readonly lockWait?: string;
  readonly hook?: 'pause-in-staging' | 'kill-in-staging' | 'kill-in-swap' | 'announce-wait';
  readonly signals?: string;
}

const args: Args = JSON.parse(process.argv[2]);
const signal = (name: string) => fs.writeFileSync(path.join(args.signals!, name), `${process.pid}\n`);
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const staged = (p: string) => p.includes(`${path.sep}.cdk8s-olm-tenancy-staging-`);

let opens = 0;
let swaps = 0;
if (args.hook === 'pause-in-staging' || args.hook === 'kill-in-staging') {
  // a file made: opened, or written in one call (a new file's text: OutputFsOps.writeTextFileSync)
  const opening = () => {
    opens++;
    if (opens === 3 && args.hook === 'kill-in-staging') process.kill(process.pid, 'SIGKILL');
    if (opens === 3 && args.hook === 'pause-in-staging') {
      signal('ready');
      while (!fs.existsSync(path.join(args.signals!, 'go'))) sleep(20);
    }
  };
  _setOutputFsOps(beforeEachFileMade(opening));
}
if (args.hook === 'kill-in-swap') {
  _setOutputFsOps({
    ..._nodeOutputFsOps,
    renameSync: (from, to) => {
      // a staged entry renamed into the output directory (not a temporary file renamed inside the staging folder)
      if (staged(from) && !staged(to) && path.dirname(to) === path.resolve(args.outdir) && ++swaps === 2) process.kill(process.pid, 'SIGKILL');
      _nodeOutputFsOps.renameSync(from, to);
    },
  });
}
if (args.hook === 'announce-wait') {
  let announced = false;
  _setLockWaitObserver(() => {
    if (!announced) signal('waiting');
    announced = true;
  });
}

const app = new TenancyApp({
  outdir: args.outdir, layout: OutputLayout.GITOPS, quiet: true, report: true, ...(args.lockWait ? { outputLockWait: args.lockWait } : {}),
});
const catalog = CatalogSourceReference.fromName('curated-operators', 'olm');
for (const ns of args.tenants) {
  const t = new ScopedOperatorTenant(new Chart(app, ns), 'Tenant', { namespaceName: ns, createTokenSecret: false });
  t.subscribe({ packageName: 'etcd', channel: 'alpha', catalog });
}
try {
  app.synth();
  process.stdout.write(`done ${app.summary!.objects}\n`);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
