// gopls completes a package the file does not import (a std package or a
// module of go.mod) with an edit that adds its import (the item's
// additionalTextEdits: gopls's addImport). @codemirror/lsp-client applies
// those edits only to plain-text items: for a snippet item (a function
// call, "ToUpper(${1:})") it inserts the snippet and drops the import, so
// the cell then fails to compile. This rewrites such items in the server's
// answer as plain text (the call's parentheses kept, its placeholders
// emptied) so the client applies the text and the import together.

interface LspItem {
  insertTextFormat?: number;
  insertText?: string;
  textEdit?: { newText: string };
  additionalTextEdits?: unknown[];
}

const SNIPPET = 2;
const PLAIN = 1;

/** A snippet as the text it inserts with every placeholder left empty. */
export function snippetText(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && i + 1 < s.length) {
      out += s[++i];
    } else if (c === "$" && s[i + 1] === "{") {
      // ${1:default} or ${1}: skipped with its nesting.
      let depth = 0;
      for (; i < s.length; i++) {
        if (s[i] === "{") depth++;
        else if (s[i] === "}" && --depth === 0) break;
      }
    } else if (c === "$" && /\d/.test(s[i + 1] ?? "")) {
      while (/\d/.test(s[i + 1] ?? "")) i++;
    } else out += c;
  }
  return out;
}

/** Rewrites the snippet items of a completion answer that carry import edits; other messages pass as they are. */
export function keepImportEdits(message: string): string {
  if (!message.includes("additionalTextEdits")) return message;
  let m: { result?: LspItem[] | { items?: LspItem[] } };
  try {
    m = JSON.parse(message);
  } catch {
    return message;
  }
  const items = Array.isArray(m.result) ? m.result : m.result?.items;
  if (!items) return message;
  let changed = false;
  for (const it of items) {
    if (it.insertTextFormat !== SNIPPET || !it.additionalTextEdits?.length) continue;
    if (it.textEdit) it.textEdit.newText = snippetText(it.textEdit.newText);
    if (it.insertText !== undefined) it.insertText = snippetText(it.insertText);
    it.insertTextFormat = PLAIN;
    changed = true;
  }
  return changed ? JSON.stringify(m) : message;
}
