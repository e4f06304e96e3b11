import { describe, expect, it } from "vitest";
import { keepImportEdits, snippetText } from "./lsp_imports";

describe("completions that add an import", () => {
  it("reads a snippet as its text with empty placeholders", () => {
    expect(snippetText("ToUpper(${1:})")).toBe("ToUpper()");
    expect(snippetText("NewSHA1(${1:space UUID}, ${2:data []byte})$0")).toBe("NewSHA1(, )");
    expect(snippetText("Fields(${1:s ${2:string}})")).toBe("Fields()");
    expect(snippetText("a \\$1 b")).toBe("a $1 b");
  });

  it("turns a snippet item with import edits into plain text, keeping the edits", () => {
    const importEdit = { range: { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, newText: '\t"strings"\n' };
    const msg = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      result: {
        isIncomplete: true,
        items: [
          { label: "ToUpper", insertTextFormat: 2, textEdit: { newText: "ToUpper(${1:})", range: {} }, additionalTextEdits: [importEdit] },
          { label: "ToLower", insertTextFormat: 2, textEdit: { newText: "ToLower(${1:})", range: {} } },
        ],
      },
    });
    const out = JSON.parse(keepImportEdits(msg));
    expect(out.result.items[0]).toMatchObject({ insertTextFormat: 1, textEdit: { newText: "ToUpper()" }, additionalTextEdits: [importEdit] });
    expect(out.result.items[1]).toMatchObject({ insertTextFormat: 2, textEdit: { newText: "ToLower(${1:})" } }); // no import edit: the snippet stays
  });

  it("leaves every other message alone", () => {
    const diag = '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[]}}';
    expect(keepImportEdits(diag)).toBe(diag);
    expect(keepImportEdits("not json additionalTextEdits")).toBe("not json additionalTextEdits");
  });
});
