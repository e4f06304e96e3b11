// Journey: a cell whose interpreted run faults midway (a fault of the
// interpreter's plumbing, valid Go) is not re-run by itself: its error says
// "this valid Go needs compiled" at the line, once, with a "Run compiled"
// button; one click runs the same text compiled, which then reports Go's
// own panic and says it ran compiled on request.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, deleteLine, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("compiled-offer");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a fault midway offers Run compiled, and one click runs the cell compiled", async () => {
  const c = cell(page, "raw_orders");
  const line = await insertLineAfter(page, "raw_orders", "p := ctx.Partition", "_ = func(s []int, j int) []int { return s[1:j] }(make([]int, 2, 4), 5)");
  await page.keyboard.press("Control+Enter");
  const err = c.locator('[data-testid="run-error"]');
  await err.waitFor({ timeout: 60_000 });
  const text = await err.innerText();
  assert.match(text, new RegExp(`:${line}:\\d+: this valid Go needs compiled: `));
  assert.match(text, /not run again by itself/);
  assert.equal(await c.locator('[data-testid="cell-engine"]').count(), 0, "the cell must not have run compiled by itself");
  const button = c.locator('[data-testid="run-compiled"]');
  assert.equal(await button.count(), 1);
  await screenshot(page, "compiled-offer-fault");

  await button.click();
  const tag = c.locator('[data-testid="cell-engine"]');
  await tag.waitFor({ timeout: 180_000 }); // the first compiled run builds a worker
  assert.match(await tag.innerText(), /^compiled: on request/);
  assert.match(await c.locator('[data-testid="run-error"]').innerText(), /slice bounds out of range/);
  assert.equal(await c.locator('[data-testid="run-compiled"]').count(), 0, "a compiled failure offers nothing more");
  await screenshot(page, "compiled-offer-ran");
  await deleteLine(page, "raw_orders", "s[1:j]");
});

test("a cell's output past what it keeps says how much is not shown", async () => {
  const c = cell(page, "raw_orders");
  await insertLineAfter(page, "raw_orders", "p := ctx.Partition", 'for i := 0; i < 3000; i++ { fmt.Printf("%0100d\\n", i) }');
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 60_000 });
  const cut = c.locator('[data-testid="stdout-cut"]');
  await cut.waitFor({ timeout: 10_000 });
  // 3000 lines of 101 characters, of which the cell keeps the last 256 KiB.
  assert.match(await cut.innerText(), /… 40,856 earlier characters of output not shown: the cell keeps the last 256 KiB/);
  assert.match(await c.locator('[data-testid="stdout"]').innerText(), /0{96}2999\n/);
  await deleteLine(page, "raw_orders", "i < 3000");
});
