/**
 * One writer at a time per output directory. Two synths into the same directory (two CI jobs, a watch process beside a
 * manual run) would otherwise interleave their files and swaps. A synth holds `.cdk8s-olm-tenancy-lock` in the output
 * directory while it writes:
 *
 * - the lock file is made complete under a name of its own, then linked to the lock's name (`link(2)` fails when the
 *   name exists), so nobody ever reads half a lock; it says which process holds it (pid, host, a random token);
 * - it is removed when the synth ends, whatever the outcome (a `finally`, and an `exit` handler for `process.exit()`
 *   inside the synth); a process killed with the lock (SIGKILL, OOM, a signal: the synth is synchronous, so no handler
 *   runs) leaves it behind, and the next synth on the same host finds its pid gone and breaks it;
 * - a lock is broken only under a second lock, `.cdk8s-olm-tenancy-lock.break`, by whoever holds that, after reading the
 *   lock again: a live holder's lock is never removed by someone else, and two synths never break one lock twice (the
 *   classic race where the second breaker removes the first breaker's fresh lock);
 * - a lock held by a live process (or on another host, whose processes cannot be checked) is waited for, up to the
 *   App's `outputLockWait`, then refused with an error naming the holder: `0s` refuses at once.
 *
 * Internal, not re-exported.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OutputWriteError } from './output-writer';

/** The lock's file name in the output directory. */
export const LOCK_FILE = '.cdk8s-olm-tenancy-lock';
/** The lock that must be held to break a stale lock. */
export const BREAK_FILE = `${LOCK_FILE}.break`;

/** Who holds a lock, as its file says. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly token: string;
  readonly since: string;
}

/** A lock held by this process; `release()` removes it (once). */
export interface HeldLock {
  readonly file: string;
  readonly holder: LockHolder;
  release(): void;
}

/** How long to wait for a lock held by a live process (milliseconds; 0: refuse at once). */
export interface LockOptions {
  readonly waitMilliseconds: number;
}

/** The default `outputLockWait`: long enough for a synth of thousands of tenants, short enough for a stuck CI job. */
export const DEFAULT_LOCK_WAIT = '5m';

const POLL_MS = 50;
const MAX_POLL_MS = 500;

/**
 * Takes the lock of `outdir` (an existing directory): breaks a stale lock of a dead process of this host, waits for a
 * live holder up to `options.waitMilliseconds`, then throws an `OutputWriteError` (code `ELOCKED`) naming the holder.
 */
export function acquireOutputLock(outdir: string, options: LockOptions): HeldLock {
  const file = path.join(outdir, LOCK_FILE);
  const holder: LockHolder = { pid: process.pid, hostname: os.hostname(), token: crypto.randomBytes(12).toString('hex'), since: new Date().toISOString() };
  const deadline = Date.now() + Math.max(0, options.waitMilliseconds);
  let pause = POLL_MS;
  for (;;) {
    if (tryCreate(file, holder)) return held(file, holder);
    const current = readHolder(file);
    if (current === undefined) continue; // released (or broken) between the two calls: try again at once
    if (isDead(current)) {
      breakStale(outdir, file, current);
      continue;
    }
    if (Date.now() >= deadline) throw lockedError(outdir, file, current, options.waitMilliseconds);
    waitObserver?.(current);
    sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}

/** Reads the holder of a lock file; undefined when there is none. A file that is no lock of ours is reported as is. */
export function readHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as any)?.code === 'ENOENT') return undefined;
    throw lockError(e, file);
  }
  try {
    const o = JSON.parse(text);
    if (typeof o?.pid === 'number' && typeof o?.hostname === 'string' && typeof o?.token === 'string') {
      return { pid: o.pid, hostname: o.hostname, token: o.token, since: String(o.since ?? '') };
    }
  } catch {
    // below
  }
  // never written by this library (written whole, then linked): someone else's file; do not break it
  return { pid: -1, hostname: '(unknown: the file is not a lock of cdk8s-olm-tenancy)', token: '', since: '' };
}

/** Creates the lock file complete, atomically: written under a private name, then linked to `file` (EEXIST: taken). */
function tryCreate(file: string, holder: LockHolder): boolean {
  const own = `${file}.${holder.pid}.${holder.token}`;
  try {
    fs.writeFileSync(own, `${JSON.stringify(holder)}\n`, { flag: 'wx', mode: 0o644 });
    try {
      fs.linkSync(own, file);
      return true;
    } catch (e) {
      if ((e as any)?.code === 'EEXIST') return false;
      throw e;
    } finally {
      fs.rmSync(own, { force: true });
    }
  } catch (e) {
    throw lockError(e, file);
  }
}

/** The held lock: released once, by the `finally` of the synth or at `process.exit()`. */
function held(file: string, holder: LockHolder): HeldLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // only our own lock: a lock is broken only when its holder is dead, so it is ours unless someone removed it by hand
    if (readHolderQuietly(file)?.token === holder.token) fs.rmSync(file, { force: true });
  };
  process.once('exit', release);
  return { file, holder, release };
}

function readHolderQuietly(file: string): LockHolder | undefined {
  try {
    return readHolder(file);
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder is certainly gone: a process of this host that no longer exists (`kill(pid, 0)` fails with
 * ESRCH; EPERM means it exists under another user). A holder on another host is never taken for dead.
 */
function isDead(h: LockHolder): boolean {
  return h.hostname === os.hostname() && processGone(h.pid);
}

/** Whether no process `pid` exists on this host (`kill(pid, 0)` fails with ESRCH; EPERM: it exists, another user's). */
export function processGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as any)?.code === 'ESRCH';
  }
}

/**
 * Removes `stale` (the lock of a dead process) under the break lock, after reading the lock again: only the lock that
 * was found stale is removed, never a live holder's that replaced it meanwhile. A break lock left by a process killed
 * while breaking (a window of a few system calls) is broken the same way when its holder is dead.
 */
function breakStale(outdir: string, file: string, stale: LockHolder): void {
  const breaker = path.join(outdir, BREAK_FILE);
  const me: LockHolder = { pid: process.pid, hostname: os.hostname(), token: crypto.randomBytes(12).toString('hex'), since: new Date().toISOString() };
  if (!tryCreate(breaker, me)) {
    const other = readHolder(breaker);
    if (other !== undefined && isDead(other)) {
      // the breaker died while breaking: its break lock is stale in turn; only a removal that finds exactly that file
      // succeeds (renamed away, then compared)
      const aside = `${breaker}.${me.pid}.${me.token}`;
      try {
        fs.renameSync(breaker, aside);
        const moved = readHolder(aside);
        if (moved?.token !== other.token) fs.linkSync(aside, breaker); // a live breaker's: put back
      } catch {
        // someone else cleaned it up: retry from the start
      } finally {
        fs.rmSync(aside, { force: true });
      }
    }
    return; // another process breaks it; the caller retries
  }
  try {
    const again = readHolder(file);
    if (again !== undefined && again.token === stale.token && isDead(again)) fs.rmSync(file, { force: true });
  } catch (e) {
    throw lockError(e, file);
  } finally {
    if (readHolderQuietly(breaker)?.token === me.token) fs.rmSync(breaker, { force: true });
  }
}

function lockedError(outdir: string, file: string, h: LockHolder, waited: number): OutputWriteError {
  const who = h.pid > 0 ? `process ${h.pid} on ${h.hostname}${h.since ? ` since ${h.since}` : ''}` : h.hostname;
  const waitedText = waited > 0 ? ` (waited ${Math.round(waited / 1000)} s)` : '';
  return new OutputWriteError(`cannot write ${outdir}: another synth is writing it: ${file} is held by ${who}${waitedText}; `
    + `nothing in ${outdir} was changed. Fix: let that synth finish, then synthesize again (TenancyAppProps.outputLockWait waits for it); `
    + 'if no such process runs (another host, a reused pid), remove the lock file', 'ELOCKED');
}

function lockError(e: unknown, file: string): OutputWriteError {
  if (e instanceof OutputWriteError) return e;
  const code = String((e as any)?.code ?? 'EUNKNOWN');
  return new OutputWriteError(`cannot write ${file}: ${code} (${String((e as any)?.message ?? e)}); nothing in ${path.dirname(file)} was changed. `
    + 'Fix: make the output directory writable by this user, then synthesize again', code);
}

/** Blocks the (synchronous) synth for `ms` milliseconds without spinning. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

let waitObserver: ((holder: LockHolder) => void) | undefined;

/**
 * Called each time a synth waits for a live holder's lock (tests observe the wait through it; `undefined`: nobody).
 * @internal
 */
export function _setLockWaitObserver(observer: ((holder: LockHolder) => void) | undefined): void {
  waitObserver = observer;
}
