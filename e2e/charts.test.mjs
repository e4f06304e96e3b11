// Charts are aggregated by the server over the whole window: a month of
// raw orders (more rows than a browser page reads) draws all 31 days, in
// the pipeline's zone, as a line, bars or a histogram, and says what it
// aggregated. (The chart used to read the first 10,000 rows: 9 of 31 days.)

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, rows;

before(async () => {
  server = await startServer("charts");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-03-01", to: "2024-03-31", concurrency: 4 });
  await eventually(async () => (await server.api("GET", "/backfills/" + st.id)).state === "succeeded", 240_000, "the March backfill");
  rows = (await server.api("GET", "/products/clv__raw_orders/preview?period=2024-03&limit=1")).preview.row_count;
  assert.ok(rows > 10_000, `March holds ${rows} orders: the test needs more than a browser page`);
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-03-31");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const describe = () => cell(page, "raw_orders").locator('[data-testid="chart-describe"]').innerText();

test("a month of orders charts every day, aggregated on the server", async () => {
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="stored-tab"]').click();
  await c.locator('[data-testid="window-mode"]').selectOption("period");
  await c.locator('input[aria-label="calendar period"]').fill("2024-03");
  await c.locator('[data-testid="window-load"]').click();
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 10_000 });
  await c.locator('[data-testid="chart-toggle"]').click();
  await c.locator('[data-testid="chart-x"]').selectOption("ordered_at");
  const want = `sum of amount per day, 31 buckets over ${rows.toLocaleString("en-US")} rows`;
  await eventually(async () => (await describe()) === want, 20_000, `"${want}"`);
  const chart = c.locator('[data-testid="chart"]');
  assert.equal(await chart.locator("circle.pt").count(), 31);
  // The days are New York's: the first point is March 1st.
  assert.match(await chart.locator("circle.pt title").first().textContent(), /^2024-03-01: /);
  await screenshot(page, "chart-month-line");
});

test("bars per chosen bucket, and a histogram", async () => {
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="chart-kind"]').selectOption("bar");
  await c.locator('[data-testid="chart-bucket"]').selectOption("week");
  // ISO weeks touching March 2024: Feb 26, Mar 4, 11, 18 and 25.
  await eventually(async () => (await describe()).startsWith("sum of amount per week, 5 buckets over "), 20_000, "weekly bars");
  assert.equal(await c.locator('[data-testid="chart"] rect.bar').count(), 5);
  await c.locator('[data-testid="chart-agg"]').selectOption("count");
  await eventually(async () => (await describe()) === `rows per week, 5 buckets over ${rows.toLocaleString("en-US")} rows`, 20_000, "weekly counts");
  await c.locator('[data-testid="chart-kind"]').selectOption("histogram");
  await c.locator('[data-testid="chart-bins"]').selectOption("20");
  await eventually(async () => new RegExp(`^rows per range of amount, 20 bins of width [\\d.]+ over ${rows.toLocaleString("en-US")} rows$`).test(await describe()), 20_000, "the histogram");
  assert.equal(await c.locator('[data-testid="chart"] rect.bar').count(), 20);
  await screenshot(page, "chart-month-histogram");
});
