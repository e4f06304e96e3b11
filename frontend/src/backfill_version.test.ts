import { describe, expect, it } from "vitest";
import { versionLine } from "./backfill_version";
import type { BackfillStatus } from "./types";

const base = {
  id: "bf_1",
  pipeline: "clv",
  spec: { pipeline: "clv", from: "2024-03-01", to: "2024-03-16", reprocess: "missing" },
  state: "succeeded",
  progress: {},
  created_at: "",
  updated_at: "",
  in_process: false,
  total: 19,
  partitions: 16,
  snapshot: "832e270868e45659",
  files_changed: false,
} as unknown as BackfillStatus;

describe("versionLine", () => {
  it("names the one version that computed every partition", () => {
    expect(versionLine({ ...base, ran: [{ snapshot: "832e270868e45659", partitions: 19 }] })).toBe("ran version 832e270");
  });
  it("names every version after a retry with the current code", () => {
    const st = { ...base, ran: [{ snapshot: "419b2894112f6f7f", partitions: 15 }, { snapshot: "832e270868e45659", partitions: 4 }] };
    expect(versionLine(st)).toBe("ran version 832e270; its partitions were computed by 2 pipeline versions: 419b289 (15 partitions), 832e270 (4 partitions)");
  });
});
