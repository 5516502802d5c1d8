/**
 * The Lua harness of the Argo CD health checks (test/util/lua.ts) runs a script as Argo CD runs one from argocd-cm
 * (argo-cd util/lua/lua.go `runLua`, `ExecuteHealthLua`, `decodeValue`), issue 41: the interpreter gave the scripts
 * every standard library, where Argo CD gives them none but base, table, package and a safe os.
 */
import { LUA, runHealthScript } from './lua';

const describeLua = LUA ? describe : describe.skip;

describeLua('runHealthScript judges as Argo CD does', () => {
  test('a script of argocd-cm has no string, math, io or debug library, and strings have no methods; a built-in one has them', () => {
    const fails = (script: string) => expect(() => runHealthScript(script, [{}])).toThrow();
    fails('return { status = string.upper("healthy") }');
    fails('return { status = ("Healthy"):lower() }');
    fails('return { status = "Healthy", message = tostring(math.floor(1.5)) }');
    fails('io.write("x"); return { status = "Healthy" }');
    fails('return { status = "Healthy", message = tostring(debug.traceback) }');
    fails('os.exit(0)');
    expect(runHealthScript('return { status = string.gsub("Xealthy", "X", "H"), message = ("m"):upper() }', [{}], { openLibs: true }))
      .toEqual([{ status: 'Healthy', message: 'M' }]);
    // what Argo CD does give: base functions, table, os.time and os.date
    expect(runHealthScript('local t = {} table.insert(t, "a") table.insert(t, tostring(type(os.time()))) '
      + 'return { status = "Healthy", message = table.concat(t, ",") }', [{}])).toEqual([{ status: 'Healthy', message: 'a,number' }]);
  });

  test('each object in a fresh state: a global set for one object is gone for the next', () => {
    expect(runHealthScript('local seen = previous; previous = obj.name; return { status = "Healthy", message = tostring(seen) }',
      [{ name: 'a' }, { name: 'b' }])).toEqual([{ status: 'Healthy', message: 'nil' }, { status: 'Healthy', message: 'nil' }]);
  });

  test('the result as ExecuteHealthLua reads it: an unknown status is Unknown, a status or message that is no string an error', () => {
    expect(runHealthScript('return { status = "Ok", message = "m" }', [{}])).toEqual([{ status: 'Unknown', message: 'Lua returned an invalid health status' }]);
    expect(runHealthScript('return { message = "m" }', [{}])).toEqual([{ status: 'Unknown', message: 'Lua returned an invalid health status' }]);
    expect(() => runHealthScript('return { status = "Healthy", message = 5 }', [{}])).toThrow(/message is a number, not a string/);
    expect(() => runHealthScript('return "Healthy"', [{}])).toThrow(/expect table output from Lua script, not string/);
  });

  test('the object as decodeValue hands it over: a null in a list is skipped (Append ignores nil), a null field is nil', () => {
    expect(runHealthScript('return { status = "Healthy", message = tostring(#obj.list) .. "," .. tostring(obj.list[2]) .. "," .. tostring(obj.gone) }',
      [{ list: ['a', null, 'c'], gone: null }])).toEqual([{ status: 'Healthy', message: '2,c,nil' }]);
  });
});
