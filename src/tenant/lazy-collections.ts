// Collections created on first write: a tenant keeps several bookkeeping maps that stay empty for most of the
// thousands of tenants of a large App (an empty Map or Set still costs ~150-200 bytes). Internal, not re-exported.

const EMPTY_MAP: ReadonlyMap<unknown, unknown> = new Map();
const EMPTY_SET: ReadonlySet<unknown> = new Set();

/** A Map created on its first write; reads before that see a shared empty map. */
export class LazyMap<K, V> {
  private map?: Map<K, V>;

  /** The map to read (never write through it). */
  public get read(): ReadonlyMap<K, V> {
    return this.map ?? (EMPTY_MAP as ReadonlyMap<K, V>);
  }

  /** The map to write, created now if needed. */
  public write(): Map<K, V> {
    return this.map ??= new Map();
  }
}

/** A Set created on its first write; reads before that see a shared empty set. */
export class LazySet<T> {
  private set?: Set<T>;

  /** The set to read (never write through it). */
  public get read(): ReadonlySet<T> {
    return this.set ?? (EMPTY_SET as ReadonlySet<T>);
  }

  /** The set to write, created now if needed. */
  public write(): Set<T> {
    return this.set ??= new Set();
  }
}
