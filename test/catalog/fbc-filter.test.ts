import * as path from 'path';
import fc from 'fast-check';
import * as semver from 'semver';
import { CuratedPackage, FbcFilter, FbcValidator, FbcWriter, FileBasedCatalog } from '../../src/fbc';
import { FbcSchema } from '../../src/fbc/fbc-types';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'catalogs');
const APICURIO = FileBasedCatalog.fromPath(path.join(FIXTURES, 'community-operators-prod/catalogs/v4.21/apicurio-registry-3/catalog.yaml'));
const ALL = FileBasedCatalog.fromPath(FIXTURES);
const A = 'apicurio-registry-3';
const v = (x: string) => `${A}.v${x}`;

describe('FbcFilter on the real samples', () => {
  test('everything allowed keeps the catalog as it is', () => {
    // GIVEN every package of the samples, without restriction
    const packages = ALL.packageNames.map((name) => ({ name }));
    // WHEN
    const r = FbcFilter.filter(ALL, packages);
    // THEN
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([]);
    expect(r.catalog.blobs).toEqual(ALL.blobs);
  });

  test('only listed packages remain', () => {
    const r = FbcFilter.filter(ALL, [{ name: 'kubevirt-wol' }]);
    expect(r.catalog.packageNames).toEqual(['kubevirt-wol']);
    expect(r.catalog.blobs.map((b) => `${b.schema} ${b.content.name}`)).toEqual([
      'olm.package kubevirt-wol',
      'olm.channel candidate-v0',
      'olm.channel fast-v0',
      'olm.channel stable-v0',
      'olm.bundle kubevirt-wol.v0.0.2',
    ]);
  });

  test('unknown packages and channels are problems naming the choices', () => {
    const r = FbcFilter.filter(ALL, [{ name: 'etcd' }, { name: 'kubevirt-wol', channels: [{ name: 'stable' }] }]);
    expect(r.problems.map((p) => p.message)).toEqual([
      'package "etcd" is not in the catalog; it has: "apicurio-registry-3", "foo", "kubevirt-wol", "libredb-studio-operator", "odf-node-recovery-operator"',
      'package "kubevirt-wol" has no channel "stable"; its channels: "candidate-v0", "fast-v0", "stable-v0"',
      'package "kubevirt-wol": nothing remains after filtering (check its channels and versionRange)',
    ]);
    expect(r.catalog.blobs).toEqual([]);
  });

  test('a range that cuts a channel: one head remains, edges stay within what remains or dangle at the tail', () => {
    // GIVEN channel 3.x is a linear chain 3.3.1 -> 3.3.0 -> 3.2.5 -> ... -> 3.0.7 (fixture lines 35-75)
    const pkg: CuratedPackage = { name: A, channels: [{ name: '3.x' }], versionRange: '>=3.1.0 <3.2.3' };
    // WHEN
    const r = FbcFilter.filter(APICURIO, [pkg]);
    // THEN
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([]);
    const entries = r.catalog.channelEntries(A, '3.x');
    expect(entries).toEqual([
      { name: v('3.2.2'), replaces: v('3.2.1') },
      { name: v('3.2.1'), replaces: v('3.2.0') },
      { name: v('3.2.0'), replaces: v('3.1.7') },
      { name: v('3.1.7'), replaces: v('3.1.6') },
      { name: v('3.1.6'), replaces: v('3.1.4') },
      { name: v('3.1.4'), replaces: v('3.1.3') },
      { name: v('3.1.3'), replaces: v('3.1.1') },
      { name: v('3.1.1'), replaces: v('3.1.0') },
      // the tail keeps its edge to the removed 3.0.15: OLM uses it to upgrade an installed 3.0.15
      { name: v('3.1.0'), replaces: v('3.0.15') },
    ]);
    expect(FbcValidator.channelHeads(entries)).toEqual([v('3.2.2')]);
    expect(r.catalog.channelNames(A)).toEqual(['3.x']);
    expect(r.catalog.defaultChannel(A)).toEqual('3.x');
    expect(r.catalog.bundleNames(A)).toEqual(entries.map((e) => e.name).sort());
    expect(FbcValidator.validate(r.catalog)).toEqual([]);
  });

  test('a non-contiguous range: only the part reachable from the highest head is kept, and that is reported', () => {
    // GIVEN 3.0.7 and 3.0.8 are in range, but only linked to 3.3.x through the removed 3.0.9 ... 3.2.5
    const r = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.x' }], versionRange: '<3.0.9 || >=3.3.0' }]);
    // THEN
    expect(r.problems).toEqual([]);
    expect(r.catalog.channelEntries(A, '3.x')).toEqual([
      { name: v('3.3.1'), replaces: v('3.3.0') },
      { name: v('3.3.0'), replaces: v('3.2.5') },
    ]);
    expect(r.notes).toEqual([
      `package "${A}" channel "3.x": ${v('3.0.7')}, ${v('3.0.8')} removed: in range but not reachable from the channel head "${v('3.3.1')}" once the range cut the upgrade graph`,
    ]);
    expect(FbcValidator.validate(r.catalog)).toEqual([]);
  });

  test('default channel filtered out: fixed to the first remaining listed channel, and reported', () => {
    // GIVEN the package's defaultChannel is 3.x (fixture line 2), which the list leaves out
    const r = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.3.x' }, { name: '3.2.x' }] }]);
    // THEN
    expect(r.problems).toEqual([]);
    expect(r.catalog.defaultChannel(A)).toEqual('3.3.x');
    expect(r.catalog.channelNames(A)).toEqual(['3.2.x', '3.3.x']);
    expect(r.notes).toEqual([`package "${A}": default channel "3.x" was filtered out; the filtered catalog uses "3.3.x" (set defaultChannel to choose)`]);
    expect(FbcValidator.validate(r.catalog)).toEqual([]);
  });

  test('a listed channel that the range empties is a problem', () => {
    // versions >=3.3.0 are only in 3.3.x and 3.x; 3.2.x loses everything
    const r = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.2.x' }, { name: '3.3.x' }], versionRange: '>=3.3.0' }]);
    expect(r.problems).toEqual([{ message: `package "${A}" channel "3.2.x": version range >=3.3.0 leaves no bundle in the channel` }]);
  });

  test('an unlisted channel emptied by a range is dropped with a note', () => {
    const r = FbcFilter.filter(APICURIO, [{ name: A, versionRange: '>=3.3.0' }]);
    expect(r.problems).toEqual([]);
    expect(r.catalog.channelNames(A)).toEqual(['3.3.x', '3.x']);
    expect(r.notes).toEqual([`package "${A}": channel "3.2.x" has no bundle in the allowed range and was removed`]);
    expect(r.catalog.bundleNames(A)).toEqual([v('3.3.0'), v('3.3.1')]);
  });

  test('an explicit defaultChannel wins; one that does not remain is a problem', () => {
    const ok = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.2.x' }, { name: '3.3.x' }], defaultChannel: '3.2.x' }]);
    expect(ok.catalog.defaultChannel(A)).toEqual('3.2.x');
    expect(ok.notes).toEqual([]);
    const bad = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.3.x' }], defaultChannel: '3.x' }]);
    expect(bad.problems).toEqual([{ message: `package "${A}": defaultChannel "3.x" does not remain after filtering; remaining channels: "3.3.x"` }]);
  });

  test('per-channel ranges combine with the package range', () => {
    const r = FbcFilter.filter(APICURIO, [{ name: A, versionRange: '>=3.2.0', channels: [{ name: '3.x', versionRange: '<3.2.2' }] }]);
    expect(r.catalog.channelEntries(A, '3.x').map((e) => e.name)).toEqual([v('3.2.1'), v('3.2.0')]);
  });

  test('foo: keeping only channel stable drops the bundle only beta had', () => {
    const foo = FileBasedCatalog.fromPath(path.join(FIXTURES, 'operator-registry/alpha/action/testdata/list-index/foo/index.yaml'));
    const r = FbcFilter.filter(foo, [{ name: 'foo', channels: [{ name: 'stable' }] }]);
    expect(r.catalog.bundleNames('foo')).toEqual(['foo.v0.2.0']);
    expect(r.catalog.defaultChannel('foo')).toEqual('stable');
    expect(FbcValidator.validate(r.catalog)).toEqual([]);
  });

  test('deprecations follow the kept channels and bundles', () => {
    const c = FileBasedCatalog.fromString(
      [
        'schema: olm.package\nname: a\ndefaultChannel: s',
        'schema: olm.channel\npackage: a\nname: s\nentries: [{name: a.v1.0.0}, {name: a.v2.0.0, replaces: a.v1.0.0}]',
        'schema: olm.channel\npackage: a\nname: old\nentries: [{name: a.v1.0.0}]',
        'schema: olm.bundle\npackage: a\nname: a.v1.0.0\nimage: i1\nproperties: [{type: olm.package, value: {packageName: a, version: 1.0.0}}]',
        'schema: olm.bundle\npackage: a\nname: a.v2.0.0\nimage: i2\nproperties: [{type: olm.package, value: {packageName: a, version: 2.0.0}}]',
        'schema: olm.deprecations\npackage: a\nentries: [{reference: {schema: olm.channel, name: old}, message: m1}, {reference: {schema: olm.bundle, name: a.v1.0.0}, message: m2}, {reference: {schema: olm.package}, message: m3}]',
      ].join('\n---\n'),
      'c.yaml',
    );
    const r = FbcFilter.filter(c, [{ name: 'a', channels: [{ name: 's' }], versionRange: '>=2.0.0' }]);
    expect(r.catalog.ofSchema(FbcSchema.DEPRECATIONS).map((b) => b.content.entries)).toEqual([[{ reference: { schema: 'olm.package' }, message: 'm3' }]]);
    expect(FbcValidator.validate(r.catalog)).toEqual([]);
  });
});

// ---- property tests ------------------------------------------------------------------------------------------

/**
 * A random valid catalog: packages with linear `replaces` channels over distinct versions. skipMode 1 adds skips
 * of versions outside the channel (like foo.v0.2.0 in the operator-registry sample), skipMode 2 makes every entry
 * skip all older ones (the "skip everything" style of many real catalogs).
 */
const arbCatalog = fc
  .array(
    fc.record({
      versions: fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 8 }),
      channels: fc.array(
        fc.record({ pick: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), skipMode: fc.integer({ min: 0, max: 2 }) }),
        { minLength: 1, maxLength: 3 },
      ),
      defaultIndex: fc.nat(),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((pkgs) => {
    const docs: any[] = [];
    pkgs.forEach((p, pi) => {
      const name = `p${pi}`;
      const versions = [...p.versions].sort((a, b) => a - b).map((n) => `1.${n}.0`);
      const channels: Array<{ name: string; entries: any[] }> = [];
      const used = new Set<string>();
      p.channels.forEach((ch, ci) => {
        let members = versions.filter((_, i) => ch.pick[i % 8]);
        if (members.length === 0) members = [versions[versions.length - 1]];
        const entries = members.map((ver, i) => {
          const e: any = { name: `${name}.v${ver}` };
          if (i > 0) e.replaces = `${name}.v${members[i - 1]}`;
          if (ch.skipMode === 1) e.skips = [`${name}.v${ver}-rc.1`];
          if (ch.skipMode === 2 && i > 0) e.skips = members.slice(0, i).map((m) => `${name}.v${m}`);
          return e;
        });
        members.forEach((m) => used.add(m));
        channels.push({ name: `c${ci}`, entries });
      });
      docs.push({ schema: 'olm.package', name, defaultChannel: channels[p.defaultIndex % channels.length].name });
      channels.forEach((c) => docs.push({ schema: 'olm.channel', package: name, name: c.name, entries: c.entries }));
      [...used].sort().forEach((ver) =>
        docs.push({ schema: 'olm.bundle', package: name, name: `${name}.v${ver}`, image: `reg/${name}:${ver}`, properties: [{ type: 'olm.package', value: { packageName: name, version: ver } }] }),
      );
    });
    return FileBasedCatalog.fromString(docs.map((d) => JSON.stringify(d)).join('\n'), 'catalog.json');
  });

const arbRange = fc.oneof(
  fc.constant(undefined),
  fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })).map(([a, b]) => `>=1.${Math.min(a, b)}.0 <=1.${Math.max(a, b)}.0`),
  fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 15, max: 30 })).map(([a, b]) => `<1.${a}.0 || >1.${b}.0`),
);

describe('FbcFilter properties', () => {
  test('generated catalogs are valid (precondition of the other properties)', () => {
    fc.assert(fc.property(arbCatalog, (c) => FbcValidator.validate(c).length === 0));
  });

  test('filtering with everything allowed is the identity', () => {
    fc.assert(
      fc.property(arbCatalog, (c) => {
        const r = FbcFilter.filter(c, c.packageNames.map((name) => ({ name })));
        expect(r.problems).toEqual([]);
        expect(r.catalog.blobs).toEqual(c.blobs);
      }),
    );
  });

  test('filtered output always validates, keeps one head per channel, and only versions in range', () => {
    // issue 28: outcome counts (a run where some package has nothing left is reported, not written: the rest is unchecked)
    const count = { reported: 0, written: 0, writtenWithBundlesRemoved: 0 };
    fc.assert(
      fc.property(arbCatalog, fc.array(arbRange, { minLength: 3, maxLength: 3 }), (c, ranges) => {
        const packages: CuratedPackage[] = c.packageNames.map((name, i) => ({ name, ...(ranges[i] ? { versionRange: ranges[i] } : {}) }));
        const r = FbcFilter.filter(c, packages);
        if (r.problems.length > 0) {
          count.reported++;
          return;
        }
        count.written++;
        if (packages.some((p) => r.catalog.bundleNames(p.name).length < c.bundleNames(p.name).length)) count.writtenWithBundlesRemoved++;
        expect(FbcValidator.validate(r.catalog)).toEqual([]);
        for (const p of packages) {
          for (const ch of r.catalog.channelNames(p.name)) {
            expect(FbcValidator.channelHeads(r.catalog.channelEntries(p.name, ch)).length).toEqual(1);
          }
          for (const b of r.catalog.bundleNames(p.name)) {
            const ver = r.catalog.bundleVersion(p.name, b)!;
            if (p.versionRange) expect(semver.satisfies(ver, p.versionRange)).toBe(true);
          }
        }
      }),
    );
    // (fixed seed: 40 reported, 60 written, 29 of those with bundles filtered out)
    const reached = count.reported >= 20 && count.written >= 40 && count.writtenWithBundlesRemoved >= 15;
    expect([count, reached]).toEqual([count, true]);
  });

  test('output is deterministic and survives a write/read round trip', () => {
    fc.assert(
      fc.property(arbCatalog, arbRange, (c, range) => {
        const packages = c.packageNames.map((name) => ({ name, ...(range ? { versionRange: range } : {}) }));
        const a = FbcFilter.filter(c, packages);
        const b = FbcFilter.filter(c, packages);
        expect(FbcWriter.toFiles(a.catalog)).toEqual(FbcWriter.toFiles(b.catalog));
        expect(a.notes).toEqual(b.notes);
        const files = FbcWriter.toFiles(a.catalog);
        const reread = FileBasedCatalog.merge(Object.keys(files).map((f) => FileBasedCatalog.fromString(files[f], f)));
        expect(reread.loadProblems).toEqual([]);
        expect(reread.blobs.map((x) => x.content).sort(byJson)).toEqual(a.catalog.blobs.map((x) => x.content).sort(byJson));
      }),
    );
  });
});

function byJson(x: any, y: any): number {
  const a = JSON.stringify(x);
  const b = JSON.stringify(y);
  return a < b ? -1 : a > b ? 1 : 0;
}
