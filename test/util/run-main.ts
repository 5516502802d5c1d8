/**
 * Runs a TypeScript `main` as a program, as `cdk8s synth` runs an app (`ts-node main.ts`): a real Node process, not
 * under jest (JEST_WORKER_ID removed), type-checking off (TS_NODE_TRANSPILE_ONLY, as the tests always ran it).
 *
 * `transpiler`: `typescript` is ts-node's default (TypeScript's transpileModule, what `cdk8s synth` and
 * `npm run synth:examples` use); `swc` is ts-node's built-in swc transpiler (`"ts-node": { "swc": true }`, the
 * transpiler jest runs every test with, @swc/jest). Loading the library through TypeScript's transpiler costs ~7 s of
 * CPU per process, through swc ~1.3 s; the process, its exit code, stdout and stderr are the same either way. Each
 * behaviour that is about the process keeps at least one test on `typescript`.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

export type MainTranspiler = 'typescript' | 'swc';

export interface MainResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A tsconfig for ts-node extending the project's, with the swc transpiler on (written once per process). */
let swcProject: string | undefined;
function swcTsconfig(): string {
  if (swcProject === undefined || !fs.existsSync(swcProject)) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-ts-node-swc-'));
    swcProject = path.join(dir, 'tsconfig.json');
    fs.writeFileSync(swcProject, JSON.stringify({ 'extends': path.join(ROOT, 'tsconfig.json'), 'ts-node': { swc: true } }));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return swcProject;
}

/** Runs the TypeScript file `file` with ts-node in `cwd`; `project` is the tsconfig ts-node reads (TS_NODE_PROJECT). */
export function runTsMain(file: string, options: { cwd: string; transpiler: MainTranspiler; project?: string; args?: string[] }): MainResult {
  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
  delete env.JEST_WORKER_ID;
  if (options.transpiler === 'swc') {
    env.TS_NODE_PROJECT = swcTsconfig();
  } else if (options.project !== undefined) {
    env.TS_NODE_PROJECT = options.project;
  }
  const r = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register'), file, ...(options.args ?? [])], { cwd: options.cwd, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `runTsMain` without waiting: the child process (swc transpiler), its arguments after the file, stdout and stderr
 * piped. For tests of processes that run at the same time (test/app/output-lock.test.ts).
 */
export function spawnTsMain(file: string, args: string[], options: { cwd: string }): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: swcTsconfig() };
  delete env.JEST_WORKER_ID;
  return spawn(process.execPath, ['-r', require.resolve('ts-node/register'), file, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}
