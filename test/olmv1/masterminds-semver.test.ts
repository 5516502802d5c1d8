/**
 * Masterminds/semver v3's own test tables (test/fixtures/masterminds-semver/*.go, read here as Go literals, not
 * transcribed) run on the port in src/olmv1/masterminds-semver.ts, under upstream's test names.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { isX, MastermindsConstraint, MastermindsConstraints, MastermindsVersion, rewriteRange, VALID_CONSTRAINT_REGEX, VALID_CONSTRAINT_UPSTREAM_SOURCE } from '../../src/olmv1/masterminds-semver';

const DIR = path.join(__dirname, '..', 'fixtures', 'masterminds-semver');

type GoValue = string | boolean | number | null;

/** The body of `func <name>(` up to the next top-level func. */
function goFunc(file: string, name: string): string {
  const text = fs.readFileSync(path.join(DIR, file), 'utf8');
  const start = text.indexOf(`\nfunc ${name}(`);
  if (start < 0) throw new Error(`${name} not in ${file}`);
  const end = text.indexOf('\nfunc ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The Go literal rows `{a, b, c},` of the table that follows `marker` (e.g. `tests := []struct`) in `body`. */
function goTable(body: string, marker = 'tests := []struct', nth = 0): GoValue[][] {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = body.indexOf(marker, at + 1);
  if (at < 0) throw new Error(`no table ${marker}`);
  const open = body.indexOf('}{', at) + 2;
  const rows: GoValue[][] = [];
  let i = open;
  // walk the rows until the closing brace of the table
  for (;;) {
    while (/\s|,/.test(body[i])) i++;
    if (body.startsWith('//', i)) { i = body.indexOf('\n', i); continue; }
    if (body[i] === '}') break;
    if (body[i] !== '{') throw new Error(`unexpected ${body.slice(i, i + 30)}`);
    i++;
    const row: GoValue[] = [];
    for (;;) {
      while (/\s|,/.test(body[i])) i++;
      if (body.startsWith('//', i)) { i = body.indexOf('\n', i); continue; }
      if (body[i] === '}') { i++; break; }
      if (body[i] === '"') {
        let j = i + 1;
        while (body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
        row.push(JSON.parse(body.slice(i, j + 1)));
        i = j + 1;
      } else if (body[i] === '`') {
        const j = body.indexOf('`', i + 1);
        row.push(body.slice(i + 1, j));
        i = j + 1;
      } else {
        const m = /^[-A-Za-z0-9_.]+/.exec(body.slice(i))!;
        const w = m[0];
        row.push(w === 'true' ? true : w === 'false' ? false : w === 'nil' ? null : /^-?\d+$/.test(w) ? Number(w) : w);
        i += w.length;
      }
    }
    rows.push(row);
  }
  return rows;
}

const errorOf = (f: () => unknown): string | undefined => {
  try { f(); return undefined; } catch (e) { return (e as Error).message; }
};

describe('Masterminds/semver v3 constraints_test.go', () => {
  test('TestParseConstraint', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestParseConstraint'));
    expect(rows.length).toBe(11);
    for (const [input, f, v, err] of rows as [string, string, string, boolean][]) {
      const e = errorOf(() => MastermindsConstraint.parse(input));
      expect([input, e !== undefined]).toEqual([input, err]);
      if (err) continue;
      const c = MastermindsConstraint.parse(input);
      expect([input, c.con.toString(), c.func]).toEqual([input, v, f]);
    }
  });

  test('TestConstraintCheck', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestConstraintCheck'));
    expect(rows.length).toBe(118);
    for (const [constraint, version, check] of rows as [string, string, boolean][]) {
      const c = MastermindsConstraint.parse(constraint);
      const v = MastermindsVersion.parse(version);
      expect([constraint, version, c.check(v, c.con.prerelease !== '') === undefined]).toEqual([constraint, version, check]);
    }
  });

  test('TestNewConstraint', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestNewConstraint'));
    expect(rows.length).toBe(19);
    for (const [input, ors, count, err] of rows as [string, number, number, boolean][]) {
      const e = errorOf(() => MastermindsConstraints.parse(input));
      expect([input, e !== undefined]).toEqual([input, err]);
      if (err) continue;
      const c = MastermindsConstraints.parse(input);
      expect([input, c.groups.length, c.groups[0].length]).toEqual([input, ors, count]);
    }
  });

  for (const [name, include, count] of [['TestConstraintsCheck', false, 126], ['TestConstraintsCheckIncludePrerelease', true, 130]] as const) {
    test(name, () => {
      const rows = goTable(goFunc('constraints_test.go', name));
      expect(rows.length).toBe(count);
      for (const [constraint, version, check] of rows as [string, string, boolean][]) {
        const c = MastermindsConstraints.parse(constraint);
        c.includePrerelease = include;
        expect([constraint, version, c.check(MastermindsVersion.parse(version))]).toEqual([constraint, version, check]);
      }
    });
  }

  test('TestRewriteRange', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestRewriteRange'));
    expect(rows.length).toBe(5);
    for (const [c, nc] of rows as [string, string][]) expect([c, rewriteRange(c)]).toEqual([c, nc]);
  });

  test('TestIsX', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestIsX'));
    expect(rows).toEqual([['A', false], ['%', false], ['X', true], ['x', true], ['*', true]]);
    for (const [t, c] of rows as [string, boolean][]) expect([t, isX(t)]).toEqual([t, c]);
  });

  for (const [name, include, count, count2] of [['TestConstraintsValidate', false, 71, 36], ['TestConstraintsValidateIncludePrerelease', true, 79, 39]] as const) {
    test(name, () => {
      const body = goFunc('constraints_test.go', name);
      const rows = goTable(body);
      expect(rows.length).toBe(count);
      for (const [constraint, version, check] of rows as [string, string, boolean][]) {
        const c = MastermindsConstraints.parse(constraint);
        c.includePrerelease = include;
        const r = c.validate(MastermindsVersion.parse(version));
        expect([constraint, version, r.ok]).toEqual([constraint, version, check]);
      }
      // upstream: Validate on 1.2.3 with an impossible constraint gives a message
      const messages = goTable(body, 'tests2 := []struct');
      expect(messages.length).toBe(count2);
      for (const [constraint, version, msg] of messages as [string, string, string][]) {
        const c = MastermindsConstraints.parse(constraint);
        c.includePrerelease = include;
        const r = c.validate(MastermindsVersion.parseStrict(version));
        expect([constraint, version, r.reasons[0]]).toEqual([constraint, version, msg]);
      }
    });
  }

  test('TestConstraintString', () => {
    const rows = goTable(goFunc('constraints_test.go', 'TestConstraintString'));
    expect(rows.length).toBe(6);
    for (const [constraint, st] of rows as [string, string][]) {
      const s = MastermindsConstraints.parse(constraint).toString();
      expect([constraint, s, MastermindsConstraints.problem(s)]).toEqual([constraint, st, undefined]);
    }
  });

  test('FuzzNewConstraint (as a property): parsing never throws anything but upstream\'s errors', () => {
    const chars = fc.constantFrom(...'0123456789.xX*vV-+ ,|=!<>~^\tab'.split(''));
    fc.assert(fc.property(fc.array(chars, { maxLength: 30 }).map((a) => a.join('')), (s) => {
      const e = MastermindsConstraints.problem(s);
      return e === undefined || /^improper constraint: "/.test(e) || e === 'constraint parser error';
    }), { seed: 27, numRuns: 3000 });
  });
});

describe('the port\'s regexes', () => {
  test('validConstraintRegex without backtracking blow-up accepts exactly upstream\'s language (property, fixed seed)', () => {
    const upstream = new RegExp(VALID_CONSTRAINT_UPSTREAM_SOURCE);
    // NewConstraint validates each `||` segment: generate segments (no `||`)
    const token = fc.constantFrom('1', '2.0', '1.2.3', 'x', '1.x', '*', 'v1.2', '1.2.3-rc.1', '1.0.0+b.1', '1|2', '>=', '>', '<', '<=', '=', '!=', '~', '~>', '^', '=>', '=<',
      ' ', '  ', '\t', ',', ', ', ' ,', '-', '.', 'a', '\u00a0', '\v');
    const text = fc.array(token, { maxLength: 9 }).map((a) => a.join(''));
    let accepted = 0;
    fc.assert(fc.property(text, (t) => {
      if (upstream.test(t)) accepted++;
      return VALID_CONSTRAINT_REGEX.test(t) === upstream.test(t);
    }), { seed: 2727, numRuns: 5000 });
    expect(accepted).toBeGreaterThan(300); // both sides of the language are exercised
  });

  test('a long text of spaced numbers is refused at once (the upstream regex backtracks for minutes in JavaScript)', () => {
    const t = '1' + '     1'.repeat(10) + '!';
    expect(MastermindsConstraints.problem(t)).toBe(`improper constraint: ${JSON.stringify(t)}`);
  });

  test('the attack of issue 27: `>=1,1.0.0 <2.0.0` is `>=1 AND =1.0.0 AND <2.0.0`, which matches 1.0.0 only', () => {
    const c = MastermindsConstraints.parse('>=1,1.0.0 <2.0.0');
    expect(c.toString()).toBe('>=1 1.0.0 <2.0.0');
    expect(['0.9.0', '1.0.0', '1.0.1', '1.2.0', '11.0.0'].map((v) => c.check(MastermindsVersion.parse(v)))).toEqual([false, true, false, false, false]);
  });
});

describe('Masterminds/semver v3 version_test.go', () => {
  test('TestStrictNewVersion', () => {
    const rows = goTable(goFunc('version_test.go', 'TestStrictNewVersion'));
    expect(rows.length).toBe(50);
    for (const [version, err] of rows as [string, boolean][]) {
      expect([version, errorOf(() => MastermindsVersion.parseStrict(version)) !== undefined]).toEqual([version, err]);
    }
  });

  test('TestNewVersion (With loose NewVersion: CoerceNewVersion, the default)', () => {
    // the first t.Run table ("With loose NewVersion"); the others set CoerceNewVersion = false
    const rows = goTable(goFunc('version_test.go', 'TestNewVersion'));
    expect(rows.length).toBe(44);
    for (const [version, err] of rows as [string, boolean][]) {
      expect([version, errorOf(() => MastermindsVersion.parse(version)) !== undefined]).toEqual([version, err]);
    }
  });

  test('TestCompare', () => {
    const rows = goTable(goFunc('version_test.go', 'TestCompare'));
    expect(rows.length).toBe(19);
    for (const [a, b, want] of rows as [string, string, number][]) {
      expect([a, b, MastermindsVersion.parse(a).compare(MastermindsVersion.parse(b))]).toEqual([a, b, want]);
    }
  });

  test('TestEqual: build metadata is not compared', () => {
    const rows = goTable(goFunc('version_test.go', 'TestEqual').replace(/MustParse\(("[^"]*")\)/g, '$1'));
    expect(rows.length).toBe(7);
    // Go's Equal on nil pointers: nil == nil, nil != a version
    const eq = (a: string | null, b: string | null) =>
      a === null || b === null ? a === b : MastermindsVersion.parse(a).equals(MastermindsVersion.parse(b));
    for (const [a, b, want] of rows as [string | null, string | null, boolean][]) expect([a, b, eq(a, b)]).toEqual([a, b, want]);
  });
});
