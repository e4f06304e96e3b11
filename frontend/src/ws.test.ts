import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// A stand-in for the browser's WebSocket: records what the client sends and
// lets the test play the server.
class FakeWS {
  static OPEN = 1;
  static all: FakeWS[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen?: () => void;
  onmessage?: (e: { data: string }) => void;
  onclose?: () => void;
  constructor(readonly url: string) {
    FakeWS.all.push(this);
  }
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = FakeWS.OPEN;
    this.onopen?.();
  }
  recv(m: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const store = new Map<string, string>();

beforeEach(() => {
  FakeWS.all = [];
  store.clear();
  vi.useFakeTimers();
  vi.stubGlobal("WebSocket", FakeWS);
  vi.stubGlobal("sessionStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function client() {
  const { WsClient } = await import("./ws");
  return new WsClient("ws://test/api/v1/ws");
}

describe("WsClient", () => {
  it("says hello with the tab's session, kept in sessionStorage", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    expect(c.state).toBe("open");
    const hello = FakeWS.all[0].sent[0];
    expect(hello).toMatchObject({ type: "hello", session: c.sessionId });
    expect(store.get("strata.session")).toBe(c.sessionId);
    const again = await client();
    expect(again.sessionId).toBe(c.sessionId);
  });

  it("executes, streams and finishes through the store, notifying the cell", async () => {
    const c = await client();
    c.connect();
    const ws = FakeWS.all[0];
    ws.open();
    const cells: string[] = [];
    c.onExec((cell) => cells.push(cell));
    const e = c.execute("clv", "raw_orders", "package x", "2024-01-02");
    if (typeof e === "string") throw new Error(e);
    expect(ws.sent[1]).toEqual({ type: "execute", id: e.id, pipeline: "clv", block: "raw_orders", source: "package x", partition: "2024-01-02" });
    ws.recv({ type: "status", id: e.id, state: "busy", exec_id: e.id, pipeline: "clv", block: "raw_orders" });
    ws.recv({ type: "stdout", id: e.id, data: "hi\n" });
    ws.recv({ type: "result", id: e.id, preview: { columns: [], rows: [], row_count: 0 }, duration_ms: 3 });
    expect(c.execs.forCell("clv", "raw_orders")).toMatchObject({ phase: "done", stdout: "hi\n" });
    expect(cells.every((x) => x === "clv/raw_orders")).toBe(true);
    expect(cells.length).toBeGreaterThanOrEqual(4);
  });

  it("refuses to execute while disconnected", async () => {
    const c = await client();
    expect(c.execute("p", "b", "", "")).toMatch(/not connected/);
  });

  it("reconnects with backoff, says hello again and re-subscribes its topics", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    const notices: unknown[] = [];
    const off = c.subscribe("backfill:bf_1", (n) => notices.push(n));
    expect(FakeWS.all[0].sent[1]).toMatchObject({ type: "subscribe", topic: "backfill:bf_1" });
    let reconnected = 0;
    c.onReconnect(() => reconnected++);
    FakeWS.all[0].drop();
    expect(c.state).toBe("closed");
    vi.advanceTimersByTime(400);
    expect(FakeWS.all).toHaveLength(2);
    FakeWS.all[1].open();
    expect(FakeWS.all[1].sent.map((m) => m.type)).toEqual(["hello", "subscribe"]);
    expect(reconnected).toBe(1);
    FakeWS.all[1].recv({ type: "event", topic: "backfill:bf_1", notice: { kind: "progress", progress: { done: 1 } } });
    FakeWS.all[1].recv({ type: "event", topic: "backfill:other", notice: { kind: "progress" } });
    expect(notices).toHaveLength(1);
    off();
    expect(FakeWS.all[1].sent.at(-1)).toMatchObject({ type: "unsubscribe", topic: "backfill:bf_1" });
  });

  it("after a reload, shows what the session still runs", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    FakeWS.all[0].recv({ type: "status", id: "hello-1-x", state: "busy", exec_id: "x-9", pipeline: "clv", block: "segments", partition: "2024-01-03" });
    expect(c.execs.forCell("clv", "segments")).toMatchObject({ id: "x-9", phase: "running" });
  });

  it("an execution left open when the session is idle after a reconnect is marked lost", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    const e = c.execute("p", "b", "", "");
    if (typeof e === "string") throw new Error(e);
    FakeWS.all[0].drop();
    vi.advanceTimersByTime(400);
    FakeWS.all[1].open();
    FakeWS.all[1].recv({ type: "status", id: "hello-2-x", state: "idle", session: c.sessionId });
    vi.advanceTimersByTime(2000);
    expect(c.execs.forCell("p", "b")).toMatchObject({ phase: "failed", error: { code: "lost" } });
  });

  it("a result delivered after the idle hello wins over 'lost'", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    const e = c.execute("p", "b", "", "");
    if (typeof e === "string") throw new Error(e);
    FakeWS.all[0].recv({ type: "status", id: "hello-2-x", state: "idle" });
    FakeWS.all[0].recv({ type: "result", id: e.id, preview: { columns: [], rows: [], row_count: 0 } });
    vi.advanceTimersByTime(2000);
    expect(c.execs.forCell("p", "b")?.phase).toBe("done");
  });

  it("a run started after the idle hello is not marked lost while its busy status is on the way", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    // Ctrl+Enter before the hello's answer came, and after it: neither is lost.
    const e = c.execute("p", "b", "", "");
    if (typeof e === "string") throw new Error(e);
    FakeWS.all[0].recv({ type: "status", id: "hello-1-x", state: "idle" });
    const e2 = c.execute("p", "b2", "", "");
    if (typeof e2 === "string") throw new Error(e2);
    vi.advanceTimersByTime(2000);
    expect(c.execs.forCell("p", "b2")?.phase).toBe("pending");
    expect(c.execs.forCell("p", "b")?.phase).toBe("pending");
    FakeWS.all[0].recv({ type: "status", id: e.id, state: "busy", exec_id: e.id, pipeline: "p", block: "b" });
    expect(c.execs.forCell("p", "b")?.phase).toBe("running");
  });

  it("takes a new session when another tab takes this one over", async () => {
    const c = await client();
    c.connect();
    FakeWS.all[0].open();
    const before = c.sessionId;
    FakeWS.all[0].recv({ type: "error", error: { code: "session_taken", message: "taken" } });
    expect(c.sessionId).not.toBe(before);
    expect(store.get("strata.session")).toBe(c.sessionId);
    expect(FakeWS.all[0].sent.at(-1)).toMatchObject({ type: "hello", session: c.sessionId });
  });
});
