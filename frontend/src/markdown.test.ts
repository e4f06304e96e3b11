import { describe, expect, it } from "vitest";
import { parseBlocks, parseInline, safeHref } from "./markdown";

describe("markdown", () => {
  it("splits headings, paragraphs, lists, quotes and fenced code", () => {
    const src = "# Orders\n\nOne row per order,\nper day.\n\n- raw\n- cleaned\n\n1. load\n2. sum\n\n> note\n\n```\nSELECT *\nFROM x\n```\n---";
    expect(parseBlocks(src)).toEqual([
      { kind: "h", level: 1, text: "Orders" },
      { kind: "p", text: "One row per order, per day." },
      { kind: "ul", items: ["raw", "cleaned"] },
      { kind: "ol", items: ["load", "sum"] },
      { kind: "quote", text: "note" },
      { kind: "code", text: "SELECT *\nFROM x" },
      { kind: "hr" },
    ]);
  });
  it("spans: code, bold, italics, links; unsafe links stay text", () => {
    expect(parseInline("a `x` **b** *c* [d](https://e.org) [f](javascript:alert(1))")).toEqual([
      { kind: "text", text: "a " },
      { kind: "code", text: "x" },
      { kind: "text", text: " " },
      { kind: "b", text: "b" },
      { kind: "text", text: " " },
      { kind: "i", text: "c" },
      { kind: "text", text: " " },
      { kind: "a", text: "d", href: "https://e.org" },
      { kind: "text", text: " " },
      { kind: "text", text: "[f](javascript:alert(1)" },
      { kind: "text", text: ")" },
    ]);
    expect(safeHref("/products/x")).toBe(true);
    expect(safeHref("data:text/html,x")).toBe(false);
  });
  it("keeps raw HTML as text (lit-html escapes it)", () => {
    expect(parseInline("<script>x</script>")).toEqual([{ kind: "text", text: "<script>x</script>" }]);
  });
});
