import { describe, expect, it } from "vitest";
import { columnsParam, histHeights, inSelection, nextSort, selectionTSV, sortParam, summaryLine } from "./table_state";

describe("sort", () => {
  it("cycles ascending, descending, off", () => {
    let k = nextSort([], "amount", false);
    expect(sortParam(k)).toBe("amount");
    k = nextSort(k, "amount", false);
    expect(sortParam(k)).toBe("amount:desc");
    expect(nextSort(k, "amount", false)).toEqual([]);
  });
  it("adds keys with shift and replaces without", () => {
    let k = nextSort([], "a", false);
    k = nextSort(k, "b", true);
    expect(sortParam(k)).toBe("a,b");
    k = nextSort(k, "a", true);
    expect(sortParam(k)).toBe("a:desc,b");
    expect(sortParam(nextSort(k, "c", false))).toBe("c");
  });
});

describe("selection", () => {
  const text = [
    ["1", "a\tb", "x"],
    ["2", "c", 'say "hi"'],
    ["3", "d", "z"],
  ];
  it("copies a rectangle as TSV, quoting fields with tabs or quotes", () => {
    const s = { anchor: { row: 1, col: 2 }, focus: { row: 0, col: 1 } };
    expect(selectionTSV(text, ["n", "s", "t"], s, true)).toBe('s\tt\n"a\tb"\tx\nc\t"say ""hi"""');
    expect(inSelection(s, 0, 1)).toBe(true);
    expect(inSelection(s, 2, 1)).toBe(false);
  });
  it("copies one cell as its text", () => {
    expect(selectionTSV(text, ["n", "s", "t"], { anchor: { row: 2, col: 0 }, focus: { row: 2, col: 0 } })).toBe("3");
  });
});

describe("column filters and summaries", () => {
  it("sends only the boxes with text", () => {
    expect(columnsParam(new Map())).toBe("");
    expect(columnsParam(new Map([["a", " "], ["b", ""]]))).toBe("");
    expect(columnsParam(new Map([["amount", ">100"], ["name", ""], ["d", "null"]]))).toBe('{"amount":">100","d":"null"}');
  });

  it("reads a summary in a line", () => {
    expect(summaryLine({ name: "n", type: "int64", rows: 250, nulls: 0, min: "0", max: "249" })).toBe("0 … 249 · no nulls");
    expect(summaryLine({ name: "a", type: "decimal", rows: 250, nulls: 5, min: "1.5", max: "1.5" })).toBe("all 1.5 · 5 nulls");
    expect(summaryLine({ name: "s", type: "string", rows: 1_000_000, nulls: 1, distinct: 10_000, distinct_more: true })).toBe("10,000+ distinct · 1 null");
    expect(summaryLine({ name: "s", type: "string", rows: 3, nulls: 0, distinct: 2 })).toBe("2 distinct · no nulls");
    expect(summaryLine({ name: "x", type: "int64", rows: 3, nulls: 3 })).toBe("all null");
  });
});

describe("histHeights", () => {
  it("scales to the tallest bin and keeps a sliver for small non-empty bins", () => {
    expect(histHeights([0, 1, 50, 100])).toEqual([0, 8, 50, 100]);
    expect(histHeights([0, 0])).toEqual([0, 0]);
  });
});
