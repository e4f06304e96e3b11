import { describe, expect, it } from "vitest";
import { blockStates } from "./run_states";
import type { BlockRun } from "./types";

const br = (block: string, state: string, child?: string) => ({ block, state, child }) as unknown as BlockRun;

describe("blockStates", () => {
  it("gives a block that ran only as dynamic children the worst child state", () => {
    const m = blockStates([br("raw", "succeeded"), br("stats", "succeeded", "0"), br("stats", "failed", "1"), br("seg", "succeeded")]);
    expect(m.get("raw")).toBe("succeeded");
    expect(m.get("stats")).toBe("failed");
  });
  it("keeps a block's own row over its children", () => {
    expect(blockStates([br("x", "succeeded"), br("x", "running", "0")]).get("x")).toBe("succeeded");
  });
});
