import { TargetNamespaces } from '../../src';

describe('TargetNamespaces', () => {
  test.each<[string, TargetNamespaces, string[], boolean, string | undefined]>([
    ['ownNamespace targets the tenant namespace', TargetNamespaces.ownNamespace(), ['team-a'], false, undefined],
    ['namespaces are sorted and deduplicated', TargetNamespaces.namespaces(['b', 'a', 'b'], 'why'), ['a', 'b'], false, 'why'],
    ['namespaces need not include the tenant namespace', TargetNamespaces.namespaces(['other'], 'watch other'), ['other'], false, 'watch other'],
    ['allNamespaces resolves to the empty list', TargetNamespaces.allNamespaces('global'), [], true, 'global'],
  ])('%s', (_name, targets, resolved, all, reason) => {
    expect(targets.resolve('team-a')).toEqual(resolved);
    expect(targets.isAllNamespaces).toEqual(all);
    expect(targets.reason).toEqual(reason);
    expect(targets.isOwnNamespace).toEqual(reason === undefined);
  });
});
