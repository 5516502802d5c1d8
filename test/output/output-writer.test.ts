/**
 * Issue 38: the GitOps layout's staging folder is written without a rename per file. No one reads the staging folder
 * before it is swapped in whole, so `OutputWriter` with `staging: true` creates each file in place
 * (`O_CREAT | O_EXCL | O_NOFOLLOW`); when anything is already there it falls back to a temporary file and a rename,
 * which replaces a link instead of writing through it, as everywhere else.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { _nodeOutputFsOps, _setOutputFsOps, OutputFsOps, OutputWriteError, OutputWriter } from '../../src/output/output-writer';
import { diskTree } from '../util/files';

/** Node's calls, counted by name; `fail` makes a call of that name throw `code`. */
function counting(fail?: { name: keyof OutputFsOps; code: string }): { ops: OutputFsOps; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const ops = Object.fromEntries(Object.keys(_nodeOutputFsOps).map((name) => [name, (...args: any[]) => {
    calls[name] = (calls[name] ?? 0) + 1;
    if (fail?.name === name) throw Object.assign(new Error(`${fail.code}: simulated`), { code: fail.code, syscall: name, errno: -1 });
    return (_nodeOutputFsOps as any)[name](...args);
  }])) as unknown as OutputFsOps;
  return { ops, calls };
}

describe('OutputWriter in a staging folder (issue 38)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-writer-'));
  });
  afterEach(() => {
    _setOutputFsOps(undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('GIVEN a fresh staging folder THEN files and folders are created in place: one open, write and close each, no rename, no lstat', () => {
    const { ops, calls } = counting();
    _setOutputFsOps(ops);
    const out = new OutputWriter(path.join(tmp, 'staging'), { staging: true });
    out.write('tenants/team-a/namespace-team-a.yaml', 'a\n');
    out.write('tenants/team-a/role-team-a.yaml', 'b\n');
    out.write('kustomization.yaml', 'c\n');
    expect(calls).toEqual({ mkdirSync: 2, writeTextFileSync: 3 });
    expect(diskTree(path.join(tmp, 'staging'))).toEqual({
      'kustomization.yaml': 'c\n', 'tenants/': '', 'tenants/team-a/': '', 'tenants/team-a/namespace-team-a.yaml': 'a\n', 'tenants/team-a/role-team-a.yaml': 'b\n',
    });
  });

  test('GIVEN the same file written twice THEN the second goes through a temporary file and a rename, and wins', () => {
    const out = new OutputWriter(path.join(tmp, 'staging'), { staging: true });
    out.write('a.yaml', 'first\n');
    const { ops, calls } = counting();
    _setOutputFsOps(ops);
    out.write('a.yaml', 'second\n');
    expect(calls.renameSync).toEqual(1);
    expect(diskTree(path.join(tmp, 'staging'))).toEqual({ 'a.yaml': 'second\n' });
  });

  test('GIVEN a link where a staged file goes THEN the link is replaced by the file and its target is untouched', () => {
    const staging = path.join(tmp, 'staging');
    fs.mkdirSync(staging);
    fs.writeFileSync(path.join(tmp, 'target.txt'), 'keep\n');
    fs.symlinkSync(path.join(tmp, 'target.txt'), path.join(staging, 'WARNINGS.txt'));
    new OutputWriter(staging, { staging: true }).write('WARNINGS.txt', 'no warnings\n');
    expect(fs.lstatSync(path.join(staging, 'WARNINGS.txt')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(staging, 'WARNINGS.txt'), 'utf8')).toEqual('no warnings\n');
    expect(fs.readFileSync(path.join(tmp, 'target.txt'), 'utf8')).toEqual('keep\n');
  });

  test('GIVEN a link where a staged folder goes THEN it is refused by name, nothing written through it', () => {
    const staging = path.join(tmp, 'staging');
    fs.mkdirSync(path.join(tmp, 'elsewhere'));
    fs.mkdirSync(staging);
    fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(staging, 'tenants'));
    expect(() => new OutputWriter(staging, { staging: true }).write('tenants/team-a/a.yaml', 'a\n')).toThrow(/cannot write into tenants below .*: it is a symbolic link/);
    expect(fs.readdirSync(path.join(tmp, 'elsewhere'))).toEqual([]);
  });

  test('GIVEN a write that fails (ENOSPC) THEN an OutputWriteError naming the file, and no partial file is left', () => {
    const staging = path.join(tmp, 'staging');
    const out = new OutputWriter(staging, { staging: true });
    out.mkdir('');
    _setOutputFsOps(counting({ name: 'writeTextFileSync', code: 'ENOSPC' }).ops);
    let error: unknown;
    try {
      out.write('a.yaml', 'a\n');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputWriteError);
    expect((error as Error).message).toEqual(`cannot write ${path.join(staging, 'a.yaml')}: ENOSPC (no space left on the device). Fix: free space on the file system of the output directory, then synthesize again`);
    expect(fs.readdirSync(staging)).toEqual([]);
  });

  test('GIVEN text written in one call that fails after the open THEN the file it made is removed; without the one-call op, open, write and close', () => {
    const staging = path.join(tmp, 'staging');
    const out = new OutputWriter(staging, { staging: true });
    out.mkdir('');
    _setOutputFsOps({
      ..._nodeOutputFsOps,
      writeTextFileSync: (p, text, mode) => {
        _nodeOutputFsOps.writeTextFileSync!(p, text.slice(0, 2), mode);
        throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC', syscall: 'write', errno: -28 });
      },
    });
    expect(() => out.write('a.yaml', 'abc\n')).toThrow(`cannot write ${path.join(staging, 'a.yaml')}: ENOSPC (no space left on the device)`);
    expect(fs.readdirSync(staging)).toEqual([]);
    const { ops, calls } = counting();
    delete (ops as any).writeTextFileSync;
    _setOutputFsOps(ops);
    out.write('b.yaml', 'héllo ✓\n');
    expect(calls).toEqual({ openSync: 1, writeSync: 1, closeSync: 1 });
    expect(fs.readFileSync(path.join(staging, 'b.yaml'), 'utf8')).toEqual('héllo ✓\n');
  });

  test('GIVEN a writer outside a staging folder THEN every file still goes through a temporary file and a rename', () => {
    const { ops, calls } = counting();
    _setOutputFsOps(ops);
    const out = new OutputWriter(path.join(tmp, 'dist'));
    out.write('a.yaml', 'a\n');
    out.write('b.yaml', 'b\n');
    expect(calls.renameSync).toEqual(2);
    expect(diskTree(path.join(tmp, 'dist'))).toEqual({ 'a.yaml': 'a\n', 'b.yaml': 'b\n' });
  });
});
