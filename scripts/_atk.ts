import { runCli } from '../src/cli/preflight-command';
const o = runCli(process.argv.slice(2));
process.stdout.write(o.stdout); process.stderr.write(o.stderr); console.log('exit', o.exitCode);
