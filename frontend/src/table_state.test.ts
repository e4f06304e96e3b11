import { describe, expect, it } from "vitest";
import { inSelection, nextSort, selectionTSV, sortParam } from "./table_state";

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
