/**
 * Runs Argo CD health scripts in a real Lua 5.1 interpreter (Debian's `lua5.1`; Argo CD runs gopher-lua, a Lua 5.1
 * VM), as argo-cd `util/lua/lua.go` runs them:
 * - the live object as `decodeValue` hands it over: maps become tables with string keys, lists tables indexed from 1
 *   (a JSON null in a list is skipped: gopher-lua's `Append` ignores nil), JSON null nothing, numbers Lua numbers;
 * - the libraries `runLua` opens: a script from argocd-cm (`resource.customizations.health.<group>_<kind>`, the
 *   library's) gets only `package`, the base functions, `table` and a safe `os` (`time`, `date`), unless
 *   `useOpenLibs` is set for it; Argo CD's built-in scripts get the standard libraries (`openLibs: true`). Without
 *   the string library strings have no methods either (issue 41: the interpreter had them all);
 * - a fresh state per object with the global `obj`; the returned table read back as `ExecuteHealthLua` reads it: a
 *   `status` or `message` that is no string is an error, and a status that is none of Argo CD's six is `Unknown`
 *   with "Lua returned an invalid health status".
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
  if (Array.isArray(value)) return `{${value.filter((v) => v !== null && v !== undefined).map(luaLiteral).join(', ')}}`;
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

// Runs the script once per object, each time as a fresh chunk with its own globals and `obj` (Argo CD makes a new
// state per object), with the libraries of argo-cd util/lua/lua.go runLua (arg[3] == "open": all of them); writes
// status NUL message, records separated by SOH.
const RUNNER = `
local objs = dofile(arg[2])
local script = assert(loadfile(arg[1]))
local open = arg[3] == "open"
local write, tostring, type, error, pcall, getmetatable, setfenv = io.write, tostring, type, error, pcall, getmetatable, setfenv
local BASE = { "assert", "collectgarbage", "dofile", "error", "getfenv", "getmetatable", "ipairs", "load", "loadfile",
  "loadstring", "module", "newproxy", "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawset", "require",
  "select", "setfenv", "setmetatable", "tonumber", "tostring", "type", "unpack", "xpcall", "_VERSION" }
local strings = getmetatable("")
local methods = strings.__index
for i = 1, objs.n do
  local env
  if open then
    env = setmetatable({}, { __index = _G })
  else
    env = { table = table, package = package, os = { time = os.time, date = os.date } }
    for _, name in ipairs(BASE) do env[name] = _G[name] end
    env._G = env
  end
  env.obj = objs[i]
  setfenv(script, env)
  if not open then strings.__index = nil end
  local ok, hs = pcall(script)
  strings.__index = methods
  if not ok then error(hs, 0) end
  if type(hs) ~= "table" then error("expect table output from Lua script, not " .. type(hs)) end
  if hs.status ~= nil and type(hs.status) ~= "string" then error("status is a " .. type(hs.status) .. ", not a string") end
  if hs.message ~= nil and type(hs.message) ~= "string" then error("message is a " .. type(hs.message) .. ", not a string") end
  write(hs.status or "", "\\0", hs.message or "", "\\1")
end
`;

/** Argo CD's health statuses (gitops-engine `health.HealthStatusCode`, `isValidHealthStatusCode`). */
const HEALTH_STATUSES = ['Unknown', 'Progressing', 'Suspended', 'Healthy', 'Degraded', 'Missing'];

/**
 * Runs `script` once per object in Lua 5.1, with the libraries Argo CD gives a script of argocd-cm (or all of them,
 * `openLibs`: its built-in scripts); throws with the interpreter's error when the script fails.
 */
export function runHealthScript(script: string, objs: unknown[], options: { openLibs?: boolean } = {}): LuaHealth[] {
  if (!LUA) throw new Error('lua5.1 is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lua-health-'));
  try {
    fs.writeFileSync(path.join(dir, 'runner.lua'), RUNNER);
    fs.writeFileSync(path.join(dir, 'health.lua'), script);
    // Lua source is bytes: the literal holds one char per byte of the strings' UTF-8, so it is written as latin1.
    const list = `return { n = ${objs.length}, ${objs.map(luaLiteral).join(',\n')} }\n`;
    fs.writeFileSync(path.join(dir, 'objs.lua'), Buffer.from(list, 'latin1'));
    const out = execFileSync(LUA, [path.join(dir, 'runner.lua'), path.join(dir, 'health.lua'), path.join(dir, 'objs.lua'), options.openLibs ? 'open' : 'safe'],
      { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
    return out.split('\x01').slice(0, -1).map((record) => {
      const [status, message] = record.split('\0');
      return HEALTH_STATUSES.includes(status) ? { status, message } : { status: 'Unknown', message: 'Lua returned an invalid health status' };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
