// Go cells and the language server over time: gofmt on save (an option, on
// by default), the same block open in two tabs with completion in both, and
// an open editor that gets completion again after the server restarts.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("lsp-session");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Types a new line after the line holding anchor and waits for a completion item holding want. */
async function completeAfter(p, block, anchor, typed, want) {
  const c = cell(p, block);
  await c.locator(".cm-line", { hasText: anchor }).first().click();
  await p.keyboard.press("End");
  await p.keyboard.press("Enter");
  await p.keyboard.type(typed, { delay: 20 });
  const menu = p.locator(".cm-tooltip-autocomplete");
  await menu.locator("li", { hasText: want }).first().waitFor({ timeout: 60_000 });
  const items = await menu.locator("li").allInnerTexts();
  await p.keyboard.press("Escape");
  return items;
}

test("gofmt on save formats a Go cell; turned off, the text is saved as typed", async () => {
  const file = join(server.project, "blocks/raw_orders/raw_orders.go");
  const c = cell(page, "raw_orders");
  assert.equal(await page.locator('[data-testid="gofmt-on-save"]').isChecked(), true);
  await c.locator(".cm-line", { hasText: "p := ctx.Partition" }).first().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.insertText("_ =   1+2");
  await page.keyboard.press("Control+s");
  await eventually(async () => (await c.locator('[data-testid="cell-status"]').innerText()).startsWith("saved"), 15_000, "the save");
  assert.match(readFileSync(file, "utf8"), /\n\t_ = 1 \+ 2\n/);
  assert.equal(await c.locator(".cm-line", { hasText: "_ = 1 + 2" }).count(), 1, "the editor shows the formatted line");
  assert.equal(await c.locator('[data-testid="dirty"]').count(), 0);
  // Off: saved as typed.
  await page.locator('[data-testid="gofmt-on-save"]').uncheck();
  await c.locator(".cm-line", { hasText: "_ = 1 + 2" }).click();
  await page.keyboard.press("End");
  await page.keyboard.insertText("  ;_ = 3");
  await page.keyboard.press("Control+s");
  await eventually(async () => /_ = 1 \+ 2  ;_ = 3/.test(readFileSync(file, "utf8")), 15_000, "the unformatted save");
  await page.locator('[data-testid="gofmt-on-save"]').check();
});

test("the same block open in two tabs completes in both, each at its own text", async () => {
  const items = await completeAfter(page, "raw_orders", "p := ctx.Partition", "_ = ctx.Partition.St", "Start");
  assert.ok(items.some((t) => t.includes("Start") && t.includes("time.Time")), items.join(" | "));
  const other = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  other.on("dialog", (d) => d.accept());
  await cell(other, "raw_orders").locator(".cm-content").waitFor();
  // The second tab's text lacks the first tab's unsaved line; its own edit completes there.
  const items2 = await completeAfter(other, "raw_orders", "p := ctx.Partition", "_ = p.En", "End");
  assert.ok(items2.some((t) => t.includes("End") && t.includes("time.Time")), items2.join(" | "));
  // And the first tab still completes after the second one closes the file.
  await other.context().close();
  const items3 = await completeAfter(page, "raw_orders", "_ = ctx.Partition.St", "_ = p.Ke", "Key");
  assert.ok(items3.some((t) => t.includes("Key")), items3.join(" | "));
});

test("a SQL cell completes its tables and their columns from the catalog (or this session's draft)", async () => {
  // raw_orders run in this session: its draft's columns are what the SQL cell below can name.
  const up = cell(page, "raw_orders");
  // The completion journeys above left half-typed lines: back to the saved text.
  await up.locator("details.menu summary").click();
  await up.getByRole("button", { name: "Revert to saved" }).click();
  await up.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await up.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  const c = cell(page, "daily_customer_metrics");
  // Focusing the cell reads its tables again (now with the draft's columns).
  const schema = page.waitForResponse((r) => r.url().includes("/blocks/daily_customer_metrics/sql-tables"));
  await c.locator(".cm-line", { hasText: "ORDER BY customer_id" }).click();
  const tables = await (await schema).json();
  assert.ok(tables.tables[0].draft && tables.tables[0].columns.some((col) => col.name === "amount"), JSON.stringify(tables));
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("raw_or", { delay: 30 });
  const menu = page.locator(".cm-tooltip-autocomplete");
  await menu.locator("li", { hasText: "raw_orders" }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Escape");
  await page.keyboard.type("ders.am", { delay: 30 });
  await menu.locator("li", { hasText: "amount" }).first().waitFor({ timeout: 15_000 });
  const items = await menu.locator("li").allInnerTexts();
  assert.ok(items.some((t) => t.includes("amount") && t.includes("float64")), items.join(" | "));
  await page.keyboard.press("Escape");
  await screenshot(page, "sql-completion");
  // Published data names the columns too, for a tab with no drafts.
  const r = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics/sql-tables");
  assert.deepEqual(r.tables.map((t) => [t.name, t.columns.length]), [["raw_orders", 0]], "nothing published yet");
});

test("an open Go cell completes again after the server restarts", async () => {
  await server.restart();
  // No reload: the page reconnects by itself (the notebook socket and the language server's).
  const items = await completeAfter(page, "clv", "margin, err :=", "_ = ctx.Partition.St", "Start");
  assert.ok(items.some((t) => t.includes("Start") && t.includes("time.Time")), `after the restart: ${items.join(" | ")}`);
  await screenshot(page, "lsp-after-restart");
});
