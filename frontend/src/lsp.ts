// Go cells talk to the project's gopls through /api/v1/lsp: completion,
// hover, signature help and diagnostics from @codemirror/lsp-client. One
// client (one websocket) per page, connected when the first Go cell opens.
// Files are named by their real path under the project folder, so gopls
// type-checks a block with its package, its imports and the SDK. Without
// gopls the server answers 503 with the install command; the editor goes
// on without it and says so once. When the socket drops (a server restart,
// a connection the server dropped for falling behind) the client connects
// again with backoff and every open Go cell gets the new connection, its
// text opened afresh. gopls's pop-up messages (warnings, errors) show at
// the top of the Go cell last focused, the one being edited, not of the
// first Go cell on the page (the client library's default).

import { LSPClient, languageServerExtensions, type Transport } from "@codemirror/lsp-client";
import { Compartment } from "@codemirror/state";
import { showDialog, type EditorView } from "@codemirror/view";
import { can } from "./role";
import { keepImportEdits } from "./lsp_imports";

interface Ready {
  client: LSPClient;
  root: string;
}

let ready: Promise<Ready | null> | null = null;
let told = false;
/** The Go cells' editors and their files, to hand a new connection to. */
const attached = new Map<EditorView, string>();
/** The Go cell focused last: where gopls's messages show. */
let lastActive: EditorView | null = null;
let retryDelay = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** How many times the client connected (for tests and the status line). */
export const lspStats = { connects: 0, drops: 0 };

function lspURL(): string {
  const l = location;
  return (l.protocol === "https:" ? "wss://" : "ws://") + l.host + "/api/v1/lsp";
}

/** A Transport over a websocket, queueing what is sent before it opens. */
function socketTransport(url: string, onClose: () => void): Transport {
  const ws = new WebSocket(url);
  const handlers = new Set<(m: string) => void>();
  const queue: string[] = [];
  ws.onopen = () => {
    for (const m of queue.splice(0)) ws.send(m);
  };
  ws.onmessage = (e) => {
    const m = keepImportEdits(String(e.data)); // lsp_imports.ts: gopls's addImport survives snippets
    for (const h of handlers) h(m);
  };
  ws.onclose = onClose;
  return {
    send(m) {
      if (ws.readyState === WebSocket.OPEN) ws.send(m);
      else if (ws.readyState === WebSocket.CONNECTING) queue.push(m);
    },
    subscribe: (h) => void handlers.add(h),
    unsubscribe: (h) => void handlers.delete(h),
  };
}

/** Shows why Go cells have no completion, once per page. */
function tellOnce(message: string): void {
  if (told) return;
  told = true;
  const note = document.createElement("div");
  note.className = "lsp-missing";
  note.setAttribute("role", "status");
  note.textContent = message;
  const close = document.createElement("button");
  close.textContent = "Dismiss";
  close.onclick = () => note.remove();
  note.append(" ", close);
  Object.assign(note.style, { position: "fixed", right: "1rem", bottom: "1rem", maxWidth: "32rem", padding: "0.6rem 0.8rem", background: "var(--bg-code, #fff)", border: "1px solid var(--line, #ccc)", borderRadius: "4px", zIndex: "50", fontSize: "13px" });
  document.body.append(note);
}

async function connect(): Promise<Ready | null> {
  if (!can("edit")) return null; // gopls serves editors; a viewer's source is read-only
  const res = await fetch("/api/v1/lsp", { credentials: "same-origin" });
  if (!res.ok) {
    let msg = `Go completion is off: GET /api/v1/lsp answered ${res.status}`;
    try {
      const body = (await res.json()) as { error?: { message?: string }; message?: string };
      msg = "Go completion is off: " + (body.error?.message ?? body.message ?? msg);
    } catch {
      /* keep the status */
    }
    tellOnce(msg);
    return null;
  }
  const info = (await res.json()) as { root_uri: string };
  const client = new LSPClient({
    rootUri: info.root_uri,
    timeout: 30000,
    extensions: languageServerExtensions(),
    notificationHandlers: { "window/showMessage": (_c, params: { type: number; message: string }) => showMessage(params) },
  });
  client.connect(
    socketTransport(lspURL(), () => {
      client.disconnect();
      ready = null;
      lspStats.drops++;
      scheduleReconnect();
    }),
  );
  lspStats.connects++;
  retryDelay = 0;
  return { client, root: info.root_uri.replace(/\/$/, "") };
}

/** Connects again after a drop, backing off while the server is away, then re-attaches every open Go cell. */
function scheduleReconnect(): void {
  clearTimeout(retryTimer);
  retryDelay = Math.min(retryDelay ? retryDelay * 2 : 250, 10_000);
  retryTimer = setTimeout(() => {
    for (const v of attached.keys()) if (!v.dom.isConnected) attached.delete(v);
    if (attached.size === 0) return; // the next Go cell opened connects
    void goServer().then((r) => {
      if (!r) return scheduleReconnect();
      for (const [view, file] of attached) plug(view, r, file);
    });
  }, retryDelay);
}

/** The Go cell a message of gopls belongs in: the one focused last, else the first open one. */
export function messageView(): EditorView | null {
  if (lastActive && lastActive.dom.isConnected && attached.has(lastActive)) return lastActive;
  for (const v of attached.keys()) if (v.dom.isConnected) return v;
  return null;
}

/** Shows a window/showMessage of gopls (warnings and errors; the proxy drops the rest) in messageView's cell. */
function showMessage(params: { type: number; message: string }): boolean {
  if (params.type > 3) return true; // a log line, not for the user
  const view = messageView();
  if (view) {
    const kind = params.type == 1 ? "error" : params.type == 2 ? "warning" : "info";
    showDialog(view, { label: params.message, class: "cm-lsp-message cm-lsp-message-" + kind, top: true });
  }
  return true;
}

function plug(view: EditorView, r: Ready, file: string): void {
  const uri = r.root + "/" + file.split("/").map(encodeURIComponent).join("/");
  view.dispatch({ effects: lspCompartment.reconfigure(r.client.plugin(uri, "go")) });
}

function goServer(): Promise<Ready | null> {
  if (!ready) {
    ready = connect().catch((e) => {
      console.warn("Go language server:", e);
      ready = null;
      return null;
    });
  }
  return ready;
}

/** The compartment a Go cell's editor keeps for the language server. */
export const lspCompartment = new Compartment();

/** Attaches gopls to a Go cell's editor for the block file `file` (relative to the project folder). */
export function attachGoServer(view: EditorView, file: string): void {
  attached.set(view, file);
  view.contentDOM.addEventListener("focus", () => (lastActive = view));
  void goServer().then((r) => {
    if (r) plug(view, r, file);
  });
}
