import { describe, expect, it } from "vitest";
import { CommandKeys, moveTarget } from "./cell_keys";

describe("command mode keys", () => {
  it("maps Jupyter's keys", () => {
    const k = new CommandKeys();
    expect(k.key({ key: "a" })).toEqual({ kind: "add", where: "above" });
    expect(k.key({ key: "B", shiftKey: true })).toEqual({ kind: "add", where: "below" });
    expect(k.key({ key: "Enter" })).toEqual({ kind: "edit" });
    expect(k.key({ key: "Enter", shiftKey: true })).toEqual({ kind: "run", next: true });
    expect(k.key({ key: "Enter", ctrlKey: true })).toEqual({ kind: "run", next: false });
    expect(k.key({ key: "ArrowDown" })).toEqual({ kind: "select", delta: 1 });
    expect(k.key({ key: "k" })).toEqual({ kind: "select", delta: -1 });
    expect(k.key({ key: "ArrowUp", altKey: true })).toEqual({ kind: "move", delta: -1 });
    expect(k.key({ key: "ArrowDown", ctrlKey: true, shiftKey: true })).toEqual({ kind: "move", delta: 1 });
    expect(k.key({ key: "m" })).toEqual({ kind: "note" });
    // Ctrl+A, Ctrl+D … stay the browser's.
    expect(k.key({ key: "a", ctrlKey: true })).toEqual({ kind: "none" });
  });

  it("removes on D D only, two in a row", () => {
    const k = new CommandKeys();
    expect(k.key({ key: "d" })).toEqual({ kind: "pending" });
    expect(k.key({ key: "d" })).toEqual({ kind: "delete" });
    expect(k.key({ key: "d" })).toEqual({ kind: "pending" });
    expect(k.key({ key: "j" })).toEqual({ kind: "select", delta: 1 });
    expect(k.key({ key: "d" })).toEqual({ kind: "pending" });
    k.reset();
    expect(k.key({ key: "d" })).toEqual({ kind: "pending" });
    expect(k.key({ key: "Shift" })).toEqual({ kind: "none" });
    expect(k.key({ key: "D", shiftKey: true })).toEqual({ kind: "delete" });
  });

  it("moves a block by one place, not past the ends", () => {
    const o = ["a", "b", "c"];
    expect(moveTarget(o, "b", -1)).toBe("a");
    expect(moveTarget(o, "b", 1)).toBe("");
    expect(moveTarget(o, "a", 1)).toBe("c");
    expect(moveTarget(o, "a", -1)).toBeUndefined();
    expect(moveTarget(o, "c", 1)).toBeUndefined();
    expect(moveTarget(o, "x", 1)).toBeUndefined();
  });
});
