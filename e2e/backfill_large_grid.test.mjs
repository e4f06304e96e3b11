// A backfill grid larger than one page (731 days × 30 regions = 21,930
// cells; a page is 20,000): the page reads the pages in view, not every
// page, and its region filter is answered by the server. Before, the page
// read every page at once (for 3.65 million cells: 183 reads of 20,000 and
// every cell held in the browser) and filtered the cells it had read.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

const REGIONS = Array.from({ length: 30 }, (_, i) => `r${String(i).padStart(2, "0")}`);
const PIPELINE = `partitions:
  interval: day
  timezone: UTC
  start: "2023-01-01"
  dimensions:
    - name: region
      values: [${REGIONS.join(", ")}]
blocks:
  - id: by_region
`;
const CELLS = 731 * 30;

let server, browser, bf;

before(async () => {
  server = await startServer("biggrid");
  browser = await launchBrowser();
  mkdirSync(join(server.project, "blocks"), { recursive: true });
  writeFileSync(join(server.project, "blocks", "by_region.sql"), "SELECT $dim_region AS region\n");
  await server.api("PUT", "/pipelines/big", { yaml: PIPELINE });
  // Launched and cancelled: its grid is every cell, a few run, the rest cancelled.
  bf = await server.api("POST", "/backfills", { pipeline: "big", from: "2023-01-01", to: "2024-12-31", concurrency: 1 });
  await server.api("POST", `/backfills/${bf.id}/cancel`);
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "cancelled", 60_000, "the backfill to be cancelled");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The backfill's page, and the partitions reads it makes (their query strings). */
async function gridPage() {
  const page = await signedInPage(browser, server, "/");
  const reads = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith(`/backfills/${bf.id}/partitions`)) reads.push(u.searchParams);
  });
  await page.goto(`${server.base}/backfills/${bf.id}`);
  await page.locator('[data-testid="partition-grid"][data-painted="1"]').waitFor({ timeout: 30_000 });
  return { page, reads };
}

test("a grid larger than one page reads the pages in view only, and the next one when scrolled to", async () => {
  const { page, reads } = await gridPage();
  await page.waitForTimeout(1500); // anything else it was going to read
  const offsets = () => reads.map((q) => Number(q.get("offset")));
  assert.ok(offsets().length > 0 && offsets().every((o) => o === 0), `read offsets ${offsets()} before scrolling: want the first page only`);
  const grid = page.locator('[data-testid="partition-grid"]');
  await grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await eventually(async () => offsets().includes(20000), 10_000, "the last page read once scrolled to");
  await screenshot(page, "backfill-large-grid");
  await page.context().close();
});

test("the region filter of a large grid is the server's: the grid holds that region's cells", async () => {
  const { page, reads } = await gridPage();
  const region = page.locator('[data-testid="dim-filter-region"]');
  await region.waitFor({ timeout: 20_000 });
  await region.selectOption("r07");
  await eventually(async () => (await page.locator('[data-testid="dim-filter-count"]').innerText()) === `showing 731 of ${CELLS.toLocaleString("en-US")} cells`, 10_000, "r07's 731 cells");
  assert.ok(reads.some((q) => q.getAll("where").includes("region=r07")), "the filter was sent to the server");
  // The first cell is r07's first day.
  const canvas = grid(page);
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + 3, box.y + 3);
  await eventually(async () => (await page.locator('[data-testid="hover-line"]').innerText()).startsWith("2023-01-01|r07"), 10_000, "r07's first cell under the pointer");
  await region.selectOption("");
  await eventually(async () => (await page.locator('[data-testid="dim-filter-count"]').count()) === 0, 10_000, "the filter to be lifted");
  await page.context().close();
});

const grid = (page) => page.locator('[data-testid="partition-grid"] canvas');
