// Per-column filters and header summaries on a cell's output of 1,000,000
// rows: each header says its type, nulls and range (or distinct count) over
// the whole output; a filter typed under a header applies on the server to
// every row (with the sort), and pages stay 100 rows. Durations are printed,
// never asserted.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("table-columns");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-03-10");
  await cell(page, "raw_orders").locator(".cm-content").waitFor({ timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const sql = `SELECT i AS n, CASE WHEN i % 10 = 0 THEN NULL ELSE i * 0.5 END AS amount, 'cust-' || (i % 5000) AS name
FROM range(1000000) t(i)`;

const grid = () => cell(page, "daily_customer_metrics").locator('[data-testid="result-grid"]');
const header = (col) => grid().locator(`thead th[data-col="${col}"]`);
const filterBox = (col) => grid().locator(`[data-testid="col-filter"][data-col="${col}"]`);
const rowCount = async () => Number((await grid().locator('[data-testid="row-count"]').innerText()).replace(/[^0-9]/g, ""));
const firstColumn = () => grid().locator("tbody tr td:first-child").allInnerTexts();

test("headers summarize all 1,000,000 rows", async () => {
  await cell(page, "raw_orders").locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await eventually(async () => (await cell(page, "raw_orders").locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 60_000, "raw_orders");
  const c = cell(page, "daily_customer_metrics");
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(sql);
  await page.keyboard.press("Control+Enter");
  await eventually(async () => (await c.locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 120_000, "the 1,000,000-row cell");
  assert.equal(await rowCount(), 1_000_000);
  const t0 = Date.now();
  await eventually(async () => (await grid().locator('[data-testid="col-summary"]').count()) === 3, 60_000, "three column summaries");
  console.log(`summaries of 1,000,000 rows shown in ${Date.now() - t0} ms after the table`);
  assert.equal(await header("n").locator('[data-testid="col-summary"]').innerText(), "0 … 999999 · no nulls");
  assert.equal(await header("amount").locator('[data-testid="col-summary"]').innerText(), "0.5 … 499999.5 · 100,000 nulls");
  assert.equal(await header("name").locator('[data-testid="col-summary"]').innerText(), "5,000 distinct · no nulls");
  assert.match(await header("name").innerText(), /string/, "with its type");
  // A small histogram under each numeric header (as marimo shows): 16 bins
  // counting every non-null value; none under text.
  const binned = async (col) => (await header(col).locator('[data-testid="col-hist"] i').evaluateAll((is) => is.map((i) => i.title)))
    .map((t) => Number(t.replace(/[^0-9]/g, "")));
  const nBins = await binned("n");
  assert.equal(nBins.length, 16);
  assert.equal(nBins.reduce((a, b) => a + b, 0), 1_000_000);
  assert.ok(nBins.every((b) => b >= 62_499 && b <= 62_501), `n is uniform: ${nBins}`);
  assert.equal((await binned("amount")).reduce((a, b) => a + b, 0), 900_000, "amount's nulls are not binned");
  assert.equal(await header("name").locator('[data-testid="col-hist"]').count(), 0);
  await screenshot(page, "table-columns-summary");
  await grid().screenshot({ path: "artifacts/e2e/table-columns-grid.png" });
});

test("a filter under a header applies to every row, with the sort and the row filter", async () => {
  let t0 = Date.now();
  await filterBox("amount").fill(">=499990");
  await eventually(async () => (await rowCount()) === 18, 30_000, "18 rows with amount >= 499990");
  console.log(`column filter over 1,000,000 rows: ${Date.now() - t0} ms to the new page`);
  // 999980..999999 without the multiples of 10 (null amounts): 18 rows.
  assert.match(await grid().locator('[data-testid="row-count"]').innerText(), /18 rows matching/);
  await header("n").click(); // ascending
  await header("n").click(); // descending
  await eventually(async () => (await firstColumn())[0] === "999999", 10_000, "sorted descending");
  assert.deepEqual((await firstColumn()).slice(0, 3), ["999999", "999998", "999997"]);

  await filterBox("name").fill("cust-4999");
  await eventually(async () => (await rowCount()) === 1, 10_000, "name contains cust-4999 too");
  assert.deepEqual(await firstColumn(), ["999999"], "both filters apply: 994999 is cust-4999 but its amount is below");

  await filterBox("name").fill("");
  await filterBox("amount").fill("null");
  t0 = Date.now();
  await eventually(async () => (await rowCount()) === 100_000, 30_000, "the 100,000 null amounts");
  console.log(`null filter + sort over 1,000,000 rows: ${Date.now() - t0} ms`);
  assert.equal((await firstColumn())[0], "999990", "still sorted descending");
  assert.equal(await grid().locator("tbody tr").count(), 100, "a page of 100 rows");
  await grid().locator('[data-testid="page-next"]').click();
  await eventually(async () => (await firstColumn())[0] === "998990", 10_000, "the second page");

  // A value the column cannot hold: said in the grid, nothing else breaks.
  await filterBox("amount").fill(">lots");
  await eventually(async () => /filter on amount: "lots" is not a DECIMAL/.test(await grid().innerText()), 10_000, "the bad filter explained");
  await filterBox("amount").fill("");
  await eventually(async () => (await rowCount()) === 1_000_000, 30_000, "all rows again");
  await screenshot(page, "table-columns-filtered");
});
