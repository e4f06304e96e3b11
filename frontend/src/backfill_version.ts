import { FINAL_STATES, type BackfillStatus } from "./types";

// versionLine says which pipeline version the backfill runs, and whether
// the files have changed since (the backfill keeps running its version).
// After a retry with the current code its partitions were computed by more
// than one version: it names each, so that "ran version X" never claims a
// partition X did not compute.
export function versionLine(st: BackfillStatus): string {
  if (st.problem) return st.problem;
  if (!st.snapshot) return "";
  const verb = FINAL_STATES.has(st.state) ? "ran" : "running";
  const line = `${verb} version ${st.snapshot.slice(0, 7)}${st.files_changed ? "; the files have changed since" : ""}`;
  const ran = st.ran ?? [];
  if (ran.length === 0 || (ran.length === 1 && ran[0].snapshot === st.snapshot)) return line;
  const parts = ran.map((r) => `${r.snapshot.slice(0, 7)} (${r.partitions} partitions)`).join(", ");
  return `${line}; its partitions were computed by ${ran.length} pipeline versions: ${parts}`;
}
