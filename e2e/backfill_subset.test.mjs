// A backfill of a subset of blocks, launched from the pipeline page's
// Backfill… dialog: the checked blocks run, the form says which blocks left
// out turn stale, and they do; the concurrency field says what its 0 means.
// The API refuses a block id that does not exist, naming the blocks.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("backfill-subset");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-03" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 120_000, "the first backfill");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor({ timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const current = async (product, day) => (await server.api("GET", `/products/${product}/partitions`)).partitions.find((p) => p.key === day)?.current;

test("a backfill of two blocks from the dialog: the rest is not run and turns stale", async () => {
  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor();
  assert.match(await dialog.locator('[data-testid="bf-concurrency-note"]').innerText(), /0 = the pipeline's 4 at once/);
  await dialog.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await dialog.locator('[data-testid="bf-to"]').fill("2024-01-03");
  await dialog.locator('[data-testid="bf-to"]').press("Tab");
  await dialog.locator('[data-testid="bf-reprocess"]').selectOption("all");
  await dialog.locator('[data-testid="bf-publish"]').selectOption("partition");
  for (const b of ["clv", "segments", "segment_stats", "segment_report", "weekly_customer_rollup"]) await dialog.locator(`[data-testid="bf-block-${b}"]`).uncheck();
  // The note re-renders after the last box's change event: read at once, it
  // could still lack the last block unchecked (seen under load in CI).
  const noteText = () => dialog.locator('[data-testid="bf-blocks-note"]').innerText();
  await eventually(async () => /clv, segments, segment_stats, segment_report, weekly_customer_rollup keep their versions, which become stale/.test(await noteText()), 10_000, "the note names every block left out");
  assert.match(await noteText(), /Only the checked blocks run/);
  assert.match(await dialog.locator('[data-testid="bf-blocks"] legend').innerText(), /2 of 7/);
  // The plan is of the subset: no rollup, only the two blocks' products.
  await eventually(async () => (await dialog.locator('[data-testid="plan-headline"]').count()) === 1 && !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 30_000, "the plan of the subset");
  const planned = await dialog.locator('[data-testid="plan-products"] tbody').innerText();
  assert.doesNotMatch(planned, /weekly|rollup/, planned);
  await screenshot(page, "backfill-subset-dialog");
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/, { timeout: 30_000 });
  const id = decodeURIComponent(page.url().split("/backfills/")[1].split(/[?#]/)[0]);
  await eventually(async () => (await server.api("GET", `/backfills/${id}`)).state === "succeeded", 120_000, "the subset backfill");
  const st = await server.api("GET", `/backfills/${id}`);
  assert.deepEqual(st.spec.blocks, ["raw_orders", "daily_customer_metrics"]);
  assert.equal(st.total, 3, "three days, no weekly rollup");
  assert.equal(await current("daily_customer_metrics", "2024-01-02"), 2);
  // What was left out downstream is now stale on those days.
  const plan = await server.api("POST", "/backfills/plan", { pipeline: "clv", from: "2024-01-01", to: "2024-01-03", reprocess: "stale" });
  assert.equal(plan.by_state.stale, 3, JSON.stringify(plan.by_state));
  await screenshot(page, "backfill-subset-done");
});

test("the API refuses a block the pipeline does not have, naming its blocks", async () => {
  await assert.rejects(
    server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-02", blocks: ["raw_order"] }),
    /: 400 .*no block \\"raw_order\\" \(its blocks: raw_orders, daily_customer_metrics/,
  );
});
