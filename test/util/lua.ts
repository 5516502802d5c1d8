/**
 * Runs Argo CD health scripts in a real Lua 5.1 interpreter (Debian's `lua5.1`; Argo CD runs gopher-lua, a Lua 5.1
 * VM). The live object is handed over as Argo CD does (argo-cd `util/lua/lua.go`, `decodeValue`): maps become tables
 * with string keys, lists tables indexed from 1, JSON null nothing, numbers Lua numbers; the script runs with the
 * global `obj` and its returned table is read back.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The interpreter, or undefined when it is not installed (CI installs it: .ci/run). */
export const LUA: string | undefined = (() => {
  for (const bin of ['lua5.1', 'lua51']) {
    const r = spawnSync(bin, ['-v'], { encoding: 'utf8' });
    if (r.status === 0 && /Lua 5\.1/.test(`${r.stdout}${r.stderr}`)) return bin;
  }
  return undefined;
})();

/** A Lua 5.1 literal of a JSON value (strings byte by byte, with decimal escapes for every control byte). */
export function luaLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    let out = '"';
    for (const byte of Buffer.from(value, 'utf8')) {
      if (byte === 0x22) out += '\\"';
      else if (byte === 0x5c) out += '\\\\';
      else if (byte < 0x20 || byte === 0x7f) out += `\\${String(byte).padStart(3, '0')}`;
      else out += String.fromCharCode(byte);
    }
    // One char per byte (latin1): the caller writes the literal as latin1, so the bytes are the string's UTF-8.
    return `${out}"`;
  }
  if (Array.isArray(value)) return `{${value.map(luaLiteral).join(', ')}}`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as object)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `[${luaLiteral(k)}] = ${luaLiteral(v)}`).join(', ')}}`;
  }
  throw new Error(`not a JSON value: ${typeof value}`);
}

/** What a health script returned. */
export interface LuaHealth {
  readonly status: string;
  readonly message: string;
}

// Runs the script once per object, each time as a fresh chunk with the global `obj` (as Argo CD does per object);
// writes status NUL message, records separated by SOH.
const RUNNER = `
local objs = dofile(arg[2])
local script = assert(loadfile(arg[1]))
for i = 1, objs.n do
  obj = objs[i]
  local hs = script()
  if type(hs) ~= "table" then error("the script returned " .. type(hs) .. ", not a table") end
  io.write(tostring(hs.status), "\\0", tostring(hs.message), "\\1")
end
`;

/** Runs `script` once per object in Lua 5.1; throws with the interpreter's error when the script fails. */
export function runHealthScript(script: string, objs: unknown[]): LuaHealth[] {
  if (!LUA) throw new Error('lua5.1 is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lua-health-'));
  try {
    fs.writeFileSync(path.join(dir, 'runner.lua'), RUNNER);
    fs.writeFileSync(path.join(dir, 'health.lua'), script);
    // Lua source is bytes: the literal holds one char per byte of the strings' UTF-8, so it is written as latin1.
    const list = `return { n = ${objs.length}, ${objs.map(luaLiteral).join(',\n')} }\n`;
    fs.writeFileSync(path.join(dir, 'objs.lua'), Buffer.from(list, 'latin1'));
    const out = execFileSync(LUA, [path.join(dir, 'runner.lua'), path.join(dir, 'health.lua'), path.join(dir, 'objs.lua')],
      { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
    return out.split('\x01').slice(0, -1).map((record) => {
      const [status, message] = record.split('\0');
      return { status, message };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
