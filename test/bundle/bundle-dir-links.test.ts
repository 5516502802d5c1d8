/**
 * OperatorBundle.fromDirectory reads only regular files inside the bundle directory (issue 15 item 5): a link that
 * resolves outside it (a credentials file, /proc/self/environ) and special files are refused, and nothing of their
 * target is quoted. The CLI tests (test/cli/preflight-command.test.ts) show the same through the command line.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OperatorBundle } from '../../src';
import { DEMO_CSV } from '../util/demo-csv';

let tmp: string;
let dir: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-links-'));
  dir = path.join(tmp, 'bundle');
  fs.mkdirSync(path.join(dir, 'manifests'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifests', 'csv.yaml'), DEMO_CSV);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const outside = (link: string) => new Error(`OperatorBundle: ${link}: is a symbolic link that resolves outside the bundle directory `
  + `'${fs.realpathSync(dir)}'; the loader reads only files inside the bundle. Fix: copy the file into the bundle instead of linking it`);

test('a link to a file outside the bundle is refused, its content never quoted (it would be a skipped non-object file)', () => {
  fs.writeFileSync(path.join(tmp, 'credentials'), 'aws_secret_access_key = SECRET-VALUE\n');
  const link = path.join(dir, 'manifests', 'creds.yaml');
  fs.symlinkSync(path.join('..', '..', 'credentials'), link);
  expect(() => OperatorBundle.fromDirectory(dir)).toThrow(outside(link));
});

test('a link to /proc/self/environ (a file of size 0 that is not empty) is refused', () => {
  const link = path.join(dir, 'manifests', 'env.yaml');
  fs.symlinkSync('/proc/self/environ', link);
  expect(() => OperatorBundle.fromDirectory(dir)).toThrow(outside(link));
});

test('a FIFO is refused without being opened', () => {
  const fifo = path.join(dir, 'manifests', 'pipe.yaml');
  execFileSync('mkfifo', [fifo]);
  expect(() => OperatorBundle.fromDirectory(dir)).toThrow(new Error(
    `OperatorBundle: ${fifo}: is not a regular file (a FIFO, socket or device); a bundle holds only files. Fix: remove it from the bundle`));
});

test('a bundle directory given through a link, and links inside the bundle, are read', () => {
  fs.mkdirSync(path.join(dir, 'extra'));
  fs.writeFileSync(path.join(dir, 'extra', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: linked\n');
  fs.symlinkSync(path.join('..', 'extra', 'cm.yaml'), path.join(dir, 'manifests', 'cm.yaml'));
  fs.symlinkSync(dir, path.join(tmp, 'alias'));
  const b = OperatorBundle.fromDirectory(path.join(tmp, 'alias'));
  expect(b.name).toBe('demo.v1.0.0');
  expect(b.objects.map((o) => `${o.kind}/${o.name}`)).toEqual(['ConfigMap/linked']);
});
