// Partitions beyond the calendar in the UI: a day × region pipeline's
// backfill grid filters by region, and the pipeline page's partition picker
// picks the region as well as the day.

import assert from "node:assert/strict";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

const PIPELINE = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: by_region
`;

let server, browser, bf;

before(async () => {
  server = await startServer("cells");
  browser = await launchBrowser();
  mkdirSync(join(server.project, "blocks"), { recursive: true });
  writeFileSync(join(server.project, "blocks", "by_region.sql"), "SELECT $dim_region AS region, $partition_key AS cell\n");
  await server.api("PUT", "/pipelines/cells", { yaml: PIPELINE });
  bf = await server.api("POST", "/backfills", { pipeline: "cells", from: "2024-01-01", to: "2024-01-03" });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 60_000, "the backfill to succeed");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the backfill grid filters its cells by region", async () => {
  const page = await signedInPage(browser, server, `/backfills/${bf.id}`);
  const region = page.locator('[data-testid="dim-filter-region"]');
  await region.waitFor({ timeout: 20_000 });
  await eventually(async () => /succeeded 9/.test(await page.locator(".legend").innerText()), 20_000, "nine cells in the legend");
  await region.selectOption("eu");
  await eventually(async () => (await page.locator('[data-testid="dim-filter-count"]').innerText()) === "showing 3 of 9 cells", 10_000, "the filter to show eu's 3 cells");
  await screenshot(page, "cells-grid-filter");
  await region.selectOption("");
  await eventually(async () => (await page.locator('[data-testid="dim-filter-count"]').count()) === 0, 10_000, "the filter to be lifted");
  await page.context().close();
});

test("the partition picker picks the region beside the day", async () => {
  const page = await signedInPage(browser, server, `/pipelines/cells?partition=${encodeURIComponent("2024-01-02|us")}`);
  const input = page.locator('[data-testid="partition-input"]');
  await input.waitFor({ timeout: 20_000 });
  await eventually(async () => (await input.inputValue()) === "2024-01-02|us", 10_000, "the cell from the URL");
  await page.locator('[data-testid="dim-pick-region"]').selectOption("apac");
  await eventually(async () => (await input.inputValue()) === "2024-01-02|apac", 10_000, "the picked region in the key");
  assert.match(await page.locator('[data-testid="run-pipeline"]').innerText(), /Run pipeline for 2024-01-02\|apac/);
  await page.locator('button[title="next partition"]').click();
  await eventually(async () => (await input.inputValue()) === "2024-01-03|apac", 10_000, "the next day, same region");
  await input.fill("2024-01-03|mars");
  await input.press("Enter");
  await eventually(async () => /not a cell of DAY\|region: want e\.g\. \d{4}-\d\d-\d\d\|us/.test(await page.locator(".partition-picker").innerText()), 10_000, "the bad cell refused");
  await screenshot(page, "cells-picker");
  await page.context().close();
});
