import * as path from 'path';
import * as semver from 'semver';
import { MirrorConfig } from '../../src/catalog';
import { FbcFilter, FileBasedCatalog } from '../../src/fbc';

const APICURIO = FileBasedCatalog.fromPath(path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod/catalogs/v4.21/apicurio-registry-3/catalog.yaml'));
const A = 'apicurio-registry-3';

describe('MirrorConfig', () => {
  // GIVEN channels 3.2.x and 3.x cut to >=3.2.0 <3.2.3: both keep 3.2.0, 3.2.1, 3.2.2
  const filtered = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.x' }, { name: '3.2.x' }], versionRange: '>=3.2.0 <3.2.3' }]).catalog;

  test('ImageSetConfiguration (oc-mirror v2alpha1 type_config.go / type_config_include.go fields)', () => {
    expect(MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: 'registry.redhat.io/redhat/community-operator-index:v4.21', targetCatalog: 'curated/operators', targetTag: 'v1' })).toEqual({
      kind: 'ImageSetConfiguration',
      apiVersion: 'mirror.openshift.io/v2alpha1',
      mirror: {
        operators: [
          {
            catalog: 'registry.redhat.io/redhat/community-operator-index:v4.21',
            targetCatalog: 'curated/operators',
            targetTag: 'v1',
            packages: [
              {
                name: A,
                defaultChannel: '3.x',
                channels: [
                  { name: '3.2.x', minVersion: '3.2.0', maxVersion: '3.2.2' },
                  { name: '3.x', minVersion: '3.2.0', maxVersion: '3.2.2' },
                ],
              },
            ],
          },
        ],
      },
    });
  });

  test('FilterConfiguration (catalog-filter mirror-config v1alpha1 fields, ranges as oc-mirror writes them)', () => {
    expect(MirrorConfig.filterConfiguration(filtered)).toEqual({
      apiVersion: 'olm.operatorframework.io/filter/mirror/v1alpha1',
      kind: 'FilterConfiguration',
      packages: [
        {
          name: A,
          defaultChannel: '3.x',
          channels: [
            { name: '3.2.x', versionRange: '>=3.2.0 <=3.2.2' },
            { name: '3.x', versionRange: '>=3.2.0 <=3.2.2' },
          ],
        },
      ],
    });
  });

  test('the source image is required; targetCatalog (oc-mirror IsValidPathComponent) and targetTag are checked', () => {
    expect(() => MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: '' })).toThrow('ImageSetConfiguration: sourceCatalogImage must be set');
    const src = 'registry.redhat.io/redhat/community-operator-index:v4.21';
    expect(() => MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: src, targetCatalog: 'platform/curated:v1' })).toThrow(
      'ImageSetConfiguration: targetCatalog "platform/curated:v1" is not valid: use lower-case path components separated by "/" (e.g. "platform/curated-operators"), without a tag or digest (set targetTag for the tag)',
    );
    expect(() => MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: src, targetCatalog: 'Platform/x' })).toThrow(/targetCatalog "Platform\/x" is not valid/);
    expect(() => MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: src, targetTag: '-v1' })).toThrow(/targetTag "-v1" is not a valid image tag/);
    expect(MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: src, targetCatalog: 'platform/my_org/curated-operators', targetTag: 'v4.21_1' }).mirror.operators[0].targetCatalog).toEqual(
      'platform/my_org/curated-operators',
    );
  });

  describe('differences: what oc-mirror would select with >=min <=max (Masterminds/semver) vs the filtered catalog', () => {
    test('a contiguous range selects exactly the filtered bundles', () => {
      expect(MirrorConfig.differences(APICURIO, filtered)).toEqual([]);
    });

    test('a range with a gap inside the kept piece: oc-mirror would also mirror the gap', () => {
      // GIVEN a skip-style channel (2.0.0 skips every older bundle), so a range with a gap keeps one connected piece
      const c = FileBasedCatalog.fromString(
        [
          '{"schema":"olm.package","name":"p","defaultChannel":"s"}',
          '{"schema":"olm.channel","package":"p","name":"s","entries":[{"name":"p.v1.0.0"},{"name":"p.v1.1.0"},{"name":"p.v1.2.0-rc.1"},{"name":"p.v2.0.0","skips":["p.v1.0.0","p.v1.1.0","p.v1.2.0-rc.1"]}]}',
          ...['1.0.0', '1.1.0', '1.2.0-rc.1', '2.0.0'].map((v) => `{"schema":"olm.bundle","package":"p","name":"p.v${v}","image":"i:${v}","properties":[{"type":"olm.package","value":{"packageName":"p","version":"${v}"}}]}`),
        ].join('\n'),
        'c.json',
      );
      const gap = FbcFilter.filter(c, [{ name: 'p', versionRange: '<1.1.0 || >=2.0.0' }]).catalog;
      expect(gap.channelEntries('p', 's').map((e) => e.name)).toEqual(['p.v1.0.0', 'p.v2.0.0']);
      expect(MirrorConfig.differences(c, gap)).toEqual([
        'package "p" channel "s": the oc-mirror range ">=1.0.0 <=2.0.0" also selects p.v1.1.0; the filtered catalog (catalog/) is exact, build the image from it with opm',
      ]);
      // a kept pre-release is not matched by a range whose bounds are releases
      const pre = FbcFilter.filter(c, [{ name: 'p', versionRange: '>=1.1.0 <=2.0.0 || 1.2.0-rc.1' }]).catalog;
      expect(MirrorConfig.differences(c, pre)).toEqual([
        'package "p" channel "s": the oc-mirror range ">=1.1.0 <=2.0.0" does not select p.v1.2.0-rc.1; the filtered catalog (catalog/) is exact, build the image from it with opm',
      ]);
    });
  });

  test('the ImageSetConfiguration passes oc-mirror v2 validateOperator rules (config/validate.go), on every sample package', () => {
    // GIVEN every package of the samples, unfiltered, as one selection
    const all = FileBasedCatalog.fromPath(path.join(__dirname, '..', 'fixtures', 'catalogs'));
    const isc = MirrorConfig.imageSetConfiguration(FbcFilter.filter(all, all.packageNames.map((name) => ({ name }))).catalog, { sourceCatalogImage: 'reg/idx:v1' });
    // THEN (a port of the rules that apply to packages and channels)
    const errors: string[] = [];
    const pkgs = isc.mirror.operators[0].packages;
    const names = pkgs.map((p: any) => p.name);
    if (new Set(names).size !== names.length) errors.push('duplicate package entry');
    for (const p of pkgs) {
      if ((p.minVersion || p.maxVersion) && p.channels.some((c: any) => c.minVersion || c.maxVersion)) errors.push(`${p.name}: mixing package and channel min/maxVersion`);
      const chans = p.channels.map((c: any) => c.name);
      if (new Set(chans).size !== chans.length) errors.push(`${p.name}: duplicate channel entry`);
      for (const c of p.channels) {
        for (const v of [c.minVersion, c.maxVersion]) if (semver.valid(v) === null) errors.push(`${p.name}/${c.name}: ${v} is not semver`);
      }
    }
    expect(errors).toEqual([]);
    expect(names).toEqual(['apicurio-registry-3', 'foo', 'kubevirt-wol', 'libredb-studio-operator', 'odf-node-recovery-operator']);
  });

  test('the FilterConfiguration passes catalog-filter FilterConfiguration.Validate (mirror-config.go), on every sample package', () => {
    const all = FileBasedCatalog.fromPath(path.join(__dirname, '..', 'fixtures', 'catalogs'));
    const cfg = MirrorConfig.filterConfiguration(FbcFilter.filter(all, all.packageNames.map((name) => ({ name }))).catalog);
    const errors: string[] = [];
    if (cfg.apiVersion !== 'olm.operatorframework.io/filter/mirror/v1alpha1') errors.push('unexpected API version');
    if (cfg.kind !== 'FilterConfiguration') errors.push('unexpected kind');
    cfg.packages.forEach((p: any, i: number) => {
      if (!p.name) errors.push(`package [${i}]: name must be specified`);
      for (const c of p.channels ?? []) {
        if (!c.name) errors.push(`${p.name}: channel name must be specified`);
        if (c.versionRange && p.versionRange) errors.push(`${p.name}: package.VersionRange and channel.VersionRange are exclusive`);
        if (c.versionRange && semver.validRange(c.versionRange) === null) errors.push(`${p.name}/${c.name}: invalid range`);
      }
    });
    expect(errors).toEqual([]);
    expect(cfg.packages.find((p: any) => p.name === 'foo')).toEqual({
      name: 'foo',
      defaultChannel: 'beta',
      channels: [
        { name: 'beta', versionRange: '>=0.1.0 <=0.2.0' },
        { name: 'stable', versionRange: '>=0.2.0 <=0.2.0' },
      ],
    });
  });
});
