import { describe, expect, it } from "vitest";
import { failures, lineLevel, queryFromParams, runsHref, searchLogs, splitMatches } from "./runs";
import type { BlockRun, RunDetail } from "./types";

const br = (b: Partial<BlockRun>): BlockRun => ({ block: "a", partition: "2024-03-10", state: "succeeded", attempt: 1, rows: 0, started_at: "", ended_at: "", duration_ms: 0, ...b });

describe("runs list query", () => {
  it("round-trips filters and page through the URL", () => {
    const q = queryFromParams(new URLSearchParams("pipeline=clv&state=failed&origin=editor&offset=50&junk=1"));
    expect(q).toEqual({ pipeline: "clv", state: "failed", origin: "editor", offset: 50, limit: 50 });
    expect(runsHref(q)).toBe("/runs?pipeline=clv&state=failed&origin=editor&offset=50");
    expect(runsHref({ offset: 0 })).toBe("/runs");
    expect(queryFromParams(new URLSearchParams("offset=-3")).offset).toBe(0);
  });
});

describe("failures", () => {
  it("names the failed block and line before cancellations", () => {
    const r = { run_id: "r", pipeline: "p", partition: "k", state: "failed", started_at: "", updated_at: "", error: "x",
      blocks: [br({ block: "b", state: "cancelled", error: "cancelled" }), br({ block: "w", child: "3", state: "failed", error: "boom", error_line: 12 })] } as RunDetail;
    expect(failures(r)).toEqual([
      { block: "w[3]", blockId: "w", line: 12, message: "boom" },
      { block: "b", blockId: "b", line: undefined, message: "cancelled" },
    ]);
    expect(failures({ ...r, blocks: [] })).toEqual([{ block: "", blockId: "", message: "x" }]);
    const c = failures({ ...r, state: "cancelled", error: "cancelled by a user (b: cancelled)" });
    expect(c[0]).toEqual({ block: "", blockId: "", message: "cancelled by a user (b: cancelled)" });
  });
});

describe("searchLogs", () => {
  const blocks = [br({ block: "a", log: "loading 10 rows\nWARN slow\n" }), br({ block: "b", child: "k", log: "done\nwarn again\nok" }), br({ block: "c" })];
  it("keeps every line without a search", () => {
    const { hits, total } = searchLogs(blocks, "");
    expect(total).toBe(0);
    expect(hits.map((h) => [h.block, h.lines.length])).toEqual([["a", 2], ["b[k]", 3]]);
  });
  it("keeps only matching lines, case-insensitively, numbered in their log", () => {
    const { hits, total } = searchLogs(blocks, "warn");
    expect(total).toBe(2);
    expect(hits.map((h) => [h.block, h.lines.map((l) => l.n)])).toEqual([["a", [2]], ["b[k]", [2]]]);
    expect(searchLogs(blocks, "nothing").hits).toEqual([]);
  });
  it("filters by level and block", () => {
    const logged = [
      br({ block: "a", log: "2024-03-10T12:00:00.000Z info start\nprinted output\n2024-03-10T12:00:01.000Z warn slow disk\n2024-03-10T12:00:02.000Z error lost 3 rows\n" }),
      br({ block: "b", log: "09:00:00.000 warn late\n" }),
    ];
    expect(lineLevel("2024-03-10T12:00:00.000Z warn x")).toBe("warn");
    expect(lineLevel("printed output")).toBe("");
    const lines = (r: ReturnType<typeof searchLogs>) => r.hits.map((h) => [h.block, h.lines.map((l) => l.n)]);
    expect(lines(searchLogs(logged, "", { level: "warn", block: "" }))).toEqual([["a", [3, 4]], ["b", [1]]]);
    expect(lines(searchLogs(logged, "", { level: "error", block: "" }))).toEqual([["a", [4]]]);
    expect(lines(searchLogs(logged, "", { level: "info", block: "a" }))).toEqual([["a", [1, 3, 4]]]);
    expect(lines(searchLogs(logged, "", { level: "", block: "b" }))).toEqual([["b", [1]]]);
    expect(lines(searchLogs(logged, "slow", { level: "warn", block: "" }))).toEqual([["a", [3]]]);
  });
  it("splits around matches for highlighting", () => {
    expect(splitMatches("a Warn b warn", "WARN")).toEqual([
      { text: "a ", match: false }, { text: "Warn", match: true }, { text: " b ", match: false }, { text: "warn", match: true },
    ]);
  });
});
