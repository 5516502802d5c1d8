// Helpers shared by the FBC classes; not part of the public API.
import type { FbcBlob, FbcChannelEntry } from './fbc-types';

/** The version of a bundle blob's single `olm.package` property. */
export function bundleVersionOf(bundle: any): string | undefined {
  const props = Array.isArray(bundle?.properties) ? bundle.properties : [];
  const pkgProps = props.filter((p: any) => p && p.type === 'olm.package');
  if (pkgProps.length !== 1) return undefined;
  return str(pkgProps[0].value?.version);
}

/** the entries of an `olm.channel` blob's content, tolerant of missing fields */
export function channelEntriesOf(content: any): FbcChannelEntry[] {
  const entries = Array.isArray(content?.entries) ? content.entries : [];
  return entries
    .filter((e: any) => e && typeof e === 'object')
    .map((e: any) => ({
      name: str(e.name) ?? '',
      ...(str(e.replaces) ? { replaces: str(e.replaces) } : {}),
      ...(Array.isArray(e.skips) ? { skips: e.skips.map((s: any) => String(s)) } : {}),
      ...(str(e.skipRange) ? { skipRange: str(e.skipRange) } : {}),
    }));
}

/** `schema/package/name` for messages */
export function blobId(b: FbcBlob): string {
  const c = b.content ?? {};
  if (b.schema === 'olm.package') return `${b.schema}/${c.name ?? ''}`;
  return `${b.schema}/${c.package ?? ''}/${c.name ?? ''}`.replace(/\/$/, '');
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function nonEmpty(s: string | undefined): s is string {
  return s !== undefined && s !== '';
}

export function uniqueSorted(xs: string[]): string[] {
  return [...new Set(xs)].sort();
}


/**
 * operator-registry `validateReplacesChain` walk: the replaces chain from `head`, stopping at an edge to a
 * skipped entry; a string when the chain has a cycle.
 */
export function replacesChain(head: string, byName: Map<string, FbcChannelEntry>, skipped: Set<string>): Set<string> | string {
  const chain = new Set<string>([head]);
  const path = [head];
  let cur = byName.get(head);
  while (cur) {
    const next = cur.replaces ?? '';
    // if the replaces edge is known to be skipped, disregard it
    if (skipped.has(next)) break;
    if (chain.has(next)) return `detected cycle in replaces chain of upgrade graph: ${[...path.slice(path.indexOf(next)), next].join(' -> ')}`;
    chain.add(next);
    path.push(next);
    cur = byName.get(next);
  }
  chain.delete('');
  return chain;
}
