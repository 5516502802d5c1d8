import * as path from 'path';
import { FbcValidator, FileBasedCatalog } from '../../src/fbc';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'catalogs');

/** A small FBC in YAML: package `a` with the given channels (entries as YAML flow lists) and bundles. */
function fbc(docs: string[]): FileBasedCatalog {
  return FileBasedCatalog.fromString(docs.join('\n---\n'), 'index.yaml');
}
const pkg = (name: string, def?: string) => `schema: olm.package\nname: ${name}${def ? `\ndefaultChannel: ${def}` : ''}`;
const channel = (p: string, name: string, entries: string) => `schema: olm.channel\npackage: ${p}\nname: ${name}\nentries: ${entries}`;
const bundle = (p: string, version: string, extra = '') =>
  `schema: olm.bundle\npackage: ${p}\nname: ${p}.v${version}\nimage: reg/${p}:${version}\nproperties: [{type: olm.package, value: {packageName: ${p}, version: "${version}"}}]${extra}`;
const messages = (c: FileBasedCatalog) => FbcValidator.validate(c).map((p) => p.message);

describe('FbcValidator (opm validate rules)', () => {
  test.each([
    'operator-registry/alpha/action/testdata/list-index/foo/index.yaml',
    'community-operators-prod/catalogs/v4.12/odf-node-recovery-operator/catalog.yaml',
    'community-operators-prod/catalogs/v4.21/apicurio-registry-3/catalog.yaml',
    'community-operators-prod/catalogs/v4.21/libredb-studio-operator/catalog.yaml',
    'community-operators-prod/catalogs/v4.20/kubevirt-wol/catalog.yaml',
  ])('the real sample %s is valid', (file) => {
    expect(messages(FileBasedCatalog.fromPath(path.join(FIXTURES, file)))).toEqual([]);
  });

  test('a valid linear channel with a dangling tail replaces is accepted (model.go rule 4)', () => {
    const c = fbc([pkg('a', 's'), channel('a', 's', '[{name: a.v1.1.0, replaces: a.v1.0.0}, {name: a.v1.2.0, replaces: a.v1.1.0}]'), bundle('a', '1.1.0'), bundle('a', '1.2.0')]);
    expect(messages(c)).toEqual([]);
  });

  // Cases named after operator-registry alpha/model/model_test.go and declcfg_to_model_test.go behaviours.
  test('ReplacesChain/Error/MultipleHeads', () => {
    const c = fbc([pkg('a', 's'), channel('a', 's', '[{name: a.v1.0.0}, {name: a.v1.1.0}]'), bundle('a', '1.0.0'), bundle('a', '1.1.0')]);
    expect(messages(c)).toEqual(['index.yaml:5: invalid package "a": invalid channel "s": multiple channel heads found in graph: a.v1.0.0, a.v1.1.0']);
  });

  test('ReplacesChain/Error/NoHead (cycle)', () => {
    const c = fbc([pkg('a', 's'), channel('a', 's', '[{name: a.v1.0.0, replaces: a.v1.1.0}, {name: a.v1.1.0, replaces: a.v1.0.0}]'), bundle('a', '1.0.0'), bundle('a', '1.1.0')]);
    expect(messages(c)).toEqual(['index.yaml:5: invalid package "a": invalid channel "s": no channel head found in graph']);
  });

  test('ReplacesChain/Error/Cycle below the head', () => {
    const c = fbc([
      pkg('a', 's'),
      channel('a', 's', '[{name: a.v1.2.0, replaces: a.v1.1.0}, {name: a.v1.1.0, replaces: a.v1.0.0}, {name: a.v1.0.0, replaces: a.v1.1.0}]'),
      bundle('a', '1.0.0'),
      bundle('a', '1.1.0'),
      bundle('a', '1.2.0'),
    ]);
    expect(messages(c)).toEqual([
      'index.yaml:5: invalid package "a": invalid channel "s": detected cycle in replaces chain of upgrade graph: a.v1.1.0 -> a.v1.0.0 -> a.v1.1.0',
    ]);
  });

  test('ReplacesChain/Error/StrandedBundle', () => {
    const c = fbc([
      pkg('a', 's'),
      channel('a', 's', '[{name: a.v1.2.0, replaces: a.v1.1.0, skips: [a.v1.0.5]}, {name: a.v1.1.0}, {name: a.v1.0.0, replaces: a.v0.9.0}, {name: a.v1.0.5, replaces: a.v1.0.0}]'),
      bundle('a', '1.0.0'),
      bundle('a', '1.0.5'),
      bundle('a', '1.1.0'),
      bundle('a', '1.2.0'),
    ]);
    // a.v1.0.5 is skipped, so only a.v1.0.0 (reached from nothing) is stranded
    expect(messages(c)).toEqual(['index.yaml:5: invalid package "a": invalid channel "s": channel contains one or more stranded bundles: a.v1.0.0']);
  });

  test('ReplacesChain/Success/SkippedReplacesEdgeStopsTheWalk', () => {
    // head replaces X which it also skips: the walk stops, X is skipped, not stranded
    const c = fbc([pkg('a', 's'), channel('a', 's', '[{name: a.v1.1.0, replaces: a.v1.0.0, skips: [a.v1.0.0]}, {name: a.v1.0.0}]'), bundle('a', '1.0.0'), bundle('a', '1.1.0')]);
    expect(messages(c)).toEqual([]);
  });

  test('ConvertToModel errors are all collected, each with file:line', () => {
    const c = fbc([
      pkg('a', 'missing'), // line 1
      pkg('a', 's'), // line 5 (duplicate)
      channel('nopkg', 's', '[{name: x}]'), // line 9
      channel('a', 's', '[{name: a.v1.0.0}, {name: a.v1.0.0}, {name: a.v2.0.0, replaces: a.v1.0.0}]'), // line 14
      bundle('a', '1.0.0'), // line 19
      'schema: olm.bundle\npackage: a\nname: a.vX\nimage: i\nproperties: []', // line 25
      bundle('other', '1.0.0'), // line 31
      bundle('a', '1.0.0').replace('name: a.v1.0.0', 'name: a.v1.0.0-dup').replace('image: reg/a:1.0.0\n', ''), // line 37
      bundle('a', 'v3', '').replace('name: a.vv3', 'name: a.v3'), // line 42
    ]);
    expect(messages(c)).toEqual([
      'index.yaml:5: duplicate package "a"',
      'index.yaml:9: unknown package "nopkg" for channel "s"',
      'index.yaml:14: invalid package "a", channel "s": duplicate entry "a.v1.0.0"',
      'index.yaml:25: package "a" bundle "a.vX" must have exactly 1 "olm.package" property, found 0',
      'index.yaml:25: package "a", bundle "a.vX" not found in any channel entries',
      'index.yaml:31: unknown package "other" for bundle "other.v1.0.0"',
      'index.yaml:37: invalid bundle "a.v1.0.0-dup": bundle image must be set',
      'index.yaml:37: package "a", bundle "a.v1.0.0-dup" not found in any channel entries',
      'index.yaml:42: error parsing bundle version: bundle "a.v3" has version "v3", which is not a semantic version',
      'index.yaml:42: package "a", bundle "a.v3" not found in any channel entries',
      'index.yaml:1: no olm.bundle blobs found in package "a" for olm.channel entries [a.v2.0.0]',
      'index.yaml:1: invalid package "a": invalid channel "missing": channel must contain at least one bundle',
      'index.yaml:1: invalid package "a": duplicate versions found in bundles: [{1.0.0: [a.v1.0.0, a.v1.0.0-dup]}]',
    ]);
  });

  test('a package without defaultChannel or channels', () => {
    expect(messages(fbc([pkg('a')]))).toEqual([
      'index.yaml:1: invalid package "a": default channel must be set',
      'index.yaml:1: invalid package "a": package must contain at least one channel',
    ]);
  });

  test('deprecations must reference a known package, once (declcfg_to_model.go deprecation loop)', () => {
    const c = fbc([
      pkg('a', 's'),
      channel('a', 's', '[{name: a.v1.0.0}]'),
      bundle('a', '1.0.0'),
      'schema: olm.deprecations\npackage: a\nentries: [{reference: {schema: olm.package}, message: gone}]',
      'schema: olm.deprecations\npackage: a\nentries: []',
      'schema: olm.deprecations\npackage: zzz\nentries: []',
    ]);
    expect(messages(c)).toEqual([
      'index.yaml:20: expected a maximum of one deprecation per package: "a"',
      'index.yaml:24: cannot apply deprecations to an unknown package "zzz"',
    ]);
  });

  test('deprecation entries must name existing bundles and channels, once, with a message', () => {
    const entries = [
      '{reference: {schema: olm.bundle, name: a.v1.0.0}, message: old}',
      '{reference: {schema: olm.bundle, name: a.v9.0.0}, message: m}',
      '{reference: {schema: olm.channel, name: s}, message: m}',
      '{reference: {schema: olm.channel, name: gone}, message: m}',
      '{reference: {schema: olm.channel, name: s}, message: again}',
      '{reference: {schema: olm.package, name: a}, message: m}',
      '{reference: {name: x}, message: m}',
      '{reference: {schema: olm.csv.metadata, name: x}, message: m}',
      '{reference: {schema: olm.package}}',
    ];
    const c = fbc([pkg('a', 's'), channel('a', 's', '[{name: a.v1.0.0}]'), bundle('a', '1.0.0'), `schema: olm.deprecations\npackage: a\nentries: [${entries.join(', ')}]`]);
    expect(messages(c)).toEqual([
      'index.yaml:16: cannot deprecate bundle "a.v9.0.0" for package "a": bundle not found',
      'index.yaml:16: cannot deprecate channel "gone" for package "a": channel not found',
      'index.yaml:16: duplicate deprecation entry {schema: "olm.channel", name: "s"} for package "a"',
      'index.yaml:16: package name must be empty for deprecated package "a" (specified "a")',
      'index.yaml:16: schema must be set for deprecation entry [6] for package "a"',
      'index.yaml:16: cannot deprecate object with schema "olm.csv.metadata" referenced by entry 7 for package "a": object schema unknown',
      'index.yaml:16: invalid package "a": invalid deprecation of olm.package "": message must be set',
    ]);
  });

  test('load problems come first', () => {
    const c = FileBasedCatalog.fromString('name: x\n', 'x.yaml');
    expect(FbcValidator.validate(c)).toEqual([{ message: 'x.yaml:1: blob has no "schema" field', location: { file: 'x.yaml', line: 1 } }]);
  });

  test('channelHeads and replacesChainProblem on entries', () => {
    expect(FbcValidator.channelHeads([{ name: 'b', replaces: 'a' }, { name: 'a' }, { name: 'c', skips: ['b'] }])).toEqual(['c']);
    expect(FbcValidator.replacesChainProblem([{ name: 'b', replaces: 'a' }, { name: 'a' }])).toBeUndefined();
  });
});
