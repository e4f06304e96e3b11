import { describe, expect, it } from "vitest";
import { backoff, ExecStore, errorPositions, MAX_STDOUT, parseMessage } from "./exec_state";

describe("ExecStore", () => {
  it("restores a reloaded page's last outputs, never over an execution of this page", () => {
    const s = new ExecStore();
    const preview = { columns: [{ name: "n", type: "int64" }], rows: [[1]], row_count: 1 };
    const at = Date.parse("2024-03-10T12:00:00Z");
    expect(s.restore("clv", "raw_orders", "2024-03-10", at, { type: "result", id: "x9", preview, duration_ms: 3, entry: "Load", partition: "2024-03-10" }, 0)).toBe("clv/raw_orders");
    expect(s.forCell("clv", "raw_orders")).toMatchObject({ phase: "done", restored: true, endedAt: at, partition: "2024-03-10", preview });
    const err = { code: "run", kind: "compile", message: "undefined: foo", line: 4 };
    expect(s.restore("clv", "clv", "2024-03-09", at, { type: "error", id: "x8", error: err }, 0)).toBe("clv/clv");
    expect(s.forCell("clv", "clv")).toMatchObject({ phase: "failed", error: err, partition: "2024-03-09", restored: true });
    s.start("x10", "clv", "segments", "2024-03-10", 0);
    expect(s.restore("clv", "segments", "2024-03-10", at, { type: "result", id: "x7", preview }, 0)).toBeNull();
    expect(s.forCell("clv", "segments")?.id).toBe("x10");
    expect(s.running()?.id).toBe("x10");
  });

  it("runs an execution from pending to done", () => {
    const s = new ExecStore();
    s.start("x1", "clv", "raw_orders", "2024-01-02", 0);
    expect(s.forCell("clv", "raw_orders")?.phase).toBe("pending");
    expect(s.apply({ type: "status", id: "x1", state: "busy", exec_id: "x1", pipeline: "clv", block: "raw_orders" }, 1)).toBe("clv/raw_orders");
    expect(s.running()?.id).toBe("x1");
    s.apply({ type: "stdout", id: "x1", stream: "stdout", data: "hello " }, 2);
    s.apply({ type: "stdout", id: "x1", stream: "stdout", data: "world\n" }, 2);
    s.apply({ type: "log", id: "x1", level: "info", msg: "generated orders" }, 3);
    const preview = { columns: [{ name: "n", type: "int64" }], rows: [[1]], row_count: 1 };
    expect(s.apply({ type: "result", id: "x1", preview, duration_ms: 12.5, entry: "Load" }, 4)).toBe("clv/raw_orders");
    const e = s.forCell("clv", "raw_orders")!;
    expect(e).toMatchObject({ phase: "done", stdout: "hello world\n", durationMs: 12.5, entry: "Load", preview });
    expect(e.logs).toEqual([{ level: "info", msg: "generated orders", time: undefined }]);
    expect(s.apply({ type: "status", id: "x1", state: "idle" }, 5)).toBeNull();
    expect(s.running()).toBeUndefined();
  });

  it("fails with the kernel's error and positions", () => {
    const s = new ExecStore();
    s.start("x2", "clv", "clv", "", 0);
    const err = { code: "run", kind: "compile", message: "undefined: foo", file: "blocks/clv/clv.go", line: 12, column: 3 };
    s.apply({ type: "error", id: "x2", error: err, duration_ms: 1 }, 1);
    expect(s.forCell("clv", "clv")).toMatchObject({ phase: "failed", error: err });
    // A late stdout chunk does not reopen it.
    expect(s.apply({ type: "stdout", id: "x2", data: "late" }, 2)).toBeNull();
  });

  it("marks interrupts", () => {
    const s = new ExecStore();
    s.start("x3", "p", "b", "", 0);
    s.apply({ type: "error", id: "x3", error: { code: "run", kind: "interrupted", message: "interrupted" } }, 1);
    expect(s.forCell("p", "b")?.phase).toBe("interrupted");
  });

  it("a refused execution (busy) fails at once", () => {
    const s = new ExecStore();
    s.start("x4", "p", "b", "", 0);
    s.apply({ type: "error", id: "x4", error: { code: "busy", message: "busy: a of p is running" } }, 1);
    expect(s.forCell("p", "b")).toMatchObject({ phase: "failed", error: { code: "busy" } });
  });

  it("reattaches after a reload to what the session still runs", () => {
    const s = new ExecStore();
    const cell = s.apply({ type: "status", id: "hello-1", session: "s-1", state: "busy", exec_id: "x9", pipeline: "clv", block: "segments", partition: "2024-01-03" }, 7);
    expect(cell).toBe("clv/segments");
    expect(s.forCell("clv", "segments")).toMatchObject({ id: "x9", phase: "running", partition: "2024-01-03", startedAt: 7 });
    s.apply({ type: "result", id: "x9", preview: { columns: [], rows: [], row_count: 0 } }, 8);
    expect(s.forCell("clv", "segments")?.phase).toBe("done");
  });

  it("an execution still open at its own idle status lost its end", () => {
    const s = new ExecStore();
    s.start("x5", "p", "b", "", 0);
    s.apply({ type: "status", id: "x5", state: "busy", exec_id: "x5" }, 1);
    expect(s.apply({ type: "status", id: "x5", state: "idle" }, 2)).toBe("p/b");
    expect(s.forCell("p", "b")).toMatchObject({ phase: "failed", error: { code: "lost" } });
  });

  it("expires open executions after an idle hello", () => {
    const s = new ExecStore();
    s.start("x6", "p", "b", "", 0);
    expect(s.expireOpen()).toEqual(["p/b"]);
    expect(s.expireOpen()).toEqual([]);
  });

  it("expires only the executions named, those open when the idle hello came", () => {
    const s = new ExecStore();
    s.start("x7", "p", "a", "", 0);
    const open = s.openIds();
    s.start("x8", "p", "b", "", 1);
    expect(s.expireOpen(open)).toEqual(["p/a"]);
    expect(s.forCell("p", "b")?.phase).toBe("pending");
  });

  it("keeps the newest execution per cell and the full text when stdout was dropped", () => {
    const s = new ExecStore();
    s.start("a", "p", "b", "", 0);
    s.start("b2", "p", "b", "", 1);
    expect(s.forCell("p", "b")?.id).toBe("b2");
    s.apply({ type: "stdout", id: "b2", data: "par" }, 2);
    s.apply({ type: "result", id: "b2", preview: { columns: [], rows: [], row_count: 0 }, stdout: "partial and complete" }, 3);
    expect(s.forCell("p", "b")?.stdout).toBe("partial and complete");
  });

  it("counts what it drops of a long stdout, so the cell can say so", () => {
    const s = new ExecStore();
    s.start("big", "p", "b", "", 0);
    s.apply({ type: "stdout", id: "big", data: "a".repeat(MAX_STDOUT) }, 1);
    expect(s.forCell("p", "b")?.stdoutCut).toBeUndefined();
    s.apply({ type: "stdout", id: "big", data: "b".repeat(1000) }, 2);
    const e = s.forCell("p", "b")!;
    expect(e.stdoutCut).toBe(1000);
    expect(e.stdout.length).toBe(MAX_STDOUT);
    expect(e.stdout.endsWith("b".repeat(1000))).toBe(true);
  });

  it("ignores messages for unknown executions", () => {
    const s = new ExecStore();
    expect(s.apply({ type: "stdout", id: "nope", data: "x" }, 0)).toBeNull();
    expect(s.apply({ type: "result", id: "nope" }, 0)).toBeNull();
    expect(s.apply({ type: "pong", id: "1" }, 0)).toBeNull();
  });
});

describe("parseMessage", () => {
  it("accepts message objects only", () => {
    expect(parseMessage('{"type":"pong","id":"1"}')).toEqual({ type: "pong", id: "1" });
    expect(parseMessage("[1]")).toBeNull();
    expect(parseMessage("{oops")).toBeNull();
    expect(parseMessage('{"id":"1"}')).toBeNull();
    expect(parseMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe("errorPositions", () => {
  it("collects the error line and diagnostics for the block's file", () => {
    const err = {
      code: "run",
      kind: "compile",
      message: "2 errors",
      file: "blocks/clv/clv.go",
      line: 5,
      column: 2,
      diagnostics: [
        { file: "blocks/clv/clv.go", line: 5, column: 2, message: "undefined: x" },
        { file: "blocks/clv/clv.go", line: 9, column: 1, message: "missing return" },
        { file: "blocks/other/other.go", line: 3, column: 1, message: "elsewhere" },
      ],
    };
    expect(errorPositions(err, "blocks/clv/clv.go")).toEqual([
      { line: 5, column: 2, message: "undefined: x" },
      { line: 9, column: 1, message: "missing return" },
    ]);
  });
  it("uses the error's own line when there are no diagnostics", () => {
    expect(errorPositions({ code: "run", message: "boom", line: 7 }, "blocks/a/a.go")).toEqual([{ line: 7, column: 1, message: "boom" }]);
    expect(errorPositions({ code: "busy", message: "busy" }, "x")).toEqual([]);
  });
});

it("backs off from 250 ms to 5 s with jitter", () => {
  expect(backoff(0, 0.5)).toBe(250);
  expect(backoff(1, 0.5)).toBe(500);
  expect(backoff(10, 0.5)).toBe(5000);
  expect(backoff(10, 0)).toBe(4000);
  expect(backoff(10, 0.999)).toBeLessThanOrEqual(6000);
});
