import type { BackfillStatus } from "./types";

// reviewEnded says why a backfill published for review has nothing left to
// resume or retry, or undefined when it may have. A discard throws the
// staged versions away on purpose (the engine marks the partitions
// cancelled, so the page offered "Retry N failed or cancelled" and Resume,
// which would run again what the user had just rejected); a rollback puts
// back what was current before the promote. A review backfill cancelled
// while it ran is not ended: Resume and Retry continue it.
export function reviewEnded(st: Pick<BackfillStatus, "spec" | "state" | "message">): string | undefined {
  if (st.spec.publish !== "review") return undefined;
  if (st.state === "rolled_back") return "Rolled back: the versions current before the promote are current again. Nothing to resume or retry; launch a new review backfill to try again.";
  if (st.state === "cancelled" && /^discarded\b/.test(st.message ?? "")) return `Discarded (${st.message}). Nothing to resume or retry; launch a new review backfill to try again.`;
  return undefined;
}
