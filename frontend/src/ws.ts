// The websocket client: one connection per page to /api/v1/ws, reconnecting
// with backoff. It says hello with a session id kept in sessionStorage, so a
// reload reattaches to the editor session (and its kernel) the server keeps,
// and sees a block that is still running. Topic subscriptions are counted
// and re-sent after every reconnect. Execution state lives in ExecStore.

import { currentEnv } from "./env";
import { backoff, cellKey, ExecStore, type Exec, parseMessage } from "./exec_state";
import type { Notice, ServerMessage } from "./types";
import { can } from "./role";

export type ConnState = "connecting" | "open" | "closed";
type NoticeListener = (n: Notice, topic: string) => void;

const SESSION_KEY = "strata.session";

function newSessionId(): string {
  const r = globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2) + Date.now().toString(36);
  return "s-" + r.replace(/[^A-Za-z0-9_.-]/g, "");
}

function loadSessionId(): string {
  try {
    const v = sessionStorage.getItem(SESSION_KEY);
    if (v) return v;
    const id = newSessionId();
    sessionStorage.setItem(SESSION_KEY, id);
    return id;
  } catch {
    return newSessionId();
  }
}

export class WsClient {
  readonly execs = new ExecStore();
  state: ConnState = "closed";
  sessionId = loadSessionId();
  /** A refusal or protocol error not tied to an execution, for the status bar. */
  lastError = "";

  private ws?: WebSocket;
  private attempt = 0;
  private seq = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private topics = new Map<string, Set<NoticeListener>>();
  private execListeners = new Set<(cell: string) => void>();
  private connListeners = new Set<() => void>();
  private reconnectListeners = new Set<() => void>();
  private projectListeners = new Set<(files: string[]) => void>();
  private restartListeners = new Set<() => void>();
  private everOpened = false;
  /** The executions open when the last hello went out: the only ones its idle answer can show lost. */
  private openAtHello: string[] = [];

  constructor(private readonly url = defaultUrl()) {}

  connect(): void {
    if (this.ws) return;
    this.setState("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setState("open");
      // A session owns a kernel: only roles that may run cells ask for one.
      if (can("edit")) this.hello();
      for (const t of this.topics.keys()) this.send({ type: "subscribe", id: this.nextId("sub"), topic: t });
      if (this.everOpened) this.reconnectListeners.forEach((l) => l());
      this.everOpened = true;
    };
    ws.onmessage = (ev) => {
      const m = parseMessage(ev.data);
      if (m) this.handle(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.setState("closed");
      this.timer = setTimeout(() => this.connect(), backoff(this.attempt++, Math.random()));
    };
  }

  close(): void {
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = undefined;
    ws?.close();
    this.setState("closed");
  }

  /** Runs a cell's current text; returns the execution, or an error message when not connected. */
  /** engine "compiled" takes a failure's offer (error.offer): the cell runs on a compiled worker. */
  execute(pipeline: string, block: string, source: string, partition: string, item = "", engine = ""): Exec | string {
    if (this.state !== "open") return "not connected to the server (reconnecting…)";
    const id = this.nextId("x");
    const e = this.execs.start(id, pipeline, block, partition, performance.now());
    this.emitExec(cellKey(pipeline, block));
    this.send({ type: "execute", id, pipeline, block, source, partition, ...(item ? { item } : {}), ...(engine ? { engine } : {}), ...(currentEnv() ? { env: currentEnv() } : {}) });
    return e;
  }

  /** Kills the session's kernel (ending a running cell) and starts a fresh one; the drafts stay. */
  restart(): boolean {
    if (this.state !== "open") return false;
    this.send({ type: "restart", id: this.nextId("restart") });
    return true;
  }

  /** Called when the server says the session's kernel was replaced (a restart, or a crash). */
  onRestarted(l: () => void): () => void {
    this.restartListeners.add(l);
    return () => this.restartListeners.delete(l);
  }

  interrupt(execId: string): void {
    this.send({ type: "interrupt", id: this.nextId("int"), exec_id: execId });
  }

  /** Subscribes to engine notices of topic; returns the unsubscribe function. */
  subscribe(topic: string, l: NoticeListener): () => void {
    let set = this.topics.get(topic);
    if (!set) {
      set = new Set();
      this.topics.set(topic, set);
      if (this.state === "open") this.send({ type: "subscribe", id: this.nextId("sub"), topic });
    }
    set.add(l);
    return () => {
      const s = this.topics.get(topic);
      if (!s) return;
      s.delete(l);
      if (s.size === 0) {
        this.topics.delete(topic);
        if (this.state === "open") this.send({ type: "unsubscribe", id: this.nextId("unsub"), topic });
      }
    };
  }

  onExec(l: (cell: string) => void): () => void {
    this.execListeners.add(l);
    return () => this.execListeners.delete(l);
  }

  onConn(l: () => void): () => void {
    this.connListeners.add(l);
    return () => this.connListeners.delete(l);
  }

  /** Called after a reconnect: pages re-read state that events may have missed. */
  onReconnect(l: () => void): () => void {
    this.reconnectListeners.add(l);
    return () => this.reconnectListeners.delete(l);
  }

  /** Called when project files changed on disk and the server reloaded the project. */
  onProject(l: (files: string[]) => void): () => void {
    this.projectListeners.add(l);
    return () => this.projectListeners.delete(l);
  }

  private handle(m: ServerMessage): void {
    if (m.type === "project") {
      this.projectListeners.forEach((l) => l(m.files ?? []));
      return;
    }
    if (m.type === "event" && m.topic && m.notice) {
      this.topics.get(m.topic)?.forEach((l) => l(m.notice!, m.topic!));
      return;
    }
    if (m.type === "error" && m.error?.code === "session_taken") {
      // Another tab (a duplicated one shares sessionStorage) took the session: start our own.
      this.sessionId = newSessionId();
      try {
        sessionStorage.setItem(SESSION_KEY, this.sessionId);
      } catch {
        /* private mode */
      }
      this.hello();
      return;
    }
    if (m.type === "status" && m.id?.startsWith("hello-") && m.state === "idle") {
      // The session is idle after a reconnect. A result that ended while we
      // were away follows this status at once; what was open when the hello
      // went out and is still open after a moment lost its end. A run sent
      // after the hello is not a candidate: the server answers it after the
      // hello, and its busy status may be slow (a loaded server); the sweep
      // once marked such a run lost while the kernel ran it.
      const open = this.openAtHello;
      this.openAtHello = [];
      if (open.length)
        setTimeout(() => {
          if (!this.execs.sessionBusy) this.execs.expireOpen(open).forEach((c) => this.emitExec(c));
        }, 1500);
    }
    if (m.type === "status" && m.restarted) this.restartListeners.forEach((l) => l());
    const cell = this.execs.apply(m, performance.now());
    if (cell) this.emitExec(cell);
    else if (m.type === "error" && m.error) {
      this.lastError = m.error.message;
      this.connListeners.forEach((l) => l());
    }
  }

  private emitExec(cell: string): void {
    this.execListeners.forEach((l) => l(cell));
  }

  private setState(s: ConnState): void {
    this.state = s;
    this.connListeners.forEach((l) => l());
  }

  /** Says hello with the session id; what is open now may have lost its end while we were away. */
  private hello(): void {
    this.openAtHello = this.execs.openIds();
    this.send({ type: "hello", id: this.nextId("hello"), session: this.sessionId });
  }

  private nextId(prefix: string): string {
    return `${prefix}-${++this.seq}-${Date.now().toString(36)}`;
  }

  private send(m: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }
}

function defaultUrl(): string {
  const l = globalThis.location;
  if (!l) return "ws://127.0.0.1:6789/api/v1/ws";
  return (l.protocol === "https:" ? "wss://" : "ws://") + l.host + "/api/v1/ws";
}

/** The page's one client. */
export const ws = new WsClient();
