// A review that has ended (discarded, or promoted and rolled back) offers
// nothing to resume or retry, and a partition's row diff open when it ended
// does not show "Diffing…" forever. Both used to: Discard left the diff
// waiting for a request never made, and the discarded backfill (cancelled,
// its partitions marked cancelled) offered Resume and "Retry 2 failed or
// cancelled", which would have run again what the user had just thrown away.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("review-ended");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-04" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 60_000, "the first backfill");
  const b = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const source = b.source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(source, b.source, "the demo block rounds revenue to 2 digits");
  await server.api("PUT", "/pipelines/clv/blocks/daily_customer_metrics", { source });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Launches a review backfill over [from, to] and opens its page on the review tab. */
async function openReview(from, to) {
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from, to, reprocess: "all", publish: "review" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "review", 60_000, "the review backfill");
  await page.goto(`${server.base}/backfills/${st.id}`);
  const review = page.locator('[data-testid="review"]');
  await eventually(async () => / · review · /.test(await review.locator('[data-testid="review-staged"]').innerText().catch(() => "")), 30_000, "the review tab");
  return { id: st.id, review };
}

/** Clicks a day of the heat map and waits for its row diff. */
async function openDiff(review, day) {
  const heat = review.locator('[data-testid="review-heatmap"]');
  await eventually(() => heat.evaluate((el) => el.calendar.shown), 20_000, "the heat map");
  const c = await heat.evaluate((el, d) => el.calendar.cellCenter(d), day);
  await heat.evaluate((el, y) => (el.scrollTop = y - 40), c.y);
  const box = await heat.locator("canvas").boundingBox();
  await page.mouse.click(box.x + c.x, box.y + c.y);
  await review.locator('[data-testid="row-diff"]').waitFor({ timeout: 20_000 });
}

async function confirm(review, action) {
  await review.locator(`[data-testid="${action}"]`).click();
  await review.locator('[data-testid="review-confirm-yes"]').click();
}

/** Nothing to resume or retry, and no diff left waiting. */
async function assertEnded(review, state) {
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === state, 30_000, `the backfill ${state}`);
  await eventually(async () => new RegExp(` · ${state} · `).test(await review.locator('[data-testid="review-staged"]').innerText()), 30_000, `the review ${state}`);
  // Give a pending request every chance to come back before looking.
  await eventually(async () => !/Diffing/.test(await review.innerText()), 10_000, "no row diff left waiting");
  assert.equal(await page.locator('[data-testid="bf-resume"]').count(), 0, `a ${state} review offers Resume`);
  assert.equal(await page.locator('[data-testid="bf-retry"]').count(), 0, `a ${state} review offers Retry`);
  assert.equal(await page.locator('[data-testid="bf-retry-current"]').count(), 0, `a ${state} review offers Retry with the current code`);
}

test("a review discarded in the browser offers no Resume or Retry, and its open diff does not wait forever", async () => {
  const { review } = await openReview("2024-01-02", "2024-01-03");
  await openDiff(review, "2024-01-03");
  await confirm(review, "review-discard");
  await assertEnded(review, "cancelled");
  assert.match(await page.locator('[data-testid="bf-ended"]').innerText(), /discarded/);
  await screenshot(page, "review-discarded");
});

test("a review promoted then rolled back in the browser offers no Resume or Retry, and its open diff does not wait forever", async () => {
  const { review } = await openReview("2024-01-03", "2024-01-04");
  await openDiff(review, "2024-01-04");
  await confirm(review, "review-promote");
  await eventually(async () => /promoted \d+ versions/.test(await review.locator('[data-testid="review-promotions"]').innerText().catch(() => "")), 20_000, "promoted");
  await eventually(async () => !/Diffing/.test(await review.innerText()), 10_000, "no row diff left waiting after the promote");
  await confirm(review, "review-rollback");
  await assertEnded(review, "rolled_back");
  await screenshot(page, "review-rolled-back");
});
