import { describe, expect, it } from "vitest";
import { DraftStore, draftKey, shouldRestore } from "./drafts";
import { compactDiff, lineDiff } from "./line_diff";

class MemStorage {
  m = new Map<string, string>();
  getItem(k: string) { return this.m.get(k) ?? null; }
  setItem(k: string, v: string) { this.m.set(k, v); }
  removeItem(k: string) { this.m.delete(k); }
}

describe("DraftStore", () => {
  it("keeps a draft per project and block until dropped", () => {
    const s = new DraftStore(new MemStorage() as unknown as Storage);
    const k = draftKey("127.0.0.1:6789", "clv", "raw_orders");
    expect(k).not.toBe(draftKey("127.0.0.1:6790", "clv", "raw_orders"));
    s.put(k, { text: "x", base: '"e1"', at: 1 });
    expect(s.get(k)?.text).toBe("x");
    s.drop(k);
    expect(s.get(k)).toBeUndefined();
  });
  it("restores only a draft that differs from the file", () => {
    expect(shouldRestore({ text: "a", base: "", at: 0 }, "a")).toBe(false);
    expect(shouldRestore({ text: "b", base: "", at: 0 }, "a")).toBe(true);
    expect(shouldRestore(undefined, "a")).toBe(false);
  });
});

describe("lineDiff", () => {
  it("marks lines only mine with - and only theirs with +", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc")).toEqual([
      { op: " ", text: "a" }, { op: "-", text: "b" }, { op: "+", text: "B" }, { op: " ", text: "c" },
    ]);
  });
  it("elides unchanged runs", () => {
    const d = compactDiff(lineDiff("1\n2\n3\n4\n5\n6", "1\n2\n3\n4\n5\nsix"));
    expect(d[0]).toBeNull();
    expect(d.slice(1).map((l) => l && l.op + l.text)).toEqual([" 5", "-6", "+six"]);
  });
});
