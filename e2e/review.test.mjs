// The review journey: a block changes; "Backfill…" on the pipeline page
// opens the dialog over the pipeline's calendar; dragging over three days
// selects them, the dry-run plan follows inline; the backfill is launched
// for review and publishes nothing; its review tab shows per product what
// would change and a heat map; a day opens to its keyed row diff; Promote,
// confirmed, makes the staged versions current.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("review");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-06" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 60_000, "the first backfill");
  // Revenue rounded to whole units from now on: every customer's revenue changes.
  const b = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const source = b.source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(source, b.source, "the demo block rounds revenue to 2 digits");
  await server.api("PUT", "/pipelines/clv/blocks/daily_customer_metrics", { source });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const current = async (day) => (await server.api("GET", "/products/daily_customer_metrics/partitions")).partitions.find((p) => p.key === day).current;

test("drag over the calendar in the Backfill… dialog, see the plan, launch for review", async () => {
  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor();
  const cal = dialog.locator('[data-testid="bf-calendar"]');
  await eventually(() => cal.evaluate((el) => el.calendar.shown), 30_000, "the calendar of the pipeline's history");
  const box = await cal.locator("canvas").boundingBox();
  const at = (day) => cal.evaluate((el, d) => el.calendar.cellCenter(d), day);
  const a = await at("2024-01-02");
  const z = await at("2024-01-04");
  await cal.evaluate((el, y) => (el.scrollTop = y - 40), a.y);
  const box2 = await cal.locator("canvas").boundingBox();
  await page.mouse.move(box2.x + a.x, box2.y + a.y);
  await page.mouse.down();
  await page.mouse.move(box2.x + z.x, box2.y + z.y, { steps: 6 });
  await page.mouse.up();
  assert.ok(box.width > 0);
  assert.equal(await dialog.locator('[data-testid="bf-from"]').inputValue(), "2024-01-02");
  assert.equal(await dialog.locator('[data-testid="bf-to"]').inputValue(), "2024-01-04");
  await dialog.locator('[data-testid="bf-reprocess"]').selectOption("all");
  await eventually(async () => /^3 partitions to run, 0 to skip of 3/.test(await dialog.locator('[data-testid="plan-headline"]').innerText()), 20_000, "the inline plan");
  assert.equal(await dialog.locator('[data-testid="bf-publish"]').inputValue(), "review");
  assert.match(await dialog.locator('[data-testid="bf-strips"]').innerText(), /daily_customer_metrics/);
  await screenshot(page, "review-dialog");
  await eventually(async () => !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 10_000, "launch enabled");
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/);
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "review", 60_000, "ready for review");
  assert.equal(await current("2024-01-03"), 1, "a review backfill publishes nothing");
});

test("the review tab: summary, heat map, a partition's row diff", async () => {
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-summary"]').waitFor({ timeout: 30_000 });
  assert.match(await review.locator('[data-testid="review-summary"]').innerText(), /daily_customer_metrics\s+3\s+0\s+0/);
  assert.match(await review.locator('[data-testid="review-gates"]').innerText(), /revenue_total/);
  const heat = review.locator('[data-testid="review-heatmap"]');
  await eventually(() => heat.evaluate((el) => el.calendar.shown), 20_000, "the heat map");
  const c = await heat.evaluate((el) => el.calendar.cellCenter("2024-01-03"));
  await heat.evaluate((el, y) => (el.scrollTop = y - 40), c.y);
  const box = await heat.locator("canvas").boundingBox();
  await page.mouse.click(box.x + c.x, box.y + c.y);
  const diff = review.locator('[data-testid="row-diff"]');
  await diff.waitFor({ timeout: 20_000 });
  assert.match(await diff.locator('[data-testid="row-diff-counts"]').innerText(), /\d+ changed, 0 added, 0 removed .* key customer_id/);
  assert.ok((await diff.locator("tr.old.changed").count()) > 0 && (await diff.locator("tr.new.changed").count()) > 0, "old and new rows side by side");
  await screenshot(page, "review-diff");
});

test("promote, confirmed, makes the staged versions current", async () => {
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-promote"]').click();
  const confirm = review.locator('[data-testid="review-confirm"]');
  assert.match(await confirm.innerText(), /Make \d+ staged versions current in one transaction/);
  assert.match(await confirm.innerText(), /daily_customer_metrics: 3 partitions \(2024-01-02 … 2024-01-04\)/);
  await confirm.locator('[data-testid="review-confirm-yes"]').click();
  await eventually(async () => (await current("2024-01-03")) === 2, 20_000, "version 2 current");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "succeeded", 20_000, "the backfill succeeded");
  await screenshot(page, "review-promoted");
});

test("newer work refuses a promote as a review conflict; the rest is promoted; discard and rollback made elsewhere are pushed", async () => {
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-05", to: "2024-01-06", reprocess: "all", publish: "review" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "review", 60_000, "the second review backfill");
  await page.goto(`${server.base}/backfills/${st.id}`);
  const review = page.locator('[data-testid="review"]');
  const staged = review.locator('[data-testid="review-staged"]');
  await eventually(async () => / · review · /.test(await staged.innerText().catch(() => "")), 30_000, "the review tab");
  // Newer work on 2024-01-06 after staging: promoting there would overwrite it.
  const run = await server.api("POST", "/pipelines/clv/runs", { partition: "2024-01-06" });
  await eventually(async () => ["succeeded", "failed"].includes((await server.api("GET", `/runs/${run.run_id}`)).state), 60_000, "the newer run");
  await review.locator('[data-testid="review-promote"]').click();
  if (await review.locator('[data-testid="review-override"]').count()) await review.locator('[data-testid="review-override"]').check();
  await review.locator('[data-testid="review-confirm-yes"]').click();
  const conflict = review.locator('[data-testid="review-conflict"]');
  await conflict.waitFor({ timeout: 20_000 });
  assert.match(await conflict.innerText(), /Promote refused, nothing was switched/);
  assert.match(await conflict.innerText(), /2024-01-06/);
  assert.doesNotMatch(await conflict.innerText(), /2024-01-05/);
  await conflict.locator('[data-testid="review-promote-skip-newer"]').click();
  await eventually(async () => /promoted \d+ versions/.test(await review.locator('[data-testid="review-promotions"]').innerText().catch(() => "")), 20_000, "the rest promoted");
  assert.ok((await current("2024-01-05")) > 1, "2024-01-05 promoted");
  await page.evaluate(() => (window.__notReloaded = true)); // gone if the page reloads
  // Discarded and rolled back through the API, not this page: only the pushed review can tell it.
  await server.api("POST", `/backfills/${st.id}/discard`);
  await eventually(async () => /^0 versions staged · cancelled/.test(await staged.innerText()), 30_000, "the pushed review after the discard");
  assert.equal(await review.locator('[data-testid="review-promote"]').count(), 0, "nothing left to promote");
  await server.api("POST", `/backfills/${st.id}/rollback`);
  await eventually(async () => / · rolled_back · /.test(await staged.innerText()), 30_000, "the pushed review after the rollback");
  assert.equal(await review.locator('[data-testid="review-rollback"]').count(), 0, "rolled back once");
  assert.equal(await page.evaluate(() => window.__notReloaded), true, "the page was not reloaded");
  await screenshot(page, "review-pushed");
});
