// A block cell's CodeMirror 6 editor: Go or SQL highlighting, bracket
// matching, search, undo (basicSetup), Ctrl/Cmd+Enter to run, Ctrl/Cmd+S to
// save, and lint diagnostics for errors at a line of the block.

import { go } from "@codemirror/lang-go";
import { sql, PostgreSQL } from "@codemirror/lang-sql";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { indentUnit } from "@codemirror/language";
import { attachGoServer, lspCompartment } from "./lsp";
import { yamlLanguage } from "./yaml_mode";
import { can } from "./role";

export interface EditorHooks {
  run: () => void;
  /** Shift+Enter, as in Jupyter: run, then go to the next cell (run alone when unset). */
  runNext?: () => void;
  /** Esc with nothing else to close (a completion, a search): leave the editor for command mode. */
  escape?: () => void;
  save: () => void;
  change: (dirty: boolean) => void;
  /** Every change of the text, for drafts kept in the browser. */
  edit?: (text: string, dirty: boolean) => void;
  /** The block file, relative to the project folder: Go cells get gopls for it. */
  file?: string;
  /** A SQL cell's relations and their columns (from the warehouse catalog), for completion. */
  sqlTables?: () => Promise<Record<string, { label: string; detail: string }[]>>;
}

export interface CellEditor {
  view: EditorView;
  text(): string;
  setText(s: string): void;
  markSaved(s?: string): void;
  dirty(): boolean;
  showErrors(errs: { line: number; column: number; message: string }[]): void;
  clearErrors(): void;
}

const theme = EditorView.theme({
  "&": { fontSize: "13px", border: "1px solid var(--line)", borderRadius: "4px", background: "var(--bg-code)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-1px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.45", maxHeight: "28rem", overflow: "auto" },
  ".cm-gutters": { background: "var(--bg-code)", borderRight: "1px solid var(--line)" },
});

/**
 * The page head and the cell's head stick to the top of the window while a
 * long cell scrolls (pipeline.ts); CodeMirror scrolls the cursor into the
 * window without knowing them, so moving up or typing at a cell's top left
 * the caret under a head. After each change that asks for the cursor in
 * view, the window scrolls up by what the heads still cover of it.
 */
const keepBelowStickyHeads = EditorView.updateListener.of((u) => {
  if (!u.view.hasFocus || !u.transactions.some((tr) => tr.scrollIntoView)) return;
  const view = u.view;
  // After CodeMirror's own measure (its frame was asked for first), which
  // scrolls its scroller and the window for the cursor.
  requestAnimationFrame(() => {
    const head = view.dom.closest(".cell")?.querySelector<HTMLElement>(":scope > .cell-head");
    const caret = view.coordsAtPos(view.state.selection.main.head);
    if (!head || !caret) return;
    const cover = head.getBoundingClientRect().bottom;
    if (caret.top < cover) window.scrollBy(0, -(cover - caret.top + 4));
  });
});

export function createEditor(parent: HTMLElement, source: string, kind: string, hooks: EditorHooks): CellEditor {
  let saved = source;
  let wasDirty = false;
  const sqlLang = new Compartment();
  const lang = kind === "sql" ? sqlLang.of(sql({ dialect: PostgreSQL })) : kind === "yaml" ? yamlLanguage : go();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: source,
      extensions: [
        Prec.highest(
          keymap.of([
            { key: "Mod-Enter", run: () => (hooks.run(), true), preventDefault: true },
            { key: "Shift-Enter", run: () => ((hooks.runNext ?? hooks.run)(), true), preventDefault: true },
            { key: "Mod-s", run: () => (hooks.save(), true), preventDefault: true },
          ]),
        ),
        basicSetup,
        // After basicSetup: its Escape (closing a completion or search) goes first.
        keymap.of([{ key: "Escape", run: () => (hooks.escape ? (hooks.escape(), true) : false) }]),
        lang,
        // Go is indented with tabs (gofmt's way); the language server joins later.
        kind === "sql" ? [] : kind === "yaml" ? [indentUnit.of("  ")] : [indentUnit.of("\t"), lspCompartment.of([])],
        lintGutter(),
        theme,
        EditorView.contentAttributes.of({ "aria-label": kind === "yaml" ? "YAML file" : "block source" }),
        // A viewer reads the source; the server would refuse its save anyway.
        EditorState.readOnly.of(!can("edit")),
        EditorView.editable.of(can("edit")),
        keepBelowStickyHeads,
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          const text = u.state.doc.toString();
          const d = text !== saved;
          hooks.edit?.(text, d);
          if (d !== wasDirty) {
            wasDirty = d;
            hooks.change(d);
          }
        }),
      ],
    }),
  });
  if (kind !== "sql" && kind !== "yaml" && hooks.file) attachGoServer(view, hooks.file);
  if (kind === "sql" && hooks.sqlTables) {
    // Table and column names come from the catalog (or the session's
    // drafts): read again each time the cell gets focus, so an upstream
    // run or published a moment ago shows up.
    let last = 0;
    const load = () => {
      if (Date.now() - last < 1_000) return;
      last = Date.now();
      void hooks.sqlTables!().then((schema) => view.dispatch({ effects: sqlLang.reconfigure(sql({ dialect: PostgreSQL, schema })) })).catch(() => (last = 0));
    };
    view.contentDOM.addEventListener("focus", load);
    load();
  }
  const ed: CellEditor = {
    view,
    text: () => view.state.doc.toString(),
    setText(s) {
      // Replace only what differs, so the cursor and scroll stay put when a
      // save comes back formatted or a reload changes one line.
      const cur = view.state.doc.toString();
      if (cur === s) return;
      let a = 0;
      while (a < cur.length && a < s.length && cur[a] === s[a]) a++;
      let b = 0;
      while (b < cur.length - a && b < s.length - a && cur[cur.length - 1 - b] === s[s.length - 1 - b]) b++;
      view.dispatch({ changes: { from: a, to: cur.length - b, insert: s.slice(a, s.length - b) } });
    },
    markSaved(s) {
      saved = s ?? view.state.doc.toString();
      wasDirty = view.state.doc.toString() !== saved;
      hooks.change(wasDirty);
    },
    dirty: () => view.state.doc.toString() !== saved,
    showErrors(errs) {
      const doc = view.state.doc;
      const diags: Diagnostic[] = errs.map((e) => {
        const line = doc.line(Math.min(Math.max(1, e.line), doc.lines));
        const from = Math.min(line.to, line.from + Math.max(0, e.column - 1));
        // Underline from the column to the end of the word (or the line).
        const rest = doc.sliceString(from, line.to);
        const word = /^[\w.]+/.exec(rest)?.[0].length ?? 0;
        const to = word > 0 ? from + word : line.to > from ? line.to : from;
        return { from: to > from ? from : line.from, to: Math.max(to, line.to > line.from && to === from ? line.to : to), severity: "error", message: e.message, source: `line ${e.line}` };
      });
      view.dispatch(setDiagnostics(view.state, diags));
      if (diags.length) {
        view.dispatch({ effects: EditorView.scrollIntoView(diags[0].from, { y: "nearest" }) });
      }
    },
    clearErrors() {
      view.dispatch(setDiagnostics(view.state, []));
    },
  };
  return ed;
}
