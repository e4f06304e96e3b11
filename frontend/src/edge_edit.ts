// The edge editor's rules. The upstream list is a Go Transform's parameter
// order, so an edit keeps the user's order (existing upstreams where they
// were, new ones appended in the order they were ticked) instead of sorting
// them; and an edit that would close a loop is refused, naming the loop.

/** The new upstream list: the old order, minus unticked, plus ticked ones in tick order. */
export function editUpstream(old: string[], ticked: string[]): string[] {
  const keep = old.filter((u) => ticked.includes(u));
  return [...keep, ...ticked.filter((u) => !keep.includes(u))];
}

/**
 * The loop that block reading from ups would close, as a path in data-flow
 * order ("a → b → c → a"), or null. upstreamOf gives every block's current
 * upstream list.
 */
export function cycleVia(block: string, ups: string[], upstreamOf: Map<string, string[]>): string | null {
  // A loop exists when block is already upstream (transitively) of one of ups.
  for (const u of ups) {
    const path = pathUp(u, block, upstreamOf, new Set());
    if (path) return [...path.reverse(), block].join(" → ");
  }
  return null;
}

/** A path from `from` up to `to` following upstream edges: [from, ..., to], or null. */
function pathUp(from: string, to: string, upstreamOf: Map<string, string[]>, seen: Set<string>): string[] | null {
  if (from === to) return [from];
  if (seen.has(from)) return null;
  seen.add(from);
  for (const u of upstreamOf.get(from) ?? []) {
    const p = pathUp(u, to, upstreamOf, seen);
    if (p) return [from, ...p];
  }
  return null;
}
