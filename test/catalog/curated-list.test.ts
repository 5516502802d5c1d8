import { CuratedList } from '../../src/fbc/curated-list';

describe('CuratedList', () => {
  test('an empty list is a problem', () => {
    expect(CuratedList.problems([])).toEqual(['the curated list is empty: no package could be installed from this catalog']);
  });

  test('every problem of the list is reported', () => {
    expect(
      CuratedList.problems([
        { name: 'a', versionRange: 'not a range' },
        { name: 'a' },
        { name: '' },
        { name: 'b', channels: [{ name: 'x', versionRange: '>=1 <<2' }, { name: 'x' }, { name: '' }], defaultChannel: 'y' },
        { name: 'c', channels: [] },
      ]),
    ).toEqual([
      'packages[0] (a): versionRange "not a range" is not a valid semver range',
      'packages[1]: package "a" is listed twice; merge the entries',
      'packages[2]: the package name is empty',
      'packages[3].channels[0] (b/x): versionRange ">=1 <<2" is not a valid semver range',
      'packages[3].channels[1] (b): channel "x" is listed twice',
      'packages[3].channels[2] (b): the channel name is empty',
      'packages[3] (b): defaultChannel "y" is not one of the allowed channels',
      'packages[4] (c): channels is an empty list; omit it to allow every channel or name at least one',
    ]);
  });

  test('a good list has no problem', () => {
    expect(CuratedList.problems([{ name: 'a', versionRange: '>=1.0.0 <2.0.0', channels: [{ name: 'stable' }], defaultChannel: 'stable' }])).toEqual([]);
  });

  test.each([
    [{ name: 'a' }, 'stable', '9.9.9', true],
    [{ name: 'a' }, 'stable', 'not-semver', true],
    [{ name: 'a', versionRange: '>=1.2.0 <2.0.0' }, 'stable', '1.2.0', true],
    [{ name: 'a', versionRange: '>=1.2.0 <2.0.0' }, 'stable', '2.0.0', false],
    [{ name: 'a', versionRange: '>=1.2.0 <2.0.0' }, 'stable', 'not-semver', false],
    [{ name: 'a', versionRange: '>=1.0.0' }, 'stable', '1.5.0-rc.1', false], // pre-releases only when the range names one
    [{ name: 'a', versionRange: '>=1.0.0', channels: [{ name: 'stable', versionRange: '<1.5.0' }] }, 'stable', '1.5.0', false],
    [{ name: 'a', versionRange: '>=1.0.0', channels: [{ name: 'stable', versionRange: '<1.5.0' }] }, 'other', '1.5.0', true],
  ])('allowsVersion(%j, %s, %s) = %s', (pkg, channel, version, want) => {
    expect(CuratedList.allowsVersion(pkg, channel, version)).toBe(want);
  });

  test('allowsChannel', () => {
    expect(CuratedList.allowsChannel({ name: 'a' }, 'any')).toBe(true);
    expect(CuratedList.allowsChannel({ name: 'a', channels: [{ name: 'stable' }] }, 'stable')).toBe(true);
    expect(CuratedList.allowsChannel({ name: 'a', channels: [{ name: 'stable' }] }, 'fast')).toBe(false);
  });
});
