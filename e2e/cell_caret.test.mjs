// The line being edited is never under the sticky heads. The page head and
// each cell's head (with its status line: "saved", "moved"…) stay in view
// while a long cell scrolls; CodeMirror scrolled the cursor into the window
// without knowing them, so moving up in a cell or typing at its top put the
// caret, and the text typed, under a head that covered it like a toast.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("caret");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "clv").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** What is drawn at the caret: inside the editor's text, or the element covering it. */
function atCaret() {
  return page.evaluate(async () => {
    // Once the editor has drawn and scrolled for the key (two frames).
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // CodeMirror's drawn cursor (a collapsed DOM range on an empty line has no box).
    const cursor = document.activeElement?.closest(".cm-editor")?.querySelector(".cm-cursor-primary");
    if (!cursor) return "no cursor";
    const r = cursor.getBoundingClientRect();
    const el = document.elementFromPoint(r.left + 2, r.top + r.height / 2);
    if (el?.closest(".cm-content")) return "text";
    const covering = el?.closest("[data-testid], header, section");
    return `covered by ${el?.tagName}.${el?.className} in ${covering?.tagName}.${covering?.className}`;
  });
}

test("moving up a long cell and typing keeps the caret below the sticky heads", async () => {
  const c = cell(page, "clv");
  // Scroll the page so clv's head sticks and its editor runs under it, then
  // walk the cursor up from line 21 to line 1, typing on the way.
  await c.locator(".cm-line").nth(20).click();
  await page.mouse.wheel(0, 250);
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("ArrowUp");
    const at = await atCaret();
    assert.equal(at, "text", `after ${i + 1} × ↑ the caret is ${at}`);
  }
  await page.keyboard.type("// typed at the top ");
  assert.equal(await atCaret(), "text");
  await screenshot(page, "cell-caret-top");
  // Down again, past the cell's visible end: the caret stays in view.
  for (let i = 0; i < 40; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await atCaret(), "text");
});
