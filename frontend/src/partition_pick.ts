// The partition the backfill page's drawer shows. A click picks a cell of
// the grid, which may come before the page of partitions holding that cell
// has arrived (a grid larger than one page fills in page by page): the pick
// then holds the cell, and becomes the partition once it is read. Keyed on
// the key alone, a pick of a cell whose key was unknown stayed "#1, queued,
// not run yet" for good.

import type { PartitionStatus } from "./types";

export interface PartitionPick {
  /** The picked cell. */
  at: number;
  /** What is known of it: a placeholder while pending. */
  partition: PartitionStatus;
  /** The cell's partition has not been read yet. */
  pending: boolean;
}

/** Picks cell i of the grid: parts are the partitions read so far, keys the grid's keys. */
export function pickCell(i: number, parts: readonly (PartitionStatus | undefined)[], keys: readonly (string | undefined)[]): PartitionPick {
  const p = parts[i];
  if (p) return { at: i, partition: p, pending: false };
  return { at: i, partition: { key: keys[i] ?? `#${i + 1}`, interval: "", state: "queued" }, pending: true };
}

/**
 * The pick once more partitions were read: a pending pick resolves to its
 * cell's partition, a resolved one follows its key (the newest state of the
 * same partition). The same object when nothing is known yet.
 */
export function refreshPick(pick: PartitionPick, parts: readonly (PartitionStatus | undefined)[], indexOf: (key: string) => number): PartitionPick {
  const i = pick.pending ? pick.at : indexOf(pick.partition.key);
  const p = i >= 0 ? parts[i] : undefined;
  if (!p) return pick;
  return { at: i, partition: p, pending: false };
}
