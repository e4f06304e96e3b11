// One state per block of a run, for colouring the DAG and the cells. A
// block that runs as dynamic children (one per row of its parent) has only
// child rows: it takes the worst of its children (failed over running over
// succeeded), so a fan-out block is coloured too.

import type { BlockRun } from "./types";

const RANK: Record<string, number> = { failed: 6, cancelled: 5, running: 4, retrying: 4, queued: 3, pending: 3, skipped: 1, succeeded: 2 };

export function blockStates(blocks: BlockRun[]): Map<string, string> {
  const own = new Map<string, string>();
  const kids = new Map<string, string>();
  for (const b of blocks) {
    if (!b.child) own.set(b.block, b.state);
    else {
      const cur = kids.get(b.block);
      if (!cur || (RANK[b.state] ?? 0) > (RANK[cur] ?? 0)) kids.set(b.block, b.state);
    }
  }
  for (const [b, s] of kids) if (!own.has(b)) own.set(b, s);
  return own;
}
