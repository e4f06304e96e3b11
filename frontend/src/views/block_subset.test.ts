import { describe, expect, it } from "vitest";
import { staleDownstream, subsetCandidates } from "./block_subset";
import type { BlockView } from "../types";

const b = (id: string, upstream: string[] = [], entry?: string) => ({ id, upstream, entry }) as unknown as BlockView;

describe("block subset", () => {
  const blocks = [b("src"), b("agg", ["src"]), b("weekly", ["agg"]), b("other"), b("out", ["weekly"], "export")];
  it("names every left-out block downstream of the chosen ones, exports aside", () => {
    expect(staleDownstream(blocks, ["src"])).toEqual(["agg", "weekly"]);
    expect(staleDownstream(blocks, ["agg"])).toEqual(["weekly"]);
    expect(staleDownstream(blocks, ["src", "agg", "weekly"])).toEqual([]);
    expect(staleDownstream(blocks, ["other"])).toEqual([]);
  });
  it("offers every block but exports", () => {
    expect(subsetCandidates(blocks).map((x) => x.id)).toEqual(["src", "agg", "weekly", "other"]);
  });
});
