// Journey 2: stored partitions previewed inline without re-running: one
// partition, the last N, a past version; a chart of a window; a product's
// partitions as a status strip (current, stale, missing); rollback.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("preview");
  // Data to preview: five days through a backfill, then a second version of 2024-01-03.
  const bf = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-05", concurrency: 2 });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 60_000, "the setup backfill");
  await server.api("POST", "/pipelines/clv/runs?wait=true", { partition: "2024-01-03" });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-05");
  await cell(page, "daily_customer_metrics").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a cell previews its stored partition without running", async () => {
  const c = cell(page, "daily_customer_metrics");
  await c.locator('[data-testid="stored-tab"]').click();
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 10_000 });
  assert.match(await c.locator(".preview-meta").innerText(), /partition 2024-01-05/);
  assert.equal(await c.locator('[data-testid="run-status"]').count(), 0, "nothing ran");
});

test("the last N partitions, charted in one click", async () => {
  const c = cell(page, "daily_customer_metrics");
  await c.locator('[data-testid="window-mode"]').selectOption("last");
  await c.locator('[data-testid="window-last"]').fill("3");
  await c.locator('[data-testid="window-load"]').click();
  await eventually(async () => (await c.locator(".preview-meta").innerText()).includes("last 3 partitions"), 10_000, "the window");
  const head = await c.locator('[data-testid="preview-table"] thead').innerText();
  assert.match(head, /_partition/);
  await c.locator('[data-testid="chart-toggle"]').click();
  const chart = c.locator('[data-testid="chart"]');
  await chart.waitFor({ timeout: 10_000 });
  assert.equal(await chart.locator("circle.pt").count(), 3, "one point per partition");
  assert.match(await chart.locator("path.line").getAttribute("d"), /^M[\d.]+,[\d.]+ L/);
  await screenshot(page, "preview-window-chart");
});

test("a product's partitions as a status strip, its versions, and rollback", async () => {
  // A code change makes the partitions written with the old code stale.
  const b = await server.api("GET", "/pipelines/clv/blocks/raw_orders");
  await server.api("PUT", "/pipelines/clv/blocks/raw_orders", { source: b.source + "\nfunc changed() {}\n" });
  page.on("dialog", (d) => d.accept());
  await page.goto(server.base + "/products/clv__raw_orders?end=2024-01-07");
  const strip = page.locator('[data-testid="status-strip"]');
  await strip.locator('[data-key="2024-01-07"]').waitFor({ timeout: 10_000 });
  assert.equal(await strip.locator('[data-key="2024-01-03"]').getAttribute("data-state"), "stale");
  assert.equal(await strip.locator('[data-key="2024-01-07"]').getAttribute("data-state"), "missing");
  await strip.locator('[data-key="2024-01-03"]').click();
  const versions = page.locator('[data-testid="versions"]');
  await eventually(async () => (await versions.locator("tbody tr").count()) === 2, 10_000, "two versions of 2024-01-03");
  assert.match(await versions.locator("tr.current").innerText(), /v2/);
  await page.locator('[data-testid="preview-table"]').waitFor();
  // Preview the old version, then make it current again.
  await versions.locator("tbody tr:not(.current)").getByRole("button", { name: "preview" }).click();
  await eventually(async () => (await page.locator(".preview-meta").innerText()).includes("version 1 of 2024-01-03"), 10_000, "the old version");
  await versions.locator('[data-testid="rollback"]').click();
  await eventually(async () => /v1/.test(await versions.locator("tr.current").innerText()), 10_000, "v1 current");
  // The newer version is now one click from being current again, and says so.
  assert.equal((await versions.locator('[data-testid="rollback"]').innerText()).trim(), "make v2 current");
  await screenshot(page, "preview-product");
});
