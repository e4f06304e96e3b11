// Journey: exact values in the result table. Dates stay dates and naive
// timestamps wall times whatever the display zone; only instants follow the
// zone and show their offset; HUGEINT, UBIGINT, DECIMAL(38,10) and int64
// beyond 2^53 are exact; the zone defaults to the pipeline's. Then the table
// itself: sort over the whole output on the server, pages past 100 rows,
// filter, resize, copy as TSV and CSV export, from a Go block's output.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("exact");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-03-10");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.base });
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function runText(block, text) {
  const c = cell(page, block);
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Control+Enter");
  await eventually(async () => (await c.locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 60_000, `the run of ${block}`);
  return c;
}

/** The table's cells as text, row by row, with the column names. */
async function tableOf(c) {
  return c.locator('[data-testid="preview-table"]').evaluate((t) => ({
    names: [...t.querySelectorAll("thead th .colname")].map((e) => e.textContent),
    rows: [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  }));
}

const sql = `SELECT DATE '2024-03-10' AS d, TIMESTAMP '2024-03-10 02:30:00' AS wall, TIMESTAMPTZ '2024-03-10 12:00:00+00' AS at,
  TIME '02:30:00' AS t, 170141183460469231731687303715884105727::HUGEINT AS h, 18446744073709551615::UBIGINT AS u,
  1234567890123456789012345678.0123456789::DECIMAL(38,10) AS x, 9007199254740993::BIGINT AS big`;

test("a SQL cell: dates and wall times are never shifted, instants follow the zone with their offset, big numbers are exact", async () => {
  // The upstream cell runs first so the SQL cell has data (its draft).
  await cell(page, "raw_orders").locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await eventually(async () => (await cell(page, "raw_orders").locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 60_000, "raw_orders");
  assert.equal(await page.locator('[data-testid="zone-mode"]').inputValue(), "pipeline", "the display zone defaults to the pipeline's");
  const c = await runText("daily_customer_metrics", sql);
  let t = await tableOf(c);
  const col = (name) => t.names.indexOf(name);
  const want = {
    d: "2024-03-10",
    wall: "2024-03-10 02:30:00",
    at: "2024-03-10 08:00:00 -04:00",
    t: "02:30:00",
    h: "170141183460469231731687303715884105727",
    u: "18446744073709551615",
    x: "1234567890123456789012345678.0123456789",
    big: "9007199254740993",
  };
  for (const [k, v] of Object.entries(want)) assert.equal(t.rows[0][col(k)], v, `column ${k} in America/New_York`);
  assert.match(await c.locator('[data-testid="preview-table"] thead').innerText(), /decimal\(38,10\)/);
  assert.match(await c.locator(".preview-meta").innerText(), /times in America\/New_York/);

  await page.locator('[data-testid="zone-mode"]').selectOption("utc");
  await eventually(async () => (await c.locator(".preview-meta").innerText()).includes("times in UTC"), 5000, "UTC");
  t = await tableOf(c);
  assert.equal(t.rows[0][col("at")], "2024-03-10 12:00:00 +00:00", "the instant moves with the zone");
  assert.equal(t.rows[0][col("d")], "2024-03-10", "a date does not");
  assert.equal(t.rows[0][col("wall")], "2024-03-10 02:30:00", "a wall time does not");
  await page.locator('[data-testid="zone-mode"]').selectOption("pipeline");
  await screenshot(page, "exact-sql");
});

const goBlock = `package raw_orders

import (
	"fmt"
	"math/big"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.Date("d"), sdk.Timestamp("wall"), sdk.Time("at"),
		sdk.Uint64("u"), sdk.Int128("h"), sdk.Decimal("amount", 38, 10), sdk.String("name"))
	ny, _ := time.LoadLocation("America/New_York")
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	for i := 0; i < 250; i++ {
		t.Append(i, time.Date(2024, 3, 10, 23, 0, 0, 0, ny), time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC),
			time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC), uint64(18446744073709551615)-uint64(i),
			new(big.Int).Sub(huge, big.NewInt(int64(i))), fmt.Sprintf("1234567890123456789012345678.%010d", (i*37)%250),
			fmt.Sprintf("cust-%03d", i))
	}
	return t, t.Err()
}
`;

test("a Go cell's time.Time columns and exact numbers, then sort, page, filter, resize, copy and CSV over all 250 rows", async () => {
  const c = await runText("raw_orders", goBlock);
  let t = await tableOf(c);
  const col = (name) => t.names.indexOf(name);
  assert.deepEqual(t.rows[0], ["0", "2024-03-10", "2024-03-10 02:30:00", "2024-03-10 08:00:00 -04:00", "18446744073709551615",
    "170141183460469231731687303715884105727", "1234567890123456789012345678.0000000000", "cust-000"]);
  assert.equal(t.rows.length, 100);
  assert.match(await c.locator('[data-testid="row-count"]').innerText(), /^250 rows/);

  // Sort descending by amount: the server sorts all 250 rows, not the 100 shown.
  const amount = c.locator('th[data-col="amount"]');
  await amount.click();
  await amount.click();
  await eventually(async () => (await amount.getAttribute("aria-sort")) === "descending" && !(await c.locator(".spinner").count()), 10_000, "sorted");
  await eventually(async () => (await tableOf(c)).rows[0][col("amount")] === "1234567890123456789012345678.0000000249", 10_000, "the largest amount first");

  // Pages past 100 rows keep the sort.
  await c.locator('[data-testid="page-next"]').click();
  await eventually(async () => (await c.locator('[data-testid="page-range"]').innerText()).includes("101–200"), 10_000, "page 2");
  await c.locator('[data-testid="page-next"]').click();
  await eventually(async () => (await c.locator('[data-testid="page-range"]').innerText()).includes("201–250"), 10_000, "page 3");
  t = await tableOf(c);
  assert.equal(t.rows.length, 50);
  assert.equal(t.rows[49][col("amount")], "1234567890123456789012345678.0000000000", "the smallest amount last");
  assert.equal(await c.locator('[data-testid="page-next"]').isDisabled(), true);

  // Filter: rows whose text holds "cust-12" (cust-120 … cust-129), counted on the server.
  await c.locator('[data-testid="grid-filter"]').fill("cust-12");
  await eventually(async () => /^10 rows matching/.test(await c.locator('[data-testid="row-count"]').innerText()), 10_000, "the filter");
  t = await tableOf(c);
  assert.ok(t.rows.every((r) => r[col("name")].startsWith("cust-12")), "only matching rows");

  // Resize the name column by dragging its header's edge.
  const th = c.locator('th[data-col="name"]');
  const before = (await th.boundingBox()).width;
  const handle = (await th.locator('[data-testid="col-resize"]').boundingBox());
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 120, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  const widened = (await th.boundingBox()).width;
  assert.ok(widened >= before + 100, `the column widened from ${before} to ${widened}`);

  // Copy: a cell, then a rectangle, as TSV through Ctrl+C.
  const rows = c.locator('[data-testid="preview-table"] tbody tr');
  await rows.nth(0).locator("td").nth(col("h")).click();
  await page.keyboard.press("Control+C");
  const one = await page.evaluate(() => navigator.clipboard.readText());
  const n0 = BigInt((await tableOf(c)).rows[0][col("n")]);
  assert.equal(one, String(170141183460469231731687303715884105727n - n0), "one int128, exact");
  await rows.nth(0).locator("td").nth(col("n")).click();
  await rows.nth(1).locator("td").nth(col("d")).click({ modifiers: ["Shift"] });
  await page.keyboard.press("Control+C");
  const two = await page.evaluate(() => navigator.clipboard.readText());
  const lines = two.split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^12\d\t2024-03-10$/);

  // CSV export: the whole (filtered, sorted) result from the server, values exact.
  await c.locator('[data-testid="grid-filter"]').fill("");
  await eventually(async () => /^250 rows/.test(await c.locator('[data-testid="row-count"]').innerText()), 10_000, "the filter cleared");
  const [download] = await Promise.all([page.waitForEvent("download"), c.locator('[data-testid="grid-csv"]').click()]);
  const csv = readFileSync(await download.path(), "utf8").trim().split("\n");
  assert.equal(csv.length, 251);
  assert.equal(csv[0], "n,d,wall,at,u,h,amount,name");
  assert.equal(csv[1].split(",")[6], "1234567890123456789012345678.0000000249", "sorted like the grid");
  assert.ok(csv.includes("0,2024-03-10,2024-03-10T02:30:00,2024-03-10T08:00:00-04:00,18446744073709551615,170141183460469231731687303715884105727,1234567890123456789012345678.0000000000,cust-000"));
  await screenshot(page, "exact-go");
});

test("a stored product pages past 100 rows sorted by DuckDB over the whole partition, and exports it", async () => {
  await server.api("POST", "/pipelines/clv/runs?wait=true", { partition: "2024-03-10" });
  const all = await server.api("GET", "/products/clv__raw_orders/preview?partition=2024-03-10&limit=10000&sort=amount:desc");
  const n = all.preview.row_count;
  assert.ok(n > 100, `the partition has ${n} rows; the test needs more than 100`);
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="stored-tab"]').click();
  await eventually(async () => /stored/.test(await c.locator(".preview-meta").innerText()), 10_000, "the stored view");
  assert.match(await c.locator('[data-testid="row-count"]').innerText(), new RegExp(`^${n.toLocaleString("en-US")} rows`));
  const amount = c.locator('th[data-col="amount"]');
  await amount.click();
  await amount.click();
  await eventually(async () => (await amount.getAttribute("aria-sort")) === "descending", 10_000, "sorted");
  await c.locator('[data-testid="page-next"]').click();
  await eventually(async () => (await c.locator('[data-testid="page-range"]').innerText()).includes("101–"), 10_000, "page 2");
  const t = await tableOf(c);
  const names = all.preview.columns.map((col) => col.name);
  // Ties keep the read order on the server, so the page's first order is the whole sort's 101st.
  assert.equal(t.rows[0][t.names.indexOf("order_id")], all.preview.rows[100][names.indexOf("order_id")], "row 101 of the whole sorted partition");
  const [download] = await Promise.all([page.waitForEvent("download"), c.locator('[data-testid="grid-csv"]').click()]);
  const csv = readFileSync(await download.path(), "utf8").trim().split("\n");
  assert.equal(csv.length, n + 1, "every row of the partition, not the page");
});
