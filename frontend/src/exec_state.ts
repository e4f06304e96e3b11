// The editor's executions as a state machine driven by websocket messages.
// Pure: ws.ts feeds it what the server sends and the pages render what it
// holds. An execution is keyed by its id (the client picks it; after a
// reload the server names it in the hello status as exec_id) and belongs to
// one cell, pipeline/block.
//
//   pending --status busy--> running --result--> done
//      |                        |------error----> failed (or interrupted)
//      '------error (refused: busy, invalid, ...)----> failed

import type { InputOrigin, Preview, ServerMessage, WsErrorBody } from "./types";

export type ExecPhase = "pending" | "running" | "done" | "failed" | "interrupted";

export interface LogLine {
  level: string;
  msg: string;
  time?: string;
}

export interface Exec {
  id: string;
  pipeline: string;
  block: string;
  partition: string;
  phase: ExecPhase;
  stdout: string;
  logs: LogLine[];
  preview?: Preview;
  durationMs?: number;
  entry?: string;
  error?: WsErrorBody;
  /** Where each upstream came from (the session's draft or published data). */
  inputs?: InputOrigin[];
  /** Set when the cell ran compiled because the interpreter cannot run it ("compiled: range over a function"). */
  engine?: string;
  /** Bytes of the start of stdout the cell no longer holds (it keeps the last MAX_STDOUT). */
  stdoutCut?: number;
  /** The dynamic item a block under a dynamic parent ran as. */
  item?: string;
  /** performance.now() when sent or discovered; for the UI's own latency. */
  startedAt: number;
  /** Epoch ms the execution ended (a result or error arrived, or the server's time for a restored one). */
  endedAt?: number;
  /** Brought back from the server after a reload: the session's last output of the cell. */
  restored?: boolean;
}

export const MAX_STDOUT = 256 * 1024;

export function cellKey(pipeline: string, block: string): string {
  return `${pipeline}/${block}`;
}

export function isFinal(p: ExecPhase): boolean {
  return p === "done" || p === "failed" || p === "interrupted";
}

/**
 * Executions by id, plus the latest execution of each cell. apply returns the
 * cell key a message changed (null when it changed nothing the cells show).
 */
export class ExecStore {
  readonly byId = new Map<string, Exec>();
  readonly byCell = new Map<string, string>();
  /** The session's state as the server last said it. */
  sessionBusy = false;

  start(id: string, pipeline: string, block: string, partition: string, now: number): Exec {
    const e: Exec = { id, pipeline, block, partition, phase: "pending", stdout: "", logs: [], startedAt: now };
    this.byId.set(id, e);
    this.byCell.set(cellKey(pipeline, block), id);
    return e;
  }

  forCell(pipeline: string, block: string): Exec | undefined {
    const id = this.byCell.get(cellKey(pipeline, block));
    return id ? this.byId.get(id) : undefined;
  }

  /** The running execution of any cell, if one is. */
  running(): Exec | undefined {
    for (const e of this.byId.values()) if (!isFinal(e.phase)) return e;
    return undefined;
  }

  /** The ids of the executions open now (sent or running, no end heard). */
  openIds(): string[] {
    return [...this.byId.values()].filter((e) => !isFinal(e.phase)).map((e) => e.id);
  }

  /**
   * Ends as lost those of ids that are still open: after a reconnect the
   * server said the session is idle and sent no result for them. Only the
   * executions open when that status came can have lost their end; one
   * started since is on the new connection and its answers are on the way.
   */
  expireOpen(ids: string[] = this.openIds()): string[] {
    const out: string[] = [];
    for (const id of ids) {
      const e = this.byId.get(id);
      if (e && !isFinal(e.phase)) out.push(this.lose(e));
    }
    return out;
  }

  private lose(e: Exec): string {
    e.phase = "failed";
    e.error = { code: "lost", message: "the execution ended while the page was disconnected and its output was not received: run it again" };
    return cellKey(e.pipeline, e.block);
  }

  /**
   * Brings back a cell's last output the server kept for the session (after
   * a reload), unless the cell already shows an execution of this page.
   * Returns the cell key when it restored one.
   */
  restore(pipeline: string, block: string, partition: string, endedAt: number, m: ServerMessage, now: number): string | null {
    if (!m.id || this.byCell.has(cellKey(pipeline, block)) || (m.type !== "result" && m.type !== "error")) return null;
    const e = this.start(m.id, pipeline, block, partition, now);
    e.phase = "running";
    const cell = this.apply(m, now);
    e.endedAt = endedAt;
    e.restored = true;
    if (m.type === "result") e.partition = partition;
    return cell;
  }

  apply(m: ServerMessage, now: number): string | null {
    switch (m.type) {
      case "status": {
        this.sessionBusy = m.state === "busy";
        if (m.state === "busy" && m.exec_id) {
          let e = this.byId.get(m.exec_id);
          if (!e && m.pipeline && m.block) {
            // A reload: the server still runs what this session started.
            e = this.start(m.exec_id, m.pipeline, m.block, m.partition ?? "", now);
          }
          if (e && !isFinal(e.phase)) {
            e.phase = "running";
            return cellKey(e.pipeline, e.block);
          }
          return null;
        }
        if (m.state === "idle") {
          // The server sends an execution's result or error before the idle
          // status that follows it; an execution still open at its own idle
          // status lost its end.
          const e = m.id ? this.byId.get(m.id) : undefined;
          if (e && !isFinal(e.phase)) return this.lose(e);
        }
        return null;
      }
      case "stdout": {
        const e = m.id ? this.byId.get(m.id) : undefined;
        if (!e || isFinal(e.phase)) return null;
        e.phase = "running";
        e.stdout += m.data ?? "";
        if (e.stdout.length > MAX_STDOUT) {
          e.stdoutCut = (e.stdoutCut ?? 0) + e.stdout.length - MAX_STDOUT;
          e.stdout = e.stdout.slice(e.stdout.length - MAX_STDOUT);
        }
        return cellKey(e.pipeline, e.block);
      }
      case "log": {
        const e = m.id ? this.byId.get(m.id) : undefined;
        if (!e || isFinal(e.phase)) return null;
        e.phase = "running";
        e.logs.push({ level: m.level ?? "info", msg: m.msg ?? "", time: m.time });
        if (e.logs.length > 2000) e.logs.splice(0, e.logs.length - 2000);
        return cellKey(e.pipeline, e.block);
      }
      case "result": {
        const e = m.id ? this.byId.get(m.id) : undefined;
        if (!e) return null;
        e.phase = "done";
        e.endedAt = Date.now();
        e.preview = m.preview ?? { columns: [], rows: [], row_count: 0 };
        e.durationMs = m.duration_ms;
        e.entry = m.entry;
        e.inputs = m.inputs;
        e.engine = m.engine;
        e.item = m.item;
        if (m.partition) e.partition = m.partition;
        if (m.stdout) {
          e.stdout = m.stdout;
          e.stdoutCut = undefined;
        }
        return cellKey(e.pipeline, e.block);
      }
      case "error": {
        const e = m.id ? this.byId.get(m.id) : undefined;
        if (!e || !m.error) return null;
        if (isFinal(e.phase)) return null;
        e.phase = m.error.kind === "interrupted" ? "interrupted" : "failed";
        e.endedAt = Date.now();
        e.error = m.error;
        e.engine = m.engine;
        e.durationMs = m.duration_ms;
        return cellKey(e.pipeline, e.block);
      }
    }
    return null;
  }
}

/** Reconnect delay: 250 ms doubling to 5 s, with ±20% jitter from rnd in [0, 1). */
export function backoff(attempt: number, rnd = 0.5): number {
  const base = Math.min(5000, 250 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.8 + 0.4 * rnd));
}

/** Parses one websocket frame; null for anything that is not a message object. */
export function parseMessage(data: unknown): ServerMessage | null {
  if (typeof data !== "string") return null;
  try {
    const v = JSON.parse(data);
    return v && typeof v === "object" && typeof v.type === "string" ? (v as ServerMessage) : null;
  } catch {
    return null;
  }
}

/** Editor positions of a failed run: the error's own line and every diagnostic, for the block's file. */
export function errorPositions(err: WsErrorBody | undefined, file: string): { line: number; column: number; message: string }[] {
  if (!err) return [];
  const same = (f?: string) => !f || !file || f === file || file.endsWith("/" + f) || f.endsWith("/" + file) || baseName(f) === baseName(file);
  const out: { line: number; column: number; message: string }[] = [];
  for (const d of err.diagnostics ?? []) if (d.line > 0 && same(d.file)) out.push({ line: d.line, column: d.column || 1, message: d.message });
  if (err.line && err.line > 0 && same(err.file) && !out.some((d) => d.line === err.line)) {
    out.push({ line: err.line, column: err.column || 1, message: err.message });
  }
  return out;
}

function baseName(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}
