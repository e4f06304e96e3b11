// Words for where an editor run's upstreams came from: the session's own
// draft (the output of that cell's last run in this tab) or published data.

import { formatInstant } from "./time";
import type { InputOrigin } from "./types";

/** "raw_orders: your draft from 14:02", "raw_orders: published v3", "raw_orders: published v1–v2 (7 partitions)". */
export function describeOrigin(o: InputOrigin, zone: string): string {
  if (o.draft) return `${o.block}: your draft${o.draft_at ? ` from ${formatInstant(o.draft_at, zone, { seconds: false }).slice(11)}` : ""}`;
  const vs = [...new Set(Object.values(o.versions ?? {}))].sort((a, b) => a - b);
  const parts = Object.keys(o.versions ?? {}).length;
  if (!vs.length) return `${o.block}: published`;
  const v = vs.length === 1 ? `v${vs[0]}` : `v${vs[0]}–v${vs[vs.length - 1]}`;
  return `${o.block}: published ${v}${parts > 1 ? ` (${parts} partitions)` : ""}`;
}
