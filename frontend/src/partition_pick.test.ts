import { describe, expect, it } from "vitest";
import { pickCell, refreshPick } from "./partition_pick";
import type { PartitionStatus } from "./types";

const day1: PartitionStatus = { key: "2024-01-01", interval: "day", state: "succeeded", run_id: "r1" };
const day2: PartitionStatus = { key: "2024-01-02", interval: "day", state: "succeeded", run_id: "r2" };
const indexOf = (keys: string[]) => (k: string) => keys.indexOf(k);

describe("pickCell and refreshPick", () => {
  it("picks a partition already read", () => {
    expect(pickCell(1, [day1, day2], [day1.key, day2.key])).toEqual({ at: 1, partition: day2, pending: false });
  });
  it("a cell picked before its partitions arrived becomes that cell's partition once they do", () => {
    const pick = pickCell(0, [], []);
    expect(pick.pending).toBe(true);
    expect(pick.partition.key).toBe("#1");
    // Nothing read yet: the same pick.
    expect(refreshPick(pick, [], indexOf([]))).toBe(pick);
    // The page with the cell arrives (its key was unknown when picked).
    expect(refreshPick(pick, [day1, day2], indexOf([day1.key, day2.key]))).toEqual({ at: 0, partition: day1, pending: false });
  });
  it("a resolved pick follows its partition's key to its newest state", () => {
    const pick = pickCell(1, [day1, day2], [day1.key, day2.key]);
    const failed: PartitionStatus = { ...day2, state: "failed", run_id: "r3" };
    expect(refreshPick(pick, [day1, failed], indexOf([day1.key, day2.key]))).toEqual({ at: 1, partition: failed, pending: false });
  });
});
