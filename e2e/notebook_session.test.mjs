// Journey: a notebook session. Cells feed cells: a downstream cell reads the
// draft its upstream cell just produced in this tab, with nothing published,
// and says so.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("session");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a downstream cell reads its upstream cell's unsaved output (the session's draft) and says so", async () => {
  // Forty customers instead of thousands: a handful of orders.
  await insertLineAfter(page, "raw_orders", "seconds := int64(", "customers = 40");
  const up = cell(page, "raw_orders");
  await page.keyboard.press("Control+Enter");
  await up.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  const orders = Number((await up.locator('[data-testid="row-count"]').innerText()).match(/^(\d+)/)[1]);
  assert.ok(orders >= 1 && orders < 40, `${orders} orders from 40 customers`);
  // Nothing is published: the SQL cell below runs on the draft.
  const down = cell(page, "daily_customer_metrics");
  await down.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await down.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  const rows = Number((await down.locator('[data-testid="row-count"]').innerText()).match(/^(\d+)/)[1]);
  assert.ok(rows >= 1 && rows <= orders, `daily metrics of ${orders} orders: ${rows} rows`);
  assert.match(await down.locator('[data-testid="input-raw_orders"]').innerText(), /^raw_orders: your draft from \d\d:\d\d$/);
  await screenshot(page, "session-draft-feeds-downstream");
  // Publish the saved pipeline; a cell reading published data says which version.
  await page.getByRole("button", { name: /Run pipeline for 2024-01-03/ }).click();
  await eventually(async () => (await page.locator('[data-testid="dag"] g.node.succeeded').count()) >= 6, 60_000, "the run to finish");
  const clv = cell(page, "clv");
  await clv.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await clv.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  // clv reads daily_customer_metrics: this session's draft of it, which wins over published.
  assert.match(await clv.locator('[data-testid="input-daily_customer_metrics"]').innerText(), /your draft/);
  // Another tab is another session: it has no drafts and reads published v1.
  const other = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  const d2 = cell(other, "daily_customer_metrics");
  await d2.locator(".cm-content").click();
  await other.keyboard.press("Control+Enter");
  await d2.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.equal(await d2.locator('[data-testid="input-raw_orders"]').innerText(), "raw_orders: published v1");
  await other.context().close();
});
