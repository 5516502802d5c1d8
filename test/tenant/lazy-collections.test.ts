import { LazyMap, LazySet } from '../../src/tenant/lazy-collections';

describe('LazyMap / LazySet: created on first write', () => {
  test('GIVEN no write THEN reads see an empty collection shared by every instance', () => {
    const a = new LazyMap<string, number>();
    const b = new LazyMap<string, number>();
    expect([a.read.size, a.read.get('x'), a.read === b.read]).toEqual([0, undefined, true]);
    const s = new LazySet<string>();
    expect([s.read.size, s.read.has('x'), s.read === new LazySet<string>().read]).toEqual([0, false, true]);
  });

  test('GIVEN writes THEN the instance has its own collection, the shared empty one stays empty', () => {
    const a = new LazyMap<string, number>();
    a.write().set('x', 1);
    a.write().set('y', 2);
    expect([...a.read.entries()]).toEqual([['x', 1], ['y', 2]]);
    expect(new LazyMap<string, number>().read.size).toEqual(0);
    const s = new LazySet<string>();
    s.write().add('x');
    expect([...s.read]).toEqual(['x']);
    expect(new LazySet<string>().read.size).toEqual(0);
  });
});
